// SPDX-License-Identifier: GPL-2.0
/* user/vmstat.c: which /proc/vmstat counters are kept, before/after, errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "vmstat.h"

static const struct fl_vmstat_entry *get(const struct fl_vmstat *v, const char *name)
{
	for (unsigned int i = 0; i < v->n; i++)
		if (!strcmp(v->e[i].name, name))
			return &v->e[i];
	return NULL;
}

static void test_wanted(void **state)
{
	(void)state;
	assert_true(fl_vmstat_wanted("pgfault"));
	assert_true(fl_vmstat_wanted("pgmajfault"));
	assert_true(fl_vmstat_wanted("spf_attempt"));
	assert_true(fl_vmstat_wanted("spf_abort"));
	assert_true(fl_vmstat_wanted("SPF_ABORT_ODD"));
	assert_true(fl_vmstat_wanted("SPF_ATTEMPT_ANON"));
	assert_true(fl_vmstat_wanted("speculative_pgfault"));
	assert_true(fl_vmstat_wanted("vma_lock_success"));
	assert_true(fl_vmstat_wanted("vma_lock_abort"));
	assert_false(fl_vmstat_wanted("pgfaults"));
	assert_false(fl_vmstat_wanted("nr_free_pages"));
	assert_false(fl_vmstat_wanted("thp_fault_alloc"));
	assert_false(fl_vmstat_wanted("spf"));
}

static const char before_txt[] =
	"nr_free_pages 12345\n"
	"pgfault 1000\n"
	"pgmajfault 7\n"
	"spf_attempt 10\n"
	"spf_abort 2\n"
	"SPF_ABORT_ODD 1\n"
	"vma_lock_success 50\n"
	"thp_fault_alloc 3\n";

static const char after_txt[] =
	"nr_free_pages 1\n"
	"pgfault 66536\n"
	"pgmajfault 7\n"
	"spf_attempt 110\n"
	"spf_abort 12\n"
	"SPF_ABORT_ODD 1\n"
	"vma_lock_success 65586\n"
	"vma_lock_retry 4\n"
	"thp_fault_alloc 3";		/* no final newline */

static void test_before_after(void **state)
{
	struct fl_vmstat v = { 0 };
	const struct fl_vmstat_entry *e;

	(void)state;
	assert_int_equal(fl_vmstat_parse(&v, before_txt, false), 0);
	assert_int_equal(v.n, 6);
	assert_null(get(&v, "nr_free_pages"));
	assert_null(get(&v, "thp_fault_alloc"));
	e = get(&v, "pgfault");
	assert_non_null(e);
	assert_int_equal(e->before, 1000);
	assert_int_equal(e->after, 1000);

	assert_int_equal(fl_vmstat_parse(&v, after_txt, true), 0);
	assert_int_equal(v.n, 7);	/* vma_lock_retry appeared */
	e = get(&v, "pgfault");
	assert_int_equal(e->after - e->before, 65536);
	e = get(&v, "spf_attempt");
	assert_int_equal(e->after - e->before, 100);
	e = get(&v, "vma_lock_success");
	assert_int_equal(e->after - e->before, 65536);
	e = get(&v, "vma_lock_retry");
	assert_non_null(e);
	assert_int_equal(e->after - e->before, 0);	/* unknown start: no delta */
	e = get(&v, "SPF_ABORT_ODD");
	assert_int_equal(e->after - e->before, 0);

	/* next window starts where this one ended */
	fl_vmstat_roll(&v);
	e = get(&v, "pgfault");
	assert_int_equal(e->before, 66536);
	assert_int_equal(e->after, 66536);
	fl_vmstat_free(&v);
	assert_int_equal(v.n, 0);
	assert_null(v.e);
}

static void test_to_snapshot(void **state)
{
	struct fl_vmstat v = { 0 };
	struct fl_vmstat_entry *out = NULL;
	unsigned int nr = 99;

	(void)state;
	assert_int_equal(fl_vmstat_parse(&v, before_txt, false), 0);
	assert_int_equal(fl_vmstat_parse(&v, after_txt, true), 0);
	assert_int_equal(fl_vmstat_to_snapshot(&v, &out, &nr), 0);
	assert_int_equal(nr, v.n);
	assert_memory_equal(out, v.e, nr * sizeof(*out));
	/* a copy: rolling the window does not change what was stored */
	fl_vmstat_roll(&v);
	assert_int_not_equal(out[0].before, v.e[0].before);
	free(out);
	fl_vmstat_free(&v);
}

static void test_malformed(void **state)
{
	struct fl_vmstat v = { 0 };

	(void)state;
	assert_int_equal(fl_vmstat_parse(&v, "pgfault x12\n", false), -1);
	assert_int_equal(fl_vmstat_parse(&v, "pgfault 12z\n", false), -1);
	assert_int_equal(fl_vmstat_parse(&v, "pgfault -1\n", false), -1);
	assert_int_equal(fl_vmstat_parse(&v, "pgfault\n", false), -1);
	assert_int_equal(fl_vmstat_parse(&v, " 12\n", false), -1);
	assert_int_equal(fl_vmstat_parse(&v, "pgfault 99999999999999999999999\n", false), -1);
	/* counters we do not keep are not parsed, so their format does not matter */
	assert_int_equal(fl_vmstat_parse(&v, "nr_weird abc\npgfault 5\n", false), 0);
	assert_int_equal(v.n, 1);
	/* a name longer than the snapshot's field is not one of ours */
	assert_int_equal(fl_vmstat_parse(&v,
		"spf_a_name_that_is_much_longer_than_thirty_one_chars 4\npgfault 5\n", false), 0);
	assert_int_equal(v.n, 1);
	/* empty input */
	assert_int_equal(fl_vmstat_parse(&v, "", false), 0);
	assert_int_equal(v.n, 0);
	fl_vmstat_free(&v);
}

static void test_read_file(void **state)
{
	char path[64], err[256];
	struct fl_vmstat v = { 0 };
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/fl-test-vmstat.%d", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(before_txt, f);
	fclose(f);
	assert_int_equal(fl_vmstat_read(&v, path, false, err, sizeof(err)), 0);
	assert_int_equal(v.n, 6);
	unlink(path);
	assert_int_equal(fl_vmstat_read(&v, path, true, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	fl_vmstat_free(&v);
	/* the real one has pgfault */
	if (access("/proc/vmstat", R_OK) == 0) {
		assert_int_equal(fl_vmstat_read(&v, NULL, false, err, sizeof(err)), 0);
		assert_non_null(get(&v, "pgfault"));
		fl_vmstat_free(&v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_before_after),
		cmocka_unit_test(test_to_snapshot),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_read_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
