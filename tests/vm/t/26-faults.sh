#!/bin/bash
# Faults never hang an application: no client, a client that does not
# answer, a client killed mid-call, a restarted client; the module cannot
# be unloaded while in use and unloads afterwards.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
fecall=$VT_TOOLS/vt-fecall

ms_of() { sed -n 's/.* ms=\([0-9]*\).*/\1/p' <<<"$1"; }

vt_load timeout_ms=1000

# No client: status reads no signal at once; SEC calls fail at once.
out=$("$fecall" status) || fail "status without client: $out"
echo "$out"
expect_fields "$out" errno=0 status=0x00
out=$("$fecall" tone on) && fail "tone without client succeeded"
echo "$out"
expect_fields "$out" errno=107
[ "$(ms_of "$out")" -lt 500 ] || fail "tone without client took too long: $out"

# No client: dvbv5-zap gets no lock and gives up within its own timeout.
sim_channel c >ch.conf
start=$(date +%s)
timeout 30 dvbv5-zap -a 0 -c ch.conf -x -t 3 C >nozap.out 2>&1 || true
secs=$(($(date +%s) - start))
tail -n 3 nozap.out
grep -q "Lock " nozap.out && fail "dvbv5-zap locked without a client"
[ $secs -le 10 ] || fail "dvbv5-zap without a client took $secs s"

# A client that never answers: the call fails after timeout_ms.
tuner_start t0 -d /dev/vtunerc0 --ignore SET_TONE
out=$("$fecall" tone on) && fail "unanswered tone succeeded"
echo "$out"
expect_fields "$out" errno=110
ms=$(ms_of "$out")
[ "$ms" -ge 900 ] && [ "$ms" -lt 5000 ] || fail "unanswered call returned after $ms ms"
grep -q "^timeouts: 1" /proc/vtunerc0 || fail "timeout not counted: $(cat /proc/vtunerc0)"
# Answered calls still work afterwards.
out=$("$fecall" voltage 18) || fail "voltage after a timeout: $out"

# The client dies while an application waits: the call returns at once.
# t0 kills itself when the burst arrives (--die-on): the moment is known
# however slow the host is, where a kill from here could come after
# timeout_ms.
tuner_stop t0
tuner_start t0 -d /dev/vtunerc0 --die-on SEND_DISEQC_BURST
out=$("$fecall" burst 0) && fail "burst to a dying client succeeded"
echo "$out"
expect_fields "$out" errno=107
ms=$(ms_of "$out")
[ "$ms" -lt 1000 ] || fail "call returned after $ms ms though the client died (timeout_ms is 1000)"
grep -q "SEND_DISEQC_BURST received: SIGKILL" "$VT_RESULTS/t0.err" || fail "t0 did not die on the burst"
grep -q "^owner: none" /proc/vtunerc0 || fail "owner not released"

# A restarted client serves the same adapter.
tuner_start t1 -d /dev/vtunerc0 --freq 346000000 --delsys dvbc
out=$("$fecall" tone on) || fail "tone after restart: $out"
timeout 30 dvbv5-zap -a 0 -c ch.conf -x -t 10 C 2>&1 | tee zap.out
grep -q Lock zap.out || fail "no lock after a client restart"
grep -q "^sessions: 3" /proc/vtunerc0 || fail "sessions: $(grep sessions /proc/vtunerc0)"

# Unload is refused while an application or the client holds a device.
exec 3</dev/dvb/adapter0/frontend0
rmmod vtunerc 2>rmmod.err && fail "rmmod succeeded with the frontend open"
cat rmmod.err
grep -qi "in use" rmmod.err || fail "rmmod: $(cat rmmod.err)"
exec 3<&-
rmmod vtunerc 2>rmmod.err && fail "rmmod succeeded with the control device open"
tuner_stop t1
exec 3</dev/dvb/adapter0/dvr0
rmmod vtunerc 2>/dev/null && fail "rmmod succeeded with dvr0 open"
exec 3<&-
rmmod vtunerc || fail "rmmod failed with everything closed"
[ ! -e /dev/vtunerc0 ] || fail "/dev/vtunerc0 left after unload"
# And it loads again.
vt_load
tuner_start t2 -d /dev/vtunerc0
"$fecall" tone on || fail "after reload"
tuner_stop t2
