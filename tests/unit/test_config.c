// SPDX-License-Identifier: GPL-2.0
/*
 * test_config.c - the config file parser of the daemons (common/config.c).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/config.h"

static char err[512];

static void test_basic(void **state)
{
	struct vt_config c;

	(void)state;
	assert_int_equal(vt_config_parse(&c, "f.conf",
		"# comment\n"
		"\n"
		"  listen = *:3489  \n"
		"\tname=my server\n"
		"foreground\n"
		"sim-tuners =\t4\r\n"
		"   # indented comment\n", err, sizeof(err)), 0);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.items[0].key, "listen");
	assert_string_equal(c.items[0].value, "*:3489");
	assert_int_equal(c.items[0].line, 3);
	assert_string_equal(c.items[1].key, "name");
	assert_string_equal(c.items[1].value, "my server");
	assert_int_equal(c.items[1].line, 4);
	assert_string_equal(c.items[2].key, "foreground");
	assert_null(c.items[2].value);
	assert_string_equal(c.items[3].value, "4");
	assert_int_equal(c.items[3].line, 6);
	vt_config_free(&c);
}

static void test_quotes(void **state)
{
	struct vt_config c;

	(void)state;
	assert_int_equal(vt_config_parse(&c, "f",
		"name = \"  a \\\"b\\\" \\\\ # c \"\n"
		"empty = \"\"\n"
		"hash = a # not a comment\n", err, sizeof(err)), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.items[0].value, "  a \"b\" \\ # c ");
	assert_string_equal(c.items[1].value, "");
	assert_string_equal(c.items[2].value, "a # not a comment");
	vt_config_free(&c);
}

static void test_empty(void **state)
{
	struct vt_config c;

	(void)state;
	assert_int_equal(vt_config_parse(&c, "f", "", err, sizeof(err)), 0);
	assert_int_equal(c.n, 0);
	vt_config_free(&c);
	assert_int_equal(vt_config_parse(&c, "f", "\n\n# x\n", err,
					 sizeof(err)), 0);
	assert_int_equal(c.n, 0);
	vt_config_free(&c);
	/* no newline at the end */
	assert_int_equal(vt_config_parse(&c, "f", "a = b", err,
					 sizeof(err)), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.items[0].value, "b");
	vt_config_free(&c);
}

static void test_syntax_errors(void **state)
{
	struct vt_config c;

	(void)state;
	assert_int_equal(vt_config_parse(&c, "f.conf", "a = 1\n= 2\n", err,
					 sizeof(err)), -1);
	assert_string_equal(err, "f.conf:2: expected 'key = value', got '= 2'");
	assert_int_equal(vt_config_parse(&c, "f.conf", "listen *:1\n", err,
					 sizeof(err)), -1);
	assert_non_null(strstr(err, "f.conf:1: "));
	assert_int_equal(vt_config_parse(&c, "f.conf", "\n\nname = \"abc\n",
					 err, sizeof(err)), -1);
	assert_string_equal(err, "f.conf:3: name: unterminated or malformed "
			    "quoted value");
	assert_int_equal(vt_config_parse(&c, "f.conf", "name = \"a\" b\n",
					 err, sizeof(err)), -1);
	assert_int_equal(vt_config_parse(&c, "f.conf", "na.me = 1\n",
					 err, sizeof(err)), -1);
}

static void test_bool(void **state)
{
	(void)state;
	assert_int_equal(vt_config_bool("yes"), 1);
	assert_int_equal(vt_config_bool("TRUE"), 1);
	assert_int_equal(vt_config_bool("on"), 1);
	assert_int_equal(vt_config_bool("1"), 1);
	assert_int_equal(vt_config_bool("no"), 0);
	assert_int_equal(vt_config_bool("False"), 0);
	assert_int_equal(vt_config_bool("off"), 0);
	assert_int_equal(vt_config_bool("0"), 0);
	assert_int_equal(vt_config_bool("maybe"), -1);
	assert_int_equal(vt_config_bool(""), -1);
}

/* ---- vt_config_apply ---------------------------------------------------- */

