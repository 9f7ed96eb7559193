// SPDX-License-Identifier: GPL-2.0
/*
 * test_satip_report.c - SAT>IP reports (satip/report.c): level and
 * quality of a frontend status, the fmtp line of each system, DESCRIBE's
 * SDP, the RTP header and the RTCP compound packet, bit for bit; and a
 * client's side: the SES1 string of an RTCP packet, a stream's fmtp line
 * in an SDP, the report parsed back (round trips with the builders and
 * what other servers send), a signal as a frontend status and back.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/dvb/frontend.h>

#include "common/dvb.h"
#include "satip/report.h"

static struct satip_signal sig;

static void strength_db(struct vtp_status *s, int64_t mdbm)
{
	s->stats[VTP_STAT_STRENGTH].len = 1;
	s->stats[VTP_STAT_STRENGTH].stat[0].scale = FE_SCALE_DECIBEL;
	s->stats[VTP_STAT_STRENGTH].stat[0].svalue = mdbm;
}

static unsigned int level_db(int64_t mdbm)
{
	struct vtp_status s = { .status = FE_HAS_SIGNAL };

	strength_db(&s, mdbm);
	satip_signal_of(&s, SYS_DVBS2, &sig);
	return sig.level;
}

static void test_level(void **state)
{
	struct vtp_status s = { 0 };

	(void)state;
	/* the spec's two points and the line through them */
	assert_int_equal(level_db(-25000), 224);
	assert_int_equal(level_db(-65000), 32);
	assert_int_equal(level_db(-45000), 128);
	assert_int_equal(level_db(-45100), 128);	/* 127.52 */
	assert_int_equal(level_db(-45200), 127);	/* 127.04 */
	assert_int_equal(level_db(-71000), 3);
	/* clamped, at least 1 with a signal */
	assert_int_equal(level_db(-90000), 1);
	assert_int_equal(level_db(0), 255);
	assert_int_equal(level_db(INT64_MIN), 1);
	assert_int_equal(level_db(INT64_MAX), 255);
	assert_false(sig.lock);
	assert_int_equal(sig.quality, 0);

	/* relative, then DVBv3 */
	s.status = FE_HAS_CARRIER;
	s.stats[VTP_STAT_STRENGTH].len = 1;
	s.stats[VTP_STAT_STRENGTH].stat[0].scale = FE_SCALE_RELATIVE;
	s.stats[VTP_STAT_STRENGTH].stat[0].uvalue = 65535;
	satip_signal_of(&s, SYS_DVBT, &sig);
	assert_int_equal(sig.level, 255);
	s.stats[VTP_STAT_STRENGTH].stat[0].uvalue = 32768;
	satip_signal_of(&s, SYS_DVBT, &sig);
	assert_int_equal(sig.level, 128);
	s.stats[VTP_STAT_STRENGTH].stat[0].scale = FE_SCALE_NOT_AVAILABLE;
	s.signal = 0x8000;
	satip_signal_of(&s, SYS_DVBT, &sig);
	assert_int_equal(sig.level, 128);
	s.stats[VTP_STAT_STRENGTH].len = 0;
	s.signal = 0xffff;
	satip_signal_of(&s, SYS_DVBT, &sig);
	assert_int_equal(sig.level, 255);
	s.signal = 0;
	satip_signal_of(&s, SYS_DVBT, &sig);
	assert_int_equal(sig.level, 1);
	/* no signal, carrier or lock: 0 whatever the strength says */
	s.status = FE_HAS_VITERBI | FE_HAS_SYNC;
	s.signal = 0xffff;
	satip_signal_of(&s, SYS_DVBT, &sig);
	assert_int_equal(sig.level, 0);
}

static unsigned int quality_db(unsigned int delsys, int64_t mdb)
{
	struct vtp_status s = { .status = FE_HAS_SIGNAL | FE_HAS_LOCK };

	strength_db(&s, -50000);
	s.stats[VTP_STAT_CNR].len = 1;
	s.stats[VTP_STAT_CNR].stat[0].scale = FE_SCALE_DECIBEL;
	s.stats[VTP_STAT_CNR].stat[0].svalue = mdb;
	satip_signal_of(&s, delsys, &sig);
	assert_true(sig.lock);
	return sig.quality;
}

