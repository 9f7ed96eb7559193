// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_proto.c - libFuzzer harness of the wire protocol decoder
 *
 * The input is a byte stream as a peer could send it.  It goes through
 * vtp_decode() frame by frame and, in chunks of varying size, through the
 * frame reader; both must agree.  Every decoded message must encode
 * again, and decoding that encoding must give the same bytes back.
 *
 * An input that begins with FUZZ_MODE_SEALED or FUZZ_MODE_FRAMES is of a
 * session with a key (fuzz_seal.h): its stream goes through a reader that
 * opens SEALED frames, and must give what vtp_seal_open() and vtp_decode()
 * give frame by frame or, for the frames the harness sealed, what their
 * inner frames give decoded alone; nothing it did not seal opens.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "proto/vtp_io.h"
#include "fuzz_seal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RESULTS	4096
/* a sealed stream: an input and the overhead of MAX_RESULTS frames */
#define SEALED_MAX	(2 * VTP_READER_SIZE)

static struct vtp_reader reader;
static struct vtp_msg msg, msg2;
static uint8_t enc[VTP_MAX_FRAME], enc2[VTP_MAX_FRAME];
static int results[MAX_RESULTS];

/* sealed modes: the stream, the inner frame each result must decode as */
static uint8_t sealed[SEALED_MAX];
static const uint8_t *expect[MAX_RESULTS];
static size_t expect_len[MAX_RESULTS];
static struct vtp_seal tx, rx;

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

/* ---- sealed modes ------------------------------------------------------- */

static bool fatal(int ret)
{
	return ret == -EKEYREJECTED || ret == -EBADMSG || ret == -EMSGSIZE;
}

static void seal_init(struct vtp_seal *s, uint8_t mode)
{
	uint8_t key[VTP_SEAL_KEY_LEN];

	fuzz_seal_key(key, mode);
	vtp_seal_wipe(s);	/* zeroed or wiped before: no handle left */
	if (vtp_seal_init(s, key, fuzz_seal_cipher(mode)) < 0)
		abort();
}

/*
 * Result i, of a SEALED frame that opened to the n bytes at p: what they
 * give decoded alone if they are one whole frame, else -EBADMSG.
 */
static int inner_result(const uint8_t *p, size_t n, int i)
{
	int ret = vtp_decode(p, n, &msg);

	expect[i] = p;
	expect_len[i] = n;
	if ((ret > 0 || ret == -ENOTSUP || ret == -EPROTO) &&
	    msg.frame_len == n) {
		if (ret > 0)
			check_reencode(&msg);
		return ret;
	}
	return -EBADMSG;
}

/*
 * FUZZ_MODE_SEALED: frame by frame, each SEALED one opened in a copy of
 * the input (sealed); returns the number of results.
 */
static int sealed_decode_all(const uint8_t *data, size_t size,
			     uint8_t mode)
{
	struct vtp_seal s = { 0 };
	struct vtp_hdr h;
	size_t off = 0, flen = 0;
	int ret, count = 0;

	memcpy(sealed, data, size);
	seal_init(&s, mode);
	while (count < MAX_RESULTS) {
		ret = vtp_decode_hdr(sealed + off, size - off, &h);
		if (ret > 0) {
			flen = VTP_HDR_LEN + (size_t)h.len;
			if (size - off < flen)
				ret = 0;
		}
		if (ret > 0) {
			ret = vtp_seal_open(&s, sealed + off, flen);
			if (ret >= 0)
				ret = inner_result(sealed + off + VTP_HDR_LEN,
						   (size_t)ret, count);
			else if (ret != -EKEYREJECTED)
				abort();
		}
		results[count++] = ret;
		if (ret <= 0 && ret != -ENOTSUP && ret != -EPROTO)
			break;
		off += flen;
	}
	vtp_seal_wipe(&s);
	return count;
}

/*
 * FUZZ_MODE_FRAMES: the records of data turned into a stream in sealed
 * (*len bytes); returns the number of results the reader must give, up
 * to the first record not sent sealed as it is (*tainted: from there on,
 * nothing may open).
 */
