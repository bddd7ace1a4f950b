#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What selftest 185-lab-view needs from a browser and from hostile
clients, with python3's standard library only.

Debian's chromium runs headless and is driven over its DevTools protocol
(a WebSocket: the client side of RFC 6455 is written here, masked frames,
as small as the protocol allows). One page, kept open across commands.
CDP is the browser's DevTools address, HOST:PORT (or a port on 127.0.0.1):
the browser runs on the host, the test in the VM reaches it through a
forward (tests/vm/run --guestfwd).

  viewtool.py start DIR                 chromium with its profile in DIR
                                        (its pid in DIR.pid); prints the
                                        DevTools port
  viewtool.py open CDP URL [SECONDS]    (re)load the page, wait until it
                                        applied a snapshot; prints every
                                        request it made (JSON)
  viewtool.py eval CDP EXPR             the value of EXPR in the page (JSON)
  viewtool.py watch CDP EXPR SECONDS STEP [STOP]   EXPR every STEP s
                                        (JSON list of [seconds since start,
                                        value]), until STOP is true (or
                                        STOP file:PATH exists)
  viewtool.py until CDP EXPR SECONDS    wait until EXPR is true; prints
                                        the seconds it took, exit 1 if never
  viewtool.py clock CDP                 the page's clock minus ours, in s
                                        (the browser's host and the VM)
  viewtool.py cpu CDP                   the browser's clock and the CPU
                                        seconds of all its processes
  viewtool.py shot CDP FILE W H [EXPR]  a PNG of the page at W x H after
                                        EXPR (zoom, a trace...)
  viewtool.py textshot CDP FILE TEXT W H   a terminal's text as a PNG
  viewtool.py hostile URL PID           the hostile clients (see hostile())
  viewtool.py py CODE ARGS...           run the python CODE (a check's
                                        script) with ARGS as sys.argv[1:]
  viewtool.py serve REPLY               every command above but start, one
                                        after another, from stdin (see
                                        serve()): one python3 for a whole
                                        selftest (a start costs a TCG guest
                                        a second or two)

Every command ends within its own deadline (VIEWTOOL_SECONDS, default 120,
plus the SECONDS it was given): a browser that stops answering fails the
check, it never hangs it.
"""
import base64
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request


# ------------------------------------------------------------ WebSocket

class WS:
    def __init__(self, url):
        assert url.startswith("ws://"), url
        hostport, path = url[5:].split("/", 1)
        host, port = hostport.rsplit(":", 1)
        self.s = socket.create_connection((host, int(port)), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall(("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                        "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n" % (path, hostport, key)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            c = self.s.recv(1)
            if not c:
                raise IOError("websocket: no handshake")
            head += c
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise IOError("websocket: " + head.decode(errors="replace"))
        self.buf = b""

    def send(self, text):
        data = text.encode()
        n = len(data)
        hdr = bytes([0x81])
        if n < 126:
            hdr += bytes([0x80 | n])
        elif n < 65536:
            hdr += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            hdr += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.s.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buf) < n:
            c = self.s.recv(65536)
            if not c:
                raise IOError("websocket closed")
            self.buf += c
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7f
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            op = b0 & 0x0f
            if op == 9:             # ping: pong
                continue
            if op == 8:
                raise IOError("websocket closed by the browser")
            msg += payload
            if b0 & 0x80:
                return msg.decode()


class Page:
    """The one page target of the browser on DevTools port `port`."""

    def __init__(self, cdp):
        self.cdp = cdp if ":" in cdp else "127.0.0.1:" + cdp
        targets = json.load(urllib.request.urlopen(
            "http://%s/json/list" % self.cdp, timeout=30))
        pages = [t for t in targets if t["type"] == "page"]
        if not pages:
            raise IOError("no page target")
        # the browser names its own address; ours for it may differ
        ws = pages[0]["webSocketDebuggerUrl"]
        self.ws = WS("ws://%s/%s" % (self.cdp, ws[5:].split("/", 1)[1]))
        self.n = 0
        self.events = []

    # a call's answer must come within this, events or not (a slow guest's
    # browser sends events all along: the socket's timeout never fires)
    CALL_SECONDS = 120

    def call(self, method, **params):
        self.n += 1
        me = self.n
        t0 = time.time()
        self.ws.send(json.dumps({"id": me, "method": method, "params": params}))
        while True:
            if time.time() - t0 > self.CALL_SECONDS:
                raise IOError("%s: no answer in %d s" % (method, self.CALL_SECONDS))
            m = json.loads(self.ws.recv())
            if m.get("id") == me:
                if "error" in m:
                    raise IOError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def close(self):
        self.ws.s.close()

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise IOError("page: %s: %s" % (expr, r["exceptionDetails"].get("text")))
        return r["result"].get("value")


# ------------------------------------------------------------ commands

# eval, watch and until share one DevTools session per browser for as long
# as this process lives (serve); open, shot and textshot get sessions of
# their own (their event subscriptions and emulated sizes end with them)
_pages = {}


def page_of(cdp):
    if cdp not in _pages:
        _pages[cdp] = Page(cdp)
    p = _pages[cdp]
    p.events = []
    return p


def start(profile):
    proc = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                      "--no-first-run", "--disable-extensions",
                      "--disable-background-networking", "--disable-sync",
                      "--disable-component-update", "--disable-default-apps",
                      "--hide-scrollbars", "--mute-audio",
                      "--remote-debugging-port=0", "--user-data-dir=" + profile,
                      "--window-size=1200,800", "about:blank"],
                     stdout=subprocess.DEVNULL, stderr=open(profile + ".log", "w"),
                     start_new_session=True)
    with open(profile + ".pid", "w") as f:
        f.write("%d\n" % proc.pid)
    f = os.path.join(profile, "DevToolsActivePort")
    for _ in range(1800):
        if os.path.exists(f) and open(f).read().strip():
            print(open(f).read().split()[0])
            return 0
        if proc.poll() is not None:
            print("chromium exited with status %d" % proc.returncode, file=sys.stderr)
            return 1
        time.sleep(0.1)
    print("chromium did not start in 180 s", file=sys.stderr)
    return 1


def open_page(port, url, seconds=60):
    p = Page(port)
    p.call("Network.enable")
    p.call("Page.enable")
    p.call("Runtime.enable")
    p.call("Page.navigate", url=url)
    t0 = time.time()
    while time.time() - t0 < seconds:
        try:
            if p.eval("document.body && document.body.dataset.ready === '1'"):
                break
        except IOError:
            pass
        time.sleep(0.2)
    else:
        print("the page applied no snapshot in %d s" % seconds, file=sys.stderr)
        try:
            print("status: %s" % p.eval("document.getElementById('status').textContent"),
                  file=sys.stderr)
        except IOError as e:
            print("status: %s" % e, file=sys.stderr)
        for e in p.events:
            m = e.get("method", "")
            if m == "Runtime.exceptionThrown":
                print("exception: %s" % json.dumps(e["params"])[:400], file=sys.stderr)
            elif m == "Runtime.consoleAPICalled":
                print("console: %s" % json.dumps(e["params"].get("args"))[:300],
                      file=sys.stderr)
            elif m == "Network.requestWillBeSent":
                print("request: %s" % e["params"]["request"]["url"], file=sys.stderr)
            elif m == "Network.loadingFailed":
                print("failed: %s" % json.dumps(e["params"])[:300], file=sys.stderr)
        return 1
    reqs = [e["params"]["request"]["url"] for e in p.events
            if e.get("method") == "Network.requestWillBeSent"]
    p.close()
    print(json.dumps({"seconds": round(time.time() - t0, 2), "requests": reqs}))
    return 0


def watch(port, expr, seconds, step, stop=None):
    """STOP: an expression, or file:PATH (until PATH exists: the test
    says when, say, its traffic is over)."""
    p = page_of(port)
    t0, out = time.time(), []
    while time.time() - t0 < seconds:
        out.append([round(time.time() - t0, 2), p.eval(expr)])
        if stop and (os.path.exists(stop[5:]) if stop.startswith("file:")
                     else p.eval(stop)):
            break
        time.sleep(step)
    print(json.dumps(out))
    return 0


def until(port, expr, seconds):
    p = page_of(port)
    t0 = time.time()
    while time.time() - t0 < seconds:
        if p.eval(expr):
            print(round(time.time() - t0, 2))
            return 0
        time.sleep(0.05)
    print("never: %s" % expr)
    return 1


def clock(port):
    """The page's clock minus ours: the midpoint of a round trip, best of
    five (the uncertainty, half the round trip, printed too)."""
    p = page_of(port)
    best = None
    for _ in range(5):
        t0 = time.time()
        them = p.eval("Date.now() / 1000")
        t1 = time.time()
        if best is None or t1 - t0 < best[1]:
            best = (them - (t0 + t1) / 2, t1 - t0)
    print("%.3f %.3f" % (best[0], best[1] / 2))
    return 0


def cpu(port):
    """The page's clock (the browser host's) and the CPU seconds every
    process of the browser has used (DevTools' SystemInfo, browser target)."""
    p = page_of(port)
    now = p.eval("Date.now() / 1000")
    v = json.load(urllib.request.urlopen("http://%s/json/version" % p.cdp, timeout=30))
    ws = WS("ws://%s/%s" % (p.cdp, v["webSocketDebuggerUrl"][5:].split("/", 1)[1]))
    ws.send(json.dumps({"id": 1, "method": "SystemInfo.getProcessInfo"}))
    while True:
        m = json.loads(ws.recv())
        if m.get("id") == 1:
            break
    procs = m["result"]["processInfo"]
    print("%.3f %.3f" % (now, sum(x["cpuTime"] for x in procs)))
    return 0


def shot(port, path, w, h, setup=None):
    p = Page(port)
    p.call("Emulation.setDeviceMetricsOverride", width=w, height=h,
           deviceScaleFactor=1, mobile=False)
    if setup:
        p.eval(setup)
    time.sleep(1.5)
    png = p.call("Page.captureScreenshot", format="png")["data"]
    p.close()
    with open(path, "wb") as f:
        f.write(base64.b64decode(png))
    return 0


def textshot(port, path, textfile, w, h):
    """A terminal's text (lab top's screen) as a PNG: white on black,
    monospace, in the page's tab (navigated away from the view)."""
    import html
    text = open(textfile, encoding="utf-8", errors="replace").read()
    doc = ("<!doctype html><body style='margin:0;background:#111'><pre style='"
           "margin:8px;color:#eee;font:15px/1.25 DejaVu Sans Mono,monospace'>"
           + html.escape(text) + "</pre>")
    p = Page(port)
    p.call("Emulation.setDeviceMetricsOverride", width=w, height=h,
           deviceScaleFactor=1, mobile=False)
    p.call("Page.navigate", url="data:text/html;base64," +
           base64.b64encode(doc.encode()).decode())
    time.sleep(1.5)
    png = p.call("Page.captureScreenshot", format="png")["data"]
    p.close()
    with open(path, "wb") as f:
        f.write(base64.b64decode(png))
    return 0


# ------------------------------------------------------------ hostile

def rss_kb(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def raw(host, port, data, read=True, timeout=10):
    """Send data on a new connection; the status line and the bytes read."""
    s = socket.create_connection((host, port), timeout=timeout)
    s.sendall(data)
    got = b""
    if read:
        try:
            while True:
                c = s.recv(65536)
                if not c:
                    break
                got += c
        except socket.timeout:
            pass
    s.close()
    return got.split(b"\r\n", 1)[0].decode(errors="replace"), got


def get(url, timeout=10):
    t0 = time.time()
    with urllib.request.urlopen(url, timeout=timeout) as r:
        body = r.read()
        return r.status, body, time.time() - t0


def hostile(url, pid):
    """Bad paths and methods, oversized headers and bodies, hundreds of
    idle and half-sent connections, stream clients that never read and one
    that reads slowly: meanwhile the server answers the others promptly,
    its memory stays bounded, and afterwards it serves as before."""
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    port = int(port)
    res, fails = {}, []
    rss0 = rss_kb(pid)
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"):
        st, got = raw(host, port, ("%s /api/snapshot HTTP/1.1\r\nHost: x\r\n"
                                   "Connection: close\r\n"
                                   "Content-Length: 5\r\n\r\nhello" % method).encode())
        res[method] = st
        if " 405 " not in st + " " or b"Allow: GET, HEAD" not in got:
            fails.append("%s: %s" % (method, st))
    for path in ("/nope", "/../../etc/passwd", "/api/snapshot/..", "/%00",
                 "/" + "a" * 8000, "/api/path?src=" + "h" * 3000):
        st, _ = raw(host, port, ("GET %s HTTP/1.1\r\nHost: x\r\n"
                                 "Connection: close\r\n\r\n" % path).encode())
        res[path[:20]] = st
        if not st.startswith("HTTP/1.1 4"):
            fails.append("%s: %s" % (path[:30], st))
    st, _ = raw(host, port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 100000 +
                b"\r\n\r\n")
    res["100 kB header"] = st
    if st and not st.startswith("HTTP/1.1 4"):
        fails.append("a 100 kB header: %s" % st)
    st, _ = raw(host, port, b"GET /api/snapshot HTTP/1.1\r\nHost: x\r\n"
                b"Content-Length: 1000000\r\n\r\n" + b"z" * 65536)
    res["GET with a body"] = st
    if not st.startswith("HTTP/1.1 413"):
        fails.append("a GET with a 1 MB body: %s" % st)
    # (no request line ever ends: the server's idle timeout would close
    # it; 2 s of it are enough to see it did not answer nonsense)
    st, _ = raw(host, port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(200),
                timeout=2)
    res["TLS hello"] = st
    # hundreds of connections: idle ones, half-sent requests, stream
    # clients that never read
    conns = []
    for i in range(300):
        try:
            s = socket.create_connection((host, port), timeout=5)
            if i % 3 == 1:
                s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            elif i % 3 == 2 and i < 60:
                s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
            conns.append(s)
        except OSError as e:
            fails.append("connection %d: %s" % (i, e))
            break
    res["connections held"] = len(conns)
    slow = socket.create_connection((host, port), timeout=10)
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.sendall(b"GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
    worst = 0.0
    t0 = time.time()
    while time.time() - t0 < 3:
        for path in ("api/snapshot", "metrics"):
            try:
                st, body, dt = get(url + path, timeout=10)
                worst = max(worst, dt)
                if st != 200 or not body:
                    fails.append("%s under load: status %s" % (path, st))
            except OSError as e:
                fails.append("%s under load: %s" % (path, e))
                worst = 99
        slow.recv(512)          # the slow reader: a little now and then
        time.sleep(0.3)
    res["slowest answer under load (s)"] = round(worst, 2)
    if worst > 3:
        fails.append("an answer took %.1f s under load" % worst)
    rss1 = rss_kb(pid)
    res["rss kB before, under load"] = [rss0, rss1]
    if rss1 > rss0 + 64 * 1024:
        fails.append("memory grew from %d to %d kB" % (rss0, rss1))
    for s in conns:
        s.close()
    slow.close()
    time.sleep(1)
    st, body, dt = get(url + "api/topology")
    if st != 200:
        fails.append("after: status %d" % st)
    res["after (s)"] = round(dt, 2)
    print(json.dumps(res))
    for f in fails:
        print("FAIL", f)
    return 1 if fails else 0


class Deadline(BaseException):
    pass


def deadline(signum, frame):
    raise Deadline()


def run_py(code, args):
    """A check's python script, as `python3 - ARGS` would run it."""
    import traceback
    argv, sys.argv = sys.argv, ["-"] + list(args)
    try:
        exec(compile(code, "<check>", "exec"), {"__name__": "__main__"})
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    except Exception:
        traceback.print_exc()
        return 1
    finally:
        sys.argv = argv
    return 0


def command(argv):
    """One command (argv without the program's name); its exit status."""
    cmd = argv[0] if argv else ""
    if cmd == "start":
        return start(argv[1])
    if cmd == "open":
        return open_page(argv[1], argv[2], float(argv[3]) if len(argv) > 3 else 60)
    if cmd == "eval":
        print(json.dumps(page_of(argv[1]).eval(argv[2])))
        return 0
    if cmd == "watch":
        return watch(argv[1], argv[2], float(argv[3]), float(argv[4]),
                     argv[5] if len(argv) > 5 else None)
    if cmd == "until":
        return until(argv[1], argv[2], float(argv[3]))
    if cmd == "clock":
        return clock(argv[1])
    if cmd == "cpu":
        return cpu(argv[1])
    if cmd == "shot":
        return shot(argv[1], argv[2], int(argv[3]), int(argv[4]),
                    argv[5] if len(argv) > 5 else None)
    if cmd == "textshot":
        return textshot(argv[1], argv[2], argv[3], int(argv[4]), int(argv[5]))
    if cmd == "hostile":
        return hostile(argv[1], int(argv[2]))
    if cmd == "py":
        return run_py(argv[1], argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


def allowed(argv):
    """A command's deadline: VIEWTOOL_SECONDS (default 120) plus the
    seconds it was given."""
    given = 0
    if argv and argv[0] in ("open", "watch", "until") and len(argv) > 3:
        given = float(argv[3])
    return int(float(os.environ.get("VIEWTOOL_SECONDS", "120")) + given)


def timed(argv):
    """command() within its deadline: status 3 past it (and every session
    to the browser dropped: one may be mid-message)."""
    signal.alarm(allowed(argv))
    try:
        return command(argv)
    except Deadline:
        print("viewtool: %s: no result within its deadline" % " ".join(argv[:2]),
              file=sys.stderr)
        _pages.clear()
        return 3
    except Exception as e:
        print("viewtool: %s: %s" % (" ".join(argv[:2]), e), file=sys.stderr)
        _pages.clear()
        return 1
    finally:
        signal.alarm(0)


def serve(reply):
    """Commands from stdin, each a count and that many words, every one
    ended by a NUL (bash: printf '%s\\0' $# "$@"); for each, its output
    in the file REPLY.out, its errors in REPLY.err, then a line on stdout:
    0x1e and its exit status. (Files, not the pipe: bash reads a pipe a
    byte per read(2), which a TCG guest makes seconds for a long answer.)
    Ends at the end of stdin."""
    import contextlib
    import io
    buf = b""

    def word():
        nonlocal buf
        while b"\0" not in buf:
            c = os.read(0, 65536)
            if not c:
                raise EOFError
            buf += c
        w, buf = buf.split(b"\0", 1)
        return w.decode(errors="replace")

    while True:
        try:
            argv = [word() for _ in range(int(word()))]
        except EOFError:
            return 0
        with open(reply + ".out", "w") as o, open(reply + ".err", "w") as e, \
                contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
            rc = timed(argv)
        sys.stdout.write("\x1e%d\n" % rc)
        sys.stdout.flush()


def main(argv):
    signal.signal(signal.SIGALRM, deadline)
    if argv[1:2] == ["serve"]:
        return serve(argv[2])
    return timed(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
