// SPDX-License-Identifier: GPL-2.0
/*
 * relay.c - the raw baseline of the data-path benchmark: the minimal TCP
 * sender and receiver the vtunerd -> vtunerc chain is compared with.
 *
 *   relay send HOST:PORT FILE RATE SECONDS [read]
 *	connect, then write FILE (mapped, looped) at RATE
 *	bit/s (0: as fast as the socket takes it) for SECONDS: on each
 *	absolute 10 ms tick, like the simulated tuner, all bytes due by
 *	then, in 192512-byte writes (1024 packets,
 *	the largest TS chunk vtunerd reads); prints the bytes sent.  The
 *	bytes are written from the file's mapping (no copy in user space),
 *	or with "read" pread() into one buffer first: the one copy any relay
 *	of a real tuner makes (read() from dvr0, as socat would) and the
 *	simulated tuner makes too.
 *   relay recv [ADDR:]PORT OUT
 *	listen on ADDR:PORT (default 127.0.0.1), accept one connection, copy
 *	it to OUT (a file, a FIFO, /dev/null) with 256 KiB reads until EOF;
 *	prints the bytes.  OUT is opened after the listen, so a FIFO's
 *	reader may start after the sender has connected.
 * Both print "... N bytes in T s cpu C s" (C: getrusage, user+system).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK	(1024 * 188)
#define RBUF	(256 * 1024)
#define TICK_NS	10000000u

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* user+system CPU seconds of this process so far */
static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int do_send(const char *hostport, const char *file, double rate,
		   double secs, bool copy)
{
	uint8_t *buf = copy ? malloc(CHUNK) : NULL;
	char host[64];
	const char *colon = strrchr(hostport, ':');
	struct sockaddr_in sa = { .sin_family = AF_INET };
	uint64_t start, end, tick, sent = 0, pos = 0;
	struct stat st;
	const uint8_t *data;
	size_t size;
	int fd, s;

	if (!colon || (size_t)(colon - hostport) >= sizeof(host))
		return fprintf(stderr, "relay: bad HOST:PORT\n"), 2;
	memcpy(host, hostport, (size_t)(colon - hostport));
	host[colon - hostport] = 0;
	sa.sin_port = htons((uint16_t)atoi(colon + 1));
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return fprintf(stderr, "relay: bad address %s\n", host), 2;
	fd = open(file, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < CHUNK)
		return perror(file), 1;
	size = (size_t)st.st_size / 188 * 188;
	/* mapped, not copied: 16 senders of one file share its page cache */
	data = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (data == MAP_FAILED)
		return perror(file), 1;
	if (copy && !buf)
		return perror("malloc"), 1;
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return perror("connect"), 1;
	start = now_ns();
	end = start + (uint64_t)(secs * 1e9);
	tick = start;
	for (;;) {
		uint64_t due;

		if (rate > 0) {
			/*
			 * Like the simulated tuner: wake on an absolute 10 ms
			 * tick, write everything due by it, sleep again.  (Not
			 * "write what is due by now" in a loop: at high rates
			 * that never sleeps and degenerates into a busy loop of
			 * small writes.)
			 */
			struct timespec ts;

			tick += TICK_NS;
			if (tick > end)
				break;
			ts.tv_sec = (time_t)(tick / 1000000000u);
			ts.tv_nsec = (long)(tick % 1000000000u);
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					       &ts, NULL) == EINTR)
				;
			due = (uint64_t)((double)(tick - start) * rate / 8e9);
			due = due / 188 * 188;
		} else {
			if (now_ns() >= end)
				break;
			due = sent + CHUNK;
		}
		while (sent < due) {
			size_t n = due - sent > CHUNK ? CHUNK : due - sent;

			if (n > size - pos)	/* up to the end, then around */
				n = size - pos;

			if (copy && pread(fd, buf, n, (off_t)pos) != (ssize_t)n)
				return perror("pread"), 1;
			if (write_all(s, copy ? buf : data + pos, n) < 0)
				return perror("write"), 1;
			sent += n;
			pos = (pos + n) % size;
		}
	}
	close(s);
	close(fd);
	free(buf);
	printf("sent %llu bytes in %.3f s cpu %.3f s\n",
	       (unsigned long long)sent, (now_ns() - start) / 1e9, cpu_s());
	return 0;
}

static int do_recv(const char *addrport, const char *out)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *colon = strrchr(addrport, ':');
	uint64_t total = 0, start = 0;
	int l, c, o, one = 1;
	static uint8_t buf[RBUF];
	char host[64];
	ssize_t n;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (colon) {
		if ((size_t)(colon - addrport) >= sizeof(host))
			return fprintf(stderr, "relay: bad ADDR:PORT\n"), 2;
		memcpy(host, addrport, (size_t)(colon - addrport));
		host[colon - addrport] = 0;
		if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
			return fprintf(stderr, "relay: bad address %s\n", host), 2;
		addrport = colon + 1;
	}
	sa.sin_port = htons((uint16_t)atoi(addrport));
	l = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(l, 1) < 0)
		return perror("listen"), 1;
	printf("listening\n");
	fflush(stdout);
	o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (o < 0)
		return perror(out), 1;
	c = accept(l, NULL, NULL);
	if (c < 0)
		return perror("accept"), 1;
	close(l);
	while ((n = read(c, buf, RBUF)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return perror("read"), 1;
		}
		if (!total)
			start = now_ns();
		if (write_all(o, buf, (size_t)n) < 0)
			return perror("write"), 1;
		total += (uint64_t)n;
	}
	printf("received %llu bytes in %.3f s cpu %.3f s\n",
	       (unsigned long long)total, (now_ns() - start) / 1e9, cpu_s());
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 6 || (argc == 7 && !strcmp(argv[6], "read"))) &&
	    !strcmp(argv[1], "send"))
		return do_send(argv[2], argv[3], atof(argv[4]), atof(argv[5]),
			       argc == 7);
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return do_recv(argv[2], argv[3]);
	fprintf(stderr, "usage: relay send HOST:PORT FILE RATE SECONDS [read]\n"
		"       relay recv [ADDR:]PORT OUT\n");
	return 2;
}
