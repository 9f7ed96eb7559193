// SPDX-License-Identifier: GPL-2.0
/*
 * vtunerc: the virtual frontend.
 *
 * Tuning and SEC calls become messages for the control-device owner.
 * Status and statistics come either from a round trip (classic clients)
 * or, with VTUNER_FEAT_STATUS, from the cache the owner pushes into, so
 * that applications polling the frontend never wait on the network.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/string.h>

#include "vtunerc_priv.h"

#define VTUNERC_NO_CLIENT_NAME	"vTuner (no client)"

/* Default frequency limits (Hz) and symbol rates, as the 2011 driver had. */
#define SAT_FREQ_MIN	(950 * MHz)
#define SAT_FREQ_MAX	(2150 * MHz)
#define TER_FREQ_MIN	(51 * MHz)
#define TER_FREQ_MAX	(863250 * kHz)
#define CAB_FREQ_MIN	(51 * MHz)
#define CAB_FREQ_MAX	(858 * MHz)

/*
 * Default caps: these for any list, the VSB and second-generation ones only
 * with a system that has them.
 */
#define VTUNERC_CAPS (FE_CAN_INVERSION_AUTO | FE_CAN_FEC_1_2 | \
	FE_CAN_FEC_2_3 | FE_CAN_FEC_3_4 | FE_CAN_FEC_4_5 | FE_CAN_FEC_5_6 | \
	FE_CAN_FEC_6_7 | FE_CAN_FEC_7_8 | FE_CAN_FEC_8_9 | FE_CAN_FEC_AUTO | \
	FE_CAN_QPSK | FE_CAN_QAM_16 | FE_CAN_QAM_32 | FE_CAN_QAM_64 | \
	FE_CAN_QAM_128 | FE_CAN_QAM_256 | FE_CAN_QAM_AUTO | \
	FE_CAN_TRANSMISSION_MODE_AUTO | FE_CAN_BANDWIDTH_AUTO | \
	FE_CAN_GUARD_INTERVAL_AUTO | FE_CAN_HIERARCHY_AUTO | FE_CAN_RECOVER)
#define VTUNERC_CAPS_ATSC	(FE_CAN_8VSB | FE_CAN_16VSB)
#define VTUNERC_CAPS_2G		(FE_CAN_2G_MODULATION | FE_CAN_MULTISTREAM)

enum vtunerc_family { FAM_NONE, FAM_SAT, FAM_CAB, FAM_TER, FAM_ATSC };

static enum vtunerc_family vtunerc_family(u32 delsys)
{
	switch (delsys) {
	case SYS_DVBS:
	case SYS_DVBS2:
	case SYS_TURBO:
	case SYS_ISDBS:
	case SYS_DSS:
		return FAM_SAT;
	case SYS_DVBC_ANNEX_A:
	case SYS_DVBC_ANNEX_B:
	case SYS_DVBC_ANNEX_C:
	case SYS_ISDBC:
		return FAM_CAB;
	case SYS_DVBT:
	case SYS_DVBT2:
	case SYS_ISDBT:
	case SYS_DTMB:
	case SYS_DVBH:
		return FAM_TER;
	case SYS_ATSC:
	case SYS_ATSCMH:
		return FAM_ATSC;
	default:
		return FAM_NONE;
	}
}

struct vtunerc_type {
	const char *name;
	u8 delsys[2];
	u8 ndelsys;
};

/* The names SET_TYPE and SET_MODES accept. */
static const struct vtunerc_type vtunerc_types[] = {
	{ "DVB-S",	{ SYS_DVBS }, 1 },
	{ "DVB-S2",	{ SYS_DVBS, SYS_DVBS2 }, 2 },
	{ "DVB-T",	{ SYS_DVBT }, 1 },
	{ "DVB-T2",	{ SYS_DVBT, SYS_DVBT2 }, 2 },
	{ "DVB-C",	{ SYS_DVBC_ANNEX_A }, 1 },
	{ "DVB-C/A",	{ SYS_DVBC_ANNEX_A }, 1 },
	{ "DVB-C/B",	{ SYS_DVBC_ANNEX_B }, 1 },
	{ "DVB-C/C",	{ SYS_DVBC_ANNEX_C }, 1 },
	{ "ATSC",	{ SYS_ATSC }, 1 },
	{ "ISDB-T",	{ SYS_ISDBT }, 1 },
	{ "ISDB-S",	{ SYS_ISDBS }, 1 },
	{ "ISDB-C",	{ SYS_ISDBC }, 1 },
	{ "DTMB",	{ SYS_DTMB }, 1 },
};

