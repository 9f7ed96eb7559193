/* SPDX-License-Identifier: GPL-2.0 */
/*
 * desc.h - the texts a SAT>IP server publishes besides RTSP: the
 * X_SATIPCAP string of its tuners, the UPnP device description
 * (desc.xml), the M3U channel list and a stable UUID for its UDN.
 *
 * And a client's side (discover.c): the description read back, and the
 * SSDP messages servers send (UPnP Device Architecture 1.1 section 1).
 *
 * Pure functions: no I/O, no state, nothing of vtunerd's headers, so
 * that the tests link them alone.  Every writer fills buf (len bytes,
 * always NUL-terminated when len > 0) and returns the length of the
 * text, or -ENOSPC when it does not fit (buf then holds no useful text),
 * or -EINVAL for arguments it refuses.  The readers copy every string
 * into fixed arrays, NUL-terminated, control characters dropped.
 */
#ifndef SATIP_DESC_H
#define SATIP_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SATIP_DEVICE_TYPE	"urn:ses-com:device:SatIPServer:1"
#define SATIP_NS		"urn:ses-com:satip"

/*
 * The SAT>IP frontend types, in the order X_SATIPCAP lists them.
 * SATIP_NONE: a tuner SAT>IP cannot serve (ATSC, ISDB, DVB-C annex B...).
 */
enum satip_type {
	SATIP_DVBS2,
	SATIP_DVBT,
	SATIP_DVBT2,
	SATIP_DVBC,
	SATIP_DVBC2,
	SATIP_NTYPES,
	SATIP_NONE = -1,
};

/* "DVBS2", "DVBT"...; NULL for SATIP_NONE or anything else. */
const char *satip_type_name(int type);

/* One tuner: its delivery systems (enum fe_delivery_system values). */
struct satip_tuner_caps {
	const uint8_t *delsys;
	unsigned int num;
};

/*
 * The type a tuner is counted under: each tuner once, under the first
 * of these it can do:
 *   DVBS2  SYS_DVBS2 or SYS_DVBS (satellite: DVB-S alone is served
 *          with msys=dvbs, SAT>IP has no type of its own for it)
 *   DVBT2  SYS_DVBT2
 *   DVBT   SYS_DVBT
 *   DVBC2  DVB-C2 (no Linux delivery system names it: never, today)
 *   DVBC   SYS_DVBC_ANNEX_A or SYS_DVBC_ANNEX_C
 * so that the counts add up to the number of frontends a client may use
 * at once (a combined S2/T2/C demodulator is one DVBS2 tuner).
 * SATIP_NONE for a tuner of none of these systems.
 */
int satip_tuner_type(const uint8_t *delsys, unsigned int num);

/*
 * X_SATIPCAP of n tuners: "DVBS2-2,DVBT-1,DVBC-1", the types in the
 * order of enum satip_type, those with no tuner left out; "" (0) when no
 * tuner is of a SAT>IP type.
 */
int satip_caps(char *buf, size_t len, const struct satip_tuner_caps *t,
	       unsigned int n);

/* The contents of desc.xml; NULL strings are optional elements left out. */
struct satip_desc {
	const char *friendly_name;	/* required; escaped, controls dropped */
	const char *manufacturer;	/* NULL: "vtuner" */
	const char *manufacturer_url;
	const char *model_description;
	const char *model_number;	/* the version; NULL: left out */
	const char *serial_number;
	const char *uuid;		/* required: 36 characters, no "uuid:" */
	const char *presentation_url;
	const char *caps;		/* X_SATIPCAP; NULL or "": left out */
	const char *m3u_url;		/* X_SATIPM3U; NULL: left out */
	unsigned int config_id;		/* root configId = CONFIGID.UPNP.ORG */
};

/*
 * The UPnP 1.1 device description of a SAT>IP server (deviceType
 * SATIP_DEVICE_TYPE, modelName "vtunerd", UDN uuid:UUID).  Every string
 * is XML-escaped; control characters are dropped.
 */
int satip_desc_xml(char *buf, size_t len, const struct satip_desc *d);

/*
 * A CONFIGID.UPNP.ORG value (0..16777215) for d: a hash of every field
 * but config_id, so that it changes when the description does.
 */
unsigned int satip_config_id(const struct satip_desc *d);

