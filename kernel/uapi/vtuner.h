/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vtuner.h - control ABI of the vtunerc virtual DVB adapter driver
 *
 * The classic part of this header is binary compatible with the vtuner.h
 * posted with the original vtunerc driver in 2011: same ioctl numbers
 * (including their encoding of a pointer size), the same struct
 * vtuner_message layout and the same MSG_* and VT_* values.  A client
 * built against that header works unmodified.
 *
 * The extension (VTUNER_EXT_*) is negotiated with VTUNER_EXT_HELLO; a
 * client that never calls it sees exactly the classic behaviour.  It only
 * carries existing DVB uAPI values: DTV_* property commands with their
 * values, enum fe_status, enum fe_delivery_system and struct dtv_fe_stats.
 *
 * See docs/abi.md for the full description of every call.
 */
#ifndef _UAPI_VTUNER_H_
#define _UAPI_VTUNER_H_

#include <linux/types.h>
#include <linux/ioctl.h>
#include <linux/dvb/frontend.h>

/* ---- classic ABI ------------------------------------------------------ */

#define VT_S	0x01
#define VT_C	0x02
#define VT_T	0x04
#define VT_S2	0x08

#define MSG_SET_FRONTEND		1
#define MSG_GET_FRONTEND		2
#define MSG_READ_STATUS			3
#define MSG_READ_BER			4
#define MSG_READ_SIGNAL_STRENGTH	5
#define MSG_READ_SNR			6
#define MSG_READ_UCBLOCKS		7
#define MSG_SET_TONE			8
#define MSG_SET_VOLTAGE			9
#define MSG_ENABLE_HIGH_VOLTAGE		10
#define MSG_SEND_DISEQC_MSG		11
#define MSG_SEND_DISEQC_BURST		13
#define MSG_PIDLIST			14
#define MSG_TYPE_CHANGED		15
#define MSG_SET_PROPERTY		16
#define MSG_GET_PROPERTY		17

#define MSG_NULL			1024
#define MSG_DISCOVER			1025
#define MSG_UPDATE			1026

/* Number of entries of body.pidlist; unused entries are 0xffff. */
#define VTUNER_CLASSIC_PIDS		30
#define VTUNER_PID_NONE			0xffff
/* Pseudo PID asking for the whole transport stream (as in dmx.h). */
#define VTUNER_PID_FULL_TS		0x2000

/* DVB-S2 parameters packed into the DVBv3 layout (MSG_SET_FRONTEND). */
#define VTUNER_S2_FEC_BASE		9	/* fec_inner >= 9: DVB-S2 */
#define VTUNER_S2_FEC_8PSK		9	/* added for 8PSK */
#define VTUNER_S2_ROLLOFF_20		0x08	/* or-ed into inversion */
#define VTUNER_S2_ROLLOFF_25		0x04
#define VTUNER_S2_PILOT_ON		0x10
#define VTUNER_S2_PILOT_AUTO		0x20

/*
 * The classic header declared its own struct diseqc_master_cmd (6 message
 * bytes, no padding); renamed here so that this header can be included
 * together with <linux/dvb/frontend.h>.
 */
struct vtuner_diseqc_cmd {
	__u8 msg[6];
	__u8 msg_len;
};

struct vtuner_message {
	__s32 type;
	union {
		struct {
			__u32 frequency;
			__u8 inversion;
			union {
				struct {
					__u32 symbol_rate;
					__u32 fec_inner;
				} qpsk;
				struct {
					__u32 symbol_rate;
					__u32 fec_inner;
					__u32 modulation;
				} qam;
				struct {
					__u32 bandwidth;
					__u32 code_rate_HP;
					__u32 code_rate_LP;
					__u32 constellation;
					__u32 transmission_mode;
					__u32 guard_interval;
					__u32 hierarchy_information;
				} ofdm;
				struct {
					__u32 modulation;
				} vsb;
			} u;
		} fe_params;
		struct dtv_property prop;
		__u32 status;
		__u32 ber;
		__u16 ss;
		__u16 snr;
		__u32 ucb;
		__u8 tone;
		__u8 voltage;
		struct vtuner_diseqc_cmd diseqc_master_cmd;
		__u8 burst;
		__u16 pidlist[VTUNER_CLASSIC_PIDS];
		__u8 pad[72];
		__u32 type_changed;
	} body;
};

/*
 * struct dtv_property holds a pointer, so the message is 80 bytes for a
 * 64-bit client and 76 bytes for a 32-bit one; all field offsets agree.
 */
#define VTUNER_MSG_LEN		sizeof(struct vtuner_message)
#define VTUNER_MSG_LEN_32	76

#define VTUNER_MAJOR		226

/* The classic numbers encode the size of a pointer, not of the data. */
#define VTUNER_GET_MESSAGE	_IOR(VTUNER_MAJOR, 1, struct vtuner_message *)
#define VTUNER_SET_RESPONSE	_IOW(VTUNER_MAJOR, 2, struct vtuner_message *)
#define VTUNER_SET_NAME		_IOW(VTUNER_MAJOR, 3, char *)
#define VTUNER_SET_TYPE		_IOW(VTUNER_MAJOR, 4, char *)
#define VTUNER_SET_HAS_OUTPUTS	_IOW(VTUNER_MAJOR, 5, char *)
#define VTUNER_SET_FE_INFO	_IOW(VTUNER_MAJOR, 6, struct dvb_frontend_info *)
#define VTUNER_SET_NUM_MODES	_IOW(VTUNER_MAJOR, 7, int)
#define VTUNER_SET_MODES	_IOW(VTUNER_MAJOR, 8, char *)

