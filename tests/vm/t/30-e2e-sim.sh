#!/bin/bash
# The whole system: vtunerd --sim in one network namespace, vtunerc in the
# other, an unmodified dvbv5-scan and dvbv5-zap on the virtual adapter.
# DVB-S2 through the LNB, tone, voltage and DiSEqC; DVB-T; DVB-C; a wrong
# polarisation does not lock; a recording has the configured bitrate and
# no continuity errors.
# vm-cost: 45 19%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vt_load
netns_setup
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
dvb-fe-tool -a 0 | head -3
cat /proc/vtunerc0

sim_scan s2 s2 -l UNIVERSAL -S 0
has_service s2.conf "Sim One HD"
has_service s2.conf "Sim Two HD"
has_service s2.conf "Sim Radio One"

# Position 1 through DiSEqC, high band, vertical.
sim_scan s2b s2b -l UNIVERSAL -S 1
has_service s2b.conf "Sim News"
has_service s2b.conf "Sim Sport"

sim_scan t t
has_service t.conf "Sim Local"
has_service t.conf "Sim Kids"
has_service t.conf "Sim FM"

sim_scan c c
has_service c.conf "Sim Cable One"
has_service c.conf "Sim Lounge"

# The wrong polarisation does not lock.
sed 's/POLARIZATION = HORIZONTAL/POLARIZATION = VERTICAL/' s2.conf >wrong.conf
timeout 30 dvbv5-zap -a 0 -c wrong.conf -l UNIVERSAL -S 0 -t 4 -x "Sim One HD" >wrong.out 2>&1 || true
if grep -q "Lock " wrong.out; then
	cat wrong.out
	fail "locked with the wrong polarisation"
fi

# Record ten seconds of one service: its video PID at the configured rate.
timeout 60 dvbv5-zap -a 0 -c t.conf -r -o rec.ts -t 10 "Sim Local" >zap.out 2>&1 || true
tail -n 5 zap.out
"$VT_TOOLS/vt-tscheck" rec.ts | tee rec.check
grep -q "cc_errors=0 sync_errors=0" rec.check || fail "recording has continuity or sync errors"
ffprobe -v error -show_streams -of compact rec.ts | cut -c1-100
# The video PID of "Sim Local" is configured at 4 Mbit/s of TS.
dur=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 rec.ts)
vpk=$(sed -n 's/^pid=257 packets=\([0-9]*\).*/\1/p' rec.check)
rate=$(awk -v p="$vpk" -v d="$dur" 'BEGIN { printf "%d", p * 188 * 8 / d }')
log "video PID: $vpk packets in $dur s: $rate bit/s"
[ "$rate" -ge 3800000 ] && [ "$rate" -le 4200000 ] ||
	fail "video bitrate $rate bit/s, configured 4000000"
others=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' rec.check | grep -vx '257\|258' || true)
[ -z "$others" ] || fail "recording has unrequested PIDs: $others"
cat /proc/vtunerc0
daemon_stop cli
daemon_stop srv
