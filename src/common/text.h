/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.h - control characters in the strings a peer sends (names, error
 * messages, DNS-SD records).  The protocol refuses them in a string
 * (vt_text_ok(), header only, so that the codec needs no library), and
 * the daemons escape them wherever they write a string: a line of the
 * status file, of the log, the adapter's name (vt_text_escape()).
 */
#ifndef VT_TEXT_H
#define VT_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Bytes of the control character at the start of s (n > 0 bytes left):
 * C0 (0x00..0x1f), DEL (0x7f) or C1 as UTF-8 (U+0080..U+009F: 0xc2
 * 0x80..0x9f, e.g. U+009B, which some terminals take for CSI); 0: none.
 */
static inline size_t vt_text_ctl(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] < 0x20 || u[0] == 0x7f)
		return 1;
	if (u[0] == 0xc2 && n > 1 && u[1] >= 0x80 && u[1] <= 0x9f)
		return 2;
	return 0;
}

/* The n bytes at s hold no control character (and no NUL). */
static inline bool vt_text_ok(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (vt_text_ctl(s + i, n - i))
			return false;
	return true;
}

/*
 * src into dst (cap > 0 bytes, always terminated) with every byte of a
 * control character written as \xNN; cut short, never inside an \xNN,
 * if it does not fit.  Returns the length of dst.
 */
size_t vt_text_escape(char *dst, size_t cap, const char *src);

/* Every byte of a control character in s replaced by '?'. */
void vt_text_clean(char *s);

#endif