static struct vtunerc_ctx *fe_ctx(struct dvb_frontend *fe)
{
	return fe->demodulator_priv;
}

/* Frequency limits and caps covering every delivery system of the list. */
static void vtunerc_fe_apply_delsys(struct vtunerc_ctx *ctx, const u8 *delsys,
				    unsigned int n)
{
	struct dvb_frontend_internal_info *info = &ctx->fe.ops.info;
	u32 fmin = U32_MAX, fmax = 0, caps = VTUNERC_CAPS;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (delsys[i] == SYS_DVBS2 || delsys[i] == SYS_DVBT2 ||
		    delsys[i] == SYS_ISDBS)
			caps |= VTUNERC_CAPS_2G;
		switch (vtunerc_family(delsys[i])) {
		case FAM_SAT:
			fmin = min_t(u32, fmin, SAT_FREQ_MIN);
			fmax = max_t(u32, fmax, SAT_FREQ_MAX);
			break;
		case FAM_CAB:
			fmin = min_t(u32, fmin, CAB_FREQ_MIN);
			fmax = max_t(u32, fmax, CAB_FREQ_MAX);
			break;
		case FAM_ATSC:
			caps |= VTUNERC_CAPS_ATSC;
			fallthrough;
		default:
			fmin = min_t(u32, fmin, TER_FREQ_MIN);
			fmax = max_t(u32, fmax, TER_FREQ_MAX);
			break;
		}
	}
	/* Entries past n are cleared first, so a reader never sees both. */
	for (i = n; i < MAX_DELSYS; i++)
		WRITE_ONCE(ctx->fe.ops.delsys[i], SYS_UNDEFINED);
	for (i = 0; i < n; i++)
		WRITE_ONCE(ctx->fe.ops.delsys[i], delsys[i]);
	info->frequency_min_hz = fmin;
	info->frequency_max_hz = fmax;
	info->frequency_stepsize_hz = 0;
	info->frequency_tolerance_hz = 0;
	info->symbol_rate_min = 1000000;
	info->symbol_rate_max = 45000000;
	info->symbol_rate_tolerance = 500;
	info->caps = caps;
}

void vtunerc_fe_set_name(struct vtunerc_ctx *ctx, const char *name)
{
	strscpy(ctx->fe.ops.info.name, name, sizeof(ctx->fe.ops.info.name));
}

int vtunerc_fe_set_delsys(struct vtunerc_ctx *ctx, const u8 *delsys,
			  unsigned int n)
{
	unsigned int i, j;
	bool same;

	if (n < 1 || n > MAX_DELSYS)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (delsys[i] == SYS_UNDEFINED ||
		    vtunerc_family(delsys[i]) == FAM_NONE)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (delsys[j] == delsys[i])
				return -EINVAL;
	}
	mutex_lock(&ctx->cfg_lock);
	same = n == MAX_DELSYS || ctx->fe.ops.delsys[n] == SYS_UNDEFINED;
	for (i = 0; same && i < n; i++)
		same = ctx->fe.ops.delsys[i] == delsys[i];
	vtunerc_fe_apply_delsys(ctx, delsys, n);
	/*
	 * dvb-core starts a frontend's cache on delsys[0] when it registers,
	 * and takes FE_GET_INFO's type and frequency unit, and the system of
	 * a DVBv3 application's tune, from the cache.  Other systems are
	 * another tuner: start it on its first system, as a frontend
	 * registered with them would (the list a reconnecting client sets
	 * again leaves an application's choice alone).
	 */
	if (!same)
		WRITE_ONCE(ctx->fe.dtv_property_cache.delivery_system,
			   delsys[0]);
	mutex_unlock(&ctx->cfg_lock);
	return 0;
}

static const struct vtunerc_type *vtunerc_find_type(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vtunerc_types); i++)
		if (!strcasecmp(vtunerc_types[i].name, name))
			return &vtunerc_types[i];
	return NULL;
}

int vtunerc_fe_set_type(struct vtunerc_ctx *ctx, const char *type)
{
	const struct vtunerc_type *t = vtunerc_find_type(type);

	if (!t)
		return -EINVAL;
	return vtunerc_fe_set_delsys(ctx, t->delsys, t->ndelsys);
}

