// SPDX-License-Identifier: GPL-2.0
/*
 * test_vtp.c - unit tests of the wire protocol codec
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/dvb/frontend.h>

#include "proto/vtp.h"
#include "proto/vtp_auth.h"
#include "vtp_samples.h"

static uint8_t buf[VTP_MAX_FRAME + 64];
static uint8_t buf2[VTP_MAX_FRAME + 64];
static struct vtp_msg msg, msg2;

/* The index of the sample of a type. */
static int sample_of(uint16_t type)
{
	int i;

	for (i = 0; i < vtp_num_samples; i++) {
		vtp_sample(i, &msg);
		if (msg.hdr.type == type)
			return i;
	}
	fail();
	return -1;
}

static int encode_sample(int i)
{
	int n;

	vtp_sample(i, &msg);
	n = vtp_encode(buf, sizeof(buf), &msg);
	assert_true(n >= VTP_HDR_LEN);
	return n;
}

static void put32_at(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void set_len(uint8_t *frame, uint32_t len)
{
	put32_at(frame + 8, len);
}

static void set_type(uint8_t *frame, uint16_t type)
{
	frame[2] = type >> 8;
	frame[3] = type;
}

/* ---- round trips -------------------------------------------------------- */

static void test_round_trip_all(void **state)
{
	int i, n, m;

	(void)state;
	for (i = 0; i < vtp_num_samples; i++) {
		n = encode_sample(i);
		assert_int_equal(vtp_decode(buf, n, &msg2), n);
		assert_int_equal(msg2.frame_len, n);
		assert_int_equal(msg2.hdr.type, msg.hdr.type);
		assert_int_equal(msg2.hdr.reqid, msg.hdr.reqid);
		assert_int_equal(msg2.hdr.len, n - VTP_HDR_LEN);
		m = vtp_encode(buf2, sizeof(buf2), &msg2);
		assert_int_equal(m, n);
		assert_memory_equal(buf, buf2, n);
	}
}

static void test_round_trip_fields(void **state)
{
	const struct vtp_status *s;
	int i, n;

	(void)state;
	for (i = 0; i < vtp_num_samples; i++) {
		n = encode_sample(i);
		memset(&msg2, 0, sizeof(msg2));	/* bytes after NULs */
		assert_int_equal(vtp_decode(buf, n, &msg2), n);
		switch (msg.hdr.type) {
		case VTP_HELLO:
			assert_memory_equal(&msg.u.hello, &msg2.u.hello,
					    sizeof(msg.u.hello));
			break;
		case VTP_TUNER_LIST:
			assert_int_equal(msg2.u.tuners.num, 3);
			assert_string_equal(msg2.u.tuners.tuner[1].name,
					    "STV0910 DVB-S/S2");
			assert_string_equal(msg2.u.tuners.tuner[0].name, "");
			assert_memory_equal(msg.u.tuners.tuner,
					    msg2.u.tuners.tuner,
					    3 * sizeof(struct vtp_tuner));
			break;
		case VTP_TUNE:
			assert_memory_equal(&msg.u.tune, &msg2.u.tune,
					    sizeof(msg.u.tune));
			break;
		case VTP_SET_PIDS:
			assert_memory_equal(&msg.u.pids, &msg2.u.pids,
					    sizeof(msg.u.pids));
			break;
		case VTP_STATUS:
			s = &msg2.u.status;
			assert_int_equal(s->stats[VTP_STAT_CNR].stat[0].svalue,
					 -12345);
			assert_int_equal(s->stats[VTP_STAT_CNR].stat[0].scale,
					 FE_SCALE_DECIBEL);
			assert_int_equal(s->signal, 0xabcd);
			assert_int_equal(s->stats[4].len, 4);
			assert_true(s->stats[4].stat[3].uvalue ==
				    msg.u.status.stats[4].stat[3].uvalue);
			break;
		case VTP_ERROR:
			assert_int_equal(msg2.u.error.err, EBUSY);
			assert_string_equal(msg2.u.error.msg, "tuner 1 is busy");
			break;
		}
	}
}

/* The exact bytes of a frame: byte order does not depend on the host. */
static void test_wire_bytes(void **state)
{
	static const uint8_t expect[] = {
		0x56, 0x54, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x08, 0x12, 0x34, 0x56, 0x78,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};
	int n;

	(void)state;
	n = vtp_encode_keepalive(buf, sizeof(buf), 0x12345678,
				 0x0102030405060708ULL);
	assert_int_equal(n, sizeof(expect));
	assert_memory_equal(buf, expect, sizeof(expect));
}

static void test_ts_zero_copy(void **state)
{
	int n, h;

	(void)state;
	n = encode_sample(sample_of(VTP_TS_DATA));
	assert_int_equal(msg.hdr.type, VTP_TS_DATA);
	assert_int_equal(vtp_decode(buf, n, &msg2), n);
	assert_ptr_equal(msg2.u.ts.data, buf + VTP_TS_HDR_LEN);
	assert_int_equal(msg2.u.ts.len, 3 * VTP_TS_PACKET);
	assert_int_equal(msg2.u.ts.seq, 5);

	h = vtp_encode_ts_hdr(buf2, sizeof(buf2), 5, msg.u.ts.len);
	assert_int_equal(h, VTP_TS_HDR_LEN);
	memcpy(buf2 + h, msg.u.ts.data, msg.u.ts.len);
	assert_memory_equal(buf, buf2, n);
}

static void test_ts_max(void **state)
{
	static uint8_t ts[VTP_MAX_TS_PACKETS * VTP_TS_PACKET + VTP_TS_PACKET];
	size_t max = VTP_MAX_TS_PACKETS * VTP_TS_PACKET;
	int n;

	(void)state;
	n = vtp_encode_ts(buf, sizeof(buf), 1, ts, max);
	assert_int_equal(n, VTP_TS_HDR_LEN + max);
	assert_true(n <= VTP_MAX_FRAME);
	assert_int_equal(vtp_decode(buf, n, &msg), n);
	assert_int_equal(vtp_encode_ts(buf, sizeof(buf), 1, ts,
				       max + VTP_TS_PACKET), -EINVAL);
	assert_int_equal(vtp_encode_ts(buf, sizeof(buf), 1, ts, 0), -EINVAL);
	assert_int_equal(vtp_encode_ts(buf, sizeof(buf), 1, ts, 187), -EINVAL);
}

/* ---- truncation and framing errors -------------------------------------- */

static void test_every_prefix_needs_more(void **state)
{
	int i, n, k;

	(void)state;
	for (i = 0; i < vtp_num_samples; i++) {
		n = encode_sample(i);
		for (k = 0; k < n; k++)
			assert_int_equal(vtp_decode(buf, k, &msg2), 0);
	}
}

/* Shorter, yet valid: whole TS packets; HELLOs without the appended
 * nonce (of the sample in msg); DATA_ATTACH without its MAC. */
static int truncated_ok(uint16_t type, uint32_t len)
{
	if (type == VTP_HELLO)
		return len >= 9 + strlen(msg.u.hello.name);
	if (type == VTP_HELLO_REPLY)
		return len >= 9 + strlen(msg.u.hello_reply.name);
	if (type == VTP_DATA_ATTACH)
		return len == VTP_TOKEN_LEN;
	return type == VTP_TS_DATA && len > 4 && (len - 4) % VTP_TS_PACKET == 0;
}

/* A frame whose header length cuts its payload short is malformed. */
static void test_short_payload_malformed(void **state)
{
	int i, n, ret;
	uint32_t len;

	(void)state;
	for (i = 0; i < vtp_num_samples; i++) {
		n = encode_sample(i);
		for (len = 0; len < (uint32_t)n - VTP_HDR_LEN; len++) {
			set_len(buf, len);
			ret = vtp_decode(buf, n, &msg2);
			if (truncated_ok(msg.hdr.type, len)) {
				assert_int_equal(ret, VTP_HDR_LEN + len);
				continue;
			}
			assert_int_equal(ret, -EPROTO);
			assert_int_equal(msg2.frame_len, VTP_HDR_LEN + len);
			assert_int_equal(msg2.hdr.reqid, msg.hdr.reqid);
		}
	}
}

/* Trailing bytes are malformed, except the appendable HELLO layouts. */
static void test_trailing_bytes(void **state)
{
	int i, n, ret;

	(void)state;
	for (i = 0; i < vtp_num_samples; i++) {
		n = encode_sample(i);
		buf[n] = 0xaa;
		set_len(buf, n - VTP_HDR_LEN + 1);
		ret = vtp_decode(buf, n + 1, &msg2);
		if (msg.hdr.type == VTP_HELLO || msg.hdr.type == VTP_HELLO_REPLY)
			assert_int_equal(ret, n + 1);
		else
			assert_int_equal(ret, -EPROTO);
	}
}

static void test_oversized(void **state)
{
	(void)state;
	vtp_encode_ok(buf, sizeof(buf), 1);
	set_len(buf, VTP_MAX_PAYLOAD + 1);
	assert_int_equal(vtp_decode(buf, VTP_HDR_LEN, &msg), -EMSGSIZE);
	set_len(buf, 0xffffffff);
	assert_int_equal(vtp_decode(buf, VTP_HDR_LEN, &msg), -EMSGSIZE);
	set_len(buf, VTP_MAX_PAYLOAD);
	assert_int_equal(vtp_decode(buf, VTP_HDR_LEN, &msg), 0);
}

static void test_bad_magic(void **state)
{
	(void)state;
	vtp_encode_ok(buf, sizeof(buf), 1);
	buf[0] ^= 1;
	assert_int_equal(vtp_decode(buf, VTP_HDR_LEN, &msg), -EBADMSG);
	assert_int_equal(vtp_decode(buf, 1, &msg), 0);
}

static void test_unknown_type(void **state)
{
	static const uint16_t unknown[] = { 0, 9, 0x0015, 0x0031, 0x0042,
					    0x8000, 0xffff };
	size_t i;
	int n;

	(void)state;
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		n = vtp_encode_keepalive(buf, sizeof(buf), 4242, 1);
		set_type(buf, unknown[i]);
		assert_int_equal(vtp_decode(buf, n - 1, &msg), 0);
		assert_int_equal(vtp_decode(buf, n, &msg), -ENOTSUP);
		assert_int_equal(msg.hdr.type, unknown[i]);
		assert_int_equal(msg.hdr.reqid, 4242);
		assert_int_equal(msg.frame_len, n);
		assert_string_equal(vtp_type_name(unknown[i]), "?");
	}
	assert_string_equal(vtp_type_name(VTP_TUNE), "TUNE");
}

