#!/bin/bash
# A TV service on four PIDs of its own (PMT, video, audio and the PCR),
# through two hops, to VDR: vtunerd --sim plays it, a first vtunerc feeds
# adapter0, a second vtunerd serves that virtual adapter (its dvb
# backend, as for a real card) to a second vtunerc, adapter1, where VDR's
# streamdev-server streams the channel over HTTP.  ffprobe finds, in 7 s
# of that stream, the programme with its PCR PID, MPEG-2 video at the
# simulator's configured rate and MP2 audio at 192 kbit/s.
#   srv: vtunerd --sim  ->  cli: vtunerc (adapter0) + vtunerd --adapter 0
#   srv: vtunerc (adapter1)  <-  VDR -D 1, streamdev-server  <-  HTTP
#
# The simulator puts the PCR on the video PID: its stream for this test
# is made by vts-gen from a sim configuration, and pcrmove() below moves
# every PCR into an adaptation-field-only packet of a PCR PID of its own
# (in place of a null packet, the PCR advanced by the slots in between,
# so the timing stays exact) and points the PMT's PCR_PID at it; vtunerd
# --sim plays that file (ts_file).
# vm-cost: 37 39%
# vm-timeout: 300
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
cleanup() {
	local p
	for p in vdr syslogd; do
		[ ! -e "$VT_RESULTS/$p.pid" ] || kill "$(cat "$VT_RESULTS/$p.pid")" 2>/dev/null || true
	done
	cp "$VDR_SYSLOG" "$VT_RESULTS/syslog" 2>/dev/null || true
	# the stream, for a look when the test failed
	[ "$passed" = 1 ] || cp /tmp/vdr.ts "$VT_RESULTS/" 2>/dev/null || true
	netns_cleanup
}
trap cleanup EXIT
passed=0

gen=$VT_BUILD/server/sim/vts-gen
[ -x "$gen" ] || fail "$gen not built (make all)"
command -v ffprobe >/dev/null || skip "ffprobe not installed"

# the service: video 3 Mbit/s (the TS rate of its PID), the sim's MP2
# audio (192 kbit/s, 219334 bit/s of TS), PMT 0x200, video 0x201, audio
# 0x202; the PCR will be on 0x203
video_rate=3000000
cat >gen.conf <<CONF
[transponder Chain]
delsys = DVBT
frequency = 522 MHz
ts_id = 0x522
bitrate = 4000000
[service Chain TV]
id = 0x522
provider = Sim Chain
type = tv
pmt_pid = 0x200
video_pid = 0x201
audio_pid = 0x202
video_bitrate = $video_rate
CONF

# pcrmove IN OUT PMT_PID VIDEO_PID PCR_PID BITRATE
pcrmove() {
	perl -e '
	use strict;
	my ($in, $out, $pmtpid, $vpid, $pcrpid, $rate) = @ARGV;
	open(my $i, "<:raw", $in) or die "$in: $!\n";
	open(my $o, ">:raw", $out) or die "$out: $!\n";
	my @t;		# CRC-32/MPEG-2
	for my $n (0 .. 255) {
		my $c = $n << 24;
		$c = $c & 0x80000000 ? (($c << 1) ^ 0x04c11db7) & 0xffffffff
				     : ($c << 1) & 0xffffffff for 1 .. 8;
		$t[$n] = $c;
	}
	sub crc32 {
		my $c = 0xffffffff;
		$c = (($c << 8) & 0xffffffff) ^ $t[(($c >> 24) ^ $_) & 0xff]
			for unpack("C*", $_[0]);
		return $c;
	}
	my ($slot, $pend, $from, $moved, $made, $pmts, $p) = (0, undef, 0, 0, 0, 0);
	local $/ = \188;
	while (defined($p = <$i>) && length($p) == 188) {
		my ($b1, $b3, $afl, $flags) = unpack("x C x C C C", $p);
		my $pid = unpack("n", substr($p, 1, 2)) & 0x1fff;
		if ($pid == $vpid && ($b3 & 0x20) && $afl >= 7 && ($flags & 0x10)) {
			# the PCR (the first optional field) becomes stuffing
			my ($hi, $lo) = unpack("N n", substr($p, 6, 6));
			$pend = ($hi * 2 + ($lo >> 15)) * 300 + ($lo & 0x1ff);
			$from = $slot;
			substr($p, 5, 1) = chr($flags & ~0x10 & 0xff);
			substr($p, 6, 6) = "\xff" x 6;
			$moved++;
		} elsif ($pid == 0x1fff && defined $pend) {
			my $pcr = $pend + int(($slot - $from) * 1504 * 27000000 / $rate);
			my $base = int($pcr / 300);
			$p = pack("C n C C C N n", 0x47, $pcrpid, 0x20, 183, 0x10,
				int($base / 2), ($base % 2) << 15 | 0x7e00 | $pcr % 300) .
				"\xff" x 176;
			undef $pend;
			$made++;
		} elsif ($pid == $pmtpid) {
			($b1 & 0x40) && ($b3 & 0x30) == 0x10 or
				die "PMT in packet $slot: not one whole section\n";
			my $s = 5 + unpack("C", substr($p, 4, 1));
			my $len = 3 + (unpack("n", substr($p, $s + 1, 2)) & 0xfff);
			substr($p, $s + 8, 2) = pack("n", 0xe000 | $pcrpid);
			substr($p, $s + $len - 4, 4) = pack("N", crc32(substr($p, $s, $len - 4)));
			$pmts++;
		}
		print $o $p;
		$slot++;
	}
	close($o) or die "$out: $!\n";
	$moved && $made > $moved * 0.9 && $pmts or die "pcrmove: $moved PCRs, $made moved, $pmts PMTs\n";
	print "pcrmove: $slot packets; $made of $moved PCRs moved from PID $vpid to PID $pcrpid; $pmts PMTs\n";
	' "$@"
}
"$gen" -c gen.conf -s 30 -o /tmp/gen.ts Chain || fail "vts-gen failed"
pcrmove /tmp/gen.ts /tmp/chain.ts 512 513 515 4000000 || fail "pcrmove failed"
ffprobe -v error -show_entries program=pmt_pid,pcr_pid -of compact /tmp/chain.ts >gen.probe
cat gen.probe
grep -q "pmt_pid=512|pcr_pid=515" gen.probe || fail "the PCR PID of the file is not 515"
rm -f /tmp/gen.ts
cat >sim.conf <<'CONF'
[transponder Chain]
delsys = DVBT
frequency = 522 MHz
modulation = QAM64
fec = 2/3
ts_id = 0x522
bitrate = 4000000
ts_file = /tmp/chain.ts
CONF

