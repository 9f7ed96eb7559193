#!/bin/bash
# vtunerc under a debug kernel (docs/testing-kasan.md): build Debian's 6.1
# source (linux-source-6.1) with KASAN, kmemleak, lockdep (PROVE_LOCKING),
# UBSAN and DEBUG_ATOMIC_SLEEP, install it as /boot/vmlinuz-<ver> and
# /lib/modules/<ver> (without the build and source links, so that make
# check does not take it for one of its kernels), build the module and the
# test programs for it in DIR/build, and run tests/vm/kasan/ (the fuzzer,
# the kernel-facing tests and kmemleak scans) on it with tests/vm/run.sh.
#   tests/vm/kasan.sh [--dir DIR] [--jobs N] [--build-only | --run-only]
#                     [TEST...]
# DIR (default /var/cache/vtuner-kasan; not under /tmp, /run, /var/tmp or
# /root, which the VM cannot see) holds the kernel tree, DIR/build the
# module, the programs and the results (DIR/build/vm/<ver>/).  TEST: names
# of tests/vm/kasan/ (default all).  As root; about 35 min of build on 2
# cores (nice 5), and 1-2 h of tests under TCG.  VT_TEST_TIMEOUT (default
# 1800) and VT_BOOT_TIMEOUT (default 900) go to run.sh.  The kernel boots
# with kmemleak=on, panic_on_warn=0 and kasan_multi_shot, so that one run
# reports every finding (each fails its test through the harness's dmesg
# check) instead of stopping at the first, and loglevel=7, so that the
# console log is the whole kernel log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
die() { echo "kasan.sh: $*" >&2; exit 2; }
say() { echo "kasan.sh: $(date +%T) $*"; }

dir=/var/cache/vtuner-kasan
jobs=$(nproc)
build=1
run=1
while [ $# -gt 0 ]; do
	case $1 in
	--dir) dir=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--build-only) run=0; shift ;;
	--run-only) build=0; shift ;;
	-h | --help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ "$(id -u)" = 0 ] || die "run as root (installs to /boot and /lib/modules)"
mkdir -p "$dir"
dir=$(realpath "$dir")
src=$dir/linux-source-6.1
tarball=/usr/src/linux-source-6.1.tar.xz
frag=$here/kasan/kasan.config

if [ $build = 1 ]; then
	if [ ! -f "$src/Makefile" ]; then
		[ -f $tarball ] || die "$tarball missing (apt-get install linux-source-6.1)"
		say "extracting $tarball"
		tar -xJf $tarball -C "$dir"
	fi
	cd "$src"
	if [ ! -f .config ] || [ "$frag" -nt .config ]; then
		say "configuring: x86_64_defconfig, kvm_guest.config, $frag"
		make -s x86_64_defconfig
		make -s kvm_guest.config
		scripts/kconfig/merge_config.sh -m .config "$frag" >/dev/null
		make -s olddefconfig
		# every option of the fragment must have survived olddefconfig
		bad=0
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				grep -qxF "$line" .config && continue
				opt=${line%%=*}
				;;
			"# CONFIG_"*" is not set")
				opt=${line#\# }
				opt=${opt%% *}
				grep -q "^$opt=" .config || continue
				;;
			*) continue ;;
			esac
			echo "kasan.sh: $line: .config has $(grep -E "^(# )?${opt}[= ]" .config)" >&2
			bad=1
		done <"$frag"
		[ $bad = 0 ] || die "the configuration lost options of $frag"
	fi
	say "building bzImage and modules (-j$jobs)"
	start=$SECONDS
	nice -n 5 make -s -j"$jobs" bzImage modules
	say "kernel built in $((SECONDS - start)) s"
	kver=$(make -s kernelrelease)
	make -s modules_install
	# not a kernel to build the module against by default (KVERS of the
	# top Makefile is every /lib/modules/*/build)
	rm -f "/lib/modules/$kver/build" "/lib/modules/$kver/source"
	cp arch/x86/boot/bzImage "/boot/vmlinuz-$kver"
	cp System.map "/boot/System.map-$kver"
	cp .config "/boot/config-$kver"
	say "installed /boot/vmlinuz-$kver and /lib/modules/$kver"
	cd "$root"
	make -s B="$dir/build" KVERS="$kver" KDIR="$src" all bench-tools
	# vidtv, for the vidtv tests (tests/vm/build-vidtv.sh's layout)
	mkdir -p "$dir/build/vidtv/$kver"
	cp "$src"/drivers/media/test-drivers/vidtv/dvb-vidtv-*.ko "$dir/build/vidtv/$kver/"
	say "vtunerc.ko and the programs built in $dir/build"
fi
[ $run = 1 ] || exit 0

kver=$(make -s -C "$src" kernelrelease)
[ -f "$dir/build/kernel/$kver/vtunerc.ko" ] || die "no $dir/build/kernel/$kver/vtunerc.ko: build first"
say "running tests/vm/kasan on $kver"
rc=0
VT_TEST_TIMEOUT=${VT_TEST_TIMEOUT:-1800} VT_BOOT_TIMEOUT=${VT_BOOT_TIMEOUT:-900} \
	VT_QEMU_ARGS="-cpu max,la57=off${VT_QEMU_ARGS:+ $VT_QEMU_ARGS}" \
	"$here/run.sh" --kernel "$kver" --build "$dir/build" --dir "$here/kasan" \
	--timeout "${VT_KASAN_TIMEOUT:-14400}" \
	--append "kmemleak=on panic_on_warn=0 kasan_multi_shot loglevel=7" "$@" || rc=$?
res=$dir/build/vm/$kver
echo "---- kernel reports in $res/console.log (the whole kernel log; per test: $res/results/)"
for pat in 'BUG: KASAN' 'UBSAN' 'possible circular locking' 'WARNING' \
	'general protection' 'BUG:' 'Call Trace' 'kmemleak:'; do
	printf '%6s  %s\n' "$(grep -c -- "$pat" "$res/console.log" || true)" "$pat"
done
grep -h 'unreferenced objects (kmemleak.txt)' "$res"/results/*.log 2>/dev/null || true
exit $rc