static void test_quality(void **state)
{
	struct vtp_status s = { .status = FE_HAS_LOCK };

	(void)state;
	assert_int_equal(quality_db(SYS_DVBS2, 15000), 15);
	assert_int_equal(quality_db(SYS_DVBS2, 7500), 8);
	assert_int_equal(quality_db(SYS_DVBS, 7400), 7);
	assert_int_equal(quality_db(SYS_DVBS2, 30000), 15);
	assert_int_equal(quality_db(SYS_DVBS2, 0), 1);
	assert_int_equal(quality_db(SYS_DVBS2, -3000), 1);
	assert_int_equal(quality_db(SYS_DVBS2, INT64_MIN), 1);
	assert_int_equal(quality_db(SYS_DVBS2, INT64_MAX), 15);
	assert_int_equal(quality_db(SYS_DVBT2, 25000), 15);
	assert_int_equal(quality_db(SYS_DVBT, 12500), 8);
	assert_int_equal(quality_db(SYS_DVBC_ANNEX_A, 35000), 15);
	assert_int_equal(quality_db(SYS_DVBC_ANNEX_A, 14000), 6);

	/* relative, DVBv3, nothing */
	s.stats[VTP_STAT_CNR].len = 1;
	s.stats[VTP_STAT_CNR].stat[0].scale = FE_SCALE_RELATIVE;
	s.stats[VTP_STAT_CNR].stat[0].uvalue = 65535;
	satip_signal_of(&s, SYS_DVBS2, &sig);
	assert_int_equal(sig.quality, 15);
	s.stats[VTP_STAT_CNR].stat[0].uvalue = 0;
	satip_signal_of(&s, SYS_DVBS2, &sig);
	assert_int_equal(sig.quality, 1);
	s.stats[VTP_STAT_CNR].len = 0;
	s.snr = 0x8000;
	satip_signal_of(&s, SYS_DVBS2, &sig);
	assert_int_equal(sig.quality, 8);
	s.snr = 0;
	satip_signal_of(&s, SYS_DVBS2, &sig);
	assert_int_equal(sig.quality, 15);
	assert_true(sig.lock);
	/* not locked: 0 */
	s.status = FE_HAS_SIGNAL | FE_HAS_CARRIER | FE_HAS_VITERBI;
	s.snr = 0xffff;
	satip_signal_of(&s, SYS_DVBS2, &sig);
	assert_int_equal(sig.quality, 0);
	assert_false(sig.lock);
}

static struct satip_tune tune;

static const struct satip_tune *tuned(const char *query)
{
	struct satip_pids_op op;
	char err[32];

	assert_int_equal(satip_query_parse(query, &tune, &op, err, sizeof(err)), 0);
	return &tune;
}

