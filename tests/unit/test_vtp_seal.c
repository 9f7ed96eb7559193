// SPDX-License-Identifier: GPL-2.0
/*
 * test_vtp_seal.c - unit tests of the sealed frames (vtp_seal.c), their
 * keys (vtp_auth_keys()) and the frame reader that opens them (vtp_io.c)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gcrypt.h>
#include <sodium.h>

#include "proto/vtp_auth.h"
#include "proto/vtp_io.h"
#include "proto/vtp_seal.h"
#include "vtp_samples.h"

#define BUF_MAX		VTP_MAX_SEALED_FRAME
#define TS_1024		(1024 * VTP_TS_PACKET)
/* samples, TS_DATA of 1024 packets and maximal frames, sealed */
#define STREAM_MAX	(10 * VTP_MAX_SEALED_FRAME)
#define MAX_INNER	256

/* the cipher of this run of the group: every test runs with each */
static enum vtp_cipher cipher;
static struct vtp_seal tx, rx;
static uint8_t buf[BUF_MAX], orig[BUF_MAX], copy[BUF_MAX];
static uint8_t inner[BUF_MAX], enc[BUF_MAX];
static uint8_t ts[TS_1024];
static struct vtp_msg msg;
static struct vtp_reader reader;

/* the sealed stream fed to the reader, and the frames inside it */
static uint8_t stream[STREAM_MAX];
static size_t stream_len;
static struct {
	size_t off;		/* of the inner frame in inner_all */
	size_t len;
} frames[MAX_INNER];
static int num_frames;
static uint8_t inner_all[STREAM_MAX];
static size_t inner_all_len;

static void fill_key(uint8_t key[VTP_SEAL_KEY_LEN], uint8_t seed)
{
	int i;

	for (i = 0; i < VTP_SEAL_KEY_LEN; i++)
		key[i] = (uint8_t)(seed + 7 * i);
}

/* Key s with key for this run's cipher (s wiped first). */
static void seal_init(struct vtp_seal *s, const uint8_t *key)
{
	vtp_seal_wipe(s);
	assert_int_equal(vtp_seal_init(s, key, cipher), 0);
	assert_int_equal(s->cipher, cipher);
	assert_true(s->next == 0);
}

static int setup(void **state)
{
	uint8_t key[VTP_SEAL_KEY_LEN];

	(void)state;
	fill_key(key, 1);
	seal_init(&tx, key);
	seal_init(&rx, key);
	vtp_reader_init(&reader);
	stream_len = 0;
	num_frames = 0;
	inner_all_len = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	vtp_seal_wipe(&tx);
	vtp_seal_wipe(&rx);
	return 0;
}

/* The sample of a type, encoded into out: its length. */
static size_t encode_sample(uint16_t type, uint8_t *out, size_t cap)
{
	int i, n;

	for (i = 0; i < vtp_num_samples; i++) {
		vtp_sample(i, &msg);
		if (msg.hdr.type != type)
			continue;
		n = vtp_encode(out, cap, &msg);
		assert_true(n > 0);
		return (size_t)n;
	}
	fail();
	return 0;
}

/* A TS_DATA of 1024 packets, each byte telling its position. */
static size_t encode_ts_1024(uint8_t *out, size_t cap, uint32_t seq)
{
	size_t i;
	int n;

	for (i = 0; i < sizeof(ts); i++)
		ts[i] = (uint8_t)(i * 31 + i / 251 + seq);
	n = vtp_encode_ts(out, cap, seq, ts, sizeof(ts));
	assert_int_equal(n, VTP_TS_HDR_LEN + TS_1024);
	return (size_t)n;
}

/* A frame of VTP_MAX_FRAME bytes, of a type nobody knows. */
static size_t encode_max(uint8_t *out, uint8_t seed)
{
	size_t i;

	assert_int_equal(vtp_encode_hdr(out, VTP_HDR_LEN, 0x0777,
					VTP_MAX_PAYLOAD, 9), VTP_HDR_LEN);
	for (i = VTP_HDR_LEN; i < VTP_MAX_FRAME; i++)
		out[i] = (uint8_t)(i ^ (i >> 9) ^ seed);
	return VTP_MAX_FRAME;
}

/*
 * Seal the len bytes of frame with s into out (room for the sealed
 * frame): the sealed length, checked.
 */
static size_t seal_into(struct vtp_seal *s, uint8_t *out,
			const uint8_t *frame, size_t len)
{
	uint64_t next = s->next;

	memmove(out + VTP_HDR_LEN, frame, len);
	assert_int_equal(vtp_seal(s, out, len + VTP_SEAL_OVERHEAD, len),
			 len + VTP_SEAL_OVERHEAD);
	assert_true(s->next == next + 1);
	return len + VTP_SEAL_OVERHEAD;
}

/* ---- sealing and opening ------------------------------------------------ */

/* Seal frame (len bytes) in place in buf, check it, open it again. */
static void round_trip(const uint8_t *frame, size_t len)
{
	struct vtp_hdr h;
	uint64_t n_tx = tx.next, n_rx = rx.next;

	memset(buf, 0xee, sizeof(buf));
	memcpy(buf + VTP_HDR_LEN, frame, len);
	assert_int_equal(vtp_seal(&tx, buf, sizeof(buf), len),
			 len + VTP_SEAL_OVERHEAD);
	assert_true(tx.next == n_tx + 1);
	/* the clear header of a SEALED frame, the rest not in clear */
	assert_int_equal(vtp_decode_hdr(buf, VTP_HDR_LEN, &h), VTP_HDR_LEN);
	assert_int_equal(h.type, VTP_SEALED);
	assert_int_equal(h.flags, 0);
	assert_int_equal(h.reqid, 0);
	assert_int_equal(h.len, len + VTP_SEAL_TAG_LEN);
	assert_int_equal(buf[6], 0);
	assert_int_equal(buf[7], 0);
	if (len >= VTP_HDR_LEN)
		assert_memory_not_equal(buf + VTP_HDR_LEN, frame, VTP_HDR_LEN);
	/* nothing written past the tag */
	if (len + VTP_SEAL_OVERHEAD < sizeof(buf))
		assert_int_equal(buf[len + VTP_SEAL_OVERHEAD], 0xee);

	assert_int_equal(vtp_seal_open(&rx, buf, len + VTP_SEAL_OVERHEAD),
			 len);
	assert_true(rx.next == n_rx + 1);
	if (len)
		assert_memory_equal(buf + VTP_HDR_LEN, frame, len);
}

