/* SPDX-License-Identifier: GPL-2.0 */
/*
 * net.h - one non-blocking TCP connection to vtunerd speaking VTP
 * (docs/protocol.md): connect, frame reader and output queue, and the
 * encoders of the client's requests.
 */
#ifndef VC_NET_H
#define VC_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netdb.h>

#include "common/clock.h"
#include "proto/vtp.h"
#include "proto/vtp_auth.h"
#include "proto/vtp_io.h"
#include "proto/vtp_seal.h"

#define VC_DEFAULT_PORT	"5911"

struct vc_conn {
	int fd;			/* -1: closed */
	bool connecting;	/* connect() in progress */
	const char *what;	/* "control" / "data", for logs */
	struct vtp_reader *rd;
	struct vtp_writer wr;
	void *wstore;
	uint32_t next_reqid;
	uint64_t last_rx;	/* monotonic ns of the last frame received */
	/* with a key, once the handshake is complete (conn_seal()) */
	bool sealed;		/* frames queued are sealed with tx */
	struct vtp_seal tx, rx;
};

/* Split "host", "host:port", "[v6]:port" or "v6" (port stays default). */
int net_parse_server(const char *s, char *host, size_t hlen, char *port,
		     size_t plen);
/* The same with another default port (SAT>IP's 554, HTTP's 80). */
int net_parse_hostport(const char *s, char *host, size_t hlen, char *port,
		       size_t plen, const char *defport);
/* getaddrinfo for TCP; -1 and a message logged on failure. */
int net_resolve(const char *host, const char *port, struct addrinfo **res);
/* "1.2.3.4:5911" / "[::1]:5911" */
void net_addr_str(const struct sockaddr *sa, socklen_t len, char *buf,
		  size_t cap);

/* Buffers for a connection (closed); -ENOMEM.  conn_free() ends it. */
int conn_init(struct vc_conn *c, const char *what, size_t wcap);
/* Close the socket; the buffers stay for the next conn_start(). */
void conn_close(struct vc_conn *c);
/* Close and free the buffers (after a failed conn_init() too). */
void conn_free(struct vc_conn *c);
/* Start a non-blocking connect: 0 (in progress or done) or -errno. */
int conn_start(struct vc_conn *c, const struct addrinfo *ai);
/* After POLLOUT during connect: 0 connected, -errno failed. */
int conn_finish(struct vc_conn *c);
/* Bytes still queued (wait for POLLOUT if > 0) or -errno. */
ssize_t conn_flush(struct vc_conn *c);
/* One read into the reader: bytes, 0 at EOF, -errno (-EAGAIN). */
ssize_t conn_fill(struct vc_conn *c);
/* vtp_reader_next() */
int conn_next(struct vc_conn *c, struct vtp_msg *m);
/*
 * A session with a key: the handshake's last frame from the client has
 * been queued, every later one is sealed with keys->c2s; once
 * conn_seal_rx() says the server's last clear frame has been taken,
 * every frame received must open with keys->s2c.  conn_close() ends it.
 * 0, or -errno when the cipher cannot be keyed (vtp_seal_init()).
 */
int conn_seal(struct vc_conn *c, const struct vtp_keys *keys);
void conn_seal_rx(struct vc_conn *c);

/*
 * Requests: queue and flush, return the reqid used (> 0) or -errno
 * (-ENOBUFS: the peer does not read its queue).
 */
int net_hello(struct vc_conn *c, const char *name);
/*
 * HELLO asking for VTP_FEAT_AUTH and VTP_FEAT_SEAL with the client's nonce
 * (NULL: plain), and the other features in features (VTP_FEAT_SEAL_OCB).
 */
int net_hello_nonce(struct vc_conn *c, const char *name,
		    const uint8_t *nonce, uint32_t features);
int net_auth(struct vc_conn *c, const uint8_t *mac);
int net_list_tuners(struct vc_conn *c);
int net_open_tuner(struct vc_conn *c, uint16_t index);
int net_data_attach(struct vc_conn *c, const uint8_t *token);
/* DATA_ATTACH of a session with AUTH: the token's MAC appended. */
int net_data_attach_mac(struct vc_conn *c, const uint8_t *token,
			const uint8_t *mac);
int net_tune(struct vc_conn *c, const struct vtp_tune *t);
/* SET_TONE, SET_VOLTAGE, ENABLE_HIGH_VOLTAGE, DISEQC_BURST */
int net_sec_value(struct vc_conn *c, uint16_t type, uint8_t value);
int net_diseqc(struct vc_conn *c, const struct vtp_diseqc *d);
int net_set_pids(struct vc_conn *c, const struct vtp_pids *p);
int net_keepalive(struct vc_conn *c, uint64_t stamp);
/* Replies and errors to the server's requests (reqid of the request) */
int net_keepalive_reply(struct vc_conn *c, uint32_t reqid, uint64_t stamp);
int net_error(struct vc_conn *c, uint32_t reqid, uint32_t err,
	      const char *msg);


#endif
