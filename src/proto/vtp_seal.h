/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtp_seal.h - the protected frames of a session with a key
 * (docs/protocol.md, "Session protection").
 *
 * Once the handshake of a connection is complete, every frame it carries
 * travels inside a SEALED frame: a clear 16-byte VTP header (type
 * VTP_SEALED, reqid 0) followed by the inner frame, header and payload,
 * encrypted with ChaCha20-Poly1305 (RFC 8439) and its 16-byte tag.  The
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

#include <stddef.h>
#include <stdint.h>

#include "proto/vtp.h"

#define VTP_SEAL_KEY_LEN	32
#define VTP_SEAL_TAG_LEN	16
/* bytes a sealed frame adds to the inner one */
#define VTP_SEAL_OVERHEAD	(VTP_HDR_LEN + VTP_SEAL_TAG_LEN)

/* One direction of one connection. */
struct vtp_seal {
	uint8_t key[VTP_SEAL_KEY_LEN];
	uint64_t next;		/* number of the next frame */
};

void vtp_seal_init(struct vtp_seal *s, const uint8_t key[VTP_SEAL_KEY_LEN]);
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
