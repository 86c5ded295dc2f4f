/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare A.snap B.snap: two recordings (the same workload on two kernels,
 * say) side by side -- faults, latency quantiles with a rank test per
 * histogram, lockless outcomes and their reasons, mmap_lock, phases and
 * lock classes, and the holders of mmap_lock (record --blame, BLAME).
 * One recording a side: no run-to-run spread, so the test is across the
 * events of the two histograms (Mann-Whitney U on the buckets).  The model
 * is compare_snaps.c, the four layouts compare_snaps_render.c.
 *
 *	struct fl_cmp_snaps p;
 *	fl_cmp_snaps_build(&p, "a.snap", "b.snap", 0.05, err, sizeof(err));
 *	fl_cmp_snaps_write_text(stdout, &p, &view);
 *	fl_cmp_snaps_free(&p);
 */
#ifndef FAULTLINE_COMPARE_SNAPS_H
#define FAULTLINE_COMPARE_SNAPS_H

#include <stdio.h>

#include "blame_compare.h"
#include "snapshot.h"

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

/* One figure of the two recordings. */
struct fl_csn_row {
	const char *section;		/* "faults", "latency", "lockless", "lockless_reasons",
					 * "mmap_lock", "phases", "locks" */
	char name[48];			/* faults_user, fault_latency_p50, ... */
	const char *unit;		/* "count", "1/s", "ns", "per_mille", "ns/fault" */
	int have[2];
	double v[2];
	char why[2][FL_CSN_WHY];	/* !have: "unavailable (...)" / "absent (...)" */
	double pct;			/* (B - A) / A * 100, NAN when not defined */
};

/* The rank test of one histogram both recordings have. */
struct fl_csn_rank {
	const char *hist;		/* fl_hist_name(): fault_latency, ... */
	int have[2];
	char why[2][FL_CSN_WHY];
	struct fl_rank_test t;		/* when both have it */
	int significant;		/* p < alpha */
};

struct fl_csn_side {
	const char *file;		/* as given */
	char label[128];		/* --label-a/-b, else what differs: kernel, file name */
	char krel[FL_KREL_LEN + 1];
	char backend[16], tier[16], ll_kind[32];
	unsigned int nr_cpus;
	double secs;			/* the recording's duration */
};

struct fl_cmp_snaps {
	const char *file[2];			/* as given */
	char krel[2][FL_KREL_LEN + 1];		/* the kernel each was recorded on */
	double secs[2];				/* its duration */
	struct fl_csn_side side[2];
	double alpha;
	struct fl_csn_row *row;
	unsigned int nrow;
	struct fl_csn_rank rank[FL_H_NR];
	unsigned int nrank;
	char **notes;
	unsigned int nnotes;
	struct fl_bcmp_rec rec[2];
	struct fl_bcmp c;			/* BLAME */
};

/*
 * Read A and B and compare them.  label[s] (NULL: by default) overrides the
 * side's label.  0, or -1 with why in err.
 */
int fl_cmp_snaps_build(struct fl_cmp_snaps *p, const char *a, const char *b, double alpha,
		       char *err, size_t errlen);
/* Default labels from what differs (kernel release, else the file names); L overrides. */
void fl_cmp_snaps_label(struct fl_cmp_snaps *p, const char *const l[2]);
void fl_cmp_snaps_free(struct fl_cmp_snaps *p);
/* The row NAME (tests), NULL when none. */
const struct fl_csn_row *fl_cmp_snaps_row(const struct fl_cmp_snaps *p, const char *name);

/*
 * The layouts: text (RECORDINGS, FAULTS, LATENCY, RANK TEST, LOCKLESS,
 * MMAP_LOCK, PHASES, LOCKS, BLAME), one JSON object, CSV rows, Markdown.
 * A figure one side could not measure: "not compared (A: why)".
 */
void fl_cmp_snaps_write_text(FILE *f, const struct fl_cmp_snaps *p);
void fl_cmp_snaps_write_json(FILE *f, const struct fl_cmp_snaps *p);
void fl_cmp_snaps_write_csv(FILE *f, const struct fl_cmp_snaps *p);
void fl_cmp_snaps_write_md(FILE *f, const struct fl_cmp_snaps *p);

#endif
