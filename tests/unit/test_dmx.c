// SPDX-License-Identifier: GPL-2.0
/*
 * test_dmx.c - the demux of a user-space adapter (src/dmx/): sections
 * built here with their CRC and packed into TS (pointer fields, several
 * sections a packet, sections across packets, stuffing), fed in pieces of
 * every size; filter bytes, masks and negative modes; DMX_CHECK_CRC,
 * DMX_ONESHOT, timeouts; continuity errors, duplicates and
 * discontinuity_indicator; reads of whole sections and in pieces; PES
 * filters to their own buffer (DMX_OUT_TAP, DMX_OUT_TSDEMUX_TAP) and to
 * dvr0 (DMX_OUT_TS_TAP, each packet once); overflow; decoder PES types;
 * the PID set; resync of the input; buffer sizes; the ioctl helpers; and
 * the TS of vtunerd's simulator (src/server/sim) read back exactly.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/ioctl.h>

#include "dmx/vdmx.h"
#include "server/sim/vts.h"

#define TS		VDMX_TS_SIZE
#define RD		(POLLIN | POLLRDNORM | POLLPRI)
#define BIG		VDMX_SECTION_MAX

/* ---- TS and sections made here ------------------------------------------- */

/* CRC_32 of MPEG-2, bit by bit: 0 over a section with its CRC. */
static uint32_t crc_ref(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	int i;

	while (n--) {
		c ^= (uint32_t)*p++ << 24;
		for (i = 0; i < 8; i++)
			c = c & 0x80000000u ? c << 1 ^ 0x04c11db7u : c << 1;
	}
	return c;
}

/*
 * A long-form section (section_syntax_indicator set): table, extension,
 * version, blen bytes of body from seed on (never 0x47), CRC.  Returns its
 * length.
 */
static size_t mksec(uint8_t *s, uint8_t table, uint16_t ext, uint8_t version,
		    size_t blen, uint8_t seed)
{
	size_t len = 8 + blen + 4, i;
	uint32_t crc;

	s[0] = table;
	s[1] = (uint8_t)(0xb0 | (len - 3) >> 8);
	s[2] = (uint8_t)(len - 3);
	s[3] = (uint8_t)(ext >> 8);
	s[4] = (uint8_t)ext;
	s[5] = (uint8_t)(0xc1 | (version & 0x1f) << 1);
	s[6] = 0;
	s[7] = 0;
	for (i = 0; i < blen; i++)
		s[8 + i] = (uint8_t)((seed + i) % 0x40);
	crc = crc_ref(s, len - 4);
	s[len - 4] = (uint8_t)(crc >> 24);
	s[len - 3] = (uint8_t)(crc >> 16);
	s[len - 2] = (uint8_t)(crc >> 8);
	s[len - 1] = (uint8_t)crc;
	assert_int_equal(crc_ref(s, len), 0);
	return len;
}

/*
 * One packet: af < 0 no adaptation field; else one of af bytes (its
 * first flags byte 0x80 when dci), and the payload after it (NULL: none,
 * the adaptation field fills the packet).  Payload room not used: 0xff.
 */
static void mkpkt(uint8_t *pkt, uint16_t pid, bool pusi, uint8_t cc, int af,
		  bool dci, const uint8_t *payload, size_t plen)
{
	size_t at = 4;

	memset(pkt, 0xff, TS);
	pkt[0] = 0x47;
	pkt[1] = (uint8_t)((pusi ? 0x40 : 0) | pid >> 8);
	pkt[2] = (uint8_t)pid;
	if (!payload) {
		pkt[3] = (uint8_t)(0x20 | (cc & 0x0f));
		pkt[4] = 183;
		pkt[5] = 0;
		return;
	}
	pkt[3] = (uint8_t)((af >= 0 ? 0x30 : 0x10) | (cc & 0x0f));
	if (af >= 0) {
		pkt[4] = (uint8_t)af;
		if (af > 0)
			pkt[5] = dci ? 0x80 : 0;
		at = 5 + (size_t)af;
	}
	assert_true(plen <= TS - at);
	memcpy(pkt + at, payload, plen);
}

/*
 * Sections back to back on pid, as a multiplexer packs them: a packet in
 * which a section starts has a PUSI and a pointer_field to the first
 * one; the last packet is stuffed with 0xff.  *cc runs on.  Returns the
 * number of packets written to out.
 */
static size_t psi_pack(uint8_t *out, uint16_t pid, uint8_t *cc,
		       uint8_t *const *secs, const size_t *lens, size_t n)
{
	static uint8_t stream[64 * 1024];
	size_t starts[64], total = 0, pos = 0, npkt = 0, i, room, take;
	uint8_t payload[184];
	bool pusi;
	size_t first = 0;

	assert_true(n <= 64);
	for (i = 0; i < n; i++) {
		starts[i] = total;
		memcpy(stream + total, secs[i], lens[i]);
		total += lens[i];
	}
	while (pos < total) {
		while (first < n && starts[first] < pos)
			first++;
		pusi = first < n && starts[first] - pos < 183;
		room = pusi ? 183 : 184;
		take = total - pos < room ? total - pos : room;
		memset(payload, 0xff, sizeof(payload));
		if (pusi) {
			payload[0] = (uint8_t)(starts[first] - pos);
			memcpy(payload + 1, stream + pos, take);
		} else {
			memcpy(payload, stream + pos, take);
		}
		mkpkt(out + npkt++ * TS, pid, pusi, (*cc)++, -1, false,
		      payload, 184);
		pos += take;
	}
	return npkt;
}

/* A PES-like packet of pid: payload bytes seed, seed+1... (never 0x47). */
static void mkpes(uint8_t *pkt, uint16_t pid, bool pusi, uint8_t cc, uint8_t seed)
{
	uint8_t payload[184];
	size_t i;

	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)((seed + i) % 0x40);
	mkpkt(pkt, pid, pusi, cc, -1, false, payload, sizeof(payload));
}

static uint16_t pkt_pid(const uint8_t *pkt)
{
	return (uint16_t)((pkt[1] & 0x1f) << 8 | pkt[2]);
}

/* ---- the demux under test ------------------------------------------------ */

static struct vdmx *new_dmx(void)
{
	struct vdmx *d = vdmx_new(NULL);

	assert_non_null(d);
	return d;
}

static struct vdmx_filter *open_f(struct vdmx *d)
{
	struct vdmx_filter *f;

	assert_int_equal(vdmx_filter_open(d, &f), 0);
	assert_non_null(f);
	return f;
}

static struct dmx_sct_filter_params sec_params(uint16_t pid, uint8_t table,
					       uint8_t tmask, uint32_t flags)
{
	struct dmx_sct_filter_params p;

	memset(&p, 0, sizeof(p));
	p.pid = pid;
	p.filter.filter[0] = table;
	p.filter.mask[0] = tmask;
	p.flags = flags;
	return p;
}

static int set_sec(struct vdmx_filter *f, uint16_t pid, uint8_t table,
		   uint8_t tmask, uint32_t flags)
{
	struct dmx_sct_filter_params p = sec_params(pid, table, tmask, flags);

	return vdmx_set_filter(f, &p);
}

static int set_pes(struct vdmx_filter *f, uint16_t pid, enum dmx_output out,
		   enum dmx_ts_pes type, uint32_t flags)
{
	struct dmx_pes_filter_params p;

	memset(&p, 0, sizeof(p));
	p.pid = pid;
	p.input = DMX_IN_FRONTEND;
	p.output = out;
	p.pes_type = type;
	p.flags = flags;
	return vdmx_set_pes_filter(f, &p);
}

/* Feed buf in pieces of the sizes of cuts, in turn. */
static void feed_cut(struct vdmx *d, const uint8_t *buf, size_t len,
		     const size_t *cuts, size_t ncuts)
{
	size_t i = 0, n;

	while (len) {
		n = cuts[i++ % ncuts];
		if (n > len)
			n = len;
		vdmx_feed(d, buf, n);
		buf += n;
		len -= n;
	}
}

/* The next read of f is exactly the len bytes of s. */
static void expect_read(struct vdmx_filter *f, const uint8_t *s, size_t len)
{
	static uint8_t buf[BIG];

	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), len);
	assert_memory_equal(buf, s, len);
}