static void test_fmtp(void **state)
{
	struct satip_signal s = { 224, 12, true };
	struct satip_pidset p = { false, 3, { 0, 16, 17 } };
	struct satip_fmtp_args a = { 1, &s, NULL, &p };
	char buf[256];
	int n;

	(void)state;
	a.tune = tuned("src=1&freq=11494&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23");
	n = satip_fmtp(buf, sizeof(buf), &a);
	assert_string_equal(buf, "ver=1.0;src=1;tuner=1,224,1,12,11494.00,h,dvbs2,8psk,on,0.35,22000,23;pids=0,16,17");
	assert_int_equal(n, strlen(buf));
	/* the spec's example: DVB-S, fields not given empty */
	a.tune = tuned("src=2&freq=12402&pol=v&msys=dvbs&plts=off&sr=27500&fec=34");
	s.level = 240;
	s.quality = 7;
	satip_fmtp(buf, sizeof(buf), &a);
	assert_string_equal(buf, "ver=1.0;src=2;tuner=1,240,1,7,12402.00,v,dvbs,,off,,27500,34;pids=0,16,17");

	a.fe = 2;
	p.all = true;
	a.tune = tuned("freq=506&bw=8&msys=dvbt2&tmode=32k&mtype=256qam&gi=1128&fec=35&plp=1&t2id=0&sm=0");
	satip_fmtp(buf, sizeof(buf), &a);
	assert_string_equal(buf, "ver=1.1;tuner=2,240,1,7,506.00,8,dvbt2,32k,256qam,1128,35,1,0,0;pids=all");
	a.tune = tuned("freq=474.166&msys=dvbt");
	satip_fmtp(buf, sizeof(buf), &a);
	assert_string_equal(buf, "ver=1.1;tuner=2,240,1,7,474.166,,dvbt,,,,,,,;pids=all");

	a.fe = 3;
	a.sig = NULL;
	p.all = false;
	p.num = 0;
	a.tune = tuned("freq=346&msys=dvbc&mtype=256qam&sr=6900&specinv=1");
	satip_fmtp(buf, sizeof(buf), &a);
	assert_string_equal(buf, "ver=1.2;tuner=3,0,0,0,346.00,,dvbc,256qam,6900,,,,1;pids=none");
	a.tune = tuned("freq=346&msys=dvbc2&bw=8&ds=1&plp=2&c2tft=0");
	satip_fmtp(buf, sizeof(buf), &a);
	assert_string_equal(buf, "ver=1.2;tuner=3,0,0,0,346.00,8,dvbc2,,,0,1,2,;pids=none");

	/* not tuned, no PIDs */
	a.fe = 1;
	a.tune = NULL;
	a.pids = NULL;
	n = satip_fmtp(buf, sizeof(buf), &a);
	assert_string_equal(buf, "ver=1.0;src=1;tuner=1,0,0,0,,,,,,,,;pids=none");
	a.tune = tuned("addpids=1");
	satip_fmtp(buf, sizeof(buf), &a);
	assert_string_equal(buf, "ver=1.0;src=1;tuner=1,0,0,0,,,,,,,,;pids=none");

	/* too small: -ENOBUFS, buf empty */
	assert_int_equal(satip_fmtp(buf, (size_t)n, &a), -ENOBUFS);
	assert_string_equal(buf, "");
	assert_int_equal(satip_fmtp(buf, (size_t)n + 1, &a), n);
	a.tune = tuned("src=1&freq=11494&pol=h&msys=dvbs2&sr=22000");
	a.pids = &p;
	p.num = 3;
	n = satip_fmtp(buf, sizeof(buf), &a);
	assert_true(n > 40);
	assert_int_equal(satip_fmtp(buf, 30, &a), -ENOBUFS);
	assert_int_equal(satip_fmtp(buf, 40, &a), -ENOBUFS);
	assert_int_equal(satip_fmtp(buf, (size_t)n, &a), -ENOBUFS);
	assert_int_equal(satip_fmtp(buf, 0, &a), -ENOBUFS);
}

static void test_sdp(void **state)
{
	const struct satip_sdp_stream st[] = {
		{ 1, "ver=1.0;src=1;tuner=1,224,1,12,11494.00,h,dvbs2,8psk,on,0.35,22000,23;pids=0,16,17",
		  true, 0, NULL, 0 },
		{ 7, "ver=1.1;tuner=2,0,0,0,506.00,8,dvbt2,,,,,,,;pids=none",
		  false, 5004, "239.0.0.7", 2 },
	};
	struct satip_sdp_args a = { "192.168.0.2", 1234567890, { 4, 0, 0 },
				    st, 1 };
	const char *want =
		"v=0\r\n"
		"o=- 1234567890 1234567890 IN IP4 192.168.0.2\r\n"
		"s=SatIPServer:1 4\r\n"
		"t=0 0\r\n"
		"m=video 0 RTP/AVP 33\r\n"
		"c=IN IP4 0.0.0.0\r\n"
		"a=control:stream=1\r\n"
		"a=fmtp:33 ver=1.0;src=1;tuner=1,224,1,12,11494.00,h,dvbs2,8psk,on,0.35,22000,23;pids=0,16,17\r\n"
		"a=sendonly\r\n";
	char buf[1024];
	int n;

	(void)state;
	n = satip_sdp(buf, sizeof(buf), &a);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
	assert_int_equal(satip_sdp(buf, (size_t)n, &a), -ENOBUFS);
	assert_string_equal(buf, "");
	assert_int_equal(satip_sdp(buf, (size_t)n + 1, &a), n);

	a.frontends[1] = 2;
	a.num_streams = 2;
	satip_sdp(buf, sizeof(buf), &a);
	assert_non_null(strstr(buf, "s=SatIPServer:1 4,2,0\r\nt=0 0\r\n"));
	assert_non_null(strstr(buf, "a=sendonly\r\n"
		"m=video 5004 RTP/AVP 33\r\n"
		"c=IN IP4 239.0.0.7/2\r\n"
		"a=control:stream=7\r\n"
		"a=fmtp:33 ver=1.1;tuner=2,0,0,0,506.00,8,dvbt2,,,,,,,;pids=none\r\n"
		"a=inactive\r\n"));
	/* no stream (DESCRIBE of the server) */
	a.num_streams = 0;
	satip_sdp(buf, sizeof(buf), &a);
	assert_string_equal(buf, "v=0\r\no=- 1234567890 1234567890 IN IP4 192.168.0.2\r\n"
			    "s=SatIPServer:1 4,2,0\r\nt=0 0\r\n");
	assert_int_equal(satip_sdp(buf, 0, &a), -ENOBUFS);
}

