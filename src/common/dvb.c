// SPDX-License-Identifier: GPL-2.0
/*
 * dvb.c - see dvb.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <strings.h>
#include <linux/dvb/frontend.h>

#include "common/dvb.h"
#include "vtuner.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum { SAT = 1, TER = 2 };

static const struct {
	const char *name;	/* libdvbv5's */
	const char *classic;	/* VTUNER_SET_TYPE of the 2011 ABI */
	unsigned int kind;
} delsys_tab[] = {
	[SYS_UNDEFINED] =	{ "UNDEFINED",		NULL,		0 },
	[SYS_DVBC_ANNEX_A] =	{ "DVBC/ANNEX_A",	"DVB-C",	0 },
	[SYS_DVBC_ANNEX_B] =	{ "DVBC/ANNEX_B",	NULL,		0 },
	[SYS_DVBT] =		{ "DVBT",		"DVB-T",	TER },
	[SYS_DSS] =		{ "DSS",		NULL,		SAT },
	[SYS_DVBS] =		{ "DVBS",		"DVB-S",	SAT },
	[SYS_DVBS2] =		{ "DVBS2",		"DVB-S2",	SAT },
	[SYS_DVBH] =		{ "DVBH",		NULL,		TER },
	[SYS_ISDBT] =		{ "ISDBT",		"ISDB-T",	TER },
	[SYS_ISDBS] =		{ "ISDBS",		NULL,		SAT },
	[SYS_ISDBC] =		{ "ISDBC",		NULL,		0 },
	[SYS_ATSC] =		{ "ATSC",		"ATSC",		TER },
	[SYS_ATSCMH] =		{ "ATSCMH",		NULL,		TER },
	[SYS_DTMB] =		{ "DTMB",		NULL,		TER },
	[SYS_CMMB] =		{ "CMMB",		NULL,		TER },
	[SYS_DAB] =		{ "DAB",		NULL,		TER },
	[SYS_DVBT2] =		{ "DVBT2",		"DVB-T2",	TER },
	[SYS_TURBO] =		{ "TURBO",		NULL,		SAT },
	[SYS_DVBC_ANNEX_C] =	{ "DVBC/ANNEX_C",	NULL,		0 },
};

const char *vt_delsys_name(unsigned int delsys)
{
	static __thread char buf[16];

	if (delsys < ARRAY_SIZE(delsys_tab) && delsys_tab[delsys].name)
		return delsys_tab[delsys].name;
	snprintf(buf, sizeof(buf), "SYS_%u", delsys);
	return buf;
}