static void test_round_trip(void **state)
{
	size_t len;
	int i;

	(void)state;
	/* an empty payload, every sample type, 1024 packets, a maximal one */
	len = encode_sample(VTP_OK, inner, sizeof(inner));
	assert_int_equal(len, VTP_HDR_LEN);
	round_trip(inner, len);
	for (i = 0; i < vtp_num_samples; i++) {
		vtp_sample(i, &msg);
		len = (size_t)vtp_encode(inner, sizeof(inner), &msg);
		round_trip(inner, len);
	}
	len = encode_ts_1024(inner, sizeof(inner), 5);
	round_trip(inner, len);
	len = encode_max(inner, 3);
	round_trip(inner, len);
	/* no inner frame at all: vtp_seal does not look at it */
	round_trip(inner, 0);
	assert_true(tx.next == (uint64_t)vtp_num_samples + 4);
	assert_true(rx.next == tx.next);
}

/* The same frame sealed twice: the numbers differ, so do the bytes. */
static void test_fresh_nonce(void **state)
{
	size_t len = encode_sample(VTP_KEEPALIVE, inner, sizeof(inner));
	size_t slen;

	(void)state;
	slen = seal_into(&tx, buf, inner, len);
	seal_into(&tx, copy, inner, len);
	assert_memory_equal(buf, copy, VTP_HDR_LEN);
	assert_memory_not_equal(buf + VTP_HDR_LEN, copy + VTP_HDR_LEN,
				slen - VTP_HDR_LEN);
}

/*
 * Open a sealed frame (len bytes of inner frame) with the library of the
 * cipher directly, not vtp_seal.c: 0 or -1.
 */
static int open_direct(const uint8_t *key, const uint8_t *nonce,
		       const uint8_t *frame, size_t len, uint8_t *out)
{
	gcry_cipher_hd_t h;
	int ret = -1;

	if (cipher == VTP_CIPHER_CHACHA20_POLY1305)
		return crypto_aead_chacha20poly1305_ietf_decrypt_detached(
			out, NULL, frame + VTP_HDR_LEN, len,
			frame + VTP_HDR_LEN + len, frame, VTP_HDR_LEN, nonce,
			key);
	assert_int_equal(gcry_cipher_open(&h, GCRY_CIPHER_AES256,
					  GCRY_CIPHER_MODE_OCB, 0), 0);
	if (!gcry_cipher_setkey(h, key, VTP_SEAL_KEY_LEN) &&
	    !gcry_cipher_setiv(h, nonce, 12) &&
	    !gcry_cipher_authenticate(h, frame, VTP_HDR_LEN) &&
	    !gcry_cipher_final(h) &&
	    !gcry_cipher_decrypt(h, out, len, frame + VTP_HDR_LEN, len) &&
	    !gcry_cipher_checktag(h, frame + VTP_HDR_LEN + len,
				  VTP_SEAL_TAG_LEN))
		ret = 0;
	gcry_cipher_close(h);
	return ret;
}

/*
 * The bytes on the wire as docs/protocol.md has them, checked with
 * libsodium or libgcrypt directly: nonce 4 zero bytes and the number
 * big-endian, the clear header as additional data, the tag after the
 * ciphertext.
 */
