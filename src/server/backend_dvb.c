// SPDX-License-Identifier: GPL-2.0
/*
 * backend_dvb.c - a real DVB frontend: /dev/dvb/adapterA/frontendF with
 * its demux and dvr devices (demuxF/dvrF if they exist, else demux0/dvr0).
 *
 * The TS comes from the dvr device: every wanted PID is a DMX_OUT_TS_TAP
 * filter of its own on the demux device, PID 0x2000 the whole TS; which
 * filters run is pidfilter.c's business.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>
#include <linux/dvb/frontend.h>

#include "common/log.h"
#include "server/backend.h"
#include "server/pidfilter.h"

/* dvb-core allocates these with vmalloc and sets no upper bound. */
#define DVB_DVR_BUFFER		(4 * 1024 * 1024)

struct dvb_tuner {
	struct vtd_tuner t;
	char fe_path[64];
	char dmx_path[64];
	char dvr_path[64];
	int fe_fd;
	int dvr_fd;
	struct vtd_pidf pf;	/* one demux descriptor per PID */
	uint8_t carry[VTP_TS_PACKET];	/* partial packet of the last read */
	size_t carry_len;
	uint64_t overflow_logged_ns;
};

static struct dvb_tuner *dvb_of(struct vtd_tuner *t)
{
	return (struct dvb_tuner *)t;
}

static int dvb_ioctl_err(const struct dvb_tuner *d, const char *what)
{
	int err = errno;

	vt_debug("%s: %s: %s", d->t.where, what, strerror(err));
	return -err;
}

