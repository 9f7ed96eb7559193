// SPDX-License-Identifier: GPL-2.0
/*
 * test_satip_rtsp.c - the SAT>IP request parser and reply helpers
 * (satip/rtsp.c): requests as VLC, ffmpeg and VDR's satip plugin send
 * them, fed whole and byte by byte, tolerance, every error.
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

#include "satip/rtsp.h"

#define S_VLC_SETUP \
	"SETUP rtsp://127.0.0.1:5554/?src=1&freq=11494&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23&pids=0,16,17 RTSP/1.0\r\n" \
	"CSeq: 0\r\n" \
	"Transport: RTP/AVP;unicast;client_port=9000-9001\r\n" \
	"\r\n"
#define S_VLC_PLAY \
	"PLAY rtsp://127.0.0.1:5554/stream=1 RTSP/1.0\r\n" \
	"CSeq: 1\r\n" \
	"Session: 4c2a90e1\r\n" \
	"\r\n"
#define S_FF_OPTIONS \
	"OPTIONS rtsp://192.168.1.20:554/?src=1&freq=12188&pol=h&msys=dvbs&sr=27500&fec=34&pids=0,17 RTSP/1.0\r\n" \
	"CSeq: 1\r\n" \
	"User-Agent: Lavf59.27.100\r\n" \
	"\r\n"
#define S_FF_SETUP \
	"SETUP rtsp://192.168.1.20:554/?src=1&freq=12188&pol=h&msys=dvbs&sr=27500&fec=34&pids=0,17 RTSP/1.0\r\n" \
	"Transport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n" \
	"CSeq: 2\r\n" \
	"User-Agent: Lavf59.27.100\r\n" \
	"\r\n"
#define S_FF_PLAY \
	"PLAY rtsp://192.168.1.20:554/stream=7 RTSP/1.0\r\n" \
	"Range: npt=0.000-\r\n" \
	"CSeq: 3\r\n" \
	"User-Agent: Lavf59.27.100\r\n" \
	"Session: 0000abcd\r\n" \
	"\r\n"
#define S_FF_TEARDOWN \
	"TEARDOWN rtsp://192.168.1.20:554/stream=7 RTSP/1.0\r\n" \
	"CSeq: 4\r\n" \
	"User-Agent: Lavf59.27.100\r\n" \
	"Session: 0000abcd\r\n" \
	"\r\n"
#define S_VDR_OPTIONS \
	"OPTIONS rtsp://192.168.0.2/ RTSP/1.0\r\n" \
	"CSeq: 1\r\n" \
	"\r\n"
#define S_VDR_SETUP \
	"SETUP rtsp://192.168.0.2/?src=1&freq=11362&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23 RTSP/1.0\r\n" \
	"CSeq: 2\r\n" \
	"Transport: RTP/AVP;unicast;client_port=52000-52001\r\n" \
	"\r\n"
#define S_VDR_DESCRIBE \
	"DESCRIBE rtsp://192.168.0.2/stream=3 RTSP/1.0\r\n" \
	"CSeq: 5\r\n" \
	"Accept: application/sdp\r\n" \
	"Session: 0123abcd\r\n" \
	"\r\n"
#define S_VDR_PLAY \
	"PLAY rtsp://192.168.0.2/stream=3?addpids=100,101&delpids=200 RTSP/1.0\r\n" \
	"CSeq: 6\r\n" \
	"Session: 0123abcd\r\n" \
	"\r\n"
#define S_HTTP_DESC \
	"GET /desc.xml HTTP/1.1\r\n" \
	"Host: 192.168.0.2:8875\r\n" \
	"User-Agent: Linux/5.10 UPnP/1.0 vdr\r\n" \
	"\r\n"
#define S_HTTP_STREAM \
	"GET /?src=1&freq=11494&pol=h&msys=dvbs2&sr=22000&pids=0,16 HTTP/1.0\r\n" \
	"\r\n"

static const char *const samples[] = {
	S_VLC_SETUP, S_VLC_PLAY, S_FF_OPTIONS, S_FF_SETUP, S_FF_PLAY,
	S_FF_TEARDOWN, S_VDR_OPTIONS, S_VDR_SETUP, S_VDR_DESCRIBE, S_VDR_PLAY,
	S_HTTP_DESC, S_HTTP_STREAM,
};

static struct satip_req r;

static int parse(const char *s)
{
	return satip_req_parse(s, strlen(s), &r);
}

/* s is one whole request */
static void whole(const char *s)
{
	assert_int_equal(parse(s), strlen(s));
}

