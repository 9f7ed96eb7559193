// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_dmx.c - libFuzzer harness of the user-space demux (src/dmx/)
 *
 * The input is a program: 4 bytes of configuration (feeds, the buffers'
 * sizes, filters), then operations, each an opcode byte and its
 * arguments, on up to NSLOT opens of demux0 and dvr0's reader: open and
 * close, DMX_SET_FILTER and DMX_SET_PES_FILTER with fuzzed parameters,
 * DMX_START / DMX_STOP, DMX_ADD_PID / DMX_REMOVE_PID, buffer sizes, reads
 * of fuzzed sizes, poll, the clock, raw ioctls through vdmx_ioctl(), and
 * TS: raw bytes, sections of fuzzed lengths and CRCs packed with pointer
 * fields (packets lost, duplicated, cut anywhere), PES packets with
 * adaptation fields and errors.  What must hold:
 *   - a read returns at most its length; a section filter's read of
 *     VDMX_SECTION_MAX bytes at a section's start is one whole section
 *     that passes the filter's bytes and, with DMX_CHECK_CRC, its CRC;
 *     DMX_OUT_TSDEMUX_TAP and dvr0 return whole packets in a row;
 *   - poll bits are those of dmxdev, and POLLERR only with a pending
 *     error, which the next read returns;
 *   - the PID set is sorted, at most 0x2000, no larger than the feeds,
 *     and its generation changes when it does;
 *   - vdmx_tick() leaves no deadline at or before the clock;
 *   - every errno is one the request may give.
 * Under ASan and UBSan nothing may crash or leak.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "dmx/vdmx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NSLOT		6
#define TS		VDMX_TS_SIZE
#define POLLBITS	(POLLIN | POLLRDNORM | POLLPRI | POLLERR)
#define NPIDS		(VDMX_PID_FULL_TS + 1)

struct in {
	const uint8_t *p;
	size_t left;
};

static uint8_t u8(struct in *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static uint16_t u16(struct in *in)
{
	return (uint16_t)(u8(in) << 8 | u8(in));
}

static uint32_t u32(struct in *in)
{
	return (uint32_t)u16(in) << 16 | u16(in);
}

/* n bytes into out, zeros past the input's end */
static void bytes(struct in *in, uint8_t *out, size_t n)
{
	size_t k = n < in->left ? n : in->left;

	memcpy(out, in->p, k);
	memset(out + k, 0, n - k);
	in->p += k;
	in->left -= k;
}

/* A PID: one of those the TS uses, or any up to 0x3fff. */
static uint16_t pick_pid(uint16_t v)
{
	static const uint16_t pids[8] = {
		0x00, 0x10, 0x11, 0x12, 0x100, 0x101, 0x1fff, VDMX_PID_FULL_TS
	};

	return v & 0x8000 ? v & 0x3fff : pids[v % 8];
}

/* What the harness knows of an open filter. */
enum kind { K_NONE, K_SEC, K_PES, K_UNKNOWN };

struct slot {
	struct vdmx_filter *f;
	enum kind kind;
	struct dmx_sct_filter_params sec;
	struct dmx_pes_filter_params pes;
	bool aligned;		/* K_SEC: the next read starts a section */
	size_t tsoff;		/* K_PES: bytes read since a packet start */
	unsigned long size;	/* of its buffer */
};

static struct vdmx *d;
static unsigned int max_feeds;
static struct slot slots[NSLOT];
static bool dvr_open;
static size_t dvr_off;
static unsigned long dvr_size, dvr_default, filter_default;
static uint64_t now;
static uint8_t cc[8192];
static uint16_t last_pids[NPIDS];
static unsigned int last_n;
static uint32_t last_gen;
static uint8_t buf[70000];

static uint32_t crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	int i;

	while (n--) {
		c ^= (uint32_t)*p++ << 24;
		for (i = 0; i < 8; i++)
			c = c & 0x80000000u ? c << 1 ^ 0x04c11db7u : c << 1;
	}
	return c;
}

static void check(bool ok)
{
	if (!ok)
		abort();
}

/* The buffer was emptied and any read state with it. */
static void flushed(struct slot *s)
{
	s->aligned = true;
	s->tsoff = 0;
}

