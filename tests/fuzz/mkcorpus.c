// SPDX-License-Identifier: GPL-2.0
/*
 * mkcorpus.c - write the seed corpus of fuzz_proto: one file per sample
 * message, one with all of them in a row, and one of an unknown type.
 * Usage: mkcorpus DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/vtp.h"
#include "vtp_samples.h"

static uint8_t buf[VTP_MAX_FRAME];
static uint8_t all[64 * 1024];

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
	return 0;
}
