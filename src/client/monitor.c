// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - reports of vtunerc, see monitor.h.
 */
#include "client/monitor.h"
#include "client/status.h"
#include "common/log.h"

#define SEC_NS		1000000000ULL
#define REPORT_PERIOD	(10 * SEC_NS)

void vc_mon_init(struct vc_monitor *m, const char *status_path,
		 const char *device, bool sink, uint64_t now)
{
	*m = (struct vc_monitor){ .verbose = sink, .device = device };
	tscc_init(&m->tscc);
	m->started = m->last_report = now;
	m->next_report = now + REPORT_PERIOD;
	m->next_status = now;
	m->status_file = vc_status_init(status_path, sink ? NULL : device);
}

void vc_mon_ts(struct vc_monitor *m, const uint8_t *data, size_t len)
{
	tscc_feed(&m->tscc, data, len);
	m->bytes += len;
}

static void report(struct vc_monitor *m, uint64_t now,
		   const struct vc_remote_stats *rs)
{
	uint64_t dt = now - m->last_report ? now - m->last_report : 1;
	struct tscc_counts *iv = &m->tscc.interval;
	char pids[160];

	if (iv->cc_errors || iv->sync_errors) {
		tscc_format(&m->tscc, pids, sizeof(pids), 5);
		vt_warn("TS: %llu continuity error(s)%s%s%s, %llu sync error(s)"
			" in %.0f s", (unsigned long long)iv->cc_errors,
			pids[0] ? " (" : "", pids, pids[0] ? ")" : "",
			(unsigned long long)iv->sync_errors, dt / 1e9);
	}
	if (rs->lost_ts != m->lost_report) {
		vt_warn("TS: %llu packet(s) lost on the way in %.0f s",
			(unsigned long long)(rs->lost_ts - m->lost_report),
			dt / 1e9);
		m->lost_report = rs->lost_ts;
	}
	if (rs->stale_frames != m->stale_report) {
		vt_info("TS: %llu frame(s) of an earlier tune dropped in %.0f s",
			(unsigned long long)(rs->stale_frames - m->stale_report),
			dt / 1e9);
		m->stale_report = rs->stale_frames;
	}
	if (m->verbose || vt_log_level() >= LOG_DEBUG)
		vt_log(m->verbose ? LOG_INFO : LOG_DEBUG,
		       "TS: %.2f Mbit/s; rtt %.1f ms; %llu stale frame(s) "
		       "dropped, %llu packet(s) lost",
		       (m->bytes - m->bytes_report) * 8e3 / (double)dt,
		       rs->rtt_ms, (unsigned long long)rs->stale_frames,
		       (unsigned long long)rs->lost_ts);
	tscc_clear_interval(&m->tscc);
	m->last_report = now;
	m->bytes_report = m->bytes;
}

static void write_status(struct vc_monitor *m, uint64_t now,
			 const struct vc_remote_stats *rs,
			 const struct vc_wanted *want,
			 const struct vtp_status *fe)
{
	struct vc_status s = {
		.device = m->device,
		.server = rs->server,
		.server_name = rs->server_name,
		.state = rs->state,
		.tuner = rs->tuner,
		.tuner_name = rs->tuner_name,
		.tune = want->have_tune ? &want->tune : NULL,
		.fe = fe,
		.bytes = m->bytes,
		.cc_errors = m->tscc.total.cc_errors,
		.sync_errors = m->tscc.total.sync_errors,
		.stale_frames = rs->stale_frames,
		.lost_ts = rs->lost_ts,
		.bitrate = (m->bytes - m->bytes_status) * 8.0,
		.rtt_ms = rs->rtt_ms ? rs->rtt_ms : m->last_rtt,
		.sessions = rs->sessions,
		.pids_error = rs->pids_error,
	};

	if (rs->rtt_ms)
		m->last_rtt = rs->rtt_ms;
	vc_status_write(&s);
	m->bytes_status = m->bytes;
	m->next_status = now + SEC_NS;
}

uint64_t vc_mon_timers(struct vc_monitor *m, uint64_t now,
		       const struct vc_remote_stats *rs,
		       const struct vc_wanted *want,
		       const struct vtp_status *fe)
{
	if (m->status_file && now >= m->next_status)
		write_status(m, now, rs, want, fe);
	if (now >= m->next_report) {
		m->next_report = now + REPORT_PERIOD;
		report(m, now, rs);
	}
	if (m->status_file && m->next_status < m->next_report)
		return m->next_status;
	return m->next_report;
}

void vc_mon_fini(struct vc_monitor *m, uint64_t now)
{
	uint64_t dt = now - m->started;

	if (m->status_file)
		vc_status_remove();
	if (m->verbose)
		vt_notice("%llu bytes of TS in %.1f s (%.2f Mbit/s), %llu "
			  "continuity and %llu sync error(s)",
			  (unsigned long long)m->bytes, dt / 1e9,
			  dt ? m->bytes * 8e3 / (double)dt : 0.0,
			  (unsigned long long)m->tscc.total.cc_errors,
			  (unsigned long long)m->tscc.total.sync_errors);
}
