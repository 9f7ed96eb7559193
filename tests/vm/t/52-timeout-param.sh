#!/bin/bash
# timeout_ms at run time (issue 25, item 2): a value outside 10-60000 is
# refused (0 would fail every exchange, a huge one let the frontend
# thread wait practically forever), one inside is taken and used.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
param=/sys/module/vtunerc/parameters/timeout_ms

vt_load
[ "$(cat $param)" = 2000 ] || fail "timeout_ms is $(cat $param), want 2000"
for v in 0 9 60001 4294967295 99999999999 -1 abc; do
	if (echo "$v" >$param) 2>/dev/null; then
		fail "timeout_ms=$v was accepted at run time (now $(cat $param))"
	fi
	[ "$(cat $param)" = 2000 ] || fail "timeout_ms became $(cat $param) after $v"
done
for v in 10 60000 150; do
	echo "$v" >$param || fail "timeout_ms=$v was refused"
	[ "$(cat $param)" = "$v" ] || fail "timeout_ms reads $(cat $param) after $v"
done
# 150 ms is used: a call the owner never answers fails after it
tuner_start t0 -d /dev/vtunerc0 --ignore SET_TONE
out=$("$VT_TOOLS/vt-fecall" tone on) && fail "unanswered tone succeeded"
echo "$out"
ms=$(sed -n 's/.* ms=\([0-9]*\).*/\1/p' <<<"$out")
[ "$ms" -ge 100 ] && [ "$ms" -lt 1500 ] || fail "unanswered tone took $ms ms with timeout_ms=150"
tuner_stop t0
vt_unload
if insmod "$VT_KO" timeout_ms=60001 2>/dev/null; then
	fail "timeout_ms=60001 was accepted at load time"
fi
dmesg | tail -5 | grep -q "timeout_ms=60001 is out of range" || fail "no message for timeout_ms=60001"
