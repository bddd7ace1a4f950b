# SPDX-License-Identifier: GPL-2.0
"""Credit-update frames of lossless mode on a raw device, for selftest 99
(layout from include/uapi/linux/ftsw.h, never from the code under test).

  credittool.py recv DEV       first credit frame seen on DEV, as JSON
  credittool.py send DEV VL FCTBS FCCL   one valid frame with one entry
  credittool.py fuzz DEV N SEED          N frames, each broken one way"""
import json
import random
import socket
import struct
import sys

ETH_P = 0x88B5
BCAST = b"\xff" * 6
SRC = bytes([0x02, 0x66, 0x74, 0x00, 0xFF, 0xFF])


def frame(entries, version=1, count=None, reserved=0):
    """Ethernet + fabric header (dlid 0xFFFF, pkey 0xFFFF, proto 0x88B5)
    + credits."""
    eth = BCAST + SRC + struct.pack("!H", ETH_P)
    fab = struct.pack("!HHBBHH", 0xFFFF, 0, 0, 0, 0xFFFF, ETH_P)
    n = len(entries) if count is None else count
    body = struct.pack("!BBH", version, n, reserved)
    for vl, rsv, fctbs, fccl in entries:
        body += struct.pack("!B3sII", vl, rsv, fctbs, fccl)
    return eth + fab + body


def sock(dev):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P))
    s.bind((dev, 0))
    return s


def recv(dev):
    s = sock(dev)
    s.settimeout(3)
    while True:
        buf = s.recv(2048)
        if len(buf) < 28 or struct.unpack("!H", buf[22:24])[0] != ETH_P:
            continue
        dlid, slid, sl, hops, pkey, proto = struct.unpack("!HHBBHH", buf[14:24])
        version, count, rsv = struct.unpack("!BBH", buf[24:28])
        ents = []
        for i in range(count):
            vl, r, fctbs, fccl = struct.unpack("!B3sII", buf[28 + 12 * i:40 + 12 * i])
            ents.append({"vl": vl, "fctbs": fctbs, "fccl": fccl})
        print(json.dumps({"dlid": dlid, "pkey": pkey, "proto": proto, "version": version,
                          "count": count, "len": len(buf), "entries": ents}))
        return


def fuzz(dev, n, seed):
    """Every frame is invalid, by one of the checks the frame must pass."""
    r = random.Random(seed)
    s = sock(dev)
    for _ in range(n):
        k = r.randrange(1, 5)
        ents = [(v, b"\0\0\0", r.getrandbits(32), r.getrandbits(32)) for v in range(k)]
        how = r.randrange(6)
        if how == 0:
            f = frame(ents, version=r.choice([0, 2, 255]))
        elif how == 1:
            f = frame(ents, count=r.choice([0, 16, 200]))
        elif how == 2:
            ents[r.randrange(k)] = (r.randrange(15, 256), b"\0\0\0", 0, 0)
            f = frame(ents)
        elif how == 3:
            ents[0] = (0, bytes([0, r.randrange(1, 256), 0]), 0, 0)
            f = frame(ents)
        elif how == 4:
            f = frame(ents, reserved=r.randrange(1, 65536))
        else:
            f = frame(ents)[:24 + 4 + 12 * k - r.randrange(1, 12 * k + 1)]
        s.send(f)


cmd, dev = sys.argv[1], sys.argv[2]
if cmd == "recv":
    recv(dev)
elif cmd == "send":
    vl, fctbs, fccl = (int(x) for x in sys.argv[3:6])
    sock(dev).send(frame([(vl, b"\0\0\0", fctbs, fccl)]))
elif cmd == "fuzz":
    fuzz(dev, int(sys.argv[3]), int(sys.argv[4]))
