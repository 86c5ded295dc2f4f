/* SPDX-License-Identifier: GPL-2.0 */
/* "key=value" lines: snapshot tags, sweep.conf (kv.c). */
#ifndef FAULTLINE_KV_H
#define FAULTLINE_KV_H

#include <stddef.h>

/*
 * Value of KEY in "key=value" text (tags, sweep.conf: an optional "export "
 * prefix and surrounding quotes are removed).  Copied into buf; NULL when absent.
 */
const char *fl_kv_get(const char *text, const char *key, char *buf, size_t len);

#endif
