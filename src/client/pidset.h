/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pidset.h - the PID set vtunerc asks its remote for, from the one the
 * applications want.
 *
 * A PID the applications stop wanting stays in the remote's set for
 * VC_PIDSET_LINGER_MS more.  Applications often close a filter and open
 * another on the same PID at once: czap and gnutv read the PAT through a
 * section filter, then record PID 0 to dvr0; VDR and tvheadend reopen
 * section filters all along.  On a local adapter that is free.  Through a
 * remote, passing the empty set on would stop the server's filter and
 * start it again a moment later: a gap in the PID (a continuity error in
 * the recording, packets of before the gap delivered to the new filter),
 * and a driver whose filters feed its stream restarts it (vidtv's
 * counters start over).  Kept a little longer, the PID flows on and the
 * new filter takes it from where it is.  The cost is the PID's packets
 * for at most that time, which the demux of the adapter drops.
 *
 * A tune ends every lingering PID: the TS of the previous tune is
 * discarded anyway.  Pure code, no I/O, times in ns of any clock.
 */
#ifndef VC_PIDSET_H
#define VC_PIDSET_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/vtp.h"

#define VC_PIDSET_LINGER_MS	500

/* PIDs 0..0x1fff and VTP_PID_FULL_TS */
#define VC_PIDSET_N		(VTP_PID_FULL_TS + 1)

struct vc_pidset {
	/* per PID: 0 not in the set, UINT64_MAX wanted, else lingering
	 * until then */
	uint64_t until[VC_PIDSET_N];
	unsigned int nlinger;	/* PIDs lingering */
	uint64_t next;		/* the earliest of their times, 0: none */
	uint64_t linger_ns;
};

void vc_pidset_init(struct vc_pidset *s, uint64_t linger_ns);

/*
 * The applications now want p (in any order, with duplicates).  Returns
 * true when the remote's set changed; it is then written to out, sorted,
 * without duplicates (the whole TS alone if the PIDs would not fit).
 */
bool vc_pidset_want(struct vc_pidset *s, const struct vtp_pids *p,
		    uint64_t now, struct vtp_pids *out);

/* The PIDs whose time is over leave: as vc_pidset_want(). */
bool vc_pidset_expire(struct vc_pidset *s, uint64_t now,
		      struct vtp_pids *out);

/* A tune: every lingering PID leaves now, as vc_pidset_want(). */
bool vc_pidset_tuned(struct vc_pidset *s, struct vtp_pids *out);

/* When the next lingering PID leaves, 0 if none lingers. */
uint64_t vc_pidset_next(const struct vc_pidset *s);

#endif
