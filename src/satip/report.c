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
#include "satip/span.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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

/* ---- the client's side -------------------------------------------------- */

int satip_rtcp_ses1(const uint8_t *buf, size_t len, char *out, size_t cap)
{
	size_t pos = 0, plen, slen;
	const uint8_t *p;

	if (cap)
		out[0] = '\0';
	if (len < 4)
		return -EBADMSG;
	while (pos < len) {
		p = buf + pos;
		if (len - pos < 4 || p[0] >> 6 != 2)
			return -EBADMSG;
		plen = ((size_t)(p[2] << 8 | p[3]) + 1) * 4;
		if (plen > len - pos)
			return -EBADMSG;
		/* APP: header, SSRC, name, then SAT>IP's id and length */
		if (p[1] == 204 && plen >= 12 && !memcmp(p + 8, "SES1", 4)) {
			if (plen < 16)
				return -EBADMSG;
			slen = (size_t)(p[14] << 8 | p[15]);
			if (slen > plen - 16)
				return -EBADMSG;
			if (slen >= cap)
				return -ENOBUFS;
			memcpy(out, p + 16, slen);
			out[slen] = '\0';
			return 1;
		}
		pos += plen;
	}
	return 0;
}

/* "stream=N" at the end of an a=control: value (a URL or not); -1 if none */
static int control_stream(struct span v)
{
	uint64_t id;
	size_t i;

	for (i = v.n; i >= 7; i--)
		if (!strncasecmp(v.p + i - 7, "stream=", 7))
			break;
	if (i < 7)
		return -1;
	v = sub(v, i, v.n);
	/* a trailing '/' as rtsp.c takes it */
	if (v.n && v.p[v.n - 1] == '/')
		v.n--;
	return span_uint(v, 65535, &id) ? (int)id : -1;
}

int satip_sdp_fmtp(const char *sdp, size_t len, int stream_id, char *out,
		   size_t cap)
{
	struct span line, fmtp = { NULL, 0 };
	size_t pos = 0, e;
	bool media = false, has_fmtp = false, end;
	int stream = -1;

	if (cap)
		out[0] = '\0';
	for (;;) {
		end = pos >= len;
		if (!end) {
			/* the last line may lack its LF */
			line.p = sdp + pos;
			e = span_find((struct span){ sdp, len }, pos, '\n');
			line.n = e - pos;
			pos = e + 1;
			if (line.n && line.p[line.n - 1] == '\r')
				line.n--;
		}
		if (end || (line.n >= 2 && !memcmp(line.p, "m=", 2))) {
			/* the end of a media section */
			if (media && has_fmtp &&
			    (stream_id < 0 || stream == stream_id)) {
				if (fmtp.n >= cap)
					return -ENOBUFS;
				span_copy_clean(out, cap, fmtp);
				return 0;
			}
			if (end)
				return -ENOENT;
			media = true;
			has_fmtp = false;
			stream = -1;
		} else if (media && line.n > 10 &&
			   !memcmp(line.p, "a=control:", 10)) {
			stream = control_stream(trim(sub(line, 10, line.n)));
		} else if (media && !has_fmtp && line.n > 9 &&
			   !memcmp(line.p, "a=fmtp:33", 9) && is_sp(line.p[9])) {
			fmtp = trim(sub(line, 10, line.n));
			has_fmtp = true;
		}
	}
}

/* A report field of name with value v: "name=v", if it parses as a query. */
static bool report_item(char *q, size_t cap, size_t *qlen, const char *name,
			struct span v)
{
	char item[80];
	struct satip_tune t;
	struct satip_pids_op op;
	size_t i;
	int n;

	if (!v.n || v.n > 32)
		return false;
	for (i = 0; i < v.n; i++)
		if (is_ctl(v.p[i]) || strchr("&%=;,", v.p[i]))
			return false;
	n = snprintf(item, sizeof(item), "%s=%.*s", name, (int)v.n, v.p);
	if (n < 0 || (size_t)n >= sizeof(item) ||
	    satip_query_parse(item, &t, &op, NULL, 0))
		return false;
	if (*qlen + 1 + (size_t)n >= cap)
		return false;
	*qlen += (size_t)snprintf(q + *qlen, cap - *qlen, "%s%s",
				  *qlen ? "&" : "", item);
	return true;
}

/* A number of tuner='s first four: empty is 0; false if junk. */
static bool report_num(struct span v, unsigned int max, unsigned int *out)
{
	uint64_t x;

	v = trim(v);
	if (!v.n) {
		*out = 0;
		return true;
	}
	if (!span_uint(v, UINT32_MAX, &x))
		return false;
	*out = x > max ? max : (unsigned int)x;
	return true;
}

/* pids=: all, none (or empty), or a list; false if it does not parse. */
static bool report_pids(struct span v, struct satip_pidset *set)
{
	char q[8 + 8 * SATIP_MAX_PIDS];
	struct satip_tune t;
	struct satip_pids_op op;
	size_t i;
	int ret;

	memset(set, 0, sizeof(*set));
	if (!v.n)
		return true;
	if (v.n > sizeof(q) - 8)
		return false;
	for (i = 0; i < v.n; i++)
		if (is_ctl(v.p[i]) || strchr("&%=;", v.p[i]))
			return false;
	snprintf(q, sizeof(q), "pids=%.*s", (int)v.n, v.p);
	ret = satip_query_parse(q, &t, &op, NULL, 0);
	/* more than SATIP_MAX_PIDS: the first of them */
	if (ret && ret != -414)
		return false;
	return !satip_pids_apply(set, &op);
}

