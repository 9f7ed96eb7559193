/*
 * vt-classic - minimal vtuner client written against the classic (2011)
 * ABI only.  It is built with the classic part of vtuner.h alone (see
 * tuner.mk) and also as a 32-bit program (vt-classic32), to check the
 * compat path of the driver.
 *
 *   SET_NAME, SET_TYPE, [SET_NUM_MODES + SET_MODES], SET_FE_INFO,
 *   then answer every message for --exit-after seconds (default 10),
 *   logging one line per message in the format of vt-testtuner.
 *
 * Self-contained on purpose: it shows how an old client uses the ABI.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "vtuner.h"

#define FE_ALL_LOCK (FE_HAS_SIGNAL | FE_HAS_CARRIER | FE_HAS_VITERBI | \
		     FE_HAS_SYNC | FE_HAS_LOCK)

static const char *progname = "vt-classic";
static const char *dev = "/dev/vtunerc0";
static FILE *logfp;
static int verbose;
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void fail(int err, const char *what) __attribute__((noreturn));
static void fail(int err, const char *what)
{
	if (err)
		fprintf(stderr, "%s: %s: %s: %s\n", progname, dev, what, strerror(err));
	else
		fprintf(stderr, "%s: %s: %s\n", progname, dev, what);
	exit(1);
}

static void logline(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logline(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (logfp) {
		fprintf(logfp, "%s\n", buf);
		fflush(logfp);
	}
	if (verbose)
		fprintf(stderr, "%s: %s\n", progname, buf);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* ---- ABI self check ---------------------------------------------------- */

static const struct {
	const char *name;
	unsigned long nr;
} ioctls[] = {
#define I(x) { #x, (unsigned long)(x) }
	I(VTUNER_GET_MESSAGE), I(VTUNER_SET_RESPONSE), I(VTUNER_SET_NAME),
	I(VTUNER_SET_TYPE), I(VTUNER_SET_HAS_OUTPUTS), I(VTUNER_SET_FE_INFO),
	I(VTUNER_SET_NUM_MODES), I(VTUNER_SET_MODES),
#undef I
};

/* Returns the number of problems found; prints key=value lines if out. */
static int abi_check(FILE *out)
{
	int bad = 0;
	size_t i, want_len = sizeof(void *) == 8 ? 80 : 76;

	if (out) {
		fprintf(out, "bits=%zu\n", sizeof(void *) * 8);
		fprintf(out, "sizeof_vtuner_message=%zu\n", sizeof(struct vtuner_message));
		fprintf(out, "offsetof_body=%zu\n", offsetof(struct vtuner_message, body));
		fprintf(out, "offsetof_fe_params_u=%zu\n",
			offsetof(struct vtuner_message, body.fe_params.u));
		fprintf(out, "offsetof_pidlist=%zu\n",
			offsetof(struct vtuner_message, body.pidlist));
		fprintf(out, "sizeof_dvb_frontend_info=%zu\n", sizeof(struct dvb_frontend_info));
		for (i = 0; i < sizeof(ioctls) / sizeof(ioctls[0]); i++)
			fprintf(out, "%s=0x%08lx\n", ioctls[i].name, ioctls[i].nr);
	}
	if (sizeof(struct vtuner_message) != want_len) {
		fprintf(stderr, "%s: sizeof(struct vtuner_message) is %zu, expected %zu\n",
			progname, sizeof(struct vtuner_message), want_len);
		bad++;
	}
	if (offsetof(struct vtuner_message, body) != 4 ||
	    offsetof(struct vtuner_message, body.fe_params.u) != 12) {
		fprintf(stderr, "%s: unexpected struct vtuner_message layout\n", progname);
		bad++;
	}
	for (i = 0; i < sizeof(ioctls) / sizeof(ioctls[0]); i++) {
		/* the classic numbers carry the size of a pointer (or int) */
		size_t want = ioctls[i].nr == (unsigned long)VTUNER_SET_NUM_MODES ?
			      sizeof(int) : sizeof(void *);

		if (_IOC_TYPE(ioctls[i].nr) != VTUNER_MAJOR ||
		    _IOC_NR(ioctls[i].nr) != i + 1 || _IOC_SIZE(ioctls[i].nr) != want) {
			fprintf(stderr, "%s: %s=0x%08lx has an unexpected encoding\n",
				progname, ioctls[i].name, ioctls[i].nr);
			bad++;
		}
	}
	return bad;
}

/* ---- tuning ------------------------------------------------------------ */

