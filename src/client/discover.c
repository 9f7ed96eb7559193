// SPDX-License-Identifier: GPL-2.0
/*
 * discover.c - browse the network for vtunerd servers (mDNS/DNS-SD
 * through the Avahi daemon), ask each for its tuners (HELLO and
 * LIST_TUNERS, whose busy flags are current, unlike a TXT record), and
 * list them or pick a free one.  Built without Avahi, it says so.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/discover.h"
#include "common/log.h"
#include "common/text.h"

#ifndef HAVE_AVAHI

int discover_list(double timeout_s)
{
	(void)timeout_s;
	fprintf(stderr, "vtunerc: discovery not built (no libavahi-client "
		"at build time); use -s HOST[:PORT]\n");
	return 1;
}

int discover_pick(struct vc_opts *o, double timeout_s)
{
	(void)o;
	(void)timeout_s;
	vt_err("no server given, and discovery is not built (no "
	       "libavahi-client at build time): use -s HOST[:PORT]");
	return -1;
}

#else

#include <net/if.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-common/error.h>
#include <avahi-common/simple-watch.h>
#include <avahi-common/timeval.h>

#include "client/net.h"
#include "client/props.h"

#define MAX_SERVERS	32
#define MAX_ADDRS	4
#define QUERY_MS	3000	/* connect, HELLO and LIST_TUNERS */

struct addr {
	char host[AVAHI_ADDRESS_STR_MAX + IF_NAMESIZE + 1];  /* "fe80::1%eth0" */
	char port[8];
};

/* One announced service; its addresses over interfaces and families. */
struct server {
	char name[64];
	char host[256];		/* "srv.local" */
	struct addr addr[MAX_ADDRS];
	unsigned int naddr;
	int used;		/* address that answered, -1: none */
	char hello_name[VTP_PEER_NAME_MAX + 1];
	struct vtp_tuner_list tuners;
	char err[VTP_ERRMSG_MAX + 128];	/* why the query failed */
};

static struct {
	AvahiSimplePoll *spoll;
	struct server srv[MAX_SERVERS];
	unsigned int num;
	int pending_resolves;
	bool all_for_now;
	struct vtp_msg msg;
} D;

static void maybe_quit(void)
{
	/* servers that answer later are not waited for once one is found */
	if (D.all_for_now && !D.pending_resolves && D.num)
		avahi_simple_poll_quit(D.spoll);
}

