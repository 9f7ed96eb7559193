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
#include <linux/compat.h>

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
 * The demux device: dvb-core's, with the requests that set a filter or
 * change its PIDs carried out here.
 *
 * dvb-core's dmxdev.c (6.1 and 6.12) releases a feed that fails to start
 * (no feed or demux filter free, a PID out of range, a decoder PES type
 * such as DMX_PES_VIDEO0 held by another feed, a signal) but leaves the
 * filter's pointer to it; on 6.1 a failed DMX_ADD_PID even leaves the
 * released feed on a running filter, and a failed DMX_START leaves the
 * feeds started before the failing one running, unowned.  Once the feed
 * is another filter's, a DMX_REMOVE_PID, DMX_STOP or close stops it; once
 * it is a section feed, they call through the section's bytes.  dvb-core
 * also reads the argument of each request from user memory itself, so a
 * check made here on a first read proves nothing about what it uses, and
 * DMX_SET_FILTER on a filter holding PES feeds loses their list (the
 * feeds leak).
 *
 * So the argument of DMX_SET_FILTER, DMX_SET_PES_FILTER and DMX_ADD_PID
 * is copied once, here, checked, and the filter is changed here exactly
 * as dvb_dmxdev_filter_set(), dvb_dmxdev_pes_filter_set() and
 * dvb_dmxdev_add_pid() change it, except that DMX_SET_FILTER frees the
 * feeds of a PES filter.  Feeds are started and stopped by dvb-core through
 * DMX_START and DMX_STOP, which take no argument, and only when every one
 * of them can start: a free feed and demux filter for each, a PID up to
 * 0x2000 (0x1fff for sections) and a decoder PES type no other filter
 * holds.  DMX_ADD_PID on a running filter starts the one new feed here,
 * as its sibling feeds were started; a filter with a decoder PES type
 * takes no second PID.  Every request that changes a filter or allocates
 * feeds runs under ctx->dmx_lock (a close only frees them), so the check
 * still holds when dvb-core acts; and should a start fail all the same,
 * the feeds it left are released and their pointers cleared before the
 * lock is dropped.
 */
typedef long (*vtunerc_ioctl_fn)(struct file *, unsigned int, unsigned long);

static const struct file_operations *vtunerc_dmx_fops;
static vtunerc_ioctl_fn vtunerc_dmx_ioctl_orig, vtunerc_dmx_compat_orig;

static int vtunerc_filter_lock(struct dmxdev_filter *filter)
{
	if (mutex_lock_interruptible(&filter->dev->mutex))
		return -ERESTARTSYS;
	if (mutex_lock_interruptible(&filter->mutex)) {
		mutex_unlock(&filter->dev->mutex);
		return -ERESTARTSYS;
	}
	return 0;
}

static void vtunerc_filter_unlock(struct dmxdev_filter *filter)
{
	mutex_unlock(&filter->mutex);
	mutex_unlock(&filter->dev->mutex);
}

static void vtunerc_filter_state_set(struct dmxdev_filter *filter,
				     enum dmxdev_state state)
{
	spin_lock_irq(&filter->dev->lock);
	filter->state = state;
	spin_unlock_irq(&filter->dev->lock);
}

/*
 * dvb_dmxdev_filter_reset() of a stopped filter: its PES feeds (which
 * hold no demux feed once stopped) are freed.  Filter locks held.
 */
static void vtunerc_filter_reset(struct dmxdev_filter *filter)
{
	struct dmxdev_feed *feed, *tmp;

	if (filter->state < DMXDEV_STATE_SET)
		return;
	if (filter->type == DMXDEV_TYPE_PES) {
		list_for_each_entry_safe(feed, tmp, &filter->feed.ts, next) {
			list_del(&feed->next);
			kfree(feed);
		}
	}
	filter->type = DMXDEV_TYPE_NONE;
	vtunerc_filter_state_set(filter, DMXDEV_STATE_ALLOCATED);
}

/* Free demux feeds and demux filters (each TS feed needs one of both). */
static void vtunerc_demux_free(struct vtunerc_ctx *ctx, int *feeds,
			       int *filters)
{
	struct dvb_demux *demux = &ctx->demux;
	int i;

	*feeds = 0;
	*filters = 0;
	mutex_lock(&demux->mutex);
	for (i = 0; i < demux->feednum; i++)
		*feeds += demux->feed[i].state == DMX_STATE_FREE;
	for (i = 0; i < demux->filternum; i++)
		*filters += demux->filter[i].state == DMX_STATE_FREE;
	mutex_unlock(&demux->mutex);
}

