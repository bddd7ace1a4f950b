-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark / tshark dissector for the ftsw fabric header (ethertype 0x88B5,
-- struct ftsw_hdr in include/uapi/linux/ftsw.h), big endian:
--
--   offset 0  DLID   16 bits   destination LID
--          2  SLID   16 bits   source LID
--          4  SL      8 bits   bits 3..0 service level, bits 7..4 zero
--          5  hops    8 bits   link hops taken so far
--          6  proto  16 bits   encapsulated ethertype
--          8  payload, handed to the ethertype table (IPv4, IPv6, ARP, ...)
--
-- Installed by `make install` into Wireshark's global Lua plugin folder
-- (WIRESHARK_PLUGINDIR); otherwise: tshark -X lua_script:ftsw.lua ...
-- Display filter fields: ftsw.dlid ftsw.slid ftsw.sl ftsw.sl_reserved
-- ftsw.hops ftsw.proto.

local FTSW_ETH_P = 0x88B5
local FTSW_HLEN = 8
local FTSW_MAX_LID = 0xBFFF

local ftsw = Proto("ftsw", "ftsw fabric header")

local inner_names = {
	[0x0800] = "IPv4",
	[0x0806] = "ARP",
	[0x86DD] = "IPv6",
}

local f_dlid = ProtoField.uint16("ftsw.dlid", "DLID", base.DEC)
local f_slid = ProtoField.uint16("ftsw.slid", "SLID", base.DEC)
local f_sl = ProtoField.uint8("ftsw.sl", "SL", base.DEC, nil, 0x0F)
local f_slres = ProtoField.uint8("ftsw.sl_reserved", "Reserved", base.HEX,
				 nil, 0xF0)
local f_hops = ProtoField.uint8("ftsw.hops", "Hops", base.DEC)
local f_proto = ProtoField.uint16("ftsw.proto", "Inner protocol", base.HEX,
				  inner_names)
ftsw.fields = { f_dlid, f_slid, f_sl, f_slres, f_hops, f_proto }

local e_short = ProtoExpert.new("ftsw.short", "Fabric header truncated",
				expert.group.MALFORMED, expert.severity.ERROR)
local e_dlid = ProtoExpert.new("ftsw.bad_dlid", "DLID outside 1..0xBFFF",
			       expert.group.MALFORMED, expert.severity.WARN)
local e_res = ProtoExpert.new("ftsw.sl_reserved_set", "Reserved SL bits set",
			      expert.group.MALFORMED, expert.severity.WARN)
ftsw.experts = { e_short, e_dlid, e_res }

local ethertype = DissectorTable.get("ethertype")
local data = Dissector.get("data")

function ftsw.dissector(tvb, pinfo, tree)
	local len = tvb:len()

	pinfo.cols.protocol = "ftsw"
	local t = tree:add(ftsw, tvb(0, math.min(len, FTSW_HLEN)))
	if len < FTSW_HLEN then
		t:add_proto_expert_info(e_short)
		return
	end
	local dlid = tvb(0, 2):uint()
	local slid = tvb(2, 2):uint()
	local sl = tvb(4, 1):uint()
	local hops = tvb(5, 1):uint()
	local proto = tvb(6, 2):uint()

	local di = t:add(f_dlid, tvb(0, 2))
	if dlid == 0 or dlid > FTSW_MAX_LID then
		di:add_proto_expert_info(e_dlid)
	end
	t:add(f_slid, tvb(2, 2))
	t:add(f_sl, tvb(4, 1))
	local ri = t:add(f_slres, tvb(4, 1))
	if bit.band(sl, 0xF0) ~= 0 then
		ri:add_proto_expert_info(e_res)
	end
	t:add(f_hops, tvb(5, 1))
	t:add(f_proto, tvb(6, 2))
	t:append_text(string.format(", DLID %d, SLID %d, SL %d, hops %d",
				    dlid, slid, bit.band(sl, 0x0F), hops))
	pinfo.cols.info = string.format("DLID %d <- SLID %d SL %d hops %d",
					dlid, slid, bit.band(sl, 0x0F), hops)

	local payload = tvb(FTSW_HLEN):tvb()
	if not ethertype:try(proto, payload, pinfo, tree) then
		data:call(payload, pinfo, tree)
	end
	return len
end

ethertype:add(FTSW_ETH_P, ftsw)
