// SPDX-License-Identifier: GPL-2.0
/*
 * vts frontend: SEC (LNB voltage, 22 kHz tone, DiSEqC 1.0), the lock
 * decision of a tune request and plausible statistics.
 *
 * Matching rules (docs/sim.md):
 *  - the delivery system must be equal (a DVB-S transponder is not found
 *    with SYS_DVBS2, a DVB-T mux not with SYS_DVBT2 and vice versa);
 *  - satellite: RF = IF + LO (tone on: 10600 MHz, off: 9750 MHz); the
 *    band, the polarisation (13 V = V, 18 V = H; no LNB power = no
 *    signal) and the DiSEqC position must match; |RF - f| <=
 *    min(symbol_rate / 2000, 5000) kHz; symbol rate within 1%, not 0;
 *  - cable: |f - F| <= 500 kHz, symbol rate within 1%;
 *  - terrestrial: |f - F| <= 500 kHz; bandwidth 0 (auto) or equal;
 *    DVB-T2: stream_id equal to the PLP, NO_STREAM_ID_FILTER takes the
 *    mux with the lowest PLP on that frequency;
 *  - modulation, FEC and rolloff: AUTO or equal (DVB-C has no inner FEC:
 *    it is ignored there); pilot and inversion are detected by the
 *    demodulator and never prevent a lock.
 * Any SEC change drops the lock, as the LNB or the switch changes.
 */
#include <errno.h>
#include <string.h>

#include "server/sim/vts.h"

#define VTS_TERR_TOL_HZ		500000
#define VTS_SAT_TOL_MAX_KHZ	5000
#define VTS_PRE_BER_DIV		5000000	/* one bit error in 5e6 */

/*
 * Tone, voltage, DiSEqC and burst reach the dish: they end a satellite
 * lock (another band, polarisation or position) and leave a terrestrial
 * or cable one alone, as a combined frontend's other inputs.
 */
static void vts_fe_sec_changed(struct vts_frontend *fe)
{
	if (fe->locked && (fe->locked->delsys == SYS_DVBS ||
			   fe->locked->delsys == SYS_DVBS2))
		fe->locked = NULL;
}

void vts_fe_init(struct vts_frontend *fe)
{
	memset(fe, 0, sizeof(*fe));
	fe->tone = SEC_TONE_OFF;
	fe->voltage = SEC_VOLTAGE_OFF;
	fe->rng = 0x2545f491;
}

void vts_tune_params_init(struct vts_tune_params *p)
{
	memset(p, 0, sizeof(*p));
	p->delsys = SYS_UNDEFINED;
	p->modulation = QAM_AUTO;
	p->fec = FEC_AUTO;
	p->rolloff = ROLLOFF_AUTO;
	p->pilot = PILOT_AUTO;
	p->stream_id = NO_STREAM_ID_FILTER;
	p->inversion = INVERSION_AUTO;
}

int vts_fe_set_tone(struct vts_frontend *fe, enum fe_sec_tone_mode tone)
{
	if (tone != SEC_TONE_ON && tone != SEC_TONE_OFF)
		return -EINVAL;
	fe->tone = tone;
	vts_fe_sec_changed(fe);
	return 0;
}

int vts_fe_set_voltage(struct vts_frontend *fe, enum fe_sec_voltage v)
{
	if (v != SEC_VOLTAGE_13 && v != SEC_VOLTAGE_18 && v != SEC_VOLTAGE_OFF)
		return -EINVAL;
	fe->voltage = v;
	vts_fe_sec_changed(fe);
	return 0;
}

int vts_fe_enable_high_voltage(struct vts_frontend *fe, bool on)
{
	fe->high_voltage = on;
	return 0;
}

/*
 * DiSEqC: framing 0xe0..0xe3 (command from master), address 0x00 (any) or
 * 0x10..0x1f (LNB, switcher, ...).  0x38 (write N0, committed switches)
 * takes one data byte: its high nibble says which of the low nibble's
 * bits to write (bit 3..2: position, bit 1: horizontal, bit 0: high band).
 * Other commands are well-formed but ignored.
 */
int vts_fe_diseqc(struct vts_frontend *fe, const uint8_t *msg, size_t len)
{
	uint8_t mask, bits;

	if (len < 3 || len > 6)
		return -EINVAL;
	if ((msg[0] & 0xfc) != 0xe0)
		return -EINVAL;
	if (msg[1] != 0x00 && (msg[1] & 0xf0) != 0x10)
		return -EINVAL;
	if (msg[2] != 0x38)
		return 0;
	if (len != 4)
		return -EINVAL;
	mask = msg[3] >> 4;
	bits = (fe->committed & ~mask) | (msg[3] & mask);
	fe->committed = bits & 0x0f;
	fe->position = (fe->committed >> 2) & 3;
	vts_fe_sec_changed(fe);
	return 0;
}

/* mini DiSEqC: burst A = position 0, B = position 1 */
int vts_fe_burst(struct vts_frontend *fe, enum fe_sec_mini_cmd burst)
{
	if (burst != SEC_MINI_A && burst != SEC_MINI_B)
		return -EINVAL;
	fe->position = burst == SEC_MINI_A ? 0 : 1;
	vts_fe_sec_changed(fe);
	return 0;
}

static bool vts_within(uint32_t a, uint32_t b, uint32_t tol)
{
	return (a > b ? a - b : b - a) <= tol;
}

