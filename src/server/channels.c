// SPDX-License-Identifier: GPL-2.0
/*
 * channels.c - a dvbv5 channel file as services (see channels.h).
 *
 * Line by line: a "[Name]" starts a service, its keys fill it in, the next
 * section or the end of the file checks it and hands it on.  Values that
 * do not parse fail on their line; what only the whole service can tell
 * (no FREQUENCY, a frequency out of range of its system) on the section's.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/dvb/frontend.h>

#include "common/dvb.h"
#include "common/log.h"
#include "common/text.h"
#include "server/channels.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Beyond any real one: absurd values are errors, not services. */
#define SAT_FREQ_MIN	3000000u	/* kHz: C band and up */
#define SAT_FREQ_MAX	30000000u
#define IF_FREQ_MIN	950000u		/* kHz: an LNB's output */
#define IF_FREQ_MAX	2150000u
#define FREQ_MIN	30000000u	/* Hz: terrestrial and cable */
#define FREQ_MAX	1300000000u
#define SR_MIN		100000u
#define SR_MAX		100000000u
#define BW_MIN		1000000u
#define BW_MAX		10000000u
#define MAX_PIDS	16		/* of a list; more are dropped */

struct chan {
	char name[VTD_CHANNELS_LINE_MAX + 1];
	unsigned int line;		/* of "[name]"; 0: none open */
	int delsys;			/* -1: none; -2: unknown */
	char delsys_name[32];
	unsigned int delsys_line;
	uint32_t frequency, symbol_rate, bandwidth_hz, stream_id;
	bool has_frequency, has_stream_id;
	int modulation, fec, code_rate_hp, rolloff, pol;
	unsigned int sat_number;
	uint16_t video[MAX_PIDS], audio[MAX_PIDS], other[MAX_PIDS];
	unsigned int nvideo, naudio, nother;
};

struct parser {
	const char *file;
	unsigned int line;
	char *err;
	size_t errlen;
	void (*cb)(void *ctx, const struct vtd_service *s);
	void *ctx;
	int count;
	struct chan c;
};

static int perr(struct parser *p, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct parser *p, unsigned int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%u: %s", p->file, line, msg);
	return -1;
}

/* A decimal number, no sign, at most max. */
static int parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	unsigned long long v = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (unsigned int)(*s - '0');
		if (v > max)
			return -1;
	}
	if (*s)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* A space-separated PID list; PID 0 stands for none. */
static int parse_pids(struct parser *p, const char *key, char *val,
		      uint16_t *pids, unsigned int *n)
{
	char *tok, *save = NULL;
	uint32_t v;

	*n = 0;
	for (tok = strtok_r(val, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (parse_u32(tok, 0x1fff, &v))
			return perr(p, p->line, "bad %s '%s'", key, tok);
		if (!v)
			continue;
		if (v < 0x10 || v > 0x1ffe)
			return perr(p, p->line, "%s %u outside 16..8190",
				    key, v);
		if (*n < MAX_PIDS)
			pids[(*n)++] = (uint16_t)v;
	}
	return 0;
}

static void chan_open(struct chan *c, const char *name, unsigned int line)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->line = line;
	c->delsys = -1;
	c->modulation = QAM_AUTO;
	c->fec = -1;
	c->code_rate_hp = -1;
	c->rolloff = ROLLOFF_35;
	c->pol = VT_POL_V;
}

static bool delsys_served(int d)
{
	return d == SYS_DVBS || d == SYS_DVBS2 || d == SYS_DVBT ||
	       d == SYS_DVBT2 || d == SYS_DVBC_ANNEX_A;
}