static void test_rtp(void **state)
{
	static const uint8_t want[12] = { 0x80, 0x21, 0x12, 0x34, 0xde, 0xad,
		0xbe, 0xef, 0x01, 0x02, 0x03, 0x04 };
	uint8_t h[SATIP_RTP_HDR_LEN];

	(void)state;
	satip_rtp_header(h, 0x1234, 0xdeadbeef, 0x01020304);
	assert_memory_equal(h, want, 12);
	satip_rtp_header(h, 0xffff, 0, 0xffffffff);
	assert_int_equal(h[0], 0x80);
	assert_int_equal(h[1], 33);
	assert_int_equal(h[2], 0xff);
	assert_int_equal(h[3], 0xff);
}

static void test_rtcp(void **state)
{
	static const uint8_t want[] = {
		/* SR: V=2 RC=0, PT 200, length 6; SSRC; NTP; RTP ts; counts */
		0x80, 200, 0x00, 0x06,
		0x11, 0x22, 0x33, 0x44,
		0xe8, 0xfe, 0x6f, 0x80, 0x80, 0x00, 0x00, 0x00,
		0x00, 0x01, 0x5f, 0x90,
		0x00, 0x00, 0x03, 0xe8,
		0x00, 0x02, 0xde, 0x60,
		/* SDES: V=2 SC=1, PT 202, length 4; SSRC; CNAME "vtunerd"; END; pad */
		0x81, 202, 0x00, 0x04,
		0x11, 0x22, 0x33, 0x44,
		0x01, 0x07, 'v', 't', 'u', 'n', 'e', 'r', 'd', 0x00, 0x00, 0x00,
		/* APP: V=2 subtype 0, PT 204, length 7; SSRC; "SES1"; id 0; len 13 */
		0x80, 204, 0x00, 0x07,
		0x11, 0x22, 0x33, 0x44,
		'S', 'E', 'S', '1',
		0x00, 0x00, 0x00, 0x0d,
		'v', 'e', 'r', '=', '1', '.', '0', ';', 's', 'r', 'c', '=', '1',
		0x00, 0x00, 0x00,
	};
	const char *fmtp = "ver=1.0;src=1;tuner=1,224,1,12,11494.00,h,dvbs2,8psk,on,0.35,22000,23;pids=0,16,17";
	uint64_t ntp = satip_ntp(1700000000, 500000000);
	uint8_t buf[512];
	char *big;
	size_t flen = strlen(fmtp);
	int n;

	(void)state;
	assert_int_equal(ntp >> 32, 1700000000ULL + 2208988800ULL);
	assert_int_equal(ntp >> 32, 0xe8fe6f80);
	assert_int_equal((uint32_t)ntp, 0x80000000);
	assert_int_equal(satip_ntp(0, 0), 2208988800ULL << 32);
	assert_int_equal((uint32_t)satip_ntp(0, 999999999), 0xfffffffb);

	n = satip_rtcp_build(buf, sizeof(buf), 0x11223344, 1000, 188000, ntp,
			     90000, "ver=1.0;src=1");
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(satip_rtcp_build(buf, sizeof(want) - 1, 0x11223344,
					  1000, 188000, ntp, 90000,
					  "ver=1.0;src=1"), -ENOBUFS);
	assert_int_equal(satip_rtcp_build(buf, sizeof(want), 0x11223344,
					  1000, 188000, ntp, 90000,
					  "ver=1.0;src=1"), sizeof(want));

	/* a real line: the APP packet's length, string, padding */
	n = satip_rtcp_build(buf, sizeof(buf), 1, 2, 3, ntp, 4, fmtp);
	assert_int_equal(n, 28 + 20 + ((16 + flen + 3) & ~3U));
	assert_int_equal(n % 4, 0);
	assert_int_equal(buf[48], 0x80);
	assert_int_equal(buf[49], 204);
	assert_int_equal((buf[50] << 8 | buf[51]), (n - 48) / 4 - 1);
	assert_int_equal((buf[62] << 8 | buf[63]), flen);
	assert_memory_equal(buf + 64, fmtp, flen);
	while (64 + flen < (size_t)n)
		assert_int_equal(buf[64 + flen++], 0);
	/* a string of 4 n bytes: no padding */
	n = satip_rtcp_build(buf, sizeof(buf), 1, 2, 3, ntp, 4, "abcd");
	assert_int_equal(n, 28 + 20 + 20);
	/* empty */
	n = satip_rtcp_build(buf, sizeof(buf), 1, 2, 3, ntp, 4, "");
	assert_int_equal(n, 28 + 20 + 16);
	assert_int_equal(buf[51], 3);

	/* too long for a 16-bit length */
	big = malloc(65537);
	assert_non_null(big);
	memset(big, 'x', 65536);
	big[65536] = '\0';
	assert_int_equal(satip_rtcp_build(buf, sizeof(buf), 1, 2, 3, ntp, 4, big),
			 -EINVAL);
	free(big);
}

