// SPDX-License-Identifier: GPL-2.0
/*
 * client.c - the event loop of vtunerc: the control device, the control
 * and data connections to vtunerd, timers, and the reconnection that
 * restores the tuner's state behind the applications' back.
 *
 * Session states: IDLE (waiting to reconnect) -> CONNECTING -> HELLO
 * (HELLO and LIST_TUNERS sent) [-> AUTH (with a key: our proof sent)] ->
 * LIST (waiting for TUNER_LIST) -> OPEN (OPEN_TUNER sent) -> READY (tuner
 * open; the data connection attaches and the replay of the last SEC
 * commands, TUNE and SET_PIDS runs, one SEC command at a time).
 *
 * Until the handshake is complete (HELLO_REPLY without a key, a verified
 * AUTH_REPLY with one: C.established), anything else the server sends
 * ends the session; STATUS reaches the adapter only in READY, and every
 * end of a session leaves the adapter reading "no signal".  With a key
 * every frame after AUTH (after DATA_ATTACH) is sealed, and every frame
 * after AUTH_REPLY (after DATA_ATTACH's OK) must open: one that does not
 * ends the session (docs/protocol.md, "Session protection").
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

#include "client/client.h"
#include "client/status.h"
#include "client/ctrl.h"
#include "client/net.h"
#include "client/props.h"
#include "client/tscc.h"
#include "common/log.h"

#define MS			1000000ULL
#define SEC			1000000000ULL
#define BACKOFF_MIN		(200 * MS)
#define BACKOFF_MAX		(5 * SEC)
#define HANDSHAKE_TIMEOUT	(5 * SEC)
#define KEEPALIVE_PERIOD	(1 * SEC)
#define DEAD_TIMEOUT		(3 * SEC)	/* nothing received: dead */
#define CTRL_DEAD_TIMEOUT	(12 * SEC)	/* even with TS flowing */
#define SEC_ANSWER_TIMEOUT	(1500 * MS)	/* < the module's 2 s */
#define REPORT_PERIOD		(10 * SEC)
#define STABLE_SESSION		(10 * SEC)	/* resets the backoff */
#define MAX_SEC_LOG		16
#define MAX_REQS		64
#define CTRL_WQUEUE		(256 * 1024)
#define DATA_WQUEUE		(4 * 1024)

enum state { S_IDLE, S_CONNECTING, S_HELLO, S_AUTH, S_LIST, S_OPEN,
	     S_READY };

static const char *const state_names[] = {
	"idle", "connecting", "hello", "authentication", "tuner list", "open",
	"ready"
};

/* A SEC command, as sent (VTP type and argument). */
struct sec_op {
	uint16_t type;
	uint8_t value;
	struct vtp_diseqc d;
};

struct req {
	uint32_t id;		/* 0: free */
	uint16_t type;
};

static struct client {
	const struct vc_opts *o;
	struct vc_ctrl ctrl;	/* fd -1 with --sink */
	int ts_fd;		/* where TS goes: ctrl.fd or the sink */
	int tfd, sfd;
	uint64_t timer_at;	/* what tfd is armed for, 0: nothing */
	bool stop;
	int exit_code;

	/* connections */
	struct vc_conn cc, dc;
	struct addrinfo *ai, *ai_cur;
	char addr[80];
	enum state st;
	uint64_t hs_deadline;
	uint64_t reconnect_at;
	uint64_t backoff;
	uint64_t ready_at, lost_at;
	bool fail_logged, ever_ready, attached;
	/*
	 * The handshake is complete: HELLO_REPLY without a key, the server's
	 * proof verified with one.  Before it nothing but the handshake is
	 * taken from the server.
	 */
	bool established;
	char server_name[VTP_PEER_NAME_MAX + 1];
	struct vtp_auth_ctx actx;	/* with --psk-file: the handshake */
	struct req reqs[MAX_REQS];

	/* the remote tuner */
	int index;		/* opened index, -1 before the first OPEN */
	struct vtp_tuner tuner;
	bool configured;
	struct vtp_tuner configured_as;

	/* state replayed on reconnection */
	struct vtp_tune tune;
	bool have_tune;
	uint32_t cur_seq;	/* TS and STATUS must carry this seq */
	struct vtp_pids *pids;
	bool have_pids;
	/* the server's answer to the last failed SET_PIDS, "" when none */
	char pids_error[VTP_ERRMSG_MAX + 64];
	struct sec_op sec[MAX_SEC_LOG];
	int nsec;
	bool tuned_since_sec;
	int last_voltage, last_hv;	/* -1: never set */
	struct sec_op replay[MAX_SEC_LOG + 2];
	int nreplay, replay_pos;	/* replay_pos -1: not replaying */
	uint32_t replay_reqid;

	/* kernel message waiting for the server's answer */
	bool kpending;
	struct vtuner_message kmsg;
	uint32_t kreqid;
	uint64_t kdeadline;

	/* monitoring */
	uint64_t next_keepalive, next_report, last_report, started;
	uint64_t rtt_sum, rtt_n, rtt_max, data_rtt;
	uint64_t bytes, bytes_report, stale_frames, stale_report;
	uint32_t last_status;
	bool status_known;
	struct tscc tscc;

	/* the status file (status.c), once a second */
	bool status_file;
	uint64_t next_status, bytes_status, sessions;
	double last_rtt;
	struct vtp_status last_fe;
} C;

static struct vtp_msg msg;	/* about 16 KiB: not on the stack */

