/* SPDX-License-Identifier: GPL-2.0 */
/*
 * props.h - names of DTV_* properties, and the parsers of the --tune,
 * --pids and --delsys option values (delivery system names: common/dvb.h).
 */
#ifndef VC_PROPS_H
#define VC_PROPS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/dvb.h"
#include "proto/vtp.h"

/*
 * "DELIVERY_SYSTEM=DVBS2,FREQUENCY=11362000,..." into t (seq untouched):
 * DTV_CLEAR first, DTV_DELIVERY_SYSTEM next, DTV_TUNE last.  On error
 * returns -1 with a message naming the bad part in err.
 */
int props_parse_tune(const char *s, struct vtp_tune *t, char *err,
		     size_t errlen);

/* "0,17,0x100" or "all" into p; -1 and err on error. */
int props_parse_pids(const char *s, struct vtp_pids *p, char *err,
		     size_t errlen);

/* "dvbs2,dvbs" into delsys[] (at most max); count, or -1 and err. */
int props_parse_delsys(const char *s, unsigned char *delsys, int max,
		       char *err, size_t errlen);

/* The tune as "DVBS2 11362000 kHz sr 27500000" for logs. */
void props_describe(const struct vtp_tune *t, char *buf, size_t cap);

#endif
