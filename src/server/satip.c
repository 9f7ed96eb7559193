// SPDX-License-Identifier: GPL-2.0
/*
 * satip.c - vtunerd's SAT>IP sessions and their output (satip.h).
 */
#include <errno.h>
#include <netdb.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/dvb/frontend.h>

#include "common/clock.h"
#include "common/dvb.h"
#include "common/log.h"
#include "satip/desc.h"
#include "satip/query.h"
#include "satip/report.h"
#include "satip/rtsp.h"
#include "server/channels.h"
#include "server/satip.h"
#include "server/server.h"
#include "server/share.h"
#include "server/ssdp.h"

#define RTP_PKTS	7			/* TS packets per datagram */
#define RTP_HDR		12
#define MMSG_BATCH	64			/* datagrams per sendmmsg() */
/*
 * Datagrams per UDP_SEGMENT send (GSO): 48 x 1328 bytes, within the 64 KiB
 * of one UDP message.  The kernel makes the datagrams (on loopback and
 * veth, or a NIC with UDP segmentation offload, they stay one packet to
 * the receiver's socket, which a client with UDP_GRO takes in one read).
 */
#define GSO_SEGS	48
#define RTP_DGRAM	(RTP_HDR + RTP_PKTS * 188)
/*
 * At least one RTP packet every 100 ms: an empty one after 90 ms without
 * TS, the timer ticking every 10 ms then (vtd_satip_period()); RTCP on
 * the second idle tick (100 ms) after the last.
 */
#define EMPTY_RTP_NS	(90 * 1000000ull)
#define RTCP_NS		(195 * 1000000ull)	/* about five a second */

enum vtd_satip_tr { TR_UDP, TR_TCP, TR_HTTP };

struct vtd_satip_sess {
	struct vtd_satip_sess *next;
	struct vtd_server *srv;
	uint32_t id;			/* Session: */
	unsigned int stream_id;		/* com.ses.streamID */
	char peer[64];			/* for the log */
	char addr[48];
	struct vtd_conn *conn;		/* TCP, HTTP: the connection; UDP:
					 * the last that spoke for it */
	enum vtd_satip_tr tr;
	struct sockaddr_storage rtp_to, rtcp_to;
	socklen_t to_len;
	uint8_t ch_rtp, ch_rtcp;	/* interleaved channels */
	bool playing;
	bool dead;
	uint64_t last_ns;		/* last request naming it */
	bool tuned;			/* tune is valid */
	struct satip_tune tune;
	struct satip_pidset pids;	/* what it asked for */
	struct vtd_stream st;
	uint16_t seq;
	uint32_t ssrc;
	uint64_t packets, octets, dropped;
	uint64_t last_rtp_ns, last_rtcp_ns;
	bool no_gso;			/* UDP_SEGMENT refused: sendmmsg */
};

struct vtd_satip {
	struct vtd_listener listen[VTD_MAX_LISTEN];
	unsigned int nlisten;
	int rtp_fd, rtcp_fd;
	uint16_t rtp_port;
	uint16_t rtsp_port;
	struct vtd_satip_sess *sessions;
	unsigned int nsessions;
	unsigned int next_stream;
	struct satip_tune tuned[VTD_MAX_TUNERS];	/* of each shared tuner */
	/* tuned[i] holds while tuner i's tune_gen is this (a vtp TUNE since
	 * makes it stale) */
	uint32_t tuned_gen[VTD_MAX_TUNERS];
	struct satip_req req;
	char reply[8192];
	char body[16384];
	char caps[64];
	unsigned int frontends[3];	/* DVB-S2, DVB-T, DVB-C tuners */
	char uuid[37];
	char name[VTP_PEER_NAME_MAX + 1];	/* friendlyName */
	/* the channel list (/channels.m3u): the services the tuners get */
	struct vtd_satip_chan {
		char name[64];
		char query[160];
		uint16_t pids[5];	/* PAT, then the service's */
		unsigned int npids;
	} *chans;
	unsigned int nchans;
	struct vtd_ssdp *ssdp;		/* NULL: not announced */
	struct vtd_ev ssdp_ev;		/* EV_UDP */
	uint64_t ssdp_due;		/* next NOTIFY round */
};

static struct vtd_satip *vtd_sp(const struct vtd_server *srv)
{
	return srv->satip;
}

/* Session: ...;timeout= and when a silent UDP session ends, s */
static unsigned int vtd_satip_timeout(const struct vtd_server *srv)
{
	return srv->cfg->satip_timeout_s ? srv->cfg->satip_timeout_s :
	       VTD_SATIP_TIMEOUT_S;
}

struct satip_req *vtd_satip_req_buf(struct vtd_server *srv)
{
	return &vtd_sp(srv)->req;
}

unsigned int vtd_satip_sessions(const struct vtd_server *srv)
{
	return srv->satip ? vtd_sp(srv)->nsessions : 0;
}

/* ---- replies ------------------------------------------------------------ */

static void vtd_satip_send(struct vtd_conn *c, const char *buf, size_t len)
{
	if (vtp_queue_put(&c->q, buf, len, VTP_QUEUE_KEEP) < 0) {
		vt_info("#%u %s: output queue full: connection closed", c->id,
			c->peer);
		vtd_conn_close(c, NULL);
		return;
	}
	vtd_conn_flush(c);
}

/* "RTSP/1.0 CODE REASON", CSeq, Server, then the caller's headers */
static int vtd_satip_start(char *buf, size_t cap, const struct satip_req *q,
			   int code)
{
	int n = satip_reply_start(buf, cap, code,
				  q->has_cseq ? (int64_t)q->cseq : -1,
				  q->proto);

	if (n >= 0)
		n = satip_reply_add(buf, cap, n, "Server: vtunerd/%s\r\n",
				    VT_VERSION);
	return n;
}

void vtd_satip_error(struct vtd_conn *c, const struct satip_req *q, int code,
		     const char *header)
{
	char buf[512];
	int n = vtd_satip_start(buf, sizeof(buf), q, code);

	if (n >= 0 && header)
		n = satip_reply_add(buf, sizeof(buf), n, "%s\r\n", header);
	if (n >= 0 && q->proto == SATIP_HTTP)
		n = satip_reply_add(buf, sizeof(buf), n,
				    "Content-Length: 0\r\n");
	if (n >= 0)
		n = satip_reply_add(buf, sizeof(buf), n, "\r\n");
	if (n > 0)
		vtd_satip_send(c, buf, (size_t)n);
}

/* ---- sessions ----------------------------------------------------------- */

/*
 * The session of id, if it is c's client's: a session is only ever
 * changed, kept alive or ended from the address that set it up.
 */
static struct vtd_satip_sess *vtd_satip_find(const struct vtd_conn *c,
					     const char *id)
{
	struct vtd_server *srv = c->srv;
	struct vtd_satip_sess *s;
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(id, &end, 10);
	if (!*id || *end || errno || v > UINT32_MAX)
		return NULL;
	for (s = vtd_sp(srv)->sessions; s; s = s->next)
		if (!s->dead && s->id == v && !strcmp(s->addr, c->addr))
			return s;
	return NULL;
}

static struct vtd_satip_sess *vtd_satip_by_stream(struct vtd_server *srv,
						  int stream_id)
{
	struct vtd_satip_sess *s;

	for (s = vtd_sp(srv)->sessions; s; s = s->next)
		if (!s->dead && (int)s->stream_id == stream_id)
			return s;
	return NULL;
}

static void vtd_satip_ts(struct vtd_stream *st, const uint8_t *const *pkt,
			 size_t n);

