// SPDX-License-Identifier: GPL-2.0
/*
 * reply.c - the replies a SAT>IP client reads, see reply.h.  RFC 2326
 * (RTSP 1.0) sections 7 and 12, SAT>IP 1.2.2 section 3.5 for the
 * headers a server sends (Session: with timeout=, com.ses.streamID).
 */
#include <errno.h>
#include <string.h>

#include "satip/reply.h"
#include "satip/span.h"

/* "RTSP/1.0 200 OK": 0, or -EBADMSG */
static int parse_status_line(struct span line, struct satip_reply *r)
{
	struct span ver, code;
	size_t sp = span_find(line, 0, ' ');
	uint64_t v;

	ver = sub(line, 0, sp);
	if (span_eq(ver, "RTSP/1.0"))
		r->proto = SATIP_RTSP;
	else if (span_eq(ver, "HTTP/1.0") || span_eq(ver, "HTTP/1.1"))
		r->proto = SATIP_HTTP;
	else
		return -EBADMSG;
	if (sp + 4 > line.n)
		return -EBADMSG;
	code = sub(line, sp + 1, sp + 4);
	/* three digits, then the end or a reason phrase */
	if (!span_uint(code, 999, &v) || v < 100 ||
	    (sp + 4 < line.n && !is_sp(line.p[sp + 4])))
		return -EBADMSG;
	r->code = (int)v;
	return 0;
}

/* Session: ID[;timeout=N]: 0, or -EBADMSG */
static int parse_session(struct span val, struct satip_reply *r)
{
	size_t i = span_find(val, 0, ';'), e, eq;
	struct span id = trim(sub(val, 0, i)), par;
	uint64_t v;

	if (!span_clean(id) || !span_copy(r->session, sizeof(r->session), id))
		return -EBADMSG;
	for (e = 0; e < id.n; e++)
		if (is_sp(id.p[e]))
			return -EBADMSG;
	while (i < val.n) {
		i++;
		e = span_find(val, i, ';');
		par = trim(sub(val, i, e));
		eq = span_find(par, 0, '=');
		/* a timeout that is not a number is as if absent */
		if (eq < par.n && span_eq(trim(sub(par, 0, eq)), "timeout") &&
		    span_uint(trim(sub(par, eq + 1, par.n)), 86400, &v))
			r->timeout = (unsigned int)v;
		i = e;
	}
	return 0;
}

/* One header line: 0 or -EBADMSG. */
static int parse_header(struct span line, struct satip_reply *r,
			bool *seen_stream)
{
	size_t colon = span_find(line, 0, ':');
	struct span name, val;
	uint64_t v;

	if (line.n && is_sp(line.p[0]))
		return 0;	/* continuation of an earlier line: ignored */
	if (colon == line.n)
		return -EBADMSG;
	name = trim(sub(line, 0, colon));
	val = trim(sub(line, colon + 1, line.n));
	if (!name.n)
		return -EBADMSG;

	if (span_eq(name, "CSeq")) {
		if (r->has_cseq || !span_uint(val, UINT32_MAX, &v))
			return -EBADMSG;
		r->has_cseq = true;
		r->cseq = (uint32_t)v;
	} else if (span_eq(name, "Session")) {
		if (r->session[0])
			return 0;	/* the first counts */
		return parse_session(val, r);
	} else if (span_eq(name, "com.ses.streamID")) {
		if (*seen_stream)
			return 0;
		if (!span_uint(val, 65535, &v))
			return -EBADMSG;
		*seen_stream = true;
		r->stream_id = (int)v;
	} else if (span_eq(name, "Transport")) {
		if (r->transport.profile != SATIP_TR_NONE)
			return 0;
		if (satip_transport_parse(val.p, val.n, &r->transport))
			return -EBADMSG;
	} else if (span_eq(name, "Content-Length")) {
		if (r->has_content_length ||
		    !span_uint(val, UINT32_MAX, &v))
			return -EBADMSG;
		r->has_content_length = true;
		r->content_length = (size_t)v;
	} else if (span_eq(name, "Public")) {
		span_copy_clean(r->public_methods, sizeof(r->public_methods),
				val);
	} else if (span_eq(name, "Content-Type")) {
		span_copy_clean(r->content_type, sizeof(r->content_type), val);
	} else if (span_eq(name, "X-SATIP-RTSP-Port")) {
		if (span_uint(val, 65535, &v) && v)
			r->rtsp_port = (unsigned int)v;
	}
	return 0;
}

int satip_reply_parse(const char *buf, size_t len, struct satip_reply *r)
{
	size_t pos = 0, hpos, total;
	struct span line;
	bool end = false, seen_stream = false;
	int err = 0, ret;

	memset(r, 0, sizeof(*r));
	r->stream_id = -1;

	/* empty lines before the status line (after a body, say) */
	while (pos < len && pos < SATIP_REPLY_MAX &&
	       (buf[pos] == '\r' || buf[pos] == '\n'))
		pos++;
	if (pos < len && buf[pos] == '$') {
		r->skip = pos;
		return -ENOMSG;
	}
	hpos = pos;
	if (!next_line(buf, len < SATIP_REPLY_MAX ? len : SATIP_REPLY_MAX,
		       &hpos, &line))
		return len < SATIP_REPLY_MAX ? 0 : -EMSGSIZE;
	ret = parse_status_line(line, r);
	if (ret)
		return ret;

	/* the head ends at an empty line, within SATIP_REPLY_MAX */
	while (next_line(buf, len < SATIP_REPLY_MAX ? len : SATIP_REPLY_MAX,
			 &hpos, &line)) {
		if (!line.n) {
			end = true;
			break;
		}
		ret = parse_header(line, r, &seen_stream);
		if (ret && !err)
			err = ret;
	}
	if (!end)
		return len < SATIP_REPLY_MAX ? 0 : -EMSGSIZE;
	if (err)
		return err;
	if (r->content_length > SATIP_REPLY_MAX - hpos)
		return -EMSGSIZE;
	total = hpos + r->content_length;
	if (len < total)
		return 0;
	return (int)total;
}
