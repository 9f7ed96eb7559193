// SPDX-License-Identifier: GPL-2.0
/*
 * query.c - the SAT>IP query: parsing, formatting, DVB properties, PID
 * sets.  See query.h; attributes and values as SAT>IP 1.2.2 section 3.5.11
 * lists them, with the isi/plsm/plsc extensions in use.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/dvb/frontend.h>

#include "common/dvb.h"
#include "satip/out.h"
#include "satip/query.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(a) (1U << (a))

/* ---- tokens ------------------------------------------------------------- */

/*
 * Every token value of SAT>IP, both ways: parsing takes any entry of the
 * attribute, formatting the first entry of a value.
 */
static const struct tok {
	uint8_t attr;		/* enum satip_attr */
	const char *name;
	uint32_t value;
} toks[] = {
	{ SATIP_A_MSYS,	"dvbs",		SYS_DVBS },
	{ SATIP_A_MSYS,	"dvbs2",	SYS_DVBS2 },
	{ SATIP_A_MSYS,	"dvbt",		SYS_DVBT },
	{ SATIP_A_MSYS,	"dvbt2",	SYS_DVBT2 },
	{ SATIP_A_MSYS,	"dvbc",		SYS_DVBC_ANNEX_A },
	{ SATIP_A_MSYS,	"dvbc2",	SATIP_SYS_DVBC2 },

	{ SATIP_A_POL,	"h",		SATIP_POL_H },
	{ SATIP_A_POL,	"v",		SATIP_POL_V },
	{ SATIP_A_POL,	"l",		SATIP_POL_L },
	{ SATIP_A_POL,	"r",		SATIP_POL_R },

	{ SATIP_A_MTYPE, "qpsk",	QPSK },
	{ SATIP_A_MTYPE, "8psk",	PSK_8 },
	{ SATIP_A_MTYPE, "16apsk",	APSK_16 },
	{ SATIP_A_MTYPE, "32apsk",	APSK_32 },
	{ SATIP_A_MTYPE, "16qam",	QAM_16 },
	{ SATIP_A_MTYPE, "32qam",	QAM_32 },
	{ SATIP_A_MTYPE, "64qam",	QAM_64 },
	{ SATIP_A_MTYPE, "128qam",	QAM_128 },
	{ SATIP_A_MTYPE, "256qam",	QAM_256 },

	{ SATIP_A_FEC,	"12",		FEC_1_2 },
	{ SATIP_A_FEC,	"23",		FEC_2_3 },
	{ SATIP_A_FEC,	"34",		FEC_3_4 },
	{ SATIP_A_FEC,	"35",		FEC_3_5 },
	{ SATIP_A_FEC,	"45",		FEC_4_5 },
	{ SATIP_A_FEC,	"56",		FEC_5_6 },
	{ SATIP_A_FEC,	"78",		FEC_7_8 },
	{ SATIP_A_FEC,	"89",		FEC_8_9 },
	{ SATIP_A_FEC,	"910",		FEC_9_10 },

	{ SATIP_A_RO,	"0.35",		ROLLOFF_35 },
	{ SATIP_A_RO,	"0.25",		ROLLOFF_25 },
	{ SATIP_A_RO,	"0.20",		ROLLOFF_20 },
	{ SATIP_A_RO,	"0.2",		ROLLOFF_20 },

	{ SATIP_A_PLTS,	"on",		PILOT_ON },
	{ SATIP_A_PLTS,	"off",		PILOT_OFF },

	{ SATIP_A_BW,	"5",		5000000 },
	{ SATIP_A_BW,	"6",		6000000 },
	{ SATIP_A_BW,	"7",		7000000 },
	{ SATIP_A_BW,	"8",		8000000 },
	{ SATIP_A_BW,	"10",		10000000 },
	{ SATIP_A_BW,	"1.712",	1712000 },

	{ SATIP_A_TMODE, "1k",		TRANSMISSION_MODE_1K },
	{ SATIP_A_TMODE, "2k",		TRANSMISSION_MODE_2K },
	{ SATIP_A_TMODE, "4k",		TRANSMISSION_MODE_4K },
	{ SATIP_A_TMODE, "8k",		TRANSMISSION_MODE_8K },
	{ SATIP_A_TMODE, "16k",		TRANSMISSION_MODE_16K },
	{ SATIP_A_TMODE, "32k",		TRANSMISSION_MODE_32K },

	{ SATIP_A_GI,	"14",		GUARD_INTERVAL_1_4 },
	{ SATIP_A_GI,	"18",		GUARD_INTERVAL_1_8 },
	{ SATIP_A_GI,	"116",		GUARD_INTERVAL_1_16 },
	{ SATIP_A_GI,	"132",		GUARD_INTERVAL_1_32 },
	{ SATIP_A_GI,	"1128",		GUARD_INTERVAL_1_128 },
	{ SATIP_A_GI,	"19128",	GUARD_INTERVAL_19_128 },
	{ SATIP_A_GI,	"19256",	GUARD_INTERVAL_19_256 },

	{ SATIP_A_PLSM,	"root",		SATIP_PLSM_ROOT },
	{ SATIP_A_PLSM,	"gold",		SATIP_PLSM_GOLD },
	{ SATIP_A_PLSM,	"combo",	SATIP_PLSM_COMBO },
};