static const struct vtd_stream_ops vtd_satip_stream_ops = {
	.ts = vtd_satip_ts,
};

static struct vtd_satip_sess *vtd_satip_new(struct vtd_conn *c,
					    enum vtd_satip_tr tr)
{
	struct vtd_satip *sp = vtd_sp(c->srv);
	struct vtd_satip_sess *s = calloc(1, sizeof(*s));
	uint32_t r[2] = { 0, 0 };

	if (!s)
		return NULL;
	if (getrandom(r, sizeof(r), 0) != sizeof(r)) {
		r[0] = (uint32_t)vt_now_ns();
		r[1] = (uint32_t)(vt_now_ns() >> 17);
	}
	/* ten digits, none a leading zero (some clients strip them) */
	s->id = 1000000000u + r[0] % 3000000000u;
	s->ssrc = r[1];
	s->srv = c->srv;
	s->tr = tr;
	s->conn = c;
	s->stream_id = ++sp->next_stream;
	if (!sp->next_stream)
		s->stream_id = sp->next_stream = 1;
	s->last_ns = vt_now_ns();
	s->st.ops = &vtd_satip_stream_ops;
	snprintf(s->peer, sizeof(s->peer), "%s", c->peer);
	snprintf(s->addr, sizeof(s->addr), "%s", c->addr);
	s->next = sp->sessions;
	sp->sessions = s;
	sp->nsessions++;
	return s;
}

static void vtd_satip_end(struct vtd_satip_sess *s, const char *why)
{
	struct vtd_satip *sp = vtd_sp(s->srv);

	if (s->dead)
		return;
	vt_notice("SAT>IP session %u (stream %u, %s): %s; %llu packets sent, "
		  "%llu dropped", s->id, s->stream_id, s->peer, why,
		  (unsigned long long)s->packets,
		  (unsigned long long)s->dropped);
	vtd_share_leave(s->srv, &s->st);
	s->dead = true;
	s->conn = NULL;
	sp->nsessions--;
}

static void vtd_satip_reap(struct vtd_satip *sp)
{
	struct vtd_satip_sess **pp = &sp->sessions, *s;

	while ((s = *pp)) {
		if (s->dead) {
			*pp = s->next;
			free(s);
		} else {
			pp = &s->next;
		}
	}
}

void vtd_satip_conn_closed(struct vtd_conn *c)
{
	struct vtd_satip_sess *s;

	if (!c->srv->satip)
		return;
	for (s = vtd_sp(c->srv)->sessions; s; s = s->next) {
		if (s->dead || s->conn != c)
			continue;
		if (s->tr == TR_UDP)
			s->conn = NULL;	/* lives on until TEARDOWN or timeout */
		else
			vtd_satip_end(s, "connection closed");
	}
}

bool vtd_satip_conn_has_sessions(const struct vtd_conn *c)
{
	struct vtd_satip_sess *s;

	if (!c->srv->satip)
		return false;
	for (s = vtd_sp(c->srv)->sessions; s; s = s->next)
		if (!s->dead && s->conn == c)
			return true;
	return false;
}

/* ---- output ------------------------------------------------------------- */

static uint32_t vtd_rtp_clock(uint64_t now)
{
	return (uint32_t)(now / 100000ull * 9ull);	/* 90 kHz */
}

/*
 * The iovecs of m packets: one per run of packets that lie one after the
 * other in the tuner's buffer (all of them when a session takes the
 * whole TS or most of it), so that the kernel copies runs, not packets.
 */
static size_t vtd_satip_iov(struct iovec *iov, const uint8_t *const *pkt,
			    size_t m)
{
	size_t k, n = 0;

	for (k = 0; k < m; k++) {
		if (n && (const uint8_t *)iov[n - 1].iov_base +
			 iov[n - 1].iov_len == pkt[k]) {
			iov[n - 1].iov_len += 188;
			continue;
		}
		iov[n].iov_base = (void *)pkt[k];
		iov[n].iov_len = 188;
		n++;
	}
	return n;
}

/* RTP interleaved in the connection, or the bare TS of HTTP: copied */
static void vtd_satip_ts_tcp(struct vtd_satip_sess *s,
			     const uint8_t *const *pkt, size_t n)
{
	struct vtd_conn *c = s->conn;
	uint8_t hdr[4 + RTP_HDR];
	struct iovec iov[1 + RTP_PKTS];
	uint64_t now = vt_now_ns();
	size_t i, k, m;

	if (!c || c->dead || c->closing)
		return;
	for (i = 0; i < n; i += m) {
		m = n - i < RTP_PKTS ? n - i : RTP_PKTS;
		k = vtd_satip_iov(iov + 1, pkt + i, m);
		if (s->tr == TR_HTTP) {
			if (vtp_queue_putv(&c->q, iov + 1, (int)k, 0) < 0) {
				s->dropped += m;
				continue;
			}
		} else {
			satip_interleaved_hdr(hdr, s->ch_rtp,
					      (uint16_t)(RTP_HDR + m * 188));
			satip_rtp_header(hdr + 4, s->seq, vtd_rtp_clock(now),
					 s->ssrc);
			iov[0].iov_base = hdr;
			iov[0].iov_len = sizeof(hdr);
			if (vtp_queue_putv(&c->q, iov, (int)k + 1, 0) < 0) {
				s->dropped += m;
				continue;
			}
			s->seq++;
		}
		s->packets++;
		s->octets += m * 188;
	}
	s->last_rtp_ns = now;
	vtd_conn_flush(c);
}

/*
 * RTP over UDP, the plain way: datagrams of up to 7 packets, each an RTP
 * header and the packets where the tuner's read put them, MMSG_BATCH to
 * a sendmmsg().
 */
static void vtd_satip_ts_mmsg(struct vtd_satip_sess *s,
			      const uint8_t *const *pkt, size_t n, uint32_t ts)
{
	static uint8_t hdr[MMSG_BATCH][RTP_HDR];
	static struct iovec iov[MMSG_BATCH][1 + RTP_PKTS];
	static struct mmsghdr mm[MMSG_BATCH];
	static size_t pkts[MMSG_BATCH];
	struct vtd_satip *sp = vtd_sp(s->srv);
	size_t i = 0, k, m;
	unsigned int nm;
	int sent;

	while (i < n) {
		for (nm = 0; nm < MMSG_BATCH && i < n; nm++, i += m) {
			m = n - i < RTP_PKTS ? n - i : RTP_PKTS;
			satip_rtp_header(hdr[nm], (uint16_t)(s->seq + nm), ts,
					 s->ssrc);
			iov[nm][0].iov_base = hdr[nm];
			iov[nm][0].iov_len = RTP_HDR;
			memset(&mm[nm], 0, sizeof(mm[nm]));
			mm[nm].msg_hdr.msg_name = &s->rtp_to;
			mm[nm].msg_hdr.msg_namelen = s->to_len;
			mm[nm].msg_hdr.msg_iov = iov[nm];
			mm[nm].msg_hdr.msg_iovlen =
				1 + vtd_satip_iov(iov[nm] + 1, pkt + i, m);
			pkts[nm] = m;
		}
		sent = sendmmsg(sp->rtp_fd, mm, nm, MSG_DONTWAIT);
		if (sent < 0)
			sent = 0;
		for (k = 0; k < nm; k++) {
			size_t pk = pkts[k];

			if ((int)k < sent) {
				s->packets++;
				s->octets += pk * 188;
			} else {
				s->dropped += pk;
			}
		}
		/* RTP numbers every datagram made, sent or not */
		s->seq = (uint16_t)(s->seq + nm);
	}
}

