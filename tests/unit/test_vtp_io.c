// SPDX-License-Identifier: GPL-2.0
/*
 * test_vtp_io.c - unit tests of the frame reader and the output queue
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

#include "proto/vtp_io.h"
#include "vtp_samples.h"

#define STREAM_MAX	(4 * VTP_MAX_FRAME)

static struct vtp_reader reader;
static uint8_t stream[STREAM_MAX];
static size_t stream_len;
static uint8_t frame[VTP_MAX_FRAME];
static struct vtp_msg msg;

/* Append one frame of every sample type to stream. */
static void stream_samples(void)
{
	int i, n;

	for (i = 0; i < vtp_num_samples; i++) {
		vtp_sample(i, &msg);
		n = vtp_encode(stream + stream_len, STREAM_MAX - stream_len,
			       &msg);
		assert_true(n > 0);
		stream_len += n;
	}
}

static int setup(void **state)
{
	(void)state;
	vtp_reader_init(&reader);
	stream_len = 0;
	return 0;
}

/* Feed len bytes of stream from *off into the reader. */
static void feed(size_t *off, size_t len)
{
	size_t room;
	uint8_t *p = vtp_reader_space(&reader, &room);

	assert_true(len <= room);
	memcpy(p, stream + *off, len);
	vtp_reader_commit(&reader, len);
	*off += len;
}

/* Decode what is buffered; check the types against the samples. */
static int drain(int *count)
{
	int ret;

	while ((ret = vtp_reader_next(&reader, &msg)) > 0) {
		assert_int_equal(msg.hdr.type,
				 (vtp_sample(*count % vtp_num_samples, &msg),
				  msg.hdr.type));
		(*count)++;
	}
	return ret;
}

static void test_byte_by_byte(void **state)
{
	size_t off = 0;
	int count = 0;

	(void)state;
	stream_samples();
	while (off < stream_len) {
		feed(&off, 1);
		assert_int_equal(drain(&count), 0);
	}
	assert_int_equal(count, vtp_num_samples);
	assert_int_equal(vtp_reader_pending(&reader), 0);
}

static void test_many_frames_one_read(void **state)
{
	size_t off = 0;
	int count = 0;

	(void)state;
	stream_samples();
	stream_samples();
	stream_samples();
	feed(&off, stream_len);
	assert_int_equal(drain(&count), 0);
	assert_int_equal(count, 3 * vtp_num_samples);
}

/* Large TS frames in odd chunks: exercises the compaction of the buffer. */
static void test_large_frames_chunks(void **state)
{
	static uint8_t ts[VTP_MAX_TS_PACKETS * VTP_TS_PACKET];
	size_t off = 0, chunk, room;
	int i, n, got = 0;

	(void)state;
	for (i = 0; i < 3; i++) {
		memset(ts, i + 1, sizeof(ts));
		n = vtp_encode_ts(stream + stream_len, STREAM_MAX - stream_len,
				  i, ts, sizeof(ts) - i * VTP_TS_PACKET);
		assert_true(n > 0);
		stream_len += n;
	}
	srand(1);
	while (off < stream_len) {
		vtp_reader_space(&reader, &room);
		chunk = 1 + rand() % 100000;
		if (chunk > room)
			chunk = room;
		if (chunk > stream_len - off)
			chunk = stream_len - off;
		feed(&off, chunk);
		while (vtp_reader_next(&reader, &msg) > 0) {
			assert_int_equal(msg.hdr.type, VTP_TS_DATA);
			assert_int_equal(msg.u.ts.seq, got);
			assert_int_equal(msg.u.ts.data[0], got + 1);
			assert_int_equal(msg.u.ts.data[msg.u.ts.len - 1], got + 1);
			got++;
		}
	}
	assert_int_equal(got, 3);
}