/* Whether section s (len bytes) passes the filter, as dvb-core compares. */
static bool passes(const struct dmx_sct_filter_params *p, const uint8_t *s,
		   size_t len)
{
	bool has_neg = false, differ = false;
	unsigned int i;
	size_t at;
	uint8_t pos, neg, x;

	for (i = 0; i < DMX_FILTER_SIZE; i++) {
		pos = p->filter.mask[i] & (uint8_t)~p->filter.mode[i];
		neg = p->filter.mask[i] & p->filter.mode[i];
		has_neg |= neg != 0;
		if (!(pos | neg))
			continue;
		at = i ? i + 2 : 0;
		if (at >= len)
			return false;
		x = s[at] ^ p->filter.filter[i];
		if (x & pos)
			return false;
		differ |= (x & neg) != 0;
	}
	return !has_neg || differ;
}

static void check_pids(void)
{
	static uint16_t pids[NPIDS];
	unsigned int n, i;
	bool same;

	n = vdmx_pids(d, pids, NPIDS);
	check(n <= max_feeds);
	for (i = 0; i < n; i++)
		check(pids[i] <= VDMX_PID_FULL_TS && (!i || pids[i] > pids[i - 1]));
	same = n == last_n && !memcmp(pids, last_pids, n * sizeof(*pids));
	if (!same)
		check(vdmx_pids_gen(d) != last_gen);
	last_gen = vdmx_pids_gen(d);
	last_n = n;
	memcpy(last_pids, pids, n * sizeof(*pids));
}

/* A TS read of r bytes at offset *off from a packet start: packets in a row. */
static void check_ts(const uint8_t *b, ssize_t r, size_t *off)
{
	size_t i = (TS - *off) % TS;

	for (; i < (size_t)r; i += TS)
		check(b[i] == 0x47);
	*off = (*off + (size_t)r) % TS;
}

static void do_read(struct slot *s, size_t len)
{
	unsigned int before = vdmx_filter_poll(s->f);
	ssize_t r = vdmx_filter_read(s->f, buf, len);
	size_t n;

	check(r <= (ssize_t)len);
	if (r < 0) {
		check(r == -EAGAIN || r == -EOVERFLOW || r == -ETIMEDOUT);
		if (r != -EAGAIN) {
			check(before & POLLERR);
			flushed(s);
		} else {
			check(!(before & (POLLERR | POLLIN)));
		}
		return;
	}
	/* an error comes first; data only in a filter that polls it */
	check(!(before & POLLERR));
	check(!r || !len || (before & POLLIN));
	if (s->kind == K_SEC) {
		if (r && s->aligned && len >= VDMX_SECTION_MAX) {
			n = 3 + ((size_t)(buf[1] & 0x0f) << 8 | buf[2]);
			check((size_t)r == n && n <= VDMX_SECTION_MAX);
			check(passes(&s->sec, buf, n));
			if ((s->sec.flags & DMX_CHECK_CRC) && (buf[1] & 0x80))
				check(!crc32(buf, n));
		}
		if (r)
			s->aligned = len >= VDMX_SECTION_MAX;
	} else if (s->kind == K_PES &&
		   s->pes.output == DMX_OUT_TSDEMUX_TAP) {
		check_ts(buf, r, &s->tsoff);
	}
}

/* ---- TS from the input --------------------------------------------------- */

/*
 * Sections from the input on a PID (some longer than any, some with a
 * length field that lies), packed with pointer fields; some packets lost
 * or duplicated, the whole fed in two pieces.
 */
