// SPDX-License-Identifier: GPL-2.0
/*
 * vts world: the built-in transponders, the config file parser and the
 * consistency checks of a transponder.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/sim/vts.h"

#define VTS_DEFAULT_SIGNAL	(-45000)
#define VTS_DEFAULT_CNR		12500
#define VTS_DEFAULT_VIDEO_RATE	3000000
#define VTS_MIN_VIDEO_RATE	1500000	/* one 720x576 black I-frame, 25/s */
#define VTS_AUDIO_RATE		219334	/* 2 MP2 frames (7 packets) / 48 ms */
#define VTS_SI_HEADROOM		97	/* percent of the bitrate for ES */

void vts_world_init(struct vts_world *w)
{
	memset(w, 0, sizeof(*w));
}

void vts_world_free(struct vts_world *w)
{
	free(w->tp);
	vts_world_init(w);
}

static struct vts_transponder *vts_world_add(struct vts_world *w)
{
	struct vts_transponder *tp;

	if (w->ntp == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 8;

		tp = realloc(w->tp, cap * sizeof(*tp));
		if (!tp)
			return NULL;
		w->tp = tp;
		w->cap = cap;
	}
	tp = &w->tp[w->ntp++];
	memset(tp, 0, sizeof(*tp));
	tp->modulation = QAM_AUTO;
	tp->fec = FEC_AUTO;
	tp->rolloff = ROLLOFF_35;
	tp->network_id = 1;
	tp->signal_mdbm = VTS_DEFAULT_SIGNAL;
	tp->cnr_mdb = VTS_DEFAULT_CNR;
	snprintf(tp->network_name, sizeof(tp->network_name), "vtuner sim");
	return tp;
}

const struct vts_transponder *vts_world_find(const struct vts_world *w,
					     const char *name)
{
	size_t i;

	for (i = 0; i < w->ntp; i++)
		if (!strcmp(w->tp[i].name, name))
			return &w->tp[i];
	return NULL;
}

/* ---- name tables of the parser (DVB names: common/dvb.h) ---- */

struct vts_sym {
	const char *name;
	int value;
};

static const struct vts_sym vts_type_syms[] = {
	{ "tv", VTS_SVC_TV }, { "radio", VTS_SVC_RADIO }, { NULL, 0 }
};

/* ---- checks ---- */

static int vts_fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int vts_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t vts_service_rate(const struct vts_service *s)
{
	return (s->type == VTS_SVC_TV ? s->video_bitrate : 0) + VTS_AUDIO_RATE;
}

static bool vts_pid_ok(uint16_t pid)
{
	return pid >= 0x20 && pid < 0x1fff;
}

static int vts_check_pids(const struct vts_transponder *tp,
			  char *err, size_t errlen)
{
	uint16_t pids[3 * VTS_MAX_SERVICES];
	size_t n = 0, i, j, k;

	for (i = 0; i < tp->nservices; i++) {
		const struct vts_service *s = &tp->services[i];
		uint16_t own[3] = { s->pmt_pid, s->audio_pid, s->video_pid };

		for (k = 0; k < (s->type == VTS_SVC_TV ? 3u : 2u); k++) {
			if (!vts_pid_ok(own[k]))
				return vts_fail(err, errlen,
						"service '%s': PID 0x%x out of 0x20..0x1ffe",
						s->name, own[k]);
			for (j = 0; j < n; j++)
				if (pids[j] == own[k])
					return vts_fail(err, errlen,
							"service '%s': PID 0x%x used twice",
							s->name, own[k]);
			pids[n++] = own[k];
		}
		for (j = 0; j < i; j++)
			if (tp->services[j].id == s->id)
				return vts_fail(err, errlen,
						"service '%s': id %u used twice",
						s->name, s->id);
	}
	return 0;
}

