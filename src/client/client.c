// SPDX-License-Identifier: GPL-2.0
/*
 * client.c - the core and event loop of vtunerc: between a front (what
 * the applications see, front.h) and a remote (where the tuner is,
 * remote.h).  The core keeps what the applications asked for (struct
 * vc_wanted: the SEC commands, the tune, the PIDs), answers their
 * requests within bounds whatever the remote does, and passes statuses
 * and TS of the current tune to the front.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#include "client/client.h"
#include "client/front.h"
#include "client/monitor.h"
#include "client/pidset.h"
#include "client/props.h"
#include "client/remote.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/privs.h"
#include "vtuner.h"

#define MS			1000000ULL
#define SEC			1000000000ULL
#define SEC_ANSWER_TIMEOUT	(1500 * MS)	/* < the module's 2 s */
#define MAX_POLL		16

struct vc_client {
	const struct vc_opts *o;
	struct vc_front *front;
	struct vc_remote *remote;
	struct vc_wanted want;
	struct vc_pidset *pidset;	/* want.pids from the applications' */
	struct vc_remote_events ev;
	struct vc_monitor mon;
	int tfd, sfd;
	uint64_t timer_at;	/* what tfd is armed for, 0: nothing */
	bool stop;
	int exit_code;

	/* the SEC command waiting for the remote's answer */
	bool sec_pending;
	uint32_t sec_token;
	uint64_t sec_deadline;

	/* the last status of the current tune */
	bool status_known;
	struct vtp_status last_fe;

	/* the adapter as described last */
	bool configured;
	struct vtp_tuner configured_as;
};

/* ---- statuses ----------------------------------------------------------- */

static void push_no_signal(struct vc_client *c)
{
	static const struct vtp_status none;

	c->status_known = false;
	c->front->ops->status(c->front, &none, 0);
}

static void sec_answer(struct vc_client *c, const char *late)
{
	if (!c->sec_pending)
		return;
	c->sec_pending = false;
	if (late)
		vt_warn("SEC command: %s; answered the application anyway",
			late);
	c->front->ops->answer(c->front);
}

/* ---- what the remote says ----------------------------------------------- */

/* Same description (name, systems, limits, caps) as last configured? */
static bool tuner_same(const struct vtp_tuner *a, const struct vtp_tuner *b)
{
	return a->num_delsys == b->num_delsys &&
	       !memcmp(a->delsys, b->delsys, a->num_delsys) &&
	       a->caps == b->caps && a->freq_min == b->freq_min &&
	       a->freq_max == b->freq_max && a->freq_step == b->freq_step &&
	       a->freq_tolerance == b->freq_tolerance &&
	       a->srate_min == b->srate_min && a->srate_max == b->srate_max &&
	       a->srate_tolerance == b->srate_tolerance &&
	       !strcmp(a->name, b->name);
}

static void on_ready(void *arg, const struct vtp_tuner *t)
{
	struct vc_client *c = arg;
	char name[VTP_NAME_MAX + 1 + 300];

	tscc_reset(&c->mon.tscc);	/* a new stream: its start is no error */
	if (c->configured && tuner_same(t, &c->configured_as))
		return;
	if (c->o->name)
		snprintf(name, sizeof(name), "%s", c->o->name);
	else
		snprintf(name, sizeof(name), "%s @ %s", t->name, c->o->host);
	c->front->ops->configure(c->front, t, name);
	c->configured = true;
	c->configured_as = *t;
}

static void on_status(void *arg, const struct vtp_status *s)
{
	struct vc_client *c = arg;
	bool lock = s->status & FE_HAS_LOCK;
	bool changed = !c->status_known ||
		       lock != !!(c->last_fe.status & FE_HAS_LOCK);

	c->status_known = true;
	c->last_fe = *s;
	/* the front first: a log write is not on the zap path */
	c->front->ops->status(c->front, s, c->want.tune.seq);
	if (changed)
		vt_info("tune %u: %s (status 0x%02x)", c->want.tune.seq,
			lock ? "locked" : "no lock", s->status);
}

