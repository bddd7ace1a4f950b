#!/usr/bin/env python3
"""Send management datagrams from a host namespace as the frame contract
says (Documentation/sm.md): Ethernet | 0x88B6 | ftsw_mad_hdr (16) | MAD
(256), on eth0 with AF_PACKET, and print the answer as JSON.

  madtool.py dr PATH METHOD ATTR MOD [DATA_HEX]   directed route, PATH
                          "1,3,2" (initial path 1..n), "-" for hop count 0
  madtool.py lid DLID CLASS METHOD ATTR MOD [DATA_HEX]  LID-routed
  madtool.py activate FIRST-LAST                 every port of the nodes
                          of LIDs FIRST..LAST Armed, then Active (PortInfo
                          Get, Set), as a subnet manager's last step
  madtool.py --expect EXPR dr|lid ...           the same, and exit 3 unless
                          the Python expression EXPR holds of the answer:
                          a (the JSON object), d (its data as bytes),
                          be(OFFSET, N) (big-endian integer of d)

METHOD, ATTR, MOD, CLASS: integers (0x.. allowed). The answer: method,
status (D bit masked off), hop_ptr, return_path, data (hex), slid, dlid.
Exit 1 if nothing comes back within a second. (--expect saves the TCG
guest a second Python start per question in the selftests.)
"""
import json
import os
import select
import socket
import struct
import sys
import time

ETH_P_MAD = 0x88B6
IFACE = "eth0"


def mad_frame(mh, mad):
    assert len(mh) == 16 and len(mad) == 256
    return b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x01" + \
        struct.pack("!H", ETH_P_MAD) + mh + mad


def mad_hdr(dlid, qp, sl=0, flags=0):
    return struct.pack("!HHIIBBH", dlid, 0, qp, qp, sl, flags, 0xFFFF)


def common(cls, method, attr, mod, tid, status=0, hop_ptr=0, hop_cnt=0):
    # base, class, class version, method, status, hop ptr/cnt, TID, attr,
    # reserved, modifier
    cv = 2 if cls == 0x03 else 1
    return struct.pack("!BBBBHBBQHHI", 1, cls, cv, method, status,
                       hop_ptr, hop_cnt, tid, attr, 0, mod)


def dr_smp(path, method, attr, mod, data, tid):
    hdr = common(0x81, method, attr, mod, tid, hop_cnt=len(path))
    body = struct.pack("!QHH", 0, 0xFFFF, 0xFFFF) + b"\0" * 28
    ip = bytes([0] + path).ljust(64, b"\0")
    return hdr + body + data.ljust(64, b"\0")[:64] + ip + b"\0" * 64


def lid_mad(cls, method, attr, mod, data, tid):
    hdr = common(cls, method, attr, mod, tid)
    return hdr + b"\0" * 40 + data.ljust(192, b"\0")[:192]


def open_sock():
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_MAD))
    s.bind((IFACE, ETH_P_MAD))
    return s


def ask(frame, tid, timeout=1.0):
    s = open_sock()
    s.send(frame)
    end = time.time() + timeout
    while time.time() < end:
        r, _, _ = select.select([s], [], [], max(0, end - time.time()))
        if not r:
            break
        pkt, addr = s.recvfrom(2048)
        if addr[2] == socket.PACKET_OUTGOING or len(pkt) < 14 + 16 + 256:
            continue
        mh, mad = pkt[14:30], pkt[30:286]
        if struct.unpack("!Q", mad[8:16])[0] != tid:
            continue
        dlid, slid, dqpn, sqpn, sl, _, _ = struct.unpack("!HHIIBBH", mh)
        status = struct.unpack("!H", mad[4:6])[0]
        out = {"method": mad[3], "status": status & 0x7FFF,
               "d": status >> 15, "dlid": dlid, "slid": slid,
               "sqpn": sqpn, "attr": struct.unpack("!H", mad[16:18])[0]}
        if mad[1] == 0x81:
            out["hop_ptr"] = mad[6]
            out["hop_cnt"] = mad[7]
            out["return_path"] = list(mad[192:192 + mad[7] + 1])
            out["data"] = mad[64:128].hex()
        else:
            out["data"] = mad[64:256].hex()
        return out
    return None


