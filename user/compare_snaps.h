/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare A.snap B.snap: two recordings (the same workload on two kernels,
 * say) side by side -- faults, latency quantiles with a rank test per
 * histogram, lockless outcomes and their reasons, mmap_lock, phases and
 * lock classes, and the holders of mmap_lock (record --blame, BLAME).
 * The test of a histogram is across the events of the two (Mann-Whitney U
 * on the buckets), for the whole recording and per CPU, LLC domain and
 * node; several recordings a side add each figure's spread over them and
 * Welch's test.  The model is compare_snaps.c, the four layouts
 * compare_snaps_render.c.
 *
 *	struct fl_cmp_snaps p;
 *	fl_cmp_snaps_build(&p, "a.snap", "b.snap", 0.05, err, sizeof(err));
 *	fl_cmp_snaps_write_text(stdout, &p, NULL);
 *	fl_cmp_snaps_free(&p);
 */
#ifndef FAULTLINE_COMPARE_SNAPS_H
#define FAULTLINE_COMPARE_SNAPS_H

#include <stdio.h>

#include "blame_compare.h"
#include "snapshot.h"
#include "stats.h"

#define FL_CSN_WHY	240

/*
 * Mann-Whitney U of two histograms: every event of A against every event of
 * B, an event's rank the midrank of its bucket (the events of one bucket are
 * ties: the bucket is all the histogram knows of them).  u is B's U: the
 * pairs (a, b) with b in a higher bucket than a, plus half those in the same
 * bucket; prob = u / (n_a n_b), the chance that an event of B lies above one
 * of A (0.5: no shift).  z and p: the normal approximation with the tie
 * correction of the variance and a continuity correction of 0.5, two-sided
 * (fine for the counts of a recording: both n >= 20 or so).  p = 1 when the
 * variance is 0 (every event in one bucket), NAN when a side has no events.
 */
struct fl_rank_test {
	double n[2];
	double u, prob, z, p;
};
void fl_hist_rank_test(const struct fl_hist *a, const struct fl_hist *b,
		       struct fl_rank_test *r);

/*
 * One figure of the two sides.  A side of several recordings (-a A1 A2 ...,
 * or a directory of them) has its figure's statistics over them, and the
 * two sides Welch's test and mmtests' *x.xx%* rule; one recording a side:
 * st[s].n = 1, no test (the rank tests speak for the histograms).
 */
struct fl_csn_row {
	const char *section;		/* "faults", "latency", "lockless", "lockless_reasons",
					 * "mmap_lock", "phases", "locks", "blame" */
	char name[48];			/* faults_user, fault_latency_p50, ... */
	const char *unit;		/* "count", "1/s", "ns", "per_mille", "ns/fault", "ns/s" */
	int higher_is_better;		/* rates of faults, lockless successes */
	int have[2];			/* every recording of the side has it */
	double v[2];			/* the side's mean */
	struct fl_stats st[2];		/* over the side's recordings */
	char why[2][FL_CSN_WHY];	/* !have: "unavailable (...)" / "absent (...)" */
	double pct;			/* (B - A) / A * 100 of the means, NAN when not defined */
	double p;			/* Welch, NAN with < 2 recordings a side */
	int significant;		/* p < alpha */
	double mm_ratio;		/* fl_mmtests_ratio(), NAN when not defined */
	int mm_marked;			/* |mm_ratio| > 1: *x.xx%* */
};

/*
 * The rank test of one histogram both sides have: the whole recording, or
 * one CPU / LLC domain / NUMA node of it (fault latency).  Several
 * recordings a side: their histograms pooled; h[] keeps the two pooled
 * histograms the test and the quantiles were worked out from (compare
 * --hist prints their buckets, JSON always has them).
 */
