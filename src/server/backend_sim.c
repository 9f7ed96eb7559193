// SPDX-License-Identifier: GPL-2.0
/*
 * backend_sim.c - simulated tuners (src/server/sim/): every tuner sees the
 * same world of transponders; a tune that matches one locks at once and
 * its TS generator produces packets at the nominal bit rate, paced by a
 * timerfd that fires every VTD_SIM_TICK_MS.  Only the requested PIDs are
 * returned.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/frontend.h>

#include "common/log.h"
#include "server/backend.h"

#ifdef VTD_HAVE_SIM

#include "server/sim/vts.h"

#define VTD_SIM_TICK_MS		10
#define VTD_SIM_FIRST_NS	1000000L	/* first tick after a lock */
/*
 * At most this much TS waits in the simulated tuner, as in the dvb
 * backend's dvr buffer (DMX_SET_BUFFER_SIZE 4 MiB), or a quarter of a
 * second of a faster transponder than real ones (the benchmarks' Gbit/s
 * files): a server that falls behind loses the excess instead of catching
 * up on an ever growing backlog, which a real tuner could not hand it
 * either.  Nothing is buffered: it is a count of packets due.
 */
#define VTD_SIM_BACKLOG_PKTS	((4u << 20) / VTS_TS_SIZE)
#define VTD_SIM_BACKLOG_DIV	4	/* 1/4 s */
#define VTD_SIM_SKIP_LOG_NS	10000000000ull

struct sim_tuner {
	struct vtd_tuner t;
	const struct vts_world *world;
	struct vts_frontend fe;
	struct vts_tune_params params;
	const struct vts_transponder *tp;	/* of mux */
	struct vts_mux *mux;
	int timer_fd;
	uint64_t skipped, skipped_logged, skip_log_ns;
	bool full_ts;
	uint8_t pidmap[8192 / 8];
};

static struct vts_world sim_world;
static bool sim_world_ready;
static unsigned int sim_users;

static struct sim_tuner *sim_of(struct vtd_tuner *t)
{
	return (struct sim_tuner *)t;
}

static void sim_stop_mux(struct sim_tuner *s)
{
	if (s->mux)
		vts_mux_free(s->mux);
	s->mux = NULL;
	s->tp = NULL;
}

/* Ticks every VTD_SIM_TICK_MS, the first after first_ns (0: a tick). */
static int sim_arm(struct sim_tuner *s, bool on, long first_ns)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	if (on) {
		its.it_interval.tv_nsec = VTD_SIM_TICK_MS * 1000000L;
		its.it_value = its.it_interval;
		if (first_ns > 0)
			its.it_value.tv_nsec = first_ns;
	}
	if (timerfd_settime(s->timer_fd, 0, &its, NULL) < 0)
		return -errno;
	return 0;
}

static int sim_open(struct vtd_tuner *t)
{
	struct sim_tuner *s = sim_of(t);

	vts_fe_init(&s->fe);
	vts_tune_params_init(&s->params);
	sim_stop_mux(s);
	s->full_ts = false;
	memset(s->pidmap, 0, sizeof(s->pidmap));
	return sim_arm(s, true, 0);
}

static void sim_close(struct vtd_tuner *t)
{
	struct sim_tuner *s = sim_of(t);

	sim_arm(s, false, 0);
	sim_stop_mux(s);
	vts_fe_init(&s->fe);
}

static bool sim_has_delsys(const struct sim_tuner *s, uint32_t d)
{
	unsigned int i;

	for (i = 0; i < s->t.info.num_delsys; i++)
		if (s->t.info.delsys[i] == d)
			return true;
	return false;
}

