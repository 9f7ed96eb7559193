#!/bin/bash
# tests/server/handshake.sh - what a peer that has not completed the
# handshake can do to vtunerd (docs/security.md; issue 25, item 4), on
# the host with the ASan + UBSan vtunerd and raw peers (tests/vtpeer.py):
#
#   vtpeer (trickling, silent, misbehaving) ──┐
#   vtunerc --sink --psk-file (the genuine)  ─┼─► vtunerd 127.0.0.1 (A: key,
#                                             │     --max-clients 2; D: key)
#   vtpeer, vtunerc --sink (no key)          ─┴─► vtunerd (B: no key;
#                                                   C: --max-per-addr 2)
#
# * a fixed deadline from accept to the completed handshake: a peer that
#   sends one byte a second, after HELLO or before it, is closed after
#   10 s (before: never), and so is one that says nothing (no key);
# * only completed handshakes count against --max-clients: two peers that
#   said HELLO and wait do not lock out a client with the key (before:
#   "HELLO refused: Too many users"); the limit still holds for clients
#   that completed it;
# * anything but the handshake before it is complete closes the
#   connection, with a warning naming the peer's address;
# * --max-per-addr counts connections in the handshake, and a new one
#   closes the oldest of them instead of being refused.
# Usage: handshake.sh BUILD_DIR.  Ends with one line "N passed, N failed".
set -uo pipefail
B=${1:-build}
VTD=$B/san/server/vtunerd
VTC=$B/san/client/vtunerc
PEER="python3 $(dirname "$0")/../vtpeer.py"
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-handshake.XXXXXX")
BASE=$((20000 + ($$ * 7) % 20000))
pids=()

