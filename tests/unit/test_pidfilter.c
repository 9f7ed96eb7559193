// SPDX-License-Identifier: GPL-2.0
/*
 * test_pidfilter.c - the PID filters of vtunerd's dvb backend
 * (src/server/pidfilter.c) on a mock demux: which filters start and stop,
 * in which order, what a refusal does, and the TS picked out in software.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "server/pidfilter.h"

/*
 * The mock demux: `slots` filters at most, PIDs it refuses outright, a
 * journal of what happened ("+256 -16 ..."), and a clock.
 */
struct mock {
	unsigned int slots, used;
	bool refuse[VTD_PIDF_NPIDS];
	int next_handle;
	uint16_t pid_of[4096];		/* handle -> PID */
	bool running[VTD_PIDF_NPIDS];
	char journal[4096];
};

static void note(struct mock *m, char sign, unsigned int pid)
{
	size_t n = strlen(m->journal);

	snprintf(m->journal + n, sizeof(m->journal) - n, "%s%c%u",
		 n ? " " : "", sign, pid);
}

static int mock_start(void *ctx, uint16_t pid)
{
	struct mock *m = ctx;
	int h;

	if (m->refuse[pid] || m->used >= m->slots) {
		note(m, '!', pid);
		return -16;	/* EBUSY, as dvb-core says it */
	}
	assert_false(m->running[pid]);
	h = m->next_handle++;
	m->pid_of[h] = pid;
	m->running[pid] = true;
	m->used++;
	note(m, '+', pid);
	return h;
}

static void mock_stop(void *ctx, int h)
{
	struct mock *m = ctx;
	uint16_t pid = m->pid_of[h];

	assert_true(m->running[pid]);
	m->running[pid] = false;
	m->used--;
	note(m, '-', pid);
}

static const struct vtd_pidf_ops mock_ops = {
	.start = mock_start,
	.stop = mock_stop,
};

static struct mock M;
static struct vtd_pidf F;
static char missing[128];

static int setup(void **state)
{
	(void)state;
	memset(&M, 0, sizeof(M));
	M.slots = 256;
	vtd_pidf_init(&F, &mock_ops, &M, "mock");
	return 0;
}

#define SET(...) ({ \
	static const uint16_t set_[] = { __VA_ARGS__ }; \
	M.journal[0] = 0; \
	vtd_pidf_set(&F, set_, sizeof(set_) / sizeof(set_[0]), missing, \
		     sizeof(missing)); })

static int set_none(void)
{
	M.journal[0] = 0;
	return vtd_pidf_set(&F, NULL, 0, missing, sizeof(missing));
}

/* A TS packet of pid with continuity counter cc and a payload byte. */
static void packet(uint8_t *p, unsigned int pid, unsigned int cc,
		   uint8_t fill)
{
	memset(p, fill, 188);
	p[0] = 0x47;
	p[1] = (uint8_t)(pid >> 8);
	p[2] = (uint8_t)pid;
	p[3] = (uint8_t)(0x10 | (cc & 15));
}

static unsigned int pid_at(const uint8_t *buf, size_t i)
{
	return ((buf[i * 188 + 1] & 0x1fu) << 8) | buf[i * 188 + 2];
}

static void test_one_filter_per_pid(void **state)
{
	(void)state;
	assert_int_equal(SET(0, 16, 273), 0);
	assert_string_equal(M.journal, "+0 +16 +273");
	assert_int_equal(F.nfilters, 3);
	assert_true(M.running[0] && M.running[16] && M.running[273]);
}

static void test_change_keeps_the_pids_that_stay(void **state)
{
	int h0, h273;

	(void)state;
	assert_int_equal(SET(0, 16, 273), 0);
	h0 = F.handle[0];
	h273 = F.handle[273];
	assert_int_equal(SET(0, 273, 300, 301), 0);
	/* 0 and 273 are neither stopped nor started again */
	assert_string_equal(M.journal, "-16 +300 +301");
	assert_int_equal(F.handle[0], h0);
	assert_int_equal(F.handle[273], h273);
	assert_int_equal(SET(0, 273, 300, 301), 0);
	assert_string_equal(M.journal, "");
}

static void test_removals_free_slots_first(void **state)
{
	(void)state;
	M.slots = 3;
	assert_int_equal(SET(1, 2, 3), 0);
	/* 3 goes before 4 starts: three slots are enough */
	assert_int_equal(SET(1, 2, 4), 0);
	assert_string_equal(M.journal, "-3 +4");
	assert_false(F.software);
}

static void test_full_ts_on_and_off_overlap(void **state)
{
	(void)state;
	assert_int_equal(SET(0, 17), 0);
	/* the whole TS starts before the PIDs it stands for stop */
	assert_int_equal(SET(0x2000), 0);
	assert_string_equal(M.journal, "+8192 -0 -17");
	assert_int_equal(F.nfilters, 1);

	assert_int_equal(SET(0, 18), 0);
	assert_string_equal(M.journal, "+0 +18 -8192");

	/* the whole TS with other PIDs: only the whole TS */
	assert_int_equal(SET(0, 18, 0x2000), 0);
	assert_string_equal(M.journal, "+8192 -0 -18");
	assert_int_equal(set_none(), 0);
	assert_string_equal(M.journal, "-8192");
	assert_int_equal(F.nfilters, 0);
}

