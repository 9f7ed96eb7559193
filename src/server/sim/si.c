// SPDX-License-Identifier: GPL-2.0
/*
 * vts SI helpers: MPEG-2 CRC32, BCD, MJD/UTC time and the delivery
 * system descriptors of EN 300 468 (6.2.13 satellite, 6.2.13.1 cable,
 * 6.2.13.4 terrestrial, 6.4.6.3 T2).  libdvbpsi 1.3.3 has generators
 * for the first three but takes the BCD fields pre-encoded, so they are
 * encoded here where the byte layout can be tested.
 */
#include <string.h>

#include "server/sim/vts.h"

uint32_t vts_crc32(const uint8_t *data, size_t len)
{
	uint32_t crc = 0xffffffff;
	size_t i;
	int b;

	for (i = 0; i < len; i++) {
		crc ^= (uint32_t)data[i] << 24;
		for (b = 0; b < 8; b++)
			crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
	}
	return crc;
}

uint32_t vts_bcd(uint32_t value, unsigned int digits)
{
	uint32_t out = 0;
	unsigned int i;

	for (i = 0; i < digits; i++) {
		out |= (value % 10) << (4 * i);
		value /= 10;
	}
	return out;
}

uint16_t vts_mjd(time_t utc)
{
	return 40587 + utc / 86400;
}

uint32_t vts_dvb_duration(unsigned int seconds)
{
	return vts_bcd(seconds / 3600 % 100, 2) << 16 |
	       vts_bcd(seconds / 60 % 60, 2) << 8 |
	       vts_bcd(seconds % 60, 2);
}

uint64_t vts_dvb_time(time_t utc)
{
	return (uint64_t)vts_mjd(utc) << 24 | vts_dvb_duration(utc % 86400);
}

static void vts_put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* FEC_inner of the satellite and cable descriptors */
static uint8_t vts_fec_code(enum fe_code_rate fec)
{
	static const struct { enum fe_code_rate fec; uint8_t code; } t[] = {
		{ FEC_1_2, 1 }, { FEC_2_3, 2 }, { FEC_3_4, 3 }, { FEC_5_6, 4 },
		{ FEC_7_8, 5 }, { FEC_8_9, 6 }, { FEC_3_5, 7 }, { FEC_4_5, 8 },
		{ FEC_9_10, 9 }, { FEC_NONE, 15 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].fec == fec)
			return t[i].code;
	return 0;
}

static size_t vts_sat_descriptor(const struct vts_transponder *tp, uint8_t *d)
{
	static const uint8_t rolloff[] = {
		[ROLLOFF_35] = 0, [ROLLOFF_25] = 1, [ROLLOFF_20] = 2,
	};
	bool s2 = tp->delsys == SYS_DVBS2;
	uint8_t mod = tp->modulation == QPSK ? 1 : tp->modulation == PSK_8 ? 2 : 0;

	d[0] = 0x43;
	d[1] = 11;
	vts_put32(d + 2, vts_bcd(tp->frequency / 10, 8));
	d[6] = vts_bcd(tp->orbit, 4) >> 8;
	d[7] = vts_bcd(tp->orbit, 4);
	d[8] = (tp->west ? 0x80 : 0) | (tp->pol == VTS_POL_V ? 0x20 : 0) |
	       (s2 && tp->rolloff <= ROLLOFF_20 ? rolloff[tp->rolloff] << 3 : 0) |
	       (s2 ? 0x04 : 0) | mod;
	vts_put32(d + 9, vts_bcd(tp->symbol_rate / 100, 7) << 4 |
		  vts_fec_code(tp->fec));
	return 13;
}

static uint8_t vts_qam_code(enum fe_modulation m)
{
	switch (m) {
	case QAM_16: return 1;
	case QAM_32: return 2;
	case QAM_64: return 3;
	case QAM_128: return 4;
	case QAM_256: return 5;
	default: return 0;
	}
}

static size_t vts_cable_descriptor(const struct vts_transponder *tp, uint8_t *d)
{
	d[0] = 0x44;
	d[1] = 11;
	vts_put32(d + 2, vts_bcd(tp->frequency / 100, 8));
	d[6] = 0xff;
	d[7] = 0xf2;		/* reserved, FEC_outer: RS(204/188) */
	d[8] = vts_qam_code(tp->modulation);
	vts_put32(d + 9, vts_bcd(tp->symbol_rate / 100, 7) << 4 |
		  (tp->fec == FEC_AUTO ? 15 : vts_fec_code(tp->fec)));
	return 13;
}

static uint8_t vts_terr_rate(enum fe_code_rate fec)
{
	switch (fec) {
	case FEC_1_2: return 0;
	case FEC_2_3: return 1;
	case FEC_3_4: return 2;
	case FEC_5_6: return 3;
	case FEC_7_8: return 4;
	default: return 1;
	}
}

static size_t vts_terr_descriptor(const struct vts_transponder *tp, uint8_t *d)
{
	uint8_t bw = tp->bandwidth_hz == 7000000 ? 1 :
		     tp->bandwidth_hz == 6000000 ? 2 :
		     tp->bandwidth_hz == 5000000 ? 3 : 0;
	uint8_t con = tp->modulation == QPSK ? 0 : tp->modulation == QAM_16 ? 1 : 2;

	d[0] = 0x5a;
	d[1] = 11;
	vts_put32(d + 2, tp->frequency / 10);
	d[6] = bw << 5 | 0x10 | 0x08 | 0x04 | 0x03;	/* HP, no TS, no MPE-FEC */
	d[7] = con << 6 | vts_terr_rate(tp->fec);	/* non-hierarchical */
	d[8] = 3 << 3 | 1 << 1;			/* GI 1/4, 8k, single freq */
	vts_put32(d + 9, 0xffffffff);
	return 13;
}

static size_t vts_t2_descriptor(const struct vts_transponder *tp, uint8_t *d)
{
	d[0] = 0x7f;		/* extension descriptor */
	d[1] = 4;
	d[2] = 0x04;		/* T2_delivery_system_descriptor */
	d[3] = tp->plp;
	d[4] = tp->ts_id >> 8;	/* T2_system_id */
	d[5] = tp->ts_id;
	return 6;
}

size_t vts_delivery_descriptor(const struct vts_transponder *tp,
			       uint8_t *d, size_t size)
{
	if (size < 13)
		return 0;
	switch (tp->delsys) {
	case SYS_DVBS:
	case SYS_DVBS2:
		return vts_sat_descriptor(tp, d);
	case SYS_DVBC_ANNEX_A:
		return vts_cable_descriptor(tp, d);
	case SYS_DVBT:
		return vts_terr_descriptor(tp, d);
	case SYS_DVBT2:
		return vts_t2_descriptor(tp, d);
	default:
		return 0;
	}
}
