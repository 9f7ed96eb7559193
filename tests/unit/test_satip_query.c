// SPDX-License-Identifier: GPL-2.0
/*
 * test_satip_query.c - the SAT>IP query (satip/query.c): every attribute
 * of DVB-S/S2, T/T2 and C/C2, PID lists, errors and their Check-Syntax
 * text, formatting, same-transponder, the DVB properties, SEC and DiSEqC
 * bytes of a tuning, PID sets, and the PID part of a client's PLAY
 * (applied back to the server's set).
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
static struct satip_pids_op op;
static char err[64];

static int q(const char *s)
{
	return satip_query_parse(s, &t, &op, err, sizeof(err));
}

static void test_dvbs2(void **state)
{
	(void)state;
	assert_int_equal(q("src=1&freq=11494&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23&pids=0,16,17"), 0);
	assert_string_equal(err, "");
	assert_int_equal(t.present, BIT(SRC) | BIT(FREQ) | BIT(POL) | BIT(RO) |
			 BIT(MSYS) | BIT(MTYPE) | BIT(PLTS) | BIT(SR) | BIT(FEC));
	assert_int_equal(t.src, 1);
	assert_int_equal(t.freq, 11494000);
	assert_int_equal(t.pol, SATIP_POL_H);
	assert_int_equal(t.ro, ROLLOFF_35);
	assert_int_equal(t.msys, SYS_DVBS2);
	assert_int_equal(t.mtype, PSK_8);
	assert_int_equal(t.plts, PILOT_ON);
	assert_int_equal(t.sr, 22000000);
	assert_int_equal(t.fec, FEC_2_3);
	assert_int_equal(op.mode, SATIP_PIDS_LIST);
	assert_int_equal(op.num, 3);
	assert_int_equal(op.pid[0], 0);
	assert_int_equal(op.pid[1], 16);
	assert_int_equal(op.pid[2], 17);
	assert_false(op.has_add);
	assert_false(op.has_del);

	/* any case, any order, extensions, fractional MHz */
	assert_int_equal(q("FEC=910&MSYS=DVBS2&Freq=12603.5&POL=V&SR=30000&isi=5&plsm=Gold&plsc=131070&ro=0.2&fe=2&mtype=32APSK&plts=off&src=4"), 0);
	assert_int_equal(t.fec, FEC_9_10);
	assert_int_equal(t.freq, 12603500);
	assert_int_equal(t.pol, SATIP_POL_V);
	assert_int_equal(t.isi, 5);
	assert_int_equal(t.plsm, SATIP_PLSM_GOLD);
	assert_int_equal(t.plsc, 131070);
	assert_int_equal(t.ro, ROLLOFF_20);
	assert_int_equal(t.fe, 2);
	assert_int_equal(t.mtype, APSK_32);
	assert_int_equal(t.plts, PILOT_OFF);
	assert_int_equal(t.src, 4);
	assert_int_equal(op.mode, SATIP_PIDS_KEEP);

	/* every token */
	assert_int_equal(q("msys=dvbs&pol=l&ro=0.25&mtype=qpsk&fec=12"), 0);
	assert_int_equal(t.msys, SYS_DVBS);
	assert_int_equal(t.pol, SATIP_POL_L);
	assert_int_equal(t.ro, ROLLOFF_25);
	assert_int_equal(q("pol=r&ro=0.20&mtype=16apsk&fec=34&plsm=root"), 0);
	assert_int_equal(t.pol, SATIP_POL_R);
	assert_int_equal(t.ro, ROLLOFF_20);
	assert_int_equal(t.mtype, APSK_16);
	assert_int_equal(t.fec, FEC_3_4);
	assert_int_equal(t.plsm, SATIP_PLSM_ROOT);
	assert_int_equal(q("fec=35&plsm=combo"), 0);
	assert_int_equal(t.fec, FEC_3_5);
	assert_int_equal(t.plsm, SATIP_PLSM_COMBO);
	assert_int_equal(q("fec=45"), 0);
	assert_int_equal(t.fec, FEC_4_5);
	assert_int_equal(q("fec=56"), 0);
	assert_int_equal(t.fec, FEC_5_6);
	assert_int_equal(q("fec=78"), 0);
	assert_int_equal(t.fec, FEC_7_8);
	assert_int_equal(q("fec=89"), 0);
	assert_int_equal(t.fec, FEC_8_9);
}

