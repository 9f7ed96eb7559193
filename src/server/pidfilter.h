/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pidfilter.h - the PID filters of a dvb-core demux, as the dvb backend
 * keeps them.
 *
 * Every wanted PID is a filter of its own (its own descriptor of the demux
 * device, DMX_OUT_TS_TAP, so that every filter feeds dvr0); the whole TS
 * is one filter on PID 0x2000.  dvb-core takes several PIDs on one filter
 * only with DMX_OUT_TSDEMUX_TAP, and on 6.1 a DMX_ADD_PID that finds no
 * free feed leaves a dead feed on the running filter, which the next stop
 * dereferences: one filter per PID keeps every refusal local to a
 * descriptor that is closed at once.
 *
 * A change of the set never touches the filters of the PIDs that stay:
 * filters no longer wanted are stopped first (to free the demux's slots),
 * then the new ones started; when the whole TS is switched on or off, the
 * new filters start before the old ones stop, so that nothing is lost in
 * between.  Nothing is delivered twice meanwhile: dvb-core's demux copies
 * a packet to dvr0 once, however many DMX_OUT_TS_TAP filters match it
 * (dvb_dmx_swfilter_packet(), "dvr_done").
 *
 * When the demux refuses a filter (hardware demuxes have few), the whole
 * TS is taken instead and the wanted PIDs are picked out of it in
 * vtd_pidf_filter() until the tuner is closed.
 *
 * The demux is reached through ops, so that unit tests can stand in for
 * it; the module holds no other state than struct vtd_pidf.
 */
#ifndef VTD_PIDFILTER_H
#define VTD_PIDFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/vtp.h"

#define VTD_PIDF_NPIDS		(VTP_PID_FULL_TS + 1)

struct vtd_pidf_ops {
	/* Start a filter on pid (0x2000: the whole TS): a handle >= 0, or -errno. */
	int (*start)(void *ctx, uint16_t pid);
	/* Stop and release the filter of a handle start() returned. */
	void (*stop)(void *ctx, int handle);
};

struct vtd_pidf {
	const struct vtd_pidf_ops *ops;
	void *ctx;
	const char *where;		/* for the log: "adapter0/frontend0" */
	int handle[VTD_PIDF_NPIDS];	/* -1: no filter on that PID */
	unsigned int nfilters;		/* handles >= 0 */
	/*
	 * The demux refused a filter: the whole TS is read and the PIDs of
	 * pass[] picked out of it (sticky until vtd_pidf_reset()).
	 */
	bool software;
	bool pass_all;			/* software: the whole TS is wanted */
	uint8_t pass[VTD_PIDF_NPIDS / 8 + 1];
};

void vtd_pidf_init(struct vtd_pidf *f, const struct vtd_pidf_ops *ops,
		   void *ctx, const char *where);

/*
 * Make the filters carry pids (sorted, without duplicates; 0x2000 the
 * whole TS).  0, or -errno when a PID cannot be delivered: then the
 * filters that could be kept run on, and missing (of size missing_len)
 * says which PIDs are not delivered ("PIDs 256 257" or "the whole TS").
 */
int vtd_pidf_set(struct vtd_pidf *f, const uint16_t *pids, size_t num,
		 char *missing, size_t missing_len);

/* Stop every filter and forget the software fallback (tuner closed). */
void vtd_pidf_reset(struct vtd_pidf *f);

/*
 * In the software fallback, drop in place the packets of buf (len: a
 * multiple of 188) that are not wanted; the length kept.
 */
size_t vtd_pidf_filter(struct vtd_pidf *f, uint8_t *buf, size_t len);

#endif /* VTD_PIDFILTER_H */
