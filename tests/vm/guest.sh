#!/bin/bash
# Guest side of the VM test harness.  /init of the initramfs runs it inside
# the VM, chrooted into the host's root, with the variables of
# /tmp/results/guest.env (written by run.sh) in the environment:
#   VT_ROOT VT_BUILD VT_BOOT_KVER VT_TESTS
# For each test in VT_TESTS it writes /tmp/results/<test>.log and appends
#   <ok|FAIL|skip> <test> <seconds> [reason]
# to /tmp/results/status; "done" is the last line once every test ran.
set -euo pipefail

results=/tmp/results
status=$results/status
test_timeout=${VT_TEST_TIMEOUT:-300}
kernel_bad='WARNING:|BUG:|Call Trace|general protection|Oops|KASAN|UBSAN|kernel BUG|refcount_t'
# Modules a test may leave behind, in unload order.
test_modules="vtunerc dvb_vidtv_bridge dvb_vidtv_demod dvb_vidtv_tuner"

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LC_ALL=C.UTF-8
VT_KVER=$(uname -r)
export VT_KVER VT_KO=$VT_BUILD/kernel/$VT_KVER/vtunerc.ko VT_VIDTV=$VT_BUILD/vidtv/$VT_KVER

say() { echo "vm-guest: $*"; }

loaded() { grep -q "^$1 " /proc/modules; }

# SIGKILL every user process except init and this shell, so that nothing a
# test left running keeps a module busy.
kill_leftovers() {
	local p left=""
	for p in /proc/[0-9]*; do
		p=${p#/proc/}
		# Kernel threads have no exe.
		if [ "$p" = 1 ] || [ "$p" = $$ ] || [ ! -e "/proc/$p/exe" ]; then
			continue
		fi
		echo "harness: killing leftover process $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
		kill -9 "$p" 2>/dev/null || true
		left="$left $p"
	done
	for p in $left; do
		timeout 5 tail --pid="$p" -f /dev/null 2>/dev/null || true
	done
}

run_test() {
	local name=$1 script=${VT_TESTDIR:-$VT_ROOT/tests/vm/t}/$1.sh
	local log=$results/$1.log dir=$results/$1
	local rc verdict reason="" start secs m msg limit=$test_timeout
	local busy u0 n0 s0 i0 w0 u1 n1 s1 i1 w1

	# a test that needs longer says so in a "# vm-timeout: SECONDS" line
	m=$(sed -n 's/^# vm-timeout: \([0-9][0-9]*\)$/\1/p' "$script" | head -n 1)
	[ -z "$m" ] || [ "$m" -le "$limit" ] || limit=$m
	say "running $name"
	mkdir -p "$dir"
	dmesg -C
	start=$SECONDS
	read -r _ u0 n0 s0 i0 w0 _ </proc/stat
	set +e
	(cd "$dir" && VT_RESULTS=$dir exec timeout -k 10 "$limit" "$script") \
		</dev/null >"$log" 2>&1
	rc=$?
	set -e
	secs=$((SECONDS - start))
	# how busy the guest's CPUs were: a test that mostly waits (timeouts,
	# sleeps) leaves room for another QEMU beside it (run-kernels.sh)
	read -r _ u1 n1 s1 i1 w1 _ </proc/stat
	busy=$(((u1 + n1 + s1 - u0 - n0 - s0) * 100 /
		(u1 + n1 + s1 + i1 + w1 - u0 - n0 - s0 - i0 - w0 + 1)))
	case $rc in
	0) verdict=ok ;;
	77)
		verdict=skip
		reason=$(sed -n 's/^SKIP: //p' "$log" | tail -n 1)
		;;
	124 | 137) verdict=FAIL reason="timed out after ${limit}s" ;;
	*) verdict=FAIL reason="exit status $rc" ;;
	esac

	{
		echo "---- harness: test exited with status $rc"
		kill_leftovers
		# a test killed by its timeout leaves its network namespaces
		if [ -n "$(ip netns list 2>/dev/null)" ]; then
			echo "harness: deleting leftover network namespaces: $(ip netns list | tr '\n' ' ')"
			ip -all netns delete 2>&1 || true
		fi
		for m in $test_modules; do
			loaded "$m" || continue
			if ! rmmod "$m" 2>&1; then
				msg="rmmod $m failed"
				echo "harness: $msg"
				verdict=FAIL reason="${reason:+$reason; }$msg"
			fi
		done
		echo "---- dmesg during the test"
		dmesg
	} >>"$log" 2>&1
	if dmesg | grep -qE "$kernel_bad"; then
		verdict=FAIL reason="${reason:+$reason; }kernel warning in dmesg"
	fi
	echo "$verdict $name $secs:$busy${reason:+ $reason}" >>"$status"
	say "$verdict $name"
}

say "kernel $VT_KVER, tests: $VT_TESTS"
modprobe dvb-core || { say "modprobe dvb-core failed"; exit 1; }
for t in $VT_TESTS; do
	run_test "$t"
done
echo "done" >>"$status"
