/*
 * vt-testtuner - a scriptable test tuner for vtunerc.
 *
 * Opens /dev/vtunercN, configures the virtual frontend, answers every
 * message, logs one line per message, reports a lock when the tune matches
 * the configured conditions and then writes a TS file into the device.
 * Run with --help for the options; tests/tuner/README describes the log.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vtuner.h"
#include "common/dvb.h"
#include "vtcommon.h"

#define TS_PKT		188
#define TS_CHUNK	(348 * TS_PKT)	/* 65424: 64 KiB rounded to packets */
#define STATUS_PERIOD_MS 500
#define MAX_DELSYS	VTUNER_EXT_MAX_DELSYS

#define FE_ALL_LOCK (FE_HAS_SIGNAL | FE_HAS_CARRIER | FE_HAS_VITERBI | \
		     FE_HAS_SYNC | FE_HAS_LOCK)

/* ---- options ----------------------------------------------------------- */

static struct {
	const char *dev;
	const char *name;
	int delsys[MAX_DELSYS];
	int ndelsys;
	int classic;
	uint32_t features;
	uint64_t freq;			/* 0: any */
	uint64_t tolerance;		/* 0: default */
	int lock_delsys;		/* -1: any */
	uint64_t symbol_rate;		/* 0: any */
	int tone;			/* -1: any, else SEC_TONE_* */
	int voltage;			/* -1: any, else SEC_VOLTAGE_* */
	int lock_delay_ms;
	const char *ts_file;
	int loop;
	uint64_t rate;			/* bit/s, 0: as fast as possible */
	uint64_t backlog;		/* bytes late before skipping, 0: never */
	unsigned int tick_ms;		/* --tick: write what is due every MS */
	int ts_start_delay_ms;
	int wait_pids;
	const char *log_file;
	uint64_t exit_after_msgs;
	double exit_after;
	const char *ready_file;
	const char *has_outputs;
	int no_fe_info;
	int strength_relative;
	int answer_delay_ms;
	uint32_t ignore_mask;		/* 1 << MSG_*: log, never answer */
	int die_on;			/* MSG_* that kills this process, or -1 */
	int verbose;
} opt = {
	.dev = "/dev/vtunerc0",
	.name = "vtuner test tuner",
	.features = VTUNER_FEAT_ALL,
	.lock_delsys = -1,
	.tone = -1,
	.voltage = -1,
	.die_on = -1,
};

/* ---- state ------------------------------------------------------------- */

/* Tuning parameters, in DVBv5 terms, whichever ABI they came from. */
enum {
	P_DELSYS, P_FREQ, P_SR, P_FEC, P_MOD, P_ROLLOFF, P_PILOT, P_STREAM_ID,
	P_INVERSION, P_BW, P_CR_HP, P_CR_LP, P_GUARD, P_TMODE, P_HIER, P_NUM
};

static const struct {
	const char *key;
	unsigned int cmd;
} pkeys[P_NUM] = {
	[P_DELSYS]	= { "delsys", DTV_DELIVERY_SYSTEM },
	[P_FREQ]	= { "freq", DTV_FREQUENCY },
	[P_SR]		= { "sr", DTV_SYMBOL_RATE },
	[P_FEC]		= { "fec", DTV_INNER_FEC },
	[P_MOD]		= { "mod", DTV_MODULATION },
	[P_ROLLOFF]	= { "rolloff", DTV_ROLLOFF },
	[P_PILOT]	= { "pilot", DTV_PILOT },
	[P_STREAM_ID]	= { "stream_id", DTV_STREAM_ID },
	[P_INVERSION]	= { "inversion", DTV_INVERSION },
	[P_BW]		= { "bw", DTV_BANDWIDTH_HZ },
	[P_CR_HP]	= { "code_rate_hp", DTV_CODE_RATE_HP },
	[P_CR_LP]	= { "code_rate_lp", DTV_CODE_RATE_LP },
	[P_GUARD]	= { "guard", DTV_GUARD_INTERVAL },
	[P_TMODE]	= { "tmode", DTV_TRANSMISSION_MODE },
	[P_HIER]	= { "hierarchy", DTV_HIERARCHY },
};

struct tune {
	int valid;
	uint32_t present;		/* 1 << P_* */
	uint32_t v[P_NUM];
};

static struct {
	int fd;
	FILE *log;
	int ext;			/* HELLO done */
	uint32_t granted;
	int type_sys;			/* delsys of the classic type */
	struct vtuner_message last_fe;	/* last MSG_SET_FRONTEND */
	int have_fe;
	struct tune tune;
	uint32_t tune_seq;		/* seq of EXT_GET_TUNE, 0: unknown */
	int64_t tune_ms;
	int tone, voltage;
	int locked;
	uint32_t status;
	int64_t lock_ms;
	int64_t last_push_ms;
	int push_needed;
	uint64_t nmsgs;
	uint64_t answer_errors;
	int npids;
	/* TS source */
	int ts_fd;
	int ts_done;
	uint8_t *buf;
	size_t buf_len, buf_off;
	uint64_t ts_bytes;
	int writing;
	int64_t pace_start_ms;
	uint64_t pace_bytes;
	uint64_t late_bytes;		/* skipped by --backlog */
	int64_t last_tick_ms;		/* --tick: when the last tick began */
	int in_tick;			/* --tick: writing what it made due */
} st = { .fd = -1, .ts_fd = -1, .tone = -1, .voltage = -1 };

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* ---- log --------------------------------------------------------------- */

static char linebuf[8192];
static size_t linelen;

