/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.h - the configuration files of the vtuner daemons (vtuner.conf(5)).
 *
 * One setting a line, "key = value", where every key is the long name of a
 * command-line option of the daemon ("listen = *:5911" is --listen *:5911).
 * Blank lines and lines whose first non-blank character is '#' are ignored.
 * Blanks around key and value are dropped; a value may be written in double
 * quotes to keep blanks or to be empty (\" and \\ inside quotes).  An
 * option without an argument takes yes/no (true/false, on/off, 1/0), or no
 * value at all: "foreground" alone is "foreground = yes".  A key may be
 * repeated where its option may be.
 *
 * The parser yields (key, value, line) items; vt_config_apply() maps them
 * onto a getopt_long() table and calls the daemon's option handler, the same
 * one its argv loop uses, so that a file and a command line mean the same.
 */
#ifndef VT_CONFIG_H
#define VT_CONFIG_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

struct vt_config_item {
	const char *key;
	const char *value;	/* NULL: key without '=' */
	unsigned int line;
};

struct vt_config {
	char *file;		/* name used in messages */
	char *buf;		/* the text; items point into it */
	struct vt_config_item *items;
	size_t n;
};

/*
 * Parse text (NUL-terminated) named file into c.  Returns 0, or -1 with a
 * message "FILE:LINE: ..." in err.  The items stay valid until
 * vt_config_free(c).
 */
int vt_config_parse(struct vt_config *c, const char *file, const char *text,
		    char *err, size_t errlen);

/* Read and parse the file at path; as vt_config_parse(). */
int vt_config_read(struct vt_config *c, const char *path, char *err,
		   size_t errlen);

void vt_config_free(struct vt_config *c);

/* "yes"/"true"/"on"/"1" -> 1, "no"/"false"/"off"/"0" -> 0, else -1. */
int vt_config_bool(const char *s);

/*
 * The daemon's option handler: opt is the val of the getopt_long() entry
 * (as getopt_long() returns it), arg its argument (NULL without one).
 */
typedef void (*vt_config_handler)(int opt, const char *arg, void *ctx);

/*
 * Feed every item of c to fn, in file order, through opts (a getopt_long()
 * table ending in a zero entry).  Keys named in reject (a NULL-terminated
 * list, or NULL) are refused, as are unknown keys; an option without an
 * argument set to "no" is skipped.  While fn runs, vt_config_context()
 * returns "FILE:LINE: ", for the handler's error messages.  Returns 0, or
 * -1 with a message "FILE:LINE: ..." in err.
 */
int vt_config_apply(const struct vt_config *c, const struct option *opts,
		    const char *const *reject, vt_config_handler fn, void *ctx,
		    char *err, size_t errlen);

/*
 * A daemon's whole command line: a first pass over argv finds the options
 * named "config" (the file) and "check" in opts (*check is set for the
 * latter); the file, when one is named, is read into conf and applied
 * first, then argv in order, both through fn, so that the command line
 * overrides or adds to the file.  conf must outlive the handler's use of
 * its arguments.  Returns optind (the first operand), or -1 with a message
 * "FILE:LINE: ..." in err.
 */
int vt_config_cmdline(struct vt_config *conf, int argc, char **argv,
		      const char *shortopts, const struct option *opts,
		      const char *const *reject, vt_config_handler fn,
		      bool *check, char *err, size_t errlen);

/* "FILE:LINE: " while vt_config_apply() calls the handler, else "". */
const char *vt_config_context(void);

/*
 * A handler's error message as the daemon prints it: a message about an
 * option ("--listen: 'foo': expected ADDR:PORT") names the key inside a
 * file ("listen: 'foo': ...").  Returns msg without its leading "--" while
 * vt_config_apply() runs, else msg.
 */
const char *vt_config_msg(const char *msg);

#endif
