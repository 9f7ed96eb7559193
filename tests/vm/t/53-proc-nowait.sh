#!/bin/bash
# /proc/vtunercN (world-readable) and VTUNER_EXT_GET_COUNTERS while the
# owner is in one long write() (issue 25, item 3): both answer at once,
# with the counters as they stand, instead of waiting (in D state) for
# the whole write.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

vt_load
"$VT_TOOLS/vt-bigwrite" 1024 | tee big.out || fail "vt-bigwrite failed"
w=$(sed -n 's/^write bytes=[0-9]* ms=\([0-9]*\).*/\1/p' big.out)
[ "${w:-0}" -ge 1000 ] || fail "the write took ${w:-?} ms: too short to show anything"
for what in proc_read get_counters; do
	line=$(grep "^$what " big.out) || fail "no $what line"
	expect_fields "$line" during_write=yes
	ms=$(sed -n 's/.* ms=\([0-9]*\) .*/\1/p' <<<"$line")
	[ "$ms" -lt 500 ] || fail "$what took $ms ms during the write"
done
grep -q "^after bytes=1073741824 dropped_bytes=1073741824" big.out ||
	fail "counters after the write: $(grep '^after' big.out)"
