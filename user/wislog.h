/* SPDX-License-Identifier: GPL-2.0 */
/*
 * will-it-scale results, as mmtests' wis-bench keeps them and as
 * tools/pft-sweep --wis writes them:
 *
 *   DIR/benchlog-<test>_<model>-<N>   will-it-scale's output at N tasks
 *   DIR/snap/<test>_<model>-<N>.snap  pft-sweep --wis --record: that run
 *   DIR/faultline-<test>-<N>.snap     tools/mmtests hooks: that step
 *
 * or an mmtests results tree holding one such DIR (RUN/iter-N/TEST/logs).
 * will-it-scale prints "testcase:...", "warmup", samples, "measurement",
 * samples, "average:N"; a sample is "min:A max:B total:C" (operations of the
 * slowest task, the fastest, all tasks in one second).  mmtests drops the
 * first 8 lines (sed '1,8d': the header and 6 warmup samples) and reads
 * the totals of what is left (shellpack wis: metric "ops", preferhigher);
 * so does this reader, dropping what comes before "measurement" where the
 * file still has "warmup".
 */
#ifndef FAULTLINE_WISLOG_H
#define FAULTLINE_WISLOG_H

#include <stddef.h>

#include "sweep.h"

enum { FL_WIS_NONE, FL_WIS_SAMPLE, FL_WIS_WARMUP, FL_WIS_MEASURE };

struct fl_wis_sample {
	unsigned long long min, max, total;
};

/*
 * One line: FL_WIS_SAMPLE with s filled, FL_WIS_WARMUP / FL_WIS_MEASURE for
 * those markers, FL_WIS_NONE for a line that carries no sample (blank,
 * "testcase:", "average:", -v's "N -> ops"), -1 with the reason in err for
 * anything else (including min > max or max > total).
 */
int fl_wis_parse_line(const char *line, struct fl_wis_sample *s, char *err, size_t errlen);

/*
 * "benchlog-<test>_<model>-<N>" -> test "<test>_<model>" and N (>= 1, no
 * leading zero).  0, or -1 for any other name.
 */
int fl_wis_log_name(const char *name, char *test, size_t len, unsigned int *n);

/*
 * Load TEST's results (NULL: the only test there is) from DIR into sw
 * (sw->wis set, series[].ops).  0, or -1 with the reason in err: no
 * benchlog files, several tests and none chosen (they are named), a log
 * without samples, a bad line ("FILE:LINE: reason").
 */
int fl_wis_load(const char *dir, const char *test, struct fl_sweep *sw, char *err,
		size_t errlen);

#endif
