/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtp.h - vtuner wire protocol: frame layout, messages and codec
 *
 * Pure encode/decode on memory buffers; no I/O, no allocation.  The
 * byte layout of every message is described in docs/protocol.md.
 *
 * Encoders return the number of bytes written or a negative errno:
 *   -ENOBUFS  the buffer is too small for the frame
 *   -EINVAL   a count, length or value is outside the protocol limits
 *
 * vtp_decode() returns the number of bytes consumed (the whole frame),
 * 0 if buf does not hold a complete frame yet, or a negative errno:
 *   -EBADMSG  bad magic: the stream is out of sync (fatal)
 *   -EMSGSIZE the header announces a payload above VTP_MAX_PAYLOAD (fatal)
 *   -ENOTSUP  a complete frame of unknown type
 *   -EPROTO   a complete frame of known type with a malformed payload
 * After -ENOTSUP and -EPROTO, out->hdr and out->frame_len are valid: the
 * caller can answer with an ERROR for out->hdr.reqid and skip
 * out->frame_len bytes.  After a fatal error the connection must close.
 */
#ifndef VTP_H
#define VTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- framing ------------------------------------------------------------ */

#define VTP_MAGIC		0x5654		/* "VT" */
#define VTP_HDR_LEN		16
#define VTP_MAX_PAYLOAD		(256 * 1024)
#define VTP_MAX_FRAME		(VTP_HDR_LEN + VTP_MAX_PAYLOAD)
/* A SEALED frame's payload: a whole frame and the 16-byte tag. */
#define VTP_SEALED_MAX_PAYLOAD	(VTP_MAX_FRAME + 16)
#define VTP_MAX_SEALED_FRAME	(VTP_HDR_LEN + VTP_SEALED_MAX_PAYLOAD)

/* Versions this implementation speaks (negotiated in HELLO). */
#define VTP_VERSION_MIN		1
#define VTP_VERSION_MAX		1

/*
 * Feature bits of HELLO; unknown bits are ignored and never granted.
 * VTP_FEAT_AUTH: pre-shared key authentication (docs/protocol.md, AUTH);
 * a peer sets it only when it has a key, so it is not in VTP_FEATURES.
 */
#define VTP_FEAT_AUTH		0x00000001U
/*
 * VTP_FEAT_SEAL: with AUTH, every frame after the handshake is sealed
 * (vtp_seal.h); a peer with a key asks for it and insists on it.
 */
#define VTP_FEAT_SEAL		0x00000002U
/*
 * VTP_FEAT_SEAL_OCB: with SEAL, frames are sealed with AES-256-OCB
 * instead of ChaCha20-Poly1305; a client asks for it, a server grants it
 * (both by --cipher: by default when the CPU has AES instructions).
 */
#define VTP_FEAT_SEAL_OCB	0x00000004U
#define VTP_FEATURES		0U

/* ---- limits ------------------------------------------------------------- */

#define VTP_NAME_MAX		127	/* tuner name, bytes without NUL */
#define VTP_PEER_NAME_MAX	63	/* client/server name in HELLO */
#define VTP_ERRMSG_MAX		255	/* ERROR message text */
#define VTP_MAX_TUNERS		32
#define VTP_MAX_DELSYS		8	/* as dvb-core's MAX_DELSYS */
#define VTP_MAX_PROPS		64	/* as DTV_IOCTL_MAX_MSGS */
#define VTP_DISEQC_MIN		1
#define VTP_DISEQC_MAX		6
#define VTP_MAX_PIDS		8192
#define VTP_PID_FULL_TS		0x2000	/* pseudo PID: the whole TS */
#define VTP_MAX_STAT_LAYERS	4	/* as MAX_DTV_STATS */
#define VTP_TOKEN_LEN		16
#define VTP_NONCE_LEN		32	/* HELLO / HELLO_REPLY with AUTH */
#define VTP_MAC_LEN		32	/* AUTH, AUTH_REPLY, DATA_ATTACH */
#define VTP_TS_PACKET		188
#define VTP_TS_HDR_LEN		(VTP_HDR_LEN + 4)
#define VTP_MAX_TS_PACKETS	((VTP_MAX_PAYLOAD - 4) / VTP_TS_PACKET)