/*
 * The message table: every type of the protocol once, with its name and
 * whether the receiver answers it (docs/protocol.md, section 5); an
 * unknown type has no entry and is no request.
 */
static void test_msg_table(void **state)
{
	static const struct {
		uint16_t type;
		const char *name;
		bool request;
	} want[] = {
		{ VTP_HELLO, "HELLO", true },
		{ VTP_HELLO_REPLY, "HELLO_REPLY", false },
		{ VTP_OK, "OK", false },
		{ VTP_ERROR, "ERROR", false },
		{ VTP_KEEPALIVE, "KEEPALIVE", true },
		{ VTP_KEEPALIVE_REPLY, "KEEPALIVE_REPLY", false },
		{ VTP_AUTH, "AUTH", true },
		{ VTP_AUTH_REPLY, "AUTH_REPLY", false },
		{ VTP_LIST_TUNERS, "LIST_TUNERS", true },
		{ VTP_TUNER_LIST, "TUNER_LIST", false },
		{ VTP_OPEN_TUNER, "OPEN_TUNER", true },
		{ VTP_OPEN_REPLY, "OPEN_REPLY", false },
		{ VTP_CLOSE_TUNER, "CLOSE_TUNER", true },
		{ VTP_TUNE, "TUNE", true },
		{ VTP_SET_TONE, "SET_TONE", true },
		{ VTP_SET_VOLTAGE, "SET_VOLTAGE", true },
		{ VTP_ENABLE_HIGH_VOLTAGE, "ENABLE_HIGH_VOLTAGE", true },
		{ VTP_DISEQC_MASTER, "DISEQC_MASTER", true },
		{ VTP_DISEQC_BURST, "DISEQC_BURST", true },
		{ VTP_SET_PIDS, "SET_PIDS", true },
		{ VTP_STATUS, "STATUS", false },
		{ VTP_DATA_ATTACH, "DATA_ATTACH", true },
		{ VTP_TS_DATA, "TS_DATA", false },
		{ VTP_SEALED, "SEALED", false },
	};
	const struct vtp_msg_info *mi;
	unsigned int t, known = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		mi = vtp_msg_info(want[i].type);
		assert_non_null(mi);
		assert_int_equal(mi->type, want[i].type);
		assert_string_equal(mi->name, want[i].name);
		assert_string_equal(vtp_type_name(want[i].type), want[i].name);
		assert_int_equal(mi->request, want[i].request);
		assert_int_equal(vtp_is_request(want[i].type), want[i].request);
	}
	/* and nothing else */
	for (t = 0; t <= 0xffff; t++)
		known += vtp_msg_info((uint16_t)t) != NULL;
	assert_int_equal(known, sizeof(want) / sizeof(want[0]));
	assert_null(vtp_msg_info(0x0099));
	assert_false(vtp_is_request(0x0099));
}

