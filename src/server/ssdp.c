// SPDX-License-Identifier: GPL-2.0
/*
 * ssdp.c - the SSDP endpoint of vtunerd's SAT>IP server, see ssdp.h.
 *
 * Every datagram is hostile input: it is read whole or dropped (MSG_TRUNC),
 * refused if it holds a NUL, and parsed line by line within its length;
 * only the few header fields that matter are looked at, the first of
 * each name counting.
 *
 * DEVICEID.SES.COM (SAT>IP 1.2, section 3.3.2, as far as we know it):
 * a server that hears another one announce its own device ID sends that
 * one a unicast M-SEARCH carrying the ID; the server that gets such an
 * M-SEARCH answers it and takes the next ID (1..254, wrapping), and
 * announces again.  vtunerd does both: it defends its ID once its first
 * three NOTIFY rounds are out, and yields when asked.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/utsname.h>

#include "common/clock.h"
#include "common/log.h"
#include "common/text.h"
#include "satip/desc.h"
#include "server/ssdp.h"

#define NS		1000000000ull
#define MAX_IF		16
#define MAX_DGRAM	2048		/* longer datagrams are dropped */
#define MAX_LINES	40		/* header lines looked at */
#define BURST		3		/* NOTIFY rounds at start */
#define RATE		100		/* answers a second, burst as much */
#define RECV_BUDGET	256
#define GROUP_HOST	VTD_SSDP_GROUP ":1900"	/* VTD_SSDP_PORT */

struct ssdp_if {
	int index;
	struct in_addr addr, mask;
	bool loopback;
	char name[IF_NAMESIZE];
};

struct vtd_ssdp {
	int fd;
	bool wildcard;
	struct in_addr bind;
	struct ssdp_if ifs[MAX_IF];
	unsigned int nifs;
	uint16_t http_port, rtsp_port;
	char uuid[37];
	char server[128];
	unsigned int device_id, max_age, config_id, boot_id;
	uint64_t next_alive;
	unsigned int burst;		/* start rounds still to send */
	uint64_t last_rescan;
	uint64_t tokens_at;		/* token bucket of the answers */
	unsigned int tokens;
	uint64_t rnd;
	struct in_addr defended;	/* where the last defend() went, when */
	uint64_t defended_at;
	uint64_t yielded_at;		/* the last change of device_id */
};

/* what a message is about: the three NT / ST values of the device */
enum kind { K_ROOT, K_UUID, K_TYPE, K_NKINDS };

static uint64_t rnd_next(struct vtd_ssdp *s)
{
	/* xorshift64: jitter only, nothing secret */
	s->rnd ^= s->rnd << 13;
	s->rnd ^= s->rnd >> 7;
	s->rnd ^= s->rnd << 17;
	return s->rnd;
}

static bool is_loopback(struct in_addr a)
{
	return (ntohl(a.s_addr) >> 24) == 127;
}

static int find_if(const struct vtd_ssdp *s, int index)
{
	unsigned int i;

	for (i = 0; i < s->nifs; i++)
		if (s->ifs[i].index == index)
			return (int)i;
	return -1;
}

/*
 * The interfaces to serve into ifs: those of s->bind, or every IPv4 one
 * that is up and has multicast (or is the loopback), once each (its first
 * address).  The number found, or -errno.
 */
static int scan_ifs(const struct vtd_ssdp *s, struct ssdp_if *ifs)
{
	struct ifaddrs *all, *i;
	unsigned int n = 0, k;

	if (getifaddrs(&all) < 0)
		return -errno;
	for (i = all; i && n < MAX_IF; i = i->ifa_next) {
		const struct sockaddr_in *a = (const void *)i->ifa_addr;
		const struct sockaddr_in *m = (const void *)i->ifa_netmask;
		struct ssdp_if f;

		if (!a || a->sin_family != AF_INET || !(i->ifa_flags & IFF_UP))
			continue;
		f.loopback = i->ifa_flags & IFF_LOOPBACK;
		if (s->wildcard) {
			if (!f.loopback && !(i->ifa_flags & IFF_MULTICAST))
				continue;
		} else if (is_loopback(s->bind)) {
			if (!f.loopback)
				continue;
		} else if (a->sin_addr.s_addr != s->bind.s_addr) {
			continue;
		}
		f.index = (int)if_nametoindex(i->ifa_name);
		if (f.index <= 0)
			continue;
		for (k = 0; k < n; k++)
			if (ifs[k].index == f.index)
				break;
		if (k < n)
			continue;
		/* 127.0.0.2 is served as itself, not as 127.0.0.1 */
		f.addr = !s->wildcard && is_loopback(s->bind) ? s->bind :
			 a->sin_addr;
		f.mask.s_addr = m && m->sin_family == AF_INET ?
				m->sin_addr.s_addr : htonl(0xffffffff);
		snprintf(f.name, sizeof(f.name), "%s", i->ifa_name);
		ifs[n++] = f;
	}
	freeifaddrs(all);
	return (int)n;
}