static int vts_check_services(const struct vts_transponder *tp,
			      char *err, size_t errlen)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < tp->nservices; i++) {
		const struct vts_service *s = &tp->services[i];

		if (!s->id)
			return vts_fail(err, errlen, "service '%s': no id", s->name);
		if (s->type == VTS_SVC_TV && s->video_bitrate < VTS_MIN_VIDEO_RATE)
			return vts_fail(err, errlen,
					"service '%s': video_bitrate %u below %u",
					s->name, s->video_bitrate,
					VTS_MIN_VIDEO_RATE);
		sum += vts_service_rate(s);
	}
	if (sum * 100 > (uint64_t)tp->bitrate * VTS_SI_HEADROOM)
		return vts_fail(err, errlen,
				"services need %llu bit/s, more than %u%% of bitrate %u",
				(unsigned long long)sum, VTS_SI_HEADROOM,
				tp->bitrate);
	return vts_check_pids(tp, err, errlen);
}

static int vts_check_rf(const struct vts_transponder *tp,
			char *err, size_t errlen)
{
	if (vt_delsys_is_sat(tp->delsys)) {
		if (tp->frequency < 10700000 || tp->frequency > 12750000)
			return vts_fail(err, errlen,
					"frequency %u kHz outside 10700000..12750000",
					tp->frequency);
		if (tp->position >= VTS_MAX_POSITIONS)
			return vts_fail(err, errlen, "position %u > 3",
					tp->position);
	} else if (tp->frequency < 40000000 || tp->frequency > 900000000) {
		return vts_fail(err, errlen, "frequency %u Hz outside 40..900 MHz",
				tp->frequency);
	}
	if ((vt_delsys_is_sat(tp->delsys) || tp->delsys == SYS_DVBC_ANNEX_A) &&
	    (tp->symbol_rate < 1000000 || tp->symbol_rate > 45000000))
		return vts_fail(err, errlen, "symbol_rate %u outside 1M..45M",
				tp->symbol_rate);
	if (tp->delsys == SYS_DVBS && tp->rolloff != ROLLOFF_35)
		return vts_fail(err, errlen, "DVB-S has rolloff 35 only");
	return 0;
}

int vts_transponder_check(const struct vts_transponder *tp,
			  char *err, size_t errlen)
{
	if (!tp->name[0])
		return vts_fail(err, errlen, "transponder without a name");
	if (!vts_delsys_supported(tp->delsys))
		return vts_fail(err, errlen, "no delsys");
	if (!tp->ts_id)
		return vts_fail(err, errlen, "no ts_id");
	if (!tp->bitrate && !tp->ts_file[0])
		return vts_fail(err, errlen, "no bitrate");
	if (vts_check_rf(tp, err, errlen))
		return -1;
	if (tp->ts_file[0])
		return 0;
	if (!tp->nservices)
		return vts_fail(err, errlen, "no services");
	return vts_check_services(tp, err, errlen);
}

/* ---- the built-in world ---- */

struct vts_svc_init {
	uint16_t id;
	const char *name;
	const char *provider;
	enum vts_service_type type;
	uint32_t video_bitrate;
};

struct vts_tp_init {
	const char *name;
	enum fe_delivery_system delsys;
	uint32_t frequency;
	enum vts_polarisation pol;
	unsigned int position;
	uint32_t symbol_rate;
	enum fe_modulation modulation;
	enum fe_code_rate fec;
	enum fe_rolloff rolloff;
	uint32_t plp;
	uint16_t ts_id;
	uint16_t network_id;
	const char *network_name;
	uint32_t bitrate;
	struct vts_svc_init svc[3];
};

