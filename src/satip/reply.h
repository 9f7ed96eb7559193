/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reply.h - the replies a SAT>IP client reads: RTSP/1.0 (and, for
 * desc.xml, HTTP/1.x) status line, headers and Content-Length body.
 *
 * Pure: no I/O, no allocation, no global state.  Every string is copied
 * into the fixed arrays of struct satip_reply and NUL-terminated; the
 * body is not copied.  On an interleaved connection (RTP/AVP/TCP) the
 * server's '$' frames come between the replies: look at the first byte,
 *
 *	if (buf[0] == '$')
 *		n = satip_interleaved(buf, len, &channel);	rtsp.h
 *	else
 *		n = satip_reply_parse(buf, len, &reply);
 *
 * (satip_reply_parse() answers -ENOMSG for a '$' frame, also after
 * stray empty lines: it never takes one for a malformed reply.)
 */
#ifndef SATIP_REPLY_H
#define SATIP_REPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "satip/rtsp.h"

/* A whole reply, head and body: a DESCRIBE's SDP of many streams fits. */
#define SATIP_REPLY_MAX		65536

struct satip_reply {
	int code;			/* 200, 404, 454... (100..999) */
	enum satip_proto proto;		/* RTSP/1.0, or HTTP/1.0 or 1.1 */
	bool has_cseq;
	uint32_t cseq;
	char session[SATIP_SESSION_MAX + 1];	/* Session: id, "" if none */
	unsigned int timeout;		/* Session: ...;timeout=N (s), 0 if absent */
	int stream_id;			/* com.ses.streamID: N, -1 if absent */
	/*
	 * Transport: as rtsp.h parses it (client_port=, server_port=,
	 * interleaved=, ssrc=...); profile SATIP_TR_NONE if absent.
	 */
	struct satip_transport transport;
	char public_methods[256];	/* Public: (OPTIONS), "", cut short */
	char content_type[64];		/* "", cut short */
	bool has_content_length;	/* HTTP without it: the body runs to EOF */
	size_t content_length;		/* body at buf + ret - content_length */
	unsigned int rtsp_port;		/* X-SATIP-RTSP-Port: (HTTP), 0 if absent */
	size_t skip;			/* -ENOMSG: empty lines before the '$' */
};

/*
 * Parse one reply at the start of buf (len bytes, not NUL-terminated).
 * Returns:
 *   >0        bytes of the whole reply (empty lines before it, head and
 *             Content-Length body): r is filled
 *    0        not complete yet: call again with more bytes; never once
 *             len >= SATIP_REPLY_MAX
 *   -EBADMSG  malformed status line (not "RTSP/1.0 NNN ...", "HTTP/1.x
 *             NNN ..."), header line (no ':'), CSeq, Content-Length,
 *             Session, com.ses.streamID or Transport:; a repeated CSeq or
 *             Content-Length
 *   -EMSGSIZE the reply is larger than SATIP_REPLY_MAX
 *   -ENOMSG   buf starts with '$' (after r->skip bytes of empty lines,
 *             to drop): an interleaved frame, see satip_interleaved()
 * After -EBADMSG or -EMSGSIZE the connection cannot be followed any
 * further.
 * Lines end in CRLF or LF; header names in any case; unknown headers and
 * continuation lines are ignored; the answer does not depend on how the
 * bytes were split.  r's strings are always terminated.
 */
int satip_reply_parse(const char *buf, size_t len, struct satip_reply *r);

#endif /* SATIP_REPLY_H */
