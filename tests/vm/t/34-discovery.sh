#!/bin/bash
# Discovery through DNS-SD: namespaces srv and cli each have their own
# D-Bus system bus and avahi-daemon.  vtunerd in srv announces
# _vtuner._tcp; in cli, vtunerc --discover lists the server and its
# tuners, and vtunerc without --server connects to a free tuner of the
# wanted delivery system: the first client gets tuner 0, the second
# tuner 1, a third finds none free and says so.  A server started with
# --no-announce is not found.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

# grep -c, not -q: -q exits at the match, ldd's next write meets a closed
# pipe, and with pipefail the test skipped at random (seen on 6.1)
ldd "$VTUNERD" | grep -c libavahi-client >/dev/null || skip "vtunerd built without Avahi"
ldd "$VTUNERC" | grep -c libavahi-client >/dev/null || skip "vtunerc built without Avahi"

vt_load adapters=3
netns_setup
mdns_setup srv veth-s
mdns_setup cli veth-c

# Two clients (two connections each) and the discovery queries, all from
# 10.99.0.2: above the default --max-per-addr.
mdns_vtunerd_start srv --sim --sim-tuners 2 -l 10.99.0.1:5911 \
	-l 127.0.0.1:5912 --name vt-test-server --max-per-addr 8
for _ in $(seq 100); do
	grep -q "announced as" srv.log && break
	sleep 0.1
done
expect_log srv.log "announced as 'vt-test-server' (_vtuner._tcp) on 10.99.0.1:5911 (veth-s)" \
	"vtunerd announcement"
expect_log srv.log "127.0.0.1:5912 is a loopback address: not announced" \
	"loopback listener"

# What the client side's avahi-daemon sees, TXT record included.
for _ in 1 2 3; do
	mdns_exec cli timeout 10 avahi-browse -rtp _vtuner._tcp >browse.out || true
	grep -q '^=' browse.out && break
done
cat browse.out
grep '^=' browse.out | grep -F ';vt-test-server;_vtuner._tcp;local;vt-srv.local;10.99.0.1;5911;' |
	grep -F '"tuners=2"' | grep -F '"t0=dvbs2,dvbs,dvbt2,dvbt,dvbc_annex_a"' |
	grep -qF '"proto=1-1"' || fail "avahi-browse: no _vtuner._tcp service with the TXT expected"

tab=$'\t'
discover() {	# discover OUT: vtunerc --discover into OUT
	mdns_exec cli "$VTUNERC" --discover >"$1" 2>&1 || { cat "$1"; fail "vtunerc --discover failed"; }
	cat "$1"
	grep -qx "vt-test-server${tab}vt-srv.local${tab}10.99.0.1:5911${tab}vt-test-server${tab}2 tuners" "$1" ||
		fail "vtunerc --discover: server line missing"
}
tuner_line() {	# tuner_line OUT INDEX free|busy
	grep -qx "${tab}tuner $2${tab}$3${tab}DVBS2,DVBS,DVBT2,DVBT,DVBC/ANNEX_A${tab}vtuner simulated tuner $2" "$1" ||
		fail "vtunerc --discover: tuner $2 not listed as $3"
}
discover d1.out
tuner_line d1.out 0 free
tuner_line d1.out 1 free

# No --server: the first free DVB-T tuner, tuner 0.
mdns_vtunerc_start c1 /dev/vtunerc0 -D dvbt
cat c1.log
expect_log c1.log "discovered 'vt-test-server' (vt-srv.local) at 10.99.0.1:5911: tuner 0 'vtuner simulated tuner 0' is free" \
	"first client"
grep -q "^name: vtuner simulated tuner 0 @ 10.99.0.1" /proc/vtunerc0 ||
	{ cat /proc/vtunerc0; fail "/proc/vtunerc0: not the remote tuner 0"; }
dvb-fe-tool -a 0 | tee fe0.out | head -3
grep -q "vtuner simulated tuner 0 @ 10.99.0.1" fe0.out || fail "dvb-fe-tool -a 0: remote name missing"

discover d2.out
tuner_line d2.out 0 busy
tuner_line d2.out 1 free

# The second client gets the other one.
mdns_vtunerc_start c2 /dev/vtunerc1 -D dvbt
expect_log c2.log "tuner 1 'vtuner simulated tuner 1' is free" "second client"
dvb-fe-tool -a 1 | tee fe1.out | head -3
grep -q "vtuner simulated tuner 1 @ 10.99.0.1" fe1.out || fail "dvb-fe-tool -a 1: remote name missing"

# A third one finds no free tuner: it fails at once, with the reason.
if mdns_exec cli "$VTUNERC" -f -d /dev/vtunerc2 -D dvbt >c3.log 2>&1; then
	cat c3.log
	fail "a third client found a tuner"
fi
cat c3.log
expect_log c3.log "no free tuner with DVBT on 1 server" "third client"
grep -q "^owner: .* vtunerc" /proc/vtunerc2 && fail "the third client kept /dev/vtunerc2"

# A free tuner, but not of the system asked.
daemon_stop c1
discover d3.out
tuner_line d3.out 0 free
tuner_line d3.out 1 busy
if mdns_exec cli "$VTUNERC" -f -d /dev/vtunerc2 -D atsc >c4.log 2>&1; then
	fail "a client found an ATSC tuner"
fi
cat c4.log
expect_log c4.log "no free tuner with ATSC on 1 server" "ATSC client"
daemon_stop c2

# --no-announce: nothing to find.
daemon_stop srv
mdns_vtunerd_start srv2 --sim -l 10.99.0.1:5911 --no-announce
if mdns_exec cli "$VTUNERC" -f -d /dev/vtunerc2 -D dvbt >c5.log 2>&1; then
	cat c5.log
	fail "a client found a server started with --no-announce"
fi
cat c5.log
expect_log c5.log "no vtunerd server announced on the network within 5 s" \
	"no announced server"
grep -q "announced as" srv2.log && fail "vtunerd --no-announce announced itself"
daemon_stop srv2
log "discovery: ok"
