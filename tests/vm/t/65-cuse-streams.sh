#!/bin/bash
# Streaming servers, unmodified, on a CUSE adapter (vtunerc --cuse, no
# module) of a remote simulated tuner, held against the same on a module
# adapter of the same server (its second tuner, the same transponder):
#   dvblast       "Sim Local" (service 401) as UDP, its PIDs from the PMT
#   mumudvb       the same service over HTTP unicast (/bysid/401)
# Each stream is recorded for 5 s from its first byte (ts_receive in
# lib.sh, the first second left out) and ts_compare holds the two side by
# side ("direct" is the module's adapter there): the same PIDs, at least
# 90 % of each PID's packets, no continuity error.
# vm-cost: 50 41%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
cleanup() {
	local p
	for p in dvblast mumudvb; do
		[ ! -e "$VT_RESULTS/$p.pid" ] || kill "$(cat "$VT_RESULTS/$p.pid")" 2>/dev/null || true
	done
	netns_cleanup
}
trap cleanup EXIT

command -v dvblast >/dev/null || skip "dvblast not installed"
command -v mumudvb >/dev/null || skip "mumudvb not installed"
rec=/tmp/rec
mkdir -p "$rec"
secs=5
ip link set lo up

netns_setup
vtunerd_start srv --sim --sim-tuners 2 --sim-delsys DVBT,DVBT2,DVBC -l 10.99.0.1:5911
vt_load
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
cuse_start cuse 8 -s 10.99.0.1 -t 1

echo "127.0.0.1:5004/udp 1 401" >dvblast.cfg

# stream ADAPTER SIDE: both servers on one adapter; SIDE names the files
stream() {
	local a=$1 s=$2
	log "$s: dvblast"
	dvblast -a "$a" -f 506000000 -b 8 -5 DVBT -e -c dvblast.cfg >"$s-dvblast.out" 2>&1 &
	echo $! >"$VT_RESULTS/dvblast.pid"
	ts_receive udp://127.0.0.1:5004 "$secs" "$rec/$s-dvblast.ts" 1 ||
		{ tail -n 5 "$s-dvblast.out"; log "$s: dvblast: no stream"; }
	daemon_stop dvblast

	log "$s: mumudvb"
	cat >"mumudvb-$s.conf" <<-EOF
	card=$a
	freq=506
	bandwidth=8MHz
	delivery_system=DVBT
	multicast_ipv4=0
	multicast_ipv6=0
	sap=0
	unicast=1
	ip_http=127.0.0.1
	port_http=4242
	filename_pid=$VT_RESULTS/mumudvb-$s.pidfile
	channel_next
	name=Sim Local
	service_id=401
	pids=17 256 257 258
	EOF
	mumudvb -d -c "mumudvb-$s.conf" >"$s-mumudvb.out" 2>&1 &
	echo $! >"$VT_RESULTS/mumudvb.pid"
	for _ in $(seq 100); do
		grep -q "Unicast : Channel accessible" "$s-mumudvb.out" && break
		sleep 0.2
	done
	ts_receive http://127.0.0.1:4242/bysid/401 "$secs" "$rec/$s-mumudvb.ts" 1 ||
		{ tail -n 5 "$s-mumudvb.out"; log "$s: mumudvb: no stream"; }
	daemon_stop mumudvb
}
stream 0 module
stream 8 cuse

# the PIDs of a recording, in order
pids_of() { "$VT_TOOLS/vt-tscheck" "$1" | sed -n 's/^pid=\([0-9]*\) .*/\1/p' | sort -n | tr '\n' ' '; }
failed=()
for app in dvblast mumudvb; do
	log "compare $app: the module's adapter (direct) and the CUSE adapter (vtuner)"
	# the same PIDs, the tables that come every few seconds (NIT, EIT,
	# TDT: 1 to 18 packets in 5 s, where the window's phase alone moves a
	# count by one) included; their counts are left out of the comparison
	[ "$(pids_of "$rec/module-$app.ts")" = "$(pids_of "$rec/cuse-$app.ts")" ] ||
		{ failed+=("$app"); log "$app: PIDs $(pids_of "$rec/module-$app.ts")on the module's adapter, $(pids_of "$rec/cuse-$app.ts")on the CUSE adapter"; }
	ts_compare "$rec/module-$app.ts" "$rec/cuse-$app.ts" 16,18,20 | tee "$app.cmp" || failed+=("$app")
	# the programme is there: its video and audio
	for pid in 257 258; do
		grep -q "^ *$pid *[1-9]" "$app.cmp" || fail "$app: no PID $pid on the module's adapter: no baseline"
	done
done
[ ${#failed[@]} = 0 ] ||
	fail "on the CUSE adapter, these streams differ from the module adapter's: ${failed[*]}"
daemon_stop cuse
daemon_stop cli
daemon_stop srv
