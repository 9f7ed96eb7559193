// SPDX-License-Identifier: GPL-2.0
/*
 * vt-dmxguard - demux requests that dvb-core carries out only in part, for
 * the tests of vtunerc's demux wrapper (tests/vm/t/50-dmx-guard.sh,
 * 51-dmx-leak.sh).  No other program may use the adapter meanwhile: the
 * sequences rely on dvb-core handing out the lowest free feed.
 *
 *   vt-dmxguard [-a N] sequence start|immediate
 *	the sequence of issue 25: filter A holds DMX_PES_VIDEO0; filter B
 *	asks for the same type on another PID, then starts (start) or asks
 *	with DMX_IMMEDIATE_START (immediate); C takes a feed; B removes its
 *	PID; D takes a section feed; this program, owner of /dev/vtunercN,
 *	writes packets of D's PID whose payload is 0x41; C stops.  On a
 *	module that lets B's feed dangle, B's DMX_REMOVE_PID stops C's feed
 *	("c_pid_listed no") and C's DMX_STOP calls through D's section bytes.
 *   vt-dmxguard [-a N] race SECONDS
 *	the PID of DMX_SET_PES_FILTER (immediate start) and DMX_ADD_PID
 *	alternates between a valid and an invalid one in another thread
 *	(double fetch), and a third thread interrupts the calls with
 *	SIGUSR1; after every refused request of B, C takes a feed and B
 *	removes both PIDs: C's PID must stay in the adapter's PID set.
 *	At the end every filter is closed: the PID set must be empty and
 *	every feed free again.
 *   vt-dmxguard [-a N] leak COUNT
 *	COUNT times on one descriptor: DMX_SET_PES_FILTER, DMX_ADD_PID,
 *	DMX_SET_FILTER (dvb-core forgets the PES filter's two feeds).
 *
 * Prints one line per step, "NAME rc=R errno=E (TEXT)" for ioctls, and a
 * last line "result ok" or "result FAIL: why".  Exit 0 when the run got to
 * its end with the expected state, 3 when the state was wrong, 1 on setup
 * errors, 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>

#include "vtuner.h"

#define PID_A		0x100
#define PID_B		0x101
#define PID_C		0x102
#define PID_D		0x103
#define PID_X		0x150	/* added to a running filter */
#define PID_BAD		0x3001	/* above 0x2000: dvb-core's set() fails */
#define NFEEDS		256	/* feeds of a vtunerc adapter */

static char demux[64], ctrl[64];
static int adapter;

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

	if (fd < 0) {
		fprintf(stderr, "vt-dmxguard: %s: %s\n", demux, strerror(errno));
		exit(1);
	}
	return fd;
}

static void pes_params(struct dmx_pes_filter_params *p, unsigned int pid,
		       enum dmx_ts_pes type, enum dmx_output out,
		       unsigned int flags)
{
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->input = DMX_IN_FRONTEND;
	p->output = out;
	p->pes_type = type;
	p->flags = flags;
}

static int pes(int fd, const char *name, unsigned int pid,
	       enum dmx_ts_pes type, unsigned int flags)
{
	struct dmx_pes_filter_params p;

	pes_params(&p, pid, type, DMX_OUT_TS_TAP, flags);
	return call(name, fd, DMX_SET_PES_FILTER, &p);
}

static int section(int fd, const char *name, unsigned int pid,
		   unsigned int flags)
{
	struct dmx_sct_filter_params s;

	memset(&s, 0, sizeof(s));
	s.pid = pid;
	s.flags = flags;
	return call(name, fd, DMX_SET_FILTER, &s);
}

static int pid_call(int fd, const char *name, unsigned long req,
		    unsigned int pid)
{
	uint16_t p = pid;

	return call(name, fd, req, &p);
}

/* Whether pid is in the adapter's PID set (the "pids (N): ..." line). */
static int pid_listed(unsigned int pid)
{
	char path[32], line[4096], *tok, *save;
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/vtunerc%d", adapter);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "vt-dmxguard: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "pids (", 6))
			continue;
		tok = strchr(line, ':');
		for (tok = strtok_r(tok ? tok + 1 : line, " \n", &save); tok;
		     tok = strtok_r(NULL, " \n", &save))
			found |= strtoul(tok, NULL, 10) == pid;
	}
	fclose(f);
	return found;
}

/* The number of PIDs in the adapter's PID set. */
static int pids_count(void)
{
	char path[32], line[4096];
	FILE *f;
	int n = -1;

	snprintf(path, sizeof(path), "/proc/vtunerc%d", adapter);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "pids (%d)", &n) == 1)
			break;
	fclose(f);
	return n;
}

static int open_owner(void)
{
	int fd = open(ctrl, O_RDWR);

	if (fd < 0) {
		fprintf(stderr, "vt-dmxguard: %s: %s\n", ctrl, strerror(errno));
		exit(1);
	}
	return fd;
}

