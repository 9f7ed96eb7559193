/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tscheck - a small transport stream checker for the vts unit tests:
 * continuity counters, section CRCs, table repetition, PCR spacing and
 * PES framing, per PID.
 */
#ifndef TSCHECK_H
#define TSCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TSC_NPIDS	8192
#define TSC_MAX_SECTIONS 64	/* kept per table_id for inspection */

struct tsc_section {
	uint16_t pid;
	uint16_t len;		/* whole section */
	uint8_t data[4096];
};

struct tsc_pid {
	uint64_t packets;
	uint64_t payload_starts;
	int last_cc;
	uint64_t cc_errors;
	/* PCR */
	uint64_t pcrs;
	int64_t first_pcr, last_pcr;
	uint64_t first_pcr_pkt, last_pcr_pkt;
	uint64_t max_pcr_gap;	/* 27 MHz ticks */
	/* PES */
	uint64_t pes_starts, pes_errors;
	/* sections */
	bool psi;
	uint8_t buf[4096 + 188];
	size_t buflen;
	bool collecting;
};

struct tsc_table {
	uint64_t count;
	uint64_t last_pkt;
	uint64_t max_gap;	/* packets between two sections of it */
};

struct tscheck {
	uint64_t packets;
	uint64_t sync_errors;
	uint64_t crc_errors;
	uint64_t sections;
	struct tsc_pid pid[TSC_NPIDS];
	struct tsc_table table[256];	/* by table_id */
	/* the first sections of each table_id (section number 0..1 each) */
	size_t nkept;
	struct tsc_section kept[TSC_MAX_SECTIONS];
};

/* pids: PSI PIDs to reassemble (0, 0x10..0x14 always), -1 terminated */
void tsc_init(struct tscheck *c, const int *psi_pids);
void tsc_feed(struct tscheck *c, const uint8_t *data, size_t len);
/* bit rate from the first and last PCR of pid, 0 if unknown */
double tsc_pcr_bitrate(const struct tscheck *c, uint16_t pid);
const struct tsc_section *tsc_find(const struct tscheck *c, uint8_t table_id,
				   int extension, int section_number);
uint32_t tsc_crc32(const uint8_t *d, size_t len);

#endif
