// SPDX-License-Identifier: GPL-2.0
/*
 * faultline compare, end to end (cmd_compare() in process):
 *  - on tests/fixtures/seed-sweeps (pft logs made by mk-seed-sweeps.py so
 *    that their statistics are the seed report's), `--seed` prints the
 *    seed's KERNELS, TAGS and METRICS blocks line for line (whitespace
 *    collapsed, as the mail archive did), every % cell exactly;
 *  - the default layout adds a direction, Welch p-values and *x%* flags;
 *  - collector metrics from snapshots, with unavailable figures as gaps;
 *  - malformed inputs: clear errors or marked gaps, never a crash;
 *  - record --blame: holder sites matched across A and B, the BLAME rows
 *    and their EXPLAIN clause, from two snapshots and from sweeps.
 */
#define _GNU_SOURCE
#include <fcntl.h>
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

#include "blame_model.h"
#include "blame_compare.h"
#include "commands.h"
#include "phases.h"
#include "pftlog.h"
#include "snapshot.h"
#include "textfile.h"

#define FIX "../fixtures"

static char tmpdir[] = "/tmp/fl-test-compare-XXXXXX";

static int run_ap(const char *out, va_list ap)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = "compare";
	for (char *a; (a = va_arg(ap, char *)); )
		argv[argc++] = a;
	if (out) {
		argv[argc++] = "-o";
		argv[argc++] = (char *)out;
	}
	argv[argc] = NULL;
	/* options after the operands: getopt permutes them */
	return cmd_compare(argc, argv);
}

static int run(const char *out, ...)
{
	va_list ap;
	int rc;

	va_start(ap, out);
	rc = run_ap(out, ap);
	va_end(ap);
	return rc;
}

static char *slurp(const char *path)
{
	char *t = fl_read_text(path, 16 << 20);

	assert_non_null(t);
	return t;
}

/* collapse whitespace runs, trim */
static void norm(char *s)
{
	char *o = s, *p = s;
	int sp = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p; p++) {
		if (*p == ' ' || *p == '\t') {
			sp = 1;
			continue;
		}
		if (sp && o != s)
			*o++ = ' ';
		sp = 0;
		*o++ = *p;
	}
	*o = '\0';
}

static int split_lines(char *text, char **lines, int max)
{
	int n = 0;

	for (char *p = text; *p && n < max; ) {
		char *e = strchr(p, '\n');

		if (e)
			*e = '\0';
		lines[n++] = p;
		if (!e)
			break;
		p = e + 1;
	}
	return n;
}

static int cells(char *line, char **out, int max)
{
	int n = 0;

	for (char *p = line; n < max; ) {
		char *bar = strchr(p, '|');

		if (bar)
			*bar = '\0';
		while (*p == ' ')
			p++;
		for (char *e = p + strlen(p); e > p && e[-1] == ' '; )
			*--e = '\0';
		out[n++] = p;
		if (!bar)
			break;
		p = bar + 1;
	}
	return n;
}

static int close_rel(const char *a, const char *b, double rel)
{
	double x = strtod(a, NULL), y = strtod(b, NULL);

	return fabs(x - y) <= rel * fabs(x);
}

/* The seed block of machine `which` (0 Skylake, 1 Rome): from "[*] KERNELS"
 * to the "=====" line. */
static int seed_block(char *seed, int which, char **lines, int max)
{
	static char *all[2000];
	int n = split_lines(seed, all, 2000), k = 0, found = -1, out = 0;

	for (int i = 0; i < n; i++)
		if (!strcmp(all[i], "[*] KERNELS") && k++ == which) {
			found = i;
			break;
		}
	assert_true(found >= 0);
	for (int i = found; i < n && strncmp(all[i], "=====", 5) && out < max; i++)
		lines[out++] = all[i];
	while (out && !*lines[out - 1])
		out--;
	return out;
}

static void check_seed_machine(int which)
{
	const char *mach = which ? "rome" : "skylake";
	char a[256], b[256], out[512], *ours, *seed, *ol[400], *sl[400];
	int no, ns, rows = 0, exact_mean = 0;

	snprintf(a, sizeof(a), FIX "/seed-sweeps/%s-A", mach);
	snprintf(b, sizeof(b), FIX "/seed-sweeps/%s-B", mach);
	snprintf(out, sizeof(out), "%s/%s.txt", tmpdir, mach);
	assert_int_equal(run(out, "--seed", "--label-a", "9f4ad9e425a1", "--label-b",
			     "b864a2166b52", "--kernel-a", "upstream-5-12.tar.xz", "--kernel-b",
			     "spf-5-12.tar.xz", a, b, NULL), 0);
	ours = slurp(out);
	seed = slurp(FIX "/seed-ab-report.txt");
	no = split_lines(ours, ol, 400);
	while (no && !*ol[no - 1])
		no--;
	ns = seed_block(seed, which, sl, 400);
	assert_int_equal(no, ns);
	for (int i = 0; i < ns; i++) {
		char *co[10], *cs[10];
		int nc;

		norm(ol[i]);
		norm(sl[i]);
		if (strncmp(sl[i], "(A) ", 4) && strncmp(sl[i], "(B) ", 4)) {
			if (strcmp(ol[i], sl[i]))
				fail_msg("%s line %d: seed '%s'\n  ours '%s'", mach, i + 1, sl[i], ol[i]);
			continue;
		}
		/* (A)/(B) rows: every cell exact but MEAN and STDDEV, which the
		 * fixture matches only as closely as 3-decimal pft values allow */
		nc = cells(sl[i], cs, 10);
		assert_int_equal(cells(ol[i], co, 10), nc);
		for (int c = 0; c < nc; c++) {
			if (c == 4) {
				exact_mean += !strcmp(co[c], cs[c]);
				if (!close_rel(cs[c], co[c], 1e-15))
					fail_msg("%s line %d MEAN: seed %s ours %s", mach, i + 1, cs[c], co[c]);
			} else if (c == 6) {
				if (!close_rel(cs[c], co[c], 1e-8))
					fail_msg("%s line %d STDDEV: seed %s ours %s", mach, i + 1, cs[c], co[c]);
			} else if (strcmp(co[c], cs[c])) {
				fail_msg("%s line %d cell %d: seed '%s' ours '%s'", mach, i + 1, c, cs[c], co[c]);
			}
		}
		rows++;
	}
	assert_int_equal(rows, 40);
	assert_true(exact_mean >= 30);
	free(ours);
	free(seed);
}

static void test_seed_skylake(void **state)
{
	(void)state;
	check_seed_machine(0);
}

static void test_seed_rome(void **state)
{
	(void)state;
	check_seed_machine(1);
}

/* line `below` of the metric's header row (1: (A), 2: (B), 3: %) */
static char *metric_row(char *text, const char *metric, int below)
{
	char key[80], *p;

	snprintf(key, sizeof(key), "  %s ", metric);
	p = strstr(text, key);
	assert_non_null(p);
	for (int k = 0; k < below; k++) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	return strndup(p, strcspn(p, "\n"));
}

/* the % row of a metric */
static char *metric_pct_row(char *text, const char *metric)
{
	char key[80], *p;

	snprintf(key, sizeof(key), "  %s ", metric);
	p = strstr(text, key);
	assert_non_null(p);
	for (int k = 0; k < 3; k++) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	return strndup(p, strcspn(p, "\n"));
}

static void test_default_layout(void **state)
{
	char out[256], *t, *row, *c[12];

	(void)state;
	snprintf(out, sizeof(out), "%s/rome-full.txt", tmpdir);
	assert_int_equal(run(out, FIX "/seed-sweeps/rome-A", FIX "/seed-sweeps/rome-B", NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "| DIRECTION"));
	assert_non_null(strstr(t, "| P-VALUE"));
	assert_non_null(strstr(t, "PFT_ITERATIONS"));
	/* Rome, 128 threads: -9.97% with small spread: significant, flagged */
	row = metric_pct_row(t, "pft_faults_sec_128");
	assert_int_equal(cells(row, c, 12), 9);
	assert_string_equal(c[4], "*-9.97%*");
	assert_string_equal(c[7], "higher is better");
	assert_true(strtod(c[8], NULL) < 1e-10);
	free(row);
	/* 48 threads: -0.32% inside a 1.5e6 stddev: not significant, not flagged */
	row = metric_pct_row(t, "pft_faults_sec_48");
	assert_int_equal(cells(row, c, 12), 9);
	assert_string_equal(c[4], "-0.32%");
	assert_true(strtod(c[8], NULL) > 0.5);
	free(row);
	free(t);
}