int vtunerc_fe_set_modes(struct vtunerc_ctx *ctx,
			 char modes[][VTUNER_TYPE_LEN], unsigned int n)
{
	u8 delsys[MAX_DELSYS];
	unsigned int i, j, k, nd = 0;

	for (i = 0; i < n; i++) {
		const struct vtunerc_type *t = vtunerc_find_type(modes[i]);

		if (!t)
			return -EINVAL;
		for (j = 0; j < t->ndelsys; j++) {
			for (k = 0; k < nd; k++)
				if (delsys[k] == t->delsys[j])
					break;
			if (k < nd)
				continue;
			if (nd == MAX_DELSYS)
				return -EINVAL;
			delsys[nd++] = t->delsys[j];
		}
	}
	return vtunerc_fe_set_delsys(ctx, delsys, nd);
}

/* A limit in Hz; satellite values come in kHz and may exceed 4.29 GHz. */
static u32 vtunerc_hz(u32 val, u32 mult)
{
	return min_t(u64, (u64)val * mult, U32_MAX);
}

/* DVBv3 frontend info from a classic client: satellite values are in kHz. */
void vtunerc_fe_set_info(struct vtunerc_ctx *ctx,
			 const struct dvb_frontend_info *in)
{
	struct dvb_frontend_internal_info *info = &ctx->fe.ops.info;
	u32 mult = in->type == FE_QPSK ? kHz : 1;

	mutex_lock(&ctx->cfg_lock);
	if (in->name[0])
		strscpy(info->name, in->name, sizeof(info->name));
	info->frequency_min_hz = vtunerc_hz(in->frequency_min, mult);
	info->frequency_max_hz = vtunerc_hz(in->frequency_max, mult);
	info->frequency_stepsize_hz = vtunerc_hz(in->frequency_stepsize, mult);
	info->frequency_tolerance_hz = vtunerc_hz(in->frequency_tolerance, mult);
	info->symbol_rate_min = in->symbol_rate_min;
	info->symbol_rate_max = in->symbol_rate_max;
	info->symbol_rate_tolerance = in->symbol_rate_tolerance;
	info->caps = in->caps | FE_CAN_RECOVER;
	mutex_unlock(&ctx->cfg_lock);
}

/* ---- tuning ----------------------------------------------------------- */

/* enum fe_bandwidth of the DVBv3 API, which dvb-core keeps from drivers. */
enum {
	V3_BANDWIDTH_8_MHZ, V3_BANDWIDTH_7_MHZ, V3_BANDWIDTH_6_MHZ,
	V3_BANDWIDTH_AUTO, V3_BANDWIDTH_5_MHZ, V3_BANDWIDTH_10_MHZ,
	V3_BANDWIDTH_1_712_MHZ,
};

static u32 vtunerc_v3_bandwidth(u32 hz)
{
	switch (hz) {
	case 8000000:
		return V3_BANDWIDTH_8_MHZ;
	case 7000000:
		return V3_BANDWIDTH_7_MHZ;
	case 6000000:
		return V3_BANDWIDTH_6_MHZ;
	case 5000000:
		return V3_BANDWIDTH_5_MHZ;
	case 10000000:
		return V3_BANDWIDTH_10_MHZ;
	case 1712000:
		return V3_BANDWIDTH_1_712_MHZ;
	default:
		return V3_BANDWIDTH_AUTO;
	}
}

/* The 2011 driver's packing of DVB-S2 parameters into the DVBv3 layout. */
static void vtunerc_pack_s2(const struct dtv_frontend_properties *c,
			    struct vtuner_message *msg)
{
	static const u8 fec_code[] = {
		[FEC_1_2] = 1, [FEC_2_3] = 2, [FEC_3_4] = 3, [FEC_4_5] = 8,
		[FEC_5_6] = 4, [FEC_7_8] = 5, [FEC_8_9] = 6, [FEC_3_5] = 7,
		[FEC_9_10] = 9,
	};
	u32 fec = VTUNER_S2_FEC_BASE;

	if (c->modulation == PSK_8)
		fec += VTUNER_S2_FEC_8PSK;
	if (c->fec_inner < ARRAY_SIZE(fec_code))
		fec += fec_code[c->fec_inner];
	msg->body.fe_params.u.qpsk.fec_inner = fec;

