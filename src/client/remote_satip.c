// SPDX-License-Identifier: GPL-2.0
/*
 * remote_satip.c - a SAT>IP server as vtunerc's remote (docs/satip.md,
 * "vtunerc as a SAT>IP client").
 *
 * A session is one RTSP connection and, for RTP over UDP, two sockets
 * (RTP on an even port, RTCP on the next).  It starts with the server's
 * description (GET desc.xml, once: the adapter's delivery systems and
 * the server's quirks), then OPTIONS; the applications' tune becomes
 * SETUP rtsp://HOST/?QUERY&pids=... and PLAY; a new tune PLAY
 * stream=N?QUERY (TEARDOWN and SETUP for servers that want it), PID
 * changes, gathered for PIDS_DELAY, PLAY stream=N?addpids=&delpids= (or
 * pids=).  SEC commands are answered at once: a SAT>IP query carries
 * their effect (src from DiSEqC or the burst, band and polarisation from
 * tone and voltage through the LNB), so they go with the next tune.
 *
 * Status: RTCP's APP "SES1" report, or DESCRIBE every second where a
 * server sends none; a report of another tuning than ours is ignored.
 * RTP sequence numbers are checked (satip_rx): datagrams swapped on the
 * way are put back in order, missing ones counted as TS packets lost.
 *
 * One RTSP request is in flight at a time.  A session ends (marked, and
 * ended at the end of the loop round) when the connection closes, a
 * request is not answered within REQ_TIMEOUT, the server has lost the
 * session (454) or nothing came for DEAD_TIMEOUT; the next one starts
 * after a backoff and restores tune and PIDs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <linux/dvb/frontend.h>

#include "client/client.h"
#include "client/net.h"
#include "client/remote.h"
#include "common/clock.h"
#include "common/dvb.h"
#include "common/log.h"
#include "satip/desc.h"
#include "satip/query.h"
#include "satip/reply.h"
#include "satip/report.h"
#include "satip/rtprx.h"
#include "satip/rtsp.h"

#define MS			1000000ULL
#define SEC			1000000000ULL
#define BACKOFF_MIN		(200 * MS)
#define BACKOFF_MAX		(5 * SEC)
#define STABLE_SESSION		(10 * SEC)
#define REQ_TIMEOUT		(5 * SEC)	/* an RTSP request unanswered */
#define QUIET_PROBE		(1 * SEC)	/* nothing received: OPTIONS */
#define PROBE_TIMEOUT		(2 * SEC)	/* ... answered within */
#define DESC_TIMEOUT		(2 * SEC)	/* desc.xml, on each port */
#define DESCRIBE_PERIOD		(1 * SEC)	/* status without RTCP */
#define RTCP_MISSING		(1500 * MS)	/* no RTCP: DESCRIBE */
#define PIDS_DELAY		(20 * MS)	/* PID changes gathered */
#define REORDER_WAIT		(20 * MS)	/* a gap waited for */
#define DEFAULT_TIMEOUT		60		/* s, without ;timeout= */
#define IN_CAP			(SATIP_REPLY_MAX + 8)
#define OUT_CAP			8192
#define VLEN			64		/* datagrams per recvmmsg */
#define RTP_ROUNDS		64		/* recvmmsg calls a wake-up */
#define RTP_PACE		(4 * MS)	/* RTP read at most this often */
#define SLOT			(7 * 188)	/* RTP payload, the usual */
/*
 * With UDP_GRO: what one recvmmsg takes, GRO_VLEN messages of up to
 * GRO_MSG bytes each (a message: consecutive datagrams of one size that
 * the kernel joined, with that size in a control message)
 */
#define GRO_VLEN		16
#define GRO_MSG			65536
/*
 * Each message is read scattered: the header of each usual datagram
 * (12 + 7 x 188 bytes) to one array, its payload right after the one
 * before, so that a message's TS is one run without a copy; the rest of
 * a message (never with usual datagrams) to a spare area.
 */
#define GRO_DGRAM		(SATIP_RTP_HDR_LEN + SLOT)
#define GRO_SEGS		(GRO_MSG / GRO_DGRAM)	/* 49 */
#define GRO_SPARE		(GRO_MSG - GRO_SEGS * GRO_DGRAM)
#define GRO_IOV			(2 * GRO_SEGS + 1)
#define STAGE_CAP		(256 * 1024)	/* TCP: TS gathered per write */
#define RCVBUF			(8 * 1024 * 1024)

/* Server quirks (docs/satip.md): from desc.xml, --satip-quirks, replies. */
enum {
	Q_NO_ADDPIDS = 1 << 0,	/* no addpids=/delpids=: pids= always */
	Q_NO_PIDS_ALL = 1 << 1,	/* no pids=all */
	Q_TEARDOWN = 1 << 2,	/* a new tuning: TEARDOWN, then SETUP */
	Q_DESCRIBE = 1 << 3,	/* no RTCP: status from DESCRIBE */
	Q_SETUP_PIDS = 1 << 4,	/* SETUP needs pids= (never none) */
};

static const struct {
	const char *name;
	unsigned int bit;
} quirk_names[] = {
	{ "no-addpids", Q_NO_ADDPIDS },
	{ "no-pids-all", Q_NO_PIDS_ALL },
	{ "teardown", Q_TEARDOWN },
	{ "describe", Q_DESCRIBE },
	{ "setup-pids", Q_SETUP_PIDS },
};

/* Servers known by their description (a substring of each field given). */
static const struct {
	const char *manufacturer, *model;
	unsigned int quirks;
} quirk_table[] = {
	/* Fritz!Box Cable: PIDs in SETUP, pids= only, no RTCP level */
	{ "AVM", NULL, Q_NO_ADDPIDS | Q_NO_PIDS_ALL | Q_SETUP_PIDS |
		       Q_DESCRIBE },
};

enum state { S_DESC, S_CONNECTING, S_OPTIONS, S_READY };

static const char *const state_names[] = {
	"description", "connecting", "options", "ready"
};

enum req { R_NONE, R_DESC, R_OPTIONS, R_SETUP, R_PLAY, R_DESCRIBE,
	   R_TEARDOWN };

static const char *const req_names[] = {
	"-", "GET desc.xml", "OPTIONS", "SETUP", "PLAY", "DESCRIBE",
	"TEARDOWN"
};

struct sess {
	enum state st;
	bool lost;
	char why[256];
	int fd;			/* RTSP (or HTTP for desc.xml) */
	bool connecting;
	int rtp_fd, rtcp_fd;	/* -1 over TCP */
	uint16_t rtp_port;
	uint8_t in[IN_CAP];
	size_t in_len;
	char out[OUT_CAP];
	size_t out_len, out_off;
	uint32_t cseq;
	enum req inflight;
	bool play_tunes;	/* the PLAY in flight has a new tuning */
	uint64_t req_deadline;
	uint64_t ready_at, last_rx, next_keepalive, next_describe, last_rtcp;
	uint64_t rtp_rest;	/* RTP socket not polled before this */
	bool gro;		/* the RTP socket has UDP_GRO */
	char session[SATIP_SESSION_MAX + 1];	/* "" before SETUP */
	int stream_id;
	unsigned int timeout;	/* s */
	bool playing;		/* PLAY answered */
	/* what the server has */
	uint32_t have_seq;	/* want->tune.seq of the tuning it has, 0 */
	struct satip_tune tuned;
	struct satip_pidset pids;	/* the server's, as last answered */
	struct satip_pidset asked;	/* in the request in flight */
	/* waiting to be sent */
	bool pids_due;
	uint64_t pids_at;
	bool discard;		/* RTP of an earlier tuning may still come */
	bool desc_http_done;	/* the desc.xml connection has ended */
};

struct remote_satip {
	struct vc_remote r;
	struct sess *s;
	struct addrinfo *ai;	/* the RTSP server */
	char addr[300];		/* "HOST:PORT" for logs */
	char base[320];		/* "rtsp://HOST:PORT/" */
	/* desc.xml */
	char desc_host[256], desc_port[16], desc_path[256];
	char desc_alt[16];	/* another port to try, "" */
	bool have_desc;
	struct satip_server_info info;
	unsigned int quirks, quirks_on, quirks_off;
	struct vtp_tuner tuner;
	bool ever_ready, fail_logged;
	uint64_t reconnect_at, backoff, lost_at, sessions;
	/* reception, over every session */
	struct satip_rx rx;
	uint64_t stale, bad_rtp;
	char pids_error[160];
	/* TS to deliver: a run of contiguous payloads, or the stage (TCP) */
	const uint8_t *run;
	size_t run_len;
	uint8_t *stage;
	size_t stage_len;
	/* recvmmsg */
	uint8_t hdr[VLEN][SATIP_RTP_HDR_LEN];
	uint8_t *slots;		/* VLEN x SLOT, contiguous */
	struct mmsghdr mm[VLEN];
	struct iovec iov[VLEN][2];
	/* the same with UDP_GRO, once a socket has it */
	uint8_t *gro_buf;	/* payloads: GRO_VLEN x GRO_SEGS x SLOT, then
				 * headers: GRO_VLEN x GRO_SEGS x 12, then
				 * spare: GRO_VLEN x GRO_SPARE, then one
				 * message joined again: GRO_MSG */
	struct mmsghdr gmm[GRO_VLEN];
	struct iovec giov[GRO_VLEN][GRO_IOV];
	uint64_t gro_msgs;	/* reads of several datagrams */
	uint64_t gro_odd;	/* of them, not of the usual size */
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} gctl[GRO_VLEN];
};

