#!/bin/bash
# Build the vidtv test DVB driver (not shipped by Debian) for one kernel.
#   build-vidtv.sh <kver> <outdir>
# Leaves dvb-vidtv-{tuner,demod,bridge}.ko in <outdir>.  The source comes
# from /usr/src/linux-source-<major.minor>.tar.xz; nothing is rebuilt while
# the three modules exist and are newer than that tarball and this script.
#
# One fix is applied: vidtv_bridge_remove() (6.1 and 6.12) never deletes its
# i2c adapter, so after rmmod the adapter stays registered with its parent
# in the freed module, and device_shutdown() at poweroff oopses on it.
set -euo pipefail

die() { echo "build-vidtv: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: $0 <kver> <outdir>"
kver=$1
out=$2

[[ $kver =~ ^([0-9]+\.[0-9]+) ]] || die "cannot parse kernel version '$kver'"
series=${BASH_REMATCH[1]}
tarball=/usr/src/linux-source-$series.tar.xz
kbuild=/lib/modules/$kver/build
[ -f "$tarball" ] || die "$tarball not found (apt-get install linux-source-$series)"
[ -d "$kbuild" ] || die "$kbuild not found (install linux-headers-$kver)"

mods="dvb-vidtv-tuner.ko dvb-vidtv-demod.ko dvb-vidtv-bridge.ko"
fresh=1
for m in $mods; do
	[ "$out/$m" -nt "$tarball" ] && [ "$out/$m" -nt "$0" ] || fresh=0
done
[ $fresh = 1 ] && exit 0

src=$out/src
rm -rf "$src"
mkdir -p "$src"
echo "build-vidtv: extracting vidtv from $tarball"
tar -xJf "$tarball" -C "$src" --strip-components=5 \
	"linux-source-$series/drivers/media/test-drivers/vidtv/"
[ -f "$src/Makefile" ] || die "vidtv source missing from $tarball"
sed -i '/^static .* vidtv_bridge_remove(/,/^}/s/^\tdvb_unregister_adapter(&dvb->adapter);$/&\n\ti2c_del_adapter(\&dvb->i2c_adapter);/' \
	"$src/vidtv_bridge.c"
[ "$(grep -c 'i2c_del_adapter(&dvb->i2c_adapter);' "$src/vidtv_bridge.c")" = 2 ] ||
	die "could not patch vidtv_bridge_remove() in $tarball"
make -s -C "$kbuild" M="$(realpath "$src")" CONFIG_DVB_VIDTV=m modules
for m in $mods; do
	[ -f "$src/$m" ] || die "$m was not built"
	cp "$src/$m" "$out/$m"
done