static void expect_empty(struct vdmx_filter *f)
{
	uint8_t buf[BIG];

	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), -EAGAIN);
}

/* ---- sections ------------------------------------------------------------ */

static void test_pat(void **state)
{
	uint8_t sec[64], pkt[TS];
	size_t len = mksec(sec, 0x00, 1, 0, 8, 1);
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d);
	uint16_t pids[4];
	uint8_t cc = 0;

	(void)state;
	assert_int_equal(vdmx_filter_state(f), VDMX_STATE_ALLOCATED);
	assert_int_equal(vdmx_filter_poll(f), 0);
	assert_int_equal(set_sec(f, 0, 0x00, 0xff,
				 DMX_CHECK_CRC | DMX_IMMEDIATE_START), 0);
	assert_int_equal(vdmx_filter_state(f), VDMX_STATE_GO);
	assert_int_equal(vdmx_pids(d, pids, 4), 1);
	assert_int_equal(pids[0], 0);
	assert_null(vdmx_woken(d));
	assert_int_equal(vdmx_filter_poll(f), 0);
	expect_empty(f);

	assert_int_equal(psi_pack(pkt, 0, &cc, (uint8_t *[]){ sec }, &len, 1), 1);
	vdmx_feed(d, pkt, TS);
	assert_ptr_equal(vdmx_woken(d), f);
	assert_null(vdmx_woken(d));
	assert_int_equal(vdmx_filter_poll(f), RD);
	expect_read(f, sec, len);
	assert_int_equal(vdmx_filter_poll(f), 0);
	expect_empty(f);
	assert_int_equal(vdmx_stats(d)->packets, 1);

	/* the next repetition (the CC follows) */
	psi_pack(pkt, 0, &cc, (uint8_t *[]){ sec }, &len, 1);
	vdmx_feed(d, pkt, TS);
	expect_read(f, sec, len);
	vdmx_free(d);
}

/* Sections across packets, several in a packet, fed in pieces of any size. */
static void test_split(void **state)
{
	static uint8_t s1[1100], s2[400], s3[80], small[12][40], ts[64 * TS];
	uint8_t *secs[16];
	size_t lens[16], n, i, c;
	static const size_t cuts[][5] = {
		{ TS }, { 1 }, { 7, 100, 188, 500, 3 }, { 1000 }, { 187, 189 },
	};
	uint8_t cc = 5;

	(void)state;
	lens[0] = mksec(s1, 0x42, 1, 3, 1000, 1);
	lens[1] = mksec(s2, 0x42, 2, 3, 300, 2);
	lens[2] = mksec(s3, 0x42, 3, 3, 50, 3);
	secs[0] = s1;
	secs[1] = s2;
	secs[2] = s3;
	for (i = 0; i < 12; i++) {
		secs[3 + i] = small[i];
		lens[3 + i] = mksec(small[i], 0x46, (uint16_t)(10 + i), 0, 20,
				    (uint8_t)i);
	}
	n = psi_pack(ts, 0x11, &cc, secs, lens, 15);
	assert_int_equal(n, 10);	/* 1770 bytes and 10 pointer fields */

	for (c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
		struct vdmx *d = new_dmx();
		struct vdmx_filter *f = open_f(d), *g = open_f(d);

		assert_int_equal(set_sec(f, 0x11, 0, 0, DMX_IMMEDIATE_START), 0);
		assert_int_equal(set_sec(g, 0x11, 0x46, 0xff,
					 DMX_CHECK_CRC | DMX_IMMEDIATE_START), 0);
		feed_cut(d, ts, n * TS, cuts[c], 5);
		for (i = 0; i < 15; i++)
			expect_read(f, secs[i], lens[i]);
		expect_empty(f);
		for (i = 3; i < 15; i++)
			expect_read(g, secs[i], lens[i]);
		expect_empty(g);
		assert_int_equal(vdmx_stats(d)->discontinuities, 0);
		vdmx_free(d);
	}
}

/* The stream cut by lost, duplicated and marked packets. */
static void test_continuity(void **state)
{
	static uint8_t a[500], b[500], c[500], ts[16 * TS], in[16 * TS];
	uint8_t *secs[3] = { a, b, c };
	size_t lens[3], n, i, m;
	struct vdmx *d;
	struct vdmx_filter *f;
	uint8_t cc = 0;

	(void)state;
	lens[0] = mksec(a, 0x4e, 1, 0, 488, 1);
	lens[1] = mksec(b, 0x4e, 2, 0, 488, 2);
	lens[2] = mksec(c, 0x4e, 3, 0, 488, 3);
	n = psi_pack(ts, 0x12, &cc, secs, lens, 3);
	assert_int_equal(n, 9);	/* b: packets 2..5, c from 5 on */

	/* packet 3 lost: b dropped, c whole again after the PUSI of 5 */
	d = new_dmx();
	f = open_f(d);
	assert_int_equal(set_sec(f, 0x12, 0x4e, 0xff, DMX_IMMEDIATE_START), 0);
	for (i = 0, m = 0; i < n; i++)
		if (i != 3)
			memcpy(in + m++ * TS, ts + i * TS, TS);
	vdmx_feed(d, in, m * TS);
	expect_read(f, a, lens[0]);
	expect_read(f, c, lens[2]);
	expect_empty(f);
	assert_int_equal(vdmx_stats(d)->discontinuities, 1);
	vdmx_free(d);

	/* packet 3 twice: dvb-core takes a duplicate for a discontinuity */
	d = new_dmx();
	f = open_f(d);
	assert_int_equal(set_sec(f, 0x12, 0x4e, 0xff, DMX_IMMEDIATE_START), 0);
	for (i = 0, m = 0; i < n; i++) {
		memcpy(in + m++ * TS, ts + i * TS, TS);
		if (i == 3)
			memcpy(in + m++ * TS, ts + i * TS, TS);
	}
	vdmx_feed(d, in, m * TS);
	expect_read(f, a, lens[0]);
	expect_read(f, c, lens[2]);
	expect_empty(f);
	vdmx_free(d);

	/* discontinuity_indicator in packet 3 (its payload moved on by 2) */
	d = new_dmx();
	f = open_f(d);
	assert_int_equal(set_sec(f, 0x12, 0x4e, 0xff, DMX_IMMEDIATE_START), 0);
	memcpy(in, ts, n * TS);
	mkpkt(in + 3 * TS, 0x12, false, 3, 1, true, ts + 3 * TS + 4, 182);
	vdmx_feed(d, in, n * TS);
	expect_read(f, a, lens[0]);
	expect_read(f, c, lens[2]);
	expect_empty(f);
	vdmx_free(d);

	/* started in the middle of a: nothing before the first PUSI */
	d = new_dmx();
	f = open_f(d);
	assert_int_equal(set_sec(f, 0x12, 0x4e, 0xff, DMX_IMMEDIATE_START), 0);
	vdmx_feed(d, ts + TS, (n - 1) * TS);
	expect_read(f, b, lens[1]);
	expect_read(f, c, lens[2]);
	expect_empty(f);
	assert_int_equal(vdmx_stats(d)->discontinuities, 0);
	vdmx_free(d);

	/* a packet without payload changes nothing, its CC is not counted */
	d = new_dmx();
	f = open_f(d);
	assert_int_equal(set_sec(f, 0x12, 0x4e, 0xff, DMX_IMMEDIATE_START), 0);
	memcpy(in, ts, 3 * TS);
	mkpkt(in + 3 * TS, 0x12, false, 2, 183, false, NULL, 0);
	memcpy(in + 4 * TS, ts + 3 * TS, (n - 3) * TS);
	vdmx_feed(d, in, (n + 1) * TS);
	expect_read(f, a, lens[0]);
	expect_read(f, b, lens[1]);
	expect_read(f, c, lens[2]);
	assert_int_equal(vdmx_stats(d)->discontinuities, 0);
	vdmx_free(d);
}

