// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - the protocol of vtunerd (docs/protocol.md): the messages of
 * a connection before HELLO / DATA_ATTACH, of a control session and of a
 * data connection; the STATUS pushes and the TS path from a tuner to the
 * data connection.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <linux/dvb/frontend.h>

#include "common/log.h"
#include "common/text.h"
#include "server/server.h"

/* TS read from the tuner per TS_DATA frame and reads per wake-up */
#define VTD_TS_CHUNK_PKTS	1024
#define VTD_TS_READS		8
/*
 * After a tune the frames start small and double up to VTD_TS_CHUNK_PKTS:
 * the client can use a frame only once all of it has arrived, and the
 * data connection, idle since the old tune, is back in TCP slow start
 * (ten segments per round trip), so a first frame of 192 KiB would take
 * four round trips to show its first packet.  64 packets fit in the
 * initial window.
 */
#define VTD_TS_FIRST_PKTS	64
#define VTD_DROP_LOG_NS		10000000000ull

/* Queue a frame; a control peer that lets its queue fill is closed. */
static bool vtd_send(struct vtd_conn *c, const uint8_t *buf, int n)
{
	if (n < 0) {
		vt_err("#%u: encoding a reply: %s", c->id, strerror(-n));
		return false;
	}
	if (vtd_conn_send(c, buf, (size_t)n))
		return true;
	if (!c->dead && c->kind != CONN_DATA)
		vtd_conn_close(c, "output queue full: peer does not read");
	return false;
}

static uint32_t vtd_errno(int err)
{
	return (uint32_t)(err > 0 && err < 4096 ? err : EIO);
}

void vtd_send_error_msg(struct vtd_conn *c, uint32_t reqid, int err,
			const char *msg)
{
	uint8_t buf[VTP_HDR_LEN + 10 + VTP_ERRMSG_MAX];
	struct vtp_error e;

	memset(&e, 0, sizeof(e));
	e.err = vtd_errno(err);
	e.reqid = reqid;
	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	/* names of tuners and devices in it: the protocol takes no controls */
	vt_text_clean(e.msg);
	vtd_send(c, buf, vtp_encode_error(buf, sizeof(buf), &e));
}