static void test_skip_unknown_and_malformed(void **state)
{
	size_t off = 0;
	int n;

	(void)state;
	n = vtp_encode_keepalive(stream, STREAM_MAX, 7, 1);
	stream[3] = 0x99;			/* unknown type */
	stream_len = n;
	n = vtp_encode_set_tone(stream + stream_len, 64, 8, 1);
	stream[stream_len + 11] = 2;		/* length 2: malformed */
	stream[stream_len + n] = 0;
	stream_len += n + 1;
	stream_len += vtp_encode_ok(stream + stream_len, 64, 9);
	feed(&off, stream_len);

	assert_int_equal(vtp_reader_next(&reader, &msg), -ENOTSUP);
	assert_int_equal(msg.hdr.reqid, 7);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EPROTO);
	assert_int_equal(msg.hdr.reqid, 8);
	assert_int_equal(vtp_reader_next(&reader, &msg), VTP_HDR_LEN);
	assert_int_equal(msg.hdr.type, VTP_OK);
	assert_int_equal(msg.hdr.reqid, 9);
	assert_int_equal(vtp_reader_next(&reader, &msg), 0);
}

static void test_fatal_is_sticky(void **state)
{
	size_t off = 0;

	(void)state;
	stream_len = vtp_encode_ok(stream, 64, 1);
	stream[0] = 'X';
	feed(&off, stream_len);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EBADMSG);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EBADMSG);
	assert_int_equal(vtp_reader_pending(&reader), stream_len);
}

static void socket_pair(int sv[2])
{
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0,
				    sv), 0);
}

static void test_fill_from_socket(void **state)
{
	int sv[2], count = 0;

	(void)state;
	socket_pair(sv);
	assert_int_equal(vtp_reader_fill(&reader, sv[0]), -EAGAIN);
	stream_samples();
	assert_int_equal(write(sv[1], stream, stream_len), stream_len);
	while (count < vtp_num_samples) {
		assert_true(vtp_reader_fill(&reader, sv[0]) > 0);
		assert_int_equal(drain(&count), 0);
	}
	close(sv[1]);
	assert_int_equal(vtp_reader_fill(&reader, sv[0]), 0);
	close(sv[0]);
}

/* ---- writer ------------------------------------------------------------- */

static void test_writer_bounded(void **state)
{
	uint8_t store[100], data[60] = { 1 };
	struct vtp_writer w;
	struct iovec iov[2] = {
		{ .iov_base = data, .iov_len = 30 },
		{ .iov_base = data, .iov_len = 11 },
	};

	(void)state;
	vtp_writer_init(&w, store, sizeof(store));
	assert_int_equal(vtp_writer_put(&w, data, 60), 0);
	assert_int_equal(vtp_writer_putv(&w, iov, 2), -ENOBUFS);
	assert_int_equal(vtp_writer_pending(&w), 60);
	iov[1].iov_len = 10;
	assert_int_equal(vtp_writer_putv(&w, iov, 2), 0);
	assert_int_equal(vtp_writer_room(&w), 0);
	assert_int_equal(vtp_writer_put(&w, data, 1), -ENOBUFS);
	assert_int_equal(vtp_writer_put(&w, data, 0), 0);
}

static size_t read_some(int fd, uint8_t *out, size_t recvd, size_t max)
{
	ssize_t r = read(fd, out + recvd, max);

	return r > 0 ? recvd + r : recvd;
}

/*
 * Frames through a small ring into a socket that is read slowly: writes
 * are partial, block, and the queue wraps in the middle of frames.
 */
static void test_writer_flush_wraps(void **state)
{
	enum { FRAMES = 20000, FLEN = 24 };
	static uint8_t store[1000], out[FRAMES * FLEN];
	size_t recvd = 0, off;
	struct vtp_writer w;
	int sv[2], i, n;

	(void)state;
	socket_pair(sv);
	vtp_writer_init(&w, store, sizeof(store));
	for (i = 0; i < FRAMES; i++) {
		n = vtp_encode_keepalive(frame, sizeof(frame), i, i);
		assert_int_equal(n, FLEN);
		while (vtp_writer_put(&w, frame, n) == -ENOBUFS) {
			assert_true(vtp_writer_flush(&w, sv[1]) >= 0);
			recvd = read_some(sv[0], out, recvd, 777);
		}
	}
	while (vtp_writer_flush(&w, sv[1]) > 0 || recvd < sizeof(out))
		recvd = read_some(sv[0], out, recvd, sizeof(out) - recvd);
	assert_int_equal(recvd, sizeof(out));
	assert_int_equal(vtp_writer_pending(&w), 0);

	for (off = 0, i = 0; off < recvd; off += FLEN, i++) {
		assert_int_equal(vtp_decode(out + off, recvd - off, &msg), FLEN);
		assert_int_equal(msg.hdr.reqid, i);
		assert_true(msg.u.stamp == (uint64_t)i);
	}
	close(sv[0]);
	close(sv[1]);
}

