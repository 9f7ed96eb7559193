// SPDX-License-Identifier: GPL-2.0
/*
 * test_satip_discover.c - how a SAT>IP client finds servers
 * (satip/discover.c): our own desc.xml parsed back, descriptions as
 * other servers write them (namespaces, comments, CDATA, entities,
 * nesting, long names), devices that are not SAT>IP servers; SSDP
 * NOTIFYs and M-SEARCH answers as vtunerd's ssdp.c sends them, and
 * malformed ones.
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

#include "satip/desc.h"

static struct satip_server_info info;

static int desc(const char *xml)
{
	return satip_desc_parse(xml, strlen(xml), &info);
}

static void test_own(void **state)
{
	struct satip_desc d = {
		.friendly_name = "Tom's <\"tuner\"> & co",
		.model_number = "1.2",
		.uuid = "12345678-1234-8234-9234-123456789abc",
		.caps = "DVBS2-2,DVBT-1,DVBC-3",
		.m3u_url = "/channels.m3u",
		.config_id = 7,
	};
	char buf[4096];
	int n;

	(void)state;
	n = satip_desc_xml(buf, sizeof(buf), &d);
	assert_true(n > 0);
	assert_int_equal(satip_desc_parse(buf, (size_t)n, &info), 0);
	assert_string_equal(info.device_type, SATIP_DEVICE_TYPE);
	assert_string_equal(info.friendly_name, d.friendly_name);
	assert_string_equal(info.manufacturer, "vtuner");
	assert_string_equal(info.model_name, "vtunerd");
	assert_string_equal(info.model_number, "1.2");
	assert_string_equal(info.udn, "uuid:12345678-1234-8234-9234-123456789abc");
	assert_string_equal(info.caps, "DVBS2-2,DVBT-1,DVBC-3");
	assert_string_equal(info.m3u, "/channels.m3u");
	assert_int_equal(info.frontends[SATIP_DVBS2], 2);
	assert_int_equal(info.frontends[SATIP_DVBT], 1);
	assert_int_equal(info.frontends[SATIP_DVBT2], 0);
	assert_int_equal(info.frontends[SATIP_DVBC], 3);
	assert_int_equal(info.frontends[SATIP_DVBC2], 0);

	/* no caps, no list: the device type says SAT>IP */
	d.caps = NULL;
	d.m3u_url = NULL;
	n = satip_desc_xml(buf, sizeof(buf), &d);
	assert_int_equal(satip_desc_parse(buf, (size_t)n, &info), 0);
	assert_string_equal(info.caps, "");
	assert_string_equal(info.m3u, "");
	assert_int_equal(info.frontends[SATIP_DVBS2], 0);
}

