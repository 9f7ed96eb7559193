/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtp_io.h - frame reader and output queue for non-blocking sockets
 *
 * struct vtp_reader accumulates whatever read() returns and yields
 * complete frames; struct vtp_writer is a bounded byte queue flushed
 * with writev().  Neither allocates: the reader embeds its buffer, the
 * writer uses storage given by the caller.  The writer may raise
 * SIGPIPE on a closed socket: programs using it ignore SIGPIPE.
 */
#ifndef VTP_IO_H
#define VTP_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "proto/vtp.h"
#include "proto/vtp_seal.h"

/*
 * Four maximal frames: a read can always complete a pending one, and the
 * undecoded tail is moved to the front only once every few frames
 * (with two, vtunerc moved about one TS frame per frame received: 3x the
 * user-space instructions per GB, BENCHMARKS.md).
 */
#define VTP_READER_SIZE		(4 * VTP_MAX_SEALED_FRAME)

struct vtp_reader {
	/*
	 * Set once the connection's handshake is complete in a session
	 * with a key: every later frame must be SEALED and open with it.
	 */
	struct vtp_seal *open;
	int err;		/* -EBADMSG: a SEALED frame opened to what
				 * is not one whole frame */
	size_t start;		/* first byte not yet decoded */
	size_t end;		/* first free byte */
	bool drained;		/* the last fill read less than it had room
				 * for: the socket was empty then */
	uint8_t buf[VTP_READER_SIZE];
};

void vtp_reader_init(struct vtp_reader *r);

/*
 * Free space for the next read; may move the undecoded bytes, which ends
 * the validity of pointers (TS_DATA payloads) from earlier frames.
 */
uint8_t *vtp_reader_space(struct vtp_reader *r, size_t *room);
void vtp_reader_commit(struct vtp_reader *r, size_t n);

/*
 * One read(): bytes read, 0 at end of file, or -errno (-EAGAIN ...).  A
 * read shorter than the room sets r->drained: a stream socket had no more
 * then, and polling again saves the read() that would fail with EAGAIN.
 */
ssize_t vtp_reader_fill(struct vtp_reader *r, int fd);

/*
 * The next frame, as vtp_decode().  A frame answered by -ENOTSUP or
 * -EPROTO is skipped (m->hdr is valid for the ERROR reply); -EBADMSG
 * and -EMSGSIZE are returned again on every call.  m->u.ts.data stays
 * valid until the next vtp_reader_space() or vtp_reader_fill().
 * With r->open, the frame inside the next SEALED one, opened in place;
 * -EKEYREJECTED (fatal) if that frame does not open (vtp_seal_open()),
 * m->hdr then being the received header; -EBADMSG if what opened is not
 * one whole frame.  Both are returned again on every call.
 */
int vtp_reader_next(struct vtp_reader *r, struct vtp_msg *m);

/* Bytes received but not decoded yet. */
size_t vtp_reader_pending(const struct vtp_reader *r);

struct vtp_writer {
	uint8_t *buf;
	size_t cap;
	size_t head;		/* offset of the oldest queued byte */
	size_t len;		/* bytes queued */
};

void vtp_writer_init(struct vtp_writer *w, void *storage, size_t cap);

/* Queue all of iov or nothing: 0 or -ENOBUFS. */
int vtp_writer_putv(struct vtp_writer *w, const struct iovec *iov, int n);
int vtp_writer_put(struct vtp_writer *w, const void *data, size_t len);

/*
 * For a producer that fills the queue in place (read() straight into it,
 * no copy): the contiguous free space at the tail, *span bytes (possibly
 * less than vtp_writer_room() when the free space wraps); then
 * vtp_writer_commit() queues the first len <= *span bytes written there.
 */
uint8_t *vtp_writer_tail(struct vtp_writer *w, size_t *span);
void vtp_writer_commit(struct vtp_writer *w, size_t len);

/*
 * writev() until the queue is empty or the socket would block: returns
 * the bytes still queued (wait for POLLOUT if not 0) or -errno.
 */
ssize_t vtp_writer_flush(struct vtp_writer *w, int fd);

size_t vtp_writer_pending(const struct vtp_writer *w);
size_t vtp_writer_room(const struct vtp_writer *w);

#endif /* VTP_IO_H */
