// SPDX-License-Identifier: GPL-2.0
/*
 * props.c - DVB names and the option parsers, see props.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/dvb/frontend.h>

#include "client/props.h"

struct name_val {
	const char *name;
	unsigned val;
};

static const struct name_val modulation_names[] = {
	{ "QPSK", QPSK }, { "QAM_16", QAM_16 }, { "QAM_32", QAM_32 },
	{ "QAM_64", QAM_64 }, { "QAM_128", QAM_128 }, { "QAM_256", QAM_256 },
	{ "QAM_AUTO", QAM_AUTO }, { "VSB_8", VSB_8 }, { "VSB_16", VSB_16 },
	{ "PSK_8", PSK_8 }, { "8PSK", PSK_8 }, { "APSK_16", APSK_16 },
	{ "16APSK", APSK_16 }, { "APSK_32", APSK_32 }, { "32APSK", APSK_32 },
	{ "DQPSK", DQPSK }, { "QAM_4_NR", QAM_4_NR },
	{ "QAM16", QAM_16 }, { "QAM32", QAM_32 }, { "QAM64", QAM_64 },
	{ "QAM128", QAM_128 }, { "QAM256", QAM_256 },
	{ NULL, 0 }
};

static const struct name_val fec_names[] = {
	{ "NONE", FEC_NONE }, { "1/2", FEC_1_2 }, { "2/3", FEC_2_3 },
	{ "3/4", FEC_3_4 }, { "4/5", FEC_4_5 }, { "5/6", FEC_5_6 },
	{ "6/7", FEC_6_7 }, { "7/8", FEC_7_8 }, { "8/9", FEC_8_9 },
	{ "AUTO", FEC_AUTO }, { "3/5", FEC_3_5 }, { "9/10", FEC_9_10 },
	{ "2/5", FEC_2_5 },
	{ "FEC_1_2", FEC_1_2 }, { "FEC_2_3", FEC_2_3 }, { "FEC_3_4", FEC_3_4 },
	{ "FEC_4_5", FEC_4_5 }, { "FEC_5_6", FEC_5_6 }, { "FEC_6_7", FEC_6_7 },
	{ "FEC_7_8", FEC_7_8 }, { "FEC_8_9", FEC_8_9 },
	{ "FEC_AUTO", FEC_AUTO }, { "FEC_3_5", FEC_3_5 },
	{ "FEC_9_10", FEC_9_10 },
	{ NULL, 0 }
};

static const struct name_val rolloff_names[] = {
	{ "35", ROLLOFF_35 }, { "20", ROLLOFF_20 }, { "25", ROLLOFF_25 },
	{ "AUTO", ROLLOFF_AUTO }, { "ROLLOFF_35", ROLLOFF_35 },
	{ "ROLLOFF_20", ROLLOFF_20 }, { "ROLLOFF_25", ROLLOFF_25 },
	{ NULL, 0 }
};

static const struct name_val onoff_names[] = {
	{ "ON", PILOT_ON }, { "OFF", PILOT_OFF }, { "AUTO", PILOT_AUTO },
	{ NULL, 0 }
};

static const struct name_val inversion_names[] = {
	{ "OFF", INVERSION_OFF }, { "ON", INVERSION_ON },
	{ "AUTO", INVERSION_AUTO }, { NULL, 0 }
};

static const struct name_val tmode_names[] = {
	{ "2K", TRANSMISSION_MODE_2K }, { "8K", TRANSMISSION_MODE_8K },
	{ "AUTO", TRANSMISSION_MODE_AUTO }, { "4K", TRANSMISSION_MODE_4K },
	{ "1K", TRANSMISSION_MODE_1K }, { "16K", TRANSMISSION_MODE_16K },
	{ "32K", TRANSMISSION_MODE_32K }, { NULL, 0 }
};

static const struct name_val guard_names[] = {
	{ "1/32", GUARD_INTERVAL_1_32 }, { "1/16", GUARD_INTERVAL_1_16 },
	{ "1/8", GUARD_INTERVAL_1_8 }, { "1/4", GUARD_INTERVAL_1_4 },
	{ "AUTO", GUARD_INTERVAL_AUTO }, { "1/128", GUARD_INTERVAL_1_128 },
	{ "19/128", GUARD_INTERVAL_19_128 }, { "19/256", GUARD_INTERVAL_19_256 },
	{ NULL, 0 }
};

static const struct name_val hier_names[] = {
	{ "NONE", HIERARCHY_NONE }, { "1", HIERARCHY_1 }, { "2", HIERARCHY_2 },
	{ "4", HIERARCHY_4 }, { "AUTO", HIERARCHY_AUTO }, { NULL, 0 }
};

struct prop_name {
	const char *name;
	unsigned cmd;
	const struct name_val *values;	/* symbolic values, or NULL */
};

