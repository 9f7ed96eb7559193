// SPDX-License-Identifier: GPL-2.0
/*
 * vts mux: the transport stream of a transponder, packet by packet, at
 * its nominal bit rate.
 *
 * Time is the packet slot: slot n is sent at n * 1504 / bitrate seconds
 * after the start, and PCRs, PTSs, the TDT/TOT and the EIT follow that
 * clock.  Every stream (a PSI/SI table or an elementary stream) has the
 * slot its next packet is due at; each slot carries the packet of the
 * stream due earliest (tables first on ties), or a null packet.
 *
 * Tables are built with libdvbpsi (PAT, PMT, SDT, NIT, EIT, TDT; the TOT
 * by hand) and sent with one section per packet start.  The video PID of a TV service
 * carries one black I-frame per 25 Hz frame in a PES of a fixed number of
 * packets (the configured rate), padded with zero_byte stuffing; the audio
 * PID two silent MP2 frames per PES.  The PCR is on the video PID (the
 * audio PID for radio) at least every 30 ms.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include <dvbpsi/dvbpsi.h>
#include <dvbpsi/psi.h>
#include <dvbpsi/descriptor.h>
#include <dvbpsi/pat.h>
#include <dvbpsi/pmt.h>
#include <dvbpsi/sdt.h>
#include <dvbpsi/nit.h>
#include <dvbpsi/eit.h>
#include <dvbpsi/tot.h>
#include <dvbpsi/dr_40.h>
#include <dvbpsi/dr_48.h>
#include <dvbpsi/dr_4d.h>

#include "server/sim/vts.h"
#include "server/sim/vts_int.h"

#define VTS_PKT_BITS		(8 * VTS_TS_SIZE)
#define VTS_NPIDS		8192
#define VTS_NULL_PID		0x1fff
#define VTS_PTS_DELAY		45000		/* 0.5 s */
#define VTS_PCR_MAX_MS		30
#define VTS_EVENT_SECONDS	1800
#define VTS_MAX_PSI		(4 + 2 * VTS_MAX_SERVICES)
#define VTS_MAX_ES		(2 * VTS_MAX_SERVICES)

enum vts_table { VTS_PAT, VTS_PMT, VTS_SDT, VTS_NIT, VTS_EIT, VTS_TDT, VTS_TOT };

/* repetition intervals, ms */
static const unsigned int vts_interval_ms[] = {
	[VTS_PAT] = 100, [VTS_PMT] = 100, [VTS_SDT] = 1000, [VTS_NIT] = 2000,
	[VTS_EIT] = 2000, [VTS_TDT] = 5000, [VTS_TOT] = 10000,
};

struct vts_psi {
	enum vts_table table;
	const struct vts_service *svc;	/* PMT, EIT */
	uint16_t pid;
	uint64_t rep;			/* repetitions sent */
	uint64_t next_due;		/* slot of the next repetition */
	uint64_t queue_due;
	uint8_t *queue;			/* packets of the current repetition */
	size_t qlen, qpos, qcap;
};

struct vts_es {
	uint16_t pid;
	uint8_t stream_id;
	bool video;
	unsigned int pes_pkts;		/* packets of one PES */
	unsigned int pcr_every;		/* PCR in every n-th packet, 0: none */
	unsigned int pes_ticks;		/* PES duration, 90 kHz */
	uint64_t sent;			/* packets */
	uint8_t *pes;			/* the current PES */
	size_t pes_len, pes_pos;
	const uint8_t *frame;		/* ES data of one PES */
	size_t frame_len;
};

/*
 * A ts_file loaded into memory: shared by every mux playing the same path
 * at the same time (16 tuners on one 80 Mbit/s file hold one image, not
 * 16, and a tune while another plays it does not read it again).  The
 * sim runs in one thread: the list has no lock.
 */
struct vts_image {
	struct vts_image *next;
	unsigned int refs;
	char *path;
	uint8_t *data;
	size_t npkts;
	uint32_t *fix;		/* packets whose CC changes from loop to loop */
	size_t nfix;
	uint32_t bitrate;	/* from the PCRs, 0: none */
	uint8_t step[VTS_NPIDS];	/* CC advance of a PID in one loop */
};

struct vts_file {
	struct vts_image *img;
	size_t pos;		/* next packet */
	size_t fixpos;		/* next img->fix entry at or after pos */
	uint8_t loop;		/* loops played, modulo 16 */
};

struct vts_mux {
	const struct vts_transponder *tp;
	uint32_t bitrate;
	time_t utc0;
	uint64_t start_ns;
	uint64_t slot;			/* packets produced */
	dvbpsi_t *dvbpsi;
	uint8_t cc[VTS_NPIDS];
	size_t npsi, nes;
	struct vts_psi psi[VTS_MAX_PSI];
	struct vts_es es[VTS_MAX_ES];
	uint8_t *video_frame[VTS_MAX_SERVICES];
	uint8_t audio_frames[2 * VTS_MP2_FRAME];
	struct vts_file file;
};

