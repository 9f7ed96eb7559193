#!/bin/bash
# The whole test suite (make check): every stage runs even when an earlier
# one fails; each reports "N passed, N failed" (the VM suite one line per
# kernel and shard), and the last line printed here is the total over all
# stages.
# Usage: check.sh STAGE...   where a stage is a make target.
# check-vm, the longest stage by far, runs beside the others: what it needs
# is built first (make check-vm-deps), then its QEMUs start, and the other
# stages run meanwhile at nice 10, on the CPU time the QEMUs leave; its log
# is printed after theirs.  VT_CHECK_SERIAL=1 runs every stage in turn.
set -uo pipefail
: "${B:=build}"
mkdir -p "$B/results"
total_p=0
total_f=0
summary=()
start_all=$(date +%s)
make=${MAKE:-make}

# count STAGE RC SECS: add the stage's "N passed, N failed" lines to the totals
count() {
	local stage=$1 rc=$2 secs=$3 log=$B/results/$1.log p=0 f=0 lp lf
	while read -r lp lf; do
		p=$((p + lp))
		f=$((f + lf))
	done < <(sed -nE 's/^(.*: )?([0-9]+) passed, ([0-9]+) failed.*/\2 \3/p' "$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		# The stage broke before or outside its tests.
		f=$((f + 1))
	fi
	total_p=$((total_p + p))
	total_f=$((total_f + f))
	summary+=("$(printf '%-12s %4d passed, %3d failed  (%ds)' "$stage" "$p" "$f" "$secs")")
}

stages=()
bg=""
for stage in "$@"; do
	if [ "$stage" = check-vm ] && [ "${VT_CHECK_SERIAL:-0}" != 1 ] && [ $# -gt 1 ]; then
		bg=$stage
	else
		stages+=("$stage")
	fi
done

if [ -n "$bg" ]; then
	echo "=== $bg (beside the other stages; its log follows theirs)"
	bg_log=$B/results/$bg.log
	bg_start=$(date +%s)
	# its prerequisites first, so that no two makes build the same files
	if $make --no-print-directory check-vm-deps >"$bg_log" 2>&1; then
		$make --no-print-directory "$bg" >>"$bg_log" 2>&1 </dev/null &
		bg_pid=$!
	else
		tail -n 30 "$bg_log"
		bg_pid=""
	fi
fi

for stage in "${stages[@]}"; do
	log=$B/results/$stage.log
	start=$(date +%s)
	echo "=== $stage"
	if [ -n "$bg" ]; then
		nice -n 10 $make --no-print-directory "$stage" 2>&1 | tee "$log"
	else
		$make --no-print-directory "$stage" 2>&1 | tee "$log"
	fi
	rc=${PIPESTATUS[0]}
	count "$stage" "$rc" $(($(date +%s) - start))
done

if [ -n "$bg" ]; then
	echo "=== $bg"
	rc=1
	if [ -n "$bg_pid" ]; then
		wait "$bg_pid"
		rc=$?
	fi
	cat "$bg_log"
	count "$bg" "$rc" $(($(date +%s) - bg_start))
fi

echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "suite took $(($(date +%s) - start_all))s"
echo "$total_p passed, $total_f failed"
[ "$total_f" = 0 ]
