#!/bin/bash
# dkms-install.sh DKMSTREE SOURCETREE VERSION KERNEL... - dkms install and
# uninstall of vtuner/VERSION (already built in DKMSTREE) for each KERNEL,
# with /lib/modules seen through an overlay: run it in a mount namespace of
# its own (unshare -m), where the overlay's writes land in
# DKMSTREE/lib-modules and the host's /lib/modules stays as it was.
# Checks: the module lands in /lib/modules/K/updates/dkms, depmod indexes
# it (modinfo -k K vtunerc finds that file and its parameters), dkms status
# says installed, uninstall removes it and depmod forgets it.  Prints
# "ok - ..." / "not ok - ..." lines and the counts, like check-install.sh.
set -uo pipefail
DT=$1 ST=$2 V=$3
shift 3
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

up=$DT/lib-modules
rm -rf "$up"
mkdir -p "$up/upper" "$up/work"
if ! mount -t overlay vtuner-dkms-test \
	-o "lowerdir=/lib/modules,upperdir=$up/upper,workdir=$up/work" /lib/modules; then
	fail "overlay over /lib/modules (in a private mount namespace)"
	echo "$passed passed, $failed failed"
	exit 1
fi
dk=(dkms --dkmstree "$DT" --sourcetree "$ST")
for k in "$@"; do
	log=$DT/install-$k.log
	if "${dk[@]}" install -m vtuner -v "$V" -k "$k" > "$log" 2>&1; then
		ok "dkms install for $k"
	else
		fail "dkms install for $k (see $log)"
		tail -20 "$log"
		continue
	fi
	ko=$(ls /lib/modules/"$k"/updates/dkms/vtunerc.ko* 2>/dev/null | head -n 1)
	check "$k: vtunerc.ko in /lib/modules/$k/updates/dkms" test -n "$ko"
	check "$k: depmod indexed it (modinfo -k $k -n vtunerc = $ko)" \
		test "$(modinfo -k "$k" -n vtunerc 2>/dev/null)" = "$ko"
	check "$k: modinfo shows the module's parameters and vermagic" \
		sh -c "modinfo -k '$k' vtunerc | grep -q '^parm: *adapters' &&
		       modinfo -k '$k' vtunerc | grep -q '^vermagic: *$k '"
	check "$k: dkms status says installed" \
		grep -q "vtuner/$V, $k, .*: installed" <("${dk[@]}" status -k "$k" 2>&1)
	if "${dk[@]}" uninstall -m vtuner -v "$V" -k "$k" >> "$log" 2>&1; then
		ok "dkms uninstall for $k"
	else
		fail "dkms uninstall for $k (see $log)"
	fi
	check "$k: the module is gone and depmod forgot it" \
		sh -c "! ls /lib/modules/'$k'/updates/dkms/vtunerc.ko* 2>/dev/null &&
		       ! modinfo -k '$k' -n vtunerc > /dev/null 2>&1"
done
umount /lib/modules
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
