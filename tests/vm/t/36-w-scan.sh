#!/bin/bash
# w_scan and dvb-apps, unmodified, on a remote simulated DVB-T/T2/C tuner
# (vtunerd --sim-delsys DVBT,DVBT2,DVBC, like a USB stick).  w_scan sweeps
# Germany's DVB-T raster with no initial data, every empty channel a tune
# over the network that must not lock, then DVB-T2; it finds the sim's
# DVB-T and DVB-T2 (PLP 0) services, then sweeps German cable at 256-QAM;
# w_scan does the same at the same time on a CUSE adapter (vtunerc --cuse,
# no module), which must give the same lists.  tzap records one of them from
# w_scan's own list while femon reads the lock; czap locks on DVB-C.
# vm-cost: 400 4%
# vm-timeout: 900
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vt_load
netns_setup
vtunerd_start srv --sim --sim-tuners 2 --sim-delsys DVBT,DVBT2,DVBC -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
# and a CUSE adapter (no module: vtunerc --cuse) on the sim's other tuner
cuse=8
cuse_start cuse $cuse -s 10.99.0.1 -t 1

# FE_GET_INFO follows the first system: an OFDM frontend, limits in Hz.
dvb-fe-tool -a 0 2>&1 | tee fe.txt
grep -q "\[DVBT\]" fe.txt || fail "DVBT is not the frontend's current system"

# w_scan on both adapters at once: DVB-T and T2, then a DVB-C sweep (256-QAM
# at 6900 kSymbol/s, as German cable networks have it)
t0=$(date +%s)
for a in 0 $cuse; do
	(
		timeout 540 w_scan -ft -c DE -a $a -X >t$a.conf 2>wscan$a.log &&
			timeout 540 w_scan -fc -c DE -Q 1 -S 0 -a $a -X >c$a.conf 2>cscan$a.log
	) &
	echo $! >wscan$a.pid
done
for a in 0 $cuse; do
	wait "$(cat wscan$a.pid)" || {
		tail -n 30 wscan$a.log cscan$a.log 2>/dev/null
		fail "w_scan on adapter$a failed"
	}
done
log "w_scan, DVB-T and DVB-C, both adapters at once: $(($(date +%s) - t0)) s"
cp t0.conf t.conf
grep -A8 "^Using DVB API" wscan0.log
grep -v '^$' wscan0.log | tail -n 12
cat t.conf c0.conf
# name(provider):frequency:...:video PID:audio PID:service id
want() {
	grep -q "^$1:$2:.*:$3$" t.conf || fail "w_scan did not find '$1' at $2 Hz as '...:$3'"
}
want "Sim Local(Sim Regional)" 506000000 257:258:401
want "Sim Kids(Sim Regional)" 506000000 273:274:402
want "Sim FM(Sim Regional)" 506000000 0:290:403
want "Sim UHD Demo(Sim T2)" 690000000 257:258:501
want "Sim Nature(Sim T2)" 690000000 273:274:502
grep -q "QAM_64.*TRANSMISSION_MODE_8K:GUARD_INTERVAL_1_4" t.conf ||
	fail "the DVB-T parameters of the sim's transponder are not in the list"
grep -q "^Sim Cable One(Sim Kabel):346000000:.*:601$" c0.conf ||
	fail "w_scan's DVB-C sweep did not find 'Sim Cable One' at 346 MHz"
# the CUSE adapter: the same lists
diff t0.conf t$cuse.conf || fail "w_scan finds other DVB-T services on the CUSE adapter"
diff c0.conf c$cuse.conf || fail "w_scan finds other DVB-C services on the CUSE adapter"
log "w_scan: $(wc -l <t.conf) DVB-T and $(wc -l <c0.conf) DVB-C services, the same on the CUSE adapter"
daemon_stop cuse

# tzap records "Sim Kids" from w_scan's list
# while femon watches the frontend.
sed -i 's/^\([^(:]*\)([^)]*)/\1/' t.conf # tzap wants bare names
timeout 60 tzap -a 0 -c t.conf -r -o rec.ts -t 6 "Sim Kids" >tzap.out 2>&1 &
zap=$!
sleep 3
timeout 20 femon -a 0 -c 3 -H >femon.out 2>&1 || true
cat femon.out
grep -q "FE_HAS_LOCK" femon.out || fail "femon does not see the lock"
wait "$zap" || { cat tzap.out; fail "tzap failed"; }
cat tzap.out
"$VT_TOOLS/vt-tscheck" rec.ts | tee rec.check
grep -q "cc_errors=0 sync_errors=0" rec.check || fail "tzap's recording has errors"
for pid in 273 274; do
	grep -q "^pid=$pid packets=[1-9]" rec.check || fail "tzap's recording lacks PID $pid"
done

# czap (Debian's sets the delivery system itself) on DVB-C, FEC_NONE as
# in every cable channel list; its -x wants an argument, so it runs,
# printing its status every second, until the timeout ends it.
echo "Sim Cable One:346000000:INVERSION_AUTO:6900000:FEC_NONE:QAM_256:257:258:601" >c.conf
timeout 8 stdbuf -oL czap -a 0 -c c.conf "Sim Cable One" >czap.out 2>&1 || true
cat czap.out
grep -q "FE_HAS_LOCK" czap.out || fail "czap: no lock on DVB-C"
grep -q "locked on C 346 MHz" "${VT_LOGDIR:-$VT_RESULTS}/srv.log" ||
	fail "vtunerd did not tune the DVB-C transponder"
daemon_stop cli
daemon_stop srv
