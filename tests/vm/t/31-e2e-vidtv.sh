#!/bin/bash
# A real DVB driver behind the server: vidtv as vtunerd's adapter.  A scan
# of the virtual adapter lists exactly what a direct scan of vidtv lists,
# and a recording of "Beethoven" through the network has the same PIDs and
# no continuity errors.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vidtv_load
wait_for /dev/dvb/adapter0/frontend0 10 || fail "vidtv adapter missing"
cat > init.conf <<'CONF'
[X]
	DELIVERY_SYSTEM = DVBT
	FREQUENCY = 474000000
	BANDWIDTH_HZ = 8000000
CONF
# services as "name|sid|video|audio" lines, sorted
services() {
	awk '/^\[/{if (n) print n "|" s "|" v "|" a; n=substr($0,2,length($0)-2); s=v=a=""}
	     /SERVICE_ID/{s=$3} /VIDEO_PID/{v=$3} /AUDIO_PID/{a=$3}
	     END{if (n) print n "|" s "|" v "|" a}' "$1" | sort
}
timeout 120 dvbv5-scan -a 0 -o direct.conf init.conf >direct.out 2>&1 || true
services direct.conf | tee direct.list
grep -q "^Beethoven|" direct.list || { cat direct.out; fail "direct scan of vidtv found no Beethoven"; }

vt_load
wait_for /dev/dvb/adapter1/frontend0 10 || fail "virtual adapter missing"
netns_setup
vtunerd_start srv --adapter 0 -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
dvb-fe-tool -a 1 | head -2

timeout 120 dvbv5-scan -a 1 -o remote.conf init.conf >remote.out 2>&1 || true
services remote.conf | tee remote.list
diff direct.list remote.list || fail "scan through the network differs from the direct scan"
grep -q "TRANSPORT_STREAM_ID\|NETWORK_ID" remote.conf || true
for k in TRANSPORT_STREAM_ID NETWORK_ID; do
	a=$(grep -m1 "$k" direct.conf || true)
	b=$(grep -m1 "$k" remote.conf || true)
	[ "$a" = "$b" ] || fail "$k: direct '$a', remote '$b'"
done

timeout 60 dvbv5-zap -a 1 -c remote.conf -r -o rec.ts -t 8 Beethoven >zap.out 2>&1 || true
tail -n 3 zap.out
"$VT_TOOLS/vt-tscheck" rec.ts | tee rec.check
audio=$(sed -n '/^\[Beethoven\]/,/^\[/s/.*AUDIO_PID = \([0-9]*\).*/\1/p' remote.conf | head -n 1)
grep -q "^pid=$audio packets=[1-9]" rec.check || fail "no packets of audio PID $audio recorded"
grep -q "cc_errors=0 sync_errors=0" rec.check || fail "continuity or sync errors in the recording"
others=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' rec.check | grep -vx "$audio" || true)
[ -z "$others" ] || fail "recording has unrequested PIDs: $others"
daemon_stop cli
daemon_stop srv
