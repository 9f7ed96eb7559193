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
#include "common/config.h"
#include "common/log.h"


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
"      --psk-file FILE       authenticate to the server, and the server to\n"
"                            us, with the pre-shared key of FILE (hex or\n"
"                            base64, at least 32 bytes, not accessible by\n"
"                            others); a server that cannot prove the key\n"
"                            is refused.  Traffic is not encrypted\n"
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
"  -c, --config FILE         read options from FILE first (vtuner.conf(5)):\n"
"                            \"server = host:5911\" is --server host:5911\n"
"      --check               check the options (and FILE) and exit\n"
"      --status-file FILE    write the state there every second (default\n"
"                            /run/vtunerc/DEVICE.status if /run/vtunerc\n"
"                            exists; none: do not), for vtunerctl(8)\n"
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
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* inside a config file: "vtunerc: FILE:LINE: server: ..." */
	fprintf(stderr, "vtunerc: %s%s\n", vt_config_context(),
		vt_config_msg(msg));
	fprintf(stderr, "Try 'vtunerc --help'.\n");
	exit(2);
}

enum { OPT_DISCOVER = 256, OPT_SINK, OPT_TUNE, OPT_PIDS, OPT_CHECK,
       OPT_STATUS_FILE, OPT_PSK_FILE };

#define SHORT_OPTS "s:d:t:D:n:c:fvhV"

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
	{ "config", required_argument, NULL, 'c' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "status-file", required_argument, NULL, OPT_STATUS_FILE },
	{ "psk-file", required_argument, NULL, OPT_PSK_FILE },
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

/* The options, from the command line and the config file alike. */
static struct {
	struct vc_opts o;
	const char *server;
	bool foreground, discover;
	int verbose;
	const char *psk_file;
} O;

/* One option; arg stays valid until exit (argv or the config file). */
static void handle_opt(int c, const char *arg, void *unused)
{
	char err[256], *end;
	long v;

	(void)unused;
	switch (c) {
	case 's':
		O.server = arg;
		if (net_parse_server(arg, O.o.host, sizeof(O.o.host),
				     O.o.port, sizeof(O.o.port)))
			usage_error("--server: '%s': expected HOST, HOST:PORT "
				    "or [IPV6]:PORT", arg);
		break;
	case 'd':
		O.o.device = arg;
		break;
	case 't':
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || !*arg || *end || v < 0 || v > 65535)
			usage_error("--tuner: '%s': expected an index "
				    "0..65535", arg);
		O.o.tuner = v;
		break;
	case 'D':
		O.o.num_delsys = props_parse_delsys(arg, O.o.delsys,
						  VTP_MAX_DELSYS, err,
						  sizeof(err));
		if (O.o.num_delsys < 0)
			usage_error("--delsys: %s", err);
		break;
	case 'n':
		if (!*arg || strlen(arg) >= VTUNER_NAME_LEN)
			usage_error("--name: '%s': expected 1..%d characters",
				    arg, VTUNER_NAME_LEN - 1);
		O.o.name = arg;
		break;
	case 'f':
		O.foreground = true;
		break;
	case 'v':
		O.verbose++;
		break;
	case OPT_DISCOVER:
		O.discover = true;
		break;
	case OPT_SINK:
		if (!*arg)
			usage_error("--sink needs a file name");
		O.o.sink = arg;
		break;
	case OPT_TUNE:
		if (props_parse_tune(arg, &O.o.tune, err, sizeof(err)))
			usage_error("--tune: %s", err);
		O.o.have_tune = true;
		break;
	case OPT_PIDS:
		if (props_parse_pids(arg, O.o.pids, err, sizeof(err)))
			usage_error("--pids: %s", err);
		O.o.have_pids = true;
		break;
	case OPT_STATUS_FILE:
		if (!*arg)
			usage_error("--status-file needs a file name (or none)");
		O.o.status_file = arg;
		break;
	case OPT_PSK_FILE:
		O.psk_file = arg;
		break;
	case 'c':
	case OPT_CHECK:
		break;		/* seen by main() */
	case 'h':
		usage(stdout);
		exit(0);
	case 'V':
		printf("vtunerc %s (wire protocol %d, control ABI %d)\n",
		       VT_VERSION, VTP_VERSION_MAX,
		       VTUNER_ABI_VERSION);
		exit(0);
	default:
		fprintf(stderr, "Try 'vtunerc --help'.\n");
		exit(2);
	}
}

static const char *const config_reject[] = {
	"config", "check", "help", "version", "discover", NULL
};

int main(int argc, char **argv)
{
	static struct vt_config conf;
	struct vc_opts *op = &O.o;
	bool check;
	int c, ready_fd = -1, level;
	char err[640];

	O.o.device = "/dev/vtunerc0";
	O.o.tuner = -1;
	O.o.pids = calloc(1, sizeof(*O.o.pids));
	if (!O.o.pids)
		return 1;
	/* the file first: the command line overrides or adds to it */
	if (vt_config_cmdline(&conf, argc, argv, SHORT_OPTS, long_opts,
			      config_reject, handle_opt, &check, err,
			      sizeof(err)) < 0) {
		fprintf(stderr, "vtunerc: %s\n", err);
		return 2;
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (O.discover) {
		if (O.server || op->sink || op->have_tune || op->have_pids)
			usage_error("--discover takes no other option");
		if (check)
			return 0;
		return discover_list(VC_DISCOVER_SECONDS);
	}
	if ((op->have_tune || op->have_pids) && !op->sink)
		usage_error("--tune and --pids need --sink (with the module, "
			    "applications tune)");
	if (op->sink)
		op->device = NULL;
	if (check) {
		printf("vtunerc: %s: ok\n", conf.file ? conf.file : "options");
		free(op->pids);
		return 0;
	}

	if (O.psk_file) {
		static struct vtp_psk psk;

		snprintf(err, sizeof(err), "libsodium cannot be initialised");
		if (vtp_auth_init() < 0 ||
		    vtp_psk_load(O.psk_file, &psk, err, sizeof(err)) < 0) {
			fprintf(stderr, "vtunerc: --psk-file %s\n", err);
			free(op->pids);
			return 1;
		}
		op->psk = &psk;
	}
	level = O.verbose >= 2 ? LOG_DEBUG : O.verbose ? LOG_INFO : LOG_NOTICE;
	if (!O.server) {
		/* before daemonizing: a failure is the command's */
		vt_log_init("vtunerc", VT_LOG_STDERR, level);
		if (discover_pick(op, VC_DISCOVER_SECONDS) < 0) {
			free(op->pids);
			return 1;
		}
	}
	if (O.foreground) {
		vt_log_init("vtunerc", VT_LOG_STDERR, level);
	} else {
		ready_fd = daemonize();
		vt_log_init("vtunerc", VT_LOG_SYSLOG, level);
	}
	c = client_run(op, ready_fd);
	free(op->pids);
	return c;
}
