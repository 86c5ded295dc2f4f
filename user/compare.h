/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The A/B comparison model behind `faultline compare` and `faultline plot`:
 * per metric and thread count, the seed report's statistics for A and B,
 * the % row, a direction and Welch's t-test.  Rendering is in cmd_compare.c.
 */
#ifndef FAULTLINE_COMPARE_H
#define FAULTLINE_COMPARE_H

#include "pftlog.h"
#include "report_common.h"
#include "snapshot.h"
#include "stats.h"

#define FL_CMP_GAP_LEN	200

enum { FL_PCT_MIN, FL_PCT_MAX, FL_PCT_MEAN, FL_PCT_MEDIAN, FL_PCT_STDDEV, FL_PCT_NR };

struct fl_cmp_metric {
	char name[64];		/* e.g. pft_faults_cpu_4 */
	const char *kind;	/* e.g. pft_faults_cpu */
	const char *unit;
	unsigned int threads;
	int higher_is_better;	/* 1, or 0 = lower is better */
	int have[2];		/* A, B have values */
	int no_run[2];		/* the side has no run at this thread count */
	struct fl_stats st[2];
	char gap[2][FL_CMP_GAP_LEN];	/* why a side has no values */
	double pct[FL_PCT_NR];	/* (B - A) / A * 100; NAN when undefined */
	double t, df, p;	/* Welch; NAN when undefined */
	int significant;	/* p < alpha */
};

struct fl_cmp {
	struct fl_sweep sw[2];
	struct fl_cmp_metric *m;
	unsigned int nm;
	char **notes;		/* dropped samples, unreadable snapshots, thread-set gaps */
	unsigned int nnotes;
	double alpha;
	int have_snapshots;
};

/* Metric kinds in table order; the first two are the seed's. */
struct fl_cmp_kind {
	const char *kind, *unit;
	int higher_is_better;
	int from_snapshots;
};
extern const struct fl_cmp_kind fl_cmp_kinds[];
extern const unsigned int fl_cmp_nkinds;

int fl_cmp_build(struct fl_cmp *c, const char *dir_a, const char *dir_b, double alpha,
		 char *err, size_t errlen);
void fl_cmp_free(struct fl_cmp *c);

/*
 * Value of a collector metric kind for one snapshot (fault_latency_p50/p99
 * in ns, lockless_abort_pct, mmap_lock_wait_mean in ns).  0, or -1 with
 * why ("unavailable (...)" / "absent (...)", from fl_figure_avail() of
 * report_common.h) when this snapshot cannot measure it.
 */
int fl_snap_metric(const struct fl_snapshot *s, const char *kind, double *v,
		   char *why, size_t len);

#endif
