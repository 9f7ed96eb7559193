/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dvb.h - what vtuner knows of DVB and of the vtuner control ABI by name:
 * the delivery systems (names as libdvbv5 and dvb-fe-tool write them,
 * the 2011 ABI's type strings, satellite or not) and the control
 * messages.  The one table of each in the tree: the daemons, vtunerctl
 * and the test programs use these.
 */
#ifndef VT_DVB_H
#define VT_DVB_H

#include <stdbool.h>

/* "DVBS2", "DVBC/ANNEX_A"...; "SYS_<n>" for a system it does not know. */
const char *vt_delsys_name(unsigned int delsys);

/*
 * enum fe_delivery_system of a name: case, '-', '_' and '/' do not
 * count ("dvb-s2" = "DVBS2", "dvbc_annex_a" = "DVBC/ANNEX_A"), and
 * "DVBC" and the 2011 type strings ("DVB-C") are names too; -1 if none.
 */
int vt_delsys_parse(const char *name);

/* Satellite systems: frequencies in kHz, an LNB and SEC. */
bool vt_delsys_is_sat(unsigned int delsys);
/* Terrestrial systems (DVB-T/T2, ATSC, ISDB-T...). */
bool vt_delsys_is_ter(unsigned int delsys);

/* The type string of the 2011 ABI's VTUNER_SET_TYPE ("DVB-S2"), or NULL. */
const char *vt_delsys_classic_type(unsigned int delsys);

/* MSG_* of kernel/uapi/vtuner.h by name ("SET_TONE"), NULL if unknown. */
const char *vt_msg_name(int type);
/* The MSG_* of a name (any case), -1 if none. */
int vt_msg_parse(const char *name);

#endif /* VT_DVB_H */
