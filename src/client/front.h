/* SPDX-License-Identifier: GPL-2.0 */
/*
 * front.h - what the applications see: the interface between vtunerc's
 * core (client.c) and each front, the module's control device
 * (front_ctrl.c) or a file (front_sink.c, --sink).  A front reads the
 * applications' requests and passes them to the core (vc_client_tune,
 * vc_client_sec, vc_client_pids); the core answers each request that
 * waits with answer(), sends statuses and TS back.
 */
#ifndef VC_FRONT_H
#define VC_FRONT_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/vtp.h"

struct vc_client;
struct vc_front;
struct vc_opts;
struct vc_wanted;

struct vc_front_ops {
	const char *kind;
	/* The descriptors to poll now (at most max); their count. */
	int (*pollfds)(struct vc_front *f, struct pollfd *pfd, int max);
	/*
	 * After poll(): pfd as pollfds() filled it, with revents; read the
	 * requests.  -1 on a fatal error (logged).
	 */
	int (*events)(struct vc_front *f, const struct pollfd *pfd, int n);
	/* Describe the adapter as the remote tuner t, named name. */
	void (*configure)(struct vc_front *f, const struct vtp_tuner *t,
			  const char *name);
	/* The tuner's status for the tune seq (0: none, no signal). */
	void (*status)(struct vc_front *f, const struct vtp_status *s,
		       uint32_t seq);
	/* TS for the applications: 0, or -errno (logged by the caller). */
	int (*write_ts)(struct vc_front *f, const uint8_t *data, size_t len);
	/* The request the front passed on last is answered. */
	void (*answer)(struct vc_front *f);
	void (*free)(struct vc_front *f);
};

struct vc_front {
	const struct vc_front_ops *ops;
	const char *path;		/* for logs: /dev/vtunerc0, a file */
	bool fatal_write;		/* a failed TS write ends vtunerc */
	struct vc_client *cl;
};

/*
 * The control device o->device; a tune the module still holds (from a
 * client before this one) is taken into want.  NULL after logging why.
 */
struct vc_front *vc_front_ctrl_new(struct vc_client *cl,
				   const struct vc_opts *o,
				   struct vc_wanted *want);
/*
 * --cuse: /dev/dvb/adapterN/{frontend0,demux0,dvr0} through CUSE, served
 * here (front_cuse.c); NULL after logging why (also when vtunerc is built
 * without libfuse3).
 */
struct vc_front *vc_front_cuse_new(struct vc_client *cl,
				   const struct vc_opts *o,
				   struct vc_wanted *want);
/* --sink: TS into a file, tune and PIDs from the options. */
struct vc_front *vc_front_sink_new(struct vc_client *cl,
				   const struct vc_opts *o,
				   struct vc_wanted *want);

#endif
