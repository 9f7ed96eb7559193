/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - the monotonic clock, in ns, for every timer and timestamp of
 * the daemons and tools.
 */
#ifndef VT_CLOCK_H
#define VT_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t vt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* VT_CLOCK_H */
