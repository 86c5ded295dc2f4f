/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary statistics for A/B comparisons: the seed report's columns (COUNT,
 * MIN, MAX, MEAN, MEDIAN, sample STDDEV), its % row, its number format, and
 * Welch's t-test for significance.
 */
#ifndef FAULTLINE_STATS_H
#define FAULTLINE_STATS_H

#include <stddef.h>

struct fl_stats {
	unsigned int n;
	double min, max, mean, median;
	/*
	 * stddev is the POPULATION standard deviation (divide by n): that is
	 * what the seed report prints (deduced from its numbers, see
	 * Documentation/compare.rst); NAN when n < 2.  The t-test uses the
	 * sample one (divide by n - 1), sd_sample.
	 */
	double stddev;
	double sd_sample;
};

/* 0, or -1 when n == 0 or a value is not finite. */
int fl_stats_compute(const double *v, unsigned int n, struct fl_stats *st);

/* (b - a) / a * 100; NAN when a == 0 or either is not finite. */
double fl_pct_change(double a, double b);

/* "+1.31%" / "-0.13%" (2 decimals, sign always), "n/a" for NAN. */
void fl_fmt_pct(char *buf, size_t len, double pct);

/*
 * Shortest decimal that reads back as the same double, laid out like Go's
 * %v (strconv 'g', precision -1), which is how the seed report prints its
 * numbers: exponent form "d.ddde+XX" when the decimal exponent is < -4 or
 * >= 6, plain otherwise (565493.841, 2.029701865e+06, 8581.000516619562).
 * "NaN", "+Inf", "-Inf" like Go.
 */
void fl_fmt_double(char *buf, size_t len, double v);

/*
 * Welch's unequal-variance t-test, two-sided.  Returns the p-value, or NAN
 * when either side has fewer than 2 values or both variances are 0 with
 * equal means.  *t and *df are set when not NULL.
 */
double fl_welch_p(const struct fl_stats *a, const struct fl_stats *b, double *t, double *df);

/* Two-sided p of Student's t with df degrees of freedom. */
double fl_student_t_p2(double t, double df);

/* Significance level used to flag a change (mmtests-like *x%*). */
#define FL_SIGNIFICANCE_ALPHA	0.05

#endif
