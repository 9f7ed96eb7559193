// SPDX-License-Identifier: GPL-2.0
/*
 * backend.c - the tuner table and helpers shared by the backends.
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/dvb/frontend.h>

#include "common/text.h"
#include "server/backend.h"

int vtd_tuners_add(struct vtd_tuners *ts, struct vtd_tuner *t)
{
	if (ts->num >= VTD_MAX_TUNERS)
		return -ENOSPC;
	/* a driver's name goes to the clients: no control characters */
	vt_text_clean(t->info.name);
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