static const struct vts_tp_init vts_builtin[] = {
	{ "S2 11362 H", SYS_DVBS2, 11362000, VTS_POL_H, 0, 22000000, PSK_8,
	  FEC_2_3, ROLLOFF_35, 0, 1001, 1, "vtuner sat", 40000000,
	  { { 101, "Sim One HD", "Sim Broadcasting", VTS_SVC_TV, 8000000 },
	    { 102, "Sim Two HD", "Sim Broadcasting", VTS_SVC_TV, 6000000 },
	    { 103, "Sim Radio One", "Sim Broadcasting", VTS_SVC_RADIO, 0 } } },
	{ "S2 12188 V", SYS_DVBS2, 12188000, VTS_POL_V, 1, 27500000, QPSK,
	  FEC_3_4, ROLLOFF_20, 0, 1002, 1, "vtuner sat", 38000000,
	  { { 201, "Sim News", "Sim Info", VTS_SVC_TV, 4000000 },
	    { 202, "Sim Sport", "Sim Info", VTS_SVC_TV, 10000000 } } },
	{ "S 10847 V", SYS_DVBS, 10847000, VTS_POL_V, 0, 22000000, QPSK,
	  FEC_5_6, ROLLOFF_35, 0, 1003, 1, "vtuner sat", 33000000,
	  { { 301, "Sim Classic", "Sim Archive", VTS_SVC_TV, 5000000 },
	    { 302, "Sim Movies", "Sim Archive", VTS_SVC_TV, 5000000 },
	    { 303, "Sim Jazz", "Sim Archive", VTS_SVC_RADIO, 0 } } },
	{ "T 506 MHz", SYS_DVBT, 506000000, VTS_POL_H, 0, 0, QAM_64,
	  FEC_2_3, ROLLOFF_35, 0, 2001, 0x2001, "vtuner terrestrial", 19900000,
	  { { 401, "Sim Local", "Sim Regional", VTS_SVC_TV, 4000000 },
	    { 402, "Sim Kids", "Sim Regional", VTS_SVC_TV, 3000000 },
	    { 403, "Sim FM", "Sim Regional", VTS_SVC_RADIO, 0 } } },
	{ "T2 690 MHz PLP0", SYS_DVBT2, 690000000, VTS_POL_H, 0, 0, QAM_256,
	  FEC_2_3, ROLLOFF_35, 0, 2002, 0x2001, "vtuner terrestrial", 24000000,
	  { { 501, "Sim UHD Demo", "Sim T2", VTS_SVC_TV, 12000000 },
	    { 502, "Sim Nature", "Sim T2", VTS_SVC_TV, 6000000 } } },
	{ "T2 690 MHz PLP1", SYS_DVBT2, 690000000, VTS_POL_H, 0, 0, QAM_256,
	  FEC_2_3, ROLLOFF_35, 1, 2003, 0x2001, "vtuner terrestrial", 12000000,
	  { { 511, "Sim Mobile", "Sim T2", VTS_SVC_TV, 4000000 },
	    { 512, "Sim Talk", "Sim T2", VTS_SVC_RADIO, 0 } } },
	{ "C 346 MHz", SYS_DVBC_ANNEX_A, 346000000, VTS_POL_H, 0, 6900000,
	  QAM_256, FEC_AUTO, ROLLOFF_35, 0, 3001, 0x3001, "vtuner cable",
	  50000000,
	  { { 601, "Sim Cable One", "Sim Kabel", VTS_SVC_TV, 8000000 },
	    { 602, "Sim Shopping", "Sim Kabel", VTS_SVC_TV, 3000000 },
	    { 603, "Sim Lounge", "Sim Kabel", VTS_SVC_RADIO, 0 } } },
};

static void vts_builtin_services(struct vts_transponder *tp,
				 const struct vts_tp_init *in)
{
	size_t i;

	for (i = 0; i < 3 && in->svc[i].id; i++) {
		const struct vts_svc_init *si = &in->svc[i];
		struct vts_service *s = &tp->services[i];
		uint16_t base = 0x100 + 0x10 * i;

		s->id = si->id;
		snprintf(s->name, sizeof(s->name), "%s", si->name);
		snprintf(s->provider, sizeof(s->provider), "%s", si->provider);
		s->type = si->type;
		s->pmt_pid = base;
		s->video_pid = si->type == VTS_SVC_TV ? base + 1 : 0;
		s->audio_pid = base + 2;
		s->video_bitrate = si->video_bitrate;
	}
	tp->nservices = i;
}

