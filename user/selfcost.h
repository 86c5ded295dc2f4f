/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector's own cost: run count and run time of each BPF program, as
 * the kernel measures them while BPF run-time statistics are on
 * (record --self-cost; bpf_prog_info.run_cnt / run_time_ns).  Stored in the
 * snapshot as one tag per program, "bpf_run.<program>=<runs> <ns>", for the
 * window the snapshot covers.  This file owns that tag format.
 */
#ifndef FAULTLINE_SELFCOST_H
#define FAULTLINE_SELFCOST_H

#include "snapshot.h"

#define FL_SELFCOST_PREFIX	"bpf_run."
#define FL_SELFCOST_NAME_LEN	64

struct fl_selfcost_entry {
	char name[FL_SELFCOST_NAME_LEN];
	unsigned long long runs, ns;
};

/* Append the tag of one program. */
int fl_selfcost_set(struct fl_snapshot *s, const char *prog, unsigned long long runs,
		    unsigned long long ns);
/*
 * The programs tagged in s, at most max into out (NULL: count only); tags
 * that do not parse are skipped.  Returns how many there are.
 */
unsigned int fl_selfcost_list(const struct fl_snapshot *s, struct fl_selfcost_entry *out,
			      unsigned int max);
/*
 * Every program's entry (malloc'ed, *n of them; NULL when there are none or
 * out of memory) and the totals over all of them.
 */
struct fl_selfcost_entry *fl_selfcost_get(const struct fl_snapshot *s, unsigned int *n,
					  unsigned long long *runs, unsigned long long *ns);
/* dst's program tags += src's (interval windows of one recording). */
int fl_selfcost_merge(struct fl_snapshot *dst, const struct fl_snapshot *src);

#endif