/* One channel of the M3U list. */
struct satip_m3u_entry {
	const char *name;		/* controls dropped */
	/*
	 * The tuning part of the RTSP query, "src=1&freq=11494&pol=h&...",
	 * without pids: bytes outside [A-Za-z0-9&=.,_~:/-] are
	 * percent-encoded.
	 */
	const char *query;
	const uint16_t *pids;		/* 0..8191; npids 0: pids=all */
	unsigned int npids;
};

/*
 * #EXTM3U, then "#EXTINF:0,NAME" and
 * "rtsp://HOST:PORT/?QUERY&pids=P,P..." per entry (lines end in \r\n;
 * an IPv6 HOST is put in brackets).  -EINVAL for a PID above 8191, an
 * empty host or a host with bytes a URL cannot carry.
 */
int satip_m3u(char *buf, size_t len, const char *host, uint16_t port,
	      const struct satip_m3u_entry *e, unsigned int n);

/*
 * A name-based UUID of seed (e.g. "HOSTNAME:PORT"), the same for the
 * same seed on every run and host: BLAKE2b (libsodium's
 * crypto_generichash) of a fixed namespace and seed, cut to 128 bits,
 * version 8 (RFC 9562's custom version: v5 is SHA-1 by definition) and
 * the RFC 4122 variant.  out gets 36 lower-case characters and a NUL.
 * 0, or -EINVAL for a NULL seed.
 */
int satip_uuid_from(const char *seed, char out[37]);

/* ---- a client's side (discover.c) -------------------------------------- */

struct satip_server_info {
	char device_type[128];
	char friendly_name[128];
	char manufacturer[128];
	char model_name[128];
	char model_number[64];
	char udn[128];			/* "uuid:..." */
	/* tuners per enum satip_type; DVBS is counted as DVBS2 */
	unsigned int frontends[SATIP_NTYPES];
	char caps[128];			/* the X_SATIPCAP text, "" */
	char m3u[256];			/* X_SATIPM3U, "" */
};

/*
 * Tolerant scan of a UPnP device description (len bytes, no NUL needed):
 * the first element of each name counts, whatever its depth or namespace
 * prefix (satip:X_SATIPCAP); its text up to the next tag, white space
 * trimmed, the XML entities &amp; &lt; &gt; &quot; &apos; and &#N; &#xN;
 * decoded, cut short to fit (never inside a UTF-8 sequence).  Comments,
 * CDATA and processing instructions are skipped.  frontends counts
 * X_SATIPCAP's "DVBS2-2,DVBT-1" (unknown types ignored; none given: all
 * 0, the caller decides).  Returns 0, or -EINVAL if it is not a SAT>IP
 * device (no X_SATIPCAP and no deviceType urn:ses-com:device:SatIPServer:N).
 */
int satip_desc_parse(const char *xml, size_t len, struct satip_server_info *out);

struct satip_ssdp_msg {
	bool response;		/* HTTP/1.1 200 OK to an M-SEARCH, else NOTIFY */
	bool byebye;		/* NTS: ssdp:byebye */
	bool satip;		/* ST / NT urn:ses-com:device:SatIPServer:N */
	char location[256];	/* LOCATION, "" (also when longer) */
	char usn[256];		/* USN, "" (also when longer) */
	int bootid;		/* BOOTID.UPNP.ORG, -1 absent */
	int configid;		/* CONFIGID.UPNP.ORG, -1 absent */
	int deviceid;		/* DEVICEID.SES.COM, -1 absent */
	unsigned int max_age;	/* CACHE-CONTROL max-age (s), 0 absent */
	unsigned int rtsp_port;	/* X-SATIP-RTSP-Port, 0 absent (554) */
};

/*
 * One SSDP datagram (len bytes): a NOTIFY (ssdp:alive, ssdp:byebye; one
 * without NTS counts as alive) or an answer to an M-SEARCH.  Header names
 * in any case, the first of each counting; lines end in CRLF or LF.
 * Numbers that do not parse (or BOOTID/CONFIGID above 2^31 - 1, a
 * DEVICEID outside 1..255) are as if absent.  Returns 0, or -EINVAL: not
 * an SSDP NOTIFY or response (an M-SEARCH, another status, a NUL in the
 * datagram).
 */
int satip_ssdp_parse(const char *buf, size_t len, struct satip_ssdp_msg *m);

#endif /* SATIP_DESC_H */
