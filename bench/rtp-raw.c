// SPDX-License-Identifier: GPL-2.0
/*
 * rtp-raw.c - the raw baseline of the SAT>IP benchmark (bench/satip.sh):
 * a TS file read into memory once, sent paced at a bit rate to a UDP port
 * as RTP (payload type 33, a 12-byte header and 7 x 188-byte TS packets
 * a datagram) with sendmmsg() batches, as vtunerd's SAT>IP output does,
 * and nothing else.
 *
 *   rtp-raw FILE HOST:PORT RATE SECS [copy] [tick=MS] [batch=N]
 *
 * RATE in bit/s of TS (0: as fast as the socket takes it, blocking);
 * every tick (10 ms, the sim's) the packets due go out, at most batch
 * (64, vtunerd's MMSG_BATCH) datagrams a sendmmsg(), MSG_DONTWAIT: a
 * datagram the socket refuses is dropped and its sequence number skipped,
 * as vtunerd does.  "copy": each tick's TS is first copied out of the
 * file's image into a buffer (like a read() from dvr0, or the sim's
 * ts_file fill), else it is sent from the image itself.  The file's
 * continuity counters are renumbered from 0 at load and the PIDs whose
 * packet count is not a multiple of 16 moved on at every loop point (in
 * the image, once a loop), so a receiver sees no CC error at the loop.
 * A sender that falls behind skips what is due beyond 1/4 s (at least
 * 4 MiB), as the sim does (VTD_SIM_BACKLOG_*).
 * Prints "sent DGRAMS datagrams BYTES bytes in T s cpu C s user U s dropped D
 * skipped S sleeps V" (D datagrams the socket refused, S TS packets
 * skipped, V voluntary context switches: the times it slept).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TS	188
#define PKTS	7
#define HDR	12
#define MAXB	1024

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static long nvcsw(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_nvcsw;
}

static double user_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
}

static uint8_t *img;
static size_t npk;
static uint32_t *fix;		/* packets of PIDs that move on a loop */
static size_t nfix;
static uint8_t step[8192];

static unsigned int pid_of(const uint8_t *p)
{
	return ((p[1] & 0x1fu) << 8) | p[2];
}

static void load(const char *path)
{
	static uint8_t cc[8192];
	static uint32_t count[8192];
	FILE *f = fopen(path, "rb");
	struct stat sb;
	size_t i;

	if (!f || fstat(fileno(f), &sb) < 0) {
		perror(path);
		exit(1);
	}
	npk = (size_t)sb.st_size / TS;
	img = malloc(npk * TS);
	fix = malloc(npk * sizeof(*fix));
	if (!img || !fix || fread(img, TS, npk, f) != npk || !npk) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(1);
	}
	fclose(f);
	for (i = 0; i < npk; i++) {
		uint8_t *p = img + i * TS;
		unsigned int pid = pid_of(p);

		if (p[0] != 0x47) {
			fprintf(stderr, "%s: no sync at packet %zu\n", path, i);
			exit(1);
		}
		if (pid == 0x1fff || !(p[3] & 0x10))
			continue;
		p[3] = (uint8_t)((p[3] & 0xf0) | (cc[pid]++ & 0x0f));
		count[pid]++;
	}
	for (i = 0; i < 8192; i++)
		step[i] = (uint8_t)(count[i] & 0x0f);
	for (i = 0; i < npk; i++) {
		const uint8_t *p = img + i * TS;

		if (pid_of(p) != 0x1fff && (p[3] & 0x10) && step[pid_of(p)])
			fix[nfix++] = (uint32_t)i;
	}
}

/* one loop played: the counters of fix move on by their PID's step */
static void loop_fix(void)
{
	size_t i;

	for (i = 0; i < nfix; i++) {
		uint8_t *p = img + (size_t)fix[i] * TS;

		p[3] = (uint8_t)((p[3] & 0xf0) | ((p[3] + step[pid_of(p)]) & 0x0f));
	}
}

