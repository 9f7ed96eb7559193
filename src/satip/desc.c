// SPDX-License-Identifier: GPL-2.0
/*
 * desc.c - X_SATIPCAP, the UPnP device description, the M3U channel
 * list and the name-based UUID of a SAT>IP server, see desc.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/dvb/frontend.h>
#include <sodium.h>

#include "common/text.h"
#include "satip/desc.h"
#include "satip/out.h"

static const char *const type_names[SATIP_NTYPES] = {
	[SATIP_DVBS2] = "DVBS2",
	[SATIP_DVBT] = "DVBT",
	[SATIP_DVBT2] = "DVBT2",
	[SATIP_DVBC] = "DVBC",
	[SATIP_DVBC2] = "DVBC2",
};

const char *satip_type_name(int type)
{
	if (type < 0 || type >= SATIP_NTYPES)
		return NULL;
	return type_names[type];
}

static bool has(const uint8_t *delsys, unsigned int num, unsigned int sys)
{
	return delsys && memchr(delsys, (int)sys, num) != NULL;
}

int satip_tuner_type(const uint8_t *delsys, unsigned int num)
{
	if (has(delsys, num, SYS_DVBS2) || has(delsys, num, SYS_DVBS))
		return SATIP_DVBS2;
	if (has(delsys, num, SYS_DVBT2))
		return SATIP_DVBT2;
	if (has(delsys, num, SYS_DVBT))
		return SATIP_DVBT;
	if (has(delsys, num, SYS_DVBC_ANNEX_A) ||
	    has(delsys, num, SYS_DVBC_ANNEX_C))
		return SATIP_DVBC;
	return SATIP_NONE;
}


/*
 * Bytes of the well-formed UTF-8 sequence at s (n > 0 bytes left, the
 * first not ASCII), 0 if it is not one (overlong forms, surrogates and
 * code points above U+10FFFF are not).
 */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned int cp, min;
	size_t k, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		k = 2;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		k = 3;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		k = 4;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < k)
		return 0;
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return k;
}

/*
 * s as text: control characters dropped, malformed UTF-8 written as '?',
 * and with xml, & < > " ' as entities.
 */
static void put_text(struct satip_out *o, const char *s, bool xml)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, k;

	while (i < n) {
		k = vt_text_ctl(s + i, n - i);
		if (k) {
			i += k;
			continue;
		}
		if (u[i] >= 0x80) {
			k = utf8_len(u + i, n - i);
			if (k) {
				satip_out_mem(o, s + i, k);
				i += k;
			} else {
				satip_out_str(o, "?");
				i++;
			}
			continue;
		}
		switch (xml ? s[i] : 0) {
		case '&':
			satip_out_str(o, "&amp;");
			break;
		case '<':
			satip_out_str(o, "&lt;");
			break;
		case '>':
			satip_out_str(o, "&gt;");
			break;
		case '"':
			satip_out_str(o, "&quot;");
			break;
		case '\'':
			satip_out_str(o, "&apos;");
			break;
		default:
			satip_out_mem(o, s + i, 1);
		}
		i++;
	}
}

int satip_caps(char *buf, size_t len, const struct satip_tuner_caps *t,
	       unsigned int n)
{
	unsigned int count[SATIP_NTYPES] = { 0 };
	unsigned int i;
	struct satip_out o;
	int type;

	satip_out_init(&o, buf, len);
	for (i = 0; i < n; i++) {
		type = satip_tuner_type(t[i].delsys, t[i].num);
		if (type != SATIP_NONE)
			count[type]++;
	}
	for (i = 0; i < SATIP_NTYPES; i++)
		if (count[i])
			satip_out_printf(&o, "%s%s-%u", o.len ? "," : "", type_names[i],
			     count[i]);
	return satip_out_end(&o, -ENOSPC);
}

/* <name>escaped value</name> and a newline, when value is not NULL. */
static void element(struct satip_out *o, const char *indent, const char *name,
		    const char *value)
{
	if (!value)
		return;
	satip_out_printf(o, "%s<%s>", indent, name);
	put_text(o, value, true);
	satip_out_printf(o, "</%s>\n", name);
}

