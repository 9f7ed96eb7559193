// SPDX-License-Identifier: GPL-2.0
/*
 * vtp_auth.c - pre-shared key authentication of VTP peers, see vtp_auth.h
 * and docs/protocol.md.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sodium.h>

#include "proto/vtp_auth.h"

#define PSK_FILE_MAX	4096

/* Role labels, NUL included in the MAC input. */
static const char label_client[] = "VTP1 auth client";
static const char label_server[] = "VTP1 auth server";
static const char label_attach[] = "VTP1 data attach";
static const char label_keys[] = "VTP1 session keys";
static const char label_ctl_c2s[] = "VTP1 control c2s";
static const char label_ctl_s2c[] = "VTP1 control s2c";
static const char label_data_c2s[] = "VTP1 data c2s";
static const char label_data_s2c[] = "VTP1 data s2c";

int vtp_auth_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

void vtp_psk_wipe(struct vtp_psk *k)
{
	sodium_memzero(k, sizeof(*k));
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

int vtp_psk_parse(const char *text, size_t len, struct vtp_psk *k,
		  char *err, size_t errlen)
{
	size_t n = 0;
	const char *end;

	memset(k, 0, sizeof(*k));
	while (len && isspace((unsigned char)*text)) {
		text++;
		len--;
	}
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	if (!len) {
		snprintf(err, errlen, "empty key");
		return -1;
	}
	if (all_hex(text, len) && len % 2 == 0) {
		if (sodium_hex2bin(k->key, sizeof(k->key), text, len, NULL, &n,
				   &end) < 0 || end != text + len)
			n = 0;
	} else if (sodium_base642bin(k->key, sizeof(k->key), text, len, NULL,
				     &n, &end,
				     sodium_base64_VARIANT_ORIGINAL) < 0 ||
		   end != text + len) {
		n = 0;
		if (sodium_base642bin(k->key, sizeof(k->key), text, len, NULL,
				      &n, &end,
				      sodium_base64_VARIANT_ORIGINAL_NO_PADDING)
		    < 0 || end != text + len)
			n = 0;
		if (!n && (sodium_base642bin(k->key, sizeof(k->key), text, len,
					     NULL, &n, &end,
					     sodium_base64_VARIANT_URLSAFE_NO_PADDING)
			   < 0 || end != text + len))
			n = 0;
		if (!n && (sodium_base642bin(k->key, sizeof(k->key), text, len,
					     NULL, &n, &end,
					     sodium_base64_VARIANT_URLSAFE)
			   < 0 || end != text + len))
			n = 0;
	}
	if (!n) {
		snprintf(err, errlen, "not a hex or base64 key (at most %d "
			 "bytes)", VTP_PSK_MAX);
		vtp_psk_wipe(k);
		return -1;
	}
	if (n < VTP_PSK_MIN) {
		snprintf(err, errlen, "key of %zu bytes: at least %d needed "
			 "(e.g. 'head -c 32 /dev/urandom | base64')", n,
			 VTP_PSK_MIN);
		vtp_psk_wipe(k);
		return -1;
	}
	k->len = n;
	return 0;
}

int vtp_psk_load(const char *path, struct vtp_psk *k, char *err,
		 size_t errlen)
{
	char text[PSK_FILE_MAX + 1], why[160];
	struct stat st;
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	if (st.st_mode & (S_IRWXO)) {
		snprintf(err, errlen, "%s: key file is accessible by other "
			 "users (mode %04o): refusing it; chmod 600 (or 640 "
			 "for a group) it", path,
			 (unsigned int)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	n = read(fd, text, PSK_FILE_MAX);
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = vtp_psk_parse(text, (size_t)n, k, why, sizeof(why));
	sodium_memzero(text, sizeof(text));
	if (ret < 0)
		snprintf(err, errlen, "%s: %s", path, why);
	return ret;
}

void vtp_auth_nonce(uint8_t nonce[VTP_NONCE_LEN])
{
	randombytes_buf(nonce, VTP_NONCE_LEN);
}

static void mac_begin(crypto_auth_hmacsha512256_state *st,
		      const struct vtp_psk *k, const char *label,
		      size_t label_len, const struct vtp_auth_ctx *ctx)
{
	uint8_t v[6], n;

	crypto_auth_hmacsha512256_init(st, k->key, k->len);
	crypto_auth_hmacsha512256_update(st, (const uint8_t *)label,
					 label_len);
	crypto_auth_hmacsha512256_update(st, ctx->nc, VTP_NONCE_LEN);
	crypto_auth_hmacsha512256_update(st, ctx->ns, VTP_NONCE_LEN);
	v[0] = ctx->version >> 8;
	v[1] = ctx->version;
	v[2] = ctx->features >> 24;
	v[3] = ctx->features >> 16;
	v[4] = ctx->features >> 8;
	v[5] = ctx->features;
	crypto_auth_hmacsha512256_update(st, v, sizeof(v));
	n = strnlen(ctx->cname, VTP_PEER_NAME_MAX);
	crypto_auth_hmacsha512256_update(st, &n, 1);
	crypto_auth_hmacsha512256_update(st, (const uint8_t *)ctx->cname, n);
	n = strnlen(ctx->sname, VTP_PEER_NAME_MAX);
	crypto_auth_hmacsha512256_update(st, &n, 1);
	crypto_auth_hmacsha512256_update(st, (const uint8_t *)ctx->sname, n);
}

void vtp_auth_proof(const struct vtp_psk *k, enum vtp_auth_role role,
		    const struct vtp_auth_ctx *ctx, uint8_t mac[VTP_MAC_LEN])
{
	crypto_auth_hmacsha512256_state st;

	if (role == VTP_AUTH_CLIENT)
		mac_begin(&st, k, label_client, sizeof(label_client), ctx);
	else
		mac_begin(&st, k, label_server, sizeof(label_server), ctx);
	crypto_auth_hmacsha512256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
}

bool vtp_auth_verify(const struct vtp_psk *k, enum vtp_auth_role role,
		     const struct vtp_auth_ctx *ctx,
		     const uint8_t mac[VTP_MAC_LEN])
{
	uint8_t want[VTP_MAC_LEN];
	bool ok;

	vtp_auth_proof(k, role, ctx, want);
	ok = crypto_verify_32(want, mac) == 0;
	sodium_memzero(want, sizeof(want));
	return ok;
}

void vtp_auth_attach_mac(const struct vtp_psk *k,
			 const struct vtp_auth_ctx *ctx,
			 const uint8_t token[VTP_TOKEN_LEN],
			 uint8_t mac[VTP_MAC_LEN])
{
	crypto_auth_hmacsha512256_state st;

	mac_begin(&st, k, label_attach, sizeof(label_attach), ctx);
	crypto_auth_hmacsha512256_update(&st, token, VTP_TOKEN_LEN);
	crypto_auth_hmacsha512256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
}

bool vtp_auth_attach_verify(const struct vtp_psk *k,
			    const struct vtp_auth_ctx *ctx,
			    const uint8_t token[VTP_TOKEN_LEN],
			    const uint8_t mac[VTP_MAC_LEN])
{
	uint8_t want[VTP_MAC_LEN];
	bool ok;

	vtp_auth_attach_mac(k, ctx, token, want);
	ok = crypto_verify_32(want, mac) == 0;
	sodium_memzero(want, sizeof(want));
	return ok;
}

/* BLAKE2b-256 keyed with the session secret over label (NUL included), token */
static void derive(uint8_t out[VTP_SEAL_KEY_LEN],
		   const uint8_t secret[VTP_MAC_LEN], const char *label,
		   size_t label_len, const uint8_t *token)
{
	crypto_generichash_state st;

	crypto_generichash_init(&st, secret, VTP_MAC_LEN, VTP_SEAL_KEY_LEN);
	crypto_generichash_update(&st, (const uint8_t *)label, label_len);
	if (token)
		crypto_generichash_update(&st, token, VTP_TOKEN_LEN);
	crypto_generichash_final(&st, out, VTP_SEAL_KEY_LEN);
	sodium_memzero(&st, sizeof(st));
}

enum vtp_cipher vtp_auth_cipher(const struct vtp_auth_ctx *ctx)
{
	return ctx->features & VTP_FEAT_SEAL_OCB ? VTP_CIPHER_AES256_OCB :
						   VTP_CIPHER_CHACHA20_POLY1305;
}

void vtp_auth_keys(const struct vtp_psk *k, const struct vtp_auth_ctx *ctx,
		   const uint8_t *token, struct vtp_keys *out)
{
	crypto_auth_hmacsha512256_state st;
	uint8_t secret[VTP_MAC_LEN];

	mac_begin(&st, k, label_keys, sizeof(label_keys), ctx);
	crypto_auth_hmacsha512256_final(&st, secret);
	sodium_memzero(&st, sizeof(st));
	if (token) {
		derive(out->c2s, secret, label_data_c2s,
		       sizeof(label_data_c2s), token);
		derive(out->s2c, secret, label_data_s2c,
		       sizeof(label_data_s2c), token);
	} else {
		derive(out->c2s, secret, label_ctl_c2s, sizeof(label_ctl_c2s),
		       NULL);
		derive(out->s2c, secret, label_ctl_s2c, sizeof(label_ctl_s2c),
		       NULL);
	}
	sodium_memzero(secret, sizeof(secret));
	out->cipher = vtp_auth_cipher(ctx);
}

void vtp_keys_wipe(struct vtp_keys *keys)
{
	sodium_memzero(keys, sizeof(*keys));
}