static const char *const vts_event_names[] = {
	"News", "Weather", "Documentary", "Feature Film", "Sport Live",
	"Music Hour", "Quiz Night", "Late Talk",
};

/* ---- time ---- */

static uint64_t vts_mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	return (unsigned __int128)a * b / c;
}

static uint64_t vts_ms_to_slot(const struct vts_mux *m, uint64_t ms)
{
	return vts_mul_div(ms, m->bitrate, 1000ull * VTS_PKT_BITS);
}

static int64_t vts_slot_pcr(const struct vts_mux *m, uint64_t slot)
{
	return vts_mul_div(slot, 27000000ull * VTS_PKT_BITS, m->bitrate);
}

static time_t vts_slot_utc(const struct vts_mux *m)
{
	return m->utc0 + vts_mul_div(m->slot, VTS_PKT_BITS, m->bitrate);
}

uint64_t vts_mux_due(const struct vts_mux *m, uint64_t now_ns)
{
	uint64_t total;

	if (now_ns <= m->start_ns)
		return 0;
	total = vts_mul_div(now_ns - m->start_ns, m->bitrate,
			    1000000000ull * VTS_PKT_BITS);
	return total > m->slot ? total - m->slot : 0;
}

uint32_t vts_mux_bitrate(const struct vts_mux *m)
{
	return m->bitrate;
}

uint64_t vts_mux_packets(const struct vts_mux *m)
{
	return m->slot;
}

/* ---- PSI/SI tables ---- */

static int vts_queue_section(struct vts_psi *ps, const uint8_t *sec, size_t len)
{
	size_t need = (len + 1 + 183) / 184;
	size_t off = 0;
	bool first = true;

	if (ps->qlen + need > ps->qcap) {
		size_t cap = (ps->qlen + need) * 2;
		uint8_t *q = realloc(ps->queue, cap * VTS_TS_SIZE);

		if (!q)
			return -ENOMEM;
		ps->queue = q;
		ps->qcap = cap;
	}
	while (off < len) {
		uint8_t *pkt = ps->queue + ps->qlen++ * VTS_TS_SIZE;
		uint8_t *p = pkt + 4;
		size_t room = 184, take;

		pkt[0] = 0x47;
		pkt[1] = (first ? 0x40 : 0) | ps->pid >> 8;
		pkt[2] = ps->pid;
		pkt[3] = 0x10;		/* payload only; CC at sending */
		if (first) {
			*p++ = 0;	/* pointer_field */
			room--;
		}
		take = len - off < room ? len - off : room;
		memcpy(p, sec + off, take);
		memset(p + take, 0xff, room - take);
		off += take;
		first = false;
	}
	return 0;
}

static int vts_queue_sections(struct vts_psi *ps, dvbpsi_psi_section_t *sec)
{
	dvbpsi_psi_section_t *s;
	int rc = sec ? 0 : -ENOMEM;

	for (s = sec; s && !rc; s = s->p_next)
		rc = vts_queue_section(ps, s->p_data, 3 + s->i_length);
	dvbpsi_DeletePSISections(sec);
	return rc;
}

static int vts_build_pat(struct vts_mux *m, struct vts_psi *ps)
{
	const struct vts_transponder *tp = m->tp;
	dvbpsi_pat_t pat;
	size_t i;
	int rc;

	dvbpsi_pat_init(&pat, tp->ts_id, 0, true);
	dvbpsi_pat_program_add(&pat, 0, 0x10);
	for (i = 0; i < tp->nservices; i++)
		dvbpsi_pat_program_add(&pat, tp->services[i].id,
				       tp->services[i].pmt_pid);
	rc = vts_queue_sections(ps, dvbpsi_pat_sections_generate(m->dvbpsi, &pat, 253));
	dvbpsi_pat_empty(&pat);
	return rc;
}

static int vts_build_pmt(struct vts_mux *m, struct vts_psi *ps)
{
	const struct vts_service *s = ps->svc;
	bool tv = s->type == VTS_SVC_TV;
	uint8_t lang[4] = { 'e', 'n', 'g', 0 };
	dvbpsi_pmt_es_t *es;
	dvbpsi_pmt_t pmt;
	int rc;

	dvbpsi_pmt_init(&pmt, s->id, 0, true, tv ? s->video_pid : s->audio_pid);
	if (tv)
		dvbpsi_pmt_es_add(&pmt, 0x02, s->video_pid);
	es = dvbpsi_pmt_es_add(&pmt, 0x03, s->audio_pid);
	dvbpsi_pmt_es_descriptor_add(es, 0x0a, sizeof(lang), lang);
	rc = vts_queue_sections(ps, dvbpsi_pmt_sections_generate(m->dvbpsi, &pmt));
	dvbpsi_pmt_empty(&pmt);
	return rc;
}

static void vts_copy_text(uint8_t *dst, uint8_t *len, const char *s)
{
	*len = strlen(s);
	memcpy(dst, s, *len);
}

