// SPDX-License-Identifier: GPL-2.0
/*
 * status.c - see status.h.  The file is "key: value" lines, as
 * /proc/vtunercN is; vtunerctl(8) reads both.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <linux/dvb/frontend.h>

#include "client/props.h"
#include "client/status.h"
#include "common/log.h"
#include "common/text.h"

static char path[PATH_MAX];
static char tmp[PATH_MAX + 8];
static bool warned;

bool vc_status_init(const char *file, const char *device)
{
	struct stat st;
	const char *base;

	path[0] = 0;
	if (file && !strcmp(file, "none"))
		return false;
	if (file) {
		snprintf(path, sizeof(path), "%s", file);
	} else {
		if (!device || stat(VC_STATUS_DIR, &st) < 0 ||
		    !S_ISDIR(st.st_mode))
			return false;
		base = strrchr(device, '/');
		base = base ? base + 1 : device;
		snprintf(path, sizeof(path), VC_STATUS_DIR "/%s.status", base);
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	return true;
}

/* A DVBv5 statistic: "-" when absent, dB or a percentage of 65535. */
static void put_stat(FILE *f, const char *key, const struct vtp_stats *s)
{
	const struct vtp_stat *v = &s->stat[0];

	if (!s->len || v->scale == FE_SCALE_NOT_AVAILABLE)
		fprintf(f, "%s: -\n", key);
	else if (v->scale == FE_SCALE_DECIBEL)
		fprintf(f, "%s: %.1f dB\n", key, v->svalue / 1000.0);
	else if (v->scale == FE_SCALE_RELATIVE)
		fprintf(f, "%s: %.0f%%\n", key, v->uvalue * 100.0 / 65535);
	else
		fprintf(f, "%s: %llu\n", key, (unsigned long long)v->uvalue);
}

/*
 * "key: value", value "-" when empty or NULL.  The strings of a server
 * (its name, a tuner's, its errors) get here: a control character in one
 * is written as \xNN, so that no line can be added through it.
 */
static void put_str(FILE *f, const char *key, const char *value)
{
	char esc[4 * 512];

	vt_text_escape(esc, sizeof(esc), value && *value ? value : "-");
	fprintf(f, "%s: %s\n", key, esc);
}

void vc_status_write(const struct vc_status *s)
{
	char tune[512];
	FILE *f;
	int fd;

	if (!path[0])
		return;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		if (!warned)
			vt_warn("status file %s: %s (not written)", tmp,
				strerror(errno));
		warned = true;
		if (fd >= 0)
			close(fd);
		return;
	}
	fprintf(f, "pid: %d\n", (int)getpid());
	fprintf(f, "updated: %lld\n", (long long)time(NULL));
	put_str(f, "device", s->device);
	put_str(f, "server", s->server);
	put_str(f, "server_name", s->server_name);
	put_str(f, "state", s->state);
	if (s->tuner >= 0) {
		snprintf(tune, sizeof(tune), "%d %s", s->tuner,
			 s->tuner_name ? s->tuner_name : "");
		put_str(f, "tuner", tune);
	} else {
		put_str(f, "tuner", NULL);
	}
	if (s->tune)
		props_describe(s->tune, tune, sizeof(tune));
	put_str(f, "tuned", s->tune ? tune : NULL);
	if (s->fe) {
		fprintf(f, "lock: %s\n",
			s->fe->status & FE_HAS_LOCK ? "yes" : "no");
		fprintf(f, "fe_status: 0x%02x\n", s->fe->status);
		put_stat(f, "signal", &s->fe->stats[VTP_STAT_STRENGTH]);
		put_stat(f, "cnr", &s->fe->stats[VTP_STAT_CNR]);
	} else {
		fprintf(f, "lock: -\nfe_status: -\nsignal: -\ncnr: -\n");
	}
	fprintf(f, "bitrate: %.0f\n", s->bitrate);
	fprintf(f, "bytes: %llu\n", (unsigned long long)s->bytes);
	fprintf(f, "cc_errors: %llu\n", (unsigned long long)s->cc_errors);
	fprintf(f, "sync_errors: %llu\n", (unsigned long long)s->sync_errors);
	fprintf(f, "drops: %llu\n", (unsigned long long)s->stale_frames);
	fprintf(f, "lost_ts: %llu\n", (unsigned long long)s->lost_ts);
	fprintf(f, "rtt_ms: %.1f\n", s->rtt_ms);
	fprintf(f, "sessions: %llu\n", (unsigned long long)s->sessions);
	put_str(f, "pids_error", s->pids_error);
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		if (!warned)
			vt_warn("status file %s: %s (not written)", path,
				strerror(errno));
		warned = true;
		unlink(tmp);
		return;
	}
	warned = false;
}

void vc_status_remove(void)
{
	if (path[0])
		unlink(path);
}
