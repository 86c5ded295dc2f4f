/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading pft output and pft-sweep result directories, and will-it-scale
 * results (wislog.c: a wis sweep or mmtests' wis-bench logs):
 *
 *   RESULTS/sweep.conf           PFT_* key=value (the sweep's settings)
 *   RESULTS/tags                 key=value (faultline tags at sweep time)
 *   RESULTS/pft-<N>.log          one classic pft line per iteration at N threads
 *   RESULTS/snap/pft-<N>-<I>.snap  optional collector snapshot of iteration I
 *
 * A classic pft line has 8 columns:
 *   Gb Thr CLine User System Wall flt/cpu/s fault/wsec
 *   "   1    4   1     0.12s     0.80s     0.23s 123456.789 456789.012"
 */
#ifndef FAULTLINE_PFTLOG_H
#define FAULTLINE_PFTLOG_H

#include <stddef.h>

#include "sweep.h"

struct fl_pft_sample {
	double gb;
	unsigned int threads, clines;
	double user_s, sys_s, wall_s;
	double flt_cpu;		/* faults per second per CPU */
	double flt_wsec;	/* faults per wall-clock second */
};

/*
 * One line.  Returns 1 for a sample, 0 for a line that carries none (blank,
 * the column header, '#' comments such as pft's latency line), -1 for
 * anything else, with the reason in err.  A rate printed as "inf" (a run
 * shorter than the clock's resolution) is a sample with an infinite rate:
 * callers must not average it (fl_sweep_load counts it as dropped).
 */
int fl_pft_parse_line(const char *line, struct fl_pft_sample *s, char *err, size_t errlen);

/* 0, or -1 with "FILE:LINE: reason" in err.  A directory without any
 * pft-<N>.log is read as will-it-scale results (fl_wis_load, any test when
 * it holds one); without those either it is an error; so is a log without a
 * single sample. */
int fl_sweep_load(const char *dir, struct fl_sweep *sw, char *err, size_t errlen);
/*
 * 1 when DIR itself holds a workload's logs (pft-<N>.log, or will-it-scale's
 * benchlog-<test>_<model>-<N>): a sweep, even with snapshots beside them
 * (tools/mmtests' step snapshots are), not a directory of recordings.
 */
int fl_sweep_dir_has_logs(const char *dir);
/* The same, TEST (NULL: the only one there is) for will-it-scale results. */
int fl_sweep_load_test(const char *dir, const char *test, struct fl_sweep *sw,
		       char *err, size_t errlen);

/*
 * The pft fault shape of a sweep, from its sweep.conf (tools/pft-sweep writes
 * PFT_SHAPE, and PFT_FILE for a file): "anon", or SHAPE/BACKING for a file
 * shape, BACKING "file" (PFT_FILE set: pft --file) or "tmpfs" (a memfd: pft
 * --tmpfs), e.g. "read/tmpfs".  A sweep.conf without PFT_SHAPE predates the
 * shapes (pft-sweep ran anonymous faults only): "anon".  Returns 0, or -1
 * with "unknown (no sweep.conf)" in buf when there is none.
 */
int fl_sweep_shape(const struct fl_sweep *sw, char *buf, size_t len);

#endif