/*
 * The same datagrams, GSO_SEGS to one sendmsg() with UDP_SEGMENT: one
 * message of consecutive datagrams (header, 7 packets; the last may be
 * shorter) that the kernel cuts every RTP_DGRAM bytes.  Returns the
 * packets of pkt it sent or counted as dropped; fewer than n when the
 * kernel refuses UDP_SEGMENT for this destination (an old kernel, a
 * route without checksum offload or with a small MTU): s->no_gso is set
 * and the rest goes the plain way.
 */
static size_t vtd_satip_ts_gso(struct vtd_satip_sess *s,
			       const uint8_t *const *pkt, size_t n,
			       uint32_t ts)
{
	static uint8_t hdr[GSO_SEGS][RTP_HDR];
	static struct iovec iov[GSO_SEGS * (1 + RTP_PKTS)];
	union {
		char buf[CMSG_SPACE(sizeof(uint16_t))];
		struct cmsghdr align;
	} ctl;
	struct vtd_satip *sp = vtd_sp(s->srv);
	struct msghdr mh;
	struct cmsghdr *cm;
	size_t i = 0, m, pk;
	unsigned int nd, ni;
	uint16_t seg = RTP_DGRAM;
	ssize_t sent;

	while (i < n) {
		pk = 0;
		for (nd = 0, ni = 0; nd < GSO_SEGS && i + pk < n; nd++) {
			m = n - i - pk < RTP_PKTS ? n - i - pk : RTP_PKTS;
			satip_rtp_header(hdr[nd], (uint16_t)(s->seq + nd), ts,
					 s->ssrc);
			iov[ni].iov_base = hdr[nd];
			iov[ni++].iov_len = RTP_HDR;
			ni += vtd_satip_iov(iov + ni, pkt + i + pk, m);
			pk += m;
		}
		memset(&mh, 0, sizeof(mh));
		mh.msg_name = &s->rtp_to;
		mh.msg_namelen = s->to_len;
		mh.msg_iov = iov;
		mh.msg_iovlen = ni;
		if (nd > 1) {
			memset(&ctl, 0, sizeof(ctl));
			mh.msg_control = ctl.buf;
			mh.msg_controllen = sizeof(ctl.buf);
			cm = CMSG_FIRSTHDR(&mh);
			cm->cmsg_level = SOL_UDP;
			cm->cmsg_type = UDP_SEGMENT;
			cm->cmsg_len = CMSG_LEN(sizeof(seg));
			memcpy(CMSG_DATA(cm), &seg, sizeof(seg));
		}
		sent = sendmsg(sp->rtp_fd, &mh, MSG_DONTWAIT);
		if (sent < 0 && errno != EAGAIN && errno != ENOBUFS &&
		    errno != EINTR && errno != ECONNREFUSED) {
			vt_info("SAT>IP session %08x: UDP_SEGMENT (GSO) refused "
				"(%s): datagrams one by one",
				s->id, strerror(errno));
			s->no_gso = true;
			return i;
		}
		if (sent >= 0) {
			s->packets += nd;
			s->octets += pk * 188;
		} else {
			s->dropped += pk;
		}
		s->seq = (uint16_t)(s->seq + nd);
		i += pk;
	}
	return n;
}

static void vtd_satip_ts_udp(struct vtd_satip_sess *s,
			     const uint8_t *const *pkt, size_t n)
{
	uint64_t now = vt_now_ns();
	uint32_t ts = vtd_rtp_clock(now);
	size_t done = 0;

	if (!s->no_gso)
		done = vtd_satip_ts_gso(s, pkt, n, ts);
	if (done < n)
		vtd_satip_ts_mmsg(s, pkt + done, n - done, ts);
	s->last_rtp_ns = now;
}

static void vtd_satip_ts(struct vtd_stream *st, const uint8_t *const *pkt,
			 size_t n)
{
	struct vtd_satip_sess *s = (struct vtd_satip_sess *)
		((char *)st - offsetof(struct vtd_satip_sess, st));

	if (!s->playing || s->dead)
		return;
	if (s->tr == TR_UDP)
		vtd_satip_ts_udp(s, pkt, n);
	else
		vtd_satip_ts_tcp(s, pkt, n);
}

/* An RTP packet without payload: the client knows the session lives. */
static void vtd_satip_empty_rtp(struct vtd_satip_sess *s, uint64_t now)
{
	uint8_t buf[4 + RTP_HDR];

	if (s->tr == TR_HTTP)
		return;
	satip_rtp_header(buf + 4, s->seq++, vtd_rtp_clock(now), s->ssrc);
	if (s->tr == TR_UDP) {
		sendto(vtd_sp(s->srv)->rtp_fd, buf + 4, RTP_HDR, MSG_DONTWAIT,
		       (struct sockaddr *)&s->rtp_to, s->to_len);
	} else if (s->conn && !s->conn->dead) {
		satip_interleaved_hdr(buf, s->ch_rtp, RTP_HDR);
		if (vtp_queue_put(&s->conn->q, buf, sizeof(buf), 0) == 0)
			vtd_conn_flush(s->conn);
	}
	s->last_rtp_ns = now;
}

/* The fmtp / SES1 string of s: "ver=1.0;src=1;tuner=...;pids=..." */
static int vtd_satip_fmtp(const struct vtd_satip_sess *s, char *buf,
			  size_t len)
{
	const struct vtd_tuner *t = s->st.tuner;
	struct satip_fmtp_args a;
	struct satip_signal sig;

	memset(&a, 0, sizeof(a));
	if (t) {
		satip_signal_of(&t->status, s->tune.msys, &sig);
		a.fe = t->info.index + 1u;
		a.sig = &sig;
	}
	a.tune = s->tuned ? &s->tune : NULL;
	a.pids = &s->pids;
	return satip_fmtp(buf, len, &a);
}

static void vtd_satip_rtcp(struct vtd_satip_sess *s, uint64_t now)
{
	uint8_t pkt[1500], out[4 + 1500];
	char fmtp[600];
	struct timespec rt;
	uint64_t ntp;
	int n;

	if (s->tr == TR_HTTP || vtd_satip_fmtp(s, fmtp, sizeof(fmtp)) < 0)
		return;
	clock_gettime(CLOCK_REALTIME, &rt);
	ntp = satip_ntp((uint64_t)rt.tv_sec, (uint32_t)rt.tv_nsec);
	n = satip_rtcp_build(pkt, sizeof(pkt), s->ssrc, (uint32_t)s->packets,
			     (uint32_t)s->octets, ntp, vtd_rtp_clock(now),
			     fmtp);
	if (n <= 0)
		return;
	if (s->tr == TR_UDP) {
		sendto(vtd_sp(s->srv)->rtcp_fd, pkt, (size_t)n, MSG_DONTWAIT,
		       (struct sockaddr *)&s->rtcp_to, s->to_len);
	} else if (s->conn && !s->conn->dead) {
		satip_interleaved_hdr(out, s->ch_rtcp, (uint16_t)n);
		memcpy(out + 4, pkt, (size_t)n);
		if (vtp_queue_put(&s->conn->q, out, (size_t)n + 4, 0) == 0)
			vtd_conn_flush(s->conn);
	}
	s->last_rtcp_ns = now;
}

