# SPDX-License-Identifier: GPL-2.0
"""rtspc - a small SAT>IP client for tests/satip/clients.sh: what real
clients do, measured from the outside, and what no client should do.

    python3 tests/satip/rtspc.py HOST:PORT COMMAND ARGS...

play QUERY SECONDS OUT [--tcp] [--status FILE] [--describe SEC]
     [--change SEC:QUERY]... [--vanish] [--src ADDR]
    OPTIONS, SETUP rtsp://HOST:PORT/?QUERY (RTP/AVP;unicast;client_port=
    on two UDP sockets it binds, or RTP/AVP/TCP;interleaved=0-1 with
    --tcp), PLAY, then records the TS of the RTP packets for SECONDS into
    OUT.0 (OUT.1, OUT.2... after each --change, a PLAY
    rtsp://.../stream=N?QUERY at SEC seconds, addpids=/delpids=/pids=),
    reads RTCP, sends DESCRIBE rtsp://.../stream=N at SEC seconds, and
    ends with TEARDOWN (--vanish: with nothing, the process just exits).
    Writes KEY=VALUE lines to the status file (stdout by default): setup,
    session, stream, play, change1..., describe, fmtp (DESCRIBE's a=fmtp),
    ses1 (the string of the last RTCP APP SES1), rtcp (compound packets),
    rtp (datagrams), rtp_empty, seq_gaps (RTP sequence numbers missing),
    rtp_gap_ms (the longest time between two RTP datagrams),
    ts (TS packets), bad_rtp (not V2/PT 33 or a payload not n x 188 bytes),
    teardown.  Exit 0 if every request got 200 and RTP came.

setup QUERY
    SETUP (UDP) and print the status line and the headers of the reply;
    TEARDOWN after a 200.  Exit 0 whatever the status.

status FMTP_OR_SES1_STRING
    print "lock level quality" from its tuner= field.

expect CODE METHOD URL [HEADER]...
    one request on a new connection; exit 0 if the reply's status is CODE.

fuzz COUNT SEED [--src ADDR]
    COUNT malformed requests (garbage, truncated, oversized, bad
    Transport, bad query, bad Session, odd methods and versions, binary
    '$' frames), each on its own connection: each must get a status line
    or a close within 3 s.  Prints "answered N closed N hung N bad N" and
    the statuses seen; exit 0 if none hung and every reply was a status
    line.

loris SECONDS [--src ADDR]
    send the start of a request, one byte a second, never its end; print
    "closed after S s" when the server closes the connection (exit 0), or
    "open after SECONDS s" (exit 1).
"""
import os
import random
import select
import socket
import struct
import sys
import time

TS = 188


def die(msg):
    sys.stderr.write("rtspc: %s\n" % msg)
    sys.exit(2)


