# shellcheck shell=bash
# lib.sh - what the SAT>IP tests share (clients.sh, remote.sh): starting
# vtunerd --satip, waiting, and checking a recording PID by PID.  Source
# it after tests/tap.sh; uses $W (work directory), $PORT (the next port
# to try), $VTD (vtunerd), $TSCHECK (vt-tscheck) and $HERE (this
# directory).

rtspc() { python3 "$HERE/rtspc.py" "$@"; }

# start_vtd NAME OPTION...: vtunerd --satip on the next free port pair
# (SAT>IP on $port, vtp on $port + 1), log $W/NAME.log; sets $port, $pid
start_vtd() {
	local name=$1 try

	shift
	for try in 1 2 3 4 5; do
		port=$PORT
		PORT=$((PORT + 2))
		"$VTD" --sim -l "127.0.0.1:$((port + 1))" --satip "127.0.0.1:$port" \
			--no-announce -f -v "$@" >>"$W/$name.log" 2>&1 &
		pid=$!
		for _ in $(seq 100); do
			rtspc "127.0.0.1:$port" expect 200 OPTIONS BASE/ \
				>/dev/null 2>&1 && return 0
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$pid" 2>/dev/null && return 1	# up, not answering
		wait "$pid"
		grep -q "Address already in use" "$W/$name.log" || return 1
		PORT=$((PORT + 1 + try * 97))
	done
	return 1
}
within() {	# within SECONDS COMMAND...: succeeds within SECONDS
	local _

	for _ in $(seq $(($1 * 10))); do
		"${@:2}" && return 0
		sleep 0.1
	done
	return 1
}
# whole FILE: cut to whole TS packets (a client stopped mid-packet)
whole() {
	local n

	[ -s "$1" ] || return 1
	n=$(stat -c %s "$1")
	truncate -s $((n / 188 * 188)) "$1"
}
# ts_pids FILE PID:RATE...: the recording holds exactly these PIDs, none
# with a continuity or sync error, each as many packets as RATE (a
# second) over the time its PATs span (+-35 %, at least 1.5 s of it);
# why in FILE.why
ts_pids() {
	local f=$1

	shift
	whole "$f" || { echo "$f: empty" >"$f.why"; return 1; }
	if ! "$TSCHECK" "$f" >"$f.check" 2>&1; then
		{ echo "vt-tscheck $f: errors"; cat "$f.check"; } >"$f.why"
		return 1
	fi
	awk -v spec="$*" '
	BEGIN { n = split(spec, s, " ")
		for (i = 1; i <= n; i++) { split(s[i], pr, ":"); rate[pr[1]] = pr[2] } }
	/^pid=/ { split($1, a, "="); split($2, b, "="); got[a[2]] = b[2] }
	END {
		bad = 0
		for (p in got) if (!(p in rate)) { print "PID " p ": " got[p] " packets, not asked for"; bad = 1 }
		for (p in rate) if (!(p in got)) { print "PID " p ": missing"; bad = 1 }
		secs = got[0] / 10
		if (secs < 1.5) { print "only " got[0] " PATs (" secs " s)"; bad = 1 }
		for (p in rate) if (p in got && secs > 0) {
			r = got[p] / secs
			if (r < rate[p] * 0.65 || r > rate[p] * 1.35) {
				printf "PID %s: %d packets in %.1f s: %.0f/s, not %d/s\n", p, got[p], secs, r, rate[p]
				bad = 1
			}
		}
		exit bad
	}' "$f.check" >"$f.why" 2>&1 || { cat "$f.check" >>"$f.why"; return 1; }
}
