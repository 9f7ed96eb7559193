#!/bin/bash
# Daemon faults under a running application (see 41-faults-net.sh):
# vtunerd killed and restarted, then vtunerc killed and restarted (the new
# vtunerc takes over the application's tune and PIDs from the module).
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
. "$VT_ROOT/tests/vm/faults.sh"
trap netns_cleanup EXIT

TIMEOUT_MS=1000
faults_setup 280

# (e) vtunerd killed and restarted
fault_server_restart

# (f) vtunerc killed and restarted
newseg
t0=$(now)
kill -9 "$(cat cli.pid)"
sleep 2
mv cli.log cli-1.log
faults_client
t1=$(now)
result client-restart yes "$t0" "$t1"
grep -q "taken over" cli.log || fail "the new vtunerc did not take over the tune"

watch_end
grep -h "reconnected\|lost\|continuity\|taken over" cli-1.log cli.log || true
cat /proc/vtunerc0
daemon_stop cli
daemon_stop srv