#define RS(r) ((struct remote_satip *)(r))

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

/* ---- TS delivery -------------------------------------------------------- */

static void ts_flush(struct remote_satip *rs)
{
	if (rs->run_len)
		rs->r.ev->ts(rs->r.arg, rs->run, rs->run_len);
	rs->run_len = 0;
	if (rs->stage_len)
		rs->r.ev->ts(rs->r.arg, rs->stage, rs->stage_len);
	rs->stage_len = 0;
}

/*
 * TS of len bytes now is the current tune's (not empty, not of a tuning
 * before the last PLAY was answered); otherwise it is counted stale.
 */
static bool current(struct remote_satip *rs, size_t len)
{
	const struct sess *s = rs->s;

	if (!len)
		return false;
	if (!s || s->discard || !rs->r.want->have_tune ||
	    s->have_seq != rs->r.want->tune.seq) {
		rs->stale += len / 188;
		return false;
	}
	return true;
}

/* satip_rx's delivery: payloads in order, joined while contiguous. */
static void deliver(void *arg, const uint8_t *p, size_t len)
{
	struct remote_satip *rs = arg;

	if (!current(rs, len))
		return;
	if (rs->run_len && rs->run + rs->run_len == p) {
		rs->run_len += len;
		return;
	}
	if (rs->run_len)
		rs->r.ev->ts(rs->r.arg, rs->run, rs->run_len);
	rs->run = p;
	rs->run_len = len;
}

/* The same into the stage (a copy: TCP frames are not contiguous). */
static void deliver_copy(void *arg, const uint8_t *p, size_t len)
{
	struct remote_satip *rs = arg;

	if (!current(rs, len))
		return;
	if (rs->stage_len + len > STAGE_CAP)
		ts_flush(rs);
	memcpy(rs->stage + rs->stage_len, p, len);
	rs->stage_len += len;
}

/* ---- status ------------------------------------------------------------- */

/* A report (RTCP SES1 or DESCRIBE's fmtp) for the current tuning. */
static void on_report(struct remote_satip *rs, struct sess *s, const char *text)
{
	const struct vc_wanted *w = rs->r.want;
	struct satip_report rep;
	struct vtp_status st;
	uint32_t d;

	if (satip_report_parse(text, &rep) < 0) {
		vt_debug("SAT>IP report without a tuner: '%.80s'", text);
		return;
	}
	if (!w->have_tune || s->have_seq != w->tune.seq || s->discard)
		return;
	/* a report of the tuning before ours (the server lags): not ours */
	if (satip_has(&rep.tune, SATIP_A_FREQ)) {
		d = rep.tune.freq > s->tuned.freq ?
		    rep.tune.freq - s->tuned.freq :
		    s->tuned.freq - rep.tune.freq;
		if (d > 1000)
			return;
	}
	satip_signal_to_status(&rep.sig, &st);
	st.seq = w->tune.seq;
	rs->r.ev->status(rs->r.arg, &st);
}

/* ---- requests ----------------------------------------------------------- */

static void put(struct sess *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct sess *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->lost)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->out + s->out_len, OUT_CAP - s->out_len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= OUT_CAP - s->out_len) {
		sess_lost(s, "request too long");
		return;
	}
	s->out_len += n;
}