static unsigned int vtd_satip_period(const struct vtd_server *srv, uint64_t now)
{
	const struct vtd_satip *sp = vtd_sp(srv);
	const struct vtd_satip_sess *s;

	if (!sp)
		return 0;
	for (s = sp->sessions; s; s = s->next) {
		if (s->dead || !s->playing || s->tr == TR_HTTP)
			continue;
		if (now - s->last_rtp_ns >= 40 * 1000000ull)
			return 10;	/* an empty RTP packet may be due */
	}
	/* RTCP every 195 ms: the timer's idle 100 ms do */
	return 0;
}

unsigned int vtd_satip_tick(struct vtd_server *srv, uint64_t now)
{
	struct vtd_satip *sp = vtd_sp(srv);
	struct vtd_satip_sess *s;

	if (!sp)
		return 0;
	vtd_share_poll(srv, now);
	if (sp->ssdp && now >= sp->ssdp_due)
		sp->ssdp_due = vtd_ssdp_tick(sp->ssdp, now);
	for (s = sp->sessions; s; s = s->next) {
		if (s->dead)
			continue;
		if (s->tr == TR_UDP &&
		    now - s->last_ns >= vtd_satip_timeout(srv) * 1000000000ull) {
			vtd_satip_end(s, "timeout (no request naming it)");
			continue;
		}
		if (!s->playing)
			continue;
		if (now - s->last_rtp_ns >= EMPTY_RTP_NS)
			vtd_satip_empty_rtp(s, now);
		if (now - s->last_rtcp_ns >= RTCP_NS)
			vtd_satip_rtcp(s, now);
	}
	vtd_satip_reap(sp);
	return vtd_satip_period(srv, now);
}

/* ---- tuning ------------------------------------------------------------- */

static bool vtd_tuner_has(const struct vtd_tuner *t, unsigned int delsys)
{
	unsigned int i;

	for (i = 0; i < t->info.num_delsys; i++)
		if (t->info.delsys[i] == delsys)
			return true;
	return false;
}

/* SEC, then the properties: the transponder of tune on t. */
static int vtd_satip_tune_tuner(struct vtd_tuner *t,
				const struct satip_tune *tune,
				char *err, size_t errlen)
{
	struct satip_dvb d;
	int r;

	static const struct satip_lnb lnb = SATIP_LNB_UNIVERSAL;

	if (satip_tune_to_props(tune, &lnb, &d, err, errlen) < 0)
		return -EINVAL;
	if (d.sec) {
		/* the tone off while the switch is told, as DiSEqC wants */
		if ((r = vtd_share_sec_voltage(t, d.voltage)) < 0 ||
		    (d.diseqc.len &&
		     ((r = vtd_share_sec_tone(t, SEC_TONE_OFF)) < 0 ||
		      (r = vtd_share_sec_diseqc(t, d.diseqc.msg,
						d.diseqc.len)) < 0)) ||
		    (r = vtd_share_sec_tone(t, d.tone)) < 0) {
			snprintf(err, errlen, "SEC: %s", strerror(-r));
			return r;
		}
	}
	r = t->ops->tune(t, d.props, d.num);
	vtd_share_tuned(t, d.props, d.num, r);
	if (r < 0)
		snprintf(err, errlen, "tune: %s", strerror(-r));
	if (t->ops->flush_ts)
		t->ops->flush_ts(t);
	return r;
}

/* The tuning of tune as a vtp client would have made it (share.h). */
static bool vtd_satip_key(const struct satip_tune *tune, const struct vtd_tuner *t,
			  struct vtd_tuning *k)
{
	static const struct satip_lnb lnb = SATIP_LNB_UNIVERSAL;
	struct vtd_tuner tmp;
	struct satip_dvb d;
	char err[128];

	if (satip_tune_to_props(tune, &lnb, &d, err, sizeof(err)) < 0)
		return false;
	tmp = *t;
	memset(&tmp.sec, 0, sizeof(tmp.sec));
	if (d.sec) {
		tmp.sec.voltage = d.voltage;
		tmp.sec.tone = d.tone;
		tmp.sec.diseqc_len = d.diseqc.len;
		memcpy(tmp.sec.diseqc, d.diseqc.msg, d.diseqc.len);
	}
	vtd_tuning_of(k, &tmp, d.props, d.num);
	return true;
}

/*
 * s to the transponder of tune: the tuner it has if it is the only one
 * on it, one tuned there already (shared), else a free one; fe (1..N, 0:
 * any) names one.  0, or an RTSP status (503, 404) with header set.
 */
static int vtd_satip_retune(struct vtd_satip_sess *s,
			    const struct satip_tune *tune,
			    char *header, size_t hlen)
{
	struct vtd_server *srv = s->srv;
	struct vtd_satip *sp = vtd_sp(srv);
	struct vtd_tuner *cur = s->st.tuner, *t, *pick = NULL;
	char err[128];
	unsigned int i, lo = 0, hi = srv->tuners->num;
	uint32_t fe = satip_has(tune, SATIP_A_FE) ? tune->fe : 0;
	int r;

	if (fe) {
		if (fe > srv->tuners->num) {
			snprintf(header, hlen, "Check-Syntax: fe");
			return 404;
		}
		lo = fe - 1;
		hi = fe;
	}
	if (cur && s->tuned && satip_tune_same(&s->tune, tune) &&
	    (!fe || (uint32_t)cur->info.index + 1 == fe))
		return 0;
	/* alone on it: retune in place */
	if (cur && cur->nstreams == 1 && vtd_tuner_has(cur, tune->msys) &&
	    (!fe || (uint32_t)cur->info.index + 1 == fe)) {
		r = vtd_satip_tune_tuner(cur, tune, err, sizeof(err));
		if (r < 0) {
			vt_info("SAT>IP session %u: %s", s->id, err);
			snprintf(header, hlen, "Check-Syntax: %s", err);
			return r == -EINVAL ? 400 : 503;
		}
		sp->tuned[cur->info.index] = *tune;
		sp->tuned_gen[cur->info.index] = cur->tune_gen;
		s->tune = *tune;
		s->tuned = true;
		return 0;
	}
	for (i = lo; i < hi && !pick; i++) {
		struct vtd_tuning k;

		t = srv->tuners->t[i];
		if (t == cur || !vtd_share_busy(t) ||
		    !vtd_satip_key(tune, t, &k) ||
		    !vtd_tuning_same(&t->tuning, &k))
			continue;
		/* tuned by a SAT>IP session last: every attribute */
		if (t->nstreams && sp->tuned_gen[i] == t->tune_gen &&
		    !satip_tune_same(&sp->tuned[i], tune))
			continue;
		/* a vtunerc client's, on that transponder: shared from now */
		if (!t->owner || vtd_session_share(srv, t) == 0)
			pick = t;
	}
	for (i = lo; i < hi && !pick; i++) {
		t = srv->tuners->t[i];
		if (!vtd_share_busy(t) && vtd_tuner_has(t, tune->msys))
			pick = t;
	}
	if (!pick) {
		snprintf(header, hlen, "No-More: frontends");
		return 503;
	}
	vtd_share_leave(srv, &s->st);
	s->tuned = false;
	if (pick->nstreams) {
		r = vtd_share_join(srv, &s->st, pick);
	} else {
		r = vtd_share_join(srv, &s->st, pick);
		if (!r) {
			r = vtd_satip_tune_tuner(pick, tune, err, sizeof(err));
			if (r < 0) {
				vt_info("SAT>IP session %u: tuner %u: %s",
					s->id, pick->info.index, err);
				vtd_share_leave(srv, &s->st);
				snprintf(header, hlen, "Check-Syntax: %s", err);
				return r == -EINVAL ? 400 : 503;
			}
			sp->tuned[pick->info.index] = *tune;
			sp->tuned_gen[pick->info.index] = pick->tune_gen;
		}
	}
	if (r < 0) {
		snprintf(header, hlen, "No-More: frontends");
		return 503;
	}
	s->tune = *tune;
	s->tuned = true;
	vt_info("SAT>IP session %u (%s): tuner %u (%s), %u stream(s)", s->id,
		s->peer, pick->info.index, pick->where, pick->nstreams);
	return 0;
}

