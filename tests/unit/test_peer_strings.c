// SPDX-License-Identifier: GPL-2.0
/*
 * test_peer_strings.c - what vtunerc writes of the strings a server sends
 * (issue 25, item 6): the status file (status.c) that vtunerctl(8) reads
 * line by line, the log (common/log.c), the adapter's name (ctrl.c); and
 * the unit of the adapter's frequency limits (ctrl.c).  The control
 * device is ioctl() wrapped (-Wl,--wrap=ioctl): its calls are recorded.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/dvb/frontend.h>

#include "vtuner.h"
#include "client/ctrl.h"
#include "client/status.h"
#include "common/log.h"

/* ---- the control device ------------------------------------------------- */

int __wrap_ioctl(int fd, unsigned long req, ...);

static char set_name[VTUNER_NAME_LEN];
static struct dvb_frontend_info set_fe_info;
static int fe_info_calls;

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	(void)fd;
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == VTUNER_SET_NAME) {
		memcpy(set_name, arg, sizeof(set_name));
	} else if (req == VTUNER_SET_FE_INFO) {
		set_fe_info = *(const struct dvb_frontend_info *)arg;
		fe_info_calls++;
	}
	return 0;
}

/* true if s has a byte below 0x20 or 0x7f (the end of a line excepted) */
static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((*s != '\n' && (unsigned char)*s < 0x20) || *s == 0x7f)
			return true;
	return false;
}

static char *slurp(const char *path)
{
	static char text[8192];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	assert_true(n >= 0);
	text[n] = 0;
	return text;
}

/* Lines of text starting with prefix. */
static int count_lines(const char *text, const char *prefix)
{
	const char *l = text;
	int n = 0;

	while (l && *l) {
		if (!strncmp(l, prefix, strlen(prefix)))
			n++;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return n;
}

/* ---- the status file ---------------------------------------------------- */

static void test_status_file(void **state)
{
	char path[] = "/tmp/vt-peer-strings.XXXXXX";
	struct vc_status s = {
		.device = "/dev/vtunerc0",
		.server = "10.0.0.1:5911",
		.server_name = "evil\nlock: yes\nfe_status: 0x1f",
		.state = "ready",
		.tuner = 0,
		.tuner_name = "tuner\r\nsignal: 100%\x1b[2J",
		.pids_error = "PIDs 256\nbitrate: 99",
	};
	const char *text;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_true(vc_status_init(path, NULL));
	vc_status_write(&s);
	text = slurp(path);
	unlink(path);
	/* one line of each key, none made up by a server's string */
	assert_int_equal(count_lines(text, "lock: "), 1);
	assert_int_equal(count_lines(text, "lock: -"), 1);
	assert_int_equal(count_lines(text, "fe_status: "), 1);
	assert_int_equal(count_lines(text, "signal: "), 1);
	assert_int_equal(count_lines(text, "bitrate: "), 1);
	assert_false(has_control(text));
	/* the strings are there, escaped */
	assert_non_null(strstr(text, "server_name: evil\\x0alock: yes\\x0afe_"));
	assert_non_null(strstr(text, "tuner: 0 tuner\\x0d\\x0asignal: 100%\\x1b[2J\n"));
	assert_non_null(strstr(text, "pids_error: PIDs 256\\x0abitrate: 99\n"));
}

/* ---- the log ------------------------------------------------------------ */

static void test_log(void **state)
{
	char path[] = "/tmp/vt-peer-log.XXXXXX";
	const char *text;
	int fd, saved;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	close(fd);
	vt_log_init("test", VT_LOG_STDERR, LOG_INFO);
	vt_info("server '%s'", "a\n12:00:00.000 vtunerc: forged\x1b]0;x\x07\xc2\x9b" "2J");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	text = slurp(path);
	unlink(path);
	/* one line, the string escaped in it; UTF-8 C1 controls too */
	assert_int_equal(count_lines(text, ""), 1);
	assert_false(has_control(text));
	assert_non_null(strstr(text, "server 'a\\x0a12:00:00.000 vtunerc: "
			       "forged\\x1b]0;x\\x07\\xc2\\x9b2J'\n"));
}

/* ---- the adapter -------------------------------------------------------- */

static void test_adapter_name(void **state)
{
	struct vtp_tuner t = {
		.num_delsys = 1, .delsys = { SYS_DVBT },
		.name = "remote",
	};
	struct vc_ctrl c = { .fd = 3, .path = "/dev/vtunerc0" };

	(void)state;
	assert_int_equal(ctrl_configure(&c, &t, "tuner\nname: x @ host\x1b"),
			 0);
	assert_false(has_control(set_name));
	assert_string_equal(set_name, "tuner\\x0aname: x @ host\\x1b");
}

/*
 * The unit of the limits (kHz for satellite) is that of the first
 * delivery system kept, not of the first one the server named: here one
 * this build cannot describe, skipped.
 */
static void test_fe_info_unit(void **state)
{
	struct vtp_tuner t = {
		.num_delsys = 3, .delsys = { 250, SYS_DVBS2, SYS_DVBS },
		.name = "sat", .freq_min = 950000, .freq_max = 2150000,
		.freq_step = 1000, .srate_min = 1000000, .srate_max = 45000000,
	};
	struct vc_ctrl c = { .fd = 3, .path = "/dev/vtunerc0" };

	(void)state;
	fe_info_calls = 0;
	assert_int_equal(ctrl_configure(&c, &t, "sat @ host"), 0);
	assert_int_equal(fe_info_calls, 1);
	assert_int_equal(set_fe_info.type, FE_QPSK);
	assert_int_equal(set_fe_info.frequency_min, 950000);
	/* and a terrestrial one after an unknown one: Hz */
	t.delsys[1] = SYS_DVBT2;
	t.delsys[2] = SYS_DVBT;
	t.freq_min = 174000000;
	t.freq_max = 862000000;
	assert_int_equal(ctrl_configure(&c, &t, "ter @ host"), 0);
	assert_int_equal(set_fe_info.type, FE_OFDM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_file),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_adapter_name),
		cmocka_unit_test(test_fe_info_unit),
	};

	vt_log_init("test", VT_LOG_STDERR, LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