/* Start an RTSP request: the request line, CSeq, Session. */
static void req_start(struct remote_satip *rs, struct sess *s, enum req r,
		      const char *method, const char *uri_fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void req_start(struct remote_satip *rs, struct sess *s, enum req r,
		      const char *method, const char *uri_fmt, ...)
{
	char uri[SATIP_URI_MAX + 1];
	va_list ap;

	va_start(ap, uri_fmt);
	vsnprintf(uri, sizeof(uri), uri_fmt, ap);
	va_end(ap);
	s->inflight = r;
	s->req_deadline = vt_now_ns() + (r == R_OPTIONS && s->playing ?
					 PROBE_TIMEOUT : REQ_TIMEOUT);
	put(s, "%s %s RTSP/1.0\r\nCSeq: %u\r\nUser-Agent: vtunerc/%s\r\n",
	    method, uri, ++s->cseq, VT_VERSION);
	if (s->session[0])
		put(s, "Session: %s\r\n", s->session);
	vt_debug("SAT>IP: %s %s", method, uri);
	(void)rs;
}

/* The SEC state of the applications' last sequence (sec.h). */
static void sec_state(const struct vc_wanted *w, struct satip_sec_state *ss)
{
	struct vc_sec_op ops[VC_SEC_REPLAY_MAX];
	bool diseqc = false;
	unsigned int src;
	int i, n = vc_sec_replay(&w->sec, ops);

	*ss = (struct satip_sec_state){ .src = 0, .tone = -1, .voltage = -1 };
	for (i = 0; i < n; i++) {
		switch (ops[i].type) {
		case VTP_SET_TONE:
			ss->tone = ops[i].value;
			break;
		case VTP_SET_VOLTAGE:
			ss->voltage = ops[i].value;
			break;
		case VTP_DISEQC_MASTER:
			src = satip_src_of_diseqc(ops[i].d.msg, ops[i].d.len);
			if (src) {
				ss->src = src;
				diseqc = true;
			}
			break;
		case VTP_DISEQC_BURST:
			if (!diseqc)
				ss->src = satip_src_of_burst(ops[i].value);
			break;
		default:
			break;
		}
	}
	/* --sink: DTV_VOLTAGE and DTV_TONE among the tune's properties */
	for (i = 0; i < w->tune.num; i++) {
		if (w->tune.props[i].cmd == DTV_VOLTAGE && ss->voltage < 0)
			ss->voltage = w->tune.props[i].data;
		if (w->tune.props[i].cmd == DTV_TONE && ss->tone < 0)
			ss->tone = w->tune.props[i].data;
	}
}

/*
 * want->pids as a SAT>IP PID set: all for the full TS, and for more PIDs
 * than a query takes (the first SATIP_MAX_PIDS listed for servers that
 * cannot send it all).
 */
static void pids_wanted(const struct vc_wanted *w, struct satip_pidset *p)
{
	unsigned int i, j;
	uint16_t pid;

	memset(p, 0, sizeof(*p));
	if (!w->have_pids)
		return;
	for (i = 0; i < w->pids->num; i++) {
		pid = w->pids->pid[i];
		if (pid == VTP_PID_FULL_TS) {
			p->all = true;
			continue;
		}
		if (pid > SATIP_PID_MAX)
			continue;
		if (p->num == SATIP_MAX_PIDS) {
			/* more than a query takes: the whole TS, the
			 * module's demux keeps what the applications want */
			p->all = true;
			continue;
		}
		/* sorted, no repeats */
		for (j = p->num; j > 0 && p->pid[j - 1] > pid; j--)
			;
		if (j > 0 && p->pid[j - 1] == pid)
			continue;
		memmove(p->pid + j + 1, p->pid + j,
			(p->num - j) * sizeof(p->pid[0]));
		p->pid[j] = pid;
		p->num++;
	}
}

/*
 * The PID part of a query taking the server from have to want, within
 * its quirks; "" if nothing changes.  A set it cannot take (pids=all on
 * a server without it) is said once.
 */
static void pids_query(struct remote_satip *rs, const struct satip_pidset *have,
		       const struct satip_pidset *want, bool in_setup,
		       char *buf, size_t cap)
{
	struct satip_pidset w = *want;
	int n;

	buf[0] = 0;
	if (w.all && (rs->quirks & Q_NO_PIDS_ALL)) {
		if (!rs->pids_error[0])
			vt_err("SAT>IP: %s cannot send the whole TS "
			       "(pids=all); sending the PIDs opened beside it",
			       rs->addr);
		snprintf(rs->pids_error, sizeof(rs->pids_error),
			 "the server cannot send the whole TS");
		w.all = false;
	} else if (rs->pids_error[0]) {
		vt_info("SAT>IP: every PID asked for is delivered again");
		rs->pids_error[0] = 0;
	}
	if (!w.all && !w.num && in_setup && (rs->quirks & Q_SETUP_PIDS)) {
		/* the PAT: a server that wants PIDs in SETUP gets one */
		w.num = 1;
		w.pid[0] = 0;
	}
	n = satip_pids_query(buf, cap, in_setup ? NULL : have, &w,
			     !in_setup && !(rs->quirks & Q_NO_ADDPIDS), 0);
	if (n < 0)
		buf[0] = 0;
}

/* SETUP of the wanted tuning (and PIDs): a new stream on the server. */
static void send_setup(struct remote_satip *rs, struct sess *s)
{
	const struct vc_wanted *w = rs->r.want;
	struct satip_sec_state ss;
	struct satip_pidset want;
	char query[SATIP_QUERY_MAX], pq[SATIP_QUERY_MAX], err[96];
	static const struct satip_pidset none;

	sec_state(w, &ss);
	if (satip_tune_from_props(w->tune.props, w->tune.num, &ss,
				  &rs->r.o->lnb, &s->tuned, err,
				  sizeof(err)) < 0 ||
	    satip_query_format(query, sizeof(query), &s->tuned) < 0) {
		vt_err("tune %u: no SAT>IP query for it: %s", w->tune.seq,
		       err);
		s->have_seq = w->tune.seq;	/* not again */
		return;
	}
	pids_wanted(w, &want);
	pids_query(rs, &none, &want, true, pq, sizeof(pq));
	req_start(rs, s, R_SETUP, "SETUP", "%s?%s%s%s", rs->base, query,
		  pq[0] ? "&" : "", pq);
	if (s->rtp_fd >= 0)
		put(s, "Transport: RTP/AVP;unicast;client_port=%u-%u\r\n\r\n",
		    s->rtp_port, s->rtp_port + 1);
	else
		put(s, "Transport: RTP/AVP/TCP;interleaved=0-1\r\n\r\n");
	s->asked = want;
	s->have_seq = w->tune.seq;
	s->pids_due = false;
	s->discard = true;
	vt_info("tune %u: SAT>IP %s", w->tune.seq, query);
}

/* PLAY stream=N with the new tuning, or the PID change, or nothing. */
static void send_play(struct remote_satip *rs, struct sess *s, bool tune)
{
	const struct vc_wanted *w = rs->r.want;
	struct satip_sec_state ss;
	struct satip_pidset want;
	struct satip_tune t;
	char query[SATIP_QUERY_MAX] = "", pq[SATIP_QUERY_MAX] = "", err[96];

	pids_wanted(w, &want);
	if (tune) {
		sec_state(w, &ss);
		if (satip_tune_from_props(w->tune.props, w->tune.num, &ss,
					  &rs->r.o->lnb, &t, err,
					  sizeof(err)) < 0 ||
		    satip_query_format(query, sizeof(query), &t) < 0) {
			vt_err("tune %u: no SAT>IP query for it: %s",
			       w->tune.seq, err);
			s->have_seq = w->tune.seq;
			return;
		}
		/* a new tuning: the whole PID set again */
		pids_query(rs, &s->pids, &want, true, pq, sizeof(pq));
		s->tuned = t;
		s->have_seq = w->tune.seq;
		s->discard = true;
		vt_info("tune %u: SAT>IP %s", w->tune.seq, query);
	} else {
		pids_query(rs, &s->pids, &want, false, pq, sizeof(pq));
		if (!pq[0] && s->playing) {
			s->pids_due = false;
			return;
		}
	}
	s->play_tunes = tune;
	req_start(rs, s, R_PLAY, "PLAY", "%sstream=%d%s%s%s%s", rs->base,
		  s->stream_id, query[0] || pq[0] ? "?" : "", query,
		  query[0] && pq[0] ? "&" : "", pq);
	put(s, "\r\n");
	s->asked = want;
	s->pids_due = false;
}

static void send_options(struct remote_satip *rs, struct sess *s)
{
	req_start(rs, s, R_OPTIONS, "OPTIONS", "%s", rs->base);
	put(s, "\r\n");
}

static void send_describe(struct remote_satip *rs, struct sess *s)
{
	req_start(rs, s, R_DESCRIBE, "DESCRIBE", "%sstream=%d", rs->base,
		  s->stream_id);
	put(s, "Accept: application/sdp\r\n\r\n");
	s->next_describe = vt_now_ns() + DESCRIBE_PERIOD;
}

static void send_teardown(struct remote_satip *rs, struct sess *s)
{
	req_start(rs, s, R_TEARDOWN, "TEARDOWN", "%sstream=%d", rs->base,
		  s->stream_id);
	put(s, "\r\n");
}

/* What to ask the server next, if nothing is in flight. */
static void sess_next(struct remote_satip *rs, struct sess *s, uint64_t now)
{
	const struct vc_wanted *w = rs->r.want;

	if (s->lost || s->inflight != R_NONE || s->connecting ||
	    s->st != S_READY)
		return;
	if (w->have_tune && s->have_seq != w->tune.seq) {
		if (!s->session[0])
			send_setup(rs, s);
		else if (rs->quirks & Q_TEARDOWN)
			send_teardown(rs, s);
		else
			send_play(rs, s, true);
		return;
	}
	if (s->session[0] && !s->playing) {
		send_play(rs, s, false);
		return;
	}
	if (s->playing && s->pids_due && now >= s->pids_at) {
		send_play(rs, s, false);
		if (s->inflight != R_NONE)
			return;
	}
	if (now >= s->next_keepalive ||
	    (s->playing && now - s->last_rx > QUIET_PROBE)) {
		send_options(rs, s);
		return;
	}
	if (s->playing && now >= s->next_describe &&
	    ((rs->quirks & Q_DESCRIBE) || now - s->last_rtcp > RTCP_MISSING))
		send_describe(rs, s);
}

/* ---- replies ------------------------------------------------------------ */

static void keepalive_from(struct sess *s, unsigned int timeout, uint64_t now)
{
	if (timeout)
		s->timeout = timeout;
	/* well before the server's timeout, whatever it is */
	s->next_keepalive = now + (uint64_t)s->timeout * SEC * 2 / 5;
}

/* A refusal a quirk explains: learn it; true if the request is redone. */
static bool learn_quirk(struct remote_satip *rs, struct sess *s, enum req what,
			int code)
{
	unsigned int q = 0;

	if ((what == R_PLAY || what == R_SETUP) &&
		 (code == 400 || code == 414) && s->asked.all &&
		 !(rs->quirks & Q_NO_PIDS_ALL))
		q = Q_NO_PIDS_ALL;
	else if (what == R_SETUP && code == 400 && !s->asked.num &&
		 !s->asked.all && !(rs->quirks & Q_SETUP_PIDS))
		q = Q_SETUP_PIDS;
	else if (what == R_PLAY && !s->play_tunes && code == 400 &&
		 !(rs->quirks & Q_NO_ADDPIDS))
		q = Q_NO_ADDPIDS;
	else if (what == R_PLAY && s->play_tunes &&
		 (code == 455 || code == 503) && !(rs->quirks & Q_TEARDOWN))
		q = Q_TEARDOWN;
	if (!q || (rs->quirks_off & q))
		return false;
	rs->quirks |= q;
	vt_notice("SAT>IP: %s answered %d: taking it as quirk '%s'",
		  rs->addr, code, q == Q_NO_ADDPIDS ? "no-addpids" :
		  q == Q_NO_PIDS_ALL ? "no-pids-all" :
		  q == Q_SETUP_PIDS ? "setup-pids" : "teardown");
	/* asked again */
	if (what == R_SETUP || s->play_tunes)
		s->have_seq = 0;
	else
		s->pids_due = true;
	return true;
}

/*
 * RTP and RTCP only from the server's ports (Transport: server_port=):
 * nobody else on the network can inject datagrams into the stream.
 */
static void udp_connect(struct remote_satip *rs, struct sess *s,
			const uint16_t port[2])
{
	struct sockaddr_storage ss;
	int i, fds[2] = { s->rtp_fd, s->rtcp_fd };

	for (i = 0; i < 2; i++) {
		memcpy(&ss, rs->ai->ai_addr, rs->ai->ai_addrlen);
		if (ss.ss_family == AF_INET6)
			((struct sockaddr_in6 *)&ss)->sin6_port = htons(port[i]);
		else
			((struct sockaddr_in *)&ss)->sin_port = htons(port[i]);
		if (connect(fds[i], (struct sockaddr *)&ss,
			    rs->ai->ai_addrlen) < 0)
			vt_debug("SAT>IP: UDP from port %u only: %s", port[i],
				 strerror(errno));
	}
}

static void on_setup_reply(struct remote_satip *rs, struct sess *s,
			   const struct satip_reply *r, uint64_t now)
{
	if (!r->session[0] || r->stream_id < 0) {
		sess_lost(s, "SETUP answered without %s",
			  r->session[0] ? "com.ses.streamID" : "Session");
		return;
	}
	snprintf(s->session, sizeof(s->session), "%s", r->session);
	s->stream_id = r->stream_id;
	s->pids = s->asked;
	if (s->rtp_fd >= 0 && r->transport.has_server_port)
		udp_connect(rs, s, r->transport.server_port);
	keepalive_from(s, r->timeout ? r->timeout : DEFAULT_TIMEOUT, now);
	satip_rx_restart(&rs->rx);
	vt_debug("SAT>IP: session %s, stream %d, timeout %u s", s->session,
		 s->stream_id, s->timeout);
	/* PLAY follows (sess_next) */
	s->playing = false;
}

static void on_reply(struct remote_satip *rs, struct sess *s,
		     const struct satip_reply *r, const char *body,
		     size_t blen, uint64_t now)
{
	enum req what = s->inflight;
	char fmtp[1024];

	if (r->has_cseq && r->cseq != s->cseq) {
		vt_debug("SAT>IP: reply to CSeq %u dropped (waiting for %u)",
			 r->cseq, s->cseq);
		return;
	}
	s->inflight = R_NONE;
	if (r->code == 454) {
		sess_lost(s, "the server has lost the session (454 Session "
			  "Not Found)");
		return;
	}
	if (r->code != 200) {
		if (learn_quirk(rs, s, what, r->code))
			return;
		if (what == R_SETUP) {
			sess_lost(s, "SETUP refused: %d %s%s", r->code,
				  satip_reason(r->code), r->code == 503 ?
				  " (no free tuner)" : "");
			return;
		}
		if (what == R_PLAY && s->play_tunes) {
			/* the server keeps the earlier tuning: none of it */
			vt_err("SAT>IP: PLAY refused: %d %s; tune %u gets "
			       "no TS", r->code, satip_reason(r->code),
			       rs->r.want->tune.seq);
			return;
		}
		if (what == R_PLAY) {
			vt_err("SAT>IP: PLAY refused: %d %s; the PIDs stay "
			       "as they were", r->code, satip_reason(r->code));
			snprintf(rs->pids_error, sizeof(rs->pids_error),
				 "the server refused the PIDs: %d %s", r->code,
				 satip_reason(r->code));
			return;
		}
		if (what == R_TEARDOWN) {
			s->session[0] = 0;
			s->playing = false;
			return;
		}
		vt_debug("SAT>IP: %s answered %d", req_names[what], r->code);
		return;
	}
	switch (what) {
	case R_OPTIONS:
		keepalive_from(s, r->timeout, now);
		if (s->st == S_OPTIONS) {
			s->st = S_READY;
			s->ready_at = now;
			rs->sessions++;
			rs->fail_logged = false;
			if (rs->ever_ready)
				vt_notice("reconnected to SAT>IP server %s "
					  "after %.1f s", rs->addr,
					  (now - rs->lost_at) / 1e9);
			else
				vt_notice("connected to SAT>IP server %s "
					  "('%s')", rs->addr,
					  rs->tuner.name);
			rs->ever_ready = true;
			rs->r.ev->ready(rs->r.arg, &rs->tuner);
		}
		break;
	case R_SETUP:
		on_setup_reply(rs, s, r, now);
		break;
	case R_PLAY:
		s->pids = s->asked;
		s->playing = true;
		s->discard = false;
		s->next_describe = now + 200 * MS;
		keepalive_from(s, r->timeout, now);
		break;
	case R_DESCRIBE:
		if (satip_sdp_fmtp(body, blen, s->stream_id, fmtp,
				   sizeof(fmtp)) == 0)
			on_report(rs, s, fmtp);
		break;
	case R_TEARDOWN:
		s->session[0] = 0;
		s->playing = false;
		s->have_seq = 0;
		break;
	default:
		break;
	}
}

/* ---- desc.xml ----------------------------------------------------------- */

static const struct {
	unsigned int sys;	/* enum satip_type */
	uint8_t delsys[2];
} cap_systems[] = {
	{ SATIP_DVBS2, { SYS_DVBS2, SYS_DVBS } },
	{ SATIP_DVBT, { SYS_DVBT } },
	{ SATIP_DVBT2, { SYS_DVBT2, SYS_DVBT } },
	{ SATIP_DVBC, { SYS_DVBC_ANNEX_A } },
};

static void tuner_add(struct vtp_tuner *t, uint8_t ds)
{
	if (ds && !memchr(t->delsys, ds, t->num_delsys) &&
	    t->num_delsys < VTP_MAX_DELSYS)
		t->delsys[t->num_delsys++] = ds;
}

/* The adapter: the server's systems (or --delsys), their limits. */
static void tuner_describe(struct remote_satip *rs)
{
	const struct vc_opts *o = rs->r.o;
	struct vtp_tuner *t = &rs->tuner;
	bool sat = false, ter = false;
	unsigned int i, j;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < (unsigned int)o->num_delsys; i++)
		tuner_add(t, o->delsys[i]);
	for (i = 0; !t->num_delsys && i < sizeof(cap_systems) /
			sizeof(cap_systems[0]); i++)
		if (!rs->have_desc || rs->info.frontends[cap_systems[i].sys])
			for (j = 0; j < 2; j++)
				tuner_add(t, cap_systems[i].delsys[j]);
	for (i = 0; i < t->num_delsys; i++) {
		if (vt_delsys_is_sat(t->delsys[i]))
			sat = true;
		else
			ter = true;
	}
	t->caps = FE_CAN_INVERSION_AUTO | FE_CAN_FEC_AUTO | FE_CAN_QPSK |
		  FE_CAN_QAM_16 | FE_CAN_QAM_32 | FE_CAN_QAM_64 |
		  FE_CAN_QAM_128 | FE_CAN_QAM_256 | FE_CAN_QAM_AUTO |
		  FE_CAN_TRANSMISSION_MODE_AUTO | FE_CAN_BANDWIDTH_AUTO |
		  FE_CAN_GUARD_INTERVAL_AUTO | FE_CAN_HIERARCHY_AUTO |
		  FE_CAN_FEC_1_2 | FE_CAN_FEC_2_3 | FE_CAN_FEC_3_4 |
		  FE_CAN_FEC_5_6 | FE_CAN_FEC_7_8 | FE_CAN_2G_MODULATION |
		  FE_CAN_MULTISTREAM;
	/* one range for every system, in delsys[0]'s unit */
	t->freq_min = ter ? 42000 : 950000;		/* kHz */
	t->freq_max = sat ? 2150000 : 1002000;
	t->freq_step = sat ? 1000 : 62;
	if (t->num_delsys && !vt_delsys_is_sat(t->delsys[0])) {
		t->freq_min *= 1000;
		t->freq_max *= 1000;
		t->freq_step = 62500;
	}
	t->freq_tolerance = sat ? 5000 : 0;
	t->srate_min = 1000000;
	t->srate_max = 45000000;
	snprintf(t->name, sizeof(t->name), "%s",
		 rs->have_desc && rs->info.friendly_name[0] ?
		 rs->info.friendly_name : "SAT>IP tuner");
}

