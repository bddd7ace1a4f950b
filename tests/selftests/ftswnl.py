# SPDX-License-Identifier: GPL-2.0
"""A small hand-rolled generic netlink client of the "ftsw" family for the
selftests (91-99) and the netlink fuzzer: raw messages, datagram by datagram,
so tests can stop a dump anywhere, send anything and read the extack. Names
come from include/uapi/linux/ftsw.h (never from the code under test)."""
import os
import re
import socket
import struct

TOP = os.environ.get("FTSW_TOP", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../.."))
HDR = open(os.path.join(TOP, "include/uapi/linux/ftsw.h")).read()

NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK, NLM_F_DUMP_INTR = 1, 2, 4, 0x10
NLM_F_DUMP = 0x300
NLM_F_ACK_TLVS = 0x200
SOL_NETLINK, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 270, 10, 11
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS, NLMSGERR_ATTR_MISS_TYPE = 1, 2, 5


def enum(name):
    body = re.search(r"enum %s \{(.*?)\};" % name, HDR, re.S).group(1)
    vals, n = {}, 0
    for line in body.splitlines():
        m = re.match(r"\s*(\w+)\s*(?:=\s*(\w+))?\s*,", line)
        if m:
            n = int(m.group(2), 0) if m.group(2) else n
            vals[m.group(1)] = n
            n += 1
    return vals


A = {k[len("FTSW_ATTR_"):]: v for k, v in enum("ftsw_attr").items()}
C = {k[len("FTSW_CMD_"):]: v for k, v in enum("ftsw_cmd").items()}


def attr(t, payload):
    ln = 4 + len(payload)
    return struct.pack("HH", ln, t) + payload + b"\0" * ((4 - ln % 4) % 4)


def aid(t):
    """An attribute's number: t itself, or its name (SWITCH_ID or
    FTSW_ATTR_SWITCH_ID)."""
    if not isinstance(t, str):
        return t
    return A[t[len("FTSW_ATTR_"):] if t.startswith("FTSW_ATTR_") else t]


def u8(t, v): return attr(aid(t), struct.pack("B", v))
def u16(t, v): return attr(aid(t), struct.pack("H", v))
def u32(t, v): return attr(aid(t), struct.pack("I", v))
def raw(t, b): return attr(aid(t), b)
def flag(t): return attr(aid(t), b"")


def parse_attrs(buf):
    out, p = {}, 0
    while p + 4 <= len(buf):
        ln, t = struct.unpack_from("HH", buf, p)
        if ln < 4:
            break
        out[t & 0x3fff] = buf[p + 4:p + ln]
        p += (ln + 3) & ~3
    return out


class Msg:
    def __init__(self, data, off):
        self.len, self.type, self.flags, self.seq, self.pid = struct.unpack_from("IHHII", data, off)
        self.body = data[off + 16:off + self.len]

    @property
    def cmd(self):
        return self.body[0]

    @property
    def attrs(self):
        return parse_attrs(self.body[4:])


class Nl:
    def __init__(self):
        self.sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
        self.sk.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sk.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.sk.bind((0, 0))
        self.seq = 0
        self.done_flags = 0
        self.fam = self._family()

    def _family(self):
        self.seq += 1
        body = struct.pack("BBH", 3, 1, 0) + attr(2, b"ftsw\0")
        self.sk.send(struct.pack("IHHII", 16 + len(body), 0x10, NLM_F_REQUEST | NLM_F_ACK,
                                 self.seq, 0) + body)
        fam = None
        while True:
            # A small read: the kernel sizes dump buffers to the largest
            # read a socket has made, and tests want 4 KiB dump datagrams.
            for m in self.recv(4096):
                if m.type == NLMSG_ERROR:
                    if fam is None:
                        raise OSError("no ftsw family")
                    return fam
                if m.type == 0x10:
                    fam = struct.unpack("H", m.attrs[1][:2])[0]

    def recv(self, size=1 << 20):
        data = self.sk.recv(size)
        off, out = 0, []
        while off + 16 <= len(data):
            m = Msg(data, off)
            if m.len < 16:
                break
            out.append(m)
            off += (m.len + 3) & ~3
        return out

    def send(self, cmd, body=b"", flags=NLM_F_REQUEST | NLM_F_ACK, version=1, tail=b""):
        self.seq += 1
        payload = struct.pack("BBH", cmd, version, 0) + body + tail
        self.sk.send(struct.pack("IHHII", 16 + len(payload), self.fam, flags,
                                 self.seq, 0) + payload)
        return self.seq

    @staticmethod
    def error(m):
        """(errno, message, offset of the bad attribute or None) of an ack."""
        err = struct.unpack_from("i", m.body, 0)[0]
        msg = off = None
        if m.flags & NLM_F_ACK_TLVS:
            tl = parse_attrs(m.body[4 + 16:])
            if NLMSGERR_ATTR_MSG in tl:
                msg = tl[NLMSGERR_ATTR_MSG].rstrip(b"\0").decode()
            if NLMSGERR_ATTR_OFFS in tl:
                off = struct.unpack("I", tl[NLMSGERR_ATTR_OFFS])[0]
            if NLMSGERR_ATTR_MISS_TYPE in tl and msg is None:
                msg = "missing attribute %d" % struct.unpack("I", tl[NLMSGERR_ATTR_MISS_TYPE])[0]
        return err, msg, off

    def do(self, cmd, body=b"", **kw):
        """A doit request: (errno, extack message, bad offset, replies)."""
        seq = self.send(C[cmd] if isinstance(cmd, str) else cmd, body, **kw)
        replies = []
        while True:
            for m in self.recv():
                if m.seq != seq:
                    continue
                if m.type == NLMSG_ERROR:
                    return self.error(m) + (replies,)
                if m.type == NLMSG_DONE:    # a dump that was accepted
                    err = struct.unpack_from("i", m.body, 0)[0] if len(m.body) >= 4 else 0
                    return err, None, None, replies
                replies.append(m)

    def dump_start(self, cmd, body=b""):
        return self.send(C[cmd] if isinstance(cmd, str) else cmd, body,
                         flags=NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK)

    def dump_datagram(self, seq, size=1 << 20):
        """One datagram of a dump: (messages, done, error or 0)."""
        msgs = []
        for m in self.recv(size):
            if m.seq != seq:
                continue
            if m.type == NLMSG_DONE:
                self.done_flags = m.flags
                return msgs, True, struct.unpack_from("i", m.body, 0)[0] if len(m.body) >= 4 else 0
            if m.type == NLMSG_ERROR:
                return msgs, True, self.error(m)[0]
            msgs.append(m)
        return msgs, False, 0

    def dump(self, cmd, body=b"", size=1 << 20):
        seq = self.dump_start(cmd, body)
        out = []
        while True:
            msgs, done, err = self.dump_datagram(seq, size)
            out += msgs
            if done:
                if err:
                    raise OSError(-err, os.strerror(-err))
                return out


def get_u(m, name):
    v = m.attrs.get(A[name])
    return None if v is None else int.from_bytes(v, "little")


class Tap:
    """TAP lines numbered from @start (the shell wrapper prints the plan)."""

    def __init__(self, start):
        self.n, self.failed = start, False

    def ok(self, cond, desc, diag=""):
        self.n += 1
        print("%sok %d %s" % ("" if cond else "not ", self.n, desc))
        if not cond:
            self.failed = True
            for line in str(diag).splitlines():
                print("# " + line)
        import sys
        sys.stdout.flush()
        return cond
