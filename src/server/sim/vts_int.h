/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vts internals shared by mux.c, es.c and the unit tests.
 */
#ifndef VTS_INT_H
#define VTS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VTS_PES_HEADER		14	/* with a PTS */
#define VTS_MP2_FRAME		576	/* 48 kHz, 192 kbit/s, Layer II */
#define VTS_MP2_TICKS		2160	/* 1152 samples in 90 kHz ticks */
#define VTS_VIDEO_TICKS		3600	/* 25 frames/s */
#define VTS_VIDEO_WIDTH		720
#define VTS_VIDEO_HEIGHT	576

/*
 * One MPEG-2 Main Profile I-frame, black, 720x576, 25 frames/s, with
 * sequence header and extension, closed GOP header and picture coding
 * extension; bitrate goes into the sequence header.  Returns its length
 * (at most size), 0 if size is too small.
 */
size_t vts_mpeg2_black_frame(uint8_t *buf, size_t size, uint32_t bitrate);
/* One silent MPEG-1 Layer II frame (VTS_MP2_FRAME bytes). */
void vts_mp2_silent_frame(uint8_t *buf);
/* A PES header with a PTS; es_len is the length of the data after it. */
void vts_pes_header(uint8_t *buf, uint8_t stream_id, size_t es_len,
		    uint64_t pts);
/*
 * One TS packet: a header, an adaptation field when pcr >= 0 or when
 * len < the room left (stuffing), then up to the room of the payload.
 * Returns the payload bytes taken from data.
 */
size_t vts_ts_packet(uint8_t *pkt, uint16_t pid, bool pusi, uint8_t cc,
		     int64_t pcr, const uint8_t *data, size_t len);

#endif /* VTS_INT_H */
