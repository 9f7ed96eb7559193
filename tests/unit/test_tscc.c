// SPDX-License-Identifier: GPL-2.0
/*
 * test_tscc.c - cmocka tests of vtunerc's TS continuity checker, src/client/tscc.c
 * (make check-client)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "client/tscc.h"

static struct tscc tc;

/* One packet: payload only unless af, which adds an adaptation field. */
static void pkt(uint8_t *p, unsigned pid, unsigned cc, int payload, int disc)
{
	memset(p, 0xff, TSCC_PACKET);
	p[0] = 0x47;
	p[1] = (pid >> 8) & 0x1f;
	p[2] = pid & 0xff;
	p[3] = (payload ? 0x10 : 0) | (disc ? 0x20 : 0) | (cc & 15);
	if (disc) {
		p[4] = 1;
		p[5] = 0x80;
	}
}

static unsigned feed1(unsigned pid, unsigned cc)
{
	uint8_t p[TSCC_PACKET];

	pkt(p, pid, cc, 1, 0);
	return tscc_feed(&tc, p, sizeof(p));
}

static int setup(void **state)
{
	(void)state;
	tscc_init(&tc);
	return 0;
}

static void test_continuous(void **state)
{
	uint8_t buf[40 * TSCC_PACKET];
	unsigned i;

	(void)state;
	for (i = 0; i < 40; i++)	/* wraps 15 -> 0 twice */
		pkt(buf + i * TSCC_PACKET, 256, i + 7, 1, 0);
	assert_int_equal(tscc_feed(&tc, buf, sizeof(buf)), 0);
	assert_int_equal(tc.total.packets, 40);
	assert_int_equal(tc.total.cc_errors, 0);
}

static void test_gap(void **state)
{
	(void)state;
	assert_int_equal(feed1(100, 1), 0);
	assert_int_equal(feed1(100, 2), 0);
	assert_int_equal(feed1(100, 5), 1);	/* two lost */
	assert_int_equal(feed1(100, 6), 0);
	assert_int_equal(tscc_pid_errors(&tc, 100), 1);
	assert_int_equal(tc.interval.cc_errors, 1);
}

static void test_duplicate(void **state)
{
	(void)state;
	assert_int_equal(feed1(17, 3), 0);
	assert_int_equal(feed1(17, 3), 0);	/* one duplicate is allowed */
	assert_int_equal(feed1(17, 3), 1);	/* a third is not */
	assert_int_equal(feed1(17, 4), 0);
	assert_int_equal(feed1(17, 4), 0);	/* duplicate allowed again */
	assert_int_equal(tscc_pid_errors(&tc, 17), 1);
}

static void test_out_of_order(void **state)
{
	(void)state;
	feed1(18, 5);
	assert_int_equal(feed1(18, 4), 1);
}

static void test_discontinuity_and_no_payload(void **state)
{
	uint8_t p[TSCC_PACKET];

	(void)state;
	feed1(300, 1);
	pkt(p, 300, 9, 1, 1);		/* discontinuity_indicator */
	assert_int_equal(tscc_feed(&tc, p, sizeof(p)), 0);
	pkt(p, 300, 3, 0, 0);		/* adaptation field only */
	assert_int_equal(tscc_feed(&tc, p, sizeof(p)), 0);
	assert_int_equal(feed1(300, 10), 0);
	assert_int_equal(feed1(0x1fff, 0), 0);	/* null packets: ignored */
	assert_int_equal(feed1(0x1fff, 7), 0);
	assert_int_equal(tc.total.cc_errors, 0);
}

static void test_sync_and_tei(void **state)
{
	uint8_t buf[3 * TSCC_PACKET];

	(void)state;
	pkt(buf, 50, 0, 1, 0);
	pkt(buf + TSCC_PACKET, 50, 1, 1, 0);
	pkt(buf + 2 * TSCC_PACKET, 50, 9, 1, 0);
	buf[TSCC_PACKET] = 0x46;		/* lost sync */
	buf[2 * TSCC_PACKET + 1] |= 0x80;	/* TEI: header untrusted */
	assert_int_equal(tscc_feed(&tc, buf, sizeof(buf)), 1);
	assert_int_equal(tc.total.sync_errors, 1);
	assert_int_equal(tc.total.tei, 1);
	assert_int_equal(tc.total.cc_errors, 0);
	/* a trailing partial packet is not looked at */
	assert_int_equal(tscc_feed(&tc, buf, TSCC_PACKET + 10), 0);
	assert_int_equal(tc.total.packets, 4);
}