int vts_world_default(struct vts_world *w)
{
	size_t i;

	for (i = 0; i < sizeof(vts_builtin) / sizeof(vts_builtin[0]); i++) {
		const struct vts_tp_init *in = &vts_builtin[i];
		struct vts_transponder *tp = vts_world_add(w);

		if (!tp)
			return -ENOMEM;
		snprintf(tp->name, sizeof(tp->name), "%s", in->name);
		tp->delsys = in->delsys;
		tp->frequency = in->frequency;
		tp->pol = in->pol;
		tp->position = in->position;
		tp->symbol_rate = in->symbol_rate;
		tp->modulation = in->modulation;
		tp->fec = in->fec;
		tp->rolloff = in->rolloff;
		tp->bandwidth_hz = vt_delsys_is_sat(in->delsys) ||
				   in->delsys == SYS_DVBC_ANNEX_A ? 0 : 8000000;
		tp->plp = in->plp;
		tp->ts_id = in->ts_id;
		tp->network_id = in->network_id;
		snprintf(tp->network_name, sizeof(tp->network_name), "%s",
			 in->network_name);
		tp->orbit = vt_delsys_is_sat(in->delsys) ? 192 : 0;
		tp->bitrate = in->bitrate;
		vts_builtin_services(tp, in);
	}
	return 0;
}

/* ---- config file parser ---- */

struct vts_parser {
	const char *path;
	unsigned int line;
	unsigned int section_line;
	struct vts_world *w;
	struct vts_transponder *tp;	/* current transponder */
	struct vts_service *svc;	/* current service, or NULL */
	uint64_t freq;			/* of the current transponder */
	bool freq_unit;			/* freq in Hz, else in tp's unit */
	char *err;
	size_t errlen;
};

static int vts_perr(struct vts_parser *ps, unsigned int line,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int vts_perr(struct vts_parser *ps, unsigned int line,
		    const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "%s:%u: %s", ps->path, line, msg);
	return -1;
}

static int vts_bad(struct vts_parser *ps, const char *key, const char *val)
{
	return vts_perr(ps, ps->line, "bad value '%s' for %s", val, key);
}

static int vts_parse_sym(const struct vts_sym *syms, const char *val, int *out)
{
	for (; syms->name; syms++) {
		if (!strcasecmp(syms->name, val)) {
			*out = syms->value;
			return 0;
		}
	}
	return -1;
}

bool vts_delsys_supported(enum fe_delivery_system d)
{
	return d == SYS_DVBS || d == SYS_DVBS2 || d == SYS_DVBT ||
	       d == SYS_DVBT2 || d == SYS_DVBC_ANNEX_A;
}

int vts_delsys_parse(const char *name, enum fe_delivery_system *d)
{
	int v = vt_delsys_parse(name);

	if (v < 0 || !vts_delsys_supported((enum fe_delivery_system)v))
		return -1;
	*d = (enum fe_delivery_system)v;
	return 0;
}

static int vts_parse_u32(const char *val, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)val[0]))
		return -1;
	errno = 0;
	v = strtoull(val, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* a decimal number with up to 'scale_digits' fraction digits, times 10^n */
static int vts_parse_fixed(const char *val, unsigned int scale_digits,
			   int64_t *out)
{
	int64_t ip = 0, frac = 0;
	unsigned int nfrac = 0;
	bool neg = *val == '-';
	const char *p = val + neg;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p) && ip < 100000000; p++)
		ip = ip * 10 + (*p - '0');
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			if (nfrac++ < scale_digits)
				frac = frac * 10 + (*p - '0');
	if (*p || nfrac > scale_digits)
		return -1;
	for (; nfrac < scale_digits; nfrac++)
		frac *= 10;
	for (nfrac = 0; nfrac < scale_digits; nfrac++)
		ip *= 10;
	*out = neg ? -(ip + frac) : ip + frac;
	return 0;
}

static char *vts_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/*
 * A frequency: a plain number (the caller's unit), or with a "MHz" or
 * "kHz" suffix, then in Hz; *unit says which.
 */