static void add_address(const char *name, const char *host,
			const AvahiAddress *a, AvahiIfIndex iface,
			uint16_t port)
{
	char ifname[IF_NAMESIZE], ename[64], ehost[256];
	struct server *s = NULL;
	struct addr *ad;
	unsigned int i;

	/* announced by anyone on the network: printed and logged escaped */
	vt_text_escape(ename, sizeof(ename), name);
	vt_text_escape(ehost, sizeof(ehost), host);
	for (i = 0; i < D.num && !s; i++)
		if (!strcmp(D.srv[i].name, ename))
			s = &D.srv[i];
	if (!s) {
		if (D.num >= MAX_SERVERS)
			return;
		s = &D.srv[D.num++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", ename);
		snprintf(s->host, sizeof(s->host), "%s", ehost);
		s->used = -1;
	}
	if (s->naddr >= MAX_ADDRS)
		return;
	ad = &s->addr[s->naddr];
	avahi_address_snprint(ad->host, sizeof(ad->host), a);
	/* a link-local IPv6 address needs its interface */
	if (a->proto == AVAHI_PROTO_INET6 && a->data.ipv6.address[0] == 0xfe &&
	    (a->data.ipv6.address[1] & 0xc0) == 0x80 &&
	    if_indextoname((unsigned)iface, ifname)) {
		size_t n = strlen(ad->host);

		snprintf(ad->host + n, sizeof(ad->host) - n, "%%%s", ifname);
	}
	snprintf(ad->port, sizeof(ad->port), "%u", port);
	for (i = 0; i < s->naddr; i++)
		if (!strcmp(s->addr[i].host, ad->host) &&
		    !strcmp(s->addr[i].port, ad->port))
			return;		/* the same, on another interface */
	s->naddr++;
}

static void resolved(AvahiServiceResolver *r, AvahiIfIndex iface,
		     AvahiProtocol proto, AvahiResolverEvent ev,
		     const char *name, const char *type, const char *domain,
		     const char *host, const AvahiAddress *a, uint16_t port,
		     AvahiStringList *txt, AvahiLookupResultFlags flags,
		     void *user)
{
	(void)proto; (void)type; (void)domain; (void)txt; (void)flags;
	(void)user;
	if (ev == AVAHI_RESOLVER_FOUND) {
		add_address(name, host, a, iface, port);
		vt_debug("resolved '%s' at %s port %u", name, host, port);
	} else {
		vt_debug("cannot resolve '%s': %s", name,
			 avahi_strerror(avahi_client_errno(
				avahi_service_resolver_get_client(r))));
	}
	avahi_service_resolver_free(r);
	D.pending_resolves--;
	maybe_quit();
}

static void browsed(AvahiServiceBrowser *b, AvahiIfIndex iface,
		    AvahiProtocol proto, AvahiBrowserEvent ev,
		    const char *name, const char *type, const char *domain,
		    AvahiLookupResultFlags flags, void *user)
{
	AvahiClient *c = user;

	(void)b; (void)flags;
	switch (ev) {
	case AVAHI_BROWSER_NEW:
		/* addresses of the family the service was seen on */
		if (avahi_service_resolver_new(c, iface, proto, name, type,
					       domain, proto, 0, resolved,
					       NULL))
			D.pending_resolves++;
		break;
	case AVAHI_BROWSER_ALL_FOR_NOW:
		D.all_for_now = true;
		maybe_quit();
		break;
	case AVAHI_BROWSER_FAILURE:
		vt_err("browsing %s: %s", VC_SERVICE_TYPE,
		       avahi_strerror(avahi_client_errno(c)));
		avahi_simple_poll_quit(D.spoll);
		break;
	default:
		break;
	}
}

static void timed_out(AvahiTimeout *t, void *user)
{
	(void)t; (void)user;
	avahi_simple_poll_quit(D.spoll);
}

/* Browse for up to timeout_s: 0 (D.num servers found) or -1 (logged). */
static int browse(double timeout_s)
{
	AvahiServiceBrowser *b = NULL;
	const AvahiPoll *api;
	AvahiClient *c = NULL;
	struct timeval tv;
	int err, ret = -1;

	memset(&D, 0, sizeof(D));
	D.spoll = avahi_simple_poll_new();
	if (!D.spoll) {
		vt_err("avahi_simple_poll_new failed");
		return -1;
	}
	api = avahi_simple_poll_get(D.spoll);
	c = avahi_client_new(api, 0, NULL, NULL, &err);
	if (!c) {
		vt_err("cannot reach the Avahi daemon: %s", avahi_strerror(err));
		goto out;
	}
	b = avahi_service_browser_new(c, AVAHI_IF_UNSPEC, AVAHI_PROTO_UNSPEC,
				      VC_SERVICE_TYPE, NULL, 0, browsed, c);
	if (!b) {
		vt_err("browsing %s: %s", VC_SERVICE_TYPE,
		       avahi_strerror(avahi_client_errno(c)));
		goto out;
	}
	api->timeout_new(api, avahi_elapse_time(&tv,
			 (unsigned)(timeout_s * 1000), 0), timed_out, NULL);
	if (avahi_simple_poll_loop(D.spoll) < 0)
		vt_debug("avahi_simple_poll_loop failed");
	ret = 0;
out:
	if (b)
		avahi_service_browser_free(b);
	if (c)
		avahi_client_free(c);	/* and the resolvers still running */
	avahi_simple_poll_free(D.spoll);
	D.spoll = NULL;
	return ret;
}

/* Wait for events on c until deadline: 1 ready, 0 timed out, -errno. */
static int wait_conn(struct vc_conn *c, short events, uint64_t deadline)
{
	struct pollfd p = { .fd = c->fd, .events = events };
	uint64_t now = vt_now_ns();
	int r;

	if (now >= deadline)
		return 0;
	r = poll(&p, 1, (int)((deadline - now) / 1000000) + 1);
	if (r < 0)
		return errno == EINTR ? 1 : -errno;
	return r;
}

/* HELLO and LIST_TUNERS on one address: 0, or -1 and s->err. */
static int query_addr(struct server *s, const struct addr *ad)
{
	uint64_t deadline = vt_now_ns() + QUERY_MS * 1000000ULL;
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
	}, *ai = NULL;
	bool list = false;
	struct vc_conn c;
	const char *what = "connect";
	ssize_t n;
	int r;

	if (conn_init(&c, "discovery", 4096) < 0) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		goto fail;
	}
	r = getaddrinfo(ad->host, ad->port, &hints, &ai);
	if (r) {
		snprintf(s->err, sizeof(s->err), "%s: %s", ad->host,
			 gai_strerror(r));
		goto fail;
	}
	r = conn_start(&c, ai);
	while (!r && c.connecting) {
		r = wait_conn(&c, POLLOUT, deadline);
		r = r < 0 ? r : !r ? -ETIMEDOUT : conn_finish(&c);
	}
	if (r < 0)
		goto fail_errno;
	what = "HELLO";
	if ((r = net_hello(&c, "vtunerc-discover")) < 0 ||
	    (r = net_list_tuners(&c)) < 0)
		goto fail_errno;
	while (!list) {
		n = conn_flush(&c);
		if (n < 0) {
			r = (int)n;
			goto fail_errno;
		}
		r = conn_next(&c, &D.msg);
		if (r > 0) {
			switch (D.msg.hdr.type) {
			case VTP_HELLO_REPLY:
				snprintf(s->hello_name, sizeof(s->hello_name),
					 "%s", D.msg.u.hello_reply.name);
				what = "LIST_TUNERS";
				break;
			case VTP_TUNER_LIST:
				list = true;
				s->tuners = D.msg.u.tuners;
				break;
			case VTP_ERROR:
				snprintf(s->err, sizeof(s->err), "%s refused: "
					 "%s%s%s", what,
					 strerror((int)D.msg.u.error.err),
					 D.msg.u.error.msg[0] ? ": " : "",
					 D.msg.u.error.msg);
				goto fail;
			default:
				break;
			}
			continue;
		}
		if (r < 0 && r != -ENOTSUP && r != -EPROTO)
			goto fail_errno;
		if (r < 0)
			continue;	/* a frame we do not know: skipped */
		r = wait_conn(&c, POLLIN | (n ? POLLOUT : 0), deadline);
		if (r <= 0) {
			r = r ? r : -ETIMEDOUT;
			goto fail_errno;
		}
		n = conn_fill(&c);
		if (n == 0) {
			snprintf(s->err, sizeof(s->err), "%s: connection "
				 "closed by the server", what);
			goto fail;
		}
		if (n < 0 && n != -EAGAIN && n != -EINTR) {
			r = (int)n;
			goto fail_errno;
		}
	}
	freeaddrinfo(ai);
	conn_free(&c);
	return 0;
