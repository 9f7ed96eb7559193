/*
 * vt-fuzz - concurrent fuzzer for vtunerc.
 *
 *   vt-fuzz --iterations N --seed S [--dev /dev/vtunerc0]
 *	     [--adapter /dev/dvb/adapter0] [--threads LIST] [--nodes N]
 *	     [--procs N]
 *
 * Threads, each with its own xorshift PRNG seeded from S (the sequence of
 * operations of every thread is reproducible; their interleaving is not):
 *   ctl     N random operations on the control device: real and random
 *	     ioctl numbers (classic, extension, 32-bit encodings, magic 226
 *	     and others) with near-valid and bad arguments (NULL, 1, a
 *	     PROT_NONE page, a kernel address, buffers that end at a guard
 *	     page, unterminated 4 KiB strings), random writes of mostly valid
 *	     TS, poll, read, open/close and a second open expecting EBUSY;
 *	     then more of them, one every 0-2 ms, until fe and dmx are done.
 *   fe      N operations on frontend0: FE_GET_INFO, FE_SET_PROPERTY (random
 *	     properties, DTV_TUNE), FE_GET_PROPERTY (DTV_STAT_*, ...),
 *	     FE_READ_*, tone/voltage/DiSEqC, v3 FE_SET/GET_FRONTEND, ...
 *   dmx     N operations on demux0/dvr0: open, PES/section filters on
 *	     random PIDs, DMX_ADD_PID/REMOVE_PID, start/stop, read, close;
 *	     some with an argument the ctl thread rewrites meanwhile (a PID
 *	     or PES type read twice would differ), and the sequence of
 *	     issue 25 (a decoder PES type taken twice, the refused filter's
 *	     PID removed while other filters take feeds).
 *   answer  answers the messages of the control device: at once, late
 *	     (up to 3 s), never, mangled or twice; uses the extension calls.
 *   node    (--threads ...,node; --nodes of them) no control device, any
 *	     adapter (vtunerc --cuse's): random calls on descriptors of
 *	     frontend0, demux0 and dvr0 opened in any mode: DVB ioctls and
 *	     random numbers, bad pointers, any dtv_properties; reads,
 *	     writes and polls of odd sizes; blocking calls that a timer's
 *	     SIGALRM interrupts; dups and closes.
 * --procs N processes do what node threads do and are killed (SIGKILL)
 * after 50-1500 ms, whatever call they are in, and started again.
 * A watchdog interrupts (SIGUSR1) operations blocked for more than 4 s and
 * gives up (exit 4) if one stays blocked longer than --hang-timeout.
 *
 * Exit: 0 done; 1 setup error; 2 usage; 3 anomalies (a second open that
 * did not fail with EBUSY, a kernel/NULL pointer accepted by an ioctl);
 * 4 an operation hung.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/dmx.h>

#include "vtuner.h"
#include "vtcommon.h"

#define PAGE 4096
#define KERNEL_PTR ((void *)0xffff888000000000ULL)

/* ---- options / global state -------------------------------------------- */

static uint64_t o_iterations = 1000;
static uint64_t o_seed = 1;
static const char *o_dev = "/dev/vtunerc0";
static const char *o_adapter = "/dev/dvb/adapter0";
static double o_duration;		/* 0: no limit */
static int o_hang_timeout = 30;
static int o_trace;
static unsigned int o_threads = 0xf;	/* bit per thread kind */

static volatile int stop_all;
static volatile int ctl_fd = -1;	/* fd of the ctl thread, used by answer */
/*
 * fe and dmx threads still running: the ctl thread goes on (more slowly)
 * until they are done, so that their calls find an owner to talk to and
 * not only -ENOTCONN once its own iterations, which are quick, are over.
 */
static int workers_left;

enum {
	C_IOCTL, C_WRITE, C_OPEN, C_CLOSE, C_POLL, C_READ, C_EBUSY,
	C_MSG, C_ANSWER, C_LATE, C_NEVER, C_MANGLED, C_EINTR, C_ANOMALY,
	C_PROCS, C_KILLED, C_NUM
};
/* shared with the node processes (proc_shared) */
static uint64_t *counters;
static const char *const counter_names[C_NUM] = {
	"ioctl", "write", "open", "close", "poll", "read", "ebusy",
	"messages", "answered", "late", "unanswered", "mangled", "interrupted",
	"anomalies", "processes", "killed",
};

static void count(int c)
{
	__atomic_fetch_add(&counters[c], 1, __ATOMIC_RELAXED);
}

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void anomaly(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void anomaly(const char *fmt, ...)
{
	va_list ap;

	count(C_ANOMALY);
	if (counters[C_ANOMALY] > 20)
		return;
	pthread_mutex_lock(&out_lock);
	fprintf(stderr, "%s: ANOMALY: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&out_lock);
}

/* ---- threads ----------------------------------------------------------- */

struct thr {
	const char *name;
	int index;
	pthread_t tid;
	uint64_t rng;
	uint8_t *mem;		/* 2 RW pages followed by a PROT_NONE page */
	uint8_t *guard;		/* = mem + 2 * PAGE */
	uint8_t *tsbuf;		/* large buffer for TS writes */
	size_t tsbuf_len;
	uint8_t cc[8];		/* continuity counters of the TS generator */
	volatile int64_t op_start;	/* 0: idle */
	int64_t op_start_us;		/* --op-stats */
	const char *volatile op;
	int running;
};

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(struct thr *t)
{
	uint64_t x = t->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	t->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static uint32_t rn(struct thr *t, uint32_t n)
{
	return n ? (uint32_t)(rnd(t) % n) : 0;
}

static int chance(struct thr *t, int percent)
{
	return (int)rn(t, 100) < percent;
}

static void fill_random(struct thr *t, void *p, size_t n)
{
	uint8_t *b = p;

	while (n >= 8) {
		uint64_t v = rnd(t);

		memcpy(b, &v, 8);
		b += 8;
		n -= 8;
	}
	while (n--)
		*b++ = (uint8_t)rnd(t);
}

/* --op-stats: each operation's count and times */
struct opstat {
	const char *name;
	uint64_t n, total_us, max_us;
};
static int o_op_stats;
static struct opstat opstats[96];
static pthread_mutex_t stat_lock = PTHREAD_MUTEX_INITIALIZER;

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void op_stat(const char *name, int64_t us)
{
	size_t i;

	pthread_mutex_lock(&stat_lock);
	for (i = 0; i < ARRAY_SIZE(opstats); i++) {
		struct opstat *o = &opstats[i];

		if (o->name && o->name != name && strcmp(o->name, name))
			continue;
		o->name = name;
		o->n++;
		o->total_us += (uint64_t)us;
		if ((uint64_t)us > o->max_us)
			o->max_us = (uint64_t)us;
		break;
	}
	pthread_mutex_unlock(&stat_lock);
}

static int opstat_cmp(const void *a, const void *b)
{
	const struct opstat *x = a, *y = b;

	return x->total_us < y->total_us ? 1 : x->total_us > y->total_us ? -1 : 0;
}

static void begin(struct thr *t, const char *op)
{
	t->op = op;
	if (o_op_stats)
		t->op_start_us = now_us();
	__atomic_store_n(&t->op_start, now_ms(), __ATOMIC_RELEASE);
	if (o_trace) {
		pthread_mutex_lock(&out_lock);
		fprintf(stderr, "trace %s %s\n", t->name, op);
		pthread_mutex_unlock(&out_lock);
	}
}

static void end(struct thr *t, int ret)
{
	int err = errno;

	if (o_op_stats)
		op_stat(t->op, now_us() - t->op_start_us);
	errno = err;
	__atomic_store_n(&t->op_start, 0, __ATOMIC_RELEASE);
	if (ret < 0 && errno == EINTR)
		count(C_EINTR);
}

/* A "bad" pointer. */
static void *bad_ptr(struct thr *t)
{
	switch (rn(t, 5)) {
	case 0:	 return NULL;
	case 1:	 return (void *)1;
	case 2:	 return t->guard + rn(t, PAGE);		/* PROT_NONE page */
	case 3:	 return KERNEL_PTR;
	default: return t->guard - 1 - rn(t, 16);	/* runs into the guard */
	}
}

/* A valid buffer of len bytes ending exactly at the guard page. */
static void *edge_buf(struct thr *t, size_t len)
{
	if (len > 2 * PAGE)
		len = 2 * PAGE;
	return t->guard - len;
}

/* ---- random values ----------------------------------------------------- */

static const char *const type_names[] = {
	"DVB-S", "DVB-S2", "DVB-T", "DVB-T2", "DVB-C", "ATSC", "ISDB-T",
	"DVB-C/A", "DSS", "", "dvb-s2", "DVB-S2X", "DVB-S\n",
};

static uint32_t rand_u32(struct thr *t)
{
	static const uint32_t special[] = {
		0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000,
		0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 64, 65, 256, 257,
	};

	switch (rn(t, 4)) {
	case 0:	 return special[rn(t, ARRAY_SIZE(special))];
	case 1:	 return rn(t, 32);
	default: return (uint32_t)rnd(t);
	}
}

static void rand_string(struct thr *t, char *buf, size_t cap)
{
	size_t len;

	if (chance(t, 50)) {
		snprintf(buf, cap, "%s", type_names[rn(t, ARRAY_SIZE(type_names))]);
		return;
	}
	len = rn(t, chance(t, 80) ? 40 : (uint32_t)cap);
	if (len >= cap)
		len = cap - 1;
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)(1 + rn(t, 255));
	buf[len] = 0;
}

static uint32_t rand_delsys(struct thr *t)
{
	static const uint32_t d[] = {
		SYS_DVBS, SYS_DVBS2, SYS_DVBT, SYS_DVBT2, SYS_DVBC_ANNEX_A,
		SYS_ATSC, SYS_ISDBT,
	};

	return chance(t, 85) ? d[rn(t, ARRAY_SIZE(d))] : rn(t, 40);
}

/* ---- TS generator ------------------------------------------------------ */

static size_t gen_ts(struct thr *t, uint8_t *buf, size_t cap)
{
	static const uint16_t pids[8] = { 0, 16, 17, 256, 257, 0x1fff, 4096, 8191 };
	size_t n = 1 + rn(t, chance(t, 80) ? 32 : 400), i, len;

	if (n * 188 > cap)
		n = cap / 188;
	for (i = 0; i < n; i++) {
		uint8_t *p = buf + i * 188;
		int k = rn(t, 8);
		uint16_t pid = chance(t, 95) ? pids[k] : rn(t, 8192);

		p[0] = 0x47;
		p[1] = (uint8_t)((pid >> 8) & 0x1f) | (chance(t, 10) ? 0x40 : 0);
		p[2] = (uint8_t)pid;
		p[3] = 0x10 | (t->cc[k]++ & 0x0f);
		if (chance(t, 10)) {		/* adaptation field */
			p[3] |= 0x20;
			p[4] = (uint8_t)rn(t, 184);
			p[5] = (uint8_t)rnd(t);
		}
		memset(p + 6, (int)rnd(t), 182);
	}
	len = n * 188;
	/* mutations: misaligned start, partial end, garbage, lost sync */
	if (chance(t, 20) && len > 10) {
		size_t k = rn(t, 5), j;

		for (j = 0; j < k; j++)
			buf[rn(t, (uint32_t)len)] = (uint8_t)rnd(t);
	}
	if (chance(t, 15))
		len -= rn(t, (uint32_t)(len < 188 ? len : 188));
	return len;
}

/* ---- ctl thread -------------------------------------------------------- */

struct ioc {
	const char *name;
	unsigned long cmd;
};

static const struct ioc ctl_ioctls[] = {
#define I(x) { #x, (unsigned long)(x) }
	I(VTUNER_GET_MESSAGE), I(VTUNER_SET_RESPONSE), I(VTUNER_SET_NAME),
	I(VTUNER_SET_TYPE), I(VTUNER_SET_HAS_OUTPUTS), I(VTUNER_SET_FE_INFO),
	I(VTUNER_SET_NUM_MODES), I(VTUNER_SET_MODES), I(VTUNER_EXT_HELLO),
	I(VTUNER_EXT_GET_TUNE), I(VTUNER_EXT_SET_STATUS), I(VTUNER_EXT_SET_DELSYS),
	I(VTUNER_EXT_GET_PIDS), I(VTUNER_EXT_GET_COUNTERS),
#undef I
};

/* the same command with the size field of a 32-bit pointer */
static unsigned long enc32(unsigned long cmd)
{
	return _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), _IOC_NR(cmd), 4);
}

