// SPDX-License-Identifier: GPL-2.0
/*
 * remote_vtp.c - vtunerd as vtunerc's remote: a session is a control
 * and a data connection speaking VTP (docs/protocol.md), and restores the
 * tuner's state behind the applications' back when it starts.
 *
 * Session states: CONNECTING -> HELLO (HELLO and LIST_TUNERS sent)
 * [-> AUTH (with a key: our proof sent)] -> LIST (waiting for TUNER_LIST)
 * -> OPEN (OPEN_TUNER sent) -> READY (tuner open; the data connection
 * attaches and the replay of the last SEC commands, TUNE and SET_PIDS
 * runs, one SEC command at a time).  Between sessions the remote waits
 * for its reconnection time, with backoff.
 *
 * Until the handshake is complete (HELLO_REPLY without a key, a verified
 * AUTH_REPLY with one: s->established), anything else the server sends
 * ends the session; STATUS reaches the core only in READY.  With a key
 * every frame after AUTH (after DATA_ATTACH) is sealed, and every frame
 * after AUTH_REPLY (after DATA_ATTACH's OK) must open: one that does not
 * ends the session (docs/protocol.md, "Session protection").
 *
 * A handler that finds the session broken marks it (sess_lost()); every
 * handler after it sees s->lost and stops; the session ends at the end of
 * the loop round (vtp_timers()), so that no descriptor changes under the
 * loop.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"
#include "client/net.h"
#include "client/props.h"
#include "client/remote.h"
#include "common/log.h"

#define MS			1000000ULL
#define SEC			1000000000ULL
#define BACKOFF_MIN		(200 * MS)
#define BACKOFF_MAX		(5 * SEC)
#define HANDSHAKE_TIMEOUT	(5 * SEC)
#define KEEPALIVE_PERIOD	(1 * SEC)
#define DEAD_TIMEOUT		(3 * SEC)	/* nothing received: dead */
#define CTRL_DEAD_TIMEOUT	(12 * SEC)	/* even with TS flowing */
#define STABLE_SESSION		(10 * SEC)	/* resets the backoff */
#define MAX_REQS		64
#define CTRL_WQUEUE		(256 * 1024)
#define DATA_WQUEUE		(4 * 1024)

enum state { S_CONNECTING, S_HELLO, S_AUTH, S_LIST, S_OPEN, S_READY };

static const char *const state_names[] = {
	"connecting", "hello", "authentication", "tuner list", "open", "ready"
};

struct req {
	uint32_t id;		/* 0: free */
	uint16_t type;
};

/* One session: from the connect to its loss. */
struct sess {
	struct vc_conn cc, dc;
	enum state st;
	bool lost;		/* ends at the end of the loop round */
	char why[256];		/* the first reason it broke */
	bool established;	/* the handshake is complete */
	bool attached;		/* DATA_ATTACH answered OK */
	uint64_t started, hs_deadline, ready_at, next_keepalive;
	uint64_t awake_since;	/* silence before it does not count */
	struct vtp_auth_ctx actx;	/* with --psk-file: the handshake */
	struct req reqs[MAX_REQS];
	/* the state restored, one SEC command at a time */
	struct vc_sec_op replay[VC_SEC_REPLAY_MAX];
	int nreplay, replay_pos;	/* replay_pos -1: done */
	uint32_t replay_reqid;
	/* where pollfds() put the connections: their fds then */
	int cc_fd, dc_fd;
};

struct remote_vtp {
	struct vc_remote r;
	struct sess *s;		/* NULL between sessions */
	struct addrinfo *ai, *ai_cur;
	char addr[80];
	uint64_t reconnect_at, backoff, lost_at;
	bool fail_logged, ever_ready;
	char server_name[VTP_PEER_NAME_MAX + 1];
	/* the remote tuner */
	int index;		/* opened index, -1 before the first OPEN */
	struct vtp_tuner tuner;
	/* the server's answer to the last failed SET_PIDS, "" when none */
	char pids_error[VTP_ERRMSG_MAX + 64];
	/* monitoring */
	uint64_t rtt_sum, rtt_n, data_rtt, sessions, stale_frames;
	double rtt_ms;
};

#define RV(r) ((struct remote_vtp *)(r))

static struct vtp_msg msg;	/* about 16 KiB: not on the stack */