/* n packets of pid whose payload (and so the section bytes) is all 0x41 */
static void write_ts(int owner, unsigned int pid, int n)
{
	uint8_t pkt[188];
	int i;

	memset(pkt, 0x41, sizeof(pkt));
	for (i = 0; i < n; i++) {
		pkt[0] = 0x47;
		pkt[1] = 0x40 | (pid >> 8);	/* payload unit start */
		pkt[2] = pid & 0xff;
		pkt[3] = 0x10 | (i & 0x0f);	/* payload only */
		pkt[4] = 0;			/* pointer field */
		if (write(owner, pkt, sizeof(pkt)) != sizeof(pkt)) {
			perror("vt-dmxguard: write");
			exit(1);
		}
	}
	printf("wrote %d packets of PID %u\n", n, pid);
}

static int result(const char *why)
{
	if (why)
		printf("result FAIL: %s\n", why);
	else
		printf("result ok\n");
	fflush(stdout);
	return why ? 3 : 0;
}

static int sequence(int immediate)
{
	int owner, a, b, c, d, listed;

	owner = open_owner();
	a = open_demux();
	b = open_demux();
	c = open_demux();
	d = open_demux();
	pes(a, "a_set_pes_filter_video0", PID_A, DMX_PES_VIDEO0,
	    DMX_IMMEDIATE_START);
	if (immediate) {
		pes(b, "b_set_pes_filter_video0_immediate", PID_B,
		    DMX_PES_VIDEO0, DMX_IMMEDIATE_START);
	} else {
		pes(b, "b_set_pes_filter_video0", PID_B, DMX_PES_VIDEO0, 0);
		call("b_start", b, DMX_START, NULL);
	}
	pes(c, "c_set_pes_filter_other", PID_C, DMX_PES_OTHER,
	    DMX_IMMEDIATE_START);
	pid_call(b, "b_remove_pid", DMX_REMOVE_PID, PID_B);
	listed = pid_listed(PID_C);
	printf("c_pid_listed %s\n", listed ? "yes" : "no");
	section(d, "d_set_filter", PID_D, DMX_IMMEDIATE_START);
	write_ts(owner, PID_D, 4);
	call("c_stop", c, DMX_STOP, NULL);
	close(d);
	close(c);
	close(b);
	close(a);
	close(owner);
	return result(listed ? NULL : "B's DMX_REMOVE_PID stopped C's feed");
}

/* ---- race ---------------------------------------------------------------- */

static volatile int race_stop;
static struct dmx_pes_filter_params race_pes;
static volatile uint16_t race_pid;
static pthread_t main_thread;

static void *flipper(void *arg)
{
	volatile uint16_t *pes_pid = &race_pes.pid;
	unsigned long n = 0;

	(void)arg;
	while (!race_stop) {
		*pes_pid = PID_B;
		race_pid = PID_X;
		sched_yield();
		*pes_pid = PID_BAD;
		race_pid = PID_BAD;
		n++;
	}
	return (void *)n;
}

