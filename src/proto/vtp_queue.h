/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtp_queue.h - a bounded output queue of whole frames.
 *
 * struct vtp_writer (vtp_io.h) queues bytes; a queue also remembers where
 * each frame it holds begins and ends, so that a producer can withdraw
 * the newest frames none of whose bytes has left (vtunerd drops the TS of
 * an old tune on a retune), and never drops part of one.  Frames are
 * either put by copy or written in place at the tail (the tuner's read()
 * straight into the queue: the one copy in user space).
 *
 * A frame marked VTP_QUEUE_KEEP is never withdrawn, and neither is any
 * frame queued before it: a control frame on a data connection, a reply
 * on an RTSP connection.
 *
 * The storage is the queue's (vtp_queue_init() allocates it); there is
 * one record per frame, so a queue holds at most max_frames of them.
 */
#ifndef VTP_QUEUE_H
#define VTP_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proto/vtp_io.h"

#define VTP_QUEUE_KEEP	0x1u	/* never withdrawn by vtp_queue_withdraw() */

struct vtp_queue {
	struct vtp_writer wr;
	uint32_t *rec;		/* frame lengths, oldest first; bit 31: KEEP */
	size_t rec_cap, rec_head, rec_num;
	size_t head_sent;	/* bytes of the oldest frame already sent */
};

/* cap bytes and up to max_frames frames; 0 or -ENOMEM. */
int vtp_queue_init(struct vtp_queue *q, size_t cap, size_t max_frames);
void vtp_queue_free(struct vtp_queue *q);

/*
 * Change the size in bytes, keeping what is queued: 0, -ENOBUFS if more
 * than cap bytes are queued, -ENOMEM (the queue unchanged).
 */
int vtp_queue_resize(struct vtp_queue *q, size_t cap, size_t max_frames);

/* Whether one more frame of len bytes fits (bytes and records). */
bool vtp_queue_fits(const struct vtp_queue *q, size_t len);

/* Queue a frame of len bytes (flags: VTP_QUEUE_KEEP): 0 or -ENOBUFS. */
int vtp_queue_put(struct vtp_queue *q, const void *frame, size_t len,
		  unsigned int flags);
/* The same for a frame made of n pieces. */
int vtp_queue_putv(struct vtp_queue *q, const struct iovec *iov, int n,
		   unsigned int flags);

/*
 * In place: len contiguous free bytes at the tail where the next frame
 * can be written, or NULL (no such room, or no free record); then
 * vtp_queue_commit() queues the first used <= len bytes written there.
 * Nothing else may be queued in between.
 */
uint8_t *vtp_queue_slot(struct vtp_queue *q, size_t len);
void vtp_queue_commit(struct vtp_queue *q, size_t used, unsigned int flags);

/*
 * Withdraw the newest frames that are not KEEP, none of whose bytes has
 * been sent, back to the newest KEEP frame: how many.
 */
size_t vtp_queue_withdraw(struct vtp_queue *q);

/*
 * writev() until the queue is empty or the socket would block: the bytes
 * still queued (wait for POLLOUT if not 0) or -errno.  *sent (may be
 * NULL) gets the bytes written.
 */
ssize_t vtp_queue_flush(struct vtp_queue *q, int fd, size_t *sent);

size_t vtp_queue_bytes(const struct vtp_queue *q);
size_t vtp_queue_frames(const struct vtp_queue *q);

#endif /* VTP_QUEUE_H */
