// SPDX-License-Identifier: GPL-2.0
/*
 * front_sink.c - a file as vtunerc's front (--sink): no application, the
 * tune and PIDs come from --tune and --pids, the TS goes into the file.
 * For tests and measurements of a remote without the module.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/client.h"
#include "client/ctrl.h"
#include "client/front.h"
#include "client/remote.h"
#include "common/log.h"

struct front_sink {
	struct vc_front f;
	int fd;
};

static int fs_pollfds(struct vc_front *f, struct pollfd *pfd, int max)
{
	(void)f;
	(void)pfd;
	(void)max;
	return 0;
}

static int fs_events(struct vc_front *f, const struct pollfd *pfd, int n)
{
	(void)f;
	(void)pfd;
	(void)n;
	return 0;
}

static void fs_configure(struct vc_front *f, const struct vtp_tuner *t,
			 const char *name)
{
	(void)f;
	(void)t;
	(void)name;
}

static void fs_status(struct vc_front *f, const struct vtp_status *s,
		      uint32_t seq)
{
	(void)f;
	(void)s;
	(void)seq;
}

static int fs_write_ts(struct vc_front *f, const uint8_t *data, size_t len)
{
	return ctrl_write_ts(((struct front_sink *)f)->fd, data, len);
}

static void fs_answer(struct vc_front *f)
{
	(void)f;
}

static void fs_free(struct vc_front *f)
{
	struct front_sink *fs = (struct front_sink *)f;

	if (fs->fd >= 0)
		close(fs->fd);
	free(fs);
}

static const struct vc_front_ops fs_ops = {
	.kind = "sink",
	.pollfds = fs_pollfds,
	.events = fs_events,
	.configure = fs_configure,
	.status = fs_status,
	.write_ts = fs_write_ts,
	.answer = fs_answer,
	.free = fs_free,
};

struct vc_front *vc_front_sink_new(struct vc_client *cl,
				   const struct vc_opts *o,
				   struct vc_wanted *want)
{
	struct front_sink *fs = calloc(1, sizeof(*fs));

	if (!fs) {
		vt_err("out of memory");
		return NULL;
	}
	fs->f.ops = &fs_ops;
	fs->f.path = o->sink;
	fs->f.fatal_write = true;
	fs->f.cl = cl;
	fs->fd = open(o->sink, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fs->fd < 0) {
		vt_err("cannot open %s: %s", o->sink, strerror(errno));
		free(fs);
		return NULL;
	}
	if (o->have_tune) {
		want->tune = o->tune;
		want->tune.seq = 1;
		want->have_tune = true;
	}
	if (o->have_pids) {
		memcpy(want->pids, o->pids, sizeof(*want->pids));
		want->have_pids = true;
	}
	return &fs->f;
}
