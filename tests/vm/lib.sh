# shellcheck shell=bash
# Helpers for VM tests (tests/vm/t/NN-name.sh); source it with
#   . "$VT_ROOT/tests/vm/lib.sh"
# A test runs as root inside the VM; exit 0 = pass, 77 = skip, else fail.
# Environment (set by guest.sh):
#   VT_ROOT     repository (read-only)      VT_BUILD  its build/ directory
#   VT_KVER     running kernel (uname -r)   VT_KO     vtunerc.ko for it
#   VT_VIDTV    directory of the dvb-vidtv-*.ko built for it
#   VT_RESULTS  writable directory for this test's artifacts (also the cwd)
#   HOME=/tmp (tmpfs), like /run, /var/tmp and /root
for _v in VT_ROOT VT_BUILD VT_KVER VT_KO VT_VIDTV VT_RESULTS; do
	if [ -z "${!_v:-}" ]; then
		echo "lib.sh: $_v is not set: run tests through tests/vm/run.sh" >&2
		exit 1
	fi
done
unset _v

log() { echo "[$(date +%T)] $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

# wait_for PATH [SECS]: wait until PATH exists (default 10 s); status 1 on timeout.
wait_for() {
	local path=$1 tries=$((${2:-10} * 10))
	while [ ! -e "$path" ]; do
		if [ $tries -le 0 ]; then
			echo "wait_for: $path did not appear within ${2:-10}s" >&2
			return 1
		fi
		tries=$((tries - 1))
		sleep 0.1
	done
}

_vt_loaded() { grep -q "^$1 " /proc/modules; }

# vt_kasan: whether the running kernel has KASAN (tests/vm/kasan.sh's):
# several times slower, and freed objects wait in its quarantine.
vt_kasan() { grep -qsx 'CONFIG_KASAN=y' "/boot/config-$VT_KVER"; }

# vt_load [PARAM=VALUE...]: load vtunerc.ko with the given module parameters.
vt_load() {
	[ -f "$VT_KO" ] || fail "$VT_KO not built (make module)"
	modprobe dvb-core || fail "modprobe dvb-core failed"
	insmod "$VT_KO" "$@" || fail "insmod $VT_KO $* failed"
}

vt_unload() {
	! _vt_loaded vtunerc || rmmod vtunerc || fail "rmmod vtunerc failed"
}

# vidtv_load [PARAM=VALUE...]: load vidtv; the parameters go to the bridge
# (e.g. frequencies, see Documentation/admin-guide/media/vidtv.rst).
vidtv_load() {
	local m
	modprobe dvb-core || fail "modprobe dvb-core failed"
	for m in tuner demod; do
		insmod "$VT_VIDTV/dvb-vidtv-$m.ko" || fail "insmod dvb-vidtv-$m.ko failed"
	done
	insmod "$VT_VIDTV/dvb-vidtv-bridge.ko" "$@" || fail "insmod dvb-vidtv-bridge.ko $* failed"
}

vidtv_unload() {
	local m
	for m in bridge demod tuner; do
		! _vt_loaded "dvb_vidtv_$m" || rmmod "dvb_vidtv_$m" ||
			fail "rmmod dvb_vidtv_$m failed"
	done
}

# ---- vtuner test programs ------------------------------------------------
VT_TOOLS=$VT_BUILD/tests/tuner

# tuner_start NAME ARGS...: start vt-testtuner in the background, wait until
# it has configured its device; its log is $VT_RESULTS/NAME.log.
tuner_start() {
	local name=$1
	shift
	rm -f "$VT_RESULTS/$name.ready" "$VT_RESULTS/$name.log"
	"$VT_TOOLS/vt-testtuner" --log "$VT_RESULTS/$name.log" \
		--ready-file "$VT_RESULTS/$name.ready" "$@" \
		2>"$VT_RESULTS/$name.err" &
	wait_for "$VT_RESULTS/$name.ready" 10 ||
		fail "vt-testtuner $name did not start: $(cat "$VT_RESULTS/$name.err")"
}

# tuner_stop NAME: stop a vt-testtuner started by tuner_start.
tuner_stop() {
	local pid
	pid=$(cat "$VT_RESULTS/$1.ready" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || true
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

# expect_log FILE PATTERN WHAT: the last line of FILE matching the basic
# regex PATTERN must exist.
expect_log() {
	grep -q -- "$2" "$1" || { echo "--- $1"; cat "$1"; fail "$3: no line matching '$2'"; }
}

# expect_fields LINE FIELD=VALUE...: every token must be in LINE.
expect_fields() {
	local line=" $1 " f
	shift
	for f in "$@"; do
		case $line in
		*" $f "*) ;;
		*) fail "expected $f in: $line" ;;
		esac
	done
}

# make_ts FILE [SECONDS]: a TS with two services made by ffmpeg's muxer:
# "VT_One" (service 100: PMT 4096, video 256, audio 257) and "VT_Radio"
# (service 200: PMT 4097, audio 258).
make_ts() {
	ffmpeg -v error -y -f lavfi -i testsrc=size=160x120:rate=25 \
		-f lavfi -i sine=frequency=1000 -f lavfi -i sine=frequency=500 \
		-t "${2:-3}" -map 0:v -map 1:a -map 2:a -c:v mpeg2video -b:v 500k \
		-c:a mp2 -b:a 64k \
		-program title=VT_One:program_num=100:st=0:st=1 \
		-program title=VT_Radio:program_num=200:st=2 \
		-mpegts_start_pid 256 -f mpegts "$1" || fail "ffmpeg could not make $1"
}

# ---- the daemons, across network namespaces -----------------------------
VTUNERD=$VT_BUILD/server/vtunerd
VTUNERC=$VT_BUILD/client/vtunerc

# netns_setup: namespaces "srv" (10.99.0.1) and "cli" (10.99.0.2) joined
# by a veth pair; removed by netns_cleanup.
# sim_channel NAME: one of the simulator's transponders (src/server/sim/
# world.c) as a dvbv5 initial channel file: s2 (DVB-S2 11362 MHz H, the
# universal LNB's low band, DiSEqC position 1), s2b (12188 MHz V, high
# band, position 2), t (DVB-T 506 MHz), c (DVB-C 346 MHz)
sim_channel() {
	case $1 in
	s2) printf '[S2]\n\tDELIVERY_SYSTEM = DVBS2\n\tFREQUENCY = 11362000\n\tPOLARIZATION = HORIZONTAL\n\tSYMBOL_RATE = 22000000\n\tINNER_FEC = 2/3\n\tMODULATION = PSK/8\n' ;;
	s2b) printf '[S2b]\n\tDELIVERY_SYSTEM = DVBS2\n\tFREQUENCY = 12188000\n\tPOLARIZATION = VERTICAL\n\tSYMBOL_RATE = 27500000\n\tINNER_FEC = 3/4\n\tMODULATION = QPSK\n' ;;
	t) printf '[T]\n\tDELIVERY_SYSTEM = DVBT\n\tFREQUENCY = 506000000\n\tBANDWIDTH_HZ = 8000000\n' ;;
	c) printf '[C]\n\tDELIVERY_SYSTEM = DVBC/ANNEX_A\n\tFREQUENCY = 346000000\n\tSYMBOL_RATE = 6900000\n\tMODULATION = QAM/256\n' ;;
	*) fail "sim_channel: no transponder '$1'" ;;
	esac
}
# sim_scan NAME TRANSPONDER ARGS...: dvbv5-scan ARGS of adapter 0 from
# sim_channel TRANSPONDER into NAME.conf (output NAME.out, its end shown)
sim_scan() {
	local name=$1
	sim_channel "$2" >"$name.init"
	shift 2
	timeout 120 dvbv5-scan -a 0 "$@" -o "$name.conf" "$name.init" >"$name.out" 2>&1 || true
	tail -n 8 "$name.out"
}
# has_service CONF NAME: CONF has a service NAME, else fail
has_service() {
	grep -qx "\[$2\]" "$1" || { cat "$1"; fail "$1: service '$2' not found"; }
}

