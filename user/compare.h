/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The A/B comparison model behind `faultline compare` and `faultline plot`:
 * per metric and thread count, the seed report's statistics for A and B,
 * the % row, a direction and Welch's t-test.  Rendering is in
 * compare_render.c; two snapshots side by side (compare A.snap B.snap) in
 * compare_snaps.h.
 */
#ifndef FAULTLINE_COMPARE_H
#define FAULTLINE_COMPARE_H

#include <stdarg.h>

#include "blame_compare.h"
#include "phases.h"
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
	double mm_ratio;	/* fl_mmtests_ratio(); NAN when undefined */
	int mm_marked;		/* mmtests would mark the change *x.xx%* */
};

/*
 * Phase / lock-class figures of one snapshot of a sweep (read once, for the
 * phase_* / lock_* rows and the EXPLAIN section).
 */
struct fl_cmp_snapsum {
	int ok;				/* the snapshot could be read */
	struct fl_phases_summary sum;
	double faults;			/* faults per run: lock wait per fault divides by it */
	char ph_why[FL_CMP_GAP_LEN];	/* why there are no phases */
	char lk_why[FL_CMP_GAP_LEN];	/* why there are no lock classes */
	char unav[FL_PH_NR][FL_PH_UNAVAIL_LEN];	/* why a phase is unavailable */
	char lk_unav[FL_LK_NR][160];	/* why a lock class is (locks.unavailable) */
	/* the same per NUMA node / LLC domain (from the snapshot's topology
	 * tags; n = 0 without them): where in the machine a change is */
	struct {
		struct fl_phases_summary *sum;
		unsigned int n;
	} grp[2];			/* FL_CMP_BY_NODE, FL_CMP_BY_LLC */
	struct fl_bcmp_rec blame;	/* record --blame rows (BLAME section) */
};
#define FL_CMP_BY_NODE	0
#define FL_CMP_BY_LLC	1

struct fl_cmp_sums {
	struct fl_cmp_snapsum *v;	/* one per snapshot of the series */
	unsigned int n;
};

/* One line of the EXPLAIN section: what changed at one thread count. */
struct fl_cmp_explain {
	unsigned int threads;
	int significant;	/* the named changes passed Welch's test */
	double dlat;		/* B - A, mean fault latency, ns per fault */
	int phase;		/* phase that moved most (FL_PH_NR: unattributed), -1 none */
	int lock;		/* lock class that moved most, -1 none */
	double phase_share, lock_share;	/* % of dlat; NAN when not defined */
	char text[768];
};

struct fl_cmp {
	struct fl_sweep sw[2];
	struct fl_cmp_metric *m;
	unsigned int nm;
	char **notes;		/* dropped samples, unreadable snapshots, thread-set gaps */
	unsigned int nnotes;
	double alpha;
	int have_snapshots;
	int have_phases, have_locks;	/* some snapshot has FL_SEC_PHASES / _LOCKS */
	int side_phases[2];		/* ... of side A / B */
	struct fl_cmp_sums *sums[2];	/* per series of sw[s] */
	struct fl_cmp_explain *explain;	/* thread counts with a change to explain */
	unsigned int nexplain;
	int have_blame;			/* some snapshot was recorded with --blame */
	struct fl_bcmp *blame;		/* per thread count run on both sides */
	unsigned int nblame;
	char shape[2][80];		/* pft fault shape of A, B: fl_sweep_shape() */
	int shape_known[2];
	int shape_differs;		/* both known, and not the same */
};

/* Metric kinds in table order; the first two are the seed's. */
struct fl_cmp_kind {
	const char *kind, *unit;
	int higher_is_better;
	int from_snapshots;
	int section;		/* 0, FL_CMP_PHASE (idx: FL_PH_*, FL_PH_NR =
				 * unattributed, FL_CMP_LAT = phase-timed
				 * latency) or FL_CMP_LOCK (idx: FL_LK_*) */
	int idx;
};
#define FL_CMP_PHASE	1
#define FL_CMP_LOCK	2
#define FL_CMP_LAT	(FL_PH_NR + 1)
/* the kinds read from the workload's own output, not from snapshots */
#define FL_CMP_K_CPU	0	/* pft_faults_cpu */
#define FL_CMP_K_SEC	1	/* pft_faults_sec */
#define FL_CMP_K_WIS	2	/* wis_ops: will-it-scale results (sw.wis) */
extern const struct fl_cmp_kind fl_cmp_kinds[];
extern const unsigned int fl_cmp_nkinds;

int fl_cmp_build(struct fl_cmp *c, const char *dir_a, const char *dir_b, double alpha,
		 char *err, size_t errlen);
/*
 * The same with TEST, the will-it-scale test (<test>_<model>) to read where
 * A and B hold several (wislog.h); NULL: the only one.  A pft sweep against
 * will-it-scale results is refused.
 */
int fl_cmp_build_test(struct fl_cmp *c, const char *dir_a, const char *dir_b, const char *test,
		      double alpha, char *err, size_t errlen);
void fl_cmp_free(struct fl_cmp *c);

/*
 * Whether A and B may be compared as they are: two different pft fault shapes
 * (c->shape_differs) are two workloads, not one workload on two kernels.
 * 0, or -1 with the refusal in err unless ALLOW (compare/plot --any-shape);
 * fl_cmp_build has noted the difference either way.
 */
int fl_cmp_shape_check(const struct fl_cmp *c, int allow, char *err, size_t errlen);
/*
 * "LABEL [SHAPE]" when the shapes differ (every legend and row must say which
 * is which), else LABEL alone: the shape is then said once, in a title or a
 * header (c->shape[0]).
 */
const char *fl_cmp_side_label(const struct fl_cmp *c, int side, const char *label,
			      char *buf, size_t len);

/*
 * Value of a collector metric kind for one snapshot (fault_latency_p50/p99
 * in ns, lockless_abort_pct, mmap_lock_wait_mean in ns).  0, or -1 with
 * why ("unavailable (...)" / "absent (...)", from fl_figure_avail() of
 * report_common.h) when this snapshot cannot measure it.
 */
int fl_snap_metric(const struct fl_snapshot *s, const char *kind, double *v,
		   char *why, size_t len);

/*
 * Value of a phase / lock-class kind (section != 0) for one snapshot's
 * figures: ns per fault.  0, or -1 with why ("unavailable (...)").
 */
int fl_cmp_sum_metric(const struct fl_cmp_snapsum *ss, const struct fl_cmp_kind *kd,
		      double *v, char *why, size_t len);
/*
 * The phase / lock figures of one snapshot into ss (not its groups: grp[]
 * stays empty), and why a part is missing.  Sweeps and two snapshots alike.
 */
void fl_cmp_snapsum_fill(struct fl_cmp_snapsum *ss, const struct fl_snapshot *s);

/*
 * EXPLAIN lines of c (fl_cmp_build fills them when the sweeps carry phases):
 * per thread count, the phase and the lock class whose change between A and
 * B is largest in the direction of the latency change and significant
 * (Welch's t-test over the runs, p < alpha), in plain words.  Exposed for
 * tests; fl_cmp_build calls it.
 */
int fl_cmp_build_explain(struct fl_cmp *c);
/* The BLAME comparisons of c (fl_cmp_build calls it when a snapshot has --blame data). */
int fl_cmp_build_blame(struct fl_cmp *c);

/* Append a printf-formatted note to NOTES (one allocation each; dropped if out of memory). */
void fl_cmp_vnote(char ***notes, unsigned int *nnotes, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
