// SPDX-License-Identifier: GPL-2.0
/*
 * vt-pidchurn - an application that keeps changing the PIDs an adapter's
 * demux carries while another one records (tests/vm/t/47-pid-changes.sh).
 *
 *   vt-pidchurn [-a ADAPTER] [-d SECONDS] [-s STEP_MS] PID...
 *	Every STEP_MS (default 300) toggles the next PID of the list in
 *	turn: opens a DMX_OUT_TSDEMUX_TAP filter on it if it has none,
 *	closes it otherwise (PID 8192 is the whole TS), for SECONDS
 *	(default 10); reads and discards what the filters deliver, so that
 *	nothing reaches dvr0.  Prints "+PID" or "-PID" for each change,
 *	then "pid=PID bytes=N" for each PID (what its filter delivered) and
 *	"changes=N bytes=N" at the end.
 * Exit 0 at the end, 1 when a filter cannot be set, 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>

#define MAX_PIDS 32

static const char *progname = "vt-pidchurn";

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [-a ADAPTER] [-d SECONDS] [-s STEP_MS] PID...\n"
		"Toggles a DMX_OUT_TSDEMUX_TAP filter on each PID in turn, one\n"
		"every STEP_MS (default 300), for SECONDS (default 10); 8192 is\n"
		"the whole TS.\n", progname);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int filter_open(const char *demux, unsigned int pid)
{
	struct dmx_pes_filter_params p = {
		.pid = (uint16_t)pid, .input = DMX_IN_FRONTEND,
		.output = DMX_OUT_TSDEMUX_TAP, .pes_type = DMX_PES_OTHER,
		.flags = DMX_IMMEDIATE_START,
	};
	int fd = open(demux, O_RDWR | O_NONBLOCK);

	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", progname, demux,
			strerror(errno));
		return -1;
	}
	if (ioctl(fd, DMX_SET_BUFFER_SIZE, 1024UL * 1024) < 0 ||
	    ioctl(fd, DMX_SET_PES_FILTER, &p) < 0) {
		fprintf(stderr, "%s: PID %u: %s\n", progname, pid,
			strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	unsigned int adapter = 0, pids[MAX_PIDS], npids = 0, next = 0;
	unsigned long changes = 0;
	unsigned long long bytes = 0, pid_bytes[MAX_PIDS] = { 0 };
	int which[MAX_PIDS];
	double secs = 10, step_ms = 300, end, next_at;
	int fds[MAX_PIDS], opt, i;
	struct pollfd pfd[MAX_PIDS];
	static char buf[188 * 512];
	char demux[64], *e;

	while ((opt = getopt(argc, argv, "a:d:s:h")) != -1) {
		switch (opt) {
		case 'a':
			adapter = strtoul(optarg, &e, 10);
			if (*e || !*optarg)
				goto bad;
			break;
		case 'd':
			secs = strtod(optarg, &e);
			if (*e || secs <= 0)
				goto bad;
			break;
		case 's':
			step_ms = strtod(optarg, &e);
			if (*e || step_ms <= 0)
				goto bad;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	for (i = optind; i < argc; i++) {
		unsigned long v = strtoul(argv[i], &e, 0);

		if (*e || !*argv[i] || v > 0x2000 || npids == MAX_PIDS)
			goto bad;
		pids[npids++] = v;
	}
	if (!npids)
		goto bad;
	snprintf(demux, sizeof(demux), "/dev/dvb/adapter%u/demux0", adapter);
	for (i = 0; i < (int)npids; i++)
		fds[i] = -1;

	end = now_s() + secs;
	next_at = now_s();
	while (now_s() < end) {
		int n = 0, ms;

		if (now_s() >= next_at) {
			unsigned int k = next++ % npids;

			if (fds[k] >= 0) {
				close(fds[k]);
				fds[k] = -1;
				printf("-%u\n", pids[k]);
			} else {
				fds[k] = filter_open(demux, pids[k]);
				if (fds[k] < 0)
					return 1;
				printf("+%u\n", pids[k]);
			}
			fflush(stdout);
			changes++;
			next_at += step_ms / 1000;
		}
		for (i = 0; i < (int)npids; i++)
			if (fds[i] >= 0) {
				pfd[n].fd = fds[i];
				pfd[n].events = POLLIN;
				which[n] = i;
				n++;
			}
		ms = (int)((next_at - now_s()) * 1000) + 1;
		if (ms < 1)
			ms = 1;
		if (poll(pfd, n, ms) < 0 && errno != EINTR) {
			perror(progname);
			return 1;
		}
		for (i = 0; i < n; i++) {
			ssize_t r;

			if (!(pfd[i].revents & (POLLIN | POLLERR)))
				continue;
			r = read(pfd[i].fd, buf, sizeof(buf));
			if (r > 0) {
				bytes += r;
				pid_bytes[which[i]] += r;
			}
		}
	}
	for (i = 0; i < (int)npids; i++)
		printf("pid=%u bytes=%llu\n", pids[i], pid_bytes[i]);
	printf("changes=%lu bytes=%llu\n", changes, bytes);
	return 0;
bad:
	usage(stderr);
	return 2;
}