struct fl_csn_rank {
	const char *hist;		/* fl_hist_name(): fault_latency, ... */
	const char *by;			/* NULL: every CPU; "cpu", "llc", "node" */
	unsigned int group;		/* CPU / LLC domain / node id when by */
	int have[2];
	char why[2][FL_CSN_WHY];
	struct fl_rank_test t;		/* when both have it */
	double p50[2], p99[2];		/* each side's quantiles of it, ns */
	int significant;		/* p < alpha */
	struct fl_hist h[2];		/* each side's, pooled; empty where !have[s] */
};

struct fl_csn_side {
	const char *file;		/* the first recording, as given (or the directory) */
	const char **files;		/* every recording, as given (the list p's) */
	unsigned int n;
	char label[128];		/* --label-a/-b, else what differs (compare_label.h) */
	char krel[FL_KREL_LEN + 1];	/* of the first recording */
	char build[128];		/* its kernel_build tag (uname -v), "" unknown */
	char kfile[128];		/* its kernel_file tag, "" unknown */
	char backend[16], tier[16], ll_kind[32];
	unsigned int nr_cpus;
	double secs;			/* the recordings' mean duration */
};

struct fl_cmp_snaps {
	const char *file[2];			/* the first of each side, as given */
	const char *dir[2];			/* the directory the side was read from, or NULL */
	char krel[2][FL_KREL_LEN + 1];		/* the kernel each was recorded on */
	double secs[2];				/* its duration */
	struct fl_csn_side side[2];
	int multi;				/* a side has more than one recording */
	double alpha;
	struct fl_csn_row *row;
	unsigned int nrow;
	struct fl_csn_rank *rank;
	unsigned int nrank;
	char **notes;
	unsigned int nnotes;
	struct fl_bcmp_rec *rec[2];		/* per recording */
	struct fl_bcmp c;			/* BLAME */
};

/*
 * Read A and B and compare them.  0, or -1 with why in err.  The labels
 * are the default ones (fl_cmp_snaps_label overrides).
 */
int fl_cmp_snaps_build(struct fl_cmp_snaps *p, const char *a, const char *b, double alpha,
		       char *err, size_t errlen);
/* The same with files[s][0..n[s]) recordings a side (the strings must outlive p). */
int fl_cmp_snaps_build_n(struct fl_cmp_snaps *p, const char *const *files[2],
			 const unsigned int n[2], double alpha, char *err, size_t errlen);
/*
 * Default labels from what differs (compare_label.h: kernel release,
 * kernel_build, kernel_file, then the file or directory names); l[s] (NULL:
 * the default) overrides.
 */
void fl_cmp_snaps_label(struct fl_cmp_snaps *p, const char *const l[2]);
void fl_cmp_snaps_free(struct fl_cmp_snaps *p);
/* The row NAME (tests), NULL when none. */
const struct fl_csn_row *fl_cmp_snaps_row(const struct fl_cmp_snaps *p, const char *name);

/* What the options say about the layout. */
struct fl_csn_view {
	int precision;			/* significant digits in text and markdown */
	int hist;			/* --hist: text, markdown, csv print the buckets */
};
#define FL_CSN_PRECISION	4	/* the default */

/*
 * The layouts: text (RECORDINGS, FAULTS, LATENCY, RANK TEST, LOCKLESS,
 * MMAP_LOCK, PHASES, LOCKS, BLAME), one JSON object, CSV rows, Markdown.
 * A figure one side could not measure: "not compared (A: why)".  JSON and
 * CSV numbers are full precision; v NULL: the defaults.  The buckets of
 * each compared rank row: JSON always ("buckets"), the others with v->hist
 * (text HISTOGRAMS, a markdown table, CSV hist_bucket rows).
 */
void fl_cmp_snaps_write_text(FILE *f, const struct fl_cmp_snaps *p, const struct fl_csn_view *v);
void fl_cmp_snaps_write_json(FILE *f, const struct fl_cmp_snaps *p);
void fl_cmp_snaps_write_csv(FILE *f, const struct fl_cmp_snaps *p, const struct fl_csn_view *v);
void fl_cmp_snaps_write_md(FILE *f, const struct fl_cmp_snaps *p, const struct fl_csn_view *v);

#endif
