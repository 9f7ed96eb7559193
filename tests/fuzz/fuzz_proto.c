// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_proto.c - libFuzzer harness of the wire protocol decoder
 *
 * The input is a byte stream as a peer could send it.  It goes through
 * vtp_decode() frame by frame and, in chunks of varying size, through the
 * frame reader; both must agree.  Every decoded message must encode
 * again, and decoding that encoding must give the same bytes back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto/vtp_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RESULTS	4096

static struct vtp_reader reader;
static struct vtp_msg msg, msg2;
static uint8_t enc[VTP_MAX_FRAME], enc2[VTP_MAX_FRAME];
static int results[MAX_RESULTS];

static void check_reencode(const struct vtp_msg *m)
{
	int n, n2;

	n = vtp_encode(enc, sizeof(enc), m);
	if (n <= 0 || vtp_decode(enc, n, &msg2) != n)
		abort();
	n2 = vtp_encode(enc2, sizeof(enc2), &msg2);
	if (n2 != n || memcmp(enc, enc2, n))
		abort();
}

/* Frame by frame with vtp_decode(); returns the number of results. */
static int decode_all(const uint8_t *data, size_t size)
{
	size_t off = 0;
	int ret, count = 0;

	while (count < MAX_RESULTS) {
		ret = vtp_decode(data + off, size - off, &msg);
		results[count++] = ret;
		if (ret > 0) {
			if (msg.hdr.type == VTP_TS_DATA &&
			    msg.u.ts.data != data + off + VTP_TS_HDR_LEN)
				abort();
			check_reencode(&msg);
		} else if (ret != -ENOTSUP && ret != -EPROTO) {
			break;
		}
		off += msg.frame_len;
		if (off > size)
			abort();
	}
	return count;
}

/* Next chunk size: small and large ones, derived from the data. */
static size_t chunk_size(const uint8_t *data, size_t size, size_t off)
{
	size_t n = 1 + (data[off % size] % 8 ? data[off % size] % 29 : 4096);

	return n < size - off ? n : size - off;
}

/* The same stream through the reader must give the same results. */
static void read_all(const uint8_t *data, size_t size, int count)
{
	size_t off = 0, room, n;
	uint8_t *p;
	int ret, i = 0;

	vtp_reader_init(&reader);
	while (i < count) {
		ret = vtp_reader_next(&reader, &msg);
		if (ret == 0 && off < size) {
			p = vtp_reader_space(&reader, &room);
			n = chunk_size(data, size, off);
			n = n < room ? n : room;
			memcpy(p, data + off, n);
			vtp_reader_commit(&reader, n);
			off += n;
			continue;
		}
		if (ret != results[i++])
			abort();
		if (ret == 0 || ret == -EBADMSG || ret == -EMSGSIZE)
			break;
	}
	if (i != count)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int count;

	if (!size)
		return 0;
	count = decode_all(data, size);
	read_all(data, size, count);
	return 0;
}
