#!/bin/bash
# The whole test suite (make check): every stage runs even when an earlier
# one fails; each reports "N passed, N failed" (the VM suite one line per
# kernel), and the last line printed here is the total over all stages.
# Usage: check.sh STAGE...   where a stage is a make target.
set -uo pipefail
: "${B:=build}"
mkdir -p "$B/results"
total_p=0
total_f=0
summary=()
start_all=$(date +%s)
for stage in "$@"; do
	log=$B/results/$stage.log
	start=$(date +%s)
	echo "=== $stage"
	${MAKE:-make} --no-print-directory "$stage" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	secs=$(($(date +%s) - start))
	p=0
	f=0
	n=0
	while read -r lp lf; do
		p=$((p + lp))
		f=$((f + lf))
		n=$((n + 1))
	done < <(sed -nE 's/^(.*: )?([0-9]+) passed, ([0-9]+) failed.*/\2 \3/p' "$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		# The stage broke before or outside its tests.
		f=$((f + 1))
	fi
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	summary+=("$(printf '%-12s %4d passed, %3d failed  (%ds)' "$stage" "$p" "$f" "$secs")")
done
echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "suite took $(($(date +%s) - start_all))s"
echo "$total_p passed, $total_f failed"
[ "$total_f" = 0 ]
