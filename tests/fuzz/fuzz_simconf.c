// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_simconf.c - libFuzzer harness of the simulated tuner's world file
 *
 * The input is a vtunerd --sim-config file.  vts_world_load() either
 * accepts it or says why, with a message; each transponder it accepts
 * must pass vts_transponder_check() and generate its transport stream
 * (the PSI/SI tables from the names, ids and PIDs of the file, the
 * elementary streams at its bit rates): whole packets with the sync byte,
 * no continuity error, every section's CRC right.  Transponders playing a
 * ts_file are skipped: the harness reads no file a fuzzer names.
 * FUZZ_VERBOSE=1 in the environment prints what the world loader said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "server/sim/vts.h"
#include "tscheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT	65536
#define MAX_TPS		4	/* transponders generated an input */
#define PACKETS		2000	/* of each */

static int memfd = -1;
static char path[64];
static uint8_t ts[PACKETS * VTS_TS_SIZE];
static struct tscheck chk;

static void check_stream(const struct vts_transponder *tp)
{
	int psi[VTS_MAX_SERVICES + 1];
	struct vts_mux *m;
	char err[256];
	size_t i;

	/* what the world accepted, a tune must be able to play */
	m = vts_mux_new(tp, 1700000000, 0, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "vts_mux_new: %s\n", err);
		abort();
	}
	vts_mux_fill(m, ts, PACKETS);
	vts_mux_free(m);
	for (i = 0; i < tp->nservices; i++)
		psi[i] = tp->services[i].pmt_pid;
	psi[i] = -1;
	tsc_init(&chk, psi);
	tsc_feed(&chk, ts, sizeof(ts));
	if (chk.sync_errors || chk.crc_errors)
		abort();
	for (i = 0; i < TSC_NPIDS; i++)
		if (chk.pid[i].cc_errors)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vts_world w;
	char err[512];
	size_t i, n;
	int rc;

	if (size > MAX_INPUT)
		return 0;
	if (memfd < 0) {
		memfd = memfd_create("simconf", 0);
		if (memfd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	}
	if (ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		abort();

	vts_world_init(&w);
	err[0] = '\0';
	rc = vts_world_load(&w, path, err, sizeof(err));
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "%zu transponder(s)%s%s\n", w.ntp,
			rc ? ": " : "", rc ? err : "");
	if (rc) {
		/* a refusal says where and why */
		if (rc != -1 || strncmp(err, path, strlen(path)))
			abort();
		if (w.ntp)
			abort();
	}
	for (i = 0, n = 0; i < w.ntp && n < MAX_TPS; i++) {
		const struct vts_transponder *tp = &w.tp[i];

		if (vts_transponder_check(tp, err, sizeof(err)))
			abort();
		if (vts_world_find(&w, tp->name) != tp)
			abort();
		if (tp->ts_file[0])
			continue;
		check_stream(tp);
		n++;
	}
	vts_world_free(&w);
	return 0;
}
