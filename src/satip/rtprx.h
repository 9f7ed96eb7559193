/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtprx.h - what a SAT>IP client does with the RTP it receives: parse a
 * datagram (RFC 3550 section 5.1, payload type 33: MPEG-2 TS, RFC 2250)
 * and put datagrams back in order (struct satip_rx).  Pure: no I/O, no
 * allocation, no clock (the caller passes times, in ns of a monotonic
 * clock).
 */
#ifndef SATIP_RTPRX_H
#define SATIP_RTPRX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SATIP_TS_PACKET		188

struct satip_rtp_info {
	uint16_t seq;
	uint32_t ssrc;
	uint32_t ts;		/* 90 kHz */
	size_t hlen;		/* offset of the payload */
	size_t plen;		/* bytes of payload (padding removed) */
};

/*
 * Parse one RTP datagram: V=2, PT 33; CSRCs and a header extension are
 * skipped, padding is removed.  Returns 0 (out filled), or
 *   -EPROTO           not RTP version 2, shorter than its header, or a
 *                     CSRC list, extension or padding length beyond it
 *   -EPROTONOSUPPORT  payload type other than 33 (out filled)
 *   -EBADMSG          payload not a multiple of 188 bytes (out filled);
 *                     an empty payload is valid: servers send one as a
 *                     keepalive while nothing is locked
 */
int satip_rtp_parse(const uint8_t *buf, size_t len, struct satip_rtp_info *out);

/*
 * The sequence tracker.  Datagrams come in by RTP sequence number
 * (16 bits, wrapping); the one expected next is delivered at once, from
 * the caller's buffer (no copy).  One ahead of a gap is copied into a
 * slot and held, SATIP_RX_WINDOW at most (sequence numbers up to
 * SATIP_RX_WINDOW past the first missing one): the gap is waited for
 * until max_wait has passed since the first datagram after it came, or
 * until one further ahead needs the room; it is then given up (its
 * datagrams counted lost) and what was held behind it is delivered, in
 * order.  A datagram of a gap given up comes late: dropped.
 *
 * A sequence number more than SATIP_RX_MAX_JUMP ahead of or behind the
 * expected one is no loss but a jump (the server restarted its
 * sequence): as RFC 3550 appendix A.1 does, the jump is believed when
 * the next datagram follows it (the first is kept until then); the
 * tracker then delivers what it held and starts again from there
 * (resyncs).  A jump the next datagram does not confirm is dropped
 * (strays).
 *
 * Delivery is through a callback, in sequence order; it must not call
 * the tracker.  Payloads larger than SATIP_RX_HOLD_MAX are never held:
 * the gaps before one are given up and it is delivered at once.
 */
#define SATIP_RX_WINDOW		16	/* datagrams held at most */
#define SATIP_RX_HOLD_MAX	(8 * SATIP_TS_PACKET)	/* bytes of a held one */
#define SATIP_RX_MAX_JUMP	3000	/* farther: a jump, not loss */

typedef void (*satip_rx_deliver)(void *arg, const uint8_t *payload,
				 size_t len);

struct satip_rx_slot {
	bool used;
	uint16_t seq;
	uint16_t len;
	uint64_t at;		/* ns: when it came */
	uint8_t data[SATIP_RX_HOLD_MAX];
};

struct satip_rx {
	/* counters, all since satip_rx_init() */
	uint64_t datagrams;	/* accepted (delivered or held) */
	uint64_t lost;		/* datagrams never received (gaps given up) */
	uint64_t reordered;	/* received after a later one, delivered in order */
	uint64_t late;		/* received after their gap was given up: dropped */
	uint64_t duplicates;	/* received twice: dropped */
	uint64_t resyncs;	/* sequence jumps too large to be loss: restart */
	uint64_t strays;	/* a jump the next datagram did not confirm: dropped */
	/*
	 * TS packets lost: each lost datagram counts as many as the larger
	 * of the datagrams delivered before and after its gap carried
	 */
	uint64_t ts_lost;

	/* private */
	uint64_t max_wait;	/* ns */
	bool started;
	uint16_t next;		/* the sequence number expected */
	uint16_t top;		/* the highest accepted */
	unsigned int held;	/* slots used */
	unsigned int last_pkts;	/* TS packets of the last delivered */
	uint64_t gone[4];	/* bit seq & 255: the last such seq given up */
	bool probe;		/* a jump waiting for the next datagram */
	bool probe_kept;	/* its payload is in probe_data */
	uint16_t probe_seq;
	uint16_t probe_len;
	uint8_t probe_data[SATIP_RX_HOLD_MAX];
	struct satip_rx_slot slot[SATIP_RX_WINDOW];	/* by seq % window */
};

/* Start with no sequence; max_wait_ns: how long a gap is waited for. */
void satip_rx_init(struct satip_rx *rx, uint64_t max_wait_ns);

/*
 * One datagram (its payload, len bytes): delivers it (and the held ones
 * that now follow) in order through deliver, or holds a copy (ahead of a
 * gap, within the window), or drops it (late, duplicate, an unconfirmed
 * jump); then gives up the gaps waited for max_wait by now_ns.
 */
void satip_rx_push(struct satip_rx *rx, uint16_t seq, const uint8_t *payload,
		   size_t len, uint64_t now_ns, satip_rx_deliver deliver,
		   void *arg);

/*
 * Gives up the gaps waited for max_wait by now_ns, counting them lost
 * and delivering what was held behind them.
 */
void satip_rx_expire(struct satip_rx *rx, uint64_t now_ns,
		     satip_rx_deliver deliver, void *arg);

/* When satip_rx_expire() must run next (ns, at least 1), 0 if nothing is held. */
uint64_t satip_rx_deadline(const struct satip_rx *rx);

/*
 * Forget the sequence (a new session, SETUP, a retune): the next datagram
 * starts afresh; what is held is dropped; counters are kept.
 */
void satip_rx_restart(struct satip_rx *rx);

#endif /* SATIP_RTPRX_H */
