// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - SAT>IP reports: signal level and quality, the fmtp line,
 * DESCRIBE's SDP, RTP headers and RTCP packets.  See report.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/dvb/frontend.h>

#include "common/dvb.h"
#include "satip/out.h"
#include "satip/report.h"

/* ---- level, quality ----------------------------------------------------- */

static long long clamp(long long v, long long lo, long long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* (a * num + den / 2) / den for a >= 0, rounding to the nearest */
static long long scale(long long a, long long num, long long den)
{
	return (a * num + den / 2) / den;
}

static const struct vtp_stat *stat0(const struct vtp_status *s,
				    enum vtp_stat_index i)
{
	const struct vtp_stats *st = &s->stats[i];

	if (!st->len || st->stat[0].scale == FE_SCALE_NOT_AVAILABLE)
		return NULL;
	return &st->stat[0];
}

void satip_signal_of(const struct vtp_status *s, unsigned int delsys,
		     struct satip_signal *out)
{
	const struct vtp_stat *st;
	long long v, full;
	bool any = s->status & (FE_HAS_SIGNAL | FE_HAS_CARRIER | FE_HAS_LOCK);

	out->lock = s->status & FE_HAS_LOCK;

	st = stat0(s, VTP_STAT_STRENGTH);
	if (st && st->scale == FE_SCALE_DECIBEL) {
		/* 0.001 dBm; shifted so that the division never sees < 0 */
		v = clamp(st->svalue, -1000000, 1000000) + 65000 + 1000000;
		v = 32 + scale(v, 192, 40000) - 4800;
	} else if (st && st->scale == FE_SCALE_RELATIVE) {
		v = scale((long long)(st->uvalue & 0xffff), 255, 65535);
	} else {
		v = scale(s->signal, 255, 65535);
	}
	out->level = !any ? 0 : (unsigned int)clamp(v, 1, 255);

	out->quality = 0;
	if (!out->lock)
		return;
	st = stat0(s, VTP_STAT_CNR);
	if (st && st->scale == FE_SCALE_DECIBEL) {
		full = vt_delsys_is_sat(delsys) ? 15000 :
		       vt_delsys_is_ter(delsys) ? 25000 : 35000;
		v = scale(clamp(st->svalue, 0, 1000000), 15, full);
	} else if (st && st->scale == FE_SCALE_RELATIVE) {
		v = scale((long long)(st->uvalue & 0xffff), 15, 65535);
	} else if (s->snr) {
		v = scale(s->snr, 15, 65535);
	} else {
		v = 15;
	}
	out->quality = (unsigned int)clamp(v, 1, 15);
}

/* ---- text --------------------------------------------------------------- */


static int done(struct satip_out *o)
{
	if (o->full) {
		if (o->cap)
			o->buf[0] = '\0';
		return -ENOBUFS;
	}
	return (int)o->len;
}

int satip_fmtp(char *buf, size_t cap, const struct satip_fmtp_args *a)
{
	static const struct satip_signal none;
	const struct satip_signal *sig = a->sig ? a->sig : &none;
	const struct satip_tune *t = a->tune;
	struct satip_out o = { buf, cap, 0, !buf || !cap };
	bool tuned = t && satip_has(t, SATIP_A_MSYS);
	unsigned int i;
	int n;

	if (tuned && vt_delsys_is_ter(t->msys))
		satip_out_printf(&o, "ver=1.1;");
	else if (tuned && !vt_delsys_is_sat(t->msys))
		satip_out_printf(&o, "ver=1.2;");
	else
		satip_out_printf(&o, "ver=1.0;src=%u;", t && satip_has(t, SATIP_A_SRC) ?
		    t->src : 1);
	satip_out_printf(&o, "tuner=%u,%u,%u,%u,", a->fe, sig->level, sig->lock ? 1 : 0,
	    sig->quality);
	if (!o.full && tuned) {
		n = satip_tune_format(buf + o.len, cap - o.len, t);
		if (n < 0)
			o.full = true;
		else
			o.len += (size_t)n;
	} else {
		satip_out_printf(&o, ",,,,,,,");	/* the 8 fields of DVB-S, empty */
	}
	if (a->pids && a->pids->all) {
		satip_out_printf(&o, ";pids=all");
	} else if (!a->pids || !a->pids->num) {
		satip_out_printf(&o, ";pids=none");
	} else {
		satip_out_printf(&o, ";pids=");
		for (i = 0; i < a->pids->num && i < SATIP_MAX_PIDS; i++)
			satip_out_printf(&o, i ? ",%u" : "%u", a->pids->pid[i]);
	}
	return done(&o);
}

int satip_sdp(char *buf, size_t cap, const struct satip_sdp_args *a)
{
	struct satip_out o = { buf, cap, 0, !buf || !cap };
	const struct satip_sdp_stream *st;
	unsigned int i;

	satip_out_printf(&o, "v=0\r\no=- %llu %llu IN IP4 %s\r\n",
	    (unsigned long long)a->session, (unsigned long long)a->session,
	    a->addr);
	if (a->frontends[1] || a->frontends[2])
		satip_out_printf(&o, "s=SatIPServer:1 %u,%u,%u\r\n", a->frontends[0],
		    a->frontends[1], a->frontends[2]);
	else
		satip_out_printf(&o, "s=SatIPServer:1 %u\r\n", a->frontends[0]);
	satip_out_printf(&o, "t=0 0\r\n");
	for (i = 0; i < a->num_streams; i++) {
		st = &a->streams[i];
		satip_out_printf(&o, "m=video %u RTP/AVP %d\r\n", st->port, SATIP_RTP_PT);
		if (st->mcast)
			satip_out_printf(&o, "c=IN IP4 %s/%u\r\n", st->mcast, st->ttl);
		else
			satip_out_printf(&o, "c=IN IP4 0.0.0.0\r\n");
		satip_out_printf(&o, "a=control:stream=%u\r\na=fmtp:%d %s\r\na=%s\r\n",
		    st->stream_id, SATIP_RTP_PT, st->fmtp,
		    st->active ? "sendonly" : "inactive");
	}
	return done(&o);
}

/* ---- RTP, RTCP ---------------------------------------------------------- */

static void be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

void satip_rtp_header(uint8_t hdr[SATIP_RTP_HDR_LEN], uint16_t seq,
		      uint32_t ts90k, uint32_t ssrc)
{
	hdr[0] = 0x80;			/* V=2 */
	hdr[1] = SATIP_RTP_PT;		/* M=0 */
	be16(hdr + 2, seq);
	be32(hdr + 4, ts90k);
	be32(hdr + 8, ssrc);
}

/* RTCP header: V=2, count (RC, SC or subtype), type, length in words - 1 */
static void rtcp_hdr(uint8_t *p, unsigned int count, uint8_t pt, size_t len)
{
	p[0] = (uint8_t)(0x80 | count);
	p[1] = pt;
	be16(p + 2, (uint16_t)(len / 4 - 1));
}

int satip_rtcp_build(uint8_t *buf, size_t cap, uint32_t ssrc,
		     uint32_t packets, uint32_t octets, uint64_t ntp,
		     uint32_t rtp_ts, const char *fmtp)
{
	const size_t cname = sizeof(SATIP_RTCP_CNAME) - 1;
	size_t flen = strlen(fmtp);
	size_t sr = 28;
	size_t sdes = (4 + 4 + 2 + cname + 1 + 3) & ~(size_t)3;
	size_t app = (4 + 4 + 4 + 4 + flen + 3) & ~(size_t)3;
	uint8_t *p;

	if (flen > 65535 || app / 4 - 1 > 65535)
		return -EINVAL;
	if (sr + sdes + app > cap)
		return -ENOBUFS;
	memset(buf, 0, sr + sdes + app);

	/* SR */
	p = buf;
	rtcp_hdr(p, 0, 200, sr);
	be32(p + 4, ssrc);
	be32(p + 8, (uint32_t)(ntp >> 32));
	be32(p + 12, (uint32_t)ntp);
	be32(p + 16, rtp_ts);
	be32(p + 20, packets);
	be32(p + 24, octets);

	/* SDES: one chunk, CNAME, END and padding (zeros) */
	p += sr;
	rtcp_hdr(p, 1, 202, sdes);
	be32(p + 4, ssrc);
	p[8] = 1;			/* CNAME */
	p[9] = (uint8_t)cname;
	memcpy(p + 10, SATIP_RTCP_CNAME, cname);

	/* APP "SES1": identifier 0, string length, string, padding */
	p += sdes;
	rtcp_hdr(p, 0, 204, app);
	be32(p + 4, ssrc);
	memcpy(p + 8, "SES1", 4);
	be16(p + 12, 0);
	be16(p + 14, (uint16_t)flen);
	memcpy(p + 16, fmtp, flen);
	return (int)(sr + sdes + app);
}

uint64_t satip_ntp(uint64_t sec, uint32_t nsec)
{
	/* 70 years and 17 leap days from 1900 to 1970 */
	uint64_t ntp_sec = sec + 2208988800ULL;
	uint64_t frac = ((uint64_t)(nsec % 1000000000U) << 32) / 1000000000U;

	return ntp_sec << 32 | frac;
}
