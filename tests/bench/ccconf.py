#!/usr/bin/env python3
"""Congestion control in band, from a lab host, without a subnet manager.

    ccconf.py [--get] SWITCH_LIDS CA_LIDS

Sends what OpenSM's congestion control manager sends for
tests/bench/congestion.conf (class 0x21, class version 2, CC_Key 0): a
SwitchCongestionSetting Set to every switch LID (Control_Map 0x14:
threshold 1, packet size 0, marking rate 0), a CACongestionSetting Set to
every CA LID (Port_Control 0, Control_Map 0x1: SL 0's CCTI_Timer 600,
CCTI_Increase 2, Trigger_Threshold 0, CCTI_Min 0) and the two
CongestionControlTable blocks (CCTI_Limit 127; entry i: shift 2,
multiplier round(40 i^2 / 196), the file's quadratic table continued).
LID lists are comma-separated. Each Set must be answered status 0 with
the values it wrote; prints {"switches": N, "cas": M}. With --get, only
Gets a switch's and a CA's settings back (a CC agent answering under
load): prints {"answered": N}.
Layouts: Documentation/congestion.md and kmod/cc.c (IBA Annex A10).
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../selftests"))
import madtool  # noqa: E402


def cc(dlid, method, attr, mod, data=b""):
    tid = int.from_bytes(os.urandom(4), "big") | 1
    mad = bytearray(madtool.lid_mad(0x21, method, attr, mod, data, tid))
    mad[2] = 2                      # class version 2
    frame = madtool.mad_frame(madtool.mad_hdr(dlid, 1), bytes(mad))
    for _ in range(3):
        out = madtool.ask(frame, tid, 3.0)
        if out is not None:
            break
    if out is None or out["status"]:
        raise RuntimeError("LID %d attr 0x%x mod %d: %s" %
                           (dlid, attr, mod, "no answer" if out is None
                            else "status 0x%x" % out["status"]))
    return bytes.fromhex(out["data"])


def cct_block(b):
    ents = []
    for i in range(64 * b, 64 * b + 64):
        ents.append(2 << 14 | min(round(40 * i * i / 196), 0x3FFF))
    return struct.pack("!H2x64H", 127, *ents)


def main(argv):
    get = argv[:1] == ["--get"]
    if get:
        argv = argv[1:]
    sws = [int(x, 0) for x in argv[0].split(",") if x]
    cas = [int(x, 0) for x in argv[1].split(",") if x]
    if get:
        n = 0
        for lid in sws[:1]:
            n += cc(lid, 1, 0x14, 0)[3] == 0x14
        for lid in cas[:1]:
            n += struct.unpack("!H", cc(lid, 1, 0x16, 0)[4:6])[0] == 600
        print(json.dumps({"answered": n}))
        return 0 if n == len(sws[:1]) + len(cas[:1]) else 1
    ss = bytearray(192)
    struct.pack_into("!I", ss, 0, 0x14)
    ss[68] = 1 << 4                 # threshold 1, high nibble
    for lid in sws:
        got = cc(lid, 2, 0x14, 0, bytes(ss))
        if got[68] >> 4 != 1:
            raise RuntimeError("switch LID %d: threshold %d" % (lid, got[68] >> 4))
    cs = bytearray(192)
    struct.pack_into("!HHHBBB", cs, 0, 0, 0x1, 600, 2, 0, 0)
    for lid in cas:
        got = cc(lid, 2, 0x16, 0, bytes(cs))
        if struct.unpack("!H", got[4:6])[0] != 600:
            raise RuntimeError("CA LID %d: CCTI_Timer not set" % lid)
        for b in (0, 1):
            got = cc(lid, 2, 0x17, b, cct_block(b))
            if got[:2] != b"\x00\x7f":
                raise RuntimeError("CA LID %d: CCTI_Limit not set" % lid)
    print(json.dumps({"switches": len(sws), "cas": len(cas)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