static int vts_build_sdt(struct vts_mux *m, struct vts_psi *ps)
{
	const struct vts_transponder *tp = m->tp;
	dvbpsi_sdt_t sdt;
	size_t i;
	int rc;

	dvbpsi_sdt_init(&sdt, 0x42, tp->ts_id, 0, true, tp->network_id);
	for (i = 0; i < tp->nservices; i++) {
		const struct vts_service *s = &tp->services[i];
		dvbpsi_sdt_service_t *ss;
		dvbpsi_service_dr_t sd = { .i_service_type = s->type };
		dvbpsi_descriptor_t *dr;

		ss = dvbpsi_sdt_service_add(&sdt, s->id, false, true, 4, false);
		vts_copy_text(sd.i_service_provider_name,
			      &sd.i_service_provider_name_length, s->provider);
		vts_copy_text(sd.i_service_name, &sd.i_service_name_length,
			      s->name);
		dr = dvbpsi_GenServiceDr(&sd, false);
		if (!ss || !dr) {
			dvbpsi_DeleteDescriptors(dr);
			dvbpsi_sdt_empty(&sdt);
			return -ENOMEM;
		}
		dvbpsi_sdt_service_descriptor_add(ss, dr->i_tag, dr->i_length,
						  dr->p_data);
		dvbpsi_DeleteDescriptors(dr);
	}
	rc = vts_queue_sections(ps, dvbpsi_sdt_sections_generate(m->dvbpsi, &sdt));
	dvbpsi_sdt_empty(&sdt);
	return rc;
}

static int vts_build_nit(struct vts_mux *m, struct vts_psi *ps)
{
	const struct vts_transponder *tp = m->tp;
	dvbpsi_network_name_dr_t nn;
	uint8_t list[3 * VTS_MAX_SERVICES], deliv[16];
	dvbpsi_descriptor_t *dr;
	dvbpsi_nit_ts_t *ts;
	dvbpsi_nit_t nit;
	size_t i, dlen;
	int rc;

	dvbpsi_nit_init(&nit, 0x40, tp->network_id, tp->network_id, 0, true);
	vts_copy_text(nn.i_name_byte, &nn.i_name_length, tp->network_name);
	dr = dvbpsi_GenNetworkNameDr(&nn, false);
	if (!dr)
		return -ENOMEM;
	dvbpsi_nit_descriptor_add(&nit, dr->i_tag, dr->i_length, dr->p_data);
	dvbpsi_DeleteDescriptors(dr);
	ts = dvbpsi_nit_ts_add(&nit, tp->ts_id, tp->network_id);
	dlen = vts_delivery_descriptor(tp, deliv, sizeof(deliv));
	dvbpsi_nit_ts_descriptor_add(ts, deliv[0], deliv[1], deliv + 2);
	for (i = 0; i < tp->nservices; i++) {
		list[3 * i] = tp->services[i].id >> 8;
		list[3 * i + 1] = tp->services[i].id;
		list[3 * i + 2] = tp->services[i].type;
	}
	dvbpsi_nit_ts_descriptor_add(ts, 0x41, 3 * tp->nservices, list);
	rc = dlen ? vts_queue_sections(ps, dvbpsi_nit_sections_generate(m->dvbpsi, &nit, 0x40))
		  : -EINVAL;
	dvbpsi_nit_empty(&nit);
	return rc;
}

static dvbpsi_psi_section_t *vts_eit_section(struct vts_mux *m,
					     const struct vts_service *s,
					     unsigned int which)
{
	const struct vts_transponder *tp = m->tp;
	time_t slot0 = vts_slot_utc(m) / VTS_EVENT_SECONDS + which;
	const char *name = vts_event_names[slot0 % (sizeof(vts_event_names) /
						   sizeof(vts_event_names[0]))];
	dvbpsi_short_event_dr_t se = { .i_iso_639_code = { 'e', 'n', 'g' } };
	dvbpsi_psi_section_t *sec;
	dvbpsi_eit_event_t *ev;
	dvbpsi_descriptor_t *dr;
	dvbpsi_eit_t eit;
	char text[128];

	snprintf(text, sizeof(text), "%s on %s", name, s->name);
	se.i_event_name_length = strlen(name);
	memcpy(se.i_event_name, name, se.i_event_name_length);
	se.i_text_length = strlen(text);
	memcpy(se.i_text, text, se.i_text_length);
	dvbpsi_eit_init(&eit, 0x4e, s->id, (slot0 - which) % 32, true,
			tp->ts_id, tp->network_id, 1, 0x4e);
	ev = dvbpsi_eit_event_add(&eit, slot0 & 0xffff,
				  vts_dvb_time(slot0 * VTS_EVENT_SECONDS),
				  vts_dvb_duration(VTS_EVENT_SECONDS),
				  which ? 1 : 4, false, 0);
	dr = dvbpsi_GenShortEventDr(&se, false);
	if (!ev || !dr) {
		dvbpsi_DeleteDescriptors(dr);
		dvbpsi_eit_empty(&eit);
		return NULL;
	}
	dvbpsi_eit_event_descriptor_add(ev, dr->i_tag, dr->i_length, dr->p_data);
	dvbpsi_DeleteDescriptors(dr);
	sec = dvbpsi_eit_sections_generate(m->dvbpsi, &eit, 0x4e);
	dvbpsi_eit_empty(&eit);
	return sec;
}