/* Whether a running section filter of dmxdev has a feed on pid. */
static bool vtunerc_section_feed_running(struct dmxdev *dmxdev, u16 pid)
{
	int i;

	for (i = 0; i < dmxdev->filternum; i++)
		if (dmxdev->filter[i].state >= DMXDEV_STATE_GO &&
		    dmxdev->filter[i].type == DMXDEV_TYPE_SEC &&
		    dmxdev->filter[i].params.sec.pid == pid)
			return true;
	return false;
}

/*
 * Whether dvb_dmxdev_filter_start() can start every feed of a stopped
 * filter.  A running one is restarted with the feeds it holds.  Caller
 * holds ctx->dmx_lock and the filter locks.
 */
static int vtunerc_filter_start_check(struct vtunerc_ctx *ctx,
				      struct dmxdev_filter *filter)
{
	struct dmx_pes_filter_params *pes = &filter->params.pes;
	struct dmxdev_feed *feed;
	int feeds, filters, n = 0;

	if (filter->state < DMXDEV_STATE_SET ||
	    filter->state >= DMXDEV_STATE_GO)
		return 0;	/* dvb-core refuses it, or restarts */
	vtunerc_demux_free(ctx, &feeds, &filters);
	switch (filter->type) {
	case DMXDEV_TYPE_SEC:
		if (filter->params.sec.pid > 0x1fff)
			return -EINVAL;
		if (filters < 1 ||
		    (feeds < 1 &&
		     !vtunerc_section_feed_running(filter->dev,
						   filter->params.sec.pid)))
			return -EBUSY;
		return 0;
	case DMXDEV_TYPE_PES:
		list_for_each_entry(feed, &filter->feed.ts, next) {
			if (feed->pid > VTUNER_PID_FULL_TS)
				return -EINVAL;
			n++;
		}
		if (feeds < n || filters < n)
			return -EBUSY;
		/* dmx_ts_feed_set() refuses a decoder type held elsewhere */
		if (pes->pes_type < DMX_PES_OTHER && n &&
		    READ_ONCE(ctx->demux.pesfilter[pes->pes_type]))
			return -EINVAL;
		return 0;
	default:
		return 0;
	}
}

/*
 * After a failed DMX_START: release what dvb-core left of the feeds of a
 * stopped PES filter and clear their pointers, which it leaves to feeds
 * it has released.  Under ctx->dmx_lock no feed has been allocated since,
 * so a feed that is not free is still this filter's.  Filter locks held.
 */
static void vtunerc_filter_pes_repair(struct dmxdev_filter *filter)
{
	struct dmx_demux *demux = filter->dev->demux;
	struct dvb_demux_feed *dfeed;
	struct dmxdev_feed *feed;

	if (filter->type != DMXDEV_TYPE_PES ||
	    filter->state >= DMXDEV_STATE_GO)
		return;
	list_for_each_entry(feed, &filter->feed.ts, next) {
		if (!feed->ts)
			continue;
		dfeed = container_of(feed->ts, struct dvb_demux_feed, feed.ts);
		if (dfeed->state == DMX_STATE_GO)
			feed->ts->stop_filtering(feed->ts);
		if (dfeed->state != DMX_STATE_FREE)
			demux->release_ts_feed(demux, feed->ts);
		feed->ts = NULL;
	}
}

/* DMX_START.  Caller holds ctx->dmx_lock. */
static long vtunerc_dmx_start(struct vtunerc_ctx *ctx, struct file *file,
			      struct dmxdev_filter *filter)
{
	long ret;

	ret = vtunerc_filter_lock(filter);
	if (ret)
		return ret;
	ret = vtunerc_filter_start_check(ctx, filter);
	vtunerc_filter_unlock(filter);
	if (ret)
		return ret;

	ret = vtunerc_dmx_ioctl_orig(file, DMX_START, 0);
	if (ret < 0) {
		mutex_lock(&filter->dev->mutex);
		mutex_lock(&filter->mutex);
		vtunerc_filter_pes_repair(filter);
		vtunerc_filter_unlock(filter);
	}
	return ret;
}