def num(s):
    return int(s, 0)


def lid_smp(dlid, method, attr, mod, data, tid):
    mad = lid_mad(0x01, method, attr, mod, data, tid)
    mad = mad[:24] + b"\0" * 8 + b"\xff\xff\xff\xff" + b"\0" * 28 + \
        data.ljust(64, b"\0")[:64] + b"\0" * 128
    return mad_frame(mad_hdr(dlid, 0), mad)


def smp(dlid, method, attr, mod, data=b""):
    tid = int.from_bytes(os.urandom(4), "big") | 1
    out = ask(lid_smp(dlid, method, attr, mod, data, tid), tid)
    if out is None or out["status"]:
        raise RuntimeError("LID %d attr 0x%x mod %d: %s" %
                           (dlid, attr, mod, out and out["status"]))
    return bytes.fromhex(out["data"])[:64]


def activate(first, last):
    """PortInfo Get + Set: PortState Armed then Active on every port with
    a link (switches: ports 0..N, CAs: port 1). Prints the count."""
    ports = []
    for lid in range(first, last + 1):
        ni = smp(lid, 1, 0x11, 0)
        sw = ni[2] == 2
        ports += [(lid, p) for p in (range(0, ni[3] + 1) if sw else [1])]
    done = 0
    for state in (3, 4):
        for lid, p in ports:
            pi = bytearray(smp(lid, 1, 0x15, p))
            if pi[32] & 0xF == 1:       # Down: no link there
                continue
            pi[32] = (pi[32] & 0xF0) | state
            pi[33] &= 0x0F              # PortPhysicalState: no change
            got = smp(lid, 2, 0x15, p, bytes(pi))
            if got[32] & 0xF != state:
                raise RuntimeError("LID %d port %d: state %d after Set %d" %
                                   (lid, p, got[32] & 0xF, state))
            done += state == 4
    print(json.dumps({"active": done}))
    return 0


def expect(expr, a):
    """EXPR (whitespace-folded) of the answer a: True if it holds."""
    d = bytes.fromhex(a["data"])

    def be(off, n):
        return int.from_bytes(d[off:off + n], "big")
    return bool(eval(" ".join(expr.split()), {"a": a, "d": d, "be": be}))


def main(argv):
    want = None
    if len(argv) > 1 and argv[0] == "--expect":
        want, argv = argv[1], argv[2:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    tid = int.from_bytes(os.urandom(4), "big") | 1
    if argv[0] == "dr":
        path = [] if argv[1] == "-" else [num(x) for x in argv[1].split(",")]
        data = bytes.fromhex(argv[5]) if len(argv) > 5 else b""
        frame = mad_frame(mad_hdr(0xFFFF, 0),
                          dr_smp(path, num(argv[2]), num(argv[3]),
                                 num(argv[4]), data, tid))
    elif argv[0] == "lid":
        cls = num(argv[2])
        data = bytes.fromhex(argv[6]) if len(argv) > 6 else b""
        if cls == 0x01:
            frame = lid_smp(num(argv[1]), num(argv[3]), num(argv[4]),
                            num(argv[5]), data, tid)
        else:
            frame = mad_frame(mad_hdr(num(argv[1]), 1),
                              lid_mad(cls, num(argv[3]), num(argv[4]),
                                      num(argv[5]), data, tid))
    elif argv[0] == "activate":
        first, last = argv[1].split("-")
        return activate(num(first), num(last))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    out = ask(frame, tid)
    if out is None:
        print("no answer", file=sys.stderr)
        return 1
    print(json.dumps(out))
    if want is not None and not expect(want, out):
        print("expected: " + " ".join(want.split()), file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
