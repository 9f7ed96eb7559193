#!/bin/bash
# The protected session under an attacker on the path (docs/security.md,
# "The protected session"; issue 25, item 7): vtunerc reaches vtunerd
# --sim, both with a key, through tests/vtrelay.py in the server's
# namespace, while vt-watch stays on the adapter.  The relay flips one
# bit of a TS frame, then injects a clear TUNE into the control
# connection: each time the session ends (vtunerc, then vtunerd, logging
# why), the application reads no lock, and the next session brings the
# TS back without continuity errors.  Without the protection neither
# attack ended the session: the bit reached the application, and the
# TUNE retuned the server behind its back.
# vm-cost: 35 47%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
. "$VT_ROOT/tests/vm/faults.sh"
trap netns_cleanup EXIT

TIMEOUT_MS=1000
head -c 32 /dev/urandom | base64 >key
chmod 600 key
# a clear TUNE (reqid and seq 99): DVB-C 330 MHz, 6.9 MBd
INJ_TUNE=56540020000000000000002800000063
INJ_TUNE+=0000006300040000000000110000000100000003
INJ_TUNE+=13ab66800000000800694a200000000100000000

vt_load timeout_ms="$TIMEOUT_MS"
netns_setup
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911 --psk-file key
# the attacker: between the namespaces' link and vtunerd, each action
# armed by a SIGUSR1
ip netns exec srv python3 "$VT_ROOT/tests/vtrelay.py" 10.99.0.1:5912 \
	10.99.0.1:5911 --on-usr1 flip=s2c:data:+0 "inject=c2s:ctl:+0:$INJ_TUNE" \
	>relay.log 2>&1 &
relay=$!
for _ in $(seq 50); do
	grep -q listening relay.log && break
	sleep 0.1
done
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1:5912 -t 0 --psk-file key
watch_start -d dvbt -f 506000000 -p 257,258 -o rec -T 120
flowing 0 30 >/dev/null || { cat watch.log cli.log; fail "no TS at the start"; }
log "TS flowing through the relay"
clean start

# attack NAME WHAT: in a new segment, arm the relay's next action, wait
# until it acted, then for the recovery (faults.sh's result)
attack() {
	local n t0 t1

	newseg
	t0=$(now)
	n=$(grep -c "^$2 " relay.log || true)
	kill -USR1 "$relay"
	for _ in $(seq 100); do
		[ "$(grep -c "^$2 " relay.log || true)" -gt "$n" ] && break
		sleep 0.1
	done
	[ "$(grep -c "^$2 " relay.log || true)" -gt "$n" ] ||
		{ cat relay.log; fail "$1: the relay did not act"; }
	t1=$(now)
	result "$1" yes "$t0" "$t1"
}

log "a bit flipped in a TS frame"
attack flip-ts flip
grep -q "lost: data connection: a frame did not open" cli.log ||
	{ cat cli.log; fail "vtunerc did not end the session on the changed frame"; }

log "a clear TUNE injected"
attack inject-tune inject
grep -Eq "warning: #[0-9]+ 10\.99\.0\.1:[0-9]+: unprotected TUNE frame in a protected session" srv.log ||
	{ cat srv.log; fail "vtunerd did not close on the injected TUNE, naming the address"; }
if grep -q "330000000" srv.log; then
	cat srv.log
	fail "vtunerd acted on the injected TUNE"
fi
[ "$(grep -c "server 'vtunerd' authenticated" cli.log)" -ge 3 ] ||
	{ cat cli.log; fail "vtunerc did not start a new session after each attack"; }

watch_end
kill "$relay" 2>/dev/null || true
log "ok"
