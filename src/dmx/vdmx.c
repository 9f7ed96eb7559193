// SPDX-License-Identifier: GPL-2.0
/*
 * vdmx.c - a DVB demux in user space: the filters of demux0 and their
 * requests, the buffers and reads of demux0 and dvr0, the PID set (see
 * vdmx.h).  dvb-core's dmxdev.c and dvb_demux.c semantics, reimplemented;
 * the state of a filter and the checks of its requests follow
 * vtunerc.ko's guard of dvb-core's (kernel/vtunerc_demux.c): an argument
 * out of range is refused before the filter changes, and a start either
 * starts every feed or none.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ioctl.h>

#include "dmx/vdmx_int.h"

/* ---- ring buffers -------------------------------------------------------- */

static size_t ring_avail(const struct vdmx_ring *r)
{
	return r->wr >= r->rd ? r->wr - r->rd : r->size - r->rd + r->wr;
}

/* dvb_ringbuffer_flush(): what was written is dropped, and the error. */
static void ring_flush(struct vdmx_ring *r)
{
	r->rd = r->wr;
	r->error = 0;
}

/* A new buffer of size bytes (not allocated): 0 or -ENOMEM. */
static int ring_alloc(struct vdmx_ring *r, size_t size)
{
	uint8_t *data = malloc(size);

	if (!data)
		return -ENOMEM;
	free(r->data);
	r->data = data;
	r->size = size;
	r->rd = 0;
	r->wr = 0;
	r->error = 0;
	return 0;
}

static void ring_free(struct vdmx_ring *r)
{
	free(r->data);
	r->data = NULL;
	r->rd = 0;
	r->wr = 0;
	r->error = 0;
}

int vdmx_ring_put(struct vdmx *d, struct vdmx_ring *r, const uint8_t *p,
		  size_t len)
{
	size_t n;

	/* one byte stays free: rd == wr is empty */
	if (len > r->size - 1 - ring_avail(r)) {
		r->error = -EOVERFLOW;
		d->st.overflows++;
		return -EOVERFLOW;
	}
	n = r->size - r->wr;
	if (n > len)
		n = len;
	memcpy(r->data + r->wr, p, n);
	memcpy(r->data, p + n, len - n);
	r->wr = (r->wr + len) % r->size;
	return 0;
}

/*
 * dvb_dmxdev_buffer_read() without waiting: the error (once, the buffer
 * flushed), 0 for len 0, -EAGAIN when empty, else up to len bytes.
 */
static ssize_t ring_read(struct vdmx_ring *r, uint8_t *out, size_t len)
{
	size_t avail, n;
	int err;

	if (r->error) {
		err = r->error;
		ring_flush(r);
		return err;
	}
	if (!len)
		return 0;
	avail = ring_avail(r);
	if (!avail)
		return -EAGAIN;
	if (len > avail)
		len = avail;
	n = r->size - r->rd;
	if (n > len)
		n = len;
	memcpy(out, r->data + r->rd, n);
	memcpy(out + n, r->data, len - n);
	r->rd = (r->rd + len) % r->size;
	return (ssize_t)len;
}

static unsigned int ring_poll(const struct vdmx_ring *r)
{
	unsigned int mask = 0;

	if (r->error)
		mask |= POLLIN | POLLRDNORM | POLLPRI | POLLERR;
	if (r->rd != r->wr)
		mask |= POLLIN | POLLRDNORM | POLLPRI;
	return mask;
}

/* ---- the demux ----------------------------------------------------------- */

struct vdmx *vdmx_new(const struct vdmx_config *cfg)
{
	struct vdmx *d = calloc(1, sizeof(*d));
	unsigned int i;

