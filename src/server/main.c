// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - vtunerd: command line, logging, backends, then the event loop.
 *
 * Exit status (common/daemon.h): 0 normal end, 1 runtime or setup error,
 * 2 usage or configuration error.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/config.h"
#include "common/daemon.h"
#include "common/log.h"
#include "common/privs.h"
#include "common/text.h"
#include "server/announce.h"
#include "server/satip.h"
#include "server/backend.h"
#include "server/channels.h"
#include "server/server.h"


#define PROG "vtunerd"
#define MAX_ADAPTERS VTD_MAX_TUNERS
#define SHORT_OPTS "l:a:m:n:c:fvhV"

enum {
	OPT_SIM = 0x100,
	OPT_SIM_TUNERS,
	OPT_SIM_CONFIG,
	OPT_TS_QUEUE,
	OPT_TIMEOUT,
	OPT_PRINT_TUNERS,
	OPT_SIM_DELSYS,
	OPT_DAEMON,
	OPT_NO_ANNOUNCE,
	OPT_PSK_FILE,
	OPT_MAX_PER_ADDR,
	OPT_SATIP,
	OPT_USER,
	OPT_CHECK,
	OPT_SATIP_CHANNELS,
	OPT_SATIP_TIMEOUT,
	OPT_CIPHER,
};