static int join(struct vtd_ssdp *s, const struct ssdp_if *f)
{
	struct ip_mreqn mr = { .imr_ifindex = f->index };

	inet_pton(AF_INET, VTD_SSDP_GROUP, &mr.imr_multiaddr);
	mr.imr_address = f->addr;
	if (setsockopt(s->fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr,
		       sizeof(mr)) < 0 && errno != EADDRINUSE)
		return -errno;
	return 0;
}

/* Scan the interfaces again and join the group on the new ones. */
static void rescan(struct vtd_ssdp *s, uint64_t now_ns)
{
	struct ssdp_if ifs[MAX_IF];
	unsigned int i, n = 0;
	int ret;

	s->last_rescan = now_ns;
	ret = scan_ifs(s, ifs);
	if (ret < 0) {
		vt_debug("SSDP: getifaddrs: %s", strerror(-ret));
		return;
	}
	for (i = 0; i < (unsigned int)ret; i++) {
		if (find_if(s, ifs[i].index) < 0) {
			if (join(s, &ifs[i]) < 0) {
				vt_debug("SSDP: joining " VTD_SSDP_GROUP
					 " on %s: %s", ifs[i].name,
					 strerror(errno));
				continue;
			}
			vt_info("SSDP: now on %s (%s)", ifs[i].name,
				inet_ntoa(ifs[i].addr));
		}
		ifs[n++] = ifs[i];
	}
	memcpy(s->ifs, ifs, n * sizeof(ifs[0]));
	s->nifs = n;
}

/*
 * Send len bytes to dst from the address of f (and, for the group, out
 * of f's interface); errors other than a full buffer are logged at debug.
 */
