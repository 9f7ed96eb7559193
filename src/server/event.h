/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event.h - what an epoll event of vtunerd's loop points to: the first
 * member of the object it is about (a listener, a connection, a tuner's
 * TS, the timer, the signals, an RTP socket).
 */
#ifndef VTD_EVENT_H
#define VTD_EVENT_H

enum vtd_ev_kind {
	EV_LISTEN,		/* struct vtd_listener */
	EV_CONN,		/* struct vtd_conn */
	EV_TUNER,		/* a vtp session's tuner (vtd_session.ts_ev) */
	EV_SHARE,		/* a shared tuner (vtd_tuner.share_ev) */
	EV_TIMER,
	EV_SIGNAL,
	EV_UDP,			/* an RTP/RTCP socket, or SSDP: srv->udp[] */
};

struct vtd_ev {
	enum vtd_ev_kind kind;
	int fd;
};

#endif /* VTD_EVENT_H */
