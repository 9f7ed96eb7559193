/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tscc.h - MPEG-TS continuity checker of the received stream
 *
 * Counts, per PID, the continuity_counter errors of ISO/IEC 13818-1
 * (a packet lost, out of order, or repeated more than once), and the
 * packets without a sync byte.  Packets without payload, the null PID
 * and packets flagged with discontinuity_indicator never count as errors.
 * Packets with transport_error_indicator are counted apart and otherwise
 * ignored (their header cannot be trusted).  Pure code, no I/O.
 */
#ifndef VC_TSCC_H
#define VC_TSCC_H

#include <stddef.h>
#include <stdint.h>

#define TSCC_PACKET	188
#define TSCC_NUM_PIDS	8192

struct tscc_counts {
	uint64_t packets;	/* packets fed */
	uint64_t cc_errors;	/* continuity errors, all PIDs */
	uint64_t sync_errors;	/* packets without the 0x47 sync byte */
	uint64_t tei;		/* packets with transport_error_indicator */
};

#define TSCC_PID_ALL	0x2000	/* in a PID set: every PID */

struct tscc {
	uint8_t last[TSCC_NUM_PIDS];	/* last CC | TSCC_SEEN | TSCC_DUP */
	uint8_t want[TSCC_NUM_PIDS / 8];	/* the PID set, a bit a PID */
	uint32_t err[TSCC_NUM_PIDS];	/* CC errors of the interval */
	struct tscc_counts total;	/* since tscc_init() */
	struct tscc_counts interval;	/* since tscc_clear_interval() */
};

void tscc_init(struct tscc *t);

/* Forget the CC history (a retune): the next packet of each PID is new. */
void tscc_reset(struct tscc *t);

/*
 * The PID set is now pids[0..n) (TSCC_PID_ALL: every PID).  A PID that
 * joins or leaves it starts anew: the server stopped or resumed sending
 * it, and the jump of its counter is no loss.
 */
void tscc_set_pids(struct tscc *t, const uint16_t *pids, size_t n);

/*
 * Check len / 188 whole packets from buf (a trailing partial packet is
 * ignored).  Returns the number of errors (CC + sync) found in them.
 */
unsigned tscc_feed(struct tscc *t, const uint8_t *buf, size_t len);

/* CC errors of pid in the current interval. */
uint32_t tscc_pid_errors(const struct tscc *t, unsigned pid);

/*
 * "pid 256: 3, pid 300: 1" for the PIDs with errors in the interval,
 * highest first, at most max_pids of them ("... (N more)" after).
 * Returns the number of PIDs with errors (0: buf is "").
 */
unsigned tscc_format(const struct tscc *t, char *buf, size_t cap,
		     unsigned max_pids);

/* Start a new interval: per-PID errors and interval counts to zero. */
void tscc_clear_interval(struct tscc *t);

#endif