static void test_wire_format(void **state)
{
	uint8_t key[VTP_SEAL_KEY_LEN];
	uint8_t nonce[12] = { 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	size_t len = encode_sample(VTP_STATUS, inner, sizeof(inner));
	static const uint8_t hdr[8] = { 0x56, 0x54, 0x00, 0x50, 0, 0, 0, 0 };
	int i;

	(void)state;
	fill_key(key, 1);
	tx.next = 0x0102030405060708ULL;
	seal_into(&tx, buf, inner, len);
	assert_memory_equal(buf, hdr, sizeof(hdr));
	assert_int_equal(buf[8] << 24 | buf[9] << 16 | buf[10] << 8 | buf[11],
			 len + VTP_SEAL_TAG_LEN);
	assert_int_equal(buf[12] | buf[13] | buf[14] | buf[15], 0);
	assert_int_equal(open_direct(key, nonce, buf, len, copy), 0);
	assert_memory_equal(copy, inner, len);
	/* the number little-endian would not do */
	for (i = 0; i < 8; i++)
		nonce[4 + i] = (uint8_t)(8 - i);
	assert_int_equal(open_direct(key, nonce, buf, len, copy), -1);
	/* nor the other cipher */
	cipher = !cipher;
	for (i = 0; i < 8; i++)
		nonce[4 + i] = (uint8_t)(i + 1);
	assert_int_equal(open_direct(key, nonce, buf, len, copy), -1);
	cipher = !cipher;
	assert_int_equal(open_direct(key, nonce, buf, len, copy), 0);
}

static void test_seal_limits(void **state)
{
	size_t len = encode_sample(VTP_KEEPALIVE, inner, sizeof(inner));

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	memcpy(buf + VTP_HDR_LEN, inner, len);
	memcpy(copy, buf, sizeof(buf));
	/* one byte short of room for the tag, or none at all */
	assert_int_equal(vtp_seal(&tx, buf, len + VTP_SEAL_OVERHEAD - 1, len),
			 -ENOBUFS);
	assert_int_equal(vtp_seal(&tx, buf, VTP_HDR_LEN + len, len),
			 -ENOBUFS);
	assert_int_equal(vtp_seal(&tx, buf, 0, len), -ENOBUFS);
	/* an inner frame longer than any frame */
	assert_int_equal(vtp_seal(&tx, buf, sizeof(buf), VTP_MAX_FRAME + 1),
			 -EINVAL);
	assert_int_equal(vtp_seal(&tx, buf, sizeof(buf), SIZE_MAX), -EINVAL);
	/* neither the buffer nor the number touched */
	assert_memory_equal(buf, copy, sizeof(buf));
	assert_true(tx.next == 0);
	/* exactly the room needed, and the maximum */
	assert_int_equal(vtp_seal(&tx, buf, len + VTP_SEAL_OVERHEAD, len),
			 len + VTP_SEAL_OVERHEAD);
	assert_int_equal(vtp_seal(&tx, buf, sizeof(buf), VTP_MAX_FRAME),
			 VTP_MAX_SEALED_FRAME);
	assert_true(tx.next == 2);
}

/*
 * Flip bit i of the sealed frame in buf (slen bytes): not opened, buf
 * as it was flipped, rx's number unchanged.
 */
static void flip_rejected(size_t slen, size_t bit)
{
	uint64_t n_rx = rx.next;

	buf[bit / 8] ^= (uint8_t)(1 << bit % 8);
	memcpy(copy, buf, slen);
	assert_int_equal(vtp_seal_open(&rx, buf, slen), -EKEYREJECTED);
	assert_memory_equal(buf, copy, slen);
	assert_true(rx.next == n_rx);
	buf[bit / 8] ^= (uint8_t)(1 << bit % 8);
}

static void test_bit_flips_small(void **state)
{
	size_t len = encode_sample(VTP_KEEPALIVE, inner, sizeof(inner));
	size_t slen, bit;

	(void)state;
	slen = seal_into(&tx, buf, inner, len);
	memcpy(orig, buf, slen);
	/* header, ciphertext and tag: every bit */
	for (bit = 0; bit < 8 * slen; bit++)
		flip_rejected(slen, bit);
	assert_memory_equal(buf, orig, slen);
	assert_int_equal(vtp_seal_open(&rx, buf, slen), len);
	assert_memory_equal(buf + VTP_HDR_LEN, inner, len);
}

static void test_bit_flips_large(void **state)
{
	size_t len = encode_ts_1024(inner, sizeof(inner), 1);
	size_t slen, bit, tag;

	(void)state;
	/* a frame before it: the number to open is 1, not 0 */
	seal_into(&tx, copy, inner, VTP_HDR_LEN + 8);
	assert_int_equal(vtp_seal_open(&rx, copy, VTP_SEAL_OVERHEAD + 24), 24);
	slen = seal_into(&tx, buf, inner, len);
	memcpy(orig, buf, slen);
	tag = 8 * (slen - VTP_SEAL_TAG_LEN);
	/* every bit of the header, of the first and last inner bytes and
	 * of the tag; a sample of the others */
	for (bit = 0; bit < 8 * slen; bit++) {
		if (bit >= 8 * 64 && bit < tag - 8 * 64 && bit % 997)
			continue;
		flip_rejected(slen, bit);
	}
	/* two bits at once, and a whole byte of the tag */
	buf[100] ^= 1;
	buf[slen - 1] ^= 0x80;
	assert_int_equal(vtp_seal_open(&rx, buf, slen), -EKEYREJECTED);
	buf[100] ^= 1;
	buf[slen - 1] ^= 0x80;
	buf[slen - 5] ^= 0xff;
	assert_int_equal(vtp_seal_open(&rx, buf, slen), -EKEYREJECTED);
	buf[slen - 5] ^= 0xff;
	assert_memory_equal(buf, orig, slen);
	assert_true(rx.next == 1);
	assert_int_equal(vtp_seal_open(&rx, buf, slen), len);
	assert_memory_equal(buf + VTP_HDR_LEN, inner, len);
}

static void test_truncated(void **state)
{
	size_t len = encode_sample(VTP_KEEPALIVE, inner, sizeof(inner));
	size_t slen, n;

	(void)state;
	slen = seal_into(&tx, buf, inner, len);
	memcpy(orig, buf, slen);
	/* any shorter frame, the header as it was */
	for (n = 0; n < slen; n++) {
		assert_int_equal(vtp_seal_open(&rx, buf, n), -EKEYREJECTED);
		assert_memory_equal(buf, orig, slen);
	}
	/* a byte more than the header says */
	buf[slen] = 0;
	assert_int_equal(vtp_seal_open(&rx, buf, slen + 1), -EKEYREJECTED);
	/* a header whose length disagrees, one way or the other */
	for (n = VTP_SEAL_OVERHEAD - 1; n <= slen + 1; n++) {
		if (n == slen)
			continue;
		assert_int_equal(vtp_encode_hdr(buf, VTP_HDR_LEN, VTP_SEALED,
						(uint32_t)(n - VTP_HDR_LEN), 0),
				 VTP_HDR_LEN);
		assert_int_equal(vtp_seal_open(&rx, buf, slen), -EKEYREJECTED);
		assert_int_equal(vtp_seal_open(&rx, buf, n), -EKEYREJECTED);
	}
	/* the tag cut short, the header made to agree */
	memcpy(buf, orig, slen);
	assert_int_equal(vtp_encode_hdr(buf, VTP_HDR_LEN, VTP_SEALED,
					(uint32_t)(slen - 1 - VTP_HDR_LEN), 0),
			 VTP_HDR_LEN);
	assert_int_equal(vtp_seal_open(&rx, buf, slen - 1), -EKEYREJECTED);
	assert_true(rx.next == 0);
	memcpy(buf, orig, slen);
	assert_int_equal(vtp_seal_open(&rx, buf, slen), len);
	assert_memory_equal(buf + VTP_HDR_LEN, inner, len);
}

/* Three KEEPALIVEs of stamps 1, 2, 3 sealed in a row: sealed[i]. */
static uint8_t sealed[3][VTP_SEAL_OVERHEAD + VTP_HDR_LEN + 8];
#define SLEN	sizeof(sealed[0])

static void seal_three(void)
{
	uint8_t frame[VTP_HDR_LEN + 8];
	int i;

	for (i = 0; i < 3; i++) {
		assert_int_equal(vtp_encode_keepalive(frame, sizeof(frame),
						      i + 1, i + 1),
				 sizeof(frame));
		assert_int_equal(seal_into(&tx, sealed[i], frame,
					   sizeof(frame)), SLEN);
	}
}

/* Open sealed[i] (a copy of it): the result, checked to be its frame. */
static int open_nth(int i)
{
	int n;

	memcpy(buf, sealed[i], SLEN);
	n = vtp_seal_open(&rx, buf, SLEN);
	if (n < 0) {
		assert_memory_equal(buf, sealed[i], SLEN);
		return n;
	}
	assert_int_equal(vtp_decode(buf + VTP_HDR_LEN, n, &msg), n);
	assert_int_equal(msg.hdr.type, VTP_KEEPALIVE);
	assert_true(msg.u.stamp == (uint64_t)i + 1);
	return n;
}

static void test_replay(void **state)
{
	(void)state;
	seal_three();
	assert_int_equal(open_nth(0), VTP_HDR_LEN + 8);
	assert_int_equal(open_nth(0), -EKEYREJECTED);
	assert_int_equal(open_nth(1), VTP_HDR_LEN + 8);
	assert_int_equal(open_nth(1), -EKEYREJECTED);
	assert_int_equal(open_nth(0), -EKEYREJECTED);
	assert_int_equal(open_nth(2), VTP_HDR_LEN + 8);
	assert_true(rx.next == 3);
}

static void test_reorder(void **state)
{
	(void)state;
	seal_three();
	assert_int_equal(open_nth(1), -EKEYREJECTED);
	assert_int_equal(open_nth(2), -EKEYREJECTED);
	assert_true(rx.next == 0);
	assert_int_equal(open_nth(0), VTP_HDR_LEN + 8);
	assert_int_equal(open_nth(2), -EKEYREJECTED);
	assert_int_equal(open_nth(1), VTP_HDR_LEN + 8);
	assert_int_equal(open_nth(2), VTP_HDR_LEN + 8);
}

static void test_drop(void **state)
{
	(void)state;
	seal_three();
	/* frame 0 never arrives: none after it opens */
	assert_int_equal(open_nth(1), -EKEYREJECTED);
	assert_int_equal(open_nth(2), -EKEYREJECTED);
	/* nor does one that skips the frame in the middle */
	rx.next = 0;
	assert_int_equal(open_nth(0), VTP_HDR_LEN + 8);
	assert_int_equal(open_nth(2), -EKEYREJECTED);
}

static void test_clear_frame_rejected(void **state)
{
	size_t len, slen;
	int i;

	(void)state;
	/* every sample in clear, also with 16 bytes more, as for a tag */
	for (i = 0; i < vtp_num_samples; i++) {
		vtp_sample(i, &msg);
		len = (size_t)vtp_encode(buf, sizeof(buf), &msg);
		memcpy(copy, buf, len + VTP_SEAL_TAG_LEN);
		assert_int_equal(vtp_seal_open(&rx, buf, len), -EKEYREJECTED);
		assert_int_equal(vtp_seal_open(&rx, buf,
					       len + VTP_SEAL_TAG_LEN),
				 -EKEYREJECTED);
		assert_memory_equal(buf, copy, len + VTP_SEAL_TAG_LEN);
	}
	assert_true(rx.next == 0);
	/* a genuine sealed frame with only its type changed */
	len = encode_sample(VTP_KEEPALIVE, inner, sizeof(inner));
	slen = seal_into(&tx, buf, inner, len);
	buf[3] = VTP_KEEPALIVE;
	assert_int_equal(vtp_seal_open(&rx, buf, slen), -EKEYREJECTED);
	buf[3] = VTP_SEALED;
	assert_true(rx.next == 0);
	assert_int_equal(vtp_seal_open(&rx, buf, slen), len);
}

/* ---- keys --------------------------------------------------------------- */

static struct vtp_psk psk;
static struct vtp_auth_ctx actx;
static const uint8_t token1[VTP_TOKEN_LEN] = "0123456789abcdef";
static const uint8_t token2[VTP_TOKEN_LEN] = "0123456789abcdeg";

static void keys_setup(void)
{
	int i;

	memset(&psk, 0, sizeof(psk));
	for (i = 0; i < 32; i++)
		psk.key[i] = (uint8_t)(0xa0 + i);
	psk.len = 32;
	memset(&actx, 0, sizeof(actx));
	for (i = 0; i < VTP_NONCE_LEN; i++) {
		actx.nc[i] = (uint8_t)i;
		actx.ns[i] = (uint8_t)(100 + i);
	}
	actx.version = 1;
	actx.features = VTP_FEAT_AUTH | VTP_FEAT_SEAL;
	strcpy(actx.cname, "vtunerc");
	strcpy(actx.sname, "vtunerd");
}

/* The keys of the control connection and of token1's, all four. */
struct key_set {
	struct vtp_keys ctl;
	struct vtp_keys data;
};

static void get_keys(struct key_set *ks)
{
	vtp_auth_keys(&psk, &actx, NULL, &ks->ctl);
	vtp_auth_keys(&psk, &actx, token1, &ks->data);
}

/* Not one key of a equals a key of b. */
static void all_differ(const struct key_set *a, const struct key_set *b)
{
	const uint8_t *ka[4] = { a->ctl.c2s, a->ctl.s2c, a->data.c2s,
				 a->data.s2c };
	const uint8_t *kb[4] = { b->ctl.c2s, b->ctl.s2c, b->data.c2s,
				 b->data.s2c };
	int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			assert_memory_not_equal(ka[i], kb[j],
						VTP_SEAL_KEY_LEN);
}

static void test_keys(void **state)
{
	struct key_set base, again, other;
	struct vtp_keys d2;
	const uint8_t *k[6];
	int i, j;

	(void)state;
	keys_setup();
	get_keys(&base);
	vtp_auth_keys(&psk, &actx, token2, &d2);
	/* six keys, all different */
	k[0] = base.ctl.c2s;
	k[1] = base.ctl.s2c;
	k[2] = base.data.c2s;
	k[3] = base.data.s2c;
	k[4] = d2.c2s;
	k[5] = d2.s2c;
	for (i = 0; i < 6; i++)
		for (j = i + 1; j < 6; j++)
			assert_memory_not_equal(k[i], k[j], VTP_SEAL_KEY_LEN);
	/* the same inputs, the same keys */
	get_keys(&again);
	assert_memory_equal(&base, &again, sizeof(base));
	/* vtp_auth_keys() writes all of out */
	memset(&again, 0x55, sizeof(again));
	get_keys(&again);
	assert_memory_equal(&base, &again, sizeof(base));

	/* any field of the transcript, or the key, changes all of them */
	actx.nc[31] ^= 1;
	get_keys(&other);
	all_differ(&base, &other);
	keys_setup();
	actx.ns[0] ^= 0x80;
	get_keys(&other);
	all_differ(&base, &other);
	keys_setup();
	actx.version = 2;
	get_keys(&other);
	all_differ(&base, &other);
	keys_setup();
	actx.features = VTP_FEAT_AUTH;
	get_keys(&other);
	all_differ(&base, &other);
	/* AES-256-OCB granted: other keys, and the cipher says so */
	assert_int_equal(base.ctl.cipher, VTP_CIPHER_CHACHA20_POLY1305);
	assert_int_equal(base.data.cipher, VTP_CIPHER_CHACHA20_POLY1305);
	keys_setup();
	actx.features |= VTP_FEAT_SEAL_OCB;
	get_keys(&other);
	all_differ(&base, &other);
	assert_int_equal(other.ctl.cipher, VTP_CIPHER_AES256_OCB);
	assert_int_equal(other.data.cipher, VTP_CIPHER_AES256_OCB);
	keys_setup();
	actx.features |= 0x80000000U;
	get_keys(&other);
	all_differ(&base, &other);
	keys_setup();
	strcpy(actx.cname, "vtunerC");
	get_keys(&other);
	all_differ(&base, &other);
	keys_setup();
	strcpy(actx.sname, "vtunerd2");
	get_keys(&other);
	all_differ(&base, &other);
	/* the names are not one string: "vtunerc" "vtunerd" is not
	 * "vtunercv" "tunerd" */
	keys_setup();
	strcpy(actx.cname, "vtunercv");
	strcpy(actx.sname, "tunerd");
	get_keys(&other);
	all_differ(&base, &other);
	keys_setup();
	psk.key[17] ^= 4;
	get_keys(&other);
	all_differ(&base, &other);
	keys_setup();
	psk.key[32] = 0xa0 + 32;
	psk.len = 33;
	get_keys(&other);
	all_differ(&base, &other);
	keys_setup();
	get_keys(&other);
	assert_memory_equal(&base, &other, sizeof(base));
}

/* A frame sealed with one key, opened with another: rejected. */
static void open_with(const uint8_t *seal_key, const uint8_t *open_key,
		      int want)
{
	size_t len = encode_sample(VTP_SET_PIDS, inner, sizeof(inner));
	size_t slen;

	seal_init(&tx, seal_key);
	seal_init(&rx, open_key);
	slen = seal_into(&tx, buf, inner, len);
	memcpy(orig, buf, slen);
	assert_int_equal(vtp_seal_open(&rx, buf, slen), want);
	if (want < 0) {
		assert_memory_equal(buf, orig, slen);
		assert_true(rx.next == 0);
	} else {
		assert_memory_equal(buf + VTP_HDR_LEN, inner, len);
	}
}

static void test_wrong_key(void **state)
{
	struct vtp_keys ctl, data, data2, other;

	(void)state;
	keys_setup();
	vtp_auth_keys(&psk, &actx, NULL, &ctl);
	vtp_auth_keys(&psk, &actx, token1, &data);
	vtp_auth_keys(&psk, &actx, token2, &data2);
	open_with(ctl.c2s, ctl.c2s, (int)encode_sample(VTP_SET_PIDS, inner,
						       sizeof(inner)));
	/* the other direction's key */
	open_with(ctl.c2s, ctl.s2c, -EKEYREJECTED);
	open_with(ctl.s2c, ctl.c2s, -EKEYREJECTED);
	open_with(data.c2s, data.s2c, -EKEYREJECTED);
	/* the other connection's */
	open_with(ctl.c2s, data.c2s, -EKEYREJECTED);
	open_with(data.c2s, ctl.c2s, -EKEYREJECTED);
	open_with(data.c2s, data2.c2s, -EKEYREJECTED);
	open_with(data.s2c, data2.s2c, -EKEYREJECTED);
	/* another session's: another transcript, another key */
	actx.ns[5] ^= 1;
	vtp_auth_keys(&psk, &actx, NULL, &other);
	open_with(ctl.c2s, other.c2s, -EKEYREJECTED);
	vtp_auth_keys(&psk, &actx, token1, &other);
	open_with(data.s2c, other.s2c, -EKEYREJECTED);
	keys_setup();
	psk.key[0] ^= 1;
	vtp_auth_keys(&psk, &actx, NULL, &other);
	open_with(ctl.c2s, other.c2s, -EKEYREJECTED);
	open_with(other.s2c, ctl.s2c, -EKEYREJECTED);
	vtp_keys_wipe(&other);
	assert_true(sodium_is_zero((const unsigned char *)&other,
				   sizeof(other)));
}

/* ---- numbers ------------------------------------------------------------ */

static void test_rewind(void **state)
{
	uint8_t frame[VTP_HDR_LEN + 8];
	uint64_t stamp;
	int i;

	(void)state;
	seal_three();
	/* the receiver saw the first, the other two were withdrawn */
	assert_int_equal(open_nth(0), VTP_HDR_LEN + 8);
	vtp_seal_rewind(&tx, 2);
	assert_true(tx.next == 1);
	for (i = 0; i < 2; i++) {
		assert_int_equal(vtp_encode_keepalive(frame, sizeof(frame),
						      10 + i, 10 + i),
				 sizeof(frame));
		seal_into(&tx, sealed[1 + i], frame, sizeof(frame));
	}
	for (i = 1; i < 3; i++) {
		memcpy(buf, sealed[i], SLEN);
		assert_int_equal(vtp_seal_open(&rx, buf, SLEN),
				 VTP_HDR_LEN + 8);
		assert_int_equal(vtp_decode(buf + VTP_HDR_LEN, VTP_HDR_LEN + 8,
					    &msg), VTP_HDR_LEN + 8);
		stamp = msg.u.stamp;
		assert_true(stamp == (uint64_t)9 + i);
	}
	assert_true(rx.next == 3 && tx.next == 3);
	/* rewinding more than was sealed starts again from 0, no wrap */
	vtp_seal_rewind(&tx, 4);
	assert_true(tx.next == 0);
	vtp_seal_rewind(&tx, UINT64_MAX);
	assert_true(tx.next == 0);
	tx.next = 5;
	vtp_seal_rewind(&tx, 0);
	assert_true(tx.next == 5);
	vtp_seal_rewind(&tx, 5);
	assert_true(tx.next == 0);
}

static void test_counter_overflow(void **state)
{
	size_t len = encode_sample(VTP_KEEPALIVE, inner, sizeof(inner));

	(void)state;
	/* the last number there is: the frame is sealed, and opens */
	tx.next = UINT64_MAX - 1;
	rx.next = UINT64_MAX - 1;
	seal_into(&tx, buf, inner, len);
	assert_true(tx.next == UINT64_MAX);
	assert_int_equal(vtp_seal_open(&rx, buf, len + VTP_SEAL_OVERHEAD),
			 len);
	assert_true(rx.next == UINT64_MAX);
	/* then no more: nothing written, no number used */
	memset(buf, 0x33, sizeof(buf));
	memcpy(buf + VTP_HDR_LEN, inner, len);
	memcpy(copy, buf, len + VTP_SEAL_OVERHEAD);
	assert_int_equal(vtp_seal(&tx, buf, sizeof(buf), len), -EOVERFLOW);
	assert_memory_equal(buf, copy, len + VTP_SEAL_OVERHEAD);
	assert_true(tx.next == UINT64_MAX);
	/* and a receiver that got there opens nothing either */
	tx.next = UINT64_MAX - 1;
	seal_into(&tx, buf, inner, len);
	assert_int_equal(vtp_seal_open(&rx, buf, len + VTP_SEAL_OVERHEAD),
			 -EKEYREJECTED);
	assert_true(rx.next == UINT64_MAX);
}

/* ---- the reader --------------------------------------------------------- */

/* Seal the len bytes of frame onto the stream, remembering them. */
static void stream_add(const uint8_t *frame, size_t len)
{
	assert_true(num_frames < MAX_INNER);
	assert_true(stream_len + len + VTP_SEAL_OVERHEAD <= sizeof(stream));
	memcpy(inner_all + inner_all_len, frame, len);
	frames[num_frames].off = inner_all_len;
	frames[num_frames].len = len;
	num_frames++;
	inner_all_len += len;
	stream_len += seal_into(&tx, stream + stream_len, frame, len);
}

/* Every sample, a TS_DATA of 1024 packets, and more samples. */
static void stream_samples(void)
{
	size_t len;
	int i;

	for (i = 0; i < vtp_num_samples; i++) {
		vtp_sample(i, &msg);
		len = (size_t)vtp_encode(inner, sizeof(inner), &msg);
		stream_add(inner, len);
	}
	stream_add(inner, encode_ts_1024(inner, sizeof(inner), 77));
	for (i = vtp_num_samples - 1; i >= 0; i--) {
		vtp_sample(i, &msg);
		len = (size_t)vtp_encode(inner, sizeof(inner), &msg);
		stream_add(inner, len);
	}
}

/* Feed len bytes of the stream from *off into the reader. */
static void feed(size_t *off, size_t len)
{
	size_t room;
	uint8_t *p = vtp_reader_space(&reader, &room);

	assert_true(len <= room);
	memcpy(p, stream + *off, len);
	vtp_reader_commit(&reader, len);
	*off += len;
}

/*
 * Check the message the reader gave (ret) against inner frame i: the
 * same bytes when encoded again, TS read where it was decrypted.
 */
static void check_frame(int ret, int i)
{
	const uint8_t *f = inner_all + frames[i].off;
	size_t len = frames[i].len;
	int n;

	assert_true(i < num_frames);
	if (ret == -ENOTSUP) {
		/* the maximal frames: of a type nobody knows */
		assert_int_equal(len, VTP_MAX_FRAME);
		assert_int_equal(msg.hdr.type, 0x0777);
		assert_int_equal(msg.frame_len, VTP_MAX_FRAME);
		return;
	}
	assert_int_equal(ret, len);
	assert_int_equal(msg.frame_len, len);
	n = vtp_encode(enc, sizeof(enc), &msg);
	assert_int_equal(n, len);
	assert_memory_equal(enc, f, len);
	if (msg.hdr.type == VTP_TS_DATA) {
		/* in the reader's buffer, just before its next frame */
		assert_ptr_equal(msg.u.ts.data, reader.buf + reader.start -
				 VTP_SEAL_TAG_LEN - len + VTP_TS_HDR_LEN);
		assert_memory_equal(msg.u.ts.data, f + VTP_TS_HDR_LEN,
				    len - VTP_TS_HDR_LEN);
	}
}

/* Decode what is buffered: the next frame to come. */
static int drain(int i)
{
	int ret;

	while ((ret = vtp_reader_next(&reader, &msg)) != 0) {
		check_frame(ret, i);
		i++;
	}
	return i;
}

static void test_reader_byte_by_byte(void **state)
{
	size_t off = 0;
	int i = 0;

	(void)state;
	reader.open = &rx;
	stream_samples();
	while (off < stream_len) {
		feed(&off, 1);
		i = drain(i);
	}
	assert_int_equal(i, num_frames);
	assert_int_equal(vtp_reader_pending(&reader), 0);
	assert_true(rx.next == (uint64_t)num_frames);
}

static void test_reader_random_splits(void **state)
{
	size_t off = 0, chunk, room;
	int i = 0, round;

	(void)state;
	reader.open = &rx;
	srand(7);
	/* more than the reader's buffer holds: it moves what is pending */
	for (round = 0; round < 2; round++) {
		stream_samples();
		stream_add(inner, encode_max(inner, (uint8_t)round));
		stream_add(inner, encode_ts_1024(inner, sizeof(inner), round));
		stream_add(inner, encode_max(inner, (uint8_t)(round + 9)));
	}
	stream_add(inner, encode_max(inner, 100));
	assert_true(stream_len > sizeof(reader.buf));
	while (off < stream_len) {
		vtp_reader_space(&reader, &room);
		chunk = rand() % 4 ? 1 + rand() % 3000 : 1 + rand() % 400000;
		if (chunk > room)
			chunk = room;
		if (chunk > stream_len - off)
			chunk = stream_len - off;
		feed(&off, chunk);
		i = drain(i);
	}
	assert_int_equal(i, num_frames);
	assert_int_equal(vtp_reader_pending(&reader), 0);
}

static void test_reader_ts_in_place(void **state)
{
	size_t off = 0, len;

	(void)state;
	reader.open = &rx;
	len = encode_ts_1024(inner, sizeof(inner), 3);
	stream_add(inner, len);
	feed(&off, stream_len);
	assert_int_equal(vtp_reader_next(&reader, &msg), len);
	assert_int_equal(msg.hdr.type, VTP_TS_DATA);
	assert_int_equal(msg.u.ts.seq, 3);
	assert_int_equal(msg.u.ts.len, TS_1024);
	/* no copy: the packets decrypted where they were received */
	assert_ptr_equal(msg.u.ts.data,
			 reader.buf + VTP_HDR_LEN + VTP_TS_HDR_LEN);
	assert_memory_equal(msg.u.ts.data, ts, TS_1024);
	assert_int_equal(vtp_reader_next(&reader, &msg), 0);
}

static void test_reader_clear_frame(void **state)
{
	size_t off = 0, len;
	int n;

	(void)state;
	reader.open = &rx;
	len = encode_sample(VTP_KEEPALIVE, inner, sizeof(inner));
	stream_add(inner, len);
	n = vtp_encode_keepalive(stream + stream_len, 64, 0x1234, 5);
	stream_len += n;
	stream_add(inner, len);
	/* the clear frame whole, its bytes one by one: no answer before */
	feed(&off, stream_len - VTP_SEAL_OVERHEAD - len - n);
	assert_int_equal(vtp_reader_next(&reader, &msg), len);
	while (off < stream_len - VTP_SEAL_OVERHEAD - len - 1) {
		feed(&off, 1);
		assert_int_equal(vtp_reader_next(&reader, &msg), 0);
	}
	feed(&off, 1);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EKEYREJECTED);
	assert_int_equal(msg.hdr.type, VTP_KEEPALIVE);
	assert_int_equal(msg.hdr.reqid, 0x1234);
	/* fatal, and again: nothing consumed, the number not used */
	assert_int_equal(vtp_reader_next(&reader, &msg), -EKEYREJECTED);
	assert_int_equal(msg.hdr.type, VTP_KEEPALIVE);
	assert_int_equal(vtp_reader_pending(&reader), n);
	assert_true(rx.next == 1);
	feed(&off, stream_len - off);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EKEYREJECTED);
}

