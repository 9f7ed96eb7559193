// SPDX-License-Identifier: GPL-2.0
/*
 * rtsp.c - SAT>IP request parser (RTSP/1.0, HTTP/1.x) and reply helpers.
 * See rtsp.h.  RFC 2326 (RTSP 1.0) sections 6 and 12 for the request
 * and its headers, RFC 7230 for HTTP/1.1's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "satip/rtsp.h"
#include "satip/span.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A request line longer than this cannot hold a target of SATIP_URI_MAX. */
#define LINE_MAX_LEN	(SATIP_URI_MAX + SATIP_METHOD_MAX + 32)

static const struct {
	const char *name;
	enum satip_method method;
	enum satip_proto proto;
} methods[] = {
	{ "OPTIONS",		SATIP_M_OPTIONS,	SATIP_RTSP },
	{ "DESCRIBE",		SATIP_M_DESCRIBE,	SATIP_RTSP },
	{ "SETUP",		SATIP_M_SETUP,		SATIP_RTSP },
	{ "PLAY",		SATIP_M_PLAY,		SATIP_RTSP },
	{ "TEARDOWN",		SATIP_M_TEARDOWN,	SATIP_RTSP },
	{ "GET_PARAMETER",	SATIP_M_GET_PARAMETER,	SATIP_RTSP },
	{ "GET",		SATIP_M_GET,		SATIP_HTTP },
	{ "HEAD",		SATIP_M_HEAD,		SATIP_HTTP },
};

const char *satip_method_name(enum satip_method m)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(methods); i++)
		if (methods[i].method == m)
			return methods[i].name;
	return "?";
}

/* ---- request target ----------------------------------------------------- */

static int parse_stream_id(const char *path)
{
	const char *seg = strrchr(path, '/');
	char last[SATIP_PATH_MAX + 1];
	struct span d;
	uint64_t v;
	size_t n;

	/* "/stream=3/" counts as "/stream=3" */
	n = strlen(path);
	if (n > 1 && path[n - 1] == '/') {
		memcpy(last, path, n - 1);
		last[n - 1] = '\0';
		seg = strrchr(last, '/');
	}
	if (!seg || strncasecmp(seg + 1, "stream=", 7))
		return -1;
	d.p = seg + 8;
	d.n = strlen(d.p);
	if (!span_uint(d, 65535, &v) || d.n > 5)
		return -1;
	return (int)v;
}

static int parse_target(struct span u, struct satip_req *r)
{
	size_t i = 0, end, q;
	struct span host, port, path;
	uint64_t v;

	if (u.n > SATIP_URI_MAX)
		return -414;
	for (i = 0; i < u.n; i++)
		if (is_ctl(u.p[i]) || is_sp(u.p[i]))
			return -400;
	if (span_eq(u, "*")) {
		strcpy(r->path, "*");
		return 0;
	}
	i = 0;
	if (u.p[0] != '/') {
		/* scheme "://" authority */
		while (i < u.n && (is_tchar(u.p[i]) && u.p[i] != ':'))
			i++;
		if (!i || u.n - i < 3 || memcmp(u.p + i, "://", 3))
			return -400;
		i += 3;
		end = i;
		while (end < u.n && u.p[end] != '/' && u.p[end] != '?' &&
		       u.p[end] != '#')
			end++;
		host = sub(u, i, end);
		/* user:password@ */
		for (q = host.n; q > 0; q--)
			if (host.p[q - 1] == '@') {
				host = sub(host, q, host.n);
				break;
			}
		port.n = 0;
		if (host.n && host.p[0] == '[') {
			q = span_find(host, 0, ']');
			if (q == host.n)
				return -400;
			if (q + 1 < host.n) {
				if (host.p[q + 1] != ':')
					return -400;
				port = sub(host, q + 2, host.n);
			}
			host = sub(host, 1, q);
		} else {
			q = span_find(host, 0, ':');
			if (q < host.n)
				port = sub(host, q + 1, host.n);
			host = sub(host, 0, q);
		}
		if (!span_copy(r->host, sizeof(r->host), host))
			return -414;
		if (port.n) {
			if (!span_uint(port, 65535, &v) || !v)
				return -400;
			r->port = (uint16_t)v;
		}
		i = end;
	}
	end = i;
	while (end < u.n && u.p[end] != '?' && u.p[end] != '#')
		end++;
	path = sub(u, i, end);
	if (!path.n)
		strcpy(r->path, "/");
	else if (!span_copy(r->path, sizeof(r->path), path))
		return -414;
	if (end < u.n && u.p[end] == '?') {
		q = span_find(u, end + 1, '#');
		r->has_query = true;
		if (!span_copy(r->query, sizeof(r->query), sub(u, end + 1, q)))
			return -414;
	}
	r->stream_id = parse_stream_id(r->path);
	return 0;
}