/*
 * --precision 3 rounds the statistics, not the %; one kernel on both
 * sides: the labels name the directories.  Skylake, 1 thread: +1.31% with
 * Welch's p = 0.0037, but mmtests would not mark it: the 95% intervals
 * (1.96 x sd ~ 17000 and 20000 faults/s) overlap a 7500 faults/s change.
 */
static void test_precision(void **state)
{
	char out[256], *t, *row, *c[12];

	(void)state;
	snprintf(out, sizeof(out), "%s/sky-p3.txt", tmpdir);
	assert_int_equal(run(out, "--precision", "3", FIX "/seed-sweeps/skylake-A",
			     FIX "/seed-sweeps/skylake-B", NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "  pft_faults_cpu_1 (faults/s/cpu) "));
	row = metric_row(t, "pft_faults_cpu_1", 1);
	assert_int_equal(cells(row, c, 12), 9);
	assert_string_equal(c[0], "(A) 5.12.0-smp-DEV (skylake-A)");
	assert_string_equal(c[1], "30");
	assert_string_equal(c[2], "565000");
	assert_string_equal(c[4], "575000");
	assert_string_equal(c[6], "8580");
	free(row);
	row = metric_pct_row(t, "pft_faults_cpu_1");
	assert_int_equal(cells(row, c, 12), 9);
	assert_string_equal(c[4], "+1.31%");
	assert_true(strtod(c[8], NULL) < 0.005);
	free(row);
	free(t);
}

static void test_other_formats(void **state)
{
	char out[256], *t;

	(void)state;
	snprintf(out, sizeof(out), "%s/sky.json", tmpdir);
	assert_int_equal(run(out, "-f", "json", FIX "/seed-sweeps/skylake-A",
			     FIX "/seed-sweeps/skylake-B", NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "{\"name\":\"pft_faults_cpu_1\",\"kind\":\"pft_faults_cpu\","
				  "\"threads\":1,"));
	assert_non_null(strstr(t, "\"min\":565493.841,\"max\":597051.859,\"mean\":574980.2721"));
	assert_non_null(strstr(t, "\"machine_platform_genus\":\"skylake\""));
	free(t);
	/* well-formed JSON whose numbers read back as the table's (python3's parser) */
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
			 "m=d[\"metrics\"]; assert len(m)==20; "
			 "assert m[0][\"a\"][\"mean\"]==574980.2721; "
			 "assert all(x[\"pct\"][\"mean\"] is not None for x in m)' %s", out);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(out, sizeof(out), "%s/sky.csv", tmpdir);
	assert_int_equal(run(out, "-f", "csv", FIX "/seed-sweeps/skylake-A",
			     FIX "/seed-sweeps/skylake-B", NULL), 0);
	t = slurp(out);
	assert_int_equal(strncmp(t, "metric,kind,threads,unit,row,", 29), 0);
	assert_non_null(strstr(t, "\npft_faults_sec_112,pft_faults_sec,112,faults/s,pct,,,"
				  "139.8"));
	free(t);
	/* every row has the header's 17 fields (python3's csv reader) */
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); "
			 "assert len(r)==1+60 and all(len(x)==17 for x in r)' %s", out);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(out, sizeof(out), "%s/sky.md", tmpdir);
	assert_int_equal(run(out, "-f", "markdown", FIX "/seed-sweeps/skylake-A",
			     FIX "/seed-sweeps/skylake-B", NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "| pft_faults_cpu_110 (faults/s/cpu) |"));
	/* mmtests' mark on the mean change, Welch's p in bold */
	assert_non_null(strstr(t, "| \\*+126.69%\\* | +121.82% | **1.48e-41** |"));
	free(t);
}

/* ---- hand-made sweeps ---- */

static void wfile(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *mksweep(const char *name, const unsigned int *threads, int n, double base)
{
	char *d, line[256], fname[64], text[8192];

	assert_true(asprintf(&d, "%s/%s", tmpdir, name) > 0);
	mkdir(d, 0755);
	wfile(d, "tags", "kernel_version=6.12.0-test\nmachine_platform_genus=rome\n");
	wfile(d, "sweep.conf", "export PFT_ITERATIONS=5\n");
	for (int i = 0; i < n; i++) {
		text[0] = '\0';
		for (int it = 0; it < 5; it++) {
			snprintf(line, sizeof(line), "   1 %4u   1     0.01s     0.50s     0.20s %10.3f %10.3f\n",
				 threads[i], base * (1 + 0.01 * it), base * threads[i] * (1 + 0.01 * it));
			strcat(text, line);
		}
		snprintf(fname, sizeof(fname), "pft-%u.log", threads[i]);
		wfile(d, fname, text);
	}
	return d;
}

static void write_snap(const char *dir, unsigned int threads, unsigned int iter, unsigned int tier,
		       unsigned int kind, unsigned long long lat_ns, unsigned int aborts)
{
	char path[700], err[256], sd[600];
	struct fl_snapshot s;

	snprintf(sd, sizeof(sd), "%s/snap", dir);
	mkdir(sd, 0755);
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_snapshot_alloc_cpus(&s, 4), 0);
	s.hdr.tier = tier;
	s.hdr.lockless_kind = kind;
	s.hdr.hooks_live = (1ULL << FL_HOOK_PF_USER) | (1ULL << FL_HOOK_MMAP_START) |
			   (1ULL << FL_HOOK_MMAP_ACQUIRED) | (1ULL << FL_HOOK_MMAP_RELEASED);
	if (tier != FL_TIER_TRACEPOINT)
		s.hdr.hooks_live |= (1ULL << FL_HOOK_HMF) | (1ULL << FL_HOOK_LOCK_VMA);
	for (unsigned int c = 0; c < 4; c++) {
		s.cpu_online[c] = 1;
		for (int k = 0; k < 100; k++) {
			if (tier != FL_TIER_TRACEPOINT)
				fl_hist_add(&s.cpus[c].hist[FL_H_FAULT_LAT], lat_ns + k);
			fl_hist_add(&s.cpus[c].hist[FL_H_MMAP_WAIT_R], 1000);
		}
		s.cpus[c].ll[FL_LL_ATTEMPTED] = 100;
		s.cpus[c].ll[FL_LL_ABORTED] = aborts;
	}
	snprintf(path, sizeof(path), "%s/pft-%u-%u.snap", sd, threads, iter);
	assert_int_equal(fl_snapshot_write_file(path, &s, err, sizeof(err)), 0);
	fl_snapshot_free(&s);
}

static void test_snapshot_metrics(void **state)
{
	static const unsigned int thr[] = { 1, 4 };
	char *a = mksweep("snapA", thr, 2, 100000), *b = mksweep("snapB", thr, 2, 120000);
	char out[256], *t, *row, *c[12], path[600];

	(void)state;
	for (unsigned int it = 1; it <= 3; it++) {
		write_snap(a, 1, it, FL_TIER_FENTRY, FL_LL_KIND_VMA_LOCK, 2000 + it, 1);
		write_snap(a, 4, it, FL_TIER_FENTRY, FL_LL_KIND_VMA_LOCK, 4000 + it, 5);
		write_snap(b, 1, it, FL_TIER_FENTRY, FL_LL_KIND_NONE, 1500 + it, 0);
		write_snap(b, 4, it, FL_TIER_TRACEPOINT, FL_LL_KIND_VMA_LOCK, 0, 2);
	}
	/* a truncated snapshot: skipped with a note, the others still count */
	snprintf(path, sizeof(path), "%s/snap/pft-1-9.snap", a);
	wfile(a, "snap/pft-1-9.snap", "FLSN");
	snprintf(out, sizeof(out), "%s/snap.txt", tmpdir);
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	/* p50 of 2000+k..: B faster at 1 thread, lower is better */
	assert_non_null(strstr(t, "fault_latency_p50_1"));
	row = metric_pct_row(t, "fault_latency_p50_1");
	assert_int_equal(cells(row, c, 12), 9);
	assert_string_equal(c[7], "lower is better");
	assert_true(c[4][0] == '*' || c[4][0] == '-');
	free(row);
	/* abort %: A 1% of attempts at 1 thread; B's kernel has no lockless path */
	assert_non_null(strstr(t, "lockless_abort_pct_1 (B): absent (this kernel has no lockless fault path"));
	assert_non_null(strstr(t, "fault_latency_p99_4 (B): unavailable (tracepoint tier: no handle_mm_fault hook)"));
	assert_non_null(strstr(t, "lockless_abort_pct_4 (B): unavailable (tracepoint tier: needs lock_vma_under_rcu"));
	assert_non_null(strstr(t, "skipped unreadable snapshot"));
	assert_non_null(strstr(t, "mmap_lock_wait_mean_4"));
	free(t);
	free(a);
	free(b);
}

