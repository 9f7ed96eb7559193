// SPDX-License-Identifier: GPL-2.0
/*
 * dvr-reader.c - reads the TS of an adapter (all of it, or a set of PIDs)
 * for a while and counts what was lost.
 *
 *   dvr-reader -a N [-s SECONDS] [-b BUFFER_BYTES] [-r READY_FILE]
 *              [-c FREQ] [-p PID,PID,...] [-m tap|tsdemux]
 *
 * -c: first tune the adapter to DVB-C (annex A) FREQ Hz, 6900000 Bd, and
 * wait (5 s at most) for FE_HAS_LOCK; the frontend stays open.
 * -p: the PIDs to read (default 0x2000, the whole TS); -m how:
 *   tap      one DMX_OUT_TS_TAP filter per PID, each on a demux descriptor
 *            of its own, all read from dvr0 (what vtunerd's dvb backend
 *            and an application like dvbv5-zap -r do; the default)
 *   tsdemux  one DMX_OUT_TSDEMUX_TAP filter on the first PID, DMX_ADD_PID
 *            for the others, started once complete, read from the demux
 *            descriptor itself
 * -b is the buffer that is read: dvr0's (tap) or the filter's (tsdemux).
 * Prints one line at the end:
 *   adapter=N mode=M pids=K bytes=B secs=S mbps=R cc_errors=C
 *   sync_errors=E overflows=O reads=N cpu_s=U+S ns_per_kb=X
 * (continuity errors per PID, over payload packets, 0x1fff excluded;
 * overflows = reads that failed with EOVERFLOW: the buffer was full;
 * cpu_s = user + system time of this process (getrusage) from the start
 * of the filters to the end, ns_per_kb the same per KiB read).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>
#include <linux/dvb/frontend.h>

#define MAX_PIDS 64

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
}

static int tune(int adapter, unsigned long freq)
{
	struct dtv_property p[] = {
		{ .cmd = DTV_CLEAR },
		{ .cmd = DTV_DELIVERY_SYSTEM, .u.data = SYS_DVBC_ANNEX_A },
		{ .cmd = DTV_FREQUENCY, .u.data = (uint32_t)freq },
		{ .cmd = DTV_SYMBOL_RATE, .u.data = 6900000 },
		{ .cmd = DTV_MODULATION, .u.data = QAM_AUTO },
		{ .cmd = DTV_TUNE },
	};
	struct dtv_properties ps = { .num = 6, .props = p };
	fe_status_t st = 0;
	char path[64];
	double end;
	int fe;

	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/frontend0", adapter);
	fe = open(path, O_RDWR);
	if (fe < 0 || ioctl(fe, FE_SET_PROPERTY, &ps) < 0)
		return perror(path), -1;
	for (end = now_s() + 5; now_s() < end; usleep(10000))
		if (!ioctl(fe, FE_READ_STATUS, &st) && (st & FE_HAS_LOCK))
			break;
	if (!(st & FE_HAS_LOCK))
		fprintf(stderr, "adapter %d: no lock\n", adapter);
	return fe;
}

static int set_buffer(int fd, long size, const char *what)
{
	if (ioctl(fd, DMX_SET_BUFFER_SIZE, size) < 0) {
		perror(what);
		return -1;
	}
	return 0;
}

/* one DMX_OUT_TS_TAP filter per PID, read from dvr0: the dvr descriptor */
static int open_tap(int adapter, const uint16_t *pids, int npids, long bufsize)
{
	char path[64];
	int dvr, i;

	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/dvr0", adapter);
	dvr = open(path, O_RDONLY | O_NONBLOCK);
	if (dvr < 0)
		return perror(path), -1;
	set_buffer(dvr, bufsize, "dvr0: DMX_SET_BUFFER_SIZE");
	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/demux0", adapter);
	for (i = 0; i < npids; i++) {
		struct dmx_pes_filter_params f = {
			.pid = pids[i], .input = DMX_IN_FRONTEND,
			.output = DMX_OUT_TS_TAP, .pes_type = DMX_PES_OTHER,
			.flags = DMX_IMMEDIATE_START,
		};
		int dmx = open(path, O_RDWR);	/* kept open to the end */

		if (dmx < 0 || ioctl(dmx, DMX_SET_PES_FILTER, &f) < 0) {
			fprintf(stderr, "PID %u: ", pids[i]);
			return perror(path), -1;
		}
	}
	return dvr;
}