/* DMX_SET_FILTER, as dvb_dmxdev_filter_set().  Holds ctx->dmx_lock. */
static long vtunerc_dmx_set_filter(struct vtunerc_ctx *ctx, struct file *file,
				   struct dmxdev_filter *filter,
				   const struct dmx_sct_filter_params *params)
{
	long ret;
	int i;

	/* dmx_section_feed_set() would fail at the start */
	if (params->pid > 0x1fff)
		return -EINVAL;

	ret = vtunerc_dmx_ioctl_orig(file, DMX_STOP, 0);
	if (ret)
		return ret;
	ret = vtunerc_filter_lock(filter);
	if (ret)
		return ret;
	vtunerc_filter_reset(filter);
	filter->type = DMXDEV_TYPE_SEC;
	filter->params.sec = *params;
	for (i = 0; i < DMX_FILTER_SIZE; i++)
		filter->params.sec.filter.mode[i] ^= 0xff;
	vtunerc_filter_state_set(filter, DMXDEV_STATE_SET);
	vtunerc_filter_unlock(filter);

	if (params->flags & DMX_IMMEDIATE_START)
		return vtunerc_dmx_start(ctx, file, filter);
	return 0;
}

/* DMX_SET_PES_FILTER, as dvb_dmxdev_pes_filter_set().  Holds dmx_lock. */
static long vtunerc_dmx_set_pes_filter(struct vtunerc_ctx *ctx,
				       struct file *file,
				       struct dmxdev_filter *filter,
				       const struct dmx_pes_filter_params *params)
{
	struct dmxdev_feed *feed;
	long ret;

	if (params->pid > VTUNER_PID_FULL_TS ||
	    (unsigned int)params->pes_type > DMX_PES_OTHER)
		return -EINVAL;
	feed = kzalloc(sizeof(*feed), GFP_KERNEL);
	if (!feed)
		return -ENOMEM;

	ret = vtunerc_dmx_ioctl_orig(file, DMX_STOP, 0);
	if (!ret)
		ret = vtunerc_filter_lock(filter);
	if (ret) {
		kfree(feed);
		return ret;
	}
	vtunerc_filter_reset(filter);
	filter->type = DMXDEV_TYPE_PES;
	filter->params.pes = *params;
	INIT_LIST_HEAD(&filter->feed.ts);
	feed->pid = params->pid;
	list_add(&feed->next, &filter->feed.ts);
	vtunerc_filter_state_set(filter, DMXDEV_STATE_SET);
	vtunerc_filter_unlock(filter);

	if (params->flags & DMX_IMMEDIATE_START)
		return vtunerc_dmx_start(ctx, file, filter);
	return 0;
}

/*
 * Start feed on the running PES filter whose sibling feed is sib, as
 * dvb_dmxdev_start_feed() started sib: same callback, type and owner.
 * On failure nothing is left allocated and feed->ts stays NULL.
 */
static int vtunerc_feed_start_like(struct dmxdev_filter *filter,
				   struct dmxdev_feed *feed,
				   struct dmxdev_feed *sib)
{
	struct dmx_demux *demux = filter->dev->demux;
	struct dvb_demux_feed *model;
	struct dmx_ts_feed *ts;
	int ret;

	model = container_of(sib->ts, struct dvb_demux_feed, feed.ts);
	ret = demux->allocate_ts_feed(demux, &ts, model->cb.ts);
	if (ret < 0)
		return ret;
	ts->priv = filter;
	ret = ts->set(ts, feed->pid, model->ts_type, model->pes_type,
		      ktime_set(0, 0));
	if (!ret)
		ret = ts->start_filtering(ts);
	if (ret < 0) {
		demux->release_ts_feed(demux, ts);
		return ret;
	}
	feed->ts = ts;
	return 0;
}

/* DMX_ADD_PID, as dvb_dmxdev_add_pid().  Holds ctx->dmx_lock. */
static long vtunerc_dmx_add_pid(struct vtunerc_ctx *ctx, struct file *file,
				struct dmxdev_filter *filter, u16 pid)
{
	struct dmxdev_feed *feed;
	bool restart = false;
	int feeds, filters;
	long ret;

	if (pid > VTUNER_PID_FULL_TS)
		return -EINVAL;
	feed = kzalloc(sizeof(*feed), GFP_KERNEL);
	if (!feed)
		return -ENOMEM;
	feed->pid = pid;