/*
 * EN 300 468 5.2.4: the present event in section 0, the following one in
 * section 1.  libdvbpsi puts all events of a table into as few sections as
 * fit, so each event gets its own table, renumbered here.
 */
static void vts_eit_renumber(dvbpsi_psi_section_t *sec, uint8_t number)
{
	uint8_t *d = sec->p_data;
	size_t len = 3 + sec->i_length;
	uint32_t crc;

	d[6] = number;
	d[7] = 1;		/* last_section_number */
	d[12] = 1;		/* segment_last_section_number */
	crc = vts_crc32(d, len - 4);
	d[len - 4] = crc >> 24;
	d[len - 3] = crc >> 16;
	d[len - 2] = crc >> 8;
	d[len - 1] = crc;
}

static int vts_build_eit(struct vts_mux *m, struct vts_psi *ps)
{
	unsigned int which;
	int rc = 0;

	for (which = 0; which < 2 && !rc; which++) {
		dvbpsi_psi_section_t *sec = vts_eit_section(m, ps->svc, which);

		if (!sec)
			return -ENOMEM;
		vts_eit_renumber(sec, which);
		rc = vts_queue_sections(ps, sec);
	}
	return rc;
}

static int vts_build_tdt(struct vts_mux *m, struct vts_psi *ps)
{
	dvbpsi_tot_t tdt;
	int rc;

	dvbpsi_tot_init(&tdt, 0x70, 0, 0, false, vts_dvb_time(vts_slot_utc(m)));
	rc = vts_queue_sections(ps, dvbpsi_tot_sections_generate(m->dvbpsi, &tdt));
	dvbpsi_tot_empty(&tdt);
	return rc;
}

/*
 * The TOT by hand: libdvbpsi 1.3.3 leaves its CRC_32 out (the section
 * ends after the descriptors).  One local_time_offset_descriptor: GBR,
 * region 0, +00:00, no change.
 */
static int vts_build_tot(struct vts_mux *m, struct vts_psi *ps)
{
	uint64_t t = vts_dvb_time(vts_slot_utc(m));
	uint8_t s[3 + 5 + 2 + 15 + 4] = {
		0x73, 0x70, sizeof(s) - 3,
		t >> 32, t >> 24, t >> 16, t >> 8, t,
		0xf0, 15,
		0x58, 13, 'G', 'B', 'R', 0x02, 0, 0,
		t >> 32, t >> 24, t >> 16, t >> 8, t, 0, 0,
	};
	uint32_t crc = vts_crc32(s, sizeof(s) - 4);

	s[sizeof(s) - 4] = crc >> 24;
	s[sizeof(s) - 3] = crc >> 16;
	s[sizeof(s) - 2] = crc >> 8;
	s[sizeof(s) - 1] = crc;
	return vts_queue_section(ps, s, sizeof(s));
}

static int vts_build_psi(struct vts_mux *m, struct vts_psi *ps)
{
	ps->qlen = 0;
	ps->qpos = 0;
	switch (ps->table) {
	case VTS_PAT:
		return vts_build_pat(m, ps);
	case VTS_PMT:
		return vts_build_pmt(m, ps);
	case VTS_SDT:
		return vts_build_sdt(m, ps);
	case VTS_NIT:
		return vts_build_nit(m, ps);
	case VTS_EIT:
		return vts_build_eit(m, ps);
	case VTS_TDT:
		return vts_build_tdt(m, ps);
	case VTS_TOT:
		return vts_build_tot(m, ps);
	}
	return -EINVAL;
}

static void vts_null_packet(uint8_t *pkt)
{
	memset(pkt, 0xff, VTS_TS_SIZE);
	pkt[0] = 0x47;
	pkt[1] = VTS_NULL_PID >> 8;
	pkt[2] = VTS_NULL_PID & 0xff;
	pkt[3] = 0x10;
}

static uint64_t vts_psi_due(const struct vts_psi *ps)
{
	return ps->qpos < ps->qlen ? ps->queue_due : ps->next_due;
}

static uint16_t vts_pkt_pid(const uint8_t *pkt)
{
	return (pkt[1] & 0x1f) << 8 | pkt[2];
}

/* the next counter of pkt's PID from cc[]; only a payload advances it */
static void vts_put_cc(uint8_t cc[VTS_NPIDS], uint8_t *pkt)
{
	uint16_t pid = vts_pkt_pid(pkt);

	pkt[3] = (pkt[3] & 0xf0) | cc[pid];
	if (pkt[3] & 0x10)
		cc[pid] = (cc[pid] + 1) & 0x0f;
}

