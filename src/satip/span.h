/* SPDX-License-Identifier: GPL-2.0 */
/*
 * span.h - pieces of a received text (not NUL-terminated) for the
 * parsers of the SAT>IP library: requests (rtsp.c), replies (reply.c),
 * SSDP and desc.xml (discover.c).  Internal to src/satip.
 */
#ifndef SATIP_SPAN_H
#define SATIP_SPAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

/* A piece of the input: not NUL-terminated. */
struct span {
	const char *p;
	size_t n;
};

static inline bool is_sp(char c)
{
	return c == ' ' || c == '\t';
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_ctl(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

/* RFC 7230 tchar */
static inline bool is_tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static inline struct span trim(struct span s)
{
	while (s.n && is_sp(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n && is_sp(s.p[s.n - 1]))
		s.n--;
	return s;
}

static inline bool span_eq(struct span s, const char *lit)
{
	return strlen(lit) == s.n && !strncasecmp(s.p, lit, s.n);
}

/* Copy s into dst[cap] if it fits; false otherwise (dst = ""). */
static inline bool span_copy(char *dst, size_t cap, struct span s)
{
	if (s.n >= cap) {
		dst[0] = '\0';
		return false;
	}
	memcpy(dst, s.p, s.n);
	dst[s.n] = '\0';
	return true;
}

/* Copy, cut short to fit, control characters as '?'. */
static inline void span_copy_clean(char *dst, size_t cap, struct span s)
{
	size_t i, n = s.n < cap - 1 ? s.n : cap - 1;

	for (i = 0; i < n; i++)
		dst[i] = is_ctl(s.p[i]) ? '?' : s.p[i];
	dst[n] = '\0';
}

/* Decimal number of at most max, the whole span; false if not one. */
static inline bool span_uint(struct span s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0, d;
	size_t i;

	if (!s.n)
		return false;
	for (i = 0; i < s.n; i++) {
		if (!is_digit(s.p[i]))
			return false;
		d = (uint64_t)(s.p[i] - '0');
		if (d > max || v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* Index of the first c in s from i, s.n if none. */
static inline size_t span_find(struct span s, size_t i, char c)
{
	while (i < s.n && s.p[i] != c)
		i++;
	return i;
}

static inline struct span sub(struct span s, size_t from, size_t to)
{
	struct span r = { s.p + from, to - from };

	return r;
}

/* 1 to 8 hex digits, the whole span; false if not that. */
static inline bool span_hex32(struct span s, uint32_t *out)
{
	uint32_t v = 0;
	size_t i;
	char c;

	if (!s.n || s.n > 8)
		return false;
	for (i = 0; i < s.n; i++) {
		c = s.p[i];
		if (is_digit(c))
			v = v << 4 | (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v << 4 | (uint32_t)(c - 'A' + 10);
		else
			return false;
	}
	*out = v;
	return true;
}

/* Not empty, no control character. */
static inline bool span_clean(struct span s)
{
	size_t i;

	for (i = 0; i < s.n; i++)
		if (is_ctl(s.p[i]))
			return false;
	return s.n > 0;
}

/* Next line from *pos: the span without CR LF; false if no LF yet. */
static inline bool next_line(const char *buf, size_t len, size_t *pos,
		      struct span *line)
{
	const char *lf = memchr(buf + *pos, '\n', len - *pos);
	size_t e;

	if (!lf)
		return false;
	e = (size_t)(lf - buf);
	line->p = buf + *pos;
	line->n = e - *pos;
	if (line->n && line->p[line->n - 1] == '\r')
		line->n--;
	*pos = e + 1;
	return true;
}

#endif /* SATIP_SPAN_H */
