/*
 * vt-tscheck - MPEG transport stream checker for the vtuner tests.
 *
 *   vt-tscheck [--pid P]... [--pids LIST] [-q] FILE
 *	Per PID: packet count, continuity errors, duplicates, discontinuity
 *	indicators, TEI; sync errors and trailing bytes for the file.
 *	A PID with continuity errors gets a "ccerr" line: the packet index
 *	of its first error, its counter and the counter before it.
 *	Exit 0: no sync errors, no trailing partial packet and no continuity
 *	error on the checked PIDs (all PIDs, or those given); 1: errors found;
 *	2: usage or I/O error.
 *
 *   vt-tscheck --list FILE
 *	One line per packet: packet=I offset=O pid=P cc=C afc=A pusi=U.
 *
 *   vt-tscheck --compare A B [--pids LIST]
 *	Exit 0 if the packets of the PIDs (default: all but 0x1fff) are the
 *	same, byte for byte and in the same order, in both files; 1 if not.
 *
 * "-" reads standard input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#define TS 188
#define NPIDS 8192

static const char *progname = "vt-tscheck";

struct pidstat {
	uint64_t packets;
	uint64_t cc_errors;
	uint64_t duplicates;
	uint64_t discontinuities;
	uint64_t tei;
	uint64_t scrambled;
	int last_cc;		/* -1: none yet */
	int dup_run;		/* duplicates seen of the current packet */
	int64_t first_err;	/* packet index of the first CC error, -1 */
	int first_err_cc;	/* its counter */
	int first_err_last;	/* and the counter before it */
};

struct tsfile {
	const char *name;
	uint8_t *data;
	size_t len;
	/* offsets of the packets found */
	size_t *pkt;
	size_t npkt;
	uint64_t sync_errors;
	uint64_t dropped;	/* bytes skipped while resynchronising */
	size_t trailing;	/* incomplete packet at the end */
};

static int selected[NPIDS];
static int nselected;

static int read_all(const char *name, uint8_t **data, size_t *len)
{
	int fd = strcmp(name, "-") ? open(name, O_RDONLY) : 0;
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf;

	if (fd < 0) {
		fprintf(stderr, "%s: %s: open: %s\n", progname, name, strerror(errno));
		return -1;
	}
	buf = malloc(cap);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return -1;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);

			if (!nb) {
				fprintf(stderr, "%s: out of memory\n", progname);
				free(buf);
				return -1;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: %s: read: %s\n", progname, name, strerror(errno));
			free(buf);
			return -1;
		}
		if (r == 0)
			break;
		n += r;
	}
	if (fd)
		close(fd);
	*data = buf;
	*len = n;
	return 0;
}

/* Find the packets: a packet starts at a 0x47 followed (if the file is
 * long enough) by another 0x47 one packet later. */
static int split_packets(struct tsfile *f)
{
	size_t pos = 0, cap = f->len / TS + 1;
	int in_sync = 1;

	f->pkt = malloc(cap * sizeof(*f->pkt));
	if (!f->pkt)
		return -1;
	f->npkt = 0;
	while (pos + TS <= f->len) {
		if (f->data[pos] == 0x47 &&
		    (in_sync || pos + TS >= f->len || f->data[pos + TS] == 0x47)) {
			f->pkt[f->npkt++] = pos;
			pos += TS;
			in_sync = 1;
			continue;
		}
		if (in_sync)
			f->sync_errors++;
		in_sync = 0;
		pos++;
		f->dropped++;
	}
	f->trailing = f->len - pos;
	return 0;
}

static int load(struct tsfile *f, const char *name)
{
	memset(f, 0, sizeof(*f));
	f->name = name;
	if (read_all(name, &f->data, &f->len) < 0)
		return -1;
	if (split_packets(f) < 0) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return -1;
	}
	return 0;
}

static inline int pkt_pid(const uint8_t *p)
{
	return ((p[1] & 0x1f) << 8) | p[2];
}

static void cc_error(struct pidstat *s, size_t idx, int cc)
{
	if (!s->cc_errors) {
		s->first_err = (int64_t)idx;
		s->first_err_cc = cc;
		s->first_err_last = s->last_cc;
	}
	s->cc_errors++;
}

