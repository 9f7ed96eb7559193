#!/bin/bash
# tests/server/run.sh - vtunerd on the host (no module, no VM), built with
# ASan + UBSan, driven by vtunerd-probe clients on loopback: streams at
# once, retunes and control round trips while TS flows, a client killed
# mid-stream, a client that stops reading, and a shutdown with every
# tuner streaming; a ts_file transponder read at startup (a bad one stops
# vtunerd there); --sim-delsys; both daemons alike (foreground, READY=1,
# --daemon, -n, exit status, with vtunerc --sink); any sanitizer report (leaks at exit too)
# fails.
# Usage: run.sh BUILD_DIR   (needs $B/san/server/vtunerd: make san,
# $B/tests/server/vtunerd-probe, $B/server/sim/vts-gen and
# $B/tests/tuner/vt-tscheck).
# Ends with one line "N passed, N failed".
set -uo pipefail
B=${1:-build}
VTD=$B/san/server/vtunerd
PROBE=$B/tests/server/vtunerd-probe
TSCHECK=$B/tests/tuner/vt-tscheck
GEN=$B/server/sim/vts-gen
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-server.XXXXXX")
PORT=$((20000 + $$ % 20000))
SRV=127.0.0.1:$PORT
TUNE='DELIVERY_SYSTEM=DVBT FREQUENCY=506000000 BANDWIDTH_HZ=8000000'
vtd_pid=

