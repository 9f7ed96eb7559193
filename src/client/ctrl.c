// SPDX-License-Identifier: GPL-2.0
/*
 * ctrl.c - the control device of the vtunerc module, see ctrl.h and
 * docs/abi.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "client/ctrl.h"
#include "client/props.h"
#include "common/dvb.h"
#include "common/log.h"
#include "common/text.h"

int ctrl_open(struct vc_ctrl *c, const char *path)
{
	struct vtuner_ext_hello h = {
		.version = VTUNER_ABI_VERSION,
		.features = VTUNER_FEAT_ALL,
	};
	int err;

	c->path = path;
	c->features = 0;
	c->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0) {
		err = -errno;
		vt_err("cannot open %s: %s%s", path, strerror(errno),
		       errno == EBUSY ? " (another client owns it)" :
		       errno == ENOENT ? " (is the vtunerc module loaded?)" :
		       "");
		return err;
	}
	if (ioctl(c->fd, VTUNER_EXT_HELLO, &h) < 0) {
		err = -errno;
		vt_err("%s: VTUNER_EXT_HELLO: %s (the module lacks the "
		       "extension this client needs)", path, strerror(errno));
		ctrl_close(c);
		return err;
	}
	c->features = h.features;
	if ((h.features & VTUNER_FEAT_ALL) != VTUNER_FEAT_ALL) {
		vt_err("%s: the module granted features 0x%x of 0x%x", path,
		       h.features, VTUNER_FEAT_ALL);
		ctrl_close(c);
		return -EOPNOTSUPP;
	}
	vt_debug("%s: extension version %u, features 0x%x, max %u props, "
		 "%u pids", path, h.version, h.features, h.max_props,
		 h.max_pids);
	return 0;
}

void ctrl_close(struct vc_ctrl *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int ctrl_configure(struct vc_ctrl *c, const struct vtp_tuner *t,
		   const char *name)
{
	struct vtuner_ext_delsys d = { .num = 0 };
	struct dvb_frontend_info fi;
	char nm[VTUNER_NAME_LEN];
	unsigned i;

	/* the remote tuner's name is the server's: no control characters */
	vt_text_escape(nm, sizeof(nm), name);
	if (ioctl(c->fd, VTUNER_SET_NAME, nm) < 0) {
		vt_err("%s: VTUNER_SET_NAME '%s': %s", c->path, nm,
		       strerror(errno));
		return -errno;
	}
	/* systems newer than this build's headers cannot be described */
	for (i = 0; i < t->num_delsys && i < VTP_MAX_DELSYS; i++) {
		if (t->delsys[i] == SYS_UNDEFINED ||
		    t->delsys[i] > SYS_DVBC_ANNEX_C ||
		    memchr(d.delsys, t->delsys[i], d.num)) {
			vt_warn("remote delivery system %u skipped",
				t->delsys[i]);
			continue;
		}
		d.delsys[d.num++] = t->delsys[i];
	}
	if (!d.num) {
		vt_err("remote tuner '%s' has no usable delivery system",
		       t->name);
		return -EINVAL;
	}
	if (ioctl(c->fd, VTUNER_EXT_SET_DELSYS, &d) < 0) {
		vt_err("%s: VTUNER_EXT_SET_DELSYS: %s", c->path,
		       strerror(errno));
		return -errno;
	}
	/*
	 * SET_DELSYS set default limits covering every system.  The remote's
	 * own limits have one unit (kHz for satellite, Hz otherwise) and
	 * dvb-core one range per frontend, so they replace the defaults only
	 * when all the systems are satellite or none is.
	 */
	if (!t->freq_max)
		return 0;
	for (i = 1; i < d.num; i++) {
		if (vt_delsys_is_sat(d.delsys[i]) !=
		    vt_delsys_is_sat(d.delsys[0])) {
			vt_debug("%s: satellite and other systems: default "
				 "frequency limits kept", c->path);
			return 0;
		}
	}
	memset(&fi, 0, sizeof(fi));
	snprintf(fi.name, sizeof(fi.name), "%s", nm);
	fi.type = vt_delsys_fe_type(d.delsys[0]);	/* the unit of the limits */
	fi.frequency_min = t->freq_min;
	fi.frequency_max = t->freq_max;
	fi.frequency_stepsize = t->freq_step;
	fi.frequency_tolerance = t->freq_tolerance;
	fi.symbol_rate_min = t->srate_min;
	fi.symbol_rate_max = t->srate_max;
	fi.symbol_rate_tolerance = t->srate_tolerance;
	fi.caps = t->caps;
	if (ioctl(c->fd, VTUNER_SET_FE_INFO, &fi) < 0) {
		vt_err("%s: VTUNER_SET_FE_INFO (%u..%u %s): %s", c->path,
		       fi.frequency_min, fi.frequency_max,
		       fi.type == FE_QPSK ? "kHz" : "Hz", strerror(errno));
		return -errno;
	}
	return 0;
}

