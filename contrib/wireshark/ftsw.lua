-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark / tshark dissector for the ftsw fabric header (ethertype 0x88B5,
-- struct ftsw_hdr in include/uapi/linux/ftsw.h), big endian:
--
--   offset 0  DLID   16 bits   destination LID (1..0xBFFF unicast,
--                              0xC000..0xFFFE multicast, 0xFFFF permissive)
--          2  SLID   16 bits   source LID
--          4  SL      8 bits   bits 3..0 service level, bit 4 FECN, bit 5
--                              BECN, bits 7..6 zero
--          5  hops    8 bits   link hops taken so far
--          6  P_Key  16 bits   partition key: bit 15 full member, 14..0
--                              the partition
--          8  proto  16 bits   encapsulated ethertype
--         10  payload, handed to the ethertype table (IPv4, IPv6, ARP, ...)
--
-- Installed by `make install` into Wireshark's global Lua plugin folder
-- (WIRESHARK_PLUGINDIR); otherwise: tshark -X lua_script:ftsw.lua ...
-- Display filter fields: ftsw.dlid ftsw.slid ftsw.sl ftsw.fecn ftsw.becn
-- ftsw.sl_reserved ftsw.hops ftsw.pkey ftsw.pkey_full ftsw.proto.

local FTSW_ETH_P = 0x88B5
local FTSW_HLEN = 10

local ftsw = Proto("ftsw", "ftsw fabric header")

local inner_names = {
	[0x0800] = "IPv4",
	[0x0806] = "ARP",
	[0x86DD] = "IPv6",
}

local f_dlid = ProtoField.uint16("ftsw.dlid", "DLID", base.DEC)
local f_slid = ProtoField.uint16("ftsw.slid", "SLID", base.DEC)
local f_sl = ProtoField.uint8("ftsw.sl", "SL", base.DEC, nil, 0x0F)
local f_fecn = ProtoField.uint8("ftsw.fecn", "FECN", base.DEC, nil, 0x10)
local f_becn = ProtoField.uint8("ftsw.becn", "BECN", base.DEC, nil, 0x20)
local f_slres = ProtoField.uint8("ftsw.sl_reserved", "Reserved", base.HEX,
				 nil, 0xC0)
local f_hops = ProtoField.uint8("ftsw.hops", "Hops", base.DEC)
local f_pkey = ProtoField.uint16("ftsw.pkey", "P_Key", base.HEX)
local f_pfull = ProtoField.uint16("ftsw.pkey_full", "Full member", base.DEC,
				  nil, 0x8000)
local f_proto = ProtoField.uint16("ftsw.proto", "Inner protocol", base.HEX,
				  inner_names)
ftsw.fields = { f_dlid, f_slid, f_sl, f_fecn, f_becn, f_slres, f_hops,
		f_pkey, f_pfull, f_proto }

local e_short = ProtoExpert.new("ftsw.short", "Fabric header truncated",
				expert.group.MALFORMED, expert.severity.ERROR)
local e_dlid = ProtoExpert.new("ftsw.bad_dlid", "DLID 0 (reserved)",
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
	local pkey = tvb(6, 2):uint()
	local proto = tvb(8, 2):uint()

	local di = t:add(f_dlid, tvb(0, 2))
	if dlid == 0 then
		di:add_proto_expert_info(e_dlid)
	end
	t:add(f_slid, tvb(2, 2))
	t:add(f_sl, tvb(4, 1))
	t:add(f_fecn, tvb(4, 1))
	t:add(f_becn, tvb(4, 1))
	local ri = t:add(f_slres, tvb(4, 1))
	if bit.band(sl, 0xC0) ~= 0 then
		ri:add_proto_expert_info(e_res)
	end
	t:add(f_hops, tvb(5, 1))
	t:add(f_pkey, tvb(6, 2))
	t:add(f_pfull, tvb(6, 2))
	t:add(f_proto, tvb(8, 2))
	t:append_text(string.format(", DLID %d, SLID %d, SL %d, hops %d, P_Key 0x%04x",
				    dlid, slid, bit.band(sl, 0x0F), hops, pkey))
	pinfo.cols.info = string.format("DLID %d <- SLID %d SL %d hops %d P_Key 0x%04x",
					dlid, slid, bit.band(sl, 0x0F), hops,
					pkey)

	local payload = tvb(FTSW_HLEN):tvb()
	if not ethertype:try(proto, payload, pinfo, tree) then
		data:call(payload, pinfo, tree)
	end
	return len
end

ethertype:add(FTSW_ETH_P, ftsw)
