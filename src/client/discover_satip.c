// SPDX-License-Identifier: GPL-2.0
/*
 * discover_satip.c - find the SAT>IP servers on the network (SSDP, then
 * their desc.xml), for --discover and --satip auto; see discover.h.
 * It runs before the event loop, once, and blocks at most its timeout
 * plus DESC_TIMEOUT per server.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/dvb/frontend.h>

#include "client/discover.h"
#include "client/net.h"
#include "common/clock.h"
#include "common/dvb.h"
#include "common/log.h"
#include "satip/desc.h"
#include "satip/reply.h"

#define SSDP_GROUP	"239.255.255.250"
#define SSDP_PORT	1900
#define SATIP_ST	"urn:ses-com:device:SatIPServer:1"
#define MAX_SERVERS	16
#define DESC_TIMEOUT_MS	2000

struct found {
	char location[256];
	char host[256], port[16], path[256];	/* of the location */
	unsigned int rtsp_port;			/* 554 unless said */
	bool have_info;
	struct satip_server_info info;
};

/* "http://HOST[:PORT]/PATH" of a LOCATION; -1 if not that. */
static int split_location(struct found *f)
{
	const char *p = f->location, *slash;
	char auth[300];

	if (strncmp(p, "http://", 7))
		return -1;
	p += 7;
	slash = strchr(p, '/');
	if (!slash || slash == p || (size_t)(slash - p) >= sizeof(auth))
		return -1;
	memcpy(auth, p, slash - p);
	auth[slash - p] = 0;
	if (net_parse_hostport(auth, f->host, sizeof(f->host), f->port,
			       sizeof(f->port), "80"))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s", slash);
	return 0;
}

/* GET the description of f, within DESC_TIMEOUT_MS; 0 or -1. */
static int fetch_desc(struct found *f)
{
	static char buf[SATIP_REPLY_MAX];
	struct addrinfo *ai = NULL;
	struct satip_reply r;
	struct pollfd p;
	uint64_t end = vt_now_ns() + DESC_TIMEOUT_MS * 1000000ULL;
	size_t len = 0;
	ssize_t n;
	int fd, ret = -1, w;
	char req[600];

	if (net_resolve(f->host, f->port, &ai) < 0)
		return -1;
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0 || (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 &&
		       errno != EINPROGRESS))
		goto out;
	p = (struct pollfd){ .fd = fd, .events = POLLOUT };
	if (poll(&p, 1, DESC_TIMEOUT_MS) != 1)
		goto out;
	w = snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: %s\r\n"
		     "Connection: close\r\n\r\n", f->path, f->host);
	if (send(fd, req, w, MSG_NOSIGNAL) != w)
		goto out;
	while (len < sizeof(buf)) {
		int left = (int)((end - vt_now_ns()) / 1000000);

		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (left <= 0 || poll(&p, 1, left) != 1)
			break;
		n = recv(fd, buf + len, sizeof(buf) - len, 0);
		if (n <= 0)
			break;
		len += n;
		n = satip_reply_parse(buf, len, &r);
		if (n < 0)
			break;
		if (n > 0) {
			if (r.code == 200 &&
			    satip_desc_parse(buf + n - r.content_length,
					     r.content_length, &f->info) == 0) {
				f->have_info = true;
				if (r.rtsp_port)
					f->rtsp_port = r.rtsp_port;
				ret = 0;
			}
			break;
		}
	}
out:
	if (fd >= 0)
		close(fd);
	freeaddrinfo(ai);
	return ret;
}

/*
 * M-SEARCH for SAT>IP servers, answers gathered for timeout_s, each
 * server's description read; the count found (f[]), or -1.
 */
