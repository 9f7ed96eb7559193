// SPDX-License-Identifier: GPL-2.0
/*
 * announce.c - DNS-SD announcement of vtunerd through the Avahi daemon,
 * see announce.h.  Avahi runs its own thread (avahi_threaded_poll): the
 * server's epoll loop is not involved, and every callback below runs in
 * that thread.  Built without libavahi-client, it says so.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "common/log.h"
#include "server/announce.h"

#ifndef HAVE_AVAHI

struct vtd_announce *vtd_announce_start(const struct vtd_server *srv,
					const char *service_name)
{
	(void)srv;
	(void)service_name;
	vt_info("built without Avahi (libavahi-client): not announced as "
		VTD_SERVICE_TYPE);
	return NULL;
}

void vtd_announce_stop(struct vtd_announce *a)
{
	(void)a;
}

#else

#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>

/* One announced socket: where (interface, IP version) and its port. */
struct where {
	AvahiIfIndex iface;
	AvahiProtocol proto;
	uint16_t port;
	char desc[96];		/* "10.99.0.1:5911 (veth-s)", for logs */
};

struct vtd_announce {
	AvahiThreadedPoll *poll;
	AvahiClient *client;
	AvahiEntryGroup *group;
	char *name;			/* current service name (avahi_malloc) */
	AvahiStringList *txt;
	struct where where[VTD_MAX_LISTEN];
	unsigned int nwhere;
	bool warned_no_daemon;
};

static void create_services(struct vtd_announce *a, AvahiClient *c);

static void rename_service(struct vtd_announce *a)
{
	char *n = avahi_alternative_service_name(a->name);

	vt_notice("service name '%s' taken on the network, now '%s'",
		  a->name, n);
	avahi_free(a->name);
	a->name = n;
}

static void group_cb(AvahiEntryGroup *g, AvahiEntryGroupState state,
		     void *user)
{
	struct vtd_announce *a = user;
	unsigned int i;

	switch (state) {
	case AVAHI_ENTRY_GROUP_ESTABLISHED:
		for (i = 0; i < a->nwhere; i++)
			vt_notice("announced as '%s' (" VTD_SERVICE_TYPE
				  ") on %s", a->name, a->where[i].desc);
		break;
	case AVAHI_ENTRY_GROUP_COLLISION:
		rename_service(a);
		avahi_entry_group_reset(g);
		create_services(a, avahi_entry_group_get_client(g));
		break;
	case AVAHI_ENTRY_GROUP_FAILURE:
		vt_warn("announcing '%s': %s", a->name,
			avahi_strerror(avahi_client_errno(
				avahi_entry_group_get_client(g))));
		break;
	default:
		break;
	}
}

static void create_services(struct vtd_announce *a, AvahiClient *c)
{
	unsigned int i;
	int ret;

	if (!a->group) {
		a->group = avahi_entry_group_new(c, group_cb, a);
		if (!a->group) {
			vt_warn("announcing: avahi_entry_group_new: %s",
				avahi_strerror(avahi_client_errno(c)));
			return;
		}
	}
	if (!avahi_entry_group_is_empty(a->group))
		return;
again:
	for (i = 0; i < a->nwhere; i++) {
		const struct where *w = &a->where[i];

		ret = avahi_entry_group_add_service_strlst(a->group, w->iface,
				w->proto, 0, a->name, VTD_SERVICE_TYPE, NULL,
				NULL, w->port, a->txt);
		if (ret == AVAHI_ERR_COLLISION) {
			rename_service(a);
			avahi_entry_group_reset(a->group);
			goto again;
		}
		if (ret < 0) {
			vt_warn("announcing '%s' on %s: %s", a->name, w->desc,
				avahi_strerror(ret));
			avahi_entry_group_reset(a->group);
			return;
		}
	}
	ret = avahi_entry_group_commit(a->group);
	if (ret < 0) {
		vt_warn("announcing '%s': commit: %s", a->name,
			avahi_strerror(ret));
		avahi_entry_group_reset(a->group);
	}
}

static void client_cb(AvahiClient *c, AvahiClientState state, void *user)
{
	struct vtd_announce *a = user;
	int err;

	switch (state) {
	case AVAHI_CLIENT_S_RUNNING:
		a->warned_no_daemon = false;
		create_services(a, c);
		break;
	case AVAHI_CLIENT_S_COLLISION:
	case AVAHI_CLIENT_S_REGISTERING:
		/* the host name changes: announce again once it runs */
		if (a->group)
			avahi_entry_group_reset(a->group);
		break;
	case AVAHI_CLIENT_CONNECTING:
		if (!a->warned_no_daemon)
			vt_warn("no Avahi daemon: not announced as "
				VTD_SERVICE_TYPE " until one runs");
		a->warned_no_daemon = true;
		break;
	case AVAHI_CLIENT_FAILURE:
		err = avahi_client_errno(c);
		if (err != AVAHI_ERR_DISCONNECTED) {
			vt_warn("Avahi: %s; not announced", avahi_strerror(err));
			break;
		}
		/* the daemon went away: wait for the next one */
		vt_warn("Avahi daemon gone; announcing again once it is back");
		avahi_client_free(c);
		a->client = NULL;
		a->group = NULL;
		a->client = avahi_client_new(avahi_threaded_poll_get(a->poll),
					     AVAHI_CLIENT_NO_FAIL, client_cb, a,
					     &err);
		if (!a->client)
			vt_warn("Avahi: %s; not announced", avahi_strerror(err));
		break;
	}
}