/* pointer_field past the packet: the section in progress is dropped */
static void test_bad_pointer(void **state)
{
	static uint8_t a[300], b[30], ts[8 * TS];
	uint8_t *secs[2] = { a, b };
	size_t lens[2], n;
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d);
	uint8_t cc = 0;

	(void)state;
	lens[0] = mksec(a, 0x42, 1, 0, 288, 1);
	lens[1] = mksec(b, 0x42, 2, 0, 18, 2);
	n = psi_pack(ts, 0x11, &cc, secs, lens, 2);
	assert_int_equal(n, 2);
	assert_int_equal(set_sec(f, 0x11, 0, 0, DMX_IMMEDIATE_START), 0);
	ts[TS + 1] |= 0x40;
	ts[TS + 4] = 184;	/* the second packet: a PUSI pointing nowhere */
	vdmx_feed(d, ts, n * TS);
	expect_empty(f);
	assert_int_equal(vdmx_stats(d)->discontinuities, 1);
	vdmx_free(d);
}

static void test_crc(void **state)
{
	uint8_t sec[64], tdt[8] = { 0x70, 0x70, 0x05, 0xe8, 0x1e, 0x12, 0x00, 0x00 };
	uint8_t pkt[2 * TS];
	size_t len = mksec(sec, 0x00, 1, 0, 8, 1), tlen = sizeof(tdt);
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d), *g = open_f(d), *t = open_f(d);
	uint8_t cc = 0, tcc = 0;

	(void)state;
	assert_int_equal(set_sec(f, 0, 0, 0, DMX_CHECK_CRC | DMX_IMMEDIATE_START), 0);
	assert_int_equal(set_sec(g, 0, 0, 0, DMX_IMMEDIATE_START), 0);
	sec[9] ^= 0x01;
	psi_pack(pkt, 0, &cc, (uint8_t *[]){ sec }, &len, 1);
	vdmx_feed(d, pkt, TS);
	expect_empty(f);
	expect_read(g, sec, len);
	assert_int_equal(vdmx_stats(d)->crc_errors, 1);

	/* a section without section_syntax_indicator has no CRC to check */
	assert_int_equal(set_sec(t, 0x14, 0x70, 0xff,
				 DMX_CHECK_CRC | DMX_IMMEDIATE_START), 0);
	psi_pack(pkt, 0x14, &tcc, (uint8_t *[]){ tdt }, &tlen, 1);
	vdmx_feed(d, pkt, TS);
	expect_read(t, tdt, sizeof(tdt));
	vdmx_free(d);
}

/* Which of sections a filter passes: a bit per section. */
static unsigned int passes(const struct dmx_sct_filter_params *p,
			   uint8_t *const *secs, const size_t *lens, size_t n)
{
	static uint8_t ts[64 * TS];
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d);
	uint8_t buf[BIG], cc = 0;
	unsigned int got = 0;
	size_t i, npkt;
	ssize_t r;

	assert_int_equal(vdmx_set_filter(f, p), 0);
	assert_int_equal(vdmx_start(f), 0);
	npkt = psi_pack(ts, p->pid, &cc, secs, lens, n);
	vdmx_feed(d, ts, npkt * TS);
	while ((r = vdmx_filter_read(f, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++)
			if ((size_t)r == lens[i] && !memcmp(buf, secs[i], lens[i]))
				got |= 1u << i;
	}
	assert_int_equal(r, -EAGAIN);
	vdmx_free(d);
	return got;
}

static void test_match(void **state)
{
	static uint8_t s[6][64];
	uint8_t tdt[8] = { 0x70, 0x70, 0x05, 0xe8, 0x1e, 0x12, 0x00, 0x00 };
	uint8_t *secs[7];
	size_t lens[7], i;
	struct dmx_sct_filter_params p;

	(void)state;
	lens[0] = mksec(s[0], 0x42, 1, 5, 10, 0);
	lens[1] = mksec(s[1], 0x42, 2, 5, 10, 1);
	lens[2] = mksec(s[2], 0x42, 2, 6, 10, 2);
	lens[3] = mksec(s[3], 0x46, 3, 5, 10, 3);
	lens[4] = mksec(s[4], 0x50, 1, 5, 10, 4);
	lens[5] = mksec(s[5], 0x4e, 0x0102, 5, 10, 5);
	for (i = 0; i < 6; i++)
		secs[i] = s[i];
	secs[6] = tdt;
	lens[6] = sizeof(tdt);

	p = sec_params(0x11, 0, 0, 0);
	assert_int_equal(passes(&p, secs, lens, 7), 0x7f);
	p = sec_params(0x11, 0x42, 0xff, 0);
	assert_int_equal(passes(&p, secs, lens, 7), 0x07);
	p = sec_params(0x11, 0x40, 0xf0, 0);
	assert_int_equal(passes(&p, secs, lens, 7), 0x2f);
	/* user bytes 1 and 2: table_id_extension (section bytes 3, 4) */
	p = sec_params(0x11, 0x42, 0xff, 0);
	p.filter.filter[2] = 2;
	p.filter.mask[1] = 0xff;
	p.filter.mask[2] = 0xff;
	assert_int_equal(passes(&p, secs, lens, 7), 0x06);
	/* user byte 3 (version) with mode set: a version other than 5 */
	p = sec_params(0x11, 0x42, 0xff, 0);
	p.filter.filter[3] = 5 << 1;
	p.filter.mask[3] = 0x3e;
	p.filter.mode[3] = 0x3e;
	assert_int_equal(passes(&p, secs, lens, 7), 0x04);
	/* negative over two bytes: passes when one of them differs */
	p = sec_params(0x11, 0, 0, 0);
	p.filter.filter[1] = 0x01;
	p.filter.filter[2] = 0x02;
	p.filter.mask[1] = 0xff;
	p.filter.mask[2] = 0xff;
	p.filter.mode[1] = 0xff;
	p.filter.mode[2] = 0xff;
	assert_int_equal(passes(&p, secs, lens, 7), 0x5f);
	/* a mask bit without mode beside negative ones: both must hold */
	p.filter.filter[0] = 0x42;
	p.filter.mask[0] = 0xff;
	assert_int_equal(passes(&p, secs, lens, 7), 0x07);
	/* the section length (bytes 1, 2) is never compared */
	p = sec_params(0x11, 0x70, 0xff, 0);
	assert_int_equal(passes(&p, secs, lens, 7), 0x40);
	/*
	 * section byte 8 (the first of the body: the seed): a byte past a
	 * short section (the TDT's 8) passes no mask bit, equal or not
	 */
	p.filter.mask[0] = 0;
	p.filter.mask[6] = 0x01;
	assert_int_equal(passes(&p, secs, lens, 7), 0x15);
	p.filter.mode[6] = 0x01;
	p.filter.filter[6] = 0xfe;
	assert_int_equal(passes(&p, secs, lens, 7), 0x2a);
}

static void test_oneshot(void **state)
{
	uint8_t v1[64], v2[64], ts[2 * TS];
	size_t l1 = mksec(v1, 0x02, 1, 1, 20, 1), l2 = mksec(v2, 0x02, 1, 2, 20, 2);
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d);
	uint16_t pid;
	uint8_t cc = 0;

	(void)state;
	assert_int_equal(set_sec(f, 0x100, 0x02, 0xff,
				 DMX_ONESHOT | DMX_IMMEDIATE_START), 0);
	psi_pack(ts, 0x100, &cc, (uint8_t *[]){ v1 }, &l1, 1);
	psi_pack(ts + TS, 0x100, &cc, (uint8_t *[]){ v2 }, &l2, 1);
	vdmx_feed(d, ts, 2 * TS);
	assert_int_equal(vdmx_filter_state(f), VDMX_STATE_DONE);
	assert_int_equal(vdmx_filter_poll(f), RD);
	expect_read(f, v1, l1);
	expect_empty(f);
	assert_int_equal(vdmx_filter_poll(f), 0);
	/* its PID stays asked for until DMX_STOP, as dvb-core's feed runs */
	assert_int_equal(vdmx_pids(d, &pid, 1), 1);
	vdmx_feed(d, ts + TS, TS);
	expect_empty(f);

	assert_int_equal(vdmx_start(f), 0);
	vdmx_feed(d, ts, 2 * TS);
	expect_read(f, v1, l1);
	expect_empty(f);
	assert_int_equal(vdmx_stop(f), 0);
	assert_int_equal(vdmx_pids(d, &pid, 1), 0);
	vdmx_free(d);
}

