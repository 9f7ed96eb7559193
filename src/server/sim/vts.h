/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vts - the simulated tuner of vtunerd: a world of transponders, the
 * frontend logic that locks on them and a transport stream generator.
 * Everything here is pure (no clocks, no sockets): the caller passes the
 * time in and paces the packets.  See docs/sim.md.
 *
 * Units: satellite frequencies are RF in kHz (11362000), terrestrial and
 * cable frequencies in Hz; symbol rates in symbols/s; bit rates in bits/s
 * of whole 188-byte TS packets.
 *
 * Config file format (vts_world_load), one statement a line:
 *
 *	# comment (also after a value: "key = value  # comment")
 *	[transponder NAME]	starts a transponder (NAME: unique, <64 chars)
 *	key = value		sets a key of the current section
 *	[service NAME]		adds a service to the last transponder
 *
 * transponder keys (* required):
 *	delsys*		DVBS DVBS2 DVBT DVBT2 DVBC
 *	frequency*	a plain number is RF kHz for sat, Hz for the others;
 *			with a "MHz" or "kHz" suffix it is what it says
 *	polarisation	H or V (sat, default H)
 *	position	DiSEqC position 0..3 (sat, default 0)
 *	symbol_rate	symbols/s (sat*, cable*)
 *	modulation	QPSK 8PSK 16APSK 32APSK QAM16 QAM32 QAM64 QAM128 QAM256
 *	fec		1/2 2/3 3/4 3/5 4/5 5/6 6/7 7/8 8/9 9/10 AUTO
 *	rolloff		35 25 20 (DVB-S2; DVB-S is always 35)
 *	bandwidth	Hz (terrestrial, default 8000000)
 *	plp		PLP id 0..255 (DVB-T2, default 0)
 *	ts_id*, network_id (default 1), network_name, orbit (e.g. 19.2E)
 *	bitrate*	nominal TS bit rate; the services' rates (video_bitrate
 *			+ 219334 for the audio PID) may use 97% of it
 *	signal		signal strength, dBm (default -45)
 *	cnr		carrier to noise ratio, dB (default 12.5)
 *	ts_file		a TS file played in a loop at its own bit rate (from
 *			its PCRs, else "bitrate") instead of generated content;
 *			relative paths are relative to the config file
 * service keys: id*, provider, type (tv, radio; default tv), pmt_pid*,
 *	video_pid (tv*), audio_pid*, video_bitrate (tv, default 3000000)
 *
 * Numbers may be decimal or 0x hex.  Errors are reported as
 * "FILE:LINE: message 'bad value'".
 */
#ifndef VTS_H
#define VTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <linux/dvb/frontend.h>

#include "common/dvb.h"

#define VTS_NAME_MAX		64
#define VTS_PATH_MAX		256
#define VTS_MAX_SERVICES	16
#define VTS_TS_SIZE		188
#define VTS_MAX_POSITIONS	4

/* LNB model: universal LNB */
#define VTS_LOF_LOW_KHZ		9750000
#define VTS_LOF_HIGH_KHZ	10600000
#define VTS_BAND_SPLIT_KHZ	11700000

enum vts_polarisation { VTS_POL_H, VTS_POL_V };
/* DVB service_type values (EN 300 468, table 87) */
enum vts_service_type { VTS_SVC_TV = 0x01, VTS_SVC_RADIO = 0x02 };

struct vts_service {
	uint16_t id;
	char name[VTS_NAME_MAX];
	char provider[VTS_NAME_MAX];
	enum vts_service_type type;
	uint16_t pmt_pid;
	uint16_t video_pid;		/* 0 for radio */
	uint16_t audio_pid;
	uint32_t video_bitrate;		/* TS rate of the video PID */
};

struct vts_transponder {
	char name[VTS_NAME_MAX];
	enum fe_delivery_system delsys;
	uint32_t frequency;		/* sat: RF kHz; others: Hz */
	enum vts_polarisation pol;	/* sat */
	unsigned int position;		/* sat: DiSEqC position */
	uint32_t symbol_rate;		/* sat, cable */
	enum fe_modulation modulation;
	enum fe_code_rate fec;
	enum fe_rolloff rolloff;	/* DVB-S2 */
	uint32_t bandwidth_hz;		/* terrestrial */
	uint32_t plp;			/* DVB-T2 */
	uint16_t ts_id;
	uint16_t network_id;		/* also original_network_id */
	char network_name[VTS_NAME_MAX];
	uint16_t orbit;			/* sat: tenths of a degree */
	bool west;
	uint32_t bitrate;
	int32_t signal_mdbm;		/* 0.001 dBm */
	int32_t cnr_mdb;		/* 0.001 dB */
	char ts_file[VTS_PATH_MAX];	/* "" = generated content */
	size_t nservices;
	struct vts_service services[VTS_MAX_SERVICES];
};

struct vts_world {
	struct vts_transponder *tp;
	size_t ntp;
	size_t cap;
};

/* ---- world (world.c) ---- */
void vts_world_init(struct vts_world *w);
void vts_world_free(struct vts_world *w);
/* The built-in world: 3 satellite, 3 terrestrial, 1 cable; 0 or -ENOMEM. */
int vts_world_default(struct vts_world *w);
/* Adds the transponders of a config file; 0 or -1 with a message in err. */
int vts_world_load(struct vts_world *w, const char *path,
		   char *err, size_t errlen);
const struct vts_transponder *vts_world_find(const struct vts_world *w,
					     const char *name);