static void session_lost(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* ---- small helpers ------------------------------------------------------ */

static void req_add(uint32_t id, uint16_t type)
{
	unsigned i;

	for (i = 0; i < MAX_REQS; i++)
		if (!C.reqs[i].id) {
			C.reqs[i].id = id;
			C.reqs[i].type = type;
			return;
		}
	/* full: forget the oldest slot, its reply just loses its name */
	memmove(C.reqs, C.reqs + 1, sizeof(C.reqs) - sizeof(C.reqs[0]));
	C.reqs[MAX_REQS - 1].id = id;
	C.reqs[MAX_REQS - 1].type = type;
}

/* The type of request id (0 if unknown), forgetting it. */
static uint16_t req_take(uint32_t id)
{
	unsigned i;
	uint16_t type;

	for (i = 0; i < MAX_REQS && id; i++)
		if (C.reqs[i].id == id) {
			type = C.reqs[i].type;
			C.reqs[i].id = 0;
			return type;
		}
	return 0;
}

static bool live(void)
{
	return C.st == S_READY && C.replay_pos < 0;
}

static void kernel_answer(const char *late)
{
	if (!C.kpending)
		return;
	C.kpending = false;
	if (late)
		vt_warn("%s: %s; answered the module anyway",
			ctrl_msg_name(C.kmsg.type), late);
	ctrl_respond(&C.ctrl, &C.kmsg);
}

static void push_status(const struct vtp_status *s, uint32_t seq)
{
	bool lock = s->status & FE_HAS_LOCK;
	bool changed = !C.status_known ||
		       lock != !!(C.last_status & FE_HAS_LOCK);

	C.last_status = s->status;
	C.status_known = true;
	C.last_fe = *s;
	/* the module first: a log write is not on the zap path */
	if (C.ctrl.fd >= 0)
		ctrl_set_status(&C.ctrl, s, seq);
	if (changed)
		vt_info("tune %u: %s (status 0x%02x)", seq,
			lock ? "locked" : "no lock", s->status);
}

static void push_no_signal(void)
{
	static const struct vtp_status none;

	C.status_known = false;
	if (C.ctrl.fd >= 0)
		ctrl_set_status(&C.ctrl, &none, 0);
}

/* ---- sending ------------------------------------------------------------ */

/* reqid or -errno; a full queue or a write error ends the session. */
static int sent(int ret, uint16_t type)
{
	if (ret > 0) {
		req_add(ret, type);
		return ret;
	}
	session_lost("sending %s: %s", vtp_type_name(type), strerror(-ret));
	return ret;
}

static int send_sec(const struct sec_op *op)
{
	if (op->type == VTP_DISEQC_MASTER)
		return sent(net_diseqc(&C.cc, &op->d), op->type);
	return sent(net_sec_value(&C.cc, op->type, op->value), op->type);
}

static void send_tune(void)
{
	char desc[96];

	if (sent(net_tune(&C.cc, &C.tune), VTP_TUNE) < 0)
		return;
	props_describe(&C.tune, desc, sizeof(desc));
	vt_debug("TUNE seq %u: %s (%u properties)", C.tune.seq, desc,
		 C.tune.num);
}

static void send_pids(void)
{
	if (sent(net_set_pids(&C.cc, C.pids), VTP_SET_PIDS) < 0)
		return;
	vt_debug("SET_PIDS: %u PIDs%s", C.pids->num,
		 C.pids->num == 1 && C.pids->pid[0] == VTP_PID_FULL_TS ?
		 " (full TS)" : "");
}

/*
 * Replay, one SEC command at a time (each after the answer to the
 * previous one, as the applications' own sequence ran), then the last
 * tune and the PID set.
 */
static void replay_step(void)
{
	int id;

	while (C.replay_pos >= 0 && C.replay_pos < C.nreplay) {
		id = send_sec(&C.replay[C.replay_pos]);
		if (id < 0)
			return;
		C.replay_reqid = id;
		return;
	}
	if (C.replay_pos < 0)
		return;
	C.replay_pos = -1;
	C.replay_reqid = 0;
	if (C.have_tune)
		send_tune();
	if (C.st == S_READY && C.have_pids)
		send_pids();
}

static void replay_start(void)
{
	bool has_voltage = false;
	int i;

	C.nreplay = 0;
	for (i = 0; i < C.nsec; i++)
		has_voltage |= C.sec[i].type == VTP_SET_VOLTAGE;
	if (C.last_hv >= 0)
		C.replay[C.nreplay++] = (struct sec_op){
			.type = VTP_ENABLE_HIGH_VOLTAGE, .value = C.last_hv };
	if (C.last_voltage >= 0 && !has_voltage)
		C.replay[C.nreplay++] = (struct sec_op){
			.type = VTP_SET_VOLTAGE, .value = C.last_voltage };
	for (i = 0; i < C.nsec; i++)
		C.replay[C.nreplay++] = C.sec[i];
	if (C.nreplay || C.have_tune || C.have_pids)
		vt_debug("restoring %d SEC command(s)%s%s", C.nreplay,
			 C.have_tune ? ", the tune" : "",
			 C.have_pids ? ", the PIDs" : "");
	C.replay_pos = 0;
	replay_step();
}

/* ---- session ------------------------------------------------------------ */

static void session_close(void)
{
	conn_close(&C.cc);
	conn_close(&C.dc);
	memset(C.reqs, 0, sizeof(C.reqs));
	C.replay_pos = -1;
	C.attached = false;
	C.established = false;
}

static void session_lost(const char *fmt, ...)
{
	uint64_t now = vt_now_ns();
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);

	kernel_answer(NULL);
	/* whatever the state: no signal without a session */
	push_no_signal();
	if (C.st == S_READY) {
		vt_notice("connection to %s (tuner %d) lost: %s; reconnecting",
			  C.addr, C.index, why);
		if (now - C.ready_at >= STABLE_SESSION)
			C.backoff = BACKOFF_MIN;
		C.lost_at = now;
	} else if (!C.fail_logged) {
		vt_notice("%s: %s (while %s); retrying every %.1f..%.0f s",
			  C.addr[0] ? C.addr : C.o->host, why,
			  state_names[C.st], BACKOFF_MIN / 1e9,
			  BACKOFF_MAX / 1e9);
		C.fail_logged = true;
	} else {
		vt_debug("%s: %s (while %s)", C.addr, why, state_names[C.st]);
	}
	session_close();
	C.st = S_IDLE;
	C.reconnect_at = now + C.backoff;
	C.backoff = C.backoff * 2 > BACKOFF_MAX ? BACKOFF_MAX : C.backoff * 2;
}

