/* SPDX-License-Identifier: GPL-2.0 */
/*
 * server.h - vtunerd: the event loop, its connections and sessions.
 *
 * server.c owns the sockets (accept, read, write, timers, signals);
 * session.c handles the protocol messages of a connection and moves the
 * TS of an open tuner to the data connection.
 */
#ifndef VTD_SERVER_H
#define VTD_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/vtp.h"
#include "proto/vtp_auth.h"
#include "proto/vtp_io.h"
#include "proto/vtp_queue.h"
#include "proto/vtp_seal.h"
#include "server/backend.h"
#include "server/share.h"

#define VTD_DEFAULT_PORT	5911
#define VTD_DEFAULT_LISTEN	"127.0.0.1:5911"
#define VTD_MAX_LISTEN		8
#define VTD_CTRL_QUEUE		(1024 * 1024)	/* control output queue */
#define VTD_SMALL_QUEUE		(64 * 1024)	/* until the handshake ends */
/* frames they hold at most (the smallest frame is VTP_HDR_LEN bytes) */
#define VTD_CTRL_FRAMES		(VTD_CTRL_QUEUE / 64)
#define VTD_SMALL_FRAMES	(VTD_SMALL_QUEUE / VTP_HDR_LEN)
/*
 * A connection must complete its handshake (HELLO without a key, AUTH
 * with one, DATA_ATTACH for a data connection) within VTD_HANDSHAKE_S of
 * accept(), or --timeout if that is shorter, whatever it sends meanwhile.
 */
#define VTD_HANDSHAKE_S		10
#define VTD_STATUS_POLL_MS	100		/* frontend status poll */
/*
 * After a tune, until its lock has been pushed (VTD_STATUS_FAST_WINDOW_MS
 * at most), the frontend is polled every VTD_STATUS_FAST_MS, so that a
 * lock reaches the client within a few ms rather than half a poll period
 * later (it dominates the zap time otherwise).
 */
#define VTD_STATUS_FAST_MS	5
#define VTD_STATUS_FAST_WINDOW_MS	3000
/* and for the first VTD_STATUS_FIRST_WINDOW_MS every VTD_STATUS_FIRST_MS */
#define VTD_STATUS_FIRST_MS	1
#define VTD_STATUS_FIRST_WINDOW_MS	100
#define VTD_STATUS_PUSH_MS	1000		/* STATUS at least this often */
#define VTD_KEEPALIVE_S		10		/* KEEPALIVE after idle */

struct vtd_config {
	const char *listen[VTD_MAX_LISTEN];
	unsigned int nlisten;
	unsigned int max_clients;
	unsigned int timeout_s;		/* 0: never time out */
	size_t ts_queue;		/* bytes, data connection queue */
	const char *name;		/* server name in HELLO_REPLY */
	const struct vtp_psk *psk;	/* --psk-file, or NULL */
	bool seal_ocb;			/* with psk: grant VTP_FEAT_SEAL_OCB */
	unsigned int max_per_addr;	/* connections from one address */
	const char *satip;		/* --satip ADDR[:PORT], or NULL */
	bool satip_announce;		/* SSDP (not with --no-announce) */
	unsigned int satip_timeout_s;	/* 0: VTD_SATIP_TIMEOUT_S */
	const char *satip_channels;	/* --satip-channels FILE, or NULL */
};

enum vtd_conn_kind { CONN_NEW, CONN_CONTROL, CONN_DATA };

struct vtd_server;
struct vtd_session;

struct vtd_conn;

/*
 * What a kind of connection does with its socket: the protocol of a
 * listening socket's connections (conn_vtp.c: vtp control and data
 * connections; conn_rtsp.c: RTSP and HTTP).  server.c owns the socket,
 * the output queue and the lifetime; the ops own the protocol.
 */
struct vtd_conn_ops {
	const char *name;		/* "vtp", "rtsp" */
	size_t queue;			/* output queue, bytes, at accept */
	size_t frames;			/* and frames */
	/* Set up the kind's state of a new connection: 0 or -errno. */
	int (*init)(struct vtd_conn *c);
	/* The socket is readable (the loop's fairness is the ops' job). */
	void (*input)(struct vtd_conn *c);
	/* Closed: release what it holds (tuners, sessions); not freed yet. */
	void (*closed)(struct vtd_conn *c);
	/* Free the kind's state (the connection is about to be freed). */
	void (*free)(struct vtd_conn *c);
	/* Not yet through its handshake: counts for the accept limits. */
	bool (*pending)(const struct vtd_conn *c);
	/* Once a second: timeouts, keepalives. */
	void (*house)(struct vtd_conn *c, uint64_t now);
	/*
	 * A peer refused (vtd_conn_refuse()): tell it why before the close,
	 * if reqid names a request it made.
	 */
	void (*refuse)(struct vtd_conn *c, uint32_t reqid, int err,
		       const char *why);
	/*
	 * Every timer tick, once for the kind (status polls, RTCP...): the
	 * timer period it needs now in ms, 0 for no wish.
	 */
	unsigned int (*tick)(struct vtd_server *srv, uint64_t now);
};