static void test_dvbt_dvbc(void **state)
{
	static const struct { const char *s; uint32_t v; } tm[] = {
		{ "1k", TRANSMISSION_MODE_1K }, { "2k", TRANSMISSION_MODE_2K },
		{ "4k", TRANSMISSION_MODE_4K }, { "8k", TRANSMISSION_MODE_8K },
		{ "16k", TRANSMISSION_MODE_16K }, { "32k", TRANSMISSION_MODE_32K },
	}, gi[] = {
		{ "14", GUARD_INTERVAL_1_4 }, { "18", GUARD_INTERVAL_1_8 },
		{ "116", GUARD_INTERVAL_1_16 }, { "132", GUARD_INTERVAL_1_32 },
		{ "1128", GUARD_INTERVAL_1_128 },
		{ "19128", GUARD_INTERVAL_19_128 },
		{ "19256", GUARD_INTERVAL_19_256 },
	}, bw[] = {
		{ "5", 5000000 }, { "6", 6000000 }, { "7", 7000000 },
		{ "8", 8000000 }, { "10", 10000000 }, { "1.712", 1712000 },
	}, mt[] = {
		{ "16qam", QAM_16 }, { "32qam", QAM_32 }, { "64qam", QAM_64 },
		{ "128qam", QAM_128 }, { "256qam", QAM_256 },
	};
	char s[64];
	size_t i;

	(void)state;
	assert_int_equal(q("freq=506&bw=8&msys=dvbt2&tmode=32k&mtype=256qam&gi=19256&fec=35&plp=1&t2id=65535&sm=1&pids=all"), 0);
	assert_int_equal(t.freq, 506000);
	assert_int_equal(t.bw, 8000000);
	assert_int_equal(t.msys, SYS_DVBT2);
	assert_int_equal(t.tmode, TRANSMISSION_MODE_32K);
	assert_int_equal(t.mtype, QAM_256);
	assert_int_equal(t.gi, GUARD_INTERVAL_19_256);
	assert_int_equal(t.fec, FEC_3_5);
	assert_int_equal(t.plp, 1);
	assert_int_equal(t.t2id, 65535);
	assert_int_equal(t.sm, 1);
	assert_int_equal(op.mode, SATIP_PIDS_ALL);
	assert_int_equal(q("freq=474.166&msys=dvbt"), 0);
	assert_int_equal(t.freq, 474166);
	assert_int_equal(t.msys, SYS_DVBT);
	assert_int_equal(q("freq=474.1666&msys=dvbc&sr=6900&mtype=256qam&specinv=1&c2tft=2&ds=255&plp=0&pids=none"), 0);
	assert_int_equal(t.freq, 474167);
	assert_int_equal(t.msys, SYS_DVBC_ANNEX_A);
	assert_int_equal(t.sr, 6900000);
	assert_int_equal(t.specinv, 1);
	assert_int_equal(t.c2tft, 2);
	assert_int_equal(t.ds, 255);
	assert_int_equal(op.mode, SATIP_PIDS_NONE);
	assert_int_equal(q("msys=dvbc2&freq=474.16649&sr=6952.5"), 0);
	assert_int_equal(t.msys, SATIP_SYS_DVBC2);
	assert_int_equal(t.freq, 474166);
	assert_int_equal(t.sr, 6952500);

	for (i = 0; i < sizeof(tm) / sizeof(tm[0]); i++) {
		snprintf(s, sizeof(s), "tmode=%s", tm[i].s);
		assert_int_equal(q(s), 0);
		assert_int_equal(t.tmode, tm[i].v);
	}
	for (i = 0; i < sizeof(gi) / sizeof(gi[0]); i++) {
		snprintf(s, sizeof(s), "gi=%s", gi[i].s);
		assert_int_equal(q(s), 0);
		assert_int_equal(t.gi, gi[i].v);
	}
	for (i = 0; i < sizeof(bw) / sizeof(bw[0]); i++) {
		snprintf(s, sizeof(s), "bw=%s", bw[i].s);
		assert_int_equal(q(s), 0);
		assert_int_equal(t.bw, bw[i].v);
	}
	for (i = 0; i < sizeof(mt) / sizeof(mt[0]); i++) {
		snprintf(s, sizeof(s), "mtype=%s", mt[i].s);
		assert_int_equal(q(s), 0);
		assert_int_equal(t.mtype, mt[i].v);
	}
}

static void test_pids(void **state)
{
	char big[1024];
	size_t n;
	int i;

	(void)state;
	/* VDR's PLAY: addpids and delpids together, nothing else changes */
	assert_int_equal(q("addpids=100,101&delpids=200"), 0);
	assert_int_equal(t.present, 0);
	assert_int_equal(op.mode, SATIP_PIDS_KEEP);
	assert_true(op.has_add);
	assert_int_equal(op.num_add, 2);
	assert_int_equal(op.add[0], 100);
	assert_int_equal(op.add[1], 101);
	assert_true(op.has_del);
	assert_int_equal(op.num_del, 1);
	assert_int_equal(op.del[0], 200);
	/* %2C, repeats, empty elements, upper case ALL, 8191 */
	assert_int_equal(q("pids=0%2C16,,16,8191,"), 0);
	assert_int_equal(op.num, 3);
	assert_int_equal(op.pid[2], 8191);
	assert_int_equal(q("PIDS=ALL"), 0);
	assert_int_equal(op.mode, SATIP_PIDS_ALL);
	assert_int_equal(q("pids="), 0);
	assert_int_equal(op.mode, SATIP_PIDS_LIST);
	assert_int_equal(op.num, 0);
	assert_int_equal(q("delpids="), 0);
	assert_true(op.has_del);
	assert_int_equal(op.num_del, 0);

	/* 128 PIDs fit, 129 do not */
	n = (size_t)sprintf(big, "pids=0");
	for (i = 1; i < SATIP_MAX_PIDS; i++)
		n += (size_t)sprintf(big + n, ",%d", i);
	assert_int_equal(q(big), 0);
	assert_int_equal(op.num, SATIP_MAX_PIDS);
	sprintf(big + n, ",%d", i);
	assert_int_equal(q(big), -414);
	assert_memory_equal(err, "pids=0,1,2,", 11);
	n = (size_t)sprintf(big, "addpids=0");
	for (i = 1; i <= SATIP_MAX_PIDS; i++)
		n += (size_t)sprintf(big + n, ",%d", i);
	assert_int_equal(q(big), -414);

	assert_int_equal(q("pids=8192"), -400);
	assert_string_equal(err, "pids=8192");
	assert_int_equal(q("pids=1,x"), -400);
	assert_int_equal(q("pids=-1"), -400);
	assert_int_equal(q("pids=00000001"), -400);
	assert_int_equal(q("addpids=all"), -400);
	assert_int_equal(q("delpids=none"), -400);
	assert_int_equal(q("pids=1&addpids=2"), -400);
	assert_string_equal(err, "addpids=2");
	assert_int_equal(q("delpids=2&pids=all"), -400);
	assert_string_equal(err, "pids=all");
	assert_int_equal(q("pids=1&pids=2"), -400);
	assert_int_equal(q("addpids=1&addpids=2"), -400);
	assert_int_equal(q("delpids=1&delpids=2"), -400);
	assert_int_equal(q("pids"), -400);
	assert_int_equal(q("addpids"), -400);
}

