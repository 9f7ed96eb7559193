// SPDX-License-Identifier: GPL-2.0
/*
 * pidset.c - the PID set asked of the remote, see pidset.h.
 */
#include <string.h>

#include "client/pidset.h"

#define WANTED	UINT64_MAX

void vc_pidset_init(struct vc_pidset *s, uint64_t linger_ns)
{
	memset(s, 0, sizeof(*s));
	s->linger_ns = linger_ns;
}

/* The remote's set: every PID wanted or lingering. */
static void pidset_out(const struct vc_pidset *s, struct vtp_pids *out)
{
	unsigned int pid, n = 0;

	for (pid = 0; pid < VC_PIDSET_N; pid++)
		if (s->until[pid])
			n++;
	if (n > VTP_MAX_PIDS) {
		/* only with the whole TS: it holds the rest */
		out->num = 1;
		out->pid[0] = VTP_PID_FULL_TS;
		return;
	}
	n = 0;
	for (pid = 0; pid < VC_PIDSET_N; pid++)
		if (s->until[pid])
			out->pid[n++] = (uint16_t)pid;
	out->num = (uint16_t)n;
}

bool vc_pidset_want(struct vc_pidset *s, const struct vtp_pids *p,
		    uint64_t now, struct vtp_pids *out)
{
	uint8_t want[VC_PIDSET_N];
	bool changed = false;
	unsigned int pid, i;

	memset(want, 0, sizeof(want));
	for (i = 0; i < p->num && i < VTP_MAX_PIDS; i++)
		if (p->pid[i] < VC_PIDSET_N)
			want[p->pid[i]] = 1;
	for (pid = 0; pid < VC_PIDSET_N; pid++) {
		uint64_t u = s->until[pid];

		if (want[pid]) {
			if (!u)
				changed = true;
			else if (u != WANTED)
				s->nlinger--;
			s->until[pid] = WANTED;
		} else if (u == WANTED) {
			s->until[pid] = now + s->linger_ns;
			/* no time to linger: it leaves at once */
			if (!s->linger_ns) {
				s->until[pid] = 0;
				changed = true;
			} else {
				s->nlinger++;
				if (!s->next || s->until[pid] < s->next)
					s->next = s->until[pid];
			}
		}
	}
	if (!s->nlinger)
		s->next = 0;
	if (changed)
		pidset_out(s, out);
	return changed;
}

/* Lingering PIDs until at most before leave. */
static bool pidset_drop(struct vc_pidset *s, uint64_t before,
			struct vtp_pids *out)
{
	bool changed = false;
	unsigned int pid;

	if (!s->nlinger || s->next > before)
		return false;
	s->next = 0;
	for (pid = 0; pid < VC_PIDSET_N; pid++) {
		uint64_t u = s->until[pid];

		if (!u || u == WANTED)
			continue;
		if (u <= before) {
			s->until[pid] = 0;
			s->nlinger--;
			changed = true;
		} else if (!s->next || u < s->next) {
			s->next = u;
		}
	}
	if (changed)
		pidset_out(s, out);
	return changed;
}

bool vc_pidset_expire(struct vc_pidset *s, uint64_t now,
		      struct vtp_pids *out)
{
	return pidset_drop(s, now, out);
}

bool vc_pidset_tuned(struct vc_pidset *s, struct vtp_pids *out)
{
	return pidset_drop(s, WANTED - 1, out);
}

uint64_t vc_pidset_next(const struct vc_pidset *s)
{
	return s->nlinger ? s->next : 0;
}