static void session_start(void)
{
	uint64_t now = vt_now_ns();
	int ret;

	if (!C.ai && net_resolve(C.o->host, C.o->port, &C.ai) < 0) {
		C.addr[0] = 0;
		session_lost("cannot resolve %s", C.o->host);
		return;
	}
	C.ai_cur = C.ai_cur && C.ai_cur->ai_next ? C.ai_cur->ai_next : C.ai;
	net_addr_str(C.ai_cur->ai_addr, C.ai_cur->ai_addrlen, C.addr,
		     sizeof(C.addr));
	vt_debug("connecting to %s", C.addr);
	C.st = S_CONNECTING;
	C.hs_deadline = now + HANDSHAKE_TIMEOUT;
	ret = conn_start(&C.cc, C.ai_cur);
	if (ret < 0) {
		session_lost("connect: %s", strerror(-ret));
		/* try the other addresses at once next time */
		return;
	}
}

static void on_connected(void)
{
	C.st = S_HELLO;
	C.next_keepalive = vt_now_ns() + KEEPALIVE_PERIOD;
	if (C.o->psk) {
		/* LIST_TUNERS once both sides have proved the key */
		memset(&C.actx, 0, sizeof(C.actx));
		vtp_auth_nonce(C.actx.nc);
		sent(net_hello_nonce(&C.cc, "vtunerc", C.actx.nc), VTP_HELLO);
		return;
	}
	if (sent(net_hello(&C.cc, "vtunerc"), VTP_HELLO) < 0)
		return;
	sent(net_list_tuners(&C.cc), VTP_LIST_TUNERS);
}

/* HELLO_REPLY with --psk-file: send our proof; false if refused. */
static bool auth_start(const struct vtp_hello_reply *r)
{
	uint8_t mac[VTP_MAC_LEN];

	struct vtp_keys keys;
	bool ok;

	if (!(r->features & VTP_FEAT_AUTH) || !r->has_nonce) {
		session_lost("authentication failed: the server has no key "
			     "(or does not know authentication); refused");
		return false;
	}
	if (!(r->features & VTP_FEAT_SEAL)) {
		session_lost("the server does not protect the session (no "
			     "VTP_FEAT_SEAL: an older vtunerd?); refused");
		return false;
	}
	memcpy(C.actx.ns, r->nonce, VTP_NONCE_LEN);
	C.actx.version = r->version;
	C.actx.features = r->features;
	snprintf(C.actx.cname, sizeof(C.actx.cname), "vtunerc");
	snprintf(C.actx.sname, sizeof(C.actx.sname), "%s", r->name);
	vtp_auth_proof(C.o->psk, VTP_AUTH_CLIENT, &C.actx, mac);
	C.st = S_AUTH;
	ok = sent(net_auth(&C.cc, mac), VTP_AUTH) >= 0;
	if (ok) {
		/* AUTH was the last clear frame we send */
		vtp_auth_keys(C.o->psk, &C.actx, NULL, &keys);
		conn_seal(&C.cc, &keys);
		vtp_keys_wipe(&keys);
	}
	return ok;
}

/* AUTH_REPLY: the server's proof. */
static void on_auth_reply(const struct vtp_auth *a)
{
	if (!vtp_auth_verify(C.o->psk, VTP_AUTH_SERVER, &C.actx, a->mac)) {
		session_lost("authentication failed: the server could not "
			     "prove the key (wrong key, or not a genuine "
			     "server); refused");
		return;
	}
	vt_info("%s: server '%s' authenticated", C.addr, C.server_name);
	/* AUTH_REPLY was the server's last clear frame */
	conn_seal_rx(&C.cc);
	C.established = true;
	C.st = S_LIST;
	sent(net_list_tuners(&C.cc), VTP_LIST_TUNERS);
}

static bool has_all_delsys(const struct vtp_tuner *t)
{
	int i;

	for (i = 0; i < C.o->num_delsys; i++)
		if (!memchr(t->delsys, C.o->delsys[i], t->num_delsys))
			return false;
	return true;
}

static void log_tuner(const struct vtp_tuner *t)
{
	char ds[96] = "";
	size_t off = 0;
	unsigned i;

	for (i = 0; i < t->num_delsys && off < sizeof(ds); i++)
		off += snprintf(ds + off, sizeof(ds) - off, "%s%s",
				i ? "," : "", vt_delsys_name(t->delsys[i]));
	vt_debug("  tuner %u: '%s' %s%s", t->index, t->name, ds,
		 t->flags & VTP_TUNER_BUSY ? " (busy)" : "");
}

static void on_tuner_list(const struct vtp_tuner_list *l)
{
	const struct vtp_tuner *pick = NULL;
	int want = C.o->tuner >= 0 ? C.o->tuner : C.index;
	unsigned i;

	vt_debug("%s has %u tuner(s)", C.addr, l->num);
	for (i = 0; i < l->num; i++)
		log_tuner(&l->tuner[i]);
	for (i = 0; i < l->num && !pick; i++) {
		const struct vtp_tuner *t = &l->tuner[i];

		if (want >= 0 ? t->index == want :
		    !(t->flags & VTP_TUNER_BUSY) && has_all_delsys(t))
			pick = t;
	}
	if (!pick) {
		if (want >= 0)
			session_lost("the server has no tuner %d", want);
		else
			session_lost("no free tuner%s", C.o->num_delsys ?
				     " with the delivery systems asked" : "");
		return;
	}
	if (want >= 0 && C.o->num_delsys && !has_all_delsys(pick))
		vt_warn("tuner %u lacks some of the delivery systems asked",
			pick->index);
	C.tuner = *pick;
	C.st = S_OPEN;
	sent(net_open_tuner(&C.cc, pick->index), VTP_OPEN_TUNER);
}

