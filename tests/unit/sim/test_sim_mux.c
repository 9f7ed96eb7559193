// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the vts TS generator: 10 s of every built-in transponder
 * checked with tscheck (continuity, CRCs, repetition, PCR, bit rates, PES)
 * and with ffprobe (services, providers, streams); pacing; ts_file loops.
 */
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
#include "tscheck.h"

#define SECONDS		10
#define UTC0		1700000000	/* 2023-11-14 22:13:20 UTC, MJD 60262 */
#define CHUNK		1024

static struct vts_world world;
static struct tscheck chk;
static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/vts-mux-XXXXXX");
	vts_world_init(&world);
	return !mkdtemp(tmpdir) || vts_world_default(&world);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	vts_world_free(&world);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

/* secs of tp into path and through tscheck; returns the packet count */
static uint64_t generate(const struct vts_transponder *tp, double secs,
			 const char *path)
{
	static uint8_t buf[CHUNK * VTS_TS_SIZE];
	int pmts[VTS_MAX_SERVICES + 1];
	struct vts_mux *m;
	uint64_t left, total;
	char err[256];
	size_t i;
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	for (i = 0; i < tp->nservices; i++)
		pmts[i] = tp->services[i].pmt_pid;
	pmts[i] = -1;
	tsc_init(&chk, pmts);
	m = vts_mux_new(tp, UTC0, 0, err, sizeof(err));
	if (!m)
		fail_msg("%s", err);
	total = left = vts_mux_due(m, secs * 1e9);
	while (left) {
		size_t n = left < CHUNK ? left : CHUNK;

		vts_mux_fill(m, buf, n);
		tsc_feed(&chk, buf, n * VTS_TS_SIZE);
		assert_int_equal(fwrite(buf, VTS_TS_SIZE, n, f), n);
		left -= n;
	}
	assert_int_equal(vts_mux_packets(m), total);
	vts_mux_free(m);
	fclose(f);
	return total;
}

static uint64_t pkts_per_ms(const struct vts_transponder *tp, unsigned int ms)
{
	return (uint64_t)tp->bitrate * ms / 1000 / (8 * VTS_TS_SIZE);
}

static void check_tables(const struct vts_transponder *tp)
{
	/* table_id, most packets between two, repetitions in SECONDS */
	static const struct { uint8_t id; unsigned int ms, min; } t[] = {
		{ 0x00, 101, 10 * SECONDS }, { 0x42, 1001, SECONDS },
		{ 0x40, 2001, SECONDS / 2 }, { 0x70, 5001, SECONDS / 5 },
		{ 0x73, 10001, 1 },
	};
	size_t i;

	assert_int_equal(chk.crc_errors, 0);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_true(chk.table[t[i].id].count >= t[i].min);
		assert_true(chk.table[t[i].id].max_gap <= pkts_per_ms(tp, t[i].ms));
	}
	/* EIT p/f: every service, twice (p and f) per 2 s */
	assert_true(chk.table[0x4e].count >= tp->nservices * SECONDS / 2);
	for (i = 0; i < tp->nservices; i++) {
		uint16_t pmt = tp->services[i].pmt_pid;

		assert_true(chk.pid[pmt].payload_starts >= 10 * SECONDS);
		assert_non_null(tsc_find(&chk, 0x02, tp->services[i].id, 0));
		assert_non_null(tsc_find(&chk, 0x4e, tp->services[i].id, 0));
		assert_non_null(tsc_find(&chk, 0x4e, tp->services[i].id, 1));
	}
}