static const struct option long_opts[] = {
	{ "listen",		required_argument, NULL, 'l' },
	{ "adapter",		required_argument, NULL, 'a' },
	{ "sim",		no_argument,	   NULL, OPT_SIM },
	{ "sim-tuners",		required_argument, NULL, OPT_SIM_TUNERS },
	{ "sim-config",		required_argument, NULL, OPT_SIM_CONFIG },
	{ "sim-delsys",		required_argument, NULL, OPT_SIM_DELSYS },
	{ "max-clients",	required_argument, NULL, 'm' },
	{ "max-per-addr",	required_argument, NULL, OPT_MAX_PER_ADDR },
	{ "satip",		required_argument, NULL, OPT_SATIP },
	{ "satip-channels",	required_argument, NULL, OPT_SATIP_CHANNELS },
	{ "satip-timeout",	required_argument, NULL, OPT_SATIP_TIMEOUT },
	{ "psk-file",		required_argument, NULL, OPT_PSK_FILE },
	{ "cipher",		required_argument, NULL, OPT_CIPHER },
	{ "user",		required_argument, NULL, OPT_USER },
	{ "ts-queue",		required_argument, NULL, OPT_TS_QUEUE },
	{ "timeout",		required_argument, NULL, OPT_TIMEOUT },
	{ "name",		required_argument, NULL, 'n' },
	{ "no-announce",	no_argument,	   NULL, OPT_NO_ANNOUNCE },
	{ "print-tuners",	no_argument,	   NULL, OPT_PRINT_TUNERS },
	{ "foreground",		no_argument,	   NULL, 'f' },
	{ "daemon",		no_argument,	   NULL, OPT_DAEMON },
	{ "verbose",		no_argument,	   NULL, 'v' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ "version",		no_argument,	   NULL, 'V' },
	{ "config",		required_argument, NULL, 'c' },
	{ "check",		no_argument,	   NULL, OPT_CHECK },
	{ NULL, 0, NULL, 0 }
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTION]...\n"
"Serve local DVB tuners (or simulated ones) to vtunerc clients over TCP.\n"
"\n"
"Tuners:\n"
"  -a, --adapter N[:F]       serve /dev/dvb/adapterN/frontendF (F default 0);\n"
"                            repeatable\n"
"      --sim                 serve simulated tuners (the default without\n"
"                            --adapter)\n"
"      --sim-tuners N        number of simulated tuners (default 2)\n"
"      --sim-config FILE     add the transponders of FILE to the simulated\n"
"                            world\n"
"      --sim-delsys LIST     the simulated tuners' delivery systems, the\n"
"                            first the default, e.g. DVBT,DVBT2,DVBC for a\n"
"                            DVB-T/T2/C stick (default\n"
"                            DVBS2,DVBS,DVBT2,DVBT,DVBC)\n"
"      --print-tuners        list the tuners and exit\n"
"\n"
"Network:\n"
"  -l, --listen ADDR:PORT    listen there (default " VTD_DEFAULT_LISTEN ");\n"
"                            [ADDR6]:PORT for IPv6, *:PORT for every\n"
"                            address; repeatable\n"
"  -m, --max-clients N       at most N clients at once (default 16), once\n"
"                            through the handshake\n"
"      --max-per-addr N      at most N connections from one address in\n"
"                            the handshake; a new one closes the oldest\n"
"                            (default 8; 0: no limit)\n"
"      --ts-queue MIB        TS queue of a data connection, MiB (default 8)\n"
"      --timeout SEC         close a connection without a whole frame for\n"
"                            SEC seconds (default 30, 0: never); the\n"
"                            handshake must end within 10 s (or SEC)\n"
"      --satip ADDR[:PORT]   serve the tuners to SAT>IP clients too (RTSP,\n"
"                            RTP over UDP or TCP, HTTP; VLC, ffmpeg, VDR's\n"
"                            satip plugin...) on ADDR, port 554 by default\n"
"                            (below 1024: needs CAP_NET_BIND_SERVICE); off\n"
"                            by default\n"
"      --satip-channels FILE list the services of FILE, a channel file of\n"
"                            dvbv5-scan (-o FILE), in the SAT>IP channel\n"
"                            list /channels.m3u too\n"
"      --satip-timeout SEC   end a SAT>IP session that no request named for\n"
"                            SEC seconds (10..3600, default 60)\n"
"      --no-announce         do not announce the server on the network\n"
"                            (DNS-SD " VTD_SERVICE_TYPE " through Avahi)\n"
"  -n, --name NAME           server name sent to clients and announced\n"
"                            (default " PROG "; announced as\n"
"                            \"" PROG " on HOSTNAME\")\n"
"      --psk-file FILE       authenticate clients with the pre-shared key of\n"
"                            FILE (hex or base64, at least 32 bytes, not\n"
"                            accessible by others); clients without it are\n"
"                            refused; every frame of a session is then\n"
"                            encrypted and authenticated\n"
"      --cipher NAME         with --psk-file, whether to grant a client's\n"
"                            request for AES-256-OCB: auto (the default:\n"
"                            when this CPU has AES instructions),\n"
"                            aes-256-ocb (always) or chacha20-poly1305\n"
"                            (never: ChaCha20-Poly1305 for every session)\n"
"\n"
"Process:\n"
"      --user USER           drop root privileges to USER (and its groups)\n"
"                            once the sockets are bound; USER must be able\n"
"                            to open the DVB devices (group video)\n"
"  -f, --foreground          stay in the foreground: the default, accepted\n"
"                            for compatibility\n"
"      --daemon              detach once set up (the exit status says\n"
"                            whether it was), then log to syslog\n"
"  -v, --verbose             more messages; repeat for debug output\n"
"  -c, --config FILE         read options from FILE first (vtuner.conf(5)):\n"
"                            \"name = NAME\" is --name NAME\n"
"      --check               check the options, FILE and the key of\n"
"                            --psk-file (and the --sim-config with its\n"
"                            ts_files, the --satip-channels file), then\n"
"                            exit: 0 valid, 2 not\n"
"  -h, --help                show this help and exit\n"
"  -V, --version             show the version and exit\n"
"\n"
"Exit status: 0 normal end, 1 runtime or setup error, 2 usage or\n"
"configuration error.\n");
}

static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* inside a config file: "FILE:LINE: listen: ..." */
	fprintf(stderr, PROG ": %s%s\n", vt_config_context(),
		vt_config_msg(msg));
	fprintf(stderr, "Try '" PROG " --help' for more information.\n");
	exit(VT_EXIT_USAGE);
}

static unsigned long parse_num(const char *opt, const char *arg,
			       unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v < min || v > max)
		usage_error("%s: '%s': expected a number from %lu to %lu", opt,
			    arg, min, max);
	return v;
}

struct adapter_spec {
	unsigned int adapter, frontend;
};

static void parse_adapter(const char *arg, struct adapter_spec *a)
{
	unsigned long v, f = 0;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (end == arg || arg[0] == '-' || errno || v > 255)
		goto bad;
	if (*end == ':') {
		const char *fs = end + 1;

		f = strtoul(fs, &end, 10);
		if (end == fs || fs[0] == '-' || errno || f > 255)
			goto bad;
	}
	if (*end)
		goto bad;
	a->adapter = v;
	a->frontend = f;
	return;
bad:
	usage_error("--adapter: '%s': expected N or N:F (numbers 0..255)", arg);
}

