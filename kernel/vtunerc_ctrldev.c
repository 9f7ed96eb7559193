// SPDX-License-Identifier: GPL-2.0
/*
 * vtunerc: the control devices, /dev/vtunercN.
 *
 * One process owns a control device at a time.  It reads the frontend's
 * requests with VTUNER_GET_MESSAGE, answers them with VTUNER_SET_RESPONSE
 * and writes the TS.  Only one request is in flight per adapter; every
 * wait for the owner is bounded by timeout_ms, and closing the device
 * ends every exchange at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/fs.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include <linux/compat.h>
#include <linux/slab.h>
#include <linux/sched/signal.h>

#include "vtunerc_priv.h"
#include "vtunerc_compat.h"

static dev_t vtunerc_devt;
static struct cdev vtunerc_cdev;
static struct vtunerc_ctx **vtunerc_ctxs;
static unsigned int vtunerc_nctx;

static char *vtunerc_devnode(VTUNERC_DEVNODE_CONST struct device *dev,
			     umode_t *mode)
{
	/* Group access only; the udev rule sets the group. */
	if (mode)
		*mode = 0660;
	return NULL;
}

static struct class vtunerc_class = {
	.name = "vtunerc",
	.devnode = vtunerc_devnode,
};

bool vtunerc_has_feature(struct vtunerc_ctx *ctx, u32 feature)
{
	return READ_ONCE(ctx->features) & feature;
}

/* ---- exchanges with the owner --------------------------------------- */

/* Claim the free slot for msg; true once claimed or when the session ends. */
static bool vtunerc_slot_claim(struct vtunerc_ctx *ctx, u32 session,
			       const struct vtuner_message *msg, bool reply,
			       int *err)
{
	bool done = true;

	spin_lock(&ctx->lock);
	if (!ctx->opened || ctx->session != session) {
		*err = -ENOTCONN;
	} else if (ctx->slot == VTUNERC_SLOT_FREE) {
		ctx->req = *msg;
		ctx->slot = VTUNERC_SLOT_QUEUED;
		ctx->slot_reply = reply;
		*err = 0;
	} else {
		done = false;
	}
	spin_unlock(&ctx->lock);
	return done;
}

/* Take the reply; true once taken or when the session ends. */
static bool vtunerc_reply_take(struct vtunerc_ctx *ctx, u32 session,
			       struct vtuner_message *msg, int *err)
{
	bool done = true;

	spin_lock(&ctx->lock);
	if (!ctx->opened || ctx->session != session) {
		*err = -ENOTCONN;
	} else if (ctx->slot == VTUNERC_SLOT_DONE) {
		*msg = ctx->resp;
		ctx->slot = VTUNERC_SLOT_FREE;
		*err = 0;
	} else {
		done = false;
	}
	spin_unlock(&ctx->lock);
	return done;
}

static long vtunerc_left(unsigned long deadline)
{
	return time_before(jiffies, deadline) ? deadline - jiffies : 0;
}

/*
 * Send msg to the owner and, if reply, wait for the answer, which
 * replaces msg.  Returns 0, -ENOTCONN (no owner, or it closed the device),
 * -ETIMEDOUT (no answer within timeout_ms) or -EINTR (signal).
 */
int vtunerc_xchg(struct vtunerc_ctx *ctx, struct vtuner_message *msg,
		 bool reply)
{
	unsigned long deadline =
		jiffies + msecs_to_jiffies(READ_ONCE(vtunerc_timeout_ms));
	int err = -ETIMEDOUT;
	u32 session;
	long left;

	spin_lock(&ctx->lock);
	if (!ctx->opened) {
		spin_unlock(&ctx->lock);
		return -ENOTCONN;
	}
	session = ctx->session;
	spin_unlock(&ctx->lock);

	left = wait_event_interruptible_timeout(ctx->xchg_wq,
						vtunerc_slot_claim(ctx, session,
								   msg, reply,
								   &err),
						vtunerc_left(deadline));
	if (left <= 0 && err) {
		spin_lock(&ctx->lock);
		ctx->cnt.timeouts += left == 0;
		spin_unlock(&ctx->lock);
		return left < 0 ? -EINTR : -ETIMEDOUT;
	}
	if (err)
		return err;
	wake_up_interruptible(&ctx->msg_wq);
	if (!reply)
		return 0;

	err = -ETIMEDOUT;
	left = wait_event_interruptible_timeout(ctx->xchg_wq,
						vtunerc_reply_take(ctx, session,
								   msg, &err),
						vtunerc_left(deadline));
	if (left <= 0 && err) {
		/* Withdraw the request: the slot is ours until freed. */
		spin_lock(&ctx->lock);
		if (ctx->session == session)
			ctx->slot = VTUNERC_SLOT_FREE;
		ctx->cnt.timeouts += left == 0;
		spin_unlock(&ctx->lock);
		err = left < 0 ? -EINTR : -ETIMEDOUT;
	}
	wake_up(&ctx->xchg_wq);
	return err;
}