static void test_reader_forged(void **state)
{
	size_t off = 0, len;

	(void)state;
	reader.open = &rx;
	len = encode_sample(VTP_STATUS, inner, sizeof(inner));
	stream_add(inner, len);
	stream_add(inner, len);
	stream[stream_len - 20] ^= 0x10;
	feed(&off, stream_len);
	assert_int_equal(vtp_reader_next(&reader, &msg), len);
	memcpy(copy, stream + stream_len / 2, stream_len / 2);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EKEYREJECTED);
	assert_int_equal(msg.hdr.type, VTP_SEALED);
	assert_int_equal(msg.hdr.len, len + VTP_SEAL_TAG_LEN);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EKEYREJECTED);
	/* what did not open is still as received */
	assert_int_equal(vtp_reader_pending(&reader), stream_len / 2);
	assert_memory_equal(reader.buf + reader.start, copy, stream_len / 2);
}

/*
 * Seal the len bytes at frame as they are, whatever they are, onto the
 * stream: the reader that opens them finds no one whole frame.
 */
static void stream_add_raw(const uint8_t *frame, size_t len)
{
	stream_len += seal_into(&tx, stream + stream_len, frame, len);
}

/*
 * The reader's answer to the inner bytes frame, sealed; a fatal one
 * comes again on the next call, whatever follows.
 */
