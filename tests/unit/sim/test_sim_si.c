// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the vts SI helpers and elementary stream builders. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "server/sim/vts.h"
#include "server/sim/vts_int.h"
#include "tscheck.h"

static void test_crc32_vectors(void **state)
{
	/* CRC-32/MPEG-2 check value */
	static const uint8_t check[] = "123456789";
	/* a PAT: ts_id 1, program 1 on PID 0x100, with its CRC */
	uint8_t pat[16] = { 0x00, 0xb0, 0x0d, 0x00, 0x01, 0xc1, 0x00, 0x00,
			    0x00, 0x01, 0xe1, 0x00 };
	uint32_t crc;

	(void)state;
	assert_int_equal(vts_crc32(check, 9), 0x0376e6e7);
	assert_int_equal(vts_crc32(check, 0), 0xffffffff);
	crc = vts_crc32(pat, 12);
	assert_int_equal(crc, tsc_crc32(pat, 12));
	pat[12] = crc >> 24;
	pat[13] = crc >> 16;
	pat[14] = crc >> 8;
	pat[15] = crc;
	/* a section with its CRC appended has a CRC of 0 */
	assert_int_equal(vts_crc32(pat, 16), 0);
}

static void test_bcd(void **state)
{
	(void)state;
	assert_int_equal(vts_bcd(1136200, 8), 0x01136200);
	assert_int_equal(vts_bcd(192, 4), 0x0192);
	assert_int_equal(vts_bcd(275000, 7), 0x0275000);
	assert_int_equal(vts_bcd(59, 2), 0x59);
	assert_int_equal(vts_bcd(0, 2), 0x00);
}

static void test_mjd_time(void **state)
{
	(void)state;
	/* EN 300 468 annex C: 93/10/13 12:45:00 = 0xC079124500 */
	assert_int_equal(vts_mjd(750516300), 0xc079);
	assert_true(vts_dvb_time(750516300) == 0xc079124500ull);
	assert_int_equal(vts_mjd(0), 40587);
	assert_int_equal(vts_mjd(86399), 40587);
	assert_int_equal(vts_mjd(86400), 40588);
	/* 2000-01-01 = MJD 51544 */
	assert_int_equal(vts_mjd(946684800), 51544);
	assert_int_equal(vts_dvb_duration(1800), 0x003000);
	assert_int_equal(vts_dvb_duration(3 * 3600 + 7 * 60 + 9), 0x030709);
}

static struct vts_transponder *tp_of(struct vts_world *w, const char *name)
{
	return (struct vts_transponder *)vts_world_find(w, name);
}

