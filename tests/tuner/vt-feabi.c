// SPDX-License-Identifier: GPL-2.0
/*
 * vt-feabi - tune an adapter through the DVBv5 property ioctls and record
 * one PID, printing what the adapter answers; built natively and with
 * -m32 (vt-feabi32), where FE_SET_PROPERTY and FE_GET_PROPERTY have
 * another number and struct dtv_property another size (the kernel's or
 * CUSE's compat path).  tests/vm/t/61-cuse-compat.sh compares the output
 * of a CUSE adapter with a module adapter's.
 *
 *   vt-feabi [-a ADAPTER] [-d DELSYS] [-f FREQ] [-b BANDWIDTH_HZ]
 *            [-s SYMBOL_RATE] [-m MODULATION] [-p PID] [-n PACKETS]
 *
 * Lines (all but ABI, VERSION, VALUE and TIME are the same for equal
 * adapters):
 *   ABI bits=N dtv_property=N dtv_properties=N set=0x.. get=0x..
 *   INFO name="..." type=N freq_min=N freq_max=N freq_step=N caps=0x..
 *   SET delsys=N freq=N [bw=N] [sr=N] mod=N
 *   STATUS 0x..                      FE_READ_STATUS at lock
 *   GET DTV_FREQUENCY=N DTV_DELIVERY_SYSTEM=N ... (one FE_GET_PROPERTY)
 *   VERSION DTV_API_VERSION=0x..     dvb-core's, or CUSE's headers'
 *   ENUM_DELSYS N...                 DTV_ENUM_DELSYS's buffer
 *   STAT NAME len=N scale=N          DTV_STAT_SIGNAL_STRENGTH, _CNR
 *   VALUE NAME N                     their values (noisy)
 *   EMPTY rc=N errno=N               FE_GET_PROPERTY of no properties
 *   FRONTEND freq=N inversion=N      FE_GET_FRONTEND (DVBv3)
 *   DVR pid=N packets=N sync_errors=N other_pids=N
 *   TIME lock_ms=N, TIME dvr_ms=N    time to lock, to read the packets
 * Exit 0 when the adapter locked, read back the frequency and delivery
 * system set, lists that system and gave the packets; 1 otherwise; 2 on
 * usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>
#include <linux/dvb/frontend.h>
#include <linux/dvb/version.h>

#define TS_SIZE 188

static int adapter;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void die(const char *what)
{
	fprintf(stderr, "vt-feabi: adapter%d: %s: %s\n", adapter, what,
		strerror(errno));
	exit(1);
}

static void fail(const char *msg)
{
	fprintf(stderr, "vt-feabi: adapter%d: %s\n", adapter, msg);
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: vt-feabi [-a ADAPTER] [-d DELSYS] [-f FREQ] "
		"[-b BANDWIDTH_HZ] [-s SYMBOL_RATE] [-m MODULATION] [-p PID] "
		"[-n PACKETS]\n");
	exit(2);
}

static int open_dev(const char *dev, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/%s", adapter, dev);
	fd = open(path, flags);
	if (fd < 0)
		die(path);
	return fd;
}

static void prop(struct dtv_property *p, uint32_t cmd, uint32_t data)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->u.data = data;
}

static void stat_line(const char *name, const struct dtv_fe_stats *st)
{
	printf("STAT %s len=%u scale=%u\n", name, st->len,
	       st->len ? st->stat[0].scale : 0);
}

static void value_line(const char *name, const struct dtv_fe_stats *st)
{
	if (st->len && st->stat[0].scale == FE_SCALE_DECIBEL)
		printf("VALUE %s %lld\n", name, (long long)st->stat[0].svalue);
	else if (st->len && st->stat[0].scale == FE_SCALE_RELATIVE)
		printf("VALUE %s %llu\n", name,
		       (unsigned long long)st->stat[0].uvalue);
}

/* Record pid through demux0 (DMX_OUT_TS_TAP) and dvr0. */
static void record(unsigned int pid, unsigned int want)
{
	struct dmx_pes_filter_params pf = {
		.pid = pid,
		.input = DMX_IN_FRONTEND,
		.output = DMX_OUT_TS_TAP,
		.pes_type = DMX_PES_OTHER,
		.flags = DMX_IMMEDIATE_START,
	};
	static uint8_t buf[TS_SIZE * 64];
	unsigned int packets = 0, sync = 0, other = 0, i;
	long long t0 = now_ms(), end = t0 + 15000;
	struct pollfd pfd;
	size_t have = 0;
	int dmx, dvr;
	ssize_t n;

	dvr = open_dev("dvr0", O_RDONLY | O_NONBLOCK);
	dmx = open_dev("demux0", O_RDWR);
	if (ioctl(dmx, DMX_SET_PES_FILTER, &pf) < 0)
		die("DMX_SET_PES_FILTER");
	pfd = (struct pollfd){ .fd = dvr, .events = POLLIN };
	while (packets < want) {
		if (now_ms() >= end)
			break;
		if (poll(&pfd, 1, (int)(end - now_ms())) < 0 && errno != EINTR)
			die("poll dvr0");
		n = read(dvr, buf + have, sizeof(buf) - have);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			die("read dvr0");
		have += n;
		for (i = 0; i + TS_SIZE <= have && packets < want;
		     i += TS_SIZE) {
			packets++;
			if (buf[i] != 0x47)
				sync++;
			else if ((((buf[i + 1] & 0x1f) << 8) | buf[i + 2]) !=
				 pid)
				other++;
		}
		memmove(buf, buf + i, have - i);
		have -= i;
	}
	if (ioctl(dmx, DMX_STOP) < 0)
		die("DMX_STOP");
	close(dmx);
	close(dvr);
	printf("DVR pid=%u packets=%u sync_errors=%u other_pids=%u\n", pid,
	       packets, sync, other);
	printf("TIME dvr_ms=%lld\n", now_ms() - t0);
	if (packets < want || sync || other)
		fail("dvr0: not the packets asked for");
}