/* The quirks: the table's for this server, then --satip-quirks. */
static void quirks_choose(struct remote_satip *rs)
{
	unsigned int i;

	rs->quirks = 0;
	for (i = 0; rs->have_desc &&
		    i < sizeof(quirk_table) / sizeof(quirk_table[0]); i++) {
		if (quirk_table[i].manufacturer &&
		    !strstr(rs->info.manufacturer,
			    quirk_table[i].manufacturer))
			continue;
		if (quirk_table[i].model &&
		    !strstr(rs->info.model_name, quirk_table[i].model))
			continue;
		rs->quirks |= quirk_table[i].quirks;
	}
	rs->quirks = (rs->quirks | rs->quirks_on) & ~rs->quirks_off;
	if (rs->quirks) {
		char list[128] = "";
		size_t off = 0;

		for (i = 0; i < sizeof(quirk_names) / sizeof(quirk_names[0]);
		     i++)
			if (rs->quirks & quirk_names[i].bit &&
			    off < sizeof(list))
				off += snprintf(list + off, sizeof(list) - off,
						"%s%s", off ? "," : "",
						quirk_names[i].name);
		vt_info("SAT>IP: quirks of %s: %s", rs->addr, list);
	}
}

static void desc_done(struct remote_satip *rs, struct sess *s, const char *xml,
		      size_t len)
{
	if (xml && satip_desc_parse(xml, len, &rs->info) == 0) {
		rs->have_desc = true;
		vt_info("SAT>IP: %s is '%s' (%s %s), %s", rs->addr,
			rs->info.friendly_name, rs->info.manufacturer,
			rs->info.model_name, rs->info.caps);
	} else if (rs->desc_alt[0]) {
		/* on the other port next (sess_connect) */
		vt_debug("SAT>IP: no description on port %s; trying %s",
			 rs->desc_port, rs->desc_alt);
		snprintf(rs->desc_port, sizeof(rs->desc_port), "%s",
			 rs->desc_alt);
		rs->desc_alt[0] = 0;
		return;
	} else {
		vt_notice("SAT>IP: no description from http://%s:%s%s; "
			  "offering %s", rs->desc_host, rs->desc_port,
			  rs->desc_path, rs->r.o->num_delsys ?
			  "the systems of --delsys" : "every system");
	}
	quirks_choose(rs);
	tuner_describe(rs);
	s->desc_http_done = true;
	s->st = S_CONNECTING;
}

