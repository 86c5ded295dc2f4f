// SPDX-License-Identifier: GPL-2.0
/* include/faultline/hist.h against a brute-force reference. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <faultline/hist.h>

/* Reference: walk the buckets until [lower, upper) contains v. */
static unsigned int ref_bucket(uint64_t v)
{
	unsigned int i;

	if (v > FL_HIST_VMAX)
		v = FL_HIST_VMAX;
	for (i = 0; i < FL_HIST_NBUCKETS; i++)
		if (v >= fl_hist_lower(i) && v < fl_hist_upper(i))
			return i;
	return ~0u;
}

static uint64_t rnd64(void)
{
	return ((uint64_t)random() << 42) ^ ((uint64_t)random() << 21) ^ (uint64_t)random();
}

static void test_ilog2(void **state)
{
	(void)state;
	for (unsigned int k = 0; k < 64; k++) {
		uint64_t v = 1ULL << k;

		assert_int_equal(fl_ilog2(v), k);
		assert_int_equal(fl_ilog2(v | (v - 1)), k);
	}
}

static void test_bounds_contiguous(void **state)
{
	(void)state;
	assert_int_equal(FL_HIST_NBUCKETS, 272);
	assert_int_equal(fl_hist_lower(0), 0);
	for (unsigned int i = 1; i < FL_HIST_NBUCKETS; i++)
		assert_int_equal(fl_hist_lower(i), fl_hist_upper(i - 1));
	assert_int_equal(fl_hist_upper(FL_HIST_NBUCKETS - 1), FL_HIST_VMAX + 1);
	/* relative width <= 12.5% once buckets are wider than 1 */
	for (unsigned int i = 16; i < FL_HIST_NBUCKETS; i++) {
		uint64_t lo = fl_hist_lower(i), w = fl_hist_upper(i) - lo;

		assert_true(w * 8 <= lo);
	}
}

static void test_every_boundary(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++) {
		uint64_t lo = fl_hist_lower(i), hi = fl_hist_upper(i);

		assert_int_equal(fl_hist_bucket(lo), i);
		assert_int_equal(fl_hist_bucket(hi - 1), i);
		if (lo)
			assert_int_equal(fl_hist_bucket(lo - 1), i - 1);
	}
	assert_int_equal(fl_hist_bucket(~0ULL), FL_HIST_NBUCKETS - 1);
	assert_int_equal(fl_hist_bucket(FL_HIST_VMAX + 1), FL_HIST_NBUCKETS - 1);
}

static void test_random_vs_reference(void **state)
{
	(void)state;
	srandom(1234);
	for (int n = 0; n < 200000; n++) {
		uint64_t v = rnd64() >> (random() % 64);

		assert_int_equal(fl_hist_bucket(v), ref_bucket(v));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_add_quantiles(void **state)
{
	enum { N = 10007 };
	static struct fl_hist h;
	static uint64_t vals[N];
	uint64_t sum = 0, mn = ~0ULL, mx = 0;
	static const unsigned int ppm[] = { 1, 500000, 900000, 990000, 999000, 1000000 };

	(void)state;
	memset(&h, 0, sizeof(h));
	srandom(99);
	for (int i = 0; i < N; i++) {
		vals[i] = (rnd64() >> (random() % 36 + 28)) + 1; /* < 2^36: in range */
		fl_hist_add(&h, vals[i]);
		sum += vals[i];
		mn = vals[i] < mn ? vals[i] : mn;
		mx = vals[i] > mx ? vals[i] : mx;
	}
	assert_int_equal(h.count, N);
	assert_int_equal(h.sum, sum);
	assert_int_equal(h.min, mn);
	assert_int_equal(h.max, mx);
	qsort(vals, N, sizeof(vals[0]), cmp_u64);
	for (size_t k = 0; k < sizeof(ppm) / sizeof(ppm[0]); k++) {
		uint64_t rank = ((uint64_t)N * ppm[k] + 999999) / 1000000;
		uint64_t exact = vals[(rank ? rank : 1) - 1];
		uint64_t q = fl_hist_quantile_ppm(&h, ppm[k]);

		/* same bucket as the exact order statistic, so within 12.5% */
		if (ppm[k] == 1000000)
			assert_int_equal(q, mx);
		else
			assert_int_equal(fl_hist_bucket(q), fl_hist_bucket(exact));
		if (!(q * 8 >= exact * 7 && q * 8 <= exact * 9))
			print_error("ppm %u q %llu exact %llu\n", ppm[k], (unsigned long long)q, (unsigned long long)exact);
		assert_true(q * 8 >= exact * 7 && q * 8 <= exact * 9);
	}
}

static void test_merge(void **state)
{
	static struct fl_hist a, b, all;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&all, 0, sizeof(all));
	fl_hist_merge(&a, &b);			/* empty into empty */
	assert_int_equal(a.count, 0);
	srandom(7);
	for (int i = 0; i < 5000; i++) {
		uint64_t v = rnd64() >> (random() % 64);

		fl_hist_add(i & 1 ? &a : &b, v);
		fl_hist_add(&all, v);
	}
	fl_hist_merge(&a, &b);
	assert_memory_equal(&a, &all, sizeof(a));
}

static void test_empty_and_small(void **state)
{
	static struct fl_hist h;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_int_equal(fl_hist_quantile_ppm(&h, 500000), 0);
	fl_hist_add(&h, 0);
	fl_hist_add(&h, 0);
	assert_int_equal(h.min, 0);
	assert_int_equal(h.buckets[0], 2);
	fl_hist_add(&h, 5);
	assert_int_equal(fl_hist_quantile_ppm(&h, 1000000), 5);
	assert_int_equal(fl_hist_quantile_ppm(&h, 500000), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ilog2),
		cmocka_unit_test(test_bounds_contiguous),
		cmocka_unit_test(test_every_boundary),
		cmocka_unit_test(test_random_vs_reference),
		cmocka_unit_test(test_add_quantiles),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_empty_and_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