static void check_nit_tdt(const struct vts_transponder *tp)
{
	const struct tsc_section *nit = tsc_find(&chk, 0x40, tp->network_id, 0);
	const struct tsc_section *tdt = tsc_find(&chk, 0x70, -1, -1);
	uint8_t want[16];
	size_t dlen = vts_delivery_descriptor(tp, want, sizeof(want));
	const uint8_t *d;

	assert_non_null(nit);
	/* network name descriptor first */
	d = nit->data + 10;
	assert_int_equal(d[0], 0x40);
	assert_int_equal(d[1], strlen(tp->network_name));
	assert_memory_equal(d + 2, tp->network_name, d[1]);
	/* the transport stream loop: ts_id, onid, its descriptors */
	d += 2 + d[1] + 2;
	assert_int_equal(d[0] << 8 | d[1], tp->ts_id);
	assert_int_equal(d[2] << 8 | d[3], tp->network_id);
	assert_memory_equal(d + 6, want, dlen);
	/* the first TDT tells the start time */
	assert_non_null(tdt);
	assert_memory_equal(tdt->data + 3, "\xeb\x66\x22\x13\x20", 5);
}

static void check_rates(const struct vts_transponder *tp, uint64_t total)
{
	double secs = (double)total * 8 * VTS_TS_SIZE / tp->bitrate;
	size_t i;

	assert_int_equal(chk.sync_errors, 0);
	for (i = 0; i < TSC_NPIDS; i++)
		assert_int_equal(chk.pid[i].cc_errors, 0);
	for (i = 0; i < tp->nservices; i++) {
		const struct vts_service *s = &tp->services[i];
		uint16_t pcr_pid = s->type == VTS_SVC_TV ? s->video_pid : s->audio_pid;
		const struct tsc_pid *pcr = &chk.pid[pcr_pid];
		double br = tsc_pcr_bitrate(&chk, pcr_pid);

		/* PCR at least every 40 ms, its clock at the nominal rate */
		assert_true(pcr->pcrs >= 25 * SECONDS);
		assert_true(pcr->max_pcr_gap <= 27000 * 40);
		assert_true(br > tp->bitrate * 0.999 && br < tp->bitrate * 1.001);
		if (s->type == VTS_SVC_TV) {
			double v = chk.pid[s->video_pid].packets * 8.0 *
				   VTS_TS_SIZE / secs;

			assert_true(v > s->video_bitrate * 0.97 &&
				    v < s->video_bitrate * 1.03);
			assert_in_range(chk.pid[s->video_pid].pes_starts,
					25 * SECONDS - 1, 25 * SECONDS + 1);
			assert_int_equal(chk.pid[s->video_pid].pes_errors, 0);
		}
		assert_true(chk.pid[s->audio_pid].pes_starts >= SECONDS * 1000 / 48 - 1);
		assert_int_equal(chk.pid[s->audio_pid].pes_errors, 0);
	}
	/* the rest is null packets */
	assert_true(chk.pid[0x1fff].packets > 0);
}

static void check_ffprobe(const struct vts_transponder *tp, const char *path)
{
	static char out[1 << 20];
	char cmd[512], want[160];
	size_t n, i;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "ffprobe -v error -show_programs -of json '%s' 2>&1", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	assert_int_equal(pclose(p), 0);
	for (i = 0; i < tp->nservices; i++) {
		const struct vts_service *s = &tp->services[i];

		snprintf(want, sizeof(want), "\"program_id\": %u,", s->id);
		assert_non_null(strstr(out, want));
		snprintf(want, sizeof(want), "\"service_name\": \"%s\"", s->name);
		assert_non_null(strstr(out, want));
		snprintf(want, sizeof(want), "\"service_provider\": \"%s\"",
			 s->provider);
		assert_non_null(strstr(out, want));
	}
	assert_non_null(strstr(out, "\"codec_name\": \"mp2\""));
	assert_non_null(strstr(out, "\"codec_name\": \"mpeg2video\""));
	assert_non_null(strstr(out, "\"width\": 720"));
	assert_null(strstr(out, "rror"));
}

/*
 * secs of tp into tmpdir/name, and tp then plays that file (a ts_file
 * transponder without services of its own); returns the packet count
 */