static void feed_sections(struct in *in)
{
	static uint8_t stream[4 * 4400], ts[100 * TS];
	size_t starts[4], total = 0, pos = 0, np = 0, len, i, take, first = 0, cut;
	uint16_t pid = pick_pid(u16(in)) & 0x1fff;
	unsigned int n = u8(in) % 4 + 1, mode;
	uint8_t *s, flags, payload[184];
	uint32_t crc;
	bool pusi;

	for (i = 0; i < n; i++) {
		s = stream + total;
		flags = u8(in);
		len = 3 + u16(in) % 4400;
		s[0] = u8(in);
		s[1] = (uint8_t)((flags & 1 ? 0xb0 : 0x30) | (len - 3) >> 8);
		s[2] = (uint8_t)(len - 3);
		bytes(in, s + 3, len - 3);
		if (flags & 4) {	/* a length that lies */
			s[1] = u8(in);
			s[2] = u8(in);
		}
		if (len >= 7 && (flags & 2)) {
			crc = crc32(s, len - 4);
			s[len - 4] = (uint8_t)(crc >> 24);
			s[len - 3] = (uint8_t)(crc >> 16);
			s[len - 2] = (uint8_t)(crc >> 8);
			s[len - 1] = (uint8_t)crc;
		}
		starts[i] = total;
		total += len;
	}
	mode = u8(in);
	while (pos < total && np < 100) {
		while (first < n && starts[first] < pos)
			first++;
		pusi = first < n && starts[first] - pos < 183;
		take = pusi ? 183 : 184;
		if (take > total - pos)
			take = total - pos;
		memset(payload, 0xff, sizeof(payload));
		if (pusi)
			payload[0] = (uint8_t)(starts[first] - pos);
		memcpy(payload + pusi, stream + pos, take);
		pos += take;
		if ((mode & 0x80) && (np + 1) % 5 == (mode & 3) + 1)
			continue;			/* lost */
		s = ts + np++ * TS;
		s[0] = 0x47;
		s[1] = (uint8_t)((pusi ? 0x40 : 0) | pid >> 8);
		s[2] = (uint8_t)pid;
		s[3] = (uint8_t)(0x10 | (cc[pid]++ & 0x0f));
		memcpy(s + 4, payload, 184);
		if ((mode & 0x40) && np < 100 && np % 3 == 1) {
			memcpy(ts + np * TS, s, TS);	/* duplicated */
			np++;
		}
	}
	cut = np ? u16(in) % (np * TS) : 0;
	vdmx_feed(d, ts, cut);
	vdmx_feed(d, ts + cut, np * TS - cut);
}

/* PES-like packets from the input: adaptation fields, errors, no payload. */
static void feed_packets(struct in *in)
{
	uint8_t ts[8 * TS], *p, flags;
	unsigned int n = u8(in) % 8 + 1, i;
	uint16_t pid = pick_pid(u16(in)) & 0x1fff;

	for (i = 0; i < n; i++) {
		p = ts + i * TS;
		flags = u8(in);
		memset(p, (flags & 0x40) ? 0xff : i, TS);
		p[0] = 0x47;
		p[1] = (uint8_t)((flags & 1 ? 0x40 : 0) | (flags & 2 ? 0x80 : 0) |
				 pid >> 8);
		p[2] = (uint8_t)pid;
		p[3] = (uint8_t)((flags & 0x30) | (cc[pid] & 0x0f));
		if (flags & 0x10)
			cc[pid]++;
		if (flags & 0x20) {
			p[4] = u8(in);
			p[5] = u8(in);
		}
		if (flags & 0x80)
			bytes(in, p + 4, 184);
	}
	vdmx_feed(d, ts, n * TS);
}

/* ---- the operations ------------------------------------------------------ */

static void op_set_filter(struct slot *s, struct in *in)
{
	struct dmx_sct_filter_params p;
	uint8_t raw[3 * DMX_FILTER_SIZE];
	size_t k;
	int ret;

	memset(&p, 0, sizeof(p));
	p.pid = pick_pid(u16(in));
	p.flags = u8(in);
	p.timeout = u8(in) * 10u;
	k = u8(in) % (sizeof(raw) + 1);
	memset(raw, 0, sizeof(raw));
	bytes(in, raw, k);
	memcpy(p.filter.filter, raw, DMX_FILTER_SIZE);
	memcpy(p.filter.mask, raw + DMX_FILTER_SIZE, DMX_FILTER_SIZE);
	memcpy(p.filter.mode, raw + 2 * DMX_FILTER_SIZE, DMX_FILTER_SIZE);
	ret = vdmx_set_filter(s->f, &p);
	check(!ret || ret == -EINVAL || ret == -EBUSY);
	if (p.pid > 0x1fff) {
		check(ret == -EINVAL);
		return;
	}
	check(ret != -EINVAL);
	s->kind = K_SEC;
	s->sec = p;
	flushed(s);
}

static void op_set_pes(struct slot *s, struct in *in)
{
	struct dmx_pes_filter_params p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.pid = pick_pid(u16(in));
	p.input = (enum dmx_input)(u8(in) % 3);
	p.output = (enum dmx_output)(u8(in) % 5);
	p.pes_type = (enum dmx_ts_pes)(u8(in) % 23);
	p.flags = u8(in);
	ret = vdmx_set_pes_filter(s->f, &p);
	check(!ret || ret == -EINVAL || ret == -EBUSY);
	if (p.pid > VDMX_PID_FULL_TS || p.pes_type > DMX_PES_OTHER) {
		check(ret == -EINVAL);
		return;
	}
	s->kind = K_PES;
	s->pes = p;
	flushed(s);
}

