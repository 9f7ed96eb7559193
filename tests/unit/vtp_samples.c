// SPDX-License-Identifier: GPL-2.0
/*
 * vtp_samples.c - example messages with every field set to a distinct,
 * non-trivial value, so that a field lost in a round trip shows.
 */
#include <string.h>
#include <linux/dvb/frontend.h>

#include "vtp_samples.h"

static const uint16_t sample_types[] = {
	VTP_HELLO, VTP_HELLO_REPLY, VTP_OK, VTP_ERROR, VTP_KEEPALIVE,
	VTP_KEEPALIVE_REPLY, VTP_LIST_TUNERS, VTP_TUNER_LIST, VTP_OPEN_TUNER,
	VTP_OPEN_REPLY, VTP_CLOSE_TUNER, VTP_TUNE, VTP_SET_TONE,
	VTP_SET_VOLTAGE, VTP_ENABLE_HIGH_VOLTAGE, VTP_DISEQC_MASTER,
	VTP_DISEQC_BURST, VTP_SET_PIDS, VTP_STATUS, VTP_DATA_ATTACH,
	VTP_TS_DATA,
	/* authentication: the messages, and the fields appended with it */
	VTP_AUTH, VTP_AUTH_REPLY, VTP_HELLO, VTP_HELLO_REPLY, VTP_DATA_ATTACH,
};

#define FIRST_AUTH_SAMPLE	21

const int vtp_num_samples = sizeof(sample_types) / sizeof(sample_types[0]);

static uint8_t sample_ts[3 * VTP_TS_PACKET];

static void fill_tuners(struct vtp_tuner_list *l)
{
	static const uint8_t delsys[] = { SYS_DVBS, SYS_DVBS2, SYS_DSS };
	struct vtp_tuner *t;
	int i;

	l->num = 3;
	for (i = 0; i < l->num; i++) {
		t = &l->tuner[i];
		t->index = i * 7 + 1;
		t->flags = i == 1 ? VTP_TUNER_BUSY : 0;
		t->num_delsys = i + 1;
		memcpy(t->delsys, delsys, t->num_delsys);
		t->caps = FE_CAN_INVERSION_AUTO | FE_CAN_2G_MODULATION | i;
		t->freq_min = 950000;
		t->freq_max = 2150000 + i;
		t->freq_step = 1011;
		t->freq_tolerance = 5000;
		t->srate_min = 1000000;
		t->srate_max = 45000000;
		t->srate_tolerance = 500 + i;
		strcpy(t->name, i ? "STV0910 DVB-S/S2" : "");
	}
}

static void fill_tune(struct vtp_tune *t)
{
	static const struct vtp_prop props[] = {
		{ DTV_DELIVERY_SYSTEM, SYS_DVBS2 },
		{ DTV_FREQUENCY, 1177250 },
		{ DTV_SYMBOL_RATE, 22000000 },
		{ DTV_INNER_FEC, FEC_2_3 },
		{ DTV_MODULATION, PSK_8 },
		{ DTV_STREAM_ID, 0xffffffff },
		{ DTV_TUNE, 0 },
	};

	t->seq = 0x01020304;
	t->num = sizeof(props) / sizeof(props[0]);
	memcpy(t->props, props, sizeof(props));
}

static void fill_pids(struct vtp_pids *p)
{
	int i;

	p->num = 9;
	for (i = 0; i < p->num - 1; i++)
		p->pid[i] = 0x100 * i + i;
	p->pid[i] = VTP_PID_FULL_TS;
}

static void fill_status(struct vtp_status *s)
{
	int i, j;

	s->seq = 77;
	s->status = FE_HAS_SIGNAL | FE_HAS_CARRIER | FE_HAS_LOCK;
	s->ber = 12;
	s->signal = 0xabcd;
	s->snr = 0x1234;
	s->ucblocks = 99;
	for (i = 0; i < VTP_NUM_STATS; i++) {
		s->stats[i].len = i % (VTP_MAX_STAT_LAYERS + 1);
		for (j = 0; j < s->stats[i].len; j++) {
			s->stats[i].stat[j].scale = (i + j) % 4;
			s->stats[i].stat[j].uvalue = 0x0102030405060708ULL * (j + 1) + i;
		}
	}
	s->stats[VTP_STAT_CNR].len = 1;
	s->stats[VTP_STAT_CNR].stat[0].scale = FE_SCALE_DECIBEL;
	s->stats[VTP_STAT_CNR].stat[0].svalue = -12345;
}

