/* SPDX-License-Identifier: GPL-2.0 */
/*
 * discover.h - find the vtunerd servers announced as _vtuner._tcp
 * (DNS-SD through the Avahi daemon) and their tuners, and the SAT>IP
 * servers (SSDP).
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

/*
 * SAT>IP servers (discover_satip.c): an SSDP M-SEARCH, answers gathered
 * for timeout_s, each server's desc.xml read.  discover_satip_list()
 * prints one line per server (name, RTSP URL, X_SATIPCAP, description)
 * and returns how many; discover_satip_pick() sets o->host, o->port and
 * o->satip_desc to the first server with a tuner type of o->delsys[0]
 * (any server without -D; whether a tuner is free shows at SETUP): 0, or
 * -1 after logging why.
 */
int discover_satip_list(double timeout_s);
int discover_satip_pick(struct vc_opts *o, double timeout_s);

#endif
