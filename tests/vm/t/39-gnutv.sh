#!/bin/bash
# dvb-apps' gnutv and dvbtraffic, unmodified DVBv3 programs, on a remote
# simulated satellite tuner (vtunerd --sim-delsys DVBS,DVBS2: DVB-S is the
# frontend's current system, the one a DVBv3 tune uses).  gnutv drives the
# universal LNB and the DiSEqC switch itself through libdvbsec (13 V, no
# tone, position A for 10847 V), reads PAT and PMT through CRC-checked
# section filters, polls the DVBv3 status reads and records dvr0;
# dvbtraffic counts every PID of the transponder through a PID 0x2000
# filter while gnutv holds the tune.  A switch position with nothing on
# 10847 V must not lock.
#
# gnutv's recording holds PAT and PMT only: Debian 12's libucsi
# (dvb-apps 1.1.1+rev1500-1.4) misreads es_info_length in every PMT whose
# reserved bits are set, as the standard wants (mpeg_pmt_section_codec()
# returns NULL; checked on the host with the library alone), so gnutv
# never adds the programme's PES filters (the same with a local card).
# vm-cost: 60 13%
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
cleanup() {
	[ -z "${gnutv_pid:-}" ] || kill "$gnutv_pid" 2>/dev/null || true
	netns_cleanup
}
trap cleanup EXIT

command -v gnutv >/dev/null || skip "dvb-apps not installed"

vt_load
netns_setup
vtunerd_start srv --sim --sim-tuners 1 --sim-delsys DVBS,DVBS2 -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0

# dvb-apps' satellite lines: name:MHz:polarisation:satellite:kSym/s:
# video PID:audio PID:service id (gnutv takes the PIDs from the PMT)
cat >chan.conf <<'CONF'
Sim Classic:10847:v:0:22000:257:258:301
Sim Jazz:10847:v:0:22000:0:290:303
CONF

timeout 40 gnutv -adapter 0 -channels chan.conf -out file rec.ts -timeout 6 \
	"Sim Classic" >gnutv.out 2>&1 || { cat gnutv.out; fail "gnutv failed"; }
cat gnutv.out
grep -q "locked on S 10847 V" "${VT_LOGDIR:-$VT_RESULTS}/srv.log" ||
	fail "vtunerd did not lock on S 10847 V (the LNB's voltage or tone, or the IF)"
# gnutv reads dvr0 4096 bytes at a time and stops mid-packet
size=$(stat -c %s rec.ts)
truncate -s $((size / 188 * 188)) rec.ts
rc=0
"$VT_TOOLS/vt-tscheck" rec.ts >rec.check || rc=$?
cat rec.check
[ "$rc" = 0 ] || fail "gnutv's recording has errors"
# PAT and the programme's PMT (0x100), whole; nothing of the other
# programmes
for pid in 0 256; do
	grep -q "^pid=$pid packets=[1-9][0-9]" rec.check || fail "gnutv's recording lacks PID $pid"
done
! grep -q "^pid=\(273\|274\|290\) " rec.check || fail "gnutv's recording has another programme's PIDs"

# the radio programme, no output, while dvbtraffic reads the whole TS
gnutv -adapter 0 -channels chan.conf -out null "Sim Jazz" >gnutv2.out 2>&1 &
gnutv_pid=$!
for _ in $(seq 50); do
	[ "$(grep -c "locked on S 10847 V" "${VT_LOGDIR:-$VT_RESULTS}/srv.log")" -gt 1 ] && break
	sleep 0.2
done
timeout 4 stdbuf -oL dvbtraffic -a 0 >traffic.out 2>&1 || true
kill "$gnutv_pid"
wait "$gnutv_pid" 2>/dev/null || true
gnutv_pid=
tail -n 12 traffic.out
# every programme of the transponder is there, not only the tuned one
for pid in 0000 0100 0101 0102 0111 0112 0122; do
	grep -qi "^$pid " traffic.out || fail "dvbtraffic does not see PID 0x$pid"
done

# satellite 1 (DiSEqC position B): nothing at 10847 V there
sed 's/:v:0:/:v:1:/' chan.conf >chan-b.conf
timeout 40 gnutv -adapter 0 -channels chan-b.conf -out null -timeout 3 \
	"Sim Classic" >gnutv3.out 2>&1 || true
tr '\r' '\n' <gnutv3.out | tail -n 3
! grep -q "FE_HAS_LOCK" gnutv3.out || fail "gnutv locked on 10847 V behind switch position B"
daemon_stop cli
daemon_stop srv