/* Same description (name, systems, limits, caps) as last configured? */
static bool tuner_same(const struct vtp_tuner *a, const struct vtp_tuner *b)
{
	return a->num_delsys == b->num_delsys &&
	       !memcmp(a->delsys, b->delsys, a->num_delsys) &&
	       a->caps == b->caps && a->freq_min == b->freq_min &&
	       a->freq_max == b->freq_max && a->freq_step == b->freq_step &&
	       a->freq_tolerance == b->freq_tolerance &&
	       a->srate_min == b->srate_min && a->srate_max == b->srate_max &&
	       a->srate_tolerance == b->srate_tolerance &&
	       !strcmp(a->name, b->name);
}

static void configure_adapter(void)
{
	char name[VTP_NAME_MAX + 1 + 300];

	if (C.ctrl.fd < 0)
		return;
	if (C.configured && tuner_same(&C.tuner, &C.configured_as))
		return;
	if (C.o->name)
		snprintf(name, sizeof(name), "%s", C.o->name);
	else
		snprintf(name, sizeof(name), "%s @ %s", C.tuner.name,
			 C.o->host);
	if (ctrl_configure(&C.ctrl, &C.tuner, name) == 0) {
		C.configured = true;
		C.configured_as = C.tuner;
		vt_info("%s is now '%.127s'", C.ctrl.path, name);
	}
}

static void on_open_reply(const struct vtp_open_reply *r)
{
	uint64_t now = vt_now_ns();
	int ret;

	C.index = r->index;
	C.st = S_READY;
	C.ready_at = now;
	C.fail_logged = false;
	if (C.ever_ready)
		vt_notice("reconnected to %s (%s), tuner %u '%s' after %.1f s",
			  C.addr, C.server_name, r->index, C.tuner.name,
			  (now - C.lost_at) / 1e9);
	else
		vt_notice("connected to %s (%s), tuner %u '%s'", C.addr,
			  C.server_name, r->index, C.tuner.name);
	C.ever_ready = true;
	C.sessions++;
	tscc_reset(&C.tscc);	/* a new stream: its start is no error */
	configure_adapter();
	ret = conn_start(&C.dc, C.ai_cur);
	if (ret < 0) {
		session_lost("data connection: %s", strerror(-ret));
		return;
	}
	C.dc.next_reqid = 0x40000000;	/* apart from the control ids */
	/* queued now, flushed when the connect completes */
	if (C.o->psk) {
		uint8_t mac[VTP_MAC_LEN];
		struct vtp_keys keys;

		vtp_auth_attach_mac(C.o->psk, &C.actx, r->token, mac);
		if (sent(net_data_attach_mac(&C.dc, r->token, mac),
			 VTP_DATA_ATTACH) < 0)
			return;
		/* DATA_ATTACH was the last clear frame we send there */
		vtp_auth_keys(C.o->psk, &C.actx, r->token, &keys);
		conn_seal(&C.dc, &keys);
		vtp_keys_wipe(&keys);
	} else if (sent(net_data_attach(&C.dc, r->token),
			VTP_DATA_ATTACH) < 0) {
		return;
	}
	C.hs_deadline = now + HANDSHAKE_TIMEOUT;
	replay_start();
}

/*
 * The applications' stream lacks PIDs while a SET_PIDS has failed: said
 * once in the log when it starts (and when it ends), and all along, with
 * the PIDs missing now, in the status file for vtunerctl.
 */
static void pids_result(uint32_t err, const char *text)
{
	char now[sizeof(C.pids_error)];

	if (!err) {
		if (C.pids_error[0])
			vt_info("server: every PID asked for is delivered again");
		C.pids_error[0] = 0;
		vt_debug("SET_PIDS: OK");
		return;
	}
	snprintf(now, sizeof(now), "%s%s%s", text[0] ? text : "PIDs",
		 strstr(text, strerror(err)) ? "" : ": ",
		 strstr(text, strerror(err)) ? "" : strerror(err));
	if (!C.pids_error[0])
		vt_err("server: %s (%u PIDs asked for)", now, C.pids->num);
	else
		vt_debug("server: %s (%u PIDs asked for)", now, C.pids->num);
	snprintf(C.pids_error, sizeof(C.pids_error), "%s", now);
}

/* OK or ERROR (err != 0) for request id. */
static void on_reply(uint32_t id, uint32_t err, const char *text)
{
	uint16_t type = req_take(id);
	const char *tname = type ? vtp_type_name(type) : "request";

	if (err && (type == VTP_HELLO || type == VTP_AUTH ||
		    type == VTP_LIST_TUNERS ||
		    type == VTP_OPEN_TUNER || type == VTP_DATA_ATTACH)) {
		session_lost("%s refused: %s%s%s", tname, strerror(err),
			     text[0] ? ": " : "", text);
		return;
	}
	if (type == VTP_SET_PIDS)
		pids_result(err, text);
	else if (err)
		vt_warn("server: %s failed: %s%s%s", tname, strerror(err),
			text[0] ? ": " : "", text);
	else
		vt_debug("%s: OK", tname);
	if (type == VTP_DATA_ATTACH && !err) {
		/* the server's last clear frame on the data connection */
		conn_seal_rx(&C.dc);
		C.attached = true;
		return;
	}
	if (C.kpending && id == C.kreqid)
		kernel_answer(NULL);
	if (C.replay_pos >= 0 && id == C.replay_reqid) {
		C.replay_pos++;
		replay_step();
	}
}

static void on_status(const struct vtp_status *s)
{
	/* another tune's, before any tune, or without a tuner open */
	if (C.st != S_READY || !C.have_tune || s->seq != C.cur_seq)
		return;
	push_status(s, C.cur_seq);
}

static void on_keepalive_reply(struct vc_conn *c, uint64_t stamp)
{
	uint64_t now = vt_now_ns(), rtt = now > stamp ? now - stamp : 0;

	if (c == &C.dc) {
		C.data_rtt = rtt;
		return;
	}
	C.rtt_sum += rtt;
	C.rtt_n++;
	if (rtt > C.rtt_max)
		C.rtt_max = rtt;
}

