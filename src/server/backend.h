/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backend.h - the tuners of vtunerd behind one interface
 *
 * A backend ("dvb": a real frontend with its demux and dvr devices, "sim":
 * the simulated tuner of src/server/sim/) creates struct vtd_tuner
 * objects at startup.  The server opens a tuner for one session at a
 * time, forwards the frontend requests of the protocol to its ops, polls
 * its status and reads its TS when the descriptor of get_fd() becomes
 * readable.
 *
 * All ops return 0 (or a byte count) on success and a negative errno on
 * failure; the errno goes to the client in an ERROR reply.
 */
#ifndef VTD_BACKEND_H
#define VTD_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/clock.h"
#include "common/dvb.h"
#include "proto/vtp.h"
#include "server/event.h"

struct vtd_tuner;

struct vtd_backend_ops {
	/* Acquire the devices; the tuner is then used by one session. */
	int (*open)(struct vtd_tuner *t);
	/* Release them (stop the TS, close the descriptors). */
	void (*close)(struct vtd_tuner *t);
	/*
	 * Apply one tune: the properties of a TUNE message, in order.
	 * DTV_CLEAR and DTV_TUNE in the list are the backend's business
	 * (the dvb backend always sends DTV_CLEAR first and DTV_TUNE last).
	 */
	int (*tune)(struct vtd_tuner *t, const struct vtp_prop *props,
		    unsigned int num);
	int (*set_tone)(struct vtd_tuner *t, unsigned int tone);
	int (*set_voltage)(struct vtd_tuner *t, unsigned int voltage);
	int (*enable_high_voltage)(struct vtd_tuner *t, unsigned int on);
	int (*diseqc_master)(struct vtd_tuner *t, const uint8_t *msg,
			     size_t len);
	int (*diseqc_burst)(struct vtd_tuner *t, unsigned int burst);
	/*
	 * The complete PID set, sorted and without duplicates;
	 * VTP_PID_FULL_TS (0x2000) means the whole TS.  On failure, missing
	 * (missing_len bytes) says which PIDs are not delivered ("PIDs 256
	 * 257"); those that could be kept run on.
	 */
	int (*set_pids)(struct vtd_tuner *t, const uint16_t *pids,
			size_t num, char *missing, size_t missing_len);
	/*
	 * Frontend status into st (seq is the caller's).  full: also the
	 * DVBv5 statistics and the DVBv3 reads; otherwise only st->status
	 * is meaningful (a cheap poll for changes).
	 */
	int (*read_status)(struct vtd_tuner *t, struct vtp_status *st,
			   bool full);
	/* Descriptor that becomes readable when read_ts has data, or -1. */
	int (*get_fd)(struct vtd_tuner *t);
	/*
	 * Non-blocking: whole TS packets into buf (max is a multiple of
	 * 188), their byte count, or -EAGAIN when nothing is available.
	 */
	ssize_t (*read_ts)(struct vtd_tuner *t, uint8_t *buf, size_t max);
	/* Forget the TS buffered before a retune (may be NULL). */
	void (*flush_ts)(struct vtd_tuner *t);
	/* Free the backend state (the tuner is closed). */
	void (*destroy)(struct vtd_tuner *t);
};

struct vtd_session;

/*
 * The transponder a tuner is on, as far as sharing it goes: the
 * delivery system, the frequency (kHz for satellite, the IF; Hz
 * otherwise), the symbol rate, the stream id, and for satellite the SEC
 * that selects the LNB's band and polarisation and the switch position.
 */
struct vtd_tuning {
	bool valid;
	uint32_t delsys, freq, sr, stream_id;
	uint32_t voltage, tone;
	uint8_t diseqc_len;
	uint8_t diseqc[VTP_DISEQC_MAX];
};

struct vtd_tuner {
	const struct vtd_backend_ops *ops;
	void *priv;
	const char *backend;		/* "dvb", "sim" */
	char where[64];			/* "adapter0/frontend0", "sim0" */
	/* name, delsys, caps and limits; index and flags set by the server */
	struct vtp_tuner info;
	struct vtd_session *owner;	/* NULL: free */
	uint64_t overflows;		/* demux buffer overflows (dvb) */

	/*
	 * What the server last applied (share.c): the SEC state, and the
	 * tuning made of it and the last tune's properties.
	 */
	struct vtd_tuning sec;		/* voltage, tone, diseqc */
	struct vtd_tuning tuning;
	uint32_t tune_gen;		/* + 1 a tune, whoever made it */

	/* shared by streams (share.h): none while owned by a session */
	struct vtd_stream *streams;
	unsigned int nstreams;
	struct vtd_ev share_ev;		/* EV_SHARE: its TS */
	uint16_t *pidref;		/* streams per PID, 0..0x2000 */
	struct vtp_status status;	/* the last poll */
	uint64_t status_ns;		/* when; 0: never */
	uint64_t share_packets;		/* read since it was opened */
};

/* Tuner table of the server (backends append to it). */
#define VTD_MAX_TUNERS	VTP_MAX_TUNERS

struct vtd_tuners {
	struct vtd_tuner *t[VTD_MAX_TUNERS];
	unsigned int num;
};

/* Adds t or fails with -ENOSPC. */
int vtd_tuners_add(struct vtd_tuners *ts, struct vtd_tuner *t);
void vtd_tuners_free(struct vtd_tuners *ts);

/* dvb backend: probes /dev/dvb/adapterA/frontendF; 0 or -errno (logged). */
int vtd_dvb_add(struct vtd_tuners *ts, unsigned int adapter,
		unsigned int frontend);

/* sim backend */
struct vtd_sim_config {
	unsigned int tuners;		/* number of simulated tuners */
	const char *config;		/* extra transponders, or NULL */
	bool tuners_only;		/* no TS served: ts_files not read */
	unsigned int ndelsys;		/* 0: every system the sim has */
	uint8_t delsys[VTP_MAX_DELSYS];	/* the tuners' systems, default first */
};

/* 0, or -1 after logging the error. */
int vtd_sim_add(struct vtd_tuners *ts, const struct vtd_sim_config *cfg);
/*
 * --check: the sim world (cfg->config and every ts_file of it) as
 * vtd_sim_add builds it; 0, or -1 with the message in err.  Adds no tuner.
 */
int vtd_sim_check(const struct vtd_sim_config *cfg, char *err, size_t errlen);
/*
 * --sim-delsys: the comma-separated delivery systems of the simulated
 * tuners, the first the one they start with; 0, or -1 with the message
 * in err.
 */
int vtd_sim_set_delsys(struct vtd_sim_config *cfg, const char *list,
		       char *err, size_t errlen);
/*
 * A service the tuners can receive, for the SAT>IP channel list (the
 * sim's world, or a channel file): its transponder (satellite: RF
 * frequency in kHz; others: Hz; enum fe_* values) and its PIDs.
 */
struct vtd_service {
	const char *name;
	uint32_t delsys, frequency, symbol_rate, modulation, fec, rolloff;
	uint32_t bandwidth_hz, plp;
	bool horizontal;		/* satellite */
	unsigned int position;		/* satellite: DiSEqC position, 0.. */
	uint16_t pids[4];		/* PMT, video (0: radio), audio */
	unsigned int npids;
};
/* Call cb for every service of the sim's world; how many (0: no sim). */
size_t vtd_sim_services(void (*cb)(void *ctx, const struct vtd_service *s),
			void *ctx);

/* Whether the sim backend was built in. */
bool vtd_sim_available(void);

#endif /* VTD_BACKEND_H */