static void send_from(struct vtd_ssdp *s, const struct ssdp_if *f,
		      const struct sockaddr_in *dst, const char *buf,
		      size_t len)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct in_pktinfo))];
		struct cmsghdr align;
	} c;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr mh = {
		.msg_name = (void *)dst, .msg_namelen = sizeof(*dst),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = c.buf, .msg_controllen = sizeof(c.buf),
	};
	struct cmsghdr *cm;
	struct in_pktinfo pi = { .ipi_spec_dst = f->addr };

	memset(&c, 0, sizeof(c));
	if (IN_MULTICAST(ntohl(dst->sin_addr.s_addr)))
		pi.ipi_ifindex = f->index;
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = IPPROTO_IP;
	cm->cmsg_type = IP_PKTINFO;
	cm->cmsg_len = CMSG_LEN(sizeof(pi));
	memcpy(CMSG_DATA(cm), &pi, sizeof(pi));
	if (sendmsg(s->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		vt_debug("SSDP: sending to %s:%u on %s: %s",
			 inet_ntoa(dst->sin_addr), ntohs(dst->sin_port),
			 f->name, strerror(errno));
}

/* NT / ST and USN of a kind. */
static void kind_ids(const struct vtd_ssdp *s, enum kind k, char *nt,
		     size_t ntlen, char *usn, size_t usnlen)
{
	switch (k) {
	case K_ROOT:
		snprintf(nt, ntlen, "upnp:rootdevice");
		snprintf(usn, usnlen, "uuid:%s::upnp:rootdevice", s->uuid);
		break;
	case K_UUID:
		snprintf(nt, ntlen, "uuid:%s", s->uuid);
		snprintf(usn, usnlen, "uuid:%s", s->uuid);
		break;
	default:
		snprintf(nt, ntlen, SATIP_DEVICE_TYPE);
		snprintf(usn, usnlen, "uuid:%s::" SATIP_DEVICE_TYPE, s->uuid);
		break;
	}
}

/* The fields after USN of answers and ssdp:alive. */
static int tail(const struct vtd_ssdp *s, char *buf, size_t len)
{
	char port[48] = "";

	if (s->rtsp_port != 554)
		snprintf(port, sizeof(port), "X-SATIP-RTSP-Port: %u\r\n",
			 s->rtsp_port);
	return snprintf(buf, len, "BOOTID.UPNP.ORG: %u\r\n"
			"CONFIGID.UPNP.ORG: %u\r\n"
			"DEVICEID.SES.COM: %u\r\n%s\r\n",
			s->boot_id, s->config_id, s->device_id, port);
}

static const struct sockaddr_in *group(void)
{
	static struct sockaddr_in g;

	if (!g.sin_family) {
		inet_pton(AF_INET, VTD_SSDP_GROUP, &g.sin_addr);
		g.sin_port = htons(VTD_SSDP_PORT);
		g.sin_family = AF_INET;
	}
	return &g;
}

static void notify(struct vtd_ssdp *s, const struct ssdp_if *f, bool alive)
{
	char buf[1024], nt[96], usn[160], t[256];
	enum kind k;
	int n;

	for (k = 0; k < K_NKINDS; k++) {
		kind_ids(s, k, nt, sizeof(nt), usn, sizeof(usn));
		if (alive) {
			tail(s, t, sizeof(t));
			n = snprintf(buf, sizeof(buf),
				"NOTIFY * HTTP/1.1\r\n"
				"HOST: " GROUP_HOST "\r\n"
				"CACHE-CONTROL: max-age=%u\r\n"
				"LOCATION: http://%s:%u/desc.xml\r\n"
				"NT: %s\r\nNTS: ssdp:alive\r\n"
				"SERVER: %s\r\nUSN: %s\r\n%s",
				s->max_age, inet_ntoa(f->addr),
				s->http_port, nt, s->server, usn, t);
		} else {
			n = snprintf(buf, sizeof(buf),
				"NOTIFY * HTTP/1.1\r\n"
				"HOST: " GROUP_HOST "\r\n"
				"NT: %s\r\nNTS: ssdp:byebye\r\nUSN: %s\r\n"
				"BOOTID.UPNP.ORG: %u\r\n"
				"CONFIGID.UPNP.ORG: %u\r\n\r\n",
				nt, usn, s->boot_id,
				s->config_id);
		}
		if (n > 0 && (size_t)n < sizeof(buf))
			send_from(s, f, group(), buf, (size_t)n);
	}
}

/*
 * Answer to, and with group also to the group on f (see shared_port()).
 */
static void answer(struct vtd_ssdp *s, const struct ssdp_if *f,
		   const struct sockaddr_in *to, enum kind k, bool group_too)
{
	char buf[1024], st[96], usn[160], t[256], date[64];
	time_t now = time(NULL);
	struct tm tm;
	int n;

	if (!s->tokens) {
		vt_debug("SSDP: more than %u answers a second: %s not "
			 "answered", RATE, inet_ntoa(to->sin_addr));
		return;
	}
	s->tokens--;
	if (!gmtime_r(&now, &tm) ||
	    !strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S GMT", &tm))
		date[0] = 0;
	kind_ids(s, k, st, sizeof(st), usn, sizeof(usn));
	tail(s, t, sizeof(t));
	n = snprintf(buf, sizeof(buf),
		     "HTTP/1.1 200 OK\r\n"
		     "CACHE-CONTROL: max-age=%u\r\n"
		     "DATE: %s\r\nEXT:\r\n"
		     "LOCATION: http://%s:%u/desc.xml\r\n"
		     "SERVER: %s\r\nST: %s\r\nUSN: %s\r\n%s",
		     s->max_age, date, inet_ntoa(f->addr), s->http_port,
		     s->server, st, usn, t);
	if (n <= 0 || (size_t)n >= sizeof(buf))
		return;
	send_from(s, f, to, buf, (size_t)n);
	if (group_too && s->tokens) {
		s->tokens--;
		send_from(s, f, group(), buf, (size_t)n);
	}
}

/* The fields of a datagram that matter; NULL: absent. */
struct msg {
	enum { M_OTHER, M_SEARCH, M_NOTIFY } type;
	const char *st, *man, *nt, *nts, *usn;
	int device_id;			/* -1: absent or not 1..254 */
};

static char *trim(char *b, char *e)
{
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	*e = 0;
	return b;
}

static int parse_device_id(const char *v)
{
	unsigned int id = 0;

	if (!*v || strlen(v) > 3)
		return -1;
	for (; *v; v++) {
		if (*v < '0' || *v > '9')
			return -1;
		id = id * 10 + (unsigned int)(*v - '0');
	}
	return id >= 1 && id <= 254 ? (int)id : -1;
}

/* buf: n bytes and a NUL, none inside; cut into strings in place. */
static void parse(char *buf, size_t n, struct msg *m)
{
	char *p = buf, *end = buf + n, *nl, *colon, *name, *val;
	unsigned int lines = 0;

	memset(m, 0, sizeof(*m));
	m->device_id = -1;
	if (!strncmp(buf, "M-SEARCH * HTTP/1.", 18))
		m->type = M_SEARCH;
	else if (!strncmp(buf, "NOTIFY * HTTP/1.", 16))
		m->type = M_NOTIFY;
	else
		return;
	nl = memchr(p, '\n', (size_t)(end - p));
	p = nl ? nl + 1 : end;
	while (p < end && lines++ < MAX_LINES) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		colon = memchr(p, ':', (size_t)(nl - p));
		if (!colon) {
			if (trim(p, nl)[0] == 0)
				break;		/* the empty line */
			p = nl + (nl < end);
			continue;
		}
		name = trim(p, colon);
		val = trim(colon + 1, nl);
		if (!strcasecmp(name, "ST") && !m->st)
			m->st = val;
		else if (!strcasecmp(name, "MAN") && !m->man)
			m->man = val;
		else if (!strcasecmp(name, "NT") && !m->nt)
			m->nt = val;
		else if (!strcasecmp(name, "NTS") && !m->nts)
			m->nts = val;
		else if (!strcasecmp(name, "USN") && !m->usn)
			m->usn = val;
		else if (!strcasecmp(name, "DEVICEID.SES.COM") &&
			 m->device_id < 0)
			m->device_id = parse_device_id(val);
		p = nl + (nl < end);
	}
}

/*
 * The source of a request is on the subnet of the interface it came in
 * on; a loopback interface carries only this host's datagrams, whatever
 * their source address (the one of another interface, often).
 */
static bool on_link(const struct ssdp_if *f, struct in_addr src)
{
	if (f->loopback)
		return true;
	return !((src.s_addr ^ f->addr.s_addr) & f->mask.s_addr);
}

/*
 * A client on this host that sends from port 1900 shares the port with
 * us (SO_REUSEADDR, SO_REUSEPORT: VDR's satip plugin does so), and the
 * kernel gives a unicast datagram to that port to one of the sockets
 * only, ours maybe: the answer then goes to the group on the interface
 * too, which every socket that joined it there gets (clients take an
 * answer for what it says, not for how it came).
 */
static bool shared_port(const struct vtd_ssdp *s, const struct ssdp_if *f,
			const struct sockaddr_in *from)
{
	unsigned int i;

	if (ntohs(from->sin_port) != VTD_SSDP_PORT)
		return false;
	if (f->loopback)
		return true;
	for (i = 0; i < s->nifs; i++)
		if (s->ifs[i].addr.s_addr == from->sin_addr.s_addr)
			return true;
	return false;
}

/* Unicast M-SEARCH to the server at to:1900 that announced our ID. */
static void defend(struct vtd_ssdp *s, const struct ssdp_if *f,
		   const struct sockaddr_in *from, uint64_t now_ns)
{
	struct sockaddr_in to = *from;
	char buf[512];
	int n;

	if (!s->tokens)
		return;
	s->tokens--;
	to.sin_port = htons(VTD_SSDP_PORT);
	s->defended = to.sin_addr;
	s->defended_at = now_ns;
	vt_notice("SSDP: %s announces our DEVICEID.SES.COM %u: asking it "
		  "to take another", inet_ntoa(to.sin_addr), s->device_id);
	n = snprintf(buf, sizeof(buf),
		     "M-SEARCH * HTTP/1.1\r\n"
		     "HOST: %s:1900\r\n"
		     "MAN: \"ssdp:discover\"\r\n"
		     "ST: " SATIP_DEVICE_TYPE "\r\n"
		     "USER-AGENT: %s\r\n"
		     "DEVICEID.SES.COM: %u\r\n\r\n",
		     inet_ntoa(to.sin_addr), s->server,
		     s->device_id);
	if (n > 0 && (size_t)n < sizeof(buf))
		send_from(s, f, &to, buf, (size_t)n);
}

static void handle(struct vtd_ssdp *s, char *buf, size_t n,
		   const struct sockaddr_in *from, const struct in_pktinfo *pi,
		   uint64_t now_ns)
{
	bool unicast = !IN_MULTICAST(ntohl(pi->ipi_addr.s_addr));
	const struct ssdp_if *f;
	struct sockaddr_in lo;
	struct msg m;
	char ours[48];
	bool shared;
	int i;

	i = find_if(s, pi->ipi_ifindex);
	if (i < 0 && s->wildcard && now_ns - s->last_rescan > 5 * NS) {
		rescan(s, now_ns);
		i = find_if(s, pi->ipi_ifindex);
	}
	if (i < 0)
		return;			/* not an interface we serve */
	f = &s->ifs[i];
	/*
	 * A route "239.0.0.0/8 dev lo" without "src 127.0.0.1" gives a
	 * client on the loopback no source address (lo's are of host
	 * scope): its datagrams come from 0.0.0.0, which is this host.
	 */
	if (f->loopback && from->sin_addr.s_addr == htonl(INADDR_ANY)) {
		lo = *from;
		lo.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		from = &lo;
	}
	if (!from->sin_port || !on_link(f, from->sin_addr))
		return;
	parse(buf, n, &m);
	snprintf(ours, sizeof(ours), "uuid:%s", s->uuid);
	if (m.type == M_NOTIFY) {
		/* another server announcing our ID, and we were first */
		if (m.device_id == (int)s->device_id && !s->burst &&
		    m.nt && !strcasecmp(m.nt, SATIP_DEVICE_TYPE) &&
		    m.nts && !strcasecmp(m.nts, "ssdp:alive") &&
		    m.usn && strncasecmp(m.usn, ours, strlen(ours)))
			defend(s, f, from, now_ns);
		return;
	}
	if (m.type != M_SEARCH || !m.st)
		return;
	if (m.man && !strstr(m.man, "ssdp:discover"))
		return;
	/*
	 * Our own defend() comes back to us when the other server is on
	 * this host: port 1900 is shared (SO_REUSEPORT) and a unicast
	 * datagram goes to one of the sockets.
	 */
	if (unicast && m.device_id == (int)s->device_id &&
	    ntohs(from->sin_port) == VTD_SSDP_PORT &&
	    from->sin_addr.s_addr == s->defended.s_addr &&
	    now_ns - s->defended_at < 2 * NS)
		return;
	shared = shared_port(s, f, from);
	if (!strcasecmp(m.st, "ssdp:all")) {
		answer(s, f, from, K_ROOT, shared);
		answer(s, f, from, K_UUID, shared);
		answer(s, f, from, K_TYPE, shared);
	} else if (!strcasecmp(m.st, "upnp:rootdevice")) {
		answer(s, f, from, K_ROOT, shared);
	} else if (!strcasecmp(m.st, ours)) {
		answer(s, f, from, K_UUID, shared);
	} else if (!strcasecmp(m.st, SATIP_DEVICE_TYPE)) {
		answer(s, f, from, K_TYPE, shared);
	} else {
		return;
	}
	/* at most one change in 10 s, whoever asks */
	if (unicast && m.device_id == (int)s->device_id &&
	    (!s->yielded_at || now_ns - s->yielded_at > 10 * NS)) {
		unsigned int old = s->device_id;

		s->yielded_at = now_ns;
		s->device_id = s->device_id % 254 + 1;
		vt_notice("SSDP: %s uses DEVICEID.SES.COM %u too: now %u",
			  inet_ntoa(from->sin_addr), old, s->device_id);
		s->burst = BURST;
		s->next_alive = now_ns;
	}
}

void vtd_ssdp_input(struct vtd_ssdp *s, uint64_t now_ns)
{
	char buf[MAX_DGRAM + 1];
	union {
		char buf[CMSG_SPACE(sizeof(struct in_pktinfo)) + 64];
		struct cmsghdr align;
	} c;
	unsigned int budget = RECV_BUDGET;
	uint64_t add;

	add = (now_ns - s->tokens_at) / (NS / RATE);
	if (add) {
		s->tokens = add >= RATE ? RATE :
			    (unsigned int)(s->tokens + add > RATE ? RATE :
					   s->tokens + add);
		s->tokens_at = now_ns;
	}
	while (budget--) {
		struct sockaddr_in from;
		struct iovec iov = { .iov_base = buf, .iov_len = MAX_DGRAM };
		struct msghdr mh = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = c.buf, .msg_controllen = sizeof(c.buf),
		};
		const struct in_pktinfo *pi = NULL;
		struct in_pktinfo pibuf;
		struct cmsghdr *cm;
		ssize_t n;

		n = recvmsg(s->fd, &mh, MSG_DONTWAIT);
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK &&
			    errno != EINTR)
				vt_debug("SSDP: recvmsg: %s", strerror(errno));
			if (errno == EINTR)
				continue;
			return;
		}
		if ((mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || n == 0 ||
		    mh.msg_namelen < sizeof(from) || from.sin_family != AF_INET)
			continue;
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == IPPROTO_IP &&
			    cm->cmsg_type == IP_PKTINFO &&
			    cm->cmsg_len >= CMSG_LEN(sizeof(pibuf))) {
				memcpy(&pibuf, CMSG_DATA(cm), sizeof(pibuf));
				pi = &pibuf;
			}
		if (!pi || memchr(buf, 0, (size_t)n))
			continue;
		buf[n] = 0;
		handle(s, buf, (size_t)n, &from, pi, now_ns);
	}
}

