#!/bin/bash
# dvb-fe-tool shows the name and delivery systems a client set: through the
# extension (SET_DELSYS) and through the classic SET_MODES.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

vt_load adapters=4
tuner_start t0 -d /dev/vtunerc0 --name "Test Tuner S2" --delsys dvbs2,dvbs
out=$(dvb-fe-tool -a 0 2>&1)
echo "$out"
echo "$out" | grep -q "Device Test Tuner S2 " || fail "name not shown"
sys=$(echo "$out" | sed -n '/Supported delivery systems/,/Frequency range/p' | tr -d ' []' | grep -v ':' | sort | tr '\n' ' ')
[ "$sys" = "DVBS DVBS2 " ] || fail "delivery systems: '$sys'"
echo "$out" | grep -q "From: *950 MHz\|From: *950.0 MHz\|From: *0.95 GHz" || true

# Classic client, several modes on one frontend.
"$VT_TOOLS/vt-classic" -d /dev/vtunerc1 --name "Classic Multi" \
	--modes DVB-S2,DVB-T,DVB-C --exit-after 30 \
	--ready-file "$VT_RESULTS/c1.ready" --log "$VT_RESULTS/c1.log" &
wait_for "$VT_RESULTS/c1.ready" 10 || fail "vt-classic did not start"
out=$(dvb-fe-tool -a 1 2>&1)
echo "$out"
echo "$out" | grep -q "Device Classic Multi " || fail "classic name not shown"
sys=$(echo "$out" | sed -n '/Supported delivery systems/,/Frequency range/p' | tr -d ' []' | grep -v ':' | sort | tr '\n' ' ')
[ "$sys" = "DVBC/ANNEX_A DVBS DVBS2 DVBT " ] || fail "classic delivery systems: '$sys'"

# Four independent adapters: each shows its own client's description.
tuner_start t2 -d /dev/vtunerc2 --name "Third T2" --delsys dvbt2,dvbt
tuner_start t3 -d /dev/vtunerc3 --name "Fourth C" --delsys dvbc
dvb-fe-tool -a 2 | grep -q "Device Third T2 " || fail "adapter 2 name"
dvb-fe-tool -a 3 | grep -q "Device Fourth C " || fail "adapter 3 name"
# A new client's frontend starts on its first system, as a registered
# frontend does: FE_GET_INFO's type and unit, a DVBv3 tune, come from it.
dvb-fe-tool -a 2 | grep -q "\[DVBT2\]" || fail "adapter 2 does not start on DVBT2"
dvb-fe-tool -a 3 | grep -q "\[DVBC/ANNEX_A\]" || fail "adapter 3 does not start on DVBC"
dvb-fe-tool -a 0 | grep -q "Device Test Tuner S2 " || fail "adapter 0 changed"
tuner_stop t3
dvb-fe-tool -a 2 | grep -q "Device Third T2 " || fail "adapter 2 affected by adapter 3's client"

# Without SET_FE_INFO the module's caps follow the systems: no VSB without
# ATSC, second generation only with DVB-S2 or T2.
tuner_start t3b -d /dev/vtunerc3 --name "No Info" --delsys dvbs,dvbc --no-fe-info
dvb-fe-tool -a 3 >caps1.txt 2>&1
tuner_stop t3b
tuner_start t3c -d /dev/vtunerc3 --name "No Info 2G" --delsys dvbc,dvbt2 --no-fe-info
dvb-fe-tool -a 3 >caps2.txt 2>&1
tuner_stop t3c
! grep -q "CAN_8VSB\|CAN_2G_MODULATION" caps1.txt || fail "DVB-S/C frontend claims VSB or 2G: $(grep CAN_ caps1.txt | tr -d ' ' | tr '\n' ' ')"
grep -q "CAN_2G_MODULATION" caps2.txt || fail "DVB-C/T2 frontend lacks CAN_2G_MODULATION"
grep -q "\[DVBC/ANNEX_A\]" caps2.txt || fail "DVB-C/T2 frontend does not start on DVBC"

# A second owner is refused while the first holds the device.
if "$VT_TOOLS/vt-testtuner" -d /dev/vtunerc0 --exit-after 1 2>"$VT_RESULTS/busy.err"; then
	fail "second open of /dev/vtunerc0 succeeded"
fi
grep -q "busy" "$VT_RESULTS/busy.err" || fail "second open: $(cat "$VT_RESULTS/busy.err")"

tuner_stop t0
tuner_stop t2
kill %2 2>/dev/null || true
wait
