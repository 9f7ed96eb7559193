#!/bin/bash
# The client as an installed system runs it: systemd-udevd with the
# project's rule (packaging/udev/60-vtuner.rules) gives /dev/vtunercN to
# group video, mode 0660, when the module loads; vtunerc runs as an
# unprivileged user of that group (as vtunerc@.service does with
# DynamicUser and SupplementaryGroups=video) and writes its status file in
# /run/vtunerc; vtunerctl shows the adapter, its owner, server, tune, lock
# and bitrate, as text and as JSON.  Without the group the device is
# refused.  The same rule gives the nodes of a CUSE adapter (vtunerc
# --cuse, which runs as nobody once /dev/cuse is open) to group video.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
# udevd and its database go at the end: later tests run without udev
trap 'netns_cleanup; udevadm control --exit 2>/dev/null || true; rm -rf /run/udev' EXIT

UDEVD=/lib/systemd/systemd-udevd
# the guest runs the host's root in a chroot: systemd tools refuse that
export SYSTEMD_IGNORE_CHROOT=1
[ -x "$UDEVD" ] || skip "no systemd-udevd"
video=$(getent group video | cut -d: -f3)
[ -n "$video" ] || fail "no group video"

# udevd with the rule in /run/udev/rules.d, the place for local rules
mkdir -p /run/udev/rules.d
cp "$VT_ROOT/packaging/udev/60-vtuner.rules" /run/udev/rules.d/
"$UDEVD" --daemon --resolve-names=early
udevadm control --ping || fail "systemd-udevd does not answer"
vt_load adapters=2
udevadm settle --timeout=30 || fail "udevadm settle"
for i in 0 1; do
	wait_for /dev/vtunerc$i 5 || fail "/dev/vtunerc$i missing"
	got=$(stat -c '%G %a' /dev/vtunerc$i)
	log "/dev/vtunerc$i: $got"
	[ "$got" = "video 660" ] || fail "/dev/vtunerc$i is '$got', want 'video 660'"
done

# an unprivileged user: refused without the group, served with it
user=65534
if timeout 10 setpriv --reuid=$user --regid=$user --clear-groups \
	"$VTUNERC" -f -d /dev/vtunerc0 -s 127.0.0.1 -t 0 >nogroup.log 2>&1; then
	cat nogroup.log
	fail "vtunerc without group video ran"
fi
grep -q "Permission denied" nogroup.log || { cat nogroup.log; fail "no 'Permission denied' without the group"; }
log "without group video: $(grep -m1 'Permission denied' nogroup.log)"

netns_setup
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
mkdir -p /run/vtunerc
chown $user:$user /run/vtunerc
ip netns exec cli setpriv --reuid=$user --regid=$user --groups="$video" \
	"$VTUNERC" -f -v -d /dev/vtunerc0 -s 10.99.0.1 -t 0 >cli.log 2>&1 &
echo $! >cli.pid
for i in $(seq 100); do
	grep -q "^owner: .* vtunerc" /proc/vtunerc0 && break
	sleep 0.1
done
grep -q "^owner: .* vtunerc" /proc/vtunerc0 || { cat cli.log; fail "vtunerc (uid $user, group video) does not own /dev/vtunerc0"; }
owner=$(grep "^owner:" /proc/vtunerc0)
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$(awk '{ print $2 }' <<<"$owner")/status")
log "$owner, uid $uid"
[ "$uid" = $user ] || fail "the owner runs as uid $uid, not $user"

# an application tunes "Sim Local" and reads it
# (it reads until it is stopped: the checks below must see it live, however
# slow the guest)
"$VT_TOOLS/vt-watch" -d dvbt -f 506000000 -p 257,258 -o rec -T 120 >watch.log 2>&1 &
w=$!
for i in $(seq 300); do
	grep -q "lock=1 bytes=[1-9]" watch.log && break
	sleep 0.1
done
grep -q "lock=1 bytes=[1-9]" watch.log || { cat watch.log; fail "vt-watch: no lock and TS in 30 s"; }
# one more second of TS, so that the client's bitrate is measured
sleep 1.5
out=$("$VT_BUILD/ctl/vtunerctl" 0)
echo "$out"
for want in "vtunerc" "10.99.0.1" "506" "lock"; do
	grep -qi -- "$want" <<<"$out" || fail "vtunerctl does not show '$want'"
done
json=$("$VT_BUILD/ctl/vtunerctl" --json)
echo "$json"
python3 - "$json" <<'PY' || fail "vtunerctl --json"
import json, sys
a = json.loads(sys.argv[1])
assert isinstance(a, list) and len(a) == 2, a
k, c = a[0]["kernel"], a[0]["client"]
assert k["lock"] is True and k["pids"] == [257, 258], k
assert k["owner"]["comm"] == "vtunerc", k
assert c["state"] == "ready" and c["lock"] is True, c
assert c["server"] == "10.99.0.1:5911" and c["tuned"] == "DVBT 506000000 Hz", c
assert c["bitrate"] > 1000000 and c["cc_errors"] == 0, c
assert not (a[1].get("client") or {}).get("live"), a[1]
print("json ok")
PY
kill -TERM $w
wait $w || fail "vt-watch exited with status $?"
grep -q "^end " watch.log || { cat watch.log; fail "vt-watch"; }
daemon_stop cli

# No module: vtunerc --cuse, started as root, opens /dev/cuse and goes on
# as nobody; the rule gives the CUSE adapter's nodes to group video, mode
# 0660, and an unprivileged member of the group tunes it.
if modprobe cuse 2>/dev/null && [ -c /dev/cuse ]; then
	cuse_start cuse 8 -s 10.99.0.1 -t 0
	udevadm settle --timeout=30 || fail "udevadm settle"
	for n in frontend0 demux0 dvr0; do
		got=$(stat -c '%G %a' /dev/dvb/adapter8/$n)
		log "/dev/dvb/adapter8/$n: $got"
		[ "$got" = "video 660" ] || fail "/dev/dvb/adapter8/$n is '$got', want 'video 660'"
	done
	uid=$(awk '/^Uid:/ { print $2 }' "/proc/$(cat "$VT_RESULTS/cuse.pid")/status")
	[ "$uid" = $user ] || fail "vtunerc --cuse runs as uid $uid, not nobody's $user"
	grep "running as" "${VT_LOGDIR:-$VT_RESULTS}/cuse.log"
	setpriv --reuid=$user --regid=$user --groups="$video" \
		"$VT_TOOLS/vt-watch" -a 8 -d dvbt -f 506000000 -p 257,258 -o /tmp/crec -T 4 >cwatch.log 2>&1 ||
		{ cat cwatch.log; fail "vt-watch as uid $user in group video on the CUSE adapter"; }
	grep -q "lock=1 bytes=[1-9]" cwatch.log || { cat cwatch.log; fail "vt-watch: no lock and TS on the CUSE adapter"; }
	daemon_stop cuse
else
	log "no cuse module: the CUSE part skipped"
fi
daemon_stop srv
exit 0
