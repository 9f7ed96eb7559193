/* SPDX-License-Identifier: GPL-2.0 */
/*
 * query.h - the SAT>IP query (?src=1&freq=11494&pol=h&msys=dvbs2...):
 * parsing, formatting, and what it means on a Linux DVB frontend
 * (DVBv5 properties, LNB, voltage, tone, DiSEqC), both ways: a server
 * tunes a frontend for a query, a client makes a query of what an
 * application told its frontend.  Pure: no I/O.
 * The mapping is described in docs/satip.md, "The query and the tuning".
 */
#ifndef SATIP_QUERY_H
#define SATIP_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/vtp.h"

#define SATIP_MAX_PIDS		128	/* entries of one PID list */
#define SATIP_PID_MAX		8191
/* msys=dvbc2: a SAT>IP system that Linux has no delivery system for */
#define SATIP_SYS_DVBC2		0x100

/* The tuning attributes; bit (1 << a) of struct satip_tune.present. */
enum satip_attr {
	SATIP_A_SRC,		/* DVB-S/S2 */
	SATIP_A_FE,
	SATIP_A_FREQ,
	SATIP_A_POL,
	SATIP_A_RO,
	SATIP_A_MSYS,
	SATIP_A_MTYPE,
	SATIP_A_PLTS,
	SATIP_A_SR,
	SATIP_A_FEC,
	SATIP_A_ISI,
	SATIP_A_PLSM,
	SATIP_A_PLSC,
	SATIP_A_BW,		/* DVB-T/T2, DVB-C2 */
	SATIP_A_TMODE,
	SATIP_A_GI,
	SATIP_A_PLP,
	SATIP_A_T2ID,
	SATIP_A_SM,
	SATIP_A_C2TFT,		/* DVB-C/C2 */
	SATIP_A_DS,
	SATIP_A_SPECINV,
	SATIP_A_NUM
};

enum satip_pol { SATIP_POL_H = 1, SATIP_POL_V, SATIP_POL_L, SATIP_POL_R };
enum satip_plsm { SATIP_PLSM_ROOT = 1, SATIP_PLSM_GOLD, SATIP_PLSM_COMBO };

/*
 * A tuning as the query gives it.  A field counts only if its bit is in
 * present; present == 0: the query does not tune (PIDs only, or empty).
 */
struct satip_tune {
	uint32_t present;	/* 1 << enum satip_attr */
	uint32_t src;		/* 1..255 */
	uint32_t fe;		/* 1..65535 */
	uint32_t freq;		/* kHz (the query says MHz) */
	uint32_t pol;		/* enum satip_pol */
	uint32_t ro;		/* enum fe_rolloff */
	uint32_t msys;		/* enum fe_delivery_system, SATIP_SYS_DVBC2 */
	uint32_t mtype;		/* enum fe_modulation */
	uint32_t plts;		/* enum fe_pilot: PILOT_ON, PILOT_OFF */
	uint32_t sr;		/* symbols/s (the query says ksym/s) */
	uint32_t fec;		/* enum fe_code_rate */
	uint32_t isi;		/* 0..255 */
	uint32_t plsm;		/* enum satip_plsm */
	uint32_t plsc;		/* 0..262143 */
	uint32_t bw;		/* Hz (the query says MHz) */
	uint32_t tmode;		/* enum fe_transmit_mode */
	uint32_t gi;		/* enum fe_guard_interval */
	uint32_t plp;		/* 0..255 */
	uint32_t t2id;		/* 0..65535 */
	uint32_t sm;		/* 0 SISO, 1 MISO */
	uint32_t c2tft;		/* 0..2 */
	uint32_t ds;		/* 0..255 */
	uint32_t specinv;	/* 0, 1 */
};

static inline bool satip_has(const struct satip_tune *t, enum satip_attr a)
{
	return t->present & (1U << a);
}

