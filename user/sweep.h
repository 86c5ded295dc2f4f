/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep: one workload's results at each thread count, as the readers of
 * pftlog.c (pft, pft-sweep) and wislog.c (will-it-scale) fill it.  Loaded
 * by fl_sweep_load() (pftlog.h), which hands a directory of will-it-scale
 * logs to fl_wis_load() (wislog.h); both build it with what is here.
 */
#ifndef FAULTLINE_SWEEP_H
#define FAULTLINE_SWEEP_H

struct fl_pft_series {
	unsigned int threads;
	unsigned int n;			/* usable samples */
	double *flt_cpu, *flt_wsec;	/* n each, in file order (pft) */
	double *ops;			/* n will-it-scale totals, ops/s (wis) */
	unsigned int dropped;		/* samples with a non-finite rate */
	char **snaps;			/* paths of snap/pft-<N>-<I>.snap, by I */
	unsigned int nsnaps;
};

struct fl_sweep {
	char *dir;
	struct fl_pft_series *series;	/* ascending thread count */
	unsigned int nseries;
	char *tags;			/* RESULTS/tags text or NULL */
	char *conf;			/* RESULTS/sweep.conf text or NULL */
	int wis;			/* will-it-scale results, not pft */
	char test[64];			/* wis: <test>_<model>, e.g. page_fault1_threads */
	char *logdir;			/* wis: the folder of the benchlog files */
};

/* What the readers allocated in SW, freed; SW zeroed. */
void fl_sweep_free(struct fl_sweep *sw);
/* One more series, THREADS, all else zero: 0, or -1 (out of memory). */
int fl_sweep_add_series(struct fl_sweep *sw, unsigned int threads);
const struct fl_pft_series *fl_sweep_series(const struct fl_sweep *sw, unsigned int threads);

#endif
