// SPDX-License-Identifier: GPL-2.0
/*
 * vt-watch - an application that stays on a DVB adapter through faults:
 * tunes once, sets demux filters to dvr0, reads dvr0 continuously and
 * FE_READ_STATUS every 100 ms, and logs one line a second.
 *
 *   vt-watch [-a ADAPTER] -d dvbt|dvbc -f FREQ [-b BW_HZ] [-s SRATE]
 *            [-m QAM] [-p PID,PID...|full] -o OUT [-T SECS]
 *            [--pause AT:SECS] [--retune AT:dvbt|dvbc:FREQ]
 *
 * Log (stdout): "t=REALTIME status=0xSS lock=0|1 bytes=N calls=N
 * max_ms=N overflows=N seg=N" every second, and "t=REALTIME status=0xSS
 * lock=0|1 bytes=0 change" whenever the lock bit read changes (an outage
 * shorter than a second shows); "retuned seq" and "end ..."
 * lines.  OUT.0, OUT.1, ...: the TS read, a new segment on SIGUSR1 (whole
 * packets only), and at the retune: the new segment is opened on a fresh
 * dvr0 250 ms after the tune call returned, so it holds only what came
 * after the retune.  --pause stops reading dvr0 for SECS seconds at AT
 * seconds after the start (a slow consumer).  Exit 0 at the end of -T
 * (default 60) or on SIGTERM/SIGINT; 1 on setup errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>
#include <linux/dvb/frontend.h>

#define TS 188
#define MAX_PIDS 16

static int adapter, fe_fd, dvr_fd;
static volatile sig_atomic_t stop, rotate;
static atomic_uint cur_status, calls, max_us, max_us_total;

static double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		rotate = 1;
	else
		stop = 1;
}

static void *status_thread(void *arg)
{
	int last_lock = -1;

	(void)arg;
	while (!stop) {
		enum fe_status st = 0;
		double t0 = now_s(CLOCK_MONOTONIC);
		unsigned us;

		if (ioctl(fe_fd, FE_READ_STATUS, &st) < 0)
			st = 0;
		us = (now_s(CLOCK_MONOTONIC) - t0) * 1e6;
		if (last_lock >= 0 && last_lock != !!(st & FE_HAS_LOCK))
			printf("t=%.3f status=0x%02x lock=%d bytes=0 change\n",
			       now_s(CLOCK_REALTIME), st, !!(st & FE_HAS_LOCK));
		last_lock = !!(st & FE_HAS_LOCK);
		atomic_store(&cur_status, st);
		atomic_fetch_add(&calls, 1);
		if (us > atomic_load(&max_us))
			atomic_store(&max_us, us);
		if (us > atomic_load(&max_us_total))
			atomic_store(&max_us_total, us);
		usleep(100000);
	}
	return NULL;
}

static int tune(const char *delsys, unsigned freq, unsigned bw,
		unsigned srate, unsigned qam)
{
	struct dtv_property p[10];
	struct dtv_properties ps = { .props = p };
	unsigned n = 0;
	double t0 = now_s(CLOCK_MONOTONIC);
	int rc;

	memset(p, 0, sizeof(p));
	p[n++].cmd = DTV_CLEAR;
	p[n].cmd = DTV_DELIVERY_SYSTEM;
	p[n++].u.data = !strcmp(delsys, "dvbc") ? SYS_DVBC_ANNEX_A : SYS_DVBT;
	p[n].cmd = DTV_FREQUENCY;
	p[n++].u.data = freq;
	if (!strcmp(delsys, "dvbc")) {
		p[n].cmd = DTV_SYMBOL_RATE;
		p[n++].u.data = srate;
		p[n].cmd = DTV_MODULATION;
		p[n++].u.data = qam;
	} else {
		p[n].cmd = DTV_BANDWIDTH_HZ;
		p[n++].u.data = bw;
		/* DTV_CLEAR set the modulation of the previous system */
		p[n].cmd = DTV_MODULATION;
		p[n++].u.data = QAM_AUTO;
	}
	p[n].cmd = DTV_INVERSION;
	p[n++].u.data = INVERSION_AUTO;
	p[n++].cmd = DTV_TUNE;
	ps.num = n;
	rc = ioctl(fe_fd, FE_SET_PROPERTY, &ps);
	printf("tune %s %u rc=%d errno=%d ms=%.0f\n", delsys, freq, rc,
	       rc ? errno : 0, (now_s(CLOCK_MONOTONIC) - t0) * 1e3);
	return rc;
}

static int open_dvr(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/dvr0", adapter);
	return open(path, O_RDONLY | O_NONBLOCK);
}

static FILE *open_seg(const char *out, int seg)
{
	char name[512];
	FILE *f;

	snprintf(name, sizeof(name), "%s.%d", out, seg);
	f = fopen(name, "w");
	if (!f)
		perror(name);
	return f;
}

