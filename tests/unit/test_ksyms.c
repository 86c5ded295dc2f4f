// SPDX-License-Identifier: GPL-2.0
/* user/ksyms.c: the kallsyms parser, the address and name lookups. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ksyms.h"

/* as /proc/kallsyms prints it: unsorted, aliases, data, per-CPU, modules */
static const char text[] =
	"0000000000000000 A fixed_percpu_data\n"
	"000000000001f8c0 D __preempt_count\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81002000 t lock_vma_under_rcu\n"
	"ffffffff81001000 T handle_mm_fault\n"
	"ffffffff81001800 t handle_mm_fault.cold\n"
	"ffffffff81003000 T folio_lock\n"
	"ffffffff81003100 T folio_lock_killable\n"
	"ffffffff81003200 T lock_vma_under_rcu\n"
	"ffffffff81800000 T _etext\n"
	"ffffffff82000000 D __per_cpu_offset\n"
	"ffffffff82000100 b vma_lock_cachep\n"
	"ffffffffc0000000 t fl_probe\t[faultline]\n"
	"garbage line\n"
	"ffffffff81004000 T\n"
	"ffffffff81005000 T last_without_newline";

static void test_parse(void **state)
{
	struct fl_ksyms k;
	char err[160];
	long i;

	(void)state;
	assert_int_equal(fl_ksyms_parse(&k, text, strlen(text), err, sizeof(err)), 0);
	/* text symbols only, no module's, the unterminated last line kept */
	assert_int_equal(k.n, 10);
	assert_true(k.stext == 0xffffffff81000000ULL);
	assert_true(k.etext == 0xffffffff81800000ULL);
	assert_true(k.preempt_count == 0x1f8c0ULL);
	assert_true(k.per_cpu_offset == 0xffffffff82000000ULL);
	assert_true(k.vma_lock_cachep == 0xffffffff82000100ULL);
	assert_true(k.pcpu_hot == 0);
	for (size_t j = 1; j < k.n; j++)
		assert_true(k.s[j - 1].addr <= k.s[j].addr);
	/* by address: the containing symbol */
	i = fl_ksyms_find(&k, 0xffffffff81001004ULL);
	assert_true(i >= 0);
	assert_string_equal(k.s[i].name, "handle_mm_fault");
	assert_int_equal(fl_ksyms_find(&k, 0x1000), -1);
	/* by name: exact, the lowest address of two, not a prefix or suffix */
	i = fl_ksyms_lookup(&k, "lock_vma_under_rcu");
	assert_true(i >= 0);
	assert_true(k.s[i].addr == 0xffffffff81002000ULL);
	assert_int_equal(fl_ksyms_lookup(&k, "folio_loc"), -1);
	assert_int_equal(fl_ksyms_lookup(&k, "fl_probe"), -1);
	assert_true(fl_ksyms_lookup(&k, "last_without_newline") >= 0);
	fl_ksyms_free(&k);
}

/* fl_ksyms_end(): a function's range ends at the next higher address. */
static void test_end(void **state)
{
	struct fl_ksyms k;
	char err[160];
	long i;

	(void)state;
	assert_int_equal(fl_ksyms_parse(&k, text, strlen(text), err, sizeof(err)), 0);
	i = fl_ksyms_lookup(&k, "handle_mm_fault");
	assert_true(i >= 0);
	assert_true(fl_ksyms_end(&k, i) == 0xffffffff81001800ULL);	/* its .cold part */
	/* _stext and startup_64 are aliases: both end at the next address */
	i = fl_ksyms_lookup(&k, "_stext");
	assert_true(i >= 0);
	assert_true(fl_ksyms_end(&k, i) == 0xffffffff81001000ULL);
	i = fl_ksyms_lookup(&k, "startup_64");
	assert_true(i >= 0);
	assert_true(fl_ksyms_end(&k, i) == 0xffffffff81001000ULL);
	i = fl_ksyms_lookup(&k, "last_without_newline");
	assert_true(i >= 0);
	assert_true(fl_ksyms_end(&k, i) == 0xffffffff81800000ULL);	/* _etext */
	/* the highest symbol has no end */
	i = fl_ksyms_lookup(&k, "_etext");
	assert_true(i >= 0);
	assert_true(fl_ksyms_end(&k, i) == 0);
	fl_ksyms_free(&k);
}