	if (!d)
		return NULL;
	if (cfg)
		d->cfg = *cfg;
	if (!d->cfg.max_filters)
		d->cfg.max_filters = VDMX_MAX_FILTERS;
	if (!d->cfg.max_feeds)
		d->cfg.max_feeds = VDMX_MAX_FEEDS;
	if (!d->cfg.max_buffer)
		d->cfg.max_buffer = VDMX_BUFFER_MAX;
	if (!d->cfg.filter_buffer)
		d->cfg.filter_buffer = VDMX_FILTER_BUFFER;
	if (!d->cfg.dvr_buffer)
		d->cfg.dvr_buffer = VDMX_DVR_BUFFER;
	if (d->cfg.max_feeds >= VDMX_NONE) {
		free(d);
		return NULL;
	}
	d->filters = calloc(d->cfg.max_filters, sizeof(*d->filters));
	d->feeds = calloc(d->cfg.max_feeds, sizeof(*d->feeds));
	if (!d->filters || !d->feeds) {
		vdmx_free(d);
		return NULL;
	}
	for (i = 0; i + 1 < d->cfg.max_feeds; i++)
		d->feeds[i].next = (uint16_t)(i + 1);
	d->feeds[d->cfg.max_feeds - 1].next = VDMX_NONE;
	d->free_feed = 0;
	d->feeds_free = d->cfg.max_feeds;
	for (i = 0; i < VDMX_NPIDS; i++)
		d->head[i] = VDMX_NONE;
	for (i = 0; i < DMX_PES_OTHER; i++)
		d->pes_pids[i] = 0xffff;
	vdmx_crc_init(d->crc_table);
	return d;
}

void vdmx_free(struct vdmx *d)
{
	unsigned int i;

	if (!d)
		return;
	if (d->filters)
		for (i = 0; i < d->cfg.max_filters; i++)
			vdmx_filter_close(d->filters[i]);
	ring_free(&d->dvr);
	free(d->filters);
	free(d->feeds);
	free(d);
}

const struct vdmx_stats *vdmx_stats(const struct vdmx *d)
{
	return &d->st;
}

/* ---- readers to wake ----------------------------------------------------- */

void vdmx_wake(struct vdmx_filter *f)
{
	struct vdmx *d = f->d;

	if (f->woken)
		return;
	f->woken = true;
	f->wnext = NULL;
	if (d->woken_tail)
		d->woken_tail->wnext = f;
	else
		d->woken_head = f;
	d->woken_tail = f;
}

struct vdmx_filter *vdmx_woken(struct vdmx *d)
{
	struct vdmx_filter *f = d->woken_head;

	if (!f)
		return NULL;
	d->woken_head = f->wnext;
	if (!d->woken_head)
		d->woken_tail = NULL;
	f->woken = false;
	f->wnext = NULL;
	return f;
}

static void wake_unlink(struct vdmx_filter *f)
{
	struct vdmx *d = f->d;
	struct vdmx_filter **pp, *prev = NULL;

	if (!f->woken)
		return;
	for (pp = &d->woken_head; *pp; prev = *pp, pp = &(*pp)->wnext) {
		if (*pp != f)
			continue;
		*pp = f->wnext;
		if (d->woken_tail == f)
			d->woken_tail = prev;
		break;
	}
	f->woken = false;
	f->wnext = NULL;
}

bool vdmx_dvr_woken(struct vdmx *d)
{
	bool w = d->dvr_woken;

	d->dvr_woken = false;
	return w;
}

/* ---- feeds and the PID set ----------------------------------------------- */

/* A feed of pid for f; the caller made sure one is free. */
static uint16_t feed_add(struct vdmx *d, struct vdmx_filter *f, uint16_t pid)
{
	uint16_t i = d->free_feed;
	struct vdmx_feed *fd = &d->feeds[i];

	d->free_feed = fd->next;
	d->feeds_free--;
	fd->f = f;
	fd->pid = pid;
	fd->next = d->head[pid];
	d->head[pid] = i;
	if (!d->users[pid]++) {
		d->used[pid / 64] |= 1ull << (pid % 64);
		d->npids++;
		d->gen++;
	}
	return i;
}

static void feed_del(struct vdmx *d, uint16_t i)
{
	struct vdmx_feed *fd = &d->feeds[i];
	uint16_t *pp = &d->head[fd->pid];

	while (*pp != i)
		pp = &d->feeds[*pp].next;
	*pp = fd->next;
	if (!--d->users[fd->pid]) {
		d->used[fd->pid / 64] &= ~(1ull << (fd->pid % 64));
		d->npids--;
		d->gen++;
	}
	fd->f = NULL;
	fd->next = d->free_feed;
	d->free_feed = i;
	d->feeds_free++;
}