static void test_refusal_falls_back_to_software(void **state)
{
	(void)state;
	M.slots = 2;
	assert_int_equal(SET(1, 2), 0);
	/* 3 is refused; so is the whole TS beside 1 and 2: all go first */
	assert_int_equal(SET(1, 2, 3), 0);
	assert_string_equal(M.journal, "!3 !8192 -1 -2 +8192");
	assert_true(F.software);
	assert_int_equal(F.nfilters, 1);
	assert_string_equal(missing, "");

	/* from now on the set only changes what is picked out */
	assert_int_equal(SET(2, 5), 0);
	assert_string_equal(M.journal, "");
	assert_int_equal(set_none(), 0);
	assert_string_equal(M.journal, "-8192");
	assert_int_equal(SET(7), 0);
	assert_string_equal(M.journal, "+8192");

	/* closing the tuner forgets the fallback */
	M.journal[0] = 0;
	vtd_pidf_reset(&F);
	assert_string_equal(M.journal, "-8192");
	assert_false(F.software);
	assert_int_equal(SET(1, 2), 0);
	assert_string_equal(M.journal, "+1 +2");
}

static void test_refusal_with_a_free_slot_overlaps(void **state)
{
	(void)state;
	M.refuse[3] = true;
	assert_int_equal(SET(1, 2, 3), 0);
	/* the whole TS found a slot: 1 and 2 ran until it did */
	assert_string_equal(M.journal, "+1 +2 !3 +8192 -1 -2");
	assert_true(F.software);
}

static void test_refusal_of_everything(void **state)
{
	(void)state;
	M.slots = 2;
	M.refuse[0x2000] = true;
	assert_int_equal(SET(1, 2), 0);
	assert_int_equal(SET(1, 2, 3), -16);
	assert_string_equal(missing, "PIDs 3");
	/* the PIDs that could be carried are carried again */
	assert_true(M.running[1] && M.running[2]);
	assert_false(F.software);

	/* the whole TS refused: what ran runs on */
	assert_int_equal(SET(0x2000), -16);
	assert_string_equal(missing, "the whole TS");
	assert_true(M.running[1] && M.running[2]);
}

static void test_missing_list_is_bounded(void **state)
{
	uint16_t many[600];
	char small[40];
	unsigned int i;

	(void)state;
	M.slots = 0;
	M.refuse[0x2000] = true;
	for (i = 0; i < 600; i++)
		many[i] = (uint16_t)(1000 + i);
	assert_int_equal(vtd_pidf_set(&F, many, 600, small, sizeof(small)),
			 -16);
	assert_true(strlen(small) < sizeof(small));
	assert_string_equal(small, "PIDs 1000 1001 1002 1003 1004 ...");
}

static void test_software_picks_the_wanted_pids(void **state)
{
	uint8_t buf[188 * 6];
	size_t n;

	(void)state;
	M.refuse[273] = true;
	assert_int_equal(SET(0, 273), 0);
	assert_string_equal(M.journal, "+0 !273 +8192 -0");
	assert_true(F.software);

	packet(buf + 0 * 188, 0, 0, 1);
	packet(buf + 1 * 188, 17, 0, 2);
	packet(buf + 2 * 188, 273, 0, 3);
	packet(buf + 3 * 188, 0x1fff, 0, 0xff);
	packet(buf + 4 * 188, 273, 1, 4);
	packet(buf + 5 * 188, 18, 0, 5);
	n = vtd_pidf_filter(&F, buf, sizeof(buf));
	assert_int_equal(n, 3 * 188);
	assert_int_equal(pid_at(buf, 0), 0);
	assert_int_equal(pid_at(buf, 1), 273);
	assert_int_equal(pid_at(buf, 2), 273);
	assert_int_equal(buf[2 * 188 + 3] & 15, 1);
	assert_int_equal(buf[2 * 188 + 4], 4);

	/* the whole TS wanted: everything passes */
	assert_int_equal(SET(0x2000), 0);
	packet(buf + 0 * 188, 17, 0, 2);
	packet(buf + 1 * 188, 0x1fff, 0, 0xff);
	assert_int_equal(vtd_pidf_filter(&F, buf, 2 * 188), 2 * 188);
}

static void test_hardware_filters_pass_untouched(void **state)
{
	uint8_t buf[188 * 2];

	(void)state;
	assert_int_equal(SET(0, 273), 0);
	packet(buf, 17, 0, 2);		/* never filtered: the demux did */
	packet(buf + 188, 17, 0, 2);
	assert_int_equal(vtd_pidf_filter(&F, buf, sizeof(buf)), sizeof(buf));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_one_filter_per_pid, setup),
		cmocka_unit_test_setup(test_change_keeps_the_pids_that_stay, setup),
		cmocka_unit_test_setup(test_removals_free_slots_first, setup),
		cmocka_unit_test_setup(test_full_ts_on_and_off_overlap, setup),
		cmocka_unit_test_setup(test_refusal_falls_back_to_software, setup),
		cmocka_unit_test_setup(test_refusal_with_a_free_slot_overlaps, setup),
		cmocka_unit_test_setup(test_refusal_of_everything, setup),
		cmocka_unit_test_setup(test_missing_list_is_bounded, setup),
		cmocka_unit_test_setup(test_software_picks_the_wanted_pids, setup),
		cmocka_unit_test_setup(test_hardware_filters_pass_untouched, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