/* ---- message types ------------------------------------------------------ */

enum vtp_type {
	VTP_HELLO		= 0x0001,
	VTP_HELLO_REPLY		= 0x0002,
	VTP_OK			= 0x0003,
	VTP_ERROR		= 0x0004,
	VTP_KEEPALIVE		= 0x0005,
	VTP_KEEPALIVE_REPLY	= 0x0006,
	VTP_AUTH		= 0x0007,
	VTP_AUTH_REPLY		= 0x0008,

	VTP_LIST_TUNERS		= 0x0010,
	VTP_TUNER_LIST		= 0x0011,
	VTP_OPEN_TUNER		= 0x0012,
	VTP_OPEN_REPLY		= 0x0013,
	VTP_CLOSE_TUNER		= 0x0014,

	VTP_TUNE		= 0x0020,
	VTP_SET_TONE		= 0x0021,
	VTP_SET_VOLTAGE		= 0x0022,
	VTP_ENABLE_HIGH_VOLTAGE	= 0x0023,
	VTP_DISEQC_MASTER	= 0x0024,
	VTP_DISEQC_BURST	= 0x0025,
	VTP_SET_PIDS		= 0x0026,

	VTP_STATUS		= 0x0030,

	VTP_DATA_ATTACH		= 0x0040,
	VTP_TS_DATA		= 0x0041,

	VTP_SEALED		= 0x0050,	/* vtp_seal.h */
};

/* ---- message bodies ----------------------------------------------------- */

struct vtp_hdr {
	uint16_t type;		/* enum vtp_type */
	uint16_t flags;		/* reserved: sent as zero, ignored */
	uint32_t len;		/* payload bytes after the header */
	uint32_t reqid;		/* request id; 0 for pushes */
};

struct vtp_hello {
	uint16_t version_min;
	uint16_t version_max;
	uint32_t features;
	char name[VTP_PEER_NAME_MAX + 1];	/* client name, NUL-terminated */
	bool has_nonce;				/* appended: with VTP_FEAT_AUTH */
	uint8_t nonce[VTP_NONCE_LEN];		/* client's challenge */
};

struct vtp_hello_reply {
	uint16_t version;	/* chosen version */
	uint32_t features;	/* granted features */
	char name[VTP_PEER_NAME_MAX + 1];	/* server name */
	bool has_nonce;				/* appended: AUTH granted */
	uint8_t nonce[VTP_NONCE_LEN];		/* server's challenge */
};

/* AUTH (client's proof) and AUTH_REPLY (server's proof) */
struct vtp_auth {
	uint8_t mac[VTP_MAC_LEN];
};

struct vtp_error {
	uint32_t err;		/* positive Linux errno */
	uint32_t reqid;		/* request answered (0: none) */
	char msg[VTP_ERRMSG_MAX + 1];
};

#define VTP_TUNER_BUSY		0x01	/* vtp_tuner.flags */

struct vtp_tuner {
	uint16_t index;
	uint8_t flags;		/* VTP_TUNER_* */
	uint8_t num_delsys;
	uint8_t delsys[VTP_MAX_DELSYS];	/* enum fe_delivery_system */
	uint32_t caps;		/* enum fe_caps */
	uint32_t freq_min;	/* Hz, kHz for satellite (dvb_frontend_info) */
	uint32_t freq_max;
	uint32_t freq_step;
	uint32_t freq_tolerance;
	uint32_t srate_min;	/* symbols/s */
	uint32_t srate_max;
	uint32_t srate_tolerance;
	char name[VTP_NAME_MAX + 1];
};

struct vtp_tuner_list {
	uint16_t num;
	struct vtp_tuner tuner[VTP_MAX_TUNERS];
};

struct vtp_open_reply {
	uint16_t index;
	uint8_t token[VTP_TOKEN_LEN];	/* binds the data connection */
};

