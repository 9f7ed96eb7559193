#!/bin/bash
# A real dvb-core driver behind vtunerd, with every PID an application
# asks for: unmodified zapping tools record vidtv's "Beethoven" (service
# 2176: audio 273, PMT, and the PAT) first on vidtv directly (adapter0),
# then through vtunerd --adapter 0 and vtunerc (adapter1), for the same
# time, and ts_compare (lib.sh) holds the two recordings side by side:
# the same PIDs, through vtuner at least 90 % of each PID's packets, no
# continuity error.  vidtv's audio (PID 273) comes at a rate that
# follows the CPU the VM has left: its share is measured against what
# vidtv made in each recording's time (vidtv_ref_from in lib.sh).
#   dvbv5-zap -p      PAT, PMT and audio (DVB-T, DVBv5)
#   dvbv5-zap -P      the full TS (PID 0x2000); every PID vidtv carries
#   tzap -r -p        DVB-T, DVBv3 tune, its own recording of dvr0
#   gnutv -out dvr    PAT and PMT through section filters, then its PES
#                     filters to dvr0, read beside it: with Debian's
#                     libucsi only PAT and PMT (see 39-gnutv), two PIDs
#                     all the same
#   czap -r -p        DVB-C, dvr0 read beside it
# Then tzap, gnutv and czap again on a CUSE adapter (vtunerc --cuse,
# adapter8, no module), held against vidtv directly in the same way
# (dvbv5-zap does not see CUSE adapters: docs/cuse.md).  dvb-apps' scan
# finds the same services on all three, and femon reads czap's lock.
# vm-cost: 185 28%
# vm-timeout: 360
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

# the recordings (MB of full TS) stay in the guest's memory, not on 9p
rec=/tmp/rec
mkdir -p "$rec"
secs=7

vidtv_load
wait_for /dev/dvb/adapter0/frontend0 10 || fail "vidtv adapter missing"
vt_load
wait_for /dev/dvb/adapter1/frontend0 10 || fail "virtual adapter missing"

# vidtv's service, as each tool's channel list has it
cat >dvbv5.conf <<'CONF'
[Beethoven]
	SERVICE_ID = 2176
	AUDIO_PID = 273
	DELIVERY_SYSTEM = DVBT
	FREQUENCY = 474000000
	BANDWIDTH_HZ = 8000000
CONF
echo "Beethoven:474000000:INVERSION_AUTO:BANDWIDTH_8_MHZ:FEC_AUTO:FEC_AUTO:QAM_AUTO:TRANSMISSION_MODE_AUTO:GUARD_INTERVAL_AUTO:HIERARCHY_NONE:0:273:2176" >t.conf
echo "Beethoven:474000000:INVERSION_AUTO:6900000:FEC_NONE:QAM_AUTO:0:273:2176" >c.conf
echo "T 474000000 8MHz AUTO AUTO AUTO AUTO AUTO NONE" >scan.init

