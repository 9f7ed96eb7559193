// SPDX-License-Identifier: GPL-2.0
/*
 * test_satip_reply.c - the replies a SAT>IP client reads (satip/reply.c):
 * what vtunerd and other servers answer to OPTIONS, SETUP, PLAY and
 * DESCRIBE, the HTTP reply of desc.xml, bodies, '$' frames between
 * replies, replies arriving in pieces, malformed and oversized ones, and
 * the Transport: parameters a reply adds (rtsp.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "satip/reply.h"

static struct satip_reply r;

static int parse(const char *s)
{
	return satip_reply_parse(s, strlen(s), &r);
}

static void test_setup(void **state)
{
	const char *s =
		"RTSP/1.0 200 OK\r\n"
		"CSeq: 2\r\n"
		"Session: 0123456789;timeout=60\r\n"
		"com.ses.streamID: 3\r\n"
		"Transport: RTP/AVP;unicast;destination=10.0.0.2;source=10.0.0.1;"
		"client_port=5004-5005;server_port=6970-6971;ssrc=DEADbeef\r\n"
		"\r\n";

	(void)state;
	assert_int_equal(parse(s), strlen(s));
	assert_int_equal(r.code, 200);
	assert_int_equal(r.proto, SATIP_RTSP);
	assert_true(r.has_cseq);
	assert_int_equal(r.cseq, 2);
	assert_string_equal(r.session, "0123456789");
	assert_int_equal(r.timeout, 60);
	assert_int_equal(r.stream_id, 3);
	assert_int_equal(r.transport.profile, SATIP_TR_UDP);
	assert_true(r.transport.unicast);
	assert_true(r.transport.has_client_port);
	assert_int_equal(r.transport.client_port[0], 5004);
	assert_int_equal(r.transport.client_port[1], 5005);
	assert_true(r.transport.has_server_port);
	assert_int_equal(r.transport.server_port[0], 6970);
	assert_int_equal(r.transport.server_port[1], 6971);
	assert_true(r.transport.has_ssrc);
	assert_int_equal(r.transport.ssrc, 0xdeadbeef);
	assert_string_equal(r.transport.destination, "10.0.0.2");
	assert_string_equal(r.transport.source, "10.0.0.1");
	assert_int_equal(r.content_length, 0);
	assert_false(r.has_content_length);

	/* interleaved, LF only, names in any case, no timeout, spaces */
	s = "RTSP/1.0 200 OK\n"
	    "cseq:7\n"
	    "SESSION:  abc-DEF_1 ; Timeout = 30 \n"
	    "X-Unknown: whatever\n"
	    "TRANSPORT: RTP/AVP/TCP;interleaved=0-1\n"
	    "\n";
	assert_int_equal(parse(s), strlen(s));
	assert_int_equal(r.cseq, 7);
	assert_string_equal(r.session, "abc-DEF_1");
	assert_int_equal(r.timeout, 30);
	assert_int_equal(r.stream_id, -1);
	assert_int_equal(r.transport.profile, SATIP_TR_TCP);
	assert_true(r.transport.has_interleaved);
	assert_int_equal(r.transport.interleaved[0], 0);
	assert_int_equal(r.transport.interleaved[1], 1);
	assert_false(r.transport.has_server_port);

	/* a timeout that is not a number, a malformed ssrc: as if absent */
	s = "RTSP/1.0 200 OK\r\nSession: 12;timeout=soon\r\n"
	    "Transport: RTP/AVP;client_port=1-2;ssrc=xyz;server_port=z\r\n\r\n";
	assert_int_equal(parse(s), strlen(s));
	assert_string_equal(r.session, "12");
	assert_int_equal(r.timeout, 0);
	assert_false(r.transport.has_ssrc);
	assert_false(r.transport.has_server_port);
	assert_int_equal(r.transport.profile, SATIP_TR_UDP);
}

