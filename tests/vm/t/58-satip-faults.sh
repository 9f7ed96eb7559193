#!/bin/bash
# Faults under a running application (vt-watch, see 41-faults-net.sh) when
# the adapter's tuner is a SAT>IP server's: vtunerd's SAT>IP front, RTP
# over UDP to vtunerc --satip.
# (a) 5 % loss on the link for 4 s: the stream goes on, the losses are
#     counted (lost_ts in vtunerc's status), no continuity error after;
# (b) the session expired by the server (vtunerc stopped past the
#     server's 10 s session timeout): the adapter reads no lock, vtunerc
#     finds the session gone (454) and sets the stream up again;
# (c) vtunerd killed and restarted: the same.
# The application never restarts and every FE_READ_STATUS returns within
# timeout_ms.
# vm-cost: 54 20%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
FAULTS_REMOTE=satip
. "$VT_ROOT/tests/vm/faults.sh"
trap netns_cleanup EXIT

TIMEOUT_MS=1000
faults_setup 250

# (a) 5 % loss, both ways
newseg
t0=$(now)
ip netns exec cli tc qdisc add dev veth-c root netem loss 5%
ip netns exec srv tc qdisc add dev veth-s root netem loss 5%
sleep 4
ip netns exec cli tc qdisc del dev veth-c root
ip netns exec srv tc qdisc del dev veth-s root
t1=$(now)
result loss5 no "$t0" "$t1"
grep "lost_ts" cli.status
lost=$(sed -n 's/^lost_ts: //p' cli.status)
[ "${lost:-0}" -gt 0 ] || fail "5 % loss: vtunerc counted no TS packet lost"

# (b) vtunerc silent past the session timeout: the server expires it
newseg
t0=$(now)
kill -STOP "$(cat cli.pid)"
sleep 13
kill -CONT "$(cat cli.pid)"
t1=$(now)
result expired yes "$t0" "$t1"
grep -q "lost the session (454" cli.log || fail "vtunerc did not see the session expire"

# (c) vtunerd killed and restarted
fault_server_restart

watch_end
grep -h "SAT>IP\|lost\|continuity" cli.log | tail -n 20 || true
cat /proc/vtunerc0
daemon_stop cli
daemon_stop srv
