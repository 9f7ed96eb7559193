// SPDX-License-Identifier: GPL-2.0
/*
 * rtp-sink.c - the receiver of the SAT>IP benchmark (bench/satip.sh), and
 * optionally a minimal SAT>IP (RTSP) client that asks for the stream.
 *
 *   rtp-sink PORT SECS [rtsp=HOST:PORT] [query=Q] [playquery=Q]
 *            [idle=S] [keepalive=S] [quiet]
 *
 * Receives RTP on 127.0.0.1:PORT (PORT even; RTCP on PORT + 1, drained)
 * with recvmmsg(): counts datagrams and TS bytes, checks the RTP header
 * (version 2, payload type 33), sequence gaps, TS sync bytes and the
 * continuity counter of every PID but the null PID, and the socket's own
 * drops (SO_RXQ_OVFL, the receiver too slow, not the sender's loss).
 *
 * Without rtsp=: runs for SECS, or until no datagram came for idle= (1 s)
 * after the first.  With rtsp=: OPTIONS (its round trip, the RTT), SETUP
 * rtsp://HOST:PORT/?Q with Transport: RTP/AVP;unicast;client_port=PORT-
 * PORT+1, PLAY rtsp://HOST:PORT/stream=ID[?playquery], SECS of stream
 * counted from PLAY (OPTIONS every keepalive= s, default 20), TEARDOWN.
 * first_ms: from sending PLAY to the first datagram with TS in it (its
 * arrival as the kernel stamped it, SO_TIMESTAMPNS).
 *
 * One line: "recv D datagrams B bytes in T s (R Mbit/s) empty E short S
 * (datagrams of TS with fewer than 7 packets) seqlost L
 * reorder O ccerr C syncerr S badhdr H ovfl V options_ms O setup_ms U
 * play_ms P first_ms F cpu C"; exit 1 if an RTSP request failed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define TS	188
#define NB	64
#define DGMAX	2048

static volatile sig_atomic_t stop;

static void on_sig(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static uint64_t real_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* ---- counting ---- */

static struct {
	uint64_t dgrams, bytes, empty, shortd, seqlost, reorder, ccerr, syncerr, badhdr;
	uint32_t ovfl;
	uint64_t first_ns, last_ns;	/* first / last datagram with TS */
	bool have_seq;
	uint16_t next_seq;
	int8_t cc[8192];
} st;

static void account(const uint8_t *d, size_t len, uint64_t now)
{
	size_t i, n;

	if (len < 12 || (d[0] & 0xc0) != 0x80 || (d[1] & 0x7f) != 33) {
		st.badhdr++;
		return;
	}
	{
		uint16_t seq = (uint16_t)((d[2] << 8) | d[3]);

		if (st.have_seq && seq != st.next_seq) {
			uint16_t diff = (uint16_t)(seq - st.next_seq);

			if (diff < 32768) {
				st.seqlost += diff;
			} else {
				st.reorder++;
				return;
			}
		}
		st.have_seq = true;
		st.next_seq = (uint16_t)(seq + 1);
	}
	st.dgrams++;
	/* no CSRC, extension or padding from a SAT>IP server */
	d += 12;
	len -= 12;
	if (!len) {
		st.empty++;
		return;
	}
	if (len % TS) {
		st.badhdr++;
		return;
	}
	if (!st.first_ns)
		st.first_ns = now;
	st.last_ns = now;
	n = len / TS;
	if (n < 7)
		st.shortd++;
	st.bytes += len;
	for (i = 0; i < n; i++) {
		const uint8_t *p = d + i * TS;
		unsigned int pid = ((p[1] & 0x1fu) << 8) | p[2];
		int cc = p[3] & 0x0f;

		if (p[0] != 0x47) {
			st.syncerr++;
			continue;
		}
		if (pid == 0x1fff || !(p[3] & 0x10))
			continue;
		/* discontinuity_indicator */
		if ((p[3] & 0x20) && p[4] && (p[5] & 0x80)) {
			st.cc[pid] = (int8_t)cc;
			continue;
		}
		if (st.cc[pid] >= 0 && cc != ((st.cc[pid] + 1) & 0x0f) &&
		    cc != st.cc[pid])
			st.ccerr++;
		st.cc[pid] = (int8_t)cc;
	}
}

/* ---- RTSP ---- */

static int rtsp_fd = -1;
static char rhost[256], rport[16];
static unsigned int cseq;
static char session[64];
static unsigned int stream_id;

/* request; the reply's status (0: none), headers in buf */
static int rtsp(const char *method, const char *uri, const char *extra,
		char *buf, size_t cap)
{
	char req[2048];
	size_t got = 0;
	int n, code = 0;

	n = snprintf(req, sizeof(req), "%s %s RTSP/1.0\r\nCSeq: %u\r\n"
		     "User-Agent: vtuner-bench\r\n%s%s%s%s\r\n", method, uri,
		     ++cseq, session[0] ? "Session: " : "", session,
		     session[0] ? "\r\n" : "", extra);
	if (send(rtsp_fd, req, (size_t)n, MSG_NOSIGNAL) != n)
		return 0;
	while (got < cap - 1) {
		ssize_t r = recv(rtsp_fd, buf + got, cap - 1 - got, 0);

		if (r <= 0)
			return 0;
		got += (size_t)r;
		buf[got] = 0;
		if (strstr(buf, "\r\n\r\n"))
			break;
	}
	/* no body expected from OPTIONS, SETUP, PLAY, TEARDOWN */
	if (sscanf(buf, "RTSP/1.0 %d", &code) != 1)
		return 0;
	return code;
}

