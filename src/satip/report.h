/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - what a SAT>IP server reports about a stream: signal level,
 * lock and quality of a frontend status, the fmtp line (DESCRIBE's SDP
 * and RTCP's APP packet), the SDP of DESCRIBE, RTP headers and RTCP
 * compound packets.  Pure: no I/O, no clock (the caller passes times).
 */
#ifndef SATIP_REPORT_H
#define SATIP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/vtp.h"
#include "satip/query.h"

#define SATIP_RTP_PT		33	/* MP2T, RFC 3551 */
#define SATIP_RTP_HDR_LEN	12
#define SATIP_RTCP_CNAME	"vtunerd"

struct satip_signal {
	unsigned int level;	/* 0..255: 0 no signal, 32 = -65 dBm, 224 = -25 dBm */
	unsigned int quality;	/* 0..15 */
	bool lock;		/* FE_HAS_LOCK */
};

/*
 * level, lock and quality of a frontend status of delivery system delsys
 * (enum fe_delivery_system), as docs/satip.md says:
 *   level: DVBv5 strength in 0.001 dBm: 32 + (dBm + 65) * 192 / 40;
 *          relative (0..65535) or the DVBv3 value: x * 255 / 65535;
 *          0 without FE_HAS_SIGNAL, FE_HAS_CARRIER or FE_HAS_LOCK, at least
 *          1 with one of them; clamped to 0..255.
 *   quality: 0 without lock; DVBv5 CNR in 0.001 dB: CNR * 15 / full scale
 *          (15 dB satellite, 25 dB terrestrial, 35 dB cable); relative or
 *          DVBv3 SNR: x * 15 / 65535; locked without a measure: 15;
 *          clamped to 1..15 when locked.
 */
void satip_signal_of(const struct vtp_status *s, unsigned int delsys,
		     struct satip_signal *out);

struct satip_fmtp_args {
	unsigned int fe;			/* frontend number, from 1 */
	const struct satip_signal *sig;		/* NULL: 0,0,0 */
	const struct satip_tune *tune;		/* NULL: not tuned */
	const struct satip_pidset *pids;	/* NULL: none */
};

/*
 * The stream's fmtp text (without "a=fmtp:33 "):
 *   DVB-S/S2 (and not tuned): ver=1.0;src=S;tuner=fe,level,lock,quality,
 *            freq,pol,msys,mtype,plts,ro,sr,fec;pids=...
 *   DVB-T/T2: ver=1.1;tuner=fe,level,lock,quality,freq,bw,msys,tmode,
 *            mtype,gi,fec,plp,t2id,sm;pids=...
 *   DVB-C/C2: ver=1.2;tuner=fe,level,lock,quality,freq,bw,msys,mtype,sr,
 *            c2tft,ds,plp,specinv;pids=...
 * pids=all, pids=none (empty set) or the list.  Tuning fields as
 * satip_tune_format() writes them.  Returns the length (buf terminated)
 * or -ENOBUFS.
 */
int satip_fmtp(char *buf, size_t cap, const struct satip_fmtp_args *a);

struct satip_sdp_stream {
	unsigned int stream_id;
	const char *fmtp;	/* satip_fmtp() */
	bool active;		/* a=sendonly (playing), else a=inactive */
	uint16_t port;		/* m= port: 0 for unicast */
	const char *mcast;	/* multicast group (c=IN IP4 G/TTL), NULL: 0.0.0.0 */
	unsigned int ttl;
};

struct satip_sdp_args {
	const char *addr;		/* the server's IPv4 address (o=) */
	uint64_t session;		/* o= session id and version */
	unsigned int frontends[3];	/* DVB-S2, DVB-T, DVB-C tuners */
	const struct satip_sdp_stream *streams;
	unsigned int num_streams;
};

/*
 * DESCRIBE's body (application/sdp, CRLF lines):
 *   v=0
 *   o=- SESSION SESSION IN IP4 ADDR
 *   s=SatIPServer:1 N          (N: "S" or, with T or C tuners, "S,T,C")
 *   t=0 0
 * and per stream:
 *   m=video PORT RTP/AVP 33
 *   c=IN IP4 0.0.0.0           (multicast: c=IN IP4 GROUP/TTL)
 *   a=control:stream=ID
 *   a=fmtp:33 FMTP
 *   a=sendonly                 (a=inactive when not playing)
 * Returns the length (buf terminated) or -ENOBUFS.
 */
int satip_sdp(char *buf, size_t cap, const struct satip_sdp_args *a);

/* RTP header: V=2, no padding, extension or CSRC, M=0, PT 33. */
void satip_rtp_header(uint8_t hdr[SATIP_RTP_HDR_LEN], uint16_t seq,
		      uint32_t ts90k, uint32_t ssrc);

/*
 * RTCP compound packet (RFC 3550, SAT>IP 1.2.2 section 3.6):
 *   SR   (PT 200, RC 0): ssrc, ntp (64-bit), rtp_ts, packets, octets
 *   SDES (PT 202, SC 1): ssrc, CNAME SATIP_RTCP_CNAME, END, padding
 *   APP  (PT 204, subtype 0): ssrc, "SES1", 16-bit identifier 0, 16-bit
 *        string length, the fmtp string, zeros to a 32-bit boundary
 * Returns the length (a multiple of 4), -ENOBUFS, or -EINVAL if fmtp is
 * too long for an RTCP packet.
 */
int satip_rtcp_build(uint8_t *buf, size_t cap, uint32_t ssrc,
		     uint32_t packets, uint32_t octets, uint64_t ntp,
		     uint32_t rtp_ts, const char *fmtp);

/* NTP timestamp (32.32, from 1900) of a Unix time. */
uint64_t satip_ntp(uint64_t sec, uint32_t nsec);

/* ---- the client's side: reading reports --------------------------------- */

/*
 * The string of the first RTCP APP packet named "SES1" (its 16-bit
 * length, then the string) in a compound packet of len bytes; every RTCP
 * packet is walked by its length field.  Copied and terminated into out
 * (cap bytes).  Returns 1 found, 0 no SES1, -EBADMSG malformed compound
 * (not version 2, a length beyond len, a string beyond its packet),
 * -ENOBUFS out too small (out then "").
 */
int satip_rtcp_ses1(const uint8_t *buf, size_t len, char *out, size_t cap);

/*
 * The a=fmtp:33 text of stream stream_id (a=control:stream=N, or a URL
 * ending in stream=N, in the same m= section) in a DESCRIBE's SDP body
 * (len bytes, CRLF or LF lines), or of the first m= section that has one
 * if stream_id < 0.  Returns 0 found (out terminated, control characters
 * as '?'), -ENOENT, -ENOBUFS (out then "").
 */
int satip_sdp_fmtp(const char *sdp, size_t len, int stream_id, char *out,
		   size_t cap);

/* What an fmtp line or an RTCP SES1 string says. */
struct satip_report {
	unsigned int fe;		/* the server's frontend number */
	struct satip_signal sig;	/* level, quality, lock */
	/* the tuning fields given (present bits), as satip_query_parse sets them */
	struct satip_tune tune;
	bool has_pids;
	struct satip_pidset pids;	/* pids=all, none or the list (sorted) */
};

/*
 * Parse an fmtp / SES1 string,
 *   ver=1.0;src=1;tuner=1,240,1,15,11362.00,h,dvbs2,8psk,off,0.35,22000,23;pids=0,16
 * the inverse of satip_fmtp(): items in any order, the first of each name
 * counting, unknown ones ignored; tuner= is fe,level,lock,quality, then
 * the fields of the system its msys names (else of ver=: 1.0 satellite,
 * 1.1 terrestrial, 1.2 cable).  Tolerant of what real servers send: no
 * ver, no pids, a trailing ';', empty fields, a field that does not
 * parse (left out, as a frequency of 0 is), level above 255 and quality
 * above 15 (clamped).  Returns 0, or -EINVAL if there is no usable
 * tuner= (fe, level, lock and quality numbers or empty, at least).
 */
int satip_report_parse(const char *s, struct satip_report *r);

/*
 * A SAT>IP signal as a DVB frontend status (the inverse of
 * satip_signal_of()):
 *   status   lock: FE_HAS_SIGNAL | CARRIER | VITERBI | SYNC | LOCK;
 *            no lock but level > 0: FE_HAS_SIGNAL; else 0
 *   strength FE_SCALE_DECIBEL, 0.001 dBm: (level - 32) * 40000 / 192 - 65000
 *            (level 32 = -65 dBm, 224 = -25 dBm); level 0: not available
 *   CNR      FE_SCALE_RELATIVE quality * 65535 / 15; not available
 *            without lock
 *   DVBv3    signal = level * 65535 / 255, snr = quality * 65535 / 15
 * The error counters: not available.  out->seq is 0: the caller's.
 */
void satip_signal_to_status(const struct satip_signal *s,
			    struct vtp_status *out);

#endif /* SATIP_REPORT_H */
