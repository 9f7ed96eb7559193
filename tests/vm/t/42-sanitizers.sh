#!/bin/bash
# vtunerd and vtunerc built with ASan + UBSan (make san: $VT_BUILD/san/)
# through an end-to-end scan, a recording, a retune and a reconnection;
# any sanitizer report (errors, leaks at exit) fails the test.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

VTUNERD=$VT_BUILD/san/server/vtunerd
VTUNERC=$VT_BUILD/san/client/vtunerc
[ -x "$VTUNERD" ] && [ -x "$VTUNERC" ] || fail "sanitizer build missing: make san"
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0:log_path=$VT_RESULTS/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$VT_RESULTS/ubsan"

vt_load
netns_setup
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0

cat >t.init <<'CONF'
[T]
	DELIVERY_SYSTEM = DVBT
	FREQUENCY = 506000000
	BANDWIDTH_HZ = 8000000
CONF
timeout 120 dvbv5-scan -a 0 -o t.conf t.init >scan.out 2>&1 || true
tail -n 4 scan.out
grep -qx "\[Sim Local\]" t.conf || { cat scan.out; fail "scan found no 'Sim Local'"; }
timeout 60 dvbv5-zap -a 0 -c t.conf -r -o rec.ts -t 6 "Sim Local" >zap.out 2>&1 || true
tail -n 2 zap.out
"$VT_TOOLS/vt-tscheck" rec.ts >rec.check || true
tail -n 1 rec.check
grep -q "^pid=257 packets=[1-9]" rec.check || fail "recording has no video"

# a server restart under the client: the reconnection path
kill "$(cat srv.pid)"
while kill -0 "$(cat srv.pid)" 2>/dev/null; do sleep 0.1; done
mv srv.log srv-1.log
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
timeout 60 dvbv5-zap -a 0 -c t.conf -x -t 8 "Sim Kids" >zap2.out 2>&1 || true
grep -q "Lock " zap2.out || { cat zap2.out; fail "no lock after the server restart"; }

daemon_stop cli
daemon_stop srv
reports=$(ls asan.* ubsan.* 2>/dev/null || true)
for f in $reports; do echo "--- $f"; head -n 60 "$f"; done
[ -z "$reports" ] || fail "sanitizer reports: $reports"
grep -h "runtime error\|AddressSanitizer\|LeakSanitizer" srv-1.log srv.log cli.log &&
	fail "sanitizer messages in the daemon logs"
log "no sanitizer reports"