/* The next message for the owner, if one waits. */
static bool vtunerc_next_message(struct vtunerc_ctx *ctx,
				 struct vtuner_message *out, bool *freed)
{
	bool took = true;

	*freed = false;
	spin_lock(&ctx->lock);
	if (ctx->slot == VTUNERC_SLOT_QUEUED) {
		*out = ctx->req;
		if (ctx->slot_reply) {
			ctx->slot = VTUNERC_SLOT_SENT;
		} else {
			ctx->slot = VTUNERC_SLOT_FREE;
			*freed = true;
		}
	} else if (ctx->pids_pending) {
		memset(out, 0, sizeof(*out));
		out->type = MSG_PIDLIST;
		vtunerc_pids_to_classic(ctx, out->body.pidlist);
		ctx->pids_pending = false;
	} else {
		took = false;
	}
	spin_unlock(&ctx->lock);
	return took;
}

static bool vtunerc_message_waits(struct vtunerc_ctx *ctx)
{
	return READ_ONCE(ctx->slot) == VTUNERC_SLOT_QUEUED ||
	       READ_ONCE(ctx->pids_pending);
}

static int vtunerc_get_message(struct vtunerc_ctx *ctx, struct file *file,
			       void __user *argp, size_t len)
{
	struct vtuner_message msg;
	bool freed;
	int ret;

	if (file->f_flags & O_NONBLOCK) {
		if (!vtunerc_next_message(ctx, &msg, &freed))
			return -EAGAIN;
	} else {
		ret = wait_event_interruptible(ctx->msg_wq,
					       vtunerc_next_message(ctx, &msg,
								    &freed));
		if (ret)
			return ret;
	}
	if (freed)
		wake_up(&ctx->xchg_wq);

	if (copy_to_user(argp, &msg, len)) {
		/* Give a request back, so that it times out or is re-read. */
		spin_lock(&ctx->lock);
		if (msg.type == MSG_PIDLIST)
			ctx->pids_pending = true;
		else if (ctx->slot == VTUNERC_SLOT_SENT)
			ctx->slot = VTUNERC_SLOT_QUEUED;
		spin_unlock(&ctx->lock);
		return -EFAULT;
	}
	return 0;
}

static int vtunerc_set_response(struct vtunerc_ctx *ctx, void __user *argp,
				size_t len)
{
	struct vtuner_message msg;
	int ret = 0;

	memset(&msg, 0, sizeof(msg));
	if (copy_from_user(&msg, argp, len))
		return -EFAULT;

	spin_lock(&ctx->lock);
	if (ctx->slot == VTUNERC_SLOT_SENT) {
		ctx->resp = msg;
		ctx->slot = VTUNERC_SLOT_DONE;
	} else {
		/* Nothing awaits an answer: it came too late. */
		ret = -ENOMSG;
	}
	spin_unlock(&ctx->lock);

	if (!ret)
		wake_up(&ctx->xchg_wq);
	return ret;
}

/* ---- configuration ------------------------------------------------------ */

/* Copy a NUL-terminated string of at most size - 1 characters. */
static int vtunerc_get_string(char *buf, const void __user *argp, size_t size)
{
	long n = strncpy_from_user(buf, argp, size);

	if (n < 0)
		return n;
	if (n == size)
		return -ENAMETOOLONG;
	return 0;
}

static int vtunerc_set_modes(struct vtunerc_ctx *ctx, const void __user *argp)
{
	char (*modes)[VTUNER_TYPE_LEN];
	unsigned int i, n = READ_ONCE(ctx->num_modes);
	int ret = 0;

	if (n < 1 || n > VTUNER_MAX_MODES)
		return -EINVAL;
	modes = memdup_user(argp, n * VTUNER_TYPE_LEN);
	if (IS_ERR(modes))
		return PTR_ERR(modes);
	for (i = 0; i < n; i++) {
		if (!memchr(modes[i], 0, VTUNER_TYPE_LEN)) {
			ret = -EINVAL;
			break;
		}
	}
	if (!ret)
		ret = vtunerc_fe_set_modes(ctx, modes, n);
	kfree(modes);
	return ret;
}

