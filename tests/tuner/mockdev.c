/*
 * mockdev.so - LD_PRELOAD stand-in for /dev/vtunerc0, for the host
 * self-test of vt-testtuner's main loop (no module needed).
 *
 * open(MOCK_DEV) returns a descriptor of /dev/null that poll(), ioctl()
 * and write() then treat as the control device.  It delivers a fixed
 * sequence of messages (MOCK_CLASSIC=1: the classic variant), answers the
 * extension calls, and at exit prints on stderr:
 *   mock: responses=N pushes=N last_status=0xNN bytes=N seq=N
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vtuner.h"

static int mfd = -1;
static int next_msg, responses, pushes, awaiting;
static unsigned int last_status;
static unsigned long long bytes;

int open(const char *path, int flags, ...);
int ioctl(int fd, unsigned long req, ...);
int poll(struct pollfd *fds, nfds_t n, int timeout);
ssize_t write(int fd, const void *buf, size_t n);

static void report(void) __attribute__((destructor));
static void report(void)
{
	if (mfd >= 0 || responses)
		fprintf(stderr, "mock: responses=%d pushes=%d last_status=0x%02x bytes=%llu seq=1\n",
			responses, pushes, last_status, bytes);
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	const char *dev = getenv("MOCK_DEV");
	mode_t mode = 0;
	va_list ap;

	if (!real)
		real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	va_start(ap, flags);
	if (flags & O_CREAT)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (dev && !strcmp(path, dev)) {
		if (mfd >= 0) {
			errno = EBUSY;
			return -1;
		}
		mfd = real("/dev/null", O_RDWR);
		return mfd;
	}
	return real(path, flags, mode);
}

/* the scenario */
static int fill_msg(struct vtuner_message *m)
{
	int classic = getenv("MOCK_CLASSIC") != NULL;

	memset(m, 0, sizeof(*m));
	switch (next_msg) {
	case 0: m->type = MSG_SET_TONE; m->body.tone = SEC_TONE_OFF; break;
	case 1: m->type = MSG_SET_VOLTAGE; m->body.voltage = SEC_VOLTAGE_18; break;
	case 2:
		m->type = MSG_SEND_DISEQC_MSG;
		memcpy(m->body.diseqc_master_cmd.msg, "\xe0\x10\x38\xf0", 4);
		m->body.diseqc_master_cmd.msg_len = 4;
		break;
	case 3:
		m->type = MSG_SET_FRONTEND;
		m->body.fe_params.frequency = 1362000;
		m->body.fe_params.inversion = INVERSION_AUTO | VTUNER_S2_ROLLOFF_20 |
					      VTUNER_S2_PILOT_ON;
		m->body.fe_params.u.qpsk.symbol_rate = 27500000;
		m->body.fe_params.u.qpsk.fec_inner = 9 + 9 + 3;	/* 8PSK 3/4 */
		break;
	case 4:
		m->type = MSG_PIDLIST;
		for (int i = 0; i < VTUNER_CLASSIC_PIDS; i++)
			m->body.pidlist[i] = VTUNER_PID_NONE;
		m->body.pidlist[0] = 256;
		m->body.pidlist[1] = 0;
		m->body.pidlist[2] = 17;
		break;
	case 5:
		if (!classic)
			return 0;
		m->type = MSG_READ_STATUS;
		break;
	default:
		return 0;
	}
	next_msg++;
	return 1;
}

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	if (fd != mfd || fd < 0)
		return real(fd, req, arg);

	if (req == VTUNER_GET_MESSAGE) {
		if (awaiting || !fill_msg(arg)) {
			errno = EAGAIN;
			return -1;
		}
		awaiting = ((struct vtuner_message *)arg)->type != MSG_PIDLIST;
		return 0;
	}
	if (req == VTUNER_SET_RESPONSE) {
		const struct vtuner_message *m = arg;

		if (!awaiting) {
			errno = ENOMSG;
			return -1;
		}
		awaiting = 0;
		responses++;
		if (m->type == MSG_READ_STATUS)
			last_status = m->body.status;
		return 0;
	}
	if (req == VTUNER_EXT_HELLO) {
		struct vtuner_ext_hello *h = arg;

		h->version = 1;
		h->features &= VTUNER_FEAT_ALL;
		h->max_props = VTUNER_EXT_MAX_PROPS;
		h->max_pids = VTUNER_EXT_MAX_PIDS;
		return 0;
	}
	if (req == VTUNER_EXT_GET_TUNE) {
		struct vtuner_ext_tune *t = arg;
		static const struct vtuner_ext_prop p[] = {
			{ DTV_DELIVERY_SYSTEM, SYS_DVBS2 }, { DTV_FREQUENCY, 1362000 },
			{ DTV_INVERSION, INVERSION_AUTO }, { DTV_MODULATION, PSK_8 },
			{ DTV_SYMBOL_RATE, 27500000 }, { DTV_INNER_FEC, FEC_3_4 },
			{ DTV_ROLLOFF, ROLLOFF_20 }, { DTV_PILOT, PILOT_ON },
			{ DTV_STREAM_ID, NO_STREAM_ID_FILTER },
		};

		memset(t, 0, sizeof(*t));
		t->seq = 1;
		t->num = sizeof(p) / sizeof(p[0]);
		memcpy(t->props, p, sizeof(p));
		return 0;
	}
	if (req == VTUNER_EXT_GET_PIDS) {
		struct vtuner_ext_pids *p = arg;

		memset(p, 0, sizeof(*p));
		p->seq = 1;
		p->num = 3;
		p->pids[0] = 0;
		p->pids[1] = 17;
		p->pids[2] = 256;
		return 0;
	}
	if (req == VTUNER_EXT_SET_STATUS) {
		const struct vtuner_ext_status *s = arg;

		if (s->tune_seq > 1) {
			errno = ESTALE;
			return -1;
		}
		pushes++;
		last_status = s->status;
		return 0;
	}
	return 0;	/* configuration calls */
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	static int (*real)(struct pollfd *, nfds_t, int);
	struct vtuner_message peek;
	int saved;

	if (!real)
		real = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	if (n != 1 || fds[0].fd != mfd || mfd < 0)
		return real(fds, n, timeout);
	saved = next_msg;
	if (!awaiting && fill_msg(&peek)) {
		next_msg = saved;
		fds[0].revents = POLLIN | POLLPRI;
		return 1;
	}
	fds[0].revents = 0;
	if (timeout > 0)
		usleep((timeout > 20 ? 20 : timeout) * 1000);
	return 0;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fd == mfd && mfd >= 0) {
		bytes += n;
		return n;
	}
	return real(fd, buf, n);
}
