// SPDX-License-Identifier: GPL-2.0
/* tools/pft/output.c: the classic line, byte for byte, and what parsers see. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../tools/pft/pft.h"

static struct pft_result res(unsigned long long pages, unsigned int workers,
			     double user, double sys, double wall)
{
	struct pft_result r;

	memset(&r, 0, sizeof(r));
	r.pages = pages;
	r.page_size = 4096;
	r.workers = workers;
	r.pages_per_worker = pages / workers;
	r.clines = 1;
	r.user_s = user;
	r.sys_s = sys;
	r.wall_s = wall;
	r.minflt = pages;
	r.clock = "clock_gettime";
	return r;
}

static void test_classic_line(void **state)
{
	struct pft_result r = res(262144, 4, 0.12, 0.80, 0.23);
	char buf[256];

	(void)state;
	pft_format_classic(buf, sizeof(buf), &r);
	/* 262144 / 0.92 = 284939.130..., 262144 / 0.23 = 1139756.521... */
	assert_string_equal(buf, "   1    4   1     0.12s     0.80s     0.23s  284939.130 1139756.522\n");
	pft_format_header(buf, sizeof(buf));
	assert_string_equal(buf, "  Gb  Thr CLine   User     System     Wall    flt/cpu/s fault/wsec\n");
}

/* mmtests' ExtractPft: delete every 's', skip lines with letters, split on blanks. */
static void test_extractpft_view(void **state)
{
	struct pft_result r = res(65536, 2, 0.35, 0.44, 0.40);
	char buf[256], *f[16], *save = NULL;
	int n = 0;

	(void)state;
	pft_format_classic(buf, sizeof(buf), &r);
	for (char *s = buf, *d = buf;; s++) {
		if (*s != 's')
			*d++ = *s;
		if (!*s)
			break;
	}
	for (char *p = buf; *p; p++)
		assert_false((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'));
	for (char *t = strtok_r(buf, " \n", &save); t && n < 16; t = strtok_r(NULL, " \n", &save))
		f[n++] = t;
	assert_int_equal(n, 8);
	assert_string_equal(f[0], "0");		/* Gb */
	assert_string_equal(f[1], "2");		/* Thr */
	assert_string_equal(f[2], "1");		/* CLine */
	assert_string_equal(f[3], "0.35");	/* User */
	assert_string_equal(f[4], "0.44");	/* System */
	assert_string_equal(f[5], "0.40");	/* Wall */
	assert_string_equal(f[6], "82956.962");	/* 65536 / 0.79 */
	assert_string_equal(f[7], "163840.000");	/* 65536 / 0.40 */
}

static void test_gbytes(void **state)
{
	struct pft_result r = res(262144, 2, 1, 1, 1);

	(void)state;
	assert_int_equal(pft_gbytes(&r), 1);
	r = res(65536, 2, 1, 1, 1);		/* 256 MiB */
	assert_int_equal(pft_gbytes(&r), 0);
	r = res(262144 - 4, 4, 1, 1, 1);	/* one page per worker short: classic rounds up */
	assert_int_equal(pft_gbytes(&r), 1);
	r = res(262144 * 5, 112, 1, 1, 1);
	assert_int_equal(pft_gbytes(&r), 5);
}

static void test_zero_time(void **state)
{
	struct pft_result r = res(16, 1, 0, 0, 0.000001);
	char buf[256];

	(void)state;
	pft_format_classic(buf, sizeof(buf), &r);
	/* not measurable: printed as the classic would (inf), never as 0 */
	assert_non_null(strstr(buf, "inf"));
	assert_null(strstr(buf, " 0.000 "));
}

static void test_faults_agree(void **state)
{
	(void)state;
	assert_true(pft_faults_agree(262144, 262144));
	assert_true(pft_faults_agree(10000, 10100));
	assert_true(pft_faults_agree(10000, 9900));
	assert_false(pft_faults_agree(10000, 10101));
	assert_false(pft_faults_agree(10000, 9899));
	assert_false(pft_faults_agree(262144, 512));	/* THP: 2 MiB per fault */
	assert_false(pft_faults_agree(100, 0));
}

static void test_cpu_agree(void **state)
{
	(void)state;
	assert_true(pft_cpu_agree(1.00, 1.00));
	assert_true(pft_cpu_agree(1.04, 1.00));
	assert_true(pft_cpu_agree(0.96, 1.00));
	assert_false(pft_cpu_agree(1.06, 1.00));
	assert_false(pft_cpu_agree(0.02, 0.264));	/* 1024 tiny workers, stale rusage */
	assert_false(pft_cpu_agree(0.01, 0.0));
}

static void test_latency_line(void **state)
{
	struct pft_result r = res(1000, 1, 1, 1, 1);
	char buf[512];

	(void)state;
	r.latency = true;
	assert_true(pft_format_latency(buf, sizeof(buf), &r) > 0);
	assert_string_equal(buf, "# latency_ns n=0 (no samples)\n");
	for (unsigned int i = 1; i <= 1000; i++)
		fl_hist_add(&r.hist, 1000 + i);
	pft_format_latency(buf, sizeof(buf), &r);
	assert_true(buf[0] == '#');
	assert_non_null(strstr(buf, "n=1000 min=1001 p50="));
	assert_non_null(strstr(buf, " p99.9="));
	assert_non_null(strstr(buf, " max=2000 mean=1500 clock=clock_gettime\n"));
	/* truncation is reported as the length that was needed */
	assert_true(pft_format_latency(buf, 10, &r) > 10);
	assert_int_equal(strlen(buf), 9);
}

static void test_json(void **state)
{
	struct pft_result r = res(4096, 2, 0.5, 0.5, 0.25);
	struct pft_opts o;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.processes = true;
	r.latency = true;
	fl_hist_add(&r.hist, 5000);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	pft_print_json(f, &o, &r, true);
	fclose(f);
	assert_non_null(strstr(out, "\"pages\":4096,"));
	assert_non_null(strstr(out, "\"wall_s\":0.250000,\"cpu_s\":0.000000,"));
	assert_non_null(strstr(out, "\"mode\":\"processes\""));
	assert_non_null(strstr(out, "\"flt_per_cpu_s\":4096.000,"));
	assert_non_null(strstr(out, "\"fault_per_wsec\":16384.000,"));
	assert_non_null(strstr(out, "\"faults_agree\":true"));
	assert_non_null(strstr(out, "\"count\":1,\"min\":5000,\"max\":5000"));
	assert_non_null(strstr(out, "\"buckets\":[[4608,5120,1]]"));
	assert_string_equal(out + strlen(out) - 3, "]}}\n" + 1);
	free(out);

	r = res(4096, 1, 0, 0, 0);
	out = NULL;
	f = open_memstream(&out, &len);
	pft_print_json(f, &o, &r, false);
	fclose(f);
	assert_non_null(strstr(out, "\"flt_per_cpu_s\":null,\"fault_per_wsec\":null,"));
	assert_non_null(strstr(out, "\"faults_agree\":false}"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classic_line),
		cmocka_unit_test(test_extractpft_view),
		cmocka_unit_test(test_gbytes),
		cmocka_unit_test(test_zero_time),
		cmocka_unit_test(test_faults_agree),
		cmocka_unit_test(test_cpu_agree),
		cmocka_unit_test(test_latency_line),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
