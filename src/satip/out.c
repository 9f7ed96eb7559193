// SPDX-License-Identifier: GPL-2.0
/*
 * out.c - the text writer of the SAT>IP library (out.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "satip/out.h"

void satip_out_init(struct satip_out *o, char *buf, size_t cap)
{
	o->buf = buf;
	o->cap = cap;
	o->len = 0;
	o->full = !buf || !cap;
	if (!o->full)
		buf[0] = 0;
}

void satip_out_mem(struct satip_out *o, const char *s, size_t n)
{
	if (o->full || n >= o->cap - o->len) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = 0;
}

void satip_out_str(struct satip_out *o, const char *s)
{
	satip_out_mem(o, s, strlen(s));
}

void satip_out_printf(struct satip_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->cap - o->len) {
		o->buf[o->len] = 0;
		o->full = true;
		return;
	}
	o->len += (size_t)n;
}

int satip_out_end(struct satip_out *o, int err)
{
	if (o->full) {
		if (o->buf && o->cap)
			o->buf[0] = 0;
		return err;
	}
	return (int)o->len;
}