class Rtsp:
    """One RTSP connection; '$' frames met while waiting for a reply go to
    on_frame(channel, payload)."""

    def __init__(self, server, src=None, on_frame=None):
        host, port = server.rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.base = "rtsp://%s:%d/" % (host, self.port)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if src:
            self.sock.bind((src, 0))
        self.sock.settimeout(5)
        self.sock.connect((host, self.port))
        self.cseq = 0
        self.session = None
        self.buf = b""
        self.on_frame = on_frame
        self.closed = False

    def send(self, method, url, headers=()):
        self.cseq += 1
        lines = ["%s %s RTSP/1.0" % (method, url), "CSeq: %d" % self.cseq]
        if self.session:
            lines.append("Session: %s" % self.session)
        lines += list(headers)
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())

    def _fill(self, timeout):
        r, _, _ = select.select([self.sock], [], [], timeout)
        if not r:
            return False
        try:
            d = self.sock.recv(65536)
        except (ConnectionResetError, socket.timeout):
            d = b""
        if not d:
            self.closed = True
            return False
        self.buf += d
        return True

    def poll_frames(self):
        """Take the whole '$' frames at the start of the buffer."""
        while len(self.buf) >= 4 and self.buf[0:1] == b"$":
            ch, n = self.buf[1], struct.unpack(">H", self.buf[2:4])[0]
            if len(self.buf) < 4 + n:
                return
            if self.on_frame:
                self.on_frame(ch, self.buf[4:4 + n])
            self.buf = self.buf[4 + n:]

    def reply(self, timeout=5.0):
        """(code, {header: value}, body); code 0 on a timeout or close."""
        end = time.monotonic() + timeout
        while True:
            self.poll_frames()
            if self.buf and self.buf[0:1] != b"$":
                i = self.buf.find(b"\r\n\r\n")
                if i >= 0:
                    head = self.buf[:i].decode("latin-1").split("\r\n")
                    hdr = {}
                    for line in head[1:]:
                        k, _, v = line.partition(":")
                        hdr[k.strip().lower()] = v.strip()
                    n = int(hdr.get("content-length", "0") or 0)
                    if len(self.buf) >= i + 4 + n:
                        body = self.buf[i + 4:i + 4 + n]
                        self.buf = self.buf[i + 4 + n:]
                        parts = head[0].split(" ", 2)
                        try:
                            code = int(parts[1])
                        except (IndexError, ValueError):
                            code = -1
                        if "session" in hdr:
                            self.session = hdr["session"].split(";")[0]
                        return code, hdr, body
            left = end - time.monotonic()
            if left <= 0 or self.closed or not self._fill(left):
                return 0, {}, b""

    def request(self, method, url, headers=(), timeout=5.0):
        self.send(method, url, headers)
        return self.reply(timeout)

    def close(self):
        self.sock.close()


def udp_pair(src="127.0.0.1"):
    """Two UDP sockets on an even port and the next."""
    for _ in range(100):
        a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        a.bind((src, 0))
        p = a.getsockname()[1]
        if p % 2 == 0 and p < 65535:
            b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            try:
                b.bind((src, p + 1))
            except OSError:
                b.close()
                a.close()
                continue
            for s in (a, b):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
            return a, b, p
        a.close()
    die("no even UDP port pair")


def ses1_strings(pkt):
    """The strings of the APP SES1 packets of an RTCP compound packet."""
    out = []
    i = 0
    while i + 4 <= len(pkt):
        b0, pt, words = pkt[i], pkt[i + 1], struct.unpack(">H", pkt[i + 2:i + 4])[0]
        end = i + 4 + 4 * words
        if b0 >> 6 != 2 or end > len(pkt):
            break
        if pt == 204 and pkt[i + 8:i + 12] == b"SES1" and end >= i + 16:
            n = struct.unpack(">H", pkt[i + 14:i + 16])[0]
            out.append(pkt[i + 16:i + 16 + n].decode("latin-1"))
        i = end
    return out


class Recorder:
    def __init__(self, out):
        self.out = out
        self.phase = 0
        self.f = open("%s.0" % out, "wb")
        self.rtp = self.empty = self.gaps = self.ts = self.bad = 0
        self.rtcp = 0
        self.seq = None
        self.ses1 = ""
        self.last_t = None
        self.gap = 0.0		# the longest time without an RTP datagram

    def next_phase(self):
        self.f.close()
        self.phase += 1
        self.f = open("%s.%d" % (self.out, self.phase), "wb")

    def rtp_packet(self, d):
        if len(d) < 12 or d[0] >> 6 != 2 or d[1] & 0x7f != 33:
            self.bad += 1
            return
        cc = d[0] & 0x0f
        off = 12 + 4 * cc
        if d[0] & 0x10 and len(d) >= off + 4:
            off += 4 + 4 * struct.unpack(">H", d[off + 2:off + 4])[0]
        now = time.monotonic()
        if self.last_t is not None:
            self.gap = max(self.gap, now - self.last_t)
        self.last_t = now
        seq = struct.unpack(">H", d[2:4])[0]
        if self.seq is not None:
            self.gaps += (seq - self.seq - 1) & 0xffff
        self.seq = seq
        self.rtp += 1
        pay = d[off:]
        if d[0] & 0x20 and pay:		# padding
            pay = pay[:-pay[-1]]
        if not pay:
            self.empty += 1
        elif len(pay) % TS:
            self.bad += 1
        else:
            self.f.write(pay)
            self.ts += len(pay) // TS

    def rtcp_packet(self, d):
        self.rtcp += 1
        s = ses1_strings(d)
        if s:
            self.ses1 = s[-1]

    def frame(self, ch, d):
        if ch == 0:
            self.rtp_packet(d)
        elif ch == 1:
            self.rtcp_packet(d)