/* The PIDs s asked for to its tuner. */
static void vtd_satip_apply_pids(struct vtd_satip_sess *s)
{
	char missing[128];

	if (!s->st.tuner)
		return;
	if (vtd_share_set_pids(&s->st, s->pids.pid, s->pids.num,
			       s->pids.all, missing, sizeof(missing)) < 0)
		vt_warn("SAT>IP session %u (%s): tuner %u does not deliver %s",
			s->id, s->peer, s->st.tuner->info.index, missing);
}

/*
 * The query of a SETUP or PLAY: tune (when it names a transponder) and
 * PIDs.  0, or an RTSP status with header set.
 */
static int vtd_satip_query(struct vtd_satip_sess *s, const struct satip_req *q,
			   char *header, size_t hlen)
{
	struct satip_tune tune;
	struct satip_pids_op op;
	char err[128];
	int code;

	if (!q->has_query || !q->query[0])
		return 0;
	if (satip_query_parse(q->query, &tune, &op, err, sizeof(err)) < 0) {
		snprintf(header, hlen, "Check-Syntax: %s", err);
		return 400;
	}
	if (satip_has(&tune, SATIP_A_FREQ)) {
		code = vtd_satip_retune(s, &tune, header, hlen);
		if (code)
			return code;
	}
	if (satip_pids_apply(&s->pids, &op) < 0) {
		snprintf(header, hlen, "No-More: pids");
		return 503;
	}
	vtd_satip_apply_pids(s);
	return 0;
}

/* ---- requests ----------------------------------------------------------- */

static const char *vtd_satip_host(const struct vtd_conn *c, char *buf,
				  size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(c->ev.fd, (struct sockaddr *)&ss, &sl) < 0 ||
	    getnameinfo((struct sockaddr *)&ss, sl, buf, (socklen_t)len, NULL,
			0, NI_NUMERICHOST))
		snprintf(buf, len, "0.0.0.0");
	return buf;
}

/* Where the RTP and RTCP of a UDP session go: the client, its ports. */
static int vtd_satip_dest(struct vtd_satip_sess *s, struct vtd_conn *c,
			  const struct satip_transport *tr)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getpeername(c->ev.fd, (struct sockaddr *)&ss, &sl) < 0)
		return -errno;
	s->rtp_to = ss;
	s->rtcp_to = ss;
	s->to_len = sl;
	if (ss.ss_family == AF_INET) {
		((struct sockaddr_in *)&s->rtp_to)->sin_port =
			htons(tr->client_port[0]);
		((struct sockaddr_in *)&s->rtcp_to)->sin_port =
			htons(tr->client_port[1]);
	} else {
		((struct sockaddr_in6 *)&s->rtp_to)->sin6_port =
			htons(tr->client_port[0]);
		((struct sockaddr_in6 *)&s->rtcp_to)->sin6_port =
			htons(tr->client_port[1]);
	}
	return 0;
}

static void vtd_satip_options(struct vtd_conn *c, const struct satip_req *q)
{
	struct vtd_satip_sess *s = NULL;
	char *buf = vtd_sp(c->srv)->reply;
	int n;

	if (q->session[0]) {
		s = vtd_satip_find(c, q->session);
		if (!s) {
			vtd_satip_error(c, q, 454, NULL);
			return;
		}
		s->last_ns = vt_now_ns();
	}
	n = vtd_satip_start(buf, 8192, q, 200);
	n = satip_reply_add(buf, 8192, n, "Public: OPTIONS, DESCRIBE, SETUP, "
			    "PLAY, TEARDOWN\r\n");
	if (s)
		n = satip_reply_add(buf, 8192, n, "Session: %u;timeout=%u\r\n",
				    s->id, vtd_satip_timeout(c->srv));
	n = satip_reply_add(buf, 8192, n, "\r\n");
	if (n > 0)
		vtd_satip_send(c, buf, (size_t)n);
}

static bool vtd_satip_room(struct vtd_conn *c, const struct satip_req *q)
{
	struct vtd_server *srv = c->srv;
	unsigned int max = srv->cfg->max_clients;

	unsigned int per = srv->cfg->max_per_addr, from = 0;
	struct vtd_satip_sess *s;

	if (max && srv->nsessions + vtd_sp(srv)->nsessions >= max) {
		vt_info("%s: SAT>IP session refused: %u clients and sessions "
			"(--max-clients %u)", c->peer,
			srv->nsessions + vtd_sp(srv)->nsessions, max);
		vtd_satip_error(c, q, 503, "No-More: sessions");
		return false;
	}
	for (s = vtd_sp(srv)->sessions; s; s = s->next)
		if (!s->dead && !strcmp(s->addr, c->addr))
			from++;
	if (per && from >= per) {
		vt_info("%s: SAT>IP session refused: %u sessions from %s "
			"(--max-per-addr %u)", c->peer, from, c->addr, per);
		vtd_satip_error(c, q, 503, "No-More: sessions");
		return false;
	}
	return true;
}

static void vtd_satip_setup(struct vtd_conn *c, const struct satip_req *q)
{
	const struct satip_transport *tr = &q->transport;
	struct vtd_satip *sp = vtd_sp(c->srv);
	struct vtd_satip_sess *s;
	char header[200] = "", host[64];
	char *buf = sp->reply;
	bool created = false;
	int code, n;

	if (tr->profile == SATIP_TR_NONE || tr->profile == SATIP_TR_OTHER ||
	    tr->multicast ||
	    (tr->profile == SATIP_TR_UDP && !tr->has_client_port)) {
		vtd_satip_error(c, q, 461, NULL);
		return;
	}
	if (q->session[0]) {
		s = vtd_satip_find(c, q->session);
		if (!s) {
			vtd_satip_error(c, q, 454, NULL);
			return;
		}
	} else {
		if (!vtd_satip_room(c, q))
			return;
		s = vtd_satip_new(c, tr->profile == SATIP_TR_TCP ? TR_TCP :
				  TR_UDP);
		if (!s) {
			vtd_satip_error(c, q, 503, NULL);
			return;
		}
		created = true;
	}
	s->last_ns = vt_now_ns();
	s->conn = c;
	if (tr->profile == SATIP_TR_TCP) {
		s->tr = TR_TCP;
		s->ch_rtp = tr->has_interleaved ? tr->interleaved[0] : 0;
		s->ch_rtcp = tr->has_interleaved ? tr->interleaved[1] : 1;
	} else {
		s->tr = TR_UDP;
		if (vtd_satip_dest(s, c, tr) < 0) {
			vtd_satip_end(s, "no peer address");
			vtd_satip_error(c, q, 500, NULL);
			return;
		}
	}
	code = vtd_satip_query(s, q, header, sizeof(header));
	if (code || q->query[0])
		vt_info("SAT>IP session %u (%s): SETUP ?%s: %d%s%s", s->id,
			c->peer, q->query, code ? code : 200,
			header[0] ? " " : "", header);
	if (code) {
		if (created)
			vtd_satip_end(s, "refused");
		vtd_satip_error(c, q, code, header[0] ? header : NULL);
		return;
	}
	n = vtd_satip_start(buf, 8192, q, 200);
	n = satip_reply_add(buf, 8192, n, "Session: %u;timeout=%u\r\n",
			    s->id, vtd_satip_timeout(c->srv));
	if (s->tr == TR_TCP)
		n = satip_reply_add(buf, 8192, n, "Transport: RTP/AVP/TCP;"
				    "unicast;interleaved=%u-%u\r\n",
				    s->ch_rtp, s->ch_rtcp);
	else
		n = satip_reply_add(buf, 8192, n, "Transport: RTP/AVP;unicast;"
				    "destination=%s;source=%s;"
				    "client_port=%u-%u;server_port=%u-%u\r\n",
				    c->addr, vtd_satip_host(c, host, sizeof(host)),
				    tr->client_port[0], tr->client_port[1],
				    sp->rtp_port, sp->rtp_port + 1);
	n = satip_reply_add(buf, 8192, n, "com.ses.streamID: %u\r\n\r\n",
			    s->stream_id);
	if (n > 0)
		vtd_satip_send(c, buf, (size_t)n);
	if (created)
		vt_info("SAT>IP session %u (stream %u) for %s, RTP over %s",
			s->id, s->stream_id, c->peer,
			s->tr == TR_TCP ? "RTSP (TCP)" : "UDP");
}

