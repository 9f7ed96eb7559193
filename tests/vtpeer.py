# SPDX-License-Identifier: GPL-2.0
"""vtpeer - a raw VTP peer (docs/protocol.md) for the host tests that need
one the daemons would not be: a client that stops half-way through the
handshake or sends what it must not, a server that is not what it claims.

    python3 tests/vtpeer.py client HOST:PORT STEP...
    python3 tests/vtpeer.py server HOST:PORT [--ready FILE] STEP...

A client connects and runs its steps; a server accepts connections (each
runs the steps) until killed or, with --once, after the first.  Steps:

    hello            HELLO without a key
    hello-auth       HELLO asking for VTP_FEAT_AUTH and _SEAL, with a nonce
    hello-auth-clear HELLO asking for VTP_FEAT_AUTH alone (an older client)
    hello-name=HEX   HELLO without a key, the client name as hex bytes
    send=TYPE[:HEX]  a frame of TYPE (hex) with the hex payload
    raw=HEX          bytes as they are (e.g. half a frame)
    trickle=N        N bytes of one frame that never ends, one a second
    wait=SEC         read frames for SEC seconds
    close            close the connection
    (server only)
    reply-hello[=HEX]  answer HELLO: version 1, AUTH and SEAL granted when
                       asked, the server name as hex bytes (default "fake")
    reply-hello-clear  the same, granting AUTH alone (an older server)
    status=SEQ:STATUS  a STATUS push (fe_status in hex)
    reply-auth       answer AUTH with a proof made up (no key)

Every frame received is printed as "got TYPE len N [text]" (ERROR: the
errno and message); the end as "closed by peer after S s" or "open
after S s".  A client first prints its own address, "local ADDR:PORT".  Exit status 0, 2 on a usage error.
"""
import os
import socket
import struct
import sys
import time

MAGIC = 0x5654
HELLO, HELLO_REPLY, OK, ERROR, KEEPALIVE, KEEPALIVE_REPLY, AUTH, AUTH_REPLY = \
    range(1, 9)
FEAT_AUTH = 1
FEAT_SEAL = 2


def frame(ftype, reqid, payload=b""):
    return struct.pack(">HHHHII", MAGIC, ftype, 0, 0, len(payload),
                       reqid) + payload


def hello(name=b"vtpeer", auth=False, seal=True):
    feat = (FEAT_AUTH | (FEAT_SEAL if seal else 0)) if auth else 0
    p = struct.pack(">HHI", 1, 1, feat)
    p += bytes([len(name)]) + name
    return frame(HELLO, 1, p + (os.urandom(32) if auth else b""))


def status(seq, fe_status):
    return frame(0x30, 0, struct.pack(">II", seq, fe_status) +
                 bytes(344 - 8))


