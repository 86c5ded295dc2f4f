// SPDX-License-Identifier: GPL-2.0
/*
 * faultline plot (cmd_plot() in process, gnuplot for real) on the seed
 * fixture sweeps and on sweeps with snapshots made here: every picture comes
 * out as a valid PNG (signature, IHDR 1000x650) and SVG of a sensible size,
 * with the kernel labels in it; unmeasurable pictures are skipped, not faked.
 * Issue 28: A and B told apart when their kernels match, thread labels that
 * do not overlap, whole CPUs, latencies in ns/µs/ms and rates in k/M (never
 * "1x10^6"), gnuplot's warnings kept out, and nothing half-written when
 * gnuplot fails (no plot.gp, no data, no image, an earlier plot untouched).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "pftlog.h"
#include "snapshot.h"
#include "textfile.h"

#define FIX "../fixtures"

static char tmpdir[] = "/tmp/fl-test-plot-XXXXXX";

static int have_gnuplot(void)
{
	return system("command -v ${GNUPLOT:-gnuplot} >/dev/null 2>&1") == 0;
}

static int run(const char *first, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	argv[argc++] = "plot";
	argv[argc++] = (char *)first;
	va_start(ap, first);
	for (char *a; (a = va_arg(ap, char *)); )
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return cmd_plot(argc, argv);
}

static void check_png(const char *dir, const char *name)
{
	unsigned char h[24];
	char path[512];
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s missing", path);
	assert_int_equal(fread(h, 1, 24, f), 24);
	fclose(f);
	assert_memory_equal(h, "\x89PNG\r\n\x1a\n", 8);
	assert_memory_equal(h + 12, "IHDR", 4);
	assert_int_equal((h[16] << 24) | (h[17] << 16) | (h[18] << 8) | h[19], 1000);
	assert_int_equal((h[20] << 24) | (h[21] << 16) | (h[22] << 8) | h[23], 650);
	assert_int_equal(stat(path, &st), 0);
	if (st.st_size < 10000 || st.st_size > 5000000)
		fail_msg("%s: %lld bytes", path, (long long)st.st_size);
}

static void check_svg(const char *dir, const char *name, const char *must)
{
	char path[512], *t;

	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	t = fl_read_text(path, 16 << 20);
	if (!t)
		fail_msg("%s missing", path);
	assert_non_null(strstr(t, "<svg"));
	assert_non_null(strstr(t, "</svg>"));
	assert_non_null(strstr(t, "width=\"1000\""));
	if (strlen(t) < 5000)
		fail_msg("%s: only %zu bytes", path, strlen(t));
	if (must && !strstr(t, must))
		fail_msg("%s lacks '%s'", path, must);
	free(t);
}

/* DIR/NAME.svg lacks NEEDLE */
static void check_svg_lacks(const char *dir, const char *name, const char *needle)
{
	char path[512], *t;

	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	t = fl_read_text(path, 16 << 20);
	if (!t)
		fail_msg("%s missing", path);
	if (strstr(t, needle))
		fail_msg("%s has '%s'", path, needle);
	free(t);
}

