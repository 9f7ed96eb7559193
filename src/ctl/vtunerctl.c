// SPDX-License-Identifier: GPL-2.0
/*
 * vtunerctl - show the virtual DVB adapters of the vtunerc module: the
 * kernel's view from /proc/vtunercN and, when vtunerc(8) writes one, the
 * client's from /run/vtunerc/vtunercN.status (server, state, tuning, lock,
 * signal, bit rate, errors).  Human output or --json.
 *
 * Exit status: 0 success, 1 no adapter (module not loaded), 2 usage error.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/dvb.h"

#define PROG		"vtunerctl"
#define MAX_KEYS	48
#define STALE_S		5	/* a status file older than that is stale */

struct kv {
	int n;
	char key[MAX_KEYS][32];
	char val[MAX_KEYS][1024];
};

static const char *proc_dir = "/proc";
static const char *run_dir = "/run/vtunerc";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [OPTION]... [N]...\n"
"Show the virtual DVB adapters of the vtunerc module (all, or /dev/vtunercN\n"
"for each N given): owner, name, delivery systems, status, counters and PIDs\n"
"from /proc/vtunercN, and the connection of vtunerc(8) from its status file.\n"
"\n"
"  -j, --json          machine-readable output, one JSON array\n"
"      --proc DIR      read DIR/vtunercN (default /proc)\n"
"      --run DIR       read DIR/vtunercN.status (default /run/vtunerc)\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show the version and exit\n"
"\n"
"Exit status: 0 success, 1 no adapter (is the module loaded?), 2 usage\n"
"error.\n");
}

/* Read "key: value" lines; returns false if the file cannot be opened. */
static bool read_kv(const char *path, struct kv *kv)
{
	char line[1200], *colon, *v;
	FILE *f = fopen(path, "re");

	kv->n = 0;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f) && kv->n < MAX_KEYS) {
		line[strcspn(line, "\n")] = 0;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = 0;
		for (v = colon + 1; *v == ' '; v++)
			;
		snprintf(kv->key[kv->n], sizeof(kv->key[0]), "%.31s", line);
		snprintf(kv->val[kv->n], sizeof(kv->val[0]), "%.1023s", v);
		kv->n++;
	}
	fclose(f);
	return true;
}

/* The value of key; "pids (3)" is found as "pids". */
static const char *get(const struct kv *kv, const char *key)
{
	size_t len = strlen(key);
	int i;

	for (i = 0; i < kv->n; i++)
		if (!strncmp(kv->key[i], key, len) &&
		    (!kv->key[i][len] || kv->key[i][len] == ' '))
			return kv->val[i];
	return NULL;
}

static const char *getd(const struct kv *kv, const char *key)
{
	const char *v = get(kv, key);

	return v ? v : "-";
}

/* fe_status bits, as dvb-fe-tool shows them */
static void status_words(unsigned long st, char *buf, size_t cap)
{
	static const char *const bits[] = {
		"signal", "carrier", "viterbi", "sync", "lock", "timedout",
		"reinit",
	};
	size_t i, len = 0;

	buf[0] = 0;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (st & (1ul << i))
			len += snprintf(buf + len, len < cap ? cap - len : 0,
					"%s%s", len ? " " : "", bits[i]);
	if (!buf[0])
		snprintf(buf, cap, "no signal");
}

/* A status file is live if its writer runs and it was updated lately. */
static bool client_live(const struct kv *c, long *age)
{
	const char *pid = get(c, "pid"), *upd = get(c, "updated");
	long p = pid ? atol(pid) : 0;

	*age = upd ? (long)(time(NULL) - atoll(upd)) : -1;
	if (p <= 0 || (kill(p, 0) < 0 && errno == ESRCH))
		return false;
	return *age >= 0 && *age <= STALE_S;
}

