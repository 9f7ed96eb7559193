// SPDX-License-Identifier: GPL-2.0
/*
 * rtprx.c - RTP reception of a SAT>IP client: the datagram's header
 * (RFC 3550 section 5.1) and the sequence tracker, see rtprx.h.
 */
#include <errno.h>
#include <string.h>

#include "satip/report.h"
#include "satip/rtprx.h"

#define W	SATIP_RX_WINDOW

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

int satip_rtp_parse(const uint8_t *buf, size_t len, struct satip_rtp_info *out)
{
	size_t hlen, plen, ext;
	unsigned int pad;

	memset(out, 0, sizeof(*out));
	if (len < SATIP_RTP_HDR_LEN || buf[0] >> 6 != 2)
		return -EPROTO;
	out->seq = get16(buf + 2);
	out->ts = get32(buf + 4);
	out->ssrc = get32(buf + 8);
	hlen = SATIP_RTP_HDR_LEN + 4 * (size_t)(buf[0] & 0x0f);	/* CSRCs */
	if (hlen > len)
		return -EPROTO;
	if (buf[0] & 0x10) {
		/* extension: 16 bits profile, 16 bits length in words */
		if (len - hlen < 4)
			return -EPROTO;
		ext = 4 + 4 * (size_t)get16(buf + hlen + 2);
		if (ext > len - hlen)
			return -EPROTO;
		hlen += ext;
	}
	plen = len - hlen;
	if (buf[0] & 0x20) {
		/* padding: its last byte counts it, itself included */
		pad = plen ? buf[len - 1] : 0;
		if (!pad || pad > plen)
			return -EPROTO;
		plen -= pad;
	}
	out->hlen = hlen;
	out->plen = plen;
	if ((buf[1] & 0x7f) != SATIP_RTP_PT)
		return -EPROTONOSUPPORT;
	if (plen % SATIP_TS_PACKET)
		return -EBADMSG;
	return 0;
}

/* ---- the sequence tracker ----------------------------------------------- */

static int dist(uint16_t a, uint16_t b)
{
	return (int16_t)(uint16_t)(a - b);
}

static bool gone_get(const struct satip_rx *rx, uint16_t seq)
{
	return rx->gone[(seq & 255) >> 6] >> (seq & 63) & 1;
}

static void gone_set(struct satip_rx *rx, uint16_t seq, bool v)
{
	uint64_t bit = 1ULL << (seq & 63);

	if (v)
		rx->gone[(seq & 255) >> 6] |= bit;
	else
		rx->gone[(seq & 255) >> 6] &= ~bit;
}

static struct satip_rx_slot *held_slot(struct satip_rx *rx, uint16_t seq)
{
	struct satip_rx_slot *s = &rx->slot[seq % W];

	return s->used && s->seq == seq ? s : NULL;
}

/* n datagrams from seq never came; the one after the gap had after TS packets. */
static void lose(struct satip_rx *rx, uint16_t seq, unsigned int n,
		 unsigned int after)
{
	unsigned int i;

	rx->lost += n;
	rx->ts_lost += (uint64_t)n * (rx->last_pkts > after ? rx->last_pkts : after);
	if (n >= 256) {
		memset(rx->gone, 0xff, sizeof(rx->gone));
		return;
	}
	for (i = 0; i < n; i++)
		gone_set(rx, (uint16_t)(seq + i), true);
}

static void emit(struct satip_rx *rx, uint16_t seq, const uint8_t *p,
		 size_t len, satip_rx_deliver deliver, void *arg)
{
	gone_set(rx, seq, false);
	rx->last_pkts = (unsigned int)(len / SATIP_TS_PACKET);
	rx->next = (uint16_t)(seq + 1);
	deliver(arg, p, len);
}

/* Deliver the held ones that follow on from next. */
static void drain(struct satip_rx *rx, satip_rx_deliver deliver, void *arg)
{
	struct satip_rx_slot *s;

	while (rx->held && (s = held_slot(rx, rx->next))) {
		s->used = false;
		rx->held--;
		emit(rx, s->seq, s->data, s->len, deliver, arg);
	}
}

/*
 * Move next on to target at least: the held ones on the way are
 * delivered, the missing ones lost (after: TS packets of the datagram
 * after the last gap, if no held one ends it).
 */
static void give_up_to(struct satip_rx *rx, uint16_t target, unsigned int after,
		       satip_rx_deliver deliver, void *arg)
{
	struct satip_rx_slot *s;
	unsigned int n, d;

	while (dist(target, rx->next) > 0) {
		d = (unsigned int)dist(target, rx->next);
		if (!rx->held) {
			lose(rx, rx->next, d, after);
			rx->next = target;
			break;
		}
		if (held_slot(rx, rx->next)) {
			drain(rx, deliver, arg);
			continue;
		}
		/* the run of missing ones up to the next held one (or target) */
		for (n = 1; n < d && !held_slot(rx, (uint16_t)(rx->next + n)); n++)
			;
		s = n < d ? held_slot(rx, (uint16_t)(rx->next + n)) : NULL;
		lose(rx, rx->next, n,
		     s ? (unsigned int)s->len / SATIP_TS_PACKET : after);
		rx->next = (uint16_t)(rx->next + n);
	}
	drain(rx, deliver, arg);
}

static void start(struct satip_rx *rx, uint16_t seq)
{
	rx->started = true;
	rx->next = seq;
	rx->top = seq;
	/* anything from before the first datagram is late */
	memset(rx->gone, 0xff, sizeof(rx->gone));
}