static uint64_t file_transponder(struct vts_transponder *tp, double secs,
				 const char *name)
{
	char src[128];
	uint64_t n;

	snprintf(src, sizeof(src), "%s/%s", tmpdir, name);
	n = generate(tp, secs, src);
	snprintf(tp->ts_file, sizeof(tp->ts_file), "%s", src);
	tp->nservices = 0;
	return n;
}

static void test_all_transponders(void **state)
{
	char path[128];
	size_t i;

	(void)state;
	for (i = 0; i < world.ntp; i++) {
		const struct vts_transponder *tp = &world.tp[i];
		uint64_t total;

		snprintf(path, sizeof(path), "%s/tp%zu.ts", tmpdir, i);
		total = generate(tp, SECONDS, path);
		assert_true(total == (uint64_t)tp->bitrate * SECONDS / (8 * VTS_TS_SIZE));
		check_tables(tp);
		check_nit_tdt(tp);
		check_rates(tp, total);
		check_ffprobe(tp, path);
		remove(path);
	}
}

static void test_pacing(void **state)
{
	const struct vts_transponder *tp = vts_world_find(&world, "T 506 MHz");
	uint64_t start = 123456789000ull, pps = tp->bitrate / (8 * VTS_TS_SIZE);
	uint8_t buf[64 * VTS_TS_SIZE];
	struct vts_mux *m;
	char err[256];

	(void)state;
	m = vts_mux_new(tp, UTC0, start, err, sizeof(err));
	assert_non_null(m);
	assert_int_equal(vts_mux_bitrate(m), tp->bitrate);
	assert_int_equal(vts_mux_due(m, start - 1), 0);
	assert_int_equal(vts_mux_due(m, start), 0);
	assert_int_equal(vts_mux_due(m, start + 1000000000), pps);
	vts_mux_fill(m, buf, 64);
	assert_int_equal(vts_mux_due(m, start + 1000000000), pps - 64);
	assert_int_equal(vts_mux_due(m, start + 1000000), pps / 1000 > 64 ? pps / 1000 - 64 : 0);
	vts_mux_free(m);
}

/*
 * A backlog beyond the limit is lost.  Generated: up to VTS_SKIP_GENERATED
 * packets are produced and dropped, the clock moves on by the rest, so
 * that what comes next is what a mux that sent them would send.
 */
static void test_backlog_limit(void **state)
{
	const struct vts_transponder *tp = vts_world_find(&world, "T 506 MHz");
	uint64_t start = 5000000000ull, pps = tp->bitrate / (8 * VTS_TS_SIZE);
	uint64_t t10 = start + 10000000000ull, skipped, due, n;
	static uint8_t buf[64 * VTS_TS_SIZE], ref[64 * VTS_TS_SIZE];
	struct vts_mux *m, *r;
	char err[256];

	(void)state;
	m = vts_mux_new(tp, UTC0, start, err, sizeof(err));
	r = vts_mux_new(tp, UTC0, start, err, sizeof(err));
	assert_non_null(m);
	assert_non_null(r);
	due = vts_mux_due(m, t10);
	assert_in_range(due, 10 * pps, 10 * pps + 10);
	/* within the limit: nothing happens */
	assert_int_equal(vts_mux_limit_backlog(m, t10, due), 0);
	assert_int_equal(vts_mux_due(m, t10), due);
	/* 1000 packets lost: the next ones are those after them */
	skipped = vts_mux_limit_backlog(m, t10, due - 1000);
	assert_int_equal(skipped, 1000);
	assert_int_equal(vts_mux_packets(m), 1000);
	assert_int_equal(vts_mux_due(m, t10), due - 1000);
	for (n = 0; n < 1000; n += 50)
		vts_mux_fill(r, ref, 50);
	vts_mux_fill(m, buf, 64);
	vts_mux_fill(r, ref, 64);
	assert_memory_equal(buf, ref, sizeof(buf));
	/* 10 s due, 1000 packets allowed: most of it never comes */
	due = vts_mux_due(m, t10);
	skipped = vts_mux_limit_backlog(m, t10, 1000);
	assert_in_range(skipped, due - 1001, due - 999);
	assert_in_range(vts_mux_due(m, t10), 999, 1000);
	assert_int_equal(vts_mux_packets(m), 1064 + VTS_SKIP_GENERATED);
	vts_mux_fill(m, buf, 64);
	assert_in_range(vts_mux_due(m, t10), 935, 936);
	/* and the pace after that is the transponder's */
	assert_in_range(vts_mux_due(m, t10 + 1000000000) - vts_mux_due(m, t10),
			pps - 1, pps + 1);
	vts_mux_free(m);
	vts_mux_free(r);
}