static void expect(const char *s, int ret, const char *msg)
{
	int r = q(s);

	if (r != ret || strcmp(err, msg))
		fail_msg("%s: %d \"%s\" instead of %d \"%s\"", s, r, err, ret, msg);
}

static void test_errors(void **state)
{
	char big[4096];

	(void)state;
	expect("freq=11494&fec=99", -400, "fec=99");
	expect("src=0", -400, "src=0");
	expect("src=256", -400, "src=256");
	expect("fe=0", -400, "fe=0");
	expect("fe=65536", -400, "fe=65536");
	expect("freq=0", -400, "freq=0");
	expect("freq=100001", -400, "freq=100001");
	expect("freq=abc", -400, "freq=abc");
	expect("freq=1.", -400, "freq=1.");
	expect("freq=.5", -400, "freq=.5");
	expect("freq=1.5x", -400, "freq=1.5x");
	expect("freq=-1", -400, "freq=-1");
	expect("freq=99999999999999999999", -400, "freq=99999999999999999999");
	expect("sr=0.0001", -400, "sr=0.0001");
	expect("freq=11494&freq=11494", -400, "freq=11494");
	expect("plts=&plts=on", -400, "plts=on");
	expect("msys=atsc", -400, "msys=atsc");
	expect("msys=dvb-s2", -400, "msys=dvb-s2");
	expect("pol=x", -400, "pol=x");
	expect("ro=0.3", -400, "ro=0.3");
	expect("mtype=1024qam", -400, "mtype=1024qam");
	expect("plts=auto", -400, "plts=auto");
	expect("bw=9", -400, "bw=9");
	expect("tmode=64k", -400, "tmode=64k");
	expect("gi=12", -400, "gi=12");
	expect("isi=256", -400, "isi=256");
	expect("plsc=262144", -400, "plsc=262144");
	expect("plsm=x", -400, "plsm=x");
	expect("plp=256", -400, "plp=256");
	expect("t2id=65536", -400, "t2id=65536");
	expect("sm=2", -400, "sm=2");
	expect("c2tft=3", -400, "c2tft=3");
	expect("ds=256", -400, "ds=256");
	expect("specinv=2", -400, "specinv=2");
	expect("freq", -400, "freq");
	expect("fec=%0012", -400, "fec=%0012");
	expect("fec=1%012", -400, "fec=1?2");
	/* the message is cut short, never overflows */
	memset(big, 'x', sizeof(big));
	memcpy(big, "freq=", 5);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(q(big), -400);
	assert_int_equal(strlen(err), sizeof(err) - 1);
	big[2000] = '\0';
	assert_int_equal(q(big), -400);
	assert_int_equal(strlen(err), sizeof(err) - 1);
	assert_int_equal(satip_query_parse("fec=99", &t, &op, NULL, 0), -400);
	assert_int_equal(satip_query_parse("fec=99", &t, &op, err, 1), -400);
	assert_string_equal(err, "");

	/* tolerated: unknown attributes, empty values and items, %XX */
	assert_int_equal(q("&&foo=bar&x&verylongattributename=1&plts=&ro=&freq=%31%31494&"), 0);
	assert_int_equal(t.present, BIT(FREQ));
	assert_int_equal(t.freq, 11494000);
	assert_int_equal(q("fec=%2"), -400);
	assert_int_equal(q(""), 0);
	assert_int_equal(t.present, 0);
	assert_int_equal(op.mode, SATIP_PIDS_KEEP);
}