/* Equal but for case and the characters '-', '_' and '/'. */
static bool name_eq(const char *a, const char *b)
{
	for (;;) {
		while (*a == '-' || *a == '_' || *a == '/')
			a++;
		while (*b == '-' || *b == '_' || *b == '/')
			b++;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}

int vt_delsys_parse(const char *name)
{
	unsigned int d;

	for (d = 0; d < ARRAY_SIZE(delsys_tab); d++)
		if (delsys_tab[d].name &&
		    (name_eq(name, delsys_tab[d].name) ||
		     (delsys_tab[d].classic &&
		      name_eq(name, delsys_tab[d].classic))))
			return (int)d;
	if (name_eq(name, "DVBC"))
		return SYS_DVBC_ANNEX_A;
	return -1;
}

bool vt_delsys_is_sat(unsigned int delsys)
{
	return delsys < ARRAY_SIZE(delsys_tab) && delsys_tab[delsys].kind == SAT;
}

bool vt_delsys_is_ter(unsigned int delsys)
{
	return delsys < ARRAY_SIZE(delsys_tab) && delsys_tab[delsys].kind == TER;
}

int vt_delsys_fe_type(unsigned int delsys)
{
	if (vt_delsys_is_sat(delsys))
		return FE_QPSK;
	switch (delsys) {
	case SYS_DVBC_ANNEX_A:
	case SYS_DVBC_ANNEX_C:
	case SYS_ISDBC:
		return FE_QAM;
	case SYS_ATSC:
	case SYS_ATSCMH:
	case SYS_DVBC_ANNEX_B:
		return FE_ATSC;
	default:
		return FE_OFDM;
	}
}

const char *vt_delsys_classic_type(unsigned int delsys)
{
	return delsys < ARRAY_SIZE(delsys_tab) ? delsys_tab[delsys].classic :
	       NULL;
}

struct sym {
	const char *name;
	int value;
};

static const struct sym mod_syms[] = {
	{ "QPSK", QPSK }, { "QAM/16", QAM_16 }, { "QAM/32", QAM_32 },
	{ "QAM/64", QAM_64 }, { "QAM/128", QAM_128 }, { "QAM/256", QAM_256 },
	{ "QAM/AUTO", QAM_AUTO }, { "VSB/8", VSB_8 }, { "VSB/16", VSB_16 },
	{ "PSK/8", PSK_8 }, { "APSK/16", APSK_16 }, { "APSK/32", APSK_32 },
	{ "DQPSK", DQPSK }, { "QAM/4_NR", QAM_4_NR },
	{ "8PSK", PSK_8 }, { "16APSK", APSK_16 }, { "32APSK", APSK_32 },
	{ "AUTO", QAM_AUTO }, { NULL, 0 }
};

static const struct sym fec_syms[] = {
	{ "NONE", FEC_NONE }, { "1/2", FEC_1_2 }, { "2/3", FEC_2_3 },
	{ "3/4", FEC_3_4 }, { "4/5", FEC_4_5 }, { "5/6", FEC_5_6 },
	{ "6/7", FEC_6_7 }, { "7/8", FEC_7_8 }, { "8/9", FEC_8_9 },
	{ "AUTO", FEC_AUTO }, { "3/5", FEC_3_5 }, { "9/10", FEC_9_10 },
	{ "2/5", FEC_2_5 }, { NULL, 0 }
};

static const struct sym rolloff_syms[] = {
	{ "35", ROLLOFF_35 }, { "20", ROLLOFF_20 }, { "25", ROLLOFF_25 },
	{ "AUTO", ROLLOFF_AUTO }, { NULL, 0 }
};

static const struct sym pol_syms[] = {
	{ "HORIZONTAL", VT_POL_H }, { "VERTICAL", VT_POL_V },
	{ "LEFT", VT_POL_L }, { "RIGHT", VT_POL_R },
	{ "H", VT_POL_H }, { "V", VT_POL_V }, { "L", VT_POL_L },
	{ "R", VT_POL_R }, { NULL, 0 }
};

static int sym_parse(const struct sym *t, const char *name)
{
	for (; t->name; t++)
		if (name_eq(name, t->name))
			return t->value;
	return -1;
}

int vt_modulation_parse(const char *name)
{
	return sym_parse(mod_syms, name);
}

int vt_fec_parse(const char *name)
{
	return sym_parse(fec_syms, name);
}

int vt_rolloff_parse(const char *name)
{
	return sym_parse(rolloff_syms, name);
}

int vt_pol_parse(const char *name)
{
	return sym_parse(pol_syms, name);
}

static const char *const msg_names[] = {
	[MSG_SET_FRONTEND] =		"SET_FRONTEND",
	[MSG_GET_FRONTEND] =		"GET_FRONTEND",
	[MSG_READ_STATUS] =		"READ_STATUS",
	[MSG_READ_BER] =		"READ_BER",
	[MSG_READ_SIGNAL_STRENGTH] =	"READ_SIGNAL_STRENGTH",
	[MSG_READ_SNR] =		"READ_SNR",
	[MSG_READ_UCBLOCKS] =		"READ_UCBLOCKS",
	[MSG_SET_TONE] =		"SET_TONE",
	[MSG_SET_VOLTAGE] =		"SET_VOLTAGE",
	[MSG_ENABLE_HIGH_VOLTAGE] =	"ENABLE_HIGH_VOLTAGE",
	[MSG_SEND_DISEQC_MSG] =		"SEND_DISEQC_MSG",
	[MSG_SEND_DISEQC_BURST] =	"SEND_DISEQC_BURST",
	[MSG_PIDLIST] =			"PIDLIST",
	[MSG_TYPE_CHANGED] =		"TYPE_CHANGED",
	[MSG_SET_PROPERTY] =		"SET_PROPERTY",
	[MSG_GET_PROPERTY] =		"GET_PROPERTY",
};

const char *vt_msg_name(int type)
{
	if (type < 0 || (unsigned int)type >= ARRAY_SIZE(msg_names))
		return NULL;
	return msg_names[type];
}

int vt_msg_parse(const char *name)
{
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(msg_names); t++)
		if (msg_names[t] && !strcasecmp(name, msg_names[t]))
			return (int)t;
	return -1;
}