/* ---- the client's side ------------------------------------------------- */

static void test_rtcp_ses1(void **state)
{
	const char *fmtp = "ver=1.0;src=1;tuner=1,224,1,12,11494.00,h,dvbs2,8psk,on,0.35,22000,23;pids=0,16,17";
	uint8_t buf[512];
	char out[256];
	int n, i;

	(void)state;
	n = satip_rtcp_build(buf, sizeof(buf), 1, 2, 3, satip_ntp(4, 5), 6, fmtp);
	assert_true(n > 0);
	assert_int_equal(satip_rtcp_ses1(buf, (size_t)n, out, sizeof(out)), 1);
	assert_string_equal(out, fmtp);
	/* strings of every length mod 4, and empty */
	for (i = 0; i < 5; i++) {
		n = satip_rtcp_build(buf, sizeof(buf), 1, 2, 3, 0, 6, fmtp + 78 + i);
		assert_int_equal(satip_rtcp_ses1(buf, (size_t)n, out, sizeof(out)), 1);
		assert_string_equal(out, fmtp + 78 + i);
	}
	/* too small for it */
	n = satip_rtcp_build(buf, sizeof(buf), 1, 2, 3, 0, 6, "abcd");
	assert_int_equal(satip_rtcp_ses1(buf, (size_t)n, out, 4), -ENOBUFS);
	assert_string_equal(out, "");
	assert_int_equal(satip_rtcp_ses1(buf, (size_t)n, out, 5), 1);
	/* SR and SDES only; an APP of another name */
	assert_int_equal(satip_rtcp_ses1(buf, 48, out, sizeof(out)), 0);
	memcpy(buf + 56, "SES2", 4);
	assert_int_equal(satip_rtcp_ses1(buf, (size_t)n, out, sizeof(out)), 0);
	memcpy(buf + 56, "SES1", 4);
	/* malformed: cut short, a length beyond the packet, not version 2 */
	assert_int_equal(satip_rtcp_ses1(buf, (size_t)n - 4, out, sizeof(out)),
			 -EBADMSG);
	assert_int_equal(satip_rtcp_ses1(buf, 2, out, sizeof(out)), -EBADMSG);
	assert_int_equal(satip_rtcp_ses1(buf, 0, out, sizeof(out)), -EBADMSG);
	buf[63] = 5;		/* string length 5 in an APP of 20 bytes */
	assert_int_equal(satip_rtcp_ses1(buf, (size_t)n, out, sizeof(out)), -EBADMSG);
	buf[63] = 4;
	buf[51] = 2;		/* APP of 12 bytes: no room for SAT>IP's fields */
	assert_int_equal(satip_rtcp_ses1(buf, 60, out, sizeof(out)), -EBADMSG);
	buf[51] = 4;
	buf[28] = 0x40;
	assert_int_equal(satip_rtcp_ses1(buf, (size_t)n, out, sizeof(out)), -EBADMSG);
}