static int vts_parse_hz(const char *val, uint64_t *out, bool *unit)
{
	static const struct { const char *sfx; unsigned int digits; } u[] = {
		{ "MHz", 6 }, { "kHz", 3 }, { "", 0 }
	};
	char num[32];
	size_t i, n = strlen(val);
	int64_t v;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		size_t sl = strlen(u[i].sfx);

		if (n <= sl || n - sl >= sizeof(num) ||
		    strcasecmp(val + n - sl, u[i].sfx))
			continue;
		memcpy(num, val, n - sl);
		num[n - sl] = 0;
		if (vts_parse_fixed(vts_trim(num), u[i].digits, &v) || v <= 0 ||
		    v > 100000000000ll)
			return -1;
		*out = v;
		*unit = sl > 0;
		return 0;
	}
	return -1;
}

static int vts_parse_u32hz(const char *val, uint32_t *out)
{
	uint64_t v;
	bool unit;

	if (vts_parse_hz(val, &v, &unit) || v > UINT32_MAX)
		return -1;
	*out = v;
	return 0;
}

static int vts_parse_orbit(const char *val, struct vts_transponder *tp)
{
	char num[16];
	size_t n = strlen(val);
	int64_t v;
	char dir;

	if (n < 2 || n >= sizeof(num))
		return -1;
	dir = toupper((unsigned char)val[n - 1]);
	if (dir != 'E' && dir != 'W')
		return -1;
	memcpy(num, val, n - 1);
	num[n - 1] = 0;
	if (vts_parse_fixed(num, 1, &v) || v < 0 || v > 1800)
		return -1;
	tp->orbit = v;
	tp->west = dir == 'W';
	return 0;
}

static int vts_set_str(char *dst, size_t size, const char *val)
{
	if (!*val || strlen(val) >= size)
		return -1;
	memcpy(dst, val, strlen(val) + 1);
	return 0;
}

static int vts_set_path(struct vts_parser *ps, const char *val)
{
	const char *slash = strrchr(ps->path, '/');
	struct vts_transponder *tp = ps->tp;
	int n;

	if (val[0] == '/' || !slash)
		return vts_set_str(tp->ts_file, sizeof(tp->ts_file), val);
	n = snprintf(tp->ts_file, sizeof(tp->ts_file), "%.*s/%s",
		     (int)(slash - ps->path), ps->path, val);
	return n < 0 || (size_t)n >= sizeof(tp->ts_file) ? -1 : 0;
}

static int vts_set_sym(const struct vts_sym *syms, const char *val, void *out)
{
	int v;

	if (vts_parse_sym(syms, val, &v))
		return -1;
	*(int *)out = v;
	return 0;
}

/*
 * A modulation, code rate, rolloff or polarisation by common/dvb.h's
 * names, of those a simulated transponder can have.
 */
static int vts_set_dvb(int (*parse)(const char *), const char *val,
		       void *out)
{
	int v = parse(val);

	if (v < 0)
		return -1;
	if (parse == vt_modulation_parse &&
	    (v == VSB_8 || v == VSB_16 || v == DQPSK || v == QAM_4_NR))
		return -1;
	if (parse == vt_rolloff_parse && v == ROLLOFF_AUTO)
		return -1;
	if (parse == vt_pol_parse) {
		if (v != VT_POL_H && v != VT_POL_V)
			return -1;
		v = v == VT_POL_H ? VTS_POL_H : VTS_POL_V;
	}
	*(int *)out = v;
	return 0;
}

static int vts_set_u16(const char *val, uint32_t max, uint16_t *out)
{
	uint32_t v;

	if (vts_parse_u32(val, max, &v))
		return -1;
	*out = v;
	return 0;
}

static int vts_set_milli(const char *val, int32_t *out)
{
	int64_t v;

	if (vts_parse_fixed(val, 3, &v) || v < -200000 || v > 200000)
		return -1;
	*out = v;
	return 0;
}

