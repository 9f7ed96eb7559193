/* SPDX-License-Identifier: GPL-2.0 */
/* discover.h - list the vtunerd servers announced as _vtuner._tcp. */
#ifndef VC_DISCOVER_H
#define VC_DISCOVER_H

#define VC_SERVICE_TYPE	"_vtuner._tcp"

/* Print one line per server; returns the exit status (0, 1). */
int discover_servers(double timeout_s);

#endif