/* ---- connections -------------------------------------------------------- */

static int tcp_connect(struct sess *s, const struct addrinfo *ai)
{
	int one = 1;

	s->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK |
		       SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return -errno;
	setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	s->connecting = true;
	if (connect(s->fd, ai->ai_addr, ai->ai_addrlen) == 0 ||
	    errno == EINPROGRESS)
		return 0;
	return -errno;
}

/*
 * UDP_GRO (Linux 5.0): consecutive datagrams of one size, joined by the
 * kernel (a NIC's GRO; a sender's UDP_SEGMENT on loopback or veth, as
 * vtunerd's), come in one read, which saves the per-datagram cost of the
 * receive path.  Without it (an older kernel, no memory), datagrams come
 * one by one, as before.
 */
#define GRO_PAY(rs, i, k) \
	((rs)->gro_buf + ((size_t)(i) * GRO_SEGS + (k)) * SLOT)
#define GRO_HDR(rs, i, k) \
	((rs)->gro_buf + (size_t)GRO_VLEN * GRO_SEGS * SLOT + \
	 ((size_t)(i) * GRO_SEGS + (k)) * SATIP_RTP_HDR_LEN)
#define GRO_SPARE_AT(rs, i) \
	((rs)->gro_buf + (size_t)GRO_VLEN * GRO_SEGS * GRO_DGRAM + \
	 (size_t)(i) * GRO_SPARE)
#define GRO_JOINED_AT(rs) \
	((rs)->gro_buf + (size_t)GRO_VLEN * GRO_MSG)

static void gro_enable(struct remote_satip *rs, struct sess *s)
{
	int one = 1, i, k;

	if (!rs->gro_buf) {
		rs->gro_buf = malloc((size_t)(GRO_VLEN + 1) * GRO_MSG);
		for (i = 0; rs->gro_buf && i < GRO_VLEN; i++) {
			for (k = 0; k < GRO_SEGS; k++) {
				rs->giov[i][2 * k] = (struct iovec){
					GRO_HDR(rs, i, k), SATIP_RTP_HDR_LEN };
				rs->giov[i][2 * k + 1] = (struct iovec){
					GRO_PAY(rs, i, k), SLOT };
			}
			rs->giov[i][2 * GRO_SEGS] = (struct iovec){
				GRO_SPARE_AT(rs, i), GRO_SPARE };
		}
	}
	s->gro = rs->gro_buf &&
		 setsockopt(s->rtp_fd, SOL_UDP, UDP_GRO, &one,
			    sizeof(one)) == 0;
}

/* Bind RTP and RTCP on an even port and the next (in --satip-ports). */
static int udp_pair(struct remote_satip *rs, struct sess *s)
{
	const struct vc_opts *o = rs->r.o;
	int family = rs->ai->ai_family, lo, hi, p, tries, size = RCVBUF;
	struct sockaddr_storage ss;
	socklen_t sl;

	lo = o->satip_ports[0] ? o->satip_ports[0] : 0;
	hi = o->satip_ports[0] ? o->satip_ports[1] : 0;
	for (tries = 0, p = lo + (lo & 1); tries < 200; tries++) {
		if (hi && p + 1 > hi)
			return -EADDRINUSE;
		s->rtp_fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK |
				   SOCK_CLOEXEC, 0);
		s->rtcp_fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK |
				    SOCK_CLOEXEC, 0);
		if (s->rtp_fd < 0 || s->rtcp_fd < 0)
			return -errno;
		memset(&ss, 0, sizeof(ss));
		ss.ss_family = family;
		sl = family == AF_INET6 ? sizeof(struct sockaddr_in6) :
		     sizeof(struct sockaddr_in);
		/* port p for RTP (0: any, then its neighbour for RTCP) */
		if (family == AF_INET6)
			((struct sockaddr_in6 *)&ss)->sin6_port = htons(p);
		else
			((struct sockaddr_in *)&ss)->sin_port = htons(p);
		if (bind(s->rtp_fd, (struct sockaddr *)&ss, sl) == 0 &&
		    getsockname(s->rtp_fd, (struct sockaddr *)&ss, &sl) == 0) {
			uint16_t got = ntohs(family == AF_INET6 ?
				((struct sockaddr_in6 *)&ss)->sin6_port :
				((struct sockaddr_in *)&ss)->sin_port);

			if (!(got & 1)) {
				if (family == AF_INET6)
					((struct sockaddr_in6 *)&ss)->sin6_port =
						htons(got + 1);
				else
					((struct sockaddr_in *)&ss)->sin_port =
						htons(got + 1);
				if (bind(s->rtcp_fd, (struct sockaddr *)&ss,
					 sl) == 0) {
					s->rtp_port = got;
					break;
				}
			}
		}
		close(s->rtp_fd);
		close(s->rtcp_fd);
		s->rtp_fd = s->rtcp_fd = -1;
		if (lo)
			p += 2;
	}
	if (s->rtp_fd < 0)
		return -EADDRINUSE;
	/* root may go beyond net.core.rmem_max */
	if (setsockopt(s->rtp_fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
		       sizeof(size)) < 0)
		setsockopt(s->rtp_fd, SOL_SOCKET, SO_RCVBUF, &size,
			   sizeof(size));
	gro_enable(rs, s);
	return 0;
}

static void sess_free(struct sess *s)
{
	if (s->fd >= 0)
		close(s->fd);
	if (s->rtp_fd >= 0)
		close(s->rtp_fd);
	if (s->rtcp_fd >= 0)
		close(s->rtcp_fd);
	free(s);
}

static void sess_end(struct remote_satip *rs, uint64_t now)
{
	struct sess *s = rs->s;

	ts_flush(rs);
	rs->s = NULL;
	if (s->st == S_READY) {
		vt_notice("SAT>IP server %s lost: %s; reconnecting", rs->addr,
			  s->why);
		if (now - s->ready_at >= STABLE_SESSION)
			rs->backoff = BACKOFF_MIN;
		rs->lost_at = now;
	} else if (!rs->fail_logged) {
		vt_notice("SAT>IP server %s: %s (while %s); retrying every "
			  "%.1f..%.0f s", rs->addr, s->why,
			  state_names[s->st], BACKOFF_MIN / 1e9,
			  BACKOFF_MAX / 1e9);
		rs->fail_logged = true;
	} else {
		vt_debug("SAT>IP server %s: %s (while %s)", rs->addr, s->why,
			 state_names[s->st]);
	}
	sess_free(s);
	rs->reconnect_at = now + rs->backoff;
	rs->backoff = rs->backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX :
		      rs->backoff * 2;
	rs->r.ev->lost(rs->r.arg);
}

/* Connect for desc.xml (first session) or RTSP. */
static void sess_connect(struct remote_satip *rs, struct sess *s)
{
	struct addrinfo *ai = NULL;
	int ret;

	while (s->st == S_DESC) {
		if (net_resolve(rs->desc_host, rs->desc_port, &ai) < 0) {
			desc_done(rs, s, NULL, 0);
		} else {
			ret = tcp_connect(s, ai);
			freeaddrinfo(ai);
			if (ret < 0) {
				if (s->fd >= 0)
					close(s->fd);
				s->fd = -1;
				s->connecting = false;
				desc_done(rs, s, NULL, 0);
			} else {
				put(s, "GET %s HTTP/1.1\r\nHost: %s\r\n"
				    "User-Agent: vtunerc/%s\r\n"
				    "Connection: close\r\n\r\n", rs->desc_path,
				    rs->desc_host, VT_VERSION);
				s->inflight = R_DESC;
				s->req_deadline = vt_now_ns() + DESC_TIMEOUT;
				return;
			}
		}
	}
	ret = tcp_connect(s, rs->ai);
	if (ret < 0)
		sess_lost(s, "connect: %s", strerror(-ret));
}

static void sess_start(struct remote_satip *rs, uint64_t now)
{
	struct sess *s = calloc(1, sizeof(*s));
	int ret;

	if (!s) {
		vt_err("out of memory");
		rs->reconnect_at = now + BACKOFF_MAX;
		return;
	}
	s->fd = s->rtp_fd = s->rtcp_fd = -1;
	s->stream_id = -1;
	s->timeout = DEFAULT_TIMEOUT;
	s->last_rx = s->last_rtcp = now;
	s->st = rs->have_desc || !rs->desc_host[0] ? S_CONNECTING : S_DESC;
	rs->s = s;
	if (!rs->ai && net_resolve(rs->r.o->host, rs->r.o->port,
				   &rs->ai) < 0) {
		sess_lost(s, "cannot resolve %s", rs->r.o->host);
		return;
	}
	if (!rs->r.o->satip_tcp) {
		ret = udp_pair(rs, s);
		if (ret < 0) {
			sess_lost(s, "no UDP ports for RTP: %s",
				  strerror(-ret));
			return;
		}
	}
	if (s->st == S_CONNECTING && !rs->tuner.num_delsys)
		desc_done(rs, s, NULL, 0);
	sess_connect(rs, s);
}