# record ADAPTER SIDE: every tool on one adapter; SIDE names the files
record() {
	local a=$1 s=$2 pid
	# libdvbv5 finds adapters through udev's dvb subsystem: not CUSE's
	if [ "$s" != cuse ]; then
		log "$s: dvbv5-zap -p"
		vidtv_ref_from "$s-zap" "$secs" "$rec/$s-zap.ts"
		timeout 60 dvbv5-zap -a "$a" -c dvbv5.conf -p -o "$rec/$s-zap.ts" -t "$secs" \
			Beethoven >"$s-zap.out" 2>&1 || { tail -n 5 "$s-zap.out"; log "$s: dvbv5-zap failed"; }
		log "$s: dvbv5-zap -P"
		vidtv_ref_from "$s-full" "$secs" "$rec/$s-full.ts"
		timeout 60 dvbv5-zap -a "$a" -c dvbv5.conf -P -r -o "$rec/$s-full.ts" -t "$secs" \
			Beethoven >"$s-full.out" 2>&1 || { tail -n 5 "$s-full.out"; log "$s: dvbv5-zap -P failed"; }
	fi
	# dvb-apps' scan: the service list, compared below
	log "$s: scan"
	timeout 90 scan -a "$a" scan.init >"$s-scan.out" 2>"$s-scan.log" ||
		{ tail -n 5 "$s-scan.log"; log "$s: scan failed"; }
	sort "$s-scan.out" >"$s-scan.sorted"
	log "$s: tzap -r -p"
	vidtv_ref_from "$s-tzap" "$secs" "$rec/$s-tzap.ts"
	timeout 60 tzap -a "$a" -c t.conf -r -p -o "$rec/$s-tzap.ts" -t "$secs" \
		Beethoven >"$s-tzap.out" 2>&1 || { tail -n 5 "$s-tzap.out"; log "$s: tzap failed"; }
	# gnutv tunes with the frontend's current system (DVBv3): before
	# czap.  Its dvr0 is read beside it from the first bytes, as czap's:
	# gnutv's own -timeout counts from its start, tune and tables
	# included, whose time varies from run to run by more than 10 %.
	log "$s: gnutv"
	gnutv -adapter "$a" -channels t.conf -out dvr Beethoven >"$s-gnutv.out" 2>&1 &
	pid=$!
	dvr_record "$a" "$secs" "$rec/$s-gnutv.ts"
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	[ -s "$rec/$s-gnutv.ts" ] || { tail -n 5 "$s-gnutv.out"; log "$s: gnutv: nothing on dvr0"; }
	# czap has no -o: it sets the filters, dvr0 is read beside it
	log "$s: czap -r -p"
	vidtv_ref_from "$s-czap" "$secs" "$rec/$s-czap.ts"
	stdbuf -oL czap -a "$a" -c c.conf -r -p Beethoven >"$s-czap.out" 2>&1 &
	pid=$!
	dvr_record "$a" "$secs" "$rec/$s-czap.ts"
	# femon, a second (read-only) opener, reads the lock czap holds
	timeout 10 femon -a "$a" -c 2 -H >"$s-femon.out" 2>&1 || true
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	grep -q "FE_HAS_LOCK" "$s-czap.out" || { tail -n 5 "$s-czap.out"; log "$s: czap: no lock"; }
}

record 0 direct

netns_setup
vtunerd_start srv --adapter 0 -l 10.99.0.1:5911
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0
dvb-fe-tool -a 1 | head -n 1
record 1 vtuner
# the same through a CUSE adapter (no module: vtunerc --cuse, adapter8)
daemon_stop cli
cuse_start cuse 8 -s 10.99.0.1 -t 0
record 8 cuse

for side in direct vtuner cuse; do
	grep -q "FE_HAS_LOCK" "$side-femon.out" ||
		{ cat "$side-femon.out"; fail "femon does not see czap's lock ($side)"; }
done
# scan finds the same services everywhere, Beethoven among them
cat direct-scan.sorted
grep -q "^Beethoven:474000000:.*:2176$" direct-scan.sorted || fail "scan: directly, no Beethoven: no baseline"
for side in vtuner cuse; do
	diff direct-scan.sorted "$side-scan.sorted" ||
		fail "scan finds other services through vtunerd ($side adapter) than on vidtv directly"
done
failed=()
for app in zap full tzap gnutv czap cuse-tzap cuse-gnutv cuse-czap; do
	side=vtuner
	case $app in cuse-*) side=cuse app=${app#cuse-} ;; esac
	log "compare $app: vidtv directly and through vtunerd, $side adapter"
	ref=
	[ "$app" = gnutv ] || ref="273 $(vidtv_ref "direct-$app") $(vidtv_ref "$side-$app")"
	TS_COMPARE_REF=$ref ts_compare "$rec/direct-$app.ts" "$rec/$side-$app.ts" | tee "$side-$app.cmp" ||
		failed+=("$side:$app")
done
# what the services are made of: the audio and the PAT, at least
for app in zap tzap czap; do
	for pid in 0 273; do
		grep -q "^ *$pid *[1-9]" "vtuner-$app.cmp" || fail "$app: directly, no PID $pid: no baseline"
	done
done
grep "SET_PIDS\|PID filter" "${VT_LOGDIR:-$VT_RESULTS}/cli.log" | sort | uniq -c | head -n 5 || true
[ ${#failed[@]} = 0 ] ||
	fail "through vtunerd, these recordings differ from vidtv's own: ${failed[*]}"
daemon_stop cuse
daemon_stop srv