/* ---- sweeps recorded with --phases --locks: sections built in memory ---- */

static void add_sec(struct fl_snapshot *s, unsigned int type, unsigned int count,
		    const void *data, size_t size)
{
	assert_int_equal(fl_snapshot_add_section(s, type, count, data, size), 0);
}

struct ph_run {
	unsigned int alloc, rest, lockless, unattrib;	/* ns per fault */
	unsigned int zone_wait, mmap_w_wait;		/* ns of lock wait per fault */
	unsigned int extra_alloc, extra_zone;		/* more on CPUs 2-3 (node1) */
	int phases, locks, topo;
};

/*
 * 4 CPUs x 1000 faults; every fault takes lockless + alloc + rest +
 * unattrib ns; zero is unavailable (tag); lock waits spread over the CPUs.
 */
static void write_phase_snap(const char *dir, unsigned int threads, unsigned int iter,
			     const struct ph_run *r)
{
	static struct fl_phase_stats ps[4];
	static struct fl_lock_stats ls[4];
	char path[700], err[256], sd[600];
	struct fl_snapshot s;
	fl_u64 lat0 = r->alloc + r->rest + r->lockless + r->unattrib;

	snprintf(sd, sizeof(sd), "%s/snap", dir);
	mkdir(sd, 0755);
	memset(&s, 0, sizeof(s));
	memset(ps, 0, sizeof(ps));
	memset(ls, 0, sizeof(ls));
	assert_int_equal(fl_snapshot_alloc_cpus(&s, 4), 0);
	s.hdr.tier = FL_TIER_FENTRY;
	s.hdr.lockless_kind = FL_LL_KIND_VMA_LOCK;
	s.hdr.hooks_live = (1ULL << FL_HOOK_PF_USER) | (1ULL << FL_HOOK_HMF) |
			   (1ULL << FL_HOOK_LOCK_VMA);
	for (unsigned int c = 0; c < 4; c++) {
		unsigned int xa = c >= 2 ? r->extra_alloc : 0, xz = c >= 2 ? r->extra_zone : 0;
		fl_u64 lat = lat0 + xa;

		s.cpu_online[c] = 1;
		s.cpus[c].cnt[FL_C_FAULTS_USER] = 1000;
		for (int k = 0; k < 1000; k++) {
			fl_hist_add(&s.cpus[c].hist[FL_H_FAULT_LAT], lat);
			ps[c].faults++;
			ps[c].lat_sum += lat;
			ps[c].unattributed_sum += r->unattrib;
			fl_hist_add(&ps[c].hist[FL_PH_ALLOC], r->alloc + xa);
			fl_hist_add(&ps[c].hist[FL_PH_REST], r->rest);
			fl_hist_add(&ps[c].hist[FL_PH_LOCKLESS], r->lockless);
		}
		ls[c].count[FL_LK_ZONE] = 10;
		for (int k = 0; k < 10; k++)
			fl_hist_add(&ls[c].wait[FL_LK_ZONE], (r->zone_wait + xz) * 100ULL);
		ls[c].count[FL_LK_MMAP_W] = 1;
		fl_hist_add(&ls[c].wait[FL_LK_MMAP_W], r->mmap_w_wait * 1000ULL);
	}
	if (r->phases) {
		add_sec(&s, FL_SEC_PHASES, 4, ps, sizeof(ps));
		assert_int_equal(fl_snapshot_set_tag(&s, "phases", "fentry"), 0);
		assert_int_equal(fl_snapshot_set_tag(&s, "phases.unavailable",
			"zero (no traceable hook in this kernel); ptl (no lock:contention tracepoints)"), 0);
	} else {
		assert_int_equal(fl_snapshot_set_tag(&s, "phases",
			"unavailable (fentry programs refused by this kernel)"), 0);
	}
	if (r->topo) {
		assert_int_equal(fl_snapshot_set_tag(&s, "topology_node", "0:0-1 1:2-3"), 0);
		assert_int_equal(fl_snapshot_set_tag(&s, "topology_llc", "0 1 2 3"), 0);
	}
	if (r->locks) {
		add_sec(&s, FL_SEC_LOCKS, 4, ls, sizeof(ls));
		assert_int_equal(fl_snapshot_set_tag(&s, "locks", "tracepoint"), 0);
	}
	snprintf(path, sizeof(path), "%s/pft-%u-%u.snap", sd, threads, iter);
	assert_int_equal(fl_snapshot_write_file(path, &s, err, sizeof(err)), 0);
	fl_snapshot_free(&s);
}

/*
 * A sweep at 2 and 8 threads, `iters` runs each.  B at 8 threads is slower;
 * skew: only on node1 (CPUs 2-3, twice as much there), with topology tags.
 */
static char *phase_sweep2(const char *name, int iters, int b_side, int phases, int skew)
{
	static const unsigned int thr[] = { 2, 8 };
	char *d = mksweep(name, thr, 2, b_side ? 1100 : 1000);

	for (int t = 0; t < 2; t++)
		for (int it = 1; it <= iters; it++) {
			/* small deterministic spread, the same on both sides */
			struct ph_run r = { .alloc = 800 + 3 * it, .rest = 600 + 2 * it,
					    .lockless = 200, .unattrib = 400 + it,
					    .zone_wait = 10 + it, .mmap_w_wait = 50,
					    .phases = phases, .locks = 1 };

			r.topo = skew;
			if (b_side && thr[t] == 8 && skew) {
				/* node1 only: +1800 ns alloc, +1580 zone wait */
				r.extra_alloc = 1800;
				r.extra_zone = 1580;
			} else if (b_side && thr[t] == 8) {
				/* B at 8 threads: +1200 ns per fault, 900 of it in
				 * alloc (zone lock wait +790 of those), 300 in rest */
				r.alloc += 900;
				r.rest += 300;
				r.zone_wait += 790;
			}
			write_phase_snap(d, thr[t], it, &r);
		}
	return d;
}

static char *phase_sweep(const char *name, int iters, int b_side, int phases)
{
	return phase_sweep2(name, iters, b_side, phases, 0);
}

/* the change sits on one node: EXPLAIN says where */
static void test_phase_explain_node(void **state)
{
	char *a = phase_sweep2("pnA", 5, 0, 1, 1), *b = phase_sweep2("pnB", 5, 1, 1, 1);
	char out[256], *t;

	(void)state;
	snprintf(out, sizeof(out), "%s/node.txt", tmpdir);
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "at 8 threads, B's faults are 900 ns slower on average (+44.6%, p="));
	assert_non_null(strstr(t, ": 100% of the added latency in B is alloc (+900 ns per fault, p="));
	assert_non_null(strstr(t, ") (most on node1: +1800 ns per fault there, p="));
	assert_non_null(strstr(t, "; 88% of it is zone lock wait (+790 ns per fault, p="));
	assert_non_null(strstr(t, ") (most on node1: +1580 ns per fault there, p="));
	free(t);
	free(a);
	free(b);
}