/* The desc.xml connection has the whole reply (or closed): on to RTSP. */
static void desc_input(struct remote_satip *rs, struct sess *s, bool eof)
{
	struct satip_reply r;
	int n = satip_reply_parse((const char *)s->in, s->in_len, &r);

	if (n == 0 && !eof)
		return;
	if (n > 0 && r.code == 200)
		desc_done(rs, s, (const char *)s->in + n - r.content_length,
			  r.content_length);
	else
		desc_done(rs, s, NULL, 0);
	close(s->fd);
	s->fd = -1;
	s->connecting = false;
	s->in_len = s->out_len = s->out_off = 0;
	s->inflight = R_NONE;
	sess_connect(rs, s);
}

/* RTP interleaved on the RTSP connection (channel 0; 1 is RTCP). */
static void on_interleaved(struct remote_satip *rs, struct sess *s,
			   uint8_t channel, const uint8_t *p, size_t len,
			   uint64_t now)
{
	struct satip_rtp_info ri;
	char ses1[1024];

	if (channel == 1) {
		if (satip_rtcp_ses1(p, len, ses1, sizeof(ses1)) == 1) {
			s->last_rtcp = now;
			on_report(rs, s, ses1);
		}
		return;
	}
	if (channel != 0)
		return;
	if (satip_rtp_parse(p, len, &ri) < 0) {
		rs->bad_rtp++;
		return;
	}
	satip_rx_push(&rs->rx, ri.seq, p + ri.hlen, ri.plen, now,
		      deliver_copy, rs);
}

/* Replies and '$' frames from the RTSP connection. */
static void rtsp_input(struct remote_satip *rs, struct sess *s, uint64_t now)
{
	struct satip_reply r;
	uint8_t channel;
	size_t off = 0;
	int n;

	while (!s->lost && off < s->in_len) {
		const uint8_t *p = s->in + off;
		size_t left = s->in_len - off;

		if (p[0] == '$') {
			n = satip_interleaved(p, left, &channel);
			if (n <= 0)
				break;
			on_interleaved(rs, s, channel, p + 4, n - 4, now);
			off += n;
			continue;
		}
		n = satip_reply_parse((const char *)p, left, &r);
		if (n == -ENOMSG) {
			off += r.skip;
			continue;
		}
		if (n == 0)
			break;
		if (n < 0) {
			sess_lost(s, "malformed RTSP from the server");
			break;
		}
		on_reply(rs, s, &r, (const char *)p + n - r.content_length,
			 r.content_length, now);
		off += n;
	}
	ts_flush(rs);
	memmove(s->in, s->in + off, s->in_len - off);
	s->in_len -= off;
	if (s->in_len == IN_CAP)
		sess_lost(s, "RTSP reply too long");
}

static void tcp_event(struct remote_satip *rs, struct sess *s, short revents,
		      uint64_t now)
{
	int err = 0, rounds;
	socklen_t el = sizeof(err);
	ssize_t n;

	if (s->connecting) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
			return;
		if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
			err = errno;
		if (err && s->st == S_DESC) {
			desc_input(rs, s, true);
			return;
		}
		if (err) {
			sess_lost(s, "connect: %s", strerror(err));
			return;
		}
		s->connecting = false;
		if (s->st == S_CONNECTING) {
			s->st = S_OPTIONS;
			send_options(rs, s);
		}
	}
	if (s->out_off < s->out_len) {
		n = send(s->fd, s->out + s->out_off, s->out_len - s->out_off,
			 MSG_NOSIGNAL);
		if (n < 0 && errno != EAGAIN) {
			sess_lost(s, "sending: %s", strerror(errno));
			return;
		}
		if (n > 0)
			s->out_off += n;
		if (s->out_off == s->out_len)
			s->out_off = s->out_len = 0;
	}
	if (!(revents & (POLLIN | POLLERR | POLLHUP)))
		return;
	for (rounds = 0; rounds < 16 && !s->lost && s->fd >= 0; rounds++) {
		n = recv(s->fd, s->in + s->in_len, IN_CAP - s->in_len, 0);
		if (n < 0 && errno == EAGAIN)
			return;
		if (s->st == S_DESC) {
			if (n > 0)
				s->in_len += n;
			if (n <= 0 || s->in_len == IN_CAP)
				desc_input(rs, s, true);
			else
				desc_input(rs, s, false);
			return;
		}
		if (n <= 0) {
			sess_lost(s, n ? "RTSP connection: %s" :
				  "RTSP connection closed by the server%s",
				  n ? strerror(errno) : "");
			return;
		}
		s->in_len += n;
		s->last_rx = now;
		rtsp_input(rs, s, now);
	}
}

/*
 * The usual RTP header (V=2, no padding, extension or CSRC, MP2T) before
 * plen bytes of whole TS packets: the payload is taken as it lies.
 */
static bool rtp_usual(const uint8_t *h, size_t plen)
{
	return h[0] == 0x80 && (h[1] & 0x7f) == SATIP_RTP_PT && plen % 188 == 0;
}

/* A datagram with another header (or an unusual size): parsed, copied. */
static void rtp_odd_datagram(struct remote_satip *rs, const uint8_t *d,
			     size_t len, uint64_t now)
{
	struct satip_rtp_info ri;

	if (satip_rtp_parse(d, len, &ri) < 0) {
		rs->bad_rtp++;
		return;
	}
	ts_flush(rs);
	satip_rx_push(&rs->rx, ri.seq, d + ri.hlen, ri.plen, now,
		      deliver_copy, rs);
	ts_flush(rs);
}

/*
 * One datagram of len bytes at d, header and payload together (a message
 * of unusual datagrams, joined again): the usual ones have their payload
 * moved down to *w, right after the previous one's, so that a message is
 * one run for the module.
 */
static void rtp_gro_datagram(struct remote_satip *rs, uint8_t *d, size_t len,
			     uint8_t **w, uint64_t now)
{
	size_t plen;

	if (len < SATIP_RTP_HDR_LEN) {
		rs->bad_rtp++;
		return;
	}
	plen = len - SATIP_RTP_HDR_LEN;
	if (rtp_usual(d, plen)) {
		uint16_t seq = (uint16_t)(d[2] << 8 | d[3]);

		/* *w is at most d + 12: everything after it is still unread */
		memmove(*w, d + SATIP_RTP_HDR_LEN, plen);
		satip_rx_push(&rs->rx, seq, *w, plen, now, deliver, rs);
		*w += plen;
		return;
	}
	rtp_odd_datagram(rs, d, len, now);
}

/*
 * Message i, len bytes of usual datagrams (GRO_DGRAM each, the last one
 * maybe shorter), read scattered: the payloads are in place, one run.
 * Returns the number of datagrams.
 */
static size_t gro_usual(struct remote_satip *rs, struct sess *s, int i,
			size_t len, uint64_t now)
{
	uint8_t tmp[GRO_DGRAM];
	size_t k, dlen, plen;
	const uint8_t *h;
	uint8_t *p;

	for (k = 0; k * GRO_DGRAM < len && !s->lost; k++) {
		dlen = len - k * GRO_DGRAM;
		if (dlen > GRO_DGRAM)
			dlen = GRO_DGRAM;
		if (dlen < SATIP_RTP_HDR_LEN) {
			rs->bad_rtp++;
			continue;
		}
		h = GRO_HDR(rs, i, k);
		p = GRO_PAY(rs, i, k);
		plen = dlen - SATIP_RTP_HDR_LEN;
		if (rtp_usual(h, plen)) {
			satip_rx_push(&rs->rx, (uint16_t)(h[2] << 8 | h[3]),
				      p, plen, now, deliver, rs);
			continue;
		}
		memcpy(tmp, h, SATIP_RTP_HDR_LEN);
		memcpy(tmp + SATIP_RTP_HDR_LEN, p, plen);
		rtp_odd_datagram(rs, tmp, dlen, now);
	}
	return k;
}

/*
 * Message i, len bytes of datagrams of seg bytes but not the usual size:
 * joined again from its pieces, then taken datagram by datagram.
 * Returns the number of datagrams.
 */