static void print_human(unsigned int idx, const struct kv *p,
			const struct kv *c, bool have_c)
{
	const char *v;
	char words[128], *end;
	unsigned long st;
	long age;
	bool live;

	printf("vtunerc%u: %s\n", idx, getd(p, "name"));
	printf("  adapter      /dev/dvb/adapter%s\n", getd(p, "adapter"));
	v = getd(p, "delsys");
	printf("  delsys      ");
	for (;;) {
		unsigned long d = strtoul(v, &end, 10);

		if (end == v)
			break;
		printf(" %s", vt_delsys_name(d));
		v = end;
	}
	printf("\n");
	printf("  owner        %s\n", getd(p, "owner"));
	v = getd(p, "status");
	st = strtoul(v, NULL, 16);
	status_words(st, words, sizeof(words));
	printf("  tuned        %s, status %s (%s)\n", getd(p, "tuned"), v,
	       words);
	printf("  traffic      %s bytes, %s packets, %s sessions\n",
	       getd(p, "bytes"), getd(p, "packets"), getd(p, "sessions"));
	printf("  errors       %s sync, %s bytes dropped, %s timeouts\n",
	       getd(p, "sync_errors"), getd(p, "dropped_bytes"),
	       getd(p, "timeouts"));
	printf("  pids         %s\n", *getd(p, "pids") ? getd(p, "pids") :
	       "none");
	if (!have_c) {
		printf("  client       no status file (vtunerc not running, "
		       "or without %s)\n", run_dir);
		return;
	}
	live = client_live(c, &age);
	printf("  client       %s, server %s (%s), pid %s%s\n",
	       getd(c, "state"), getd(c, "server"), getd(c, "server_name"),
	       getd(c, "pid"), live ? "" : " [stale]");
	if (!live)
		printf("               last updated %ld s ago\n", age);
	printf("  remote tuner %s\n", getd(c, "tuner"));
	printf("  tuning       %s\n", getd(c, "tuned"));
	printf("  lock         %s, signal %s, cnr %s\n", getd(c, "lock"),
	       getd(c, "signal"), getd(c, "cnr"));
	v = get(c, "bitrate");
	printf("  stream       %.2f Mbit/s, %s bytes, rtt %s ms\n",
	       v ? atof(v) / 1e6 : 0.0, getd(c, "bytes"), getd(c, "rtt_ms"));
	printf("  ts errors    %s continuity, %s sync, %s frames dropped, "
	       "%s packets lost\n", getd(c, "cc_errors"),
	       getd(c, "sync_errors"), getd(c, "drops"),
	       getd(c, "lost_ts"));
	v = get(c, "pids_error");
	if (v && strcmp(v, "-"))
		printf("  PID ERROR    %s\n", v);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

/* A number as a JSON number (decimal or 0x hex), "-" as null. */
static void json_val(const char *v)
{
	char *end;

	if (!strcmp(v, "-")) {
		printf("null");
		return;
	}
	if (*v && (isdigit((unsigned char)*v) || *v == '-')) {
		if (!strncmp(v, "0x", 2)) {
			unsigned long x = strtoul(v + 2, &end, 16);

			if (!*end && end != v + 2) {
				printf("%lu", x);
				return;
			}
		} else {
			strtod(v, &end);
			if (!*end) {
				fputs(v, stdout);
				return;
			}
		}
	}
	json_str(v);
}

static void json_list(const char *v, bool names)
{
	char *end;
	bool first = true;

	putchar('[');
	for (;;) {
		unsigned long d = strtoul(v, &end, 10);

		if (end == v)
			break;
		if (!first)
			putchar(',');
		first = false;
		if (names)
			json_str(vt_delsys_name(d));
		else
			printf("%lu", d);
		v = end;
	}
	putchar(']');
}

static void print_json(unsigned int idx, const struct kv *p,
		       const struct kv *c, bool have_c, bool first)
{
	const char *v;
	long age, pid;
	char comm[64];
	int i;

	printf("%s\n  {\"device\": \"/dev/vtunerc%u\", \"kernel\": {", first ?
	       "" : ",", idx);
	for (i = 0; i < p->n; i++) {
		const char *k = p->key[i];

		printf("%s\n    ", i ? "," : "");
		if (!strncmp(k, "pids", 4)) {
			printf("\"pids\": ");
			json_list(p->val[i], false);
		} else if (!strcmp(k, "delsys")) {
			printf("\"delsys\": ");
			json_list(p->val[i], true);
		} else if (!strcmp(k, "owner")) {
			printf("\"owner\": ");
			if (sscanf(p->val[i], "%ld %63s", &pid, comm) == 2) {
				printf("{\"pid\": %ld, \"comm\": ", pid);
				json_str(comm);
				putchar('}');
			} else {
				printf("null");
			}
		} else if (!strcmp(k, "tuned")) {
			printf("\"tuned\": %s", strcmp(p->val[i], "yes") ?
			       "false" : "true");
		} else {
			json_str(k);
			printf(": ");
			json_val(p->val[i]);
		}
	}
	v = get(p, "status");
	printf(",\n    \"lock\": %s\n  },\n  \"client\": ",
	       v && (strtoul(v, NULL, 16) & 0x10) ? "true" : "false");
	if (!have_c) {
		printf("null}");
		return;
	}
	printf("{\"live\": %s", client_live(c, &age) ? "true" : "false");
	for (i = 0; i < c->n; i++) {
		printf(",\n    ");
		json_str(c->key[i]);
		printf(": ");
		if (!strcmp(c->key[i], "lock") && strcmp(c->val[i], "-"))
			printf("%s", strcmp(c->val[i], "yes") ? "false" :
			       "true");
		else
			json_val(c->val[i]);
	}
	printf("\n  }}");
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "proc", required_argument, NULL, 'P' },
		{ "run", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static struct kv p, c;
	unsigned int idx[64], n = 0, i;
	char path[PATH_MAX];
	bool json = false, have_c;
	glob_t g;
	size_t k;
	int opt, ret = 0;

	while ((opt = getopt_long(argc, argv, "jhV", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'P':
			proc_dir = optarg;
			break;
		case 'R':
			run_dir = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf(PROG " " VT_VERSION "\n");
			return 0;
		default:
			fprintf(stderr, "Try '" PROG " --help' for more "
				"information.\n");
			return 2;
		}
	}
	for (; optind < argc && n < 64; optind++) {
		char *end;
		unsigned long v = strtoul(argv[optind], &end, 10);

		if (!*argv[optind] || *end || v > 255) {
			fprintf(stderr, PROG ": '%s': expected an adapter "
				"number N (of /dev/vtunercN)\n", argv[optind]);
			return 2;
		}
		idx[n++] = v;
	}
	if (!n) {
		snprintf(path, sizeof(path), "%s/vtunerc[0-9]*", proc_dir);
		if (glob(path, 0, NULL, &g) == 0) {
			for (k = 0; k < g.gl_pathc && n < 64; k++) {
				const char *b = strrchr(g.gl_pathv[k], '/');

				idx[n++] = atoi(b + strlen("/vtunerc"));
			}
			globfree(&g);
		}
		if (!n) {
			fprintf(stderr, PROG ": no %s/vtunerc* (is the vtunerc "
				"module loaded? modprobe vtunerc)\n", proc_dir);
			if (json)
				printf("[]\n");
			return 1;
		}
		qsort(idx, n, sizeof(idx[0]), cmp_uint);
	}
	if (json)
		printf("[");
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/vtunerc%u", proc_dir, idx[i]);
		if (!read_kv(path, &p)) {
			fprintf(stderr, PROG ": %s: %s\n", path,
				strerror(errno));
			ret = 1;
			continue;
		}
		snprintf(path, sizeof(path), "%s/vtunerc%u.status", run_dir,
			 idx[i]);
		have_c = read_kv(path, &c);
		if (json) {
			print_json(idx[i], &p, &c, have_c, i == 0);
		} else {
			if (i)
				printf("\n");
			print_human(idx[i], &p, &c, have_c);
		}
	}
	if (json)
		printf("\n]\n");
	return ret;
}
