/* SPDX-License-Identifier: GPL-2.0 */
/*
 * channels.h - a channel file in libdvbv5's format (what dvbv5-scan -o
 * writes and dvbv5-zap -c reads), for vtunerd --satip-channels: the
 * services it lists, as struct vtd_service.
 *
 * A service is a "[Name]" section of "KEY = VALUE" lines; blank lines and
 * lines starting with '#' are ignored, keys vtunerd has no use for
 * (INVERSION, PILOT, LNB, VCHANNEL, GUARD_INTERVAL...) too.  Of a service:
 *   DELIVERY_SYSTEM   DVBS, DVBS2, DVBT, DVBT2, DVBC/ANNEX_A (required)
 *   FREQUENCY         satellite: the RF frequency in kHz (dvbv5-scan with
 *                     an LNB), others: Hz (required)
 *   SYMBOL_RATE       satellite and cable: symbols/s (required there)
 *   MODULATION, INNER_FEC (CODE_RATE_HP: DVB-T), ROLLOFF, POLARIZATION
 *                     common/dvb.h's names; LEFT counts as horizontal,
 *                     RIGHT as vertical (their LNB voltages)
 *   BANDWIDTH_HZ      terrestrial
 *   STREAM_ID         the PLP of DVB-T2
 *   SAT_NUMBER        the DiSEqC position, 0..3
 *   VIDEO_PID, AUDIO_PID, PID_xx   space-separated PIDs; the service's
 *                     PIDs are its video, audio, then other PIDs, the
 *                     first 4 (a dvbv5 file names no PMT PID)
 * A service without a video or audio PID (a data service, a transponder
 * of an initial-tuning file) and one of a delivery system not above is
 * skipped with a warning naming its line.
 */
#ifndef VTD_CHANNELS_H
#define VTD_CHANNELS_H

#include <stddef.h>
#include <stdio.h>

#include "server/backend.h"

/* Longest line, without its newline. */
#define VTD_CHANNELS_LINE_MAX	1023

/*
 * Call cb for every service of the channel file at path, in file order
 * (s and its strings valid during the call only; cb NULL: only check
 * and count them).  Returns how many, or
 * -1 with a message "FILE:LINE: what" ("FILE: what" if it cannot be read)
 * in err; cb may have been called for the services before the error.
 */
int vtd_channels_load(const char *path,
		      void (*cb)(void *ctx, const struct vtd_service *s),
		      void *ctx, char *err, size_t errlen);

/* The same of an open stream, named name in the messages. */
int vtd_channels_read(FILE *f, const char *name,
		      void (*cb)(void *ctx, const struct vtd_service *s),
		      void *ctx, char *err, size_t errlen);

#endif /* VTD_CHANNELS_H */
