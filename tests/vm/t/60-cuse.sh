#!/bin/bash
# No module: vtunerc --cuse serves /dev/dvb/adapter8/{frontend0,demux0,dvr0}
# through CUSE (docs/cuse.md) for a remote vtunerd --sim.  dvb-apps,
# unmodified: tzap tunes the sim's DVB-T transponder (FE_SET_FRONTEND,
# FE_READ_*) and records a service through demux0's DMX_OUT_TS_TAP
# filters and dvr0 with no continuity errors; femon reads the lock; czap
# locks on DVB-C.
# vm-timeout: 300
# vm-cost: 29 26%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

modprobe cuse 2>/dev/null || skip "no cuse module"
[ -c /dev/cuse ] || skip "no /dev/cuse"
"$VTUNERC" --cuse --check -s 10.99.0.1 >/dev/null 2>&1 ||
	skip "vtunerc built without libfuse3"

netns_setup
vtunerd_start srv --sim --sim-tuners 1 --sim-delsys DVBT,DVBT2,DVBC -l 10.99.0.1:5911
log=${VT_LOGDIR:-$VT_RESULTS}/cli.log
ip netns exec cli "$VTUNERC" -f -v --cuse --cuse-adapter 8 -s 10.99.0.1 -t 0 >"$log" 2>&1 &
echo $! >"$VT_RESULTS/cli.pid"
for _ in $(seq 100); do
	[ -c /dev/dvb/adapter8/frontend0 ] && [ -c /dev/dvb/adapter8/demux0 ] &&
		[ -c /dev/dvb/adapter8/dvr0 ] && grep -q "is now" "$log" && break
	sleep 0.1
done
ls -l /dev/dvb/adapter8 || { cat "$log"; fail "no CUSE nodes under /dev/dvb/adapter8"; }
grep -q "is now" "$log" || { cat "$log"; fail "vtunerc did not configure the CUSE adapter"; }
ls /sys/class/cuse/

# A second read-write opener of frontend0: EBUSY, as dvb-core.
exec 3<>/dev/dvb/adapter8/frontend0
if (exec 4<>/dev/dvb/adapter8/frontend0) 2>/dev/null; then
	fail "a second read-write open of frontend0 succeeded"
fi
(exec 4</dev/dvb/adapter8/frontend0) || fail "a read-only open of frontend0 failed"
exec 3>&-

echo "Sim Local:506000000:INVERSION_AUTO:BANDWIDTH_8_MHZ:FEC_AUTO:FEC_AUTO:QAM_64:TRANSMISSION_MODE_8K:GUARD_INTERVAL_1_4:HIERARCHY_NONE:257:258:401" >t.conf
timeout 60 tzap -a 8 -c t.conf -r -o rec.ts -t 6 "Sim Local" >tzap.out 2>&1 &
zap=$!
sleep 3
if command -v femon >/dev/null; then
	timeout 20 femon -a 8 -c 3 -H >femon.out 2>&1 || true
	cat femon.out
	grep -q "FE_HAS_LOCK" femon.out || fail "femon does not see the lock"
fi
wait "$zap" || { cat tzap.out; tail -n 30 "$log"; fail "tzap failed"; }
tail -n 5 tzap.out
grep -q "FE_HAS_LOCK" tzap.out || fail "tzap: no lock"
"$VT_TOOLS/vt-tscheck" rec.ts | tee rec.check
grep -q "cc_errors=0 sync_errors=0" rec.check || fail "tzap's recording has errors"
for pid in 257 258; do
	grep -q "^pid=$pid packets=[1-9]" rec.check || fail "tzap's recording lacks PID $pid"
done
grep -q "locked on T 506 MHz" "${VT_LOGDIR:-$VT_RESULTS}/srv.log" ||
	fail "vtunerd did not tune the DVB-T transponder"

echo "Sim Cable One:346000000:INVERSION_AUTO:6900000:FEC_NONE:QAM_256:257:258:601" >c.conf
timeout 8 stdbuf -oL czap -a 8 -c c.conf "Sim Cable One" >czap.out 2>&1 || true
tail -n 4 czap.out
grep -q "FE_HAS_LOCK" czap.out || fail "czap: no lock on DVB-C"
grep -q "locked on C 346 MHz" "${VT_LOGDIR:-$VT_RESULTS}/srv.log" ||
	fail "vtunerd did not tune the DVB-C transponder"

daemon_stop cli
[ ! -e /dev/dvb/adapter8/frontend0 ] || fail "frontend0 stays after vtunerc ended"
daemon_stop srv