/* A listening socket and the kind of its connections. */
struct vtd_listener {
	struct vtd_ev ev;		/* EV_LISTEN */
	const struct vtd_conn_ops *ops;
};

/* The state of a control connection (freed with it). */
struct vtd_session {
	struct vtd_conn *ctl;
	struct vtd_conn *data;
	char name[VTP_PEER_NAME_MAX + 1];
	uint16_t version;
	/*
	 * The handshake is complete: HELLO without a key, AUTH verified with
	 * one.  Before, nothing but the handshake is taken; from here on the
	 * session counts against --max-clients.
	 */
	bool established;
	struct vtp_auth_ctx actx;	/* with a key: the handshake */
	struct vtd_tuner *tuner;
	struct vtd_ev ts_ev;		/* EV_TUNER, the tuner's fd */
	/*
	 * The tuner is shared with SAT>IP sessions (share.h): its TS comes
	 * through st, copied into TS frames, and a TUNE or SEC call that
	 * would move the others is refused.
	 */
	bool shared;
	struct vtd_stream st;
	struct vtd_tuning sec;		/* its SEC calls (voltage, tone...) */
	uint8_t token[VTP_TOKEN_LEN];
	bool token_valid;
	uint32_t seq;
	uint32_t last_status;
	bool status_sent;
	uint64_t last_push_ns;
	uint64_t tune_ns;		/* last TUNE */
	uint64_t last_poll_ns;		/* last status poll */
	size_t frame_pkts;		/* TS packets per frame, ramps up */
	uint16_t *pids;			/* sorted, unique */
	size_t npids;
	/* TS counters */
	uint64_t ts_packets, ts_frames, drop_frames, drop_packets;
	uint64_t unattached_packets;
	uint64_t drops_logged, drops_logged_ns;
};

struct vtd_conn {
	struct vtd_ev ev;		/* EV_CONN, ev.fd is the socket */
	const struct vtd_conn_ops *ops;
	struct vtd_server *srv;
	void *priv;			/* the ops' state (RTSP) */
	struct vtd_conn *next;		/* server's list */
	enum vtd_conn_kind kind;
	unsigned int id;		/* for logs */
	char peer[64];			/* "ADDR:PORT" */
	char addr[48];			/* "ADDR", for --max-per-addr */
	struct vtp_reader *rd;
	struct vtp_queue q;		/* output; a data connection's TS frames
				 * are withdrawn on a retune */
	bool want_out;			/* EPOLLOUT registered */
	bool closing;			/* close once the queue is sent */
	bool dead;			/* closed, freed after this round */
	uint64_t accept_ns;		/* the handshake deadline runs from it */
	uint64_t last_rx_ns;		/* the last whole frame received */
	uint64_t ka_sent_ns;		/* 0: no KEEPALIVE outstanding */
	/*
	 * With a key, from the end of the handshake on (vtd_conn_seal()):
	 * every frame queued is sealed with tx, and the reader opens every
	 * frame received with rx.
	 */
	bool sealed;
	struct vtp_seal tx, rx;
	struct vtd_session *sess;	/* control: &session; data: bound to */
	struct vtd_session session;	/* of a control connection */
};

struct vtd_server {
	const struct vtd_config *cfg;
	struct vtd_tuners *tuners;
	int epfd;
	struct vtd_listener listen[VTD_MAX_LISTEN];	/* vtp */
	unsigned int nlisten;
	struct vtd_ev timer;		/* status poll and housekeeping */
	unsigned int timer_ms;		/* the timer's period */
	struct vtd_ev sig;		/* signalfd */
	struct vtd_conn *conns;
	unsigned int nconns, next_id;
	unsigned int nsessions;		/* established control sessions */
	uint32_t next_reqid;
	uint64_t last_house_ns;
	bool stop;
	struct vtp_msg *msg;		/* decode buffer (16 KiB) */
	uint8_t *tsbuf;			/* TS frame being built */
	uint8_t *sealbuf;		/* a frame being sealed */
	struct vtd_satip *satip;	/* --satip: satip.c's state */
	/* kinds of connection besides vtp's, for their ticks */
	const struct vtd_conn_ops *extra[3];
	unsigned int nextra;
};

/* server.c */
/* "ADDR:PORT", "[ADDR6]:PORT", "*:PORT" or ":PORT" (any); 0 or -1. */
int vtd_parse_listen(const char *spec, char *host, size_t hostlen,
		     char *port, size_t portlen);
int vtd_server_init(struct vtd_server *srv, const struct vtd_config *cfg,
		    struct vtd_tuners *tuners);