/* 1: the key is none of ours. */
static int chan_key(struct parser *p, const char *key, char *val)
{
	struct chan *c = &p->c;
	int v;

	if (!strcmp(key, "DELIVERY_SYSTEM")) {
		c->delsys = vt_delsys_parse(val);
		if (c->delsys < 0)
			c->delsys = -2;
		snprintf(c->delsys_name, sizeof(c->delsys_name), "%s", val);
		c->delsys_line = p->line;
		return 0;
	}
	if (!strcmp(key, "FREQUENCY")) {
		c->has_frequency = true;
		if (parse_u32(val, UINT32_MAX, &c->frequency))
			return perr(p, p->line, "bad FREQUENCY '%s'", val);
		return 0;
	}
	if (!strcmp(key, "SYMBOL_RATE")) {
		if (parse_u32(val, UINT32_MAX, &c->symbol_rate))
			return perr(p, p->line, "bad SYMBOL_RATE '%s'", val);
		if (c->symbol_rate && (c->symbol_rate < SR_MIN ||
				       c->symbol_rate > SR_MAX))
			return perr(p, p->line,
				    "SYMBOL_RATE %u outside %u..%u",
				    c->symbol_rate, SR_MIN, SR_MAX);
		return 0;
	}
	if (!strcmp(key, "BANDWIDTH_HZ")) {
		if (parse_u32(val, UINT32_MAX, &c->bandwidth_hz))
			return perr(p, p->line, "bad BANDWIDTH_HZ '%s'", val);
		if (c->bandwidth_hz && (c->bandwidth_hz < BW_MIN ||
					c->bandwidth_hz > BW_MAX))
			return perr(p, p->line,
				    "BANDWIDTH_HZ %u outside %u..%u",
				    c->bandwidth_hz, BW_MIN, BW_MAX);
		return 0;
	}
	if (!strcmp(key, "STREAM_ID")) {
		if (parse_u32(val, UINT32_MAX, &c->stream_id))
			return perr(p, p->line, "bad STREAM_ID '%s'", val);
		c->has_stream_id = true;
		return 0;
	}
	if (!strcmp(key, "SAT_NUMBER")) {
		uint32_t n;

		/* libdvbv5's "none" is -1 */
		if (!strcmp(val, "-1"))
			n = 0;
		else if (parse_u32(val, UINT32_MAX, &n) || n > 3)
			return perr(p, p->line, "bad SAT_NUMBER '%s' (0..3)",
				    val);
		c->sat_number = n;
		return 0;
	}
	if (!strcmp(key, "MODULATION")) {
		v = vt_modulation_parse(val);
		if (v < 0)
			return perr(p, p->line, "bad MODULATION '%s'", val);
		c->modulation = v;
		return 0;
	}
	if (!strcmp(key, "INNER_FEC") || !strcmp(key, "CODE_RATE_HP")) {
		v = vt_fec_parse(val);
		if (v < 0)
			return perr(p, p->line, "bad %s '%s'", key, val);
		if (key[0] == 'I')
			c->fec = v;
		else
			c->code_rate_hp = v;
		return 0;
	}
	if (!strcmp(key, "ROLLOFF")) {
		v = vt_rolloff_parse(val);
		if (v < 0)
			return perr(p, p->line, "bad ROLLOFF '%s'", val);
		c->rolloff = v;
		return 0;
	}
	if (!strcmp(key, "POLARIZATION")) {
		v = vt_pol_parse(val);
		if (v < 0)
			return perr(p, p->line, "bad POLARIZATION '%s'", val);
		c->pol = v;
		return 0;
	}
	if (!strcmp(key, "VIDEO_PID"))
		return parse_pids(p, key, val, c->video, &c->nvideo);
	if (!strcmp(key, "AUDIO_PID"))
		return parse_pids(p, key, val, c->audio, &c->naudio);
	if (!strncmp(key, "PID_", 4) && key[4] &&
	    strspn(key + 4, "0123456789abcdefABCDEF") == strlen(key + 4)) {
		uint16_t pids[MAX_PIDS];
		unsigned int n, i;

		if (parse_pids(p, key, val, pids, &n))
			return -1;
		for (i = 0; i < n && c->nother < MAX_PIDS; i++)
			c->other[c->nother++] = pids[i];
		return 0;
	}
	return 1;
}

static void add_pids(struct vtd_service *s, const uint16_t *pids,
		     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && s->npids < ARRAY_SIZE(s->pids); i++)
		s->pids[s->npids++] = pids[i];
}