void vtd_send_error(struct vtd_conn *c, uint32_t reqid, int err,
		    const char *fmt, ...)
{
	char msg[VTP_ERRMSG_MAX + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vt_info("#%u %s: error %u (%s): %s", c->id, c->peer, vtd_errno(err),
		strerror((int)vtd_errno(err)), msg);
	vtd_send_error_msg(c, reqid, err, msg);
}

static void vtd_send_ok(struct vtd_conn *c, uint32_t reqid)
{
	uint8_t buf[VTP_HDR_LEN];

	vtd_send(c, buf, vtp_encode_ok(buf, sizeof(buf), reqid));
}

/* A frame that cannot be decoded before the handshake is complete. */
static void vtd_handshake_bad_frame(struct vtd_conn *c, int err,
				    const struct vtp_msg *m)
{
	uint16_t type = m->hdr.type;

	switch (err) {
	case -ENOTSUP:
		vtd_conn_refuse(c, m->hdr.reqid, EOPNOTSUPP, "unknown message "
				"type 0x%04x before the handshake", type);
		break;
	case -EPROTO:
		vtd_conn_refuse(c, vtp_is_request(type) ? m->hdr.reqid : 0,
				EPROTO, "malformed %s (%u payload bytes) before "
				"the handshake", vtp_type_name(type), m->hdr.len);
		break;
	case -EMSGSIZE:
		vtd_conn_refuse(c, m->hdr.reqid, EMSGSIZE, "frame of %u bytes "
				"before the handshake", m->hdr.len);
		break;
	default:
		vtd_conn_refuse(c, 0, 0, "bad frame magic before the handshake");
		break;
	}
}

void vtd_handle_bad_frame(struct vtd_conn *c, int err, struct vtp_msg *m)
{
	/* before the handshake is complete: closed, and said */
	if (vtd_conn_pending(c)) {
		vtd_handshake_bad_frame(c, err, m);
		return;
	}
	switch (err) {
	case -EKEYREJECTED:
		vtd_conn_forged(c, &m->hdr);
		break;
	case -EBADMSG:
		vtd_conn_close(c, "bad frame magic: stream out of sync");
		break;
	case -EMSGSIZE:
		vtd_send_error(c, m->hdr.reqid, EMSGSIZE,
			       "frame of %u bytes above the maximum %u",
			       m->hdr.len, VTP_MAX_PAYLOAD);
		vtd_conn_close_after_flush(c);
		break;
	case -ENOTSUP:
		vtd_send_error(c, m->hdr.reqid, EOPNOTSUPP,
			       "unknown message type 0x%04x", m->hdr.type);
		break;
	case -EPROTO:
		if (vtp_is_request(m->hdr.type))
			vtd_send_error(c, m->hdr.reqid, EPROTO,
				       "malformed %s (%u payload bytes)",
				       vtp_type_name(m->hdr.type), m->hdr.len);
		else
			vt_info("#%u %s: malformed %s dropped", c->id, c->peer,
				vtp_type_name(m->hdr.type));
		break;
	default:
		vtd_conn_close(c, "decoder error");
		break;
	}
}

/* ---- session state ------------------------------------------------------ */

static struct vtd_server *vtd_srv(struct vtd_session *s)
{
	return s->ctl->srv;
}

static void vtd_log_ts_counters(struct vtd_session *s)
{
	vt_info("#%u: tuner %u: %llu TS packets, %llu frames sent, "
		"%llu frames (%llu packets) dropped, %llu packets without "
		"data connection", s->ctl->id, s->tuner->info.index,
		(unsigned long long)s->ts_packets,
		(unsigned long long)s->ts_frames,
		(unsigned long long)s->drop_frames,
		(unsigned long long)s->drop_packets,
		(unsigned long long)s->unattached_packets);
}

static void vtd_close_tuner(struct vtd_session *s)
{
	struct vtd_tuner *t = s->tuner;

	if (!t)
		return;
	if (s->ts_ev.fd >= 0)
		vtd_server_watch(vtd_srv(s), &s->ts_ev, s->ts_ev.fd, false);
	s->ts_ev.fd = -1;
	if (s->data)
		vtd_conn_close(s->data, "tuner closed");
	vtd_log_ts_counters(s);
	if (s->shared) {
		vtd_share_leave(vtd_srv(s), &s->st);	/* closed by the last */
		s->shared = false;
	} else {
		t->ops->close(t);
		t->owner = NULL;
	}
	s->tuner = NULL;
	s->token_valid = false;
	s->npids = 0;
	vt_notice("#%u %s: tuner %u (%s) released", s->ctl->id, s->ctl->peer,
		  t->info.index, t->where);
}

void vtd_session_release(struct vtd_session *s)
{
	vtd_close_tuner(s);
	free(s->pids);
	s->pids = NULL;
}

void vtd_data_detach(struct vtd_conn *c)
{
	struct vtd_session *s = c->sess;

	if (s && s->data == c)
		s->data = NULL;
	c->sess = NULL;
}

/* ---- data connection queue ---------------------------------------------- */

/*
 * A retune: withdraw the queued TS_DATA of the old tune (vtp_queue.h);
 * on a sealed connection the numbers of the frames withdrawn, the last
 * ones sealed, none of whose bytes has left, go to the next frames
 * (vtp_seal_rewind()).
 */
static size_t vtd_data_discard(struct vtd_conn *c)
{
	size_t dropped = vtp_queue_withdraw(&c->q);

	if (c->sealed)
		vtp_seal_rewind(&c->tx, dropped);
	return dropped;
}

/*
 * Where the next TS frame of up to len bytes goes: straight into the
 * data connection's queue when it has that much contiguous room (the
 * tuner's read() is then the only copy in user space), else the bounce
 * buffer, copied by vtd_data_put_ts() if there is room at all.
 */
static uint8_t *vtd_data_slot(struct vtd_conn *c, uint8_t *bounce, size_t len)
{
	uint8_t *slot = c && !c->dead ? vtp_queue_slot(&c->q, len) : NULL;

	return slot ? slot : bounce;
}

static bool vtd_data_put_ts(struct vtd_conn *c, const uint8_t *frame,
			    size_t len, bool in_place)
{
	if (in_place) {
		vtp_queue_commit(&c->q, len, 0);
	} else if (vtp_queue_put(&c->q, frame, len, 0) < 0) {
		if (c->sealed)	/* never seen: its number goes to the next */
			vtp_seal_rewind(&c->tx, 1);
		return false;
	}
	return true;
}

/*
 * The TS frame of pkts packets at frame (after pre bytes of room for a
 * sealed frame's header; in d's queue, or the bounce buffer): its
 * header, sealed in place when d is, queued, counted.  false: d was
 * closed (2^64 frames sealed).
 */
static bool vtd_session_put(struct vtd_session *s, struct vtd_conn *d,
			    uint8_t *frame, size_t pre, size_t pkts,
			    bool *queued)
{
	size_t flen = VTP_TS_HDR_LEN + pkts * VTP_TS_PACKET;
	int sealed;

	vtp_encode_ts_hdr(frame + pre, VTP_TS_HDR_LEN, s->seq,
			  pkts * VTP_TS_PACKET);
	if (pre) {
		/* in place, in the queue or the bounce buffer */
		sealed = vtp_seal(&d->tx, frame, flen + VTP_SEAL_OVERHEAD, flen);
		if (sealed < 0) {
			vtd_conn_close(d, "2^64 frames sealed: data connection "
				       "ended");
			return false;
		}
		flen = (size_t)sealed;
	}
	if (vtd_data_put_ts(d, frame, flen, frame != vtd_srv(s)->tsbuf)) {
		s->ts_frames++;
		*queued = true;
	} else {
		s->drop_frames++;
		s->drop_packets += pkts;
	}
	return true;
}

/* Frames dropped since the last warning: one every VTD_DROP_LOG_NS. */
static void vtd_session_log_drops(struct vtd_session *s)
{
	uint64_t now;

	if (s->drop_frames <= s->drops_logged)
		return;
	now = vt_now_ns();
	if (now - s->drops_logged_ns < VTD_DROP_LOG_NS)
		return;
	vt_warn("#%u %s: data connection too slow: %llu TS frames (%llu "
		"packets) dropped so far", s->ctl->id, s->ctl->peer,
		(unsigned long long)s->drop_frames,
		(unsigned long long)s->drop_packets);
	s->drops_logged = s->drop_frames;
	s->drops_logged_ns = now;
}

/*
 * The TS of a shared tuner, the session's PIDs: copied into TS frames of
 * up to VTD_TS_CHUNK_PKTS packets (sealed in place if the data
 * connection is).
 */
static void vtd_session_stream_ts(struct vtd_stream *st,
				  const uint8_t *const *pkt, size_t n)
{
	struct vtd_session *s = (struct vtd_session *)
		((char *)st - offsetof(struct vtd_session, st));
	struct vtd_server *srv = vtd_srv(s);
	struct vtd_conn *d = s->data;
	size_t i = 0, k, m;
	bool queued = false;
	uint8_t *frame;

	s->ts_packets += n;
	if (!d || d->dead) {
		s->unattached_packets += n;
		return;
	}
	while (i < n) {
		size_t pre = d->sealed ? VTP_HDR_LEN : 0;
		size_t post = pre ? VTP_SEAL_TAG_LEN : 0;

		m = n - i < VTD_TS_CHUNK_PKTS ? n - i : VTD_TS_CHUNK_PKTS;
		frame = vtd_data_slot(d, srv->tsbuf, pre + VTP_TS_HDR_LEN +
				      m * VTP_TS_PACKET + post);
		for (k = 0; k < m; k++)
			memcpy(frame + pre + VTP_TS_HDR_LEN + k * VTP_TS_PACKET,
			       pkt[i + k], VTP_TS_PACKET);
		i += m;
		if (!vtd_session_put(s, d, frame, pre, m, &queued))
			return;
	}
	if (queued)
		vtd_conn_flush(d);
	vtd_session_log_drops(s);
}

static const struct vtd_stream_ops vtd_session_stream_ops = {
	.ts = vtd_session_stream_ts,
};

/* The session's PIDs to its stream: 0 or -errno (missing says which). */
static int vtd_session_stream_pids(struct vtd_session *s, char *missing,
				   size_t missing_len)
{
	bool all = s->npids && s->pids[s->npids - 1] == VTP_PID_FULL_TS;

	return vtd_share_set_pids(&s->st, s->pids, all ? s->npids - 1 :
				  s->npids, all, missing, missing_len);
}

int vtd_session_share(struct vtd_server *srv, struct vtd_tuner *t)
{
	struct vtd_session *s = t->owner;
	char missing[160];
	int err;

	if (!s || s->shared)
		return -EINVAL;
	s->st.ops = &vtd_session_stream_ops;
	/* the tuner's descriptor goes from the session to the share */
	if (s->ts_ev.fd >= 0)
		vtd_server_watch(srv, &s->ts_ev, s->ts_ev.fd, false);
	err = vtd_share_adopt(srv, &s->st, t);
	if (err) {
		if (s->ts_ev.fd >= 0)
			vtd_server_watch(srv, &s->ts_ev, s->ts_ev.fd, true);
		return err;
	}
	s->ts_ev.fd = -1;
	t->owner = NULL;
	s->shared = true;
	if (vtd_session_stream_pids(s, missing, sizeof(missing)) < 0)
		vt_warn("#%u: tuner %u shared: %s not delivered", s->ctl->id,
			t->info.index, missing);
	vt_notice("#%u %s: tuner %u (%s) now shared with SAT>IP sessions",
		  s->ctl->id, s->ctl->peer, t->info.index, t->where);
	return 0;
}

void vtd_session_ts(struct vtd_server *srv, struct vtd_session *s)
{
	struct vtd_tuner *t = s->tuner;
	struct vtd_conn *d = s->data;
	bool queued = false;
	uint8_t *frame;
	ssize_t n;
	int i;

	if (!t)
		return;
	for (i = 0; i < VTD_TS_READS; i++) {
		/* a sealed frame: its header before, its tag after */
		size_t pre = d && !d->dead && d->sealed ? VTP_HDR_LEN : 0;
		size_t post = pre ? VTP_SEAL_TAG_LEN : 0;
		size_t pkts, max;

		if (s->frame_pkts < VTD_TS_FIRST_PKTS)
			s->frame_pkts = VTD_TS_FIRST_PKTS;
		max = s->frame_pkts * VTP_TS_PACKET;
		frame = vtd_data_slot(d, srv->tsbuf,
				      pre + VTP_TS_HDR_LEN + max + post);
		n = t->ops->read_ts(t, frame + pre + VTP_TS_HDR_LEN, max);
		if (n == -EAGAIN)
			break;
		if (n < 0) {
			vt_warn("#%u: tuner %u (%s): reading TS: %s; TS stopped",
				s->ctl->id, t->info.index, t->where,
				strerror((int)-n));
			vtd_server_watch(srv, &s->ts_ev, s->ts_ev.fd, false);
			s->ts_ev.fd = -1;
			break;
		}
		pkts = (size_t)n / VTP_TS_PACKET;
		s->ts_packets += pkts;
		if (pkts == s->frame_pkts && s->frame_pkts < VTD_TS_CHUNK_PKTS)
			s->frame_pkts *= 2;
		if (!d || d->dead) {
			s->unattached_packets += pkts;
			continue;
		}
		/* closed on failure: the next packets go unattached */
		vtd_session_put(s, d, frame, pre, pkts, &queued);
	}
	if (queued)
		vtd_conn_flush(d);
	vtd_session_log_drops(s);
}

/* EV_FD of ts_ev: the tuner of s has TS. */
static void vtd_session_ts_event(struct vtd_server *srv, struct vtd_ev *ev)
{
	vtd_session_ts(srv, (struct vtd_session *)
		       ((char *)ev - offsetof(struct vtd_session, ts_ev)));
}

/* ---- status ------------------------------------------------------------- */

static void vtd_push_status(struct vtd_session *s, uint64_t now)
{
	struct vtd_tuner *t = s->tuner;
	uint8_t buf[VTP_HDR_LEN + 344];
	struct vtp_status st;
	bool changed;
	int err;

	memset(&st, 0, sizeof(st));
	err = t->ops->read_status(t, &st, true);
	if (err < 0)
		memset(&st, 0, sizeof(st));
	st.seq = s->seq;
	changed = !s->status_sent ||
		  (st.status & FE_HAS_LOCK) != (s->last_status & FE_HAS_LOCK);
	s->last_status = st.status;
	s->status_sent = true;
	s->last_push_ns = now;
	/* sent before it is logged: a log write is not on the zap path */
	vtd_send(s->ctl, buf, vtp_encode_status(buf, sizeof(buf), &st));
	if (changed)
		vt_info("#%u: tuner %u: seq %u: status 0x%02x%s", s->ctl->id,
			t->info.index, s->seq, st.status,
			st.status & FE_HAS_LOCK ? " (lock)" : "");
}

void vtd_session_poll(struct vtd_server *srv, struct vtd_session *s,
		      uint64_t now)
{
	struct vtp_status st;
	struct vtd_tuner *t = s->tuner;

	(void)srv;
	if (!t)
		return;
	memset(&st, 0, sizeof(st));
	if (t->ops->read_status(t, &st, false) < 0)
		st.status = 0;
	if (s->status_sent && st.status == s->last_status &&
	    now - s->last_push_ns < VTD_STATUS_PUSH_MS * 1000000ull)
		return;
	vtd_push_status(s, now);
}

/* ---- requests ----------------------------------------------------------- */

static int vtd_cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static void vtd_hello(struct vtd_conn *c, struct vtp_msg *m)
{
	struct vtd_server *srv = c->srv;
	const struct vtp_hello *h = &m->u.hello;
	struct vtp_hello_reply r;
	struct vtd_session *s;
	uint8_t buf[VTP_HDR_LEN + 128];
	uint16_t v;

	v = vtp_choose_version(h->version_min, h->version_max);
	if (!v) {
		vtd_send_error(c, m->hdr.reqid, EPROTONOSUPPORT,
			       "no common version: client %u..%u, server %u..%u",
			       h->version_min, h->version_max,
			       VTP_VERSION_MIN, VTP_VERSION_MAX);
		vtd_conn_close_after_flush(c);
		return;
	}
	/* full already: said before any key is proved */
	if (srv->nsessions >= srv->cfg->max_clients) {
		vtd_send_error(c, m->hdr.reqid, EUSERS,
			       "too many clients (at most %u)",
			       srv->cfg->max_clients);
		vtd_conn_close_after_flush(c);
		return;
	}
	s = &c->session;
	memset(s, 0, sizeof(*s));
	s->pids = calloc(VTP_MAX_PIDS, sizeof(*s->pids));
	if (!s->pids) {
		vtd_send_error(c, m->hdr.reqid, ENOMEM, "out of memory");
		vtd_conn_close_after_flush(c);
		return;
	}
	s->ctl = c;
	s->ts_ev.kind = EV_FD;
	s->ts_ev.fn = vtd_session_ts_event;
	s->ts_ev.fd = -1;
	s->version = v;
	snprintf(s->name, sizeof(s->name), "%s", h->name);
	c->kind = CONN_CONTROL;
	c->sess = s;

	memset(&r, 0, sizeof(r));
	r.version = v;
	r.features = h->features & VTP_FEATURES;
	snprintf(r.name, sizeof(r.name), "%s", srv->cfg->name);
	if (vtd_auth_hello(c, m, &r) < 0)
		return;
	/* without a key, HELLO is the whole handshake */
	if (!srv->cfg->psk && !vtd_session_establish(c, m->hdr.reqid))
		return;
	vt_notice("#%u %s: client '%s', protocol version %u", c->id, c->peer,
		  s->name, v);
	vtd_send(c, buf, vtp_encode_hello_reply(buf, sizeof(buf),
						m->hdr.reqid, &r));
}

bool vtd_session_establish(struct vtd_conn *c, uint32_t reqid)
{
	struct vtd_server *srv = c->srv;

	if (srv->nsessions >= srv->cfg->max_clients) {
		vtd_send_error(c, reqid, EUSERS, "too many clients (at most %u)",
			       srv->cfg->max_clients);
		vtd_conn_close_after_flush(c);
		return false;
	}
	if (vtp_queue_resize(&c->q, VTD_CTRL_QUEUE, VTD_CTRL_FRAMES) < 0) {
		vtd_send_error(c, reqid, ENOMEM, "out of memory");
		vtd_conn_close_after_flush(c);
		return false;
	}
	c->sess->established = true;
	srv->nsessions++;
	return true;
}

static void vtd_attach(struct vtd_conn *c, struct vtp_msg *m)
{
	struct vtd_server *srv = c->srv;
	struct vtd_session *s = NULL;
	struct vtd_conn *o;
	size_t cap;

	for (o = srv->conns; o; o = o->next) {
		struct vtd_session *os = &o->session;

		if (o->dead || o->kind != CONN_CONTROL || !os->token_valid ||
		    !os->tuner || os->data)
			continue;
		if (vtd_token_equal(os->token, m->u.attach.token)) {
			s = os;
			break;
		}
	}
	if (!s) {
		vtd_send_error(c, m->hdr.reqid, ENOENT,
			       "DATA_ATTACH: unknown or used token");
		vtd_conn_close_after_flush(c);
		return;
	}
	if (!vtd_auth_attach(c, s, m))
		return;
	/* a frame holds at least one TS packet */
	cap = srv->cfg->ts_queue / (VTP_TS_HDR_LEN + VTP_TS_PACKET) + 64;
	if (vtp_queue_resize(&c->q, srv->cfg->ts_queue, cap) < 0) {
		vtd_send_error(c, m->hdr.reqid, ENOMEM, "out of memory");
		vtd_conn_close_after_flush(c);
		return;
	}
	s->token_valid = false;
	s->data = c;
	c->sess = s;
	c->kind = CONN_DATA;
	vt_info("#%u %s: data connection of #%u (tuner %u)", c->id, c->peer,
		s->ctl->id, s->tuner->info.index);
	vtd_send_ok(c, m->hdr.reqid);
	/* the OK is the last clear frame */
	if (srv->cfg->psk && !c->dead)
		vtd_conn_seal(c, s, m->u.attach.token);
}

static void vtd_keepalive(struct vtd_conn *c, struct vtp_msg *m)
{
	uint8_t buf[VTP_HDR_LEN + 8];

	vtd_send(c, buf, vtp_encode_keepalive_reply(buf, sizeof(buf),
						    m->hdr.reqid, m->u.stamp));
}

static void vtd_list(struct vtd_conn *c, struct vtp_msg *m)
{
	struct vtd_tuners *ts = c->srv->tuners;
	struct vtp_tuner_list *l;
	unsigned int i;

	l = calloc(1, sizeof(*l));
	if (!l) {
		vtd_send_error(c, m->hdr.reqid, ENOMEM, "out of memory");
		return;
	}
	for (i = 0; i < ts->num && i < VTP_MAX_TUNERS; i++) {
		struct vtd_tuner *t = ts->t[i];

		l->tuner[i] = t->info;
		l->tuner[i].index = i;
		l->tuner[i].flags = (t->owner && t->owner != c->sess) ||
				    t->nstreams ? VTP_TUNER_BUSY : 0;
	}
	l->num = i;
	vtd_send(c, c->srv->tsbuf, vtp_encode_tuner_list(c->srv->tsbuf,
							 VTP_MAX_FRAME,
							 m->hdr.reqid, l));
	free(l);
}

static void vtd_open(struct vtd_conn *c, struct vtp_msg *m)
{
	struct vtd_server *srv = c->srv;
	struct vtd_session *s = c->sess;
	unsigned int idx = m->u.index;
	struct vtp_open_reply r;
	uint8_t buf[VTP_HDR_LEN + 20];
	struct vtd_tuner *t;
	int err, fd;

	if (idx >= srv->tuners->num) {
		vtd_send_error(c, m->hdr.reqid, ENODEV,
			       "no tuner %u (this server has %u)", idx,
			       srv->tuners->num);
		return;
	}
	t = srv->tuners->t[idx];
	if (s->tuner) {
		vtd_send_error(c, m->hdr.reqid, EALREADY,
			       "this session has tuner %u open already",
			       s->tuner->info.index);
		return;
	}
	if (t->owner) {
		vtd_send_error(c, m->hdr.reqid, EBUSY,
			       "tuner %u (%s) is in use by client '%s' (%s)",
			       idx, t->where, t->owner->name,
			       t->owner->ctl->peer);
		return;
	}
	if (getrandom(s->token, sizeof(s->token), 0) != sizeof(s->token)) {
		vtd_send_error(c, m->hdr.reqid, EIO, "getrandom: %s",
			       strerror(errno));
		return;
	}
	if (t->nstreams) {
		/* SAT>IP sessions have it: one more stream of it */
		s->st.ops = &vtd_session_stream_ops;
		err = vtd_share_join(srv, &s->st, t);
		if (err < 0) {
			vtd_send_error(c, m->hdr.reqid, -err, "sharing tuner "
				       "%u (%s): %s", idx, t->where,
				       strerror(-err));
			return;
		}
		s->shared = true;
		goto opened;
	}
	err = t->ops->open(t);
	if (err < 0) {
		vtd_send_error(c, m->hdr.reqid, -err, "opening tuner %u (%s): %s",
			       idx, t->where, strerror(-err));
		return;
	}
	fd = t->ops->get_fd(t);
	if (fd >= 0 && (err = vtd_server_watch(srv, &s->ts_ev, fd, true)) < 0) {
		t->ops->close(t);
		vtd_send_error(c, m->hdr.reqid, -err, "epoll_ctl: %s",
			       strerror(-err));
		return;
	}
	t->owner = s;
	memset(&t->sec, 0, sizeof(t->sec));
	t->tuning.valid = false;
opened:
	s->tuner = t;
	s->token_valid = true;
	s->seq = 0;
	s->status_sent = false;
	s->npids = 0;
	s->ts_packets = s->ts_frames = s->drop_frames = s->drop_packets = 0;
	s->unattached_packets = s->drops_logged = 0;
	vt_notice("#%u %s: tuner %u (%s, %s) opened%s", c->id, c->peer, idx,
		  t->where, t->info.name, s->shared ? ", shared with SAT>IP "
		  "sessions" : "");
	memset(&r, 0, sizeof(r));
	r.index = idx;
	memcpy(r.token, s->token, sizeof(r.token));
	vtd_send(c, buf, vtp_encode_open_reply(buf, sizeof(buf), m->hdr.reqid,
					       &r));
}

/*
 * A TUNE on a tuner shared with SAT>IP sessions: the same transponder
 * joins them (no retune), another one is refused; the SEC calls of the
 * session (kept, not applied: vtd_frontend_op()) are part of it.
 */
static bool vtd_tune_shared(struct vtd_conn *c, struct vtp_msg *m)
{
	struct vtd_session *s = c->sess;
	struct vtd_tuner *t = s->tuner, tmp;
	const struct vtp_tune *tu = &m->u.tune;
	struct vtd_tuning k;

	if (!s->shared || t->nstreams < 2)
		return false;
	tmp = *t;
	tmp.sec = s->sec;
	vtd_tuning_of(&k, &tmp, tu->props, tu->num);
	if (!vtd_tuning_same(&k, &t->tuning)) {
		vtd_send_error(c, m->hdr.reqid, EBUSY, "tuner %u (%s) is "
			       "shared with %u SAT>IP session(s) on another "
			       "transponder", t->info.index, t->where,
			       t->nstreams - 1);
		return true;
	}
	s->seq = tu->seq;
	s->tune_ns = vt_now_ns();
	s->frame_pkts = VTD_TS_FIRST_PKTS;
	if (s->data)
		vtd_data_discard(s->data);
	vtd_send_ok(c, m->hdr.reqid);
	if (!c->dead)
		vtd_push_status(s, vt_now_ns());
	vtd_server_status_fast(c->srv);
	vt_debug("#%u: tune seq %u: the shared tuner's transponder", c->id,
		 tu->seq);
	return true;
}

static void vtd_tune(struct vtd_conn *c, struct vtp_msg *m)
{
	struct vtd_session *s = c->sess;
	struct vtd_tuner *t = s->tuner;
	const struct vtp_tune *tu = &m->u.tune;
	size_t dropped = 0;
	int err;

	if (vtd_tune_shared(c, m))
		return;
	err = t->ops->tune(t, tu->props, tu->num);
	vtd_share_tuned(t, tu->props, tu->num, err);
	/* The old tune is gone either way (dvb: DTV_CLEAR). */
	s->seq = tu->seq;
	s->tune_ns = vt_now_ns();
	s->frame_pkts = VTD_TS_FIRST_PKTS;
	if (t->ops->flush_ts)
		t->ops->flush_ts(t);
	if (s->data)
		dropped = vtd_data_discard(s->data);
	if (err)
		vtd_send_error(c, m->hdr.reqid, -err, "tune: %s",
			       strerror(-err));
	else
		vtd_send_ok(c, m->hdr.reqid);
	if (!c->dead)
		vtd_push_status(s, vt_now_ns());
	vtd_server_status_fast(c->srv);
	vt_debug("#%u: tune seq %u: %u properties: %s; %zu queued TS frames "
		 "discarded", c->id, tu->seq, tu->num,
		 err ? strerror(-err) : "ok", dropped);
}

static void vtd_set_pids(struct vtd_conn *c, struct vtp_msg *m)
{
	struct vtd_session *s = c->sess;
	struct vtd_tuner *t = s->tuner;
	const struct vtp_pids *p = &m->u.pids;
	char missing[160];
	size_t i, n = 0;
	int err;

	memcpy(s->pids, p->pid, p->num * sizeof(p->pid[0]));
	qsort(s->pids, p->num, sizeof(s->pids[0]), vtd_cmp_u16);
	for (i = 0; i < p->num; i++)
		if (!n || s->pids[n - 1] != s->pids[i])
			s->pids[n++] = s->pids[i];
	s->npids = n;
	missing[0] = 0;
	if (s->shared)
		err = vtd_session_stream_pids(s, missing, sizeof(missing));
	else
		err = t->ops->set_pids(t, s->pids, n, missing, sizeof(missing));
	vt_debug("#%u: %zu PIDs%s: %s", c->id, n,
		 n && s->pids[n - 1] == VTP_PID_FULL_TS ? " (full TS)" : "",
		 err ? strerror(-err) : "ok");
	if (err) {
		vt_warn("#%u: %s: %s not delivered: %s", c->id, t->where,
			missing[0] ? missing : "PIDs", strerror(-err));
		vtd_send_error(c, m->hdr.reqid, -err, "%s not delivered: %s",
			       missing[0] ? missing : "PIDs", strerror(-err));
	} else
		vtd_send_ok(c, m->hdr.reqid);
}

static void vtd_frontend_op(struct vtd_conn *c, struct vtp_msg *m)
{
	struct vtd_session *s = c->sess;
	struct vtd_tuner *t = s->tuner;
	/* shared with SAT>IP sessions: kept for the next TUNE only */
	bool keep = s->shared && t->nstreams > 1;
	const char *what;
	int err = 0;

	switch (m->hdr.type) {
	case VTP_SET_TONE:
		what = "FE_SET_TONE";
		s->sec.tone = m->u.value;
		if (!keep)
			err = vtd_share_sec_tone(t, m->u.value);
		break;
	case VTP_SET_VOLTAGE:
		what = "FE_SET_VOLTAGE";
		s->sec.voltage = m->u.value;
		if (!keep)
			err = vtd_share_sec_voltage(t, m->u.value);
		break;
	case VTP_ENABLE_HIGH_VOLTAGE:
		what = "FE_ENABLE_HIGH_LNB_VOLTAGE";
		if (!keep)
			err = t->ops->enable_high_voltage(t, m->u.value);
		break;
	case VTP_DISEQC_BURST:
		what = "FE_DISEQC_SEND_BURST";
		if (!keep)
			err = t->ops->diseqc_burst(t, m->u.value);
		break;
	case VTP_DISEQC_MASTER: {
		char hex[3 * VTP_DISEQC_MAX + 1] = "";
		unsigned int i;

		for (i = 0; i < m->u.diseqc.len && i < VTP_DISEQC_MAX; i++)
			snprintf(hex + 3 * i, sizeof(hex) - 3 * i, " %02x",
				 m->u.diseqc.msg[i]);
		vt_info("#%u: tuner %u: FE_DISEQC_SEND_MASTER_CMD%s%s", c->id,
			 t->info.index, hex, keep ? " (kept: tuner shared)" : "");
		s->sec.diseqc_len = m->u.diseqc.len;
		memcpy(s->sec.diseqc, m->u.diseqc.msg, m->u.diseqc.len);
		if (!keep)
			err = vtd_share_sec_diseqc(t, m->u.diseqc.msg,
						   m->u.diseqc.len);
		if (err)
			vtd_send_error(c, m->hdr.reqid, -err,
				       "FE_DISEQC_SEND_MASTER_CMD (%u bytes): %s",
				       m->u.diseqc.len, strerror(-err));
		else
			vtd_send_ok(c, m->hdr.reqid);
		return;
	}
	default:
		return;
	}
	vt_info("#%u: tuner %u: %s %u%s", c->id, t->info.index, what, m->u.value,
		keep ? " (kept: tuner shared)" : "");
	if (err)
		vtd_send_error(c, m->hdr.reqid, -err, "%s %u: %s", what,
			       m->u.value, strerror(-err));
	else
		vtd_send_ok(c, m->hdr.reqid);
}

static void vtd_control(struct vtd_conn *c, struct vtp_msg *m)
{
	uint16_t type = m->hdr.type;
	uint32_t reqid = m->hdr.reqid;

	switch (type) {
	case VTP_AUTH:
		vtd_send_error(c, reqid, EPROTO, "AUTH: not asked for");
		return;
	case VTP_HELLO:
		vtd_send_error(c, reqid, EPROTO, "HELLO: session already open");
		return;
	case VTP_DATA_ATTACH:
		vtd_send_error(c, reqid, EPROTO,
			       "DATA_ATTACH on the control connection");
		return;
	case VTP_KEEPALIVE:
		vtd_keepalive(c, m);
		return;
	case VTP_LIST_TUNERS:
		vtd_list(c, m);
		return;
	case VTP_OPEN_TUNER:
		vtd_open(c, m);
		return;
	default:
		break;
	}
	if (!c->sess->tuner) {
		vtd_send_error(c, reqid, ENOTCONN, "%s: no tuner open",
			       vtp_type_name(type));
		return;
	}
	switch (type) {
	case VTP_CLOSE_TUNER:
		vtd_close_tuner(c->sess);
		vtd_send_ok(c, reqid);
		break;
	case VTP_TUNE:
		vtd_tune(c, m);
		break;
	case VTP_SET_PIDS:
		vtd_set_pids(c, m);
		break;
	default:
		vtd_frontend_op(c, m);
		break;
	}
}

/*
 * Before its handshake is complete a connection may send nothing but the
 * handshake: HELLO or DATA_ATTACH first, then AUTH with a key.  Anything
 * else closes it, with a warning naming the peer's address.
 */
static void vtd_handshake_frame(struct vtd_conn *c, struct vtp_msg *m)
{
	uint16_t type = m->hdr.type;

	if (c->kind == CONN_NEW && type == VTP_HELLO)
		vtd_hello(c, m);
	else if (c->kind == CONN_NEW && type == VTP_DATA_ATTACH)
		vtd_attach(c, m);
	else if (c->kind == CONN_CONTROL)
		vtd_auth_control(c, m);
	else
		vtd_conn_refuse(c, vtp_is_request(type) ? m->hdr.reqid : 0,
				EPROTO, "%s before the handshake",
				vtp_type_name(type));
}

void vtd_handle_frame(struct vtd_conn *c, struct vtp_msg *m)
{
	uint16_t type = m->hdr.type;

	/* -vvv: every frame (logged at LOG_DEBUG, a valid syslog level) */
	if (vt_log_level() > LOG_DEBUG)
		vt_debug("#%u: <- %s reqid %u len %u", c->id,
			 vtp_type_name(type), m->hdr.reqid, m->hdr.len);
	if (vtd_conn_pending(c)) {
		vtd_handshake_frame(c, m);
		return;
	}
	if (!vtp_is_request(type)) {
		if (type == VTP_ERROR)
			vt_info("#%u %s: peer error %u for reqid %u: %s", c->id,
				c->peer, m->u.error.err, m->u.error.reqid,
				m->u.error.msg);
		else if (type != VTP_KEEPALIVE_REPLY)
			vt_debug("#%u: unexpected %s dropped", c->id,
				 vtp_type_name(type));
		return;
	}
	switch (c->kind) {
	case CONN_NEW:		/* pending: not here */
		break;
	case CONN_DATA:
		if (type == VTP_KEEPALIVE)
			vtd_keepalive(c, m);
		else
			vtd_send_error(c, m->hdr.reqid, EPROTO,
				       "%s on the data connection",
				       vtp_type_name(type));
		break;
	case CONN_CONTROL:
		vtd_control(c, m);
		break;
	}
}
