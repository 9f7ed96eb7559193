#!/bin/bash
# No module: vtunerc --cuse serves /dev/dvb/adapter8/{frontend0,demux0,dvr0}
# through CUSE (docs/cuse.md) for a remote vtunerd --sim, beside a module
# adapter (adapter0) on the same server, and unmodified dvb-apps use it:
#   scan      the same services as on the module adapter (DVB-T, DVBv3)
#   tzap      a recording through demux0's DMX_OUT_TS_TAP filters and
#             dvr0 with no continuity errors, while femon reads the lock
#   czap      locks on DVB-C
#   szap      its tone, voltage, DiSEqC and burst reach the server with
#             the same values, in the same order, as from the module
#             adapter, and the sim locks on the transponder they select
#   DVBv5     DTV_VOLTAGE and DTV_TONE in one FE_SET_PROPERTY reach the
#             server as FE_SET_VOLTAGE and FE_SET_TONE (vt-fecall v5sec)
# vm-timeout: 300
# vm-cost: 38 23%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

srvlog=${VT_LOGDIR:-$VT_RESULTS}/srv.log
netns_setup
vtunerd_start srv --sim --sim-tuners 2 --sim-delsys DVBT,DVBT2,DVBC,DVBS,DVBS2 -l 10.99.0.1:5911
cuse_start cli 8 -s 10.99.0.1 -t 0
log=${VT_LOGDIR:-$VT_RESULTS}/cli.log
ls -l /dev/dvb/adapter8
ls /sys/class/cuse/
vt_load
vtunerc_start mod /dev/vtunerc0 -s 10.99.0.1 -t 1

# A second read-write opener of frontend0: EBUSY, as dvb-core.
exec 3<>/dev/dvb/adapter8/frontend0
if (exec 4<>/dev/dvb/adapter8/frontend0) 2>/dev/null; then
	fail "a second read-write open of frontend0 succeeded"
fi
(exec 4</dev/dvb/adapter8/frontend0) || fail "a read-only open of frontend0 failed"
exec 3>&-

# dvb-apps' scan on both adapters at once, one sim tuner each
echo "T 506000000 8MHz AUTO AUTO QAM64 8k 1/4 NONE" >t.init
for a in 0 8; do
	timeout 90 scan -a $a t.init >scan$a.out 2>scan$a.log &
	echo $! >scan$a.pid
done
for a in 0 8; do
	wait "$(cat scan$a.pid)" || { tail -n 20 scan$a.log; fail "scan on adapter$a failed"; }
	sort scan$a.out >scan$a.sorted
done
cat scan8.sorted
grep -q "^Sim Local:506000000:.*:257:258:401$" scan8.sorted ||
	fail "scan on the CUSE adapter did not find 'Sim Local'"
diff scan0.sorted scan8.sorted || fail "scan finds other services on the CUSE adapter than on the module's"
log "scan: $(wc -l <scan8.sorted) services on both adapters"

echo "Sim Local:506000000:INVERSION_AUTO:BANDWIDTH_8_MHZ:FEC_AUTO:FEC_AUTO:QAM_64:TRANSMISSION_MODE_8K:GUARD_INTERVAL_1_4:HIERARCHY_NONE:257:258:401" >t.conf
timeout 60 tzap -a 8 -c t.conf -r -o rec.ts -t 6 "Sim Local" >tzap.out 2>&1 &
zap=$!
sleep 3
timeout 20 femon -a 8 -c 3 -H >femon.out 2>&1 || true
cat femon.out
grep -q "FE_HAS_LOCK" femon.out || fail "femon does not see the lock"
wait "$zap" || { cat tzap.out; tail -n 30 "$log"; fail "tzap failed"; }
tail -n 5 tzap.out
grep -q "FE_HAS_LOCK" tzap.out || fail "tzap: no lock"
"$VT_TOOLS/vt-tscheck" rec.ts | tee rec.check
grep -q "cc_errors=0 sync_errors=0" rec.check || fail "tzap's recording has errors"
for pid in 257 258; do
	grep -q "^pid=$pid packets=[1-9]" rec.check || fail "tzap's recording lacks PID $pid"
done
grep -q "locked on T 506 MHz" "$srvlog" || fail "vtunerd did not tune the DVB-T transponder"

echo "Sim Cable One:346000000:INVERSION_AUTO:6900000:FEC_NONE:QAM_256:257:258:601" >c.conf
timeout 8 stdbuf -oL czap -a 8 -c c.conf "Sim Cable One" >czap.out 2>&1 || true
tail -n 4 czap.out
grep -q "FE_HAS_LOCK" czap.out || fail "czap: no lock on DVB-C"
grep -q "locked on C 346 MHz" "$srvlog" || fail "vtunerd did not tune the DVB-C transponder"

# sec_calls A CMD...: what the server was asked for while CMD ran on
# adapter A, one call a line ("FE_SET_TONE 1", "FE_DISEQC_SEND_MASTER_CMD
# e0 10 38 f0", ...), and the transponders it locked on
sec_calls() {
	local a=$1 n
	shift
	n=$(wc -l <"$srvlog")
	"$@" >"sec$a.out" 2>&1 || true
	sleep 0.5
	tail -n +"$((n + 1))" "$srvlog" |
		sed -n 's/.*: tuner [0-9]*: \(FE_[A-Z_]*.*\)$/\1/p; s/.*\(locked on .*\) (.*/\1/p'
}
# szap, satellite 0, 10847 MHz vertical: low band, 13 V; committed DiSEqC
# e0 10 38 f0 (position 1, vertical, low), burst A, tone off; and 0 V
# once it closes the frontend (dvb-core ends the frontend's thread)
echo "Sim Classic:10847:v:0:22000:0:0:301" >s.conf
for a in 0 8; do
	# szap (DVBv3) takes the frontend's current system, which DVB-S must be
	sec_calls $a "$VT_TOOLS/vt-fecall" -a $a delsys dvbs >/dev/null
	sec_calls $a timeout 10 szap -a $a -c s.conf -x "Sim Classic" >szap$a.calls
	log "szap on adapter$a: $(tr '\n' '|' <szap$a.calls)"
done
grep -q "locked on S 10847 V" szap8.calls || { cat sec8.out; fail "szap on the CUSE adapter: the sim did not lock on S 10847 V"; }
grep -q "FE_DISEQC_SEND_MASTER_CMD e0 10 38 f0" szap8.calls || fail "szap: no DiSEqC e0 10 38 f0 from the CUSE adapter"
diff szap0.calls szap8.calls || fail "szap's SEC calls from the CUSE adapter differ from the module adapter's"

# DVBv5: voltage and tone as properties, 18 V and the 22 kHz tone on
for a in 0 8; do
	sec_calls $a "$VT_TOOLS/vt-fecall" -a $a v5sec 18 on >v5$a.calls
	cat sec$a.out
	log "v5sec on adapter$a: $(tr '\n' '|' <v5$a.calls)"
done
# (the LNB off when the writer closes, as dvb-core's frontend thread ends)
[ "$(tr '\n' '|' <v58.calls)" = "FE_SET_VOLTAGE 1|FE_SET_TONE 0|FE_SET_VOLTAGE 2|" ] ||
	fail "DTV_VOLTAGE and DTV_TONE from the CUSE adapter: $(tr '\n' '|' <v58.calls)"
diff v50.calls v58.calls || fail "DVBv5 SEC from the CUSE adapter differs from the module adapter's"

daemon_stop cli
[ ! -e /dev/dvb/adapter8/frontend0 ] || fail "frontend0 stays after vtunerc ended"
daemon_stop mod
daemon_stop srv
