// SPDX-License-Identifier: GPL-2.0
/*
 * test_pidset.c - cmocka tests of the PID set vtunerc asks its remote
 * for, src/client/pidset.c (make check-client)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "client/pidset.h"

#define MS	1000000ULL
#define LINGER	(VC_PIDSET_LINGER_MS * MS)

static struct vc_pidset *ps;
static struct vtp_pids *in, *out;

static int setup(void **state)
{
	(void)state;
	ps = malloc(sizeof(*ps));
	in = calloc(1, sizeof(*in));
	out = calloc(1, sizeof(*out));
	if (!ps || !in || !out)
		return -1;
	vc_pidset_init(ps, LINGER);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(ps);
	free(in);
	free(out);
	return 0;
}

/* The applications want the n PIDs of the list (-1 ends it). */
static bool want(uint64_t now, const int *pids)
{
	in->num = 0;
	while (*pids >= 0)
		in->pid[in->num++] = (uint16_t)*pids++;
	return vc_pidset_want(ps, in, now, out);
}

/* out is exactly the list. */
static void is(const int *pids)
{
	unsigned int n = 0;

	while (pids[n] >= 0) {
		assert_true(n < out->num);
		assert_int_equal(out->pid[n], pids[n]);
		n++;
	}
	assert_int_equal(out->num, n);
}

#define L(...)	((const int[]){ __VA_ARGS__, -1 })
#define NONE	((const int[]){ -1 })

static void test_join_sorted_unique(void **state)
{
	(void)state;
	assert_true(want(0, L(273, 0, 257, 0, 8192)));
	is(L(0, 257, 273, 8192));
	assert_int_equal(vc_pidset_next(ps), 0);
	/* the same set again, in another order: no change */
	assert_false(want(10, L(257, 273, 8192, 0)));
}

/* czap: the PAT through a section filter, closed, then PID 0 to dvr0 */
static void test_leave_and_rejoin_is_no_change(void **state)
{
	(void)state;
	assert_true(want(1000, L(0)));
	is(L(0));
	assert_false(want(2000, NONE));
	assert_int_equal(vc_pidset_next(ps), 2000 + LINGER);
	assert_false(want(3000, L(0)));
	assert_int_equal(vc_pidset_next(ps), 0);
	/* its time passes: wanted, it stays */
	assert_false(vc_pidset_expire(ps, 2000 + LINGER, out));
	is(L(0));
}

static void test_leave_after_linger(void **state)
{
	(void)state;
	assert_true(want(0, L(16, 17, 18)));
	assert_false(want(100, L(16, 18)));
	assert_false(want(200, L(16)));
	assert_int_equal(vc_pidset_next(ps), 100 + LINGER);
	assert_false(vc_pidset_expire(ps, 99 + LINGER, out));
	assert_true(vc_pidset_expire(ps, 100 + LINGER, out));
	is(L(16, 18));
	assert_int_equal(vc_pidset_next(ps), 200 + LINGER);
	/* late: both at once would have been as good */
	assert_true(vc_pidset_expire(ps, 5000 + LINGER, out));
	is(L(16));
	assert_int_equal(vc_pidset_next(ps), 0);
	assert_false(vc_pidset_expire(ps, 10000 + LINGER, out));
}

static void test_join_while_others_linger(void **state)
{
	(void)state;
	assert_true(want(0, L(100)));
	assert_false(want(10, NONE));
	/* a new PID is sent at once, the lingering one with it */
	assert_true(want(20, L(200)));
	is(L(100, 200));
	assert_true(vc_pidset_expire(ps, 10 + LINGER, out));
	is(L(200));
}

static void test_tune_ends_lingering(void **state)
{
	(void)state;
	assert_true(want(0, L(0, 16, 8192)));
	assert_false(want(10, L(16)));
	assert_true(vc_pidset_tuned(ps, out));
	is(L(16));
	assert_int_equal(vc_pidset_next(ps), 0);
	/* nothing lingering: a tune changes nothing */
	assert_false(vc_pidset_tuned(ps, out));
}

static void test_no_linger(void **state)
{
	(void)state;
	vc_pidset_init(ps, 0);
	assert_true(want(0, L(5, 6)));
	assert_true(want(1, L(6)));
	is(L(6));
	assert_int_equal(vc_pidset_next(ps), 0);
}

/* Out of range entries are ignored, never written out of bounds. */
static void test_bad_pids(void **state)
{
	(void)state;
	assert_true(want(0, L(8193, 0xffff, 7)));
	is(L(7));
}

/* Every PID and the whole TS: more than a SET_PIDS holds. */
static void test_everything(void **state)
{
	unsigned int pid;

	(void)state;
	in->num = VTP_MAX_PIDS;
	for (pid = 0; pid < VTP_MAX_PIDS; pid++)
		in->pid[pid] = (uint16_t)pid;
	assert_true(vc_pidset_want(ps, in, 0, out));
	assert_int_equal(out->num, VTP_MAX_PIDS);
	in->num = 1;
	in->pid[0] = VTP_PID_FULL_TS;
	assert_true(vc_pidset_want(ps, in, 1, out));
	is(L(VTP_PID_FULL_TS));
	assert_true(vc_pidset_expire(ps, 1 + LINGER, out));
	is(L(VTP_PID_FULL_TS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_join_sorted_unique, setup, teardown),
		cmocka_unit_test_setup_teardown(test_leave_and_rejoin_is_no_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_leave_after_linger, setup, teardown),
		cmocka_unit_test_setup_teardown(test_join_while_others_linger, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tune_ends_lingering, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_linger, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_pids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_everything, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
