#!/bin/bash
# VDR, a TV server, unmodified, on a remote simulated tuner: its
# streamdev-server plugin serves channels over HTTP, which makes VDR tune
# the virtual adapter (DVBv5; for DVB-S2 it drives the LNB itself), set its
# PID filters and read dvr0.  The channel list is dvbv5-scan's, in VDR's
# format (and a DVB-S2 channel by hand): one of each is streamed.
# VDR_REMOTE=satip: the tuner is a SAT>IP server's (57-satip-vdr.sh);
# VDR_FRONT=cuse: VDR's adapter is a CUSE adapter (64-cuse-vdr.sh).
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
cleanup() {
	[ -z "${vdr_pid:-}" ] || kill "$vdr_pid" 2>/dev/null || true
	[ -z "${log_pid:-}" ] || kill "$log_pid" 2>/dev/null || true
	netns_cleanup
}
trap cleanup EXIT

command -v vdr >/dev/null || skip "vdr not installed"
plugin=$(echo /usr/lib/vdr/plugins/libvdr-streamdev-server.so.*)
[ -e "$plugin" ] || skip "vdr-plugin-streamdev-server not installed"

vt_load
netns_setup
if [ "${VDR_REMOTE:-vtp}" = satip ]; then
	# 57-satip-vdr.sh: vtunerd's SAT>IP front, vtunerc --satip
	vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911 \
		--satip 10.99.0.1:554 --no-announce
	vtunerc_start cli /dev/vtunerc0 --satip rtsp://10.99.0.1/ \
		-D dvbs2,dvbs,dvbt,dvbc
elif [ "${VDR_FRONT:-module}" = cuse ]; then
	# 64-cuse-vdr.sh: VDR on a CUSE adapter (adapter8, VDR's device 1);
	# the module's adapter0 only for dvbv5-scan, which does not see CUSE
	# adapters (docs/cuse.md)
	vtunerd_start srv --sim --sim-tuners 2 -l 10.99.0.1:5911
	vtunerc_start scan /dev/vtunerc0 -s 10.99.0.1 -t 1
	cuse_start cli 8 -s 10.99.0.1 -t 0
	vdr_device=1
else
	vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
	vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
fi

cat >init.conf <<'CONF'
[T]
	DELIVERY_SYSTEM = DVBT
	FREQUENCY = 506000000
	BANDWIDTH_HZ = 8000000
CONF
timeout 120 dvbv5-scan -a 0 -O VDR -o t.conf init.conf >scan.out 2>&1 ||
	{ tail -n 20 scan.out; fail "dvbv5-scan"; }
# libdvbv5's VDR writer stops a DVB-S2 entry after the modulation: this
# one is written by hand (H, FEC 2/3, 8PSK, rolloff 0.35, pilot auto,
# DVB-S2; SID 101 of TS 1001 on network 1)
# The PIDs are written as VDR derives them from the PMT (video with its
# stream type, audio with language and type), so VDR has no reason to
# rewrite the channel and re-attach its receivers while it is streamed.
{
	sed 's/:\([0-9]*\):\([0-9]*\):0:0:\([0-9]*\):8193:/:\1+\1=2:\2=eng@3:0:0:\3:8193:/; s/:0+0=2:/:0:/' t.conf
	echo "Sim One HD;Sim Broadcasting:11362:HC23M5O35P999S1:S19.2E:22000:257+257=2:258=eng@3:0:0:101:1:1001:0"
} >channels.conf
cat channels.conf
grep -q "^Sim Kids" channels.conf || fail "dvbv5-scan found no 'Sim Kids'"

# VDR logs to syslog only: a syslogd for the test
busybox syslogd -n -O "$VT_RESULTS/syslog" &
log_pid=$!
d=$VT_RESULTS/vdr
mkdir -p "$d/plugins/streamdev-server" "$d/video" "$d/cache"
cp channels.conf "$d/"
cp /etc/vdr/sources.conf "$d/"
echo 127.0.0.1 >"$d/plugins/streamdev-server/streamdevhosts.conf"
vdr -c "$d" -v "$d/video" --cachedir="$d/cache" -L /usr/lib/vdr/plugins \
	-P streamdev-server -D "${vdr_device:-0}" --no-kbd -p 0 -E- -l 3 >vdr.out 2>&1 &
