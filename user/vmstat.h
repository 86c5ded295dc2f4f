/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/vmstat counters that describe the fault path: pgfault, pgmajfault and
 * every spf_* / SPF_* / speculative_* / vma_lock_* counter the kernel has,
 * read before and after a window (FL_SEC_VMSTAT in a snapshot).
 */
#ifndef FAULTLINE_VMSTAT_H
#define FAULTLINE_VMSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <faultline/abi.h>

struct fl_vmstat {
	struct fl_vmstat_entry *e;
	unsigned int n;
};

/* Is NAME one of the counters we keep? */
bool fl_vmstat_wanted(const char *name);

/*
 * Parse /proc/vmstat text.  after == false: (re)build the list from the
 * wanted counters, setting .before (and .after to the same value).
 * after == true: set .after of the counters already listed (a counter that
 * appears only now is added with before = after).  0, or -1 on a malformed
 * line or no memory.
 */
int fl_vmstat_parse(struct fl_vmstat *v, const char *text, bool after);

/* Read PATH (NULL = /proc/vmstat) and parse it; 0 or -1 + err. */
int fl_vmstat_read(struct fl_vmstat *v, const char *path, bool after,
		   char *err, size_t errlen);

/* Start a new window: before := after for every counter. */
void fl_vmstat_roll(struct fl_vmstat *v);

/* Copy into the snapshot's vmstat section (replacing what was there). */
int fl_vmstat_to_snapshot(const struct fl_vmstat *v, struct fl_vmstat_entry **out,
			  unsigned int *nr);

void fl_vmstat_free(struct fl_vmstat *v);

#endif