struct vtp_prop {
	uint32_t cmd;		/* DTV_* */
	uint32_t data;		/* dtv_property.u.data */
};

struct vtp_tune {
	uint32_t seq;		/* tune sequence number chosen by the client */
	uint16_t num;
	struct vtp_prop props[VTP_MAX_PROPS];
};

struct vtp_diseqc {
	uint8_t len;
	uint8_t msg[VTP_DISEQC_MAX];
};

struct vtp_pids {
	uint16_t num;
	uint16_t pid[VTP_MAX_PIDS];	/* 0..0x1fff or VTP_PID_FULL_TS */
};

struct vtp_stat {
	uint8_t scale;		/* enum fecap_scale_params */
	union {
		uint64_t uvalue;
		int64_t svalue;	/* FE_SCALE_DECIBEL */
	};
};

struct vtp_stats {
	uint8_t len;		/* valid layers, 0..VTP_MAX_STAT_LAYERS */
	struct vtp_stat stat[VTP_MAX_STAT_LAYERS];
};

enum vtp_stat_index {
	VTP_STAT_STRENGTH,
	VTP_STAT_CNR,
	VTP_STAT_PRE_BIT_ERROR,
	VTP_STAT_PRE_BIT_COUNT,
	VTP_STAT_POST_BIT_ERROR,
	VTP_STAT_POST_BIT_COUNT,
	VTP_STAT_BLOCK_ERROR,
	VTP_STAT_BLOCK_COUNT,
	VTP_NUM_STATS
};

struct vtp_status {
	uint32_t seq;		/* tune this status belongs to */
	uint32_t status;	/* enum fe_status */
	uint32_t ber;		/* DVBv3 */
	uint16_t signal;
	uint16_t snr;
	uint32_t ucblocks;
	struct vtp_stats stats[VTP_NUM_STATS];	/* enum vtp_stat_index */
};

struct vtp_attach {
	uint8_t token[VTP_TOKEN_LEN];
	bool has_mac;			/* appended: session with AUTH */
	uint8_t mac[VTP_MAC_LEN];
};

struct vtp_ts {
	uint32_t seq;		/* tune the packets belong to */
	const uint8_t *data;	/* points into the decoded buffer */
	size_t len;		/* multiple of VTP_TS_PACKET */
};

struct vtp_msg {
	struct vtp_hdr hdr;
	size_t frame_len;	/* VTP_HDR_LEN + hdr.len */
	union {
		struct vtp_hello hello;
		struct vtp_hello_reply hello_reply;
		struct vtp_auth auth;		/* AUTH, AUTH_REPLY */
		struct vtp_error error;
		uint64_t stamp;			/* KEEPALIVE(_REPLY) */
		struct vtp_tuner_list tuners;
		uint16_t index;			/* OPEN_TUNER */
		struct vtp_open_reply open_reply;
		struct vtp_tune tune;
		uint8_t value;			/* SET_TONE .. DISEQC_BURST */
		struct vtp_diseqc diseqc;
		struct vtp_pids pids;
		struct vtp_status status;
		struct vtp_attach attach;
		struct vtp_ts ts;
	} u;
};

/* ---- codec -------------------------------------------------------------- */

/*
 * The header alone: VTP_HDR_LEN, 0 if len is shorter, -EBADMSG or
 * -EMSGSIZE (above VTP_MAX_PAYLOAD, VTP_SEALED_MAX_PAYLOAD for SEALED).
 */
int vtp_decode_hdr(const uint8_t *buf, size_t len, struct vtp_hdr *hdr);
/* A header of payload_len bytes (SEALED's, by vtp_seal()). */
int vtp_encode_hdr(uint8_t *buf, size_t cap, uint16_t type,
		   uint32_t payload_len, uint32_t reqid);
int vtp_decode(const uint8_t *buf, size_t len, struct vtp_msg *out);

/* Encode any message from m->hdr.type, m->hdr.reqid and m->u. */
int vtp_encode(uint8_t *buf, size_t cap, const struct vtp_msg *m);

int vtp_encode_hello(uint8_t *buf, size_t cap, uint32_t reqid,
		     const struct vtp_hello *h);
