#!/bin/bash
# vtunerd's dvb backend (issue 23) in the VM, vtunerc.ko adapters=16; the
# TS is one file made by vts-gen: R bit/s (default 80 Mbit/s), five TV
# services whose video PIDs (0x111 0x121 0x131 0x141 0x151) carry 95 %
# of it; every reader takes those five PIDs (bench/dvr-reader -p).
#   modes: how to read five PIDs from a dvb-core demux.  vt-testtuner
#          writes the file at R into /dev/vtunercN (1 and 8 adapters at
#          once), dvr-reader tunes adapter N and reads the five PIDs with
#            tap      one DMX_OUT_TS_TAP filter per PID, each on its own
#                     demux descriptor, read from dvr0 (vtunerd's way)
#            tsdemux  one DMX_OUT_TSDEMUX_TAP filter, DMX_ADD_PID for the
#                     other four, read from the demux descriptor
#          CPU: the reader's own (getrusage, user + system: the reads)
#          and the writer's (schedstat: dvb-core demultiplexes inside the
#          writer's write(), so the filters' cost per packet lands there).
#   dvb:   8 vt-testtuners write the file at R into vtunerc0..7, ONE
#          vtunerd --adapter A0 ... --adapter A7 (the dvb backend) in netns
#          srv -> veth -> 8 vtunerc in netns cli -> vtunerc8..15, a reader
#          on each of those
#   sim:   the same without the writers: vtunerd --sim, a ts_file
#          transponder of the same file at R (as 50-datapath.sh's net path)
# A case is "ok" when no reader saw a continuity error or an overflow and
# each got >= 90 % of R.  Rounds alternate the order of the two cases they
# compare.  CPU per byte: each group's CPU time (schedstat, every thread)
# during the case over the bytes the readers got.
# BENCH_RATE, BENCH_SECS (5), BENCH_ROUNDS (3), BENCH_MODE_COUNTS ("1 8"),
# BENCH_PARTS ("modes dvb") override the defaults.
# Results: results.txt (cases.txt: one line of fields per case).
# vm-timeout: 2400
set -uo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT
BT=$VT_BUILD/bench
[ -x "$BT/dvr-reader" ] || skip "bench tools not built (make bench-tools)"
R=${BENCH_RATE:-80000000}
SECS=${BENCH_SECS:-5}
ROUNDS=${BENCH_ROUNDS:-3}
MODE_COUNTS=${BENCH_MODE_COUNTS:-1 8}
PARTS=" ${BENCH_PARTS:-modes dvb} "
K=8			# adapters of the dvb / sim comparison
FREQ=474000000
PIDS=0x111,0x121,0x131,0x141,0x151
res=$VT_RESULTS/results.txt
cases=$VT_RESULTS/cases.txt
: >"$res"
: >"$cases"
say() { echo "$*" | tee -a "$res"; }

vt_load adapters=16
adapter_of() { awk '/^adapter/{print $NF; exit}' "/proc/vtunerc$1"; }

# the TS: five services, video 19 % of R each, less below 80 Mbit/s (vts-gen
# allows 97 % of R for the services, each audio PID is 219334 bit/s)
ts=/tmp/ts5.ts
vr=$((R / 100 * 19))
[ $((5 * vr + 5 * 219334)) -le $((R / 100 * 97)) ] || vr=$(((R / 100 * 97 - 5 * 219334) / 5))
{
	printf '[transponder G]\ndelsys = DVBC\nfrequency = %s\nsymbol_rate = 6900000\nmodulation = QAM256\nts_id = 1\nbitrate = %s\n' \
		"$FREQ" "$R"
	for s in 1 2 3 4 5; do
		printf '[service S%s]\nid = %s\ntype = tv\npmt_pid = %s\nvideo_pid = %s\naudio_pid = %s\nvideo_bitrate = %s\n' \
			"$s" "$s" $((0x100 + 16 * s)) $((0x101 + 16 * s)) $((0x102 + 16 * s)) "$vr"
	done
} >/tmp/gen.conf
"$VT_BUILD/server/sim/vts-gen" -c /tmp/gen.conf -s $((SECS + 5)) -o "$ts" G || fail "vts-gen"
printf '[transponder F]\ndelsys = DVBC\nfrequency = %s\nsymbol_rate = 6900000\nmodulation = QAM256\nts_id = 1\nts_file = %s\n' \
	"$FREQ" "$ts" >/tmp/sim.conf