static void test_sdp_fmtp(void **state)
{
	const struct satip_sdp_stream st[] = {
		{ 1, "ver=1.0;src=1;tuner=1,224,1,12,11494.00,h,dvbs2,8psk,on,0.35,22000,23;pids=0,16,17",
		  true, 0, NULL, 0 },
		{ 7, "ver=1.1;tuner=2,0,0,0,506.00,8,dvbt2,,,,,,,;pids=none",
		  false, 5004, "239.0.0.7", 2 },
	};
	struct satip_sdp_args a = { "192.168.0.2", 1, { 4, 2, 0 }, st, 2 };
	const char *other =
		"v=0\n"
		"o=- 1 1 IN IP4 10.0.0.1\n"
		"s=SatIPServer:1 1\n"
		"m=video 0 RTP/AVP 33\n"
		"a=control:rtsp://10.0.0.1:554/stream=12/\n"
		"a=fmtp:33  ver=1.0;src=1;tuner=1,0,0,0,,,,,,,,;pids= \n"
		"m=video 0 RTP/AVP 33\n"
		"a=fmtp:33 no control\n"
		"a=control:stream=3\n"
		"a=fmtp:33 second";
	char buf[1024], out[128];
	int n;

	(void)state;
	n = satip_sdp(buf, sizeof(buf), &a);
	assert_int_equal(satip_sdp_fmtp(buf, (size_t)n, 7, out, sizeof(out)), 0);
	assert_string_equal(out, st[1].fmtp);
	assert_int_equal(satip_sdp_fmtp(buf, (size_t)n, 1, out, sizeof(out)), 0);
	assert_string_equal(out, st[0].fmtp);
	assert_int_equal(satip_sdp_fmtp(buf, (size_t)n, -1, out, sizeof(out)), 0);
	assert_string_equal(out, st[0].fmtp);
	assert_int_equal(satip_sdp_fmtp(buf, (size_t)n, 2, out, sizeof(out)), -ENOENT);
	assert_int_equal(satip_sdp_fmtp(buf, (size_t)n, 7, out, strlen(st[1].fmtp)),
			 -ENOBUFS);
	assert_string_equal(out, "");
	assert_int_equal(satip_sdp_fmtp(buf, 0, -1, out, sizeof(out)), -ENOENT);

	/* LF lines, a URL, no LF at the end, the first fmtp of a section */
	n = (int)strlen(other);
	assert_int_equal(satip_sdp_fmtp(other, (size_t)n, 12, out, sizeof(out)), 0);
	assert_string_equal(out, "ver=1.0;src=1;tuner=1,0,0,0,,,,,,,,;pids=");
	assert_int_equal(satip_sdp_fmtp(other, (size_t)n, 3, out, sizeof(out)), 0);
	assert_string_equal(out, "no control");
	/* the body's length counts, not a NUL */
	assert_int_equal(satip_sdp_fmtp(other, (size_t)n - 7, 3, out, sizeof(out)), 0);
	assert_string_equal(out, "no control");
	assert_int_equal(satip_sdp_fmtp(other, 60, -1, out, sizeof(out)), -ENOENT);
}

static struct satip_report rep;

/* satip_fmtp() of a query, fe, signal and PIDs, parsed back. */
static void round_trip(const char *query, unsigned int fe,
		       struct satip_signal sg, const struct satip_pidset *p)
{
	struct satip_fmtp_args a = { fe, &sg, NULL, p };
	struct satip_tune want;
	char buf[1024];

	a.tune = tuned(query);
	want = tune;
	if (vt_delsys_is_sat(want.msys) && !satip_has(&want, SATIP_A_SRC)) {
		want.present |= 1U << SATIP_A_SRC;
		want.src = 1;
	}
	assert_true(satip_fmtp(buf, sizeof(buf), &a) > 0);
	assert_int_equal(satip_report_parse(buf, &rep), 0);
	assert_int_equal(rep.fe, fe);
	assert_int_equal(rep.sig.level, sg.level);
	assert_int_equal(rep.sig.quality, sg.quality);
	assert_int_equal(rep.sig.lock, sg.lock);
	assert_int_equal(rep.tune.present, want.present);
	assert_memory_equal(&rep.tune, &want, sizeof(want));
	assert_true(rep.has_pids);
	if (!p) {
		assert_false(rep.pids.all);
		assert_int_equal(rep.pids.num, 0);
	} else {
		assert_int_equal(rep.pids.all, p->all);
		assert_int_equal(rep.pids.num, p->all ? 0 : p->num);
		assert_memory_equal(rep.pids.pid, p->pid,
				    rep.pids.num * sizeof(p->pid[0]));
	}
}

