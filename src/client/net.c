// SPDX-License-Identifier: GPL-2.0
/*
 * net.c - VTP connections of the client, see net.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client/net.h"
#include "common/log.h"

/* Largest request: SET_PIDS with VTP_MAX_PIDS entries. */
static uint8_t scratch[VTP_HDR_LEN + 4 + 2 * VTP_MAX_PIDS];
/* a request being sealed */
static uint8_t sealbuf[sizeof(scratch) + VTP_SEAL_OVERHEAD];

int net_parse_server(const char *s, char *host, size_t hlen, char *port,
		     size_t plen)
{
	return net_parse_hostport(s, host, hlen, port, plen, VC_DEFAULT_PORT);
}

int net_parse_hostport(const char *s, char *host, size_t hlen, char *port,
		       size_t plen, const char *defport)
{
	const char *colon, *end;
	size_t n;

	snprintf(port, plen, "%s", defport);
	if (s[0] == '[') {
		end = strchr(s, ']');
		if (!end || (end[1] && end[1] != ':'))
			return -1;
		n = end - s - 1;
		colon = end[1] ? end + 1 : NULL;
		s++;
	} else {
		colon = strchr(s, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL;	/* a bare IPv6 address */
		n = colon ? (size_t)(colon - s) : strlen(s);
	}
	if (!n || n >= hlen)
		return -1;
	memcpy(host, s, n);
	host[n] = 0;
	if (colon) {
		char *e;
		unsigned long p = strtoul(colon + 1, &e, 10);

		if (!colon[1] || *e || !p || p > 65535)
			return -1;
		snprintf(port, plen, "%lu", p);
	}
	return 0;
}

int net_resolve(const char *host, const char *port, struct addrinfo **res)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_protocol = IPPROTO_TCP,
	};
	int ret = getaddrinfo(host, port, &hints, res);

	if (ret) {
		vt_debug("cannot resolve %s: %s", host, gai_strerror(ret));
		return -1;
	}
	return 0;
}

void net_addr_str(const struct sockaddr *sa, socklen_t len, char *buf,
		  size_t cap)
{
	char h[NI_MAXHOST], p[NI_MAXSERV];

	if (getnameinfo(sa, len, h, sizeof(h), p, sizeof(p),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, cap, "?");
		return;
	}
	snprintf(buf, cap, sa->sa_family == AF_INET6 ? "[%s]:%s" : "%s:%s",
		 h, p);
}

int conn_init(struct vc_conn *c, const char *what, size_t wcap)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->what = what;
	c->rd = malloc(sizeof(*c->rd));
	c->wstore = malloc(wcap);
	if (!c->rd || !c->wstore)
		return -ENOMEM;
	vtp_reader_init(c->rd);
	vtp_writer_init(&c->wr, c->wstore, wcap);
	return 0;
}

void conn_close(struct vc_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->connecting = false;
	c->sealed = false;
	vtp_seal_wipe(&c->tx);
	vtp_seal_wipe(&c->rx);
	vtp_reader_init(c->rd);
	vtp_writer_init(&c->wr, c->wstore, c->wr.cap);
}

void conn_free(struct vc_conn *c)
{
	if (c->rd)
		conn_close(c);
	free(c->rd);
	free(c->wstore);
	c->rd = NULL;
	c->wstore = NULL;
}

int conn_start(struct vc_conn *c, const struct addrinfo *ai)
{
	int one = 1, err;

	conn_close(c);
	c->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		       SOCK_CLOEXEC, ai->ai_protocol);
	if (c->fd < 0)
		return -errno;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(c->fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	c->next_reqid = 1;
	c->last_rx = vt_now_ns();
	if (connect(c->fd, ai->ai_addr, ai->ai_addrlen) == 0) {
		c->connecting = false;
		return 0;
	}
	if (errno == EINPROGRESS) {
		c->connecting = true;
		return 0;
	}
	err = -errno;
	conn_close(c);
	return err;
}

int conn_finish(struct vc_conn *c)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		err = errno;
	if (err)
		return -err;
	c->connecting = false;
	c->last_rx = vt_now_ns();
	return 0;
}

ssize_t conn_flush(struct vc_conn *c)
{
	if (c->fd < 0 || c->connecting)
		return vtp_writer_pending(&c->wr);
	return vtp_writer_flush(&c->wr, c->fd);
}

ssize_t conn_fill(struct vc_conn *c)
{
	return vtp_reader_fill(c->rd, c->fd);
}

int conn_next(struct vc_conn *c, struct vtp_msg *m)
{
	return vtp_reader_next(c->rd, m);
}

int conn_seal(struct vc_conn *c, const struct vtp_keys *keys)
{
	int ret;

	vtp_seal_wipe(&c->tx);
	vtp_seal_wipe(&c->rx);
	ret = vtp_seal_init(&c->tx, keys->c2s, keys->cipher);
	if (!ret)
		ret = vtp_seal_init(&c->rx, keys->s2c, keys->cipher);
	if (ret < 0)
		return ret;
	c->sealed = true;
	return 0;
}

void conn_seal_rx(struct vc_conn *c)
{
	if (c->sealed)
		c->rd->open = &c->rx;
}

static uint32_t take_reqid(struct vc_conn *c)
{
	/* ids are returned as int: stay within 1..INT32_MAX */
	if (!c->next_reqid || c->next_reqid > 0x7fffffff)
		c->next_reqid = 1;
	return c->next_reqid++;
}

