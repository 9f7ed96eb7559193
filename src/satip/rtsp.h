/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtsp.h - SAT>IP request parser (RTSP/1.0 and HTTP/1.x) and reply helpers
 *
 * Pure: no I/O, no allocation, no global state.  One parser serves the
 * RTSP control connection (OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN,
 * GET_PARAMETER) and HTTP (GET /desc.xml, GET /?freq=... streaming).
 * Every string of struct satip_req is copied into its fixed arrays and
 * NUL-terminated: nothing points into the caller's buffer.
 */
#ifndef SATIP_RTSP_H
#define SATIP_RTSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SATIP_REQ_MAX		8192	/* a whole request: head and body */
#define SATIP_URI_MAX		2048	/* request target, bytes */
#define SATIP_HOST_MAX		255
#define SATIP_PATH_MAX		255
#define SATIP_QUERY_MAX		(SATIP_URI_MAX - 1)
#define SATIP_SESSION_MAX	63	/* Session: id, without ;timeout= */
#define SATIP_DEST_MAX		63	/* Transport: destination= */
#define SATIP_AGENT_MAX		127	/* User-Agent:, Accept: (cut short) */
#define SATIP_METHOD_MAX	31

enum satip_method {
	SATIP_M_UNKNOWN,
	SATIP_M_OPTIONS,
	SATIP_M_DESCRIBE,
	SATIP_M_SETUP,
	SATIP_M_PLAY,
	SATIP_M_TEARDOWN,
	SATIP_M_GET_PARAMETER,
	SATIP_M_GET,		/* HTTP */
	SATIP_M_HEAD,		/* HTTP */
};

enum satip_proto {
	SATIP_RTSP,		/* RTSP/1.0 */
	SATIP_HTTP,		/* HTTP/1.0 or HTTP/1.1 */
};

/* The first transport of Transport: this parser knows. */
enum satip_tr_profile {
	SATIP_TR_NONE,		/* no Transport: header */
	SATIP_TR_UDP,		/* RTP/AVP or RTP/AVP/UDP */
	SATIP_TR_TCP,		/* RTP/AVP/TCP (interleaved) */
	SATIP_TR_OTHER,		/* none of those: answer 461 */
};

struct satip_transport {
	enum satip_tr_profile profile;
	bool unicast;			/* "unicast" was given */
	bool multicast;			/* "multicast" was given */
	bool has_client_port;
	uint16_t client_port[2];	/* client_port=A-B (B = A+1 if alone) */
	bool has_interleaved;
	uint8_t interleaved[2];		/* interleaved=A-B (B = A+1 if alone) */
	bool has_port;
	uint16_t port[2];		/* port=A-B (multicast) */
	bool has_ttl;
	uint8_t ttl;
	char destination[SATIP_DEST_MAX + 1];	/* "" if none */
	/* what a server's reply adds (a malformed one is ignored) */
	bool has_server_port;
	uint16_t server_port[2];	/* server_port=A-B (B = A+1 if alone) */
	bool has_ssrc;
	uint32_t ssrc;			/* ssrc=8 hex digits */
	char source[SATIP_DEST_MAX + 1];	/* source=, "" if none */
};

struct satip_req {
	enum satip_method method;
	char method_name[SATIP_METHOD_MAX + 1];	/* as sent */
	enum satip_proto proto;
	unsigned int version_minor;	/* HTTP/1.x: x; RTSP: 0 */

	/* request target: rtsp://host:port/path?query, /path?query or * */
	char host[SATIP_HOST_MAX + 1];	/* "" for a path; no [] for IPv6 */
	uint16_t port;			/* 0 if none */
	char path[SATIP_PATH_MAX + 1];	/* "/" at least; "*" for * */
	int stream_id;			/* last segment "stream=N", else -1 */
	bool has_query;			/* '?' present (query may be "") */
	char query[SATIP_QUERY_MAX + 1];	/* after '?', raw, no '#...' */