static void test_phase_rows_and_explain(void **state)
{
	char *a = phase_sweep("phA", 5, 0, 1), *b = phase_sweep("phB", 5, 1, 1);
	char out[256], *t, *row, *c[12], *ex, cmd[800];

	(void)state;
	snprintf(out, sizeof(out), "%s/phases.txt", tmpdir);
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	/* rows per thread count for the phases and the contended classes */
	assert_non_null(strstr(t, "  phases_latency_mean_8 "));
	assert_non_null(strstr(t, "  phase_alloc_mean_2 "));
	assert_non_null(strstr(t, "  phase_unattrib_mean_8 "));
	assert_non_null(strstr(t, "  lock_zone_wait_8 "));
	assert_non_null(strstr(t, "  lock_mmap_w_wait_2 "));
	/* never contended: no rows, said in a note */
	assert_null(strstr(t, "lock_lru_wait"));
	assert_non_null(strstr(t, "lock classes without contended wait in A or B (rows left out): "
				  "mmap_r, vma, ptl, lru, memcg, other"));
	/* a phase the tier cannot see is a gap with its reason, never 0 */
	assert_non_null(strstr(t, "phase_zero_mean_8 (A): unavailable (no traceable hook in this kernel)"));
	assert_non_null(strstr(t, "phase_ptl_mean_2 (B): unavailable (no lock:contention tracepoints)"));
	/* B's alloc at 8 threads: +900 ns on ~803: significant, flagged */
	row = metric_pct_row(t, "phase_alloc_mean_8");
	assert_int_equal(cells(row, c, 12), 9);
	assert_string_equal(c[4], "*+111.25%*");
	assert_string_equal(c[7], "lower is better");
	free(row);
	/* A at 8 threads: 200 + (803..815) + (602..610) + (401..405) ns per fault */
	row = metric_row(t, "phases_latency_mean_8", 1);
	assert_int_equal(cells(row, c, 12), 9);
	assert_string_equal(c[1], "5");
	assert_string_equal(c[2], "2006");
	assert_string_equal(c[3], "2030");
	assert_string_equal(c[4], "2018");
	free(row);
	row = metric_pct_row(t, "phase_alloc_mean_2");
	assert_int_equal(cells(row, c, 12), 9);
	assert_string_equal(c[4], "+0.00%");
	free(row);
	/* EXPLAIN: at 8 threads only (2 threads: same runs on both sides) */
	ex = strstr(t, "\n[*] EXPLAIN\n");
	assert_non_null(ex);
	assert_null(strstr(ex, "at 2 threads"));
	assert_non_null(strstr(ex, "at 8 threads, B's faults are 1200 ns slower on average "
				   "(+59.5%, p="));
	assert_non_null(strstr(ex, ": 75% of the added latency in B is alloc (+900 ns per fault, p="));
	/* the next phase with a good part of it: rest, +300 */
	assert_non_null(strstr(ex, "), 25% rest (+300 ns per fault, p="));
	assert_non_null(strstr(ex, "; 66% of it is zone lock wait (+790 ns per fault, p="));
	free(t);

	/* the same in JSON, read back by python3 */
	snprintf(out, sizeof(out), "%s/phases.json", tmpdir);
	assert_int_equal(run(out, "-f", "json", a, b, NULL), 0);
	snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
		 "e=d[\"explain\"]; assert len(e)==1, e; e=e[0]; "
		 "assert e[\"threads\"]==8 and e[\"phase\"]==\"alloc\" and e[\"lock_class\"]==\"zone\"; "
		 "assert abs(e[\"phase_share_pct\"]-75)<0.01 and abs(e[\"latency_change_ns\"]-1200)<1e-6; "
		 "m={x[\"name\"]:x for x in d[\"metrics\"]}; "
		 "assert m[\"lock_zone_wait_8\"][\"b\"][\"mean\"]==803 and m[\"lock_zone_wait_8\"][\"significant\"]; "
		 "assert m[\"phase_zero_mean_2\"][\"a\"] is None and \"unavailable\" in m[\"phase_zero_mean_2\"][\"gap_a\"]' %s",
		 out);
	assert_int_equal(system(cmd), 0);
	/* markdown carries the explain line */
	snprintf(out, sizeof(out), "%s/phases.md", tmpdir);
	assert_int_equal(run(out, "-f", "markdown", a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\nExplain:\n- at 8 threads, B's faults are 1200 ns slower"));
	free(t);
	/* csv: one explain row (8 threads), 17 fields, B - A latency in the mean cell */
	snprintf(out, sizeof(out), "%s/phases.csv", tmpdir);
	assert_int_equal(run(out, "-f", "csv", a, b, NULL), 0);
	snprintf(cmd, sizeof(cmd), "python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); "
		 "assert all(len(x)==17 for x in r); e=[x for x in r if x[0]==\"explain\"]; "
		 "assert len(e)==1, e; e=e[0]; assert e[2]==\"8\" and abs(float(e[9])-1200)<1e-6, e; "
		 "assert e[14]==\"yes\" and e[15].startswith(\"at 8 threads, B\") and \"faults are 1200 ns slower\" in e[15], e' %s",
		 out);
	assert_int_equal(system(cmd), 0);
	/* B against A: the same change, as saved latency */
	snprintf(out, sizeof(out), "%s/phases-ba.txt", tmpdir);
	assert_int_equal(run(out, b, a, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "at 8 threads, B's faults are 1200 ns faster on average (-37.3%, p="));
	assert_non_null(strstr(t, ": 75% of the saved latency in B is alloc (-900 ns per fault"));
	free(t);
	/* A against itself: nothing significant, said so */
	snprintf(out, sizeof(out), "%s/phases-aa.txt", tmpdir);
	assert_int_equal(run(out, a, a, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "[*] EXPLAIN\nno significant change in the fault phases"));
	free(t);
	free(a);
	free(b);
}

static char *sweep_report(const char *dir, bool phases, bool locks, int want)
{
	char *buf = NULL, err[512] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fl_report_phases_sweep(dir, f, phases, locks, err, sizeof(err)), want);
	fclose(f);
	if (want)
		assert_true(err[0] != '\0');
	return buf;
}

/* report --phases/--locks of a sweep directory: a row per thread count */
static void test_phase_sweep_report(void **state)
{
	char *b = phase_sweep("prB", 5, 1, 1), *an = phase_sweep("prA", 2, 0, 0), *t;

	(void)state;
	t = sweep_report(b, true, true, 0);
	/* B at 8 threads: 200 + 1709 + 906 + 403 ns per fault; zero, ptl n/a */
	assert_non_null(strstr(t, "\n      8     5       4000      3218       200         0      1709"
				  "       n/a         0       n/a         0       906         0         0"
				  "         0         0       403       0\n"));
	assert_non_null(strstr(t, "\n      2     5       4000      2018       200         0       809"));
	assert_non_null(strstr(t, "8 threads: zero unavailable (no traceable hook in this kernel)\n"));
	/* zone: (10 + 3 + 790) ns of wait per fault, mmap_w 50 */
	assert_non_null(strstr(t, "\n      8     5       0.0      50.0       0.0       0.0     803.0"
				  "       0.0       0.0       0.0  zone (94%)\n"));
	free(t);
	/* phases only; a sweep recorded without them says why per row */
	t = sweep_report(an, true, false, 0);
	assert_non_null(strstr(t, "\n      2     0  unavailable (fentry programs refused by this kernel)\n"));
	assert_null(strstr(t, "lock classes"));
	free(t);
	t = sweep_report(an, false, true, 0);
	assert_non_null(strstr(t, "\n      8     2       0.0      50.0       0.0"));
	free(t);
	/* not a sweep */
	free(sweep_report(tmpdir, true, true, -1));
	free(b);
	free(an);
}

static void test_phase_explain_gaps(void **state)
{
	char *a1 = phase_sweep("ph1A", 1, 0, 1), *b1 = phase_sweep("ph1B", 1, 1, 1);
	char *an = phase_sweep("phnA", 3, 0, 0), *b = phase_sweep("ph3B", 3, 1, 1);
	char out[256], *t;

	(void)state;
	/* one run per side: the means speak, untested, and say so */
	snprintf(out, sizeof(out), "%s/one.txt", tmpdir);
	assert_int_equal(run(out, a1, b1, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "at 8 threads (one run per side: not tested): 75% of the added "
				  "latency in B (+1200 ns per fault) is alloc"));
	assert_non_null(strstr(t, "at 2 threads (one run per side: not tested): B is not slower"));
	free(t);
	/* A recorded without phases: gaps with the reason, no explanation made up */
	snprintf(out, sizeof(out), "%s/nophases.txt", tmpdir);
	assert_int_equal(run(out, an, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "phase_alloc_mean_8 (A): unavailable (fentry programs refused by this kernel)"));
	assert_non_null(strstr(t, "cannot compare fault phases: A was recorded without --phases"));
	assert_non_null(strstr(t, "  lock_zone_wait_8 "));	/* locks were recorded */
	free(t);
	free(a1);
	free(b1);
	free(an);
	free(b);
}

