#!/bin/bash
# Faults under the applications of a CUSE adapter: vtunerc --cuse
# (docs/cuse.md, adapter 8, no module) built with ASan + UBSan, for a
# vtunerd --sim across network namespaces; vt-watch (tests/vm/faults.sh)
# tuned to "Sim Local" and reading dvr0 throughout (a) and (c):
# (a) vtunerd killed (-9), started again 2 s later: meanwhile another
#     opener's FE_READ_STATUS reads no lock at once; status reads no
#     lock, the tune is sent again and the TS flows with no continuity
#     errors;
# (c) the link down for 5 s: FE_READ_STATUS is answered locally at once
#     (reads no lock once vtunerc finds the connection dead), then the
#     same recovery;
#     every FE_READ_STATUS of vt-watch returned within TIMEOUT_MS;
# (b) vtunerc killed (-9) under applications blocked in frontend0's
#     FE_GET_EVENT and poll(), demux0's read() and poll(), dvr0's read():
#     each gets an error within 5 s, the nodes go (a descriptor of the old
#     frontend0 kept open meanwhile), a new vtunerc --cuse serves
#     adapter 8 again: tzap tunes and records.
# Every application runs under timeout; no sanitizer report (errors, leaks
# at exit); the harness checks dmesg.
# vm-cost: 70 35%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
VTUNERC=$VT_BUILD/san/client/vtunerc
FAULTS_FRONT=cuse
. "$VT_ROOT/tests/vm/faults.sh"
trap netns_cleanup EXIT

[ -x "$VTUNERC" ] || fail "sanitizer build missing: make san"
"$VT_BUILD/client/vtunerc" --cuse --check -s 10.99.0.1 >/dev/null 2>&1 ||
	skip "vtunerc built without libfuse3"
san_setup
A=/dev/dvb/adapter$FAULTS_ADAPTER

TIMEOUT_MS=1000
faults_setup 250

# status CEILING_MS: FE_READ_STATUS of another (read-only) opener; prints
# the status, fails if the call failed or took CEILING_MS or more
status() {
	local out ms
	out=$(timeout 10 "$VT_TOOLS/vt-fecall" -a "$FAULTS_ADAPTER" status) ||
		fail "FE_READ_STATUS failed: $out"
	echo "$out" >&2
	ms=$(sed -n 's/.* ms=\([0-9]*\).*/\1/p' <<<"$out")
	[ "$ms" -lt "$1" ] || fail "FE_READ_STATUS took $ms ms: $out"
	sed -n 's/.* status=\(0x[0-9a-f]*\).*/\1/p' <<<"$out"
}
[ "$(status 500)" = 0x1f ] || fail "no lock at the start"

# (a) vtunerd killed and started again
newseg
t0=$(now)
kill -9 "$(cat srv.pid)"
sleep 1
[ "$(status 500)" = 0x00 ] || fail "lock read with the server gone"
sleep 1
mv srv.log srv-1.log
faults_server
t1=$(now)
result server-restart yes "$t0" "$t1"

# (c) the link down for 5 s; vtunerc finds it dead within 3 s
newseg
t0=$(now)
ip -n cli link set veth-c down
sleep 4.5
[ "$(status 500)" = 0x00 ] || fail "lock read with the link down for 4.5 s"
sleep 0.5
ip -n cli link set veth-c up
t1=$(now)
result linkdown yes "$t0" "$t1"

watch_end
grep -h "lost\|reconnect\|continuity" cli.log || true

# (b) vtunerc killed under blocked applications.  The tune stays with
# vtunerc after vt-watch is gone; dvr-read's filter asks for PID 257.
blockers="fe-event fe-poll dmx-read dmx-poll dvr-read"
for b in $blockers; do
	timeout 60 "$VT_TOOLS/vt-block" -a "$FAULTS_ADAPTER" "$b" >"$b.out" 2>&1 &
	echo $! >"$b.pid"
done
for b in $blockers; do
	for _ in $(seq 100); do
		grep -q "ready" "$b.out" && break
		sleep 0.1
	done
	grep -q "ready" "$b.out" || { cat "$b.out"; fail "vt-block $b not set up"; }
done
exec 5<"$A/frontend0"
sleep 2
for b in $blockers; do
	kill -0 "$(cat "$b.pid")" 2>/dev/null || { cat "$b.out"; fail "vt-block $b did not block"; }
done
t0=$(now)
kill -9 "$(cat cli.pid)"
for b in $blockers; do
	rc=0
	wait "$(cat "$b.pid")" || rc=$?
	[ $rc = 0 ] || { cat "$b.out"; fail "vt-block $b: exit status $rc"; }
	line=$(grep "errno=" "$b.out") || { cat "$b.out"; fail "vt-block $b: no error"; }
	echo "$line"
	awk -v t0="$t0" -v b="$b" '{ for (i = 1; i <= NF; i++) if ($i ~ /^t=/) t = substr($i, 3) }
		END { printf "%s: error %.2f s after the kill\n", b, t - t0; exit !(t - t0 < 5) }' \
		<<<"$line" || fail "vt-block $b: the error came too late"
done
grep -q "^dvr-read .* bytes=[1-9]" dvr-read.out || fail "dvr-read read no TS before the kill"
for _ in $(seq 50); do
	[ -e "$A/frontend0" ] || [ -e "$A/demux0" ] || [ -e "$A/dvr0" ] || break
	sleep 0.1
done
if [ -e "$A/frontend0" ] || [ -e "$A/demux0" ] || [ -e "$A/dvr0" ]; then
	ls -l "$A"
	fail "nodes left after vtunerc was killed"
fi
log "the nodes are gone"

# a new vtunerc serves the adapter again (the old frontend0 still open
# here): a new tune, TS
mv cli.log cli-1.log
faults_client
exec 5<&-
echo "Sim Local:506000000:INVERSION_AUTO:BANDWIDTH_8_MHZ:FEC_AUTO:FEC_AUTO:QAM_64:TRANSMISSION_MODE_8K:GUARD_INTERVAL_1_4:HIERARCHY_NONE:257:258:401" >t.conf
timeout 60 tzap -a "$FAULTS_ADAPTER" -c t.conf -r -o tzap.ts -t 5 "Sim Local" >tzap.out 2>&1 ||
	{ cat tzap.out; tail -n 30 cli.log; fail "tzap failed on the new vtunerc"; }
tail -n 3 tzap.out
grep -q "FE_HAS_LOCK" tzap.out || fail "tzap: no lock on the new vtunerc"
"$VT_TOOLS/vt-tscheck" tzap.ts | tee tzap.check
grep -q "cc_errors=0 sync_errors=0" tzap.check || fail "tzap's recording has errors"
grep -q "^pid=257 packets=[1-9]" tzap.check || fail "tzap's recording lacks PID 257"

daemon_stop cli
[ ! -e "$A/frontend0" ] || fail "frontend0 stays after vtunerc ended"
daemon_stop srv
san_check cli-1.log cli.log
