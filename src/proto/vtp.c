// SPDX-License-Identifier: GPL-2.0
/*
 * vtp.c - vtuner wire protocol codec
 *
 * Every field is written and read byte by byte in network order, so the
 * encoding does not depend on the CPU.  Reads go through a cursor that
 * turns any underrun into a sticky error: a decoder never reads past the
 * frame it was given, whatever the counts in it say.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <linux/dvb/frontend.h>

#include "common/text.h"
#include "proto/vtp.h"

#define MAX_ERRNO	4095	/* as the kernel's */
#define HDR_LEN_OFF	8	/* offset of the length in the header */

/* ---- cursors ------------------------------------------------------------ */

struct wr {
	uint8_t *p;
	size_t cap;
	size_t off;
	bool err;
	bool bad;	/* a value breaks a rule of the protocol (-EINVAL) */
};

struct rd {
	const uint8_t *p;
	size_t len;
	size_t off;
	bool err;
};

static uint8_t *wr_take(struct wr *w, size_t n)
{
	uint8_t *p;

	if (w->err || w->cap - w->off < n) {
		w->err = true;
		return NULL;
	}
	p = w->p + w->off;
	w->off += n;
	return p;
}

static void put8(struct wr *w, uint8_t v)
{
	uint8_t *p = wr_take(w, 1);

	if (p)
		p[0] = v;
}

static void put16(struct wr *w, uint16_t v)
{
	uint8_t *p = wr_take(w, 2);

	if (p) {
		p[0] = v >> 8;
		p[1] = v;
	}
}

static void put32(struct wr *w, uint32_t v)
{
	uint8_t *p = wr_take(w, 4);

	if (p) {
		p[0] = v >> 24;
		p[1] = v >> 16;
		p[2] = v >> 8;
		p[3] = v;
	}
}

static void put64(struct wr *w, uint64_t v)
{
	put32(w, v >> 32);
	put32(w, v);
}

static void put_bytes(struct wr *w, const void *src, size_t n)
{
	uint8_t *p = wr_take(w, n);

	if (p && n)
		memcpy(p, src, n);
}

static const uint8_t *rd_take(struct rd *r, size_t n)
{
	const uint8_t *p;

	if (r->err || r->len - r->off < n) {
		r->err = true;
		return NULL;
	}
	p = r->p + r->off;
	r->off += n;
	return p;
}

static uint8_t get8(struct rd *r)
{
	const uint8_t *p = rd_take(r, 1);

	return p ? p[0] : 0;
}

static uint16_t get16(struct rd *r)
{
	const uint8_t *p = rd_take(r, 2);

	return p ? (uint16_t)(p[0] << 8 | p[1]) : 0;
}

