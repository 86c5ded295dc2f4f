/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `compare` of holder attribution (record --blame): the call sites of A and
 * B matched by what they are -- the syscall or kernel path, the comm and
 * the innermost frames, never the stack id, which is per boot -- their
 * rows (faults delayed, wait caused, hold time, per second of recording)
 * and the EXPLAIN clause that says which site is behind a change of the
 * faults' mmap_lock wait.  The rule: Documentation/compare.rst, BLAME.
 *
 *	struct fl_bcmp_rec *a = ..., *b = ...;	// fl_bcmp_rec_from() per recording
 *	fl_bcmp_build(&c, (const struct fl_bcmp_rec *[2]){ a, b }, (unsigned int[2]){ na, nb },
 *		      0.05, "");
 *	fl_bcmp_text(stdout, &c);
 *	fl_bcmp_free(&c);
 */
#ifndef FAULTLINE_BLAME_COMPARE_H
#define FAULTLINE_BLAME_COMPARE_H

#include <stdio.h>

#include "blame_model.h"
#include "stats.h"

#define FL_BLAME_CMP_FRAMES	3	/* innermost frames a site is matched on */
/* a site named alone carries this much of the change */
#define FL_BLAME_CMP_SHARE	(2.0 / 3.0)
/* untested (one recording a side): the smallest change spoken of */
#define FL_BLAME_CMP_MIN_CHANGE	0.10

/* What compare keeps of one recording (a snapshot is read and let go). */
struct fl_bcmp_rec {
	int have;			/* the snapshot has the blame sections */
	char why[200];			/* !have: the blame tag, or "recorded without --blame" */
	double secs;			/* its window */
	struct fl_blame_total t;
	struct fl_blame_row *rows;
	unsigned int nrows;
	int fb;				/* lockless-path fallbacks were counted */
	char fb_why[200];		/* !fb: fl_blame_fb_unavail()'s reason */
};

/* 0, or -1 out of memory; fl_bcmp_rec_free() either way. */
int fl_bcmp_rec_from(struct fl_bcmp_rec *r, const struct fl_snapshot *s);
void fl_bcmp_rec_free(struct fl_bcmp_rec *r);

struct fl_bcmp_fig {
	unsigned long long waits, wait_ns, holds, hold_ns, sleep_ns, reclaim_ns, fallbacks;
};

struct fl_bcmp_site {
	char what[96];
	char comm[BL_COMM_LEN + 1];
	char frames[FL_BLAME_CMP_FRAMES][FL_SYM_LEN + 1];
	unsigned int nframes;
	int unknown;			/* the wait behind no known writer (no row) */
	int in[2];			/* A / B has the site */
	struct fl_bcmp_fig v[2];	/* summed over the side's recordings */
	double waits_rate[2], wait_rate[2], hold_rate[2];	/* per second */
	double fb_rate[2];		/* lockless-path fallbacks while it held, per second */
	double d_wait;			/* B - A of wait_rate, ns/s */
};

struct fl_bcmp {
	char where[64];			/* "at 4 threads" or "" */
	unsigned int threads;		/* the caller's: compare of sweeps */
	int have[2];			/* some recording of the side has blame data */
	char why[2][200];		/* !have: why not */
	unsigned int nrec[2];		/* recordings with blame data */
	unsigned int nskip[2];		/* recordings without (left out) */
	double secs[2];
	unsigned long long waits[2], wait_ns[2];
	double wait_rate[2];		/* every fault mmap_lock wait, ns per second */
	/*
	 * Lockless-path fallbacks: compared only when every recording of both
	 * sides counted them (a kernel without per-VMA locks cannot: never 0).
	 */
	int fb_have[2];
	char fb_why[2][240];		/* !fb_have: why not */
	unsigned long long fb[2], fb_free[2];	/* while a writer held, with none */
	double fb_rate[2], fb_free_rate[2];	/* per second */
	double d_total;			/* B - A of wait_rate */
	int tested;			/* >= 2 recordings a side: Welch's test */
	double p;			/* NAN when not tested */
	struct fl_bcmp_site *site;	/* by |d_wait|, largest first */
	unsigned int nsite;
	int speaks;			/* the clause attributes a change */
	int named;			/* site named alone, -1 */
	double share;			/* its part of the change in its direction */
	char explain[1024];
};

/*
 * Compare the recordings rec[0][0..n[0]) (A) with rec[1][0..n[1]) (B).
 * where prefixes the clause ("at 4 threads"; "" for none).  0, or -1 out of
 * memory.
 */
int fl_bcmp_build(struct fl_bcmp *c, const struct fl_bcmp_rec *const rec[2],
		  const unsigned int n[2], double alpha, const char *where);
void fl_bcmp_free(struct fl_bcmp *c);

/* The rows as a table, the sites' frames, then the clause. */
void fl_bcmp_text(FILE *f, const struct fl_bcmp *c);
/* compare's csv rows and markdown item of the lockless-path fallback totals */
void fl_bcmp_fb_csv(FILE *f, const struct fl_bcmp *c, void (*num)(FILE *, double));
void fl_bcmp_fb_md(FILE *f, const struct fl_bcmp *c);
/* json object {"a":..,"b":..,"sites":[..],"explain":{..}} */
void fl_bcmp_json(FILE *f, const struct fl_bcmp *c);
/* "ns/s" rate as "+1.80ms/s" (sign when signed) */
void fl_bcmp_fmt_rate(char *buf, size_t len, double ns_per_s, int sign);

#endif
