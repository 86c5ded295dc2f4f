/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summary statistics for A/B comparisons: the seed report's columns (COUNT,
 * MIN, MAX, MEAN, MEDIAN, sample STDDEV), its % row, its number format, and
 * Welch's t-test for significance.
 */
#ifndef FAULTLINE_STATS_H
#define FAULTLINE_STATS_H

#include <math.h>
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
	/*
	 * Harmonic mean and mmtests' deviation of it (sqrt(sum (1/x - 1/H)^2
	 * H^4 / n), VMR Stat.pm's calc_stddev for "hmean"): what compare-kernels
	 * compares for a higher-is-better figure.  NAN when a value is <= 0
	 * (hmean) or n < 2 (sd_hmean).
	 */
	double hmean, sd_hmean;
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

/*
 * mmtests compare-kernels' significance of B against A (MMTests::Compare,
 * Stat.pm's cidiff): each side's interval is its mean +- z(0.975) x its
 * stddev (z = 1.959964; amean and the sample stddev when lower is better,
 * hmean and sd_hmean when higher is), and the ratio is (B - A) over the two
 * half-widths that face each other; both 0: B - A itself.  A change is
 * marked *x.xx%* when |ratio| > 1 (fl_mmtests_marked).  NAN when a side
 * has fewer than 2 values or its mean is not defined: never marked.
 */
double fl_mmtests_ratio(const struct fl_stats *a, const struct fl_stats *b, int higher_is_better);
#define fl_mmtests_marked(ratio)	(fabs(ratio) > 1)
#define FL_MMTESTS_Z	1.959963984540054	/* qnorm(1 - 0.05 / 2): mmtests' fixed alpha */

/*
 * V rounded to DIGITS significant digits (1..17), written without an
 * exponent below 1e15 ("1235", "0.0001235", "-12.5"; trailing zeros after
 * the point dropped); "-" for NAN.  compare --precision.
 */
void fl_fmt_sig(char *buf, size_t len, double v, int digits);

/* Two-sided p of Student's t with df degrees of freedom. */
double fl_student_t_p2(double t, double df);

/* Significance level used to flag a change (mmtests-like *x%*). */
#define FL_SIGNIFICANCE_ALPHA	0.05

#endif
