// SPDX-License-Identifier: GPL-2.0
/*
 * share.c - a tuner's TS shared by the streams tuned to it (share.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dvb/frontend.h>

#include "common/clock.h"
#include "common/dvb.h"
#include "common/log.h"
#include "server/server.h"
#include "server/share.h"

#define PID_BIT(st, pid)	((st)->pid[(pid) >> 3] & (1u << ((pid) & 7)))

void vtd_tuning_of(struct vtd_tuning *k, const struct vtd_tuner *t,
		   const struct vtp_prop *props, unsigned int num)
{
	unsigned int i;

	*k = t->sec;
	k->valid = true;
	k->freq = k->sr = k->stream_id = 0;
	k->delsys = t->info.num_delsys ? t->info.delsys[0] : 0;
	for (i = 0; i < num; i++) {
		switch (props[i].cmd) {
		case DTV_DELIVERY_SYSTEM:
			k->delsys = props[i].data;
			break;
		case DTV_FREQUENCY:
			k->freq = props[i].data;
			break;
		case DTV_SYMBOL_RATE:
			k->sr = props[i].data;
			break;
		case DTV_STREAM_ID:
			k->stream_id = props[i].data;
			break;
		}
	}
}

static uint32_t vtd_absdiff(uint32_t a, uint32_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * The same system, frequency (within 1 MHz: clients round the IF or
 * the centre differently), symbol rate and stream; for satellite the same
 * band, polarisation and switch position.
 */
bool vtd_tuning_same(const struct vtd_tuning *a, const struct vtd_tuning *b)
{
	bool sat = vt_delsys_is_sat(a->delsys);
	bool s2 = (a->delsys == SYS_DVBS || a->delsys == SYS_DVBS2) &&
		  (b->delsys == SYS_DVBS || b->delsys == SYS_DVBS2);

	if (!a->valid || !b->valid || (a->delsys != b->delsys && !s2))
		return false;
	if (vtd_absdiff(a->freq, b->freq) > (sat ? 1000u : 1000000u) ||
	    (a->sr && b->sr && vtd_absdiff(a->sr, b->sr) > 1000u) ||
	    a->stream_id != b->stream_id)
		return false;
	if (!sat)
		return true;
	return a->voltage == b->voltage && a->tone == b->tone &&
	       a->diseqc_len == b->diseqc_len &&
	       !memcmp(a->diseqc, b->diseqc, a->diseqc_len);
}

void vtd_share_tuned(struct vtd_tuner *t, const struct vtp_prop *props,
		     unsigned int num, int r)
{
	t->tune_gen++;
	if (r < 0) {
		t->tuning.valid = false;
		return;
	}
	vtd_tuning_of(&t->tuning, t, props, num);
}

int vtd_share_sec_voltage(struct vtd_tuner *t, uint32_t v)
{
	int r = t->ops->set_voltage(t, v);

	if (!r)
		t->sec.voltage = v;
	return r;
}

int vtd_share_sec_tone(struct vtd_tuner *t, uint32_t tone)
{
	int r = t->ops->set_tone(t, tone);

	if (!r)
		t->sec.tone = tone;
	return r;
}

int vtd_share_sec_diseqc(struct vtd_tuner *t, const uint8_t *msg, size_t len)
{
	int r = t->ops->diseqc_master(t, msg, len);

	if (!r && len <= sizeof(t->sec.diseqc)) {
		memcpy(t->sec.diseqc, msg, len);
		t->sec.diseqc_len = (uint8_t)len;
	}
	return r;
}

bool vtd_share_busy(const struct vtd_tuner *t)
{
	return t->owner || t->nstreams;
}

/* The union of the streams' PIDs to the tuner's filters. */
static int vtd_share_apply(struct vtd_tuner *t, char *missing,
			   size_t missing_len)
{
	uint16_t *set;
	size_t n = 0;
	unsigned int pid;
	int err;

	if (t->pidref[VTP_PID_FULL_TS])
		return t->ops->set_pids(t, (const uint16_t[]){ VTP_PID_FULL_TS },
					1, missing, missing_len);
	set = malloc(VTP_PID_FULL_TS * sizeof(*set));
	if (!set)
		return -ENOMEM;
	for (pid = 0; pid < VTP_PID_FULL_TS; pid++)
		if (t->pidref[pid])
			set[n++] = (uint16_t)pid;
	err = t->ops->set_pids(t, set, n, missing, missing_len);
	free(set);
	return err;
}

/* EV_FD of share_ev: the shared tuner has TS. */
static void vtd_share_event(struct vtd_server *srv, struct vtd_ev *ev)
{
	vtd_share_ts(srv, (struct vtd_tuner *)
		     ((char *)ev - offsetof(struct vtd_tuner, share_ev)));
}

static int vtd_share_first(struct vtd_server *srv, struct vtd_stream *st,
			   struct vtd_tuner *t, bool open)
{
	int err, fd;

	memset(st->pid, 0, sizeof(st->pid));
	st->all = false;
	st->npids = 0;
	if (!t->nstreams) {
		t->pidref = calloc(VTP_PID_FULL_TS + 1, sizeof(*t->pidref));
		if (!t->pidref)
			return -ENOMEM;
		err = open ? t->ops->open(t) : 0;
		if (err) {
			free(t->pidref);
			t->pidref = NULL;
			return err;
		}
		if (open) {
			memset(&t->sec, 0, sizeof(t->sec));
			t->tuning.valid = false;
		}
		t->share_ev.kind = EV_FD;
		t->share_ev.fn = vtd_share_event;
		t->share_ev.fd = -1;
		t->status_ns = 0;
		t->share_packets = 0;
		memset(&t->status, 0, sizeof(t->status));
		fd = t->ops->get_fd(t);
		if (fd >= 0 &&
		    (err = vtd_server_watch(srv, &t->share_ev, fd, true)) < 0) {
			if (open)
				t->ops->close(t);
			free(t->pidref);
			t->pidref = NULL;
			return err;
		}
		vt_notice("tuner %u (%s) %s for streams", t->info.index,
			  t->where, open ? "opened" : "shared");
	}
	st->tuner = t;
	st->next = t->streams;
	t->streams = st;
	t->nstreams++;
	return 0;
}