static int exists(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void test_seed_sweeps(void **state)
{
	char out[256];

	(void)state;
	if (!have_gnuplot())
		skip();
	snprintf(out, sizeof(out), "%s/seed", tmpdir);
	assert_int_equal(run("-o", out, "--label-a", "v5.12", "--label-b", "v5.12+SPF",
			     FIX "/seed-sweeps/skylake-A", FIX "/seed-sweeps/skylake-B", NULL), 0);
	check_png(out, "faults_sec");
	check_png(out, "faults_cpu");
	check_svg(out, "faults_sec", "v5.12+SPF");
	check_svg(out, "faults_cpu", "faults/s per CPU");
	/* no snapshots in these sweeps: nothing invented */
	assert_false(exists(out, "latency.png"));
	assert_false(exists(out, "heatmap-A.png"));
	assert_true(exists(out, "plot.gp"));
	assert_true(exists(out, "faults_sec.dat"));
	assert_false(exists(out, "faults_sec.png.tmp"));
}

static void wfile(const char *dir, const char *name, const char *text)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void add_sec(struct fl_snapshot *s, unsigned int type, unsigned int count,
		    const void *data, size_t size)
{
	assert_int_equal(fl_snapshot_add_section(s, type, count, data, size), 0);
}

/* record --phases: alloc grows with threads and scale; zero unavailable */
static void add_phases(struct fl_snapshot *s, unsigned int threads, double scale)
{
	static struct fl_phase_stats ps[16];

	memset(ps, 0, sizeof(ps));
	for (unsigned int c = 0; c < threads && c < 16; c++)
		for (int k = 0; k < 500; k++) {
			fl_u64 alloc = (fl_u64)(300 * scale * (1 + threads / 4.0)), rest = 500;
			fl_u64 ll = 100, lat = alloc + rest + ll + 150;

			ps[c].faults++;
			ps[c].lat_sum += lat;
			ps[c].unattributed_sum += 150;
			fl_hist_add(&ps[c].hist[FL_PH_ALLOC], alloc);
			fl_hist_add(&ps[c].hist[FL_PH_REST], rest);
			fl_hist_add(&ps[c].hist[FL_PH_LOCKLESS], ll);
			fl_hist_add(&ps[c].hist[FL_PH_LRU], 40 + k % 7);
		}
	add_sec(s, FL_SEC_PHASES, 16, ps, sizeof(ps));
	assert_int_equal(fl_snapshot_set_tag(s, "phases", "fentry"), 0);
	assert_int_equal(fl_snapshot_set_tag(s, "phases.unavailable",
					     "zero (no traceable hook in this kernel)"), 0);
}

static int with_phases;

static void snap(const char *path, unsigned int tier, unsigned int threads, double scale,
		 unsigned int seed)
{
	struct fl_snapshot s;
	char err[256];

	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_snapshot_alloc_cpus(&s, 16), 0);
	s.hdr.tier = tier;
	s.hdr.lockless_kind = FL_LL_KIND_VMA_LOCK;
	s.hdr.hooks_live = (1ULL << FL_HOOK_PF_USER) | (1ULL << FL_HOOK_MMAP_START) |
			   (1ULL << FL_HOOK_MMAP_ACQUIRED) | (1ULL << FL_HOOK_MMAP_RELEASED);
	if (tier != FL_TIER_TRACEPOINT)
		s.hdr.hooks_live |= (1ULL << FL_HOOK_HMF) | (1ULL << FL_HOOK_LOCK_VMA);
	srandom(seed);
	for (unsigned int c = 0; c < 16; c++) {
		s.cpu_online[c] = 1;
		if (c >= threads)
			continue;
		for (int k = 0; k < 2000; k++) {
			/* log-normal-ish, slower on the second LLC */
			double v = 800 * scale * (c >= 8 ? 3 : 1) * (1 + (random() % 1000) / 100.0);

			if (tier != FL_TIER_TRACEPOINT)
				fl_hist_add(&s.cpus[c].hist[FL_H_FAULT_LAT], (fl_u64)v);
			if (k % 4 == 0)
				fl_hist_add(&s.cpus[c].hist[FL_H_MMAP_WAIT_R], (fl_u64)(v / 4));
		}
		s.cpus[c].ll[FL_LL_ATTEMPTED] = 2000;
		s.cpus[c].ll[FL_LL_ABORTED] = (fl_u64)(threads * scale * 3) + random() % 5;
	}
	if (with_phases)
		add_phases(&s, threads, scale);
	assert_int_equal(fl_snapshot_write_file(path, &s, err, sizeof(err)), 0);
	fl_snapshot_free(&s);
}

