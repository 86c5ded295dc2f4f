/* SPDX-License-Identifier: GPL-2.0 */
/* Merging the interval snapshots of one recording; loading FILE or DIR. */
#ifndef FAULTLINE_REPORT_MERGE_H
#define FAULTLINE_REPORT_MERGE_H

#include <stddef.h>
#include "snapshot.h"

/*
 * dst += src.  An empty dst (cpus == NULL) becomes a copy of src.  Refuses
 * snapshots of a different CPU count, backend, tier or lockless kind.
 * vmstat deltas add up; durations add up; live hooks are those live in both.
 */
int fl_snapshot_merge(struct fl_snapshot *dst, const struct fl_snapshot *src,
		      char *err, size_t errlen);

/* A snapshot file, or every *.snap in a directory (sorted) merged. */
int fl_snapshot_load(const char *path, struct fl_snapshot *out, unsigned int *nfiles,
		     char *err, size_t errlen);

#endif
