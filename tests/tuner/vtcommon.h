/* Helpers shared by vt-testtuner and vt-fuzz (not by vt-classic, which is
 * kept standalone on purpose, nor vt-tscheck). */
#ifndef VTCOMMON_H
#define VTCOMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <linux/dvb/frontend.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

extern const char *progname;

void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void die_errno(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Monotonic clock in seconds / milliseconds. */
double now_s(void);
int64_t now_ms(void);

/* Name of a DTV_* property command ("DTV_FREQUENCY"), NULL if unknown. */
const char *dtv_cmd_name(unsigned int cmd);
/* "dvbs2" / "DVB-S2" / "DVBS2" / "6" -> SYS_DVBS2; -1 if unknown. */
int delsys_parse(const char *s);
/* Short lower-case name ("dvbs2"), "sysN" for unknown values. */
const char *delsys_name(int sys);
/* Classic SET_TYPE string ("DVB-S2"), NULL if there is none. */
const char *delsys_classic_type(int sys);
int delsys_is_sat(int sys);
int delsys_is_ter(int sys);
int delsys_is_cable(int sys);

/* Parse an unsigned number (decimal, 0x hex) completely; -1 on error. */
int parse_u64(const char *s, uint64_t *out);
/* Parse a comma/space list of delivery systems; returns count or -1. */
int delsys_list_parse(const char *s, int *out, int max);

#endif
