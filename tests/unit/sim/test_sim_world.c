// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the vts world: the built-in set and the config parser. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "server/sim/vts.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/vts-world-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

static const char *write_conf(const char *name, const char *text)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_default_world(void **state)
{
	unsigned int n[SYS_DVBC_ANNEX_C + 32] = { 0 };
	bool plp1 = false;
	struct vts_world w;
	char err[256];
	size_t i;

	(void)state;
	vts_world_init(&w);
	assert_int_equal(vts_world_default(&w), 0);
	for (i = 0; i < w.ntp; i++) {
		const struct vts_transponder *tp = &w.tp[i];

		assert_int_equal(vts_transponder_check(tp, err, sizeof(err)), 0);
		assert_in_range(tp->nservices, 2, 3);
		assert_ptr_equal(vts_world_find(&w, tp->name), tp);
		n[tp->delsys]++;
		plp1 |= tp->delsys == SYS_DVBT2 && tp->plp == 1;
	}
	assert_true(n[SYS_DVBS2] >= 2);
	assert_true(n[SYS_DVBS] >= 1);
	assert_true(n[SYS_DVBT] >= 1);
	assert_true(n[SYS_DVBT2] >= 1);
	assert_true(n[SYS_DVBC_ANNEX_A] >= 1);
	assert_true(plp1);
	assert_null(vts_world_find(&w, "nonexistent"));
	vts_world_free(&w);
}

static const char good_conf[] =
	"# a test world\n"
	"[transponder Astra 1]\n"
	"delsys = DVBS2\n"
	"frequency = 11493.75 MHz   # RF\n"
	"polarisation = h\n"
	"position = 2\n"
	"symbol_rate = 22000000\n"
	"modulation = 8PSK\n"
	"fec = 3/4\n"
	"rolloff = 20\n"
	"ts_id = 0x44d\n"
	"network_id = 1\n"
	"network_name = Astra\n"
	"orbit = 23.5E\n"
	"bitrate = 30000000\n"
	"signal = -52.5\n"
	"cnr = 11.25\n"
	"\n"
	"[service Das Test]\n"
	"id = 28106\n"
	"provider = ARD\n"
	"type = tv\n"
	"pmt_pid = 0x64\n"
	"video_pid = 101\n"
	"audio_pid = 102\n"
	"video_bitrate = 5000000\n"
	"[service Radio Test]\n"
	"id = 28107\n"
	"type = radio\n"
	"pmt_pid = 200\n"
	"audio_pid = 201\n"
	"[transponder Replay]\n"
	"delsys = DVBT2\n"
	"frequency = 474 MHz\n"
	"bandwidth = 7 MHz\n"
	"plp = 3\n"
	"ts_id = 9\n"
	"bitrate = 10000000\n"
	"ts_file = capture.ts\n";

static void test_load_good(void **state)
{
	const struct vts_transponder *a, *r;
	struct vts_world w;
	char err[256] = "";
	char want[160];

	(void)state;
	vts_world_init(&w);
	assert_int_equal(vts_world_load(&w, write_conf("good.conf", good_conf),
					err, sizeof(err)), 0);
	assert_int_equal(w.ntp, 2);
	a = vts_world_find(&w, "Astra 1");
	assert_non_null(a);
	assert_int_equal(a->delsys, SYS_DVBS2);
	assert_int_equal(a->frequency, 11493750);
	assert_int_equal(a->pol, VTS_POL_H);
	assert_int_equal(a->position, 2);
	assert_int_equal(a->symbol_rate, 22000000);
	assert_int_equal(a->modulation, PSK_8);
	assert_int_equal(a->fec, FEC_3_4);
	assert_int_equal(a->rolloff, ROLLOFF_20);
	assert_int_equal(a->ts_id, 0x44d);
	assert_string_equal(a->network_name, "Astra");
	assert_int_equal(a->orbit, 235);
	assert_false(a->west);
	assert_int_equal(a->signal_mdbm, -52500);
	assert_int_equal(a->cnr_mdb, 11250);
	assert_int_equal(a->nservices, 2);
	assert_string_equal(a->services[0].name, "Das Test");
	assert_string_equal(a->services[0].provider, "ARD");
	assert_int_equal(a->services[0].id, 28106);
	assert_int_equal(a->services[0].pmt_pid, 100);
	assert_int_equal(a->services[0].video_bitrate, 5000000);
	assert_int_equal(a->services[1].type, VTS_SVC_RADIO);
	r = vts_world_find(&w, "Replay");
	assert_non_null(r);
	assert_int_equal(r->frequency, 474000000);
	assert_int_equal(r->bandwidth_hz, 7000000);
	assert_int_equal(r->plp, 3);
	assert_int_equal(r->modulation, QAM_64);
	snprintf(want, sizeof(want), "%s/capture.ts", tmpdir);
	assert_string_equal(r->ts_file, want);
	/* a second file adds to the world */
	assert_int_equal(vts_world_default(&w), 0);
	assert_true(w.ntp > 2);
	vts_world_free(&w);
}