vt_load adapters=2
netns_setup
vtunerd_start srv --sim --sim-tuners 1 --sim-config "$VT_RESULTS/sim.conf" -l 10.99.0.1:5911
vtunerc_start hop1 /dev/vtunerc0 -s 10.99.0.1 -t 0
chain_second_hop

# VDR on adapter1 only: DVB-T 522 MHz, 8 MHz, QAM64, FEC 2/3 (VDR's
# defaults are QPSK and no FEC); video 513 with its PCR PID 515
# (VPID+PPID=type), audio 514; service 1314 of TS 1314 on network 1
echo "Chain TV;Sim Chain:522:B8C23D0G4M64T8Y0S0:T:0:513+515=2:514=eng@3:0:0:1314:1:1314:0" >channels.conf
vdr_start vdr 1 channels.conf "UpdateChannels = 0"
ts_receive http://127.0.0.1:3000/TS/1 7 /tmp/vdr.ts || fail "no stream from VDR"
daemon_stop vdr
grep -q "locked on Chain" "${VT_LOGDIR:-$VT_RESULTS}/srv.log" ||
	fail "vtunerd --sim did not lock on the transponder"

rc=0
"$VT_TOOLS/vt-tscheck" /tmp/vdr.ts >vdr.check || rc=$?
cat vdr.check
[ "$rc" != 2 ] || fail "vt-tscheck failed"
for pid in 512 513 514 515; do
	grep -q "^pid=$pid packets=[1-9]" vdr.check || fail "the stream lacks PID $pid"
done
grep -q "cc_errors=0 sync_errors=0" vdr.check || fail "continuity or sync errors in the stream"

ffprobe -v error -show_entries program=pmt_pid,pcr_pid:stream=index,codec_name,codec_type,width,height,bit_rate \
	-of compact /tmp/vdr.ts | tee probe.txt
grep -q "^program|pmt_pid=512|pcr_pid=515" probe.txt || fail "ffprobe: no programme with PCR PID 515"
grep -q "codec_name=mpeg2video|codec_type=video|width=720|height=576" probe.txt ||
	fail "ffprobe finds no 720x576 MPEG-2 video"
grep -q "codec_name=mp2|codec_type=audio|bit_rate=192000" probe.txt ||
	fail "ffprobe finds no 192 kbit/s MP2 audio"
# the video's rate as its sequence header says (CPB properties)
ffprobe -v error -select_streams v -show_entries stream_side_data=max_bitrate \
	-of compact /tmp/vdr.ts >probe-video.txt
grep -q "max_bitrate=$video_rate$" probe-video.txt ||
	fail "ffprobe: the video's bit rate is not $video_rate: $(cat probe-video.txt)"
# The rate of each stream from ffprobe's packets: its bytes over its PTS
# span (plus one packet's duration).  The sim's video_bitrate is the TS
# rate of the video PID, of which 184 of 188 bytes are payload; its PES
# headers and the stuffing that replaced the PCR take about 0.1 % more;
# its audio is MP2 at 192 kbit/s.  +-5 %: over 7 s, the streams' ends cut
# mid-PES cost at most one 40 ms frame (0.6 %); a lost packet in every
# twenty would already break it.
ffprobe -v error -show_entries packet=stream_index,pts_time,duration_time,size \
	-of csv=p=0:nk=1 /tmp/vdr.ts |
	awk -F, -v v="$video_rate" '
	NF >= 4 && $2 != "N/A" {	# a packet with side data has a 5th, empty field
		k = $1; n[k]++; s[k] += $4; if (!(k in f)) f[k] = $2; l[k] = $2; d[k] = $3
	}
	END {
		want[0] = v * 184 / 188; want[1] = 192000
		for (k = 0; k <= 1; k++) {
			span = l[k] - f[k] + d[k]
			r = span > 0 ? s[k] * 8 / span : 0
			ok = r >= want[k] * 0.95 && r <= want[k] * 1.05
			printf "stream %d: %d packets, %d bytes in %.3f s: %.0f bit/s, expected %.0f: %s\n",
				k, n[k], s[k], span, r, want[k], ok ? "ok" : "WRONG"
			if (!ok || span < 5) bad = 1
		}
		exit bad
	}' | tee rates.txt || fail "the streams' bit rates are not the configured ones"
if grep "continuity error" hop2.log | head -n 5 | grep .; then
	fail "vtunerc of the second hop saw gaps in the TS"
fi
daemon_stop hop2
daemon_stop srv2
daemon_stop hop1
daemon_stop srv
passed=1