static const struct prop_name prop_names[] = {
	{ "DELIVERY_SYSTEM", DTV_DELIVERY_SYSTEM, NULL },	/* vt_delsys_parse */
	{ "FREQUENCY", DTV_FREQUENCY, NULL },
	{ "INVERSION", DTV_INVERSION, inversion_names },
	{ "MODULATION", DTV_MODULATION, modulation_names },
	{ "SYMBOL_RATE", DTV_SYMBOL_RATE, NULL },
	{ "INNER_FEC", DTV_INNER_FEC, fec_names },
	{ "ROLLOFF", DTV_ROLLOFF, rolloff_names },
	{ "PILOT", DTV_PILOT, onoff_names },
	{ "STREAM_ID", DTV_STREAM_ID, NULL },
	{ "SCRAMBLING_SEQUENCE_INDEX", DTV_SCRAMBLING_SEQUENCE_INDEX, NULL },
	{ "BANDWIDTH_HZ", DTV_BANDWIDTH_HZ, NULL },
	{ "CODE_RATE_HP", DTV_CODE_RATE_HP, fec_names },
	{ "CODE_RATE_LP", DTV_CODE_RATE_LP, fec_names },
	{ "TRANSMISSION_MODE", DTV_TRANSMISSION_MODE, tmode_names },
	{ "GUARD_INTERVAL", DTV_GUARD_INTERVAL, guard_names },
	{ "HIERARCHY", DTV_HIERARCHY, hier_names },
	{ "INTERLEAVING", DTV_INTERLEAVING, NULL },
	{ "LNA", DTV_LNA, NULL },
	{ "VOLTAGE", DTV_VOLTAGE, NULL },
	{ "TONE", DTV_TONE, NULL },
	{ NULL, 0, NULL }
};

/* Case-insensitive, ignoring '-' and '_' ("dvb-s2" = "DVBS2"). */
static bool name_eq(const char *a, const char *b, size_t alen)
{
	size_t i = 0;

	for (;;) {
		while (i < alen && (a[i] == '-' || a[i] == '_'))
			i++;
		while (*b == '_')
			b++;
		if (i == alen || !*b)
			return i == alen && !*b;
		if (toupper((unsigned char)a[i]) != *b)
			return false;
		i++;
		b++;
	}
}

/* vt_delsys_parse() of s[0..len), or -1. */
static int delsys_of(const char *s, size_t len)
{
	char name[32];

	if (len >= sizeof(name))
		return -1;
	memcpy(name, s, len);
	name[len] = 0;
	return vt_delsys_parse(name);
}

static const struct name_val *find_val(const struct name_val *t,
				       const char *s, size_t len)
{
	for (; t && t->name; t++)
		if (name_eq(s, t->name, len))
			return t;
	return NULL;
}

/* A u32 in decimal or 0x hex filling all of s[0..len). */
static int parse_u32(const char *s, size_t len, unsigned *out)
{
	char tmp[32], *end;
	unsigned long v;

	if (!len || len >= sizeof(tmp) || s[0] == '-' || s[0] == '+')
		return -1;
	memcpy(tmp, s, len);
	tmp[len] = 0;
	errno = 0;
	v = strtoul(tmp, &end, 0);
	if (errno || *end || v > 0xffffffffUL)
		return -1;
	*out = v;
	return 0;
}

static int add_prop(struct vtp_tune *t, unsigned cmd, unsigned data)
{
	if (t->num >= VTP_MAX_PROPS)
		return -1;
	t->props[t->num].cmd = cmd;
	t->props[t->num].data = data;
	t->num++;
	return 0;
}

