// SPDX-License-Identifier: GPL-2.0
/*
 * vtunerd-probe - a small VTP client for tests and debugging: connects to
 * vtunerd, lists its tuners, opens one, sends SEC commands and a tune,
 * sets PIDs and writes the TS it receives to a file for some seconds.
 *
 *   vtunerd-probe --server 127.0.0.1:5911 --list
 *   vtunerd-probe --tuner 0 --voltage 13 --tone off \
 *       --tune 'DELIVERY_SYSTEM=DVBS2 FREQUENCY=1187500 SYMBOL_RATE=27500000' \
 *       --pids 0,17,0x100 --seconds 5 --out f.ts
 *
 * Exit status: 0 success (with --tune: lock seen, and TS received if PIDs
 * were set), 1 failure, 2 usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/frontend.h>

#include "common/clock.h"
#include "common/dvb.h"
#include "proto/vtp.h"
#include "proto/vtp_io.h"

#define PROG "vtunerd-probe"

struct conn {
	int fd;
	struct vtp_reader *rd;
	const char *name;
};

static struct vtp_msg *msg;
static uint32_t next_reqid = 1;
static int verbose;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}
/* latency samples, ns */
struct lat {
	uint64_t *v;
	size_t n, cap;
};

static void lat_add(struct lat *l, uint64_t ns)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v) {
			fprintf(stderr, "vtunerd-probe: out of memory\n");
			exit(1);
		}
	}
	l->v[l->n++] = ns;
}

/* "WHAT: N, p50 X ms, p99 Y ms, max Z ms" */
static void lat_print(const char *what, struct lat *l)
{
	if (!l->n)
		return;
	qsort(l->v, l->n, sizeof(*l->v), cmp_u64);
	printf("%s: %zu, p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", what, l->n,
	       l->v[l->n / 2] / 1e6, l->v[l->n * 99 / 100] / 1e6,
	       l->v[l->n - 1] / 1e6);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

static uint32_t tune_seq;
static uint32_t last_status;
static bool seen_lock;
static bool status_seen;

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
	exit(2);
}