/* Header flags and the reserved half-word are ignored by receivers. */
static void test_flags_ignored(void **state)
{
	int n;

	(void)state;
	n = vtp_encode_ok(buf, sizeof(buf), 9);
	buf[4] = 0x80;
	buf[5] = 0x01;
	buf[6] = 0xff;
	buf[7] = 0xff;
	assert_int_equal(vtp_decode(buf, n, &msg), n);
	assert_int_equal(msg.hdr.flags, 0x8001);
	assert_int_equal(msg.hdr.reqid, 9);
}

/* ---- encoder limits ----------------------------------------------------- */

static void test_encode_small_buffer(void **state)
{
	int i, n, k;

	(void)state;
	for (i = 0; i < vtp_num_samples; i++) {
		n = encode_sample(i);
		for (k = 0; k < n; k++)
			assert_int_equal(vtp_encode(buf2, k, &msg), -ENOBUFS);
	}
}

static void test_encode_bad_counts(void **state)
{
	struct vtp_diseqc d = { 0 };
	struct vtp_error e = { 0 };
	struct vtp_hello h;

	(void)state;
	vtp_sample(sample_of(VTP_TUNE), &msg);
	assert_int_equal(msg.hdr.type, VTP_TUNE);
	msg.u.tune.num = VTP_MAX_PROPS + 1;
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);
	msg.u.tune.num = VTP_MAX_PROPS;
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg),
			 VTP_HDR_LEN + 8 + 8 * VTP_MAX_PROPS);

	msg.hdr.type = VTP_SET_PIDS;
	msg.u.pids.num = VTP_MAX_PIDS + 1;
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);
	msg.u.pids.num = VTP_MAX_PIDS;
	memset(msg.u.pids.pid, 0, sizeof(msg.u.pids.pid));
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg),
			 VTP_HDR_LEN + 4 + 2 * VTP_MAX_PIDS);
	msg.u.pids.pid[100] = VTP_PID_FULL_TS + 1;
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);

	assert_int_equal(vtp_encode_diseqc_master(buf, sizeof(buf), 1, &d),
			 -EINVAL);
	d.len = VTP_DISEQC_MAX + 1;
	assert_int_equal(vtp_encode_diseqc_master(buf, sizeof(buf), 1, &d),
			 -EINVAL);

	assert_int_equal(vtp_encode_error(buf, sizeof(buf), &e), -EINVAL);
	e.err = 4096;
	assert_int_equal(vtp_encode_error(buf, sizeof(buf), &e), -EINVAL);
	e.err = EIO;
	memset(e.msg, 'x', sizeof(e.msg));
	assert_int_equal(vtp_encode_error(buf, sizeof(buf), &e), -EINVAL);

	memset(&h, 'n', sizeof(h));
	assert_int_equal(vtp_encode_hello(buf, sizeof(buf), 1, &h), -EINVAL);

	vtp_sample(sample_of(VTP_TUNER_LIST), &msg);
	assert_int_equal(msg.hdr.type, VTP_TUNER_LIST);
	msg.u.tuners.tuner[2].num_delsys = VTP_MAX_DELSYS + 1;
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);
	msg.u.tuners.tuner[2].num_delsys = 1;
	memset(msg.u.tuners.tuner[2].name, 'a', VTP_NAME_MAX + 1);
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);
	msg.u.tuners.tuner[2].name[VTP_NAME_MAX] = '\0';
	assert_true(vtp_encode(buf, sizeof(buf), &msg) > 0);
	msg.u.tuners.num = VTP_MAX_TUNERS + 1;
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);

	msg.hdr.type = 0x7777;
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);
}

