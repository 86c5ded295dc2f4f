// SPDX-License-Identifier: GPL-2.0
/*
 * user/stats.c: summary statistics, Welch's t-test, and the seed report's
 * arithmetic: every % cell of tests/fixtures/seed-ab-report.txt (a copy of
 * shared/seed/lkml-spf-pft-ab-report.txt) recomputed from its (A) and (B)
 * rows, and every number in those rows printed back digit for digit.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stats.h"

#define SEED "../fixtures/seed-ab-report.txt"

/* split "a | b | c" into trimmed cells; returns the count */
static int cells(char *line, char **out, int max)
{
	int n = 0;
	char *p = line;

	while (n < max) {
		char *bar = strchr(p, '|'), *e;

		if (bar)
			*bar = '\0';
		while (*p == ' ')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\n'))
			*--e = '\0';
		out[n++] = p;
		if (!bar)
			break;
		p = bar + 1;
	}
	return n;
}

static void test_seed_pct_rows(void **state)
{
	char a[512], b[512], pc[512], *ca[10], *cb[10], *cp[10];
	int rows = 0, pct_cells = 0, numbers = 0;
	FILE *f = fopen(SEED, "r");

	(void)state;
	assert_non_null(f);
	while (fgets(a, sizeof(a), f)) {
		if (strncmp(a, "(A) ", 4))
			continue;
		assert_non_null(fgets(b, sizeof(b), f));
		assert_non_null(fgets(pc, sizeof(pc), f));
		assert_int_equal(strncmp(b, "(B) ", 4), 0);
		assert_int_equal(cells(a, ca, 10), 8);
		assert_int_equal(cells(b, cb, 10), 8);
		assert_int_equal(cells(pc, cp, 10), 8);
		for (int c = 2; c <= 6; c++) {
			char got[64];
			double x = strtod(ca[c], NULL), y = strtod(cb[c], NULL);

			fl_fmt_pct(got, sizeof(got), fl_pct_change(x, y));
			if (strcmp(got, cp[c]))
				fail_msg("row %d col %d: (A) %s (B) %s: expected %s, got %s",
					 rows, c, ca[c], cb[c], cp[c], got);
			pct_cells++;
			fl_fmt_double(got, sizeof(got), x);
			if (strcmp(got, ca[c]))
				fail_msg("format of %s gave %s", ca[c], got);
			fl_fmt_double(got, sizeof(got), y);
			if (strcmp(got, cb[c]))
				fail_msg("format of %s gave %s", cb[c], got);
			numbers += 2;
		}
		rows++;
	}
	fclose(f);
	/* 2 machines x 20 metrics, 5 % columns each */
	assert_int_equal(rows, 40);
	assert_int_equal(pct_cells, 200);
	assert_int_equal(numbers, 400);
}

/*
 * Which standard deviation the seed prints (Documentation/compare.rst): its
 * values are pft rates with 3 decimals, so in thousandths S = sum x is an
 * integer and sum x^2 = SS + S^2/30 an integer of the parity of S.  For the
 * rows with the smallest STDDEV (where float noise is far below 1) only the
 * population SS = STDDEV^2 * n lands there; the sample one (n - 1) does not.
 */
static void test_seed_stddev_is_population(void **state)
{
	struct { double sd, mean; } rows[80];
	char line[512], *c[10];
	int n = 0;
	FILE *f = fopen(SEED, "r");

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if ((!strncmp(line, "(A) ", 4) || !strncmp(line, "(B) ", 4)) && n < 80) {
			assert_int_equal(cells(line, c, 10), 8);
			rows[n].mean = strtod(c[4], NULL);
			rows[n++].sd = strtod(c[6], NULL);
		}
	fclose(f);
	assert_int_equal(n, 80);
	/* the 4 smallest STDDEV */
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < n; j++)
			if (rows[j].sd < rows[i].sd) {
				double t = rows[i].sd, m = rows[i].mean;

				rows[i] = rows[j];
				rows[j].sd = t;
				rows[j].mean = m;
			}
	for (int i = 0; i < 4; i++) {
		long double ms = (long double)rows[i].mean * 30000;
		__int128 S = (__int128)llroundl(ms), q = S * S / 30, r = S * S % 30;
		int samp_far = 0;

		assert_true(fabsl(ms - (long double)S) < 1e-3);
		for (int k = 29; k <= 30; k++) {
			long double x = (long double)rows[i].sd * rows[i].sd * k * 1e6L;
			long double tot = x + (long double)r / 30;	/* + q, an integer */
			long double ip = roundl(tot), dist = fabsl(tot - ip);
			__int128 sumsq = (__int128)ip + q;
			int parity_ok = (int)(sumsq & 1) == (int)(S & 1);

			if (k == 30) {
				if (!(dist < 0.11L && parity_ok))
					fail_msg("stddev %.3f: population lattice distance %Lg parity %d",
						 rows[i].sd, dist, parity_ok);
			} else {
				samp_far += dist > 0.3L;
			}
		}
		rows[i].mean = samp_far;	/* reuse: count below */
	}
	/* the sample hypothesis misses the lattice in at least 3 of the 4 */
	assert_true(rows[0].mean + rows[1].mean + rows[2].mean + rows[3].mean >= 3);
}

