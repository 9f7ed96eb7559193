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
 *	first, twice, a double fetch made certain: a request of another
 *	descriptor is held in a page fault (userfaultfd) on its argument,
 *	the PID of B's DMX_SET_PES_FILTER (immediate start), then of X's
 *	DMX_ADD_PID (X running), is valid when B (X) calls and invalid
 *	once the held request goes on; then, for SECONDS, that PID
 *	alternates in another thread while a third interrupts the calls
 *	with SIGUSR1.  After every request C takes a feed and B and X
 *	remove both PIDs: C's PID must stay in the adapter's PID set.  At
 *	the end every filter is closed: the PID set must be empty and every
 *	feed free again.
 *   vt-dmxguard [-a N] refill
 *	a running DMX_OUT_TSDEMUX_TAP filter loses its only PID
 *	(DMX_REMOVE_PID) and is given another (DMX_ADD_PID), then a second
 *	one: both must be in the adapter's PID set.
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
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>
#include <linux/userfaultfd.h>

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
	volatile unsigned int spin;

	while (!race_stop) {
		*pes_pid = PID_B;
		race_pid = PID_X;
		for (spin = 0; spin < 20000; spin++)
			;
		*pes_pid = PID_BAD;
		race_pid = PID_BAD;
		for (spin = 0; spin < 20000; spin++)
			;
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

/* ---- a double fetch made certain -------------------------------------- */

struct held {
	int fd;				/* the held request's descriptor */
	struct dmx_pes_filter_params *arg;
	int rc, err;
};

struct second {
	int fd;
	unsigned long req;
	void *arg;
	volatile int done;
	int rc, err;
};

static void *held_call(void *p)
{
	struct held *h = p;

	h->rc = ioctl(h->fd, DMX_SET_PES_FILTER, h->arg);
	h->err = errno;
	return NULL;
}

static void *second_call(void *p)
{
	struct second *c = p;

	c->rc = ioctl(c->fd, c->req, c->arg);
	c->err = errno;
	c->done = 1;
	return NULL;
}

/*
 * A DMX_SET_PES_FILTER on hold_fd whose argument straddles a page that
 * is only mapped when this function says so: the module (or dvb-core)
 * copying it waits in the fault.  Meanwhile req runs on fd with arg,
 * whose PID *pid is valid; once req has read it (or waits for the lock
 * the held request holds), *pid becomes PID_BAD and the fault is served.
 * Prints "NAME rc=R errno=E" for req, and whether it was done while the
 * other request was held.
 */
static int hold_and_flip(const char *name, int hold_fd, int fd,
			 unsigned long req, void *arg, uint16_t *pid)
{
	long page = sysconf(_SC_PAGESIZE);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct uffdio_copy copy;
	struct uffd_msg msg;
	struct pollfd pfd;
	struct held h;
	struct second c = { .fd = fd, .req = req, .arg = arg };
	pthread_t th, tc;
	uint32_t *rest;
	char *mem, *src;
	int uffd, during;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api) < 0) {
		fprintf(stderr, "vt-dmxguard: userfaultfd: %s\n", strerror(errno));
		exit(1);
	}
	mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	src = mmap(NULL, page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || src == MAP_FAILED) {
		perror("vt-dmxguard: mmap");
		exit(1);
	}
	memset(&reg, 0, sizeof(reg));
	reg.range.start = (unsigned long)mem + page;
	reg.range.len = page;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) < 0) {
		perror("vt-dmxguard: UFFDIO_REGISTER");
		exit(1);
	}
	/* the PID in the first page, everything after it in the second */
	h.fd = hold_fd;
	h.arg = (struct dmx_pes_filter_params *)(mem + page - 2);
	h.arg->pid = 0x104;
	/* the second page as the fault will find it: output, type, flags */
	rest = (uint32_t *)(src + 2);
	rest[0] = DMX_IN_FRONTEND;
	rest[1] = DMX_OUT_TS_TAP;
	rest[2] = DMX_PES_OTHER;
	rest[3] = 0;

	pthread_create(&th, NULL, held_call, &h);
	pfd.fd = uffd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg)) {
		fprintf(stderr, "vt-dmxguard: the held request did not fault\n");
		exit(1);
	}
	pthread_create(&tc, NULL, second_call, &c);
	usleep(500000);		/* it reads its PID, or waits for a lock */
	during = c.done;
	*(volatile uint16_t *)pid = PID_BAD;
	copy.dst = (unsigned long)mem + page;
	copy.src = (unsigned long)src;
	copy.len = page;
	copy.mode = 0;
	copy.copy = 0;
	if (ioctl(uffd, UFFDIO_COPY, &copy) < 0) {
		perror("vt-dmxguard: UFFDIO_COPY");
		exit(1);
	}
	pthread_join(th, NULL);
	pthread_join(tc, NULL);
	printf("%s rc=%d errno=%d (%s) done_while_held=%s\n", name, c.rc,
	       c.rc < 0 ? c.err : 0, strerror(c.rc < 0 ? c.err : 0),
	       during ? "yes" : "no");
	printf("held_set_pes_filter rc=%d errno=%d\n", h.rc,
	       h.rc < 0 ? h.err : 0);
	fflush(stdout);
	close(uffd);
	munmap(mem, 2 * page);
	munmap(src, page);
	return c.rc;
}

