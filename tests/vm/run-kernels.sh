#!/bin/bash
# The VM suite on several kernels side by side (make check-vm): one
# tests/vm/run.sh, i.e. one QEMU, per kernel, at most VM_JOBS at a time
# (default: as many as the machine has cores; each QEMU runs its vCPUs on
# one host thread, tcg,thread=single).  Each run writes to its own log,
# <build>/vm/<kernel>/check-vm.log; while they run, a progress line says
# how many tests each kernel has done, and at the end the logs are printed
# whole, one kernel after the other, each with its "vm KERNEL: N passed,
# N failed, N skipped" line, and the time it took.
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
jobs=${VM_JOBS:-$(nproc)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run-kernels.sh: VM_JOBS: a number, not '$jobs'" >&2; exit 2; }

declare -A pid_of=() log_of=() start_of=() secs_of=() rc_of=()
for k in "${kernels[@]}"; do
	mkdir -p "$build/vm/$k"
	log_of[$k]=$build/vm/$k/check-vm.log
done

# the tests a kernel's run has reported so far
done_count() { grep -cE '^(ok|FAIL|skip) ' "${log_of[$1]}" 2>/dev/null || true; }

progress() {
	local k line="" state
	for k in "${kernels[@]}"; do
		if [ -n "${secs_of[$k]:-}" ]; then
			state="finished"
		elif [ -n "${pid_of[$k]:-}" ]; then
			state="$(done_count "$k")/${#tests[@]}"
		else
			state="waiting"
		fi
		line="$line  $k $state"
	done
	echo "check-vm: $((SECONDS - t0))s:$line"
}

# reap: note the end of every run that finished
reap() {
	local k
	for k in "${kernels[@]}"; do
		[ -n "${pid_of[$k]:-}" ] && [ -z "${secs_of[$k]:-}" ] || continue
		kill -0 "${pid_of[$k]}" 2>/dev/null && continue
		wait "${pid_of[$k]}"
		rc_of[$k]=$?
		secs_of[$k]=$((SECONDS - start_of[$k]))
	done
}

running() {
	local k n=0
	for k in "${kernels[@]}"; do
		[ -n "${pid_of[$k]:-}" ] && [ -z "${secs_of[$k]:-}" ] && n=$((n + 1))
	done
	echo $n
}

trap 'for k in "${kernels[@]}"; do [ -z "${pid_of[$k]:-}" ] || kill "${pid_of[$k]}" 2>/dev/null; done' EXIT
echo "check-vm: ${#tests[@]} tests on ${kernels[*]}, $jobs at a time; logs in $build/vm/<kernel>/check-vm.log"
t0=$SECONDS
next=0
last=""
last_t=$SECONDS
while :; do
	reap
	while [ $next -lt ${#kernels[@]} ] && [ "$(running)" -lt "$jobs" ]; do
		k=${kernels[next]}
		next=$((next + 1))
		start_of[$k]=$SECONDS
		"$here/run.sh" --kernel "$k" --build "$build" "${tests[@]}" >"${log_of[$k]}" 2>&1 </dev/null &
		pid_of[$k]=$!
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
	echo "---- check-vm on $k ($build/vm/$k/check-vm.log)"
	cat "${log_of[$k]}"
	echo "check-vm: $k took ${secs_of[$k]}s"
	[ "${rc_of[$k]}" = 0 ] || failed="$failed $k"
done
echo "check-vm: all kernels took $((SECONDS - t0))s"
if [ -n "$failed" ]; then
	echo "check-vm: FAILED on:$failed"
	exit 1
fi
echo "check-vm: passed on ${kernels[*]}"