static int vtunerc_ext_hello(struct vtunerc_ctx *ctx, void __user *argp)
{
	struct vtuner_ext_hello h;
	unsigned int i;

	if (copy_from_user(&h, argp, sizeof(h)))
		return -EFAULT;
	if (h.version < 1)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(h.reserved); i++)
		if (h.reserved[i])
			return -EINVAL;

	h.version = VTUNER_ABI_VERSION;
	h.features &= VTUNER_FEAT_ALL;
	h.max_props = VTUNER_EXT_MAX_PROPS;
	h.max_pids = VTUNER_EXT_MAX_PIDS;
	WRITE_ONCE(ctx->features, h.features);
	return copy_to_user(argp, &h, sizeof(h)) ? -EFAULT : 0;
}

static bool vtunerc_stats_valid(const struct dtv_fe_stats *s)
{
	unsigned int i;

	if (s->len > MAX_DTV_STATS)
		return false;
	for (i = 0; i < s->len; i++)
		if (s->stat[i].scale > FE_SCALE_COUNTER)
			return false;
	return true;
}

static int vtunerc_ext_set_status(struct vtunerc_ctx *ctx, void __user *argp)
{
	struct vtuner_ext_status st;
	int ret = 0;

	if (!vtunerc_has_feature(ctx, VTUNER_FEAT_STATUS))
		return -EPERM;
	if (copy_from_user(&st, argp, sizeof(st)))
		return -EFAULT;
	if (!vtunerc_stats_valid(&st.strength) ||
	    !vtunerc_stats_valid(&st.cnr) ||
	    !vtunerc_stats_valid(&st.pre_bit_error) ||
	    !vtunerc_stats_valid(&st.pre_bit_count) ||
	    !vtunerc_stats_valid(&st.post_bit_error) ||
	    !vtunerc_stats_valid(&st.post_bit_count) ||
	    !vtunerc_stats_valid(&st.block_error) ||
	    !vtunerc_stats_valid(&st.block_count))
		return -EINVAL;

	spin_lock(&ctx->lock);
	/* A status of an earlier tune must not describe the current one. */
	if (st.tune_seq && st.tune_seq != ctx->tune.seq)
		ret = -ESTALE;
	else
		ctx->status = st;
	spin_unlock(&ctx->lock);
	return ret;
}

static int vtunerc_ext_get_tune(struct vtunerc_ctx *ctx, void __user *argp)
{
	struct vtuner_ext_tune *t;
	int ret;

	t = kmalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	spin_lock(&ctx->lock);
	*t = ctx->tune;
	spin_unlock(&ctx->lock);
	ret = copy_to_user(argp, t, sizeof(*t)) ? -EFAULT : 0;
	kfree(t);
	return ret;
}

static int vtunerc_ext_get_pids(struct vtunerc_ctx *ctx, void __user *argp)
{
	struct vtuner_ext_pids *p;
	int ret;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	spin_lock(&ctx->lock);
	vtunerc_pids_to_ext(ctx, p);
	spin_unlock(&ctx->lock);
	ret = copy_to_user(argp, p, sizeof(*p)) ? -EFAULT : 0;
	kfree(p);
	return ret;
}

static int vtunerc_ext_set_delsys(struct vtunerc_ctx *ctx, void __user *argp)
{
	struct vtuner_ext_delsys d;

	if (copy_from_user(&d, argp, sizeof(d)))
		return -EFAULT;
	if (d.reserved || d.num < 1 || d.num > VTUNER_EXT_MAX_DELSYS)
		return -EINVAL;
	return vtunerc_fe_set_delsys(ctx, d.delsys, d.num);
}

static int vtunerc_ext_get_counters(struct vtunerc_ctx *ctx, void __user *argp)
{
	struct vtuner_ext_counters c;

	/* Never waits for write_lock, held for a whole write(). */
	spin_lock(&ctx->lock);
	c = ctx->cnt;
	spin_unlock(&ctx->lock);
	return copy_to_user(argp, &c, sizeof(c)) ? -EFAULT : 0;
}

/*
 * cmd is the native number; msg_len the size of struct vtuner_message in
 * the caller's ABI.
 */
