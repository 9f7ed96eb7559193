#!/bin/bash
# Bounded memory with slow consumers.  (1) The application stops reading
# dvr0 for 10 s: dvb-core's dvr buffer overflows (the application sees
# EOVERFLOW), vtunerd and vtunerc keep their memory (VmRSS growth < 64 MiB)
# and the stream is clean again when reading resumes.  (2) The link is
# limited to 1 Mbit/s for 6 s (the server's data queue fills; drops are
# logged if it overflows): memory stays bounded, the stream recovers.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
. "$VT_ROOT/tests/vm/faults.sh"
trap netns_cleanup EXIT

TIMEOUT_MS=1000
LIMIT_KB=$((64 * 1024))
vt_load timeout_ms=$TIMEOUT_MS
netns_setup
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
watch_start -d dvbt -f 506000000 -p 257,258 -o rec --pause 6:10 -T 110

rss() {	# rss NAME: VmRSS in kB of the daemon NAME (bash builtins only)
	local k v
	while read -r k v _; do
		[ "$k" = VmRSS: ] && { echo "$v"; return; }
	done <"/proc/$(cat "$1.pid")/status"
	echo 0
}
# The daemons are started through "ip netns exec": their pid files name
# that process, which exec()s the daemon, so /proc/PID is the daemon.
maxrss() {	# maxrss SECS: sample both for SECS s, print "srv cli" maxima
	local s=0 c=0 v end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ]; do
		v=$(rss srv); [ "$v" -gt $s ] && s=$v
		v=$(rss cli); [ "$v" -gt $c ] && c=$v
		sleep 0.5
	done
	echo "$s $c"
}
check_rss() {	# check_rss WHAT BASE_SRV BASE_CLI MAX_SRV MAX_CLI
	log "$1: VmRSS vtunerd $2 -> max $4 kB, vtunerc $3 -> max $5 kB"
	[ $(($4 - $2)) -lt $LIMIT_KB ] || fail "$1: vtunerd grew by $(($4 - $2)) kB"
	[ $(($5 - $3)) -lt $LIMIT_KB ] || fail "$1: vtunerc grew by $(($5 - $3)) kB"
	echo "$1 rss_growth_kB srv=$(($4 - $2)) cli=$(($5 - $3))" >>recovery.txt
}

flowing 0 30 >/dev/null || { cat watch.log; fail "no TS at the start"; }
base_s=$(rss srv) base_c=$(rss cli)
grep -q "^pause" watch.log && fail "paused before the base line"
# (1) the application pauses at 6 s for 10 s
while ! grep -q "^pause" watch.log; do sleep 0.2; done
read -r ms mc <<<"$(maxrss 10)"
while ! grep -q "^resume" watch.log; do sleep 0.2; done
check_rss pause "$base_s" "$base_c" "$ms" "$mc"
t1=$(now)
r=$(flowing "$t1" 20) || fail "no TS after the pause"
grep -q "read: EOVERFLOW" watch.log || fail "the application saw no EOVERFLOW"
newseg
result pause no "$t1" "$t1"

# (2) 1 Mbit/s for 6 s on the server side
base_s=$(rss srv) base_c=$(rss cli)
newseg
t0=$(now)
ip netns exec srv tc qdisc add dev veth-s root tbf rate 1mbit burst 32kbit latency 400ms
read -r ms mc <<<"$(maxrss 6)"
ip netns exec srv tc qdisc del dev veth-s root
t1=$(now)
check_rss ratelimit "$base_s" "$base_c" "$ms" "$mc"
result ratelimit no "$t0" "$t1"
# Drops are reported where they happen (the queue may absorb 6 s).
grep -h "dropped" srv.log | tail -n 3 || true
grep -h "continuity" cli.log | tail -n 3 || log "vtunerc saw no continuity errors"

watch_end
daemon_stop cli
daemon_stop srv
