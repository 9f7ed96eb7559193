#!/bin/bash
# tests/satip/quirky-selftest.sh - tests/satip/quirky.py, the SAT>IP
# server with a FRITZ!Box Cable's quirks that vtunerc's SAT>IP client is
# tested against, relaying vtunerd's HTTP stream (the plain vtunerd, its
# simulated tuners, on loopback): its quirks are real.
#
#   rtspc.py, ffmpeg, curl ── quirky.py ── GET /?QUERY ── vtunerd --sim --satip
#
# * --avm: SETUP without pids=, with pids=all, with fe=: 400; PLAY
#   addpids=: 400; DESCRIBE's fmtp ver=1.2, lock 1, level 0, quality > 0,
#   no RTCP; a second SETUP with another tuning before TEARDOWN: 455, on
#   the session and on the connection; desc.xml says AVM Berlin, FRITZ!Box
#   6591 Cable, DVBC-2;
# * the TS relayed over UDP and interleaved (rtspc, ffmpeg with its
#   keepalives beyond --timeout 3): exactly the PIDs asked for, without a
#   continuity error or a sequence gap; two sessions at once, a third
#   tuning gets 503 (--tuners 2);
# * --timeout 3: a session no request names is expired after 3 s (RTP
#   stops, its next PLAY gets 454), requests keep it; SIGUSR1 ends every
#   session (454, RTP stops);
# * --drop, --reorder: rtspc's seq_gaps is exactly dropped + 65536 x
#   reordered of the stats (a swap is a step back of one: 65535 + 1);
#   nothing lost over TCP; RTCP SES1 without --no-rtcp;
# * --kill-after: gone on time, exit 0, killed=1 in the stats;
# * --ssdp (as root, in a network namespace): M-SEARCH answered with
#   LOCATION pointing at its desc.xml.
# Usage: quirky-selftest.sh BUILD_DIR (needs $B/server/vtunerd and
# $B/tests/tuner/vt-tscheck; curl; ffmpeg if there).  KEEP=1 keeps the
# work directory.  Ends with one line "N passed, N failed".
set -uo pipefail
B=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
VTD=${VTD:-$B/server/vtunerd}
TSCHECK=$B/tests/tuner/vt-tscheck
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-quirky.XXXXXX")
PORT=$((20000 + ($$ * 13) % 20000))
T0=$(date +%s)
pid_v=
qpids=()