/*
 * In-place production (vtp_writer_tail/commit, as vtunerd reads TS into
 * the queue) mixed with copies (vtp_writer_put) in a small ring that
 * wraps: every byte comes out once, in order, and the tail span never
 * reaches into queued data.
 */
static void test_writer_tail_commit(void **state)
{
	enum { TOTAL = 200000 };
	static uint8_t store[997], out[TOTAL];
	size_t made = 0, recvd = 0, span, len, k;
	struct vtp_writer w;
	uint8_t *dst, chunk[64];
	int sv[2], round = 0;

	(void)state;
	socket_pair(sv);
	vtp_writer_init(&w, store, sizeof(store));
	while (made < TOTAL) {
		len = 1 + (size_t)(round * 37 % 150);
		if (len > TOTAL - made)
			len = TOTAL - made;
		dst = vtp_writer_tail(&w, &span);
		assert_true(span <= vtp_writer_room(&w));
		if (round % 3 && span >= len) {
			for (k = 0; k < len; k++)
				dst[k] = (uint8_t)(made + k);
			vtp_writer_commit(&w, len);
			made += len;
		} else if (len <= sizeof(chunk) &&
			   len <= vtp_writer_room(&w)) {
			for (k = 0; k < len; k++)
				chunk[k] = (uint8_t)(made + k);
			assert_int_equal(vtp_writer_put(&w, chunk, len), 0);
			made += len;
		} else {
			assert_true(vtp_writer_flush(&w, sv[1]) >= 0);
			recvd = read_some(sv[0], out, recvd, 333);
		}
		round++;
	}
	while (vtp_writer_flush(&w, sv[1]) > 0 || recvd < TOTAL)
		recvd = read_some(sv[0], out, recvd, TOTAL - recvd);
	for (k = 0; k < TOTAL; k++)
		if (out[k] != (uint8_t)k)
			fail_msg("byte %zu: %u, expected %u", k, out[k],
				 (uint8_t)k);
	/* a full ring has no tail span; commit never runs past the head */
	vtp_writer_init(&w, store, 10);
	assert_int_equal(vtp_writer_put(&w, "0123456789", 10), 0);
	vtp_writer_tail(&w, &span);
	assert_int_equal(span, 0);
	vtp_writer_commit(&w, 5);
	assert_int_equal(vtp_writer_pending(&w), 10);
	close(sv[0]);
	close(sv[1]);
}

static void test_writer_error(void **state)
{
	uint8_t store[64];
	struct vtp_writer w;
	int sv[2];

	(void)state;
	socket_pair(sv);
	vtp_writer_init(&w, store, sizeof(store));
	assert_int_equal(vtp_writer_flush(&w, sv[1]), 0);
	assert_int_equal(vtp_writer_put(&w, "abc", 3), 0);
	close(sv[1]);
	assert_int_equal(vtp_writer_flush(&w, sv[1]), -EBADF);
	assert_int_equal(vtp_writer_pending(&w), 3);
	close(sv[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_byte_by_byte, setup),
		cmocka_unit_test_setup(test_many_frames_one_read, setup),
		cmocka_unit_test_setup(test_large_frames_chunks, setup),
		cmocka_unit_test_setup(test_skip_unknown_and_malformed, setup),
		cmocka_unit_test_setup(test_fatal_is_sticky, setup),
		cmocka_unit_test_setup(test_fill_from_socket, setup),
		cmocka_unit_test(test_writer_bounded),
		cmocka_unit_test(test_writer_flush_wraps),
		cmocka_unit_test(test_writer_tail_commit),
		cmocka_unit_test(test_writer_error),
	};

	return cmocka_run_group_tests_name("vtp io", tests, NULL, NULL);
}