/* After daemon(): the signals that stop the loop. */
int vtd_server_signals(struct vtd_server *srv);
int vtd_server_run(struct vtd_server *srv);
void vtd_server_fini(struct vtd_server *srv);

/* Queue a frame on c (sealed if c is); false if the queue is full. */
bool vtd_conn_send(struct vtd_conn *c, const void *frame, size_t len);
/*
 * The handshake of c is complete, its last frame in each direction
 * received and queued: seal every later frame with the keys (tokens
 * NULL: the control connection's, else the data connection's of token).
 */
void vtd_conn_seal(struct vtd_conn *c, const struct vtd_session *s,
		   const uint8_t *token);
/*
 * A frame of c did not open (vtp_reader_next() said -EKEYREJECTED):
 * warn with the peer's address and close c.
 */
void vtd_conn_forged(struct vtd_conn *c, const struct vtp_hdr *h);
/* Send what can be sent now; false if the connection was closed. */
bool vtd_conn_flush(struct vtd_conn *c);
void vtd_conn_close(struct vtd_conn *c, const char *why);
/*
 * A peer that broke the rules of the handshake (or took too long): a
 * warning naming its address and why, an ERROR first if reqid is not 0
 * (a request), then the connection closed.
 */
void vtd_conn_refuse(struct vtd_conn *c, uint32_t reqid, int err,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Not yet through its handshake (the ops say what that is). */
bool vtd_conn_pending(const struct vtd_conn *c);
/* Stop reading, send what is queued, then close. */
void vtd_conn_close_after_flush(struct vtd_conn *c);
int vtd_conn_watch_out(struct vtd_conn *c);
int vtd_server_watch(struct vtd_server *srv, struct vtd_ev *ev, int fd,
		     bool add);

/*
 * Listen on spec ("ADDR:PORT") for connections of ops into l[*n] (at
 * most max); 0, or -1 after logging what (opt: the option, for it).
 */
int vtd_server_listen(struct vtd_server *srv, const char *opt,
		      const char *spec, const struct vtd_conn_ops *ops,
		      struct vtd_listener *l, unsigned int *n,
		      unsigned int max);
/* Another kind of connection (its tick is called): 0 or -ENOSPC. */
int vtd_server_add_kind(struct vtd_server *srv, const struct vtd_conn_ops *ops);
/* VTD_HANDSHAKE_S, or --timeout if shorter */
unsigned int vtd_handshake_s(const struct vtd_server *srv);

/* conn_vtp.c: the vtp control and data connections */
extern const struct vtd_conn_ops vtd_vtp_ops;

/* auth.c: with cfg->psk (see docs/protocol.md, Authentication) */
/* Adds the AUTH grant to r; -1: refused and closing. */
int vtd_auth_hello(struct vtd_conn *c, const struct vtp_msg *m,
		   struct vtp_hello_reply *r);
/* A frame of a session not yet authenticated (AUTH, or refused). */
void vtd_auth_control(struct vtd_conn *c, const struct vtp_msg *m);
/* The MAC of DATA_ATTACH for s; false: refused and closing. */
bool vtd_auth_attach(struct vtd_conn *c, const struct vtd_session *s,
		     const struct vtp_msg *m);
bool vtd_token_equal(const uint8_t *a, const uint8_t *b);

/* session.c */
void vtd_handle_frame(struct vtd_conn *c, struct vtp_msg *m);
void vtd_handle_bad_frame(struct vtd_conn *c, int err, struct vtp_msg *m);
/*
 * The handshake of control connection c is complete (reqid: the request
 * that completed it): counted against --max-clients, full output queue.
 * false: refused (too many clients, no memory) and closing.
 */
bool vtd_session_establish(struct vtd_conn *c, uint32_t reqid);
/* ERROR for reqid, logged at LOG_INFO with the peer's address. */
void vtd_send_error(struct vtd_conn *c, uint32_t reqid, int err,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same, not logged: the caller has said why already. */
void vtd_send_error_msg(struct vtd_conn *c, uint32_t reqid, int err,
			const char *msg);
/* Releases the tuner and closes the data connection. */
void vtd_session_release(struct vtd_session *s);
/*
 * A SAT>IP session wants t, which a vtp session owns, on the same
 * transponder: the session goes on as a stream of t (0), or -errno.
 */
int vtd_session_share(struct vtd_server *srv, struct vtd_tuner *t);
/* The tuner's fd is readable: move TS to the data connection. */
void vtd_session_ts(struct vtd_server *srv, struct vtd_session *s);
/* A tune: poll status every VTD_STATUS_FAST_MS for a while. */
void vtd_server_status_fast(struct vtd_server *srv);
/* Periodic: status poll and push (every VTD_STATUS_POLL_MS). */
void vtd_session_poll(struct vtd_server *srv, struct vtd_session *s,
		      uint64_t now);
void vtd_data_detach(struct vtd_conn *c);

#endif /* VTD_SERVER_H */