static void test_encode_bad_stats(void **state)
{
	(void)state;
	vtp_sample(sample_of(VTP_STATUS), &msg);
	assert_int_equal(msg.hdr.type, VTP_STATUS);
	msg.u.status.stats[2].len = VTP_MAX_STAT_LAYERS + 1;
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);
	msg.u.status.stats[2].len = 1;
	msg.u.status.stats[2].stat[0].scale = FE_SCALE_COUNTER + 1;
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);
}

/* ---- decoder limits on hand-made payloads ------------------------------- */

/* Encode the OK header with type and payload p of n bytes into buf. */
static int make_frame(uint16_t type, const uint8_t *p, size_t n)
{
	vtp_encode_ok(buf, sizeof(buf), 55);
	set_type(buf, type);
	set_len(buf, n);
	memcpy(buf + VTP_HDR_LEN, p, n);
	return VTP_HDR_LEN + n;
}

static void expect_malformed(uint16_t type, const uint8_t *p, size_t n)
{
	int len = make_frame(type, p, n);

	assert_int_equal(vtp_decode(buf, len, &msg), -EPROTO);
}

static void expect_valid(uint16_t type, const uint8_t *p, size_t n)
{
	int len = make_frame(type, p, n);

	assert_int_equal(vtp_decode(buf, len, &msg), len);
}

static void test_decode_tune_count(void **state)
{
	static uint8_t p[8 + 8 * (VTP_MAX_PROPS + 1)];

	(void)state;
	p[4] = 0;
	p[5] = VTP_MAX_PROPS;
	expect_valid(VTP_TUNE, p, 8 + 8 * VTP_MAX_PROPS);
	p[5] = VTP_MAX_PROPS + 1;
	expect_malformed(VTP_TUNE, p, sizeof(p));
	p[4] = 0xff;
	expect_malformed(VTP_TUNE, p, sizeof(p));
}

static void test_decode_pids(void **state)
{
	static uint8_t p[4 + 2 * (VTP_MAX_PIDS + 1)];

	(void)state;
	p[0] = VTP_MAX_PIDS >> 8;
	p[1] = VTP_MAX_PIDS & 0xff;
	expect_valid(VTP_SET_PIDS, p, 4 + 2 * VTP_MAX_PIDS);
	p[4 + 2 * 17] = 0x20;
	p[4 + 2 * 17 + 1] = 0x00;
	expect_valid(VTP_SET_PIDS, p, 4 + 2 * VTP_MAX_PIDS);
	assert_int_equal(msg.u.pids.pid[17], VTP_PID_FULL_TS);
	p[4 + 2 * 17 + 1] = 0x01;
	expect_malformed(VTP_SET_PIDS, p, 4 + 2 * VTP_MAX_PIDS);
	p[4 + 2 * 17 + 1] = 0x00;
	p[1] += 1;
	expect_malformed(VTP_SET_PIDS, p, sizeof(p));
	p[0] = 0;
	p[1] = 0;
	expect_valid(VTP_SET_PIDS, p, 4);
	assert_int_equal(msg.u.pids.num, 0);
}

static void test_decode_diseqc(void **state)
{
	uint8_t p[8] = { 0 };
	int len;

	(void)state;
	for (len = 0; len <= 7; len++) {
		p[0] = len;
		if (len >= VTP_DISEQC_MIN && len <= VTP_DISEQC_MAX)
			expect_valid(VTP_DISEQC_MASTER, p, 1 + len);
		else
			expect_malformed(VTP_DISEQC_MASTER, p, 1 + len);
	}
	p[0] = 0xff;
	expect_malformed(VTP_DISEQC_MASTER, p, sizeof(p));
}