int satip_report_parse(const char *s, struct satip_report *r)
{
	static const char *const sat[] = { "freq", "pol", "msys", "mtype",
		"plts", "ro", "sr", "fec" };
	static const char *const ter[] = { "freq", "bw", "msys", "tmode",
		"mtype", "gi", "fec", "plp", "t2id", "sm" };
	static const char *const cab[] = { "freq", "bw", "msys", "mtype",
		"sr", "c2tft", "ds", "plp", "specinv" };
	struct span all = { s, strlen(s) }, it, name, val, f[16];
	struct span ver = { NULL, 0 }, src = { NULL, 0 }, tuner = { NULL, 0 };
	struct span pids = { NULL, 0 };
	bool has_ver = false, has_src = false, has_tuner = false;
	bool has_pids = false;
	const char *const *names;
	struct satip_tune t;
	struct satip_pids_op op;
	unsigned int nf = 0, lock, nnames, i;
	size_t pos = 0, e, eq, qlen = 0;
	char q[512] = "";
	uint32_t msys;

	memset(r, 0, sizeof(*r));
	/* items: the first of each name counts */
	while (pos < all.n) {
		e = span_find(all, pos, ';');
		it = trim(sub(all, pos, e));
		pos = e + 1;
		eq = span_find(it, 0, '=');
		if (eq == it.n)
			continue;
		name = trim(sub(it, 0, eq));
		val = trim(sub(it, eq + 1, it.n));
		if (span_eq(name, "ver") && !has_ver) {
			ver = val;
			has_ver = true;
		} else if (span_eq(name, "src") && !has_src) {
			src = val;
			has_src = true;
		} else if (span_eq(name, "tuner") && !has_tuner) {
			tuner = val;
			has_tuner = true;
		} else if (span_eq(name, "pids") && !has_pids) {
			pids = val;
			has_pids = true;
		}
	}
	if (!has_tuner)
		return -EINVAL;
	for (pos = 0; nf < ARRAY_SIZE(f); nf++) {
		e = span_find(tuner, pos, ',');
		f[nf] = trim(sub(tuner, pos, e));
		if (e == tuner.n) {
			nf++;
			break;
		}
		pos = e + 1;
	}
	if (nf < 4 || !report_num(f[0], 65535, &r->fe) ||
	    !report_num(f[1], 255, &r->sig.level) ||
	    !report_num(f[2], 1, &lock) ||
	    !report_num(f[3], 15, &r->sig.quality))
		return -EINVAL;
	r->sig.lock = lock;

	/* the fields of the system msys names, else of ver= */
	names = sat;
	nnames = ARRAY_SIZE(sat);
	msys = UINT32_MAX;
	if (nf > 6 && report_item(q, sizeof(q), &qlen, "msys", f[6])) {
		satip_query_parse(q, &t, &op, NULL, 0);
		msys = t.msys;
		qlen = 0;
		q[0] = '\0';
	}
	if (msys != UINT32_MAX ? vt_delsys_is_ter(msys) :
	    has_ver && span_eq(ver, "1.1")) {
		names = ter;
		nnames = ARRAY_SIZE(ter);
	} else if (msys != UINT32_MAX ? !vt_delsys_is_sat(msys) :
		   has_ver && span_eq(ver, "1.2")) {
		names = cab;
		nnames = ARRAY_SIZE(cab);
	}
	if (names == sat && has_src)
		report_item(q, sizeof(q), &qlen, "src", src);
	for (i = 0; i < nnames && 4 + i < nf; i++)
		report_item(q, sizeof(q), &qlen, names[i], f[4 + i]);
	if (satip_query_parse(q, &r->tune, &op, NULL, 0))
		memset(&r->tune, 0, sizeof(r->tune));	/* cannot be */

	r->has_pids = has_pids && report_pids(pids, &r->pids);
	return 0;
}

/* ---- a signal as a frontend status -------------------------------------- */

static void stat_set(struct vtp_stats *st, uint8_t scale, int64_t v)
{
	st->len = 1;
	st->stat[0].scale = scale;
	st->stat[0].svalue = v;
}

void satip_signal_to_status(const struct satip_signal *s,
			    struct vtp_status *out)
{
	unsigned int level = s->level > 255 ? 255 : s->level;
	unsigned int quality = s->quality > 15 ? 15 : s->quality;
	long long v;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < VTP_NUM_STATS; i++)
		stat_set(&out->stats[i], FE_SCALE_NOT_AVAILABLE, 0);
	if (s->lock)
		out->status = FE_HAS_SIGNAL | FE_HAS_CARRIER | FE_HAS_VITERBI |
			      FE_HAS_SYNC | FE_HAS_LOCK;
	else if (level)
		out->status = FE_HAS_SIGNAL;
	out->signal = (uint16_t)scale(level, 65535, 255);
	out->snr = (uint16_t)scale(quality, 65535, 15);
	if (level) {
		/* 0.001 dBm, rounded to the nearest (level 0..31: below -65) */
		v = ((long long)level - 32) * 40000;
		v = v >= 0 ? (v + 96) / 192 : -((-v + 96) / 192);
		stat_set(&out->stats[VTP_STAT_STRENGTH], FE_SCALE_DECIBEL,
			 v - 65000);
	}
	if (s->lock)
		stat_set(&out->stats[VTP_STAT_CNR], FE_SCALE_RELATIVE,
			 scale(quality, 65535, 15));
}
