#!/bin/bash
# Control path in the VM: FE_READ_STATUS and FE_GET_PROPERTY(DTV_STAT_*)
# latency, tune-to-lock and tune-to-first-TS-byte, on vidtv directly and on
# the virtual adapter whose server serves that vidtv (vtunerd --adapter 0,
# netns srv -> veth -> vtunerc in netns cli) with netem delay 0, 20 and
# 100 ms on veth-c (the daemons connect after the delay is set; one more
# run raises it to 100 ms under live connections); then control round
# trips and retunes (vtunerd-probe --ping-ms 20 --retune-ms 200) on an
# 80 Mbit/s sim transponder, idle and while all of it flows.  Direct vidtv is measured before and
# after (vtunerd holds its frontend in between).  The daemons log (-v) to
# the guest's tmpfs, as to a local journal on a real machine; one more zap
# run at 0 ms with their logs on the 9p share shows what a slow log costs.
# Results: results.txt.
set -uo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT
BT=$VT_BUILD/bench
[ -x "$BT/fe-latency" ] || skip "bench tools not built (make bench-tools)"
N=${BENCH_N:-1000}
Z=${BENCH_ZAPS:-10}
DELAYS=${BENCH_DELAYS:-0 20 100}
ON=474000000
OFF=530000000
res=$VT_RESULTS/results.txt
: >"$res"
say() { echo "$*" | tee -a "$res"; }
measure() {	# measure LABEL ADAPTER
	local l
	for m in status stats; do
		l=$("$BT/fe-latency" -a "$2" -n "$N" "$m" 2>&1)
		say "$1 $l"
	done
	l=$("$BT/fe-latency" -a "$2" -n "$Z" zap "$ON" "$OFF" 2>&1)
	echo "$l" | while read -r x; do say "$1 $x"; done
}

say "# control path in the VM ($(nproc) vCPU, TCG), kernel $(uname -r); ms"
vidtv_load
wait_for /dev/dvb/adapter0/frontend0 10 || fail "vidtv adapter missing"
measure "vidtv-direct-before" 0

vt_load
wait_for /dev/dvb/adapter1/frontend0 10 || fail "virtual adapter missing"
netns_setup
VT_LOGDIR=$(mktemp -d /tmp/vtlogs.XXXXXX)
# The daemons connect after the delay is set, as on a real network: a
# delay raised 1000-fold under a live connection makes TCP time out
# spuriously and leaves the data connection in congestion avoidance with a
# small window (see bench/HISTORY.md §3: tune -> first TS then takes ~4 RTT).
for d in $DELAYS; do
	if [ "$d" = 0 ]; then
		ip netns exec cli tc qdisc del dev veth-c root 2>/dev/null || true
	else
		ip netns exec cli tc qdisc replace dev veth-c root netem delay "${d}ms" ||
			fail "netem"
	fi
	vtunerd_start srv --adapter 0 --no-announce -l 10.99.0.1:5911
	vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
	say "# netem delay ${d} ms"
	measure "vtuner-delay$d" 1
	daemon_stop cli
	daemon_stop srv
	cp "$VT_LOGDIR/srv.log" "$VT_RESULTS/srv-delay$d.log"
	cp "$VT_LOGDIR/cli.log" "$VT_RESULTS/cli-delay$d.log"
done
ip netns exec cli tc qdisc del dev veth-c root 2>/dev/null || true
# the delay raised to 100 ms under connected daemons, after 10 zaps at 0 ms
vtunerd_start srv --adapter 0 --no-announce -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
"$BT/fe-latency" -a 1 -n "$Z" zap "$ON" "$OFF" >/dev/null 2>&1
ip netns exec cli tc qdisc replace dev veth-c root netem delay 100ms || fail "netem"
say "# netem delay raised from 0 to 100 ms under a live connection"
l=$("$BT/fe-latency" -a 1 -n "$Z" zap "$ON" "$OFF" 2>&1)
echo "$l" | while read -r x; do say "vtuner-delay100-live $x"; done
ip netns exec srv ss -tin | grep -o 'cwnd:[0-9]*\|ssthresh:[0-9]*' | paste -sd ' ' |
	sed 's/^/# tcp after it (control, data): /' | tee -a "$res"
daemon_stop cli
daemon_stop srv
ip netns exec cli tc qdisc del dev veth-c root 2>/dev/null || true
# the same zaps at 0 ms with the daemons' logs on the 9p share
VT_LOGDIR=$VT_RESULTS
vtunerd_start srv9p --adapter 0 --no-announce -l 10.99.0.1:5911
vtunerc_start cli9p /dev/vtunerc0 -s 10.99.0.1 -t 0
say "# netem delay 0 ms, daemon logs on the 9p share"
l=$("$BT/fe-latency" -a 1 -n "$Z" zap "$ON" "$OFF" 2>&1)
echo "$l" | while read -r x; do say "vtuner-delay0-log9p $x"; done
daemon_stop cli9p
daemon_stop srv9p
measure "vidtv-direct-after" 0

# control round trips (KEEPALIVE every 20 ms) and retunes (the same
# tune every 200 ms: TUNE -> OK, and TUNE -> its first TS frame) on a
# full 80 Mbit/s DVB-C transponder, idle (no PIDs) and flowing (all PIDs)
cat >/tmp/c80.conf <<'C'
[transponder C80]
delsys = DVBC
frequency = 418000000
symbol_rate = 6900000
modulation = QAM256
ts_id = 80
bitrate = 80000000
[service S80]
id = 801
type = tv
pmt_pid = 0x100
video_pid = 0x101
audio_pid = 0x102
video_bitrate = 60000000
C
ip netns exec srv "$VTUNERD" -f --sim --sim-tuners 1 --sim-config /tmp/c80.conf \
	--no-announce -l 10.99.0.1:5912 >sim.log 2>&1 &
sleep 1
for d in $DELAYS; do
	if [ "$d" = 0 ]; then
		ip netns exec cli tc qdisc del dev veth-c root 2>/dev/null || true
	else
		ip netns exec cli tc qdisc replace dev veth-c root netem delay "${d}ms"
	fi
	for p in none all; do
		pidopt=()
		[ $p = all ] && pidopt=(--pids all)
		ip netns exec cli "$VT_BUILD/tests/server/vtunerd-probe" -s 10.99.0.1:5912 \
			--tune 'DELIVERY_SYSTEM=DVBC FREQUENCY=418000000 SYMBOL_RATE=6900000' \
			${pidopt[@]+"${pidopt[@]}"} --seconds 5 --ping-ms 20 \
			--retune-ms 200 >probe.out 2>&1
		grep -i 'received\|round trips\|first TS' probe.out |
			while read -r l; do say "probe delay$d pids=$p $l"; done
	done
done
exit 0