/* Fill a valid-ish argument for cmd into a buffer that ends at the guard
 * page; returns the argument to pass. */
static void *ctl_arg(struct thr *t, unsigned long cmd, int *by_value, long *value)
{
	size_t sz = _IOC_SIZE(cmd);
	uint8_t *p;

	*by_value = 0;
	if (cmd == VTUNER_SET_NUM_MODES || cmd == enc32(VTUNER_SET_NUM_MODES)) {
		static const long v[] = { 0, 1, 2, 3, 8, 9, -1, INT_MAX, INT_MIN, 1000 };

		*by_value = 1;
		*value = chance(t, 70) ? v[rn(t, ARRAY_SIZE(v))] : (long)(int)rnd(t);
		return NULL;
	}
	if (cmd == VTUNER_SET_NAME || cmd == VTUNER_SET_TYPE ||
	    cmd == VTUNER_SET_HAS_OUTPUTS || cmd == enc32(VTUNER_SET_NAME) ||
	    cmd == enc32(VTUNER_SET_TYPE) || cmd == enc32(VTUNER_SET_HAS_OUTPUTS)) {
		if (chance(t, 15)) {	/* unterminated, up to the guard page */
			size_t len = chance(t, 50) ? PAGE : 1 + rn(t, 300);

			p = edge_buf(t, len);
			for (size_t i = 0; i < len; i++)
				p[i] = (uint8_t)(1 + rn(t, 255));
			return p;
		}
		char s[300];

		rand_string(t, s, sizeof(s));
		p = edge_buf(t, strlen(s) + 1);
		memcpy(p, s, strlen(s) + 1);
		return p;
	}
	if (cmd == VTUNER_SET_MODES || cmd == enc32(VTUNER_SET_MODES)) {
		size_t n = rn(t, 12), i;

		p = edge_buf(t, n * VTUNER_TYPE_LEN);
		memset(p, 0, n * VTUNER_TYPE_LEN);
		for (i = 0; i < n; i++) {
			if (chance(t, 80))
				snprintf((char *)p + i * VTUNER_TYPE_LEN, VTUNER_TYPE_LEN,
					 "%s", type_names[rn(t, ARRAY_SIZE(type_names))]);
			else
				fill_random(t, p + i * VTUNER_TYPE_LEN, VTUNER_TYPE_LEN);
		}
		return p;
	}
	if (cmd == VTUNER_SET_FE_INFO || cmd == enc32(VTUNER_SET_FE_INFO)) {
		struct dvb_frontend_info fi;

		fill_random(t, &fi, sizeof(fi));
		if (chance(t, 60)) {
			fi.type = rn(t, 5);
			fi.frequency_min = rn(t, 2) ? 950000 : 42000000;
			fi.frequency_max = fi.frequency_min * (1 + rn(t, 20));
			fi.name[rn(t, sizeof(fi.name))] = 0;
		}
		p = edge_buf(t, sizeof(fi));
		memcpy(p, &fi, sizeof(fi));
		return p;
	}
	if (cmd == VTUNER_SET_RESPONSE || cmd == enc32(VTUNER_SET_RESPONSE)) {
		struct vtuner_message m;

		fill_random(t, &m, sizeof(m));
		if (chance(t, 70))
			m.type = 1 + rn(t, 17);
		p = edge_buf(t, chance(t, 80) ? sizeof(m) : 76);
		memcpy(p, &m, p == edge_buf(t, 76) ? 76 : sizeof(m));
		return p;
	}
	if (cmd == VTUNER_EXT_HELLO) {
		struct vtuner_ext_hello h;

		memset(&h, 0, sizeof(h));
		h.version = chance(t, 70) ? VTUNER_ABI_VERSION : rand_u32(t);
		h.features = chance(t, 70) ? rn(t, 8) : rand_u32(t);
		if (chance(t, 10))
			h.reserved[rn(t, 4)] = rand_u32(t);
		p = edge_buf(t, sizeof(h));
		memcpy(p, &h, sizeof(h));
		return p;
	}
	if (cmd == VTUNER_EXT_SET_STATUS) {
		struct vtuner_ext_status s;

		fill_random(t, &s, sizeof(s));
		if (chance(t, 70)) {
			s.tune_seq = chance(t, 70) ? 0 : rn(t, 5);
			s.strength.len = rn(t, 6);
			s.cnr.len = rn(t, 6);
			s.pre_bit_error.len = rn(t, 5);
			s.pre_bit_count.len = rn(t, 5);
			s.post_bit_error.len = rn(t, 5);
			s.post_bit_count.len = rn(t, 5);
			s.block_error.len = rn(t, 5);
			s.block_count.len = rn(t, 5);
			s.strength.stat[0].scale = rn(t, 5);
			s.status = rn(t, 0x80);
		}
		p = edge_buf(t, sizeof(s));
		memcpy(p, &s, sizeof(s));
		return p;
	}
	if (cmd == VTUNER_EXT_SET_DELSYS) {
		struct vtuner_ext_delsys d;

		memset(&d, 0, sizeof(d));
		d.num = chance(t, 80) ? rn(t, 10) : rand_u32(t);
		for (int i = 0; i < VTUNER_EXT_MAX_DELSYS; i++)
			d.delsys[i] = (uint8_t)rand_delsys(t);
		if (chance(t, 10))
			d.reserved = rand_u32(t);
		p = edge_buf(t, sizeof(d));
		memcpy(p, &d, sizeof(d));
		return p;
	}
	/* reads: a buffer of exactly the size, or larger, or one byte short */
	if (sz > 2 * PAGE)
		sz = 2 * PAGE;
	if (chance(t, 10) && sz > 1)
		sz--;
	p = edge_buf(t, sz ? sz : 64);
	fill_random(t, p, sz ? sz : 64);
	return p;
}

static int is_write_cmd(unsigned long cmd)
{
	return _IOC_DIR(cmd) == _IOC_WRITE && cmd != VTUNER_SET_NUM_MODES &&
	       cmd != enc32(VTUNER_SET_NUM_MODES) && cmd != VTUNER_SET_RESPONSE &&
	       cmd != enc32(VTUNER_SET_RESPONSE);
}

