#!/bin/bash
# Two clients on two tuners of one server at the same time, each getting
# only the PIDs its own application asked for.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vt_load adapters=2
netns_setup
vtunerd_start srv --sim --sim-tuners 2 -l 10.99.0.1:5911
vtunerc_start cli0 /dev/vtunerc0 -s 10.99.0.1 -t 0
vtunerc_start cli1 /dev/vtunerc1 -s 10.99.0.1 -t 1

cat > ch.conf <<'CONF'
[Sim Local]
	DELIVERY_SYSTEM = DVBT
	FREQUENCY = 506000000
	BANDWIDTH_HZ = 8000000
	SERVICE_ID = 401
	VIDEO_PID = 257
	AUDIO_PID = 258

[Sim Shopping]
	DELIVERY_SYSTEM = DVBC/ANNEX_A
	FREQUENCY = 346000000
	SYMBOL_RATE = 6900000
	MODULATION = QAM/256
	SERVICE_ID = 602
	VIDEO_PID = 273
	AUDIO_PID = 274
CONF
timeout 60 dvbv5-zap -a 0 -c ch.conf -r -o a.ts -t 8 "Sim Local" >zap0.out 2>&1 &
z0=$!
timeout 60 dvbv5-zap -a 1 -c ch.conf -r -o b.ts -t 8 "Sim Shopping" >zap1.out 2>&1 &
z1=$!
wait $z0 || true
wait $z1 || true
tail -n 2 zap0.out zap1.out

check() {	# check FILE PID...: exactly these PIDs, no errors
	local f=$1
	shift
	"$VT_TOOLS/vt-tscheck" "$f" | tee "$f.check"
	grep -q "cc_errors=0 sync_errors=0" "$f.check" || fail "$f: continuity or sync errors"
	local got want
	got=$(sed -n 's/^pid=\([0-9]*\) packets=[1-9].*/\1/p' "$f.check" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "$f: PIDs '$got', expected '$want'"
}
check a.ts 257 258
check b.ts 273 274
grep -E "^pids" /proc/vtunerc0 /proc/vtunerc1
daemon_stop cli0
daemon_stop cli1
daemon_stop srv
