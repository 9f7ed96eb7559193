// SPDX-License-Identifier: GPL-2.0
/*
 * test_channels.c - vtunerd's dvbv5 channel file reader
 * (src/server/channels.c): a file as dvbv5-scan writes it (DVB-S2 with an
 * LNB, DVB-T, DVB-T2, DVB-C), every field, the services it skips (with a
 * warning naming the line) and every error, with its line.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/dvb/frontend.h>
#include <cmocka.h>

#include "common/log.h"
#include "server/channels.h"

#define MAX_SVC 16

struct got {
	struct vtd_service s[MAX_SVC];
	char names[MAX_SVC][VTD_CHANNELS_LINE_MAX + 1];
	unsigned int n;
};

static struct got G;
static char err[512];
static char warnings[4096];

static void collect(void *ctx, const struct vtd_service *s)
{
	struct got *g = ctx;

	assert_true(g->n < MAX_SVC);
	g->s[g->n] = *s;
	snprintf(g->names[g->n], sizeof(g->names[0]), "%s", s->name);
	g->s[g->n].name = g->names[g->n];
	g->n++;
}

/* text read as "ch.conf"; what it logs in warnings */
static int load_n(const char *text, size_t len)
{
	FILE *f = fmemopen((void *)text, len, "r");
	FILE *w = tmpfile();
	int saved, ret;
	size_t n;

	assert_non_null(f);
	assert_non_null(w);
	memset(&G, 0, sizeof(G));
	err[0] = '\0';
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(w), 2);
	ret = vtd_channels_read(f, "ch.conf", collect, &G, err, sizeof(err));
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(w);
	n = fread(warnings, 1, sizeof(warnings) - 1, w);
	warnings[n] = '\0';
	fclose(w);
	fclose(f);
	return ret;
}

static int load(const char *text)
{
	return load_n(text, strlen(text));
}

/* dvbv5-scan -l UNIVERSAL -S 1 on Astra 19.2E, then dvbv5-scan on a
 * DVB-T, a DVB-T2 and a DVB-C network */
static const char real_file[] =
	"[Das Erste HD]\n"
	"\tSERVICE_ID = 10301\n"
	"\tVIDEO_PID = 5101\n"
	"\tAUDIO_PID = 5102 5103 5106\n"
	"\tPID_06 = 5104 5105\n"
	"\tPID_05 = 5170\n"
	"\tLNB = UNIVERSAL\n"
	"\tSAT_NUMBER = 1\n"
	"\tFREQUENCY = 11493750\n"
	"\tINVERSION = AUTO\n"
	"\tSYMBOL_RATE = 22000000\n"
	"\tINNER_FEC = 2/3\n"
	"\tMODULATION = PSK/8\n"
	"\tPILOT = AUTO\n"
	"\tROLLOFF = 25\n"
	"\tPOLARIZATION = HORIZONTAL\n"
	"\tSTREAM_ID = 0\n"
	"\tDELIVERY_SYSTEM = DVBS2\n"
	"\n"
	"[Bayern 1]\n"
	"\tSERVICE_ID = 28400\n"
	"\tAUDIO_PID = 601\n"
	"\tPID_05 = 1840\n"
	"\tLNB = UNIVERSAL\n"
	"\tFREQUENCY = 12265500\n"
	"\tINVERSION = AUTO\n"
	"\tSYMBOL_RATE = 27500000\n"
	"\tINNER_FEC = 3/4\n"
	"\tMODULATION = QPSK\n"
	"\tPOLARIZATION = VERTICAL\n"
	"\tDELIVERY_SYSTEM = DVBS\n"
	"\n"
	"[Beethoven]\n"
	"\tSERVICE_ID = 2\n"
	"\tVIDEO_PID = 0\n"
	"\tAUDIO_PID = 273\n"
	"\tFREQUENCY = 474000000\n"
	"\tMODULATION = QAM/16\n"
	"\tBANDWIDTH_HZ = 8000000\n"
	"\tINVERSION = AUTO\n"
	"\tCODE_RATE_HP = 2/3\n"
	"\tCODE_RATE_LP = NONE\n"
	"\tGUARD_INTERVAL = 1/4\n"
	"\tTRANSMISSION_MODE = 8K\n"
	"\tHIERARCHY = NONE\n"
	"\tDELIVERY_SYSTEM = DVBT\n"
	"\n"
	"[Das Erste HD T2]\n"
	"\tSERVICE_ID = 2\n"
	"\tVIDEO_PID = 256\n"
	"\tAUDIO_PID = 257\n"
	"\tFREQUENCY = 538000000\n"
	"\tMODULATION = QAM/256\n"
	"\tBANDWIDTH_HZ = 8000000\n"
	"\tINNER_FEC = 2/3\n"
	"\tSTREAM_ID = 3\n"
	"\tDELIVERY_SYSTEM = DVBT2\n"
	"\n"
	"[VT_One]\n"
	"\tSERVICE_ID = 100\n"
	"\tVIDEO_PID = 256\n"
	"\tAUDIO_PID = 257\n"
	"\tFREQUENCY = 346000000\n"
	"\tSYMBOL_RATE = 6900000\n"
	"\tINNER_FEC = NONE\n"
	"\tMODULATION = QAM/256\n"
	"\tINVERSION = AUTO\n"
	"\tDELIVERY_SYSTEM = DVBC/ANNEX_A\n";

