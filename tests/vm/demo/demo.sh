#!/bin/bash
# make demo, inside the VM: vtunerd --sim in a "server" network namespace,
# vtunerc in a "client" one, then unmodified DVB tools on the virtual
# adapter: dvbv5-scan of a DVB-T multiplex and a DVB-S2 transponder
# (universal LNB), and a ten-second dvbv5-zap recording of one service.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT
out=$VT_RESULTS/summary.txt
say() { echo "$*" | tee -a "$out"; }
: >"$out"

vt_load
netns_setup
vtunerd_start vtunerd --sim --sim-tuners 1 -l 10.99.0.1:5911
vtunerc_start vtunerc /dev/vtunerc0 -s 10.99.0.1 -t 0
say "== virtual adapter (dvb-fe-tool -a 0)"
dvb-fe-tool -a 0 2>/dev/null | sed -n '/^Device/p;/Supported delivery/,/Frequency range/{/Frequency range/!p}' | tee -a "$out"

cat >dvbt.init <<'CONF'
[T]
	DELIVERY_SYSTEM = DVBT
	FREQUENCY = 506000000
	BANDWIDTH_HZ = 8000000
CONF
cat >dvbs2.init <<'CONF'
[S2]
	DELIVERY_SYSTEM = DVBS2
	FREQUENCY = 11362000
	POLARIZATION = HORIZONTAL
	SYMBOL_RATE = 22000000
	INNER_FEC = 2/3
	MODULATION = PSK/8
CONF
timeout 120 dvbv5-scan -a 0 -o dvbt.conf dvbt.init >dvbt.scan 2>&1 || true
timeout 120 dvbv5-scan -a 0 -l UNIVERSAL -S 0 -o dvbs2.conf dvbs2.init >dvbs2.scan 2>&1 || true

say ""
say "== channels found by dvbv5-scan"
for f in dvbt.conf dvbs2.conf; do
	[ -s "$f" ] || { say "  ($f: nothing found)"; continue; }
	awk 'function show() { if (name != "") printf "  %-16s %-6s %10s  sid %-4s video %-5s audio %s\n", name, ds, fr, sid, v, a }
	     /^\[/ { show(); name = substr($0, 2, length($0) - 2); ds = fr = sid = v = a = "" }
	     $1 == "DELIVERY_SYSTEM" { ds = $3 } $1 == "FREQUENCY" { fr = $3 }
	     $1 == "SERVICE_ID" { sid = $3 } $1 == "VIDEO_PID" { v = $3 }
	     $1 == "AUDIO_PID" { a = $3 }
	     END { show() }' "$f" | tee -a "$out"
done

say ""
say "== ten seconds of 'Sim Local' (dvbv5-zap -r)"
timeout 60 dvbv5-zap -a 0 -c dvbt.conf -r -o rec.ts -t 10 "Sim Local" >zap.out 2>&1 || true
grep "Lock" zap.out | tail -n 1 | tee -a "$out" || true
ls -l rec.ts | awk '{print "  " $5 " bytes"}' | tee -a "$out"
ffprobe -v error -show_entries stream=index,codec_name,codec_type,width,height,sample_rate,bit_rate \
	-of compact rec.ts 2>&1 | sed 's/^/  /' | tee -a "$out"
"$VT_TOOLS/vt-tscheck" -q rec.ts | sed 's/^/  /' | tee -a "$out" || true
say ""
say "== /proc/vtunerc0"
sed 's/^/  /' /proc/vtunerc0 | tee -a "$out"
[ -s rec.ts ] || fail "nothing recorded"
daemon_stop vtunerc
daemon_stop vtunerd
