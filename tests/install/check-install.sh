#!/bin/bash
# check-install.sh - make install into $B/install-root and check the result:
# the files and their modes, the substituted paths, the installed programs
# and config examples (every documented key is an option), the systemd
# units (systemd-analyze verify), a second install keeping changed files
# under /etc, and the DKMS source: dkms add/build/install/uninstall for
# every kernel of $KVERS in a DKMS tree under $B (nothing of the host's
# /var/lib/dkms is used; install runs under an overlay of /lib/modules in
# a mount namespace of its own, see dkms-install.sh).  Ends with
# "N passed, N failed".
set -uo pipefail
: "${B:=build}" "${MAKE:=make}" "${VT_VERSION:=0.1}"
: "${KVERS:=$(cd /lib/modules 2>/dev/null && for k in *; do [ -d "$k/build" ] && echo "$k"; done)}"
ROOT=$(realpath -m "$B/install-root")
PREFIX=/usr/local
. "$(dirname "$0")/../tap.sh"

rm -rf "$ROOT"
mkdir -p "$ROOT"
# the top Makefile with install.mk, whether or not it includes it yet
mk=("$MAKE" --no-print-directory -f Makefile)
grep -qs '^-\?include install.mk' Makefile || mk+=(-f install.mk)
if "${mk[@]}" install DESTDIR="$ROOT" PREFIX=$PREFIX > "$B/install.log" 2>&1; then
	ok "make install DESTDIR=$ROOT"
else
	fail "make install (see $B/install.log)"
	tail -20 "$B/install.log"
fi

mode_is() {	# mode_is MODE FILE
	[ -f "$2" ] && [ "$(stat -c %a "$2")" = "$1" ] ||
		{ echo "# $2: missing or mode $(stat -c %a "$2" 2>/dev/null)"; return 1; }
}
for f in vtunerd vtunerc vtunerctl; do
	check "$PREFIX/sbin/$f, mode 755" mode_is 755 "$ROOT$PREFIX/sbin/$f"