static void test_same(void **state)
{
	struct satip_tune a, b;

	(void)state;
	satip_query_parse("src=1&freq=11494&pol=h&msys=dvbs2&sr=22000&fec=23&pids=0", &a, &op, err, sizeof(err));
	satip_query_parse("freq=11494&pol=h&msys=dvbs2&sr=22000&mtype=8psk&pids=all", &b, &op, err, sizeof(err));
	assert_true(satip_tune_same(&a, &b));
	satip_query_parse("freq=11494&msys=dvbs2", &b, &op, err, sizeof(err));
	assert_true(satip_tune_same(&a, &b));
	satip_query_parse("src=2&freq=11494&pol=h&msys=dvbs2&sr=22000", &b, &op, err, sizeof(err));
	assert_false(satip_tune_same(&a, &b));
	satip_query_parse("freq=11494&pol=v&msys=dvbs2&sr=22000", &b, &op, err, sizeof(err));
	assert_false(satip_tune_same(&a, &b));
	satip_query_parse("freq=11494&pol=h&msys=dvbs&sr=22000", &b, &op, err, sizeof(err));
	assert_false(satip_tune_same(&a, &b));
	satip_query_parse("freq=11494.25&pol=h&msys=dvbs2&sr=22000", &b, &op, err, sizeof(err));
	assert_false(satip_tune_same(&a, &b));
	satip_query_parse("freq=11494&pol=h&msys=dvbs2&sr=27500", &b, &op, err, sizeof(err));
	assert_false(satip_tune_same(&a, &b));
	satip_query_parse("freq=11494&pol=h&msys=dvbs2&sr=22000&isi=1", &b, &op, err, sizeof(err));
	assert_true(satip_tune_same(&a, &b));
	a.isi = 2;
	a.present |= BIT(ISI);
	assert_false(satip_tune_same(&a, &b));
	satip_query_parse("freq=506&msys=dvbt2&plp=1&bw=8", &a, &op, err, sizeof(err));
	satip_query_parse("freq=506&msys=dvbt2&plp=2&bw=8", &b, &op, err, sizeof(err));
	assert_false(satip_tune_same(&a, &b));
	satip_query_parse("freq=506&msys=dvbt2&plp=1&bw=7", &b, &op, err, sizeof(err));
	assert_false(satip_tune_same(&a, &b));
	satip_query_parse("freq=506&msys=dvbt2&plp=1&t2id=3", &b, &op, err, sizeof(err));
	assert_true(satip_tune_same(&a, &b));
	/* no msys or freq: never the same */
	satip_query_parse("addpids=1", &b, &op, err, sizeof(err));
	assert_false(satip_tune_same(&b, &b));
}

static void test_format(void **state)
{
	struct satip_tune b;
	char buf[128];

	(void)state;
	q("src=1&freq=11494&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23&pids=0,16,17");
	assert_int_equal(satip_tune_format(buf, sizeof(buf), &t), 38);
	assert_string_equal(buf, "11494.00,h,dvbs2,8psk,on,0.35,22000,23");
	q("freq=12603.5&pol=v&msys=dvbs&sr=27500.5&ro=0.2");
	satip_tune_format(buf, sizeof(buf), &t);
	assert_string_equal(buf, "12603.50,v,dvbs,,,0.20,27500.50,");
	q("freq=506&bw=8&msys=dvbt2&tmode=32k&mtype=256qam&gi=1128&fec=35&plp=1&t2id=0&sm=0");
	satip_tune_format(buf, sizeof(buf), &t);
	assert_string_equal(buf, "506.00,8,dvbt2,32k,256qam,1128,35,1,0,0");
	q("freq=474.166&bw=1.712&msys=dvbt");
	satip_tune_format(buf, sizeof(buf), &t);
	assert_string_equal(buf, "474.166,1.712,dvbt,,,,,,,");
	q("freq=346&msys=dvbc&mtype=64qam&sr=6900&specinv=0");
	satip_tune_format(buf, sizeof(buf), &t);
	assert_string_equal(buf, "346.00,,dvbc,64qam,6900,,,,0");
	q("freq=346&msys=dvbc2&bw=8&c2tft=1&ds=3&plp=4&specinv=1");
	satip_tune_format(buf, sizeof(buf), &t);
	assert_string_equal(buf, "346.00,8,dvbc2,,,1,3,4,1");
	/* what it writes reads back (as a query of the same attributes) */
	q("freq=11494&pol=h&ro=0.25&msys=dvbs2&mtype=16apsk&plts=off&sr=22000&fec=910");
	b = t;
	satip_tune_format(buf, sizeof(buf), &t);
	assert_string_equal(buf, "11494.00,h,dvbs2,16apsk,off,0.25,22000,910");
	/* errors */
	assert_int_equal(satip_tune_format(buf, 20, &b), -ENOBUFS);
	assert_string_equal(buf, "");
	assert_int_equal(satip_tune_format(buf, 0, &b), -ENOBUFS);
	assert_int_equal(satip_tune_format(buf, 43, &b), 42);
	assert_int_equal(satip_tune_format(buf, 42, &b), -ENOBUFS);
	q("freq=1");
	assert_int_equal(satip_tune_format(buf, sizeof(buf), &t), -EINVAL);
}

static struct satip_dvb d;

static uint32_t prop(uint32_t cmd)
{
	unsigned int i;

	for (i = 0; i < d.num; i++)
		if (d.props[i].cmd == cmd)
			return d.props[i].data;
	return 0xdeadbeef;
}

static int props(const char *query, const struct satip_lnb *lnb)
{
	assert_int_equal(q(query), 0);
	return satip_tune_to_props(&t, lnb, &d, err, sizeof(err));
}