uint64_t vtd_ssdp_tick(struct vtd_ssdp *s, uint64_t now_ns)
{
	uint64_t period;
	unsigned int i;

	if (now_ns < s->next_alive)
		return s->next_alive;
	if (!s->burst && s->wildcard)
		rescan(s, now_ns);
	for (i = 0; i < s->nifs; i++)
		notify(s, &s->ifs[i], true);
	if (s->burst)
		s->burst--;
	if (s->burst) {
		s->next_alive = now_ns + NS;
	} else {
		period = (uint64_t)s->max_age * NS / 2;
		s->next_alive = now_ns + period - rnd_next(s) % (period / 5 + 1);
	}
	return s->next_alive;
}

int vtd_ssdp_fd(const struct vtd_ssdp *s)
{
	return s->fd;
}

unsigned int vtd_ssdp_device_id(const struct vtd_ssdp *s)
{
	return s->device_id;
}

static bool uuid_ok(const char *u)
{
	unsigned int i;

	if (!u || strlen(u) != 36)
		return false;
	for (i = 0; i < 36; i++)
		if (i == 8 || i == 13 || i == 18 || i == 23 ? u[i] != '-' :
		    !strchr("0123456789abcdefABCDEF", u[i]))
			return false;
	return true;
}

static int setup_socket(struct vtd_ssdp *s, const char **what)
{
	struct sockaddr_in any = {
		.sin_family = AF_INET, .sin_port = htons(VTD_SSDP_PORT),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct ip_mreqn mif = { 0 };
	int one = 1, zero = 0, ttl = 2;

	s->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return *what = "socket", -errno;
	if (setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(s->fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)))
		return *what = "SO_REUSEADDR/SO_REUSEPORT", -errno;
	if (setsockopt(s->fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one)))
		return *what = "IP_PKTINFO", -errno;
	/* only the group joined here, not those of other sockets */
	if (setsockopt(s->fd, IPPROTO_IP, IP_MULTICAST_ALL, &zero,
		       sizeof(zero)))
		return *what = "IP_MULTICAST_ALL", -errno;
	if (setsockopt(s->fd, IPPROTO_IP, IP_MULTICAST_LOOP, &one,
		       sizeof(one)))
		return *what = "IP_MULTICAST_LOOP", -errno;
	/* UPnP 1.1: TTL 2 by default */
	if (setsockopt(s->fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof(ttl)))
		return *what = "IP_MULTICAST_TTL", -errno;
	if (bind(s->fd, (struct sockaddr *)&any, sizeof(any)) < 0)
		return *what = "bind *:1900", -errno;
	/* the default; each NOTIFY names its interface (IP_PKTINFO) */
	mif.imr_ifindex = s->ifs[0].index;
	mif.imr_address = s->ifs[0].addr;
	if (setsockopt(s->fd, IPPROTO_IP, IP_MULTICAST_IF, &mif, sizeof(mif)))
		return *what = "IP_MULTICAST_IF", -errno;
	return 0;
}