unsigned int vdmx_pids(const struct vdmx *d, uint16_t *out, unsigned int max)
{
	unsigned int w, bit, n = 0;
	uint64_t bits;

	for (w = 0; w < sizeof(d->used) / sizeof(d->used[0]) && n < max; w++) {
		for (bits = d->used[w]; bits && n < max; bits &= bits - 1) {
			bit = (unsigned int)__builtin_ctzll(bits);
			out[n++] = (uint16_t)(w * 64 + bit);
		}
	}
	return d->npids;
}

uint32_t vdmx_pids_gen(const struct vdmx *d)
{
	return d->gen;
}

/* ---- filters ------------------------------------------------------------- */

int vdmx_filter_open(struct vdmx *d, struct vdmx_filter **out)
{
	struct vdmx_filter *f;
	unsigned int i;

	*out = NULL;
	for (i = 0; i < d->cfg.max_filters; i++)
		if (!d->filters[i])
			break;
	if (i == d->cfg.max_filters)
		return -EMFILE;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->pids = calloc(d->cfg.max_feeds, sizeof(*f->pids));
	f->feeds = calloc(d->cfg.max_feeds, sizeof(*f->feeds));
	if (!f->pids || !f->feeds || ring_alloc(&f->buf, d->cfg.filter_buffer)) {
		free(f->pids);
		free(f->feeds);
		free(f);
		return -ENOMEM;
	}
	f->d = d;
	f->slot = i;
	f->state = VDMX_STATE_ALLOCATED;
	f->type = VDMX_TYPE_NONE;
	f->sec_feed = VDMX_NONE;
	d->filters[i] = f;
	*out = f;
	return 0;
}

enum vdmx_state vdmx_filter_state(const struct vdmx_filter *f)
{
	return f->state;
}

/* Whether f, a PES filter, has a decoder pes_type (DMX_PES_AUDIO0...). */
static bool pes_decoder(const struct vdmx_filter *f)
{
	return (unsigned int)f->pes.pes_type < DMX_PES_OTHER;
}

/* f, a running PES filter, runs no feed any more: its decoder type is free. */
static void pes_release(struct vdmx_filter *f)
{
	struct vdmx *d = f->d;

	if (pes_decoder(f) && d->pes_owner[f->pes.pes_type] == f)
		d->pes_owner[f->pes.pes_type] = NULL;
}

/*
 * f, a PES filter, is to run a feed of pid: whether its decoder type is
 * free (dmx_ts_feed_set() refuses it with EINVAL), and it takes it.
 */
static int pes_claim(struct vdmx_filter *f, uint16_t pid)
{
	struct vdmx *d = f->d;
	unsigned int t = (unsigned int)f->pes.pes_type;

	if (t >= DMX_PES_OTHER)
		return 0;
	if (d->pes_owner[t] && d->pes_owner[t] != f)
		return -EINVAL;
	d->pes_owner[t] = f;
	d->pes_pids[t] = pid;
	return 0;
}

/* dvb_dmxdev_filter_stop(): its feeds go, its buffer is emptied. */
static void filter_stop(struct vdmx_filter *f)
{
	struct vdmx *d = f->d;
	unsigned int i;

	if (f->state < VDMX_STATE_GO)
		return;
	if (f->type == VDMX_TYPE_SEC) {
		feed_del(d, f->sec_feed);
		f->sec_feed = VDMX_NONE;
		f->deadline = 0;
	} else {
		for (i = 0; i < f->npids; i++) {
			if (f->feeds[i] != VDMX_NONE)
				feed_del(d, f->feeds[i]);
			f->feeds[i] = VDMX_NONE;
		}
		pes_release(f);
	}
	f->state = VDMX_STATE_SET;
	ring_flush(&f->buf);
	f->todo = 0;
}

/* dvb_dmxdev_filter_reset() of a stopped filter. */
static void filter_reset(struct vdmx_filter *f)
{
	f->npids = 0;
	f->type = VDMX_TYPE_NONE;
	f->state = VDMX_STATE_ALLOCATED;
}