static void test_report_parse(void **state)
{
	static const char *const queries[] = {
		"src=1&freq=11494&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23",
		"src=4&freq=12603.5&pol=v&ro=0.20&msys=dvbs2&mtype=32apsk&plts=off&sr=30000&fec=910",
		"src=2&freq=12402&pol=l&msys=dvbs&plts=off&sr=27500&fec=34",
		"freq=10714.25&pol=r&msys=dvbs&sr=1234.5",
		"freq=506&bw=8&msys=dvbt2&tmode=32k&mtype=256qam&gi=1128&fec=35&plp=1&t2id=7&sm=1",
		"freq=474.166&msys=dvbt",
		"freq=177.5&bw=1.712&msys=dvbt&tmode=2k&mtype=qpsk&gi=14&fec=12",
		"freq=346&msys=dvbc&mtype=256qam&sr=6900&specinv=1",
		"freq=346&msys=dvbc2&bw=8&ds=1&plp=2&c2tft=0",
		"freq=113&msys=dvbc&sr=6875&specinv=0",
	};
	struct satip_pidset p = { false, 3, { 0, 16, 8191 } };
	struct satip_pidset all = { true, 0, { 0 } };
	struct satip_signal sg = { 224, 12, true };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(queries) / sizeof(queries[0]); i++) {
		round_trip(queries[i], i + 1, sg, &p);
		sg.level = (sg.level + 97) % 256;
		sg.quality = (sg.quality + 5) % 16;
		sg.lock = !sg.lock;
		round_trip(queries[i], 65535, sg, i % 2 ? &all : NULL);
	}

	/* what other servers send */
	assert_int_equal(satip_report_parse("ver=1.0;src=1;tuner=1,255,1,15,"
		"11362.00,H,DVBS2,8PSK,on,0.35,22000,23;pids=18,0,17,", &rep), 0);
	assert_int_equal(rep.sig.level, 255);
	assert_int_equal(rep.tune.freq, 11362000);
	assert_int_equal(rep.tune.pol, SATIP_POL_H);
	assert_int_equal(rep.tune.msys, SYS_DVBS2);
	assert_int_equal(rep.pids.num, 3);
	assert_int_equal(rep.pids.pid[0], 0);
	assert_int_equal(rep.pids.pid[2], 18);
	/* no ver, msys says terrestrial; a trailing ';'; no pids */
	assert_int_equal(satip_report_parse(" tuner=2,100,1,9,506,8,dvbt2,,,,,0,,; ",
					    &rep), 0);
	assert_int_equal(rep.fe, 2);
	assert_int_equal(rep.tune.present, (1U << SATIP_A_FREQ) |
			 (1U << SATIP_A_BW) | (1U << SATIP_A_MSYS) |
			 (1U << SATIP_A_PLP));
	assert_int_equal(rep.tune.bw, 8000000);
	assert_false(rep.has_pids);
	/* not tuned: a frequency of 0, nothing else; the fields of ver= */
	assert_int_equal(satip_report_parse("ver=1.2;tuner=1,0,0,0,0.00,,,,,,,,;pids=",
					    &rep), 0);
	assert_int_equal(rep.tune.present, 0);
	assert_true(rep.has_pids);
	assert_int_equal(rep.pids.num, 0);
	assert_int_equal(satip_report_parse("ver=1.1;tuner=1,0,0,0,474,,,8k", &rep), 0);
	assert_int_equal(rep.tune.tmode, TRANSMISSION_MODE_8K);
	/* a field that does not parse is left out, clamped level/quality */
	assert_int_equal(satip_report_parse("ver=1.0;tuner=1,300,1,20,11494,h,dvbs2,"
		"9psk,on,0.35,22000,99;pids=all;tuner=9,9,9,9", &rep), 0);
	assert_int_equal(rep.fe, 1);
	assert_int_equal(rep.sig.level, 255);
	assert_int_equal(rep.sig.quality, 15);
	assert_false(satip_has(&rep.tune, SATIP_A_MTYPE));
	assert_false(satip_has(&rep.tune, SATIP_A_FEC));
	assert_true(satip_has(&rep.tune, SATIP_A_SR));
	assert_true(rep.pids.all);
	/* injection attempts stay within their field */
	assert_int_equal(satip_report_parse("tuner=1,1,1,1,11494&msys=dvbt,h,dvbs2", &rep), 0);
	assert_int_equal(rep.tune.present, (1U << SATIP_A_MSYS) |
			 (1U << SATIP_A_POL));
	assert_int_equal(rep.tune.msys, SYS_DVBS2);
	/* four fields at least, numbers or empty */
	assert_int_equal(satip_report_parse("tuner=1,,,", &rep), 0);
	assert_int_equal(satip_report_parse("ver=1.0;src=1;pids=all", &rep), -EINVAL);
	assert_int_equal(satip_report_parse("tuner=1,200,1", &rep), -EINVAL);
	assert_int_equal(satip_report_parse("tuner=1,x,1,1", &rep), -EINVAL);
	assert_int_equal(satip_report_parse("tuner=-1,1,1,1", &rep), -EINVAL);
	assert_int_equal(satip_report_parse("tuner", &rep), -EINVAL);
	assert_int_equal(satip_report_parse("", &rep), -EINVAL);
}