int vtd_ssdp_open(struct vtd_ssdp **sp, const struct vtd_ssdp_config *cfg)
{
	const char *ba = cfg->bind_addr, *what = "";
	char names[MAX_IF * (IF_NAMESIZE + 20)];
	struct ssdp_if ifs[MAX_IF];
	struct vtd_ssdp *s;
	struct utsname un;
	size_t off = 0;
	unsigned int i, n;
	int ret;

	*sp = NULL;
	if (!uuid_ok(cfg->uuid) || cfg->device_id < 1 ||
	    cfg->device_id > 254 || !cfg->http_port || !cfg->rtsp_port) {
		vt_err("SSDP: bad configuration (uuid, device id 1..254, "
		       "ports)");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = -1;
	if (!ba || !strcmp(ba, "0.0.0.0") || !strcmp(ba, "::") || !ba[0]) {
		s->wildcard = true;
	} else if (inet_pton(AF_INET, ba, &s->bind) != 1) {
		vt_warn("SSDP: %s is not an IPv4 address: SAT>IP discovery "
			"needs one", ba);
		free(s);
		return -EAFNOSUPPORT;
	}
	snprintf(s->uuid, sizeof(s->uuid), "%s", cfg->uuid);
	s->http_port = cfg->http_port;
	s->rtsp_port = cfg->rtsp_port;
	s->device_id = cfg->device_id;
	s->config_id = cfg->config_id & 0xffffff;
	s->max_age = cfg->max_age ? cfg->max_age : VTD_SSDP_MAX_AGE;
	if (s->max_age < 4)
		s->max_age = 4;
	if (cfg->server_string)
		snprintf(s->server, sizeof(s->server), "%s",
			 cfg->server_string);
	else
		snprintf(s->server, sizeof(s->server),
			 "Linux/%s UPnP/1.1 vtunerd/" VT_VERSION,
			 uname(&un) ? "1" : un.release);
	vt_text_clean(s->server);	/* a header line, one line */
	/* BOOTID.UPNP.ORG: larger at every start, in 31 bits */
	s->boot_id = (unsigned int)time(NULL) & 0x7fffffff;
	s->rnd = vt_now_ns() ^ ((uint64_t)getpid() << 32) ^ 0x9e3779b97f4a7c15ull;
	s->burst = BURST;
	s->tokens = RATE;
	s->tokens_at = vt_now_ns();

	ret = scan_ifs(s, ifs);
	if (ret <= 0) {
		if (!ret)
			ret = -EADDRNOTAVAIL;
		vt_warn("SSDP: no interface to serve for %s: %s",
			ba ? ba : "0.0.0.0", strerror(-ret));
		goto fail;
	}
	memcpy(s->ifs, ifs, (size_t)ret * sizeof(ifs[0]));
	s->nifs = (unsigned int)ret;
	ret = setup_socket(s, &what);
	if (ret < 0) {
		vt_warn("SSDP: %s: %s", what, strerror(-ret));
		goto fail;
	}
	for (i = 0, n = 0; i < s->nifs; i++) {
		ret = join(s, &s->ifs[i]);
		if (ret < 0) {
			vt_warn("SSDP: joining " VTD_SSDP_GROUP " on %s: %s",
				s->ifs[i].name, strerror(-ret));
			continue;
		}
		s->ifs[n++] = s->ifs[i];
		off += (size_t)snprintf(names + off, sizeof(names) - off,
				"%s%s (%s)", off ? ", " : "", s->ifs[n - 1].name,
				inet_ntoa(s->ifs[n - 1].addr));
		if (off >= sizeof(names))
			off = sizeof(names) - 1;
	}
	s->nifs = n;
	if (!n) {
		vt_warn("SSDP: could not join " VTD_SSDP_GROUP " anywhere");
		ret = -EADDRNOTAVAIL;
		goto fail;
	}
	s->last_rescan = vt_now_ns();
	vt_info("SSDP: SAT>IP server uuid:%s, DEVICEID.SES.COM %u, "
		"desc.xml on port %u, on %s", s->uuid, s->device_id,
		s->http_port, names);
	*sp = s;
	return 0;
fail:
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	return ret;
}

void vtd_ssdp_close(struct vtd_ssdp *s)
{
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < s->nifs; i++)
		notify(s, &s->ifs[i], false);
	close(s->fd);
	free(s);
}
