#!/bin/bash
# Build the test VM's initramfs for one kernel.
#   mkinitramfs.sh <kver> <out.cpio.gz>
# Contents: static busybox, the modules needed to reach the host over 9p
# (virtio-pci, 9pnet_virtio, 9p and whatever they depend on, in load order;
# built-in ones are skipped), and an /init that mounts the host's root
# read-only at /host, a writable "results" export at /host/tmp/results,
# chroots into /host and runs the harness's guest side, then powers off.
set -euo pipefail

die() { echo "mkinitramfs: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: $0 <kver> <out.cpio.gz>"
kver=$1
out=$2
moddir=/lib/modules/$kver
busybox=/usr/bin/busybox
[ -f "$moddir/modules.dep" ] || die "$moddir/modules.dep not found"
file -L "$busybox" | grep -q 'statically linked' ||
	die "$busybox is missing or not static (apt-get install busybox-static)"

# Modules we need, leaves only: modules.dep supplies their dependencies.
wanted="virtio_pci 9pnet_virtio 9p"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,dev,proc,sys,host,lib/modules}
cp "$busybox" "$root/bin/busybox"

# Print the modules.dep paths for module $1: dependencies first, then itself.
load_order() {
	local line deps i
	line=$(grep -E "(^|/)$1\.ko(\.xz|\.zst|\.gz)?:" "$moddir/modules.dep") || {
		grep -qE "(^|/)$1\.ko\$" "$moddir/modules.builtin" ||
			die "module $1 is neither in modules.dep nor built into $kver"
		return 0
	}
	read -ra deps <<<"${line#*:}"
	for ((i = ${#deps[@]} - 1; i >= 0; i--)); do
		echo "${deps[i]}"
	done
	echo "${line%%:*}"
}

order=()
for m in $wanted; do
	while read -r path; do
		[ -n "$path" ] || continue
		[[ " ${order[*]} " == *" $path "* ]] || order+=("$path")
	done < <(load_order "$m")
done

: >"$root/lib/modules/load-order"
for path in "${order[@]}"; do
	name=$(basename "$path")
	case $name in
	*.ko) cp "$moddir/$path" "$root/lib/modules/$name" ;;
	*.ko.xz) xz -dc "$moddir/$path" >"$root/lib/modules/${name%.xz}" ;;
	*.ko.zst) zstd -qdc "$moddir/$path" >"$root/lib/modules/${name%.zst}" ;;
	*.ko.gz) gzip -dc "$moddir/$path" >"$root/lib/modules/${name%.gz}" ;;
	*) die "unexpected module file $path" ;;
	esac
	echo "${name%.ko*}.ko" >>"$root/lib/modules/load-order"
done

# The kernel's own module requests (request_module) run /sbin/modprobe in
# this initramfs, not in the chroot: hand them to the host's modprobe.
cat >"$root/sbin/modprobe" <<'SH'
#!/bin/busybox sh
exec /bin/busybox chroot /host /sbin/modprobe "$@"
SH

cat >"$root/init" <<'SH'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
abort() { echo "vm-init: $*"; poweroff -f; }

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /lib/modules/load-order); do
	insmod /lib/modules/$m || abort "insmod $m failed"
done
# The host root (and the repository) are read-only and nothing the guest
# reads there changes while it runs (make check builds what the VM needs
# first, and installs nothing on the host): the guest keeps what it read
# in its page cache (cache=loose; with 9p's default, none, every exec read
# the binary and its libraries again through 9p: a fork and exec took
# 90-150 ms, and the VM suite twice as long).  vt_rootopts=OPTS on the
# kernel command line replaces these options (vt_rootopts= for none).
rootopts=,cache=loose,msize=262144
for arg in $(cat /proc/cmdline); do
	case $arg in vt_rootopts=*) rootopts=${arg#vt_rootopts=}; rootopts=${rootopts:+,$rootopts} ;; esac
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro$rootopts hostroot /host ||
	abort "cannot mount the host root"
for d in tmp run var/tmp root; do
	mount -t tmpfs tmpfs /host/$d || abort "cannot mount tmpfs on /host/$d"
done
mount -t devtmpfs dev /host/dev
mkdir -p /host/dev/pts /host/dev/shm
mount -t devpts devpts /host/dev/pts
mount -t tmpfs tmpfs /host/dev/shm
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
# A repository under one of those tmpfs (run.sh exports it as "repo").
for arg in $(cat /proc/cmdline); do
	case $arg in
	vt_repo=*)
		repo=${arg#vt_repo=}
		mkdir -p "/host$repo" &&
			mount -t 9p -o trans=virtio,version=9p2000.L,ro$rootopts repo "/host$repo" ||
			abort "cannot mount the repository export at $repo"
		;;
	esac
done
mkdir -p /host/tmp/results
mount -t 9p -o trans=virtio,version=9p2000.L results /host/tmp/results ||
	abort "cannot mount the results export"
[ -f /host/tmp/results/guest.env ] || abort "results/guest.env missing"
chroot /host /bin/bash -c \
	'set -a && . /tmp/results/guest.env && set +a && exec /bin/bash "$VT_ROOT/tests/vm/guest.sh"' ||
	echo "vm-init: guest.sh exited with status $?"
sync
poweroff -f
SH
chmod +x "$root/init" "$root/sbin/modprobe"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -9) >"$out.tmp"
mv "$out.tmp" "$out"