static size_t gro_joined(struct remote_satip *rs, struct sess *s, int i,
			 size_t len, size_t seg, uint64_t now)
{
	uint8_t *m = GRO_JOINED_AT(rs), *w = m;
	size_t off, n, k, dgrams = 0;

	for (off = 0, k = 0; off < len && k < GRO_IOV; k++) {
		n = rs->giov[i][k].iov_len;
		if (n > len - off)
			n = len - off;
		memcpy(m + off, rs->giov[i][k].iov_base, n);
		off += n;
	}
	for (off = 0; off < len && !s->lost; off += seg, dgrams++)
		rtp_gro_datagram(rs, m + off, len - off < seg ? len - off : seg,
				 &w, now);
	/* the run is in m, which the next such message overwrites */
	ts_flush(rs);
	return dgrams;
}

/*
 * The RTP socket with UDP_GRO: messages of joined datagrams, in batches.
 * Returns whether they came joined (GRO_JOINED datagrams a message on
 * average): then every wake-up takes a batch, and the rest of RTP_PACE,
 * made for datagrams that wake the reader one by one, only costs a
 * wake-up more.
 */
#define GRO_JOINED	8
static bool rtp_event_gro(struct remote_satip *rs, struct sess *s,
			  uint64_t now)
{
	size_t len, seg, k, msgs = 0, dgrams = 0;
	struct cmsghdr *cm;
	int i, n, rounds, g;

	for (rounds = 0; rounds < RTP_ROUNDS && !s->lost; rounds++) {
		for (i = 0; i < GRO_VLEN; i++) {
			memset(&rs->gmm[i].msg_hdr, 0,
			       sizeof(rs->gmm[i].msg_hdr));
			rs->gmm[i].msg_hdr.msg_iov = rs->giov[i];
			rs->gmm[i].msg_hdr.msg_iovlen = GRO_IOV;
			rs->gmm[i].msg_hdr.msg_control = rs->gctl[i].buf;
			rs->gmm[i].msg_hdr.msg_controllen =
				sizeof(rs->gctl[i].buf);
		}
		n = recvmmsg(s->rtp_fd, rs->gmm, GRO_VLEN, MSG_DONTWAIT, NULL);
		if (n <= 0)
			break;
		s->last_rx = now;
		for (i = 0; i < n && !s->lost; i++) {
			len = rs->gmm[i].msg_len;
			if (rs->gmm[i].msg_hdr.msg_flags & MSG_TRUNC) {
				rs->bad_rtp++;
				continue;
			}
			seg = len;
			for (cm = CMSG_FIRSTHDR(&rs->gmm[i].msg_hdr); cm;
			     cm = CMSG_NXTHDR(&rs->gmm[i].msg_hdr, cm)) {
				if (cm->cmsg_level != SOL_UDP ||
				    cm->cmsg_type != UDP_GRO ||
				    cm->cmsg_len < CMSG_LEN(sizeof(g)))
					continue;
				memcpy(&g, CMSG_DATA(cm), sizeof(g));
				if (g > 0 && (size_t)g < len)
					seg = (size_t)g;
			}
			msgs++;
			if (seg == GRO_DGRAM || len <= GRO_DGRAM) {
				k = gro_usual(rs, s, i, len, now);
			} else {
				k = gro_joined(rs, s, i, len, seg, now);
				rs->gro_odd += k > 1;
			}
			rs->gro_msgs += k > 1;
			dgrams += k;
		}
		ts_flush(rs);
		if (n < GRO_VLEN)
			break;
	}
	return msgs && dgrams >= GRO_JOINED * msgs;
}

/* The RTP socket: every datagram waiting, in batches. */
static void rtp_event(struct remote_satip *rs, struct sess *s, uint64_t now)
{
	struct satip_rtp_info ri;
	uint8_t tmp[SATIP_RTP_HDR_LEN + SLOT];
	int i, n, rounds;
	size_t len;

	/*
	 * What came since the last read, then a rest of RTP_PACE: at 80
	 * Mbit/s a datagram comes every 130 us, and waking for each costs
	 * more than the datagram (the socket's buffer holds 8 MiB, 80 ms at
	 * 800 Mbit/s: the rest loses nothing)
	 */
	s->rtp_rest = now + RTP_PACE;
	if (s->gro) {
		if (rtp_event_gro(rs, s, now))
			s->rtp_rest = now;
		return;
	}
	for (rounds = 0; rounds < RTP_ROUNDS && !s->lost; rounds++) {
		for (i = 0; i < VLEN; i++) {
			rs->mm[i].msg_hdr.msg_iov = rs->iov[i];
			rs->mm[i].msg_hdr.msg_iovlen = 2;
			rs->mm[i].msg_hdr.msg_flags = 0;
		}
		n = recvmmsg(s->rtp_fd, rs->mm, VLEN, MSG_DONTWAIT, NULL);
		if (n <= 0)
			break;
		s->last_rx = now;
		for (i = 0; i < n; i++) {
			const uint8_t *h = rs->hdr[i];
			const uint8_t *pl = rs->slots + (size_t)i * SLOT;

			len = rs->mm[i].msg_len;
			if (rs->mm[i].msg_hdr.msg_flags & MSG_TRUNC ||
			    len < SATIP_RTP_HDR_LEN) {
				rs->bad_rtp++;
				continue;
			}
			len -= SATIP_RTP_HDR_LEN;
			if (rtp_usual(h, len)) {
				satip_rx_push(&rs->rx, h[2] << 8 | h[3], pl,
					      len, now, deliver, rs);
				continue;
			}
			/* any other: parsed whole, from a copy */
			memcpy(tmp, h, SATIP_RTP_HDR_LEN);
			memcpy(tmp + SATIP_RTP_HDR_LEN, pl, len);
			if (satip_rtp_parse(tmp, len + SATIP_RTP_HDR_LEN,
					    &ri) < 0) {
				rs->bad_rtp++;
				continue;
			}
			ts_flush(rs);
			satip_rx_push(&rs->rx, ri.seq, tmp + ri.hlen, ri.plen,
				      now, deliver_copy, rs);
			ts_flush(rs);
		}
		ts_flush(rs);
		if (n < VLEN)
			break;
	}
}

