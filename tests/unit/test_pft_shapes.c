// SPDX-License-Identifier: GPL-2.0
/*
 * pft's file-backed shapes (issue 17): --file/--tmpfs with --private-write
 * (the file default), --shared-write, --read; what is refused; the expected
 * minor-fault count of each shape (one per page for the write shapes, one
 * per fault-around window for --read, as mm/memory.c's do_fault_around()
 * aligns it); the shape in --json.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/pft/pft.h"

#include "pft_argv.h"

static const struct pft_bad bad[] = {
	{ "--read", "--read needs --file PATH or --tmpfs" },
	{ "--shared-write", "--shared-write needs --file" },
	{ "--private-write -t 2", "--private-write needs --file" },
	{ "--tmpfs --read --shared-write", "mutually exclusive" },
	{ "--tmpfs --read --read", "mutually exclusive" },
	{ "--tmpfs --tmpfs", "give one of them once" },
	{ "--file /x --tmpfs", "give one of them once" },
	{ "--file", "needs an argument" },
	{ "--file= ", "--file needs a path" },
	{ "--tmpfs --read -z", "cannot -z" },
	{ "--tmpfs --read --latency -z", "cannot -z" },
	{ "--tmpfs=yes", "unknown option" },
	{ "--cold", "--cold needs --file PATH" },
	{ "--tmpfs --read --cold", "--cold needs --file PATH" },
	{ "--file /x --read --cold --strict", "no exact count for --strict" },
};

static void test_bad(void **state)
{
	(void)state;
	check_bad(bad, sizeof(bad) / sizeof(bad[0]));
}

static void test_good(void **state)
{
	struct pft_opts o;
	char err[256];

	(void)state;
	assert_int_equal(parse("-m 1g", &o, err, sizeof(err)), 0);
	assert_int_equal(o.backing, PFT_BACK_ANON);
	assert_int_equal(o.shape, PFT_SHAPE_ANON);
	assert_null(o.path);

	assert_int_equal(parse("--file /mnt/ext4/f", &o, err, sizeof(err)), 0);
	assert_int_equal(o.backing, PFT_BACK_FILE);
	assert_string_equal(o.path, "/mnt/ext4/f");
	assert_int_equal(o.shape, PFT_SHAPE_PRIVATE_WRITE);	/* the file default */

	assert_int_equal(parse("--tmpfs", &o, err, sizeof(err)), 0);
	assert_int_equal(o.backing, PFT_BACK_TMPFS);
	assert_null(o.path);
	assert_int_equal(o.shape, PFT_SHAPE_PRIVATE_WRITE);

	assert_int_equal(parse("--shared-write --tmpfs -t 2", &o, err, sizeof(err)), 0);
	assert_int_equal(o.shape, PFT_SHAPE_SHARED_WRITE);
	assert_int_equal(o.workers, 2);
	assert_int_equal(parse("--file=/tmp/x --read -n 2 -M --latency", &o, err, sizeof(err)), 0);
	assert_int_equal(o.shape, PFT_SHAPE_READ);
	assert_string_equal(o.path, "/tmp/x");
	assert_true(o.processes && o.multimap && o.latency);
	assert_int_equal(parse("--tmpfs --private-write -z", &o, err, sizeof(err)), 0);
	assert_int_equal(o.shape, PFT_SHAPE_PRIVATE_WRITE);
	assert_true(o.bzero);
	assert_false(o.cold);
	assert_int_equal(parse("--file /x --read --cold", &o, err, sizeof(err)), 0);
	assert_true(o.cold);
	assert_int_equal(o.shape, PFT_SHAPE_READ);
	assert_int_equal(parse("--tmpfs --read --check", &o, err, sizeof(err)), 0);
	assert_true(o.check);

	/* re-parse: nothing carried over */
	assert_int_equal(parse("-t 3", &o, err, sizeof(err)), 0);
	assert_int_equal(o.backing, PFT_BACK_ANON);
	assert_int_equal(o.shape, PFT_SHAPE_ANON);

	assert_string_equal(pft_shape_name(PFT_SHAPE_ANON), "anon");
	assert_string_equal(pft_shape_name(PFT_SHAPE_PRIVATE_WRITE), "private-write");
	assert_string_equal(pft_shape_name(PFT_SHAPE_SHARED_WRITE), "shared-write");
	assert_string_equal(pft_shape_name(PFT_SHAPE_READ), "read");
	assert_string_equal(pft_backing_name(PFT_BACK_FILE), "file");
	assert_string_equal(pft_backing_name(PFT_BACK_TMPFS), "tmpfs");
	assert_string_equal(pft_backing_name(PFT_BACK_ANON), "anon");
}

static void test_expected(void **state)
{
	(void)state;
	/* write shapes and anonymous memory: one fault per page, wherever it is */
	assert_int_equal(pft_expected_faults(PFT_SHAPE_ANON, 12345, 16384, 16), 16384);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_PRIVATE_WRITE, 3, 16384, 16), 16384);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_SHARED_WRITE, 3, 16384, 0), 16384);
	/* read: one per fault-around window (16 pages = 64 KiB), aligned by address */
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 0, 16384, 16), 1024);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 16, 16384, 16), 1024);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 5, 16384, 16), 1025);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 15, 1, 16), 1);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 15, 2, 16), 2);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 0, 17, 16), 2);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 0, 16, 16), 1);
	/* fault_around_bytes = 4096 (debugfs): one per page */
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 7, 16384, 1), 16384);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 7, 16384, 0), 16384);
	assert_int_equal(pft_expected_faults(PFT_SHAPE_READ, 7, 0, 16), 0);
	/* the 1% check against the expected count, not the pages */
	assert_true(pft_faults_agree(pft_expected_faults(PFT_SHAPE_READ, 0, 16384, 16), 1030));
	assert_false(pft_faults_agree(pft_expected_faults(PFT_SHAPE_READ, 0, 16384, 16), 16384));
	/* a kernel mapping a whole large folio per shared-write fault is caught */
	assert_false(pft_faults_agree(pft_expected_faults(PFT_SHAPE_SHARED_WRITE, 0, 16384, 16),
				      1024));
}

static char *json(const struct pft_opts *o, const struct pft_result *r)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	pft_print_json(f, o, r, true);
	fclose(f);
	return out;
}

static void test_json_shape(void **state)
{
	struct pft_result r;
	struct pft_opts o;
	char err[256], *out;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.pages = 16384;
	r.page_size = PS;
	r.workers = 1;
	r.expected = 1024;
	r.minflt = 1024;
	r.fault_around = 16;
	r.fault_around_assumed = true;
	assert_int_equal(parse("--tmpfs --read", &o, err, sizeof(err)), 0);
	out = json(&o, &r);
	assert_non_null(strstr(out, "\"shape\":\"read\",\"backing\":\"tmpfs\","));
	assert_non_null(strstr(out, "\"fault_around_pages\":16,\"fault_around_source\":\"kernel-default\","));
	assert_non_null(strstr(out, "\"expected_faults\":1024,\"minflt\":1024,"));
	free(out);

	r.fault_around = 0;
	r.expected = r.minflt = 16384;
	assert_int_equal(parse("", &o, err, sizeof(err)), 0);
	out = json(&o, &r);
	assert_non_null(strstr(out, "\"shape\":\"anon\",\"backing\":\"anon\","));
	assert_null(strstr(out, "fault_around"));
	assert_non_null(strstr(out, "\"expected_faults\":16384,"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_expected),
		cmocka_unit_test(test_json_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