	if (c->rolloff == ROLLOFF_20)
		msg->body.fe_params.inversion |= VTUNER_S2_ROLLOFF_20;
	else if (c->rolloff == ROLLOFF_25)
		msg->body.fe_params.inversion |= VTUNER_S2_ROLLOFF_25;
	if (c->pilot == PILOT_ON)
		msg->body.fe_params.inversion |= VTUNER_S2_PILOT_ON;
	else if (c->pilot == PILOT_AUTO)
		msg->body.fe_params.inversion |= VTUNER_S2_PILOT_AUTO;
}

static void vtunerc_classic_params(const struct dtv_frontend_properties *c,
				   struct vtuner_message *msg)
{
	msg->body.fe_params.frequency = c->frequency;
	msg->body.fe_params.inversion = c->inversion;

	switch (vtunerc_family(c->delivery_system)) {
	case FAM_SAT:
		msg->body.fe_params.u.qpsk.symbol_rate = c->symbol_rate;
		msg->body.fe_params.u.qpsk.fec_inner = c->fec_inner;
		if (c->delivery_system == SYS_DVBS2)
			vtunerc_pack_s2(c, msg);
		break;
	case FAM_CAB:
		msg->body.fe_params.u.qam.symbol_rate = c->symbol_rate;
		msg->body.fe_params.u.qam.fec_inner = c->fec_inner;
		msg->body.fe_params.u.qam.modulation = c->modulation;
		break;
	case FAM_TER:
		msg->body.fe_params.u.ofdm.bandwidth =
			vtunerc_v3_bandwidth(c->bandwidth_hz);
		msg->body.fe_params.u.ofdm.code_rate_HP = c->code_rate_HP;
		msg->body.fe_params.u.ofdm.code_rate_LP = c->code_rate_LP;
		msg->body.fe_params.u.ofdm.constellation = c->modulation;
		msg->body.fe_params.u.ofdm.transmission_mode =
			c->transmission_mode;
		msg->body.fe_params.u.ofdm.guard_interval = c->guard_interval;
		msg->body.fe_params.u.ofdm.hierarchy_information =
			c->hierarchy;
		break;
	case FAM_ATSC:
		msg->body.fe_params.u.vsb.modulation = c->modulation;
		break;
	default:
		break;
	}
}

static void tune_add(struct vtuner_ext_tune *t, u32 cmd, u32 data)
{
	if (t->num < VTUNER_EXT_MAX_PROPS) {
		t->props[t->num].cmd = cmd;
		t->props[t->num].data = data;
		t->num++;
	}
}

/* The tuning parameters as the DVBv5 properties an application sets. */
static void vtunerc_ext_params(const struct dtv_frontend_properties *c,
			       struct vtuner_ext_tune *t)
{
	unsigned int i;

	t->num = 0;
	tune_add(t, DTV_DELIVERY_SYSTEM, c->delivery_system);
	tune_add(t, DTV_FREQUENCY, c->frequency);
	tune_add(t, DTV_INVERSION, c->inversion);
	tune_add(t, DTV_MODULATION, c->modulation);
	tune_add(t, DTV_SYMBOL_RATE, c->symbol_rate);
	tune_add(t, DTV_INNER_FEC, c->fec_inner);
	tune_add(t, DTV_ROLLOFF, c->rolloff);
	tune_add(t, DTV_PILOT, c->pilot);
	tune_add(t, DTV_STREAM_ID, c->stream_id);
	tune_add(t, DTV_SCRAMBLING_SEQUENCE_INDEX,
		 c->scrambling_sequence_index);
	tune_add(t, DTV_BANDWIDTH_HZ, c->bandwidth_hz);
	tune_add(t, DTV_CODE_RATE_HP, c->code_rate_HP);
	tune_add(t, DTV_CODE_RATE_LP, c->code_rate_LP);
	tune_add(t, DTV_TRANSMISSION_MODE, c->transmission_mode);
	tune_add(t, DTV_GUARD_INTERVAL, c->guard_interval);
	tune_add(t, DTV_HIERARCHY, c->hierarchy);
	tune_add(t, DTV_INTERLEAVING, c->interleaving);
	tune_add(t, DTV_LNA, c->lna);
	if (c->delivery_system != SYS_ISDBT)
		return;
	tune_add(t, DTV_ISDBT_PARTIAL_RECEPTION, c->isdbt_partial_reception);
	tune_add(t, DTV_ISDBT_SOUND_BROADCASTING, c->isdbt_sb_mode);
	tune_add(t, DTV_ISDBT_SB_SUBCHANNEL_ID, c->isdbt_sb_subchannel);
	tune_add(t, DTV_ISDBT_SB_SEGMENT_IDX, c->isdbt_sb_segment_idx);
	tune_add(t, DTV_ISDBT_SB_SEGMENT_COUNT, c->isdbt_sb_segment_count);
	tune_add(t, DTV_ISDBT_LAYER_ENABLED, c->isdbt_layer_enabled);
	for (i = 0; i < 3; i++) {
		u32 base = DTV_ISDBT_LAYERA_FEC + 4 * i;

		tune_add(t, base, c->layer[i].fec);
		tune_add(t, base + 1, c->layer[i].modulation);
		tune_add(t, base + 2, c->layer[i].segment_count);
		tune_add(t, base + 3, c->layer[i].interleaving);
	}
}