/* a table packet; a table that cannot be built is skipped this time */
static void vts_send_psi(struct vts_mux *m, struct vts_psi *ps, uint8_t *pkt)
{
	if (ps->qpos == ps->qlen) {
		ps->queue_due = ps->next_due;
		ps->rep++;
		ps->next_due = vts_ms_to_slot(m, ps->rep * vts_interval_ms[ps->table]);
		if (vts_build_psi(m, ps) || !ps->qlen) {
			ps->qlen = 0;
			vts_null_packet(pkt);
			return;
		}
	}
	memcpy(pkt, ps->queue + ps->qpos++ * VTS_TS_SIZE, VTS_TS_SIZE);
	vts_put_cc(m->cc, pkt);
}

/* ---- elementary streams ---- */

static uint64_t vts_es_due(const struct vts_mux *m, const struct vts_es *es)
{
	return vts_mul_div(es->sent, (uint64_t)es->pes_ticks * m->bitrate,
			   (uint64_t)es->pes_pkts * 90000 * VTS_PKT_BITS);
}

static size_t vts_es_room(unsigned int pkts, unsigned int pcr_every)
{
	unsigned int pcrs = pcr_every ? (pkts + pcr_every - 1) / pcr_every : 0;

	return (size_t)pkts * 184 - 8 * pcrs;
}

/* PCR spacing for PESes of pkts packets lasting ticks: <= VTS_PCR_MAX_MS */
static unsigned int vts_pcr_every(unsigned int pkts, unsigned int ticks)
{
	unsigned int n = (uint64_t)pkts * VTS_PCR_MAX_MS * 90 / ticks;

	return n ? n : 1;
}

/*
 * Sizes the PESes of es: at least want_pkts packets, and enough for
 * min_len bytes of PES; video then fills the room with zero bytes.
 */
static int vts_es_size(struct vts_es *es, bool pcr, unsigned int want_pkts,
		       size_t min_len)
{
	unsigned int pkts = want_pkts ? want_pkts : 1;

	for (;; pkts++) {
		es->pcr_every = pcr ? vts_pcr_every(pkts, es->pes_ticks) : 0;
		if (vts_es_room(pkts, es->pcr_every) >= min_len)
			break;
	}
	es->pes_pkts = pkts;
	es->pes_len = es->video ? vts_es_room(pkts, es->pcr_every) : min_len;
	es->pes = calloc(1, es->pes_len);
	return es->pes ? 0 : -ENOMEM;
}

static int vts_add_video(struct vts_mux *m, size_t i)
{
	const struct vts_service *s = &m->tp->services[i];
	struct vts_es *es = &m->es[m->nes++];
	uint8_t *frame = malloc(16384);
	size_t len;

	if (!frame)
		return -ENOMEM;
	m->video_frame[i] = frame;
	len = vts_mpeg2_black_frame(frame, 16384, s->video_bitrate);
	if (!len)
		return -EINVAL;
	es->pid = s->video_pid;
	es->stream_id = 0xe0;
	es->video = true;
	es->pes_ticks = VTS_VIDEO_TICKS;
	es->frame = frame;
	es->frame_len = len;
	return vts_es_size(es, true,
			   (s->video_bitrate + VTS_PKT_BITS * 25 / 2) / (VTS_PKT_BITS * 25),
			   VTS_PES_HEADER + len);
}

static int vts_add_audio(struct vts_mux *m, size_t i)
{
	const struct vts_service *s = &m->tp->services[i];
	struct vts_es *es = &m->es[m->nes++];

	es->pid = s->audio_pid;
	es->stream_id = 0xc0;
	es->pes_ticks = 2 * VTS_MP2_TICKS;
	es->frame = m->audio_frames;
	es->frame_len = sizeof(m->audio_frames);
	return vts_es_size(es, s->type == VTS_SVC_RADIO, 0,
			   VTS_PES_HEADER + es->frame_len);
}

static void vts_es_start_pes(struct vts_es *es)
{
	uint64_t pes = es->sent / es->pes_pkts;
	uint64_t pts = (pes * es->pes_ticks + VTS_PTS_DELAY) & ((1ull << 33) - 1);

	vts_pes_header(es->pes, es->stream_id, es->pes_len - VTS_PES_HEADER, pts);
	memcpy(es->pes + VTS_PES_HEADER, es->frame, es->frame_len);
	es->pes_pos = 0;
}

static void vts_send_es(struct vts_mux *m, struct vts_es *es, uint8_t *pkt)
{
	unsigned int idx = es->sent % es->pes_pkts;
	bool pcr = es->pcr_every && idx % es->pcr_every == 0;

	if (!idx)
		vts_es_start_pes(es);
	es->pes_pos += vts_ts_packet(pkt, es->pid, !idx, 0,
				     pcr ? vts_slot_pcr(m, m->slot) : -1,
				     es->pes + es->pes_pos,
				     es->pes_len - es->pes_pos);
	es->sent++;
	vts_put_cc(m->cc, pkt);
}

