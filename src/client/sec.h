/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sec.h - the SEC commands (tone, voltage, DiSEqC) the applications sent,
 * kept so that a new session to the tuner can be brought to the same
 * state: the log since the last tune, and what to replay from it.
 */
#ifndef VC_SEC_H
#define VC_SEC_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/vtp.h"

#define VC_SEC_LOG		16
#define VC_SEC_REPLAY_MAX	(VC_SEC_LOG + 2)

/* One SEC command: a VTP type and its argument. */
struct vc_sec_op {
	uint16_t type;		/* VTP_SET_TONE ... VTP_DISEQC_MASTER */
	uint8_t value;		/* tone, voltage, burst; unused for DiSEqC */
	struct vtp_diseqc d;	/* VTP_DISEQC_MASTER */
};

/*
 * The commands of the sequence that led to the last tune (a switch
 * command, then the LNB's voltage and tone), and the last voltage and
 * high-voltage setting ever sent, which hold across sequences.
 */
struct vc_sec_log {
	struct vc_sec_op op[VC_SEC_LOG];
	int num;
	bool tuned_since;	/* the next command starts a new sequence */
	int last_voltage;	/* -1: never set */
	int last_hv;		/* -1: never set */
};

void vc_sec_init(struct vc_sec_log *l);
/* A command sent by an application (the oldest forgotten when full). */
void vc_sec_record(struct vc_sec_log *l, const struct vc_sec_op *op);
/* A tune: the next command starts a new sequence. */
void vc_sec_tuned(struct vc_sec_log *l);
/*
 * What a new session replays, in order: the high-voltage setting, the
 * last voltage unless the sequence sets one, the sequence.  Fills out
 * (VC_SEC_REPLAY_MAX entries) and returns the count.
 */
int vc_sec_replay(const struct vc_sec_log *l, struct vc_sec_op *out);
/* The VTP type's name for logs. */
const char *vc_sec_name(const struct vc_sec_op *op);

#endif