static void test_vlc(void **state)
{
	(void)state;
	assert_int_equal(parse(S_VLC_SETUP), strlen(S_VLC_SETUP));
	assert_int_equal(r.skip, strlen(S_VLC_SETUP));
	assert_int_equal(r.method, SATIP_M_SETUP);
	assert_string_equal(r.method_name, "SETUP");
	assert_int_equal(r.proto, SATIP_RTSP);
	assert_string_equal(r.host, "127.0.0.1");
	assert_int_equal(r.port, 5554);
	assert_string_equal(r.path, "/");
	assert_int_equal(r.stream_id, -1);
	assert_true(r.has_query);
	assert_string_equal(r.query, "src=1&freq=11494&pol=h&ro=0.35&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23&pids=0,16,17");
	assert_true(r.has_cseq);
	assert_int_equal(r.cseq, 0);
	assert_string_equal(r.session, "");
	assert_int_equal(r.transport.profile, SATIP_TR_UDP);
	assert_true(r.transport.unicast);
	assert_false(r.transport.multicast);
	assert_true(r.transport.has_client_port);
	assert_int_equal(r.transport.client_port[0], 9000);
	assert_int_equal(r.transport.client_port[1], 9001);
	assert_false(r.transport.has_interleaved);
	assert_int_equal(r.content_length, 0);

	assert_int_equal(parse(S_VLC_PLAY), strlen(S_VLC_PLAY));
	assert_int_equal(r.method, SATIP_M_PLAY);
	assert_int_equal(r.stream_id, 1);
	assert_string_equal(r.path, "/stream=1");
	assert_false(r.has_query);
	assert_string_equal(r.query, "");
	assert_string_equal(r.session, "4c2a90e1");
	assert_int_equal(r.transport.profile, SATIP_TR_NONE);
}

static void test_ffmpeg(void **state)
{
	(void)state;
	assert_int_equal(parse(S_FF_OPTIONS), strlen(S_FF_OPTIONS));
	assert_int_equal(r.method, SATIP_M_OPTIONS);
	assert_int_equal(r.cseq, 1);
	assert_string_equal(r.user_agent, "Lavf59.27.100");
	assert_int_equal(r.port, 554);

	assert_int_equal(parse(S_FF_SETUP), strlen(S_FF_SETUP));
	assert_int_equal(r.method, SATIP_M_SETUP);
	assert_int_equal(r.cseq, 2);
	assert_int_equal(r.transport.profile, SATIP_TR_TCP);
	assert_true(r.transport.unicast);
	assert_true(r.transport.has_interleaved);
	assert_int_equal(r.transport.interleaved[0], 0);
	assert_int_equal(r.transport.interleaved[1], 1);
	assert_false(r.transport.has_client_port);

	assert_int_equal(parse(S_FF_PLAY), strlen(S_FF_PLAY));
	assert_int_equal(r.method, SATIP_M_PLAY);
	assert_true(r.has_range);
	assert_int_equal(r.stream_id, 7);
	assert_string_equal(r.session, "0000abcd");

	assert_int_equal(parse(S_FF_TEARDOWN), strlen(S_FF_TEARDOWN));
	assert_int_equal(r.method, SATIP_M_TEARDOWN);
	assert_int_equal(r.cseq, 4);
}

static void test_vdr(void **state)
{
	(void)state;
	assert_int_equal(parse(S_VDR_OPTIONS), strlen(S_VDR_OPTIONS));
	assert_int_equal(r.method, SATIP_M_OPTIONS);
	assert_string_equal(r.host, "192.168.0.2");
	assert_int_equal(r.port, 0);
	assert_string_equal(r.path, "/");
	assert_false(r.has_query);

	assert_int_equal(parse(S_VDR_SETUP), strlen(S_VDR_SETUP));
	assert_int_equal(r.transport.client_port[0], 52000);
	assert_int_equal(r.transport.client_port[1], 52001);
	assert_null(strstr(r.query, "pids"));

	assert_int_equal(parse(S_VDR_DESCRIBE), strlen(S_VDR_DESCRIBE));
	assert_int_equal(r.method, SATIP_M_DESCRIBE);
	assert_int_equal(r.stream_id, 3);
	assert_string_equal(r.accept, "application/sdp");
	assert_string_equal(r.session, "0123abcd");

	assert_int_equal(parse(S_VDR_PLAY), strlen(S_VDR_PLAY));
	assert_int_equal(r.stream_id, 3);
	assert_string_equal(r.path, "/stream=3");
	assert_string_equal(r.query, "addpids=100,101&delpids=200");
}

