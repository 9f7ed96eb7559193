// SPDX-License-Identifier: GPL-2.0
/*
 * server.c - the event loop of vtunerd: listening sockets, connections,
 * the status timer and the signals, all on one epoll instance.  Every
 * socket is non-blocking; output goes through the bounded vtp_writer
 * queue of its connection.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <linux/dvb/frontend.h>

#include "common/log.h"
#include "server/server.h"

static void vtd_format_addr(const struct sockaddr *sa, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned int port = 0;

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		port = ntohs(in->sin_port);
		snprintf(buf, len, "%s:%u", host, port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		port = ntohs(in6->sin6_port);
		snprintf(buf, len, "[%s]:%u", host, port);
	} else {
		snprintf(buf, len, "?");
	}
}

int vtd_server_watch(struct vtd_server *srv, struct vtd_ev *ev, int fd,
		     bool add)
{
	struct epoll_event e = { .events = EPOLLIN, .data.ptr = ev };

	if (!add) {
		epoll_ctl(srv->epfd, EPOLL_CTL_DEL, fd, NULL);
		return 0;
	}
	ev->fd = fd;
	if (epoll_ctl(srv->epfd, EPOLL_CTL_ADD, fd, &e) < 0)
		return -errno;
	return 0;
}

static int vtd_listen_one(struct vtd_server *srv, const struct addrinfo *ai,
			  const char *opt, const char *spec,
			  const struct vtd_conn_ops *ops,
			  struct vtd_listener *l, unsigned int *n,
			  unsigned int max)
{
	char addr[80];
	int fd, one = 1;

	vtd_format_addr(ai->ai_addr, addr, sizeof(addr));
	if (*n >= max) {
		vt_err("%s %s: more than %u sockets", opt, spec, max);
		return -1;
	}
	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0) {
		vt_err("%s %s: socket: %s", opt, spec, strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 16) < 0) {
		vt_err("%s %s: %s: %s", opt, spec, addr, strerror(errno));
		close(fd);
		return -1;
	}
	l[*n].ev.kind = EV_LISTEN;
	l[*n].ops = ops;
	if (vtd_server_watch(srv, &l[*n].ev, fd, true) < 0) {
		vt_err("epoll_ctl: %s", strerror(errno));
		close(fd);
		return -1;
	}
	(*n)++;
	vt_notice("listening on %s (%s)", addr, ops->name);
	return 0;
}

int vtd_server_listen(struct vtd_server *srv, const char *opt,
		      const char *spec, const struct vtd_conn_ops *ops,
		      struct vtd_listener *l, unsigned int *n,
		      unsigned int max)
{
	struct addrinfo hints, *res, *ai;
	char host[256], port[16];
	int err;

	if (vtd_parse_listen(spec, host, sizeof(host), port, sizeof(port)) < 0) {
		vt_err("%s: '%s': expected ADDR:PORT", opt, spec);
		return -1;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	err = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
	if (err) {
		vt_err("%s %s: %s", opt, spec, gai_strerror(err));
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		if (vtd_listen_one(srv, ai, opt, spec, ops, l, n, max) < 0) {
			freeaddrinfo(res);
			return -1;
		}
	}
	freeaddrinfo(res);
	return 0;
}

int vtd_server_init(struct vtd_server *srv, const struct vtd_config *cfg,
		    struct vtd_tuners *tuners)
{
	struct itimerspec its;
	unsigned int i;
	int fd;

	memset(srv, 0, sizeof(*srv));
	srv->cfg = cfg;
	srv->tuners = tuners;
	srv->next_reqid = 1;
	srv->epfd = -1;
	srv->timer.fd = -1;
	srv->sig.fd = -1;
	srv->msg = malloc(sizeof(*srv->msg));
	srv->tsbuf = malloc(VTP_MAX_SEALED_FRAME);
	srv->sealbuf = malloc(VTP_MAX_SEALED_FRAME);
	if (!srv->msg || !srv->tsbuf || !srv->sealbuf) {
		vt_err("out of memory");
		return -1;
	}
	srv->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (srv->epfd < 0) {
		vt_err("epoll_create1: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < cfg->nlisten; i++)
		if (vtd_server_listen(srv, "--listen", cfg->listen[i],
				      &vtd_vtp_ops, srv->listen, &srv->nlisten,
				      VTD_MAX_LISTEN) < 0)
			return -1;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (fd < 0) {
		vt_err("timerfd_create: %s", strerror(errno));
		return -1;
	}
	memset(&its, 0, sizeof(its));
	its.it_interval.tv_nsec = VTD_STATUS_POLL_MS * 1000000L;
	its.it_value = its.it_interval;
	timerfd_settime(fd, 0, &its, NULL);
	srv->timer_ms = VTD_STATUS_POLL_MS;
	srv->timer.kind = EV_TIMER;
	if (vtd_server_watch(srv, &srv->timer, fd, true) < 0) {
		vt_err("epoll_ctl: %s", strerror(errno));
		close(fd);
		return -1;
	}

	return 0;
}

/*
 * SIGINT and SIGTERM through a signalfd; after daemon(), as a signalfd
 * watched by epoll only wakes up for the process that registered it.
 */