def opt(args, name, default=None, many=False):
    vals = []
    while name in args:
        i = args.index(name)
        vals.append(args[i + 1])
        del args[i:i + 2]
    if many:
        return vals
    return vals[-1] if vals else default


def flag(args, name):
    if name in args:
        args.remove(name)
        return True
    return False


def cmd_play(server, args):
    tcp = flag(args, "--tcp")
    vanish = flag(args, "--vanish")
    status = opt(args, "--status")
    describe_at = opt(args, "--describe")
    src = opt(args, "--src", "127.0.0.1")
    changes = []
    for c in opt(args, "--change", many=True):
        t, _, q = c.partition(":")
        changes.append((float(t), q))
    changes.sort()
    if len(args) != 3:
        die("play QUERY SECONDS OUT [options]")
    query, secs, out = args[0], float(args[1]), args[2]
    st = {}
    rec = Recorder(out)
    r = Rtsp(server, src, rec.frame)
    ok = True

    code, _, _ = r.request("OPTIONS", r.base)
    st["options"] = code
    if tcp:
        tr = "RTP/AVP/TCP;unicast;interleaved=0-1"
        rtp = rtcp = None
    else:
        rtp, rtcp, port = udp_pair(src)
        tr = "RTP/AVP;unicast;client_port=%d-%d" % (port, port + 1)
    code, hdr, _ = r.request("SETUP", r.base + "?" + query, ["Transport: " + tr])
    st["setup"] = code
    st["session"] = r.session or ""
    stream = hdr.get("com.ses.streamid", "")
    st["stream"] = stream
    if code != 200:
        ok = False
    else:
        surl = "%sstream=%s" % (r.base, stream)
        code, _, _ = r.request("PLAY", surl)
        st["play"] = code
        ok = ok and code == 200
        start = time.monotonic()
        end = start + secs
        socks = [r.sock] + ([rtp, rtcp] if rtp else [])
        nchange = 0
        while True:
            now = time.monotonic()
            if now >= end:
                break
            if describe_at is not None and now - start >= float(describe_at):
                describe_at = None
                code, _, body = r.request("DESCRIBE", surl,
                                          ["Accept: application/sdp"])
                st["describe"] = code
                ok = ok and code == 200
                for line in body.decode("latin-1").split("\r\n"):
                    if line.startswith("a=fmtp:"):
                        st["fmtp"] = line.split(" ", 1)[1]
            if changes and now - start >= changes[0][0]:
                _, q = changes.pop(0)
                nchange += 1
                code, _, _ = r.request("PLAY", surl + "?" + q)
                st["change%d" % nchange] = code
                ok = ok and code == 200
                # what was sent before the reply belongs to the old set
                while rtp and select.select([rtp], [], [], 0)[0]:
                    rec.rtp_packet(rtp.recv(65536))
                rec.next_phase()
            rd, _, _ = select.select(socks, [], [], min(0.05, end - now))
            for s in rd:
                if s is r.sock:
                    if not r._fill(0):
                        end = 0	# closed by the server
                    r.poll_frames()
                elif s is rtp:
                    rec.rtp_packet(s.recv(65536))
                else:
                    rec.rtcp_packet(s.recv(65536))
        if not vanish:
            code, _, _ = r.request("TEARDOWN", surl)
            st["teardown"] = code
            ok = ok and code == 200
    st.update(rtp=rec.rtp, rtp_empty=rec.empty, seq_gaps=rec.gaps, ts=rec.ts,
              bad_rtp=rec.bad, rtp_gap_ms=int(rec.gap * 1000), rtcp=rec.rtcp, ses1=rec.ses1,
              phases=rec.phase + 1)
    rec.f.close()
    text = "".join("%s=%s\n" % kv for kv in st.items())
    if status:
        with open(status, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if vanish:
        os._exit(0 if ok and rec.ts else 1)	# no FIN before exit
    r.close()
    return 0 if ok and rec.ts else 1


def cmd_setup(server, args):
    if len(args) != 1:
        die("setup QUERY")
    r = Rtsp(server)
    rtp, rtcp, port = udp_pair()
    r.send("SETUP", r.base + "?" + args[0],
           ["Transport: RTP/AVP;unicast;client_port=%d-%d" % (port, port + 1)])
    code, hdr, _ = r.reply()
    print("status %d" % code)
    for k, v in sorted(hdr.items()):
        print("%s: %s" % (k, v))
    if code == 200:
        c, _, _ = r.request("TEARDOWN", "%sstream=%s" %
                            (r.base, hdr.get("com.ses.streamid", "")))
        print("teardown %d" % c)
    r.close()
    return 0


def cmd_status(args):
    """lock level quality of a "...;tuner=fe,level,lock,quality,...;..." """
    for part in args[0].split(";"):
        if part.startswith("tuner="):
            f = part[6:].split(",")
            print(f[2], f[1], f[3])
            return 0
    return 1


def cmd_expect(server, args):
    want, method, url = int(args[0]), args[1], args[2]
    r = Rtsp(server)
    url = url.replace("BASE/", r.base)
    code, hdr, _ = r.request(method, url, args[3:])
    r.close()
    print("%s %s: %d %s" % (method, url, code,
                            " ".join("%s=%s" % kv for kv in hdr.items())))
    return 0 if code == want else 1


def malformed(rnd, base):
    """(bytes, whole): one malformed request; whole: it ends like one."""
    good = ("SETUP %s?src=1&freq=11362&pol=h&msys=dvbs2&mtype=8psk&sr=22000"
            "&fec=23&pids=0 RTSP/1.0\r\nCSeq: 1\r\nTransport: RTP/AVP;"
            "unicast;client_port=40000-40001\r\n\r\n" % base).encode()
    k = rnd.randrange(12)
    if k == 0:		# random bytes
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 3000))), False
    if k == 1:		# truncated
        return good[:rnd.randrange(1, len(good) - 1)], False
    if k == 2:		# oversized: a request line or a header beyond 8 KiB
        big = "x" * rnd.choice([8200, 9000, 20000, 70000])
        if rnd.randrange(2):
            return ("OPTIONS %s%s RTSP/1.0\r\nCSeq: 2\r\n\r\n" % (base, big)).encode(), True
        return ("OPTIONS %s RTSP/1.0\r\nCSeq: 2\r\nX-Big: %s\r\n\r\n" % (base, big)).encode(), True
    if k == 3:		# bad Transport
        t = rnd.choice(["", "RTP/AVP", "RTP/AVP;unicast;client_port=",
                        "RTP/AVP;unicast;client_port=99999-100000",
                        "RTP/AVP;unicast;client_port=-1", "RAW/RAW/UDP;unicast",
                        "RTP/AVP;multicast;destination=1.2.3.4;port=5-6",
                        "RTP/AVP/TCP;interleaved=300-301", "\x01\x02;;;;=",
                        "RTP/AVP;unicast;client_port=" + "9" * 300])
        return ("SETUP %s?freq=506&msys=dvbt&bw=8&pids=0 RTSP/1.0\r\nCSeq: 3\r\n"
                "Transport: %s\r\n\r\n" % (base, t)).encode(), True
    if k == 4:		# bad query
        q = rnd.choice(["freq=abc", "freq=11362&pol=x&msys=dvbs2", "msys=dvbs9&freq=1",
                        "freq=506&msys=dvbt&bw=99", "pids=0,99999", "pids=-1",
                        "pids=" + ",".join(str(i) for i in range(400)),
                        "addpids=1&pids=2", "freq=11362&sr=-5&msys=dvbs",
                        "freq=" + "1" * 200, "src=0&freq=11362", "src=999&freq=11362",
                        "fe=0&freq=506&msys=dvbt", "fe=99&freq=506&msys=dvbt",
                        "freq=11362&msys=dvbs2&fec=77&mtype=zz", "%%%%&&==&",
                        "freq=506&msys=dvbt&plp=-3&t2id=x",
                        "freq=1e9&msys=dvbc&sr=6900&mtype=1024qam"])
        m = rnd.choice(["SETUP", "PLAY"])
        return ("%s %s?%s RTSP/1.0\r\nCSeq: 4\r\nTransport: RTP/AVP;unicast;"
                "client_port=40002-40003\r\n\r\n" % (m, base, q)).encode(), True
    if k == 5:		# a Session that does not exist
        m = rnd.choice(["PLAY", "TEARDOWN", "OPTIONS", "SETUP", "DESCRIBE"])
        sid = rnd.choice(["1", "0", "99999999999999999999", "abc", "-1",
                          "1234567890", "x" * 100])
        return ("%s %sstream=%d RTSP/1.0\r\nCSeq: 5\r\nSession: %s\r\n"
                "Transport: RTP/AVP;unicast;client_port=40004-40005\r\n\r\n"
                % (m, base, rnd.randrange(-1, 70000), sid)).encode(), True
    if k == 6:		# odd methods, versions, URIs
        line = rnd.choice(["FOO %s RTSP/1.0" % base, "OPTIONS %s RTSP/2.0" % base,
                           "OPTIONS %s HTTP/9.9" % base, "OPTIONS * RTSP/1.0",
                           "SETUP rtsp:// RTSP/1.0", "SETUP / RTSP/1.0",
                           "PLAY %sstream=abc RTSP/1.0" % base,
                           "DESCRIBE rtsp://[::1 RTSP/1.0", "GET /../../etc/passwd HTTP/1.1",
                           "GET /?freq=abc HTTP/1.0", "GET /desc.xml?x HTTP/1.1",
                           "POST / HTTP/1.1", "GET / HTTP/1.1", "OPTIONS",
                           "  RTSP/1.0", "RTSP/1.0 200 OK", "\x00\x00\x00"])
        return (line + "\r\nCSeq: 6\r\n\r\n").encode(), True
    if k == 7:		# CSeq and Content-Length oddities
        h = rnd.choice(["CSeq: -1", "CSeq: 99999999999999999999999", "CSeq: x",
                        "CSeq: 1\r\nCSeq: 2", "CSeq: 1\r\nContent-Length: -5",
                        "CSeq: 1\r\nContent-Length: 99999999999",
                        "CSeq: 1\r\nContent-Length: 100000",
                        "CSeq: 1\r\nContent-Length: 10", "no colon here",
                        ":" * 50, "CSeq:" + " " * 5000 + "1"])
        # a body announced and not sent is a truncated request
        return ("OPTIONS %s RTSP/1.0\r\n%s\r\n\r\n" % (base, h)).encode(), \
            "Content-Length: -" in h or "Content-Length" not in h
    if k == 8:		# '$' frames with garbage, then a request
        n = rnd.randrange(0, 70000)
        fr = b"$" + bytes([rnd.randrange(256)]) + struct.pack(">H", n & 0xffff)
        fr += bytes(rnd.randrange(256) for _ in range(min(n, 2000)))
        return fr + ("OPTIONS %s RTSP/1.0\r\nCSeq: 8\r\n\r\n" % base).encode(), False
    if k == 9:		# lines ended by LF alone or by CR alone
        eol = rnd.choice(["\n", "\r"])
        return ("OPTIONS %s RTSP/1.0%sCSeq: 9%s%s" % (base, eol, eol, eol)).encode(), False
    if k == 10:		# many headers
        return ("OPTIONS %s RTSP/1.0\r\nCSeq: 10\r\n%s\r\n" %
                (base, "X: y\r\n" * rnd.randrange(100, 3000))).encode(), True
    # bit flips in a good request
    b = bytearray(good)
    for _ in range(rnd.randrange(1, 8)):
        b[rnd.randrange(len(b) - 4)] ^= 1 << rnd.randrange(8)
    return bytes(b), False


