// SPDX-License-Identifier: GPL-2.0
/*
 * test_satip_rtprx.c - RTP reception of a SAT>IP client (satip/rtprx.c):
 * the datagram's header (CSRCs, extension, padding, payload type, TS
 * size), and the sequence tracker: in order without a copy, wrap-around,
 * swapped datagrams, gaps waited for and given up, late and duplicate
 * datagrams, the window, payloads too large to hold, jumps confirmed or
 * not, restart, and a long stream with swaps and losses.
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

#include "satip/report.h"
#include "satip/rtprx.h"

#define MS	1000000ull
#define TS	SATIP_TS_PACKET

/* ---- satip_rtp_parse ---------------------------------------------------- */

static void test_parse(void **state)
{
	static uint8_t buf[12 + 60 + 8 + 7 * TS + 4];
	struct satip_rtp_info in;
	size_t n;

	(void)state;
	satip_rtp_header(buf, 0xfffe, 0x12345678, 0xcafebabe);
	memset(buf + 12, 0x47, 7 * TS);
	assert_int_equal(satip_rtp_parse(buf, 12 + 7 * TS, &in), 0);
	assert_int_equal(in.seq, 0xfffe);
	assert_int_equal(in.ts, 0x12345678);
	assert_int_equal(in.ssrc, 0xcafebabe);
	assert_int_equal(in.hlen, 12);
	assert_int_equal(in.plen, 7 * TS);

	/* empty: a keepalive */
	assert_int_equal(satip_rtp_parse(buf, 12, &in), 0);
	assert_int_equal(in.plen, 0);
	/* not whole TS packets, other payload types, not RTP */
	assert_int_equal(satip_rtp_parse(buf, 12 + 187, &in), -EBADMSG);
	assert_int_equal(in.seq, 0xfffe);
	buf[1] = 0x80 | 33;	/* the marker bit does not count */
	assert_int_equal(satip_rtp_parse(buf, 12 + TS, &in), 0);
	buf[1] = 96;
	assert_int_equal(satip_rtp_parse(buf, 12 + TS, &in), -EPROTONOSUPPORT);
	buf[1] = 33;
	assert_int_equal(satip_rtp_parse(buf, 11, &in), -EPROTO);
	buf[0] = 0x40;
	assert_int_equal(satip_rtp_parse(buf, 12 + TS, &in), -EPROTO);
	buf[0] = 0xc0;
	assert_int_equal(satip_rtp_parse(buf, 12 + TS, &in), -EPROTO);

	/* 15 CSRCs and an extension of 2 words */
	buf[0] = 0x80 | 0x10 | 15;
	buf[12 + 60 + 2] = 0;
	buf[12 + 60 + 3] = 1;
	n = 12 + 60 + 8 + 2 * TS;
	assert_int_equal(satip_rtp_parse(buf, n, &in), 0);
	assert_int_equal(in.hlen, 12 + 60 + 8);
	assert_int_equal(in.plen, 2 * TS);
	assert_int_equal(satip_rtp_parse(buf, 12 + 60 + 7, &in), -EPROTO);
	assert_int_equal(satip_rtp_parse(buf, 12 + 60 + 3, &in), -EPROTO);
	assert_int_equal(satip_rtp_parse(buf, 12 + 59, &in), -EPROTO);
	buf[12 + 60 + 3] = 2;	/* 12 bytes of extension: the payload shifts */
	assert_int_equal(satip_rtp_parse(buf, n, &in), -EBADMSG);

	/* padding: 4 bytes, the last one counting them */
	buf[0] = 0x80 | 0x20;
	n = 12 + TS + 4;
	buf[n - 1] = 4;
	assert_int_equal(satip_rtp_parse(buf, n, &in), 0);
	assert_int_equal(in.plen, TS);
	buf[n - 1] = 0;
	assert_int_equal(satip_rtp_parse(buf, n, &in), -EPROTO);
	buf[n - 1] = 193;
	assert_int_equal(satip_rtp_parse(buf, n, &in), -EPROTO);
	buf[n - 1] = 192;	/* all of the payload */
	assert_int_equal(satip_rtp_parse(buf, n, &in), 0);
	assert_int_equal(in.plen, 0);
	assert_int_equal(satip_rtp_parse(buf, 12, &in), -EPROTO);
}

/* ---- the tracker -------------------------------------------------------- */

#define MAX_OUT	70000

