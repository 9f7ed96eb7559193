#!/bin/bash
# A filter closed and another opened on the same PID at once, over a
# link with 40 ms of delay: czap -r -p reads the PAT through a section
# filter, closes it and records PID 0 to dvr0 (gnutv does the same).
# vidtv is behind vtunerd; czap records on the module adapter (1) and on
# a CUSE adapter (8), three times each.  vtunerc keeps the PID in the
# server's set for a moment (src/client/pidset.h): vtunerd's filter runs
# on, and the recording's PAT, PMT and audio have no continuity error.
# Before, the server stopped PID 0 and started it again: vidtv restarted
# its stream (its counters at 0), and the packets of before the stop,
# 40 ms on the way, reached the new filter first (1 in 6 to 1 in 2 of the
# recordings had a continuity error on PID 0).
# vm-cost: 45 30%
# vm-timeout: 240
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vidtv_load
wait_for /dev/dvb/adapter0/frontend0 10 || fail "vidtv adapter missing"
vt_load
wait_for /dev/dvb/adapter1/frontend0 10 || fail "virtual adapter missing"
echo "Beethoven:474000000:INVERSION_AUTO:6900000:FEC_NONE:QAM_AUTO:0:273:2176" >c.conf
netns_setup
ip netns exec srv tc qdisc add dev veth-s root netem delay 40ms
vtunerd_start srv --adapter 0 -l 10.99.0.1:5911 -v
bad=()
# czap_runs ADAPTER: three recordings
czap_runs() {
	local a=$1 i n pid p
	for i in 1 2 3; do
		n=$a-$i
		stdbuf -oL czap -a "$a" -c c.conf -r -p Beethoven >"czap$n.out" 2>&1 &
		pid=$!
		dvr_record "$a" 2 "/tmp/czap$n.ts"
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		"$VT_TOOLS/vt-tscheck" "/tmp/czap$n.ts" >"czap$n.check" || true
		sed "s/^/adapter $a, run $i: /" "czap$n.check"
		for p in 0 257 273; do
			grep -q "^pid=$p packets=[1-9]" "czap$n.check" ||
				fail "adapter $a: czap's recording lacks PID $p"
		done
		if grep -q "^ccerr" "czap$n.check"; then bad+=("adapter $a, run $i"); fi
	done
}
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
czap_runs 1
daemon_stop cli
cuse_start cuse 8 -s 10.99.0.1 -t 0
czap_runs 8
daemon_stop cuse
# the server's PID sets: PID 0 never left under czap
grep "PIDs: " "${VT_LOGDIR:-$VT_RESULTS}/srv.log" | head -n 12 || true
[ ${#bad[@]} = 0 ] || fail "continuity errors in czap's recordings: ${bad[*]}"
daemon_stop srv
