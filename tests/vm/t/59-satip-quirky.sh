#!/bin/bash
# vtunerc --satip against the quirkiest kind of server: tests/satip/
# quirky.py as an AVM FRITZ!Box Cable (no addpids/delpids, no pids=all,
# PIDs required in SETUP, no RTCP, level 0 while locked, a 30 s session
# timeout, desc.xml), relaying vtunerd's simulated DVB-C, with 1 of 50 RTP
# datagrams dropped and 1 of 40 swapped on purpose.  Unmodified
# dvbv5-scan and dvbv5-zap on the adapter:
# * the quirks are chosen from the server's desc.xml, nothing is refused;
# * dvbv5-scan finds the services of the transponder (its PID filters
#   come and go: whole pids= lists), and the adapter reports lock;
# * dvbv5-zap -r records the service's PIDs at their rates;
# * the datagrams and TS packets vtunerc reports lost equal those quirky
#   dropped, the swapped ones come back in order (reported reordered).
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vt_load
netns_setup
vtunerd_start srv --sim --sim-tuners 2 -l 10.99.0.1:5911 \
	--satip 10.99.0.1:554 --no-announce
ip netns exec srv python3 "$VT_ROOT/tests/satip/quirky.py" --avm \
	--upstream 10.99.0.1:554 --addr 10.99.0.1 --port 8554 \
	--drop 1/50 --reorder 1/40 --seed 3 --stats "$PWD/quirky.stats" -v \
	>quirky.out 2>quirky.log &
echo $! >quirky.pid
for _ in $(seq 100); do
	grep -q '^http_port=' quirky.out 2>/dev/null && break
	sleep 0.1
done
http=$(sed -n 's/^http_port=//p' quirky.out)
[ -n "$http" ] || { cat quirky.log; fail "quirky.py does not listen"; }
vtunerc_start cli /dev/vtunerc0 --satip rtsp://10.99.0.1:8554/ \
	--satip-desc "http://10.99.0.1:$http/desc.xml" --status-file "$PWD/cli.status"
dvb-fe-tool -a 0 | head -3
clog=${VT_LOGDIR:-$VT_RESULTS}/cli.log
grep -q "quirks of .*: no-addpids,no-pids-all,describe,setup-pids" "$clog" ||
	{ cat "$clog"; fail "the quirks were not chosen from desc.xml"; }

sim_scan c c
has_service c.conf "Sim Cable One"
has_service c.conf "Sim Lounge"
grep "lock" cli.status

timeout 60 dvbv5-zap -a 0 -c c.conf -r -o rec.ts -t 10 "Sim Cable One" >zap.out 2>&1 || true
tail -n 3 zap.out
grep -q "Lock" zap.out || fail "dvbv5-zap saw no lock"
"$VT_TOOLS/vt-tscheck" rec.ts | tee rec.check || true	# errors at the drops
# Sim Cable One: 8 Mbit/s of video on PID 257, 219334 bit/s of audio on
# 258 (losses apart).  The relay is Python in a guest whose CPU the host
# shares: when it falls behind, vtunerd's HTTP stream to it drops whole
# frames, of both PIDs alike.  So the PIDs' rates are judged by their
# ratio, and the video must have at least half its rate.
dur=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 rec.ts)
vpk=$(sed -n 's/^pid=257 packets=\([0-9]*\).*/\1/p' rec.check)
apk=$(sed -n 's/^pid=258 packets=\([0-9]*\).*/\1/p' rec.check)
rate=$(awk -v p="$vpk" -v d="$dur" 'BEGIN { printf "%d", p * 188 * 8 / d }')
ratio=$(awk -v v="$vpk" -v a="${apk:-0}" 'BEGIN { printf "%d", a ? 1000 * v / a : 0 }')
log "video PID: $vpk packets in $dur s: $rate bit/s; audio $apk packets; video/audio x $ratio/1000 (configured 36474)"
[ "$rate" -ge 4000000 ] && [ "$rate" -le 8800000 ] ||
	fail "video bitrate $rate bit/s, configured 8000000"
[ "$ratio" -ge 32826 ] && [ "$ratio" -le 40121 ] ||
	fail "video/audio packets x $ratio/1000, configured 36474 (8000000 / 219334)"
others=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' rec.check | grep -vx '257\|258' || true)
[ -z "$others" ] || fail "recording has unrequested PIDs: $others"

# the stream stops first (SIGUSR1: every session expired), so that both
# sides have counted the same datagrams, then vtunerc ends
kill -USR1 "$(cat quirky.pid)"
sleep 0.5
daemon_stop cli
sleep 0.3
cat quirky.stats
grep "SAT>IP: .* datagrams" "$clog"
read -r lost lost_ts reord late <<<"$(sed -n 's/.*SAT>IP: [0-9]* datagrams, \([0-9]*\) lost (\([0-9]*\) TS packets), \([0-9]*\) reordered, \([0-9]*\) late.*/\1 \2 \3 \4/p' "$clog" | tail -1)"
q() { sed -n "s/^$1=//p" quirky.stats; }
[ "$(q refused)" = 0 ] || fail "quirky refused $(q refused) request(s)"
[ "$(q dropped)" -gt 10 ] || fail "quirky dropped only $(q dropped) datagrams"
# A swapped datagram that comes after vtunerc gave its gap up (the guest
# stalled between the two) is late: counted lost (its TS was not
# delivered) and not reordered.  A few at most, or the reordering is broken.
[ "${late:-x}" -le 3 ] || fail "vtunerc reports ${late:-no} late datagrams"
[ "$((lost - late))" = "$(q dropped)" ] ||
	fail "vtunerc reports $lost datagrams lost ($late of them late), quirky dropped $(q dropped)"
[ "$((lost_ts - 7 * late))" = "$(q dropped_ts)" ] ||
	fail "vtunerc reports $lost_ts TS packets lost ($late datagrams late), quirky dropped $(q dropped_ts)"
[ "$((reord + late))" = "$(q reordered)" ] ||
	fail "vtunerc reports $reord reordered and $late late, quirky swapped $(q reordered)"
# a lost datagram breaks the continuity of its PIDs (two at most here);
# a swap not undone would add two more errors each
cc=$(sed -n 's/^total .* cc_errors=\([0-9]*\) .*/\1/p' rec.check)
[ "$cc" -le $((2 * $(q dropped))) ] || fail "$cc continuity errors for $(q dropped) datagrams dropped"
log "losses: $lost datagrams ($lost_ts TS packets) lost, $reord reordered, as made; $cc continuity errors"
kill "$(cat quirky.pid)" 2>/dev/null || true
daemon_stop srv
