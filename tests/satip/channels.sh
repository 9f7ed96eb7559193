#!/bin/bash
# tests/satip/channels.sh - vtunerd --satip-channels FILE: the services of
# a dvbv5 channel file (dvbv5-scan -o) in the SAT>IP channel list
# /channels.m3u, after the simulated tuners' own; the ASan + UBSan
# vtunerd on loopback.
# * --check: a good file passes, a bad one exits 2 naming FILE:LINE, the
#   option needs --satip;
# * curl /channels.m3u: the sim's services, then the file's (DVB-S2 at
#   DiSEqC position B, DVB-T, DVB-C) as rtsp:// URLs with their queries
#   and PIDs; a service without PIDs skipped with a warning naming its
#   line;
# * a bad file at startup: exit 1 with the message;
# * no sanitizer report, exit 0 on SIGTERM.
# Usage: channels.sh BUILD_DIR (needs $B/san/server/vtunerd: make san;
# curl).  KEEP=1 keeps the work directory.
# Ends with one line "N passed, N failed".
set -uo pipefail
B=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
VTD=${VTD:-$B/san/server/vtunerd}
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-satip-ch.XXXXXX")
PORT=$((20000 + ($$ * 7) % 20000))
pid=

cleanup() {
	exec 2>/dev/null
	[ -n "$pid" ] && kill -9 "$pid"
	if [ -n "${KEEP:-}" ]; then echo "# kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT

# shellcheck source=tests/tap.sh
. "$HERE/../tap.sh"
need_san "$VTD"
if ! command -v curl >/dev/null; then
	fail "curl missing (apt-get install curl)"
	echo "$passed passed, $failed failed"
	exit 1
fi

cat >"$W/ch.conf" <<'CONF'
# dvbv5-scan -l UNIVERSAL -S 1 -o ch.conf, then DVB-T and DVB-C
[Das Erste HD]
	SERVICE_ID = 10301
	VIDEO_PID = 5101
	AUDIO_PID = 5102 5103
	PID_06 = 5104
	LNB = UNIVERSAL
	SAT_NUMBER = 1
	FREQUENCY = 11493750
	INVERSION = AUTO
	SYMBOL_RATE = 22000000
	INNER_FEC = 2/3
	MODULATION = PSK/8
	PILOT = AUTO
	ROLLOFF = 25
	POLARIZATION = HORIZONTAL
	STREAM_ID = 0
	DELIVERY_SYSTEM = DVBS2

[EPG data]
	SERVICE_ID = 10302
	PID_05 = 5170
	FREQUENCY = 11493750
	SYMBOL_RATE = 22000000
	DELIVERY_SYSTEM = DVBS2

[Beethoven]
	SERVICE_ID = 2
	AUDIO_PID = 273
	FREQUENCY = 474000000
	MODULATION = QAM/16
	BANDWIDTH_HZ = 8000000
	CODE_RATE_HP = 2/3
	DELIVERY_SYSTEM = DVBT

[VT_One]
	SERVICE_ID = 100
	VIDEO_PID = 256
	AUDIO_PID = 257
	FREQUENCY = 346000000
	SYMBOL_RATE = 6900000
	INNER_FEC = NONE
	MODULATION = QAM/256
	DELIVERY_SYSTEM = DVBC/ANNEX_A
CONF
printf '[Bad]\n\tDELIVERY_SYSTEM = DVBS2\n\tFREQUENCY = 11493.75\n' >"$W/bad.conf"

# ---- --check -------------------------------------------------------------
"$VTD" --check --sim --satip "127.0.0.1:$PORT" \
	--satip-channels "$W/ch.conf" >"$W/good.out" 2>&1
check_or_show "--check: a good channel file passes" \
	[ $? = 0 ] -- "$W/good.out"
"$VTD" --check --sim --satip "127.0.0.1:$PORT" \
	--satip-channels "$W/bad.conf" >"$W/check.out" 2>&1
rc=$?
check_or_show "--check: a bad channel file: exit 2, FILE:LINE" \
	grep -q "bad.conf:3: bad FREQUENCY '11493.75'" "$W/check.out" -- "$W/check.out"
check "--check: a bad channel file: status $rc is 2" [ "$rc" = 2 ]
"$VTD" --check --sim --satip-channels "$W/ch.conf" >"$W/nosatip.out" 2>&1
rc=$?
check_or_show "--satip-channels without --satip: exit 2" \
	grep -q "needs --satip" "$W/nosatip.out" -- "$W/nosatip.out"
check "--satip-channels without --satip: status $rc is 2" [ "$rc" = 2 ]

# ---- a bad file at startup -----------------------------------------------
"$VTD" --sim -l "127.0.0.1:$((PORT + 1))" --satip "127.0.0.1:$PORT" \
	--satip-channels "$W/bad.conf" --no-announce -f >"$W/bad.log" 2>&1
rc=$?
check_or_show "a bad channel file at startup: exit 1 with the message" \
	grep -q "satip-channels .*bad.conf:3: bad FREQUENCY" "$W/bad.log" \
	-- "$W/bad.log"
check "a bad channel file at startup: status $rc is 1" [ "$rc" = 1 ]

# ---- the list --------------------------------------------------------------
for try in 1 2 3 4 5; do
	"$VTD" --sim -l "127.0.0.1:$((PORT + 1))" --satip "127.0.0.1:$PORT" \
		--satip-channels "$W/ch.conf" --no-announce -f -v \
		>>"$W/vtd.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		curl -s --max-time 2 "http://127.0.0.1:$PORT/channels.m3u" \
			-o "$W/list.m3u" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && break
	wait "$pid"
	pid=
	grep -q "Address already in use" "$W/vtd.log" || break
	PORT=$((PORT + 2 + try * 97))
done
U="rtsp://127.0.0.1:$PORT/?"
# the file's services, in its order, after the sim's
tr -d '\r' <"$W/list.m3u" | grep -A1 '^#EXTINF' | grep -v '^--$' |
	tail -n 6 >"$W/tail.m3u"
cat >"$W/want.m3u" <<WANT
#EXTINF:0,Das Erste HD
${U}src=2&freq=11493.75&pol=h&ro=0.25&msys=dvbs2&mtype=8psk&sr=22000&fec=23&pids=0,5101,5102,5103,5104
#EXTINF:0,Beethoven
${U}freq=474&msys=dvbt&mtype=16qam&fec=23&bw=8&pids=0,273
#EXTINF:0,VT_One
${U}freq=346&msys=dvbc&mtype=256qam&sr=6900&pids=0,256,257
WANT
check_or_show "/channels.m3u: the file's services, their queries and PIDs" \
	diff -u "$W/want.m3u" "$W/tail.m3u" -- "$W/list.m3u"
check_or_show "/channels.m3u: the sim's services first" \
	grep -q '^#EXTINF:0,Sim One HD' "$W/list.m3u" -- "$W/list.m3u"
check_or_show "a service without PIDs: skipped, its line named" \
	grep -q "ch.conf:20: service 'EPG data': no video or audio PID, skipped" \
	"$W/vtd.log" -- "$W/vtd.log"
desc_names_list() {
	curl -s --max-time 2 "http://127.0.0.1:$PORT/desc.xml" |
		grep -q "/channels.m3u"
}
check_or_show "desc.xml names the list" desc_names_list -- "$W/vtd.log"

stopped() {	# stopped PID: exit 0 on SIGTERM within 10 s
	kill -TERM "$1"
	for _ in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	wait "$1"
}
if [ -n "$pid" ]; then
	check_or_show "vtunerd: exit 0 on SIGTERM" stopped "$pid" -- "$W/vtd.log"
	pid=
else
	fail "vtunerd did not start"
	show "$W/vtd.log"
fi
reports=$(ls "$W"/asan.* "$W"/ubsan.* 2>/dev/null)
if [ -z "$reports" ] &&
   ! cat "$W"/*.log | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"; then
	ok "no sanitizer report"
else
	fail "sanitizer reports"
	# shellcheck disable=SC2086
	show $reports "$W/vtd.log"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
