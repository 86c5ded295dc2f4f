/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Blame's rows as the snapshot keeps them (blame_rows.c), gathered by the
 * collector (blame_collect.c) from the BPF skeleton's sites or faultline.ko's rows.
 */
#ifndef FAULTLINE_BLAME_ROWS_H
#define FAULTLINE_BLAME_ROWS_H

#include <stddef.h>

#include "blame_model.h"

/* Rows being gathered: sites with the same syscall, comm and frames are one row. */
struct fl_blame_rows {
	struct fl_blame_row *v;
	unsigned int nr, cap;
};
/* Add one (identity and figures), merged into its site's row; 0 or -1 (out of memory). */
int fl_blame_rows_add(struct fl_blame_rows *rs, const struct fl_blame_row *one);
/* The top FL_BLAME_TOP_ROWS, by wait caused, as the FL_SEC_BLAME section; frees rs.  0 or -1. */
int fl_blame_rows_put(struct fl_blame_rows *rs, struct fl_snapshot *s, char *err, size_t errlen);
/* Remove the FL_SEC_BLAME and FL_SEC_BLAME_TOTAL sections. */
void fl_blame_drop_sections(struct fl_snapshot *s);
/*
 * The sections faultline.ko's snapshot brought (module/blame.c: a row per
 * site, frames symbolised there) made the BPF skeleton's: merged, the
 * holder's kind set, the top rows; *t its total (fb_seen: none).  0; 1 when
 * s has no module rows (its sections dropped); -1 + err.
 */
int fl_blame_kmod_rows(struct fl_snapshot *s, struct fl_blame_total *t, char *err,
		       size_t errlen);

#endif