static void test_timeout(void **state)
{
	uint8_t sec[64], ts[TS];
	size_t len = mksec(sec, 0x4e, 1, 0, 20, 1);
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d), *g = open_f(d);
	struct dmx_sct_filter_params p = sec_params(0x12, 0x4e, 0xff,
						    DMX_IMMEDIATE_START);
	uint8_t cc = 0;

	(void)state;
	assert_int_equal(vdmx_tick(d, 1000), 0);
	p.timeout = 100;
	assert_int_equal(vdmx_set_filter(f, &p), 0);
	assert_int_equal(vdmx_deadline(d), 1100);
	assert_int_equal(vdmx_tick(d, 1099), 0);
	assert_int_equal(vdmx_tick(d, 50), 0);		/* time never goes back */
	expect_empty(f);
	assert_null(vdmx_woken(d));
	assert_int_equal(vdmx_tick(d, 1100), 1);
	assert_ptr_equal(vdmx_woken(d), f);
	assert_int_equal(vdmx_filter_state(f), VDMX_STATE_TIMEDOUT);
	assert_int_equal(vdmx_filter_poll(f), RD | POLLERR);
	assert_int_equal(vdmx_filter_read(f, sec, sizeof(sec)), -ETIMEDOUT);
	assert_int_equal(vdmx_filter_poll(f), 0);
	expect_empty(f);
	assert_int_equal(vdmx_deadline(d), 0);
	psi_pack(ts, 0x12, &cc, (uint8_t *[]){ sec }, &len, 1);
	vdmx_feed(d, ts, TS);
	expect_empty(f);
	assert_int_equal(vdmx_stats(d)->timeouts, 1);

	/* started again: a section before the deadline ends the timeout */
	assert_int_equal(vdmx_tick(d, 2000), 0);
	assert_int_equal(vdmx_start(f), 0);
	p.timeout = 500;
	assert_int_equal(vdmx_set_filter(g, &p), 0);
	assert_int_equal(vdmx_deadline(d), 2100);
	psi_pack(ts, 0x12, &cc, (uint8_t *[]){ sec }, &len, 1);
	vdmx_feed(d, ts, TS);
	assert_int_equal(vdmx_deadline(d), 0);
	assert_int_equal(vdmx_tick(d, 9000), 0);
	expect_read(f, sec, len);
	expect_read(g, sec, len);
	/* stopped: no timeout */
	assert_int_equal(vdmx_start(f), 0);
	assert_int_equal(vdmx_stop(f), 0);
	assert_int_equal(vdmx_deadline(d), 0);
	assert_int_equal(vdmx_tick(d, 99000), 0);
	vdmx_free(d);
}

/* A reader's buffer smaller than the section: the section in pieces. */
static void test_small_reads(void **state)
{
	static uint8_t a[400], b[40], ts[4 * TS];
	uint8_t *secs[2] = { a, b }, buf[BIG];
	size_t lens[2];
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d);
	uint8_t cc = 0;

	(void)state;
	lens[0] = mksec(a, 0x42, 1, 0, 288, 1);	/* 300 bytes */
	lens[1] = mksec(b, 0x42, 2, 0, 8, 2);	/* 20 */
	assert_int_equal(set_sec(f, 0x11, 0, 0, DMX_IMMEDIATE_START), 0);
	vdmx_feed(d, ts, psi_pack(ts, 0x11, &cc, secs, lens, 2) * TS);
	assert_int_equal(vdmx_filter_read(f, buf, 0), 0);
	assert_int_equal(vdmx_filter_read(f, buf, 2), 2);
	assert_int_equal(vdmx_filter_read(f, buf + 2, 1), 1);
	assert_int_equal(vdmx_filter_read(f, buf + 3, 5), 5);
	/* the rest of a, never the start of b */
	assert_int_equal(vdmx_filter_read(f, buf + 8, sizeof(buf) - 8), 292);
	assert_memory_equal(buf, a, 300);
	assert_int_equal(vdmx_filter_read(f, buf, 4), 4);
	assert_int_equal(vdmx_filter_read(f, buf + 4, 100), 16);
	assert_memory_equal(buf, b, 20);
	expect_empty(f);
	vdmx_free(d);
}

static void test_overflow(void **state)
{
	static uint8_t s[5][3100], ts[5 * 20 * TS];
	uint8_t *secs[5], buf[BIG];
	size_t lens[5], i, n = 0;
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d);
	uint8_t cc = 0;

	(void)state;
	for (i = 0; i < 5; i++) {
		lens[i] = mksec(s[i], 0x4e, (uint16_t)i, 0, 2988, (uint8_t)i);
		secs[i] = s[i];
		n += psi_pack(ts + n * TS, 0x12, &cc, secs + i, lens + i, 1);
	}
	assert_int_equal(set_sec(f, 0x12, 0, 0, DMX_IMMEDIATE_START), 0);
	/* 8191 bytes hold two sections of 3000: the third overflows */
	vdmx_feed(d, ts, n * TS);
	assert_int_equal(vdmx_stats(d)->overflows, 1);
	assert_int_equal(vdmx_filter_poll(f), RD | POLLERR);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), -EOVERFLOW);
	assert_int_equal(vdmx_filter_poll(f), 0);
	expect_empty(f);
	/* the next ones come again */
	vdmx_feed(d, ts + (n - n / 5) * TS, n / 5 * TS);
	expect_read(f, s[4], lens[4]);

	/* a buffer smaller than a section: always overflows */
	assert_int_equal(vdmx_stop(f), 0);
	assert_int_equal(vdmx_filter_set_buffer_size(f, 1000), 0);
	assert_int_equal(vdmx_start(f), 0);
	vdmx_feed(d, ts, n / 5 * TS);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), -EOVERFLOW);
	vdmx_free(d);
}

/* ---- PES filters and dvr0 ------------------------------------------------ */

static void test_pes_tap(void **state)
{
	uint8_t ts[6 * TS], payload[184], want[184 + 173], buf[8 * TS];
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d), *all = open_f(d);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i % 0x40);
	mkpkt(ts, 0x101, true, 0, -1, false, payload, 184);
	mkpkt(ts + TS, 0x101, false, 1, 10, false, payload, 173);
	mkpkt(ts + 2 * TS, 0x101, false, 1, 183, false, NULL, 0);
	mkpkt(ts + 3 * TS, 0x101, false, 2, 0, false, payload, 183);
	ts[3 * TS + 4] = 190;	/* an adaptation field past the packet */
	mkpkt(ts + 4 * TS, 0x102, true, 0, -1, false, payload, 184);
	memcpy(want, payload, 184);
	memcpy(want + 184, payload, 173);

	assert_int_equal(set_pes(f, 0x101, DMX_OUT_TAP, DMX_PES_OTHER,
				 DMX_IMMEDIATE_START), 0);
	/* the whole TS to DMX_OUT_TAP: whole packets, as dvb-core's */
	assert_int_equal(set_pes(all, VDMX_PID_FULL_TS, DMX_OUT_TAP,
				 DMX_PES_OTHER, DMX_IMMEDIATE_START), 0);
	vdmx_feed(d, ts, 5 * TS);
	assert_int_equal(vdmx_filter_poll(f), RD);
	assert_int_equal(vdmx_filter_read(f, buf, 100), 100);
	assert_int_equal(vdmx_filter_read(f, buf + 100, sizeof(buf) - 100), 257);
	assert_memory_equal(buf, want, sizeof(want));
	expect_empty(f);
	assert_int_equal(vdmx_filter_read(all, buf, sizeof(buf)), 5 * TS);
	assert_memory_equal(buf, ts, 5 * TS);
	vdmx_free(d);
}

