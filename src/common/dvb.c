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

const char *vt_delsys_classic_type(unsigned int delsys)
{
	return delsys < ARRAY_SIZE(delsys_tab) ? delsys_tab[delsys].classic :
	       NULL;
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