static uint16_t inner_type;	/* m->hdr.type of reader_inner()'s answer */

static int reader_inner(const uint8_t *frame, size_t len)
{
	size_t off = 0;
	int ret;

	setup(NULL);
	reader.open = &rx;
	stream_add_raw(frame, len);
	stream_add(inner, encode_sample(VTP_OK, inner, sizeof(inner)));
	feed(&off, stream_len);
	ret = vtp_reader_next(&reader, &msg);
	inner_type = msg.hdr.type;
	if (ret == -EBADMSG) {
		assert_int_equal(vtp_reader_next(&reader, &msg), -EBADMSG);
		assert_int_equal(vtp_reader_pending(&reader), stream_len);
	} else {
		assert_int_equal(vtp_reader_next(&reader, &msg), VTP_HDR_LEN);
		assert_int_equal(msg.hdr.type, VTP_OK);
	}
	return ret;
}

static void test_reader_not_one_frame(void **state)
{
	size_t len = encode_sample(VTP_KEEPALIVE, inner, sizeof(inner));
	uint8_t f[2 * (VTP_HDR_LEN + 8) + 8];

	(void)state;
	memcpy(f, inner, len);
	assert_int_equal(reader_inner(f, len), len);
	/* nothing, a header alone, a frame cut short */
	assert_int_equal(reader_inner(f, 0), -EBADMSG);
	assert_int_equal(reader_inner(f, 1), -EBADMSG);
	assert_int_equal(reader_inner(f, VTP_HDR_LEN), -EBADMSG);
	assert_int_equal(reader_inner(f, len - 1), -EBADMSG);
	/* a byte more, or two frames */
	f[len] = 0;
	assert_int_equal(reader_inner(f, len + 1), -EBADMSG);
	memcpy(f + len, inner, len);
	assert_int_equal(reader_inner(f, 2 * len), -EBADMSG);
	/* a length that disagrees with what was sealed */
	f[11] = 7;
	assert_int_equal(reader_inner(f, len), -EBADMSG);
	f[11] = 9;
	assert_int_equal(reader_inner(f, len), -EBADMSG);
	f[11] = 8;
	f[8] = 0x7f;
	assert_int_equal(reader_inner(f, len), -EBADMSG);
	f[8] = 0;
	/* bad magic inside */
	f[0] = 'X';
	assert_int_equal(reader_inner(f, len), -EBADMSG);
	f[0] = inner[0];
	assert_int_equal(reader_inner(f, len), len);
	/* a malformed or unknown one, though, is authentic: skipped */
	f[3] = 0x99;
	assert_int_equal(reader_inner(f, len), -ENOTSUP);
	assert_int_equal(inner_type, 0x99);
	f[3] = VTP_SET_TONE;
	assert_int_equal(reader_inner(f, len), -EPROTO);
	assert_int_equal(inner_type, VTP_SET_TONE);
	/* and so is a SEALED frame inside a SEALED one: of an unknown type */
	assert_int_equal(vtp_encode_hdr(f, VTP_HDR_LEN, VTP_SEALED, 8, 0),
			 VTP_HDR_LEN);
	assert_int_equal(reader_inner(f, len), -ENOTSUP);
	assert_int_equal(inner_type, VTP_SEALED);
}

