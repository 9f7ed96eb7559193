// SPDX-License-Identifier: GPL-2.0
/*
 * vtp_queue.c - a bounded output queue of whole frames (vtp_queue.h):
 * a vtp_writer byte ring plus a ring of frame lengths.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto/vtp_queue.h"

#define REC_KEEP	0x80000000u

int vtp_queue_init(struct vtp_queue *q, size_t cap, size_t max_frames)
{
	memset(q, 0, sizeof(*q));
	q->rec = calloc(max_frames ? max_frames : 1, sizeof(*q->rec));
	if (!q->rec)
		return -ENOMEM;
	vtp_writer_init(&q->wr, malloc(cap ? cap : 1), cap);
	if (!q->wr.buf) {
		free(q->rec);
		q->rec = NULL;
		return -ENOMEM;
	}
	q->rec_cap = max_frames ? max_frames : 1;
	return 0;
}

void vtp_queue_free(struct vtp_queue *q)
{
	free(q->wr.buf);
	free(q->rec);
	memset(q, 0, sizeof(*q));
}

int vtp_queue_resize(struct vtp_queue *q, size_t cap, size_t max_frames)
{
	size_t len = q->wr.len, first, i;
	uint32_t *nr;
	uint8_t *nb;

	if (!max_frames)
		max_frames = 1;
	if (len > cap || q->rec_num > max_frames)
		return -ENOBUFS;
	nb = malloc(cap ? cap : 1);
	nr = calloc(max_frames, sizeof(*nr));
	if (!nb || !nr) {
		free(nb);
		free(nr);
		return -ENOMEM;
	}
	first = q->wr.cap - q->wr.head < len ? q->wr.cap - q->wr.head : len;
	memcpy(nb, q->wr.buf + q->wr.head, first);
	memcpy(nb + first, q->wr.buf, len - first);
	for (i = 0; i < q->rec_num; i++)
		nr[i] = q->rec[(q->rec_head + i) % q->rec_cap];
	free(q->wr.buf);
	free(q->rec);
	vtp_writer_init(&q->wr, nb, cap);
	q->wr.len = len;
	q->rec = nr;
	q->rec_cap = max_frames;
	q->rec_head = 0;
	return 0;
}

static void vtp_queue_record(struct vtp_queue *q, size_t len,
			     unsigned int flags)
{
	q->rec[(q->rec_head + q->rec_num) % q->rec_cap] =
		(uint32_t)len | (flags & VTP_QUEUE_KEEP ? REC_KEEP : 0);
	q->rec_num++;
}

bool vtp_queue_fits(const struct vtp_queue *q, size_t len)
{
	return q->rec_num < q->rec_cap && len < REC_KEEP &&
	       len <= vtp_writer_room(&q->wr);
}

int vtp_queue_putv(struct vtp_queue *q, const struct iovec *iov, int n,
		   unsigned int flags)
{
	size_t len = 0;
	int i;

	for (i = 0; i < n; i++)
		len += iov[i].iov_len;
	if (!vtp_queue_fits(q, len) || vtp_writer_putv(&q->wr, iov, n) < 0)
		return -ENOBUFS;
	vtp_queue_record(q, len, flags);
	return 0;
}

int vtp_queue_put(struct vtp_queue *q, const void *frame, size_t len,
		  unsigned int flags)
{
	struct iovec iov = { .iov_base = (void *)frame, .iov_len = len };

	return vtp_queue_putv(q, &iov, 1, flags);
}

uint8_t *vtp_queue_slot(struct vtp_queue *q, size_t len)
{
	uint8_t *tail;
	size_t span;

	if (!vtp_queue_fits(q, len))
		return NULL;
	tail = vtp_writer_tail(&q->wr, &span);
	return span >= len ? tail : NULL;
}

void vtp_queue_commit(struct vtp_queue *q, size_t used, unsigned int flags)
{
	size_t before = q->wr.len;

	if (q->rec_num >= q->rec_cap)	/* a caller bug: no slot given */
		return;
	vtp_writer_commit(&q->wr, used);
	vtp_queue_record(q, q->wr.len - before, flags);
}

size_t vtp_queue_withdraw(struct vtp_queue *q)
{
	size_t dropped = 0;

	while (q->rec_num) {
		size_t idx = (q->rec_head + q->rec_num - 1) % q->rec_cap;
		uint32_t r = q->rec[idx];

		if (r & REC_KEEP)
			break;
		if (q->rec_num == 1 && q->head_sent)
			break;
		q->wr.len -= r;
		q->rec_num--;
		dropped++;
	}
	if (!q->wr.len)
		q->wr.head = 0;
	return dropped;
}

static void vtp_queue_sent(struct vtp_queue *q, size_t sent)
{
	while (sent && q->rec_num) {
		size_t flen = q->rec[q->rec_head] & ~REC_KEEP;
		size_t rem = flen - q->head_sent;

		if (sent < rem) {
			q->head_sent += sent;
			return;
		}
		sent -= rem;
		q->head_sent = 0;
		q->rec_head = (q->rec_head + 1) % q->rec_cap;
		q->rec_num--;
	}
}

ssize_t vtp_queue_flush(struct vtp_queue *q, int fd, size_t *sent)
{
	size_t before = q->wr.len;
	ssize_t left = vtp_writer_flush(&q->wr, fd);
	size_t done = before - q->wr.len;

	vtp_queue_sent(q, done);
	if (sent)
		*sent = done;
	return left;
}

size_t vtp_queue_bytes(const struct vtp_queue *q)
{
	return q->wr.len;
}

size_t vtp_queue_frames(const struct vtp_queue *q)
{
	return q->rec_num;
}
