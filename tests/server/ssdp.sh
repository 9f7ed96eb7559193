#!/bin/bash
# tests/server/ssdp.sh - SAT>IP discovery of vtunerd (src/server/ssdp.c,
# src/satip/desc.c) through tests/server/ssdp-run (the SSDP endpoint alone
# with a minimal HTTP server for desc.xml; the ASan + UBSan build) and
# SSDP peers (tests/server/ssdp-probe.py), in two network namespaces:
#
#   ns A: lo 127.0.0.1 (route 239.0.0.0/8 dev lo)    ns B:
#         ssdp-run, probes on lo                          probes
#         veth-a 10.77.0.1/24  ───────────────────────  veth-b 10.77.0.2/24
#
# * M-SEARCH for the SatIPServer type, ssdp:all, upnp:rootdevice and
#   uuid: answered (1, 3, 1, 1 answers), anything else not; LOCATION the
#   address of the interface the request came in on, ST, USN,
#   DEVICEID.SES.COM, X-SATIP-RTSP-Port, CONFIGID = desc.xml's configId;
# * NOTIFY ssdp:alive, three rounds at start, byebye at SIGTERM;
# * -b 127.0.0.1 serves lo only, -b 10.77.0.1 veth-a only, 0.0.0.0 both;
# * DEVICEID.SES.COM: a unicast M-SEARCH carrying ours makes it take the
#   next; another server's NOTIFY with ours gets a unicast M-SEARCH;
# * 2200 hostile datagrams: no sanitizer report, still answering;
# * VDR's satip plugin and w_scan_cpp find it (when installed).
# Needs root (ip netns).  Usage: ssdp.sh BUILD_DIR.  Ends with one line
# "N passed, N failed".
set -uo pipefail
B=${1:-build}
RUN=$B/san/tests/server/ssdp-run
PROBE="python3 $(dirname "$0")/ssdp-probe.py"
W=$(mktemp -d "${TMPDIR:-/tmp}/vt-ssdp.XXXXXX")
NA=vtssdp-a-$$
NB=vtssdp-b-$$
SATIP=urn:ses-com:device:SatIPServer:1
pids=()

cleanup() {
	local p

	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	rm -rf "$W"
}

# shellcheck source=tests/tap.sh
. "$(dirname "$0")/../tap.sh"
if [ "$(id -u)" != 0 ] || ! ip netns add "$NA" 2>/dev/null; then
	skip "SSDP in network namespaces: needs root and ip netns"
	rm -rf "$W"
	echo "$passed passed, $failed failed"
	exit 0
fi
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
need_san "$RUN"

ip netns add "$NB"
A() { ip netns exec "$NA" "$@"; }
Bn() { ip netns exec "$NB" "$@"; }
A ip link set lo up
Bn ip link set lo up
A ip link add veth-a type veth peer name veth-b netns "$NB"
A ip addr add 10.77.0.1/24 dev veth-a
Bn ip addr add 10.77.0.2/24 dev veth-b
A ip link set veth-a up
Bn ip link set veth-b up
check "multicast on lo in a namespace: ip route add 239.0.0.0/8 dev lo" \
	A ip route add 239.0.0.0/8 dev lo

