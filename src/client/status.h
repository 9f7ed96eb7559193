/* SPDX-License-Identifier: GPL-2.0 */
/*
 * status.h - the state of vtunerc in a small text file, rewritten once a
 * second, for vtunerctl(8): /run/vtunerc/vtunercN.status by default.
 */
#ifndef VC_STATUS_H
#define VC_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/vtp.h"

#define VC_STATUS_DIR	"/run/vtunerc"

struct vc_status {
	const char *device;		/* /dev/vtunercN or the sink */
	const char *server;		/* HOST:PORT as given or discovered */
	const char *server_name;	/* its HELLO name, "" before */
	const char *state;		/* "ready", "connecting"... */
	int tuner;			/* remote index, -1 before OPEN */
	const char *tuner_name;
	const struct vtp_tune *tune;	/* NULL: not tuned */
	const struct vtp_status *fe;	/* NULL: no status yet */
	uint64_t bytes, cc_errors, sync_errors, stale_frames;
	uint64_t lost_ts;		/* TS packets lost on the way */
	double bitrate;			/* bit/s over the last second */
	double rtt_ms;			/* control round trip, last report */
	uint64_t sessions;		/* sessions that reached ready */
	const char *pids_error;		/* SET_PIDS refused: why; "" or NULL */
};

/*
 * Pick the file: path ("none": no file), or with path NULL the default
 * VC_STATUS_DIR/BASENAME(device).status when VC_STATUS_DIR exists.
 * Returns true if a file will be written.
 */
bool vc_status_init(const char *path, const char *device);

/* Rewrite the file (atomically, through a rename); quiet on errors. */
void vc_status_write(const struct vc_status *s);

/* Remove the file at exit. */
void vc_status_remove(void);

#endif