int vtp_encode_hello_reply(uint8_t *buf, size_t cap, uint32_t reqid,
			   const struct vtp_hello_reply *h);
int vtp_encode_auth(uint8_t *buf, size_t cap, uint32_t reqid,
		    const struct vtp_auth *a);
int vtp_encode_auth_reply(uint8_t *buf, size_t cap, uint32_t reqid,
			  const struct vtp_auth *a);
int vtp_encode_ok(uint8_t *buf, size_t cap, uint32_t reqid);
int vtp_encode_error(uint8_t *buf, size_t cap, const struct vtp_error *e);
int vtp_encode_keepalive(uint8_t *buf, size_t cap, uint32_t reqid,
			 uint64_t stamp);
int vtp_encode_keepalive_reply(uint8_t *buf, size_t cap, uint32_t reqid,
			       uint64_t stamp);
int vtp_encode_list_tuners(uint8_t *buf, size_t cap, uint32_t reqid);
int vtp_encode_tuner_list(uint8_t *buf, size_t cap, uint32_t reqid,
			  const struct vtp_tuner_list *l);
int vtp_encode_open_tuner(uint8_t *buf, size_t cap, uint32_t reqid,
			  uint16_t index);
int vtp_encode_open_reply(uint8_t *buf, size_t cap, uint32_t reqid,
			  const struct vtp_open_reply *r);
int vtp_encode_close_tuner(uint8_t *buf, size_t cap, uint32_t reqid);
int vtp_encode_tune(uint8_t *buf, size_t cap, uint32_t reqid,
		    const struct vtp_tune *t);
int vtp_encode_set_tone(uint8_t *buf, size_t cap, uint32_t reqid,
			uint8_t tone);
int vtp_encode_set_voltage(uint8_t *buf, size_t cap, uint32_t reqid,
			   uint8_t voltage);
int vtp_encode_enable_high_voltage(uint8_t *buf, size_t cap, uint32_t reqid,
				   uint8_t on);
int vtp_encode_diseqc_master(uint8_t *buf, size_t cap, uint32_t reqid,
			     const struct vtp_diseqc *d);
int vtp_encode_diseqc_burst(uint8_t *buf, size_t cap, uint32_t reqid,
			    uint8_t burst);
int vtp_encode_set_pids(uint8_t *buf, size_t cap, uint32_t reqid,
			const struct vtp_pids *p);
int vtp_encode_status(uint8_t *buf, size_t cap, const struct vtp_status *s);
int vtp_encode_data_attach(uint8_t *buf, size_t cap, uint32_t reqid,
			   const struct vtp_attach *a);

/*
 * TS_DATA: vtp_encode_ts_hdr() writes only the VTP_TS_HDR_LEN bytes that
 * precede ts_len bytes of packets, so that the caller can send the packets
 * from its own buffer with writev; vtp_encode_ts() copies them.
 */
int vtp_encode_ts_hdr(uint8_t *buf, size_t cap, uint32_t seq, size_t ts_len);
int vtp_encode_ts(uint8_t *buf, size_t cap, uint32_t seq,
		  const uint8_t *data, size_t len);

/* ---- the message table (vtp.c), one entry per type ---------------------- */

struct vtp_msg_info {
	uint16_t type;		/* enum vtp_type */
	const char *name;	/* "SET_PIDS" */
	bool request;		/* answered with its reply, OK or ERROR */
};

/* The entry of type, NULL if this implementation does not know it. */
const struct vtp_msg_info *vtp_msg_info(uint16_t type);
/* A request: the receiver answers it (false for an unknown type). */
bool vtp_is_request(uint16_t type);
/* Name of a message type for logs ("?" if unknown). */
const char *vtp_type_name(uint16_t type);

/*
 * Version choice of a server: the highest version in both
 * [client_min, client_max] and [VTP_VERSION_MIN, VTP_VERSION_MAX],
 * or 0 if the ranges do not overlap.
 */
uint16_t vtp_choose_version(uint16_t client_min, uint16_t client_max);

#endif /* VTP_H */