static void test_tsdemux(void **state)
{
	uint8_t ts[4 * TS], buf[16 * TS];
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d), *s = open_f(d), *tap = open_f(d);
	uint16_t pids[8];
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++)
		mkpes(ts + i * TS, (uint16_t)(0x100 + i), true, 0, (uint8_t)i);
	assert_int_equal(set_pes(f, 0x100, DMX_OUT_TSDEMUX_TAP, DMX_PES_OTHER, 0), 0);
	assert_int_equal(vdmx_add_pid(f, 0x101), 0);
	assert_int_equal(vdmx_pids(d, pids, 8), 0);	/* not started */
	assert_int_equal(vdmx_start(f), 0);
	assert_int_equal(vdmx_add_pid(f, 0x102), 0);
	assert_int_equal(vdmx_add_pid(f, 0x101), 0);	/* had it */
	assert_int_equal(vdmx_add_pid(f, 0x2001), -EINVAL);
	assert_int_equal(vdmx_pids(d, pids, 8), 3);
	assert_int_equal(pids[0], 0x100);
	assert_int_equal(pids[2], 0x102);

	vdmx_feed(d, ts, 4 * TS);
	vdmx_feed(d, ts, 4 * TS);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), 6 * TS);
	assert_memory_equal(buf, ts, 3 * TS);
	assert_memory_equal(buf + 3 * TS, ts, 3 * TS);

	assert_int_equal(vdmx_remove_pid(f, 0x101), 0);
	assert_int_equal(vdmx_remove_pid(f, 0x1234), 0);
	assert_int_equal(vdmx_pids(d, pids, 8), 2);
	assert_int_equal(pids[1], 0x102);
	vdmx_feed(d, ts, 4 * TS);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), 2 * TS);
	assert_int_equal(pkt_pid(buf), 0x100);
	assert_int_equal(pkt_pid(buf + TS), 0x102);

	/* a stopped filter loses a PID too (dvb-core would keep it) */
	assert_int_equal(vdmx_stop(f), 0);
	assert_int_equal(vdmx_remove_pid(f, 0x100), 0);
	assert_int_equal(vdmx_start(f), 0);
	assert_int_equal(vdmx_pids(d, pids, 8), 1);
	assert_int_equal(pids[0], 0x102);

	/* several PIDs only for DMX_OUT_TSDEMUX_TAP; not on section filters */
	assert_int_equal(set_pes(tap, 0x100, DMX_OUT_TAP, DMX_PES_OTHER, 0), 0);
	assert_int_equal(vdmx_add_pid(tap, 0x101), -EINVAL);
	assert_int_equal(vdmx_remove_pid(tap, 0x100), 0);
	assert_int_equal(vdmx_add_pid(tap, 0x101), 0);
	assert_int_equal(set_sec(s, 0x10, 0, 0, 0), 0);
	assert_int_equal(vdmx_add_pid(s, 0x101), -EINVAL);
	assert_int_equal(vdmx_remove_pid(s, 0x10), -EINVAL);
	vdmx_free(d);
}

static void test_dvr(void **state)
{
	uint8_t ts[5 * TS], buf[16 * TS];
	struct vdmx *d = new_dmx();
	struct vdmx_filter *video = open_f(d), *pcr = open_f(d), *all = open_f(d);
	unsigned int i;

	(void)state;
	for (i = 0; i < 5; i++)
		mkpes(ts + i * TS, i == 2 ? 0x200 : 0x100, i == 0, (uint8_t)i,
		      (uint8_t)i);
	assert_int_equal(vdmx_dvr_read(d, buf, sizeof(buf)), 0);	/* no reader */
	assert_int_equal(vdmx_dvr_poll(d), 0);
	assert_int_equal(set_pes(video, 0x100, DMX_OUT_TS_TAP, DMX_PES_VIDEO,
				 DMX_IMMEDIATE_START), 0);
	assert_int_equal(set_pes(pcr, 0x100, DMX_OUT_TS_TAP, DMX_PES_PCR,
				 DMX_IMMEDIATE_START), 0);
	vdmx_feed(d, ts, 5 * TS);	/* nobody reads dvr0: dropped */
	assert_false(vdmx_dvr_woken(d));

	assert_int_equal(vdmx_dvr_open(d), 0);
	assert_int_equal(vdmx_dvr_open(d), -EBUSY);
	assert_int_equal(vdmx_dvr_poll(d), 0);
	assert_int_equal(vdmx_dvr_read(d, buf, sizeof(buf)), -EAGAIN);
	vdmx_feed(d, ts, 5 * TS);
	assert_true(vdmx_dvr_woken(d));
	assert_false(vdmx_dvr_woken(d));
	assert_int_equal(vdmx_dvr_poll(d), RD);
	/* each packet once, though two filters want it */
	assert_int_equal(vdmx_dvr_read(d, buf, sizeof(buf)), 4 * TS);
	assert_memory_equal(buf, ts, 2 * TS);
	assert_memory_equal(buf + 2 * TS, ts + 3 * TS, 2 * TS);
	assert_int_equal(vdmx_filter_read(video, buf, sizeof(buf)), -EAGAIN);

	/* and with the whole TS too */
	assert_int_equal(set_pes(all, VDMX_PID_FULL_TS, DMX_OUT_TS_TAP,
				 DMX_PES_OTHER, DMX_IMMEDIATE_START), 0);
	vdmx_feed(d, ts, 5 * TS);
	assert_int_equal(vdmx_dvr_read(d, buf, 2 * TS + 10), 2 * TS + 10);
	assert_int_equal(vdmx_dvr_read(d, buf + 2 * TS + 10, sizeof(buf)), 3 * TS - 10);
	assert_memory_equal(buf, ts, 5 * TS);

	/* 565 bytes hold 3 packets: the fourth overflows */
	assert_int_equal(vdmx_dvr_set_buffer_size(d, 0), -EINVAL);
	assert_int_equal(vdmx_dvr_set_buffer_size(d, 3 * TS + 1), 0);
	vdmx_feed(d, ts, 3 * TS);
	assert_int_equal(vdmx_dvr_poll(d), RD);
	vdmx_feed(d, ts, TS);
	assert_int_equal(vdmx_dvr_poll(d), RD | POLLERR);
	assert_int_equal(vdmx_dvr_read(d, buf, sizeof(buf)), -EOVERFLOW);
	assert_int_equal(vdmx_dvr_read(d, buf, sizeof(buf)), -EAGAIN);
	vdmx_feed(d, ts, 2 * TS);
	assert_int_equal(vdmx_dvr_read(d, buf, sizeof(buf)), 2 * TS);
	assert_int_equal(vdmx_stats(d)->overflows, 1);

	/* closed and opened again: the default size, empty */
	vdmx_feed(d, ts, TS);
	vdmx_dvr_close(d);
	assert_int_equal(vdmx_dvr_set_buffer_size(d, 1000), 0);	/* no reader */
	assert_int_equal(vdmx_dvr_open(d), 0);
	assert_int_equal(vdmx_dvr_read(d, buf, sizeof(buf)), -EAGAIN);
	for (i = 0; i < 2000; i++)	/* 1880000 bytes: they fit */
		vdmx_feed(d, ts, 5 * TS);
	assert_int_equal(vdmx_stats(d)->overflows, 1);
	vdmx_free(d);
}

