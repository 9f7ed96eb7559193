#!/bin/bash
# tests/satip/wscan.sh - w_scan_cpp (Debian's) scans a satellite through
# vtunerd's SAT>IP server (-t: its built-in copy of vdr-plugin-satip,
# which finds the server by SSDP) and must find every service of the
# simulated transponders that are on its list of the satellite.
# vtunerd (ASan + UBSan, --sim) and w_scan_cpp run in two network
# namespaces joined by a veth pair, as two hosts.
#
# w_scan_cpp has no option for a transponder list of one's own: it scans
# its built-in list of the satellite (-s), about 4 s for each transponder
# that does not lock, and follows the NITs.  Its S19E2 list has the
# sim's 10847 V and 11362 H, not 12188 V (only 12188 H 27500 DVB-S; the
# sim's is at DiSEqC position 1, src=2 anyway), but 119 entries: an
# 8-minute scan that finds the six services, run only with
# VT_WSCAN_S19E2=1.  The default scan is of S162E0 (Superbird B3, 10
# entries, 45 s), with two transponders of its list added to the sim's
# world by --sim-config, at position 0 (src=1): 12314 H (high band, 18 V)
# and 12403 V (high band, 13 V), DVB-S2 QPSK 3/4.
#
# Needs root (ip netns) and w_scan_cpp; skipped without them.
# Usage: wscan.sh BUILD_DIR.  Ends with "N passed, N failed".
set -uo pipefail
B=${1:-build}
VTD=$B/san/server/vtunerd
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-wscan.XXXXXX")
N=$(($$ % 200 + 20))
NA=vtwsa$$
NB=vtwsb$$
SA=10.79.$N.1
SB=10.79.$N.2
RTSP=8554
vtd_pid=

# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"

cleanup() {
	[ -n "$vtd_pid" ] && kill -9 "$vtd_pid" 2>/dev/null
	for p in $(jobs -p); do kill -9 "$p" 2>/dev/null; done
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	if [ -n "${VT_KEEP:-}" ]; then echo "# kept $W"; else rm -rf "$W"; fi
}
trap cleanup EXIT
done_() { echo "$passed passed, $failed failed"; exit $((failed > 0)); }

[ -x "$VTD" ] || { fail "$VTD missing (make san)"; done_; }
if ! command -v w_scan_cpp >/dev/null; then
	skip "w_scan_cpp: not installed (apt-get install w-scan-cpp)"
	done_
fi
if [ "$(id -u)" != 0 ] || ! ip netns add "$NA" 2>/dev/null; then
	skip "w_scan_cpp: needs root and ip netns"
	done_
fi
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:log_path=$W/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$W/ubsan"

ip netns add "$NB"
A() { ip netns exec "$NA" "$@"; }
Bn() { ip netns exec "$NB" "$@"; }
A ip link set lo up
Bn ip link set lo up
A ip link add veth-a type veth peer name veth-b netns "$NB"
A ip addr add "$SA/24" dev veth-a
Bn ip addr add "$SB/24" dev veth-b
A ip link set veth-a up
Bn ip link set veth-b up
A ip route add 239.0.0.0/8 dev veth-a
Bn ip route add 239.0.0.0/8 dev veth-b

wait_for() {	# wait_for SECONDS COMMAND...: poll every 0.2 s
	local n=$(($1 * 5))

	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.2
		n=$((n - 1))
	done
	return 1
}

# two transponders of w_scan_cpp's S162E0 list (its first and its
# seventh entry), a network of their own (the NIT lists both)
cat >"$W/sim.conf" <<'CONF'
[transponder Superbird 12314 H]
delsys = DVBS2
frequency = 12314 MHz
polarisation = H
position = 0
symbol_rate = 5180000
modulation = QPSK
fec = 3/4
rolloff = 35
ts_id = 0x162
network_id = 0x162
network_name = Sim Pacific
orbit = 162.0E
bitrate = 7000000

[service Sim Pacific TV]
id = 1621
provider = Sim Pacific
pmt_pid = 0x200
video_pid = 0x201
audio_pid = 0x202
video_bitrate = 2000000

[service Sim Pacific Radio]
id = 1622
provider = Sim Pacific
type = radio
pmt_pid = 0x210
audio_pid = 0x212

[transponder Superbird 12403 V]
delsys = DVBS2
frequency = 12403 MHz
polarisation = V
position = 0
symbol_rate = 15150000
modulation = QPSK
fec = 3/4
rolloff = 35
ts_id = 0x163
network_id = 0x162
network_name = Sim Pacific
orbit = 162.0E
bitrate = 20000000

[service Sim Pacific News]
id = 1631
provider = Sim Pacific
pmt_pid = 0x300
video_pid = 0x301
audio_pid = 0x302

[service Sim Pacific Music]
id = 1632
provider = Sim Pacific
type = radio
pmt_pid = 0x310
audio_pid = 0x312
CONF

ip netns exec "$NA" "$VTD" --sim --sim-tuners 2 --sim-config "$W/sim.conf" \
	-l 127.0.0.1:5911 --satip "$SA:$RTSP" -f -vv >"$W/vtd.log" 2>&1 &
vtd_pid=$!
check_or_show "vtunerd --satip $SA:$RTSP --sim-config (S162E0 12314 H, 12403 V) starts" \
	wait_for 10 grep -q "SSDP: SAT>IP server uuid:.* on veth-a" "$W/vtd.log" -- "$W/vtd.log"

