#!/bin/bash
# A chain: the virtual adapter of a first client is served again by a
# second vtunerd to a second client, and works there like a real adapter.
#   srv: vtunerd --sim  ->  cli: vtunerc (adapter0) + vtunerd --adapter 0
#   srv: vtunerc (adapter1) <- dvbv5-scan, dvbv5-zap -r
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vt_load adapters=2
netns_setup
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
vtunerc_start hop1 /dev/vtunerc0 -s 10.99.0.1 -t 0
chain_second_hop

cat > init.conf <<'CONF'
[T]
	DELIVERY_SYSTEM = DVBT
	FREQUENCY = 506000000
	BANDWIDTH_HZ = 8000000
CONF
timeout 120 dvbv5-scan -a 1 -o found.conf init.conf >scan.out 2>&1 || true
tail -n 5 scan.out
for s in "Sim Local" "Sim Kids" "Sim FM"; do
	grep -qx "\[$s\]" found.conf || fail "chained scan did not find '$s'"
done
timeout 60 dvbv5-zap -a 1 -c found.conf -r -o rec.ts -t 6 "Sim Kids" >zap.out 2>&1 || true
"$VT_TOOLS/vt-tscheck" rec.ts | tee rec.check
grep -q "^pid=273 packets=[1-9]" rec.check || fail "no video packets through the chain"
grep -q "cc_errors=0 sync_errors=0" rec.check || fail "continuity errors through the chain"
daemon_stop hop2
daemon_stop srv2
daemon_stop hop1
daemon_stop srv
