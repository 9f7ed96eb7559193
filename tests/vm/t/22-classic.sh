#!/bin/bash
# A client written against the 2011 header only (vt-classic), as a 64-bit
# and, when gcc-multilib is installed, a 32-bit program: same ABI numbers,
# configuration, DVB-S2 parameters packed the classic way, lock and
# statistics answered by round trips.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

vt_load
bins=("$VT_TOOLS/vt-classic")
if [ -x "$VT_TOOLS/vt-classic32" ]; then
	bins+=("$VT_TOOLS/vt-classic32")
	"$VT_TOOLS/vt-classic" --print-abi >abi64.txt
	"$VT_TOOLS/vt-classic32" --print-abi >abi32.txt
	cat abi64.txt abi32.txt
else
	log "vt-classic32 not built (no gcc-multilib): 32-bit part skipped"
fi

cat > ch.conf <<'CONF'
[S2 classic]
	DELIVERY_SYSTEM = DVBS2
	FREQUENCY = 12100000
	POLARIZATION = VERTICAL
	SYMBOL_RATE = 22000000
	INNER_FEC = 3/4
	MODULATION = PSK/8
	PILOT = ON
	ROLLOFF = 20
	INVERSION = AUTO
	SERVICE_ID = 1
CONF

for bin in "${bins[@]}"; do
	name=$(basename "$bin")
	rm -f ready classic.log
	"$bin" -d /dev/vtunerc0 --name "Classic $name" --type DVB-S2 \
		--freq 1500000 --exit-after 60 --ready-file ready --log classic.log &
	pid=$!
	wait_for ready 10 || fail "$name did not start"
	dvb-fe-tool -a 0 | grep -q "Device Classic $name " || fail "$name: name not set"
	# 12100 MHz, vertical: high band, IF 1500 MHz, 13 V.
	timeout 30 dvbv5-zap -a 0 -c ch.conf -l UNIVERSAL -t 10 -x "S2 classic" 2>&1 | tee zap.out
	grep -q "Lock" zap.out || fail "$name: no lock"
	line=$(grep "^SET_FRONTEND" classic.log | tail -n 1)
	echo "$line"
	# fec_inner = 9 (DVB-S2) + 9 (8PSK) + 3 (3/4) = 21;
	# inversion = INVERSION_AUTO (2) | 0x08 (rolloff 0.20) | 0x10 (pilot on)
	expect_fields "$line" raw.frequency=1500000 raw.symbol_rate=22000000 \
		raw.fec_inner=21 raw.inversion=0x1a
	expect_log classic.log "^READ_STATUS" "$name: status by round trip"
	grep -q "^TONE 0$" classic.log || fail "$name: tone on not received"
	grep -q "^VOLTAGE 0$" classic.log || fail "$name: 13 V not received"
	kill $pid
	wait $pid || true
done