def cmd_fuzz(server, args):
    src = opt(args, "--src")
    count, seed = int(args[0]), int(args[1])
    rnd = random.Random(seed)
    host, port = server.rsplit(":", 1)
    base = "rtsp://%s:%s/" % (host, port)
    answered = closed = hung = bad = 0
    codes = {}
    for i in range(count):
        data, whole = malformed(rnd, base)
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if src:
            s.bind((src, 0))
        s.settimeout(3)
        try:
            s.connect((host, int(port)))
        except OSError as e:
            print("connect %d: %s" % (i, e))
            hung += 1
            continue
        try:
            s.sendall(data)
            if not whole:
                s.shutdown(socket.SHUT_WR)	# the peer goes: a close at least
        except OSError:
            pass	# closed already while sending: a close
        got = b""
        end = time.monotonic() + 3
        eof = False
        while time.monotonic() < end and b"\r\n" not in got:
            r, _, _ = select.select([s], [], [], end - time.monotonic())
            if not r:
                break
            try:
                d = s.recv(4096)
            except OSError:
                d = b""
            if not d:
                eof = True
                break
            got += d
        s.close()
        if got:
            line = got.split(b"\r\n")[0].decode("latin-1")
            f = line.split(" ")
            if len(f) >= 2 and f[0] in ("RTSP/1.0", "HTTP/1.0", "HTTP/1.1") and f[1].isdigit():
                answered += 1
                codes[f[1]] = codes.get(f[1], 0) + 1
                if f[1] == "200" and not data.startswith(b"OPTIONS"):
                    print("request %d: 200: %r" % (i, data[:160]))
            else:
                bad += 1
                print("request %d: reply %r" % (i, got[:80]))
        elif eof:
            closed += 1
        else:
            hung += 1
            print("request %d: no answer, no close within 3 s: %r" % (i, data[:80]))
    print("answered %d closed %d hung %d bad %d" % (answered, closed, hung, bad))
    print("statuses " + " ".join("%s:%d" % kv for kv in sorted(codes.items())))
    return 0 if not hung and not bad else 1