static void on_ts(const struct vtp_ts *ts)
{
	int ret;

	if (!C.have_tune || ts->seq != C.cur_seq) {
		C.stale_frames++;	/* an old tune's: never delivered */
		return;
	}
	tscc_feed(&C.tscc, ts->data, ts->len);
	C.bytes += ts->len;
	ret = ctrl_write_ts(C.ts_fd, ts->data, ts->len);
	if (ret < 0) {
		vt_err("writing TS to %s: %s", C.o->sink ? C.o->sink :
		       C.ctrl.path, strerror(-ret));
		if (C.o->sink) {
			C.stop = true;
			C.exit_code = 1;
		}
	}
}

/*
 * Before the handshake is complete only its next frame is taken from the
 * server (and an ERROR, which ends the session): a STATUS or anything
 * else from a server that has not proved the key ends it.
 */
static bool handshake_frame(const struct vc_conn *c, uint16_t type)
{
	return c == &C.cc &&
	       ((type == VTP_HELLO_REPLY && C.st == S_HELLO) ||
		(type == VTP_AUTH_REPLY && C.st == S_AUTH) ||
		type == VTP_ERROR);
}

/* The session ends: the server broke the handshake with a frame of type. */
static void handshake_broken(const char *what, uint16_t type)
{
	session_lost("%s%s before the server %s; refused", what,
		     vtp_type_name(type), C.o->psk ? "proved the key" :
		     "answered HELLO");
}

/* One decoded frame m from connection c; false if the session ended. */
static bool on_frame(struct vc_conn *c, const struct vtp_msg *m)
{
	c->last_rx = vt_now_ns();
	if (!C.established && !handshake_frame(c, m->hdr.type)) {
		handshake_broken("", m->hdr.type);
		return false;
	}
	switch (m->hdr.type) {
	case VTP_HELLO_REPLY:
		if (c != &C.cc || C.st != S_HELLO)
			break;
		req_take(m->hdr.reqid);
		snprintf(C.server_name, sizeof(C.server_name), "%s",
			 m->u.hello_reply.name);
		vt_debug("%s: server '%s', protocol version %u", C.addr,
			 C.server_name, m->u.hello_reply.version);
		if (C.o->psk)
			return auth_start(&m->u.hello_reply) && C.st != S_IDLE;
		C.established = true;
		C.st = S_LIST;
		return true;
	case VTP_AUTH_REPLY:
		if (c != &C.cc || C.st != S_AUTH)
			break;
		req_take(m->hdr.reqid);
		on_auth_reply(&m->u.auth);
		return C.st != S_IDLE;
	case VTP_TUNER_LIST:
		if (c != &C.cc || C.st != S_LIST)
			break;
		req_take(m->hdr.reqid);
		on_tuner_list(&m->u.tuners);
		return C.st != S_IDLE;
	case VTP_OPEN_REPLY:
		if (c != &C.cc || C.st != S_OPEN)
			break;
		req_take(m->hdr.reqid);
		on_open_reply(&m->u.open_reply);
		return C.st != S_IDLE;
	case VTP_OK:
		on_reply(m->hdr.reqid, 0, "");
		return C.st != S_IDLE;
	case VTP_ERROR:
		on_reply(m->u.error.reqid ? m->u.error.reqid : m->hdr.reqid,
			 m->u.error.err, m->u.error.msg);
		return C.st != S_IDLE;
	case VTP_KEEPALIVE:
		return net_keepalive_reply(c, m->hdr.reqid, m->u.stamp) == 0 ||
		       (session_lost("keepalive reply failed"), false);
	case VTP_KEEPALIVE_REPLY:
		on_keepalive_reply(c, m->u.stamp);
		return true;
	case VTP_STATUS:
		if (c == &C.cc)
			on_status(&m->u.status);
		return true;
	case VTP_TS_DATA:
		if (c == &C.dc)
			on_ts(&m->u.ts);
		return true;
	default:
		break;
	}
	vt_debug("%s connection: unexpected %s dropped", c->what,
		 vtp_type_name(m->hdr.type));
	return true;
}

/* Read what the socket has and handle every complete frame. */
static void conn_input(struct vc_conn *c)
{
	int rounds, ret;
	ssize_t n;

	for (rounds = 0; rounds < 8; rounds++) {
		n = conn_fill(c);
		if (n == -EAGAIN)
			return;
		if (n == 0) {
			session_lost("%s connection closed by the server",
				     c->what);
			return;
		}
		if (n < 0) {
			session_lost("%s connection: %s", c->what,
				     strerror(-n));
			return;
		}
		while ((ret = conn_next(c, &msg)) != 0) {
			if (ret == -EKEYREJECTED) {
				session_lost("%s connection: %s", c->what,
					     msg.hdr.type == VTP_SEALED ?
					     "a frame did not open (changed, "
					     "replayed, reordered, dropped or "
					     "injected on the way)" :
					     "an unprotected frame in a "
					     "protected session (injected on "
					     "the way?)");
				return;
			}
			if (ret == -EBADMSG || ret == -EMSGSIZE) {
				session_lost("%s connection: %s", c->what,
					     ret == -EBADMSG ?
					     "stream out of sync (bad magic)" :
					     "frame too long");
				return;
			}
			if ((ret == -ENOTSUP || ret == -EPROTO) &&
			    !C.established) {
				handshake_broken(ret == -ENOTSUP ? "unknown " :
						 "malformed ", msg.hdr.type);
				return;
			}
			if (ret == -ENOTSUP || ret == -EPROTO) {
				/* requests get an ERROR, replies are dropped */
				vt_debug("%s connection: %s frame type 0x%04x",
					 c->what, ret == -ENOTSUP ? "unknown" :
					 "malformed", msg.hdr.type);
				if ((ret == -ENOTSUP ||
				     vtp_is_request(msg.hdr.type)) &&
				    msg.hdr.reqid &&
				    net_error(c, msg.hdr.reqid, -ret,
					      ret == -ENOTSUP ? "unknown type" :
					      "malformed") < 0) {
					session_lost("%s connection: write "
						     "failed", c->what);
					return;
				}
				continue;
			}
			if (!on_frame(c, &msg) || c->fd < 0)
				return;
		}
		if (c->rd->drained)
			return;
	}
}

