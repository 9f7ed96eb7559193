// SPDX-License-Identifier: GPL-2.0
/*
 * pump.c - the TS path of vtunerd: a thread per open tuner reads its TS
 * into TS_DATA frames on the session's data connection and sends them.
 *
 * One thread per stream, not one event loop for all of them: a server
 * feeding 16 tuners to 16 clients is then scheduled like the 16 writers it
 * stands for, rather than as one process that gets a 17th of the CPU when
 * the machine is busy and loses TS while it waits on the run queue.  The
 * event loop keeps the protocol; the session's mutex (see server.h)
 * serialises the two around the tuner and the data connection's queue.
 *
 * The pump polls the tuner's descriptor, its eventfd (stop, or look at the
 * data connection again) and, while frames wait, the data connection for
 * POLLOUT.  A write that fails is left to the event loop (pump_err and
 * vtd_server_wake()), which closes the connection.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "common/log.h"
#include "server/server.h"

/* TS read from the tuner per TS_DATA frame and reads per wake-up */
#define VTD_TS_CHUNK_PKTS	1024
#define VTD_TS_READS		8
/*
 * After a tune the frames start small and double up to VTD_TS_CHUNK_PKTS:
 * the client can use a frame only once all of it has arrived, and the
 * data connection, idle since the old tune, is back in TCP slow start
 * (ten segments per round trip), so a first frame of 192 KiB would take
 * four round trips to show its first packet.  64 packets fit in the
 * initial window.
 */
#define VTD_TS_FIRST_PKTS	64
#define VTD_DROP_LOG_NS		10000000000ull
/* the pump's stack: it calls the backend and the logger, nothing deep */
#define VTD_PUMP_STACK		(256 * 1024)

bool vtd_conn_pumped(const struct vtd_conn *c)
{
	return c->kind == CONN_DATA && c->sess && c->sess->pump_running;
}

