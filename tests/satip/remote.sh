#!/bin/bash
# tests/satip/remote.sh - vtunerc --satip (the SAT>IP remote) on the host,
# without the module: vtunerc --sink records what the remote delivers.
#
#   vtunerc --satip --sink ──RTSP, RTP/RTCP──► vtunerd --satip --sim
#   vtunerc --satip --sink ──► quirky.py (AVM-like) ──HTTP──► vtunerd
#
# * against vtunerd, RTP over UDP and interleaved in RTSP (--satip-tcp):
#   the recording holds exactly the PIDs asked for, each at its rate, no
#   continuity error; the status file says locked, with signal and CNR
#   from RTCP; the adapter's name and systems come from desc.xml; RTP on
#   the ports of --satip-ports, none taken from a stranger sending there;
# * against a server with every quirk of a FRITZ!Box Cable (no addpids,
#   no pids=all, PIDs required in SETUP, no RTCP, level 0 while locked,
#   a 30 s timeout made 3 s here): the quirks are chosen from its
#   desc.xml, status comes from DESCRIBE (locked though level 0), and the
#   session is kept alive past its timeout;
# * datagrams dropped and swapped on purpose (quirky --drop, --reorder):
#   the datagrams and TS packets vtunerc reports lost equal those the
#   server dropped, the swapped ones are put back in order (reported
#   reordered, no continuity error but at the drops);
# * the server expires the session (SIGUSR1: 454 next) and is killed and
#   restarted: vtunerc sets the stream up again by itself, and TS flows;
# * no sanitizer report (vtunerc with ASan + UBSan), exit 0 on SIGTERM.
# Usage: remote.sh BUILD_DIR (needs $B/san/client/vtunerc: make san;
# $B/server/vtunerd, $B/tests/tuner/vt-tscheck).  KEEP=1 keeps the work
# directory.  Ends with one line "N passed, N failed".
set -uo pipefail
B=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
VTD=${VTD:-$B/server/vtunerd}
VTC=${VTC:-$B/san/client/vtunerc}
TSCHECK=$B/tests/tuner/vt-tscheck
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-satipc.XXXXXX")
PORT=$((20000 + ($$ * 7) % 20000))
pids=()