/* ---- scheduling ---- */

static void vts_send_next(struct vts_mux *m, uint8_t *pkt)
{
	struct vts_psi *best_psi = NULL;
	struct vts_es *best_es = NULL;
	uint64_t best = m->slot + 1;
	size_t i;

	for (i = 0; i < m->npsi; i++) {
		uint64_t due = vts_psi_due(&m->psi[i]);

		if (due < best) {
			best = due;
			best_psi = &m->psi[i];
		}
	}
	for (i = 0; i < m->nes; i++) {
		uint64_t due = vts_es_due(m, &m->es[i]);

		if (due < best) {
			best = due;
			best_es = &m->es[i];
			best_psi = NULL;
		}
	}
	if (best_psi)
		vts_send_psi(m, best_psi, pkt);
	else if (best_es)
		vts_send_es(m, best_es, pkt);
	else
		vts_null_packet(pkt);
}

/* ---- a TS file in a loop ---- */

/*
 * The image's continuity counters are renumbered once when it is loaded
 * (vts_image_prepare()), so that one loop is continuous in itself.  From
 * loop to loop a PID's counter moves on by its count of payload packets
 * in the file (img->step); where that is not a multiple of 16 the copied
 * packets of the PID (listed in img->fix) get loop * step added.  The rest
 * is one memcpy() a run, and the stream is what counting every packet
 * would give.
 */
static void vts_file_fix(struct vts_file *f, uint8_t *buf, size_t end)
{
	const struct vts_image *img = f->img;

	for (; f->fixpos < img->nfix && img->fix[f->fixpos] < end; f->fixpos++) {
		uint8_t *pkt = buf + (img->fix[f->fixpos] - f->pos) * VTS_TS_SIZE;
		unsigned int add = f->loop * img->step[vts_pkt_pid(pkt)];

		pkt[3] = (pkt[3] & 0xf0) | ((pkt[3] + add) & 0x0f);
	}
}

/*
 * The next npkts packets of the file: copied in runs up to its end (one
 * memcpy() a run: the sim at 800 Mbit/s spent a quarter of its time in a
 * copy a packet, bench/HISTORY.md), then the counters that need it fixed.
 */
static void vts_send_file(struct vts_mux *m, uint8_t *buf, size_t npkts)
{
	struct vts_file *f = &m->file;
	const struct vts_image *img = f->img;
	size_t run;

	while (npkts) {
		run = img->npkts - f->pos < npkts ? img->npkts - f->pos : npkts;
		memcpy(buf, img->data + f->pos * VTS_TS_SIZE, run * VTS_TS_SIZE);
		if (f->loop)
			vts_file_fix(f, buf, f->pos + run);
		f->pos += run;
		if (f->pos == img->npkts) {
			f->pos = 0;
			f->fixpos = 0;
			f->loop = (f->loop + 1) & 0x0f;
		}
		buf += run * VTS_TS_SIZE;
		npkts -= run;
	}
}

/*
 * Lose the next npkts packets of the file: the position moves on as
 * vts_send_file() would have moved it, loop count included, so that the
 * packets after the gap are the ones a receiver would get after an
 * overflow.
 */
