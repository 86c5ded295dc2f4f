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
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "errbuf.h"
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

/*
 * --listen: "HOST:PORT", "[V6ADDR]:PORT" or ":PORT" (127.0.0.1).  HOST is
 * a numeric IPv4 address or a name (localhost, a host name: getaddrinfo's
 * addresses, in its order); a numeric IPv6 address goes in brackets.
 * PORT 0: the kernel picks one (fl_http_start says which).  *RES: the
 * addresses, port set; 0, or -1 + err naming the value.
 */
static int listen_addrs(const char *s, struct addrinfo **res, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	char host[256];
	const char *colon;
	char *end;
	unsigned long port;
	int e;

	*res = NULL;
	if (s[0] == '[') {
		const char *rb = strchr(s, ']');
		struct in6_addr a6;

		if (!rb || rb[1] != ':' || (size_t)(rb - s - 1) >= sizeof(host))
			goto bad;
		memcpy(host, s + 1, rb - s - 1);
		host[rb - s - 1] = '\0';
		if (inet_pton(AF_INET6, host, &a6) != 1)
			goto bad;
		colon = rb + 1;
		hints.ai_family = AF_INET6;
		hints.ai_flags |= AI_NUMERICHOST;
	} else {
		colon = strchr(s, ':');
		/* one colon: an unbracketed IPv6 address is ambiguous */
		if (!colon || strchr(colon + 1, ':') || (size_t)(colon - s) >= sizeof(host))
			goto bad;
		memcpy(host, s, colon - s);
		host[colon - s] = '\0';
		if (!host[0])
			strcpy(host, "127.0.0.1");
		hints.ai_family = AF_UNSPEC;
	}
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || end == colon + 1 || *end || port > 65535 || colon[1] < '0' || colon[1] > '9')
		goto bad;
	e = getaddrinfo(host, NULL, &hints, res);
	if (e) {
		fl_fail(err, errlen, "--listen '%s': %s", s,
			e == EAI_SYSTEM ? strerror(errno) : gai_strerror(e));
		*res = NULL;
		return -1;
	}
	for (struct addrinfo *ai = *res; ai; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET6)
			((struct sockaddr_in6 *)ai->ai_addr)->sin6_port = htons(port);
		else if (ai->ai_family == AF_INET)
			((struct sockaddr_in *)ai->ai_addr)->sin_port = htons(port);
	}
	return 0;
bad:
	return fl_fail(err, errlen, "--listen '%s': expected ADDR:PORT, [V6ADDR]:PORT or :PORT", s);
}

/* The first address of --listen S (serve checks it before attaching). */
int fl_http_parse_listen(const char *s, void *sa, unsigned int *salen, char *err, size_t errlen)
{
	struct addrinfo *res;

	if (listen_addrs(s, &res, err, errlen))
		return -1;
	if (!res || res->ai_addrlen > sizeof(struct sockaddr_storage)) {
		fl_fail(err, errlen, "--listen '%s': no address", s);
		freeaddrinfo(res);
		return -1;
	}
	memcpy(sa, res->ai_addr, res->ai_addrlen);
	*salen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* "ADDR:PORT" or "[V6ADDR]:PORT" of a bound socket, as a scraper would write it. */
static void sock_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[INET6_ADDRSTRLEN + 8], serv[16];

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) ||
	    getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host), serv, sizeof(serv),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, serv);
}

/*
 * A listening socket on the first of AI's addresses that binds: the fd, or
 * -1 with errno of the first refusal.  SO_REUSEADDR (a restart finds the
 * port in TIME_WAIT) but not SO_REUSEPORT: a second serve on a port in use
 * fails instead of sharing it.  An IPv6 socket is IPv6 only.
 */
static int listen_on(const struct addrinfo *ai)
{
	int first = 0;

	for (; ai; ai = ai->ai_next) {
		int one = 1, fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

		if (fd < 0) {
			first = first ? first : errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		if (!bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, SOMAXCONN))
			return fd;
		first = first ? first : errno;
		close(fd);
	}
	errno = first ? first : EADDRNOTAVAIL;
	return -1;
}

/* libmicrohttpd's own complaints, as one of serve's lines */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[512];

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	msg[strcspn(msg, "\n")] = '\0';
	fprintf(stderr, "faultline serve: http: %s\n", msg);
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

/*
 * Listen on LISTEN (the socket bound here, so that a taken port is one line
 * of ours) and serve M.  On success ERR holds the address really bound,
 * "ADDR:PORT" (the port the kernel chose for port 0), for the caller to
 * announce; on failure the reason, naming LISTEN.
 */
struct fl_http *fl_http_start(const char *listen, struct fl_serve_model *m,
			      pthread_mutex_t *mu, char *err, size_t errlen)
{
	struct addrinfo *res;
	struct fl_http *h;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL_LINUX_ONLY |
			     MHD_USE_ERROR_LOG;
	int fd, e;

	if (listen_addrs(listen, &res, err, errlen))
		return NULL;
	fd = listen_on(res);
	e = errno;
	freeaddrinfo(res);
	if (fd < 0) {
		fl_fail(err, errlen, "cannot listen on %s: %s", listen, strerror(e));
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		close(fd);
		fl_fail(err, errlen, "out of memory");
		return NULL;
	}
	h->m = m;
	h->mu = mu;
	errno = 0;
	h->d = MHD_start_daemon(flags, 0, NULL, NULL, handler, h,
				MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)FL_HTTP_MAX_CONN,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)FL_HTTP_TIMEOUT_S,
				MHD_OPTION_END);
	if (!h->d) {
		fl_fail(err, errlen, "cannot serve on %s: %s", listen,
			errno ? strerror(errno) : "libmicrohttpd refused");
		close(fd);	/* no thread of ours yet to reuse the number if it did */
		free(h);
		return NULL;
	}
	sock_name(fd, err, errlen);
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
