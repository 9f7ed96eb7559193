/* SPDX-License-Identifier: GPL-2.0 */
/*
 * monitor.h - what vtunerc measures of the TS it delivers (bytes,
 * continuity, what the remote lost) and says about it: a log report
 * every 10 s, the status file (status.c) every second, a summary at exit.
 */
#ifndef VC_MONITOR_H
#define VC_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/remote.h"
#include "client/tscc.h"

struct vc_monitor {
	bool verbose;			/* the rate in every report (--sink) */
	bool status_file;		/* vc_status_init() said yes */
	const char *device;		/* the front's path */
	uint64_t started, last_report, next_report, next_status;
	uint64_t bytes, bytes_report, bytes_status;
	uint64_t stale_report, lost_report;
	double last_rtt;
	struct tscc tscc;
};

/* status_path, device: as vc_status_init() takes them. */
void vc_mon_init(struct vc_monitor *m, const char *status_path,
		 const char *device, bool sink, uint64_t now);
/* TS delivered to the applications. */
void vc_mon_ts(struct vc_monitor *m, const uint8_t *data, size_t len);
/*
 * Reports and the status file when due (want, fe: what the status file
 * shows; fe NULL: no status known).  Returns when it must run next.
 */
uint64_t vc_mon_timers(struct vc_monitor *m, uint64_t now,
		       const struct vc_remote_stats *rs,
		       const struct vc_wanted *want,
		       const struct vtp_status *fe);
/* At exit: the status file removed, the summary of a sink logged. */
void vc_mon_fini(struct vc_monitor *m, uint64_t now);

#endif
