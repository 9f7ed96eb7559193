#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""quirky - a SAT>IP server that behaves like the quirkiest real ones (an
AVM FRITZ!Box Cable), for the tests of vtunerc's SAT>IP client.

    python3 tests/satip/quirky.py --upstream HOST:PORT [OPTION]...

It has no tuner: its TS comes from vtunerd's SAT>IP HTTP streaming
(`vtunerd --sim --satip HOST:PORT`).  For each SETUP or PLAY that tunes
or changes the PIDs it (re)opens

    GET http://UPSTREAM/?<the tuning attributes of the query>&pids=<the PIDs>

and repackages that TS into RTP: 7 TS packets a datagram (fewer when no
more came within 30 ms), payload type 33, its own sequence numbers, SSRC
and 90 kHz timestamps, sent from its own UDP port pair to the client's
client_port (at the address of the RTSP connection), or interleaved in
the RTSP connection ('$', the client's channels) for RTP/AVP/TCP.
Standard library only (Python 3.11, Debian 12).
"""

import argparse
import functools
import http.server
import os
import random
import select
import signal
import socket
import socketserver
import struct
import sys
import threading
import time
import urllib.parse
import uuid as uuidlib

TS = 188
UDP_SEGMENT = 103	# linux/udp.h
FLUSH = 0.03		# a short datagram when no more came within this
HOLD_MAX = 0.5		# a datagram held for --drop/--reorder: sent after this
LOCK_AGE = 1.0		# lock: TS came from upstream within this
LEVEL = 192		# what a locked tuner reports (--level-zero: 0)
QUALITY = 12
MAX_REQ = 8192
SSDP_GROUP = "239.255.255.250"
DEVICE_TYPE = "urn:ses-com:device:SatIPServer:1"

EPILOG = """\
Quirks (each off unless given; --avm turns on all those marked *):
  --no-addpids *      a query with addpids= or delpids= is answered 400
                      (AVM has neither: a client must send the whole list
                      as pids=)
  --no-pids-all *     pids=all is answered 400 (--pids-all-code 414: 414)
  --pids-in-setup *   a SETUP whose query has no pids= is answered 400
                      (AVM wants the PIDs in SETUP)
  --no-rtcp *         no RTCP at all; the signal is only in DESCRIBE's SDP
                      (a=fmtp:33 ver=1.0/1.1/1.2;tuner=FE,LEVEL,LOCK,QUALITY,
                      ...;pids=..., the version after msys: 1.2 for DVB-C).
                      Without it: RTCP SR + SDES (CNAME quirky) + APP SES1
                      (the same string) every 200 ms to client_port+1, or on
                      the second interleaved channel
  --timeout SEC       Session: ID;timeout=SEC, and a session no request
                      named (Session: ID) for SEC seconds is expired: its
                      RTP stops, its tuner is freed, later requests naming
                      it get 454.  Default 60, * 30
  --level-zero *      level 0 while locked (lock 1, quality 12); without it
                      a locked tuner reports level 192
  --no-fe *           a query with fe= is answered 400
  --teardown-first *  a SETUP that names an active session (Session:), or
                      comes on a connection that set up a session still
                      active, with another tuning is answered 455 Method
                      Not Valid in This State (--teardown-first-code 503:
                      503 Service Unavailable): the client must TEARDOWN
                      first.  The same tuning (a PID change) is accepted
  --desc *            GET /desc.xml (also /satipdesc.xml, AVM's name) on
                      --http-port: a UPnP description, manufacturer
                      "AVM Berlin", modelName "FRITZ!Box 6591 Cable"
                      (--manufacturer, --model to pretend another), friendly
                      name --name, X_SATIPCAP --caps (DVBC-N, N = --tuners),
                      deviceType urn:ses-com:device:SatIPServer:1; the reply
                      carries X-SATIP-RTSP-Port
  --ssdp              (not in --avm: it binds UDP port 1900) answer SSDP
                      M-SEARCH (ST ssdp:all, upnp:rootdevice, uuid:U, the
                      device type) on 239.255.255.250:1900 with LOCATION
                      http://ADDR:HTTP_PORT/desc.xml, as vtunerd does, and
                      send three NOTIFY ssdp:alive at start; implies --desc.
                      On the loopback it needs a route:
                      ip route add 239.255.255.250/32 dev lo
  --drop N/M          drop N of every M RTP datagrams of a UDP session, the
                      N picked in each block of M by a random generator
                      seeded with --seed (the same every run).  A picked
                      datagram is held and only counted dropped when its
                      successor is sent: every drop is a gap in the
                      sequence numbers a receiver sees (at a stop, a change,
                      or after 0.5 s without a successor, it is sent
                      instead).  The first datagram of a session is never
                      dropped nor swapped
  --reorder N/M       likewise, send N of every M datagrams after their
                      successor (a swap).  Loss and reordering apply to RTP
                      over UDP only
  --packets N         TS packets in an RTP datagram (default 7)
  --gso N             RTP over UDP N datagrams a send, joined by the
                      kernel (UDP_SEGMENT, as vtunerd sends): a receiver
                      with UDP_GRO reads them joined (default 1: each
                      datagram alone)
  --kill-after SEC    exit abruptly after SEC seconds: no TEARDOWN, no
                      byebye, the sockets just closed (exit status 0), for
                      restart tests
  SIGUSR1             expires every session at once (a server-side session
                      loss): RTP stops, the next request naming one gets 454

Standard otherwise: OPTIONS (Public:, a keepalive with Session:), SETUP
rtsp://HOST:PORT/?QUERY with Transport RTP/AVP;unicast;client_port=A-B or
RTP/AVP/TCP;interleaved=A-B (multicast: 461) -> Session:,
com.ses.streamID:, Transport: ...;server_port=C-D or interleaved; PLAY
rtsp://HOST:PORT/stream=N[?QUERY] (a tuning, pids= replacing the PID set,
addpids=/delpids= unless refused); DESCRIBE (Session:, stream=N, or all;
404 when none); GET_PARAMETER (a keepalive); TEARDOWN; CSeq echoed.  A
query with tuning attributes replaces the session's tuning.  RTP starts at
PLAY; nothing is sent while no TS comes (no empty RTP packets).  An
interleaved session also ends with its connection; a UDP one outlives it.
--tuners tuners: sessions on the same tuning share one, another tuning
takes a free one, none left: 503 No-More: frontends; fe=N (unless --no-fe)
asks for tuner N (404 if none).  Lock: TS came from upstream in the last
second.  A SETUP without PIDs opens the upstream with pids=0 and relays
nothing (the tuner is tuned, the lock known).  What the upstream answers
other than 200 (400 with Check-Syntax:, 404, 503...) is the answer.

Output: "rtsp_port=N" (and "http_port=N" with --desc) on standard output
when listening; -v: one line per request on standard error.
--stats FILE: KEY=VALUE lines, rewritten (atomically) every second, after
each request and at exit: datagrams_sent (RTP, UDP and interleaved),
interleaved, ts_sent, dropped (datagrams never sent), dropped_ts (TS
packets in them), reordered (datagrams sent after their successor),
rtcp_sent, sessions (set up in all), active, setups, plays, teardowns,
describes, options, get_parameters, expired (sessions --timeout ended),
lost (sessions SIGUSR1 ended), closed (interleaved sessions whose
connection closed), refused (requests answered 4xx/5xx because of a quirk)
and refused_addpids, refused_pids_all, refused_no_pids, refused_fe,
refused_teardown_first, errors (other 4xx/5xx answers), upstream_opens,
upstream_errors, killed (1 after --kill-after), last_query (the query of
the last request that had one, as sent).

A receiver such as tests/satip/rtspc.py sees a dropped datagram as one
missing sequence number and a swapped pair as a step back of one, which
its seq_gaps (the sum of (seq - previous - 1) mod 65536) counts as 65536:
there, seq_gaps = dropped + 65536 x reordered when it read every datagram
sent.

Exit status: 0 on SIGTERM, SIGINT or --kill-after; 2 usage error.
"""

CFG = None


def log(msg):
    if CFG.verbose:
        sys.stderr.write("quirky: %s\n" % msg)
        sys.stderr.flush()


# ---- statistics ----------------------------------------------------------------

class Stats:
    KEYS = ("datagrams_sent", "interleaved", "ts_sent", "dropped", "dropped_ts",
            "reordered", "rtcp_sent", "sessions", "active", "setups", "plays",
            "teardowns", "describes", "options", "get_parameters", "expired",
            "lost", "closed", "refused", "refused_addpids", "refused_pids_all",
            "refused_no_pids", "refused_fe", "refused_teardown_first", "errors",
            "upstream_opens", "upstream_errors", "killed")

    def __init__(self):
        self.lock = threading.Lock()
        self.v = dict.fromkeys(self.KEYS, 0)
        self.last_query = ""
        self.wlock = threading.Lock()

    def add(self, key, n=1):
        with self.lock:
            self.v[key] += n

    def set(self, key, n):
        with self.lock:
            self.v[key] = n

    def query(self, q):
        with self.lock:
            self.last_query = q

    def text(self):
        with self.lock:
            return "".join("%s=%d\n" % kv for kv in self.v.items()) + \
                "last_query=%s\n" % self.last_query

    def write(self):
        if not CFG.stats:
            return
        with self.wlock:
            tmp = "%s.tmp%d" % (CFG.stats, os.getpid())
            try:
                with open(tmp, "w") as f:
                    f.write(self.text())
                os.replace(tmp, CFG.stats)
            except OSError as e:
                sys.stderr.write("quirky: %s: %s\n" % (CFG.stats, e))


STATS = Stats()


class Pattern:
    """N of every M datagram numbers, picked in each block of M by a
    generator seeded with (seed, kind, block): the same every run."""

    def __init__(self, spec, seed, kind):
        try:
            n, m = (int(x) for x in spec.split("/"))
        except ValueError:
            raise argparse.ArgumentTypeError("%s: not N/M" % spec)
        if m < 1 or n < 0 or n > m:
            raise argparse.ArgumentTypeError("%s: need 0 <= N <= M, M >= 1" % spec)
        self.n, self.m, self.seed, self.kind = n, m, seed, kind
        self.picked = functools.lru_cache(maxsize=64)(self.pick)

    def pick(self, block):
        rnd = random.Random("%d:%s:%d" % (self.seed, self.kind, block))
        return frozenset(rnd.sample(range(self.m), self.n))

    def __call__(self, k):
        return k % self.m in self.picked(k // self.m)


# ---- the query -------------------------------------------------------------------

class Bad(Exception):
    """A request answered with a status (and maybe headers)."""

    def __init__(self, code, headers=(), quirk=None):
        super().__init__(code)
        self.code, self.headers, self.quirk = code, list(headers), quirk


PID_KEYS = ("pids", "addpids", "delpids")


def parse_query(raw):
    """[(name, value, raw_pair)] of a query, names in lower case, values
    decoded; a repeated name is 400."""
    out, seen = [], set()
    for part in raw.split("&"):
        if not part:
            continue
        k, _, v = part.partition("=")
        k = urllib.parse.unquote(k).strip().lower()
        v = urllib.parse.unquote(v).strip()
        if k in seen:
            raise Bad(400, ["Check-Syntax: %s" % k])
        seen.add(k)
        if v:		# an empty value counts as absent
            out.append((k, v, part))
    return out


def pid_list(name, v):
    if v.lower() in ("all", "none"):
        return v.lower()
    pids = []
    for x in v.split(","):
        try:
            p = int(x)
        except ValueError:
            raise Bad(400, ["Check-Syntax: %s=%s" % (name, v)])
        if not 0 <= p <= 8191:
            raise Bad(400, ["Check-Syntax: %s=%s" % (name, v)])
        if p not in pids:
            pids.append(p)
    return pids


class Query:
    def __init__(self, raw):
        self.raw = raw
        attrs = parse_query(raw)
        self.tune = [(k, v, r) for k, v, r in attrs if k not in PID_KEYS and k != "fe"]
        d = {k: v for k, v, _ in attrs}
        self.fe = d.get("fe")
        self.pids = pid_list("pids", d["pids"]) if "pids" in d else None
        self.add = pid_list("addpids", d["addpids"]) if "addpids" in d else None
        self.dele = pid_list("delpids", d["delpids"]) if "delpids" in d else None
        self.has_pids_attr = "pids" in d
        if self.pids is not None and (self.add is not None or self.dele is not None):
            raise Bad(400, ["Check-Syntax: pids"])
        for name, lst in (("addpids", self.add), ("delpids", self.dele)):
            if isinstance(lst, str):
                raise Bad(400, ["Check-Syntax: %s" % name])
        if self.fe is not None:
            try:
                self.fe = int(self.fe)
                if self.fe < 1:
                    raise ValueError
            except ValueError:
                raise Bad(400, ["Check-Syntax: fe"])

    def quirks(self, method):
        """The quirks' refusals of this query."""
        if CFG.no_fe and self.fe is not None:
            raise Bad(400, ["Check-Syntax: fe"], "fe")
        if CFG.no_addpids and (self.add is not None or self.dele is not None):
            raise Bad(400, ["Check-Syntax: %s" % ("addpids" if self.add is not None
                                                  else "delpids")], "addpids")
        if CFG.no_pids_all and self.pids == "all":
            raise Bad(CFG.pids_all_code, ["Check-Syntax: pids=all"], "pids_all")
        if CFG.pids_in_setup and method == "SETUP" and not self.has_pids_attr:
            raise Bad(400, ["Check-Syntax: pids"], "no_pids")


def tune_key(tune):
    """What makes two tunings the same: names and values, freq as kHz."""
    d = {}
    for k, v, _ in tune:
        v = v.lower()
        if k == "freq":
            try:
                v = str(round(float(v) * 1000))
            except ValueError:
                pass
        d[k] = v
    d.setdefault("src", "1")
    return tuple(sorted(d.items()))


def apply_pids(old, q):
    if q.pids is not None:
        return [] if q.pids == "none" else q.pids
    if q.add is None and q.dele is None:
        return old
    cur = old
    if cur == "all":
        return cur
    cur = list(cur or [])
    for p in q.add or []:
        if p not in cur:
            cur.append(p)
    for p in q.dele or []:
        if p in cur:
            cur.remove(p)
    return cur


def pids_text(pids):
    if pids == "all":
        return "all"
    if not pids:
        return "none"
    return ",".join(str(p) for p in pids)


def milli(v):
    """freq as SAT>IP reports it: MHz, two decimals, three when needed."""
    try:
        khz = round(float(v) * 1000)
    except ValueError:
        return v
    s = "%d.%03d" % (khz // 1000, khz % 1000)
    return s[:-1] if s.endswith("0") else s


def fmtp(fe, level, lock, quality, tune, pids):
    d = {k: v for k, v, _ in tune}
    msys = d.get("msys", "").lower()
    g = d.get
    if "freq" in d:
        d["freq"] = milli(d["freq"])
    if msys in ("dvbt", "dvbt2"):
        head = "ver=1.1;tuner=%d,%d,%d,%d," % (fe, level, lock, quality)
        f = [g("freq", ""), g("bw", ""), msys, g("tmode", ""), g("mtype", ""),
             g("gi", ""), g("fec", ""), g("plp", ""), g("t2id", ""), g("sm", "")]
    elif msys in ("dvbc", "dvbc2"):
        head = "ver=1.2;tuner=%d,%d,%d,%d," % (fe, level, lock, quality)
        f = [g("freq", ""), g("bw", ""), msys, g("mtype", ""), g("sr", ""),
             g("c2tft", ""), g("ds", ""), g("plp", ""), g("specinv", "")]
    else:
        head = "ver=1.0;src=%s;tuner=%d,%d,%d,%d," % (g("src", "1"), fe, level,
                                                   lock, quality)
        f = [g("freq", ""), g("pol", ""), msys, g("mtype", ""), g("plts", ""),
             g("ro", ""), g("sr", ""), g("fec", "")]
    return head + ",".join(f) + ";pids=" + pids_text(pids)


# ---- the upstream: vtunerd's HTTP stream -------------------------------------------

def open_upstream(query, wait=2.0):
    """(status, socket or None, bytes after the head): GET /?query of the
    upstream; 503 (a tuner not yet free after a close) retried for wait s."""
    host, port = CFG.upstream
    end = time.monotonic() + wait
    while True:
        STATS.add("upstream_opens")
        s = None
        try:
            s = socket.create_connection((host, port), timeout=5)
            s.sendall(("GET /?%s HTTP/1.1\r\nHost: %s:%d\r\nUser-Agent: quirky\r\n"
                       "Connection: close\r\n\r\n" % (query, host, port)).encode())
            buf = b""
            while b"\r\n\r\n" not in buf and len(buf) < 16384:
                d = s.recv(4096)
                if not d:
                    break
                buf += d
            head, sep, rest = buf.partition(b"\r\n\r\n")
            line = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
            code = int(line[1]) if sep and len(line) > 1 and line[1].isdigit() else 502
            hdrs = [h for h in head.decode("latin-1").split("\r\n")[1:]
                    if h.lower().startswith(("check-syntax", "no-more", "out-of-range"))]
        except OSError as e:
            log("upstream %s:%d: %s" % (host, port, e))
            code, rest, hdrs = 503, b"", []
        if code == 200:
            s.settimeout(None)
            return code, s, rest, []
        if s:
            s.close()
        STATS.add("upstream_errors")
        if code == 503 and time.monotonic() < end:
            time.sleep(0.1)
            continue
        log("upstream GET /?%s: %d" % (query, code))
        return code, None, b"", hdrs


class Relay(threading.Thread):
    """One upstream stream of a session: TS in, datagrams out
    (session.out()); reopened when the upstream closes."""

    def __init__(self, sess, query, sock, rest, discard):
        super().__init__(daemon=True)
        self.sess, self.query, self.sock, self.buf = sess, query, sock, rest
        self.discard = discard
        self.stopping = False
        self.pending = b""
        self.pending_t = 0.0

    def stop(self):
        self.stopping = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        if self is not threading.current_thread():
            self.join(3)

    def flush(self):
        if self.pending:
            self.sess.out(self.pending)
            self.pending = b""
        self.sess.gso_flush()

    def take(self, data):
        self.sess.last_ts = time.monotonic()
        buf = self.buf + data
        i, n = 0, len(buf)
        good = []
        while n - i >= TS:
            if buf[i] != 0x47:		# lost sync: the next 0x47 twice 188 apart
                j = buf.find(b"\x47", i + 1)
                while j >= 0 and j + TS < n and buf[j + TS] != 0x47:
                    j = buf.find(b"\x47", j + 1)
                i = j if j >= 0 else n
                continue
            good.append(buf[i:i + TS])
            i += TS
        self.buf = buf[i:]
        if self.discard or not good:
            return
        if not self.pending:
            self.pending_t = time.monotonic()
        self.pending += b"".join(good)
        step = CFG.packets * TS
        while len(self.pending) >= step:
            self.sess.out(self.pending[:step])
            self.pending = self.pending[step:]
            self.pending_t = time.monotonic()
        self.sess.gso_flush()			# what this read brought

    def run(self):
        while not self.stopping:
            if self.buf:
                d, self.buf = self.buf, b""
                self.take(d)
            while not self.stopping:
                t = 0.2
                if self.pending:
                    t = max(0.0, self.pending_t + FLUSH - time.monotonic())
                try:
                    r, _, _ = select.select([self.sock], [], [], t)
                    d = self.sock.recv(1 << 16) if r else None
                except (OSError, ValueError):
                    d = b""
                if d == b"":
                    break
                if d:
                    self.take(d)
                if self.pending and time.monotonic() >= self.pending_t + FLUSH:
                    self.flush()
            self.flush()
            self.sock.close()
            if self.stopping:
                break
            log("session %s: upstream closed, reopening" % self.sess.id)
            time.sleep(0.5)
            while not self.stopping and self.sess.alive:
                code, sock, rest, _ = open_upstream(self.query)
                if code == 200:
                    self.sock, self.buf = sock, rest
                    break
                time.sleep(1)
            if not self.sess.alive:
                break


# ---- sessions --------------------------------------------------------------------

class Tuners:
    """--tuners tuners; a tuner serves the sessions of one tuning."""

    def __init__(self, n):
        self.key = [None] * n
        self.users = [set() for _ in range(n)]

    def get(self, sid, key, fe):
        if fe is not None:
            i = fe - 1
            if i >= len(self.key):
                raise Bad(404)
            if self.users[i] - {sid} and self.key[i] != key:
                raise Bad(503, ["No-More: frontends"])
        else:
            free = [i for i in range(len(self.key)) if not self.users[i] - {sid}]
            same = [i for i in range(len(self.key))
                    if self.key[i] == key and self.users[i] - {sid}]
            if same:
                i = same[0]
            elif free:
                i = free[0]
            else:
                raise Bad(503, ["No-More: frontends"])
        self.key[i] = key
        self.users[i].add(sid)
        return i + 1

    def put(self, sid, fe):
        if fe:
            self.users[fe - 1].discard(sid)


REG = threading.RLock()		# the session table, the tuners
SESSIONS = {}			# id -> Session
TUNERS = None
UDP_RTP = UDP_RTCP = None
NEXT_STREAM = [1]


class Session:
    def __init__(self, conn, tr):
        self.id = "%010d" % random.randrange(10 ** 9, 10 ** 10)
        self.stream = NEXT_STREAM[0]
        NEXT_STREAM[0] += 1
        self.conn = conn			# the connection that set it up
        self.addr = conn.peer[0]
        self.tr = tr				# ("udp", rtp_port, rtcp_port) or ("tcp", ch, ch)
        self.tune = []
        self.pids = None			# None: not given yet
        self.fe = 0
        self.relay = None
        self.alive = True
        self.playing = False
        self.last_seen = time.monotonic()
        self.last_ts = 0.0
        self.lock = threading.Lock()
        self.ssrc = random.getrandbits(32)
        self.seq = random.getrandbits(16)
        self.ts_off = random.getrandbits(32)
        self.k = 0				# datagrams made while playing
        self.held = None			# (packet, TS packets, "drop"/"reorder", t)
        self.packets = self.octets = 0
        self.next_rtcp = 0.0
        self.gso = []				# --gso: datagrams not sent yet

    # -- RTP out --
    def out(self, payload):
        n = len(payload) // TS
        with self.lock:
            if not self.alive or not self.playing:
                return
            ts90 = (int(time.monotonic() * 90000) + self.ts_off) & 0xffffffff
            pkt = struct.pack("!BBHII", 0x80, 33, self.seq, ts90, self.ssrc) + payload
            self.seq = (self.seq + 1) & 0xffff
            k = self.k
            self.k += 1
            if self.tr[0] == "tcp":
                self.send(pkt, n)
                return
            held, self.held = self.held, None
            if held and held[2] == "drop":
                STATS.add("dropped")
                STATS.add("dropped_ts", held[1])
            elif held:
                self.send(pkt, n)
                self.send(held[0], held[1])
                STATS.add("reordered")
                return
            if k and CFG.drop and CFG.drop(k):
                self.held = (pkt, n, "drop", time.monotonic())
            elif k and CFG.reorder and CFG.reorder(k):
                self.held = (pkt, n, "reorder", time.monotonic())
            else:
                self.send(pkt, n)

    def flush_held(self, older_than=None):
        with self.lock:
            h = self.held
            if h and (older_than is None or time.monotonic() - h[3] > older_than):
                self.held = None
                self.send(h[0], h[1])
                self.gso_send()

    def send(self, pkt, n):		# with self.lock
        if self.tr[0] == "tcp":
            if not self.conn.frame(self.tr[1], pkt):
                return
            STATS.add("interleaved")
        elif CFG.gso > 1:
            # one size but the last: a datagram longer than the first
            # goes in the next send
            if self.gso and (len(pkt) > len(self.gso[0]) or
                             len(self.gso[-1]) < len(self.gso[0])):
                self.gso_send()
            self.gso.append(pkt)
            if len(self.gso) >= CFG.gso:
                self.gso_send()
        else:
            try:
                UDP_RTP.sendto(pkt, (self.addr, self.tr[1]))
            except OSError as e:
                log("session %s: RTP: %s" % (self.id, e))
                return
        self.sent(pkt, n)

    def gso_send(self):			# with self.lock
        batch, self.gso = self.gso, []
        if not batch:
            return
        try:
            UDP_RTP.sendmsg([b"".join(batch)],
                            [(socket.SOL_UDP, UDP_SEGMENT, struct.pack("=H", len(batch[0])))],
                            0, (self.addr, self.tr[1]))
        except OSError as e:
            log("session %s: RTP (GSO, %d datagrams): %s" % (self.id, len(batch), e))

    def gso_flush(self):
        with self.lock:
            self.gso_send()

    def sent(self, pkt, n):
        STATS.add("datagrams_sent")
        STATS.add("ts_sent", n)
        self.packets += 1
        self.octets += len(pkt) - 12

    def locked(self):
        return self.relay is not None and time.monotonic() - self.last_ts < LOCK_AGE

    def fmtp(self):
        lock = self.locked()
        level = 0 if not lock or CFG.level_zero else LEVEL
        return fmtp(self.fe, level, int(lock), QUALITY if lock else 0, self.tune,
                    self.pids)

    def rtcp(self):
        s = self.fmtp().encode()
        now = time.time()
        ntp = (int(now) + 2208988800) << 32 | int((now % 1) * (1 << 32))
        ts90 = (int(time.monotonic() * 90000) + self.ts_off) & 0xffffffff
        with self.lock:
            sr = struct.pack("!BBHIIIIII", 0x80, 200, 6, self.ssrc, ntp >> 32,
                             ntp & 0xffffffff, ts90, self.packets & 0xffffffff,
                             self.octets & 0xffffffff)
        cname = b"quirky"
        sdes = struct.pack("!BBHIBB", 0x81, 202, 0, self.ssrc, 1, len(cname)) + cname + b"\0"
        sdes += b"\0" * (-len(sdes) % 4)
        sdes = sdes[:2] + struct.pack("!H", len(sdes) // 4 - 1) + sdes[4:]
        app = struct.pack("!BBHI4sHH", 0x80, 204, 0, self.ssrc, b"SES1", 0, len(s)) + s
        app += b"\0" * (-len(app) % 4)
        app = app[:2] + struct.pack("!H", len(app) // 4 - 1) + app[4:]
        pkt = sr + sdes + app
        if self.tr[0] == "tcp":
            if not self.conn.frame(self.tr[2], pkt):
                return
        else:
            try:
                UDP_RTCP.sendto(pkt, (self.addr, self.tr[2]))
            except OSError:
                return
        STATS.add("rtcp_sent")

    # -- changes --
    def stop_relay(self):
        r, self.relay = self.relay, None
        if r:
            r.stop()
        self.flush_held()

    def apply(self, q):
        """Tune and set the PIDs of query q; returns the relay to start
        once the reply is sent (or None)."""
        tune = q.tune if q.tune else self.tune
        pids = apply_pids(self.pids, q)
        tuning_changed = bool(q.tune) and tune_key(q.tune) != tune_key(self.tune or [])
        if not tune:
            if q.fe is not None or q.pids is not None or q.add or q.dele:
                self.pids = pids	# PIDs before a tuning: kept
            return None
        if (not tuning_changed and pids == self.pids and self.relay is not None and
                (q.fe is None or q.fe == self.fe)):
            return None
        old = (self.tune, self.pids, self.fe)
        with REG:
            fe = TUNERS.get(self.id, tune_key(tune), q.fe)
            if fe != self.fe:
                TUNERS.put(self.id, self.fe)
        self.stop_relay()
        self.tune, self.pids, self.fe = tune, pids, fe
        up = "&".join(r for _, _, r in tune)
        discard = not pids
        up += "&pids=" + ("0" if discard else pids_text(pids))
        code, sock, rest, hdrs = open_upstream(up)
        if code != 200:
            with REG:
                TUNERS.put(self.id, fe)
                if old[2]:
                    TUNERS.users[old[2] - 1].add(self.id)
                    TUNERS.key[old[2] - 1] = tune_key(old[0])
            self.tune, self.pids, self.fe = old
            self.restart()
            raise Bad(code, hdrs)
        return Relay(self, up, sock, rest, discard)

    def restart(self):
        """After a failed change: the old stream again, if it can."""
        if not self.tune or not self.alive:
            return
        up = "&".join(r for _, _, r in self.tune)
        discard = not self.pids
        up += "&pids=" + ("0" if discard else pids_text(self.pids))
        code, sock, rest, _ = open_upstream(up, 0.5)
        if code == 200:
            self.relay = Relay(self, up, sock, rest, discard)
            self.relay.start()

    def start(self, relay):
        if relay and self.alive:
            self.relay = relay
            relay.start()
        elif relay:
            relay.sock.close()

    def end(self, why):
        with REG:
            if not self.alive:
                return False
            self.alive = False		# out() sends no more
            SESSIONS.pop(self.id, None)
            TUNERS.put(self.id, self.fe)
            STATS.set("active", len(SESSIONS))
        self.stop_relay()
        log("session %s (stream %d): %s" % (self.id, self.stream, why))
        return True


def expire_all(why, key):
    with REG:
        ss = list(SESSIONS.values())
    for s in ss:
        if s.end(why):
            STATS.add(key)


# ---- RTSP ----------------------------------------------------------------------

REASONS = {200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
           405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout",
           413: "Request Entity Too Large", 414: "Request-URI Too Long",
           454: "Session Not Found", 455: "Method Not Valid in This State",
           461: "Unsupported Transport", 500: "Internal Server Error",
           501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
           505: "RTSP Version Not Supported"}


class Conn(threading.Thread):
    def __init__(self, sock, peer):
        super().__init__(daemon=True)
        self.sock, self.peer = sock, peer
        self.wlock = threading.Lock()
        self.dead = False
        self.mine = []			# sessions set up on this connection
        self.host = "%s:%d" % sock.getsockname()[:2]

    def frame(self, ch, pkt):
        if self.dead:
            return False
        try:
            with self.wlock:
                self.sock.sendall(b"$" + bytes([ch]) + struct.pack("!H", len(pkt)) + pkt)
            return True
        except OSError:
            self.dead = True
            return False

    def reply(self, code, cseq, headers=(), body=b"", http=False):
        lines = ["%s %d %s" % ("HTTP/1.0" if http else "RTSP/1.0", code,
                               REASONS.get(code, "Error"))]
        if cseq is not None:
            lines.append("CSeq: %s" % cseq)
        lines += list(headers)
        if body or code != 200:
            lines.append("Content-Length: %d" % len(body))
        data = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        try:
            with self.wlock:
                self.sock.sendall(data)
        except OSError:
            self.dead = True

    def run(self):
        self.sock.settimeout(30)
        buf = b""
        try:
            while not self.dead:
                # interleaved frames from the client (RTCP receiver reports)
                while buf[:1] == b"$" and len(buf) >= 4:
                    n = struct.unpack("!H", buf[2:4])[0]
                    if len(buf) < 4 + n:
                        break
                    buf = buf[4 + n:]
                end = buf.find(b"\r\n\r\n")
                elen = 4
                if end < 0:
                    end, elen = buf.find(b"\n\n"), 2
                if end >= 0 and buf[:1] != b"$":
                    head = buf[:end].decode("latin-1")
                    clen = 0
                    for line in head.splitlines()[1:]:
                        k, _, v = line.partition(":")
                        if k.strip().lower() == "content-length":
                            try:
                                clen = max(0, int(v))
                            except ValueError:
                                clen = 0
                    if len(buf) < end + elen + clen:
                        if clen > MAX_REQ:
                            self.reply(413, None)
                            break
                    else:
                        body = buf[end + elen:end + elen + clen]
                        buf = buf[end + elen + clen:]
                        if not self.request(head, body):
                            break
                        continue
                elif len(buf) > MAX_REQ and buf[:1] != b"$":
                    self.reply(413, None)
                    break
                try:
                    d = self.sock.recv(65536)
                except socket.timeout:
                    if any(s.alive for s in self.mine):
                        continue
                    break
                if not d:
                    break
                buf += d
        except OSError:
            pass
        self.dead = True
        for s in self.mine:
            if s.tr[0] == "tcp" and s.end("connection closed"):
                STATS.add("closed")
        try:
            self.sock.close()
        except OSError:
            pass

    def request(self, head, body):
        lines = head.splitlines()
        first = lines[0].split() if lines else []
        hdr = {}
        for line in lines[1:]:
            k, _, v = line.partition(":")
            hdr.setdefault(k.strip().lower(), v.strip())
        cseq = hdr.get("cseq")
        if len(first) != 3:
            self.reply(400, cseq)
            STATS.add("errors")
            return False
        method, url, ver = first
        if ver.startswith("HTTP/"):
            self.reply(404, None, ["Connection: close"], http=True)
            STATS.add("errors")
            return False
        sess_id = hdr.get("session", "").split(";")[0].strip() or None
        extra = []
        sess = None
        code = 200
        body_out = b""
        post = None
        count = {"OPTIONS": "options", "GET_PARAMETER": "get_parameters",
                 "SETUP": "setups", "PLAY": "plays", "TEARDOWN": "teardowns",
                 "DESCRIBE": "describes"}.get(method)
        if count:
            STATS.add(count)
        try:
            if ver != "RTSP/1.0":
                raise Bad(505)
            u = urllib.parse.urlsplit(url)
            if u.query:
                STATS.query(u.query)
            path = u.path or "/"
            stream = None
            last = path.rstrip("/").rsplit("/", 1)[-1]
            if last.startswith("stream="):
                try:
                    stream = int(last[7:])
                except ValueError:
                    raise Bad(400)
            if sess_id is not None:
                with REG:
                    sess = SESSIONS.get(sess_id)
                if sess is None:
                    raise Bad(454)
                sess.last_seen = time.monotonic()
            if method == "OPTIONS":
                extra.append("Public: OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER")
            elif method == "GET_PARAMETER":
                pass
            elif method == "SETUP":
                sess, post = self.setup(sess, Query(u.query), hdr.get("transport", ""), extra)
            elif method == "PLAY":
                if sess is None:
                    raise Bad(454)
                q = Query(u.query)
                q.quirks("PLAY")
                post = sess.apply(q)
                sess.playing = True
                extra.append("RTP-Info: url=rtsp://%s/stream=%d;seq=%d" %
                             (self.host, sess.stream, sess.seq))
            elif method == "TEARDOWN":
                if sess is None:
                    raise Bad(454)
                sess.end("TEARDOWN")
            elif method == "DESCRIBE":
                body_out = self.describe(sess, stream)
                extra += ["Content-Type: application/sdp",
                          "Content-Base: rtsp://%s/" % self.host]
            else:
                raise Bad(501)
        except Bad as e:
            code = e.code
            extra = e.headers
            if e.quirk:
                STATS.add("refused")
                STATS.add("refused_" + e.quirk)
            else:
                STATS.add("errors")
        if sess is not None and code == 200:
            extra.insert(0, "Session: %s;timeout=%d" % (sess.id, CFG.timeout))
        elif sess_id is not None and code != 454:
            extra.insert(0, "Session: %s" % sess_id)
        self.reply(code, cseq, extra, body_out)
        if post is not None:
            if code == 200:
                sess.start(post)
            else:
                post.sock.close()
        log("%s:%d %s %s -> %d%s" % (self.peer[0], self.peer[1], method, url, code,
                                     " session %s" % sess.id if sess and code == 200 else ""))
        STATS.write()
        return True

    def setup(self, sess, q, transport, extra):
        q.quirks("SETUP")
        t = [x.strip() for x in transport.split(";")]
        params = dict(x.partition("=")[::2] for x in t[1:])
        proto = t[0].upper() if t else ""
        if "multicast" in t or proto not in ("RTP/AVP", "RTP/AVP/UDP", "RTP/AVP/TCP"):
            raise Bad(461)
        try:
            if proto == "RTP/AVP/TCP":
                a, _, b = params.get("interleaved", "0-1").partition("-")
                tr = ("tcp", int(a), int(b or int(a) + 1))
                if not (0 <= tr[1] <= 255 and 0 <= tr[2] <= 255):
                    raise ValueError
            else:
                a, _, b = params["client_port"].partition("-")
                tr = ("udp", int(a), int(b or int(a) + 1))
                if not (0 < tr[1] < 65536 and 0 < tr[2] < 65536):
                    raise ValueError
        except (KeyError, ValueError):
            raise Bad(461)
        if CFG.teardown_first and q.tune:
            key = tune_key(q.tune)
            if sess is not None:
                busy = [sess] if sess.alive and sess.tune else []
            else:
                busy = [s for s in self.mine if s.alive and s.tune]
            if any(tune_key(s.tune) != key for s in busy):
                raise Bad(CFG.teardown_first_code, [], "teardown_first")
        new = sess is None
        if new:
            sess = Session(self, tr)
            with REG:
                SESSIONS[sess.id] = sess
                STATS.set("active", len(SESSIONS))
        else:
            sess.tr = tr if tr[0] == sess.tr[0] else sess.tr
        try:
            post = sess.apply(q)
        except Bad:
            if new:
                sess.end("refused")
            raise
        if new:
            STATS.add("sessions")
            self.mine = [s for s in self.mine if s.alive] + [sess]
        if sess.tr[0] == "tcp":
            extra.append("Transport: RTP/AVP/TCP;unicast;interleaved=%d-%d" % sess.tr[1:])
        else:
            extra.append("Transport: RTP/AVP;unicast;destination=%s;source=%s;"
                         "client_port=%d-%d;server_port=%d-%d" %
                         (sess.addr, self.sock.getsockname()[0], sess.tr[1], sess.tr[2],
                          UDP_RTP.getsockname()[1], UDP_RTCP.getsockname()[1]))
        extra.append("com.ses.streamID: %d" % sess.stream)
        return sess, post

    def describe(self, sess, stream):
        with REG:
            if sess is not None:
                ss = [sess]
            elif stream is not None:
                ss = [s for s in SESSIONS.values() if s.stream == stream]
            else:
                ss = sorted(SESSIONS.values(), key=lambda s: s.stream)
        if not ss:
            raise Bad(404)
        sid = ss[0].id if sess else "0"
        addr = self.sock.getsockname()[0]
        lines = ["v=0", "o=- %s %s IN IP4 %s" % (sid, sid, addr),
                 "s=SatIPServer:1 %s" % CFG.sdp_frontends, "t=0 0"]
        for s in ss:
            lines += ["m=video %d RTP/AVP 33" % (s.tr[1] if s.tr[0] == "udp" else 0),
                      "c=IN IP4 0.0.0.0", "a=control:stream=%d" % s.stream,
                      "a=fmtp:33 %s" % s.fmtp(),
                      "a=%s" % ("sendonly" if s.playing else "inactive")]
        return ("\r\n".join(lines) + "\r\n").encode()


# ---- desc.xml, SSDP --------------------------------------------------------------

def desc_xml():
    esc = lambda s: (s.replace("&", "&amp;").replace("<", "&lt;")
                     .replace(">", "&gt;").replace('"', "&quot;"))
    return ("""<?xml version="1.0" encoding="UTF-8"?>
<root xmlns="urn:schemas-upnp-org:device-1-0" configId="1">
\t<specVersion>
\t\t<major>1</major>
\t\t<minor>1</minor>
\t</specVersion>
\t<device>
\t\t<deviceType>%s</deviceType>
\t\t<friendlyName>%s</friendlyName>
\t\t<manufacturer>%s</manufacturer>
\t\t<manufacturerURL>http://www.avm.de</manufacturerURL>
\t\t<modelDescription>%s</modelDescription>
\t\t<modelName>%s</modelName>
\t\t<modelNumber>avm</modelNumber>
\t\t<modelURL>http://www.avm.de</modelURL>
\t\t<UDN>uuid:%s</UDN>
\t\t<satip:X_SATIPCAP xmlns:satip="urn:ses-com:satip">%s</satip:X_SATIPCAP>
\t</device>
</root>
""" % (DEVICE_TYPE, esc(CFG.name), esc(CFG.manufacturer), esc(CFG.model),
       esc(CFG.model), CFG.uuid, esc(CFG.caps))).encode()


class DescHandler(http.server.BaseHTTPRequestHandler):
    server_version = "quirky"
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        path = self.path.split("?")[0]
        if path in ("/desc.xml", "/satipdesc.xml"):
            body = desc_xml()
            self.send_response(200)
            self.send_header("Content-Type", 'text/xml; charset="utf-8"')
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-SATIP-RTSP-Port", str(CFG.rtsp_port))
            self.end_headers()
            if self.command == "GET":
                self.wfile.write(body)
        else:
            self.send_error(404)

    do_HEAD = do_GET

    def log_message(self, fmt, *a):
        log("http %s: %s" % (self.client_address[0], fmt % a))


class DescServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def ssdp_tail():
    return ("BOOTID.UPNP.ORG: 1\r\nCONFIGID.UPNP.ORG: 1\r\nDEVICEID.SES.COM: 1\r\n"
            "X-SATIP-RTSP-Port: %d\r\n\r\n" % CFG.rtsp_port)


def ssdp_kinds():
    u = "uuid:" + CFG.uuid
    return [("upnp:rootdevice", u + "::upnp:rootdevice"), (u, u),
            (DEVICE_TYPE, u + "::" + DEVICE_TYPE)]


def local_addr_for(peer):
    if CFG.addr not in ("0.0.0.0", ""):
        return CFG.addr
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect((peer, 1900))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def ssdp_loop():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if hasattr(socket, "SO_REUSEPORT"):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    s.bind(("", 1900))
    iface = CFG.addr if CFG.addr not in ("0.0.0.0", "") else "0.0.0.0"
    mreq = socket.inet_aton(SSDP_GROUP) + socket.inet_aton(iface)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(iface))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 2)
    here = local_addr_for(SSDP_GROUP)
    for _ in range(3):
        for nt, usn in ssdp_kinds():
            msg = ("NOTIFY * HTTP/1.1\r\nHOST: %s:1900\r\nCACHE-CONTROL: max-age=1800\r\n"
                   "LOCATION: http://%s:%d/desc.xml\r\nNT: %s\r\nNTS: ssdp:alive\r\n"
                   "SERVER: Linux UPnP/1.1 quirky/1.0\r\nUSN: %s\r\n"
                   % (SSDP_GROUP, here, CFG.http_port, nt, usn)) + ssdp_tail()
            try:
                s.sendto(msg.encode(), (SSDP_GROUP, 1900))
            except OSError as e:
                log("SSDP NOTIFY: %s" % e)
        time.sleep(0.2)
    while True:
        data, src = s.recvfrom(2048)
        text = data.decode("latin-1")
        if not text.startswith("M-SEARCH * HTTP/1."):
            continue
        h = {}
        for line in text.split("\r\n")[1:]:
            k, _, v = line.partition(":")
            h.setdefault(k.strip().upper(), v.strip())
        st = h.get("ST", "")
        kinds = ssdp_kinds()
        if st != "ssdp:all":
            kinds = [kv for kv in kinds if kv[0] == st]
        here = local_addr_for(src[0])
        for nt, usn in kinds:
            msg = ("HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nDATE: %s\r\nEXT:\r\n"
                   "LOCATION: http://%s:%d/desc.xml\r\nSERVER: Linux UPnP/1.1 quirky/1.0\r\n"
                   "ST: %s\r\nUSN: %s\r\n"
                   % (time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime()),
                      here, CFG.http_port, nt, usn)) + ssdp_tail()
            try:
                s.sendto(msg.encode(), src)
            except OSError:
                pass
        if kinds:
            log("SSDP M-SEARCH %s from %s:%d: answered" % (st, src[0], src[1]))


# ---- main ----------------------------------------------------------------------

def udp_pair(addr):
    for _ in range(200):
        a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        a.bind((addr, 0))
        p = a.getsockname()[1]
        if p % 2 == 0 and p < 65535:
            b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            try:
                b.bind((addr, p + 1))
            except OSError:
                b.close()
                a.close()
                continue
            a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
            return a, b
        a.close()
    sys.exit("quirky: no even UDP port pair")


def hostport(s):
    h, _, p = s.rpartition(":")
    try:
        return h or "127.0.0.1", int(p)
    except ValueError:
        raise argparse.ArgumentTypeError("%s: not HOST:PORT" % s)


def options(argv):
    p = argparse.ArgumentParser(
        prog="quirky.py", description=__doc__.split("\n\n", 1)[0],
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--upstream", type=hostport, required=True, metavar="HOST:PORT",
                   help="vtunerd's SAT>IP address (its HTTP streaming, GET /?QUERY)")
    p.add_argument("--addr", default="127.0.0.1",
                   help="listen on ADDR (RTSP, RTP source, HTTP; default 127.0.0.1)")
    p.add_argument("--port", type=int, default=0,
                   help="RTSP port (default 0: any free one, printed)")
    p.add_argument("--avm", action="store_true",
                   help="all the quirks marked * below (a FRITZ!Box Cable)")
    p.add_argument("--no-addpids", action="store_true",
                   help="* addpids=, delpids=: 400")
    p.add_argument("--no-pids-all", action="store_true", help="* pids=all: 400")
    p.add_argument("--pids-all-code", type=int, choices=(400, 414), default=400,
                   help="the status of --no-pids-all (default 400)")
    p.add_argument("--pids-in-setup", action="store_true",
                   help="* a SETUP without pids=: 400")
    p.add_argument("--no-rtcp", action="store_true",
                   help="* no RTCP (the signal in DESCRIBE only)")
    p.add_argument("--timeout", type=int, metavar="SEC",
                   help="session timeout (default 60; 30 with --avm)")
    p.add_argument("--level-zero", action="store_true", help="* level 0 while locked")
    p.add_argument("--no-fe", action="store_true", help="* fe=: 400")
    p.add_argument("--teardown-first", action="store_true",
                   help="* another tuning on an active session or connection "
                   "needs a TEARDOWN first: 455")
    p.add_argument("--teardown-first-code", type=int, choices=(455, 503), default=455,
                   help="the status of --teardown-first (default 455)")
    p.add_argument("--desc", action="store_true",
                   help="* GET /desc.xml on --http-port (AVM Berlin, FRITZ!Box 6591 Cable)")
    p.add_argument("--http-port", type=int, metavar="PORT",
                   help="port of desc.xml (default: the RTSP port + 1 when --port "
                   "is given, else any free one; printed)")
    p.add_argument("--ssdp", action="store_true",
                   help="answer SSDP M-SEARCH on 239.255.255.250:1900 (implies --desc)")
    p.add_argument("--name", default="FRITZ!Box 6591 Cable",
                   help="desc.xml's friendlyName (default FRITZ!Box 6591 Cable)")
    p.add_argument("--manufacturer", default="AVM Berlin",
                   help="desc.xml's manufacturer (default AVM Berlin)")
    p.add_argument("--model", default="FRITZ!Box 6591 Cable",
                   help="desc.xml's modelName (default FRITZ!Box 6591 Cable)")
    p.add_argument("--tuners", type=int, default=2,
                   help="tuners (default 2)")
    p.add_argument("--caps", help="X_SATIPCAP (default DVBC-TUNERS)")
    p.add_argument("--drop", metavar="N/M", help="drop N of every M datagrams (UDP)")
    p.add_argument("--reorder", metavar="N/M",
                   help="swap N of every M datagrams with their successor (UDP)")
    p.add_argument("--seed", type=int, default=1,
                   help="seed of --drop and --reorder (default 1)")
    p.add_argument("--stats", metavar="FILE", help="counters, see below")
    p.add_argument("--packets", type=int, default=7, choices=range(1, 8), metavar="N",
                   help="TS packets in an RTP datagram (1..7)")
    p.add_argument("--gso", type=int, default=1, choices=range(1, 65), metavar="N",
                   help="RTP over UDP: N datagrams a send (UDP_SEGMENT)")
    p.add_argument("--kill-after", type=float, metavar="SEC",
                   help="exit abruptly after SEC seconds")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="one line per request on standard error")
    a = p.parse_args(argv)
    if a.avm:
        for k in ("no_addpids", "no_pids_all", "pids_in_setup", "no_rtcp",
                  "level_zero", "no_fe", "teardown_first", "desc"):
            setattr(a, k, True)
    if a.timeout is None:
        a.timeout = 30 if a.avm else 60
    if a.timeout < 1 or a.tuners < 1:
        p.error("--timeout and --tuners need at least 1")
    if a.ssdp:
        a.desc = True
    try:
        a.drop = Pattern(a.drop, a.seed, "drop") if a.drop else None
        a.reorder = Pattern(a.reorder, a.seed, "reorder") if a.reorder else None
    except argparse.ArgumentTypeError as e:
        p.error(str(e))
    a.caps = a.caps or "DVBC-%d" % a.tuners
    a.sdp_frontends = "0,0,%d" % a.tuners
    return a