static void sess_lost(struct sess *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sess_lost(struct sess *s, const char *fmt, ...)
{
	va_list ap;

	if (s->lost)
		return;
	s->lost = true;
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
}

/* ---- requests ----------------------------------------------------------- */

static void req_add(struct sess *s, uint32_t id, uint16_t type)
{
	unsigned i;

	for (i = 0; i < MAX_REQS; i++)
		if (!s->reqs[i].id) {
			s->reqs[i].id = id;
			s->reqs[i].type = type;
			return;
		}
	/* full: forget the oldest slot, its reply just loses its name */
	memmove(s->reqs, s->reqs + 1, sizeof(s->reqs) - sizeof(s->reqs[0]));
	s->reqs[MAX_REQS - 1].id = id;
	s->reqs[MAX_REQS - 1].type = type;
}

/* The type of request id (0 if unknown), forgetting it. */
static uint16_t req_take(struct sess *s, uint32_t id)
{
	unsigned i;
	uint16_t type;

	for (i = 0; i < MAX_REQS && id; i++)
		if (s->reqs[i].id == id) {
			type = s->reqs[i].type;
			s->reqs[i].id = 0;
			return type;
		}
	return 0;
}

/* reqid or 0; a full queue or a write error ends the session. */
static uint32_t sent(struct sess *s, int ret, uint16_t type)
{
	if (ret > 0) {
		req_add(s, ret, type);
		return ret;
	}
	sess_lost(s, "sending %s: %s", vtp_type_name(type), strerror(-ret));
	return 0;
}

/* Ready for the applications' requests: tuner open, replay done. */
static bool live(const struct sess *s)
{
	return s && !s->lost && s->st == S_READY && s->replay_pos < 0;
}

static uint32_t send_sec(struct sess *s, const struct vc_sec_op *op)
{
	if (op->type == VTP_DISEQC_MASTER)
		return sent(s, net_diseqc(&s->cc, &op->d), op->type);
	return sent(s, net_sec_value(&s->cc, op->type, op->value), op->type);
}

static void send_tune(struct remote_vtp *rv, struct sess *s)
{
	const struct vtp_tune *t = &rv->r.want->tune;
	char desc[96];

	if (!sent(s, net_tune(&s->cc, t), VTP_TUNE))
		return;
	props_describe(t, desc, sizeof(desc));
	vt_debug("TUNE seq %u: %s (%u properties)", t->seq, desc, t->num);
}

static void send_pids(struct remote_vtp *rv, struct sess *s)
{
	const struct vtp_pids *p = rv->r.want->pids;

	if (!sent(s, net_set_pids(&s->cc, p), VTP_SET_PIDS))
		return;
	vt_debug("SET_PIDS: %u PIDs%s", p->num,
		 p->num == 1 && p->pid[0] == VTP_PID_FULL_TS ?
		 " (full TS)" : "");
}

/*
 * Replay, one SEC command at a time (each after the answer to the
 * previous one, as the applications' own sequence ran), then the last
 * tune and the PID set.
 */
static void replay_step(struct remote_vtp *rv, struct sess *s)
{
	const struct vc_wanted *w = rv->r.want;

	if (s->replay_pos < 0 || s->lost)
		return;
	if (s->replay_pos < s->nreplay) {
		s->replay_reqid = send_sec(s, &s->replay[s->replay_pos]);
		return;
	}
	s->replay_pos = -1;
	s->replay_reqid = 0;
	if (w->have_tune)
		send_tune(rv, s);
	if (w->have_pids)
		send_pids(rv, s);
}

static void replay_start(struct remote_vtp *rv, struct sess *s)
{
	const struct vc_wanted *w = rv->r.want;

	s->nreplay = vc_sec_replay(&w->sec, s->replay);
	if (s->nreplay || w->have_tune || w->have_pids)
		vt_debug("restoring %d SEC command(s)%s%s", s->nreplay,
			 w->have_tune ? ", the tune" : "",
			 w->have_pids ? ", the PIDs" : "");
	s->replay_pos = 0;
	replay_step(rv, s);
}

/* ---- sessions ----------------------------------------------------------- */

static void sess_free(struct sess *s)
{
	conn_free(&s->cc);
	conn_free(&s->dc);
	free(s);
}

/* The end of a session marked lost: logged, freed, reconnection set. */
static void sess_end(struct remote_vtp *rv, uint64_t now)
{
	struct sess *s = rv->s;

	rv->s = NULL;
	if (s->st == S_READY) {
		vt_notice("connection to %s (tuner %d) lost: %s; reconnecting",
			  rv->addr, rv->index, s->why);
		if (now - s->ready_at >= STABLE_SESSION)
			rv->backoff = BACKOFF_MIN;
		rv->lost_at = now;
	} else if (!rv->fail_logged) {
		vt_notice("%s: %s (while %s); retrying every %.1f..%.0f s",
			  rv->addr[0] ? rv->addr : rv->r.o->host, s->why,
			  state_names[s->st], BACKOFF_MIN / 1e9,
			  BACKOFF_MAX / 1e9);
		rv->fail_logged = true;
	} else {
		vt_debug("%s: %s (while %s)", rv->addr, s->why,
			 state_names[s->st]);
	}
	sess_free(s);
	rv->reconnect_at = now + rv->backoff;
	rv->backoff = rv->backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX :
		      rv->backoff * 2;
	/* whatever the state: no signal without a session */
	rv->r.ev->lost(rv->r.arg);
}

/* A failure before any session exists: as if one had been lost. */
static void start_failed(struct remote_vtp *rv, struct sess *s, uint64_t now,
			 const char *why)
{
	sess_lost(s, "%s", why);
	rv->s = s;
	sess_end(rv, now);
}

static void sess_start(struct remote_vtp *rv, uint64_t now)
{
	struct sess *s = calloc(1, sizeof(*s));
	char why[300];
	int ret;

	if (!s || conn_init(&s->cc, "control", CTRL_WQUEUE) ||
	    conn_init(&s->dc, "data", DATA_WQUEUE)) {
		vt_err("out of memory");
		if (s) {
			conn_free(&s->cc);
			conn_free(&s->dc);
			free(s);
		}
		rv->reconnect_at = now + BACKOFF_MAX;
		return;
	}
	s->replay_pos = -1;
	s->st = S_CONNECTING;
	s->started = now;
	s->hs_deadline = now + HANDSHAKE_TIMEOUT;
	if (!rv->ai && net_resolve(rv->r.o->host, rv->r.o->port,
				   &rv->ai) < 0) {
		rv->addr[0] = 0;
		snprintf(why, sizeof(why), "cannot resolve %s",
			 rv->r.o->host);
		start_failed(rv, s, now, why);
		return;
	}
	rv->ai_cur = rv->ai_cur && rv->ai_cur->ai_next ? rv->ai_cur->ai_next :
		     rv->ai;
	net_addr_str(rv->ai_cur->ai_addr, rv->ai_cur->ai_addrlen, rv->addr,
		     sizeof(rv->addr));
	vt_debug("connecting to %s", rv->addr);
	ret = conn_start(&s->cc, rv->ai_cur);
	if (ret < 0) {
		/* the other addresses are tried next time */
		snprintf(why, sizeof(why), "connect: %s", strerror(-ret));
		start_failed(rv, s, now, why);
		return;
	}
	rv->s = s;
}

static void on_connected(struct remote_vtp *rv, struct sess *s)
{
	s->st = S_HELLO;
	s->next_keepalive = vt_now_ns() + KEEPALIVE_PERIOD;
	if (rv->r.o->psk) {
		/* LIST_TUNERS once both sides have proved the key */
		vtp_auth_nonce(s->actx.nc);
		sent(s, net_hello_nonce(&s->cc, "vtunerc", s->actx.nc,
					rv->r.o->seal_ocb ?
					VTP_FEAT_SEAL_OCB : 0),
		     VTP_HELLO);
		return;
	}
	if (sent(s, net_hello(&s->cc, "vtunerc"), VTP_HELLO))
		sent(s, net_list_tuners(&s->cc), VTP_LIST_TUNERS);
}

/* HELLO_REPLY with --psk-file: send our proof. */
static void auth_start(struct remote_vtp *rv, struct sess *s,
		       const struct vtp_hello_reply *r)
{
	const struct vtp_psk *psk = rv->r.o->psk;
	uint8_t mac[VTP_MAC_LEN];
	struct vtp_keys keys;
	int ret;

	if (!(r->features & VTP_FEAT_AUTH) || !r->has_nonce) {
		sess_lost(s, "authentication failed: the server has no key "
			  "(or does not know authentication); refused");
		return;
	}
	if (!(r->features & VTP_FEAT_SEAL)) {
		sess_lost(s, "the server does not protect the session (no "
			  "VTP_FEAT_SEAL: an older vtunerd?); refused");
		return;
	}
	if ((r->features & VTP_FEAT_SEAL_OCB) && !rv->r.o->seal_ocb) {
		sess_lost(s, "the server granted AES-256-OCB, which this "
			  "client did not ask for; refused");
		return;
	}
	memcpy(s->actx.ns, r->nonce, VTP_NONCE_LEN);
	s->actx.version = r->version;
	s->actx.features = r->features;
	snprintf(s->actx.cname, sizeof(s->actx.cname), "vtunerc");
	snprintf(s->actx.sname, sizeof(s->actx.sname), "%s", r->name);
	vtp_auth_proof(psk, VTP_AUTH_CLIENT, &s->actx, mac);
	s->st = S_AUTH;
	if (sent(s, net_auth(&s->cc, mac), VTP_AUTH)) {
		/* AUTH was the last clear frame we send */
		vtp_auth_keys(psk, &s->actx, NULL, &keys);
		ret = conn_seal(&s->cc, &keys);
		vtp_keys_wipe(&keys);
		if (ret < 0) {
			sess_lost(s, "sealing the session with %s: %s",
				  vtp_cipher_name(vtp_auth_cipher(&s->actx)),
				  strerror(-ret));
			return;
		}
	}
}

/* AUTH_REPLY: the server's proof. */
static void on_auth_reply(struct remote_vtp *rv, struct sess *s,
			  const struct vtp_auth *a)
{
	if (!vtp_auth_verify(rv->r.o->psk, VTP_AUTH_SERVER, &s->actx,
			     a->mac)) {
		sess_lost(s, "authentication failed: the server could not "
			  "prove the key (wrong key, or not a genuine "
			  "server); refused");
		return;
	}
	vt_info("%s: server '%s' authenticated; session sealed with %s",
		rv->addr, rv->server_name,
		vtp_cipher_name(vtp_auth_cipher(&s->actx)));
	/* AUTH_REPLY was the server's last clear frame */
	conn_seal_rx(&s->cc);
	s->established = true;
	s->st = S_LIST;
	sent(s, net_list_tuners(&s->cc), VTP_LIST_TUNERS);
}

static bool has_all_delsys(const struct vc_opts *o, const struct vtp_tuner *t)
{
	int i;

	for (i = 0; i < o->num_delsys; i++)
		if (!memchr(t->delsys, o->delsys[i], t->num_delsys))
			return false;
	return true;
}

static void log_tuner(const struct vtp_tuner *t)
{
	char ds[96] = "";
	size_t off = 0;
	unsigned i;

	for (i = 0; i < t->num_delsys && off < sizeof(ds); i++)
		off += snprintf(ds + off, sizeof(ds) - off, "%s%s",
				i ? "," : "", vt_delsys_name(t->delsys[i]));
	vt_debug("  tuner %u: '%s' %s%s", t->index, t->name, ds,
		 t->flags & VTP_TUNER_BUSY ? " (busy)" : "");
}

static void on_tuner_list(struct remote_vtp *rv, struct sess *s,
			  const struct vtp_tuner_list *l)
{
	const struct vc_opts *o = rv->r.o;
	const struct vtp_tuner *pick = NULL;
	int want = o->tuner >= 0 ? o->tuner : rv->index;
	unsigned i;

	vt_debug("%s has %u tuner(s)", rv->addr, l->num);
	for (i = 0; i < l->num; i++)
		log_tuner(&l->tuner[i]);
	for (i = 0; i < l->num && !pick; i++) {
		const struct vtp_tuner *t = &l->tuner[i];

		if (want >= 0 ? t->index == want :
		    !(t->flags & VTP_TUNER_BUSY) && has_all_delsys(o, t))
			pick = t;
	}
	if (!pick) {
		if (want >= 0)
			sess_lost(s, "the server has no tuner %d", want);
		else
			sess_lost(s, "no free tuner%s", o->num_delsys ?
				  " with the delivery systems asked" : "");
		return;
	}
	if (want >= 0 && o->num_delsys && !has_all_delsys(o, pick))
		vt_warn("tuner %u lacks some of the delivery systems asked",
			pick->index);
	rv->tuner = *pick;
	s->st = S_OPEN;
	sent(s, net_open_tuner(&s->cc, pick->index), VTP_OPEN_TUNER);
}

static void on_open_reply(struct remote_vtp *rv, struct sess *s,
			  const struct vtp_open_reply *r)
{
	const struct vtp_psk *psk = rv->r.o->psk;
	uint64_t now = vt_now_ns();
	int ret;

	rv->index = r->index;
	s->st = S_READY;
	s->ready_at = now;
	rv->fail_logged = false;
	if (rv->ever_ready)
		vt_notice("reconnected to %s (%s), tuner %u '%s' after %.1f s",
			  rv->addr, rv->server_name, r->index, rv->tuner.name,
			  (now - rv->lost_at) / 1e9);
	else
		vt_notice("connected to %s (%s), tuner %u '%s'", rv->addr,
			  rv->server_name, r->index, rv->tuner.name);
	rv->ever_ready = true;
	rv->sessions++;
	rv->r.ev->ready(rv->r.arg, &rv->tuner);
	ret = conn_start(&s->dc, rv->ai_cur);
	if (ret < 0) {
		sess_lost(s, "data connection: %s", strerror(-ret));
		return;
	}
	s->dc.next_reqid = 0x40000000;	/* apart from the control ids */
	/* queued now, flushed when the connect completes */
	if (psk) {
		uint8_t mac[VTP_MAC_LEN];
		struct vtp_keys keys;

		vtp_auth_attach_mac(psk, &s->actx, r->token, mac);
		if (!sent(s, net_data_attach_mac(&s->dc, r->token, mac),
			  VTP_DATA_ATTACH))
			return;
		/* DATA_ATTACH was the last clear frame we send there */
		vtp_auth_keys(psk, &s->actx, r->token, &keys);
		ret = conn_seal(&s->dc, &keys);
		vtp_keys_wipe(&keys);
		if (ret < 0) {
			sess_lost(s, "sealing the data connection: %s",
				  strerror(-ret));
			return;
		}
	} else if (!sent(s, net_data_attach(&s->dc, r->token),
			 VTP_DATA_ATTACH)) {
		return;
	}
	s->hs_deadline = now + HANDSHAKE_TIMEOUT;
	replay_start(rv, s);
}

/*
 * The applications' stream lacks PIDs while a SET_PIDS has failed: said
 * once in the log when it starts (and when it ends), and all along, with
 * the PIDs missing now, in the status file for vtunerctl.
 */
static void pids_result(struct remote_vtp *rv, uint32_t err, const char *text)
{
	char now[sizeof(rv->pids_error)];
	bool has_text = strstr(text, strerror(err)) != NULL;

	if (!err) {
		if (rv->pids_error[0])
			vt_info("server: every PID asked for is delivered again");
		rv->pids_error[0] = 0;
		vt_debug("SET_PIDS: OK");
		return;
	}
	snprintf(now, sizeof(now), "%s%s%s", text[0] ? text : "PIDs",
		 has_text ? "" : ": ", has_text ? "" : strerror(err));
	if (!rv->pids_error[0])
		vt_err("server: %s (%u PIDs asked for)", now,
		       rv->r.want->pids->num);
	else
		vt_debug("server: %s (%u PIDs asked for)", now,
			 rv->r.want->pids->num);
	snprintf(rv->pids_error, sizeof(rv->pids_error), "%s", now);
}

/* OK or ERROR (err != 0) for request id. */
static void on_reply(struct remote_vtp *rv, struct sess *s, uint32_t id,
		     uint32_t err, const char *text)
{
	uint16_t type = req_take(s, id);
	const char *tname = type ? vtp_type_name(type) : "request";

	if (err && (type == VTP_HELLO || type == VTP_AUTH ||
		    type == VTP_LIST_TUNERS ||
		    type == VTP_OPEN_TUNER || type == VTP_DATA_ATTACH)) {
		sess_lost(s, "%s refused: %s%s%s", tname, strerror(err),
			  text[0] ? ": " : "", text);
		return;
	}
	if (type == VTP_SET_PIDS)
		pids_result(rv, err, text);
	else if (err)
		vt_warn("server: %s failed: %s%s%s", tname, strerror(err),
			text[0] ? ": " : "", text);
	else
		vt_debug("%s: OK", tname);
	if (type == VTP_DATA_ATTACH && !err) {
		/* the server's last clear frame on the data connection */
		conn_seal_rx(&s->dc);
		s->attached = true;
		return;
	}
	if (s->replay_pos >= 0 && id == s->replay_reqid) {
		s->replay_pos++;
		replay_step(rv, s);
		return;
	}
	rv->r.ev->answered(rv->r.arg, id);
}

static void on_keepalive_reply(struct remote_vtp *rv, struct sess *s,
			       struct vc_conn *c, uint64_t stamp)
{
	uint64_t now = vt_now_ns(), rtt = now > stamp ? now - stamp : 0;

	if (c == &s->dc) {
		rv->data_rtt = rtt;
		return;
	}
	rv->rtt_sum += rtt;
	rv->rtt_n++;
}

static void on_ts(struct remote_vtp *rv, const struct vtp_ts *ts)
{
	const struct vc_wanted *w = rv->r.want;

	if (!w->have_tune || ts->seq != w->tune.seq) {
		rv->stale_frames++;	/* an old tune's: never delivered */
		return;
	}
	rv->r.ev->ts(rv->r.arg, ts->data, ts->len);
}

/*
 * Before the handshake is complete only its next frame is taken from the
 * server (and an ERROR, which ends the session): a STATUS or anything
 * else from a server that has not proved the key ends it.
 */
static bool handshake_frame(const struct sess *s, const struct vc_conn *c,
			    uint16_t type)
{
	return c == &s->cc &&
	       ((type == VTP_HELLO_REPLY && s->st == S_HELLO) ||
		(type == VTP_AUTH_REPLY && s->st == S_AUTH) ||
		type == VTP_ERROR);
}

/* The server broke the handshake with a frame of type. */
static void handshake_broken(struct remote_vtp *rv, struct sess *s,
			     const char *what, uint16_t type)
{
	sess_lost(s, "%s%s before the server %s; refused", what,
		  vtp_type_name(type), rv->r.o->psk ? "proved the key" :
		  "answered HELLO");
}

/* One decoded frame m from connection c of session s. */
static void on_frame(struct remote_vtp *rv, struct sess *s, struct vc_conn *c,
		     const struct vtp_msg *m)
{
	const struct vc_wanted *w = rv->r.want;

	c->last_rx = vt_now_ns();
	if (!s->established && !handshake_frame(s, c, m->hdr.type)) {
		handshake_broken(rv, s, "", m->hdr.type);
		return;
	}
	switch (m->hdr.type) {
	case VTP_HELLO_REPLY:
		if (c != &s->cc || s->st != S_HELLO)
			break;
		req_take(s, m->hdr.reqid);
		snprintf(rv->server_name, sizeof(rv->server_name), "%s",
			 m->u.hello_reply.name);
		vt_debug("%s: server '%s', protocol version %u", rv->addr,
			 rv->server_name, m->u.hello_reply.version);
		if (rv->r.o->psk) {
			auth_start(rv, s, &m->u.hello_reply);
			return;
		}
		s->established = true;
		s->st = S_LIST;
		return;
	case VTP_AUTH_REPLY:
		if (c != &s->cc || s->st != S_AUTH)
			break;
		req_take(s, m->hdr.reqid);
		on_auth_reply(rv, s, &m->u.auth);
		return;
	case VTP_TUNER_LIST:
		if (c != &s->cc || s->st != S_LIST)
			break;
		req_take(s, m->hdr.reqid);
		on_tuner_list(rv, s, &m->u.tuners);
		return;
	case VTP_OPEN_REPLY:
		if (c != &s->cc || s->st != S_OPEN)
			break;
		req_take(s, m->hdr.reqid);
		on_open_reply(rv, s, &m->u.open_reply);
		return;
	case VTP_OK:
		on_reply(rv, s, m->hdr.reqid, 0, "");
		return;
	case VTP_ERROR:
		on_reply(rv, s, m->u.error.reqid ? m->u.error.reqid :
			 m->hdr.reqid, m->u.error.err, m->u.error.msg);
		return;
	case VTP_KEEPALIVE:
		if (net_keepalive_reply(c, m->hdr.reqid, m->u.stamp) != 0)
			sess_lost(s, "keepalive reply failed");
		return;
	case VTP_KEEPALIVE_REPLY:
		on_keepalive_reply(rv, s, c, m->u.stamp);
		return;
	case VTP_STATUS:
		/* another tune's, before any tune, or without a tuner open */
		if (c == &s->cc && s->st == S_READY && w->have_tune &&
		    m->u.status.seq == w->tune.seq)
			rv->r.ev->status(rv->r.arg, &m->u.status);
		return;
	case VTP_TS_DATA:
		if (c == &s->dc)
			on_ts(rv, &m->u.ts);
		return;
	default:
		break;
	}
	vt_debug("%s connection: unexpected %s dropped", c->what,
		 vtp_type_name(m->hdr.type));
}

/* A frame the reader refused (ret < 0): true if the session goes on. */
static bool bad_frame(struct remote_vtp *rv, struct sess *s, struct vc_conn *c,
		      int ret)
{
	if (ret == -EKEYREJECTED) {
		sess_lost(s, "%s connection: %s", c->what,
			  msg.hdr.type == VTP_SEALED ?
			  "a frame did not open (changed, replayed, "
			  "reordered, dropped or injected on the way)" :
			  "an unprotected frame in a protected session "
			  "(injected on the way?)");
		return false;
	}
	if (ret != -ENOTSUP && ret != -EPROTO) {
		sess_lost(s, "%s connection: %s", c->what,
			  ret == -EBADMSG ? "stream out of sync (bad magic)" :
			  "frame too long");
		return false;
	}
	if (!s->established) {
		handshake_broken(rv, s, ret == -ENOTSUP ? "unknown " :
				 "malformed ", msg.hdr.type);
		return false;
	}
	/* requests get an ERROR, replies are dropped */
	vt_debug("%s connection: %s frame type 0x%04x", c->what,
		 ret == -ENOTSUP ? "unknown" : "malformed", msg.hdr.type);
	if ((ret == -ENOTSUP || vtp_is_request(msg.hdr.type)) &&
	    msg.hdr.reqid &&
	    net_error(c, msg.hdr.reqid, -ret, ret == -ENOTSUP ?
		      "unknown type" : "malformed") < 0) {
		sess_lost(s, "%s connection: write failed", c->what);
		return false;
	}
	return true;
}

/* Read what the socket has and handle every complete frame. */
static void conn_input(struct remote_vtp *rv, struct sess *s,
		       struct vc_conn *c)
{
	int rounds, ret;
	ssize_t n;

	for (rounds = 0; rounds < 8 && !s->lost; rounds++) {
		n = conn_fill(c);
		if (n == -EAGAIN)
			return;
		if (n <= 0) {
			if (n == 0)
				sess_lost(s, "%s connection closed by the "
					  "server", c->what);
			else
				sess_lost(s, "%s connection: %s", c->what,
					  strerror(-n));
			return;
		}
		while (!s->lost && (ret = conn_next(c, &msg)) != 0) {
			if (ret < 0 && !bad_frame(rv, s, c, ret))
				return;
			if (ret > 0)
				on_frame(rv, s, c, &msg);
		}
		if (c->rd->drained)
			return;
	}
}

static void conn_event(struct remote_vtp *rv, struct sess *s,
		       struct vc_conn *c, short revents)
{
	ssize_t left;
	int ret;

	if (c->connecting) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
			return;
		ret = conn_finish(c);
		if (ret < 0) {
			sess_lost(s, "%s connection: %s", c->what,
				  strerror(-ret));
			return;
		}
		if (c == &s->cc)
			on_connected(rv, s);
	}
	if (!s->lost && (revents & (POLLIN | POLLERR | POLLHUP)))
		conn_input(rv, s, c);
	if (!s->lost && vtp_writer_pending(&c->wr)) {
		left = conn_flush(c);
		if (left < 0)
			sess_lost(s, "%s connection: %s", c->what,
				  strerror(-left));
	}
}

