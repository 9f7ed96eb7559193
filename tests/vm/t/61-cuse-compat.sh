#!/bin/bash
# 32-bit applications on a CUSE adapter (FUSE_IOCTL_COMPAT, docs/cuse.md).
# vt-feabi32 (tests/tuner/vt-feabi.c built with -m32: FE_SET_PROPERTY and
# FE_GET_PROPERTY of other numbers, a struct dtv_property of 72 bytes)
# tunes DVB-T and DVB-C with one FE_SET_PROPERTY, reads status, properties
# (DTV_ENUM_DELSYS' buffer, statistics) and FE_GET_FRONTEND back and
# records a PID through demux0 and dvr0: first on the module's adapter0
# (dvb-core's compat path, the reference), then on vtunerc --cuse's
# adapter8, both served by the same tuner of one vtunerd --sim.  The
# answers must be the same, and the same as the 64-bit vt-feabi's.
# vm-timeout: 300
# vm-cost: 14 45%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

modprobe cuse 2>/dev/null || skip "no cuse module"
[ -c /dev/cuse ] || skip "no /dev/cuse"
"$VTUNERC" --cuse --check -s 10.99.0.1 >/dev/null 2>&1 ||
	skip "vtunerc built without libfuse3"
[ -x "$VT_TOOLS/vt-feabi32" ] || skip "no vt-feabi32 (gcc -m32 could not link)"
rc=0
"$VT_TOOLS/vt-feabi32" -x >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || skip "32-bit programs do not run here (exit $rc)"

T=(-d 3 -f 506000000 -b 8000000 -p 257)			# SYS_DVBT
C=(-d 1 -f 346000000 -b 0 -s 6900000 -m 5 -p 257)	# SYS_DVBC_ANNEX_A, QAM_256

feabi() {	# feabi NAME PROGRAM ADAPTER ARGS...: its output in NAME.out
	local name=$1 prog=$2 a=$3
	shift 3
	timeout 60 "$VT_TOOLS/$prog" -a "$a" "$@" >"$name.out" 2>"$name.err" || {
		cat "$name.out" "$name.err"
		fail "$prog on adapter$a: $(tail -n 1 "$name.err")"
	}
	cat "$name.out"
}

vt_load
netns_setup
vtunerd_start srv --sim --sim-tuners 1 --sim-delsys DVBT,DVBT2,DVBC -l 10.99.0.1:5911

vtunerc_start mod /dev/vtunerc0 -s 10.99.0.1 -t 0
# in this order, FE_GET_INFO's type (the last tune's) is DVB-T's in all
feabi mod-t32 vt-feabi32 0 "${T[@]}"
feabi mod-t64 vt-feabi 0 "${T[@]}"
feabi mod-c32 vt-feabi32 0 "${C[@]}"
daemon_stop mod

log=${VT_LOGDIR:-$VT_RESULTS}/cuse.log
ip netns exec cli "$VTUNERC" -f -v --cuse --cuse-adapter 8 -s 10.99.0.1 -t 0 >"$log" 2>&1 &
echo $! >"$VT_RESULTS/cuse.pid"
for _ in $(seq 100); do
	[ -c /dev/dvb/adapter8/frontend0 ] && [ -c /dev/dvb/adapter8/demux0 ] &&
		[ -c /dev/dvb/adapter8/dvr0 ] && grep -q "is now" "$log" && break
	sleep 0.1
done
grep -q "is now" "$log" || { cat "$log"; fail "vtunerc did not configure the CUSE adapter"; }
feabi cuse-t32 vt-feabi32 8 "${T[@]}"
feabi cuse-t64 vt-feabi 8 "${T[@]}"
feabi cuse-c32 vt-feabi32 8 "${C[@]}"
daemon_stop cuse
daemon_stop srv

grep -qx "ABI bits=32 dtv_property=72 dtv_properties=8 set=0x40086f52 get=0x80086f53" \
	cuse-t32.out || fail "vt-feabi32 is not built for the 32-bit ABI"

# same A B: equal but for ABI, TIME, the noisy VALUE lines and VERSION:
# dvb-core's DTV_API_VERSION is the running kernel's (5.12 in 6.12),
# vtunerc's that of the headers it was built with
same() {
	local f
	for f in "$1" "$2"; do
		grep -v '^\(ABI\|VERSION\|VALUE\|TIME\) ' "$f.out" >"$f.cmp" || true
	done
	diff "$1.cmp" "$2.cmp" || fail "$1 and $2 differ"
}
grep -q "^VERSION DTV_API_VERSION=0x50[0-9a-f]$" cuse-t32.out ||
	fail "cuse-t32: DTV_API_VERSION is not 5.x"
same mod-t32 cuse-t32
same mod-c32 cuse-c32
same mod-t64 mod-t32
same cuse-t64 cuse-t32

# near A B NAME TOLERANCE: the values NAME within the sim's noise
near() {
	local a b
	a=$(sed -n "s/^VALUE $3 //p" "$1.out")
	b=$(sed -n "s/^VALUE $3 //p" "$2.out")
	[ -n "$a" ] && [ -n "$b" ] || fail "$1, $2: no $3 value"
	[ $((a > b ? a - b : b - a)) -le "$4" ] || fail "$1, $2: $3 $a and $b"
}
for t in t c; do
	near "mod-${t}32" "cuse-${t}32" SIGNAL_STRENGTH 1000
	near "mod-${t}32" "cuse-${t}32" CNR 600
done
