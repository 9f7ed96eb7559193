#include "common/clock.h"
#include "common/dvb.h"
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
	return vt_now_ns() / 1e9;
}

int64_t now_ms(void)
{
	return (int64_t)(vt_now_ns() / 1000000);
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

int delsys_parse(const char *s)
{
	uint64_t v;
	int d = vt_delsys_parse(s);

	if (d >= 0)
		return d;
	if (parse_u64(s, &v) == 0 && v < 256)
		return (int)v;
	return -1;
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