static void test_reset(void **state)
{
	(void)state;
	feed1(400, 2);
	tscc_reset(&tc);
	assert_int_equal(feed1(400, 11), 0);	/* new tune: no history */
	assert_int_equal(feed1(400, 13), 1);
}

static void test_pid_set_change(void **state)
{
	const uint16_t with[] = { 0, 100 }, without[] = { 0 };
	const uint16_t all[] = { TSCC_PID_ALL };

	(void)state;
	tscc_set_pids(&tc, with, 2);
	assert_int_equal(feed1(100, 3), 0);
	assert_int_equal(feed1(0, 7), 0);
	/* PID 100 leaves the set and comes back: its jump is no error */
	tscc_set_pids(&tc, without, 1);
	tscc_set_pids(&tc, with, 2);
	assert_int_equal(feed1(100, 12), 0);
	assert_int_equal(feed1(100, 13), 0);
	/* PID 0 stayed in the set: its gap is one */
	assert_int_equal(feed1(0, 9), 1);
	/* to every PID and back: 100 stays in, keeps its history */
	tscc_set_pids(&tc, all, 1);
	assert_int_equal(feed1(100, 15), 1);
	assert_int_equal(feed1(200, 4), 0);
	tscc_set_pids(&tc, with, 2);
	tscc_set_pids(&tc, all, 1);
	assert_int_equal(feed1(200, 9), 0);
	assert_int_equal(tc.total.cc_errors, 2);
}

static void test_pids_independent(void **state)
{
	(void)state;
	feed1(1, 0);
	feed1(2, 8);
	assert_int_equal(feed1(1, 1), 0);
	assert_int_equal(feed1(2, 9), 0);
	assert_int_equal(feed1(1, 3), 1);
	assert_int_equal(tscc_pid_errors(&tc, 2), 0);
}

static void test_format_and_clear(void **state)
{
	char buf[128];
	unsigned i;

	(void)state;
	assert_int_equal(tscc_format(&tc, buf, sizeof(buf), 4), 0);
	assert_string_equal(buf, "");
	feed1(300, 0);
	feed1(300, 5);
	feed1(300, 9);		/* 2 errors on 300 */
	feed1(256, 0);
	feed1(256, 2);		/* 1 on 256 */
	for (i = 0; i < 3; i++) {	/* 1 on 10, 11, 12 */
		feed1(10 + i, 0);
		feed1(10 + i, 4);
	}
	assert_int_equal(tscc_format(&tc, buf, sizeof(buf), 3), 5);
	assert_string_equal(buf, "pid 300: 2, pid 10: 1, pid 11: 1 (2 more)");
	assert_int_equal(tscc_format(&tc, buf, 12, 3), 5);	/* truncated */
	assert_int_equal(strlen(buf), 11);
	tscc_clear_interval(&tc);
	assert_int_equal(tscc_pid_errors(&tc, 300), 0);
	assert_int_equal(tc.interval.cc_errors, 0);
	assert_int_equal(tc.total.cc_errors, 6);
	assert_int_equal(feed1(300, 10), 0);	/* history kept */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_continuous, setup),
		cmocka_unit_test_setup(test_gap, setup),
		cmocka_unit_test_setup(test_duplicate, setup),
		cmocka_unit_test_setup(test_out_of_order, setup),
		cmocka_unit_test_setup(test_discontinuity_and_no_payload, setup),
		cmocka_unit_test_setup(test_sync_and_tei, setup),
		cmocka_unit_test_setup(test_reset, setup),
		cmocka_unit_test_setup(test_pid_set_change, setup),
		cmocka_unit_test_setup(test_pids_independent, setup),
		cmocka_unit_test_setup(test_format_and_clear, setup),
	};
	int total = (int)(sizeof(tests) / sizeof(tests[0]));
	int failed = cmocka_run_group_tests_name("tscc", tests, NULL, NULL);

	printf("%d passed, %d failed\n", total - failed, failed);
	return failed ? 1 : 0;
}
