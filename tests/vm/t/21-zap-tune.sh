#!/bin/bash
# dvbv5-zap tunes the virtual adapters and reports lock and DVBv5
# statistics; the test tuner received exactly the tuning values, field by
# field: DVB-S2 through a universal LNB (rolloff, pilot, stream id, tone,
# voltage), DVB-T2 with a PLP, DVB-C.  An application that waits for
# frontend events (POLLPRI, FE_GET_EVENT) gets each tune's lock as one.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

vt_load adapters=4
tuner_start s2 -d /dev/vtunerc0 --name "S2 tuner" --delsys dvbs2,dvbs \
	--freq 1588000 --lock-delsys dvbs2 --symbol-rate 27500000 --tone on --voltage 18
tuner_start t2 -d /dev/vtunerc1 --name "T2 tuner" --delsys dvbt2,dvbt \
	--freq 538000000 --lock-delsys dvbt2
tuner_start c -d /dev/vtunerc2 --name "C tuner" --delsys dvbc \
	--freq 346000000 --lock-delsys dvbc

cat > ch.conf <<'CONF'
[S2 test]
	DELIVERY_SYSTEM = DVBS2
	FREQUENCY = 12188000
	POLARIZATION = HORIZONTAL
	SYMBOL_RATE = 27500000
	INNER_FEC = 3/4
	MODULATION = PSK/8
	PILOT = ON
	ROLLOFF = 20
	INVERSION = AUTO
	STREAM_ID = 3
	SERVICE_ID = 100

[T2 test]
	DELIVERY_SYSTEM = DVBT2
	FREQUENCY = 538000000
	BANDWIDTH_HZ = 8000000
	MODULATION = QAM/256
	TRANSMISSION_MODE = 32K
	GUARD_INTERVAL = 1/128
	CODE_RATE_HP = 3/5
	INVERSION = OFF
	STREAM_ID = 1
	SERVICE_ID = 200

[C test]
	DELIVERY_SYSTEM = DVBC/ANNEX_A
	FREQUENCY = 346000000
	SYMBOL_RATE = 6900000
	MODULATION = QAM/256
	INNER_FEC = NONE
	INVERSION = AUTO
	SERVICE_ID = 300
CONF

zap() {	# zap ADAPTER CHANNEL [extra args]
	local a=$1 ch=$2
	shift 2
	timeout 30 dvbv5-zap -a "$a" -c ch.conf -x "$@" "$ch" 2>&1 | tee "zap$a.out"
}

zap 0 "S2 test" -l UNIVERSAL
grep -q "Lock" zap0.out || fail "DVB-S2: no lock reported"
grep -Eq "Signal= *-?[0-9.]+dBm" zap0.out || fail "DVB-S2: no signal strength in dBm"
grep -Eq "C/N= *[0-9.]+dB" zap0.out || fail "DVB-S2: no C/N in dB"
line=$(grep "^SET_FRONTEND" "$VT_RESULTS/s2.log" | tail -n 1)
# SYS_DVBS2=6, IF 12188-10600 MHz, FEC_3_4=3, PSK_8=9, PILOT_ON=0,
# ROLLOFF_20=1, INVERSION_AUTO=2
expect_fields "$line" DTV_DELIVERY_SYSTEM=6 DTV_FREQUENCY=1588000 \
	DTV_SYMBOL_RATE=27500000 DTV_INNER_FEC=3 DTV_MODULATION=9 DTV_PILOT=0 \
	DTV_ROLLOFF=1 DTV_INVERSION=2 DTV_STREAM_ID=3
# High band: tone on (SEC_TONE_ON=0); horizontal: 18 V (SEC_VOLTAGE_18=1).
expect_log "$VT_RESULTS/s2.log" "^TONE 0$" "DVB-S2 tone"
expect_log "$VT_RESULTS/s2.log" "^VOLTAGE 1$" "DVB-S2 voltage"

zap 1 "T2 test"
grep -q "Lock" zap1.out || fail "DVB-T2: no lock reported"
line=$(grep "^SET_FRONTEND" "$VT_RESULTS/t2.log" | tail -n 1)
# SYS_DVBT2=16, QAM_256=5, TRANSMISSION_MODE_32K=6, GUARD_INTERVAL_1_128=5,
# FEC_3_5=10, INVERSION_OFF=0
expect_fields "$line" DTV_DELIVERY_SYSTEM=16 DTV_FREQUENCY=538000000 \
	DTV_BANDWIDTH_HZ=8000000 DTV_MODULATION=5 DTV_TRANSMISSION_MODE=6 \
	DTV_GUARD_INTERVAL=5 DTV_CODE_RATE_HP=10 DTV_INVERSION=0 DTV_STREAM_ID=1

zap 2 "C test"
grep -q "Lock" zap2.out || fail "DVB-C: no lock reported"
line=$(grep "^SET_FRONTEND" "$VT_RESULTS/c.log" | tail -n 1)
# SYS_DVBC_ANNEX_A=1, QAM_256=5, FEC_NONE=0
expect_fields "$line" DTV_DELIVERY_SYSTEM=1 DTV_FREQUENCY=346000000 \
	DTV_SYMBOL_RATE=6900000 DTV_MODULATION=5 DTV_INNER_FEC=0

# A wrong frequency does not lock.
sed -i 's/FREQUENCY = 346000000/FREQUENCY = 354000000/' ch.conf
timeout 30 dvbv5-zap -a 2 -c ch.conf -x -t 3 "C test" >zap2b.out 2>&1 || true
cat zap2b.out
if grep -q "Lock " zap2b.out; then
	fail "DVB-C locked on a wrong frequency"
fi

# /proc shows the owner and the tune.
cat /proc/vtunerc0
grep -q "^owner: [0-9]* vt-testtuner" /proc/vtunerc0 || fail "/proc/vtunerc0 owner"
grep -q "^tuned: yes" /proc/vtunerc0 || fail "/proc/vtunerc0 not tuned"

# Frontend events: bench/fe-latency tunes DVB-T to 474 MHz (the tuner
# locks there only) and to 530 MHz (no lock) three times and fails unless
# each tune to 474 MHz brought an event with FE_HAS_LOCK within 5 s.
make_ts ev.ts 2
tuner_start t -d /dev/vtunerc3 --name "T tuner" --delsys dvbt \
	--freq 474000000 --lock-delsys dvbt -t ev.ts --loop
"$VT_BUILD/bench/fe-latency" -a 3 -n 3 zap 474000000 530000000 >ev.out 2>&1 ||
	fail "frontend events: $(cat ev.out)"
cat ev.out
grep -q "^tune_to_lock_event n=3 " ev.out || fail "frontend events: no lock event"

tuner_stop s2
tuner_stop t2
tuner_stop c
tuner_stop t
