/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VC_PRIVS_H
#define VC_PRIVS_H

/* whom vtunerc --cuse, started as root, runs as without --user */
#define VC_CUSE_USER	"nobody"

/*
 * Run as USER (a name or a number) from now on: its groups, its group,
 * then its user, for good (no way back to root).  Only root can; called
 * after the devices that need root are open (/dev/cuse, /dev/vtunercN).
 * 0, or -1 after saying why.
 */
int vc_privs_drop(const char *user);

#endif