/* The service just finished: checked, then skipped or handed on. */
static int chan_close(struct parser *p)
{
	struct chan *c = &p->c;
	struct vtd_service s;
	bool sat;

	if (!c->line)
		return 0;
	if (c->delsys == -1)
		return perr(p, c->line, "service '%s': no DELIVERY_SYSTEM",
			    c->name);
	if (c->delsys == -2 || !delsys_served(c->delsys)) {
		vt_warn("%s:%u: service '%s': delivery system '%s' not served, skipped",
			p->file, c->delsys_line, c->name,
			c->delsys == -2 ? c->delsys_name :
			vt_delsys_name((unsigned int)c->delsys));
		return 0;
	}
	if (!c->nvideo && !c->naudio) {
		vt_warn("%s:%u: service '%s': no video or audio PID, skipped",
			p->file, c->line, c->name);
		return 0;
	}
	if (!c->has_frequency)
		return perr(p, c->line, "service '%s': no FREQUENCY", c->name);
	sat = vt_delsys_is_sat((unsigned int)c->delsys);
	if (sat && c->frequency >= IF_FREQ_MIN && c->frequency <= IF_FREQ_MAX)
		return perr(p, c->line,
			    "service '%s': FREQUENCY %u kHz is an intermediate frequency, not the transponder's (dvbv5-scan -l LNB writes that)",
			    c->name, c->frequency);
	if (sat && (c->frequency < SAT_FREQ_MIN || c->frequency > SAT_FREQ_MAX))
		return perr(p, c->line,
			    "service '%s': FREQUENCY %u kHz outside %u..%u",
			    c->name, c->frequency, SAT_FREQ_MIN, SAT_FREQ_MAX);
	if (!sat && (c->frequency < FREQ_MIN || c->frequency > FREQ_MAX))
		return perr(p, c->line,
			    "service '%s': FREQUENCY %u Hz outside %u..%u",
			    c->name, c->frequency, FREQ_MIN, FREQ_MAX);
	if ((sat || c->delsys == SYS_DVBC_ANNEX_A) && !c->symbol_rate)
		return perr(p, c->line, "service '%s': no SYMBOL_RATE",
			    c->name);
	if (c->delsys == SYS_DVBT2 && c->has_stream_id &&
	    c->stream_id > 255 && c->stream_id != UINT32_MAX)
		return perr(p, c->line, "service '%s': STREAM_ID %u outside 0..255",
			    c->name, c->stream_id);

	memset(&s, 0, sizeof(s));
	s.name = c->name;
	s.delsys = (uint32_t)c->delsys;
	s.frequency = c->frequency;
	s.modulation = (uint32_t)c->modulation;
	if (c->fec >= 0)
		s.fec = (uint32_t)c->fec;
	else if (vt_delsys_is_ter(s.delsys) && c->code_rate_hp >= 0)
		s.fec = (uint32_t)c->code_rate_hp;
	else
		s.fec = FEC_AUTO;
	if (sat || c->delsys == SYS_DVBC_ANNEX_A)
		s.symbol_rate = c->symbol_rate;
	if (sat) {
		s.rolloff = (uint32_t)c->rolloff;
		s.horizontal = c->pol == VT_POL_H || c->pol == VT_POL_L;
		s.position = c->sat_number;
	} else {
		s.rolloff = ROLLOFF_AUTO;
	}
	if (vt_delsys_is_ter(s.delsys))
		s.bandwidth_hz = c->bandwidth_hz;
	if (c->delsys == SYS_DVBT2 && c->stream_id <= 255)
		s.plp = c->stream_id;
	add_pids(&s, c->video, c->nvideo ? 1 : 0);
	add_pids(&s, c->audio, c->naudio);
	add_pids(&s, c->other, c->nother);
	if (p->cb)
		p->cb(p->ctx, &s);
	p->count++;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ')
		s++;
	e = s + strlen(s);
	while (e > s && e[-1] == ' ')
		e--;
	*e = '\0';
	return s;
}

static int parse_line(struct parser *p, char *line)
{
	char *s = trim(line), *eq, *key, *val;
	size_t n;
	int r;

	if (!*s || *s == '#')
		return 0;
	if (*s == '[') {
		n = strlen(s);
		if (s[n - 1] != ']')
			return perr(p, p->line, "'[' without ']'");
		s[n - 1] = '\0';
		s = trim(s + 1);
		if (!*s)
			return perr(p, p->line, "a service without a name");
		if (chan_close(p))
			return -1;
		chan_open(&p->c, s, p->line);
		return 0;
	}
	eq = strchr(s, '=');
	if (!eq)
		return perr(p, p->line, "expected KEY = VALUE or [NAME]");
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	if (!*key)
		return perr(p, p->line, "no key before '='");
	if (!p->c.line)
		return perr(p, p->line, "%.64s outside a [NAME] section", key);
	r = chan_key(p, key, val);
	return r < 0 ? -1 : 0;
}

/*
 * The next line of f into buf (cap bytes), without its newline, a '\r'
 * before it, blanks as spaces and control characters as '?'.  1: a line;
 * 0: the end; -1: longer than cap - 1; -2: a NUL in it.
 */
static int read_line(FILE *f, char *buf, size_t cap)
{
	size_t n = 0;
	int ch;

	while ((ch = getc(f)) != EOF && ch != '\n') {
		if (n == cap - 1)
			return -1;
		if (!ch)
			return -2;
		buf[n++] = ch == '\t' ? ' ' : (char)ch;
	}
	if (ch == EOF && !n)
		return 0;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	vt_text_clean(buf);
	return 1;
}

int vtd_channels_read(FILE *f, const char *name,
		      void (*cb)(void *ctx, const struct vtd_service *s),
		      void *ctx, char *err, size_t errlen)
{
	struct parser *p = calloc(1, sizeof(*p));
	char line[VTD_CHANNELS_LINE_MAX + 1];
	int ret = -1, r;

	if (!p) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	p->file = name;
	p->err = err;
	p->errlen = errlen;
	p->cb = cb;
	p->ctx = ctx;
	for (;;) {
		r = read_line(f, line, sizeof(line));
		if (!r)
			break;
		p->line++;
		if (r == -1) {
			perr(p, p->line, "line longer than %d characters",
			     VTD_CHANNELS_LINE_MAX);
			goto out;
		}
		if (r == -2) {
			perr(p, p->line, "a NUL character: not a text file");
			goto out;
		}
		if (parse_line(p, line))
			goto out;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		goto out;
	}
	if (chan_close(p))
		goto out;
	ret = p->count;
out:
	free(p);
	return ret;
}

int vtd_channels_load(const char *path,
		      void (*cb)(void *ctx, const struct vtd_service *s),
		      void *ctx, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = vtd_channels_read(f, path, cb, ctx, err, errlen);
	fclose(f);
	return ret;
}