static void test_others(void **state)
{
	const char *x =
		"<?xml version=\"1.0\"?>\r\n"
		"<!-- <friendlyName>in a comment</friendlyName> -->\r\n"
		"<root xmlns=\"urn:schemas-upnp-org:device-1-0\">\r\n"
		" <device>\r\n"
		"  <deviceType>\r\n    urn:ses-com:device:SatIPServer:1\r\n  </deviceType>\r\n"
		"  <friendlyName a=\"x>y\" b='<'>Octo&#8203;Net &#x1F4E1; &#228;&#1;&foo; &lt;1&gt;</friendlyName>\r\n"
		"  <manufacturer><![CDATA[Digital]]>Devices</manufacturer>\r\n"
		"  <modelName/>\r\n"
		"  <modelName>OctopusNet</modelName>\r\n"
		"  <UDN>uuid:0000-1</UDN>\r\n"
		"  <satip:X_SATIPCAP xmlns:satip=\"urn:ses-com:satip\">DVBS-1, DVBS2-3 ,DVBT2-2,DVBX-9,DVBC2-1,junk,DVBT-</satip:X_SATIPCAP>\r\n"
		"  <deviceList><device><friendlyName>embedded</friendlyName>"
		"<X_SATIPCAP>DVBC-8</X_SATIPCAP></device></deviceList>\r\n"
		" </device>\r\n"
		"</root>\r\n";
	char big[1024];
	size_t i;

	(void)state;
	assert_int_equal(desc(x), 0);
	assert_string_equal(info.device_type, "urn:ses-com:device:SatIPServer:1");
	assert_string_equal(info.friendly_name,
			    "Octo\xe2\x80\x8bNet \xf0\x9f\x93\xa1 \xc3\xa4&foo; <1>");
	assert_string_equal(info.manufacturer, "");	/* the CDATA's tag */
	assert_string_equal(info.model_name, "OctopusNet");
	assert_string_equal(info.udn, "uuid:0000-1");
	assert_int_equal(info.frontends[SATIP_DVBS2], 4);
	assert_int_equal(info.frontends[SATIP_DVBT2], 2);
	assert_int_equal(info.frontends[SATIP_DVBC2], 1);
	assert_int_equal(info.frontends[SATIP_DVBC], 0);
	assert_int_equal(info.frontends[SATIP_DVBT], 0);
	/* every prefix parses (or is no SAT>IP device) */
	for (i = 0; i < strlen(x); i++) {
		int ret = satip_desc_parse(x, i, &info);

		assert_true(ret == 0 || ret == -EINVAL);
	}

	/* not SAT>IP */
	assert_int_equal(desc("<root><device><deviceType>urn:schemas-upnp-org:"
			      "device:MediaRenderer:1</deviceType></device></root>"),
			 -EINVAL);
	assert_int_equal(desc(""), -EINVAL);
	assert_int_equal(desc("<<<>>>&&&"), -EINVAL);
	/* caps alone are enough */
	assert_int_equal(desc("<X_SATIPCAP>DVBT-2</X_SATIPCAP>"), 0);
	assert_int_equal(info.frontends[SATIP_DVBT], 2);

	/* cut short, never inside a UTF-8 sequence; controls dropped */
	strcpy(big, "<X_SATIPCAP>DVBS2-1</X_SATIPCAP><friendlyName>");
	for (i = 0; i < 100; i++)
		strcat(big, "\xc3\xa4\x01");
	strcat(big, "</friendlyName>");
	assert_int_equal(desc(big), 0);
	assert_int_equal(strlen(info.friendly_name), 126);
	assert_int_equal((unsigned char)info.friendly_name[125], 0xa4);
}

static struct satip_ssdp_msg m;

static int ssdp(const char *s)
{
	return satip_ssdp_parse(s, strlen(s), &m);
}