static void conn_event(struct vc_conn *c, short revents)
{
	ssize_t left;
	int ret;

	if (c->connecting) {
		if (!(revents & (POLLOUT | POLLERR | POLLHUP)))
			return;
		ret = conn_finish(c);
		if (ret < 0) {
			session_lost("%s connection: %s", c->what,
				     strerror(-ret));
			return;
		}
		if (c == &C.cc)
			on_connected();
		if (c->fd < 0)
			return;
	}
	if (revents & (POLLIN | POLLERR | POLLHUP))
		conn_input(c);
	if (c->fd >= 0 && vtp_writer_pending(&c->wr)) {
		left = conn_flush(c);
		if (left < 0)
			session_lost("%s connection: %s", c->what,
				     strerror(-left));
	}
}

/* ---- the control device ------------------------------------------------ */

static void record_sec(const struct sec_op *op)
{
	if (C.tuned_since_sec) {
		C.nsec = 0;
		C.tuned_since_sec = false;
	}
	if (C.nsec == MAX_SEC_LOG) {
		memmove(C.sec, C.sec + 1, sizeof(C.sec) - sizeof(C.sec[0]));
		C.nsec--;
	}
	C.sec[C.nsec++] = *op;
	if (op->type == VTP_SET_VOLTAGE)
		C.last_voltage = op->value;
	if (op->type == VTP_ENABLE_HIGH_VOLTAGE)
		C.last_hv = op->value;
}

static void kernel_sec(const struct vtuner_message *m, struct sec_op *op)
{
	int id;

	record_sec(op);
	if (!live()) {
		/* no server: answered now, replayed when it is back */
		ctrl_respond(&C.ctrl, m);
		return;
	}
	C.kmsg = *m;
	C.kpending = true;
	C.kdeadline = vt_now_ns() + SEC_ANSWER_TIMEOUT;
	id = send_sec(op);
	if (id > 0)
		C.kreqid = id;
}

/*
 * A tune: sent to the server, answered at once (the module's frontend
 * thread waits), and only then logged: no log write on the zap path.
 */
static void kernel_tune(const struct vtuner_message *m)
{
	bool tuned = ctrl_get_tune(&C.ctrl, &C.tune) == 0;
	char desc[96];

	if (tuned) {
		C.have_tune = true;
		C.cur_seq = C.tune.seq;
		C.tuned_since_sec = true;
		C.status_known = false;
		tscc_reset(&C.tscc);
	}
	if (C.have_tune && live())
		send_tune();
	ctrl_respond(&C.ctrl, m);
	vt_debug("module: %s", ctrl_msg_name(m->type));
	if (tuned) {
		props_describe(&C.tune, desc, sizeof(desc));
		vt_info("tune %u: %s", C.tune.seq, desc);
	}
}

static void kernel_message(const struct vtuner_message *m)
{
	struct sec_op op = { 0 };

	if (m->type == MSG_SET_FRONTEND) {
		kernel_tune(m);
		return;
	}
	vt_debug("module: %s", ctrl_msg_name(m->type));
	switch (m->type) {
	case MSG_SET_TONE:
		op.type = VTP_SET_TONE;
		op.value = m->body.tone;
		break;
	case MSG_SET_VOLTAGE:
		op.type = VTP_SET_VOLTAGE;
		op.value = m->body.voltage;
		break;
	case MSG_ENABLE_HIGH_VOLTAGE:
		op.type = VTP_ENABLE_HIGH_VOLTAGE;
		op.value = m->body.voltage;
		break;
	case MSG_SEND_DISEQC_BURST:
		op.type = VTP_DISEQC_BURST;
		op.value = m->body.burst;
		break;
	case MSG_SEND_DISEQC_MSG:
		op.type = VTP_DISEQC_MASTER;
		op.d.len = m->body.diseqc_master_cmd.msg_len;
		if (op.d.len < VTP_DISEQC_MIN || op.d.len > VTP_DISEQC_MAX) {
			vt_warn("DiSEqC message of %u bytes ignored", op.d.len);
			ctrl_respond(&C.ctrl, m);
			return;
		}
		memcpy(op.d.msg, m->body.diseqc_master_cmd.msg, op.d.len);
		break;
	case MSG_PIDLIST:	/* never answered */
		if (ctrl_get_pids(&C.ctrl, C.pids) == 0) {
			C.have_pids = true;
			tscc_set_pids(&C.tscc, C.pids->pid, C.pids->num);
			if (live())
				send_pids();
		}
		return;
	default:
		ctrl_respond(&C.ctrl, m);
		return;
	}
	kernel_sec(m, &op);
}

static void ctrl_event(void)
{
	struct vtuner_message m;
	int ret;

	/* one message in flight: none comes while one waits for its answer */
	while (!C.kpending && !C.stop) {
		ret = ctrl_get_message(&C.ctrl, &m);
		if (ret == 0)
			return;
		if (ret < 0) {
			vt_err("%s: VTUNER_GET_MESSAGE: %s", C.ctrl.path,
			       strerror(-ret));
			C.stop = true;
			C.exit_code = 1;
			return;
		}
		kernel_message(&m);
	}
}

/* ---- timers ------------------------------------------------------------- */

