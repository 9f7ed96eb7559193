#include "vtcommon.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <ctype.h>

const char *progname = "vt-tool";

static void vmsg(int err, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (err)
		fprintf(stderr, "%s: %s: %s\n", progname, buf, strerror(err));
	else
		fprintf(stderr, "%s: %s\n", progname, buf);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
	exit(1);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(err, fmt, ap);
	va_end(ap);
	exit(1);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(0, fmt, ap);
	va_end(ap);
}

void warn_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(err, fmt, ap);
	va_end(ap);
	errno = err;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define N(x) [x] = #x
static const char *const dtv_names[] = {
	N(DTV_UNDEFINED), N(DTV_TUNE), N(DTV_CLEAR), N(DTV_FREQUENCY),
	N(DTV_MODULATION), N(DTV_BANDWIDTH_HZ), N(DTV_INVERSION),
	N(DTV_DISEQC_MASTER), N(DTV_SYMBOL_RATE), N(DTV_INNER_FEC),
	N(DTV_VOLTAGE), N(DTV_TONE), N(DTV_PILOT), N(DTV_ROLLOFF),
	N(DTV_DISEQC_SLAVE_REPLY), N(DTV_FE_CAPABILITY_COUNT),
	N(DTV_FE_CAPABILITY), N(DTV_DELIVERY_SYSTEM),
	N(DTV_ISDBT_PARTIAL_RECEPTION), N(DTV_ISDBT_SOUND_BROADCASTING),
	N(DTV_ISDBT_SB_SUBCHANNEL_ID), N(DTV_ISDBT_SB_SEGMENT_IDX),
	N(DTV_ISDBT_SB_SEGMENT_COUNT), N(DTV_ISDBT_LAYERA_FEC),
	N(DTV_ISDBT_LAYERA_MODULATION), N(DTV_ISDBT_LAYERA_SEGMENT_COUNT),
	N(DTV_ISDBT_LAYERA_TIME_INTERLEAVING), N(DTV_ISDBT_LAYERB_FEC),
	N(DTV_ISDBT_LAYERB_MODULATION), N(DTV_ISDBT_LAYERB_SEGMENT_COUNT),
	N(DTV_ISDBT_LAYERB_TIME_INTERLEAVING), N(DTV_ISDBT_LAYERC_FEC),
	N(DTV_ISDBT_LAYERC_MODULATION), N(DTV_ISDBT_LAYERC_SEGMENT_COUNT),
	N(DTV_ISDBT_LAYERC_TIME_INTERLEAVING), N(DTV_API_VERSION),
	N(DTV_CODE_RATE_HP), N(DTV_CODE_RATE_LP), N(DTV_GUARD_INTERVAL),
	N(DTV_TRANSMISSION_MODE), N(DTV_HIERARCHY),
	N(DTV_ISDBT_LAYER_ENABLED), N(DTV_STREAM_ID),
	N(DTV_DVBT2_PLP_ID_LEGACY), N(DTV_ENUM_DELSYS),
	N(DTV_ATSCMH_FIC_VER), N(DTV_ATSCMH_PARADE_ID), N(DTV_ATSCMH_NOG),
	N(DTV_ATSCMH_TNOG), N(DTV_ATSCMH_SGN), N(DTV_ATSCMH_PRC),
	N(DTV_ATSCMH_RS_FRAME_MODE), N(DTV_ATSCMH_RS_FRAME_ENSEMBLE),
	N(DTV_ATSCMH_RS_CODE_MODE_PRI), N(DTV_ATSCMH_RS_CODE_MODE_SEC),
	N(DTV_ATSCMH_SCCC_BLOCK_MODE), N(DTV_ATSCMH_SCCC_CODE_MODE_A),
	N(DTV_ATSCMH_SCCC_CODE_MODE_B), N(DTV_ATSCMH_SCCC_CODE_MODE_C),
	N(DTV_ATSCMH_SCCC_CODE_MODE_D), N(DTV_INTERLEAVING), N(DTV_LNA),
	N(DTV_STAT_SIGNAL_STRENGTH), N(DTV_STAT_CNR),
	N(DTV_STAT_PRE_ERROR_BIT_COUNT), N(DTV_STAT_PRE_TOTAL_BIT_COUNT),
	N(DTV_STAT_POST_ERROR_BIT_COUNT), N(DTV_STAT_POST_TOTAL_BIT_COUNT),
	N(DTV_STAT_ERROR_BLOCK_COUNT), N(DTV_STAT_TOTAL_BLOCK_COUNT),
	N(DTV_SCRAMBLING_SEQUENCE_INDEX),
};
#undef N

