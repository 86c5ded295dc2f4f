// SPDX-License-Identifier: GPL-2.0
/*
 * faultline serve: /metrics over libmicrohttpd (Debian libmicrohttpd-dev).
 * The daemon runs its own polling thread; connections are bounded
 * (FL_HTTP_MAX_CONN) and time out (FL_HTTP_TIMEOUT_S), so slow or stuck
 * clients cost at most one body copy each and never hold the model's mutex:
 * the handler holds it only to copy the latest rendering.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "serve_http.h"

#define FL_HTTP_MAX_CONN	64
#define FL_HTTP_TIMEOUT_S	10
#define FL_HTTP_TAIL		1024
#define PROM_CT			"text/plain; version=0.0.4; charset=utf-8"
#define OM_CT			"application/openmetrics-text; version=1.0.0; charset=utf-8"

struct fl_http {
	struct MHD_Daemon *d;
	struct fl_serve_model *m;
	pthread_mutex_t *mu;
	atomic_ullong scrapes;
};

int fl_http_parse_listen(const char *s, void *sa, unsigned int *salen, char *err, size_t errlen)
{
	char host[128];
	const char *colon;
	char *end;
	unsigned long port;

	if (s[0] == '[') {
		const char *rb = strchr(s, ']');

		if (!rb || rb[1] != ':' || (size_t)(rb - s - 1) >= sizeof(host))
			goto bad;
		memcpy(host, s + 1, rb - s - 1);
		host[rb - s - 1] = '\0';
		colon = rb + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || (size_t)(colon - s) >= sizeof(host))
			goto bad;
		memcpy(host, s, colon - s);
		host[colon - s] = '\0';
		if (!host[0])
			strcpy(host, "127.0.0.1");
	}
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || end == colon + 1 || *end || port > 65535)
		goto bad;
	if (s[0] == '[') {
		struct sockaddr_in6 *a = sa;

		memset(a, 0, sizeof(*a));
		a->sin6_family = AF_INET6;
		a->sin6_port = htons(port);
		if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
			goto bad;
		*salen = sizeof(*a);
	} else {
		struct sockaddr_in *a = sa;

		memset(a, 0, sizeof(*a));
		a->sin_family = AF_INET;
		a->sin_port = htons(port);
		if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
			goto bad;
		*salen = sizeof(*a);
	}
	return 0;
bad:
	snprintf(err, errlen, "--listen '%s': expected ADDR:PORT, [V6ADDR]:PORT or :PORT "
		 "with a numeric address", s);
	return -1;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int code, const char *ct,
			     void *body, size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ct);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
			       const char *method, const char *version, const char *upload,
			       size_t *upload_len, void **ctx)
{
	struct fl_http *h = cls;
	static const char index_page[] =
		"faultline serve: Prometheus metrics at /metrics\n";
	char *body;
	size_t len;
	bool om = fl_serve_wants_openmetrics(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
									 MHD_HTTP_HEADER_ACCEPT));

	(void)version;
	(void)upload;
	if (!*ctx) {			/* first call: headers only */
		*ctx = h;
		return MHD_YES;
	}
	if (*upload_len) {		/* a GET has no body: drop what comes, answer after it */
		*upload_len = 0;
		return MHD_YES;
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			     (void *)"GET only\n", 9, MHD_RESPMEM_PERSISTENT);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/plain", (void *)index_page,
			     sizeof(index_page) - 1, MHD_RESPMEM_PERSISTENT);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", (void *)"not found\n", 10,
			     MHD_RESPMEM_PERSISTENT);
	pthread_mutex_lock(h->mu);
	if (!h->m->len) {
		pthread_mutex_unlock(h->mu);
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain",
			     (void *)"no reading yet\n", 15, MHD_RESPMEM_PERSISTENT);
	}
	len = h->m->len;
	body = malloc(len + FL_HTTP_TAIL);
	if (body) {
		memcpy(body, h->m->buf, len);
		len += fl_serve_scrape_tail(h->m, body + len, FL_HTTP_TAIL);
	}
	pthread_mutex_unlock(h->mu);
	if (body && om) {
		char *o = malloc(len + FL_SERVE_OM_EXTRA);

		if (o)
			len = fl_serve_openmetrics(body, len, o);
		free(body);
		body = o;
	}
	if (!body)
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain",
			     (void *)"out of memory\n", 14, MHD_RESPMEM_PERSISTENT);
	atomic_fetch_add(&h->scrapes, 1);
	return reply(c, MHD_HTTP_OK, om ? OM_CT : PROM_CT, body, len, MHD_RESPMEM_MUST_FREE);
}

struct fl_http *fl_http_start(const char *listen, struct fl_serve_model *m,
			      pthread_mutex_t *mu, char *err, size_t errlen)
{
	struct sockaddr_storage sa;
	unsigned int salen;
	struct fl_http *h;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL_LINUX_ONLY |
			     MHD_USE_ERROR_LOG;

	if (fl_http_parse_listen(listen, &sa, &salen, err, errlen))
		return NULL;
	if (sa.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->m = m;
	h->mu = mu;
	errno = 0;
	h->d = MHD_start_daemon(flags, 0, NULL, NULL, handler, h,
				MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)FL_HTTP_MAX_CONN,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)FL_HTTP_TIMEOUT_S,
				MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
				MHD_OPTION_END);
	if (!h->d) {
		snprintf(err, errlen, "cannot listen on %s: %s", listen,
			 errno ? strerror(errno) : "libmicrohttpd refused");
		free(h);
		return NULL;
	}
	return h;
}

unsigned long long fl_http_scrapes(const struct fl_http *h)
{
	return h ? atomic_load(&((struct fl_http *)h)->scrapes) : 0;
}

void fl_http_stop(struct fl_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->d);
	free(h);
}
