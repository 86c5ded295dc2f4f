// SPDX-License-Identifier: GPL-2.0
/* tools/pft/series.c: mmtests' large-stride client series. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/pft/pft.h"

static void check(unsigned int min, unsigned int max, unsigned int ncpus,
		  const char *expect)
{
	unsigned int out[PFT_MAX_SERIES], n;
	char got[2048] = "";
	size_t len = 0;

	n = pft_series(min, max, ncpus, out, PFT_MAX_SERIES);
	assert_true(n <= PFT_MAX_SERIES);
	for (unsigned int i = 0; i < n; i++)
		len += snprintf(got + len, sizeof(got) - len, "%s%u", i ? " " : "", out[i]);
	if (strcmp(got, expect))
		fail_msg("series(%u, %u, ncpus %u): expected '%s', got '%s'",
			 min, max, ncpus, expect, got);
}

/* The seed report's machine: 2x Skylake, 112 logical CPUs. */
static void test_112(void **state)
{
	(void)state;
	check(1, 112, 112, "1 4 7 12 21 30 48 79 110 112");
}

static void test_128_256(void **state)
{
	(void)state;
	check(1, 128, 128, "1 4 7 12 21 30 48 79 110 128");
	check(1, 256, 256, "1 4 7 12 21 30 48 79 110 141 172 203 234 256");
	/* mmtests' pft-bench clips PFT_MAX_CLIENTS to 128 (the classic's limit) */
	check(1, 128, 256, "1 4 7 12 21 30 48 79 110 128");
}

static void test_small_machines(void **state)
{
	(void)state;
	check(1, 1, 1, "1");
	check(1, 2, 2, "1 2");
	check(1, 4, 4, "1 3 4");
	check(1, 8, 8, "1 3 5 7 8");
	check(1, 16, 16, "1 3 5 7 12 16");
	check(1, 32, 32, "1 3 5 7 12 18 24 30 32");
	check(1, 33, 33, "1 4 7 12 21 30 33");
	check(1, 48, 48, "1 4 7 12 21 30 48");
	check(1, 64, 64, "1 4 7 12 21 30 48 64");
}

static void test_min(void **state)
{
	(void)state;
	check(2, 16, 16, "2 4 6 8 12 16");
	check(5, 112, 112, "5 8 12 21 30 48 79 110 112");
	check(112, 112, 112, "112");
	check(20, 40, 112, "20 21 30 40");
	/* like mmtests: nothing when MIN exceeds the CPU count */
	check(113, 200, 112, "");
}

/* MAX beyond 8x the CPUs: the over-commit branch (strides from 2*ncpus). */
static void test_overcommit(void **state)
{
	(void)state;
	check(1, 40, 4, "1 4 7 8 12 16 20 21 24 28 30 32 36 40");
	check(1, 100, 8, "1 4 7 12 16 21 26 30 36 46 56 66 76 86 96 100");
}

static void test_cap(void **state)
{
	unsigned int out[4];

	(void)state;
	/* the count is the full length even when it does not fit */
	assert_int_equal(pft_series(1, 112, 112, out, 4), 10);
	assert_int_equal(out[3], 12);
	assert_int_equal(pft_series(4, 2, 8, out, 4), 0);
	assert_int_equal(pft_series(1, 0, 8, out, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_112),
		cmocka_unit_test(test_128_256),
		cmocka_unit_test(test_small_machines),
		cmocka_unit_test(test_min),
		cmocka_unit_test(test_overcommit),
		cmocka_unit_test(test_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
