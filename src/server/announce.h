/* SPDX-License-Identifier: GPL-2.0 */
/*
 * announce.h - publish vtunerd as a DNS-SD service (_vtuner._tcp)
 * through the Avahi daemon, on the ports of its listening sockets.
 *
 * The TXT record is static: txtvers=1, proto=MIN-MAX (wire protocol
 * versions), name=SERVER NAME, tuners=N, delsys=LIST (every delivery
 * system of the server) and tK=LIST per tuner K.  Whether a tuner is
 * busy is not announced: clients ask LIST_TUNERS.
 *
 * Announcing is best effort: without an Avahi daemon it warns and the
 * server runs on (with a D-Bus system bus, the announcement appears once
 * the daemon starts; without one, not at all).
 */
#ifndef VTD_ANNOUNCE_H
#define VTD_ANNOUNCE_H

#include "server/server.h"

#define VTD_SERVICE_TYPE	"_vtuner._tcp"

struct vtd_announce;

/*
 * Start announcing the listening sockets of srv (not those bound to a
 * loopback address) under service_name.  Call after daemon() and after
 * the signals are blocked: it starts a thread.  NULL when there is
 * nothing to announce or announcing is impossible (logged).
 */
struct vtd_announce *vtd_announce_start(const struct vtd_server *srv,
					const char *service_name);
/* Withdraw the announcement; a is NULL or from vtd_announce_start(). */
void vtd_announce_stop(struct vtd_announce *a);

#endif /* VTD_ANNOUNCE_H */
