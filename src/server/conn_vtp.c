// SPDX-License-Identifier: GPL-2.0
/*
 * conn_vtp.c - the connections of vtunerd's own protocol (vtp): a new
 * connection becomes a control connection with HELLO or a data connection
 * with DATA_ATTACH (session.c handles the frames); here what the event
 * loop asks of their kind: reading frames, the idle timeout and the
 * keepalive, what a closed one releases.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dvb/frontend.h>

#include "common/log.h"
#include "server/server.h"

/* Reads of one socket per wake-up, so that one client cannot starve others. */
#define VTD_READS_PER_EVENT	4

static int vtd_vtp_init(struct vtd_conn *c)
{
	c->rd = malloc(sizeof(*c->rd));
	if (!c->rd)
		return -ENOMEM;
	vtp_reader_init(c->rd);
	return 0;
}

static void vtd_vtp_free(struct vtd_conn *c)
{
	vtp_seal_wipe(&c->tx);
	vtp_seal_wipe(&c->rx);
	free(c->rd);
	c->rd = NULL;
}

static void vtd_vtp_input(struct vtd_conn *c)
{
	struct vtp_msg *m = c->srv->msg;
	ssize_t n;
	int i, r;

	for (i = 0; i < VTD_READS_PER_EVENT && !c->dead && !c->closing; i++) {
		n = vtp_reader_fill(c->rd, c->ev.fd);
		if (n == -EAGAIN || n == -EWOULDBLOCK)
			break;
		if (n == 0) {
			vtd_conn_close(c, c->kind == CONN_NEW ? NULL :
				       "connection closed by peer");
			return;
		}
		if (n < 0) {
			vt_info("#%u %s: read: %s", c->id, c->peer,
				strerror((int)-n));
			vtd_conn_close(c, NULL);
			return;
		}
		while (!c->dead && !c->closing) {
			r = vtp_reader_next(c->rd, m);
			if (r == 0)
				break;
			/* idle time runs from whole frames, not bytes */
			c->last_rx_ns = vt_now_ns();
			c->ka_sent_ns = 0;
			if (r > 0) {
				vtd_handle_frame(c, m);
				continue;
			}
			vtd_handle_bad_frame(c, r, m);
		}
	}
}

static void vtd_vtp_closed(struct vtd_conn *c)
{
	if (c->kind == CONN_CONTROL && c->sess) {
		if (c->sess->established)
			c->srv->nsessions--;
		vtd_session_release(c->sess);
	} else if (c->kind == CONN_DATA) {
		vtd_data_detach(c);
	}
}

/* HELLO (and AUTH) for a control connection, DATA_ATTACH for data */
static bool vtd_vtp_pending(const struct vtd_conn *c)
{
	return c->kind == CONN_NEW ||
	       (c->kind == CONN_CONTROL && !c->session.established);
}

/* --timeout of silence closes; a KEEPALIVE after VTD_KEEPALIVE_S idle */
static void vtd_vtp_house(struct vtd_conn *c, uint64_t now)
{
	struct vtd_server *srv = c->srv;
	uint64_t timeout = (uint64_t)srv->cfg->timeout_s * 1000000000ull;
	uint64_t idle = now - c->last_rx_ns;
	uint8_t buf[VTP_HDR_LEN + 8];
	int n;

	if (timeout && idle >= timeout) {
		vtd_conn_close(c, "peer silent: timeout");
		return;
	}
	if (vtd_vtp_pending(c) || c->ka_sent_ns ||
	    idle < VTD_KEEPALIVE_S * 1000000000ull)
		return;
	n = vtp_encode_keepalive(buf, sizeof(buf), srv->next_reqid++, now);
	if (!srv->next_reqid)
		srv->next_reqid = 1;
	if (n > 0 && vtd_conn_send(c, buf, (size_t)n))
		c->ka_sent_ns = now;
}

void vtd_conn_seal(struct vtd_conn *c, const struct vtd_session *s,
		   const uint8_t *token)
{
	struct vtp_keys keys;

	int ret;

	vtp_auth_keys(c->srv->cfg->psk, &s->actx, token, &keys);
	vtp_seal_wipe(&c->tx);
	vtp_seal_wipe(&c->rx);
	ret = vtp_seal_init(&c->tx, keys.s2c, keys.cipher);
	if (!ret)
		ret = vtp_seal_init(&c->rx, keys.c2s, keys.cipher);
	vtp_keys_wipe(&keys);
	if (ret < 0) {
		/* nothing may follow in clear: the frames queued go too */
		vtd_conn_close(c, "cannot key the session's cipher");
		return;
	}
	c->rd->open = &c->rx;
	c->sealed = true;
}

static void vtd_vtp_refuse(struct vtd_conn *c, uint32_t reqid, int err,
			   const char *why)
{
	vtd_send_error_msg(c, reqid, err, why);
}

/*
 * The status of every open tuner: polled every VTD_STATUS_POLL_MS, and
 * faster after a tune until its lock is pushed (VTD_STATUS_FIRST_MS,
 * then VTD_STATUS_FAST_MS): the timer period that needs.
 */
static unsigned int vtd_vtp_tick(struct vtd_server *srv, uint64_t now)
{
	unsigned int period = VTD_STATUS_POLL_MS;
	struct vtd_conn *c;

	for (c = srv->conns; c; c = c->next) {
		struct vtd_session *s = c->sess;
		uint64_t since;
		bool hunting;

		if (c->dead || c->ops != &vtd_vtp_ops ||
		    c->kind != CONN_CONTROL || !s || !s->tuner)
			continue;
		since = (now - s->tune_ns) / 1000000ull;
		/* fast until the new tune's lock is pushed, 3 s at most */
		hunting = since < VTD_STATUS_FAST_WINDOW_MS &&
			  !(s->status_sent && (s->last_status & FE_HAS_LOCK));
		if (hunting && since < VTD_STATUS_FIRST_WINDOW_MS)
			period = VTD_STATUS_FIRST_MS;
		else if (hunting && period > VTD_STATUS_FAST_MS)
			period = VTD_STATUS_FAST_MS;
		else if (!hunting && now - s->last_poll_ns <
			 (VTD_STATUS_POLL_MS - 1) * 1000000ull)
			continue;
		s->last_poll_ns = now;
		vtd_session_poll(srv, s, now);
	}
	return period;
}

const struct vtd_conn_ops vtd_vtp_ops = {
	.name = "vtp",
	.queue = VTD_SMALL_QUEUE,
	.frames = VTD_SMALL_FRAMES,
	.init = vtd_vtp_init,
	.input = vtd_vtp_input,
	.closed = vtd_vtp_closed,
	.free = vtd_vtp_free,
	.pending = vtd_vtp_pending,
	.house = vtd_vtp_house,
	.refuse = vtd_vtp_refuse,
	.tick = vtd_vtp_tick,
};