/* ---- the interface ------------------------------------------------------ */

static short conn_events(const struct vc_conn *c)
{
	if (c->connecting)
		return POLLOUT;
	return POLLIN | (vtp_writer_pending(&c->wr) ? POLLOUT : 0);
}

static int vtp_pollfds(struct vc_remote *r, struct pollfd *pfd, int max)
{
	struct sess *s = RV(r)->s;
	int n = 0;

	if (!s || max < 2)
		return 0;
	s->cc_fd = s->cc.fd;
	s->dc_fd = s->dc.fd;
	if (s->cc.fd >= 0)
		pfd[n++] = (struct pollfd){ .fd = s->cc.fd,
					    .events = conn_events(&s->cc) };
	if (s->dc.fd >= 0)
		pfd[n++] = (struct pollfd){ .fd = s->dc.fd,
					    .events = conn_events(&s->dc) };
	return n;
}

static void vtp_events(struct vc_remote *r, const struct pollfd *pfd, int n)
{
	struct remote_vtp *rv = RV(r);
	struct sess *s = rv->s;
	int i;

	for (i = 0; s && i < n && !s->lost; i++) {
		if (!pfd[i].revents)
			continue;
		/* the same session until the end of the round */
		if (pfd[i].fd == s->cc_fd && s->cc.fd == s->cc_fd)
			conn_event(rv, s, &s->cc, pfd[i].revents);
		else if (pfd[i].fd == s->dc_fd && s->dc.fd == s->dc_fd)
			conn_event(rv, s, &s->dc, pfd[i].revents);
	}
}

