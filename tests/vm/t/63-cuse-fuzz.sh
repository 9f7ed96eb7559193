#!/bin/bash
# vt-fuzz on a CUSE adapter (vtunerc --cuse, docs/cuse.md, built with
# ASan + UBSan) of a vtunerd --sim, no control device: four node threads
# (random ioctls, valid and not, with random sizes and directions in the
# _IOC encoding, NULL, unmapped, kernel and short pointers, dtv_properties
# with any num and props anywhere; reads, writes and polls of odd sizes,
# O_NONBLOCK or blocking with a timer's signal interrupting; opens, dups
# and closes of frontend0, demux0 and dvr0), two node processes killed
# (SIGKILL) every 50-1500 ms whatever they are in, and vt-fuzz's fe and
# dmx threads (tunes, SEC commands, demux filters) for 25 s.  No call
# hangs (vt-fuzz's watchdog), no anomaly, vtunerc does not crash nor report
# (sanitizer logs, its exit), the kernel stays clean (the harness checks
# dmesg), and afterwards vtunerc still serves a tune: tzap locks and
# records.  VT_FUZZ_SEED: the seed (default 1), VT_FUZZ_SECS: the time
# (default 25).
# vm-cost: 42 60%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT
VTUNERC=$VT_BUILD/san/client/vtunerc
A=/dev/dvb/adapter8

modprobe cuse 2>/dev/null || skip "no cuse module"
[ -c /dev/cuse ] || skip "no /dev/cuse"
[ -x "$VTUNERC" ] || fail "sanitizer build missing: make san"
"$VT_BUILD/client/vtunerc" --cuse --check -s 10.99.0.1 >/dev/null 2>&1 ||
	skip "vtunerc built without libfuse3"
san_setup

netns_setup
vtunerd_start srv --sim --sim-tuners 1 --sim-delsys DVBT,DVBT2,DVBC,DVBS,DVBS2 -l 10.99.0.1:5911
cuse_start cli 8 -s 10.99.0.1 -t 0

seed=${VT_FUZZ_SEED:-1}
secs=${VT_FUZZ_SECS:-25}
rc=0
# vt-fuzz's own watchdog gives up on a call blocked for 30 s (exit 4)
timeout $((secs + 90)) "$VT_TOOLS/vt-fuzz" --threads fe,dmx,node --nodes 4 --procs 2 \
	--iterations 100000000 --duration "$secs" --hang-timeout 30 --seed "$seed" \
	--adapter "$A" >fuzz.out 2>&1 || rc=$?
tail -n 25 fuzz.out
[ $rc = 0 ] || { tail -n 30 cli.log; fail "vt-fuzz exit status $rc (seed $seed)"; }
n=$(sed -n 's/^vt-fuzz: \([0-9]*\) operations.*/\1/p' fuzz.out)
[ -n "$n" ] || fail "no operation count from vt-fuzz"
log "$n operations (seed $seed)"
[ "$n" -ge 10000 ] || fail "only $n operations"
kill -0 "$(cat cli.pid)" 2>/dev/null || { tail -n 30 cli.log; fail "vtunerc died"; }
ls -l "$A"

# vtunerc still serves a tune
echo "Sim Local:506000000:INVERSION_AUTO:BANDWIDTH_8_MHZ:FEC_AUTO:FEC_AUTO:QAM_64:TRANSMISSION_MODE_8K:GUARD_INTERVAL_1_4:HIERARCHY_NONE:257:258:401" >t.conf
timeout 60 tzap -a 8 -c t.conf -r -o rec.ts -t 4 "Sim Local" >tzap.out 2>&1 ||
	{ cat tzap.out; tail -n 30 cli.log; fail "tzap failed after the fuzzing"; }
tail -n 3 tzap.out
grep -q "FE_HAS_LOCK" tzap.out || fail "tzap: no lock after the fuzzing"
"$VT_TOOLS/vt-tscheck" rec.ts | tee rec.check
grep -q "cc_errors=0 sync_errors=0" rec.check || fail "tzap's recording has errors"
grep -q "^pid=257 packets=[1-9]" rec.check || fail "tzap's recording lacks PID 257"

daemon_stop cli
[ ! -e "$A/frontend0" ] || fail "frontend0 stays after vtunerc ended"
daemon_stop srv
san_check cli.log