static void test_malformed(void **state)
{
	static const unsigned int ta[] = { 1, 2, 4 }, tb[] = { 1, 4, 8 };
	char *a = mksweep("gapA", ta, 3, 1000), *b = mksweep("gapB", tb, 3, 1100);
	char out[256], *t, *bad;

	(void)state;
	snprintf(out, sizeof(out), "%s/gap.txt", tmpdir);
	/* different thread sets: union of rows, missing sides marked */
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "pft_faults_cpu_2 "));
	assert_non_null(strstr(t, "pft_faults_cpu_8 "));
	assert_non_null(strstr(t, "| missing |"));
	assert_non_null(strstr(t, "pft_faults_sec_8 (A): no 8-thread run"));
	assert_non_null(strstr(t, "B has no 2-thread run"));
	free(t);

	/* garbage line: an error naming file and line */
	bad = mksweep("bad", ta, 3, 1000);
	wfile(bad, "pft-2.log", "   1    2   1     0.01s     0.50s     0.20s 100.000 200.000\n"
			       "   1    2   1     0.01s     garbage   0.20s 100.000 200.000\n");
	assert_int_equal(run(NULL, bad, b, NULL), 1);
	wfile(bad, "pft-2.log", "   1    3   1     0.01s     0.50s     0.20s 100.000 200.000\n");
	assert_int_equal(run(NULL, bad, b, NULL), 1);	/* thread column disagrees */
	wfile(bad, "pft-2.log", "   1    2   1     0.01s     0.50s     0.20s 100.000\n");
	assert_int_equal(run(NULL, bad, b, NULL), 1);	/* truncated line */
	wfile(bad, "pft-2.log", "  Gb  Thr CLine   User     System     Wall    flt/cpu/s fault/wsec\n");
	assert_int_equal(run(NULL, bad, b, NULL), 1);	/* no samples */
	/* inf rates are dropped and noted, never averaged */
	wfile(bad, "pft-2.log", "   1    2   1     0.00s     0.00s     0.00s        inf        inf\n"
			       "   1    2   1     0.01s     0.50s     0.20s    100.000    200.000\n");
	snprintf(out, sizeof(out), "%s/inf.txt", tmpdir);
	assert_int_equal(run(out, bad, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "1 sample(s) with an infinite rate"));
	free(t);
	/* not a sweep */
	assert_int_equal(run(NULL, tmpdir, b, NULL), 1);
	assert_int_equal(run(NULL, "/nonexistent-fl", b, NULL), 1);
	assert_int_equal(run(NULL, b, NULL), 2);
	assert_int_equal(run(NULL, "-f", "yaml", a, b, NULL), 2);
	assert_int_equal(run(NULL, "--alpha", "2", a, b, NULL), 2);
	free(a);
	free(b);
	free(bad);
}