static long vtunerc_do_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg, void __user *argp,
			     size_t msg_len)
{
	struct vtunerc_ctx *ctx = file->private_data;
	char *str;
	long ret;

	switch (cmd) {
	case VTUNER_GET_MESSAGE:
		return vtunerc_get_message(ctx, file, argp, msg_len);
	case VTUNER_SET_RESPONSE:
		return vtunerc_set_response(ctx, argp, msg_len);
	case VTUNER_SET_NAME:
		str = kmalloc(VTUNER_NAME_LEN, GFP_KERNEL);
		if (!str)
			return -ENOMEM;
		ret = vtunerc_get_string(str, argp, VTUNER_NAME_LEN);
		if (!ret) {
			mutex_lock(&ctx->cfg_lock);
			vtunerc_fe_set_name(ctx, str);
			mutex_unlock(&ctx->cfg_lock);
		}
		kfree(str);
		return ret;
	case VTUNER_SET_TYPE: {
		char type[VTUNER_TYPE_LEN];

		ret = vtunerc_get_string(type, argp, sizeof(type));
		return ret ? ret : vtunerc_fe_set_type(ctx, type);
	}
	case VTUNER_SET_HAS_OUTPUTS: {
		/* Accepted for compatibility; the adapter has no outputs. */
		char val[VTUNER_TYPE_LEN];

		return vtunerc_get_string(val, argp, sizeof(val));
	}
	case VTUNER_SET_FE_INFO: {
		struct dvb_frontend_info info;

		if (copy_from_user(&info, argp, sizeof(info)))
			return -EFAULT;
		if (info.frequency_min > info.frequency_max ||
		    info.symbol_rate_min > info.symbol_rate_max)
			return -EINVAL;
		info.name[sizeof(info.name) - 1] = 0;
		vtunerc_fe_set_info(ctx, &info);
		return 0;
	}
	case VTUNER_SET_NUM_MODES:
		if (arg < 1 || arg > VTUNER_MAX_MODES)
			return -EINVAL;
		WRITE_ONCE(ctx->num_modes, arg);
		return 0;
	case VTUNER_SET_MODES:
		return vtunerc_set_modes(ctx, argp);
	case VTUNER_EXT_HELLO:
		return vtunerc_ext_hello(ctx, argp);
	case VTUNER_EXT_GET_TUNE:
		return vtunerc_ext_get_tune(ctx, argp);
	case VTUNER_EXT_SET_STATUS:
		return vtunerc_ext_set_status(ctx, argp);
	case VTUNER_EXT_SET_DELSYS:
		return vtunerc_ext_set_delsys(ctx, argp);
	case VTUNER_EXT_GET_PIDS:
		return vtunerc_ext_get_pids(ctx, argp);
	case VTUNER_EXT_GET_COUNTERS:
		return vtunerc_ext_get_counters(ctx, argp);
	default:
		return -ENOTTY;
	}
}

static long vtunerc_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	return vtunerc_do_ioctl(file, cmd, arg, (void __user *)arg,
				VTUNER_MSG_LEN);
}

#ifdef CONFIG_COMPAT
/*
 * The classic numbers encode sizeof(char *), which is 4 for a 32-bit
 * client: map them to the native ones.  The extension structures have
 * the same layout in both ABIs.
 */
static long vtunerc_compat_ioctl(struct file *file, unsigned int cmd,
				 unsigned long arg)
{
	unsigned int nr = _IOC_NR(cmd);

	if (_IOC_TYPE(cmd) == VTUNER_MAJOR && nr >= 1 && nr <= 8 &&
	    nr != _IOC_NR(VTUNER_SET_NUM_MODES) && _IOC_SIZE(cmd) == 4)
		cmd = _IOC(_IOC_DIR(cmd), VTUNER_MAJOR, nr, sizeof(void *));
	if (cmd == VTUNER_SET_NUM_MODES)
		return vtunerc_do_ioctl(file, cmd, arg, NULL, 0);
	return vtunerc_do_ioctl(file, cmd, arg, compat_ptr(arg),
				VTUNER_MSG_LEN_32);
}
#endif

/* ---- open, close, poll, write ------------------------------------------ */

static int vtunerc_open(struct inode *inode, struct file *file)
{
	unsigned int minor = iminor(inode);
	struct vtunerc_ctx *ctx;
	char comm[TASK_COMM_LEN];

	if (minor >= vtunerc_nctx)
		return -ENODEV;
	ctx = vtunerc_ctxs[minor];
	get_task_comm(comm, current);

	spin_lock(&ctx->lock);
	if (ctx->opened) {
		spin_unlock(&ctx->lock);
		return -EBUSY;
	}
	ctx->opened = true;
	ctx->session++;
	ctx->features = 0;
	ctx->slot = VTUNERC_SLOT_FREE;
	memset(&ctx->status, 0, sizeof(ctx->status));
	ctx->owner_pid = task_tgid_nr(current);
	memcpy(ctx->owner_comm, comm, sizeof(comm));
	/* A new owner learns the PIDs applications already hold. */
	ctx->pids_pending = ctx->npids > 0;
	ctx->cnt.sessions++;
	spin_unlock(&ctx->lock);

	mutex_lock(&ctx->write_lock);
	ctx->part_len = 0;
	ctx->in_sync = true;
	mutex_unlock(&ctx->write_lock);

	file->private_data = ctx;
	return stream_open(inode, file);
}