static int frames_build(const uint8_t *data, size_t size, size_t *len,
			bool *tainted, uint8_t mode)
{
	size_t off = 0, out = 0, n, bit;
	const uint8_t *p;
	struct vtp_hdr h;
	uint32_t want;
	uint8_t flags;
	int count = 0, slen;

	*tainted = false;
	seal_init(&tx, mode);
	while (size - off >= FUZZ_REC_HDR && count < MAX_RESULTS - 1) {
		flags = data[off];
		want = (uint32_t)data[off + 1] << 16 |
		       (uint32_t)data[off + 2] << 8 | data[off + 3];
		off += FUZZ_REC_HDR;
		p = data + off;
		n = size - off;
		if (want == FUZZ_REC_AUTO) {
			if (vtp_decode_hdr(p, n, &h) > 0 &&
			    VTP_HDR_LEN + (size_t)h.len < n)
				n = VTP_HDR_LEN + (size_t)h.len;
		} else if (want < n) {
			n = want;
		}
		if (n > VTP_MAX_FRAME)
			n = VTP_MAX_FRAME;
		if (n + VTP_SEAL_OVERHEAD > sizeof(sealed) - out)
			break;
		off += n;
		if ((flags & FUZZ_REC_HOW) == FUZZ_REC_CLEAR) {
			memcpy(sealed + out, p, n);
			out += n;
			*tainted |= n > 0;
			continue;
		}
		memcpy(sealed + out + VTP_HDR_LEN, p, n);
		slen = vtp_seal(&tx, sealed + out, sizeof(sealed) - out, n);
		if (slen < 0 || (size_t)slen != n + VTP_SEAL_OVERHEAD)
			abort();
		if ((flags & FUZZ_REC_HOW) == FUZZ_REC_DROP) {
			*tainted = true;
			continue;
		}
		if ((flags & FUZZ_REC_HOW) == FUZZ_REC_FLIP) {
			/* every field of the header, or the rest */
			bit = flags >> 2;
			if (bit < 32)
				bit *= 4;
			else
				bit = 8 * VTP_HDR_LEN + ((bit - 32) * 997 + n) %
				      (8 * (slen - VTP_HDR_LEN));
			sealed[out + bit / 8] ^= (uint8_t)(1 << bit % 8);
			*tainted = true;
		}
		out += slen;
		if (*tainted)
			continue;
		results[count] = inner_result(p, n, count);
		if (results[count++] == -EBADMSG)
			break;
	}
	*len = out;
	if (!*tainted && (!count || results[count - 1] != -EBADMSG))
		results[count++] = 0;
	return count;
}

/* Message i the reader opened: as expected, its TS where it was opened. */
static void check_opened(int i)
{
	int n, n2;

	if (vtp_decode(expect[i], expect_len[i], &msg2) != (int)expect_len[i])
		abort();
	n = vtp_encode(enc, sizeof(enc), &msg);
	n2 = vtp_encode(enc2, sizeof(enc2), &msg2);
	if (n <= 0 || n != n2 || memcmp(enc, enc2, n))
		abort();
	if (msg.hdr.type == VTP_TS_DATA &&
	    msg.u.ts.data != reader.buf + reader.start - VTP_SEAL_TAG_LEN -
			     expect_len[i] + VTP_TS_HDR_LEN)
		abort();
}

/*
 * The stream s, in chunks, through a reader that opens with mode's key:
 * the count results expected, then (tainted) nothing that opens.  A
 * fatal result comes again on the next call.
 */
static void sealed_read_all(const uint8_t *s, size_t size, int count,
			    bool tainted, uint8_t mode)
{
	size_t off = 0, room, n;
	uint8_t *p;
	int ret, i = 0;

	vtp_reader_init(&reader);
	seal_init(&rx, mode);
	reader.open = &rx;
	for (;;) {
		ret = vtp_reader_next(&reader, &msg);
		if (ret == 0 && off < size) {
			p = vtp_reader_space(&reader, &room);
			n = chunk_size(s, size, off);
			n = n < room ? n : room;
			memcpy(p, s + off, n);
			vtp_reader_commit(&reader, n);
			off += n;
			continue;
		}
		if (i < count) {
			if (ret != results[i])
				abort();
			if (ret > 0)
				check_opened(i);
			i++;
		} else if (ret != 0 && !fatal(ret)) {
			abort();
		}
		if (fatal(ret) && vtp_reader_next(&reader, &msg) != ret)
			abort();
		if (ret == 0 || fatal(ret) || (i == count && !tainted))
			break;
	}
	if (i != count)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool sodium_ready;
	size_t len;
	bool tainted;
	int count;

	if (!size)
		return 0;
	if (!sodium_ready) {
		if (sodium_init() < 0)
			abort();
		sodium_ready = true;
	}
	switch (data[0]) {
	case FUZZ_MODE_SEALED:
	case FUZZ_MODE_SEALED_OCB:
		if (size - 1 > sizeof(sealed))
			return 0;
		count = sealed_decode_all(data + 1, size - 1, data[0]);
		sealed_read_all(data + 1, size - 1, count, false, data[0]);
		/* and to a reader without a key, SEALED is an unknown type */
		count = decode_all(data + 1, size - 1);
		read_all(data + 1, size - 1, count);
		break;
	case FUZZ_MODE_FRAMES:
	case FUZZ_MODE_FRAMES_OCB:
		count = frames_build(data + 1, size - 1, &len, &tainted,
				     data[0]);
		sealed_read_all(sealed, len, count, tainted, data[0]);
		break;
	default:
		count = decode_all(data, size);
		read_all(data, size, count);
		break;
	}
	return 0;
}
