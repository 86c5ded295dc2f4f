// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's command line and release as faultline reads them (kboot.h):
 * each KEY=VALUE occurrence in order, nothing after "--", no match on a
 * longer key or a key's prefix; a release's major.minor, or a clear -1.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kboot.h"

/* every value of KEY, joined with '|' */
static const char *values(const char *cmdline, const char *key)
{
	static char out[256];
	const char *pos = cmdline, *v;
	size_t n, o = 0;

	out[0] = '\0';
	while ((v = fl_cmdline_next(&pos, key, &n))) {
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%.*s", o ? "|" : "", (int)n, v);
		assert_true(o < sizeof(out));
	}
	return out;
}

static void test_cmdline(void **state)
{
	(void)state;
	assert_string_equal(values("console=ttyS0 preempt=full quiet\n", "preempt"), "full");
	assert_string_equal(values("preempt=none preempt=full", "preempt"), "none|full");
	/* tabs and newlines separate words; an empty value is a value */
	assert_string_equal(values("a\tpreempt=lazy\npreempt=", "preempt"), "lazy|");
	/* not a longer key, not a prefix of one, not a word without '=' */
	assert_string_equal(values("xpreempt=full preempt_x=1 preempt preempt_full", "preempt"), "");
	/* after "--" the words are init's */
	assert_string_equal(values("preempt=none -- preempt=full", "preempt"), "none");
	/* "--x" is a word, not the separator */
	assert_string_equal(values("--x preempt=full", "preempt"), "full");
	assert_string_equal(values("", "preempt"), "");
	assert_string_equal(values("init_on_alloc=1 init_on_alloc=0", "init_on_alloc"), "1|0");
	/* a value keeps its own '=' */
	assert_string_equal(values("dyndbg=file=x.c", "dyndbg"), "file=x.c");
}

static void test_release(void **state)
{
	unsigned int ma = 9, mi = 9;

	(void)state;
	assert_int_equal(fl_release_version("6.12.118+deb12-amd64", &ma, &mi), 0);
	assert_true(ma == 6 && mi == 12);
	assert_int_equal(fl_release_version("7.3.4", &ma, &mi), 0);
	assert_true(ma == 7 && mi == 3);
	assert_int_equal(fl_release_version("5.10.0-35-amd64", &ma, &mi), 0);
	assert_true(ma == 5 && mi == 10);
	assert_int_equal(fl_release_version("6.13-rc1", &ma, &mi), 0);
	assert_true(ma == 6 && mi == 13);
	/* no minor, not a number, a sign, overflow: -1 and zeros */
	assert_int_equal(fl_release_version("6", &ma, &mi), -1);
	assert_true(ma == 0 && mi == 0);
	assert_int_equal(fl_release_version("6.", &ma, &mi), -1);
	assert_int_equal(fl_release_version("v6.1", &ma, &mi), -1);
	assert_int_equal(fl_release_version(" 6.1", &ma, &mi), -1);
	assert_int_equal(fl_release_version("-6.1", &ma, &mi), -1);
	assert_int_equal(fl_release_version("99999999999.1", &ma, &mi), -1);
	assert_int_equal(fl_release_version("", &ma, &mi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
