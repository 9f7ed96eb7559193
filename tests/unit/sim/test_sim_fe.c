// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the vts frontend: SEC, DiSEqC, the tuning matrix, stats. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "server/sim/vts.h"

struct fixture {
	struct vts_world w;
	struct vts_frontend fe;
};

static int setup(void **state)
{
	static struct fixture f;

	vts_world_init(&f.w);
	if (vts_world_default(&f.w))
		return -1;
	vts_fe_init(&f.fe);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	vts_world_free(&f->w);
	return 0;
}

static const struct vts_transponder *tp(struct fixture *f, const char *name)
{
	const struct vts_transponder *t = vts_world_find(&f->w, name);

	assert_non_null(t);
	return t;
}

/* the SEC and parameters an application would send for a transponder */
static void sat_setup(struct fixture *f, const struct vts_transponder *t,
		      struct vts_tune_params *p)
{
	bool high = t->frequency >= VTS_BAND_SPLIT_KHZ;
	uint8_t msg[4] = { 0xe0, 0x10, 0x38, 0xf0 };

	msg[3] |= t->position << 2 | (t->pol == VTS_POL_H) << 1 | high;
	assert_int_equal(vts_fe_set_voltage(&f->fe, t->pol == VTS_POL_H ?
					    SEC_VOLTAGE_18 : SEC_VOLTAGE_13), 0);
	assert_int_equal(vts_fe_diseqc(&f->fe, msg, 4), 0);
	assert_int_equal(vts_fe_set_tone(&f->fe, high ? SEC_TONE_ON : SEC_TONE_OFF), 0);
	vts_tune_params_init(p);
	p->delsys = t->delsys;
	p->frequency = t->frequency - (high ? VTS_LOF_HIGH_KHZ : VTS_LOF_LOW_KHZ);
	p->symbol_rate = t->symbol_rate;
}

static const struct vts_transponder *tune(struct fixture *f,
					  const struct vts_tune_params *p)
{
	return vts_fe_tune(&f->fe, &f->w, p, 0);
}

static void test_sat_all_lock(void **state)
{
	struct fixture *f = *state;
	struct vts_tune_params p;
	size_t i, n = 0;

	for (i = 0; i < f->w.ntp; i++) {
		const struct vts_transponder *t = &f->w.tp[i];

		if (!vt_delsys_is_sat(t->delsys))
			continue;
		sat_setup(f, t, &p);
		assert_ptr_equal(tune(f, &p), t);
		n++;
	}
	assert_true(n >= 3);
}

static void test_sat_frequency(void **state)
{
	struct fixture *f = *state;
	const struct vts_transponder *t = tp(f, "S2 11362 H");
	struct vts_tune_params p;
	uint32_t if0;

	sat_setup(f, t, &p);
	if0 = p.frequency;
	p.frequency = if0 + 4999;
	assert_ptr_equal(tune(f, &p), t);
	p.frequency = if0 - 5000;
	assert_ptr_equal(tune(f, &p), t);
	p.frequency = if0 + 5001;
	assert_null(tune(f, &p));
	p.frequency = if0 - 20000;
	assert_null(tune(f, &p));
}

static void test_sat_small_symbol_rate_tolerance(void **state)
{
	struct fixture *f = *state;
	struct vts_transponder *t = (struct vts_transponder *)tp(f, "S 10847 V");
	uint32_t sr = t->symbol_rate;
	struct vts_tune_params p;

	t->symbol_rate = 2000000;	/* tolerance 1000 kHz */
	sat_setup(f, t, &p);
	p.frequency += 1000;
	assert_ptr_equal(tune(f, &p), t);
	p.frequency += 1;
	assert_null(tune(f, &p));
	t->symbol_rate = sr;
}