/* satip_query_format() writes what satip_query_parse() reads back. */
static void test_query_format(void **state)
{
	static const char *const in[] = {
		"src=2&freq=11362&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23",
		"freq=12603.5&pol=v&msys=dvbs&sr=27500.5&isi=5&plsm=gold&plsc=1",
		"fe=3&freq=506&bw=8&msys=dvbt2&tmode=32k&mtype=256qam&gi=1128&fec=35&plp=1&t2id=0&sm=0",
		"freq=474.166&bw=1.712&msys=dvbt",
		"freq=346&msys=dvbc&mtype=64qam&sr=6900&specinv=1",
	};
	struct satip_tune a;
	char buf[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		assert_int_equal(q(in[i]), 0);
		a = t;
		assert_true(satip_query_format(buf, sizeof(buf), &a) > 0);
		assert_int_equal(q(buf), 0);
		assert_memory_equal(&a, &t, sizeof(a));
	}
	q(in[0]);
	assert_string_equal((satip_query_format(buf, sizeof(buf), &t), buf),
			    "src=2&freq=11362&pol=h&ro=0.35&msys=dvbs2&mtype=8psk"
			    "&plts=on&sr=22000&fec=23");
	assert_int_equal(satip_query_format(buf, 20, &t), -ENOBUFS);
	assert_string_equal(buf, "");
}

static void test_props_sat(void **state)
{
	const struct satip_lnb nodiseqc = { 9750000, 10600000, 11700000, false };
	const struct satip_lnb cband = { 5150000, 0, 0, false };
	static const uint8_t e0[] = { 0xe0, 0x10, 0x38, 0xf2 };
	static const uint32_t want[][2] = {
		{ DTV_DELIVERY_SYSTEM, SYS_DVBS2 }, { DTV_FREQUENCY, 1744000 },
		{ DTV_SYMBOL_RATE, 22000000 }, { DTV_INNER_FEC, FEC_2_3 },
		{ DTV_INVERSION, INVERSION_AUTO }, { DTV_MODULATION, PSK_8 },
		{ DTV_ROLLOFF, ROLLOFF_35 }, { DTV_PILOT, PILOT_ON },
		{ DTV_STREAM_ID, NO_STREAM_ID_FILTER },
	};
	unsigned int i;

	(void)state;
	/* low band, horizontal, src 1: 18 V, no tone, E0 10 38 F2 */
	assert_int_equal(props("src=1&freq=11494&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23", NULL), 0);
	assert_int_equal(d.num, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < d.num; i++) {
		assert_int_equal(d.props[i].cmd, want[i][0]);
		assert_int_equal(d.props[i].data, want[i][1]);
	}
	assert_true(d.sec);
	assert_false(d.hiband);
	assert_int_equal(d.voltage, SEC_VOLTAGE_18);
	assert_int_equal(d.tone, SEC_TONE_OFF);
	assert_int_equal(d.diseqc.len, 4);
	assert_memory_equal(d.diseqc.msg, e0, 4);

	/* high band, vertical, src 2 (position B, option A): F5 */
	assert_int_equal(props("src=2&freq=12188&pol=v&msys=dvbs&sr=27500&fec=34", NULL), 0);
	assert_true(d.hiband);
	assert_int_equal(prop(DTV_FREQUENCY), 1588000);
	assert_int_equal(prop(DTV_MODULATION), QPSK);
	assert_int_equal(prop(DTV_ROLLOFF), ROLLOFF_35);
	assert_int_equal(prop(DTV_PILOT), 0xdeadbeef);
	assert_int_equal(prop(DTV_STREAM_ID), 0xdeadbeef);
	assert_int_equal(d.voltage, SEC_VOLTAGE_13);
	assert_int_equal(d.tone, SEC_TONE_ON);
	assert_int_equal(d.diseqc.msg[3], 0xf5);
	/* src 3 (A/B), circular left as horizontal, high band: FB */
	assert_int_equal(props("src=3&freq=11700&pol=l&msys=dvbs2&sr=27500", NULL), 0);
	assert_int_equal(d.diseqc.msg[3], 0xfb);
	assert_int_equal(d.voltage, SEC_VOLTAGE_18);
	assert_int_equal(prop(DTV_FREQUENCY), 1100000);
	assert_int_equal(prop(DTV_INNER_FEC), FEC_AUTO);
	assert_int_equal(prop(DTV_MODULATION), QAM_AUTO);
	assert_int_equal(prop(DTV_ROLLOFF), ROLLOFF_AUTO);
	assert_int_equal(prop(DTV_PILOT), PILOT_AUTO);
	/* src 4 (B/B), circular right as vertical, low band: FC */
	assert_int_equal(props("src=4&freq=11699.999&pol=r&msys=dvbs2&sr=27500&isi=7", NULL), 0);
	assert_int_equal(d.diseqc.msg[3], 0xfc);
	assert_int_equal(d.voltage, SEC_VOLTAGE_13);
	assert_int_equal(prop(DTV_FREQUENCY), 1949999);
	assert_int_equal(prop(DTV_STREAM_ID), 7);

	/* DiSEqC reaches 4 positions; none without it */
	assert_int_equal(props("src=5&freq=11494&pol=h&msys=dvbs2&sr=22000", NULL), -403);
	assert_string_equal(err, "src=5");
	assert_int_equal(props("src=2&freq=11494&pol=h&msys=dvbs2&sr=22000", &nodiseqc), -403);
	assert_int_equal(props("src=1&freq=11494&pol=h&msys=dvbs2&sr=22000", &nodiseqc), 0);
	assert_int_equal(d.diseqc.len, 0);
	/* a C-band LNB: one LOF above the frequency, never the tone */
	assert_int_equal(props("freq=3800&pol=h&msys=dvbs&sr=27500", &cband), 0);
	assert_int_equal(prop(DTV_FREQUENCY), 1350000);
	assert_int_equal(d.tone, SEC_TONE_OFF);
	assert_false(d.hiband);
	/* IF outside the L band */
	assert_int_equal(props("freq=5000&pol=h&msys=dvbs2&sr=22000", NULL), -403);
	assert_string_equal(err, "freq=5000.000");
	assert_int_equal(props("freq=12900&pol=h&msys=dvbs2&sr=22000", NULL), -403);

	/* physical layer scrambling */
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs2&sr=22000&isi=1&plsm=gold&plsc=8", NULL), 0);
	assert_int_equal(prop(DTV_SCRAMBLING_SEQUENCE_INDEX), 8);
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs2&sr=22000&plsc=9", NULL), 0);
	assert_int_equal(prop(DTV_SCRAMBLING_SEQUENCE_INDEX), 9);
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs2&sr=22000&plsm=root&plsc=1", NULL), 0);
	assert_int_equal(prop(DTV_SCRAMBLING_SEQUENCE_INDEX), 0);
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs2&sr=22000&plsm=root&plsc=0", NULL), -400);
	assert_string_equal(err, "plsc=0");
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs2&sr=22000&plsc=262143", NULL), -400);
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs2&sr=22000&plsm=combo&plsc=1", NULL), -400);
	assert_string_equal(err, "plsm=combo");
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs2&sr=22000&plsm=root", NULL), 0);
	assert_int_equal(prop(DTV_SCRAMBLING_SEQUENCE_INDEX), 0xdeadbeef);

	/* missing, wrong */
	assert_int_equal(props("freq=11494&msys=dvbs2&sr=22000", NULL), -400);
	assert_string_equal(err, "pol");
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs2", NULL), -400);
	assert_string_equal(err, "sr");
	assert_int_equal(props("pol=h&msys=dvbs2&sr=22000", NULL), -400);
	assert_string_equal(err, "freq");
	assert_int_equal(props("freq=11494&pol=h&sr=22000", NULL), -400);
	assert_string_equal(err, "msys");
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs2&sr=22000&mtype=16qam", NULL), -400);
	assert_string_equal(err, "mtype=16qam");
	assert_int_equal(props("freq=11494&pol=h&msys=dvbs&sr=22000&mtype=8psk", NULL), -400);
	assert_int_equal(props("addpids=1", NULL), -400);
}