static void test_http(void **state)
{
	(void)state;
	assert_int_equal(parse(S_HTTP_DESC), strlen(S_HTTP_DESC));
	assert_int_equal(r.method, SATIP_M_GET);
	assert_int_equal(r.proto, SATIP_HTTP);
	assert_int_equal(r.version_minor, 1);
	assert_string_equal(r.path, "/desc.xml");
	assert_false(r.has_cseq);

	assert_int_equal(parse(S_HTTP_STREAM), strlen(S_HTTP_STREAM));
	assert_int_equal(r.version_minor, 0);
	assert_string_equal(r.path, "/");
	assert_string_equal(r.query, "src=1&freq=11494&pol=h&msys=dvbs2&sr=22000&pids=0,16");

	whole("HEAD http://host:8080/desc.xml?x#frag HTTP/1.1\r\n\r\n");
	assert_int_equal(r.method, SATIP_M_HEAD);
	assert_string_equal(r.host, "host");
	assert_int_equal(r.port, 8080);
	assert_string_equal(r.path, "/desc.xml");
	assert_string_equal(r.query, "x");
}

/* Every prefix needs more bytes; the whole request is one request. */
static void test_byte_by_byte(void **state)
{
	char two[2048];
	size_t i, k, n;

	(void)state;
	for (k = 0; k < sizeof(samples) / sizeof(samples[0]); k++) {
		n = strlen(samples[k]);
		for (i = 0; i < n; i++)
			assert_int_equal(satip_req_parse(samples[k], i, &r), 0);
		assert_int_equal(satip_req_parse(samples[k], n, &r), n);
		/* followed by the next one, or by a '$' frame */
		snprintf(two, sizeof(two), "%s%s", samples[k],
			 samples[(k + 1) % 12]);
		assert_int_equal(parse(two), n);
		memcpy(two, samples[k], n);
		memcpy(two + n, "$\001\000\004abcd", 8);
		assert_int_equal(satip_req_parse(two, n + 8, &r), n);
	}
}

