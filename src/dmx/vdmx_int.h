/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vdmx_int.h - the insides of struct vdmx and struct vdmx_filter, shared
 * by vdmx.c (requests, buffers, the PID set) and ts.c (the TS: input,
 * dispatch to the filters, section assembly).
 */
#ifndef VDMX_INT_H
#define VDMX_INT_H

#include "dmx/vdmx.h"

#define VDMX_NONE	0xffff			/* no feed */
#define VDMX_NPIDS	(VDMX_PID_FULL_TS + 1)	/* 0..0x1fff and the whole TS */
/* a section starts in the packet of the last PUSI: it ends in this */
#define VDMX_SECBUF	(VDMX_SECTION_MAX + VDMX_TS_SIZE)

/*
 * A ring buffer as dvb_ringbuffer: holds size - 1 bytes at most; error,
 * once set, is what the next read returns.  No data: dvb-core's buffer
 * not allocated yet, writes dropped.
 */
struct vdmx_ring {
	uint8_t *data;
	size_t size;
	size_t rd, wr;
	int error;		/* 0, -EOVERFLOW, -ETIMEDOUT */
};

enum vdmx_type {
	VDMX_TYPE_NONE,
	VDMX_TYPE_SEC,
	VDMX_TYPE_PES,
};

/*
 * A running feed: a section filter's PID, or one PID of a PES filter.
 * Chained by PID from vdmx.head, free ones from vdmx.free_feed.
 */
struct vdmx_feed {
	struct vdmx_filter *f;		/* NULL: free */
	uint16_t pid;
	uint16_t next;
};

struct vdmx_filter {
	struct vdmx *d;
	unsigned int slot;		/* in d->filters */
	enum vdmx_state state;
	enum vdmx_type type;

	/* VDMX_TYPE_SEC */
	struct dmx_sct_filter_params sec;
	uint8_t pos[DMX_FILTER_SIZE];	/* mask bits that must be equal */
	uint8_t neg[DMX_FILTER_SIZE];	/* mask bits of which one must differ */
	bool has_neg;
	uint16_t sec_feed;
	uint64_t deadline;		/* ms, 0: no timeout running */

	/* section assembly (dvb_dmx_swfilter_section_packet()) */
	size_t fill;			/* bytes in secbuf */
	size_t scan;			/* where the next section starts */
	int cc;				/* last continuity counter, -1: none */
	bool pusi_seen;			/* sections are whole since a PUSI */

	/* reading sections (dvb_dmxdev_read_sec()) */
	int todo;			/* >0 body bytes left, <=0 -header read */
	uint8_t hdr[3];

	/* VDMX_TYPE_PES */
	struct dmx_pes_filter_params pes;
	unsigned int npids;
	uint16_t *pids;			/* max_feeds */
	uint16_t *feeds;		/* pids[i]'s feed while running */

	struct vdmx_ring buf;
	bool has_buf;			/* started or sized once */
	bool woken;
	struct vdmx_filter *wnext;

	uint8_t secbuf[VDMX_SECBUF];
};

struct vdmx {
	struct vdmx_config cfg;
	struct vdmx_filter **filters;	/* cfg.max_filters, NULL: free */

	struct vdmx_feed *feeds;	/* cfg.max_feeds */
	uint16_t free_feed;
	unsigned int feeds_free;
	uint16_t head[VDMX_NPIDS];	/* first feed of each PID */
	uint16_t users[VDMX_NPIDS];	/* feeds of each PID */
	uint64_t used[(VDMX_NPIDS + 63) / 64];	/* a bit a PID with users */
	unsigned int npids;		/* PIDs with users */
	uint32_t gen;

	/* decoder PES types: the filter running each, the PID last set */
	struct vdmx_filter *pes_owner[DMX_PES_OTHER];
	uint16_t pes_pids[DMX_PES_OTHER];

	struct vdmx_ring dvr;
	bool dvr_open;
	bool dvr_woken;

	struct vdmx_filter *woken_head, *woken_tail;
	uint64_t now;			/* ms */

	/* input: a packet cut short by the last vdmx_feed() */
	uint8_t part[VDMX_TS_SIZE];
	size_t part_len;
	bool in_sync;

	uint32_t crc_table[256];
	struct vdmx_stats st;
};

/* vdmx.c */
void vdmx_wake(struct vdmx_filter *f);
/* Append len bytes to r: 0, or -EOVERFLOW (nothing written, error set). */
int vdmx_ring_put(struct vdmx *d, struct vdmx_ring *r, const uint8_t *p,
		  size_t len);

/* ts.c */
void vdmx_crc_init(uint32_t table[256]);
/* Start assembling sections afresh (a filter started). */
void vdmx_sec_reset(struct vdmx_filter *f);

#endif /* VDMX_INT_H */
