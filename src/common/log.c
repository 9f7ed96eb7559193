// SPDX-License-Identifier: GPL-2.0
/*
 * log.c - see log.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/text.h"

/* a message longer than this is cut */
#define VT_LOG_MAX	2048

static const char *log_ident = "vtuner";
static enum vt_log_target log_target = VT_LOG_STDERR;
static int log_level = LOG_INFO;

void vt_log_init(const char *ident, enum vt_log_target target, int level)
{
	log_ident = ident;
	log_target = target;
	log_level = level;
	if (target == VT_LOG_SYSLOG)
		openlog(ident, LOG_PID, LOG_DAEMON);
}

void vt_log_set_level(int level)
{
	log_level = level;
}

int vt_log_level(void)
{
	return log_level;
}

static const char *prio_name(int prio)
{
	switch (prio) {
	case LOG_EMERG:
	case LOG_ALERT:
	case LOG_CRIT:
	case LOG_ERR:
		return "error";
	case LOG_WARNING:
		return "warning";
	case LOG_NOTICE:
	case LOG_INFO:
		return NULL;
	default:
		return "debug";
	}
}

/*
 * A message is one line whatever its arguments hold: the strings of a
 * peer (names, error messages) may carry control characters, written
 * here as \xNN (common/text.h), so that no line or terminal sequence can
 * be forged through them.
 */
void vt_log(int prio, const char *fmt, ...)
{
	char raw[VT_LOG_MAX], line[VT_LOG_MAX];
	const char *name;
	struct timespec ts;
	struct tm tm;
	va_list ap;

	if (prio > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	vt_text_escape(line, sizeof(line), raw);
	if (log_target == VT_LOG_SYSLOG) {
		syslog(prio, "%s", line);
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		/* whole lines when threads log at once (vtunerd's Avahi) */
		flockfile(stderr);
		fprintf(stderr, "%02d:%02d:%02d.%03ld %s: ", tm.tm_hour,
			tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, log_ident);
		name = prio_name(prio);
		if (name)
			fprintf(stderr, "%s: ", name);
		fputs(line, stderr);
		fputc('\n', stderr);
		funlockfile(stderr);
	}
}