static int sim_tune(struct vtd_tuner *t, const struct vtp_prop *props,
		    unsigned int num)
{
	struct sim_tuner *s = sim_of(t);
	struct vts_tune_params *p = &s->params;
	const struct vts_transponder *tp;
	uint64_t now = vt_now_ns();
	char err[128];
	uint32_t code_rate_hp = FEC_AUTO;
	unsigned int i;

	/* As dvb-core: the cache starts from DTV_CLEAR, then the list. */
	vts_tune_params_init(p);
	for (i = 0; i < num; i++) {
		uint32_t v = props[i].data;

		switch (props[i].cmd) {
		case DTV_CLEAR:
			vts_tune_params_init(p);
			break;
		case DTV_DELIVERY_SYSTEM:
			p->delsys = v;
			break;
		case DTV_FREQUENCY:
			p->frequency = v;
			break;
		case DTV_SYMBOL_RATE:
			p->symbol_rate = v;
			break;
		case DTV_MODULATION:
			p->modulation = v;
			break;
		case DTV_INNER_FEC:
			p->fec = v;
			break;
		case DTV_ROLLOFF:
			p->rolloff = v;
			break;
		case DTV_PILOT:
			p->pilot = v;
			break;
		case DTV_STREAM_ID:
			p->stream_id = v;
			break;
		case DTV_BANDWIDTH_HZ:
			p->bandwidth_hz = v;
			break;
		case DTV_INVERSION:
			p->inversion = v;
			break;
		case DTV_CODE_RATE_HP:
			code_rate_hp = v;
			break;
		default:
			break;
		}
	}
	/*
	 * The code rate of DVB-T/T2 is DTV_CODE_RATE_HP; DTV_INNER_FEC
	 * belongs to satellite and cable, and a frontend's cache keeps
	 * whatever an earlier satellite tune left in it.
	 */
	if (p->delsys == SYS_DVBT || p->delsys == SYS_DVBT2)
		p->fec = code_rate_hp;
	sim_stop_mux(s);
	if (!sim_has_delsys(s, p->delsys)) {
		s->fe.locked = NULL;
		vt_info("%s: tune: delivery system %u not supported",
			t->where, p->delsys);
		return -EINVAL;
	}
	tp = vts_fe_tune(&s->fe, s->world, p, now);
	if (!tp) {
		vt_info("%s: tune %s %u: no transponder", t->where,
			vt_delsys_name(p->delsys), p->frequency);
		return 0;
	}
	s->mux = vts_mux_new(tp, time(NULL), now, err, sizeof(err));
	if (!s->mux) {
		vt_warn("%s: transponder %s: %s", t->where, tp->name, err);
		s->fe.locked = NULL;
		return -EIO;
	}
	s->tp = tp;
	/* the first TS 1 ms after the lock, not up to a tick later */
	sim_arm(s, true, VTD_SIM_FIRST_NS);
	vt_info("%s: locked on %s (%s %u, %u bit/s)", t->where, tp->name,
		vt_delsys_name(tp->delsys), tp->frequency,
		vts_mux_bitrate(s->mux));
	return 0;
}

static int sim_set_tone(struct vtd_tuner *t, unsigned int v)
{
	return vts_fe_set_tone(&sim_of(t)->fe, v);
}

static int sim_set_voltage(struct vtd_tuner *t, unsigned int v)
{
	return vts_fe_set_voltage(&sim_of(t)->fe, v);
}

static int sim_enable_high_voltage(struct vtd_tuner *t, unsigned int v)
{
	return vts_fe_enable_high_voltage(&sim_of(t)->fe, v != 0);
}

static int sim_diseqc_master(struct vtd_tuner *t, const uint8_t *msg,
			     size_t len)
{
	return vts_fe_diseqc(&sim_of(t)->fe, msg, len);
}

static int sim_diseqc_burst(struct vtd_tuner *t, unsigned int v)
{
	return vts_fe_burst(&sim_of(t)->fe, v);
}

static int sim_set_pids(struct vtd_tuner *t, const uint16_t *pids,
			size_t num, char *missing, size_t missing_len)
{
	struct sim_tuner *s = sim_of(t);
	size_t i;

	(void)missing;
	(void)missing_len;
	memset(s->pidmap, 0, sizeof(s->pidmap));
	s->full_ts = false;
	for (i = 0; i < num; i++) {
		if (pids[i] == VTP_PID_FULL_TS)
			s->full_ts = true;
		else if (pids[i] < 8192)
			s->pidmap[pids[i] >> 3] |= 1u << (pids[i] & 7);
	}
	return 0;
}