static void on_ts(void *arg, const uint8_t *data, size_t len)
{
	struct vc_client *c = arg;
	int ret;

	vc_mon_ts(&c->mon, data, len);
	ret = c->front->ops->write_ts(c->front, data, len);
	if (ret < 0) {
		vt_err("writing TS to %s: %s", c->front->path,
		       strerror(-ret));
		if (c->front->fatal_write) {
			c->stop = true;
			c->exit_code = 1;
		}
	}
}

static void on_lost(void *arg)
{
	struct vc_client *c = arg;

	sec_answer(c, NULL);
	push_no_signal(c);
}

static void on_answered(void *arg, uint32_t token)
{
	struct vc_client *c = arg;

	if (c->sec_pending && token == c->sec_token)
		sec_answer(c, NULL);
}

/* ---- what the front says ------------------------------------------------ */

/* want.pids changed: to the remote, and the stream's checker. */
static void pids_changed(struct vc_client *c)
{
	c->want.have_pids = true;
	tscc_set_pids(&c->mon.tscc, c->want.pids->pid, c->want.pids->num);
	c->remote->ops->pids(c->remote);
}

/*
 * A tune: sent to the remote, answered at once (the module's frontend
 * thread waits), and only then logged: no log write on the zap path.
 */
void vc_client_tune(struct vc_client *c, const struct vtp_tune *t)
{
	char desc[96];

	/* the PIDs kept for a filter reopened are no use after a tune */
	if (vc_pidset_tuned(c->pidset, c->want.pids))
		pids_changed(c);
	c->want.tune = *t;
	c->want.have_tune = true;
	vc_sec_tuned(&c->want.sec);
	c->status_known = false;
	tscc_reset(&c->mon.tscc);
	c->remote->ops->tune(c->remote);
	c->front->ops->answer(c->front);
	vt_debug("front: tune");
	props_describe(t, desc, sizeof(desc));
	vt_info("tune %u: %s", t->seq, desc);
}

void vc_client_sec(struct vc_client *c, const struct vc_sec_op *op)
{
	uint32_t token;

	vc_sec_record(&c->want.sec, op);
	token = c->remote->ops->sec(c->remote, op);
	if (!token) {
		/* no remote session: answered now, replayed later */
		c->front->ops->answer(c->front);
		return;
	}
	c->sec_pending = true;
	c->sec_token = token;
	c->sec_deadline = vt_now_ns() + SEC_ANSWER_TIMEOUT;
}

/* The remote's set follows the applications' (pidset.h). */
void vc_client_pids(struct vc_client *c, const struct vtp_pids *p)
{
	bool first = !c->want.have_pids;

	if (vc_pidset_want(c->pidset, p, vt_now_ns(), c->want.pids) || first)
		pids_changed(c);
}

/* ---- the loop ----------------------------------------------------------- */

static uint64_t timers(struct vc_client *c, uint64_t now)
{
	struct vc_remote_stats rs;
	uint64_t next, t;

	if (c->sec_pending && now >= c->sec_deadline)
		sec_answer(c, "no answer from the server within 1.5 s");
	if (vc_pidset_expire(c->pidset, now, c->want.pids))
		pids_changed(c);
	next = c->remote->ops->timers(c->remote, now);
	c->remote->ops->stats(c->remote, &rs);
	t = vc_mon_timers(&c->mon, now, &rs, &c->want,
			  c->status_known ? &c->last_fe : NULL);
	if (t < next)
		next = t;
	if (c->sec_pending && c->sec_deadline < next)
		next = c->sec_deadline;
	t = vc_pidset_next(c->pidset);
	if (t && t < next)
		next = t;
	return next;
}