enum satip_pids_mode {
	SATIP_PIDS_KEEP,	/* no pids= */
	SATIP_PIDS_LIST,	/* pids=0,16,17 (or pids= : an empty list) */
	SATIP_PIDS_ALL,		/* pids=all: the whole TS */
	SATIP_PIDS_NONE,	/* pids=none */
};

/* What the query does to the PIDs: pids=, or addpids= and/or delpids=. */
struct satip_pids_op {
	enum satip_pids_mode mode;
	unsigned int num;		/* pids= list */
	uint16_t pid[SATIP_MAX_PIDS];
	bool has_add, has_del;
	unsigned int num_add;
	uint16_t add[SATIP_MAX_PIDS];
	unsigned int num_del;
	uint16_t del[SATIP_MAX_PIDS];
};

/*
 * Parse a query (the text after '?', NUL-terminated, %XX decoded here).
 * Names and values in any case, attributes in any order, unknown ones
 * ignored, an empty value (plts=) as if the attribute were absent.
 * PID lists keep the order given, without repeats.  Returns 0, or:
 *   -400  junk, a duplicate, a value out of range or not SAT>IP's, pids=
 *         with addpids= or delpids=: err gets the attribute ("fec=99",
 *         for Check-Syntax:)
 *   -414  a PID list longer than SATIP_MAX_PIDS (err: the attribute, cut
 *         short); the server may answer 414 or 503 No-More: pids
 * t and op are filled as far as parsing went even on error.
 * err (errlen bytes, may be 0) is always terminated when errlen > 0.
 */
int satip_query_parse(const char *query, struct satip_tune *t,
		      struct satip_pids_op *op, char *err, size_t errlen);

/*
 * Two tunings on the same transponder (tuner sharing): same src (1 if
 * absent), msys and freq, and same pol, sr, bw, isi, plsc, plp and t2id
 * wherever both give them.
 */
bool satip_tune_same(const struct satip_tune *a, const struct satip_tune *b);

/*
 * The query that names t: "src=1&freq=11362&pol=h&msys=dvbs2&..." with
 * every attribute present, in the spec's order, the inverse of
 * satip_query_parse() (no pids); one whose value has no SAT>IP name
 * (ROLLOFF_AUTO, FEC_6_7) is left out.  The length, or -ENOBUFS.
 */
int satip_query_format(char *buf, size_t cap, const struct satip_tune *t);

/* The SAT>IP token of a value of attribute a ("8psk", "0.35"), NULL if none. */
const char *satip_tok_name(enum satip_attr a, uint32_t value);

/* A modulation (enum fe_modulation) SAT>IP allows with delivery system msys. */
bool satip_mtype_valid(uint32_t msys, uint32_t mtype);

/*
 * The tuning part of a report, fields in the order of the spec's fmtp
 * line (an absent field is empty):
 *   DVB-S/S2: freq,pol,msys,mtype,plts,ro,sr,fec
 *   DVB-T/T2: freq,bw,msys,tmode,mtype,gi,fec,plp,t2id,sm
 *   DVB-C/C2: freq,bw,msys,mtype,sr,c2tft,ds,plp,specinv
 * freq in MHz with two decimals (three if kHz need them), sr in ksym/s.
 * Returns the length (buf terminated), -ENOBUFS, or -EINVAL without msys.
 */
int satip_tune_format(char *buf, size_t cap, const struct satip_tune *t);

/* ---- on a Linux frontend ------------------------------------------------ */

/* A satellite LNB; SATIP_LNB_UNIVERSAL: 9750/10600 MHz, switch 11700 MHz. */
struct satip_lnb {
	uint32_t lof_low;	/* kHz */
	uint32_t lof_high;	/* kHz; 0: one LOF only, never the tone */
	uint32_t lof_switch;	/* kHz: high band from this frequency up */
	bool diseqc;		/* send the committed switch command for src */
};
#define SATIP_LNB_UNIVERSAL	{ 9750000, 10600000, 11700000, true }