static void test_options_describe(void **state)
{
	const char *body = "v=0\r\no=- 1 1 IN IP4 10.0.0.1\r\ns=SatIPServer:1 2\r\nt=0 0\r\n";
	char buf[1024];
	int n;

	(void)state;
	n = parse("RTSP/1.0 200 OK\r\nCSeq: 1\r\n"
		  "Public: OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN\r\n\r\n");
	assert_true(n > 0);
	assert_string_equal(r.public_methods,
			    "OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN");
	assert_string_equal(r.session, "");
	assert_int_equal(r.transport.profile, SATIP_TR_NONE);

	n = snprintf(buf, sizeof(buf), "RTSP/1.0 200 OK\r\nCSeq: 3\r\n"
		     "Content-Type: application/sdp\r\n"
		     "Content-Base: rtsp://10.0.0.1/\r\n"
		     "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
	assert_int_equal(parse(buf), n);
	assert_string_equal(r.content_type, "application/sdp");
	assert_true(r.has_content_length);
	assert_int_equal(r.content_length, strlen(body));
	assert_memory_equal(buf + n - r.content_length, body, strlen(body));
	/* every shorter prefix is incomplete */
	for (size_t i = 0; i < (size_t)n; i++)
		assert_int_equal(satip_reply_parse(buf, i, &r), 0);
	/* a reply after it is not part of it */
	strcat(buf, "RTSP/1.0 404 Not Found\r\nCSeq: 4\r\n\r\n");
	assert_int_equal(satip_reply_parse(buf, strlen(buf), &r), n);
	assert_int_equal(satip_reply_parse(buf + n, strlen(buf) - (size_t)n, &r),
			 strlen(buf) - (size_t)n);
	assert_int_equal(r.code, 404);
	assert_int_equal(r.cseq, 4);

	/* errors and a status without reason phrase */
	assert_true(parse("RTSP/1.0 454 Session Not Found\r\nCSeq: 9\r\n\r\n") > 0);
	assert_int_equal(r.code, 454);
	assert_true(parse("RTSP/1.0 503\r\nNo-More: frontends\r\n\r\n") > 0);
	assert_int_equal(r.code, 503);
	assert_false(r.has_cseq);
}

static void test_http(void **state)
{
	const char *s = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n"
			"X-SATIP-RTSP-Port: 8554\r\nContent-Length: 5\r\n\r\n<x/>\n";

	(void)state;
	assert_int_equal(parse(s), strlen(s));
	assert_int_equal(r.proto, SATIP_HTTP);
	assert_int_equal(r.rtsp_port, 8554);
	assert_int_equal(r.content_length, 5);
	/* without Content-Length: the head; the body runs to EOF */
	s = "HTTP/1.0 200 OK\r\nConnection: close\r\n\r\n<root>";
	assert_int_equal(parse(s), strlen(s) - 6);
	assert_false(r.has_content_length);
	assert_int_equal(r.rtsp_port, 0);
}

static void test_interleaved(void **state)
{
	const char *s = "RTSP/1.0 200 OK\r\nCSeq: 5\r\n\r\n";
	uint8_t buf[256], ch = 0;
	size_t n = strlen(s), pos = 0;
	int ret, replies = 0, frames = 0;

	(void)state;
	/* a frame, a reply, a frame, a stray CRLF and a frame */
	satip_interleaved_hdr(buf, 0, 12);
	memset(buf + 4, 0x80, 12);
	memcpy(buf + 16, s, n);
	satip_interleaved_hdr(buf + 16 + n, 1, 8);
	memset(buf + 20 + n, 0x81, 8);
	memcpy(buf + 28 + n, "\r\n", 2);
	satip_interleaved_hdr(buf + 30 + n, 0, 0);
	n += 34;
	while (pos < n) {
		ret = satip_reply_parse((const char *)buf + pos, n - pos, &r);
		if (ret == -ENOMSG) {
			pos += r.skip;
			ret = satip_interleaved(buf + pos, n - pos, &ch);
			assert_true(ret >= 4);
			frames++;
		} else {
			assert_int_equal(ret, strlen(s));
			assert_int_equal(r.cseq, 5);
			replies++;
		}
		pos += (size_t)ret;
	}
	assert_int_equal(pos, n);
	assert_int_equal(replies, 1);
	assert_int_equal(frames, 3);
	assert_int_equal(ch, 0);
	/* '$' at once, and after empty lines only */
	assert_int_equal(satip_reply_parse("$", 1, &r), -ENOMSG);
	assert_int_equal(r.skip, 0);
	assert_int_equal(parse("\r\n\n$\x01"), -ENOMSG);
	assert_int_equal(r.skip, 3);
	assert_int_equal(parse("\r\n"), 0);
}

static void test_malformed(void **state)
{
	static char big[SATIP_REPLY_MAX + 64];
	int n;

	(void)state;
	assert_int_equal(parse(""), 0);
	assert_int_equal(parse("RTSP/1.0 200 OK"), 0);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nCSeq: 1\r\n"), 0);
	assert_int_equal(parse("RTSP/2.0 200 OK\r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("OPTIONS * RTSP/1.0\r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 20 OK\r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 2000 OK\r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 099 OK\r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 2x0 OK\r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0  200 OK\r\n\r\n"), -EBADMSG);
	/* a bad status line is reported as soon as the line is whole */
	assert_int_equal(parse("HELLO\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nno colon\r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nCSeq: x\r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nCSeq: 1\r\nCSeq: 1\r\n\r\n"),
			 -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nCSeq: 4294967296\r\n\r\n"),
			 -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nContent-Length: -1\r\n\r\n"),
			 -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nContent-Length: 1\r\n"
			       "Content-Length: 1\r\n\r\nx"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nSession: \r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nSession: a b\r\n\r\n"),
			 -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nSession: "
			       "0123456789012345678901234567890123456789"
			       "012345678901234567890123\r\n\r\n"), -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\ncom.ses.streamID: 65536\r\n\r\n"),
			 -EBADMSG);
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nTransport: RTP/AVP;"
			       "client_port=70000\r\n\r\n"), -EBADMSG);
	/* the error waits for the whole head, so a split gives the same */
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nCSeq: x\r\n"), 0);

	/* too large: a body, a head that never ends */
	assert_int_equal(parse("RTSP/1.0 200 OK\r\nContent-Length: 65536\r\n\r\n"),
			 -EMSGSIZE);
	/* a head of 42 bytes and a body up to the limit */
	n = snprintf(big, sizeof(big), "RTSP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n",
		     SATIP_REPLY_MAX - 42);
	assert_int_equal(n, 42);
	assert_int_equal(satip_reply_parse(big, (size_t)n, &r), 0);
	memset(big + n, 'x', SATIP_REPLY_MAX - 42);
	assert_int_equal(satip_reply_parse(big, SATIP_REPLY_MAX, &r),
			 SATIP_REPLY_MAX);
	memset(big, 'x', sizeof(big));
	memcpy(big, "RTSP/1.0 200 OK\r\nX: ", 21);
	assert_int_equal(satip_reply_parse(big, SATIP_REPLY_MAX - 1, &r), 0);
	assert_int_equal(satip_reply_parse(big, SATIP_REPLY_MAX, &r), -EMSGSIZE);
	assert_int_equal(satip_reply_parse(big, sizeof(big), &r), -EMSGSIZE);
	memset(big, '\n', sizeof(big));
	assert_int_equal(satip_reply_parse(big, sizeof(big), &r), -EMSGSIZE);
}