static void sim_stat(struct vtp_stats *st, uint8_t scale, uint64_t v)
{
	memset(st, 0, sizeof(*st));
	st->len = 1;
	st->stat[0].scale = scale;
	st->stat[0].uvalue = v;
}

static int sim_read_status(struct vtd_tuner *t, struct vtp_status *st,
			   bool full)
{
	struct sim_tuner *s = sim_of(t);
	struct vts_fe_stats fs;
	int64_t sig;
	bool lock;

	vts_fe_stats(&s->fe, vt_now_ns(), &fs);
	st->status = fs.status;
	if (!full)
		return 0;
	lock = fs.status & FE_HAS_LOCK;
	sim_stat(&st->stats[VTP_STAT_STRENGTH], FE_SCALE_DECIBEL,
		 (uint64_t)fs.strength_mdbm);
	if (lock) {
		sim_stat(&st->stats[VTP_STAT_CNR], FE_SCALE_DECIBEL,
			 (uint64_t)fs.cnr_mdb);
		sim_stat(&st->stats[VTP_STAT_PRE_BIT_ERROR], FE_SCALE_COUNTER,
			 fs.pre_err);
		sim_stat(&st->stats[VTP_STAT_PRE_BIT_COUNT], FE_SCALE_COUNTER,
			 fs.pre_total);
		sim_stat(&st->stats[VTP_STAT_POST_BIT_ERROR], FE_SCALE_COUNTER,
			 fs.post_err);
		sim_stat(&st->stats[VTP_STAT_POST_BIT_COUNT], FE_SCALE_COUNTER,
			 fs.post_total);
		sim_stat(&st->stats[VTP_STAT_BLOCK_ERROR], FE_SCALE_COUNTER,
			 fs.blk_err);
		sim_stat(&st->stats[VTP_STAT_BLOCK_COUNT], FE_SCALE_COUNTER,
			 fs.blk_total);
	} else {
		sim_stat(&st->stats[VTP_STAT_CNR], FE_SCALE_NOT_AVAILABLE, 0);
		memset(&st->stats[VTP_STAT_PRE_BIT_ERROR], 0,
		       sizeof(st->stats[0]) * (VTP_NUM_STATS - VTP_STAT_PRE_BIT_ERROR));
	}
	/* DVBv3: strength -100..0 dBm on 0..65535, SNR in 0.1 dB */
	sig = (fs.strength_mdbm + 100000) * 65535 / 100000;
	st->signal = sig < 0 ? 0 : sig > 65535 ? 65535 : (uint16_t)sig;
	st->snr = lock && fs.cnr_mdb > 0 ? (uint16_t)(fs.cnr_mdb / 100) : 0;
	st->ber = 0;
	st->ucblocks = (uint32_t)fs.blk_err;
	return 0;
}

static int sim_get_fd(struct vtd_tuner *t)
{
	return sim_of(t)->timer_fd;
}

static bool sim_wanted(const struct sim_tuner *s, const uint8_t *pkt)
{
	unsigned int pid = ((pkt[1] & 0x1f) << 8) | pkt[2];

	return s->full_ts || (s->pidmap[pid >> 3] & (1u << (pid & 7)));
}

/*
 * Nothing (more) due this tick: consume the timer's expirations, so that
 * the (level triggered) poll waits for the next tick.  Only then: while
 * more packets are due than a read takes, the undrained timer keeps the
 * server reading at once, and a wake-up costs one read() of the timer
 * instead of one a read_ts().
 */
static ssize_t sim_idle(struct sim_tuner *s)
{
	uint64_t expirations;

	if (read(s->timer_fd, &expirations, sizeof(expirations)) < 0 &&
	    errno != EAGAIN)
		return -errno;
	return -EAGAIN;
}