static void vtd_satip_play(struct vtd_conn *c, const struct satip_req *q)
{
	struct vtd_satip_sess *s;
	char header[200] = "", host[64];
	char *buf = vtd_sp(c->srv)->reply;
	int code, n;

	s = q->session[0] ? vtd_satip_find(c, q->session) : NULL;
	if (!s) {
		vtd_satip_error(c, q, 454, NULL);
		return;
	}
	s->last_ns = vt_now_ns();
	if (s->tr == TR_UDP)
		s->conn = c;
	code = vtd_satip_query(s, q, header, sizeof(header));
	if (code || q->query[0])
		vt_info("SAT>IP session %u (%s): PLAY ?%s: %d%s%s", s->id,
			c->peer, q->query, code ? code : 200,
			header[0] ? " " : "", header);
	if (code) {
		vtd_satip_error(c, q, code, header[0] ? header : NULL);
		return;
	}
	if (!s->playing) {
		s->playing = true;
		s->last_rtp_ns = s->last_rtcp_ns = 0;
	}
	n = vtd_satip_start(buf, 8192, q, 200);
	n = satip_reply_add(buf, 8192, n, "Session: %u;timeout=%u\r\n"
			    "RTP-Info: url=rtsp://%s/stream=%u;seq=%u\r\n"
			    "Range: npt=0.000-\r\n\r\n", s->id,
			    vtd_satip_timeout(c->srv),
			    vtd_satip_host(c, host, sizeof(host)),
			    s->stream_id, s->seq);
	if (n > 0)
		vtd_satip_send(c, buf, (size_t)n);
	/* the client knows at once that the stream runs */
	vtd_satip_empty_rtp(s, vt_now_ns());
}

static void vtd_satip_teardown(struct vtd_conn *c, const struct satip_req *q)
{
	struct vtd_satip_sess *s;
	char *buf = vtd_sp(c->srv)->reply;
	int n;

	s = q->session[0] ? vtd_satip_find(c, q->session) : NULL;
	if (!s) {
		vtd_satip_error(c, q, 454, NULL);
		return;
	}
	n = vtd_satip_start(buf, 8192, q, 200);
	n = satip_reply_add(buf, 8192, n, "Session: %u\r\n\r\n", s->id);
	if (n > 0)
		vtd_satip_send(c, buf, (size_t)n);
	vtd_satip_end(s, "TEARDOWN");
}

/* The SDP of one session, or of all when q names no stream. */
static void vtd_satip_describe(struct vtd_conn *c, const struct satip_req *q)
{
	struct vtd_satip *sp = vtd_sp(c->srv);
	struct vtd_satip_sess *s, *only = NULL;
	struct satip_sdp_stream *st;
	struct satip_sdp_args a;
	char host[64], (*fmtp)[600];
	unsigned int k = 0, i;
	int n, len;

	vtd_satip_host(c, host, sizeof(host));
	/* stream=N that the parser could not take is no stream at all */
	if (q->stream_id < 0 && strstr(q->path, "stream=")) {
		vtd_satip_error(c, q, 404, NULL);
		return;
	}
	if (q->stream_id >= 0) {
		only = vtd_satip_by_stream(c->srv, q->stream_id);
		if (!only) {
			vtd_satip_error(c, q, 404, NULL);
			return;
		}
	} else if (q->session[0]) {
		only = vtd_satip_find(c, q->session);
	}
	st = calloc(sp->nsessions + 1, sizeof(*st));
	fmtp = calloc(sp->nsessions + 1, sizeof(*fmtp));
	if (!st || !fmtp) {
		free(st);
		free(fmtp);
		vtd_satip_error(c, q, 503, NULL);
		return;
	}
	for (s = sp->sessions; s && k < sp->nsessions; s = s->next) {
		if (s->dead || (only && s != only) ||
		    vtd_satip_fmtp(s, fmtp[k], sizeof(fmtp[k])) < 0)
			continue;
		st[k].stream_id = s->stream_id;
		st[k].fmtp = fmtp[k];
		st[k].active = s->playing;
		k++;
	}
	memset(&a, 0, sizeof(a));
	a.addr = host;
	a.session = only ? only->id : 0;
	for (i = 0; i < 3; i++)
		a.frontends[i] = sp->frontends[i];
	a.streams = st;
	a.num_streams = k;
	len = k ? satip_sdp(sp->body, sizeof(sp->body), &a) : -ENOENT;
	free(st);
	free(fmtp);
	if (len < 0) {
		vtd_satip_error(c, q, 404, NULL);
		return;
	}
	n = vtd_satip_start(sp->reply, sizeof(sp->reply), q, 200);
	if (only)
		n = satip_reply_add(sp->reply, sizeof(sp->reply), n,
				    "Session: %u\r\n", only->id);
	n = satip_reply_add(sp->reply, sizeof(sp->reply), n,
			    "Content-Type: application/sdp\r\n"
			    "Content-Base: rtsp://%s/\r\n"
			    "Content-Length: %d\r\n\r\n", host, len);
	if (n > 0) {
		vtd_satip_send(c, sp->reply, (size_t)n);
		if (!c->dead)
			vtd_satip_send(c, sp->body, (size_t)len);
	}
}

/* The M3U list, with this connection's address in its URLs. */
static void vtd_satip_m3u(struct vtd_conn *c, const struct satip_req *q)
{
	struct vtd_satip *sp = vtd_sp(c->srv);
	struct satip_m3u_entry *e = calloc(sp->nchans, sizeof(*e));
	char host[64], *body = NULL;
	size_t cap = 256 + (size_t)sp->nchans * 320;
	unsigned int i;
	int n, len = -1;

	body = malloc(cap);
	if (e && body) {
		for (i = 0; i < sp->nchans; i++) {
			e[i].name = sp->chans[i].name;
			e[i].query = sp->chans[i].query;
			e[i].pids = sp->chans[i].pids;
			e[i].npids = sp->chans[i].npids;
		}
		len = satip_m3u(body, cap, vtd_satip_host(c, host, sizeof(host)),
				sp->rtsp_port, e, sp->nchans);
	}
	free(e);
	if (len < 0) {
		free(body);
		vtd_satip_error(c, q, 500, NULL);
		return;
	}
	n = vtd_satip_start(sp->reply, sizeof(sp->reply), q, 200);
	n = satip_reply_add(sp->reply, sizeof(sp->reply), n,
			    "Content-Type: audio/x-mpegurl\r\n"
			    "Content-Length: %d\r\n\r\n", len);
	if (n > 0) {
		vtd_satip_send(c, sp->reply, (size_t)n);
		if (!c->dead && q->method == SATIP_M_GET)
			vtd_satip_send(c, body, (size_t)len);
	}
	free(body);
}