static void *signaller(void *arg)
{
	struct timespec ts = { 0, 200000 };

	(void)arg;
	while (!race_stop) {
		pthread_kill(main_thread, SIGUSR1);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Take feeds, a PID each on one filter, until none is left. */
static int feeds_free(void)
{
	uint16_t pid;
	int fd = open_demux(), n;
	struct dmx_pes_filter_params p;

	pes_params(&p, 0x1000, DMX_PES_OTHER, DMX_OUT_TSDEMUX_TAP,
		   DMX_IMMEDIATE_START);
	if (ioctl(fd, DMX_SET_PES_FILTER, &p) < 0) {
		close(fd);
		return 0;
	}
	for (n = 1; n < 0x1000; n++) {
		pid = 0x1000 + n;
		if (ioctl(fd, DMX_ADD_PID, &pid) < 0)
			break;
	}
	close(fd);
	return n;
}

static int race(double secs)
{
	struct sigaction sa;
	struct timespec t0, t;
	pthread_t flip, sig;
	unsigned long iter = 0, ok = 0, inval = 0, intr = 0, other = 0;
	unsigned long add_ok = 0, add_fail = 0, victims = 0;
	struct dmx_pes_filter_params cp, xp;
	void *flips;
	int b, c, x, n;
	uint16_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;	/* no SA_RESTART: calls end with EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	main_thread = pthread_self();
	/* one CPU for the caller and the flipper: the scheduler switches
	 * between them at any point of the ioctl */
	pin_to_cpu0();
	pes_params(&race_pes, PID_B, DMX_PES_OTHER, DMX_OUT_TS_TAP,
		   DMX_IMMEDIATE_START);
	race_pid = PID_X;
	if (pthread_create(&flip, NULL, flipper, NULL) ||
	    pthread_create(&sig, NULL, signaller, NULL)) {
		fprintf(stderr, "vt-dmxguard: pthread_create failed\n");
		return 1;
	}

	b = open_demux();
	c = open_demux();
	x = open_demux();
	/* x: a running multi-PID filter that DMX_ADD_PID adds to */
	pes_params(&xp, 0x200, DMX_PES_OTHER, DMX_OUT_TSDEMUX_TAP,
		   DMX_IMMEDIATE_START);
	while (ioctl(x, DMX_SET_PES_FILTER, &xp) < 0 && errno == EINTR)
		;
	pes_params(&cp, PID_C, DMX_PES_OTHER, DMX_OUT_TS_TAP,
		   DMX_IMMEDIATE_START);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		iter++;
		if (ioctl(b, DMX_SET_PES_FILTER, &race_pes) == 0)
			ok++;
		else if (errno == EINVAL)
			inval++;
		else if (errno == EINTR)
			intr++;
		else
			other++;
		if (ioctl(x, DMX_ADD_PID, &race_pid) == 0)
			add_ok++;
		else
			add_fail++;
		if (iter % 8 == 0) {
			/* drop x's PIDs but the first, now and then */
			for (pid = PID_X; ; pid = PID_BAD) {
				while (ioctl(x, DMX_REMOVE_PID, &pid) < 0 &&
				       errno == EINTR)
					;
				if (pid == PID_BAD)
					break;
			}
		}
		/* C takes the lowest free feed; B removes its PIDs: a feed
		 * of B left dangling is C's now and stops with them */
		while (ioctl(c, DMX_SET_PES_FILTER, &cp) < 0 && errno == EINTR)
			;
		for (pid = PID_B; ; pid = PID_BAD) {
			while (ioctl(b, DMX_REMOVE_PID, &pid) < 0 &&
			       errno == EINTR)
				;
			if (pid == PID_BAD)
				break;
		}
		if (!pid_listed(PID_C)) {
			victims++;
			printf("iteration %lu: B's DMX_REMOVE_PID stopped C's feed\n",
			       iter);
			break;
		}
		while (ioctl(c, DMX_STOP) < 0 && errno == EINTR)
			;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	race_stop = 1;
	pthread_join(sig, NULL);
	pthread_join(flip, &flips);
	printf("iterations %lu flips %lu set_pes_filter ok %lu einval %lu eintr %lu other %lu add_pid ok %lu failed %lu\n",
	       iter, (unsigned long)flips, ok, inval, intr, other, add_ok,
	       add_fail);
	if (victims)
		return result("a refused request left a feed behind");
	close(x);
	close(c);
	close(b);
	n = pids_count();
	printf("pids_after_close %d\n", n);
	if (n != 0)
		return result("PIDs left in the adapter's set after every filter was closed");
	n = feeds_free();
	printf("feeds_free %d\n", n);
	if (n != NFEEDS)
		return result("feeds lost");
	return result(NULL);
}

/* ---- leak ---------------------------------------------------------------- */

static int leak(long count)
{
	struct dmx_pes_filter_params p;
	struct dmx_sct_filter_params s;
	uint16_t pid = 0x201;
	int fd = open_demux();
	long i, bad = 0;

	pes_params(&p, 0x200, DMX_PES_OTHER, DMX_OUT_TSDEMUX_TAP, 0);
	memset(&s, 0, sizeof(s));
	s.pid = 0x200;
	for (i = 0; i < count; i++) {
		bad += ioctl(fd, DMX_SET_PES_FILTER, &p) < 0;
		bad += ioctl(fd, DMX_ADD_PID, &pid) < 0;
		bad += ioctl(fd, DMX_SET_FILTER, &s) < 0;
	}
	close(fd);
	printf("leak iterations %ld failed_calls %ld\n", count, bad);
	return result(bad ? "calls failed" : NULL);
}

static int usage(void)
{
	fprintf(stderr, "usage: vt-dmxguard [-a N] sequence start|immediate | race SECONDS | leak COUNT\n");
	return 2;
}

int main(int argc, char **argv)
{
	int i = 1;

	if (argc > 2 && !strcmp(argv[1], "-a")) {
		adapter = atoi(argv[2]);
		i = 3;
	}
	if (argc - i == 1 && !strcmp(argv[i], "--help"))
		return usage() - 2;
	snprintf(demux, sizeof(demux), "/dev/dvb/adapter%d/demux0", adapter);
	snprintf(ctrl, sizeof(ctrl), "/dev/vtunerc%d", adapter);
	if (argc - i != 2)
		return usage();
	if (!strcmp(argv[i], "sequence")) {
		if (!strcmp(argv[i + 1], "start"))
			return sequence(0);
		if (!strcmp(argv[i + 1], "immediate"))
			return sequence(1);
		return usage();
	}
	if (!strcmp(argv[i], "race"))
		return race(atof(argv[i + 1]));
	if (!strcmp(argv[i], "leak"))
		return leak(atol(argv[i + 1]));
	return usage();
}
