// SPDX-License-Identifier: GPL-2.0
/*
 * will-it-scale results (wislog.c) and their A/B (compare.c):
 *  - one line: samples, markers, refusals;
 *  - benchlog names: <test>_<model>-<N>;
 *  - a hand-made pair of logs with warmup samples that must not count, and
 *    the figures worked by hand (mean, population stddev, Welch's t, df);
 *  - the real fixtures (tests/fixtures/mmtests-wis: mmtests results trees
 *    of two runs, made from will-it-scale on the development host): sample
 *    counts and means as awk computes them from the files;
 *  - the real A/B pair of the fixtures (6.12 and 7.3: two Debian kernels
 *    in the QEMU test box) through compare: every log's sample count, mean
 *    and min/max as the test itself reads them from the benchlog text, the
 *    mean change, and awk's figures for two of the logs;
 *  - the refusals: several tests and none chosen, an unknown test, a pft
 *    sweep against will-it-scale results, two different tests.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "compare.h"
#include "textfile.h"
#include "wislog.h"

#define FIX "../fixtures"
#define TREE_A FIX "/mmtests-wis/work/log/6.18-a"
#define TREE_B FIX "/mmtests-wis/work/log/6.18-b"
#define TREE_612 FIX "/mmtests-wis/work/log/6.12"
#define TREE_73 FIX "/mmtests-wis/work/log/7.3"
#define PF_LOGS "/iter-0/wis-pf/logs"

/*
 * Sample counts and mean totals of fixture logs, as awk computes them:
 *   awk '/^min:/ { split($3, t, ":"); s += t[2]; n++ }
 *        END { printf "%d, %.6f", n, s / n }' FILE
 */
#define FIX_A_PF1T_1	15, 56668.533333	/* 6.18-a page_fault1_threads-1 */
#define FIX_A_PF1T_2	15, 33427.533333	/* 6.18-a page_fault1_threads-2 */
#define FIX_B_PF3P_2	15, 103221.933333	/* 6.18-b page_fault3_processes-2 */
#define FIX_A_BRK1T_1	15, 196185.866667	/* 6.18-a brk1_threads-1 */
#define FIX_612_PF1T_2	15, 85775.400000	/* 6.12 page_fault1_threads-2 */
#define FIX_73_PF1T_2	15, 85169.333333	/* 7.3 page_fault1_threads-2 */

static char tmpdir[] = "/tmp/fl-test-wislog-XXXXXX";

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	mkdir(dir, 0755);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_line(void **state)
{
	struct fl_wis_sample s;
	char err[200];

	(void)state;
	assert_int_equal(fl_wis_parse_line("min:6930 max:27761 total:34691", &s, err,
					   sizeof(err)), FL_WIS_SAMPLE);
	assert_true(s.min == 6930 && s.max == 27761 && s.total == 34691);
	assert_int_equal(fl_wis_parse_line("min:0 max:0 total:0 \r", &s, err, sizeof(err)),
			 FL_WIS_SAMPLE);
	assert_int_equal(fl_wis_parse_line("warmup", &s, err, sizeof(err)), FL_WIS_WARMUP);
	assert_int_equal(fl_wis_parse_line("measurement", &s, err, sizeof(err)), FL_WIS_MEASURE);
	assert_int_equal(fl_wis_parse_line("testcase:Anonymous memory page fault", &s, err,
					   sizeof(err)), FL_WIS_NONE);
	assert_int_equal(fl_wis_parse_line("average:34960", &s, err, sizeof(err)), FL_WIS_NONE);
	assert_int_equal(fl_wis_parse_line("   1 -> 21916", &s, err, sizeof(err)), FL_WIS_NONE);
	assert_int_equal(fl_wis_parse_line("", &s, err, sizeof(err)), FL_WIS_NONE);
	/* refused, each with a reason */
	static const char *const bad[] = {
		"min:3 max:2 total:9",		/* min > max */
		"min:1 max:5 total:4",		/* max > total */
		"min:1 max:2",
		"min:1 max:2 total:3 x",
		"min:01 max:2 total:3",		/* leading zero: not as printed */
		"min:-1 max:2 total:3",
		"min:1 max:2 total:99999999999999999999",	/* > 2^64 */
		"average:",
		"warmup2",
		"   1 fault/wsec",
		"pft 1 2 3",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(fl_wis_parse_line(bad[i], &s, err, sizeof(err)), -1);
		assert_true(err[0]);
	}
}

