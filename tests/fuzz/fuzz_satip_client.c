// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_satip_client.c - libFuzzer harness of the client's side of the
 * SAT>IP library (src/satip/: reply.c, rtprx.c, report.c, frontend.c,
 * discover.c, query.c)
 *
 * The input is what a server sends, read every way a client reads it:
 *   - an RTSP connection: replies and '$' frames one after the other, each
 *     reply also cut short at a point chosen by the input (a prefix of a
 *     reply is incomplete, or the same error), bodies searched for a
 *     stream's fmtp line, '$' frames parsed as RTP (channel 0) or RTCP
 *     (channel 1), reports parsed and turned into a frontend status;
 *   - the whole input as one RTP datagram, an RTCP compound packet, an SDP
 *     body, a report string, a desc.xml, an SSDP datagram, a Transport:;
 *   - the sequence tracker, datagrams taken from the input (4 bytes each:
 *     sequence number, size, time step): deliveries must come in order,
 *     each datagram once, and nothing may be held after a final expire;
 *   - DVBv5 properties and SEC taken from the input: a tuning made of them
 *     must format as a query that parses back to it;
 *   - two PID sets taken from the input: the PLAY query between them must
 *     take a server from one to the other.
 * Every string must be terminated within its array.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/dvb/frontend.h>

#include "satip/desc.h"
#include "satip/query.h"
#include "satip/reply.h"
#include "satip/report.h"
#include "satip/rtprx.h"
#include "satip/rtsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT	(2 * SATIP_REPLY_MAX)

static void check_str(const char *s, size_t cap)
{
	if (!memchr(s, '\0', cap))
		abort();
}

static void use_report(const char *s)
{
	struct satip_report r;
	struct vtp_status st;
	struct satip_signal back;
	char q[1024];

	if (satip_report_parse(s, &r))
		return;
	if (r.sig.level > 255 || r.sig.quality > 15 ||
	    r.pids.num > SATIP_MAX_PIDS || (r.pids.all && r.pids.num))
		abort();
	/* what it parsed is a query that parses back the same */
	if (satip_query_format(q, sizeof(q), &r.tune) < 0)
		abort();
	/* and a status that satip_signal_of() reads back (level 0 locked: 1) */
	satip_signal_to_status(&r.sig, &st);
	satip_signal_of(&st, SYS_DVBS2, &back);
	if (back.lock != r.sig.lock ||
	    back.level != (r.sig.level || !r.sig.lock ? r.sig.level : 1) ||
	    (r.sig.lock && r.sig.quality && back.quality != r.sig.quality))
		abort();
}

static void use_rtcp(const uint8_t *p, size_t len)
{
	char out[1024], tiny[8];
	int ret;

	ret = satip_rtcp_ses1(p, len, out, sizeof(out));
	if (ret != 1 && ret != 0 && ret != -EBADMSG && ret != -ENOBUFS)
		abort();
	check_str(out, sizeof(out));
	if (ret == 1)
		use_report(out);
	if (satip_rtcp_ses1(p, len, tiny, sizeof(tiny)) == 1 && ret != 1)
		abort();
	check_str(tiny, sizeof(tiny));
}

static void use_rtp(const uint8_t *p, size_t len)
{
	struct satip_rtp_info ri;
	int ret = satip_rtp_parse(p, len, &ri);

	if (ret && ret != -EPROTO && ret != -EPROTONOSUPPORT && ret != -EBADMSG)
		abort();
	if (!ret && (ri.hlen + ri.plen > len || ri.plen % SATIP_TS_PACKET))
		abort();
}

static void use_sdp(const char *p, size_t len, int stream)
{
	char out[512];
	int ret = satip_sdp_fmtp(p, len, stream, out, sizeof(out));

	if (ret && ret != -ENOENT && ret != -ENOBUFS)
		abort();
	check_str(out, sizeof(out));
	if (!ret)
		use_report(out);
}

static void check_reply(const struct satip_reply *r, int ret)
{
	check_str(r->session, sizeof(r->session));
	check_str(r->public_methods, sizeof(r->public_methods));
	check_str(r->content_type, sizeof(r->content_type));
	check_str(r->transport.destination, sizeof(r->transport.destination));
	check_str(r->transport.source, sizeof(r->transport.source));
	if (ret > 0 && (r->code < 100 || r->code > 999 ||
			r->content_length > (size_t)ret || r->stream_id < -1 ||
			r->stream_id > 65535))
		abort();
}

