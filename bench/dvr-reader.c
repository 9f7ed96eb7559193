// SPDX-License-Identifier: GPL-2.0
/*
 * dvr-reader.c - reads the whole TS of an adapter for a while and counts
 * what was lost.
 *
 *   dvr-reader -a N [-s SECONDS] [-b DVR_BUFFER_BYTES] [-r READY_FILE]
 *              [-c FREQ]
 *
 * -c: first tune the adapter to DVB-C (annex A) FREQ Hz, 6900000 Bd, and
 * wait (5 s at most) for FE_HAS_LOCK; the frontend stays open.
 * Starts an all-PID filter (0x2000, DMX_OUT_TS_TAP) on demux0, reads dvr0
 * and prints one line at the end:
 *   adapter=N bytes=B secs=S mbps=R cc_errors=C sync_errors=E overflows=O
 * (continuity errors per PID, over payload packets, 0x1fff excluded;
 * overflows = reads that failed with EOVERFLOW: the dvr buffer was full).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>
#include <linux/dvb/frontend.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int adapter = 0, opt, dmx, dvr;
	double secs = 10, t0 = 0, t = 0, end;
	long bufsize = 8 << 20;
	const char *ready = NULL;
	struct dmx_pes_filter_params f = {
		.pid = 0x2000, .input = DMX_IN_FRONTEND,
		.output = DMX_OUT_TS_TAP, .pes_type = DMX_PES_OTHER,
		.flags = DMX_IMMEDIATE_START,
	};
	static uint8_t buf[1 << 20], part[188];
	static int16_t cc[8192];
	uint64_t bytes = 0, ccerr = 0, syncerr = 0, overflows = 0;
	size_t partlen = 0;
	char path[64];

	unsigned long freq = 0;

	while ((opt = getopt(argc, argv, "a:s:b:r:c:")) != -1) {
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
		else
			return 2;
	}
	memset(cc, 0xff, sizeof(cc));
	if (freq) {
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
		int fe;

		snprintf(path, sizeof(path), "/dev/dvb/adapter%d/frontend0", adapter);
		fe = open(path, O_RDWR);
		if (fe < 0 || ioctl(fe, FE_SET_PROPERTY, &ps) < 0)
			return perror(path), 1;
		for (end = now_s() + 5; now_s() < end; usleep(10000))
			if (!ioctl(fe, FE_READ_STATUS, &st) && (st & FE_HAS_LOCK))
				break;
		if (!(st & FE_HAS_LOCK))
			fprintf(stderr, "adapter %d: no lock\n", adapter);
	}
	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/dvr0", adapter);
	dvr = open(path, O_RDONLY | O_NONBLOCK);
	if (dvr < 0)
		return perror(path), 1;
	if (ioctl(dvr, DMX_SET_BUFFER_SIZE, bufsize) < 0)
		perror("DMX_SET_BUFFER_SIZE");
	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/demux0", adapter);
	dmx = open(path, O_RDWR);
	if (dmx < 0 || ioctl(dmx, DMX_SET_PES_FILTER, &f) < 0)
		return perror(path), 1;
	if (ready) {
		FILE *r = fopen(ready, "w");

		if (r)
			fclose(r);
	}
	end = now_s() + secs;
	while ((t = now_s()) < end) {
		struct pollfd p = { .fd = dvr, .events = POLLIN };
		ssize_t n;
		size_t i, off = 0;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(dvr, buf + partlen, sizeof(buf) - partlen);
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
	printf("adapter=%d bytes=%llu secs=%.2f mbps=%.2f cc_errors=%llu "
	       "sync_errors=%llu overflows=%llu\n", adapter,
	       (unsigned long long)bytes, t0 ? t - t0 : 0.0,
	       t0 && t > t0 ? bytes * 8 / (t - t0) / 1e6 : 0.0,
	       (unsigned long long)ccerr, (unsigned long long)syncerr,
	       (unsigned long long)overflows);
	return 0;
}