netns_setup() {
	ip netns add srv
	ip netns add cli
	ip link add veth-s type veth peer name veth-c
	ip link set veth-s netns srv
	ip link set veth-c netns cli
	ip -n srv addr add 10.99.0.1/24 dev veth-s
	ip -n cli addr add 10.99.0.2/24 dev veth-c
	ip -n srv link set lo up
	ip -n cli link set lo up
	ip -n srv link set veth-s up
	ip -n cli link set veth-c up
}

netns_cleanup() {
	ip netns pids srv 2>/dev/null | xargs -r kill 2>/dev/null || true
	ip netns pids cli 2>/dev/null | xargs -r kill 2>/dev/null || true
	sleep 0.3
	ip netns del srv 2>/dev/null || true
	ip netns del cli 2>/dev/null || true
}

# The daemons log to $VT_LOGDIR/NAME.log (default $VT_RESULTS, which is on
# the host's 9p share: every line a round trip to QEMU).
# vtunerd_start NAME ARGS...: vtunerd in namespace srv; log NAME.log.
vtunerd_start() {
	local name=$1
	shift
	ip netns exec srv "$VTUNERD" -f -v "$@" >"${VT_LOGDIR:-$VT_RESULTS}/$name.log" 2>&1 &
	echo $! >"$VT_RESULTS/$name.pid"
	local i
	for i in $(seq 50); do
		ip netns exec srv ss -ltn 2>/dev/null | grep -q ":5911 " && return 0
		sleep 0.1
	done
	cat "${VT_LOGDIR:-$VT_RESULTS}/$name.log"
	fail "vtunerd $name does not listen"
}

