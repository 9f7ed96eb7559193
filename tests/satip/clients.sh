#!/bin/bash
# tests/satip/clients.sh - vtunerd's SAT>IP server (--satip) with real
# SAT>IP clients on the host: the ASan + UBSan vtunerd, its simulated
# tuners behind a universal LNB, on loopback.
#
#   ffmpeg (UDP, TCP) ─┐
#   VLC (as nobody) ───┤               ┌─ A: --sim-tuners 4
#   curl (HTTP) ───────┼── RTSP/HTTP ──┤
#   rtspc.py ──────────┘   RTP, RTCP   └─ B: --sim-tuners 1 (sharing)
#
# * ffmpeg (satip_raw, RTP over UDP and interleaved in RTSP), VLC (its
#   satip access, the raw stream dumped) and curl (GET /?query) record the
#   DVB-S2 service 101 and the DVB-T service 402: each recording holds
#   exactly the PIDs asked for, each at the rate the simulator sends it
#   (PID 0's PAT, ten a second, is the clock), without a continuity error,
#   and ffprobe finds that programme's video and audio;
# * desc.xml is well-formed XML with X_SATIPCAP;
# * DESCRIBE's a=fmtp and RTCP's APP SES1 report lock 1, level and quality
#   above 0 on a transponder, lock 0 (and empty RTP packets) where there
#   is none;
# * one tuner, two sessions on its transponder with their own PIDs, one
#   changing them (addpids, delpids): each gets exactly its PIDs; a third
#   session on another transponder: 503 No-More: frontends;
# * a session ends at TEARDOWN, an interleaved one when its connection
#   closes, a UDP one whose client vanished at its timeout (20 s): the
#   tuner is free again;
# * 1000 malformed requests and a slow-loris peer meanwhile: every request
#   gets a status or a close, the slow one is closed, a normal client
#   beside them gets its stream whole;
# * no sanitizer report, exit 0 on SIGTERM.
# Usage: clients.sh BUILD_DIR (needs $B/san/server/vtunerd: make san;
# $B/tests/tuner/vt-tscheck, $B/tests/server/vtunerd-probe; ffmpeg,
# ffprobe, cvlc, curl).  KEEP=1 keeps the work directory.
# Ends with one line "N passed, N failed".
set -uo pipefail
B=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
VTD=${VTD:-$B/san/server/vtunerd}	# VTD=: another build, to try
TSCHECK=$B/tests/tuner/vt-tscheck
PROBE=$B/tests/server/vtunerd-probe
# the plain build: under LeakSanitizer, vtunerc's exit can hang in LSan's
# stop-the-world (seen once, 100 % CPU, its tracer in do_wait)
VTC=${VTC:-$B/client/vtunerc}
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-satip.XXXXXX")
PORT=$((20000 + $$ % 20000))
T0=$(date +%s)
pid_a=
pid_b=