static struct satip_rx rx;
static struct out {
	unsigned int n;
	uint16_t seq[MAX_OUT];
	size_t len[MAX_OUT];
	const uint8_t *ptr[MAX_OUT];
} out;
static uint8_t pay[64][SATIP_RX_HOLD_MAX + TS];

static void deliver(void *arg, const uint8_t *p, size_t len)
{
	struct out *o = arg;

	assert_true(o->n < MAX_OUT);
	o->seq[o->n] = len ? (uint16_t)(p[0] << 8 | p[1]) : 0xffff;
	o->len[o->n] = len;
	o->ptr[o->n] = p;
	o->n++;
}

/* A datagram of pkts TS packets whose payload names its seq. */
static const uint8_t *dgram(uint16_t seq, unsigned int k)
{
	uint8_t *p = pay[k % 64];

	p[0] = (uint8_t)(seq >> 8);
	p[1] = (uint8_t)seq;
	return p;
}

static void push(uint16_t seq, unsigned int pkts, uint64_t now)
{
	static unsigned int k;

	satip_rx_push(&rx, seq, dgram(seq, k++), pkts * TS, now, deliver, &out);
}

static void reset(uint64_t max_wait)
{
	satip_rx_init(&rx, max_wait);
	memset(&out, 0, sizeof(out));
}

static void test_in_order(void **state)
{
	const uint8_t *p;
	unsigned int i;

	(void)state;
	reset(10 * MS);
	assert_int_equal(satip_rx_deadline(&rx), 0);
	/* wrapping; delivered from the caller's buffer */
	for (i = 0; i < 6; i++) {
		p = dgram((uint16_t)(65533 + i), 0);
		satip_rx_push(&rx, (uint16_t)(65533 + i), p, 7 * TS, i, deliver,
			      &out);
		assert_int_equal(out.n, i + 1);
		assert_ptr_equal(out.ptr[i], p);
		assert_int_equal(out.seq[i], (uint16_t)(65533 + i));
		assert_int_equal(satip_rx_deadline(&rx), 0);
	}
	/* an empty keepalive is a datagram too */
	satip_rx_push(&rx, 3, NULL, 0, 7, deliver, &out);
	assert_int_equal(out.n, 7);
	assert_int_equal(out.len[6], 0);
	assert_int_equal(rx.datagrams, 7);
	assert_int_equal(rx.lost + rx.reordered + rx.late + rx.duplicates +
			 rx.resyncs + rx.strays + rx.ts_lost, 0);
}

static void test_swapped(void **state)
{
	(void)state;
	reset(10 * MS);
	push(10, 7, 0);
	push(12, 7, 1 * MS);
	assert_int_equal(out.n, 1);
	assert_int_equal(satip_rx_deadline(&rx), 11 * MS);
	push(11, 7, 2 * MS);
	assert_int_equal(out.n, 3);
	assert_int_equal(out.seq[1], 11);
	assert_int_equal(out.seq[2], 12);
	assert_ptr_not_equal(out.ptr[2], pay[1]);	/* held: a copy */
	assert_int_equal(rx.reordered, 1);
	assert_int_equal(rx.lost, 0);
	assert_int_equal(satip_rx_deadline(&rx), 0);

	/* three ways round: 13 16 15 14 */
	push(13, 7, 3 * MS);
	push(16, 7, 4 * MS);
	push(15, 7, 5 * MS);
	assert_int_equal(out.n, 4);
	push(14, 7, 6 * MS);
	assert_int_equal(out.n, 7);
	assert_int_equal(out.seq[4], 14);
	assert_int_equal(out.seq[5], 15);
	assert_int_equal(out.seq[6], 16);
	assert_int_equal(rx.reordered, 3);
	assert_int_equal(rx.datagrams, 7);
	assert_int_equal(rx.lost, 0);

	/* duplicates: delivered, and held */
	push(16, 7, 7 * MS);
	push(18, 7, 8 * MS);
	push(18, 7, 8 * MS);
	assert_int_equal(rx.duplicates, 2);
	push(17, 7, 9 * MS);
	assert_int_equal(out.n, 9);
	assert_int_equal(rx.datagrams, 9);
}