static void lf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void lf(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (linelen >= sizeof(linebuf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(linebuf + linelen, sizeof(linebuf) - linelen, fmt, ap);
	va_end(ap);
	if (n > 0)
		linelen += (size_t)n < sizeof(linebuf) - linelen ? (size_t)n :
			   sizeof(linebuf) - linelen - 1;
}

static void lend(void)
{
	if (st.log) {
		fprintf(st.log, "%s\n", linebuf);
		fflush(st.log);
	}
	if (opt.verbose)
		fprintf(stderr, "%s: %s\n", progname, linebuf);
	linelen = 0;
	linebuf[0] = 0;
}

/* ---- classic DVB-S2 packing -------------------------------------------- */

/* packed code (1..9) <-> enum fe_code_rate */
static const uint32_t s2_code_fec[10] = {
	FEC_AUTO, FEC_1_2, FEC_2_3, FEC_3_4, FEC_5_6, FEC_7_8, FEC_8_9,
	FEC_3_5, FEC_4_5, FEC_9_10,
};

static uint32_t s2_pack_fec(uint32_t fec, uint32_t mod)
{
	uint32_t code = 0, i;

	for (i = 1; i < ARRAY_SIZE(s2_code_fec); i++)
		if (s2_code_fec[i] == fec)
			code = i;
	return VTUNER_S2_FEC_BASE + (mod == PSK_8 ? VTUNER_S2_FEC_8PSK : 0) + code;
}

static uint8_t s2_pack_inversion(uint32_t inv, uint32_t rolloff, uint32_t pilot)
{
	uint8_t v = inv & 3;

	if (rolloff == ROLLOFF_20)
		v |= VTUNER_S2_ROLLOFF_20;
	else if (rolloff == ROLLOFF_25)
		v |= VTUNER_S2_ROLLOFF_25;
	if (pilot == PILOT_ON)
		v |= VTUNER_S2_PILOT_ON;
	else if (pilot == PILOT_AUTO)
		v |= VTUNER_S2_PILOT_AUTO;
	return v;
}

static uint32_t bw_hz(uint32_t bw)
{
	switch (bw) {
	case BANDWIDTH_8_MHZ:	return 8000000;
	case BANDWIDTH_7_MHZ:	return 7000000;
	case BANDWIDTH_6_MHZ:	return 6000000;
	case BANDWIDTH_5_MHZ:	return 5000000;
	case BANDWIDTH_10_MHZ:	return 10000000;
	case BANDWIDTH_1_712_MHZ: return 1712000;
	default:		return 0;	/* auto */
	}
}

static void tset(struct tune *t, int p, uint32_t v)
{
	t->present |= 1U << p;
	t->v[p] = v;
}

/* Decode a classic MSG_SET_FRONTEND for a frontend of delivery system
 * type_sys (the classic type, or the one of MSG_TYPE_CHANGED). */
static void decode_classic(const struct vtuner_message *m, int type_sys, struct tune *t)
{
	const __typeof__(m->body.fe_params) *fe = &m->body.fe_params;

	memset(t, 0, sizeof(*t));
	t->valid = 1;
	tset(t, P_FREQ, fe->frequency);
	if (vt_delsys_is_sat(type_sys)) {
		uint32_t f = fe->u.qpsk.fec_inner;

		tset(t, P_SR, fe->u.qpsk.symbol_rate);
		if (f >= VTUNER_S2_FEC_BASE) {
			uint32_t code = f - VTUNER_S2_FEC_BASE, mod = QPSK;
			uint8_t inv = fe->inversion;

			if (code > 9) {
				code -= VTUNER_S2_FEC_8PSK;
				mod = PSK_8;
			}
			tset(t, P_DELSYS, SYS_DVBS2);
			tset(t, P_FEC, code < ARRAY_SIZE(s2_code_fec) ?
			     s2_code_fec[code] : FEC_AUTO);
			tset(t, P_MOD, mod);
			tset(t, P_ROLLOFF, inv & VTUNER_S2_ROLLOFF_20 ? ROLLOFF_20 :
			     inv & VTUNER_S2_ROLLOFF_25 ? ROLLOFF_25 : ROLLOFF_35);
			tset(t, P_PILOT, inv & VTUNER_S2_PILOT_ON ? PILOT_ON :
			     inv & VTUNER_S2_PILOT_AUTO ? PILOT_AUTO : PILOT_OFF);
			tset(t, P_INVERSION, inv & 3);
		} else {
			tset(t, P_DELSYS, SYS_DVBS);
			tset(t, P_FEC, f);
			tset(t, P_MOD, QPSK);
			tset(t, P_ROLLOFF, ROLLOFF_35);
			tset(t, P_INVERSION, fe->inversion);
		}
	} else if (delsys_is_cable(type_sys)) {
		tset(t, P_DELSYS, type_sys);
		tset(t, P_SR, fe->u.qam.symbol_rate);
		tset(t, P_FEC, fe->u.qam.fec_inner);
		tset(t, P_MOD, fe->u.qam.modulation);
		tset(t, P_INVERSION, fe->inversion);
	} else if (type_sys == SYS_ATSC || type_sys == SYS_ATSCMH) {
		tset(t, P_DELSYS, type_sys);
		tset(t, P_MOD, fe->u.vsb.modulation);
		tset(t, P_INVERSION, fe->inversion);
	} else {
		tset(t, P_DELSYS, type_sys);
		tset(t, P_BW, bw_hz(fe->u.ofdm.bandwidth));
		tset(t, P_CR_HP, fe->u.ofdm.code_rate_HP);
		tset(t, P_CR_LP, fe->u.ofdm.code_rate_LP);
		tset(t, P_MOD, fe->u.ofdm.constellation);
		tset(t, P_TMODE, fe->u.ofdm.transmission_mode);
		tset(t, P_GUARD, fe->u.ofdm.guard_interval);
		tset(t, P_HIER, fe->u.ofdm.hierarchy_information);
		tset(t, P_INVERSION, fe->inversion);
	}
}

static void decode_props(const struct vtuner_ext_tune *et, struct tune *t)
{
	uint32_t i, n = et->num < VTUNER_EXT_MAX_PROPS ? et->num : VTUNER_EXT_MAX_PROPS;
	int p;

	memset(t, 0, sizeof(*t));
	t->valid = 1;
	for (i = 0; i < n; i++)
		for (p = 0; p < P_NUM; p++)
			if (pkeys[p].cmd == et->props[i].cmd)
				tset(t, p, et->props[i].data);
}

static void log_tune_keys(const struct tune *t)
{
	int p;

	for (p = 0; p < P_NUM; p++)
		if (t->present & (1U << p))
			lf(" %s=%" PRIu32, pkeys[p].key, t->v[p]);
}

/* ---- lock logic -------------------------------------------------------- */

/* --freq may be given in Hz or kHz; bring it to the unit of the tune
 * (kHz for satellite, Hz otherwise). */
static uint64_t want_freq(uint64_t f, int sys)
{
	if (vt_delsys_is_sat(sys)) {
		if (f > 100000000ULL)	/* > 100 GHz in kHz: it was Hz */
			f /= 1000;
	} else if (f && f < 10000000ULL) {	/* < 10 MHz in Hz: kHz */
		f *= 1000;
	}
	return f;
}

static uint64_t default_tolerance(int sys)
{
	return vt_delsys_is_sat(sys) ? 3000 /* kHz */ : 1000000 /* Hz */;
}

static int tune_matches(const struct tune *t, int tone, int voltage)
{
	int sys = (t->present & (1U << P_DELSYS)) ? (int)t->v[P_DELSYS] : st.type_sys;

	if (!t->valid)
		return 0;
	if (opt.lock_delsys >= 0 && sys != opt.lock_delsys)
		return 0;
	if (opt.freq) {
		uint64_t f = want_freq(opt.freq, sys);
		uint64_t tol = opt.tolerance ? opt.tolerance : default_tolerance(sys);
		uint64_t have = t->v[P_FREQ];

		if (!(t->present & (1U << P_FREQ)))
			return 0;
		if ((have > f ? have - f : f - have) > tol)
			return 0;
	}
	if (vt_delsys_is_sat(sys)) {
		if (opt.symbol_rate) {
			uint64_t sr = t->v[P_SR], tol = opt.symbol_rate / 200;

			if (!(t->present & (1U << P_SR)))
				return 0;
			if ((sr > opt.symbol_rate ? sr - opt.symbol_rate :
			     opt.symbol_rate - sr) > tol)
				return 0;
		}
		if (opt.tone >= 0 && tone != opt.tone)
			return 0;
		if (opt.voltage >= 0 && voltage != opt.voltage)
			return 0;
	}
	return 1;
}

/* Returns the time (ms) at which the lock must be evaluated again, or -1. */
static int64_t update_lock(int64_t now)
{
	int match = tune_matches(&st.tune, st.tone, st.voltage);
	int locked = match && now >= st.tune_ms + opt.lock_delay_ms;

	if (locked != st.locked) {
		st.locked = locked;
		st.status = locked ? FE_ALL_LOCK : 0;
		st.lock_ms = now;
		st.push_needed = 1;
		lf("LOCK %d status=0x%02x", locked, st.status);
		lend();
	}
	if (match && !locked)
		return st.tune_ms + opt.lock_delay_ms;
	return -1;
}

/* ---- statistics -------------------------------------------------------- */

#define BITRATE 50000000ULL	/* bit/s the counters pretend to receive */

static void stat_na(struct dtv_fe_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->len = 1;
	s->stat[0].scale = FE_SCALE_NOT_AVAILABLE;
}

static void stat_db(struct dtv_fe_stats *s, int64_t v)
{
	memset(s, 0, sizeof(*s));
	s->len = 1;
	s->stat[0].scale = FE_SCALE_DECIBEL;
	s->stat[0].svalue = v;
}

static void stat_u(struct dtv_fe_stats *s, int scale, uint64_t v)
{
	memset(s, 0, sizeof(*s));
	s->len = 1;
	s->stat[0].scale = scale;
	s->stat[0].uvalue = v;
}

static void make_status(struct vtuner_ext_status *s, int64_t now)
{
	memset(s, 0, sizeof(*s));
	if (!st.locked) {
		stat_na(&s->strength);
		stat_na(&s->cnr);
		stat_na(&s->pre_bit_error);
		stat_na(&s->pre_bit_count);
		stat_na(&s->post_bit_error);
		stat_na(&s->post_bit_count);
		stat_na(&s->block_error);
		stat_na(&s->block_count);
		return;
	}
	uint64_t ms = (uint64_t)(now - st.lock_ms) + 1;
	uint64_t bits = BITRATE / 1000 * ms;
	uint64_t pre_err = bits / 1000000 + 1;	/* BER 1e-6 */
	uint64_t post_err = pre_err / 10;
	uint64_t blocks = bits / (TS_PKT * 8);
	uint64_t blk_err = post_err / 16;

	s->status = st.status;
	s->ber = 12;
	s->signal = 0xc000;
	s->snr = 0x7b00;
	s->ucblocks = 1 + (uint32_t)blk_err;
	if (opt.strength_relative)
		stat_u(&s->strength, FE_SCALE_RELATIVE, 0xc000);
	else
		stat_db(&s->strength, -40000);	/* -40 dBm */
	stat_db(&s->cnr, 12300);		/* 12.3 dB */
	stat_u(&s->pre_bit_error, FE_SCALE_COUNTER, pre_err);
	stat_u(&s->pre_bit_count, FE_SCALE_COUNTER, bits);
	stat_u(&s->post_bit_error, FE_SCALE_COUNTER, post_err);
	stat_u(&s->post_bit_count, FE_SCALE_COUNTER, bits);
	stat_u(&s->block_error, FE_SCALE_COUNTER, blk_err);
	stat_u(&s->block_count, FE_SCALE_COUNTER, blocks);
}

static void push_status(int64_t now)
{
	struct vtuner_ext_status s;

	if (!st.ext || !(st.granted & VTUNER_FEAT_STATUS))
		return;
	make_status(&s, now);
	s.tune_seq = st.tune_seq;
	/* ESTALE: a newer tune arrived meanwhile; its message comes next */
	if (ioctl(st.fd, VTUNER_EXT_SET_STATUS, &s) < 0 && errno != ESTALE)
		warn_errno("%s: VTUNER_EXT_SET_STATUS", opt.dev);
	st.last_push_ms = now;
	st.push_needed = 0;
}

/* ---- messages ---------------------------------------------------------- */

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static void handle_pidlist(struct vtuner_message *m)
{
	uint16_t pids[VTUNER_EXT_MAX_PIDS];
	int n = 0, i;

	if (st.ext && (st.granted & VTUNER_FEAT_PIDS)) {
		struct vtuner_ext_pids p;

		memset(&p, 0, sizeof(p));
		if (ioctl(st.fd, VTUNER_EXT_GET_PIDS, &p) == 0) {
			n = p.num > VTUNER_EXT_MAX_PIDS ? VTUNER_EXT_MAX_PIDS : (int)p.num;
			memcpy(pids, p.pids, n * sizeof(pids[0]));
		} else {
			warn_errno("%s: VTUNER_EXT_GET_PIDS", opt.dev);
			n = -1;
		}
	}
	if (n < 0 || !(st.ext && (st.granted & VTUNER_FEAT_PIDS))) {
		n = 0;
		for (i = 0; i < VTUNER_CLASSIC_PIDS; i++)
			if (m->body.pidlist[i] != VTUNER_PID_NONE)
				pids[n++] = m->body.pidlist[i];
	}
	qsort(pids, n, sizeof(pids[0]), cmp_u16);
	lf("PIDLIST");
	for (i = 0; i < n; i++)
		lf(" %u", pids[i]);
	lend();
	st.npids = n;
}

static void handle_set_frontend(struct vtuner_message *m, int64_t now)
{
	const __typeof__(m->body.fe_params) *fe = &m->body.fe_params;
	struct tune t;
	int done = 0;

	st.last_fe = *m;
	st.have_fe = 1;
	lf("SET_FRONTEND");
	if (st.ext && (st.granted & VTUNER_FEAT_PROPS)) {
		struct vtuner_ext_tune et;

		memset(&et, 0, sizeof(et));
		if (ioctl(st.fd, VTUNER_EXT_GET_TUNE, &et) == 0) {
			uint32_t i, n = et.num < VTUNER_EXT_MAX_PROPS ? et.num :
					VTUNER_EXT_MAX_PROPS;

			decode_props(&et, &t);
			st.tune_seq = et.seq;
			lf(" seq=%" PRIu32, et.seq);
			log_tune_keys(&t);
			for (i = 0; i < n; i++) {
				const char *nm = dtv_cmd_name(et.props[i].cmd);

				if (nm)
					lf(" %s=%" PRIu32, nm, et.props[i].data);
				else
					lf(" DTV_%" PRIu32 "=%" PRIu32, et.props[i].cmd,
					   et.props[i].data);
			}
			done = 1;
		} else {
			warn_errno("%s: VTUNER_EXT_GET_TUNE", opt.dev);
		}
	}
	if (!done) {
		st.tune_seq = 0;
		decode_classic(m, st.type_sys, &t);
		log_tune_keys(&t);
		lf(" raw.frequency=%" PRIu32 " raw.inversion=0x%02x", fe->frequency,
		   fe->inversion);
		if (vt_delsys_is_sat(st.type_sys))
			lf(" raw.symbol_rate=%u raw.fec_inner=%u",
			   fe->u.qpsk.symbol_rate, fe->u.qpsk.fec_inner);
		else if (delsys_is_cable(st.type_sys))
			lf(" raw.symbol_rate=%u raw.fec_inner=%u raw.modulation=%u",
			   fe->u.qam.symbol_rate, fe->u.qam.fec_inner,
			   fe->u.qam.modulation);
		else if (st.type_sys == SYS_ATSC || st.type_sys == SYS_ATSCMH)
			lf(" raw.modulation=%u", fe->u.vsb.modulation);
		else
			lf(" raw.bandwidth=%u raw.code_rate_HP=%u raw.code_rate_LP=%u"
			   " raw.constellation=%u raw.transmission_mode=%u"
			   " raw.guard_interval=%u raw.hierarchy_information=%u",
			   fe->u.ofdm.bandwidth, fe->u.ofdm.code_rate_HP,
			   fe->u.ofdm.code_rate_LP, fe->u.ofdm.constellation,
			   fe->u.ofdm.transmission_mode, fe->u.ofdm.guard_interval,
			   fe->u.ofdm.hierarchy_information);
	}
	lend();
	st.tune = t;
	st.tune_ms = now;
	/* the driver clears its status cache on a tune: push a new one */
	st.push_needed = 1;
	/* a new tune always drops the lock first */
	if (st.locked) {
		st.locked = 0;
		st.status = 0;
		st.push_needed = 1;
		lf("LOCK 0 status=0x00");
		lend();
	}
}

/* Log a message, fill the answer; returns 1 if it must be answered. */
static int handle_msg(struct vtuner_message *m, int64_t now)
{
	struct vtuner_ext_status s;
	int i;

	make_status(&s, now);
	switch (m->type) {
	case MSG_SET_FRONTEND:
		handle_set_frontend(m, now);
		break;
	case MSG_GET_FRONTEND:
		lf("GET_FRONTEND");
		lend();
		if (st.have_fe)
			m->body.fe_params = st.last_fe.body.fe_params;
		break;
	case MSG_READ_STATUS:
		lf("READ_STATUS");
		lend();
		m->body.status = s.status;
		break;
	case MSG_READ_BER:
		lf("READ_BER");
		lend();
		m->body.ber = s.ber;
		break;
	case MSG_READ_SIGNAL_STRENGTH:
		lf("READ_SIGNAL_STRENGTH");
		lend();
		m->body.ss = s.signal;
		break;
	case MSG_READ_SNR:
		lf("READ_SNR");
		lend();
		m->body.snr = s.snr;
		break;
	case MSG_READ_UCBLOCKS:
		lf("READ_UCBLOCKS");
		lend();
		m->body.ucb = s.ucblocks;
		break;
	case MSG_SET_TONE:
		lf("TONE %u", m->body.tone);
		lend();
		st.tone = m->body.tone;
		break;
	case MSG_SET_VOLTAGE:
		lf("VOLTAGE %u", m->body.voltage);
		lend();
		st.voltage = m->body.voltage;
		break;
	case MSG_ENABLE_HIGH_VOLTAGE:
		lf("HIGHVOLTAGE %u", m->body.voltage);
		lend();
		break;
	case MSG_SEND_DISEQC_MSG: {
		int n = m->body.diseqc_master_cmd.msg_len;

		lf("DISEQC");
		for (i = 0; i < n && i < 6; i++)
			lf(" %02x", m->body.diseqc_master_cmd.msg[i]);
		if (n > 6)
			lf(" len=%d", n);
		lend();
		break;
	}
	case MSG_SEND_DISEQC_BURST:
		lf("BURST %u", m->body.burst);
		lend();
		break;
	case MSG_PIDLIST:
		handle_pidlist(m);
		return 0;
	case MSG_TYPE_CHANGED:
		lf("TYPE_CHANGED %u", m->body.type_changed);
		lend();
		switch (m->body.type_changed) {
		case VT_S:  st.type_sys = SYS_DVBS; break;
		case VT_S2: st.type_sys = SYS_DVBS2; break;
		case VT_C:  st.type_sys = SYS_DVBC_ANNEX_A; break;
		case VT_T:  st.type_sys = SYS_DVBT; break;
		}
		break;
	case MSG_SET_PROPERTY:
		lf("SET_PROPERTY cmd=%u data=%u", m->body.prop.cmd, m->body.prop.u.data);
		lend();
		break;
	case MSG_GET_PROPERTY:
		lf("GET_PROPERTY cmd=%u", m->body.prop.cmd);
		lend();
		break;
	default:
		lf("MSG type=%d", m->type);
		lend();
		break;
	}
	return 1;
}

static void drain_messages(void)
{
	int k;

	for (k = 0; k < 64 && !stop_signal; k++) {
		struct vtuner_message m;
		int64_t now;

		memset(&m, 0, sizeof(m));
		if (ioctl(st.fd, VTUNER_GET_MESSAGE, &m) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			die_errno("%s: VTUNER_GET_MESSAGE", opt.dev);
		}
		now = now_ms();
		st.nmsgs++;
		if (m.type == opt.die_on) {
			/* a client that dies mid-call, at a known moment */
			fprintf(stderr, "%s: %s received: SIGKILL\n", progname,
				vt_msg_name(m.type));
			raise(SIGKILL);
		}
		if (handle_msg(&m, now) &&
		    !(m.type >= 0 && m.type < 32 && (opt.ignore_mask & (1U << m.type)))) {
			if (opt.answer_delay_ms)
				usleep(opt.answer_delay_ms * 1000);
			if (ioctl(st.fd, VTUNER_SET_RESPONSE, &m) < 0) {
				st.answer_errors++;
				warn_errno("%s: VTUNER_SET_RESPONSE (%s)", opt.dev,
					   vt_msg_name(m.type) ? vt_msg_name(m.type) : "?");
			}
		}
		update_lock(now_ms());
		if (opt.exit_after_msgs && st.nmsgs >= opt.exit_after_msgs)
			return;
	}
}

/* ---- TS ---------------------------------------------------------------- */

static int ts_wanted(int64_t now)
{
	return opt.ts_file && !st.ts_done && st.locked &&
	       now >= st.lock_ms + opt.ts_start_delay_ms &&
	       (!opt.wait_pids || st.npids > 0);
}

/* Fill the buffer from the file; returns 0 at the end of a --once file. */
static int ts_fill(void)
{
	ssize_t r;

	if (st.buf_off < st.buf_len)
		return 1;
	st.buf_off = st.buf_len = 0;
	for (int tries = 0; tries < 2; tries++) {
		r = read(st.ts_fd, st.buf, TS_CHUNK);
		if (r < 0)
			die_errno("%s: read", opt.ts_file);
		if (r > 0) {
			st.buf_len = r;
			return 1;
		}
		if (!opt.loop)
			return 0;
		if (lseek(st.ts_fd, 0, SEEK_SET) < 0)
			die_errno("%s: lseek", opt.ts_file);
	}
	die("%s: empty file", opt.ts_file);
}

/* Write one chunk; returns the delay (ms) before the next one may go. */
static int ts_write(int64_t now)
{
	size_t n;
	ssize_t w;

	if (!st.writing) {
		st.writing = 1;
		st.pace_start_ms = now;
		st.pace_bytes = 0;
	}
	if (!ts_fill()) {
		st.ts_done = 1;
		lf("TS_DONE bytes=%" PRIu64, st.ts_bytes);
		lend();
		return -1;
	}
	n = st.buf_len - st.buf_off;
	if (opt.rate) {
		uint64_t allowed = opt.rate / 8 * (uint64_t)(now - st.pace_start_ms) / 1000
				   + TS_PKT;

		uint64_t avail = allowed > st.pace_bytes ? allowed - st.pace_bytes : 0;

		/*
		 * --backlog: a tuner's buffer.  What is due beyond it is lost
		 * (a gap in the stream), as vtunerd's simulated tuner loses
		 * TS it could not send in time.
		 */
		if (opt.backlog && avail > TS_PKT && avail - TS_PKT > opt.backlog) {
			uint64_t skip = avail - opt.backlog, left;

			skip -= skip % TS_PKT;
			for (left = skip; left && ts_fill(); left -= n) {
				n = st.buf_len - st.buf_off;
				if (n > left)
					n = left;
				st.buf_off += n;
			}
			st.pace_bytes += skip;
			st.late_bytes += skip;
			avail -= skip;
			lf("TS_LATE skipped=%" PRIu64 " total=%" PRIu64, skip,
			   st.late_bytes);
			lend();
			if (!ts_fill())
				return 0;	/* the end: TS_DONE next time */
			n = st.buf_len - st.buf_off;
		}

		if (avail < TS_PKT && n >= TS_PKT) {
			st.in_tick = 0;
			return 1 + (int)((TS_PKT - avail) * 8000 / opt.rate);
		}
		/*
		 * --tick: a card's DMA delivers a buffer every few ms, not a
		 * packet as soon as it is due; and so does the sim (10 ms).
		 * A tick writes all that is due, in as many writes as the
		 * file's buffer takes.
		 */
		if (opt.tick_ms && !st.in_tick) {
			int64_t next = st.last_tick_ms + opt.tick_ms;

			if (now < next)
				return (int)(next - now);
			st.last_tick_ms = now;
			st.in_tick = 1;
		}
		if (n > avail) {
			n = avail;
			n -= n % TS_PKT;
		}
	}
	w = write(st.fd, st.buf + st.buf_off, n);
	if (w < 0) {
		if (errno == EAGAIN || errno == EINTR || errno == ENOBUFS)
			return 1;
		die_errno("%s: write", opt.dev);
	}
	st.buf_off += w;
	st.ts_bytes += w;
	st.pace_bytes += w;
	return 0;
}

/* ---- setup ------------------------------------------------------------- */

static void fill_fe_info(struct dvb_frontend_info *fi, int sys)
{
	int i, s2 = 0;

	for (i = 0; i < opt.ndelsys; i++)
		if (opt.delsys[i] == SYS_DVBS2 || opt.delsys[i] == SYS_DVBT2)
			s2 = 1;
	memset(fi, 0, sizeof(*fi));
	snprintf(fi->name, sizeof(fi->name), "%s", opt.name);
	fi->caps = FE_CAN_INVERSION_AUTO | FE_CAN_FEC_1_2 | FE_CAN_FEC_2_3 |
		   FE_CAN_FEC_3_4 | FE_CAN_FEC_4_5 | FE_CAN_FEC_5_6 |
		   FE_CAN_FEC_6_7 | FE_CAN_FEC_7_8 | FE_CAN_FEC_8_9 |
		   FE_CAN_FEC_AUTO | FE_CAN_QPSK | FE_CAN_QAM_16 |
		   FE_CAN_QAM_32 | FE_CAN_QAM_64 | FE_CAN_QAM_128 |
		   FE_CAN_QAM_256 | FE_CAN_QAM_AUTO |
		   FE_CAN_TRANSMISSION_MODE_AUTO | FE_CAN_BANDWIDTH_AUTO |
		   FE_CAN_GUARD_INTERVAL_AUTO | FE_CAN_HIERARCHY_AUTO |
		   FE_CAN_RECOVER | FE_CAN_MUTE_TS;
	if (s2)
		fi->caps |= FE_CAN_2G_MODULATION | FE_CAN_MULTISTREAM;
	if (vt_delsys_is_sat(sys)) {
		fi->type = FE_QPSK;
		fi->frequency_min = 950000;		/* kHz */
		fi->frequency_max = 12750000;
		fi->frequency_stepsize = 125;
		fi->frequency_tolerance = 5000;
		fi->symbol_rate_min = 1000000;
		fi->symbol_rate_max = 45000000;
	} else if (delsys_is_cable(sys)) {
		fi->type = FE_QAM;
		fi->frequency_min = 42000000;		/* Hz */
		fi->frequency_max = 1002000000;
		fi->frequency_stepsize = 62500;
		fi->symbol_rate_min = 870000;
		fi->symbol_rate_max = 9000000;
	} else {
		fi->type = (sys == SYS_ATSC || sys == SYS_ATSCMH) ? FE_ATSC : FE_OFDM;
		fi->frequency_min = 42000000;		/* Hz */
		fi->frequency_max = 1002000000;
		fi->frequency_stepsize = 166667;
	}
}

static void setup(void)
{
	const char *type = NULL;
	struct dvb_frontend_info fi;
	int i, sys = opt.delsys[0];

	st.fd = open(opt.dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (st.fd < 0)
		die_errno("%s: open", opt.dev);

	if (!opt.classic) {
		struct vtuner_ext_hello h;

		memset(&h, 0, sizeof(h));
		h.version = VTUNER_ABI_VERSION;
		h.features = opt.features;
		if (ioctl(st.fd, VTUNER_EXT_HELLO, &h) < 0)
			die_errno("%s: VTUNER_EXT_HELLO", opt.dev);
		st.ext = 1;
		st.granted = h.features;
		lf("HELLO version=%u features=0x%x max_props=%u max_pids=%u",
		   h.version, h.features, h.max_props, h.max_pids);
		lend();
	}
	if (ioctl(st.fd, VTUNER_SET_NAME, opt.name) < 0)
		die_errno("%s: VTUNER_SET_NAME", opt.dev);

	/* classic type: the first delivery system that has a classic name */
	for (i = 0; i < opt.ndelsys && !type; i++) {
		type = vt_delsys_classic_type(opt.delsys[i]);
		if (type)
			sys = opt.delsys[i];
	}
	if (!type && opt.classic)
		die("--classic: %s has no classic type name", vt_delsys_name(opt.delsys[0]));
	st.type_sys = sys;
	if (type && ioctl(st.fd, VTUNER_SET_TYPE, type) < 0)
		die_errno("%s: VTUNER_SET_TYPE %s", opt.dev, type);


	if (opt.classic && opt.ndelsys > 1) {
		char modes[VTUNER_MAX_MODES][VTUNER_TYPE_LEN];
		int n = 0;

		memset(modes, 0, sizeof(modes));
		for (i = 0; i < opt.ndelsys && n < VTUNER_MAX_MODES; i++) {
			const char *t = vt_delsys_classic_type(opt.delsys[i]);

			if (!t)
				die("--classic: %s has no classic type name",
				    vt_delsys_name(opt.delsys[i]));
			snprintf(modes[n++], VTUNER_TYPE_LEN, "%s", t);
		}
		if (ioctl(st.fd, VTUNER_SET_NUM_MODES, n) < 0)
			die_errno("%s: VTUNER_SET_NUM_MODES %d", opt.dev, n);
		if (ioctl(st.fd, VTUNER_SET_MODES, modes) < 0)
			die_errno("%s: VTUNER_SET_MODES", opt.dev);
	}
	if (!opt.classic) {
		struct vtuner_ext_delsys d;

		memset(&d, 0, sizeof(d));
		d.num = opt.ndelsys;
		for (i = 0; i < opt.ndelsys; i++)
			d.delsys[i] = opt.delsys[i];
		if (ioctl(st.fd, VTUNER_EXT_SET_DELSYS, &d) < 0)
			die_errno("%s: VTUNER_EXT_SET_DELSYS", opt.dev);
	}
	/* after the delivery systems, which reset the limits to defaults */
	if (!opt.no_fe_info) {
		fill_fe_info(&fi, sys);
		if (ioctl(st.fd, VTUNER_SET_FE_INFO, &fi) < 0)
			die_errno("%s: VTUNER_SET_FE_INFO", opt.dev);
	}
	if (opt.has_outputs && ioctl(st.fd, VTUNER_SET_HAS_OUTPUTS, opt.has_outputs) < 0)
		die_errno("%s: VTUNER_SET_HAS_OUTPUTS", opt.dev);
	if (opt.ts_file) {
		st.ts_fd = open(opt.ts_file, O_RDONLY | O_CLOEXEC);
		if (st.ts_fd < 0)
			die_errno("%s: open", opt.ts_file);
		st.buf = malloc(TS_CHUNK);
		if (!st.buf)
			die("out of memory");
	}
	push_status(now_ms());
	if (opt.ready_file) {
		char tmp[4096];
		FILE *f;

		snprintf(tmp, sizeof(tmp), "%s.tmp.%d", opt.ready_file, (int)getpid());
		f = fopen(tmp, "w");
		if (!f)
			die_errno("%s: create", tmp);
		fprintf(f, "%d\n", (int)getpid());
		if (fclose(f) != 0 || rename(tmp, opt.ready_file) < 0)
			die_errno("%s: create", opt.ready_file);
	}
}

/* ---- self test (no device needed) -------------------------------------- */

static int self_test(void)
{
	static const uint32_t fecs[] = { FEC_1_2, FEC_2_3, FEC_3_4, FEC_4_5, FEC_5_6,
					 FEC_7_8, FEC_8_9, FEC_3_5, FEC_9_10, FEC_AUTO };
	static const uint32_t rolls[] = { ROLLOFF_35, ROLLOFF_20, ROLLOFF_25 };
	static const uint32_t pilots[] = { PILOT_ON, PILOT_OFF, PILOT_AUTO };
	struct vtuner_message m;
	struct tune t;
	int fails = 0, n = 0, d[8];
	size_t a, b, c;

#define CHECK(x) do { n++; if (!(x)) { fails++; \
	fprintf(stderr, "%s: self-test failed: %s (line %d)\n", progname, #x, __LINE__); } } while (0)

	/* DVB-S2 packing round trip */
	for (a = 0; a < ARRAY_SIZE(fecs); a++)
		for (b = 0; b < ARRAY_SIZE(rolls); b++)
			for (c = 0; c < ARRAY_SIZE(pilots); c++)
				for (int mod = 0; mod < 2; mod++) {
					uint32_t md = mod ? PSK_8 : QPSK;

					/* 8PSK + FEC_AUTO packs to 18 = QPSK 9/10 */
					if (md == PSK_8 && fecs[a] == FEC_AUTO)
						continue;

					memset(&m, 0, sizeof(m));
					m.type = MSG_SET_FRONTEND;
					m.body.fe_params.frequency = 11362000;
					m.body.fe_params.inversion =
						s2_pack_inversion(INVERSION_AUTO, rolls[b], pilots[c]);
					m.body.fe_params.u.qpsk.symbol_rate = 22000000;
					m.body.fe_params.u.qpsk.fec_inner = s2_pack_fec(fecs[a], md);
					decode_classic(&m, SYS_DVBS2, &t);
					CHECK(t.v[P_DELSYS] == SYS_DVBS2);
					CHECK(t.v[P_FEC] == fecs[a]);
					CHECK(t.v[P_MOD] == md);
					CHECK(t.v[P_ROLLOFF] == rolls[b]);
					CHECK(t.v[P_PILOT] == pilots[c]);
					CHECK(t.v[P_INVERSION] == INVERSION_AUTO);
					CHECK(t.v[P_SR] == 22000000);
				}
	/* the examples of the ABI description */
	CHECK(s2_pack_fec(FEC_3_4, QPSK) == 12);
	CHECK(s2_pack_fec(FEC_9_10, PSK_8) == 27);
	CHECK(s2_pack_fec(FEC_4_5, QPSK) == 17);
	memset(&m, 0, sizeof(m));
	m.body.fe_params.u.qpsk.fec_inner = FEC_5_6;
	decode_classic(&m, SYS_DVBS2, &t);
	CHECK(t.v[P_DELSYS] == SYS_DVBS && t.v[P_FEC] == FEC_5_6);
	memset(&m, 0, sizeof(m));
	m.body.fe_params.frequency = 506000000;
	m.body.fe_params.u.ofdm.bandwidth = BANDWIDTH_7_MHZ;
	m.body.fe_params.u.ofdm.constellation = QAM_64;
	decode_classic(&m, SYS_DVBT, &t);
	CHECK(t.v[P_DELSYS] == SYS_DVBT && t.v[P_BW] == 7000000 && t.v[P_MOD] == QAM_64);

	/* frequency units and matching */
	CHECK(want_freq(11362000, SYS_DVBS2) == 11362000);
	CHECK(want_freq(11362000000ULL, SYS_DVBS2) == 11362000);
	CHECK(want_freq(506000, SYS_DVBT) == 506000000);
	CHECK(want_freq(506000000, SYS_DVBT) == 506000000);
	memset(&t, 0, sizeof(t));
	t.valid = 1;
	tset(&t, P_DELSYS, SYS_DVBS2);
	tset(&t, P_FREQ, 11363000);
	tset(&t, P_SR, 27500000);
	opt.freq = 11362000;
	opt.lock_delsys = SYS_DVBS2;
	CHECK(tune_matches(&t, SEC_TONE_ON, SEC_VOLTAGE_13));
	opt.tolerance = 500;
	CHECK(!tune_matches(&t, SEC_TONE_ON, SEC_VOLTAGE_13));
	opt.tolerance = 0;
	opt.tone = SEC_TONE_OFF;
	CHECK(!tune_matches(&t, SEC_TONE_ON, SEC_VOLTAGE_13));
	CHECK(tune_matches(&t, SEC_TONE_OFF, SEC_VOLTAGE_13));
	opt.symbol_rate = 22000000;
	CHECK(!tune_matches(&t, SEC_TONE_OFF, SEC_VOLTAGE_13));
	opt.symbol_rate = 27500000;
	CHECK(tune_matches(&t, SEC_TONE_OFF, SEC_VOLTAGE_13));
	opt.lock_delsys = SYS_DVBS;
	CHECK(!tune_matches(&t, SEC_TONE_OFF, SEC_VOLTAGE_13));

	/* names */
	CHECK(delsys_parse("dvbs2") == SYS_DVBS2);
	CHECK(delsys_parse("DVB-T2") == SYS_DVBT2);
	CHECK(delsys_parse("dvbc") == SYS_DVBC_ANNEX_A);
	CHECK(delsys_parse("bogus") == -1);
	CHECK(delsys_list_parse("dvbs2,dvbs", d, 8) == 2 && d[0] == SYS_DVBS2 && d[1] == SYS_DVBS);
	CHECK(delsys_list_parse("dvbs2,nope", d, 8) == -1);
	CHECK(!strcmp(vt_delsys_classic_type(SYS_DVBS2), "DVB-S2"));
	CHECK(!strcmp(dtv_cmd_name(DTV_FREQUENCY), "DTV_FREQUENCY"));
	CHECK(!strcmp(dtv_cmd_name(DTV_SCRAMBLING_SEQUENCE_INDEX), "DTV_SCRAMBLING_SEQUENCE_INDEX"));
	CHECK(vt_msg_parse("pidlist") == MSG_PIDLIST);

	/* statistics */
	{
		struct vtuner_ext_status s1, s2;

		st.locked = 0;
		make_status(&s1, 1000);
		CHECK(s1.status == 0 && s1.strength.len == 1 &&
		      s1.strength.stat[0].scale == FE_SCALE_NOT_AVAILABLE);
		st.locked = 1;
		st.status = FE_ALL_LOCK;
		st.lock_ms = 1000;
		make_status(&s1, 1500);
		make_status(&s2, 2500);
		CHECK(s1.status == FE_ALL_LOCK && s1.ber && s1.signal && s1.snr && s1.ucblocks);
		CHECK(s1.strength.stat[0].scale == FE_SCALE_DECIBEL &&
		      s1.strength.stat[0].svalue == -40000);
		CHECK(s1.cnr.stat[0].svalue == 12300);
		CHECK(s2.pre_bit_error.stat[0].uvalue > s1.pre_bit_error.stat[0].uvalue);
		CHECK(s2.post_bit_count.stat[0].uvalue > s1.post_bit_count.stat[0].uvalue);
		CHECK(s2.block_count.stat[0].uvalue > s1.block_count.stat[0].uvalue);
		CHECK(sizeof(s1) == 316);
		st.locked = 0;
	}
	CHECK(sizeof(struct vtuner_message) == VTUNER_MSG_LEN);
#undef CHECK
	printf("%s: self-test: %d checks, %d failed\n", progname, n, fails);
	return fails ? 1 : 0;
}

/* ---- main -------------------------------------------------------------- */

static void usage(FILE *out)
{
	fprintf(out,
"usage: %s [options]\n"
"  -d, --device DEV       control device (default /dev/vtunerc0)\n"
"  -n, --name STR         frontend name (SET_NAME, dvb_frontend_info.name)\n"
"  -D, --delsys LIST      delivery systems, e.g. dvbs2,dvbs | dvbt2,dvbt | dvbc\n"
"                         (default dvbs2,dvbs); the first one with a classic\n"
"                         name gives SET_TYPE\n"
"      --classic          seed ABI only: SET_TYPE/SET_MODES, answer MSG_READ_*\n"
"      --features MASK    extension features to ask for (default 0x%x)\n"
"      --has-outputs STR  also call SET_HAS_OUTPUTS with STR\n"
"      --no-fe-info       do not call SET_FE_INFO\n"
"  -f, --freq N           lock only at this frequency (Hz or kHz, both accepted)\n"
"      --tolerance N      frequency tolerance, unit of the tune (default\n"
"                         3000 kHz satellite, 1000000 Hz otherwise)\n"
"      --lock-delsys SYS  lock only for this delivery system\n"
"      --symbol-rate N    satellite: lock only at this symbol rate (+-0.5%%)\n"
"      --tone on|off      satellite: lock only with this 22 kHz tone\n"
"      --voltage 13|18    satellite: lock only with this LNB voltage\n"
"      --lock-delay MS    report the lock MS after the tune (default 0)\n"
"  -t, --ts FILE          TS written into the device while locked\n"
"      --once             write the file once (default)\n"
"      --loop             write the file again and again\n"
"      --rate BITS        pace the TS at BITS bit/s (default: as fast as\n"
"                         the device takes 64 KiB writes)\n"
"      --backlog BYTES    with --rate: skip what is more than BYTES late\n"
"                         (a tuner's buffer; default: catch up on all)\n"
"      --tick MS          with --rate: write what is due every MS ms, as a\n"
"                         card's DMA buffers come (default: as soon as a\n"
"                         packet is due)\n"
"      --ts-start-delay MS  start writing MS after the lock\n"
"      --wait-pids        start writing only once a PID filter is set\n"
"  -l, --log FILE         append one line per message ('-': stdout)\n"
"      --exit-after-msgs N  exit 0 after N messages\n"
"      --exit-after SEC   exit 0 after SEC seconds\n"
"      --ready-file PATH  create PATH (containing the pid) once configured\n"
"      --strength-relative  DTV_STAT_SIGNAL_STRENGTH in FE_SCALE_RELATIVE\n"
"      --answer-delay MS  wait MS before every SET_RESPONSE\n"
"      --ignore MSG[,MSG] log these messages but never answer them\n"
"      --die-on MSG     kill itself (SIGKILL) when MSG arrives, unanswered\n"
"                         (SET_FRONTEND, READ_STATUS, SET_TONE, ...)\n"
"  -v, --verbose          also print the log lines on stderr\n"
"      --self-test        run the built-in unit checks and exit\n"
"Exit: 0 normal end (signal, --exit-after*), 1 error, 2 usage.\n",
		progname, VTUNER_FEAT_ALL);
}

enum {
	O_CLASSIC = 256, O_FEATURES, O_HAS_OUTPUTS, O_NO_FE_INFO, O_TOL,
	O_LOCK_DELSYS, O_SR, O_TONE, O_VOLTAGE, O_LOCK_DELAY, O_ONCE, O_LOOP,
	O_RATE, O_BACKLOG, O_TICK, O_TS_DELAY, O_WAIT_PIDS, O_EXIT_MSGS, O_EXIT_AFTER, O_READY,
	O_STRENGTH_REL, O_ANSWER_DELAY, O_IGNORE, O_DIE_ON, O_SELFTEST,
};

static uint64_t num_arg(const char *name, const char *s)
{
	uint64_t v;

	if (parse_u64(s, &v) < 0) {
		fprintf(stderr, "%s: %s: bad number '%s'\n", progname, name, s);
		exit(2);
	}
	return v;
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "dev", required_argument, NULL, 'd' },
		{ "name", required_argument, NULL, 'n' },
		{ "delsys", required_argument, NULL, 'D' },
		{ "classic", no_argument, NULL, O_CLASSIC },
		{ "features", required_argument, NULL, O_FEATURES },
		{ "has-outputs", required_argument, NULL, O_HAS_OUTPUTS },
		{ "no-fe-info", no_argument, NULL, O_NO_FE_INFO },
		{ "freq", required_argument, NULL, 'f' },
		{ "tolerance", required_argument, NULL, O_TOL },
		{ "lock-delsys", required_argument, NULL, O_LOCK_DELSYS },
		{ "symbol-rate", required_argument, NULL, O_SR },
		{ "tone", required_argument, NULL, O_TONE },
		{ "voltage", required_argument, NULL, O_VOLTAGE },
		{ "lock-delay", required_argument, NULL, O_LOCK_DELAY },
		{ "ts", required_argument, NULL, 't' },
		{ "once", no_argument, NULL, O_ONCE },
		{ "loop", no_argument, NULL, O_LOOP },
		{ "rate", required_argument, NULL, O_RATE },
		{ "backlog", required_argument, NULL, O_BACKLOG },
		{ "tick", required_argument, NULL, O_TICK },
		{ "ts-start-delay", required_argument, NULL, O_TS_DELAY },
		{ "wait-pids", no_argument, NULL, O_WAIT_PIDS },
		{ "log", required_argument, NULL, 'l' },
		{ "exit-after-msgs", required_argument, NULL, O_EXIT_MSGS },
		{ "exit-after", required_argument, NULL, O_EXIT_AFTER },
		{ "ready-file", required_argument, NULL, O_READY },
		{ "strength-relative", no_argument, NULL, O_STRENGTH_REL },
		{ "answer-delay", required_argument, NULL, O_ANSWER_DELAY },
		{ "ignore", required_argument, NULL, O_IGNORE },
		{ "die-on", required_argument, NULL, O_DIE_ON },
		{ "verbose", no_argument, NULL, 'v' },
		{ "self-test", no_argument, NULL, O_SELFTEST },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;

	while ((c = getopt_long(argc, argv, "d:n:D:f:t:l:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'd': opt.dev = optarg; break;
		case 'n':
			if (strlen(optarg) >= VTUNER_NAME_LEN) {
				fprintf(stderr, "%s: --name: longer than %d bytes\n",
					progname, VTUNER_NAME_LEN - 1);
				exit(2);
			}
			opt.name = optarg;
			break;
		case 'D':
			opt.ndelsys = delsys_list_parse(optarg, opt.delsys, MAX_DELSYS);
			if (opt.ndelsys < 0) {
				fprintf(stderr, "%s: --delsys: bad list '%s'\n", progname, optarg);
				exit(2);
			}
			break;
		case O_CLASSIC: opt.classic = 1; break;
		case O_FEATURES: opt.features = num_arg("--features", optarg); break;
		case O_HAS_OUTPUTS: opt.has_outputs = optarg; break;
		case O_NO_FE_INFO: opt.no_fe_info = 1; break;
		case 'f': opt.freq = num_arg("--freq", optarg); break;
		case O_TOL: opt.tolerance = num_arg("--tolerance", optarg); break;
		case O_LOCK_DELSYS:
			opt.lock_delsys = delsys_parse(optarg);
			if (opt.lock_delsys < 0) {
				fprintf(stderr, "%s: --lock-delsys: unknown '%s'\n", progname, optarg);
				exit(2);
			}
			break;
		case O_SR: opt.symbol_rate = num_arg("--symbol-rate", optarg); break;
		case O_TONE:
			if (!strcasecmp(optarg, "on"))
				opt.tone = SEC_TONE_ON;
			else if (!strcasecmp(optarg, "off"))
				opt.tone = SEC_TONE_OFF;
			else {
				fprintf(stderr, "%s: --tone: on or off\n", progname);
				exit(2);
			}
			break;
		case O_VOLTAGE:
			if (!strcmp(optarg, "13"))
				opt.voltage = SEC_VOLTAGE_13;
			else if (!strcmp(optarg, "18"))
				opt.voltage = SEC_VOLTAGE_18;
			else {
				fprintf(stderr, "%s: --voltage: 13 or 18\n", progname);
				exit(2);
			}
			break;
		case O_LOCK_DELAY: opt.lock_delay_ms = num_arg("--lock-delay", optarg); break;
		case 't': opt.ts_file = optarg; break;
		case O_ONCE: opt.loop = 0; break;
		case O_LOOP: opt.loop = 1; break;
		case O_RATE: opt.rate = num_arg("--rate", optarg); break;
		case O_BACKLOG: opt.backlog = num_arg("--backlog", optarg); break;
		case O_TICK: {
			uint64_t v = num_arg("--tick", optarg);

			if (v > 1000) {
				fprintf(stderr, "%s: --tick: at most 1000 ms\n",
					progname);
				exit(2);
			}
			opt.tick_ms = (unsigned int)v;
			break;
		}
		case O_TS_DELAY: opt.ts_start_delay_ms = num_arg("--ts-start-delay", optarg); break;
		case O_WAIT_PIDS: opt.wait_pids = 1; break;
		case 'l': opt.log_file = optarg; break;
		case O_EXIT_MSGS: opt.exit_after_msgs = num_arg("--exit-after-msgs", optarg); break;
		case O_EXIT_AFTER:
			opt.exit_after = strtod(optarg, &end);
			if (*end || opt.exit_after <= 0) {
				fprintf(stderr, "%s: --exit-after: bad time '%s'\n", progname, optarg);
				exit(2);
			}
			break;
		case O_READY: opt.ready_file = optarg; break;
		case O_STRENGTH_REL: opt.strength_relative = 1; break;
		case O_ANSWER_DELAY: opt.answer_delay_ms = num_arg("--answer-delay", optarg); break;
		case O_IGNORE: {
			char *s = strdup(optarg), *tok, *save = NULL;

			for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				int t = vt_msg_parse(tok);

				if (t < 0) {
					fprintf(stderr, "%s: --ignore: unknown message '%s'\n",
						progname, tok);
					exit(2);
				}
				opt.ignore_mask |= 1U << t;
			}
			free(s);
			break;
		}
		case O_DIE_ON:
			opt.die_on = vt_msg_parse(optarg);
			if (opt.die_on < 0) {
				fprintf(stderr, "%s: --die-on: unknown message '%s'\n",
					progname, optarg);
				exit(2);
			}
			break;
		case 'v': opt.verbose = 1; break;
		case O_SELFTEST: exit(self_test());
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", progname, argv[optind]);
		exit(2);
	}
	if (!opt.ndelsys) {
		opt.delsys[0] = SYS_DVBS2;
		opt.delsys[1] = SYS_DVBS;
		opt.ndelsys = 2;
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	int64_t start, deadline = -1;

	progname = "vt-testtuner";
	parse_args(argc, argv);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (opt.log_file) {
		if (!strcmp(opt.log_file, "-"))
			st.log = stdout;
		else if (!(st.log = fopen(opt.log_file, "a")))
			die_errno("%s: open", opt.log_file);
	}
	setup();
	start = now_ms();
	if (opt.exit_after > 0)
		deadline = start + (int64_t)(opt.exit_after * 1000);

	while (!stop_signal) {
		struct pollfd pfd = { .fd = st.fd, .events = POLLIN | POLLPRI };
		int64_t now = now_ms(), wake, relock;
		int timeout, r;

		if (deadline >= 0 && now >= deadline)
			break;
		if (opt.exit_after_msgs && st.nmsgs >= opt.exit_after_msgs)
			break;
		relock = update_lock(now);
		if (st.ext && (st.granted & VTUNER_FEAT_STATUS) &&
		    (st.push_needed || now - st.last_push_ms >= STATUS_PERIOD_MS))
			push_status(now);

		/* next wake-up: status period, lock delay, deadline, TS */
		wake = now + STATUS_PERIOD_MS;
		if (st.ext && (st.granted & VTUNER_FEAT_STATUS))
			wake = st.last_push_ms + STATUS_PERIOD_MS;
		if (relock >= 0 && relock < wake)
			wake = relock;
		if (deadline >= 0 && deadline < wake)
			wake = deadline;
		if (opt.ts_file && !st.ts_done && st.locked && !ts_wanted(now) &&
		    now + 10 < wake)
			wake = now + 10;	/* start delay / waiting for PIDs */
		if (ts_wanted(now)) {
			int d = ts_write(now);

			if (d >= 0 && now + d < wake)
				wake = now + d;
		} else {
			st.writing = 0;
		}
		timeout = wake > now ? (int)(wake - now) : 0;

		r = poll(&pfd, 1, timeout);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die_errno("poll");
		}
		if (r == 0)
			continue;
		if (pfd.revents & POLLNVAL)
			die("%s: poll: invalid file descriptor", opt.dev);
		if (pfd.revents & (POLLIN | POLLPRI))
			drain_messages();
		else if (pfd.revents & (POLLERR | POLLHUP))
			die("%s: poll: device error/hang-up (revents 0x%x)", opt.dev,
			    pfd.revents);
	}

	if (stop_signal)
		lf("EXIT signal=%d msgs=%" PRIu64 " ts_bytes=%" PRIu64, (int)stop_signal,
		   st.nmsgs, st.ts_bytes);
	else
		lf("EXIT msgs=%" PRIu64 " ts_bytes=%" PRIu64, st.nmsgs, st.ts_bytes);
	lend();
	close(st.fd);
	if (st.ts_fd >= 0)
		close(st.ts_fd);
	if (st.log && st.log != stdout)
		fclose(st.log);
	return 0;
}