static void test_ts_file_loop(void **state)
{
	struct vts_transponder tp = *vts_world_find(&world, "S 10847 V");
	uint64_t n, i;

	(void)state;
	n = file_transponder(&tp, 1.5, "src.ts");
	tp.bitrate = 1000000;	/* overridden by the file's PCRs */
	{
		struct vts_mux *m;
		static uint8_t buf[CHUNK * VTS_TS_SIZE];
		char err[256];
		uint32_t br;

		m = vts_mux_new(&tp, UTC0, 0, err, sizeof(err));
		if (!m)
			fail_msg("%s", err);
		br = vts_mux_bitrate(m);
		assert_in_range(br, 33000000 * 0.999, 33000000 * 1.001);
		tsc_init(&chk, NULL);
		/* three and a half loops: continuity over the loop points */
		for (i = 0; i < 7 * n / 2; i += CHUNK) {
			vts_mux_fill(m, buf, CHUNK);
			tsc_feed(&chk, buf, sizeof(buf));
		}
		vts_mux_free(m);
	}
	for (i = 0; i < TSC_NPIDS; i++)
		assert_int_equal(chk.pid[i].cc_errors, 0);
	assert_int_equal(chk.crc_errors, 0);
	/* a file that is not a TS */
	{
		char err[256];
		FILE *f;

		f = fopen(tp.ts_file, "w");
		fputs("not a transport stream, but long enough to hold one packet of 188 bytes "
		      "..........................................................................."
		      "..........................................................................", f);
		fclose(f);
		assert_null(vts_mux_new(&tp, UTC0, 0, err, sizeof(err)));
		assert_non_null(strstr(err, "no sync byte in packet 0"));
	}
}

/*
 * Two muxes on one file share its image: the second starts while the first
 * is in its second loop, each with its own position and loop count, and
 * both stay continuous for more than 16 loops (the counter fix-up cycles
 * with the loop count modulo 16), at chunk sizes that do not divide the
 * file.
 */
static void test_ts_file_shared(void **state)
{
	struct vts_transponder tp = *vts_world_find(&world, "S 10847 V");
	static uint8_t buf[CHUNK * VTS_TS_SIZE];
	static struct tscheck chk2;
	struct vts_mux *a, *b;
	char err[256];
	uint64_t n, i;
	size_t step;

	(void)state;
	n = file_transponder(&tp, 0.1, "shared.ts");
	a = vts_mux_new(&tp, UTC0, 0, err, sizeof(err));
	if (!a)
		fail_msg("%s", err);
	tsc_init(&chk, NULL);
	tsc_init(&chk2, NULL);
	for (i = 0; i < 3 * n / 2; i += 333) {
		vts_mux_fill(a, buf, 333);
		tsc_feed(&chk, buf, 333 * VTS_TS_SIZE);
	}
	b = vts_mux_new(&tp, UTC0, 0, err, sizeof(err));
	if (!b)
		fail_msg("%s", err);
	for (i = 0; i < 18 * n; i += step) {
		step = 1 + (i * 7919) % CHUNK;
		vts_mux_fill(a, buf, step);
		tsc_feed(&chk, buf, step * VTS_TS_SIZE);
		vts_mux_fill(b, buf, step);
		tsc_feed(&chk2, buf, step * VTS_TS_SIZE);
	}
	vts_mux_free(a);
	/* the image outlives the first mux */
	for (i = 0; i < n; i += CHUNK) {
		vts_mux_fill(b, buf, CHUNK);
		tsc_feed(&chk2, buf, sizeof(buf));
	}
	vts_mux_free(b);
	for (i = 0; i < TSC_NPIDS; i++) {
		assert_int_equal(chk.pid[i].cc_errors, 0);
		assert_int_equal(chk2.pid[i].cc_errors, 0);
	}
	assert_true(chk2.packets > 18 * n);
}