class Peer:
    def __init__(self, sock):
        self.s = sock
        self.buf = b""
        self.t0 = time.monotonic()
        self.closed = False
        self.asked_auth = False
        self.rids = {}  # type: reqid of the last frame of it

    def say(self, what):
        print("%s after %.1f s" % (what, time.monotonic() - self.t0),
              flush=True)

    def frames(self):
        while len(self.buf) >= 16:
            _, t, _, _, n, rid = struct.unpack(">HHHHII", self.buf[:16])
            if len(self.buf) < 16 + n:
                return
            p = self.buf[16:16 + n]
            self.buf = self.buf[16 + n:]
            yield t, rid, p

    def read(self, secs):
        """Frames arriving within secs; False once the peer closed."""
        end = time.monotonic() + secs
        while not self.closed:
            left = end - time.monotonic()
            if left <= 0:
                return True
            self.s.settimeout(left)
            try:
                b = self.s.recv(65536)
            except socket.timeout:
                return True
            except OSError:
                b = b""
            if not b:
                self.closed = True
                self.say("closed by peer")
                return False
            self.buf += b
            for t, rid, p in self.frames():
                self.got(t, rid, p)
        return False

    def got(self, t, rid, p):
        text = ""
        if t == ERROR and len(p) >= 10:
            err, _, n = struct.unpack(">IIH", p[:10])
            text = " errno %d: %s" % (err, p[10:10 + n].decode("utf-8",
                                                               "replace"))
        print("got %04x len %d%s" % (t, len(p), text), flush=True)
        self.rids[t] = rid
        if t == HELLO and len(p) >= 8:
            self.asked_auth = bool(struct.unpack(">I", p[4:8])[0] &
                                   FEAT_AUTH)

    def send(self, data):
        if self.closed:
            return
        try:
            self.s.sendall(data)
        except OSError:
            self.closed = True
            self.say("closed by peer")

    def step(self, st):
        key, _, arg = st.partition("=")
        if key == "hello":
            self.send(hello())
        elif key == "hello-auth":
            self.send(hello(auth=True))
        elif key == "hello-auth-clear":
            self.send(hello(auth=True, seal=False))
        elif key == "hello-name":
            self.send(hello(name=bytes.fromhex(arg)))
        elif key == "send":
            t, _, hx = arg.partition(":")
            self.send(frame(int(t, 16), 9, bytes.fromhex(hx)))
        elif key == "raw":
            self.send(bytes.fromhex(arg))
        elif key == "trickle":
            # a header announcing 1000 bytes, then a byte a second
            data = frame(KEEPALIVE, 9, bytes(1000))
            for i in range(int(arg)):
                self.send(data[i:i + 1])
                if not self.read(1.0):
                    return
        elif key == "wait":
            self.read(float(arg))
        elif key == "close":
            self.s.close()
            self.closed = True
        elif key in ("reply-hello", "reply-hello-clear"):
            name = bytes.fromhex(arg) if arg else b"fake"
            feat = FEAT_AUTH if self.asked_auth else 0
            if self.asked_auth and key == "reply-hello":
                feat |= FEAT_SEAL
            p = struct.pack(">HHI", 1, 0, feat) + bytes([len(name)]) + name
            if self.asked_auth:
                p += os.urandom(32)
            self.send(frame(HELLO_REPLY, self.rids.get(HELLO, 0), p))
        elif key == "status":
            seq, _, st_hex = arg.partition(":")
            self.send(status(int(seq), int(st_hex, 16)))
        elif key == "reply-auth":
            self.send(frame(AUTH_REPLY, self.rids.get(AUTH, 0),
                            os.urandom(32)))
        else:
            sys.exit("vtpeer: unknown step '%s'" % st)


def wait_for(peer, ftype, secs=5.0):
    """Read until a frame of ftype arrived (a server's steps need one)."""
    end = time.monotonic() + secs
    while ftype not in peer.rids and time.monotonic() < end:
        if not peer.read(0.05):
            return False
    return ftype in peer.rids


def run(peer, steps, server):
    for st in steps:
        if peer.closed:
            break
        # a server answers: wait for what it answers first
        if server and st.startswith("reply-hello"):
            wait_for(peer, HELLO)
        elif server and st == "reply-auth":
            wait_for(peer, AUTH)
        peer.step(st)
    if not peer.closed:
        peer.say("open")
        peer.s.close()


def addr(spec):
    host, _, port = spec.rpartition(":")
    return host.strip("[]"), int(port)


def main(argv):
    if len(argv) < 3 or argv[1] not in ("client", "server"):
        print(__doc__, file=sys.stderr)
        return 2
    steps = argv[3:]
    if argv[1] == "client":
        s = socket.create_connection(addr(argv[2]), timeout=5)
        print("local %s:%d" % s.getsockname()[:2], flush=True)
        run(Peer(s), steps, False)
        return 0
    once = "--once" in steps
    ready = None
    if "--ready" in steps:
        i = steps.index("--ready")
        ready = steps[i + 1]
        del steps[i:i + 2]
    steps = [s for s in steps if s != "--once"]
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(addr(argv[2]))
    ls.listen(8)
    if ready:
        open(ready, "w").close()
    while True:
        c, _ = ls.accept()
        print("accepted", flush=True)
        run(Peer(c), steps, True)
        if once:
            return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