static void test_fmt_double(void **state)
{
	static const struct { double v; const char *s; } t[] = {
		{ 1e6, "1e+06" }, { 999999.5, "999999.5" }, { 0.0001, "0.0001" },
		{ 0.00001, "1e-05" }, { -2.5e7, "-2.5e+07" }, { 100, "100" },
		{ 0.1, "0.1" }, { 123456.0, "123456" }, { 1e21, "1e+21" },
		{ NAN, "NaN" }, { INFINITY, "+Inf" }, { 0, "0" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fl_fmt_double(buf, sizeof(buf), t[i].v);
		assert_string_equal(buf, t[i].s);
	}
}

static void test_summary(void **state)
{
	double v[] = { 9, 2, 4, 4, 4, 5, 5, 7 }, odd[] = { 3, 1, 2 }, bad[] = { 1, NAN };
	struct fl_stats st;

	(void)state;
	assert_int_equal(fl_stats_compute(v, 8, &st), 0);
	assert_int_equal(st.n, 8);
	assert_true(st.min == 2 && st.max == 9 && st.mean == 5 && st.median == 4.5);
	/* population stddev (the seed's) sqrt(32 / 8) = 2; sample sqrt(32 / 7) */
	assert_true(fabs(st.stddev - 2) < 1e-12);
	assert_true(fabs(st.sd_sample - sqrt(32.0 / 7)) < 1e-12);
	assert_int_equal(fl_stats_compute(odd, 3, &st), 0);
	assert_true(st.median == 2);
	assert_int_equal(fl_stats_compute(odd, 1, &st), 0);
	assert_true(isnan(st.stddev));
	assert_int_equal(fl_stats_compute(v, 0, &st), -1);
	assert_int_equal(fl_stats_compute(bad, 2, &st), -1);
	assert_true(isnan(fl_pct_change(0, 1)));
}

static void test_student_t(void **state)
{
	(void)state;
	/* table critical values: two-sided p at t_{1-p/2, df} */
	assert_true(fabs(fl_student_t_p2(2.228138852, 10) - 0.05) < 1e-7);
	assert_true(fabs(fl_student_t_p2(1.812461123, 10) - 0.10) < 1e-7);
	assert_true(fabs(fl_student_t_p2(-2.749995654, 30) - 0.01) < 1e-7);
	assert_true(fabs(fl_student_t_p2(12.70620474, 1) - 0.05) < 1e-7);
	assert_true(fl_student_t_p2(0, 5) == 1);
	assert_true(fl_student_t_p2(60, 58) < 1e-40);
}

static void test_welch(void **state)
{
	/* Welch's t-test, Wikipedia example 1: t = -2.46, df = 24.99, p = 0.021 */
	double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1,
			19.6, 19.0, 21.7, 21.4 };
	double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9,
			22.1, 22.9, 20.5, 24.4 };
	struct fl_stats s1, s2, c;
	double t, df, p;

	(void)state;
	fl_stats_compute(a1, 15, &s1);
	fl_stats_compute(a2, 15, &s2);
	p = fl_welch_p(&s2, &s1, &t, &df);
	assert_true(fabs(t + 2.46) < 0.005);
	assert_true(fabs(df - 24.99) < 0.01);
	assert_true(fabs(p - 0.021) < 0.0005);
	/* no spread, equal means: undefined, not "significant" */
	fl_stats_compute((double[]){ 1, 1, 1 }, 3, &c);
	assert_true(isnan(fl_welch_p(&c, &c, NULL, NULL)));
	s1.n = 1;
	assert_true(isnan(fl_welch_p(&s1, &s2, NULL, NULL)));
}