static void test_real_file(void **state)
{
	const struct vtd_service *s = G.s;

	(void)state;
	assert_int_equal(load(real_file), 5);
	assert_int_equal(G.n, 5);
	assert_string_equal(warnings, "");

	assert_string_equal(s[0].name, "Das Erste HD");
	assert_int_equal(s[0].delsys, SYS_DVBS2);
	assert_int_equal(s[0].frequency, 11493750);
	assert_int_equal(s[0].symbol_rate, 22000000);
	assert_int_equal(s[0].modulation, PSK_8);
	assert_int_equal(s[0].fec, FEC_2_3);
	assert_int_equal(s[0].rolloff, ROLLOFF_25);
	assert_true(s[0].horizontal);
	assert_int_equal(s[0].position, 1);
	assert_int_equal(s[0].plp, 0);
	assert_int_equal(s[0].bandwidth_hz, 0);
	/* video, audio, then the others: the first 4 */
	assert_int_equal(s[0].npids, 4);
	assert_int_equal(s[0].pids[0], 5101);
	assert_int_equal(s[0].pids[1], 5102);
	assert_int_equal(s[0].pids[2], 5103);
	assert_int_equal(s[0].pids[3], 5106);

	assert_string_equal(s[1].name, "Bayern 1");
	assert_int_equal(s[1].delsys, SYS_DVBS);
	assert_int_equal(s[1].frequency, 12265500);
	assert_int_equal(s[1].symbol_rate, 27500000);
	assert_int_equal(s[1].modulation, QPSK);
	assert_int_equal(s[1].fec, FEC_3_4);
	assert_int_equal(s[1].rolloff, ROLLOFF_35);	/* the default */
	assert_false(s[1].horizontal);
	assert_int_equal(s[1].position, 0);
	assert_int_equal(s[1].npids, 2);		/* radio */
	assert_int_equal(s[1].pids[0], 601);
	assert_int_equal(s[1].pids[1], 1840);

	assert_string_equal(s[2].name, "Beethoven");
	assert_int_equal(s[2].delsys, SYS_DVBT);
	assert_int_equal(s[2].frequency, 474000000);
	assert_int_equal(s[2].symbol_rate, 0);
	assert_int_equal(s[2].modulation, QAM_16);
	assert_int_equal(s[2].fec, FEC_2_3);		/* CODE_RATE_HP */
	assert_int_equal(s[2].bandwidth_hz, 8000000);
	assert_int_equal(s[2].npids, 1);		/* VIDEO_PID 0: none */
	assert_int_equal(s[2].pids[0], 273);

	assert_int_equal(s[3].delsys, SYS_DVBT2);
	assert_int_equal(s[3].frequency, 538000000);
	assert_int_equal(s[3].modulation, QAM_256);
	assert_int_equal(s[3].fec, FEC_2_3);
	assert_int_equal(s[3].plp, 3);
	assert_int_equal(s[3].bandwidth_hz, 8000000);

	assert_string_equal(s[4].name, "VT_One");
	assert_int_equal(s[4].delsys, SYS_DVBC_ANNEX_A);
	assert_int_equal(s[4].frequency, 346000000);
	assert_int_equal(s[4].symbol_rate, 6900000);
	assert_int_equal(s[4].modulation, QAM_256);
	assert_int_equal(s[4].fec, FEC_NONE);
	assert_int_equal(s[4].bandwidth_hz, 0);
	assert_int_equal(s[4].npids, 2);
	assert_int_equal(s[4].pids[0], 256);
	assert_int_equal(s[4].pids[1], 257);
}