static char *sweep(const char *name, const char *kver, double scale, unsigned int tier)
{
	static const unsigned int thr[] = { 1, 2, 4, 8, 16 };
	char *d, sd[600], line[200], text[2000], fn[64], path[700];

	assert_true(asprintf(&d, "%s/%s", tmpdir, name) > 0);
	mkdir(d, 0755);
	snprintf(sd, sizeof(sd), "%s/snap", d);
	mkdir(sd, 0755);
	snprintf(text, sizeof(text), "kernel_version=%s\n", kver);
	wfile(d, "tags", text);
	for (int i = 0; i < 5; i++) {
		text[0] = '\0';
		for (int it = 1; it <= 4; it++) {
			double r = 500000.0 / scale / (1 + 0.1 * thr[i]) * (1 + 0.02 * it);

			snprintf(line, sizeof(line), "   1 %4u   1     0.01s     0.50s     0.20s %10.3f %10.3f\n",
				 thr[i], r, r * thr[i]);
			strcat(text, line);
			snprintf(path, sizeof(path), "%s/pft-%u-%d.snap", sd, thr[i], it);
			snap(path, tier, thr[i], scale, thr[i] * 10 + it);
		}
		snprintf(fn, sizeof(fn), "pft-%u.log", thr[i]);
		wfile(d, fn, text);
	}
	return d;
}

static void test_snapshot_sweeps(void **state)
{
	char *a, *b, *tp, out[256], path[700];

	(void)state;
	if (!have_gnuplot())
		skip();
	a = sweep("A", "6.12.0-base", 1.0, FL_TIER_FENTRY);
	b = sweep("B", "6.12.0-spf", 0.7, FL_TIER_FENTRY);
	snprintf(out, sizeof(out), "%s/snaps", tmpdir);
	assert_int_equal(run("-o", out, a, b, NULL), 0);
	for (int i = 0; i < 7; i++) {
		static const char *const n[] = { "faults_sec", "faults_cpu", "latency", "aborts",
						 "heatmap-A", "heatmap-B", "mmap_wait" };

		check_png(out, n[i]);
		check_svg(out, n[i], i == 4 ? "6.12.0-base" : "6.12.0-spf");
	}
	/* one format only, a chosen heatmap thread count, a single sweep */
	snprintf(out, sizeof(out), "%s/svgonly", tmpdir);
	assert_int_equal(run("-o", out, "-f", "svg", "--threads", "4", a, NULL), 0);
	check_svg(out, "heatmap-A", "4 threads");
	assert_false(exists(out, "faults_sec.png"));
	/* a single snapshot, and a directory of them */
	snprintf(out, sizeof(out), "%s/one", tmpdir);
	snprintf(path, sizeof(path), "%s/snap/pft-16-1.snap", a);
	assert_int_equal(run("-o", out, "-f", "png", path, NULL), 0);
	check_png(out, "heatmap");
	snprintf(path, sizeof(path), "%s/snap", b);
	assert_int_equal(run("-o", out, "-f", "png", path, NULL), 0);
	check_png(out, "heatmap");
	/* tracepoint tier: no latency -> those pictures are skipped, never drawn empty */
	tp = sweep("TP", "6.12.0-tp", 1.0, FL_TIER_TRACEPOINT);
	snprintf(out, sizeof(out), "%s/tp", tmpdir);
	assert_int_equal(run("-o", out, tp, NULL), 0);
	check_png(out, "faults_sec");
	check_png(out, "mmap_wait");	/* tracepoints see mmap_lock */
	assert_false(exists(out, "latency.png"));
	assert_false(exists(out, "aborts.png"));
	assert_false(exists(out, "heatmap-A.png"));
	assert_false(exists(out, "phases.png"));	/* recorded without --phases */
	snprintf(path, sizeof(path), "%s/snap/pft-4-1.snap", tp);
	assert_int_equal(run("-o", out, path, NULL), 1);	/* nothing to plot */
	free(a);
	free(b);
	free(tp);
}

static void test_phase_sweeps(void **state)
{
	char *a, *b, out[256], path[700], *t;

	(void)state;
	if (!have_gnuplot())
		skip();
	with_phases = 1;
	a = sweep("PA", "6.12.0-base", 1.0, FL_TIER_FENTRY);
	b = sweep("PB", "6.12.0-zone", 1.6, FL_TIER_FENTRY);
	with_phases = 0;
	snprintf(out, sizeof(out), "%s/phases", tmpdir);
	assert_int_equal(run("-o", out, a, b, NULL), 0);
	check_png(out, "phases");
	check_svg(out, "phases", "B: 6.12.0-zone");
	check_svg(out, "phases", "A: 6.12.0-base");
	check_svg(out, "phases", "alloc");
	check_svg(out, "phases", "unattributed");
	/* zero: unavailable on both sides, named, not stacked as 0 */
	check_svg(out, "phases", "unavailable: zero");
	/* the data: A at 16 threads, alloc = 300 * (1 + 16/4) = 1500 ns per fault */
	snprintf(path, sizeof(path), "%s/phases.dat", out);
	t = fl_read_text(path, 1 << 20);
	assert_non_null(t);
	assert_non_null(strstr(t, "\n16 100 0 1500 ? 0 0 42.988 500 0 0 0 0 150 100 0 2400 ? 0 0 42.988 500 0 0 0 0 150\n"));
	free(t);
	/* one side only: a single stack */
	snprintf(out, sizeof(out), "%s/phases-a", tmpdir);
	assert_int_equal(run("-o", out, "-f", "svg", a, NULL), 0);
	check_svg(out, "phases", "6.12.0-base");
	free(a);
	free(b);
}