static void test_ssdp(void **state)
{
	/* as src/server/ssdp.c writes them */
	const char *alive =
		"NOTIFY * HTTP/1.1\r\n"
		"HOST: 239.255.255.250:1900\r\n"
		"CACHE-CONTROL: max-age=1800\r\n"
		"LOCATION: http://10.0.0.1:8554/desc.xml\r\n"
		"NT: urn:ses-com:device:SatIPServer:1\r\nNTS: ssdp:alive\r\n"
		"SERVER: Linux/6.1 UPnP/1.1 vtunerd/0.1\r\n"
		"USN: uuid:abc::urn:ses-com:device:SatIPServer:1\r\n"
		"BOOTID.UPNP.ORG: 1700000000\r\n"
		"CONFIGID.UPNP.ORG: 16777215\r\n"
		"DEVICEID.SES.COM: 1\r\n"
		"X-SATIP-RTSP-Port: 8554\r\n\r\n";
	const char *answer =
		"HTTP/1.1 200 OK\r\n"
		"CACHE-CONTROL: max-age=1800\r\n"
		"DATE: Mon, 01 Jan 2024 00:00:00 GMT\r\nEXT:\r\n"
		"LOCATION: http://10.0.0.1:554/desc.xml\r\n"
		"SERVER: Linux/6.1 UPnP/1.1 vtunerd/0.1\r\n"
		"ST: urn:ses-com:device:SatIPServer:1\r\n"
		"USN: uuid:abc::urn:ses-com:device:SatIPServer:1\r\n"
		"BOOTID.UPNP.ORG: 5\r\nCONFIGID.UPNP.ORG: 6\r\n"
		"DEVICEID.SES.COM: 254\r\n\r\n";
	char big[600];

	(void)state;
	assert_int_equal(ssdp(alive), 0);
	assert_false(m.response);
	assert_false(m.byebye);
	assert_true(m.satip);
	assert_string_equal(m.location, "http://10.0.0.1:8554/desc.xml");
	assert_string_equal(m.usn, "uuid:abc::urn:ses-com:device:SatIPServer:1");
	assert_int_equal(m.bootid, 1700000000);
	assert_int_equal(m.configid, 16777215);
	assert_int_equal(m.deviceid, 1);
	assert_int_equal(m.max_age, 1800);
	assert_int_equal(m.rtsp_port, 8554);

	assert_int_equal(ssdp(answer), 0);
	assert_true(m.response);
	assert_true(m.satip);
	assert_int_equal(m.deviceid, 254);
	assert_int_equal(m.rtsp_port, 0);

	/* byebye; the root device's messages; LF only, no end */
	assert_int_equal(ssdp("NOTIFY * HTTP/1.1\nnt: urn:ses-com:device:SatIPServer:1\n"
			      "nts: ssdp:byebye\nusn: uuid:abc\nBOOTID.UPNP.ORG: 5"), 0);
	assert_true(m.byebye);
	assert_true(m.satip);
	assert_string_equal(m.usn, "uuid:abc");
	assert_int_equal(m.bootid, 5);
	assert_int_equal(m.configid, -1);
	assert_int_equal(m.deviceid, -1);
	assert_int_equal(m.max_age, 0);
	assert_string_equal(m.location, "");
	assert_int_equal(ssdp("NOTIFY * HTTP/1.1\r\nNT: upnp:rootdevice\r\n"
			      "NTS: ssdp:alive\r\n\r\n"), 0);
	assert_false(m.satip);
	/* a response's NT does not count, a NOTIFY's ST neither */
	assert_int_equal(ssdp("HTTP/1.1 200 OK\r\nNT: urn:ses-com:device:SatIPServer:1\r\n\r\n"), 0);
	assert_false(m.satip);
	/* the first of a name counts; values that do not parse */
	assert_int_equal(ssdp("HTTP/1.1 200 OK\r\nST: urn:ses-com:device:SatIPServer:2\r\n"
			      "ST: other\r\nCache-Control: no-cache=\"Ext\", MAX-AGE = 120\r\n"
			      "DEVICEID.SES.COM: 0\r\nBOOTID.UPNP.ORG: 2147483648\r\n"
			      "CONFIGID.UPNP.ORG: x\r\nX-SATIP-RTSP-Port: 65536\r\n\r\n"), 0);
	assert_true(m.satip);
	assert_int_equal(m.max_age, 120);
	assert_int_equal(m.deviceid, -1);
	assert_int_equal(m.bootid, -1);
	assert_int_equal(m.configid, -1);
	assert_int_equal(m.rtsp_port, 0);
	/* a LOCATION too long is none */
	strcpy(big, "NOTIFY * HTTP/1.1\r\nLOCATION: http://");
	memset(big + strlen(big), 'a', 300);
	big[36 + 300] = '\0';
	assert_int_equal(ssdp(big), 0);
	assert_string_equal(m.location, "");

	/* not a NOTIFY or an answer */
	assert_int_equal(ssdp("M-SEARCH * HTTP/1.1\r\nST: ssdp:all\r\n\r\n"), -EINVAL);
	assert_int_equal(ssdp("HTTP/1.1 404 Not Found\r\n\r\n"), -EINVAL);
	assert_int_equal(ssdp("HTTP/1.1 2000 OK\r\n\r\n"), -EINVAL);
	assert_int_equal(ssdp("NOTIFY / HTTP/1.1\r\n\r\n"), -EINVAL);
	assert_int_equal(ssdp(""), -EINVAL);
	assert_int_equal(satip_ssdp_parse("NOTIFY * HTTP/1.1\r\n\0\r\n", 22, &m), -EINVAL);
	assert_int_equal(ssdp("HTTP/1.1 200\r\n"), 0);
	assert_int_equal(ssdp("NOTIFY * HTTP/1.1"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own),
		cmocka_unit_test(test_others),
		cmocka_unit_test(test_ssdp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
