// SPDX-License-Identifier: GPL-2.0
/*
 * mkcorpus.c - write the seed corpus of fuzz_proto: one file per sample
 * message, one with all of them in a row, one of an unknown type, and
 * the seeds of the sealed modes (fuzz_seal.h): all the samples sealed,
 * all of them as records for the harness to seal, and records sent
 * otherwise (a bit flipped, dropped, in clear).
 * Usage: mkcorpus DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/vtp.h"
#include "proto/vtp_seal.h"
#include "vtp_samples.h"
#include "fuzz_seal.h"

static uint8_t buf[VTP_MAX_FRAME];
static uint8_t all[64 * 1024];
static uint8_t out[64 * 1024];
static size_t out_len;

static void write_file(const char *dir, const char *name,
		       const uint8_t *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* Append a record of the n bytes at p to out (FUZZ_MODE_FRAMES). */
static void record(uint8_t flags, uint32_t len, const uint8_t *p, size_t n)
{
	if (out_len + FUZZ_REC_HDR + n > sizeof(out))
		exit(1);
	out[out_len++] = flags;
	out[out_len++] = (uint8_t)(len >> 16);
	out[out_len++] = (uint8_t)(len >> 8);
	out[out_len++] = (uint8_t)len;
	memcpy(out + out_len, p, n);
	out_len += n;
}

/*
 * The sealed seeds, from the samples in all (len bytes) and buf, in the
 * modes of ChaCha20-Poly1305 (prefix "sealed") or AES-256-OCB ("ocb").
 */
static void sealed_seeds(const char *dir, size_t len, bool ocb)
{
	uint8_t ms = ocb ? FUZZ_MODE_SEALED_OCB : FUZZ_MODE_SEALED;
	uint8_t mf = ocb ? FUZZ_MODE_FRAMES_OCB : FUZZ_MODE_FRAMES;
	const char *pre = ocb ? "ocb" : "sealed";
	char name[64];
	uint8_t key[VTP_SEAL_KEY_LEN];
	struct vtp_msg m;
	struct vtp_seal s;
	size_t off;
	int n;

	/* every sample sealed, as a peer with the key sends them */
	fuzz_seal_key(key, ms);
	if (vtp_seal_init(&s, key, fuzz_seal_cipher(ms)) < 0)
		exit(1);
	out[0] = ms;
	out_len = 1;
	for (off = 0; off < len; off += m.frame_len) {
		if (vtp_decode(all + off, len - off, &m) <= 0 ||
		    out_len + m.frame_len + VTP_SEAL_OVERHEAD > sizeof(out))
			exit(1);
		memcpy(out + out_len + VTP_HDR_LEN, all + off, m.frame_len);
		n = vtp_seal(&s, out + out_len, sizeof(out) - out_len,
			     m.frame_len);
		if (n < 0)
			exit(1);
		out_len += n;
	}
	snprintf(name, sizeof(name), "%s-stream", pre);
	write_file(dir, name, out, out_len);

	/* every sample as a record, of the length in its header */
	out[0] = mf;
	out_len = 1;
	for (off = 0; off < len; off += m.frame_len) {
		if (vtp_decode(all + off, len - off, &m) <= 0)
			exit(1);
		record(FUZZ_REC_SEAL, FUZZ_REC_AUTO, all + off, m.frame_len);
	}
	snprintf(name, sizeof(name), "%s-frames", pre);
	write_file(dir, name, out, out_len);

	/* lengths given; a bit flipped, a frame dropped, one in clear */
	out[0] = mf;
	out_len = 1;
	n = vtp_encode_keepalive(buf, sizeof(buf), 1, 2);
	record(FUZZ_REC_SEAL, n, buf, n);
	record(FUZZ_REC_SEAL, n - 1, buf, n - 1);
	snprintf(name, sizeof(name), "%s-frames-short", pre);
	write_file(dir, name, out, out_len);
	out_len = 1;
	record(FUZZ_REC_SEAL, n, buf, n);
	record(FUZZ_REC_FLIP | 5 << 2, n, buf, n);
	record(FUZZ_REC_SEAL, n, buf, n);
	snprintf(name, sizeof(name), "%s-frames-flip", pre);
	write_file(dir, name, out, out_len);
	out_len = 1;
	record(FUZZ_REC_DROP, n, buf, n);
	record(FUZZ_REC_SEAL, n, buf, n);
	snprintf(name, sizeof(name), "%s-frames-drop", pre);
	write_file(dir, name, out, out_len);
	out_len = 1;
	record(FUZZ_REC_SEAL, n, buf, n);
	record(FUZZ_REC_CLEAR, n, buf, n);
	snprintf(name, sizeof(name), "%s-frames-clear", pre);
	write_file(dir, name, out, out_len);
	vtp_seal_wipe(&s);
}

int main(int argc, char **argv)
{
	struct vtp_msg m;
	size_t len = 0;
	char name[64];
	int i, n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (i = 0; i < vtp_num_samples; i++) {
		vtp_sample(i, &m);
		n = vtp_encode(buf, sizeof(buf), &m);
		if (n < 0 || len + n > sizeof(all))
			return 1;
		snprintf(name, sizeof(name), "%02d-%s", i,
			 vtp_type_name(m.hdr.type));
		write_file(argv[1], name, buf, n);
		memcpy(all + len, buf, n);
		len += n;
	}
	write_file(argv[1], "all", all, len);
	n = vtp_encode_keepalive(buf, sizeof(buf), 1, 2);
	buf[3] = 0x77;
	write_file(argv[1], "unknown-type", buf, n);
	sealed_seeds(argv[1], len, false);
	sealed_seeds(argv[1], len, true);
	return 0;
}
