# shellcheck shell=bash
# tap.sh - the check helpers of the shell test stages (tests/install/
# check-install.sh, check-deb.sh, dkms-install.sh; tests/server/run.sh,
# handshake.sh, seal.sh; tests/client/run.sh):
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
# need_san PROGRAM...: the sanitizer builds a stage runs, else its summary
# line and exit 1; then ASan and UBSan stop at the first error and report
# into $W/asan.* and $W/ubsan.*
need_san() {
	local f

	for f in "$@"; do
		if [ ! -x "$f" ]; then
			fail "$f missing (make san)"
			echo "$passed passed, $failed failed"
			exit 1
		fi
	done
	export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:log_path=$W/asan"
	export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$W/ubsan"
}
check_or_show() {	# check_or_show NAME COMMAND... [-- FILES to show]
	local name=$1 files=() cmd=()

	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd+=("$1"); shift; done
	[ "${1:-}" = -- ] && { shift; files=("$@"); }
	if "${cmd[@]}"; then ok "$name"; else fail "$name"; show "${files[@]}"; fi
}
