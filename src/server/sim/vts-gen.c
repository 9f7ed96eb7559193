// SPDX-License-Identifier: GPL-2.0
/*
 * vts-gen - write the simulated transport stream of a transponder.
 *
 *   vts-gen [-c CONFIG] --list
 *   vts-gen [-c CONFIG] [-s SECONDS] [-o FILE] [-u UTC] TRANSPONDER
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/sim/vts.h"

#define VTS_GEN_CHUNK	256	/* packets per write */

static void vts_gen_usage(FILE *f)
{
	fprintf(f,
		"usage: vts-gen [-c CONFIG] --list\n"
		"       vts-gen [-c CONFIG] [-s SECONDS] [-o FILE] [-u UTC] TRANSPONDER\n"
		"Writes SECONDS (default 10) of the simulated TS of TRANSPONDER\n"
		"to FILE (default standard output) as fast as it can.\n"
		"  -c, --config FILE   the world of FILE instead of the built-in one\n"
		"  -l, --list          print the transponders and services\n"
		"  -s, --seconds N     stream duration (may be fractional)\n"
		"  -o, --output FILE   output file\n"
		"  -u, --utc SECONDS   wall clock of the first packet (default now)\n"
		"  -h, --help          this text\n");
}

static void vts_gen_list_tp(const struct vts_transponder *tp)
{
	size_t i;

	printf("%s: %s %u %s", tp->name, vt_delsys_name(tp->delsys),
	       tp->frequency, vt_delsys_is_sat(tp->delsys) ? "kHz" : "Hz");
	if (vt_delsys_is_sat(tp->delsys))
		printf(" %c pos %u", tp->pol == VTS_POL_H ? 'H' : 'V',
		       tp->position);
	if (tp->symbol_rate)
		printf(" sr %u", tp->symbol_rate);
	if (tp->delsys == SYS_DVBT2)
		printf(" plp %u", tp->plp);
	printf(" ts_id %u bitrate %u%s%s\n", tp->ts_id, tp->bitrate,
	       tp->ts_file[0] ? " file " : "", tp->ts_file);
	for (i = 0; i < tp->nservices; i++) {
		const struct vts_service *s = &tp->services[i];

		printf("  %u %s '%s' (%s) pmt 0x%x video 0x%x audio 0x%x\n",
		       s->id, s->type == VTS_SVC_TV ? "tv" : "radio", s->name,
		       s->provider, s->pmt_pid, s->video_pid, s->audio_pid);
	}
}

static int vts_gen_write(const struct vts_transponder *tp, double seconds,
			 const char *out, time_t utc)
{
	static uint8_t buf[VTS_GEN_CHUNK * VTS_TS_SIZE];
	FILE *f = out ? fopen(out, "wb") : stdout;
	struct vts_mux *m;
	uint64_t left;
	char err[256];
	int rc = 0;

	if (!f) {
		fprintf(stderr, "vts-gen: %s: %s\n", out, strerror(errno));
		return 1;
	}
	m = vts_mux_new(tp, utc, 0, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "vts-gen: %s\n", err);
		if (out)
			fclose(f);
		return 1;
	}
	left = vts_mux_due(m, (uint64_t)(seconds * 1e9));
	while (left && !rc) {
		size_t n = left < VTS_GEN_CHUNK ? left : VTS_GEN_CHUNK;

		vts_mux_fill(m, buf, n);
		if (fwrite(buf, VTS_TS_SIZE, n, f) != n)
			rc = 1;
		left -= n;
	}
	vts_mux_free(m);
	if (out) {
		if (fclose(f))
			rc = 1;
	} else if (fflush(f)) {
		rc = 1;
	}
	if (rc) {
		fprintf(stderr, "vts-gen: write error\n");
		return 1;
	}
	return 0;
}

static int vts_gen_world(struct vts_world *w, const char *config)
{
	char err[512];

	if (!config)
		return vts_world_default(w) ? 1 : 0;
	if (vts_world_load(w, config, err, sizeof(err))) {
		fprintf(stderr, "vts-gen: %s\n", err);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "list", no_argument, NULL, 'l' },
		{ "seconds", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "utc", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *config = NULL, *out = NULL;
	const struct vts_transponder *tp;
	time_t utc = time(NULL);
	double seconds = 10;
	struct vts_world w;
	bool list = false;
	size_t i;
	int c, rc;

	while ((c = getopt_long(argc, argv, "c:ls:o:u:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 'l': list = true; break;
		case 's': seconds = atof(optarg); break;
		case 'o': out = optarg; break;
		case 'u': utc = strtoll(optarg, NULL, 0); break;
		case 'h': vts_gen_usage(stdout); return 0;
		default: vts_gen_usage(stderr); return 2;
		}
	}
	if ((!list && optind != argc - 1) || seconds <= 0) {
		vts_gen_usage(stderr);
		return 2;
	}
	vts_world_init(&w);
	rc = vts_gen_world(&w, config);
	if (!rc && list) {
		for (i = 0; i < w.ntp; i++)
			vts_gen_list_tp(&w.tp[i]);
	} else if (!rc) {
		tp = vts_world_find(&w, argv[optind]);
		if (tp) {
			rc = vts_gen_write(tp, seconds, out, utc);
		} else {
			fprintf(stderr, "vts-gen: no transponder '%s' (see --list)\n",
				argv[optind]);
			rc = 1;
		}
	}
	vts_world_free(&w);
	return rc;
}
