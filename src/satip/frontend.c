// SPDX-License-Identifier: GPL-2.0
/*
 * frontend.c - a frontend's tuning as a SAT>IP query, for a client: the
 * inverse of satip_tune_to_props(), see query.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/dvb/frontend.h>

#include "common/dvb.h"
#include "satip/query.h"

/* Limits of the query's freq and sr (query.c: MHz and ksym/s x 1000) */
#define FREQ_MAX	100000000U	/* kHz */
#define SR_MAX		100000000U	/* sym/s */

void satip_sec_init(struct satip_sec_state *sec)
{
	sec->src = 0;
	sec->tone = -1;
	sec->voltage = -1;
}

unsigned int satip_src_of_diseqc(const uint8_t *msg, unsigned int len)
{
	/* framing E0..E3: from the master, reply or not, repeated or not */
	if (len < 4 || (msg[0] & 0xfc) != 0xe0)
		return 0;
	/* any device, or any LNB, switch or SMATV (10..1F) */
	if (msg[1] != 0x00 && (msg[1] & 0xf0) != 0x10)
		return 0;
	if (msg[2] == 0x38)		/* write N0: committed */
		return ((msg[3] & 0x0c) >> 2) + 1;
	if (msg[2] == 0x39)		/* write N1: uncommitted */
		return (msg[3] & 0x0f) + 1;
	return 0;
}

unsigned int satip_src_of_burst(unsigned int burst)
{
	return burst == SEC_MINI_A ? 1 : burst == SEC_MINI_B ? 2 : 0;
}

/* The value of the last property cmd; false if there is none. */
static bool get(const struct vtp_prop *props, unsigned int num, uint32_t cmd,
		uint32_t *v)
{
	while (num--)
		if (props[num].cmd == cmd) {
			*v = props[num].data;
			return true;
		}
	return false;
}

static void put(struct satip_tune *t, enum satip_attr a, uint32_t *field,
		uint32_t v)
{
	*field = v;
	t->present |= 1U << a;
}

/* A token attribute, if v has a SAT>IP name. */
static void put_tok(struct satip_tune *t, enum satip_attr a, uint32_t *field,
		    uint32_t v)
{
	if (satip_tok_name(a, v))
		put(t, a, field, v);
}

static int fail(char *err, size_t errlen, const char *what)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", what);
	return -EINVAL;
}

/* DTV_STREAM_ID's PLS bits, out-of-tree style: code 8..25, mode 26..27. */
static void put_pls(struct satip_tune *t, const struct vtp_prop *props,
		    unsigned int num)
{
	uint32_t v, code, mode;

	if (get(props, num, DTV_SCRAMBLING_SEQUENCE_INDEX, &v) && v) {
		put(t, SATIP_A_PLSM, &t->plsm, SATIP_PLSM_GOLD);
		put(t, SATIP_A_PLSC, &t->plsc, v & 0x3ffff);
		return;
	}
	if (!get(props, num, DTV_STREAM_ID, &v) || v == NO_STREAM_ID_FILTER)
		return;
	code = v >> 8 & 0x3ffff;
	mode = v >> 26 & 3;
	if ((mode == 0 && code <= 1) || (mode == 1 && !code) || mode == 3)
		return;		/* the default scrambling, or no mode */
	put(t, SATIP_A_PLSM, &t->plsm, mode == 0 ? SATIP_PLSM_ROOT :
	    mode == 1 ? SATIP_PLSM_GOLD : SATIP_PLSM_COMBO);
	put(t, SATIP_A_PLSC, &t->plsc, code);
}

static int sat(const struct vtp_prop *props, unsigned int num,
	       const struct satip_sec_state *sec, const struct satip_lnb *lnb,
	       struct satip_tune *t, char *err, size_t errlen)
{
	uint32_t ifreq, lof, v;
	uint64_t f;