static void test_tolerance(void **state)
{
	const char *s;

	(void)state;
	/* header names in any case, extra spaces, bare LF, unknown headers */
	s = "SETUP   rtsp://10.0.0.1/?freq=10714   RTSP/1.0\n"
	    "cseq:7\n"
	    "X-Whatever: 1\r\n"
	    "  folded continuation\n"
	    "TRANSPORT :   rtp/avp ; Unicast ; CLIENT_PORT = 5000-5001  \n"
	    "session:   abc;timeout=60\r\n"
	    "USER-AGENT: \001x\n"
	    "\n";
	assert_int_equal(parse(s), strlen(s));
	assert_true(r.has_cseq);
	assert_int_equal(r.cseq, 7);
	assert_int_equal(r.transport.profile, SATIP_TR_UDP);
	assert_true(r.transport.unicast);
	assert_int_equal(r.transport.client_port[0], 5000);
	assert_string_equal(r.session, "abc");
	assert_string_equal(r.user_agent, "?x");
	assert_string_equal(r.query, "freq=10714");

	/* empty lines before the request, lower-case VLC URL, port alone */
	s = "\r\n\r\nsetup rtsp://host/stream=12/?freq=1 rtsp/1.0\r\n"
	    "Transport: RTP/AVP;unicast;client_port=9000\r\n\r\n";
	assert_int_equal(parse(s), strlen(s));
	assert_int_equal(r.method, SATIP_M_SETUP);
	assert_int_equal(r.stream_id, 12);
	assert_false(r.has_cseq);
	assert_int_equal(r.transport.client_port[1], 9001);

	/* mixed line ends at the end of the head */
	s = "OPTIONS * RTSP/1.0\r\nCSeq: 1\n\r\n";
	assert_int_equal(parse(s), strlen(s));
	assert_string_equal(r.path, "*");
	assert_int_equal(r.stream_id, -1);

	/* IPv6, user info, empty port */
	whole("OPTIONS rtsp://u:p@[fe80::1]:554/stream=2 RTSP/1.0\r\n\r\n");
	assert_string_equal(r.host, "fe80::1");
	assert_int_equal(r.port, 554);
	assert_int_equal(r.stream_id, 2);
	whole("OPTIONS rtsp://h:/x RTSP/1.0\r\n\r\n");
	assert_int_equal(r.port, 0);
	assert_string_equal(r.path, "/x");
	whole("OPTIONS rtsp://h?q RTSP/1.0\r\n\r\n");
	assert_string_equal(r.path, "/");
	assert_true(r.has_query);
	assert_string_equal(r.query, "q");
	whole("OPTIONS rtsp://h/? RTSP/1.0\r\n\r\n");
	assert_true(r.has_query);
	assert_string_equal(r.query, "");

	/* stream= that is not a number, not the last segment */
	parse("PLAY /stream=x RTSP/1.0\r\n\r\n");
	assert_int_equal(r.stream_id, -1);
	parse("PLAY /stream=65536 RTSP/1.0\r\n\r\n");
	assert_int_equal(r.stream_id, -1);
	parse("PLAY /stream=1/x RTSP/1.0\r\n\r\n");
	assert_int_equal(r.stream_id, -1);
	parse("PLAY /a/STREAM=0 RTSP/1.0\r\n\r\n");
	assert_int_equal(r.stream_id, 0);

	/* GET_PARAMETER with a body */
	s = "GET_PARAMETER rtsp://h/stream=1 RTSP/1.0\r\nCSeq: 9\r\n"
	    "Content-Length: 5\r\nSession: 1\r\n\r\nhelloOPTIONS";
	assert_int_equal(parse(s), strlen(s) - 7);
	assert_int_equal(r.method, SATIP_M_GET_PARAMETER);
	assert_int_equal(r.content_length, 5);
	assert_int_equal(satip_req_parse(s, strlen(s) - 8, &r), 0);
}

static void test_transport(void **state)
{
	const char *s;

	(void)state;
	s = "SETUP rtsp://h/?freq=1 RTSP/1.0\r\nCSeq: 1\r\n"
	    "Transport: RTP/AVP;multicast;destination=239.0.0.9;port=5004-5005;ttl=3\r\n\r\n";
	assert_int_equal(parse(s), strlen(s));
	assert_int_equal(r.transport.profile, SATIP_TR_UDP);
	assert_true(r.transport.multicast);
	assert_false(r.transport.unicast);
	assert_string_equal(r.transport.destination, "239.0.0.9");
	assert_true(r.transport.has_port);
	assert_int_equal(r.transport.port[0], 5004);
	assert_int_equal(r.transport.port[1], 5005);
	assert_true(r.transport.has_ttl);
	assert_int_equal(r.transport.ttl, 3);

	/* the first alternative we know */
	s = "SETUP rtsp://h/ RTSP/1.0\r\nCSeq: 1\r\n"
	    "Transport: RTP/SAVP;unicast;client_port=1-2, RTP/AVP/UDP;unicast;client_port=4-5;mode=play\r\n\r\n";
	assert_int_equal(parse(s), strlen(s));
	assert_int_equal(r.transport.profile, SATIP_TR_UDP);
	assert_int_equal(r.transport.client_port[0], 4);

	s = "SETUP rtsp://h/ RTSP/1.0\r\nCSeq: 1\r\nTransport: RAW/RAW/UDP;unicast\r\n\r\n";
	assert_int_equal(parse(s), strlen(s));
	assert_int_equal(r.transport.profile, SATIP_TR_OTHER);
	s = "SETUP rtsp://h/ RTSP/1.0\r\nCSeq: 1\r\nTransport:\r\n\r\n";
	assert_int_equal(parse(s), strlen(s));
	assert_int_equal(r.transport.profile, SATIP_TR_OTHER);
	s = "SETUP rtsp://h/ RTSP/1.0\r\nTransport: RTP/AVP/TCP;interleaved=4\r\n\r\n";
	assert_int_equal(parse(s), strlen(s));
	assert_int_equal(r.transport.interleaved[0], 4);
	assert_int_equal(r.transport.interleaved[1], 5);
}

