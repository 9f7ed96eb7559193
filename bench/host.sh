#!/bin/bash
# bench/host.sh - host benchmarks of the user-space data path (make bench).
#
#   vtunerd --sim (a ts_file transponder, or generated TS) -> loopback TCP
#     -> vtunerc --sink /dev/null
# against the raw baseline of the same bytes:
#   relay send (the same TS file from memory) -> loopback TCP
#     -> relay recv -> /dev/null
# interleaved in one run (ROUNDS rounds, medians), then instructions per GB
# under callgrind, then one vtunerd serving 16 clients, then control round
# trips while a full transponder flows, then retunes of a ts_file
# transponder beside a stream, then 16 x 80 Mbit/s with and without a
# pre-shared key.  Section 1 also runs the ts_file cases with a key on
# both daemons (every frame sealed: -seal with the cipher both choose by
# default, AES-256-OCB where the CPU has AES instructions; -chacha with
# --cipher chacha20-poly1305), interleaved with the clear ones.  Results: $B/bench/host/results.txt.
#
# Environment: B (build dir, default build), ROUNDS (3), SECS (8 per run),
# CG_SECS (callgrind run length, 20; CALLGRIND=0 skips it), PORT (5990),
# VTUNERD_B (section 5: another vtunerd build, alternately with this one),
# PARTS (which sections, default all: any of path (1), callgrind (2),
# scale (3), ping (4), retune (5), seal (section 1's clear and sealed
# vtuner cases only, unless path is given too, and section 6); e.g.
# PARTS=seal runs only what compares the sealed path with the clear one).
set -euo pipefail
B=${B:-build}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-8}
CG_SECS=${CG_SECS:-20}
PORT=${PORT:-5990}
PARTS=${PARTS:-all}
out=$B/bench/host
mkdir -p "$out"
out=$(cd "$out" && pwd)
VTUNERD=$B/server/vtunerd
VTUNERC=$B/client/vtunerc
PROBE=$B/tests/server/vtunerd-probe
RELAY=$B/bench/relay
VTSGEN=$B/server/sim/vts-gen
res=$out/results.txt
: >"$res"
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