static int vts_tp_key(struct vts_parser *ps, const char *key, const char *val)
{
	struct vts_transponder *tp = ps->tp;

	if (!strcmp(key, "delsys"))
		return vts_delsys_parse(val, &tp->delsys);
	if (!strcmp(key, "frequency"))
		return vts_parse_hz(val, &ps->freq, &ps->freq_unit);
	if (!strcmp(key, "polarisation") || !strcmp(key, "polarization"))
		return vts_set_dvb(vt_pol_parse, val, &tp->pol);
	if (!strcmp(key, "position"))
		return vts_parse_u32(val, VTS_MAX_POSITIONS - 1, &tp->position);
	if (!strcmp(key, "symbol_rate"))
		return vts_parse_u32(val, 100000000, &tp->symbol_rate);
	if (!strcmp(key, "modulation"))
		return vts_set_dvb(vt_modulation_parse, val, &tp->modulation);
	if (!strcmp(key, "fec"))
		return vts_set_dvb(vt_fec_parse, val, &tp->fec);
	if (!strcmp(key, "rolloff"))
		return vts_set_dvb(vt_rolloff_parse, val, &tp->rolloff);
	if (!strcmp(key, "bandwidth"))
		return vts_parse_u32hz(val, &tp->bandwidth_hz);
	if (!strcmp(key, "plp"))
		return vts_parse_u32(val, 255, &tp->plp);
	if (!strcmp(key, "ts_id"))
		return vts_set_u16(val, 0xffff, &tp->ts_id);
	if (!strcmp(key, "network_id"))
		return vts_set_u16(val, 0xffff, &tp->network_id);
	if (!strcmp(key, "network_name"))
		return vts_set_str(tp->network_name, sizeof(tp->network_name), val);
	if (!strcmp(key, "orbit"))
		return vts_parse_orbit(val, tp);
	if (!strcmp(key, "bitrate"))
		return vts_parse_u32(val, 4000000000u, &tp->bitrate);
	if (!strcmp(key, "signal"))
		return vts_set_milli(val, &tp->signal_mdbm);
	if (!strcmp(key, "cnr"))
		return vts_set_milli(val, &tp->cnr_mdb);
	if (!strcmp(key, "ts_file"))
		return vts_set_path(ps, val);
	return 1;
}

static int vts_svc_key(struct vts_parser *ps, const char *key, const char *val)
{
	struct vts_service *s = ps->svc;

	if (!strcmp(key, "id"))
		return vts_set_u16(val, 0xffff, &s->id);
	if (!strcmp(key, "provider"))
		return vts_set_str(s->provider, sizeof(s->provider), val);
	if (!strcmp(key, "type"))
		return vts_set_sym(vts_type_syms, val, &s->type);
	if (!strcmp(key, "pmt_pid"))
		return vts_set_u16(val, 0x1fff, &s->pmt_pid);
	if (!strcmp(key, "video_pid"))
		return vts_set_u16(val, 0x1fff, &s->video_pid);
	if (!strcmp(key, "audio_pid"))
		return vts_set_u16(val, 0x1fff, &s->audio_pid);
	if (!strcmp(key, "video_bitrate"))
		return vts_parse_u32(val, 100000000, &s->video_bitrate);
	return 1;
}

/*
 * The values that depend on the delivery system, whatever the order of
 * the keys: the frequency's unit and the defaults.
 */
static void vts_tp_finish(struct vts_parser *ps)
{
	struct vts_transponder *tp = ps->tp;
	bool terr = tp->delsys == SYS_DVBT || tp->delsys == SYS_DVBT2;
	uint64_t f = ps->freq;

	if (ps->freq_unit && vt_delsys_is_sat(tp->delsys))
		f /= 1000;
	tp->frequency = f > UINT32_MAX ? 0 : f;

	if (terr && !tp->bandwidth_hz)
		tp->bandwidth_hz = 8000000;
	if (tp->modulation != QAM_AUTO)
		return;
	if (vt_delsys_is_sat(tp->delsys))
		tp->modulation = QPSK;
	else
		tp->modulation = terr ? QAM_64 : QAM_256;
}

/* checks the transponder just finished; errors name its section line */
static int vts_finish_tp(struct vts_parser *ps)
{
	char msg[200];

	if (!ps->tp)
		return 0;
	vts_tp_finish(ps);
	if (vts_transponder_check(ps->tp, msg, sizeof(msg)))
		return vts_perr(ps, ps->section_line, "transponder '%s': %s",
				ps->tp->name, msg);
	return 0;
}

