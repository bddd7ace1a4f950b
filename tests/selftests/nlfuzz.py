#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A seeded, reproducible hostile generic netlink campaign against the "ftsw"
family (selftest 95 runs it briefly, `make fuzz-netlink` for long).

  nlfuzz.py --seed S --count N [--dev DEV]... [--no-admin]

Interleaves valid set-up (switches, ports bound to DEVs, LFT blocks, commits,
SL2VL, port changes) with hostile messages: every command number including
unknown ones, random and mutated attributes (wrong lengths, truncated and
wrongly nested attributes, duplicates, huge values, out-of-range LFT blocks
and ports, foreign or vanished ifindexes), random header fields, dumps read
a datagram at a time with deletes and table writes in between, and dumps
abandoned half way. Every request asks for an ack and every answer is read:
a reply that never comes is a failure. Prints a summary; exit 1 on failure.
Same seed, same messages."""
import argparse
import collections
import os
import random
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftswnl import (A, C, NLMSG_DONE, NLMSG_ERROR, Nl, attr, flag, raw, u8,  # noqa: E402
                    u16, u32)

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--count", type=int, default=10000)
ap.add_argument("--dev", action="append", default=[])
ap.add_argument("--no-admin", action="store_true", help="expect EPERM on mutations")
args = ap.parse_args()

rnd = random.Random(args.seed)
nl = Nl()
nl.sk.settimeout(60)
stats = collections.Counter()
failures = []
NCMD = max(C.values()) + 1
NATTR = max(A.values()) + 1
MUTATING = {"FABRIC_SET", "FABRIC_RESET", "SWITCH_NEW", "SWITCH_DEL", "PORT_BIND",
            "PORT_UNBIND", "PORT_SET", "LFT_SET", "LFT_DISCARD", "SL2VL_SET", "COMMIT",
            "PORT_CLEAR"}
CMD_NAME = {v: k for k, v in C.items()}
ifindexes = [socket.if_nametoindex(d) for d in args.dev]
ifindexes.append(socket.if_nametoindex("lo"))


def ifindex():
    r = rnd.random()
    if r < 0.7 and ifindexes:
        return rnd.choice(ifindexes)
    if r < 0.8:
        return rnd.choice([0, 1, 0x7fffffff, 0xffffffff, 0x80000000])
    return rnd.randrange(1, 5000)      # vanished or never existed


def swid():
    return rnd.choice([1, 2, 3, 4, 5, 0, 0xffffffff, rnd.randrange(1 << 32)]) \
        if rnd.random() < 0.2 else rnd.randrange(1, 6)


def port():
    return rnd.choice([0, 1, 2, 3, 4, 5, 8, 254, 255]) if rnd.random() < 0.3 else rnd.randrange(1, 5)


def lft_block():
    r = rnd.random()
    if r < 0.6:
        first, n = rnd.randrange(0, 0xc000), rnd.choice([1, 2, 16, 64, 300])
        n = min(n, 0xc000 - first)
    elif r < 0.8:
        first, n = rnd.choice([0, 0xbfff, 0xc000, 0xffff, 0xbff0]), rnd.choice([0, 1, 16, 0xc000, 0xc001])
    else:
        first, n = 0, 0xc000
    data = bytes(rnd.choice([1, 2, 3, 4, 255, 0, 5, 200]) for _ in range(min(n, 512)))
    data = (data * (n // max(len(data), 1) + 1))[:n]
    return first, data


# Entries a 4-port switch takes: 0..4 and 255.
PORTS4 = bytes(min(b, 4) if b != 255 else b for b in range(256))


def valid_setup():
    """A well-formed request that drives the deep paths."""
    k = rnd.random()
    s = rnd.randrange(1, 6)
    if k < 0.15:
        return "SWITCH_NEW", u32("SWITCH_ID", s) + u8("SWITCH_NPORTS", rnd.choice([4, 8, 254])) + \
            (raw("SWITCH_NAME", b"sw%d\0" % s) if rnd.random() < 0.5 else b"") + \
            (u16("SWITCH_LID", rnd.randrange(1, 0xc000)) if rnd.random() < 0.3 else b"")
    if k < 0.2:
        return "SWITCH_DEL", u32("SWITCH_ID", s)
    if k < 0.4 and ifindexes:
        edge = rnd.random() < 0.5
        body = u32("SWITCH_ID", s) + u8("PORT_NUM", rnd.randrange(1, 5)) + \
            u32("PORT_IFINDEX", rnd.choice(ifindexes)) + u8("PORT_KIND", 2 if edge else 1)
        if edge:
            lmc = rnd.randrange(0, 3)
            body += u16("PORT_BASE_LID", (rnd.randrange(1, 0x100) << lmc)) + u8("PORT_LMC", lmc)
        return "PORT_BIND", body
    if k < 0.47:
        return "PORT_UNBIND", u32("SWITCH_ID", s) + u8("PORT_NUM", rnd.randrange(1, 5))
    if k < 0.55:
        return "PORT_SET", u32("SWITCH_ID", s) + u8("PORT_NUM", rnd.randrange(1, 5)) + \
            u8("PORT_ADMIN_UP", rnd.randrange(2)) + \
            (u8("PORT_SL", rnd.randrange(16)) if rnd.random() < 0.3 else b"") + \
            (raw("PORT_SL_TABLE", bytes(rnd.randrange(16) for _ in range(rnd.randrange(0, 64))))
             if rnd.random() < 0.2 else b"")
    if k < 0.75:
        first, data = lft_block()
        first = min(first, 0xbfff)
        data = data[:0xc000 - first].translate(PORTS4) or b"\1"
        return "LFT_SET", u32("SWITCH_ID", s) + u16("LFT_FIRST_LID", first) + raw("LFT_DATA", data)
    if k < 0.83:
        return "COMMIT", b""
    if k < 0.87:
        return "SL2VL_SET", u32("SWITCH_ID", s) + raw("SL2VL", bytes(rnd.randrange(16) for _ in range(16)))
    if k < 0.9:
        return "LFT_DISCARD", u32("SWITCH_ID", s) if rnd.random() < 0.5 else b""
    if k < 0.93:
        return "PORT_CLEAR", u32("SWITCH_ID", s) + u8("PORT_NUM", rnd.randrange(1, 5))
    if k < 0.96:
        return "FABRIC_SET", u8("HOP_LIMIT", rnd.randrange(1, 256))
    return "FABRIC_GET", b""


def value_bytes(n):
    r = rnd.random()
    if r < 0.3:
        return bytes(n)
    if r < 0.6:
        return b"\xff" * n
    return rnd.randbytes(n)


def hostile_attr():
    t = rnd.randrange(NATTR + 4) if rnd.random() < 0.95 else rnd.randrange(1 << 16)
    r = rnd.random()
    if r < 0.35:                                   # right-ish size, odd value
        payload = value_bytes(rnd.choice([1, 2, 4, 8]))
    elif r < 0.5:                                  # wrong length
        payload = value_bytes(rnd.choice([0, 3, 5, 6, 7, 9, 15, 17, 33]))
    elif r < 0.6:                                  # big blob
        payload = value_bytes(rnd.choice([128, 129, 4096, 0xc000, 0xc001, 60000]))
    elif r < 0.75:                                 # a nest of attributes
        payload = b"".join(hostile_attr() for _ in range(rnd.randrange(0, 4)))[:60000]
        t |= 0x8000                                # NLA_F_NESTED
    elif r < 0.85:                                 # strings without NUL, too long
        payload = rnd.choice([b"abc", b"x" * 40 + b"\0", b"\0", b"sw\0junk"])
    else:
        payload = value_bytes(rnd.randrange(0, 12))
        if rnd.random() < 0.5:
            t |= 0x4000                            # NLA_F_NET_BYTEORDER
    return attr(t & 0xffff, payload)


def typed_attr():
    """A known attribute with a boundary value of the right size."""
    name = rnd.choice(list(A))
    if name in ("UNSPEC",):
        name = "SWITCH_ID"
    v = rnd.choice([0, 1, 2, 0x7f, 0xff, 0x100, 0xbfff, 0xc000, 0xffff, 0x7fffffff, 0xffffffff])
    sz = rnd.choice([1, 2, 4, 8])
    if name == "PORT_IFINDEX":
        return u32(name, ifindex())
    if name == "SWITCH_ID":
        return u32(name, swid())
    if name == "PORT_NUM":
        return u8(name, port())
    if name == "LFT_DATA":
        return raw(name, lft_block()[1])
    return attr(A[name], (v & ((1 << (8 * sz)) - 1)).to_bytes(sz, "little"))


def hostile():
    """A mutated request: (cmd, body, flags, version, tail)."""
    cmd = rnd.randrange(NCMD + 3) if rnd.random() < 0.9 else rnd.randrange(256)
    if rnd.random() < 0.4:
        name, body = valid_setup()
        cmd = C[name] if rnd.random() < 0.7 else cmd
        parts = [body[i:] for i in [0]]
        body = parts[0]
        for _ in range(rnd.randrange(1, 4)):       # mutate: add, duplicate, drop
            m = rnd.random()
            if m < 0.4:
                body += typed_attr() if rnd.random() < 0.5 else hostile_attr()
            elif m < 0.7 and body:
                n = struct.unpack_from("H", body)[0]
                body = body + body[:(n + 3) & ~3]    # duplicate the first attribute
            elif body:
                body = body[(struct.unpack_from("H", body)[0] + 3) & ~3:]
    else:
        body = b"".join(typed_attr() if rnd.random() < 0.5 else hostile_attr()
                        for _ in range(rnd.randrange(0, 6)))
    tail = b""
    r = rnd.random()
    if r < 0.05:                                   # truncated last attribute
        tail = struct.pack("HH", rnd.choice([8, 12, 200, 0xffff]), rnd.randrange(NATTR))
    elif r < 0.08:                                 # attribute length below its header
        tail = struct.pack("HH", rnd.randrange(4), rnd.randrange(NATTR))
    elif r < 0.1:                                  # trailing junk
        tail = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 4)))
    flags = 1 | 4
    if rnd.random() < 0.2:
        flags |= 0x300                             # as a dump
    if rnd.random() < 0.05:
        flags |= rnd.choice([0x100, 0x200, 0x400, 0x800, 0x10, 0x20])
    version = 1 if rnd.random() < 0.9 else rnd.randrange(256)
    return cmd, body, flags, version, tail


def exchange(cmd, body, flags=5, version=1, tail=b"", reserved=0):
    """Send one request and read every answer to it; the errno (0: ok)."""
    nl.seq += 1
    seq = nl.seq
    payload = struct.pack("BBH", cmd & 0xff, version, reserved) + body + tail
    nl.sk.send(struct.pack("IHHII", 16 + len(payload), nl.fam, flags, seq, 0) + payload)
    stats["messages"] += 1
    while True:
        try:
            msgs = nl.recv()
        except socket.timeout:
            failures.append("no answer to command %d (seed %d, message %d)" %
                            (cmd, args.seed, stats["messages"]))
            return None
        except OSError as e:                       # e.g. ENOBUFS: count, go on
            stats["recv " + os.strerror(e.errno)] += 1
            return None
        for m in msgs:
            if m.seq != seq:
                continue
            if m.type == NLMSG_ERROR:
                return struct.unpack_from("i", m.body, 0)[0]
            if m.type == NLMSG_DONE:
                return 0


def dump_with_changes():
    """A dump read a datagram at a time, with mutations in between; some are
    abandoned half way (the socket is closed with the dump in progress)."""
    kind = rnd.choice(["SWITCH_GET", "PORT_GET", "LFT_GET", "SL2VL_GET"])
    body = b""
    if rnd.random() < 0.3:
        body += u32("SWITCH_ID", rnd.randrange(1, 6))
    if kind == "LFT_GET" and rnd.random() < 0.5:
        body += flag("LFT_STAGED")
    d = Nl()
    seq = d.dump_start(kind, body)
    stats["messages"] += 1
    stats["dumps"] += 1
    done = False
    for _ in range(rnd.randrange(1, 6)):
        try:
            _, done, err = d.dump_datagram(seq, rnd.choice([4096, 8192, 1 << 16]))
        except OSError as e:
            stats["dump recv " + os.strerror(e.errno)] += 1
            break
        if done:
            break
        name, b = valid_setup()
        if rnd.random() < 0.5:
            name, b = "SWITCH_DEL", u32("SWITCH_ID", rnd.randrange(1, 6))
        note(name, exchange(C[name], b))
    if not done and rnd.random() < 0.3:
        stats["dumps abandoned"] += 1
        d.sk.close()
        return
    d.sk.settimeout(60)
    while not done:
        try:
            _, done, err = d.dump_datagram(seq, 1 << 16)
        except socket.timeout:
            failures.append("dump %s never ended (seed %d)" % (kind, args.seed))
            break
        if done and err:
            stats["dump error " + os.strerror(-err)] += 1
    d.sk.close()


def note(name, err):
    if err is None:
        return
    stats["%s %s" % (name, "ok" if err == 0 else os.strerror(-err))] += 1
    if args.no_admin and name in MUTATING and err not in (-1,) and err != 0:
        stats["unprivileged: " + os.strerror(-err)] += 1
    if args.no_admin and name in MUTATING and err == 0:
        failures.append("unprivileged %s succeeded" % name)


while stats["messages"] < args.count and len(failures) < 20:
    r = rnd.random()
    if r < 0.3:
        name, body = valid_setup()
        note(name, exchange(C[name], body))
    elif r < 0.95:
        cmd, body, flags, version, tail = hostile()
        reserved = 0 if rnd.random() < 0.95 else rnd.randrange(1, 1 << 16)
        err = exchange(cmd, body, flags, version, tail, reserved)
        name = CMD_NAME.get(cmd, "unknown")
        stats["hostile %s" % ("ok" if err == 0 else os.strerror(-err) if err else "no answer")] += 1
        if args.no_admin and name in MUTATING and err == 0 and flags & 0x300 == 0:
            failures.append("unprivileged %s succeeded" % name)
    else:
        dump_with_changes()

print("# nlfuzz seed %d: %d messages, %d dumps (%d abandoned)" %
      (args.seed, stats["messages"], stats["dumps"], stats["dumps abandoned"]))
for k, v in sorted(stats.items()):
    if k not in ("messages", "dumps", "dumps abandoned"):
        print("#   %-40s %d" % (k, v))
for f in failures:
    print("# FAIL " + f)
sys.exit(1 if failures else 0)
