/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtp_auth.h - pre-shared key authentication of VTP peers (libsodium).
 *
 * The mutual challenge-response of docs/protocol.md ("Authentication"):
 * HELLO and HELLO_REPLY carry a 32-byte random nonce each, the client
 * proves the key with AUTH, the server with AUTH_REPLY, and DATA_ATTACH
 * carries a MAC of its token.  Every MAC is HMAC-SHA512-256 keyed with
 * the pre-shared key over a role label and the handshake transcript
 * (both nonces, chosen version, granted features, both names), so a
 * proof is never valid in another role, session or connection.
 *
 * Link with $(pkg-config --libs libsodium).
 */
#ifndef VTP_AUTH_H
#define VTP_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/vtp.h"
#include "proto/vtp_seal.h"

#define VTP_PSK_MIN	32	/* bytes of key, after decoding */
#define VTP_PSK_MAX	128

struct vtp_psk {
	uint8_t key[VTP_PSK_MAX];
	size_t len;
};

/* The handshake a proof covers. */
struct vtp_auth_ctx {
	uint8_t nc[VTP_NONCE_LEN];	/* client nonce (HELLO) */
	uint8_t ns[VTP_NONCE_LEN];	/* server nonce (HELLO_REPLY) */
	uint16_t version;		/* chosen version */
	uint32_t features;		/* granted features */
	char cname[VTP_PEER_NAME_MAX + 1];
	char sname[VTP_PEER_NAME_MAX + 1];
};

enum vtp_auth_role { VTP_AUTH_CLIENT, VTP_AUTH_SERVER };

/* sodium_init() (libgcrypt is readied by vtp_seal.c); 0 or -1. */
int vtp_auth_init(void);

/*
 * Key text: hex (64 or more hex digits) or base64 (standard or URL-safe,
 * padded or not), surrounding white space ignored; at least VTP_PSK_MIN
 * bytes.  0, or -1 with a message in err.
 */
int vtp_psk_parse(const char *text, size_t len, struct vtp_psk *k,
		  char *err, size_t errlen);
/*
 * A key file: a regular file that others can neither read nor write
 * (mode & 007 == 0).  0, or -1 with a message naming path in err.
 */
int vtp_psk_load(const char *path, struct vtp_psk *k, char *err,
		 size_t errlen);
void vtp_psk_wipe(struct vtp_psk *k);

void vtp_auth_nonce(uint8_t nonce[VTP_NONCE_LEN]);

/* The proof of role over ctx (AUTH: client, AUTH_REPLY: server). */
void vtp_auth_proof(const struct vtp_psk *k, enum vtp_auth_role role,
		    const struct vtp_auth_ctx *ctx, uint8_t mac[VTP_MAC_LEN]);
/* Constant-time check of a received proof. */
bool vtp_auth_verify(const struct vtp_psk *k, enum vtp_auth_role role,
		     const struct vtp_auth_ctx *ctx,
		     const uint8_t mac[VTP_MAC_LEN]);

/* MAC of a DATA_ATTACH token within the session ctx. */
void vtp_auth_attach_mac(const struct vtp_psk *k,
			 const struct vtp_auth_ctx *ctx,
			 const uint8_t token[VTP_TOKEN_LEN],
			 uint8_t mac[VTP_MAC_LEN]);
bool vtp_auth_attach_verify(const struct vtp_psk *k,
			    const struct vtp_auth_ctx *ctx,
			    const uint8_t token[VTP_TOKEN_LEN],
			    const uint8_t mac[VTP_MAC_LEN]);

/*
 * The keys that seal a connection's frames (vtp_seal.h), one per
 * direction: of the control connection (token NULL), or of the data
 * connection that attached with token.  From the key and the handshake
 * (docs/protocol.md, "Session protection"): every connection of every
 * session has its own, which neither peer chooses alone.
 */
struct vtp_keys {
	uint8_t c2s[VTP_SEAL_KEY_LEN];	/* client to server */
	uint8_t s2c[VTP_SEAL_KEY_LEN];	/* server to client */
	enum vtp_cipher cipher;		/* from the granted features */
};

/* The AEAD the granted features of ctx choose (VTP_FEAT_SEAL_OCB). */
enum vtp_cipher vtp_auth_cipher(const struct vtp_auth_ctx *ctx);

void vtp_auth_keys(const struct vtp_psk *k, const struct vtp_auth_ctx *ctx,
		   const uint8_t *token, struct vtp_keys *out);
void vtp_keys_wipe(struct vtp_keys *keys);

#endif /* VTP_AUTH_H */
