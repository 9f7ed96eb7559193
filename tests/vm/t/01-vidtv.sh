#!/bin/bash
# vidtv, a real DVB driver: dvbv5-scan on its DVB-T mux finds "Beethoven".
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

vidtv_load
wait_for /dev/dvb/adapter0/frontend0 || fail "vidtv created no frontend"
printf '[X]\n\tDELIVERY_SYSTEM = DVBT\n\tFREQUENCY = 474000000\n\tBANDWIDTH_HZ = 8000000\n' >channels.in
dvbv5-scan -a 0 -o channels.out channels.in >scan.log 2>&1 || {
	cat scan.log
	fail "dvbv5-scan failed"
}
cat scan.log
grep -q Beethoven scan.log || fail "service Beethoven not in the scan output"
grep -q Beethoven channels.out || fail "service Beethoven not in channels.out"
vidtv_unload