/* An RTSP connection's bytes: replies and '$' frames. */
static void connection(const uint8_t *data, size_t size)
{
	struct satip_reply r, r2;
	size_t pos = 0, cut;
	uint8_t ch;
	int ret, ret2;

	while (pos < size) {
		const uint8_t *p = data + pos;
		size_t left = size - pos;

		if (p[0] == '$') {
			ret = satip_interleaved(p, left, &ch);
			if (ret <= 0)
				return;
			if (ch == 0)
				use_rtp(p + 4, (size_t)ret - 4);
			else
				use_rtcp(p + 4, (size_t)ret - 4);
			pos += (size_t)ret;
			continue;
		}
		ret = satip_reply_parse((const char *)p, left, &r);
		check_reply(&r, ret);
		if (!ret && left >= SATIP_REPLY_MAX)
			abort();
		if (ret && ret != -ENOMSG && ret != -EBADMSG && ret != -EMSGSIZE &&
		    ret < 0)
			abort();
		/* a prefix: incomplete, or the same answer */
		cut = (size_t)p[left / 2] * 257 % (left + 1);
		if (ret > 0 && cut >= (size_t)ret)
			cut = (size_t)ret - 1;
		ret2 = satip_reply_parse((const char *)p, cut, &r2);
		check_reply(&r2, ret2);
		if (ret2 && (ret <= 0 ? ret2 != ret : true))
			abort();
		if (ret == -ENOMSG) {
			if (r.skip >= left || p[r.skip] != '$')
				abort();
			pos += r.skip;
			continue;
		}
		if (ret <= 0)
			return;
		if ((size_t)ret > left)
			abort();
		if (r.content_length)
			use_sdp((const char *)p + ret - r.content_length,
				r.content_length, r.stream_id);
		pos += (size_t)ret;
	}
}

/* ---- the sequence tracker ----------------------------------------------- */

static struct rxcheck {
	struct satip_rx rx;
	uint64_t delivered;
	uint64_t epoch;		/* resyncs + restarts of the last delivery */
	uint64_t restarts;
	bool have_last;
	uint16_t last;
} rc;

static void deliver(void *arg, const uint8_t *p, size_t len)
{
	struct rxcheck *c = arg;
	uint64_t epoch = c->rx.resyncs + c->restarts;
	uint16_t seq;

	if (len % SATIP_TS_PACKET || len > 9 * SATIP_TS_PACKET)
		abort();
	c->delivered++;
	if (!len)
		return;
	seq = (uint16_t)(p[0] << 8 | p[1]);
	if (c->have_last && epoch == c->epoch &&
	    (int16_t)(uint16_t)(seq - c->last) <= 0)
		abort();
	c->have_last = true;
	c->last = seq;
	c->epoch = epoch;
}

static void tracker(const uint8_t *data, size_t size)
{
	static uint8_t pay[9 * SATIP_TS_PACKET];
	uint64_t now = 1, dl, dropped = 0;
	size_t i;
	uint16_t seq;
	unsigned int n;

	memset(&rc, 0, sizeof(rc));
	satip_rx_init(&rc.rx, 2000000);
	for (i = 0; i + 4 <= size; i += 4) {
		seq = (uint16_t)(data[i] << 8 | data[i + 1]);
		n = data[i + 2] % 10;
		now += (uint64_t)data[i + 3] * 50000;
		if (data[i + 2] == 0xff) {
			dropped += rc.rx.held;
			satip_rx_restart(&rc.rx);
			rc.restarts++;
			continue;
		}
		if (data[i + 2] == 0xfe) {
			dl = satip_rx_deadline(&rc.rx);
			if (!dl != !rc.rx.held)
				abort();
			if (dl) {
				satip_rx_expire(&rc.rx, dl, deliver, &rc);
				if (satip_rx_deadline(&rc.rx) &&
				    satip_rx_deadline(&rc.rx) <= dl)
					abort();
				now = dl > now ? dl : now;
			}
			continue;
		}
		pay[0] = (uint8_t)(seq >> 8);
		pay[1] = (uint8_t)seq;
		satip_rx_push(&rc.rx, seq, n ? pay : NULL, n * SATIP_TS_PACKET,
			      now, deliver, &rc);
		if (rc.rx.held > SATIP_RX_WINDOW)
			abort();
	}
	satip_rx_expire(&rc.rx, UINT64_MAX, deliver, &rc);
	if (rc.rx.held || satip_rx_deadline(&rc.rx))
		abort();
	if (rc.rx.datagrams != rc.delivered + dropped ||
	    rc.rx.ts_lost > rc.rx.lost * 9)
		abort();
}