static void test_load_from_a_file(void **state)
{
	char path[] = "/tmp/test_channels.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, real_file, strlen(real_file)),
			 (ssize_t)strlen(real_file));
	close(fd);
	memset(&G, 0, sizeof(G));
	assert_int_equal(vtd_channels_load(path, collect, &G, err,
					   sizeof(err)), 5);
	assert_int_equal(G.n, 5);
	/* cb NULL: counted only */
	assert_int_equal(vtd_channels_load(path, NULL, NULL, err,
					   sizeof(err)), 5);
	unlink(path);
	assert_int_equal(vtd_channels_load(path, collect, &G, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, ": No such file"));
}

static void test_defaults_and_names(void **state)
{
	(void)state;
	assert_int_equal(load(
		"# comment\r\n"
		"   \r\n"
		"[  A  ]  \r\n"
		"  DELIVERY_SYSTEM=dvb-s2\r\n"
		"FREQUENCY   =   11362000   \r\n"
		"SYMBOL_RATE = 22000000\r\n"
		"VIDEO_PID = 0 0 600\r\n"
		"POLARIZATION = LEFT\r\n"
		"SAT_NUMBER = -1\r\n"
		"[B\tC\x1b[1m]\n"
		"DELIVERY_SYSTEM = DVBC\n"
		"FREQUENCY = 346000000\n"
		"SYMBOL_RATE = 6900000\n"
		"AUDIO_PID = 300\n"
		"MODULATION = AUTO\n"
		"INNER_FEC = AUTO\n"
		"[D]\n"
		"DELIVERY_SYSTEM = DVBS\n"
		"FREQUENCY = 11362000\n"
		"SYMBOL_RATE = 22000000\n"
		"POLARIZATION = R\n"
		"AUDIO_PID = 300\n"
		"ROLLOFF = AUTO\n"
		"[E]\n"
		"DELIVERY_SYSTEM = DVBT2\n"
		"FREQUENCY = 538000000\n"
		"STREAM_ID = 4294967295\n"
		"AUDIO_PID = 300\n"
		"FREQUENCY = 546000000\n"), 4);
	assert_string_equal(G.s[0].name, "A");
	assert_int_equal(G.s[0].delsys, SYS_DVBS2);
	assert_int_equal(G.s[0].modulation, QAM_AUTO);
	assert_int_equal(G.s[0].fec, FEC_AUTO);
	assert_int_equal(G.s[0].rolloff, ROLLOFF_35);
	assert_true(G.s[0].horizontal);			/* LEFT: 18 V */
	assert_int_equal(G.s[0].position, 0);
	assert_int_equal(G.s[0].npids, 1);
	assert_int_equal(G.s[0].pids[0], 600);
	/* a tab is a blank, other control characters are '?' */
	assert_string_equal(G.s[1].name, "B C?[1m");
	assert_int_equal(G.s[1].delsys, SYS_DVBC_ANNEX_A);
	assert_int_equal(G.s[1].modulation, QAM_AUTO);
	assert_int_equal(G.s[1].fec, FEC_AUTO);
	assert_false(G.s[2].horizontal);		/* RIGHT: 13 V */
	assert_int_equal(G.s[2].rolloff, ROLLOFF_AUTO);
	/* no PLP filter: PLP 0; the last FREQUENCY counts */
	assert_int_equal(G.s[3].plp, 0);
	assert_int_equal(G.s[3].frequency, 546000000);
}