static int dvb_open_dev(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static void dvb_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int dvb_open(struct vtd_tuner *t)
{
	struct dvb_tuner *d = dvb_of(t);
	int fd;

	fd = dvb_open_dev(d->fe_path, O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		vt_warn("%s: open %s: %s", t->where, d->fe_path, strerror(-fd));
		return fd;
	}
	d->fe_fd = fd;

	fd = dvb_open_dev(d->dvr_path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		vt_warn("%s: open %s: %s", t->where, d->dvr_path, strerror(-fd));
		goto fail;
	}
	d->dvr_fd = fd;
	if (ioctl(d->dvr_fd, DMX_SET_BUFFER_SIZE, (unsigned long)DVB_DVR_BUFFER) < 0)
		vt_warn("%s: %s: DMX_SET_BUFFER_SIZE %d: %s", t->where,
			d->dvr_path, DVB_DVR_BUFFER, strerror(errno));

	/* The filters open it later: fail now if they could not. */
	fd = dvb_open_dev(d->dmx_path, O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		vt_warn("%s: open %s: %s", t->where, d->dmx_path, strerror(-fd));
		goto fail;
	}
	close(fd);
	vtd_pidf_reset(&d->pf);
	d->carry_len = 0;
	t->overflows = 0;
	return 0;

fail:
	dvb_close_fd(&d->dvr_fd);
	dvb_close_fd(&d->fe_fd);
	return fd;
}

static void dvb_close(struct vtd_tuner *t)
{
	struct dvb_tuner *d = dvb_of(t);

	vtd_pidf_reset(&d->pf);
	dvb_close_fd(&d->dvr_fd);
	dvb_close_fd(&d->fe_fd);
	d->carry_len = 0;
}

static int dvb_set_props(struct dvb_tuner *d, struct dtv_property *p,
			 unsigned int n)
{
	struct dtv_properties props = { .num = n, .props = p };

	if (ioctl(d->fe_fd, FE_SET_PROPERTY, &props) < 0)
		return -errno;
	return 0;
}

static int dvb_tune(struct vtd_tuner *t, const struct vtp_prop *in,
		    unsigned int num)
{
	struct dvb_tuner *d = dvb_of(t);
	struct dtv_property p[VTP_MAX_PROPS + 2];
	unsigned int i, n = 0, k;
	int err;

	memset(p, 0, sizeof(p));
	p[n++].cmd = DTV_CLEAR;
	for (i = 0; i < num && i < VTP_MAX_PROPS; i++) {
		if (in[i].cmd == DTV_CLEAR || in[i].cmd == DTV_TUNE)
			continue;
		p[n].cmd = in[i].cmd;
		p[n].u.data = in[i].data;
		n++;
	}
	p[n++].cmd = DTV_TUNE;

	/* At most DTV_IOCTL_MAX_MSGS per call; the cache persists. */
	err = 0;
	for (k = 0; k < n && !err; k += DTV_IOCTL_MAX_MSGS) {
		unsigned int m = n - k;

		if (m > DTV_IOCTL_MAX_MSGS)
			m = DTV_IOCTL_MAX_MSGS;
		err = dvb_set_props(d, p + k, m);
	}
	if (err != -EINVAL)
		goto out;

	/*
	 * An older kernel may refuse a property it does not know: set them
	 * one by one, skip those refused, and let DTV_TUNE decide.
	 */
	vt_debug("%s: FE_SET_PROPERTY: EINVAL, retrying property by property",
		 t->where);
	for (k = 0; k + 1 < n; k++) {
		err = dvb_set_props(d, p + k, 1);
		if (err)
			vt_info("%s: FE_SET_PROPERTY cmd %u data %u: %s (skipped)",
				t->where, p[k].cmd, p[k].u.data, strerror(-err));
	}
	err = dvb_set_props(d, p + n - 1, 1);
out:
	if (err)
		vt_info("%s: FE_SET_PROPERTY: %s", t->where, strerror(-err));
	return err;
}

static int dvb_set_tone(struct vtd_tuner *t, unsigned int v)
{
	struct dvb_tuner *d = dvb_of(t);

	if (ioctl(d->fe_fd, FE_SET_TONE, (unsigned long)v) < 0)
		return dvb_ioctl_err(d, "FE_SET_TONE");
	return 0;
}

static int dvb_set_voltage(struct vtd_tuner *t, unsigned int v)
{
	struct dvb_tuner *d = dvb_of(t);

	if (ioctl(d->fe_fd, FE_SET_VOLTAGE, (unsigned long)v) < 0)
		return dvb_ioctl_err(d, "FE_SET_VOLTAGE");
	return 0;
}

static int dvb_enable_high_voltage(struct vtd_tuner *t, unsigned int v)
{
	struct dvb_tuner *d = dvb_of(t);

	if (ioctl(d->fe_fd, FE_ENABLE_HIGH_LNB_VOLTAGE, (unsigned long)v) < 0)
		return dvb_ioctl_err(d, "FE_ENABLE_HIGH_LNB_VOLTAGE");
	return 0;
}

static int dvb_diseqc_master(struct vtd_tuner *t, const uint8_t *msg,
			     size_t len)
{
	struct dvb_tuner *d = dvb_of(t);
	struct dvb_diseqc_master_cmd cmd;

	memset(&cmd, 0, sizeof(cmd));
	if (len > sizeof(cmd.msg))
		return -EINVAL;
	memcpy(cmd.msg, msg, len);
	cmd.msg_len = len;
	if (ioctl(d->fe_fd, FE_DISEQC_SEND_MASTER_CMD, &cmd) < 0)
		return dvb_ioctl_err(d, "FE_DISEQC_SEND_MASTER_CMD");
	return 0;
}

static int dvb_diseqc_burst(struct vtd_tuner *t, unsigned int v)
{
	struct dvb_tuner *d = dvb_of(t);

	if (ioctl(d->fe_fd, FE_DISEQC_SEND_BURST, (unsigned long)v) < 0)
		return dvb_ioctl_err(d, "FE_DISEQC_SEND_BURST");
	return 0;
}

/* A filter of pidfilter.c: a demux descriptor of its own. */
static int dvb_filter_start(void *ctx, uint16_t pid)
{
	struct dvb_tuner *d = ctx;
	struct dmx_pes_filter_params f;
	int fd, err;

	fd = dvb_open_dev(d->dmx_path, O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		vt_debug("%s: open %s for PID %u: %s", d->t.where, d->dmx_path,
			 pid, strerror(-fd));
		return fd;
	}
	memset(&f, 0, sizeof(f));
	f.pid = pid;
	f.input = DMX_IN_FRONTEND;
	f.output = DMX_OUT_TS_TAP;
	f.pes_type = DMX_PES_OTHER;
	f.flags = DMX_IMMEDIATE_START;
	if (ioctl(fd, DMX_SET_PES_FILTER, &f) < 0) {
		err = dvb_ioctl_err(d, "DMX_SET_PES_FILTER");
		/* A failed start leaves nothing behind once closed. */
		close(fd);
		return err;
	}
	return fd;
}

static void dvb_filter_stop(void *ctx, int fd)
{
	(void)ctx;
	ioctl(fd, DMX_STOP);
	close(fd);
}

static const struct vtd_pidf_ops dvb_filter_ops = {
	.start = dvb_filter_start,
	.stop = dvb_filter_stop,
};

static int dvb_set_pids(struct vtd_tuner *t, const uint16_t *want,
			size_t num, char *missing, size_t missing_len)
{
	return vtd_pidf_set(&dvb_of(t)->pf, want, num, missing, missing_len);
}

static void dvb_copy_stats(struct vtp_stats *out, const struct dtv_fe_stats *in)
{
	unsigned int i, len = in->len;

	memset(out, 0, sizeof(*out));
	if (len > VTP_MAX_STAT_LAYERS)
		len = VTP_MAX_STAT_LAYERS;
	out->len = len;
	for (i = 0; i < len; i++) {
		out->stat[i].scale = in->stat[i].scale > FE_SCALE_COUNTER ?
				     FE_SCALE_NOT_AVAILABLE : in->stat[i].scale;
		out->stat[i].uvalue = in->stat[i].uvalue;
	}
}

static int dvb_read_status(struct vtd_tuner *t, struct vtp_status *st,
			   bool full)
{
	static const uint32_t cmds[VTP_NUM_STATS] = {
		[VTP_STAT_STRENGTH] = DTV_STAT_SIGNAL_STRENGTH,
		[VTP_STAT_CNR] = DTV_STAT_CNR,
		[VTP_STAT_PRE_BIT_ERROR] = DTV_STAT_PRE_ERROR_BIT_COUNT,
		[VTP_STAT_PRE_BIT_COUNT] = DTV_STAT_PRE_TOTAL_BIT_COUNT,
		[VTP_STAT_POST_BIT_ERROR] = DTV_STAT_POST_ERROR_BIT_COUNT,
		[VTP_STAT_POST_BIT_COUNT] = DTV_STAT_POST_TOTAL_BIT_COUNT,
		[VTP_STAT_BLOCK_ERROR] = DTV_STAT_ERROR_BLOCK_COUNT,
		[VTP_STAT_BLOCK_COUNT] = DTV_STAT_TOTAL_BLOCK_COUNT,
	};
	struct dvb_tuner *d = dvb_of(t);
	struct dtv_property p[VTP_NUM_STATS];
	struct dtv_properties props = { .num = VTP_NUM_STATS, .props = p };
	fe_status_t status = 0;
	uint32_t u32;
	uint16_t u16;
	unsigned int i;

	if (ioctl(d->fe_fd, FE_READ_STATUS, &status) < 0)
		return dvb_ioctl_err(d, "FE_READ_STATUS");
	st->status = status;
	if (!full)
		return 0;

	memset(p, 0, sizeof(p));
	for (i = 0; i < VTP_NUM_STATS; i++)
		p[i].cmd = cmds[i];
	if (ioctl(d->fe_fd, FE_GET_PROPERTY, &props) == 0) {
		for (i = 0; i < VTP_NUM_STATS; i++)
			dvb_copy_stats(&st->stats[i], &p[i].u.st);
	} else {
		memset(st->stats, 0, sizeof(st->stats));
	}

	/* DVBv3 reads: not every driver has them; 0 when unsupported. */
	st->ber = ioctl(d->fe_fd, FE_READ_BER, &u32) == 0 ? u32 : 0;
	st->signal = ioctl(d->fe_fd, FE_READ_SIGNAL_STRENGTH, &u16) == 0 ? u16 : 0;
	st->snr = ioctl(d->fe_fd, FE_READ_SNR, &u16) == 0 ? u16 : 0;
	st->ucblocks = ioctl(d->fe_fd, FE_READ_UNCORRECTED_BLOCKS, &u32) == 0 ?
		       u32 : 0;
	return 0;
}

static int dvb_get_fd(struct vtd_tuner *t)
{
	return dvb_of(t)->dvr_fd;
}

static ssize_t dvb_read_ts(struct vtd_tuner *t, uint8_t *buf, size_t max)
{
	struct dvb_tuner *d = dvb_of(t);
	size_t have = d->carry_len, total;
	ssize_t n;
	int tries;

	if (max < VTP_TS_PACKET)
		return -ENOBUFS;
	memcpy(buf, d->carry, have);
	for (tries = 0; tries < 2; tries++) {
		n = read(d->dvr_fd, buf + have, max - have);
		if (n >= 0 || errno != EOVERFLOW)
			break;
		/* dvb-core flushed its buffer: packets were lost. */
		t->overflows++;
		if (vt_now_ns() - d->overflow_logged_ns > 10000000000ull) {
			vt_warn("%s: dvr buffer overflow (%llu so far)",
				t->where, (unsigned long long)t->overflows);
			d->overflow_logged_ns = vt_now_ns();
		}
	}
	if (n < 0)
		return errno == EOVERFLOW || errno == EINTR ? -EAGAIN : -errno;
	if (n == 0)
		return -EAGAIN;
	total = have + (size_t)n;
	d->carry_len = total % VTP_TS_PACKET;
	total -= d->carry_len;
	memcpy(d->carry, buf + total, d->carry_len);
	total = vtd_pidf_filter(&d->pf, buf, total);
	return total ? (ssize_t)total : -EAGAIN;
}

static void dvb_flush_ts(struct vtd_tuner *t)
{
	struct dvb_tuner *d = dvb_of(t);
	static uint8_t junk[188 * 512];
	int i;

	d->carry_len = 0;
	/* Drop what the dvr buffered of the previous tune (bounded). */
	for (i = 0; i < 64; i++)
		if (read(d->dvr_fd, junk, sizeof(junk)) <= 0 && errno != EOVERFLOW)
			break;
}

static void dvb_destroy(struct vtd_tuner *t)
{
	struct dvb_tuner *d = dvb_of(t);

	free(d);
}

static const struct vtd_backend_ops dvb_ops = {
	.open = dvb_open,
	.close = dvb_close,
	.tune = dvb_tune,
	.set_tone = dvb_set_tone,
	.set_voltage = dvb_set_voltage,
	.enable_high_voltage = dvb_enable_high_voltage,
	.diseqc_master = dvb_diseqc_master,
	.diseqc_burst = dvb_diseqc_burst,
	.set_pids = dvb_set_pids,
	.read_status = dvb_read_status,
	.get_fd = dvb_get_fd,
	.read_ts = dvb_read_ts,
	.flush_ts = dvb_flush_ts,
	.destroy = dvb_destroy,
};

static bool dvb_exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

/* delsys of a frontend that lacks DTV_ENUM_DELSYS (before Linux 3.3) */
static unsigned int dvb_delsys_from_type(enum fe_type type, uint32_t caps,
					 uint8_t *out)
{
	switch (type) {
	case FE_QPSK:
		if (caps & FE_CAN_2G_MODULATION) {
			out[0] = SYS_DVBS2;
			out[1] = SYS_DVBS;
			return 2;
		}
		out[0] = SYS_DVBS;
		return 1;
	case FE_QAM:
		out[0] = SYS_DVBC_ANNEX_A;
		return 1;
	case FE_OFDM:
		out[0] = SYS_DVBT;
		return 1;
	case FE_ATSC:
		out[0] = SYS_ATSC;
		return 1;
	}
	return 0;
}

int vtd_dvb_add(struct vtd_tuners *ts, unsigned int adapter,
		unsigned int frontend)
{
	struct dvb_frontend_info fi;
	struct dtv_property p = { .cmd = DTV_ENUM_DELSYS };
	struct dtv_properties props = { .num = 1, .props = &p };
	struct dvb_tuner *d;
	unsigned int i, n;
	int fd, err;

	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->fe_fd = d->dvr_fd = -1;
	vtd_pidf_init(&d->pf, &dvb_filter_ops, d, d->t.where);
	snprintf(d->fe_path, sizeof(d->fe_path),
		 "/dev/dvb/adapter%u/frontend%u", adapter, frontend);
	snprintf(d->dmx_path, sizeof(d->dmx_path),
		 "/dev/dvb/adapter%u/demux%u", adapter, frontend);
	snprintf(d->dvr_path, sizeof(d->dvr_path),
		 "/dev/dvb/adapter%u/dvr%u", adapter, frontend);
	if (frontend && (!dvb_exists(d->dmx_path) || !dvb_exists(d->dvr_path))) {
		snprintf(d->dmx_path, sizeof(d->dmx_path),
			 "/dev/dvb/adapter%u/demux0", adapter);
		snprintf(d->dvr_path, sizeof(d->dvr_path),
			 "/dev/dvb/adapter%u/dvr0", adapter);
	}
	snprintf(d->t.where, sizeof(d->t.where), "adapter%u/frontend%u",
		 adapter, frontend);

	fd = open(d->fe_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		vt_err("%s: %s", d->fe_path, strerror(errno));
		goto fail;
	}
	memset(&fi, 0, sizeof(fi));
	if (ioctl(fd, FE_GET_INFO, &fi) < 0) {
		err = -errno;
		vt_err("%s: FE_GET_INFO: %s", d->fe_path, strerror(errno));
		close(fd);
		goto fail;
	}
	n = 0;
	if (ioctl(fd, FE_GET_PROPERTY, &props) == 0) {
		for (i = 0; i < p.u.buffer.len && n < VTP_MAX_DELSYS; i++)
			d->t.info.delsys[n++] = p.u.buffer.data[i];
	}
	if (n == 0)
		n = dvb_delsys_from_type(fi.type, fi.caps, d->t.info.delsys);
	close(fd);
	if (n == 0) {
		err = -ENODEV;
		vt_err("%s: no known delivery system", d->fe_path);
		goto fail;
	}

	d->t.ops = &dvb_ops;
	d->t.backend = "dvb";
	d->t.priv = d;
	d->t.info.num_delsys = n;
	d->t.info.caps = fi.caps;
	d->t.info.freq_min = fi.frequency_min;
	d->t.info.freq_max = fi.frequency_max;
	d->t.info.freq_step = fi.frequency_stepsize;
	d->t.info.freq_tolerance = fi.frequency_tolerance;
	d->t.info.srate_min = fi.symbol_rate_min;
	d->t.info.srate_max = fi.symbol_rate_max;
	d->t.info.srate_tolerance = fi.symbol_rate_tolerance;
	fi.name[sizeof(fi.name) - 1] = 0;
	snprintf(d->t.info.name, sizeof(d->t.info.name), "%s", fi.name);
	err = vtd_tuners_add(ts, &d->t);
	if (err) {
		vt_err("%s: more than %d tuners", d->fe_path, VTD_MAX_TUNERS);
		goto fail;
	}
	return 0;

fail:
	free(d);
	return err;
}
