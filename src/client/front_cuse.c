// SPDX-License-Identifier: GPL-2.0
/*
 * front_cuse.c - CUSE as vtunerc's front (--cuse, issue 28): no kernel
 * module, /dev/dvb/adapterN/{frontend0,demux0,dvr0} are three CUSE
 * devices whose every call is served here, in the core's loop (no
 * threads).  The frontend is answered from the remote's description and
 * last status, tunes and SEC commands go to the core; demux0 and dvr0 are
 * libvdmx (src/dmx, docs/cuse.md), fed with the remote's TS, whose PID
 * set goes to the remote.
 *
 * Reads and FE_GET_EVENT that must wait are kept as waiters and answered
 * when data comes (vdmx_woken) or the application is interrupted
 * (FUSE_INTERRUPT); poll() through fuse_lowlevel_notify_poll().
 */
#include "client/client.h"
#include "client/front.h"
#include "common/log.h"

#ifdef HAVE_CUSE
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <cuse_lowlevel.h>
#include <fuse_lowlevel.h>
#include <linux/dvb/frontend.h>
#include <linux/dvb/version.h>

#include "client/remote.h"
#include "client/sec.h"
#include "common/clock.h"
#include "common/dvb.h"
#include "common/text.h"
#include "dmx/vdmx.h"

enum { DEV_FE, DEV_DMX, DEV_DVR, NUM_DEV };
static const char *const dev_names[NUM_DEV] = { "frontend0", "demux0",
						 "dvr0" };

#define MAX_EVENT	8	/* dvb-core's event queue */
#define CACHE_MAX	(VTP_MAX_PROPS - 3)	/* + CLEAR, DELSYS, TUNE */

struct front_cuse;

struct cdev {
	struct front_cuse *fc;
	int kind;
	struct fuse_session *se;
	struct fuse_buf buf;
	char name[64];			/* dvb/adapterN/frontend0 */
};

/* One open file of any of the three devices. */
struct cfile {
	struct cdev *dev;
	int flags;			/* open()'s */
	struct vdmx_filter *flt;	/* demux0 */
	bool section;			/* demux0: a section filter */
	bool dvr_reader;		/* dvr0 opened read-only */
	bool fe_writer;			/* frontend0 opened read-write */
	struct fuse_pollhandle *ph;	/* the last poll that waits */
	struct cfile *next;
};

/* A read or FE_GET_EVENT that waits. */
struct waiter {
	fuse_req_t req;
	struct cfile *cf;
	bool event;			/* FE_GET_EVENT */
	size_t size, got;
	uint8_t *buf;
	struct waiter *next;
};

struct front_cuse {
	struct vc_front f;
	char path[64];			/* /dev/dvb/adapterN */
	int adapter;
	struct cdev dev[NUM_DEV];
	int tfd;			/* the demux's section timeouts */
	uint64_t tfd_at;
	struct cfile *files;
	struct waiter *waiters;

	/* the frontend */
	bool configured;
	struct vtp_tuner tuner;
	char name[128];
	bool have_status;
	struct vtp_status st;
	uint32_t last_fe_status;	/* for events */
	struct dvb_frontend_event events[MAX_EVENT];
	int ev_head, ev_num;
	bool ev_overflow;
	fuse_req_t pending;		/* the ioctl the core answers */
	struct props_job {		/* FE_SET_PROPERTY in steps */
		struct dtv_property *p;
		unsigned int num, i;
		bool waiting;		/* for the core's answer */
		bool running;		/* in props_run() */
	} job;
	uint32_t seq;			/* tunes */
	struct vtp_prop cache[CACHE_MAX];	/* DTV_* set since DTV_CLEAR */
	int ncache;
	uint32_t delsys;		/* current, SYS_UNDEFINED: the first */

	/* demux0, dvr0 */
	struct vdmx *dmx;
	bool fed;			/* TS fed since the last dmx_after() */
	uint32_t pids_gen;
	struct vtp_pids *pids;
};

#define FCU(f) ((struct front_cuse *)(f))

static uint64_t now_ms(void)
{
	return vt_now_ns() / 1000000;
}

/* ---- waking readers and pollers ------------------------------------------ */

static void notify_file(struct cfile *cf)
{
	if (!cf->ph)
		return;
	fuse_lowlevel_notify_poll(cf->ph);
	fuse_pollhandle_destroy(cf->ph);
	cf->ph = NULL;
}