static int dial(const char *spec)
{
	char host[256], *port;
	struct addrinfo hints, *res, *ai;
	int fd = -1, err, one = 1;

	if (spec[0] == '[') {
		snprintf(host, sizeof(host), "%s", spec + 1);
		port = strstr(host, "]:");
		if (!port)
			usage_error("--server: '%s': expected HOST:PORT", spec);
		*port = 0;
		port += 2;
	} else {
		snprintf(host, sizeof(host), "%s", spec);
		port = strrchr(host, ':');
		if (!port)
			usage_error("--server: '%s': expected HOST:PORT", spec);
		*port++ = 0;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	err = getaddrinfo(host, port, &hints, &res);
	if (err)
		die("%s: %s", spec, gai_strerror(err));
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
		errno = err;
	}
	freeaddrinfo(res);
	if (fd < 0)
		die("connect %s: %s", spec, strerror(errno));
	/*
	 * As vtunerc: a request goes out at once, not after the ACK of the
	 * previous one (Nagle), which added up to a round trip to the
	 * timed round trips over a delayed link.
	 */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static void send_all(struct conn *c, const uint8_t *buf, int n)
{
	ssize_t w;

	if (n < 0)
		die("encoding: %s", strerror(-n));
	while (n > 0) {
		w = write(c->fd, buf, (size_t)n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			die("%s: write: %s", c->name, strerror(errno));
		buf += w;
		n -= (int)w;
	}
}

/* Next frame of c, waiting at most timeout_ms; false on timeout. */
static bool next_frame(struct conn *c, int timeout_ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	ssize_t n;
	int r;

	for (;;) {
		r = vtp_reader_next(c->rd, msg);
		if (r > 0)
			return true;
		if (r == -ENOTSUP || r == -EPROTO) {
			fprintf(stderr, "%s: bad frame %s dropped (%s)\n",
				c->name, vtp_type_name(msg->hdr.type),
				strerror(-r));
			continue;
		}
		if (r < 0)
			die("%s: stream broken: %s", c->name, strerror(-r));
		r = poll(&p, 1, timeout_ms);
		if (r == 0)
			return false;
		if (r < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		n = vtp_reader_fill(c->rd, c->fd);
		if (n == 0)
			die("%s: connection closed by the server", c->name);
		if (n < 0 && n != -EINTR)
			die("%s: read: %s", c->name, strerror((int)-n));
	}
}

static void print_stat(const char *name, const struct vtp_stats *s)
{
	if (!s->len || s->stat[0].scale == FE_SCALE_NOT_AVAILABLE)
		return;
	if (s->stat[0].scale == FE_SCALE_DECIBEL)
		printf(" %s %.2f dB", name, s->stat[0].svalue / 1000.0);
	else
		printf(" %s %llu", name, (unsigned long long)s->stat[0].uvalue);
}

static void on_status(const struct vtp_status *st)
{
	bool lock = st->status & FE_HAS_LOCK;

	if (st->seq != tune_seq)
		return;
	if (lock)
		seen_lock = true;
	if (status_seen && st->status == last_status && verbose < 1)
		return;
	status_seen = true;
	last_status = st->status;
	printf("status seq %u: 0x%02x%s", st->seq, st->status,
	       lock ? " LOCK" : "");
	print_stat("strength", &st->stats[0]);
	print_stat("cnr", &st->stats[1]);
	print_stat("post_bits", &st->stats[5]);
	printf(" signal %u snr %u\n", st->signal, st->snr);
	fflush(stdout);
}

/* Send a request on c and wait for its reply (handling pushes meanwhile). */
static void request(struct conn *c, const uint8_t *buf, int n, uint32_t reqid,
		    uint16_t want, const char *what)
{
	uint64_t deadline = vt_now_ns() + 10000000000ull;

	send_all(c, buf, n);
	while (vt_now_ns() < deadline) {
		if (!next_frame(c, 200))
			continue;
		if (msg->hdr.type == VTP_STATUS) {
			on_status(&msg->u.status);
			continue;
		}
		if (msg->hdr.reqid != reqid)
			continue;
		if (msg->hdr.type == VTP_ERROR)
			die("%s: server error %u (%s): %s", what,
			    msg->u.error.err, strerror((int)msg->u.error.err),
			    msg->u.error.msg);
		if (msg->hdr.type != want)
			die("%s: unexpected reply %s", what,
			    vtp_type_name(msg->hdr.type));
		return;
	}
	die("%s: no reply within 10 s", what);
}

static uint32_t reqid(void)
{
	return next_reqid++;
}

/* ---- tune specification ------------------------------------------------- */

struct name_val {
	const char *name;
	uint32_t val;
};

static const struct name_val prop_names[] = {
	{ "DELIVERY_SYSTEM", DTV_DELIVERY_SYSTEM },
	{ "FREQUENCY", DTV_FREQUENCY },
	{ "MODULATION", DTV_MODULATION },
	{ "BANDWIDTH_HZ", DTV_BANDWIDTH_HZ },
	{ "INVERSION", DTV_INVERSION },
	{ "SYMBOL_RATE", DTV_SYMBOL_RATE },
	{ "INNER_FEC", DTV_INNER_FEC },
	{ "PILOT", DTV_PILOT },
	{ "ROLLOFF", DTV_ROLLOFF },
	{ "STREAM_ID", DTV_STREAM_ID },
	{ "CODE_RATE_HP", DTV_CODE_RATE_HP },
	{ "CODE_RATE_LP", DTV_CODE_RATE_LP },
	{ "GUARD_INTERVAL", DTV_GUARD_INTERVAL },
	{ "TRANSMISSION_MODE", DTV_TRANSMISSION_MODE },
	{ "HIERARCHY", DTV_HIERARCHY },
	{ NULL, 0 }
};

static const struct name_val value_names[] = {
	{ "QPSK", QPSK }, { "8PSK", PSK_8 }, { "PSK_8", PSK_8 },
	{ "16APSK", APSK_16 }, { "APSK_16", APSK_16 }, { "32APSK", APSK_32 },
	{ "APSK_32", APSK_32 }, { "QAM16", QAM_16 }, { "QAM_16", QAM_16 },
	{ "QAM32", QAM_32 }, { "QAM_32", QAM_32 }, { "QAM64", QAM_64 },
	{ "QAM_64", QAM_64 }, { "QAM128", QAM_128 }, { "QAM_128", QAM_128 },
	{ "QAM256", QAM_256 }, { "QAM_256", QAM_256 },
	{ "QAM_AUTO", QAM_AUTO },
	{ "1/2", FEC_1_2 }, { "2/3", FEC_2_3 }, { "3/4", FEC_3_4 },
	{ "3/5", FEC_3_5 }, { "4/5", FEC_4_5 }, { "5/6", FEC_5_6 },
	{ "6/7", FEC_6_7 }, { "7/8", FEC_7_8 }, { "8/9", FEC_8_9 },
	{ "9/10", FEC_9_10 }, { "FEC_AUTO", FEC_AUTO },
	{ "ROLLOFF_35", ROLLOFF_35 }, { "ROLLOFF_25", ROLLOFF_25 },
	{ "ROLLOFF_20", ROLLOFF_20 }, { "ROLLOFF_AUTO", ROLLOFF_AUTO },
	{ "AUTO", 0xffffffffu },	/* context dependent, below */
	{ NULL, 0 }
};

static uint32_t auto_value(uint32_t cmd)
{
	switch (cmd) {
	case DTV_MODULATION: return QAM_AUTO;
	case DTV_INNER_FEC: case DTV_CODE_RATE_HP: case DTV_CODE_RATE_LP:
		return FEC_AUTO;
	case DTV_ROLLOFF: return ROLLOFF_AUTO;
	case DTV_PILOT: return PILOT_AUTO;
	case DTV_INVERSION: return INVERSION_AUTO;
	case DTV_GUARD_INTERVAL: return GUARD_INTERVAL_AUTO;
	case DTV_TRANSMISSION_MODE: return TRANSMISSION_MODE_AUTO;
	case DTV_HIERARCHY: return HIERARCHY_AUTO;
	case DTV_STREAM_ID: return NO_STREAM_ID_FILTER;
	default: return 0;
	}
}

static bool lookup(const struct name_val *t, const char *name, uint32_t *v)
{
	for (; t->name; t++)
		if (!strcasecmp(t->name, name)) {
			*v = t->val;
			return true;
		}
	return false;
}

static void parse_tune(const char *spec, struct vtp_tune *t)
{
	char *copy = strdup(spec), *save = NULL, *tok, *eq, *end;
	uint32_t cmd, val;

	if (!copy)
		die("out of memory");
	t->num = 0;
	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			usage_error("--tune: '%s': expected KEY=VALUE", tok);
		*eq++ = 0;
		if (!strncasecmp(tok, "DTV_", 4))
			tok += 4;
		if (!lookup(prop_names, tok, &cmd)) {
			errno = 0;
			cmd = (uint32_t)strtoul(tok, &end, 0);
			if (*end || errno || !*tok)
				usage_error("--tune: unknown property '%s'", tok);
		}
		if (cmd == DTV_DELIVERY_SYSTEM && vt_delsys_parse(eq) >= 0) {
			val = (uint32_t)vt_delsys_parse(eq);
		} else if (lookup(value_names, eq, &val)) {
			if (val == 0xffffffffu)
				val = auto_value(cmd);
		} else {
			errno = 0;
			val = (uint32_t)strtoul(eq, &end, 0);
			if (*end || errno || !*eq)
				usage_error("--tune: %s: bad value '%s'", tok, eq);
		}
		if (t->num >= VTP_MAX_PROPS - 1)
			usage_error("--tune: too many properties");
		t->props[t->num].cmd = cmd;
		t->props[t->num].data = val;
		t->num++;
	}
	t->props[t->num].cmd = DTV_TUNE;
	t->props[t->num].data = 0;
	t->num++;
	free(copy);
}

static void parse_pids(const char *spec, struct vtp_pids *p)
{
	char *copy = strdup(spec), *save = NULL, *tok, *end;
	unsigned long v;

	if (!copy)
		die("out of memory");
	p->num = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcasecmp(tok, "all"))
			v = VTP_PID_FULL_TS;
		else {
			errno = 0;
			v = strtoul(tok, &end, 0);
			if (*end || errno || v > VTP_PID_FULL_TS)
				usage_error("--pids: bad PID '%s'", tok);
		}
		if (p->num >= VTP_MAX_PIDS)
			usage_error("--pids: too many");
		p->pid[p->num++] = (uint16_t)v;
	}
	free(copy);
}