/* A snapshot-less sweep of pft fault shape CONF (sweep.conf text, NULL: none). */
static char *shape_sweep(const char *name, const char *kver, const char *conf)
{
	static const unsigned int thr[] = { 1, 2, 4 };
	char *d, line[200], text[2000], fn[64];

	assert_true(asprintf(&d, "%s/%s", tmpdir, name) > 0);
	mkdir(d, 0755);
	snprintf(text, sizeof(text), "kernel_version=%s\n", kver);
	wfile(d, "tags", text);
	if (conf)
		wfile(d, "sweep.conf", conf);
	for (int i = 0; i < 3; i++) {
		text[0] = '\0';
		for (int it = 1; it <= 3; it++) {
			double r = 400000.0 * (1 + 0.02 * it);

			snprintf(line, sizeof(line), "   1 %4u   1     0.01s     0.50s     0.20s %10.3f %10.3f\n",
				 thr[i], r, r * thr[i]);
			strcat(text, line);
		}
		snprintf(fn, sizeof(fn), "pft-%u.log", thr[i]);
		wfile(d, fn, text);
	}
	return d;
}

/* DIR/plot.gp has NEEDLE (1) or not (0). */
static int gp_has(const char *dir, const char *needle)
{
	char path[300], *t;
	int r;

	snprintf(path, sizeof(path), "%s/plot.gp", dir);
	t = fl_read_text(path, 1 << 20);
	assert_non_null(t);
	r = strstr(t, needle) != NULL;
	free(t);
	return r;
}

/*
 * The pft fault shape in the pictures: once in every title when A and B
 * share it, in every legend when they differ (--any-shape), refused without.
 */
static void test_shapes(void **state)
{
	char *a, *b, *f, *old, out[256];

	(void)state;
	if (!have_gnuplot())
		skip();
	a = shape_sweep("SA", "6.12.0-base", "PFT_SHAPE=private-write\nPFT_FILE=/mnt/ext4/f\n");
	b = shape_sweep("SB", "6.12.0-spf", "PFT_SHAPE=private-write\nPFT_FILE=/mnt/ext4/f\n");
	f = shape_sweep("SF", "6.12.0-spf", "PFT_SHAPE=shared-write\nPFT_FILE=/mnt/ext4/f\n");
	old = shape_sweep("SO", "6.1.0-old", "PFT_ITERATIONS=3\n");	/* no PFT_SHAPE: anon */
	snprintf(out, sizeof(out), "%s/shape-same", tmpdir);
	assert_int_equal(run("-o", out, "-f", "svg", a, b, NULL), 0);
	check_svg(out, "faults_sec", "A 6.12.0-base vs B 6.12.0-spf, shape private-write/file");
	assert_true(gp_has(out, "title \"pft faults per second per CPU vs threads (A 6.12.0-base "
			   "vs B 6.12.0-spf, shape private-write/file)\""));
	assert_true(gp_has(out, "title \"A: 6.12.0-base\""));	/* legend: no shape */
	/* one sweep: its shape in the title; an old sweep.conf is anonymous */
	snprintf(out, sizeof(out), "%s/shape-one", tmpdir);
	assert_int_equal(run("-o", out, "-f", "svg", old, NULL), 0);
	check_svg(out, "faults_cpu", "6.1.0-old, shape anon");
	/* different shapes: refused, nothing drawn */
	snprintf(out, sizeof(out), "%s/shape-diff", tmpdir);
	assert_int_equal(run("-o", out, "-f", "svg", a, f, NULL), 1);
	assert_false(exists(out, "faults_sec.svg"));
	assert_int_equal(run("-o", out, "-f", "svg", old, a, NULL), 1);
	/* --any-shape: drawn, each legend and the title say which shape is which */
	assert_int_equal(run("-o", out, "-f", "svg", "--any-shape", a, f, NULL), 0);
	check_svg(out, "faults_sec", "A: 6.12.0-base [private-write/file]");
	check_svg(out, "faults_sec", "B: 6.12.0-spf [shared-write/file]");
	assert_true(gp_has(out, "(A 6.12.0-base [private-write/file] vs B 6.12.0-spf "
			   "[shared-write/file])\""));
	assert_false(gp_has(out, ", shape "));
	free(a);
	free(b);
	free(f);
	free(old);
}