cleanup() {
	exec 2>/dev/null	# no "Killed" lines from the shell
	[ -n "$pid_a" ] && kill -9 "$pid_a"
	[ -n "$pid_b" ] && kill -9 "$pid_b"
	jobs -p | xargs -r kill -9
	if [ -n "${KEEP:-}" ]; then echo "# kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT

# shellcheck source=tests/tap.sh
. "$HERE/../tap.sh"
# shellcheck source=tests/satip/lib.sh
. "$HERE/lib.sh"
need_san "$VTD" "$TSCHECK" "$PROBE"
for p in ffmpeg ffprobe cvlc curl runuser; do
	if ! command -v "$p" >/dev/null; then
		fail "$p missing (apt-get install ffmpeg vlc-bin vlc-plugin-base curl)"
		echo "$passed passed, $failed failed"
		exit 1
	fi
done

# The simulator's transponders (src/server/sim/world.c) as SAT>IP queries:
# the DVB-S2 one behind the universal LNB (high band, horizontal), the
# DVB-T one, another DVB-S2 one (vertical, at DiSEqC position B), nothing
# (11400 H), and two more for the ends of sessions: DVB-S (low band,
# vertical) and DVB-C.
S2='src=1&freq=11362&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=off&sr=22000&fec=23'
S2V='src=2&freq=12188&pol=v&ro=0.20&msys=dvbs2&mtype=qpsk&plts=off&sr=27500&fec=34'
NONE='src=1&freq=11400&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=off&sr=22000&fec=23'
DVBT='freq=506&bw=8&msys=dvbt&tmode=8k&mtype=64qam&gi=14&fec=23'
S1='src=1&freq=10847&pol=v&ro=0.35&msys=dvbs&mtype=qpsk&sr=22000&fec=56'
C='freq=346&msys=dvbc&sr=6900&mtype=256qam'
# Services: PMT at 0x100 + 0x10 * n, video +1, audio +2 (n: 0, 1, 2 on
# the transponder).  The rates in TS packets a second: PAT and PMT 10
# (every 100 ms), video 25 frames of round(bitrate / 37600) packets,
# audio (MP2, 192 kbit/s, two frames a PES) 7 packets every 48 ms.
S101='0,256,257,258'
R101='0:10 256:10 257:5325 258:146'	# 8 Mbit/s video
S102='0,272,273,274'
R102='0:10 272:10 273:4000 274:146'	# 6 Mbit/s
S402=$S102
R402='0:10 272:10 273:2000 274:146'	# 3 Mbit/s

# ---- helpers ---------------------------------------------------------------

# probe_prog FILE SID: ffprobe finds programme SID, a video and an audio stream
probe_prog() {
	ffprobe -v error -show_entries program=program_id:stream=codec_type \
		-of default=nw=1 "$1" >"$1.probe" 2>&1
	grep -qx "program_id=$2" "$1.probe" &&
		grep -qx "codec_type=video" "$1.probe" &&
		grep -qx "codec_type=audio" "$1.probe"
}
# recorded NAME PIDS RATES SID: both checks on $W/NAME.ts
recorded() {
	local f=$W/$1.ts

	check_or_show "$1: exactly PIDs $2, each at its rate, no continuity error" \
		ts_pids "$f" "$3" -- "$f.why" "$W/$1.log"
	check_or_show "$1: ffprobe finds programme $4's video and audio" \
		probe_prog "$f" "$4" -- "$f.probe"
}
# ffmpeg_rec NAME SERVER QUERY TRANSPORT SECONDS: in the background
ffmpeg_rec() {
	timeout -s INT "$5" ffmpeg -nostdin -hide_banner -loglevel warning \
		-rtsp_flags satip_raw -rtsp_transport "$4" \
		-i "satip://$2/?$3" -map 0 -c copy -f data -y "$W/$1.ts" \
		>"$W/$1.log" 2>&1 &
	bgp+=($!)
}
# vlc_rec NAME SERVER QUERY SECONDS: VLC (as nobody: it refuses root),
# the raw TS of its satip access dumped; SIGTERM ends it (with TEARDOWN)
vlc_rec() {
	local as=()

	[ "$(id -u)" = 0 ] && as=(runuser -u nobody --)
	"${as[@]}" env HOME="$W/vlc" timeout -s TERM "$4" \
		cvlc -I dummy --demux dump --demuxdump-file "$W/vlc/$1.ts" \
		"satip://$2/?$3" >"$W/$1.log" 2>&1
	cp "$W/vlc/$1.ts" "$W/$1.ts" 2>/dev/null
}
# fmtp_ok STRING LOCK: its tuner= field has lock LOCK, and level and
# quality above 0 when locked
tuner_says() {
	local lock level quality

	read -r lock level quality < <(rtspc - status "$1") || return 1
	[ "$lock" = "$2" ] || return 1
	[ "$2" = 0 ] || { [ "$level" -gt 0 ] && [ "$quality" -gt 0 ]; }
}
val() { sed -n "s/^$2=//p" "$W/$1.st"; }	# val NAME KEY: of rtspc's status
tuner_free() {	# tuner_free SERVER_PORT FE: vtp's LIST_TUNERS says it is free
	"$PROBE" -s "127.0.0.1:$(($1 + 1))" -l 2>/dev/null | grep -q "^$(($2 - 1))"$'\tfree'
}
busy_then() { grep -q "^$(($(fe_of "$1") - 1))"$'\tbusy' "$W/$1.busy"; }
fe_of() { val "$1" ses1 | sed -n 's/.*tuner=\([0-9]*\),.*/\1/p'; }
since() { echo $(($(date +%s) - T0)); }
bgp=()
bg() { "$@" & bgp+=($!); }	# bg COMMAND...: a client in the background
wait_bg() {	# wait for the clients started with bg (not the servers)
	local p

	for p in "${bgp[@]}"; do wait "$p"; done
	bgp=()
}

# ---- the servers ------------------------------------------------------------

check_or_show "vtunerd A (ASan + UBSan, 4 sim tuners) serves SAT>IP" \
	start_vtd a --sim-tuners 4 -- "$W/a.log"
A=127.0.0.1:$port
pa=$port
pid_a=$pid
check_or_show "vtunerd B (1 sim tuner) serves SAT>IP" \
	start_vtd b --sim-tuners 1 --satip-timeout 20 -- "$W/b.log"
SB=127.0.0.1:$port
VB=127.0.0.1:$((port + 1))	# its vtp listener
pid_b=$pid
if [ -z "$pid_a" ] || [ -z "$pid_b" ] || ! kill -0 "$pid_a" || ! kill -0 "$pid_b"; then
	echo "$passed passed, $failed failed"
	exit 1
fi

# ---- 1. ffmpeg, RTP over UDP; on B meanwhile, sharing (5) ----------------

ffmpeg_rec ff-udp-s2 "$A" "$S2&pids=$S101" udp 5
ffmpeg_rec ff-udp-t "$A" "$DVBT&pids=$S402" udp 5
# B, one tuner: ffmpeg with service 101's PIDs; rtspc beside it with 102's,
# adding service 103's audio (290) at 1.6 s, dropping 102's video at 3.3
# s, and vanishing at 5 s without TEARDOWN
ffmpeg_rec sh-ff "$SB" "$S2&pids=$S101" udp 6
sleep 0.5
rtspc "$SB" play "$S2&pids=$S102" 5 "$W/sh-rc.ts" --status "$W/sh-rc.st" \
	--change 1.6:addpids=290 --change 3.3:delpids=273 --vanish \
	>"$W/sh-rc.log" 2>&1
vanished=$(date +%s)
# a third session, another transponder: no tuner left
rtspc "$SB" setup "$S2V&pids=0" >"$W/sh-3.log" 2>&1
wait_bg
recorded ff-udp-s2 "$S101" "$R101" 101
recorded ff-udp-t "$S402" "$R402" 402
recorded sh-ff "$S101" "$R101" 101
changed() {
	[ "$(val sh-rc setup)" = 200 ] && [ "$(val sh-rc change1)" = 200 ] &&
		[ "$(val sh-rc change2)" = 200 ] && [ "$(val sh-rc phases)" = 3 ]
}
check_or_show "sharing: rtspc beside ffmpeg, SETUP, PLAY addpids, PLAY delpids: 200" \
	changed -- "$W/sh-rc.st" "$W/sh-rc.log" "$W/b.log"
check_or_show "sharing: rtspc's PIDs before addpids: exactly $S102" \
	ts_pids "$W/sh-rc.ts.0" "$R102" -- "$W/sh-rc.ts.0.why"
check_or_show "sharing: after addpids=290: exactly $S102,290" \
	ts_pids "$W/sh-rc.ts.1" "$R102 290:146" -- "$W/sh-rc.ts.1.why"
check_or_show "sharing: after delpids=273: exactly 0,272,274,290" \
	ts_pids "$W/sh-rc.ts.2" "0:10 272:10 274:146 290:146" -- "$W/sh-rc.ts.2.why"
no_loss() { [ "$(val "$1" seq_gaps)" = 0 ] && [ "$(val "$1" bad_rtp)" = 0 ]; }
check_or_show "sharing: no RTP datagram lost, none malformed" \
	no_loss sh-rc -- "$W/sh-rc.st"
third_503() { grep -qx "status 503" "$W/sh-3.log" && grep -qix "no-more: frontends" "$W/sh-3.log"; }
check_or_show "sharing: a third session on another transponder: 503, No-More: frontends" \
	third_503 -- "$W/sh-3.log"

# ---- 1b. ffmpeg, RTP interleaved in RTSP -------------------------------------

ffmpeg_rec ff-tcp-s2 "$A" "$S2&pids=$S101" tcp 5
ffmpeg_rec ff-tcp-t "$A" "$DVBT&pids=$S402" tcp 5
# B: ffmpeg has gone (TEARDOWN), the vanished session holds the tuner
rtspc "$SB" setup "$S2V&pids=0" >"$W/sh-4.log" 2>&1
wait_bg
recorded ff-tcp-s2 "$S101" "$R101" 101
recorded ff-tcp-t "$S402" "$R402" 402
check_or_show "a UDP session whose client vanished keeps its tuner (until its timeout)" \
	grep -qx "status 503" "$W/sh-4.log" -- "$W/sh-4.log"

# ---- 2. VLC --------------------------------------------------------------------

mkdir -p "$W/vlc"
chmod 711 "$W"
chown nobody "$W/vlc"
bg vlc_rec vlc-s2 "$A" "$S2&pids=$S101" 5
bg vlc_rec vlc-t "$A" "$DVBT&pids=$S402" 5
wait_bg
recorded vlc-s2 "$S101" "$R101" 101
recorded vlc-t "$S402" "$R402" 402

# ---- 3. HTTP -------------------------------------------------------------------

bg curl -s --max-time 4 "http://$A/?$DVBT&pids=$S402" -o "$W/http-t.ts"
bg curl -s --max-time 4 "http://$A/?$S2&pids=$S101" -o "$W/http-s2.ts"
desc_xml() {
	curl -s --max-time 5 -D "$W/desc.hdr" "http://$A/desc.xml" -o "$W/desc.xml" &&
		python3 -c 'import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
c = [e.firstChild.data for e in d.getElementsByTagName("satip:X_SATIPCAP")]
print(c)
import re
sys.exit(0 if c and re.fullmatch(r"DVB[A-Z0-9]+-\d+(,DVB[A-Z0-9]+-\d+)*", c[0]) else 1)' \
			"$W/desc.xml" >"$W/desc.out" 2>&1 &&
		grep -qi "^X-SATIP-RTSP-Port: $pa" "$W/desc.hdr"
}
check_or_show "GET /desc.xml: well-formed XML with X_SATIPCAP, X-SATIP-RTSP-Port" \
	desc_xml -- "$W/desc.hdr" "$W/desc.out" "$W/desc.xml"
wait_bg
recorded http-t "$S402" "$R402" 402
recorded http-s2 "$S101" "$R101" 101

# ---- 4. DESCRIBE and RTCP follow the simulator -------------------------------

bg rtspc "$A" play "$S2&pids=0" 2.5 "$W/st-s2.ts" --describe 1.5 \
	--status "$W/st-s2.st" >"$W/st-s2.log" 2>&1
bg rtspc "$A" play "$DVBT&pids=0" 2.5 "$W/st-t.ts" --describe 1.5 \
	--status "$W/st-t.st" >"$W/st-t.log" 2>&1
bg rtspc "$A" play "$NONE&pids=0" 2.5 "$W/st-no.ts" --describe 1.5 \
	--status "$W/st-no.st" >"$W/st-no.log" 2>&1
wait_bg
locked() {	# locked NAME VER
	[ "$(val "$1" describe)" = 200 ] &&
		val "$1" fmtp | grep -q "^ver=$2;" &&
		tuner_says "$(val "$1" fmtp)" 1 && tuner_says "$(val "$1" ses1)" 1
}
check_or_show "DVB-S2 11362 H: DESCRIBE's fmtp and RTCP's SES1 say lock 1, level and quality > 0" \
	locked st-s2 1.0 -- "$W/st-s2.st" "$W/st-s2.log"
check_or_show "DVB-T 506 MHz: DESCRIBE (ver=1.1) and SES1 say lock 1, level and quality > 0" \
	locked st-t 1.1 -- "$W/st-t.st" "$W/st-t.log"
unlocked() {
	[ "$(val st-no setup)" = 200 ] && [ "$(val st-no describe)" = 200 ] &&
		tuner_says "$(val st-no fmtp)" 0 && tuner_says "$(val st-no ses1)" 0 &&
		[ "$(val st-no ts)" = 0 ] && [ "$(val st-no rtp_empty)" -ge 5 ]
}
check_or_show "11400 H (no transponder): lock 0 in fmtp and SES1, empty RTP packets, no TS" \
	unlocked -- "$W/st-no.st" "$W/st-no.log"
# SAT>IP: "at least every 100 ms" (50 ms of slack for the sanitizers)
empty_often() { [ "$(val st-no rtp_empty)" -ge 5 ] && [ "$(val st-no rtp_gap_ms)" -le 150 ]; }
check_or_show "no signal: an empty RTP packet at least every 100 ms" \
	empty_often -- "$W/st-no.st"
errors() {
	{
		rtspc "$A" expect 404 DESCRIBE BASE/stream=999 &&
			rtspc "$A" expect 454 PLAY BASE/stream=1 "Session: 1234567" &&
			rtspc "$A" expect 461 SETUP "BASE/?$DVBT&pids=0" \
				"Transport: RTP/AVP;unicast" &&
			rtspc "$A" expect 400 SETUP "BASE/?freq=abc&msys=dvbt&pids=0" \
				"Transport: RTP/AVP;unicast;client_port=40000-40001"
	} >"$W/errors.log" 2>&1
}
check_or_show "DESCRIBE unknown stream 404, PLAY unknown session 454, no client_port 461, bad freq 400" \
	errors -- "$W/errors.log"

# ---- 6. the end of sessions ----------------------------------------------------

# each while the session plays: its tuner is busy (vtp's LIST_TUNERS),
# asked once vtunerd has set the session up (rtspc, Python, may take
# more than a second to start beside the VMs of make check)
setups() { grep -c "SAT>IP session .*: SETUP .*: 200" "$W/a.log" || true; }
set_up_after() { [ "$(setups)" -gt "$1" ]; }	# set_up_after N: a SETUP more
n=$(setups)
bg rtspc "$A" play "$S1&pids=0" 3 "$W/td.ts" --status "$W/td.st" 2>"$W/td.log"
within 10 set_up_after "$n"
sleep 0.3
"$PROBE" -s "127.0.0.1:$((pa + 1))" -l >"$W/td.busy" 2>&1
wait_bg
td() {
	[ "$(val td teardown)" = 200 ] && [ -n "$(fe_of td)" ] &&
		busy_then td &&
		grep -q "SAT>IP session $(val td session) .*: TEARDOWN" "$W/a.log" &&
		within 3 tuner_free "$pa" "$(fe_of td)"
}
check_or_show "TEARDOWN ends the session, its tuner is free" td -- "$W/td.st" \
	"$W/td.busy" "$W/a.log"
n=$(setups)
bg rtspc "$A" play "$C&pids=0" 3 "$W/tcpgone.ts" --tcp --vanish \
	--status "$W/tcpgone.st" 2>"$W/tcpgone.log"
within 10 set_up_after "$n"
sleep 0.3
"$PROBE" -s "127.0.0.1:$((pa + 1))" -l >"$W/tcpgone.busy" 2>&1
wait_bg
tcpgone() {
	[ "$(val tcpgone setup)" = 200 ] && [ "$(val tcpgone ts)" -gt 0 ] &&
		[ -n "$(fe_of tcpgone)" ] && busy_then tcpgone &&
		within 3 grep -q "SAT>IP session $(val tcpgone session) .*: connection closed" "$W/a.log" &&
		within 3 tuner_free "$pa" "$(fe_of tcpgone)"
}
check_or_show "an interleaved session ends when its RTSP connection closes: its tuner is free" \
	tcpgone -- "$W/tcpgone.st" "$W/tcpgone.busy" "$W/a.log"

# ---- 6b. malformed requests and a slow-loris peer beside a client ------------

rtspc "$A" fuzz 1000 "$$" --src 127.0.0.3 >"$W/fuzz.log" 2>&1 &
fz=$!
rtspc "$A" loris 15 --src 127.0.0.2 >"$W/loris.log" 2>&1 &
lr=$!
sleep 1
rtspc "$A" play "$S2&pids=$S101" 4 "$W/beside.ts" --status "$W/beside.st" \
	>"$W/beside.log" 2>&1
beside_ok() { [ "$(val beside teardown)" = 200 ] && ts_pids "$W/beside.ts.0" "$R101"; }
check_or_show "a client beside the flood and the slow-loris peer: its PIDs whole" \
	beside_ok -- "$W/beside.st" "$W/beside.ts.0.why"
check_or_show "1000 malformed requests: each answered with a status or closed" \
	wait "$fz" -- "$W/fuzz.log"
sed 's/^/# /' "$W/fuzz.log" | tail -n 2
loris_ok() {
	wait "$lr" && awk '/^closed after/ { exit !($3 <= 12) }' "$W/loris.log" &&
		grep -q "127.0.0.2:.* not complete within" "$W/a.log"
}
check_or_show "a slow-loris peer (a byte a second) is closed within 12 s" \
	loris_ok -- "$W/loris.log"
alive() { kill -0 "$pid_a" && rtspc "$A" expect 200 OPTIONS BASE/ >/dev/null; }
check_or_show "vtunerd A still serves after them" alive -- "$W/a.log"

# ---- 6c. the vanished UDP session on B, reaped at its timeout ---------------

reaped() { grep -q "SAT>IP session $(val sh-rc session) .*: timeout" "$W/b.log"; }
left=$((vanished + 30 - $(date +%s)))
[ "$left" -ge 2 ] || left=2
check_or_show "the vanished UDP session is ended at its timeout (--satip-timeout 20)" \
	within "$left" reaped -- "$W/b.log"
rtspc "$SB" setup "$S2V&pids=0" >"$W/sh-5.log" 2>&1
check_or_show "then its tuner takes a session on another transponder" \
	grep -qx "status 200" "$W/sh-5.log" -- "$W/sh-5.log"

# ---- 5b. two SAT>IP sessions and a vtunerc client share B's tuner ---------------

# DVB-T 506 (no SEC: vtunerc --sink tunes with properties only): ffmpeg
# with service 401, rtspc with 402 adding 403's PMT at 1.5 s and dropping
# 402's video at 3 s, vtunerc (tuner 0 named: the list says it is busy)
# with 403 (radio) throughout; a fourth session elsewhere gets 503
S401='0,256,257,258'
R401='0:10 256:10 257:2660 258:146'
S403='0,288,290'
R403='0:10 288:10 290:146'
ffmpeg_rec t3-ff "$SB" "$DVBT&pids=$S401" udp 7
ff_on() { [ "$(grep -c "SAT>IP session .*: tuner 0 (sim0), 1 stream" "$W/b.log")" -gt "$1" ]; }
within 5 ff_on "$(grep -c "SAT>IP session .*: tuner 0 (sim0), 1 stream" "$W/b.log")"
bg timeout -k 3 -s TERM 5 "$VTC" -s "$VB" -t 0 --sink "$W/t3-vc.ts" -f \
	--tune DELIVERY_SYSTEM=DVBT,FREQUENCY=506000000,BANDWIDTH_HZ=8000000 \
	--pids "$S403" >"$W/t3-vc.log" 2>&1
sleep 0.5
fourth() { sleep 2.5; rtspc "$SB" setup "$S2&pids=0" >"$W/t3-4th.log" 2>&1; }
bg fourth	# while the three share the tuner
rtspc "$SB" play "$DVBT&pids=$S402" 5 "$W/t3-rc.ts" --status "$W/t3-rc.st" \
	--change 1.5:addpids=288 --change 3:delpids=273 >"$W/t3-rc.log" 2>&1
wait_bg
recorded t3-ff "$S401" "$R401" 401
t3_changed() {
	[ "$(val t3-rc setup)" = 200 ] && [ "$(val t3-rc change1)" = 200 ] &&
		[ "$(val t3-rc change2)" = 200 ] && [ "$(val t3-rc phases)" = 3 ]
}
check_or_show "sharing with vtunerc: rtspc's SETUP, PLAY addpids, PLAY delpids: 200" \
	t3_changed -- "$W/t3-rc.st" "$W/t3-rc.log" "$W/b.log"
check_or_show "sharing with vtunerc: rtspc before addpids: exactly $S402" \
	ts_pids "$W/t3-rc.ts.0" "$R402" -- "$W/t3-rc.ts.0.why"
check_or_show "sharing with vtunerc: rtspc after addpids=288: exactly $S402,288" \
	ts_pids "$W/t3-rc.ts.1" "$R402 288:10" -- "$W/t3-rc.ts.1.why"
check_or_show "sharing with vtunerc: rtspc after delpids=273: exactly 0,272,274,288" \
	ts_pids "$W/t3-rc.ts.2" "0:10 272:10 274:146 288:10" -- "$W/t3-rc.ts.2.why"
check_or_show "sharing with vtunerc: no RTP datagram lost, none malformed" \
	no_loss t3-rc -- "$W/t3-rc.st"
vc_shared() { grep -q "tuner 0 (sim0, .*) opened, shared with SAT>IP" "$W/b.log"; }
check_or_show "vtunerc opened the tuner the SAT>IP sessions hold, shared" \
	vc_shared -- "$W/t3-vc.log" "$W/b.log"
check_or_show "vtunerc: exactly PIDs $S403 at their rates, no continuity error, while the others changed theirs" \
	ts_pids "$W/t3-vc.ts" "$R403" -- "$W/t3-vc.ts.why" "$W/t3-vc.log"
fourth_503() { grep -qx "status 503" "$W/t3-4th.log" && grep -qix "no-more: frontends" "$W/t3-4th.log"; }
check_or_show "sharing with vtunerc: a fourth session on another transponder: 503" \
	fourth_503 -- "$W/t3-4th.log"

# ---- 5c. the other way round: a vtunerc client's tuner, then SAT>IP --------------

# B's tuner was last tuned by SAT>IP elsewhere (S2 12188 V, 6c): a vtunerc
# client tunes DVB-T 506 alone, then two SAT>IP sessions come for it
n_lock=$(grep -c "sim0: locked on T 506" "$W/b.log")
n_shared=$(grep -c "now shared with SAT>IP sessions" "$W/b.log")
# (it stays until the SAT>IP sessions are done: a loaded host may take
# seconds between the lock and the sessions)
timeout -k 3 -s TERM 30 "$VTC" -s "$VB" -t 0 --sink "$W/t4-vc.ts" -f \
	--tune DELIVERY_SYSTEM=DVBT,FREQUENCY=506000000,BANDWIDTH_HZ=8000000 \
	--pids "$S403" >"$W/t4-vc.log" 2>&1 &
t4vc=$!
vc_locked() { [ "$(grep -c "sim0: locked on T 506" "$W/b.log")" -gt "$n_lock" ]; }
within 5 vc_locked
rtspc "$SB" play "$DVBT&pids=$S401" 1 "$W/t4-a.ts" --status "$W/t4-a.st" >"$W/t4-a.log" 2>&1 &
t4a=$!
sleep 0.3
rtspc "$SB" setup "$DVBT&pids=$S402" >"$W/t4-b.log" 2>&1
wait "$t4a"
sleep 0.5
kill -TERM "$t4vc" 2>/dev/null || true
wait "$t4vc" || true
t4_ok() {
	[ "$(grep -c "now shared with SAT>IP sessions" "$W/b.log")" -gt "$n_shared" ] &&
		[ "$(val t4-a setup)" = 200 ] && grep -qx "status 200" "$W/t4-b.log"
}
check_or_show "a vtunerc client's tuner: two SAT>IP sessions on its transponder share it (200, 200)" \
	t4_ok -- "$W/t4-a.st" "$W/t4-b.log" "$W/b.log"
check_or_show "the vtunerc client keeps exactly its PIDs while they join" \
	ts_pids "$W/t4-vc.ts" "$R403" -- "$W/t4-vc.ts.why" "$W/t4-vc.log"

# ---- the end -------------------------------------------------------------------

stopped() {	# stopped PID: exit 0 on SIGTERM within 10 s
	kill -TERM "$1"
	for _ in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	wait "$1"
}
check_or_show "vtunerd A: exit 0 on SIGTERM" stopped "$pid_a" -- "$W/a.log"
pid_a=
check_or_show "vtunerd B: exit 0 on SIGTERM" stopped "$pid_b" -- "$W/b.log"
pid_b=
reports=$(ls "$W"/asan.* "$W"/ubsan.* 2>/dev/null)
if [ -z "$reports" ] &&
   ! cat "$W"/a.log "$W"/b.log | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"; then
	ok "no sanitizer report"
else
	fail "sanitizer reports"
	# shellcheck disable=SC2086
	show $reports "$W/a.log" "$W/b.log"
fi
if [ "$failed" -gt 0 ]; then
	echo "# vtunerd A's log:"
	show "$W/a.log"
	echo "# vtunerd B's log:"
	show "$W/b.log"
fi
echo "# $(since) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
