# SPDX-License-Identifier: GPL-2.0
"""vtrelay - a VTP relay between vtunerc and vtunerd (docs/protocol.md)
that plays the attacker on the path: it forwards every frame, and changes,
injects, replays, drops or reorders one of them.

    python3 tests/vtrelay.py LISTEN_HOST:PORT SERVER_HOST:PORT [--on-usr1]
                             [ACTION...]

A connection is "ctl" if its first frame from the client is HELLO, "data"
if it is DATA_ATTACH.  Frames are counted per connection and direction
from 1 (c2s: client to server, s2c: server to client).  Each action fires
once, on the first connection where it can, so that the next session
goes through untouched:

    flip=DIR:KIND:N        flip one bit in the middle of frame N's payload
    inject=DIR:KIND:N:HEX  after frame N, send the bytes HEX
    replay=DIR:KIND:N      send frame N twice
    drop=DIR:KIND:N        do not send frame N
    swap=DIR:KIND:N        send frame N+1 before frame N

N may also be +SEC: the first frame SEC seconds or more after the
connection was accepted (inject: at that time, between two frames).
With --on-usr1 the actions wait: the first SIGUSR1 arms the first
action, the second the second...; +SEC then counts from that signal.

It prints "listening" once ready, each action as it fires ("flip ctl s2c
frame 5 (0050, 348 bytes)"), and for every connection that ends a line
per direction with the frame types it carried: "data s2c types
0003:1,0050:212".  Runs until killed.
"""
import signal
import socket
import struct
import sys
import threading
import time

HDR = 16
lock = threading.Lock()
# --on-usr1: the times of the signals so far (each arms one more action)
arms = {"on": False, "times": []}
armed = threading.Condition(lock)


def say(text):
    with lock:
        print(text, flush=True)


class Action:
    def __init__(self, spec, index):
        self.index = index
        name, _, arg = spec.partition("=")
        parts = arg.split(":")
        if name not in ("flip", "inject", "replay", "drop", "swap") or \
                len(parts) < 3 or parts[0] not in ("c2s", "s2c") or \
                parts[1] not in ("ctl", "data"):
            sys.exit("vtrelay: bad action '%s'" % spec)
        self.name, self.dir, self.kind = name, parts[0], parts[1]
        self.after = float(parts[2][1:]) if parts[2][:1] == "+" else None
        self.n = int(parts[2]) if self.after is None else 0
        self.data = bytes.fromhex(parts[3]) if name == "inject" else b""
        self.fired = False
        self.conn = None    # the connection it fires on

    def take(self, conn, direction, n):
        """True if this action fires on frame n of conn's direction (0:
        at the time of a timed inject)."""
        with lock:
            if arms["on"] and len(arms["times"]) <= self.index:
                return False
            if self.after is not None:
                due = time.monotonic() - self.t0(conn) >= self.after
                # a timed inject fires from its timer, between frames
                due = due and (n == 0) == (self.name == "inject")
            else:
                due = self.n == n
            if self.fired or self.dir != direction or \
                    self.kind != conn.kind or not due:
                return False
            if self.conn is None:
                self.conn = conn
            if self.conn is not conn:
                return False
            self.fired = True
            return True

    def t0(self, conn):
        """When +SEC counts from (lock held)."""
        return arms["times"][self.index] if arms["on"] else conn.t0

    def wait_due(self, conn, done):
        """Wait for a timed action's time; False if conn ended first."""
        with armed:
            while arms["on"] and len(arms["times"]) <= self.index:
                if done.is_set():
                    return False
                armed.wait(0.2)
            due = self.t0(conn) + self.after
        return not done.wait(max(0.0, due - time.monotonic()))


def read_frame(sock, buf):
    """One frame (bytes) from sock, buf the bytes read ahead; None at EOF."""
    while True:
        if len(buf) >= HDR:
            n = struct.unpack(">I", buf[8:12])[0]
            if len(buf) >= HDR + n:
                f = bytes(buf[:HDR + n])
                del buf[:HDR + n]
                return f
        try:
            b = sock.recv(262144)
        except OSError:
            b = b""
        if not b:
            return None
        buf += b


