#!/bin/bash
# bench/satip.sh - the SAT>IP output of vtunerd (issue 26) on the host.
#
#   1. CPU per byte of RTP/UDP output: vtunerd --sim --satip, a ts_file
#      transponder (TS looped from memory; the sim's one memcpy a run is
#      the copy out of a tuner's dvr that no server avoids), asked for by
#      rtp-sink's RTSP client (SETUP client_port, PLAY, TEARDOWN), against
#      bench/rtp-raw sending the same file at the same rate in the same
#      datagrams (7 x 188 + 12, sendmmsg batches of 64, the sim's 10 ms
#      tick) from memory ("raw") and after a memcpy of each tick's TS
#      ("raw-copy"); every sender into the same rtp-sink (RTP sequence,
#      TS CC, socket drops).  80 Mbit/s, 800 Mbit/s, and the sim's 4 Gbit/s
#      file (more than two CPUs carry: both senders CPU-bound, losing what
#      they cannot send, as the sim does).  The generated 80 and 800 Mbit/s
#      transponders too (vt-gen: the sim's own TS generation included).
#      Interleaved: ROUNDS rounds of every case, SECS s each.
#   2. 16 sessions x 80 Mbit/s, one vtunerd --sim-tuners 16: 16 ts_file
#      transponders (one 80 Mbit/s file) and 16 generated ones, alternating,
#      ROUNDS runs each: datagrams lost (RTP sequence), TS CC errors,
#      socket drops, vtunerd CPU.
#   3. PLAY -> first datagram with TS, 20 times (REPS): the tune in the
#      SETUP (A) and in the PLAY (B); the sim locks in the tune call itself
#      (vtunerd -v logs "locked on" in the same millisecond).
#   4. vtunerc --satip's CPU per byte against vtunerc over vtp, the same
#      transponder from the same vtunerd into --sink /dev/null.
#
# Environment: B (build dir, default build), ROUNDS (3), SECS (8), REPS
# (20), PORT (6190: vtp; PORT+1: RTSP; UDP ports from 27000), PARTS (all,
# or any of cpu, scale, latency, client).  Needs make all bench-tools (and
# vts-gen: make sim).  Results: $B/bench/satip/results.txt.
set -euo pipefail
B=${B:-build}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-8}
REPS=${REPS:-20}
PORT=${PORT:-6190}
RTSP=$((PORT + 1))
UDP=${UDP:-27000}
PARTS=${PARTS:-all}
out=$B/bench/satip
mkdir -p "$out"
out=$(cd "$out" && pwd)
VTUNERD=${VTUNERD:-$B/server/vtunerd}
RAW=$B/bench/rtp-raw
SINK=$B/bench/rtp-sink
VTSGEN=$B/server/sim/vts-gen
HZ=$(getconf CLK_TCK)
res=$out/results.txt
: >"$res"
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

