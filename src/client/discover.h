/* SPDX-License-Identifier: GPL-2.0 */
/*
 * discover.h - find the vtunerd servers announced as _vtuner._tcp
 * (DNS-SD through the Avahi daemon) and their tuners.
 */
#ifndef VC_DISCOVER_H
#define VC_DISCOVER_H

#include "client/client.h"

#define VC_SERVICE_TYPE		"_vtuner._tcp"
#define VC_DISCOVER_SECONDS	5	/* browse at most this long */

/*
 * --discover: print each server announced (service name, host,
 * address:port, server name) and its tuners (index, free/busy, delivery
 * systems, name) as the server lists them.  Returns the exit status:
 * 0 if a server was found, 1 otherwise.
 */
int discover_list(double timeout_s);

/*
 * No --server: browse, ask the servers found for their tuners and pick
 * the first free one with all of o->delsys (o->tuner: that index only).
 * Sets o->host and o->port.  0, or -1 after logging why.
 */
int discover_pick(struct vc_opts *o, double timeout_s);

#endif
