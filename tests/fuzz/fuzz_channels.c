// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_channels.c - libFuzzer harness of vtunerd's dvbv5 channel file
 * reader (src/server/channels.c, --satip-channels)
 *
 * The input is the file.  vtd_channels_read() either hands on services,
 * each of a system it serves, in range and with 1 to 4 PIDs, and returns
 * how many, or says where it stops ("fuzz.conf:LINE: ..." at a line the
 * file has).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/dvb/frontend.h>

#include "common/dvb.h"
#include "common/log.h"
#include "server/channels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT	65536

static int handed;

static void check(void *ctx, const struct vtd_service *s)
{
	unsigned int i;

	(void)ctx;
	if (!s->name || !s->name[0] || strlen(s->name) > VTD_CHANNELS_LINE_MAX)
		abort();
	if (s->delsys != SYS_DVBS && s->delsys != SYS_DVBS2 &&
	    s->delsys != SYS_DVBT && s->delsys != SYS_DVBT2 &&
	    s->delsys != SYS_DVBC_ANNEX_A)
		abort();
	if (!s->frequency || s->position > 3 || s->plp > 255)
		abort();
	if (!s->npids || s->npids > 4)
		abort();
	for (i = 0; i < s->npids; i++)
		if (s->pids[i] < 0x10 || s->pids[i] > 0x1ffe)
			abort();
	handed++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet;
	char err[512];
	FILE *f;
	unsigned long line;
	size_t i, lines = 1;
	int n;

	if (!quiet) {
		vt_log_init("fuzz_channels", VT_LOG_STDERR, LOG_ERR);
		quiet = true;
	}
	if (!size || size > MAX_INPUT)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	handed = 0;
	err[0] = '\0';
	n = vtd_channels_read(f, "fuzz.conf", check, NULL, err, sizeof(err));
	fclose(f);
	if (n >= 0) {
		if (n != handed)
			abort();
		return 0;
	}
	if (strncmp(err, "fuzz.conf:", 10))
		abort();
	line = strtoul(err + 10, NULL, 10);
	if (!line || line > lines)
		abort();
	return 0;
}