const char *dtv_cmd_name(unsigned int cmd)
{
	if (cmd < ARRAY_SIZE(dtv_names))
		return dtv_names[cmd];
	return NULL;
}

static const struct {
	int sys;
	const char *name;	/* short name */
	const char *classic;	/* SET_TYPE string */
} delsys_tab[] = {
	{ SYS_DVBS,		"dvbs",		"DVB-S" },
	{ SYS_DVBS2,		"dvbs2",	"DVB-S2" },
	{ SYS_DVBT,		"dvbt",		"DVB-T" },
	{ SYS_DVBT2,		"dvbt2",	"DVB-T2" },
	{ SYS_DVBC_ANNEX_A,	"dvbc",		"DVB-C" },
	{ SYS_DVBC_ANNEX_B,	"dvbc_annex_b",	NULL },
	{ SYS_DVBC_ANNEX_C,	"dvbc_annex_c",	NULL },
	{ SYS_ATSC,		"atsc",		"ATSC" },
	{ SYS_ISDBT,		"isdbt",	"ISDB-T" },
	{ SYS_ISDBS,		"isdbs",	NULL },
	{ SYS_ISDBC,		"isdbc",	NULL },
	{ SYS_DSS,		"dss",		NULL },
	{ SYS_TURBO,		"turbo",	NULL },
	{ SYS_DTMB,		"dtmb",		NULL },
	{ SYS_DVBH,		"dvbh",		NULL },
	{ SYS_ATSCMH,		"atscmh",	NULL },
	{ SYS_CMMB,		"cmmb",		NULL },
	{ SYS_DAB,		"dab",		NULL },
	{ SYS_UNDEFINED,	"undefined",	NULL },
};

/* Compare ignoring case and the characters '-' and '_' ("DVB-S2"=="dvbs2"). */
static int name_eq(const char *a, const char *b)
{
	for (;;) {
		while (*a == '-' || *a == '_' || *a == '/')
			a++;
		while (*b == '-' || *b == '_' || *b == '/')
			b++;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
		if (!*a)
			return 1;
		a++;
		b++;
	}
}

int delsys_parse(const char *s)
{
	uint64_t v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(delsys_tab); i++)
		if (name_eq(s, delsys_tab[i].name) ||
		    (delsys_tab[i].classic && name_eq(s, delsys_tab[i].classic)))
			return delsys_tab[i].sys;
	if (name_eq(s, "dvbc_annex_a"))
		return SYS_DVBC_ANNEX_A;
	if (parse_u64(s, &v) == 0 && v < 256)
		return (int)v;
	return -1;
}

const char *delsys_name(int sys)
{
	static __thread char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(delsys_tab); i++)
		if (delsys_tab[i].sys == sys)
			return delsys_tab[i].name;
	snprintf(buf, sizeof(buf), "sys%d", sys);
	return buf;
}

const char *delsys_classic_type(int sys)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(delsys_tab); i++)
		if (delsys_tab[i].sys == sys)
			return delsys_tab[i].classic;
	return NULL;
}

int delsys_is_sat(int sys)
{
	return sys == SYS_DVBS || sys == SYS_DVBS2 || sys == SYS_DSS ||
	       sys == SYS_TURBO || sys == SYS_ISDBS;
}

int delsys_is_ter(int sys)
{
	return sys == SYS_DVBT || sys == SYS_DVBT2 || sys == SYS_ISDBT ||
	       sys == SYS_ATSC || sys == SYS_ATSCMH || sys == SYS_DTMB ||
	       sys == SYS_DVBH || sys == SYS_CMMB || sys == SYS_DAB;
}

int delsys_is_cable(int sys)
{
	return sys == SYS_DVBC_ANNEX_A || sys == SYS_DVBC_ANNEX_B ||
	       sys == SYS_DVBC_ANNEX_C || sys == SYS_ISDBC;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int delsys_list_parse(const char *s, int *out, int max)
{
	char buf[256], *tok, *save = NULL;
	int n = 0;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		int d = delsys_parse(tok);

		if (d < 0 || n >= max)
			return -1;
		out[n++] = d;
	}
	return n ? n : -1;
}