static uint32_t get32(struct rd *r)
{
	const uint8_t *p = rd_take(r, 4);

	if (!p)
		return 0;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get64(struct rd *r)
{
	uint64_t hi = get32(r);

	return hi << 32 | get32(r);
}

static void get_bytes(struct rd *r, void *dst, size_t n)
{
	const uint8_t *p = rd_take(r, n);

	if (p && n)
		memcpy(dst, p, n);
}

/*
 * A length-prefixed string (u8 length, no NUL on the wire) without a
 * control character (common/text.h).
 */
static void put_str(struct wr *w, const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	if (n > max) {
		w->err = true;
		return;
	}
	if (!vt_text_ok(s, n))
		w->bad = true;
	put8(w, n);
	put_bytes(w, s, n);
}

/* dst has room for max + 1 bytes; a NUL or control character is malformed. */
static void get_str(struct rd *r, char *dst, size_t max)
{
	size_t n = get8(r);

	if (n > max) {
		r->err = true;
		return;
	}
	get_bytes(r, dst, n);
	if (r->err)
		return;
	dst[n] = '\0';
	if (strlen(dst) != n || !vt_text_ok(dst, n))
		r->err = true;
}

/* ---- frames ------------------------------------------------------------- */

static void frame_begin(struct wr *w, uint8_t *buf, size_t cap,
			uint16_t type, uint32_t reqid)
{
	*w = (struct wr){ .p = buf, .cap = cap };
	put16(w, VTP_MAGIC);
	put16(w, type);
	put16(w, 0);		/* flags */
	put16(w, 0);		/* reserved */
	put32(w, 0);		/* length, patched by frame_end() */
	put32(w, reqid);
}

/* bad: the message itself broke a protocol limit (-EINVAL). */
static int frame_end(struct wr *w, bool bad)
{
	struct wr len = { .p = w->p + HDR_LEN_OFF, .cap = 4 };

	if (bad || w->bad)
		return -EINVAL;
	if (w->err)
		return -ENOBUFS;
	put32(&len, w->off - VTP_HDR_LEN);
	return w->off;
}

int vtp_decode_hdr(const uint8_t *buf, size_t len, struct vtp_hdr *hdr)
{
	struct rd r = { .p = buf, .len = len };

	if (len < VTP_HDR_LEN)
		return 0;
	if (get16(&r) != VTP_MAGIC)
		return -EBADMSG;
	hdr->type = get16(&r);
	hdr->flags = get16(&r);
	get16(&r);		/* reserved */
	hdr->len = get32(&r);
	hdr->reqid = get32(&r);
	if (hdr->len > (hdr->type == VTP_SEALED ? VTP_SEALED_MAX_PAYLOAD :
			VTP_MAX_PAYLOAD))
		return -EMSGSIZE;
	return VTP_HDR_LEN;
}

int vtp_encode_hdr(uint8_t *buf, size_t cap, uint16_t type,
		   uint32_t payload_len, uint32_t reqid)
{
	struct wr w;
	struct wr len;

	frame_begin(&w, buf, cap, type, reqid);
	if (w.err)
		return -ENOBUFS;
	len = (struct wr){ .p = buf + HDR_LEN_OFF, .cap = 4 };
	put32(&len, payload_len);
	return VTP_HDR_LEN;
}

/* ---- HELLO, HELLO_REPLY ------------------------------------------------- */

int vtp_encode_hello(uint8_t *buf, size_t cap, uint32_t reqid,
		     const struct vtp_hello *h)
{
	struct wr w;

	frame_begin(&w, buf, cap, VTP_HELLO, reqid);
	put16(&w, h->version_min);
	put16(&w, h->version_max);
	put32(&w, h->features);
	put_str(&w, h->name, VTP_PEER_NAME_MAX);
	if (h->has_nonce)
		put_bytes(&w, h->nonce, VTP_NONCE_LEN);
	return frame_end(&w, strnlen(h->name, sizeof(h->name)) >
			 VTP_PEER_NAME_MAX);
}

/* The appended nonce of HELLO / HELLO_REPLY, when there is room for it. */
static void dec_nonce(struct rd *r, bool *has, uint8_t *nonce)
{
	*has = !r->err && r->len - r->off >= VTP_NONCE_LEN;
	if (*has)
		get_bytes(r, nonce, VTP_NONCE_LEN);
	else
		memset(nonce, 0, VTP_NONCE_LEN);
}

/* HELLO layouts are frozen: later versions may only append fields. */
static bool dec_hello(struct rd *r, struct vtp_hello *h)
{
	h->version_min = get16(r);
	h->version_max = get16(r);
	h->features = get32(r);
	get_str(r, h->name, VTP_PEER_NAME_MAX);
	dec_nonce(r, &h->has_nonce, h->nonce);
	r->off = r->len;	/* later appended fields are ignored */
	return true;
}

int vtp_encode_hello_reply(uint8_t *buf, size_t cap, uint32_t reqid,
			   const struct vtp_hello_reply *h)
{
	struct wr w;

	frame_begin(&w, buf, cap, VTP_HELLO_REPLY, reqid);
	put16(&w, h->version);
	put16(&w, 0);
	put32(&w, h->features);
	put_str(&w, h->name, VTP_PEER_NAME_MAX);
	if (h->has_nonce)
		put_bytes(&w, h->nonce, VTP_NONCE_LEN);
	return frame_end(&w, strnlen(h->name, sizeof(h->name)) >
			 VTP_PEER_NAME_MAX);
}

static bool dec_hello_reply(struct rd *r, struct vtp_hello_reply *h)
{
	h->version = get16(r);
	get16(r);
	h->features = get32(r);
	get_str(r, h->name, VTP_PEER_NAME_MAX);
	dec_nonce(r, &h->has_nonce, h->nonce);
	r->off = r->len;
	return true;
}

/* ---- AUTH, AUTH_REPLY --------------------------------------------------- */

static int encode_mac(uint8_t *buf, size_t cap, uint16_t type,
		      uint32_t reqid, const struct vtp_auth *a)
{
	struct wr w;

	frame_begin(&w, buf, cap, type, reqid);
	put_bytes(&w, a->mac, VTP_MAC_LEN);
	return frame_end(&w, false);
}

int vtp_encode_auth(uint8_t *buf, size_t cap, uint32_t reqid,
		    const struct vtp_auth *a)
{
	return encode_mac(buf, cap, VTP_AUTH, reqid, a);
}

int vtp_encode_auth_reply(uint8_t *buf, size_t cap, uint32_t reqid,
			  const struct vtp_auth *a)
{
	return encode_mac(buf, cap, VTP_AUTH_REPLY, reqid, a);
}

uint16_t vtp_choose_version(uint16_t client_min, uint16_t client_max)
{
	uint16_t v = client_max < VTP_VERSION_MAX ? client_max : VTP_VERSION_MAX;

	if (v < client_min || v < VTP_VERSION_MIN)
		return 0;
	return v;
}

/* ---- OK, ERROR, KEEPALIVE ----------------------------------------------- */

static int encode_empty(uint8_t *buf, size_t cap, uint16_t type,
			uint32_t reqid)
{
	struct wr w;

	frame_begin(&w, buf, cap, type, reqid);
	return frame_end(&w, false);
}

int vtp_encode_ok(uint8_t *buf, size_t cap, uint32_t reqid)
{
	return encode_empty(buf, cap, VTP_OK, reqid);
}

int vtp_encode_error(uint8_t *buf, size_t cap, const struct vtp_error *e)
{
	size_t n = strnlen(e->msg, sizeof(e->msg));
	struct wr w;

	frame_begin(&w, buf, cap, VTP_ERROR, e->reqid);
	put32(&w, e->err);
	put32(&w, e->reqid);
	put16(&w, n);
	put_bytes(&w, e->msg, n);
	return frame_end(&w, e->err == 0 || e->err > MAX_ERRNO ||
			 n > VTP_ERRMSG_MAX || !vt_text_ok(e->msg, n));
}

static bool dec_error(struct rd *r, struct vtp_error *e)
{
	size_t n;

	e->err = get32(r);
	e->reqid = get32(r);
	n = get16(r);
	if (n > VTP_ERRMSG_MAX)
		return false;
	get_bytes(r, e->msg, n);
	e->msg[r->err ? 0 : n] = '\0';
	return e->err != 0 && e->err <= MAX_ERRNO && strlen(e->msg) == n &&
	       vt_text_ok(e->msg, n);
}

static int encode_stamp(uint8_t *buf, size_t cap, uint16_t type,
			uint32_t reqid, uint64_t stamp)
{
	struct wr w;

	frame_begin(&w, buf, cap, type, reqid);
	put64(&w, stamp);
	return frame_end(&w, false);
}

int vtp_encode_keepalive(uint8_t *buf, size_t cap, uint32_t reqid,
			 uint64_t stamp)
{
	return encode_stamp(buf, cap, VTP_KEEPALIVE, reqid, stamp);
}

int vtp_encode_keepalive_reply(uint8_t *buf, size_t cap, uint32_t reqid,
			       uint64_t stamp)
{
	return encode_stamp(buf, cap, VTP_KEEPALIVE_REPLY, reqid, stamp);
}

/* ---- tuners ------------------------------------------------------------- */

int vtp_encode_list_tuners(uint8_t *buf, size_t cap, uint32_t reqid)
{
	return encode_empty(buf, cap, VTP_LIST_TUNERS, reqid);
}

static bool bad_tuner(const struct vtp_tuner *t)
{
	return t->num_delsys > VTP_MAX_DELSYS ||
	       strnlen(t->name, sizeof(t->name)) > VTP_NAME_MAX;
}

static void enc_tuner(struct wr *w, const struct vtp_tuner *t)
{
	int i;

	put16(w, t->index);
	put8(w, t->flags);
	put8(w, t->num_delsys);
	for (i = 0; i < VTP_MAX_DELSYS; i++)
		put8(w, i < t->num_delsys ? t->delsys[i] : 0);
	put32(w, t->caps);
	put32(w, t->freq_min);
	put32(w, t->freq_max);
	put32(w, t->freq_step);
	put32(w, t->freq_tolerance);
	put32(w, t->srate_min);
	put32(w, t->srate_max);
	put32(w, t->srate_tolerance);
	put_str(w, t->name, VTP_NAME_MAX);
}

int vtp_encode_tuner_list(uint8_t *buf, size_t cap, uint32_t reqid,
			  const struct vtp_tuner_list *l)
{
	bool bad = l->num > VTP_MAX_TUNERS;
	struct wr w;
	int i;

	frame_begin(&w, buf, cap, VTP_TUNER_LIST, reqid);
	put16(&w, l->num);
	put16(&w, 0);
	for (i = 0; !bad && i < l->num; i++) {
		bad = bad_tuner(&l->tuner[i]);
		enc_tuner(&w, &l->tuner[i]);
	}
	return frame_end(&w, bad);
}

static bool dec_tuner(struct rd *r, struct vtp_tuner *t)
{
	t->index = get16(r);
	t->flags = get8(r);
	t->num_delsys = get8(r);
	get_bytes(r, t->delsys, VTP_MAX_DELSYS);
	if (t->num_delsys > VTP_MAX_DELSYS)
		return false;
	memset(t->delsys + t->num_delsys, 0, VTP_MAX_DELSYS - t->num_delsys);
	t->caps = get32(r);
	t->freq_min = get32(r);
	t->freq_max = get32(r);
	t->freq_step = get32(r);
	t->freq_tolerance = get32(r);
	t->srate_min = get32(r);
	t->srate_max = get32(r);
	t->srate_tolerance = get32(r);
	get_str(r, t->name, VTP_NAME_MAX);
	return true;
}

static bool dec_tuner_list(struct rd *r, struct vtp_tuner_list *l)
{
	int i;

	l->num = get16(r);
	get16(r);
	if (l->num > VTP_MAX_TUNERS)
		return false;
	for (i = 0; i < l->num && !r->err; i++)
		if (!dec_tuner(r, &l->tuner[i]))
			return false;
	return true;
}

int vtp_encode_open_tuner(uint8_t *buf, size_t cap, uint32_t reqid,
			  uint16_t index)
{
	struct wr w;

	frame_begin(&w, buf, cap, VTP_OPEN_TUNER, reqid);
	put16(&w, index);
	put16(&w, 0);
	return frame_end(&w, false);
}

static bool dec_open_tuner(struct rd *r, uint16_t *index)
{
	*index = get16(r);
	get16(r);
	return true;
}

int vtp_encode_open_reply(uint8_t *buf, size_t cap, uint32_t reqid,
			  const struct vtp_open_reply *o)
{
	struct wr w;

	frame_begin(&w, buf, cap, VTP_OPEN_REPLY, reqid);
	put16(&w, o->index);
	put16(&w, 0);
	put_bytes(&w, o->token, VTP_TOKEN_LEN);
	return frame_end(&w, false);
}

static bool dec_open_reply(struct rd *r, struct vtp_open_reply *o)
{
	o->index = get16(r);
	get16(r);
	get_bytes(r, o->token, VTP_TOKEN_LEN);
	return true;
}

int vtp_encode_close_tuner(uint8_t *buf, size_t cap, uint32_t reqid)
{
	return encode_empty(buf, cap, VTP_CLOSE_TUNER, reqid);
}

/* ---- frontend control --------------------------------------------------- */

int vtp_encode_tune(uint8_t *buf, size_t cap, uint32_t reqid,
		    const struct vtp_tune *t)
{
	bool bad = t->num > VTP_MAX_PROPS;
	struct wr w;
	int i;

	frame_begin(&w, buf, cap, VTP_TUNE, reqid);
	put32(&w, t->seq);
	put16(&w, t->num);
	put16(&w, 0);
	for (i = 0; !bad && i < t->num; i++) {
		put32(&w, t->props[i].cmd);
		put32(&w, t->props[i].data);
	}
	return frame_end(&w, bad);
}

static bool dec_tune(struct rd *r, struct vtp_tune *t)
{
	int i;

	t->seq = get32(r);
	t->num = get16(r);
	get16(r);
	if (t->num > VTP_MAX_PROPS)
		return false;
	for (i = 0; i < t->num; i++) {
		t->props[i].cmd = get32(r);
		t->props[i].data = get32(r);
	}
	return true;
}

static int encode_u8(uint8_t *buf, size_t cap, uint16_t type,
		     uint32_t reqid, uint8_t v)
{
	struct wr w;

	frame_begin(&w, buf, cap, type, reqid);
	put8(&w, v);
	return frame_end(&w, false);
}

int vtp_encode_set_tone(uint8_t *buf, size_t cap, uint32_t reqid,
			uint8_t tone)
{
	return encode_u8(buf, cap, VTP_SET_TONE, reqid, tone);
}

int vtp_encode_set_voltage(uint8_t *buf, size_t cap, uint32_t reqid,
			   uint8_t voltage)
{
	return encode_u8(buf, cap, VTP_SET_VOLTAGE, reqid, voltage);
}

int vtp_encode_enable_high_voltage(uint8_t *buf, size_t cap, uint32_t reqid,
				   uint8_t on)
{
	return encode_u8(buf, cap, VTP_ENABLE_HIGH_VOLTAGE, reqid, on);
}

int vtp_encode_diseqc_burst(uint8_t *buf, size_t cap, uint32_t reqid,
			    uint8_t burst)
{
	return encode_u8(buf, cap, VTP_DISEQC_BURST, reqid, burst);
}

int vtp_encode_diseqc_master(uint8_t *buf, size_t cap, uint32_t reqid,
			     const struct vtp_diseqc *d)
{
	bool bad = d->len < VTP_DISEQC_MIN || d->len > VTP_DISEQC_MAX;
	struct wr w;

	frame_begin(&w, buf, cap, VTP_DISEQC_MASTER, reqid);
	put8(&w, d->len);
	if (!bad)
		put_bytes(&w, d->msg, d->len);
	return frame_end(&w, bad);
}

static bool dec_diseqc(struct rd *r, struct vtp_diseqc *d)
{
	d->len = get8(r);
	if (d->len < VTP_DISEQC_MIN || d->len > VTP_DISEQC_MAX)
		return false;
	memset(d->msg, 0, sizeof(d->msg));
	get_bytes(r, d->msg, d->len);
	return true;
}

int vtp_encode_set_pids(uint8_t *buf, size_t cap, uint32_t reqid,
			const struct vtp_pids *p)
{
	bool bad = p->num > VTP_MAX_PIDS;
	struct wr w;
	int i;

	frame_begin(&w, buf, cap, VTP_SET_PIDS, reqid);
	put16(&w, p->num);
	put16(&w, 0);
	for (i = 0; !bad && i < p->num; i++) {
		bad = p->pid[i] > VTP_PID_FULL_TS;
		put16(&w, p->pid[i]);
	}
	return frame_end(&w, bad);
}

static bool dec_pids(struct rd *r, struct vtp_pids *p)
{
	int i;

	p->num = get16(r);
	get16(r);
	if (p->num > VTP_MAX_PIDS)
		return false;
	for (i = 0; i < p->num; i++) {
		p->pid[i] = get16(r);
		if (p->pid[i] > VTP_PID_FULL_TS)
			return false;
	}
	return true;
}

/* ---- STATUS ------------------------------------------------------------- */

static bool bad_stats(const struct vtp_stats *s)
{
	int i;

	if (s->len > VTP_MAX_STAT_LAYERS)
		return true;
	for (i = 0; i < s->len; i++)
		if (s->stat[i].scale > FE_SCALE_COUNTER)
			return true;
	return false;
}

/* Fixed block: u8 len, u8 scale[4], 3 reserved bytes, u64 value[4]. */
static void enc_stats(struct wr *w, const struct vtp_stats *s)
{
	int i;

	put8(w, s->len);
	for (i = 0; i < VTP_MAX_STAT_LAYERS; i++)
		put8(w, i < s->len ? s->stat[i].scale : 0);
	put8(w, 0);
	put16(w, 0);
	for (i = 0; i < VTP_MAX_STAT_LAYERS; i++)
		put64(w, i < s->len ? s->stat[i].uvalue : 0);
}

/* Layers past len are cleared whatever the wire holds. */
static bool dec_stats(struct rd *r, struct vtp_stats *s)
{
	uint64_t v;
	int i;

	s->len = get8(r);
	for (i = 0; i < VTP_MAX_STAT_LAYERS; i++)
		s->stat[i].scale = get8(r);
	get8(r);
	get16(r);
	for (i = 0; i < VTP_MAX_STAT_LAYERS; i++) {
		v = get64(r);
		if (i >= s->len)
			s->stat[i] = (struct vtp_stat){ 0 };
		else
			s->stat[i].uvalue = v;
	}
	return !bad_stats(s);
}

int vtp_encode_status(uint8_t *buf, size_t cap, const struct vtp_status *s)
{
	bool bad = false;
	struct wr w;
	int i;

	frame_begin(&w, buf, cap, VTP_STATUS, 0);
	put32(&w, s->seq);
	put32(&w, s->status);
	put32(&w, s->ber);
	put16(&w, s->signal);
	put16(&w, s->snr);
	put32(&w, s->ucblocks);
	put32(&w, 0);
	for (i = 0; i < VTP_NUM_STATS; i++) {
		bad |= bad_stats(&s->stats[i]);
		enc_stats(&w, &s->stats[i]);
	}
	return frame_end(&w, bad);
}

static bool dec_status(struct rd *r, struct vtp_status *s)
{
	int i;

	s->seq = get32(r);
	s->status = get32(r);
	s->ber = get32(r);
	s->signal = get16(r);
	s->snr = get16(r);
	s->ucblocks = get32(r);
	get32(r);
	for (i = 0; i < VTP_NUM_STATS; i++)
		if (!dec_stats(r, &s->stats[i]))
			return false;
	return true;
}

/* ---- data connection ---------------------------------------------------- */

int vtp_encode_data_attach(uint8_t *buf, size_t cap, uint32_t reqid,
			   const struct vtp_attach *a)
{
	struct wr w;

	frame_begin(&w, buf, cap, VTP_DATA_ATTACH, reqid);
	put_bytes(&w, a->token, VTP_TOKEN_LEN);
	if (a->has_mac)
		put_bytes(&w, a->mac, VTP_MAC_LEN);
	return frame_end(&w, false);
}

/* 16 bytes, or 48 with the MAC of a session with AUTH. */
static bool dec_attach(struct rd *r, struct vtp_attach *a)
{
	get_bytes(r, a->token, VTP_TOKEN_LEN);
	a->has_mac = !r->err && r->len - r->off == VTP_MAC_LEN;
	if (a->has_mac)
		get_bytes(r, a->mac, VTP_MAC_LEN);
	else
		memset(a->mac, 0, VTP_MAC_LEN);
	return true;
}

static bool bad_ts_len(size_t len)
{
	return len == 0 || len % VTP_TS_PACKET ||
	       len / VTP_TS_PACKET > VTP_MAX_TS_PACKETS;
}

int vtp_encode_ts_hdr(uint8_t *buf, size_t cap, uint32_t seq, size_t ts_len)
{
	struct wr w;
	int ret;

	if (bad_ts_len(ts_len))
		return -EINVAL;
	frame_begin(&w, buf, cap, VTP_TS_DATA, 0);
	put32(&w, seq);
	ret = frame_end(&w, false);
	if (ret > 0) {
		w = (struct wr){ .p = buf + HDR_LEN_OFF, .cap = 4 };
		put32(&w, 4 + ts_len);
	}
	return ret;
}

int vtp_encode_ts(uint8_t *buf, size_t cap, uint32_t seq,
		  const uint8_t *data, size_t len)
{
	int ret = vtp_encode_ts_hdr(buf, cap, seq, len);

	if (ret < 0)
		return ret;
	if (cap - ret < len)
		return -ENOBUFS;
	memcpy(buf + ret, data, len);
	return ret + len;
}

static bool dec_ts(struct rd *r, struct vtp_ts *t)
{
	t->seq = get32(r);
	t->len = r->len - r->off;
	t->data = rd_take(r, t->len);
	return !bad_ts_len(t->len);
}

/* ---- dispatch ----------------------------------------------------------- */

/* 0, -EPROTO for a malformed payload or -ENOTSUP for an unknown type. */
/* ---- the message table --------------------------------------------------- */

/*
 * Every message type, once: its name, whether it is a request (answered
 * with its reply, OK or ERROR), and how its payload is encoded from and
 * decoded into struct vtp_msg.  SEALED has no codec here: vtp_seal.c
 * seals and opens it, and anywhere else it is an unknown type.
 */
struct vtp_msg_codec {
	struct vtp_msg_info info;
	int (*encode)(uint8_t *buf, size_t cap, const struct vtp_msg *m);
	bool (*decode)(struct rd *r, struct vtp_msg *m);
};

static int me_hello(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_hello(b, cap, m->hdr.reqid, &m->u.hello);
}

static bool md_hello(struct rd *r, struct vtp_msg *m)
{
	return dec_hello(r, &m->u.hello);
}

static int me_hello_reply(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_hello_reply(b, cap, m->hdr.reqid, &m->u.hello_reply);
}

static bool md_hello_reply(struct rd *r, struct vtp_msg *m)
{
	return dec_hello_reply(r, &m->u.hello_reply);
}

static int me_empty(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return encode_empty(b, cap, m->hdr.type, m->hdr.reqid);
}

static bool md_empty(struct rd *r, struct vtp_msg *m)
{
	(void)r;
	(void)m;
	return true;
}

static int me_mac(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return encode_mac(b, cap, m->hdr.type, m->hdr.reqid, &m->u.auth);
}

static bool md_mac(struct rd *r, struct vtp_msg *m)
{
	get_bytes(r, m->u.auth.mac, VTP_MAC_LEN);
	return true;
}

static int me_error(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_error(b, cap, &m->u.error);
}

static bool md_error(struct rd *r, struct vtp_msg *m)
{
	return dec_error(r, &m->u.error);
}

static int me_stamp(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return encode_stamp(b, cap, m->hdr.type, m->hdr.reqid, m->u.stamp);
}

static bool md_stamp(struct rd *r, struct vtp_msg *m)
{
	m->u.stamp = get64(r);
	return true;
}

static int me_tuner_list(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_tuner_list(b, cap, m->hdr.reqid, &m->u.tuners);
}

static bool md_tuner_list(struct rd *r, struct vtp_msg *m)
{
	return dec_tuner_list(r, &m->u.tuners);
}

static int me_open_tuner(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_open_tuner(b, cap, m->hdr.reqid, m->u.index);
}

static bool md_open_tuner(struct rd *r, struct vtp_msg *m)
{
	return dec_open_tuner(r, &m->u.index);
}

static int me_open_reply(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_open_reply(b, cap, m->hdr.reqid, &m->u.open_reply);
}

static bool md_open_reply(struct rd *r, struct vtp_msg *m)
{
	return dec_open_reply(r, &m->u.open_reply);
}

static int me_tune(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_tune(b, cap, m->hdr.reqid, &m->u.tune);
}

static bool md_tune(struct rd *r, struct vtp_msg *m)
{
	return dec_tune(r, &m->u.tune);
}

static int me_u8(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return encode_u8(b, cap, m->hdr.type, m->hdr.reqid, m->u.value);
}

static bool md_u8(struct rd *r, struct vtp_msg *m)
{
	m->u.value = get8(r);
	return true;
}

static int me_diseqc(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_diseqc_master(b, cap, m->hdr.reqid, &m->u.diseqc);
}

static bool md_diseqc(struct rd *r, struct vtp_msg *m)
{
	return dec_diseqc(r, &m->u.diseqc);
}

static int me_pids(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_set_pids(b, cap, m->hdr.reqid, &m->u.pids);
}

static bool md_pids(struct rd *r, struct vtp_msg *m)
{
	return dec_pids(r, &m->u.pids);
}

static int me_status(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_status(b, cap, &m->u.status);
}

static bool md_status(struct rd *r, struct vtp_msg *m)
{
	return dec_status(r, &m->u.status);
}

static int me_attach(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_data_attach(b, cap, m->hdr.reqid, &m->u.attach);
}

static bool md_attach(struct rd *r, struct vtp_msg *m)
{
	return dec_attach(r, &m->u.attach);
}

static int me_ts(uint8_t *b, size_t cap, const struct vtp_msg *m)
{
	return vtp_encode_ts(b, cap, m->u.ts.seq, m->u.ts.data, m->u.ts.len);
}

static bool md_ts(struct rd *r, struct vtp_msg *m)
{
	return dec_ts(r, &m->u.ts);
}

#define MSG(t, req, enc, dec) { { VTP_##t, #t, req }, enc, dec }
/* the most frequent first: they are looked up by a linear search */
static const struct vtp_msg_codec msg_table[] = {
	MSG(TS_DATA,		false,	me_ts,		md_ts),
	MSG(SEALED,		false,	NULL,		NULL),
	MSG(STATUS,		false,	me_status,	md_status),
	MSG(KEEPALIVE,		true,	me_stamp,	md_stamp),
	MSG(KEEPALIVE_REPLY,	false,	me_stamp,	md_stamp),
	MSG(OK,			false,	me_empty,	md_empty),
	MSG(ERROR,		false,	me_error,	md_error),
	MSG(HELLO,		true,	me_hello,	md_hello),
	MSG(HELLO_REPLY,	false,	me_hello_reply,	md_hello_reply),
	MSG(AUTH,		true,	me_mac,		md_mac),
	MSG(AUTH_REPLY,		false,	me_mac,		md_mac),
	MSG(LIST_TUNERS,	true,	me_empty,	md_empty),
	MSG(TUNER_LIST,		false,	me_tuner_list,	md_tuner_list),
	MSG(OPEN_TUNER,		true,	me_open_tuner,	md_open_tuner),
	MSG(OPEN_REPLY,		false,	me_open_reply,	md_open_reply),
	MSG(CLOSE_TUNER,	true,	me_empty,	md_empty),
	MSG(TUNE,		true,	me_tune,	md_tune),
	MSG(SET_TONE,		true,	me_u8,		md_u8),
	MSG(SET_VOLTAGE,	true,	me_u8,		md_u8),
	MSG(ENABLE_HIGH_VOLTAGE, true,	me_u8,		md_u8),
	MSG(DISEQC_MASTER,	true,	me_diseqc,	md_diseqc),
	MSG(DISEQC_BURST,	true,	me_u8,		md_u8),
	MSG(SET_PIDS,		true,	me_pids,	md_pids),
	MSG(DATA_ATTACH,	true,	me_attach,	md_attach),
};
#undef MSG

static const struct vtp_msg_codec *msg_codec(uint16_t type)
{
	size_t i;

	for (i = 0; i < sizeof(msg_table) / sizeof(msg_table[0]); i++)
		if (msg_table[i].info.type == type)
			return &msg_table[i];
	return NULL;
}

const struct vtp_msg_info *vtp_msg_info(uint16_t type)
{
	const struct vtp_msg_codec *c = msg_codec(type);

	return c ? &c->info : NULL;
}

bool vtp_is_request(uint16_t type)
{
	const struct vtp_msg_codec *c = msg_codec(type);

	return c && c->info.request;
}

const char *vtp_type_name(uint16_t type)
{
	const struct vtp_msg_codec *c = msg_codec(type);

	return c ? c->info.name : "?";
}

static int dec_payload(struct rd *r, struct vtp_msg *m)
{
	const struct vtp_msg_codec *c = msg_codec(m->hdr.type);
	bool ok;

	if (!c || !c->decode)
		return -ENOTSUP;
	ok = c->decode(r, m);
	return ok && !r->err && r->off == r->len ? 0 : -EPROTO;
}

int vtp_decode(const uint8_t *buf, size_t len, struct vtp_msg *out)
{
	struct rd r;
	int ret;

	ret = vtp_decode_hdr(buf, len, &out->hdr);
	if (ret <= 0)
		return ret;
	out->frame_len = VTP_HDR_LEN + out->hdr.len;
	if (len < out->frame_len)
		return 0;
	r = (struct rd){ .p = buf + VTP_HDR_LEN, .len = out->hdr.len };
	ret = dec_payload(&r, out);
	return ret ? ret : (int)out->frame_len;
}

int vtp_encode(uint8_t *buf, size_t cap, const struct vtp_msg *m)
{
	const struct vtp_msg_codec *c = msg_codec(m->hdr.type);

	return c && c->encode ? c->encode(buf, cap, m) : -EINVAL;
}