/* ---- a frontend's tuning, PID sets ------------------------------------ */

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void tuning(const uint8_t *data, size_t size)
{
	static const uint32_t cmds[] = { DTV_DELIVERY_SYSTEM, DTV_FREQUENCY,
		DTV_SYMBOL_RATE, DTV_INNER_FEC, DTV_MODULATION, DTV_ROLLOFF,
		DTV_PILOT, DTV_STREAM_ID, DTV_INVERSION, DTV_BANDWIDTH_HZ,
		DTV_TRANSMISSION_MODE, DTV_GUARD_INTERVAL, DTV_CODE_RATE_HP,
		DTV_SCRAMBLING_SEQUENCE_INDEX };
	struct vtp_prop props[VTP_MAX_PROPS];
	struct satip_sec_state sec;
	struct satip_lnb lnb = SATIP_LNB_UNIVERSAL;
	struct satip_tune t, back;
	struct satip_pids_op op;
	struct satip_dvb d;
	char q[1024], err[64];
	unsigned int n = 0;
	size_t i;

	if (size < 8)
		return;
	sec.src = data[0] % 20;
	sec.tone = (int)(data[1] % 3) - 1;
	sec.voltage = (int)(data[2] % 4) - 1;
	if (data[3] & 1) {
		lnb.lof_low = get32(data + 4) % 20000000;
		lnb.lof_high = data[3] & 2 ? 0 : lnb.lof_low + 850000;
	}
	for (i = 8; i + 5 <= size && n < VTP_MAX_PROPS; i += 5) {
		props[n].cmd = cmds[data[i] % (sizeof(cmds) / sizeof(cmds[0]))];
		props[n].data = get32(data + i + 1);
		/* a delivery system from the few there are */
		if (props[n].cmd == DTV_DELIVERY_SYSTEM)
			props[n].data %= 20;
		n++;
	}
	if (satip_tune_from_props(props, n, &sec, &lnb, &t, err, sizeof(err))) {
		check_str(err, sizeof(err));
		if (!err[0])
			abort();
		return;
	}
	if (satip_query_format(q, sizeof(q), &t) < 0 ||
	    satip_query_parse(q, &back, &op, err, sizeof(err)) ||
	    memcmp(&back, &t, sizeof(t)))
		abort();
	/* (a root code costs up to 262143 steps to convert: not each run) */
	if (!satip_has(&t, SATIP_A_PLSM) || t.plsm != SATIP_PLSM_ROOT ||
	    data[4] == 0x5a) {
		(void)satip_tune_to_props(&t, &lnb, &d, err, sizeof(err));
		check_str(err, sizeof(err));
	}
}

static void pidsets(const uint8_t *data, size_t size)
{
	struct satip_pidset a = { 0 }, b = { 0 }, s;
	struct satip_tune t;
	struct satip_pids_op op;
	uint8_t in[2][(SATIP_PID_MAX + 1) / 8] = { { 0 } };
	char buf[2048], err[64];
	size_t i;
	int n;

	if (size < 2)
		return;
	a.all = data[0] == 0xff;
	b.all = data[1] == 0xff;
	for (i = 2; i + 2 <= size; i += 2) {
		uint16_t pid = (uint16_t)((data[i] << 8 | data[i + 1]) & 0x1fff);
		unsigned int w = data[i] & 0x80 ? 0 : 1;
		struct satip_pidset *p = w ? &b : &a;

		if (p->all || p->num == SATIP_MAX_PIDS ||
		    in[w][pid / 8] & (1 << pid % 8))
			continue;
		in[w][pid / 8] |= (uint8_t)(1 << pid % 8);
		p->pid[p->num++] = pid;
	}
	n = satip_pids_query(buf, sizeof(buf), &a, &b, data[0] & 1,
			     data[1] % 130);
	if (n == -E2BIG)
		return;
	if (n < 0 || (size_t)n != strlen(buf))
		abort();
	if (satip_query_parse(buf, &t, &op, err, sizeof(err)))
		abort();
	s = a;
	if (satip_pids_apply(&s, &op) || s.all != b.all || s.num != b.num)
		abort();
	satip_pids_apply(&b, &op);	/* sorts b as s is */
	if (memcmp(s.pid, b.pid, s.num * sizeof(s.pid[0])))
		abort();
	if (!n && (a.all != b.all || a.num != b.num))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[MAX_INPUT + 1];
	struct satip_server_info info;
	struct satip_ssdp_msg m;
	struct satip_transport tr;
	unsigned int i;

	if (size > MAX_INPUT)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';

	connection(data, size);
	use_rtp(data, size);
	use_rtcp(data, size);
	use_sdp(buf, size, -1);
	use_sdp(buf, size, size ? data[0] % 8 : 0);
	use_report(buf);
	if (!satip_desc_parse(buf, size, &info)) {
		check_str(info.friendly_name, sizeof(info.friendly_name));
		check_str(info.udn, sizeof(info.udn));
		check_str(info.caps, sizeof(info.caps));
		check_str(info.m3u, sizeof(info.m3u));
		for (i = 0; i < SATIP_NTYPES; i++)
			if (info.frontends[i] > 65535)
				abort();
	}
	if (!satip_ssdp_parse(buf, size, &m)) {
		check_str(m.location, sizeof(m.location));
		check_str(m.usn, sizeof(m.usn));
		if (m.deviceid > 255 || m.rtsp_port > 65535)
			abort();
	}
	if (satip_transport_parse(buf, size, &tr) == 0 &&
	    tr.profile == SATIP_TR_NONE)
		abort();
	tracker(data, size);
	tuning(data, size);
	pidsets(data, size);
	return 0;
}