/* A service of the sim as a SAT>IP query (src from its switch position). */
static void vtd_satip_chan_add(void *ctx, const struct vtd_service *v)
{
	struct vtd_satip *sp = ctx;
	struct vtd_satip_chan *ch;
	struct satip_tune t;

	memset(&t, 0, sizeof(t));
#define SET(a, f, val) do { t.f = (val); t.present |= 1u << SATIP_A_##a; } while (0)
	SET(MSYS, msys, v->delsys);
	if (vt_delsys_is_sat(v->delsys)) {
		SET(SRC, src, v->position + 1);
		SET(FREQ, freq, v->frequency);
		SET(POL, pol, v->horizontal ? SATIP_POL_H : SATIP_POL_V);
		SET(SR, sr, v->symbol_rate);
		if (v->delsys == SYS_DVBS2)
			SET(RO, ro, v->rolloff);
	} else {
		SET(FREQ, freq, v->frequency / 1000);
		if (v->bandwidth_hz)
			SET(BW, bw, v->bandwidth_hz);
		if (v->symbol_rate)
			SET(SR, sr, v->symbol_rate);
		if (v->delsys == SYS_DVBT2)
			SET(PLP, plp, v->plp);
	}
	if (v->modulation != QAM_AUTO)
		SET(MTYPE, mtype, v->modulation);
	if (v->fec != FEC_AUTO && v->fec != FEC_NONE)
		SET(FEC, fec, v->fec);
#undef SET
	if (sp->nchans % 16 == 0) {
		ch = realloc(sp->chans, (sp->nchans + 16) * sizeof(*ch));
		if (!ch)
			return;
		sp->chans = ch;
	}
	ch = &sp->chans[sp->nchans];
	memset(ch, 0, sizeof(*ch));
	if (satip_query_format(ch->query, sizeof(ch->query), &t) < 0 ||
	    v->npids > 4)
		return;
	snprintf(ch->name, sizeof(ch->name), "%s", v->name);
	ch->pids[0] = 0;
	memcpy(ch->pids + 1, v->pids, v->npids * sizeof(v->pids[0]));
	ch->npids = v->npids + 1;
	sp->nchans++;
}

static void vtd_satip_desc(const struct vtd_satip *sp, struct satip_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->friendly_name = sp->name;
	d->model_number = VT_VERSION;
	d->uuid = sp->uuid;
	d->caps = sp->caps;
	d->m3u_url = sp->nchans ? "/channels.m3u" : NULL;
	d->config_id = satip_config_id(d);
}

/* HTTP: desc.xml, or GET /?QUERY: the TS of that query until closed. */
static void vtd_satip_http(struct vtd_conn *c, const struct satip_req *q)
{
	struct vtd_satip *sp = vtd_sp(c->srv);
	struct vtd_satip_sess *s;
	struct satip_desc d;
	char header[200] = "";
	int n, len, code;

	if (!strcmp(q->path, "/desc.xml")) {
		vtd_satip_desc(sp, &d);
		len = satip_desc_xml(sp->body, sizeof(sp->body), &d);
		if (len < 0) {
			vtd_satip_error(c, q, 500, NULL);
			return;
		}
		n = vtd_satip_start(sp->reply, sizeof(sp->reply), q, 200);
		n = satip_reply_add(sp->reply, sizeof(sp->reply), n,
				    "Content-Type: text/xml; charset=utf-8\r\n"
				    "Content-Length: %d\r\n", len);
		if (sp->rtsp_port != 554)
			n = satip_reply_add(sp->reply, sizeof(sp->reply), n,
					    "X-SATIP-RTSP-Port: %u\r\n",
					    sp->rtsp_port);
		n = satip_reply_add(sp->reply, sizeof(sp->reply), n, "\r\n");
		if (n > 0) {
			vtd_satip_send(c, sp->reply, (size_t)n);
			if (!c->dead && q->method == SATIP_M_GET)
				vtd_satip_send(c, sp->body, (size_t)len);
		}
		return;
	}
	if (!strcmp(q->path, "/channels.m3u") && sp->nchans) {
		vtd_satip_m3u(c, q);
		return;
	}
	if (strcmp(q->path, "/") || !q->has_query || q->method != SATIP_M_GET) {
		vtd_satip_error(c, q, 404, NULL);
		return;
	}
	if (!vtd_satip_room(c, q))
		return;
	s = vtd_satip_new(c, TR_HTTP);
	if (!s) {
		vtd_satip_error(c, q, 503, NULL);
		return;
	}
	code = vtd_satip_query(s, q, header, sizeof(header));
	if (!code && !s->st.tuner)
		code = 400;	/* nothing to stream without a transponder */
	if (code) {
		vtd_satip_end(s, "refused");
		vtd_satip_error(c, q, code, header[0] ? header : NULL);
		return;
	}
	n = vtd_satip_start(sp->reply, sizeof(sp->reply), q, 200);
	n = satip_reply_add(sp->reply, sizeof(sp->reply), n,
			    "Content-Type: video/MP2T\r\n"
			    "Cache-Control: no-cache\r\n"
			    "Connection: close\r\n\r\n");
	if (n > 0)
		vtd_satip_send(c, sp->reply, (size_t)n);
	s->playing = true;
	vtd_rtsp_http_streaming(c);
	vt_info("SAT>IP session %u: HTTP stream for %s", s->id, c->peer);
}

void vtd_satip_request(struct vtd_conn *c, const struct satip_req *q,
		       const char *body)
{
	(void)body;
	vt_debug("#%u %s: %s %s%s%s", c->id, c->peer, q->method_name, q->path,
		 q->has_query ? "?" : "", q->query);
	if (q->proto == SATIP_HTTP) {
		vtd_satip_http(c, q);
		return;
	}
	switch (q->method) {
	case SATIP_M_OPTIONS:
		vtd_satip_options(c, q);
		break;
	case SATIP_M_SETUP:
		vtd_satip_setup(c, q);
		break;
	case SATIP_M_PLAY:
		vtd_satip_play(c, q);
		break;
	case SATIP_M_TEARDOWN:
		vtd_satip_teardown(c, q);
		break;
	case SATIP_M_DESCRIBE:
		vtd_satip_describe(c, q);
		break;
	case SATIP_M_GET_PARAMETER:
		vtd_satip_options(c, q);	/* a keepalive too */
		break;
	default:
		vtd_satip_error(c, q, 405, NULL);
		break;
	}
}

/* ---- setup -------------------------------------------------------------- */