static void test_decode_strings(void **state)
{
	uint8_t p[300] = { 0 };

	(void)state;
	/* HELLO: name length above the limit, then an embedded NUL */
	p[8] = VTP_PEER_NAME_MAX + 1;
	memset(p + 9, 'a', VTP_PEER_NAME_MAX + 1);
	expect_malformed(VTP_HELLO, p, 9 + VTP_PEER_NAME_MAX + 1);
	p[8] = VTP_PEER_NAME_MAX;
	expect_valid(VTP_HELLO, p, 9 + VTP_PEER_NAME_MAX);
	assert_int_equal(strlen(msg.u.hello.name), VTP_PEER_NAME_MAX);
	p[10] = 0;
	expect_malformed(VTP_HELLO, p, 9 + VTP_PEER_NAME_MAX);
	p[8] = 200;
	expect_malformed(VTP_HELLO, p, 20);

	/* ERROR: errno 0, above MAX_ERRNO, message too long, NUL inside */
	memset(p, 0, sizeof(p));
	expect_malformed(VTP_ERROR, p, 10);
	p[3] = EIO;
	expect_valid(VTP_ERROR, p, 10);
	assert_int_equal(msg.u.error.err, EIO);
	assert_string_equal(msg.u.error.msg, "");
	p[2] = 0x10;
	expect_malformed(VTP_ERROR, p, 10);
	p[2] = 0;
	p[8] = 1;
	p[9] = 0;
	memset(p + 10, 'm', 256);
	expect_malformed(VTP_ERROR, p, 10 + 256);
	p[8] = 0;
	p[9] = 3;
	p[11] = 0;
	expect_malformed(VTP_ERROR, p, 13);
}

/*
 * A string with a control character (C0, DEL, or C1 as UTF-8) is
 * malformed wherever a peer sends it, and refused by the encoders
 * (issue 25, item 6): a name with "\n" would inject lines into the
 * status file, one with ESC terminal sequences into a log.
 */
static void test_strings_control_chars(void **state)
{
	static const char *const bad[] = {
		"evil\nlock: yes", "cr\r", "esc\x1b[31m", "tab\t", "del\x7f",
		"csi\xc2\x9b" "2J", "nel\xc2\x85",
	};
	static const char *const good[] = {
		"vtunerd on host", "Caf\xc3\xa9 \xe2\x80\x94 DVB-S2", "~",
	};
	struct vtp_hello_reply r = { .version = 1 };
	struct vtp_hello h = { .version_min = 1, .version_max = 1 };
	struct vtp_error e = { .err = EIO, .reqid = 1 };
	uint8_t p[300] = { 0 };
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = strlen(bad[i]);
		/* HELLO_REPLY: the server name */
		memset(p, 0, sizeof(p));
		p[1] = 1;
		p[8] = n;
		memcpy(p + 9, bad[i], n);
		expect_malformed(VTP_HELLO_REPLY, p, 9 + n);
		/* HELLO: the client name */
		expect_malformed(VTP_HELLO, p, 9 + n);
		/* ERROR: the message */
		memset(p, 0, sizeof(p));
		p[3] = EIO;
		p[9] = n;
		memcpy(p + 10, bad[i], n);
		expect_malformed(VTP_ERROR, p, 10 + n);
		/* and the encoders refuse to send it */
		snprintf(r.name, sizeof(r.name), "%s", bad[i]);
		assert_int_equal(vtp_encode_hello_reply(buf, sizeof(buf), 1, &r),
				 -EINVAL);
		snprintf(h.name, sizeof(h.name), "%s", bad[i]);
		assert_int_equal(vtp_encode_hello(buf, sizeof(buf), 1, &h),
				 -EINVAL);
		snprintf(e.msg, sizeof(e.msg), "%s", bad[i]);
		assert_int_equal(vtp_encode_error(buf, sizeof(buf), &e), -EINVAL);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		n = strlen(good[i]);
		memset(p, 0, sizeof(p));
		p[1] = 1;
		p[8] = n;
		memcpy(p + 9, good[i], n);
		expect_valid(VTP_HELLO_REPLY, p, 9 + n);
		assert_string_equal(msg.u.hello_reply.name, good[i]);
	}
}

/* A tuner's name with a control character: the whole list is malformed. */
static void test_tuner_name_control_chars(void **state)
{
	int n;

	(void)state;
	vtp_sample(sample_of(VTP_TUNER_LIST), &msg);
	snprintf(msg.u.tuners.tuner[0].name, sizeof(msg.u.tuners.tuner[0].name),
		 "%s", "tuner\nlock: yes");
	assert_int_equal(vtp_encode(buf, sizeof(buf), &msg), -EINVAL);
	snprintf(msg.u.tuners.tuner[0].name, sizeof(msg.u.tuners.tuner[0].name),
		 "%s", "tuner xlock: yes");
	n = vtp_encode(buf, sizeof(buf), &msg);
	assert_true(n > 0);
	/* the first tuner's name starts at offset 4 + 45 of the payload */
	assert_memory_equal(buf + VTP_HDR_LEN + 49, "tuner x", 7);
	buf[VTP_HDR_LEN + 49 + 6] = '\n';
	assert_int_equal(vtp_decode(buf, n, &msg2), -EPROTO);
}

static void test_decode_tuner_list(void **state)
{
	int n;

	(void)state;
	vtp_sample(sample_of(VTP_TUNER_LIST), &msg);
	n = vtp_encode(buf, sizeof(buf), &msg);
	/* num_delsys of the first tuner (offset 4 + 3 in the payload) */
	buf[VTP_HDR_LEN + 7] = VTP_MAX_DELSYS + 1;
	assert_int_equal(vtp_decode(buf, n, &msg2), -EPROTO);
	buf[VTP_HDR_LEN + 7] = VTP_MAX_DELSYS;
	assert_int_equal(vtp_decode(buf, n, &msg2), n);
	/* tuner count */
	buf[VTP_HDR_LEN + 1] = VTP_MAX_TUNERS + 1;
	assert_int_equal(vtp_decode(buf, n, &msg2), -EPROTO);
	buf[VTP_HDR_LEN + 1] = 2;
	assert_int_equal(vtp_decode(buf, n, &msg2), -EPROTO);
	/* first tuner's name length (offset 4 + 44): 0 -> 1 eats a byte */
	buf[VTP_HDR_LEN + 1] = 3;
	buf[VTP_HDR_LEN + 48] = 1;
	assert_int_equal(vtp_decode(buf, n, &msg2), -EPROTO);
	buf[VTP_HDR_LEN + 48] = VTP_NAME_MAX + 1;
	assert_int_equal(vtp_decode(buf, n, &msg2), -EPROTO);
}