static void test_log_name(void **state)
{
	char t[64];
	unsigned int n;

	(void)state;
	assert_int_equal(fl_wis_log_name("benchlog-page_fault1_threads-48", t, sizeof(t), &n), 0);
	assert_string_equal(t, "page_fault1_threads");
	assert_int_equal(n, 48);
	assert_int_equal(fl_wis_log_name("benchlog-brk1_processes-1", t, sizeof(t), &n), 0);
	assert_string_equal(t, "brk1_processes");
	static const char *const bad[] = {
		"benchlog-page_fault1_threads-0", "benchlog-page_fault1_threads-01",
		"benchlog-page_fault1_threads-", "benchlog-pagefault-2", "benchlog--2",
		"benchlog-a b_threads-2", "time-page_fault1_threads-2", "pft-2.log",
		"benchlog-page_fault1_threads-2.gz",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(fl_wis_log_name(bad[i], t, sizeof(t), &n), -1);
}

static const struct fl_cmp_metric *metric(const struct fl_cmp *c, const char *name)
{
	for (unsigned int i = 0; i < c->nm; i++)
		if (!strcmp(c->m[i].name, name))
			return &c->m[i];
	return NULL;
}

/*
 * A: warmup total 1000 (must not count), then 200, 300, 400: mean 300,
 * median 300, population stddev sqrt((100^2 + 0 + 100^2) / 3) = 81.6497,
 * sample stddev 100.  B: 300, 330, 360: mean 330, population stddev
 * sqrt(1800 / 3) = 24.4949, sample 30.  Mean +10 %.  Welch: standard error
 * sqrt(100^2/3 + 30^2/3) = sqrt(3633.33) = 60.2771, t = 30 / 60.2771 =
 * 0.497701; df = 3633.33^2 / ((3333.33^2 + 300^2) / 2) = 2.35709.
 */
static void test_hand_figures(void **state)
{
	char a[300], b[300], err[512];
	const struct fl_cmp_metric *m;
	struct fl_cmp c;

	(void)state;
	snprintf(a, sizeof(a), "%s/a", tmpdir);
	snprintf(b, sizeof(b), "%s/b", tmpdir);
	put(a, "benchlog-x_threads-2", "testcase:x\nwarmup\nmin:400 max:600 total:1000\n"
	    "measurement\nmin:100 max:100 total:200\nmin:100 max:200 total:300\n"
	    "min:200 max:200 total:400\naverage:300\n");
	/* as mmtests keeps it: sed '1,8d' left "measurement" first */
	put(b, "benchlog-x_threads-2", "measurement\nmin:150 max:150 total:300\n"
	    "min:160 max:170 total:330\nmin:180 max:180 total:360\naverage:330\n");
	assert_int_equal(fl_cmp_build_test(&c, a, b, NULL, 0.05, err, sizeof(err)), 0);
	assert_true(c.sw[0].wis && c.sw[1].wis);
	assert_string_equal(c.shape[0], "x_threads");
	assert_null(metric(&c, "pft_faults_sec_2"));
	m = metric(&c, "wis_ops_2");
	assert_non_null(m);
	assert_string_equal(m->unit, "ops/s");
	assert_true(m->higher_is_better);
	assert_int_equal(m->st[0].n, 3);
	assert_true(m->st[0].mean == 300 && m->st[0].median == 300 && m->st[0].min == 200 &&
		    m->st[0].max == 400);
	assert_true(fabs(m->st[0].stddev - 81.6497) < 1e-4);
	assert_true(m->st[1].mean == 330 && fabs(m->st[1].stddev - 24.4949) < 1e-4);
	assert_true(fabs(m->pct[FL_PCT_MEAN] - 10.0) < 1e-9);
	assert_true(fabs(fabs(m->t) - 0.497701) < 1e-5);
	assert_true(fabs(m->df - 2.35709) < 1e-4);
	assert_false(m->significant);
	fl_cmp_free(&c);
}

/* `faultline compare --test TEST -o tmpdir/NAME A B`: its output text (free it) */
static char *compare_text(const char *name, const char *test, const char *a, const char *b)
{
	char out[300], *t;
	char *argv[] = { "compare", "--test", (char *)test, "-o", out, (char *)a, (char *)b, NULL };

	snprintf(out, sizeof(out), "%s/%s", tmpdir, name);
	assert_int_equal(cmd_compare(7, argv), 0);
	t = fl_read_text(out, 1 << 20);
	assert_non_null(t);
	return t;
}

/* awk '/^min:/ { split($3, t, ":"); s += t[2]; n++ } END { printf "%d %.6f", n, s / n }' */
static void check_series(const struct fl_sweep *sw, unsigned int threads, unsigned int n,
			 double mean)
{
	const struct fl_pft_series *ser = fl_sweep_series(sw, threads);
	double s = 0;

	assert_non_null(ser);
	assert_int_equal(ser->n, n);
	for (unsigned int i = 0; i < ser->n; i++)
		s += ser->ops[i];
	assert_true(fabs(s / n - mean) < 1e-6);
}

static void test_fixture_trees(void **state)
{
	struct fl_sweep sw;
	char err[512];

	(void)state;
	/* the run holds wis-pf and wis-malloc: two logs folders, and no test
	 * chosen to tell which */
	assert_int_equal(fl_sweep_load(TREE_A, &sw, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "2 folders of will-it-scale logs"));
	/* the run folder, an iteration, a test's folder, its logs: the same
	 * logs, the one folder with that test */
	static const char *const at[] = { TREE_A, TREE_A "/iter-0",
					  TREE_A "/iter-0/wis-pf", TREE_A "/iter-0/wis-pf/logs" };
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		assert_int_equal(fl_sweep_load_test(at[i], "page_fault1_threads", &sw, err,
						    sizeof(err)), 0);
		assert_true(sw.wis);
		assert_non_null(strstr(sw.logdir, "iter-0/wis-pf/logs"));
		assert_int_equal(sw.nseries, 2);
		check_series(&sw, 1, FIX_A_PF1T_1);
		check_series(&sw, 2, FIX_A_PF1T_2);
		fl_sweep_free(&sw);
	}
	assert_int_equal(fl_sweep_load_test(TREE_B "/iter-0/wis-pf", "page_fault3_processes", &sw,
					    err, sizeof(err)), 0);
	check_series(&sw, 2, FIX_B_PF3P_2);
	fl_sweep_free(&sw);
	assert_int_equal(fl_sweep_load_test(TREE_A, "brk1_threads", &sw, err, sizeof(err)), 0);
	assert_non_null(strstr(sw.logdir, "iter-0/wis-malloc/logs"));
	check_series(&sw, 1, FIX_A_BRK1T_1);
	fl_sweep_free(&sw);
	/* will-it-scale's own output, warmup and all: the same samples as
	 * mmtests' sed '1,8d' keeps (the fixture's raw run of A's benchlog) */
	assert_int_equal(fl_sweep_load(FIX "/will-it-scale", &sw, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "choose one with --test"));
	assert_int_equal(fl_sweep_load_test(FIX "/will-it-scale", "page_fault1_threads", &sw, err,
					    sizeof(err)), 0);
	check_series(&sw, 2, FIX_A_PF1T_2);
	fl_sweep_free(&sw);
}