static void test_delivery_descriptors(void **state)
{
	static const uint8_t sat[] = { 0x43, 11, 0x01, 0x13, 0x62, 0x00,
		0x01, 0x92, 0x06, 0x02, 0x20, 0x00, 0x02 };
	static const uint8_t sat_v[] = { 0x43, 11, 0x01, 0x21, 0x88, 0x00,
		0x01, 0x92, 0x35, 0x02, 0x75, 0x00, 0x03 };
	static const uint8_t dvbs[] = { 0x43, 11, 0x01, 0x08, 0x47, 0x00,
		0x01, 0x92, 0x21, 0x02, 0x20, 0x00, 0x04 };
	static const uint8_t cable[] = { 0x44, 11, 0x03, 0x46, 0x00, 0x00,
		0xff, 0xf2, 0x05, 0x00, 0x69, 0x00, 0x0f };
	static const uint8_t terr[] = { 0x5a, 11, 0x03, 0x04, 0x18, 0x40,
		0x1f, 0x81, 0x1a, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t t2[] = { 0x7f, 4, 0x04, 0x01, 0x07, 0xd3 };
	struct vts_world w;
	uint8_t d[16];

	(void)state;
	vts_world_init(&w);
	assert_int_equal(vts_world_default(&w), 0);
	assert_int_equal(vts_delivery_descriptor(tp_of(&w, "S2 11362 H"), d, 16), 13);
	assert_memory_equal(d, sat, 13);
	assert_int_equal(vts_delivery_descriptor(tp_of(&w, "S2 12188 V"), d, 16), 13);
	assert_memory_equal(d, sat_v, 13);
	assert_int_equal(vts_delivery_descriptor(tp_of(&w, "S 10847 V"), d, 16), 13);
	assert_memory_equal(d, dvbs, 13);
	assert_int_equal(vts_delivery_descriptor(tp_of(&w, "C 346 MHz"), d, 16), 13);
	assert_memory_equal(d, cable, 13);
	assert_int_equal(vts_delivery_descriptor(tp_of(&w, "T 506 MHz"), d, 16), 13);
	assert_memory_equal(d, terr, 13);
	assert_int_equal(vts_delivery_descriptor(tp_of(&w, "T2 690 MHz PLP1"), d, 16), 6);
	assert_memory_equal(d, t2, 6);
	assert_int_equal(vts_delivery_descriptor(tp_of(&w, "T 506 MHz"), d, 12), 0);
	vts_world_free(&w);
}

static void test_mpeg2_frame(void **state)
{
	static uint8_t f[16384];
	size_t len, i, slices = 0;

	(void)state;
	len = vts_mpeg2_black_frame(f, sizeof(f), 4000000);
	assert_true(len > 1000 && len < sizeof(f));
	/* sequence header: 720x576, 4:3, 25 Hz, 4 Mbit/s = 10000 * 400 */
	assert_memory_equal(f, "\x00\x00\x01\xb3\x2d\x02\x40\x23", 8);
	assert_int_equal((f[8] << 10 | f[9] << 2 | f[10] >> 6), 10000);
	for (i = 0; i + 3 < len; i++)
		if (!f[i] && !f[i + 1] && f[i + 2] == 1 && f[i + 3] >= 1 &&
		    f[i + 3] <= 0xaf)
			slices++;
	assert_int_equal(slices, 576 / 16);
	assert_int_equal(vts_mpeg2_black_frame(f, 100, 4000000), 0);
}

static void test_mp2_frame(void **state)
{
	uint8_t f[VTS_MP2_FRAME];
	size_t i;

	(void)state;
	vts_mp2_silent_frame(f);
	assert_memory_equal(f, "\xff\xfd\xa4\x04", 4);
	for (i = 4; i < sizeof(f); i++)
		assert_int_equal(f[i], 0);
}

static uint64_t pts_of(const uint8_t *h)
{
	return (uint64_t)(h[9] & 0x0e) << 29 | h[10] << 22 |
	       (h[11] & 0xfe) << 14 | h[12] << 7 | h[13] >> 1;
}

static void test_pes_header(void **state)
{
	uint8_t h[VTS_PES_HEADER];
	uint64_t pts = 0x1c0ffee11ull;

	(void)state;
	vts_pes_header(h, 0xc0, 1152, pts);
	assert_memory_equal(h, "\x00\x00\x01\xc0\x04\x88\x84\x80\x05", 9);
	assert_true(pts_of(h) == pts);
	assert_int_equal(h[9] & 0xf1, 0x21);
	assert_int_equal(h[11] & 1, 1);
	assert_int_equal(h[13] & 1, 1);
	vts_pes_header(h, 0xe0, 100000, 0);
	assert_int_equal(h[4] | h[5], 0);	/* unbounded video PES */
}

static void test_ts_packet(void **state)
{
	uint8_t pkt[188], data[200];
	int64_t pcr = 0x1f2345678ll * 300 + 299;
	int64_t got;

	(void)state;
	memset(data, 0xab, sizeof(data));
	/* full payload */
	assert_int_equal(vts_ts_packet(pkt, 0x101, true, 5, -1, data, 200), 184);
	assert_memory_equal(pkt, "\x47\x41\x01\x15", 4);
	/* PCR: 8 bytes of adaptation field */
	assert_int_equal(vts_ts_packet(pkt, 0x101, false, 6, pcr, data, 200), 176);
	assert_int_equal(pkt[3], 0x36);
	assert_int_equal(pkt[4], 7);
	assert_int_equal(pkt[5], 0x10);
	got = ((int64_t)pkt[6] << 25 | pkt[7] << 17 | pkt[8] << 9 | pkt[9] << 1 |
	       pkt[10] >> 7) * 300 + ((pkt[10] & 1) << 8 | pkt[11]);
	assert_true(got == pcr);
	/* short payload: stuffing */
	assert_int_equal(vts_ts_packet(pkt, 0x102, false, 0, -1, data, 100), 100);
	assert_int_equal(pkt[4], 183 - 100);
	assert_int_equal(pkt[5], 0);
	assert_int_equal(pkt[6], 0xff);
	assert_int_equal(pkt[88], 0xab);
	/* 183 bytes: an adaptation field of its length byte only */
	assert_int_equal(vts_ts_packet(pkt, 0x102, false, 0, -1, data, 183), 183);
	assert_int_equal(pkt[3] & 0x30, 0x30);
	assert_int_equal(pkt[4], 0);
	assert_int_equal(pkt[5], 0xab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32_vectors),
		cmocka_unit_test(test_bcd),
		cmocka_unit_test(test_mjd_time),
		cmocka_unit_test(test_delivery_descriptors),
		cmocka_unit_test(test_mpeg2_frame),
		cmocka_unit_test(test_mp2_frame),
		cmocka_unit_test(test_pes_header),
		cmocka_unit_test(test_ts_packet),
	};

	return cmocka_run_group_tests_name("sim_si", tests, NULL, NULL);
}