static void report(uint64_t now)
{
	uint64_t dt = now - C.last_report ? now - C.last_report : 1;
	struct tscc_counts *iv = &C.tscc.interval;
	char pids[160];

	if (iv->cc_errors || iv->sync_errors) {
		tscc_format(&C.tscc, pids, sizeof(pids), 5);
		vt_warn("TS: %llu continuity error(s)%s%s%s, %llu sync error(s)"
			" in %.0f s", (unsigned long long)iv->cc_errors,
			pids[0] ? " (" : "", pids, pids[0] ? ")" : "",
			(unsigned long long)iv->sync_errors, dt / 1e9);
	}
	if (C.stale_frames != C.stale_report) {
		vt_info("TS: %llu frame(s) of an earlier tune dropped in %.0f s",
			(unsigned long long)(C.stale_frames - C.stale_report),
			dt / 1e9);
		C.stale_report = C.stale_frames;
	}
	if (C.o->sink || vt_log_level() >= LOG_DEBUG)
		vt_log(C.o->sink ? LOG_INFO : LOG_DEBUG,
		       "TS: %.2f Mbit/s; control rtt avg %.1f ms max %.1f ms, "
		       "data rtt %.1f ms; %llu stale frame(s) dropped",
		       (C.bytes - C.bytes_report) * 8e3 / (double)dt,
		       C.rtt_n ? C.rtt_sum / 1e6 / C.rtt_n : 0.0,
		       C.rtt_max / 1e6, C.data_rtt / 1e6,
		       (unsigned long long)C.stale_frames);
	tscc_clear_interval(&C.tscc);
	C.last_report = now;
	C.bytes_report = C.bytes;
	C.rtt_sum = C.rtt_n = C.rtt_max = 0;
}

static void write_status(uint64_t now)
{
	struct vc_status s = {
		.device = C.o->sink ? C.o->sink : C.o->device,
		.server = C.addr[0] ? C.addr : NULL,
		.server_name = C.server_name,
		.state = state_names[C.st],
		.tuner = C.index,
		.tuner_name = C.index >= 0 ? C.tuner.name : NULL,
		.tune = C.have_tune ? &C.tune : NULL,
		.fe = C.status_known ? &C.last_fe : NULL,
		.bytes = C.bytes,
		.cc_errors = C.tscc.total.cc_errors,
		.sync_errors = C.tscc.total.sync_errors,
		.stale_frames = C.stale_frames,
		.bitrate = (C.bytes - C.bytes_status) * 8.0,
		.rtt_ms = C.rtt_n ? C.rtt_sum / 1e6 / C.rtt_n : C.last_rtt,
		.sessions = C.sessions,
		.pids_error = C.pids_error,
	};

	if (C.rtt_n)
		C.last_rtt = s.rtt_ms;
	vc_status_write(&s);
	C.bytes_status = C.bytes;
	C.next_status = now + SEC;
}

static void timers(uint64_t now)
{
	if (C.status_file && now >= C.next_status)
		write_status(now);
	if (C.kpending && now >= C.kdeadline)
		kernel_answer("no answer from the server within 1.5 s");
	if (C.st == S_IDLE && now >= C.reconnect_at)
		session_start();
	if (C.st != S_IDLE && (C.st != S_READY || !C.attached ||
			       C.replay_pos >= 0) && now >= C.hs_deadline) {
		session_lost("no answer within %.0f s",
			     HANDSHAKE_TIMEOUT / 1e9);
	}
	/* nothing but the handshake before it is complete: no KEEPALIVE */
	if (C.established && now >= C.next_keepalive) {
		/*
		 * TS arriving on the data connection proves the server alive
		 * as well: under load (a congested link, a busy host) its
		 * control frames may lag behind, and reconnecting then only
		 * adds to the load.  A control connection silent for
		 * CTRL_DEAD_TIMEOUT is dead whatever the data connection does.
		 */
		uint64_t heard = C.cc.last_rx;

		if (C.attached && C.dc.fd >= 0 && C.dc.last_rx > heard)
			heard = C.dc.last_rx;
		if (now - heard > DEAD_TIMEOUT) {
			session_lost("nothing received for %.0f s",
				     DEAD_TIMEOUT / 1e9);
		} else if (now - C.cc.last_rx > CTRL_DEAD_TIMEOUT) {
			session_lost("nothing received on the control "
				     "connection for %.0f s",
				     CTRL_DEAD_TIMEOUT / 1e9);
		} else {
			C.next_keepalive = now + KEEPALIVE_PERIOD;
			if (net_keepalive(&C.cc, now) < 0)
				session_lost("keepalive: cannot send");
			else if (C.attached && net_keepalive(&C.dc, now) < 0)
				session_lost("data keepalive: cannot send");
		}
	}
	if (now >= C.next_report) {
		C.next_report = now + REPORT_PERIOD;
		report(now);
	}
}

static uint64_t next_deadline(void)
{
	uint64_t t = C.next_report;

#define EARLIER(x) do { if ((x) < t) t = (x); } while (0)
	if (C.kpending)
		EARLIER(C.kdeadline);
	if (C.st == S_IDLE)
		EARLIER(C.reconnect_at);
	else if (C.st != S_READY || !C.attached || C.replay_pos >= 0)
		EARLIER(C.hs_deadline);
	if (C.established)
		EARLIER(C.next_keepalive);
	if (C.status_file)
		EARLIER(C.next_status);
#undef EARLIER
	return t;
}

