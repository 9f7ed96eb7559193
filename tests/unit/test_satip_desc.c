// SPDX-License-Identifier: GPL-2.0
/*
 * test_satip_desc.c - the texts of SAT>IP discovery (src/satip/desc.c):
 * X_SATIPCAP of tuner sets, desc.xml with a hostile friendlyName, the
 * M3U list and the name-based UUID.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <linux/dvb/frontend.h>

#include "satip/desc.h"

static void test_caps(void **state)
{
	static const uint8_t s2[] = { SYS_DVBS, SYS_DVBS2 };
	static const uint8_t s[] = { SYS_DVBS };
	static const uint8_t t2[] = { SYS_DVBT, SYS_DVBT2 };
	static const uint8_t t[] = { SYS_DVBT };
	static const uint8_t c[] = { SYS_DVBC_ANNEX_A };
	static const uint8_t combo[] = { SYS_DVBC_ANNEX_A, SYS_DVBT,
					 SYS_DVBT2, SYS_DVBS, SYS_DVBS2 };
	static const uint8_t tc[] = { SYS_DVBC_ANNEX_A, SYS_DVBT };
	static const uint8_t atsc[] = { SYS_ATSC, SYS_DVBC_ANNEX_B };
	struct satip_tuner_caps ts[] = {
		{ s2, sizeof(s2) }, { t, sizeof(t) }, { s2, sizeof(s2) },
		{ c, sizeof(c) }, { atsc, sizeof(atsc) }, { t2, sizeof(t2) },
		{ combo, sizeof(combo) }, { tc, sizeof(tc) }, { s, sizeof(s) },
		{ NULL, 0 },
	};
	char buf[64];

	(void)state;
	assert_int_equal(satip_caps(buf, sizeof(buf), ts, 2), 14);
	assert_string_equal(buf, "DVBS2-1,DVBT-1");
	assert_int_equal(satip_caps(buf, sizeof(buf), ts, 3), 14);
	assert_string_equal(buf, "DVBS2-2,DVBT-1");
	assert_int_equal(satip_caps(buf, sizeof(buf), ts, 10),
			 (int)strlen("DVBS2-4,DVBT-2,DVBT2-1,DVBC-1"));
	assert_string_equal(buf, "DVBS2-4,DVBT-2,DVBT2-1,DVBC-1");
	/* nothing SAT>IP can serve */
	assert_int_equal(satip_caps(buf, sizeof(buf), ts + 4, 1), 0);
	assert_string_equal(buf, "");
	assert_int_equal(satip_caps(buf, sizeof(buf), ts, 0), 0);
	/* too small: -ENOSPC, an empty string */
	assert_int_equal(satip_caps(buf, 14, ts, 3), -ENOSPC);
	assert_string_equal(buf, "");
	assert_int_equal(satip_caps(buf, 15, ts, 3), 14);

	assert_int_equal(satip_tuner_type(combo, sizeof(combo)), SATIP_DVBS2);
	assert_int_equal(satip_tuner_type(tc, sizeof(tc)), SATIP_DVBT);
	assert_int_equal(satip_tuner_type(NULL, 0), SATIP_NONE);
	assert_string_equal(satip_type_name(SATIP_DVBC2), "DVBC2");
	assert_null(satip_type_name(SATIP_NONE));
	assert_null(satip_type_name(SATIP_NTYPES));
}

static const char *find(const char *hay, const char *needle)
{
	const char *p = strstr(hay, needle);

	if (!p)
		fail_msg("\"%s\" not in:\n%s", needle, hay);
	return p;
}

