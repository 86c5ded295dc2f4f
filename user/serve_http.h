/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faultline serve's HTTP side: libmicrohttpd, its own thread(s), GET
 * /metrics answered from the model's latest rendering under the model's
 * mutex (a copy of the body per response, freed when it is sent).
 */
#ifndef FAULTLINE_SERVE_HTTP_H
#define FAULTLINE_SERVE_HTTP_H

#include <pthread.h>
#include <stddef.h>

#include "serve.h"

struct fl_http;

/* "ADDR:PORT", "[V6ADDR]:PORT" or ":PORT" (127.0.0.1).  0 or -1 + err. */
int fl_http_parse_listen(const char *s, void *sa, unsigned int *salen, char *err, size_t errlen);

struct fl_http *fl_http_start(const char *listen, struct fl_serve_model *m,
			      pthread_mutex_t *mu, char *err, size_t errlen);
unsigned long long fl_http_scrapes(const struct fl_http *h);
void fl_http_stop(struct fl_http *h);

#endif