done
for m in man/*.[0-9]; do
	s=${m##*.}
	check "man page ${m#man/} in man$s" mode_is 644 "$ROOT$PREFIX/share/man/man$s/${m#man/}"
done
for f in /etc/udev/rules.d/60-vtuner.rules /etc/modprobe.d/vtunerc.conf \
	 /etc/modules-load.d/vtunerc.conf /etc/vtuner/vtunerd.conf \
	 /etc/vtuner/vtunerc.conf \
	 $PREFIX/lib/systemd/system/vtunerd.service \
	 $PREFIX/lib/systemd/system/vtunerc@.service \
	 /usr/src/vtuner-$VT_VERSION/dkms.conf /usr/src/vtuner-$VT_VERSION/Kbuild \
	 /usr/src/vtuner-$VT_VERSION/uapi/vtuner.h; do
	check "$f, mode 644" mode_is 644 "$ROOT$f"
done
check "module sources in /usr/src/vtuner-$VT_VERSION" \
	diff -q <(cd kernel && ls *.c *.h) \
		<(cd "$ROOT/usr/src/vtuner-$VT_VERSION" && ls *.c *.h)
check "dkms.conf: version substituted" \
	grep -qx "PACKAGE_VERSION=\"$VT_VERSION\"" "$ROOT/usr/src/vtuner-$VT_VERSION/dkms.conf"
check "dkms.conf: BUILT_MODULE_NAME vtunerc" \
	grep -qx 'BUILT_MODULE_NAME\[0\]="vtunerc"' "$ROOT/usr/src/vtuner-$VT_VERSION/dkms.conf"
check "udev rule: group video, mode 0660" \
	grep -qx 'KERNEL=="vtunerc\[0-9\]\*", GROUP="video", MODE="0660"' \
		"$ROOT/etc/udev/rules.d/60-vtuner.rules"
check "modprobe.d: options vtunerc" \
	grep -q '^options vtunerc adapters=[0-9]* timeout_ms=[0-9]*$' "$ROOT/etc/modprobe.d/vtunerc.conf"
check "units: ExecStart in $PREFIX/sbin" \
	grep -q "^ExecStart=$PREFIX/sbin/vtunerc " "$ROOT$PREFIX/lib/systemd/system/vtunerc@.service"

# the installed programs
sb=$ROOT$PREFIX/sbin
# one version (debian/changelog's) for the programs and the module
for f in vtunerd vtunerc vtunerctl; do
	check "$f --version: $VT_VERSION" grep -q "^$f $VT_VERSION\b" <("$sb/$f" --version)
done
for k in $KVERS; do
	[ -f "$B/kernel/$k/vtunerc.ko" ] || continue
	check "vtunerc.ko for $k: version $VT_VERSION" \
		test "$(modinfo -F version "$B/kernel/$k/vtunerc.ko")" = "$VT_VERSION"
done
for d in vtunerd vtunerc; do
	conf=$ROOT/etc/vtuner/$d.conf
	check "$d --check on the installed $d.conf" quiet "$sb/$d" --config "$conf" --check
	# every commented-out setting of the example is a valid option
	sed -n 's/^#\([a-z][a-z-]* = .*\)/\1/p' "$conf" > "$B/$d-all.conf"
	# the example's channel file exists on a server, not here: a real one
	printf '[Sim Local]\n\tSERVICE_ID = 401\n\tVIDEO_PID = 257\n\tAUDIO_PID = 258\n\tFREQUENCY = 506000000\n\tBANDWIDTH_HZ = 8000000\n\tDELIVERY_SYSTEM = DVBT\n' \
		> "$B/channels.conf"
	sed -i "s|^satip-channels = .*|satip-channels = $B/channels.conf|" "$B/$d-all.conf"
	check "$d.conf: $(wc -l < "$B/$d-all.conf") documented keys are options" \
		quiet "$sb/$d" --config "$B/$d-all.conf" --check
done
printf 'listen = foo\n' > "$B/bad.conf"
out=$("$sb/vtunerd" --config "$B/bad.conf" --check 2>&1)
check "vtunerd: a bad value names file, line, key and value" \
	grep -qF "vtunerd: $B/bad.conf:1: listen: 'foo': expected ADDR:PORT" <<< "$out"
mkdir -p "$B/ctl-proc" "$B/ctl-run"
printf 'adapter: 3\nname: test\ndelsys: 6 5\nowner: none\nfeatures: 0x0\ntuned: no\nstatus: 0x0\nsessions: 0\nbytes: 0\npackets: 0\nsync_errors: 0\ndropped_bytes: 0\ntimeouts: 0\npids (0):\n' > "$B/ctl-proc/vtunerc0"
check "vtunerctl reads a /proc/vtunerc0" \
	grep -q "delsys  *DVBS2 DVBS" <("$sb/vtunerctl" --proc "$B/ctl-proc" --run "$B/ctl-run")
check "vtunerctl --json is JSON" \
	python3 -c 'import json,sys; a=json.load(sys.stdin); assert a[0]["kernel"]["adapter"]==3' \
		< <("$sb/vtunerctl" --json --proc "$B/ctl-proc" --run "$B/ctl-run")

# systemd units
if command -v systemd-analyze > /dev/null; then
	T=$B/units-verify
	rm -rf "$T"
	mkdir -p "$T"
	for u in vtunerd.service vtunerc@.service; do
		sed "s|$PREFIX/sbin|$sb|g" "$ROOT$PREFIX/lib/systemd/system/$u" > "$T/$u"
	done
	cp "$T/vtunerc@.service" "$T/vtunerc@0.service"
	for u in vtunerd.service vtunerc@0.service; do
		out=$(MANPATH=$ROOT$PREFIX/share/man systemd-analyze verify \
			--man=no "$T/$u" 2>&1)
		rc=$?
		[ -n "$out" ] && printf '# %s\n' "$out"
		check "systemd-analyze verify $u" test "$rc" = 0 -a -z "$out"
	done
	# the hardening asked for
	for d in DynamicUser=yes ProtectSystem=strict ProtectHome=yes PrivateTmp=yes \
		 NoNewPrivileges=yes CapabilityBoundingSet= RestrictAddressFamilies=; do
		for u in vtunerd.service vtunerc@.service; do
			check "$u sets $d" grep -q "^$d" "$T/$u"
		done
	done
	check "vtunerd.service: DeviceAllow=char-DVB rw" grep -qx 'DeviceAllow=char-DVB rw' "$T/vtunerd.service"
	check "vtunerc@.service: DeviceAllow=/dev/vtunerc%i rw" grep -qx 'DeviceAllow=/dev/vtunerc%i rw' "$T/vtunerc@.service"
else
	skip "systemd-analyze not installed (apt-get install systemd): units not verified"
fi

# a second install keeps changed files under /etc
echo "# local change" >> "$ROOT/etc/vtuner/vtunerd.conf"
if "${mk[@]}" install DESTDIR="$ROOT" PREFIX=$PREFIX > "$B/install2.log" 2>&1 &&
   grep -q '^# local change' "$ROOT/etc/vtuner/vtunerd.conf"; then
	ok "second make install keeps a changed /etc/vtuner/vtunerd.conf"
else
	fail "second make install (see $B/install2.log)"
fi

# DKMS, in a tree of its own: build/dkms, sources in build/dkms-src
if command -v dkms > /dev/null; then
	DT=$(realpath -m "$B/dkms")
	ST=$(realpath -m "$B/dkms-src")
	rm -rf "$DT" "$ST"
	mkdir -p "$DT" "$ST"
	cp -r "$ROOT/usr/src/vtuner-$VT_VERSION" "$ST/"
	host_before=$(ls -lA /var/lib/dkms 2>&1)
	# dkms signs with /var/lib/dkms/mok.* unless told otherwise
	export mok_signing_key=$DT/mok.key mok_certificate=$DT/mok.pub
	dk=(dkms --dkmstree "$DT" --sourcetree "$ST")
	check "dkms add vtuner/$VT_VERSION" quiet "${dk[@]}" add -m vtuner -v "$VT_VERSION"
	for k in $KVERS; do
		if "${dk[@]}" build -m vtuner -v "$VT_VERSION" -k "$k" > "$B/dkms-$k.log" 2>&1 &&
		   ls "$DT/vtuner/$VT_VERSION/$k"/*/module/vtunerc.ko* > /dev/null 2>&1; then
			ok "dkms build for $k"
		else
			fail "dkms build for $k (see $B/dkms-$k.log)"
			tail -20 "$B/dkms-$k.log"
		fi
	done
	check "dkms status lists vtuner/$VT_VERSION as built" \
		grep -q "vtuner/$VT_VERSION.*built" <("${dk[@]}" status 2>&1)
	# dkms install writes /lib/modules (its install_tree comes only from
	# /etc/dkms/framework.conf): done under an overlay in a mount
	# namespace of its own, so the host's tree is never changed
	lib_state() { stat -c '%n %s %Y' /lib/modules/*/modules.dep*; ls -lAR /lib/modules/*/updates; } 2>&1
	lib_before=$(lib_state)
	if [ "$(id -u)" = 0 ] && unshare -m true 2> /dev/null; then
		while read -r line; do
			case $line in
			*" passed, "*" failed") continue ;;	# counted here
			esac
			echo "$line"
			case $line in
			"ok - "*) passed=$((passed + 1)) ;;
			"not ok - "*) failed=$((failed + 1)) ;;
			esac
		done < <(unshare -m --propagation private \
			"$(dirname "$0")/dkms-install.sh" "$DT" "$ST" "$VT_VERSION" $KVERS 2>&1)
	elif [ "${CI:-}" = true ]; then
		fail "dkms install: needs root and unshare -m (mount namespaces)"
	else
		skip "dkms install: needs root and unshare -m (mount namespaces)"
	fi
	check "the host's /lib/modules untouched" \
		test "$lib_before" = "$(lib_state)"
	check "the host's /var/lib/dkms untouched" \
		test "$host_before" = "$(ls -lA /var/lib/dkms 2>&1)"
else
	skip "dkms not installed (apt-get install dkms): DKMS build not tried"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
