#!/bin/bash
# Random ioctls, writes, opens and closes on the control device, racing
# with frontend and demux calls and a client that answers late or never:
# at least 100 000 operations, 50 of them messages to the owner, with no
# kernel splat (the harness fails the test on any WARNING, BUG, Oops or
# KASAN report in dmesg, and the kernel runs with slub_debug), while rmmod
# is attempted every 50 ms.
# vm-cost: 95 50%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

vt_load adapters=2 timeout_ms=20
# Unload attempts race with the fuzzing; with a frontend held open here,
# every one must be refused.
exec 3</dev/dvb/adapter0/frontend0
( while :; do rmmod vtunerc 2>/dev/null && echo unloaded >rmmod.out; sleep 0.05; done ) &
racer=$!
total=0
msgs=0
for seed in 1 2; do
	out=$(timeout 280 "$VT_TOOLS/vt-fuzz" --seed $seed --iterations 20000 \
		--duration 100 --dev /dev/vtunerc$((seed - 1)) \
		--adapter /dev/dvb/adapter$((seed - 1)) 2>&1 | tail -n 3) ||
		{ echo "$out"; fail "vt-fuzz seed $seed failed"; }
	echo "$out"
	n=$(sed -n 's/^vt-fuzz: \([0-9]*\) operations.*/\1/p' <<<"$out" | tail -n 1)
	[ -n "$n" ] || fail "no operation count from vt-fuzz"
	total=$((total + n))
	m=$(sed -n 's/^vt-fuzz: .* messages \([0-9]*\),.*/\1/p' <<<"$out" | tail -n 1)
	msgs=$((msgs + ${m:-0}))
done
kill $racer
wait $racer 2>/dev/null || true
[ ! -e rmmod.out ] || fail "vtunerc was unloaded while in use"
grep -q "^vtunerc " /proc/modules || fail "vtunerc is gone"
exec 3<&-
log "$total operations, $msgs messages to the owner"
[ $total -ge 100000 ] || fail "only $total operations"
# The frontend calls must reach an owner, not only find none.
[ $msgs -ge 50 ] || fail "only $msgs messages reached the owner"
# The module still works after the fuzzing, with a timeout a test tuner
# meets on a slow (KASAN, tests/vm/kasan.sh) or busy guest.
echo 2000 >/sys/module/vtunerc/parameters/timeout_ms
tuner_start t0 -d /dev/vtunerc0
"$VT_TOOLS/vt-fecall" tone on || fail "adapter broken after fuzzing"
tuner_stop t0