int vtd_server_add_kind(struct vtd_server *srv, const struct vtd_conn_ops *ops)
{
	if (srv->nextra >= sizeof(srv->extra) / sizeof(srv->extra[0]))
		return -ENOSPC;
	srv->extra[srv->nextra++] = ops;
	return 0;
}

int vtd_server_signals(struct vtd_server *srv)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0) {
		vt_err("signalfd: %s", strerror(errno));
		return -1;
	}
	srv->sig.kind = EV_SIGNAL;
	if (vtd_server_watch(srv, &srv->sig, fd, true) < 0) {
		vt_err("epoll_ctl: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return 0;
}

int vtd_parse_listen(const char *spec, char *host, size_t hostlen,
		     char *port, size_t portlen)
{
	const char *colon, *h = spec, *p;
	size_t hl;
	char *end;
	unsigned long v;

	if (spec[0] == '[') {
		const char *rb = strchr(spec, ']');

		if (!rb || rb[1] != ':')
			return -1;
		h = spec + 1;
		hl = (size_t)(rb - h);
		p = rb + 2;
	} else {
		colon = strrchr(spec, ':');
		if (!colon || memchr(spec, ':', (size_t)(colon - spec)))
			return -1;
		hl = (size_t)(colon - spec);
		p = colon + 1;
	}
	if (hl == 1 && h[0] == '*')
		hl = 0;
	if (hl >= hostlen || !*p || strlen(p) >= portlen)
		return -1;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (*end || errno || v == 0 || v > 65535 || *p < '0' || *p > '9')
		return -1;
	memcpy(host, h, hl);
	host[hl] = 0;
	snprintf(port, portlen, "%lu", v);
	return 0;
}

/* ---- connections -------------------------------------------------------- */

static void vtd_conn_free(struct vtd_conn *c)
{
	if (c->ops->free)
		c->ops->free(c);
	vtp_queue_free(&c->q);
	free(c);
}

static int vtd_conn_update_events(struct vtd_conn *c, bool force)
{
	bool want = vtp_queue_bytes(&c->q) > 0;
	struct epoll_event e = { .data.ptr = &c->ev };

	if ((!force && want == c->want_out) || c->dead)
		return 0;
	e.events = (c->closing ? 0 : EPOLLIN) | (want ? EPOLLOUT : 0);
	if (epoll_ctl(c->srv->epfd, EPOLL_CTL_MOD, c->ev.fd, &e) < 0)
		return -errno;
	c->want_out = want;
	return 0;
}

int vtd_conn_watch_out(struct vtd_conn *c)
{
	return vtd_conn_update_events(c, false);
}

bool vtd_conn_flush(struct vtd_conn *c)
{
	ssize_t left;

	if (c->dead)
		return false;
	if (!vtp_queue_bytes(&c->q))
		goto done;
	left = vtp_queue_flush(&c->q, c->ev.fd, NULL);
	if (left < 0) {
		vt_info("#%u %s: write: %s", c->id, c->peer, strerror((int)-left));
		vtd_conn_close(c, NULL);
		return false;
	}
done:
	if (c->closing && !vtp_queue_bytes(&c->q)) {
		vtd_conn_close(c, NULL);
		return false;
	}
	vtd_conn_watch_out(c);
	return true;
}

bool vtd_conn_send(struct vtd_conn *c, const void *frame, size_t len)
{
	const void *out = frame;
	int n;

	if (c->dead)
		return false;
	if (c->sealed) {
		uint8_t *buf = c->srv->sealbuf;

		if (len > VTP_MAX_FRAME)
			return false;
		memcpy(buf + VTP_HDR_LEN, frame, len);
		n = vtp_seal(&c->tx, buf, VTP_MAX_SEALED_FRAME, len);
		if (n < 0) {
			vtd_conn_close(c, "2^64 frames sealed: session ended");
			return false;
		}
		out = buf;
		len = (size_t)n;
	}
	/* a control frame on the data connection: kept on a retune */
	if (vtp_queue_put(&c->q, out, len, VTP_QUEUE_KEEP) < 0) {
		if (c->sealed)	/* never seen: its number goes to the next */
			vtp_seal_rewind(&c->tx, 1);
		return false;
	}
	vtd_conn_flush(c);
	return true;
}

void vtd_conn_forged(struct vtd_conn *c, const struct vtp_hdr *h)
{
	if (h->type == VTP_SEALED)
		vt_warn("#%u %s: frame %llu did not open (changed, replayed, "
			"reordered, dropped or injected on the way): "
			"connection closed", c->id, c->peer,
			(unsigned long long)c->rx.next);
	else
		vt_warn("#%u %s: unprotected %s frame in a protected session "
			"(injected on the way?): connection closed", c->id,
			c->peer, vtp_type_name(h->type));
	vtd_conn_close(c, NULL);
}

void vtd_conn_close(struct vtd_conn *c, const char *why)
{
	struct vtd_server *srv = c->srv;

	if (c->dead)
		return;
	if (why)
		vt_info("#%u %s: %s", c->id, c->peer, why);
	c->dead = true;
	epoll_ctl(srv->epfd, EPOLL_CTL_DEL, c->ev.fd, NULL);
	close(c->ev.fd);
	c->ev.fd = -1;
	srv->nconns--;
	if (c->ops->closed)
		c->ops->closed(c);
}

void vtd_conn_close_after_flush(struct vtd_conn *c)
{
	if (c->dead || c->closing)
		return;
	c->closing = true;
	shutdown(c->ev.fd, SHUT_RD);
	vtd_conn_update_events(c, true);	/* no more EPOLLIN */
	vtd_conn_flush(c);
}

void vtd_conn_refuse(struct vtd_conn *c, uint32_t reqid, int err,
		     const char *fmt, ...)
{
	char why[160];
	va_list ap;

	if (c->dead || c->closing)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	vt_warn("%s: %s: closed", c->peer, why);
	if (reqid && c->ops->refuse)
		c->ops->refuse(c, reqid, err, why);
	vtd_conn_close_after_flush(c);
}

bool vtd_conn_pending(const struct vtd_conn *c)
{
	return c->ops->pending && c->ops->pending(c);
}

/* "ADDR" of "ADDR:PORT" or "[ADDR6]:PORT" */
static void vtd_peer_addr(const char *peer, char *addr, size_t len)
{
	const char *colon = strrchr(peer, ':');
	size_t n = colon ? (size_t)(colon - peer) : strlen(peer);

	snprintf(addr, len, "%.*s", (int)n, peer);
}

/*
 * Room for one more connection in the handshake, from addr (NULL: from
 * anywhere), at most max of them: the oldest is closed when there is
 * none.  Connections through their handshake do not count: a peer
 * without the key cannot take the place of one with it, only make the
 * others in the handshake wait less long.
 */
static void vtd_make_room(struct vtd_server *srv, const char *addr,
			  unsigned int max, const char *peer)
{
	struct vtd_conn *c, *oldest = NULL;
	unsigned int n = 0;

	if (!max)
		return;
	for (c = srv->conns; c; c = c->next) {
		if (c->dead || !vtd_conn_pending(c) ||
		    (addr && strcmp(c->addr, addr)))
			continue;
		n++;
		if (!oldest || c->accept_ns < oldest->accept_ns)
			oldest = c;
	}
	if (n < max)
		return;
	/* one refused already (its queue not yet sent) just goes */
	if (!oldest->closing && addr)
		vtd_conn_refuse(oldest, 0, 0, "handshake not complete, %u "
				"connections from %s in it (--max-per-addr %u): "
				"the oldest makes room for %s", n, addr, max,
				peer);
	else if (!oldest->closing)
		vtd_conn_refuse(oldest, 0, 0, "handshake not complete, %u "
				"connections in it (2 x --max-clients + 2): the "
				"oldest makes room for %s", n, peer);
	vtd_conn_close(oldest, NULL);
}

static void vtd_accept(struct vtd_server *srv, struct vtd_listener *l)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct vtd_conn *c;
	char peer[64], addr[48];
	int fd, one = 1;

	fd = accept4(l->ev.fd, (struct sockaddr *)&ss, &sl,
		     SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
			vt_warn("accept: %s", strerror(errno));
		return;
	}
	vtd_format_addr((struct sockaddr *)&ss, peer, sizeof(peer));
	vtd_peer_addr(peer, addr, sizeof(addr));
	vtd_make_room(srv, addr, srv->cfg->max_per_addr, peer);
	/* a client has a control and a data connection, plus slack */
	vtd_make_room(srv, NULL, 2 * srv->cfg->max_clients + 2, peer);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c = calloc(1, sizeof(*c));
	if (c)
		c->ops = l->ops;
	if (!c || vtp_queue_init(&c->q, l->ops->queue, l->ops->frames) < 0 ||
	    (l->ops->init && l->ops->init(c) < 0)) {
		vt_warn("%s: refused: out of memory", peer);
		if (c)
			vtd_conn_free(c);
		close(fd);
		return;
	}
	c->ev.kind = EV_CONN;
	c->srv = srv;
	c->kind = CONN_NEW;
	c->id = ++srv->next_id;
	snprintf(c->peer, sizeof(c->peer), "%s", peer);
	snprintf(c->addr, sizeof(c->addr), "%s", addr);
	c->accept_ns = c->last_rx_ns = vt_now_ns();
	if (vtd_server_watch(srv, &c->ev, fd, true) < 0) {
		vt_warn("%s: epoll_ctl: %s", peer, strerror(errno));
		vtd_conn_free(c);
		close(fd);
		return;
	}
	c->next = srv->conns;
	srv->conns = c;
	srv->nconns++;
	vt_debug("#%u %s: connected", c->id, c->peer);
}

