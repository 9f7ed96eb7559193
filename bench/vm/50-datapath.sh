#!/bin/bash
# Data path end to end in the VM, against a local writer, for 1, 4 and 16
# adapters at once (vtunerc.ko adapters=16):
#   local: vt-testtuner --ts FILE --rate R writes into /dev/vtunercN and,
#          like the sim, skips what is more late than the sim's backlog
#          (BENCH_LOCAL_BACKLOG=0: catches up on everything instead)
#   net:   vtunerd --sim (ts_file = the same FILE at R) in netns srv -> veth
#          -> vtunerc in netns cli -> /dev/vtunercN
#   relay: the same TCP cost without vtuner's daemons: bench/relay send
#          (the FILE at R) in netns srv -> veth -> relay recv in netns cli
#          -> a FIFO -> vt-testtuner --ts FIFO --rate R -> /dev/vtunercN
#          (one more copy and three processes per adapter: a baseline that
#          the net path should match, not beat)
#   tcp:   only the network part: K relay send -> veth -> relay recv ->
#          /dev/null, nothing else running (what TCP over veth carries)
# and in both cases bench/dvr-reader tunes adapter N (DVB-C) and reads all
# PIDs of dvr0 for SECS s.  The sources lose what is late beyond their
# backlog (vtunerd's sim, and the local writers like it), which leaves a
# gap in the continuity counters, as a tuner's overflow does.  A case is
# "ok" when no reader saw a continuity error or a dvr overflow (no packet
# lost anywhere) and every reader got >= 90 % of R (the rate measured from
# its first byte to its end: TS still on its way when the time is up, up
# to the sources' backlog of 0.4 s at 80 Mbit/s, counts against it).
#   satip: the net path with vtunerd's SAT>IP front and vtunerc --satip
#          (RTP over UDP) instead of vtp
#   cuse:  the net path into CUSE adapters (vtunerc --cuse, adapters 20 and
#          up: demux and dvr0 in vtunerc, no module) instead of the
#          module's; its vtunerc CPU is the whole client side, the
#          module's demux runs in the kernel (VM busy counts both)
# BENCH_RATES, BENCH_COUNTS, BENCH_SECS, BENCH_PATHS ("local tcp relay
# net satip cuse") override the defaults;
# BENCH_VTUNERD_B adds the net path once more with another vtunerd binary,
# BENCH_VTUNERC_B with another vtunerc.
# (perf record -a -e cpu-clock in the TCG guest was tried: its samples land
# in the idle task and it halves the throughput; the per-group CPU shares
# below are what the VM can tell.)
# Results: results.txt.
set -uo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT
BT=$VT_BUILD/bench
[ -x "$BT/dvr-reader" ] || skip "bench tools not built (make bench-tools)"
RATES=${BENCH_RATES:-10000000 40000000 80000000}
COUNTS=${BENCH_COUNTS:-1 4 16}
SECS=${BENCH_SECS:-4}
PATHS=" ${BENCH_PATHS:-local tcp relay net satip cuse} "
FILE_SECS=$((SECS + 4))
res=$VT_RESULTS/results.txt
: >"$res"
say() { echo "$*" | tee -a "$res"; }

vt_load adapters=16
# the adapter of reader I: the module's Ith, or with CUSE_BASE set (the
# cuse path) the CUSE adapter CUSE_BASE + I
adapter_of() {
	if [ -n "${CUSE_BASE:-}" ]; then
		echo $((CUSE_BASE + $1))
	else
		awk '/^adapter/{print $NF; exit}' "/proc/vtunerc$1"
	fi
}
grep -m3 . /proc/vtunerc0

# one TS file per rate, and a ts_file transponder for each (DVB-C)
conf=/tmp/bench-net.conf
: >"$conf"
f=306000000
declare -A FREQ
for r in $RATES; do
	cat >/tmp/gen.conf <<C
[transponder G]
delsys = DVBC
frequency = 474000000
symbol_rate = 6900000
modulation = QAM256
ts_id = 1
bitrate = $r
[service S]
id = 1
type = tv
pmt_pid = 0x100
video_pid = 0x101
audio_pid = 0x102
video_bitrate = $((r / 2))
C
	"$VT_BUILD/server/sim/vts-gen" -c /tmp/gen.conf -s "$FILE_SECS" -o "/tmp/ts$r.ts" G ||
		fail "vts-gen $r"
	FREQ[$r]=$f
	printf '[transponder R%s]\ndelsys = DVBC\nfrequency = %s\nsymbol_rate = 6900000\nmodulation = QAM256\nts_id = %s\nts_file = /tmp/ts%s.ts\n\n' \
		"$r" "$f" "$((f / 1000000))" "$r" >>"$conf"
	f=$((f + 8000000))
