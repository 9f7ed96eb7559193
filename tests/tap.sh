# shellcheck shell=bash
# tap.sh - the check helpers of the shell test stages (tests/install/
# check-install.sh, check-deb.sh, dkms-install.sh; tests/server/run.sh):
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
