// SPDX-License-Identifier: GPL-2.0
/*
 * vt-fecall - make one frontend call and report its result and duration,
 * for tests of the timeouts and error paths of the virtual adapter.
 *
 *   vt-fecall [-a ADAPTER] CALL [ARG...]
 *   CALL: status | tone on|off | voltage 13|18|off | highvoltage 0|1 |
 *         burst a|b | diseqc BYTE... | stats |
 *         v5sec 13|18|off on|off (DTV_VOLTAGE and DTV_TONE in one
 *         FE_SET_PROPERTY, as DVBv5 applications set them) |
 *         delsys dvbs|dvbs2|dvbt|dvbt2|dvbc (DTV_DELIVERY_SYSTEM alone:
 *         the system FE_GET_INFO and DVBv3 calls follow)
 * Prints "CALL rc=0 errno=0 (Success) ms=N [value]" and exits 0 when the
 * call succeeded, 1 when it failed, 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/dvb/frontend.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void usage(void)
{
	fprintf(stderr, "usage: vt-fecall [-a ADAPTER] status | tone on|off | "
		"voltage 13|18|off | highvoltage 0|1 | burst a|b | "
		"diseqc BYTE... | stats | v5sec 13|18|off on|off | "
		"delsys dvbs|dvbs2|dvbt|dvbt2|dvbc\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct dvb_diseqc_master_cmd cmd = { .msg_len = 0 };
	struct dtv_property prop[2] = { { 0 } };
	struct dtv_properties props = { .num = 2, .props = prop };
	char path[64], extra[64] = "";
	unsigned long req;
	long arg = 0;
	void *argp = NULL;
	enum fe_status st = 0;
	int adapter = 0, fd, rc, err, i;
	double t0;
	const char *call;

	if (argc > 2 && !strcmp(argv[1], "-a")) {
		adapter = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		usage();
	call = argv[1];
	if (!strcmp(call, "status")) {
		req = FE_READ_STATUS;
		argp = &st;
	} else if (!strcmp(call, "tone") && argc == 3) {
		req = FE_SET_TONE;
		arg = !strcmp(argv[2], "on") ? SEC_TONE_ON : SEC_TONE_OFF;
	} else if (!strcmp(call, "voltage") && argc == 3) {
		req = FE_SET_VOLTAGE;
		arg = !strcmp(argv[2], "13") ? SEC_VOLTAGE_13 :
		      !strcmp(argv[2], "18") ? SEC_VOLTAGE_18 : SEC_VOLTAGE_OFF;
	} else if (!strcmp(call, "highvoltage") && argc == 3) {
		req = FE_ENABLE_HIGH_LNB_VOLTAGE;
		arg = atoi(argv[2]);
	} else if (!strcmp(call, "burst") && argc == 3) {
		req = FE_DISEQC_SEND_BURST;
		arg = !strcmp(argv[2], "b") ? SEC_MINI_B : SEC_MINI_A;
	} else if (!strcmp(call, "diseqc") && argc >= 3 && argc <= 8) {
		req = FE_DISEQC_SEND_MASTER_CMD;
		for (i = 2; i < argc; i++)
			cmd.msg[cmd.msg_len++] = strtoul(argv[i], NULL, 16);
		argp = &cmd;
	} else if (!strcmp(call, "v5sec") && argc == 4) {
		req = FE_SET_PROPERTY;
		prop[0].cmd = DTV_VOLTAGE;
		prop[0].u.data = !strcmp(argv[2], "13") ? SEC_VOLTAGE_13 :
				 !strcmp(argv[2], "18") ? SEC_VOLTAGE_18 :
							  SEC_VOLTAGE_OFF;
		prop[1].cmd = DTV_TONE;
		prop[1].u.data = !strcmp(argv[3], "on") ? SEC_TONE_ON :
							  SEC_TONE_OFF;
		argp = &props;
	} else if (!strcmp(call, "delsys") && argc == 3) {
		static const struct { const char *name; unsigned int sys; } ds[] = {
			{ "dvbs", SYS_DVBS }, { "dvbs2", SYS_DVBS2 },
			{ "dvbt", SYS_DVBT }, { "dvbt2", SYS_DVBT2 },
			{ "dvbc", SYS_DVBC_ANNEX_A },
		};

		req = FE_SET_PROPERTY;
		props.num = 1;
		prop[0].cmd = DTV_DELIVERY_SYSTEM;
		for (i = 0; i < (int)(sizeof(ds) / sizeof(ds[0])); i++)
			if (!strcmp(argv[2], ds[i].name))
				break;
		if (i == (int)(sizeof(ds) / sizeof(ds[0])))
			usage();
		prop[0].u.data = ds[i].sys;
		argp = &props;
	} else if (!strcmp(call, "stats")) {
		req = FE_GET_PROPERTY;
		prop[0].cmd = DTV_STAT_SIGNAL_STRENGTH;
		prop[1].cmd = DTV_STAT_CNR;
		argp = &props;
	} else {
		usage();
	}

	snprintf(path, sizeof(path), "/dev/dvb/adapter%d/frontend0", adapter);
	/* reads need no write access (dvb-core): beside an application */
	fd = open(path, req == FE_READ_STATUS || req == FE_GET_PROPERTY ?
		  O_RDONLY : O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "vt-fecall: %s: %s\n", path, strerror(errno));
		return 1;
	}
	t0 = now_ms();
	rc = ioctl(fd, req, argp ? (unsigned long)argp : (unsigned long)arg);
	err = rc < 0 ? errno : 0;
	if (!rc && req == FE_READ_STATUS)
		snprintf(extra, sizeof(extra), " status=0x%02x", st);
	if (!rc && req == FE_GET_PROPERTY)
		snprintf(extra, sizeof(extra), " strength.scale=%u cnr.scale=%u",
			 prop[0].u.st.stat[0].scale, prop[1].u.st.stat[0].scale);
	printf("%s rc=%d errno=%d (%s) ms=%.0f%s\n", call, rc, err,
	       strerror(err), now_ms() - t0, extra);
	close(fd);
	return rc ? 1 : 0;
}