static void test_loss(void **state)
{
	(void)state;
	reset(10 * MS);
	push(100, 7, 0);
	push(103, 7, 1 * MS);
	push(104, 3, 2 * MS);
	assert_int_equal(satip_rx_deadline(&rx), 11 * MS);
	satip_rx_expire(&rx, 10 * MS, deliver, &out);
	assert_int_equal(out.n, 1);
	satip_rx_expire(&rx, 11 * MS, deliver, &out);
	assert_int_equal(out.n, 3);
	assert_int_equal(out.seq[1], 103);
	assert_int_equal(out.seq[2], 104);
	assert_int_equal(rx.lost, 2);
	assert_int_equal(rx.ts_lost, 14);
	assert_int_equal(satip_rx_deadline(&rx), 0);
	/* too late now; a second copy of it is a duplicate */
	push(101, 7, 12 * MS);
	assert_int_equal(rx.late, 1);
	push(101, 7, 12 * MS);
	assert_int_equal(rx.duplicates, 1);
	push(102, 7, 12 * MS);
	assert_int_equal(rx.late, 2);
	assert_int_equal(out.n, 3);

	/* the larger of the datagrams around a gap: 3 then (2 lost) 5 */
	push(107, 5, 13 * MS);
	satip_rx_expire(&rx, 30 * MS, deliver, &out);
	assert_int_equal(rx.lost, 4);
	assert_int_equal(rx.ts_lost, 14 + 10);
	/* two gaps given up at once, each counted with its own neighbours */
	push(110, 1, 31 * MS);
	push(112, 6, 31 * MS);
	satip_rx_expire(&rx, 41 * MS, deliver, &out);
	assert_int_equal(rx.lost, 4 + 2 + 1);
	assert_int_equal(rx.ts_lost, 24 + 2 * 5 + 6);
	assert_int_equal(out.seq[out.n - 1], 112);
	/* keepalives around a gap: no TS lost */
	push(113, 0, 50 * MS);
	push(115, 0, 50 * MS);
	satip_rx_expire(&rx, 60 * MS, deliver, &out);
	assert_int_equal(rx.lost, 8);
	assert_int_equal(rx.ts_lost, 40);
	/* a max_wait of 0 waits for nothing */
	reset(0);
	push(1, 7, 5);
	push(3, 7, 5);
	assert_int_equal(out.n, 2);
	assert_int_equal(rx.lost, 1);
	assert_int_equal(satip_rx_deadline(&rx), 0);
}

static void test_window(void **state)
{
	unsigned int i;

	(void)state;
	reset(10 * MS);
	push(1, 7, 0);
	/* 3..17 held (15), then 18 fills the window: 2 is given up */
	for (i = 3; i < 18; i++)
		push((uint16_t)i, 7, i);
	assert_int_equal(out.n, 1);
	assert_int_equal(rx.held, 15);
	push(18, 7, 18);
	assert_int_equal(out.n, 17);
	assert_int_equal(rx.lost, 1);
	assert_int_equal(rx.held, 0);

	/* far ahead: the window slides, gaps before seq - 16 given up */
	push(50, 7, 20);
	assert_int_equal(rx.lost, 1 + 15);	/* 19..33 */
	assert_int_equal(rx.held, 1);
	push(34, 7, 21);
	push(36, 7, 22);
	assert_int_equal(out.seq[out.n - 1], 34);
	push(60, 7, 23);	/* 35 given up, 36 out, 37..43 given up */
	assert_int_equal(out.seq[out.n - 1], 36);
	assert_int_equal(rx.lost, 16 + 1 + 7);
	assert_int_equal(rx.held, 2);
	satip_rx_expire(&rx, 30 * MS, deliver, &out);
	assert_int_equal(out.seq[out.n - 1], 60);
	assert_int_equal(rx.lost, 24 + 6 + 9);
	assert_int_equal(rx.late + rx.duplicates, 0);

	/* a payload too large to hold: the gap is given up at once */
	reset(10 * MS);
	push(7, 7, 0);
	push(9, 7, 1);
	satip_rx_push(&rx, 11, dgram(11, 9), SATIP_RX_HOLD_MAX + TS, 2, deliver,
		      &out);
	assert_int_equal(out.n, 3);
	assert_int_equal(out.seq[1], 9);
	assert_int_equal(out.seq[2], 11);
	assert_int_equal(rx.lost, 2);
	assert_int_equal(rx.ts_lost, 7 + 9);
	/* one that fits exactly is held */
	satip_rx_push(&rx, 13, dgram(13, 9), SATIP_RX_HOLD_MAX, 3, deliver, &out);
	assert_int_equal(rx.held, 1);
}

