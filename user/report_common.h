/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by `record` (its summary) and `report`: which figures a snapshot
 * can show and, when it cannot, why; number formatting.
 */
#ifndef FAULTLINE_REPORT_COMMON_H
#define FAULTLINE_REPORT_COMMON_H

#include <stdio.h>
#include "snapshot.h"

enum fl_figure {
	FL_FIG_FAULTS,		/* fault counts (page_fault_user) */
	FL_FIG_LATENCY,		/* fault latency */
	FL_FIG_HMF,		/* handle_mm_fault calls */
	FL_FIG_LOCKLESS,	/* lockless-path outcomes */
	FL_FIG_MMAP,		/* mmap_lock wait / hold */
	FL_FIG_CONTENTION,	/* lock:contention on mmap_lock */
	FL_FIG_VMSTAT,		/* /proc/vmstat counters */
	FL_FIG_HMF_TIME,	/* handle_mm_fault duration (record --handle-mm-fault) */
	FL_FIG_LL_WHY,		/* why the lockless path gave up (FL_C_LLW_*) */
	FL_FIG_NR,
};

enum fl_avail {
	FL_AVAIL_YES = 0,
	FL_AVAIL_UNAVAILABLE,	/* the kernel has it, this recording could not see it */
	FL_AVAIL_ABSENT,	/* the kernel does not have the thing measured */
};

/* Availability of FIG in s; *why (static string) set when not available. */
enum fl_avail fl_figure_avail(const struct fl_snapshot *s, enum fl_figure fig,
			      const char **why);

/* "unavailable (why)" / "absent (why)" for a figure that is not available. */
void fl_fmt_unavail(char *buf, size_t len, enum fl_avail a, const char *why);

/* "850ns", "1.23us", "12.3ms", "1.50s" */
void fl_fmt_ns(char *buf, size_t len, unsigned long long ns);

/* "12.3%" of part/whole, "-" when whole == 0 */
void fl_fmt_pct_of(char *buf, size_t len, unsigned long long part, unsigned long long whole);

/*
 * A histogram row's range as report --hist prints it: "LO -> HI", HI
 * inclusive, LO right- and HI left-aligned in WIDTH columns (0: unpadded).
 */
void fl_fmt_hist_range(char *buf, size_t len, unsigned long long lo, unsigned long long hi,
		       int width);

/* bcc-style power-of-two histogram of h (unit "nsecs"), rows up to the last non-empty. */
void fl_print_log2_hist(FILE *f, const struct fl_hist *h, const char *title);

/* The compact summary printed by record and at the top of report. */
void fl_print_summary(FILE *f, const struct fl_snapshot *s, const struct fl_cpu_stats *tot);

#endif
