// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - vtunerc: command line, logging, --daemon, then the client.
 *
 * Exit status (common/daemon.h): 0 normal end, 1 runtime or setup error,
 * 2 usage or configuration error.
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
#include "common/daemon.h"
#include "common/log.h"


static void usage(FILE *f)
{
	fprintf(f,
"Usage: vtunerc [OPTION]... [-s HOST[:PORT]]\n"
"       vtunerc [OPTION]... --satip rtsp://HOST[:PORT]/\n"
"       vtunerc --discover\n"
"Give the virtual DVB adapter of /dev/vtunercN the tuner of a vtunerd server\n"
"or of a SAT>IP server.\n"
"\n"
"Tuner:\n"
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
"                            is refused; every frame of the session is\n"
"                            then encrypted and authenticated\n"
"      --cipher NAME         with --psk-file, the cipher to ask for: auto\n"
"                            (the default: aes-256-ocb when this CPU has\n"
"                            AES instructions, else chacha20-poly1305),\n"
"                            aes-256-ocb or chacha20-poly1305; the server\n"
"                            grants AES-256-OCB or falls back to ChaCha20\n"
"      --discover            list the servers announced on the network and\n"
"                            their tuners, and the SAT>IP servers, then exit\n"
"\n"
"SAT>IP (docs/satip.md):\n"
"      --satip rtsp://HOST[:PORT]/  a SAT>IP server instead of vtunerd\n"
"                            (default port 554); -D picks its systems;\n"
"                            auto: the first found by SSDP having the\n"
"                            first of them\n"
"      --satip-tcp           RTP interleaved in the RTSP connection (through\n"
"                            NAT, on Wi-Fi) instead of UDP\n"
"      --satip-ports A-B     UDP ports for RTP and RTCP (an even one and the\n"
"                            next), for firewalls; default: any\n"
"      --satip-desc URL      the server's desc.xml (default\n"
"                            http://HOST:PORT/desc.xml, then port 8080 for\n"
"                            554)\n"
"      --satip-quirks LIST   quirks to assume (a leading - turns one off):\n"
"                            no-addpids, no-pids-all, teardown, describe,\n"
"                            setup-pids; default: known servers' and those\n"
"                            learnt from refusals\n"
"      --lnb LOW[,HIGH[,SWITCH]]  the LNB of the SAT>IP server's dish, MHz\n"
"                            (default universal: 9750,10600,11700; HIGH 0:\n"
"                            one LOF, e.g. 5150 for C band)\n"
"\n"
"Without the module (docs/cuse.md):\n"
"      --cuse                create /dev/dvb/adapterN/{frontend0,demux0,dvr0}\n"
"                            through CUSE (modprobe cuse) and serve them in\n"
"                            user space instead of the module's adapter\n"
"      --cuse-adapter N      with --cuse: adapter number N (default: the\n"
"                            first free one from 8 up)\n"
"      --user USER           run as USER once the devices are open (default\n"
"                            with --cuse started as root: " VC_CUSE_USER "; root:\n"
"                            stay root)\n"
"\n"
"Testing without the module:\n"
"      --sink FILE           write the TS to FILE (or /dev/null) instead of\n"
"                            the module, which is not used\n"
"      --tune PROPS          with --sink: tune at once, e.g.\n"
"                            DELIVERY_SYSTEM=DVBS2,FREQUENCY=11362000,\n"
"                            SYMBOL_RATE=27500000\n"
"      --pids LIST           with --sink: PIDs to receive, e.g. 0,17,256\n"
"                            or all\n"
"\n"
"Process:\n"
"      --status-file FILE    write the state there every second (default\n"
"                            /run/vtunerc/DEVICE.status if /run/vtunerc\n"
"                            exists; none: do not), for vtunerctl(8)\n"
"  -f, --foreground          stay in the foreground: the default, accepted\n"
"                            for compatibility\n"
"      --daemon              detach once set up (the exit status says\n"
"                            whether it was), then log to syslog\n"
"  -v, --verbose             more messages; repeat for debug output\n"
"  -c, --config FILE         read options from FILE first (vtuner.conf(5)):\n"
"                            \"name = NAME\" is --name NAME\n"
"      --check               check the options, FILE and the key of\n"
"                            --psk-file, then exit: 0 valid, 2 not\n"
"  -h, --help                show this help and exit\n"
"  -V, --version             show the version and exit\n"
"\n"
"Exit status: 0 normal end, 1 runtime or setup error, 2 usage or\n"
"configuration error.\n");
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
	fprintf(stderr, "Try 'vtunerc --help' for more information.\n");
	exit(VT_EXIT_USAGE);
}

