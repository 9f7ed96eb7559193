#!/bin/bash
# tests/client/run.sh - vtunerc on the host against servers that are not
# what they claim (issue 25, items 5 and 6), without the module: the
# control device is tests/tuner/mockdev.so (LD_PRELOAD), which reports at
# exit the last status vtunerc pushed into it ("last_status=0x.."), and
# the servers are raw peers of tests/vtpeer.py on 127.0.0.1:
#
#   vtunerc --psk-file ──► impostor: HELLO_REPLY, STATUS "lock", a made-up
#     │                    AUTH_REPLY
#     └─► mockdev.so (the adapter), --status-file (vtunerctl's view)
#
# * a STATUS from a server that has not proven the key never reaches the
#   adapter nor the status file, and the session ends there;
# * a session that ends in any state leaves the adapter reading "no
#   signal";
# * the strings a server sends (its name, a tuner's name) cannot inject
#   lines into the status file nor control characters into the log.
# Usage: run.sh BUILD_DIR.  Ends with one line "N passed, N failed".
set -uo pipefail
B=${1:-build}
VTC=$B/client/vtunerc
MOCK=$B/tests/tuner/mockdev.so
PEER="python3 $(dirname "$0")/../vtpeer.py"
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-client.XXXXXX")
BASE=$((20000 + ($$ * 11) % 20000))
pids=()

cleanup() {
	local p

	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT

# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"
for f in "$VTC" "$MOCK"; do
	if [ ! -e "$f" ]; then
		fail "$f missing (make vtunerc tuner-tools $MOCK)"
		echo "$passed passed, $failed failed"
		exit 1
	fi
done
within() {	# within SECONDS COMMAND...
	for _ in $(seq $(($1 * 10))); do
		"${@:2}" && return 0
		sleep 0.1
	done
	return 1
}

# fake NAME STEP...: a raw server on a free port in the background, its
# address in $srv
fake() {
	local name=$1 port try

	shift
	for try in 1 2 3 4 5; do
		port=$((BASE + try * 137 + ${#pids[@]}))
		rm -f "$W/$name.ready"
		$PEER server "127.0.0.1:$port" --ready "$W/$name.ready" "$@" \
			>"$W/$name.out" 2>&1 &
		pids+=($!)
		within 5 test -e "$W/$name.ready" && { srv=127.0.0.1:$port; return 0; }
		kill "${pids[-1]}" 2>/dev/null
	done
	return 1
}
# client NAME SERVER ARGS...: vtunerc on the mock device for 3 s, then
# SIGTERM; its log (with the mock's report) in NAME.log, the status file
# as it was before the end in NAME.status
client() {
	local name=$1 s=$2 p

	shift 2
	MOCK_DEV=$W/vtunerc0 LD_PRELOAD=$MOCK "$VTC" -vv -d "$W/vtunerc0" \
		-s "$s" -t 0 --status-file "$W/$name.st" "$@" \
		>"$W/$name.log" 2>&1 &
	p=$!
	sleep 3
	# the file is written every second: on a loaded host the first may
	# come later than 3 s after the start
	within 10 test -s "$W/$name.st" || true
	cp "$W/$name.st" "$W/$name.status" 2>/dev/null
	kill -TERM "$p"
	wait "$p"
}
# no_signal NAME: the last status pushed into the adapter is 0 (or none)
no_signal() {
	grep -Eq "^mock: .* last_status=0x00 " "$W/$1.log"
}
no_lock_file() { [ -f "$W/$1.status" ] && ! grep -q "^lock: yes" "$W/$1.status"; }

head -c 32 /dev/urandom | base64 >"$W/key"
chmod 600 "$W/key"

# 1. an impostor with the key's feature: STATUS "lock" before its proof
check_or_show "an impostor server listens" \
	fake impostor reply-hello status=1:1f reply-auth wait=1 -- "$W/impostor.out"
client impostor "$srv" --psk-file "$W/key"
check_or_show "vtunerc refuses the impostor" \
	grep -q "(while authentication); retrying" "$W/impostor.log" -- "$W/impostor.log"
check_or_show "a STATUS before the server's proof does not reach the adapter" \
	no_signal impostor -- "$W/impostor.log"
check_or_show "... nor the status file" no_lock_file impostor -- "$W/impostor.status"
never_locked() { ! grep -q "locked" "$W/$1.log"; }
check_or_show "... nor the log as a lock" never_locked impostor -- "$W/impostor.log"
check_or_show "... and ends the session, saying why" \
	grep -q "STATUS before the server proved the key" "$W/impostor.log" -- \
	"$W/impostor.log"

# 2. no key: a server that pushes "lock" in the middle of the handshake,
# then goes away
check_or_show "a keyless server listens" \
	fake nokey reply-hello status=1:1f wait=0.3 close -- "$W/nokey.out"
client nokey "$srv"
check_or_show "vtunerc took the server's HELLO_REPLY and saw it go" \
	grep -q "control connection closed by the server (while tuner list)" \
	"$W/nokey.log" -- "$W/nokey.log"
check_or_show "a session that ends before a tuner is open leaves the adapter without signal" \
	no_signal nokey -- "$W/nokey.log"
check_or_show "... and the status file without lock" no_lock_file nokey -- "$W/nokey.status"

# 3. a server whose name has a line of the status file in it
EVIL=$(printf 'evil\nlock: yes' | od -An -tx1 | tr -d ' \n')
check_or_show "a server with a newline in its name listens" \
	fake evil reply-hello="$EVIL" wait=2 -- "$W/evil.out"
client evil "$srv"
check_or_show "vtunerc said HELLO to it" grep -q "^got 0001" "$W/evil.out" -- \
	"$W/evil.out"
one_lock() {
	[ -f "$W/evil.status" ] && [ "$(grep -c '^lock: ' "$W/evil.status")" = 1 ] &&
		! grep -q '^lock: yes' "$W/evil.status"
}
check_or_show "a server's name cannot add a line to the status file" \
	one_lock -- "$W/evil.status"
no_line() { ! grep -q "^lock: yes" "$W/$1.log"; }
check_or_show "... nor to the log" no_line evil -- "$W/evil.log"

for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
pids=()
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
