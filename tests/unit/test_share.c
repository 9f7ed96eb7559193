// SPDX-License-Identifier: GPL-2.0
/*
 * test_share.c - one tuner, several streams (src/server/share.c), on a
 * mock backend: the first stream opens the tuner and the last closes
 * it; the filters carry the union of the streams' PIDs and one stream's
 * change leaves the others' PIDs; each stream receives its own packets
 * only, in order; the transponder comparison used for sharing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <linux/dvb/frontend.h>

#include "server/server.h"
#include "server/share.h"

/* ---- the mock backend and the loop's watch ------------------------------ */

static struct {
	int opens, closes, watched;
	uint16_t pids[64];
	size_t npids;
	uint8_t ts[16 * 188];
	size_t ts_len;
	bool read_done;
} M;

int vtd_server_watch(struct vtd_server *srv, struct vtd_ev *ev, int fd,
		     bool add)
{
	(void)srv;
	if (add) {
		ev->fd = fd;
		M.watched++;
	} else {
		M.watched--;
	}
	return 0;
}

static int m_open(struct vtd_tuner *t)
{
	(void)t;
	M.opens++;
	return 0;
}

static void m_close(struct vtd_tuner *t)
{
	(void)t;
	M.closes++;
}

static int m_set_pids(struct vtd_tuner *t, const uint16_t *pids, size_t num,
		      char *missing, size_t missing_len)
{
	(void)t;
	(void)missing;
	(void)missing_len;
	assert_true(num <= 64);
	memcpy(M.pids, pids, num * sizeof(*pids));
	M.npids = num;
	return 0;
}

static int m_get_fd(struct vtd_tuner *t)
{
	(void)t;
	return 42;
}

static ssize_t m_read_ts(struct vtd_tuner *t, uint8_t *buf, size_t max)
{
	(void)t;
	if (M.read_done || !M.ts_len)
		return -EAGAIN;
	assert_true(max >= M.ts_len);
	memcpy(buf, M.ts, M.ts_len);
	M.read_done = true;
	return (ssize_t)M.ts_len;
}

static int m_set_u(struct vtd_tuner *t, unsigned int v)
{
	(void)t;
	(void)v;
	return 0;
}

static int m_diseqc(struct vtd_tuner *t, const uint8_t *msg, size_t len)
{
	(void)t;
	(void)msg;
	(void)len;
	return 0;
}

static const struct vtd_backend_ops m_ops = {
	.open = m_open,
	.close = m_close,
	.set_pids = m_set_pids,
	.get_fd = m_get_fd,
	.read_ts = m_read_ts,
	.set_voltage = m_set_u,
	.set_tone = m_set_u,
	.diseqc_master = m_diseqc,
};

/* ---- streams that record what they receive ------------------------------ */

struct rec {
	struct vtd_stream st;
	uint16_t got[64];
	size_t n;
};

static void rec_ts(struct vtd_stream *st, const uint8_t *const *pkt, size_t n)
{
	struct rec *r = (struct rec *)st;
	size_t i;

	for (i = 0; i < n && r->n < 64; i++)
		r->got[r->n++] = (uint16_t)(((pkt[i][1] & 0x1f) << 8) |
					    pkt[i][2]);
}

static const struct vtd_stream_ops rec_ops = { .ts = rec_ts };

static void packet(uint16_t pid)
{
	uint8_t *p = M.ts + M.ts_len;

	memset(p, 0xff, 188);
	p[0] = 0x47;
	p[1] = (uint8_t)(pid >> 8);
	p[2] = (uint8_t)pid;
	M.ts_len += 188;
}

static struct vtd_tuner T;
static struct vtd_server S;

static int setup(void **state)
{
	(void)state;
	memset(&M, 0, sizeof(M));
	memset(&T, 0, sizeof(T));
	memset(&S, 0, sizeof(S));
	T.ops = &m_ops;
	S.tsbuf = malloc(VTD_SHARE_READ_PKTS * 188);
	return S.tsbuf ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(S.tsbuf);
	return 0;
}

static void test_open_close(void **state)
{
	struct rec a = { .st.ops = &rec_ops }, b = { .st.ops = &rec_ops };

	(void)state;
	assert_int_equal(vtd_share_join(&S, &a.st, &T), 0);
	assert_int_equal(vtd_share_join(&S, &b.st, &T), 0);
	assert_int_equal(M.opens, 1);
	assert_int_equal(M.watched, 1);
	assert_true(vtd_share_busy(&T));
	vtd_share_leave(&S, &a.st);
	assert_int_equal(M.closes, 0);
	vtd_share_leave(&S, &b.st);
	assert_int_equal(M.closes, 1);
	assert_int_equal(M.watched, 0);
	assert_false(vtd_share_busy(&T));
	/* a tuner a vtp session owns is not joined */
	T.owner = (struct vtd_session *)&T;
	assert_int_equal(vtd_share_join(&S, &a.st, &T), -EBUSY);
	T.owner = NULL;
}