static bool vts_sr_ok(uint32_t want, uint32_t have)
{
	return want && vts_within(want, have, have / 100);
}

static bool vts_common_ok(const struct vts_transponder *tp,
			  const struct vts_tune_params *p)
{
	/*
	 * DVB-S has QPSK only, and its demods ignore DTV_MODULATION, which
	 * a DVBv3 tune leaves as an earlier tune of another system set it
	 * (dvb-core's cache is the frontend's, not the system's)
	 */
	if (tp->delsys != SYS_DVBS && p->modulation != QAM_AUTO &&
	    p->modulation != tp->modulation)
		return false;
	/* DVB-C (J.83 annex A) has no inner code: a cable demod ignores it */
	if (tp->delsys != SYS_DVBC_ANNEX_A && p->fec != FEC_AUTO &&
	    p->fec != tp->fec)
		return false;
	return true;
}

static bool vts_sat_match(const struct vts_frontend *fe,
			  const struct vts_transponder *tp,
			  const struct vts_tune_params *p)
{
	bool high = fe->tone == SEC_TONE_ON;
	uint32_t lo = high ? VTS_LOF_HIGH_KHZ : VTS_LOF_LOW_KHZ;
	uint32_t tol = tp->symbol_rate / 2000;
	enum vts_polarisation pol;

	if (fe->voltage == SEC_VOLTAGE_OFF)
		return false;
	pol = fe->voltage == SEC_VOLTAGE_18 ? VTS_POL_H : VTS_POL_V;
	if (pol != tp->pol || fe->position != tp->position)
		return false;
	if (high != (tp->frequency >= VTS_BAND_SPLIT_KHZ))
		return false;
	if (tol > VTS_SAT_TOL_MAX_KHZ)
		tol = VTS_SAT_TOL_MAX_KHZ;
	if (!vts_within(p->frequency + lo, tp->frequency, tol))
		return false;
	if (p->rolloff != ROLLOFF_AUTO && p->rolloff != tp->rolloff)
		return false;
	return vts_sr_ok(p->symbol_rate, tp->symbol_rate);
}

static bool vts_terr_match(const struct vts_transponder *tp,
			   const struct vts_tune_params *p)
{
	if (!vts_within(p->frequency, tp->frequency, VTS_TERR_TOL_HZ))
		return false;
	if (p->bandwidth_hz && p->bandwidth_hz != tp->bandwidth_hz)
		return false;
	if (tp->delsys != SYS_DVBT2)
		return true;
	return p->stream_id == NO_STREAM_ID_FILTER || p->stream_id == tp->plp;
}

static bool vts_match(const struct vts_frontend *fe,
		      const struct vts_transponder *tp,
		      const struct vts_tune_params *p)
{
	if (tp->delsys != p->delsys || !vts_common_ok(tp, p))
		return false;
	switch (tp->delsys) {
	case SYS_DVBS:
	case SYS_DVBS2:
		return vts_sat_match(fe, tp, p);
	case SYS_DVBT:
	case SYS_DVBT2:
		return vts_terr_match(tp, p);
	case SYS_DVBC_ANNEX_A:
		return vts_within(p->frequency, tp->frequency, VTS_TERR_TOL_HZ) &&
		       vts_sr_ok(p->symbol_rate, tp->symbol_rate);
	default:
		return false;
	}
}

const struct vts_transponder *vts_fe_tune(struct vts_frontend *fe,
					  const struct vts_world *w,
					  const struct vts_tune_params *p,
					  uint64_t now_ns)
{
	const struct vts_transponder *best = NULL;
	size_t i;

	/* the lowest PLP wins when a T2 request does not filter */
	for (i = 0; i < w->ntp; i++)
		if (vts_match(fe, &w->tp[i], p) &&
		    (!best || w->tp[i].plp < best->plp))
			best = &w->tp[i];
	fe->locked = best;
	fe->lock_ns = now_ns;
	return best;
}

/* xorshift32: noise in [-range, range] */
static int32_t vts_noise(struct vts_frontend *fe, int32_t range)
{
	uint32_t x = fe->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	fe->rng = x;
	return (int32_t)(x % (2 * (uint32_t)range + 1)) - range;
}

void vts_fe_stats(struct vts_frontend *fe, uint64_t now_ns,
		  struct vts_fe_stats *st)
{
	const struct vts_transponder *tp = fe->locked;
	unsigned __int128 bits;

	memset(st, 0, sizeof(*st));
	if (!tp) {
		st->strength_mdbm = -100000 + vts_noise(fe, 1000);
		return;
	}
	st->status = FE_HAS_SIGNAL | FE_HAS_CARRIER | FE_HAS_VITERBI |
		     FE_HAS_SYNC | FE_HAS_LOCK;
	st->strength_mdbm = tp->signal_mdbm + vts_noise(fe, 500);
	st->cnr_mdb = tp->cnr_mdb + vts_noise(fe, 300);
	bits = (unsigned __int128)(now_ns > fe->lock_ns ? now_ns - fe->lock_ns : 0) *
	       tp->bitrate / 1000000000u;
	st->pre_total = bits;
	st->pre_err = bits / VTS_PRE_BER_DIV;
	st->post_total = bits;
	st->blk_total = bits / (8 * VTS_TS_SIZE);
}