static void test_sat_polarisation_band_position(void **state)
{
	struct fixture *f = *state;
	const struct vts_transponder *t = tp(f, "S2 12188 V");
	uint8_t pos0[4] = { 0xe0, 0x10, 0x38, 0xf1 };
	struct vts_tune_params p;

	sat_setup(f, t, &p);
	assert_ptr_equal(tune(f, &p), t);
	/* wrong polarisation */
	vts_fe_set_voltage(&f->fe, SEC_VOLTAGE_18);
	assert_null(tune(f, &p));
	/* no LNB power */
	vts_fe_set_voltage(&f->fe, SEC_VOLTAGE_OFF);
	assert_null(tune(f, &p));
	vts_fe_set_voltage(&f->fe, SEC_VOLTAGE_13);
	assert_ptr_equal(tune(f, &p), t);
	/* wrong band: the same IF with the low LO is another RF */
	vts_fe_set_tone(&f->fe, SEC_TONE_OFF);
	assert_null(tune(f, &p));
	vts_fe_set_tone(&f->fe, SEC_TONE_ON);
	/* wrong position */
	assert_int_equal(vts_fe_diseqc(&f->fe, pos0, 4), 0);
	assert_null(tune(f, &p));
	assert_int_equal(vts_fe_burst(&f->fe, SEC_MINI_B), 0);
	assert_ptr_equal(tune(f, &p), t);
}

static void test_sat_delsys_strict(void **state)
{
	struct fixture *f = *state;
	const struct vts_transponder *s = tp(f, "S 10847 V");
	const struct vts_transponder *s2 = tp(f, "S2 11362 H");
	struct vts_tune_params p;

	sat_setup(f, s, &p);
	p.delsys = SYS_DVBS2;
	assert_null(tune(f, &p));
	p.delsys = SYS_DVBS;
	assert_ptr_equal(tune(f, &p), s);
	sat_setup(f, s2, &p);
	p.delsys = SYS_DVBS;
	assert_null(tune(f, &p));
	p.delsys = SYS_DVBT;
	assert_null(tune(f, &p));
}

static void test_sat_symbol_rate(void **state)
{
	struct fixture *f = *state;
	const struct vts_transponder *t = tp(f, "S2 11362 H");
	struct vts_tune_params p;

	sat_setup(f, t, &p);
	p.symbol_rate = t->symbol_rate + t->symbol_rate / 100;
	assert_ptr_equal(tune(f, &p), t);
	p.symbol_rate = t->symbol_rate - t->symbol_rate / 100;
	assert_ptr_equal(tune(f, &p), t);
	p.symbol_rate = t->symbol_rate + t->symbol_rate / 50;
	assert_null(tune(f, &p));
	p.symbol_rate = 0;
	assert_null(tune(f, &p));
}

static void test_sat_modulation_fec_rolloff(void **state)
{
	struct fixture *f = *state;
	const struct vts_transponder *t = tp(f, "S2 11362 H");
	struct vts_tune_params p;

	sat_setup(f, t, &p);
	p.modulation = PSK_8;
	p.fec = FEC_2_3;
	p.rolloff = ROLLOFF_35;
	p.pilot = PILOT_ON;
	p.inversion = INVERSION_ON;
	assert_ptr_equal(tune(f, &p), t);
	p.modulation = QPSK;
	assert_null(tune(f, &p));
	p.modulation = PSK_8;
	p.fec = FEC_3_4;
	assert_null(tune(f, &p));
	p.fec = FEC_AUTO;
	p.rolloff = ROLLOFF_20;
	assert_null(tune(f, &p));
}

static void test_sec_change_drops_lock(void **state)
{
	struct fixture *f = *state;
	const struct vts_transponder *t = tp(f, "S2 11362 H");
	struct vts_tune_params p;

	sat_setup(f, t, &p);
	assert_ptr_equal(tune(f, &p), t);
	assert_ptr_equal(f->fe.locked, t);
	vts_fe_set_tone(&f->fe, SEC_TONE_OFF);
	assert_null(f->fe.locked);
}