cleanup() {
	[ -n "$vtd_pid" ] && kill -9 "$vtd_pid" 2>/dev/null
	jobs -p | xargs -r kill -9 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

VTC=$B/san/client/vtunerc
for f in "$VTD" "$VTC" "$PROBE" "$TSCHECK" "$GEN"; do
	if [ ! -x "$f" ]; then
		fail "$f missing (make san vtunerd sim tuner-tools)"
		echo "$passed passed, $failed failed"
		exit 1
	fi
done
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:log_path=$W/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$W/ubsan"

start_vtd() {	# start_vtd EXTRA_OPTION...: on a free port (5 tries)
	local try

	for try in 1 2 3 4 5; do
		"$VTD" --sim --sim-tuners 4 -l "$SRV" --no-announce -f -v \
			"$@" >>"$W/vtd.log" 2>&1 &
		vtd_pid=$!
		for _ in $(seq 100); do
			"$PROBE" -s "$SRV" -l >/dev/null 2>&1 && return 0
			kill -0 "$vtd_pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$vtd_pid" 2>/dev/null && return 1	# up, not answering
		wait "$vtd_pid"
		grep -q "Address already in use" "$W/vtd.log" || return 1
		PORT=$((PORT + 1 + try * 97))
		SRV=127.0.0.1:$PORT
	done
	return 1
}
probe() {	# probe NAME TUNER SECONDS EXTRA...: in the background
	local name=$1 tuner=$2 secs=$3
	shift 3
	"$PROBE" -s "$SRV" -t "$tuner" -T "$TUNE" -p all -S "$secs" \
		-o "$W/$name.ts" "$@" >"$W/$name.out" 2>&1 &
	last=$!
}
wait_all() {	# every client started; 1 if one failed
	local r=0 p

	for p in $(jobs -p); do
		[ "$p" = "$vtd_pid" ] || wait "$p" || r=1
	done
	return $r
}
within() {	# within SECONDS COMMAND...: succeeds within SECONDS
	local i

	for i in $(seq $(($1 * 10))); do
		"${@:2}" && return 0
		sleep 0.1
	done
	return 1
}
received() { grep -q "^received [1-9][0-9]* TS packets" "$W/$1.out"; }
lossless() {
	"$TSCHECK" "$W/$1.ts" >"$W/$1.check" 2>&1 &&
		grep -q "cc_errors=0 sync_errors=0" <(tail -n 1 "$W/$1.check")
}
good() { received "$1" && lossless "$1"; }
tuner_free() { "$PROBE" -s "$SRV" -l | grep -q "^$1[[:space:]]free"; }
dropped() { grep -q 'data connection too slow' "$W/vtd.log"; }
every_retune() {	# every_retune NAME: each TUNE's first TS frame came
	local tunes frames

	tunes=$(sed -n 's/^tune round trips: \([0-9]*\),.*/\1/p' "$W/$1.out")
	frames=$(sed -n 's/^tune to first TS frame: \([0-9]*\),.*/\1/p' "$W/$1.out")
	[ -n "$tunes" ] && [ "$tunes" -ge 3 ] && [ "$tunes" = "$frames" ]
}

# a world with a ts_file transponder (DVB-C 330 MHz): 2 s of "T 506 MHz"
"$GEN" -s 2 -o "$W/file.ts" "T 506 MHz" 2>"$W/gen.log" || show "$W/gen.log"
sim_conf() {	# sim_conf TS_FILE: the config on stdout
	printf '[transponder File]\ndelsys = DVBC\nfrequency = 330000000\n'
	printf 'symbol_rate = 6900000\nmodulation = QAM256\nts_id = 9\n'
	printf 'ts_file = %s\n' "$1"
}
sim_conf "$W/file.ts" >"$W/sim.conf"

# 0. a TS file that is not one: vtunerd stops at startup and says which
head -c 1000 /dev/urandom | tr '\107' x >"$W/bad.ts"
sim_conf "$W/bad.ts" >"$W/bad.conf"
bad_start() {
	# (bounded: a vtunerd that accepts the file would serve until killed)
	timeout -s KILL 20 "$VTD" --sim --sim-config "$W/bad.conf" \
		-l "127.0.0.1:$PORT" --no-announce -f >"$W/bad.log" 2>&1
	[ $? = 1 ] && grep -q "transponder File: .*bad.ts: no sync byte in packet 0" "$W/bad.log"
}
check_or_show "a ts_file that is not a TS: vtunerd exits 1 at startup, naming it" \
	bad_start -- "$W/bad.log"
bad_check() {
	"$VTD" --sim --sim-config "$W/bad.conf" --check >"$W/check.log" 2>&1
	[ $? = 2 ] && grep -q "transponder File: .*bad.ts: no sync byte" "$W/check.log"
}
check_or_show "vtunerd --check: the ts_file that is not a TS, exit 2" \
	bad_check -- "$W/check.log"
good_check() {
	"$VTD" --sim --sim-config "$W/sim.conf" --check >"$W/check.log" 2>&1
}
check_or_show "vtunerd --check: the good sim config, exit 0" \
	good_check -- "$W/check.log"
# 0b. --sim-delsys makes the tuners that kind of tuner; a bad list is a
# usage error naming the system
delsys_list() {
	"$VTD" --sim --sim-tuners 2 --sim-delsys dvbt,DVBT2,DVBC --print-tuners \
		>"$W/delsys.out" 2>&1 || return 1
	[ "$(wc -l <"$W/delsys.out")" = 2 ] &&
		[ "$(cut -f5 "$W/delsys.out" | sort -u)" = "DVBT,DVBT2,DVBC/ANNEX_A" ]
}
check_or_show "--sim-delsys: the tuners have those systems, in that order" \
	delsys_list -- "$W/delsys.out"
delsys_bad() {
	"$VTD" --sim --sim-delsys DVBT,ISDBT --print-tuners >"$W/delsys.err" 2>&1
	[ $? = 2 ] && grep -q "unknown delivery system 'ISDBT'" "$W/delsys.err" &&
		"$VTD" --sim --sim-delsys DVBS,DVBS2,dvbs --check >"$W/delsys.err" 2>&1
	[ $? = 2 ] && grep -q "sim-delsys: DVBS twice" "$W/delsys.err"
}
check_or_show "--sim-delsys: an unknown or repeated system, exit 2 naming it" \
	delsys_bad -- "$W/delsys.err"

check_or_show "vtunerd (ASan + UBSan build) starts with 4 simulated tuners" \
	start_vtd --ts-queue 1 --sim-config "$W/sim.conf" -- "$W/vtd.log"

# 0b. the ts_file was read at startup: a tune reads nothing (its file is gone)
rm -f "$W/file.ts"
"$PROBE" -s "$SRV" -t 0 -T 'DELIVERY_SYSTEM=DVBC FREQUENCY=330000000 SYMBOL_RATE=6900000 MODULATION=QAM256' \
	-p all -S 1 -o "$W/file.ts" >"$W/file.out" 2>&1
check_or_show "a ts_file transponder plays from memory, its file removed" \
	good file -- "$W/file.out" "$W/vtd.log"

# 1. four streams at once, the whole TS of each
for i in 0 1 2 3; do probe s$i $i 3; done
check_or_show "four streams at once: every client gets its TS" wait_all -- \
	"$W"/s?.out
for i in 0 1 2 3; do
	check_or_show "stream $i: TS received, no continuity error" good "s$i" -- \
		"$W/s$i.out" "$W/s$i.check"
done

# 2. retunes and control round trips while TS flows on the others
probe r0 0 3 --retune-ms 200 --ping-ms 20
probe r1 1 3 --retune-ms 300
probe f2 2 3
probe f3 3 3 --ping-ms 10
check_or_show "retunes and pings while streaming: clients succeed" wait_all -- \
	"$W"/r?.out "$W"/f?.out
check_or_show "every retune gets its first TS frame" every_retune r0 -- "$W/r0.out"
check_or_show "every retune gets its first TS frame (2)" every_retune r1 -- \
	"$W/r1.out"
check_or_show "a stream beside the retuning ones loses nothing" good f2 -- \
	"$W/f2.check"
check_or_show "a stream with pings beside them loses nothing" good f3 -- \
	"$W/f3.check"

# 3. a client killed mid-stream: its tuner is released, the others go on
probe k0 0 10
k0=$last
probe k1 1 3
sleep 1
kill -9 "$k0"
wait "$k0" 2>/dev/null	# not reported as "Killed"
check_or_show "a client killed mid-stream: its tuner is released" \
	within 5 tuner_free 0 -- "$W/vtd.log"
wait_all
check_or_show "the stream beside it goes on, lossless" good k1 -- "$W/k1.out"

# 4. a client that stops reading: its frames are dropped, then it is killed
probe p0 2 60
disown "$last"	# no job notices for the stop and the kill
sleep 1
kill -STOP "$last"
check_or_show "a stalled client: TS frames dropped, not queued without bound" \
	within 40 dropped -- "$W/vtd.log"
kill -9 "$last"
check_or_show "a stalled client killed: its tuner is released" \
	within 5 tuner_free 2 -- "$W/vtd.log"

# 5. SIGTERM with every tuner streaming: vtunerd releases them, exit 0
for i in 0 1 2 3; do probe t$i $i 30; done
sleep 1.5
kill -TERM "$vtd_pid"
vtd_exit() {
	for _ in $(seq 100); do
		kill -0 "$vtd_pid" 2>/dev/null || break
		sleep 0.1
	done
	wait "$vtd_pid"
}
check_or_show "SIGTERM while 4 tuners stream: vtunerd exits 0" vtd_exit -- "$W/vtd.log"
vtd_pid=
wait_all

# 6. both daemons alike: in the foreground by default, telling systemd
# when ready; --daemon returns once set up; -n is --name; the same exit
# status for the same errors (and no leak on those paths: ASan's reports)
SRV2=127.0.0.1:$((PORT + 1))
# notified OUT CMD...: CMD with NOTIFY_SOCKET (output to OUT) sends READY=1
# within 10 s, still runs 1 s later, exits 0 on SIGTERM
notified() {
	local out=$1

	shift
	python3 - "$W/notify.sock" "$out" "$@" <<'PY'
import os, socket, subprocess, sys, time
path, out, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
if os.path.exists(path):
    os.unlink(path)
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
s.settimeout(10)
p = subprocess.Popen(cmd, env=dict(os.environ, NOTIFY_SOCKET=path),
                     stdout=open(out, "w"), stderr=subprocess.STDOUT)
try:
    ok = s.recv(64) == b"READY=1"
    time.sleep(1)	# serving, connected
    ok = ok and p.poll() is None
except socket.timeout:
    ok = False
p.terminate()
sys.exit(0 if p.wait() == 0 and ok else 1)
PY
}
fg_vtd() {
	notified "$W/fg-d.log" "$VTD" --sim -l "$SRV" --no-announce &&
		grep -q "vtunerd: listening on" "$W/fg-d.log"
}
check_or_show "vtunerd without -f: in the foreground, READY=1, logs to stderr, exit 0 on SIGTERM" \
	fg_vtd -- "$W/fg-d.log"
"$VTD" --daemon --sim --sim-tuners 1 -n "bench two" -l "$SRV2" --no-announce \
	>"$W/daemon-d.log" 2>&1
d_status=$?
d_pid=$(pgrep -f -- "--daemon --sim --sim-tuners 1 -n bench two -l $SRV2")
daemon_vtd() { [ "$d_status" = 0 ] && [ -n "$d_pid" ] && "$PROBE" -s "$SRV2" -l >/dev/null; }
check_or_show "vtunerd --daemon: 0 once listening, the daemon serves" \
	daemon_vtd -- "$W/daemon-d.log"
fg_vtc() {
	notified "$W/fg-c.log" "$VTC" -s "$SRV2" -t 0 --sink /dev/null \
		--status-file none &&
		grep -q "connected to .*(bench two)" "$W/fg-c.log"
}
check_or_show "vtunerc without -f: in the foreground, READY=1, the name of vtunerd -n, exit 0 on SIGTERM" \
	fg_vtc -- "$W/fg-c.log"
"$VTC" --daemon -s "$SRV2" -t 0 --sink /dev/null --status-file none \
	>"$W/daemon-c.log" 2>&1
c_status=$?
c_pid=$(pgrep -f -- "--daemon -s $SRV2 -t 0 --sink")
daemon_vtc() { [ "$c_status" = 0 ] && [ -n "$c_pid" ]; }
check_or_show "vtunerc --daemon: 0 once set up, the daemon runs" \
	daemon_vtc -- "$W/daemon-c.log"
[ -n "$c_pid" ] && kill "$c_pid"
[ -n "$d_pid" ] && kill "$d_pid"
gone() {	# gone PATTERN: no process matches within 10 s
	for _ in $(seq 100); do
		pgrep -f -- "$1" >/dev/null || return 0
		sleep 0.1
	done
	return 1
}
both_gone() { gone "-l $SRV2 --no-announce" && gone "--daemon -s $SRV2"; }
check_or_show "--daemon: both end on SIGTERM" both_gone
status_is() {	# status_is N CMD...: CMD exits with N
	local want=$1

	shift
	"$@" >>"$W/status.log" 2>&1
	[ $? = "$want" ]
}
: >"$W/empty.key"
chmod 600 "$W/empty.key"
usage_2() {
	status_is 2 "$1" -f --daemon --check && status_is 2 "$1" -n &&
		status_is 2 "$1" --bogus
}
name_0() { status_is 0 "$1" -n "a name" --check && status_is 0 "$1" -f --check; }
key_2_1() {	# key_2_1 DAEMON ARGS...: 2 with --check, 1 at startup
	status_is 2 "$1" --psk-file "$W/empty.key" --check &&
		status_is 1 timeout -s KILL 20 "$@" --psk-file "$W/empty.key"
}
for d in "$VTD" "$VTC"; do
	n=${d##*/}
	check_or_show "$n: -f with --daemon, -n without a value, an unknown option: exit 2" \
		usage_2 "$d" -- "$W/status.log"
	check_or_show "$n: -n NAME --check, -f --check: exit 0" \
		name_0 "$d" -- "$W/status.log"
done
check_or_show "vtunerd: an empty key file: exit 2 with --check, 1 at startup" \
	key_2_1 "$VTD" --no-announce -l "$SRV2" -- "$W/status.log"
check_or_show "vtunerc: an empty key file: exit 2 with --check, 1 at startup" \
	key_2_1 "$VTC" --sink /dev/null -s "$SRV2" -- "$W/status.log"
no_device_1() {
	status_is 1 "$VTC" -s "$SRV2" -d "$W/no-such-device" &&
		status_is 1 "$VTC" --daemon -s "$SRV2" -d "$W/no-such-device"
}
check_or_show "vtunerc: a control device that cannot be opened: exit 1, with --daemon too" \
	no_device_1 -- "$W/status.log"

reports=$(ls "$W"/asan.* "$W"/ubsan.* 2>/dev/null)
if [ -z "$reports" ] &&
   ! cat "$W"/*.log | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"; then
	ok "no sanitizer report"
else
	fail "sanitizer reports"
	# shellcheck disable=SC2086
	show $reports "$W/vtd.log"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
