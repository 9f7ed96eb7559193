// SPDX-License-Identifier: GPL-2.0
/*
 * vtunerc: the software demux and the TS path into it.
 *
 * Applications use dvb-core's demux as with any adapter.  The set of PIDs
 * their feeds need is kept here and announced to the control-device owner
 * with MSG_PIDLIST; the TS it writes back is fed to the demux.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/slab.h>
#include <linux/sched/signal.h>

#include "vtunerc_priv.h"

/* Caller holds ctx->lock. */
static void vtunerc_pids_changed(struct vtunerc_ctx *ctx)
{
	ctx->pids_seq++;
	ctx->pids_pending = ctx->opened;
}

static int vtunerc_start_feed(struct dvb_demux_feed *feed)
{
	struct vtunerc_ctx *ctx = feed->demux->priv;
	u16 pid = feed->pid;
	unsigned int i;
	int ret = 0;

	if (pid > VTUNER_PID_FULL_TS)
		return -EINVAL;

	spin_lock(&ctx->lock);
	for (i = 0; i < ctx->npids; i++)
		if (ctx->pids[i].pid == pid)
			break;
	if (i < ctx->npids) {
		ctx->pids[i].users++;
	} else if (ctx->npids < VTUNERC_MAX_FEEDS) {
		ctx->pids[ctx->npids].pid = pid;
		ctx->pids[ctx->npids].users = 1;
		ctx->npids++;
		vtunerc_pids_changed(ctx);
	} else {
		ret = -EBUSY;
	}
	spin_unlock(&ctx->lock);

	if (!ret)
		wake_up_interruptible(&ctx->msg_wq);
	return ret;
}

static int vtunerc_stop_feed(struct dvb_demux_feed *feed)
{
	struct vtunerc_ctx *ctx = feed->demux->priv;
	unsigned int i;
	bool changed = false;

	spin_lock(&ctx->lock);
	for (i = 0; i < ctx->npids; i++) {
		if (ctx->pids[i].pid != feed->pid)
			continue;
		if (--ctx->pids[i].users == 0) {
			ctx->pids[i] = ctx->pids[--ctx->npids];
			vtunerc_pids_changed(ctx);
			changed = true;
		}
		break;
	}
	spin_unlock(&ctx->lock);

	if (changed)
		wake_up_interruptible(&ctx->msg_wq);
	return 0;
}

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const u16 *)a - (int)*(const u16 *)b;
}

/* Sorted PID set; caller holds ctx->lock.  Returns the number of PIDs. */
static unsigned int vtunerc_pids_sorted(struct vtunerc_ctx *ctx, u16 *out)
{
	unsigned int i;

	for (i = 0; i < ctx->npids; i++)
		out[i] = ctx->pids[i].pid;
	sort(out, ctx->npids, sizeof(*out), cmp_u16, NULL);
	return ctx->npids;
}

/*
 * body.pidlist of a classic MSG_PIDLIST: the first 30 PIDs, the rest
 * 0xffff.  A set that does not fit is sent as a request for the full TS,
 * so a classic server delivers everything the demux may need.
 */
void vtunerc_pids_to_classic(struct vtunerc_ctx *ctx, u16 *list)
{
	u16 sorted[VTUNERC_MAX_FEEDS];
	unsigned int i, n;

	n = vtunerc_pids_sorted(ctx, sorted);
	for (i = 0; i < VTUNER_CLASSIC_PIDS; i++)
		list[i] = VTUNER_PID_NONE;
	if (n > VTUNER_CLASSIC_PIDS) {
		list[0] = VTUNER_PID_FULL_TS;
		return;
	}
	for (i = 0; i < n; i++)
		list[i] = sorted[i];
}

void vtunerc_pids_to_ext(struct vtunerc_ctx *ctx, struct vtuner_ext_pids *p)
{
	p->seq = ctx->pids_seq;
	p->num = vtunerc_pids_sorted(ctx, p->pids);
}