static int count(const char *t, const char *needle)
{
	int n = 0;

	for (const char *p = t; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* run() with stderr captured into *errp (caller frees). */
static int run_err(char **errp, const char *out, ...)
{
	char path[300];
	int saved, fd, rc;
	va_list ap;

	snprintf(path, sizeof(path), "%s/stderr.txt", tmpdir);
	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	va_start(ap, out);
	rc = run_ap(out, ap);
	va_end(ap);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	*errp = slurp(path);
	return rc;
}

/*
 * The pft fault shape (sweep.conf's PFT_SHAPE / PFT_FILE, as tools/pft-sweep
 * writes them): said per side; A and B of different shapes are refused
 * unless --any-shape, and then every label names its side's shape.
 */
static void test_shapes(void **state)
{
	static const unsigned int thr[] = { 1, 2 };
	char *rt = mksweep("shRT", thr, 2, 1000), *rt2 = mksweep("shRT2", thr, 2, 1100);
	char *rf = mksweep("shRF", thr, 2, 1100), *old = mksweep("shOld", thr, 2, 1000);
	char *an = mksweep("shAnon", thr, 2, 1100), *pw = mksweep("shPW", thr, 2, 1100);
	char *none = mksweep("shNone", thr, 2, 1100);
	char out[256], path[300], *t, *e;

	(void)state;
	wfile(rt, "sweep.conf", "PFT_ITERATIONS=5\nPFT_SHAPE=read\n");
	wfile(rt2, "sweep.conf", "PFT_ITERATIONS=5\nPFT_SHAPE=read\n");
	wfile(rf, "sweep.conf", "PFT_ITERATIONS=5\nPFT_SHAPE=read\nPFT_FILE=/mnt/ext4/pft.dat\n");
	wfile(old, "sweep.conf", "PFT_ITERATIONS=5\n");	/* before PFT_SHAPE: anon */
	wfile(an, "sweep.conf", "PFT_ITERATIONS=5\nPFT_SHAPE=anon\n");
	wfile(pw, "sweep.conf", "PFT_ITERATIONS=5\nPFT_SHAPE=private-write\n");
	snprintf(path, sizeof(path), "%s/sweep.conf", none);
	assert_int_equal(unlink(path), 0);

	/* same shape: said once per side, no warning; one kernel: its directories tell A from B */
	snprintf(out, sizeof(out), "%s/shape-same.txt", tmpdir);
	assert_int_equal(run_err(&e, out, rt, rt2, NULL), 0);
	assert_null(strstr(e, "shape"));
	free(e);
	t = slurp(out);
	assert_int_equal(count(t, "Shape: read/tmpfs\n"), 2);
	assert_null(strstr(t, "differs"));
	assert_non_null(strstr(t, "(A) 6.12.0-test (shRT) "));
	assert_non_null(strstr(t, "(B) 6.12.0-test (shRT2) "));
	assert_null(strstr(t, "[read/tmpfs]"));
	free(t);
	snprintf(out, sizeof(out), "%s/shape-same.json", tmpdir);
	assert_int_equal(run(out, "-f", "json", rt, rt2, NULL), 0);
	t = slurp(out);
	assert_int_equal(count(t, "\"shape\":\"read/tmpfs\""), 2);
	assert_non_null(strstr(t, "\"shape_differs\":false"));
	free(t);
	snprintf(out, sizeof(out), "%s/shape-same.csv", tmpdir);
	assert_int_equal(run(out, "-f", "csv", rt, rt2, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, ",significant,gap,shape\n"));
	/* the A and B rows name their shape, the pct row has none */
	assert_int_equal(count(t, ",read/tmpfs\n"), 2 * 4);
	assert_non_null(strstr(t, ",pct,,,"));
	free(t);
	snprintf(out, sizeof(out), "%s/shape-same.md", tmpdir);
	assert_int_equal(run(out, "-f", "md", rt, rt2, NULL), 0);
	t = slurp(out);
	assert_int_equal(count(t, ", shape read/tmpfs)"), 2);
	free(t);

	/* read on tmpfs vs read on a file: refused, both shapes and the way out named */
	snprintf(out, sizeof(out), "%s/shape-diff.txt", tmpdir);
	unlink(out);
	assert_int_equal(run_err(&e, out, rt, rf, NULL), 1);
	assert_non_null(strstr(e, "is pft shape read/tmpfs, B ("));
	assert_non_null(strstr(e, ") is read/file: two workloads"));
	assert_non_null(strstr(e, "--any-shape"));
	free(e);
	assert_int_equal(access(out, F_OK), -1);	/* nothing written */
	assert_int_equal(run(NULL, "-f", "json", rt, rf, NULL), 1);
	/* --any-shape: compared, warned on stderr and in NOTES, every label marked */
	assert_int_equal(run_err(&e, out, "--any-shape", rt, rf, NULL), 0);
	assert_non_null(strstr(e, "note: A and B are different pft fault shapes "
				  "(A read/tmpfs, B read/file)"));
	free(e);
	t = slurp(out);
	assert_non_null(strstr(t, "Shape: read/tmpfs (differs from the other side's)\n"));
	assert_non_null(strstr(t, "Shape: read/file (differs from the other side's)\n"));
	assert_int_equal(count(t, "(A) 6.12.0-test (shRT) [read/tmpfs] "), 4);
	assert_int_equal(count(t, "(B) 6.12.0-test (shRF) [read/file] "), 4);
	assert_non_null(strstr(t, "[*] NOTES\nA and B are different pft fault shapes"));
	assert_non_null(strstr(t, "PFT_FILE "));	/* the TAGS row of sweep.conf */
	free(t);
	snprintf(out, sizeof(out), "%s/shape-diff.json", tmpdir);
	assert_int_equal(run(out, "-f", "json", "--any-shape", rt, rf, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\"label\":\"6.12.0-test (shRF) [read/file]\",\"shape\":\"read/file\""));
	assert_non_null(strstr(t, "\"shape_differs\":true"));
	free(t);

	/* a sweep.conf from before PFT_SHAPE is anonymous: same as PFT_SHAPE=anon */
	assert_int_equal(run(NULL, old, an, NULL), 0);
	assert_int_equal(run_err(&e, NULL, old, pw, NULL), 1);
	assert_non_null(strstr(e, "is pft shape anon, B ("));
	assert_non_null(strstr(e, ") is private-write/tmpfs"));
	free(e);
	/* no sweep.conf: the shape is unknown, said, not refused */
	snprintf(out, sizeof(out), "%s/shape-unknown.txt", tmpdir);
	assert_int_equal(run_err(&e, out, none, pw, NULL), 0);
	assert_non_null(strstr(e, "note: A has no sweep.conf: its pft fault shape is unknown "
				  "(B is private-write/tmpfs)"));
	free(e);
	t = slurp(out);
	assert_non_null(strstr(t, "Shape: unknown (no sweep.conf)\n"));
	free(t);
	free(rt);
	free(rt2);
	free(rf);
	free(old);
	free(an);
	free(pw);
	free(none);
}

static void test_pft_line(void **state)
{
	struct fl_pft_sample s;
	char err[128];

	(void)state;
	assert_int_equal(fl_pft_parse_line("   1    4   1     0.12s     0.80s     0.23s 123456.789 456789.012",
					   &s, err, sizeof(err)), 1);
	assert_int_equal(s.threads, 4);
	assert_true(s.flt_cpu == 123456.789 && s.flt_wsec == 456789.012 && s.sys_s == 0.80);
	assert_int_equal(fl_pft_parse_line("# latency_ns n=0", &s, err, sizeof(err)), 0);
	assert_int_equal(fl_pft_parse_line("", &s, err, sizeof(err)), 0);
	assert_int_equal(fl_pft_parse_line("   1    0   1 0.1s 0.1s 0.1s 1 1", &s, err, sizeof(err)), -1);
	assert_int_equal(fl_pft_parse_line("   1    4   1 0.1s 0.1s 0.1s -1 1", &s, err, sizeof(err)), -1);
	assert_int_equal(fl_pft_parse_line("   1    4   1 0.1s 0.1s 0.1s 1 1 9", &s, err, sizeof(err)), -1);
	assert_int_equal(fl_pft_parse_line("   1    4   1 0.1s 0.1s 0.1s 1e999 1", &s, err, sizeof(err)), -1);
	assert_int_equal(fl_pft_parse_line("   1    4   1 0.1x 0.1s 0.1s 1 1", &s, err, sizeof(err)), -1);
	/* decimal only */
	assert_int_equal(fl_pft_parse_line("   1    4   1 0.1s 0.1s 0.1s 0x10 1", &s, err, sizeof(err)), -1);
	assert_int_equal(fl_pft_parse_line("   1    4   1 0.1s 0.1s 0x1s 1 1", &s, err, sizeof(err)), -1);
	assert_int_equal(fl_pft_parse_line("   1    4   1 0.1s 0.1s 0.1s 1e3 1", &s, err, sizeof(err)), 1);
	assert_true(s.flt_cpu == 1000);
	/* random garbage: a verdict and a reason, never a crash */
	srandom(7);
	for (int n = 0; n < 20000; n++) {
		static const char alpha[] = " \t0123456789.-+es#infGbx\n";
		char line[700];
		int len = random() % (int)sizeof(line), r;

		for (int i = 0; i < len; i++)
			line[i] = random() % 4 ? alpha[random() % (sizeof(alpha) - 1)] :
						 (char)(random() % 255 + 1);
		line[len] = '\0';
		err[0] = '\0';
		r = fl_pft_parse_line(line, &s, err, sizeof(err));
		assert_true(r >= -1 && r <= 1);
		if (r < 0)
			assert_true(err[0] != '\0');
		if (r == 1)
			assert_true(s.threads > 0 && s.flt_cpu >= 0 && s.flt_wsec >= 0);
	}
}

/* ---- record --blame: holder rows and clause ---- */

struct bsite {
	unsigned int sysnr;
	const char *comm;
	const char *frames[4];
	unsigned int tid;
	unsigned int nwaits;
	unsigned long long wait_ns;	/* split evenly over nwaits */
	unsigned long long hold_ns;	/* one hold */
	unsigned long long fallbacks;	/* lockless-path fallbacks while it held */
};

/*
 * The next write_blame_snap()'s lockless-path fallbacks: seen is
 * fl_blame_total.fb_seen (0: an older snapshot), why the blame.fallbacks tag.
 */
static struct {
	unsigned long long seen, held, free;
	const char *why;
} snap_fb;

/*
 * A snapshot of DURATION ns with the given holder rows (through the
 * snapshot format's writer); unknown_ns of fault wait behind no row.
 * tag: NULL = recorded without --blame; "tracepoint" = with it; else the
 * tag of a kernel that could not (no sections).
 */
static void write_blame_snap(const char *path, unsigned long long duration,
			     const struct bsite *st, unsigned int n, unsigned long long unknown_ns,
			     const char *tag)
{
	struct fl_blame_row *rows = calloc(n ? n : 1, sizeof(*rows));
	struct fl_blame_total t;
	struct fl_snapshot s;
	char err[256];

	assert_non_null(rows);
	memset(&s, 0, sizeof(s));
	memset(&t, 0, sizeof(t));
	assert_int_equal(fl_snapshot_alloc_cpus(&s, 1), 0);
	s.cpu_online[0] = 1;
	s.hdr.duration_ns = duration;
	strcpy(s.hdr.kernel_release, "6.12.0-test");
	for (unsigned int i = 0; i < n; i++) {
		struct fl_blame_row *r = &rows[i];

		r->sysnr = st[i].sysnr;
		r->kind = FL_BLAME_SYSCALL;
		r->tid = st[i].tid;
		snprintf(r->comm, sizeof(r->comm), "%s", st[i].comm);
		for (unsigned int k = 0; k < 4 && st[i].frames[k]; k++)
			snprintf(r->frames[r->nframes++], FL_SYM_LEN, "%s", st[i].frames[k]);
		for (unsigned int k = 0; k < st[i].nwaits; k++) {
			fl_hist_add(&r->wait, st[i].wait_ns / st[i].nwaits);
			fl_hist_add(&t.wait_all, st[i].wait_ns / st[i].nwaits);
		}
		if (st[i].hold_ns) {
			fl_hist_add(&r->hold, st[i].hold_ns);
			r->ns[BL_ST_ONCPU] = st[i].hold_ns;
		}
		r->fallbacks = st[i].fallbacks;
	}
	t.fb_seen = snap_fb.seen;
	t.fallbacks = snap_fb.held;
	t.fallbacks_free = snap_fb.free;
	if (snap_fb.why)
		assert_int_equal(fl_snapshot_set_tag(&s, "blame.fallbacks", snap_fb.why), 0);
	if (unknown_ns)
		fl_hist_add(&t.wait_all, unknown_ns);
	t.sites = n;
	if (tag && !strcmp(tag, "tracepoint")) {
		assert_int_equal(fl_snapshot_add_section(&s, FL_SEC_BLAME, n, rows,
							 n * sizeof(*rows)), 0);
		assert_int_equal(fl_snapshot_add_section(&s, FL_SEC_BLAME_TOTAL, 1, &t, sizeof(t)), 0);
	}
	if (tag)
		assert_int_equal(fl_snapshot_set_tag(&s, "blame", tag), 0);
	assert_int_equal(fl_snapshot_write_file(path, &s, err, sizeof(err)), 0);
	fl_snapshot_free(&s);
	free(rows);
}

#define MPROTECT_FRAMES "do_mprotect_pkey", "__x64_sys_mprotect", "do_syscall_64"

/* A: mprotect() only; B: the same site (other tid, other 4th frame) and a new madvise() */
static void blame_pair(const char *a, const char *b, const char *a_tag)
{
	const struct bsite sa[] = {
		{ 10, "bl-writer", { MPROTECT_FRAMES, "entry_SYSCALL_64_after_hwframe" }, 100, 2,
		  2000000, 5000000, 0 },
	};
	const struct bsite sb[] = {
		{ 10, "bl-writer", { MPROTECT_FRAMES, "x64_sys_call" }, 200, 1, 1000000, 2000000, 0 },
		{ 28, "pft-writer", { "zap_page_range_single", "madvise_vma_behavior", "do_madvise",
				      "__x64_sys_madvise" }, 201, 3, 1800000, 3000000, 0 },
	};

	/* A: 2 ms in 2 s = 1 ms/s; B: 1 + 1.8 + 0.2 (no row) ms in 1 s = 3 ms/s */
	write_blame_snap(a, 2000000000ULL, sa, 1, 0, a_tag);
	write_blame_snap(b, 1000000000ULL, sb, 2, 200000, "tracepoint");
}

static void test_blame_named(void **state)
{
	char a[300], b[300], out[300], *t, *p;

	(void)state;
	snprintf(a, sizeof(a), "%s/bl-a.snap", tmpdir);
	snprintf(b, sizeof(b), "%s/bl-b.snap", tmpdir);
	snprintf(out, sizeof(out), "%s/bl.txt", tmpdir);
	blame_pair(a, b, "tracepoint");
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	/* the brief's clause, figures worked out above by hand */
	assert_non_null(strstr(t, "EXPLAIN: fault mmap_lock wait A 1.00ms/s, B 3.00ms/s (+2.00ms/s; "
				  "one recording on a side: not tested): the added mmap_lock wait "
				  "in B is behind madvise() (pft-writer, only in B): +1.80ms/s of "
				  "+2.00ms/s\n"));
	/* mprotect matched on what, comm and 3 innermost frames: one row, no change */
	norm(t);
	p = strstr(t, "mprotect() (bl-writer)");
	assert_non_null(p);
	assert_null(strstr(p + 1, "mprotect() (bl-writer"));
	assert_non_null(strstr(t, "[3] mprotect() (bl-writer) | 1.0 | 1.0 | 1.00ms/s | 1.00ms/s | "
				  "+0ns/s | 2.50ms/s | 2.00ms/s"));
	/* madvise: 3 faults delayed in 1 s, 1.8 ms/s, its 3 ms hold; absent in A */
	assert_non_null(strstr(t, "[1] madvise() (pft-writer, only in B) | - | 3.0 | - | 1.80ms/s | "
				  "+1.80ms/s | - | 3.00ms/s"));
	assert_non_null(strstr(t, "[1] frames: zap_page_range_single < madvise_vma_behavior < "
				  "do_madvise"));
	assert_non_null(strstr(t, "no known writer"));
	free(t);
	assert_int_equal(run(out, "-f", "json", a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\"explain\":{\"attributes\":true,\"named_site\":0,\"share\":0.9"));
	assert_non_null(strstr(t, "\"what\":\"madvise()\",\"comm\":\"pft-writer\""));
	free(t);
	/* csv of two snapshots: the holders' rate and the clause are rows too */
	assert_int_equal(run(out, "-f", "csv", a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "blame,blame_mmap_lock_wait_per_s,ns/s,1e+06,3e+06,200,"));
	assert_non_null(strstr(t, "blame,explain,,,,,,,,,,,,\"fault mmap_lock wait A "));
	free(t);
}

/* One side without holder data: said, and no site rows made up from the other. */
static void test_blame_one_side(void **state)
{
	char a[300], b[300], out[300], *t;

	(void)state;
	snprintf(a, sizeof(a), "%s/bl1-a.snap", tmpdir);
	snprintf(b, sizeof(b), "%s/bl1-b.snap", tmpdir);
	snprintf(out, sizeof(out), "%s/bl1.txt", tmpdir);
	blame_pair(a, b, NULL);
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "A: no holder data (recorded without --blame)\n"));
	assert_non_null(strstr(t, "EXPLAIN: cannot compare the holders: A: recorded without "
				  "--blame\n"));
	assert_null(strstr(t, "madvise"));
	assert_null(strstr(t, "behind"));
	free(t);
	blame_pair(a, b, "unavailable (no lock:contention tracepoints (5.19+))");
	assert_int_equal(run(out, "-f", "json", a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\"a\":{\"available\":false,\"reason\":\"unavailable (no "
				  "lock:contention tracepoints (5.19+))\""));
	assert_non_null(strstr(t, "\"sites\":[]"));
	assert_non_null(strstr(t, "\"attributes\":false,\"named_site\":null"));
	free(t);
}