static int search(struct found *f, double timeout_s)
{
	static const char msearch[] =
		"M-SEARCH * HTTP/1.1\r\n"
		"HOST: " SSDP_GROUP ":1900\r\n"
		"MAN: \"ssdp:discover\"\r\n"
		"MX: 2\r\n"
		"ST: " SATIP_ST "\r\n"
		"USER-AGENT: Linux/1.0 UPnP/1.1 vtunerc/" VT_VERSION "\r\n"
		"\r\n";
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(SSDP_PORT) };
	uint64_t end = vt_now_ns() + (uint64_t)(timeout_s * 1e9);
	struct satip_ssdp_msg m;
	struct pollfd p;
	char buf[2048];
	int fd, num = 0, i, sent = 0;
	ssize_t n;

	inet_pton(AF_INET, SSDP_GROUP, &to.sin_addr);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		vt_err("SSDP: socket: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		uint64_t now = vt_now_ns();
		int left;

		/* three M-SEARCHes, a second apart: UDP gets lost */
		if (sent < 3 && now + (uint64_t)(timeout_s * 1e9) >=
		    end + sent * 1000000000ULL) {
			if (sendto(fd, msearch, sizeof(msearch) - 1, 0,
				   (struct sockaddr *)&to, sizeof(to)) < 0 &&
			    !sent)
				vt_warn("SSDP: M-SEARCH: %s", strerror(errno));
			sent++;
		}
		if (now >= end)
			break;
		left = (int)((end - now) / 1000000);
		if (left > 1000)
			left = 1000;
		p = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (poll(&p, 1, left ? left : 1) != 1)
			continue;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0 || satip_ssdp_parse(buf, n, &m) < 0 ||
		    !m.satip || m.byebye || !m.location[0])
			continue;
		for (i = 0; i < num; i++)
			if (!strcmp(f[i].location, m.location))
				break;
		if (i < num || num == MAX_SERVERS)
			continue;
		memset(&f[num], 0, sizeof(f[num]));
		snprintf(f[num].location, sizeof(f[num].location), "%s",
			 m.location);
		f[num].rtsp_port = m.rtsp_port ? m.rtsp_port : 554;
		if (split_location(&f[num]) == 0)
			num++;
	}
	close(fd);
	for (i = 0; i < num; i++)
		fetch_desc(&f[i]);
	return num;
}

/* "DVBS2-2,DVBT-1" or "?" */
static const char *caps_of(const struct found *f)
{
	return f->have_info && f->info.caps[0] ? f->info.caps : "?";
}

int discover_satip_list(double timeout_s)
{
	static struct found f[MAX_SERVERS];
	int i, num = search(f, timeout_s);

	for (i = 0; i < num; i++)
		printf("SAT>IP\t%s\trtsp://%s:%u/\t%s\t%s\n",
		       f[i].have_info ? f[i].info.friendly_name : "?",
		       f[i].host, f[i].rtsp_port, caps_of(&f[i]),
		       f[i].location);
	return num;
}

/*
 * Has server f a tuner of the first of o's delivery systems?  (Only the
 * first: X_SATIPCAP counts a combined tuner under one type, as vtunerd
 * does, or under each.)
 */
static bool has_systems(const struct found *f, const struct vc_opts *o)
{
	int i, t;

	if (!f->have_info)
		return !o->num_delsys;
	for (i = 0; i < o->num_delsys && i < 1; i++) {
		switch (o->delsys[i]) {
		case SYS_DVBS:
		case SYS_DVBS2:
			t = SATIP_DVBS2;
			break;
		case SYS_DVBT:
			t = f->info.frontends[SATIP_DVBT] ? SATIP_DVBT :
			    SATIP_DVBT2;
			break;
		case SYS_DVBT2:
			t = SATIP_DVBT2;
			break;
		case SYS_DVBC_ANNEX_A:
		case SYS_DVBC_ANNEX_C:
			t = SATIP_DVBC;
			break;
		default:
			return false;
		}
		if (!f->info.frontends[t])
			return false;
	}
	return true;
}

int discover_satip_pick(struct vc_opts *o, double timeout_s)
{
	static struct found f[MAX_SERVERS];
	static char desc[300];
	int i, num = search(f, timeout_s);

	for (i = 0; i < num; i++) {
		if (!has_systems(&f[i], o))
			continue;
		snprintf(o->host, sizeof(o->host), "%s", f[i].host);
		snprintf(o->port, sizeof(o->port), "%u", f[i].rtsp_port);
		if (!o->satip_desc) {
			snprintf(desc, sizeof(desc), "%s", f[i].location);
			o->satip_desc = desc;
		}
		vt_notice("SAT>IP: found '%s' at rtsp://%s:%s/ (%s)",
			  f[i].have_info ? f[i].info.friendly_name : "?",
			  o->host, o->port, caps_of(&f[i]));
		return 0;
	}
	vt_err("SAT>IP: %s within %g s", num ? "no server found has the "
	       "delivery systems asked" : "no server answered SSDP",
	       timeout_s);
	return -1;
}