static void check_cc(struct pidstat *s, const uint8_t *p, const uint8_t *prev,
		     size_t idx)
{
	int afc = (p[3] >> 4) & 3;
	int cc = p[3] & 0x0f;
	int has_payload = afc & 1;
	int disc = 0;

	if (p[1] & 0x80)
		s->tei++;
	if (p[3] & 0xc0)
		s->scrambled++;
	if ((afc & 2) && p[4] > 0 && (p[5] & 0x80)) {
		disc = 1;
		s->discontinuities++;
	}
	if (afc == 0)		/* reserved: no payload, ignore */
		return;
	if (disc) {
		s->last_cc = has_payload ? cc : -1;
		s->dup_run = 0;
		return;
	}
	if (!has_payload) {
		/* adaptation field only: the counter does not count these
		 * (it should stay unchanged, but real muxers differ) */
		return;
	}
	if (s->last_cc < 0) {
		s->last_cc = cc;
		return;
	}
	if (cc == s->last_cc) {
		/* a duplicate packet is allowed once (ISO 13818-1 2.4.3.3) */
		if (s->dup_run == 0 && prev && memcmp(prev, p, TS) == 0) {
			s->duplicates++;
			s->dup_run = 1;
		} else {
			cc_error(s, idx, cc);
		}
		return;
	}
	if (cc != ((s->last_cc + 1) & 0x0f))
		cc_error(s, idx, cc);
	s->last_cc = cc;
	s->dup_run = 0;
}

static int parse_pid_list(const char *s)
{
	char *buf = strdup(s), *tok, *save = NULL;

	if (!buf)
		return -1;
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		char *end;
		long v = strtol(tok, &end, 0);

		if (*end || v < 0 || v >= NPIDS) {
			fprintf(stderr, "%s: bad PID '%s'\n", progname, tok);
			free(buf);
			return -1;
		}
		if (!selected[v])
			nselected++;
		selected[v] = 1;
	}
	free(buf);
	return 0;
}

static int do_list(const char *name)
{
	struct tsfile f;
	size_t i;

	if (load(&f, name) < 0)
		return 2;
	for (i = 0; i < f.npkt; i++) {
		const uint8_t *p = f.data + f.pkt[i];

		printf("packet=%zu offset=%zu pid=%d cc=%d afc=%d pusi=%d\n", i, f.pkt[i],
		       pkt_pid(p), p[3] & 0x0f, (p[3] >> 4) & 3, (p[1] >> 6) & 1);
	}
	return 0;
}

static int do_check(const char *name, int quiet)
{
	static struct pidstat st[NPIDS];
	static const uint8_t *lastpkt[NPIDS];
	struct tsfile f;
	uint64_t cc_err = 0, npids = 0, checked_pkts = 0;
	size_t i;
	int pid;

	if (load(&f, name) < 0)
		return 2;
	for (pid = 0; pid < NPIDS; pid++) {
		st[pid].last_cc = -1;
		st[pid].first_err = -1;
	}
	for (i = 0; i < f.npkt; i++) {
		const uint8_t *p = f.data + f.pkt[i];

		pid = pkt_pid(p);
		st[pid].packets++;
		if (pid != 0x1fff)
			check_cc(&st[pid], p, lastpkt[pid], i);
		lastpkt[pid] = p;
	}
	for (pid = 0; pid < NPIDS; pid++) {
		struct pidstat *s = &st[pid];

		if (nselected ? !selected[pid] : !s->packets)
			continue;
		npids += s->packets != 0;
		cc_err += s->cc_errors;
		checked_pkts += s->packets;
		if (!quiet)
			printf("pid=%d packets=%llu cc_errors=%llu duplicates=%llu "
			       "discontinuities=%llu tei=%llu scrambled=%llu\n", pid,
			       (unsigned long long)s->packets,
			       (unsigned long long)s->cc_errors,
			       (unsigned long long)s->duplicates,
			       (unsigned long long)s->discontinuities,
			       (unsigned long long)s->tei,
			       (unsigned long long)s->scrambled);
		if (!quiet && s->first_err >= 0)
			printf("ccerr pid=%d packet=%lld of=%zu cc=%d after=%d\n",
			       pid, (long long)s->first_err, f.npkt,
			       s->first_err_cc, s->first_err_last);
	}
	printf("total packets=%zu checked_packets=%llu pids=%llu cc_errors=%llu "
	       "sync_errors=%llu dropped_bytes=%llu trailing_bytes=%zu\n",
	       f.npkt, (unsigned long long)checked_pkts,
	       (unsigned long long)npids, (unsigned long long)cc_err,
	       (unsigned long long)f.sync_errors, (unsigned long long)f.dropped,
	       f.trailing);
	return (cc_err || f.sync_errors || f.trailing) ? 1 : 0;
}

