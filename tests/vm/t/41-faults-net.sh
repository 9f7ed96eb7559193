#!/bin/bash
# Network faults under a running application: vt-watch stays on the
# adapter (DVB-T 506 MHz, "Sim Local" video+audio PIDs) while the link goes
# down for 5 s, gets 200 ms delay, 5 % loss and reordering.  The
# application never restarts, every FE_READ_STATUS returns within
# timeout_ms, status reads no lock during the outage, the TS flows again
# and the stream after each recovery has no continuity errors.  Recovery
# times and continuity errors go to recovery.txt.
# vm-cost: 69 30%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
. "$VT_ROOT/tests/vm/faults.sh"
trap netns_cleanup EXIT

TIMEOUT_MS=1000
faults_setup 280

# (a) link down for 5 s: no lock meanwhile, then the client reconnects
newseg
t0=$(now)
ip -n cli link set veth-c down
sleep 5
ip -n cli link set veth-c up
t1=$(now)
result linkdown yes "$t0" "$t1"

# (b) 200 ms delay (each way), (c) 5 % loss, (d) reordering: no outage
netem() {	# netem NAME ARGS...: 4 s of netem on both ends
	local name=$1 t0 t1
	shift
	newseg
	t0=$(now)
	ip netns exec cli tc qdisc add dev veth-c root netem "$@"
	ip netns exec srv tc qdisc add dev veth-s root netem "$@"
	sleep 4
	ip netns exec cli tc qdisc del dev veth-c root
	ip netns exec srv tc qdisc del dev veth-s root
	t1=$(now)
	result "$name" no "$t0" "$t1"
}
netem delay200 delay 200ms
netem loss5 loss 5%
netem reorder delay 10ms reorder 25% 50%

watch_end
grep -h "reconnected\|lost\|continuity" cli.log || true
daemon_stop cli
daemon_stop srv
