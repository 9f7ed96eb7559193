/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event.h - what an epoll event of vtunerd's loop points to: the first
 * member of the object it is about (a listener, a connection, the timer,
 * the signals), or a module's descriptor with the function to call (a
 * tuner's TS, SSDP).
 */
#ifndef VTD_EVENT_H
#define VTD_EVENT_H

struct vtd_server;

enum vtd_ev_kind {
	EV_LISTEN,		/* struct vtd_listener */
	EV_CONN,		/* struct vtd_conn */
	EV_TIMER,
	EV_SIGNAL,
	EV_FD,			/* another module's descriptor: ev->fn */
};

struct vtd_ev {
	enum vtd_ev_kind kind;
	int fd;
	/*
	 * EV_FD: called when fd is readable (a tuner's TS, SSDP); the loop
	 * knows nothing else of the module, which finds its object from ev
	 * (container_of).
	 */
	void (*fn)(struct vtd_server *srv, struct vtd_ev *ev);
};

#endif /* VTD_EVENT_H */
