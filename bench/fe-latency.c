// SPDX-License-Identifier: GPL-2.0
/*
 * fe-latency.c - control-path latency of a DVB frontend.
 *
 *   fe-latency -a N [-n COUNT] status     COUNT FE_READ_STATUS calls
 *   fe-latency -a N [-n COUNT] stats      COUNT FE_GET_PROPERTY(DTV_STAT_*)
 *   fe-latency -a N [-n COUNT] zap FREQ OFFFREQ
 *	COUNT DVB-T tunes (8 MHz) to FREQ, each after a tune to OFFFREQ (no
 *	signal there) and the loss of lock; per tune: time from
 *	FE_SET_PROPERTY(DTV_TUNE) to FE_HAS_LOCK and to the first TS byte
 *	on dvr0 (all-PID filter started right after the tune returned),
 *	and to the first frontend event (POLLPRI, FE_GET_EVENT) that has
 *	FE_HAS_LOCK: what an application that waits for events sees.
 *
 * Output, one line per quantity:
 *   NAME n=COUNT p50=MS p99=MS min=MS max=MS   (milliseconds)
 * -v: zap also prints each tune on stderr with its wall-clock start
 * (HH:MM:SS.mmm, the daemons' log format) to line up with their logs.
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

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int verbose;

static void trace_tune(int i, const struct timespec *start, double tl,
		       double tf, double te)
{
	struct tm tm;

	if (!verbose)
		return;
	localtime_r(&start->tv_sec, &tm);
	fprintf(stderr, "zap %d: tune at %02d:%02d:%02d.%03ld lock %.1f ms first TS %.1f ms lock event %.1f ms\n",
		i, tm.tm_hour, tm.tm_min, tm.tm_sec, start->tv_nsec / 1000000,
		tl, tf, te);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *name, double *v, int n)
{
	if (n <= 0) {
		printf("%s n=0\n", name);
		return;
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	printf("%s n=%d p50=%.3f p99=%.3f min=%.3f max=%.3f\n", name, n,
	       v[n / 2], v[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1], v[0],
	       v[n - 1]);
}

static int tune(int fe, uint32_t freq)
{
	struct dtv_property p[] = {
		{ .cmd = DTV_CLEAR },
		{ .cmd = DTV_DELIVERY_SYSTEM, .u.data = SYS_DVBT },
		{ .cmd = DTV_FREQUENCY, .u.data = freq },
		{ .cmd = DTV_BANDWIDTH_HZ, .u.data = 8000000 },
		{ .cmd = DTV_TUNE },
	};
	struct dtv_properties ps = { .num = 5, .props = p };

	return ioctl(fe, FE_SET_PROPERTY, &ps);
}

static fe_status_t status(int fe)
{
	fe_status_t s = 0;

	if (ioctl(fe, FE_READ_STATUS, &s) < 0)
		return 0;
	return s;
}

static int zap_run(int adapter, int fe, int count, uint32_t freq,
		   uint32_t off, double *lock, double *first, double *event)
{
	char path[64];
	struct dmx_pes_filter_params f = {
		.pid = 0x2000, .input = DMX_IN_FRONTEND,
		.output = DMX_OUT_TS_TAP, .pes_type = DMX_PES_OTHER,
	};
	int dmx, dvr, i, nl = 0, nf = 0, ne = 0, stale = 0;
	static uint8_t buf[65536];

	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/demux0", adapter);
	dmx = open(path, O_RDWR);
	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/dvr0", adapter);
	dvr = open(path, O_RDONLY | O_NONBLOCK);
	if (dmx < 0 || dvr < 0)
		return perror(path), 1;
	if (ioctl(dmx, DMX_SET_PES_FILTER, &f) < 0)
		return perror("DMX_SET_PES_FILTER"), 1;
	ioctl(dmx, DMX_STOP);
	for (i = 0; i < count; i++) {
		double t0, t, tl = -1, tf = -1, te = -1, limit;
		struct timespec start;

		/* off: no lock, no filter, empty dvr */
		ioctl(dmx, DMX_STOP);
		tune(fe, off);
		limit = now_ms() + 3000;
		while ((status(fe) & FE_HAS_LOCK) && now_ms() < limit)
			usleep(1000);
		if (status(fe) & FE_HAS_LOCK)
			stale++;
		usleep(50000);
		while (read(dvr, buf, sizeof(buf)) > 0)
			;
		clock_gettime(CLOCK_REALTIME, &start);
		t0 = now_ms();
		if (tune(fe, freq) < 0)
			return perror("FE_SET_PROPERTY"), 1;
		if (ioctl(dmx, DMX_START) < 0)
			return perror("DMX_START"), 1;
		limit = t0 + 5000;
		while ((tl < 0 || tf < 0 || te < 0) && (t = now_ms()) < limit) {
			struct pollfd pfd = { .fd = dvr, .events = POLLIN };
			struct pollfd pfe = { .fd = fe, .events = POLLPRI };
			struct dvb_frontend_event ev;

			if (tl < 0 && (status(fe) & FE_HAS_LOCK))
				tl = now_ms() - t0;
			/* the tune cleared the queue: every event is this tune's */
			while (te < 0 && poll(&pfe, 1, 0) > 0 &&
			       ioctl(fe, FE_GET_EVENT, &ev) == 0)
				if (ev.status & FE_HAS_LOCK)
					te = now_ms() - t0;
			if (tf < 0 && poll(&pfd, 1, 1) > 0 &&
			    read(dvr, buf, sizeof(buf)) > 0)
				tf = now_ms() - t0;
			else if (tf >= 0)
				usleep(500);
		}
		trace_tune(i, &start, tl, tf, te);
		if (tl >= 0)
			lock[nl++] = tl;
		if (tf >= 0)
			first[nf++] = tf;
		if (te >= 0)
			event[ne++] = te;
	}
	report("tune_to_lock", lock, nl);
	report("tune_to_first_ts", first, nf);
	report("tune_to_lock_event", event, ne);
	if (stale)
		printf("warning: %d off-tunes kept the lock\n", stale);
	return nl == count && nf == count && ne == count ? 0 : 1;
}

