// SPDX-License-Identifier: GPL-2.0
/*
 * vt-dmxfail - demux requests whose feeds cannot all start, on an adapter
 * whose TS flows (a vt-testtuner writes it), for the test of vtunerc's
 * demux guard (tests/vm/t/28-dmx-feeds.sh).
 *
 *   vt-dmxfail [-a ADAPTER] decoder PID1 PID2 SECPID
 *	a running TSDEMUX_TAP filter of PES type VIDEO0 on PID1 is given
 *	PID2 with DMX_ADD_PID; a section filter on SECPID (table 0) runs
 *	meanwhile for a second; then the first filter is stopped.
 *   vt-dmxfail [-a ADAPTER] exhaust PID1 PID2
 *	a running filter takes every feed but one (a PID each), then a
 *	stopped filter with PID1 and PID2 is started; the first filter gives
 *	up one more PID and the two-PID filter is started again.
 * Each ioctl prints "NAME rc=R errno=E (TEXT)"; exit 0 when the run got
 * to its end (the test judges the results), 1 on a setup error, 2 on
 * usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>

static char demux[64];

static int call(const char *name, int fd, unsigned long req, void *arg)
{
	int rc = ioctl(fd, req, arg);
	int e = rc < 0 ? errno : 0;

	printf("%s rc=%d errno=%d (%s)\n", name, rc, e, strerror(e));
	fflush(stdout);
	errno = e;
	return rc;
}

static int open_demux(void)
{
	int fd = open(demux, O_RDWR | O_NONBLOCK);

	if (fd < 0)
		fprintf(stderr, "vt-dmxfail: %s: %s\n", demux, strerror(errno));
	return fd;
}

static int pes(int fd, const char *name, unsigned int pid,
	       enum dmx_ts_pes type, unsigned int flags)
{
	struct dmx_pes_filter_params p = {
		.pid = pid, .input = DMX_IN_FRONTEND,
		.output = DMX_OUT_TSDEMUX_TAP, .pes_type = type,
		.flags = flags,
	};

	return call(name, fd, DMX_SET_PES_FILTER, &p);
}

static int decoder(unsigned int pid1, unsigned int pid2, unsigned int secpid)
{
	struct dmx_sct_filter_params s;
	uint16_t p2 = pid2;
	int fd1, fd2;

	fd1 = open_demux();
	fd2 = open_demux();
	if (fd1 < 0 || fd2 < 0)
		return 1;
	pes(fd1, "set_pes_filter_video0", pid1, DMX_PES_VIDEO0,
	    DMX_IMMEDIATE_START);
	call("add_pid", fd1, DMX_ADD_PID, &p2);
	memset(&s, 0, sizeof(s));
	s.pid = secpid;
	s.filter.mask[0] = 0xff;
	s.flags = DMX_IMMEDIATE_START;
	call("set_filter", fd2, DMX_SET_FILTER, &s);
	sleep(1);
	call("stop", fd1, DMX_STOP, NULL);
	close(fd1);
	close(fd2);
	return 0;
}

static int exhaust(unsigned int pid1, unsigned int pid2)
{
	uint16_t p2 = pid2, pid = 0x1000;
	int two, hog, n = 0;

	two = open_demux();
	hog = open_demux();
	if (two < 0 || hog < 0)
		return 1;
	pes(two, "set_pes_filter", pid1, DMX_PES_OTHER, 0);
	call("add_pid", two, DMX_ADD_PID, &p2);
	/* another filter takes the feeds, a PID each, until none is left */
	pes(hog, "set_pes_filter_hog", pid, DMX_PES_OTHER, DMX_IMMEDIATE_START);
	for (n = 1; n < 0x1000; n++) {
		pid = 0x1000 + n;
		if (ioctl(hog, DMX_ADD_PID, &pid) < 0)
			break;
	}
	printf("feeds_taken %d (%s)\n", n, strerror(errno));
	pid = 0x1000 + n - 1;
	call("remove_pid", hog, DMX_REMOVE_PID, &pid);
	call("start_two_pids_one_feed", two, DMX_START, NULL);
	pid = 0x1000 + n - 2;
	call("remove_pid", hog, DMX_REMOVE_PID, &pid);
	call("start_two_pids_two_feeds", two, DMX_START, NULL);
	call("stop", two, DMX_STOP, NULL);
	close(hog);
	close(two);
	return 0;
}

int main(int argc, char **argv)
{
	const char *adapter = "/dev/dvb/adapter0";
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "-a")) {
		adapter = argv[2];
		i = 3;
	}
	snprintf(demux, sizeof(demux), "%s/demux0", adapter);
	if (argc - i == 4 && !strcmp(argv[i], "decoder"))
		return decoder(strtoul(argv[i + 1], NULL, 0),
			       strtoul(argv[i + 2], NULL, 0),
			       strtoul(argv[i + 3], NULL, 0));
	if (argc - i == 3 && !strcmp(argv[i], "exhaust"))
		return exhaust(strtoul(argv[i + 1], NULL, 0),
			       strtoul(argv[i + 2], NULL, 0));
	fprintf(stderr, "usage: vt-dmxfail [-a ADAPTER] decoder PID1 PID2 "
		"SECPID | exhaust PID1 PID2\n");
	return 2;
}