static void keepalive(struct sess *s, uint64_t now)
{
	/*
	 * TS arriving on the data connection proves the server alive as
	 * well: under load (a congested link, a busy host) its control
	 * frames may lag behind, and reconnecting then only adds to the
	 * load.  A control connection silent for CTRL_DEAD_TIMEOUT is dead
	 * whatever the data connection does.
	 */
	uint64_t ctrl = s->cc.last_rx;
	uint64_t heard;

	/*
	 * A keepalive more than a period late: this process did not run
	 * meanwhile (stopped, a frozen VM, a suspend, an overloaded host),
	 * and what the server sent may not even be read yet.  The silence
	 * counts from now.
	 */
	if (now - s->next_keepalive > KEEPALIVE_PERIOD) {
		vt_debug("keepalive %.1f s late: silence counts from now",
			 (now - s->next_keepalive) / 1e9);
		s->awake_since = now;
	}
	heard = ctrl;
	if (s->attached && s->dc.fd >= 0 && s->dc.last_rx > heard)
		heard = s->dc.last_rx;
	if (s->awake_since > heard)
		heard = s->awake_since;
	if (s->awake_since > ctrl)
		ctrl = s->awake_since;
	if (now - heard > DEAD_TIMEOUT) {
		sess_lost(s, "nothing received for %.0f s", DEAD_TIMEOUT / 1e9);
	} else if (now - ctrl > CTRL_DEAD_TIMEOUT) {
		sess_lost(s, "nothing received on the control connection "
			  "for %.0f s", CTRL_DEAD_TIMEOUT / 1e9);
	} else {
		s->next_keepalive = now + KEEPALIVE_PERIOD;
		if (net_keepalive(&s->cc, now) < 0)
			sess_lost(s, "keepalive: cannot send");
		else if (s->attached && net_keepalive(&s->dc, now) < 0)
			sess_lost(s, "data keepalive: cannot send");
	}
}

