/* SPDX-License-Identifier: GPL-2.0 */
/*
 * daemon.h - what both daemons do alike under a service manager: they stay
 * in the foreground (--daemon forks), log to stderr, or through syslog when
 * stderr is the journal (so that priorities survive), and tell systemd when
 * they are ready (Type=notify).  Header only: a few lines each daemon uses.
 */
#ifndef VT_DAEMON_H
#define VT_DAEMON_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/log.h"

/* the exit status of both daemons (EXIT STATUS in vtunerd(8), vtunerc(8)) */
#define VT_EXIT_OK	0	/* normal end: SIGTERM/SIGINT, --check ok */
#define VT_EXIT_ERROR	1	/* runtime or setup error */
#define VT_EXIT_USAGE	2	/* usage or configuration error (--check) */

/* stderr is the journal's stream (systemd sets JOURNAL_STREAM=DEV:INO). */
static inline bool vt_stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!e || sscanf(e, "%llu:%llu", &dev, &ino) != 2 ||
	    fstat(STDERR_FILENO, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev &&
	       (unsigned long long)st.st_ino == ino;
}

/*
 * Where a daemon logs: syslog when detached (--daemon) or when stderr is
 * the journal (each message keeps its priority), else stderr.
 */
static inline enum vt_log_target vt_log_target_for(bool detached)
{
	return detached || vt_stderr_is_journal() ? VT_LOG_SYSLOG :
	       VT_LOG_STDERR;
}

/*
 * sd_notify(3) without libsystemd: send state ("READY=1") to the socket
 * of $NOTIFY_SOCKET, if any (a path, or "@name" in the abstract space).
 */
static inline void vt_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len;
	int fd;

	if (!path || (path[0] != '/' && path[0] != '@'))
		return;
	len = strlen(path);
	if (len >= sizeof(sa.sun_path))
		return;
	memcpy(sa.sun_path, path, len);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (sendto(fd, state, strlen(state), MSG_NOSIGNAL,
		   (const struct sockaddr *)&sa,
		   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)) < 0)
		vt_debug("NOTIFY_SOCKET %s: %s", path, strerror(errno));
	close(fd);
}

#endif