static int vtunerc_fe_set_frontend(struct dvb_frontend *fe)
{
	struct vtunerc_ctx *ctx = fe_ctx(fe);
	struct dtv_frontend_properties *c = &fe->dtv_property_cache;
	struct vtuner_message msg;

	memset(&msg, 0, sizeof(msg));
	msg.type = MSG_SET_FRONTEND;
	vtunerc_classic_params(c, &msg);

	spin_lock(&ctx->lock);
	vtunerc_ext_params(c, &ctx->tune);
	ctx->tune.seq++;
	ctx->tuned = true;
	ctx->tune_jiffies = jiffies;
	/* Nothing pushed before this tune describes it. */
	memset(&ctx->status, 0, sizeof(ctx->status));
	spin_unlock(&ctx->lock);

	return vtunerc_xchg(ctx, &msg, true);
}

/* ---- status ----------------------------------------------------------- */

static int vtunerc_fe_read_status(struct dvb_frontend *fe,
				  enum fe_status *status)
{
	struct vtunerc_ctx *ctx = fe_ctx(fe);
	struct vtuner_message msg;
	int ret;

	spin_lock(&ctx->lock);
	if (!ctx->opened || vtunerc_has_feature(ctx, VTUNER_FEAT_STATUS)) {
		*status = ctx->opened ? ctx->status.status : 0;
		spin_unlock(&ctx->lock);
		return 0;
	}
	spin_unlock(&ctx->lock);

	memset(&msg, 0, sizeof(msg));
	msg.type = MSG_READ_STATUS;
	ret = vtunerc_xchg(ctx, &msg, true);
	if (ret == -ENOTCONN) {
		*status = 0;
		return 0;
	}
	if (ret)
		return ret;
	*status = msg.body.status;
	return 0;
}

/* Of the four DVBv3 statistics, the one a READ_* message type asks for. */
static u32 vtunerc_v3_pick(int type, u32 ber, u32 signal, u32 snr, u32 ucb)
{
	switch (type) {
	case MSG_READ_BER:
		return ber;
	case MSG_READ_SIGNAL_STRENGTH:
		return signal;
	case MSG_READ_SNR:
		return snr;
	default:
		return ucb;
	}
}

/* A DVBv3 statistics read: from the cache, or a classic round trip. */
static int vtunerc_fe_read_v3(struct dvb_frontend *fe, int type, u32 *val)
{
	struct vtunerc_ctx *ctx = fe_ctx(fe);
	struct vtuner_message msg;
	int ret;

	spin_lock(&ctx->lock);
	if (ctx->opened && vtunerc_has_feature(ctx, VTUNER_FEAT_STATUS)) {
		*val = vtunerc_v3_pick(type, ctx->status.ber,
				       ctx->status.signal, ctx->status.snr,
				       ctx->status.ucblocks);
		spin_unlock(&ctx->lock);
		return 0;
	}
	spin_unlock(&ctx->lock);

	memset(&msg, 0, sizeof(msg));
	msg.type = type;
	ret = vtunerc_xchg(ctx, &msg, true);
	if (ret)
		return ret;
	/* body is a union: each type's answer is in its own member */
	*val = vtunerc_v3_pick(type, msg.body.ber, msg.body.ss, msg.body.snr,
			       msg.body.ucb);
	return 0;
}

static int vtunerc_fe_read_ber(struct dvb_frontend *fe, u32 *ber)
{
	return vtunerc_fe_read_v3(fe, MSG_READ_BER, ber);
}