/* Limits of the string arguments (terminating NUL included). */
#define VTUNER_NAME_LEN		128	/* as dvb_frontend_info.name */
#define VTUNER_TYPE_LEN		32	/* one SET_TYPE / SET_MODES entry */
#define VTUNER_MAX_MODES	8	/* as dvb-core's MAX_DELSYS */

/* ---- extension ABI ---------------------------------------------------- */

#define VTUNER_ABI_VERSION	1

/*
 * MSG_SET_FRONTEND: fetch the full DVBv5 parameters with EXT_GET_TUNE;
 * MSG_GET_FRONTEND is answered by the driver from those parameters.
 */
#define VTUNER_FEAT_PROPS	(1U << 0)
/*
 * Status and statistics are pushed with EXT_SET_STATUS; MSG_READ_* are
 * never sent and all status reads are answered from that cache.
 */
#define VTUNER_FEAT_STATUS	(1U << 1)
/* MSG_PIDLIST: fetch the whole PID set (up to 256) with EXT_GET_PIDS. */
#define VTUNER_FEAT_PIDS	(1U << 2)
#define VTUNER_FEAT_ALL		(VTUNER_FEAT_PROPS | VTUNER_FEAT_STATUS | \
				 VTUNER_FEAT_PIDS)

struct vtuner_ext_hello {
	__u32 version;		/* in: client's version; out: driver's */
	__u32 features;		/* in: wanted; out: granted */
	__u32 max_props;	/* out: VTUNER_EXT_MAX_PROPS */
	__u32 max_pids;		/* out: VTUNER_EXT_MAX_PIDS */
	__u32 reserved[4];	/* in: zero */
};

/* One DVBv5 property: a DTV_* command and its u.data value. */
struct vtuner_ext_prop {
	__u32 cmd;
	__u32 data;
};

#define VTUNER_EXT_MAX_PROPS	64	/* as DTV_IOCTL_MAX_MSGS */

struct vtuner_ext_tune {
	__u32 seq;		/* out: tune number, increases by one */
	__u32 num;		/* out: valid entries of props */
	struct vtuner_ext_prop props[VTUNER_EXT_MAX_PROPS];
};

struct vtuner_ext_status {
	__u32 status;		/* enum fe_status */
	__u32 ber;		/* DVBv3 FE_READ_BER */
	__u16 signal;		/* DVBv3 FE_READ_SIGNAL_STRENGTH */
	__u16 snr;		/* DVBv3 FE_READ_SNR */
	__u32 ucblocks;		/* DVBv3 FE_READ_UNCORRECTED_BLOCKS */
	__u32 tune_seq;		/* vtuner_ext_tune.seq described, 0: any */
	struct dtv_fe_stats strength;		/* DTV_STAT_SIGNAL_STRENGTH */
	struct dtv_fe_stats cnr;		/* DTV_STAT_CNR */
	struct dtv_fe_stats pre_bit_error;	/* DTV_STAT_PRE_ERROR_BIT_COUNT */
	struct dtv_fe_stats pre_bit_count;	/* DTV_STAT_PRE_TOTAL_BIT_COUNT */
	struct dtv_fe_stats post_bit_error;	/* DTV_STAT_POST_ERROR_BIT_COUNT */
	struct dtv_fe_stats post_bit_count;	/* DTV_STAT_POST_TOTAL_BIT_COUNT */
	struct dtv_fe_stats block_error;	/* DTV_STAT_ERROR_BLOCK_COUNT */
	struct dtv_fe_stats block_count;	/* DTV_STAT_TOTAL_BLOCK_COUNT */
};

#define VTUNER_EXT_MAX_DELSYS	8	/* as dvb-core's MAX_DELSYS */

struct vtuner_ext_delsys {
	__u32 num;		/* entries of delsys, 1..VTUNER_EXT_MAX_DELSYS */
	__u32 reserved;		/* zero */
	__u8 delsys[VTUNER_EXT_MAX_DELSYS];	/* enum fe_delivery_system */
};

#define VTUNER_EXT_MAX_PIDS	256

struct vtuner_ext_pids {
	__u32 seq;		/* out: increases with every change */
	__u32 num;		/* out: valid entries of pids */
	__u16 pids[VTUNER_EXT_MAX_PIDS];	/* 0x2000: full TS */
};

/* Counters of the TS written into the control device (also in /proc). */
struct vtuner_ext_counters {
	__u64 bytes;		/* accepted by write() */
	__u64 packets;		/* complete packets fed to the demux */
	__u64 sync_errors;	/* times the sync byte was lost */
	__u64 dropped_bytes;	/* bytes skipped while resynchronising */
	__u64 sessions;		/* control-device opens */
	__u64 timeouts;		/* exchanges that timed out */
	__u64 reserved[2];
};

#define VTUNER_EXT_HELLO	_IOWR(VTUNER_MAJOR, 32, struct vtuner_ext_hello)
#define VTUNER_EXT_GET_TUNE	_IOR(VTUNER_MAJOR, 33, struct vtuner_ext_tune)
#define VTUNER_EXT_SET_STATUS	_IOW(VTUNER_MAJOR, 34, struct vtuner_ext_status)
#define VTUNER_EXT_SET_DELSYS	_IOW(VTUNER_MAJOR, 35, struct vtuner_ext_delsys)
#define VTUNER_EXT_GET_PIDS	_IOR(VTUNER_MAJOR, 36, struct vtuner_ext_pids)
#define VTUNER_EXT_GET_COUNTERS	_IOR(VTUNER_MAJOR, 37, struct vtuner_ext_counters)

#endif /* _UAPI_VTUNER_H_ */
