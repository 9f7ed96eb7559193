#!/bin/bash
# vtunerc --satip: a SAT>IP server as the virtual adapter's tuner.
# vtunerd's SAT>IP front (simulator) in namespace srv, vtunerc --satip in
# namespace cli, unmodified dvbv5-scan and dvbv5-zap on the adapter:
# * dvbv5-scan finds every service of the DVB-S2 transponders (universal
#   LNB: band and polarisation from tone and voltage; DiSEqC position 2 is
#   src=2), DVB-T and DVB-C, as it does over vtp (30-e2e-sim.sh);
# * dvbv5-zap -r records a service: exactly its PIDs, the video at its
#   configured rate, no continuity error;
# * the same over RTP interleaved in RTSP (--satip-tcp), the server found
#   by SSDP (--satip auto); vtunerc --discover lists it;
# * the server saw the queries a SAT>IP client must send (msys, mtype,
#   src=2, pol, sr, fec...).
# vm-cost: 79 16%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vt_load
netns_setup
# SSDP's group on the veth link (no default route in the namespaces)
ip -n srv route add 224.0.0.0/4 dev veth-s
ip -n cli route add 224.0.0.0/4 dev veth-c
vtunerd_start srv --sim --sim-tuners 2 -l 10.99.0.1:5911 --satip 10.99.0.1:554
ip netns exec srv ss -ltn | grep -q "10.99.0.1:554 " || fail "no RTSP listener"
ip netns exec cli "$VTUNERC" --discover >discover.out 2>&1 || true
cat discover.out
grep -q "^SAT>IP	.*	rtsp://10.99.0.1:554/	DVBS2-2	http://10.99.0.1:554/desc.xml" discover.out ||
	fail "vtunerc --discover does not list vtunerd's SAT>IP server"

for mode in udp tcp; do
	log "---- RTP over $mode"
	server=(--satip rtsp://10.99.0.1/)
	[ "$mode" = tcp ] && server=(--satip auto --satip-tcp)
	vtunerc_start "cli-$mode" /dev/vtunerc0 "${server[@]}" \
		-D dvbs2,dvbs,dvbt,dvbc
	dvb-fe-tool -a 0 | head -3

	sim_scan "s2-$mode" s2 -l UNIVERSAL -S 0
	has_service "s2-$mode.conf" "Sim One HD"
	has_service "s2-$mode.conf" "Sim Two HD"
	has_service "s2-$mode.conf" "Sim Radio One"

	# DiSEqC position 2 (-S 1), high band, vertical.
	sim_scan "s2b-$mode" s2b -l UNIVERSAL -S 1
	has_service "s2b-$mode.conf" "Sim News"
	has_service "s2b-$mode.conf" "Sim Sport"

	sim_scan "t-$mode" t
	has_service "t-$mode.conf" "Sim Local"
	has_service "t-$mode.conf" "Sim Kids"
	has_service "t-$mode.conf" "Sim FM"

	sim_scan "c-$mode" c
	has_service "c-$mode.conf" "Sim Cable One"
	has_service "c-$mode.conf" "Sim Lounge"

	# Ten seconds of one service: its PIDs only, the video at its rate.
	timeout 60 dvbv5-zap -a 0 -c "t-$mode.conf" -r -o "rec-$mode.ts" -t 10 "Sim Local" >"zap-$mode.out" 2>&1 || true
	tail -n 3 "zap-$mode.out"
	"$VT_TOOLS/vt-tscheck" "rec-$mode.ts" | tee "rec-$mode.check"
	grep -q "cc_errors=0 sync_errors=0" "rec-$mode.check" ||
		fail "$mode: recording has continuity or sync errors"
	dur=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "rec-$mode.ts")
	vpk=$(sed -n 's/^pid=257 packets=\([0-9]*\).*/\1/p' "rec-$mode.check")
	rate=$(awk -v p="$vpk" -v d="$dur" 'BEGIN { printf "%d", p * 188 * 8 / d }')
	log "$mode: video PID: $vpk packets in $dur s: $rate bit/s"
	[ "$rate" -ge 3800000 ] && [ "$rate" -le 4200000 ] ||
		fail "$mode: video bitrate $rate bit/s, configured 4000000"
	others=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' "rec-$mode.check" | grep -vx '257\|258' || true)
	[ -z "$others" ] || fail "$mode: recording has unrequested PIDs: $others"
	cat /proc/vtunerc0
	daemon_stop "cli-$mode"
	grep "SAT>IP: .* datagrams" "${VT_LOGDIR:-$VT_RESULTS}/cli-$mode.log" || true
done
grep -q "SAT>IP: found .* at rtsp://10.99.0.1:554/" "${VT_LOGDIR:-$VT_RESULTS}/cli-tcp.log" ||
	fail "--satip auto did not find vtunerd"

# The queries vtunerd was sent: complete, src=2 for position 2.
srvlog=${VT_LOGDIR:-$VT_RESULTS}/srv.log
grep -q "src=2&freq=12188&pol=v.*msys=dvbs2&mtype=qpsk" "$srvlog" ||
	{ grep -i "setup\|play" "$srvlog" | tail -20; fail "no DVB-S2 query with src=2 at the server"; }
grep -q "freq=506.*msys=dvbt" "$srvlog" || fail "no DVB-T query at the server"
grep -q "freq=346.*msys=dvbc.*sr=6900" "$srvlog" || fail "no DVB-C query at the server"
daemon_stop srv