# ---- CPU ----------------------------------------------------------------
# sched_ns PIDS...: CPU time of every thread of the PIDS (ns)
sched_ns() {
	local t=0 p f c
	for p in "$@"; do
		for f in /proc/"$p"/task/*/schedstat; do
			[ -r "$f" ] && read -r c _ <"$f" && t=$((t + c))
		done
	done
	echo "$t"
}
sys_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8, $5 + $6}' /proc/stat; }

# ---- writers: vt-testtuner into /dev/vtunercN ---------------------------
# like 50-datapath.sh's local path: what is more late than the sim's
# backlog (4 MiB or a quarter second) is skipped; they start once a PID
# filter is set (the tune that vtunerc replays when it connects would
# otherwise start a file written once before the readers come)
LB=$((R / 8 / 4 > 4194304 ? R / 8 / 4 : 4194304))
# and they write every 10 ms what is due, as the sim's tick and a card's
# DMA buffers do (BENCH_TICK=0: a packet as soon as it is due, ~1000
# writes a second each)
TICK=${BENCH_TICK:-10}
WRITERS=""
writers_start() {
	local i
	WRITERS=""
	for i in $(seq 0 $(($1 - 1))); do
		tuner_start "lw$i" -d "/dev/vtunerc$i" -D dvbc -t "$ts" --rate "$R" --backlog "$LB" --tick "$TICK" \
			--wait-pids
		WRITERS+=" $(cat "$VT_RESULTS/lw$i.ready")"
	done
}
writers_stop() {
	local i
	for i in $(seq 0 $(($1 - 1))); do tuner_stop "lw$i"; done
	LATE=$(cat "$VT_RESULTS"/lw*.log | grep -c '^TS_LATE')
	rm -f "$VT_RESULTS"/lw*.log "$VT_RESULTS"/lw*.err
	WRITERS=""
}

# measure LABEL MODE FIRST K [GROUP "PIDS"]...: readers on vtunercFIRST..
# +K-1 for SECS s, reading PIDS in MODE; appends one line of fields to
# cases.txt and prints it
measure() {
	local label=$1 mode=$2 first=$3 k=$4 i g rp=() b0 i0 b1 i1 t0 t1 line
	local -A ns0
	shift 4
	local groups=("$@")
	for ((i = 0; i < ${#groups[@]}; i += 2)); do
		# shellcheck disable=SC2086
		ns0[${groups[i]}]=$(sched_ns ${groups[i + 1]})
	done
	read -r b0 i0 <<<"$(sys_ticks)"
	t0=$(date +%s.%N)
	for i in $(seq "$first" $((first + k - 1))); do
		"$BT/dvr-reader" -a "$(adapter_of "$i")" -c "$FREQ" -s "$SECS" -p "$PIDS" \
			-m "$mode" >"rd$i.out" 2>&1 &
		rp+=($!)
	done
	wait "${rp[@]}"
	t1=$(date +%s.%N)
	read -r b1 i1 <<<"$(sys_ticks)"
	line="case=$label mode=$mode k=$k"
	for ((i = 0; i < ${#groups[@]}; i += 2)); do
		g=${groups[i]}
		# shellcheck disable=SC2086
		line+=" ${g}_ns=$(($(sched_ns ${groups[i + 1]}) - ns0[$g]))"
	done
	line+=" busy=$(awk -v b="$((b1 - b0))" -v i="$((i1 - i0))" 'BEGIN{printf "%.0f", b * 100 / (b + i)}')"
	line+=" wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b - a}')"
	line+=" $(cat rd*.out | awk -v r="$R" -v k="$k" '
		/^adapter=/ { n++; for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			split(v["cpu_s"], c, "+"); cpu += c[1] + c[2]
			by += v["bytes"]; sum += v["mbps"]; if (min == "" || v["mbps"] < min) min = v["mbps"]
			cc += v["cc_errors"] + v["sync_errors"]; ov += v["overflows"]; rd += v["reads"] }
		!/^adapter=/ { err++ }
		END { ok = (n == k && !err && min >= r / 1e6 * 0.90 && cc == 0 && ov == 0)
			printf "readers=%d bytes=%d min_mbps=%.1f sum_mbps=%.1f cc_errors=%d overflows=%d reads=%d reader_ns=%.0f result=%s",
				n, by, min, sum, cc, ov, rd, cpu * 1e9, ok ? "ok" : "LOSS" }')"
	grep -hv '^adapter=' rd*.out | sed 's/^/#   reader: /' | tee -a "$res" >&2
	rm -f rd*.out
	echo "$line" >>"$cases"
	echo "$line"
}

# the table of a part: ns of CPU per KiB the readers got, per group
# (summed over the rounds), and the ratios of the second case to the first
summary() {
	awk -v part="$1" -v a="$2" -v b="$3" '
		$1 !~ "^case=" part { next }
		{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		  key = v["case"] "," v["k"]; n[key]++; ok[key] += v["result"] == "ok"
		  by[key] += v["bytes"]; busy[key] += v["busy"]
		  if (!(v["k"] in seen)) { seen[v["k"]] = 1; ks[nk++] = v["k"] }
		  for (i = 1; i <= NF; i++) { split($i, kv, "=")
			if (kv[1] ~ /_ns$/) { g = substr(kv[1], 1, length(kv[1]) - 3)
				ns[key, g] += kv[2]; if (!(g in gs)) { gs[g] = 1; gl[ng++] = g } } } }
		function per(key, g) { return by[key] ? ns[key, g] / (by[key] / 1024) : 0 }
		END {
			for (j = 0; j < nk; j++) {
				k = ks[j]; ka = part a "," k; kb = part b "," k
				printf "| %s: %s / %s | %d | ok %d/%d, %d/%d |", part, b, a, k, ok[kb], n[kb], ok[ka], n[ka]
				for (i = 0; i < ng; i++) {
					g = gl[i]
					if (ns[ka, g] + ns[kb, g] == 0) continue
					if (per(ka, g))
						printf " %s %.0f / %.0f = %.2f |", g, per(kb, g), per(ka, g), per(kb, g) / per(ka, g)
					else
						printf " %s %.0f / - |", g, per(kb, g)
				}
				printf " VM busy %.0f / %.0f %% |\n", n[kb] ? busy[kb] / n[kb] : 0, n[ka] ? busy[ka] / n[ka] : 0
			}
		}' "$cases"
}

say "# dvb backend: $SECS s per case, $ROUNDS rounds, $((R / 1000000)) Mbit/s per adapter, PIDs $PIDS; kernel $(uname -r), $(nproc) vCPU"
say "# $("$VT_TOOLS/vt-tscheck" "$ts" | awk -v p=",$((0x111)),$((0x121)),$((0x131)),$((0x141)),$((0x151))," '
	/^pid=/ { split($1, a, "="); split($2, b, "="); t += b[2]; if (index(p, "," a[2] ",")) s += b[2] }
	END { printf "the five PIDs are %.1f %% of the file'"'"'s packets", 100 * s / t }')"

# ---- modes --------------------------------------------------------------
if [[ $PARTS == *" modes "* ]]; then
	for k in $MODE_COUNTS; do
		for round in $(seq "$ROUNDS"); do
			order="tap tsdemux"
			[ $((round % 2)) -eq 0 ] && order="tsdemux tap"
			for m in $order; do
				writers_start "$k"
				say "$(measure "modes$m" "$m" 0 "$k" writer "$WRITERS") round=$round"
				writers_stop "$k"
				[ "$LATE" -eq 0 ] || say "#   the writers skipped TS $LATE times (late)"
			done
		done
	done
	say "| compared | adapters | lossless | CPU ns/KiB (second / first = ratio) | |"
	say "| --- | --- | --- | --- | --- |"
	say "$(summary modes tap tsdemux)"
fi

# ---- dvb backend vs. sim ------------------------------------------------
if [[ $PARTS == *" dvb "* ]]; then
	netns_setup
	VT_LOGDIR=$(mktemp -d /tmp/vtlogs.XXXXXX)
	mkdir -p "$VT_RESULTS/logs"
	for round in $(seq "$ROUNDS"); do
		order="sim dvb"
		[ $((round % 2)) -eq 0 ] && order="dvb sim"
		for p in $order; do
			if [ "$p" = dvb ]; then
				writers_start "$K"
				args=()
				for i in $(seq 0 $((K - 1))); do args+=(--adapter "$(adapter_of "$i")"); done
			else
				args=(--sim --sim-tuners "$K" --sim-config /tmp/sim.conf)
			fi
			vtunerd_start srv "${args[@]}" --max-per-addr 0 --no-announce -l 10.99.0.1:5911
			for i in $(seq 0 $((K - 1))); do
				vtunerc_start "cli$i" "/dev/vtunerc$((K + i))" -s 10.99.0.1 -t "$i"
			done
			dp=$(cat "$VT_RESULTS/srv.pid")
			cp=$(cat "$VT_RESULTS"/cli*.pid)
			say "$(measure "dvb$p" tap "$K" "$K" vtunerd "$dp" vtunerc "$cp" writer "$WRITERS") round=$round"
			for i in $(seq 0 $((K - 1))); do daemon_stop "cli$i"; done
			daemon_stop srv
			[ "$p" = dvb ] && writers_stop "$K" && [ "$LATE" -ne 0 ] &&
				say "#   the writers skipped TS $LATE times (late)"
			say "#   vtunerd: $(grep -c 'overflow' "$VT_LOGDIR/srv.log") dvr overflow lines, $(grep -c 'not read in time' "$VT_LOGDIR/srv.log") 'not read in time', $(grep -ci 'SET_PIDS\|whole TS' "$VT_LOGDIR/srv.log") lines on PID sets/the whole TS; clients lost their session $(cat "$VT_LOGDIR"/cli*.log | grep -c 'lost:') times"
			for f in "$VT_LOGDIR"/*.log; do
				mv "$f" "$VT_RESULTS/logs/$p$round-$(basename "$f")"
			done
		done
	done
	say "| compared | adapters | lossless | CPU ns/KiB (second / first = ratio) | |"
	say "| --- | --- | --- | --- | --- |"
	say "$(summary dvb sim dvb)"
fi
exit 0