static void test_decoder(void **state)
{
	uint8_t ts[TS], buf[TS];
	struct vdmx *d = new_dmx();
	struct vdmx_filter *a = open_f(d), *b = open_f(d), *c = open_f(d);
	uint16_t pids[5], set[4];

	(void)state;
	vdmx_get_pes_pids(d, pids);
	assert_int_equal(pids[1], 0xffff);
	assert_int_equal(set_pes(a, 0x100, DMX_OUT_DECODER, DMX_PES_VIDEO,
				 DMX_IMMEDIATE_START), 0);
	/* a decoder type one running filter holds: dmx_ts_feed_set()'s EINVAL */
	assert_int_equal(set_pes(b, 0x101, DMX_OUT_DECODER, DMX_PES_VIDEO,
				 DMX_IMMEDIATE_START), -EINVAL);
	assert_int_equal(vdmx_filter_state(b), VDMX_STATE_SET);
	assert_int_equal(vdmx_pids(d, set, 4), 1);
	assert_int_equal(set[0], 0x100);
	assert_int_equal(set_pes(c, 0x102, DMX_OUT_DECODER, DMX_PES_AUDIO,
				 DMX_IMMEDIATE_START), 0);
	vdmx_get_pes_pids(d, pids);
	assert_int_equal(pids[DMX_PES_AUDIO], 0x102);
	assert_int_equal(pids[DMX_PES_VIDEO], 0x100);
	assert_int_equal(pids[DMX_PES_TELETEXT], 0xffff);
	/* no decoder: nothing delivered, but the PID is asked for */
	mkpes(ts, 0x100, true, 0, 0);
	vdmx_feed(d, ts, TS);
	assert_int_equal(vdmx_filter_read(a, buf, sizeof(buf)), -EAGAIN);
	assert_int_equal(vdmx_filter_poll(a), 0);
	/* a decoder type takes no second PID */
	assert_int_equal(vdmx_add_pid(a, 0x103), -EINVAL);

	vdmx_filter_close(a);
	assert_int_equal(vdmx_start(b), 0);
	vdmx_get_pes_pids(d, pids);
	assert_int_equal(pids[DMX_PES_VIDEO], 0x101);
	/* the PID stays what was last started, as dvb-core's */
	assert_int_equal(vdmx_stop(b), 0);
	vdmx_get_pes_pids(d, pids);
	assert_int_equal(pids[DMX_PES_VIDEO], 0x101);
	/* the type free again: its only PID removed, another added */
	assert_int_equal(set_pes(b, 0x100, DMX_OUT_TS_TAP, DMX_PES_VIDEO,
				 DMX_IMMEDIATE_START), 0);
	assert_int_equal(vdmx_remove_pid(b, 0x100), 0);
	a = open_f(d);
	assert_int_equal(set_pes(a, 0x100, DMX_OUT_TS_TAP, DMX_PES_VIDEO,
				 DMX_IMMEDIATE_START), 0);
	assert_int_equal(vdmx_add_pid(b, 0x105), -EINVAL);
	vdmx_filter_close(a);
	assert_int_equal(vdmx_add_pid(b, 0x105), 0);
	vdmx_get_pes_pids(d, pids);
	assert_int_equal(pids[DMX_PES_VIDEO], 0x105);
	vdmx_free(d);
}

/* ---- the PID set, limits, arguments -------------------------------------- */

static void test_pids(void **state)
{
	struct vdmx *d = new_dmx();
	struct vdmx_filter *s1 = open_f(d), *s2 = open_f(d), *p = open_f(d);
	uint16_t pids[4];
	uint32_t gen = vdmx_pids_gen(d);

	(void)state;
	assert_int_equal(set_sec(s1, 0x10, 0, 0, DMX_IMMEDIATE_START), 0);
	assert_int_not_equal(vdmx_pids_gen(d), gen);
	gen = vdmx_pids_gen(d);
	assert_int_equal(set_sec(s2, 0x10, 0x40, 0xff, DMX_IMMEDIATE_START), 0);
	assert_int_equal(vdmx_pids_gen(d), gen);
	assert_int_equal(set_pes(p, VDMX_PID_FULL_TS, DMX_OUT_TS_TAP,
				 DMX_PES_OTHER, DMX_IMMEDIATE_START), 0);
	assert_int_not_equal(vdmx_pids_gen(d), gen);
	assert_int_equal(vdmx_pids(d, pids, 4), 2);
	assert_int_equal(pids[0], 0x10);
	assert_int_equal(pids[1], VDMX_PID_FULL_TS);
	assert_int_equal(vdmx_add_pid(p, 0x11), -EINVAL);	/* DMX_OUT_TS_TAP */
	pids[0] = 0;
	assert_int_equal(vdmx_pids(d, pids, 0), 2);
	assert_int_equal(pids[0], 0);
	gen = vdmx_pids_gen(d);
	assert_int_equal(vdmx_stop(s1), 0);
	assert_int_equal(vdmx_pids_gen(d), gen);
	vdmx_filter_close(s2);
	assert_int_not_equal(vdmx_pids_gen(d), gen);
	assert_int_equal(vdmx_pids(d, pids, 4), 1);
	/* DMX_SET_FILTER replaces a running PES filter and its PIDs */
	assert_int_equal(set_sec(p, 0x12, 0, 0, 0), 0);
	assert_int_equal(vdmx_pids(d, pids, 4), 0);
	assert_int_equal(vdmx_start(p), 0);
	assert_int_equal(vdmx_pids(d, pids, 4), 1);
	assert_int_equal(pids[0], 0x12);
	vdmx_free(d);
}

static void test_limits(void **state)
{
	struct vdmx_config cfg = { .max_filters = 4, .max_feeds = 4 };
	struct vdmx *d = vdmx_new(&cfg);
	struct vdmx_filter *f[5], *x;
	uint16_t pids[8];

	(void)state;
	assert_non_null(d);
	f[0] = open_f(d);
	f[1] = open_f(d);
	f[2] = open_f(d);
	f[3] = open_f(d);
	assert_int_equal(vdmx_filter_open(d, &x), -EMFILE);
	assert_null(x);
	assert_int_equal(set_pes(f[0], 0x100, DMX_OUT_TSDEMUX_TAP,
				 DMX_PES_OTHER, DMX_IMMEDIATE_START), 0);
	assert_int_equal(vdmx_add_pid(f[0], 0x101), 0);
	assert_int_equal(vdmx_add_pid(f[0], 0x102), 0);
	assert_int_equal(set_sec(f[1], 0x10, 0, 0, DMX_IMMEDIATE_START), 0);
	assert_int_equal(set_sec(f[2], 0x11, 0, 0, DMX_IMMEDIATE_START), -EBUSY);
	assert_int_equal(vdmx_filter_state(f[2]), VDMX_STATE_SET);
	assert_int_equal(vdmx_add_pid(f[0], 0x103), -EBUSY);
	/* a filter needing two feeds starts none */
	vdmx_filter_close(f[1]);
	assert_int_equal(set_pes(f[3], 0x200, DMX_OUT_TSDEMUX_TAP,
				 DMX_PES_OTHER, 0), 0);
	assert_int_equal(vdmx_add_pid(f[3], 0x201), 0);
	assert_int_equal(vdmx_add_pid(f[3], 0x202), 0);
	assert_int_equal(vdmx_start(f[3]), -EBUSY);
	assert_int_equal(vdmx_pids(d, pids, 8), 3);
	assert_int_equal(vdmx_remove_pid(f[3], 0x202), 0);
	assert_int_equal(vdmx_start(f[3]), -EBUSY);
	assert_int_equal(vdmx_remove_pid(f[3], 0x201), 0);
	assert_int_equal(vdmx_start(f[3]), 0);
	assert_int_equal(vdmx_pids(d, pids, 8), 4);
	/* a restart that fails leaves the filter stopped, as dvb-core */
	assert_int_equal(vdmx_start(f[2]), -EBUSY);
	assert_int_equal(vdmx_add_pid(f[3], 0x201), -EBUSY);
	assert_int_equal(vdmx_pids(d, pids, 8), 4);
	f[1] = open_f(d);
	vdmx_free(d);

	cfg.max_feeds = 65535;
	assert_null(vdmx_new(&cfg));
}