def cmd_loris(server, args):
    src = opt(args, "--src")
    secs = float(args[0])
    host, port = server.rsplit(":", 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if src:
        s.bind((src, 0))
    s.connect((host, int(port)))
    start = time.monotonic()
    data = ("OPTIONS rtsp://%s:%s/ RTSP/1.0\r\nCSeq: 1\r\nUser-Agent: "
            % (host, port)).encode() + b"a" * 1000
    i = 0
    while time.monotonic() - start < secs:
        try:
            s.send(data[i:i + 1])
        except OSError:
            break
        i += 1
        r, _, _ = select.select([s], [], [], 1.0)
        if r:
            try:
                d = s.recv(4096)
            except OSError:
                d = b""
            if not d:
                break
    t = time.monotonic() - start
    if t < secs:
        print("closed after %.1f s (%d bytes sent)" % (t, i))
        return 0
    print("open after %.1f s" % t)
    return 1


def main():
    if len(sys.argv) < 3:
        die(__doc__)
    server, cmd, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if cmd == "play":
        return cmd_play(server, args)
    if cmd == "setup":
        return cmd_setup(server, args)
    if cmd == "status":
        return cmd_status(args)
    if cmd == "expect":
        return cmd_expect(server, args)
    if cmd == "fuzz":
        return cmd_fuzz(server, args)
    if cmd == "loris":
        return cmd_loris(server, args)
    die("unknown command " + cmd)


if __name__ == "__main__":
    sys.exit(main())