static void test_decode_status(void **state)
{
	int n, blk;

	(void)state;
	vtp_sample(sample_of(VTP_STATUS), &msg);
	n = vtp_encode(buf, sizeof(buf), &msg);
	assert_int_equal(n, VTP_HDR_LEN + 24 + 8 * 40);
	blk = VTP_HDR_LEN + 24 + 3 * 40;
	buf[blk] = VTP_MAX_STAT_LAYERS + 1;
	assert_int_equal(vtp_decode(buf, n, &msg2), -EPROTO);
	buf[blk] = 1;
	buf[blk + 1] = FE_SCALE_COUNTER + 1;
	assert_int_equal(vtp_decode(buf, n, &msg2), -EPROTO);
	/* scale and value of an unused layer are ignored and cleared */
	buf[blk + 1] = FE_SCALE_COUNTER;
	buf[blk + 2] = 0xff;
	buf[blk + 8 + 8] = 0xff;
	assert_int_equal(vtp_decode(buf, n, &msg2), n);
	assert_int_equal(msg2.u.status.stats[3].stat[1].scale, 0);
	assert_true(msg2.u.status.stats[3].stat[1].uvalue == 0);
}

static void test_decode_ts_len(void **state)
{
	static uint8_t p[4 + 2 * VTP_TS_PACKET];

	(void)state;
	expect_malformed(VTP_TS_DATA, p, 4);
	expect_malformed(VTP_TS_DATA, p, 3);
	expect_malformed(VTP_TS_DATA, p, 4 + VTP_TS_PACKET + 1);
	expect_valid(VTP_TS_DATA, p, 4 + VTP_TS_PACKET);
	expect_valid(VTP_TS_DATA, p, 4 + 2 * VTP_TS_PACKET);
}

static void test_decode_fixed_sizes(void **state)
{
	static const struct { uint16_t type; size_t len; } fixed[] = {
		{ VTP_OK, 0 }, { VTP_LIST_TUNERS, 0 }, { VTP_CLOSE_TUNER, 0 },
		{ VTP_KEEPALIVE, 8 }, { VTP_KEEPALIVE_REPLY, 8 },
		{ VTP_OPEN_TUNER, 4 }, { VTP_OPEN_REPLY, 20 },
		{ VTP_SET_TONE, 1 }, { VTP_SET_VOLTAGE, 1 },
		{ VTP_ENABLE_HIGH_VOLTAGE, 1 }, { VTP_DISEQC_BURST, 1 },
		{ VTP_AUTH, 32 }, { VTP_AUTH_REPLY, 32 },
		{ VTP_STATUS, 344 },
	};
	static const uint8_t p[400];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		expect_valid(fixed[i].type, p, fixed[i].len);
		expect_malformed(fixed[i].type, p, fixed[i].len + 1);
		if (fixed[i].len)
			expect_malformed(fixed[i].type, p, fixed[i].len - 1);
	}
}

static void test_hello_minimal(void **state)
{
	static const uint8_t p[9] = { 0, 1, 0, 2, 0, 0, 0, 3, 0 };

	(void)state;
	expect_valid(VTP_HELLO, p, sizeof(p));
	assert_int_equal(msg.u.hello.version_min, 1);
	assert_int_equal(msg.u.hello.version_max, 2);
	assert_int_equal(msg.u.hello.features, 3);
	assert_string_equal(msg.u.hello.name, "");
	expect_malformed(VTP_HELLO, p, sizeof(p) - 1);
}

/* ---- authentication ----------------------------------------------------- */

static void test_hello_nonce(void **state)
{
	/* version 1..1, features AUTH, name "c", 32-byte nonce */
	uint8_t p[9 + 1 + VTP_NONCE_LEN + 5];
	size_t i;

	(void)state;
	memset(p, 0, sizeof(p));
	p[1] = 1;
	p[3] = 1;
	p[7] = VTP_FEAT_AUTH;
	p[8] = 1;
	p[9] = 'c';
	for (i = 0; i < VTP_NONCE_LEN; i++)
		p[10 + i] = (uint8_t)(i + 1);
	expect_valid(VTP_HELLO, p, 10 + VTP_NONCE_LEN);
	assert_true(msg.u.hello.has_nonce);
	assert_int_equal(msg.u.hello.nonce[0], 1);
	assert_int_equal(msg.u.hello.nonce[31], 32);
	/* later versions may append more */
	expect_valid(VTP_HELLO, p, sizeof(p));
	assert_true(msg.u.hello.has_nonce);
	/* a partial nonce is no nonce */
	expect_valid(VTP_HELLO, p, 10 + VTP_NONCE_LEN - 1);
	assert_false(msg.u.hello.has_nonce);
	expect_valid(VTP_HELLO, p, 10);
	assert_false(msg.u.hello.has_nonce);
	expect_valid(VTP_HELLO_REPLY, p, 10 + VTP_NONCE_LEN);
	assert_true(msg.u.hello_reply.has_nonce);
	assert_int_equal(msg.u.hello_reply.nonce[31], 32);
}

