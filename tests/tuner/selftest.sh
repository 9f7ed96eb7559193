#!/bin/sh
# Host self-tests of tests/tuner (no module needed):
#   make tuner-check        or    TUNER_BIN=build/tests/tuner sh tests/tuner/selftest.sh
# vt-tscheck is checked on hand-made streams (always) and on an ffmpeg
# stream with injected faults (when ffmpeg is installed).
set -u
BIN=${TUNER_BIN:-build/tests/tuner}
T=$(mktemp -d /tmp/tuner-selftest.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
fails=0
n=0

ok()   { n=$((n + 1)); echo "ok $n - $*"; }
bad()  { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }
skip() { echo "skip - $*"; }

# expect RC OUTPUT-REGEX DESCRIPTION -- COMMAND...
expect() {
	want_rc=$1; want_out=$2; desc=$3; shift 4
	out=$("$@" 2>&1); rc=$?
	if [ "$rc" -ne "$want_rc" ]; then
		bad "$desc (exit $rc, wanted $want_rc)"; echo "$out" | sed 's/^/#   /'
	elif [ -n "$want_out" ] && ! printf '%s\n' "$out" | grep -Eq -- "$want_out"; then
		bad "$desc (output lacks /$want_out/)"; echo "$out" | sed 's/^/#   /'
	else
		ok "$desc"
	fi
}

# pkt PID CC [AFC] [AF_FLAGS]: one 188-byte packet (payload zero)
pkt() {
	pid=$1; cc=$2; afc=${3:-1}; flags=${4:-}
	b1=$(( (pid >> 8) & 0x1f )); b2=$(( pid & 0xff )); b3=$(( (afc << 4) | cc ))
	printf "\\107\\$(printf %o "$b1")\\$(printf %o "$b2")\\$(printf %o "$b3")"
	if [ -n "$flags" ]; then
		printf "\\001\\$(printf %o "$flags")"
		head -c 182 /dev/zero
	else
		head -c 184 /dev/zero
	fi
}

# ---- programs' own checks ----------------------------------------------
expect 0 "0 failed" "vt-testtuner --self-test" -- "$BIN/vt-testtuner" --self-test
expect 2 "" "vt-testtuner rejects a bad --delsys" -- "$BIN/vt-testtuner" --delsys nosuch
expect 1 "vt-testtuner: $T/none: open: No such file" "vt-testtuner reports open errors" -- \
	"$BIN/vt-testtuner" -d "$T/none"
expect 0 "sizeof_vtuner_message=80" "vt-classic --print-abi (64-bit)" -- "$BIN/vt-classic" --print-abi
expect 0 "VTUNER_GET_MESSAGE=0x8008e201" "vt-classic 64-bit ioctl numbers" -- "$BIN/vt-classic" --print-abi
if [ -x "$BIN/vt-classic32" ] && "$BIN/vt-classic32" --print-abi >/dev/null 2>&1; then
	expect 0 "sizeof_vtuner_message=76" "vt-classic32 --print-abi" -- "$BIN/vt-classic32" --print-abi
	expect 0 "VTUNER_GET_MESSAGE=0x8004e201" "vt-classic32 ioctl numbers" -- "$BIN/vt-classic32" --print-abi
else
	skip "vt-classic32 not built or 32-bit programs cannot run here"
fi
expect 1 "vt-classic: $T/none: open" "vt-classic reports open errors" -- "$BIN/vt-classic" -d "$T/none"
expect 0 "operations .*seed 7" "vt-fuzz without devices terminates" -- \
	"$BIN/vt-fuzz" --iterations 100 --seed 7 --dev "$T/none" --adapter "$T/none"
# node threads and processes on nodes that take anything (/dev/null)
mkdir "$T/null"
for f in frontend0 demux0 dvr0; do ln -s /dev/null "$T/null/$f"; done
expect 0 "operations .*anomalies 0, processes [1-9]" "vt-fuzz node threads and processes" -- \
	"$BIN/vt-fuzz" --threads node --nodes 2 --procs 2 --iterations 3000 --duration 1 \
	--seed 7 --adapter "$T/null"

# ---- vt-testtuner main loop against the LD_PRELOAD mock device ---------
if [ -f "$BIN/mockdev.so" ]; then
	{ pkt 256 0; pkt 256 1; pkt 256 2; pkt 0 0; } > "$T/in.ts"
	mock() { MOCK_DEV=/mock/vtunerc0 LD_PRELOAD="$BIN/mockdev.so" "$@"; }
	expect 0 "bytes=752 " "ext: TS written once while locked" -- mock "$BIN/vt-testtuner" \
		-d /mock/vtunerc0 --log "$T/ext.log" --freq 1362000 --lock-delsys dvbs2 \
		--tone off --voltage 18 --symbol-rate 27500000 --ts "$T/in.ts" --once \
		--exit-after 1.2 --ready-file "$T/ready"
	for l in '^HELLO version=1 features=0x7 ' '^TONE 1$' '^VOLTAGE 1$' '^DISEQC e0 10 38 f0$' \
		'^SET_FRONTEND seq=1 delsys=6 freq=1362000 sr=27500000 fec=3 mod=9 rolloff=1 pilot=0 .*DTV_INNER_FEC=3 ' \
		'^LOCK 1 status=0x1f$' '^PIDLIST 0 17 256$' '^TS_DONE bytes=752$' '^EXIT msgs=5 '; do
		if grep -Eq -- "$l" "$T/ext.log"; then ok "ext log: $l"; else bad "ext log: $l"; cat "$T/ext.log"; fi
	done
	if [ -s "$T/ready" ]; then ok "ready file"; else bad "ready file"; fi
	expect 0 "last_status=0x00" "ext: no lock at another frequency" -- mock "$BIN/vt-testtuner" \
		-d /mock/vtunerc0 --log "$T/nolock.log" --freq 1500000 --exit-after 0.8
	if grep -q '^LOCK' "$T/nolock.log"; then bad "no LOCK line without lock"; else ok "no LOCK line without lock"; fi
	expect 0 "last_status=0x00" "ext: no lock with the wrong tone" -- mock "$BIN/vt-testtuner" \
		-d /mock/vtunerc0 --freq 1362000 --tone on --exit-after 0.8
	expect 0 "last_status=0x1f bytes=(3[0-9]{5}) " "classic: paced loop at 2 Mbit/s, READ_STATUS answered" -- \
		env MOCK_CLASSIC=1 MOCK_DEV=/mock/vtunerc0 LD_PRELOAD="$BIN/mockdev.so" "$BIN/vt-testtuner" \
		--classic -d /mock/vtunerc0 --log "$T/cl.log" --freq 1362000000 --ts "$T/in.ts" \
		--loop --rate 2000000 --exit-after 1.5
	for l in '^SET_FRONTEND delsys=6 freq=1362000 sr=27500000 fec=3 mod=9 rolloff=1 pilot=0 inversion=2 raw.frequency=1362000 raw.inversion=0x1a raw.symbol_rate=27500000 raw.fec_inner=21$' \
		'^READ_STATUS$' '^PIDLIST 0 17 256$'; do
		if grep -Eq -- "$l" "$T/cl.log"; then ok "classic log: $l"; else bad "classic log: $l"; cat "$T/cl.log"; fi
	done
	# --tick 10: the same rate, in one burst of writes every 10 ms
	# (80 Mbit/s for 1.5 s from the lock: about 14.9 MB)
	expect 0 "last_status=0x1f bytes=1[3-5][0-9]{6} " "classic: paced at 80 Mbit/s in 10 ms ticks" -- \
		env MOCK_CLASSIC=1 MOCK_DEV=/mock/vtunerc0 LD_PRELOAD="$BIN/mockdev.so" "$BIN/vt-testtuner" \
		--classic -d /mock/vtunerc0 --freq 1362000000 --ts "$T/in.ts" \
		--loop --rate 80000000 --tick 10 --exit-after 1.5
	env MOCK_DEV=/mock/vtunerc0 LD_PRELOAD="$BIN/mockdev.so" "$BIN/vt-testtuner" \
		-d /mock/vtunerc0 --log "$T/term.log" --exit-after 20 2>/dev/null &
	pid=$!; sleep 0.5; kill -TERM $pid; wait $pid; rc=$?
	if [ $rc -eq 0 ] && grep -q '^EXIT signal=15 ' "$T/term.log"; then ok "SIGTERM: clean exit"; else bad "SIGTERM: exit $rc"; fi
	expect 0 "mock: responses=2 " "--exit-after-msgs" -- mock "$BIN/vt-testtuner" -d /mock/vtunerc0 \
		--exit-after-msgs 2 --exit-after 5
	expect 0 "mock: responses=5 pushes=0 last_status=0x1f bytes=0 " "vt-classic answers the classic messages" -- \
		env MOCK_CLASSIC=1 MOCK_DEV=/mock/vtunerc0 LD_PRELOAD="$BIN/mockdev.so" "$BIN/vt-classic" \
		-d /mock/vtunerc0 --log "$T/vc.log" --exit-after 1
	for l in '^SET_FRONTEND delsys=6 freq=1362000 sr=27500000 fec=3 mod=9 rolloff=1 pilot=0 inversion=2 ' \
		'^TONE 1$' '^PIDLIST 0 17 256$' '^READ_STATUS$' '^EXIT msgs=6$'; do
		if grep -Eq -- "$l" "$T/vc.log"; then ok "vt-classic log: $l"; else bad "vt-classic log: $l"; cat "$T/vc.log"; fi
	done
else
	skip "mockdev.so not built: vt-testtuner main loop"
fi

# ---- vt-tscheck on hand-made streams ------------------------------------
{ pkt 256 0; pkt 256 1; pkt 256 2; pkt 0 0; pkt 256 3; } > "$T/clean.ts"
expect 0 "pid=256 packets=4 cc_errors=0" "clean stream" -- "$BIN/vt-tscheck" "$T/clean.ts"
{ pkt 256 0; pkt 256 1; pkt 256 3; } > "$T/gap.ts"
expect 1 "pid=256 packets=3 cc_errors=1" "lost packet" -- "$BIN/vt-tscheck" "$T/gap.ts"
expect 1 "ccerr pid=256 packet=2 of=3 cc=3 after=1" "where the first error is" -- "$BIN/vt-tscheck" "$T/gap.ts"
{ pkt 256 0; pkt 256 1; pkt 256 1; pkt 256 2; } > "$T/dup.ts"
expect 0 "cc_errors=0 duplicates=1" "one duplicate allowed" -- "$BIN/vt-tscheck" "$T/dup.ts"
{ pkt 256 0; pkt 256 1; pkt 256 1; pkt 256 1; } > "$T/dup2.ts"
expect 1 "cc_errors=1 duplicates=1" "second duplicate is an error" -- "$BIN/vt-tscheck" "$T/dup2.ts"
{ pkt 256 0; pkt 256 1; pkt 256 9 3 128; pkt 256 10; } > "$T/disc.ts"
expect 0 "cc_errors=0 duplicates=0 discontinuities=1" "discontinuity_indicator" -- "$BIN/vt-tscheck" "$T/disc.ts"
{ pkt 256 0; pkt 256 1; pkt 256 7 2; pkt 256 2; } > "$T/afonly.ts"
expect 0 "pid=256 packets=4 cc_errors=0" "adaptation-only packet" -- "$BIN/vt-tscheck" "$T/afonly.ts"
{ pkt 8191 5; pkt 8191 9; pkt 256 0; } > "$T/null.ts"
expect 0 "cc_errors=0" "null packets not checked" -- "$BIN/vt-tscheck" "$T/null.ts"
{ pkt 256 0; printf 'garbage'; pkt 256 1; pkt 256 2; } > "$T/sync.ts"
expect 1 "sync_errors=1 dropped_bytes=7 trailing_bytes=0" "garbage between packets" -- "$BIN/vt-tscheck" "$T/sync.ts"
expect 0 "pid=256 packets=3 cc_errors=0" "packets after resync are found" -- sh -c \
	"'$BIN/vt-tscheck' '$T/sync.ts'; true"
{ pkt 256 0; pkt 256 1; head -c 100 "$T/clean.ts"; } > "$T/trail.ts"
expect 1 "trailing_bytes=100" "trailing partial packet" -- "$BIN/vt-tscheck" "$T/trail.ts"
{ pkt 256 0; pkt 17 0; pkt 256 1; pkt 17 2; } > "$T/sel.ts"
expect 0 "checked_packets=2 pids=1 cc_errors=0" "--pid selects the checked PIDs" -- \
	"$BIN/vt-tscheck" --pid 256 "$T/sel.ts"
expect 1 "pid=17 packets=2 cc_errors=1" "errors on other PIDs without --pid" -- "$BIN/vt-tscheck" "$T/sel.ts"
{ pkt 256 0; pkt 256 1; pkt 256 2; pkt 256 3; } > "$T/only256.ts"
expect 0 "identical, 4 packets" "compare on one PID" -- "$BIN/vt-tscheck" --compare "$T/clean.ts" "$T/only256.ts" --pids 256
expect 1 "differ" "compare on all PIDs" -- "$BIN/vt-tscheck" --compare "$T/clean.ts" "$T/only256.ts"
expect 1 "differ at selected packet #2" "compare finds a lost packet" -- \
	"$BIN/vt-tscheck" --compare "$T/clean.ts" "$T/gap.ts" --pids 256
expect 0 "packet=2 offset=376 pid=256 cc=3" "--list" -- "$BIN/vt-tscheck" --list "$T/gap.ts"
expect 2 "" "missing file" -- "$BIN/vt-tscheck" "$T/none.ts"
expect 0 "pid=256 packets=4" "stdin" -- sh -c "'$BIN/vt-tscheck' - < '$T/clean.ts'"

# ---- vt-tscheck on an ffmpeg stream with faults --------------------------
if command -v ffmpeg >/dev/null 2>&1; then
	ffmpeg -loglevel error -y -f lavfi -i sine=frequency=1000:duration=3 -c:a mp2 \
		-f mpegts -mpegts_service_id 100 -metadata service_name=Test \
		-metadata service_provider=vtuner "$T/ff.ts" </dev/null
	expect 0 "cc_errors=0 sync_errors=0" "ffmpeg stream is clean" -- "$BIN/vt-tscheck" "$T/ff.ts"
	apid=$("$BIN/vt-tscheck" "$T/ff.ts" | sed -n 's/^pid=\([0-9]*\) packets=\([0-9]*\).*/\2 \1/p' |
		sort -n | tail -1 | cut -d' ' -f2)
	idx=$("$BIN/vt-tscheck" --list "$T/ff.ts" | grep " pid=$apid " | sed -n '100s/packet=\([0-9]*\) .*/\1/p')
	total=$(($(wc -c < "$T/ff.ts") / 188))
	{ head -c $((idx * 188)) "$T/ff.ts"; tail -c $(((total - idx - 1) * 188)) "$T/ff.ts"; } > "$T/ff-drop.ts"
	expect 1 "pid=$apid .*cc_errors=1 " "dropped packet detected" -- "$BIN/vt-tscheck" "$T/ff-drop.ts"
	expect 0 "identical" "compare without the damaged PID" -- \
		"$BIN/vt-tscheck" --compare "$T/ff.ts" "$T/ff-drop.ts" --pids 0,4096
	expect 1 "differ" "compare with the damaged PID" -- \
		"$BIN/vt-tscheck" --compare "$T/ff.ts" "$T/ff-drop.ts" --pids "0,$apid"
	cp "$T/ff.ts" "$T/ff-sync.ts"
	printf '\000' | dd of="$T/ff-sync.ts" bs=1 seek=$((idx * 188)) conv=notrunc 2>/dev/null
	expect 1 "sync_errors=1 dropped_bytes=188" "broken sync byte detected" -- "$BIN/vt-tscheck" "$T/ff-sync.ts"
	{ head -c $(((idx + 1) * 188)) "$T/ff.ts"; tail -c $(((total - idx) * 188)) "$T/ff.ts"; } > "$T/ff-dup.ts"
	expect 0 "pid=$apid .*cc_errors=0 duplicates=1" "duplicated packet accepted" -- "$BIN/vt-tscheck" "$T/ff-dup.ts"
else
	skip "ffmpeg not installed: ffmpeg stream checks"
fi

echo "tuner: $((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
