/* SPDX-License-Identifier: GPL-2.0 */
/* Output files written atomically (atomic.h: a temp file beside the target, renamed over it). */
#ifndef FAULTLINE_EXPORT_OUT_H
#define FAULTLINE_EXPORT_OUT_H

#include <stdio.h>

#include "atomic.h"

struct fl_out {
	FILE *f;
	struct fl_atomic a;	/* a.path NULL: stdout */
};

/* path NULL or "-": stdout.  0 or -1 with a message on stderr. */
int fl_out_open(struct fl_out *o, const char *path);
/* Flush, fsync, rename into place.  0 or -1 (message printed, temp removed). */
int fl_out_commit(struct fl_out *o);
/* Drop the temp file (error paths). */
void fl_out_abort(struct fl_out *o);

/* JSON string literal of s (quotes included). */
void fl_json_str(FILE *f, const char *s);
/* JSON number (Go %v digits, valid JSON) or null for NaN/Inf. */
void fl_json_num(FILE *f, double v);
/* CSV field (quoted when it contains , " or a newline). */
void fl_csv_str(FILE *f, const char *s);

#endif
