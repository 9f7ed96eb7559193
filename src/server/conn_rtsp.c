// SPDX-License-Identifier: GPL-2.0
/*
 * conn_rtsp.c - vtunerd's SAT>IP connections (--satip): RTSP requests,
 * and HTTP on the same port (GET /desc.xml, GET /?QUERY to stream).
 *
 * A request is read whole (src/satip/rtsp.h parses it), answered, and
 * the next one parsed; a malformed one is answered with its status and,
 * when the stream cannot be followed, the connection closed.  The
 * sessions it creates live in satip.c: a UDP session outlives the
 * connection that set it up (SAT>IP clients may open a new one for each
 * request), an interleaved or HTTP one ends with it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "satip/rtsp.h"
#include "server/satip.h"
#include "server/server.h"

/* Requests of one connection per wake-up. */
#define VTD_RTSP_REQS_PER_EVENT	8

struct vtd_rtsp_conn {
	size_t len;			/* bytes in buf */
	bool answered;			/* a request was answered */
	bool http_stream;		/* HTTP streaming: no more requests */
	uint64_t partial_ns;		/* since when buf holds part of one */
	char buf[SATIP_REQ_MAX];
};

static int vtd_rtsp_init(struct vtd_conn *c)
{
	c->priv = calloc(1, sizeof(struct vtd_rtsp_conn));
	return c->priv ? 0 : -ENOMEM;
}

static void vtd_rtsp_free(struct vtd_conn *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* The sessions that live in this connection end with it. */
static void vtd_rtsp_closed(struct vtd_conn *c)
{
	vtd_satip_conn_closed(c);
}

/* Until its first request is answered (a slow-loris peer never is). */
static bool vtd_rtsp_pending(const struct vtd_conn *c)
{
	const struct vtd_rtsp_conn *r = c->priv;

	return !r->answered;
}

/*
 * A request must come whole within the handshake time (a slow-loris peer
 * never ends one); a connection with no session, silent for --timeout,
 * is closed.
 */
static void vtd_rtsp_house(struct vtd_conn *c, uint64_t now)
{
	uint64_t timeout = (uint64_t)c->srv->cfg->timeout_s * 1000000000ull;
	unsigned int hs = vtd_handshake_s(c->srv);
	struct vtd_rtsp_conn *r = c->priv;

	if (r->len && !r->http_stream &&
	    now - r->partial_ns >= hs * 1000000000ull) {
		vtd_conn_refuse(c, 0, 0, "request not complete within %u s",
				hs);
		vtd_conn_close(c, NULL);
		return;
	}
	if (timeout && now - c->last_rx_ns >= timeout &&
	    !vtd_satip_conn_has_sessions(c))
		vtd_conn_close(c, "peer silent: timeout");
}

/* One request at the start of r->buf: its length, 0 if incomplete. */
static size_t vtd_rtsp_one(struct vtd_conn *c, struct vtd_rtsp_conn *r,
			   struct satip_req *q)
{
	uint8_t ch;
	int n;

	/* RTCP receiver reports and the like, interleaved: skipped */
	n = satip_interleaved(r->buf, r->len, &ch);
	if (n > 0)
		return (size_t)n;
	if (n == 0)
		return 0;
	n = satip_req_parse(r->buf, r->len, q);
	if (n == 0) {
		if (r->len >= sizeof(r->buf)) {
			vtd_satip_error(c, q, 413, NULL);
			vtd_conn_close_after_flush(c);
		}
		return 0;
	}
	r->answered = true;
	if (n < 0) {
		vt_info("#%u %s: %s request refused: %d %s", c->id, c->peer,
			q->proto == SATIP_HTTP ? "HTTP" : "RTSP", -n,
			satip_reason(-n));
		vtd_satip_error(c, q, -n, NULL);
		if (!q->skip) {
			vtd_conn_close_after_flush(c);
			return 0;
		}
		return q->skip;
	}
	vtd_satip_request(c, q, r->buf + n - q->content_length);
	return (size_t)n;
}

static void vtd_rtsp_input(struct vtd_conn *c)
{
	struct vtd_rtsp_conn *r = c->priv;
	struct satip_req *q = vtd_satip_req_buf(c->srv);
	ssize_t n;
	int i;

	n = read(c->ev.fd, r->buf + r->len, sizeof(r->buf) - r->len);
	if (n == 0) {
		vtd_conn_close(c, r->answered ? "connection closed by peer" :
			       NULL);
		return;
	}
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return;
		vt_info("#%u %s: read: %s", c->id, c->peer, strerror(errno));
		vtd_conn_close(c, NULL);
		return;
	}
	c->last_rx_ns = vt_now_ns();
	if (!r->len)
		r->partial_ns = c->last_rx_ns;
	r->len += (size_t)n;
	if (r->http_stream) {		/* nothing more is read */
		r->len = 0;
		return;
	}
	for (i = 0; i < VTD_RTSP_REQS_PER_EVENT && r->len; i++) {
		size_t used;

		if (c->dead || c->closing)
			return;
		used = vtd_rtsp_one(c, r, q);
		if (!used || c->dead)
			return;
		memmove(r->buf, r->buf + used, r->len - used);
		r->len -= used;
		r->partial_ns = c->last_rx_ns;
	}
}

void vtd_rtsp_http_streaming(struct vtd_conn *c)
{
	struct vtd_rtsp_conn *r = c->priv;

	r->http_stream = true;
}

const struct vtd_conn_ops vtd_rtsp_ops = {
	.name = "SAT>IP",
	.queue = VTD_RTSP_QUEUE,
	.frames = VTD_RTSP_QUEUE / 64,
	.init = vtd_rtsp_init,
	.input = vtd_rtsp_input,
	.closed = vtd_rtsp_closed,
	.free = vtd_rtsp_free,
	.pending = vtd_rtsp_pending,
	.house = vtd_rtsp_house,
	.tick = vtd_satip_tick,
};
