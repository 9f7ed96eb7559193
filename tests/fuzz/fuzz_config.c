// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_config.c - libFuzzer harness of the daemons' configuration files
 *
 * The input is a vtuner.conf(5) file.  vt_config_parse() either accepts
 * it or says where it stops ("FILE:LINE: ..."); what it accepts goes
 * through vt_config_apply() with an option table like the daemons' (keys
 * with, without and with an optional argument, one refused key), which
 * also either applies every item or names the line it refuses.  Every
 * key and value handed on must be a string of the input's text.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT	65536

static const struct option opts[] = {
	{ "listen", required_argument, NULL, 'l' },
	{ "tuners", required_argument, NULL, 't' },
	{ "foreground", no_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "sim", optional_argument, NULL, 's' },
	{ "config", required_argument, NULL, 'c' },
	{ NULL, 0, NULL, 0 },
};
static const char *const reject[] = { "config", NULL };

static char text[MAX_INPUT + 1];
static size_t applied;

static void handler(int opt, const char *arg, void *ctx)
{
	(void)ctx;
	if (!strchr("ltfvs", opt))
		abort();
	if ((opt == 'l' || opt == 't') && !arg)
		abort();
	if (arg)
		(void)strlen(arg);	/* readable, terminated */
	applied++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vt_config c;
	char err[512];
	size_t i;

	if (size > MAX_INPUT)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	memset(&c, 0, sizeof(c));
	err[0] = '\0';
	if (vt_config_parse(&c, "fuzz.conf", text, err, sizeof(err))) {
		if (strncmp(err, "fuzz.conf:", 10))
			abort();
		vt_config_free(&c);
		return 0;
	}
	for (i = 0; i < c.n; i++) {
		if (!c.items[i].key || !c.items[i].key[0] || !c.items[i].line)
			abort();
		(void)strlen(c.items[i].key);
		if (c.items[i].value)
			(void)strlen(c.items[i].value);
	}
	applied = 0;
	err[0] = '\0';
	if (vt_config_apply(&c, opts, reject, handler, NULL, err, sizeof(err))) {
		if (strncmp(err, "fuzz.conf:", 10))
			abort();
	} else if (applied > c.n) {
		abort();
	}
	vt_config_free(&c);
	return 0;
}
