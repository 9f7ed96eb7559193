/* SPDX-License-Identifier: GPL-2.0 */
/*
 * client.h - options of vtunerc, the entry point of its event loop, and
 * what its fronts (front.h) call.
 */
#ifndef VC_CLIENT_H
#define VC_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/vtp.h"
#include "proto/vtp_auth.h"
#include "satip/query.h"

struct vc_opts {
	const char *device;	/* /dev/vtunercN (NULL with sink) */
	const char *sink;	/* --sink FILE, or NULL */
	bool cuse;		/* --cuse: CUSE devices, no module */
	int cuse_adapter;	/* --cuse-adapter N, -1: the first free from 8 */
	const char *user;	/* --user: run as USER once set up, or NULL */
	char host[256];
	char port[16];
	int tuner;		/* -t index, -1: first free matching */
	unsigned char delsys[VTP_MAX_DELSYS];	/* --delsys, all required */
	int num_delsys;
	const char *name;	/* --name: adapter name instead of "X @ host" */
	const struct vtp_psk *psk;	/* --psk-file, or NULL */
	bool seal_ocb;		/* with psk: ask for VTP_FEAT_SEAL_OCB */
	const char *status_file;	/* --status-file, NULL: default */
	bool have_tune;		/* --tune (sink mode) */
	struct vtp_tune tune;
	bool have_pids;		/* --pids (sink mode) */
	struct vtp_pids *pids;
	/* --satip: a SAT>IP server (host, port: its RTSP) instead of vtunerd */
	bool satip;
	bool satip_tcp;		/* --satip-tcp: RTP interleaved in RTSP */
	uint16_t satip_ports[2];	/* --satip-ports A-B, 0: any */
	const char *satip_desc;	/* --satip-desc URL, NULL: derived */
	const char *satip_quirks;	/* --satip-quirks LIST, NULL: auto */
	struct satip_lnb lnb;	/* --lnb */
};

/* whom vtunerc --cuse, started as root, runs as without --user */
#define VC_CUSE_USER	"nobody"

struct vc_client;
struct vc_sec_op;

/*
 * What a front passes on from the applications.  Each request the front
 * passes on is answered through its answer(): a tune at once, a SEC
 * command when the remote has answered it (at most 1.5 s later, before
 * the module gives up waiting), a PID set never.
 */
void vc_client_tune(struct vc_client *c, const struct vtp_tune *t);
void vc_client_sec(struct vc_client *c, const struct vc_sec_op *op);
void vc_client_pids(struct vc_client *c, const struct vtp_pids *p);

/*
 * Run until SIGINT/SIGTERM.  ready (or NULL) is called once, when the
 * control device is set up (true) or cannot be (false), so that the
 * parent of --daemon or systemd (Type=notify) learns it.  Returns the
 * exit status: 0 after a signal, 1 after a runtime error.
 */
int client_run(const struct vc_opts *o, void (*ready)(bool ok));

#endif
