# shellcheck shell=bash
# tap.sh - the check helpers of the shell test stages (tests/install/
# check-install.sh, check-deb.sh, dkms-install.sh; tests/server/run.sh,
# handshake.sh; tests/client/run.sh):
# "ok - ..." / "not ok - ..." lines and the counters $passed and $failed.
# Source it.
passed=0
failed=0
ok()   { echo "ok - $*"; passed=$((passed + 1)); }
fail() { echo "not ok - $*"; failed=$((failed + 1)); }
check() {	# check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}
skip() { echo "ok - # SKIP $*"; }
quiet() { "$@" > /dev/null; }
# show FILE...: the last 20 lines of each, after a failed check
show() {
	local f

	for f in "$@"; do
		[ -f "$f" ] && sed 's/^/#   /' "$f" | tail -n 20
	done
	return 0
}
check_or_show() {	# check_or_show NAME COMMAND... [-- FILES to show]
	local name=$1 files=() cmd=()

	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd+=("$1"); shift; done
	[ "${1:-}" = -- ] && { shift; files=("$@"); }
	if "${cmd[@]}"; then ok "$name"; else fail "$name"; show "${files[@]}"; fi
}