/* ---- request line ------------------------------------------------------- */

/*
 * Returns 0, -400 (fatal: the stream is not requests), or -414, -501,
 * -505 (the request is answered, the connection goes on).
 */
static int parse_request_line(struct span line, struct satip_req *r)
{
	struct span tok[3];
	size_t i = 0, n = 0, start;
	struct span ver;
	uint64_t major, minor;
	bool known = false;
	int ret = 0, err;

	while (i < line.n) {
		while (i < line.n && is_sp(line.p[i]))
			i++;
		if (i == line.n)
			break;
		if (n == 3)
			return -400;
		start = i;
		while (i < line.n && !is_sp(line.p[i]))
			i++;
		tok[n++] = sub(line, start, i);
	}
	if (n != 3)
		return -400;

	for (i = 0; i < tok[0].n; i++)
		if (!is_tchar(tok[0].p[i]))
			return -400;
	span_copy_clean(r->method_name, sizeof(r->method_name), tok[0]);

	/* version: RTSP/1.0, HTTP/1.0, HTTP/1.1 */
	ver = tok[2];
	i = span_find(ver, 0, '/');
	if (i == ver.n)
		return -400;
	if (span_eq(sub(ver, 0, i), "RTSP"))
		r->proto = SATIP_RTSP;
	else if (span_eq(sub(ver, 0, i), "HTTP"))
		r->proto = SATIP_HTTP;
	else
		return -400;
	start = i + 1;
	i = span_find(ver, start, '.');
	if (i == ver.n || !span_uint(sub(ver, start, i), 99, &major) ||
	    !span_uint(sub(ver, i + 1, ver.n), 99, &minor))
		return -400;
	if (major != 1 || (r->proto == SATIP_RTSP && minor != 0) ||
	    (r->proto == SATIP_HTTP && minor > 1))
		ret = -505;
	r->version_minor = (unsigned int)minor;

	for (i = 0; i < ARRAY_SIZE(methods); i++)
		if (span_eq(tok[0], methods[i].name)) {
			known = methods[i].proto == r->proto;
			if (known)
				r->method = methods[i].method;
			break;
		}
	if (!known && !ret)
		ret = -501;

	err = parse_target(tok[1], r);
	if (err == -400)
		return -400;
	if (err && !ret)
		ret = err;
	return ret;
}

/* ---- headers ------------------------------------------------------------ */

/* "A-B" or "A" (B = A + 1) of values up to max */
static bool parse_range(struct span s, uint64_t max, uint64_t out[2])
{
	size_t d = span_find(s, 0, '-');

	if (!span_uint(sub(s, 0, d), max, &out[0]))
		return false;
	if (d == s.n) {
		out[1] = out[0] + 1;
		return out[1] <= max;
	}
	return span_uint(sub(s, d + 1, s.n), max, &out[1]);
}

static int parse_transport_spec(struct span spec, struct satip_transport *t)
{
	size_t i = 0, e, eq;
	struct span par, name, val;
	uint64_t v[2];
	bool first = true;

	while (i <= spec.n) {
		e = span_find(spec, i, ';');
		par = trim(sub(spec, i, e));
		i = e + 1;
		if (first) {
			first = false;
			if (span_eq(par, "RTP/AVP") || span_eq(par, "RTP/AVP/UDP"))
				t->profile = SATIP_TR_UDP;
			else if (span_eq(par, "RTP/AVP/TCP"))
				t->profile = SATIP_TR_TCP;
			else
				return 1;	/* not ours: the next one */
			continue;
		}
		if (!par.n)
			continue;
		eq = span_find(par, 0, '=');
		name = trim(sub(par, 0, eq));
		val = eq < par.n ? trim(sub(par, eq + 1, par.n)) : sub(par, eq, eq);
		if (span_eq(name, "unicast")) {
			t->unicast = true;
		} else if (span_eq(name, "multicast")) {
			t->multicast = true;
		} else if (span_eq(name, "client_port")) {
			if (!parse_range(val, 65535, v))
				return -400;
			t->has_client_port = true;
			t->client_port[0] = (uint16_t)v[0];
			t->client_port[1] = (uint16_t)v[1];
		} else if (span_eq(name, "port")) {
			if (!parse_range(val, 65535, v))
				return -400;
			t->has_port = true;
			t->port[0] = (uint16_t)v[0];
			t->port[1] = (uint16_t)v[1];
		} else if (span_eq(name, "interleaved")) {
			if (!parse_range(val, 255, v))
				return -400;
			t->has_interleaved = true;
			t->interleaved[0] = (uint8_t)v[0];
			t->interleaved[1] = (uint8_t)v[1];
		} else if (span_eq(name, "ttl")) {
			if (!span_uint(val, 255, v))
				return -400;
			t->has_ttl = true;
			t->ttl = (uint8_t)v[0];
		} else if (span_eq(name, "destination")) {
			if (!val.n || !span_copy(t->destination,
						 sizeof(t->destination), val))
				return -400;
		} else if (span_eq(name, "server_port")) {
			t->has_server_port = parse_range(val, 65535, v);
			t->server_port[0] = (uint16_t)(t->has_server_port ? v[0] : 0);
			t->server_port[1] = (uint16_t)(t->has_server_port ? v[1] : 0);
		} else if (span_eq(name, "ssrc")) {
			t->has_ssrc = span_hex32(val, &t->ssrc);
		} else if (span_eq(name, "source")) {
			if (!span_clean(val) ||
			    !span_copy(t->source, sizeof(t->source), val))
				t->source[0] = '\0';
		}
	}
	return 0;
}