int satip_desc_xml(char *buf, size_t len, const struct satip_desc *d)
{
	const char *in = "\t\t";
	struct satip_out o;

	satip_out_init(&o, buf, len);
	if (!d || !d->friendly_name || !d->uuid)
		return -EINVAL;
	satip_out_str(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	satip_out_printf(&o, "<root xmlns=\"urn:schemas-upnp-org:device-1-0\" "
	     "configId=\"%u\">\n", d->config_id & 0xffffff);
	satip_out_str(&o, "\t<specVersion>\n\t\t<major>1</major>\n"
	    "\t\t<minor>1</minor>\n\t</specVersion>\n");
	satip_out_str(&o, "\t<device>\n");
	element(&o, in, "deviceType", SATIP_DEVICE_TYPE);
	element(&o, in, "friendlyName", d->friendly_name);
	element(&o, in, "manufacturer",
		d->manufacturer ? d->manufacturer : "vtuner");
	element(&o, in, "manufacturerURL", d->manufacturer_url);
	element(&o, in, "modelDescription", d->model_description);
	element(&o, in, "modelName", "vtunerd");
	element(&o, in, "modelNumber", d->model_number);
	element(&o, in, "serialNumber", d->serial_number);
	satip_out_str(&o, "\t\t<UDN>uuid:");
	put_text(&o, d->uuid, true);
	satip_out_str(&o, "</UDN>\n");
	element(&o, in, "presentationURL", d->presentation_url);
	if (d->caps && d->caps[0]) {
		satip_out_str(&o, "\t\t<satip:X_SATIPCAP xmlns:satip=\"" SATIP_NS "\">");
		put_text(&o, d->caps, true);
		satip_out_str(&o, "</satip:X_SATIPCAP>\n");
	}
	if (d->m3u_url) {
		satip_out_str(&o, "\t\t<satip:X_SATIPM3U xmlns:satip=\"" SATIP_NS "\">");
		put_text(&o, d->m3u_url, true);
		satip_out_str(&o, "</satip:X_SATIPM3U>\n");
	}
	satip_out_str(&o, "\t</device>\n</root>\n");
	return satip_out_end(&o, -ENOSPC);
}

/* FNV-1a over s and its terminating NUL (a NULL string hashes as 0xff). */
static uint32_t fnv(uint32_t h, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if (!s)
		return (h ^ 0xff) * 16777619u;
	do {
		h = (h ^ *u) * 16777619u;
	} while (*u++);
	return h;
}

unsigned int satip_config_id(const struct satip_desc *d)
{
	uint32_t h = 2166136261u;

	h = fnv(h, d->friendly_name);
	h = fnv(h, d->manufacturer);
	h = fnv(h, d->manufacturer_url);
	h = fnv(h, d->model_description);
	h = fnv(h, d->model_number);
	h = fnv(h, d->serial_number);
	h = fnv(h, d->uuid);
	h = fnv(h, d->presentation_url);
	h = fnv(h, d->caps);
	h = fnv(h, d->m3u_url);
	return (h ^ h >> 24) & 0xffffff;
}

static bool url_safe(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("&=.,_~:/-", c);
}

int satip_m3u(char *buf, size_t len, const char *host, uint16_t port,
	      const struct satip_m3u_entry *e, unsigned int n)
{
	const unsigned char *q;
	unsigned int i, k;
	bool v6;
	struct satip_out o;

	satip_out_init(&o, buf, len);
	if (!host || !host[0])
		return -EINVAL;
	for (q = (const unsigned char *)host; *q; q++)
		if (!url_safe(*q) || strchr("&=,~/", *q))
			return -EINVAL;
	v6 = strchr(host, ':') != NULL;
	satip_out_str(&o, "#EXTM3U\r\n");
	for (i = 0; i < n; i++) {
		for (k = 0; k < e[i].npids; k++)
			if (e[i].pids[k] > 8191)
				return -EINVAL;
		satip_out_str(&o, "#EXTINF:0,");
		put_text(&o, e[i].name ? e[i].name : "", false);
		satip_out_printf(&o, "\r\nrtsp://%s%s%s:%u/?", v6 ? "[" : "", host,
		     v6 ? "]" : "", port);
		for (q = (const unsigned char *)(e[i].query ? e[i].query : "");
		     *q; q++) {
			if (url_safe(*q))
				satip_out_mem(&o, (const char *)q, 1);
			else
				satip_out_printf(&o, "%%%02X", *q);
		}
		if (e[i].query && e[i].query[0])
			satip_out_str(&o, "&");
		satip_out_str(&o, "pids=");
		if (!e[i].npids)
			satip_out_str(&o, "all");
		for (k = 0; k < e[i].npids; k++)
			satip_out_printf(&o, "%s%u", k ? "," : "", e[i].pids[k]);
		satip_out_str(&o, "\r\n");
	}
	return satip_out_end(&o, -ENOSPC);
}

int satip_uuid_from(const char *seed, char out[37])
{
	static const char ns[] = "vtuner SAT>IP UDN namespace 1";
	crypto_generichash_state st;
	unsigned char h[16];
	unsigned int i, k = 0;

	if (!seed)
		return -EINVAL;
	crypto_generichash_init(&st, NULL, 0, sizeof(h));
	crypto_generichash_update(&st, (const unsigned char *)ns, sizeof(ns));
	crypto_generichash_update(&st, (const unsigned char *)seed,
				  strlen(seed));
	crypto_generichash_final(&st, h, sizeof(h));
	h[6] = (h[6] & 0x0f) | 0x80;	/* version 8 */
	h[8] = (h[8] & 0x3f) | 0x80;	/* variant 10 */
	for (i = 0; i < sizeof(h); i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[k++] = '-';
		out[k++] = "0123456789abcdef"[h[i] >> 4];
		out[k++] = "0123456789abcdef"[h[i] & 15];
	}
	out[k] = 0;
	return 0;
}