# scan SAT OUT SECONDS: w_scan_cpp -fs -s SAT -t, channels.conf into OUT
# (and its plugin's "SATIP:" lines), the scan's log into OUT.log
scan() {
	local rc=0

	timeout "$3" ip netns exec "$NB" w_scan_cpp -fs -s "$1" -t -v \
		>"$2" 2>"$2.log" || rc=$?
	echo "# w_scan_cpp -fs -s $1 -t: exit status $rc, $(grep -c 'Action():873' "$2.log") transponders tried"
	return "$rc"
}
# has OUT 'CHANNELS.CONF LINE REGEX'...: each a line of OUT
has() {
	local f=$1 re

	shift
	for re in "$@"; do
		grep -Eq "^$re\$" "$f" || { echo "# no line like: $re"; return 1; }
	done
}

check_or_show "w_scan_cpp -fs -s S162E0 -t ends (exit 0, at most 80 s)" \
	scan S162E0 "$W/s162.conf" 80 -- "$W/s162.conf.log"
sed 's/^/#   /' "$W/s162.conf"
check_or_show "w_scan_cpp finds vtunerd by SSDP: Adding server '$SA|DVBS2-2|vtunerd'" \
	grep -q "SATIP: Adding server '$SA|DVBS2-2|vtunerd'" "$W/s162.conf" -- "$W/s162.conf"
check_or_show "vtunerd: SETUP src=1 freq=12314 pol=h msys=dvbs2 mtype=qpsk sr=5180 fec=34, locked" \
	bash -c "grep -Eq 'SETUP /\?src=1&freq=12314(\.0+)?&pol=h&msys=dvbs2&mtype=qpsk&sr=5180&fec=34' '$W/vtd.log' &&
		grep -q 'locked on Superbird 12314 H' '$W/vtd.log'" -- "$W/vtd.log"
check_or_show "vtunerd: 12403 V (13 V, tone on) tuned and locked" \
	bash -c "grep -Eq '(SETUP /|PLAY /stream=[0-9]+)\?src=1&freq=12403(\.0+)?&pol=v&msys=dvbs2&mtype=qpsk&sr=15150&fec=34' '$W/vtd.log' &&
		grep -q 'locked on Superbird 12403 V' '$W/vtd.log'" -- "$W/vtd.log"
# channels.conf: NAME;PROVIDER:FREQ:PARAMS:SOURCE:SR:VPID:APID:TPID:CA:SID:NID:TID:RID
check_or_show "12314 H: Sim Pacific TV (SID 1621, video 513, audio 514) and Sim Pacific Radio (1622, audio 530)" \
	has "$W/s162.conf" \
	"Sim Pacific TV;Sim Pacific:12314:H[^:]*S1[^:]*:S162E:5180:513=2:514=eng@3:0:0:1621:354:354:0" \
	"Sim Pacific Radio;Sim Pacific:12314:H[^:]*S1[^:]*:S162E:5180:0:530=eng@3:0:0:1622:354:354:0" \
	-- "$W/s162.conf"
check_or_show "12403 V: Sim Pacific News (SID 1631, video 769, audio 770) and Sim Pacific Music (1632, audio 786)" \
	has "$W/s162.conf" \
	"Sim Pacific News;Sim Pacific:12403:V[^:]*S1[^:]*:S162E:15150:769=2:770=eng@3:0:0:1631:354:355:0" \
	"Sim Pacific Music;Sim Pacific:12403:V[^:]*S1[^:]*:S162E:15150:0:786=eng@3:0:0:1632:354:355:0" \
	-- "$W/s162.conf"
check_or_show "no other channel found (4 lines)" \
	test "$(grep -vc "^SATIP" "$W/s162.conf")" = 4 -- "$W/s162.conf"

# the long scan of S19E2: the sim's 10847 V and 11362 H (src=1)
if [ -n "${VT_WSCAN_S19E2:-}" ]; then
	check_or_show "w_scan_cpp -fs -s S19E2 -t ends (exit 0)" \
		scan S19E2 "$W/s19.conf" 900 -- "$W/s19.conf.log"
	sed 's/^/#   /' "$W/s19.conf"
	check_or_show "S19E2, 10847 V: Sim Classic, Sim Movies, Sim Jazz" \
		has "$W/s19.conf" \
		"Sim Classic;Sim Archive:10847:V[^:]*:S19.2E:22000:257=2:258=eng@3:0:0:301:1:1003:0" \
		"Sim Movies;Sim Archive:10847:V[^:]*:S19.2E:22000:273=2:274=eng@3:0:0:302:1:1003:0" \
		"Sim Jazz;Sim Archive:10847:V[^:]*:S19.2E:22000:0:290=eng@3:0:0:303:1:1003:0" \
		-- "$W/s19.conf"
	check_or_show "S19E2, 11362 H: Sim One HD, Sim Two HD, Sim Radio One" \
		has "$W/s19.conf" \
		"Sim One HD;Sim Broadcasting:11362:H[^:]*S1[^:]*:S19.2E:22000:257=2:258=eng@3:0:0:101:1:1001:0" \
		"Sim Two HD;Sim Broadcasting:11362:H[^:]*S1[^:]*:S19.2E:22000:273=2:274=eng@3:0:0:102:1:1001:0" \
		"Sim Radio One;Sim Broadcasting:11362:H[^:]*S1[^:]*:S19.2E:22000:0:290=eng@3:0:0:103:1:1001:0" \
		-- "$W/s19.conf"
else
	skip "w_scan_cpp -s S19E2 (about 9 minutes): VT_WSCAN_S19E2=1"
fi

kill "$vtd_pid" 2>/dev/null
wait "$vtd_pid"
rc=$?
vtd_pid=
check_or_show "vtunerd exits 0 on SIGTERM" test "$rc" = 0 -- "$W/vtd.log"
reports=$(ls "$W"/asan.* "$W"/ubsan.* 2>/dev/null)
check_or_show "no sanitizer report" test -z "$reports" -- $reports
done_