/* dvb_dmxdev_filter_start() of a set filter: every feed, or none. */
static int filter_start(struct vdmx_filter *f)
{
	struct vdmx *d = f->d;
	unsigned int i;
	uint64_t t;
	int ret;

	filter_stop(f);
	f->has_buf = true;
	ring_flush(&f->buf);
	f->todo = 0;

	if (f->type == VDMX_TYPE_SEC) {
		if (!d->feeds_free)
			return -EBUSY;
		f->sec_feed = feed_add(d, f, f->sec.pid);
		vdmx_sec_reset(f);
		t = f->sec.timeout;
		f->deadline = 0;
		if (t)
			f->deadline = d->now > UINT64_MAX - t ? UINT64_MAX : d->now + t;
	} else {
		if (f->npids > d->feeds_free)
			return -EBUSY;
		if (f->npids) {
			ret = pes_claim(f, f->pids[0]);
			if (ret)
				return ret;
		}
		for (i = 0; i < f->npids; i++)
			f->feeds[i] = feed_add(d, f, f->pids[i]);
	}
	f->state = VDMX_STATE_GO;
	return 0;
}

void vdmx_filter_close(struct vdmx_filter *f)
{
	struct vdmx *d;

	if (!f)
		return;
	d = f->d;
	filter_stop(f);
	wake_unlink(f);
	d->filters[f->slot] = NULL;
	ring_free(&f->buf);
	free(f->pids);
	free(f->feeds);
	free(f);
}

int vdmx_set_filter(struct vdmx_filter *f,
		    const struct dmx_sct_filter_params *p)
{
	unsigned int i;

	/* dmx_section_feed_set() would refuse it at the start */
	if (p->pid > 0x1fff)
		return -EINVAL;
	filter_stop(f);
	filter_reset(f);
	f->type = VDMX_TYPE_SEC;
	f->sec = *p;
	f->has_neg = false;
	for (i = 0; i < DMX_FILTER_SIZE; i++) {
		f->pos[i] = p->filter.mask[i] & (uint8_t)~p->filter.mode[i];
		f->neg[i] = p->filter.mask[i] & p->filter.mode[i];
		f->has_neg |= f->neg[i] != 0;
	}
	f->state = VDMX_STATE_SET;
	if (p->flags & DMX_IMMEDIATE_START)
		return filter_start(f);
	return 0;
}

int vdmx_set_pes_filter(struct vdmx_filter *f,
			const struct dmx_pes_filter_params *p)
{
	if (p->pid > VDMX_PID_FULL_TS ||
	    (unsigned int)p->pes_type > DMX_PES_OTHER)
		return -EINVAL;
	filter_stop(f);
	filter_reset(f);
	f->type = VDMX_TYPE_PES;
	f->pes = *p;
	f->pids[0] = p->pid;
	f->feeds[0] = VDMX_NONE;
	f->npids = 1;
	f->state = VDMX_STATE_SET;
	if (p->flags & DMX_IMMEDIATE_START)
		return filter_start(f);
	return 0;
}

int vdmx_start(struct vdmx_filter *f)
{
	if (f->state < VDMX_STATE_SET)
		return -EINVAL;
	return filter_start(f);
}

int vdmx_stop(struct vdmx_filter *f)
{
	filter_stop(f);
	return 0;
}

/*
 * dvb_dmxdev_add_pid(), with vtunerc.ko's checks: a PID out of range and
 * a second PID for a decoder type are refused at once (dvb-core would
 * fail the feed's start).  A PID the filter has is not added twice
 * (dvb-core would deliver its packets twice).
 */
int vdmx_add_pid(struct vdmx_filter *f, uint16_t pid)
{
	struct vdmx *d = f->d;
	unsigned int i;
	int ret;

	if (f->type != VDMX_TYPE_PES || f->state < VDMX_STATE_SET ||
	    pid > VDMX_PID_FULL_TS)
		return -EINVAL;
	/* only TS packet filters may have multiple PIDs */
	if (f->npids && (f->pes.output != DMX_OUT_TSDEMUX_TAP || pes_decoder(f)))
		return -EINVAL;
	for (i = 0; i < f->npids; i++)
		if (f->pids[i] == pid)
			return 0;
	if (f->npids == d->cfg.max_feeds)
		return -EBUSY;
	f->feeds[f->npids] = VDMX_NONE;
	if (f->state >= VDMX_STATE_GO) {
		if (!d->feeds_free)
			return -EBUSY;
		ret = pes_claim(f, pid);
		if (ret)
			return ret;
		f->feeds[f->npids] = feed_add(d, f, pid);
	}
	f->pids[f->npids++] = pid;
	return 0;
}