say() { echo "$*" | tee -a "$res"; }
# CPU seconds of PID, every thread (schedstat, ns: clock ticks were 10 ms,
# 4 % of vtunerd at 800 Mbit/s in an 8 s run)
cpu() { cat /proc/"$1"/task/*/schedstat | awk '{s += $1} END{printf "%.6f\n", s / 1e9}'; }
rss_kb() { awk '/^VmRSS/{print $2}' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM/{print $2}' "/proc/$1/status"; }
calc() { awk "BEGIN{printf \"%.${2:-3}f\", $1}"; }
stop() {	# stop PID: SIGTERM and wait
	kill "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}
wait_listen() {
	local i
	for i in $(seq 100); do
		ss -ltn 2>/dev/null | grep -q "127.0.0.1:$1 " && return 0
		sleep 0.05
	done
	echo "nothing listens on $1" >&2
	return 1
}

# ---- the source: one TS file for both chains --------------------------------
cat >"$out/gen.conf" <<'EOF'
# generated TS, DVB-C so that no LNB is involved
[transponder Bench gen 800]
delsys = DVBC
frequency = 474000000
symbol_rate = 6900000
modulation = QAM256
ts_id = 0x0b00
network_name = Bench
bitrate = 800000000
[service Bench HD]
id = 1
type = tv
pmt_pid = 0x100
video_pid = 0x101
audio_pid = 0x102
video_bitrate = 20000000

[transponder Bench gen 80]
delsys = DVBC
frequency = 522000000
symbol_rate = 6900000
modulation = QAM256
ts_id = 0x0b01
network_name = Bench
bitrate = 80000000
[service Bench SD]
id = 2
type = tv
pmt_pid = 0x200
video_pid = 0x201
audio_pid = 0x202
video_bitrate = 5000000

[transponder Bench gen 4G]
delsys = DVBC
frequency = 490000000
symbol_rate = 6900000
modulation = QAM256
ts_id = 0x0b02
network_name = Bench
bitrate = 4000000000
[service Bench UHD]
id = 3
type = tv
pmt_pid = 0x300
video_pid = 0x301
audio_pid = 0x302
video_bitrate = 20000000
EOF
"$VTSGEN" -c "$out/gen.conf" -s 0.25 -o "$out/ts800.ts" "Bench gen 800"
"$VTSGEN" -c "$out/gen.conf" -s 0.05 -o "$out/ts4g.ts" "Bench gen 4G"
{
	cat "$out/gen.conf"
	cat <<EOF

# the same bytes looped from memory (like a real tuner's dvr: a copy)
[transponder Bench file 800]
delsys = DVBC
frequency = 482000000
symbol_rate = 6900000
modulation = QAM256
ts_id = 0x0b01
network_name = Bench
ts_file = ts800.ts

[transponder Bench file 4G]
delsys = DVBC
frequency = 498000000
symbol_rate = 6900000
modulation = QAM256
ts_id = 0x0b03
network_name = Bench
ts_file = ts4g.ts
EOF
} >"$out/bench.conf"

# the pre-shared key of the sealed runs (both daemons refuse a key file
# others can read)
(umask 077 && head -c 32 /dev/urandom | base64 >"$out/psk")
SEAL="--psk-file $out/psk"
CHACHA="$SEAL --cipher chacha20-poly1305"

F_GEN800=474000000
F_GEN80=522000000
F_FILE800=482000000
F_FILE4G=498000000

# vt_run FREQ SECS [WRAP] [OPTS]: one vtunerd + one vtunerc --sink
# /dev/null; prints "bytes secs mbps cpu_vtunerd cpu_vtunerc".  WRAP (e.g.
# valgrind) prefixes vtunerd ("d:CMD") or vtunerc ("c:CMD").  OPTS: more
# options for both daemons, split at blanks (e.g. "$SEAL").
vt_run() {
	local freq=$1 secs=$2 wrap=${3:-} d c d0 d1 c1 line
	local -a dw=() cw=() opts=()
	case $wrap in d:*) read -ra dw <<<"${wrap#d:}" ;; c:*) read -ra cw <<<"${wrap#c:}" ;; esac
	read -ra opts <<<"${4:-}"
	${dw[@]+"${dw[@]}"} "$VTUNERD" -f --sim --sim-tuners 1 \
		--sim-config "$out/bench.conf" --no-announce ${opts[@]+"${opts[@]}"} \
		-l "127.0.0.1:$PORT" >"$out/vtunerd.log" 2>&1 &
	d=$!
	pids+=("$d")
	wait_listen "$PORT"
	d0=$(cpu "$d")
	${cw[@]+"${cw[@]}"} "$VTUNERC" -f -s "127.0.0.1:$PORT" -t 0 --sink /dev/null \
		${opts[@]+"${opts[@]}"} --tune "DELIVERY_SYSTEM=DVBC,FREQUENCY=$freq,SYMBOL_RATE=6900000" \
		--pids all >"$out/vtunerc.log" 2>&1 &
	c=$!
	pids+=("$c")
	sleep "$secs"
	c1=$(cpu "$c")
	d1=$(cpu "$d")
	stop "$c"
	stop "$d"
	# "N bytes of TS in T s (R Mbit/s), ..."
	line=$(grep -o '[0-9]* bytes of TS in [0-9.]* s ([0-9.]* Mbit/s)' "$out/vtunerc.log" | tail -n 1)
	[ -n "$line" ] || { cat "$out/vtunerc.log" "$out/vtunerd.log" >&2; return 1; }
	set -- $line
	echo "$1 $6 ${8#(} $(calc "$d1 - $d0" 4) $c1"
}

# relay_run RATE SECS [WRAP] [read]: relay send -> relay recv, same output;
# "read": the sender pread()s every chunk into a buffer (a copy, as from a
# dvr device) instead of writing from the file's mapping.
relay_run() {
	local rate=$1 secs=$2 wrap=${3:-} mode=${4:-} r rl sl
	local -a sw=() rw=()
	case $wrap in d:*) read -ra sw <<<"${wrap#d:}" ;; c:*) read -ra rw <<<"${wrap#c:}" ;; esac
	${rw[@]+"${rw[@]}"} "$RELAY" recv "$PORT" /dev/null >"$out/recv.log" 2>&1 &
	r=$!
	pids+=("$r")
	wait_listen "$PORT"
	${sw[@]+"${sw[@]}"} "$RELAY" send "127.0.0.1:$PORT" "$out/ts800.ts" "$rate" "$secs" $mode >"$out/send.log" 2>&1
	wait "$r"
	# "received N bytes in T s cpu C s"
	rl=$(grep '^received' "$out/recv.log" || true)
	sl=$(grep '^sent' "$out/send.log" || true)
	[ -n "$rl" ] && [ -n "$sl" ] || { cat "$out/recv.log" "$out/send.log" >&2; return 1; }
	set -- $rl
	local bytes=$2 t=$5 rc=$8
	set -- $sl
	echo "$bytes $t $(calc "$bytes * 8 / $t / 1e6" 2) $8 $rc"
}

# part NAME: whether PARTS asks for that part
part() { [ "$PARTS" = all ] || [[ " $PARTS " == *" $1 "* ]]; }

median() { sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }

say "# vtuner host benchmarks $(date -u +%FT%TZ), git $(git rev-parse --short HEAD 2>/dev/null || echo ?)"
say "# machine: nproc=$(nproc) cpu='$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')' kernel=$(uname -r)"
say "# ROUNDS=$ROUNDS SECS=$SECS; every line: bytes secs Mbit/s cpu_sender_s cpu_receiver_s"

# ---- 1. throughput and CPU, interleaved ------------------------------------
# The sealed cases (-seal: a key on both daemons; -chacha: and ChaCha20)
# follow their clear ones, the other way round in even rounds.
declare -A R
cases=
part path && cases="relay-max relay-4g relay-4g-read vt-file-4g relay-800 relay-800-read vt-file-800 vt-gen-800"
if part seal; then
	part path || cases="vt-file-4g vt-file-800"
	cases=$(echo "$cases" | sed 's/vt-file-4g/& vt-file-4g-seal vt-file-4g-chacha/; s/vt-file-800/& vt-file-800-seal vt-file-800-chacha/')
fi
if [ -n "$cases" ]; then
	for round in $(seq "$ROUNDS"); do
		order=$cases
		[ $((round % 2)) = 0 ] && order=$(echo "$cases" |
			sed 's/\(vt-file-[a-z0-9]*\) \(vt-file-[a-z0-9]*-seal\) \(vt-file-[a-z0-9]*-chacha\)/\3 \2 \1/g')
		for k in $order; do
			case $k in
			relay-max) l=$(relay_run 0 "$SECS") ;;
			relay-4g) l=$(relay_run 4000000000 "$SECS") ;;
			relay-800) l=$(relay_run 800000000 "$SECS") ;;
			relay-4g-read) l=$(relay_run 4000000000 "$SECS" "" read) ;;
			relay-800-read) l=$(relay_run 800000000 "$SECS" "" read) ;;
			vt-file-4g) l=$(vt_run "$F_FILE4G" "$SECS") ;;
			vt-file-800) l=$(vt_run "$F_FILE800" "$SECS") ;;
			vt-gen-800) l=$(vt_run "$F_GEN800" "$SECS") ;;
			vt-file-4g-seal) l=$(vt_run "$F_FILE4G" "$SECS" "" "$SEAL") ;;
			vt-file-800-seal) l=$(vt_run "$F_FILE800" "$SECS" "" "$SEAL") ;;
			vt-file-4g-chacha) l=$(vt_run "$F_FILE4G" "$SECS" "" "$CHACHA") ;;
			vt-file-800-chacha) l=$(vt_run "$F_FILE800" "$SECS" "" "$CHACHA") ;;
			esac
			say "run $round $k: $l"
			R[$k]+="$l"$'\n'
		done
	done

	col() { printf '%s' "${R[$1]}" | awk -v c="$2" 'NF{print $c}' | median; }
	# CPU seconds per GB of column C (4 sender, 5 receiver): per run, then median
	cpugb() { printf '%s' "${R[$1]}" | awk -v c="$2" 'NF{print $c / ($1 / 1e9)}' | median; }
	say ""
	say "## data path, medians of $ROUNDS interleaved runs"
	say "| case | Mbit/s | sender CPU s/GB | receiver CPU s/GB | both CPU s/GB |"
	say "| --- | --- | --- | --- | --- |"
	for k in $cases; do
		both=$(printf '%s' "${R[$k]}" | awk 'NF{print ($4 + $5) / ($1 / 1e9)}' | median)
		say "| $k | $(col "$k" 3) | $(calc "$(cpugb "$k" 4)") | $(calc "$(cpugb "$k" 5)") | $(calc "$both") |"
	done
	ratio() { calc "$1 / $2" 2; }
	# per_round A B COLS [OP]: A OP B (OP / or -, default /) of CPU/GB (COLS:
	# an awk expression of $4 sender, $5 receiver) round by round, each pair
	# measured back to back: "median (min-max)"
	per_round() { per_round_x "$1" "$2" "($3) / (\$1 / 1e9)" "${4:-/}"; }
	# per_round_x A B EXPR OP: the same of any awk expression of a run's line
	per_round_x() {
		paste <(printf '%s' "${R[$1]}" | awk "NF{print $3}") <(printf '%s' "${R[$2]}" | awk "NF{print $3}") |
			awk "{print \$1 $4 \$2}" | sort -g |
			awk '{v[NR]=$1} END{printf "%.2f (%.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'
	}
	if part path; then
		say ""
		say "throughput at 4 Gbit/s offered (the sim's maximum): vt-file-4g / relay-4g = $(ratio "$(col vt-file-4g 3)" "$(col relay-4g 3)")"
		say "throughput at 800 Mbit/s offered: vt-file-800 / relay-800 = $(ratio "$(col vt-file-800 3)" "$(col relay-800 3)")"
		say ""
		say "CPU/GB ratios round by round, median (min-max); 'read' = the relay that"
		say "copies the source once (pread, like a read() from dvr0), else from the mapping:"
		for r in 800 4g; do
			for b in relay-$r-read relay-$r; do
				say "  $r: both daemons / both relays ($b) = $(per_round vt-file-$r $b '$4 + $5')"
				say "  $r: vtunerd / relay send ($b) = $(per_round vt-file-$r $b '$4')"
				say "  $r: vtunerc / relay recv ($b) = $(per_round vt-file-$r $b '$5')"
			done
		done
	fi
	if part seal; then
		say ""
		say "## sealed (--psk-file on both daemons) / clear, the same ts_file, round by round: median (min-max)"
		say "(seal: the default cipher, $(grep -q -w aes /proc/cpuinfo && echo AES-256-OCB || echo ChaCha20-Poly1305) here; chacha: --cipher chacha20-poly1305)"
		say "| rate | cipher | both daemons CPU/GB | vtunerd CPU/GB | vtunerc CPU/GB | sealed - clear, both, CPU s/GB | throughput |"
		say "| --- | --- | --- | --- | --- | --- | --- |"
		for r in 800 4g; do
			for c in seal chacha; do
				a=vt-file-$r-$c b=vt-file-$r
				say "| $r | $c | $(per_round $a $b '$4 + $5') | $(per_round $a $b '$4') | $(per_round $a $b '$5') | $(per_round $a $b '$4 + $5' -) | $(per_round_x $a $b '$3' /) |"
			done
		done
	fi
fi

# ---- 2. callgrind: user-space instructions per GB ---------------------------
if command -v valgrind >/dev/null && [ "${CALLGRIND:-1}" = 1 ] && part callgrind; then
	say ""
	say "## callgrind (user-space instructions only; the kernel's copies are not counted), ${CG_SECS} s runs"
	say "| process | bytes | Ir | Ir/GB |"
	say "| --- | --- | --- | --- |"
	cg() {	# cg NAME CMDLINE-RESULT OUTFILE
		local ir bytes
		ir=$(awk '/^(summary|totals):/{print $2; exit}' "$3")
		bytes=$1
		echo "$ir $(calc "$ir / ($bytes / 1e9)" 0)"
	}
	CG="valgrind --tool=callgrind --callgrind-out-file"
	l=$(vt_run "$F_FILE800" "$CG_SECS" "d:$CG=$out/cg.vtunerd")
	set -- $l
	say "| vtunerd (ts_file) | $1 | $(cg "$1" x "$out/cg.vtunerd" | sed 's/ / | /') |"
	l=$(vt_run "$F_GEN800" "$CG_SECS" "d:$CG=$out/cg.vtunerd-gen")
	set -- $l
	say "| vtunerd (generated) | $1 | $(cg "$1" x "$out/cg.vtunerd-gen" | sed 's/ / | /') |"
	l=$(vt_run "$F_FILE800" "$CG_SECS" "c:$CG=$out/cg.vtunerc")
	set -- $l
	say "| vtunerc | $1 | $(cg "$1" x "$out/cg.vtunerc" | sed 's/ / | /') |"
	l=$(relay_run 0 "$CG_SECS" "d:$CG=$out/cg.send")
	set -- $l
	say "| relay send | $1 | $(cg "$1" x "$out/cg.send" | sed 's/ / | /') |"
	l=$(relay_run 0 "$CG_SECS" "c:$CG=$out/cg.recv")
	set -- $l
	say "| relay recv | $1 | $(cg "$1" x "$out/cg.recv" | sed 's/ / | /') |"
	for f in vtunerd vtunerd-gen vtunerc; do
		callgrind_annotate "$out/cg.$f" 2>/dev/null | sed -n '/^Ir/,$p' | head -n 14 >"$out/cg.$f.top" || true
	done
fi

# ---- 3. sixteen clients on one vtunerd --------------------------------------
if part scale; then
	say ""
	say "## scale: vtunerd --sim-tuners 16, N x vtunerc --sink /dev/null on 'C 346 MHz' (50 Mbit/s), ${SECS} s"
	say "| clients | vtunerd VmRSS kB | VmHWM kB | vtunerd CPU % | vtunerd CPU s/GB | clients' CPU s/GB | total Mbit/s |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	# a client uses two connections; a per-address limit (if this vtunerd has one) off
	peraddr=()
	"$VTUNERD" --help 2>&1 | grep -q -- --max-per-addr && peraddr=(--max-per-addr 0)
	for n in 0 1 16; do
		"$VTUNERD" -f --sim --sim-tuners 16 ${peraddr[@]+"${peraddr[@]}"} --no-announce -l "127.0.0.1:$PORT" >"$out/scale-vtunerd.log" 2>&1 &
		d=$!
		pids+=("$d")
		wait_listen "$PORT"
		cl=()
		for i in $(seq 0 $((n - 1))); do
			"$VTUNERC" -f -s "127.0.0.1:$PORT" -t "$i" --sink /dev/null \
				--tune "DELIVERY_SYSTEM=DVBC,FREQUENCY=346000000,SYMBOL_RATE=6900000" \
				--pids all >"$out/scale-vtunerc$i.log" 2>&1 &
			cl+=($!)
			pids+=($!)
		done
		sleep 1
		d0=$(cpu "$d")
		t0=$(date +%s.%N)
		sleep "$SECS"
		d1=$(cpu "$d")
		t1=$(date +%s.%N)
		rss=$(rss_kb "$d")
		hwm=$(hwm_kb "$d")
		ccpu=0
		for c in ${cl[@]+"${cl[@]}"}; do ccpu=$(calc "$ccpu + $(cpu "$c")"); stop "$c"; done
		stop "$d"
		bytes=0
		rate=0	# bytes/s, the sum of the clients' rates
		for i in $(seq 0 $((n - 1))); do
			# "N bytes of TS in S s"
			read -r tsb _ _ _ _ tss _ <<<"$(grep -o '[0-9]* bytes of TS in [0-9.]* s' \
				"$out/scale-vtunerc$i.log" | tail -n 1)"
			bytes=$((bytes + tsb))
			rate=$(calc "$rate + $tsb / $tss" 0)
		done
		if [ "$n" = 0 ]; then
			say "| 0 | $rss | $hwm | $(calc "($d1 - $d0) / ($t1 - $t0) * 100" 1) | - | - | - |"
		else
			# vtunerd's CPU over the window, scaled to the clients' whole-run bytes/time
			say "| $n | $rss | $hwm | $(calc "($d1 - $d0) / ($t1 - $t0) * 100" 1) | $(calc "($d1 - $d0) / ($t1 - $t0) / ($rate / 1e9)" 2) | $(calc "$ccpu / ($bytes / 1e9)" 2) | $(calc "$rate * 8 / 1e6" 1) |"
		fi
	done
fi

# ---- 4. control round trips while TS flows ----------------------------------
if part ping; then
	say ""
	say "## control round trips (vtunerd-probe --ping-ms 20, 5 s), idle vs. full TS"
	"$VTUNERD" -f --sim --sim-tuners 1 --sim-config "$out/bench.conf" --no-announce \
		-l "127.0.0.1:$PORT" >"$out/ping-vtunerd.log" 2>&1 &
	d=$!
	pids+=("$d")
	wait_listen "$PORT"
	for k in "none 474000000" "all 474000000" "all 498000000"; do
		read -r which freq <<<"$k"
		pidopt=()
		[ "$which" = all ] && pidopt=(--pids all)
		"$PROBE" -s "127.0.0.1:$PORT" --tune "DELIVERY_SYSTEM=DVBC FREQUENCY=$freq SYMBOL_RATE=6900000" \
			${pidopt[@]+"${pidopt[@]}"} --seconds 5 --ping-ms 20 >"$out/ping-$which-$freq.log" 2>&1 || true
		say "pids=$which freq=$freq: $(grep -i 'ping\|rtt\|round' "$out/ping-$which-$freq.log" | tail -n 2 | tr '\n' ' ')"
	done
	stop "$d"
fi

# ---- 5. retunes to a ts_file transponder beside a stream --------------------
# One client retunes tuner 1 to a ts_file transponder (a 10 s, 100 MB
# capture at 80 Mbit/s) every 400 ms while another streams "T 506 MHz" on
# tuner 0 and pings every 10 ms: the TUNE round trip, and whether the other
# stream feels it.  VTUNERD_B=PATH: the same with another vtunerd build,
# alternately, ROUNDS times each.
if part retune; then
	say ""
	say "## retunes of a ts_file transponder (100 MB) every 400 ms, beside a stream with pings every 10 ms"
	"$VTSGEN" -c "$out/gen.conf" -s 10 -o "$out/capture.ts" "Bench gen 80"
	printf '[transponder Capture]\ndelsys = DVBC\nfrequency = 330000000\nsymbol_rate = 6900000\nmodulation = QAM256\nts_id = 9\nts_file = %s\n' \
		"$out/capture.ts" >"$out/capture.conf"
	say "| vtunerd | TUNE round trip p50 / max, ms | beside it: Mbit/s, ping p50 / p99 / max, ms |"
	say "| --- | --- | --- |"
	retune_run() {	# retune_run LABEL VTUNERD
		local label=$1 r p50 rmax mbps c50 c99 cmax
		"$2" -f --sim --sim-tuners 2 --sim-config "$out/capture.conf" --no-announce \
			-l "127.0.0.1:$PORT" >"$out/retune-vtunerd.log" 2>&1 &
		d=$!
		pids+=("$d")
		wait_listen "$PORT"
		"$PROBE" -s "127.0.0.1:$PORT" -t 0 --tune "DELIVERY_SYSTEM=DVBT FREQUENCY=506000000 BANDWIDTH_HZ=8000000" \
			--pids all --seconds 5 --ping-ms 10 >"$out/retune-beside.log" 2>&1 &
		r=$!
		sleep 0.5
		"$PROBE" -s "127.0.0.1:$PORT" -t 1 --tune "DELIVERY_SYSTEM=DVBC FREQUENCY=330000000 SYMBOL_RATE=6900000" \
			--pids all --seconds 4 --retune-ms 400 >"$out/retune.log" 2>&1 || true
		wait "$r" || true
		stop "$d"
		read -r p50 rmax <<<"$(sed -n 's/^tune round trips: [0-9]*, p50 \([0-9.]*\) ms, p99 [0-9.]* ms, max \([0-9.]*\) ms/\1 \2/p' "$out/retune.log")"
		mbps=$(sed -n 's/^received .*: \([0-9.]*\) Mbit\/s.*/\1/p' "$out/retune-beside.log")
		read -r c50 c99 cmax <<<"$(sed -n 's/^control round trips: [0-9]*, p50 \([0-9.]*\) ms, p99 \([0-9.]*\) ms, max \([0-9.]*\) ms/\1 \2 \3/p' "$out/retune-beside.log")"
		say "| $label | ${p50:-?} / ${rmax:-?} | ${mbps:-?}, ${c50:-?} / ${c99:-?} / ${cmax:-?} |"
	}
	for i in $(seq "$ROUNDS"); do
		retune_run "this build" "$VTUNERD"
		[ -n "${VTUNERD_B:-}" ] && retune_run "$VTUNERD_B" "$VTUNERD_B"
	done