static void ctl_ioctl(struct thr *t, int fd)
{
	const struct ioc *ic = &ctl_ioctls[rn(t, ARRAY_SIZE(ctl_ioctls))];
	unsigned long cmd = ic->cmd;
	int by_value, bad = 0, r;
	long value = 0;
	void *arg;
	int how = rn(t, 100);

	if (how < 8) {
		cmd = enc32(cmd);			/* 32-bit encoding */
	} else if (how < 14) {
		cmd = _IOC(rn(t, 4), VTUNER_MAJOR, rn(t, 256), rn(t, 1024));
	} else if (how < 17) {
		cmd = (unsigned long)(uint32_t)rnd(t);
	} else if (how < 20) {
		cmd = _IOC(rn(t, 4), rn(t, 256), _IOC_NR(cmd), _IOC_SIZE(cmd));
	}
	arg = ctl_arg(t, cmd, &by_value, &value);
	if (!by_value && chance(t, 15)) {
		arg = bad_ptr(t);
		bad = 1;
	}
	if ((cmd == VTUNER_GET_MESSAGE || cmd == enc32(VTUNER_GET_MESSAGE)) &&
	    !(fcntl(fd, F_GETFL) & O_NONBLOCK) && chance(t, 90))
		return;		/* would block until the watchdog; rarely */
	begin(t, ic->name);
	r = by_value ? ioctl(fd, cmd, value) : ioctl(fd, cmd, arg);
	end(t, r);
	count(C_IOCTL);
	if (r == 0 && bad && (arg == KERNEL_PTR || arg == NULL || arg == (void *)1) &&
	    cmd == ic->cmd && is_write_cmd(cmd))
		anomaly("ctl: %s(%p) succeeded", ic->name, arg);
}

static void ctl_write(struct thr *t, int fd)
{
	size_t len;
	ssize_t r;
	const void *p;

	if (chance(t, 10)) {
		p = bad_ptr(t);
		len = rn(t, 3) ? 188 : rn(t, 2 * PAGE);
	} else if (chance(t, 5)) {
		p = t->tsbuf;
		len = 0;
	} else {
		len = gen_ts(t, t->tsbuf, t->tsbuf_len);
		p = t->tsbuf;
		if (chance(t, 10)) {
			/* tail of the data at the guard page: partial fault */
			size_t n = len < 2 * PAGE ? len : 2 * PAGE;

			memcpy(edge_buf(t, n), t->tsbuf, n);
			p = edge_buf(t, n);
			len = n + 1 + rn(t, 188);
		} else if (chance(t, 20)) {
			size_t off = rn(t, 188);

			if (off < len) {
				p = t->tsbuf + off;
				len -= off;
			}
		}
	}
	begin(t, "write");
	r = write(fd, p, len);
	end(t, (int)r);
	count(C_WRITE);
}

static void racy_stir(struct thr *t);

static void ctl_thread_ops(struct thr *t, int *fdp)
{
	int fd = *fdp, op = rn(t, 100);

	racy_stir(t);

	if (fd < 0 || op < 2) {
		if (fd >= 0) {
			/* a second open must fail with EBUSY */
			begin(t, "open2");
			int fd2 = open(o_dev, O_RDWR | O_NONBLOCK);
			end(t, fd2);
			count(C_OPEN);
			if (fd2 >= 0) {
				anomaly("ctl: second open of %s succeeded", o_dev);
				close(fd2);
			} else if (errno == EBUSY) {
				count(C_EBUSY);
			}
			return;
		}
		int flags = chance(t, 85) ? O_RDWR | O_NONBLOCK :
			    chance(t, 50) ? O_RDWR : O_RDONLY | O_NONBLOCK;

		begin(t, "open");
		fd = open(o_dev, flags | O_CLOEXEC);
		end(t, fd);
		count(C_OPEN);
		if (fd < 0) {
			if (errno == EBUSY)
				count(C_EBUSY);
			usleep(1000);
			return;
		}
		*fdp = fd;
		ctl_fd = fd;
		return;
	}
	if (op < 4) {
		ctl_fd = -1;
		begin(t, "close");
		close(fd);
		end(t, 0);
		count(C_CLOSE);
		*fdp = -1;
		return;
	}
	if (op < 6) {
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0)
			fcntl(fd, F_SETFL, fl ^ O_NONBLOCK);
		return;
	}
	if (op < 65) {
		ctl_ioctl(t, fd);
	} else if (op < 90) {
		ctl_write(t, fd);
	} else if (op < 96) {
		struct pollfd pfd = { .fd = fd, .events = (short)rn(t, 0x10000) };
		int r;

		if (chance(t, 70))
			pfd.events = POLLIN | POLLPRI | POLLOUT;
		begin(t, "poll");
		r = poll(&pfd, 1, rn(t, 20));
		end(t, r);
		count(C_POLL);
	} else {
		char buf[512];
		ssize_t r;

		begin(t, "read");
		r = read(fd, chance(t, 80) ? (void *)buf : bad_ptr(t), rn(t, sizeof(buf)));
		end(t, (int)r);
		count(C_READ);
	}
}

static void *ctl_thread(void *arg)
{
	struct thr *t = arg;
	int fd = -1;

	for (uint64_t i = 0; !stop_all; i++) {
		if (i >= o_iterations) {
			if (!__atomic_load_n(&workers_left, __ATOMIC_ACQUIRE))
				break;
			usleep(rn(t, 2000));
		}
		ctl_thread_ops(t, &fd);
	}
	ctl_fd = -1;
	if (fd >= 0) {
		close(fd);
		count(C_CLOSE);
	}
	t->running = 0;
	return NULL;
}

/* ---- frontend thread --------------------------------------------------- */

static int fill_props(struct thr *t, struct dtv_property *pr, int max)
{
	static const uint32_t tune_cmds[] = {
		DTV_DELIVERY_SYSTEM, DTV_FREQUENCY, DTV_MODULATION, DTV_SYMBOL_RATE,
		DTV_INNER_FEC, DTV_ROLLOFF, DTV_PILOT, DTV_BANDWIDTH_HZ,
		DTV_STREAM_ID, DTV_INVERSION, DTV_GUARD_INTERVAL,
		DTV_TRANSMISSION_MODE, DTV_HIERARCHY, DTV_CODE_RATE_HP,
		DTV_CODE_RATE_LP, DTV_VOLTAGE, DTV_TONE, DTV_CLEAR,
	};
	int n = chance(t, 90) ? (int)rn(t, 16) : (int)rn(t, max + 1), i;

	if (n > max)
		n = max;
	memset(pr, 0, sizeof(*pr) * max);
	for (i = 0; i < n; i++) {
		pr[i].cmd = chance(t, 80) ? tune_cmds[rn(t, ARRAY_SIZE(tune_cmds))] : rn(t, 80);
		switch (pr[i].cmd) {
		case DTV_DELIVERY_SYSTEM:
			pr[i].u.data = rand_delsys(t);
			break;
		case DTV_FREQUENCY:
			pr[i].u.data = chance(t, 50) ? 950000 + rn(t, 11800000) :
				       chance(t, 80) ? 42000000 + rn(t, 900000000) : rand_u32(t);
			break;
		case DTV_SYMBOL_RATE:
			pr[i].u.data = chance(t, 80) ? 1000000 + rn(t, 44000000) : rand_u32(t);
			break;
		default:
			pr[i].u.data = chance(t, 80) ? rn(t, 16) : rand_u32(t);
			break;
		}
	}
	if (n > 0 && n < max && chance(t, 70))
		pr[n++].cmd = DTV_TUNE;
	return n;
}