int main(int argc, char **argv)
{
	static uint8_t hdr[MAXB][HDR];
	static struct iovec iov[MAXB][1 + PKTS];
	static struct mmsghdr mm[MAXB];
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_DGRAM }, *ai;
	char host[256], *colon;
	uint64_t rate, t0, backlog, skipped = 0, tick_ns = 10000000ull, sent_pk = 0, dgrams = 0, dropped = 0, bytes = 0;
	double secs, c0, u0;
	long v0;
	uint8_t *copybuf = NULL;
	size_t pos = 0, copymax = 0;
	unsigned int batch = 64;
	uint16_t seq = 0;
	uint32_t ssrc = 0x52415721;
	int fd, i, sz = 4 << 20;
	bool copy = false;

	if (argc < 5) {
		fprintf(stderr, "usage: rtp-raw FILE HOST:PORT RATE SECS [copy] [tick=MS] [batch=N]\n");
		return 2;
	}
	for (i = 5; i < argc; i++) {
		if (!strcmp(argv[i], "copy"))
			copy = true;
		else if (!strncmp(argv[i], "tick=", 5))
			tick_ns = (uint64_t)(atof(argv[i] + 5) * 1e6);
		else if (!strncmp(argv[i], "batch=", 6))
			batch = (unsigned int)atoi(argv[i] + 6);
		else {
			fprintf(stderr, "rtp-raw: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (batch < 1 || batch > MAXB)
		batch = 64;
	load(argv[1]);
	snprintf(host, sizeof(host), "%s", argv[2]);
	colon = strrchr(host, ':');
	if (!colon)
		return 2;
	*colon = 0;
	if (getaddrinfo(host, colon + 1, &hints, &ai)) {
		fprintf(stderr, "rtp-raw: bad address %s\n", argv[2]);
		return 2;
	}
	rate = strtoull(argv[3], NULL, 10);
	secs = atof(argv[4]);
	backlog = rate / 8 / TS / 4;
	if (backlog < (4u << 20) / TS)
		backlog = (4u << 20) / TS;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		perror("rtp-raw: socket");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (copy) {
		/* a tick's packets, or a batch's when unpaced */
		copymax = rate ? (size_t)(rate / 8 / TS * tick_ns / 1000000000ull) * 2 + 1024
			       : (size_t)batch * PKTS;
		copybuf = malloc(copymax * TS);
		if (!copybuf)
			return 1;
	}
	c0 = cpu_s();
	u0 = user_s();
	v0 = nvcsw();
	t0 = now_ns();
	for (;;) {
		uint64_t now = now_ns(), due, left;
		const uint8_t *src;
		size_t cpos = 0;
		uint32_t ts;

		if (now - t0 >= (uint64_t)(secs * 1e9))
			break;
		if (rate) {
			due = (uint64_t)((double)(now - t0) * rate / 8 / TS / 1e9);
			due = due > sent_pk ? due - sent_pk : 0;
			/* as the sim: at most 1/4 s (or 4 MiB) waits, the
			 * rest is skipped (a slow sender loses it) */
			if (due > backlog) {
				skipped += due - backlog;
				sent_pk += due - backlog;
				pos = (pos + (due - backlog)) % npk;
				due = backlog;
			}
			if (copy && due > copymax)
				due = copymax;
		} else {
			due = (uint64_t)batch * PKTS;
		}
		ts = (uint32_t)(now / 100000ull * 9ull);
		left = due;
		while (left && now_ns() - t0 < (uint64_t)(secs * 1e9)) {
			unsigned int nm;
			int r, flags = rate ? MSG_DONTWAIT : 0;

			for (nm = 0; nm < batch && left; nm++) {
				size_t m = left < PKTS ? left : PKTS, k;

				if (m > npk - pos)
					m = npk - pos;
				hdr[nm][0] = 0x80;
				hdr[nm][1] = 33;
				hdr[nm][2] = (uint8_t)(seq >> 8);
				hdr[nm][3] = (uint8_t)seq;
				hdr[nm][4] = (uint8_t)(ts >> 24);
				hdr[nm][5] = (uint8_t)(ts >> 16);
				hdr[nm][6] = (uint8_t)(ts >> 8);
				hdr[nm][7] = (uint8_t)ts;
				hdr[nm][8] = (uint8_t)(ssrc >> 24);
				hdr[nm][9] = (uint8_t)(ssrc >> 16);
				hdr[nm][10] = (uint8_t)(ssrc >> 8);
				hdr[nm][11] = (uint8_t)ssrc;
				seq++;
				iov[nm][0].iov_base = hdr[nm];
				iov[nm][0].iov_len = HDR;
				src = img + pos * TS;
				if (copy) {
					if (cpos + m > copymax)
						cpos = 0;
					memcpy(copybuf + cpos * TS, src, m * TS);
					src = copybuf + cpos * TS;
					cpos += m;
				}
				for (k = 0; k < m; k++) {
					iov[nm][1 + k].iov_base = (void *)(src + k * TS);
					iov[nm][1 + k].iov_len = TS;
				}
				memset(&mm[nm].msg_hdr, 0, sizeof(mm[nm].msg_hdr));
				mm[nm].msg_hdr.msg_iov = iov[nm];
				mm[nm].msg_hdr.msg_iovlen = 1 + m;
				pos += m;
				left -= m;
				sent_pk += m;
				if (pos == npk) {
					/* the datagrams built so far point into
					 * the image: send them before the fix */
					nm++;
					break;
				}
			}
			r = sendmmsg(fd, mm, nm, flags);
			if (r < 0)
				r = 0;
			dgrams += (uint64_t)r;
			dropped += nm - (unsigned int)r;
			for (i = 0; i < r; i++)
				bytes += (mm[i].msg_hdr.msg_iovlen - 1) * TS;
			if (pos == npk) {
				pos = 0;
				loop_fix();
			}
		}
		if (rate) {
			struct timespec ts_next;
			uint64_t next = t0 + ((now - t0) / tick_ns + 1) * tick_ns;

			ts_next.tv_sec = (time_t)(next / 1000000000ull);
			ts_next.tv_nsec = (long)(next % 1000000000ull);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts_next, NULL);
		}
	}
	/* bytes: the TS of the datagrams the socket took */
	printf("sent %llu datagrams %llu bytes in %.3f s cpu %.3f s user %.3f s dropped %llu skipped %llu sleeps %ld\n",
	       (unsigned long long)dgrams,
	       (unsigned long long)bytes, (now_ns() - t0) / 1e9,
	       cpu_s() - c0, user_s() - u0, (unsigned long long)dropped,
	       (unsigned long long)skipped, nvcsw() - v0);
	return 0;
}
