// SPDX-License-Identifier: GPL-2.0
/* tools/pft/options.c: every bad input is refused with a message; good ones parse. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/pft/pft.h"

#include "pft_argv.h"

static const struct pft_bad bad[] = {
	{ "-m", "needs an argument" },
	{ "-m 0", "invalid size" },
	{ "-m -1", "invalid size" },
	{ "-m +4", "invalid size" },
	{ "-m abc", "invalid size" },
	{ "-m 1x", "invalid size" },
	{ "-m 1gg", "invalid size" },
	{ "-m 1.5g", "invalid size" },
	{ "-m 0x10", "invalid size" },
	{ "-m 99999999999999999999999", "invalid size" },
	{ "-m 5000000000000000000", "invalid size" },	/* > 2^52 bytes */
	{ "-m 4194305g", "invalid size" },		/* > 2^52 bytes */
	{ "-m 0g", "invalid size" },
	{ "-t 0", "invalid worker count" },
	{ "-t -2", "invalid worker count" },
	{ "-t 2x", "invalid worker count" },
	{ "-t", "needs an argument" },
	{ "-t 1025", "refused" },
	{ "-n 1025", "refused" },
	{ "-t 99999999999999999999", "invalid worker count" },
	{ "-n 0", "invalid worker count" },
	{ "-t 2 -n 2", "mutually exclusive" },
	{ "-n 2 -t 2", "mutually exclusive" },
	{ "-c 0", "invalid cache line count" },
	{ "-c 65", "invalid cache line count" },	/* 4096 / 64 lines per page */
	{ "-c x", "invalid cache line count" },
	{ "-s -1", "invalid seconds" },
	{ "-s 86401", "invalid seconds" },
	{ "-s 1.5", "invalid seconds" },
	{ "--thp=sometimes", "invalid --thp" },
	{ "--thp=", "invalid --thp" },
	{ "--thp", "needs an argument" },
	{ "--latency -z", "cannot time -z" },
	{ "-z -c 2", "mutually exclusive" },
	{ "-x", "unknown option -x" },
	{ "--bogus", "unknown option '--bogus'" },
	{ "-m 1g extra", "unexpected argument 'extra'" },
	{ "-m 3P -t 4", "less than one page per worker" },
	{ "-m 4096 -t 2", "less than one page per worker" },
	{ "--series", "--series takes" },
	{ "--series 1", "--series takes" },
	{ "--series 1 2 3 4", "--series takes" },
	{ "--series 0 8", "invalid number" },
	{ "--series 4 2", "MIN 4 > MAX 2" },
	{ "--series 1 x", "invalid number" },
	{ "--series 1 8 0", "invalid number" },
};

static void test_bad_inputs(void **state)
{
	(void)state;
	check_bad(bad, sizeof(bad) / sizeof(bad[0]));
}

static void test_defaults(void **state)
{
	struct pft_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse("", &o, err, sizeof(err)), 0);
	assert_int_equal(o.bytes, 64ULL << 20);
	assert_int_equal(o.workers, 1);
	assert_false(o.processes);
	assert_int_equal(o.clines, 1);
	assert_int_equal(o.thp, PFT_THP_NEVER);
	assert_false(o.latency || o.json || o.strict || o.bzero || o.affinity || o.check ||
		     o.title || o.multimap || o.series || o.help);
}

static void test_good_inputs(void **state)
{
	struct pft_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse("-m 1g -t 2", &o, err, sizeof(err)), 0);
	assert_int_equal(o.bytes, 1ULL << 30);
	assert_int_equal(o.workers, 2);
	assert_false(o.processes);

	assert_int_equal(parse("-m 256M -n 4 -c 64 -a -s 3 -T -M -v -v", &o, err, sizeof(err)), 0);
	assert_int_equal(o.bytes, 256ULL << 20);
	assert_int_equal(o.workers, 4);
	assert_true(o.processes);
	assert_int_equal(o.clines, 64);
	assert_true(o.affinity && o.title && o.multimap);
	assert_int_equal(o.sleep_s, 3);
	assert_int_equal(o.verbose, 2);

	assert_int_equal(parse("-m 10P", &o, err, sizeof(err)), 0);
	assert_int_equal(o.bytes, 10ULL * PS);
	assert_int_equal(parse("-m 3k", &o, err, sizeof(err)), 0);
	assert_int_equal(o.bytes, 3072);
	assert_int_equal(parse("-m 12345", &o, err, sizeof(err)), 0);
	assert_int_equal(o.bytes, 12345);
	assert_int_equal(parse("-m 4194304g", &o, err, sizeof(err)), 0);	/* 2^52 */
	assert_int_equal(o.bytes, 1ULL << 52);

	assert_int_equal(parse("-t 1024 -m 1g", &o, err, sizeof(err)), 0);
	assert_int_equal(o.workers, 1024);
	assert_int_equal(parse("-z -s 0", &o, err, sizeof(err)), 0);
	assert_true(o.bzero);

	assert_int_equal(parse("--thp=always --latency --json --strict", &o, err, sizeof(err)), 0);
	assert_int_equal(o.thp, PFT_THP_ALWAYS);
	assert_true(o.latency && o.json && o.strict);
	assert_int_equal(parse("--thp=default", &o, err, sizeof(err)), 0);
	assert_int_equal(o.thp, PFT_THP_DEFAULT);
	assert_int_equal(parse("--thp never", &o, err, sizeof(err)), 0);
	assert_int_equal(o.thp, PFT_THP_NEVER);
	assert_int_equal(parse("--check -t 4", &o, err, sizeof(err)), 0);
	assert_true(o.check);
	assert_int_equal(parse("-h", &o, err, sizeof(err)), 0);
	assert_true(o.help);

	assert_int_equal(parse("--series 1 112", &o, err, sizeof(err)), 0);
	assert_true(o.series);
	assert_int_equal(o.series_min, 1);
	assert_int_equal(o.series_max, 112);
	assert_int_equal(o.series_ncpus, 0);
	assert_int_equal(parse("--series 2 256 128", &o, err, sizeof(err)), 0);
	assert_int_equal(o.series_ncpus, 128);
}

/* Parsing twice in a row gives the same answer (getopt state is reset). */
static void test_reparse(void **state)
{
	struct pft_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse("-t 3 -x", &o, err, sizeof(err)), -1);
	assert_int_equal(parse("-t 3", &o, err, sizeof(err)), 0);
	assert_int_equal(o.workers, 3);
	assert_int_equal(parse("-t 3", &o, err, sizeof(err)), 0);
	assert_int_equal(o.workers, 3);
}

static void test_parse_helpers(void **state)
{
	unsigned long long b;
	unsigned long v;

	(void)state;
	assert_int_equal(pft_parse_size("2G", PS, &b), 0);
	assert_int_equal(b, 2ULL << 30);
	assert_int_equal(pft_parse_size("", PS, &b), -1);
	assert_int_equal(pft_parse_size(" 1", PS, &b), -1);
	assert_int_equal(pft_parse_uint("10", 1, 10, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(pft_parse_uint("11", 1, 10, &v), -1);
	assert_int_equal(pft_parse_uint("0", 1, 10, &v), -1);
	assert_int_equal(pft_parse_uint("", 0, 10, &v), -1);
	assert_int_equal(pft_parse_uint("5 ", 0, 10, &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_good_inputs),
		cmocka_unit_test(test_reparse),
		cmocka_unit_test(test_parse_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