static void test_prefix(void **state)
{
	struct fl_ksyms k;
	size_t first, n;
	char err[160];

	(void)state;
	assert_int_equal(fl_ksyms_parse(&k, text, strlen(text), err, sizeof(err)), 0);
	n = fl_ksyms_prefix(&k, "folio_lock", &first);
	assert_int_equal(n, 2);
	assert_string_equal(k.s[k.by_name[first]].name, "folio_lock");
	assert_string_equal(k.s[k.by_name[first + 1]].name, "folio_lock_killable");
	n = fl_ksyms_prefix(&k, "handle_mm_fault", &first);
	assert_int_equal(n, 2);
	assert_int_equal(fl_ksym_base_len(k.s[k.by_name[first + 1]].name), strlen("handle_mm_fault"));
	assert_int_equal(fl_ksyms_prefix(&k, "zzz", &first), 0);
	assert_int_equal(fl_ksyms_prefix(&k, "", &first), k.n);
	fl_ksyms_free(&k);
}

static void test_no_addresses(void **state)
{
	/* kptr_restrict: every address printed as 0 */
	static const char zeros[] = "0000000000000000 T _stext\n0000000000000000 T _etext\n"
				    "0000000000000000 T handle_mm_fault\n";
	struct fl_ksyms k;
	char err[160] = "";

	(void)state;
	assert_int_equal(fl_ksyms_parse(&k, zeros, strlen(zeros), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no addresses"));
	assert_int_equal(k.n, 0);
	assert_int_equal(fl_ksyms_parse(&k, "", 0, err, sizeof(err)), -1);
}

/*
 * The file reader parses as it reads, 64 KiB at a time: a text of ~40000
 * lines crosses many chunk ends mid-line.  It must give what the one-buffer
 * parser gives, and with text false only the data symbols.
 */
static void test_read_chunks(void **state)
{
	char path[] = "/tmp/test_ksyms.XXXXXX", err[160];
	struct fl_ksyms a, b, d;
	size_t cap = 4 << 20, len = 0;
	char *big = malloc(cap);
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_non_null(big);
	assert_true(fd >= 0);
	len += (size_t)snprintf(big + len, cap - len, "%s\n", text);
	for (int i = 0; i < 40000; i++)
		len += (size_t)snprintf(big + len, cap - len, "ffffffff81%06x %c sym_%d_%.*s\n", i * 16,
					i % 3 ? 'T' : 'd', i, i % 40, "padding_padding_padding_padding_padding_");
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(big, 1, len, f), len);
	fclose(f);
	assert_int_equal(fl_ksyms_parse(&a, big, len, err, sizeof(err)), 0);
	assert_int_equal(fl_ksyms_read(&b, path, true, err, sizeof(err)), 0);
	assert_int_equal(a.n, b.n);
	assert_true(a.n > 26000);
	for (size_t i = 0; i < a.n; i++) {
		assert_true(a.s[i].addr == b.s[i].addr);
		assert_string_equal(a.s[i].name, b.s[i].name);
	}
	assert_true(fl_ksyms_lookup(&b, "sym_39998_padding_padding_padding_padding_paddin") >= 0);
	assert_int_equal(fl_ksyms_read(&d, path, false, err, sizeof(err)), 0);
	assert_int_equal(d.n, 0);
	assert_true(d.stext == a.stext && d.etext == a.etext);
	assert_true(d.preempt_count == 0x1f8c0ULL && d.per_cpu_offset == a.per_cpu_offset);
	assert_int_equal(fl_ksyms_read(&d, "/nonexistent/kallsyms", false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/kallsyms"));
	fl_ksyms_free(&a);
	fl_ksyms_free(&b);
	fl_ksyms_free(&d);
	unlink(path);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_end),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_no_addresses),
		cmocka_unit_test(test_read_chunks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
