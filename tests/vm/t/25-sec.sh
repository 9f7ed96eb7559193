#!/bin/bash
# Tone, voltage, DiSEqC and burst reach the client with their exact values:
# through szap (DVBv3 calls, with a mini-DiSEqC burst), dvbv5-zap -S
# (DVBv5).
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

vt_load
tuner_start t0 -d /dev/vtunerc0 --delsys dvbs2,dvbs
log=$VT_RESULTS/t0.log

# szap, satellite 1, 12188 MHz horizontal: high band, 18 V.  It sends tone
# off, 18 V, DiSEqC committed e0 10 38 f7 (position 1, horizontal, high),
# the burst of an odd satellite number (SEC_MINI_B), tone on.
echo "VT:12188:h:1:27500:256:257:100" >szap.conf
timeout 20 szap -a 0 -c szap.conf -x VT 2>&1 | tail -5 || true
seq=$(grep -E "^(TONE|VOLTAGE|DISEQC|BURST)" "$log" | tr '\n' '|')
echo "$seq"
case $seq in
*"TONE 1|VOLTAGE 1|DISEQC e0 10 38 f7|BURST 1|TONE 0|"*) ;;
*) fail "szap sequence: $seq" ;;
esac
grep "^SET_FRONTEND" "$log" | tail -n 1 | grep -q "DTV_FREQUENCY=1588000 " ||
	fail "szap tune: $(grep "^SET_FRONTEND" "$log" | tail -n 1)"

# dvbv5-zap, satellite 2, 10818 MHz vertical: low band, 13 V: committed
# e0 10 38 f8 (position 2, vertical, low).
cat > ch.conf <<'CONF'
[VT]
	DELIVERY_SYSTEM = DVBS2
	FREQUENCY = 10818000
	POLARIZATION = VERTICAL
	SYMBOL_RATE = 22000000
	INNER_FEC = 5/6
CONF
before=$(wc -l <"$log")
timeout 20 dvbv5-zap -a 0 -c ch.conf -l UNIVERSAL -S 2 -t 3 -x VT 2>&1 | tail -3 || true
tail -n +"$((before + 1))" "$log"
tail -n +"$((before + 1))" "$log" | grep -q "^DISEQC e0 10 38 f8$" || fail "dvbv5-zap DiSEqC"
tail -n +"$((before + 1))" "$log" | grep -q "^VOLTAGE 0$" || fail "dvbv5-zap 13 V"
tail -n +"$((before + 1))" "$log" | grep -q "^TONE 1$" || fail "dvbv5-zap tone off"

tuner_stop t0