/*
 * will-it-scale results (mmtests' trees, tests/fixtures/mmtests-wis): the ops
 * picture instead of pft's two, its data the samples' means (as awk has
 * them, test_wislog.c: A 56668.533333 and 33427.533333, B at 1 task
 * 34556.333333).
 */
static void test_wis_trees(void **state)
{
	char out[256], path[512], *t;

	(void)state;
	if (!have_gnuplot())
		skip();
	snprintf(out, sizeof(out), "%s/wis", tmpdir);
	assert_int_equal(run("-o", out, "-f", "png", "--test", "page_fault1_threads",
			     FIX "/mmtests-wis/work/log/6.18-a", FIX "/mmtests-wis/work/log/6.18-b",
			     NULL), 0);
	check_png(out, "ops");
	assert_false(exists(out, "faults_sec.dat"));
	assert_false(exists(out, "faults_cpu.png"));
	snprintf(path, sizeof(path), "%s/ops.dat", out);
	t = fl_read_text(path, 1 << 20);
	assert_non_null(t);
	assert_non_null(strstr(t, "\n1 56668.53333333"));
	assert_non_null(strstr(t, "\n2 33427.53333333"));
	assert_non_null(strstr(t, " 34556.33333333"));
	free(t);
	assert_true(gp_has(out, "test page_fault1_threads"));
}

static void test_errors(void **state)
{
	char out[256];

	(void)state;
	snprintf(out, sizeof(out), "%s/err", tmpdir);
	assert_int_equal(run("-o", out, "/nonexistent-fl", NULL), 1);
	assert_int_equal(run("-o", out, "-f", "gif", FIX "/seed-sweeps/rome-A", NULL), 2);
	assert_int_equal(run("-o", out, "--threads", "-3", FIX "/seed-sweeps/rome-A", NULL), 2);
	assert_int_equal(run("-o", out, tmpdir, FIX "/seed-sweeps/rome-A", NULL), 1);
	/* gnuplot missing: a clear failure, no half-written images */
	setenv("GNUPLOT", "/nonexistent-gnuplot", 1);
	assert_int_equal(run("-o", out, FIX "/seed-sweeps/rome-A", NULL), 1);
	unsetenv("GNUPLOT");
	assert_false(exists(out, "faults_sec.png"));
	assert_false(exists(out, "faults_sec.png.tmp"));
	assert_false(exists(out, "plot.gp"));
	assert_false(exists(out, "faults_sec.dat"));
}

/* cmd_plot with its stderr in the file ERR (what a user would have seen) */
static int run_err(const char *err, const char *first, ...)
{
	char *argv[32];
	int argc = 0, fd, saved, rc;
	va_list ap;

	argv[argc++] = "plot";
	argv[argc++] = (char *)first;
	va_start(ap, first);
	for (char *a; (a = va_arg(ap, char *)); )
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stderr);
	saved = dup(2);
	fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	rc = cmd_plot(argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return rc;
}

static int file_has(const char *path, const char *needle)
{
	char *t = fl_read_text(path, 1 << 20);
	int r;

	assert_non_null(t);
	r = strstr(t, needle) != NULL;
	free(t);
	return r;
}