fail_errno:
	snprintf(s->err, sizeof(s->err), "%s: %s", what, strerror(-r));
fail:
	if (ai)
		freeaddrinfo(ai);
	conn_free(&c);
	return -1;
}

/* Query the addresses of s in turn: 0 (s->used, s->tuners) or -1. */
static int query(struct server *s)
{
	unsigned int i;

	for (i = 0; i < s->naddr; i++) {
		if (query_addr(s, &s->addr[i]) == 0) {
			s->used = (int)i;
			return 0;
		}
		vt_debug("%s (%s port %s): %s", s->name, s->addr[i].host,
			 s->addr[i].port, s->err);
	}
	if (!s->naddr)
		snprintf(s->err, sizeof(s->err), "no address");
	return -1;
}

static void addr_str(const struct addr *a, char *buf, size_t cap)
{
	bool v6 = strchr(a->host, ':') != NULL;

	snprintf(buf, cap, "%s%s%s:%s", v6 ? "[" : "", a->host, v6 ? "]" : "",
		 a->port);
}

static void delsys_str(const struct vtp_tuner *t, char *buf, size_t cap)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < t->num_delsys && off < cap; i++)
		off += snprintf(buf + off, cap - off, "%s%s", i ? "," : "",
				vt_delsys_name(t->delsys[i]));
}

