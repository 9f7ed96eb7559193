// SPDX-License-Identifier: GPL-2.0
/*
 * ts.c - the TS side of vdmx: packets found in the input, handed to the
 * feeds of their PID and of the whole TS, sections assembled and
 * filtered (see vdmx.h).  The semantics are those of dvb-core's
 * dvb_demux.c and dmxdev.c callbacks, reimplemented; where this differs
 * on purpose, the comment says so.
 */
#include <errno.h>
#include <string.h>

#include "dmx/vdmx_int.h"

#define TS_SYNC		0x47

/* ---- CRC_32 of MPEG-2 sections (ISO/IEC 13818-1 annex A) ----------------- */

void vdmx_crc_init(uint32_t table[256])
{
	uint32_t c;
	unsigned int i, j;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i << 24;
		for (j = 0; j < 8; j++)
			c = c & 0x80000000u ? c << 1 ^ 0x04c11db7u : c << 1;
		table[i] = c;
	}
}

/* Returns 0 over a section whose CRC_32 is right (its last 4 bytes). */
static uint32_t vdmx_crc32(const struct vdmx *d, const uint8_t *p, size_t len)
{
	uint32_t c = 0xffffffffu;

	while (len--)
		c = c << 8 ^ d->crc_table[(c >> 24 ^ *p++) & 0xff];
	return c;
}

/* ---- packets ------------------------------------------------------------- */

static uint16_t ts_pid(const uint8_t *pkt)
{
	return (uint16_t)((pkt[1] & 0x1f) << 8 | pkt[2]);
}

/*
 * Bytes of payload at the end of the packet: 0 without payload, or when
 * the adaptation field leaves none (or claims more than the packet).
 */
static size_t ts_payload(const uint8_t *pkt)
{
	if (!(pkt[3] & 0x10))
		return 0;
	if (!(pkt[3] & 0x20))
		return 184;
	return pkt[4] > 182 ? 0 : 183 - (size_t)pkt[4];
}

/* ---- sections ------------------------------------------------------------ */

void vdmx_sec_reset(struct vdmx_filter *f)
{
	f->fill = 0;
	f->scan = 0;
	f->cc = -1;
	f->pusi_seen = false;
}

/*
 * Whether the section (len bytes, at least 3) passes the filter: user
 * byte 0 is section byte 0, user bytes 1..15 section bytes 3..17 (the
 * length is never compared).  dvb-core compares what its buffer holds
 * past a shorter section; here a byte the section does not have passes
 * no mask bit.
 */
static bool sec_match(const struct vdmx_filter *f, const uint8_t *s, size_t len)
{
	uint8_t differ = 0, x;
	unsigned int i;
	size_t at;

	for (i = 0; i < DMX_FILTER_SIZE; i++) {
		if (!(f->pos[i] | f->neg[i]))
			continue;
		at = i ? i + 2 : 0;
		if (at >= len)
			return false;
		x = s[at] ^ f->sec.filter.filter[i];
		if (x & f->pos[i])
			return false;
		differ |= x & f->neg[i];
	}
	return !f->has_neg || differ;
}

/* A whole section for f (dvb_dmxdev_section_callback()). */
static void sec_deliver(struct vdmx_filter *f, const uint8_t *s, size_t len)
{
	struct vdmx *d = f->d;

	if (f->state != VDMX_STATE_GO || !sec_match(f, s, len))
		return;
	/* only sections with section_syntax_indicator carry a CRC_32 */
	if ((f->sec.flags & DMX_CHECK_CRC) && (s[1] & 0x80) &&
	    vdmx_crc32(d, s, len)) {
		d->st.crc_errors++;
		return;
	}
	if (f->buf.error)
		return;		/* dropped until the reader has seen the error */
	f->deadline = 0;	/* the timeout is the first section's only */
	vdmx_ring_put(d, &f->buf, s, len);
	if (f->sec.flags & DMX_ONESHOT)
		f->state = VDMX_STATE_DONE;
	vdmx_wake(f);
}