static void test_skipped_services(void **state)
{
	(void)state;
	assert_int_equal(load(
		"[CHANNEL]\n"				/* 1 */
		"\tDELIVERY_SYSTEM = DVBS2\n"
		"\tFREQUENCY = 11362000\n"
		"\tPOLARIZATION = HORIZONTAL\n"
		"\tSYMBOL_RATE = 22000000\n"
		"[ATSC one]\n"				/* 6 */
		"\tVIDEO_PID = 49\n"
		"\tDELIVERY_SYSTEM = ATSC\n"		/* 8 */
		"\tFREQUENCY = 57028615\n"
		"[Future]\n"				/* 10 */
		"\tAUDIO_PID = 49\n"
		"\tDELIVERY_SYSTEM = DVBX9\n"		/* 12 */
		"\tFREQUENCY = 1\n"
		"[Data]\n"				/* 14 */
		"\tPID_05 = 1840\n"
		"\tDELIVERY_SYSTEM = DVBT\n"
		"\tFREQUENCY = 474000000\n"
		"[Kept]\n"
		"\tAUDIO_PID = 49\n"
		"\tDELIVERY_SYSTEM = DVBT\n"
		"\tFREQUENCY = 474000000\n"), 1);
	assert_int_equal(G.n, 1);
	assert_string_equal(G.s[0].name, "Kept");
	assert_non_null(strstr(warnings,
		"ch.conf:1: service 'CHANNEL': no video or audio PID, skipped"));
	assert_non_null(strstr(warnings,
		"ch.conf:8: service 'ATSC one': delivery system 'ATSC' not served, skipped"));
	assert_non_null(strstr(warnings,
		"ch.conf:12: service 'Future': delivery system 'DVBX9' not served, skipped"));
	assert_non_null(strstr(warnings,
		"ch.conf:14: service 'Data': no video or audio PID, skipped"));
	assert_int_equal(load(""), 0);
	assert_int_equal(load("# nothing\n\n"), 0);
}

#define SVC_S2	"[S]\nDELIVERY_SYSTEM = DVBS2\nAUDIO_PID = 300\n"	/* 1..3 */
#define SVC_T	"[T]\nDELIVERY_SYSTEM = DVBT\nAUDIO_PID = 300\n"

static const struct {
	const char *text;
	const char *err;
} bad[] = {
	{ "FREQUENCY = 1\n", "ch.conf:1: FREQUENCY outside a [NAME] section" },
	{ "[S\n", "ch.conf:1: '[' without ']'" },
	{ "\n[  ]\n", "ch.conf:2: a service without a name" },
	{ SVC_S2 "garbage\n", "ch.conf:4: expected KEY = VALUE or [NAME]" },
	{ SVC_S2 " = 3\n", "ch.conf:4: no key before '='" },
	{ SVC_S2 "FREQUENCY = 11.3\n", "ch.conf:4: bad FREQUENCY '11.3'" },
	{ SVC_S2 "FREQUENCY = 99999999999\n",
	  "ch.conf:4: bad FREQUENCY '99999999999'" },
	{ SVC_S2 "FREQUENCY =\n", "ch.conf:4: bad FREQUENCY ''" },
	{ SVC_S2 "FREQUENCY = -1\n", "ch.conf:4: bad FREQUENCY '-1'" },
	{ SVC_S2 "SYMBOL_RATE = 27500\n",
	  "ch.conf:4: SYMBOL_RATE 27500 outside 100000..100000000" },
	{ SVC_S2 "SYMBOL_RATE = 0x10\n", "ch.conf:4: bad SYMBOL_RATE '0x10'" },
	{ SVC_T "BANDWIDTH_HZ = 80000000\n",
	  "ch.conf:4: BANDWIDTH_HZ 80000000 outside 1000000..10000000" },
	{ SVC_T "BANDWIDTH_HZ = 8M\n", "ch.conf:4: bad BANDWIDTH_HZ '8M'" },
	{ SVC_S2 "MODULATION = QAM/7\n", "ch.conf:4: bad MODULATION 'QAM/7'" },
	{ SVC_S2 "INNER_FEC = 1/9\n", "ch.conf:4: bad INNER_FEC '1/9'" },
	{ SVC_T "CODE_RATE_HP = x\n", "ch.conf:4: bad CODE_RATE_HP 'x'" },
	{ SVC_S2 "ROLLOFF = 15\n", "ch.conf:4: bad ROLLOFF '15'" },
	{ SVC_S2 "POLARIZATION = UP\n", "ch.conf:4: bad POLARIZATION 'UP'" },
	{ SVC_S2 "SAT_NUMBER = 4\n", "ch.conf:4: bad SAT_NUMBER '4' (0..3)" },
	{ SVC_S2 "STREAM_ID = -3\n", "ch.conf:4: bad STREAM_ID '-3'" },
	{ SVC_S2 "VIDEO_PID = 8191\n", "ch.conf:4: VIDEO_PID 8191 outside 16..8190" },
	{ SVC_S2 "VIDEO_PID = 12\n", "ch.conf:4: VIDEO_PID 12 outside 16..8190" },
	{ SVC_S2 "AUDIO_PID = 300 x\n", "ch.conf:4: bad AUDIO_PID 'x'" },
	{ SVC_S2 "PID_06 = 9999\n", "ch.conf:4: bad PID_06 '9999'" },
	/* what the whole service tells: on its section's line */
	{ "[N]\nAUDIO_PID = 300\nFREQUENCY = 474000000\n",
	  "ch.conf:1: service 'N': no DELIVERY_SYSTEM" },
	{ SVC_T "\n", "ch.conf:1: service 'T': no FREQUENCY" },
	{ SVC_S2 "SYMBOL_RATE = 22000000\nFREQUENCY = 1743750\n",
	  "ch.conf:1: service 'S': FREQUENCY 1743750 kHz is an intermediate frequency" },
	{ SVC_S2 "SYMBOL_RATE = 22000000\nFREQUENCY = 11362\n",
	  "ch.conf:1: service 'S': FREQUENCY 11362 kHz outside 3000000..30000000" },
	{ SVC_T "FREQUENCY = 474\n",
	  "ch.conf:1: service 'T': FREQUENCY 474 Hz outside 30000000..1300000000" },
	{ SVC_S2 "FREQUENCY = 11362000\n", "ch.conf:1: service 'S': no SYMBOL_RATE" },
	{ "[C]\nDELIVERY_SYSTEM = DVBC/ANNEX_A\nAUDIO_PID = 300\nFREQUENCY = 346000000\n",
	  "ch.conf:1: service 'C': no SYMBOL_RATE" },
	{ "[T2]\nDELIVERY_SYSTEM = DVBT2\nAUDIO_PID = 300\nFREQUENCY = 538000000\n"
	  "STREAM_ID = 300\n",
	  "ch.conf:1: service 'T2': STREAM_ID 300 outside 0..255" },
	/* the second service's lines */
	{ SVC_T "FREQUENCY = 474000000\n\n[U]\nDELIVERY_SYSTEM = DVBT\n"
	  "FREQUENCY = 1\nAUDIO_PID = 300\n",
	  "ch.conf:6: service 'U': FREQUENCY 1 Hz outside" },
	{ SVC_T "FREQUENCY = 474000000\n\n[U]\nMODULATION = 4PSK\n",
	  "ch.conf:7: bad MODULATION '4PSK'" },
};