/* +0.7, +0.7, +0.6 ms/s over three sites: no single-site claim. */
static void test_blame_spread(void **state)
{
	struct bsite s3[] = {
		{ 10, "w1", { MPROTECT_FRAMES }, 1, 1, 1000000, 0, 0 },
		{ 11, "w2", { "__vm_munmap", "__x64_sys_munmap", "do_syscall_64" }, 2, 1, 1000000, 0, 0 },
		{ 28, "w3", { "do_madvise", "__x64_sys_madvise", "do_syscall_64" }, 3, 1, 1000000, 0, 0 },
	};
	char a[300], b[300], out[300], *t;

	(void)state;
	snprintf(a, sizeof(a), "%s/bl3-a.snap", tmpdir);
	snprintf(b, sizeof(b), "%s/bl3-b.snap", tmpdir);
	snprintf(out, sizeof(out), "%s/bl3.txt", tmpdir);
	write_blame_snap(a, 1000000000ULL, s3, 3, 0, "tracepoint");
	s3[0].wait_ns = 1700000;
	s3[1].wait_ns = 1700000;
	s3[2].wait_ns = 1600000;
	write_blame_snap(b, 1000000000ULL, s3, 3, 0, "tracepoint");
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "EXPLAIN: fault mmap_lock wait A 3.00ms/s, B 5.00ms/s (+2.00ms/s; "
				  "one recording on a side: not tested): the added mmap_lock wait "
				  "in B is spread over 3 sites, none with two thirds of it: "));
	assert_non_null(strstr(t, ", madvise() (w3) +600.00us/s\n"));
	assert_null(strstr(t, "is behind"));
	free(t);
	/* the same on both sides: below 10 %, nothing attributed */
	assert_int_equal(run(out, a, a, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "(+0ns/s; one recording on a side: not tested): changed by less "
				  "than 10%, not attributed\n"));
	free(t);
}

/*
 * Lockless-path fallbacks: compared per second when both sides counted them
 * (A 4 held + 1 free in 2 s, B 6 + 2 in 1 s), else "not compared" with the
 * reason, never a 0.
 */
static void test_blame_fallbacks(void **state)
{
	const struct bsite sa[] = {
		{ 10, "bl-writer", { MPROTECT_FRAMES }, 100, 2, 2000000, 5000000, 4 },
	};
	const struct bsite sb[] = {
		{ 10, "bl-writer", { MPROTECT_FRAMES }, 200, 1, 1000000, 2000000, 1 },
		{ 28, "pft-writer", { "do_madvise", "__x64_sys_madvise", "do_syscall_64" }, 201, 3,
		  1800000, 3000000, 5 },
		{ 11, "quiet", { "__vm_munmap", "__x64_sys_munmap", "do_syscall_64" }, 202, 0, 0,
		  1000, 0 },
	};
	const char *novma = "unavailable (no per-VMA locks: lock_vma_under_rcu not in BTF)";
	char a[300], b[300], out[300], *t;

	(void)state;
	snprintf(a, sizeof(a), "%s/blf-a.snap", tmpdir);
	snprintf(b, sizeof(b), "%s/blf-b.snap", tmpdir);
	snprintf(out, sizeof(out), "%s/blf.txt", tmpdir);
	snap_fb.seen = FL_BLAME_FB_ON, snap_fb.held = 4, snap_fb.free = 1;
	write_blame_snap(a, 2000000000ULL, sa, 1, 0, "tracepoint");
	snap_fb.held = 6, snap_fb.free = 2;
	write_blame_snap(b, 1000000000ULL, sb, 3, 0, "tracepoint");
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	norm(t);
	assert_non_null(strstr(t, "lockless-path fallbacks of user faults to mmap_lock, per second"));
	assert_non_null(strstr(t, "SITE | FALLBACKS/S A | B | CHANGE\n"
				  " all, while a writer held | 2.0 | 6.0 | +4.0\n"
				  " all, with no writer holding | 0.5 | 2.0 | +1.5\n"));
	assert_non_null(strstr(t, "] madvise() (pft-writer, only in B) | - | 5.0 | +5.0\n"));
	assert_non_null(strstr(t, "] mprotect() (bl-writer) | 2.0 | 1.0 | -1.0\n"));
	/* a site without fallbacks on either side gets no fallback row */
	assert_null(strstr(strstr(t, "FALLBACKS/S"), "munmap()"));
	free(t);
	assert_int_equal(run(out, "-f", "json", a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\"fallbacks\":{\"available\":true,\"holding\":4,\"free\":1,"
				  "\"holding_per_s\":2,\"free_per_s\":0.5}"));
	assert_non_null(strstr(t, "\"fallbacks\":{\"available\":true,\"holding\":6,\"free\":2,"));
	assert_non_null(strstr(t, "\"a\":null,\"b\":{\"faults_delayed\":3,"));
	assert_non_null(strstr(t, "\"fallbacks_change_per_s\":5}"));
	assert_non_null(strstr(t, "\"fallbacks_change_per_s\":-1}"));
	free(t);

	/* B on a kernel without per-VMA locks: not compared, the reason said */
	snap_fb.seen = FL_BLAME_FB_NONE, snap_fb.why = novma;
	write_blame_snap(b, 1000000000ULL, sb, 3, 0, "tracepoint");
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "lockless-path fallbacks: not compared: B: unavailable (no "
				  "per-VMA locks: lock_vma_under_rcu not in BTF)\n"));
	assert_null(strstr(t, "FALLBACKS/S"));
	free(t);
	assert_int_equal(run(out, "-f", "json", a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\"fallbacks\":{\"available\":false,\"reason\":\"unavailable "
				  "(no per-VMA locks"));
	assert_null(strstr(t, "\"fallbacks\":5"));
	assert_non_null(strstr(t, "\"fallbacks_change_per_s\":null"));
	free(t);

	/* A recorded before fallbacks were counted */
	snap_fb.seen = 0, snap_fb.why = NULL;
	write_blame_snap(a, 2000000000ULL, sa, 1, 0, "tracepoint");
	assert_int_equal(run(out, a, a, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "lockless-path fallbacks: not compared: A: unavailable (recorded "
				  "before lockless-path fallbacks were counted); B: unavailable "
				  "(recorded before"));
	free(t);
}