static void test_terr_cable(void **state)
{
	struct fixture *f = *state;
	const struct vts_transponder *t = tp(f, "T 506 MHz");
	const struct vts_transponder *c = tp(f, "C 346 MHz");
	struct vts_tune_params p;

	vts_tune_params_init(&p);
	p.delsys = SYS_DVBT;
	p.frequency = 506000000;
	assert_ptr_equal(tune(f, &p), t);
	p.frequency = 506500000;
	assert_ptr_equal(tune(f, &p), t);
	p.frequency = 506500001;
	assert_null(tune(f, &p));
	p.frequency = 506166000;
	p.bandwidth_hz = 8000000;
	assert_ptr_equal(tune(f, &p), t);
	p.bandwidth_hz = 7000000;
	assert_null(tune(f, &p));
	p.bandwidth_hz = 0;
	p.delsys = SYS_DVBT2;
	assert_null(tune(f, &p));
	/* terrestrial ignores the SEC */
	vts_fe_set_voltage(&f->fe, SEC_VOLTAGE_OFF);
	p.delsys = SYS_DVBT;
	assert_ptr_equal(tune(f, &p), t);

	vts_tune_params_init(&p);
	p.delsys = SYS_DVBC_ANNEX_A;
	p.frequency = 346000000;
	p.symbol_rate = 6900000;
	p.modulation = QAM_256;
	assert_ptr_equal(tune(f, &p), c);
	p.modulation = QAM_64;
	assert_null(tune(f, &p));
	p.modulation = QAM_AUTO;
	p.symbol_rate = 6875000;
	assert_ptr_equal(tune(f, &p), c);
	p.symbol_rate = 0;
	assert_null(tune(f, &p));
	/* DVB-C has no inner FEC: what a channel list says is ignored */
	p.symbol_rate = 6900000;
	p.fec = FEC_NONE;
	assert_ptr_equal(tune(f, &p), c);
	p.fec = FEC_3_4;
	assert_ptr_equal(tune(f, &p), c);
}

static void test_t2_plp(void **state)
{
	struct fixture *f = *state;
	const struct vts_transponder *plp0 = tp(f, "T2 690 MHz PLP0");
	const struct vts_transponder *plp1 = tp(f, "T2 690 MHz PLP1");
	struct vts_tune_params p;

	vts_tune_params_init(&p);
	p.delsys = SYS_DVBT2;
	p.frequency = 690000000;
	assert_ptr_equal(tune(f, &p), plp0);
	p.stream_id = 1;
	assert_ptr_equal(tune(f, &p), plp1);
	p.stream_id = 0;
	assert_ptr_equal(tune(f, &p), plp0);
	p.stream_id = 2;
	assert_null(tune(f, &p));
	p.stream_id = NO_STREAM_ID_FILTER;
	p.delsys = SYS_DVBT;
	assert_null(tune(f, &p));
}