# vtunerc_start NAME DEVICE ARGS...: vtunerc in namespace cli, waits until
# it owns DEVICE and configured the adapter.
vtunerc_start() {
	local name=$1 dev=$2
	shift 2
	ip netns exec cli "$VTUNERC" -f -v -d "$dev" "$@" >"${VT_LOGDIR:-$VT_RESULTS}/$name.log" 2>&1 &
	echo $! >"$VT_RESULTS/$name.pid"
	local proc=/proc/${dev#/dev/} i
	for i in $(seq 100); do
		if grep -q "^owner: .* vtunerc" "$proc" && ! grep -q "^name: vTuner (no client)" "$proc"; then
			return 0
		fi
		sleep 0.1
	done
	cat "${VT_LOGDIR:-$VT_RESULTS}/$name.log"
	fail "vtunerc $name did not configure $dev"
}

# san_setup: ASan and UBSan of the daemons started after it report into
# $SAN_DIR, a directory anyone may write (vtunerc --cuse runs as nobody);
# san_check LOG...: fails on any report there or sanitizer message in the
# LOGs (the reports are copied to the results).
san_setup() {
	SAN_DIR=$(mktemp -d /tmp/san.XXXXXX)
	chmod 1777 "$SAN_DIR"
	export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0:log_path=$SAN_DIR/asan"
	export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$SAN_DIR/ubsan"
}
san_check() {
	local reports f
	cp "$SAN_DIR"/* "$VT_RESULTS/" 2>/dev/null || true
	reports=$(ls "$SAN_DIR"/asan.* "$SAN_DIR"/ubsan.* 2>/dev/null || true)
	for f in $reports; do echo "--- $f"; head -n 60 "$f"; done
	[ -z "$reports" ] || fail "sanitizer reports: $reports"
	! grep -h "runtime error\|AddressSanitizer\|LeakSanitizer" "$@" ||
		fail "sanitizer messages in $*"
	log "no sanitizer reports"
}

# cuse_start NAME ADAPTER ARGS...: vtunerc --cuse in namespace cli serving
# /dev/dvb/adapterADAPTER through CUSE (no module; docs/cuse.md); waits
# until the three nodes are there and the adapter is configured.  Skips
# the test where the guest has no CUSE or vtunerc no libfuse3.
cuse_start() {
	local name=$1 a=$2 log
	shift 2
	modprobe cuse 2>/dev/null || skip "no cuse module"
	[ -c /dev/cuse ] || skip "no /dev/cuse"
	"$VTUNERC" --cuse --check -s 10.99.0.1 >/dev/null 2>&1 ||
		skip "vtunerc built without libfuse3"
	log=${VT_LOGDIR:-$VT_RESULTS}/$name.log
	ip netns exec cli "$VTUNERC" -f -v --cuse --cuse-adapter "$a" "$@" >"$log" 2>&1 &
	echo $! >"$VT_RESULTS/$name.pid"
	for _ in $(seq 150); do
		[ -c "/dev/dvb/adapter$a/frontend0" ] && [ -c "/dev/dvb/adapter$a/demux0" ] &&
			[ -c "/dev/dvb/adapter$a/dvr0" ] && grep -q "is now" "$log" && return 0
		kill -0 "$(cat "$VT_RESULTS/$name.pid")" 2>/dev/null || break
		sleep 0.1
	done
	ls -l "/dev/dvb/adapter$a" || true
	cat "$log"
	fail "vtunerc --cuse $name did not set up and configure /dev/dvb/adapter$a"
}

# chain_second_hop: the first client's adapter (adapter0, /dev/vtunerc0)
# served again by a second vtunerd in namespace cli (10.99.0.2, dvb
# backend, log srv2.log), and a second vtunerc in namespace srv feeding
# /dev/vtunerc1 (adapter1, log hop2.log); fails unless adapter1 is then
# the chained tuner.  Stop them with daemon_stop hop2 and srv2.
chain_second_hop() {
	ip netns exec cli "$VTUNERD" -f -v --adapter 0 -l 10.99.0.2:5911 >srv2.log 2>&1 &
	echo $! >"$VT_RESULTS/srv2.pid"
	for _ in $(seq 50); do
		ip netns exec cli ss -ltn | grep -q "10.99.0.2:5911 " && break
		sleep 0.1
	done
	ip netns exec srv "$VTUNERC" -f -v -d /dev/vtunerc1 -s 10.99.0.2 -t 0 >hop2.log 2>&1 &
	echo $! >"$VT_RESULTS/hop2.pid"
	for _ in $(seq 100); do
		grep -q "^owner: .* vtunerc" /proc/vtunerc1 &&
			! grep -q "^name: vTuner (no client)" /proc/vtunerc1 && break
		sleep 0.1
	done
	dvb-fe-tool -a 1 | head -n 1 | tee fe.out
	grep -q "@ 10.99.0.2" fe.out || fail "adapter1 is not the chained tuner: $(cat fe.out)"
}

# daemon_stop NAME: stop a daemon started above.
daemon_stop() {
	local pid
	pid=$(cat "$VT_RESULTS/$1.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || true
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

# ---- DNS-SD (mDNS) inside the network namespaces ------------------------
# mdns_setup NS IFACE: in namespace NS, a private mount namespace with its
# own /run, D-Bus system bus and avahi-daemon (host name vt-NS, IPv4 on
# IFACE only); its files are in $VT_RESULTS/mdns-NS/.  Everything that
# talks to this avahi-daemon runs through mdns_exec.  The daemons are in
# NS: netns_cleanup ends them.  Skips the test without the daemons.
mdns_setup() {
	local ns=$1 ifc=$2 dir=$VT_RESULTS/mdns-$1 i
	if ! command -v avahi-daemon >/dev/null || ! command -v dbus-daemon >/dev/null; then
		skip "avahi-daemon or dbus-daemon not installed"
	fi
	mkdir -p "$dir"
	rm -f "$dir/ready"
	cat >"$dir/dbus.conf" <<-'EOF'
	<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
	 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
	<busconfig>
	  <type>system</type>
	  <listen>unix:path=/run/dbus/system_bus_socket</listen>
	  <auth>EXTERNAL</auth>
	  <policy context="default">
	    <allow user="*"/>
	    <allow own="*"/>
	    <allow send_destination="*"/>
	    <allow receive_sender="*"/>
	  </policy>
	</busconfig>
	EOF
	cat >"$dir/avahi.conf" <<-EOF
	[server]
	host-name=vt-$ns
	use-ipv4=yes
	use-ipv6=no
	allow-interfaces=$ifc
	enable-dbus=yes
	[wide-area]
	enable-wide-area=no
	[publish]
	publish-hinfo=no
	publish-workstation=no
	EOF
	# ip netns exec, unshare and sh exec one another: $! ends as "sleep"
	# shellcheck disable=SC2016
	ip netns exec "$ns" unshare -m --propagation private sh -c '
		set -e
		mount -t tmpfs tmpfs /run
		mkdir -p /run/dbus /run/avahi-daemon
		dbus-daemon --config-file="$1/dbus.conf" --fork --nopidfile
		avahi-daemon --no-drop-root --no-chroot --no-rlimits -D \
			--file="$1/avahi.conf"
		touch "$1/ready"
		exec sleep infinity' sh "$dir" >"$dir/setup.log" 2>&1 &
	echo $! >"$dir/pid"
	for i in $(seq 100); do
		[ -e "$dir/ready" ] && return 0
		kill -0 "$(cat "$dir/pid")" 2>/dev/null || break
		sleep 0.1
	done
	cat "$dir/setup.log"
	fail "D-Bus and avahi-daemon did not start in namespace $ns"
}

# mdns_exec NS CMD...: run CMD in namespace NS beside its avahi-daemon.
# In a subshell (mdns_exec ... &) it execs, so that $! is CMD's pid.
mdns_exec() {
	local ns=$1 pid
	shift
	pid=$(cat "$VT_RESULTS/mdns-$ns/pid")
	# -r: the guest runs the tests chrooted, setns() would leave the chroot
	if [ "$BASHPID" != "$$" ]; then
		exec nsenter -t "$pid" -m -n -r --wd="$PWD" -- "$@"
	fi
	nsenter -t "$pid" -m -n -r --wd="$PWD" -- "$@"
}

# mdns_vtunerd_start NAME ARGS...: vtunerd -f -v ARGS in namespace srv
# beside its avahi-daemon; log NAME.log, waits until it listens on 5911.
mdns_vtunerd_start() {
	local name=$1 i
	shift
	mdns_exec srv "$VTUNERD" -f -v "$@" >"$VT_RESULTS/$name.log" 2>&1 &
	echo $! >"$VT_RESULTS/$name.pid"
	for i in $(seq 50); do
		ip netns exec srv ss -ltn 2>/dev/null | grep -q ":5911 " && return 0
		sleep 0.1
	done
	cat "$VT_RESULTS/$name.log"
	fail "vtunerd $name does not listen"
}

# mdns_vtunerc_start NAME DEVICE ARGS...: vtunerc -f -v -d DEVICE ARGS in
# namespace cli beside its avahi-daemon (discovery); waits until it owns
# DEVICE and configured the adapter.
mdns_vtunerc_start() {
	local name=$1 dev=$2 i
	shift 2
	mdns_exec cli "$VTUNERC" -f -v -d "$dev" "$@" >"$VT_RESULTS/$name.log" 2>&1 &
	echo $! >"$VT_RESULTS/$name.pid"
	local proc=/proc/${dev#/dev/}
	# shellcheck disable=SC2034
	for i in $(seq 150); do
		if grep -q "^owner: .* vtunerc" "$proc" && ! grep -q "^name: vTuner (no client)" "$proc"; then
			return 0
		fi
		# the client gave up (no server, no free tuner)
		kill -0 "$(cat "$VT_RESULTS/$name.pid")" 2>/dev/null || break
		sleep 0.1
	done
	cat "$VT_RESULTS/$name.log"
	fail "vtunerc $name did not configure $dev"
}

# ---- comparing a recording through vtuner with one from the driver -----
# ts_compare DIRECT REMOTE [IGNORE]: DIRECT recorded on a driver's own
# adapter, REMOTE by the same application for the same time through
# vtunerd and vtunerc.  Prints a table of both files' PIDs (vt-tscheck;
# the null PID 8191 and the PIDs of the comma list IGNORE left out):
# packets, REMOTE's share of DIRECT's, continuity errors.  Status 1, with
# one "ts_compare:" line per problem, unless REMOTE has exactly DIRECT's
# PIDs, each with at least TS_COMPARE_MIN (default 90) % of DIRECT's
# packets, and neither file has a continuity or sync error.  A partial
# packet at a file's end (a recording stopped mid-write) is no error.
# TS_COMPARE_REF="PID DREF RREF": the source made PID's packets at
# another rate in the two runs (vidtv's audio: vidtv_ref below), DREF
# packets in the direct run's time, RREF in REMOTE's: REMOTE's share of
# PID is measured against DIRECT's count times RREF/DREF.
# TS_COMPARE_CLOCK=PID: the recordings' times differ (a receiver's
# wall-clock window, under TCG): PID's packets come at a fixed rate of
# the source's clock (vidtv's PAT, 25 a second), and every other PID's
# count is measured against DIRECT's times the ratio of PID's counts; PID
# itself is not compared by count.  TS_COMPARE_CC_OK=N: the application
# said it dropped N packets itself (VDR's ring buffer): up to N
# continuity errors a PID pass, and are shown.
ts_compare() {
	local a=$1 b=$2 ignore=,8191,${3:-}, f refv
	read -r -a refv <<<"${TS_COMPARE_REF:-}"
	for f in "$a" "$b"; do
		[ -f "$f" ] || { echo "ts_compare: $f: no recording"; return 1; }
	done
	# vt-tscheck exits 1 on continuity errors: they are judged here
	{ "$VT_TOOLS/vt-tscheck" "$a" || true; echo "file 2"; "$VT_TOOLS/vt-tscheck" "$b" || true; } |
		awk -v ign="$ignore" -v min="${TS_COMPARE_MIN:-90}" -v fa="$a" -v fb="$b" \
			-v refpid="${refv[0]:--1}" -v dref="${refv[1]:-0}" -v rref="${refv[2]:-0}" \
			-v clock="${TS_COMPARE_CLOCK:--1}" -v ccok="${TS_COMPARE_CC_OK:-0}" '
		BEGIN { f = 1 }
		/^file 2$/ { f = 2; next }
		/^pid=/ {
			split($1, k, "="); split($2, n, "="); split($3, c, "=")
			if (index(ign, "," k[2] ",")) next
			if (!(k[2] in seen)) { seen[k[2]] = 1; pids[np++] = k[2] + 0 }
			cnt[f, k[2]] = n[2]; cc[f, k[2]] = c[2]
		}
		/^ccerr / { split($2, k, "="); where[f, k[2]] = $3 " " $4 " " $5 " " $6 }
		/^total / {
			for (i = 2; i <= NF; i++) { split($i, kv, "="); tot[f, kv[1]] = kv[2] }
		}
		function problem(s) { msg = msg "ts_compare: " s "\n" }
		END {
			for (i = 1; i < np; i++)	# sort the PIDs
				for (j = i; j > 0 && pids[j - 1] > pids[j]; j--) {
					t = pids[j]; pids[j] = pids[j - 1]; pids[j - 1] = t
				}
			scale = 1
			if (clock >= 0 && cnt[1, clock] > 0 && cnt[2, clock] > 0) {
				scale = cnt[2, clock] / cnt[1, clock]
				printf "time: PID %d has %d packets directly, %d through vtuner: direct counts x %.3f\n",
					clock, cnt[1, clock], cnt[2, clock], scale
			} else if (clock >= 0)
				problem("clock PID " clock " missing")
			if (ccok)
				printf "the application dropped %d packets itself: up to %d continuity errors a PID pass\n", ccok, ccok
			printf "%6s %9s %9s %7s %5s %5s\n", "pid", "direct", "vtuner", "share", "cc_d", "cc_v"
			nd = 0
			for (i = 0; i < np; i++) {
				p = pids[i]; d = cnt[1, p] + 0; r = cnt[2, p] + 0
				nd += d > 0
				if (p == refpid && dref > 0 && rref > 0) {
					printf "%6d %9d  source: %d directly, %d through vtuner: x %.3f\n",
						p, d, dref, rref, rref / dref
					d = d * rref / dref
				}
				if (p != clock)
					d *= scale
				printf "%6d %9.0f %9d %7s %5d %5d\n", p, d, r,
					d ? sprintf("%.1f%%", 100 * r / d) : "-", cc[1, p], cc[2, p]
				if (!d)
					problem("PID " p " only through vtuner (" r " packets), not directly")
				else if (!r)
					problem("PID " p " missing through vtuner (" d " packets directly)")
				else if (p != clock && r * 100 < d * min)
					problem(sprintf("PID %d: %d packets through vtuner, %.1f%% of %.0f directly (< %d%%)",
						p, r, 100 * r / d, d, min))
				if (cc[1, p] > ccok || cc[2, p] > ccok)
					problem("PID " p ": continuity errors, " cc[1, p] + 0 " directly, " cc[2, p] + 0 \
						" through vtuner" ((1, p) in where ? "; directly, the first at " where[1, p] : "") \
						((2, p) in where ? "; through vtuner, the first at " where[2, p] : ""))
			}
			if (!nd)
				problem("the direct recording " fa " has no packets: no baseline")
			if (tot[1, "sync_errors"] + tot[1, "dropped_bytes"])
				problem("sync errors in the direct recording " fa)
			if (tot[2, "sync_errors"] + tot[2, "dropped_bytes"])
				problem("sync errors in the recording through vtuner " fb)
			printf "%s", msg
			exit msg != ""
		}'
}

# vidtv_ref_start NAME SECS [PID]: count, on vidtv's own demux (adapter0,
# a filter of its own: vt-pidchurn holding one PID), the packets of PID
# (default 273) vidtv makes in the next SECS seconds; vidtv_ref NAME
# waits and prints the count.  vidtv's audio encoder makes one access
# unit each turn of its thread, whatever the time: under TCG its rate
# follows the CPU the VM has left (+-20 % between two runs of the same
# application), so ts_compare needs it (TS_COMPARE_REF).
# vidtv_ref_cmd NAME SECS [PID]: the command line of vidtv_ref_start, for
# TS_RECEIVE_START.
vidtv_ref_start() {
	rm -f "$VT_RESULTS/$1.ref"
	"$VT_TOOLS/vt-pidchurn" -a 0 -d "$2" -s 3600000 "${3:-273}" >"$VT_RESULTS/$1.ref" 2>&1 &
	echo $! >"$VT_RESULTS/$1.refpid"
}

# dvr_record ADAPTER SECS FILE: read the adapter's dvr0 into FILE for SECS
# seconds counted from the first bytes (a tune through vtuner takes longer
# than on the card itself: a window that counted it would be shorter)
dvr_record() {
	local pid
	rm -f "$3"
	cat "/dev/dvb/adapter$1/dvr0" >"$3" &
	pid=$!
	for _ in $(seq 600); do
		[ -s "$3" ] && break
		sleep 0.05
	done
	sleep "$2"
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

# vidtv_ref_from NAME SECS FILE: as vidtv_ref_start, but the SECS count
# from the moment FILE (a recording, removed here) first holds data, so
# that the reference's window is the recording's, not shifted by the time
# a tune takes (which differs between vidtv directly and through vtuner)
vidtv_ref_from() {
	rm -f "$VT_RESULTS/$1.ref" "$3"
	(
		for _ in $(seq 600); do
			[ -s "$3" ] && break
			sleep 0.05
		done
		exec "$VT_TOOLS/vt-pidchurn" -a 0 -d "$2" -s 3600000 273
	) >"$VT_RESULTS/$1.ref" 2>&1 &
	echo $! >"$VT_RESULTS/$1.refpid"
}

vidtv_ref_cmd() {
	rm -f "$VT_RESULTS/$1.ref" "$VT_RESULTS/$1.refpid"
	printf '%q ' "$VT_TOOLS/vt-pidchurn" -a 0 -d "$2" -s 3600000 "${3:-273}"
	printf '>%q 2>&1' "$VT_RESULTS/$1.ref"
}

vidtv_ref() {
	local pid n
	for _ in $(seq 300); do
		if [ -s "$VT_RESULTS/$1.ref" ] && grep -q "^changes=" "$VT_RESULTS/$1.ref"; then
			break
		fi
		sleep 0.1
	done
	pid=$(cat "$VT_RESULTS/$1.refpid" 2>/dev/null || true)
	[ -z "$pid" ] || wait "$pid" 2>/dev/null || true
	n=$(sed -n 's/^changes=[0-9]* bytes=\([0-9]*\)$/\1/p' "$VT_RESULTS/$1.ref")
	echo $((${n:-0} / 188))
}

# ts_receive URL SECS FILE [WARMUP]: record into FILE what a streaming
# server sends: udp://ADDR:PORT is listened on, http://HOST:PORT/PATH
# fetched (HTTP/1.0, the body only).  The SECS seconds count from the
# first byte, so that a tune's delay does not shorten the recording;
# with WARMUP, what comes in the first WARMUP seconds is left out (whole
# 188-byte packets).  TS_RECEIVE_START: a shell command started (in the
# background) when the recording starts.  Status not 0 (with a message)
# if the server answers no 200, or nothing came in 30 s.
ts_receive() {
	# a stalled reader must not lose datagrams
	case $1 in udp://*) sysctl -qw net.core.rmem_max=16777216 ;; esac
	perl -MSocket -MIO::Socket::INET -MIO::Select -MTime::HiRes=time -e '
		my ($url, $secs, $out, $warm) = @ARGV;
		my ($s, $head, $skipped, $started) = (undef, undef, 0, 0);
		$warm ||= 0;
		if ($url =~ m{^udp://([^:/]+):(\d+)$}) {
			$s = IO::Socket::INET->new(LocalAddr => $1, LocalPort => $2,
				Proto => "udp", ReuseAddr => 1);
			setsockopt($s, SOL_SOCKET, SO_RCVBUF, 16 << 20) if $s;
		} elsif ($url =~ m{^http://([^/]+)(/.*)$}) {
			$s = IO::Socket::INET->new(PeerAddr => $1, Proto => "tcp", Timeout => 10);
			syswrite($s, "GET $2 HTTP/1.0\r\nHost: $1\r\n\r\n") if $s;
			$head = "";
		} else {
			die "ts_receive: bad URL $url\n";
		}
		$s or die "ts_receive: $url: $!\n";
		open(my $f, ">", $out) or die "ts_receive: $out: $!\n";
		binmode $f;
		my $sel = IO::Select->new($s);
		my ($start, $first, $buf) = (time, 0, "");
		for (;;) {
			last if $first && time - $first >= $warm + $secs;
			die "ts_receive: $url: nothing within 30 s\n" if !$first && time - $start > 30;
			next unless $sel->can_read(0.1);
			my $n = sysread($s, $buf, 1 << 16);
			last unless $n;		# end of the HTTP body
			if (defined $head) {
				$head .= $buf;
				my $i = index($head, "\r\n\r\n");
				next if $i < 0;
				$head =~ m{^HTTP/\S+ 200 } or
					die "ts_receive: $url: " . (split /\r\n/, $head)[0] . "\n";
				$buf = substr($head, $i + 4);
				undef $head;
			}
			next unless length $buf;
			$first ||= time;
			if (time - $first < $warm) {
				$skipped += length $buf;
				next;
			}
			if (!$started++ && $ENV{TS_RECEIVE_START}) {
				system("sh", "-c", "$ENV{TS_RECEIVE_START} &");
			}
			if ($skipped % 188) {	# the rest of a packet left out
				my $n = 188 - $skipped % 188;
				$n = length $buf if $n > length $buf;
				$buf = substr($buf, $n);
				$skipped += $n;
			}
			print $f $buf;
		}
		close($f) or die "ts_receive: $out: $!\n";
		printf "ts_receive: %s: %d bytes in %.1f s (after %d bytes in %.1f s left out)\n",
			$url, -s $out, time - ($first || $start) - $warm, $skipped, $warm;
	' "$@"
}

# ---- VDR with its streamdev-server plugin ---------------------------------
VDR_SYSLOG=/tmp/vdr-syslog
# vdr_start NAME DEVICE CHANNELS [SETUP]: VDR on DVB device DEVICE only
# (-D: 0 is the first adapter), its channel list CHANNELS, its setup.conf
# lines SETUP; directory $VT_RESULTS/NAME, log in $VDR_SYSLOG (a busybox
# syslogd, started once; in memory: VDR's syslog() calls must not wait
# for 9p writes, copy it to $VT_RESULTS at the end).  Waits until
# streamdev-server listens on
# port 3000 (channel N is http://127.0.0.1:3000/TS/N); daemon_stop NAME
# ends it.
vdr_start() {
	local name=$1 dev=$2 d=$VT_RESULTS/$1
	command -v vdr >/dev/null || skip "vdr not installed"
	[ -e "$(echo /usr/lib/vdr/plugins/libvdr-streamdev-server.so.*)" ] ||
		skip "vdr-plugin-streamdev-server not installed"
	ip link set lo up
	if [ ! -e "$VT_RESULTS/syslogd.pid" ]; then
		busybox syslogd -n -O "$VDR_SYSLOG" &
		echo $! >"$VT_RESULTS/syslogd.pid"
	fi
	mkdir -p "$d/plugins/streamdev-server" "$d/video" "$d/cache"
	cp "$3" "$d/channels.conf"
	printf '%s\n' "${4:-}" >"$d/setup.conf"
	cp /etc/vdr/sources.conf "$d/"
	echo 127.0.0.1 >"$d/plugins/streamdev-server/streamdevhosts.conf"
	vdr -c "$d" -v "$d/video" --cachedir="$d/cache" -L /usr/lib/vdr/plugins \
		-P streamdev-server -D "$dev" --no-kbd -p 0 -E- -l 3 >"$d.out" 2>&1 &
	echo $! >"$VT_RESULTS/$name.pid"
	for _ in $(seq 150); do
		ss -ltn | grep -q ":3000 " && return 0
		kill -0 "$(cat "$VT_RESULTS/$name.pid")" 2>/dev/null || break
		sleep 0.2
	done
	cat "$d.out"
	fail "VDR $name: streamdev-server does not listen"
}