/*
 * len more bytes of the section stream, then every section they complete
 * (dvb_dmx_swfilter_section_copy_dump()): delivered when a PUSI was seen
 * since the last discontinuity, else dropped.  Stuffing (0xff) reads as a
 * section longer than VDMX_SECTION_MAX: nothing more until the next PUSI.
 */
static void sec_copy(struct vdmx_filter *f, const uint8_t *p, size_t len)
{
	const uint8_t *s;
	size_t n;

	if (len > VDMX_SECBUF - f->fill)
		len = VDMX_SECBUF - f->fill;
	memcpy(f->secbuf + f->fill, p, len);
	f->fill += len;

	while (f->fill - f->scan >= 3) {
		s = f->secbuf + f->scan;
		n = 3 + ((size_t)(s[1] & 0x0f) << 8 | s[2]);
		if (n > VDMX_SECTION_MAX || n > f->fill - f->scan)
			return;
		if (f->pusi_seen)
			sec_deliver(f, s, n);
		f->scan += n;
	}
}

/* A section stream broken: what was assembled is dropped until a PUSI. */
static void sec_lost(struct vdmx_filter *f)
{
	f->d->st.discontinuities++;
	f->pusi_seen = false;
	f->fill = 0;
	f->scan = 0;
}

/*
 * One packet of a running section filter's PID
 * (dvb_dmx_swfilter_section_packet()).  A continuity counter that does
 * not follow (a duplicate packet included) or a discontinuity_indicator
 * drops the section in progress.  Two differences with dvb-core: a packet
 * without payload changes nothing (dvb-core goes back to the start of its
 * buffer and may deliver a section twice); a PUSI whose pointer_field
 * points past the packet drops the section in progress (dvb-core goes on
 * appending to it).
 */
static void sec_packet(struct vdmx_filter *f, const uint8_t *pkt)
{
	size_t count = ts_payload(pkt), ptr;
	const uint8_t *p = pkt + VDMX_TS_SIZE - count;
	int cc = pkt[3] & 0x0f;
	bool dci;

	if (!count)
		return;
	dci = (pkt[3] & 0x20) && pkt[4] && (pkt[5] & 0x80);
	if ((f->cc >= 0 && ((f->cc + 1) & 0x0f) != cc) || dci)
		sec_lost(f);
	f->cc = cc;

	if (!(pkt[1] & 0x40)) {
		sec_copy(f, p, count);
		return;
	}
	ptr = p[0];
	if (count < 2 || ptr >= count) {
		sec_lost(f);
		return;
	}
	/* the end of the section in progress, then new ones */
	sec_copy(f, p + 1, ptr);
	f->pusi_seen = true;
	f->fill = 0;
	f->scan = 0;
	sec_copy(f, p + 1 + ptr, count - 1 - ptr);
}

/* ---- dispatch ------------------------------------------------------------ */

/* Data for a filter's own buffer or dvr0's (dvb_dmxdev_ts_callback()). */
static void ts_put(struct vdmx *d, struct vdmx_filter *f, const uint8_t *p,
		   size_t len)
{
	struct vdmx_ring *r = f ? &f->buf : &d->dvr;

	if (r->error || !r->data)
		return;
	vdmx_ring_put(d, r, p, len);
	if (f)
		vdmx_wake(f);
	else
		d->dvr_woken = true;
}

/*
 * A packet for a feed; full: the feed takes the whole TS, and gets whole
 * packets whatever its output, as dvb-core's (DMX_OUT_TAP included).
 * *dvr_done: dvr0 had the packet already (dvb-core copies each packet
 * to dvr0 once, "even if a PID is in multiple filters").
 */