static int zap(int adapter, int fe, int count, uint32_t freq, uint32_t off)
{
	double *lock = calloc((size_t)count, sizeof(double));
	double *first = calloc((size_t)count, sizeof(double));
	double *event = calloc((size_t)count, sizeof(double));
	int rc = 1;

	if (lock && first && event)
		rc = zap_run(adapter, fe, count, freq, off, lock, first, event);
	else
		perror("zap");
	free(lock);
	free(first);
	free(event);
	return rc;
}

int main(int argc, char **argv)
{
	int adapter = 0, count = 1000, opt, fe, i;
	char path[64];
	double *v;

	while ((opt = getopt(argc, argv, "a:n:v")) != -1) {
		if (opt == 'a')
			adapter = atoi(optarg);
		else if (opt == 'n')
			count = atoi(optarg);
		else if (opt == 'v')
			verbose = 1;
		else
			return 2;
	}
	if (optind >= argc || count < 1)
		return fprintf(stderr, "usage: fe-latency [-v] -a N [-n COUNT] status|stats|zap FREQ OFFFREQ\n"), 2;
	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/frontend0", adapter);
	fe = open(path, strcmp(argv[optind], "zap") ? O_RDONLY | O_NONBLOCK : O_RDWR);
	if (fe < 0)
		return perror(path), 1;
	if (!strcmp(argv[optind], "zap")) {
		if (optind + 2 >= argc)
			return 2;
		return zap(adapter, fe, count, (uint32_t)strtoul(argv[optind + 1], NULL, 0),
			   (uint32_t)strtoul(argv[optind + 2], NULL, 0));
	}
	v = calloc((size_t)count, sizeof(double));
	if (!v)
		return 1;
	for (i = 0; i < count; i++) {
		double t0 = now_ms();

		if (!strcmp(argv[optind], "status")) {
			fe_status_t s;

			if (ioctl(fe, FE_READ_STATUS, &s) < 0)
				return perror("FE_READ_STATUS"), 1;
		} else {
			struct dtv_property p[] = {
				{ .cmd = DTV_STAT_SIGNAL_STRENGTH },
				{ .cmd = DTV_STAT_CNR },
				{ .cmd = DTV_STAT_PRE_ERROR_BIT_COUNT },
				{ .cmd = DTV_STAT_PRE_TOTAL_BIT_COUNT },
				{ .cmd = DTV_STAT_ERROR_BLOCK_COUNT },
			};
			struct dtv_properties ps = { .num = 5, .props = p };

			if (ioctl(fe, FE_GET_PROPERTY, &ps) < 0)
				return perror("FE_GET_PROPERTY"), 1;
		}
		v[i] = now_ms() - t0;
	}
	report(argv[optind], v, count);
	return 0;
}