static void fe_op(struct thr *t, int *fdp, const char *path)
{
	static const uint32_t stat_cmds[] = {
		DTV_STAT_SIGNAL_STRENGTH, DTV_STAT_CNR, DTV_STAT_PRE_ERROR_BIT_COUNT,
		DTV_STAT_PRE_TOTAL_BIT_COUNT, DTV_STAT_POST_ERROR_BIT_COUNT,
		DTV_STAT_POST_TOTAL_BIT_COUNT, DTV_STAT_ERROR_BLOCK_COUNT,
		DTV_STAT_TOTAL_BLOCK_COUNT, DTV_ENUM_DELSYS, DTV_API_VERSION,
		DTV_DELIVERY_SYSTEM, DTV_FREQUENCY, DTV_SYMBOL_RATE,
	};
	int fd = *fdp, op = rn(t, 100), r = 0;
	uint8_t *buf = t->mem;

	if (fd < 0) {
		begin(t, "open frontend");
		fd = open(path, (chance(t, 85) ? O_RDWR : O_RDONLY) |
			  (chance(t, 80) ? O_NONBLOCK : 0) | O_CLOEXEC);
		end(t, fd);
		count(C_OPEN);
		if (fd < 0)
			usleep(chance(t, 50) ? 1000 : 10000);
		*fdp = fd;
		return;
	}
	if (op < 3) {
		begin(t, "close frontend");
		close(fd);
		end(t, 0);
		count(C_CLOSE);
		*fdp = -1;
		return;
	}
	if (op < 13) {
		begin(t, "FE_GET_INFO");
		r = ioctl(fd, FE_GET_INFO, chance(t, 90) ? (void *)buf : bad_ptr(t));
	} else if (op < 33) {
		struct dtv_property *pr = (void *)buf;
		struct dtv_properties ps;

		ps.num = fill_props(t, pr, 70);
		ps.props = chance(t, 95) ? pr : bad_ptr(t);
		if (chance(t, 3))
			ps.num = rand_u32(t);
		begin(t, "FE_SET_PROPERTY");
		r = ioctl(fd, FE_SET_PROPERTY, chance(t, 97) ? (void *)&ps : bad_ptr(t));
	} else if (op < 48) {
		struct dtv_property *pr = (void *)buf;
		struct dtv_properties ps;
		int n = 1 + rn(t, 8);

		memset(pr, 0, sizeof(*pr) * n);
		for (int i = 0; i < n; i++)
			pr[i].cmd = chance(t, 90) ? stat_cmds[rn(t, ARRAY_SIZE(stat_cmds))] :
				    rn(t, 80);
		ps.num = n;
		ps.props = chance(t, 95) ? pr : bad_ptr(t);
		begin(t, "FE_GET_PROPERTY");
		r = ioctl(fd, FE_GET_PROPERTY, &ps);
	} else if (op < 63) {
		static const struct ioc rd[] = {
			{ "FE_READ_STATUS", FE_READ_STATUS }, { "FE_READ_BER", FE_READ_BER },
			{ "FE_READ_SIGNAL_STRENGTH", FE_READ_SIGNAL_STRENGTH },
			{ "FE_READ_SNR", FE_READ_SNR },
			{ "FE_READ_UNCORRECTED_BLOCKS", FE_READ_UNCORRECTED_BLOCKS },
			{ "FE_GET_FRONTEND", FE_GET_FRONTEND },
			{ "FE_GET_EVENT", FE_GET_EVENT },
		};
		const struct ioc *ic = &rd[rn(t, ARRAY_SIZE(rd))];

		if (ic->cmd == FE_GET_EVENT && !(fcntl(fd, F_GETFL) & O_NONBLOCK))
			ic = &rd[0];
		begin(t, ic->name);
		r = ioctl(fd, ic->cmd, chance(t, 95) ? (void *)buf : bad_ptr(t));
	} else if (op < 83) {
		switch (rn(t, 7)) {
		case 0:
			begin(t, "FE_SET_TONE");
			r = ioctl(fd, FE_SET_TONE, (long)(chance(t, 90) ? rn(t, 2) : rand_u32(t)));
			break;
		case 1:
			begin(t, "FE_SET_VOLTAGE");
			r = ioctl(fd, FE_SET_VOLTAGE, (long)(chance(t, 90) ? rn(t, 3) : rand_u32(t)));
			break;
		case 2:
			begin(t, "FE_ENABLE_HIGH_LNB_VOLTAGE");
			r = ioctl(fd, FE_ENABLE_HIGH_LNB_VOLTAGE, (long)rn(t, 3));
			break;
		case 3: {
			struct dvb_diseqc_master_cmd c;

			fill_random(t, &c, sizeof(c));
			c.msg_len = chance(t, 80) ? 3 + rn(t, 4) : (uint8_t)rnd(t);
			if (chance(t, 70)) {
				c.msg[0] = 0xe0;
				c.msg[1] = 0x10;
				c.msg[2] = 0x38;
			}
			begin(t, "FE_DISEQC_SEND_MASTER_CMD");
			r = ioctl(fd, FE_DISEQC_SEND_MASTER_CMD, chance(t, 95) ? (void *)&c : bad_ptr(t));
			break;
		}
		case 4:
			begin(t, "FE_DISEQC_SEND_BURST");
			r = ioctl(fd, FE_DISEQC_SEND_BURST, (long)(chance(t, 90) ? rn(t, 2) : rand_u32(t)));
			break;
		case 5:
			begin(t, "FE_DISEQC_RECV_SLAVE_REPLY");
			r = ioctl(fd, FE_DISEQC_RECV_SLAVE_REPLY, buf);
			break;
		default:
			begin(t, "FE_DISEQC_RESET_OVERLOAD");
			r = ioctl(fd, FE_DISEQC_RESET_OVERLOAD);
			break;
		}
	} else if (op < 90) {
		struct dvb_frontend_parameters p;

		fill_random(t, &p, sizeof(p));
		if (chance(t, 70)) {
			p.frequency = chance(t, 50) ? 950000 + rn(t, 11800000) :
				      42000000 + rn(t, 900000000);
			p.inversion = rn(t, 3);
			p.u.qpsk.symbol_rate = 1000000 + rn(t, 44000000);
			p.u.qpsk.fec_inner = rn(t, 28);
		}
		begin(t, "FE_SET_FRONTEND");
		r = ioctl(fd, FE_SET_FRONTEND, chance(t, 95) ? (void *)&p : bad_ptr(t));
	} else if (op < 94) {
		begin(t, "FE_SET_FRONTEND_TUNE_MODE");
		r = ioctl(fd, FE_SET_FRONTEND_TUNE_MODE, (long)rn(t, 3));
	} else if (op < 97) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLPRI };

		begin(t, "poll frontend");
		r = poll(&pfd, 1, rn(t, 20));
		end(t, r);
		count(C_POLL);
		return;
	} else {
		unsigned long cmd = _IOC(rn(t, 4), 'o', rn(t, 256), rn(t, 512));

		begin(t, "random 'o' ioctl");
		r = ioctl(fd, cmd, chance(t, 80) ? (void *)buf : bad_ptr(t));
	}
	end(t, r);
	count(C_IOCTL);
}

static void *fe_thread(void *arg)
{
	struct thr *t = arg;
	char path[512];
	int fd = -1;

	snprintf(path, sizeof(path), "%s/frontend0", o_adapter);
	for (uint64_t i = 0; i < o_iterations && !stop_all; i++)
		fe_op(t, &fd, path);
	if (fd >= 0) {
		close(fd);
		count(C_CLOSE);
	}
	__atomic_sub_fetch(&workers_left, 1, __ATOMIC_RELEASE);
	t->running = 0;
	return NULL;
}

/* ---- demux thread ------------------------------------------------------ */

#define NDMX 4

static uint16_t rand_pid(struct thr *t)
{
	static const uint16_t p[] = { 0, 16, 17, 18, 256, 257, 0x1fff, 0x2000 };

	return chance(t, 80) ? p[rn(t, ARRAY_SIZE(p))] : (uint16_t)rn(t, 0x10000);
}

/* Arguments the ctl thread rewrites while the dmx thread passes them. */
static struct dmx_pes_filter_params racy_pes;
static uint16_t racy_pid;

static void racy_stir(struct thr *t)
{
	volatile uint16_t *pid = &racy_pes.pid;
	volatile uint32_t *type = (volatile uint32_t *)&racy_pes.pes_type;

	*pid = rand_pid(t);
	*type = chance(t, 50) ? DMX_PES_OTHER : rn(t, 6);
	*(volatile uint16_t *)&racy_pid = rand_pid(t);
}

/*
 * Issue 25's sequence on four new descriptors: B asks for the decoder
 * PES type A holds and starts; C takes a feed; B removes its PID; D takes
 * a section feed; C stops.
 */
