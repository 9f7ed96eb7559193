/* SPDX-License-Identifier: GPL-2.0 */
/*
 * out.h - the text writer of the SAT>IP library: appends to a caller's
 * buffer, which stays NUL-terminated; what does not fit sets full and is
 * not written.  Internal to src/satip.
 */
#ifndef SATIP_OUT_H
#define SATIP_OUT_H

#include <stdbool.h>
#include <stddef.h>

struct satip_out {
	char *buf;
	size_t cap;		/* bytes of buf */
	size_t len;		/* written, without the NUL */
	bool full;		/* something did not fit */
};

void satip_out_init(struct satip_out *o, char *buf, size_t cap);
void satip_out_mem(struct satip_out *o, const char *s, size_t n);
void satip_out_str(struct satip_out *o, const char *s);
void satip_out_printf(struct satip_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The length written, or err (buf then "") if something did not fit. */
int satip_out_end(struct satip_out *o, int err);

#endif /* SATIP_OUT_H */
