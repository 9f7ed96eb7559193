// SPDX-License-Identifier: GPL-2.0
/*
 * test_vtp_queue.c - the frame-aware output queue (src/proto/vtp_queue.c):
 * frames put by copy and in place, withdrawn from the tail up to the
 * newest KEEP frame or the one partly sent, flushed through a socket
 * pair with the frame records following the bytes, resized with its
 * content, and never past its bytes or its records.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "proto/vtp_queue.h"

static int fcntl_nonblock(int fd)
{
	return fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static void fill(uint8_t *p, size_t len, uint8_t v)
{
	memset(p, v, len);
}

/* read exactly len bytes from fd (a blocking socket) */
static void drain(int fd, uint8_t *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		assert_true(n > 0);
		got += (size_t)n;
	}
}

static void test_put_withdraw(void **state)
{
	struct vtp_queue q;
	uint8_t f[100];

	(void)state;
	assert_int_equal(vtp_queue_init(&q, 1000, 8), 0);
	fill(f, sizeof(f), 1);
	assert_int_equal(vtp_queue_put(&q, f, 100, 0), 0);
	assert_int_equal(vtp_queue_put(&q, f, 50, VTP_QUEUE_KEEP), 0);
	assert_int_equal(vtp_queue_put(&q, f, 30, 0), 0);
	assert_int_equal(vtp_queue_put(&q, f, 20, 0), 0);
	assert_int_equal(vtp_queue_bytes(&q), 200);
	/* the two after the KEEP frame go, the KEEP one and its elder stay */
	assert_int_equal(vtp_queue_withdraw(&q), 2);
	assert_int_equal(vtp_queue_bytes(&q), 150);
	assert_int_equal(vtp_queue_frames(&q), 2);
	assert_int_equal(vtp_queue_withdraw(&q), 0);
	vtp_queue_free(&q);
}

static void test_limits(void **state)
{
	struct vtp_queue q;
	uint8_t f[300];

	(void)state;
	assert_int_equal(vtp_queue_init(&q, 500, 3), 0);
	fill(f, sizeof(f), 2);
	assert_int_equal(vtp_queue_put(&q, f, 300, 0), 0);
	/* bytes: 200 free */
	assert_int_equal(vtp_queue_put(&q, f, 201, 0), -ENOBUFS);
	assert_false(vtp_queue_fits(&q, 201));
	assert_int_equal(vtp_queue_put(&q, f, 100, 0), 0);
	assert_int_equal(vtp_queue_put(&q, f, 10, 0), 0);
	/* records: 3 used */
	assert_false(vtp_queue_fits(&q, 1));
	assert_int_equal(vtp_queue_put(&q, f, 1, 0), -ENOBUFS);
	assert_null(vtp_queue_slot(&q, 1));
	assert_int_equal(vtp_queue_bytes(&q), 410);
	vtp_queue_free(&q);
}

static void test_flush_records(void **state)
{
	struct vtp_queue q;
	uint8_t f[256], got[1024];
	size_t sent;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(vtp_queue_init(&q, 1024, 16), 0);
	fill(f, 100, 0xa1);
	assert_int_equal(vtp_queue_put(&q, f, 100, 0), 0);
	fill(f, 200, 0xb2);
	assert_int_equal(vtp_queue_put(&q, f, 200, 0), 0);
	assert_int_equal(vtp_queue_flush(&q, sv[0], &sent), 0);
	assert_int_equal(sent, 300);
	assert_int_equal(vtp_queue_frames(&q), 0);
	drain(sv[1], got, 300);
	assert_int_equal(got[0], 0xa1);
	assert_int_equal(got[99], 0xa1);
	assert_int_equal(got[100], 0xb2);
	assert_int_equal(got[299], 0xb2);
	vtp_queue_free(&q);
	close(sv[0]);
	close(sv[1]);
}

