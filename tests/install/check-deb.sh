#!/bin/bash
# check-deb.sh - build the Debian packages (debian/) from a copy of the
# tree in $B/deb and check them: dpkg-buildpackage -us -uc, the files and
# conffiles of vtuner and vtuner-dkms, the dkms.conf and maintainer
# scripts dh_dkms and dh_installsystemd wrote, the programs of the .deb
# (run from an extracted copy, never installed), a dkms build of the
# packaged module source for the newest kernel (in a DKMS tree under
# $B/deb), and lintian on the .changes without errors or warnings.
# Nothing is installed on the host; its /var/lib/dkms and
# /lib/modules/*/updates are checked to be untouched.
# The copy holds the files git knows plus the untracked, not ignored ones,
# so that uncommitted work is what gets tested.
# Ends with "check-deb: N passed, N failed".
set -uo pipefail
: "${B:=build}"
D=$(realpath -m "$B/deb")
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"
lacks() { ! grep -qE -e "$2" "$1"; }	# lacks FILE ERE
summary() {
	echo "check-deb: $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}
# the end of a log, without the "N passed, N failed" lines of the tests
# run inside the build (tests/check.sh would count them)
tail_log() {
	tail -"${2:-25}" "$1" | grep -Ev '[0-9]+ passed, [0-9]+ failed' | sed 's/^/#   /'
}

missing=()
for t in dpkg-buildpackage dpkg-checkbuilddeps dh dh_dkms lintian git; do
	command -v "$t" > /dev/null || missing+=("$t")
done
if [ ${#missing[@]} != 0 ]; then
	why="${missing[*]} not installed (apt-get install dpkg-dev debhelper dh-dkms lintian)"
	if [ "${CI:-}" = true ]; then fail "$why"; else skip "$why: packages not built"; fi
	summary
fi

# The copy: $D/vtuner-VERSION
TOP=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null) ||
	{ fail "not in a git work tree: nothing to copy"; summary; }
V=$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version 2>/dev/null)
UV=${V%-*}
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
S=$D/vtuner-$UV
rm -rf "$D"
mkdir -p "$S"
(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
	sort -zu | tee "$D/files.list" | tar --null -T - -cf -) | tar -xf - -C "$S"
check "copied $(tr -cd '\0' < "$D/files.list" | wc -c) files into $S" \
	test -x "$S/debian/rules" -a -f "$S/Makefile"

host_before=$(ls -lA /var/lib/dkms /lib/modules/*/updates 2>&1)

if out=$(cd "$S" && dpkg-checkbuilddeps 2>&1); then
	ok "build dependencies of debian/control installed"
else
	fail "build dependencies: $out"
fi

start=$(date +%s)
if (cd "$S" && dpkg-buildpackage -us -uc) > "$D/build.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc (version $V, $(($(date +%s) - start))s)"
else
	fail "dpkg-buildpackage -us -uc (see $D/build.log)"
	tail_log "$D/build.log"
fi

DEB=$D/vtuner_${V}_$ARCH.deb
DKMS=$D/vtuner-dkms_${V}_all.deb
CHANGES=$D/vtuner_${V}_$ARCH.changes
for f in "$DEB" "$DKMS" "$CHANGES" "$D/vtuner_$V.dsc"; do
	check "${f#"$D"/} built" test -s "$f"
done
if [ ! -s "$DEB" ] || [ ! -s "$DKMS" ]; then
	echo "# no packages: nothing more to check"
	summary
fi
check "the build did not build the module (no make -C /lib/modules)" \
	lacks "$D/build.log" "make -C /lib/modules"
case " ${DEB_BUILD_OPTIONS:-} " in
*" nocheck "*) skip "DEB_BUILD_OPTIONS=nocheck: no unit tests in the build" ;;
*) check "the host unit tests ran in the build (dh_auto_test)" \
	grep -qE '^[1-9][0-9]* passed, 0 failed' "$D/build.log" ;;
esac

# contents
dpkg-deb -c "$DEB" 2> /dev/null | awk '{print $1, $6}' | sed 's| \./| /|' > "$D/vtuner.list"
dpkg-deb -c "$DKMS" 2> /dev/null | awk '{print $1, $6}' | sed 's| \./| /|' > "$D/vtuner-dkms.list"
has() {	# has LIST MODE PATH
	grep -qxF -e "$2 $3" "$D/$1.list" ||
		{ echo "# $3 not in $1 with mode $2"; return 1; }
}
for p in vtunerd vtunerc vtunerctl; do
	check "vtuner: /usr/sbin/$p, mode 755" has vtuner -rwxr-xr-x /usr/sbin/$p
done
for m in "$S"/man/*.[0-9]; do
	n=${m##*/}
	check "vtuner: man page $n" has vtuner -rw-r--r-- "/usr/share/man/man${n##*.}/$n.gz"
done
for f in /lib/systemd/system/vtunerd.service /lib/systemd/system/vtunerc@.service \
	 /lib/udev/rules.d/60-vtuner.rules /etc/vtuner/vtunerd.conf \
	 /etc/vtuner/vtunerc.conf /usr/share/doc/vtuner/README.Debian \
	 /usr/share/doc/vtuner/copyright \
	 /usr/share/doc/vtuner/examples/modprobe.d/vtunerc.conf \
	 /usr/share/doc/vtuner/examples/modules-load.d/vtunerc.conf; do
	check "vtuner: $f" has vtuner -rw-r--r-- "$f"
done
only() {	# only LIST ERE: every path of LIST matches ERE
	! awk '{print $2}' "$D/$1.list" | grep -vE -e "$2"
}
check "vtuner: nothing in /etc but /etc/vtuner (module options not activated)" \
	only vtuner '^/$|^/etc/$|^/etc/vtuner/(vtunerd\.conf|vtunerc\.conf)?$|^/(usr|lib)/'
check "vtuner: no /usr/local path in the package" lacks "$D/vtuner.list" /usr/local
src=/usr/src/vtuner-$UV
for f in "$src/dkms.conf" "$src/Kbuild" "$src/uapi/vtuner.h" \
	 $(cd "$S/kernel" && printf "$src/%s\n" *.c *.h); do
	check "vtuner-dkms: $f" has vtuner-dkms -rw-r--r-- "$f"
done
check "vtuner-dkms: only /usr/src/vtuner-$UV and its docs" \
	only vtuner-dkms "^/(usr/|usr/src/|usr/share/|usr/share/doc/)?\$|^$src/|^/usr/share/doc/vtuner-dkms/"

# control data
rm -rf "$D/ctl" "$D/ctl-dkms" "$D/root" "$D/root-dkms"
dpkg-deb -e "$DEB" "$D/ctl" 2> /dev/null
dpkg-deb -e "$DKMS" "$D/ctl-dkms" 2> /dev/null
dpkg-deb -x "$DEB" "$D/root" 2> /dev/null
dpkg-deb -x "$DKMS" "$D/root-dkms" 2> /dev/null
check "vtuner: conffiles are /etc/vtuner/vtunerc.conf and vtunerd.conf" \
	diff <(printf '/etc/vtuner/vtunerc.conf\n/etc/vtuner/vtunerd.conf\n') \
		<(sort "$D/ctl/conffiles" 2> /dev/null)
field() { dpkg-deb -f "$1" "$2" 2> /dev/null; }
check "vtuner: Architecture $ARCH" test "$(field "$DEB" Architecture)" = "$ARCH"
check "vtuner: Depends on libsodium (shlibs)" grep -q libsodium <<< "$(field "$DEB" Depends)"
check "vtuner: Depends on libgcrypt (shlibs)" grep -q libgcrypt <<< "$(field "$DEB" Depends)"
check "vtuner-dkms: Architecture all" test "$(field "$DKMS" Architecture)" = all
check "vtuner-dkms: Depends on dkms" grep -qE '(^|, )dkms( |,|$)' <<< "$(field "$DKMS" Depends)"
conf=$D/root-dkms$src/dkms.conf
check "dkms.conf: PACKAGE_VERSION=\"$UV\" (dh_dkms -V)" grep -qx "PACKAGE_VERSION=\"$UV\"" "$conf"
check "dkms.conf: no #MODULE_VERSION# left" lacks "$conf" "#MODULE_VERSION#"
check "dkms.conf: same as packaging/dkms/dkms.conf otherwise" \
	diff <(sed "s/#MODULE_VERSION#/$UV/" "$S/packaging/dkms/dkms.conf") "$conf"
dkms_script() {	# dkms_script FILE WHAT: dh_dkms's code for vtuner/$UV
	grep -qx "DKMS_NAME=vtuner" "$1" && grep -qx "DKMS_VERSION=$UV" "$1" &&
		grep -qF -e "$2" "$1"
}
check "vtuner-dkms postinst: dkms common.postinst for vtuner $UV" \
	dkms_script "$D/ctl-dkms/postinst" "/usr/lib/dkms/common.postinst"
check "vtuner-dkms prerm: dkms remove of vtuner $UV" \
	dkms_script "$D/ctl-dkms/prerm" 'dkms remove -m $DKMS_NAME -v $DKMS_VERSION'

# units and their maintainer scripts
u=$D/root/lib/systemd/system
check "vtunerd.service: ExecStart=/usr/sbin/vtunerd" grep -q '^ExecStart=/usr/sbin/vtunerd ' "$u/vtunerd.service"
check "vtunerc@.service: ExecStart=/usr/sbin/vtunerc" grep -q '^ExecStart=/usr/sbin/vtunerc ' "$u/vtunerc@.service"
check "vtunerd.service: DynamicUser=yes (no system user needed)" grep -qx 'DynamicUser=yes' "$u/vtunerd.service"
# The vtuner postinst of a first installation, run with stand-ins for the
# systemd helpers that log their calls: it must not enable a unit.  Run
# only if it calls nothing but those helpers (the postinst of vtuner-dkms
# would run the host's dkms: never run).
other=$(grep -vE '^\s*(#.*)?$|^\s*(deb-systemd-helper|deb-systemd-invoke|systemctl) |^\s*if (deb-systemd-helper|\[)[^;`]*; *then$|^\s*(fi|else|set -e|_dh_action=[a-z]+)$' \
	"$D/ctl/postinst" 2>&1; grep -E '`|\$\(' "$D/ctl/postinst" 2>&1)
if [ -n "$other" ] || [ ! -f "$D/ctl/postinst" ]; then
	fail "vtuner postinst missing or calls more than the systemd helpers: not run"
	printf '#   %s\n' "$other"
else
	stub=$D/stub
	mkdir -p "$stub"
	for c in deb-systemd-helper deb-systemd-invoke systemctl; do
		# a first installation: the unit is not "debian-installed",
		# "was-enabled" is true (deb-systemd-helper's default)
		printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\n%s\nexit 0\n' "$c" "$stub" \
			"$([ $c = deb-systemd-helper ] && echo '[ "$1" = debian-installed ] && exit 1')" \
			> "$stub/$c"
		chmod +x "$stub/$c"
	done
	: > "$stub/calls"
	PATH=$stub:$PATH sh -e "$D/ctl/postinst" configure "" > /dev/null 2>&1
	rc=$?
	sed 's/^/# postinst called: /' "$stub/calls"
	check "vtuner postinst configure (first installation) succeeds" test "$rc" = 0
	check "vtuner postinst does not enable vtunerd.service" \
		lacks "$stub/calls" "^deb-systemd-helper enable"
	check "vtuner postinst: no template instance (vtunerc@) handled" \
		lacks "$stub/calls" "vtunerc@"
fi

# the programs of the package, run from the extracted tree
full_relro() { readelf -lW "$1" | grep -q GNU_RELRO && readelf -dW "$1" | grep -q BIND_NOW; }
sb=$D/root/usr/sbin
for p in vtunerd vtunerc vtunerctl; do
	check "$p --version of the package says $UV" \
		grep -qE "^$p $UV( |$)" <("$sb/$p" --version 2> /dev/null)
	check "$p: full RELRO (relro, bind now)" full_relro "$sb/$p"
done
check "vtunerd --check on the packaged /etc/vtuner/vtunerd.conf" \
	quiet "$sb/vtunerd" --config "$D/root/etc/vtuner/vtunerd.conf" --check

# DKMS on the packaged source, for the newest kernel with headers, in a
# DKMS tree of its own ($D/dkms; nothing of the host's /var/lib/dkms)
kver=$(cd /lib/modules 2>/dev/null && for k in *; do [ -d "$k/build" ] && echo "$k"; done | sort -V | tail -1)
if [ -z "$kver" ]; then
	skip "no kernel headers in /lib/modules/*/build: vtuner-dkms not built"
elif ! command -v dkms > /dev/null; then
	skip "dkms not installed (apt-get install dkms): vtuner-dkms not built"
else
	DT=$D/dkms
	mkdir -p "$DT"
	dk=(env mok_signing_key="$DT/mok.key" mok_certificate="$DT/mok.pub"
	    dkms --dkmstree "$DT" --sourcetree "$D/root-dkms/usr/src")
	if "${dk[@]}" add -m vtuner -v "$UV" > "$D/dkms.log" 2>&1 &&
	   "${dk[@]}" build -m vtuner -v "$UV" -k "$kver" >> "$D/dkms.log" 2>&1 &&
	   ls "$DT/vtuner/$UV/$kver"/*/module/vtunerc.ko* > /dev/null 2>&1; then
		ok "vtuner-dkms: dkms add and build of the packaged source for $kver"
	else
		fail "vtuner-dkms: dkms build for $kver (see $D/dkms.log)"
		tail_log "$D/dkms.log"
	fi
fi

# lintian: no error, no warning (info and pedantic tags are only shown)
if [ -s "$CHANGES" ]; then
	lintian --fail-on error,warning --display-info --pedantic "$CHANGES" > "$D/lintian.log" 2>&1
	rc=$?
	grep -v 'running with root privileges' "$D/lintian.log" | sed 's/^/# lintian: /'
	check "lintian: $(grep -c '^E:' "$D/lintian.log") errors, $(grep -c '^W:' "$D/lintian.log") warnings, $(grep -c '^[IP]:' "$D/lintian.log") info/pedantic" \
		test "$rc" = 0 -a -z "$(grep -E '^(E|W):' "$D/lintian.log")"
else
	fail "lintian: no .changes to check"
fi

# debian/rules clean leaves the copy as it was
if (cd "$S" && debian/rules clean) > "$D/clean.log" 2>&1; then
	check "debian/rules clean restores the copied tree" \
		diff <(tr '\0' '\n' < "$D/files.list") <(cd "$S" && find . -xtype f | sed 's|^\./||' | sort)
else
	fail "debian/rules clean (see $D/clean.log)"
	tail_log "$D/clean.log"
fi

check "the host's /var/lib/dkms and /lib/modules/*/updates untouched" \
	test "$host_before" = "$(ls -lA /var/lib/dkms /lib/modules/*/updates 2>&1)"

summary