static void dmx_sequence(struct thr *t, const char *dpath)
{
	struct dmx_pes_filter_params p = { .input = DMX_IN_FRONTEND,
					   .output = DMX_OUT_TS_TAP };
	struct dmx_sct_filter_params s;
	enum dmx_ts_pes type = rn(t, 5);
	uint16_t pid = 0x101;
	int fd[4], i;

	begin(t, "issue 25 sequence");
	for (i = 0; i < 4; i++)
		fd[i] = open(dpath, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	p.pid = 0x100;
	p.pes_type = type;
	p.flags = DMX_IMMEDIATE_START;
	ioctl(fd[0], DMX_SET_PES_FILTER, &p);
	p.pid = 0x101;
	p.flags = rn(t, 2) ? DMX_IMMEDIATE_START : 0;
	ioctl(fd[1], DMX_SET_PES_FILTER, &p);
	ioctl(fd[1], DMX_START);
	p.pid = 0x102;
	p.pes_type = DMX_PES_OTHER;
	p.flags = DMX_IMMEDIATE_START;
	ioctl(fd[2], DMX_SET_PES_FILTER, &p);
	ioctl(fd[1], DMX_REMOVE_PID, &pid);
	memset(&s, 0, sizeof(s));
	s.pid = 0x103;
	s.flags = DMX_IMMEDIATE_START;
	ioctl(fd[3], DMX_SET_FILTER, &s);
	usleep(rn(t, 2000));
	ioctl(fd[2], DMX_STOP);
	for (i = 0; i < 4; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	end(t, 0);
	count(C_IOCTL);
}

static void dmx_op(struct thr *t, int *fds, int *dvr, const char *dpath, const char *vpath)
{
	int k = rn(t, NDMX), fd = fds[k], op = rn(t, 100), r = 0;
	uint8_t *buf = t->mem;

	if (op < 5) {
		if (*dvr >= 0) {
			begin(t, "dvr read");
			r = (int)read(*dvr, chance(t, 95) ? (void *)buf : bad_ptr(t),
				      rn(t, 2 * PAGE));
			end(t, r);
			count(C_READ);
			if (chance(t, 30)) {
				close(*dvr);
				count(C_CLOSE);
				*dvr = -1;
			}
		} else {
			begin(t, "dvr open");
			*dvr = open(vpath, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			end(t, *dvr);
			count(C_OPEN);
		}
		return;
	}
	if (fd < 0) {
		begin(t, "open demux");
		fd = open(dpath, (chance(t, 90) ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
		end(t, fd);
		count(C_OPEN);
		if (fd < 0)
			usleep(chance(t, 50) ? 1000 : 10000);
		fds[k] = fd;
		return;
	}
	if (op < 12) {
		begin(t, "close demux");
		close(fd);
		end(t, 0);
		count(C_CLOSE);
		fds[k] = -1;
		return;
	}
	if (op < 35) {
		struct dmx_pes_filter_params p;

		memset(&p, 0, sizeof(p));
		p.pid = rand_pid(t);
		p.input = chance(t, 95) ? DMX_IN_FRONTEND : rn(t, 3);
		p.output = chance(t, 90) ? (chance(t, 70) ? DMX_OUT_TS_TAP : DMX_OUT_TSDEMUX_TAP) :
			   rn(t, 5);
		p.pes_type = chance(t, 90) ? DMX_PES_OTHER : rn(t, 25);
		p.flags = chance(t, 80) ? DMX_IMMEDIATE_START : rand_u32(t);
		begin(t, "DMX_SET_PES_FILTER");
		r = ioctl(fd, DMX_SET_PES_FILTER,
			  chance(t, 10) ? (void *)&racy_pes :
			  chance(t, 97) ? (void *)&p : bad_ptr(t));
	} else if (op < 50) {
		struct dmx_sct_filter_params p;

		memset(&p, 0, sizeof(p));
		p.pid = rand_pid(t);
		if (chance(t, 50)) {
			p.filter.filter[0] = (uint8_t)rn(t, 0x80);
			p.filter.mask[0] = 0xff;
		} else {
			fill_random(t, &p.filter, sizeof(p.filter));
		}
		p.timeout = rn(t, 3) ? 0 : rn(t, 2000);
		p.flags = chance(t, 80) ? (DMX_IMMEDIATE_START | (rn(t, 2) ? DMX_CHECK_CRC : 0)) :
			  rand_u32(t);
		begin(t, "DMX_SET_FILTER");
		r = ioctl(fd, DMX_SET_FILTER, chance(t, 97) ? (void *)&p : bad_ptr(t));
	} else if (op < 70) {
		uint16_t pid = rand_pid(t);
		int add = rn(t, 2);

		begin(t, add ? "DMX_ADD_PID" : "DMX_REMOVE_PID");
		r = ioctl(fd, add ? DMX_ADD_PID : DMX_REMOVE_PID,
			  chance(t, 10) ? (void *)&racy_pid :
			  chance(t, 97) ? (void *)&pid : bad_ptr(t));
	} else if (op < 80) {
		int start = rn(t, 2);

		begin(t, start ? "DMX_START" : "DMX_STOP");
		r = ioctl(fd, start ? DMX_START : DMX_STOP);
	} else if (op < 81) {
		dmx_sequence(t, dpath);
		return;
	} else if (op < 84) {
		begin(t, "DMX_SET_BUFFER_SIZE");
		r = ioctl(fd, DMX_SET_BUFFER_SIZE,
			  (unsigned long)(chance(t, 80) ? 188 * (1 + rn(t, 2000)) : rn(t, 4 << 20)));
	} else if (op < 95) {
		begin(t, "demux read");
		r = (int)read(fd, chance(t, 95) ? (void *)buf : bad_ptr(t), rn(t, 2 * PAGE));
		end(t, r);
		count(C_READ);
		return;
	} else {
		struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLPRI };

		begin(t, "poll demux");
		r = poll(&pfd, 1, rn(t, 10));
		end(t, r);
		count(C_POLL);
		return;
	}
	end(t, r);
	count(C_IOCTL);
}

static void *dmx_thread(void *arg)
{
	struct thr *t = arg;
	char dpath[512], vpath[512];
	int fds[NDMX], dvr = -1, i;

	snprintf(dpath, sizeof(dpath), "%s/demux0", o_adapter);
	snprintf(vpath, sizeof(vpath), "%s/dvr0", o_adapter);
	for (i = 0; i < NDMX; i++)
		fds[i] = -1;
	for (uint64_t n = 0; n < o_iterations && !stop_all; n++)
		dmx_op(t, fds, &dvr, dpath, vpath);
	for (i = 0; i < NDMX; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			count(C_CLOSE);
		}
	if (dvr >= 0) {
		close(dvr);
		count(C_CLOSE);
	}
	__atomic_sub_fetch(&workers_left, 1, __ATOMIC_RELEASE);
	t->running = 0;
	return NULL;
}

/* ---- node threads and processes ----------------------------------------- */

/*
 * Any adapter, with or without the control device (vtunerc --cuse's):
 * each node thread holds up to NSLOT descriptors of frontend0, demux0 and
 * dvr0 opened with any access mode and O_NONBLOCK or not, and makes random
 * calls on them: ioctls of the DVB API and random numbers (sizes and
 * directions of the _IOC encoding changed), with valid, short, NULL,
 * unmapped and kernel pointers, dtv_properties with any num and props;
 * reads and writes of odd sizes, polls; a call that may block has a timer
 * of 1-300 ms that interrupts it (SIGALRM).  The node processes do the
 * same and are killed (SIGKILL) after 50-1500 ms, whatever they are in,
 * and started again.
 */
#define NSLOT		6
#define BIGBUF		(1 << 20)
#define MAX_NODES	8

enum { N_FE, N_DMX, N_DVR, N_NUM };
static const char *const node_names[N_NUM] = { "frontend0", "demux0", "dvr0" };

static unsigned int o_nodes = 3;	/* node threads with --threads node */
static unsigned int o_procs;		/* node processes */

struct nslot {
	int fd;
	int node;
};

struct nstate {
	struct nslot s[NSLOT];
	timer_t timer;
	int have_timer;
	uint8_t *big;			/* BIGBUF bytes and a PROT_NONE page */
	char paths[N_NUM][512];
};

static void on_alarm(int sig)
{
	(void)sig;
}

/* no SA_RESTART: the timer interrupts the call */
static void install_alarm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
}

/* A timer that interrupts the next call of this thread in 1-300 ms. */
static void arm(struct thr *t, struct nstate *ns)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	long ms = chance(t, 85) ? 1 + rn(t, 10) : 10 + rn(t, 290);

	if (!ns->have_timer)
		return;
	its.it_value.tv_sec = ms / 1000;
	its.it_value.tv_nsec = ms % 1000 * 1000000;
	timer_settime(ns->timer, 0, &its, NULL);
}

static void disarm(struct nstate *ns)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	if (ns->have_timer)
		timer_settime(ns->timer, 0, &its, NULL);
}

static int nstate_init(struct nstate *ns)
{
	struct sigevent sev;
	int i;

	memset(ns, 0, sizeof(*ns));
	for (i = 0; i < NSLOT; i++)
		ns->s[i].fd = -1;
	for (i = 0; i < N_NUM; i++)
		snprintf(ns->paths[i], sizeof(ns->paths[i]), "%s/%s", o_adapter,
			 node_names[i]);
	ns->big = mmap(NULL, BIGBUF + PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ns->big == MAP_FAILED || mprotect(ns->big + BIGBUF, PAGE, PROT_NONE) < 0)
		return -1;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGALRM;
	sev._sigev_un._tid = gettid();
	ns->have_timer = timer_create(CLOCK_MONOTONIC, &sev, &ns->timer) == 0;
	return 0;
}

static void nstate_fini(struct nstate *ns)
{
	int i;

	for (i = 0; i < NSLOT; i++) {
		if (ns->s[i].fd >= 0) {
			close(ns->s[i].fd);
			count(C_CLOSE);
		}
	}
	if (ns->have_timer)
		timer_delete(ns->timer);
	munmap(ns->big, BIGBUF + PAGE);
}

static int is_blocking(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && !(fl & O_NONBLOCK);
}

/* A size for a read or write: the odd ones often. */
static size_t odd_size(struct thr *t)
{
	static const size_t sz[] = {
		0, 1, 2, 3, 187, 188, 189, 376, 4095, 4096, 4097, 8191, 8192,
		65535, 65536, 131072, 131073, BIGBUF,
	};

	return chance(t, 70) ? sz[rn(t, ARRAY_SIZE(sz))] : rn(t, BIGBUF + 1);
}

struct nioc {
	const char *name;
	unsigned long cmd;
	int node;		/* N_NUM: any */
};

static const struct nioc node_ioctls[] = {
#define I(x, n) { #x, (unsigned long)(x), n }
	I(FE_GET_INFO, N_FE), I(FE_DISEQC_RESET_OVERLOAD, N_FE),
	I(FE_DISEQC_SEND_MASTER_CMD, N_FE), I(FE_DISEQC_RECV_SLAVE_REPLY, N_FE),
	I(FE_DISEQC_SEND_BURST, N_FE), I(FE_SET_TONE, N_FE),
	I(FE_SET_VOLTAGE, N_FE), I(FE_ENABLE_HIGH_LNB_VOLTAGE, N_FE),
	I(FE_READ_STATUS, N_FE), I(FE_READ_BER, N_FE),
	I(FE_READ_SIGNAL_STRENGTH, N_FE), I(FE_READ_SNR, N_FE),
	I(FE_READ_UNCORRECTED_BLOCKS, N_FE), I(FE_SET_FRONTEND, N_FE),
	I(FE_GET_FRONTEND, N_FE), I(FE_SET_FRONTEND_TUNE_MODE, N_FE),
	I(FE_GET_EVENT, N_FE), I(FE_DISHNETWORK_SEND_LEGACY_CMD, N_FE),
	I(FE_SET_PROPERTY, N_FE), I(FE_GET_PROPERTY, N_FE),
	I(DMX_START, N_DMX), I(DMX_STOP, N_DMX), I(DMX_SET_FILTER, N_DMX),
	I(DMX_SET_PES_FILTER, N_DMX), I(DMX_SET_BUFFER_SIZE, N_DMX),
	I(DMX_GET_PES_PIDS, N_DMX), I(DMX_GET_STC, N_DMX),
	I(DMX_ADD_PID, N_DMX), I(DMX_REMOVE_PID, N_DMX),
	I(DMX_REQBUFS, N_DMX), I(DMX_QUERYBUF, N_DMX), I(DMX_EXPBUF, N_DMX),
	I(DMX_QBUF, N_DMX), I(DMX_DQBUF, N_DMX),
	I(TCGETS, N_NUM), I(FIONREAD, N_NUM),
#undef I
};

/* The commands that take a value, not a pointer. */
static int by_value(unsigned long cmd)
{
	return cmd == FE_DISEQC_SEND_BURST || cmd == FE_SET_TONE ||
	       cmd == FE_SET_VOLTAGE || cmd == FE_ENABLE_HIGH_LNB_VOLTAGE ||
	       cmd == FE_SET_FRONTEND_TUNE_MODE ||
	       cmd == FE_DISHNETWORK_SEND_LEGACY_CMD ||
	       cmd == DMX_SET_BUFFER_SIZE || cmd == FE_DISEQC_RESET_OVERLOAD ||
	       cmd == DMX_START || cmd == DMX_STOP;
}

/* dtv_properties whose num the node threads change while others pass it */
static struct dtv_properties racy_props;
static struct dtv_property racy_pr[DTV_IOCTL_MAX_MSGS + 1];

static void racy_props_stir(struct thr *t)
{
	volatile uint32_t *num = &racy_props.num;

	if (!racy_props.props) {
		racy_props.props = racy_pr;
		for (int i = 0; i <= DTV_IOCTL_MAX_MSGS; i++)
			racy_pr[i].cmd = DTV_STAT_SIGNAL_STRENGTH + i % 8;
	}
	*num = rn(t, DTV_IOCTL_MAX_MSGS + 2);
}

/*
 * FE_SET_PROPERTY, FE_GET_PROPERTY: struct dtv_properties with a num of
 * any size and props anywhere.
 */
static void *props_arg(struct thr *t)
{
	struct dtv_properties *ps = (void *)t->mem;
	struct dtv_property *pr;
	uint32_t n;

	if (chance(t, 10)) {
		racy_props_stir(t);
		return &racy_props;
	}

	/* the properties at the end of the RW pages, the header before */
	n = chance(t, 70) ? 1 + rn(t, 16) : chance(t, 50) ? DTV_IOCTL_MAX_MSGS :
	    chance(t, 50) ? DTV_IOCTL_MAX_MSGS + 1 : rand_u32(t);
	pr = (struct dtv_property *)(t->guard - (n <= 100 ? n : 100) * sizeof(*pr));
	fill_props(t, pr, n <= 100 ? (int)n : 100);
	if (chance(t, 30))
		for (uint32_t i = 0; i < n && i < 100; i++)
			pr[i].cmd = rn(t, 80);
	ps->num = n;
	switch (rn(t, 10)) {
	case 0: ps->props = bad_ptr(t); break;
	case 1: ps->props = pr + 1; break;	/* the last one in the guard */
	case 2: ps->num = 0; ps->props = pr; break;
	default: ps->props = pr; break;
	}
	return ps;
}

/* A valid-ish argument of cmd (size bytes) ending at the guard page. */
static void *node_arg(struct thr *t, unsigned long cmd, size_t size)
{
	uint8_t *p;

	if (size > 2 * PAGE - 64)
		size = 2 * PAGE - 64;
	p = edge_buf(t, size ? size : 16);
	fill_random(t, p, size ? size : 16);
	if (cmd == DMX_SET_FILTER && chance(t, 70)) {
		struct dmx_sct_filter_params *f = (void *)p;

		f->pid = rand_pid(t);
		f->timeout = rn(t, 3) ? 0 : rn(t, 500);
		f->flags = rn(t, 8);
	} else if (cmd == DMX_SET_PES_FILTER && chance(t, 70)) {
		struct dmx_pes_filter_params *f = (void *)p;

		f->pid = rand_pid(t);
		f->input = rn(t, 3);
		f->output = rn(t, 5);
		f->pes_type = rn(t, 25);
		f->flags = rn(t, 2) ? DMX_IMMEDIATE_START : 0;
	} else if ((cmd == DMX_ADD_PID || cmd == DMX_REMOVE_PID) && chance(t, 70)) {
		*(uint16_t *)p = rand_pid(t);
	} else if (cmd == FE_DISEQC_SEND_MASTER_CMD && chance(t, 70)) {
		p[6] = (uint8_t)rn(t, 9);	/* msg_len */
	}
	if (chance(t, 10) && size > 1)	/* one byte short: into the guard */
		p++;
	return p;
}

static void node_ioctl(struct thr *t, struct nstate *ns, struct nslot *s)
{
	const struct nioc *ic = &node_ioctls[rn(t, ARRAY_SIZE(node_ioctls))];
	unsigned long cmd = ic->cmd;
	long value = 0;
	void *arg;
	int how = rn(t, 100), bad = 0, val = 0, blocking, r;
	size_t size;

	/* mostly the node's own commands */
	while (ic->node != N_NUM && ic->node != s->node && chance(t, 80)) {
		ic = &node_ioctls[rn(t, ARRAY_SIZE(node_ioctls))];
		cmd = ic->cmd;
	}
	if (how < 8)		/* another size */
		cmd = _IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), _IOC_NR(cmd),
			   chance(t, 50) ? rn(t, 64) : rn(t, 1 << 14));
	else if (how < 12)	/* another direction */
		cmd = _IOC(rn(t, 4), _IOC_TYPE(cmd), _IOC_NR(cmd), _IOC_SIZE(cmd));
	else if (how < 20)	/* any 'o' */
		cmd = _IOC(rn(t, 4), 'o', rn(t, 256), chance(t, 70) ? rn(t, 300) :
			   rn(t, 1 << 14));
	else if (how < 24)	/* any type */
		cmd = _IOC(rn(t, 4), rn(t, 256), rn(t, 256), rn(t, 1 << 14));
	else if (how < 27)
		cmd = (uint32_t)rnd(t);
	size = _IOC_SIZE(cmd);
	if (cmd == ic->cmd && by_value(cmd)) {
		val = 1;
		value = chance(t, 80) ? (long)rn(t, 4) : (long)rand_u32(t);
		if (cmd == DMX_SET_BUFFER_SIZE && chance(t, 70))
			value = chance(t, 50) ? 188 * (long)(1 + rn(t, 1000)) : (long)rnd(t);
	}
	if (val) {
		arg = NULL;
	} else if ((cmd == FE_SET_PROPERTY || cmd == FE_GET_PROPERTY) &&
		   chance(t, 90)) {
		arg = props_arg(t);
	} else if (chance(t, 12)) {
		arg = bad_ptr(t);
		bad = 1;
	} else if (chance(t, 5)) {
		val = 1;		/* a number where a pointer goes */
		value = (long)rnd(t);
		arg = NULL;
	} else {
		arg = node_arg(t, cmd, size);
	}
	/*
	 * vtunerc --cuse sees the O_NONBLOCK of the open only (FUSE passes
	 * no file flags with an ioctl): the timer whatever fcntl() set since
	 */
	blocking = cmd == FE_GET_EVENT;
	if (blocking)
		arm(t, ns);
	begin(t, ic->name);
	r = val ? ioctl(s->fd, cmd, value) : ioctl(s->fd, cmd, arg);
	end(t, r);
	if (blocking)
		disarm(ns);
	count(C_IOCTL);
	if (r == 0 && bad && cmd == ic->cmd && (_IOC_DIR(cmd) & _IOC_WRITE) &&
	    (arg == NULL || arg == (void *)1 || arg == KERNEL_PTR))
		anomaly("%s: %s(%p) succeeded", node_names[s->node], ic->name, arg);
}