static void test_attach_mac_sizes(void **state)
{
	static const uint8_t p[VTP_TOKEN_LEN + VTP_MAC_LEN + 1];

	(void)state;
	expect_valid(VTP_DATA_ATTACH, p, VTP_TOKEN_LEN);
	assert_false(msg.u.attach.has_mac);
	expect_valid(VTP_DATA_ATTACH, p, VTP_TOKEN_LEN + VTP_MAC_LEN);
	assert_true(msg.u.attach.has_mac);
	expect_malformed(VTP_DATA_ATTACH, p, VTP_TOKEN_LEN + 1);
	expect_malformed(VTP_DATA_ATTACH, p, VTP_TOKEN_LEN + VTP_MAC_LEN - 1);
	expect_malformed(VTP_DATA_ATTACH, p, VTP_TOKEN_LEN + VTP_MAC_LEN + 1);
	assert_string_equal(vtp_type_name(VTP_AUTH), "AUTH");
	assert_string_equal(vtp_type_name(VTP_AUTH_REPLY), "AUTH_REPLY");
}

static void test_auth_wire_bytes(void **state)
{
	struct vtp_auth a;
	int i, n;

	(void)state;
	for (i = 0; i < VTP_MAC_LEN; i++)
		a.mac[i] = (uint8_t)(0xa0 + i);
	n = vtp_encode_auth(buf, sizeof(buf), 0x01020304, &a);
	assert_int_equal(n, VTP_HDR_LEN + VTP_MAC_LEN);
	assert_int_equal(buf[2], 0x00);
	assert_int_equal(buf[3], 0x07);
	assert_int_equal(buf[11], VTP_MAC_LEN);
	assert_memory_equal(buf + VTP_HDR_LEN, a.mac, VTP_MAC_LEN);
	n = vtp_encode_auth_reply(buf, sizeof(buf), 5, &a);
	assert_int_equal(buf[3], 0x08);
	assert_int_equal(vtp_decode(buf, n, &msg), n);
	assert_memory_equal(msg.u.auth.mac, a.mac, VTP_MAC_LEN);
	assert_int_equal(vtp_encode_auth(buf, VTP_HDR_LEN + 31, 1, &a),
			 -ENOBUFS);
}

static struct vtp_psk test_key(uint8_t seed)
{
	struct vtp_psk k;

	memset(&k, 0, sizeof(k));
	k.len = 32;
	memset(k.key, seed, k.len);
	return k;
}

static void test_auth_proofs(void **state)
{
	struct vtp_psk k = test_key(1), other = test_key(2);
	struct vtp_auth_ctx ctx, c2;
	uint8_t mac[VTP_MAC_LEN], smac[VTP_MAC_LEN];
	static const uint8_t token[VTP_TOKEN_LEN] = "0123456789abcdef";

	(void)state;
	assert_int_equal(vtp_auth_init(), 0);
	memset(&ctx, 0, sizeof(ctx));
	vtp_auth_nonce(ctx.nc);
	vtp_auth_nonce(ctx.ns);
	assert_memory_not_equal(ctx.nc, ctx.ns, VTP_NONCE_LEN);
	ctx.version = 1;
	ctx.features = VTP_FEAT_AUTH;
	strcpy(ctx.cname, "vtunerc");
	strcpy(ctx.sname, "vtunerd");

	vtp_auth_proof(&k, VTP_AUTH_CLIENT, &ctx, mac);
	assert_true(vtp_auth_verify(&k, VTP_AUTH_CLIENT, &ctx, mac));
	/* not in the other role: no reflection */
	assert_false(vtp_auth_verify(&k, VTP_AUTH_SERVER, &ctx, mac));
	vtp_auth_proof(&k, VTP_AUTH_SERVER, &ctx, smac);
	assert_memory_not_equal(mac, smac, VTP_MAC_LEN);
	/* not with another key */
	assert_false(vtp_auth_verify(&other, VTP_AUTH_CLIENT, &ctx, mac));
	/* not for another handshake: every field counts */
	c2 = ctx;
	c2.nc[5] ^= 1;
	assert_false(vtp_auth_verify(&k, VTP_AUTH_CLIENT, &c2, mac));
	c2 = ctx;
	c2.ns[31] ^= 0x80;
	assert_false(vtp_auth_verify(&k, VTP_AUTH_CLIENT, &c2, mac));
	c2 = ctx;
	c2.version = 2;
	assert_false(vtp_auth_verify(&k, VTP_AUTH_CLIENT, &c2, mac));
	c2 = ctx;
	c2.features = 0;
	assert_false(vtp_auth_verify(&k, VTP_AUTH_CLIENT, &c2, mac));
	c2 = ctx;
	strcpy(c2.cname, "vtunerx");
	assert_false(vtp_auth_verify(&k, VTP_AUTH_CLIENT, &c2, mac));
	/* names are length-prefixed: "ab"+"c" differs from "a"+"bc" */
	c2 = ctx;
	strcpy(c2.cname, "ab");
	strcpy(c2.sname, "c");
	vtp_auth_proof(&k, VTP_AUTH_CLIENT, &c2, smac);
	strcpy(c2.cname, "a");
	strcpy(c2.sname, "bc");
	assert_false(vtp_auth_verify(&k, VTP_AUTH_CLIENT, &c2, smac));
	mac[0] ^= 1;
	assert_false(vtp_auth_verify(&k, VTP_AUTH_CLIENT, &ctx, mac));

	vtp_auth_attach_mac(&k, &ctx, token, mac);
	assert_true(vtp_auth_attach_verify(&k, &ctx, token, mac));
	assert_false(vtp_auth_attach_verify(&other, &ctx, token, mac));
	vtp_auth_proof(&k, VTP_AUTH_CLIENT, &ctx, smac);
	assert_memory_not_equal(mac, smac, VTP_MAC_LEN);
	c2 = ctx;
	c2.ns[0] ^= 1;
	assert_false(vtp_auth_attach_verify(&k, &c2, token, mac));
}