/*
 * dvb-core's demux device mishandles a feed that fails to start when a
 * filter has several PIDs: on 6.1 a failed DMX_ADD_PID leaves the
 * released feed on a running filter (fixed in 6.12), and on both a failed
 * DMX_START leaves the feeds started before the failing one running,
 * unowned.  A later DMX_STOP, DMX_SET_FILTER or close then calls through
 * a feed that may have become another filter's section feed (a crash),
 * and the feeds left running are lost with their PIDs.  A feed fails to
 * start when no feed is free, when its PID is out of range, when a
 * decoder PES type (DMX_PES_VIDEO0...) is already taken by another feed,
 * or when a signal interrupts it.  The demux devices of this driver
 * refuse such a request before dvb-core sees it: the ioctls that allocate
 * feeds or change a filter's PID list are serialised per adapter; a PID
 * above 0x2000 is refused; DMX_ADD_PID needs a free feed and a filter
 * without a decoder PES type (which only ever takes one PID: this adapter
 * has no decoder); DMX_START of a stopped PES filter needs a free feed
 * for each of its PIDs; a pending signal ends the call before it starts.
 */
static const struct file_operations *vtunerc_dmx_fops;
static long (*vtunerc_dmx_ioctl_orig)(struct file *, unsigned int,
				      unsigned long);
static long (*vtunerc_dmx_compat_orig)(struct file *, unsigned int,
				       unsigned long);

static int vtunerc_demux_feeds_free(struct vtunerc_ctx *ctx)
{
	int i, n = 0;

	mutex_lock(&ctx->demux.mutex);
	for (i = 0; i < ctx->demux.feednum; i++)
		n += ctx->demux.feed[i].state == DMX_STATE_FREE;
	mutex_unlock(&ctx->demux.mutex);
	return n;
}

/*
 * Whether dvb-core can carry out cmd on filter without a feed failing to
 * start.  Caller holds ctx->dmx_lock, under which every ioctl that
 * changes a filter's type, parameters or PID list runs.
 */
static long vtunerc_dmx_check(struct vtunerc_ctx *ctx,
			      struct dmxdev_filter *filter, unsigned int cmd)
{
	struct dmxdev_feed *feed;
	int n = 0;

	switch (cmd) {
	case DMX_ADD_PID:
		if (filter->type == DMXDEV_TYPE_PES &&
		    filter->params.pes.pes_type < DMX_PES_OTHER)
			return -EINVAL;
		if (vtunerc_demux_feeds_free(ctx) < 1)
			return -EBUSY;
		break;
	case DMX_START:
		if (filter->type != DMXDEV_TYPE_PES ||
		    filter->state < DMXDEV_STATE_SET ||
		    filter->state >= DMXDEV_STATE_GO)
			break;
		list_for_each_entry(feed, &filter->feed.ts, next)
			n++;
		if (n > 1 && vtunerc_demux_feeds_free(ctx) < n)
			return -EBUSY;
		break;
	}
	if (signal_pending(current))
		return -ERESTARTSYS;
	return 0;
}

static long vtunerc_dmx_guard(struct file *file, unsigned int cmd,
			      unsigned long arg,
			      long (*orig)(struct file *, unsigned int,
					   unsigned long))
{
	/* dvb-core's demux open() stores the file's filter here. */
	struct dmxdev_filter *filter = file->private_data;
	struct vtunerc_ctx *ctx = container_of(filter->dev, struct vtunerc_ctx,
					       dmxdev);
	u16 pid;
	long ret;

	switch (cmd) {
	case DMX_ADD_PID:
	case DMX_SET_PES_FILTER:
		/* a u16, or the first member of dmx_pes_filter_params */
		if (get_user(pid, (u16 __user *)arg))
			return -EFAULT;
		if (pid > VTUNER_PID_FULL_TS)
			return -EINVAL;
		break;
	case DMX_SET_FILTER:
	case DMX_START:
	case DMX_REMOVE_PID:
		break;
	default:
		return orig(file, cmd, arg);
	}

	if (mutex_lock_interruptible(&ctx->dmx_lock))
		return -ERESTARTSYS;
	ret = vtunerc_dmx_check(ctx, filter, cmd);
	if (!ret)
		ret = orig(file, cmd, arg);
	mutex_unlock(&ctx->dmx_lock);
	return ret;
}

