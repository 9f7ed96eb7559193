#!/bin/bash
# dvbv5-scan finds the services of a TS injected by the test tuner, with
# their names and PIDs.
# vm-cost: 17 20%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

make_ts in.ts 3
vt_load
tuner_start t0 -d /dev/vtunerc0 --delsys dvbc --freq 346000000 \
	--ts in.ts --loop --rate 2000000
cat > init.conf <<'CONF'
[CHANNEL]
	DELIVERY_SYSTEM = DVBC/ANNEX_A
	FREQUENCY = 346000000
	SYMBOL_RATE = 6900000
	MODULATION = QAM/256
	INNER_FEC = NONE
CONF
timeout 120 dvbv5-scan -a 0 -o found.conf init.conf 2>&1 | tail -15
cat found.conf
grep -q "^\[VT_One\]" found.conf || fail "service VT_One not found"
grep -q "^\[VT_Radio\]" found.conf || fail "service VT_Radio not found"
sed -n '/^\[VT_One\]/,/^\[/p' found.conf | grep -q "SERVICE_ID = 100" || fail "VT_One: service id"
sed -n '/^\[VT_One\]/,/^\[/p' found.conf | grep -q "VIDEO_PID = 256" || fail "VT_One: video PID"
sed -n '/^\[VT_One\]/,/^\[/p' found.conf | grep -q "AUDIO_PID = 257" || fail "VT_One: audio PID"
sed -n '/^\[VT_Radio\]/,/^\[/p' found.conf | grep -q "AUDIO_PID = 258" || fail "VT_Radio: audio PID"
tuner_stop t0