int ctrl_get_message(struct vc_ctrl *c, struct vtuner_message *m)
{
	if (ioctl(c->fd, VTUNER_GET_MESSAGE, m) == 0)
		return 1;
	if (errno == EAGAIN || errno == EINTR)
		return 0;
	return -errno;
}

int ctrl_respond(struct vc_ctrl *c, const struct vtuner_message *m)
{
	if (ioctl(c->fd, VTUNER_SET_RESPONSE, m) == 0)
		return 0;
	/* ENOMSG: the kernel gave up waiting (module timeout_ms) */
	vt_warn("answer to %s: %s", ctrl_msg_name(m->type),
		errno == ENOMSG ? "too late, the module timed out" :
		strerror(errno));
	return -errno;
}

int ctrl_get_tune(struct vc_ctrl *c, struct vtp_tune *t)
{
	static struct vtuner_ext_tune et;
	unsigned i;
	bool has_tune = false;

	if (ioctl(c->fd, VTUNER_EXT_GET_TUNE, &et) < 0) {
		vt_err("%s: VTUNER_EXT_GET_TUNE: %s", c->path,
		       strerror(errno));
		return -errno;
	}
	t->seq = et.seq;
	t->num = 0;
	/* a full parameter set: start from a clean cache on the server */
	t->props[t->num].cmd = DTV_CLEAR;
	t->props[t->num++].data = 0;
	for (i = 0; i < et.num && i < VTUNER_EXT_MAX_PROPS; i++) {
		if (et.props[i].cmd == DTV_CLEAR)
			continue;
		if (t->num >= VTP_MAX_PROPS - (has_tune ? 0 : 1))
			break;
		has_tune |= et.props[i].cmd == DTV_TUNE;
		t->props[t->num].cmd = et.props[i].cmd;
		t->props[t->num++].data = et.props[i].data;
	}
	if (i < et.num)
		vt_warn("tune %u: %u properties dropped", et.seq, et.num - i);
	if (!has_tune) {
		t->props[t->num].cmd = DTV_TUNE;
		t->props[t->num++].data = 0;
	}
	return 0;
}

int ctrl_get_pids(struct vc_ctrl *c, struct vtp_pids *p)
{
	struct vtuner_ext_pids ep;
	unsigned i;

	if (ioctl(c->fd, VTUNER_EXT_GET_PIDS, &ep) < 0) {
		vt_err("%s: VTUNER_EXT_GET_PIDS: %s", c->path,
		       strerror(errno));
		return -errno;
	}
	p->num = 0;
	for (i = 0; i < ep.num && i < VTUNER_EXT_MAX_PIDS; i++)
		if (ep.pids[i] <= VTP_PID_FULL_TS)
			p->pid[p->num++] = ep.pids[i];
	return 0;
}

static void copy_stats(struct dtv_fe_stats *d, const struct vtp_stats *s)
{
	unsigned i;

	memset(d, 0, sizeof(*d));
	d->len = s->len > MAX_DTV_STATS ? MAX_DTV_STATS : s->len;
	for (i = 0; i < d->len; i++) {
		d->stat[i].scale = s->stat[i].scale > FE_SCALE_COUNTER ?
				   FE_SCALE_NOT_AVAILABLE : s->stat[i].scale;
		d->stat[i].uvalue = s->stat[i].uvalue;
	}
}

int ctrl_set_status(struct vc_ctrl *c, const struct vtp_status *s,
		    uint32_t tune_seq)
{
	struct vtuner_ext_status es;

	memset(&es, 0, sizeof(es));
	es.status = s->status;
	es.ber = s->ber;
	es.signal = s->signal;
	es.snr = s->snr;
	es.ucblocks = s->ucblocks;
	es.tune_seq = tune_seq;
	copy_stats(&es.strength, &s->stats[VTP_STAT_STRENGTH]);
	copy_stats(&es.cnr, &s->stats[VTP_STAT_CNR]);
	copy_stats(&es.pre_bit_error, &s->stats[VTP_STAT_PRE_BIT_ERROR]);
	copy_stats(&es.pre_bit_count, &s->stats[VTP_STAT_PRE_BIT_COUNT]);
	copy_stats(&es.post_bit_error, &s->stats[VTP_STAT_POST_BIT_ERROR]);
	copy_stats(&es.post_bit_count, &s->stats[VTP_STAT_POST_BIT_COUNT]);
	copy_stats(&es.block_error, &s->stats[VTP_STAT_BLOCK_ERROR]);
	copy_stats(&es.block_count, &s->stats[VTP_STAT_BLOCK_COUNT]);
	if (ioctl(c->fd, VTUNER_EXT_SET_STATUS, &es) == 0)
		return 0;
	if (errno != ESTALE)	/* ESTALE: a newer tune is on its way */
		vt_warn("%s: VTUNER_EXT_SET_STATUS: %s", c->path,
			strerror(errno));
	return -errno;
}

int ctrl_write_ts(int fd, const uint8_t *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= n;
	}
	return 0;
}

const char *ctrl_msg_name(int type)
{
	const char *n = vt_msg_name(type);

	return n ? n : "unknown message";
}
