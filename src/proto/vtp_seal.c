// SPDX-License-Identifier: GPL-2.0
/*
 * vtp_seal.c - the protected frames of a session with a key, see
 * vtp_seal.h and docs/protocol.md ("Session protection").
 */
#include <errno.h>
#include <string.h>
#include <gcrypt.h>
#include <sodium.h>

#include "proto/vtp_seal.h"

_Static_assert(VTP_SEAL_KEY_LEN == crypto_aead_chacha20poly1305_IETF_KEYBYTES,
	       "key length");
_Static_assert(VTP_SEAL_TAG_LEN == crypto_aead_chacha20poly1305_IETF_ABYTES,
	       "tag length");
#define SEAL_NONCE_LEN	12
_Static_assert(SEAL_NONCE_LEN == crypto_aead_chacha20poly1305_IETF_NPUBBYTES,
	       "nonce length");
_Static_assert(VTP_SEALED_MAX_PAYLOAD == VTP_MAX_FRAME + VTP_SEAL_TAG_LEN,
	       "sealed payload");

static const struct {
	const char *name;
	enum vtp_cipher_pref pref;
} prefs[] = {
	{ "auto", VTP_CIPHER_AUTO },
	{ "aes-256-ocb", VTP_CIPHER_PREF_OCB },
	{ "chacha20-poly1305", VTP_CIPHER_PREF_CHACHA },
};

int vtp_cipher_pref_parse(const char *text, enum vtp_cipher_pref *out)
{
	size_t i;

	for (i = 0; i < sizeof(prefs) / sizeof(prefs[0]); i++)
		if (!strcmp(text, prefs[i].name)) {
			*out = prefs[i].pref;
			return 0;
		}
	return -1;
}

const char *vtp_cipher_name(enum vtp_cipher cipher)
{
	return cipher == VTP_CIPHER_AES256_OCB ? "AES-256-OCB" :
						 "ChaCha20-Poly1305";
}

/*
 * libgcrypt is initialised by the first user of the process (both
 * daemons are single-threaded).  No secure memory: the keys live in the
 * daemons' own memory as libsodium's do, and secure memory would need
 * mlock before the daemons drop root.
 */
static int gcrypt_ready(void)
{
	if (gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P))
		return 0;
	if (!gcry_check_version("1.8.0"))
		return -1;
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	return 0;
}

/*
 * AES instructions, as libgcrypt found them (its hardware feature list:
 * x86's AES-NI, ARMv8's and POWER's crypto extensions, s390's CPACF).
 * Without them AES-256-OCB runs on tables, slower than ChaCha20.
 */
static bool cpu_has_aes(void)
{
	static const char *const flags[] = {
		"intel-aesni", "arm-aes", "ppc-vcrypto", "s390x-msa",
	};
	char *conf;
	bool yes = false;
	size_t i;

	if (gcrypt_ready() < 0)
		return false;
	conf = gcry_get_config(0, "hwflist");
	for (i = 0; conf && i < sizeof(flags) / sizeof(flags[0]); i++)
		if (strstr(conf, flags[i]))
			yes = true;
	gcry_free(conf);
	return yes;
}

/*
 * Whether this libgcrypt gives AES-256-OCB at all (a libgcrypt in FIPS
 * mode may refuse it): asked once, so that a peer never asks for or
 * grants a cipher it cannot key.
 */
static bool ocb_available(void)
{
	static int avail = -1;
	gcry_cipher_hd_t h;

	if (avail < 0) {
		avail = gcrypt_ready() == 0 &&
			!gcry_cipher_open(&h, GCRY_CIPHER_AES256,
					  GCRY_CIPHER_MODE_OCB, 0);
		if (avail)
			gcry_cipher_close(h);
	}
	return avail;
}

bool vtp_cipher_pref_ocb(enum vtp_cipher_pref pref)
{
	switch (pref) {
	case VTP_CIPHER_PREF_OCB:
		return ocb_available();
	case VTP_CIPHER_PREF_CHACHA:
		return false;
	case VTP_CIPHER_AUTO:
	default:
		return ocb_available() && cpu_has_aes();
	}
}