static const char *header(const char *buf, const char *name)
{
	const char *p = buf;
	size_t l = strlen(name);

	while ((p = strstr(p, "\r\n"))) {
		p += 2;
		if (!strncasecmp(p, name, l) && p[l] == ':') {
			p += l + 1;
			while (*p == ' ')
				p++;
			return p;
		}
	}
	return NULL;
}

static int rtsp_connect(const char *hp)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *ai;
	char *c;

	snprintf(rhost, sizeof(rhost), "%s", hp);
	c = strrchr(rhost, ':');
	if (!c)
		return -1;
	*c = 0;
	snprintf(rport, sizeof(rport), "%s", c + 1);
	if (getaddrinfo(rhost, rport, &hints, &ai))
		return -1;
	rtsp_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (rtsp_fd < 0 || connect(rtsp_fd, ai->ai_addr, ai->ai_addrlen) < 0)
		return -1;
	freeaddrinfo(ai);
	return 0;
}

static int bind_udp(unsigned int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int one = 1, sz = 16 << 20;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("rtp-sink: bind");
		exit(1);
	}
	/* past rmem_max as root; else what rmem_max allows */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	return fd;
}

int main(int argc, char **argv)
{
	static uint8_t buf[NB][DGMAX];
	static struct iovec iov[NB];
	static struct mmsghdr mm[NB];
	static char cbuf[NB][CMSG_SPACE(sizeof(uint32_t)) +
			    CMSG_SPACE(sizeof(struct timespec))];
	char rbuf[8192], uri[1024], extra[256];
	const char *rtsp_hp = NULL, *query = "", *playquery = NULL;
	double secs, idle = 1.0, keepalive = 20.0, c0;
	double options_ms = -1, setup_ms = -1, play_ms = -1, first_ms = -1;
	uint64_t t0, play_ns = 0, last_ka, last_rx = 0, play_real = 0, first_real = 0;
	unsigned int port;
	bool quiet = false;
	int fd, cfd, i, code;

	if (argc < 3) {
		fprintf(stderr, "usage: rtp-sink PORT SECS [rtsp=HOST:PORT] [query=Q] "
			"[playquery=Q] [idle=S] [keepalive=S] [quiet]\n");
		return 2;
	}
	port = (unsigned int)atoi(argv[1]);
	secs = atof(argv[2]);
	for (i = 3; i < argc; i++) {
		if (!strncmp(argv[i], "rtsp=", 5))
			rtsp_hp = argv[i] + 5;
		else if (!strncmp(argv[i], "query=", 6))
			query = argv[i] + 6;
		else if (!strncmp(argv[i], "playquery=", 10))
			playquery = argv[i] + 10;
		else if (!strncmp(argv[i], "idle=", 5))
			idle = atof(argv[i] + 5);
		else if (!strncmp(argv[i], "keepalive=", 10))
			keepalive = atof(argv[i] + 10);
		else if (!strcmp(argv[i], "quiet"))
			quiet = true;
		else {
			fprintf(stderr, "rtp-sink: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	memset(st.cc, -1, sizeof(st.cc));
	signal(SIGTERM, on_sig);
	signal(SIGINT, on_sig);
	fd = bind_udp(port);
	cfd = bind_udp(port + 1);
	for (i = 0; i < NB; i++) {
		iov[i].iov_base = buf[i];
		iov[i].iov_len = DGMAX;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	c0 = cpu_s();
	t0 = now_ns();
	if (rtsp_hp) {
		uint64_t a;
		char *e;

		if (rtsp_connect(rtsp_hp) < 0) {
			perror("rtp-sink: RTSP connect");
			return 1;
		}
		snprintf(uri, sizeof(uri), "rtsp://%s:%s/", rhost, rport);
		a = now_ns();
		code = rtsp("OPTIONS", uri, "", rbuf, sizeof(rbuf));
		options_ms = (now_ns() - a) / 1e6;
		if (code != 200)
			goto rtsp_fail;
		snprintf(uri, sizeof(uri), "rtsp://%s:%s/%s%s", rhost, rport,
			 query[0] ? "?" : "", query);
		snprintf(extra, sizeof(extra), "Transport: RTP/AVP;unicast;"
			 "client_port=%u-%u\r\n", port, port + 1);
		a = now_ns();
		code = rtsp("SETUP", uri, extra, rbuf, sizeof(rbuf));
		setup_ms = (now_ns() - a) / 1e6;
		if (code != 200 || !header(rbuf, "Session"))
			goto rtsp_fail;
		snprintf(session, sizeof(session), "%s", header(rbuf, "Session"));
		session[strcspn(session, ";\r\n")] = 0;
		e = (char *)header(rbuf, "com.ses.streamID");
		stream_id = e ? (unsigned int)atoi(e) : 0;
		snprintf(uri, sizeof(uri), "rtsp://%s:%s/stream=%u%s%s", rhost,
			 rport, stream_id, playquery ? "?" : "",
			 playquery ? playquery : "");
		play_ns = now_ns();
		play_real = real_ns();
		code = rtsp("PLAY", uri, "", rbuf, sizeof(rbuf));
		play_ms = (now_ns() - play_ns) / 1e6;
		if (code != 200)
			goto rtsp_fail;
		t0 = play_ns;
	}
	last_ka = now_ns();
	while (!stop) {
		struct pollfd pf[2] = { { .fd = fd, .events = POLLIN },
					{ .fd = cfd, .events = POLLIN } };
		uint64_t now = now_ns();
		int n, k;

		if (now - t0 >= (uint64_t)(secs * 1e9))
			break;
		if (!rtsp_hp && last_rx && now - last_rx >= (uint64_t)(idle * 1e9))
			break;
		if (rtsp_hp && now - last_ka >= (uint64_t)(keepalive * 1e9)) {
			snprintf(uri, sizeof(uri), "rtsp://%s:%s/", rhost, rport);
			if (rtsp("OPTIONS", uri, "", rbuf, sizeof(rbuf)) != 200)
				goto rtsp_fail;
			last_ka = now;
		}
		if (poll(pf, 2, 20) <= 0)
			continue;
		if (pf[1].revents & POLLIN)
			while (recv(cfd, buf[0], DGMAX, 0) > 0)
				;
		for (;;) {
			for (k = 0; k < NB; k++) {
				mm[k].msg_hdr.msg_control = cbuf[k];
				mm[k].msg_hdr.msg_controllen = sizeof(cbuf[k]);
			}
			n = recvmmsg(fd, mm, NB, MSG_DONTWAIT, NULL);
			if (n <= 0)
				break;
			now = now_ns();
			last_rx = now;
			for (k = 0; k < n; k++) {
				struct cmsghdr *cm;
				struct timespec kt = { 0, 0 };
				bool had = st.first_ns != 0;

				account(buf[k], mm[k].msg_len, now);
				for (cm = CMSG_FIRSTHDR(&mm[k].msg_hdr); cm;
				     cm = CMSG_NXTHDR(&mm[k].msg_hdr, cm)) {
					if (cm->cmsg_level != SOL_SOCKET)
						continue;
					if (cm->cmsg_type == SO_RXQ_OVFL)
						memcpy(&st.ovfl, CMSG_DATA(cm), 4);
					else if (cm->cmsg_type == SCM_TIMESTAMPNS)
						memcpy(&kt, CMSG_DATA(cm), sizeof(kt));
				}
				/* the first TS: the kernel's arrival time */
				if (!had && st.first_ns && kt.tv_sec)
					first_real = (uint64_t)kt.tv_sec * 1000000000ull +
						     (uint64_t)kt.tv_nsec;
			}
			if (n < NB)
				break;
		}
	}
	if (rtsp_hp) {
		snprintf(uri, sizeof(uri), "rtsp://%s:%s/stream=%u", rhost,
			 rport, stream_id);
		if (rtsp("TEARDOWN", uri, "", rbuf, sizeof(rbuf)) != 200)
			fprintf(stderr, "rtp-sink: TEARDOWN failed\n");
	}
	if (play_real && first_real)
		first_ms = ((double)first_real - (double)play_real) / 1e6;
	else if (play_ns && st.first_ns)
		first_ms = (st.first_ns - play_ns) / 1e6;
	{
		double t = st.first_ns && st.last_ns > st.first_ns ?
			(st.last_ns - st.first_ns) / 1e9 : 0;

		printf("recv %llu datagrams %llu bytes in %.3f s (%.2f Mbit/s) empty %llu short %llu "
		       "seqlost %llu reorder %llu ccerr %llu syncerr %llu badhdr %llu "
		       "ovfl %u options_ms %.3f setup_ms %.3f play_ms %.3f first_ms %.3f "
		       "cpu %.3f\n",
		       (unsigned long long)st.dgrams, (unsigned long long)st.bytes, t,
		       t > 0 ? st.bytes * 8 / t / 1e6 : 0, (unsigned long long)st.empty,
		       (unsigned long long)st.shortd,
		       (unsigned long long)st.seqlost, (unsigned long long)st.reorder,
		       (unsigned long long)st.ccerr, (unsigned long long)st.syncerr,
		       (unsigned long long)st.badhdr, st.ovfl, options_ms, setup_ms,
		       play_ms, first_ms, cpu_s() - c0);
	}
	(void)quiet;
	return 0;
rtsp_fail:
	fprintf(stderr, "rtp-sink: RTSP request failed (%d):\n%s\n", code, rbuf);
	return 1;
}