static void expect_err(const char *s, int err, size_t skip)
{
	int ret = parse(s);

	if (ret != err)
		fail_msg("%d instead of %d: %s", ret, err, s);
	assert_int_equal(r.skip, skip);
}

static void test_errors(void **state)
{
	char *big;
	size_t n;
	const char *s;

	(void)state;
	/* malformed request lines: fatal */
	expect_err("SETUP\r\n\r\n", -400, 0);
	expect_err("GET /\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1.0 x\r\n\r\n", -400, 0);
	expect_err("SE(UP / RTSP/1.0\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/a.0\r\n\r\n", -400, 0);
	expect_err("SETUP / SIP/2.0\r\n\r\n", -400, 0);
	expect_err("SETUP foo RTSP/1.0\r\n\r\n", -400, 0);
	expect_err("SETUP rtsp:/h/ RTSP/1.0\r\n\r\n", -400, 0);
	expect_err("SETUP rtsp://h:99999/ RTSP/1.0\r\n\r\n", -400, 0);
	expect_err("SETUP rtsp://h:0/ RTSP/1.0\r\n\r\n", -400, 0);
	expect_err("SETUP rtsp://[::1/ RTSP/1.0\r\n\r\n", -400, 0);
	expect_err("SETUP rtsp://[::1]x/ RTSP/1.0\r\n\r\n", -400, 0);
	expect_err("SETUP /\001 RTSP/1.0\r\n\r\n", -400, 0);
	expect_err("\x16\x03\x01\x02\x01\x01\xfc\x03\x03\n", -400, 0);
	/* headers: answered with what was parsed, then closed */
	expect_err("OPTIONS / RTSP/1.0\r\nno colon\r\nCSeq: 3\r\n\r\n", -400, 0);
	assert_true(r.has_cseq);
	assert_int_equal(r.cseq, 3);
	expect_err("OPTIONS / RTSP/1.0\r\n: x\r\n\r\n", -400, 0);
	expect_err("OPTIONS / RTSP/1.0\r\nCSeq: x\r\n\r\n", -400, 0);
	expect_err("OPTIONS / RTSP/1.0\r\nCSeq: \r\n\r\n", -400, 0);
	expect_err("OPTIONS / RTSP/1.0\r\nCSeq: 4294967296\r\n\r\n", -400, 0);
	expect_err("OPTIONS / RTSP/1.0\r\nCSeq: 1\r\nCSeq: 1\r\n\r\n", -400, 0);
	expect_err("OPTIONS / RTSP/1.0\r\nContent-Length: -1\r\n\r\n", -400, 0);
	expect_err("OPTIONS / RTSP/1.0\r\nContent-Length: 1\r\nContent-length: 1\r\n\r\nx", -400, 0);
	expect_err("OPTIONS / RTSP/1.0\r\nSession: ;timeout=5\r\n\r\n", -400, 0);
	expect_err("OPTIONS / RTSP/1.0\r\nSession: 0123456789012345678901234567890123456789012345678901234567890123\r\n\r\n", -400, 0);
	expect_err("OPTIONS / RTSP/1.0\r\nSession: a\001b\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1.0\r\nTransport: RTP/AVP;client_port=x\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1.0\r\nTransport: RTP/AVP;client_port=65535\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1.0\r\nTransport: RTP/AVP;client_port=1-65536\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1.0\r\nTransport: RTP/AVP/TCP;interleaved=256\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1.0\r\nTransport: RTP/AVP;ttl=256\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1.0\r\nTransport: RTP/AVP;port=\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1.0\r\nTransport: RTP/AVP;destination=\r\n\r\n", -400, 0);
	expect_err("SETUP / RTSP/1.0\r\nTransport: RTP/AVP;destination=0123456789012345678901234567890123456789012345678901234567890123\r\n\r\n", -400, 0);

	/* whole requests answered, the connection goes on */
	s = "ANNOUNCE rtsp://h/ RTSP/1.0\r\nCSeq: 5\r\n\r\n";
	expect_err(s, -501, strlen(s));
	assert_int_equal(r.method, SATIP_M_UNKNOWN);
	assert_string_equal(r.method_name, "ANNOUNCE");
	assert_int_equal(r.cseq, 5);
	s = "SETUP / HTTP/1.1\r\n\r\n";
	expect_err(s, -501, strlen(s));
	s = "GET / RTSP/1.0\r\nCSeq: 1\r\n\r\n";
	expect_err(s, -501, strlen(s));
	s = "OPTIONS / RTSP/2.0\r\nCSeq: 1\r\n\r\n";
	expect_err(s, -505, strlen(s));
	s = "GET / HTTP/1.2\r\n\r\n";
	expect_err(s, -505, strlen(s));
	s = "GET / HTTP/2.0\r\n\r\n";
	expect_err(s, -505, strlen(s));
	s = "ANNOUNCE / RTSP/1.0\r\nContent-Length: 3\r\n\r\nabcPLAY";
	expect_err(s, -501, strlen(s) - 4);
	/* ... once the body is there */
	assert_int_equal(satip_req_parse(s, strlen(s) - 5, &r), 0);

	/* target too long */
	big = malloc(SATIP_REQ_MAX * 2);
	assert_non_null(big);
	n = (size_t)sprintf(big, "SETUP /?");
	memset(big + n, 'a', SATIP_URI_MAX);
	n += SATIP_URI_MAX;
	n += (size_t)sprintf(big + n, " RTSP/1.0\r\nCSeq: 2\r\n\r\n");
	expect_err(big, -414, n);
	assert_int_equal(r.cseq, 2);
	/* a line that never ends */
	big[200] = 'a';
	big[SATIP_URI_MAX + 64] = '\0';
	assert_int_equal(parse(big), -414);
	memset(big, 'a', SATIP_URI_MAX + 64);
	assert_int_equal(parse(big), -400);
	/* a line ending past the limit: the same answer whatever came in */
	n = (size_t)sprintf(big, "SETUP /?");
	memset(big + n, 'a', 3000);
	n += 3000;
	n += (size_t)sprintf(big + n, " RTSP/1.0\r\nCSeq: 2\r\n\r\n");
	expect_err(big, -414, 0);
	assert_int_equal(satip_req_parse(big, 2200, &r), -414);
	assert_int_equal(satip_req_parse(big, 2000, &r), 0);
	/* host, path too long */
	n = (size_t)sprintf(big, "SETUP rtsp://");
	memset(big + n, 'h', 300);
	sprintf(big + n + 300, "/ RTSP/1.0\r\n\r\n");
	assert_int_equal(parse(big), -414);
	n = (size_t)sprintf(big, "SETUP /");
	memset(big + n, 'p', 300);
	sprintf(big + n + 300, " RTSP/1.0\r\n\r\n");
	assert_int_equal(parse(big), -414);

	/* head too large: never 0 once SATIP_REQ_MAX bytes are there */
	n = (size_t)sprintf(big, "OPTIONS / RTSP/1.0\r\nCSeq: 1\r\n");
	while (n < SATIP_REQ_MAX + 100)
		n += (size_t)sprintf(big + n, "X-Pad: 0123456789\r\n");
	assert_int_equal(satip_req_parse(big, SATIP_REQ_MAX - 1, &r), 0);
	assert_int_equal(satip_req_parse(big, SATIP_REQ_MAX, &r), -413);
	assert_int_equal(r.skip, 0);
	sprintf(big + n, "\r\n");
	assert_int_equal(parse(big), -413);
	memcpy(big, "GET / HTTP/1.1\r\n\r\n", 16);
	assert_int_equal(parse(big), -431);
	/* a body too large */
	expect_err("SETUP / RTSP/1.0\r\nContent-Length: 8193\r\n\r\n", -413, 0);
	expect_err("GET / HTTP/1.1\r\nContent-Length: 8170\r\n\r\n", -431, 0);
	/* empty lines only */
	memset(big, '\n', SATIP_REQ_MAX);
	assert_int_equal(satip_req_parse(big, SATIP_REQ_MAX - 1, &r), 0);
	assert_int_equal(satip_req_parse(big, SATIP_REQ_MAX, &r), -400);
	free(big);
}

