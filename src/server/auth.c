// SPDX-License-Identifier: GPL-2.0
/*
 * auth.c - vtunerd's side of the pre-shared key authentication
 * (docs/protocol.md, "Authentication"; docs/security.md).
 *
 * With --psk-file, a control session is unauthenticated after HELLO and
 * accepts nothing but AUTH; every other request, a wrong proof or a
 * client without a key closes the connection with ERROR EACCES and a log
 * line naming the peer's address (any other frame closes it too, without
 * the ERROR).  A verified AUTH completes the handshake.  The token of
 * DATA_ATTACH must carry the session's MAC.  A client must ask for
 * VTP_FEAT_SEAL too: after AUTH_REPLY (after the OK of DATA_ATTACH) every
 * frame of the connection is sealed both ways.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sodium.h>

#include "common/log.h"
#include "server/server.h"

static void vtd_auth_refuse(struct vtd_conn *c, uint32_t reqid,
			    const char *why)
{
	char msg[VTP_ERRMSG_MAX + 1];

	vt_warn("%s: authentication failed (%s)", c->peer, why);
	snprintf(msg, sizeof(msg), "authentication failed: %s", why);
	vtd_send_error_msg(c, reqid, EACCES, msg);
	vtd_conn_close_after_flush(c);
}

int vtd_auth_hello(struct vtd_conn *c, const struct vtp_msg *m,
		   struct vtp_hello_reply *r)
{
	const struct vtp_psk *k = c->srv->cfg->psk;
	const struct vtp_hello *h = &m->u.hello;
	struct vtd_session *s = c->sess;

	if (!k)
		return 0;
	if (!(h->features & VTP_FEAT_AUTH) || !h->has_nonce) {
		vtd_auth_refuse(c, m->hdr.reqid, "the client has no key; this "
				"server needs one");
		return -1;
	}
	if (!(h->features & VTP_FEAT_SEAL)) {
		vtd_auth_refuse(c, m->hdr.reqid, "the client does not protect "
				"the session (no VTP_FEAT_SEAL: an older "
				"vtunerc?); this server needs it");
		return -1;
	}
	r->features |= VTP_FEAT_AUTH | VTP_FEAT_SEAL;
	if ((h->features & VTP_FEAT_SEAL_OCB) && c->srv->cfg->seal_ocb)
		r->features |= VTP_FEAT_SEAL_OCB;
	r->has_nonce = true;
	vtp_auth_nonce(r->nonce);
	memcpy(s->actx.nc, h->nonce, VTP_NONCE_LEN);
	memcpy(s->actx.ns, r->nonce, VTP_NONCE_LEN);
	s->actx.version = r->version;
	s->actx.features = r->features;
	snprintf(s->actx.cname, sizeof(s->actx.cname), "%s", h->name);
	snprintf(s->actx.sname, sizeof(s->actx.sname), "%s", r->name);
	return 0;
}

void vtd_auth_control(struct vtd_conn *c, const struct vtp_msg *m)
{
	const struct vtp_psk *k = c->srv->cfg->psk;
	struct vtd_session *s = c->sess;
	uint8_t buf[VTP_HDR_LEN + VTP_MAC_LEN];
	struct vtp_auth a;

	if (m->hdr.type != VTP_AUTH && m->hdr.reqid &&
	    vtp_is_request(m->hdr.type)) {
		char why[64];

		snprintf(why, sizeof(why), "%s before AUTH",
			 vtp_type_name(m->hdr.type));
		vtd_auth_refuse(c, m->hdr.reqid, why);
		return;
	}
	if (m->hdr.type != VTP_AUTH) {
		vtd_conn_refuse(c, 0, 0, "%s before the handshake (AUTH)",
				vtp_type_name(m->hdr.type));
		return;
	}
	if (!vtp_auth_verify(k, VTP_AUTH_CLIENT, &s->actx, m->u.auth.mac)) {
		vtd_auth_refuse(c, m->hdr.reqid, "wrong key");
		return;
	}
	if (!vtd_session_establish(c, m->hdr.reqid))
		return;
	vtp_auth_proof(k, VTP_AUTH_SERVER, &s->actx, a.mac);
	vt_notice("#%u %s: client '%s' authenticated; session sealed with %s",
		  c->id, c->peer, s->name,
		  vtp_cipher_name(vtp_auth_cipher(&s->actx)));
	vtd_conn_send(c, buf, (size_t)vtp_encode_auth_reply(buf, sizeof(buf),
							    m->hdr.reqid, &a));
	/* AUTH and AUTH_REPLY are the last clear frames */
	if (!c->dead)
		vtd_conn_seal(c, s, NULL);
}

bool vtd_token_equal(const uint8_t *a, const uint8_t *b)
{
	return crypto_verify_16(a, b) == 0;
}

bool vtd_auth_attach(struct vtd_conn *c, const struct vtd_session *s,
		     const struct vtp_msg *m)
{
	const struct vtp_psk *k = c->srv->cfg->psk;
	const struct vtp_attach *a = &m->u.attach;

	if (!k)
		return true;
	if (!a->has_mac) {
		vtd_auth_refuse(c, m->hdr.reqid, "DATA_ATTACH without MAC");
		return false;
	}
	if (!vtp_auth_attach_verify(k, &s->actx, a->token, a->mac)) {
		vtd_auth_refuse(c, m->hdr.reqid, "DATA_ATTACH: wrong MAC");
		return false;
	}
	return true;
}