def main():
    global CFG, TUNERS, UDP_RTP, UDP_RTCP
    CFG = options(sys.argv[1:])
    TUNERS = Tuners(CFG.tuners)
    UDP_RTP, UDP_RTCP = udp_pair(CFG.addr)
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind((CFG.addr, CFG.port))
    lsock.listen(64)
    CFG.rtsp_port = lsock.getsockname()[1]
    CFG.uuid = str(uuidlib.uuid5(uuidlib.NAMESPACE_URL,
                                 "quirky:%s:%d" % (CFG.addr, CFG.rtsp_port)))
    print("rtsp_port=%d" % CFG.rtsp_port)
    if CFG.desc:
        hp = CFG.http_port
        if hp is None:
            hp = CFG.rtsp_port + 1 if CFG.port else 0
        hs = DescServer((CFG.addr, hp), DescHandler)
        CFG.http_port = hs.server_address[1]
        threading.Thread(target=hs.serve_forever, daemon=True).start()
        print("http_port=%d" % CFG.http_port)
        if CFG.ssdp:
            threading.Thread(target=ssdp_loop, daemon=True).start()
    sys.stdout.flush()

    flags = {"term": False, "usr1": False}
    signal.signal(signal.SIGTERM, lambda *_: flags.update(term=True))
    signal.signal(signal.SIGINT, lambda *_: flags.update(term=True))
    signal.signal(signal.SIGUSR1, lambda *_: flags.update(usr1=True))

    def accept():
        while True:
            try:
                c, peer = lsock.accept()
            except OSError:
                continue
            c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            Conn(c, peer).start()

    threading.Thread(target=accept, daemon=True).start()
    start = time.monotonic()
    next_stats = 0.0
    STATS.write()
    while True:
        time.sleep(0.02)
        now = time.monotonic()
        if flags["term"]:
            STATS.write()
            os._exit(0)
        if CFG.kill_after is not None and now - start >= CFG.kill_after:
            STATS.set("killed", 1)
            STATS.write()
            log("--kill-after %g: exiting" % CFG.kill_after)
            os._exit(0)
        if flags["usr1"]:
            flags["usr1"] = False
            expire_all("lost (SIGUSR1)", "lost")
            STATS.write()
        with REG:
            ss = list(SESSIONS.values())
        for s in ss:
            if now - s.last_seen > CFG.timeout:
                if s.end("timeout (%d s)" % CFG.timeout):
                    STATS.add("expired")
                continue
            s.flush_held(HOLD_MAX)
            if not CFG.no_rtcp and s.playing and now >= s.next_rtcp:
                s.next_rtcp = now + 0.2
                s.rtcp()
        if now >= next_stats:
            next_stats = now + 1
            STATS.write()


if __name__ == "__main__":
    main()