/* one DMX_OUT_TSDEMUX_TAP filter with every PID, read from its descriptor */
static int open_tsdemux(int adapter, const uint16_t *pids, int npids,
			long bufsize)
{
	struct dmx_pes_filter_params f = {
		.pid = pids[0], .input = DMX_IN_FRONTEND,
		.output = DMX_OUT_TSDEMUX_TAP, .pes_type = DMX_PES_OTHER,
	};
	char path[64];
	int dmx, i;

	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/demux0", adapter);
	dmx = open(path, O_RDWR | O_NONBLOCK);
	if (dmx < 0)
		return perror(path), -1;
	/* before the filter is set: dvb-core refuses it on a running one */
	set_buffer(dmx, bufsize, "demux0: DMX_SET_BUFFER_SIZE");
	if (ioctl(dmx, DMX_SET_PES_FILTER, &f) < 0)
		return perror("DMX_SET_PES_FILTER"), -1;
	for (i = 1; i < npids; i++) {
		uint16_t pid = pids[i];

		if (ioctl(dmx, DMX_ADD_PID, &pid) < 0) {
			fprintf(stderr, "PID %u: ", pid);
			return perror("DMX_ADD_PID"), -1;
		}
	}
	if (ioctl(dmx, DMX_START) < 0)
		return perror("DMX_START"), -1;
	return dmx;
}

int main(int argc, char **argv)
{
	int adapter = 0, opt, fd, npids = 0, tsdemux = 0;
	double secs = 10, t0 = 0, t = 0, end, u0, s0, u1, s1;
	long bufsize = 8 << 20;
	const char *ready = NULL;
	static uint8_t buf[1 << 20], part[188];
	static int16_t cc[8192];
	uint16_t pids[MAX_PIDS];
	uint64_t bytes = 0, ccerr = 0, syncerr = 0, overflows = 0, reads = 0;
	size_t partlen = 0;
	unsigned long freq = 0;
	char *p, *e;

	while ((opt = getopt(argc, argv, "a:s:b:r:c:p:m:")) != -1) {
		if (opt == 'a')
			adapter = atoi(optarg);
		else if (opt == 's')
			secs = atof(optarg);
		else if (opt == 'b')
			bufsize = atol(optarg);
		else if (opt == 'r')
			ready = optarg;
		else if (opt == 'c')
			freq = strtoul(optarg, NULL, 0);
		else if (opt == 'p')
			for (p = optarg; *p; p = *e ? e + 1 : e) {
				unsigned long v = strtoul(p, &e, 0);

				if (e == p || (*e && *e != ',') || v > 0x2000 ||
				    npids == MAX_PIDS)
					return fprintf(stderr, "-p: bad list %s\n", optarg), 2;
				pids[npids++] = (uint16_t)v;
			}
		else if (opt == 'm' && !strcmp(optarg, "tap"))
			tsdemux = 0;
		else if (opt == 'm' && !strcmp(optarg, "tsdemux"))
			tsdemux = 1;
		else
			return 2;
	}
	if (!npids)
		pids[npids++] = 0x2000;
	memset(cc, 0xff, sizeof(cc));
	if (freq && tune(adapter, freq) < 0)
		return 1;
	u0 = cpu_s(&s0);
	fd = tsdemux ? open_tsdemux(adapter, pids, npids, bufsize) :
		       open_tap(adapter, pids, npids, bufsize);
	if (fd < 0)
		return 1;
	if (ready) {
		FILE *r = fopen(ready, "w");

		if (r)
			fclose(r);
	}
	end = now_s() + secs;
	while ((t = now_s()) < end) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		ssize_t n;
		size_t i, off = 0;

		if (poll(&pf, 1, 100) <= 0)
			continue;
		n = read(fd, buf + partlen, sizeof(buf) - partlen);
		reads++;
		if (n < 0) {
			if (errno == EOVERFLOW)
				overflows++;
			continue;
		}
		if (!bytes && n > 0)
			t0 = t;
		bytes += (uint64_t)n;
		memcpy(buf, part, partlen);
		n += (ssize_t)partlen;
		for (i = 0; i + 188 <= (size_t)n; i += 188) {
			const uint8_t *k = buf + i;
			unsigned int pid = (k[1] & 0x1f) << 8 | k[2], c = k[3] & 15;

			if (k[0] != 0x47) {
				syncerr++;
				continue;
			}
			if (pid == 0x1fff || !(k[3] & 0x10))
				continue;
			if (cc[pid] >= 0 && c != (((unsigned int)cc[pid] + 1) & 15) &&
			    c != (unsigned int)cc[pid])
				ccerr++;
			cc[pid] = (int16_t)c;
		}
		off = i;
		partlen = (size_t)n - off;
		memcpy(part, buf + off, partlen);
	}
	u1 = cpu_s(&s1);
	printf("adapter=%d mode=%s pids=%d bytes=%llu secs=%.2f mbps=%.2f "
	       "cc_errors=%llu sync_errors=%llu overflows=%llu reads=%llu "
	       "cpu_s=%.3f+%.3f ns_per_kb=%.0f\n", adapter,
	       tsdemux ? "tsdemux" : "tap", npids,
	       (unsigned long long)bytes, t0 ? t - t0 : 0.0,
	       t0 && t > t0 ? bytes * 8 / (t - t0) / 1e6 : 0.0,
	       (unsigned long long)ccerr, (unsigned long long)syncerr,
	       (unsigned long long)overflows, (unsigned long long)reads,
	       u1 - u0, s1 - s0,
	       bytes ? (u1 - u0 + s1 - s0) * 1e9 / (bytes / 1024.0) : 0.0);
	return 0;
}
