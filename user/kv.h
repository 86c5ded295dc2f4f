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
/*
 * The line of such text at P: *start where its key begins (blanks and an
 * "export " prefix skipped), *end its end (the newline or NUL).  Returns the
 * next line (at the NUL when there is none), for walking every key.
 */
const char *fl_kv_line(const char *p, const char **start, const char **end);

#endif
