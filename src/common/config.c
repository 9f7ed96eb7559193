// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - see config.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/config.h"

#define MAX_FILE	(1 << 20)

static char context[512];
static int in_apply;

static void seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

void vt_config_free(struct vt_config *c)
{
	free(c->file);
	free(c->buf);
	free(c->items);
	memset(c, 0, sizeof(*c));
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

static int key_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
}

/* Unquote "..." in place; returns the end of the value or NULL. */
static char *unquote(char *s)
{
	char *r = s + 1, *w = s;

	while (*r && *r != '"') {
		if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
			r++;
		*w++ = *r++;
	}
	if (*r != '"')
		return NULL;
	r++;
	while (is_blank(*r))
		r++;
	if (*r)
		return NULL;
	*w = 0;
	return w;
}

int vt_config_parse(struct vt_config *c, const char *file, const char *text,
		    char *err, size_t errlen)
{
	size_t cap = 0;
	unsigned int line = 0;
	char *p, *next;

	memset(c, 0, sizeof(*c));
	c->file = strdup(file);
	c->buf = strdup(text);
	if (!c->file || !c->buf)
		goto nomem;
	for (p = c->buf; p; p = next) {
		char *key, *kend, *val, *end;

		line++;
		next = strchr(p, '\n');
		if (next)
			*next++ = 0;
		while (is_blank(*p))
			p++;
		if (!*p || *p == '#')
			continue;
		key = p;
		while (key_char(*p))
			p++;
		kend = p;
		while (is_blank(*p))
			p++;
		if (kend == key || (*p && *p != '=')) {
			seterr(err, errlen, "%s:%u: expected 'key = value', "
			       "got '%s'", file, line, key);
			goto fail;
		}
		val = NULL;
		if (*p == '=') {
			p++;
			while (is_blank(*p))
				p++;
			val = p;
			end = val + strlen(val);
			while (end > val && is_blank(end[-1]))
				end--;
			*end = 0;
			if (*val == '"' && !unquote(val)) {
				seterr(err, errlen, "%s:%u: %.*s: unterminated "
				       "or malformed quoted value", file, line,
				       (int)(kend - key), key);
				goto fail;
			}
		}
		*kend = 0;
		if (c->n == cap) {
			struct vt_config_item *ni;

			cap = cap ? 2 * cap : 16;
			ni = realloc(c->items, cap * sizeof(*ni));
			if (!ni)
				goto nomem;
			c->items = ni;
		}
		c->items[c->n++] = (struct vt_config_item){
			.key = key, .value = val, .line = line,
		};
	}
	return 0;
nomem:
	seterr(err, errlen, "%s: out of memory", file);
fail:
	vt_config_free(c);
	return -1;
}

int vt_config_read(struct vt_config *c, const char *path, char *err,
		   size_t errlen)
{
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f;
	int ret;

	memset(c, 0, sizeof(*c));
	f = fopen(path, "re");
	if (!f) {
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *nt;

			cap = cap ? 2 * cap : 8192;
			nt = realloc(text, cap);
			if (!nt) {
				seterr(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			text = nt;
		}
		n = fread(text + len, 1, 4096, f);
		len += n;
		if (len > MAX_FILE) {
			seterr(err, errlen, "%s: larger than %d bytes", path,
			       MAX_FILE);
			goto fail;
		}
		if (n < 4096)
			break;
	}
	if (ferror(f)) {
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	fclose(f);
	text[len] = 0;
	if (strlen(text) != len) {
		seterr(err, errlen, "%s: not a text file (NUL byte)", path);
		free(text);
		return -1;
	}
	ret = vt_config_parse(c, path, text, err, errlen);
	free(text);
	return ret;
fail:
	fclose(f);
	free(text);
	return -1;
}

int vt_config_bool(const char *s)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i]))
			return 1;
		if (!strcasecmp(s, no[i]))
			return 0;
	}
	return -1;
}

static int rejected(const char *key, const char *const *reject)
{
	for (; reject && *reject; reject++)
		if (!strcmp(key, *reject))
			return 1;
	return 0;
}

int vt_config_apply(const struct vt_config *c, const struct option *opts,
		    const char *const *reject, vt_config_handler fn, void *ctx,
		    char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct vt_config_item *it = &c->items[i];
		const struct option *o;
		const char *arg = it->value;

		for (o = opts; o->name; o++)
			if (!strcmp(o->name, it->key))
				break;
		if (!o->name || rejected(it->key, reject)) {
			seterr(err, errlen, "%s:%u: %s: %s", c->file, it->line,
			       it->key, o->name ? "not allowed in a file" :
			       "unknown key");
			return -1;
		}
		if (o->has_arg == no_argument) {
			int b = arg ? vt_config_bool(arg) : 1;

			if (b < 0) {
				seterr(err, errlen, "%s:%u: %s: '%s': expected "
				       "yes or no", c->file, it->line, it->key,
				       arg);
				return -1;
			}
			if (!b)
				continue;
			arg = NULL;
		} else if (!arg) {
			seterr(err, errlen, "%s:%u: %s: needs a value "
			       "('%s = VALUE')", c->file, it->line, it->key,
			       it->key);
			return -1;
		}
		snprintf(context, sizeof(context), "%s:%u: ", c->file,
			 it->line);
		in_apply = 1;
		fn(o->flag ? 0 : o->val, arg, ctx);
		in_apply = 0;
		context[0] = 0;
	}
	return 0;
}

const char *vt_config_context(void)
{
	return in_apply ? context : "";
}

const char *vt_config_msg(const char *msg)
{
	if (in_apply && msg[0] == '-' && msg[1] == '-')
		return msg + 2;
	return msg;
}

/* The val of the entry called name in opts, or -1. */
static int vt_config_opt_val(const struct option *opts, const char *name)
{
	for (; opts->name; opts++)
		if (!strcmp(opts->name, name))
			return opts->val;
	return -1;
}

int vt_config_cmdline(struct vt_config *conf, int argc, char **argv,
		      const char *shortopts, const struct option *opts,
		      const char *const *reject, vt_config_handler fn,
		      bool *check, char *err, size_t errlen)
{
	int config_val = vt_config_opt_val(opts, "config");
	int check_val = vt_config_opt_val(opts, "check");
	const char *config = NULL;
	int c;

	*check = false;
	/* the first pass only looks for the file: errors come in the second */
	optind = 0;	/* glibc: a full restart of getopt */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (c == config_val)
			config = optarg;
		else if (c == check_val)
			*check = true;
	}
	opterr = 1;
	optind = 0;
	if (config && (vt_config_read(conf, config, err, errlen) < 0 ||
		       vt_config_apply(conf, opts, reject, fn, NULL, err,
				       errlen) < 0))
		return -1;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1)
		fn(c, optarg, NULL);
	return optind;
}
