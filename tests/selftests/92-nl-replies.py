# SPDX-License-Identifier: GPL-2.0
"""Selftest 92 (body): every command refuses an attribute it does not take,
doit and dump alike, with an extack message pointing at that attribute and
nothing changed; replies carry the right command (SL2VL_GET); PORT_CLEAR
zeroes a port's counters but not the fabric's drops; a full LFT dumps through
a 4 KiB buffer; renamed devices show their new name.

  92-nl-replies.py START LINKDEV PEERDEV   (run in the fabric namespace)"""
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftswnl import (A, C, Nl, Tap, flag, get_u, parse_attrs, raw, u8, u16,  # noqa: E402
                    u32)

tap = Tap(int(sys.argv[1]))
link, peer = sys.argv[2], sys.argv[3]
nl = Nl()


def must(r, what):
    if r[0]:
        raise SystemExit("set-up failed: %s: %s (%s)" % (what, os.strerror(-r[0]), r[1]))


must(nl.do("FABRIC_RESET"), "reset")
must(nl.do("SWITCH_NEW", u32("SWITCH_ID", 1) + u8("SWITCH_NPORTS", 4)), "switch")
must(nl.do("PORT_BIND", u32("SWITCH_ID", 1) + u8("PORT_NUM", 1) +
           u32("PORT_IFINDEX", socket.if_nametoindex(link)) + u8("PORT_KIND", 1)), "bind")
must(nl.do("LFT_SET", u32("SWITCH_ID", 1) + u16("LFT_FIRST_LID", 1) + raw("LFT_DATA", b"\1")),
     "lft")
must(nl.do("COMMIT"), "commit")

SW = u32("SWITCH_ID", 1)
PORT = SW + u8("PORT_NUM", 1)
# (command, valid attributes, a foreign attribute, dump?)
cases = [
    ("FABRIC_GET", b"", u32("SWITCH_ID", 1), False),
    ("FABRIC_SET", u8("HOP_LIMIT", 9), u32("SWITCH_ID", 1), False),
    ("FABRIC_RESET", b"", u8("HOP_LIMIT", 9), False),
    ("SWITCH_NEW", u32("SWITCH_ID", 7) + u8("SWITCH_NPORTS", 2), u8("PORT_NUM", 1), False),
    ("SWITCH_DEL", SW, u8("HOP_LIMIT", 9), False),
    ("SWITCH_GET", SW, u8("HOP_LIMIT", 9), False),
    ("SWITCH_GET", b"", u8("HOP_LIMIT", 9), True),
    ("PORT_BIND", SW + u8("PORT_NUM", 2) + u32("PORT_IFINDEX", socket.if_nametoindex(peer)) +
     u8("PORT_KIND", 1), flag("LFT_STAGED"), False),
    ("PORT_UNBIND", PORT, raw("LFT_DATA", b"\1"), False),
    ("PORT_SET", PORT + u8("PORT_ADMIN_UP", 0), u8("PORT_KIND", 2), False),
    ("PORT_GET", PORT, flag("LFT_STAGED"), False),
    ("PORT_GET", b"", flag("LFT_STAGED"), True),
    ("LFT_SET", SW + u16("LFT_FIRST_LID", 2) + raw("LFT_DATA", b"\1"), flag("LFT_STAGED"), False),
    ("LFT_GET", b"", u8("PORT_ADMIN_UP", 1), True),
    ("LFT_DISCARD", SW, u8("PORT_NUM", 1), False),
    ("SL2VL_SET", SW + raw("SL2VL", bytes(16)), u8("PORT_SL", 1), False),
    ("SL2VL_GET", SW, u8("HOP_LIMIT", 9), False),
    ("SL2VL_GET", b"", u8("HOP_LIMIT", 9), True),
    ("COMMIT", b"", u32("SWITCH_ID", 1), False),
    ("PORT_CLEAR", PORT, u8("PORT_ADMIN_UP", 1), False),
    ("PORT_GET", PORT, raw("PORT_STATS", b"\0" * 4), False),
    ("SWITCH_NEW", u32("SWITCH_ID", 7) + u8("SWITCH_NPORTS", 2), raw("GENERATION", bytes(8)),
     False),
]


def state():
    return ([m.body for m in nl.dump("SWITCH_GET")], [(get_u(m, "PORT_NUM"), get_u(m, "PORT_ADMIN_UP"))
                                                     for m in nl.dump("PORT_GET")],
            [m.body for m in nl.dump("LFT_GET", flag("LFT_STAGED"))],
            get_u(nl.do("FABRIC_GET")[3][0], "HOP_LIMIT"))


