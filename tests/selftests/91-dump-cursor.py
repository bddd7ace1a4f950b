# SPDX-License-Identifier: GPL-2.0
"""Selftest 91 (body): delete a switch at every datagram boundary of every kind
of dump (switches, ports, LFT blocks); every object that survives appears
exactly once, the deleted one at most once, and the first message after the
change carries NLM_F_DUMP_INTR (none before it). Dumps are read through 4 KiB
buffers on fresh sockets, so the kernel builds NLMSG_GOODSIZE datagrams.

  91-dump-cursor.py START A1..A12 B1..B12   (run in the fabric namespace)"""
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ftswnl import (A, NLM_F_DUMP_INTR, Nl, Tap, flag, get_u, raw, u8, u16,  # noqa: E402
                    u32)

tap = Tap(int(sys.argv[1]))
devs = sys.argv[2:]
ctl = Nl()
BUF = 4096
NSW = 100          # switches of the switch dump
LFT_N = 12288      # 3 pages a table: 3-4 datagrams each (92 dumps a full one)


def must(r, what):
    if r[0]:
        raise SystemExit("set-up failed: %s: %s (%s)" % (what, os.strerror(-r[0]), r[1]))


def new_switch(i, nports):
    must(ctl.do("SWITCH_NEW", u32("SWITCH_ID", i) + u8("SWITCH_NPORTS", nports)),
         "switch %d" % i)


def setup_switches():
    must(ctl.do("FABRIC_RESET"), "reset")
    for i in range(1, NSW + 1):
        new_switch(i * 3, 4)     # sparse ids: the cursor is a key
    return {("sw", i * 3) for i in range(1, NSW + 1)}


def setup_ports():
    must(ctl.do("FABRIC_RESET"), "reset")
    objs = set()
    for s, half in ((1, devs[:12]), (2, devs[12:])):
        new_switch(s, 12)
        for p, d in enumerate(half, 1):
            must(ctl.do("PORT_BIND", u32("SWITCH_ID", s) + u8("PORT_NUM", p) +
                        u32("PORT_IFINDEX", socket.if_nametoindex(d)) + u8("PORT_KIND", 1)),
                 "bind %s" % d)
            objs.add((s, p))
    return objs


PATTERN = {s: bytes((lid * 7 + s) % 254 + 1 for lid in range(LFT_N)) for s in (1, 2)}


def lft_pattern(s):
    return PATTERN.get(s, b"")


def setup_lft():
    must(ctl.do("FABRIC_RESET"), "reset")
    objs = set()
    for s in (1, 2):
        new_switch(s, 254)
        must(ctl.do("LFT_SET", u32("SWITCH_ID", s) + u16("LFT_FIRST_LID", 0) +
                    raw("LFT_DATA", lft_pattern(s))), "lft set")
        objs |= {(s, lid) for lid in range(LFT_N)}
    must(ctl.do("COMMIT"), "commit")
    return objs


def keys_switch(m):
    return [("sw", get_u(m, "SWITCH_ID"))]


def keys_port(m):
    return [(get_u(m, "SWITCH_ID"), get_u(m, "PORT_NUM"))]


def keys_lft(m):
    s, first = get_u(m, "SWITCH_ID"), get_u(m, "LFT_FIRST_LID")
    data = m.attrs.get(A["LFT_DATA"], b"")
    want = lft_pattern(s)[first:first + len(data)]
    if data != want:
        return [("bad data", s, first)]
    return [(s, first + i) for i in range(len(data))]


def victim_of(key):
    return key[1] if key[0] == "sw" else key[0]


def owner(key):
    return key[1] if key[0] == "sw" else key[0]


def one_run(cmd, setup, keys, k, ref):
    """Read k datagrams, delete the switch at the kernel's cursor, finish.

    The kernel builds a dump's first datagram when the dump starts and the
    next one each time a datagram is read, so after reading k datagrams it
    has built k + 1 and its cursor is at the end of datagram k + 1: the
    switch deleted is the owner of that datagram's last object (known from a
    reference dump of the same set-up, ref)."""
    objs = setup()
    d = Nl()
    seq = d.dump_start(cmd)
    got, after, done, err = [], [], False, 0
    for _ in range(k):
        msgs, done, err = d.dump_datagram(seq, BUF)
        got += msgs
        if done:
            break
    if done or k >= len(ref):
        return None
    victim = victim_of(ref[k][-1])
    must(ctl.do("SWITCH_DEL", u32("SWITCH_ID", victim)), "delete %d" % victim)
    while not done:
        msgs, done, err = d.dump_datagram(seq, BUF)
        after += msgs
    probs = []
    if err:
        probs.append("dump ended with %s" % os.strerror(-err))
    seen = {}
    for m in got + after:
        for key in keys(m):
            seen[key] = seen.get(key, 0) + 1
    for key in objs:
        n = seen.get(key, 0)
        if owner(key) != victim and n != 1:
            probs.append("%s seen %d times" % (key, n))
        if owner(key) == victim and n > 1:
            probs.append("%s of the deleted switch seen %d times" % (key, n))
    extra = [key for key in seen if key not in objs]
    if extra:
        probs.append("unknown objects %s" % extra[:5])
    if any(m.flags & NLM_F_DUMP_INTR for m in got):
        probs.append("NLM_F_DUMP_INTR before any change")
    if not (any(m.flags & NLM_F_DUMP_INTR for m in after) or d.done_flags & NLM_F_DUMP_INTR):
        probs.append("no NLM_F_DUMP_INTR after the deletion")
    return "deleted switch %d after reading %d datagrams" % (victim, k), probs[:10]


def datagrams(cmd, setup, keys):
    """A reference dump: the keys of each datagram (an errno on error)."""
    setup()
    d = Nl()
    seq = d.dump_start(cmd)
    ref, done = [], False
    while not done:
        msgs, done, err = d.dump_datagram(seq, BUF)
        if err:
            return -err
        if msgs:
            ref.append([key for m in msgs for key in keys(m)])
    return ref


for name, cmd, setup, keys in (("switch", "SWITCH_GET", setup_switches, keys_switch),
                               ("port", "PORT_GET", setup_ports, keys_port),
                               ("LFT", "LFT_GET", setup_lft, keys_lft)):
    ref = datagrams(cmd, setup, keys)
    n = len(ref) if isinstance(ref, list) else 0
    if not tap.ok(n >= 3 if name != "LFT" else n >= 6,
                  "%s dump through 4 KiB buffers spans several datagrams (%d)" % (name, n),
                  "error or too few datagrams: %d" % n):
        tap.ok(False, "%s dump: every survivor exactly once at every boundary" % name)
        tap.ok(False, "%s dump: NLM_F_DUMP_INTR after a change" % name)
        continue
    probs, intr, runs = [], [], 0
    for k in range(0, n - 1):
        r = one_run(cmd, setup, keys, k, ref)
        if r is None:
            continue
        runs += 1
        what, p = r
        probs += ["%s: %s" % (what, x) for x in p if "DUMP_INTR" not in x]
        intr += ["%s: %s" % (what, x) for x in p if "DUMP_INTR" in x]
    tap.ok(runs >= n - 1 and not probs,
           "%s dump: every survivor exactly once with a switch deleted at each of %d boundaries"
           % (name, runs), "\n".join(probs[:20]))
    tap.ok(runs and not intr, "%s dump: NLM_F_DUMP_INTR on the first message after the change"
           % name, "\n".join(intr[:20]))
ctl.do("FABRIC_RESET")
sys.exit(1 if tap.failed else 0)
