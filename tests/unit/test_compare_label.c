// SPDX-License-Identifier: GPL-2.0
/*
 * The (A) and (B) labels (compare_label.c): what tells the two sides apart,
 * in order -- kernel release, kernel_build (uname -v), kernel_file -- then
 * the release with the file or directory name, the paths when the names
 * match, "A"/"B" when even those do; --label-a/-b over any of them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "compare_label.h"

static int pick(const char *ka, const char *kb, const char *ba, const char *bb, const char *fa,
		const char *fb, const char *pa, const char *pb, const char *oa, const char *ob,
		char out[2][FL_LABEL_LEN])
{
	const struct fl_label_cand c[] = {
		{ "kernel", { ka, kb } },
		{ "kernel_build", { ba, bb } },
		{ "kernel_file", { fa, fb } },
	};

	return fl_pick_labels(c, 3, (const char *const[2]){ oa, ob },
			      (const char *const[2]){ pa, pb }, out);
}

static void test_order(void **state)
{
	char o[2][FL_LABEL_LEN];

	(void)state;
	/* two releases: the releases, whatever else differs */
	assert_int_equal(pick("6.1.0", "6.12.0", "#1 a", "#2 b", "x", "y", "a/r.snap", "b/r.snap",
			      NULL, NULL, o), 0);
	assert_string_equal(o[0], "6.1.0");
	assert_string_equal(o[1], "6.12.0");
	/* one release (a patchset on its base): the build strings */
	assert_int_equal(pick("6.12.0", "6.12.0", "#1 SMP Mon", "#2 SMP Tue", "x", "y", "a", "b",
			      NULL, NULL, o), 1);
	assert_string_equal(o[0], "#1 SMP Mon");
	assert_string_equal(o[1], "#2 SMP Tue");
	/* same build, or one side's unknown or empty: the kernel_file tags */
	assert_int_equal(pick("6.12.0", "6.12.0", "#1", "#1", "vmlinuz-base", "vmlinuz-spf", "a",
			      "b", NULL, NULL, o), 2);
	assert_string_equal(o[1], "vmlinuz-spf");
	assert_int_equal(pick("6.12.0", "6.12.0", NULL, "#2", "k1", "k2", "a", "b", NULL, NULL, o), 2);
	assert_int_equal(pick("6.12.0", "6.12.0", "", "#2", "k1", "k2", "a", "b", NULL, NULL, o), 2);
}

static void test_fallback(void **state)
{
	char o[2][FL_LABEL_LEN];

	(void)state;
	/* nothing differs: the release and each side's name (trailing '/' ignored) */
	assert_int_equal(pick("6.12.0", "6.12.0", "#1", "#1", NULL, NULL, "/r/sweepA/",
			      "/r/sweepB", NULL, NULL, o), -1);
	assert_string_equal(o[0], "6.12.0 (sweepA)");
	assert_string_equal(o[1], "6.12.0 (sweepB)");
	/* the same names: the paths */
	pick("6.12.0", "6.12.0", NULL, NULL, NULL, NULL, "A/run1.snap", "B/run1.snap", NULL, NULL,
	     o);
	assert_string_equal(o[0], "6.12.0 (A/run1.snap)");
	assert_string_equal(o[1], "6.12.0 (B/run1.snap)");
	/* the same paths: A and B */
	pick("6.12.0", "6.12.0", NULL, NULL, NULL, NULL, "x.snap", "x.snap", NULL, NULL, o);
	assert_string_equal(o[0], "6.12.0 (A)");
	assert_string_equal(o[1], "6.12.0 (B)");
	/* no release known: the names alone */
	pick(NULL, NULL, NULL, NULL, NULL, NULL, "d/one", "d/two", NULL, NULL, o);
	assert_string_equal(o[0], "one");
	assert_string_equal(o[1], "two");
}

static void test_override(void **state)
{
	char o[2][FL_LABEL_LEN];

	(void)state;
	/* --label-a alone: B keeps its default */
	pick("6.1.0", "6.12.0", NULL, NULL, NULL, NULL, "a", "b", "base", NULL, o);
	assert_string_equal(o[0], "base");
	assert_string_equal(o[1], "6.12.0");
	pick("6.12.0", "6.12.0", NULL, NULL, NULL, NULL, "a", "b", "base", "spf", o);
	assert_string_equal(o[0], "base");
	assert_string_equal(o[1], "spf");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_override),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
