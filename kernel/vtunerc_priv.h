/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtunerc: internal definitions shared by the parts of the driver.
 */
#ifndef _VTUNERC_PRIV_H_
#define _VTUNERC_PRIV_H_

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/sched.h>
#include <media/dvbdev.h>
#include <media/dvb_frontend.h>
#include <media/dvb_demux.h>
#include <media/dmxdev.h>

#include "uapi/vtuner.h"

#define VTUNERC_MAX_ADAPTERS	16
#define VTUNERC_MAX_FEEDS	256	/* demux feeds and distinct PIDs */
#define TS_SIZE			188
#define TS_SYNC			0x47
/* TS is copied from user space in chunks of this many whole packets. */
#define VTUNERC_WCHUNK_PKTS	348
#define VTUNERC_WCHUNK		(VTUNERC_WCHUNK_PKTS * TS_SIZE)

enum vtunerc_slot {
	VTUNERC_SLOT_FREE,	/* no exchange in progress */
	VTUNERC_SLOT_QUEUED,	/* request waits for GET_MESSAGE */
	VTUNERC_SLOT_SENT,	/* request read, reply awaited */
	VTUNERC_SLOT_DONE,	/* reply stored in resp */
};

struct vtunerc_pid {
	u16 pid;
	u16 users;		/* feeds using this PID */
};

struct vtunerc_ctx {
	unsigned int idx;

	/* dvb-core objects */
	struct dvb_adapter adapter;
	struct dvb_frontend fe;
	struct dvb_demux demux;
	struct dmxdev dmxdev;
	struct dmx_frontend hw_frontend;
	struct dmx_frontend mem_frontend;
	bool adapter_ok, demux_ok, dmxdev_ok, fe_ok, hw_fe_ok, mem_fe_ok;

	struct platform_device *pdev;
	struct device *ctrl_dev;
	struct proc_dir_entry *proc;

	/*
	 * Frontend description set by the control-device owner.  cfg_lock
	 * serialises the writers; dvb-core reads fe.ops without our lock,
	 * which is safe because every field is written as a whole.
	 */
	struct mutex cfg_lock;
	struct mutex dmx_lock;	/* feed-allocating demux ioctls */
	int num_modes;

	/* Everything below is protected by lock. */
	spinlock_t lock;
	bool opened;
	u32 session;		/* changes at every open and close */
	pid_t owner_pid;
	char owner_comm[TASK_COMM_LEN];
	u32 features;		/* VTUNER_FEAT_* granted by EXT_HELLO */

	/* The one exchange with user space in flight. */
	enum vtunerc_slot slot;
	bool slot_reply;	/* the queued request wants a reply */
	struct vtuner_message req;
	struct vtuner_message resp;
	wait_queue_head_t msg_wq;	/* GET_MESSAGE and poll() */
	wait_queue_head_t xchg_wq;	/* exchanges: slot free, reply */

	/* PID table, built from the demux feeds. */
	struct vtunerc_pid pids[VTUNERC_MAX_FEEDS];
	unsigned int npids;
	u32 pids_seq;
	bool pids_pending;	/* a MSG_PIDLIST must be delivered */

	/* Last tune, as DVBv5 properties (VTUNER_EXT_GET_TUNE). */
	struct vtuner_ext_tune tune;
	bool tuned;
	unsigned long tune_jiffies;	/* when it was sent */

	/* Status pushed by user space (VTUNER_FEAT_STATUS). */
	struct vtuner_ext_status status;

	/*
	 * Counters as readers see them: the write path's as of its last
	 * chunk, sessions and timeouts.
	 */
	struct vtuner_ext_counters cnt;

	/* TS write path, serialised by write_lock. */
	struct mutex write_lock;
	u8 *wbuf;
	u8 part[TS_SIZE];
	unsigned int part_len;
	bool in_sync;
	struct vtuner_ext_counters wcnt;	/* bytes ... dropped_bytes */
};

extern unsigned int vtunerc_timeout_ms;

/* vtunerc_ctrldev.c */
int vtunerc_ctrldev_register(struct vtunerc_ctx **ctxs, unsigned int n);
void vtunerc_ctrldev_unregister(struct vtunerc_ctx **ctxs, unsigned int n);
int vtunerc_xchg(struct vtunerc_ctx *ctx, struct vtuner_message *msg,
		 bool reply);
bool vtunerc_has_feature(struct vtunerc_ctx *ctx, u32 feature);

/* vtunerc_frontend.c */
void vtunerc_fe_init(struct vtunerc_ctx *ctx);
int vtunerc_fe_set_type(struct vtunerc_ctx *ctx, const char *type);
int vtunerc_fe_set_modes(struct vtunerc_ctx *ctx,
			 char modes[][VTUNER_TYPE_LEN], unsigned int n);
int vtunerc_fe_set_delsys(struct vtunerc_ctx *ctx, const u8 *delsys,
			  unsigned int n);
void vtunerc_fe_set_info(struct vtunerc_ctx *ctx,
			 const struct dvb_frontend_info *info);
void vtunerc_fe_set_name(struct vtunerc_ctx *ctx, const char *name);

/* vtunerc_demux.c */
int vtunerc_demux_init(struct vtunerc_ctx *ctx);
void vtunerc_demux_release(struct vtunerc_ctx *ctx);
void vtunerc_demux_exit(void);
void vtunerc_pids_to_classic(struct vtunerc_ctx *ctx, u16 *list);
void vtunerc_pids_to_ext(struct vtunerc_ctx *ctx, struct vtuner_ext_pids *p);
void vtunerc_ts_feed(struct vtunerc_ctx *ctx, const u8 *buf, size_t len);
void vtunerc_ts_publish(struct vtunerc_ctx *ctx);

/* vtunerc_proc.c */
void vtunerc_proc_add(struct vtunerc_ctx *ctx);
void vtunerc_proc_remove(struct vtunerc_ctx *ctx);

#endif /* _VTUNERC_PRIV_H_ */