enum kind { K_SAT, K_CABLE, K_TER, K_ATSC };

static enum kind type_kind(const char *t)
{
	if (!strncmp(t, "DVB-S", 5))
		return K_SAT;
	if (!strncmp(t, "DVB-C", 5))
		return K_CABLE;
	if (!strcmp(t, "ATSC"))
		return K_ATSC;
	return K_TER;
}

static int fill_info(struct dvb_frontend_info *fi, const char *name, enum kind k)
{
	memset(fi, 0, sizeof(*fi));
	snprintf(fi->name, sizeof(fi->name), "%s", name);
	fi->caps = FE_CAN_INVERSION_AUTO | FE_CAN_FEC_AUTO | FE_CAN_QPSK |
		   FE_CAN_QAM_AUTO | FE_CAN_TRANSMISSION_MODE_AUTO |
		   FE_CAN_BANDWIDTH_AUTO | FE_CAN_GUARD_INTERVAL_AUTO |
		   FE_CAN_HIERARCHY_AUTO | FE_CAN_2G_MODULATION;
	switch (k) {
	case K_SAT:
		fi->type = FE_QPSK;
		fi->frequency_min = 950000;	/* kHz */
		fi->frequency_max = 12750000;
		fi->frequency_stepsize = 125;
		fi->symbol_rate_min = 1000000;
		fi->symbol_rate_max = 45000000;
		break;
	case K_CABLE:
		fi->type = FE_QAM;
		fi->frequency_min = 42000000;	/* Hz */
		fi->frequency_max = 1002000000;
		fi->frequency_stepsize = 62500;
		fi->symbol_rate_min = 870000;
		fi->symbol_rate_max = 9000000;
		break;
	default:
		fi->type = k == K_ATSC ? FE_ATSC : FE_OFDM;
		fi->frequency_min = 42000000;	/* Hz */
		fi->frequency_max = 1002000000;
		fi->frequency_stepsize = 166667;
		break;
	}
	return 0;
}

/* DVB-S2 packing: code 1..9 -> enum fe_code_rate */
static const unsigned int s2_fec[10] = {
	FEC_AUTO, FEC_1_2, FEC_2_3, FEC_3_4, FEC_5_6, FEC_7_8, FEC_8_9,
	FEC_3_5, FEC_4_5, FEC_9_10,
};

static void log_set_frontend(const struct vtuner_message *m, enum kind k)
{
	const __typeof__(m->body.fe_params) *fe = &m->body.fe_params;
	unsigned int inv = fe->inversion;

	switch (k) {
	case K_SAT:
		if (fe->u.qpsk.fec_inner >= VTUNER_S2_FEC_BASE) {
			unsigned int code = fe->u.qpsk.fec_inner - VTUNER_S2_FEC_BASE;
			unsigned int mod = QPSK;

			if (code > 9) {
				code -= VTUNER_S2_FEC_8PSK;
				mod = PSK_8;
			}
			logline("SET_FRONTEND delsys=%d freq=%u sr=%u fec=%u mod=%u "
				"rolloff=%d pilot=%d inversion=%u raw.frequency=%u "
				"raw.inversion=0x%02x raw.symbol_rate=%u raw.fec_inner=%u",
				SYS_DVBS2, fe->frequency, fe->u.qpsk.symbol_rate,
				code < 10 ? s2_fec[code] : FEC_AUTO, mod,
				inv & VTUNER_S2_ROLLOFF_20 ? ROLLOFF_20 :
				inv & VTUNER_S2_ROLLOFF_25 ? ROLLOFF_25 : ROLLOFF_35,
				inv & VTUNER_S2_PILOT_ON ? PILOT_ON :
				inv & VTUNER_S2_PILOT_AUTO ? PILOT_AUTO : PILOT_OFF,
				inv & 3, fe->frequency, inv, fe->u.qpsk.symbol_rate,
				fe->u.qpsk.fec_inner);
		} else {
			logline("SET_FRONTEND delsys=%d freq=%u sr=%u fec=%u mod=%d "
				"rolloff=%d inversion=%u raw.frequency=%u raw.inversion=0x%02x "
				"raw.symbol_rate=%u raw.fec_inner=%u",
				SYS_DVBS, fe->frequency, fe->u.qpsk.symbol_rate,
				fe->u.qpsk.fec_inner, QPSK, ROLLOFF_35, inv, fe->frequency,
				inv, fe->u.qpsk.symbol_rate, fe->u.qpsk.fec_inner);
		}
		break;
	case K_CABLE:
		logline("SET_FRONTEND delsys=%d freq=%u sr=%u fec=%u mod=%u inversion=%u "
			"raw.frequency=%u raw.inversion=0x%02x raw.symbol_rate=%u "
			"raw.fec_inner=%u raw.modulation=%u",
			SYS_DVBC_ANNEX_A, fe->frequency, fe->u.qam.symbol_rate,
			fe->u.qam.fec_inner, fe->u.qam.modulation, inv, fe->frequency,
			inv, fe->u.qam.symbol_rate, fe->u.qam.fec_inner,
			fe->u.qam.modulation);
		break;
	case K_ATSC:
		logline("SET_FRONTEND delsys=%d freq=%u mod=%u inversion=%u "
			"raw.frequency=%u raw.inversion=0x%02x raw.modulation=%u",
			SYS_ATSC, fe->frequency, fe->u.vsb.modulation, inv,
			fe->frequency, inv, fe->u.vsb.modulation);
		break;
	case K_TER:
		logline("SET_FRONTEND delsys=%d freq=%u mod=%u inversion=%u "
			"raw.frequency=%u raw.inversion=0x%02x raw.bandwidth=%u "
			"raw.code_rate_HP=%u raw.code_rate_LP=%u raw.constellation=%u "
			"raw.transmission_mode=%u raw.guard_interval=%u "
			"raw.hierarchy_information=%u",
			SYS_DVBT, fe->frequency, fe->u.ofdm.constellation, inv,
			fe->frequency, inv, fe->u.ofdm.bandwidth,
			fe->u.ofdm.code_rate_HP, fe->u.ofdm.code_rate_LP,
			fe->u.ofdm.constellation, fe->u.ofdm.transmission_mode,
			fe->u.ofdm.guard_interval, fe->u.ofdm.hierarchy_information);
		break;
	}
}