static size_t parse_hex(const char *spec, uint8_t *out, size_t max)
{
	size_t n = 0;
	const char *s = spec;
	char *end;
	unsigned long v;

	while (*s) {
		if (*s == ',' || *s == ' ' || *s == ':') {
			s++;
			continue;
		}
		if (n >= max)
			usage_error("--diseqc: '%s': at most %zu bytes", spec, max);
		errno = 0;
		v = strtoul(s, &end, 16);
		if (end == s || v > 0xff || errno)
			usage_error("--diseqc: '%s': expected hex bytes", spec);
		out[n++] = (uint8_t)v;
		s = end;
	}
	if (!n)
		usage_error("--diseqc: '%s': expected hex bytes", spec);
	return n;
}

static void usage(void)
{
	printf(
"Usage: " PROG " [OPTION]...\n"
"Talk to vtunerd: list its tuners, or open one, tune and record TS.\n"
"\n"
"  -s, --server HOST:PORT  server (default 127.0.0.1:5911)\n"
"  -l, --list              print the tuner list\n"
"  -t, --tuner N           tuner to open (default 0)\n"
"      --voltage 13|18|off SET_VOLTAGE before tuning\n"
"      --tone on|off       SET_TONE before tuning\n"
"      --diseqc HEX        DISEQC_MASTER before tuning (e.g. e0,10,38,f0)\n"
"      --burst A|B         DISEQC_BURST before tuning\n"
"  -T, --tune 'KEY=VALUE ...'  DVBv5 properties (DELIVERY_SYSTEM=DVBS2\n"
"                          FREQUENCY=... SYMBOL_RATE=...); DTV_TUNE is added\n"
"  -p, --pids LIST         PIDs to receive, e.g. 0,17,0x100 or all\n"
"  -S, --seconds N         receive for N seconds (default 5)\n"
"      --ping-ms N         while receiving, send a KEEPALIVE on the control\n"
"                          connection every N ms and report the round trips\n"
"      --retune-ms N       while receiving, repeat the --tune (a new tune\n"
"                          sequence number) every N ms and report the TUNE\n"
"                          round trips and the time to its first TS frame\n"
"  -o, --out FILE          write the received TS to FILE\n"
"  -v, --verbose           print every STATUS\n"
"  -h, --help              this text\n"
"\n"
"Exit status: 0 success (lock and, with --pids, TS received), 1 failure,\n"
"2 usage error.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "server", required_argument, NULL, 's' },
		{ "list", no_argument, NULL, 'l' },
		{ "tuner", required_argument, NULL, 't' },
		{ "voltage", required_argument, NULL, 1 },
		{ "tone", required_argument, NULL, 2 },
		{ "diseqc", required_argument, NULL, 3 },
		{ "burst", required_argument, NULL, 4 },
		{ "tune", required_argument, NULL, 'T' },
		{ "pids", required_argument, NULL, 'p' },
		{ "seconds", required_argument, NULL, 'S' },
		{ "retune-ms", required_argument, NULL, 'R' },
		{ "ping-ms", required_argument, NULL, 'P' },
		{ "out", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *server = "127.0.0.1:5911", *out_path = NULL;
	const char *tune_spec = NULL, *pids_spec = NULL;
	int voltage = -1, tone = -1, burst = -1, opt, n;
	unsigned int tuner = 0, seconds = 5, i, k, ping_ms = 0, retune_ms = 0;
	uint64_t next_ping = 0, next_retune = 0, tune_sent = 0;
	uint32_t tune_reqid = 0;
	bool first_ts_due = false, ts_left = false;
	struct lat rtt = { 0 }, tune_rtt = { 0 }, tune_ts = { 0 };
	struct vtp_diseqc diseqc = { .len = 0 };
	bool list = false, want_ts;
	static uint8_t buf[VTP_MAX_FRAME];
	struct conn ctl = { .fd = -1, .name = "control" };
	struct conn dat = { .fd = -1, .name = "data" };
	struct vtp_hello hello;
	struct vtp_tune *tune = NULL;
	struct vtp_pids *pids = NULL;
	uint8_t token[VTP_TOKEN_LEN];
	uint64_t start, end, packets = 0, frames = 0, stale = 0;
	FILE *out = NULL;
	uint32_t r;
	char *e;

	while ((opt = getopt_long(argc, argv, "s:lt:T:p:S:o:vh", opts,
				  NULL)) != -1) {
		switch (opt) {
		case 's': server = optarg; break;
		case 'l': list = true; break;
		case 't':
			tuner = (unsigned int)strtoul(optarg, &e, 10);
			if (*e || !*optarg)
				usage_error("--tuner: '%s': expected a number", optarg);
			break;
		case 1:
			if (!strcmp(optarg, "13")) voltage = SEC_VOLTAGE_13;
			else if (!strcmp(optarg, "18")) voltage = SEC_VOLTAGE_18;
			else if (!strcmp(optarg, "off")) voltage = SEC_VOLTAGE_OFF;
			else usage_error("--voltage: '%s': expected 13, 18 or off", optarg);
			break;
		case 2:
			if (!strcmp(optarg, "on")) tone = SEC_TONE_ON;
			else if (!strcmp(optarg, "off")) tone = SEC_TONE_OFF;
			else usage_error("--tone: '%s': expected on or off", optarg);
			break;
		case 3:
			diseqc.len = (uint8_t)parse_hex(optarg, diseqc.msg,
							VTP_DISEQC_MAX);
			break;
		case 4:
			if (!strcasecmp(optarg, "A")) burst = SEC_MINI_A;
			else if (!strcasecmp(optarg, "B")) burst = SEC_MINI_B;
			else usage_error("--burst: '%s': expected A or B", optarg);
			break;
		case 'T': tune_spec = optarg; break;
		case 'p': pids_spec = optarg; break;
		case 'S':
			seconds = (unsigned int)strtoul(optarg, &e, 10);
			if (*e || !*optarg)
				usage_error("--seconds: '%s': expected a number", optarg);
			break;
		case 'P':
			ping_ms = (unsigned int)strtoul(optarg, &e, 10);
			if (*e || !*optarg || !ping_ms)
				usage_error("--ping-ms: '%s': expected a positive number", optarg);
			break;
		case 'R':
			retune_ms = (unsigned int)strtoul(optarg, &e, 10);
			if (*e || !*optarg || !retune_ms)
				usage_error("--retune-ms: '%s': expected a positive number", optarg);
			break;
		case 'o': out_path = optarg; break;
		case 'v': verbose++; break;
		case 'h': usage(); return 0;
		default:
			fprintf(stderr, "Try '" PROG " --help' for more information.\n");
			return 2;
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (retune_ms && !tune_spec)
		usage_error("--retune-ms needs --tune");
	msg = malloc(sizeof(*msg));
	ctl.rd = malloc(sizeof(*ctl.rd));
	dat.rd = malloc(sizeof(*dat.rd));
	tune = calloc(1, sizeof(*tune));
	pids = calloc(1, sizeof(*pids));
	if (!msg || !ctl.rd || !dat.rd || !tune || !pids)
		die("out of memory");
	vtp_reader_init(ctl.rd);
	vtp_reader_init(dat.rd);
	if (tune_spec)
		parse_tune(tune_spec, tune);
	if (pids_spec)
		parse_pids(pids_spec, pids);
	if (out_path) {
		out = fopen(out_path, "wb");
		if (!out)
			die("%s: %s", out_path, strerror(errno));
	}

	ctl.fd = dial(server);
	memset(&hello, 0, sizeof(hello));
	hello.version_min = VTP_VERSION_MIN;
	hello.version_max = VTP_VERSION_MAX;
	snprintf(hello.name, sizeof(hello.name), PROG);
	r = reqid();
	request(&ctl, buf, vtp_encode_hello(buf, sizeof(buf), r, &hello), r,
		VTP_HELLO_REPLY, "HELLO");
	if (verbose)
		printf("server '%s', version %u\n", msg->u.hello_reply.name,
		       msg->u.hello_reply.version);

	if (list) {
		r = reqid();
		request(&ctl, buf, vtp_encode_list_tuners(buf, sizeof(buf), r),
			r, VTP_TUNER_LIST, "LIST_TUNERS");
		for (i = 0; i < msg->u.tuners.num; i++) {
			const struct vtp_tuner *t = &msg->u.tuners.tuner[i];

			printf("%u\t%s\t", t->index,
			       t->flags & VTP_TUNER_BUSY ? "busy" : "free");
			for (k = 0; k < t->num_delsys; k++)
				printf("%s%u", k ? "," : "", t->delsys[k]);
			printf("\t%u-%u\t%s\n", t->freq_min, t->freq_max,
			       t->name);
		}
		if (!tune_spec && !pids_spec)
			return 0;
	}

	r = reqid();
	request(&ctl, buf, vtp_encode_open_tuner(buf, sizeof(buf), r,
						 (uint16_t)tuner),
		r, VTP_OPEN_REPLY, "OPEN_TUNER");
	memcpy(token, msg->u.open_reply.token, sizeof(token));

	dat.fd = dial(server);
	{
		struct vtp_attach a;

		memcpy(a.token, token, sizeof(token));
		r = reqid();
		request(&dat, buf, vtp_encode_data_attach(buf, sizeof(buf), r, &a),
			r, VTP_OK, "DATA_ATTACH");
	}
	if (voltage >= 0) {
		r = reqid();
		request(&ctl, buf, vtp_encode_set_voltage(buf, sizeof(buf), r,
							  (uint8_t)voltage),
			r, VTP_OK, "SET_VOLTAGE");
	}
	if (tone >= 0) {
		r = reqid();
		request(&ctl, buf, vtp_encode_set_tone(buf, sizeof(buf), r,
						       (uint8_t)tone),
			r, VTP_OK, "SET_TONE");
	}
	if (diseqc.len) {
		r = reqid();
		request(&ctl, buf, vtp_encode_diseqc_master(buf, sizeof(buf), r,
							    &diseqc),
			r, VTP_OK, "DISEQC_MASTER");
	}
	if (burst >= 0) {
		r = reqid();
		request(&ctl, buf, vtp_encode_diseqc_burst(buf, sizeof(buf), r,
							   (uint8_t)burst),
			r, VTP_OK, "DISEQC_BURST");
	}
	if (tune_spec) {
		tune->seq = 1;
		tune_seq = 1;
		r = reqid();
		request(&ctl, buf, vtp_encode_tune(buf, sizeof(buf), r, tune),
			r, VTP_OK, "TUNE");
	}
	if (pids_spec) {
		r = reqid();
		request(&ctl, buf, vtp_encode_set_pids(buf, sizeof(buf), r, pids),
			r, VTP_OK, "SET_PIDS");
	}

	start = vt_now_ns();
	end = start + (uint64_t)seconds * 1000000000ull;
	next_ping = start;
	next_retune = start + retune_ms * 1000000ull;
	while (vt_now_ns() < end) {
		struct pollfd p[2] = {
			{ .fd = ctl.fd, .events = POLLIN },
			{ .fd = dat.fd, .events = POLLIN },
		};
		int left = (int)((end - vt_now_ns()) / 1000000) + 1;

		if (ping_ms) {
			uint64_t t = vt_now_ns();

			if (t >= next_ping) {
				n = vtp_encode_keepalive(buf, sizeof(buf),
							 reqid(), t);
				send_all(&ctl, buf, n);
				next_ping = t + ping_ms * 1000000ull;
			}
			if ((int)((next_ping - t) / 1000000) + 1 < left)
				left = (int)((next_ping - t) / 1000000) + 1;
		}

		/* the next retune once the last one was answered and streams */
		if (retune_ms && !tune_reqid && !first_ts_due) {
			uint64_t t = vt_now_ns();

			if (t >= next_retune) {
				tune->seq = ++tune_seq;
				tune_reqid = reqid();
				n = vtp_encode_tune(buf, sizeof(buf), tune_reqid,
						    tune);
				send_all(&ctl, buf, n);
				tune_sent = t;
				/* without PIDs no TS comes: only the replies */
				first_ts_due = pids->num > 0;
				next_retune = t + retune_ms * 1000000ull;
			} else if ((int)((next_retune - t) / 1000000) + 1 < left) {
				left = (int)((next_retune - t) / 1000000) + 1;
			}
		}

		if (ts_left)	/* frames still in the reader: no waiting */
			left = 0;
		if (poll(p, 2, left) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (p[0].revents) {
			while (next_frame(&ctl, 0)) {
				if (msg->hdr.type == VTP_STATUS)
					on_status(&msg->u.status);
				else if (msg->hdr.type == VTP_KEEPALIVE_REPLY &&
					 ping_ms)
					lat_add(&rtt, vt_now_ns() - msg->u.stamp);
				else if (tune_reqid &&
					 msg->hdr.type == VTP_ERROR &&
					 msg->u.error.reqid == tune_reqid)
					die("TUNE: error %u: %s",
					    msg->u.error.err, msg->u.error.msg);
				else if (tune_reqid &&
					 msg->hdr.type == VTP_OK &&
					 msg->hdr.reqid == tune_reqid) {
					lat_add(&tune_rtt, vt_now_ns() - tune_sent);
					tune_reqid = 0;
				} else if (msg->hdr.type == VTP_KEEPALIVE) {
					n = vtp_encode_keepalive_reply(buf,
						sizeof(buf), msg->hdr.reqid,
						msg->u.stamp);
					send_all(&ctl, buf, n);
				}
			}
		}
		/*
		 * A bounded batch of TS frames, then the control connection
		 * again: its replies are timed and must not wait behind a
		 * long burst of TS.
		 */
		if (p[1].revents || ts_left) {
			unsigned int batch = 0;

			/* ts_left: the batch ended with frames perhaps left */
			while (!(ts_left = batch++ == 16) && next_frame(&dat, 0)) {
				if (msg->hdr.type == VTP_KEEPALIVE) {
					n = vtp_encode_keepalive_reply(buf,
						sizeof(buf), msg->hdr.reqid,
						msg->u.stamp);
					send_all(&dat, buf, n);
					continue;
				}
				if (msg->hdr.type != VTP_TS_DATA)
					continue;
				if (msg->u.ts.seq != tune_seq) {
					stale++;
					continue;
				}
				if (first_ts_due && tune_sent) {
					lat_add(&tune_ts, vt_now_ns() - tune_sent);
					first_ts_due = false;
				}
				frames++;
				packets += msg->u.ts.len / VTP_TS_PACKET;
				if (out && fwrite(msg->u.ts.data, 1,
						  msg->u.ts.len, out) !=
					   msg->u.ts.len)
					die("%s: write: %s", out_path,
					    strerror(errno));
			}
		}
	}
	{
		double secs = (vt_now_ns() - start) / 1e9;

		printf("received %llu TS packets in %llu frames in %.2f s: "
		       "%.3f Mbit/s; %llu stale frames\n",
		       (unsigned long long)packets, (unsigned long long)frames,
		       secs, packets * 188 * 8 / secs / 1e6,
		       (unsigned long long)stale);
	}
	lat_print("control round trips", &rtt);
	lat_print("tune round trips", &tune_rtt);
	lat_print("tune to first TS frame", &tune_ts);
	r = reqid();
	request(&ctl, buf, vtp_encode_close_tuner(buf, sizeof(buf), r), r,
		VTP_OK, "CLOSE_TUNER");
	if (out && fclose(out) != 0)
		die("%s: %s", out_path, strerror(errno));
	want_ts = pids_spec && pids->num;
	close(ctl.fd);
	close(dat.fd);
	free(ctl.rd);
	free(dat.rd);
	free(tune);
	free(pids);
	free(msg);
	if (tune_spec && !seen_lock) {
		fprintf(stderr, PROG ": no lock\n");
		return 1;
	}
	if (want_ts && !packets) {
		fprintf(stderr, PROG ": no TS received\n");
		return 1;
	}
	return 0;
}