/* A SEALED header alone: too long before anything else is read. */
static void test_reader_sealed_too_long(void **state)
{
	size_t off = 0;

	(void)state;
	reader.open = &rx;
	assert_int_equal(vtp_encode_hdr(stream, VTP_HDR_LEN, VTP_SEALED,
					VTP_SEALED_MAX_PAYLOAD + 1, 0),
			 VTP_HDR_LEN);
	stream_len = VTP_HDR_LEN;
	feed(&off, VTP_HDR_LEN);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EMSGSIZE);
	assert_int_equal(msg.hdr.len, VTP_SEALED_MAX_PAYLOAD + 1);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EMSGSIZE);
	assert_int_equal(vtp_reader_pending(&reader), VTP_HDR_LEN);

	/* the maximum: waits for the rest */
	setup(NULL);
	reader.open = &rx;
	assert_int_equal(vtp_encode_hdr(stream, VTP_HDR_LEN, VTP_SEALED,
					VTP_SEALED_MAX_PAYLOAD, 0),
			 VTP_HDR_LEN);
	off = 0;
	feed(&off, VTP_HDR_LEN);
	assert_int_equal(vtp_reader_next(&reader, &msg), 0);
	/* a clear frame of a length only a SEALED one may have */
	setup(NULL);
	reader.open = &rx;
	assert_int_equal(vtp_encode_hdr(stream, VTP_HDR_LEN, VTP_TS_DATA,
					VTP_MAX_PAYLOAD + 1, 0),
			 VTP_HDR_LEN);
	off = 0;
	feed(&off, VTP_HDR_LEN);
	assert_int_equal(vtp_reader_next(&reader, &msg), -EMSGSIZE);
}