static void vtd_conn_event(struct vtd_conn *c, uint32_t events)
{
	if (events & EPOLLIN)
		c->ops->input(c);
	if (c->dead)
		return;
	if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))
		vtd_conn_flush(c);
	if (c->dead)
		return;
	if ((events & EPOLLERR) ||
	    ((events & EPOLLHUP) && !(events & EPOLLIN)))
		vtd_conn_close(c, "connection lost");
}

/* ---- timers ------------------------------------------------------------- */

unsigned int vtd_handshake_s(const struct vtd_server *srv)
{
	unsigned int t = srv->cfg->timeout_s;

	return t && t < VTD_HANDSHAKE_S ? t : VTD_HANDSHAKE_S;
}

static void vtd_housekeeping(struct vtd_server *srv, uint64_t now)
{
	unsigned int hs = vtd_handshake_s(srv);
	struct vtd_conn *c;

	for (c = srv->conns; c; c = c->next) {
		if (c->dead)
			continue;
		if (vtd_conn_pending(c) &&
		    now - c->accept_ns >= hs * 1000000000ull) {
			/* closing or not: its time is up */
			if (!c->closing)
				vtd_conn_refuse(c, 0, 0, "handshake not complete "
						"within %u s", hs);
			vtd_conn_close(c, NULL);
			continue;
		}
		if (c->ops->house)
			c->ops->house(c, now);
	}
}