int vtd_share_join(struct vtd_server *srv, struct vtd_stream *st,
		   struct vtd_tuner *t)
{
	if (t->owner)
		return -EBUSY;
	return vtd_share_first(srv, st, t, true);
}

int vtd_share_adopt(struct vtd_server *srv, struct vtd_stream *st,
		    struct vtd_tuner *t)
{
	if (t->nstreams)
		return -EBUSY;
	return vtd_share_first(srv, st, t, false);
}

/* Drop st's PIDs from the counts (the filters are the caller's job). */
static void vtd_share_unref(struct vtd_stream *st)
{
	struct vtd_tuner *t = st->tuner;
	unsigned int pid;

	if (st->all)
		t->pidref[VTP_PID_FULL_TS]--;
	for (pid = 0; pid < VTP_PID_FULL_TS; pid++)
		if (PID_BIT(st, pid))
			t->pidref[pid]--;
	memset(st->pid, 0, sizeof(st->pid));
	st->all = false;
	st->npids = 0;
}

void vtd_share_leave(struct vtd_server *srv, struct vtd_stream *st)
{
	struct vtd_tuner *t = st->tuner;
	struct vtd_stream **pp;
	char missing[64];

	if (!t)
		return;
	vtd_share_unref(st);
	for (pp = &t->streams; *pp; pp = &(*pp)->next) {
		if (*pp == st) {
			*pp = st->next;
			t->nstreams--;
			break;
		}
	}
	st->tuner = NULL;
	st->next = NULL;
	if (t->nstreams) {
		vtd_share_apply(t, missing, sizeof(missing));
		return;
	}
	if (t->share_ev.fd >= 0)
		vtd_server_watch(srv, &t->share_ev, t->share_ev.fd, false);
	t->share_ev.fd = -1;
	t->ops->close(t);
	free(t->pidref);
	t->pidref = NULL;
	vt_notice("tuner %u (%s) released by its last stream (%llu TS "
		  "packets)", t->info.index, t->where,
		  (unsigned long long)t->share_packets);
}

int vtd_share_set_pids(struct vtd_stream *st, const uint16_t *pids,
		       size_t n, bool all, char *missing, size_t missing_len)
{
	struct vtd_tuner *t = st->tuner;
	size_t i;

	if (!t)
		return -ENODEV;
	vtd_share_unref(st);
	if (all) {
		st->all = true;
		t->pidref[VTP_PID_FULL_TS]++;
	}
	for (i = 0; i < n; i++) {
		uint16_t pid = pids[i];

		if (pid >= VTP_PID_FULL_TS || PID_BIT(st, pid))
			continue;
		st->pid[pid >> 3] |= (uint8_t)(1u << (pid & 7));
		st->npids++;
		t->pidref[pid]++;
	}
	return vtd_share_apply(t, missing, missing_len);
}

_Static_assert(VTD_SHARE_READ_PKTS * VTP_TS_PACKET <= VTP_MAX_SEALED_FRAME,
	       "srv->tsbuf holds a read");

void vtd_share_ts(struct vtd_server *srv, struct vtd_tuner *t)
{
	static const uint8_t *pkt[VTD_SHARE_READ_PKTS];
	struct vtd_stream *st, *next;
	size_t n, i, k;
	ssize_t r;
	int round;

	for (round = 0; round < 4 && t->nstreams; round++) {
		r = t->ops->read_ts(t, srv->tsbuf,
				    VTD_SHARE_READ_PKTS * VTP_TS_PACKET);
		if (r == -EAGAIN || r == 0)
			return;
		if (r < 0) {
			vt_warn("tuner %u (%s): reading TS: %s; TS stopped",
				t->info.index, t->where, strerror((int)-r));
			vtd_server_watch(srv, &t->share_ev, t->share_ev.fd,
					 false);
			t->share_ev.fd = -1;
			return;
		}
		n = (size_t)r / VTP_TS_PACKET;
		t->share_packets += n;
		/* less than asked for: the source is empty now, no more reads */
		if (n < VTD_SHARE_READ_PKTS)
			round = 4;
		/* a stream may leave (and free itself) in its ts() */
		for (st = t->streams; st; st = next) {
			next = st->next;
			for (i = k = 0; i < n; i++) {
				const uint8_t *p = srv->tsbuf + i * VTP_TS_PACKET;
				unsigned int pid = ((p[1] & 0x1fu) << 8) | p[2];

				if (st->all || PID_BIT(st, pid))
					pkt[k++] = p;
			}
			if (k)
				st->ops->ts(st, pkt, k);
		}
	}
}

void vtd_share_poll(struct vtd_server *srv, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < srv->tuners->num; i++) {
		struct vtd_tuner *t = srv->tuners->t[i];

		if (!t->nstreams ||
		    now - t->status_ns < (VTD_SHARE_POLL_MS - 5) * 1000000ull)
			continue;
		if (t->ops->read_status(t, &t->status, true) < 0)
			memset(&t->status, 0, sizeof(t->status));
		t->status_ns = now;
	}
}
