#!/bin/bash
# The VM suite on several kernels side by side (make check-vm), one boot,
# i.e. one single-threaded QEMU, per kernel and shard, at most VM_JOBS at a
# time (default: one more than the machine has cores).  Each kernel's tests
# fall into two shards: shard0 holds those that keep the guest's CPUs busy,
# shard1 those that mostly wait (w_scan's tune timeouts, netem delays,
# sleeps), as each test says in a "# vm-cost: SECONDS BUSY%" line (the time
# it usually takes and how busy the guest was meanwhile, as run.sh prints
# them; a test without a BUSY% is a busy one).  The busy shards start first,
# one QEMU per core; the waiting shards run beside them on the CPU time they
# leave.  Each shard writes its own log, <build>/vm/<kernel>/shard<N>/run.log;
# while they run, a progress line says how many tests each kernel has done,
# and at the end the logs are printed whole, kernel by kernel, each shard
# with its "vm KERNEL (shardN): N passed, N failed, N skipped" line and the
# time it took.
#   run-kernels.sh BUILD_DIR KERNEL... -- TEST...
# Every kernel is run even if one fails; exits 1 if any failed.
set -uo pipefail

[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR KERNEL... -- TEST..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
build=$1
shift
kernels=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	kernels+=("$1")
	shift
done
[ "${1:-}" = -- ] || { echo "run-kernels.sh: no -- before the tests" >&2; exit 2; }
shift
tests=("$@")
[ ${#kernels[@]} -gt 0 ] && [ ${#tests[@]} -gt 0 ] || { echo "run-kernels.sh: no kernels or no tests" >&2; exit 2; }
jobs=${VM_JOBS:-$(($(nproc) + 1))}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run-kernels.sh: VM_JOBS: a number, not '$jobs'" >&2; exit 2; }
# Two shards per kernel: shard0 the tests that keep the CPUs busy, shard1
# those that mostly wait (busy share below VM_WAIT_BUSY %, default 21:
# w_scan, and the tests that mostly sleep through timeouts, PID changes,
# scans and recordings, so that the waiting shards of both kernels, one
# after the other, take about as long as a busy one).
wait_busy=${VM_WAIT_BUSY:-21}
[[ $wait_busy =~ ^[0-9]+$ ]] || { echo "run-kernels.sh: VM_WAIT_BUSY: a number, not '$wait_busy'" >&2; exit 2; }
nshards=2
shard_tests=("" "")
shard_cost=(0 0)
for t in "${tests[@]}"; do
	read -r cost busy < <(sed -n 's/^# vm-cost: \([0-9][0-9]*\)\( \([0-9][0-9]*\)%\)\{0,1\}$/\1 \3/p' "$t" 2>/dev/null | head -n 1)
	s=0
	[ -n "${busy:-}" ] && [ "$busy" -lt "$wait_busy" ] && s=1
	shard_tests[s]="${shard_tests[s]} $t"
	shard_cost[s]=$((shard_cost[s] + ${cost:-30}))
done

# one job per kernel and shard, "kernel shard-index": the busy shards first
jobs_list=()
for ((s = 0; s < nshards; s++)); do
	for k in "${kernels[@]}"; do
		[ -n "${shard_tests[s]}" ] && jobs_list+=("$k $s")
	done
done

declare -A pid_of=() log_of=() start_of=() secs_of=() rc_of=()
for j in "${jobs_list[@]}"; do
	read -r k s <<<"$j"
	mkdir -p "$build/vm/$k/shard$s"
	log_of[$j]=$build/vm/$k/shard$s/run.log
	rm -f "${log_of[$j]}"
done

# the tests a kernel's shards have reported so far
done_count() {
	local j k n=0 c
	for j in "${jobs_list[@]}"; do
		[ "${j% *}" = "$1" ] || continue
		c=$(grep -cE '^(ok|FAIL|skip) ' "${log_of[$j]}" 2>/dev/null) || true
		n=$((n + ${c:-0}))
	done
	echo $n
}

progress() {
	local k line=""
	for k in "${kernels[@]}"; do
		line="$line  $k $(done_count "$k")/${#tests[@]}"
	done
	echo "check-vm: $((SECONDS - t0))s:$line"
}

# reap: note the end of every run that finished
reap() {
	local j
	for j in "${jobs_list[@]}"; do
		[ -n "${pid_of[$j]:-}" ] && [ -z "${secs_of[$j]:-}" ] || continue
		kill -0 "${pid_of[$j]}" 2>/dev/null && continue
		wait "${pid_of[$j]}"
		rc_of[$j]=$?
		secs_of[$j]=$((SECONDS - start_of[$j]))
	done
}

running() {
	local j n=0
	for j in "${jobs_list[@]}"; do
		[ -n "${pid_of[$j]:-}" ] && [ -z "${secs_of[$j]:-}" ] && n=$((n + 1))
	done
	echo $n
}

trap 'for j in "${jobs_list[@]}"; do [ -z "${pid_of[$j]:-}" ] || kill "${pid_of[$j]}" 2>/dev/null; done' EXIT
echo "check-vm: ${#tests[@]} tests on ${kernels[*]}, $nshards shards each, $jobs QEMUs at a time; logs in $build/vm/<kernel>/shard<N>/run.log"
for ((s = 0; s < nshards; s++)); do
	names=""
	for t in ${shard_tests[s]}; do
		names="$names $(basename "$t" .sh)"
	done
	echo "check-vm: shard$s, about ${shard_cost[s]}s:$names"
done
t0=$SECONDS
next=0
last=""
last_t=$SECONDS
while :; do
	reap
	while [ $next -lt ${#jobs_list[@]} ] && [ "$(running)" -lt "$jobs" ]; do
		j=${jobs_list[next]}
		next=$((next + 1))
		read -r k s <<<"$j"
		start_of[$j]=$SECONDS
		# shellcheck disable=SC2086 # the shard's tests, split at blanks
		"$here/run.sh" --kernel "$k" --build "$build" --shard "shard$s" ${shard_tests[s]} \
			>"${log_of[$j]}" 2>&1 </dev/null &
		pid_of[$j]=$!
	done
	[ "$(running)" = 0 ] && break
	# a line when something changed, at most one a minute
	p=$(progress)
	if [ "${p#*s:}" != "$last" ] && [ $((SECONDS - last_t)) -ge 60 ]; then
		echo "$p"
		last=${p#*s:}
		last_t=$SECONDS
	fi
	sleep 2
done
trap - EXIT

failed=""
for k in "${kernels[@]}"; do
	for j in "${jobs_list[@]}"; do
		[ "${j% *}" = "$k" ] || continue
		echo "---- check-vm on $k, shard${j#* } (${log_of[$j]})"
		cat "${log_of[$j]}"
		echo "check-vm: $k shard${j#* } took ${secs_of[$j]}s"
		if [ "${rc_of[$j]}" != 0 ]; then
			case $failed in *" $k"*) ;; *) failed="$failed $k" ;; esac
		fi
	done
done
echo "check-vm: all kernels took $((SECONDS - t0))s"
if [ -n "$failed" ]; then
	echo "check-vm: FAILED on:$failed"
	exit 1
fi
echo "check-vm: passed on ${kernels[*]}"