static void set_modes(int fd, char (*modes)[VTUNER_TYPE_LEN], int nmodes)
{
	if (!nmodes)
		return;
	if (ioctl(fd, VTUNER_SET_NUM_MODES, nmodes) < 0)
		fail(errno, "VTUNER_SET_NUM_MODES");
	if (ioctl(fd, VTUNER_SET_MODES, modes) < 0)
		fail(errno, "VTUNER_SET_MODES");
}

static int cmp_u16(const void *a, const void *b)
{
	return (int)*(const __u16 *)a - (int)*(const __u16 *)b;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: %s [options]\n"
"  -d, --device DEV     control device (default /dev/vtunerc0)\n"
"  -n, --name STR       frontend name (default \"vtuner classic client\")\n"
"  -T, --type TYPE      SET_TYPE string: DVB-S DVB-S2 DVB-T DVB-T2 DVB-C ATSC\n"
"                       ISDB-T (default DVB-S2)\n"
"  -m, --modes LIST     SET_NUM_MODES + SET_MODES, e.g. DVB-S2,DVB-T\n"
"      --no-fe-info     do not call SET_FE_INFO\n"
"      --modes-after-info  SET_MODES after SET_FE_INFO (default: before)\n"
"  -f, --freq N         report a lock only at this frequency (+-tolerance)\n"
"      --tolerance N    default 3000 (kHz) satellite, 1000000 (Hz) otherwise\n"
"  -l, --log FILE       append one line per message ('-': stdout)\n"
"      --exit-after SEC answer messages for SEC seconds (default 10)\n"
"      --exit-after-msgs N  exit after N messages\n"
"      --ready-file PATH  create PATH once configured\n"
"      --print-abi      print struct sizes and ioctl numbers and exit\n"
"  -v, --verbose        log lines also on stderr\n"
"Exit: 0 normal end, 1 error (ABI check, open, ioctl), 2 usage.\n",
		progname);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "dev", required_argument, NULL, 'd' },
		{ "name", required_argument, NULL, 'n' },
		{ "type", required_argument, NULL, 'T' },
		{ "modes", required_argument, NULL, 'm' },
		{ "no-fe-info", no_argument, NULL, 'I' },
		{ "modes-after-info", no_argument, NULL, 'M' },
		{ "freq", required_argument, NULL, 'f' },
		{ "tolerance", required_argument, NULL, 'o' },
		{ "log", required_argument, NULL, 'l' },
		{ "exit-after", required_argument, NULL, 'x' },
		{ "exit-after-msgs", required_argument, NULL, 'X' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "print-abi", no_argument, NULL, 'P' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = "vtuner classic client", *type = "DVB-S2";
	const char *modes_arg = NULL, *log_file = NULL, *ready = NULL;
	char modes[VTUNER_MAX_MODES][VTUNER_TYPE_LEN];
	unsigned long freq = 0, tol = 0, max_msgs = 0, nmsgs = 0;
	double exit_after = 10;
	int no_info = 0, modes_last = 0, nmodes = 0, c, fd, tuned = 0, locked = 0;
	unsigned int tone = 255, voltage = 255;
	struct vtuner_message last_fe;
	struct sigaction sa;
	enum kind kind;
	long deadline;
	char *end;

	while ((c = getopt_long(argc, argv, "d:n:T:m:f:l:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dev = optarg; break;
		case 'n': name = optarg; break;
		case 'T': type = optarg; break;
		case 'm': modes_arg = optarg; break;
		case 'I': no_info = 1; break;
		case 'M': modes_last = 1; break;
		case 'f':
		case 'o':
		case 'X': {
			unsigned long v = strtoul(optarg, &end, 0);

			if (*end || !*optarg) {
				fprintf(stderr, "%s: bad number '%s'\n", progname, optarg);
				return 2;
			}
			if (c == 'f')
				freq = v;
			else if (c == 'o')
				tol = v;
			else
				max_msgs = v;
			break;
		}
		case 'l': log_file = optarg; break;
		case 'x':
			exit_after = strtod(optarg, &end);
			if (*end || exit_after <= 0) {
				fprintf(stderr, "%s: bad time '%s'\n", progname, optarg);
				return 2;
			}
			break;
		case 'r': ready = optarg; break;
		case 'P': return abi_check(stdout) ? 1 : 0;
		case 'v': verbose = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (strlen(type) >= VTUNER_TYPE_LEN || strlen(name) >= VTUNER_NAME_LEN) {
		fprintf(stderr, "%s: --type or --name too long\n", progname);
		return 2;
	}
	memset(modes, 0, sizeof(modes));
	if (modes_arg) {
		char *s = strdup(modes_arg), *tok, *save = NULL;

		for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (nmodes >= VTUNER_MAX_MODES || strlen(tok) >= VTUNER_TYPE_LEN) {
				fprintf(stderr, "%s: --modes: too many or too long\n", progname);
				return 2;
			}
			snprintf(modes[nmodes++], VTUNER_TYPE_LEN, "%s", tok);
		}
		free(s);
	}
	if (abi_check(NULL))
		return 1;
	if (verbose)
		abi_check(stderr);
	kind = type_kind(type);
	if (!tol)
		tol = kind == K_SAT ? 3000 : 1000000;

	if (log_file) {
		logfp = strcmp(log_file, "-") ? fopen(log_file, "a") : stdout;
		if (!logfp) {
			fprintf(stderr, "%s: %s: open: %s\n", progname, log_file, strerror(errno));
			return 1;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	fd = open(dev, O_RDWR | O_NONBLOCK);
	if (fd < 0)
		fail(errno, "open");
	if (ioctl(fd, VTUNER_SET_NAME, name) < 0)
		fail(errno, "VTUNER_SET_NAME");
	if (ioctl(fd, VTUNER_SET_TYPE, type) < 0)
		fail(errno, "VTUNER_SET_TYPE");
	/* SET_MODES resets the limits to defaults: SET_FE_INFO after it,
	 * unless --modes-after-info asks for the other order */
	if (!modes_last)
		set_modes(fd, modes, nmodes);
	if (!no_info) {
		struct dvb_frontend_info fi;

		fill_info(&fi, name, kind);
		if (ioctl(fd, VTUNER_SET_FE_INFO, &fi) < 0)
			fail(errno, "VTUNER_SET_FE_INFO");
	}
	if (modes_last)
		set_modes(fd, modes, nmodes);
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f)) {
			fprintf(stderr, "%s: %s: %s\n", progname, ready, strerror(errno));
			return 1;
		}
	}

	memset(&last_fe, 0, sizeof(last_fe));
	deadline = now_ms() + (long)(exit_after * 1000);
	while (!stop_signal && (!max_msgs || nmsgs < max_msgs)) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLPRI };
		struct vtuner_message m;
		long left = deadline - now_ms();
		int i, n;

		if (left <= 0)
			break;
		n = poll(&pfd, 1, left > 500 ? 500 : (int)left);
		if (n < 0 && errno != EINTR)
			fail(errno, "poll");
		if (n <= 0)
			continue;
		if (pfd.revents & POLLNVAL)
			fail(0, "poll: POLLNVAL");
		if (!(pfd.revents & (POLLIN | POLLPRI)))
			fail(0, "poll: error/hang-up");
		memset(&m, 0, sizeof(m));
		if (ioctl(fd, VTUNER_GET_MESSAGE, &m) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			fail(errno, "VTUNER_GET_MESSAGE");
		}
		nmsgs++;
		switch (m.type) {
		case MSG_SET_FRONTEND: {
			unsigned long f = m.body.fe_params.frequency;

			log_set_frontend(&m, kind);
			last_fe = m;
			tuned = 1;
			locked = !freq || (f > freq ? f - freq : freq - f) <= tol;
			break;
		}
		case MSG_GET_FRONTEND:
			logline("GET_FRONTEND");
			if (tuned)
				m.body.fe_params = last_fe.body.fe_params;
			break;
		case MSG_READ_STATUS:
			logline("READ_STATUS");
			m.body.status = tuned && locked ? FE_ALL_LOCK : 0;
			break;
		case MSG_READ_BER:
			logline("READ_BER");
			m.body.ber = tuned && locked ? 12 : 0;
			break;
		case MSG_READ_SIGNAL_STRENGTH:
			logline("READ_SIGNAL_STRENGTH");
			m.body.ss = tuned && locked ? 0xc000 : 0;
			break;
		case MSG_READ_SNR:
			logline("READ_SNR");
			m.body.snr = tuned && locked ? 0x7b00 : 0;
			break;
		case MSG_READ_UCBLOCKS:
			logline("READ_UCBLOCKS");
			m.body.ucb = tuned && locked ? 1 : 0;
			break;
		case MSG_SET_TONE:
			tone = m.body.tone;
			logline("TONE %u", tone);
			break;
		case MSG_SET_VOLTAGE:
			voltage = m.body.voltage;
			logline("VOLTAGE %u", voltage);
			break;
		case MSG_ENABLE_HIGH_VOLTAGE:
			logline("HIGHVOLTAGE %u", m.body.voltage);
			break;
		case MSG_SEND_DISEQC_MSG: {
			char b[64] = "DISEQC";
			size_t l = strlen(b);

			for (i = 0; i < m.body.diseqc_master_cmd.msg_len && i < 6; i++)
				l += snprintf(b + l, sizeof(b) - l, " %02x",
					      m.body.diseqc_master_cmd.msg[i]);
			logline("%s", b);
			break;
		}
		case MSG_SEND_DISEQC_BURST:
			logline("BURST %u", m.body.burst);
			break;
		case MSG_PIDLIST: {
			__u16 p[VTUNER_CLASSIC_PIDS] = { 0 };
			char b[VTUNER_CLASSIC_PIDS * 6 + 16] = "PIDLIST";
			size_t l = strlen(b);
			int np = 0;

			for (i = 0; i < VTUNER_CLASSIC_PIDS; i++)
				if (m.body.pidlist[i] != VTUNER_PID_NONE)
					p[np++] = m.body.pidlist[i];
			qsort(p, np, sizeof(p[0]), cmp_u16);
			for (i = 0; i < np; i++)
				l += snprintf(b + l, sizeof(b) - l, " %u", p[i]);
			logline("%s", b);
			continue;	/* never answered */
		}
		case MSG_TYPE_CHANGED:
			logline("TYPE_CHANGED %u", m.body.type_changed);
			switch (m.body.type_changed) {
			case VT_S: case VT_S2: kind = K_SAT; break;
			case VT_C: kind = K_CABLE; break;
			case VT_T: kind = K_TER; break;
			}
			break;
		case MSG_SET_PROPERTY:
			logline("SET_PROPERTY cmd=%u data=%u", m.body.prop.cmd, m.body.prop.u.data);
			break;
		case MSG_GET_PROPERTY:
			logline("GET_PROPERTY cmd=%u", m.body.prop.cmd);
			break;
		default:
			logline("MSG type=%d", m.type);
			break;
		}
		if (ioctl(fd, VTUNER_SET_RESPONSE, &m) < 0)
			fprintf(stderr, "%s: %s: VTUNER_SET_RESPONSE (type %d): %s\n",
				progname, dev, m.type, strerror(errno));
	}
	if (stop_signal)
		logline("EXIT signal=%d msgs=%lu", (int)stop_signal, nmsgs);
	else
		logline("EXIT msgs=%lu", nmsgs);
	close(fd);
	return 0;
}
