// SPDX-License-Identifier: GPL-2.0
/*
 * discover.c - browse the network for vtunerd servers (mDNS/DNS-SD
 * through the Avahi daemon).  Built without Avahi, it says so.
 */
#include <stdio.h>

#include "client/discover.h"

#ifndef HAVE_AVAHI

int discover_servers(double timeout_s)
{
	(void)timeout_s;
	fprintf(stderr, "vtunerc: discovery not built (no libavahi-client "
		"at build time); use -s HOST[:PORT]\n");
	return 1;
}

#else

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-common/error.h>
#include <avahi-common/simple-watch.h>
#include <avahi-common/timeval.h>

static AvahiSimplePoll *spoll;
static int pending_resolves, found;
static int browse_done;

static void maybe_quit(void)
{
	if (browse_done && !pending_resolves)
		avahi_simple_poll_quit(spoll);
}

static void resolved(AvahiServiceResolver *r, AvahiIfIndex iface,
		     AvahiProtocol proto, AvahiResolverEvent ev,
		     const char *name, const char *type, const char *domain,
		     const char *host, const AvahiAddress *a, uint16_t port,
		     AvahiStringList *txt, AvahiLookupResultFlags flags,
		     void *user)
{
	char addr[AVAHI_ADDRESS_STR_MAX];

	(void)iface; (void)proto; (void)type; (void)domain; (void)txt;
	(void)flags; (void)user;
	if (ev == AVAHI_RESOLVER_FOUND) {
		avahi_address_snprint(addr, sizeof(addr), a);
		printf("%s\t%s:%u\t%s%s%s\n", name, host, port,
		       a->proto == AVAHI_PROTO_INET6 ? "[" : "", addr,
		       a->proto == AVAHI_PROTO_INET6 ? "]" : "");
		found++;
	}
	avahi_service_resolver_free(r);
	pending_resolves--;
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
		if (avahi_service_resolver_new(c, iface, proto, name, type,
					       domain, AVAHI_PROTO_UNSPEC, 0,
					       resolved, NULL))
			pending_resolves++;
		break;
	case AVAHI_BROWSER_ALL_FOR_NOW:
		browse_done = 1;
		maybe_quit();
		break;
	case AVAHI_BROWSER_FAILURE:
		fprintf(stderr, "vtunerc: browsing %s: %s\n", VC_SERVICE_TYPE,
			avahi_strerror(avahi_client_errno(c)));
		avahi_simple_poll_quit(spoll);
		break;
	default:
		break;
	}
}

static void timed_out(AvahiTimeout *t, void *user)
{
	(void)t; (void)user;
	avahi_simple_poll_quit(spoll);
}

int discover_servers(double timeout_s)
{
	AvahiServiceBrowser *b = NULL;
	AvahiClient *c;
	struct timeval tv;
	int err, ret = 1;

	spoll = avahi_simple_poll_new();
	if (!spoll)
		return 1;
	c = avahi_client_new(avahi_simple_poll_get(spoll), 0, NULL, NULL,
			     &err);
	if (!c) {
		fprintf(stderr, "vtunerc: cannot reach the Avahi daemon: %s\n",
			avahi_strerror(err));
		goto out;
	}
	b = avahi_service_browser_new(c, AVAHI_IF_UNSPEC, AVAHI_PROTO_UNSPEC,
				      VC_SERVICE_TYPE, NULL, 0, browsed, c);
	if (!b) {
		fprintf(stderr, "vtunerc: browsing %s: %s\n", VC_SERVICE_TYPE,
			avahi_strerror(avahi_client_errno(c)));
		goto out;
	}
	avahi_simple_poll_get(spoll)->timeout_new(
		avahi_simple_poll_get(spoll),
		avahi_elapse_time(&tv, (unsigned)(timeout_s * 1000), 0),
		timed_out, NULL);
	avahi_simple_poll_loop(spoll);
	if (!found)
		fprintf(stderr, "vtunerc: no %s server found\n",
			VC_SERVICE_TYPE);
	ret = found ? 0 : 1;
out:
	if (b)
		avahi_service_browser_free(b);
	if (c)
		avahi_client_free(c);
	avahi_simple_poll_free(spoll);
	return ret;
}

#endif