/* A side some of whose recordings could not count fallbacks is not compared. */
static void test_blame_fallbacks_mixed(void **state)
{
	struct fl_bcmp_rec r[3];
	struct fl_bcmp c;

	(void)state;
	memset(r, 0, sizeof(r));
	for (int i = 0; i < 3; i++) {
		r[i].have = 1;
		r[i].secs = 1;
		r[i].fb = i != 2;
		r[i].t.fallbacks = 10;
	}
	snprintf(r[2].fb_why, sizeof(r[2].fb_why), "unavailable (test)");
	assert_int_equal(fl_bcmp_build(&c, (const struct fl_bcmp_rec *const[2]){ &r[0], &r[1] },
				       (unsigned int[2]){ 1, 2 }, 0.05, ""), 0);
	assert_true(c.fb_have[0]);
	assert_false(c.fb_have[1]);
	assert_string_equal(c.fb_why[1], "1 of 2 recordings: unavailable (test)");
	assert_true(c.fb_rate[0] == 10);
	assert_true(isnan(c.fb_rate[1]));
	fl_bcmp_free(&c);
}

/* Sweeps recorded with --blame: per thread count, Welch's test over the runs. */
static void test_blame_sweeps(void **state)
{
	static const unsigned int thr[] = { 2 };
	struct bsite w = { 10, "bl-writer", { MPROTECT_FRAMES }, 1, 1, 0, 0, 0 };
	struct bsite m = { 28, "pft-writer", { "do_madvise", "__x64_sys_madvise", "do_syscall_64" },
			   2, 2, 0, 0, 0 };
	struct bsite both[2];
	char *a = mksweep("blsw-a", thr, 1, 1000), *b = mksweep("blsw-b", thr, 1, 1000);
	char *c = mksweep("blsw-c", thr, 1, 1000), path[600], out[300], *t;

	(void)state;
	for (unsigned int i = 0; i < 3; i++) {
		/* A: mprotect 1.0, 1.1, 1.2 ms/s; B: the same plus madvise 2.0, 2.2, 2.1 ms/s */
		w.wait_ns = 1000000 + 100000 * i;
		m.wait_ns = 2000000 + (i == 1 ? 200000 : i == 2 ? 100000 : 0);
		both[0] = w;
		both[1] = m;
		snprintf(path, sizeof(path), "%s/snap", a);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/snap/pft-2-%u.snap", a, i);
		/* fallbacks: A 3 held + 0 free a second, B 5 + 1, C cannot count them */
		snap_fb.seen = FL_BLAME_FB_ON, snap_fb.held = 3, snap_fb.free = 0;
		write_blame_snap(path, 1000000000ULL, &w, 1, 0, "tracepoint");
		snprintf(path, sizeof(path), "%s/snap", b);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/snap/pft-2-%u.snap", b, i);
		snap_fb.held = 5, snap_fb.free = 1;
		write_blame_snap(path, 1000000000ULL, both, 2, 0, "tracepoint");
		/* C: noise around A's figures, 0.9 .. 1.4 ms/s */
		w.wait_ns = i == 1 ? 1400000 : 900000 + 50000 * i;
		snprintf(path, sizeof(path), "%s/snap", c);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/snap/pft-2-%u.snap", c, i);
		snap_fb.seen = FL_BLAME_FB_NONE, snap_fb.why = "unavailable (no per-VMA locks)";
		write_blame_snap(path, 1000000000ULL, &w, 1, 0, "tracepoint");
		snap_fb.why = NULL;
	}
	snprintf(out, sizeof(out), "%s/blsw.txt", tmpdir);
	assert_int_equal(run(out, a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\n[*] BLAME\nat 2 threads:\nA: 3 recordings, 3.000 s: 3 fault "
				  "mmap_lock waits, 1.10ms/s\n"));
	assert_non_null(strstr(t, "EXPLAIN: at 2 threads, fault mmap_lock wait A 1.10ms/s, B "
				  "3.20ms/s (+2.10ms/s, p="));
	assert_non_null(strstr(t, "): the added mmap_lock wait in B is behind madvise() "
				  "(pft-writer, only in B): +2.10ms/s of +2.10ms/s\n"));
	free(t);
	assert_int_equal(run(out, "-f", "csv", a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\nblame_explain,explain,2,ns/s,explain,,,,,2.1e+06,,,,,yes,"));
	/* the fallback totals, per second, a row per side */
	assert_non_null(strstr(t, "\nblame_fallbacks,blame,2,1/s,A,,3,,,3,,,lower_is_better,,,,\n"
				  "blame_fallbacks,blame,2,1/s,B,,3,,,5,,,lower_is_better,,,,\n"
				  "blame_fallbacks_free,blame,2,1/s,A,,3,,,0,,,lower_is_better,,,,\n"
				  "blame_fallbacks_free,blame,2,1/s,B,,3,,,1,,,lower_is_better,,,,\n"));
	free(t);
	assert_int_equal(run(out, "-f", "markdown", a, b, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\n- lockless-path fallbacks of user faults per second at 2 "
				  "threads: while a writer held A 3.0, B 5.0 (+2.0); with none "
				  "holding A 0.0, B 1.0 (+1.0)\n"));
	free(t);
	/* C could not count them: no number, the reason in the gap column */
	assert_int_equal(run(out, "-f", "csv", a, c, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\nblame_fallbacks,blame,2,1/s,B,,3,,,,,,lower_is_better,,,"
				  "unavailable (no per-VMA locks),\n"));
	free(t);
	assert_int_equal(run(out, "-f", "markdown", a, c, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\n- lockless-path fallbacks at 2 threads: not compared: B: "));
	free(t);
	/* A against C: the runs overlap, no significant change, nothing named */
	assert_int_equal(run(out, a, c, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, ": no significant change, not attributed\n"));
	assert_null(strstr(t, "is behind"));
	free(t);
	free(a);
	free(b);
	free(c);
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
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_skylake),
		cmocka_unit_test(test_seed_rome),
		cmocka_unit_test(test_precision),
		cmocka_unit_test(test_default_layout),
		cmocka_unit_test(test_other_formats),
		cmocka_unit_test(test_snapshot_metrics),
		cmocka_unit_test(test_phase_rows_and_explain),
		cmocka_unit_test(test_phase_explain_gaps),
		cmocka_unit_test(test_phase_sweep_report),
		cmocka_unit_test(test_phase_explain_node),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_pft_line),
		cmocka_unit_test(test_blame_named),
		cmocka_unit_test(test_blame_one_side),
		cmocka_unit_test(test_blame_spread),
		cmocka_unit_test(test_blame_fallbacks),
		cmocka_unit_test(test_blame_fallbacks_mixed),
		cmocka_unit_test(test_blame_sweeps),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