static const struct option opts[] = {
	{ "listen", required_argument, NULL, 'l' },
	{ "foreground", no_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static const char *const reject[] = { "help", NULL };

struct seen {
	int n;
	int opt[8];
	char arg[8][64];
	char ctx[8][64];
	char msg[8][64];
};

static void handler(int opt, const char *arg, void *ctx)
{
	struct seen *s = ctx;

	s->opt[s->n] = opt;
	snprintf(s->arg[s->n], sizeof(s->arg[0]), "%s", arg ? arg : "(null)");
	snprintf(s->ctx[s->n], sizeof(s->ctx[0]), "%s", vt_config_context());
	snprintf(s->msg[s->n], sizeof(s->msg[0]), "%s",
		 vt_config_msg("--listen: bad"));
	s->n++;
}

static void test_apply(void **state)
{
	struct vt_config c;
	struct seen s = { 0 };

	(void)state;
	assert_int_equal(vt_config_parse(&c, "d.conf",
		"listen = a:1\n"
		"foreground = no\n"
		"verbose\n"
		"verbose = yes\n"
		"listen = b:2\n", err, sizeof(err)), 0);
	assert_int_equal(vt_config_apply(&c, opts, reject, handler, &s, err,
					 sizeof(err)), 0);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.opt[0], 'l');
	assert_string_equal(s.arg[0], "a:1");
	assert_string_equal(s.ctx[0], "d.conf:1: ");
	assert_string_equal(s.msg[0], "listen: bad");
	assert_int_equal(s.opt[1], 'v');
	assert_string_equal(s.arg[1], "(null)");
	assert_string_equal(s.ctx[1], "d.conf:3: ");
	assert_int_equal(s.opt[2], 'v');
	assert_int_equal(s.opt[3], 'l');
	assert_string_equal(s.arg[3], "b:2");
	assert_string_equal(s.ctx[3], "d.conf:5: ");
	/* outside vt_config_apply() */
	assert_string_equal(vt_config_context(), "");
	assert_string_equal(vt_config_msg("--listen: bad"), "--listen: bad");
	vt_config_free(&c);
}

static void apply_err(const char *text, const char *want)
{
	struct vt_config c;
	struct seen s = { 0 };

	assert_int_equal(vt_config_parse(&c, "e.conf", text, err,
					 sizeof(err)), 0);
	assert_int_equal(vt_config_apply(&c, opts, reject, handler, &s, err,
					 sizeof(err)), -1);
	assert_string_equal(err, want);
	vt_config_free(&c);
}

static void test_apply_errors(void **state)
{
	(void)state;
	apply_err("\nbogus = 1\n", "e.conf:2: bogus: unknown key");
	apply_err("help\n", "e.conf:1: help: not allowed in a file");
	apply_err("foreground = maybe\n",
		  "e.conf:1: foreground: 'maybe': expected yes or no");
	apply_err("listen\n",
		  "e.conf:1: listen: needs a value ('listen = VALUE')");
	/* a prefix of a long option is not a key */
	apply_err("list = a:1\n", "e.conf:1: list: unknown key");
}

static void test_read(void **state)
{
	char path[] = "/tmp/test_config.XXXXXX";
	struct vt_config c;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "listen = x:1\n", 13), 13);
	close(fd);
	assert_int_equal(vt_config_read(&c, path, err, sizeof(err)), 0);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.file, path);
	vt_config_free(&c);
	unlink(path);
	assert_int_equal(vt_config_read(&c, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file"));
	/* a file with a NUL byte */
	strcpy(path, "/tmp/test_config.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a = 1\n\0b\n", 9), 9);
	close(fd);
	assert_int_equal(vt_config_read(&c, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "NUL"));
	unlink(path);
}

/* ---- vt_config_cmdline -------------------------------------------------- */

static const struct option cl_opts[] = {
	{ "listen", required_argument, NULL, 'l' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "config", required_argument, NULL, 'c' },
	{ "check", no_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 }
};

static const char *const cl_reject[] = { "config", "check", NULL };
static struct seen cl_seen;

static void cl_handler(int opt, const char *arg, void *ctx)
{
	(void)ctx;
	handler(opt, arg, &cl_seen);
}

static int cmdline(struct vt_config *c, bool *check, ...)
{
	char *argv[16];
	va_list ap;
	int argc = 0;

	va_start(ap, check);
	argv[argc++] = "prog";
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	memset(&cl_seen, 0, sizeof(cl_seen));
	memset(c, 0, sizeof(*c));
	return vt_config_cmdline(c, argc, argv, "l:vc:n", cl_opts, cl_reject,
				 cl_handler, check, err, sizeof(err));
}

static void test_cmdline(void **state)
{
	char path[] = "/tmp/test_config.XXXXXX";
	const char *text = "listen = file:1\nverbose\n";
	struct vt_config c;
	bool check;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	/* the file first, then the command line in its order; the operand
	 * comes last (getopt permutes argv) */
	assert_int_equal(cmdline(&c, &check, "-l", "cmd:2", "-c", path, "op",
				 (char *)NULL), 5);
	assert_false(check);
	assert_string_equal(c.file, path);
	assert_int_equal(cl_seen.n, 4);
	assert_int_equal(cl_seen.opt[0], 'l');
	assert_string_equal(cl_seen.arg[0], "file:1");
	assert_int_equal(cl_seen.opt[1], 'v');
	assert_int_equal(cl_seen.opt[2], 'l');
	assert_string_equal(cl_seen.arg[2], "cmd:2");
	assert_int_equal(cl_seen.opt[3], 'c');
	vt_config_free(&c);
	/* --check, no file */
	assert_int_equal(cmdline(&c, &check, "--check", "-v", (char *)NULL), 3);
	assert_true(check);
	assert_null(c.file);
	assert_int_equal(cl_seen.n, 2);
	/* a file that names config inside, one that is missing */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "config = x\n", 11), 11);
	close(fd);
	assert_int_equal(cmdline(&c, &check, "--config", path, (char *)NULL), -1);
	assert_non_null(strstr(err, ":1: config: not allowed in a file"));
	vt_config_free(&c);
	unlink(path);
	assert_int_equal(cmdline(&c, &check, "-c", path, (char *)NULL), -1);
	assert_non_null(strstr(err, "No such file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_apply_errors),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_cmdline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
