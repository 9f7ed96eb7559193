// SPDX-License-Identifier: GPL-2.0
/*
 * --user: a daemon gives up root once what needs it is open.  vtunerc
 * --cuse, for one, opens /dev/cuse (root's) and serves the adapter's
 * calls through that descriptor from then on.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/privs.h"

int vt_privs_drop(const char *user)
{
	struct passwd *pw;
	char *end;
	unsigned long n;

	errno = 0;
	pw = getpwnam(user);
	if (!pw) {
		n = strtoul(user, &end, 10);
		if (*user && !*end && n < (uid_t)-1)
			pw = getpwuid((uid_t)n);
	}
	if (!pw) {
		vt_err("--user %s: %s", user,
		       errno ? strerror(errno) : "no such user");
		return -1;
	}
	if (geteuid() != 0) {
		if (geteuid() == pw->pw_uid)
			return 0;
		vt_err("--user %s: only root can become another user", user);
		return -1;
	}
	if (initgroups(pw->pw_name, pw->pw_gid) < 0 ||
	    setgid(pw->pw_gid) < 0 || setuid(pw->pw_uid) < 0) {
		vt_err("--user %s: %s", user, strerror(errno));
		return -1;
	}
	/* for good: root must be out of reach */
	if (pw->pw_uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
		vt_err("--user %s: root is still within reach", user);
		return -1;
	}
	vt_notice("running as user %s (uid %u, gid %u)", pw->pw_name,
		  (unsigned int)pw->pw_uid, (unsigned int)pw->pw_gid);
	return 0;
}
