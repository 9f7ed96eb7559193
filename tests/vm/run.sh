#!/bin/bash
# Boot a Debian kernel under QEMU (TCG) and run VM tests inside it.
#   run.sh [--kernel K] [--build DIR] [--timeout SEC] [--results DIR]
#          [--append 'extra cmdline'] [--dir TESTDIR] [--bench]
#          [--shard NAME] [TEST...]
# TEST is a name (01-vidtv), a file name (01-vidtv.sh) or a path to a
# script in tests/vm/t/; none means all of them.  --bench boots without
# slub_debug (which poisons and checks every kernel allocation: right for
# the tests, wrong for timing the network stack) and with the guest's RAM
# allocated by QEMU before the boot (-mem-prealloc: otherwise the first
# touch of each guest page stalls the vCPU while the host backs it, a cost
# that falls on whichever path uses fresh memory first; see bench/HISTORY.md
# §2, seventh round; VT_LAZY_RAM=1 leaves it out).  Prints one line per test,
# appends the counts to <build>/vm/summary and exits 1 if a test failed or
# the VM died before every test reported (2 on usage errors).
# Environment: VT_TEST_TIMEOUT (s per test in the guest, default 300),
# VT_BOOT_TIMEOUT (s for the boot to reach the tests, default 300) and
# every BENCH_* variable are passed to the guest; VT_TCG_THREAD=multi runs
# the two vCPUs on two host threads (benchmarks only, see below);
# VT_QEMU_ARGS adds QEMU options; VT_SLUB sets the slub_debug flags (FZP,
# below).  --shard NAME keeps this run's console log and results in
# <build>/vm/<kernel>/NAME, so that several runs on one kernel
# (tests/vm/run-kernels.sh) can boot side by side.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

die() { echo "run.sh: $*" >&2; exit 2; }
usage() { sed -n '2,12s/^# \{0,1\}//p' "$0" >&2; exit 2; }

kver=""
build=$root/build
timeout=""
results=""
append=""
# VT_SLUB: the slub_debug flags of the tests' kernel, "" for none.  FZP
# checks and poisons every object (F sanity checks, Z red zones, P
# poison), which finds an overflow, a use after free or a double free
# when it happens; U would add the stacks of its allocation and last free
# to such a report, for 17 % more time on the whole suite: VT_SLUB=FZPU
# when a report needs them.
slub=${VT_SLUB-FZP}
slub=${slub:+slub_debug=$slub}
prealloc=()
shard=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kver=${2:?}; shift 2 ;;
	--build) build=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--results) results=${2:?}; shift 2 ;;
	--append) append=${2?}; shift 2 ;;
	--bench) slub=""; prealloc=(-mem-prealloc); shift ;;
	--dir) testdir=$(cd "${2:?}" && pwd) || die "no directory $2"; shift 2 ;;
	--shard) shard=${2:?}; shift 2 ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done

if [ -z "$kver" ]; then
	kernels=(/boot/vmlinuz-*)
	[ -e "${kernels[0]}" ] || die "no /boot/vmlinuz-* found; use --kernel"
	kver=$(printf '%s\n' "${kernels[@]#/boot/vmlinuz-}" | sort -V | tail -n 1)
fi
kernel=/boot/vmlinuz-$kver
[ -r "$kernel" ] || die "$kernel not found or not readable"
[ -d "/lib/modules/$kver" ] || die "/lib/modules/$kver not found"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not installed"