static void test_transport(void **state)
{
	struct satip_transport t;
	const char *v = " RTP/AVP/TCP;interleaved=4, RTP/AVP;unicast;client_port=5000 ";

	(void)state;
	assert_int_equal(satip_transport_parse(v, strlen(v), &t), 0);
	assert_int_equal(t.profile, SATIP_TR_TCP);
	assert_int_equal(t.interleaved[0], 4);
	assert_int_equal(t.interleaved[1], 5);
	v = "RTP/SAVP;unicast, RTP/AVP;unicast;client_port=5000;source=a\x01";
	assert_int_equal(satip_transport_parse(v, strlen(v), &t), 0);
	assert_int_equal(t.profile, SATIP_TR_UDP);
	assert_int_equal(t.client_port[1], 5001);
	assert_string_equal(t.source, "");
	v = "RAW/RAW/UDP";
	assert_int_equal(satip_transport_parse(v, strlen(v), &t), 0);
	assert_int_equal(t.profile, SATIP_TR_OTHER);
	v = "RTP/AVP;ttl=256";
	assert_int_equal(satip_transport_parse(v, strlen(v), &t), -400);
	/* not NUL-terminated: only len counts */
	v = "RTP/AVP;client_port=1234-1235;ttl=zz";
	assert_int_equal(satip_transport_parse(v, 29, &t), 0);
	assert_int_equal(t.client_port[1], 1235);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup),
		cmocka_unit_test(test_options_describe),
		cmocka_unit_test(test_http),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_transport),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