static int vtunerc_release(struct inode *inode, struct file *file)
{
	struct vtunerc_ctx *ctx = file->private_data;

	spin_lock(&ctx->lock);
	ctx->opened = false;
	ctx->session++;
	ctx->features = 0;
	ctx->slot = VTUNERC_SLOT_FREE;
	ctx->pids_pending = false;
	memset(&ctx->status, 0, sizeof(ctx->status));
	ctx->owner_pid = 0;
	spin_unlock(&ctx->lock);

	/* Every exchange of this session ends now. */
	wake_up_all(&ctx->xchg_wq);
	wake_up_all(&ctx->msg_wq);
	return 0;
}

static __poll_t vtunerc_poll(struct file *file, poll_table *wait)
{
	struct vtunerc_ctx *ctx = file->private_data;
	__poll_t mask = EPOLLOUT | EPOLLWRNORM;

	poll_wait(file, &ctx->msg_wq, wait);
	if (vtunerc_message_waits(ctx))
		mask |= EPOLLPRI | EPOLLIN | EPOLLRDNORM;
	return mask;
}

static ssize_t vtunerc_write(struct file *file, const char __user *buf,
			     size_t len, loff_t *ppos)
{
	struct vtunerc_ctx *ctx = file->private_data;
	size_t done = 0;

	if (mutex_lock_interruptible(&ctx->write_lock))
		return -ERESTARTSYS;
	while (done < len) {
		size_t n = min_t(size_t, len - done, VTUNERC_WCHUNK);

		if (copy_from_user(ctx->wbuf, buf + done, n)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		vtunerc_ts_feed(ctx, ctx->wbuf, n);
		vtunerc_ts_publish(ctx);
		done += n;
		if (done < len && fatal_signal_pending(current))
			break;
		cond_resched();
	}
	mutex_unlock(&ctx->write_lock);
	return done;
}

static const struct file_operations vtunerc_fops = {
	.owner = THIS_MODULE,
	.open = vtunerc_open,
	.release = vtunerc_release,
	.unlocked_ioctl = vtunerc_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl = vtunerc_compat_ioctl,
#endif
	.poll = vtunerc_poll,
	.write = vtunerc_write,
};

int vtunerc_ctrldev_register(struct vtunerc_ctx **ctxs, unsigned int n)
{
	unsigned int i;
	int ret;

	ret = alloc_chrdev_region(&vtunerc_devt, 0, n, "vtunerc");
	if (ret < 0)
		return ret;
	vtunerc_ctxs = ctxs;
	vtunerc_nctx = n;

	ret = class_register(&vtunerc_class);
	if (ret < 0)
		goto err_region;

	cdev_init(&vtunerc_cdev, &vtunerc_fops);
	vtunerc_cdev.owner = THIS_MODULE;
	ret = cdev_add(&vtunerc_cdev, vtunerc_devt, n);
	if (ret < 0)
		goto err_class;

	for (i = 0; i < n; i++) {
		struct device *dev;

		dev = device_create(&vtunerc_class, NULL,
				    MKDEV(MAJOR(vtunerc_devt), i), ctxs[i],
				    "vtunerc%u", i);
		if (IS_ERR(dev)) {
			ret = PTR_ERR(dev);
			goto err_dev;
		}
		ctxs[i]->ctrl_dev = dev;
	}
	return 0;

err_dev:
	while (i--)
		device_destroy(&vtunerc_class, MKDEV(MAJOR(vtunerc_devt), i));
	cdev_del(&vtunerc_cdev);
err_class:
	class_unregister(&vtunerc_class);
err_region:
	unregister_chrdev_region(vtunerc_devt, n);
	vtunerc_nctx = 0;
	return ret;
}

void vtunerc_ctrldev_unregister(struct vtunerc_ctx **ctxs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		device_destroy(&vtunerc_class, MKDEV(MAJOR(vtunerc_devt), i));
	cdev_del(&vtunerc_cdev);
	class_unregister(&vtunerc_class);
	unregister_chrdev_region(vtunerc_devt, n);
}