static void test_jump(void **state)
{
	(void)state;
	reset(10 * MS);
	push(1, 7, 0);
	push(2, 7, 0);
	push(4, 7, 0);		/* held across the jump */
	/* a jump the next datagram confirms: a new sequence */
	push(40000, 7, 1);
	assert_int_equal(out.n, 2);
	push(40001, 7, 2);
	assert_int_equal(rx.resyncs, 1);
	assert_int_equal(out.n, 5);
	assert_int_equal(out.seq[2], 4);
	assert_int_equal(out.seq[3], 40000);
	assert_int_equal(out.seq[4], 40001);
	assert_int_equal(rx.lost, 1);	/* 3, given up with the old sequence */
	assert_int_equal(rx.datagrams, 5);
	/* the old sequence's stragglers are jumps that nothing confirms */
	push(5, 7, 3);
	push(40002, 7, 4);
	assert_int_equal(rx.strays, 1);
	assert_int_equal(out.n, 6);
	assert_int_equal(rx.lost, 1);
	/* backwards, more than the limit */
	push((uint16_t)(40003 - SATIP_RX_MAX_JUMP - 1), 7, 5);
	push((uint16_t)(40003 - SATIP_RX_MAX_JUMP), 7, 6);
	assert_int_equal(rx.resyncs, 2);
	assert_int_equal(out.seq[out.n - 1], 40003 - SATIP_RX_MAX_JUMP);
	/* within the limit it is loss, not a jump */
	push((uint16_t)(40003 - SATIP_RX_MAX_JUMP + SATIP_RX_MAX_JUMP), 7, 7);
	satip_rx_expire(&rx, 20 * MS, deliver, &out);
	assert_int_equal(rx.lost, 1 + SATIP_RX_MAX_JUMP - 1);
	assert_int_equal(rx.resyncs, 2);
	/* just behind: late (given up), not a jump */
	push(40001, 7, 21 * MS);
	assert_int_equal(rx.late, 1);
}

static void test_restart(void **state)
{
	(void)state;
	reset(10 * MS);
	push(1, 7, 0);
	push(3, 7, 0);
	satip_rx_restart(&rx);
	assert_int_equal(satip_rx_deadline(&rx), 0);
	push(30000, 7, 1);
	push(30001, 7, 1);
	assert_int_equal(out.n, 3);
	assert_int_equal(out.seq[1], 30000);
	assert_int_equal(rx.resyncs + rx.lost + rx.strays, 0);
	assert_int_equal(rx.datagrams, 4);
	/* from before the first datagram: late */
	push(29999, 7, 2);
	assert_int_equal(rx.late, 1);
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* 60000 datagrams, wrapping; swaps up to 4 apart and 1 % loss. */
static void test_stream(void **state)
{
	static uint16_t order[60000];
	uint32_t s = 12345;
	unsigned int i, j, n = 60000, drops = 0;
	uint16_t tmp;

	(void)state;
	reset(5 * MS);
	for (i = 0; i < n; i++)
		order[i] = (uint16_t)(50000 + i);
	/* the first stays first: what comes before it would be late */
	for (i = 1; i + 4 < n; i += 5) {
		j = i + rnd(&s) % 4 + 1;
		if (rnd(&s) % 3 == 0) {
			tmp = order[i];
			order[i] = order[j];
			order[j] = tmp;
		}
	}
	for (i = 0; i < n; i++) {
		if (i && rnd(&s) % 100 == 0) {
			drops++;
			continue;
		}
		/* a datagram every 0.1 ms */
		push(order[i], 7, (uint64_t)i * 100000);
	}
	satip_rx_expire(&rx, UINT64_MAX, deliver, &out);
	/* in order, each once, nothing late */
	for (i = 1; i < out.n; i++)
		assert_true((int16_t)(out.seq[i] - out.seq[i - 1]) > 0);
	assert_int_equal(out.seq[0], 50000);
	assert_int_equal(out.n, n - drops);
	assert_int_equal(rx.datagrams, out.n);
	assert_int_equal(rx.late + rx.duplicates + rx.resyncs + rx.strays, 0);
	assert_true(rx.reordered > 1000);
	/* lost: what is missing up to the last one delivered */
	assert_int_equal(rx.lost + rx.datagrams,
			 (uint16_t)(out.seq[out.n - 1] - out.seq[0]) + 1);
	assert_true(rx.lost <= drops && rx.lost + 3 >= drops);
	assert_int_equal(rx.ts_lost, rx.lost * 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_swapped),
		cmocka_unit_test(test_loss),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_jump),
		cmocka_unit_test(test_restart),
		cmocka_unit_test(test_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