cleanup() {
	exec 2>/dev/null
	local p
	for p in "${pids[@]}"; do kill -9 "$p"; done
	jobs -p | xargs -r kill -9
	if [ -n "${KEEP:-}" ]; then echo "# kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT

# shellcheck source=tests/tap.sh
. "$HERE/../tap.sh"
# shellcheck source=tests/satip/lib.sh
. "$HERE/lib.sh"
need_san "$VTC" "$TSCHECK"
# vtunerc's exit can hang in LeakSanitizer's stop-the-world (seen in
# clients.sh): ASan and UBSan, without the leak check
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=0:log_path=$W/asan"

T='DELIVERY_SYSTEM=DVBT,FREQUENCY=506000000,BANDWIDTH_HZ=8000000'
C='DELIVERY_SYSTEM=DVBC/ANNEX_A,FREQUENCY=346000000,SYMBOL_RATE=6900000,MODULATION=QAM_256'
# the sim's services (clients.sh): DVB-T 402 (3 Mbit/s), DVB-C 601 (8)
P402='0,272,273,274'
R402='0:10 272:10 273:2000 274:146'
P601='0,256,257,258'
R601='0:10 256:10 257:5325 258:146'

# vtc NAME SECONDS ARGS...: vtunerc --satip --sink $W/NAME.ts for SECONDS,
# then SIGTERM (--stop-first PID: SIGUSR1 to quirky PID 0.5 s before); log $W/NAME.log, status file $W/NAME.st (a copy taken
# just before the end: $W/NAME.st.last); $W/NAME.rc its exit status
vtc() {
	local name=$1 secs=$2 p

	shift 2
	local args=() stop_first=
	while [ $# -gt 0 ]; do
		if [ "$1" = --stop-first ]; then
			stop_first=$2
			shift 2
			continue
		fi
		args+=("$1")
		shift
	done
	"$VTC" -v -v --sink "$W/$name.ts" --status-file "$W/$name.st" "${args[@]}" \
		>"$W/$name.log" 2>&1 &
	p=$!
	pids+=("$p")
	sleep "$secs"
	if [ "${stop_first:-}" ]; then
		kill -USR1 "$stop_first"
		sleep 0.5
	fi
	cp "$W/$name.st" "$W/$name.st.last" 2>/dev/null
	kill -TERM "$p"
	wait "$p"
	echo $? >"$W/$name.rc"
}
st() { sed -n "s/^$2: //p" "$W/$1.st.last"; }	# st NAME KEY
rc0() { [ "$(cat "$W/$1.rc")" = 0 ]; }
# the exit summary: "SAT>IP: D datagrams, L lost (T TS packets), R reordered"
summary() { sed -n 's/.*SAT>IP: \([0-9]*\) datagrams, \([0-9]*\) lost (\([0-9]*\) TS packets), \([0-9]*\) reordered.*/\1 \2 \3 \4/p' "$W/$1.log" | tail -1; }
qstat() { sed -n "s/^$2=//p" "$W/$1.stats"; }	# qstat NAME KEY: quirky's
locked_st() { [ "$(st "$1" lock)" = yes ]; }
sane() { ! ls "$W"/asan.* "$W"/ubsan.* >/dev/null 2>&1; }

# quirky NAME ARGS...: quirky.py in front of vtunerd ($port), its RTSP
# port in $qport, its desc.xml port in $qhttp, pid $qpid
quirky() {
	local name=$1

	shift
	python3 "$HERE/quirky.py" --upstream "127.0.0.1:$port" --port 0 \
		--stats "$W/$name.stats" -v "$@" >"$W/$name.out" 2>"$W/$name.qlog" &
	qpid=$!
	pids+=("$qpid")
	within 10 grep -q '^rtsp_port=' "$W/$name.out" || return 1
	qport=$(sed -n 's/^rtsp_port=//p' "$W/$name.out")
	qhttp=$(sed -n 's/^http_port=//p' "$W/$name.out")
}

if ! start_vtd vtd --sim-tuners 4; then
	fail "vtunerd --satip starts"
	show "$W/vtd.log"
	echo "$passed passed, $failed failed"
	exit 1
fi
ok "vtunerd --satip starts"
pids+=("$pid")
U="rtsp://127.0.0.1:$port/"

# inject PORT SECS: RTP datagrams of TS of PID 0x1234 from a port of our
# own to PORT, twice a second every 16th sequence number (whatever
# vtunerc expects, some fall in its reorder window)
inject() {
	python3 - "$1" "$2" <<'PY'
import socket, struct, sys, time
port, secs = int(sys.argv[1]), float(sys.argv[2])
ts = bytes([0x47, 0x12, 0x34, 0x10]) + bytes(184)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.time() + secs
while time.time() < end:
    for seq in range(0, 65536, 16):
        s.sendto(struct.pack("!BBHII", 0x80, 33, seq, 0, 0x1234) + ts * 7,
                 ("127.0.0.1", port))
    time.sleep(0.5)
PY
}

# ---- vtunerd, UDP and TCP --------------------------------------------------
UP=$((PORT + 100 + PORT % 2))	# an even port for --satip-ports
for mode in udp tcp; do
	extra=()
	[ "$mode" = tcp ] && extra=(--satip-tcp)
	# UDP: its ports given, and a stranger sending to them meanwhile
	if [ "$mode" = udp ]; then
		extra=(--satip-ports "$UP-$((UP + 1))")
		{ sleep 1; inject "$UP" 4; } &
	fi
	vtc "v-$mode" 6 --satip "$U" "${extra[@]}" -D dvbt --tune "$T" --pids "$P402"
	check_or_show "vtunerd, RTP over $mode: exactly the PIDs asked for, at their rates, whole$([ "$mode" = udp ] && echo " (nothing of a stranger's datagrams)")" \
		ts_pids "$W/v-$mode.ts" "$R402" -- "$W/v-$mode.ts.why" "$W/v-$mode.log"
	check_or_show "vtunerd, $mode: the status file says locked, with signal and CNR" \
		eval 'locked_st v-'$mode' && [ "$(st v-'$mode' signal)" != - ] && [ "$(st v-'$mode' cnr)" != - ]' \
		-- "$W/v-$mode.st.last"
	check_or_show "vtunerd, $mode: no datagram lost, none reordered" \
		eval '[ "$(summary v-'$mode' | cut -d" " -f2,4)" = "0 0" ] && [ "$(summary v-'$mode' | cut -d" " -f1)" -gt 100 ]' \
		-- "$W/v-$mode.log"
	check "vtunerd, $mode: exit 0 on SIGTERM" rc0 "v-$mode"
done
check_or_show "the adapter described from desc.xml (the server's name)" \
	grep -q "SAT>IP: 127.0.0.1:$port is 'vtunerd'" "$W/v-udp.log" -- "$W/v-udp.log"
check_or_show "the query has the tuning and the PIDs in SETUP" \
	grep -q "SETUP ?freq=506&msys=dvbt&bw=8&pids=0,272,273,274" "$W/vtd.log" -- "$W/vtd.log"

# ---- quirky: a FRITZ!Box Cable ------------------------------------------
if quirky avm --avm --timeout 3; then
	ok "quirky.py (AVM) starts"
else
	fail "quirky.py (AVM) starts"
	show "$W/avm.qlog"
fi
vtc avm 8 --satip "rtsp://127.0.0.1:$qport/" \
	--satip-desc "http://127.0.0.1:$qhttp/desc.xml" --tune "$C" --pids "$P601"
check_or_show "AVM: its quirks chosen from desc.xml" \
	grep -q "quirks of .*: no-addpids,no-pids-all,describe,setup-pids" "$W/avm.log" -- "$W/avm.log"
check_or_show "AVM: the recording holds the PIDs at their rates, whole" \
	ts_pids "$W/avm.ts" "$R601" -- "$W/avm.ts.why" "$W/avm.log" "$W/avm.qlog"
check_or_show "AVM: no RTCP, level 0: DESCRIBE says locked" \
	eval '[ "$(qstat avm describes)" -ge 3 ] && locked_st avm' -- "$W/avm.st.last" "$W/avm.stats"
check_or_show "AVM: nothing refused, the session kept past its 3 s timeout" \
	eval '[ "$(qstat avm refused)" = 0 ] && [ "$(qstat avm expired)" = 0 ] && [ "$(qstat avm setups)" = 1 ]' \
	-- "$W/avm.stats" "$W/avm.log"
check "AVM: exit 0 on SIGTERM" rc0 avm
kill "$qpid" 2>/dev/null

# the same quirks learnt from the refusals, without desc.xml
if quirky learn --no-addpids --no-pids-all --pids-in-setup; then
	vtc learn 5 --satip "rtsp://127.0.0.1:$qport/" --tune "$C" --pids "$P601,8192"
	check_or_show "no desc.xml: pids=all refused, learnt, the PIDs asked for sent instead" \
		eval 'grep -q "taking it as quirk .no-pids-all." "$W/learn.log" && ts_pids "$W/learn.ts" "$R601"' \
		-- "$W/learn.log" "$W/learn.ts.why"
	check_or_show "... and the status file says so" \
		grep -q "pids_error: the server cannot send the whole TS" "$W/learn.st.last" -- "$W/learn.st.last"
	kill "$qpid" 2>/dev/null
else
	fail "quirky.py (refusals) starts"
fi

# ---- losses and reordering ------------------------------------------------
if quirky loss --drop 1/50 --reorder 1/40 --seed 7; then
	# the stream stopped first (SIGUSR1 expires the session: a datagram
	# quirky holds to drop is sent then), so that both count the same
	# datagrams; vtunerc ends before it finds the session gone
	vtc loss 8 --satip "rtsp://127.0.0.1:$qport/" --tune "$C" --pids "$P601" \
		--stop-first "$qpid"
	read -r dg lost lost_ts reord <<<"$(summary loss)"
	log_line="vtunerc: $dg datagrams, $lost lost ($lost_ts TS), $reord reordered; quirky: dropped $(qstat loss dropped) ($(qstat loss dropped_ts) TS), reordered $(qstat loss reordered)"
	echo "# $log_line"
	check "losses: the datagrams reported lost equal those dropped ($(qstat loss dropped))" \
		eval '[ "${lost:-x}" = "$(qstat loss dropped)" ] && [ "$lost" -gt 5 ]'
	check "losses: the TS packets reported lost equal those dropped ($(qstat loss dropped_ts))" \
		eval '[ "${lost_ts:-x}" = "$(qstat loss dropped_ts)" ]'
	check "losses: the swapped datagrams put back in order ($(qstat loss reordered))" \
		eval '[ "${reord:-x}" = "$(qstat loss reordered)" ] && [ "$reord" -gt 5 ]'
	check_or_show "losses: the status file counts them (lost_ts)" \
		eval '[ "$(st loss lost_ts)" -gt 0 ]' -- "$W/loss.st.last"
	"$TSCHECK" "$W/loss.ts" >"$W/loss.check" 2>&1
	cc=$(sed -n 's/.* cc_errors=\([0-9]*\) .*/\1/p' "$W/loss.check" | tail -1)
	# a datagram lost breaks the continuity of its PIDs, at most two
	# here (video and audio); a swap not undone would add two more each
	check "losses: continuity errors only at the drops (${cc:-?} <= 2 x $(qstat loss dropped))" \
		eval '[ -n "$cc" ] && [ "$cc" -le $((2 * $(qstat loss dropped))) ]'
	kill "$qpid" 2>/dev/null
else
	fail "quirky.py (loss) starts"
fi

# ---- datagrams sent joined (UDP_SEGMENT), of the usual size and not -----------
# vtunerc reads them joined (UDP_GRO): datagrams of 7 TS packets straight
# to their place, others (5 here) joined again and taken one by one; the
# losses and swaps are counted as one by one.
for gso in "7 16" "5 16"; do
	read -r pk n <<<"$gso"
	name=gso$pk
	if ! quirky "$name" --packets "$pk" --gso "$n" --drop 1/50 --reorder 1/40 --seed 5; then
		fail "quirky.py (--packets $pk --gso $n) starts"
		continue
	fi
	vtc "$name" 6 --satip "rtsp://127.0.0.1:$qport/" --tune "$C" --pids "$P601" \
		--stop-first "$qpid"
	read -r dg lost lost_ts reord <<<"$(summary "$name")"
	joined=$(sed -n 's/.* \([0-9]*\) reads of joined datagrams (UDP_GRO), \([0-9]*\) of them.*/\1 \2/p' "$W/$name.log" | tail -1)
	echo "# $pk TS packets a datagram, $n a send: vtunerc: $dg datagrams, $lost lost ($lost_ts TS), $reord reordered, reads joined / of another size: $joined; quirky: dropped $(qstat "$name" dropped) ($(qstat "$name" dropped_ts) TS), reordered $(qstat "$name" reordered)"
	read -r jn jo <<<"$joined"
	check "$pk TS packets a datagram, $n a send: read joined (${jn:-?} reads)" \
		eval '[ "${jn:-0}" -gt 10 ]'
	if [ "$pk" = 7 ]; then
		check "... none joined again (7 TS packets: in place)" eval '[ "${jo:-x}" = 0 ]'
	else
		check "... joined again, every one (${jo:-?} of ${jn:-?})" eval '[ "${jo:-x}" = "$jn" ]'
	fi
	check "... the datagrams and TS packets reported lost equal those dropped ($(qstat "$name" dropped), $(qstat "$name" dropped_ts))" \
		eval '[ "${lost:-x}" = "$(qstat "$name" dropped)" ] && [ "${lost_ts:-x}" = "$(qstat "$name" dropped_ts)" ] && [ "$lost" -gt 2 ]'
	check "... the swapped ones put back in order ($(qstat "$name" reordered))" \
		eval '[ "${reord:-x}" = "$(qstat "$name" reordered)" ] && [ "$reord" -gt 2 ]'
	"$TSCHECK" "$W/$name.ts" >"$W/$name.check" 2>&1
	cc=$(sed -n 's/.* cc_errors=\([0-9]*\) .*/\1/p' "$W/$name.check" | tail -1)
	check "... continuity errors only at the drops (${cc:-?} <= 2 x $(qstat "$name" dropped))" \
		eval '[ -n "$cc" ] && [ "$cc" -le $((2 * $(qstat "$name" dropped))) ]'
	vpk=$(sed -n 's/^pid=257 packets=\([0-9]*\) .*/\1/p' "$W/$name.check")
	check "... the video flowed (${vpk:-0} packets of PID 257)" eval '[ "${vpk:-0}" -gt 10000 ]'
	kill "$qpid" 2>/dev/null
done

# ---- the server loses the session, dies, comes back -------------------------
if quirky fault --timeout 30; then
	fport=$qport
	"$VTC" -v -v --sink "$W/fault.ts" --status-file "$W/fault.st" \
		--satip "rtsp://127.0.0.1:$fport/" --tune "$C" --pids "$P601" \
		>"$W/fault.log" 2>&1 &
	vpid=$!
	pids+=("$vpid")
	sleep 3
	kill -USR1 "$qpid"	# every session expired: 454 next
	check_or_show "expired by the server: vtunerc sets the stream up again" \
		within 10 eval '[ "$(qstat fault setups)" -ge 2 ] && grep -q "lost the session (454" "$W/fault.log"' \
		-- "$W/fault.log" "$W/fault.stats"
	kill -9 "$qpid"
	wait "$qpid" 2>/dev/null
	sleep 1
	s1=$(stat -c %s "$W/fault.ts")
	quirky fault2 --timeout 30 --port "$fport" >/dev/null 2>&1 ||
		{ sleep 1; quirky fault2 --timeout 30 --port "$fport"; }
	back() {
		grep -q "reconnected to SAT>IP server" "$W/fault.log" &&
			[ "$(stat -c %s "$W/fault.ts")" -gt $((s1 + 1000000)) ]
	}
	check_or_show "killed and restarted: vtunerc reconnects, TS flows again" \
		within 15 back -- "$W/fault.log" "$W/fault2.qlog"
	kill -TERM "$vpid"
	wait "$vpid"
	check "faults: vtunerc exits 0 on SIGTERM" [ $? = 0 ]
	kill "$qpid" 2>/dev/null
else
	fail "quirky.py (faults) starts"
fi

check_or_show "no sanitizer report" sane -- "$W"/asan.* "$W"/ubsan.*
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