say() { echo "$*" | tee -a "$res"; }
# CPU seconds of PID, every thread, in ns (schedstat: clock ticks are too
# coarse for a client at 80 Mbit/s, ~20 ms in a run)
cpu() { cat /proc/"$1"/task/*/schedstat | awk '{s += $1} END{printf "%.6f\n", s / 1e9}'; }
# voluntary context switches of PID (the times it slept), its read() calls
sleeps() { awk '/^voluntary_ctxt_switches/{print $2}' "/proc/$1/status"; }
syscr() { awk '/^syscr/{print $2}' "/proc/$1/io"; }
ucpu() { awk -v hz="$HZ" '{sub(/^.*\) /, ""); print $12 / hz}' "/proc/$1/stat"; }
calc() { awk "BEGIN{printf \"%.${2:-3}f\", $1}"; }
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
part() { [ "$PARTS" = all ] || [[ " $PARTS " == *" $1 "* ]]; }
median() { sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
# "median (min-max)" of numbers on stdin
mmm() { sort -g | awk '{v[NR]=$1} END{if (NR) printf "%.2f (%.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'; }
wait_listen() {
	local i
	for i in $(seq 100); do
		ss -ltn 2>/dev/null | grep -q "127.0.0.1:$1 " && return 0
		sleep 0.05
	done
	echo "nothing listens on $1" >&2
	return 1
}
# field NAME LINE: the value after the word NAME in a sink's line
field() { awk -v k="$1" '{for (i = 1; i < NF; i++) if ($i == k) {print $(i + 1); exit}}' <<<"$2"; }

# ---- the sources ------------------------------------------------------------
tp() {	# tp NAME FREQ (bitrate|ts_file) VALUE [SERVICE-ID]: a DVB-C transponder
	cat <<EOF

[transponder $1]
delsys = DVBC
frequency = $2
symbol_rate = 6900000
modulation = QAM256
ts_id = $((0x0c00 + ${5:-0}))
network_name = Bench
$3 = $4
EOF
	if [ "$3" = bitrate ]; then
		cat <<EOF
[service $1 TV]
id = $((${5:-0} + 1))
type = tv
pmt_pid = 0x100
video_pid = 0x101
audio_pid = 0x102
video_bitrate = 5000000
EOF
	fi
}
{
	tp "Bench gen 80" 522000000 bitrate 80000000
	tp "Bench gen 800" 474000000 bitrate 800000000 1
	tp "Bench gen 4G" 490000000 bitrate 4000000000 2
} >"$out/gen.conf"
"$VTSGEN" -c "$out/gen.conf" -s 1 -o "$out/ts80.ts" "Bench gen 80"
"$VTSGEN" -c "$out/gen.conf" -s 0.25 -o "$out/ts800.ts" "Bench gen 800"
"$VTSGEN" -c "$out/gen.conf" -s 0.05 -o "$out/ts4g.ts" "Bench gen 4G"
{
	cat "$out/gen.conf"
	tp "Bench file 80" 530000000 ts_file ts80.ts 3
	tp "Bench file 800" 482000000 ts_file ts800.ts 4
	tp "Bench file 4G" 498000000 ts_file ts4g.ts 5
} >"$out/bench.conf"
# section 2: 16 x 80 Mbit/s from the file (MHz 114 + 8 i), 16 generated
# (602 + 8 i; none on the built-in C 346 MHz)
{
	for i in $(seq 0 15); do
		tp "Scale file $i" $(((114 + 8 * i) * 1000000)) ts_file ts80.ts $((16 + i))
		tp "Scale gen $i" $(((602 + 8 * i) * 1000000)) bitrate 80000000 $((32 + i))
	done
} >"$out/scale.conf"

q() { echo "freq=$1&msys=dvbc&sr=6900&mtype=256qam&pids=all"; }

say "# vtuner SAT>IP benchmarks $(date -u +%FT%TZ), git $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
say "# machine: nproc=$(nproc) cpu='$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')' kernel=$(uname -r) load='$(cut -d' ' -f1-3 /proc/loadavg)'"
say "# ROUNDS=$ROUNDS SECS=$SECS REPS=$REPS"

start_vtunerd() {	# start_vtunerd CONF TUNERS LOG [more options]
	local conf=$1 n=$2 log=$3
	shift 3
	"$VTUNERD" -f --sim --sim-tuners "$n" --sim-config "$conf" --no-announce \
		-l "127.0.0.1:$PORT" --satip "127.0.0.1:$RTSP" "$@" >"$log" 2>&1 &
	D=$!
	pids+=("$D")
	wait_listen "$RTSP"
}

# ---- 1. CPU per byte ----------------------------------------------------------
declare -A R
# every line: bytes secs Mbit/s sender_cpu_s sink_cpu_s seqlost ccerr ovfl
# datagrams short_datagrams (< 7 TS packets) sender_user_cpu_s
# sender_sleeps (voluntary context switches) vtunerd_read_calls (the sim's
# timer drained: it caught up with the TS due)
if part cpu; then
	start_vtunerd "$out/bench.conf" 1 "$out/vtunerd.log"
	# vt_run MHZ: one session of SECS; the sink's line + vtunerd's CPU
	vt_run() {
		local c0 c1 u0 u1 v0 v1 r0 r1 l
		c0=$(cpu "$D")
		u0=$(ucpu "$D")
		v0=$(sleeps "$D")
		r0=$(syscr "$D")
		l=$("$SINK" "$UDP" "$SECS" "rtsp=127.0.0.1:$RTSP" "query=$(q "$1")")
		c1=$(cpu "$D")
		u1=$(ucpu "$D")
		v1=$(sleeps "$D")
		r1=$(syscr "$D")
		echo "$l vcpu $(calc "$c1 - $c0") vuser $(calc "$u1 - $u0") vsleeps $((v1 - v0)) vreads $((r1 - r0))"
	}
	raw_run() {	# raw_run FILE RATE [copy]
		local s l r
		"$SINK" "$UDP" $((SECS + 10)) idle=0.5 >"$out/sink.out" &
		s=$!
		pids+=("$s")
		sleep 0.2
		r=$("$RAW" "$out/$1" "127.0.0.1:$UDP" "$2" "$SECS" ${3:-})
		wait "$s"
		l=$(cat "$out/sink.out")
		echo "$l vcpu $(field cpu "$r") vuser $(field user "$r") vsleeps $(field sleeps "$r") vreads 0"
	}
	cases="raw-80 raw-80-copy vt-file-80 vt-gen-80 raw-800 raw-800-copy vt-file-800 vt-gen-800 raw-4g raw-4g-copy vt-file-4g"
	for round in $(seq "$ROUNDS"); do
		order=$cases
		# vtunerd first in even rounds
		[ $((round % 2)) = 0 ] && order=$(echo "$cases" | sed 's/\(raw-[0-9a-z]*\) \(raw-[0-9a-z]*-copy\) \(vt-file-[0-9a-z]*\)/\3 \1 \2/g')
		for k in $order; do
			case $k in
			raw-80) l=$(raw_run ts80.ts 80000000) ;;
			raw-80-copy) l=$(raw_run ts80.ts 80000000 copy) ;;
			raw-800) l=$(raw_run ts800.ts 800000000) ;;
			raw-800-copy) l=$(raw_run ts800.ts 800000000 copy) ;;
			raw-4g) l=$(raw_run ts4g.ts 4000000000) ;;
			raw-4g-copy) l=$(raw_run ts4g.ts 4000000000 copy) ;;
			vt-file-80) l=$(vt_run 530) ;;
			vt-file-800) l=$(vt_run 482) ;;
			vt-file-4g) l=$(vt_run 498) ;;
			vt-gen-80) l=$(vt_run 522) ;;
			vt-gen-800) l=$(vt_run 474) ;;
			esac
			# bytes secs Mbit/s sender_cpu sink_cpu seqlost ccerr ovfl
			# datagrams short_datagrams sender_user_cpu
			line="$(field datagrams "$l") $(field in "$l") $(field s "$l" | tr -d '(') $(field vcpu "$l") $(field cpu "$l") $(field seqlost "$l") $(field ccerr "$l") $(field ovfl "$l") $(field recv "$l") $(field short "$l") $(field vuser "$l") $(field vsleeps "$l") $(field vreads "$l")"
			say "run $round $k: $line"
			R[$k]+="$line"$'\n'
		done
	done
	stop "$D"

	say ""
	say "## RTP/UDP output, medians of $ROUNDS interleaved runs (CPU per GB of TS the sink received)"
	say "| case | Mbit/s | TS packets / datagram | short datagrams / s | sender CPU s/GB | of which user | sender % of a core | sender sleeps / s | timer drains / s | sink CPU s/GB | datagrams lost (seq) | TS CC errors | sink socket drops |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	col() { printf '%s' "${R[$1]}" | awk -v c="$2" 'NF{print $c}' | median; }
	sum() { printf '%s' "${R[$1]}" | awk -v c="$2" 'NF{s += $c} END{print s + 0}'; }
	for k in $cases; do
		say "| $k | $(col "$k" 3) | $(calc "$(printf '%s' "${R[$k]}" | awk 'NF{print $1 / 188 / $9}' | median)" 2) | $(calc "$(printf '%s' "${R[$k]}" | awk 'NF{print $10 / $2}' | median)" 0) | $(calc "$(printf '%s' "${R[$k]}" | awk 'NF{print $4 / ($1 / 1e9)}' | median)") | $(calc "$(printf '%s' "${R[$k]}" | awk 'NF{print $11 / ($1 / 1e9)}' | median)") | $(calc "$(printf '%s' "${R[$k]}" | awk -v s="$SECS" 'NF{print $4 / s * 100}' | median)" 1) | $(calc "$(printf '%s' "${R[$k]}" | awk -v s="$SECS" 'NF{print $12 / s}' | median)" 0) | $(calc "$(printf '%s' "${R[$k]}" | awk -v s="$SECS" 'NF{print $13 / s}' | median)" 0) | $(calc "$(printf '%s' "${R[$k]}" | awk 'NF{print $5 / ($1 / 1e9)}' | median)") | $(sum "$k" 6) | $(sum "$k" 7) | $(sum "$k" 8) |"
	done
	# per_round A B: A / B of sender CPU per GB, round by round
	per_round() {
		paste <(printf '%s' "${R[$1]}" | awk 'NF{print $4 / ($1 / 1e9)}') \
			<(printf '%s' "${R[$2]}" | awk 'NF{print $4 / ($1 / 1e9)}') |
			awk '{print $1 / $2}' | mmm
	}
	per_round_x() {	# throughput
		paste <(printf '%s' "${R[$1]}" | awk 'NF{print $3}') \
			<(printf '%s' "${R[$2]}" | awk 'NF{print $3}') |
			awk '{print $1 / $2}' | mmm
	}
	say ""
	say "sender CPU per GB, vtunerd / raw sender, round by round: median (min-max)"
	for r in 80 800 4g; do
		say "  $r: vt-file / raw = $(per_round vt-file-$r raw-$r); vt-file / raw-copy = $(per_round vt-file-$r raw-$r-copy); throughput vt-file / raw = $(per_round_x vt-file-$r raw-$r)"
	done
	for r in 80 800; do
		say "  $r: vt-gen / raw = $(per_round vt-gen-$r raw-$r); vt-gen / vt-file = $(per_round vt-gen-$r vt-file-$r) (the sim's generation)"
	done
fi

# ---- 2. 16 sessions x 80 Mbit/s ---------------------------------------------
if part scale; then
	say ""
	say "## 16 SAT>IP sessions x 80 Mbit/s, one vtunerd --sim-tuners 16, ${SECS} s a run"
	say "| run | source | datagrams lost (seq) | TS CC errors | sink socket drops | vtunerd sent-but-dropped | slowest / fastest session Mbit/s | total Mbit/s | vtunerd % of a core | vtunerd CPU s/GB |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	start_vtunerd "$out/scale.conf" 16 "$out/scale-vtunerd.log" --max-clients 32 --max-per-addr 0
	for round in $(seq "$ROUNDS"); do
		for src in file gen; do
			base=114
			[ $src = gen ] && base=602
			sk=()
			c0=$(cpu "$D")
			t0=$(date +%s.%N)
			for i in $(seq 0 15); do
				"$SINK" $((UDP + 2 * i)) "$SECS" "rtsp=127.0.0.1:$RTSP" \
					"query=$(q $((base + 8 * i)))" >"$out/scale-sink$i.out" &
				sk+=($!)
				pids+=($!)
			done
			for s in "${sk[@]}"; do wait "$s" || echo "sink failed" >&2; done
			c1=$(cpu "$D")
			t1=$(date +%s.%N)
			cat "$out"/scale-sink*.out >"$out/scale-$src-$round.txt"
			lost=$(awk '{for (i = 1; i < NF; i++) if ($i == "seqlost") s += $(i + 1)} END{print s + 0}' "$out/scale-$src-$round.txt")
			cc=$(awk '{for (i = 1; i < NF; i++) if ($i == "ccerr") s += $(i + 1)} END{print s + 0}' "$out/scale-$src-$round.txt")
			ovfl=$(awk '{for (i = 1; i < NF; i++) if ($i == "ovfl") s += $(i + 1)} END{print s + 0}' "$out/scale-$src-$round.txt")
			rates=$(awk '{for (i = 1; i < NF; i++) if ($i == "s") {gsub(/\(/, "", $(i + 1)); print $(i + 1)}}' "$out/scale-$src-$round.txt" | sort -g)
			bytes=$(awk '{for (i = 1; i < NF; i++) if ($i == "bytes") s += $(i - 1)} END{print s + 0}' "$out/scale-$src-$round.txt")
			n=$(echo "$rates" | grep -c .)
			tot=$(echo "$rates" | awk '{s += $1} END{printf "%.1f", s}')
			# vtunerd's own count of datagrams sendmmsg refused
			vdrop=$(grep -o 'packets sent, [0-9]* dropped' "$out/scale-vtunerd.log" | awk '{s += $3} END{print s + 0}')
			say "| $round | $src ($n sessions) | $lost | $cc | $ovfl | $vdrop (cumulative) | $(echo "$rates" | head -1) / $(echo "$rates" | tail -1) | $tot | $(calc "($c1 - $c0) / ($t1 - $t0) * 100" 1) | $(calc "($c1 - $c0) / ($bytes / 1e9)" 2) |"
			sleep 0.5
		done
	done
	grep -i 'not read in time\|warn' "$out/scale-vtunerd.log" | tee -a "$res" || true
	stop "$D"
fi

# ---- 3. PLAY -> first TS ------------------------------------------------------
if part latency; then
	say ""
	say "## PLAY -> first RTP datagram with TS (the sink's kernel timestamp), $REPS times, 80 Mbit/s ts_file transponder"
	start_vtunerd "$out/bench.conf" 1 "$out/lat-vtunerd.log" -v
	for v in A B; do
		: >"$out/lat-$v.txt"
		for i in $(seq "$REPS"); do
			if [ $v = A ]; then
				"$SINK" "$UDP" 0.2 "rtsp=127.0.0.1:$RTSP" "query=$(q 530)" >>"$out/lat-$v.txt"
			else
				"$SINK" "$UDP" 0.2 "rtsp=127.0.0.1:$RTSP" "playquery=$(q 530)" >>"$out/lat-$v.txt"
			fi
		done
	done
	stop "$D"
	# the sim's lock: "locked on" in the same millisecond as the session's tune
	locks=$(grep -c 'locked on' "$out/lat-vtunerd.log" || true)
	say "sim locks logged: $locks (each in the tune call itself: tune time 0 + the request's processing, bounded by the round trip of the request that tunes)"
	say "| case | first_ms median | first_ms max | first_ms min | round trip of the tuning request, median / max ms | OPTIONS round trip median ms |"
	say "| --- | --- | --- | --- | --- | --- |"
	for v in A B; do
		f=$(awk '{for (i = 1; i < NF; i++) if ($i == "first_ms") print $(i + 1)}' "$out/lat-$v.txt" | sort -g)
		k=setup_ms
		[ $v = B ] && k=play_ms
		t=$(awk -v k=$k '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}' "$out/lat-$v.txt" | sort -g)
		o=$(awk '{for (i = 1; i < NF; i++) if ($i == "options_ms") print $(i + 1)}' "$out/lat-$v.txt" | median)
		name="A: tune in SETUP, PLAY bare"
		[ $v = B ] && name="B: SETUP bare, tune in PLAY"
		say "| $name | $(echo "$f" | median) | $(echo "$f" | tail -1) | $(echo "$f" | head -1) | $(echo "$t" | median) / $(echo "$t" | tail -1) | $o |"
	done
fi
# ---- 4. the client: vtunerc --satip against vtunerc over vtp ------------
# vtunerc --sink /dev/null on the same ts_file transponder (whole TS),
# from the same vtunerd: over vtp, and as a SAT>IP client (RTP/UDP,
# recvmmsg); its CPU per byte, ROUNDS interleaved runs of SECS s.  The
# write into the module is not in it (a sink file): the VM's data path
# benchmark (bench/vm/50-datapath.sh, path satip) has the rest.
VTUNERC=${VTUNERC:-$B/client/vtunerc}
if part client; then
	start_vtunerd "$out/bench.conf" 2 "$out/client-vtunerd.log"
	tune=DELIVERY_SYSTEM=DVBC/ANNEX_A,SYMBOL_RATE=6900000,MODULATION=QAM_256
	# vc_run KIND MHZ: "cpu_s bytes vtunerd_cpu_s" of one vtunerc run
	vc_run() {
		local kind=$1 mhz=$2 p c b d0 d1 server=(-s "127.0.0.1:$PORT")
		[ "$kind" = satip ] && server=(--satip "rtsp://127.0.0.1:$RTSP/")
		"$VTUNERC" -f "${server[@]}" -D dvbc --sink /dev/null --status-file none \
			--tune "$tune,FREQUENCY=${mhz}000000" --pids all \
			>"$out/client-$kind.log" 2>&1 &
		p=$!
		d0=$(cpu "$D")
		sleep "$SECS"
		c=$(cpu "$p")
		d1=$(cpu "$D")
		kill "$p"
		wait "$p" || true
		b=$(sed -n 's/.* \([0-9]*\) bytes of TS in .*/\1/p' "$out/client-$kind.log")
		echo "$c ${b:-0} $(calc "$d1 - $d0")"
	}
	say ""
	say "## CPU per byte, SAT>IP (RTP/UDP) / vtp, whole TS into /dev/null, $ROUNDS interleaved runs of $SECS s"
	say "# (the UDP floor: bench/rtp-sink, recvmmsg and a CC check, no pacing, receiving the same session)"
	say "| transponder | vtunerc SAT>IP / vtp, round by round | median | both daemons SAT>IP / vtp, median | vtunerc SAT>IP / rtp-sink, median | vtunerc SAT>IP, vtp, rtp-sink CPU s/GB (medians) | Mbit/s SAT>IP, vtp |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	for t in "530 80" "482 800"; do
		read -r mhz rate <<<"$t"
		ratios=() both=() floor=() sg=() vg=() rg=() sm=() vm=()
		for _ in $(seq "$ROUNDS"); do
			read -r cs bs ds <<<"$(vc_run satip "$mhz")"
			read -r cv bv dv <<<"$(vc_run vtp "$mhz")"
			[ "$bs" -gt 0 ] && [ "$bv" -gt 0 ] || { say "# no TS (satip $bs, vtp $bv bytes)"; continue; }
			ratios+=("$(calc "($cs / $bs) / ($cv / $bv)" 2)")
			both+=("$(calc "(($cs + $ds) / $bs) / (($cv + $dv) / $bv)" 2)")
			l=$("$SINK" "$UDP" "$SECS" "rtsp=127.0.0.1:$RTSP" "query=$(q "$mhz")")
			rb=$(awk '{for (i = 1; i < NF; i++) if ($i == "bytes") print $(i - 1)}' <<<"$l")
			rc=$(field cpu "$l")
			floor+=("$(calc "($cs / $bs) / ($rc / $rb)" 2)")
			rg+=("$(calc "$rc / $rb * 1e9" 2)")
			sg+=("$(calc "$cs / $bs * 1e9" 2)")
			vg+=("$(calc "$cv / $bv * 1e9" 2)")
			sm+=("$(calc "$bs * 8 / $SECS / 1e6" 1)")
			vm+=("$(calc "$bv * 8 / $SECS / 1e6" 1)")
		done
		say "| file $rate Mbit/s | ${ratios[*]} | $(printf '%s\n' "${ratios[@]}" | median) | $(printf '%s\n' "${both[@]}" | median) | $(printf '%s\n' "${floor[@]}" | median) | $(printf '%s\n' "${sg[@]}" | median), $(printf '%s\n' "${vg[@]}" | median), $(printf '%s\n' "${rg[@]}" | median) | $(printf '%s\n' "${sm[@]}" | median), $(printf '%s\n' "${vm[@]}" | median) |"
	done
	stop "$D"
fi

say ""
say "# done $(date -u +%FT%TZ)"