static void waiter_unlink(struct front_cuse *fc, struct waiter *w)
{
	struct waiter **pp;

	for (pp = &fc->waiters; *pp; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	free(w->buf);
	free(w);
}

static ssize_t file_read(struct front_cuse *fc, struct cfile *cf, void *buf,
			 size_t len)
{
	if (cf->flt)
		return vdmx_filter_read(cf->flt, buf, len);
	return vdmx_dvr_read(fc->dmx, buf, len);
}

/*
 * Go on with a waiting read: true when it is answered.  dvb-core's
 * blocking read of a PES filter or dvr0 returns when the whole count is
 * read (or an error comes, with what was read); a section filter's as
 * soon as a read does not return -EAGAIN.
 */
static bool waiter_read(struct front_cuse *fc, struct waiter *w)
{
	ssize_t n;

	for (;;) {
		n = file_read(fc, w->cf, w->buf + w->got, w->size - w->got);
		if (n == -EAGAIN)
			return false;
		if (n < 0) {
			if (w->got)
				fuse_reply_buf(w->req, (char *)w->buf, w->got);
			else
				fuse_reply_err(w->req, (int)-n);
			return true;
		}
		w->got += n;
		if (n == 0 || w->cf->section || w->got == w->size) {
			fuse_reply_buf(w->req, (char *)w->buf, w->got);
			return true;
		}
	}
}

static bool event_pop(struct front_cuse *fc, struct dvb_frontend_event *e,
		      int *err)
{
	if (fc->ev_overflow) {
		fc->ev_overflow = false;
		*err = EOVERFLOW;
		return true;
	}
	if (!fc->ev_num)
		return false;
	*e = fc->events[fc->ev_head];
	fc->ev_head = (fc->ev_head + 1) % MAX_EVENT;
	fc->ev_num--;
	*err = 0;
	return true;
}

static bool waiter_event(struct front_cuse *fc, struct waiter *w)
{
	struct dvb_frontend_event e;
	int err;

	if (!event_pop(fc, &e, &err))
		return false;
	if (err)
		fuse_reply_err(w->req, err);
	else
		fuse_reply_ioctl(w->req, 0, &e, sizeof(e));
	return true;
}

/* Readers and pollers of dev (and of filter flt, or dvr0 when NULL). */
static void wake(struct front_cuse *fc, int kind, struct vdmx_filter *flt)
{
	struct waiter *w, *next;
	struct cfile *cf;

	for (w = fc->waiters; w; w = next) {
		next = w->next;
		if (w->cf->dev->kind != kind || w->cf->flt != flt)
			continue;
		if (w->event ? waiter_event(fc, w) : waiter_read(fc, w))
			waiter_unlink(fc, w);
	}
	for (cf = fc->files; cf; cf = cf->next)
		if (cf->dev->kind == kind && cf->flt == flt)
			notify_file(cf);
}

static void on_interrupt(fuse_req_t req, void *data)
{
	struct waiter *w = data;
	struct front_cuse *fc = w->cf->dev->fc;

	(void)req;
	/* a signal ends a blocked read with what it has, or EINTR */
	if (!w->event && w->got)
		fuse_reply_buf(w->req, (char *)w->buf, w->got);
	else
		fuse_reply_err(w->req, EINTR);
	waiter_unlink(fc, w);
}

static void waiter_add(struct front_cuse *fc, struct waiter *w)
{
	w->next = fc->waiters;
	fc->waiters = w;
	/* called at once when the request is interrupted already */
	fuse_req_interrupt_func(w->req, on_interrupt, w);
}

/* ---- the demux ----------------------------------------------------------- */

static void dmx_timer(struct front_cuse *fc)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	uint64_t at = vdmx_deadline(fc->dmx);

	if (at == fc->tfd_at)
		return;
	fc->tfd_at = at;
	if (at) {
		its.it_value.tv_sec = at / 1000;
		its.it_value.tv_nsec = (at % 1000) * 1000000;
	}
	timerfd_settime(fc->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* After the demux changed: readers, pollers, the PIDs, the timer. */
static void dmx_after(struct front_cuse *fc)
{
	struct vdmx_filter *flt;
	unsigned int n;

	fc->fed = false;
	while ((flt = vdmx_woken(fc->dmx)))
		wake(fc, DEV_DMX, flt);
	if (vdmx_dvr_woken(fc->dmx))
		wake(fc, DEV_DVR, NULL);
	if (vdmx_pids_gen(fc->dmx) != fc->pids_gen) {
		fc->pids_gen = vdmx_pids_gen(fc->dmx);
		n = vdmx_pids(fc->dmx, fc->pids->pid, VTP_MAX_PIDS);
		fc->pids->num = n < VTP_MAX_PIDS ? n : VTP_MAX_PIDS;
		vc_client_pids(fc->f.cl, fc->pids);
	}
	dmx_timer(fc);
}

/* ---- the frontend -------------------------------------------------------- */

static uint32_t cur_delsys(const struct front_cuse *fc)
{
	if (fc->delsys != SYS_UNDEFINED)
		return fc->delsys;
	return fc->configured && fc->tuner.num_delsys ? fc->tuner.delsys[0] :
	       SYS_DVBT;
}

static void fe_info(const struct front_cuse *fc, struct dvb_frontend_info *fi)
{
	const struct vtp_tuner *t = &fc->tuner;

	memset(fi, 0, sizeof(*fi));
	snprintf(fi->name, sizeof(fi->name), "%s",
		 fc->configured ? fc->name : "vtuner (not connected)");
	fi->type = vt_delsys_fe_type(cur_delsys(fc));
	if (!fc->configured)
		return;
	fi->frequency_min = t->freq_min;
	fi->frequency_max = t->freq_max;
	fi->frequency_stepsize = t->freq_step;
	fi->frequency_tolerance = t->freq_tolerance;
	fi->symbol_rate_min = t->srate_min;
	fi->symbol_rate_max = t->srate_max;
	fi->symbol_rate_tolerance = t->srate_tolerance;
	/* as vtunerc.ko: a lost remote is reconnected, the tune replayed */
	fi->caps = t->caps | FE_CAN_RECOVER;
}

static void cache_set(struct front_cuse *fc, uint32_t cmd, uint32_t data)
{
	int i;

	if (cmd == DTV_DELIVERY_SYSTEM) {
		fc->delsys = data;
		return;
	}
	for (i = 0; i < fc->ncache; i++) {
		if (fc->cache[i].cmd == cmd) {
			fc->cache[i].data = data;
			return;
		}
	}
	if (fc->ncache < CACHE_MAX)
		fc->cache[fc->ncache++] = (struct vtp_prop){ cmd, data };
}

static uint32_t cache_get(const struct front_cuse *fc, uint32_t cmd)
{
	int i;

	if (cmd == DTV_DELIVERY_SYSTEM)
		return cur_delsys(fc);
	for (i = 0; i < fc->ncache; i++)
		if (fc->cache[i].cmd == cmd)
			return fc->cache[i].data;
	return 0;
}

static void events_clear(struct front_cuse *fc)
{
	fc->ev_num = 0;
	fc->ev_head = 0;
	fc->ev_overflow = false;
}

static void event_add(struct front_cuse *fc, uint32_t status)
{
	struct dvb_frontend_event *e;

	if (fc->ev_num == MAX_EVENT) {
		/* dvb-core: the oldest goes, the reader learns it */
		fc->ev_head = (fc->ev_head + 1) % MAX_EVENT;
		fc->ev_num--;
		fc->ev_overflow = true;
	}
	e = &fc->events[(fc->ev_head + fc->ev_num) % MAX_EVENT];
	memset(e, 0, sizeof(*e));
	e->status = status;
	e->parameters.frequency = cache_get(fc, DTV_FREQUENCY);
	fc->ev_num++;
	wake(fc, DEV_FE, NULL);
}

/* The accumulated properties as a tune for the core; the ioctl waits. */
static void fe_tune(struct front_cuse *fc, fuse_req_t req)
{
	struct vtp_tune t;
	int i;

	memset(&t, 0, sizeof(t));
	t.seq = ++fc->seq;
	t.props[t.num++] = (struct vtp_prop){ DTV_CLEAR, 0 };
	t.props[t.num++] = (struct vtp_prop){ DTV_DELIVERY_SYSTEM,
					      cur_delsys(fc) };
	for (i = 0; i < fc->ncache; i++)
		t.props[t.num++] = fc->cache[i];
	t.props[t.num++] = (struct vtp_prop){ DTV_TUNE, 0 };
	events_clear(fc);
	fc->last_fe_status = 0;
	fc->have_status = false;
	vdmx_feed_reset(fc->dmx);
	fc->pending = req;
	vc_client_tune(fc->f.cl, &t);	/* answered at once */
}

static void fe_sec(struct front_cuse *fc, fuse_req_t req,
		   const struct vc_sec_op *op)
{
	fc->pending = req;
	vc_client_sec(fc->f.cl, op);
}

/* DVBv3 parameters into the cache, as dvb-core's dtv_property_cache_sync() */
static void fe_set_v3(struct front_cuse *fc,
		      const struct dvb_frontend_parameters *p)
{
	static const uint32_t bw_hz[] = { 8000000, 7000000, 6000000, 0,
					  5000000, 10000000, 1712000 };
	enum fe_type type = vt_delsys_fe_type(cur_delsys(fc));

	cache_set(fc, DTV_FREQUENCY, p->frequency);
	cache_set(fc, DTV_INVERSION, p->inversion);
	switch (type) {
	case FE_QPSK:
		if (fc->delsys == SYS_UNDEFINED)
			fc->delsys = SYS_DVBS;
		cache_set(fc, DTV_SYMBOL_RATE, p->u.qpsk.symbol_rate);
		cache_set(fc, DTV_INNER_FEC, p->u.qpsk.fec_inner);
		break;
	case FE_QAM:
		cache_set(fc, DTV_SYMBOL_RATE, p->u.qam.symbol_rate);
		cache_set(fc, DTV_INNER_FEC, p->u.qam.fec_inner);
		cache_set(fc, DTV_MODULATION, p->u.qam.modulation);
		break;
	case FE_OFDM:
		cache_set(fc, DTV_BANDWIDTH_HZ,
			  p->u.ofdm.bandwidth < 7 ? bw_hz[p->u.ofdm.bandwidth] :
			  0);
		cache_set(fc, DTV_CODE_RATE_HP, p->u.ofdm.code_rate_HP);
		cache_set(fc, DTV_CODE_RATE_LP, p->u.ofdm.code_rate_LP);
		cache_set(fc, DTV_MODULATION, p->u.ofdm.constellation);
		cache_set(fc, DTV_TRANSMISSION_MODE,
			  p->u.ofdm.transmission_mode);
		cache_set(fc, DTV_GUARD_INTERVAL, p->u.ofdm.guard_interval);
		cache_set(fc, DTV_HIERARCHY, p->u.ofdm.hierarchy_information);
		break;
	case FE_ATSC:
		cache_set(fc, DTV_MODULATION, p->u.vsb.modulation);
		break;
	}
}

static void fe_get_v3(const struct front_cuse *fc,
		      struct dvb_frontend_parameters *p)
{
	uint32_t bw = cache_get(fc, DTV_BANDWIDTH_HZ);

	memset(p, 0, sizeof(*p));
	p->frequency = cache_get(fc, DTV_FREQUENCY);
	p->inversion = cache_get(fc, DTV_INVERSION);
	switch (vt_delsys_fe_type(cur_delsys(fc))) {
	case FE_QPSK:
		p->u.qpsk.symbol_rate = cache_get(fc, DTV_SYMBOL_RATE);
		p->u.qpsk.fec_inner = cache_get(fc, DTV_INNER_FEC);
		break;
	case FE_QAM:
		p->u.qam.symbol_rate = cache_get(fc, DTV_SYMBOL_RATE);
		p->u.qam.fec_inner = cache_get(fc, DTV_INNER_FEC);
		p->u.qam.modulation = cache_get(fc, DTV_MODULATION);
		break;
	case FE_OFDM:
		p->u.ofdm.bandwidth = bw == 8000000 ? BANDWIDTH_8_MHZ :
				      bw == 7000000 ? BANDWIDTH_7_MHZ :
				      bw == 6000000 ? BANDWIDTH_6_MHZ :
				      bw == 5000000 ? BANDWIDTH_5_MHZ :
				      bw == 10000000 ? BANDWIDTH_10_MHZ :
				      bw == 1712000 ? BANDWIDTH_1_712_MHZ :
				      BANDWIDTH_AUTO;
		p->u.ofdm.code_rate_HP = cache_get(fc, DTV_CODE_RATE_HP);
		p->u.ofdm.code_rate_LP = cache_get(fc, DTV_CODE_RATE_LP);
		p->u.ofdm.constellation = cache_get(fc, DTV_MODULATION);
		p->u.ofdm.transmission_mode =
			cache_get(fc, DTV_TRANSMISSION_MODE);
		p->u.ofdm.guard_interval = cache_get(fc, DTV_GUARD_INTERVAL);
		p->u.ofdm.hierarchy_information = cache_get(fc, DTV_HIERARCHY);
		break;
	case FE_ATSC:
		p->u.vsb.modulation = cache_get(fc, DTV_MODULATION);
		break;
	}
}

static void stats_of(const struct front_cuse *fc, int idx,
		     struct dtv_fe_stats *st)
{
	const struct vtp_stats *s;
	int i;

	memset(st, 0, sizeof(*st));
	if (!fc->have_status) {
		st->len = 1;
		st->stat[0].scale = FE_SCALE_NOT_AVAILABLE;
		return;
	}
	s = &fc->st.stats[idx];
	st->len = s->len <= MAX_DTV_STATS ? s->len : MAX_DTV_STATS;
	for (i = 0; i < st->len; i++) {
		st->stat[i].scale = s->stat[i].scale;
		st->stat[i].uvalue = s->stat[i].uvalue;
	}
}

static void fe_get_prop(const struct front_cuse *fc, struct dtv_property *p)
{
	static const struct { uint32_t cmd; int idx; } stat_map[] = {
		{ DTV_STAT_SIGNAL_STRENGTH, VTP_STAT_STRENGTH },
		{ DTV_STAT_CNR, VTP_STAT_CNR },
		{ DTV_STAT_PRE_ERROR_BIT_COUNT, VTP_STAT_PRE_BIT_ERROR },
		{ DTV_STAT_PRE_TOTAL_BIT_COUNT, VTP_STAT_PRE_BIT_COUNT },
		{ DTV_STAT_POST_ERROR_BIT_COUNT, VTP_STAT_POST_BIT_ERROR },
		{ DTV_STAT_POST_TOTAL_BIT_COUNT, VTP_STAT_POST_BIT_COUNT },
		{ DTV_STAT_ERROR_BLOCK_COUNT, VTP_STAT_BLOCK_ERROR },
		{ DTV_STAT_TOTAL_BLOCK_COUNT, VTP_STAT_BLOCK_COUNT },
	};
	unsigned int i;

	for (i = 0; i < sizeof(stat_map) / sizeof(stat_map[0]); i++) {
		if (p->cmd == stat_map[i].cmd) {
			stats_of(fc, stat_map[i].idx, &p->u.st);
			return;
		}
	}
	switch (p->cmd) {
	case DTV_API_VERSION:
		p->u.data = (DVB_API_VERSION << 8) | DVB_API_VERSION_MINOR;
		break;
	case DTV_ENUM_DELSYS:
		memset(&p->u.buffer, 0, sizeof(p->u.buffer));
		if (fc->configured) {
			for (i = 0; i < fc->tuner.num_delsys &&
				    i < VTP_MAX_DELSYS; i++)
				p->u.buffer.data[i] = fc->tuner.delsys[i];
			p->u.buffer.len = i;
		}
		break;
	default:
		p->u.data = cache_get(fc, p->cmd);
		break;
	}
}

/*
 * FE_SET_PROPERTY's properties in order, as dvb-core's
 * dtv_property_process_set(): most go to the cache; DTV_VOLTAGE and
 * DTV_TONE are FE_SET_VOLTAGE and FE_SET_TONE, DTV_TUNE the tune, each
 * sent to the core and waited for (fcu_answer() resumes here, possibly
 * from within vc_client_sec() or vc_client_tune()).  The request is
 * answered after the last property.
 */
static void props_run(struct front_cuse *fc)
{
	struct props_job *j = &fc->job;
	struct vc_sec_op op;
	fuse_req_t req = fc->pending;

	j->running = true;
	while (!j->waiting && j->i < j->num) {
		const struct dtv_property *p = &j->p[j->i++];

		memset(&op, 0, sizeof(op));
		switch (p->cmd) {
		case DTV_CLEAR:
			fc->ncache = 0;
			break;
		case DTV_TUNE:
			j->waiting = true;
			fe_tune(fc, req);
			break;
		case DTV_VOLTAGE:
		case DTV_TONE:
			cache_set(fc, p->cmd, p->u.data);
			op.type = p->cmd == DTV_VOLTAGE ? VTP_SET_VOLTAGE :
							  VTP_SET_TONE;
			op.value = p->u.data;
			j->waiting = true;
			fe_sec(fc, req, &op);
			break;
		default:
			if (p->cmd > DTV_MAX_COMMAND ||
			    (p->cmd >= DTV_STAT_SIGNAL_STRENGTH &&
			     p->cmd <= DTV_STAT_TOTAL_BLOCK_COUNT) ||
			    p->cmd == DTV_API_VERSION ||
			    p->cmd == DTV_ENUM_DELSYS)
				break;
			cache_set(fc, p->cmd, p->u.data);
			break;
		}
	}
	j->running = false;
	if (j->waiting)
		return;
	free(j->p);
	*j = (struct props_job){ 0 };
	fc->pending = NULL;
	fuse_reply_ioctl(req, 0, NULL, 0);
}

/*
 * A 32-bit application's struct dtv_properties and dtv_property
 * (FUSE_IOCTL_COMPAT), as dvb-core's compat_dtv_property(ies): the
 * pointers are 32 bits, so the ioctl numbers differ and an element is 72
 * bytes, not 76; every field but buffer.reserved2 is where it is natively.
 * The other ioctls of frontend0, demux0 and dvr0 have the same layout and
 * numbers in both (dvb-core passes them on unchanged).
 */
struct dtv_property32 {
	uint32_t cmd;
	uint32_t reserved[3];
	union {
		uint32_t data;
		struct dtv_fe_stats st;
		struct {
			uint8_t data[32];
			uint32_t len;
			uint32_t reserved1[3];
			uint32_t reserved2;
		} buffer;
	} u;
	int result;
} __attribute__((packed));

struct dtv_properties32 {
	uint32_t num;
	uint32_t props;
};

#define FE_SET_PROPERTY32	_IOW('o', 82, struct dtv_properties32)
#define FE_GET_PROPERTY32	_IOR('o', 83, struct dtv_properties32)

_Static_assert(sizeof(struct dtv_property32) == 72, "i386's dtv_property");
_Static_assert(sizeof(struct dtv_properties32) == 8, "i386's dtv_properties");

/*
 * The struct dtv_properties, then its array, fetched by retries of the
 * unrestricted ioctl; a 32-bit application's (compat) converted to the
 * native layout.  NULL when the request is answered (a retry, an error).
 */
static struct dtv_property *props_fetch(fuse_req_t req, void *arg,
					const void *in, size_t in_size,
					bool get, bool compat,
					unsigned int *num)
{
	size_t hsize = compat ? sizeof(struct dtv_properties32) :
		       sizeof(struct dtv_properties);
	size_t esize = compat ? sizeof(struct dtv_property32) :
		       sizeof(struct dtv_property);
	const char *src = (const char *)in + hsize;
	struct dtv_properties32 dp32;
	struct dtv_properties dp;
	struct dtv_property32 p32;
	struct dtv_property *p;
	struct iovec iin[2], iout;
	size_t psize;
	unsigned int i;

	if (in_size < hsize) {
		iin[0] = (struct iovec){ arg, hsize };
		fuse_reply_ioctl_retry(req, iin, 1, NULL, 0);
		return NULL;
	}
	if (compat) {
		memcpy(&dp32, in, sizeof(dp32));
		dp.num = dp32.num;
		dp.props = (struct dtv_property *)(uintptr_t)dp32.props;
	} else {
		memcpy(&dp, in, sizeof(dp));
	}
	if (!dp.num || dp.num > DTV_IOCTL_MAX_MSGS) {
		fuse_reply_err(req, EINVAL);
		return NULL;
	}
	psize = dp.num * esize;
	if (in_size < hsize + psize) {
		iin[0] = (struct iovec){ arg, hsize };
		iin[1] = (struct iovec){ dp.props, psize };
		iout = (struct iovec){ dp.props, psize };
		fuse_reply_ioctl_retry(req, iin, 2, &iout, get);
		return NULL;
	}
	p = calloc(dp.num, sizeof(*p));
	if (!p) {
		fuse_reply_err(req, ENOMEM);
		return NULL;
	}
	for (i = 0; i < dp.num; i++) {
		if (!compat) {
			memcpy(&p[i], src + i * esize, sizeof(*p));
			continue;
		}
		memcpy(&p32, src + i * esize, sizeof(p32));
		p[i].cmd = p32.cmd;
		memcpy(p[i].reserved, p32.reserved, sizeof(p32.reserved));
		memcpy(&p[i].u, &p32.u, sizeof(p32.u));
		p[i].result = p32.result;
	}
	*num = dp.num;
	return p;
}

/* FE_GET_PROPERTY's answer: p, converted in place for a 32-bit caller. */
static void props_reply(fuse_req_t req, struct dtv_property *p,
			unsigned int num, bool compat)
{
	struct dtv_property32 p32;
	unsigned int i;

	if (!compat) {
		fuse_reply_ioctl(req, 0, p, num * sizeof(*p));
		return;
	}
	/* element i goes below p[i + 1]: each is read before it is written */
	for (i = 0; i < num; i++) {
		memset(&p32, 0, sizeof(p32));
		p32.cmd = p[i].cmd;
		memcpy(p32.reserved, p[i].reserved, sizeof(p32.reserved));
		memcpy(&p32.u, &p[i].u, sizeof(p32.u));
		p32.result = p[i].result;
		memcpy((char *)p + i * sizeof(p32), &p32, sizeof(p32));
	}
	fuse_reply_ioctl(req, 0, p, num * sizeof(p32));
}

/* FE_SET_PROPERTY, FE_GET_PROPERTY, native or of a 32-bit application. */
static void fe_props(struct front_cuse *fc, fuse_req_t req, unsigned int cmd,
		     void *arg, const void *in, size_t in_size,
		     bool writer, bool compat)
{
	struct dtv_property *p;
	unsigned int i, num;

	p = props_fetch(req, arg, in, in_size, cmd == FE_GET_PROPERTY, compat,
			&num);
	if (!p)
		return;
	if (cmd == FE_GET_PROPERTY) {
		for (i = 0; i < num; i++)
			fe_get_prop(fc, &p[i]);
		props_reply(req, p, num, compat);
		free(p);
		return;
	}
	if (!writer) {
		free(p);
		fuse_reply_err(req, EPERM);
		return;
	}
	fc->pending = req;
	fc->job = (struct props_job){ .p = p, .num = num };
	props_run(fc);
}

/* Fixed-size arguments: fetched by a retry; false when one is sent. */
static bool have_args(fuse_req_t req, void *arg, unsigned int cmd,
		      size_t in_size, size_t out_size)
{
	size_t size = _IOC_SIZE(cmd);
	size_t in = (_IOC_DIR(cmd) & _IOC_WRITE) ? size : 0;
	size_t out = (_IOC_DIR(cmd) & _IOC_READ) ? size : 0;
	struct iovec iin = { arg, in }, iout = { arg, out };

	if (in_size >= in && out_size >= out)
		return true;
	fuse_reply_ioctl_retry(req, in ? &iin : NULL, in ? 1 : 0,
			       out ? &iout : NULL, out ? 1 : 0);
	return false;
}

static void fe_ioctl(struct front_cuse *fc, struct cfile *cf, fuse_req_t req,
		     unsigned int cmd, void *arg, const void *in,
		     size_t in_size, size_t out_size, bool compat)
{
	unsigned long val = (unsigned long)arg;
	struct dvb_frontend_info fi;
	struct dvb_frontend_parameters fp;
	struct dvb_diseqc_master_cmd dm;
	struct vc_sec_op op = { 0 };
	struct waiter *w;
	uint32_t u32;
	uint16_t u16;
	int err;

	if (cmd == FE_SET_PROPERTY || cmd == FE_GET_PROPERTY) {
		fe_props(fc, req, cmd, arg, in, in_size, cf->fe_writer, false);
		return;
	}
	if (compat && (cmd == FE_SET_PROPERTY32 || cmd == FE_GET_PROPERTY32)) {
		cmd = cmd == FE_SET_PROPERTY32 ? FE_SET_PROPERTY :
		      FE_GET_PROPERTY;
		fe_props(fc, req, cmd, arg, in, in_size, cf->fe_writer, true);
		return;
	}
	if (!have_args(req, arg, cmd, in_size, out_size))
		return;
	/*
	 * dvb-core: a read-only open may only read, and not take the tuning
	 * application's events (FE_GET_EVENT)
	 */
	if (!cf->fe_writer && cmd != FE_GET_INFO && cmd != FE_READ_STATUS &&
	    cmd != FE_READ_BER && cmd != FE_READ_SIGNAL_STRENGTH &&
	    cmd != FE_READ_SNR && cmd != FE_READ_UNCORRECTED_BLOCKS &&
	    cmd != FE_GET_FRONTEND) {
		fuse_reply_err(req, EPERM);
		return;
	}
	switch (cmd) {
	case FE_GET_INFO:
		fe_info(fc, &fi);
		fuse_reply_ioctl(req, 0, &fi, sizeof(fi));
		return;
	case FE_READ_STATUS:
		u32 = fc->have_status ? fc->st.status : 0;
		fuse_reply_ioctl(req, 0, &u32, sizeof(u32));
		return;
	case FE_READ_BER:
		u32 = fc->have_status ? fc->st.ber : 0;
		fuse_reply_ioctl(req, 0, &u32, sizeof(u32));
		return;
	case FE_READ_UNCORRECTED_BLOCKS:
		u32 = fc->have_status ? fc->st.ucblocks : 0;
		fuse_reply_ioctl(req, 0, &u32, sizeof(u32));
		return;
	case FE_READ_SIGNAL_STRENGTH:
		u16 = fc->have_status ? fc->st.signal : 0;
		fuse_reply_ioctl(req, 0, &u16, sizeof(u16));
		return;
	case FE_READ_SNR:
		u16 = fc->have_status ? fc->st.snr : 0;
		fuse_reply_ioctl(req, 0, &u16, sizeof(u16));
		return;
	case FE_GET_EVENT:
		w = calloc(1, sizeof(*w));
		if (!w) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		w->req = req;
		w->cf = cf;
		w->event = true;
		if (waiter_event(fc, w)) {
			free(w);
			return;
		}
		if (cf->flags & O_NONBLOCK) {
			free(w);
			fuse_reply_err(req, EWOULDBLOCK);
			return;
		}
		waiter_add(fc, w);
		return;
	case FE_SET_FRONTEND:
		memcpy(&fp, in, sizeof(fp));
		fe_set_v3(fc, &fp);
		fe_tune(fc, req);
		return;
	case FE_GET_FRONTEND:
		fe_get_v3(fc, &fp);
		fuse_reply_ioctl(req, 0, &fp, sizeof(fp));
		return;
	case FE_SET_TONE:
		op.type = VTP_SET_TONE;
		op.value = val;
		break;
	case FE_SET_VOLTAGE:
		op.type = VTP_SET_VOLTAGE;
		op.value = val;
		break;
	case FE_ENABLE_HIGH_LNB_VOLTAGE:
		op.type = VTP_ENABLE_HIGH_VOLTAGE;
		op.value = val;
		break;
	case FE_DISEQC_SEND_BURST:
		op.type = VTP_DISEQC_BURST;
		op.value = val;
		break;
	case FE_DISEQC_SEND_MASTER_CMD:
		memcpy(&dm, in, sizeof(dm));
		if (dm.msg_len < VTP_DISEQC_MIN || dm.msg_len > VTP_DISEQC_MAX) {
			fuse_reply_err(req, EINVAL);
			return;
		}
		op.type = VTP_DISEQC_MASTER;
		op.d.len = dm.msg_len;
		memcpy(op.d.msg, dm.msg, dm.msg_len);
		break;
	case FE_SET_FRONTEND_TUNE_MODE:
		fuse_reply_ioctl(req, 0, NULL, 0);
		return;
	default:
		err = _IOC_TYPE(cmd) == 'o' ? EOPNOTSUPP : ENOTTY;
		fuse_reply_err(req, err);
		return;
	}
	fe_sec(fc, req, &op);
}

/* ---- the CUSE operations ------------------------------------------------- */

static struct cdev *dev_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static struct cfile *file_of(struct fuse_file_info *fi)
{
	return (struct cfile *)(uintptr_t)fi->fh;
}

static void file_unlink(struct front_cuse *fc, struct cfile *cf)
{
	struct cfile **pp;

	for (pp = &fc->files; *pp; pp = &(*pp)->next) {
		if (*pp == cf) {
			*pp = cf->next;
			break;
		}
	}
	if (cf->ph)
		fuse_pollhandle_destroy(cf->ph);
	free(cf);
}

static void file_close(struct front_cuse *fc, struct cfile *cf);

static void cu_open(fuse_req_t req, struct fuse_file_info *fi)
{
	struct cdev *d = dev_of(req);
	struct front_cuse *fc = d->fc;
	int acc = fi->flags & O_ACCMODE, ret = 0;
	struct cfile *cf, *o;

	cf = calloc(1, sizeof(*cf));
	if (!cf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	cf->dev = d;
	cf->flags = fi->flags;
	switch (d->kind) {
	case DEV_FE:
		if (acc != O_RDONLY) {
			for (o = fc->files; o; o = o->next)
				if (o->dev->kind == DEV_FE && o->fe_writer)
					ret = -EBUSY;
			cf->fe_writer = true;
		}
		break;
	case DEV_DMX:
		vdmx_tick(fc->dmx, now_ms());
		ret = vdmx_filter_open(fc->dmx, &cf->flt);
		break;
	case DEV_DVR:
		if (acc == O_RDWR)
			ret = -EOPNOTSUPP;
		else if (acc == O_RDONLY) {
			ret = vdmx_dvr_open(fc->dmx);
			cf->dvr_reader = ret == 0;
		}
		break;
	}
	if (ret < 0) {
		free(cf);
		fuse_reply_err(req, -ret);
		return;
	}
	cf->next = fc->files;
	fc->files = cf;
	fi->fh = (uintptr_t)cf;
	fi->nonseekable = 1;
	fi->direct_io = 1;
	/* an interrupted open: no release will come */
	if (fuse_reply_open(req, fi) == -ENOENT) {
		file_close(fc, cf);
		if (d->kind != DEV_FE)
			dmx_after(fc);
	}
}

/* A file closed: its filter, dvr0's reader, what waits on it. */
static void file_close(struct front_cuse *fc, struct cfile *cf)
{
	struct waiter *w, *next;

	for (w = fc->waiters; w; w = next) {
		next = w->next;
		if (w->cf == cf) {
			fuse_reply_err(w->req, EBADF);
			waiter_unlink(fc, w);
		}
	}
	if (cf->flt)
		vdmx_filter_close(cf->flt);
	if (cf->dvr_reader)
		vdmx_dvr_close(fc->dmx);
	/*
	 * The writer gone, dvb-core stops the frontend's thread, which
	 * switches the LNB off (dvb_powerdown_on_sleep): the same here.
	 * Nobody waits for the answer.
	 */
	if (cf->fe_writer && !fc->pending) {
		struct vc_sec_op op = { .type = VTP_SET_VOLTAGE,
					.value = SEC_VOLTAGE_OFF };

		vc_client_sec(fc->f.cl, &op);
	}
	file_unlink(fc, cf);
}

static void cu_release(fuse_req_t req, struct fuse_file_info *fi)
{
	struct cdev *d = dev_of(req);
	struct front_cuse *fc = d->fc;

	file_close(fc, file_of(fi));
	fuse_reply_err(req, 0);
	if (d->kind != DEV_FE)
		dmx_after(fc);
}

static void cu_read(fuse_req_t req, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct front_cuse *fc = dev_of(req)->fc;
	struct cfile *cf = file_of(fi);
	struct waiter *w;

	(void)off;
	if (cf->dev->kind == DEV_FE || (cf->dev->kind == DEV_DVR &&
					!cf->dvr_reader)) {
		fuse_reply_err(req, cf->dev->kind == DEV_FE ? EINVAL : EBADF);
		return;
	}
	vdmx_tick(fc->dmx, now_ms());
	w = calloc(1, sizeof(*w));
	if (w)
		w->buf = malloc(size ? size : 1);
	if (!w || !w->buf) {
		free(w);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	w->req = req;
	w->cf = cf;
	w->size = size;
	if (waiter_read(fc, w)) {
		free(w->buf);
		free(w);
	} else if (fi->flags & O_NONBLOCK) {
		if (w->got)
			fuse_reply_buf(req, (char *)w->buf, w->got);
		else
			fuse_reply_err(req, EWOULDBLOCK);
		free(w->buf);
		free(w);
	} else {
		waiter_add(fc, w);
	}
	dmx_after(fc);
}

static void cu_write(fuse_req_t req, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct front_cuse *fc = dev_of(req)->fc;
	struct cfile *cf = file_of(fi);

	(void)off;
	/* dvb-core: a writer of dvr0 feeds the demux */
	if (cf->dev->kind != DEV_DVR || cf->dvr_reader) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	vdmx_feed(fc->dmx, (const uint8_t *)buf, size);
	fuse_reply_write(req, size);
	dmx_after(fc);
}

static void cu_ioctl(fuse_req_t req, int cmd, void *arg,
		     struct fuse_file_info *fi, unsigned int flags,
		     const void *in_buf, size_t in_bufsz, size_t out_bufsz)
{
	struct front_cuse *fc = dev_of(req)->fc;
	struct cfile *cf = file_of(fi);
	unsigned int c = (unsigned int)cmd;
	uint8_t argbuf[256] __attribute__((aligned(8)));
	size_t in, out;
	int ret;

	/*
	 * A 32-bit application (FUSE_IOCTL_COMPAT): arg is its pointer or
	 * value, zero-extended, and retries take its 32-bit addresses.  Only
	 * FE_SET_PROPERTY and FE_GET_PROPERTY have another layout.
	 */
	if (cf->dev->kind == DEV_FE) {
		fe_ioctl(fc, cf, req, c, arg, in_buf, in_bufsz, out_bufsz,
			 flags & FUSE_IOCTL_COMPAT);
		return;
	}
	ret = vdmx_ioctl_size(c, cf->dev->kind == DEV_DVR, &in, &out);
	if (ret < 0) {
		fuse_reply_err(req, -ret);
		return;
	}
	if (in > sizeof(argbuf) || out > sizeof(argbuf)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (in_bufsz < in || out_bufsz < out) {
		struct iovec iin = { arg, in }, iout = { arg, out };

		fuse_reply_ioctl_retry(req, in ? &iin : NULL, in ? 1 : 0,
				       out ? &iout : NULL, out ? 1 : 0);
		return;
	}
	memset(argbuf, 0, sizeof(argbuf));
	if (in)		/* in_buf is NULL for an ioctl without input */
		memcpy(argbuf, in_buf, in);
	vdmx_tick(fc->dmx, now_ms());
	if (cf->dev->kind == DEV_DVR) {
		ret = vdmx_dvr_ioctl(fc->dmx, c, (unsigned long)arg);
	} else {
		ret = vdmx_ioctl(cf->flt, c, (unsigned long)arg, argbuf);
		if (ret == 0 && c == DMX_SET_FILTER)
			cf->section = true;
		else if (ret == 0 && c == DMX_SET_PES_FILTER)
			cf->section = false;
	}
	if (ret < 0)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_ioctl(req, 0, out ? argbuf : NULL, out);
	dmx_after(fc);
}

static void cu_poll(fuse_req_t req, struct fuse_file_info *fi,
		    struct fuse_pollhandle *ph)
{
	struct front_cuse *fc = dev_of(req)->fc;
	struct cfile *cf = file_of(fi);
	unsigned int mask = 0;

	switch (cf->dev->kind) {
	case DEV_FE:
		if (fc->ev_num || fc->ev_overflow)
			mask = POLLIN | POLLRDNORM | POLLPRI;
		break;
	case DEV_DMX:
		vdmx_tick(fc->dmx, now_ms());
		mask = vdmx_filter_poll(cf->flt);
		break;
	case DEV_DVR:
		mask = cf->dvr_reader ? vdmx_dvr_poll(fc->dmx) :
		       POLLOUT | POLLWRNORM;
		break;
	}
	/* kept for fuse_lowlevel_notify_poll() when data comes */
	if (ph) {
		if (cf->ph)
			fuse_pollhandle_destroy(cf->ph);
		cf->ph = ph;
	}
	fuse_reply_poll(req, mask);
}

static const struct cuse_lowlevel_ops cu_ops = {
	.open = cu_open,
	.release = cu_release,
	.read = cu_read,
	.write = cu_write,
	.ioctl = cu_ioctl,
	.poll = cu_poll,
};

/* ---- the front ----------------------------------------------------------- */

static int fcu_pollfds(struct vc_front *f, struct pollfd *pfd, int max)
{
	struct front_cuse *fc = FCU(f);
	int i, n = 0;

	/* the readers and pollers of what this round's TS brought */
	if (fc->fed)
		dmx_after(fc);
	for (i = 0; i < NUM_DEV && n < max; i++) {
		pfd[n].fd = fuse_session_fd(fc->dev[i].se);
		/* frontend0's calls one at a time, as dvb-core's semaphore */
		pfd[n].events = i == DEV_FE && fc->pending ? 0 : POLLIN;
		n++;
	}
	if (n < max)
		pfd[n++] = (struct pollfd){ .fd = fc->tfd, .events = POLLIN };
	return n;
}

static int dev_event(struct front_cuse *fc, struct cdev *d)
{
	int i, ret;

	/* a bounded number of requests a round: the TS goes on */
	for (i = 0; i < 64; i++) {
		if (d->kind == DEV_FE && fc->pending)
			return 0;
		ret = fuse_session_receive_buf(d->se, &d->buf);
		if (ret == -EAGAIN || ret == -EINTR)
			return 0;
		if (ret <= 0 || fuse_session_exited(d->se)) {
			vt_err("/dev/%s: CUSE session ended (%s)", d->name,
			       ret < 0 ? strerror(-ret) : "closed");
			return -1;
		}
		fuse_session_process_buf(d->se, &d->buf);
	}
	return 0;
}

static int fcu_events(struct vc_front *f, const struct pollfd *pfd, int n)
{
	struct front_cuse *fc = FCU(f);
	uint64_t ticks;
	int i;

	for (i = 0; i < n; i++) {
		if (!pfd[i].revents)
			continue;
		if (pfd[i].fd == fc->tfd) {
			if (read(fc->tfd, &ticks, sizeof(ticks)) < 0 &&
			    errno != EAGAIN)
				vt_debug("timerfd: %s", strerror(errno));
			fc->tfd_at = 0;
			vdmx_tick(fc->dmx, now_ms());
			dmx_after(fc);
			continue;
		}
		if (i < NUM_DEV && dev_event(fc, &fc->dev[i]) < 0)
			return -1;
	}
	return 0;
}

static void fcu_configure(struct vc_front *f, const struct vtp_tuner *t,
			  const char *name)
{
	struct front_cuse *fc = FCU(f);

	fc->tuner = *t;
	vt_text_escape(fc->name, sizeof(fc->name), name);
	fc->configured = true;
	vt_info("%s is now '%.127s'", f->path, fc->name);
}

static void fcu_status(struct vc_front *f, const struct vtp_status *s,
		       uint32_t seq)
{
	struct front_cuse *fc = FCU(f);

	if (seq && seq != fc->seq)
		return;		/* of an earlier tune */
	fc->st = *s;
	fc->have_status = seq != 0;
	/* dvb-core queues an event when the status changes */
	if (s->status != fc->last_fe_status) {
		fc->last_fe_status = s->status;
		event_add(fc, s->status);
	}
}

static int fcu_write_ts(struct vc_front *f, const uint8_t *data, size_t len)
{
	struct front_cuse *fc = FCU(f);

	vdmx_tick(fc->dmx, now_ms());
	vdmx_feed(fc->dmx, data, len);
	/*
	 * Woken readers are answered once a loop round (fcu_pollfds()), not
	 * after each frame: a round may bring many, and each answer is a
	 * system call and, for a blocking read, a copy more.
	 */
	fc->fed = true;
	return 0;
}

static void fcu_answer(struct vc_front *f)
{
	struct front_cuse *fc = FCU(f);
	fuse_req_t req = fc->pending;

	if (!req)
		return;
	if (fc->job.p) {
		fc->job.waiting = false;
		if (!fc->job.running)
			props_run(fc);
		return;
	}
	fc->pending = NULL;
	fuse_reply_ioctl(req, 0, NULL, 0);
}

static void fcu_free(struct vc_front *f)
{
	struct front_cuse *fc = FCU(f);
	int i;

	free(fc->job.p);	/* an FE_SET_PROPERTY in steps ends here */
	fc->job = (struct props_job){ 0 };
	fcu_answer(f);
	while (fc->waiters) {
		fuse_reply_err(fc->waiters->req, EIO);
		waiter_unlink(fc, fc->waiters);
	}
	while (fc->files) {
		if (fc->files->flt)
			vdmx_filter_close(fc->files->flt);
		file_unlink(fc, fc->files);
	}
	for (i = 0; i < NUM_DEV; i++) {
		/* not cuse_lowlevel_teardown(): the handlers are gone */
		if (fc->dev[i].se)
			fuse_session_destroy(fc->dev[i].se);
		free(fc->dev[i].buf.mem);
	}
	if (fc->tfd >= 0)
		close(fc->tfd);
	vdmx_free(fc->dmx);
	free(fc->pids);
	free(fc);
}

static const struct vc_front_ops fcu_ops = {
	.kind = "cuse",
	.pollfds = fcu_pollfds,
	.events = fcu_events,
	.configure = fcu_configure,
	.status = fcu_status,
	.write_ts = fcu_write_ts,
	.answer = fcu_answer,
	.free = fcu_free,
};

/* The first adapter number from 8 up that /dev/dvb does not have. */
static int free_adapter(void)
{
	char p[64];
	struct stat sb;
	int n;

	for (n = 8; n < 256; n++) {
		snprintf(p, sizeof(p), "/dev/dvb/adapter%d", n);
		if (stat(p, &sb) < 0 && errno == ENOENT)
			return n;
	}
	return -1;
}

static int dev_setup(struct front_cuse *fc, int kind)
{
	struct cdev *d = &fc->dev[kind];
	char devname[96];
	const char *dev_info[] = { devname };
	char *argv[] = { "vtunerc", "-f", "-s", NULL };
	struct cuse_info ci;
	int mt, fd;

	d->fc = fc;
	d->kind = kind;
	snprintf(d->name, sizeof(d->name), "dvb/adapter%d/%s", fc->adapter,
		 dev_names[kind]);
	/* devtmpfs makes dvb!adapterN!x (the kobject's name) a path */
	snprintf(devname, sizeof(devname), "DEVNAME=%s", d->name);
	memset(&ci, 0, sizeof(ci));
	ci.dev_info_argc = 1;
	ci.dev_info_argv = dev_info;
	ci.flags = CUSE_UNRESTRICTED_IOCTL;
	d->se = cuse_lowlevel_setup(3, argv, &ci, &cu_ops, &mt, d);
	if (!d->se) {
		vt_err("/dev/%s: cannot set up CUSE (is /dev/cuse there? "
		       "modprobe cuse)", d->name);
		return -1;
	}
	/* the core's signalfd has SIGINT and SIGTERM; SIGPIPE is ignored */
	fuse_remove_signal_handlers(d->se);
	signal(SIGPIPE, SIG_IGN);
	fd = fuse_session_fd(d->se);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return 0;
}

struct vc_front *vc_front_cuse_new(struct vc_client *cl,
				   const struct vc_opts *o,
				   struct vc_wanted *want)
{
	struct front_cuse *fc = calloc(1, sizeof(*fc));
	int i;

	(void)want;
	if (!fc) {
		vt_err("out of memory");
		return NULL;
	}
	fc->tfd = -1;
	fc->f.ops = &fcu_ops;
	fc->f.cl = cl;
	fc->delsys = SYS_UNDEFINED;
	fc->pids = calloc(1, sizeof(*fc->pids));
	fc->dmx = vdmx_new(NULL);
	fc->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (!fc->pids || !fc->dmx || fc->tfd < 0) {
		vt_err("out of memory");
		goto fail;
	}
	fc->adapter = o->cuse_adapter >= 0 ? o->cuse_adapter : free_adapter();
	if (fc->adapter < 0) {
		vt_err("no free adapter number under /dev/dvb");
		goto fail;
	}
	snprintf(fc->path, sizeof(fc->path), "/dev/dvb/adapter%d",
		 fc->adapter);
	fc->f.path = fc->path;
	for (i = 0; i < NUM_DEV; i++)
		if (dev_setup(fc, i) < 0)
			goto fail;
	return &fc->f;
fail:
	fcu_free(&fc->f);
	return NULL;
}

#else /* !HAVE_CUSE */

struct vc_front *vc_front_cuse_new(struct vc_client *cl,
				   const struct vc_opts *o,
				   struct vc_wanted *want)
{
	(void)cl;
	(void)o;
	(void)want;
	vt_err("--cuse: vtunerc is built without libfuse3");
	return NULL;
}

#endif