static void test_desc_xml(void **state)
{
	struct satip_desc d = {
		.friendly_name = "<b>Tom & \"Jerry's\"</b>\n\x1b[2J\xc2\x9b"
				 "x\xff\xe2\x82\xac]]>",
		.model_number = "1.2",
		.uuid = "12345678-1234-8234-8234-123456789abc",
		.caps = "DVBS2-2,DVBT-1",
		.config_id = 0x1234567,
	};
	char buf[4096];
	int n;

	(void)state;
	n = satip_desc_xml(buf, sizeof(buf), &d);
	assert_true(n > 0);
	assert_int_equal((size_t)n, strlen(buf));
	find(buf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	find(buf, "configId=\"2311527\"");	/* 24 bits */
	find(buf, "<deviceType>urn:ses-com:device:SatIPServer:1</deviceType>");
	/* escaped, controls (C0, C1 as UTF-8) dropped, bad UTF-8 as '?' */
	find(buf, "<friendlyName>&lt;b&gt;Tom &amp; &quot;Jerry&apos;s&quot;"
		  "&lt;/b&gt;[2Jx?\xe2\x82\xac]]&gt;</friendlyName>");
	assert_null(strchr(buf, '\x1b'));
	find(buf, "<manufacturer>vtuner</manufacturer>");
	find(buf, "<modelName>vtunerd</modelName>");
	find(buf, "<modelNumber>1.2</modelNumber>");
	find(buf, "<UDN>uuid:12345678-1234-8234-8234-123456789abc</UDN>");
	find(buf, "<satip:X_SATIPCAP xmlns:satip=\"urn:ses-com:satip\">"
		  "DVBS2-2,DVBT-1</satip:X_SATIPCAP>");
	assert_null(strstr(buf, "X_SATIPM3U"));
	assert_null(strstr(buf, "presentationURL"));
	assert_null(strstr(buf, "serialNumber"));
	find(buf, "</device>\n</root>\n");

	d.m3u_url = "http://h:8875/channels.m3u?a=1&b=2";
	d.presentation_url = "http://h:8875/";
	n = satip_desc_xml(buf, sizeof(buf), &d);
	assert_true(n > 0);
	find(buf, "<satip:X_SATIPM3U xmlns:satip=\"urn:ses-com:satip\">"
		  "http://h:8875/channels.m3u?a=1&amp;b=2</satip:X_SATIPM3U>");
	find(buf, "<presentationURL>http://h:8875/</presentationURL>");

	/* every length short of it: -ENOSPC, never past the buffer */
	for (size_t len = 0; len <= (size_t)n; len++) {
		char small[4096];

		memset(small, 'Z', sizeof(small));
		assert_int_equal(satip_desc_xml(small, len, &d), -ENOSPC);
		if (len)
			assert_string_equal(small, "");
		assert_int_equal(small[len], 'Z');
	}
	assert_int_equal(satip_desc_xml(buf, (size_t)n + 1, &d), n);

	d.uuid = NULL;
	assert_int_equal(satip_desc_xml(buf, sizeof(buf), &d), -EINVAL);
}

static void test_config_id(void **state)
{
	struct satip_desc d = {
		.friendly_name = "a", .uuid = "u", .caps = "DVBS2-1",
	};
	unsigned int a, b;

	(void)state;
	a = satip_config_id(&d);
	assert_true(a <= 0xffffff);
	assert_int_equal(satip_config_id(&d), a);
	d.config_id = 7;		/* not part of the hash */
	assert_int_equal(satip_config_id(&d), a);
	d.caps = "DVBS2-2";
	b = satip_config_id(&d);
	assert_int_not_equal(a, b);
	d.caps = NULL;
	assert_int_not_equal(satip_config_id(&d), b);
}

static void test_m3u(void **state)
{
	static const uint16_t pids[] = { 0, 100, 101, 102 };
	static const uint16_t bad[] = { 8192 };
	struct satip_m3u_entry e[] = {
		{ "Das Erste HD", "src=1&freq=11494&pol=h&ro=0.35&msys=dvbs2"
		  "&mtype=8psk&plts=on&sr=22000&fec=23", pids, 4 },
		{ "Evil\r\nrtsp://x/\x7f#EXTINF", "freq=474&bw=8 \r\n#",
		  NULL, 0 },
	};
	char buf[1024];
	int n;

	(void)state;
	n = satip_m3u(buf, sizeof(buf), "192.168.1.5", 554, e, 2);
	assert_true(n > 0);
	assert_string_equal(buf,
		"#EXTM3U\r\n"
		"#EXTINF:0,Das Erste HD\r\n"
		"rtsp://192.168.1.5:554/?src=1&freq=11494&pol=h&ro=0.35"
		"&msys=dvbs2&mtype=8psk&plts=on&sr=22000&fec=23"
		"&pids=0,100,101,102\r\n"
		"#EXTINF:0,Evilrtsp://x/#EXTINF\r\n"
		"rtsp://192.168.1.5:554/?freq=474&bw=8%20%0D%0A%23&pids=all\r\n");
	n = satip_m3u(buf, sizeof(buf), "fe80::1", 8554, e, 1);
	assert_true(n > 0);
	find(buf, "rtsp://[fe80::1]:8554/?src=1&");
	assert_int_equal(satip_m3u(buf, sizeof(buf), "", 554, e, 1), -EINVAL);
	assert_int_equal(satip_m3u(buf, sizeof(buf), "a/b", 554, e, 1),
			 -EINVAL);
	assert_int_equal(satip_m3u(buf, sizeof(buf), "a\nb", 554, e, 1),
			 -EINVAL);
	e[0].pids = bad;
	e[0].npids = 1;
	assert_int_equal(satip_m3u(buf, sizeof(buf), "h", 554, e, 1), -EINVAL);
	assert_int_equal(satip_m3u(buf, 20, "h", 554, e + 1, 1), -ENOSPC);
	/* no entry: the header alone */
	assert_int_equal(satip_m3u(buf, sizeof(buf), "h", 554, e, 0), 9);
}

static void test_uuid(void **state)
{
	char a[37], b[37], c[37];

	(void)state;
	memset(a, 'Z', sizeof(a));
	assert_int_equal(satip_uuid_from("tuner-box:554", a), 0);
	assert_int_equal(strlen(a), 36);
	assert_int_equal(satip_uuid_from("tuner-box:554", b), 0);
	assert_string_equal(a, b);
	assert_int_equal(satip_uuid_from("tuner-box:8554", c), 0);
	assert_string_not_equal(a, c);
	/* 8-4-4-4-12 lower-case hex, version 8, variant 10 */
	for (int i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23)
			assert_int_equal(a[i], '-');
		else
			assert_non_null(strchr("0123456789abcdef", a[i]));
	}
	assert_int_equal(a[14], '8');
	assert_non_null(strchr("89ab", a[19]));
	/* a known value: the hash must not change between releases */
	assert_int_equal(satip_uuid_from("tuner-box:554", c), 0);
	assert_string_equal(c, "793eee69-3d2f-8d17-bab2-d6f356ca7509");
	assert_int_equal(satip_uuid_from("", c), 0);
	assert_string_equal(c, "844683cf-c6dc-8fbd-9757-91bf251b78a3");
	assert_int_equal(satip_uuid_from(NULL, c), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_desc_xml),
		cmocka_unit_test(test_config_id),
		cmocka_unit_test(test_m3u),
		cmocka_unit_test(test_uuid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