static void print_tuners(const struct vtd_tuners *ts)
{
	unsigned int i, k;

	for (i = 0; i < ts->num; i++) {
		const struct vtd_tuner *t = ts->t[i];

		printf("%u\t%s\t%s\t%s\t", i, t->backend, t->where,
		       t->info.name);
		for (k = 0; k < t->info.num_delsys; k++)
			printf("%s%s", k ? "," : "",
			       vt_delsys_name(t->info.delsys[k]));
		printf("\n");
	}
}

/* The options, from the command line and the config file alike. */
static struct {
	struct adapter_spec adapters[MAX_ADAPTERS];
	unsigned int nadapters;
	struct vtd_sim_config sim;
	struct vtd_config cfg;
	bool use_sim, foreground, daemonize, list_only, announce;
	int verbose;
	const char *psk_file, *user;
	enum vtp_cipher_pref cipher;	/* --cipher */
	bool cipher_set;
} O = {
	.sim = { .tuners = 2, .config = NULL },
	.cfg = {
		.nlisten = 0,
		.max_clients = 16,
		.max_per_addr = 8,
		.timeout_s = 30,
		.ts_queue = 8u << 20,
		.name = PROG,
	},
	.announce = true,
};

/* One option; arg stays valid until exit (argv or the config file). */
static void handle_opt(int opt, const char *arg, void *unused)
{
	char host[256], port[16], msg[256];

	(void)unused;
	switch (opt) {
	case 'l':
		if (vtd_parse_listen(arg, host, sizeof(host), port,
				     sizeof(port)) < 0)
			usage_error("--listen: '%s': expected ADDR:PORT",
				    arg);
		if (O.cfg.nlisten >= VTD_MAX_LISTEN)
			usage_error("--listen: at most %d", VTD_MAX_LISTEN);
		O.cfg.listen[O.cfg.nlisten++] = arg;
		break;
	case 'a':
		if (O.nadapters >= MAX_ADAPTERS)
			usage_error("--adapter: at most %d",
				    MAX_ADAPTERS);
		parse_adapter(arg, &O.adapters[O.nadapters++]);
		break;
	case OPT_SIM:
		O.use_sim = true;
		break;
	case OPT_SIM_TUNERS:
		O.sim.tuners = parse_num("--sim-tuners", arg, 1,
				       VTD_MAX_TUNERS);
		break;
	case OPT_SIM_CONFIG:
		O.sim.config = arg;
		break;
	case OPT_SIM_DELSYS:
		if (vtd_sim_set_delsys(&O.sim, arg, msg, sizeof(msg)) < 0)
			usage_error("%s", msg);
		break;
	case 'm':
		O.cfg.max_clients = parse_num("--max-clients", arg, 1,
					    1024);
		break;
	case OPT_MAX_PER_ADDR:
		O.cfg.max_per_addr = parse_num("--max-per-addr", arg, 0,
					       65535);
		break;
	case OPT_SATIP:
		/* ADDR:PORT, or ADDR alone for port 554 */
		if (!*arg || (strchr(arg, ':') && arg[0] != '[' &&
			      vtd_parse_listen(arg, host, sizeof(host), port,
					       sizeof(port)) < 0) ||
		    (arg[0] == '[' && strstr(arg, "]:") &&
		     vtd_parse_listen(arg, host, sizeof(host), port,
				      sizeof(port)) < 0))
			usage_error("--satip: '%s': expected ADDR or ADDR:PORT",
				    arg);
		O.cfg.satip = arg;
		break;
	case OPT_SATIP_CHANNELS:
		if (!*arg)
			usage_error("--satip-channels needs a file name");
		O.cfg.satip_channels = arg;
		break;
	case OPT_SATIP_TIMEOUT:
		O.cfg.satip_timeout_s = parse_num("--satip-timeout", arg, 10,
						  3600);
		break;
	case OPT_PSK_FILE:
		O.psk_file = arg;
		break;
	case OPT_CIPHER:
		if (vtp_cipher_pref_parse(arg, &O.cipher) < 0)
			usage_error("--cipher: '%s': expected "
				    VTP_CIPHER_PREF_NAMES, arg);
		O.cipher_set = true;
		break;
	case OPT_USER:
		if (!*arg)
			usage_error("--user needs a user name");
		O.user = arg;
		break;
	case OPT_TS_QUEUE:
		O.cfg.ts_queue = parse_num("--ts-queue", arg, 1, 1024)
			       << 20;
		break;
	case OPT_TIMEOUT:
		O.cfg.timeout_s = parse_num("--timeout", arg, 0, 86400);
		break;
	case 'n':
		if (!*arg || strlen(arg) > VTP_PEER_NAME_MAX)
			usage_error("--name: '%s': expected 1 to %d bytes",
				    arg, VTP_PEER_NAME_MAX);
		/* the protocol carries no control characters (vtp.c) */
		if (!vt_text_ok(arg, strlen(arg)))
			usage_error("--name: '%s': control characters are not "
				    "allowed", arg);
		O.cfg.name = arg;
		break;
	case OPT_NO_ANNOUNCE:
		O.announce = false;
		break;
	case OPT_PRINT_TUNERS:
		O.list_only = true;
		break;
	case 'f':
		O.foreground = true;
		break;
	case OPT_DAEMON:
		O.daemonize = true;
		break;
	case 'v':
		O.verbose++;
		break;
	case 'h':
		usage(stdout);
		exit(VT_EXIT_OK);
	case 'c':
	case OPT_CHECK:
		break;		/* seen by main() */
	case 'V':
		printf(PROG " " VT_VERSION " (protocol %d..%d)\n",
		       VTP_VERSION_MIN, VTP_VERSION_MAX);
		exit(VT_EXIT_OK);
	default:
		fprintf(stderr, "Try '" PROG " --help' for more "
			"information.\n");
		exit(VT_EXIT_USAGE);
	}
}

