#!/bin/bash
# check-fresh.sh - the first run on a pristine Debian 12 machine
# (make check-fresh; as root; not part of make check: it installs
# hundreds of packages and boots a VM).  In chroots under $B/fresh/:
#   demo  the base root, plus git and make (what the first commands are
#         typed with), the tree cloned to /root/vtuner; make demo, then
#         make check-unit;
#   make  the base root, plus the machine's kernel (linux-image-amd64)
#         and sudo; the documented blocks marked <!-- check-fresh: make -->
#         in README.md and docs/install.md (tests/fresh/doc-blocks.sh), in
#         that order, each with bash -e in the source tree, as written;
#   deb   the same for the blocks marked "deb" (the Debian packages, the
#         alternative to make install).
# The tree is what git has committed (a clone of HEAD), as a new user
# would get it.  The base root is debootstrap --variant=minbase bookworm
# from the mirror of this machine's apt sources, with those sources, kept
# as a tarball in $FRESH_CACHE (default /var/cache/vtuner-fresh;
# FRESH_REBUILD=1 builds it again); the packages the roots download are
# kept there too.  Each root starts from the tarball, upgraded as a
# freshly installed machine would be.
# Where a chroot must differ from a real machine, and nothing else:
#   - /usr/sbin/policy-rc.d: no package starts a service (it would run
#     on this machine, outside the chroot);
#   - apt-get and apt answer their "Do you want to continue?" with yes
#     (APT::Get::Assume-Yes), as the user would; debconf asks nothing;
#   - in "make" and "deb": `uname -r` names the root's kernel, not this
#     machine's; modprobe and insmod check what they would load
#     (modprobe --dry-run, modinfo: the module's kernel and parameters)
#     instead of loading it into this machine's kernel.
# /dev, /proc and /sys are bound in a private mount namespace, so that no
# mount outlives the run.  Logs: $B/fresh/<root>.log.
# FRESH_ROOTS="demo make deb" (the default) chooses the roots to run.
# Ends with "check-fresh: N passed, N failed".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
: "${B:=build}"
: "${FRESH_CACHE:=/var/cache/vtuner-fresh}"
: "${FRESH_ROOTS:=demo make deb}"
suite=bookworm

