#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send malformed "ftsw" generic netlink requests and check each is rejected
with an extack message and changes nothing. Hand-rolled netlink on purpose:
the library never builds these messages. Prints TAP lines from --start."""
import os
import socket
import struct
import sys

import ftswnl
from ftswnl import attr, u8, u16, u32, raw

# full names (FTSW_ATTR_..., FTSW_CMD_...), from include/uapi/linux/ftsw.h
A = {"FTSW_ATTR_" + k: v for k, v in ftswnl.A.items()}
C = {"FTSW_CMD_" + k: v for k, v in ftswnl.C.items()}
NLM_F_REQUEST, NLM_F_ACK, NLM_F_ACK_TLVS = 1, 4, 0x200
SOL_NETLINK, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 270, 10, 11

sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
sk.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
sk.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
sk.bind((0, 0))
seq = 1


def request(family, cmd, body, raw_tail=b""):
    global seq
    seq += 1
    payload = struct.pack("BBH", cmd, 1, 0) + body + raw_tail
    sk.send(struct.pack("IHHII", 16 + len(payload), family,
                        NLM_F_REQUEST | NLM_F_ACK, seq, 0) + payload)
    while True:
        data = sk.recv(65536)
        off = 0
        while off < len(data):
            ln, typ, flags, s, _ = struct.unpack_from("IHHII", data, off)
            if typ == 2 and s == seq:       # NLMSG_ERROR
                err = struct.unpack_from("i", data, off + 16)[0]
                msg, tl = None, {}
                if flags & NLM_F_ACK_TLVS:
                    p = off + 16 + 4 + 16
                    while p + 4 <= off + ln:
                        al, at = struct.unpack_from("HH", data, p)
                        tl[at] = data[p + 4:p + al]
                        p += (al + 3) & ~3
                    if 1 in tl:
                        msg = tl[1].rstrip(b"\0").decode()
                    elif 5 in tl:
                        msg = "missing attribute %d" % struct.unpack("I", tl[5])[0]
                return err, msg, data[off:off + ln]
            off += (ln + 3) & ~3


def family_id():
    err, _, _ = (None, None, None)
    global seq
    seq += 1
    body = struct.pack("BBH", 3, 1, 0) + attr(2, b"ftsw\0")
    sk.send(struct.pack("IHHII", 16 + len(body), 0x10, NLM_F_REQUEST, seq, 0) + body)
    data = sk.recv(65536)
    p = 16 + 4
    while p < len(data):
        al, at = struct.unpack_from("HH", data, p)
        if at == 1:
            return struct.unpack_from("H", data, p + 4)[0]
        p += (al + 3) & ~3
    sys.exit("no ftsw family")


FAM = family_id()
lo = socket.if_nametoindex("lo")
veth = socket.if_nametoindex(sys.argv[2])
name = lambda s: raw("FTSW_ATTR_SWITCH_NAME", s)
SW = u32("FTSW_ATTR_SWITCH_ID", 1)
# a patch cable from switch 1 port 3 to its port P
PATCH = lambda p: (SW + u8("FTSW_ATTR_PORT_NUM", 3) + u32("FTSW_ATTR_PORT_PEER_SWITCH", 1) +
                   u8("FTSW_ATTR_PORT_PEER_NUM", p))
cases = [
    ("switch new without nports", "FTSW_CMD_SWITCH_NEW", SW),
    ("switch new nports 0", "FTSW_CMD_SWITCH_NEW", SW + u8("FTSW_ATTR_SWITCH_NPORTS", 0)),
    ("switch new nports 255", "FTSW_CMD_SWITCH_NEW", u32("FTSW_ATTR_SWITCH_ID", 2) + u8("FTSW_ATTR_SWITCH_NPORTS", 255)),
    ("switch new nports as u16 (bad length)", "FTSW_CMD_SWITCH_NEW",
     u32("FTSW_ATTR_SWITCH_ID", 2) + raw("FTSW_ATTR_SWITCH_NPORTS", b"\4\0")),
    ("switch new with an output-only attribute", "FTSW_CMD_SWITCH_NEW",
     u32("FTSW_ATTR_SWITCH_ID", 2) + u8("FTSW_ATTR_SWITCH_NPORTS", 4) + raw("FTSW_ATTR_GENERATION", b"\0" * 8)),
    ("switch new with an unknown attribute", "FTSW_CMD_SWITCH_NEW",
     u32("FTSW_ATTR_SWITCH_ID", 2) + u8("FTSW_ATTR_SWITCH_NPORTS", 4) + raw(200, b"\0" * 4)),
    ("switch new name without NUL", "FTSW_CMD_SWITCH_NEW",
     u32("FTSW_ATTR_SWITCH_ID", 2) + u8("FTSW_ATTR_SWITCH_NPORTS", 4) + name(b"abcd")),
    ("switch new name of 40 characters", "FTSW_CMD_SWITCH_NEW",
     u32("FTSW_ATTR_SWITCH_ID", 2) + u8("FTSW_ATTR_SWITCH_NPORTS", 4) + name(b"x" * 40 + b"\0")),
    ("switch new lid 0xC000", "FTSW_CMD_SWITCH_NEW",
     u32("FTSW_ATTR_SWITCH_ID", 2) + u8("FTSW_ATTR_SWITCH_NPORTS", 4) + u16("FTSW_ATTR_SWITCH_LID", 0xC000)),
    ("switch new duplicate id", "FTSW_CMD_SWITCH_NEW", SW + u8("FTSW_ATTR_SWITCH_NPORTS", 4)),
    ("switch new truncated attribute", "FTSW_CMD_SWITCH_NEW", SW, struct.pack("HH", 8, A["FTSW_ATTR_SWITCH_NPORTS"])),
    ("switch del missing switch", "FTSW_CMD_SWITCH_DEL", u32("FTSW_ATTR_SWITCH_ID", 77)),
    ("switch del without id", "FTSW_CMD_SWITCH_DEL", b""),
    ("port bind kind 3", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 3)),
    ("port bind port 0", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 0) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 1)),
    ("port bind port 5 of 4", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 5) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 1)),
    ("port bind ifindex 0", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", 0) + u8("FTSW_ATTR_PORT_KIND", 1)),
    ("port bind missing ifindex", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", 99999) + u8("FTSW_ATTR_PORT_KIND", 1)),
    ("port bind loopback", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", lo) + u8("FTSW_ATTR_PORT_KIND", 1)),
    ("port bind link with edge attributes", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 1) + u8("FTSW_ATTR_PORT_LMC", 1)),
    ("port bind edge without base LID", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 2)),
    ("port bind edge LMC 8", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 2) +
     u16("FTSW_ATTR_PORT_BASE_LID", 8) + u8("FTSW_ATTR_PORT_LMC", 8)),
    ("port bind edge base LID not aligned to LMC", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 2) +
     u16("FTSW_ATTR_PORT_BASE_LID", 5) + u8("FTSW_ATTR_PORT_LMC", 2)),
    ("port bind edge offset beyond 2^LMC", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 2) +
     u16("FTSW_ATTR_PORT_BASE_LID", 4) + u8("FTSW_ATTR_PORT_LMC", 1) + raw("FTSW_ATTR_PORT_OFFSETS", b"\0\2")),
    ("port bind edge 129 offsets", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 2) +
     u16("FTSW_ATTR_PORT_BASE_LID", 4) + raw("FTSW_ATTR_PORT_OFFSETS", b"\0" * 129)),
    ("port bind edge SL 16", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 2) +
     u16("FTSW_ATTR_PORT_BASE_LID", 4) + u8("FTSW_ATTR_PORT_SL", 16)),
    ("port bind edge SL table entry 16", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 1) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth) + u8("FTSW_ATTR_PORT_KIND", 2) +
     u16("FTSW_ATTR_PORT_BASE_LID", 4) + raw("FTSW_ATTR_PORT_SL_TABLE", b"\1\2\20")),
    ("port bind patch with a device too", "FTSW_CMD_PORT_BIND", PATCH(4) +
     u32("FTSW_ATTR_PORT_IFINDEX", veth)),
    ("port bind patch of a port to itself", "FTSW_CMD_PORT_BIND", PATCH(3)),
    ("port bind patch to a missing switch", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 3) +
     u32("FTSW_ATTR_PORT_PEER_SWITCH", 77) + u8("FTSW_ATTR_PORT_PEER_NUM", 1)),
    ("port bind patch to a bound far port", "FTSW_CMD_PORT_BIND", PATCH(2)),
    ("port bind patch far port 0", "FTSW_CMD_PORT_BIND", PATCH(0)),
    ("port bind patch far port 5 of 4", "FTSW_CMD_PORT_BIND", PATCH(5)),
    ("port bind patch without the far port", "FTSW_CMD_PORT_BIND", SW + u8("FTSW_ATTR_PORT_NUM", 3) +
     u32("FTSW_ATTR_PORT_PEER_SWITCH", 1)),
    ("port bind patch kind edge", "FTSW_CMD_PORT_BIND", PATCH(4) + u8("FTSW_ATTR_PORT_KIND", 2)),
    ("port bind patch with an edge attribute", "FTSW_CMD_PORT_BIND", PATCH(4) +
     u16("FTSW_ATTR_PORT_BASE_LID", 4)),
    ("port unbind of an unbound port", "FTSW_CMD_PORT_UNBIND", SW + u8("FTSW_ATTR_PORT_NUM", 3)),
    ("port set of an unbound port", "FTSW_CMD_PORT_SET", SW + u8("FTSW_ATTR_PORT_NUM", 3) +
     u8("FTSW_ATTR_PORT_ADMIN_UP", 0)),
    ("port set admin 2", "FTSW_CMD_PORT_SET", SW + u8("FTSW_ATTR_PORT_NUM", 2) +
     u8("FTSW_ATTR_PORT_ADMIN_UP", 2)),
    ("port set edge attribute on a link port", "FTSW_CMD_PORT_SET", SW + u8("FTSW_ATTR_PORT_NUM", 2) +
     u16("FTSW_ATTR_PORT_BASE_LID", 4)),
    ("lft set port 9 on a 4-port switch", "FTSW_CMD_LFT_SET", SW + u16("FTSW_ATTR_LFT_FIRST_LID", 1) +
     raw("FTSW_ATTR_LFT_DATA", b"\1\2\11")),
    ("lft set empty block", "FTSW_CMD_LFT_SET", SW + u16("FTSW_ATTR_LFT_FIRST_LID", 1) +
     raw("FTSW_ATTR_LFT_DATA", b"")),
    ("lft set block past 0xBFFF", "FTSW_CMD_LFT_SET", SW + u16("FTSW_ATTR_LFT_FIRST_LID", 0xBFFF) +
     raw("FTSW_ATTR_LFT_DATA", b"\1\1")),
    ("lft set first LID 0xC000", "FTSW_CMD_LFT_SET", SW + u16("FTSW_ATTR_LFT_FIRST_LID", 0xC000) +
     raw("FTSW_ATTR_LFT_DATA", b"\1")),
    ("lft set block longer than the LID space", "FTSW_CMD_LFT_SET", SW + u16("FTSW_ATTR_LFT_FIRST_LID", 0) +
     raw("FTSW_ATTR_LFT_DATA", b"\1" * 0xC001)),
    ("lft set without data", "FTSW_CMD_LFT_SET", SW + u16("FTSW_ATTR_LFT_FIRST_LID", 0)),
    ("sl2vl set 15 entries", "FTSW_CMD_SL2VL_SET", SW + raw("FTSW_ATTR_SL2VL", b"\0" * 15)),
    ("sl2vl set VL 16", "FTSW_CMD_SL2VL_SET", SW + raw("FTSW_ATTR_SL2VL", b"\0" * 15 + b"\20")),
    ("fabric set hop limit 0", "FTSW_CMD_FABRIC_SET", u8("FTSW_ATTR_HOP_LIMIT", 0)),
    ("commit with an attribute it does not take", "FTSW_CMD_COMMIT", SW),
    ("switch get of a missing switch", "FTSW_CMD_SWITCH_GET", u32("FTSW_ATTR_SWITCH_ID", 77)),
]
n = int(sys.argv[1])
for desc, cmd, body, *tail in cases:
    n += 1
    err, msg, _ = request(FAM, C[cmd], body, *(tail or [b""]))
    if err < 0 and msg:
        print("ok %d rejected: %s -> %s (%s)" % (n, desc, msg, os.strerror(-err)))
    else:
        print("not ok %d rejected: %s -> error %d, message %r" % (n, desc, err, msg))
sys.stdout.flush()
