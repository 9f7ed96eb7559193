#!/bin/bash
# VDR, a TV server, unmodified, on a remote simulated tuner: its
# streamdev-server plugin serves a channel over HTTP, which makes VDR tune
# the virtual adapter (DVBv5), set its PID filters and read dvr0.  The
# channel list is dvbv5-scan's, in VDR's format.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
cleanup() {
	[ -z "${vdr_pid:-}" ] || kill "$vdr_pid" 2>/dev/null || true
	[ -z "${log_pid:-}" ] || kill "$log_pid" 2>/dev/null || true
	netns_cleanup
}
trap cleanup EXIT

command -v vdr >/dev/null || skip "vdr not installed"
plugin=$(echo /usr/lib/vdr/plugins/libvdr-streamdev-server.so.*)
[ -e "$plugin" ] || skip "vdr-plugin-streamdev-server not installed"

vt_load
netns_setup
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0

cat >init.conf <<'CONF'
[T]
	DELIVERY_SYSTEM = DVBT
	FREQUENCY = 506000000
	BANDWIDTH_HZ = 8000000
CONF
timeout 120 dvbv5-scan -a 0 -O VDR -o channels.conf init.conf >scan.out 2>&1 ||
	{ tail -n 20 scan.out; fail "dvbv5-scan"; }
cat channels.conf
grep -q "^Sim Kids" channels.conf || fail "dvbv5-scan found no 'Sim Kids'"

# VDR logs to syslog only: a syslogd for the test
busybox syslogd -n -O "$VT_RESULTS/syslog" &
log_pid=$!
d=$VT_RESULTS/vdr
mkdir -p "$d/plugins/streamdev-server" "$d/video" "$d/cache"
cp channels.conf "$d/"
cp /etc/vdr/sources.conf "$d/"
echo 127.0.0.1 >"$d/plugins/streamdev-server/streamdevhosts.conf"
vdr -c "$d" -v "$d/video" --cachedir="$d/cache" -L /usr/lib/vdr/plugins \
	-P streamdev-server -D 0 --no-kbd -p 0 -E- -l 3 >vdr.out 2>&1 &
vdr_pid=$!
for _ in $(seq 100); do
	ss -ltn | grep -q ":3000 " && break
	kill -0 "$vdr_pid" 2>/dev/null || { cat vdr.out; fail "vdr exited"; }
	sleep 0.2
done
ss -ltn | grep -q ":3000 " || { cat vdr.out; fail "streamdev-server does not listen"; }

n=$(grep -n "^Sim Kids" channels.conf | cut -d: -f1)
ip link set lo up
rc=0
curl -sS -m 8 -o live.ts -w "HTTP %{http_code}, %{size_download} bytes\n" \
	"http://127.0.0.1:3000/TS/$n" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 28 ] || fail "curl: exit status $rc"
"$VT_TOOLS/vt-tscheck" live.ts | tee live.check
grep -q "cc_errors=0 sync_errors=0" live.check || fail "the stream has errors"
for pid in 273 274; do
	grep -q "^pid=$pid packets=[0-9]\{3,\}" live.check || fail "the stream lacks PID $pid"
done
grep -q "locked on T 506 MHz" "${VT_LOGDIR:-$VT_RESULTS}/srv.log" ||
	fail "vtunerd did not tune the channel's transponder"
grep "vdr:" "$VT_RESULTS/syslog" | grep -v "user.debug" | tail -n 12