/* Still in the handshake, the attach or the replay. */
static bool setting_up(const struct sess *s)
{
	return s->st != S_READY || !s->attached || s->replay_pos >= 0;
}

static uint64_t vtp_timers(struct vc_remote *r, uint64_t now)
{
	struct remote_vtp *rv = RV(r);
	struct sess *s = rv->s;
	uint64_t next;

	if (s && !s->lost && setting_up(s) && now >= s->hs_deadline)
		sess_lost(s, "no answer within %.0f s",
			  HANDSHAKE_TIMEOUT / 1e9);
	/* nothing but the handshake before it is complete: no KEEPALIVE */
	if (s && !s->lost && s->established && now >= s->next_keepalive)
		keepalive(s, now);
	if (s && s->lost)
		sess_end(rv, now);
	if (!rv->s && now >= rv->reconnect_at)
		sess_start(rv, now);
	s = rv->s;
	if (!s)
		return rv->reconnect_at;
	next = s->established ? s->next_keepalive : UINT64_MAX;
	if (setting_up(s) && s->hs_deadline < next)
		next = s->hs_deadline;
	return next;
}

static void vtp_tune(struct vc_remote *r)
{
	struct sess *s = RV(r)->s;

	if (live(s))
		send_tune(RV(r), s);
}

static uint32_t vtp_sec(struct vc_remote *r, const struct vc_sec_op *op)
{
	struct sess *s = RV(r)->s;

	/* no server: answered now, replayed when it is back */
	return live(s) ? send_sec(s, op) : 0;
}