static void test_args(void **state)
{
	struct vdmx_config cfg = { .max_buffer = 1 << 20 };
	struct vdmx *d = vdmx_new(&cfg);
	struct vdmx_filter *f, *g;
	uint8_t buf[TS], ts[TS];
	uint16_t pids[2];

	(void)state;
	assert_non_null(d);
	f = open_f(d);
	g = open_f(d);
	/* requests a filter must be set for */
	assert_int_equal(vdmx_start(f), -EINVAL);
	assert_int_equal(vdmx_stop(f), 0);
	assert_int_equal(vdmx_add_pid(f, 0x100), -EINVAL);
	assert_int_equal(vdmx_remove_pid(f, 0x100), -EINVAL);
	/* no buffer yet: end of file, as dvb-core's */
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), 0);
	assert_int_equal(vdmx_filter_set_buffer_size(f, VDMX_FILTER_BUFFER), 0);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), 0);
	assert_int_equal(vdmx_filter_set_buffer_size(f, 0), -EINVAL);
	assert_int_equal(vdmx_filter_set_buffer_size(f, (1 << 20) + 1), -ENOMEM);
	assert_int_equal(vdmx_filter_set_buffer_size(f, ~0ul), -ENOMEM);
	assert_int_equal(vdmx_filter_set_buffer_size(f, 1 << 20), 0);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), -EAGAIN);

	/* out of range: refused, the filter unchanged */
	assert_int_equal(set_pes(f, 0x100, DMX_OUT_TSDEMUX_TAP, DMX_PES_OTHER,
				 DMX_IMMEDIATE_START), 0);
	assert_int_equal(set_sec(f, 0x2000, 0, 0, DMX_IMMEDIATE_START), -EINVAL);
	assert_int_equal(set_pes(f, 0x2001, DMX_OUT_TAP, DMX_PES_OTHER, 0), -EINVAL);
	assert_int_equal(set_pes(f, 0x100, DMX_OUT_TAP, DMX_PES_OTHER + 1, 0), -EINVAL);
	assert_int_equal(set_pes(f, 0x100, DMX_OUT_TAP, (enum dmx_ts_pes)-1, 0), -EINVAL);
	assert_int_equal(vdmx_filter_state(f), VDMX_STATE_GO);
	assert_int_equal(vdmx_pids(d, pids, 2), 1);
	assert_int_equal(vdmx_filter_set_buffer_size(f, 100), -EBUSY);
	/* an output dvb-core does not know: accepted, delivers nothing */
	assert_int_equal(set_pes(g, 0x100, (enum dmx_output)7, DMX_PES_OTHER,
				 DMX_IMMEDIATE_START), 0);
	mkpes(ts, 0x100, true, 0, 0);
	vdmx_feed(d, ts, TS);
	assert_int_equal(vdmx_filter_read(g, buf, sizeof(buf)), -EAGAIN);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), TS);
	/* a restart empties the buffer */
	vdmx_feed(d, ts, TS);
	assert_int_equal(vdmx_start(f), 0);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), -EAGAIN);
	vdmx_filter_close(NULL);
	vdmx_free(d);
	vdmx_free(NULL);
}

static void test_ioctl(void **state)
{
	struct vdmx *d = new_dmx();
	struct vdmx_filter *f = open_f(d);
	struct dmx_pes_filter_params p;
	struct dmx_stc stc;
	uint16_t pid = 0x101, pids[5];
	size_t in, out;

	(void)state;
	assert_int_equal(vdmx_ioctl_size(DMX_SET_FILTER, false, &in, &out), 0);
	assert_int_equal(in, sizeof(struct dmx_sct_filter_params));
	assert_int_equal(out, 0);
	assert_int_equal(vdmx_ioctl_size(DMX_GET_PES_PIDS, false, &in, &out), 0);
	assert_int_equal(in, 0);
	assert_int_equal(out, 10);
	assert_int_equal(vdmx_ioctl_size(DMX_GET_STC, false, &in, &out), 0);
	assert_int_equal(out, sizeof(stc));
	assert_int_equal(vdmx_ioctl_size(DMX_ADD_PID, false, &in, &out), 0);
	assert_int_equal(in, 2);
	assert_int_equal(vdmx_ioctl_size(DMX_SET_BUFFER_SIZE, true, &in, &out), 0);
	assert_int_equal(in + out, 0);
	assert_int_equal(vdmx_ioctl_size(DMX_START, true, &in, &out), -ENOTTY);
	assert_int_equal(vdmx_ioctl_size(DMX_REQBUFS, false, &in, &out), -ENOTTY);
	assert_int_equal(vdmx_ioctl_size(0x12345678, false, &in, &out), -ENOTTY);

	memset(&p, 0, sizeof(p));
	p.pid = 0x100;
	p.output = DMX_OUT_TSDEMUX_TAP;
	p.pes_type = DMX_PES_OTHER;
	assert_int_equal(vdmx_ioctl(f, DMX_SET_PES_FILTER, 0, &p), 0);
	assert_int_equal(vdmx_ioctl(f, DMX_ADD_PID, 0, &pid), 0);
	assert_int_equal(vdmx_ioctl(f, DMX_SET_BUFFER_SIZE, 65536, NULL), 0);
	assert_int_equal(vdmx_ioctl(f, DMX_START, 0, NULL), 0);
	assert_int_equal(vdmx_ioctl(f, DMX_SET_BUFFER_SIZE, 4096, NULL), -EBUSY);
	assert_int_equal(vdmx_pids(d, pids, 5), 2);
	assert_int_equal(vdmx_ioctl(f, DMX_REMOVE_PID, 0, &pid), 0);
	assert_int_equal(vdmx_pids(d, pids, 5), 1);
	assert_int_equal(vdmx_ioctl(f, DMX_GET_PES_PIDS, 0, pids), 0);
	assert_int_equal(pids[0], 0xffff);
	assert_int_equal(vdmx_ioctl(f, DMX_GET_STC, 0, &stc), -EINVAL);
	assert_int_equal(vdmx_ioctl(f, DMX_STOP, 0, NULL), 0);
	assert_int_equal(vdmx_pids(d, pids, 5), 0);
	assert_int_equal(vdmx_ioctl(f, DMX_REQBUFS, 0, NULL), -ENOTTY);
	assert_int_equal(vdmx_ioctl(f, DMX_ADD_PID, 0, NULL), -EFAULT);
	assert_int_equal(vdmx_ioctl(f, DMX_SET_FILTER, 0, NULL), -EFAULT);
	assert_int_equal(vdmx_dvr_ioctl(d, DMX_SET_BUFFER_SIZE, 0), -EINVAL);
	assert_int_equal(vdmx_dvr_ioctl(d, DMX_START, 0), -ENOTTY);
	vdmx_free(d);
}

/* ---- the input ----------------------------------------------------------- */

static void test_resync(void **state)
{
	static uint8_t in[8 * TS], buf[8 * TS];
	uint8_t p[5][TS];
	size_t n = 0, i, step;
	struct vdmx *d;
	struct vdmx_filter *f;
	static const uint8_t junk[5] = { 1, 2, 3, 4, 5 };

	(void)state;
	for (i = 0; i < 5; i++)
		mkpes(p[i], i == 2 ? 0x1fff : 0x100, false, (uint8_t)i, (uint8_t)(i + 1));
	/* junk, P0, P1, 100 bytes of P2, P3, P4 */
	memcpy(in, junk, 5);
	n = 5;
	memcpy(in + n, p[0], TS);
	n += TS;
	memcpy(in + n, p[1], TS);
	n += TS;
	memcpy(in + n, p[2], 100);
	n += 100;
	memcpy(in + n, p[3], TS);
	n += TS;
	memcpy(in + n, p[4], TS);
	n += TS;

	/*
	 * Whole, a byte at a time, and cut so that the packet made of P2's
	 * 100 bytes and P3's first 88 is completed in the buffer that holds
	 * what follows it: then that is not a sync byte, and it is dropped.
	 * Else it is a packet of P2's PID, and the rest of P3 is skipped.
	 */
	for (step = 0; step < 3; step++) {
		static const size_t cuts[][3] = { { 8 * TS }, { 1 }, { 100, 37, 250 } };
		static const uint64_t pkts[3] = { 4, 4, 3 };
		static const uint64_t dropped[3] = { 105, 105, 5 + TS + 100 };

		d = new_dmx();
		f = open_f(d);
		assert_int_equal(set_pes(f, 0x100, DMX_OUT_TSDEMUX_TAP,
					 DMX_PES_OTHER, DMX_IMMEDIATE_START), 0);
		feed_cut(d, in, n, cuts[step], 3);
		assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), 3 * TS);
		assert_memory_equal(buf, p[0], TS);
		assert_memory_equal(buf + TS, p[1], TS);
		assert_memory_equal(buf + 2 * TS, p[4], TS);
		assert_int_equal(vdmx_stats(d)->packets, pkts[step]);
		assert_int_equal(vdmx_stats(d)->dropped_bytes, dropped[step]);
		assert_int_equal(vdmx_stats(d)->sync_losses, 1);
		vdmx_free(d);
	}

	/* a packet cut short then dropped: the byte after it is no sync */
	d = new_dmx();
	f = open_f(d);
	assert_int_equal(set_pes(f, 0x100, DMX_OUT_TSDEMUX_TAP, DMX_PES_OTHER,
				 DMX_IMMEDIATE_START), 0);
	vdmx_feed(d, p[0], TS);
	vdmx_feed(d, p[1], 100);
	vdmx_feed(d, p[1] + 100, 88);
	vdmx_feed(d, p[3], 150);
	memcpy(in, p[3] + 150, 38);
	in[38] = 0;
	memcpy(in + 39, p[4], TS);
	vdmx_feed(d, in, 39 + TS);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), 3 * TS);
	assert_memory_equal(buf + TS, p[1], TS);
	assert_memory_equal(buf + 2 * TS, p[4], TS);
	/* and a new tune forgets a packet cut short */
	vdmx_feed(d, p[3], 150);
	vdmx_feed_reset(d);
	vdmx_feed(d, p[4], TS);
	assert_int_equal(vdmx_filter_read(f, buf, sizeof(buf)), TS);
	assert_memory_equal(buf, p[4], TS);
	vdmx_free(d);
}

