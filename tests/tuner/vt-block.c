// SPDX-License-Identifier: GPL-2.0
/*
 * vt-block - an application blocked in one call on an adapter's node, to
 * see what it gets when the adapter goes away under it
 * (tests/vm/t/62-cuse-faults.sh).
 *
 *   vt-block [-a ADAPTER] [-p PID] WHAT
 *   WHAT: fe-event  frontend0 read-write, FE_GET_EVENT (blocking; dvb-core
 *                   refuses it to a read-only open)
 *         fe-poll   frontend0 read-only, poll() for POLLPRI (events are
 *                   fe-event's to take: 10 ms between two polls that see
 *                   some), FE_READ_STATUS after each
 *         dmx-read  demux0, a section filter on PID (default 0x1ff0, not
 *                   in the stream), read() (blocking)
 *         dmx-poll  the same filter, poll() for POLLIN
 *         dvr-read  demux0 a DMX_OUT_TS_TAP filter on PID (default 257),
 *                   dvr0 read-only, read() of 1 MiB (blocking: returns
 *                   when the whole MiB came)
 * Prints "WHAT ready" once the node is set up, then makes the call again
 * and again until it fails (EINTR and EOVERFLOW go on; a poll that
 * reports POLLERR, POLLHUP or POLLNVAL is followed by a read or ioctl for
 * the error), and prints "WHAT errno=N (text) calls=N bytes=N t=REALTIME"
 * (t: when the failing call returned).  Exit 0 then, 1 when the setup
 * failed, 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>
#include <linux/dvb/frontend.h>

#define DVR_READ (1 << 20)

static const char *what;
static unsigned long long calls, bytes;

static void usage(void)
{
	fprintf(stderr, "usage: vt-block [-a ADAPTER] [-p PID] "
		"fe-event|fe-poll|dmx-read|dmx-poll|dvr-read\n");
	exit(2);
}

static int open_node(int adapter, const char *node, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/%s", adapter, node);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "vt-block: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static void setup_failed(const char *call)
{
	fprintf(stderr, "vt-block: %s: %s\n", call, strerror(errno));
	exit(1);
}

static int done(int err)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	printf("%s errno=%d (%s) calls=%llu bytes=%llu t=%.3f\n", what, err,
	       strerror(err), calls, bytes, ts.tv_sec + ts.tv_nsec / 1e9);
	return 0;
}

/* a blocking call's result: 1 go on, 0 it failed (errno) */
static int go_on(long r)
{
	calls++;
	if (r >= 0) {
		bytes += r;
		return 1;
	}
	return errno == EINTR || errno == EOVERFLOW;
}

static int block_poll(int fd, short events, int (*drain)(int fd))
{
	struct pollfd pfd = { .fd = fd, .events = events };

	for (;;) {
		pfd.revents = 0;
		calls++;
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return done(errno);
		}
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) {
			/* what a call says now */
			if (drain(fd) < 0)
				return done(errno);
			/* POLLERR with data: dvb-core's read error pending */
			continue;
		}
		if (drain(fd) < 0)
			return done(errno);
	}
}

static int fe_status(int fd)
{
	enum fe_status st;

	if (ioctl(fd, FE_READ_STATUS, &st) < 0)
		return -1;
	usleep(10000);
	return 0;
}

static int drain_read(int fd)
{
	static char buf[8192];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		bytes += n;
	return n == 0 || errno == EWOULDBLOCK || errno == EOVERFLOW ? 0 : -1;
}

int main(int argc, char **argv)
{
	static char buf[DVR_READ];
	struct dmx_sct_filter_params sf = { .pid = 0x1ff0,
					    .flags = DMX_IMMEDIATE_START };
	struct dmx_pes_filter_params pf = {
		.pid = 257, .input = DMX_IN_FRONTEND, .output = DMX_OUT_TS_TAP,
		.pes_type = DMX_PES_OTHER, .flags = DMX_IMMEDIATE_START,
	};
	struct dvb_frontend_event ev;
	int adapter = 0, pid = -1, c, fd, dmx;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt(argc, argv, "a:p:")) != -1) {
		switch (c) {
		case 'a': adapter = atoi(optarg); break;
		case 'p': pid = (int)strtol(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	what = argv[optind];
	if (pid >= 0)
		sf.pid = pf.pid = (__u16)pid;

	if (!strcmp(what, "fe-event")) {
		fd = open_node(adapter, "frontend0", O_RDWR);
		printf("%s ready\n", what);
		while (go_on(ioctl(fd, FE_GET_EVENT, &ev)))
			;
		return done(errno);
	}
	if (!strcmp(what, "fe-poll")) {
		fd = open_node(adapter, "frontend0", O_RDONLY | O_NONBLOCK);
		printf("%s ready\n", what);
		return block_poll(fd, POLLPRI, fe_status);
	}
	if (!strcmp(what, "dmx-read") || !strcmp(what, "dmx-poll")) {
		int poll_it = !strcmp(what, "dmx-poll");

		fd = open_node(adapter, "demux0",
			       O_RDWR | (poll_it ? O_NONBLOCK : 0));
		if (ioctl(fd, DMX_SET_FILTER, &sf) < 0)
			setup_failed("DMX_SET_FILTER");
		printf("%s ready\n", what);
		if (poll_it)
			return block_poll(fd, POLLIN, drain_read);
		while (go_on(read(fd, buf, 4096)))
			;
		return done(errno);
	}
	if (!strcmp(what, "dvr-read")) {
		dmx = open_node(adapter, "demux0", O_RDWR);
		if (ioctl(dmx, DMX_SET_PES_FILTER, &pf) < 0)
			setup_failed("DMX_SET_PES_FILTER");
		fd = open_node(adapter, "dvr0", O_RDONLY);
		printf("%s ready\n", what);
		while (go_on(read(fd, buf, sizeof(buf))))
			;
		return done(errno);
	}
	usage();
}