static ssize_t sim_read_ts(struct vtd_tuner *t, uint8_t *buf, size_t max)
{
	struct sim_tuner *s = sim_of(t);
	uint64_t due, now, limit, pps;
	size_t npkts, i, out;
	bool last;

	/* A SEC change or a failed tune dropped the lock. */
	if (s->mux && s->fe.locked != s->tp)
		sim_stop_mux(s);
	if (!s->mux)
		return sim_idle(s);
	now = vt_now_ns();
	pps = vts_mux_bitrate(s->mux) / (8 * VTS_TS_SIZE);
	limit = pps / VTD_SIM_BACKLOG_DIV;
	if (limit < VTD_SIM_BACKLOG_PKTS)
		limit = VTD_SIM_BACKLOG_PKTS;
	s->skipped += vts_mux_limit_backlog(s->mux, now, limit);
	if (s->skipped > s->skipped_logged &&
	    now - s->skip_log_ns >= VTD_SIM_SKIP_LOG_NS) {
		vt_warn("%s: TS not read in time: %llu packets lost so far "
			"(more than %llu KiB waiting)", t->where,
			(unsigned long long)s->skipped,
			(unsigned long long)(limit * VTS_TS_SIZE / 1024));
		s->skipped_logged = s->skipped;
		s->skip_log_ns = now;
	}
	for (;;) {
		due = vts_mux_due(s->mux, now);
		if (due == 0)
			return sim_idle(s);
		npkts = max / VTS_TS_SIZE;
		/*
		 * All that is due fits: this tick is done, and the next read
		 * waits for the next one (at a high rate a packet is due
		 * every few microseconds: left readable, the timer would
		 * keep the loop from ever sleeping, for reads of a few
		 * packets each).
		 */
		last = due <= npkts;
		if (npkts > due)
			npkts = due;
		vts_mux_fill(s->mux, buf, npkts);
		if (last && sim_idle(s) != -EAGAIN)
			vt_debug("%s: timer: %s", t->where, strerror(errno));
		if (s->full_ts)
			return (ssize_t)(npkts * VTS_TS_SIZE);
		for (i = 0, out = 0; i < npkts; i++) {
			const uint8_t *pkt = buf + i * VTS_TS_SIZE;

			if (!sim_wanted(s, pkt))
				continue;
			if (out != i)
				memmove(buf + out * VTS_TS_SIZE, pkt, VTS_TS_SIZE);
			out++;
		}
		if (out)
			return (ssize_t)(out * VTS_TS_SIZE);
		if (last)
			return -EAGAIN;
	}
}

static void sim_destroy(struct vtd_tuner *t)
{
	struct sim_tuner *s = sim_of(t);

	sim_stop_mux(s);
	if (s->timer_fd >= 0)
		close(s->timer_fd);
	free(s);
	if (--sim_users == 0 && sim_world_ready) {
		vts_mux_unload_files(&sim_world);
		vts_world_free(&sim_world);
		sim_world_ready = false;
	}
}

static const struct vtd_backend_ops sim_ops = {
	.open = sim_open,
	.close = sim_close,
	.tune = sim_tune,
	.set_tone = sim_set_tone,
	.set_voltage = sim_set_voltage,
	.enable_high_voltage = sim_enable_high_voltage,
	.diseqc_master = sim_diseqc_master,
	.diseqc_burst = sim_diseqc_burst,
	.set_pids = sim_set_pids,
	.read_status = sim_read_status,
	.get_fd = sim_get_fd,
	.read_ts = sim_read_ts,
	.flush_ts = NULL,
	.destroy = sim_destroy,
};

/*
 * By default every simulated tuner is a multi-standard one: satellite,
 * terrestrial, cable.  --sim-delsys makes them what a real tuner is, a
 * DVB-S/S2 card or a DVB-T/T2/C stick, say.
 */
static const uint8_t sim_delsys[] = {
	SYS_DVBS2, SYS_DVBS, SYS_DVBT2, SYS_DVBT, SYS_DVBC_ANNEX_A,
};

static bool sim_has_2g(const struct vtp_tuner *info)
{
	unsigned int i;

	for (i = 0; i < info->num_delsys; i++)
		if (info->delsys[i] == SYS_DVBS2 || info->delsys[i] == SYS_DVBT2)
			return true;
	return false;
}

