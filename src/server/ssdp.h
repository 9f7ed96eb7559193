/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdp.h - SAT>IP discovery of vtunerd: the SSDP endpoint on UDP port
 * 1900 (UPnP Device Architecture 1.1, section 1, and the SAT>IP
 * additions: DEVICEID.SES.COM, X-SATIP-RTSP-Port).
 *
 * It answers M-SEARCH for ssdp:all, upnp:rootdevice, uuid:UUID and
 * urn:ses-com:device:SatIPServer:1 and multicasts NOTIFY ssdp:alive for
 * the root device, the UUID and the device type on every interface it
 * serves, at start (three rounds, a second apart) and then every
 * max_age/2 (less up to a tenth, at random); ssdp:byebye when it closes.
 * LOCATION is http://ADDR:HTTP_PORT/desc.xml with ADDR the address of the
 * interface a request came in on or a NOTIFY goes out on.
 *
 * No event loop of its own: the caller polls vtd_ssdp_fd() for input,
 * calls vtd_ssdp_input() when it is readable and vtd_ssdp_tick() at the
 * deadline that the previous tick returned.  Nothing blocks.
 */
#ifndef VTD_SSDP_H
#define VTD_SSDP_H

#include <stdint.h>

#define VTD_SSDP_PORT		1900
#define VTD_SSDP_GROUP		"239.255.255.250"
#define VTD_SSDP_MAX_AGE	1800

struct vtd_ssdp_config {
	/*
	 * The RTSP listen address: an IPv4 address serves the interface
	 * that carries it (127.x: the loopback), NULL, "0.0.0.0" or "::"
	 * every IPv4 interface that is up and has multicast (and the
	 * loopback), those that come up later at the next NOTIFY round.
	 */
	const char *bind_addr;
	uint16_t http_port;		/* where desc.xml is served */
	uint16_t rtsp_port;		/* not 554: X-SATIP-RTSP-Port */
	const char *uuid;		/* 36 characters, without "uuid:" */
	unsigned int device_id;		/* DEVICEID.SES.COM, 1..254 */
	/* NULL: "Linux/RELEASE UPnP/1.1 vtunerd/VERSION" */
	const char *server_string;
	unsigned int max_age;		/* CACHE-CONTROL, s; 0: 1800 */
	unsigned int config_id;		/* CONFIGID.UPNP.ORG: desc.xml's configId */
};

struct vtd_ssdp;

/*
 * The UDP socket bound to *:1900 (SO_REUSEADDR, SO_REUSEPORT: other SSDP
 * programs of the host keep working), in the group 239.255.255.250 on
 * the interfaces of cfg->bind_addr; the first NOTIFY round is due at
 * once.  The strings of cfg are copied.  0, or -errno (-EINVAL for a bad
 * config, -EADDRNOTAVAIL when no interface carries bind_addr) after one
 * log line.
 */
int vtd_ssdp_open(struct vtd_ssdp **sp, const struct vtd_ssdp_config *cfg);
/* The descriptor to poll for input (EPOLLIN, level-triggered). */
int vtd_ssdp_fd(const struct vtd_ssdp *s);
/*
 * The socket is readable: read the datagrams waiting (at most 256 a
 * call; the descriptor stays readable if more wait), answer the
 * M-SEARCH requests that ask for this server at once (no random delay
 * up to MX: one device, and the event loop keeps no timers for it), at
 * most 100 answers a second, and only to sources on the subnet of the
 * interface a request came in on (an M-SEARCH with a forged source
 * makes no flood elsewhere).  Everything else is ignored.  now_ns:
 * vt_now_ns().
 */
void vtd_ssdp_input(struct vtd_ssdp *s, uint64_t now_ns);
/*
 * Send the NOTIFY round that is due, if one is; the vt_now_ns() time of
 * the next deadline.  Call it after vtd_ssdp_input() too: a DEVICEID
 * conflict brings the next round forward.
 */
uint64_t vtd_ssdp_tick(struct vtd_ssdp *s, uint64_t now_ns);
/* The DEVICEID.SES.COM announced now (it changes after a conflict). */
unsigned int vtd_ssdp_device_id(const struct vtd_ssdp *s);
/* NOTIFY ssdp:byebye on every interface, close, free; s may be NULL. */
void vtd_ssdp_close(struct vtd_ssdp *s);

#endif /* VTD_SSDP_H */