int props_parse_tune(const char *s, struct vtp_tune *t, char *err,
		     size_t errlen)
{
	unsigned delsys = 0, cmd, val, i;
	bool have_delsys = false;
	const char *p = s;
	struct vtp_tune body = { .num = 0 };

	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		const struct prop_name *pn;
		const struct name_val *v;
		size_t nlen;

		if (!eq) {
			snprintf(err, errlen, "'%.*s': NAME=VALUE expected",
				 (int)len, p);
			return -1;
		}
		nlen = eq - p;
		if (nlen > 4 && !strncasecmp(p, "DTV_", 4)) {
			p += 4;
			nlen -= 4;
			len -= 4;
		}
		for (pn = prop_names; pn->name; pn++)
			if (name_eq(p, pn->name, nlen))
				break;
		if (!pn->name) {
			if (parse_u32(p, nlen, &cmd) || !cmd) {
				snprintf(err, errlen,
					 "unknown property '%.*s'", (int)nlen, p);
				return -1;
			}
		} else {
			cmd = pn->cmd;
		}
		v = find_val(pn->values, eq + 1, len - nlen - 1);
		if (v)
			val = v->val;
		else if (cmd == DTV_DELIVERY_SYSTEM &&
			 delsys_of(eq + 1, len - nlen - 1) >= 0)
			val = (unsigned)delsys_of(eq + 1, len - nlen - 1);
		else if (parse_u32(eq + 1, len - nlen - 1, &val)) {
			snprintf(err, errlen, "bad value '%.*s' of %.*s",
				 (int)(len - nlen - 1), eq + 1, (int)nlen, p);
			return -1;
		}
		if (cmd == DTV_DELIVERY_SYSTEM) {
			delsys = val;
			have_delsys = true;
		} else if (cmd != DTV_TUNE && cmd != DTV_CLEAR &&
			   add_prop(&body, cmd, val)) {
			snprintf(err, errlen, "more than %d properties",
				 VTP_MAX_PROPS - 3);
			return -1;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!have_delsys) {
		snprintf(err, errlen, "'%s': DELIVERY_SYSTEM missing", s);
		return -1;
	}
	if (body.num > VTP_MAX_PROPS - 3) {
		snprintf(err, errlen, "more than %d properties",
			 VTP_MAX_PROPS - 3);
		return -1;
	}
	t->num = 0;
	add_prop(t, DTV_CLEAR, 0);
	add_prop(t, DTV_DELIVERY_SYSTEM, delsys);
	for (i = 0; i < body.num; i++)
		add_prop(t, body.props[i].cmd, body.props[i].data);
	add_prop(t, DTV_TUNE, 0);
	return 0;
}

int props_parse_pids(const char *s, struct vtp_pids *p, char *err,
		     size_t errlen)
{
	const char *q = s;
	unsigned v;

	p->num = 0;
	if (!strcasecmp(s, "all")) {
		p->pid[p->num++] = VTP_PID_FULL_TS;
		return 0;
	}
	if (!strcasecmp(s, "none") || !*s)
		return 0;
	while (*q) {
		const char *comma = strchr(q, ',');
		size_t len = comma ? (size_t)(comma - q) : strlen(q);

		if (parse_u32(q, len, &v) || v > VTP_PID_FULL_TS) {
			snprintf(err, errlen, "bad PID '%.*s' (0..8191, 8192 "
				 "or 'all' for the whole TS)", (int)len, q);
			return -1;
		}
		if (p->num >= VTP_MAX_PIDS) {
			snprintf(err, errlen, "too many PIDs");
			return -1;
		}
		p->pid[p->num++] = v;
		q += len;
		if (*q == ',')
			q++;
	}
	return 0;
}

int props_parse_delsys(const char *s, unsigned char *delsys, int max,
		       char *err, size_t errlen)
{
	const char *q = s;
	int n = 0;

	while (*q) {
		const char *comma = strchr(q, ',');
		size_t len = comma ? (size_t)(comma - q) : strlen(q);
		int d = delsys_of(q, len);

		if (d < 0) {
			snprintf(err, errlen, "unknown delivery system '%.*s'",
				 (int)len, q);
			return -1;
		}
		if (n >= max) {
			snprintf(err, errlen, "more than %d delivery systems",
				 max);
			return -1;
		}
		delsys[n++] = (unsigned char)d;
		q += len;
		if (*q == ',')
			q++;
	}
	if (!n) {
		snprintf(err, errlen, "empty delivery system list");
		return -1;
	}
	return n;
}

static int find_prop(const struct vtp_tune *t, unsigned cmd, unsigned *val)
{
	unsigned i;

	for (i = 0; i < t->num; i++)
		if (t->props[i].cmd == cmd) {
			*val = t->props[i].data;
			return 1;
		}
	return 0;
}

void props_describe(const struct vtp_tune *t, char *buf, size_t cap)
{
	unsigned ds = 0, f = 0, sr = 0;
	int n;

	find_prop(t, DTV_DELIVERY_SYSTEM, &ds);
	find_prop(t, DTV_FREQUENCY, &f);
	n = snprintf(buf, cap, "%s %u %s", vt_delsys_name(ds), f,
		     vt_delsys_is_sat(ds) ? "kHz" : "Hz");
	if (find_prop(t, DTV_SYMBOL_RATE, &sr) && sr && n > 0 &&
	    (size_t)n < cap)
		snprintf(buf + n, cap - n, " sr %u", sr);
}