/* An even port for RTP, the next for RTCP, on the RTSP address. */
static int vtd_satip_udp(struct vtd_satip *sp, const struct sockaddr *sa,
			 socklen_t sl)
{
	struct sockaddr_storage ss;
	socklen_t l;
	int i, a, b, sz = 4 << 20;

	for (i = 0; i < 64; i++) {
		memcpy(&ss, sa, sl);
		if (ss.ss_family == AF_INET)
			((struct sockaddr_in *)&ss)->sin_port = 0;
		else
			((struct sockaddr_in6 *)&ss)->sin6_port = 0;
		a = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		b = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (a < 0 || b < 0 || bind(a, (struct sockaddr *)&ss, sl) < 0)
			goto next;
		l = sl;
		getsockname(a, (struct sockaddr *)&ss, &l);
		if (ss.ss_family == AF_INET) {
			struct sockaddr_in *in = (struct sockaddr_in *)&ss;

			if (ntohs(in->sin_port) & 1)
				goto next;
			sp->rtp_port = ntohs(in->sin_port);
			in->sin_port = htons(sp->rtp_port + 1);
		} else {
			struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

			if (ntohs(in6->sin6_port) & 1)
				goto next;
			sp->rtp_port = ntohs(in6->sin6_port);
			in6->sin6_port = htons(sp->rtp_port + 1);
		}
		if (bind(b, (struct sockaddr *)&ss, sl) < 0)
			goto next;
		setsockopt(a, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
		sp->rtp_fd = a;
		sp->rtcp_fd = b;
		return 0;
next:
		if (a >= 0)
			close(a);
		if (b >= 0)
			close(b);
	}
	return -1;
}

/* EV_FD of the SSDP socket */
static void vtd_satip_ssdp_event(struct vtd_server *srv, struct vtd_ev *ev)
{
	struct vtd_satip *sp = vtd_sp(srv);

	uint64_t now = vt_now_ns();

	if (sp && sp->ssdp && ev == &sp->ssdp_ev) {
		vtd_ssdp_input(sp->ssdp, now);
		/* a new DEVICEID is announced at once */
		sp->ssdp_due = vtd_ssdp_tick(sp->ssdp, now);
	}
}

/* SSDP on the RTSP address; a failure is a warning, not fatal. */
static void vtd_satip_announce(struct vtd_server *srv, struct vtd_satip *sp,
			       const char *host)
{
	struct vtd_ssdp_config sc;
	struct satip_desc d;
	int err;

	vtd_satip_desc(sp, &d);
	memset(&sc, 0, sizeof(sc));
	sc.bind_addr = host[0] ? host : NULL;
	sc.http_port = sp->rtsp_port;
	sc.rtsp_port = sp->rtsp_port;
	sc.uuid = sp->uuid;
	sc.device_id = 1;
	sc.config_id = d.config_id;
	err = vtd_ssdp_open(&sp->ssdp, &sc);
	if (err < 0) {
		vt_warn("SAT>IP: no SSDP announcement (port %u: %s): clients "
			"must be given the address", VTD_SSDP_PORT,
			strerror(-err));
		sp->ssdp = NULL;
		return;
	}
	sp->ssdp_ev.kind = EV_FD;
	sp->ssdp_ev.fn = vtd_satip_ssdp_event;
	if (vtd_server_watch(srv, &sp->ssdp_ev, vtd_ssdp_fd(sp->ssdp),
			     true) < 0) {
		vt_warn("SAT>IP: SSDP: epoll_ctl: %s", strerror(errno));
		vtd_ssdp_close(sp->ssdp);
		sp->ssdp = NULL;
		return;
	}
	sp->ssdp_due = 0;
}

int vtd_satip_init(struct vtd_server *srv, const char *spec)
{
	struct vtd_satip *sp = calloc(1, sizeof(*sp));
	struct satip_tuner_caps caps[VTD_MAX_TUNERS];
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char full[300], seed[300], host[256];
	unsigned int i;

	if (!sp) {
		vt_err("out of memory");
		return -1;
	}
	sp->rtp_fd = sp->rtcp_fd = -1;
	srv->satip = sp;
	/* ADDR alone: port 554 */
	if (vtd_parse_listen(spec, host, sizeof(host), seed, sizeof(seed)) < 0) {
		snprintf(full, sizeof(full), "%s:%u", spec,
			 VTD_SATIP_DEFAULT_PORT);
		if (vtd_parse_listen(full, host, sizeof(host), seed,
				     sizeof(seed)) < 0) {
			vt_err("--satip: '%s': expected ADDR or ADDR:PORT",
			       spec);
			return -1;
		}
	} else {
		snprintf(full, sizeof(full), "%s", spec);
	}
	snprintf(sp->name, sizeof(sp->name), "%s",
		 srv->cfg->name ? srv->cfg->name : "vtunerd");
	if (vtd_server_listen(srv, "--satip", full, &vtd_rtsp_ops, sp->listen,
			      &sp->nlisten, VTD_MAX_LISTEN) < 0 ||
	    vtd_server_add_kind(srv, &vtd_rtsp_ops) < 0)
		return -1;
	if (getsockname(sp->listen[0].ev.fd, (struct sockaddr *)&ss, &sl) < 0 ||
	    vtd_satip_udp(sp, (struct sockaddr *)&ss, sl) < 0) {
		vt_err("--satip %s: no UDP port pair for RTP and RTCP: %s",
		       spec, strerror(errno));
		return -1;
	}
	sp->rtsp_port = ss.ss_family == AF_INET ?
		ntohs(((struct sockaddr_in *)&ss)->sin_port) :
		ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	for (i = 0; i < srv->tuners->num; i++) {
		caps[i].delsys = srv->tuners->t[i]->info.delsys;
		caps[i].num = srv->tuners->t[i]->info.num_delsys;
	}
	satip_caps(sp->caps, sizeof(sp->caps), caps, srv->tuners->num);
	for (i = 0; i < srv->tuners->num; i++) {
		int type = satip_tuner_type(caps[i].delsys, caps[i].num);

		if (type == SATIP_DVBS2)
			sp->frontends[0]++;
		else if (type == SATIP_DVBT || type == SATIP_DVBT2)
			sp->frontends[1]++;
		else if (type == SATIP_DVBC || type == SATIP_DVBC2)
			sp->frontends[2]++;
	}
	gethostname(seed, sizeof(seed) - 8);
	seed[sizeof(seed) - 8] = 0;
	snprintf(seed + strlen(seed), 8, ":%u", sp->rtsp_port);
	satip_uuid_from(seed, sp->uuid);
	vtd_sim_services(vtd_satip_chan_add, sp);
	if (srv->cfg->satip_channels &&
	    vtd_channels_load(srv->cfg->satip_channels, vtd_satip_chan_add, sp,
			      full, sizeof(full)) < 0) {
		vt_err("--satip-channels %s", full);
		return -1;
	}
	if (srv->cfg->satip_announce)
		vtd_satip_announce(srv, sp, host);
	vt_notice("SAT>IP: RTSP on port %u, RTP from ports %u-%u, tuners %s",
		  sp->rtsp_port, sp->rtp_port, sp->rtp_port + 1,
		  sp->caps[0] ? sp->caps : "(none of a SAT>IP type)");
	return 0;
}

void vtd_satip_fini(struct vtd_server *srv)
{
	struct vtd_satip *sp = vtd_sp(srv);
	struct vtd_satip_sess *s;
	unsigned int i;

	if (!sp)
		return;
	for (s = sp->sessions; s; s = s->next)
		vtd_satip_end(s, "server stopped");
	vtd_satip_reap(sp);
	for (i = 0; i < sp->nlisten; i++)
		close(sp->listen[i].ev.fd);
	if (sp->ssdp) {
		vtd_server_watch(srv, &sp->ssdp_ev, sp->ssdp_ev.fd, false);
		vtd_ssdp_close(sp->ssdp);
	}
	if (sp->rtp_fd >= 0)
		close(sp->rtp_fd);
	if (sp->rtcp_fd >= 0)
		close(sp->rtcp_fd);
	free(sp->chans);
	free(sp);
	srv->satip = NULL;
}
