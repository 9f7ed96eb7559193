// SPDX-License-Identifier: GPL-2.0
/*
 * tscheck - see tscheck.h.  Independent of the code under test: its own
 * CRC32 (bitwise, polynomial 0x04c11db7), its own packet parser.
 */
#include <string.h>

#include "tscheck.h"

uint32_t tsc_crc32(const uint8_t *d, size_t len)
{
	uint32_t crc = 0xffffffff;

	while (len--) {
		int b;

		crc ^= (uint32_t)*d++ << 24;
		for (b = 0; b < 8; b++)
			crc = (crc << 1) ^ (crc & 0x80000000 ? 0x04c11db7 : 0);
	}
	return crc;
}

void tsc_init(struct tscheck *c, const int *psi_pids)
{
	static const int fixed[] = { 0x00, 0x10, 0x11, 0x12, 0x14, -1 };
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < TSC_NPIDS; i++)
		c->pid[i].last_cc = -1;
	for (i = 0; fixed[i] >= 0; i++)
		c->pid[fixed[i]].psi = true;
	for (i = 0; psi_pids && psi_pids[i] >= 0; i++)
		c->pid[psi_pids[i]].psi = true;
}

static void tsc_keep(struct tscheck *c, uint16_t pid, const uint8_t *s,
		     size_t len)
{
	int ext = s[3] << 8 | s[4];

	if (c->nkept == TSC_MAX_SECTIONS ||
	    ((s[1] & 0x80) && tsc_find(c, s[0], ext, s[6])))
		return;
	if (!(s[1] & 0x80) && tsc_find(c, s[0], -1, -1))
		return;
	c->kept[c->nkept].pid = pid;
	c->kept[c->nkept].len = len;
	memcpy(c->kept[c->nkept].data, s, len);
	c->nkept++;
}

static void tsc_section(struct tscheck *c, uint16_t pid, const uint8_t *s,
			size_t len)
{
	struct tsc_table *t = &c->table[s[0]];
	bool syntax = s[1] & 0x80;

	c->sections++;
	/* TDT (0x70) has no CRC; the TOT (0x73) has one without syntax */
	if ((syntax || s[0] == 0x73) && tsc_crc32(s, len)) {
		c->crc_errors++;
		return;
	}
	if (t->count && c->packets - t->last_pkt > t->max_gap)
		t->max_gap = c->packets - t->last_pkt;
	if (!syntax || s[6] == 0) {
		t->count++;
		t->last_pkt = c->packets;
	}
	tsc_keep(c, pid, s, len);
}

/* collects sections from p->buf; stuffing 0xff ends the packet's sections */
static void tsc_drain(struct tscheck *c, uint16_t pid, struct tsc_pid *p)
{
	while (p->buflen >= 3 && p->buf[0] != 0xff) {
		size_t len = 3 + ((p->buf[1] & 0x0f) << 8 | p->buf[2]);

		if (p->buflen < len)
			return;
		tsc_section(c, pid, p->buf, len);
		memmove(p->buf, p->buf + len, p->buflen - len);
		p->buflen -= len;
	}
	if (p->buflen && p->buf[0] == 0xff) {
		p->buflen = 0;
		p->collecting = false;
	}
}

static void tsc_psi(struct tscheck *c, uint16_t pid, struct tsc_pid *p,
		    bool pusi, const uint8_t *pl, size_t len)
{
	if (pusi) {
		size_t ptr = pl[0];

		if (ptr + 1 > len)
			return;
		if (p->collecting && p->buflen + ptr <= sizeof(p->buf)) {
			memcpy(p->buf + p->buflen, pl + 1, ptr);
			p->buflen += ptr;
			tsc_drain(c, pid, p);
		}
		p->buflen = 0;
		p->collecting = true;
		pl += 1 + ptr;
		len -= 1 + ptr;
	}
	if (!p->collecting || p->buflen + len > sizeof(p->buf))
		return;
	memcpy(p->buf + p->buflen, pl, len);
	p->buflen += len;
	tsc_drain(c, pid, p);
}

static void tsc_pes(struct tsc_pid *p, const uint8_t *pl, size_t len)
{
	p->pes_starts++;
	if (len < 14 || pl[0] || pl[1] || pl[2] != 1 ||
	    (pl[3] != 0xe0 && pl[3] != 0xc0) || (pl[6] & 0xc0) != 0x80 ||
	    !(pl[7] & 0x80) || (pl[9] & 0xf1) != 0x21)
		p->pes_errors++;
}

static void tsc_pcr(struct tscheck *c, struct tsc_pid *p, const uint8_t *af)
{
	int64_t pcr = ((int64_t)af[2] << 25 | af[3] << 17 | af[4] << 9 |
		       af[5] << 1 | af[6] >> 7) * 300 + ((af[6] & 1) << 8 | af[7]);

	if (p->pcrs) {
		uint64_t gap = pcr - p->last_pcr;

		if (gap > p->max_pcr_gap)
			p->max_pcr_gap = gap;
	} else {
		p->first_pcr = pcr;
		p->first_pcr_pkt = c->packets;
	}
	p->last_pcr = pcr;
	p->last_pcr_pkt = c->packets;
	p->pcrs++;
}

static void tsc_packet(struct tscheck *c, const uint8_t *pkt)
{
	uint16_t pid = (pkt[1] & 0x1f) << 8 | pkt[2];
	struct tsc_pid *p = &c->pid[pid];
	bool pusi = pkt[1] & 0x40;
	int afc = (pkt[3] >> 4) & 3, cc = pkt[3] & 0x0f;
	size_t off = 4;

	p->packets++;
	if (afc & 2) {
		if (pkt[4] && (pkt[5] & 0x10))
			tsc_pcr(c, p, pkt + 4);
		off += 1 + pkt[4];
	}
	if ((afc & 1) && pid != 0x1fff) {
		if (p->last_cc >= 0 && cc != ((p->last_cc + 1) & 0x0f))
			p->cc_errors++;
		p->last_cc = cc;
	}
	if (!(afc & 1) || off >= 188)
		return;
	p->payload_starts += pusi;
	if (p->psi)
		tsc_psi(c, pid, p, pusi, pkt + off, 188 - off);
	else if (pusi)
		tsc_pes(p, pkt + off, 188 - off);
}

void tsc_feed(struct tscheck *c, const uint8_t *data, size_t len)
{
	for (; len >= 188; data += 188, len -= 188, c->packets++) {
		if (data[0] != 0x47) {
			c->sync_errors++;
			continue;
		}
		tsc_packet(c, data);
	}
}

double tsc_pcr_bitrate(const struct tscheck *c, uint16_t pid)
{
	const struct tsc_pid *p = &c->pid[pid];

	if (p->pcrs < 2 || p->last_pcr <= p->first_pcr)
		return 0;
	return (double)(p->last_pcr_pkt - p->first_pcr_pkt) * 188 * 8 *
	       27e6 / (double)(p->last_pcr - p->first_pcr);
}

const struct tsc_section *tsc_find(const struct tscheck *c, uint8_t table_id,
				   int extension, int section_number)
{
	size_t i;

	for (i = 0; i < c->nkept; i++) {
		const uint8_t *s = c->kept[i].data;

		if (s[0] != table_id)
			continue;
		if (extension >= 0 && (s[3] << 8 | s[4]) != extension)
			continue;
		if (section_number >= 0 && s[6] != section_number)
			continue;
		return &c->kept[i];
	}
	return NULL;
}