static int vts_new_tp(struct vts_parser *ps, const char *name)
{
	if (strlen(name) >= VTS_NAME_MAX || !*name)
		return vts_perr(ps, ps->line, "bad transponder name '%s'", name);
	if (vts_world_find(ps->w, name))
		return vts_perr(ps, ps->line, "transponder '%s' defined twice",
				name);
	ps->tp = vts_world_add(ps->w);
	if (!ps->tp)
		return vts_perr(ps, ps->line, "out of memory");
	snprintf(ps->tp->name, sizeof(ps->tp->name), "%s", name);
	ps->section_line = ps->line;
	ps->svc = NULL;
	ps->freq = 0;
	ps->freq_unit = false;
	return 0;
}

static int vts_new_svc(struct vts_parser *ps, const char *name)
{
	struct vts_service *s;

	if (!ps->tp)
		return vts_perr(ps, ps->line, "service '%s' before any transponder",
				name);
	if (ps->tp->nservices == VTS_MAX_SERVICES)
		return vts_perr(ps, ps->line, "more than %d services",
				VTS_MAX_SERVICES);
	s = &ps->tp->services[ps->tp->nservices++];
	memset(s, 0, sizeof(*s));
	if (vts_set_str(s->name, sizeof(s->name), name))
		return vts_perr(ps, ps->line, "bad service name '%s'", name);
	snprintf(s->provider, sizeof(s->provider), "%s", "vtuner sim");
	s->type = VTS_SVC_TV;
	s->video_bitrate = VTS_DEFAULT_VIDEO_RATE;
	ps->svc = s;
	return 0;
}

static int vts_section(struct vts_parser *ps, char *s)
{
	char *end = strchr(s, ']');
	char *kind, *name;

	if (!end || end[1])
		return vts_perr(ps, ps->line, "bad section header '%s'", s);
	*end = 0;
	kind = s + 1;
	name = strchr(kind, ' ');
	if (name)
		*name++ = 0;
	name = vts_trim(name ? name : end);
	if (!strcmp(kind, "transponder")) {
		if (vts_finish_tp(ps))
			return -1;
		return vts_new_tp(ps, name);
	}
	if (!strcmp(kind, "service"))
		return vts_new_svc(ps, name);
	return vts_perr(ps, ps->line, "unknown section '%s'", kind);
}

static int vts_keyval(struct vts_parser *ps, char *s)
{
	char *eq = strchr(s, '=');
	char *key, *val;
	int rc;

	if (!eq)
		return vts_perr(ps, ps->line, "expected 'key = value', got '%s'", s);
	*eq = 0;
	key = vts_trim(s);
	val = vts_trim(eq + 1);
	if (!ps->tp)
		return vts_perr(ps, ps->line, "'%s' outside a section", key);
	rc = ps->svc ? vts_svc_key(ps, key, val) : vts_tp_key(ps, key, val);
	if (rc > 0)
		return vts_perr(ps, ps->line, "unknown key '%s'", key);
	return rc ? vts_bad(ps, key, val) : 0;
}

static int vts_parse_line(struct vts_parser *ps, char *line)
{
	char *hash = strchr(line, '#');
	char *s;

	if (hash)
		*hash = 0;
	s = vts_trim(line);
	if (!*s)
		return 0;
	if (*s == '[')
		return vts_section(ps, s);
	return vts_keyval(ps, s);
}

int vts_world_load(struct vts_world *w, const char *path,
		   char *err, size_t errlen)
{
	struct vts_parser ps = {
		.path = path, .w = w, .err = err, .errlen = errlen,
	};
	size_t first = w->ntp;
	char buf[512];
	FILE *f;
	int rc = 0;

	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (!rc && fgets(buf, sizeof(buf), f)) {
		ps.line++;
		if (!strchr(buf, '\n') && !feof(f))
			rc = vts_perr(&ps, ps.line, "line too long");
		else
			rc = vts_parse_line(&ps, buf);
	}
	if (!rc)
		rc = vts_finish_tp(&ps);
	fclose(f);
	if (rc)
		w->ntp = first;
	return rc;
}