/*
 * mmtests compare-kernels' mark (Stat.pm cidiff, Compare.pm |ratio| > 1),
 * worked by hand.  Lower is better: amean and sample sd.  A = {10, 12, 14}
 * (mean 12, sd 2), B = {20, 22, 24} (22, 2): 10 / (1.959964 x (2 + 2)) =
 * 1.275534, marked; B = {14, 16, 18}: 4 / 7.839856 = 0.510213, not.
 * Higher is better: hmean and mmtests' sd of it, sqrt(sum (1/x - 1/H)^2 H^4
 * / n).  A = {1, 2}: H = 4/3, 1/H = 0.75, sum = 0.125, sd = sqrt(0.125 x
 * (4/3)^4 / 2) = 4/9; B = {4, 8}: H = 16/3, sd = 16/9; ratio = 4 /
 * (1.959964 x 20/9) = 0.918384, not marked.  No spread on either side: the
 * difference itself (5 -> 7: 2, marked; 5 -> 5.5: 0.5, not).  One value a
 * side: no interval, never marked.
 */
static void test_mmtests_mark(void **state)
{
	struct fl_stats a, b;
	double r;

	(void)state;
	fl_stats_compute((double[]){ 10, 12, 14 }, 3, &a);
	fl_stats_compute((double[]){ 20, 22, 24 }, 3, &b);
	r = fl_mmtests_ratio(&a, &b, 0);
	assert_true(fabs(r - 1.275534) < 1e-6 && fl_mmtests_marked(r));
	assert_true(fabs(fl_mmtests_ratio(&b, &a, 0) + 1.275534) < 1e-6);
	fl_stats_compute((double[]){ 14, 16, 18 }, 3, &b);
	r = fl_mmtests_ratio(&a, &b, 0);
	assert_true(fabs(r - 0.510213) < 1e-6 && !fl_mmtests_marked(r));

	fl_stats_compute((double[]){ 1, 2 }, 2, &a);
	fl_stats_compute((double[]){ 4, 8 }, 2, &b);
	assert_true(fabs(a.hmean - 4.0 / 3) < 1e-12 && fabs(a.sd_hmean - 4.0 / 9) < 1e-12);
	assert_true(fabs(b.hmean - 16.0 / 3) < 1e-12 && fabs(b.sd_hmean - 16.0 / 9) < 1e-12);
	r = fl_mmtests_ratio(&a, &b, 1);
	assert_true(fabs(r - 0.918384) < 1e-6 && !fl_mmtests_marked(r));

	fl_stats_compute((double[]){ 5, 5 }, 2, &a);
	fl_stats_compute((double[]){ 7, 7 }, 2, &b);
	assert_true(fl_mmtests_ratio(&a, &b, 0) == 2);
	fl_stats_compute((double[]){ 5.5, 5.5 }, 2, &b);
	assert_true(fl_mmtests_ratio(&a, &b, 0) == 0.5);
	assert_false(fl_mmtests_marked(0.5));

	fl_stats_compute((double[]){ 5 }, 1, &a);
	assert_true(isnan(fl_mmtests_ratio(&a, &b, 0)));
	assert_false(fl_mmtests_marked(fl_mmtests_ratio(&a, &b, 0)));
	/* a value of 0: no harmonic mean, no mark */
	fl_stats_compute((double[]){ 0, 5 }, 2, &a);
	assert_true(isnan(a.hmean) && isnan(fl_mmtests_ratio(&a, &b, 1)));
}

/* --precision: significant digits, no exponent below 1e15 */
static void test_fmt_sig(void **state)
{
	static const struct {
		double v;
		int d;
		const char *want;
	} c[] = {
		{ 1234567, 3, "1230000" }, { 0.00123456, 3, "0.00123" }, { 2.0, 4, "2" },
		{ -0.0001234, 2, "-0.00012" }, { 99999, 2, "100000" }, { 1e20, 3, "1.00e+20" },
		{ 3967, 4, "3967" }, { 3967, 2, "4000" }, { 207.6667, 4, "207.7" },
		{ 0.8165, 4, "0.8165" }, { -0.00001, 1, "-0.00001" }, { 0, 3, "0" },
		{ 1.5, 17, "1.5" }, { 55049.7, 4, "55050" },
	};
	char b[64];

	(void)state;
	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fl_fmt_sig(b, sizeof(b), c[i].v, c[i].d);
		if (strcmp(b, c[i].want))
			fail_msg("%g to %d digits: want %s, got %s", c[i].v, c[i].d, c[i].want, b);
	}
	fl_fmt_sig(b, sizeof(b), NAN, 3);
	assert_string_equal(b, "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_pct_rows),
		cmocka_unit_test(test_seed_stddev_is_population),
		cmocka_unit_test(test_fmt_double),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_mmtests_mark),
		cmocka_unit_test(test_fmt_sig),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