vdr_pid=$!
for _ in $(seq 100); do
	ss -ltn | grep -q ":3000 " && break
	kill -0 "$vdr_pid" 2>/dev/null || { cat vdr.out; fail "vdr exited"; }
	sleep 0.2
done
ss -ltn | grep -q ":3000 " || { cat vdr.out; fail "streamdev-server does not listen"; }

ip link set lo up
# stream NAME TRANSPONDER PID...: 8 s of channel NAME from streamdev; no
# continuity error, its PIDs there, vtunerd locked on its transponder
stream() {
	local name=$1 tp=$2 n rc=0 pid
	shift 2
	n=$(grep -n "^${name}[;:]" channels.conf | cut -d: -f1)
	log "streaming channel $n, $name"
	curl -sS -m 8 -o "$n.ts" -w "HTTP %{http_code}, %{size_download} bytes\n" \
		"http://127.0.0.1:3000/TS/$n" || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 28 ] || fail "$name: curl: exit status $rc"
	# vt-tscheck exits 1 on a continuity error: judged below, not here
	rc=0
	"$VT_TOOLS/vt-tscheck" "$n.ts" >"$n.check" || rc=$?
	cat "$n.check"
	[ "$rc" != 2 ] || fail "$name: vt-tscheck failed"
	grep -q "sync_errors=0" "$n.check" || fail "$name: the stream has sync errors"
	# VDR sets a new channel's PID filters before its tuner thread tunes
	# (after SET_VOLTAGE and SET_TONE for DVB-S), so a few packets of the
	# same PIDs from the old transponder (Sim Local's 257/258 on T 506)
	# can lead the stream: one gap a PID, at its start, as with a local
	# card.  Past the first 4000 packets there must be none.
	awk '/^pid=/ { split($3, e, "="); if (e[2] > 1) bad = 1 } END { exit bad }' \
		"$n.check" || fail "$name: continuity errors in the stream"
	# whole packets only: curl may stop in the middle of one
	rest=$(($(stat -c %s "$n.ts") / 188 - 4000))
	[ "$rest" -gt 0 ] || fail "$name: fewer than 4000 packets"
	tail -c +$((188 * 4000 + 1)) "$n.ts" | head -c $((188 * rest)) >"$n.rest.ts"
	"$VT_TOOLS/vt-tscheck" -q "$n.rest.ts" ||
		fail "$name: a continuity error after the first 4000 packets"
	rm -f "$n.rest.ts"
	for pid in "$@"; do
		grep -q "^pid=$pid packets=[0-9]\{3,\}" "$n.check" ||
			fail "$name: the stream lacks PID $pid"
	done
	grep -q "sim0: locked on $tp" "${VT_LOGDIR:-$VT_RESULTS}/srv.log" ||
		fail "$name: vtunerd did not lock on $tp"
}
stream "Sim Kids" "T 506 MHz" 273 274
# VDR drives the LNB itself: 18 V and no tone for 11362 H, IF 1612 MHz
stream "Sim One HD" "S2 11362 H" 257 258
# what VDR read from dvr0 was whole: no dvr overflow, and vtunerc saw no
# gap in the channels' PIDs in what it wrote into the adapter
! grep -q "driver buffer overflow" "$VT_RESULTS/syslog" || fail "VDR: dvr0 overflowed"
! grep -E "continuity error.*pid (257|258|273|274):" "${VT_LOGDIR:-$VT_RESULTS}/cli.log" ||
	fail "vtunerc saw a gap in a streamed PID"
grep "vdr:" "$VT_RESULTS/syslog" | grep -v "user.debug" | tail -n 12