static void vtp_pids(struct vc_remote *r)
{
	struct sess *s = RV(r)->s;

	if (live(s))
		send_pids(RV(r), s);
}

static void vtp_stats(struct vc_remote *r, struct vc_remote_stats *st)
{
	struct remote_vtp *rv = RV(r);

	if (rv->rtt_n) {
		rv->rtt_ms = rv->rtt_sum / 1e6 / rv->rtt_n;
		rv->rtt_sum = rv->rtt_n = 0;
	}
	*st = (struct vc_remote_stats){
		.server = rv->addr[0] ? rv->addr : NULL,
		.server_name = rv->server_name,
		.state = rv->s ? state_names[rv->s->st] : "idle",
		.tuner = rv->index,
		.tuner_name = rv->index >= 0 ? rv->tuner.name : NULL,
		.rtt_ms = rv->rtt_ms,
		.stale_frames = rv->stale_frames,
		.sessions = rv->sessions,
		.pids_error = rv->pids_error,
	};
}

static void vtp_free(struct vc_remote *r)
{
	struct remote_vtp *rv = RV(r);

	if (rv->s)
		sess_free(rv->s);
	if (rv->ai)
		freeaddrinfo(rv->ai);
	free(rv);
}

static const struct vc_remote_ops vtp_ops = {
	.kind = "vtp",
	.pollfds = vtp_pollfds,
	.events = vtp_events,
	.timers = vtp_timers,
	.tune = vtp_tune,
	.sec = vtp_sec,
	.pids = vtp_pids,
	.stats = vtp_stats,
	.free = vtp_free,
};

struct vc_remote *vc_remote_vtp_new(const struct vc_opts *o,
				    const struct vc_wanted *want,
				    const struct vc_remote_events *ev,
				    void *arg)
{
	struct remote_vtp *rv = calloc(1, sizeof(*rv));

	if (!rv) {
		vt_err("out of memory");
		return NULL;
	}
	rv->r = (struct vc_remote){ .ops = &vtp_ops, .o = o, .want = want,
				    .ev = ev, .arg = arg };
	rv->index = -1;
	rv->backoff = BACKOFF_MIN;
	rv->reconnect_at = vt_now_ns();
	return &rv->r;
}
