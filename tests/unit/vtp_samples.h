/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtp_samples.h - one filled-in example of every message type, shared by
 * the unit tests and the fuzz corpus generator.
 */
#ifndef VTP_SAMPLES_H
#define VTP_SAMPLES_H

#include "proto/vtp.h"

/* Number of samples; vtp_sample(i, m) for i below it fills *m. */
extern const int vtp_num_samples;
void vtp_sample(int i, struct vtp_msg *m);

#endif /* VTP_SAMPLES_H */
