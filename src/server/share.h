/* SPDX-License-Identifier: GPL-2.0 */
/*
 * share.h - one tuner, several streams: the sessions tuned to the same
 * transponder share its TS, each receiving only its own PIDs.
 *
 * A stream (an RTSP session's, an HTTP stream's) joins a tuner with
 * vtd_share_join(); the first opens the tuner, the last to leave closes
 * it.  The tuner's PID filters carry the union of the streams' PIDs (a
 * count per PID), so one stream's change never touches the PIDs the
 * others still want.  The TS is read once into one buffer and handed to
 * every stream as a list of pointers to its packets: a stream that sends
 * with sendmmsg() builds its datagrams from them without copying.
 *
 * The status of a shared tuner is polled here (VTD_SHARE_POLL_MS) and
 * kept for the streams' reports.
 */
#ifndef VTD_SHARE_H
#define VTD_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/vtp.h"
#include "server/backend.h"

#define VTD_SHARE_POLL_MS	200
/*
 * Packets read from the tuner at once, at most (srv->tsbuf holds them):
 * a 10 ms tick of a 150 Mbit/s transponder in one read.
 */
#define VTD_SHARE_READ_PKTS	1024

struct vtd_server;
struct vtd_stream;

struct vtd_stream_ops {
	/*
	 * n packets (188 bytes each) of the stream's PIDs, in order; the
	 * pointers are valid during the call only.  A stream must not
	 * leave its tuner from here.
	 */
	void (*ts)(struct vtd_stream *st, const uint8_t *const *pkt, size_t n);
};

struct vtd_stream {
	const struct vtd_stream_ops *ops;
	struct vtd_tuner *tuner;	/* NULL: not joined */
	struct vtd_stream *next;	/* the tuner's streams */
	bool all;			/* the whole TS */
	uint8_t pid[VTP_PID_FULL_TS / 8];	/* bit set: wanted */
	unsigned int npids;
};

/*
 * The tuning of a tune's properties with t's SEC state (from the SEC
 * calls made through vtd_share_sec_*()): what vtd_share_tuned() records
 * and vtd_tuning_same() compares.
 */
void vtd_tuning_of(struct vtd_tuning *k, const struct vtd_tuner *t,
		   const struct vtp_prop *props, unsigned int num);
/* Whether a and b are the same transponder (both valid). */
bool vtd_tuning_same(const struct vtd_tuning *a, const struct vtd_tuning *b);
/* t was tuned with props (r: the backend's result; failure: none). */
void vtd_share_tuned(struct vtd_tuner *t, const struct vtp_prop *props,
		     unsigned int num, int r);
/* SEC through the backend, recorded (0 or -errno as the op). */
int vtd_share_sec_voltage(struct vtd_tuner *t, uint32_t v);
int vtd_share_sec_tone(struct vtd_tuner *t, uint32_t tone);
int vtd_share_sec_diseqc(struct vtd_tuner *t, const uint8_t *msg, size_t len);

/* Whether anything holds t (a vtp session or a stream). */
bool vtd_share_busy(const struct vtd_tuner *t);

/*
 * st joins t (opened if st is its first stream, its TS watched): 0 or
 * -errno (-EBUSY: a vtp session holds it; the open failed).  st carries
 * no PID yet.
 */
int vtd_share_join(struct vtd_server *srv, struct vtd_stream *st,
		   struct vtd_tuner *t);
/*
 * st becomes the first stream of t, which its owner (a vtp session that
 * is st's) has open already: 0 or -errno.
 */
int vtd_share_adopt(struct vtd_server *srv, struct vtd_stream *st,
		    struct vtd_tuner *t);
/* st leaves its tuner (closed with the last stream); its PIDs go. */
void vtd_share_leave(struct vtd_server *srv, struct vtd_stream *st);

/*
 * st now wants pids (n of them, any order, duplicates allowed; all: the
 * whole TS instead).  0, or -errno when the tuner could not deliver
 * them all (missing says which): the others run on.
 */
int vtd_share_set_pids(struct vtd_stream *st, const uint16_t *pids,
		       size_t n, bool all, char *missing, size_t missing_len);

/* t's descriptor is readable: read its TS, hand it to its streams. */
void vtd_share_ts(struct vtd_server *srv, struct vtd_tuner *t);

/* Periodic: the status of every shared tuner into t->status. */
void vtd_share_poll(struct vtd_server *srv, uint64_t now);

#endif /* VTD_SHARE_H */