/* Before the handshake, or without a key: SEALED is an unknown type. */
static void test_reader_sealed_without_open(void **state)
{
	size_t off = 0, len;
	struct vtp_msg m2;
	int n;

	(void)state;
	len = encode_sample(VTP_KEEPALIVE, inner, sizeof(inner));
	stream_add(inner, len);
	stream_add(inner, encode_max(inner, 1));
	n = vtp_encode_ok(stream + stream_len, 64, 42);
	stream_len += n;
	assert_int_equal(vtp_decode(stream, stream_len, &m2), -ENOTSUP);
	feed(&off, stream_len);
	assert_int_equal(vtp_reader_next(&reader, &msg), -ENOTSUP);
	assert_int_equal(msg.hdr.type, VTP_SEALED);
	assert_int_equal(msg.frame_len, len + VTP_SEAL_OVERHEAD);
	/* the largest frame there is, skipped whole */
	assert_int_equal(vtp_reader_next(&reader, &msg), -ENOTSUP);
	assert_int_equal(msg.hdr.type, VTP_SEALED);
	assert_int_equal(msg.frame_len, VTP_MAX_SEALED_FRAME);
	assert_int_equal(vtp_reader_next(&reader, &msg), n);
	assert_int_equal(msg.hdr.type, VTP_OK);
	assert_int_equal(msg.hdr.reqid, 42);
	assert_int_equal(vtp_reader_next(&reader, &msg), 0);
	assert_true(rx.next == 0);
}

