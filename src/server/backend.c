// SPDX-License-Identifier: GPL-2.0
/*
 * backend.c - the tuner table and helpers shared by the backends.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <linux/dvb/frontend.h>

#include "server/backend.h"

int vtd_tuners_add(struct vtd_tuners *ts, struct vtd_tuner *t)
{
	if (ts->num >= VTD_MAX_TUNERS)
		return -ENOSPC;
	t->info.index = ts->num;
	ts->t[ts->num++] = t;
	return 0;
}

void vtd_tuners_free(struct vtd_tuners *ts)
{
	unsigned int i;

	for (i = 0; i < ts->num; i++) {
		struct vtd_tuner *t = ts->t[i];

		if (t->owner)
			t->ops->close(t);
		t->owner = NULL;
		if (t->ops->destroy)
			t->ops->destroy(t);
		ts->t[i] = NULL;
	}
	ts->num = 0;
}

const char *vtd_delsys_name(unsigned int d)
{
	static const char *const names[] = {
		[SYS_UNDEFINED] = "UNDEFINED",
		[SYS_DVBC_ANNEX_A] = "DVBC/ANNEX_A",
		[SYS_DVBC_ANNEX_B] = "DVBC/ANNEX_B",
		[SYS_DVBT] = "DVBT",
		[SYS_DSS] = "DSS",
		[SYS_DVBS] = "DVBS",
		[SYS_DVBS2] = "DVBS2",
		[SYS_DVBH] = "DVBH",
		[SYS_ISDBT] = "ISDBT",
		[SYS_ISDBS] = "ISDBS",
		[SYS_ISDBC] = "ISDBC",
		[SYS_ATSC] = "ATSC",
		[SYS_ATSCMH] = "ATSCMH",
		[SYS_DTMB] = "DTMB",
		[SYS_CMMB] = "CMMB",
		[SYS_DAB] = "DAB",
		[SYS_DVBT2] = "DVBT2",
		[SYS_TURBO] = "TURBO",
		[SYS_DVBC_ANNEX_C] = "DVBC/ANNEX_C",
	};

	if (d < sizeof(names) / sizeof(names[0]) && names[d])
		return names[d];
	return "?";
}

bool vtd_delsys_is_sat(unsigned int d)
{
	return d == SYS_DVBS || d == SYS_DVBS2 || d == SYS_TURBO ||
	       d == SYS_DSS || d == SYS_ISDBS;
}

uint64_t vtd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