/* ---- vtunerd's simulated TS ---------------------------------------------- */

#define SIM_SECONDS	2
#define SIM_CHUNK	(7 * TS + 50)
#define SIM_SECS	64	/* sections compared a PID */

/*
 * The sections of pid in the generator's TS, found here the simple way
 * (the generator starts each one in a packet of its own, pointer_field
 * 0): the first SIM_SECS into out.  Returns how many there are.
 */
static size_t sim_sections(const uint8_t *ts, size_t npkt, uint16_t pid,
			   uint8_t (*out)[BIG], size_t *lens)
{
	static uint8_t sec[BIG];
	size_t i, n = 0, have = 0, want = 0, take;
	const uint8_t *p;

	for (i = 0; i < npkt; i++) {
		p = ts + i * TS;
		if (pkt_pid(p) != pid)
			continue;
		assert_int_equal(p[3] & 0x30, 0x10);
		if (p[1] & 0x40) {
			assert_int_equal(p[4], 0);
			want = 3 + ((p[6] & 0x0f) << 8 | p[7]);
			take = want < 183 ? want : 183;
			memcpy(sec, p + 5, take);
			have = take;
		} else if (have < want) {
			take = want - have < 184 ? want - have : 184;
			memcpy(sec + have, p + 4, take);
			have += take;
		}
		if (want && have == want) {
			if (n < SIM_SECS) {
				memcpy(out[n], sec, want);
				lens[n] = want;
			}
			n++;
			want = 0;
		}
	}
	return n;
}

/*
 * The TS of a simulated DVB-T transponder, fed in pieces of 7.3 packets
 * and read after each: the PAT, SDT and EIT sections the generator wrote,
 * with their CRC checked; the video PID's packets on dvr0 and the audio
 * PID's payload, exactly.
 */
static void test_sim(void **state)
{
	static uint8_t ts[SIM_SECONDS * 3000000 / TS * TS];
	static uint8_t got[3][SIM_SECS][BIG], want[SIM_SECS][BIG], scratch[BIG];
	static uint8_t dvr[2000000], aud[500000], wdvr[2000000], waud[500000];
	size_t glens[3][SIM_SECS], wlens[SIM_SECS], ngot[3] = { 0 }, npkt, nw, i, k;
	size_t off, ndvr = 0, naud = 0, nwdvr = 0, nwaud = 0, count;
	static const uint16_t sec_pids[3] = { 0x00, 0x11, 0x12 };
	const struct vts_transponder *tp;
	const struct vts_service *sv;
	struct vts_world w;
	struct vts_mux *m;
	struct vdmx *d;
	struct vdmx_filter *sf[3], *vf, *af;
	char err[256];
	uint8_t *to;
	ssize_t r;

	(void)state;
	vts_world_init(&w);
	assert_int_equal(vts_world_default(&w), 0);
	tp = vts_world_find(&w, "T 506 MHz");
	assert_non_null(tp);
	sv = &tp->services[0];
	m = vts_mux_new(tp, 1700000000, 0, err, sizeof(err));
	assert_non_null(m);
	npkt = vts_mux_due(m, SIM_SECONDS * 1000000000ull);
	assert_true(npkt <= sizeof(ts) / TS);
	vts_mux_fill(m, ts, npkt);
	vts_mux_free(m);

	d = new_dmx();
	assert_int_equal(vdmx_dvr_open(d), 0);
	for (k = 0; k < 3; k++) {
		sf[k] = open_f(d);
		assert_int_equal(set_sec(sf[k], sec_pids[k], 0, 0,
					 DMX_CHECK_CRC | DMX_IMMEDIATE_START), 0);
	}
	vf = open_f(d);
	assert_int_equal(set_pes(vf, sv->video_pid, DMX_OUT_TS_TAP, DMX_PES_VIDEO,
				 DMX_IMMEDIATE_START), 0);
	af = open_f(d);
	assert_int_equal(set_pes(af, sv->audio_pid, DMX_OUT_TAP, DMX_PES_AUDIO,
				 DMX_IMMEDIATE_START), 0);

	for (off = 0; off < npkt * TS; off += SIM_CHUNK) {
		vdmx_feed(d, ts + off, npkt * TS - off < SIM_CHUNK ?
			  npkt * TS - off : SIM_CHUNK);
		for (k = 0; k < 3; k++) {
			for (;;) {
				to = ngot[k] < SIM_SECS ? got[k][ngot[k]] : scratch;
				r = vdmx_filter_read(sf[k], to, BIG);
				if (r < 0)
					break;
				if (ngot[k] < SIM_SECS)
					glens[k][ngot[k]] = (size_t)r;
				ngot[k]++;
			}
			assert_int_equal(r, -EAGAIN);
		}
		while ((r = vdmx_dvr_read(d, dvr + ndvr, sizeof(dvr) - ndvr)) > 0)
			ndvr += (size_t)r;
		assert_int_equal(r, -EAGAIN);
		while ((r = vdmx_filter_read(af, aud + naud, sizeof(aud) - naud)) > 0)
			naud += (size_t)r;
		assert_int_equal(r, -EAGAIN);
	}
	assert_int_equal(vdmx_stats(d)->packets, npkt);
	assert_int_equal(vdmx_stats(d)->overflows, 0);
	assert_int_equal(vdmx_stats(d)->discontinuities, 0);
	assert_int_equal(vdmx_stats(d)->crc_errors, 0);
	assert_int_equal(vdmx_stats(d)->dropped_bytes, 0);

	/* PAT, SDT, EIT: every section, exactly as generated */
	for (k = 0; k < 3; k++) {
		nw = sim_sections(ts, npkt, sec_pids[k], want, wlens);
		assert_true(nw > 1);
		assert_int_equal(ngot[k], nw);
		for (i = 0; i < nw && i < SIM_SECS; i++) {
			assert_int_equal(glens[k][i], wlens[i]);
			assert_memory_equal(got[k][i], want[i], wlens[i]);
		}
	}
	assert_int_equal(got[0][0][0], 0x00);	/* the PAT's table_id */

	for (i = 0; i < npkt; i++) {
		const uint8_t *p = ts + i * TS;

		if (pkt_pid(p) == sv->video_pid) {
			assert_true(nwdvr + TS <= sizeof(wdvr));
			memcpy(wdvr + nwdvr, p, TS);
			nwdvr += TS;
		} else if (pkt_pid(p) == sv->audio_pid && (p[3] & 0x10)) {
			count = p[3] & 0x20 ? 183 - (size_t)p[4] : 184;
			assert_true(nwaud + count <= sizeof(waud));
			memcpy(waud + nwaud, p + TS - count, count);
			nwaud += count;
		}
	}
	assert_true(nwdvr > 100 * TS);
	assert_int_equal(ndvr, nwdvr);
	assert_memory_equal(dvr, wdvr, nwdvr);
	assert_true(nwaud > 1000);
	assert_int_equal(naud, nwaud);
	assert_memory_equal(aud, waud, nwaud);
	vdmx_free(d);
	vts_world_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pat),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_continuity),
		cmocka_unit_test(test_bad_pointer),
		cmocka_unit_test(test_crc),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_oneshot),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_small_reads),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_pes_tap),
		cmocka_unit_test(test_tsdemux),
		cmocka_unit_test(test_dvr),
		cmocka_unit_test(test_decoder),
		cmocka_unit_test(test_pids),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_ioctl),
		cmocka_unit_test(test_resync),
		cmocka_unit_test(test_sim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