static void test_diseqc_decoding(void **state)
{
	struct fixture *f = *state;
	static const uint8_t bad_framing[] = { 0xd0, 0x10, 0x38, 0xf0 };
	static const uint8_t bad_addr[] = { 0xe0, 0x20, 0x38, 0xf0 };
	static const uint8_t no_data[] = { 0xe0, 0x10, 0x38 };
	static const uint8_t reset[] = { 0xe0, 0x10, 0x00 };
	static const uint8_t uncommitted[] = { 0xe0, 0x10, 0x39, 0xf3 };
	uint8_t msg[4] = { 0xe0, 0x10, 0x38, 0xf0 };
	unsigned int x;

	for (x = 0; x < 16; x++) {
		msg[3] = 0xf0 | x;
		assert_int_equal(vts_fe_diseqc(&f->fe, msg, 4), 0);
		assert_int_equal(f->fe.position, (x >> 2) & 3);
		assert_int_equal(f->fe.committed, x);
	}
	/* framing e1..e3, addresses 00, 11, 14 */
	msg[0] = 0xe3;
	msg[1] = 0x14;
	msg[3] = 0xf4;
	assert_int_equal(vts_fe_diseqc(&f->fe, msg, 4), 0);
	assert_int_equal(f->fe.position, 1);
	/* a mask of 0xc0 writes the position bits only */
	msg[3] = 0xc8;
	assert_int_equal(vts_fe_diseqc(&f->fe, msg, 4), 0);
	assert_int_equal(f->fe.position, 2);
	assert_int_equal(f->fe.committed, 0x8);
	assert_int_equal(vts_fe_diseqc(&f->fe, bad_framing, 4), -EINVAL);
	assert_int_equal(vts_fe_diseqc(&f->fe, bad_addr, 4), -EINVAL);
	assert_int_equal(vts_fe_diseqc(&f->fe, no_data, 3), -EINVAL);
	assert_int_equal(vts_fe_diseqc(&f->fe, msg, 2), -EINVAL);
	assert_int_equal(vts_fe_diseqc(&f->fe, reset, 3), 0);
	assert_int_equal(vts_fe_diseqc(&f->fe, uncommitted, 4), 0);
	assert_int_equal(f->fe.position, 2);
	assert_int_equal(vts_fe_set_tone(&f->fe, 7), -EINVAL);
	assert_int_equal(vts_fe_set_voltage(&f->fe, 7), -EINVAL);
	assert_int_equal(vts_fe_burst(&f->fe, 7), -EINVAL);
}

static void test_stats(void **state)
{
	struct fixture *f = *state;
	const struct vts_transponder *t = tp(f, "S2 11362 H");
	struct vts_tune_params p;
	struct vts_fe_stats st, st2;
	int i;

	sat_setup(f, t, &p);
	p.frequency += 20000;
	assert_null(vts_fe_tune(&f->fe, &f->w, &p, 0));
	vts_fe_stats(&f->fe, 1000000000, &st);
	assert_int_equal(st.status, 0);
	assert_true(st.strength_mdbm < -90000);

	p.frequency -= 20000;
	assert_ptr_equal(vts_fe_tune(&f->fe, &f->w, &p, 1000000000), t);
	vts_fe_stats(&f->fe, 2000000000, &st);
	assert_int_equal(st.status, FE_HAS_SIGNAL | FE_HAS_CARRIER |
			 FE_HAS_VITERBI | FE_HAS_SYNC | FE_HAS_LOCK);
	for (i = 0; i < 20; i++) {
		vts_fe_stats(&f->fe, 2000000000ull + i * 100000000ull, &st2);
		assert_in_range(st2.strength_mdbm, t->signal_mdbm - 500,
				t->signal_mdbm + 500);
		assert_in_range(st2.cnr_mdb, 11000, 14000);
	}
	/* one second of lock: the bit counters count the bit rate */
	assert_true(st.pre_total == t->bitrate);
	assert_true(st.pre_err > 0 && st.pre_err < st.pre_total / 1000000);
	vts_fe_stats(&f->fe, 3000000000ull, &st2);
	assert_true(st2.pre_total > st.pre_total);
	assert_true(st2.pre_err > st.pre_err);
	assert_true(st2.blk_total > st.blk_total);
	assert_int_equal(st2.post_err, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sat_all_lock),
		cmocka_unit_test(test_sat_frequency),
		cmocka_unit_test(test_sat_small_symbol_rate_tolerance),
		cmocka_unit_test(test_sat_polarisation_band_position),
		cmocka_unit_test(test_sat_delsys_strict),
		cmocka_unit_test(test_sat_symbol_rate),
		cmocka_unit_test(test_sat_modulation_fec_rolloff),
		cmocka_unit_test(test_sec_change_drops_lock),
		cmocka_unit_test(test_terr_cable),
		cmocka_unit_test(test_t2_plp),
		cmocka_unit_test(test_diseqc_decoding),
		cmocka_unit_test(test_stats),
	};

	return cmocka_run_group_tests_name("sim_fe", tests, setup, teardown);
}
