// SPDX-License-Identifier: GPL-2.0
/*
 * vtunerc: virtual DVB adapters driven from user space.
 *
 * Each adapter is an ordinary dvb-core adapter (frontend0, demux0, dvr0)
 * whose frontend calls are turned into messages on a control device,
 * /dev/vtunercN, and whose demux is fed with the TS written into that
 * device.  A user-space client (vtunerc) relays both to a remote tuner.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/platform_device.h>

#include "vtunerc_priv.h"

DVB_DEFINE_MOD_OPT_ADAPTER_NR(adapter_nr);

static unsigned int adapters = 1;
module_param(adapters, uint, 0444);
MODULE_PARM_DESC(adapters, "number of virtual adapters (1-16, default 1)");

#define VTUNERC_TIMEOUT_MIN	10
#define VTUNERC_TIMEOUT_MAX	60000

unsigned int vtunerc_timeout_ms = 2000;

/* timeout_ms, at load time and in sysfs: a value out of range is refused. */
static int vtunerc_timeout_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint(val, 0, &ms);
	if (ret)
		return ret;
	if (ms < VTUNERC_TIMEOUT_MIN || ms > VTUNERC_TIMEOUT_MAX) {
		pr_err("timeout_ms=%u is out of range (%u-%u)\n", ms,
		       VTUNERC_TIMEOUT_MIN, VTUNERC_TIMEOUT_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, ms);
	return 0;
}

static const struct kernel_param_ops vtunerc_timeout_ops = {
	.set = vtunerc_timeout_set,
	.get = param_get_uint,
};

module_param_cb(timeout_ms, &vtunerc_timeout_ops, &vtunerc_timeout_ms, 0644);
__MODULE_PARM_TYPE(timeout_ms, "uint");
MODULE_PARM_DESC(timeout_ms,
		 "longest wait for the control-device owner, in ms (10-60000, default 2000)");

static struct vtunerc_ctx *ctxs[VTUNERC_MAX_ADAPTERS];

static void vtunerc_ctx_free(struct vtunerc_ctx *ctx)
{
	if (ctx->fe_ok) {
		dvb_unregister_frontend(&ctx->fe);
		dvb_frontend_detach(&ctx->fe);
	}
	vtunerc_demux_release(ctx);
	if (ctx->adapter_ok)
		dvb_unregister_adapter(&ctx->adapter);
	if (!IS_ERR_OR_NULL(ctx->pdev))
		platform_device_unregister(ctx->pdev);
	kvfree(ctx->wbuf);
	kfree(ctx);
}

static int vtunerc_ctx_create(unsigned int idx, struct vtunerc_ctx **out)
{
	struct vtunerc_ctx *ctx;
	int ret;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->idx = idx;
	mutex_init(&ctx->cfg_lock);
	mutex_init(&ctx->dmx_lock);
	mutex_init(&ctx->write_lock);
	spin_lock_init(&ctx->lock);
	init_waitqueue_head(&ctx->msg_wq);
	init_waitqueue_head(&ctx->xchg_wq);

	ctx->wbuf = kvmalloc(VTUNERC_WCHUNK, GFP_KERNEL);
	if (!ctx->wbuf) {
		ret = -ENOMEM;
		goto err;
	}

	/* A parent device, which DVB tools expect to find in sysfs. */
	ctx->pdev = platform_device_register_simple("vtunerc", idx, NULL, 0);
	if (IS_ERR(ctx->pdev)) {
		ret = PTR_ERR(ctx->pdev);
		goto err;
	}

	ret = dvb_register_adapter(&ctx->adapter, "vTuner", THIS_MODULE,
				   &ctx->pdev->dev, adapter_nr);
	if (ret < 0)
		goto err;
	ctx->adapter_ok = true;
	ctx->adapter.priv = ctx;

	ret = vtunerc_demux_init(ctx);
	if (ret < 0)
		goto err;

	vtunerc_fe_init(ctx);
	ret = dvb_register_frontend(&ctx->adapter, &ctx->fe);
	if (ret < 0)
		goto err;
	ctx->fe_ok = true;

	*out = ctx;
	return 0;
err:
	vtunerc_ctx_free(ctx);
	return ret;
}

static void vtunerc_destroy_all(void)
{
	unsigned int i;

	for (i = 0; i < VTUNERC_MAX_ADAPTERS; i++) {
		if (!ctxs[i])
			continue;
		vtunerc_proc_remove(ctxs[i]);
		vtunerc_ctx_free(ctxs[i]);
		ctxs[i] = NULL;
	}
}

static int __init vtunerc_init(void)
{
	unsigned int i;
	int ret;

	if (adapters < 1 || adapters > VTUNERC_MAX_ADAPTERS) {
		pr_err("adapters=%u is out of range (1-%d)\n", adapters,
		       VTUNERC_MAX_ADAPTERS);
		return -EINVAL;
	}

	for (i = 0; i < adapters; i++) {
		ret = vtunerc_ctx_create(i, &ctxs[i]);
		if (ret < 0) {
			pr_err("cannot create adapter %u: %d\n", i, ret);
			goto err;
		}
	}

	ret = vtunerc_ctrldev_register(ctxs, adapters);
	if (ret < 0)
		goto err;

	for (i = 0; i < adapters; i++)
		vtunerc_proc_add(ctxs[i]);

	pr_info("%u virtual adapter(s) ready, reply timeout %u ms\n",
		adapters, vtunerc_timeout_ms);
	return 0;
err:
	vtunerc_destroy_all();
	vtunerc_demux_exit();
	return ret;
}

static void __exit vtunerc_exit(void)
{
	vtunerc_ctrldev_unregister(ctxs, adapters);
	vtunerc_destroy_all();
	vtunerc_demux_exit();
	pr_info("unloaded\n");
}

module_init(vtunerc_init);
module_exit(vtunerc_exit);

MODULE_DESCRIPTION("Virtual DVB adapters driven from user space (vtuner)");
MODULE_AUTHOR("The vtuner developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(VTUNERC_VERSION);