/*
 * dvb_dmxdev_remove_pid().  dvb-core removes only the PIDs of a running
 * filter (a stopped one keeps them); here a stopped filter loses it too.
 */
int vdmx_remove_pid(struct vdmx_filter *f, uint16_t pid)
{
	unsigned int i;

	if (f->type != VDMX_TYPE_PES || f->state < VDMX_STATE_SET)
		return -EINVAL;
	for (i = 0; i < f->npids; i++)
		if (f->pids[i] == pid)
			break;
	if (i == f->npids)
		return 0;
	if (f->feeds[i] != VDMX_NONE) {
		feed_del(f->d, f->feeds[i]);
		pes_release(f);
	}
	f->npids--;
	f->pids[i] = f->pids[f->npids];
	f->feeds[i] = f->feeds[f->npids];
	return 0;
}

int vdmx_filter_set_buffer_size(struct vdmx_filter *f, unsigned long size)
{
	int ret;

	if (size == f->buf.size)
		return 0;
	if (!size)
		return -EINVAL;
	if (f->state >= VDMX_STATE_GO)
		return -EBUSY;
	if (size > f->d->cfg.max_buffer)
		return -ENOMEM;
	ret = ring_alloc(&f->buf, size);
	if (ret)
		return ret;
	f->has_buf = true;
	f->todo = 0;
	return 0;
}

/*
 * dvb_dmxdev_read_sec(): the 3 bytes of a section's header first, then
 * at most the rest of its body (todo).  After an error the next read
 * starts at a section (dvb-core keeps todo after an error in the body,
 * and then reads the next section out of step).
 */
static ssize_t read_sec(struct vdmx_filter *f, uint8_t *out, size_t len)
{
	size_t want, done = 0;
	ssize_t r;

	if (f->todo <= 0) {
		want = (size_t)(3 + f->todo);
		if (want > len)
			want = len;
		r = ring_read(&f->buf, out, want);
		if (r < 0) {
			f->todo = 0;
			return r;
		}
		memcpy(f->hdr - f->todo, out, (size_t)r);
		out += r;
		len -= (size_t)r;
		done = (size_t)r;
		f->todo -= (int)r;
		if (f->todo > -3)
			return (ssize_t)done;
		f->todo = (f->hdr[1] & 0x0f) << 8 | f->hdr[2];
		if (!len)
			return (ssize_t)done;
	}
	if (len > (size_t)f->todo)
		len = (size_t)f->todo;
	r = ring_read(&f->buf, out, len);
	if (r < 0) {
		f->todo = 0;
		return r;
	}
	f->todo -= (int)r;
	return (ssize_t)done + r;
}

ssize_t vdmx_filter_read(struct vdmx_filter *f, void *buf, size_t len)
{
	if (!f->has_buf)
		return 0;
	if (f->type == VDMX_TYPE_SEC)
		return read_sec(f, buf, len);
	return ring_read(&f->buf, buf, len);
}

unsigned int vdmx_filter_poll(const struct vdmx_filter *f)
{
	if (f->state != VDMX_STATE_GO && f->state != VDMX_STATE_DONE &&
	    f->state != VDMX_STATE_TIMEDOUT)
		return 0;
	return ring_poll(&f->buf);
}

void vdmx_get_pes_pids(const struct vdmx *d, uint16_t pids[5])
{
	memcpy(pids, d->pes_pids, 5 * sizeof(*pids));
}

/* ---- time ---------------------------------------------------------------- */

unsigned int vdmx_tick(struct vdmx *d, uint64_t now_ms)
{
	struct vdmx_filter *f;
	unsigned int i, n = 0;

	if (now_ms > d->now)
		d->now = now_ms;
	for (i = 0; i < d->cfg.max_filters; i++) {
		f = d->filters[i];
		if (!f || !f->deadline || f->state != VDMX_STATE_GO ||
		    d->now < f->deadline)
			continue;
		/* dvb_dmxdev_filter_timeout() */
		f->deadline = 0;
		f->buf.error = -ETIMEDOUT;
		f->state = VDMX_STATE_TIMEDOUT;
		d->st.timeouts++;
		vdmx_wake(f);
		n++;
	}
	return n;
}

