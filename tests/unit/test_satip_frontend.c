// SPDX-License-Identifier: GPL-2.0
/*
 * test_satip_frontend.c - a frontend's tuning as a SAT>IP query, for a
 * client (satip/frontend.c): DiSEqC and burst to src, and round trips
 * through the server's mapping - for many tunings and LNBs,
 * satip_tune_to_props() of satip_tune_from_props() gives back the same
 * IF, voltage, tone, DiSEqC input and properties, and the query it
 * formats parses back; AUTO and unnamed values left out, PLS encodings,
 * errors.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/dvb/frontend.h>

#include "satip/query.h"

#define BIT(a) (1U << SATIP_A_##a)

static struct satip_tune t;
static char err[64];

static void test_src(void **state)
{
	static const struct satip_lnb lnb = SATIP_LNB_UNIVERSAL;
	uint8_t m[6] = { 0xe0, 0x10, 0x38, 0xf0 };
	struct satip_tune x = { 0 };
	struct satip_dvb d;
	unsigned int src, f;

	(void)state;
	/* the committed command the server sends, for every src, band, pol */
	for (src = 1; src <= 4; src++)
		for (f = 0; f < 4; f++) {
			x.present = BIT(SRC) | BIT(FREQ) | BIT(POL) | BIT(MSYS) |
				    BIT(SR);
			x.src = src;
			x.freq = f & 1 ? 12000000 : 11000000;
			x.pol = f & 2 ? SATIP_POL_H : SATIP_POL_V;
			x.msys = SYS_DVBS2;
			x.sr = 27500000;
			assert_int_equal(satip_tune_to_props(&x, &lnb, &d, err,
							     sizeof(err)), 0);
			assert_int_equal(satip_src_of_diseqc(d.diseqc.msg,
							     d.diseqc.len), src);
		}
	assert_int_equal(satip_src_of_diseqc(m, 4), 1);
	m[3] = 0xfc;
	assert_int_equal(satip_src_of_diseqc(m, 4), 4);
	m[3] = 0x04;		/* only the position and option bits count */
	assert_int_equal(satip_src_of_diseqc(m, 4), 2);
	m[0] = 0xe1;		/* repeated, reply wanted... */
	m[1] = 0x11;		/* to an LNB */
	assert_int_equal(satip_src_of_diseqc(m, 6), 2);
	m[0] = 0xe3;
	m[1] = 0x00;
	assert_int_equal(satip_src_of_diseqc(m, 4), 2);
	/* uncommitted: 16 inputs */
	m[2] = 0x39;
	m[3] = 0xf0;
	assert_int_equal(satip_src_of_diseqc(m, 4), 1);
	m[3] = 0xfb;
	assert_int_equal(satip_src_of_diseqc(m, 4), 12);
	/* no input: short, not from a master, other devices or commands */
	assert_int_equal(satip_src_of_diseqc(m, 3), 0);
	assert_int_equal(satip_src_of_diseqc(NULL, 0), 0);
	m[0] = 0xe4;
	assert_int_equal(satip_src_of_diseqc(m, 4), 0);
	m[0] = 0xe0;
	m[1] = 0x31;		/* a positioner */
	assert_int_equal(satip_src_of_diseqc(m, 4), 0);
	m[1] = 0x10;
	m[2] = 0x6b;		/* goto stored position */
	assert_int_equal(satip_src_of_diseqc(m, 4), 0);
	m[2] = 0x00;		/* reset */
	assert_int_equal(satip_src_of_diseqc(m, 3), 0);

	assert_int_equal(satip_src_of_burst(SEC_MINI_A), 1);
	assert_int_equal(satip_src_of_burst(SEC_MINI_B), 2);
	assert_int_equal(satip_src_of_burst(7), 0);
}

/*
 * query -> satip_tune_to_props() -> what vtunerc sees -> the tuning back:
 * the same properties and SEC, and a query that parses to it.
 */