static void test_signal_to_status(void **state)
{
	struct satip_signal in = { 0 }, back;
	struct vtp_status st, s = { .status = FE_HAS_SIGNAL };
	long long mdbm, got;
	unsigned int l, q;

	(void)state;
	/* nothing */
	satip_signal_to_status(&in, &st);
	assert_int_equal(st.status, 0);
	assert_int_equal(st.signal, 0);
	assert_int_equal(st.snr, 0);
	for (l = 0; l < VTP_NUM_STATS; l++) {
		assert_int_equal(st.stats[l].len, 1);
		assert_int_equal(st.stats[l].stat[0].scale, FE_SCALE_NOT_AVAILABLE);
	}
	/* a signal, no lock */
	in.level = 32;
	satip_signal_to_status(&in, &st);
	assert_int_equal(st.status, FE_HAS_SIGNAL);
	assert_int_equal(st.stats[VTP_STAT_STRENGTH].stat[0].scale, FE_SCALE_DECIBEL);
	assert_int_equal(st.stats[VTP_STAT_STRENGTH].stat[0].svalue, -65000);
	assert_int_equal(st.stats[VTP_STAT_CNR].stat[0].scale, FE_SCALE_NOT_AVAILABLE);
	in.level = 224;
	satip_signal_to_status(&in, &st);
	assert_int_equal(st.stats[VTP_STAT_STRENGTH].stat[0].svalue, -25000);
	assert_int_equal(st.signal, 57568);
	/* locked */
	in.lock = true;
	in.quality = 15;
	satip_signal_to_status(&in, &st);
	assert_int_equal(st.status, FE_HAS_SIGNAL | FE_HAS_CARRIER | FE_HAS_VITERBI |
			 FE_HAS_SYNC | FE_HAS_LOCK);
	assert_int_equal(st.snr, 65535);
	assert_int_equal(st.stats[VTP_STAT_CNR].stat[0].scale, FE_SCALE_RELATIVE);
	assert_int_equal(st.stats[VTP_STAT_CNR].stat[0].uvalue, 65535);
	in.level = 0;
	satip_signal_to_status(&in, &st);
	assert_int_equal(st.stats[VTP_STAT_STRENGTH].stat[0].scale, FE_SCALE_NOT_AVAILABLE);
	assert_true(st.status & FE_HAS_LOCK);

	/* every level and quality goes back to itself through satip_signal_of() */
	for (l = 1; l < 256; l++) {
		for (q = 1; q < 16; q++) {
			in.level = l;
			in.quality = q;
			in.lock = true;
			satip_signal_to_status(&in, &st);
			satip_signal_of(&st, SYS_DVBS2, &back);
			assert_int_equal(back.level, l);
			assert_int_equal(back.quality, q);
			assert_true(back.lock);
		}
		in.lock = false;
		in.quality = 0;
		satip_signal_to_status(&in, &st);
		satip_signal_of(&st, SYS_DVBT, &back);
		assert_int_equal(back.level, l);
		assert_false(back.lock);
	}
	/*
	 * A dBm value to a level and back: within half a step (40/192 dB),
	 * from -71.4 dBm (level 1) to -18.6 (255)
	 */
	for (mdbm = -71400; mdbm <= -18600; mdbm += 37) {
		strength_db(&s, mdbm);
		satip_signal_of(&s, SYS_DVBS2, &in);
		satip_signal_to_status(&in, &st);
		got = st.stats[VTP_STAT_STRENGTH].stat[0].svalue;
		assert_true(got - mdbm <= 105 && mdbm - got <= 105);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level),
		cmocka_unit_test(test_quality),
		cmocka_unit_test(test_fmtp),
		cmocka_unit_test(test_sdp),
		cmocka_unit_test(test_rtp),
		cmocka_unit_test(test_rtcp),
		cmocka_unit_test(test_rtcp_ses1),
		cmocka_unit_test(test_sdp_fmtp),
		cmocka_unit_test(test_report_parse),
		cmocka_unit_test(test_signal_to_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