static void test_props_ter_cab(void **state)
{
	(void)state;
	assert_int_equal(props("freq=506&bw=8&msys=dvbt2&tmode=32k&mtype=256qam&gi=19256&fec=35&plp=1", NULL), 0);
	assert_false(d.sec);
	assert_int_equal(d.diseqc.len, 0);
	assert_int_equal(prop(DTV_DELIVERY_SYSTEM), SYS_DVBT2);
	assert_int_equal(prop(DTV_FREQUENCY), 506000000);
	assert_int_equal(prop(DTV_BANDWIDTH_HZ), 8000000);
	assert_int_equal(prop(DTV_TRANSMISSION_MODE), TRANSMISSION_MODE_32K);
	assert_int_equal(prop(DTV_MODULATION), QAM_256);
	assert_int_equal(prop(DTV_GUARD_INTERVAL), GUARD_INTERVAL_19_256);
	assert_int_equal(prop(DTV_CODE_RATE_HP), FEC_3_5);
	assert_int_equal(prop(DTV_STREAM_ID), 1);
	assert_int_equal(prop(DTV_INVERSION), INVERSION_AUTO);
	assert_int_equal(prop(DTV_HIERARCHY), 0xdeadbeef);
	assert_int_equal(prop(DTV_SYMBOL_RATE), 0xdeadbeef);

	assert_int_equal(props("freq=474.166&msys=dvbt", NULL), 0);
	assert_int_equal(d.num, 10);
	assert_int_equal(prop(DTV_FREQUENCY), 474166000);
	assert_int_equal(prop(DTV_BANDWIDTH_HZ), 0);
	assert_int_equal(prop(DTV_TRANSMISSION_MODE), TRANSMISSION_MODE_AUTO);
	assert_int_equal(prop(DTV_MODULATION), QAM_AUTO);
	assert_int_equal(prop(DTV_GUARD_INTERVAL), GUARD_INTERVAL_AUTO);
	assert_int_equal(prop(DTV_CODE_RATE_HP), FEC_AUTO);
	assert_int_equal(prop(DTV_CODE_RATE_LP), FEC_AUTO);
	assert_int_equal(prop(DTV_HIERARCHY), HIERARCHY_AUTO);
	assert_int_equal(prop(DTV_STREAM_ID), 0xdeadbeef);
	assert_int_equal(props("freq=506&msys=dvbt2", NULL), 0);
	assert_int_equal(prop(DTV_STREAM_ID), NO_STREAM_ID_FILTER);
	assert_int_equal(props("freq=506&msys=dvbt&mtype=256qam", NULL), -400);
	assert_int_equal(props("freq=5000&msys=dvbt", NULL), -403);

	assert_int_equal(props("freq=346&msys=dvbc&mtype=256qam&sr=6900&specinv=1", NULL), 0);
	assert_int_equal(d.num, 6);
	assert_int_equal(prop(DTV_DELIVERY_SYSTEM), SYS_DVBC_ANNEX_A);
	assert_int_equal(prop(DTV_FREQUENCY), 346000000);
	assert_int_equal(prop(DTV_SYMBOL_RATE), 6900000);
	assert_int_equal(prop(DTV_MODULATION), QAM_256);
	assert_int_equal(prop(DTV_INNER_FEC), FEC_AUTO);
	assert_int_equal(prop(DTV_INVERSION), INVERSION_ON);
	assert_int_equal(props("freq=346&msys=dvbc&sr=6900&specinv=0", NULL), 0);
	assert_int_equal(prop(DTV_INVERSION), INVERSION_OFF);
	assert_int_equal(prop(DTV_MODULATION), QAM_AUTO);
	assert_int_equal(props("freq=346&msys=dvbc&sr=6900", NULL), 0);
	assert_int_equal(prop(DTV_INVERSION), INVERSION_AUTO);
	assert_int_equal(props("freq=346&msys=dvbc", NULL), -400);
	assert_string_equal(err, "sr");
	assert_int_equal(props("freq=346&msys=dvbc&sr=6900&mtype=qpsk", NULL), -400);
	assert_int_equal(props("freq=346&msys=dvbc2&sr=6900", NULL), -503);
	assert_string_equal(err, "msys=dvbc2");
}