/*
 * A file mux that loses packets goes on where one that sent them would
 * be: same packets, same counters, whether the gap is within the file,
 * over its end, or several loops long (the loop count, and so the
 * counter fix-up, moves with it).  And a receiver sees the gap.
 */
static void test_ts_file_skip(void **state)
{
	struct vts_transponder tp = *vts_world_find(&world, "S 10847 V");
	static uint8_t buf[CHUNK * VTS_TS_SIZE], ref[CHUNK * VTS_TS_SIZE];
	const uint64_t now = 1000000000000ull;
	struct vts_mux *a, *b;
	char err[256];
	uint64_t n, i, k, skip, due, cc_errors = 0;

	(void)state;
	n = file_transponder(&tp, 0.1, "skip.ts");
	a = vts_mux_new(&tp, UTC0, 0, err, sizeof(err));
	b = vts_mux_new(&tp, UTC0, 0, err, sizeof(err));
	if (!a || !b)
		fail_msg("%s", err);
	tsc_init(&chk, NULL);
	for (k = 0; k < 24; k++) {
		skip = k % 3 == 0 ? 1 + k * 97 : k % 3 == 1 ? n - 5 + k : 2 * n + k * 31;
		due = vts_mux_due(a, now);
		assert_true(due > skip);
		assert_int_equal(vts_mux_limit_backlog(a, now, due - skip), skip);
		for (i = 0; i < skip; i += CHUNK)
			vts_mux_fill(b, ref, skip - i < CHUNK ? skip - i : CHUNK);
		vts_mux_fill(a, buf, 500);
		vts_mux_fill(b, ref, 500);
		assert_memory_equal(buf, ref, 500 * VTS_TS_SIZE);
		tsc_feed(&chk, buf, 500 * VTS_TS_SIZE);
	}
	assert_int_equal(vts_mux_packets(a), vts_mux_packets(b));
	vts_mux_free(a);
	vts_mux_free(b);
	for (i = 0; i < TSC_NPIDS; i++)
		cc_errors += chk.pid[i].cc_errors;
	assert_true(cc_errors > 0);
}

/*
 * vts_mux_load_files() reads a world's files at once: a tune after it
 * reads nothing (the file is gone and the mux plays it, continuous), the
 * image stays until vts_mux_unload_files(); a bad file fails the load with
 * its transponder's name and leaves no image of the good ones behind.
 */