static void round_trip(const char *query, const struct satip_lnb *lnb)
{
	struct satip_pids_op op;
	struct satip_tune x, back;
	struct satip_dvb d, d2;
	struct satip_sec_state sec;
	char q[512];

	assert_int_equal(satip_query_parse(query, &x, &op, err, sizeof(err)), 0);
	assert_int_equal(satip_tune_to_props(&x, lnb, &d, err, sizeof(err)), 0);
	satip_sec_init(&sec);
	if (d.sec) {
		sec.src = satip_src_of_diseqc(d.diseqc.msg, d.diseqc.len);
		sec.tone = (int)d.tone;
		sec.voltage = (int)d.voltage;
	}
	assert_int_equal(satip_tune_from_props(d.props, d.num, &sec, lnb, &t,
					       err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(satip_tune_to_props(&t, lnb, &d2, err, sizeof(err)), 0);
	assert_int_equal(d2.num, d.num);
	assert_memory_equal(d2.props, d.props, d.num * sizeof(d.props[0]));
	assert_int_equal(d2.sec, d.sec);
	assert_int_equal(d2.voltage, d.voltage);
	assert_int_equal(d2.tone, d.tone);
	assert_int_equal(d2.hiband, d.hiband);
	assert_int_equal(d2.diseqc.len, d.diseqc.len);
	assert_memory_equal(d2.diseqc.msg, d.diseqc.msg, d.diseqc.len);
	/* the transponder: the same (l and r come back as h and v) */
	assert_int_equal(t.freq, x.freq);
	assert_int_equal(t.msys, x.msys);
	if (satip_has(&x, SATIP_A_POL))
		assert_int_equal(t.pol, x.pol == SATIP_POL_L ? SATIP_POL_H :
				 x.pol == SATIP_POL_R ? SATIP_POL_V : x.pol);
	if (!satip_has(&x, SATIP_A_PLSM) || x.plsm == SATIP_PLSM_GOLD)
		assert_true(satip_tune_same(&t, &x) || x.pol > SATIP_POL_V);
	assert_true(satip_query_format(q, sizeof(q), &t) > 0);
	assert_int_equal(satip_query_parse(q, &back, &op, err, sizeof(err)), 0);
	assert_memory_equal(&back, &t, sizeof(t));
}

static void test_round_trip(void **state)
{
	static const char *const sat[] = {
		"src=1&freq=11494&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23",
		"src=4&freq=12603.5&pol=v&ro=0.20&msys=dvbs2&mtype=32apsk&plts=off&sr=30000&fec=910",
		"src=2&freq=10714.25&pol=l&msys=dvbs&sr=1234.5&fec=56",
		"src=3&freq=12187&pol=r&msys=dvbs2&sr=27500&isi=7&plsm=gold&plsc=131070",
		"freq=11700&pol=h&msys=dvbs2&sr=30000&isi=0&plsm=root&plsc=16416",
		"freq=11699.999&pol=v&msys=dvbs&sr=45000&mtype=qpsk&ro=0.35",
		"freq=12750&pol=h&msys=dvbs2&sr=1000&mtype=16apsk&fec=35&ro=0.25",
		"freq=10700&pol=v&msys=dvbs2&sr=100000&mtype=qpsk&fec=12&plts=on",
	};
	static const char *const single[] = {
		"freq=11600&pol=h&msys=dvbs2&sr=27500",
		"freq=12200&pol=v&msys=dvbs&sr=22000&fec=78",
	};
	static const char *const cband[] = {
		"freq=3800&pol=h&msys=dvbs2&sr=30000&mtype=8psk",
		"freq=4199.5&pol=v&msys=dvbs&sr=2000",
	};
	static const char *const other[] = {
		"freq=506&bw=8&msys=dvbt2&tmode=32k&mtype=256qam&gi=19256&fec=35&plp=1",
		"freq=474.166&msys=dvbt",
		"freq=177.5&bw=1.712&msys=dvbt2&tmode=1k&gi=1128&plp=255",
		"freq=858&bw=7&msys=dvbt&tmode=8k&mtype=64qam&gi=14&fec=78",
		"freq=626&bw=5&msys=dvbt&tmode=2k&mtype=qpsk&gi=132&fec=12",
		"freq=346&msys=dvbc&mtype=256qam&sr=6900&specinv=1",
		"freq=113&msys=dvbc&sr=6875&specinv=0",
		"freq=862.25&msys=dvbc&mtype=16qam&sr=1000",
	};
	static const struct satip_lnb universal = SATIP_LNB_UNIVERSAL;
	static const struct satip_lnb ku = { 10600000, 0, 0, false };
	static const struct satip_lnb c = { 5150000, 0, 0, false };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(sat) / sizeof(sat[0]); i++) {
		round_trip(sat[i], NULL);
		round_trip(sat[i], &universal);
	}
	for (i = 0; i < sizeof(single) / sizeof(single[0]); i++)
		round_trip(single[i], &ku);
	for (i = 0; i < sizeof(cband) / sizeof(cband[0]); i++)
		round_trip(cband[i], &c);
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		round_trip(other[i], NULL);

	/* what came back, once in detail */
	round_trip("src=3&freq=12187&pol=r&msys=dvbs2&sr=27500&isi=7&plsm=root&plsc=8", NULL);
	assert_int_equal(t.present, BIT(SRC) | BIT(FREQ) | BIT(POL) | BIT(MSYS) |
			 BIT(SR) | BIT(ISI) | BIT(PLSM) | BIT(PLSC));
	assert_int_equal(t.src, 3);
	assert_int_equal(t.freq, 12187000);
	assert_int_equal(t.pol, SATIP_POL_V);
	assert_int_equal(t.plsm, SATIP_PLSM_GOLD);
	assert_int_equal(satip_pls_gold_to_root(t.plsc), 8);
	round_trip("freq=3800&pol=h&msys=dvbs&sr=30000", &c);
	assert_int_equal(t.present, BIT(SRC) | BIT(FREQ) | BIT(POL) | BIT(MSYS) |
			 BIT(SR) | BIT(MTYPE) | BIT(RO));
	assert_int_equal(t.src, 1);
	assert_int_equal(t.freq, 3800000);
	assert_int_equal(t.mtype, QPSK);
	assert_int_equal(t.ro, ROLLOFF_35);
	round_trip("freq=474.166&msys=dvbt", NULL);
	assert_int_equal(t.present, BIT(FREQ) | BIT(MSYS));
	assert_int_equal(t.freq, 474166);
}

#define P(c, v) { c, v }

static int from(const struct vtp_prop *p, unsigned int n,
		const struct satip_sec_state *sec)
{
	return satip_tune_from_props(p, n, sec, NULL, &t, err, sizeof(err));
}

static void test_values(void **state)
{
	const struct satip_sec_state low_v = { 0, SEC_TONE_OFF, SEC_VOLTAGE_13 };
	const struct satip_sec_state high_h = { 2, SEC_TONE_ON, SEC_VOLTAGE_18 };
	const struct satip_sec_state no_tone = { 0, -1, SEC_VOLTAGE_18 };
	const struct satip_sec_state off = { 0, SEC_TONE_OFF, SEC_VOLTAGE_OFF };
	struct vtp_prop s2[] = {
		P(DTV_DELIVERY_SYSTEM, SYS_DVBS2), P(DTV_FREQUENCY, 1244000),
		P(DTV_SYMBOL_RATE, 27500000), P(DTV_INNER_FEC, FEC_AUTO),
		P(DTV_MODULATION, QAM_AUTO), P(DTV_ROLLOFF, ROLLOFF_AUTO),
		P(DTV_PILOT, PILOT_AUTO), P(DTV_STREAM_ID, NO_STREAM_ID_FILTER),
		P(DTV_INVERSION, INVERSION_AUTO),
		P(DTV_SCRAMBLING_SEQUENCE_INDEX, 0),
	};
	struct vtp_prop t2[] = {
		P(DTV_DELIVERY_SYSTEM, SYS_DVBT2), P(DTV_FREQUENCY, 474166666),
		P(DTV_BANDWIDTH_HZ, 0), P(DTV_TRANSMISSION_MODE, TRANSMISSION_MODE_AUTO),
		P(DTV_GUARD_INTERVAL, GUARD_INTERVAL_AUTO),
		P(DTV_CODE_RATE_HP, FEC_AUTO), P(DTV_MODULATION, QAM_AUTO),
		P(DTV_STREAM_ID, NO_STREAM_ID_FILTER),
	};
	struct vtp_prop c[] = {
		P(DTV_DELIVERY_SYSTEM, SYS_DVBC_ANNEX_A), P(DTV_FREQUENCY, 346000000),
		P(DTV_SYMBOL_RATE, 6900000), P(DTV_INVERSION, INVERSION_AUTO),
		P(DTV_MODULATION, QAM_AUTO), P(DTV_INNER_FEC, FEC_AUTO),
	};

	(void)state;
	/* AUTO left out */
	assert_int_equal(from(s2, 10, &low_v), 0);
	assert_int_equal(t.present, BIT(SRC) | BIT(FREQ) | BIT(POL) | BIT(MSYS) |
			 BIT(SR));
	assert_int_equal(t.freq, 10994000);
	assert_int_equal(t.pol, SATIP_POL_V);
	assert_int_equal(t.src, 1);
	assert_int_equal(from(t2, 8, NULL), 0);
	assert_int_equal(t.present, BIT(FREQ) | BIT(MSYS));
	assert_int_equal(t.freq, 474167);
	assert_int_equal(from(c, 6, NULL), 0);
	assert_int_equal(t.present, BIT(FREQ) | BIT(MSYS) | BIT(SR));

	/* the band the tone selects; tone unknown: low; the last value counts */
	assert_int_equal(from(s2, 10, &high_h), 0);
	assert_int_equal(t.freq, 11844000);
	assert_int_equal(t.pol, SATIP_POL_H);
	assert_int_equal(t.src, 2);
	assert_int_equal(from(s2, 10, &no_tone), 0);
	assert_int_equal(t.freq, 10994000);

	/* values without a SAT>IP name, modulations of another system */
	s2[3].data = FEC_6_7;
	s2[4].data = QAM_64;
	s2[5].data = ROLLOFF_AUTO;
	assert_int_equal(from(s2, 10, &low_v), 0);
	assert_int_equal(t.present, BIT(SRC) | BIT(FREQ) | BIT(POL) | BIT(MSYS) |
			 BIT(SR));
	s2[3].data = FEC_3_5;
	s2[4].data = APSK_16;
	s2[5].data = ROLLOFF_20;
	s2[6].data = PILOT_OFF;
	assert_int_equal(from(s2, 10, &low_v), 0);
	assert_int_equal(t.fec, FEC_3_5);
	assert_int_equal(t.mtype, APSK_16);
	assert_int_equal(t.ro, ROLLOFF_20);
	assert_int_equal(t.plts, PILOT_OFF);
	/* DVB-S: QPSK and 0.35 always, no pilots */
	s2[0].data = SYS_DVBS;
	assert_int_equal(from(s2, 10, &low_v), 0);
	assert_int_equal(t.mtype, QPSK);
	assert_int_equal(t.ro, ROLLOFF_35);
	assert_false(satip_has(&t, SATIP_A_PLTS));
	s2[0].data = SYS_DVBS2;

	/* PLS: in DTV_STREAM_ID's upper bits, or the gold index */
	s2[7].data = 5 | 1234 << 8 | 1U << 26;
	assert_int_equal(from(s2, 10, &low_v), 0);
	assert_int_equal(t.isi, 5);
	assert_int_equal(t.plsm, SATIP_PLSM_GOLD);
	assert_int_equal(t.plsc, 1234);
	s2[7].data = 6 | 262143U << 8;
	assert_int_equal(from(s2, 10, &low_v), 0);
	assert_int_equal(t.isi, 6);
	assert_int_equal(t.plsm, SATIP_PLSM_ROOT);
	assert_int_equal(t.plsc, 262143);
	s2[7].data = 7 | 2U << 26;
	assert_int_equal(from(s2, 10, &low_v), 0);
	assert_int_equal(t.plsm, SATIP_PLSM_COMBO);
	s2[7].data = 8 | 1U << 8;	/* root 1: no scrambling */
	assert_int_equal(from(s2, 10, &low_v), 0);
	assert_int_equal(t.isi, 8);
	assert_false(satip_has(&t, SATIP_A_PLSM));
	s2[9].data = 77;
	assert_int_equal(from(s2, 10, &low_v), 0);
	assert_int_equal(t.plsm, SATIP_PLSM_GOLD);
	assert_int_equal(t.plsc, 77);

	/* DVB-T2's PLP; DVB-C's inversion */
	t2[7].data = 3;
	t2[2].data = 8000000;
	assert_int_equal(from(t2, 8, NULL), 0);
	assert_int_equal(t.present, BIT(FREQ) | BIT(MSYS) | BIT(PLP) | BIT(BW));
	assert_int_equal(t.plp, 3);
	t2[0].data = SYS_DVBT;
	assert_int_equal(from(t2, 8, NULL), 0);
	assert_false(satip_has(&t, SATIP_A_PLP));
	c[3].data = INVERSION_ON;
	assert_int_equal(from(c, 6, NULL), 0);
	assert_int_equal(t.specinv, 1);

	/* errors */
	assert_int_equal(from(s2, 0, &low_v), -EINVAL);
	assert_string_equal(err, "delivery system");
	s2[0].data = SYS_ISDBS;
	assert_int_equal(from(s2, 10, &low_v), -EINVAL);
	assert_string_equal(err, "delivery system");
	s2[0].data = SYS_DVBS2;
	assert_int_equal(from(s2, 10, &off), -EINVAL);
	assert_string_equal(err, "voltage");
	assert_int_equal(from(s2, 10, NULL), -EINVAL);
	assert_string_equal(err, "voltage");
	assert_int_equal(from(s2, 2, &low_v), -EINVAL);
	assert_string_equal(err, "symbol rate");
	assert_int_equal(from(s2, 1, &low_v), -EINVAL);
	assert_string_equal(err, "frequency");
	c[2].data = 0;
	assert_int_equal(from(c, 6, NULL), -EINVAL);
	assert_string_equal(err, "symbol rate");
	c[1].data = 0;
	assert_int_equal(from(c, 6, NULL), -EINVAL);
	assert_string_equal(err, "frequency");
	c[0].data = SYS_DVBC_ANNEX_B;
	assert_int_equal(from(c, 6, NULL), -EINVAL);
	/* err may be NULL; C-band: an IF above the LOF */
	assert_int_equal(satip_tune_from_props(s2, 10, &low_v, NULL, &t, NULL, 0), 0);
	{
		static const struct satip_lnb cb = { 5150000, 0, 0, false };

		s2[1].data = 5150000;
		assert_int_equal(satip_tune_from_props(s2, 10, &low_v, &cb, &t,
						       err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "frequency");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_src),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