static void vts_file_skip(struct vts_file *f, uint64_t npkts)
{
	const struct vts_image *img = f->img;
	uint64_t to = f->pos + npkts;
	size_t lo = 0, hi = img->nfix, mid;

	f->loop = (uint8_t)((f->loop + to / img->npkts) & 0x0f);
	f->pos = (size_t)(to % img->npkts);
	while (lo < hi) {	/* the first fix entry at or after pos */
		mid = lo + (hi - lo) / 2;
		if (img->fix[mid] < f->pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	f->fixpos = lo;
}

/*
 * Renumber the image's counters from 0 (every PID's but the null PID's,
 * whose counter means nothing) with vts_put_cc(), as generated packets
 * are numbered.  Each PID's advance a loop is left in img->step, and the
 * packets of the PIDs where that is not a multiple of 16 are listed.
 */
static int vts_image_prepare(struct vts_image *img)
{
	size_t i, n = 0;

	for (i = 0; i < img->npkts; i++) {
		uint8_t *pkt = img->data + i * VTS_TS_SIZE;

		if (vts_pkt_pid(pkt) != VTS_NULL_PID)
			vts_put_cc(img->step, pkt);
	}
	for (i = 0; i < img->npkts; i++)
		n += img->step[vts_pkt_pid(img->data + i * VTS_TS_SIZE)] != 0;
	if (!n)
		return 0;
	img->fix = malloc(n * sizeof(*img->fix));
	if (!img->fix)
		return -1;
	for (i = 0; i < img->npkts; i++)
		if (img->step[vts_pkt_pid(img->data + i * VTS_TS_SIZE)])
			img->fix[img->nfix++] = (uint32_t)i;
	return 0;
}

static bool vts_pkt_pcr(const uint8_t *p, uint64_t *pcr)
{
	if (!(p[3] & 0x20) || p[4] < 7 || !(p[5] & 0x10))
		return false;
	*pcr = ((uint64_t)p[6] << 25 | p[7] << 17 | p[8] << 9 | p[9] << 1 |
		p[10] >> 7) * 300 + ((p[10] & 1) << 8 | p[11]);
	return true;
}

/* bit rate from the first and the last PCR of the first PCR PID; 0: none */
static uint32_t vts_file_bitrate(const struct vts_image *f)
{
	uint64_t pcr, first = 0, last = 0;
	size_t i, ifirst = 0, ilast = 0;
	int pid = -1;

	for (i = 0; i < f->npkts; i++) {
		const uint8_t *p = f->data + i * VTS_TS_SIZE;
		int ppid = (p[1] & 0x1f) << 8 | p[2];

		if ((pid >= 0 && ppid != pid) || !vts_pkt_pcr(p, &pcr))
			continue;
		if (pid < 0) {
			pid = ppid;
			first = pcr;
			ifirst = i;
		}
		last = pcr;
		ilast = i;
	}
	if (last <= first)
		return 0;
	return vts_mul_div(ilast - ifirst, 27000000ull * VTS_PKT_BITS,
			   last - first);
}

static struct vts_image *vts_images;	/* the images in use */

static void vts_image_put(struct vts_image *img)
{
	struct vts_image **pp;

	if (!img || --img->refs)
		return;
	for (pp = &vts_images; *pp; pp = &(*pp)->next) {
		if (*pp == img) {
			*pp = img->next;
			break;
		}
	}
	free(img->path);
	free(img->data);
	free(img->fix);
	free(img);
}

static struct vts_image *vts_image_find(const char *path)
{
	struct vts_image *img;

	for (img = vts_images; img; img = img->next)
		if (!strcmp(img->path, path))
			break;
	return img;
}

/*
 * The whole packets of path into img->data: 0, or -1 with the reason in
 * err.  read() returns at most about 2 GiB at a time, and may be cut
 * short, so it loops.
 */
static int vts_image_read(struct vts_image *img, const char *path, char *err,
			  size_t errlen)
{
	struct stat st;
	size_t len, got = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		goto fail;
	}
	if (st.st_size < VTS_TS_SIZE) {
		snprintf(err, errlen, "%s: shorter than one TS packet", path);
		goto fail;
	}
	if ((uint64_t)st.st_size / VTS_TS_SIZE > UINT32_MAX ||
	    (uint64_t)st.st_size > SIZE_MAX) {
		snprintf(err, errlen, "%s: too large", path);
		goto fail;
	}
	img->npkts = (size_t)st.st_size / VTS_TS_SIZE;
	len = img->npkts * VTS_TS_SIZE;
	img->data = malloc(len);
	if (!img->data) {
		snprintf(err, errlen, "%s: out of memory for its %zu MiB",
			 path, len >> 20);
		goto fail;
	}
	while (got < len) {
		n = read(fd, img->data + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		if (n == 0) {
			snprintf(err, errlen, "%s: shrank while being read", path);
			goto fail;
		}
		got += (size_t)n;
	}
	close(fd);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

/* path's image: the one in use, or read, checked and prepared now */
static struct vts_image *vts_image_get(const char *path, char *err,
				       size_t errlen)
{
	struct vts_image *img;
	size_t i;

	img = vts_image_find(path);
	if (img) {
		img->refs++;
		return img;
	}
	img = calloc(1, sizeof(*img));
	if (!img || !(img->path = strdup(path))) {
		free(img);
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	img->refs = 1;
	if (vts_image_read(img, path, err, errlen) < 0)
		goto fail;
	for (i = 0; i < img->npkts; i++) {
		if (img->data[i * VTS_TS_SIZE] != 0x47) {
			snprintf(err, errlen, "%s: no sync byte in packet %zu",
				 path, i);
			goto fail;
		}
	}
	if (vts_image_prepare(img) < 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	img->bitrate = vts_file_bitrate(img);
	img->next = vts_images;
	vts_images = img;
	return img;
fail:
	vts_image_put(img);
	return NULL;
}

static void vts_unload_files(const struct vts_world *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (w->tp[i].ts_file[0])
			vts_image_put(vts_image_find(w->tp[i].ts_file));
}

int vts_mux_load_files(const struct vts_world *w, char *err, size_t errlen)
{
	char why[VTS_PATH_MAX + 64];
	size_t i;

	for (i = 0; i < w->ntp; i++) {
		const struct vts_transponder *tp = &w->tp[i];

		if (!tp->ts_file[0])
			continue;
		if (!vts_image_get(tp->ts_file, why, sizeof(why))) {
			snprintf(err, errlen, "transponder %s: %s", tp->name,
				 why);
			vts_unload_files(w, i);
			return -1;
		}
	}
	return 0;
}

void vts_mux_unload_files(const struct vts_world *w)
{
	vts_unload_files(w, w->ntp);
}

static int vts_load_file(struct vts_mux *m, char *err, size_t errlen)
{
	m->file.img = vts_image_get(m->tp->ts_file, err, errlen);
	if (!m->file.img)
		return -1;
	m->bitrate = m->file.img->bitrate;
	if (!m->bitrate)
		m->bitrate = m->tp->bitrate;
	if (!m->bitrate) {
		snprintf(err, errlen, "%s: no PCR and no bitrate",
			 m->tp->ts_file);
		return -1;
	}
	return 0;
}

/* ---- setup ---- */

static void vts_add_psi(struct vts_mux *m, enum vts_table t,
			const struct vts_service *s, uint16_t pid)
{
	struct vts_psi *ps = &m->psi[m->npsi++];

	ps->table = t;
	ps->svc = s;
	ps->pid = pid;
}

static int vts_setup_generated(struct vts_mux *m)
{
	const struct vts_transponder *tp = m->tp;
	size_t i;
	int rc = 0;

	m->bitrate = tp->bitrate;
	m->dvbpsi = dvbpsi_new(NULL, DVBPSI_MSG_NONE);
	if (!m->dvbpsi)
		return -ENOMEM;
	vts_mp2_silent_frame(m->audio_frames);
	vts_mp2_silent_frame(m->audio_frames + VTS_MP2_FRAME);
	vts_add_psi(m, VTS_PAT, NULL, 0x00);
	for (i = 0; i < tp->nservices; i++)
		vts_add_psi(m, VTS_PMT, &tp->services[i], tp->services[i].pmt_pid);
	vts_add_psi(m, VTS_SDT, NULL, 0x11);
	vts_add_psi(m, VTS_NIT, NULL, 0x10);
	for (i = 0; i < tp->nservices; i++)
		vts_add_psi(m, VTS_EIT, &tp->services[i], 0x12);
	vts_add_psi(m, VTS_TDT, NULL, 0x14);
	vts_add_psi(m, VTS_TOT, NULL, 0x14);
	for (i = 0; i < tp->nservices && !rc; i++) {
		if (tp->services[i].type == VTS_SVC_TV)
			rc = vts_add_video(m, i);
		if (!rc)
			rc = vts_add_audio(m, i);
	}
	return rc;
}

struct vts_mux *vts_mux_new(const struct vts_transponder *tp, time_t utc,
			    uint64_t start_ns, char *err, size_t errlen)
{
	struct vts_mux *m;
	int rc;

	if (vts_transponder_check(tp, err, errlen))
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	m->tp = tp;
	m->utc0 = utc;
	m->start_ns = start_ns;
	if (tp->ts_file[0]) {
		rc = vts_load_file(m, err, errlen);
	} else {
		rc = vts_setup_generated(m);
		if (rc)
			snprintf(err, errlen, "%s: %s", tp->name, strerror(-rc));
	}
	if (rc) {
		vts_mux_free(m);
		return NULL;
	}
	return m;
}

void vts_mux_free(struct vts_mux *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->npsi; i++)
		free(m->psi[i].queue);
	for (i = 0; i < m->nes; i++)
		free(m->es[i].pes);
	for (i = 0; i < VTS_MAX_SERVICES; i++)
		free(m->video_frame[i]);
	if (m->dvbpsi)
		dvbpsi_delete(m->dvbpsi);
	vts_image_put(m->file.img);
	free(m);
}

void vts_mux_fill(struct vts_mux *m, uint8_t *buf, size_t npkts)
{
	size_t i;

	if (m->file.img) {
		vts_send_file(m, buf, npkts);
		m->slot += npkts;
		return;
	}
	for (i = 0; i < npkts; i++, m->slot++)
		vts_send_next(m, buf + i * VTS_TS_SIZE);
}

uint64_t vts_mux_limit_backlog(struct vts_mux *m, uint64_t now_ns,
			       uint64_t max)
{
	uint64_t due = vts_mux_due(m, now_ns), skip, lost, n;
	uint8_t scratch[64 * VTS_TS_SIZE];

	if (due <= max)
		return 0;
	skip = due - max;
	if (m->file.img) {
		vts_file_skip(&m->file, skip);
		m->slot += skip;
		return skip;
	}
	/*
	 * Generated: the lost packets are produced and thrown away, up to
	 * VTS_SKIP_GENERATED of them (a long stall must not cost as long
	 * again); the clock moves on by the duration of the rest.
	 */
	lost = skip < VTS_SKIP_GENERATED ? skip : VTS_SKIP_GENERATED;
	for (n = lost; n; n -= n < 64 ? n : 64)
		vts_mux_fill(m, scratch, n < 64 ? n : 64);
	m->start_ns += vts_mul_div(skip - lost, 1000000000ull * VTS_PKT_BITS,
				   m->bitrate);
	return skip;
}