enum { OPT_DISCOVER = 256, OPT_SINK, OPT_TUNE, OPT_PIDS, OPT_CHECK,
       OPT_STATUS_FILE, OPT_PSK_FILE, OPT_DAEMON, OPT_SATIP, OPT_SATIP_TCP,
       OPT_SATIP_PORTS, OPT_SATIP_DESC, OPT_SATIP_QUIRKS, OPT_LNB,
       OPT_CUSE, OPT_CUSE_ADAPTER, OPT_USER, OPT_CIPHER };

#define SHORT_OPTS "s:d:t:D:n:c:fvhV"

static const struct option long_opts[] = {
	{ "server", required_argument, NULL, 's' },
	{ "device", required_argument, NULL, 'd' },
	{ "tuner", required_argument, NULL, 't' },
	{ "delsys", required_argument, NULL, 'D' },
	{ "name", required_argument, NULL, 'n' },
	{ "foreground", no_argument, NULL, 'f' },
	{ "daemon", no_argument, NULL, OPT_DAEMON },
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
	{ "satip", required_argument, NULL, OPT_SATIP },
	{ "satip-tcp", no_argument, NULL, OPT_SATIP_TCP },
	{ "satip-ports", required_argument, NULL, OPT_SATIP_PORTS },
	{ "satip-desc", required_argument, NULL, OPT_SATIP_DESC },
	{ "satip-quirks", required_argument, NULL, OPT_SATIP_QUIRKS },
	{ "lnb", required_argument, NULL, OPT_LNB },
	{ "cuse", no_argument, NULL, OPT_CUSE },
	{ "cuse-adapter", required_argument, NULL, OPT_CUSE_ADAPTER },
	{ "user", required_argument, NULL, OPT_USER },
	{ "cipher", required_argument, NULL, OPT_CIPHER },
	{ NULL, 0, NULL, 0 }
};

/*
 * --daemon: fork; the parent waits for the child to report that the
 * control device is set up (or not), and *parent is its exit status.
 * Returns the child's end of that pipe in the child, -1 in the parent and
 * on an error (said; *parent stays -1).
 */