static void sim_info(struct vtp_tuner *info, const struct vtd_sim_config *cfg,
		     unsigned int n)
{
	memset(info, 0, sizeof(*info));
	if (cfg->ndelsys) {
		info->num_delsys = (uint8_t)cfg->ndelsys;
		memcpy(info->delsys, cfg->delsys, cfg->ndelsys);
	} else {
		info->num_delsys = sizeof(sim_delsys);
		memcpy(info->delsys, sim_delsys, sizeof(sim_delsys));
	}
	info->caps = FE_CAN_INVERSION_AUTO | FE_CAN_FEC_1_2 | FE_CAN_FEC_2_3 |
		     FE_CAN_FEC_3_4 | FE_CAN_FEC_4_5 | FE_CAN_FEC_5_6 |
		     FE_CAN_FEC_6_7 | FE_CAN_FEC_7_8 | FE_CAN_FEC_8_9 |
		     FE_CAN_FEC_AUTO | FE_CAN_QPSK | FE_CAN_QAM_16 |
		     FE_CAN_QAM_32 | FE_CAN_QAM_64 | FE_CAN_QAM_128 |
		     FE_CAN_QAM_256 | FE_CAN_QAM_AUTO |
		     FE_CAN_TRANSMISSION_MODE_AUTO | FE_CAN_BANDWIDTH_AUTO |
		     FE_CAN_GUARD_INTERVAL_AUTO | FE_CAN_HIERARCHY_AUTO;
	if (sim_has_2g(info))
		info->caps |= FE_CAN_2G_MODULATION | FE_CAN_MULTISTREAM;
	/* the limits of delsys[0]'s kind, in its unit (dvb_frontend_info) */
	if (vt_delsys_is_sat(info->delsys[0])) {
		info->freq_min = 950000;	/* kHz, the LNB's IF */
		info->freq_max = 2150000;
		info->freq_step = 1000;
		info->freq_tolerance = 5000;
	} else {
		info->freq_min = 40000000;	/* Hz, as the sim world's */
		info->freq_max = 900000000;
		info->freq_step = 62500;
		info->freq_tolerance = 0;
	}
	info->srate_min = 1000000;
	info->srate_max = 45000000;
	info->srate_tolerance = 0;
	snprintf(info->name, sizeof(info->name), "vtuner simulated tuner %u", n);
}

int vtd_sim_set_delsys(struct vtd_sim_config *cfg, const char *list,
		       char *err, size_t errlen)
{
	char buf[128], *tok, *save = NULL;
	enum fe_delivery_system d;
	unsigned int n = 0, i;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "--sim-delsys: list too long");
		return -1;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		if (vts_delsys_parse(tok, &d) < 0) {
			snprintf(err, errlen, "--sim-delsys: unknown delivery "
				 "system '%s' (DVBS2, DVBS, DVBT2, DVBT or "
				 "DVBC)", tok);
			return -1;
		}
		for (i = 0; i < n; i++) {
			if (cfg->delsys[i] == d) {
				snprintf(err, errlen, "--sim-delsys: %s twice",
					 vt_delsys_name(d));
				return -1;
			}
		}
		cfg->delsys[n++] = (uint8_t)d;	/* at most 5 distinct */
	}
	if (!n) {
		snprintf(err, errlen, "--sim-delsys: no delivery system");
		return -1;
	}
	cfg->ndelsys = n;
	return 0;
}

bool vtd_sim_available(void)
{
	return true;
}

size_t vtd_sim_services(void (*cb)(void *ctx, const struct vtd_service *s),
			void *ctx)
{
	struct vtd_service v;
	size_t i, j, n = 0;

	if (!sim_world_ready)
		return 0;
	for (i = 0; i < sim_world.ntp; i++) {
		const struct vts_transponder *tp = &sim_world.tp[i];

		for (j = 0; j < tp->nservices; j++) {
			const struct vts_service *svc = &tp->services[j];

			memset(&v, 0, sizeof(v));
			v.name = svc->name;
			v.delsys = tp->delsys;
			v.frequency = tp->frequency;
			v.symbol_rate = tp->symbol_rate;
			v.modulation = tp->modulation;
			v.fec = tp->fec;
			v.rolloff = tp->rolloff;
			v.bandwidth_hz = tp->bandwidth_hz;
			v.plp = tp->plp;
			v.horizontal = tp->pol == VTS_POL_H;
			v.position = tp->position;
			v.pids[v.npids++] = svc->pmt_pid;
			if (svc->video_pid)
				v.pids[v.npids++] = svc->video_pid;
			v.pids[v.npids++] = svc->audio_pid;
			cb(ctx, &v);
			n++;
		}
	}
	return n;
}

