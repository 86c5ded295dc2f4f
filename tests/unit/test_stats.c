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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_pct_rows),
		cmocka_unit_test(test_seed_stddev_is_population),
		cmocka_unit_test(test_fmt_double),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_welch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