static int daemonize(int *parent)
{
	int p[2], devnull, status;
	char c;
	pid_t pid;

	*parent = -1;
	if (pipe2(p, O_CLOEXEC) < 0) {
		vt_err("pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		vt_err("fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid > 0) {
		close(p[1]);
		if (read(p[0], &c, 1) == 1)
			*parent = c == '0' ? VT_EXIT_OK : VT_EXIT_ERROR;
		else	/* the child died before reporting */
			*parent = waitpid(pid, &status, 0) == pid &&
				  WIFEXITED(status) && WEXITSTATUS(status) ?
				  WEXITSTATUS(status) : VT_EXIT_ERROR;
		close(p[0]);
		return -1;
	}
	close(p[0]);
	setsid();
	if (chdir("/") < 0)
		vt_warn("chdir /: %s", strerror(errno));
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

/* --daemon: the write end of the pipe the parent waits on, else -1 */
static int ready_fd = -1;

/* The control device is set up (ok) or cannot be: tell who waits. */
static void ready(bool ok)
{
	if (ready_fd >= 0) {
		if (write(ready_fd, ok ? "0" : "1", 1) < 0)
			vt_debug("readiness pipe: %s", strerror(errno));
		close(ready_fd);
		ready_fd = -1;
	}
	if (ok)
		vt_notify("READY=1");
}

/* The options, from the command line and the config file alike. */
static struct {
	struct vc_opts o;
	const char *server;
	bool foreground, daemonize, discover, satip_auto;
	bool device_set;	/* -d given */
	int verbose;
	const char *psk_file;
	enum vtp_cipher_pref cipher;	/* --cipher */
	bool cipher_set;
} O;

/* --satip rtsp://HOST[:PORT][/]: 0, or -1. */
static int parse_satip_url(const char *arg)
{
	char auth[300];
	const char *p = arg, *end;

	if (!strcmp(p, "auto")) {
		O.satip_auto = true;
		return 0;
	}
	if (strncasecmp(p, "rtsp://", 7))
		return -1;
	p += 7;
	end = strchr(p, '/');
	if (!end)
		end = p + strlen(p);
	else if (end[1])
		return -1;	/* a path: SAT>IP servers have none */
	if (end == p || (size_t)(end - p) >= sizeof(auth))
		return -1;
	memcpy(auth, p, end - p);
	auth[end - p] = 0;
	return net_parse_hostport(auth, O.o.host, sizeof(O.o.host), O.o.port,
				  sizeof(O.o.port), "554") ? -1 : 0;
}

/* --lnb LOW[,HIGH[,SWITCH]] in MHz: 0, or -1. */
static int parse_lnb(const char *arg, struct satip_lnb *l)
{
	unsigned long v[3] = { 0, 0, 0 };
	const char *p = arg;
	char *end;
	int n;

	for (n = 0; n < 3; n++) {
		errno = 0;
		v[n] = strtoul(p, &end, 10);
		if (errno || end == p || v[n] > 100000)
			return -1;
		p = end;
		if (!*p)
			break;
		if (*p++ != ',')
			return -1;
	}
	if (n == 3 || !v[0])
		return -1;
	if (n == 1 && v[1] && !v[2])
		return -1;	/* two LOFs need the switch frequency */
	*l = (struct satip_lnb){ v[0] * 1000, v[1] * 1000, v[2] * 1000, true };
	return 0;
}

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
		O.device_set = true;
		break;
	case OPT_CUSE:
		O.o.cuse = true;
		break;
	case OPT_USER:
		if (!*arg)
			usage_error("--user: a user name or number");
		O.o.user = arg;
		break;
	case OPT_CIPHER:
		if (vtp_cipher_pref_parse(arg, &O.cipher) < 0)
			usage_error("--cipher: '%s': expected "
				    VTP_CIPHER_PREF_NAMES, arg);
		O.cipher_set = true;
		break;
	case OPT_CUSE_ADAPTER:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || !*arg || *end || v < 0 || v > 255)
			usage_error("--cuse-adapter: '%s': expected 0..255",
				    arg);
		O.o.cuse_adapter = v;
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
		O.foreground = true;	/* the default */
		break;
	case OPT_DAEMON:
		O.daemonize = true;
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
	case OPT_SATIP:
		if (parse_satip_url(arg) < 0)
			usage_error("--satip: '%s': expected rtsp://HOST[:PORT]/ "
				    "or auto", arg);
		O.o.satip = true;
		break;
	case OPT_SATIP_TCP:
		O.o.satip_tcp = true;
		break;
	case OPT_SATIP_PORTS:
		if (sscanf(arg, "%hu-%hu%c", &O.o.satip_ports[0],
			   &O.o.satip_ports[1], err) != 2 ||
		    O.o.satip_ports[0] < 1024 ||
		    O.o.satip_ports[1] < O.o.satip_ports[0] + 1 +
		    (O.o.satip_ports[0] & 1))
			usage_error("--satip-ports: '%s': expected A-B, "
				    "1024 <= A, room for an even port and "
				    "the next", arg);
		break;
	case OPT_SATIP_DESC:
		O.o.satip_desc = arg;
		break;
	case OPT_SATIP_QUIRKS:
		O.o.satip_quirks = arg;
		break;
	case OPT_LNB:
		if (parse_lnb(arg, &O.o.lnb) < 0)
			usage_error("--lnb: '%s': expected LOW[,HIGH,SWITCH] in "
				    "MHz, e.g. 9750,10600,11700", arg);
		break;
	case 'c':
	case OPT_CHECK:
		break;		/* seen by main() */
	case 'h':
		usage(stdout);
		exit(VT_EXIT_OK);
	case 'V':
		printf("vtunerc %s (wire protocol %d, control ABI %d)\n",
		       VT_VERSION, VTP_VERSION_MAX,
		       VTUNER_ABI_VERSION);
		exit(VT_EXIT_OK);
	default:
		fprintf(stderr, "Try 'vtunerc --help' for more information.\n");
		exit(VT_EXIT_USAGE);
	}
}

static const char *const config_reject[] = {
	"config", "check", "help", "version", "discover", NULL
};

/* The key of --psk-file into psk; 0, or -1 after saying why on stderr. */
static int load_psk(struct vtp_psk *psk)
{
	char err[640];

	snprintf(err, sizeof(err), "libsodium cannot be initialised");
	if (vtp_auth_init() < 0 ||
	    vtp_psk_load(O.psk_file, psk, err, sizeof(err)) < 0) {
		fprintf(stderr, "vtunerc: --psk-file %s\n", err);
		return -1;
	}
	return 0;
}

/* --check: the options are valid; now the files they name.  0 or 2. */
static int check_files(const struct vt_config *conf)
{
	static struct vtp_psk psk;
	int ret = VT_EXIT_USAGE;

	if (O.psk_file && load_psk(&psk) < 0)
		goto out;
	printf("vtunerc: %s: ok\n", conf->file ? conf->file : "options");
	ret = VT_EXIT_OK;
out:
	vtp_psk_wipe(&psk);
	return ret;
}