/* A datagram SATIP_RX_MAX_JUMP or farther from the one expected. */
static void jump(struct satip_rx *rx, uint16_t seq, const uint8_t *payload,
		 size_t len, satip_rx_deliver deliver, void *arg)
{
	if (!rx->probe || seq != (uint16_t)(rx->probe_seq + 1)) {
		/* the first of a new sequence, maybe: kept until the next */
		if (rx->probe)
			rx->strays++;
		rx->probe = true;
		rx->probe_seq = seq;
		rx->probe_kept = len <= SATIP_RX_HOLD_MAX;
		rx->probe_len = rx->probe_kept ? (uint16_t)len : 0;
		if (rx->probe_kept && len)
			memcpy(rx->probe_data, payload, len);
		return;
	}
	/* confirmed: what is held goes out, then the new sequence starts */
	if (rx->held)
		give_up_to(rx, (uint16_t)(rx->top + 1), 0, deliver, arg);
	rx->probe = false;
	rx->resyncs++;
	start(rx, rx->probe_seq);
	if (rx->probe_kept) {
		rx->datagrams++;
		emit(rx, rx->probe_seq, rx->probe_data, rx->probe_len, deliver,
		     arg);
	} else {
		lose(rx, rx->probe_seq, 1, (unsigned int)(len / SATIP_TS_PACKET));
		rx->next = seq;
	}
	rx->datagrams++;
	rx->top = seq;
	emit(rx, seq, payload, len, deliver, arg);
}

void satip_rx_init(struct satip_rx *rx, uint64_t max_wait_ns)
{
	memset(rx, 0, sizeof(*rx));
	rx->max_wait = max_wait_ns;
}

void satip_rx_restart(struct satip_rx *rx)
{
	unsigned int i;

	rx->started = false;
	rx->probe = false;
	rx->held = 0;
	rx->last_pkts = 0;
	for (i = 0; i < W; i++)
		rx->slot[i].used = false;
}

void satip_rx_push(struct satip_rx *rx, uint16_t seq, const uint8_t *payload,
		   size_t len, uint64_t now_ns, satip_rx_deliver deliver,
		   void *arg)
{
	struct satip_rx_slot *s;
	int d;

	if (!rx->started)
		start(rx, seq);
	d = dist(seq, rx->next);
	/* a jump, or the datagram after one (RFC 3550 A.1's bad_seq) */
	if (d > SATIP_RX_MAX_JUMP || d < -SATIP_RX_MAX_JUMP ||
	    (rx->probe && seq == (uint16_t)(rx->probe_seq + 1))) {
		jump(rx, seq, payload, len, deliver, arg);
		goto out;
	}
	if (rx->probe) {
		/* a jump the sequence did not follow */
		rx->probe = false;
		rx->strays++;
	}
	if (d < 0) {
		/* a gap given up (or from before the start), or a copy */
		if (d < -256 || gone_get(rx, seq)) {
			rx->late++;
			gone_set(rx, seq, false);
		} else {
			rx->duplicates++;
		}
		goto out;
	}
	if (d > 0 && held_slot(rx, seq)) {
		rx->duplicates++;
		goto out;
	}
	rx->datagrams++;
	if (dist(seq, rx->top) < 0)
		rx->reordered++;
	else
		rx->top = seq;

	if (d > 0 && len > SATIP_RX_HOLD_MAX) {
		/* too large to hold: the gaps before it are given up */
		give_up_to(rx, seq, (unsigned int)(len / SATIP_TS_PACKET),
			   deliver, arg);
		d = 0;
	} else if (d > W) {
		/* the window slides: the gaps before seq - W are given up */
		give_up_to(rx, (uint16_t)(seq - W),
			   (unsigned int)(len / SATIP_TS_PACKET), deliver, arg);
		d = dist(seq, rx->next);
	}
	if (!d) {
		emit(rx, seq, payload, len, deliver, arg);
		drain(rx, deliver, arg);
	} else {
		s = &rx->slot[seq % W];
		s->used = true;
		s->seq = seq;
		s->len = (uint16_t)len;
		s->at = now_ns;
		if (len)
			memcpy(s->data, payload, len);
		rx->held++;
	}
out:
	satip_rx_expire(rx, now_ns, deliver, arg);
}

/* The arrival of the oldest held datagram; held must not be 0. */
static uint64_t oldest(const struct satip_rx *rx)
{
	uint64_t t = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < W; i++)
		if (rx->slot[i].used && rx->slot[i].at < t)
			t = rx->slot[i].at;
	return t;
}

void satip_rx_expire(struct satip_rx *rx, uint64_t now_ns,
		     satip_rx_deliver deliver, void *arg)
{
	struct satip_rx_slot *s = NULL;
	unsigned int n;
	uint64_t t;

	while (rx->held) {
		/*
		 * The gap in front has been waited for since the first held
		 * one came (each missing one since the first after it came);
		 * a full window cannot wait any longer.
		 */
		t = oldest(rx);
		if (rx->held < W && (now_ns < t || now_ns - t < rx->max_wait))
			break;
		for (n = 1; n <= W; n++) {
			s = held_slot(rx, (uint16_t)(rx->next + n));
			if (s)
				break;
		}
		if (!s)
			break;	/* cannot be: held ones lie in the window */
		give_up_to(rx, s->seq, (unsigned int)s->len / SATIP_TS_PACKET,
			   deliver, arg);
	}
}

uint64_t satip_rx_deadline(const struct satip_rx *rx)
{
	uint64_t t;

	if (!rx->held)
		return 0;
	t = oldest(rx);
	t = t > UINT64_MAX - rx->max_wait ? UINT64_MAX : t + rx->max_wait;
	return t ? t : 1;
}
