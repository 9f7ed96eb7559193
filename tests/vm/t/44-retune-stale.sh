#!/bin/bash
# No stale TS after a retune: with 200 ms of delay on the link (so that
# TS of the old tune is in flight), an application retunes from DVB-C
# 346 MHz (ts_id 3001) to DVB-T 506 MHz (ts_id 2001) on the same PIDs; what
# it reads from a fresh dvr0 after the retune holds only PATs of the new
# mux, and vtunerc reports the frames of the old tune it dropped.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
. "$VT_ROOT/tests/vm/faults.sh"
trap netns_cleanup EXIT
command -v python3 >/dev/null || skip "no python3"

TIMEOUT_MS=1000
vt_load timeout_ms=$TIMEOUT_MS
netns_setup
ip netns exec cli tc qdisc add dev veth-c root netem delay 200ms
ip netns exec srv tc qdisc add dev veth-s root netem delay 200ms
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
watch_start -d dvbc -f 346000000 -s 6900000 -p 0,257,258 -o rec \
	--retune 8:dvbt:506000000 -T 14
wait $watch || true
cat watch.log | grep -v "^t=" || true

# ts_ids PATFILE: the transport_stream_id of every PAT section start
ts_ids() {
	python3 - "$1" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
ids = {}
for i in range(0, len(d) - 187, 188):
    p = d[i:i + 188]
    if p[0] != 0x47 or ((p[1] & 0x1f) << 8 | p[2]) != 0 or not p[1] & 0x40:
        continue
    o = 4 + (1 + p[4] if p[3] & 0x20 else 0)
    o += 1 + p[o]                       # pointer_field
    if p[o] == 0:
        t = p[o + 3] << 8 | p[o + 4]
        ids[t] = ids.get(t, 0) + 1
print(" ".join("%d:%d" % kv for kv in sorted(ids.items())))
PY
}
before=$(ts_ids rec.0)
after=$(ts_ids rec.1)
log "PATs before the retune (ts_id:count): $before; after: $after"
case $before in 3001:[0-9]*) ;; *) fail "before the retune: PATs '$before', expected only ts_id 3001" ;; esac
case $after in 2001:[0-9]*) ;; *) fail "after the retune: PATs '$after', expected only ts_id 2001" ;; esac
[[ $before != *" "* && $after != *" "* ]] || fail "PATs of two muxes in one segment"
"$VT_TOOLS/vt-tscheck" --pids 257,258 rec.1 | tail -n 1
"$VT_TOOLS/vt-tscheck" -q --pids 257,258 rec.1 >/dev/null || fail "continuity errors after the retune"
daemon_stop cli
grep "earlier tune\|tune [0-9]" cli.log || true
grep -q "earlier tune dropped" cli.log || log "note: no frames of the old tune reached vtunerc"
daemon_stop srv
