#!/bin/bash
# More of vt-fuzz for the KASAN kernel of tests/vm/kasan.sh, after
# 27-fuzz: four more seeds, one adapter each, each for 150 s with rmmod
# attempted every 50 ms; vt-fuzz must finish without anomaly or hang, and
# what the kernel thinks of it is in dmesg (the harness fails the test on
# a KASAN, UBSAN, lockdep or other report).
# vm-timeout: 1800
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
secs=150
seeds=(3 10 25 77)
vt_load adapters=${#seeds[@]} timeout_ms=20
exec 3</dev/dvb/adapter0/frontend0
( while :; do rmmod vtunerc 2>/dev/null && echo unloaded >rmmod.out; sleep 0.05; done ) &
racer=$!
i=0
for seed in "${seeds[@]}"; do
	out=$(timeout $((secs * 2 + 60)) "$VT_TOOLS/vt-fuzz" --seed "$seed" \
		--iterations 1000000 --duration "$secs" --hang-timeout 60 \
		--dev /dev/vtunerc$i --adapter /dev/dvb/adapter$i 2>&1 | tail -n 3) ||
		{ echo "$out"; fail "vt-fuzz seed $seed failed"; }
	echo "seed $seed: $out"
	i=$((i + 1))
done
kill $racer
wait $racer 2>/dev/null || true
[ ! -e rmmod.out ] || fail "vtunerc was unloaded while in use"
exec 3<&-
# the module still works, with a timeout a test tuner under KASAN meets
echo 2000 >/sys/module/vtunerc/parameters/timeout_ms
tuner_start t0 -d /dev/vtunerc0
"$VT_TOOLS/vt-fecall" tone on || fail "adapter broken after fuzzing"
tuner_stop t0