# run NAME ARGS...: ssdp-run in ns A, until "ready"
run() {
	local name=$1

	shift
	ip netns exec "$NA" "$RUN" "$@" >"$W/$name.log" 2>&1 &
	pids+=($!)
	srv=$!
	for _ in $(seq 50); do
		grep -q "ready: uuid:" "$W/$name.log" && return 0
		kill -0 "$srv" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
stop() {	# stop PID: SIGTERM, wait
	kill -TERM "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
within() {	# within SECONDS COMMAND...
	for _ in $(seq $(($1 * 10))); do
		"${@:2}" && return 0
		sleep 0.1
	done
	return 1
}
# count FILE JQ-FILTER: how many JSON lines of FILE match
count() { jq -s "map(select($2)) | length" "$1"; }
is() {	# is WHAT GOT WANT
	[ "$2" = "$3" ] && return 0
	echo "# $1: got '$2', want '$3'"
	return 1
}
hdr() { jq -r -s "map(select(.h) | .h[\"$2\"] // empty) | unique | join(\" \")" "$1"; }

# listening FILE: the probe writing FILE has joined the group (a loaded
# host may take seconds to start python)
listening() {
	local _

	for _ in $(seq 100); do
		grep -q '"listening": true' "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# the listener first: it sees the start rounds (1 s apart, ASan start-up)
A $PROBE listen --wait 8 >"$W/alive.json" 2>&1 &
lpid=$!
listening "$W/alive.json"
check_or_show "ssdp-run -b 127.0.0.1 -r 8554 starts" \
	run lo -b 127.0.0.1 -r 8554 -d 1 -s lo-seed -n 'Box <&> "1"' -- "$W/lo.log"
LO=$srv
UUID=$(sed -n 's/.*ready: uuid:\([0-9a-f-]*\).*/\1/p' "$W/lo.log")
wait "$lpid"
alive() { count "$W/alive.json" ".h.NTS == \"ssdp:alive\" and .h.NT == \"$1\""; }
check_or_show "NOTIFY ssdp:alive: three start rounds of upnp:rootdevice" \
	is root "$(alive upnp:rootdevice)" 3 -- "$W/alive.json"
check "... of uuid:$UUID" is uuid "$(alive "uuid:$UUID")" 3
check "... and of $SATIP" is type "$(alive "$SATIP")" 3
check "... LOCATION http://127.0.0.1:8875/desc.xml" \
	is location "$(hdr "$W/alive.json" LOCATION)" "http://127.0.0.1:8875/desc.xml"
check "... from 127.0.0.1:1900" \
	is from "$(jq -r -s 'map(.from // empty) | unique | join(" ")' "$W/alive.json")" 127.0.0.1:1900
check "... CACHE-CONTROL: max-age=1800, DEVICEID.SES.COM: 1, X-SATIP-RTSP-Port: 8554" \
	is headers "$(hdr "$W/alive.json" CACHE-CONTROL) $(hdr "$W/alive.json" DEVICEID.SES.COM) $(hdr "$W/alive.json" X-SATIP-RTSP-PORT)" \
	"max-age=1800 1 8554"
check "... USN uuid:UUID::$SATIP for the type" \
	is usn "$(jq -r -s "map(select(.h.NT == \"$SATIP\") | .h.USN) | unique | join(\" \")" "$W/alive.json")" \
	"uuid:$UUID::$SATIP"

# search ST [ARGS...]: M-SEARCH from ns A on lo, the answers in $W/s.json
search() {
	local st=$1

	shift
	A $PROBE search --st "$st" --wait 1 "$@" >"$W/s.json" 2>&1
}
search "$SATIP"
check_or_show "M-SEARCH $SATIP: one answer" \
	is answers "$(count "$W/s.json" '.start == "HTTP/1.1 200 OK"')" 1 -- "$W/s.json"
check "... ST $SATIP, USN uuid:UUID::$SATIP" \
	is st "$(hdr "$W/s.json" ST) $(hdr "$W/s.json" USN)" "$SATIP uuid:$UUID::$SATIP"
check "... LOCATION http://127.0.0.1:8875/desc.xml, DEVICEID.SES.COM 1, X-SATIP-RTSP-Port 8554" \
	is loc "$(hdr "$W/s.json" LOCATION) $(hdr "$W/s.json" DEVICEID.SES.COM) $(hdr "$W/s.json" X-SATIP-RTSP-PORT)" \
	"http://127.0.0.1:8875/desc.xml 1 8554"
check "... EXT, DATE, SERVER .../UPnP/1.1 vtunerd/..., BOOTID.UPNP.ORG" \
	is fields "$(jq -r -s 'map((.h | has("EXT")) and (.h.DATE | length > 20) and (.h.SERVER | test("^Linux/.* UPnP/1.1 vtunerd/")) and (.h["BOOTID.UPNP.ORG"] | test("^[0-9]+$"))) | all' "$W/s.json")" true
CONFIGID=$(hdr "$W/s.json" CONFIGID.UPNP.ORG)
A curl -s -m 5 -D "$W/desc.head" -o "$W/desc.xml" http://127.0.0.1:8875/desc.xml
check_or_show "desc.xml: UDN uuid:UUID, configId = CONFIGID.UPNP.ORG, X_SATIPCAP, friendlyName escaped" \
	grep -q "configId=\"$CONFIGID\"" "$W/desc.xml" -- "$W/desc.xml"
check "... UDN" grep -q "<UDN>uuid:$UUID</UDN>" "$W/desc.xml"
check "... X_SATIPCAP" grep -q '<satip:X_SATIPCAP xmlns:satip="urn:ses-com:satip">DVBS2-2,DVBT-1</satip:X_SATIPCAP>' "$W/desc.xml"
check "... friendlyName" grep -q '<friendlyName>Box &lt;&amp;&gt; &quot;1&quot;</friendlyName>' "$W/desc.xml"
check "... well-formed XML" python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$W/desc.xml"

search ssdp:all
check_or_show "M-SEARCH ssdp:all: three answers (root, uuid, type)" \
	is all "$(jq -r -s 'map(.h.ST) | sort | join(" ")' "$W/s.json")" \
	"upnp:rootdevice $SATIP uuid:$UUID" -- "$W/s.json"
search upnp:rootdevice
check "M-SEARCH upnp:rootdevice: one answer, USN uuid:UUID::upnp:rootdevice" \
	is root "$(jq -r -s 'map(.h.USN) | join(" ")' "$W/s.json")" "uuid:$UUID::upnp:rootdevice"
search "uuid:$UUID"
check "M-SEARCH uuid:UUID: one answer, USN uuid:UUID" \
	is uuid "$(jq -r -s 'map(.h.USN) | join(" ")' "$W/s.json")" "uuid:$UUID"
n=0
for st in uuid:00000000-0000-0000-0000-000000000000 \
	urn:schemas-upnp-org:device:MediaServer:1 urn:ses-com:device:SatIPServer:2 ""; do
	search "$st"
	n=$((n + $(count "$W/s.json" 'true')))
done
check "M-SEARCH for another uuid, device type or version, or no ST: no answer" is none "$n" 0
search "$SATIP" --to 10.77.0.1
check "-b 127.0.0.1: an M-SEARCH on another interface is not answered" \
	is other "$(count "$W/s.json" 'true')" 0

# hostile datagrams, then still answering
A $PROBE garbage --count 2000 >"$W/garbage.out" 2>&1
A $PROBE garbage --count 200 --to 127.0.0.1 --seed 2 >>"$W/garbage.out" 2>&1
search "$SATIP"
check_or_show "2200 hostile datagrams (multicast and unicast): still running and answering" \
	is after "$(count "$W/s.json" '.start == "HTTP/1.1 200 OK"')" 1 -- "$W/lo.log" "$W/garbage.out"

# DEVICEID.SES.COM: a unicast M-SEARCH with ours makes it take the next
search "$SATIP" --to 127.0.0.1 --deviceid 1
check_or_show "a unicast M-SEARCH with our DEVICEID.SES.COM is answered (with it)" \
	is yield "$(hdr "$W/s.json" DEVICEID.SES.COM)" 1 -- "$W/s.json" "$W/lo.log"
check_or_show "... and the server takes DEVICEID.SES.COM 2" \
	grep -q "uses DEVICEID.SES.COM 1 too: now 2" "$W/lo.log" -- "$W/lo.log"
search "$SATIP"
check "... which the next answers carry" is next "$(hdr "$W/s.json" DEVICEID.SES.COM)" 2
search "$SATIP" --deviceid 2
check "a multicast M-SEARCH with it changes nothing" \
	is mc "$(grep -c "too: now" "$W/lo.log")" 1

# SAT>IP clients of Debian: VDR's satip plugin (SVDRP: PLUG satip LIST)
# and w_scan_cpp (the same code) find the server on lo and read desc.xml
if command -v vdr >/dev/null && [ -e /usr/lib/vdr/plugins/libvdr-satip.so.2.6.0 ] &&
   command -v svdrpsend >/dev/null; then
	mkdir -p "$W/vdr" "$W/video"
	cp /etc/vdr/sources.conf "$W/vdr/" 2>/dev/null ||
		echo "S19.2E  Astra 1" >"$W/vdr/sources.conf"
	: >"$W/vdr/channels.conf"
	echo 127.0.0.1 >"$W/vdr/svdrphosts.conf"
	ip netns exec "$NA" vdr -c "$W/vdr" -v "$W/video" -E- --no-kbd -p 6419 \
		-L /usr/lib/vdr/plugins -P satip >"$W/vdr.out" 2>&1 &
	vdr=$!
	pids+=("$vdr")
	listed() {
		A svdrpsend -p 6419 PLUG satip LIST >"$W/vdr.list" 2>&1
		grep -qF '900 + 127.0.0.1|DVBS2-2,DVBT-1|Box <&> "1"' "$W/vdr.list"
	}
	check_or_show "VDR's satip plugin discovers it: PLUG satip LIST says 127.0.0.1|DVBS2-2,DVBT-1|Box <&> \"1\"" \
		within 20 listed -- "$W/vdr.list" "$W/vdr.out"
	kill -TERM "$vdr"
	within 5 eval '! kill -0 $vdr 2>/dev/null' || kill -9 "$vdr"
	wait "$vdr" 2>/dev/null
else
	skip "VDR's satip plugin is not installed (vdr-plugin-satip)"
fi
if command -v w_scan_cpp >/dev/null; then
	(cd "$W" && exec timeout 20 ip netns exec "$NA" w_scan_cpp -ft -t -c DE) >"$W/wscan.out" 2>&1 &
	wpid=$!
	pids+=("$wpid")
	check_or_show "w_scan_cpp -t discovers it: using Box <&> \"1\"@127.0.0.1" \
		within 20 grep -qF 'using Box <&> "1"@127.0.0.1' "$W/wscan.out" -- "$W/wscan.out"
	kill -TERM "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
else
	skip "w_scan_cpp is not installed (w-scan-cpp)"
fi

# byebye at SIGTERM
A $PROBE listen --wait 4 >"$W/bye.json" 2>&1 &
lpid=$!
listening "$W/bye.json"
stop "$LO"
wait "$lpid"
check_or_show "SIGTERM: ssdp:byebye for root, uuid and type" \
	is bye "$(jq -r -s 'map(select(.h.NTS == "ssdp:byebye") | .h.NT) | sort | join(" ")' "$W/bye.json")" \
	"upnp:rootdevice $SATIP uuid:$UUID" -- "$W/bye.json"

# every interface (0.0.0.0): the address the request came in on
Bn $PROBE listen --if 10.77.0.2 --wait 6 >"$W/vethalive.json" 2>&1 &
vpid=$!
listening "$W/vethalive.json"
check_or_show "ssdp-run -b 0.0.0.0 starts" run all -b 0.0.0.0 -d 1 -s all-seed -- "$W/all.log"
ALL=$srv
search "$SATIP"
check_or_show "-b 0.0.0.0, M-SEARCH on lo: LOCATION http://127.0.0.1:8875/desc.xml" \
	is lo "$(hdr "$W/s.json" LOCATION)" http://127.0.0.1:8875/desc.xml -- "$W/s.json"
check "... no X-SATIP-RTSP-Port (RTSP on 554)" is port "$(hdr "$W/s.json" X-SATIP-RTSP-PORT)" ""
Bn $PROBE search --st "$SATIP" --if 10.77.0.2 --wait 1 >"$W/sb.json" 2>&1
check_or_show "-b 0.0.0.0, M-SEARCH from ns B on veth: LOCATION http://10.77.0.1:8875/desc.xml, from 10.77.0.1:1900" \
	is veth "$(hdr "$W/sb.json" LOCATION) $(jq -r -s 'map(.from) | join(" ")' "$W/sb.json")" \
	"http://10.77.0.1:8875/desc.xml 10.77.0.1:1900" -- "$W/sb.json"
Bn curl -s -m 5 -o "$W/descb.xml" http://10.77.0.1:8875/desc.xml
check "... desc.xml there" grep -q "<deviceType>$SATIP</deviceType>" "$W/descb.xml"
wait "$vpid"
check_or_show "NOTIFY on veth from 10.77.0.1:1900, LOCATION http://10.77.0.1:8875/desc.xml" \
	is vethalive "$(count "$W/vethalive.json" '.h.NTS == "ssdp:alive" and .from == "10.77.0.1:1900" and .h.LOCATION == "http://10.77.0.1:8875/desc.xml"')" 9 \
	-- "$W/vethalive.json"
# after the start rounds (3 s): another server announcing DEVICEID 1
sleep 0.5
Bn $PROBE listen --if 10.77.0.2 --wait 4 >"$W/defend.json" 2>&1 &
lpid=$!
listening "$W/defend.json"
Bn $PROBE notify --if 10.77.0.2 --deviceid 1 --uuid 11111111-2222-8333-8444-555555555555
wait "$lpid"
check_or_show "another server's NOTIFY with our DEVICEID.SES.COM: a unicast M-SEARCH to it carrying the ID" \
	is defend "$(count "$W/defend.json" '.start == "M-SEARCH * HTTP/1.1" and .from == "10.77.0.1:1900" and .h["DEVICEID.SES.COM"] == "1" and .h.ST == "'"$SATIP"'"')" 1 \
	-- "$W/defend.json" "$W/all.log"
stop "$ALL"

# one interface (-b 10.77.0.1): veth-a only
check_or_show "ssdp-run -b 10.77.0.1 starts" run veth -b 10.77.0.1 -s v-seed -- "$W/veth.log"
VETH=$srv
Bn $PROBE search --st "$SATIP" --if 10.77.0.2 --wait 1 >"$W/sb.json" 2>&1
check_or_show "-b 10.77.0.1: answered on veth, LOCATION http://10.77.0.1:8875/desc.xml" \
	is veth "$(hdr "$W/sb.json" LOCATION)" http://10.77.0.1:8875/desc.xml -- "$W/sb.json"
search "$SATIP"
check "... not on lo" is lo "$(count "$W/s.json" 'true')" 0
stop "$VETH"
check_or_show "ssdp-run -b 10.77.0.9 (no interface has it) fails" \
	eval "! A $RUN -b 10.77.0.9 -H 18875 >$W/none.log 2>&1" -- "$W/none.log"
check "... saying so" grep -q "no interface to serve for 10.77.0.9" "$W/none.log"

pids=()
reports=$(ls "$W"/asan.* "$W"/ubsan.* 2>/dev/null)
if [ -z "$reports" ] &&
   ! cat "$W"/*.log | grep -q "runtime error\|AddressSanitizer\|LeakSanitizer"; then
	ok "no sanitizer report"
else
	fail "sanitizer reports"
	show $reports "$W"/*.log
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