struct bad_case {
	const char *text;
	const char *msg;	/* expected after "PATH:" */
};

static const struct bad_case bad_cases[] = {
	{ "[transponder A]\nfrequency = 12x\n", "2: bad value '12x' for frequency" },
	{ "[transponder A]\n\ndelsys = ATSC\n", "3: bad value 'ATSC' for delsys" },
	{ "[transponder A]\ncolour = blue\n", "2: unknown key 'colour'" },
	{ "delsys = DVBS\n", "1: 'delsys' outside a section" },
	{ "[service X]\n", "1: service 'X' before any transponder" },
	{ "[bouquet X]\n", "1: unknown section 'bouquet'" },
	{ "[transponder A\n", "1: bad section header '[transponder A'" },
	{ "[transponder A]\njust words\n", "2: expected 'key = value', got 'just words'" },
	{ "[transponder A]\nposition = 4\n", "2: bad value '4' for position" },
	{ "[transponder A]\norbit = 19.2N\n", "2: bad value '19.2N' for orbit" },
	{ "[transponder A]\nsignal = loud\n", "2: bad value 'loud' for signal" },
	{ "# x\n[transponder A]\ndelsys = DVBT\nfrequency = 506 MHz\nbitrate = 1000000\n"
	  "[service S]\nid = 1\npmt_pid = 0x100\naudio_pid = 0x101\nvideo_pid = 0x102\n",
	  "2: transponder 'A': no ts_id" },
	{ "[transponder A]\ndelsys = DVBS\nfrequency = 11000000\nts_id = 1\n"
	  "bitrate = 30000000\n[service S]\nid = 1\npmt_pid = 0x100\n"
	  "audio_pid = 0x101\nvideo_pid = 0x102\n",
	  "1: transponder 'A': symbol_rate 0 outside 1M..45M" },
	{ "[transponder A]\ndelsys = DVBC\nfrequency = 346 MHz\nsymbol_rate = 6900000\n"
	  "ts_id = 1\nbitrate = 30000000\n[service S]\nid = 1\npmt_pid = 0x100\n"
	  "audio_pid = 0x100\nvideo_pid = 0x102\n",
	  "1: transponder 'A': service 'S': PID 0x100 used twice" },
	{ "[transponder A]\ndelsys = DVBT\nfrequency = 506 MHz\nts_id = 1\n"
	  "bitrate = 5000000\n[service S]\nid = 1\npmt_pid = 0x100\n"
	  "audio_pid = 0x101\nvideo_pid = 0x102\nvideo_bitrate = 6000000\n"
	  "[transponder B]\n",
	  "1: transponder 'A': services need 6219334 bit/s, more than 97% of bitrate 5000000" },
	{ "[transponder A]\ndelsys = DVBT\nfrequency = 506 MHz\nts_id = 1\nbitrate = 1\n"
	  "ts_file = x.ts\n[transponder A]\n", "7: transponder 'A' defined twice" },
	{ "[transponder A]\ndelsys = DVBT\nfrequency = 1 GHz\n", "3: bad value '1 GHz' for frequency" },
};

static void test_load_errors(void **state)
{
	struct vts_world w;
	char err[512], want[512];
	size_t i;

	(void)state;
	vts_world_init(&w);
	assert_int_equal(vts_world_default(&w), 0);
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const char *path = write_conf("bad.conf", bad_cases[i].text);
		size_t before = w.ntp;

		err[0] = 0;
		assert_int_equal(vts_world_load(&w, path, err, sizeof(err)), -1);
		snprintf(want, sizeof(want), "%s:%s", path, bad_cases[i].msg);
		assert_string_equal(err, want);
		/* a file with an error adds nothing */
		assert_int_equal(w.ntp, before);
	}
	assert_int_equal(vts_world_load(&w, "/nonexistent/x.conf", err,
					sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/x.conf: No such file or directory");
	vts_world_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_world),
		cmocka_unit_test(test_load_good),
		cmocka_unit_test(test_load_errors),
	};

	return cmocka_run_group_tests_name("sim_world", tests, setup, teardown);
}
