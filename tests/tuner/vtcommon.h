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
/*
 * vt_delsys_parse() (common/dvb.h: names, kinds, classic type strings),
 * or a number ("6" -> SYS_DVBS2); -1 if neither.
 */
int delsys_parse(const char *s);
int delsys_is_cable(int sys);

/* Parse an unsigned number (decimal, 0x hex) completely; -1 on error. */
int parse_u64(const char *s, uint64_t *out);
/* Parse a comma/space list of delivery systems; returns count or -1. */
int delsys_list_parse(const char *s, int *out, int max);

#endif
