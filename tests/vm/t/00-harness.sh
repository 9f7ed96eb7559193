#!/bin/bash
# The VM itself: the kernel asked for, no DVB device yet, dvb-core loads.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"

[ "$(uname -r)" = "$VT_BOOT_KVER" ] || fail "booted $(uname -r), wanted $VT_BOOT_KVER"
[ "$VT_KVER" = "$VT_BOOT_KVER" ] || fail "VT_KVER=$VT_KVER, booted $VT_BOOT_KVER"
[ ! -e /dev/dvb ] || fail "/dev/dvb exists before any DVB driver loaded: $(ls -R /dev/dvb)"
modprobe dvb-core || fail "modprobe dvb-core failed"
grep -q '^dvb_core ' /proc/modules || fail "dvb_core not in /proc/modules"
touch "$VT_RESULTS/written" || fail "VT_RESULTS ($VT_RESULTS) is not writable"
! touch "$VT_ROOT/.vm-write-test" 2>/dev/null || fail "the host root is writable"
log "kernel $VT_KVER, dvb-core loaded"