	ret = vtunerc_filter_lock(filter);
	if (ret)
		goto out;
	if (filter->type != DMXDEV_TYPE_PES ||
	    filter->state < DMXDEV_STATE_SET ||
	    /* a decoder PES type is one feed of the demux's */
	    filter->params.pes.pes_type < DMX_PES_OTHER ||
	    /* only TS packet filters may have multiple PIDs */
	    (filter->params.pes.output != DMX_OUT_TSDEMUX_TAP &&
	     !list_empty(&filter->feed.ts))) {
		ret = -EINVAL;
	} else if (filter->state >= DMXDEV_STATE_GO) {
		vtunerc_demux_free(ctx, &feeds, &filters);
		if (feeds < 1 || filters < 1)
			ret = -EBUSY;
		else if (list_empty(&filter->feed.ts))
			restart = true;
		else
			ret = vtunerc_feed_start_like(filter, feed,
						      list_first_entry(&filter->feed.ts,
								       struct dmxdev_feed,
								       next));
	}
	if (!ret && !restart) {
		list_add(&feed->next, &filter->feed.ts);
		feed = NULL;
	}
	vtunerc_filter_unlock(filter);
	if (!restart)
		goto out;

	/*
	 * A running filter without a feed left: nothing to keep running,
	 * so stop it, add the PID and start it again, as DMX_START would.
	 */
	ret = vtunerc_dmx_ioctl_orig(file, DMX_STOP, 0);
	if (ret)
		goto out;
	/* stopped: no signal may keep it from being started again */
	mutex_lock(&filter->dev->mutex);
	mutex_lock(&filter->mutex);
	list_add(&feed->next, &filter->feed.ts);
	feed = NULL;
	vtunerc_filter_unlock(filter);
	ret = vtunerc_dmx_start(ctx, file, filter);
out:
	kfree(feed);
	return ret;
}

static long vtunerc_dmx_guard(struct file *file, unsigned int cmd,
			      void __user *argp, unsigned long arg,
			      vtunerc_ioctl_fn orig)
{
	/* dvb-core's demux open() stores the file's filter here. */
	struct dmxdev_filter *filter = file->private_data;
	struct vtunerc_ctx *ctx = container_of(filter->dev, struct vtunerc_ctx,
					       dmxdev);
	/* the argument, copied once, before any lock is taken */
	union {
		struct dmx_sct_filter_params sec;
		struct dmx_pes_filter_params pes;
		u16 pid;
	} a;
	long ret;

	switch (cmd) {
	case DMX_SET_FILTER:
		if (copy_from_user(&a.sec, argp, sizeof(a.sec)))
			return -EFAULT;
		break;
	case DMX_SET_PES_FILTER:
		if (copy_from_user(&a.pes, argp, sizeof(a.pes)))
			return -EFAULT;
		break;
	case DMX_ADD_PID:
		if (get_user(a.pid, (u16 __user *)argp))
			return -EFAULT;
		break;
	case DMX_REMOVE_PID:
	case DMX_START:
	case DMX_STOP:
		break;
	default:
		return orig(file, cmd, arg);
	}

	if (mutex_lock_interruptible(&ctx->dmx_lock))
		return -ERESTARTSYS;
	switch (cmd) {
	case DMX_SET_FILTER:
		ret = vtunerc_dmx_set_filter(ctx, file, filter, &a.sec);
		break;
	case DMX_SET_PES_FILTER:
		ret = vtunerc_dmx_set_pes_filter(ctx, file, filter, &a.pes);
		break;
	case DMX_ADD_PID:
		ret = vtunerc_dmx_add_pid(ctx, file, filter, a.pid);
		break;
	case DMX_START:
		ret = vtunerc_dmx_start(ctx, file, filter);
		break;
	default:
		/* DMX_REMOVE_PID's argument is read once, by dvb-core */
		ret = orig(file, cmd, arg);
		break;
	}
	mutex_unlock(&ctx->dmx_lock);
	return ret;
}

static long vtunerc_dmx_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	return vtunerc_dmx_guard(file, cmd, (void __user *)arg, arg,
				 vtunerc_dmx_ioctl_orig);
}

#ifdef CONFIG_COMPAT
/* The demux structures have the same layout for 32-bit callers. */
static long vtunerc_dmx_compat_ioctl(struct file *file, unsigned int cmd,
				     unsigned long arg)
{
	return vtunerc_dmx_guard(file, cmd, compat_ptr(arg), arg,
				 vtunerc_dmx_compat_orig);
}
#endif

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
#ifdef CONFIG_COMPAT
		if (fops->compat_ioctl)
			vtunerc_fops_set(copy,
					 offsetof(const struct file_operations,
						  compat_ioctl),
					 vtunerc_dmx_compat_ioctl);
#endif
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