static int vtunerc_fe_read_signal_strength(struct dvb_frontend *fe,
					   u16 *strength)
{
	u32 v = 0;
	int ret = vtunerc_fe_read_v3(fe, MSG_READ_SIGNAL_STRENGTH, &v);

	*strength = v;
	return ret;
}

static int vtunerc_fe_read_snr(struct dvb_frontend *fe, u16 *snr)
{
	u32 v = 0;
	int ret = vtunerc_fe_read_v3(fe, MSG_READ_SNR, &v);

	*snr = v;
	return ret;
}

static int vtunerc_fe_read_ucblocks(struct dvb_frontend *fe, u32 *ucblocks)
{
	return vtunerc_fe_read_v3(fe, MSG_READ_UCBLOCKS, ucblocks);
}

static void stat_copy(struct dtv_fe_stats *dst, const struct dtv_fe_stats *src)
{
	if (src->len == 0) {
		dst->len = 1;
		dst->stat[0].scale = FE_SCALE_NOT_AVAILABLE;
		dst->stat[0].uvalue = 0;
		return;
	}
	*dst = *src;
}

static int vtunerc_fe_get_frontend(struct dvb_frontend *fe,
				   struct dtv_frontend_properties *c)
{
	struct vtunerc_ctx *ctx = fe_ctx(fe);
	struct vtuner_ext_status st;
	struct vtuner_message msg;
	bool classic;

	spin_lock(&ctx->lock);
	st = ctx->status;
	if (!ctx->opened)
		memset(&st, 0, sizeof(st));
	classic = ctx->opened && !vtunerc_has_feature(ctx, VTUNER_FEAT_PROPS);
	spin_unlock(&ctx->lock);

	stat_copy(&c->strength, &st.strength);
	stat_copy(&c->cnr, &st.cnr);
	stat_copy(&c->pre_bit_error, &st.pre_bit_error);
	stat_copy(&c->pre_bit_count, &st.pre_bit_count);
	stat_copy(&c->post_bit_error, &st.post_bit_error);
	stat_copy(&c->post_bit_count, &st.post_bit_count);
	stat_copy(&c->block_error, &st.block_error);
	stat_copy(&c->block_count, &st.block_count);

	if (!classic)
		return 0;

	/*
	 * A classic client reports what its tuner locked to.  Values it
	 * leaves at zero keep what the application asked for.
	 */
	memset(&msg, 0, sizeof(msg));
	msg.type = MSG_GET_FRONTEND;
	if (vtunerc_xchg(ctx, &msg, true) || !msg.body.fe_params.frequency)
		return 0;
	c->frequency = msg.body.fe_params.frequency;
	c->inversion = msg.body.fe_params.inversion & 0x03;
	switch (vtunerc_family(c->delivery_system)) {
	case FAM_SAT:
		if (msg.body.fe_params.u.qpsk.symbol_rate)
			c->symbol_rate = msg.body.fe_params.u.qpsk.symbol_rate;
		break;
	case FAM_CAB:
		if (msg.body.fe_params.u.qam.symbol_rate)
			c->symbol_rate = msg.body.fe_params.u.qam.symbol_rate;
		break;
	default:
		break;
	}
	return 0;
}

/*
 * When dvb-core's frontend thread calls tune() next.  Only that thread
 * turns a status change into a frontend event (FE_GET_EVENT, POLLPRI), and
 * nothing outside dvb-core can wake it, so the pushed lock of a new tune
 * waits for this delay before an application that sleeps on events sees
 * it.  Until the lock, for VTUNERC_FAST_WINDOW after a tune, the thread
 * reads the cached status every VTUNERC_FAST_DELAY; otherwise every 50 ms.
 * A classic read (no pushed status) is a round trip: every 500 ms.
 */
#define VTUNERC_FAST_DELAY	msecs_to_jiffies(2)
#define VTUNERC_FAST_WINDOW	(3 * HZ)

static unsigned int vtunerc_fe_delay(struct vtunerc_ctx *ctx,
				     enum fe_status status)
{
	unsigned long since;

	if (!vtunerc_has_feature(ctx, VTUNER_FEAT_STATUS))
		return HZ / 2;
	spin_lock(&ctx->lock);
	since = jiffies - ctx->tune_jiffies;
	spin_unlock(&ctx->lock);
	if (!(status & FE_HAS_LOCK) && since < VTUNERC_FAST_WINDOW)
		return VTUNERC_FAST_DELAY;
	return HZ / 20;
}