static void test_pls(void **state)
{
	static const uint32_t gold[] = { 0, 1, 2, 7, 8, 1000, 131070, 262142 };
	uint32_t root;
	size_t i;

	(void)state;
	assert_int_equal(satip_pls_gold_to_root(0), 1);
	assert_int_equal(satip_pls_root_to_gold(1), 0);
	/* x(18) = x(7) + x(0) = 1: the register after one shift */
	assert_int_equal(satip_pls_gold_to_root(1), 1 << 17);
	assert_int_equal(satip_pls_root_to_gold(1 << 17), 1);
	for (i = 0; i < sizeof(gold) / sizeof(gold[0]); i++) {
		root = satip_pls_gold_to_root(gold[i]);
		assert_true(root >= 1 && root <= 262143);
		assert_int_equal(satip_pls_root_to_gold(root), gold[i]);
	}
	assert_int_equal(satip_pls_root_to_gold(0), -1);
	assert_int_equal(satip_pls_root_to_gold(262144), -1);
}

static void test_pidset(void **state)
{
	struct satip_pidset s = { 0 };
	unsigned int i;

	(void)state;
	q("pids=17,0,16");
	assert_int_equal(satip_pids_apply(&s, &op), 0);
	assert_false(s.all);
	assert_int_equal(s.num, 3);
	assert_int_equal(s.pid[0], 0);
	assert_int_equal(s.pid[1], 16);
	assert_int_equal(s.pid[2], 17);
	q("addpids=100,16&delpids=0,999");
	assert_int_equal(satip_pids_apply(&s, &op), 0);
	assert_int_equal(s.num, 3);
	assert_int_equal(s.pid[0], 16);
	assert_int_equal(s.pid[1], 17);
	assert_int_equal(s.pid[2], 100);
	q("freq=1");	/* no PID operation: unchanged */
	assert_int_equal(satip_pids_apply(&s, &op), 0);
	assert_int_equal(s.num, 3);
	q("pids=all");
	assert_int_equal(satip_pids_apply(&s, &op), 0);
	assert_true(s.all);
	assert_int_equal(s.num, 0);
	q("addpids=5&delpids=6");
	assert_int_equal(satip_pids_apply(&s, &op), 0);
	assert_true(s.all);
	assert_int_equal(s.num, 0);
	q("pids=none");
	assert_int_equal(satip_pids_apply(&s, &op), 0);
	assert_false(s.all);
	assert_int_equal(s.num, 0);

	/* full: adding one more fails and changes nothing */
	memset(&op, 0, sizeof(op));
	op.mode = SATIP_PIDS_LIST;
	op.num = SATIP_MAX_PIDS;
	for (i = 0; i < SATIP_MAX_PIDS; i++)
		op.pid[i] = (uint16_t)(SATIP_MAX_PIDS - i);
	assert_int_equal(satip_pids_apply(&s, &op), 0);
	assert_int_equal(s.num, SATIP_MAX_PIDS);
	assert_int_equal(s.pid[0], 1);
	q("addpids=0");
	assert_int_equal(satip_pids_apply(&s, &op), -ENOSPC);
	assert_int_equal(s.num, SATIP_MAX_PIDS);
	q("addpids=0&delpids=1");
	assert_int_equal(satip_pids_apply(&s, &op), 0);
	assert_int_equal(s.num, SATIP_MAX_PIDS);
	assert_int_equal(s.pid[0], 0);
	assert_int_equal(s.pid[1], 2);
}

static char pq[2048];

/* satip_pids_query() of have -> want, and what the server makes of it. */
static int pids_q(const struct satip_pidset *have, const struct satip_pidset *want,
		  bool add_del)
{
	struct satip_pidset s = *have;
	int n;

	n = satip_pids_query(pq, sizeof(pq), have, want, add_del, 0);
	if (n < 0)
		return n;
	assert_int_equal(n, strlen(pq));
	assert_int_equal(q(pq), 0);
	assert_int_equal(satip_pids_apply(&s, &op), 0);
	assert_int_equal(s.all, want->all);
	assert_int_equal(s.num, want->num);
	assert_memory_equal(s.pid, want->pid, want->num * sizeof(want->pid[0]));
	return n;
}