fi

# ---- 6. 16 x 80 Mbit/s, with and without a key ------------------------------
# One vtunerd --sim --sim-tuners 16 on gen.conf's generated 80 Mbit/s
# transponder, 16 x vtunerc --sink /dev/null, for SECS s after a second to
# settle, without the key and with it (every frame sealed), alternately
# (the sealed run first in even rounds).  Lossless: every client 0
# continuity and 0 sync errors, no TS frame dropped by vtunerd (its
# counters, logged at -v when a tuner is released), no packet the sim
# lost for not being read in time, every client >= 95 % of 80 Mbit/s
# (vtunerc's own figure: its bytes over its whole run).
if part seal; then
	say ""
	say "## 16 x 80 Mbit/s ('Bench gen 80', generated), vtunerd --sim-tuners 16, 16 x vtunerc --sink /dev/null, ${SECS} s, without and with the key"
	say "| round | key | client Mbit/s min / median / max | continuity / sync errors | frames dropped by vtunerd | sim: packets not read in time | vtunerd CPU % | clients' CPU % (sum) | vtunerd CPU s/GB | clients' CPU s/GB | lossless |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	peraddr=()
	"$VTUNERD" --help 2>&1 | grep -q -- --max-per-addr && peraddr=(--max-per-addr 0)
	declare -A M	# per key: "vtunerd_s/GB clients_s/GB" a round
	declare -A OK	# per key: lossless runs
	raw6=		# every client's rate, every run
	many_run() {	# many_run ROUND KEY OPTS
		local n=16 d c i d0 d1 c0=0 c1=0 t0 t1 rate=0 cc=0 sync=0 ok=yes
		local dropped late nlog rates=() gb
		local -a opts=() cl=() f
		read -ra opts <<<"$3"
		"$VTUNERD" -f -v --sim --sim-tuners "$n" --sim-config "$out/gen.conf" \
			${peraddr[@]+"${peraddr[@]}"} --no-announce ${opts[@]+"${opts[@]}"} \
			-l "127.0.0.1:$PORT" >"$out/many-vtunerd.log" 2>&1 &
		d=$!
		pids+=("$d")
		wait_listen "$PORT"
		for i in $(seq 0 $((n - 1))); do
			"$VTUNERC" -f -s "127.0.0.1:$PORT" -t "$i" --sink /dev/null ${opts[@]+"${opts[@]}"} \
				--tune "DELIVERY_SYSTEM=DVBC,FREQUENCY=$F_GEN80,SYMBOL_RATE=6900000" \
				--pids all >"$out/many-vtunerc$i.log" 2>&1 &
			cl+=($!)
			pids+=($!)
		done
		sleep 1
		d0=$(cpu "$d")
		for c in "${cl[@]}"; do c0=$(calc "$c0 + $(cpu "$c")"); done
		t0=$(date +%s.%N)
		sleep "$SECS"
		d1=$(cpu "$d")
		for c in "${cl[@]}"; do c1=$(calc "$c1 + $(cpu "$c")"); done
		t1=$(date +%s.%N)
		for c in "${cl[@]}"; do stop "$c"; done
		# each tuner's counters are logged when its client has gone
		for i in $(seq 50); do
			nlog=$(grep -c 'TS packets, [0-9]* frames sent' "$out/many-vtunerd.log" || true)
			[ "$nlog" -ge "$n" ] && break
			sleep 0.1
		done
		stop "$d"
		cp "$out/many-vtunerd.log" "$out/many-vtunerd-$1-$2.log"
		dropped=$(grep -o '[0-9]* frames ([0-9]* packets) dropped,' "$out/many-vtunerd.log" |
			awk '{s += $1} END{print s + 0}')
		[ "$nlog" -ge "$n" ] || { dropped="? ($nlog of $n tuners logged)"; ok=no; }
		[ "$dropped" = 0 ] || ok=no
		# "WHERE: TS not read in time: N packets lost so far": the last N of each tuner
		late=$(sed -n 's/^[0-9:.]* [^ ]*: [a-z]*: \(.*\): TS not read in time: \([0-9]*\) packets.*/\1\t\2/p' \
			"$out/many-vtunerd.log" | awk -F '\t' '{v[$1] = $2} END{for (k in v) s += v[k]; print s + 0}')
		[ "$late" = 0 ] || ok=no
		for i in $(seq 0 $((n - 1))); do
			cp "$out/many-vtunerc$i.log" "$out/many-vtunerc$i-$1-$2.log"
			# "N bytes of TS in T s (R Mbit/s), C continuity and S sync error(s)"
			read -ra f <<<"$(grep -o '[0-9]* bytes of TS in [0-9.]* s ([0-9.]* Mbit/s), [0-9]* continuity and [0-9]* sync' \
				"$out/many-vtunerc$i.log" | tail -n 1)"
			if [ "${#f[@]}" -lt 14 ]; then
				rates+=("?")
				ok=no
				continue
			fi
			rates+=("${f[7]#(}")
			rate=$(calc "$rate + ${f[0]} / ${f[5]}" 0)
			cc=$((cc + f[9]))
			sync=$((sync + f[12]))
			awk -v r="${f[7]#(}" 'BEGIN{exit !(r >= 0.95 * 80)}' || ok=no
		done
		[ "$cc" = 0 ] && [ "$sync" = 0 ] || ok=no
		raw6+="run $1 $2: clients' Mbit/s ${rates[*]}"$'\n'
		# CPU over the window, against the clients' whole-run rate
		gb=$(calc "$rate * ($t1 - $t0) / 1e9" 6)
		M[$2]+="$(calc "($d1 - $d0) / $gb") $(calc "($c1 - $c0) / $gb")"$'\n'
		[ "$ok" = yes ] && OK[$2]=$((${OK[$2]:-0} + 1))
		say "| $1 | $2 | $(printf '%s\n' "${rates[@]}" | sort -g | awk '{v[NR]=$1} END{printf "%s / %s / %s", v[1], v[int((NR+1)/2)], v[NR]}') | $cc / $sync | $dropped | $late | $(calc "($d1 - $d0) / ($t1 - $t0) * 100" 1) | $(calc "($c1 - $c0) / ($t1 - $t0) * 100" 1) | $(calc "($d1 - $d0) / $gb" 2) | $(calc "($c1 - $c0) / $gb" 2) | $ok |"
	}
	for round in $(seq "$ROUNDS"); do
		if [ $((round % 2)) = 1 ]; then
			many_run "$round" clear ""
			many_run "$round" sealed "$SEAL"
		else
			many_run "$round" sealed "$SEAL"
			many_run "$round" clear ""
		fi
	done
	say ""
	printf '%s' "$raw6" | tee -a "$res"
	say "lossless: without the key ${OK[clear]:-0} of $ROUNDS runs, with it ${OK[sealed]:-0} of $ROUNDS"
	for k in 1 2; do
		say "16 x 80 Mbit/s, sealed / clear CPU/GB round by round, $([ $k = 1 ] && echo vtunerd || echo "the 16 clients"): $(paste <(printf '%s' "${M[sealed]}" | awk -v k=$k 'NF{print $k}') <(printf '%s' "${M[clear]}" | awk -v k=$k 'NF{print $k}') |
			awk '{print $1 / $2}' | sort -g |
			awk '{v[NR]=$1} END{printf "%.2f (%.2f-%.2f)", v[int((NR+1)/2)], v[1], v[NR]}')"
	done
fi

say ""
say "raw logs and callgrind profiles: $out"
