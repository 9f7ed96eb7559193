// SPDX-License-Identifier: GPL-2.0
/*
 * vt-bigwrite - read the counters of an adapter while its owner is in one
 * long write(), for tests/vm/t/53-counters-nowait.sh.
 *
 *   vt-bigwrite [-a N] MIB
 *	opens /dev/vtunercN, writes MIB MiB (zeros: no packet, every byte
 *	skipped) in one write() from a second thread and, 300 ms into it,
 *	reads /proc/vtunercN and calls VTUNER_EXT_GET_COUNTERS.
 * Prints
 *	proc_read ms=T during_write=yes|no
 *	get_counters ms=T during_write=yes|no bytes=N
 *	write bytes=N ms=T
 * Exit 0 when it got to the end, 1 on errors, 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "vtuner.h"

static int owner;
static size_t len;
static char *buf;
static volatile int writing;
static double write_ms;
static ssize_t written;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *writer(void *arg)
{
	double t0 = now_ms();

	(void)arg;
	writing = 1;
	written = write(owner, buf, len);
	writing = 0;
	write_ms = now_ms() - t0;
	return NULL;
}

int main(int argc, char **argv)
{
	struct vtuner_ext_counters c;
	char path[32], text[4096];
	int adapter = 0, i = 1, fd, during;
	pthread_t thr;
	double t0, ms;
	ssize_t n;

	if (argc > 2 && !strcmp(argv[1], "-a")) {
		adapter = atoi(argv[2]);
		i = 3;
	}
	if (argc - i != 1 || atol(argv[i]) < 1 || atol(argv[i]) > 2047) {
		fprintf(stderr, "usage: vt-bigwrite [-a N] MIB (1-2047)\n");
		return 2;
	}
	len = (size_t)atol(argv[i]) << 20;
	snprintf(path, sizeof(path), "/dev/vtunerc%d", adapter);
	owner = open(path, O_RDWR);
	if (owner < 0) {
		fprintf(stderr, "vt-bigwrite: %s: %s\n", path, strerror(errno));
		return 1;
	}
	/* never touched: every page is the zero page, no memory is used */
	buf = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
		   MAP_NORESERVE, -1, 0);
	if (buf == MAP_FAILED) {
		perror("vt-bigwrite: mmap");
		return 1;
	}
	if (pthread_create(&thr, NULL, writer, NULL)) {
		fprintf(stderr, "vt-bigwrite: pthread_create failed\n");
		return 1;
	}
	while (!writing)
		usleep(1000);
	usleep(300000);

	snprintf(path, sizeof(path), "/proc/vtunerc%d", adapter);
	t0 = now_ms();
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, text, sizeof(text)) < 0) {
		fprintf(stderr, "vt-bigwrite: %s: %s\n", path, strerror(errno));
		return 1;
	}
	close(fd);
	ms = now_ms() - t0;
	during = writing;
	printf("proc_read ms=%.0f during_write=%s\n", ms, during ? "yes" : "no");
	fflush(stdout);

	t0 = now_ms();
	if (ioctl(owner, VTUNER_EXT_GET_COUNTERS, &c) < 0) {
		perror("vt-bigwrite: VTUNER_EXT_GET_COUNTERS");
		return 1;
	}
	ms = now_ms() - t0;
	during = writing;
	printf("get_counters ms=%.0f during_write=%s bytes=%llu\n", ms,
	       during ? "yes" : "no", (unsigned long long)c.bytes);
	fflush(stdout);

	pthread_join(thr, NULL);
	if (written < 0) {
		perror("vt-bigwrite: write");
		return 1;
	}
	printf("write bytes=%zd ms=%.0f\n", written, write_ms);
	n = ioctl(owner, VTUNER_EXT_GET_COUNTERS, &c);
	if (n == 0)
		printf("after bytes=%llu dropped_bytes=%llu\n",
		       (unsigned long long)c.bytes,
		       (unsigned long long)c.dropped_bytes);
	close(owner);
	return 0;
}