/* Queue a frame encoded in scratch; return reqid or -errno. */
static int queue(struct vc_conn *c, int len, uint32_t reqid)
{
	const uint8_t *frame = scratch;
	ssize_t left;
	int ret;

	if (len < 0)
		return len;
	if (c->fd < 0)
		return -ENOTCONN;
	if (c->sealed) {
		memcpy(sealbuf + VTP_HDR_LEN, scratch, (size_t)len);
		len = vtp_seal(&c->tx, sealbuf, sizeof(sealbuf), (size_t)len);
		if (len < 0)
			return len;
		frame = sealbuf;
	}
	ret = vtp_writer_put(&c->wr, frame, len);
	if (ret < 0) {
		if (c->sealed)	/* never seen: its number goes to the next */
			vtp_seal_rewind(&c->tx, 1);
		return ret;
	}
	left = conn_flush(c);
	return left < 0 ? (int)left : (int)reqid;
}

int net_hello_nonce(struct vc_conn *c, const char *name,
		    const uint8_t *nonce, uint32_t features)
{
	struct vtp_hello h = {
		.version_min = VTP_VERSION_MIN,
		.version_max = VTP_VERSION_MAX,
		.features = VTP_FEATURES,
	};
	uint32_t id = take_reqid(c);

	snprintf(h.name, sizeof(h.name), "%s", name);
	if (nonce) {
		h.features |= VTP_FEAT_AUTH | VTP_FEAT_SEAL | features;
		h.has_nonce = true;
		memcpy(h.nonce, nonce, VTP_NONCE_LEN);
	}
	return queue(c, vtp_encode_hello(scratch, sizeof(scratch), id, &h), id);
}

int net_hello(struct vc_conn *c, const char *name)
{
	return net_hello_nonce(c, name, NULL, 0);
}

int net_auth(struct vc_conn *c, const uint8_t *mac)
{
	struct vtp_auth a;
	uint32_t id = take_reqid(c);

	memcpy(a.mac, mac, VTP_MAC_LEN);
	return queue(c, vtp_encode_auth(scratch, sizeof(scratch), id, &a), id);
}

int net_list_tuners(struct vc_conn *c)
{
	uint32_t id = take_reqid(c);

	return queue(c, vtp_encode_list_tuners(scratch, sizeof(scratch), id),
		     id);
}

int net_open_tuner(struct vc_conn *c, uint16_t index)
{
	uint32_t id = take_reqid(c);

	return queue(c, vtp_encode_open_tuner(scratch, sizeof(scratch), id,
					      index), id);
}

int net_data_attach_mac(struct vc_conn *c, const uint8_t *token,
			const uint8_t *mac)
{
	struct vtp_attach a = { .has_mac = mac != NULL };
	uint32_t id = take_reqid(c);

	memcpy(a.token, token, VTP_TOKEN_LEN);
	if (mac)
		memcpy(a.mac, mac, VTP_MAC_LEN);
	return queue(c, vtp_encode_data_attach(scratch, sizeof(scratch), id,
					       &a), id);
}

int net_data_attach(struct vc_conn *c, const uint8_t *token)
{
	return net_data_attach_mac(c, token, NULL);
}

int net_tune(struct vc_conn *c, const struct vtp_tune *t)
{
	uint32_t id = take_reqid(c);

	return queue(c, vtp_encode_tune(scratch, sizeof(scratch), id, t), id);
}

int net_sec_value(struct vc_conn *c, uint16_t type, uint8_t value)
{
	uint32_t id = take_reqid(c);
	int len;

	switch (type) {
	case VTP_SET_TONE:
		len = vtp_encode_set_tone(scratch, sizeof(scratch), id, value);
		break;
	case VTP_SET_VOLTAGE:
		len = vtp_encode_set_voltage(scratch, sizeof(scratch), id,
					     value);
		break;
	case VTP_ENABLE_HIGH_VOLTAGE:
		len = vtp_encode_enable_high_voltage(scratch, sizeof(scratch),
						     id, value);
		break;
	case VTP_DISEQC_BURST:
		len = vtp_encode_diseqc_burst(scratch, sizeof(scratch), id,
					      value);
		break;
	default:
		return -EINVAL;
	}
	return queue(c, len, id);
}

int net_diseqc(struct vc_conn *c, const struct vtp_diseqc *d)
{
	uint32_t id = take_reqid(c);

	return queue(c, vtp_encode_diseqc_master(scratch, sizeof(scratch), id,
						 d), id);
}

int net_set_pids(struct vc_conn *c, const struct vtp_pids *p)
{
	uint32_t id = take_reqid(c);

	return queue(c, vtp_encode_set_pids(scratch, sizeof(scratch), id, p),
		     id);
}

int net_keepalive(struct vc_conn *c, uint64_t stamp)
{
	uint32_t id = take_reqid(c);

	return queue(c, vtp_encode_keepalive(scratch, sizeof(scratch), id,
					     stamp), id);
}

int net_keepalive_reply(struct vc_conn *c, uint32_t reqid, uint64_t stamp)
{
	int ret = queue(c, vtp_encode_keepalive_reply(scratch, sizeof(scratch),
						      reqid, stamp), 1);

	return ret < 0 ? ret : 0;
}

int net_error(struct vc_conn *c, uint32_t reqid, uint32_t err,
	      const char *msg)
{
	struct vtp_error e = { .err = err, .reqid = reqid };
	int ret;

	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	ret = queue(c, vtp_encode_error(scratch, sizeof(scratch), &e), 1);
	return ret < 0 ? ret : 0;
}