static void test_interleaved(void **state)
{
	uint8_t hdr[4], ch = 0;
	const uint8_t frame[] = { '$', 1, 0, 3, 'a', 'b', 'c', 'O' };

	(void)state;
	satip_interleaved_hdr(hdr, 1, 0x1234);
	assert_memory_equal(hdr, "$\001\x12\x34", 4);
	assert_int_equal(satip_interleaved(frame, 0, &ch), 0);
	assert_int_equal(satip_interleaved(frame, 3, &ch), 0);
	assert_int_equal(satip_interleaved(frame, 6, &ch), 0);
	assert_int_equal(satip_interleaved(frame, 7, &ch), 7);
	assert_int_equal(ch, 1);
	assert_int_equal(satip_interleaved(frame, 8, &ch), 7);
	assert_int_equal(satip_interleaved("OPTIONS", 7, &ch), -1);
}

static void test_reply(void **state)
{
	static const int codes[] = { 200, 400, 403, 404, 405, 408, 413, 414,
		431, 453, 454, 455, 461, 500, 501, 503, 505 };
	char buf[256];
	size_t i;
	int n;

	(void)state;
	n = satip_reply_start(buf, sizeof(buf), 200, 0, SATIP_RTSP);
	assert_string_equal(buf, "RTSP/1.0 200 OK\r\nCSeq: 0\r\n");
	assert_int_equal(n, strlen(buf));
	n = satip_reply_add(buf, sizeof(buf), n, "Session: %s;timeout=%d\r\n",
			    "12ab", 60);
	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf, "RTSP/1.0 200 OK\r\nCSeq: 0\r\n"
			    "Session: 12ab;timeout=60\r\n");
	n = satip_reply_start(buf, sizeof(buf), 454, 4294967295LL, SATIP_RTSP);
	assert_string_equal(buf, "RTSP/1.0 454 Session Not Found\r\nCSeq: 4294967295\r\n");
	satip_reply_start(buf, sizeof(buf), 400, -1, SATIP_RTSP);
	assert_string_equal(buf, "RTSP/1.0 400 Bad Request\r\n");
	satip_reply_start(buf, sizeof(buf), 404, 3, SATIP_HTTP);
	assert_string_equal(buf, "HTTP/1.1 404 Not Found\r\n");
	satip_reply_start(buf, sizeof(buf), 505, 3, SATIP_HTTP);
	assert_string_equal(buf, "HTTP/1.1 505 HTTP Version Not Supported\r\n");
	satip_reply_start(buf, sizeof(buf), 505, 3, SATIP_RTSP);
	assert_string_equal(buf, "RTSP/1.0 505 RTSP Version Not Supported\r\nCSeq: 3\r\n");
	satip_reply_start(buf, sizeof(buf), 461, 1, SATIP_RTSP);
	assert_string_equal(buf, "RTSP/1.0 461 Unsupported Transport\r\nCSeq: 1\r\n");
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		assert_string_not_equal(satip_reason(codes[i]), "Error");
	assert_string_equal(satip_reason(299), "Error");
	assert_string_equal(satip_reason(455), "Method Not Valid in This State");
	assert_string_equal(satip_reason(503), "Service Unavailable");

	/* too small */
	assert_int_equal(satip_reply_start(buf, 10, 200, 1, SATIP_RTSP), -ENOBUFS);
	assert_string_equal(buf, "");
	n = satip_reply_start(buf, 30, 200, 1, SATIP_RTSP);
	assert_int_equal(n, 26);
	assert_int_equal(satip_reply_add(buf, 30, n, "Public: %s\r\n", "x"), -ENOBUFS);
	assert_int_equal(strlen(buf), 26);
	assert_int_equal(satip_reply_add(buf, 30, 30, "x"), -ENOBUFS);
	assert_int_equal(satip_reply_add(buf, 30, -1, "x"), -EINVAL);
	assert_int_equal(satip_reply_add(buf, 30, n, "abc"), 29);

	assert_string_equal(satip_method_name(SATIP_M_GET_PARAMETER), "GET_PARAMETER");
	assert_string_equal(satip_method_name(SATIP_M_UNKNOWN), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vlc),
		cmocka_unit_test(test_ffmpeg),
		cmocka_unit_test(test_vdr),
		cmocka_unit_test(test_http),
		cmocka_unit_test(test_byte_by_byte),
		cmocka_unit_test(test_tolerance),
		cmocka_unit_test(test_transport),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_reply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
