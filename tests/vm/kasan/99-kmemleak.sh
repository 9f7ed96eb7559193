#!/bin/bash
# kmemleak, for the KASAN kernel of tests/vm/kasan.sh (booted with
# kmemleak=on).  Under the name 00-kmemleak-clear: scan, keep what the boot
# leaked in kmemleak-boot.txt and clear it.  Under any other name: scan
# twice, keep the report in kmemleak.txt and fail if it lists an object
# (every test before it may have leaked it; 99-kmemleak runs last) other
# than the known leak of dvb-core (6.1 and 6.12): dvb_device_open() takes a
# reference to the demux and dvr devices that their release() never drops,
# so once opened they are never freed (struct dvb_device, 256 bytes,
# allocated by dvb_register_device() from dvb_dmxdev_init(); those are
# kept in kmemleak-dvbcore.txt; docs/testing-kasan.md).
# vm-timeout: 900
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
km=/sys/kernel/debug/kmemleak
[ -e $km ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
[ -e $km ] || skip "no $km (CONFIG_DEBUG_KMEMLEAK, kmemleak=on)"
# an object is reported once it has been unreferenced for 5 s, at a scan
scan() {
	echo scan >$km || fail "kmemleak scan refused (disabled after an error?)"
	sleep 6
	echo scan >$km
}
case $(basename "$0" .sh) in
*clear*)
	scan
	cat $km >kmemleak-boot.txt
	log "$(grep -c '^unreferenced object' kmemleak-boot.txt || true) objects leaked during the boot (kmemleak-boot.txt), cleared"
	echo clear >$km
	;;
*)
	scan
	cat $km >kmemleak.txt
	awk '/^unreferenced object/ { flush(); rec = "" }
		{ rec = rec $0 "\n" }
		function flush() {
			if (rec == "") return
			if (rec ~ /dvb_register_device/ && rec ~ /dvb_dmxdev_init/)
				printf "%s", rec > "kmemleak-dvbcore.txt"
			else
				printf "%s", rec > "kmemleak-other.txt"
		}
		END { flush() }' kmemleak.txt
	n=$(grep -c '^unreferenced object' kmemleak.txt || true)
	k=$(grep -c '^unreferenced object' kmemleak-dvbcore.txt 2>/dev/null || true)
	log "$n unreferenced objects (kmemleak.txt), ${k:-0} of them dvb-core's demux and dvr devices (kmemleak-dvbcore.txt)"
	if [ "$n" -gt "${k:-0}" ]; then
		cat kmemleak-other.txt
		fail "kmemleak reports $((n - ${k:-0})) unreferenced objects besides dvb-core's"
	fi
	;;
esac
