#!/bin/bash
# tests/server/seal.sh - the protected session (docs/protocol.md, "Session
# protection"; issue 25, item 7) against an attacker on the path, on the
# host with the ASan + UBSan daemons and a relay that forwards every frame
# and changes, injects, replays, drops or reorders one (tests/vtrelay.py):
#
#   vtunerc --sink --psk-file ─► vtrelay (the attacker) ─► vtunerd --sim
#
# * with a key, nothing after the handshake crosses the path in clear:
#   every frame of both connections, both ways, is SEALED, and the TS
#   arrives whole;
# * a bit flipped in a TS frame or in a request, a frame replayed, dropped
#   or swapped with the next, a clear TUNE or a made-up sealed frame
#   injected: the side that receives it closes the session, with a
#   warning naming the peer's address, and vtunerc's next session goes
#   through (the relay acts once);
# * without a key the same relay's clear TUNE is obeyed (what sealing
#   prevents), and sessions work as before;
# * no downgrade: a client with a key that does not ask for sealing, or a
#   server with a key that does not grant it, is refused.
# Usage: seal.sh BUILD_DIR.  Ends with one line "N passed, N failed".
set -uo pipefail
B=${1:-build}
VTD=$B/san/server/vtunerd
VTC=$B/san/client/vtunerc
HERE=$(cd "$(dirname "$0")/.." && pwd)
RELAY="python3 $HERE/vtrelay.py"
PEER="python3 $HERE/vtpeer.py"
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-seal.XXXXXX")
BASE=$((20000 + ($$ * 11) % 20000))
pids=()