static void test_union_and_dispatch(void **state)
{
	struct rec a = { .st.ops = &rec_ops }, b = { .st.ops = &rec_ops };
	char missing[64];

	(void)state;
	assert_int_equal(vtd_share_join(&S, &a.st, &T), 0);
	assert_int_equal(vtd_share_join(&S, &b.st, &T), 0);
	assert_int_equal(vtd_share_set_pids(&a.st, (const uint16_t[]){ 0, 256, 257 },
					    3, false, missing, sizeof(missing)), 0);
	assert_int_equal(vtd_share_set_pids(&b.st, (const uint16_t[]){ 258, 0, 0 },
					    3, false, missing, sizeof(missing)), 0);
	/* the union, sorted, once each */
	assert_int_equal(M.npids, 4);
	assert_int_equal(M.pids[0], 0);
	assert_int_equal(M.pids[1], 256);
	assert_int_equal(M.pids[2], 257);
	assert_int_equal(M.pids[3], 258);
	packet(0);
	packet(257);
	packet(258);
	packet(300);
	packet(256);
	packet(0);
	vtd_share_ts(&S, &T);
	assert_int_equal(a.n, 4);
	assert_int_equal(a.got[0], 0);
	assert_int_equal(a.got[1], 257);
	assert_int_equal(a.got[2], 256);
	assert_int_equal(a.got[3], 0);
	assert_int_equal(b.n, 3);
	assert_int_equal(b.got[0], 0);
	assert_int_equal(b.got[1], 258);
	assert_int_equal(b.got[2], 0);
	/* b changes: a's PIDs stay, 0 too (a still wants it) */
	assert_int_equal(vtd_share_set_pids(&b.st, (const uint16_t[]){ 17 }, 1,
					    false, missing, sizeof(missing)), 0);
	assert_int_equal(M.npids, 4);
	assert_int_equal(M.pids[0], 0);
	assert_int_equal(M.pids[1], 17);
	assert_int_equal(M.pids[2], 256);
	assert_int_equal(M.pids[3], 257);
	/* the whole TS for one: the filters take it all */
	assert_int_equal(vtd_share_set_pids(&b.st, NULL, 0, true, missing,
					    sizeof(missing)), 0);
	assert_int_equal(M.npids, 1);
	assert_int_equal(M.pids[0], VTP_PID_FULL_TS);
	vtd_share_leave(&S, &b.st);
	assert_int_equal(M.npids, 3);
	vtd_share_leave(&S, &a.st);
}

static void test_tuning_same(void **state)
{
	struct vtp_prop dvbt[] = {
		{ DTV_DELIVERY_SYSTEM, SYS_DVBT }, { DTV_FREQUENCY, 506000000 },
		{ DTV_BANDWIDTH_HZ, 8000000 },
	};
	struct vtp_prop dvbt2[] = {
		{ DTV_DELIVERY_SYSTEM, SYS_DVBT }, { DTV_FREQUENCY, 506166000 },
	};
	struct vtp_prop other[] = {
		{ DTV_DELIVERY_SYSTEM, SYS_DVBT }, { DTV_FREQUENCY, 514000000 },
	};
	struct vtp_prop s2[] = {
		{ DTV_DELIVERY_SYSTEM, SYS_DVBS2 }, { DTV_FREQUENCY, 762000 },
		{ DTV_SYMBOL_RATE, 22000000 },
	};
	struct vtp_prop s1[] = {
		{ DTV_DELIVERY_SYSTEM, SYS_DVBS }, { DTV_FREQUENCY, 762000 },
		{ DTV_SYMBOL_RATE, 22000000 },
	};
	struct vtd_tuning a, b;

	(void)state;
	vtd_tuning_of(&a, &T, dvbt, 3);
	vtd_tuning_of(&b, &T, dvbt2, 2);
	assert_true(vtd_tuning_same(&a, &b));	/* within 1 MHz */
	vtd_tuning_of(&b, &T, other, 2);
	assert_false(vtd_tuning_same(&a, &b));
	/* satellite: the same IF in the other band or polarisation differs */
	T.sec.voltage = SEC_VOLTAGE_18;
	T.sec.tone = SEC_TONE_ON;
	vtd_tuning_of(&a, &T, s2, 3);
	vtd_tuning_of(&b, &T, s1, 3);
	assert_true(vtd_tuning_same(&a, &b));	/* DVB-S and S2 alike */
	T.sec.tone = SEC_TONE_OFF;
	vtd_tuning_of(&b, &T, s2, 3);
	assert_false(vtd_tuning_same(&a, &b));
	T.sec.tone = SEC_TONE_ON;
	T.sec.voltage = SEC_VOLTAGE_13;
	vtd_tuning_of(&b, &T, s2, 3);
	assert_false(vtd_tuning_same(&a, &b));
	T.sec.voltage = SEC_VOLTAGE_18;
	T.sec.diseqc_len = 4;
	memcpy(T.sec.diseqc, "\xe0\x10\x38\xf7", 4);
	vtd_tuning_of(&b, &T, s2, 3);
	assert_false(vtd_tuning_same(&a, &b));	/* another switch position */
	/* nothing tuned is never the same */
	b.valid = false;
	assert_false(vtd_tuning_same(&a, &b));
	/* the SEC calls made through share.c are recorded */
	memset(&T.sec, 0, sizeof(T.sec));
	assert_int_equal(vtd_share_sec_voltage(&T, SEC_VOLTAGE_13), 0);
	assert_int_equal(vtd_share_sec_tone(&T, SEC_TONE_ON), 0);
	assert_int_equal(vtd_share_sec_diseqc(&T, (const uint8_t *)"\xe0\x10\x38\xf1",
					      4), 0);
	vtd_share_tuned(&T, s2, 3, 0);
	assert_true(T.tuning.valid);
	assert_int_equal(T.tuning.voltage, SEC_VOLTAGE_13);
	assert_int_equal(T.tuning.tone, SEC_TONE_ON);
	assert_int_equal(T.tuning.diseqc[3], 0xf1);
	vtd_share_tuned(&T, s2, 3, -EIO);
	assert_false(T.tuning.valid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_close, setup, teardown),
		cmocka_unit_test_setup_teardown(test_union_and_dispatch, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_tuning_same, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