mkdir -p "$build"
build=$(realpath "$build")
# The guest mounts tmpfs over /tmp, /run, /var/tmp and /root: a tree in
# one of them (a CI clone in /tmp, say) is exported on its own and mounted
# back at the same path.  The build directory must then be inside it.
masked() {
	case $1/ in
	/tmp/* | /run/* | /var/tmp/* | /root/*) return 0 ;;
	*) return 1 ;;
	esac
}
repo_export=""
case $root/ in
/dev/* | /proc/* | /sys/*) die "$root cannot be seen inside the VM; move it" ;;
esac
if masked "$root"; then
	repo_export=$root
	[[ $root =~ ^[A-Za-z0-9/._+-]+$ ]] ||
		die "$root: only letters, digits and /._+- in a path under a tmpfs"
fi
if masked "$build"; then
	case $build/ in
	"$root"/*) ;;
	*) die "$build is hidden inside the VM (under a tmpfs mount); use a build directory inside $root" ;;
	esac
fi

tests=()
: "${testdir:=$here/t}"
[ $# -gt 0 ] || set -- "$testdir"/*.sh
for t in "$@"; do
	t=$(basename "$t" .sh)
	[[ $t =~ ^[A-Za-z0-9._-]+$ ]] || die "bad test name '$t'"
	[ -x "$testdir/$t.sh" ] || die "no executable test $testdir/$t.sh"
	tests+=("$t")
done
[ ${#tests[@]} -gt 0 ] || die "no tests in $testdir"
# the whole run's bound: each test's own (its "# vm-timeout:" line, at
# least 330 s, as guest.sh gives it) and two minutes for the boot
if [ -z "$timeout" ]; then
	timeout=120
	for t in "${tests[@]}"; do
		m=$(sed -n 's/^# vm-timeout: \([0-9][0-9]*\)$/\1/p' "$testdir/$t.sh" | head -n 1)
		[ "${m:-0}" -gt 330 ] || m=330
		timeout=$((timeout + m))
	done
fi
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout wants seconds, not '$timeout'"

[[ $shard =~ ^[A-Za-z0-9._-]*$ ]] || die "bad shard name '$shard'"
kdir=$build/vm/$kver
vmdir=$kdir${shard:+/$shard}
mkdir -p "$vmdir"
# One run per kernel and shard at a time: they share the console log and
# default results directory.  qemu inherits the lock.
exec 9>"$vmdir/lock"
if ! flock -n 9; then
	echo "run.sh: waiting for another run on $kver${shard:+ ($shard)} to finish" >&2
	flock 9
fi
initrd=$kdir/initramfs.cpio.gz
console=$vmdir/console.log
results=${results:-$vmdir/results}

# The shards of a kernel share its initramfs: one builds it, the others wait.
(
	flock 8
	if [ ! -f "$initrd" ] || [ "$here/mkinitramfs.sh" -nt "$initrd" ] ||
		[ "/lib/modules/$kver/modules.dep" -nt "$initrd" ]; then
		"$here/mkinitramfs.sh" "$kver" "$initrd" || die "building $initrd failed"
	fi
) 8>"$kdir/initramfs.lock" || exit 2

# Never wipe a directory we did not create.
if [ -d "$results" ] && [ -n "$(ls -A "$results")" ] && [ ! -e "$results/.vt-results" ]; then
	die "$results is not empty and not a results directory of ours"
fi
rm -rf "$results"
mkdir -p "$results"
results=$(realpath "$results")
touch "$results/.vt-results" "$results/status"
{
	printf 'VT_ROOT=%q\n' "$root"
	printf 'VT_BUILD=%q\n' "$build"
	printf 'VT_BOOT_KVER=%q\n' "$kver"
	printf 'VT_TESTS=%q\n' "${tests[*]}"
	printf 'VT_TESTDIR=%q\n' "$testdir"
	printf 'VT_TEST_TIMEOUT=%q\n' "${VT_TEST_TIMEOUT:-300}"
	for v in $(compgen -v BENCH_); do printf '%s=%q\n' "$v" "${!v}"; done
} >"$results/guest.env"

# thread=single: with multi-threaded TCG, 6.12 sometimes oopses at boot on
# an int3 left by cross-CPU text patching (static keys); one vCPU thread
# keeps that coherent at the price of ~25% speed.  VT_TCG_THREAD=multi
# trades that for twice the CPU, for benchmarks that ask how a path
# scales (a boot that oopses just fails).
tcg_thread=${VT_TCG_THREAD:-single}
case $tcg_thread in single | multi) ;; *) die "VT_TCG_THREAD: single or multi" ;; esac
qemu=(qemu-system-x86_64 -nographic -no-reboot -m 2048 -smp 2 -accel "tcg,thread=$tcg_thread" -nic none
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 quiet loglevel=5 panic=-1 panic_on_warn=1 oops=panic ${slub:+$slub }${repo_export:+vt_repo=$repo_export }$append"
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot"
	-fsdev "local,id=results,path=${results//,/,,},security_model=none"
	-device "virtio-9p-pci,fsdev=results,mount_tag=results")
# VT_LAZY_RAM=1: not even for --bench (to measure what it changes)
[ "${VT_LAZY_RAM:-0}" = 1 ] && prealloc=()
qemu+=(${prealloc[@]+"${prealloc[@]}"})
# VT_QEMU_ARGS: more QEMU options, split at blanks.
if [ -n "${VT_QEMU_ARGS:-}" ]; then
	read -r -a extra <<<"$VT_QEMU_ARGS"
	qemu+=("${extra[@]}")
fi
if [ -n "$repo_export" ]; then
	qemu+=(-fsdev "local,id=repo,path=$repo_export,security_model=none,readonly=on,multidevs=remap"
		-device "virtio-9p-pci,fsdev=repo,mount_tag=repo")
fi

declare -A reported=()
npass=0 nfail=0 nskip=0 nlines=0 finished=0

# Print the status lines the guest added since the last call.
report_new() {
	local line verdict name secs reason
	while IFS= read -r line; do
		nlines=$((nlines + 1))
		if [ "$line" = "done" ]; then
			finished=1
			continue
		fi
		read -r verdict name secs reason <<<"$line"
		busy=${secs#*:}  # SECONDS:BUSY%, the guest CPUs' busy share
		secs=${secs%%:*}
		reported[$name]=1
		case $verdict in
		ok)
			npass=$((npass + 1))
			echo "ok $kver $name (${secs}s, ${busy}% busy)"
			;;
		skip)
			nskip=$((nskip + 1))
			echo "skip $kver $name${reason:+: $reason}"
			;;
		*)
			nfail=$((nfail + 1))
			echo "FAIL $kver $name (${secs}s, ${busy}% busy): $reason"
			tail -n 30 "$results/$name.log" | sed 's/^/    /'
			;;
		esac
	done < <(tail -n +$((nlines + 1)) "$results/status")
}

# A boot that has not reached the guest's test loop in VT_BOOT_TIMEOUT
# seconds (default 300; a boot takes 10-60 s, more on a loaded host) is
# hung, as 6.12 under TCG once was after "amd_pstate", at full CPU: it is
# killed and booted again, once.
boot_timeout=${VT_BOOT_TIMEOUT:-300}
[[ $boot_timeout =~ ^[1-9][0-9]*$ ]] || die "VT_BOOT_TIMEOUT wants seconds, not '$boot_timeout'"
start=$SECONDS
timed_out=0
for boot in 1 2; do
	boot_start=$SECONDS
	"${qemu[@]}" </dev/null >"$console" 2>&1 &
	qpid=$!
	trap 'kill $qpid 2>/dev/null || true' EXIT
	booted=0
	hung=0
	while kill -0 $qpid 2>/dev/null; do
		report_new
		if [ $booted = 0 ] && grep -q '^vm-guest: kernel' "$console"; then
			booted=1
		fi
		if [ $booted = 0 ] && [ $((SECONDS - boot_start)) -ge "$boot_timeout" ]; then
			hung=1
			kill $qpid 2>/dev/null || true
			break
		fi
		if [ $((SECONDS - start)) -ge "$timeout" ]; then
			timed_out=1
			kill $qpid 2>/dev/null || true
			break
		fi
		sleep 1
	done
	[ $hung = 1 ] && [ $boot = 1 ] || break
	wait $qpid || true
	echo "run.sh: $kver${shard:+ ($shard)}: the boot did not reach the tests in ${boot_timeout}s; last lines of $console:"
	tail -n 5 "$console" | sed 's/^/    /'
	cp "$console" "$console.hung"
	echo "run.sh: booting again"
done
qrc=0
wait $qpid || qrc=$?
trap - EXIT
report_new
elapsed=$((SECONDS - start))

# A panic counts even after the last test: e.g. at poweroff, device_shutdown()
# trips over devices a module left behind.
vm_state=""
if grep -q 'Kernel panic' "$console"; then
	vm_state="kernel panic"
elif [ $finished = 0 ] && [ $hung = 1 ]; then
	vm_state="boot hung twice"
elif [ $finished = 0 ] && [ $timed_out = 1 ]; then
	vm_state="timed out after ${timeout}s"
elif [ $finished = 0 ]; then
	vm_state="VM stopped early (qemu status $qrc)"
fi
if [ -n "$vm_state" ]; then
	for t in "${tests[@]}"; do
		[ -z "${reported[$t]:-}" ] || continue
		nfail=$((nfail + 1))
		echo "FAIL $kver $t: not completed: $vm_state"
	done
	echo "---- $vm_state; last 60 lines of $console"
	tail -n 60 "$console"
fi

counts="$npass passed, $nfail failed, $nskip skipped"
echo "$(date '+%F %T') $kver${shard:+ ($shard)}: $counts in ${elapsed}s${vm_state:+ ($vm_state)}" >>"$build/vm/summary"
echo "vm $kver${shard:+ ($shard)}: $counts in ${elapsed}s${vm_state:+ ($vm_state)}"
[ $nfail = 0 ] && [ -z "$vm_state" ]