	if (!get(props, num, DTV_FREQUENCY, &ifreq) || !ifreq)
		return fail(err, errlen, "frequency");
	if (sec->voltage != SEC_VOLTAGE_13 && sec->voltage != SEC_VOLTAGE_18)
		return fail(err, errlen, "voltage");
	lof = lnb->lof_high && sec->tone == SEC_TONE_ON ? lnb->lof_high :
	      lnb->lof_low;
	if (lof < SATIP_LOF_CBAND_MAX) {
		if (ifreq >= lof)
			return fail(err, errlen, "frequency");
		f = lof - ifreq;
	} else {
		f = (uint64_t)lof + ifreq;
	}
	if (f > FREQ_MAX)
		return fail(err, errlen, "frequency");
	put(t, SATIP_A_FREQ, &t->freq, (uint32_t)f);
	put(t, SATIP_A_POL, &t->pol, sec->voltage == SEC_VOLTAGE_18 ?
	    SATIP_POL_H : SATIP_POL_V);
	put(t, SATIP_A_SRC, &t->src, sec->src ? sec->src : 1);
	if (!get(props, num, DTV_SYMBOL_RATE, &v) || !v || v > SR_MAX)
		return fail(err, errlen, "symbol rate");
	put(t, SATIP_A_SR, &t->sr, v);
	if (get(props, num, DTV_INNER_FEC, &v))
		put_tok(t, SATIP_A_FEC, &t->fec, v);
	if (t->msys == SYS_DVBS) {
		/* the only values of DVB-S, which some servers want named */
		put(t, SATIP_A_MTYPE, &t->mtype, QPSK);
		put(t, SATIP_A_RO, &t->ro, ROLLOFF_35);
		return 0;
	}
	if (get(props, num, DTV_ROLLOFF, &v))
		put_tok(t, SATIP_A_RO, &t->ro, v);
	if (get(props, num, DTV_PILOT, &v))
		put_tok(t, SATIP_A_PLTS, &t->plts, v);
	if (get(props, num, DTV_STREAM_ID, &v) && v != NO_STREAM_ID_FILTER)
		put(t, SATIP_A_ISI, &t->isi, v & 0xff);
	put_pls(t, props, num);
	return 0;
}

/* DTV_FREQUENCY in Hz, as kHz */
static int freq_hz(const struct vtp_prop *props, unsigned int num,
		   struct satip_tune *t, char *err, size_t errlen)
{
	uint32_t v, khz;

	if (!get(props, num, DTV_FREQUENCY, &v))
		return fail(err, errlen, "frequency");
	khz = v / 1000 + (v % 1000 >= 500);
	if (!khz || khz > FREQ_MAX)
		return fail(err, errlen, "frequency");
	put(t, SATIP_A_FREQ, &t->freq, khz);
	return 0;
}

static int ter(const struct vtp_prop *props, unsigned int num,
	       struct satip_tune *t, char *err, size_t errlen)
{
	uint32_t v;

	if (freq_hz(props, num, t, err, errlen))
		return -EINVAL;
	if (get(props, num, DTV_BANDWIDTH_HZ, &v))
		put_tok(t, SATIP_A_BW, &t->bw, v);
	if (get(props, num, DTV_TRANSMISSION_MODE, &v))
		put_tok(t, SATIP_A_TMODE, &t->tmode, v);
	if (get(props, num, DTV_GUARD_INTERVAL, &v))
		put_tok(t, SATIP_A_GI, &t->gi, v);
	if (get(props, num, DTV_CODE_RATE_HP, &v))
		put_tok(t, SATIP_A_FEC, &t->fec, v);
	if (t->msys == SYS_DVBT2 && get(props, num, DTV_STREAM_ID, &v) &&
	    v <= 255)
		put(t, SATIP_A_PLP, &t->plp, v);
	return 0;
}

static int cab(const struct vtp_prop *props, unsigned int num,
	       struct satip_tune *t, char *err, size_t errlen)
{
	uint32_t v;

	if (freq_hz(props, num, t, err, errlen))
		return -EINVAL;
	if (!get(props, num, DTV_SYMBOL_RATE, &v) || !v || v > SR_MAX)
		return fail(err, errlen, "symbol rate");
	put(t, SATIP_A_SR, &t->sr, v);
	if (get(props, num, DTV_INVERSION, &v) &&
	    (v == INVERSION_ON || v == INVERSION_OFF))
		put(t, SATIP_A_SPECINV, &t->specinv, v == INVERSION_ON);
	return 0;
}

int satip_tune_from_props(const struct vtp_prop *props, unsigned int num,
			  const struct satip_sec_state *sec,
			  const struct satip_lnb *lnb, struct satip_tune *out,
			  char *err, size_t errlen)
{
	static const struct satip_lnb universal = SATIP_LNB_UNIVERSAL;
	static const struct satip_sec_state unknown = { 0, -1, -1 };
	uint32_t v;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	if (!lnb)
		lnb = &universal;
	if (!sec)
		sec = &unknown;
	if (!get(props, num, DTV_DELIVERY_SYSTEM, &v) ||
	    (v != SYS_DVBS && v != SYS_DVBS2 && v != SYS_DVBT &&
	     v != SYS_DVBT2 && v != SYS_DVBC_ANNEX_A))
		return fail(err, errlen, "delivery system");
	put(out, SATIP_A_MSYS, &out->msys, v);
	if (get(props, num, DTV_MODULATION, &v) && satip_mtype_valid(out->msys, v))
		put(out, SATIP_A_MTYPE, &out->mtype, v);
	if (vt_delsys_is_sat(out->msys))
		return sat(props, num, sec, lnb, out, err, errlen);
	if (vt_delsys_is_ter(out->msys))
		return ter(props, num, out, err, errlen);
	return cab(props, num, out, err, errlen);
}