/* DIR's entries, but . and .., joined by spaces ("" when none; NULL: no DIR) */
static char *entries(const char *dir)
{
	static char buf[2048];
	struct dirent **e;
	int n = scandir(dir, &e, NULL, alphasort);

	if (n < 0)
		return NULL;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(e[i]->d_name, ".") && strcmp(e[i]->d_name, ".."))
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 buf[0] ? " " : "", e[i]->d_name);
		free(e[i]);
	}
	free(e);
	return buf;
}

/* an executable shell script DIR/NAME */
static char *script(const char *name, const char *text)
{
	char *path;

	assert_true(asprintf(&path, "%s/%s", tmpdir, name) > 0);
	wfile(tmpdir, name, text);
	assert_int_equal(chmod(path, 0755), 0);
	return path;
}

/*
 * Nothing half-written (issue 28): a gnuplot that fails after writing part
 * of an image leaves no plot.gp, data, image or scratch directory, and an
 * earlier plot in the same directory as it was; a directory this run made
 * goes again; what gnuplot said is shown when it failed, and its warnings
 * are not when it succeeded.
 */
static void test_no_half_written(void **state)
{
	char out[256], err[300], *bad, *noisy, *gp, *before, *real, body[600];

	(void)state;
	if (!have_gnuplot())
		skip();
	snprintf(err, sizeof(err), "%s/stderr.txt", tmpdir);
	bad = script("bad-gnuplot", "#!/bin/sh\nprintf 'not a png' >faults_sec.png\n"
		     "echo 'bad-gnuplot: boom' >&2\nexit 1\n");
	/* a new directory: gone again */
	snprintf(out, sizeof(out), "%s/half-new", tmpdir);
	setenv("GNUPLOT", bad, 1);
	assert_int_equal(run_err(err, "-o", out, FIX "/seed-sweeps/rome-A", NULL), 1);
	unsetenv("GNUPLOT");
	assert_null(entries(out));
	assert_true(file_has(err, "bad-gnuplot: boom"));	/* shown on failure */
	/* an earlier good plot: kept as it was */
	snprintf(out, sizeof(out), "%s/half-old", tmpdir);
	assert_int_equal(run("-o", out, "-f", "png", FIX "/seed-sweeps/rome-A", NULL), 0);
	assert_string_equal(entries(out), "faults_cpu.dat faults_cpu.png faults_sec.dat "
			    "faults_sec.png plot.gp");
	snprintf(body, sizeof(body), "%s/plot.gp", out);
	before = fl_read_text(body, 1 << 20);
	assert_non_null(before);
	setenv("GNUPLOT", bad, 1);
	assert_int_equal(run_err(err, "-o", out, FIX "/seed-sweeps/rome-B", NULL), 1);
	unsetenv("GNUPLOT");
	assert_string_equal(entries(out), "faults_cpu.dat faults_cpu.png faults_sec.dat "
			    "faults_sec.png plot.gp");
	check_png(out, "faults_sec");
	gp = fl_read_text(body, 1 << 20);
	assert_non_null(gp);
	assert_string_equal(gp, before);
	free(gp);
	free(before);
	/* gnuplot missing, and an output directory that cannot be made */
	setenv("GNUPLOT", "/nonexistent-gnuplot", 1);
	snprintf(out, sizeof(out), "%s/half-nognuplot", tmpdir);
	assert_int_equal(run_err(err, "-o", out, FIX "/seed-sweeps/rome-A", NULL), 1);
	unsetenv("GNUPLOT");
	assert_null(entries(out));
	assert_true(file_has(err, "cannot run /nonexistent-gnuplot"));
	snprintf(out, sizeof(out), "%s/stderr.txt/sub", tmpdir);
	assert_int_equal(run("-o", out, FIX "/seed-sweeps/rome-A", NULL), 1);
	/* a warning from a gnuplot that succeeds: not shown */
	real = strdup(getenv("GNUPLOT") ? getenv("GNUPLOT") : "gnuplot");
	snprintf(body, sizeof(body), "#!/bin/sh\necho 'gnuplot: warning: noise' >&2\n"
		 "exec %s \"$@\"\n", real);
	noisy = script("noisy-gnuplot", body);
	setenv("GNUPLOT", noisy, 1);
	snprintf(out, sizeof(out), "%s/noisy", tmpdir);
	assert_int_equal(run_err(err, "-o", out, "-f", "png", FIX "/seed-sweeps/rome-A", NULL), 0);
	unsetenv("GNUPLOT");
	assert_false(file_has(err, "noise"));
	check_png(out, "faults_sec");
	assert_string_equal(entries(out), "faults_cpu.dat faults_cpu.png faults_sec.dat "
			    "faults_sec.png plot.gp");
	free(real);
	free(bad);
	free(noisy);
}