static void test_pids_query(void **state)
{
	struct satip_pidset none = { 0 }, all = { true, 0, { 0 } };
	struct satip_pidset a = { false, 3, { 0, 16, 17 } };
	struct satip_pidset b = { false, 4, { 0, 16, 17, 18 } };
	struct satip_pidset c = { false, 2, { 0, 16 } };
	struct satip_pidset e = { false, 3, { 0, 16, 18 } };
	struct satip_pidset big = { 0 }, big2;
	uint32_t r = 1;
	unsigned int i, k;

	(void)state;
	/* whole lists, or what changes when that is shorter */
	assert_int_equal(pids_q(&none, &a, true), 12);
	assert_string_equal(pq, "pids=0,16,17");
	assert_int_equal(pids_q(&a, &b, true), 10);
	assert_string_equal(pq, "addpids=18");
	pids_q(&a, &b, false);
	assert_string_equal(pq, "pids=0,16,17,18");
	pids_q(&a, &c, true);
	assert_string_equal(pq, "pids=0,16");
	c = (struct satip_pidset){ false, 3, { 16, 17, 18 } };
	pids_q(&b, &c, true);
	assert_string_equal(pq, "delpids=0");
	pids_q(&a, &e, true);
	assert_string_equal(pq, "pids=0,16,18");
	/* all, none, nothing to change */
	assert_int_equal(pids_q(&a, &a, true), 0);
	assert_string_equal(pq, "");
	pids_q(&a, &all, true);
	assert_string_equal(pq, "pids=all");
	assert_int_equal(pids_q(&all, &all, false), 0);
	pids_q(&all, &a, true);
	assert_string_equal(pq, "pids=0,16,17");
	pids_q(&a, &none, true);
	assert_string_equal(pq, "pids=none");
	pids_q(&all, &none, true);
	assert_string_equal(pq, "pids=none");
	assert_int_equal(pids_q(&none, &none, true), 0);

	/* 100 PIDs, one changed: addpids=&delpids= */
	big.num = 100;
	for (i = 0; i < 100; i++)
		big.pid[i] = (uint16_t)(1000 + i * 7);
	big2 = big;
	big2.pid[99] = 8191;
	pids_q(&big, &big2, true);
	assert_string_equal(pq, "addpids=8191&delpids=1693");
	/* random sets both ways */
	for (k = 0; k < 200; k++) {
		big.num = 0;
		big2.num = 0;
		for (i = 0; i < 8192; i++) {
			r = r * 1103515245 + 12345;
			if ((r >> 16) % 200 == 0 && big.num < SATIP_MAX_PIDS)
				big.pid[big.num++] = (uint16_t)i;
			if ((r >> 8) % 100 == 0 && big2.num < SATIP_MAX_PIDS)
				big2.pid[big2.num++] = (uint16_t)i;
		}
		pids_q(&big, &big2, k & 1);
		pids_q(&big2, &big, true);
	}

	/* the server's set unknown: the whole set */
	assert_int_equal(satip_pids_query(pq, sizeof(pq), NULL, &none, true, 0), 9);
	assert_string_equal(pq, "pids=none");
	assert_int_equal(satip_pids_query(pq, sizeof(pq), NULL, &all, true, 0), 8);
	assert_int_equal(satip_pids_query(pq, sizeof(pq), NULL, &b, true, 0), 15);
	assert_string_equal(pq, "pids=0,16,17,18");

	/* limits */
	assert_int_equal(satip_pids_query(pq, sizeof(pq), &none, &b, true, 3), -E2BIG);
	assert_int_equal(satip_pids_query(pq, sizeof(pq), &none, &b, true, 4), 15);
	assert_int_equal(satip_pids_query(pq, sizeof(pq), &none, &all, true, 1), 8);
	big.num = SATIP_MAX_PIDS;
	assert_int_equal(satip_pids_query(pq, sizeof(pq), &none, &big, true, 0) > 0, 1);
	assert_int_equal(satip_pids_query(pq, sizeof(pq), &none, &big, true, 1000) > 0, 1);
	big.num = SATIP_MAX_PIDS + 1;
	assert_int_equal(satip_pids_query(pq, sizeof(pq), &none, &big, true, 0), -E2BIG);
	assert_int_equal(satip_pids_query(pq, 15, &none, &b, true, 0), -ENOBUFS);
	assert_string_equal(pq, "");
	assert_int_equal(satip_pids_query(pq, 16, &none, &b, true, 0), 15);
	/* the shorter form fits where the whole list does not */
	assert_int_equal(satip_pids_query(pq, 11, &a, &b, true, 0), 10);
	assert_int_equal(satip_pids_query(pq, 11, &a, &b, false, 0), -ENOBUFS);
	assert_int_equal(satip_pids_query(pq, 0, &a, &a, true, 0), -ENOBUFS);
	assert_int_equal(satip_pids_query(pq, 1, &a, &a, true, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dvbs2),
		cmocka_unit_test(test_dvbt_dvbc),
		cmocka_unit_test(test_pids),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_query_format),
		cmocka_unit_test(test_props_sat),
		cmocka_unit_test(test_props_ter_cab),
		cmocka_unit_test(test_pls),
		cmocka_unit_test(test_pidset),
		cmocka_unit_test(test_pids_query),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
