// SPDX-License-Identifier: GPL-2.0
/*
 * vtp_seal.c - the protected frames of a session with a key, see
 * vtp_seal.h and docs/protocol.md ("Session protection").
 */
#include <errno.h>
#include <string.h>
#include <sodium.h>

#include "proto/vtp_seal.h"

_Static_assert(VTP_SEAL_KEY_LEN == crypto_aead_chacha20poly1305_IETF_KEYBYTES,
	       "key length");
_Static_assert(VTP_SEAL_TAG_LEN == crypto_aead_chacha20poly1305_IETF_ABYTES,
	       "tag length");
_Static_assert(VTP_SEALED_MAX_PAYLOAD == VTP_MAX_FRAME + VTP_SEAL_TAG_LEN,
	       "sealed payload");

void vtp_seal_init(struct vtp_seal *s, const uint8_t key[VTP_SEAL_KEY_LEN])
{
	memcpy(s->key, key, VTP_SEAL_KEY_LEN);
	s->next = 0;
}

void vtp_seal_wipe(struct vtp_seal *s)
{
	sodium_memzero(s, sizeof(*s));
}

/* The 96-bit nonce: 4 zero bytes, then the frame number, big-endian. */
static void seal_nonce(uint64_t n,
		       uint8_t nonce[crypto_aead_chacha20poly1305_IETF_NPUBBYTES])
{
	int i;

	memset(nonce, 0, 4);
	for (i = 11; i >= 4; i--, n >>= 8)
		nonce[i] = (uint8_t)n;
}

int vtp_seal(struct vtp_seal *s, uint8_t *buf, size_t cap, size_t len)
{
	uint8_t nonce[crypto_aead_chacha20poly1305_IETF_NPUBBYTES];
	uint8_t *inner = buf + VTP_HDR_LEN;

	if (len > VTP_MAX_FRAME)
		return -EINVAL;
	if (cap < len + VTP_SEAL_OVERHEAD)
		return -ENOBUFS;
	if (s->next == UINT64_MAX)
		return -EOVERFLOW;
	vtp_encode_hdr(buf, VTP_HDR_LEN, VTP_SEALED,
		       (uint32_t)(len + VTP_SEAL_TAG_LEN), 0);
	seal_nonce(s->next, nonce);
	crypto_aead_chacha20poly1305_ietf_encrypt_detached(inner, inner + len,
							   NULL, inner, len,
							   buf, VTP_HDR_LEN,
							   NULL, nonce,
							   s->key);
	s->next++;
	return (int)(len + VTP_SEAL_OVERHEAD);
}

void vtp_seal_rewind(struct vtp_seal *s, uint64_t frames)
{
	s->next = frames < s->next ? s->next - frames : 0;
}

int vtp_seal_open(struct vtp_seal *s, uint8_t *buf, size_t frame_len)
{
	uint8_t nonce[crypto_aead_chacha20poly1305_IETF_NPUBBYTES];
	uint8_t *inner = buf + VTP_HDR_LEN;
	struct vtp_hdr h;
	size_t len;

	if (frame_len < VTP_SEAL_OVERHEAD ||
	    vtp_decode_hdr(buf, frame_len, &h) != VTP_HDR_LEN ||
	    h.type != VTP_SEALED || VTP_HDR_LEN + (size_t)h.len != frame_len ||
	    s->next == UINT64_MAX)
		return -EKEYREJECTED;
	len = frame_len - VTP_SEAL_OVERHEAD;
	seal_nonce(s->next, nonce);
	/*
	 * The tag alone first (no output: libsodium zeroes the output of a
	 * frame that does not open, which would be the frame itself here),
	 * so that buf is unchanged when it does not open; then the
	 * ciphertext, from block 1 on as RFC 8439 has it (block 0 gave the
	 * key of the tag).
	 */
	if (crypto_aead_chacha20poly1305_ietf_decrypt_detached(NULL, NULL,
							       inner, len,
							       inner + len,
							       buf,
							       VTP_HDR_LEN,
							       nonce,
							       s->key) < 0)
		return -EKEYREJECTED;
	crypto_stream_chacha20_ietf_xor_ic(inner, inner, len, nonce, 1,
					   s->key);
	s->next++;
	return (int)len;
}