/* Checks one transponder; 0 or -1 with a message in err. */
int vts_transponder_check(const struct vts_transponder *tp,
			  char *err, size_t errlen);
/* The systems the simulator has: DVB-S/S2, DVB-T/T2, DVB-C (annex A). */
bool vts_delsys_supported(enum fe_delivery_system d);
/* One of them by any name vt_delsys_parse() takes; 0 or -1. */
int vts_delsys_parse(const char *name, enum fe_delivery_system *d);

/* ---- frontend (frontend.c) ---- */
struct vts_frontend {
	enum fe_sec_tone_mode tone;
	enum fe_sec_voltage voltage;
	bool high_voltage;
	unsigned int position;		/* DiSEqC position 0..3 */
	uint8_t committed;		/* low nibble of the last 0x38 command */
	const struct vts_transponder *locked;
	uint64_t lock_ns;
	uint32_t rng;
};

struct vts_tune_params {
	enum fe_delivery_system delsys;
	uint32_t frequency;		/* sat: IF kHz; others: Hz */
	uint32_t symbol_rate;
	enum fe_modulation modulation;
	enum fe_code_rate fec;
	enum fe_rolloff rolloff;
	enum fe_pilot pilot;
	uint32_t stream_id;
	uint32_t bandwidth_hz;		/* 0 = auto */
	enum fe_spectral_inversion inversion;
};

struct vts_fe_stats {
	enum fe_status status;
	int64_t strength_mdbm;		/* FE_SCALE_DECIBEL */
	int64_t cnr_mdb;		/* FE_SCALE_DECIBEL; 0 if no lock */
	uint64_t pre_err, pre_total;	/* bit counters before the outer FEC */
	uint64_t post_err, post_total;	/* after it */
	uint64_t blk_err, blk_total;	/* TS packets */
};

void vts_fe_init(struct vts_frontend *fe);
void vts_tune_params_init(struct vts_tune_params *p);
int vts_fe_set_tone(struct vts_frontend *fe, enum fe_sec_tone_mode tone);
int vts_fe_set_voltage(struct vts_frontend *fe, enum fe_sec_voltage v);
int vts_fe_enable_high_voltage(struct vts_frontend *fe, bool on);
int vts_fe_diseqc(struct vts_frontend *fe, const uint8_t *msg, size_t len);
int vts_fe_burst(struct vts_frontend *fe, enum fe_sec_mini_cmd burst);
const struct vts_transponder *vts_fe_tune(struct vts_frontend *fe,
					  const struct vts_world *w,
					  const struct vts_tune_params *p,
					  uint64_t now_ns);
void vts_fe_stats(struct vts_frontend *fe, uint64_t now_ns,
		  struct vts_fe_stats *st);

/* ---- SI helpers (si.c) ---- */
uint32_t vts_crc32(const uint8_t *data, size_t len);
uint32_t vts_bcd(uint32_t value, unsigned int digits);
uint16_t vts_mjd(time_t utc);
/* 40-bit UTC_time of EN 300 468: MJD (16) and hhmmss BCD (24) */
uint64_t vts_dvb_time(time_t utc);
/* 24-bit duration hhmmss BCD */
uint32_t vts_dvb_duration(unsigned int seconds);
/* Delivery system descriptor of a transponder into d; its length or 0 */
size_t vts_delivery_descriptor(const struct vts_transponder *tp,
			       uint8_t *d, size_t size);

/* ---- TS generator (mux.c) ---- */
struct vts_mux;

/*
 * A generator of tp's transport stream.  utc is the wall clock time of
 * the first packet (TDT/TOT and EIT follow the stream's own clock),
 * start_ns the caller's monotonic time of the first packet.
 */
struct vts_mux *vts_mux_new(const struct vts_transponder *tp, time_t utc,
			    uint64_t start_ns, char *err, size_t errlen);
void vts_mux_free(struct vts_mux *m);
/*
 * Reads every ts_file of w into memory now (one image a path), so that
 * no tune has to: a server calls it at startup, where reading the file
 * would otherwise stall every stream of its event loop, and a bad file
 * is a startup error.  The images stay until vts_mux_unload_files(w).
 * 0, or -1 with "transponder NAME: PATH: why" in err and nothing loaded.
 */
int vts_mux_load_files(const struct vts_world *w, char *err, size_t errlen);
void vts_mux_unload_files(const struct vts_world *w);
/* Writes the next npkts packets to buf (npkts * 188 bytes). */
void vts_mux_fill(struct vts_mux *m, uint8_t *buf, size_t npkts);
/* Packets due at now_ns and not yet produced by vts_mux_fill. */
uint64_t vts_mux_due(const struct vts_mux *m, uint64_t now_ns);
/*
 * Limits the backlog to max packets: what is due beyond that is lost, as
 * in a receiver whose buffer overflows (a gap in the stream, which the
 * continuity counters show).  A file's position moves on by the packets
 * lost; a generated mux produces and drops at most VTS_SKIP_GENERATED of
 * them and its clock moves on by the duration of the rest.  Returns the
 * number of packets lost.
 */
#define VTS_SKIP_GENERATED	4096
uint64_t vts_mux_limit_backlog(struct vts_mux *m, uint64_t now_ns,
			       uint64_t max);
uint32_t vts_mux_bitrate(const struct vts_mux *m);
uint64_t vts_mux_packets(const struct vts_mux *m);

#endif /* VTS_H */