static void vtd_efd_signal(int fd)
{
	uint64_t one = 1;

	/* EAGAIN: the counter is full, so a wake-up is pending anyway */
	if (write(fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		vt_debug("eventfd write: %s", strerror(errno));
}

void vtd_pump_kick(struct vtd_session *s)
{
	if (s->pump_running)
		vtd_efd_signal(s->pump_efd);
}

/*
 * Where the next TS frame of up to len bytes goes: straight into the
 * data connection's queue when it has that much contiguous room (the
 * tuner's read() is then the only copy in user space), else the bounce
 * buffer, copied by vtd_pump_put() if there is room at all.
 */
static uint8_t *vtd_pump_slot(struct vtd_conn *c, uint8_t *bounce, size_t len)
{
	uint8_t *tail;
	size_t span;

	if (!c || c->dead || c->fr_num >= c->fr_cap)
		return bounce;
	tail = vtp_writer_tail(&c->wr, &span);
	return span >= len ? tail : bounce;
}

static bool vtd_pump_put(struct vtd_conn *c, const uint8_t *frame,
			 size_t len, bool in_place)
{
	if (in_place)
		vtp_writer_commit(&c->wr, len);
	else if (c->fr_num >= c->fr_cap ||
		 vtp_writer_put(&c->wr, frame, len) < 0)
		return false;
	vtd_data_frame(c, (uint32_t)len);
	return true;
}

/*
 * The pump's side of the session's mutex: not before the event loop,
 * when it waits for it (see server.h).
 */
static void vtd_pump_lock(struct vtd_session *s)
{
	pthread_mutex_lock(&s->mu);
	while (atomic_load(&s->loop_waiting) && !s->pump_stop)
		pthread_cond_wait(&s->loop_done, &s->mu);
}

static bool vtd_pump_yield(struct vtd_session *s)
{
	return atomic_load(&s->loop_waiting) != 0;
}

/* Send what the socket takes; s locked. */
static void vtd_pump_flush(struct vtd_session *s, struct vtd_conn *d)
{
	size_t before = vtp_writer_pending(&d->wr);
	ssize_t left;

	if (!before || d->dead || d->pump_err)
		return;
	left = vtp_writer_flush(&d->wr, d->ev.fd);
	if (left < 0) {
		d->pump_err = (int)-left;
		vtd_server_wake(d->srv);
		return;
	}
	vtd_data_sent(d, before - (size_t)left);
	/* a data connection to close once its queue is out */
	if (d->closing && !left)
		vtd_server_wake(s->ctl->srv);
}

static void vtd_pump_log_drops(struct vtd_session *s)
{
	uint64_t now;

	if (s->drop_frames <= s->drops_logged)
		return;
	now = vtd_now_ns();
	if (now - s->drops_logged_ns < VTD_DROP_LOG_NS)
		return;
	vt_warn("#%u %s: data connection too slow: %llu TS frames (%llu "
		"packets) dropped so far", s->ctl->id, s->ctl->peer,
		(unsigned long long)s->drop_frames,
		(unsigned long long)s->drop_packets);
	s->drops_logged = s->drop_frames;
	s->drops_logged_ns = now;
}

/* The tuner's fd is readable: move its TS to the data connection. */
static void vtd_pump_ts(struct vtd_session *s)
{
	struct vtd_tuner *t = s->tuner;
	struct vtd_conn *d = s->data;
	bool queued = false;
	uint8_t *frame;
	ssize_t n;
	int i;

	if (d && (d->dead || d->pump_err))
		d = NULL;
	for (i = 0; i < VTD_TS_READS; i++) {
		size_t pkts, max;

		if (s->frame_pkts < VTD_TS_FIRST_PKTS)
			s->frame_pkts = VTD_TS_FIRST_PKTS;
		max = s->frame_pkts * VTP_TS_PACKET;
		frame = vtd_pump_slot(d, s->tsbuf, VTP_TS_HDR_LEN + max);
		n = t->ops->read_ts(t, frame + VTP_TS_HDR_LEN, max);
		if (n == -EAGAIN)
			break;
		if (n < 0) {
			vt_warn("#%u: tuner %u (%s): reading TS: %s; TS stopped",
				s->ctl->id, t->info.index, t->where,
				strerror((int)-n));
			s->ts_fd = -1;
			break;
		}
		pkts = (size_t)n / VTP_TS_PACKET;
		s->ts_packets += pkts;
		if (pkts == s->frame_pkts && s->frame_pkts < VTD_TS_CHUNK_PKTS)
			s->frame_pkts *= 2;
		if (!d) {
			s->unattached_packets += pkts;
			continue;
		}
		vtp_encode_ts_hdr(frame, VTP_TS_HDR_LEN, s->seq, (size_t)n);
		if (vtd_pump_put(d, frame, VTP_TS_HDR_LEN + (size_t)n,
				 frame != s->tsbuf)) {
			s->ts_frames++;
			queued = true;
		} else {
			s->drop_frames++;
			s->drop_packets += pkts;
		}
		if (vtd_pump_yield(s))
			break;		/* the rest after the loop's turn */
	}
	if (queued)
		vtd_pump_flush(s, d);
	vtd_pump_log_drops(s);
}

static void vtd_pump_drain(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		vt_debug("eventfd read: %s", strerror(errno));
}

static void *vtd_pump_main(void *arg)
{
	struct vtd_session *s = arg;
	struct pollfd p[3];
	struct vtd_conn *d;

	for (;;) {
		vtd_pump_lock(s);
		if (s->pump_stop) {
			pthread_mutex_unlock(&s->mu);
			break;
		}
		d = s->data;
		p[0] = (struct pollfd){ .fd = s->pump_efd, .events = POLLIN };
		/* poll() skips a negative fd */
		p[1] = (struct pollfd){ .fd = s->ts_fd, .events = POLLIN };
		p[2] = (struct pollfd){ .fd = -1, .events = POLLOUT };
		if (d && !d->dead && !d->pump_err &&
		    vtp_writer_pending(&d->wr))
			p[2].fd = d->ev.fd;
		pthread_mutex_unlock(&s->mu);

		if (poll(p, 3, -1) < 0) {
			struct timespec pause = { 0, 10000000 };

			if (errno != EINTR) {
				vt_err("#%u: TS pump: poll: %s", s->ctl->id,
				       strerror(errno));
				nanosleep(&pause, NULL);
			}
			continue;
		}
		if (p[0].revents)
			vtd_pump_drain(s->pump_efd);
		vtd_pump_lock(s);
		d = s->data;
		/*
		 * The connection polled may have gone since (its fd then
		 * reused): a flush of the current one is harmless anyway.
		 */
		if (!s->pump_stop && p[2].revents && d)
			vtd_pump_flush(s, d);
		if (!s->pump_stop && p[1].revents && s->ts_fd >= 0)
			vtd_pump_ts(s);
		pthread_mutex_unlock(&s->mu);
	}
	return NULL;
}

int vtd_pump_start(struct vtd_session *s)
{
	struct vtd_tuner *t = s->tuner;
	pthread_attr_t attr;
	int err;

	s->ts_fd = t->ops->get_fd(t);
	s->pump_stop = false;
	s->tsbuf = malloc(VTP_TS_HDR_LEN + VTD_TS_CHUNK_PKTS * VTP_TS_PACKET);
	if (!s->tsbuf)
		return -ENOMEM;
	s->pump_efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->pump_efd < 0) {
		err = -errno;
		goto fail;
	}
	err = -pthread_attr_init(&attr);
	if (err)
		goto fail;
	err = -pthread_attr_setstacksize(&attr, VTD_PUMP_STACK);
	if (!err)
		err = -pthread_create(&s->pump, &attr, vtd_pump_main, s);
	pthread_attr_destroy(&attr);
	if (err)
		goto fail;
	s->pump_running = true;
	return 0;
fail:
	if (s->pump_efd >= 0)
		close(s->pump_efd);
	s->pump_efd = -1;
	free(s->tsbuf);
	s->tsbuf = NULL;
	return err;
}

void vtd_pump_stop(struct vtd_session *s)
{
	int err;

	if (!s->pump_running)
		return;
	vtd_session_lock(s);
	s->pump_stop = true;
	vtd_efd_signal(s->pump_efd);
	vtd_session_unlock(s);
	err = pthread_join(s->pump, NULL);
	if (err)
		vt_err("#%u: joining the TS pump: %s", s->ctl->id,
		       strerror(err));
	s->pump_running = false;
	close(s->pump_efd);
	s->pump_efd = -1;
	free(s->tsbuf);
	s->tsbuf = NULL;
	s->ts_fd = -1;
}