int vtp_seal_init(struct vtp_seal *s, const uint8_t key[VTP_SEAL_KEY_LEN],
		  enum vtp_cipher cipher)
{
	gcry_cipher_hd_t h;

	memset(s, 0, sizeof(*s));
	s->cipher = cipher;
	if (cipher == VTP_CIPHER_CHACHA20_POLY1305) {
		memcpy(s->key, key, VTP_SEAL_KEY_LEN);
		return 0;
	}
	if (gcrypt_ready() < 0)
		return -EIO;
	if (gcry_cipher_open(&h, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_OCB, 0))
		return -ENOMEM;
	if (gcry_cipher_setkey(h, key, VTP_SEAL_KEY_LEN)) {
		gcry_cipher_close(h);
		return -EIO;
	}
	s->ocb = h;
	return 0;
}

void vtp_seal_wipe(struct vtp_seal *s)
{
	if (s->ocb)
		gcry_cipher_close(s->ocb);	/* wipes its context */
	sodium_memzero(s, sizeof(*s));
}

/* The 96-bit nonce: 4 zero bytes, then the frame number, big-endian. */
static void seal_nonce(uint64_t n, uint8_t nonce[SEAL_NONCE_LEN])
{
	int i;

	memset(nonce, 0, 4);
	for (i = 11; i >= 4; i--, n >>= 8)
		nonce[i] = (uint8_t)n;
}

/*
 * An OCB message: its nonce, the clear header as additional data, and
 * the one call of encrypt or decrypt that follows is its last.
 */
static gcry_error_t ocb_start(gcry_cipher_hd_t h, const uint8_t *nonce,
			      const uint8_t *hdr)
{
	gcry_error_t e;

	e = gcry_cipher_setiv(h, nonce, SEAL_NONCE_LEN);
	if (!e)
		e = gcry_cipher_authenticate(h, hdr, VTP_HDR_LEN);
	if (!e)
		e = gcry_cipher_final(h);
	return e;
}

/*
 * AES-256-OCB in place: decrypt, then check the tag.  A frame that does
 * not open is encrypted again with the same nonce, which gives back the
 * same bytes, so that buf is unchanged, as with ChaCha20-Poly1305.
 */
static int ocb_open(gcry_cipher_hd_t h, const uint8_t *nonce, uint8_t *buf,
		    size_t len)
{
	uint8_t *inner = buf + VTP_HDR_LEN;

	if (ocb_start(h, nonce, buf) ||
	    gcry_cipher_decrypt(h, inner, len, NULL, 0))
		return -EKEYREJECTED;
	if (!gcry_cipher_checktag(h, inner + len, VTP_SEAL_TAG_LEN))
		return 0;
	if (ocb_start(h, nonce, buf) ||
	    gcry_cipher_encrypt(h, inner, len, NULL, 0))
		memset(inner, 0, len);	/* never seen: libgcrypt failed */
	return -EKEYREJECTED;
}

int vtp_seal(struct vtp_seal *s, uint8_t *buf, size_t cap, size_t len)
{
	uint8_t nonce[SEAL_NONCE_LEN];
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
	if (s->ocb) {
		if (ocb_start(s->ocb, nonce, buf) ||
		    gcry_cipher_encrypt(s->ocb, inner, len, NULL, 0) ||
		    gcry_cipher_gettag(s->ocb, inner + len, VTP_SEAL_TAG_LEN))
			return -EIO;
	} else {
		crypto_aead_chacha20poly1305_ietf_encrypt_detached(
			inner, inner + len, NULL, inner, len, buf, VTP_HDR_LEN,
			NULL, nonce, s->key);
	}
	s->next++;
	return (int)(len + VTP_SEAL_OVERHEAD);
}

void vtp_seal_rewind(struct vtp_seal *s, uint64_t frames)
{
	s->next = frames < s->next ? s->next - frames : 0;
}

int vtp_seal_open(struct vtp_seal *s, uint8_t *buf, size_t frame_len)
{
	uint8_t nonce[SEAL_NONCE_LEN];
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
	if (s->ocb) {
		if (ocb_open(s->ocb, nonce, buf, len) < 0)
			return -EKEYREJECTED;
		s->next++;
		return (int)len;
	}
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