static void test_compare_trees(void **state)
{
	char *t;
	struct fl_cmp c;
	char err[512];

	(void)state;
	assert_int_equal(fl_cmp_build_test(&c, TREE_A, TREE_B, "page_fault2_threads", 0.05, err,
					   sizeof(err)), 0);
	for (unsigned int n = 1; n <= 2; n++) {
		char name[32];
		const struct fl_cmp_metric *m;

		snprintf(name, sizeof(name), "wis_ops_%u", n);
		m = metric(&c, name);
		assert_non_null(m);
		assert_int_equal(m->st[0].n, 15);	/* WIS_ITERATIONS=15 */
		assert_int_equal(m->st[1].n, 15);
		assert_true(isfinite(m->p));
	}
	fl_cmp_free(&c);
	/* through the command: --test, the row names, the test said once */
	t = compare_text("ab.txt", "page_fault2_threads", TREE_A, TREE_B);
	assert_non_null(strstr(t, "wis_ops_1 "));
	assert_non_null(strstr(t, "wis_ops_2 "));
	assert_non_null(strstr(t, "Shape: page_fault2_threads"));
	assert_non_null(strstr(t, "test_name | will-it-scale"));
	assert_non_null(strstr(t, "(A) 6.18-a "));	/* the run's name */
	assert_null(strstr(t, "pft_faults"));
	free(t);
}