static void usage(void)
{
	fprintf(stderr, "usage: vt-watch [-a N] -d dvbt|dvbc -f FREQ [-b BW] "
		"[-s SRATE] [-m QAM] [-p PIDS|full] -o OUT [-T SECS] "
		"[--pause AT:SECS] [--retune AT:dvbt|dvbc:FREQ]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "pause", required_argument, NULL, 'P' },
		{ "retune", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 }
	};
	const char *delsys = "dvbt", *out = NULL, *pidarg = "257,258";
	unsigned freq = 0, bw = 8000000, srate = 6900000, qam = QAM_256;
	unsigned pids[MAX_PIDS], npids = 0, i;
	double secs = 60, pause_at = -1, pause_len = 0, retune_at = -1;
	unsigned retune_freq = 0;
	char retune_sys[8] = "dvbt";
	int dmx[MAX_PIDS], c, seg = 0;
	uint64_t bytes = 0, total = 0, overflows = 0;
	static uint8_t buf[TS * 1024], carry[TS];
	size_t ncarry = 0;
	double start, next_log, paused_until = -1;
	pthread_t th;
	char path[64], *s;
	FILE *f;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt_long(argc, argv, "a:d:f:b:s:m:p:o:T:", lo, NULL)) != -1) {
		switch (c) {
		case 'a': adapter = atoi(optarg); break;
		case 'd': delsys = optarg; break;
		case 'f': freq = strtoul(optarg, NULL, 0); break;
		case 'b': bw = strtoul(optarg, NULL, 0); break;
		case 's': srate = strtoul(optarg, NULL, 0); break;
		case 'm': qam = strtoul(optarg, NULL, 0); break;
		case 'p': pidarg = optarg; break;
		case 'o': out = optarg; break;
		case 'T': secs = atof(optarg); break;
		case 'P':
			if (sscanf(optarg, "%lf:%lf", &pause_at, &pause_len) != 2)
				usage();
			break;
		case 'R':
			if (sscanf(optarg, "%lf:%7[a-z2]:%u", &retune_at,
				   retune_sys, &retune_freq) != 3)
				usage();
			break;
		default: usage();
		}
	}
	if (!freq || !out)
		usage();
	if (!strcmp(pidarg, "full")) {
		pids[npids++] = 0x2000;
	} else {
		for (s = strtok((char *)pidarg, ","); s && npids < MAX_PIDS;
		     s = strtok(NULL, ","))
			pids[npids++] = strtoul(s, NULL, 0);
	}

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGUSR1, on_signal);
	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/frontend0", adapter);
	fe_fd = open(path, O_RDWR);
	if (fe_fd < 0) {
		perror(path);
		return 1;
	}
	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/demux0", adapter);
	for (i = 0; i < npids; i++) {
		struct dmx_pes_filter_params fp = {
			.pid = pids[i], .input = DMX_IN_FRONTEND,
			.output = DMX_OUT_TS_TAP, .pes_type = DMX_PES_OTHER,
			.flags = DMX_IMMEDIATE_START,
		};

		dmx[i] = open(path, O_RDWR);
		if (dmx[i] < 0 || ioctl(dmx[i], DMX_SET_PES_FILTER, &fp) < 0) {
			fprintf(stderr, "vt-watch: demux pid %u: %s\n", pids[i],
				strerror(errno));
			return 1;
		}
	}
	dvr_fd = open_dvr();
	if (dvr_fd < 0) {
		perror("dvr0");
		return 1;
	}
	f = open_seg(out, seg);
	if (!f || tune(delsys, freq, bw, srate, qam) < 0)
		return 1;
	pthread_create(&th, NULL, status_thread, NULL);

	start = now_s(CLOCK_MONOTONIC);
	next_log = start + 1;
	while (!stop) {
		double now = now_s(CLOCK_MONOTONIC);
		struct pollfd pfd = { .fd = dvr_fd, .events = POLLIN };
		ssize_t n;

		if (now - start >= secs)
			break;
		if (now >= next_log) {
			unsigned st = atomic_load(&cur_status);

			printf("t=%.3f status=0x%02x lock=%d bytes=%llu calls=%u "
			       "max_ms=%.1f overflows=%llu seg=%d\n",
			       now_s(CLOCK_REALTIME), st, !!(st & FE_HAS_LOCK),
			       (unsigned long long)bytes, atomic_exchange(&calls, 0),
			       atomic_exchange(&max_us, 0) / 1e3,
			       (unsigned long long)overflows, seg);
			bytes = 0;
			next_log += 1;
		}
		if (rotate) {
			rotate = 0;	/* a carried partial packet goes on */
			fclose(f);
			f = open_seg(out, ++seg);
			if (!f)
				return 1;
			printf("segment %d\n", seg);
		}
		if (retune_at >= 0 && now - start >= retune_at) {
			retune_at = -1;
			tune(retune_sys, retune_freq, bw, srate, qam);
			usleep(250000);
			close(dvr_fd);
			dvr_fd = open_dvr();
			ncarry = 0;
			fclose(f);
			f = open_seg(out, ++seg);
			if (dvr_fd < 0 || !f)
				return 1;
			printf("retuned to %u, segment %d\n", retune_freq, seg);
			continue;
		}
		if (pause_at >= 0 && now - start >= pause_at) {
			pause_at = -1;
			paused_until = now + pause_len;
			printf("pause %.0f s\n", pause_len);
		}
		if (paused_until >= 0) {
			if (now < paused_until) {
				usleep(50000);
				continue;
			}
			paused_until = -1;
			printf("resume\n");
		}
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		n = read(dvr_fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EOVERFLOW) {
				overflows++;
				printf("read: EOVERFLOW\n");
				ncarry = 0;
			}
			continue;
		}
		bytes += n;
		total += n;
		/* whole packets to the segment, the rest carried over */
		{
			size_t off = 0, len = n, take;

			if (ncarry) {
				take = TS - ncarry < len ? TS - ncarry : len;
				memcpy(carry + ncarry, buf, take);
				ncarry += take;
				off = take;
				if (ncarry == TS) {
					fwrite(carry, TS, 1, f);
					ncarry = 0;
				}
			}
			take = (len - off) / TS * TS;
			fwrite(buf + off, 1, take, f);
			off += take;
			memcpy(carry, buf + off, len - off);
			ncarry += len - off;
		}
	}
	stop = 1;
	pthread_join(th, NULL);
	fclose(f);
	printf("end bytes=%llu max_ms=%.1f overflows=%llu segments=%d\n",
	       (unsigned long long)total, atomic_load(&max_us_total) / 1e3,
	       (unsigned long long)overflows, seg + 1);
	return 0;
}