/*
 * C takes the lowest free feed, then B and X remove PID_B, PID_X and
 * PID_BAD: a feed of theirs left dangling is C's now and stops with them.
 * Whether C's PID is still in the adapter's set.
 */
static int victim_check(int b, int c, int x)
{
	struct dmx_pes_filter_params cp;
	uint16_t pids[] = { PID_B, PID_X, PID_BAD };
	unsigned int i;
	int listed;

	pes_params(&cp, PID_C, DMX_PES_OTHER, DMX_OUT_TS_TAP,
		   DMX_IMMEDIATE_START);
	while (ioctl(c, DMX_SET_PES_FILTER, &cp) < 0 && errno == EINTR)
		;
	for (i = 0; i < 3; i++) {
		while (ioctl(b, DMX_REMOVE_PID, &pids[i]) < 0 && errno == EINTR)
			;
		while (ioctl(x, DMX_REMOVE_PID, &pids[i]) < 0 && errno == EINTR)
			;
	}
	listed = pid_listed(PID_C);
	while (ioctl(c, DMX_STOP) < 0 && errno == EINTR)
		;
	return listed;
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
	struct dmx_pes_filter_params bp, xp;
	struct sigaction sa;
	struct timespec t0, t;
	pthread_t flip, sig;
	unsigned long iter = 0, ok = 0, inval = 0, intr = 0, other = 0;
	unsigned long add_ok = 0, add_fail = 0;
	void *flips;
	int b, c, x, h, n;

	b = open_demux();
	c = open_demux();
	x = open_demux();
	h = open_demux();
	/* x: a running multi-PID filter that DMX_ADD_PID adds to */
	pes_params(&xp, 0x200, DMX_PES_OTHER, DMX_OUT_TSDEMUX_TAP,
		   DMX_IMMEDIATE_START);
	call("x_set_pes_filter", x, DMX_SET_PES_FILTER, &xp);

	pes_params(&bp, PID_B, DMX_PES_OTHER, DMX_OUT_TS_TAP,
		   DMX_IMMEDIATE_START);
	hold_and_flip("b_set_pes_filter_flipped", h, b, DMX_SET_PES_FILTER,
		      &bp, &bp.pid);
	if (!victim_check(b, c, x)) {
		printf("c_pid_listed no\n");
		return result("B's filter kept a feed it did not own (double fetch of DMX_SET_PES_FILTER)");
	}
	race_pid = PID_X;
	hold_and_flip("x_add_pid_flipped", h, x, DMX_ADD_PID,
		      (void *)&race_pid, (uint16_t *)&race_pid);
	if (!victim_check(b, c, x)) {
		printf("c_pid_listed no\n");
		return result("X's filter kept a feed it did not own (double fetch of DMX_ADD_PID)");
	}
	printf("c_pid_listed yes\n");
	fflush(stdout);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;	/* no SA_RESTART: calls end with EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	main_thread = pthread_self();
	pes_params(&race_pes, PID_B, DMX_PES_OTHER, DMX_OUT_TS_TAP,
		   DMX_IMMEDIATE_START);
	race_pid = PID_X;
	if (pthread_create(&flip, NULL, flipper, NULL) ||
	    pthread_create(&sig, NULL, signaller, NULL)) {
		fprintf(stderr, "vt-dmxguard: pthread_create failed\n");
		return 1;
	}
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
		if (!victim_check(b, c, x)) {
			race_stop = 1;
			printf("iteration %lu: c_pid_listed no\n", iter);
			return result("a refused request left a feed behind");
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	race_stop = 1;
	pthread_join(sig, NULL);
	pthread_join(flip, &flips);
	printf("iterations %lu flips %lu set_pes_filter ok %lu einval %lu eintr %lu other %lu add_pid ok %lu failed %lu\n",
	       iter, (unsigned long)flips, ok, inval, intr, other, add_ok,
	       add_fail);
	close(h);
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

/* ---- refill -------------------------------------------------------------- */

static int refill(void)
{
	struct dmx_pes_filter_params p;
	int fd = open_demux(), ok;

	pes_params(&p, 0x300, DMX_PES_OTHER, DMX_OUT_TSDEMUX_TAP,
		   DMX_IMMEDIATE_START);
	call("set_pes_filter", fd, DMX_SET_PES_FILTER, &p);
	pid_call(fd, "remove_pid", DMX_REMOVE_PID, 0x300);
	pid_call(fd, "add_pid_to_empty", DMX_ADD_PID, 0x301);
	pid_call(fd, "add_pid_second", DMX_ADD_PID, 0x302);
	ok = pid_listed(0x301) && pid_listed(0x302) && !pid_listed(0x300);
	printf("pids_listed %s\n", ok ? "yes" : "no");
	close(fd);
	return result(ok ? NULL : "the running filter does not take its new PIDs");
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
	fprintf(stderr, "usage: vt-dmxguard [-a N] sequence start|immediate | race SECONDS | refill | leak COUNT\n");
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
	if (argc - i == 1 && !strcmp(argv[i], "refill"))
		return refill();
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
