/* SPDX-License-Identifier: GPL-2.0 */
/*
 * remote.h - where the tuner is: the interface between vtunerc's core
 * (client.c) and each kind of remote tuner (remote_vtp.c: vtunerd over
 * VTP; remote_satip.c: any SAT>IP server).  A remote owns its sessions: it connects, reconnects with
 * backoff, brings a new session to the state the applications asked for
 * (struct vc_wanted: SEC commands, tune, PIDs) and reports through
 * struct vc_remote_events.  Nothing it does blocks.
 */
#ifndef VC_REMOTE_H
#define VC_REMOTE_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/sec.h"
#include "proto/vtp.h"

struct vc_opts;
struct vc_remote;

/* What the applications asked for, owned by the core. */
struct vc_wanted {
	bool have_tune;
	struct vtp_tune tune;		/* tune.seq: the applications' tune */
	bool have_pids;
	struct vtp_pids *pids;		/* VTP_PID_FULL_TS: the whole TS */
	struct vc_sec_log sec;
};

/* What a remote tells the core; arg is the core's. */
struct vc_remote_events {
	/* A session is ready: the tuner it drives (again after each loss). */
	void (*ready)(void *arg, const struct vtp_tuner *t);
	/* A status of the tuner for the tune want->tune.seq. */
	void (*status)(void *arg, const struct vtp_status *s);
	/* TS of the tune want->tune.seq, whole packets. */
	void (*ts)(void *arg, const uint8_t *data, size_t len);
	/* The session ended: no signal until the next one is ready. */
	void (*lost)(void *arg);
	/* The SEC command that returned token has been answered. */
	void (*answered)(void *arg, uint32_t token);
};

/* For the status file, vtunerctl and the periodic report. */
struct vc_remote_stats {
	const char *server;		/* HOST:PORT, NULL before the first */
	const char *server_name;	/* as the server calls itself, "" */
	const char *state;		/* "ready", "connecting"... */
	int tuner;			/* the server's index, -1 */
	const char *tuner_name;		/* NULL before the first session */
	double rtt_ms;			/* control round trip, 0 if unknown */
	uint64_t stale_frames;		/* TS of an earlier tune dropped */
	uint64_t lost_ts;		/* TS packets lost on the way */
	uint64_t sessions;		/* sessions that became ready */
	const char *pids_error;		/* PIDs refused: why; "" */
};

struct vc_remote_ops {
	const char *kind;		/* "vtp", "SAT>IP" */
	/* The descriptors to poll now (at most max); their count. */
	int (*pollfds)(struct vc_remote *r, struct pollfd *pfd, int max);
	/* After poll(): pfd as pollfds() filled it, with revents. */
	void (*events)(struct vc_remote *r, const struct pollfd *pfd, int n);
	/*
	 * Once per loop round, after every event: ends the sessions marked
	 * lost, runs what is due at now; returns when it must run next.
	 */
	uint64_t (*timers)(struct vc_remote *r, uint64_t now);
	/* want->tune changed (have_tune set). */
	void (*tune)(struct vc_remote *r);
	/*
	 * A SEC command (already recorded in want->sec): a token > 0 if its
	 * answer will come through answered(), 0 if there is nothing to
	 * wait for (no session: it will be replayed).
	 */
	uint32_t (*sec)(struct vc_remote *r, const struct vc_sec_op *op);
	/* want->pids changed (have_pids set). */
	void (*pids)(struct vc_remote *r);
	/* The numbers now (rtt: the average since the last call). */
	void (*stats)(struct vc_remote *r, struct vc_remote_stats *s);
	void (*free)(struct vc_remote *r);
};

/* The part every remote starts with. */
struct vc_remote {
	const struct vc_remote_ops *ops;
	const struct vc_opts *o;
	const struct vc_wanted *want;
	const struct vc_remote_events *ev;
	void *arg;
};

/* vtunerd over VTP (o->host, o->port); NULL after logging why. */
struct vc_remote *vc_remote_vtp_new(const struct vc_opts *o,
				    const struct vc_wanted *want,
				    const struct vc_remote_events *ev,
				    void *arg);

/*
 * A SAT>IP server (o->host, o->port: its RTSP; docs/satip.md); NULL
 * after logging why.
 */
struct vc_remote *vc_remote_satip_new(const struct vc_opts *o,
				      const struct vc_wanted *want,
				      const struct vc_remote_events *ev,
				      void *arg);

#endif