	bool has_cseq;
	uint32_t cseq;
	char session[SATIP_SESSION_MAX + 1];	/* "" if none */
	struct satip_transport transport;
	bool has_range;			/* Range: (PLAY), value ignored */
	size_t content_length;
	char user_agent[SATIP_AGENT_MAX + 1];
	char accept[SATIP_AGENT_MAX + 1];

	/*
	 * After a negative return: the length of the whole request when it
	 * was complete (the caller answers it, skips skip bytes and goes on
	 * with the connection), 0 when the stream cannot be followed any
	 * further (answer, then close).  Equal to the return value otherwise.
	 */
	size_t skip;
};

/*
 * Parse one request at the start of buf (len bytes; buf need not be
 * NUL-terminated).  Returns:
 *   >0   bytes of the whole request (head and Content-Length body): r is
 *        filled; the body is not copied (it is at buf + ret - r->content_length)
 *    0   the request is not complete yet: call again with more bytes
 *        (r's content is undefined); never once len >= SATIP_REQ_MAX
 *   <0   a status code to answer, negated; r holds what was parsed of the
 *        head (has_cseq, proto...) and r->skip says whether the
 *        connection can go on:
 *        -400 malformed request line, header line, CSeq, Content-Length,
 *             Transport: or URI; duplicate CSeq or Content-Length
 *        -413 RTSP head or request larger than SATIP_REQ_MAX
 *        -431 the same for HTTP
 *        -414 request target longer than SATIP_URI_MAX (or its host, path)
 *        -501 unknown method, or a method of the other protocol
 *        -505 RTSP other than 1.0, HTTP other than 1.0 and 1.1
 * Empty lines before the request line are skipped (and counted).  Header
 * names are matched in any case; lines end with CRLF or LF; unknown
 * headers and continuation lines are ignored.  A line starting with '$'
 * is not a request: see satip_interleaved().
 */
int satip_req_parse(const char *buf, size_t len, struct satip_req *r);

/*
 * The value of a Transport: header (len bytes, no NUL needed): the first
 * transport spec of a profile this parser knows (RTP/AVP, RTP/AVP/UDP,
 * RTP/AVP/TCP) fills t; profile SATIP_TR_OTHER if none is one of those.
 * Parameters in any case, unknown ones ignored.  Returns 0, or -400 for a
 * malformed client_port, port, interleaved, ttl or destination (t then
 * holds what was parsed).  Requests (satip_req_parse()) and replies
 * (satip_reply_parse()) both use it.
 */
int satip_transport_parse(const char *v, size_t len, struct satip_transport *t);

/* The method's name ("SETUP"), "?" for SATIP_M_UNKNOWN. */
const char *satip_method_name(enum satip_method m);

/*
 * RTP/RTCP interleaved in the RTSP connection: a frame '$', channel,
 * 16-bit big-endian length, data.  satip_interleaved() looks at buf:
 * -1 if it does not start with '$' (a request), 0 if the frame is not
 * complete, else the bytes of the whole frame (*channel set).
 */
int satip_interleaved(const void *buf, size_t len, uint8_t *channel);
/* The 4 bytes that precede len bytes of data on channel. */
void satip_interleaved_hdr(uint8_t hdr[4], uint8_t channel, uint16_t len);

/* Reason phrase of a status code ("OK", "Session Not Found"...), "Error". */
const char *satip_reason(int code);

/*
 * Start a reply: "RTSP/1.0 CODE REASON\r\nCSeq: N\r\n" (no CSeq line if
 * cseq < 0), or "HTTP/1.1 CODE REASON\r\n" for SATIP_HTTP (cseq ignored).
 * Returns the length written (buf NUL-terminated), -ENOBUFS if cap is too
 * small.
 */
int satip_reply_start(char *buf, size_t cap, int code, int64_t cseq,
		      enum satip_proto proto);
/*
 * Append printf-style text at buf + len (len: what the reply holds so
 * far, as returned by the last call).  Returns the new length, -ENOBUFS
 * if it does not fit (buf then ends at len again), -EINVAL if len < 0.
 */
int satip_reply_add(char *buf, size_t cap, int len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* SATIP_RTSP_H */