static void node_read(struct thr *t, struct nstate *ns, struct nslot *s)
{
	size_t len = odd_size(t);
	void *buf;
	ssize_t r;
	int blocking = is_blocking(s->fd);

	switch (rn(t, 10)) {
	case 0:	 buf = bad_ptr(t); break;
	case 1:	 buf = ns->big + BIGBUF - (len / 2);	/* half in the guard */
		 break;
	default: buf = ns->big + BIGBUF - len; break;
	}
	if (blocking)
		arm(t, ns);
	begin(t, "read");
	r = read(s->fd, buf, len);
	end(t, (int)r);
	if (blocking)
		disarm(ns);
	count(C_READ);
	if (r > (ssize_t)len)
		anomaly("%s: read of %zu returned %zd", node_names[s->node], len, r);
}

static void node_write(struct thr *t, struct nstate *ns, struct nslot *s)
{
	size_t len;
	const void *p;
	ssize_t r;

	if (chance(t, 70)) {
		len = gen_ts(t, t->tsbuf, t->tsbuf_len);
		p = t->tsbuf;
	} else {
		len = odd_size(t);
		p = chance(t, 30) ? bad_ptr(t) : ns->big + BIGBUF - len;
	}
	begin(t, "write");
	r = write(s->fd, p, len);
	end(t, (int)r);
	count(C_WRITE);
	if (r > (ssize_t)len)
		anomaly("%s: write of %zu returned %zd", node_names[s->node], len, r);
}

static void node_poll(struct thr *t, struct nstate *ns)
{
	struct pollfd pfd[NSLOT];
	int n = 0, i, timeout, r;

	for (i = 0; i < NSLOT; i++) {
		if (ns->s[i].fd < 0 || chance(t, 40))
			continue;
		pfd[n].fd = ns->s[i].fd;
		pfd[n].events = chance(t, 70) ? POLLIN | POLLPRI : (short)rnd(t);
		pfd[n].revents = 0;
		n++;
	}
	timeout = chance(t, 80) ? (int)rn(t, 5) : -1;
	if (timeout < 0)
		arm(t, ns);
	begin(t, "poll");
	r = poll(pfd, n, timeout < 0 && !ns->have_timer ? 100 : timeout);
	end(t, r);
	if (timeout < 0)
		disarm(ns);
	count(C_POLL);
}

