// SPDX-License-Identifier: GPL-2.0
/*
 * vtp_io.c - frame reader and output queue for non-blocking sockets
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "proto/vtp_io.h"

/* ---- reader ------------------------------------------------------------- */

void vtp_reader_init(struct vtp_reader *r)
{
	r->open = NULL;
	r->err = 0;
	r->start = 0;
	r->end = 0;
}

/*
 * Undecoded bytes move to the front only when the free tail is short, so
 * that a burst of small reads does not copy the same bytes again and
 * again.  A full buffer always has start > 0: it holds more than a
 * maximal frame, so vtp_reader_next() had a frame to consume.
 */
uint8_t *vtp_reader_space(struct vtp_reader *r, size_t *room)
{
	if (r->start == r->end) {
		r->start = 0;
		r->end = 0;
	} else if (r->start && sizeof(r->buf) - r->end < sizeof(r->buf) / 4) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	*room = sizeof(r->buf) - r->end;
	return r->buf + r->end;
}

void vtp_reader_commit(struct vtp_reader *r, size_t n)
{
	r->end += n;
}

ssize_t vtp_reader_fill(struct vtp_reader *r, int fd)
{
	size_t room;
	uint8_t *p = vtp_reader_space(r, &room);
	ssize_t n;

	if (!room)
		return -ENOBUFS;
	do
		n = read(fd, p, room);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	r->drained = (size_t)n < room;
	vtp_reader_commit(r, n);
	return n;
}

/* The frame inside the next SEALED one. */
static int reader_next_sealed(struct vtp_reader *r, struct vtp_msg *m)
{
	uint8_t *p = r->buf + r->start;
	size_t avail = r->end - r->start, flen;
	int ret, n;

	if (r->err)
		return r->err;
	ret = vtp_decode_hdr(p, avail, &m->hdr);
	if (ret <= 0)
		return ret;
	flen = VTP_HDR_LEN + (size_t)m->hdr.len;
	m->frame_len = flen;
	if (avail < flen)
		return 0;
	n = vtp_seal_open(r->open, p, flen);
	if (n < 0)
		return n;
	ret = vtp_decode(p + VTP_HDR_LEN, (size_t)n, m);
	if (ret > 0 || ret == -ENOTSUP || ret == -EPROTO) {
		if (m->frame_len != (size_t)n) {
			r->err = -EBADMSG;
			return r->err;
		}
		r->start += flen;
		return ret;
	}
	/*
	 * Authentic but not one whole frame (cut short, a byte more, a
	 * header too long or of bad magic): the peer is broken.  The frame
	 * is open and its number used: the error is kept to be returned
	 * again, as a fatal one must be.
	 */
	r->err = -EBADMSG;
	return r->err;
}

int vtp_reader_next(struct vtp_reader *r, struct vtp_msg *m)
{
	int ret;

	if (r->open)
		return reader_next_sealed(r, m);
	ret = vtp_decode(r->buf + r->start, r->end - r->start, m);
	if (ret > 0 || ret == -ENOTSUP || ret == -EPROTO)
		r->start += m->frame_len;
	return ret;
}

size_t vtp_reader_pending(const struct vtp_reader *r)
{
	return r->end - r->start;
}

/* ---- writer ------------------------------------------------------------- */

void vtp_writer_init(struct vtp_writer *w, void *storage, size_t cap)
{
	w->buf = storage;
	w->cap = cap;
	w->head = 0;
	w->len = 0;
}

size_t vtp_writer_pending(const struct vtp_writer *w)
{
	return w->len;
}

size_t vtp_writer_room(const struct vtp_writer *w)
{
	return w->cap - w->len;
}

/* Copy n bytes in at the tail, wrapping around the end of the ring. */
static void ring_push(struct vtp_writer *w, const uint8_t *src, size_t n)
{
	size_t tail, first;

	if (!n)
		return;
	tail = (w->head + w->len) % w->cap;
	first = w->cap - tail < n ? w->cap - tail : n;

	memcpy(w->buf + tail, src, first);
	memcpy(w->buf, src + first, n - first);
	w->len += n;
}

int vtp_writer_putv(struct vtp_writer *w, const struct iovec *iov, int n)
{
	size_t total = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (iov[i].iov_len > vtp_writer_room(w) - total)
			return -ENOBUFS;
		total += iov[i].iov_len;
	}
	for (i = 0; i < n; i++)
		ring_push(w, iov[i].iov_base, iov[i].iov_len);
	return 0;
}

int vtp_writer_put(struct vtp_writer *w, const void *data, size_t len)
{
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };

	return vtp_writer_putv(w, &iov, 1);
}

uint8_t *vtp_writer_tail(struct vtp_writer *w, size_t *span)
{
	size_t end = w->head + w->len;

	if (end < w->cap) {
		*span = w->cap - end;
		return w->buf + end;
	}
	end -= w->cap;
	*span = w->head - end;
	return w->buf + end;
}

void vtp_writer_commit(struct vtp_writer *w, size_t len)
{
	size_t span;

	vtp_writer_tail(w, &span);
	if (len > span)		/* a caller bug: never queue past the head */
		len = span;
	w->len += len;
}

/* The queued bytes as at most two segments: head..end, then the wrap. */
static int ring_iov(const struct vtp_writer *w, struct iovec iov[2])
{
	size_t first = w->cap - w->head < w->len ? w->cap - w->head : w->len;

	iov[0].iov_base = w->buf + w->head;
	iov[0].iov_len = first;
	iov[1].iov_base = w->buf;
	iov[1].iov_len = w->len - first;
	return iov[1].iov_len ? 2 : 1;
}

static void ring_pop(struct vtp_writer *w, size_t n)
{
	w->len -= n;
	w->head = w->len ? (w->head + n) % w->cap : 0;
}

ssize_t vtp_writer_flush(struct vtp_writer *w, int fd)
{
	struct iovec iov[2];
	ssize_t n;

	while (w->len) {
		n = writev(fd, iov, ring_iov(w, iov));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < 0)
			return -errno;
		ring_pop(w, n);
	}
	return w->len;
}
