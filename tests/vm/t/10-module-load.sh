#!/bin/bash
# Module loads with several adapters, creates the dvb-core devices and the
# control devices (0660), answers with no client attached, and unloads.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

vt_load adapters=4
for i in 0 1 2 3; do
	wait_for /dev/vtunerc$i 5 || fail "/dev/vtunerc$i missing"
	mode=$(stat -c %a /dev/vtunerc$i)
	[ "$mode" = 660 ] || fail "/dev/vtunerc$i has mode $mode, want 660"
	for n in frontend0 demux0 dvr0; do
		wait_for /dev/dvb/adapter$i/$n 5 || fail "/dev/dvb/adapter$i/$n missing"
	done
	[ -e /sys/class/dvb/dvb$i.frontend0 ] || fail "dvb$i.frontend0 not in /sys/class/dvb"
	grep -q "^owner: none" /proc/vtunerc$i || fail "/proc/vtunerc$i: $(cat /proc/vtunerc$i)"
done
major=$(awk '$2 == "vtunerc" { print $1 }' /proc/devices)
[ -n "$major" ] || fail "vtunerc has no major in /proc/devices"
log "control devices: major $major"

# No client: the frontend answers at once; status reads no signal.
start=$(date +%s%N)
out=$(dvb-fe-tool -a 0 2>&1) || true
echo "$out"
echo "$out" | grep -q "vTuner (no client)" || fail "dvb-fe-tool does not show the adapter name"
out=$(timeout 20 dvb-fe-tool -a 0 -m 2>&1 | head -3) || true
echo "$out"
ms=$((($(date +%s%N) - start) / 1000000))
log "dvb-fe-tool with no client took $ms ms"
# (4-8 s under TCG: the program's own start and its monitor's period; a
# KASAN kernel takes about 13 s)
limit=10000
! vt_kasan || limit=30000
[ $ms -lt $limit ] || fail "frontend calls without a client took $ms ms"

# Out-of-range parameters are refused with a message.
vt_unload
if insmod "$VT_KO" adapters=17 2>/dev/null; then
	fail "adapters=17 was accepted"
fi
dmesg | tail -5 | grep -q "adapters=17 is out of range" || fail "no message for adapters=17"
if insmod "$VT_KO" timeout_ms=0 2>/dev/null; then
	fail "timeout_ms=0 was accepted"
fi