#define SATIP_IF_MIN		900000	/* kHz: the L band's tuners */
#define SATIP_IF_MAX		2200000

#define SATIP_MAX_PROPS		16

/*
 * What a frontend must do for a tuning.  Satellite (sec true): first the
 * SEC - tone off, voltage, the DiSEqC message if diseqc.len, 15 ms, the
 * tone - then the properties.  props never holds DTV_CLEAR or DTV_TUNE:
 * the backend sends DTV_CLEAR before and DTV_TUNE after them.
 */
struct satip_dvb {
	unsigned int num;
	struct vtp_prop props[SATIP_MAX_PROPS];
	bool sec;
	bool hiband;
	uint32_t voltage;	/* enum fe_sec_voltage: SEC_VOLTAGE_13 or _18 */
	uint32_t tone;		/* enum fe_sec_tone_mode */
	struct vtp_diseqc diseqc;	/* len 0: none */
};

/*
 * The DVBv5 properties, SEC and DiSEqC of a tuning (docs/satip.md).
 * lnb: the satellite LNB (NULL: SATIP_LNB_UNIVERSAL).  Returns 0, or
 *   -400  a mandatory attribute missing (freq, msys; pol and sr for
 *         DVB-S/S2; sr for DVB-C), a modulation of another system,
 *         plsm=combo: err names it ("sr", "mtype=8psk")
 *   -403  out of range here: an IF outside SATIP_IF_MIN..SATIP_IF_MAX,
 *         src above 4 (above 1 without DiSEqC) (err: "freq=...", "src=5")
 *   -503  msys=dvbc2: no Linux frontend can tune it
 */
int satip_tune_to_props(const struct satip_tune *t, const struct satip_lnb *lnb,
			struct satip_dvb *out, char *err, size_t errlen);

/*
 * DVB-S2 physical layer scrambling: the gold code index (0..262142) of a
 * root code (1..262143), -1 if root is not one; and back.
 */
int satip_pls_root_to_gold(uint32_t root);
uint32_t satip_pls_gold_to_root(uint32_t gold);

/* ---- a client's side: a frontend's tuning as a query (frontend.c) ------- */

/*
 * What a Linux DVB application told a (virtual) frontend - DVBv5
 * properties, voltage, tone, DiSEqC or burst - as a SAT>IP tuning, the
 * inverse of satip_tune_to_props().  docs/satip.md, "Client side".
 */

/* An LNB with a LOF below this (kHz) is a C-band one: LOF above the signal. */
#define SATIP_LOF_CBAND_MAX	7000000

/* What the application set of the SEC since the frontend was opened. */
struct satip_sec_state {
	uint32_t src;		/* 1..: from DiSEqC or burst, 0: none seen (src=1) */
	int tone;		/* SEC_TONE_ON / SEC_TONE_OFF, -1 unknown */
	int voltage;		/* SEC_VOLTAGE_13 / _18 / _OFF, -1 unknown */
};

/* Nothing seen yet: src 0, tone and voltage -1. */
void satip_sec_init(struct satip_sec_state *sec);

/*
 * The src a DiSEqC master command selects, 0 if it selects no input:
 *   committed switch (DiSEqC 1.0), framing E0..E3, address 00 or 10..1F,
 *   command 38, data xx:  ((xx & 0x0c) >> 2) + 1 (position, option:
 *   1..4, the inverse of the command satip_tune_to_props() sends)
 *   uncommitted switch (DiSEqC 1.1), command 39: (xx & 0x0f) + 1 (1..16;
 *   SAT>IP has no cascade: the last command sent decides)
 */
unsigned int satip_src_of_diseqc(const uint8_t *msg, unsigned int len);

/* The src of a tone burst: SEC_MINI_A 1, SEC_MINI_B 2, else 0. */
unsigned int satip_src_of_burst(unsigned int burst);

