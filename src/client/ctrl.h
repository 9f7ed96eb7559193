/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctrl.h - the control device /dev/vtunercN (docs/abi.md): negotiation,
 * frontend description, messages, status pushes and TS writes.
 */
#ifndef VC_CTRL_H
#define VC_CTRL_H

#include <stddef.h>
#include <stdint.h>

#include "vtuner.h"
#include "proto/vtp.h"

struct vc_ctrl {
	int fd;
	const char *path;
	uint32_t features;	/* granted VTUNER_FEAT_* */
};

/* Open (O_NONBLOCK) and negotiate VTUNER_FEAT_ALL; -errno, logged. */
int ctrl_open(struct vc_ctrl *c, const char *path);
void ctrl_close(struct vc_ctrl *c);

/*
 * Describe the frontend as the remote tuner t: name, delivery systems,
 * limits and caps.  -errno if any step fails (logged).
 */
int ctrl_configure(struct vc_ctrl *c, const struct vtp_tuner *t,
		   const char *name);

/* 1: a message in *m; 0: none waiting; -errno. */
int ctrl_get_message(struct vc_ctrl *c, struct vtuner_message *m);
/* Answer the message read last (unchanged content is fine). */
int ctrl_respond(struct vc_ctrl *c, const struct vtuner_message *m);

/* The last tune as a TUNE body (seq = the kernel's tune seq). */
int ctrl_get_tune(struct vc_ctrl *c, struct vtp_tune *t);
/* The current PID set. */
int ctrl_get_pids(struct vc_ctrl *c, struct vtp_pids *p);

/* Push s for the kernel tune tune_seq (0: any); -ESTALE if outdated. */
int ctrl_set_status(struct vc_ctrl *c, const struct vtp_status *s,
		    uint32_t tune_seq);

/* TS into the demux (or any fd): all of it, or -errno. */
int ctrl_write_ts(int fd, const uint8_t *buf, size_t len);

/* Name of a MSG_* type for logs. */
const char *ctrl_msg_name(int type);

#endif
