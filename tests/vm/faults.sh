# shellcheck shell=bash
# Helpers of the fault tests (tests/vm/t/4N-*.sh) around vt-watch, an
# application that stays on adapter 0 while faults happen.  Source after
# lib.sh and set TIMEOUT_MS.  faults_setup brings up the usual case;
# watch_start ARGS... starts vt-watch (log watch.log, TS rec.N); then
# `flowing SINCE SECS`, `nolock FROM TO`, `newseg`, `clean NAME` and
# `result NAME yes|no T0 T1` (which appends to recovery.txt).
# FAULTS_FRONT=cuse: the adapter is vtunerc --cuse's (adapter
# $FAULTS_ADAPTER, 8; no module) instead of the module's adapter 0.
seg=0
if [ "${FAULTS_FRONT:-ctrl}" = cuse ]; then
	FAULTS_ADAPTER=8
else
	FAULTS_ADAPTER=0
fi
: >recovery.txt

watch_start() {
	"$VT_TOOLS/vt-watch" -a "$FAULTS_ADAPTER" "$@" >watch.log 2>&1 &
	watch=$!
}

# faults_server, faults_client: the server (log srv.log) and the client
# (cli.log); FAULTS_REMOTE=satip: vtunerd's SAT>IP front (sessions of a
# client that stays silent for 10 s expire) and vtunerc --satip instead
# of vtp.
faults_server() {
	if [ "${FAULTS_REMOTE:-vtp}" = satip ]; then
		vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911 \
			--satip 10.99.0.1:554 --satip-timeout 10 --no-announce
	else
		vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
	fi
}
faults_client() {
	local remote=(-s 10.99.0.1 -t 0)

	if [ "${FAULTS_REMOTE:-vtp}" = satip ]; then
		remote=(--satip rtsp://10.99.0.1/ -D dvbt --status-file "$PWD/cli.status")
	fi
	if [ "${FAULTS_FRONT:-ctrl}" = cuse ]; then
		cuse_start cli "$FAULTS_ADAPTER" "${remote[@]}"
	else
		vtunerc_start cli /dev/vtunerc0 "${remote[@]}"
	fi
}

# fault_server_restart: vtunerd killed (-9) and started again 2 s later
# (its log so far kept as srv-1.log), the recovery checked as
# "server-restart"
fault_server_restart() {
	local t0 t1
	newseg
	t0=$(now)
	kill -9 "$(cat srv.pid)"
	sleep 2
	mv srv.log srv-1.log
	faults_server
	t1=$(now)
	result server-restart yes "$t0" "$t1"
}

# faults_setup WATCH_SECS: the module (timeout_ms=$TIMEOUT_MS; with
# FAULTS_FRONT=cuse the cuse module instead), the two
# namespaces, a one-tuner sim server and its client, and vt-watch on
# "Sim Local" (DVB-T 506 MHz, video+audio PIDs) for WATCH_SECS s at most
# (watch_end stops it: a bound under the harness's 300 s, not a schedule
# that a slow guest could outrun); returns once the TS flows without
# continuity errors.
faults_setup() {
	if [ "${FAULTS_FRONT:-ctrl}" = cuse ]; then
		modprobe cuse 2>/dev/null || skip "no cuse module"
		[ -c /dev/cuse ] || skip "no /dev/cuse"
	else
		vt_load timeout_ms="$TIMEOUT_MS"
	fi
	netns_setup
	faults_server
	faults_client
	watch_start -d dvbt -f 506000000 -p 257,258 -o rec -T "$1"
	flowing 0 30 >/dev/null || { cat watch.log; fail "no TS at the start"; }
	log "TS flowing"
	clean start
}

# watch_end: stop vt-watch; fails if a status call exceeded TIMEOUT_MS.
watch_end() {
	local end max
	kill $watch 2>/dev/null || true
	wait $watch || true
	end=$(grep "^end " watch.log) || fail "vt-watch did not finish cleanly"
	echo "$end"
	max=$(sed -n 's/.* max_ms=\([0-9.]*\) .*/\1/p' <<<"$end")
	log "longest FE_READ_STATUS: $max ms (bound $TIMEOUT_MS ms)"
	awk -v m="$max" -v b="$TIMEOUT_MS" 'BEGIN { exit !(m < b) }' ||
		fail "a frontend call took $max ms"
	echo "--- recovery"
	cat recovery.txt
}

now() { date +%s.%N; }
# flowing SINCE SECS: wait for a log line after SINCE with lock and TS;
# prints the seconds from SINCE to that line.
flowing() {
	local since=$1 end=$((SECONDS + $2)) r
	while [ $SECONDS -lt $end ]; do
		kill -0 $watch 2>/dev/null || { cat watch.log; fail "vt-watch died"; }
		r=$(awk -v s="$since" '/^t=/ {
			split($1, a, "="); split($3, l, "="); split($4, b, "=")
			if (a[2] > s && l[2] == 1 && b[2] > 0) { printf "%.1f", a[2] - s; exit }
		}' watch.log)
		[ -n "$r" ] && { echo "$r"; return 0; }
		sleep 0.5
	done
	return 1
}
# nolock FROM TO: some status line between FROM and TO reads no lock.
nolock() {
	awk -v f="$1" -v t="$2" '/^t=/ { split($1, a, "="); split($3, l, "=")
		if (a[2] > f && a[2] <= t && l[2] == 0) found = 1 }
		END { exit !found }' watch.log
}
newseg() { kill -USR1 $watch; seg=$((seg + 1)); sleep 0.2; }
# clean NAME: a segment of 2 s after a recovery; no continuity errors.
clean() {
	local s
	sleep 0.5
	newseg
	s=$seg
	sleep 2
	newseg		# closes segment s
	"$VT_TOOLS/vt-tscheck" --pids 257,258 "rec.$s" >"$1.check" || true
	tail -n 1 "$1.check"
	grep -q "^pid=257 packets=[1-9]" "$1.check" || fail "$1: no video after recovery"
	grep -q "cc_errors=0 sync_errors=0" "$1.check" ||
		fail "$1: continuity errors after recovery: $(cat "$1.check")"
}
# result NAME OUTAGE(yes|no) START END: wait for the recovery, check it
result() {
	local name=$1 outage=$2 t0=$3 t1=$4 r
	r=$(flowing "$t1" 40) || { tail -n 20 watch.log; fail "$name: TS did not flow again within 40 s"; }
	if [ "$outage" = yes ]; then
		nolock "$t0" "$(now)" || { tail -n 30 watch.log; fail "$name: status never read no lock"; }
	fi
	local fseg=$seg
	clean "$name"
	"$VT_TOOLS/vt-tscheck" --pids 257,258 "rec.$fseg" >"$name.fault.check" || true
	log "$name: flowing $r s after the fault ended"
	echo "$name recovery_s=$r $(tail -n 1 "$name.check" | grep -o 'cc_errors=[0-9]*') during_fault_$(tail -n 1 "$name.fault.check" | grep -o 'cc_errors=[0-9]*')" >>recovery.txt
}