/*
 * The SAT>IP tuning of num DVBv5 properties (as vtunerc gets them from
 * the kernel; the last of each command counts) and the SEC state.  AUTO
 * values, and values SAT>IP has no name for, are left out:
 *   every system: msys (DTV_DELIVERY_SYSTEM: DVB-S, S2, T, T2, C annex A),
 *     mtype (DTV_MODULATION, if valid for the system)
 *   DVB-S/S2: freq = the IF (DTV_FREQUENCY, kHz) + the LOF the tone
 *     selects through lnb (NULL: SATIP_LNB_UNIVERSAL; tone unknown: off;
 *     a LOF below SATIP_LOF_CBAND_MAX: LOF - IF), pol from the voltage
 *     (18 V h, 13 V v), src (sec->src, 1 if 0), sr, fec (DTV_INNER_FEC),
 *     DVB-S: mtype qpsk and ro 0.35 always; DVB-S2: ro, plts, isi
 *     (DTV_STREAM_ID bits 0..7 unless NO_STREAM_ID_FILTER) and plsm/plsc
 *     from DTV_SCRAMBLING_SEQUENCE_INDEX (gold, if not 0) or else from
 *     DTV_STREAM_ID bits 8..25 (code) and 26..27 (0 root, 1 gold, 2
 *     combo), as out-of-tree drivers take them (root 1 / gold 0, the
 *     default, left out)
 *   DVB-T/T2: freq (Hz to kHz), bw (DTV_BANDWIDTH_HZ), tmode, gi, fec
 *     (DTV_CODE_RATE_HP); DVB-T2: plp (DTV_STREAM_ID 0..255); t2id and sm
 *     have no property: never given
 *   DVB-C: freq (Hz to kHz), sr, specinv (DTV_INVERSION on/off)
 * sec may be NULL (nothing known).  Returns 0, or -EINVAL with err
 * (errlen bytes, may be 0) naming what is missing or wrong: "delivery
 * system" (none, or one SAT>IP has not), "frequency", "voltage"
 * (satellite: unknown or off), "symbol rate" (DVB-S/S2, DVB-C).  out is
 * filled as far as it went.
 */
int satip_tune_from_props(const struct vtp_prop *props, unsigned int num,
			  const struct satip_sec_state *sec,
			  const struct satip_lnb *lnb, struct satip_tune *out,
			  char *err, size_t errlen);

/* ---- PID sets ----------------------------------------------------------- */

/* The PIDs a stream wants: all, or a list (sorted ascending). */
struct satip_pidset {
	bool all;
	unsigned int num;
	uint16_t pid[SATIP_MAX_PIDS];
};

/*
 * Apply a query's PID operation: pids= replaces the set, addpids= adds,
 * delpids= removes (adding or removing does not change "all").
 * Returns 0, or -ENOSPC if the set would exceed SATIP_MAX_PIDS (set
 * unchanged).
 */
int satip_pids_apply(struct satip_pidset *set, const struct satip_pids_op *op);

/*
 * The PID part of a PLAY query that takes a server's stream from have to
 * want: "pids=all" (want->all), "pids=none" (want empty), "pids=0,16,17",
 * or, with use_add_del and when shorter, "addpids=18&delpids=17" (either
 * may be absent; never from have->all); "" when nothing changes.  have
 * NULL (SETUP, the server's set unknown): want as a whole, never "".
 * PIDs in want's order.  At most max_pids PIDs may be asked for (0:
 * SATIP_MAX_PIDS; more than SATIP_MAX_PIDS counts as that).  Returns the
 * length written (buf terminated), -E2BIG if want has more PIDs than that
 * (the caller then asks for pids=all and filters itself), -ENOBUFS if
 * buf is too small (buf then "").
 */
int satip_pids_query(char *buf, size_t cap, const struct satip_pidset *have,
		     const struct satip_pidset *want, bool use_add_del,
		     unsigned int max_pids);

#endif /* SATIP_QUERY_H */
