// SPDX-License-Identifier: GPL-2.0
/*
 * tscc.c - MPEG-TS continuity checker, see tscc.h.
 */
#include <stdio.h>
#include <string.h>

#include "client/tscc.h"

#define TSCC_SEEN	0x10	/* a payload packet of the PID was seen */
#define TSCC_DUP	0x20	/* the last packet was a duplicate */
#define TSCC_CC		0x0f
#define TSCC_NULL_PID	0x1fff

void tscc_init(struct tscc *t)
{
	memset(t, 0, sizeof(*t));
	memset(t->want, 0xff, sizeof(t->want));	/* no set yet: all */
}

void tscc_set_pids(struct tscc *t, const uint16_t *pids, size_t n)
{
	uint8_t want[TSCC_NUM_PIDS / 8];
	unsigned pid;
	size_t i;

	memset(want, 0, sizeof(want));
	for (i = 0; i < n; i++) {
		if (pids[i] == TSCC_PID_ALL)
			memset(want, 0xff, sizeof(want));
		else if (pids[i] < TSCC_NUM_PIDS)
			want[pids[i] >> 3] |= 1u << (pids[i] & 7);
	}
	for (pid = 0; pid < TSCC_NUM_PIDS; pid++)
		if ((want[pid >> 3] ^ t->want[pid >> 3]) & (1u << (pid & 7)))
			t->last[pid] = 0;
	memcpy(t->want, want, sizeof(want));
}

void tscc_reset(struct tscc *t)
{
	memset(t->last, 0, sizeof(t->last));
}

static unsigned tscc_packet(struct tscc *t, const uint8_t *p)
{
	unsigned pid, cc, afc, last;

	if (p[0] != 0x47) {
		t->total.sync_errors++;
		t->interval.sync_errors++;
		return 1;
	}
	if (p[1] & 0x80) {
		t->total.tei++;
		t->interval.tei++;
		return 0;
	}
	pid = (p[1] & 0x1f) << 8 | p[2];
	afc = (p[3] >> 4) & 3;
	cc = p[3] & TSCC_CC;
	if (pid == TSCC_NULL_PID || !(afc & 1))
		return 0;	/* no payload: the CC does not advance */
	last = t->last[pid];
	/* discontinuity_indicator: the counter may restart anywhere */
	if ((afc & 2) && p[4] > 0 && (p[5] & 0x80))
		last = 0;
	t->last[pid] = TSCC_SEEN | cc;
	if (!(last & TSCC_SEEN) || cc == (((last & TSCC_CC) + 1) & TSCC_CC))
		return 0;
	if (cc == (last & TSCC_CC) && !(last & TSCC_DUP)) {
		t->last[pid] |= TSCC_DUP;	/* one duplicate is allowed */
		return 0;
	}
	t->err[pid]++;
	t->total.cc_errors++;
	t->interval.cc_errors++;
	return 1;
}

unsigned tscc_feed(struct tscc *t, const uint8_t *buf, size_t len)
{
	unsigned errors = 0;
	size_t n = len / TSCC_PACKET;

	t->total.packets += n;
	t->interval.packets += n;
	for (; n; n--, buf += TSCC_PACKET)
		errors += tscc_packet(t, buf);
	return errors;
}

uint32_t tscc_pid_errors(const struct tscc *t, unsigned pid)
{
	return pid < TSCC_NUM_PIDS ? t->err[pid] : 0;
}

unsigned tscc_format(const struct tscc *t, char *buf, size_t cap,
		     unsigned max_pids)
{
	uint32_t prev_max = UINT32_MAX;
	unsigned npids = 0, shown = 0, pid;
	size_t off = 0;
	int n;

	if (cap)
		buf[0] = 0;
	for (pid = 0; pid < TSCC_NUM_PIDS; pid++)
		npids += t->err[pid] != 0;
	/* highest counts first: one pass per distinct count, ties by PID */
	while (shown < npids && shown < max_pids) {
		uint32_t max = 0;

		for (pid = 0; pid < TSCC_NUM_PIDS; pid++)
			if (t->err[pid] < prev_max && t->err[pid] > max)
				max = t->err[pid];
		if (!max)
			break;
		for (pid = 0; pid < TSCC_NUM_PIDS && shown < max_pids; pid++) {
			if (t->err[pid] != max)
				continue;
			if (off >= cap)
				return npids;
			n = snprintf(buf + off, cap - off,
				     "%spid %u: %u", shown ? ", " : "", pid,
				     t->err[pid]);
			if (n > 0)
				off += n;
			shown++;
		}
		prev_max = max;
	}
	if (shown < npids && off < cap)
		snprintf(buf + off, cap - off, " (%u more)", npids - shown);
	return npids;
}

void tscc_clear_interval(struct tscc *t)
{
	memset(t->err, 0, sizeof(t->err));
	memset(&t->interval, 0, sizeof(t->interval));
}