static int want_pid(int pid)
{
	return nselected ? selected[pid] : pid != 0x1fff;
}

static int do_compare(const char *a, const char *b)
{
	struct tsfile fa, fb;
	size_t ia = 0, ib = 0, n = 0;
	uint64_t ca = 0, cb = 0;

	if (load(&fa, a) < 0 || load(&fb, b) < 0)
		return 2;
	for (size_t i = 0; i < fa.npkt; i++)
		ca += want_pid(pkt_pid(fa.data + fa.pkt[i]));
	for (size_t i = 0; i < fb.npkt; i++)
		cb += want_pid(pkt_pid(fb.data + fb.pkt[i]));
	for (;;) {
		const uint8_t *pa = NULL, *pb = NULL;

		while (ia < fa.npkt && !want_pid(pkt_pid(fa.data + fa.pkt[ia])))
			ia++;
		while (ib < fb.npkt && !want_pid(pkt_pid(fb.data + fb.pkt[ib])))
			ib++;
		if (ia < fa.npkt)
			pa = fa.data + fa.pkt[ia];
		if (ib < fb.npkt)
			pb = fb.data + fb.pkt[ib];
		if (!pa && !pb)
			break;
		if (!pa || !pb || memcmp(pa, pb, TS)) {
			printf("compare: differ at selected packet #%zu: A %s (pid %d, file packet %zu), "
			       "B %s (pid %d, file packet %zu); A has %llu, B has %llu selected packets\n",
			       n, pa ? "packet" : "EOF", pa ? pkt_pid(pa) : -1, ia,
			       pb ? "packet" : "EOF", pb ? pkt_pid(pb) : -1, ib,
			       (unsigned long long)ca, (unsigned long long)cb);
			return 1;
		}
		ia++;
		ib++;
		n++;
	}
	printf("compare: identical, %zu packets\n", n);
	return 0;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [--pid P]... [--pids P,P,...] [-q] FILE\n"
		"       %s --compare A B [--pids P,P,...]\n"
		"  check: per-PID packet count, continuity errors (adaptation-only\n"
		"         packets, one duplicate and discontinuity_indicator respected),\n"
		"         sync errors, trailing partial packet.\n"
		"         exit 0 clean, 1 errors on the checked PIDs, 2 usage/IO error\n"
		"  compare: exit 0 if the packets of the PIDs (default all but 0x1fff)\n"
		"         are identical and in the same order in A and B, else 1\n"
		"  -q, --quiet   only print the total line\n"
		"  --list        print one line per packet (index, offset, pid, cc)\n",
		progname, progname);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "pids", required_argument, NULL, 'p' },
		{ "compare", no_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int compare = 0, quiet = 0, list = 0, c;

	while ((c = getopt_long(argc, argv, "p:cqh", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_pid_list(optarg) < 0)
				return 2;
			break;
		case 'c':
			compare = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'L':
			list = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (compare) {
		if (argc - optind != 2) {
			usage(stderr);
			return 2;
		}
		return do_compare(argv[optind], argv[optind + 1]);
	}
	if (argc - optind != 1) {
		usage(stderr);
		return 2;
	}
	return list ? do_list(argv[optind]) : do_check(argv[optind], quiet);
}