/*
 * A benchlog read here, not by wislog.c: the total: of every "min:" line
 * after "measurement" (mmtests' sed '1,8d' leaves it first).
 */
struct ab_fig {
	unsigned int n;
	double mean, min, max;
};

static void read_benchlog(const char *tree, const char *log, struct ab_fig *f)
{
	char path[512], line[256];
	unsigned long long lo, hi, total;
	int measuring = 0;
	double s = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s" PF_LOGS "/%s", tree, log);
	fp = fopen(path, "r");
	assert_non_null(fp);
	memset(f, 0, sizeof(*f));
	while (fgets(line, sizeof(line), fp)) {
		if (!strcmp(line, "measurement\n"))
			measuring = 1;
		else if (measuring && sscanf(line, "min:%llu max:%llu total:%llu", &lo, &hi,
					     &total) == 3) {
			if (!f->n || total < f->min)
				f->min = total;
			if (!f->n || total > f->max)
				f->max = total;
			s += total;
			f->n++;
		}
	}
	fclose(fp);
	assert_true(measuring && f->n);
	f->mean = s / f->n;
}

/* the real A/B pair: 6.12 against 7.3, every test and task count */
static void test_compare_ab(void **state)
{
	static const char *const tests[] = {
		"page_fault1_threads", "page_fault1_processes", "page_fault2_threads",
		"page_fault2_processes", "page_fault3_threads", "page_fault3_processes",
	};
	char *t, err[512];
	struct fl_sweep sw;
	struct fl_cmp c;

	(void)state;
	/* awk's figures, through the reader */
	assert_int_equal(fl_sweep_load_test(TREE_612, "page_fault1_threads", &sw, err,
					    sizeof(err)), 0);
	assert_non_null(strstr(sw.logdir, "iter-0/wis-pf/logs"));
	assert_int_equal(sw.nseries, 2);
	check_series(&sw, 2, FIX_612_PF1T_2);
	fl_sweep_free(&sw);
	assert_int_equal(fl_sweep_load_test(TREE_73, "page_fault1_threads", &sw, err,
					    sizeof(err)), 0);
	check_series(&sw, 2, FIX_73_PF1T_2);
	fl_sweep_free(&sw);
	/* this test's own reading of every log, through compare */
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		assert_int_equal(fl_cmp_build_test(&c, TREE_612, TREE_73, tests[i], 0.05, err,
						   sizeof(err)), 0);
		assert_string_equal(c.shape[0], tests[i]);
		for (unsigned int n = 1; n <= 2; n++) {
			const struct fl_cmp_metric *m;
			struct ab_fig fa, fb;
			char name[64];

			snprintf(name, sizeof(name), "benchlog-%s-%u", tests[i], n);
			read_benchlog(TREE_612, name, &fa);
			read_benchlog(TREE_73, name, &fb);
			snprintf(name, sizeof(name), "wis_ops_%u", n);
			m = metric(&c, name);
			assert_non_null(m);
			assert_int_equal(m->st[0].n, fa.n);
			assert_int_equal(m->st[1].n, fb.n);
			assert_int_equal(fa.n, 15);	/* WIS_ITERATIONS=15 */
			assert_true(fabs(m->st[0].mean - fa.mean) < 1e-6);
			assert_true(fabs(m->st[1].mean - fb.mean) < 1e-6);
			assert_true(m->st[0].min == fa.min && m->st[0].max == fa.max);
			assert_true(m->st[1].min == fb.min && m->st[1].max == fb.max);
			assert_true(fabs(m->pct[FL_PCT_MEAN] -
					 (fb.mean - fa.mean) / fa.mean * 100) < 1e-9);
			assert_true(isfinite(m->p));
		}
		fl_cmp_free(&c);
	}
	/* through the command: the runs' names label the sides */
	t = compare_text("ab-real.txt", "page_fault1_processes", TREE_612, TREE_73);
	assert_non_null(strstr(t, "Shape: page_fault1_processes"));
	assert_non_null(strstr(t, "(A) 6.12 "));
	assert_non_null(strstr(t, "(B) 7.3 "));
	assert_non_null(strstr(t, "wis_ops_2 "));
	free(t);
}

