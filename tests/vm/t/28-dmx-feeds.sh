#!/bin/bash
# Demux requests whose feeds cannot all start, while TS flows: dvb-core
# leaves such feeds behind (a released one on a running filter on 6.1, a
# started one without owner on both kernels), and a later stop or close
# called through one that had become a section feed, at the section's
# bytes (found by vt-fuzz, seed 10, on 6.1).  vtunerc's demux guard
# refuses them first: a second PID on a decoder PES type, and starting a
# two-PID filter with one free feed; with enough feeds it starts.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

make_ts in.ts 3
vt_load
tuner_start t0 -d /dev/vtunerc0 --delsys dvbc --freq 346000000 \
	--ts in.ts --loop --rate 2000000

cat >ch.conf <<'CONF'
[VT_One]
	DELIVERY_SYSTEM = DVBC/ANNEX_A
	FREQUENCY = 346000000
	SYMBOL_RATE = 6900000
	MODULATION = QAM/256
	INNER_FEC = NONE
CONF
# dvbv5-zap holds the tune (no PID of its own) while vt-dmxfail runs
timeout 40 dvbv5-zap -a 0 -c ch.conf -m VT_One >zap.out 2>&1 &
zap=$!
sleep 3

"$VT_TOOLS/vt-dmxfail" decoder 256 257 0 | tee decoder.out
grep -q "^set_pes_filter_video0 rc=0 " decoder.out || fail "a VIDEO0 filter does not start"
grep -q "^add_pid rc=-1 errno=22 " decoder.out ||
	fail "a second PID on a decoder PES type was not refused with EINVAL"
grep -q "^set_filter rc=0 " decoder.out || fail "the section filter does not start"
grep -q "^stop rc=0 " decoder.out || fail "DMX_STOP of the VIDEO0 filter failed"

"$VT_TOOLS/vt-dmxfail" exhaust 256 257 | tee exhaust.out
grep -q "^feeds_taken 25[0-9] " exhaust.out || fail "the other filter did not take the feeds"
grep -q "^start_two_pids_one_feed rc=-1 errno=16 " exhaust.out ||
	fail "a two-PID filter with one free feed was not refused with EBUSY"
grep -q "^start_two_pids_two_feeds rc=0 " exhaust.out ||
	fail "a two-PID filter with two free feeds does not start"

# no feed was lost: the same run again takes as many
"$VT_TOOLS/vt-dmxfail" exhaust 256 257 >exhaust2.out
n1=$(sed -n 's/^feeds_taken \([0-9]*\) .*/\1/p' exhaust.out)
n2=$(sed -n 's/^feeds_taken \([0-9]*\) .*/\1/p' exhaust2.out)
[ "$n1" = "$n2" ] || fail "feeds lost: $n1 taken by the first run, $n2 by the second"
grep -q "^start_two_pids_two_feeds rc=0 " exhaust2.out ||
	fail "the second run's two-PID filter does not start"
kill "$zap" 2>/dev/null || true
wait "$zap" 2>/dev/null || true
tuner_stop t0