static void rtcp_event(struct remote_satip *rs, struct sess *s, uint64_t now)
{
	uint8_t buf[2048];
	char ses1[1024];
	ssize_t n;

	while ((n = recv(s->rtcp_fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		s->last_rx = now;
		if (satip_rtcp_ses1(buf, n, ses1, sizeof(ses1)) == 1) {
			s->last_rtcp = now;
			on_report(rs, s, ses1);
		}
	}
}

/* ---- the interface ------------------------------------------------------ */

static int satip_pollfds(struct vc_remote *r, struct pollfd *pfd, int max)
{
	struct sess *s = RS(r)->s;
	int n = 0;

	if (!s || s->lost || max < 3)
		return 0;
	if (s->fd >= 0)
		pfd[n++] = (struct pollfd){ .fd = s->fd, .events =
			s->connecting ? POLLOUT : POLLIN |
			(s->out_off < s->out_len ? POLLOUT : 0) };
	if (s->rtp_fd >= 0 && vt_now_ns() >= s->rtp_rest)
		pfd[n++] = (struct pollfd){ .fd = s->rtp_fd, .events = POLLIN };
	if (s->rtcp_fd >= 0)
		pfd[n++] = (struct pollfd){ .fd = s->rtcp_fd,
					    .events = POLLIN };
	return n;
}

static void satip_events(struct vc_remote *r, const struct pollfd *pfd, int n)
{
	struct remote_satip *rs = RS(r);
	struct sess *s = rs->s;
	uint64_t now = vt_now_ns();
	int i;

	for (i = 0; s && i < n && !s->lost; i++) {
		if (!pfd[i].revents)
			continue;
		if (pfd[i].fd == s->rtp_fd)
			rtp_event(rs, s, now);
		else if (pfd[i].fd == s->rtcp_fd)
			rtcp_event(rs, s, now);
		else if (pfd[i].fd == s->fd)
			tcp_event(rs, s, pfd[i].revents, now);
	}
	if (s && !s->lost) {
		sess_next(rs, s, now);
		/* what sess_next() queued goes now, not after a poll */
		if (s->fd >= 0 && !s->connecting && s->out_off < s->out_len)
			tcp_event(rs, s, 0, now);
	}
}

static uint64_t satip_timers(struct vc_remote *r, uint64_t now)
{
	struct remote_satip *rs = RS(r);
	struct sess *s = rs->s;
	uint64_t next, t;

	satip_rx_expire(&rs->rx, now, s && s->rtp_fd < 0 ? deliver_copy :
			deliver, rs);
	ts_flush(rs);
	if (s && !s->lost && s->inflight != R_NONE && now >= s->req_deadline) {
		if (s->inflight == R_DESC)
			desc_input(rs, s, true);
		else
			sess_lost(s, "no answer to %s within %.0f s",
				  req_names[s->inflight], REQ_TIMEOUT / 1e9);
	}
	if (s && !s->lost && s->connecting && now - s->last_rx > REQ_TIMEOUT)
		sess_lost(s, "connect: no answer within %.0f s",
			  REQ_TIMEOUT / 1e9);
	if (s && !s->lost) {
		sess_next(rs, s, now);
		if (s->fd >= 0 && !s->connecting && s->out_off < s->out_len)
			tcp_event(rs, s, 0, now);
	}
	if (s && s->lost)
		sess_end(rs, now);
	if (!rs->s && now >= rs->reconnect_at)
		sess_start(rs, now);
	s = rs->s;
	if (!s)
		return rs->reconnect_at;
	if (s->lost)
		return now;
	next = s->st == S_READY ? s->next_keepalive : UINT64_MAX;
	if (s->connecting && s->last_rx + REQ_TIMEOUT < next)
		next = s->last_rx + REQ_TIMEOUT;
	if (s->inflight != R_NONE) {
		if (s->req_deadline < next)
			next = s->req_deadline;
	} else if (s->st == S_READY) {
		/* what sess_next() waits for: only with nothing in flight */
		if (s->playing && s->last_rx + QUIET_PROBE < next)
			next = s->last_rx + QUIET_PROBE + 1;
		if (s->pids_due && s->pids_at < next)
			next = s->pids_at;
		t = s->next_describe;
		if (!(rs->quirks & Q_DESCRIBE) &&
		    s->last_rtcp + RTCP_MISSING + 1 > t)
			t = s->last_rtcp + RTCP_MISSING + 1;
		if (s->playing && t < next)
			next = t;
	}
	t = satip_rx_deadline(&rs->rx);
	if (t && t < next)
		next = t;
	if (s->rtp_fd >= 0 && s->rtp_rest > now && s->rtp_rest < next)
		next = s->rtp_rest;
	return next;
}

static void satip_tune(struct vc_remote *r)
{
	struct sess *s = RS(r)->s;

	/* sent by sess_next() at the end of the round */
	if (s)
		s->pids_due = false;
}

static uint32_t satip_sec(struct vc_remote *r, const struct vc_sec_op *op)
{
	/* a SAT>IP query carries the SEC: with the next tune */
	(void)r;
	(void)op;
	return 0;
}

static void satip_pids(struct vc_remote *r)
{
	struct sess *s = RS(r)->s;
	uint64_t now = vt_now_ns();

	if (!s || s->pids_due)
		return;
	s->pids_due = true;
	s->pids_at = now + PIDS_DELAY;
}

static void satip_stats(struct vc_remote *r, struct vc_remote_stats *st)
{
	struct remote_satip *rs = RS(r);

	*st = (struct vc_remote_stats){
		.server = rs->addr,
		.server_name = rs->have_desc ? rs->info.friendly_name : "",
		.state = rs->s ? state_names[rs->s->st] : "idle",
		.tuner = rs->s && rs->s->stream_id >= 0 ? rs->s->stream_id : -1,
		.tuner_name = rs->tuner.name[0] ? rs->tuner.name : NULL,
		.stale_frames = rs->stale,
		.lost_ts = rs->rx.ts_lost,
		.sessions = rs->sessions,
		.pids_error = rs->pids_error,
	};
}

static void satip_free(struct vc_remote *r)
{
	struct remote_satip *rs = RS(r);
	struct sess *s = rs->s;

	if (s && s->fd >= 0 && !s->connecting && s->session[0] &&
	    s->st == S_READY) {
		/* a TEARDOWN, best effort: the server frees the tuner now */
		s->out_len = s->out_off = 0;
		s->inflight = R_NONE;
		send_teardown(rs, s);
		if (send(s->fd, s->out, s->out_len, MSG_NOSIGNAL | MSG_DONTWAIT) <
		    0)
			vt_debug("TEARDOWN: %s", strerror(errno));
	}
	if (s)
		sess_free(s);
	vt_info("SAT>IP: %llu datagrams, %llu lost (%llu TS packets), %llu "
		"reordered, %llu late, %llu bad; %llu reads of joined "
		"datagrams (UDP_GRO), %llu of them not of 7 TS packets",
		(unsigned long long)rs->rx.datagrams,
		(unsigned long long)rs->rx.lost,
		(unsigned long long)rs->rx.ts_lost,
		(unsigned long long)rs->rx.reordered,
		(unsigned long long)rs->rx.late,
		(unsigned long long)rs->bad_rtp,
		(unsigned long long)rs->gro_msgs,
		(unsigned long long)rs->gro_odd);
	if (rs->ai)
		freeaddrinfo(rs->ai);
	free(rs->slots);
	free(rs->stage);
	free(rs->gro_buf);
	free(rs);
}

static const struct vc_remote_ops satip_ops = {
	.kind = "SAT>IP",
	.pollfds = satip_pollfds,
	.events = satip_events,
	.timers = satip_timers,
	.tune = satip_tune,
	.sec = satip_sec,
	.pids = satip_pids,
	.stats = satip_stats,
	.free = satip_free,
};

/* --satip-quirks: "a,b,-c" (a leading '-' turns one off); -1 if unknown. */
static int quirks_parse(struct remote_satip *rs, const char *list)
{
	char buf[256], *tok, *save = NULL;
	unsigned int i;
	bool off;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		off = *tok == '-';
		tok += off;
		for (i = 0; i < sizeof(quirk_names) / sizeof(quirk_names[0]);
		     i++)
			if (!strcmp(tok, quirk_names[i].name))
				break;
		if (i == sizeof(quirk_names) / sizeof(quirk_names[0])) {
			vt_err("--satip-quirks: unknown quirk '%s'", tok);
			return -1;
		}
		if (off)
			rs->quirks_off |= quirk_names[i].bit;
		else
			rs->quirks_on |= quirk_names[i].bit;
	}
	return 0;
}

/* "http://HOST[:PORT]/PATH" into the desc_* fields; -1 if not that. */
static int desc_url(struct remote_satip *rs, const char *url)
{
	const char *p = url, *slash;
	char auth[300];

	if (strncmp(p, "http://", 7))
		return -1;
	p += 7;
	slash = strchr(p, '/');
	if (!slash || (size_t)(slash - p) >= sizeof(auth) || slash == p)
		return -1;
	memcpy(auth, p, slash - p);
	auth[slash - p] = 0;
	if (net_parse_hostport(auth, rs->desc_host, sizeof(rs->desc_host),
			       rs->desc_port, sizeof(rs->desc_port), "80"))
		return -1;
	snprintf(rs->desc_path, sizeof(rs->desc_path), "%s", slash);
	return 0;
}

struct vc_remote *vc_remote_satip_new(const struct vc_opts *o,
				      const struct vc_wanted *want,
				      const struct vc_remote_events *ev,
				      void *arg)
{
	struct remote_satip *rs = calloc(1, sizeof(*rs));
	int i;

	if (rs) {
		rs->slots = malloc((size_t)VLEN * SLOT);
		rs->stage = malloc(STAGE_CAP);
	}
	if (!rs || !rs->slots || !rs->stage) {
		vt_err("out of memory");
		if (rs) {
			free(rs->slots);
			free(rs->stage);
		}
		free(rs);
		return NULL;
	}
	rs->r = (struct vc_remote){ .ops = &satip_ops, .o = o, .want = want,
				    .ev = ev, .arg = arg };
	for (i = 0; i < VLEN; i++) {
		rs->iov[i][0] = (struct iovec){ rs->hdr[i], SATIP_RTP_HDR_LEN };
		rs->iov[i][1] = (struct iovec){ rs->slots + (size_t)i * SLOT,
						SLOT };
	}
	snprintf(rs->addr, sizeof(rs->addr), strchr(o->host, ':') ?
		 "[%s]:%s" : "%s:%s", o->host, o->port);
	snprintf(rs->base, sizeof(rs->base), "rtsp://%s/", rs->addr);
	if (o->satip_desc) {
		if (desc_url(rs, o->satip_desc) < 0) {
			vt_err("--satip-desc: '%s': expected "
			       "http://HOST[:PORT]/PATH", o->satip_desc);
			goto fail;
		}
	} else {
		/* vtunerd serves it beside RTSP, minisatip on 8080 */
		snprintf(rs->desc_host, sizeof(rs->desc_host), "%s", o->host);
		snprintf(rs->desc_port, sizeof(rs->desc_port), "%s", o->port);
		if (!strcmp(o->port, "554"))
			snprintf(rs->desc_alt, sizeof(rs->desc_alt), "8080");
		snprintf(rs->desc_path, sizeof(rs->desc_path), "/desc.xml");
	}
	if (o->satip_quirks && quirks_parse(rs, o->satip_quirks) < 0)
		goto fail;
	satip_rx_init(&rs->rx, REORDER_WAIT);
	rs->backoff = BACKOFF_MIN;
	rs->reconnect_at = vt_now_ns();
	return &rs->r;
fail:
	free(rs->slots);
	free(rs->stage);
	free(rs->gro_buf);
	free(rs);
	return NULL;
}