/* Transport: spec[, spec...]: the first spec of a profile we know. */
static int parse_transport(struct span v, struct satip_transport *t)
{
	size_t i = 0, e;
	int ret;

	memset(t, 0, sizeof(*t));
	while (i < v.n) {
		e = span_find(v, i, ',');
		ret = parse_transport_spec(trim(sub(v, i, e)), t);
		if (ret <= 0)
			return ret;
		memset(t, 0, sizeof(*t));
		i = e + 1;
	}
	t->profile = SATIP_TR_OTHER;
	return 0;
}

int satip_transport_parse(const char *v, size_t len, struct satip_transport *t)
{
	struct span s = { v, len };

	return parse_transport(trim(s), t);
}

static int too_large(const struct satip_req *r)
{
	return r->proto == SATIP_HTTP ? -431 : -413;
}

/* One header line; 0 or -400 (or -413/-431: Content-Length too large). */
static int parse_header(struct span line, struct satip_req *r, bool *seen_cl)
{
	size_t colon = span_find(line, 0, ':');
	struct span name, val;
	uint64_t v;
	size_t i;

	if (line.n && is_sp(line.p[0]))
		return 0;	/* continuation of an earlier line: ignored */
	if (colon == line.n)
		return -400;
	name = trim(sub(line, 0, colon));
	val = trim(sub(line, colon + 1, line.n));
	if (!name.n)
		return -400;

	if (span_eq(name, "CSeq")) {
		if (r->has_cseq || !span_uint(val, UINT32_MAX, &v))
			return -400;
		r->has_cseq = true;
		r->cseq = (uint32_t)v;
	} else if (span_eq(name, "Session")) {
		val = trim(sub(val, 0, span_find(val, 0, ';')));
		if (!val.n || !span_copy(r->session, sizeof(r->session), val))
			return -400;
		for (i = 0; i < val.n; i++)
			if (is_ctl(val.p[i]))
				return -400;
	} else if (span_eq(name, "Transport")) {
		return parse_transport(val, &r->transport);
	} else if (span_eq(name, "Content-Length")) {
		if (*seen_cl || !span_uint(val, UINT32_MAX, &v))
			return -400;
		*seen_cl = true;
		if (v > SATIP_REQ_MAX)
			return too_large(r);
		r->content_length = (size_t)v;
	} else if (span_eq(name, "User-Agent")) {
		span_copy_clean(r->user_agent, sizeof(r->user_agent), val);
	} else if (span_eq(name, "Accept")) {
		span_copy_clean(r->accept, sizeof(r->accept), val);
	} else if (span_eq(name, "Range")) {
		r->has_range = true;
	}
	return 0;
}

/* ---- the request -------------------------------------------------------- */