static bool is_loopback(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)ss;

		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	}
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)ss;
		const struct in6_addr *ad = &in6->sin6_addr;

		return IN6_IS_ADDR_LOOPBACK(ad) ||
		       (IN6_IS_ADDR_V4MAPPED(ad) && ad->s6_addr[12] == 127);
	}
	return false;
}

static bool is_wildcard(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)(const void *)ss)
			->sin_addr.s_addr == htonl(INADDR_ANY);
	return IN6_IS_ADDR_UNSPECIFIED(
		&((const struct sockaddr_in6 *)(const void *)ss)->sin6_addr);
}

/* Index of the interface carrying the address of ss, or -1. */
static int iface_of(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *in6 = (const void *)ss;
	const struct sockaddr_in *in = (const void *)ss;
	struct ifaddrs *ifs, *i;
	int idx = -1;

	if (ss->ss_family == AF_INET6 && in6->sin6_scope_id)
		return (int)in6->sin6_scope_id;
	if (getifaddrs(&ifs) < 0) {
		vt_debug("getifaddrs: %s", strerror(errno));
		return -1;
	}
	for (i = ifs; i && idx < 0; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != ss->ss_family)
			continue;
		if (ss->ss_family == AF_INET &&
		    ((const struct sockaddr_in *)(const void *)i->ifa_addr)
			    ->sin_addr.s_addr == in->sin_addr.s_addr)
			idx = (int)if_nametoindex(i->ifa_name);
		if (ss->ss_family == AF_INET6 &&
		    !memcmp(&((const struct sockaddr_in6 *)(const void *)
			      i->ifa_addr)->sin6_addr, &in6->sin6_addr,
			    sizeof(in6->sin6_addr)))
			idx = (int)if_nametoindex(i->ifa_name);
	}
	freeifaddrs(ifs);
	return idx > 0 ? idx : -1;
}

/* Fill a->where from the listening sockets; the number of entries. */
static unsigned int collect_sockets(struct vtd_announce *a,
				    const struct vtd_server *srv)
{
	struct sockaddr_storage ss[VTD_MAX_LISTEN];
	bool wild4 = false, wild6 = false;
	char ifname[IF_NAMESIZE];
	unsigned int i, k;

	for (i = 0; i < srv->nlisten; i++) {
		socklen_t len = sizeof(ss[i]);

		if (getsockname(srv->listen[i].ev.fd, (struct sockaddr *)&ss[i],
				&len) < 0) {
			vt_warn("announcing: getsockname: %s", strerror(errno));
			ss[i].ss_family = AF_UNSPEC;
			continue;
		}
		if (ss[i].ss_family == AF_INET && is_wildcard(&ss[i]))
			wild4 = true;
		if (ss[i].ss_family == AF_INET6 && is_wildcard(&ss[i]))
			wild6 = true;
	}
	for (i = 0; i < srv->nlisten; i++) {
		const struct sockaddr_in *in = (const void *)&ss[i];
		const struct sockaddr_in6 *in6 = (const void *)&ss[i];
		bool v6 = ss[i].ss_family == AF_INET6, wild;
		struct where w;
		char addr[64];
		int idx;

		if (ss[i].ss_family != AF_INET && !v6)
			continue;
		w.port = ntohs(v6 ? in6->sin6_port : in->sin_port);
		w.proto = v6 ? AVAHI_PROTO_INET6 : AVAHI_PROTO_INET;
		if (!inet_ntop(ss[i].ss_family, v6 ? (const void *)&in6->sin6_addr
			       : (const void *)&in->sin_addr, addr,
			       sizeof(addr)))
			snprintf(addr, sizeof(addr), "?");
		if (is_loopback(&ss[i])) {
			vt_info("%s%s%s:%u is a loopback address: not "
				"announced", v6 ? "[" : "", addr, v6 ? "]" : "",
				w.port);
			continue;
		}
		wild = is_wildcard(&ss[i]);
		if (!wild && (v6 ? wild6 : wild4))
			continue;	/* covered by the wildcard socket */
		idx = wild ? -1 : iface_of(&ss[i]);
		w.iface = idx > 0 ? idx : AVAHI_IF_UNSPEC;
		snprintf(w.desc, sizeof(w.desc), "%s%s%s:%u (%s)",
			 v6 ? "[" : "", addr, v6 ? "]" : "", w.port,
			 idx > 0 && if_indextoname((unsigned)idx, ifname) ?
			 ifname : "every interface");
		for (k = 0; k < a->nwhere; k++)
			if (a->where[k].iface == w.iface &&
			    a->where[k].proto == w.proto)
				break;
		if (k < a->nwhere)
			continue;	/* one service per interface and family */
		a->where[a->nwhere++] = w;
	}
	return a->nwhere;
}