static const char *const config_reject[] = {
	"config", "check", "help", "version", "print-tuners", NULL
};

/*
 * Every PID a dvb tuner carries is a descriptor of its demux device: take
 * every descriptor the hard limit allows (systemd's soft limit is 1024).
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		vt_debug("setrlimit(RLIMIT_NOFILE, %llu): %s",
			 (unsigned long long)rl.rlim_max, strerror(errno));
}

/* --check: the options are valid; now the files they name.  0 or 2. */
static int check_files(const struct vt_config *conf)
{
	static struct vtp_psk psk;
	char err[640];
	int ret = VT_EXIT_USAGE;

	if (O.use_sim && O.sim.config &&
	    vtd_sim_check(&O.sim, err, sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		goto out;
	}
	if (O.cfg.satip_channels &&
	    vtd_channels_load(O.cfg.satip_channels, NULL, NULL, err,
			      sizeof(err)) < 0) {
		fprintf(stderr, PROG ": --satip-channels %s\n", err);
		goto out;
	}
	if (O.psk_file) {
		snprintf(err, sizeof(err), "libsodium cannot be initialised");
		if (vtp_auth_init() < 0 ||
		    vtp_psk_load(O.psk_file, &psk, err, sizeof(err)) < 0) {
			fprintf(stderr, PROG ": --psk-file %s\n", err);
			goto out;
		}
	}
	printf(PROG ": %s: ok\n", conf->file ? conf->file : "options");
	ret = VT_EXIT_OK;
out:
	vtp_psk_wipe(&psk);
	return ret;
}

/* Everything main() acquires is released at its end, whatever the path. */
int main(int argc, char **argv)
{
	static struct vt_config conf;
	static struct vtd_tuners tuners;
	static struct vtp_psk psk;
	struct vtd_announce *ann = NULL;
	char svc_name[VTP_PEER_NAME_MAX + 1], err[640], host[256];
	struct vtd_server srv;
	struct vtd_config cfg;
	bool check;
	unsigned int i;
	int ret = VT_EXIT_ERROR;

	/* the file first: the command line overrides or adds to it */
	if (vt_config_cmdline(&conf, argc, argv, SHORT_OPTS, long_opts,
			      config_reject, handle_opt, &check, err,
			      sizeof(err)) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		ret = VT_EXIT_USAGE;
		goto out;
	}
	/* usage_error() exits 2: nothing but the static conf is held yet */
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (O.foreground && O.daemonize)
		usage_error("--foreground and --daemon exclude each other");
	if (O.sim.config && !O.use_sim && O.nadapters)
		usage_error("--sim-config needs --sim when --adapter is given");
	if (O.sim.ndelsys && !O.use_sim && O.nadapters)
		usage_error("--sim-delsys needs --sim when --adapter is given");
	if (O.cfg.satip_channels && !O.cfg.satip)
		usage_error("--satip-channels needs --satip");
	if (O.cipher_set && !O.psk_file)
		usage_error("--cipher needs --psk-file (a session without a "
			    "key is not encrypted)");
	if (!O.nadapters)
		O.use_sim = true;
	if (!O.cfg.nlisten)
		O.cfg.listen[O.cfg.nlisten++] = VTD_DEFAULT_LISTEN;
	if (check) {
		ret = check_files(&conf);
		goto out;
	}
	cfg = O.cfg;
	cfg.satip_announce = O.announce;

	/* --print-tuners is a command: its errors go to stderr */
	vt_log_init(PROG, O.list_only ? VT_LOG_STDERR :
		    vt_log_target_for(O.daemonize),
		    O.verbose >= 2 ? LOG_DEBUG + (O.verbose - 2) :
		    O.verbose ? LOG_INFO : LOG_NOTICE);

	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();

	if (O.psk_file && !O.list_only) {
		if (vtp_auth_init() < 0) {
			vt_err("libsodium cannot be initialised");
			goto out;
		}
		if (vtp_psk_load(O.psk_file, &psk, err, sizeof(err)) < 0) {
			/* syslog: the command says it too, before detaching */
			if (O.daemonize)
				fprintf(stderr, PROG ": --psk-file %s\n", err);
			vt_err("--psk-file %s", err);
			goto out;
		}
		cfg.psk = &psk;
		cfg.seal_ocb = vtp_cipher_pref_ocb(O.cipher);
		vt_info("clients must authenticate with the key of %s; "
			"sessions sealed with %s", O.psk_file,
			cfg.seal_ocb ? "AES-256-OCB if the client asks for it, "
			"else ChaCha20-Poly1305" : "ChaCha20-Poly1305");
	}
	for (i = 0; i < O.nadapters; i++)
		if (vtd_dvb_add(&tuners, O.adapters[i].adapter,
				O.adapters[i].frontend) < 0)
			goto out_tuners;
	O.sim.tuners_only = O.list_only;
	if (O.use_sim && vtd_sim_add(&tuners, &O.sim) < 0)
		goto out_tuners;
	if (O.list_only) {
		print_tuners(&tuners);
		ret = VT_EXIT_OK;
		goto out_tuners;
	}
	for (i = 0; i < tuners.num; i++) {
		struct vtd_tuner *t = tuners.t[i];

		vt_info("tuner %u: %s %s: %s", i, t->backend, t->where,
			t->info.name);
	}

	if (vtd_server_init(&srv, &cfg, &tuners) < 0 ||
	    (cfg.satip && vtd_satip_init(&srv, cfg.satip) < 0) ||
	    (O.user && vt_privs_drop(O.user) < 0))
		goto out_server;
	/* set up: the parent of --daemon exits 0 */
	if (O.daemonize && daemon(0, 0) < 0) {
		vt_err("daemon: %s", strerror(errno));
		goto out_server;
	}
	/* after the fork: a signalfd wakes epoll in the process that made it */
	if (vtd_server_signals(&srv) < 0)
		goto out_server;
	vt_notice(PROG " " VT_VERSION ": %u tuner%s", tuners.num,
		  tuners.num == 1 ? "" : "s");
	if (O.announce) {
		/* without --name: "vtunerd on HOST", unique on the network */
		snprintf(svc_name, sizeof(svc_name), "%s", cfg.name);
		if (!strcmp(cfg.name, PROG) && !gethostname(host, sizeof(host)))
			snprintf(svc_name, sizeof(svc_name), PROG " on %.*s",
				 (int)strcspn(host, "."), host);
		ann = vtd_announce_start(&srv, svc_name);
	}
	vt_notify("READY=1");
	ret = vtd_server_run(&srv) < 0 ? VT_EXIT_ERROR : VT_EXIT_OK;
	vtd_announce_stop(ann);
out_server:
	vtd_satip_fini(&srv);	/* its sessions and tuners, then the loop */
	vtd_server_fini(&srv);
out_tuners:
	vtd_tuners_free(&tuners);
out:
	vtp_psk_wipe(&psk);
	vt_config_free(&conf);
	return ret;
}