/* Arm the timer for at, unless it already is (a system call a wake-up). */
static void arm_timer(struct vc_client *c, uint64_t at)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	if (!at)
		at = 1;
	if (at == c->timer_at)
		return;
	c->timer_at = at;
	its.it_value.tv_sec = at / SEC;
	its.it_value.tv_nsec = at % SEC;
	timerfd_settime(c->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static int setup(struct vc_client *c, const struct vc_opts *o)
{
	sigset_t set;

	c->o = o;
	c->tfd = c->sfd = -1;
	vc_sec_init(&c->want.sec);
	c->want.pids = calloc(1, sizeof(*c->want.pids));
	c->pidset = malloc(sizeof(*c->pidset));
	if (!c->want.pids || !c->pidset) {
		vt_err("out of memory");
		return -1;
	}
	vc_pidset_init(c->pidset, VC_PIDSET_LINGER_MS * MS);
	c->ev = (struct vc_remote_events){
		.ready = on_ready, .status = on_status, .ts = on_ts,
		.lost = on_lost, .answered = on_answered,
	};

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	c->sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	c->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (c->sfd < 0 || c->tfd < 0) {
		vt_err("signalfd/timerfd: %s", strerror(errno));
		return -1;
	}
	c->front = o->sink ? vc_front_sink_new(c, o, &c->want) :
		   o->cuse ? vc_front_cuse_new(c, o, &c->want) :
		   vc_front_ctrl_new(c, o, &c->want);
	if (!c->front)
		return -1;
	c->remote = o->satip ? vc_remote_satip_new(o, &c->want, &c->ev, c) :
		    vc_remote_vtp_new(o, &c->want, &c->ev, c);
	return c->remote ? 0 : -1;
}

static void teardown(struct vc_client *c)
{
	sec_answer(c, NULL);
	if (c->remote)
		c->remote->ops->free(c->remote);
	vc_mon_fini(&c->mon, vt_now_ns());
	if (c->front)
		c->front->ops->free(c->front);
	free(c->want.pids);
	free(c->pidset);
	if (c->tfd >= 0)
		close(c->tfd);
	if (c->sfd >= 0)
		close(c->sfd);
}

/* One round: poll, the events, the timers.  false: leave the loop. */
static bool round_run(struct vc_client *c)
{
	struct pollfd pfd[MAX_POLL];
	int n = 0, i_front, n_front, i_remote, n_remote;
	struct signalfd_siginfo si;
	uint64_t ticks;

	pfd[n++] = (struct pollfd){ .fd = c->sfd, .events = POLLIN };
	pfd[n++] = (struct pollfd){ .fd = c->tfd, .events = POLLIN };
	i_front = n;
	n_front = c->front->ops->pollfds(c->front, pfd + n, MAX_POLL - n);
	n += n_front;
	i_remote = n;
	n_remote = c->remote->ops->pollfds(c->remote, pfd + n, MAX_POLL - n);
	n += n_remote;
	if (poll(pfd, n, -1) < 0) {
		if (errno == EINTR)
			return true;
		vt_err("poll: %s", strerror(errno));
		c->exit_code = 1;
		return false;
	}
	if (pfd[0].revents) {
		if (read(c->sfd, &si, sizeof(si)) == sizeof(si))
			vt_info("%s: exiting", strsignal(si.ssi_signo));
		return false;
	}
	if (pfd[1].revents) {
		if (read(c->tfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
			vt_debug("timerfd: %s", strerror(errno));
		c->timer_at = 0;	/* expired: arm it again */
	}
	if (c->front->ops->events(c->front, pfd + i_front, n_front) < 0) {
		c->exit_code = 1;
		return false;
	}
	c->remote->ops->events(c->remote, pfd + i_remote, n_remote);
	arm_timer(c, timers(c, vt_now_ns()));
	return !c->stop;
}

int client_run(const struct vc_opts *o, void (*ready)(bool ok))
{
	struct vc_client *c = calloc(1, sizeof(*c));
	uint64_t now;
	int ret;

	if (!c || setup(c, o) < 0 || (o->user && vt_privs_drop(o->user) < 0)) {
		if (!c)
			vt_err("out of memory");
		else
			teardown(c);
		free(c);
		if (ready)
			ready(false);
		return 1;
	}
	if (ready)
		ready(true);
	vt_info("%s <- tuner %s of %s:%s", c->front->path,
		o->tuner >= 0 ? "(-t)" : "(first free)", o->host, o->port);
	now = vt_now_ns();
	vc_mon_init(&c->mon, o->status_file, c->front->path, o->sink != NULL,
		    now);
	arm_timer(c, timers(c, now));
	while (round_run(c))
		;
	ret = c->exit_code;
	teardown(c);
	free(c);
	return ret;
}
