#!/bin/bash
# Demux requests that dvb-core would carry out only in part (issue 25,
# item 1).  dvb-core releases a feed that fails to start but leaves the
# filter's pointer to it; once the feed is another filter's, a stop calls
# through it, and once it is a section feed, through the section's bytes.
#   sequence start      B asks for DMX_PES_VIDEO0, which A holds, then
#                       DMX_START; C takes a feed; B's DMX_REMOVE_PID;
#                       D's section feed; TS of D's PID, payload 0x41;
#                       C's DMX_STOP (a jump to 0x4141... on 6.1 and 6.12)
#   sequence immediate  the same with DMX_SET_PES_FILTER + immediate start
#   race                the PID of B's DMX_SET_PES_FILTER, then of a
#                       running filter's DMX_ADD_PID, made invalid while
#                       another request is held in a page fault on its
#                       argument (userfaultfd): a module that reads it
#                       twice uses the invalid one; then 8 s of a PID
#                       changed by another thread, with signals; no PID
#                       and no feed may be left over
#   refill              a running filter that lost its only PID takes two
# Every request refused must leave nothing behind; A, C and D must work.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
guard=$VT_TOOLS/vt-dmxguard

vt_load
for v in start immediate; do
	"$guard" sequence $v | tee seq-$v.out || fail "sequence $v: $(tail -n 1 seq-$v.out)"
	grep -q "^a_set_pes_filter_video0 rc=0 " seq-$v.out || fail "A's VIDEO0 filter does not start"
	grep -q "^c_set_pes_filter_other rc=0 " seq-$v.out || fail "C's filter does not start"
	grep -q "^d_set_filter rc=0 " seq-$v.out || fail "D's section filter does not start"
	grep -q "^c_stop rc=0 " seq-$v.out || fail "C's DMX_STOP failed"
done
grep -q "^b_start rc=-1 errno=22 " seq-start.out ||
	fail "B's DMX_START of a VIDEO0 filter while A holds VIDEO0 was not refused with EINVAL"
grep -q "^b_set_pes_filter_video0_immediate rc=-1 errno=22 " seq-immediate.out ||
	fail "B's VIDEO0 filter with immediate start while A holds VIDEO0 was not refused with EINVAL"

"$guard" race 8 | tee race.out || fail "race: $(tail -n 1 race.out)"
grep -q "^b_set_pes_filter_flipped rc=0 " race.out ||
	fail "B's filter did not start with the PID it was given"
grep -q "^x_add_pid_flipped rc=0 " race.out ||
	fail "DMX_ADD_PID did not add the PID it was given"
grep -q "^result ok" race.out || fail "race: no result"

"$guard" refill | tee refill.out || fail "refill: $(tail -n 1 refill.out)"
grep -q "^add_pid_to_empty rc=0 " refill.out || fail "DMX_ADD_PID on a running filter without PIDs failed"