/* The timer ticks every VTD_STATUS_FIRST_MS, _FAST_MS or _POLL_MS. */
static void vtd_timer_arm(struct vtd_server *srv, unsigned int ms)
{
	struct itimerspec its;

	if (ms == srv->timer_ms)
		return;
	memset(&its, 0, sizeof(its));
	its.it_interval.tv_nsec = ms * 1000000L;
	its.it_value = its.it_interval;
	if (timerfd_settime(srv->timer.fd, 0, &its, NULL) < 0)
		vt_debug("timerfd_settime: %s", strerror(errno));
	srv->timer_ms = ms;
}

void vtd_server_status_fast(struct vtd_server *srv)
{
	vtd_timer_arm(srv, VTD_STATUS_FIRST_MS);
}

/* The kinds of connection the server has listeners for, once each. */
static unsigned int vtd_kinds(const struct vtd_server *srv,
			      const struct vtd_conn_ops **ops, unsigned int max)
{
	unsigned int i, n = 0;

	if (srv->nlisten && n < max)
		ops[n++] = srv->listen[0].ops;
	for (i = 0; i < srv->nextra && n < max; i++)
		ops[n++] = srv->extra[i];
	return n;
}

static void vtd_timer(struct vtd_server *srv)
{
	const struct vtd_conn_ops *ops[4];
	uint64_t exp, now = vt_now_ns();
	unsigned int period = VTD_STATUS_POLL_MS, want, i, n;

	if (read(srv->timer.fd, &exp, sizeof(exp)) < 0 && errno != EAGAIN)
		vt_debug("timerfd read: %s", strerror(errno));
	n = vtd_kinds(srv, ops, 4);
	for (i = 0; i < n; i++) {
		want = ops[i]->tick ? ops[i]->tick(srv, now) : 0;
		if (want && want < period)
			period = want;
	}
	/* idle (no tune in the last 3 s): 10 wake-ups a second */
	vtd_timer_arm(srv, period);
	if (now - srv->last_house_ns >= 1000000000ull) {
		srv->last_house_ns = now;
		vtd_housekeeping(srv, now);
	}
}