static int vtunerc_fe_tune(struct dvb_frontend *fe, bool re_tune,
			   unsigned int mode_flags, unsigned int *delay,
			   enum fe_status *status)
{
	struct vtunerc_ctx *ctx = fe_ctx(fe);
	int ret = 0;

	if (re_tune)
		ret = vtunerc_fe_set_frontend(fe);
	if (ret) {
		*status = 0;
		*delay = HZ / 2;
		return ret;
	}
	ret = vtunerc_fe_read_status(fe, status);
	*delay = vtunerc_fe_delay(ctx, *status);
	return ret;
}

static enum dvbfe_algo vtunerc_fe_get_algo(struct dvb_frontend *fe)
{
	return DVBFE_ALGO_HW;
}

/* ---- SEC -------------------------------------------------------------- */

static int vtunerc_fe_sec(struct dvb_frontend *fe, int type, u8 value)
{
	struct vtuner_message msg;

	memset(&msg, 0, sizeof(msg));
	msg.type = type;
	switch (type) {
	case MSG_SET_TONE:
		msg.body.tone = value;
		break;
	case MSG_SEND_DISEQC_BURST:
		msg.body.burst = value;
		break;
	default:	/* voltage and high voltage */
		msg.body.voltage = value;
		break;
	}
	return vtunerc_xchg(fe_ctx(fe), &msg, true);
}

static int vtunerc_fe_set_tone(struct dvb_frontend *fe,
			       enum fe_sec_tone_mode tone)
{
	return vtunerc_fe_sec(fe, MSG_SET_TONE, tone);
}

static int vtunerc_fe_set_voltage(struct dvb_frontend *fe,
				  enum fe_sec_voltage voltage)
{
	return vtunerc_fe_sec(fe, MSG_SET_VOLTAGE, voltage);
}

static int vtunerc_fe_enable_high_voltage(struct dvb_frontend *fe, long arg)
{
	return vtunerc_fe_sec(fe, MSG_ENABLE_HIGH_VOLTAGE, arg ? 1 : 0);
}

static int vtunerc_fe_send_burst(struct dvb_frontend *fe,
				 enum fe_sec_mini_cmd burst)
{
	return vtunerc_fe_sec(fe, MSG_SEND_DISEQC_BURST, burst);
}

static int vtunerc_fe_send_diseqc(struct dvb_frontend *fe,
				  struct dvb_diseqc_master_cmd *cmd)
{
	struct vtuner_message msg;
	size_t len = min_t(size_t, cmd->msg_len,
			   sizeof(msg.body.diseqc_master_cmd.msg));

	memset(&msg, 0, sizeof(msg));
	msg.type = MSG_SEND_DISEQC_MSG;
	memcpy(msg.body.diseqc_master_cmd.msg, cmd->msg, len);
	msg.body.diseqc_master_cmd.msg_len = len;
	return vtunerc_xchg(fe_ctx(fe), &msg, true);
}

static const struct dvb_frontend_ops vtunerc_fe_ops = {
	.info = {
		.name = VTUNERC_NO_CLIENT_NAME,
	},
	.get_frontend_algo = vtunerc_fe_get_algo,
	.tune = vtunerc_fe_tune,
	.get_frontend = vtunerc_fe_get_frontend,
	.read_status = vtunerc_fe_read_status,
	.read_ber = vtunerc_fe_read_ber,
	.read_signal_strength = vtunerc_fe_read_signal_strength,
	.read_snr = vtunerc_fe_read_snr,
	.read_ucblocks = vtunerc_fe_read_ucblocks,
	.set_tone = vtunerc_fe_set_tone,
	.set_voltage = vtunerc_fe_set_voltage,
	.enable_high_lnb_voltage = vtunerc_fe_enable_high_voltage,
	.diseqc_send_master_cmd = vtunerc_fe_send_diseqc,
	.diseqc_send_burst = vtunerc_fe_send_burst,
};

void vtunerc_fe_init(struct vtunerc_ctx *ctx)
{
	static const u8 all[] = {
		SYS_DVBS, SYS_DVBS2, SYS_DVBT, SYS_DVBT2, SYS_DVBC_ANNEX_A,
	};

	ctx->fe.ops = vtunerc_fe_ops;
	ctx->fe.demodulator_priv = ctx;
	vtunerc_fe_apply_delsys(ctx, all, ARRAY_SIZE(all));
}
