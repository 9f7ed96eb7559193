// SPDX-License-Identifier: GPL-2.0
/*
 * discover.c - SSDP messages and UPnP descriptions of SAT>IP servers, as
 * a client reads them, see desc.h.
 */
#include <errno.h>
#include <string.h>

#include "common/text.h"
#include "satip/desc.h"
#include "satip/span.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- text of an element ------------------------------------------------- */

/* A text being written into a fixed array: cut short, never mid-sequence. */
struct text {
	char *buf;
	size_t cap, len;
	bool full;
};

static void text_put(struct text *t, const char *s, size_t n)
{
	if (t->full || n >= t->cap - t->len) {
		t->full = true;
		return;
	}
	if (n == 1 && vt_text_ctl(s, 1))
		return;
	if (n == 2 && vt_text_ctl(s, 2))
		return;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* Bytes of the UTF-8 sequence a lead byte starts (1 for anything else). */
static size_t utf8_seq(unsigned char c)
{
	return c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? (c <= 0xef ? 3 : 1) :
	       c >= 0xc2 ? 2 : 1;
}

/* A code point as UTF-8 (nothing for NUL, surrogates, beyond U+10FFFF). */
static void text_cp(struct text *t, uint32_t cp)
{
	char u[4];

	if (!cp || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return;
	if (cp < 0x80) {
		u[0] = (char)cp;
		text_put(t, u, 1);
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		text_put(t, u, 2);
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		text_put(t, u, 3);
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		text_put(t, u, 4);
	}
}

/* &name; or &#N; / &#xN; at s (n bytes): its length, 0 if not one. */
static size_t entity(struct text *t, struct span s)
{
	static const struct {
		const char *name;
		char c;
	} ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&apos;", '\'' },
	};
	size_t i, e = span_find(s, 0, ';');
	uint32_t cp = 0;
	bool hex;

	if (e == s.n || e > 10)
		return 0;
	for (i = 0; i < ARRAY_SIZE(ents); i++)
		if (strlen(ents[i].name) == e + 1 &&
		    !memcmp(s.p, ents[i].name, e + 1)) {
			text_put(t, &ents[i].c, 1);
			return e + 1;
		}
	if (e < 3 || s.p[1] != '#')
		return 0;
	hex = s.p[2] == 'x' || s.p[2] == 'X';
	for (i = hex ? 3 : 2; i < e; i++) {
		if (is_digit(s.p[i]))
			cp = cp * (hex ? 16 : 10) + (uint32_t)(s.p[i] - '0');
		else if (hex && s.p[i] >= 'a' && s.p[i] <= 'f')
			cp = cp * 16 + (uint32_t)(s.p[i] - 'a' + 10);
		else if (hex && s.p[i] >= 'A' && s.p[i] <= 'F')
			cp = cp * 16 + (uint32_t)(s.p[i] - 'A' + 10);
		else
			return 0;
	}
	if (i == (hex ? 3U : 2U))
		return 0;
	text_cp(t, cp);
	return e + 1;
}

/* An element's text into dst[cap]: trimmed, entities decoded. */
static void element_text(char *dst, size_t cap, struct span s)
{
	struct text t = { dst, cap, 0, false };
	size_t i = 0, k;

	dst[0] = '\0';
	while (s.n && strchr(" \t\r\n", s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n && strchr(" \t\r\n", s.p[s.n - 1]))
		s.n--;
	while (i < s.n && !t.full) {
		if (s.p[i] == '&') {
			k = entity(&t, sub(s, i, s.n));
			if (k) {
				i += k;
				continue;
			}
		}
		k = utf8_seq((unsigned char)s.p[i]);
		if (k > s.n - i)
			k = 1;
		text_put(&t, s.p + i, k);
		i += k;
	}
}

/* ---- desc.xml ----------------------------------------------------------- */

/* lit is at s.p + i. */
static bool span_at(struct span s, size_t i, const char *lit)
{
	size_t n = strlen(lit);

	return i <= s.n && n <= s.n - i && !memcmp(s.p + i, lit, n);
}

/* Index of the first occurrence of lit in s from i, s.n if none. */
static size_t span_str(struct span s, size_t i, const char *lit)
{
	for (; (i = span_find(s, i, lit[0])) < s.n; i++)
		if (span_at(s, i, lit))
			return i;
	return s.n;
}

/* X_SATIPCAP "DVBS2-2,DVBT-1" into frontends[] */
static void parse_caps(const char *caps, unsigned int *frontends)
{
	struct span all = { caps, strlen(caps) }, it, name;
	size_t pos = 0, e, d;
	uint64_t n;
	int type;

	while (pos < all.n) {
		e = span_find(all, pos, ',');
		it = trim(sub(all, pos, e));
		pos = e + 1;
		d = span_find(it, 0, '-');
		name = trim(sub(it, 0, d));
		if (d == it.n ||
		    !span_uint(trim(sub(it, d + 1, it.n)), 65535, &n))
			continue;
		if (span_eq(name, "DVBS"))
			type = SATIP_DVBS2;
		else
			for (type = 0; type < SATIP_NTYPES &&
			     !span_eq(name, satip_type_name(type)); type++)
				;
		if (type < SATIP_NTYPES) {
			frontends[type] += (unsigned int)n;
			if (frontends[type] > 65535)
				frontends[type] = 65535;
		}
	}
}

int satip_desc_parse(const char *xml, size_t len, struct satip_server_info *out)
{
	const struct {
		const char *name;
		char *dst;
		size_t cap;
	} fields[] = {
		{ "deviceType", out->device_type, sizeof(out->device_type) },
		{ "friendlyName", out->friendly_name, sizeof(out->friendly_name) },
		{ "manufacturer", out->manufacturer, sizeof(out->manufacturer) },
		{ "modelName", out->model_name, sizeof(out->model_name) },
		{ "modelNumber", out->model_number, sizeof(out->model_number) },
		{ "UDN", out->udn, sizeof(out->udn) },
		{ "X_SATIPCAP", out->caps, sizeof(out->caps) },
		{ "X_SATIPM3U", out->m3u, sizeof(out->m3u) },
	};
	struct span x = { xml, len }, name;
	bool seen[ARRAY_SIZE(fields)] = { false };
	size_t pos = 0, e, q, f;
	char quote;

	memset(out, 0, sizeof(*out));
	while ((pos = span_find(x, pos, '<')) < x.n) {
		if (span_at(x, pos, "<!--")) {
			e = span_str(x, pos + 4, "-->");
			pos = e == x.n ? e : e + 3;
			continue;
		}
		if (span_at(x, pos, "<![CDATA[")) {
			e = span_str(x, pos + 9, "]]>");
			pos = e == x.n ? e : e + 3;
			continue;
		}
		/* the end of the tag, quoted attribute values skipped */
		quote = 0;
		for (e = pos + 1; e < x.n; e++) {
			if (quote) {
				if (x.p[e] == quote)
					quote = 0;
			} else if (x.p[e] == '"' || x.p[e] == '\'') {
				quote = x.p[e];
			} else if (x.p[e] == '>') {
				break;
			}
		}
		if (e == x.n)
			break;
		if (strchr("!?/", x.p[pos + 1]) || x.p[e - 1] == '/') {
			pos = e + 1;	/* declarations, end and empty tags */
			continue;
		}
		/* the local name of the start tag */
		for (q = pos + 1; q < e && !is_sp(x.p[q]) && x.p[q] != '\r' &&
		     x.p[q] != '\n'; q++)
			;
		name = sub(x, pos + 1, q);
		for (q = name.n; q > 0 && name.p[q - 1] != ':'; q--)
			;
		name = sub(name, q, name.n);
		pos = e + 1;
		for (f = 0; f < ARRAY_SIZE(fields); f++) {
			if (seen[f] || name.n != strlen(fields[f].name) ||
			    memcmp(name.p, fields[f].name, name.n))
				continue;
			seen[f] = true;
			element_text(fields[f].dst, fields[f].cap,
				     sub(x, pos, span_find(x, pos, '<')));
		}
	}
	if (!seen[6] &&
	    strncmp(out->device_type, "urn:ses-com:device:SatIPServer:", 31))
		return -EINVAL;
	parse_caps(out->caps, out->frontends);
	return 0;
}

/* ---- SSDP --------------------------------------------------------------- */

/* A number up to max; -1 if it is not one. */
static int ssdp_num(struct span v, uint64_t min, uint64_t max)
{
	uint64_t n;

	return span_uint(v, max, &n) && n >= min ? (int)n : -1;
}

/* CACHE-CONTROL: ..., max-age = N, ...: N, 0 if none */
static unsigned int max_age(struct span v)
{
	size_t pos = 0, e, eq;
	struct span d;
	uint64_t n;

	while (pos < v.n) {
		e = span_find(v, pos, ',');
		d = trim(sub(v, pos, e));
		pos = e + 1;
		eq = span_find(d, 0, '=');
		if (eq < d.n && span_eq(trim(sub(d, 0, eq)), "max-age") &&
		    span_uint(trim(sub(d, eq + 1, d.n)), 0x7fffffff, &n))
			return (unsigned int)n;
	}
	return 0;
}

/* The next line (the rest if it has no LF); false at the end. */
static bool ssdp_line(const char *buf, size_t len, size_t *pos,
		      struct span *line)
{
	if (*pos >= len)
		return false;
	if (next_line(buf, len, pos, line))
		return true;
	line->p = buf + *pos;
	line->n = len - *pos;
	if (line->n && line->p[line->n - 1] == '\r')
		line->n--;
	*pos = len;
	return true;
}

static bool is_satip_type(struct span v)
{
	static const char t[] = "urn:ses-com:device:SatIPServer:";

	return v.n > sizeof(t) - 1 && !strncasecmp(v.p, t, sizeof(t) - 1);
}

int satip_ssdp_parse(const char *buf, size_t len, struct satip_ssdp_msg *m)
{
	enum { H_TYPE, H_NTS, H_LOCATION, H_USN, H_BOOTID, H_CONFIGID,
	       H_DEVICEID, H_CACHE, H_PORT, H_NUM };
	static const char *const names[H_NUM] = { "", "NTS", "LOCATION", "USN",
		"BOOTID.UPNP.ORG", "CONFIGID.UPNP.ORG", "DEVICEID.SES.COM",
		"CACHE-CONTROL", "X-SATIP-RTSP-Port" };
	struct span line, name, val, v[H_NUM];
	bool seen[H_NUM] = { false };
	size_t pos = 0, colon, sp;
	unsigned int h;
	int n;

	memset(m, 0, sizeof(*m));
	m->bootid = m->configid = m->deviceid = -1;
	if (memchr(buf, '\0', len) || !ssdp_line(buf, len, &pos, &line))
		return -EINVAL;
	sp = span_find(line, 0, ' ');
	if (span_eq(trim(line), "NOTIFY * HTTP/1.1") ||
	    span_eq(trim(line), "NOTIFY * HTTP/1.0")) {
		m->response = false;
	} else if ((span_eq(sub(line, 0, sp), "HTTP/1.1") ||
		    span_eq(sub(line, 0, sp), "HTTP/1.0")) &&
		   sp + 4 <= line.n &&
		   !memcmp(line.p + sp, " 200", 4) &&
		   (sp + 4 == line.n || is_sp(line.p[sp + 4]))) {
		m->response = true;
	} else {
		return -EINVAL;
	}
	while (ssdp_line(buf, len, &pos, &line) && line.n) {
		colon = span_find(line, 0, ':');
		if (colon == line.n)
			continue;
		name = trim(sub(line, 0, colon));
		val = trim(sub(line, colon + 1, line.n));
		for (h = 0; h < H_NUM; h++) {
			if (h == H_TYPE ? !span_eq(name, m->response ? "ST" : "NT") :
			    !span_eq(name, names[h]))
				continue;
			if (!seen[h]) {
				seen[h] = true;
				v[h] = val;
			}
			break;
		}
	}
	if (seen[H_TYPE])
		m->satip = is_satip_type(v[H_TYPE]);
	if (seen[H_NTS])
		m->byebye = span_eq(v[H_NTS], "ssdp:byebye");
	if (seen[H_LOCATION] && span_clean(v[H_LOCATION]))
		span_copy(m->location, sizeof(m->location), v[H_LOCATION]);
	if (seen[H_USN] && span_clean(v[H_USN]))
		span_copy(m->usn, sizeof(m->usn), v[H_USN]);
	if (seen[H_BOOTID])
		m->bootid = ssdp_num(v[H_BOOTID], 0, 0x7fffffff);
	if (seen[H_CONFIGID])
		m->configid = ssdp_num(v[H_CONFIGID], 0, 0x7fffffff);
	if (seen[H_DEVICEID])
		m->deviceid = ssdp_num(v[H_DEVICEID], 1, 255);
	if (seen[H_CACHE])
		m->max_age = max_age(v[H_CACHE]);
	if (seen[H_PORT]) {
		n = ssdp_num(v[H_PORT], 1, 65535);
		m->rtsp_port = n > 0 ? (unsigned int)n : 0;
	}
	return 0;
}
