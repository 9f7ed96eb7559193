// SPDX-License-Identifier: GPL-2.0
/*
 * pidfilter.c - see pidfilter.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "server/pidfilter.h"

static bool bit_get(const uint8_t *map, unsigned int pid)
{
	return map[pid / 8] & (1u << (pid % 8));
}

static void bit_set(uint8_t *map, unsigned int pid)
{
	map[pid / 8] |= 1u << (pid % 8);
}

void vtd_pidf_init(struct vtd_pidf *f, const struct vtd_pidf_ops *ops,
		   void *ctx, const char *where)
{
	unsigned int p;

	memset(f, 0, sizeof(*f));
	f->ops = ops;
	f->ctx = ctx;
	f->where = where;
	for (p = 0; p < VTD_PIDF_NPIDS; p++)
		f->handle[p] = -1;
}

static void pidf_stop(struct vtd_pidf *f, unsigned int pid)
{
	if (f->handle[pid] < 0)
		return;
	f->ops->stop(f->ctx, f->handle[pid]);
	f->handle[pid] = -1;
	f->nfilters--;
}

static int pidf_start(struct vtd_pidf *f, unsigned int pid)
{
	int h = f->ops->start(f->ctx, pid);

	if (h < 0)
		return h;
	f->handle[pid] = h;
	f->nfilters++;
	return 0;
}

/* "PIDs 256 257 ..." of the wanted PIDs that have no filter. */
static void pidf_missing(const struct vtd_pidf *f, const uint8_t *want,
			 char *out, size_t len)
{
	size_t used;
	unsigned int p;
	int n;

	if (!len)
		return;
	if (bit_get(want, VTP_PID_FULL_TS)) {
		snprintf(out, len, "the whole TS");
		return;
	}
	used = (size_t)snprintf(out, len, "PIDs");
	for (p = 0; p < VTP_PID_FULL_TS && used < len; p++) {
		if (!bit_get(want, p) || f->handle[p] >= 0)
			continue;
		/* room for this one and " ..." */
		if (used + 11 >= len) {
			snprintf(out + used, len - used, " ...");
			return;
		}
		n = snprintf(out + used, len - used, " %u", p);
		used += (size_t)n;
	}
}

/*
 * The demux refused the filter of a PID: take the whole TS and pick the
 * wanted PIDs out of it from now on.  0, or -errno if even that fails;
 * then as many wanted PIDs as the demux takes get filters again.
 */
static int pidf_fall_back(struct vtd_pidf *f, const uint8_t *want,
			  unsigned int refused, int err)
{
	unsigned int p, before = f->nfilters;
	int err2;

	err2 = f->handle[VTP_PID_FULL_TS] >= 0 ? 0 :
	       pidf_start(f, VTP_PID_FULL_TS);
	if (err2) {
		/* No slot left for it: free them all and try again. */
		for (p = 0; p < VTP_PID_FULL_TS; p++)
			pidf_stop(f, p);
		err2 = pidf_start(f, VTP_PID_FULL_TS);
	}
	if (err2) {
		vt_err("%s: the demux refuses the filter of PID %u (%s) and "
		       "the whole TS (%s)", f->where, refused, strerror(-err),
		       strerror(-err2));
		for (p = 0; p < VTP_PID_FULL_TS; p++)
			if (bit_get(want, p) && f->handle[p] < 0 &&
			    pidf_start(f, p) < 0)
				break;
		return err;
	}
	for (p = 0; p < VTP_PID_FULL_TS; p++)
		pidf_stop(f, p);
	f->software = true;
	memcpy(f->pass, want, sizeof(f->pass));
	f->pass_all = false;
	vt_warn("%s: the demux refused a filter for PID %u (%s) with %u "
		"filters running: taking the whole TS and filtering the PIDs "
		"in vtunerd until the tuner is closed", f->where, refused,
		strerror(-err), before);
	return 0;
}

static int pidf_set_software(struct vtd_pidf *f, const uint8_t *want,
			     bool any, bool full, char *missing, size_t len)
{
	int err;

	memcpy(f->pass, want, sizeof(f->pass));
	f->pass_all = full;
	if (!any) {
		pidf_stop(f, VTP_PID_FULL_TS);
		return 0;
	}
	if (f->handle[VTP_PID_FULL_TS] >= 0)
		return 0;
	err = pidf_start(f, VTP_PID_FULL_TS);
	if (err) {
		vt_err("%s: the demux refuses the whole TS: %s", f->where,
		       strerror(-err));
		pidf_missing(f, want, missing, len);
	}
	return err;
}

int vtd_pidf_set(struct vtd_pidf *f, const uint16_t *pids, size_t num,
		 char *missing, size_t missing_len)
{
	uint8_t want[sizeof(f->pass)];
	bool full = num && pids[num - 1] == VTP_PID_FULL_TS;
	unsigned int p;
	size_t i;
	int err;

	if (missing_len)
		missing[0] = 0;
	memset(want, 0, sizeof(want));
	for (i = 0; i < num; i++)
		if (pids[i] <= VTP_PID_FULL_TS)
			bit_set(want, pids[i]);
	if (full) {
		/* The whole TS stands for every other PID. */
		memset(want, 0, sizeof(want));
		bit_set(want, VTP_PID_FULL_TS);
	}
	if (f->software)
		return pidf_set_software(f, want, num > 0, full, missing,
					 missing_len);

	/*
	 * Filters no longer wanted go first, to free their slots; but while
	 * the whole TS is being switched on, they run until it does.
	 */
	if (!full)
		for (p = 0; p < VTD_PIDF_NPIDS; p++)
			if (p != VTP_PID_FULL_TS && !bit_get(want, p))
				pidf_stop(f, p);

	for (p = 0; p < VTD_PIDF_NPIDS; p++) {
		if (!bit_get(want, p) || f->handle[p] >= 0)
			continue;
		err = pidf_start(f, p);
		if (!err)
			continue;
		if (p == VTP_PID_FULL_TS) {
			/* Nothing to fall back to: keep what runs. */
			vt_err("%s: the demux refuses the whole TS: %s",
			       f->where, strerror(-err));
			pidf_missing(f, want, missing, missing_len);
			return err;
		}
		err = pidf_fall_back(f, want, p, err);
		if (err)
			pidf_missing(f, want, missing, missing_len);
		return err;
	}

	/* What the new filters replace: both ran for a moment. */
	for (p = 0; p < VTD_PIDF_NPIDS; p++)
		if (!bit_get(want, p))
			pidf_stop(f, p);
	return 0;
}

void vtd_pidf_reset(struct vtd_pidf *f)
{
	unsigned int p;

	for (p = 0; p < VTD_PIDF_NPIDS; p++)
		pidf_stop(f, p);
	f->software = false;
	f->pass_all = false;
	memset(f->pass, 0, sizeof(f->pass));
}

size_t vtd_pidf_filter(struct vtd_pidf *f, uint8_t *buf, size_t len)
{
	size_t i, out = 0;
	unsigned int pid;

	if (!f->software || f->pass_all)
		return len;
	for (i = 0; i + VTP_TS_PACKET <= len; i += VTP_TS_PACKET) {
		pid = ((buf[i + 1] & 0x1fu) << 8) | buf[i + 2];
		if (!bit_get(f->pass, pid))
			continue;
		if (out != i)
			memmove(buf + out, buf + i, VTP_TS_PACKET);
		out += VTP_TS_PACKET;
	}
	return out;
}
