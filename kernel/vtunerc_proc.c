// SPDX-License-Identifier: GPL-2.0
/*
 * vtunerc: /proc/vtunercN, the state and counters of one adapter.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "vtunerc_priv.h"

static int vtunerc_proc_show(struct seq_file *m, void *v)
{
	struct vtunerc_ctx *ctx = m->private;
	struct vtuner_ext_counters cnt;
	struct vtuner_ext_pids *pids;
	char comm[TASK_COMM_LEN];
	bool opened, tuned;
	pid_t owner;
	u32 status, features;
	unsigned int i;

	pids = kzalloc(sizeof(*pids), GFP_KERNEL);
	if (!pids)
		return -ENOMEM;

	/* Never waits for write_lock, held for a whole write(). */
	spin_lock(&ctx->lock);
	cnt = ctx->cnt;
	opened = ctx->opened;
	owner = ctx->owner_pid;
	memcpy(comm, ctx->owner_comm, sizeof(comm));
	features = ctx->features;
	status = ctx->status.status;
	tuned = ctx->tuned;
	vtunerc_pids_to_ext(ctx, pids);
	spin_unlock(&ctx->lock);

	seq_printf(m, "adapter: %d\n", ctx->adapter.num);
	seq_printf(m, "name: %s\n", ctx->fe.ops.info.name);
	seq_puts(m, "delsys:");
	for (i = 0; i < MAX_DELSYS && ctx->fe.ops.delsys[i]; i++)
		seq_printf(m, " %u", ctx->fe.ops.delsys[i]);
	seq_putc(m, '\n');
	if (opened)
		seq_printf(m, "owner: %d %s\n", owner, comm);
	else
		seq_puts(m, "owner: none\n");
	seq_printf(m, "features: 0x%x\n", features);
	seq_printf(m, "tuned: %s\n", tuned ? "yes" : "no");
	seq_printf(m, "status: 0x%x\n", status);
	seq_printf(m, "sessions: %llu\n", cnt.sessions);
	seq_printf(m, "bytes: %llu\n", cnt.bytes);
	seq_printf(m, "packets: %llu\n", cnt.packets);
	seq_printf(m, "sync_errors: %llu\n", cnt.sync_errors);
	seq_printf(m, "dropped_bytes: %llu\n", cnt.dropped_bytes);
	seq_printf(m, "timeouts: %llu\n", cnt.timeouts);
	seq_printf(m, "pids (%u):", pids->num);
	for (i = 0; i < pids->num; i++)
		seq_printf(m, " %u", pids->pids[i]);
	seq_putc(m, '\n');
	kfree(pids);
	return 0;
}

void vtunerc_proc_add(struct vtunerc_ctx *ctx)
{
	char name[16];

	snprintf(name, sizeof(name), "vtunerc%u", ctx->idx);
	ctx->proc = proc_create_single_data(name, 0444, NULL,
					    vtunerc_proc_show, ctx);
	if (!ctx->proc)
		pr_warn("vtunerc: cannot create /proc/%s\n", name);
}

void vtunerc_proc_remove(struct vtunerc_ctx *ctx)
{
	proc_remove(ctx->proc);
	ctx->proc = NULL;
}