static void op_ioctl(struct slot *s, struct in *in)
{
	static const unsigned int cmds[] = {
		DMX_START, DMX_STOP, DMX_SET_FILTER, DMX_SET_PES_FILTER,
		DMX_SET_BUFFER_SIZE, DMX_GET_PES_PIDS, DMX_GET_STC,
		DMX_ADD_PID, DMX_REMOVE_PID, DMX_REQBUFS, DMX_QBUF,
	};
	union {
		struct dmx_sct_filter_params sec;
		struct dmx_pes_filter_params pes;
		struct dmx_stc stc;
		uint16_t pids[5];
		uint8_t raw[64];
	} arg;
	uint8_t i = u8(in);
	unsigned int cmd = i < 2 * sizeof(cmds) / sizeof(cmds[0]) ?
			   cmds[i % (sizeof(cmds) / sizeof(cmds[0]))] : u32(in);
	unsigned long value = u32(in) % (1u << 17);
	void *a = (i & 1) ? NULL : &arg;
	size_t isz, osz;
	int ret, known;

	bytes(in, arg.raw, sizeof(arg.raw));
	known = vdmx_ioctl_size(cmd, false, &isz, &osz);
	check(isz <= sizeof(arg) && osz <= sizeof(arg));
	ret = vdmx_ioctl(s->f, cmd, value, a);
	check(!known || ret == -ENOTTY);
	check(known || a || (!isz && !osz) || ret == -EFAULT);
	check(ret <= 0);
	/* a new size, as through case 8: the model follows */
	if (cmd == (unsigned int)DMX_SET_BUFFER_SIZE && !ret &&
	    value != s->size) {
		s->size = value;
		flushed(s);
	}
	/* the filter may have changed: no more content checks until set again */
	if (known == 0 && cmd != (unsigned int)DMX_GET_PES_PIDS &&
	    cmd != (unsigned int)DMX_GET_STC)
		s->kind = K_UNKNOWN;
}

/* dvr0's DMX_SET_BUFFER_SIZE to size returned ret: emptied if it changed. */
static void dvr_resized(int ret, unsigned long size)
{
	if (ret || !dvr_open || size == dvr_size)
		return;
	dvr_size = size;
	dvr_off = 0;
}

static void op_dvr(struct in *in)
{
	unsigned int before, cmd;
	size_t len, isz, osz;
	int ret, known;
	ssize_t r;

	switch (u8(in) % 6) {
	case 0:
		ret = vdmx_dvr_open(d);
		check(ret == (dvr_open ? -EBUSY : 0));
		if (!ret) {
			dvr_off = 0;
			dvr_size = dvr_default;
		}
		dvr_open = true;
		break;
	case 1:
		vdmx_dvr_close(d);
		dvr_open = false;
		break;
	case 2:
		len = u16(in);
		before = vdmx_dvr_poll(d);
		r = vdmx_dvr_read(d, buf, len);
		check(r <= (ssize_t)len);
		if (!dvr_open) {
			check(r == 0 && !before);
		} else if (r >= 0) {
			check(!(before & POLLERR) && (!r || (before & POLLIN)));
			check_ts(buf, r, &dvr_off);
		} else {
			check(r == -EAGAIN || r == -EOVERFLOW);
			check((r == -EOVERFLOW) == !!(before & POLLERR));
			if (r == -EOVERFLOW)
				dvr_off = 0;
		}
		break;
	case 3:
		len = u16(in);
		ret = vdmx_dvr_set_buffer_size(d, len == 0xffff ? ~0ul : len);
		check(!ret || ret == -EINVAL || ret == -ENOMEM);
		dvr_resized(ret, len == 0xffff ? ~0ul : len);
		break;
	case 4:
		check(!(vdmx_dvr_poll(d) & ~POLLBITS));
		break;
	default:
		cmd = u8(in) & 1 ? (unsigned int)DMX_SET_BUFFER_SIZE : u32(in);
		known = vdmx_ioctl_size(cmd, true, &isz, &osz);
		check(!isz && !osz);
		len = u16(in);
		ret = vdmx_dvr_ioctl(d, cmd, len);
		check(ret <= 0 && (!known || ret == -ENOTTY));
		if (!known)
			dvr_resized(ret, len);
		break;
	}
}

