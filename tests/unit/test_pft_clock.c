// SPDX-License-Identifier: GPL-2.0
/* tools/pft/clock.c: the --latency clock choice and the cycles-to-ns arithmetic. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/pft/pft.h"

/* Reference: exact 128-bit product. */
static uint64_t ref(uint64_t cyc, uint32_t mult, uint32_t shift)
{
	return (uint64_t)(((unsigned __int128)cyc * mult) >> shift);
}

static void test_cyc2ns(void **state)
{
	/* mult/shift like a kernel's for 1, 2.1 and 3.7 GHz TSCs */
	static const struct { uint32_t mult, shift; } conv[] = {
		{ 1u << 31, 31 }, { 1022611260u, 31 }, { 580400000u, 31 }, { 4194304u, 22 },
	};
	static const uint64_t cyc[] = {
		0, 1, 1000, 24000, 1ULL << 31, (1ULL << 31) + 12345, 1ULL << 40,
		123456789012345ULL, 1ULL << 62,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(conv) / sizeof(conv[0]); i++)
		for (size_t j = 0; j < sizeof(cyc) / sizeof(cyc[0]); j++) {
			uint64_t got = pft_cyc2ns(cyc[j], conv[i].mult, conv[i].shift);
			uint64_t want = ref(cyc[j], conv[i].mult, conv[i].shift);

			/* the split form may round down by at most 1 ns vs the exact product */
			if (got > want || want - got > 1)
				fail_msg("cyc %llu mult %u shift %u: got %llu want %llu",
					 (unsigned long long)cyc[j], conv[i].mult, conv[i].shift,
					 (unsigned long long)got, (unsigned long long)want);
		}
	/* 2.1 GHz: 21000 cycles = 10 us */
	assert_true(pft_cyc2ns(21000, 1022611260u, 31) >= 9999 &&
		    pft_cyc2ns(21000, 1022611260u, 31) <= 10001);
}

static void test_forced_fallback(void **state)
{
	struct pft_clock c;

	(void)state;
	setenv("PFT_CLOCK", "clock_gettime", 1);
	pft_clock_init(&c, 0);
	assert_false(c.tsc);
	assert_int_equal(c.khz, 0);
	unsetenv("PFT_CLOCK");
}

/* Whatever this machine offers, a TSC choice comes with a sane frequency. */
static void test_choice_consistent(void **state)
{
	struct pft_clock c;

	(void)state;
	pft_clock_init(&c, 0);
	if (c.tsc) {
		assert_true(c.mult > 0 && c.shift < 64);
		assert_true(c.khz > 100000 && c.khz < 10000000);	/* 100 MHz .. 10 GHz */
	} else {
		assert_int_equal(c.khz, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cyc2ns),
		cmocka_unit_test(test_forced_fallback),
		cmocka_unit_test(test_choice_consistent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