static void node_op(struct thr *t, struct nstate *ns)
{
	struct nslot *s = &ns->s[rn(t, NSLOT)];
	int op = rn(t, 100), fl;

	if (chance(t, 20)) {
		racy_props_stir(t);
		racy_stir(t);
	}

	if (s->fd < 0) {
		static const int acc[] = { O_RDONLY, O_WRONLY, O_RDWR, O_ACCMODE };
		int flags = (chance(t, 95) ? acc[rn(t, 3)] : acc[3]) |
			    (chance(t, 60) ? O_NONBLOCK : 0) | O_CLOEXEC;

		s->node = (int)rn(t, N_NUM);
		begin(t, "open");
		s->fd = open(ns->paths[s->node], flags);
		end(t, s->fd);
		count(C_OPEN);
		if (s->fd < 0 && errno == EBUSY)
			count(C_EBUSY);
		return;
	}
	if (op < 6) {
		begin(t, "close");
		close(s->fd);
		end(t, 0);
		count(C_CLOSE);
		s->fd = -1;
		return;
	}
	if (op < 8) {			/* a second descriptor of the file */
		struct nslot *d = &ns->s[rn(t, NSLOT)];

		if (d->fd < 0) {
			d->fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0);
			d->node = s->node;
		}
		return;
	}
	if (op < 12) {
		fl = fcntl(s->fd, F_GETFL);
		if (fl >= 0)
			fcntl(s->fd, F_SETFL, fl ^ O_NONBLOCK);
		return;
	}
	if (op < 55)
		node_ioctl(t, ns, s);
	else if (op < 75)
		node_read(t, ns, s);
	else if (op < 85)
		node_write(t, ns, s);
	else
		node_poll(t, ns);
}

static void *node_thread(void *arg)
{
	struct thr *t = arg;
	struct nstate ns;

	if (nstate_init(&ns) < 0)
		die_errno("node thread setup");
	for (uint64_t i = 0; i < o_iterations && !stop_all; i++)
		node_op(t, &ns);
	nstate_fini(&ns);
	t->running = 0;
	return NULL;
}

/*
 * The node processes: a spawner, forked before any thread, keeps o_procs
 * of them, each killed after 50-1500 ms (or ending by itself, its
 * descriptors left to the kernel) and replaced, until *proc_stop.  A
 * process that a SIGKILL does not end within --hang-timeout: *proc_hung.
 */
struct proc_shared {
	volatile int stop;
	volatile int hung;
	uint64_t counters[C_NUM];
};
static struct proc_shared *shared;
static pid_t spawner = -1;

static void node_child(uint64_t seed)
{
	struct thr t;
	struct nstate ns;
	uint64_t s = seed;

	prctl(PR_SET_PDEATHSIG, SIGKILL);	/* the spawner's end */
	install_alarm();
	memset(&t, 0, sizeof(t));
	t.name = "proc";
	t.rng = splitmix(&s) | 1;
	t.mem = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	t.tsbuf_len = 400 * 188;
	t.tsbuf = malloc(t.tsbuf_len);
	if (t.mem == MAP_FAILED || !t.tsbuf || nstate_init(&ns) < 0)
		_exit(1);
	t.guard = t.mem + 2 * PAGE;
	mprotect(t.guard, PAGE, PROT_NONE);
	/* 20 %: end by itself, its descriptors open */
	for (uint64_t i = 0, n = chance(&t, 20) ? rn(&t, 2000) : UINT64_MAX;
	     i < n && !shared->stop; i++)
		node_op(&t, &ns);
	_exit(0);
}

static void spawner_run(void)
{
	struct { pid_t pid; int64_t kill_at, killed_at; } p[MAX_NODES];
	uint64_t rng = o_seed * 0x9e3779b97f4a7c15ULL + 77, gen = 0;
	pid_t parent = getppid();
	unsigned int i;
	int st;

	signal(SIGALRM, SIG_IGN);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	memset(p, 0, sizeof(p));
	for (;;) {
		int64_t now = now_ms();
		int alive = 0;

		if (getppid() != parent)
			shared->stop = 1;
		for (i = 0; i < o_procs; i++) {
			if (p[i].pid > 0 && waitpid(p[i].pid, &st, WNOHANG) == p[i].pid)
				p[i].pid = 0;
			if (p[i].pid > 0) {
				alive++;
				if (!p[i].killed_at && (shared->stop || now >= p[i].kill_at)) {
					kill(p[i].pid, SIGKILL);
					p[i].killed_at = now;
					__atomic_fetch_add(&shared->counters[C_KILLED], 1,
							   __ATOMIC_RELAXED);
				} else if (p[i].killed_at &&
					   now - p[i].killed_at > (int64_t)o_hang_timeout * 1000) {
					fprintf(stderr, "%s: a node process killed %d s ago "
						"is still there (seed %" PRIu64 ")\n",
						progname, o_hang_timeout, o_seed);
					shared->hung = 1;
					_exit(4);
				}
				continue;
			}
			if (shared->stop)
				continue;
			gen++;
			p[i].killed_at = 0;
			p[i].kill_at = now + 50 + (int64_t)(splitmix(&rng) % 1450);
			p[i].pid = fork();
			if (p[i].pid == 0)
				node_child(o_seed * 1000003ULL + gen);
			if (p[i].pid > 0) {
				alive++;
				__atomic_fetch_add(&shared->counters[C_PROCS], 1,
						   __ATOMIC_RELAXED);
			}
		}
		if (shared->stop && !alive)
			_exit(0);
		usleep(10000);
	}
}

/* ---- answer thread ----------------------------------------------------- */

static void sleep_ms_interruptible(int ms)
{
	while (ms > 0 && !stop_all) {
		int d = ms > 50 ? 50 : ms;

		usleep(d * 1000);
		ms -= d;
	}
}

static void answer_one(struct thr *t, int fd)
{
	struct vtuner_message m;
	int r, how;

	memset(&m, 0, sizeof(m));
	begin(t, "GET_MESSAGE");
	r = ioctl(fd, VTUNER_GET_MESSAGE, &m);
	end(t, r);
	count(C_IOCTL);
	if (r < 0)
		return;
	count(C_MSG);
	if (m.type == MSG_SET_FRONTEND && chance(t, 70)) {
		struct vtuner_ext_tune et;

		begin(t, "EXT_GET_TUNE");
		r = ioctl(fd, VTUNER_EXT_GET_TUNE, &et);
		end(t, r);
		count(C_IOCTL);
	}
	if (m.type == MSG_PIDLIST) {
		if (chance(t, 70)) {
			struct vtuner_ext_pids p;

			begin(t, "EXT_GET_PIDS");
			r = ioctl(fd, VTUNER_EXT_GET_PIDS, &p);
			end(t, r);
			count(C_IOCTL);
		}
		if (chance(t, 90))
			return;		/* not to be answered */
	}
	switch (m.type) {
	case MSG_READ_STATUS:
		m.body.status = chance(t, 70) ? 0x1f : rand_u32(t);
		break;
	case MSG_READ_BER:
		m.body.ber = rand_u32(t);
		break;
	case MSG_READ_SIGNAL_STRENGTH:
		m.body.ss = (uint16_t)rnd(t);
		break;
	case MSG_READ_SNR:
		m.body.snr = (uint16_t)rnd(t);
		break;
	case MSG_READ_UCBLOCKS:
		m.body.ucb = rand_u32(t);
		break;
	}
	how = rn(t, 100);
	if (how < 10) {
		count(C_NEVER);
		return;
	}
	if (how < 25) {
		count(C_LATE);
		sleep_ms_interruptible(rn(t, 3000));
	} else if (how < 33) {
		count(C_MANGLED);
		if (chance(t, 50))
			m.type = rn(t, 20);
		else
			fill_random(t, &m.body, sizeof(m.body));
	}
	begin(t, "SET_RESPONSE");
	r = ioctl(fd, VTUNER_SET_RESPONSE, chance(t, 98) ? (void *)&m : bad_ptr(t));
	end(t, r);
	count(C_IOCTL);
	if (r == 0)
		count(C_ANSWER);
	if (how >= 95) {		/* twice */
		begin(t, "SET_RESPONSE again");
		r = ioctl(fd, VTUNER_SET_RESPONSE, &m);
		end(t, r);
		count(C_IOCTL);
	}
}

static void *answer_thread(void *arg)
{
	struct thr *t = arg;

	while (!stop_all) {
		int fd = ctl_fd, r;
		struct pollfd pfd;

		if (fd < 0) {
			usleep(2000);
			continue;
		}
		if (chance(t, 5)) {
			struct vtuner_ext_status s;

			memset(&s, 0, sizeof(s));
			s.status = chance(t, 50) ? 0x1f : 0;
			s.strength.len = 1;
			s.strength.stat[0].scale = FE_SCALE_DECIBEL;
			s.strength.stat[0].svalue = -40000;
			begin(t, "EXT_SET_STATUS");
			r = ioctl(fd, VTUNER_EXT_SET_STATUS, &s);
			end(t, r);
			count(C_IOCTL);
		}
		pfd.fd = fd;
		pfd.events = POLLIN | POLLPRI;
		pfd.revents = 0;
		begin(t, "poll ctl");
		r = poll(&pfd, 1, 50);
		end(t, r);
		count(C_POLL);
		if (r > 0 && (pfd.revents & (POLLIN | POLLPRI)) &&
		    (fcntl(fd, F_GETFL) & O_NONBLOCK))
			answer_one(t, fd);
		else if (r > 0)	/* an error, or a message on a blocking fd */
			usleep(2000);
	}
	t->running = 0;
	return NULL;
}