static void vtd_signal(struct vtd_server *srv)
{
	struct signalfd_siginfo si;

	while (read(srv->sig.fd, &si, sizeof(si)) == sizeof(si)) {
		vt_notice("%s: shutting down", strsignal((int)si.ssi_signo));
		srv->stop = true;
	}
}

static void vtd_reap(struct vtd_server *srv)
{
	struct vtd_conn **pp = &srv->conns, *c;

	while ((c = *pp)) {
		if (c->dead) {
			*pp = c->next;
			vtd_conn_free(c);
		} else {
			pp = &c->next;
		}
	}
}

int vtd_server_run(struct vtd_server *srv)
{
	struct epoll_event ev[64];
	int i, n;

	while (!srv->stop) {
		n = epoll_wait(srv->epfd, ev, 64, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			vt_err("epoll_wait: %s", strerror(errno));
			return -1;
		}
		for (i = 0; i < n; i++) {
			struct vtd_ev *e = ev[i].data.ptr;

			switch (e->kind) {
			case EV_LISTEN:
				vtd_accept(srv, (struct vtd_listener *)e);
				break;
			case EV_CONN: {
				struct vtd_conn *c = (struct vtd_conn *)e;

				if (!c->dead)
					vtd_conn_event(c, ev[i].events);
				break;
			}
			case EV_FD:
				if (e->fd >= 0)
					e->fn(srv, e);
				break;
			case EV_TIMER:
				vtd_timer(srv);
				break;
			case EV_SIGNAL:
				vtd_signal(srv);
				break;
			}
		}
		vtd_reap(srv);
	}
	return 0;
}

void vtd_server_fini(struct vtd_server *srv)
{
	struct vtd_conn *c;
	unsigned int i;

	/* control connections first: they release their tuners */
	for (c = srv->conns; c; c = c->next)
		if (c->kind == CONN_CONTROL)
			vtd_conn_close(c, NULL);
	for (c = srv->conns; c; c = c->next)
		vtd_conn_close(c, NULL);
	vtd_reap(srv);
	for (i = 0; i < srv->nlisten; i++)
		close(srv->listen[i].ev.fd);
	if (srv->timer.fd >= 0)
		close(srv->timer.fd);
	if (srv->sig.fd >= 0)
		close(srv->sig.fd);
	if (srv->epfd >= 0)
		close(srv->epfd);
	free(srv->msg);
	free(srv->tsbuf);
	free(srv->sealbuf);
}
