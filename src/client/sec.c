// SPDX-License-Identifier: GPL-2.0
/*
 * sec.c - the applications' SEC commands kept for replay, see sec.h.
 */
#include <string.h>

#include "client/sec.h"

void vc_sec_init(struct vc_sec_log *l)
{
	memset(l, 0, sizeof(*l));
	l->last_voltage = -1;
	l->last_hv = -1;
}

void vc_sec_record(struct vc_sec_log *l, const struct vc_sec_op *op)
{
	if (l->tuned_since) {
		l->num = 0;
		l->tuned_since = false;
	}
	if (l->num == VC_SEC_LOG) {
		memmove(l->op, l->op + 1, sizeof(l->op) - sizeof(l->op[0]));
		l->num--;
	}
	l->op[l->num++] = *op;
	if (op->type == VTP_SET_VOLTAGE)
		l->last_voltage = op->value;
	if (op->type == VTP_ENABLE_HIGH_VOLTAGE)
		l->last_hv = op->value;
}

void vc_sec_tuned(struct vc_sec_log *l)
{
	l->tuned_since = true;
}

int vc_sec_replay(const struct vc_sec_log *l, struct vc_sec_op *out)
{
	bool has_voltage = false;
	int i, n = 0;

	for (i = 0; i < l->num; i++)
		has_voltage |= l->op[i].type == VTP_SET_VOLTAGE;
	if (l->last_hv >= 0)
		out[n++] = (struct vc_sec_op){
			.type = VTP_ENABLE_HIGH_VOLTAGE, .value = l->last_hv };
	if (l->last_voltage >= 0 && !has_voltage)
		out[n++] = (struct vc_sec_op){
			.type = VTP_SET_VOLTAGE, .value = l->last_voltage };
	for (i = 0; i < l->num; i++)
		out[n++] = l->op[i];
	return n;
}

const char *vc_sec_name(const struct vc_sec_op *op)
{
	return vtp_type_name(op->type);
}