static void op(struct in *in)
{
	uint8_t code = u8(in) % 18;
	struct slot *s = &slots[u8(in) % NSLOT];
	unsigned long size;
	unsigned int bits;
	uint64_t dl;
	size_t len;
	int ret;

	if (code <= 10 || code == 16) {
		if (code == 0) {
			if (s->f)
				return;
			ret = vdmx_filter_open(d, &s->f);
			check(!ret || ret == -EMFILE);
			check(!ret == !!s->f);
			s->kind = K_NONE;
			s->size = filter_default;
			flushed(s);
			return;
		}
		if (!s->f)
			return;
	}
	switch (code) {
	case 1:
		vdmx_filter_close(s->f);
		s->f = NULL;
		break;
	case 2:
		op_set_filter(s, in);
		break;
	case 3:
		op_set_pes(s, in);
		break;
	case 4:
		ret = vdmx_start(s->f);
		check(!ret || ret == -EINVAL || ret == -EBUSY);
		if (s->kind != K_NONE)
			flushed(s);
		break;
	case 5:
		check(!vdmx_stop(s->f));
		flushed(s);
		break;
	case 6:
		ret = vdmx_add_pid(s->f, u16(in) & 0x3fff);
		check(!ret || ret == -EINVAL || ret == -EBUSY);
		break;
	case 7:
		ret = vdmx_remove_pid(s->f, u16(in));
		check(!ret || ret == -EINVAL);
		break;
	case 8:
		len = u16(in);
		size = len == 0xffff ? ~0ul : len * 4ul;
		ret = vdmx_filter_set_buffer_size(s->f, size);
		check(!ret || ret == -EINVAL || ret == -EBUSY || ret == -ENOMEM);
		check(!ret || size != s->size);
		if (!ret && size != s->size) {
			s->size = size;
			flushed(s);
		}
		break;
	case 9:
		len = u16(in);
		do_read(s, len & 0x8000 ? VDMX_SECTION_MAX + len % 2000 : len % 300);
		break;
	case 10:
		bits = vdmx_filter_poll(s->f);
		check(!(bits & ~POLLBITS));
		check(!(bits & POLLERR) || (bits & POLLIN));
		/* only a filter that ran polls */
		check(vdmx_filter_state(s->f) >= VDMX_STATE_ALLOCATED &&
		      vdmx_filter_state(s->f) <= VDMX_STATE_TIMEDOUT);
		check(!bits || vdmx_filter_state(s->f) >= VDMX_STATE_GO);
		break;
	case 11:
		len = u16(in) % 1024;
		if (len > in->left)
			len = in->left;
		vdmx_feed(d, in->p, len);
		in->p += len;
		in->left -= len;
		break;
	case 12:
		feed_sections(in);
		break;
	case 13:
		feed_packets(in);
		break;
	case 14:
		now += u16(in);
		vdmx_tick(d, now);
		dl = vdmx_deadline(d);
		check(!dl || dl > now);
		break;
	case 15:
		op_dvr(in);
		break;
	case 16:
		op_ioctl(s, in);
		break;
	default:
		while (vdmx_woken(d))
			;
		vdmx_dvr_woken(d);
		if (u8(in) & 1)
			vdmx_feed_reset(d);
		break;
	}
	/* what may change the PID set */
	if ((code >= 1 && code <= 7) || code == 16)
		check_pids();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	struct vdmx_config cfg;
	unsigned int i;

	memset(&cfg, 0, sizeof(cfg));
	cfg.max_feeds = 1 + u8(&in) % 16;
	max_feeds = cfg.max_feeds;
	cfg.filter_buffer = TS + u8(&in) * 64u;
	cfg.dvr_buffer = TS * (1 + (size_t)u8(&in));
	filter_default = cfg.filter_buffer;
	dvr_default = cfg.dvr_buffer;
	cfg.max_filters = 1 + u8(&in) % NSLOT;
	cfg.max_buffer = 1 << 18;
	d = vdmx_new(&cfg);
	if (!d)
		abort();
	memset(slots, 0, sizeof(slots));
	memset(cc, 0, sizeof(cc));
	dvr_open = false;
	dvr_off = 0;
	now = 0;
	last_n = 0;
	last_gen = vdmx_pids_gen(d);

	while (in.left)
		op(&in);

	/* every filter closed by hand or by vdmx_free() */
	for (i = 0; i < NSLOT; i++)
		if (slots[i].f && (i & 1))
			vdmx_filter_close(slots[i].f);
	vdmx_free(d);
	d = NULL;
	return 0;
}