static bool tok_parse(unsigned int attr, const char *s, uint32_t *value)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(toks); i++)
		if (toks[i].attr == attr && !strcmp(toks[i].name, s)) {
			*value = toks[i].value;
			return true;
		}
	return false;
}

/* The token of a value, "" if it has none. */
static const char *tok_name(unsigned int attr, uint32_t value)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(toks); i++)
		if (toks[i].attr == attr && toks[i].value == value)
			return toks[i].name;
	return "";
}

const char *satip_tok_name(enum satip_attr a, uint32_t value)
{
	const char *n = tok_name(a, value);

	return *n ? n : NULL;
}

/* ---- attributes --------------------------------------------------------- */

enum kind {
	K_TOKEN,	/* one of toks[] */
	K_UINT,		/* decimal, min..max */
	K_MILLI,	/* decimal with up to 3 (rounded) decimals, x 1000 */
};

static const struct attr {
	const char *name;
	uint8_t id;		/* enum satip_attr */
	uint8_t kind;
	uint32_t min, max;	/* K_UINT, K_MILLI (after x 1000) */
	size_t off;		/* of the field in struct satip_tune */
} attrs[] = {
#define A(n, id, k, min, max) \
	{ #n, SATIP_A_##id, k, min, max, offsetof(struct satip_tune, n) }
	A(src,		SRC,	K_UINT,		1, 255),
	A(fe,		FE,	K_UINT,		1, 65535),
	A(freq,		FREQ,	K_MILLI,	1, 100000000),	/* kHz */
	A(pol,		POL,	K_TOKEN,	0, 0),
	A(ro,		RO,	K_TOKEN,	0, 0),
	A(msys,		MSYS,	K_TOKEN,	0, 0),
	A(mtype,	MTYPE,	K_TOKEN,	0, 0),
	A(plts,		PLTS,	K_TOKEN,	0, 0),
	A(sr,		SR,	K_MILLI,	1, 100000000),	/* sym/s */
	A(fec,		FEC,	K_TOKEN,	0, 0),
	A(isi,		ISI,	K_UINT,		0, 255),
	A(plsm,		PLSM,	K_TOKEN,	0, 0),
	A(plsc,		PLSC,	K_UINT,		0, 262143),
	A(bw,		BW,	K_TOKEN,	0, 0),
	A(tmode,	TMODE,	K_TOKEN,	0, 0),
	A(gi,		GI,	K_TOKEN,	0, 0),
	A(plp,		PLP,	K_UINT,		0, 255),
	A(t2id,		T2ID,	K_UINT,		0, 65535),
	A(sm,		SM,	K_UINT,		0, 1),
	A(c2tft,	C2TFT,	K_UINT,		0, 2),
	A(ds,		DS,	K_UINT,		0, 255),
	A(specinv,	SPECINV, K_UINT,	0, 1),
#undef A
};

static uint32_t *field(struct satip_tune *t, const struct attr *a)
{
	return (uint32_t *)((char *)t + a->off);
}

/* err = the printf text, control characters as '?'. */
__attribute__((format(printf, 3, 4)))
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	size_t i;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	for (i = 0; err[i]; i++)
		if ((unsigned char)err[i] < 0x20 || err[i] == 0x7f)
			err[i] = '?';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool parse_uint(const char *s, uint32_t min, uint32_t max,
		       uint32_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (!is_digit(*s))
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return false;
	}
	if (v < min)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* "11494", "11494.5", "474.1666" (rounded to 474.167): x 1000 */
static bool parse_milli(const char *s, uint32_t min, uint32_t max,
			uint32_t *out)
{
	uint64_t v = 0;
	unsigned int i, frac = 0;

	if (!is_digit(*s))
		return false;
	for (; is_digit(*s); s++) {
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return false;
	}
	v *= 1000;
	if (*s == '.') {
		s++;
		if (!is_digit(*s))
			return false;
		for (i = 0; is_digit(*s); s++, i++) {
			if (i < 3)
				frac = frac * 10 + (unsigned int)(*s - '0');
			else if (i == 3 && *s >= '5')
				v++;
		}
		for (; i < 3; i++)
			frac *= 10;
		v += frac;
	}
	if (*s || v < min || v > max)
		return false;
	*out = (uint32_t)v;
	return true;
}

static int hexval(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * n bytes of an item into dst (size > n): %XX decoded, lower case.
 * false if it decodes to a NUL.
 */
static bool decode(char *dst, const char *s, size_t n)
{
	size_t i, o = 0;
	int hi, lo;
	char c;

	for (i = 0; i < n; i++) {
		c = s[i];
		if (c == '%' && i + 2 < n && (hi = hexval(s[i + 1])) >= 0 &&
		    (lo = hexval(s[i + 2])) >= 0) {
			c = (char)(hi << 4 | lo);
			i += 2;
		}
		if (!c)
			return false;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		dst[o++] = c;
	}
	dst[o] = '\0';
	return true;
}

/*
 * A PID list "0,16,17" into pid[] (max SATIP_MAX_PIDS, repeats dropped,
 * empty elements skipped).  0, -400 or -414.
 */
static int parse_pid_list(const char *s, uint16_t *pid, unsigned int *num)
{
	uint32_t v;
	unsigned int i;
	char one[8];
	size_t n;

	*num = 0;
	while (*s) {
		n = strcspn(s, ",");
		if (n) {
			if (n >= sizeof(one))
				return -400;
			memcpy(one, s, n);
			one[n] = '\0';
			if (!parse_uint(one, 0, SATIP_PID_MAX, &v))
				return -400;
			for (i = 0; i < *num && pid[i] != v; i++)
				;
			if (i == *num) {
				if (*num == SATIP_MAX_PIDS)
					return -414;
				pid[(*num)++] = (uint16_t)v;
			}
		}
		s += n;
		if (*s)
			s++;
	}
	return 0;
}

/* pids=, addpids=, delpids=: 0, -400, -414, 1 if name is none of them */
static int parse_pids_item(const char *name, const char *val,
			   struct satip_pids_op *op, unsigned int *seen)
{
	int ret;

	if (!strcmp(name, "pids")) {
		if (*seen & 1)
			return -400;
		*seen |= 1;
		if (!strcmp(val, "all")) {
			op->mode = SATIP_PIDS_ALL;
			return 0;
		}
		if (!strcmp(val, "none")) {
			op->mode = SATIP_PIDS_NONE;
			return 0;
		}
		op->mode = SATIP_PIDS_LIST;
		return parse_pid_list(val, op->pid, &op->num);
	}
	if (!strcmp(name, "addpids")) {
		if (*seen & 2)
			return -400;
		*seen |= 2;
		op->has_add = true;
		ret = parse_pid_list(val, op->add, &op->num_add);
		return ret;
	}
	if (!strcmp(name, "delpids")) {
		if (*seen & 4)
			return -400;
		*seen |= 4;
		op->has_del = true;
		return parse_pid_list(val, op->del, &op->num_del);
	}
	return 1;
}

static int parse_item(const char *item, struct satip_tune *t,
		      struct satip_pids_op *op, uint32_t *seen,
		      unsigned int *pids_seen)
{
	const char *val;
	const struct attr *a = NULL;
	char name[16];
	size_t i, n;
	uint32_t v;
	bool ok;
	int ret;

	val = strchr(item, '=');
	n = val ? (size_t)(val - item) : strlen(item);
	if (n >= sizeof(name))
		return 0;	/* no attribute has a name that long */
	memcpy(name, item, n);
	name[n] = '\0';
	val = val ? val + 1 : NULL;

	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (!strcmp(attrs[i].name, name)) {
			a = &attrs[i];
			break;
		}
	if (!a) {
		if (!val)
			return strcmp(name, "pids") && strcmp(name, "addpids") &&
			       strcmp(name, "delpids") ? 0 : -400;
		ret = parse_pids_item(name, val, op, pids_seen);
		return ret > 0 ? 0 : ret;
	}
	if (!val || (*seen & BIT(a->id)))
		return -400;
	*seen |= BIT(a->id);
	if (!*val)
		return 0;	/* plts= : as if absent */
	switch (a->kind) {
	case K_TOKEN:
		ok = tok_parse(a->id, val, &v);
		break;
	case K_UINT:
		ok = parse_uint(val, a->min, a->max, &v);
		break;
	default:
		ok = parse_milli(val, a->min, a->max, &v);
		break;
	}
	if (!ok)
		return -400;
	*field(t, a) = v;
	t->present |= BIT(a->id);
	return 0;
}

int satip_query_parse(const char *query, struct satip_tune *t,
		      struct satip_pids_op *op, char *err, size_t errlen)
{
	char item[2048];
	uint32_t seen = 0;
	unsigned int pids_seen = 0;
	size_t n;
	int ret;

	memset(t, 0, sizeof(*t));
	memset(op, 0, sizeof(*op));
	if (err && errlen)
		err[0] = '\0';
	while (*query) {
		n = strcspn(query, "&");
		if (n >= sizeof(item)) {
			set_err(err, errlen, "%.*s", 256, query);
			return -400;
		}
		if (n) {
			if (!decode(item, query, n)) {
				set_err(err, errlen, "%.*s", (int)n, query);
				return -400;
			}
			ret = parse_item(item, t, op, &seen, &pids_seen);
			if (ret) {
				set_err(err, errlen, "%s", item);
				return ret;
			}
			if ((pids_seen & 1) && (pids_seen & 6)) {
				set_err(err, errlen, "%s", item);
				return -400;
			}
		}
		query += n;
		if (*query)
			query++;
	}
	return 0;
}

/* ---- comparing, formatting ---------------------------------------------- */

/* Both give a and differ. */
static bool differ(const struct satip_tune *a, const struct satip_tune *b,
		   enum satip_attr at, uint32_t va, uint32_t vb)
{
	return satip_has(a, at) && satip_has(b, at) && va != vb;
}

bool satip_tune_same(const struct satip_tune *a, const struct satip_tune *b)
{
	uint32_t src_a = satip_has(a, SATIP_A_SRC) ? a->src : 1;
	uint32_t src_b = satip_has(b, SATIP_A_SRC) ? b->src : 1;
	const uint32_t need = BIT(SATIP_A_MSYS) | BIT(SATIP_A_FREQ);

	if ((a->present & need) != need || (b->present & need) != need)
		return false;
	return src_a == src_b && a->msys == b->msys && a->freq == b->freq &&
	       !differ(a, b, SATIP_A_POL, a->pol, b->pol) &&
	       !differ(a, b, SATIP_A_SR, a->sr, b->sr) &&
	       !differ(a, b, SATIP_A_BW, a->bw, b->bw) &&
	       !differ(a, b, SATIP_A_ISI, a->isi, b->isi) &&
	       !differ(a, b, SATIP_A_PLSC, a->plsc, b->plsc) &&
	       !differ(a, b, SATIP_A_PLP, a->plp, b->plp) &&
	       !differ(a, b, SATIP_A_T2ID, a->t2id, b->t2id);
}


/* MHz (or ksym/s) of a x 1000 value: "11494.00", "474.166", "22000" */
static void put_milli(struct satip_out *o, uint32_t v, bool two_decimals)
{
	if (v % 1000 == 0 && !two_decimals)
		satip_out_printf(o, "%u", v / 1000);
	else if (v % 10 == 0)
		satip_out_printf(o, "%u.%02u", v / 1000, v % 1000 / 10);
	else
		satip_out_printf(o, "%u.%03u", v / 1000, v % 1000);
}

/* ",value" of an attribute, "," if absent */
static void put_attr(struct satip_out *o, const struct satip_tune *t,
		     enum satip_attr a)
{
	const uint32_t *f = NULL;
	size_t i;

	satip_out_printf(o, ",");
	if (!satip_has(t, a))
		return;
	for (i = 0; i < ARRAY_SIZE(attrs) && !f; i++)
		if (attrs[i].id == a)
			f = (const uint32_t *)((const char *)t + attrs[i].off);
	if (!f)
		return;
	switch (a) {
	case SATIP_A_SR:
		put_milli(o, *f, false);
		break;
	case SATIP_A_PLP:
	case SATIP_A_T2ID:
	case SATIP_A_SM:
	case SATIP_A_C2TFT:
	case SATIP_A_DS:
	case SATIP_A_SPECINV:
		satip_out_printf(o, "%u", *f);
		break;
	default:
		satip_out_printf(o, "%s", tok_name(a, *f));
		break;
	}
}

int satip_tune_format(char *buf, size_t cap, const struct satip_tune *t)
{
	static const uint8_t sat[] = { SATIP_A_POL, SATIP_A_MSYS,
		SATIP_A_MTYPE, SATIP_A_PLTS, SATIP_A_RO, SATIP_A_SR,
		SATIP_A_FEC };
	static const uint8_t ter[] = { SATIP_A_BW, SATIP_A_MSYS,
		SATIP_A_TMODE, SATIP_A_MTYPE, SATIP_A_GI, SATIP_A_FEC,
		SATIP_A_PLP, SATIP_A_T2ID, SATIP_A_SM };
	static const uint8_t cab[] = { SATIP_A_BW, SATIP_A_MSYS,
		SATIP_A_MTYPE, SATIP_A_SR, SATIP_A_C2TFT, SATIP_A_DS,
		SATIP_A_PLP, SATIP_A_SPECINV };
	struct satip_out o = { buf, cap, 0, !buf || !cap };
	const uint8_t *list;
	size_t i, n;

	if (!cap)
		return -ENOBUFS;
	buf[0] = '\0';
	if (!satip_has(t, SATIP_A_MSYS))
		return -EINVAL;
	if (vt_delsys_is_sat(t->msys)) {
		list = sat;
		n = sizeof(sat);
	} else if (vt_delsys_is_ter(t->msys)) {
		list = ter;
		n = sizeof(ter);
	} else {
		list = cab;
		n = sizeof(cab);
	}
	if (satip_has(t, SATIP_A_FREQ))
		put_milli(&o, t->freq, true);
	for (i = 0; i < n; i++)
		put_attr(&o, t, list[i]);
	if (o.full) {
		buf[0] = '\0';
		return -ENOBUFS;
	}
	return (int)o.len;
}

int satip_query_format(char *buf, size_t cap, const struct satip_tune *t)
{
	struct satip_out o = { buf, cap, 0, !buf || !cap };
	size_t i;

	if (!cap)
		return -ENOBUFS;
	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		const struct attr *a = &attrs[i];
		uint32_t v;

		if (!satip_has(t, a->id))
			continue;
		v = *(const uint32_t *)((const char *)t + a->off);
		/* a value SAT>IP has no name for (rolloff auto): left out */
		if (a->kind == K_TOKEN && !*tok_name(a->id, v))
			continue;
		satip_out_printf(&o, "%s%s=", o.len ? "&" : "", a->name);
		if (a->kind == K_MILLI)
			put_milli(&o, v, false);
		else if (a->kind == K_UINT)
			satip_out_printf(&o, "%u", v);
		else
			satip_out_printf(&o, "%s", tok_name(a->id, v));
	}
	if (o.full) {
		buf[0] = '\0';
		return -ENOBUFS;
	}
	return (int)o.len;
}

/* ---- DVB properties ----------------------------------------------------- */

/*
 * EN 302 307-1 5.5.4: the root code of gold code n is the state of the
 * x register (x^18 + x^7 + 1, x(0) = 1) after n shifts, bit k = x(n+k).
 */
static uint32_t pls_next(uint32_t x)
{
	return (x >> 1) | (((x ^ (x >> 7)) & 1) << 17);
}

uint32_t satip_pls_gold_to_root(uint32_t gold)
{
	uint32_t x = 1, n;

	for (n = 0; n < gold % 262143; n++)
		x = pls_next(x);
	return x;
}

int satip_pls_root_to_gold(uint32_t root)
{
	uint32_t x = 1, n;

	if (!root || root > 262143)
		return -1;
	for (n = 0; n < 262143; n++) {
		if (x == root)
			return (int)n;
		x = pls_next(x);
	}
	return -1;
}

static void prop(struct satip_dvb *d, uint32_t cmd, uint32_t data)
{
	d->props[d->num].cmd = cmd;
	d->props[d->num].data = data;
	d->num++;
}

static uint32_t or_default(const struct satip_tune *t, enum satip_attr a,
			   uint32_t v, uint32_t def)
{
	return satip_has(t, a) ? v : def;
}

static bool mtype_ok(uint32_t msys, uint32_t m)
{
	switch (msys) {
	case SYS_DVBS:
		return m == QPSK;
	case SYS_DVBS2:
		return m == QPSK || m == PSK_8 || m == APSK_16 || m == APSK_32;
	case SYS_DVBT:
		return m == QPSK || m == QAM_16 || m == QAM_64;
	case SYS_DVBT2:
		return m == QPSK || m == QAM_16 || m == QAM_64 || m == QAM_256;
	default:	/* DVB-C */
		return m >= QAM_16 && m <= QAM_256;
	}
}

bool satip_mtype_valid(uint32_t msys, uint32_t mtype)
{
	return tok_name(SATIP_A_MTYPE, mtype)[0] && mtype_ok(msys, mtype);
}

static int sat_props(const struct satip_tune *t, const struct satip_lnb *lnb,
		     struct satip_dvb *d, char *err, size_t errlen)
{
	uint32_t lof, ifreq, src, code;
	bool horizontal;
	int gold;

	if (!satip_has(t, SATIP_A_POL)) {
		set_err(err, errlen, "pol");
		return -400;
	}
	src = or_default(t, SATIP_A_SRC, t->src, 1);
	if (src > (lnb->diseqc ? 4U : 1U)) {
		set_err(err, errlen, "src=%u", src);
		return -403;
	}
	d->hiband = lnb->lof_high && t->freq >= lnb->lof_switch;
	lof = d->hiband ? lnb->lof_high : lnb->lof_low;
	ifreq = t->freq > lof ? t->freq - lof : lof - t->freq;
	if (ifreq < SATIP_IF_MIN || ifreq > SATIP_IF_MAX) {
		set_err(err, errlen, "freq=%u.%03u", t->freq / 1000,
			t->freq % 1000);
		return -403;
	}
	/* circular: L as H (18 V), R as V (13 V) */
	horizontal = t->pol == SATIP_POL_H || t->pol == SATIP_POL_L;
	d->sec = true;
	d->voltage = horizontal ? SEC_VOLTAGE_18 : SEC_VOLTAGE_13;
	d->tone = d->hiband ? SEC_TONE_ON : SEC_TONE_OFF;
	if (lnb->diseqc) {
		/*
		 * DiSEqC 1.0 "write N0" (committed switches): framing E0 (from
		 * the master, no reply), address 10 (any LNB or switch),
		 * command 38, data F0 | option << 3 | position << 2 |
		 * polarisation (H) << 1 | band (high).  src 1..4 = position/
		 * option A/A, B/A, A/B, B/B.
		 */
		d->diseqc.len = 4;
		d->diseqc.msg[0] = 0xe0;
		d->diseqc.msg[1] = 0x10;
		d->diseqc.msg[2] = 0x38;
		d->diseqc.msg[3] = (uint8_t)(0xf0 | (src - 1) << 2 |
					     (horizontal ? 2 : 0) |
					     (d->hiband ? 1 : 0));
	}

	prop(d, DTV_DELIVERY_SYSTEM, t->msys);
	prop(d, DTV_FREQUENCY, ifreq);
	prop(d, DTV_SYMBOL_RATE, t->sr);
	prop(d, DTV_INNER_FEC, or_default(t, SATIP_A_FEC, t->fec, FEC_AUTO));
	prop(d, DTV_INVERSION, INVERSION_AUTO);
	if (t->msys == SYS_DVBS) {
		prop(d, DTV_MODULATION, QPSK);
		prop(d, DTV_ROLLOFF, ROLLOFF_35);
		return 0;
	}
	prop(d, DTV_MODULATION, or_default(t, SATIP_A_MTYPE, t->mtype, QAM_AUTO));
	prop(d, DTV_ROLLOFF, or_default(t, SATIP_A_RO, t->ro, ROLLOFF_AUTO));
	prop(d, DTV_PILOT, or_default(t, SATIP_A_PLTS, t->plts, PILOT_AUTO));
	prop(d, DTV_STREAM_ID, or_default(t, SATIP_A_ISI, t->isi,
					  NO_STREAM_ID_FILTER));
	if (satip_has(t, SATIP_A_PLSC)) {
		code = t->plsc;
		switch (or_default(t, SATIP_A_PLSM, t->plsm, SATIP_PLSM_GOLD)) {
		case SATIP_PLSM_ROOT:
			gold = satip_pls_root_to_gold(code);
			if (gold < 0) {
				set_err(err, errlen, "plsc=%u", code);
				return -400;
			}
			code = (uint32_t)gold;
			break;
		case SATIP_PLSM_GOLD:
			if (code > 262142) {
				set_err(err, errlen, "plsc=%u", code);
				return -400;
			}
			break;
		default:
			set_err(err, errlen, "plsm=combo");
			return -400;
		}
		prop(d, DTV_SCRAMBLING_SEQUENCE_INDEX, code);
	}
	return 0;
}

static void ter_props(const struct satip_tune *t, struct satip_dvb *d)
{
	prop(d, DTV_DELIVERY_SYSTEM, t->msys);
	prop(d, DTV_FREQUENCY, t->freq * 1000);
	prop(d, DTV_BANDWIDTH_HZ, or_default(t, SATIP_A_BW, t->bw, 0));
	prop(d, DTV_TRANSMISSION_MODE, or_default(t, SATIP_A_TMODE, t->tmode,
						  TRANSMISSION_MODE_AUTO));
	prop(d, DTV_MODULATION, or_default(t, SATIP_A_MTYPE, t->mtype, QAM_AUTO));
	prop(d, DTV_GUARD_INTERVAL, or_default(t, SATIP_A_GI, t->gi,
					       GUARD_INTERVAL_AUTO));
	prop(d, DTV_CODE_RATE_HP, or_default(t, SATIP_A_FEC, t->fec, FEC_AUTO));
	prop(d, DTV_INVERSION, INVERSION_AUTO);
	if (t->msys == SYS_DVBT) {
		prop(d, DTV_CODE_RATE_LP, FEC_AUTO);
		prop(d, DTV_HIERARCHY, HIERARCHY_AUTO);
	} else {
		prop(d, DTV_STREAM_ID, or_default(t, SATIP_A_PLP, t->plp,
						  NO_STREAM_ID_FILTER));
	}
}

static void cab_props(const struct satip_tune *t, struct satip_dvb *d)
{
	prop(d, DTV_DELIVERY_SYSTEM, t->msys);
	prop(d, DTV_FREQUENCY, t->freq * 1000);
	prop(d, DTV_SYMBOL_RATE, t->sr);
	prop(d, DTV_MODULATION, or_default(t, SATIP_A_MTYPE, t->mtype, QAM_AUTO));
	prop(d, DTV_INNER_FEC, FEC_AUTO);
	prop(d, DTV_INVERSION, !satip_has(t, SATIP_A_SPECINV) ? INVERSION_AUTO :
			       t->specinv ? INVERSION_ON : INVERSION_OFF);
}

int satip_tune_to_props(const struct satip_tune *t, const struct satip_lnb *lnb,
			struct satip_dvb *out, char *err, size_t errlen)
{
	static const struct satip_lnb universal = SATIP_LNB_UNIVERSAL;
	bool sat, ter;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	if (!lnb)
		lnb = &universal;
	if (!satip_has(t, SATIP_A_MSYS)) {
		set_err(err, errlen, "msys");
		return -400;
	}
	if (t->msys == SATIP_SYS_DVBC2) {
		set_err(err, errlen, "msys=dvbc2");
		return -503;
	}
	if (!satip_has(t, SATIP_A_FREQ)) {
		set_err(err, errlen, "freq");
		return -400;
	}
	sat = vt_delsys_is_sat(t->msys);
	ter = vt_delsys_is_ter(t->msys);
	if (!ter && !satip_has(t, SATIP_A_SR)) {
		set_err(err, errlen, "sr");
		return -400;
	}
	if (satip_has(t, SATIP_A_MTYPE) && !mtype_ok(t->msys, t->mtype)) {
		set_err(err, errlen, "mtype=%s", tok_name(SATIP_A_MTYPE, t->mtype));
		return -400;
	}
	if (sat)
		return sat_props(t, lnb, out, err, errlen);
	/* Hz: up to 4.29 GHz */
	if (t->freq > UINT32_MAX / 1000) {
		set_err(err, errlen, "freq=%u", t->freq / 1000);
		return -403;
	}
	if (ter)
		ter_props(t, out);
	else
		cab_props(t, out);
	return 0;
}

/* ---- PID sets ----------------------------------------------------------- */

static bool pid_in(const uint16_t *pid, unsigned int num, uint16_t p)
{
	unsigned int i;

	for (i = 0; i < num; i++)
		if (pid[i] == p)
			return true;
	return false;
}

int satip_pids_apply(struct satip_pidset *set, const struct satip_pids_op *op)
{
	struct satip_pidset n = *set;
	unsigned int i, j;
	uint16_t p;

	switch (op->mode) {
	case SATIP_PIDS_ALL:
		n.all = true;
		n.num = 0;
		break;
	case SATIP_PIDS_NONE:
		n.all = false;
		n.num = 0;
		break;
	case SATIP_PIDS_LIST:
		n.all = false;
		n.num = 0;
		for (i = 0; i < op->num && i < SATIP_MAX_PIDS; i++)
			if (!pid_in(n.pid, n.num, op->pid[i]))
				n.pid[n.num++] = op->pid[i];
		break;
	default:
		break;
	}
	if (!n.all) {
		for (i = 0; i < op->num_del && i < SATIP_MAX_PIDS; i++)
			for (j = 0; j < n.num; j++)
				if (n.pid[j] == op->del[i]) {
					n.pid[j] = n.pid[--n.num];
					break;
				}
		for (i = 0; i < op->num_add && i < SATIP_MAX_PIDS; i++) {
			if (pid_in(n.pid, n.num, op->add[i]))
				continue;
			if (n.num == SATIP_MAX_PIDS)
				return -ENOSPC;
			n.pid[n.num++] = op->add[i];
		}
	}
	/* sorted: insertion sort of at most SATIP_MAX_PIDS */
	for (i = 1; i < n.num; i++) {
		p = n.pid[i];
		for (j = i; j > 0 && n.pid[j - 1] > p; j--)
			n.pid[j] = n.pid[j - 1];
		n.pid[j] = p;
	}
	*set = n;
	return 0;
}

/* How many PIDs of a are not in b. */
static unsigned int pids_missing(const struct satip_pidset *a,
				 const struct satip_pidset *b)
{
	unsigned int i, n = 0;

	for (i = 0; i < a->num && i < SATIP_MAX_PIDS; i++)
		n += !pid_in(b->pid, b->num, a->pid[i]);
	return n;
}

/* name and the PIDs of a that are not in b (all of a if b is NULL). */
static void put_pids(struct satip_out *o, const char *name,
		     const struct satip_pidset *a, const struct satip_pidset *b)
{
	unsigned int i, n = 0;

	satip_out_str(o, name);
	for (i = 0; i < a->num && i < SATIP_MAX_PIDS; i++)
		if (!b || !pid_in(b->pid, b->num, a->pid[i]))
			satip_out_printf(o, n++ ? ",%u" : "%u", a->pid[i]);
}

int satip_pids_query(char *buf, size_t cap, const struct satip_pidset *have,
		     const struct satip_pidset *want, bool use_add_del,
		     unsigned int max_pids)
{
	static const struct satip_pidset nothing;
	struct satip_out o, ad;
	char adbuf[32 + 12 * SATIP_MAX_PIDS];
	unsigned int max = max_pids && max_pids < SATIP_MAX_PIDS ? max_pids :
			   SATIP_MAX_PIDS;
	unsigned int added = 0, deleted = 0;
	bool whole = !have;	/* the server's set unknown: all of want */

	if (!have)
		have = &nothing;
	satip_out_init(&o, buf, cap);
	if (want->all) {
		if (whole || !have->all)
			satip_out_str(&o, "pids=all");
		return satip_out_end(&o, -ENOBUFS);
	}
	if (want->num > max)
		return -E2BIG;
	if (!want->num) {
		if (whole || have->all || have->num)
			satip_out_str(&o, "pids=none");
		return satip_out_end(&o, -ENOBUFS);
	}
	if (whole || have->all) {
		use_add_del = false;
	} else {
		added = pids_missing(want, have);
		deleted = pids_missing(have, want);
		if (!added && !deleted)
			return satip_out_end(&o, -ENOBUFS);	/* "" */
	}
	put_pids(&o, "pids=", want, NULL);
	if (use_add_del) {
		/* addpids= and delpids= instead, if that is shorter */
		satip_out_init(&ad, adbuf, sizeof(adbuf));
		if (added)
			put_pids(&ad, "addpids=", want, have);
		if (deleted)
			put_pids(&ad, added ? "&delpids=" : "delpids=", have,
				 want);
		if (!ad.full && (o.full || ad.len < o.len)) {
			satip_out_init(&o, buf, cap);
			satip_out_str(&o, adbuf);
		}
	}
	return satip_out_end(&o, -ENOBUFS);
}
