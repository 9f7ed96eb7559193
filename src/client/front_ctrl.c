// SPDX-License-Identifier: GPL-2.0
/*
 * front_ctrl.c - the module's control device as vtunerc's front: the
 * messages of /dev/vtunercN (docs/abi.md) become the core's requests,
 * one at a time (the module sends none while one waits for its answer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"
#include "client/ctrl.h"
#include "client/front.h"
#include "client/remote.h"
#include "common/log.h"

struct front_ctrl {
	struct vc_front f;
	struct vc_ctrl ctrl;
	bool waiting;			/* m is not answered yet */
	struct vtuner_message m;
	struct vtp_pids *pids;		/* MSG_PIDLIST, read into here */
};

#define FC(f) ((struct front_ctrl *)(f))

static int fc_pollfds(struct vc_front *f, struct pollfd *pfd, int max)
{
	if (FC(f)->waiting || max < 1)
		return 0;
	*pfd = (struct pollfd){ .fd = FC(f)->ctrl.fd, .events = POLLPRI };
	return 1;
}

static void fc_answer(struct vc_front *f)
{
	struct front_ctrl *fc = FC(f);

	if (!fc->waiting)
		return;
	fc->waiting = false;
	ctrl_respond(&fc->ctrl, &fc->m);
}

static void fc_tune(struct front_ctrl *fc)
{
	struct vtp_tune t;

	if (ctrl_get_tune(&fc->ctrl, &t) < 0) {
		fc_answer(&fc->f);
		return;
	}
	vc_client_tune(fc->f.cl, &t);
}

/* One message; its answer comes from the core, or from here. */
static void fc_message(struct front_ctrl *fc)
{
	const struct vtuner_message *m = &fc->m;
	struct vc_sec_op op = { 0 };

	if (m->type == MSG_SET_FRONTEND) {
		fc_tune(fc);
		return;
	}
	vt_debug("module: %s", ctrl_msg_name(m->type));
	switch (m->type) {
	case MSG_SET_TONE:
		op.type = VTP_SET_TONE;
		op.value = m->body.tone;
		break;
	case MSG_SET_VOLTAGE:
		op.type = VTP_SET_VOLTAGE;
		op.value = m->body.voltage;
		break;
	case MSG_ENABLE_HIGH_VOLTAGE:
		op.type = VTP_ENABLE_HIGH_VOLTAGE;
		op.value = m->body.voltage;
		break;
	case MSG_SEND_DISEQC_BURST:
		op.type = VTP_DISEQC_BURST;
		op.value = m->body.burst;
		break;
	case MSG_SEND_DISEQC_MSG:
		op.type = VTP_DISEQC_MASTER;
		op.d.len = m->body.diseqc_master_cmd.msg_len;
		if (op.d.len < VTP_DISEQC_MIN || op.d.len > VTP_DISEQC_MAX) {
			vt_warn("DiSEqC message of %u bytes ignored", op.d.len);
			fc_answer(&fc->f);
			return;
		}
		memcpy(op.d.msg, m->body.diseqc_master_cmd.msg, op.d.len);
		break;
	case MSG_PIDLIST:	/* never answered */
		fc->waiting = false;
		if (ctrl_get_pids(&fc->ctrl, fc->pids) == 0)
			vc_client_pids(fc->f.cl, fc->pids);
		return;
	default:
		fc_answer(&fc->f);
		return;
	}
	vc_client_sec(fc->f.cl, &op);
}

static int fc_events(struct vc_front *f, const struct pollfd *pfd, int n)
{
	struct front_ctrl *fc = FC(f);
	short revents;
	int ret;

	if (n < 1 || !pfd[0].revents)
		return 0;
	revents = pfd[0].revents;

	if (revents & (POLLPRI | POLLIN)) {
		while (!fc->waiting) {
			ret = ctrl_get_message(&fc->ctrl, &fc->m);
			if (ret == 0)
				break;
			if (ret < 0) {
				vt_err("%s: VTUNER_GET_MESSAGE: %s", f->path,
				       strerror(-ret));
				return -1;
			}
			fc->waiting = true;
			fc_message(fc);
		}
	}
	if (revents & (POLLERR | POLLHUP | POLLNVAL)) {
		vt_err("%s: device error", f->path);
		return -1;
	}
	return 0;
}

static void fc_configure(struct vc_front *f, const struct vtp_tuner *t,
			 const char *name)
{
	if (ctrl_configure(&FC(f)->ctrl, t, name) == 0)
		vt_info("%s is now '%.127s'", f->path, name);
}

static void fc_status(struct vc_front *f, const struct vtp_status *s,
		      uint32_t seq)
{
	ctrl_set_status(&FC(f)->ctrl, s, seq);
}

static int fc_write_ts(struct vc_front *f, const uint8_t *data, size_t len)
{
	return ctrl_write_ts(FC(f)->ctrl.fd, data, len);
}

static void fc_free(struct vc_front *f)
{
	struct front_ctrl *fc = FC(f);

	fc_answer(f);
	/* closing the control device releases the applications' waiters */
	ctrl_close(&fc->ctrl);
	free(fc->pids);
	free(fc);
}

static const struct vc_front_ops fc_ops = {
	.kind = "module",
	.pollfds = fc_pollfds,
	.events = fc_events,
	.configure = fc_configure,
	.status = fc_status,
	.write_ts = fc_write_ts,
	.answer = fc_answer,
	.free = fc_free,
};

struct vc_front *vc_front_ctrl_new(struct vc_client *cl,
				   const struct vc_opts *o,
				   struct vc_wanted *want)
{
	struct front_ctrl *fc = calloc(1, sizeof(*fc));

	if (fc)
		fc->pids = calloc(1, sizeof(*fc->pids));
	if (!fc || !fc->pids) {
		vt_err("out of memory");
		free(fc);
		return NULL;
	}
	fc->f.ops = &fc_ops;
	fc->f.path = o->device;
	fc->f.cl = cl;
	fc->ctrl.fd = -1;
	if (ctrl_open(&fc->ctrl, o->device) < 0) {
		free(fc->pids);
		free(fc);
		return NULL;
	}
	/* a restarted client takes over the applications' last tune */
	if (ctrl_get_tune(&fc->ctrl, &want->tune) == 0 && want->tune.seq) {
		want->have_tune = true;
		vt_info("tune %u: taken over from the previous client",
			want->tune.seq);
	}
	return &fc->f;
}
