/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_seal.h - the inputs of fuzz_proto that exercise sealed frames,
 * shared with mkcorpus, which writes seeds of them.
 *
 * The first byte of an input chooses the mode:
 *   FUZZ_MODE_SEALED  the rest is a byte stream as a peer could send it
 *                     once the session is sealed, for a reader opening
 *                     with the key below;
 *   FUZZ_MODE_FRAMES  the rest is a list of records that the harness
 *                     turns into such a stream: each record's bytes are
 *                     an inner frame, sealed with the key below, so that
 *                     what the fuzzer writes gets past the tag;
 *   FUZZ_MODE_SEALED_OCB, FUZZ_MODE_FRAMES_OCB: the same, with the
 *                     cipher VTP_FEAT_SEAL_OCB chooses;
 *   anything else     the whole input is a clear stream (the magic 'V'
 *                     of every clear seed, as before these modes).
 * A record: flags (1 byte), length (3 bytes, big-endian; FUZZ_REC_AUTO:
 * the length in the inner frame's own header), then the bytes.
 */
#ifndef FUZZ_SEAL_H
#define FUZZ_SEAL_H

#include <stdint.h>
#include <string.h>

#include "proto/vtp_seal.h"

#define FUZZ_MODE_SEALED	'S'
#define FUZZ_MODE_FRAMES	'F'
/* the same two with AES-256-OCB instead of ChaCha20-Poly1305 */
#define FUZZ_MODE_SEALED_OCB	's'
#define FUZZ_MODE_FRAMES_OCB	'f'

#define FUZZ_REC_HDR		4
#define FUZZ_REC_AUTO		0xffffffU
/* flags & FUZZ_REC_HOW: what becomes of the record's bytes */
#define FUZZ_REC_HOW		0x03
#define FUZZ_REC_SEAL		0	/* sealed and sent */
#define FUZZ_REC_FLIP		1	/* sealed, one bit flipped (flags >> 2
					 * chooses it), sent */
#define FUZZ_REC_DROP		2	/* sealed, never sent */
#define FUZZ_REC_CLEAR		3	/* sent in clear */

/*
 * The key of a mode's sealed frames: one per mode, so that frames of a
 * FUZZ_MODE_SEALED seed, spliced into the records of FUZZ_MODE_FRAMES by
 * the fuzzer, do not open there (where the harness expects nothing to
 * open but what it sealed itself).
 */
static inline void fuzz_seal_key(uint8_t key[VTP_SEAL_KEY_LEN], uint8_t mode)
{
	memset(key, mode, VTP_SEAL_KEY_LEN);
}

static inline enum vtp_cipher fuzz_seal_cipher(uint8_t mode)
{
	return mode == FUZZ_MODE_SEALED_OCB || mode == FUZZ_MODE_FRAMES_OCB ?
	       VTP_CIPHER_AES256_OCB : VTP_CIPHER_CHACHA20_POLY1305;
}

#endif /* FUZZ_SEAL_H */