static void test_psk_parse(void **state)
{
	static const char hex[] =
		"000102030405060708090a0b0c0d0e0f"
		"101112131415161718191A1B1C1D1E1F";
	/* base64 of the same 32 bytes */
	static const char b64[] = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
	struct vtp_psk k;
	char err[160], text[200];
	int i;

	(void)state;
	assert_int_equal(vtp_psk_parse(hex, strlen(hex), &k, err,
				       sizeof(err)), 0);
	assert_int_equal(k.len, 32);
	for (i = 0; i < 32; i++)
		assert_int_equal(k.key[i], i);
	snprintf(text, sizeof(text), "  %s\n", b64);
	assert_int_equal(vtp_psk_parse(text, strlen(text), &k, err,
				       sizeof(err)), 0);
	assert_int_equal(k.len, 32);
	assert_int_equal(k.key[31], 31);
	/* unpadded */
	assert_int_equal(vtp_psk_parse(b64, strlen(b64) - 1, &k, err,
				       sizeof(err)), 0);
	assert_int_equal(k.len, 32);
	/* too short: 31 bytes */
	assert_int_equal(vtp_psk_parse(hex, 62, &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "at least 32"));
	assert_int_equal(vtp_psk_parse("", 0, &k, err, sizeof(err)), -1);
	assert_int_equal(vtp_psk_parse("not a key!", 10, &k, err,
				       sizeof(err)), -1);
	assert_int_equal(k.len, 0);
}

static void test_psk_load_mode(void **state)
{
	char path[] = "/tmp/test_vtp_psk.XXXXXX", err[512];
	static const char key[] =
		"c2VjcmV0IGtleSBvZiBhdCBsZWFzdCB0aGlydHktdHdvIGJ5dGVz\n";
	struct vtp_psk k;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, key, strlen(key)), (int)strlen(key));
	close(fd);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(vtp_psk_load(path, &k, err, sizeof(err)), 0);
	assert_int_equal(k.len, 39);
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(vtp_psk_load(path, &k, err, sizeof(err)), 0);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(vtp_psk_load(path, &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "other users"));
	assert_non_null(strstr(err, "0644"));
	assert_int_equal(chmod(path, 0602), 0);
	assert_int_equal(vtp_psk_load(path, &k, err, sizeof(err)), -1);
	unlink(path);
	assert_int_equal(vtp_psk_load(path, &k, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file"));
}

static void test_choose_version(void **state)
{
	(void)state;
	assert_int_equal(vtp_choose_version(1, 1), 1);
	assert_int_equal(vtp_choose_version(1, 9), VTP_VERSION_MAX);
	assert_int_equal(vtp_choose_version(0, 1), 1);
	assert_int_equal(vtp_choose_version(VTP_VERSION_MAX + 1, 9), 0);
	assert_int_equal(vtp_choose_version(0, 0), 0);
	assert_int_equal(vtp_choose_version(2, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_all),
		cmocka_unit_test(test_hello_nonce),
		cmocka_unit_test(test_attach_mac_sizes),
		cmocka_unit_test(test_auth_wire_bytes),
		cmocka_unit_test(test_auth_proofs),
		cmocka_unit_test(test_psk_parse),
		cmocka_unit_test(test_psk_load_mode),
		cmocka_unit_test(test_round_trip_fields),
		cmocka_unit_test(test_wire_bytes),
		cmocka_unit_test(test_ts_zero_copy),
		cmocka_unit_test(test_ts_max),
		cmocka_unit_test(test_every_prefix_needs_more),
		cmocka_unit_test(test_short_payload_malformed),
		cmocka_unit_test(test_trailing_bytes),
		cmocka_unit_test(test_oversized),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_unknown_type),
		cmocka_unit_test(test_flags_ignored),
		cmocka_unit_test(test_encode_small_buffer),
		cmocka_unit_test(test_encode_bad_counts),
		cmocka_unit_test(test_encode_bad_stats),
		cmocka_unit_test(test_decode_tune_count),
		cmocka_unit_test(test_decode_pids),
		cmocka_unit_test(test_decode_diseqc),
		cmocka_unit_test(test_decode_strings),
		cmocka_unit_test(test_strings_control_chars),
		cmocka_unit_test(test_tuner_name_control_chars),
		cmocka_unit_test(test_decode_tuner_list),
		cmocka_unit_test(test_decode_status),
		cmocka_unit_test(test_decode_ts_len),
		cmocka_unit_test(test_decode_fixed_sizes),
		cmocka_unit_test(test_hello_minimal),
		cmocka_unit_test(test_choose_version),
		cmocka_unit_test(test_msg_table),
	};

	return cmocka_run_group_tests_name("vtp codec", tests, NULL, NULL);
}