static void ts_feed_packet(struct vdmx *d, const struct vdmx_feed *fd,
			   const uint8_t *pkt, bool full, bool *dvr_done)
{
	struct vdmx_filter *f = fd->f;
	size_t count;

	if (f->type == VDMX_TYPE_SEC) {
		if (f->state == VDMX_STATE_GO)
			sec_packet(f, pkt);
		return;
	}
	switch ((unsigned int)f->pes.output) {
	case DMX_OUT_TAP:
		if (full) {
			ts_put(d, f, pkt, VDMX_TS_SIZE);
			break;
		}
		count = ts_payload(pkt);
		if (count)
			ts_put(d, f, pkt + VDMX_TS_SIZE - count, count);
		break;
	case DMX_OUT_TSDEMUX_TAP:
		ts_put(d, f, pkt, VDMX_TS_SIZE);
		break;
	case DMX_OUT_TS_TAP:
		if (!*dvr_done)
			ts_put(d, NULL, pkt, VDMX_TS_SIZE);
		*dvr_done = true;
		break;
	default:
		/* DMX_OUT_DECODER: no decoder in a software demux */
		break;
	}
}

/*
 * One packet to the feeds of its PID and of the whole TS.  A packet with
 * transport_error_indicator set is delivered (dvb-core's default,
 * dvb_demux_feed_err_pkts=1).
 */
static void ts_packet(struct vdmx *d, const uint8_t *pkt)
{
	uint16_t pid = ts_pid(pkt), i;
	bool dvr_done = false;

	d->st.packets++;
	if (pkt[1] & 0x80)
		d->st.tei++;
	for (i = d->head[pid]; i != VDMX_NONE; i = d->feeds[i].next)
		ts_feed_packet(d, &d->feeds[i], pkt, false, &dvr_done);
	for (i = d->head[VDMX_PID_FULL_TS]; i != VDMX_NONE; i = d->feeds[i].next)
		ts_feed_packet(d, &d->feeds[i], pkt, true, &dvr_done);
}

/* ---- input --------------------------------------------------------------- */

static void ts_lost_sync(struct vdmx *d, size_t skipped)
{
	if (d->in_sync)
		d->st.sync_losses++;
	d->in_sync = false;
	d->st.dropped_bytes += skipped;
}

/* Bytes before the first sync byte of buf (len when none). */
static size_t ts_to_sync(const uint8_t *buf, size_t len)
{
	const uint8_t *next = memchr(buf, TS_SYNC, len);

	return next ? (size_t)(next - buf) : len;
}

/*
 * As vtunerc.ko's vtunerc_ts_feed() before dvb_dmx_swfilter_packets():
 * a packet cut short is completed from the next call (and dropped when
 * the byte after it is not a sync byte); out of sync, a sync byte counts
 * when the one a packet later confirms it (or the buffer ends before).
 * A packet completed from the last call puts the input in sync (the
 * module's stays out of sync, which only its counters see).
 */
void vdmx_feed(struct vdmx *d, const uint8_t *buf, size_t len)
{
	size_t take, skip;

	if (d->part_len) {
		take = VDMX_TS_SIZE - d->part_len;
		if (take > len)
			take = len;
		memcpy(d->part + d->part_len, buf, take);
		d->part_len += take;
		buf += take;
		len -= take;
		if (d->part_len < VDMX_TS_SIZE)
			return;
		d->part_len = 0;
		if (len && buf[0] != TS_SYNC) {
			ts_lost_sync(d, VDMX_TS_SIZE);
		} else {
			d->in_sync = true;
			ts_packet(d, d->part);
		}
	}

	while (len >= VDMX_TS_SIZE) {
		if (buf[0] != TS_SYNC ||
		    (!d->in_sync && len >= 2 * VDMX_TS_SIZE &&
		     buf[VDMX_TS_SIZE] != TS_SYNC)) {
			skip = 1 + ts_to_sync(buf + 1, len - 1);
			ts_lost_sync(d, skip);
			buf += skip;
			len -= skip;
			continue;
		}
		d->in_sync = true;
		ts_packet(d, buf);
		buf += VDMX_TS_SIZE;
		len -= VDMX_TS_SIZE;
	}

	if (!len)
		return;
	skip = ts_to_sync(buf, len);
	if (skip)
		ts_lost_sync(d, skip);
	memcpy(d->part, buf + skip, len - skip);
	d->part_len = len - skip;
}

void vdmx_feed_reset(struct vdmx *d)
{
	d->part_len = 0;
	d->in_sync = false;
}