class Conn:
    def __init__(self, client, server, actions):
        self.c, self.s, self.actions = client, server, actions
        self.kind = None
        self.known = threading.Event()
        self.types = {"c2s": {}, "s2c": {}}
        self.t0 = time.monotonic()
        # whole frames only: a timed inject waits for the one being sent
        self.send_lock = {"c2s": threading.Lock(), "s2c": threading.Lock()}
        self.done = threading.Event()

    def timed(self, a):
        """A timed inject: at its time, between two frames."""
        if not a.wait_due(self, self.done):
            return
        dst = self.s if a.dir == "c2s" else self.c
        with self.send_lock[a.dir]:
            if a.take(self, a.dir, 0):
                say("inject %s %s at %.1f s (%d bytes)" %
                    (self.kind, a.dir, time.monotonic() - self.t0,
                     len(a.data)))
                try:
                    dst.sendall(a.data)
                except OSError:
                    pass

    def pump(self, direction):
        src, dst = (self.c, self.s) if direction == "c2s" else \
            (self.s, self.c)
        buf = bytearray()
        n = 0
        held = None
        while True:
            f = read_frame(src, buf)
            if f is None:
                break
            n += 1
            ftype = struct.unpack(">H", f[2:4])[0]
            if direction == "c2s" and self.kind is None:
                self.kind = "ctl" if ftype == 0x0001 else "data"
                self.known.set()
                for a in self.actions:
                    if a.name == "inject" and a.after is not None and \
                            a.kind == self.kind:
                        threading.Thread(target=self.timed, args=(a,),
                                         daemon=True).start()
            elif direction == "s2c":
                self.known.wait(5)
            t = self.types[direction]
            t[ftype] = t.get(ftype, 0) + 1
            out = [f]
            for a in self.actions:
                if not a.take(self, direction, n):
                    continue
                say("%s %s %s frame %d (%04x, %d bytes)" %
                    (a.name, self.kind, direction, n, ftype, len(f)))
                if a.name == "flip":
                    b = bytearray(f)
                    i = HDR + (len(f) - HDR) // 2 if len(f) > HDR else 4
                    b[i] ^= 0x10
                    out = [bytes(b)]
                elif a.name == "inject":
                    out = out + [a.data]
                elif a.name == "replay":
                    out = out + [f]
                elif a.name == "drop":
                    out = []
                elif a.name == "swap":
                    held = f
                    out = []
            if held is not None and out and out[0] is not held:
                out = out + [held]
                held = None
            try:
                with self.send_lock[direction]:
                    for piece in out:
                        dst.sendall(piece)
            except OSError:
                break
        for sock in (dst, src):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        say("%s %s types %s" % (self.kind or "?", direction, ",".join(
            "%04x:%d" % (k, v) for k, v in sorted(self.types[direction]
                                                  .items()))))


def addr(spec):
    host, _, port = spec.rpartition(":")
    return host.strip("[]"), int(port)


def serve(client, upstream, actions):
    try:
        server = socket.create_connection(upstream, timeout=5)
    except OSError as e:
        say("upstream: %s" % e)
        client.close()
        return
    server.settimeout(None)
    conn = Conn(client, server, actions)
    threads = [threading.Thread(target=conn.pump, args=(d,), daemon=True)
               for d in ("c2s", "s2c")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    conn.done.set()
    client.close()
    server.close()


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    specs = argv[3:]
    if "--on-usr1" in specs:
        specs.remove("--on-usr1")
        arms["on"] = True

        def on_usr1(signum, frame):
            with armed:
                arms["times"].append(time.monotonic())
                armed.notify_all()
            say("armed %d" % len(arms["times"]))
        signal.signal(signal.SIGUSR1, on_usr1)
    actions = [Action(a, i) for i, a in enumerate(specs)]
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(addr(argv[1]))
    ls.listen(16)
    say("listening")
    while True:
        c, _ = ls.accept()
        threading.Thread(target=serve, args=(c, addr(argv[2]), actions),
                         daemon=True).start()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
