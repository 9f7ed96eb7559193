/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vdmx.h - a DVB demux in user space: what dvb-core's dvb_demux.c and
 * dmxdev.c do behind /dev/dvb/adapterN/demux0 and dvr0, for a front that
 * serves those nodes itself (CUSE, docs/cuse.md "The demux in user
 * space").
 *
 * One struct vdmx is one adapter's demux: it takes the adapter's TS
 * (vdmx_feed()), keeps one struct vdmx_filter per open of demux0 and the
 * buffer of one reader of dvr0, and says which PIDs it needs from the
 * remote (vdmx_pids()).  The requests are the DMX_* ioctls of
 * <linux/dvb/dmx.h> with their arguments and errors; reads never block:
 * -EAGAIN tells the caller to wait (or to answer EAGAIN to an O_NONBLOCK
 * reader), and vdmx_woken() / vdmx_dvr_woken() which readers to look at
 * again after vdmx_feed() or vdmx_tick().
 *
 * Pure: no I/O, no threads, no clock (the caller passes the time in, ms
 * of a monotonic clock), no global state.  Memory is allocated by
 * vdmx_new(), vdmx_filter_open(), vdmx_dvr_open() and a buffer size
 * change only.  Not thread-safe: one caller at a time per struct vdmx.
 * Every argument may come straight from an application: nothing crashes
 * on any value (tests/fuzz/fuzz_dmx.c).
 */
#ifndef VDMX_H
#define VDMX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/dvb/dmx.h>

#define VDMX_TS_SIZE		188
#define VDMX_PID_FULL_TS	0x2000	/* a PES filter's PID: every packet */
#define VDMX_SECTION_MAX	4096	/* longest section delivered */

/* dvb-core's sizes: a filter's buffer (dvb_demux_open()), dvr0's */
#define VDMX_FILTER_BUFFER	8192
#define VDMX_DVR_BUFFER		(10 * 188 * 1024)	/* DVR_BUFFER_SIZE */
#define VDMX_MAX_FEEDS		256	/* a vtunerc adapter's feeds */
#define VDMX_MAX_FILTERS	256	/* ... and opens of demux0 */
#define VDMX_BUFFER_MAX		(64u << 20)	/* largest DMX_SET_BUFFER_SIZE */

struct vdmx_config {
	unsigned int max_filters;	/* opens of demux0 at once (EMFILE) */
	/*
	 * Started feeds: one per running section filter and one per PID of
	 * a running PES filter (EBUSY beyond); at most 65534
	 */
	unsigned int max_feeds;
	size_t max_buffer;		/* larger DMX_SET_BUFFER_SIZE: ENOMEM */
	size_t filter_buffer;		/* a new filter's buffer */
	size_t dvr_buffer;		/* dvr0's buffer at each vdmx_dvr_open() */
};

struct vdmx_stats {
	uint64_t packets;	/* TS packets taken in */
	uint64_t sync_losses;	/* times the input lost packet sync */
	uint64_t dropped_bytes;	/* skipped to find sync again */
	uint64_t tei;		/* transport_error_indicator set (delivered) */
	uint64_t discontinuities;	/* a section filter's CC broken */
	uint64_t crc_errors;	/* sections dropped by DMX_CHECK_CRC */
	uint64_t overflows;	/* filter or dvr buffers full: EOVERFLOW */
	uint64_t timeouts;	/* section filters timed out */
};

struct vdmx;
struct vdmx_filter;

/*
 * A demux; cfg NULL, or any field 0, takes the default (VDMX_MAX_FILTERS,
 * VDMX_MAX_FEEDS, VDMX_BUFFER_MAX, VDMX_FILTER_BUFFER, VDMX_DVR_BUFFER).
 * Returns NULL when out of memory or max_feeds is over 65534.
 */
struct vdmx *vdmx_new(const struct vdmx_config *cfg);

/* Closes every filter and dvr0's reader.  d may be NULL. */
void vdmx_free(struct vdmx *d);

/* ---- the TS -------------------------------------------------------------- */

/*
 * len bytes of the adapter's TS, cut anywhere: a packet split between
 * calls is completed by the next one.  Bytes that are not a packet are
 * skipped up to the next sync byte (0x47) that the byte a packet later
 * confirms, when there is one, as vtunerc.ko does before dvb-core's
 * demux: counted in sync_losses and dropped_bytes.  Every packet goes to
 * the filters of its PID and of VDMX_PID_FULL_TS.
 */
void vdmx_feed(struct vdmx *d, const uint8_t *buf, size_t len);

/* Forget a packet cut short by the last vdmx_feed() (a new tune). */
void vdmx_feed_reset(struct vdmx *d);

/*
 * The clock is now_ms (an earlier time is ignored): section filters whose
 * timeout passed stop with ETIMEDOUT for their reader.  A timeout is
 * counted from the clock as it stands when the filter starts: call this
 * with the current time before each request when time may have passed.
 * Returns the number of filters that timed out.
 */
unsigned int vdmx_tick(struct vdmx *d, uint64_t now_ms);

/* When vdmx_tick() must run next (ms), 0 if no timeout is running. */
uint64_t vdmx_deadline(const struct vdmx *d);

/*
 * A filter whose buffer got data or an error (overflow, timeout) since it
 * was last returned, NULL when none: a blocked read or poll of it may go
 * on.  Each filter comes once however much it got.
 */
struct vdmx_filter *vdmx_woken(struct vdmx *d);

/* Whether dvr0's buffer got data or an error since the last call. */
bool vdmx_dvr_woken(struct vdmx *d);

/*
 * The PIDs of the running feeds, sorted, each once (VDMX_PID_FULL_TS,
 * last, when a PES filter asks for the whole TS): at most max into out.
 * Returns how many there are (more than max: out holds the first max).
 * What the remote must send; a filter keeps its PIDs from DMX_START (or
 * DMX_IMMEDIATE_START) to DMX_STOP or close, also once it has delivered
 * its one section (DMX_ONESHOT) or timed out, as dvb-core's feeds do.
 */
unsigned int vdmx_pids(const struct vdmx *d, uint16_t *out, unsigned int max);

/* Changes whenever the set vdmx_pids() returns changes. */
uint32_t vdmx_pids_gen(const struct vdmx *d);

/* Counters since vdmx_new(). */
const struct vdmx_stats *vdmx_stats(const struct vdmx *d);

/* ---- demux0 -------------------------------------------------------------- */

/*
 * Open demux0: *f is a new filter (allocated, no type).  Returns 0,
 * -EMFILE when max_filters are open, -ENOMEM.
 */
int vdmx_filter_open(struct vdmx *d, struct vdmx_filter **f);

/* Close: stops the filter and frees it.  f may be NULL. */
void vdmx_filter_close(struct vdmx_filter *f);

/*
 * DMX_SET_FILTER: a section filter on p->pid (at most 0x1fff, else
 * -EINVAL and the filter is unchanged).  The filter is stopped and set;
 * p->filter's bytes are compared with the section's bytes 0 and 3..17
 * (table_id, then from table_id_extension on), bits of mask only, each
 * for equality where mode's bit is 0 and, where it is 1, at least one
 * such bit must differ.  p->flags: DMX_CHECK_CRC (a section with
 * section_syntax_indicator set and a wrong CRC_32 is dropped),
 * DMX_ONESHOT (the filter stops delivering after one section),
 * DMX_IMMEDIATE_START (started: returns what vdmx_start() does).
 * p->timeout ms without a section (since the start): the reader gets
 * -ETIMEDOUT once, and the filter delivers nothing more until restarted.
 * Returns 0 or a negative errno.
 */
int vdmx_set_filter(struct vdmx_filter *f,
		    const struct dmx_sct_filter_params *p);

/*
 * DMX_SET_PES_FILTER: p->pid (at most VDMX_PID_FULL_TS: every packet)
 * to p->output: DMX_OUT_DECODER nowhere (the PID is still asked for),
 * DMX_OUT_TAP the packets' payload to this filter, DMX_OUT_TS_TAP
 * whole packets to dvr0, DMX_OUT_TSDEMUX_TAP whole packets to this
 * filter; another value is accepted and delivers nothing.  The whole TS
 * comes in whole packets, DMX_OUT_TAP included.  p->pes_type up to
 * DMX_PES_OTHER; below it, a decoder type that one running filter of the
 * demux holds at a time.  p->input is ignored, p->flags but
 * DMX_IMMEDIATE_START too.  A pid or pes_type out of range: -EINVAL, the
 * filter unchanged; else it is stopped and set, and started when asked
 * (returns what vdmx_start() does).
 */
int vdmx_set_pes_filter(struct vdmx_filter *f,
			const struct dmx_pes_filter_params *p);

/*
 * DMX_START: starts a set filter (a running one is stopped first: its
 * buffer emptied, its timeout started again).  Returns 0, -EINVAL (not
 * set; a decoder pes_type another running filter holds), -EBUSY (not
 * enough free feeds).  Nothing is started when it fails.
 */
int vdmx_start(struct vdmx_filter *f);

/* DMX_STOP: the filter keeps its settings; its buffer is emptied.  0. */
int vdmx_stop(struct vdmx_filter *f);

/*
 * DMX_ADD_PID: one more PID (up to VDMX_PID_FULL_TS) for a set PES
 * filter; several only with DMX_OUT_TSDEMUX_TAP and a pes_type of
 * DMX_PES_OTHER.  Started at once on a running filter.  Returns 0 (also
 * when the filter has it already), -EINVAL, -EBUSY (no free feed).
 */
int vdmx_add_pid(struct vdmx_filter *f, uint16_t pid);

/* DMX_REMOVE_PID: 0 (also when absent), -EINVAL if not a set PES filter. */
int vdmx_remove_pid(struct vdmx_filter *f, uint16_t pid);

/*
 * DMX_SET_BUFFER_SIZE: the filter's buffer, emptied.  Returns 0, -EINVAL
 * (size 0), -EBUSY (running), -ENOMEM (over max_buffer, or out of memory:
 * the old buffer is kept).
 */
int vdmx_filter_set_buffer_size(struct vdmx_filter *f, unsigned long size);

/*
 * read() of demux0, without waiting.  Returns bytes (at most len), 0 when
 * the filter never had a buffer (never started nor sized: dvb-core's
 * end of file), or
 *   -EAGAIN     nothing to read: wait for vdmx_woken(), or EAGAIN to an
 *               O_NONBLOCK reader
 *   -EOVERFLOW  the buffer overflowed: what it held is dropped
 *   -ETIMEDOUT  the section filter timed out
 * An error is returned once, then the buffer is empty.  A section filter
 * returns at most the rest of one section: a whole section to a buffer of
 * VDMX_SECTION_MAX bytes, a larger section in pieces to a smaller one,
 * never bytes of two sections in one read.  A PES filter returns bytes of
 * the stream, from whole packets.  dvb-core's blocking read of a PES
 * filter or dvr0 returns when len bytes are read (or an error or a signal
 * comes, with what was read): a front must read again while woken until
 * then; a blocking read of a section filter returns the first time this
 * does not return -EAGAIN.
 */
ssize_t vdmx_filter_read(struct vdmx_filter *f, void *buf, size_t len);

/*
 * poll() of demux0: POLLIN | POLLRDNORM | POLLPRI when there is
 * something to read, and POLLERR with them when a read returns an error;
 * 0 while the filter is not started (nor stopped by DMX_ONESHOT or its
 * timeout).
 */
unsigned int vdmx_filter_poll(const struct vdmx_filter *f);

/* DMX_GET_PES_PIDS: the PIDs last started for DMX_PES_AUDIO0..PCR0 (0xffff: none). */
void vdmx_get_pes_pids(const struct vdmx *d, uint16_t pids[5]);

/*
 * The filter's state, for the front: 0 free, 1 allocated, 2 set, 3 running,
 * 4 done (DMX_ONESHOT delivered), 5 timed out, as dmxdev's.
 */
enum vdmx_state {
	VDMX_STATE_FREE,
	VDMX_STATE_ALLOCATED,
	VDMX_STATE_SET,
	VDMX_STATE_GO,
	VDMX_STATE_DONE,
	VDMX_STATE_TIMEDOUT,
};
enum vdmx_state vdmx_filter_state(const struct vdmx_filter *f);

/*
 * The argument of a demux0 (dvr false) or dvr0 (dvr true) ioctl: *in
 * bytes to copy from the caller, *out to copy back after success.
 * Returns 0, or -ENOTTY for a request the node does not know (dvb-core's
 * answer, also to the mmap requests DMX_REQBUFS...: Debian's kernels are
 * built without CONFIG_DVB_MMAP).  DMX_SET_BUFFER_SIZE takes the ioctl's
 * value itself, no bytes.
 */
int vdmx_ioctl_size(unsigned int cmd, bool dvr, size_t *in, size_t *out);

/*
 * A demux0 ioctl: cmd, its value (DMX_SET_BUFFER_SIZE) and its argument
 * (the bytes vdmx_ioctl_size() gave, aligned for its type; written for
 * DMX_GET_PES_PIDS; NULL: -EFAULT).  Returns 0 or a negative errno
 * (DMX_GET_STC: -EINVAL, as dvb-core's software demux, which has no STC;
 * -ENOTTY as vdmx_ioctl_size()).
 */
int vdmx_ioctl(struct vdmx_filter *f, unsigned int cmd, unsigned long value,
	       void *arg);

/* ---- dvr0 ---------------------------------------------------------------- */

/*
 * Open dvr0 for reading (O_RDONLY; the front refuses O_RDWR with
 * EOPNOTSUPP, and a writer feeds the demux, as dvb-core does): a buffer
 * of dvr_buffer bytes for the DMX_OUT_TS_TAP filters.  Returns 0,
 * -EBUSY (a reader has it), -ENOMEM.  Without a reader their packets are
 * dropped.
 */
int vdmx_dvr_open(struct vdmx *d);
void vdmx_dvr_close(struct vdmx *d);

/*
 * dvr0's DMX_SET_BUFFER_SIZE (running filters or not): emptied.  Returns
 * 0 (also without a reader: the next open has the default again),
 * -EINVAL (0), -ENOMEM (over max_buffer, out of memory).
 */
int vdmx_dvr_set_buffer_size(struct vdmx *d, unsigned long size);

/*
 * read() of dvr0, as vdmx_filter_read() for a PES filter: bytes, 0 when
 * no reader has it open, -EAGAIN, -EOVERFLOW (once, then empty).  Each
 * packet comes once, whatever the number of filters that want it.
 */
ssize_t vdmx_dvr_read(struct vdmx *d, void *buf, size_t len);

/* poll() of dvr0's reader: as vdmx_filter_poll(); 0 without a reader. */
unsigned int vdmx_dvr_poll(const struct vdmx *d);

/* A dvr0 ioctl (DMX_SET_BUFFER_SIZE only): 0 or a negative errno. */
int vdmx_dvr_ioctl(struct vdmx *d, unsigned int cmd, unsigned long value);

#endif /* VDMX_H */