int discover_list(double timeout_s)
{
	char addr[sizeof(((struct addr *)0)->host) + 16], ds[160];
	unsigned int i, k;

	if (browse(timeout_s) < 0)
		return 1;
	if (!D.num) {
		fprintf(stderr, "vtunerc: no vtunerd server announced on the "
			"network within %g s\n", timeout_s);
		return 1;
	}
	for (i = 0; i < D.num; i++) {
		struct server *s = &D.srv[i];
		int ok = query(s);

		addr_str(&s->addr[s->used >= 0 ? s->used : 0], addr,
			 sizeof(addr));
		printf("%s\t%s\t%s", s->name, s->host, s->naddr ? addr : "-");
		if (ok < 0) {
			printf("\t(cannot list the tuners: %s)\n", s->err);
			continue;
		}
		printf("\t%s\t%u tuner%s\n", s->hello_name, s->tuners.num,
		       s->tuners.num == 1 ? "" : "s");
		for (k = 0; k < s->tuners.num; k++) {
			const struct vtp_tuner *t = &s->tuners.tuner[k];

			delsys_str(t, ds, sizeof(ds));
			printf("\ttuner %u\t%s\t%s\t%s\n", t->index,
			       t->flags & VTP_TUNER_BUSY ? "busy" : "free", ds,
			       t->name);
		}
	}
	fflush(stdout);
	return 0;
}

static bool matches(const struct vc_opts *o, const struct vtp_tuner *t)
{
	int i;

	if (t->flags & VTP_TUNER_BUSY)
		return false;
	if (o->tuner >= 0 && t->index != o->tuner)
		return false;
	for (i = 0; i < o->num_delsys; i++)
		if (!memchr(t->delsys, o->delsys[i], t->num_delsys))
			return false;
	return true;
}

int discover_pick(struct vc_opts *o, double timeout_s)
{
	char addr[sizeof(((struct addr *)0)->host) + 16], want[160] = "";
	unsigned int i, k, unreachable = 0;
	size_t off = 0;
	int d;

	if (browse(timeout_s) < 0)
		return -1;
	if (!D.num) {
		vt_err("no vtunerd server announced on the network within "
		       "%g s (give one with -s HOST[:PORT])", timeout_s);
		return -1;
	}
	for (i = 0; i < D.num; i++) {
		struct server *s = &D.srv[i];

		if (query(s) < 0) {
			vt_warn("server '%s' (%s): %s", s->name, s->host,
				s->err);
			unreachable++;
			continue;
		}
		addr_str(&s->addr[s->used], addr, sizeof(addr));
		for (k = 0; k < s->tuners.num; k++) {
			const struct vtp_tuner *t = &s->tuners.tuner[k];

			if (!matches(o, t))
				continue;
			vt_notice("discovered '%s' (%s) at %s: tuner %u '%s' "
				  "is free", s->name, s->host, addr, t->index,
				  t->name);
			snprintf(o->host, sizeof(o->host), "%s",
				 s->addr[s->used].host);
			snprintf(o->port, sizeof(o->port), "%s",
				 s->addr[s->used].port);
			return 0;
		}
		vt_info("server '%s' at %s: no matching free tuner of %u",
			s->name, addr, s->tuners.num);
	}
	if (o->tuner >= 0)
		off += snprintf(want + off, sizeof(want) - off, " %d",
				o->tuner);
	for (d = 0; d < o->num_delsys && off < sizeof(want); d++)
		off += snprintf(want + off, sizeof(want) - off, "%s%s",
				d ? "," : " with ",
				vt_delsys_name(o->delsys[d]));
	vt_err("no free tuner%s on %u server%s%s", want, D.num,
	       D.num == 1 ? "" : "s",
	       unreachable == D.num ? " (none reachable)" :
	       unreachable ? " (some not reachable)" : "");
	return -1;
}

#endif