int main(int argc, char **argv)
{
	uint32_t delsys = SYS_DVBT, freq = 506000000, bw = 8000000, sr = 0;
	uint32_t mod = QAM_AUTO;
	unsigned int pid = 257, want = 200, i;
	struct dtv_property p[16];
	struct dtv_properties dp = { .props = p };
	struct dvb_frontend_parameters fp;
	struct dvb_frontend_info fi;
	enum fe_status st = 0;
	long long t0;
	bool listed = false;
	int fd, c;

	while ((c = getopt(argc, argv, "a:d:f:b:s:m:p:n:")) != -1) {
		switch (c) {
		case 'a': adapter = atoi(optarg); break;
		case 'd': delsys = strtoul(optarg, NULL, 0); break;
		case 'f': freq = strtoul(optarg, NULL, 0); break;
		case 'b': bw = strtoul(optarg, NULL, 0); break;
		case 's': sr = strtoul(optarg, NULL, 0); break;
		case 'm': mod = strtoul(optarg, NULL, 0); break;
		case 'p': pid = strtoul(optarg, NULL, 0); break;
		case 'n': want = strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (optind != argc || pid > 0x1fff)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ABI bits=%zu dtv_property=%zu dtv_properties=%zu set=0x%08lx "
	       "get=0x%08lx\n", sizeof(void *) * 8, sizeof(struct dtv_property),
	       sizeof(struct dtv_properties), (unsigned long)FE_SET_PROPERTY,
	       (unsigned long)FE_GET_PROPERTY);

	fd = open_dev("frontend0", O_RDWR);
	if (ioctl(fd, FE_GET_INFO, &fi) < 0)
		die("FE_GET_INFO");
	printf("INFO name=\"%.128s\" type=%d freq_min=%u freq_max=%u "
	       "freq_step=%u caps=0x%x\n", fi.name, fi.type, fi.frequency_min,
	       fi.frequency_max, fi.frequency_stepsize, fi.caps);

	/* the tune: one FE_SET_PROPERTY, an array of several */
	dp.num = 0;
	prop(&p[dp.num++], DTV_CLEAR, 0);
	prop(&p[dp.num++], DTV_DELIVERY_SYSTEM, delsys);
	prop(&p[dp.num++], DTV_FREQUENCY, freq);
	prop(&p[dp.num++], DTV_INVERSION, INVERSION_AUTO);
	if (bw)
		prop(&p[dp.num++], DTV_BANDWIDTH_HZ, bw);
	if (sr)
		prop(&p[dp.num++], DTV_SYMBOL_RATE, sr);
	prop(&p[dp.num++], DTV_MODULATION, mod);
	prop(&p[dp.num++], DTV_TUNE, 0);
	t0 = now_ms();
	if (ioctl(fd, FE_SET_PROPERTY, &dp) < 0)
		die("FE_SET_PROPERTY");
	printf("SET delsys=%u freq=%u", delsys, freq);
	if (bw)
		printf(" bw=%u", bw);
	if (sr)
		printf(" sr=%u", sr);
	printf(" mod=%u\n", mod);

	while (!(st & FE_HAS_LOCK)) {
		if (ioctl(fd, FE_READ_STATUS, &st) < 0)
			die("FE_READ_STATUS");
		if (st & FE_HAS_LOCK)
			break;
		if (now_ms() - t0 > 15000)
			fail("no lock within 15 s");
		usleep(50000);
	}
	printf("STATUS 0x%02x\n", st);
	printf("TIME lock_ms=%lld\n", now_ms() - t0);

	/*
	 * One FE_GET_PROPERTY of mixed properties; again until the signal
	 * has a scale (the first status after the lock may come without).
	 */
	t0 = now_ms();
	for (;;) {
		dp.num = 0;
		prop(&p[dp.num++], DTV_FREQUENCY, 0);
		prop(&p[dp.num++], DTV_DELIVERY_SYSTEM, 0);
		prop(&p[dp.num++], DTV_ENUM_DELSYS, 0);
		prop(&p[dp.num++], DTV_STAT_SIGNAL_STRENGTH, 0);
		prop(&p[dp.num++], DTV_STAT_CNR, 0);
		prop(&p[dp.num++], DTV_API_VERSION, 0);
		prop(&p[dp.num++], bw ? DTV_BANDWIDTH_HZ : DTV_SYMBOL_RATE, 0);
		if (ioctl(fd, FE_GET_PROPERTY, &dp) < 0)
			die("FE_GET_PROPERTY");
		if ((p[3].u.st.len && p[3].u.st.stat[0].scale) ||
		    now_ms() - t0 > 5000)
			break;
		usleep(100000);
	}
	printf("GET DTV_FREQUENCY=%u DTV_DELIVERY_SYSTEM=%u %s=%u\n",
	       p[0].u.data, p[1].u.data,
	       bw ? "DTV_BANDWIDTH_HZ" : "DTV_SYMBOL_RATE", p[6].u.data);
	printf("VERSION DTV_API_VERSION=0x%x\n", p[5].u.data);
	printf("ENUM_DELSYS");
	for (i = 0; i < p[2].u.buffer.len && i < 32; i++) {
		printf(" %u", p[2].u.buffer.data[i]);
		listed |= p[2].u.buffer.data[i] == delsys;
	}
	printf("\n");
	stat_line("SIGNAL_STRENGTH", &p[3].u.st);
	stat_line("CNR", &p[4].u.st);
	value_line("SIGNAL_STRENGTH", &p[3].u.st);
	value_line("CNR", &p[4].u.st);
	if (p[0].u.data != freq)
		fail("DTV_FREQUENCY read back is not the one set");
	if (p[1].u.data != delsys)
		fail("DTV_DELIVERY_SYSTEM read back is not the one set");
	if (!listed)
		fail("DTV_ENUM_DELSYS does not list the system tuned");

	/* an empty array: EINVAL, as dvb-core */
	dp.num = 0;
	errno = 0;
	c = ioctl(fd, FE_GET_PROPERTY, &dp);
	printf("EMPTY rc=%d errno=%d\n", c, errno);

	if (ioctl(fd, FE_GET_FRONTEND, &fp) < 0)
		die("FE_GET_FRONTEND");
	printf("FRONTEND freq=%u inversion=%d\n", fp.frequency, fp.inversion);

	record(pid, want);
	close(fd);
	return 0;
}