/*
 * The world of cfg: the built-in transponders, those of cfg->config and,
 * with load_files, every ts_file of them read into memory.  0, or -1 with
 * the message in err and w freed.  Startup and --check build it here, so
 * that a config --check passes is one startup accepts.
 */
static int sim_world_build(struct vts_world *w,
			   const struct vtd_sim_config *cfg, bool load_files,
			   char *err, size_t errlen)
{
	char why[512];

	vts_world_init(w);
	if (vts_world_default(w) < 0) {
		snprintf(err, errlen, "sim: out of memory");
		goto fail;
	}
	if (cfg->config && vts_world_load(w, cfg->config, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "--sim-config: %s", why);
		goto fail;
	}
	/* read now: in a tune it would stall every stream of the loop */
	if (load_files && vts_mux_load_files(w, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "--sim-config %s: %s",
			 cfg->config ? cfg->config : "-", why);
		goto fail;
	}
	return 0;
fail:
	vts_world_free(w);
	return -1;
}

int vtd_sim_add(struct vtd_tuners *ts, const struct vtd_sim_config *cfg)
{
	char err[640];
	unsigned int i;

	if (!sim_world_ready) {
		if (sim_world_build(&sim_world, cfg, !cfg->tuners_only, err,
				    sizeof(err)) < 0) {
			vt_err("%s", err);
			return -1;
		}
		sim_world_ready = true;
		vt_debug("sim: %zu transponders", sim_world.ntp);
	}
	for (i = 0; i < cfg->tuners; i++) {
		struct sim_tuner *s = calloc(1, sizeof(*s));

		if (!s) {
			vt_err("sim: out of memory");
			return -1;
		}
		s->timer_fd = timerfd_create(CLOCK_MONOTONIC,
					     TFD_NONBLOCK | TFD_CLOEXEC);
		if (s->timer_fd < 0) {
			vt_err("sim: timerfd_create: %s", strerror(errno));
			free(s);
			return -1;
		}
		s->world = &sim_world;
		s->t.ops = &sim_ops;
		s->t.backend = "sim";
		s->t.priv = s;
		snprintf(s->t.where, sizeof(s->t.where), "sim%u", i);
		sim_info(&s->t.info, cfg, i);
		vts_fe_init(&s->fe);
		if (vtd_tuners_add(ts, &s->t) < 0) {
			vt_err("sim: more than %d tuners", VTD_MAX_TUNERS);
			close(s->timer_fd);
			free(s);
			return -1;
		}
		sim_users++;
	}
	return 0;
}

int vtd_sim_check(const struct vtd_sim_config *cfg, char *err, size_t errlen)
{
	struct vts_world w;

	if (sim_world_build(&w, cfg, true, err, errlen) < 0)
		return -1;
	vts_mux_unload_files(&w);
	vts_world_free(&w);
	return 0;
}

#else /* !VTD_HAVE_SIM */

bool vtd_sim_available(void)
{
	return false;
}

size_t vtd_sim_services(void (*cb)(void *ctx, const struct vtd_service *s),
			void *ctx)
{
	(void)cb;
	(void)ctx;
	return 0;
}

int vtd_sim_add(struct vtd_tuners *ts, const struct vtd_sim_config *cfg)
{
	(void)ts;
	(void)cfg;
	vt_err("sim: this vtunerd was built without the simulated tuner");
	return -1;
}

int vtd_sim_check(const struct vtd_sim_config *cfg, char *err, size_t errlen)
{
	(void)cfg;
	snprintf(err, errlen, "built without the simulated tuner");
	return -1;
}

int vtd_sim_set_delsys(struct vtd_sim_config *cfg, const char *list,
		       char *err, size_t errlen)
{
	(void)cfg;
	(void)list;
	snprintf(err, errlen, "--sim-delsys: built without the simulated "
		 "tuner");
	return -1;
}

#endif
