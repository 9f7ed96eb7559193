// SPDX-License-Identifier: GPL-2.0
/*
 * test_client_sec.c - cmocka tests of the SEC commands vtunerc keeps for
 * a new session, src/client/sec.c (make check-client)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/dvb/frontend.h>

#include "client/sec.h"

static struct vc_sec_op val(uint16_t type, uint8_t v)
{
	return (struct vc_sec_op){ .type = type, .value = v };
}

static struct vc_sec_op diseqc(uint8_t port)
{
	struct vc_sec_op op = { .type = VTP_DISEQC_MASTER };

	op.d.len = 4;
	memcpy(op.d.msg, (uint8_t[]){ 0xe0, 0x10, 0x38, 0xf0 | port }, 4);
	return op;
}

/* Nothing sent: nothing replayed. */
static void test_empty(void **state)
{
	struct vc_sec_op out[VC_SEC_REPLAY_MAX];
	struct vc_sec_log l;

	(void)state;
	vc_sec_init(&l);
	assert_int_equal(vc_sec_replay(&l, out), 0);
}

/* The sequence before a tune is replayed in order. */
static void test_sequence(void **state)
{
	struct vc_sec_op out[VC_SEC_REPLAY_MAX];
	struct vc_sec_log l;
	struct vc_sec_op a = val(VTP_SET_TONE, SEC_TONE_OFF);
	struct vc_sec_op b = val(VTP_SET_VOLTAGE, SEC_VOLTAGE_18);
	struct vc_sec_op c = diseqc(4);
	struct vc_sec_op d = val(VTP_SET_TONE, SEC_TONE_ON);

	(void)state;
	vc_sec_init(&l);
	vc_sec_record(&l, &a);
	vc_sec_record(&l, &b);
	vc_sec_record(&l, &c);
	vc_sec_record(&l, &d);
	vc_sec_tuned(&l);
	assert_int_equal(vc_sec_replay(&l, out), 4);
	assert_memory_equal(&out[0], &a, sizeof(a));
	assert_memory_equal(&out[1], &b, sizeof(b));
	assert_memory_equal(&out[2], &c, sizeof(c));
	assert_memory_equal(&out[3], &d, sizeof(d));
}

/*
 * A command after a tune starts a new sequence; the last voltage of an
 * earlier one is replayed first when the new one sets none, and the
 * high-voltage setting before everything.
 */
static void test_new_sequence_keeps_voltage(void **state)
{
	struct vc_sec_op out[VC_SEC_REPLAY_MAX];
	struct vc_sec_log l;
	struct vc_sec_op hv = val(VTP_ENABLE_HIGH_VOLTAGE, 1);
	struct vc_sec_op v13 = val(VTP_SET_VOLTAGE, SEC_VOLTAGE_13);
	struct vc_sec_op t = val(VTP_SET_TONE, SEC_TONE_ON);

	(void)state;
	vc_sec_init(&l);
	vc_sec_record(&l, &hv);
	vc_sec_record(&l, &v13);
	vc_sec_tuned(&l);
	vc_sec_record(&l, &t);	/* a new sequence: tone only */
	vc_sec_tuned(&l);
	assert_int_equal(vc_sec_replay(&l, out), 3);
	assert_int_equal(out[0].type, VTP_ENABLE_HIGH_VOLTAGE);
	assert_int_equal(out[0].value, 1);
	assert_int_equal(out[1].type, VTP_SET_VOLTAGE);
	assert_int_equal(out[1].value, SEC_VOLTAGE_13);
	assert_memory_equal(&out[2], &t, sizeof(t));
}

/* Tunes without SEC in between keep the sequence. */
static void test_tunes_keep_sequence(void **state)
{
	struct vc_sec_op out[VC_SEC_REPLAY_MAX];
	struct vc_sec_log l;
	struct vc_sec_op c = diseqc(1);

	(void)state;
	vc_sec_init(&l);
	vc_sec_record(&l, &c);
	vc_sec_tuned(&l);
	vc_sec_tuned(&l);
	vc_sec_tuned(&l);
	assert_int_equal(vc_sec_replay(&l, out), 1);
	assert_memory_equal(&out[0], &c, sizeof(c));
}

/* A sequence longer than the log keeps its last VC_SEC_LOG commands. */
static void test_overflow(void **state)
{
	struct vc_sec_op out[VC_SEC_REPLAY_MAX];
	struct vc_sec_log l;
	struct vc_sec_op op;
	int i, n;

	(void)state;
	vc_sec_init(&l);
	for (i = 0; i < VC_SEC_LOG + 5; i++) {
		op = diseqc(i & 15);
		vc_sec_record(&l, &op);
	}
	n = vc_sec_replay(&l, out);
	assert_int_equal(n, VC_SEC_LOG);
	for (i = 0; i < n; i++)
		assert_int_equal(out[i].d.msg[3], 0xf0 | ((i + 5) & 15));
	assert_true(n <= VC_SEC_REPLAY_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_new_sequence_keeps_voltage),
		cmocka_unit_test(test_tunes_keep_sequence),
		cmocka_unit_test(test_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