static long vtunerc_dmx_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	return vtunerc_dmx_guard(file, cmd, arg, vtunerc_dmx_ioctl_orig);
}

static long vtunerc_dmx_compat_ioctl(struct file *file, unsigned int cmd,
				     unsigned long arg)
{
	return vtunerc_dmx_guard(file, cmd, arg, vtunerc_dmx_compat_orig);
}

typedef long (*vtunerc_ioctl_fn)(struct file *, unsigned int, unsigned long);

/* Store fn at offset off of a private copy of a file_operations table. */
static void vtunerc_fops_set(void *copy, size_t off, vtunerc_ioctl_fn fn)
{
	memcpy((char *)copy + off, &fn, sizeof(fn));
}

/* Route the demux device's ioctls through vtunerc_dmx_guard(). */
static int vtunerc_demux_hook(struct vtunerc_ctx *ctx)
{
	const struct file_operations *fops = ctx->dmxdev.dvbdev->fops;
	void *copy;

	if (!vtunerc_dmx_fops) {
		copy = kmemdup(fops, sizeof(*fops), GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
		vtunerc_dmx_ioctl_orig = fops->unlocked_ioctl;
		vtunerc_dmx_compat_orig = fops->compat_ioctl;
		vtunerc_fops_set(copy, offsetof(const struct file_operations,
						unlocked_ioctl),
				 vtunerc_dmx_ioctl);
		if (fops->compat_ioctl)
			vtunerc_fops_set(copy,
					 offsetof(const struct file_operations,
						  compat_ioctl),
					 vtunerc_dmx_compat_ioctl);
		vtunerc_dmx_fops = copy;
	}
	ctx->dmxdev.dvbdev->fops = vtunerc_dmx_fops;
	return 0;
}

/* After every demux device is gone. */
void vtunerc_demux_exit(void)
{
	kfree(vtunerc_dmx_fops);
	vtunerc_dmx_fops = NULL;
}

int vtunerc_demux_init(struct vtunerc_ctx *ctx)
{
	struct dvb_demux *dvbdemux = &ctx->demux;
	int ret;

	dvbdemux->priv = ctx;
	dvbdemux->filternum = VTUNERC_MAX_FEEDS;
	dvbdemux->feednum = VTUNERC_MAX_FEEDS;
	dvbdemux->start_feed = vtunerc_start_feed;
	dvbdemux->stop_feed = vtunerc_stop_feed;
	dvbdemux->dmx.capabilities = DMX_TS_FILTERING | DMX_SECTION_FILTERING |
				     DMX_MEMORY_BASED_FILTERING;
	ret = dvb_dmx_init(dvbdemux);
	if (ret < 0)
		return ret;
	ctx->demux_ok = true;

	ctx->dmxdev.filternum = VTUNERC_MAX_FEEDS;
	ctx->dmxdev.demux = &dvbdemux->dmx;
	ctx->dmxdev.capabilities = 0;
	ret = dvb_dmxdev_init(&ctx->dmxdev, &ctx->adapter);
	if (ret < 0)
		return ret;
	ctx->dmxdev_ok = true;
	ret = vtunerc_demux_hook(ctx);
	if (ret < 0)
		return ret;

	ctx->hw_frontend.source = DMX_FRONTEND_0;
	ret = dvbdemux->dmx.add_frontend(&dvbdemux->dmx, &ctx->hw_frontend);
	if (ret < 0)
		return ret;
	ctx->hw_fe_ok = true;

	ctx->mem_frontend.source = DMX_MEMORY_FE;
	ret = dvbdemux->dmx.add_frontend(&dvbdemux->dmx, &ctx->mem_frontend);
	if (ret < 0)
		return ret;
	ctx->mem_fe_ok = true;

	return dvbdemux->dmx.connect_frontend(&dvbdemux->dmx,
					       &ctx->hw_frontend);
}

void vtunerc_demux_release(struct vtunerc_ctx *ctx)
{
	struct dmx_demux *dmx = &ctx->demux.dmx;

	if (ctx->hw_fe_ok) {
		dmx->close(dmx);
		dmx->remove_frontend(dmx, &ctx->hw_frontend);
	}
	if (ctx->mem_fe_ok)
		dmx->remove_frontend(dmx, &ctx->mem_frontend);
	if (ctx->dmxdev_ok)
		dvb_dmxdev_release(&ctx->dmxdev);
	if (ctx->demux_ok)
		dvb_dmx_release(&ctx->demux);
}

/* ---- TS from user space ------------------------------------------------ */

static void vtunerc_ts_lost_sync(struct vtunerc_ctx *ctx)
{
	if (ctx->in_sync)
		ctx->wcnt.sync_errors++;
	ctx->in_sync = false;
}

/*
 * Make the write path's counters (wcnt, under write_lock) readable under
 * ctx->lock, by readers that must not wait for a write to end.  Caller
 * holds write_lock.
 */
void vtunerc_ts_publish(struct vtunerc_ctx *ctx)
{
	spin_lock(&ctx->lock);
	ctx->cnt.bytes = ctx->wcnt.bytes;
	ctx->cnt.packets = ctx->wcnt.packets;
	ctx->cnt.sync_errors = ctx->wcnt.sync_errors;
	ctx->cnt.dropped_bytes = ctx->wcnt.dropped_bytes;
	spin_unlock(&ctx->lock);
}

/*
 * Feed len bytes of TS into the demux.  Whole runs of aligned packets go
 * to dvb-core in one call; a packet split across writes is completed from
 * the next one; garbage is skipped up to the next sync byte (confirmed by
 * the one a packet later, when the buffer holds it).  Caller holds
 * write_lock.
 */
void vtunerc_ts_feed(struct vtunerc_ctx *ctx, const u8 *buf, size_t len)
{
	size_t run;

	ctx->wcnt.bytes += len;

	if (ctx->part_len) {
		size_t take = min_t(size_t, TS_SIZE - ctx->part_len, len);

		memcpy(ctx->part + ctx->part_len, buf, take);
		ctx->part_len += take;
		buf += take;
		len -= take;
		if (ctx->part_len < TS_SIZE)
			return;
		ctx->part_len = 0;
		if (len && buf[0] != TS_SYNC) {
			/* The packet was not followed by one: drop it. */
			ctx->wcnt.dropped_bytes += TS_SIZE;
			vtunerc_ts_lost_sync(ctx);
		} else {
			dvb_dmx_swfilter_packets(&ctx->demux, ctx->part, 1);
			ctx->wcnt.packets++;
		}
	}

	while (len >= TS_SIZE) {
		if (buf[0] != TS_SYNC ||
		    (!ctx->in_sync && len >= 2 * TS_SIZE &&
		     buf[TS_SIZE] != TS_SYNC)) {
			const u8 *next = memchr(buf + 1, TS_SYNC, len - 1);
			size_t skip = next ? next - buf : len;

			vtunerc_ts_lost_sync(ctx);
			ctx->wcnt.dropped_bytes += skip;
			buf += skip;
			len -= skip;
			continue;
		}
		ctx->in_sync = true;
		run = 1;
		while ((run + 1) * TS_SIZE <= len && buf[run * TS_SIZE] == TS_SYNC)
			run++;
		dvb_dmx_swfilter_packets(&ctx->demux, buf, run);
		ctx->wcnt.packets += run;
		buf += run * TS_SIZE;
		len -= run * TS_SIZE;
	}

	if (!len)
		return;
	if (buf[0] == TS_SYNC) {
		memcpy(ctx->part, buf, len);
		ctx->part_len = len;
	} else {
		const u8 *next = memchr(buf, TS_SYNC, len);
		size_t skip = next ? next - buf : len;

		vtunerc_ts_lost_sync(ctx);
		ctx->wcnt.dropped_bytes += skip;
		if (next) {
			memcpy(ctx->part, next, len - skip);
			ctx->part_len = len - skip;
		}
	}
}