/* Arm the timer for at, unless it already is (a system call a wake-up). */
static void arm_timer(uint64_t at)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	if (!at)
		at = 1;
	if (at == C.timer_at)
		return;
	C.timer_at = at;
	its.it_value.tv_sec = at / SEC;
	its.it_value.tv_nsec = at % SEC;
	timerfd_settime(C.tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* ---- setup and loop ----------------------------------------------------- */

static int setup(const struct vc_opts *o)
{
	sigset_t set;

	memset(&C, 0, sizeof(C));
	C.o = o;
	C.ctrl.fd = -1;
	C.ts_fd = -1;
	C.index = -1;
	C.replay_pos = -1;
	C.last_voltage = C.last_hv = -1;
	C.backoff = BACKOFF_MIN;
	C.pids = calloc(1, sizeof(*C.pids));
	if (!C.pids || conn_init(&C.cc, "control", CTRL_WQUEUE) ||
	    conn_init(&C.dc, "data", DATA_WQUEUE)) {
		vt_err("out of memory");
		return -1;
	}
	tscc_init(&C.tscc);

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	C.sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	C.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (C.sfd < 0 || C.tfd < 0) {
		vt_err("signalfd/timerfd: %s", strerror(errno));
		return -1;
	}

	if (o->sink) {
		C.ts_fd = open(o->sink, O_WRONLY | O_CREAT | O_TRUNC |
			       O_CLOEXEC, 0644);
		if (C.ts_fd < 0) {
			vt_err("cannot open %s: %s", o->sink, strerror(errno));
			return -1;
		}
		if (o->have_tune) {
			C.tune = o->tune;
			C.tune.seq = 1;
			C.have_tune = true;
			C.cur_seq = 1;
		}
		if (o->have_pids) {
			memcpy(C.pids, o->pids, sizeof(*C.pids));
			C.have_pids = true;
		}
		return 0;
	}
	if (ctrl_open(&C.ctrl, o->device) < 0)
		return -1;
	C.ts_fd = C.ctrl.fd;
	/* a restarted client takes over the applications' last tune */
	if (ctrl_get_tune(&C.ctrl, &C.tune) == 0 && C.tune.seq) {
		C.have_tune = true;
		C.cur_seq = C.tune.seq;
		vt_info("tune %u: taken over from the previous client",
			C.tune.seq);
	}
	return 0;
}

static void teardown(void)
{
	uint64_t dt = vt_now_ns() - C.started;

	kernel_answer(NULL);
	session_close();
	if (C.status_file)
		vc_status_remove();
	if (C.o->sink)
		vt_notice("%llu bytes of TS in %.1f s (%.2f Mbit/s), %llu "
			"continuity and %llu sync error(s)",
			(unsigned long long)C.bytes, dt / 1e9,
			dt ? C.bytes * 8e3 / (double)dt : 0.0,
			(unsigned long long)C.tscc.total.cc_errors,
			(unsigned long long)C.tscc.total.sync_errors);
	if (C.o->sink && C.ts_fd >= 0)
		close(C.ts_fd);
	/* closing the control device releases the applications' waiters */
	ctrl_close(&C.ctrl);
	if (C.ai)
		freeaddrinfo(C.ai);
	free(C.pids);
	free(C.cc.rd);
	free(C.cc.wstore);
	free(C.dc.rd);
	free(C.dc.wstore);
	close(C.tfd);
	close(C.sfd);
}

static short conn_events(const struct vc_conn *c)
{
	if (c->connecting)
		return POLLOUT;
	return POLLIN | (vtp_writer_pending(&c->wr) ? POLLOUT : 0);
}

int client_run(const struct vc_opts *o, void (*ready)(bool ok))
{
	struct pollfd pfd[5];
	int n, i_ctrl, i_cc, i_dc, cc_fd, dc_fd;
	uint64_t now;

	if (setup(o) < 0) {
		if (ready)
			ready(false);
		return 1;
	}
	if (ready)
		ready(true);
	vt_info("%s <- tuner %s of %s:%s", o->sink ? o->sink : o->device,
		o->tuner >= 0 ? "(-t)" : "(first free)", o->host, o->port);
	C.started = now = vt_now_ns();
	C.next_report = now + REPORT_PERIOD;
	C.last_report = now;
	C.reconnect_at = now;
	C.status_file = vc_status_init(o->status_file, o->sink ? NULL :
				       o->device);
	C.next_status = now;

	while (!C.stop) {
		n = 0;
		pfd[n++] = (struct pollfd){ .fd = C.sfd, .events = POLLIN };
		pfd[n++] = (struct pollfd){ .fd = C.tfd, .events = POLLIN };
		i_ctrl = i_cc = i_dc = -1;
		if (C.ctrl.fd >= 0 && !C.kpending) {
			i_ctrl = n;
			pfd[n++] = (struct pollfd){ .fd = C.ctrl.fd,
						    .events = POLLPRI };
		}
		cc_fd = C.cc.fd;
		dc_fd = C.dc.fd;
		if (cc_fd >= 0) {
			i_cc = n;
			pfd[n++] = (struct pollfd){ .fd = cc_fd,
						    .events = conn_events(&C.cc) };
		}
		if (dc_fd >= 0) {
			i_dc = n;
			pfd[n++] = (struct pollfd){ .fd = dc_fd,
						    .events = conn_events(&C.dc) };
		}
		arm_timer(next_deadline());
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			vt_err("poll: %s", strerror(errno));
			C.exit_code = 1;
			break;
		}
		if (pfd[0].revents) {
			struct signalfd_siginfo si;

			if (read(C.sfd, &si, sizeof(si)) == sizeof(si))
				vt_info("%s: exiting", strsignal(si.ssi_signo));
			break;
		}
		if (pfd[1].revents) {
			uint64_t ticks;

			if (read(C.tfd, &ticks, sizeof(ticks)) < 0 &&
			    errno != EAGAIN)
				vt_debug("timerfd: %s", strerror(errno));
			C.timer_at = 0;	/* expired: arm it again */
		}
		if (i_ctrl >= 0 && (pfd[i_ctrl].revents & (POLLPRI | POLLIN)))
			ctrl_event();
		if (i_ctrl >= 0 && (pfd[i_ctrl].revents & (POLLERR | POLLHUP |
							   POLLNVAL))) {
			vt_err("%s: device error", C.ctrl.path);
			C.exit_code = 1;
			break;
		}
		/* a handler may have closed (and reopened) a connection */
		if (i_cc >= 0 && C.cc.fd == cc_fd && pfd[i_cc].revents)
			conn_event(&C.cc, pfd[i_cc].revents);
		if (i_dc >= 0 && C.dc.fd == dc_fd && pfd[i_dc].revents)
			conn_event(&C.dc, pfd[i_dc].revents);
		timers(vt_now_ns());
	}
	teardown();
	return C.exit_code;
}
