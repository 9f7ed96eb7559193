/* SPDX-License-Identifier: GPL-2.0 */
/*
 * satip.h - vtunerd's SAT>IP server: the sessions (RTSP SETUP to
 * TEARDOWN or timeout, or one HTTP stream), their tuners shared through
 * share.h, and their output: RTP over UDP (sendmmsg, the packets sent
 * from where the tuner's read put them), RTP interleaved in the RTSP
 * connection, or the bare TS of an HTTP response; RTCP with the SES1
 * report about five times a second.
 *
 * conn_rtsp.c reads the requests; satip.c answers them.
 */
#ifndef VTD_SATIP_H
#define VTD_SATIP_H

#include <stdbool.h>
#include <stdint.h>

#include "satip/rtsp.h"

#define VTD_SATIP_DEFAULT_PORT	554u
#define VTD_RTSP_QUEUE		(2 * 1024 * 1024)	/* per connection */
#define VTD_SATIP_TIMEOUT_S	60	/* Session: ...;timeout= */
#define VTD_SATIP_MAX_PIDS	128	/* per session, else 503 */

struct vtd_server;
struct vtd_conn;

/* conn_rtsp.c */
extern const struct vtd_conn_ops vtd_rtsp_ops;
/* An HTTP stream began on c: what it sends is not read any more. */
void vtd_rtsp_http_streaming(struct vtd_conn *c);

/* --satip ADDR[:PORT]: listen, RTP/RTCP sockets; 0 or -1 (logged). */
int vtd_satip_init(struct vtd_server *srv, const char *spec);
void vtd_satip_fini(struct vtd_server *srv);
/*
 * Every timer tick (vtd_rtsp_ops.tick): the shared tuners' status, RTCP,
 * empty RTP packets, session timeouts; the timer period SAT>IP needs
 * now, ms (0: none).
 */
unsigned int vtd_satip_tick(struct vtd_server *srv, uint64_t now);

/* The parse buffer of the server (one request at a time). */
struct satip_req *vtd_satip_req_buf(struct vtd_server *srv);
/* Answer request q of c (body: its Content-Length bytes). */
void vtd_satip_request(struct vtd_conn *c, const struct satip_req *q,
		       const char *body);
/*
 * An error reply to q (code: 400, 404, 454, 503...); header: one more
 * header line without CRLF ("Check-Syntax: fec"), or NULL.
 */
void vtd_satip_error(struct vtd_conn *c, const struct satip_req *q, int code,
		     const char *header);
/* c closed: its interleaved and HTTP sessions end. */
void vtd_satip_conn_closed(struct vtd_conn *c);
bool vtd_satip_conn_has_sessions(const struct vtd_conn *c);
/* Sessions open (for --max-clients). */
unsigned int vtd_satip_sessions(const struct vtd_server *srv);

#endif /* VTD_SATIP_H */
