// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - vtunerc: command line, daemonisation, logging.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "vtuner.h"
#include "client/client.h"
#include "client/discover.h"
#include "client/net.h"
#include "client/props.h"
#include "common/log.h"

#define VTUNERC_VERSION	"0.1"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: vtunerc [OPTIONS] [-s HOST[:PORT]]\n"
"       vtunerc --discover\n"
"Give the virtual DVB adapter of /dev/vtunercN the tuner of a vtunerd server.\n"
"\n"
"  -s, --server HOST[:PORT]  vtunerd server (default port " VC_DEFAULT_PORT ";\n"
"                            IPv6 as [ADDR]:PORT); without it, the first\n"
"                            server announced on the network (DNS-SD) that\n"
"                            has a free tuner matching -t and -D\n"
"  -d, --device DEV          control device (default /dev/vtunerc0)\n"
"  -t, --tuner N             remote tuner index (default: the first free one)\n"
"  -D, --delsys LIST         pick the first free tuner having all these\n"
"                            delivery systems, e.g. dvbs2 or dvbt,dvbt2\n"
"  -n, --name NAME           adapter name (default \"REMOTE NAME @ HOST\")\n"
"  -f, --foreground          stay in the foreground, log to stderr\n"
"  -v, --verbose             more messages (repeat for debug)\n"
"      --discover            list the servers announced on the network and\n"
"                            their tuners\n"
"      --sink FILE           write the TS to FILE (or /dev/null) instead of\n"
"                            the module, which is not used (testing)\n"
"      --tune PROPS          with --sink: tune at once, e.g.\n"
"                            DELIVERY_SYSTEM=DVBS2,FREQUENCY=11362000,\n"
"                            SYMBOL_RATE=27500000\n"
"      --pids LIST           with --sink: PIDs to receive, e.g. 0,17,256\n"
"                            or all\n"
"  -h, --help                this help\n"
"  -V, --version             version\n"
"\n"
"Exit status: 0 after SIGTERM/SIGINT, 1 on a runtime error, 2 on a usage\n"
"error.\n");
}

static void usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vtunerc: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'vtunerc --help'.\n");
	exit(2);
}

enum { OPT_DISCOVER = 256, OPT_SINK, OPT_TUNE, OPT_PIDS };

static const struct option long_opts[] = {
	{ "server", required_argument, NULL, 's' },
	{ "device", required_argument, NULL, 'd' },
	{ "tuner", required_argument, NULL, 't' },
	{ "delsys", required_argument, NULL, 'D' },
	{ "name", required_argument, NULL, 'n' },
	{ "foreground", no_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "discover", no_argument, NULL, OPT_DISCOVER },
	{ "sink", required_argument, NULL, OPT_SINK },
	{ "tune", required_argument, NULL, OPT_TUNE },
	{ "pids", required_argument, NULL, OPT_PIDS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/*
 * Fork; the parent waits for the child to report that the control
 * device is set up, then exits with the matching status.  Returns the
 * child's end of the pipe.
 */
static int daemonize(void)
{
	int p[2], devnull, status;
	char c;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		perror("vtunerc: pipe");
		exit(1);
	}
	pid = fork();
	if (pid < 0) {
		perror("vtunerc: fork");
		exit(1);
	}
	if (pid > 0) {
		close(p[1]);
		if (read(p[0], &c, 1) == 1)
			exit(c == '0' ? 0 : 1);
		/* the child died before reporting */
		waitpid(pid, &status, 0);
		exit(1);
	}
	close(p[0]);
	setsid();
	if (chdir("/") < 0)
		exit(1);
	umask(022);
	devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		if (devnull > 2)
			close(devnull);
	}
	return p[1];
}

int main(int argc, char **argv)
{
	static struct vc_opts o;
	const char *server = NULL;
	bool foreground = false, discover = false;
	int verbose = 0, c, ready_fd = -1, level;
	char err[256], *end;
	long v;

	o.device = "/dev/vtunerc0";
	o.tuner = -1;
	o.pids = calloc(1, sizeof(*o.pids));
	if (!o.pids)
		return 1;
	while ((c = getopt_long(argc, argv, "s:d:t:D:n:fvhV", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 's':
			server = optarg;
			if (net_parse_server(optarg, o.host, sizeof(o.host),
					     o.port, sizeof(o.port)))
				usage_error("bad server '%s' (HOST, HOST:PORT "
					    "or [IPV6]:PORT)", optarg);
			break;
		case 'd':
			o.device = optarg;
			break;
		case 't':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || !*optarg || *end || v < 0 || v > 65535)
				usage_error("bad tuner index '%s'", optarg);
			o.tuner = v;
			break;
		case 'D':
			o.num_delsys = props_parse_delsys(optarg, o.delsys,
							  VTP_MAX_DELSYS, err,
							  sizeof(err));
			if (o.num_delsys < 0)
				usage_error("--delsys: %s", err);
			break;
		case 'n':
			if (!*optarg || strlen(optarg) >= VTUNER_NAME_LEN)
				usage_error("bad name '%s' (1..%d characters)",
					    optarg, VTUNER_NAME_LEN - 1);
			o.name = optarg;
			break;
		case 'f':
			foreground = true;
			break;
		case 'v':
			verbose++;
			break;
		case OPT_DISCOVER:
			discover = true;
			break;
		case OPT_SINK:
			if (!*optarg)
				usage_error("--sink needs a file name");
			o.sink = optarg;
			break;
		case OPT_TUNE:
			if (props_parse_tune(optarg, &o.tune, err, sizeof(err)))
				usage_error("--tune: %s", err);
			o.have_tune = true;
			break;
		case OPT_PIDS:
			if (props_parse_pids(optarg, o.pids, err, sizeof(err)))
				usage_error("--pids: %s", err);
			o.have_pids = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("vtunerc %s (wire protocol %d, control ABI %d)\n",
			       VTUNERC_VERSION, VTP_VERSION_MAX,
			       VTUNER_ABI_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'vtunerc --help'.\n");
			return 2;
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (discover) {
		if (server || o.sink || o.have_tune || o.have_pids)
			usage_error("--discover takes no other option");
		return discover_list(VC_DISCOVER_SECONDS);
	}
	if ((o.have_tune || o.have_pids) && !o.sink)
		usage_error("--tune and --pids need --sink (with the module, "
			    "applications tune)");
	if (o.sink)
		o.device = NULL;

	level = verbose >= 2 ? LOG_DEBUG : verbose ? LOG_INFO : LOG_NOTICE;
	if (!server) {
		/* before daemonizing: a failure is the command's */
		vt_log_init("vtunerc", VT_LOG_STDERR, level);
		if (discover_pick(&o, VC_DISCOVER_SECONDS) < 0) {
			free(o.pids);
			return 1;
		}
	}
	if (foreground) {
		vt_log_init("vtunerc", VT_LOG_STDERR, level);
	} else {
		ready_fd = daemonize();
		vt_log_init("vtunerc", VT_LOG_SYSLOG, level);
	}
	c = client_run(&o, ready_fd);
	free(o.pids);
	return c;
}