before = state()
for cmd, body, foreign, dump in cases:
    flags = 1 | 4 | (0x300 if dump else 0)
    err, msg, off, _ = nl.do(cmd, body + foreign, flags=flags)
    want_off = 16 + 4 + len(body)       # nlmsghdr + genlmsghdr + valid attributes
    tap.ok(err == -22 and msg and off == want_off,
           "%s %s refuses attribute %d it does not take: %s" %
           (cmd, "dump" if dump else "do", struct.unpack_from("HH", foreign)[1], msg),
           "error %d, message %r, offset %r (want EINVAL, a message, offset %d)" %
           (err, msg, off, want_off))
after = state()
tap.ok(before == after, "refused requests changed nothing", "%r\n%r" % (before, after))

# SL2VL_GET replies carry SL2VL_GET, doit and dump.
r = nl.do("SL2VL_GET", SW)
cmds = [m.cmd for m in r[3]] + [m.cmd for m in nl.dump("SL2VL_GET")]
tap.ok(r[0] == 0 and cmds and all(c == C["SL2VL_GET"] for c in cmds),
       "SL2VL_GET replies carry SL2VL_GET (%d)" % C["SL2VL_GET"], "commands %r" % cmds)
cmds = [m.cmd for m in nl.do("SWITCH_GET", SW)[3]] + [m.cmd for m in nl.dump("SWITCH_GET")]
tap.ok(cmds and all(c == C["SWITCH_GET"] for c in cmds), "SWITCH_GET replies carry SWITCH_GET",
       "commands %r" % cmds)


# PORT_CLEAR: frames that are not fabric frames, sent into the link port from
# its peer, count rx and not_fabric drops; clear zeroes the port, not the fabric.
def stats():
    m = nl.do("PORT_GET", PORT)[3][0]
    st = parse_attrs(m.attrs[A["PORT_STATS"]])
    rx = int.from_bytes(st[2], "little")
    drops = parse_attrs(st[7])
    fab = parse_attrs(nl.do("FABRIC_GET")[3][0].attrs[A["DROPS"]])
    return rx, int.from_bytes(drops[6], "little"), int.from_bytes(fab[6], "little")


pk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
pk.bind((peer, 0))
for _ in range(5):
    pk.send(b"\x02\x66\x74\x00\x00\x01" + b"\x02\x66\x74\x00\x00\x02" + b"\x08\x00" + bytes(46))
import time  # noqa: E402
for _ in range(50):
    if stats()[0] >= 5:
        break
    time.sleep(0.1)
b = stats()
err = nl.do("PORT_CLEAR", PORT)[0]
a = stats()
tap.ok(b[0] >= 5 and b[1] >= 5 and err == 0 and a[0] == 0 and a[1] == 0 and a[2] == b[2] >= 5,
       "PORT_CLEAR zeroes the port's counters, the fabric keeps its drops",
       "before rx %d not_fabric %d fabric %d; clear %d; after %r" % (b + (err,) + (a,)))
err, msg, _, _ = nl.do("PORT_CLEAR", SW + u8("PORT_NUM", 3))
tap.ok(err == -2 and msg, "PORT_CLEAR of an unbound port: ENOENT with a message (%s)" % msg,
       "error %d %r" % (err, msg))

# A full table through a 4 KiB buffer on a fresh socket.
table = bytes((lid * 5) % 4 + 1 for lid in range(49152))
must(nl.do("LFT_SET", SW + u16("LFT_FIRST_LID", 0) + raw("LFT_DATA", table)), "full lft")
must(nl.do("COMMIT"), "commit")
for size in (4096, 8192, 65536):
    d = Nl()
    try:
        msgs = d.dump("LFT_GET", SW, size=size)
        got = bytearray()
        for m in msgs:
            assert get_u(m, "LFT_FIRST_LID") == len(got)
            got += m.attrs.get(A["LFT_DATA"], b"")
        res = (bytes(got) == table, len(msgs), None)
    except (OSError, AssertionError) as e:
        res = (False, 0, e)
    tap.ok(res[0], "49152-entry LFT dumps whole through a %d-byte buffer (%d messages)" %
           (size, res[1]), "error %r" % (res[2],))

# A renamed device shows its new name.
os.system("ip link set %s down; ip link set %s name ren92; ip link set ren92 up" % (link, link))
name = nl.do("PORT_GET", PORT)[3][0].attrs[A["PORT_IFNAME"]].rstrip(b"\0").decode()
os.system("ip link set ren92 down; ip link set ren92 name %s; ip link set %s up" % (link, link))
tap.ok(name == "ren92", "a renamed device's port shows the new name", "name %r" % name)
nl.do("FABRIC_RESET")
sys.exit(1 if tap.failed else 0)
