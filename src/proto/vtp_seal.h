/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtp_seal.h - the protected frames of a session with a key
 * (docs/protocol.md, "Session protection").
 *
 * Once the handshake of a connection is complete, every frame it carries
 * travels inside a SEALED frame: a clear 16-byte VTP header (type
 * VTP_SEALED, reqid 0) followed by the inner frame, header and payload,
 * encrypted with the session's AEAD and its 16-byte tag: ChaCha20-Poly1305
 * (RFC 8439, libsodium), or AES-256-OCB (RFC 7253, libgcrypt) when both
 * peers agreed on VTP_FEAT_SEAL_OCB.  The
 * key is one direction's of one connection (vtp_auth_keys()); the nonce
 * is the frame's number in that direction, counted from 0 and never sent;
 * the additional data is the clear header.  So a frame that is changed,
 * replayed, reordered, dropped or injected does not open, and closes the
 * connection.
 *
 * Sealing and opening work in place: the inner frame sits at
 * buf + VTP_HDR_LEN with room for the tag after it, so TS read straight
 * into an output queue is encrypted there, and received TS is decrypted
 * in the reader's buffer.
 */
#ifndef VTP_SEAL_H
#define VTP_SEAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/vtp.h"

#define VTP_SEAL_KEY_LEN	32
#define VTP_SEAL_TAG_LEN	16
/* bytes a sealed frame adds to the inner one */
#define VTP_SEAL_OVERHEAD	(VTP_HDR_LEN + VTP_SEAL_TAG_LEN)

/* The AEAD of a session (docs/protocol.md 6c). */
enum vtp_cipher {
	VTP_CIPHER_CHACHA20_POLY1305,	/* RFC 8439: the default */
	VTP_CIPHER_AES256_OCB,		/* RFC 7253: VTP_FEAT_SEAL_OCB */
};

/* What a peer asks for (vtunerc) or grants (vtunerd): --cipher. */
enum vtp_cipher_pref {
	VTP_CIPHER_AUTO,	/* AES-256-OCB if the CPU has AES instructions */
	VTP_CIPHER_PREF_OCB,	/* AES-256-OCB */
	VTP_CIPHER_PREF_CHACHA,	/* ChaCha20-Poly1305 */
};

/* what vtp_cipher_pref_parse() takes, for messages */
#define VTP_CIPHER_PREF_NAMES	"auto, aes-256-ocb or chacha20-poly1305"
/* "auto", "aes-256-ocb" or "chacha20-poly1305": 0, or -1. */
int vtp_cipher_pref_parse(const char *text, enum vtp_cipher_pref *out);
/* Whether to ask for, or grant, AES-256-OCB. */
bool vtp_cipher_pref_ocb(enum vtp_cipher_pref pref);
/* "ChaCha20-Poly1305" or "AES-256-OCB", for logs. */
const char *vtp_cipher_name(enum vtp_cipher cipher);

struct gcry_cipher_handle;

/* One direction of one connection. */
struct vtp_seal {
	uint8_t key[VTP_SEAL_KEY_LEN];
	uint64_t next;		/* number of the next frame */
	enum vtp_cipher cipher;
	struct gcry_cipher_handle *ocb;	/* AES-256-OCB: keyed once */
};

/*
 * Key s for cipher, frame number 0: 0, or -ENOMEM / -EIO (libgcrypt
 * refused the key).  A struct that was initialised is wiped before it is
 * initialised again.
 */
int vtp_seal_init(struct vtp_seal *s, const uint8_t key[VTP_SEAL_KEY_LEN],
		  enum vtp_cipher cipher);
void vtp_seal_wipe(struct vtp_seal *s);

/*
 * Seal in place the frame of len bytes at buf + VTP_HDR_LEN (a complete
 * VTP frame): the SEALED header goes to buf, the tag after the frame.
 * Returns the sealed length, len + VTP_SEAL_OVERHEAD, or -ENOBUFS (cap,
 * the bytes at buf, too small), -EINVAL (len above VTP_MAX_FRAME) or
 * -EOVERFLOW (2^64 frames sealed: the connection must end).
 */
int vtp_seal(struct vtp_seal *s, uint8_t *buf, size_t cap, size_t len);

/*
 * Frames sealed last but withdrawn before any of their bytes left the
 * process (a full queue, TS of an old tune dropped from a queue's tail):
 * their numbers go to the next frames.  No byte sealed with a number was
 * seen by anyone when it is used again, so no keystream is ever exposed
 * twice; the peer, which never saw them, expects exactly those numbers.
 */
void vtp_seal_rewind(struct vtp_seal *s, uint64_t frames);

/*
 * Open in place the complete SEALED frame of frame_len bytes at buf (its
 * header already checked by vtp_decode_hdr()): the length of the inner
 * frame, now in clear at buf + VTP_HDR_LEN, or -EKEYREJECTED when the
 * frame is not the next one this key sealed (any other type, a changed
 * byte, a replay, a frame missing before it), buf left unchanged.
 */
int vtp_seal_open(struct vtp_seal *s, uint8_t *buf, size_t frame_len);

#endif /* VTP_SEAL_H */
