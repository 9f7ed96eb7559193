/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dvb.h - what vtuner knows of DVB and of the vtuner control ABI by name:
 * the delivery systems (names as libdvbv5 and dvb-fe-tool write them,
 * the 2011 ABI's type strings, satellite or not), the names of
 * modulations, code rates, rolloffs and polarisations, and the control
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
/*
 * The DVBv3 type (enum fe_type) of a delivery system, the unit of
 * dvb_frontend_info's limits: FE_QPSK (satellite: kHz), FE_QAM, FE_ATSC
 * or FE_OFDM.
 */
int vt_delsys_fe_type(unsigned int delsys);

/* The type string of the 2011 ABI's VTUNER_SET_TYPE ("DVB-S2"), or NULL. */
const char *vt_delsys_classic_type(unsigned int delsys);

/*
 * The names of a transponder's parameters, as libdvbv5 writes them in a
 * channel file and the sim's world file takes them; as vt_delsys_parse(),
 * case, '-', '_' and '/' do not count; -1 if none.
 *   enum fe_modulation: "QPSK", "PSK/8", "APSK/16", "APSK/32", "QAM/16"..
 *     "QAM/256", "QAM/AUTO", "VSB/8", "VSB/16", "DQPSK", "QAM/4_NR", and
 *     "8PSK", "16APSK", "32APSK", "AUTO" (QAM/AUTO)
 *   enum fe_code_rate: "NONE", "1/2".."9/10", "AUTO"
 *   enum fe_rolloff: "35", "25", "20", "AUTO"
 *   enum vt_pol: "HORIZONTAL", "VERTICAL", "LEFT", "RIGHT", or the
 *     first letter
 */
enum vt_pol { VT_POL_H, VT_POL_V, VT_POL_L, VT_POL_R };

int vt_modulation_parse(const char *name);
int vt_fec_parse(const char *name);
int vt_rolloff_parse(const char *name);
int vt_pol_parse(const char *name);

/* MSG_* of kernel/uapi/vtuner.h by name ("SET_TONE"), NULL if unknown. */
const char *vt_msg_name(int type);
/* The MSG_* of a name (any case), -1 if none. */
int vt_msg_parse(const char *name);

#endif /* VT_DVB_H */
