/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Holder attribution (`record --blame`, `report --blame`): who held
 * mmap_lock for write while faults waited.  A separate BPF skeleton
 * (ebpf/blame.bpf.c) beside the main backend; Documentation/blame.rst.
 *
 *	struct fl_blame_opts o = { .btf = btf, .tgids = &be.tgids_or_NULL };
 *	struct fl_blame *b = fl_blame_start(&o, err, sizeof(err));
 *	...workload runs...
 *	fl_blame_read(b, &snap, err, sizeof(err));	// before writing snap
 *	fl_blame_stop(b);
 *
 * fl_blame_start() fails (NULL) only for bad arguments or out of memory; a
 * kernel that cannot run it still gets a handle whose snapshot says
 * "blame=unavailable (why)", never zero figures.
 *
 * The rows and their reading are blame_rows.h and blame_model.h.
 *
 * What fl_blame_read() adds (cumulative since start; replaces sections of
 * the same types):
 *   FL_SEC_BLAME        struct fl_blame_row per call site, by wait caused (top FL_BLAME_TOP_ROWS)
 *   FL_SEC_BLAME_TOTAL  one struct fl_blame_total
 *   tags: blame=tracepoint|faultline.ko|unavailable (why)
 *         blame.fault_path=<functions a fault's wait is recognised by>|none (why)
 *         blame.reclaim=tracepoint|unavailable (why)
 *         blame.fallbacks=tracepoint|unavailable (why): lockless-path fallbacks
 *         blame.events=sites_full:N holders_full:N stack_fail:N nostate:N nested:N
 *                      nofault:N self:N
 */
#ifndef FAULTLINE_BLAME_COLLECT_H
#define FAULTLINE_BLAME_COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <faultline/blame.h>
#include "snapshot.h"

struct fl_blame;
struct fl_tgid_filter;
struct btf;

struct fl_blame_opts {
	const struct btf *btf;	/* the kernel's BTF (read, not kept); NULL: nothing loads */
	struct fl_tgid_filter *tgids;	/* the traced thread groups, shared with the
					 * other skeletons (tgid_filter.h); NULL:
					 * every task */
};

struct fl_blame *fl_blame_start(const struct fl_blame_opts *o, char *err, size_t errlen);
/*
 * -b kmod: faultline.ko's own holder hooks (`blame on`, module/blame.c); its
 * snapshot brings the rows, fl_blame_read() makes them the same sections.
 * why: the module refused `blame on` (the handle says unavailable), or NULL.
 */
struct fl_blame *fl_blame_start_kmod(const char *why, char *err, size_t errlen);
/* One line: "blame: tracepoint (...)" or "blame: unavailable (why)". */
const char *fl_blame_describe(const struct fl_blame *b);
int fl_blame_read(struct fl_blame *b, struct fl_snapshot *s, char *err, size_t errlen);
void fl_blame_stop(struct fl_blame *b);

#endif