/* ---- watchdog / main --------------------------------------------------- */

static void on_usr1(int sig)
{
	(void)sig;
}

static struct thr threads[4 + MAX_NODES];
static int nthreads;

static int setup_thread(struct thr *t, const char *name, int index)
{
	uint64_t s = o_seed * 0x100000001b3ULL + (uint64_t)index;

	memset(t, 0, sizeof(*t));
	t->name = name;
	t->index = index;
	t->rng = splitmix(&s) | 1;
	t->mem = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->mem == MAP_FAILED)
		return -1;
	t->guard = t->mem + 2 * PAGE;
	if (mprotect(t->guard, PAGE, PROT_NONE) < 0)
		return -1;
	t->tsbuf_len = 400 * 188;
	t->tsbuf = malloc(t->tsbuf_len);
	return t->tsbuf ? 0 : -1;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: %s [options]\n"
"  -n, --iterations N    operations per worker thread (default 1000)\n"
"  -s, --seed S          PRNG seed (default 1)\n"
"  -d, --dev DEV         control device (default /dev/vtunerc0)\n"
"  -a, --adapter DIR     adapter directory (default /dev/dvb/adapter0)\n"
"      --threads LIST    subset of ctl,fe,dmx,answer,node (default the\n"
"                        first four)\n"
"      --nodes N         node threads (default 3, at most 8): random calls\n"
"                        on frontend0, demux0 and dvr0, without the\n"
"                        control device (a CUSE adapter's)\n"
"      --procs N         node processes (at most 8), each killed after\n"
"                        50-1500 ms and started again\n"
"      --duration SEC    stop after SEC seconds even if not done\n"
"      --hang-timeout SEC  give up (exit 4) when one operation blocks\n"
"                        longer (default 30)\n"
"      --trace           print every operation on stderr before it starts\n"
"      --op-stats        print each operation's count and times at the end\n"
"                        (of the threads, not the processes)\n"
"Exit: 0 done, 1 setup error, 2 usage, 3 anomalies, 4 hung operation.\n",
		progname);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "dev", required_argument, NULL, 'd' },
		{ "device", required_argument, NULL, 'd' },
		{ "adapter", required_argument, NULL, 'a' },
		{ "threads", required_argument, NULL, 'T' },
		{ "duration", required_argument, NULL, 'D' },
		{ "hang-timeout", required_argument, NULL, 'H' },
		{ "trace", no_argument, NULL, 't' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "procs", required_argument, NULL, 'P' },
		{ "op-stats", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct {
		const char *name;
		void *(*fn)(void *);
	} kinds[5] = {
		{ "ctl", ctl_thread }, { "fe", fe_thread }, { "dmx", dmx_thread },
		{ "answer", answer_thread }, { "node", node_thread },
	};
	struct sigaction sa;
	uint64_t v, total = 0;
	int64_t start, deadline = -1;
	int c, i, hung = 0;
	char *end_p;

	progname = "vt-fuzz";
	while ((c = getopt_long(argc, argv, "n:s:d:a:th", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
		case 's':
		case 'H':
		case 'N':
		case 'P':
			if (parse_u64(optarg, &v) < 0 ||
			    ((c == 'N' || c == 'P') && v > MAX_NODES)) {
				fprintf(stderr, "%s: bad number '%s'\n", progname, optarg);
				return 2;
			}
			if (c == 'n')
				o_iterations = v;
			else if (c == 's')
				o_seed = v;
			else if (c == 'N')
				o_nodes = (unsigned int)v;
			else if (c == 'P')
				o_procs = (unsigned int)v;
			else
				o_hang_timeout = v < 5 ? 5 : (int)v;
			break;
		case 'd': o_dev = optarg; break;
		case 'a': o_adapter = optarg; break;
		case 'T': {
			char *s = strdup(optarg), *tok, *save = NULL;

			o_threads = 0;
			for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				for (i = 0; i < 5; i++)
					if (!strcmp(tok, kinds[i].name))
						break;
				if (i == 5) {
					fprintf(stderr, "%s: --threads: unknown '%s'\n", progname, tok);
					return 2;
				}
				o_threads |= 1U << i;
			}
			free(s);
			break;
		}
		case 'D':
			o_duration = strtod(optarg, &end_p);
			if (*end_p || o_duration <= 0) {
				fprintf(stderr, "%s: bad time '%s'\n", progname, optarg);
				return 2;
			}
			break;
		case 't': o_trace = 1; break;
		case 'S': o_op_stats = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;	/* no SA_RESTART: interrupts syscalls */
	sigaction(SIGUSR1, &sa, NULL);
	install_alarm();
	signal(SIGPIPE, SIG_IGN);

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		die_errno("mmap");
	counters = shared->counters;
	start = now_ms();
	if (o_duration > 0)
		deadline = start + (int64_t)(o_duration * 1000);
	/* before any thread: the spawner forks */
	if (o_procs) {
		fflush(NULL);
		spawner = fork();
		if (spawner < 0)
			die_errno("fork");
		if (spawner == 0)
			spawner_run();
	}
	workers_left = !!(o_threads & 2) + !!(o_threads & 4);	/* fe, dmx */
	for (i = 0; i < 5; i++) {
		unsigned int k, n = i == 4 ? o_nodes : 1;

		if (!(o_threads & (1U << i)))
			continue;
		for (k = 0; k < n; k++) {
			struct thr *t = &threads[nthreads++];

			if (setup_thread(t, kinds[i].name, i + 8 * (int)k) < 0)
				die_errno("thread setup");
			t->running = 1;
			errno = pthread_create(&t->tid, NULL, kinds[i].fn, t);
			if (errno)
				die_errno("pthread_create");
		}
	}

	/* watchdog: until every worker (not the answer thread) is done */
	for (;;) {
		int busy = 0;
		int64_t now = now_ms();

		for (i = 0; i < nthreads; i++) {
			struct thr *t = &threads[i];
			int64_t s = __atomic_load_n(&t->op_start, __ATOMIC_ACQUIRE);

			if (t->running && strcmp(t->name, "answer"))
				busy = 1;
			if (!s || !t->running)
				continue;
			if (now - s > (int64_t)o_hang_timeout * 1000) {
				fprintf(stderr, "%s: thread %s hung in %s for %d s (seed %" PRIu64 ")\n",
					progname, t->name, t->op, o_hang_timeout, o_seed);
				hung = 1;
			} else if (now - s > 4000) {
				pthread_kill(t->tid, SIGUSR1);
			}
		}
		if (hung || shared->hung) {
			fflush(NULL);
			_exit(4);
		}
		if (deadline >= 0 && now >= deadline)
			stop_all = 1;
		/* the node processes alone: until the deadline */
		if (!busy && (!o_procs || stop_all || deadline < 0))
			break;
		usleep(100000);
	}
	stop_all = 1;
	shared->stop = 1;
	if (spawner > 0) {
		int st;

		if (waitpid(spawner, &st, 0) == spawner && WIFEXITED(st) &&
		    WEXITSTATUS(st) == 4) {
			fflush(NULL);
			_exit(4);
		}
	}
	for (i = 0; i < nthreads; i++) {
		/* the answer thread may sleep in a late answer: wake it */
		while (__atomic_load_n(&threads[i].running, __ATOMIC_ACQUIRE)) {
			int64_t s = __atomic_load_n(&threads[i].op_start, __ATOMIC_ACQUIRE);

			if (s && now_ms() - s > (int64_t)o_hang_timeout * 1000) {
				fprintf(stderr, "%s: thread %s hung in %s for %d s (seed %" PRIu64 ")\n",
					progname, threads[i].name, threads[i].op,
					o_hang_timeout, o_seed);
				fflush(NULL);
				_exit(4);
			}
			if (s && now_ms() - s > 4000)
				pthread_kill(threads[i].tid, SIGUSR1);
			usleep(50000);
		}
		pthread_join(threads[i].tid, NULL);
	}

	for (i = C_IOCTL; i <= C_READ; i++)
		total += counters[i];
	printf("%s: %" PRIu64 " operations (", progname, total);
	for (i = 0; i < C_NUM; i++)
		printf("%s%s %" PRIu64, i ? ", " : "", counter_names[i], counters[i]);
	printf("), %.1f s, seed %" PRIu64 "\n", (now_ms() - start) / 1000.0, o_seed);
	if (o_op_stats) {
		qsort(opstats, ARRAY_SIZE(opstats), sizeof(opstats[0]), opstat_cmp);
		for (i = 0; i < (int)ARRAY_SIZE(opstats) && opstats[i].name; i++)
			printf("op %-28s n=%-7" PRIu64 " total_ms=%-7" PRIu64
			       " avg_ms=%-8.2f max_ms=%.1f\n", opstats[i].name,
			       opstats[i].n, opstats[i].total_us / 1000,
			       opstats[i].total_us / 1000.0 / (double)opstats[i].n,
			       opstats[i].max_us / 1000.0);
	}
	fflush(stdout);
	return counters[C_ANOMALY] ? 3 : 0;
}