static void test_refusals(void **state)
{
	char a[300], b[300], p[300], err[512];
	struct fl_cmp c;

	(void)state;
	snprintf(a, sizeof(a), "%s/ra", tmpdir);
	snprintf(b, sizeof(b), "%s/rb", tmpdir);
	snprintf(p, sizeof(p), "%s/rp", tmpdir);
	put(a, "benchlog-brk1_threads-1", "measurement\nmin:5 max:5 total:5\n");
	put(a, "benchlog-malloc1_threads-1", "measurement\nmin:7 max:7 total:7\n");
	put(b, "benchlog-malloc1_threads-1", "measurement\nmin:8 max:8 total:8\n");
	put(p, "pft-1.log", "   1    1   1     0.12s     0.80s     0.23s 123456.789 456789.012\n");
	/* several tests, none chosen: they are named */
	assert_int_equal(fl_cmp_build_test(&c, a, b, NULL, 0.05, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "brk1_threads"));
	assert_non_null(strstr(err, "malloc1_threads"));
	assert_int_equal(fl_cmp_build_test(&c, a, b, "page_fault1_threads", 0.05, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "no will-it-scale test page_fault1_threads"));
	/* a pft sweep against will-it-scale results; --test on a pft sweep */
	assert_int_equal(fl_cmp_build_test(&c, p, b, NULL, 0.05, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nothing to compare"));
	assert_int_equal(fl_cmp_build_test(&c, p, p, "x_threads", 0.05, err, sizeof(err)), -1);
	/* two different tests are two workloads */
	put(a, "benchlog-brk1_threads-1.keep", "");	/* not a benchlog name: ignored */
	unlink(strcat(strcpy(err, a), "/benchlog-malloc1_threads-1"));
	assert_int_equal(fl_cmp_build_test(&c, a, b, NULL, 0.05, err, sizeof(err)), 0);
	assert_true(c.shape_differs);
	assert_int_equal(fl_cmp_shape_check(&c, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "will-it-scale test brk1_threads"));
	fl_cmp_free(&c);
	/* a log with only warmup samples, a bad line: FILE:LINE */
	put(b, "benchlog-malloc1_threads-1", "warmup\nmin:8 max:8 total:8\n");
	assert_int_equal(fl_cmp_build_test(&c, b, b, NULL, 0.05, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no will-it-scale samples after its warmup"));
	put(b, "benchlog-malloc1_threads-1", "measurement\nmin:8 max:8 total:8\nmin:9\n");
	assert_int_equal(fl_cmp_build_test(&c, b, b, NULL, 0.05, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "benchlog-malloc1_threads-1:3: "));
}

/* the hooks' snapshot (faultline-<workload>-<N>.snap) goes with its series */
static void test_snapshot_names(void **state)
{
	char d[300], err[512];
	struct fl_sweep sw;

	(void)state;
	snprintf(d, sizeof(d), "%s/s", tmpdir);
	put(d, "benchlog-page_fault1_threads-1", "measurement\nmin:5 max:5 total:5\n");
	put(d, "benchlog-page_fault1_threads-2", "measurement\nmin:5 max:5 total:10\n");
	put(d, "faultline-page_fault1-2.snap", "x");
	put(d, "faultline-page_fault2-1.snap", "x");
	assert_int_equal(fl_sweep_load(d, &sw, err, sizeof(err)), 0);
	assert_int_equal(fl_sweep_series(&sw, 1)->nsnaps, 0);
	assert_int_equal(fl_sweep_series(&sw, 2)->nsnaps, 1);
	assert_non_null(strstr(fl_sweep_series(&sw, 2)->snaps[0], "/faultline-page_fault1-2.snap"));
	fl_sweep_free(&sw);
	/* a logs folder with the hooks' snapshots in it is results, not a
	 * directory of recordings: compare gives the wis_ops table */
	assert_int_equal(fl_sweep_dir_has_logs(d), 1);
	{
		char out[400], *t;
		char *argv[] = { "compare", "-f", "csv", "-o", out, d, d, NULL };

		snprintf(out, sizeof(out), "%s/s.csv", tmpdir);
		assert_int_equal(cmd_compare(7, argv), 0);
		t = fl_read_text(out, 1 << 20);
		assert_non_null(t);
		assert_non_null(strstr(t, "\nwis_ops_2,wis_ops,2,"));
		free(t);
	}
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_log_name),
		cmocka_unit_test(test_hand_figures),
		cmocka_unit_test(test_fixture_trees),
		cmocka_unit_test(test_compare_trees),
		cmocka_unit_test(test_compare_ab),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_snapshot_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