/* "dvbs,dvbs2,dvbc_annex_a": lower case, the spelling of vtunerc -D. */
static void delsys_list(char *buf, size_t cap, const uint8_t *ds,
			unsigned int n)
{
	size_t off = 0;
	unsigned int i;
	char *p;

	buf[0] = 0;
	for (i = 0; i < n && off < cap; i++)
		off += snprintf(buf + off, cap - off, "%s%s", i ? "," : "",
				vt_delsys_name(ds[i]));
	for (p = buf; *p; p++)
		*p = *p == '/' ? '_' : (char)tolower((unsigned char)*p);
}

static AvahiStringList *make_txt(const struct vtd_server *srv)
{
	const struct vtd_tuners *ts = srv->tuners;
	uint8_t all[64];
	unsigned int i, k, nall = 0;
	AvahiStringList *l = NULL;
	char buf[200];

	l = avahi_string_list_add_printf(l, "txtvers=1");
	l = avahi_string_list_add_printf(l, "proto=%d-%d", VTP_VERSION_MIN,
					 VTP_VERSION_MAX);
	l = avahi_string_list_add_printf(l, "name=%s", srv->cfg->name);
	l = avahi_string_list_add_printf(l, "tuners=%u", ts->num);
	for (i = 0; i < ts->num; i++) {
		const struct vtp_tuner *t = &ts->t[i]->info;

		for (k = 0; k < t->num_delsys; k++)
			if (nall < sizeof(all) &&
			    !memchr(all, t->delsys[k], nall))
				all[nall++] = t->delsys[k];
	}
	delsys_list(buf, sizeof(buf), all, nall);
	l = avahi_string_list_add_printf(l, "delsys=%s", buf);
	for (i = 0; i < ts->num; i++) {
		const struct vtp_tuner *t = &ts->t[i]->info;

		delsys_list(buf, sizeof(buf), t->delsys, t->num_delsys);
		l = avahi_string_list_add_printf(l, "t%u=%s", i, buf);
	}
	/* avahi_string_list_add_* prepend: keep the order above */
	return avahi_string_list_reverse(l);
}

struct vtd_announce *vtd_announce_start(const struct vtd_server *srv,
					const char *service_name)
{
	struct vtd_announce *a;
	int err;

	a = calloc(1, sizeof(*a));
	if (!a) {
		vt_warn("announcing: out of memory");
		return NULL;
	}
	if (!collect_sockets(a, srv)) {
		vt_info("no listening socket to announce (only loopback): "
			"not announced as " VTD_SERVICE_TYPE);
		free(a);
		return NULL;
	}
	a->name = avahi_strndup(service_name, 63);	/* a DNS label */
	a->txt = make_txt(srv);
	a->poll = avahi_threaded_poll_new();
	if (!a->name || !a->txt || !a->poll) {
		vt_warn("announcing: out of memory");
		goto fail;
	}
	/* NO_FAIL: wait for a daemon that is not (yet) running */
	a->client = avahi_client_new(avahi_threaded_poll_get(a->poll),
				     AVAHI_CLIENT_NO_FAIL, client_cb, a, &err);
	if (!a->client) {
		vt_warn("Avahi: %s; not announced", avahi_strerror(err));
		goto fail;
	}
	if (avahi_threaded_poll_start(a->poll) < 0) {
		vt_warn("announcing: cannot start the Avahi thread");
		goto fail;
	}
	return a;
fail:
	if (a->client)
		avahi_client_free(a->client);
	if (a->poll)
		avahi_threaded_poll_free(a->poll);
	avahi_string_list_free(a->txt);
	avahi_free(a->name);
	free(a);
	return NULL;
}

void vtd_announce_stop(struct vtd_announce *a)
{
	if (!a)
		return;
	avahi_threaded_poll_stop(a->poll);
	if (a->client)
		avahi_client_free(a->client);	/* withdraws the group */
	avahi_threaded_poll_free(a->poll);
	avahi_string_list_free(a->txt);
	avahi_free(a->name);
	free(a);
}

#endif /* HAVE_AVAHI */
