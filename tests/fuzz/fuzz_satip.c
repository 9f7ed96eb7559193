// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_satip.c - libFuzzer harness of the SAT>IP protocol library
 * (src/satip/: rtsp.c, query.c, report.c)
 *
 * The input is what a client sends on an RTSP or HTTP connection.  It is
 * parsed request after request, once with the whole input at hand and
 * once arriving in pieces of random sizes (seeded by the input): both
 * must find the same requests, a prefix of a request must never count as
 * one, and nothing may wait for more bytes once SATIP_REQ_MAX are there.
 * The query of every request, and the whole input as a query, go through
 * satip_query_parse(); what parses goes on to satip_tune_to_props() (two
 * LNBs), satip_tune_format(), satip_fmtp(), satip_sdp(), the RTCP packet
 * and a PID set.  Every string must be terminated within its array.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "satip/query.h"
#include "satip/report.h"
#include "satip/rtsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT	(4 * SATIP_REQ_MAX)

static void check_str(const char *s, size_t cap)
{
	if (!memchr(s, '\0', cap))
		abort();
}

static void check_req(const struct satip_req *r)
{
	check_str(r->method_name, sizeof(r->method_name));
	check_str(r->host, sizeof(r->host));
	check_str(r->path, sizeof(r->path));
	check_str(r->query, sizeof(r->query));
	check_str(r->session, sizeof(r->session));
	check_str(r->user_agent, sizeof(r->user_agent));
	check_str(r->accept, sizeof(r->accept));
	check_str(r->transport.destination, sizeof(r->transport.destination));
	if (r->stream_id < -1 || r->stream_id > 65535)
		abort();
}

static struct satip_pidset pidset;

static void use_query(const char *query)
{
	static const struct satip_lnb plain = { 9750000, 0, 0, false };
	struct satip_tune t;
	struct satip_pids_op op;
	struct satip_dvb d;
	struct satip_signal sig = { 200, 10, true };
	struct satip_fmtp_args fa = { 1, &sig, &t, &pidset };
	struct satip_sdp_stream st = { 1, NULL, true, 0, NULL, 0 };
	struct satip_sdp_args sa = { "10.0.0.1", 1, { 2, 1, 0 }, &st, 1 };
	char err[48], fmtp[2048], sdp[4096];
	uint8_t rtcp[2048];
	int ret, n;

	ret = satip_query_parse(query, &t, &op, err, sizeof(err));
	check_str(err, sizeof(err));
	if (ret && ret != -400 && ret != -414)
		abort();
	if (ret) {
		if (!err[0])
			abort();
		return;
	}
	if (op.num > SATIP_MAX_PIDS || op.num_add > SATIP_MAX_PIDS ||
	    op.num_del > SATIP_MAX_PIDS)
		abort();
	if (op.mode != SATIP_PIDS_KEEP && (op.has_add || op.has_del))
		abort();
	ret = satip_pids_apply(&pidset, &op);
	if ((ret && ret != -ENOSPC) || pidset.num > SATIP_MAX_PIDS)
		abort();

	ret = satip_tune_to_props(&t, NULL, &d, err, sizeof(err));
	check_str(err, sizeof(err));
	if (ret && ret != -400 && ret != -403 && ret != -503)
		abort();
	if (!ret && (d.num > SATIP_MAX_PROPS ||
		     (d.diseqc.len != 0 && d.diseqc.len != 4)))
		abort();
	ret = satip_tune_to_props(&t, &plain, &d, err, sizeof(err));
	if (!ret && d.diseqc.len)
		abort();
	if (satip_has(&t, SATIP_A_MSYS) && satip_has(&t, SATIP_A_FREQ) &&
	    !satip_tune_same(&t, &t))
		abort();

	n = satip_tune_format(fmtp, sizeof(fmtp), &t);
	if (n >= 0 && (size_t)n != strlen(fmtp))
		abort();
	n = satip_fmtp(fmtp, sizeof(fmtp), &fa);
	if (n < 0 || (size_t)n != strlen(fmtp))
		abort();
	st.fmtp = fmtp;
	n = satip_sdp(sdp, sizeof(sdp), &sa);
	if (n < 0 || (size_t)n != strlen(sdp))
		abort();
	n = satip_rtcp_build(rtcp, sizeof(rtcp), 1, 2, 3, satip_ntp(4, 5), 6,
			     fmtp);
	if (n < 0 || n % 4)
		abort();
}

/* Requests of buf[0..len) one after the other. */
static size_t parse_all(const char *buf, size_t len, int *rets, size_t max)
{
	struct satip_req r;
	size_t pos = 0, n = 0;
	int ret;

	while (pos < len && n < max) {
		ret = satip_req_parse(buf + pos, len - pos, &r);
		rets[n++] = ret;
		if (!ret) {
			if (len - pos >= SATIP_REQ_MAX)
				abort();
			break;
		}
		check_req(&r);
		if (ret > 0) {
			if ((size_t)ret > len - pos || r.skip != (size_t)ret)
				abort();
			if (r.has_query)
				use_query(r.query);
			pos += (size_t)ret;
		} else {
			if (r.skip > len - pos)
				abort();
			if (!r.skip)
				break;
			pos += r.skip;
		}
	}
	return n;
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* The same requests, bytes arriving in pieces. */
static size_t parse_pieces(const char *buf, size_t len, uint32_t seed,
			   int *rets, size_t max)
{
	struct satip_req r;
	size_t pos = 0, have = 0, n = 0, prev_have;
	int ret;

	while (pos < len && n < max) {
		prev_have = have;
		have += 1 + (rnd(&seed) % 4 ? rnd(&seed) % 8 : rnd(&seed) % 700);
		if (pos + have > len)
			have = len - pos;
		ret = satip_req_parse(buf + pos, have, &r);
		if (!ret) {
			if (have >= SATIP_REQ_MAX)
				abort();
			if (pos + have == len) {
				rets[n++] = 0;
				break;
			}
			continue;
		}
		/* a request must not be complete in fewer bytes */
		if (prev_have && ret > 0 && (size_t)ret <= prev_have)
			abort();
		rets[n++] = ret;
		if (ret > 0) {
			pos += (size_t)ret;
		} else {
			if (!r.skip)
				break;
			pos += r.skip;
		}
		have = 0;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[MAX_INPUT + 1];
	static int rets_all[MAX_INPUT], rets_pieces[MAX_INPUT];
	uint8_t ch;
	uint32_t seed = 2166136261U;
	size_t i, n1, n2;

	if (size > MAX_INPUT)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (i = 0; i < size; i++)
		seed = (seed ^ data[i]) * 16777619U;
	if (!seed)
		seed = 1;

	memset(&pidset, 0, sizeof(pidset));
	n1 = parse_all(buf, size, rets_all, MAX_INPUT);
	n2 = parse_pieces(buf, size, seed, rets_pieces, MAX_INPUT);
	if (n1 != n2 || memcmp(rets_all, rets_pieces, n1 * sizeof(int)))
		abort();

	/* the input as a query (up to a NUL), and as an interleaved frame */
	if (strlen(buf) < 4096)
		use_query(buf);
	(void)satip_interleaved(data, size, &ch);
	return 0;
}