static void test_errors(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (load(bad[i].text) != -1 || !strstr(err, bad[i].err))
			fail_msg("case %zu: got '%s', want '%s'", i, err,
				 bad[i].err);
	}
}

static void test_long_lines_and_nul(void **state)
{
	char *text = malloc(4096);
	size_t n;

	(void)state;
	assert_non_null(text);
	/* the longest line passes, one more character does not */
	n = (size_t)sprintf(text, "[A]\n#");
	memset(text + n, 'x', VTD_CHANNELS_LINE_MAX - 1);
	n += VTD_CHANNELS_LINE_MAX - 1;
	strcpy(text + n, "\n");
	/* no DELIVERY_SYSTEM: an error, after the comment */
	assert_int_equal(load(text), -1);
	assert_non_null(strstr(err, "ch.conf:1: service 'A': no DELIVERY_SYSTEM"));
	strcpy(text + n, "x\n");
	assert_int_equal(load(text), -1);
	assert_string_equal(err, "ch.conf:2: line longer than 1023 characters");
	/* without a newline at the end too */
	text[n + 1] = '\0';
	assert_int_equal(load(text), -1);
	assert_string_equal(err, "ch.conf:2: line longer than 1023 characters");

	memcpy(text, "[A]\nX = a\0b\n", 12);
	assert_int_equal(load_n(text, 12), -1);
	assert_string_equal(err, "ch.conf:2: a NUL character: not a text file");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_file),
		cmocka_unit_test(test_load_from_a_file),
		cmocka_unit_test(test_defaults_and_names),
		cmocka_unit_test(test_skipped_services),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_long_lines_and_nul),
	};

	vt_log_init("test_channels", VT_LOG_STDERR, LOG_WARNING);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