cleanup() {
	local p

	exec 2>/dev/null	# no "Killed" lines from the shell
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	jobs -p | xargs -r kill -9 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT

# shellcheck source=tests/tap.sh
. "$HERE/tap.sh"
need_san "$VTD" "$VTC"

head -c 32 /dev/urandom | base64 >"$W/key"
chmod 600 "$W/key"
# the sim's DVB-C transponder at 346 MHz, its tables only (a few frames a
# second): enough TS frames to act on, little CPU for the sanitizers
TUNE=DELIVERY_SYSTEM=DVBC,FREQUENCY=346000000,SYMBOL_RATE=6900000,MODULATION=QAM_256
PIDS=0,16,17,18
# a clear TUNE (reqid and seq 99) to 330 MHz, DVB-C: 4 properties
INJ_TUNE=56540020000000000000002800000063
INJ_TUNE+=0000006300040000000000110000000100000003
INJ_TUNE+=13ab66800000000800694a200000000100000000
# a SEALED frame of 48 made-up bytes
INJ_SEALED=56540050000000000000003000000000
INJ_SEALED+=$(head -c 48 /dev/urandom | od -An -tx1 | tr -d ' \n')

port_n=0
nextport() { port_n=$((port_n + 1)); port=$((BASE + port_n * 7)); }
# wait_for FILE PATTERN SECONDS
wait_for() {
	local _

	for _ in $(seq $(($3 * 10))); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# attack NAME KEY ACTION...: vtunerd, the relay with ACTION, then vtunerc
# through it, all in the background; logs $W/NAME.{d,r,c}.log.  KEY: no,
# yes (both daemons choose their cipher: --cipher auto), cc (vtunerc
# --cipher chacha20-poly1305) or cs (vtunerd --cipher chacha20-poly1305)
attack() {
	local name=$1 key=$2 k=() kd=() kc=() _

	shift 2
	[ "$key" != no ] && k=(--psk-file "$W/key")
	[ "$key" = cc ] && kc=(--cipher chacha20-poly1305)
	[ "$key" = cs ] && kd=(--cipher chacha20-poly1305)
	for _ in 1 2 3; do
		nextport
		"$VTD" -f -v --sim --sim-tuners 1 --no-announce \
			-l "127.0.0.1:$port" "${k[@]}" "${kd[@]}" >"$W/$name.d.log" 2>&1 &
		pids+=($!)
		wait_for "$W/$name.d.log" "listening on" 5 && break
	done
	$RELAY "127.0.0.1:$((port + 1))" "127.0.0.1:$port" "$@" \
		>"$W/$name.r.log" 2>&1 &
	pids+=($!)
	eval "relay_$name=$!"
	wait_for "$W/$name.r.log" listening 5
	"$VTC" -f -v -s "127.0.0.1:$((port + 1))" -t 0 --status-file none \
		--sink "$W/$name.ts" "${k[@]}" "${kc[@]}" --tune "$TUNE" --pids "$PIDS" \
		>"$W/$name.c.log" 2>&1 &
	pids+=($!)
	eval "vtc_$name=$!"
}
# stop NAME: vtunerc ends (its counters logged), then the relay reports
stop_vtc() {
	local p

	eval "p=\$vtc_$1"
	kill "$p" 2>/dev/null
	wait "$p" 2>/dev/null
	sleep 0.3
}
# recovered NAME: vtunerc's next session went through (the attack may
# have come before the tuner was open: "connected", else "reconnected")
recovered() {
	local _

	for _ in $(seq 100); do
		[ "$(grep -c "server 'vtunerd' authenticated" "$W/$1.c.log")" -ge 2 ] &&
			grep -q "connected to .*tuner 0 '" "$W/$1.c.log" && return 0
		sleep 0.1
	done
	return 1
}
# warned_d NAME WHAT: vtunerd warned of WHAT, naming the relay's address
warned_d() { wait_for "$W/$1.d.log" "warning: #[0-9]* 127\.0\.0\.1:[0-9]*: $2" 10; }

# All attacks at once, each on its own ports.
attack wire yes
attack clear no
attack flip_ts yes flip=s2c:data:6
attack flip_req yes flip=c2s:ctl:4
attack inj_tune yes "inject=c2s:ctl:4:$INJ_TUNE"
attack inj_clear no "inject=c2s:ctl:4:$INJ_TUNE"
attack replay yes replay=c2s:ctl:4
attack drop yes drop=s2c:data:5
attack swap yes swap=s2c:data:5
attack inj_sealed yes "inject=s2c:ctl:3:$INJ_SEALED"
# ChaCha20-Poly1305 when either side says so (AES-256-OCB is the default
# where the CPU has AES instructions)
attack wire_cc cc
attack wire_cs cs
attack flip_cc cc flip=s2c:data:6

# --- nothing in clear after the handshake; the TS whole
sleep 4
stop_vtc wire
stop_vtc clear
stop_vtc wire_cc
stop_vtc wire_cs
# "KIND DIR types T:N,...": the types of KIND's DIR other than those of
# the handshake, for every connection of that kind
types() {
	sed -n "s/^$2 $3 types //p" "$W/$1.r.log" | tr ',' '\n' |
		sed 's/:.*//' | grep -v -x -E "$4" | sort -u | tr '\n' ' '
}
sealed_only() {	# [NAME]
	local n=${1:-wire}

	[ "$(types "$n" ctl c2s '0001|0007')" = "0050 " ] &&
		[ "$(types "$n" ctl s2c '0002|0008')" = "0050 " ] &&
		[ "$(types "$n" data c2s '0040')" = "0050 " ] &&
		[ "$(types "$n" data s2c '0003')" = "0050 " ]
}
check_or_show "with a key, every frame after the handshake is SEALED, on both connections, both ways" \
	sealed_only -- "$W/wire.r.log"
ts_whole() {	# NAME: TS received, without continuity or sync error
	local line

	line=$(grep -o '[0-9]* bytes of TS in .*' "$W/$1.c.log" | tail -n 1)
	[ -n "$line" ] && [ "${line%% *}" -gt 10000 ] &&
		[[ $line == *" 0 continuity and 0 sync error(s)" ]] &&
		[ "$(stat -c %s "$W/$1.ts")" = "${line%% *}" ]
}
check_or_show "... and the TS arrives whole" ts_whole wire -- "$W/wire.c.log"
# the cipher both logged: AES-256-OCB where libgcrypt has AES
# instructions (x86's "aes" flag), else ChaCha20-Poly1305
if grep -q -w aes /proc/cpuinfo; then auto=AES-256-OCB; else auto=ChaCha20-Poly1305; fi
cipher_is() {	# NAME CIPHER: both daemons say so
	grep -q "client 'vtunerc' authenticated; session sealed with $2\$" "$W/$1.d.log" &&
		grep -q "server 'vtunerd' authenticated; session sealed with $2\$" "$W/$1.c.log"
}
check_or_show "by default the session is sealed with $auto (both daemons say so)" \
	cipher_is wire "$auto" -- "$W/wire.d.log" "$W/wire.c.log"
for n in wire_cc wire_cs; do
	check_or_show "${n#wire_}: ChaCha20-Poly1305 when $([ $n = wire_cc ] && echo vtunerc || echo vtunerd) says --cipher chacha20-poly1305" \
		cipher_is "$n" ChaCha20-Poly1305 -- "$W/$n.d.log" "$W/$n.c.log"
	check_or_show "... every frame after the handshake SEALED, the TS whole" \
		eval "sealed_only $n && ts_whole $n" -- "$W/$n.r.log" "$W/$n.c.log"
done
clear_ok() {
	[ -n "$(types clear data s2c '0003' | grep -w 0041)" ] && ts_whole clear
}
check_or_show "without a key, sessions work as before (TS_DATA in clear)" \
	clear_ok -- "$W/clear.r.log" "$W/clear.c.log"

# --- each attack closes the session; the next one goes through
opened() { wait_for "$W/$1.c.log" "$2 connection: a frame did not open" 10; }
check_or_show "a bit flipped in a TS frame: vtunerc ends the session" \
	opened flip_ts data -- "$W/flip_ts.c.log" "$W/flip_ts.r.log"
check_or_show "... and the next session goes through" recovered flip_ts -- "$W/flip_ts.c.log"
check_or_show "the same with ChaCha20-Poly1305: vtunerc ends the session" \
	opened flip_cc data -- "$W/flip_cc.c.log" "$W/flip_cc.r.log"
check_or_show "... and the next session goes through" recovered flip_cc -- "$W/flip_cc.c.log"
check_or_show "a bit flipped in a request: vtunerd closes, naming the address" \
	warned_d flip_req "frame [0-9]* did not open" -- "$W/flip_req.d.log" "$W/flip_req.r.log"
check_or_show "... and the next session goes through" recovered flip_req -- "$W/flip_req.c.log"
check_or_show "a clear TUNE injected: vtunerd closes, naming the address" \
	warned_d inj_tune "unprotected TUNE frame" -- "$W/inj_tune.d.log" "$W/inj_tune.r.log"
no_tune() { ! grep -q "tune DVBC/ANNEX_A 330000000" "$W/$1.d.log"; }
check_or_show "... without tuning" no_tune inj_tune -- "$W/inj_tune.d.log"
check_or_show "... and the next session goes through" recovered inj_tune -- "$W/inj_tune.c.log"
obeyed() { wait_for "$W/inj_clear.d.log" "tune DVBC/ANNEX_A 330000000" 10; }
check_or_show "(without a key the same injected TUNE is obeyed)" obeyed -- "$W/inj_clear.d.log" "$W/inj_clear.r.log"
check_or_show "a request replayed: vtunerd closes, naming the address" \
	warned_d replay "frame [0-9]* did not open" -- "$W/replay.d.log" "$W/replay.r.log"
check_or_show "... and the next session goes through" recovered replay -- "$W/replay.c.log"
check_or_show "a TS frame dropped: vtunerc ends the session" \
	opened drop data -- "$W/drop.c.log" "$W/drop.r.log"
check_or_show "... and the next session goes through" recovered drop -- "$W/drop.c.log"
check_or_show "two TS frames swapped: vtunerc ends the session" \
	opened swap data -- "$W/swap.c.log" "$W/swap.r.log"
check_or_show "... and the next session goes through" recovered swap -- "$W/swap.c.log"
check_or_show "a made-up sealed frame injected: vtunerc ends the session" \
	opened inj_sealed control -- "$W/inj_sealed.c.log" "$W/inj_sealed.r.log"
check_or_show "... and the next session goes through" recovered inj_sealed -- "$W/inj_sealed.c.log"

# --- no downgrade
nextport
"$VTD" -f --sim --sim-tuners 1 --no-announce -l "127.0.0.1:$port" \
	--psk-file "$W/key" >"$W/dg.d.log" 2>&1 &
pids+=($!)
wait_for "$W/dg.d.log" "listening on" 5
$PEER client "127.0.0.1:$port" hello-auth-clear wait=3 >"$W/dg.out" 2>&1
check_or_show "a client with a key that does not ask for sealing is refused" \
	grep -q "errno 13: authentication failed: the client does not protect the session" \
	"$W/dg.out" -- "$W/dg.out" "$W/dg.d.log"
nextport
$PEER server "127.0.0.1:$port" --ready "$W/fake.ready" reply-hello-clear \
	wait=3 >"$W/fake.out" 2>&1 &
pids+=($!)
wait_for "$W/fake.ready" "" 5 || sleep 1
"$VTC" -f -v -s "127.0.0.1:$port" -t 0 --status-file none --sink /dev/null \
	--psk-file "$W/key" --tune "$TUNE" >"$W/fake.c.log" 2>&1 &
pids+=($!)
check_or_show "a server with a key that does not grant sealing is refused" \
	wait_for "$W/fake.c.log" "the server does not protect the session" 8 \
	-- "$W/fake.c.log" "$W/fake.out"

for n in flip_ts flip_cc flip_req inj_tune inj_clear replay drop swap inj_sealed; do
	stop_vtc "$n"
done
check_or_show "no sanitizer report" \
	test -z "$(cat "$W"/asan* "$W"/ubsan* 2>/dev/null)" -- "$W"/asan* "$W"/ubsan*
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
