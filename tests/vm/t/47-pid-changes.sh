#!/bin/bash
# PID changes while the TS flows, on a real dvb-core driver behind the
# server: an application records Beethoven's audio (vt-watch, PID 273 to
# dvr0) while another adds and removes PIDs on the same adapter and
# switches the whole TS on and off (vt-pidchurn), so that vtunerd's dvb
# backend starts and stops vidtv's filters all along, the whole TS
# overlapping the PID filters it replaces.  The same runs on vidtv
# directly.  Through vtuner the audio must have no continuity error and no
# duplicate, and at least 90 % of the packets of the direct run; every
# PID the churn filters must deliver there as it does directly.
# vm-timeout: 240
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vidtv_load
wait_for /dev/dvb/adapter0/frontend0 10 || fail "vidtv adapter missing"
vt_load
wait_for /dev/dvb/adapter1/frontend0 10 || fail "virtual adapter missing"

audio=273
# run ADAPTER NAME: record the audio for 10 s while the PIDs change
run() {
	local a=$1 name=$2
	"$VT_TOOLS/vt-watch" -a "$a" -d dvbt -f 474000000 -b 8000000 \
		-p "$audio" -o "$name" -T 10 >"$name.watch" 2>&1 &
	local watch=$!
	sleep 1.5
	# 16 17 18: NIT, SDT, EIT; 8192: the whole TS; 300: a PID not in
	# the mux; one change every 250 ms, each PID on and off twice
	"$VT_TOOLS/vt-pidchurn" -a "$a" -d 7 -s 250 16 8192 17 300 18 \
		>"$name.churn" 2>&1 || { cat "$name.churn"; fail "vt-pidchurn on adapter $a"; }
	wait "$watch" || { cat "$name.watch"; fail "vt-watch on adapter $a"; }
	grep -v '^[+-]' "$name.churn"
	"$VT_TOOLS/vt-tscheck" "$name.0" >"$name.check" || true
	cat "$name.check"
}
# vidtv directly first: vtunerd holds its frontend once a client opens it
run 0 direct
netns_setup
vtunerd_start srv -v --adapter 0 -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
run 1 remote

changes=$(grep -c '^[+-]' remote.churn)
[ "$changes" -ge 25 ] || fail "only $changes PID changes through vtuner"
grep -q '^+8192' remote.churn && grep -q '^-8192' remote.churn ||
	fail "the whole TS was not switched on and off"
line() { grep "^pid=$audio " "$1" || true; }
d=$(line direct.check)
r=$(line remote.check)
[ -n "$d" ] || fail "no audio in the direct recording"
[ -n "$r" ] || fail "no audio through vtuner"
dn=$(sed 's/.* packets=\([0-9]*\).*/\1/' <<<"$d")
rn=$(sed 's/.* packets=\([0-9]*\).*/\1/' <<<"$r")
log "audio packets: direct $dn, through vtuner $rn"
[ $((rn * 10)) -ge $((dn * 9)) ] || fail "through vtuner $rn audio packets, direct $dn (< 90 %)"
grep -q "cc_errors=0 duplicates=0 " <<<"$r" ||
	fail "continuity errors or duplicates in the audio through vtuner: $r"
# only the recorded PID reaches dvr0 (the churn reads its own filters)
others=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' remote.check | grep -vx "$audio" || true)
[ -z "$others" ] || fail "unrequested PIDs in the recording: $others"
# what the churn's own filters got: all but 300 (not in the mux) carry
# something directly, and must through vtuner (windows of ~1 s: a loose
# bound; the whole TS is most of the bytes)
for p in 16 17 18 8192; do
	db=$(sed -n "s/^pid=$p bytes=//p" direct.churn)
	rb=$(sed -n "s/^pid=$p bytes=//p" remote.churn)
	[ "${db:-0}" -gt 0 ] || fail "PID $p delivered nothing directly"
	[ $((rb * 2)) -ge "$db" ] || fail "PID $p: $rb bytes through vtuner, $db directly"
done
if grep -q "not delivered\|refused\|SET_PIDS" srv.log cli.log; then
	grep "not delivered\|refused\|SET_PIDS" srv.log cli.log
	fail "the server could not deliver every PID"
fi
sets=$(grep -c "PIDs.*: ok" srv.log || true)
log "PID sets applied by vtunerd: $sets"
[ "$sets" -ge 25 ] || fail "vtunerd applied only $sets PID sets"
daemon_stop cli
daemon_stop srv
