/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VT_PRIVS_H
#define VT_PRIVS_H

/*
 * --user of both daemons: run as USER (a name or a number) from now on:
 * its groups, its group, then its user, for good (no way back to root).
 * Only root can (USER's own uid may ask too: nothing changes); called
 * once what needs root is open (vtunerd's adapters and ports, vtunerc's
 * /dev/cuse or control device).  0, or -1 after saying why.
 */
int vt_privs_drop(const char *user);

#endif