static void fill_ts(struct vtp_ts *ts)
{
	size_t i;

	for (i = 0; i < sizeof(sample_ts); i++)
		sample_ts[i] = i % VTP_TS_PACKET ? (uint8_t)(i * 13) : 0x47;
	ts->seq = 5;
	ts->data = sample_ts;
	ts->len = sizeof(sample_ts);
}

static void fill_bytes(uint8_t *p, size_t n, uint8_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + 37 * i);
}

void vtp_sample(int i, struct vtp_msg *m)
{
	bool auth = i >= FIRST_AUTH_SAMPLE;

	memset(m, 0, sizeof(*m));
	m->hdr.type = sample_types[i];
	m->hdr.reqid = 1000 + i;

	switch (m->hdr.type) {
	case VTP_HELLO:
		m->u.hello = (struct vtp_hello){ 1, 3, 0x80000001, "vtunerc",
						 false, { 0 } };
		if (auth) {
			m->u.hello.has_nonce = true;
			fill_bytes(m->u.hello.nonce, VTP_NONCE_LEN, 1);
		}
		break;
	case VTP_HELLO_REPLY:
		m->u.hello_reply = (struct vtp_hello_reply){ 1, 0, "vtunerd 1.0",
							     false, { 0 } };
		if (auth) {
			m->u.hello_reply.features = VTP_FEAT_AUTH;
			m->u.hello_reply.has_nonce = true;
			fill_bytes(m->u.hello_reply.nonce, VTP_NONCE_LEN, 2);
		}
		break;
	case VTP_AUTH:
	case VTP_AUTH_REPLY:
		fill_bytes(m->u.auth.mac, VTP_MAC_LEN, m->hdr.type);
		break;
	case VTP_ERROR:
		m->u.error = (struct vtp_error){ 16, m->hdr.reqid,
						 "tuner 1 is busy" };
		break;
	case VTP_KEEPALIVE:
	case VTP_KEEPALIVE_REPLY:
		m->u.stamp = 0xfedcba9876543210ULL;
		break;
	case VTP_TUNER_LIST:
		fill_tuners(&m->u.tuners);
		break;
	case VTP_OPEN_TUNER:
		m->u.index = 0xbeef;
		break;
	case VTP_OPEN_REPLY:
		m->u.open_reply.index = 8;
		memcpy(m->u.open_reply.token, "0123456789abcdef", VTP_TOKEN_LEN);
		break;
	case VTP_TUNE:
		fill_tune(&m->u.tune);
		break;
	case VTP_SET_TONE:
		m->u.value = SEC_TONE_ON;
		break;
	case VTP_SET_VOLTAGE:
		m->u.value = SEC_VOLTAGE_18;
		break;
	case VTP_ENABLE_HIGH_VOLTAGE:
	case VTP_DISEQC_BURST:
		m->u.value = 1;
		break;
	case VTP_DISEQC_MASTER:
		m->u.diseqc = (struct vtp_diseqc){ 4, { 0xe0, 0x10, 0x38, 0xf3 } };
		break;
	case VTP_SET_PIDS:
		fill_pids(&m->u.pids);
		break;
	case VTP_STATUS:
		m->hdr.reqid = 0;
		fill_status(&m->u.status);
		break;
	case VTP_DATA_ATTACH:
		memcpy(m->u.attach.token, "fedcba9876543210", VTP_TOKEN_LEN);
		if (auth) {
			m->u.attach.has_mac = true;
			fill_bytes(m->u.attach.mac, VTP_MAC_LEN, 3);
		}
		break;
	case VTP_TS_DATA:
		m->hdr.reqid = 0;
		fill_ts(&m->u.ts);
		break;
	}
}