cleanup() {
	local p

	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	jobs -p | xargs -r kill -9 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT

# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"
need_san "$VTD" "$VTC"

# start NAME OPTION...: vtunerd NAME on a free port, its address in $srv
start() {
	local name=$1 port try

	shift
	for try in 1 2 3 4 5; do
		port=$((BASE + try * 131 + ${#pids[@]}))
		: >"$W/$name.log"
		"$VTD" --sim --sim-tuners 4 -l "127.0.0.1:$port" --no-announce \
			-v "$@" >>"$W/$name.log" 2>&1 &
		pids+=($!)
		for _ in $(seq 50); do
			grep -q "listening on" "$W/$name.log" && { srv=127.0.0.1:$port; return 0; }
			kill -0 "${pids[-1]}" 2>/dev/null || break
			sleep 0.1
		done
		grep -q "Address already in use" "$W/$name.log" || return 1
	done
	return 1
}
# peer NAME SERVER STEP...: a raw client in the background
peer() {
	local name=$1 s=$2

	shift 2
	$PEER client "$s" "$@" >"$W/$name.out" 2>&1 &
	last=$!
}
# closed_within NAME SEC [MIN]: the server closed NAME's connection
# within SEC (and not before MIN) of its connect, as the peer saw it
closed_within() {
	local t

	t=$(sed -n 's/^closed by peer after \([0-9.]*\) s$/\1/p' "$W/$1.out")
	[ -n "$t" ] && awk -v t="$t" -v m="$2" -v l="${3:-0}" \
		'BEGIN { exit !(t <= m && t >= l) }'
}
# vtc NAME SERVER ARGS...: vtunerc --sink in the background
vtc() {
	local name=$1 s=$2

	shift 2
	"$VTC" -v -s "$s" --sink /dev/null --status-file none "$@" \
		>"$W/$name.log" 2>&1 &
	pids+=($!)
}
connected() { grep -q "connected to .*tuner" "$W/$1.log"; }
within() {	# within SECONDS COMMAND...
	for _ in $(seq $(($1 * 10))); do
		"${@:2}" && return 0
		sleep 0.1
	done
	return 1
}
# warned LOG PEER-OUT WHAT: a warning of LOG names the peer's address
warned() {
	local port

	port=$(sed -n 's/^local 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$W/$2.out")
	[ -n "$port" ] && grep -q "warning: 127\.0\.0\.1:$port: .*$3" "$W/$1.log"
}

head -c 32 /dev/urandom | base64 >"$W/key"
chmod 600 "$W/key"
STATUS_BODY=$(printf '%0688d' 0)	# 344 zero bytes in hex

check_or_show "vtunerd A (a key, --max-clients 2) starts" \
	start a --psk-file "$W/key" --max-clients 2 --max-per-addr 0 -- "$W/a.log"
A=$srv
check_or_show "vtunerd D (a key, the default limits) starts" \
	start d --psk-file "$W/key" --max-per-addr 0 -- "$W/d.log"
D=$srv
check_or_show "vtunerd B (no key, --max-clients 1) starts" \
	start b --max-clients 1 --max-per-addr 0 -- "$W/b.log"
B_=$srv
check_or_show "vtunerd C (no key, --max-per-addr 2) starts" \
	start c --max-per-addr 2 -- "$W/c.log"
C_=$srv

# the slow ones first, in the background: 20 s each at most
peer trickle-hello "$D" hello-auth trickle=20
peer trickle-new "$D" trickle=20
peer silent-nokey "$B_" wait=20
# two peers that said HELLO and wait, then the genuine client
peer hold1 "$A" hello-auth wait=8
peer hold2 "$A" hello-auth wait=8
said_hello() { grep -q "^got 0002" "$W/hold1.out" && grep -q "^got 0002" "$W/hold2.out"; }
check_or_show "two raw peers say HELLO to A and wait" within 5 said_hello -- \
	"$W/hold1.out" "$W/hold2.out"
vtc genuine "$A" -t 0 --psk-file "$W/key"
check_or_show "two peers that said HELLO (no AUTH) do not lock out a client with the key" \
	within 5 connected genuine -- "$W/genuine.log" "$W/a.log"

# anything but the handshake before it is complete: closed, and said
# (long before the deadline of 10 s; the peers wait 8 s at most)
quick=()
peer ka-reply "$D" hello-auth send=0006:0000000000000000 wait=8
quick+=("$last")
peer unknown "$D" hello-auth send=7777 wait=8
quick+=("$last")
peer bad-auth "$D" hello-auth send=0007:00 wait=8
quick+=("$last")
peer ka-new "$D" send=0005:0000000000000000 wait=8
quick+=("$last")
peer status-new "$D" send=0030:"$STATUS_BODY" wait=8
quick+=("$last")
peer ka-nokey "$B_" send=0005:0000000000000000 wait=8
quick+=("$last")
# a client name with a line of the log in it
FORGED=$(printf 'x\n12:00:00.000 vtunerd: forged' | od -An -tx1 | tr -d ' \n')
peer forged "$C_" hello-name="$FORGED" wait=1
quick+=("$last")
# without a key HELLO completes the handshake: a request right after it
peer list-nokey "$B_" hello send=0010 wait=1
quick+=("$last")
wait "${quick[@]}"
wait_peers() {	# the peers started so far (not the daemons)
	local p

	for p in $(jobs -p); do
		case " ${pids[*]} " in *" $p "*) ;; *) wait "$p" ;; esac
	done
}
for p in ka-reply unknown bad-auth ka-new status-new ka-nokey; do
	check_or_show "$p: a frame that is not the handshake before it is complete closes the connection" \
		closed_within "$p" 7 -- "$W/$p.out"
done
for p in ka-reply unknown bad-auth ka-new status-new; do
	check_or_show "$p: a warning names the peer's address" \
		warned d "$p" "before the handshake" -- "$W/d.log"
done
check_or_show "ka-nokey: a warning names the peer's address (no key)" \
	warned b ka-nokey "before the handshake" -- "$W/b.log"
no_forged() { ! grep -q "^12:00:00.000 vtunerd: forged" "$W/c.log"; }
check_or_show "a client's name cannot add a line to the log" no_forged -- "$W/c.log"
nokey_list() { grep -q "^got 0011" "$W/list-nokey.out" && grep -q "^open after" "$W/list-nokey.out"; }
check_or_show "without a key, HELLO completes the handshake: LIST_TUNERS answered" \
	nokey_list -- "$W/list-nokey.out" "$W/b.log"

# --max-per-addr counts connections in the handshake; a new one closes
# the oldest of them
peer old1 "$C_" wait=12
within 5 grep -q "^local" "$W/old1.out"
peer old2 "$C_" wait=12
within 5 grep -q "^local" "$W/old2.out"
vtc perad "$C_" -t 0
check_or_show "--max-per-addr 2 and two silent connections: a client still connects" \
	within 5 connected perad -- "$W/perad.log" "$W/c.log"
# (before its deadline of 10 s)
check_or_show "the oldest connection in the handshake was closed for it" \
	within 3 closed_within old1 9 -- "$W/old1.out" "$W/c.log"
check_or_show "... with a warning naming its address" \
	warned c old1 "the oldest makes room for" -- "$W/c.log"

# the slow ones: a fixed deadline, whatever trickles in
wait_peers
check_or_show "one byte a second after HELLO: closed at the handshake deadline (10 s)" \
	closed_within trickle-hello 19 9.5 -- "$W/trickle-hello.out" "$W/d.log"
check_or_show "one byte a second before HELLO: closed at the handshake deadline" \
	closed_within trickle-new 19 9.5 -- "$W/trickle-new.out" "$W/d.log"
check_or_show "a silent connection to a server without a key: closed at the deadline" \
	closed_within silent-nokey 19 9.5 -- "$W/silent-nokey.out" "$W/b.log"
check_or_show "the deadline is logged with the peer's address" \
	warned d trickle-hello "handshake not complete within 10 s" -- "$W/d.log"

# the limit holds for clients that completed the handshake
vtc second "$A" -t 1 --psk-file "$W/key"
check_or_show "a second client with the key connects (--max-clients 2)" \
	within 5 connected second -- "$W/second.log" "$W/a.log"
vtc third "$A" -t 2 --psk-file "$W/key"
refused_third() { grep -q "too many clients (at most 2)" "$W/third.log"; }
check_or_show "a third one is refused: too many clients (at most 2)" \
	within 5 refused_third -- "$W/third.log" "$W/a.log"

for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
pids=()
reports=$(ls "$W"/asan.* "$W"/ubsan.* 2>/dev/null)
if [ -z "$reports" ] &&
   ! cat "$W"/*.log | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"; then
	ok "no sanitizer report"
else
	fail "sanitizer reports"
	# shellcheck disable=SC2086
	show $reports
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