int satip_req_parse(const char *buf, size_t len, struct satip_req *r)
{
	size_t pos = 0, hpos, total, win;
	struct span line;
	bool seen_cl = false, end = false;
	int line_err, err = 0, ret;

	memset(r, 0, sizeof(*r));
	r->stream_id = -1;
	strcpy(r->path, "/");

	/* Empty lines before the request line (RFC 7230 3.5) */
	while (pos < len && (buf[pos] == '\r' || buf[pos] == '\n'))
		pos++;
	/*
	 * The request line ends within LINE_MAX_LEN bytes and within the
	 * first SATIP_REQ_MAX: looked for there only, so that the answer
	 * does not depend on how many bytes came in.
	 */
	win = pos + LINE_MAX_LEN + 1;
	if (win > SATIP_REQ_MAX)
		win = SATIP_REQ_MAX;
	if (win > len)
		win = len;
	hpos = pos;
	if (!next_line(buf, win, &hpos, &line)) {
		if (win == len && len < SATIP_REQ_MAX &&
		    len - pos <= LINE_MAX_LEN)
			return 0;
		/* METHOD SP target...: the target is too long */
		return win > pos && memchr(buf + pos, ' ', win - pos) ? -414 :
		       -400;
	}
	line_err = parse_request_line(line, r);
	if (line_err == -400)
		return -400;

	/* The head ends at an empty line. */
	while (next_line(buf, len, &hpos, &line)) {
		if (!line.n) {
			end = true;
			break;
		}
		if (hpos > SATIP_REQ_MAX)
			break;
		ret = parse_header(line, r, &seen_cl);
		if (ret && !err)
			err = ret;
	}
	if (!end || hpos > SATIP_REQ_MAX) {
		if (len < SATIP_REQ_MAX && hpos <= SATIP_REQ_MAX)
			return 0;
		return too_large(r);
	}
	if (err)
		return err;
	total = hpos + r->content_length;
	if (total > SATIP_REQ_MAX)
		return too_large(r);
	if (len < total)
		return 0;
	r->skip = total;
	if (line_err)
		return line_err;
	return (int)total;
}

/* ---- interleaved frames ------------------------------------------------- */

int satip_interleaved(const void *buf, size_t len, uint8_t *channel)
{
	const uint8_t *b = buf;

	if (!len)
		return 0;
	if (b[0] != '$')
		return -1;
	if (len < 4)
		return 0;
	if (len < 4 + ((size_t)b[2] << 8 | b[3]))
		return 0;
	*channel = b[1];
	return 4 + (b[2] << 8 | b[3]);
}

void satip_interleaved_hdr(uint8_t hdr[4], uint8_t channel, uint16_t len)
{
	hdr[0] = '$';
	hdr[1] = channel;
	hdr[2] = (uint8_t)(len >> 8);
	hdr[3] = (uint8_t)len;
}

/* ---- replies ------------------------------------------------------------ */

static const struct {
	int code;
	const char *reason;
} reasons[] = {
	{ 200, "OK" },
	{ 400, "Bad Request" },
	{ 403, "Forbidden" },
	{ 404, "Not Found" },
	{ 405, "Method Not Allowed" },
	{ 406, "Not Acceptable" },
	{ 408, "Request Timeout" },
	{ 413, "Request Entity Too Large" },
	{ 414, "Request-URI Too Large" },
	{ 431, "Request Header Fields Too Large" },
	{ 453, "Not Enough Bandwidth" },
	{ 454, "Session Not Found" },
	{ 455, "Method Not Valid in This State" },
	{ 461, "Unsupported Transport" },
	{ 500, "Internal Server Error" },
	{ 501, "Not Implemented" },
	{ 503, "Service Unavailable" },
	{ 505, "RTSP Version Not Supported" },
};

const char *satip_reason(int code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reasons); i++)
		if (reasons[i].code == code)
			return reasons[i].reason;
	return "Error";
}

int satip_reply_start(char *buf, size_t cap, int code, int64_t cseq,
		      enum satip_proto proto)
{
	const char *reason = satip_reason(code);
	int n;

	if (proto == SATIP_HTTP) {
		if (code == 505)
			reason = "HTTP Version Not Supported";
		else if (code == 414)
			reason = "URI Too Long";
		n = snprintf(buf, cap, "HTTP/1.1 %d %s\r\n", code, reason);
	} else if (cseq >= 0) {
		n = snprintf(buf, cap, "RTSP/1.0 %d %s\r\nCSeq: %lld\r\n",
			     code, reason, (long long)cseq);
	} else {
		n = snprintf(buf, cap, "RTSP/1.0 %d %s\r\n", code, reason);
	}
	if (n < 0 || (size_t)n >= cap) {
		if (cap)
			buf[0] = '\0';
		return -ENOBUFS;
	}
	return n;
}

int satip_reply_add(char *buf, size_t cap, int len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len < 0)
		return -EINVAL;
	if ((size_t)len >= cap)
		return -ENOBUFS;
	va_start(ap, fmt);
	n = vsnprintf(buf + len, cap - (size_t)len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap - (size_t)len) {
		buf[len] = '\0';
		return -ENOBUFS;
	}
	return len + n;
}