/*
 * Output people read (issue 28): two sweeps of one kernel told apart by
 * their directories; the thread labels of 110 and 128 on two rows; rates in
 * k/M, latencies in ns/µs/ms, never "1x10^6"; the heatmap's CPU axis at
 * whole CPUs.
 */
static void test_readable(void **state)
{
	char out[256], *a;

	(void)state;
	if (!have_gnuplot())
		skip();
	snprintf(out, sizeof(out), "%s/readable", tmpdir);
	assert_int_equal(run("-o", out, "-f", "svg", FIX "/seed-sweeps/rome-A",
			     FIX "/seed-sweeps/rome-B/", NULL), 0);
	assert_true(gp_has(out, "title \"A: 5.12.0-smp-DEV (rome-A)\""));
	assert_true(gp_has(out, "title \"B: 5.12.0-smp-DEV (rome-B)\""));
	check_svg(out, "faults_sec", "5.12.0-smp-DEV (rome-B)");
	/* 110 and 128: the second a line lower, the axis label below it */
	assert_true(gp_has(out, "\"79\" 79, \"110\" 110, \"\\n128\" 128)"));
	assert_true(gp_has(out, "set xlabel \"\\nthreads\""));
	/* millions of faults a second: 2M, 4M ... */
	assert_true(gp_has(out, "set format y \"%gM\""));
	check_svg(out, "faults_sec", ">10M<");
	check_svg_lacks(out, "faults_sec", "x10</tspan>");
	check_svg_lacks(out, "faults_sec", "\u00d710</tspan>");
	check_svg_lacks(out, "faults_cpu", "x10</tspan>");
	/* labels given, or kernels that differ: as they are */
	assert_int_equal(run("-o", out, "-f", "svg", "--label-a", "base", "--label-b", "spf",
			     FIX "/seed-sweeps/rome-A", FIX "/seed-sweeps/rome-B", NULL), 0);
	assert_true(gp_has(out, "title \"A: base\""));
	assert_false(gp_has(out, "(rome-A)"));
	/* latencies (about 1..30 µs here) */
	a = sweep("RA", "6.12.0-base", 1.0, FL_TIER_FENTRY);
	snprintf(out, sizeof(out), "%s/readable-lat", tmpdir);
	assert_int_equal(run("-o", out, "-f", "svg", a, NULL), 0);
	assert_true(gp_has(out, "(\"2 \u00b5s\" 2000, \"5 \u00b5s\" 5000, \"10 \u00b5s\" 10000"));
	assert_false(gp_has(out, "latency, ns"));
	check_svg(out, "latency", "10 \u00b5s");
	check_svg_lacks(out, "latency", "x10</tspan>");
	check_svg_lacks(out, "latency", "\u00d710</tspan>");
	check_svg(out, "heatmap-A", " \u00b5s<");
	/* 16 CPUs: a tic on each; one CPU: one tic, not 0.2 steps */
	assert_true(gp_has(out, "set xtics 0,1,15 format '%.0f'"));
	assert_int_equal(run("-o", out, "-f", "svg", "--threads", "1", a, NULL), 0);
	assert_true(gp_has(out, "set xtics 0,1,0 format '%.0f'"));
	check_svg_lacks(out, "heatmap-A", ">0.2<");
	check_svg_lacks(out, "heatmap-A", ">-0.4<");
	free(a);
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
	if (getenv("FL_KEEP_PLOTS"))
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_sweeps),
		cmocka_unit_test(test_wis_trees),
		cmocka_unit_test(test_snapshot_sweeps),
		cmocka_unit_test(test_phase_sweeps),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_no_half_written),
		cmocka_unit_test(test_readable),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