die() { echo "check-fresh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
if [ -z "${VT_FRESH_NS:-}" ]; then
	export VT_FRESH_NS=1
	exec unshare --mount --propagation private "$0" "$@"
fi

start_all=$SECONDS
mkdir -p "$B/fresh" "$FRESH_CACHE/archives"
work=$(realpath "$B/fresh")
# shellcheck source=tests/tap.sh
. "$here/../tap.sh"

mounted_under() { awk -v d="$1" '$5 == d || index($5, d "/") == 1 { f = 1 } END { exit !f }' /proc/self/mountinfo; }

# ---- the base root
mirror() {
	local f uri
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# deb822: the URIs of a stanza whose Suites has $suite
		uri=$(awk -v s="$suite" '
			/^[ \t]*$/ { if (u != "" && ok) { print u; exit } u = ""; ok = 0; next }
			$1 == "URIs:" { u = $2 }
			$1 == "Suites:" { for (i = 2; i <= NF; i++) if ($i == s) ok = 1 }
			END { if (u != "" && ok) print u }' "$f" | head -n 1)
		[ -z "$uri" ] || { echo "$uri"; return; }
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		uri=$(awk -v s="$suite" '$1 == "deb" && $3 == s { print $2; exit }' "$f")
		[ -z "$uri" ] || { echo "$uri"; return; }
	done
	return 1
}

base=$FRESH_CACHE/$suite-minbase.tar.gz
if [ ! -f "$base" ] || [ "${FRESH_REBUILD:-0}" = 1 ]; then
	if ! command -v debootstrap >/dev/null; then
		echo "check-fresh: installing debootstrap on this machine"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
	fi
	url=$(mirror) || die "no Debian $suite mirror in /etc/apt/sources.list*"
	echo "check-fresh: debootstrap $suite from $url"
	tmp=$work/base.tmp
	mounted_under "$tmp" && die "$tmp has mounts; not removing it"
	rm -rf "$tmp"
	debootstrap --variant=minbase "$suite" "$tmp" "$url" >"$work/base.log" 2>&1 ||
		{ tail -n 20 "$work/base.log"; die "debootstrap failed"; }
	# this machine's apt sources (security and updates too), nothing else
	rm -f "$tmp/etc/apt/sources.list"
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] && cp "$f" "$tmp$f"
	done
	rm -rf "$tmp"/var/cache/apt/archives/*.deb "$tmp"/var/lib/apt/lists/*
	tar -C "$tmp" --numeric-owner -czf "$base.tmp" .
	mv "$base.tmp" "$base"
	mounted_under "$tmp" && die "$tmp still has mounts; not removing it"
	rm -rf "$tmp"
fi

# ---- roots

# new_root NAME: a root from the base, its mounts in place; prints its path
new_root() {
	local r=$work/$1
	umount_root "$r"
	mounted_under "$r" && die "$r still has mounts; not removing it"
	rm -rf "$r"
	mkdir -p "$r"
	tar -C "$r" --numeric-owner -xpzf "$base"
	cp /etc/resolv.conf "$r/etc/resolv.conf"
	# the chroot has this machine's host name: a machine knows its own
	printf '127.0.1.1\t%s\n' "$(hostname)" >>"$r/etc/hosts"
	printf '#!/bin/sh\n# check-fresh: no service starts in a chroot\nexit 101\n' >"$r/usr/sbin/policy-rc.d"
	chmod 755 "$r/usr/sbin/policy-rc.d"
	echo 'APT::Get::Assume-Yes "true";' >"$r/etc/apt/apt.conf.d/90check-fresh"
	mount --rbind /dev "$r/dev"
	mount -t proc proc "$r/proc"
	mount --rbind /sys "$r/sys"
	mount --bind "$FRESH_CACHE/archives" "$r/var/cache/apt/archives"
	echo "$r"
}

umount_root() {
	local d
	for d in var/cache/apt/archives sys proc dev; do
		if mountpoint -q "$1/$d"; then
			umount -R "$1/$d" 2>/dev/null || umount -R -l "$1/$d"
		fi
	done
}

# in_root ROOT COMMAND: bash -c COMMAND in ROOT, as root at a login
in_root() {
	chroot "$1" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive /bin/bash -c "$2"
}

# step ROOT LOG WHAT COMMAND: one test case, its output to LOG
step() {
	local r=$1 log=$2 what=$3 t=$SECONDS rc=0
	echo "==== $what" >>"$log"
	in_root "$r" "$4" >>"$log" 2>&1 </dev/null || rc=$?
	if [ $rc = 0 ]; then
		ok "$what ($((SECONDS - t))s)"
	else
		fail "$what: exit status $rc ($((SECONDS - t))s); the end of $log:"
		tail -n 40 "$log" | sed 's/^/#   /'
	fi
	return $rc
}

# setup ROOT LOG PACKAGE...: the machine as freshly installed, and PACKAGEs
setup() {
	local r=$1 log=$2
	shift 2
	step "$r" "$log" "$(basename "$r"): a freshly installed Debian 12 with $*" \
		"apt-get update -q && apt-get dist-upgrade -q && apt-get install -q --no-install-recommends $*"
}

# every root gets the same commit: the one cloned to $tree at the start
clone() {
	git clone -q --no-hardlinks "$tree" "$1/root/vtuner"
	echo "$(basename "$1"): the tree at $(git -C "$1/root/vtuner" log -1 --format='%h %s')"
}

# The stand-ins of a root that has a kernel installed but does not run it.
stand_ins() {
	local r=$1
	cat >"$r/usr/local/bin/uname" <<'SH'
#!/bin/sh
# check-fresh: the kernel of this root, not of the machine running it
if [ "$*" = -r ]; then ls /lib/modules | sort -V | tail -n 1; else exec /usr/bin/uname "$@"; fi
SH
	cat >"$r/usr/local/sbin/modprobe" <<'SH'
#!/bin/sh
# check-fresh: resolve the module and its dependencies, load nothing
exec /usr/sbin/modprobe --dry-run --verbose --set-version "$(uname -r)" "$@"
SH
	cat >"$r/usr/local/sbin/insmod" <<'SH'
#!/bin/sh
# check-fresh: insmod FILE [PARAM=VALUE...]: check FILE is a module for
# this root's kernel with those parameters, load nothing
set -e
f=$1
shift
v=$(modinfo -F vermagic "$f" | cut -d' ' -f1)
[ "$v" = "$(uname -r)" ] || { echo "insmod: $f is for $v, not $(uname -r)" >&2; exit 1; }
for p; do
	modinfo -F parm "$f" | grep -q "^${p%%=*}:" ||
		{ echo "insmod: $f has no parameter ${p%%=*}" >&2; exit 1; }
done
echo "insmod (check-fresh, not loaded): $f for $v, $*"
SH
	chmod 755 "$r/usr/local/bin/uname" "$r/usr/local/sbin/modprobe" "$r/usr/local/sbin/insmod"
}

# The committed tree, and the marked blocks of its documents.
tree=$work/tree
rm -rf "$tree"
git clone -q "$top" "$tree"
echo "check-fresh: the tree at $(git -C "$tree" log -1 --format='%h %s')"
docs=(README.md docs/install.md)
cd "$tree"
blocks=()
if ! list=$(tests/fresh/doc-blocks.sh --list "${docs[@]}"); then
	fail "the marked blocks of ${docs[*]}: doc-blocks.sh failed"
elif [ -n "$list" ]; then
	mapfile -t blocks <<<"$list"
fi

# docs_root NAME: the marked blocks of root NAME, each its own case
docs_root() {
	local name=$1 r log fl f l n=0
	log=$work/$name.log
	: >"$log"
	r=$(new_root "$name")
	if setup "$r" "$log" linux-image-amd64 sudo; then
		stand_ins "$r"
		clone "$r" >>"$log"
		for fl in "${blocks[@]}"; do
			[ "${fl#* }" = "$name" ] || continue
			fl=${fl%% *}
			f=${fl%:*}
			l=${fl##*:}
			n=$((n + 1))
			tests/fresh/doc-blocks.sh --block "$f" "$l" >"$r/root/block.sh" || {
				fail "$name: $fl: no block there"
				break
			}
			step "$r" "$log" "$name: $fl, as written" \
				"cd /root/vtuner && bash -e -v /root/block.sh" || break
		done
		[ $n -gt 0 ] || fail "$name: no block of the documents is marked for it"
	fi
	umount_root "$r"
}

# ---- demo: what a new user types first
demo_root() {
	local r log=$work/demo.log
	: >"$log"
	r=$(new_root demo)
	if setup "$r" "$log" git make; then
		clone "$r" >>"$log"
		step "$r" "$log" "demo: make demo, the first time" "cd /root/vtuner && make demo" &&
			step "$r" "$log" "demo: make check-unit" "cd /root/vtuner && make check-unit"
	fi
	umount_root "$r"
}

for name in $FRESH_ROOTS; do
	case $name in
	demo) demo_root ;;
	make | deb) docs_root "$name" ;;	# the documented command sequences
	*) fail "FRESH_ROOTS: no root '$name'" ;;
	esac
done
for fl in "${blocks[@]}"; do
	case ${fl#* } in
	make | deb) ;;
	*) fail "${fl%% *}: marked for an unknown root '${fl#* }'" ;;
	esac
done

echo "check-fresh took $((SECONDS - start_all))s"
echo "check-fresh: $passed passed, $failed failed"
[ "$failed" = 0 ]
