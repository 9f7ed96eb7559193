#!/bin/bash
# dvbv5-zap -r records exactly the injected packets of the PIDs it asked
# for, and those PIDs reached the client as MSG_PIDLIST.
# vm-cost: 16 17%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

make_ts in.ts 3
vt_load
tuner_start t0 -d /dev/vtunerc0 --delsys dvbc --freq 346000000 \
	--ts in.ts --once --wait-pids --ts-start-delay 1500

cat > ch.conf <<'CONF'
[VT_One]
	DELIVERY_SYSTEM = DVBC/ANNEX_A
	FREQUENCY = 346000000
	SYMBOL_RATE = 6900000
	MODULATION = QAM/256
	INNER_FEC = NONE
	SERVICE_ID = 100
	VIDEO_PID = 256
	AUDIO_PID = 257
CONF
timeout 40 dvbv5-zap -a 0 -c ch.conf -r -o out.ts -t 8 VT_One 2>&1 | tail -5
expect_log "$VT_RESULTS/t0.log" "^PIDLIST.* 256 257" "PID list"
expect_log "$VT_RESULTS/t0.log" "^TS_DONE" "TS written"
"$VT_TOOLS/vt-tscheck" --pids 256,257 out.ts || fail "recording has errors"
"$VT_TOOLS/vt-tscheck" --compare in.ts out.ts --pids 256,257 ||
	fail "recording differs from the injected packets"
others=$("$VT_TOOLS/vt-tscheck" out.ts | sed -n 's/^pid=\([0-9]*\) .*/\1/p' | grep -vx '256\|257' || true)
[ -z "$others" ] || fail "recording has unrequested PIDs: $others"
grep "^bytes:\|^packets:\|^sync_errors:" /proc/vtunerc0
grep -q "^sync_errors: 0" /proc/vtunerc0 || fail "sync errors on a clean TS"
tuner_stop t0