/* A frame partly sent is never withdrawn; the records follow the bytes. */
static void test_partly_sent(void **state)
{
	struct vtp_queue q;
	uint8_t f[4096], sink[4096];
	int sv[2], sz = 4096;
	ssize_t left;
	size_t sent;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	assert_int_equal(fcntl_nonblock(sv[0]), 0);
	assert_int_equal(vtp_queue_init(&q, 1 << 20, 1024), 0);
	fill(f, sizeof(f), 3);
	while (vtp_queue_bytes(&q) < (512u << 10))
		assert_int_equal(vtp_queue_put(&q, f, sizeof(f), 0), 0);
	left = vtp_queue_flush(&q, sv[0], &sent);
	assert_true(left > 0);
	assert_true(sent > 0);
	assert_int_equal(sent + (size_t)left, 512u << 10);
	/* every frame not started goes; the one being sent stays */
	vtp_queue_withdraw(&q);
	assert_int_equal(vtp_queue_frames(&q), sent % sizeof(f) ? 1 : 0);
	assert_int_equal(vtp_queue_bytes(&q),
			 sent % sizeof(f) ? sizeof(f) - sent % sizeof(f) : 0);
	/* the rest of it leaves whole */
	while (vtp_queue_bytes(&q)) {
		ssize_t n = read(sv[1], sink, sizeof(sink));

		assert_true(n > 0);
		assert_true(vtp_queue_flush(&q, sv[0], NULL) >= 0);
	}
	assert_int_equal(vtp_queue_frames(&q), 0);
	vtp_queue_free(&q);
	close(sv[0]);
	close(sv[1]);
}

static void test_slot_commit_wrap(void **state)
{
	struct vtp_queue q;
	uint8_t f[400], got[1000], *slot;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(vtp_queue_init(&q, 1000, 8), 0);
	fill(f, sizeof(f), 4);
	assert_int_equal(vtp_queue_put(&q, f, 400, 0), 0);
	assert_int_equal(vtp_queue_put(&q, f, 400, 0), 0);
	/* 200 contiguous at the tail: no slot of 300 */
	assert_null(vtp_queue_slot(&q, 300));
	assert_int_equal(vtp_queue_flush(&q, sv[0], NULL), 0);
	drain(sv[1], got, 800);
	/* empty again: the ring starts over at its head */
	slot = vtp_queue_slot(&q, 150);
	assert_non_null(slot);
	fill(slot, 120, 0x5c);
	vtp_queue_commit(&q, 120, 0);
	assert_int_equal(vtp_queue_bytes(&q), 120);
	assert_int_equal(vtp_queue_frames(&q), 1);
	assert_int_equal(vtp_queue_flush(&q, sv[0], NULL), 0);
	drain(sv[1], got, 120);
	assert_int_equal(got[0], 0x5c);
	assert_int_equal(got[119], 0x5c);
	vtp_queue_free(&q);
	close(sv[0]);
	close(sv[1]);
}

static void test_resize(void **state)
{
	struct vtp_queue q;
	uint8_t f[300], got[600];
	int sv[2], i;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(vtp_queue_init(&q, 500, 4), 0);
	for (i = 0; i < 300; i++)
		f[i] = (uint8_t)i;
	assert_int_equal(vtp_queue_put(&q, f, 300, VTP_QUEUE_KEEP), 0);
	assert_int_equal(vtp_queue_flush(&q, sv[0], NULL), 0);
	drain(sv[1], got, 300);
	/* wrapped: 300 at offset 300..499 and 0..99 */
	assert_int_equal(vtp_queue_put(&q, f, 300, 0), 0);
	assert_int_equal(vtp_queue_resize(&q, 200, 4), -ENOBUFS);
	assert_int_equal(vtp_queue_resize(&q, 4096, 64), 0);
	assert_int_equal(vtp_queue_bytes(&q), 300);
	assert_int_equal(vtp_queue_frames(&q), 1);
	assert_int_equal(vtp_queue_put(&q, f, 300, 0), 0);
	/* the records came along: both withdrawn */
	assert_int_equal(vtp_queue_withdraw(&q), 2);
	assert_int_equal(vtp_queue_put(&q, f, 300, 0), 0);
	assert_int_equal(vtp_queue_flush(&q, sv[0], NULL), 0);
	drain(sv[1], got, 300);
	assert_memory_equal(got, f, 300);
	vtp_queue_free(&q);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_withdraw),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_flush_records),
		cmocka_unit_test(test_partly_sent),
		cmocka_unit_test(test_slot_commit_wrap),
		cmocka_unit_test(test_resize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