/* --cipher's names, and what each asks for */
static void test_cipher_pref(void **state)
{
	enum vtp_cipher_pref p = VTP_CIPHER_PREF_CHACHA;

	(void)state;
	assert_int_equal(vtp_cipher_pref_parse("auto", &p), 0);
	assert_int_equal(p, VTP_CIPHER_AUTO);
	assert_int_equal(vtp_cipher_pref_parse("aes-256-ocb", &p), 0);
	assert_int_equal(p, VTP_CIPHER_PREF_OCB);
	assert_true(vtp_cipher_pref_ocb(p));
	assert_int_equal(vtp_cipher_pref_parse("chacha20-poly1305", &p), 0);
	assert_int_equal(p, VTP_CIPHER_PREF_CHACHA);
	assert_false(vtp_cipher_pref_ocb(p));
	assert_int_equal(vtp_cipher_pref_parse("aes", &p), -1);
	assert_int_equal(vtp_cipher_pref_parse("", &p), -1);
	assert_int_equal(vtp_cipher_pref_parse("AUTO", &p), -1);
	assert_int_equal(p, VTP_CIPHER_PREF_CHACHA);
	assert_string_equal(vtp_cipher_name(VTP_CIPHER_AES256_OCB),
			    "AES-256-OCB");
	assert_string_equal(vtp_cipher_name(VTP_CIPHER_CHACHA20_POLY1305),
			    "ChaCha20-Poly1305");
}

/*
 * The same key, the other cipher: nothing opens, in either direction,
 * and the frame is left as it came.
 */
static void test_other_cipher(void **state)
{
	size_t len = encode_ts_1024(inner, sizeof(inner), 3);
	uint8_t key[VTP_SEAL_KEY_LEN];
	enum vtp_cipher c;
	size_t slen;

	(void)state;
	fill_key(key, 9);
	for (c = VTP_CIPHER_CHACHA20_POLY1305; c <= VTP_CIPHER_AES256_OCB;
	     c++) {
		cipher = c;
		seal_init(&tx, key);
		cipher = !c;
		seal_init(&rx, key);
		slen = seal_into(&tx, buf, inner, len);
		memcpy(orig, buf, slen);
		assert_int_equal(vtp_seal_open(&rx, buf, slen), -EKEYREJECTED);
		assert_memory_equal(buf, orig, slen);
		assert_true(rx.next == 0);
		/* and the right one still opens it */
		cipher = c;
		seal_init(&rx, key);
		assert_int_equal(vtp_seal_open(&rx, buf, slen), len);
		assert_memory_equal(buf + VTP_HDR_LEN, inner, len);
	}
	vtp_seal_wipe(&tx);
	vtp_seal_wipe(&rx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fresh_nonce, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wire_format, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_seal_limits, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bit_flips_small, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bit_flips_large, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_truncated, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_replay, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reorder, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_drop, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_clear_frame_rejected, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_keys, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wrong_key, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rewind, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_counter_overflow, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_byte_by_byte, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_random_splits, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_ts_in_place, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_clear_frame, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_forged, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_not_one_frame, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_sealed_too_long, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reader_sealed_without_open, setup,
						teardown),
	};

	const struct CMUnitTest once[] = {
		cmocka_unit_test(test_cipher_pref),
		cmocka_unit_test(test_other_cipher),
	};
	int failed;

	if (vtp_auth_init() < 0)
		return 1;
	cipher = VTP_CIPHER_CHACHA20_POLY1305;
	failed = cmocka_run_group_tests_name("vtp seal, ChaCha20-Poly1305",
					     tests, NULL, NULL);
	cipher = VTP_CIPHER_AES256_OCB;
	failed += cmocka_run_group_tests_name("vtp seal, AES-256-OCB", tests,
					      NULL, NULL);
	failed += cmocka_run_group_tests_name("vtp seal, ciphers", once, NULL,
					      NULL);
	return failed;
}