done

# read_all K R: K dvr-readers on the first K adapters; prints a summary
read_all() {
	local k=$1 r=$2 i
	for i in $(seq 0 $((k - 1))); do
		"$BT/dvr-reader" -a "$(adapter_of "$i")" -c "${FREQ[$r]}" -s "$SECS" \
			>"read$i.out" 2>&1 &
	done
	wait
	cat read*.out | awk -v r="$r" -v k="$k" '
		/^adapter=/ { n++; for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			sum += v["mbps"]; if (min == "" || v["mbps"] < min) min = v["mbps"]
			cc += v["cc_errors"]; ov += v["overflows"] }
		END { ok = (n == k && min >= r / 1e6 * 0.90 && cc == 0 && ov == 0)
			printf "readers=%d min_mbps=%.1f sum_mbps=%.1f cc_errors=%d overflows=%d %s\n",
				n, min, sum, cc, ov, ok ? "ok" : "LOSS" }'
	rm -f read*.out
}

# CPU use of a case: cpu_mark GROUP PIDS... for each group, cpu_start, the
# case, then cpu_end GROUP "PIDS" ...: each group's share of one CPU and
# the whole VM's busy share of all its CPUs (/proc/PID/stat, /proc/stat)
HZ=$(getconf CLK_TCK)
# and the time they waited on a run queue (/proc/PID/task/*/schedstat, ms
# per s, summed over every thread): how long a runnable thread did not
# get a CPU
proc_wait() {
	local t=0 p w f
	for p in "$@"; do
		for f in /proc/"$p"/task/*/schedstat; do
			[ -r "$f" ] && read -r _ w _ <"$f" && t=$((t + w))
		done
	done
	echo "$t"
}
proc_ticks() {
	local t=0 p
	for p in "$@"; do
		[ -r "/proc/$p/stat" ] &&
			t=$((t + $(awk '{sub(/^.*\) /, ""); print $12 + $13}' "/proc/$p/stat")))
	done
	echo "$t"
}
sys_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8, $5 + $6}' /proc/stat; }
declare -A CPU0
declare -A WAIT0
cpu_mark() {
	CPU0[$1]=$(proc_ticks "${@:2}")
	WAIT0[$1]=$(proc_wait "${@:2}")
}
cpu_start() { read -r CPU_B0 CPU_I0 <<<"$(sys_ticks)"; CPU_T0=$(date +%s.%N); }
cpu_end() {
	local b1 i1 t1 out="" g pids
	read -r b1 i1 <<<"$(sys_ticks)"
	t1=$(date +%s.%N)
	while [ $# -ge 2 ]; do
		g=$1 pids=$2
		shift 2
		# shellcheck disable=SC2086
		out+="$g $(awk -v a="${CPU0[$g]}" -v b="$(proc_ticks $pids)" -v hz="$HZ" \
			-v t0="$CPU_T0" -v t1="$t1" 'BEGIN{printf "%.0f", (b - a) / hz / (t1 - t0) * 100}') %"
		# shellcheck disable=SC2086
		out+=" (waited $(awk -v a="${WAIT0[$g]}" -v b="$(proc_wait $pids)" \
			-v t0="$CPU_T0" -v t1="$t1" 'BEGIN{printf "%.0f", (b - a) / 1e6 / (t1 - t0)}') ms/s), "
	done
	echo "${out}VM busy $(awk -v b0="$CPU_B0" -v i0="$CPU_I0" -v b1="$b1" -v i1="$i1" \
		'BEGIN{printf "%.0f", (b1 - b0) * 100 / ((b1 - b0) + (i1 - i0))}') % of $(nproc) CPUs"
}

say "# data path in the VM ($(nproc) vCPU, TCG), $SECS s per case; kernel $(uname -r)"
say "# (cpu: each group's share of one CPU during the case, e.g. 150 % = 1.5 CPUs)"
say "| path | adapters | Mbit/s each | result |"
say "| --- | --- | --- | --- |"
for k in $COUNTS; do
	case $PATHS in *" local "*) ;; *) break ;; esac
	for r in $RATES; do
		# the writers lose what is more late than vtunerd's simulated
		# tuner would (its backlog: 4 MiB or a quarter second, the
		# larger), unless BENCH_LOCAL_BACKLOG says otherwise (0: they
		# catch up on everything)
		lb=${BENCH_LOCAL_BACKLOG:-$((r / 8 / 4 > 4194304 ? r / 8 / 4 : 4194304))}
		for i in $(seq 0 $((k - 1))); do
			tuner_start "lw$i" -d "/dev/vtunerc$i" -D dvbc -t "/tmp/ts$r.ts" --rate "$r" \
				--backlog "$lb"
		done
		lw=$(for i in $(seq 0 $((k - 1))); do cat "$VT_RESULTS/lw$i.ready"; done)
		# shellcheck disable=SC2086
		cpu_mark writers $lw
		cpu_start
		l=$(read_all "$k" "$r")
		say "| local | $k | $((r / 1000000)) | $l |"
		say "#   cpu: $(cpu_end writers "$lw")"
		for i in $(seq 0 $((k - 1))); do tuner_stop "lw$i"; done
		say "# local: the writers skipped $(cat "$VT_RESULTS"/lw*.log | grep -c '^TS_LATE') times (backlog ${lb:-0} bytes)"
	done
done

netns_setup

# relay_start I R: relay send -> veth -> relay recv -> FIFO -> vt-testtuner
relay_start() {
	local i=$1 r=$2 port=$((6000 + $1))
	rm -f "/tmp/fifo$i"
	mkfifo "/tmp/fifo$i" || fail "mkfifo"
	# recv listens, then blocks opening the FIFO until the tuner opens it
	ip netns exec cli "$BT/relay" recv "10.99.0.2:$port" "/tmp/fifo$i" \
		>"relay-recv$i.log" 2>&1 &
	tuner_start "rl$i" -d "/dev/vtunerc$i" -D dvbc -t "/tmp/fifo$i" --rate "$r"
	ip netns exec srv "$BT/relay" send "10.99.0.2:$port" "/tmp/ts$r.ts" "$r" \
		$((SECS + 60)) >"relay-send$i.log" 2>&1 &
}
# relay_stop K: the K tuners, then every relay (all run in the netns)
relay_stop() {
	local i
	for i in $(seq 0 $(($1 - 1))); do tuner_stop "rl$i"; done
	ip netns pids cli | xargs -r kill 2>/dev/null
	ip netns pids srv | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	for i in $(seq 0 $(($1 - 1))); do
		grep -q '^listening' "relay-recv$i.log" ||
			fail "relay $i: $(cat "relay-recv$i.log" "relay-send$i.log")"
		rm -f "/tmp/fifo$i" "relay-recv$i.log" "relay-send$i.log"
	done
}
# tcp_all K R: K relays at R for SECS s into /dev/null; prints a summary
tcp_all() {
	local k=$1 r=$2 i t
	for i in $(seq 0 $((k - 1))); do
		ip netns exec cli "$BT/relay" recv "10.99.0.2:$((6000 + i))" /dev/null \
			>"tcp-recv$i.log" 2>&1 &
	done
	for i in $(seq 0 $((k - 1))); do
		for t in $(seq 100); do
			grep -q '^listening' "tcp-recv$i.log" && break
			sleep 0.1
		done
		grep -q '^listening' "tcp-recv$i.log" || fail "relay recv $i: $(cat "tcp-recv$i.log")"
	done
	for i in $(seq 0 $((k - 1))); do
		ip netns exec srv "$BT/relay" send "10.99.0.2:$((6000 + i))" "/tmp/ts$r.ts" \
			"$r" "$SECS" >"tcp-send$i.log" 2>&1 &
	done
	wait
	# "received N bytes in T s cpu C s": Mbit/s over the sender's SECS
	cat tcp-recv*.log | awk -v r="$r" -v k="$k" -v secs="$SECS" '
		/^received/ { n++; m = $2 * 8 / secs / 1e6; sum += m
			if (min == "" || m < min) min = m }
		END { ok = (n == k && min >= r / 1e6 * 0.97)
			printf "streams=%d min_mbps=%.1f sum_mbps=%.1f %s\n",
				n, min, sum, ok ? "ok" : "LOSS" }'
	rm -f tcp-*.log
}
for k in $COUNTS; do
	case $PATHS in *" tcp "*) ;; *) break ;; esac
	for r in $RATES; do
		say "| tcp | $k | $((r / 1000000)) | $(tcp_all "$k" "$r") |"
	done
done

for k in $COUNTS; do
	case $PATHS in *" relay "*) ;; *) break ;; esac
	for r in $RATES; do
		for i in $(seq 0 $((k - 1))); do relay_start "$i" "$r"; done
		say "| relay | $k | $((r / 1000000)) | $(read_all "$k" "$r") |"
		relay_stop "$k"
	done
done

# The daemons log to the guest's tmpfs while they run (a line on the 9p
# share is a round trip to QEMU, in the middle of the event loop), and the
# logs are moved to the results afterwards.
VT_LOGDIR=$(mktemp -d /tmp/vtlogs.XXXXXX)

# net_all LABEL: the net path with $VTUNERD for every count and rate;
# LABEL satip: vtunerd's SAT>IP front and vtunerc --satip (RTP over UDP),
# the readers' sessions sharing a tuner on their transponder
net_all() {
	local label=$1 maxk=0 i k r satip=()
	[ "$label" = satip ] && satip=(--satip 10.99.0.1:554 -m 32)
	vtunerd_start srv --sim --sim-tuners 16 --sim-config "$conf" --max-per-addr 0 \
		--no-announce -l 10.99.0.1:5911 "${satip[@]}"
	[ -n "${net_nice:-}" ] && renice -n "$net_nice" -p "$(cat "$VT_RESULTS/srv.pid")" >/dev/null
	for k in $COUNTS; do [ "$k" -gt "$maxk" ] && maxk=$k; done
	for i in $(seq 0 $((maxk - 1))); do
		if [ "$label" = satip ]; then
			vtunerc_start "cli$i" "/dev/vtunerc$i" --satip rtsp://10.99.0.1/ -D dvbc
		elif [ "$label" = cuse ]; then
			cuse_start "cli$i" $((CUSE_BASE + i)) -s 10.99.0.1 -t "$i"
		else
			vtunerc_start "cli$i" "/dev/vtunerc$i" -s 10.99.0.1 -t "$i"
		fi
	done
	for k in $COUNTS; do
		for r in $RATES; do
			dp=$(cat "$VT_RESULTS/srv.pid")
			cp=$(cat "$VT_RESULTS"/cli*.pid)
			# shellcheck disable=SC2086
			cpu_mark vtunerd $dp
			# shellcheck disable=SC2086
			cpu_mark vtunerc $cp
			cpu_start
			l=$(read_all "$k" "$r")
			say "| $label | $k | $((r / 1000000)) | $l |"
			say "#   cpu: $(cpu_end vtunerd "$dp" vtunerc "$cp")"
		done
	done
	for i in $(seq 0 $((maxk - 1))); do daemon_stop "cli$i"; done
	daemon_stop srv
	# TS frames vtunerd dropped because a data connection's queue was
	# full (its counters when the tuners closed): loss the readers may
	# not see, when the stream reaches them later than their end
	say "# $label: vtunerd logged $(grep -c 'not read in time' "$VT_LOGDIR/srv.log") 'not read in time', dropped $(sed -nE 's/.* frames sent, [0-9]+ frames \(([0-9]+) packets\) dropped.*/\1/p' "$VT_LOGDIR/srv.log" | awk '{ n += $1 } END { print n + 0 }') TS packets (data connections too slow); clients lost their session $(cat "$VT_LOGDIR"/cli*.log | grep -c 'lost:') times"
	[ "$label" = satip ] &&
		say "# $label: the clients counted $(sed -nE 's/.*SAT>IP: [0-9]+ datagrams, ([0-9]+) lost.*/\1/p' "$VT_LOGDIR"/cli*.log | awk '{ n += $1 } END { print n + 0 }') RTP datagrams lost"
	mkdir -p "$VT_RESULTS/$label"
	mv "$VT_LOGDIR/srv.log" "$VT_LOGDIR"/cli*.log "$VT_RESULTS/$label/"
}
case $PATHS in *" net "*) net_all net ;; esac
case $PATHS in *" satip "*) net_all satip ;; esac
# cuse: the net path into CUSE adapters (vtunerc --cuse, the demux in
# vtunerc) instead of the module's
case $PATHS in *" cuse "*) CUSE_BASE=20 net_all cuse ;; esac
# BENCH_VTUNERD_B=/path/to/another/vtunerd: the net path again with it
# (an A/B of two builds in one boot)
# BENCH_VTUNERC_B=/path/to/another/vtunerc: and with that client (and
# this build's vtunerd)
vtunerd_a=$VTUNERD
if [ -n "${BENCH_VTUNERD_B:-}" ]; then
	VTUNERD=$BENCH_VTUNERD_B
	net_all net-b
fi
# BENCH_VTUNERD_NICE=N: and with vtunerd at nice level N (a single process
# serving 16 tuners gets, at nice 0, the CPU share of one of 32 processes)
if [ -n "${BENCH_VTUNERD_NICE:-}" ]; then
	VTUNERD=$vtunerd_a
	net_nice=$BENCH_VTUNERD_NICE
	net_all "net-nice$net_nice"
	net_nice=
fi
if [ -n "${BENCH_VTUNERC_B:-}" ]; then
	VTUNERD=$vtunerd_a
	VTUNERC=$BENCH_VTUNERC_B
	net_all net-c
fi
exit 0