static void test_ts_file_preload(void **state)
{
	struct vts_transponder tps[3];
	struct vts_world w = { .tp = tps, .ntp = 3, .cap = 3 };
	static uint8_t buf[CHUNK * VTS_TS_SIZE];
	struct vts_mux *m;
	char err[256];
	uint64_t n, i;
	FILE *f;

	(void)state;
	tps[0] = *vts_world_find(&world, "S 10847 V");
	tps[1] = *vts_world_find(&world, "T 506 MHz");
	tps[2] = *vts_world_find(&world, "S 10847 V");
	snprintf(tps[2].name, sizeof(tps[2].name), "the bad one");
	n = file_transponder(&tps[0], 0.1, "pre.ts");
	file_transponder(&tps[2], 0.1, "bad.ts");
	f = fopen(tps[2].ts_file, "r+");
	assert_non_null(f);
	fseek(f, 5 * VTS_TS_SIZE, SEEK_SET);
	fputc('X', f);
	fclose(f);
	assert_int_equal(vts_mux_load_files(&w, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "transponder the bad one: "));
	assert_non_null(strstr(err, "bad.ts: no sync byte in packet 5"));
	/* nothing kept: without its file, tps[0] cannot be tuned */
	assert_int_equal(rename(tps[0].ts_file, tps[2].ts_file), 0);
	assert_null(vts_mux_new(&tps[0], UTC0, 0, err, sizeof(err)));
	assert_int_equal(rename(tps[2].ts_file, tps[0].ts_file), 0);

	w.ntp = 2;	/* pre.ts and a generated transponder */
	assert_int_equal(vts_mux_load_files(&w, err, sizeof(err)), 0);
	assert_int_equal(unlink(tps[0].ts_file), 0);
	m = vts_mux_new(&tps[0], UTC0, 0, err, sizeof(err));
	if (!m)
		fail_msg("%s", err);
	tsc_init(&chk, NULL);
	for (i = 0; i < 3 * n; i += CHUNK) {
		vts_mux_fill(m, buf, CHUNK);
		tsc_feed(&chk, buf, sizeof(buf));
	}
	vts_mux_free(m);
	for (i = 0; i < TSC_NPIDS; i++)
		assert_int_equal(chk.pid[i].cc_errors, 0);
	assert_true(chk.packets >= 3 * n);
	/* a mux keeps its image after the unload; the next tune reads again */
	m = vts_mux_new(&tps[0], UTC0, 0, err, sizeof(err));
	assert_non_null(m);
	vts_mux_unload_files(&w);
	vts_mux_fill(m, buf, CHUNK);
	vts_mux_free(m);
	assert_null(vts_mux_new(&tps[0], UTC0, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "pre.ts: No such file or directory"));
}

/* A file that cannot be played says why, with its name. */
static void test_ts_file_errors(void **state)
{
	struct vts_transponder tp = *vts_world_find(&world, "S 10847 V");
	char err[256];
	FILE *f;

	(void)state;
	snprintf(tp.ts_file, sizeof(tp.ts_file), "%s/short.ts", tmpdir);
	f = fopen(tp.ts_file, "w");
	assert_non_null(f);
	fputc(0x47, f);
	fclose(f);
	assert_null(vts_mux_new(&tp, UTC0, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "short.ts: shorter than one TS packet"));
	snprintf(tp.ts_file, sizeof(tp.ts_file), "%s", tmpdir);
	assert_null(vts_mux_new(&tp, UTC0, 0, err, sizeof(err)));
	assert_non_null(strstr(err, ": not a regular file"));
}

static void test_vts_gen(void **state)
{
	const char *gen = getenv("SIM_GEN");
	char cmd[512];

	(void)state;
	if (!gen)
		skip();
	snprintf(cmd, sizeof(cmd), "'%s' --help >/dev/null", gen);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "'%s' --list | grep -q \"^T2 690 MHz PLP1: DVBT2 690000000 Hz plp 1\"", gen);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "'%s' -s 2 -o %s/gen.ts 'C 346 MHz' && "
		 "test $(stat -c %%s %s/gen.ts) -eq %u", gen, tmpdir, tmpdir,
		 50000000u * 2 / 1504 * 188);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "'%s' nonexistent 2>/dev/null", gen);
	assert_int_not_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_transponders),
		cmocka_unit_test(test_pacing),
		cmocka_unit_test(test_backlog_limit),
		cmocka_unit_test(test_ts_file_loop),
		cmocka_unit_test(test_ts_file_shared),
		cmocka_unit_test(test_ts_file_skip),
		cmocka_unit_test(test_ts_file_preload),
		cmocka_unit_test(test_ts_file_errors),
		cmocka_unit_test(test_vts_gen),
	};

	return cmocka_run_group_tests_name("sim_mux", tests, setup, teardown);
}