cleanup() {
	exec 2>/dev/null
	[ -n "$pid_v" ] && kill -9 "$pid_v"
	for p in "${qpids[@]}"; do kill -9 "$p"; done
	jobs -p | xargs -r kill -9
	if [ -n "${KEEP:-}" ]; then echo "# kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT

# shellcheck source=tests/tap.sh
. "$HERE/../tap.sh"
for f in "$VTD" "$TSCHECK"; do
	if [ ! -x "$f" ]; then
		fail "$f missing (make)"
		echo "$passed passed, $failed failed"
		exit 1
	fi
done
if ! command -v curl >/dev/null; then
	fail "curl missing (apt-get install curl)"
	echo "$passed passed, $failed failed"
	exit 1
fi

# The simulator's DVB-C transponder (src/server/sim/world.c) and its
# services 601 (8 Mbit/s video) and 602 (3 Mbit/s), DVB-T 506 MHz, and
# DVB-S2 11362 H
C='freq=346&msys=dvbc&sr=6900&mtype=256qam'
T='freq=506&bw=8&msys=dvbt&tmode=8k&mtype=64qam&gi=14&fec=23'
S2='src=1&freq=11362&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=off&sr=22000&fec=23'
S601='0,256,257,258'
S602='0,272,273,274'
S402='0,272,273,274'

rtspc() { python3 "$HERE/rtspc.py" "$@"; }
val() { sed -n "s/^$2=//p" "$1"; }	# val FILE KEY: of a KEY=VALUE file
since() { echo $(($(date +%s) - T0)); }
within() {	# within SECONDS COMMAND...: succeeds within SECONDS
	local _

	for _ in $(seq $(($1 * 10))); do
		"${@:2}" && return 0
		sleep 0.1
	done
	return 1
}

# start_vtd: vtunerd --sim --satip on the next free port pair; sets $VA
start_vtd() {
	local try port

	for try in 1 2 3 4 5; do
		port=$PORT
		PORT=$((PORT + 2))
		"$VTD" --sim --sim-tuners 4 -l "127.0.0.1:$((port + 1))" \
			--satip "127.0.0.1:$port" --no-announce -f -v \
			>>"$W/vtunerd.log" 2>&1 &
		pid_v=$!
		for _ in $(seq 100); do
			if rtspc "127.0.0.1:$port" expect 200 OPTIONS BASE/ >/dev/null 2>&1; then
				VA=127.0.0.1:$port
				return 0
			fi
			kill -0 "$pid_v" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$pid_v" 2>/dev/null && return 1
		wait "$pid_v"
		pid_v=
		grep -q "Address already in use" "$W/vtunerd.log" || return 1
		PORT=$((PORT + 1 + try * 97))
	done
	return 1
}

# start_q NAME OPTION...: quirky.py relaying vtunerd, stats in $W/NAME.st,
# log in $W/NAME.log; sets $Q (its RTSP address), $qpid, $qhttp
start_q() {
	local name=$1

	shift
	: >"$W/$name.out"
	python3 "$HERE/quirky.py" --upstream "$VA" --port 0 --stats "$W/$name.st" \
		-v "$@" >"$W/$name.out" 2>"$W/$name.log" &
	qpid=$!
	qpids+=("$qpid")
	within 10 grep -q "^rtsp_port=" "$W/$name.out" || return 1
	Q=127.0.0.1:$(val "$W/$name.out" rtsp_port)
	qhttp=$(val "$W/$name.out" http_port)
}
gone() { ! kill -0 "$1" 2>/dev/null; }
# exact FILE PIDS: the TS holds exactly these PIDs (comma-separated), no
# continuity or sync error (cut to whole packets first: a client stopped
# mid-packet); why in FILE.why
exact() {
	local f=$1 got

	[ -s "$f" ] || { echo "$f: empty" >"$f.why"; return 1; }
	truncate -s $(($(stat -c %s "$f") / 188 * 188)) "$f"
	if ! "$TSCHECK" "$f" >"$f.check" 2>&1; then
		{ echo "vt-tscheck: errors"; cat "$f.check"; } >"$f.why"
		return 1
	fi
	got=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' "$f.check" | sort -n | paste -sd,)
	[ "$got" = "$(tr , '\n' <<<"$2" | sort -n | paste -sd,)" ] ||
		{ echo "PIDs $got, not $2"; cat "$f.check"; } >"$f.why"
	[ "$got" = "$(tr , '\n' <<<"$2" | sort -n | paste -sd,)" ]
}
# says FMTP LOCK LEVEL_OP LEVEL QUALITY_OP QUALITY: its tuner= field
says() {
	local lock level quality

	read -r lock level quality < <(rtspc - status "$1") || return 1
	[ "$lock" = "$2" ] && test "$level" "$3" "$4" && test "$quality" "$5" "$6"
}

# ---- vtunerd, quirky --avm ----------------------------------------------------

check_or_show "vtunerd --sim --satip (the upstream) serves" start_vtd -- "$W/vtunerd.log"
if [ -z "$pid_v" ]; then
	echo "$passed passed, $failed failed"
	exit 1
fi
check_or_show "quirky.py --avm --timeout 3 listens, prints its ports" \
	start_q avm --avm --timeout 3 -- "$W/avm.log" "$W/avm.out"
A=$Q
pid_a=$qpid
http_a=$qhttp

# ---- 1. the refusals -------------------------------------------------------------

refusals() {
	local q

	rtspc "$A" expect 200 OPTIONS BASE/ || return 1
	for q in "$C" "$C&pids=all" "fe=1&$C&pids=0" "$C&addpids=0"; do
		rtspc "$A" setup "$q" >"$W/refused.out" 2>&1
		cat "$W/refused.out"
		grep -qx "status 400" "$W/refused.out" || return 1
	done
} >"$W/refusals.log" 2>&1
check_or_show "--avm: SETUP without pids=, with pids=all, fe=1, addpids=: 400" \
	refusals -- "$W/refusals.log" "$W/avm.log"

# one session: DESCRIBE at 1.5 s, PLAY addpids= at 2 s
rtspc "$A" play "$C&pids=$S601" 3 "$W/d.ts" --describe 1.5 \
	--change 2:addpids=290 --status "$W/d.st" >"$W/d.log" 2>&1
goes_on() { [ "$(val "$W/d.st" change1)" = 400 ] && [ "$(val "$W/d.st" teardown)" = 200 ]; }
check_or_show "--avm: PLAY addpids=: 400, the session goes on (TEARDOWN 200)" \
	goes_on -- "$W/d.st" "$W/avm.log"
fmtp_avm() {
	val "$W/d.st" fmtp | grep -q "^ver=1\.2;tuner=[0-9]*,[0-9]*,[01],[0-9]*,346\.00,,dvbc,256qam,6900,,,,;pids=$S601$" &&
		says "$(val "$W/d.st" fmtp)" 1 -eq 0 -gt 0
}
check_or_show "--avm: DESCRIBE: a=fmtp:33 ver=1.2, lock 1, level 0, quality > 0" \
	fmtp_avm -- "$W/d.st"
no_rtcp() { [ "$(val "$W/d.st" rtcp)" = 0 ] && [ "$(val "$W/avm.st" rtcp_sent)" = 0 ]; }
check_or_show "--avm: no RTCP" no_rtcp -- "$W/d.st"
# whole NAME PIDS: rtspc's recording NAME.ts.0 holds exactly PIDS, no
# continuity error, no RTP sequence gap, no malformed RTP
whole() {
	exact "$W/$1.ts.0" "$2" && [ "$(val "$W/$1.st" seq_gaps)" = 0 ] &&
		[ "$(val "$W/$1.st" bad_rtp)" = 0 ]
}
check_or_show "RTP over UDP: exactly PIDs $S601, no continuity error, no sequence gap" \
	whole d "$S601" -- "$W/d.ts.0.why" "$W/d.st"
counted() {
	[ "$(val "$W/avm.st" refused_no_pids)" = 1 ] &&
		[ "$(val "$W/avm.st" refused_pids_all)" = 1 ] &&
		[ "$(val "$W/avm.st" refused_fe)" = 1 ] &&
		[ "$(val "$W/avm.st" refused_addpids)" = 2 ] &&
		[ "$(val "$W/avm.st" refused)" = 5 ] && [ "$(val "$W/avm.st" errors)" = 0 ]
}
check_or_show "--stats: each refusal counted" counted -- "$W/avm.st"
# (refused_teardown_first is counted below)

# --teardown-first: SETUP elsewhere on the session, then on the connection
cat >"$W/tdfirst.py" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import rtspc
r = rtspc.Rtsp(sys.argv[2])
rtp, rtcp, port = rtspc.udp_pair()
tr = ["Transport: RTP/AVP;unicast;client_port=%d-%d" % (port, port + 1)]
codes = []
def req(method, query, session=None):
    r.session = session
    code, hdr, _ = r.request(method, r.base + query, tr)
    codes.append(code)
    return hdr
c, t = sys.argv[3], sys.argv[4]
hdr = req("SETUP", "?%s&pids=0" % c)
sid = hdr.get("session", "").split(";")[0]
req("SETUP", "?%s&pids=0" % t, sid)			# another tuning: 455
req("SETUP", "?%s&pids=0" % t)				# on the connection: 455
req("SETUP", "?%s&pids=0,16" % c, sid)			# the same tuning: 200
req("TEARDOWN", "stream=%s" % hdr.get("com.ses.streamid"), sid)
hdr = req("SETUP", "?%s&pids=0" % t)			# after TEARDOWN: 200
req("TEARDOWN", "stream=%s" % hdr.get("com.ses.streamid"),
    hdr.get("session", "").split(";")[0])
print(" ".join(map(str, codes)))
PY
python3 -B "$W/tdfirst.py" "$HERE" "$A" "$C" "$T" >"$W/tdfirst.log" 2>&1
check_or_show "--avm: another tuning before TEARDOWN: 455 (session, connection); same tuning, after TEARDOWN: 200" \
	grep -qx "200 455 455 200 200 200 200" "$W/tdfirst.log" -- "$W/tdfirst.log" "$W/avm.log"

desc_ok() {
	curl -s --max-time 5 -D "$W/desc.hdr" "http://127.0.0.1:$http_a/desc.xml" \
		-o "$W/desc.xml" &&
		python3 - "$W/desc.xml" <<'PY' >"$W/desc.out" 2>&1 &&
import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
t = lambda n: d.getElementsByTagName(n)[0].firstChild.data
print(t("manufacturer"), t("modelName"), t("satip:X_SATIPCAP"), t("deviceType"))
sys.exit(0 if (t("manufacturer"), t("modelName"), t("satip:X_SATIPCAP"),
               t("deviceType")) == ("AVM Berlin", "FRITZ!Box 6591 Cable", "DVBC-2",
                                    "urn:ses-com:device:SatIPServer:1") else 1)
PY
		grep -qi "^X-SATIP-RTSP-Port: ${A#*:}" "$W/desc.hdr"
}
check_or_show "--avm: desc.xml: AVM Berlin, FRITZ!Box 6591 Cable, DVBC-2, X-SATIP-RTSP-Port" \
	desc_ok -- "$W/desc.hdr" "$W/desc.out" "$W/desc.xml"

# ---- 2. streams -------------------------------------------------------------------

# interleaved, and two sessions at once (DVB-C and DVB-T: both tuners)
rtspc "$A" play "$C&pids=$S601" 3 "$W/tcp.ts" --tcp --status "$W/tcp.st" \
	>"$W/tcp.log" 2>&1 &
p1=$!
rtspc "$A" play "$T&pids=$S402" 3 "$W/t.ts" --status "$W/t.st" >"$W/t.log" 2>&1 &
p2=$!
active() { [ "$(val "$W/avm.st" active)" = "$1" ]; }
within 5 active 2
sleep 0.5
rtspc "$A" setup "$S2&pids=0" >"$W/third.log" 2>&1
wait "$p1" "$p2"
tcp_whole() { whole tcp "$S601" && [ "$(val "$W/avm.st" interleaved)" -gt 0 ]; }
check_or_show "RTP interleaved: exactly PIDs $S601, no continuity error, no sequence gap" \
	tcp_whole -- "$W/tcp.ts.0.why" "$W/tcp.st"
check_or_show "a second session at once (DVB-T, UDP): exactly PIDs $S402, no gap" \
	whole t "$S402" -- "$W/t.ts.0.why" "$W/t.st"
third_503() { grep -qx "status 503" "$W/third.log" && grep -qix "no-more: frontends" "$W/third.log"; }
check_or_show "--tuners 2: a third tuning meanwhile: 503 No-More: frontends" \
	third_503 -- "$W/third.log"

if command -v ffmpeg >/dev/null; then
	for tr in udp tcp; do
		timeout -s INT 6 ffmpeg -nostdin -hide_banner -loglevel warning \
			-rtsp_flags satip_raw -rtsp_transport "$tr" \
			-i "satip://$A/?$C&pids=$S602" -map 0 -c copy -f data \
			-y "$W/ff-$tr.ts" >"$W/ff-$tr.log" 2>&1
	done
	# 6 s: its PAT (10 a second) for more than 3.5 s
	ff_ok() {
		exact "$W/ff-$1.ts" "$S602" &&
			[ "$(sed -n 's/^pid=0 packets=\([0-9]*\) .*/\1/p' "$W/ff-$1.ts.check")" -gt 35 ]
	}
	check_or_show "ffmpeg, RTP over UDP, 6 s (its keepalives beyond --timeout 3): exactly PIDs $S602, no continuity error" \
		ff_ok udp -- "$W/ff-udp.ts.why" "$W/ff-udp.log" "$W/avm.log"
	check_or_show "ffmpeg, RTP interleaved, 6 s: exactly PIDs $S602, no continuity error" \
		ff_ok tcp -- "$W/ff-tcp.ts.why" "$W/ff-tcp.log" "$W/avm.log"
else
	skip "ffmpeg missing"
fi

# ---- 3. --timeout, SIGUSR1 -----------------------------------------------------

# PLAY every second: alive after 4.5 s (ffmpeg's sessions may have ended
# at their timeout: it leaves on SIGINT without TEARDOWN)
sleep 3.5
n_exp=$(val "$W/avm.st" expired)
rtspc "$A" play "$C&pids=0" 4.5 "$W/ka.ts" --status "$W/ka.st" \
	--change 1:pids=0 --change 2:pids=0 --change 3:pids=0 --change 4:pids=0 \
	>"$W/ka.log" 2>&1
lives() {
	[ "$(val "$W/ka.st" change4)" = 200 ] && [ "$(val "$W/ka.st" teardown)" = 200 ] &&
		[ "$(val "$W/avm.st" expired)" = "$n_exp" ]
}
check_or_show "--timeout 3: a session named every second lives on (4 PLAYs, TEARDOWN: 200)" \
	lives -- "$W/ka.st" "$W/avm.log"
# nothing names it for 4.5 s
rtspc "$A" play "$C&pids=$S601" 5 "$W/ex.ts" --status "$W/ex.st" \
	--change 4.5:pids=0 >"$W/ex.log" 2>&1
expired() {
	[ "$(val "$W/ex.st" change1)" = 454 ] && [ "$(val "$W/ex.st" teardown)" = 454 ] &&
		[ -s "$W/ex.ts.0" ] && [ ! -s "$W/ex.ts.1" ] &&
		[ "$(val "$W/avm.st" expired)" = $((n_exp + 1)) ] &&
		grep -q "session $(val "$W/ex.st" session) .*: timeout" "$W/avm.log"
}
check_or_show "--timeout 3: a session nothing names is expired: RTP stops, PLAY and TEARDOWN get 454" \
	expired -- "$W/ex.st" "$W/avm.log"
rtspc "$A" play "$C&pids=$S601" 3 "$W/u1.ts" --status "$W/u1.st" \
	--change 2:pids=0 >"$W/u1.log" 2>&1 &
p1=$!
within 5 active 1
sleep 0.5
kill -USR1 "$pid_a"
wait "$p1"
lost() {
	[ "$(val "$W/u1.st" change1)" = 454 ] && [ -s "$W/u1.ts.0" ] &&
		[ ! -s "$W/u1.ts.1" ] && [ "$(val "$W/avm.st" lost)" = 1 ]
}
check_or_show "SIGUSR1: every session lost: RTP stops, the next PLAY gets 454" \
	lost -- "$W/u1.st" "$W/avm.log"
n_req() {	# every request counted (ffmpeg's left out)
	[ "$(val "$W/avm.st" setups)" -ge 14 ] && [ "$(val "$W/avm.st" plays)" -ge 11 ] &&
		[ "$(val "$W/avm.st" describes)" = 1 ] && [ "$(val "$W/avm.st" teardowns)" -ge 8 ] &&
		[ "$(val "$W/avm.st" options)" -ge 7 ] && [ "$(val "$W/avm.st" sessions)" -ge 8 ] &&
		[ "$(val "$W/avm.st" refused_teardown_first)" = 2 ] &&
		[ "$(val "$W/avm.st" refused)" = 7 ] &&
		[ "$(val "$W/avm.st" last_query)" = "pids=0" ]
}
check_or_show "--stats: requests and sessions counted, the last query" n_req -- "$W/avm.st"

# ---- 4. --drop, --reorder --------------------------------------------------------

# seq_gaps EXPR NAME: rtspc's seq_gaps is EXPR of the stats, > 0; every
# datagram sent was read (the stream ends with a PLAY of a PID that has no
# packets, so none are in flight at TEARDOWN)
gaps_are() {
	local st=$W/$2.st want

	want=$(( $1 ))
	[ "$want" -gt 0 ] && [ "$(val "$W/$2.r" seq_gaps)" = "$want" ] &&
		[ "$(val "$W/$2.r" rtp)" = "$(val "$st" datagrams_sent)" ]
}
loss_run() {	# loss_run NAME QUIRKY_OPTIONS...
	local name=$1

	shift
	start_q "$name" "$@" || return 1
	rtspc "$Q" play "$C&pids=$S602" 4 "$W/$name.ts" --status "$W/$name.r" \
		--describe 1 --change 3:pids=8000 >"$W/$name.rlog" 2>&1
}
loss_run drop --drop 1/50 --seed 3
d=$W/drop.st
check_or_show "--drop 1/50: rtspc's seq_gaps = dropped (> 0), every datagram sent read" \
	gaps_are "$(val "$d" dropped)" drop -- "$W/drop.r" "$d"
dgrams() {
	local n n_ts

	n=$(val "$d" dropped)
	n_ts=$(val "$d" dropped_ts)

	[ "$n_ts" -ge "$n" ] && [ "$n_ts" -le $((n * 7)) ] &&
		[ "$(val "$W/drop.r" ts)" = "$(val "$d" ts_sent)" ] &&
		[ "$(val "$d" reordered)" = 0 ]
}
check_or_show "--drop 1/50: dropped_ts 1..7 x dropped, every TS packet sent read, nothing reordered" \
	dgrams -- "$d" "$W/drop.r"
rtcp_ok() {
	[ "$(val "$W/drop.r" rtcp)" -gt 5 ] && [ "$(val "$d" rtcp_sent)" -gt 5 ] &&
		says "$(val "$W/drop.r" fmtp)" 1 -gt 0 -gt 0 &&
		[ "$(val "$W/drop.r" ses1)" != "" ]
}
check_or_show "without --no-rtcp, --level-zero: RTCP with SES1, DESCRIBE lock 1, level > 0" \
	rtcp_ok -- "$W/drop.r"
n_drop=$(val "$d" dropped)
rtspc "$Q" play "$C&pids=$S601" 3 "$W/droptcp.ts" --tcp --status "$W/droptcp.st" \
	>"$W/droptcp.rlog" 2>&1
tcp_lossless() { whole droptcp "$S601" && [ "$(val "$d" dropped)" = "$n_drop" ]; }
check_or_show "--drop: nothing lost interleaved (TCP): exactly PIDs $S601, no gap" \
	tcp_lossless -- "$W/droptcp.ts.0.why" "$W/droptcp.st"

loss_run reorder --reorder 1/40 --seed 5
r=$W/reorder.st
swapped() { gaps_are "65536 * $(val "$r" reordered)" reorder && [ "$(val "$r" dropped)" = 0 ]; }
check_or_show "--reorder 1/40: rtspc's seq_gaps = 65536 x reordered (> 0), nothing dropped" \
	swapped -- "$W/reorder.r" "$r"

loss_run both --drop 2/100 --reorder 1/30 --seed 9
b=$W/both.st
check_or_show "--drop 2/100 --reorder 1/30: seq_gaps = dropped + 65536 x reordered" \
	gaps_are "$(val "$b" dropped) + 65536 * $(val "$b" reordered)" both -- "$W/both.r" "$b"

# ---- 5. --kill-after ---------------------------------------------------------------

start_q kill --kill-after 2
pk=$qpid
rtspc "$Q" play "$C&pids=0" 4 "$W/kill.ts" >"$W/kill.rlog" 2>&1
rk=$?
killed() {
	gone "$pk" && wait "$pk" && [ "$(val "$W/kill.st" killed)" = 1 ] &&
		[ "$(val "$W/kill.st" sessions)" = 1 ] && [ "$rk" != 0 ] &&
		[ "$(val "$W/kill.st" teardowns)" = 0 ]
}
check_or_show "--kill-after 2: gone during a session (rtspc fails), exit 0, killed=1" \
	killed -- "$W/kill.rlog" "$W/kill.st" "$W/kill.log"

# ---- 6. SSDP: in a network namespace of its own (root), the group routed on lo ----

cat >"$W/msearch.py" <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
s.bind(("127.0.0.1", 0))
s.settimeout(1.5)
s.sendto(("M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\n"
          "MX: 1\r\nST: %s\r\n\r\n" % sys.argv[1]).encode(), ("239.255.255.250", 1900))
try:
    while True:
        print(s.recvfrom(2048)[0].decode("latin-1").replace("\r\n", "\n"))
except socket.timeout:
    pass
PY
ssdp_ns() {
	ip link set lo up && ip route add 239.255.255.250/32 dev lo || return 1
	: >"$W/ssdp.out"
	python3 "$HERE/quirky.py" --upstream 127.0.0.1:9 --port 5540 --ssdp -v \
		>"$W/ssdp.out" 2>"$W/ssdp.log" &
	within 10 grep -q "^http_port=" "$W/ssdp.out"
	sleep 0.5	# its NOTIFYs are out, it listens
	python3 "$W/msearch.py" urn:ses-com:device:SatIPServer:1 >"$W/ssdp-st.txt"
	python3 "$W/msearch.py" ssdp:all >"$W/ssdp-all.txt"
	curl -s --max-time 5 http://127.0.0.1:5541/desc.xml >"$W/ssdp-desc.xml"
	kill $!
}
ssdp_ok() {
	grep -qx "ST: urn:ses-com:device:SatIPServer:1" "$W/ssdp-st.txt" &&
		grep -qx "LOCATION: http://127.0.0.1:5541/desc.xml" "$W/ssdp-st.txt" &&
		grep -qx "X-SATIP-RTSP-Port: 5540" "$W/ssdp-st.txt" &&
		[ "$(grep -c "^ST: " "$W/ssdp-all.txt")" = 3 ] &&
		grep -q "<manufacturer>AVM Berlin</manufacturer>" "$W/ssdp-desc.xml"
}
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v ip >/dev/null; then
	export -f ssdp_ns within
	export HERE W
	timeout 30 unshare -n bash -c ssdp_ns >"$W/ssdp-ns.log" 2>&1
	check_or_show "--ssdp: M-SEARCH answered (the device type; ssdp:all: 3), LOCATION its desc.xml" \
		ssdp_ok -- "$W/ssdp-ns.log" "$W/ssdp-st.txt" "$W/ssdp-all.txt" "$W/ssdp.log"
else
	skip "--ssdp: needs root (unshare -n), ip"
fi

# ---- the end -------------------------------------------------------------------------

stopped() {	# stopped PID: exit 0 on SIGTERM
	kill -TERM "$1"
	within 5 gone "$1" && wait "$1"
}
term_ok() { stopped "$pid_a" && [ -s "$W/avm.st" ]; }
check_or_show "quirky --avm: exit 0 on SIGTERM, stats written" term_ok -- "$W/avm.log"
qlogs=("$W/avm.log" "$W/drop.log" "$W/reorder.log" "$W/both.log" "$W/kill.log")
[ -f "$W/ssdp.log" ] && qlogs+=("$W/ssdp.log")
if grep -q "Traceback" "${qlogs[@]}"; then
	fail "a Python traceback in quirky's logs"
	show "${qlogs[@]}"
else
	ok "no Python traceback in quirky's logs"
fi
if [ "$failed" -gt 0 ]; then
	echo "# quirky --avm's log:"
	show "$W/avm.log"
fi
echo "# $(since) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
