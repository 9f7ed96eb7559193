// SPDX-License-Identifier: GPL-2.0
/*
 * ssdp-run.c - vtunerd's SSDP endpoint (src/server/ssdp.c) alone, for
 * tests/server/ssdp.sh and for trying SAT>IP clients' discovery: a poll
 * loop around vtd_ssdp and a minimal HTTP server that answers every GET
 * with the desc.xml of src/satip/desc.c (and X-SATIP-RTSP-Port when the
 * RTSP port is not 554).  SIGTERM or SIGINT: ssdp:byebye, exit 0.
 *
 * ssdp-run [-b ADDR] [-H HTTP_PORT] [-r RTSP_PORT] [-s UUID_SEED]
 *          [-d DEVICE_ID] [-a MAX_AGE] [-n FRIENDLY_NAME] [-c CAPS] [-v]
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "common/clock.h"
#include "common/log.h"
#include "satip/desc.h"
#include "server/ssdp.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int http_listen(const char *addr, uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int fd, one = 1;

	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1)
		return -1;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 8) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One request, one answer: good enough for a test and a client's look. */
static void http_serve(int lfd, const char *xml, uint16_t rtsp_port)
{
	char req[2048], head[256], port[48] = "";
	struct timeval tv = { .tv_sec = 1 };
	ssize_t n;
	int fd, len;

	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	n = recv(fd, req, sizeof(req) - 1, 0);
	if (n > 0) {
		req[n] = 0;
		if (rtsp_port != 554)
			snprintf(port, sizeof(port),
				 "X-SATIP-RTSP-Port: %u\r\n", rtsp_port);
		len = snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\n"
			       "Content-Type: text/xml; charset=\"utf-8\"\r\n"
			       "Content-Length: %zu\r\n%s"
			       "Connection: close\r\n\r\n", strlen(xml), port);
		if (send(fd, head, (size_t)len, MSG_NOSIGNAL) == len &&
		    strncmp(req, "HEAD ", 5))
			send(fd, xml, strlen(xml), MSG_NOSIGNAL);
		vt_info("HTTP: %.*s", (int)strcspn(req, "\r\n"), req);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	struct vtd_ssdp_config cfg = {
		.bind_addr = "0.0.0.0", .http_port = 8875, .rtsp_port = 554,
		.device_id = 1,
	};
	struct satip_desc d = { .friendly_name = "vtunerd ssdp-run",
				.model_number = VT_VERSION,
				.caps = "DVBS2-2,DVBT-1" };
	const char *seed = "ssdp-run";
	int opt, level = LOG_INFO, hfd;
	struct vtd_ssdp *s = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	char uuid[37], xml[4096];
	uint64_t next;

	while ((opt = getopt(argc, argv, "b:H:r:s:d:a:n:c:v")) != -1) {
		switch (opt) {
		case 'b': cfg.bind_addr = optarg; break;
		case 'H': cfg.http_port = (uint16_t)atoi(optarg); break;
		case 'r': cfg.rtsp_port = (uint16_t)atoi(optarg); break;
		case 's': seed = optarg; break;
		case 'd': cfg.device_id = (unsigned int)atoi(optarg); break;
		case 'a': cfg.max_age = (unsigned int)atoi(optarg); break;
		case 'n': d.friendly_name = optarg; break;
		case 'c': d.caps = optarg; break;
		case 'v': level = LOG_DEBUG; break;
		default:
			fprintf(stderr, "usage: %s [-b ADDR] [-H HTTP_PORT] "
				"[-r RTSP_PORT] [-s UUID_SEED] [-d DEVICE_ID] "
				"[-a MAX_AGE] [-n NAME] [-c CAPS] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	vt_log_init("ssdp-run", VT_LOG_STDERR, level);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	satip_uuid_from(seed, uuid);
	cfg.uuid = d.uuid = uuid;
	d.config_id = cfg.config_id = satip_config_id(&d);
	if (satip_desc_xml(xml, sizeof(xml), &d) < 0) {
		vt_err("desc.xml does not fit");
		return 1;
	}
	if (vtd_ssdp_open(&s, &cfg) < 0)
		return 1;
	hfd = http_listen(cfg.bind_addr, cfg.http_port);
	if (hfd < 0) {
		vt_err("HTTP on %s:%u: %s", cfg.bind_addr, cfg.http_port,
		       strerror(errno));
		vtd_ssdp_close(s);
		return 1;
	}
	vt_info("ready: uuid:%s", uuid);
	next = vtd_ssdp_tick(s, vt_now_ns());
	while (!stop) {
		struct pollfd p[2] = {
			{ .fd = vtd_ssdp_fd(s), .events = POLLIN },
			{ .fd = hfd, .events = POLLIN },
		};
		uint64_t now = vt_now_ns();
		int timeout = next > now ? (int)((next - now) / 1000000 + 1) : 0;

		if (poll(p, 2, timeout) < 0 && errno != EINTR)
			break;
		if (p[0].revents & POLLIN)
			vtd_ssdp_input(s, vt_now_ns());
		if (p[1].revents & POLLIN)
			http_serve(hfd, xml, cfg.rtsp_port);
		next = vtd_ssdp_tick(s, vt_now_ns());
	}
	vt_info("stopping: byebye");
	vtd_ssdp_close(s);
	close(hfd);
	return 0;
}