uint64_t vdmx_deadline(const struct vdmx *d)
{
	const struct vdmx_filter *f;
	uint64_t next = 0;
	unsigned int i;

	for (i = 0; i < d->cfg.max_filters; i++) {
		f = d->filters[i];
		if (f && f->deadline && f->state == VDMX_STATE_GO &&
		    (!next || f->deadline < next))
			next = f->deadline;
	}
	return next;
}

/* ---- dvr0 ---------------------------------------------------------------- */

int vdmx_dvr_open(struct vdmx *d)
{
	int ret;

	if (d->dvr_open)
		return -EBUSY;
	ret = ring_alloc(&d->dvr, d->cfg.dvr_buffer);
	if (ret)
		return ret;
	d->dvr_open = true;
	d->dvr_woken = false;
	return 0;
}

void vdmx_dvr_close(struct vdmx *d)
{
	ring_free(&d->dvr);
	d->dvr_open = false;
	d->dvr_woken = false;
}

int vdmx_dvr_set_buffer_size(struct vdmx *d, unsigned long size)
{
	if (d->dvr_open && size == d->dvr.size)
		return 0;
	if (!size)
		return -EINVAL;
	if (!d->dvr_open)
		return 0;
	if (size > d->cfg.max_buffer)
		return -ENOMEM;
	return ring_alloc(&d->dvr, size);
}

ssize_t vdmx_dvr_read(struct vdmx *d, void *buf, size_t len)
{
	if (!d->dvr_open)
		return 0;
	return ring_read(&d->dvr, buf, len);
}

unsigned int vdmx_dvr_poll(const struct vdmx *d)
{
	return d->dvr_open ? ring_poll(&d->dvr) : 0;
}

/* ---- ioctls -------------------------------------------------------------- */

int vdmx_ioctl_size(unsigned int cmd, bool dvr, size_t *in, size_t *out)
{
	*in = 0;
	*out = 0;
	if (cmd == (unsigned int)DMX_SET_BUFFER_SIZE)
		return 0;
	if (dvr)
		return -ENOTTY;
	switch (cmd) {
	case DMX_START:
	case DMX_STOP:
		return 0;
	case DMX_SET_FILTER:
		*in = sizeof(struct dmx_sct_filter_params);
		return 0;
	case DMX_SET_PES_FILTER:
		*in = sizeof(struct dmx_pes_filter_params);
		return 0;
	case DMX_GET_PES_PIDS:
		*out = 5 * sizeof(uint16_t);
		return 0;
	case DMX_GET_STC:
		*in = sizeof(struct dmx_stc);
		*out = sizeof(struct dmx_stc);
		return 0;
	case DMX_ADD_PID:
	case DMX_REMOVE_PID:
		*in = sizeof(uint16_t);
		return 0;
	default:
		return -ENOTTY;
	}
}

int vdmx_ioctl(struct vdmx_filter *f, unsigned int cmd, unsigned long value,
	       void *arg)
{
	size_t in, out;
	uint16_t pid;

	if (vdmx_ioctl_size(cmd, false, &in, &out))
		return -ENOTTY;
	if ((in || out) && !arg)
		return -EFAULT;
	switch (cmd) {
	case DMX_START:
		return vdmx_start(f);
	case DMX_STOP:
		return vdmx_stop(f);
	case DMX_SET_FILTER:
		return vdmx_set_filter(f, arg);
	case DMX_SET_PES_FILTER:
		return vdmx_set_pes_filter(f, arg);
	case DMX_SET_BUFFER_SIZE:
		return vdmx_filter_set_buffer_size(f, value);
	case DMX_GET_PES_PIDS:
		vdmx_get_pes_pids(f->d, arg);
		return 0;
	case DMX_GET_STC:
		/* dvb_demux.c has no get_stc() */
		return -EINVAL;
	case DMX_ADD_PID:
		memcpy(&pid, arg, sizeof(pid));
		return vdmx_add_pid(f, pid);
	case DMX_REMOVE_PID:
		memcpy(&pid, arg, sizeof(pid));
		return vdmx_remove_pid(f, pid);
	default:
		return -ENOTTY;
	}
}

int vdmx_dvr_ioctl(struct vdmx *d, unsigned int cmd, unsigned long value)
{
	if (cmd == (unsigned int)DMX_SET_BUFFER_SIZE)
		return vdmx_dvr_set_buffer_size(d, value);
	return -ENOTTY;
}