/* Everything main() acquires is released at its end, whatever the path. */
int main(int argc, char **argv)
{
	static struct vt_config conf;
	static struct vtp_psk psk;
	struct vc_opts *op = &O.o;
	bool check;
	int level, ret = VT_EXIT_ERROR;
	char err[640];

	O.o.device = "/dev/vtunerc0";
	O.o.tuner = -1;
	O.o.cuse_adapter = -1;
	O.o.lnb = (struct satip_lnb)SATIP_LNB_UNIVERSAL;
	O.o.pids = calloc(1, sizeof(*O.o.pids));
	if (!O.o.pids) {
		fprintf(stderr, "vtunerc: out of memory\n");
		goto out;
	}
	/* the file first: the command line overrides or adds to it */
	if (vt_config_cmdline(&conf, argc, argv, SHORT_OPTS, long_opts,
			      config_reject, handle_opt, &check, err,
			      sizeof(err)) < 0) {
		fprintf(stderr, "vtunerc: %s\n", err);
		ret = VT_EXIT_USAGE;
		goto out;
	}
	/* usage_error() exits 2: nothing but static memory is held yet */
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (O.foreground && O.daemonize)
		usage_error("--foreground and --daemon exclude each other");
	if (O.discover && (O.server || op->sink || op->have_tune ||
			   op->have_pids || O.daemonize))
		usage_error("--discover takes no other option");
	if (op->satip && O.server)
		usage_error("--satip and --server exclude each other");
	if (!op->satip && (op->satip_tcp || op->satip_ports[0] ||
			   op->satip_desc || op->satip_quirks))
		usage_error("the --satip-* options need --satip");
	if (op->satip && O.psk_file)
		usage_error("--psk-file is vtunerd's: SAT>IP has no key");
	if (O.cipher_set && !O.psk_file)
		usage_error("--cipher needs --psk-file (a session without a "
			    "key is not encrypted)");
	if (op->cuse && (O.device_set || op->sink))
		usage_error("--cuse excludes --device and --sink");
	if (op->cuse_adapter >= 0 && !op->cuse)
		usage_error("--cuse-adapter needs --cuse");
#ifndef HAVE_CUSE
	if (op->cuse)
		usage_error("--cuse: this vtunerc is built without libfuse3 "
			    "(libfuse3-dev)");
#endif
	if ((op->have_tune || op->have_pids) && !op->sink)
		usage_error("--tune and --pids need --sink (with the module, "
			    "applications tune)");
	if (check) {
		ret = check_files(&conf);
		goto out;
	}
	if (O.discover) {
		/* both kinds, in turn: 0 if either found one */
		ret = discover_list(VC_DISCOVER_SECONDS);
		if (discover_satip_list(VC_DISCOVER_SECONDS) > 0)
			ret = VT_EXIT_OK;
		goto out;
	}
	if (op->sink || op->cuse)
		op->device = NULL;
	/* CUSE needs root for /dev/cuse only: nobody serves the adapter */
	if (op->cuse && !op->user && geteuid() == 0)
		op->user = VC_CUSE_USER;
	if (op->user && !strcmp(op->user, "root"))
		op->user = NULL;

	if (O.psk_file) {
		if (load_psk(&psk) < 0)
			goto out;
		op->psk = &psk;
		op->seal_ocb = vtp_cipher_pref_ocb(O.cipher);
	}
	level = O.verbose >= 2 ? LOG_DEBUG : O.verbose ? LOG_INFO : LOG_NOTICE;
	/* before detaching, a failure is the command's: on stderr */
	vt_log_init("vtunerc", O.daemonize ? VT_LOG_STDERR :
		    vt_log_target_for(false), level);
	if (!O.server && !op->satip &&
	    discover_pick(op, VC_DISCOVER_SECONDS) < 0)
		goto out;
	if (O.satip_auto && discover_satip_pick(op, VC_DISCOVER_SECONDS) < 0)
		goto out;
	if (O.daemonize) {
		ready_fd = daemonize(&ret);
		if (ready_fd < 0) {
			if (ret < 0)
				ret = VT_EXIT_ERROR;
			goto out;	/* the parent, or no fork */
		}
		vt_log_init("vtunerc", VT_LOG_SYSLOG, level);
	}
	ret = client_run(op, ready);
out:
	free(op->pids);
	vtp_psk_wipe(&psk);
	vt_config_free(&conf);
	return ret;
}
