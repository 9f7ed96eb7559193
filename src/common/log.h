/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log.h - logging for the vtuner daemons: stderr in the foreground,
 * syslog (hence the journal) when detached, with a verbosity threshold.
 * A message is one line: control characters in it are written as \xNN.
 */
#ifndef VT_LOG_H
#define VT_LOG_H

#include <syslog.h>

enum vt_log_target { VT_LOG_STDERR, VT_LOG_SYSLOG };

/* ident is the program name; level a syslog priority (LOG_INFO...). */
void vt_log_init(const char *ident, enum vt_log_target target, int level);
void vt_log_set_level(int level);
int vt_log_level(void);

void vt_log(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define vt_err(...)	vt_log(LOG_ERR, __VA_ARGS__)
#define vt_warn(...)	vt_log(LOG_WARNING, __VA_ARGS__)
#define vt_notice(...)	vt_log(LOG_NOTICE, __VA_ARGS__)
#define vt_info(...)	vt_log(LOG_INFO, __VA_ARGS__)
#define vt_debug(...)	vt_log(LOG_DEBUG, __VA_ARGS__)

#endif
