// SPDX-License-Identifier: GPL-2.0
/*
 * faultline compare A.snap B.snap: two recordings side by side
 * (compare_snaps.c), on snapshots written here through the snapshot
 * writer with known contents, every figure worked out by hand:
 *  - fault counts and rates, latency quantiles of each side;
 *  - the rank test: a U value computed by hand, identical histograms
 *    (p = 1), clearly shifted ones (p < 1e-6);
 *  - "not compared (A: why)" where a side cannot measure a figure
 *    (no lockless fault path, handle_mm_fault not timed), never a 0;
 *  - the rows in text, json, csv and markdown; default labels;
 *  - the rank test per CPU and per LLC domain (topology tags);
 *  - several recordings a side (-a/-b, directories): COUNT ... STDDEV,
 *    Welch's p and mmtests' mark per figure, worked out by hand;
 *    --precision;
 *  - the histograms behind each rank row (--hist; JSON's "buckets"):
 *    bucket ranges, counts and shares of two small known histograms.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "compare.h"
#include "compare_snaps.h"
#include "pftlog.h"
#include "snapshot.h"
#include "textfile.h"

static char tmpdir[] = "/tmp/fl-test-compare-snaps-XXXXXX";
static char pa[300], pb[300], pa2[300], ga[300], gb[300], da[300], db[300], ha[300], hb[300];

#define HOOK(h) (1ULL << (h))

/*
 * A: kernel 6.1.0-test, 2 s, 2 CPUs, no lockless fault path, handle_mm_fault
 * not timed (the handle_mm_fault_not_timed tag), mmap_lock tracepoints off (its tag);
 * 300 + 100 user faults, 4 kernel-mode, 2 unhandled, 410 hmf calls; fault
 * latency 200 x 1000 ns, 200 x 2000 ns.
 * B: kernel 6.12.0-test, 1 s, per-VMA locks with abort reasons, mmap_lock
 * recorded; 800 user faults, 810 hmf calls; latency 400 x 2000, 400 x 4000;
 * lockless: 800 attempted, 780 succeeded, 12 aborted (8 write-locked, 4 no
 * VMA), 8 retried (8 no anon_vma); mmap_lock read wait 20 x 500 ns.
 */
static void write_a(const char *path, const char *krel)
{
	struct fl_snapshot s;
	char err[256];

	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_snapshot_alloc_cpus(&s, 2), 0);
	snprintf(s.hdr.kernel_release, sizeof(s.hdr.kernel_release), "%s", krel);
	s.hdr.duration_ns = 2000000000ULL;
	s.hdr.backend = FL_BACKEND_BPF;
	s.hdr.tier = FL_TIER_FENTRY;
	s.hdr.lockless_kind = FL_LL_KIND_NONE;
	s.hdr.hooks_live = HOOK(FL_HOOK_PF_USER) | HOOK(FL_HOOK_HMF);
	s.cpu_online[0] = s.cpu_online[1] = 1;
	s.cpus[0].cnt[FL_C_FAULTS_USER] = 300;
	s.cpus[1].cnt[FL_C_FAULTS_USER] = 100;
	s.cpus[1].cnt[FL_C_FAULTS_KERNEL] = 4;
	s.cpus[0].cnt[FL_C_FAULTS_ENDED] = 400;
	s.cpus[0].cnt[FL_C_FAULTS_UNHANDLED] = 2;
	s.cpus[0].cnt[FL_C_HMF_CALLS] = 410;
	for (int k = 0; k < 200; k++) {
		fl_hist_add(&s.cpus[k & 1].hist[FL_H_FAULT_LAT], 1000);
		fl_hist_add(&s.cpus[k & 1].hist[FL_H_FAULT_LAT], 2000);
	}
	assert_int_equal(fl_snapshot_set_tag(&s, FL_TAG_HMF_OFF,
					     "not timed by default (record --hmf)"), 0);
	assert_int_equal(fl_snapshot_set_tag(&s, FL_TAG_MMAP_LOCK_OFF, FL_MMAP_LOCK_OFF_WHY), 0);
	assert_int_equal(fl_snapshot_write_file(path, &s, err, sizeof(err)), 0);
	fl_snapshot_free(&s);
}

static void write_b(const char *path)
{
	struct fl_snapshot s;
	struct fl_cpu_stats *c;
	char err[256];

	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_snapshot_alloc_cpus(&s, 1), 0);
	c = &s.cpus[0];
	strcpy(s.hdr.kernel_release, "6.12.0-test");
	s.hdr.duration_ns = 1000000000ULL;
	s.hdr.backend = FL_BACKEND_BPF;
	s.hdr.tier = FL_TIER_FENTRY;
	s.hdr.lockless_kind = FL_LL_KIND_VMA_LOCK;
	s.hdr.flags |= FL_SNAP_F_LL_WHY;
	s.hdr.hooks_live = HOOK(FL_HOOK_PF_USER) | HOOK(FL_HOOK_HMF) | HOOK(FL_HOOK_LOCK_VMA) |
			   HOOK(FL_HOOK_MMAP_START) | HOOK(FL_HOOK_MMAP_ACQUIRED) |
			   HOOK(FL_HOOK_MMAP_RELEASED);
	s.cpu_online[0] = 1;
	c->cnt[FL_C_FAULTS_USER] = 800;
	c->cnt[FL_C_FAULTS_ENDED] = 800;
	c->cnt[FL_C_HMF_CALLS] = 810;
	for (int k = 0; k < 400; k++) {
		fl_hist_add(&c->hist[FL_H_FAULT_LAT], 2000);
		fl_hist_add(&c->hist[FL_H_FAULT_LAT], 4000);
		fl_hist_add(&c->hist[FL_H_HMF], 1500);
	}
	c->ll[FL_LL_ATTEMPTED] = 800;
	c->ll[FL_LL_SUCCEEDED] = 780;
	c->ll[FL_LL_ABORTED] = 12;
	c->ll[FL_LL_RETRIED] = 8;
	c->cnt[FL_C_LLW_WLOCKED] = 8;
	c->cnt[FL_C_LLW_NOVMA] = 4;
	c->cnt[FL_C_LLW_ANON] = 8;
	for (int k = 0; k < 20; k++)
		fl_hist_add(&c->hist[FL_H_MMAP_WAIT_R], 500);
	assert_int_equal(fl_snapshot_write_file(path, &s, err, sizeof(err)), 0);
	fl_snapshot_free(&s);
}

/* compare -f FMT -o OUT ARGS...; the output */
static char *run_args(const char *fmt, const char *const *args)
{
	char out[400], *t;
	char *argv[40];
	int argc = 0;

	snprintf(out, sizeof(out), "%s/out.%s", tmpdir, fmt);
	argv[argc++] = "compare";
	argv[argc++] = "-f";
	argv[argc++] = (char *)fmt;
	argv[argc++] = "-o";
	argv[argc++] = out;
	for (; *args && argc < 39; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	assert_int_equal(cmd_compare(argc, argv), 0);
	t = fl_read_text(out, 1 << 20);
	assert_non_null(t);
	return t;
}

static char *run_out(const char *fmt, const char *a, const char *b, const char *extra)
{
	char out[400], *t;
	char *argv[12];
	int argc = 0;

	snprintf(out, sizeof(out), "%s/out.%s", tmpdir, fmt);
	argv[argc++] = "compare";
	argv[argc++] = "-f";
	argv[argc++] = (char *)fmt;
	argv[argc++] = "-o";
	argv[argc++] = out;
	if (extra) {
		argv[argc++] = "--label-a";
		argv[argc++] = (char *)extra;
	}
	argv[argc++] = (char *)a;
	argv[argc++] = (char *)b;
	argv[argc] = NULL;
	assert_int_equal(cmd_compare(argc, argv), 0);
	t = fl_read_text(out, 1 << 20);
	assert_non_null(t);
	return t;
}

/* collapse whitespace runs, trim */
static void norm(char *s)
{
	char *o = s, *p = s;
	int sp = 0;

	for (; *p; p++) {
		if (*p == ' ' || *p == '\t') {
			sp = 1;
			continue;
		}
		if (sp && o != s && o[-1] != '\n' && *p != '\n')
			*o++ = ' ';
		sp = 0;
		*o++ = *p;
	}
	*o = '\0';
}

static void hist_of(struct fl_hist *h, const unsigned long long *v, unsigned int n)
{
	memset(h, 0, sizeof(*h));
	for (unsigned int i = 0; i < n; i++)
		fl_hist_add(h, v[i]);
}

/*
 * The rank test by hand.  Values below 16 ns have a bucket each.
 * A = {1, 1, 2, 3}, B = {2, 3, 3, 4}: B's U counts, per B event, the A
 * events below it plus half the tied ones: 2 -> 2 + 0.5, 3 -> 3 + 0.5
 * (twice), 4 -> 4: U = 13.5 of 16 pairs.  mu = 8; ties per bucket t = 2, 2,
 * 3, 1: sum(t^3 - t) = 6 + 6 + 24 = 36; N = 8: var = 16/12 (9 - 36/56) =
 * 11.142857; z = (13.5 - 8 - 0.5) / sqrt(var) = 1.497862, p = erfc(z/sqrt2)
 * = 0.134169.
 */
static void test_rank_by_hand(void **state)
{
	static const unsigned long long va[] = { 1, 1, 2, 3 }, vb[] = { 2, 3, 3, 4 };
	struct fl_hist a, b;
	struct fl_rank_test r;

	(void)state;
	hist_of(&a, va, 4);
	hist_of(&b, vb, 4);
	fl_hist_rank_test(&a, &b, &r);
	assert_true(r.n[0] == 4 && r.n[1] == 4);
	assert_true(r.u == 13.5);
	assert_true(fabs(r.prob - 13.5 / 16) < 1e-12);
	assert_true(fabs(r.z - 5 / sqrt(16.0 / 12 * (9 - 36.0 / 56))) < 1e-12);
	assert_true(fabs(r.z - 1.497862) < 1e-6);
	assert_true(fabs(r.p - 0.134169) < 1e-6);
	/* the other way round: U of A = 16 - 13.5, same p, z negated */
	fl_hist_rank_test(&b, &a, &r);
	assert_true(r.u == 2.5);
	assert_true(fabs(r.z + 1.497862) < 1e-6 && fabs(r.p - 0.134169) < 1e-6);
	/* identical histograms: U = n_a n_b / 2, p = 1 */
	fl_hist_rank_test(&a, &a, &r);
	assert_true(r.u == 8 && r.prob == 0.5 && r.z == 0 && r.p == 1);
	/* everything in one bucket on both sides: no variance, p = 1 */
	hist_of(&b, (const unsigned long long[]){ 7, 7, 7 }, 3);
	fl_hist_rank_test(&b, &b, &r);
	assert_true(r.p == 1 && r.prob == 0.5);
	/* an empty side: no test */
	memset(&b, 0, sizeof(b));
	fl_hist_rank_test(&a, &b, &r);
	assert_true(isnan(r.p) && isnan(r.u));
}

static int has_note(const struct fl_cmp_snaps *p, const char *prefix)
{
	for (unsigned int i = 0; i < p->nnotes; i++)
		if (!strncmp(p->notes[i], prefix, strlen(prefix)))
			return 1;
	return 0;
}

/* The model's figures of A and B (write_a, write_b), worked out by hand. */
static void test_figures(void **state)
{
	struct fl_cmp_snaps p;
	const struct fl_csn_row *r;
	char err[256];

	(void)state;
	assert_int_equal(fl_cmp_snaps_build(&p, pa, pb, 0.05, err, sizeof(err)), 0);
	/* labels from what differs: the kernels */
	assert_string_equal(p.side[0].label, "6.1.0-test");
	assert_string_equal(p.side[1].label, "6.12.0-test");
	r = fl_cmp_snaps_row(&p, "faults_user");
	assert_true(r && r->have[0] && r->have[1] && r->v[0] == 400 && r->v[1] == 800);
	assert_true(r->pct == 100);
	r = fl_cmp_snaps_row(&p, "faults_user_per_s");	/* 400 in 2 s, 800 in 1 s */
	assert_true(r && r->v[0] == 200 && r->v[1] == 800 && r->pct == 300);
	r = fl_cmp_snaps_row(&p, "faults_kernel");
	assert_true(r && r->v[0] == 4 && r->v[1] == 0);
	r = fl_cmp_snaps_row(&p, "faults_unhandled_per_s");
	assert_true(r && r->v[0] == 1 && r->v[1] == 0);
	r = fl_cmp_snaps_row(&p, "handle_mm_fault_calls_per_s");
	assert_true(r && r->v[0] == 205 && r->v[1] == 810);
	/*
	 * Quantiles: the midpoint of the rank's bucket, clamped to [min, max].
	 * 1000 is in [960, 1024) (midpoint 991, clamped up to min 1000), 2000
	 * in [1920, 2048) (1983), 4000 in [3840, 4096) (3967).  A: p50 rank
	 * 200 -> 1000, p90/p99 -> 1983, max 2000, mean 1500.  B: p50 rank 400
	 * -> 1983 clamped up to its min 2000, p90/p99 -> 3967, max 4000, mean
	 * 3000.
	 */
	static const struct {
		const char *name;
		double a, b;
	} q[] = {
		{ "fault_latency_count", 400, 800 },
		{ "fault_latency_p50", 1000, 2000 },
		{ "fault_latency_p90", 1983, 3967 },
		{ "fault_latency_p99", 1983, 3967 },
		{ "fault_latency_max", 2000, 4000 },
		{ "fault_latency_mean", 1500, 3000 },
	};
	for (unsigned int i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		r = fl_cmp_snaps_row(&p, q[i].name);
		assert_non_null(r);
		assert_true(r->have[0] && r->have[1]);
		assert_true(r->v[0] == q[i].a && r->v[1] == q[i].b);
	}
	/*
	 * The rank test of fault_latency: B's U = 400 (B at 2000) x (200 A
	 * below + 200/2 tied) + 400 (B at 4000) x 400 = 280000 of 400 x 800
	 * pairs: P(B>A) = 0.875, far from 0.5: p < 1e-6.
	 */
	assert_string_equal(p.rank[0].hist, "fault_latency");
	assert_null(p.rank[0].by);
	assert_true(p.rank[0].have[0] && p.rank[0].have[1]);
	assert_true(p.rank[0].t.u == 280000 && p.rank[0].t.prob == 0.875);
	assert_true(p.rank[0].t.p < 1e-6 && p.rank[0].significant);
	/*
	 * Per CPU: A's CPU 0 has half its events (100 x 1000, 100 x 2000), B's
	 * all 800; A's CPU 1 has no B counterpart: one test, and a note.
	 * U = 400 x (100 + 50) + 400 x 200 = 140000 of 200 x 800: 0.875.
	 */
	assert_string_equal(p.rank[1].by, "cpu");
	assert_int_equal(p.rank[1].group, 0);
	assert_true(p.rank[1].t.n[0] == 200 && p.rank[1].t.n[1] == 800);
	assert_true(p.rank[1].t.u == 140000 && p.rank[1].t.prob == 0.875);
	assert_true(p.rank[1].p50[0] == 1000 && p.rank[1].p99[1] == 3967);
	/* A's handle_mm_fault was not timed: no test, the tag's reason */
	assert_string_equal(p.rank[2].hist, "handle_mm_fault");
	assert_true(!p.rank[2].have[0] && p.rank[2].have[1]);
	assert_string_equal(p.rank[2].why[0], "unavailable (not timed by default (record --hmf))");
	/* lockless: A's kernel has no lockless path: never a 0 */
	r = fl_cmp_snaps_row(&p, "lockless_attempted");
	assert_true(r && !r->have[0] && r->have[1] && r->v[1] == 800 && isnan(r->pct));
	assert_non_null(strstr(r->why[0], "absent (this kernel has no lockless fault path"));
	r = fl_cmp_snaps_row(&p, "lockless_aborted_per_mille");	/* 12 / 800 = 15 per mille */
	assert_true(r && r->have[1] && r->v[1] == 15);
	r = fl_cmp_snaps_row(&p, "lockless_abort_write_locked_per_mille");	/* 8 / 800 */
	assert_true(r && r->have[1] && r->v[1] == 10 && !r->have[0]);
	/* mmap_lock: off on A by default, with its reason */
	r = fl_cmp_snaps_row(&p, "mmap_lock_wait_read_p50");
	assert_true(r && !r->have[0] && r->have[1] && r->v[1] == 500);
	assert_non_null(strstr(r->why[0], "unavailable (not recorded by default on this kernel"));

	/* no topology tags: per LLC and per node not compared, and said so */
	assert_true(has_note(&p, "fault latency per cpu: 1 cpu with faults on one side only"));
	assert_true(has_note(&p, "fault latency per llc: not compared (A: no topology_llc/"
			     "topology_node tags; B: no topology_llc/topology_node tags)"));
	fl_cmp_snaps_free(&p);
	/* A against itself: every figure equal, every test p = 1 */
	assert_int_equal(fl_cmp_snaps_build(&p, pa, pa, 0.05, err, sizeof(err)), 0);
	assert_true(p.rank[0].t.p == 1 && p.rank[0].t.prob == 0.5 && !p.rank[0].significant);
	assert_true(p.rank[1].by && p.rank[2].by && p.rank[1].t.p == 1 && p.rank[2].t.p == 1);
	for (unsigned int i = 0; i < p.nrow; i++) {
		assert_int_equal(p.row[i].have[0], p.row[i].have[1]);
		if (p.row[i].have[0])
			assert_true(p.row[i].v[0] == p.row[i].v[1]);
	}
	fl_cmp_snaps_free(&p);
}

static void test_text(void **state)
{
	char *t;

	(void)state;
	t = run_out("text", pa, pb, NULL);
	assert_non_null(strstr(t, "[*] RECORDINGS\n"));
	norm(t);
	assert_non_null(strstr(t, "(A) 6.1.0-test: "));
	assert_non_null(strstr(t, "FIGURE | (A) 6.1.0-test | (B) 6.12.0-test | B vs A\n"));
	assert_non_null(strstr(t, "\nfaults_user | 400 | 800 | +100.00%\n"));
	/* the unit once, in the figure's cell; numbers to 4 significant digits */
	assert_non_null(strstr(t, "\nfaults_user_per_s (faults/s) | 200 | 800 | +300.00%\n"));
	assert_non_null(strstr(t, "\nfault_latency_p50 (ns) | 1000 | 2000 | +100.00%\n"));
	assert_non_null(strstr(t, "\nfault_latency_p90 (ns) | 1983 | 3967 | +100.05%\n"));
	/* the reason once under the table, each row pointing at it */
	assert_non_null(strstr(t, "\nlockless_attempted | - | 800 | not compared [1]\n"));
	assert_non_null(strstr(t, "\nlockless_succeeded | - | 780 | not compared [1]\n"));
	assert_non_null(strstr(t, "\nlockless_retried_per_mille (\u2030) | - | 10 | not compared [1]\n"
				  "[1] not compared (A: absent (this kernel has no lockless fault "
				  "path (no per-VMA locks, no SPF)))\n"));
	assert_non_null(strstr(t, "\nhandle_mm_fault_p50 (ns) | - | 1500 | not compared [1]\n"));
	/* the test with the quantiles that say how large the shift is */
	assert_non_null(strstr(t, "\nfault_latency | 400 | 800 | 1000 | 2000 | 1983 | 3967 | 0.875 | "
				  "23.23 | *2.37e-119*\n"));
	assert_non_null(strstr(t, "\nfault_latency cpu0 | 200 | 800 | 1000 | 2000 | 1983 | 3967 | "
				  "0.875 | 18.25 | *2.14e-74*\n"));
	assert_non_null(strstr(t, "\nhandle_mm_fault: not compared (A: unavailable (not timed by "
				  "default (record --hmf)))\n"));
	assert_non_null(strstr(t, "[*] BLAME\n"));
	assert_non_null(strstr(t, "phases: neither recording has them"));
	assert_null(strstr(t, "nan"));
	free(t);
	/* --precision 2: 1983 -> 2000, 3967 -> 4000; whole counts stay whole */
	t = run_args("text", (const char *[]){ "--precision", "2", pa, pb, NULL });
	norm(t);
	assert_non_null(strstr(t, "\nfault_latency_p90 (ns) | 2000 | 4000 | +100.05%\n"));
	assert_non_null(strstr(t, "\nhandle_mm_fault_calls | 410 | 810 | +97.56%\n"));
	free(t);
}

static void test_json_csv_md(void **state)
{
	char *t;

	(void)state;
	t = run_out("json", pa, pb, NULL);
	assert_non_null(strstr(t, "{\"faultline_compare\":1,\"inputs\":\"snapshots\""));
	assert_non_null(strstr(t, "{\"section\":\"faults\",\"name\":\"faults_user\",\"unit\":\"count\","
				  "\"compared\":true,\"a\":400,\"b\":800,\"pct\":100}"));
	assert_non_null(strstr(t, "{\"section\":\"lockless\",\"name\":\"lockless_attempted\","
				  "\"unit\":\"count\",\"compared\":false,\"a\":null,\"b\":800,"
				  "\"pct\":null,\"gap_a\":\"absent (this kernel has no lockless"));
	assert_non_null(strstr(t, "{\"histogram\":\"fault_latency\",\"compared\":true,\"n_a\":400,"
				  "\"n_b\":800,\"u\":280000,\"prob_b_above_a\":0.875,"));
	assert_non_null(strstr(t, "{\"histogram\":\"fault_latency\",\"by\":\"cpu\",\"group\":0,"
				  "\"compared\":true,\"n_a\":200,\"n_b\":800,\"u\":140000,"));
	assert_non_null(strstr(t, "{\"histogram\":\"handle_mm_fault\",\"compared\":false,"
				  "\"gap_a\":\"unavailable (not timed by default (record --hmf))\"}"));
	assert_non_null(strstr(t, ",\"blame\":{"));
	free(t);

	t = run_out("csv", pa, pb, NULL);
	assert_true(!strncmp(t, "section,name,unit,a,b,pct,p_value,significant,u,prob_b_above_a,z,"
			     "gap_a,gap_b,text,n_a,n_b,stddev_a,stddev_b,mmtests_marked\n", 123));
	assert_non_null(strstr(t, "\nrecording,label,,6.1.0-test,6.12.0-test,,,,,,,,,,,,,,\n"));
	/* one recording a side: n = 1, no stddev, no test */
	assert_non_null(strstr(t, "\nfaults,faults_user,count,400,800,100,,,,,,,,,1,1,,,\n"));
	assert_non_null(strstr(t, "\nlatency,fault_latency_p99,ns,1983,3967,"));
	assert_non_null(strstr(t, "\nlockless,lockless_attempted,count,,800,,,,,,,\"absent (this "
				  "kernel has no lockless fault path (no per-VMA locks, no SPF))\",,,,1,,,\n"));
	assert_non_null(strstr(t, "\nrank_test,fault_latency,events,400,800,,"));
	assert_non_null(strstr(t, ",yes,280000,0.875,"));
	assert_non_null(strstr(t, "\nrank_test,fault_latency/cpu0,events,200,800,,"));
	assert_non_null(strstr(t, "\nrank_test,handle_mm_fault,events,,,,,,,,,unavailable (not "
				  "timed by default (record --hmf)),,,,,,,\n"));
	assert_non_null(strstr(t, "\nblame,explain,,,,,,,,,,,,cannot compare the holders:"));
	free(t);

	t = run_out("markdown", pa, pb, NULL);
	assert_non_null(strstr(t, "| label | 6.1.0-test | 6.12.0-test |\n"));
	assert_non_null(strstr(t, "| faults | faults_user | 400 | 800 | +100.00% |\n"));
	assert_non_null(strstr(t, "| lockless | lockless_attempted | - | 800 | not compared (A: "
				  "absent (this kernel has no lockless fault path (no per-VMA locks, "
				  "no SPF))) |\n"));
	assert_non_null(strstr(t, "| fault_latency | 400 | 800 | 1000 | 2000 | 1983 | 3967 | 0.875 | "));
	assert_non_null(strstr(t, "| fault_latency cpu0 | 200 | 800 | 1000 | 2000 | 1983 | 3967 | "
				  "0.875 | "));
	assert_non_null(strstr(t, "| latency | fault_latency_p90 (ns) | 1983 | 3967 | +100.05% |\n"));
	assert_non_null(strstr(t, "| **"));
	assert_non_null(strstr(t, "| handle_mm_fault | not compared (A: unavailable (not timed by "
				  "default (record --hmf))) | | | | | | | | |\n"));
	free(t);
}

/*
 * Same kernel release on both sides: the build strings (kernel_build, uname
 * -v) when they differ, else the release with each file name; --label-a wins.
 */
static void test_labels(void **state)
{
	char *t;

	(void)state;
	t = run_out("json", pa, pa2, NULL);
	assert_non_null(strstr(t, "\"a\":{\"file\":"));
	assert_non_null(strstr(t, "\"label\":\"6.1.0-test (a.snap)\""));
	assert_non_null(strstr(t, "\"label\":\"6.1.0-test (a2.snap)\""));
	free(t);
	t = run_out("json", pa, pa2, "before");
	assert_non_null(strstr(t, "\"label\":\"before\""));
	assert_non_null(strstr(t, "\"label\":\"6.1.0-test (a2.snap)\""));
	free(t);
	/* the directories of -a/-b share 6.12.0-test, their builds differ */
	t = run_out("text", da, db, NULL);
	assert_non_null(strstr(t, "(A) #1 SMP base: 2 recordings in "));
	assert_non_null(strstr(t, "(B) #7 SMP spf: 2 recordings in "));
	free(t);
}

/* A 6.12-like recording of NR CPUs, 1 s, per-VMA locks, nothing counted yet. */
static void snap_612(struct fl_snapshot *s, unsigned int nr)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(fl_snapshot_alloc_cpus(s, nr), 0);
	strcpy(s->hdr.kernel_release, "6.12.0-test");
	s->hdr.duration_ns = 1000000000ULL;
	s->hdr.backend = FL_BACKEND_BPF;
	s->hdr.tier = FL_TIER_FENTRY;
	s->hdr.lockless_kind = FL_LL_KIND_VMA_LOCK;
	s->hdr.hooks_live = HOOK(FL_HOOK_PF_USER) | HOOK(FL_HOOK_HMF) | HOOK(FL_HOOK_LOCK_VMA);
}

/*
 * A recording for the -a/-b tests: 6.12.0-test, BUILD (kernel_build), 1 s,
 * one CPU, FAULTS user faults, 10 fault latencies of LAT ns.
 */
static void write_rec(const char *path, const char *build, unsigned int faults, unsigned int lat)
{
	struct fl_snapshot s;
	char err[256];

	snap_612(&s, 1);
	s.cpu_online[0] = 1;
	s.cpus[0].cnt[FL_C_FAULTS_USER] = faults;
	s.cpus[0].cnt[FL_C_FAULTS_ENDED] = 10;
	for (int k = 0; k < 10; k++)
		fl_hist_add(&s.cpus[0].hist[FL_H_FAULT_LAT], lat);
	assert_int_equal(fl_snapshot_set_tag(&s, "kernel_build", build), 0);
	assert_int_equal(fl_snapshot_write_file(path, &s, err, sizeof(err)), 0);
	fl_snapshot_free(&s);
}

/*
 * Several recordings a side.  A: 100 and 102 faults, B: 200 and 204 (each
 * in 1 s).  faults_user: A mean 101, sample sd sqrt(2); B 202, sqrt(8).
 * Welch: t = 101 / sqrt(2/2 + 8/2) = 45.16857, df = 25 / (1 + 16) =
 * 1.470588, p = I_{df/(df+t^2)}(df/2, 1/2) = 0.0027407 (mpmath).  mmtests,
 * lower is better (a count): 101 / (1.959964 (sqrt 2 + sqrt 8)) = 12.146105,
 * marked.  faults_user_per_s, higher is better: the harmonic means 100.990
 * and 201.980, their sds 0.99990 and 1.99980: 100.990 / (1.959964 x
 * 2.99970) = 17.177186, marked.  Latency: 10 events at 1000 ns per
 * recording in A, at 2000 in B: pooled 20 against 20, U = 400 = all pairs.
 */
static void test_multi(void **state)
{
	const char *a[] = { NULL, NULL }, *b[] = { NULL, NULL };
	char a1[320], a2[320], b1[320], b2[320], err[256];
	const struct fl_csn_row *r;
	struct fl_cmp_snaps p;
	char *t;

	(void)state;
	snprintf(a1, sizeof(a1), "%s/run1.snap", da);
	snprintf(a2, sizeof(a2), "%s/run2.snap", da);
	snprintf(b1, sizeof(b1), "%s/run1.snap", db);
	snprintf(b2, sizeof(b2), "%s/run2.snap", db);
	a[0] = a1, a[1] = a2, b[0] = b1, b[1] = b2;
	assert_int_equal(fl_cmp_snaps_build_n(&p, (const char *const *[2]){ a, b },
					      (const unsigned int[2]){ 2, 2 }, 0.05, err,
					      sizeof(err)), 0);
	assert_true(p.multi);
	r = fl_cmp_snaps_row(&p, "faults_user");
	assert_true(r && r->st[0].n == 2 && r->st[1].n == 2);
	assert_true(r->v[0] == 101 && r->v[1] == 202 && r->pct == 100);
	assert_true(fabs(r->st[0].sd_sample - sqrt(2)) < 1e-12 && r->st[0].stddev == 1);
	assert_true(fabs(r->p - 0.0027407115) < 1e-9 && r->significant);
	assert_true(!r->higher_is_better && fabs(r->mm_ratio - 12.146105) < 1e-6 && r->mm_marked);
	r = fl_cmp_snaps_row(&p, "faults_user_per_s");
	assert_true(r && r->higher_is_better && fabs(r->mm_ratio - 17.177186) < 1e-6);
	r = fl_cmp_snaps_row(&p, "fault_latency_mean");
	assert_true(r && r->v[0] == 1000 && r->v[1] == 2000);
	/* no spread on either side: mmtests' ratio is the difference itself */
	assert_true(r->mm_ratio == 1000 && r->mm_marked);
	assert_true(p.rank[0].t.n[0] == 20 && p.rank[0].t.n[1] == 20 && p.rank[0].t.u == 400);
	fl_cmp_snaps_free(&p);

	/* the same through -a/-b and through the two directories */
	t = run_args("text", (const char *[]){ "-a", a1, a2, "-b", b1, b2, NULL });
	norm(t);
	assert_non_null(strstr(t, "\nfaults_user | | | | | | |\n"
				  "(A) #1 SMP base | 2 | 100 | 102 | 101 | 101 | 1 |\n"
				  "(B) #7 SMP spf | 2 | 200 | 204 | 202 | 202 | 2 |\n"
				  "| | +100.00% | +100.00% | *+100.00%* | +100.00% | +100.00% | 0.00274\n"));
	free(t);
	t = run_args("json", (const char *[]){ da, db, NULL });
	assert_non_null(strstr(t, "\"recordings\":[2,2]"));
	assert_non_null(strstr(t, "\"name\":\"faults_user\",\"unit\":\"count\",\"compared\":true,"
				  "\"a\":101,\"b\":202,\"pct\":100,\"stats\":{\"a\":{\"count\":2,"
				  "\"min\":100,\"max\":102,\"mean\":101,\"median\":101,\"stddev\":1,"));
	assert_non_null(strstr(t, "\"mmtests_marked\":true"));
	free(t);
	t = run_args("markdown", (const char *[]){ "--precision", "3", "-a", da, "-b", db, NULL });
	assert_non_null(strstr(t, "| faults | faults_user | 101 | 1 | 2 | 202 | 2 | 2 | "
				  "\\*+100.00%\\* | **0.00274** |\n"));
	free(t);
}

/*
 * Per CPU and per LLC domain: 4 CPUs, LLCs {0,1} and {2,3}, one node.  CPU
 * 0: 100 events at 1000 ns on both sides (no change: p = 1); CPU 2: 100 at
 * 1000 in A, 100 at 4000 in B: every pair has B above, U = 10000, P(B>A)
 * = 1.  Ties: two buckets of 100, sum(t^3 - t) = 2 x 999900; var = 100 x
 * 100 / 12 (201 - 1999800 / (200 x 199)) = 125628.14; z = (5000 - 0.5) /
 * sqrt(var) = 14.105325.  LLC 0 is CPU 0's test, LLC 1 CPU 2's; one node: no
 * per-node rows (the whole recording's test is that).
 */
static void write_topo(const char *path, unsigned long long lat2)
{
	struct fl_snapshot s;
	char err[256];

	snap_612(&s, 4);
	for (int c = 0; c < 4; c++)
		s.cpu_online[c] = 1;
	for (int k = 0; k < 100; k++) {
		fl_hist_add(&s.cpus[0].hist[FL_H_FAULT_LAT], 1000);
		fl_hist_add(&s.cpus[2].hist[FL_H_FAULT_LAT], lat2);
	}
	assert_int_equal(fl_snapshot_set_tag(&s, "topology_llc", "0-1 2-3"), 0);
	assert_int_equal(fl_snapshot_set_tag(&s, "topology_node", "0:0-3"), 0);
	assert_int_equal(fl_snapshot_write_file(path, &s, err, sizeof(err)), 0);
	fl_snapshot_free(&s);
}

static const struct fl_csn_rank *rank_of(const struct fl_cmp_snaps *p, const char *by,
					 unsigned int g)
{
	for (unsigned int i = 0; i < p->nrank; i++)
		if (p->rank[i].by && !strcmp(p->rank[i].by, by) && p->rank[i].group == g)
			return &p->rank[i];
	return NULL;
}

static void test_groups(void **state)
{
	const struct fl_csn_rank *k;
	struct fl_cmp_snaps p;
	char err[256], *t;

	(void)state;
	assert_int_equal(fl_cmp_snaps_build(&p, ga, gb, 0.05, err, sizeof(err)), 0);
	k = rank_of(&p, "cpu", 0);
	assert_true(k && k->t.p == 1 && k->t.prob == 0.5 && !k->significant);
	k = rank_of(&p, "cpu", 2);
	assert_true(k && k->t.u == 10000 && k->t.prob == 1 && k->significant);
	/* 4000 ns: bucket [3840, 4096), its midpoint 3967 clamped up to the min */
	assert_true(k->p50[0] == 1000 && k->p50[1] == 4000 && k->p99[1] == 4000);
	assert_true(fabs(k->t.z - 14.105325) < 1e-6);
	assert_null(rank_of(&p, "cpu", 1));	/* no events on either side */
	k = rank_of(&p, "llc", 0);
	assert_true(k && k->t.p == 1 && k->t.n[0] == 100);
	k = rank_of(&p, "llc", 1);
	assert_true(k && k->t.u == 10000 && fabs(k->t.z - 14.105325) < 1e-6);
	assert_null(rank_of(&p, "node", 0));
	assert_false(has_note(&p, "fault latency per"));
	fl_cmp_snaps_free(&p);
	t = run_out("text", ga, gb, NULL);
	norm(t);
	assert_non_null(strstr(t, "\nfault_latency llc1 | 100 | 100 | 1000 | 4000 | 1000 | 4000 | "
				  "1.000 | 14.11 | *"));
	free(t);
}

/*
 * Two small known histograms, 2 CPUs a side, fault latency only:
 *   A: CPU 0 3 x 1000 ns, CPU 1 1 x 4000 ns (4 events);
 *   B: CPU 0 1 x 1000, 2 x 2000, CPU 1 3 x 4000 (6 events).
 * The buckets (8 per power of two): 1000 is in [960, 1024) (1000 >> 6 =
 * 15, 15 << 6 = 960, 64 wide), 2000 in [1920, 2048), 4000 in [3840, 4096).
 * Whole recording: A 3, 0, 1 of 4 = 75.0%, 0.0%, 25.0%; B 1, 2, 3 of 6 =
 * 16.7%, 33.3%, 50.0%.  CPU 0: A 3, 0 of 3 = 100.0%, 0.0%; B 1, 2 of 3 =
 * 33.3%, 66.7%.  CPU 1: 1 of 1 and 3 of 3, 100.0% each, in [3840, 4096)
 * only.
 */
static void write_hist(const char *path, const unsigned int n[2][3])
{
	static const unsigned long long lat[3] = { 1000, 2000, 4000 };
	struct fl_snapshot s;
	char err[256];

	snap_612(&s, 2);
	for (int c = 0; c < 2; c++) {
		s.cpu_online[c] = 1;
		for (int v = 0; v < 3; v++)
			for (unsigned int k = 0; k < n[c][v]; k++)
				fl_hist_add(&s.cpus[c].hist[FL_H_FAULT_LAT], lat[v]);
	}
	assert_int_equal(fl_snapshot_write_file(path, &s, err, sizeof(err)), 0);
	fl_snapshot_free(&s);
}

/*
 * Buckets whose sum passes 2^64 (counts in a corrupt snapshot): CPU 0 has
 * 3 * 2^62 events in each of two buckets, so the row's total is 1.5 * 2^64
 * as a double.  The shares are 50.0% each, computed without converting the
 * total to an integer (the fuzzer's UBSan report: a double outside
 * unsigned long long, compare_snaps_render.c).
 */
static void test_hist_huge(void **state)
{
	char a[300], b[300], err[256], *t;
	struct fl_snapshot s;

	(void)state;
	snprintf(a, sizeof(a), "%s/huge-a.snap", tmpdir);
	snprintf(b, sizeof(b), "%s/huge-b.snap", tmpdir);
	for (int f = 0; f < 2; f++) {
		struct fl_hist *h;

		snap_612(&s, 2);
		s.cpu_online[0] = s.cpu_online[1] = 1;
		h = &s.cpus[0].hist[FL_H_FAULT_LAT];
		fl_hist_add(h, 1000);
		fl_hist_add(h, 4000);
		h->buckets[fl_hist_bucket(1000)] = 3ULL << 62;
		h->buckets[fl_hist_bucket(4000)] = 3ULL << 62;
		h->count = ~0ULL;
		assert_int_equal(fl_snapshot_write_file(f ? b : a, &s, err, sizeof(err)), 0);
		fl_snapshot_free(&s);
	}
	t = run_args("text", (const char *[]){ "--hist", a, b, NULL });
	norm(t);
	assert_non_null(strstr(t, "\n960 -> 1023 | 13835058055282163712 | 13835058055282163712 | 50.0% | 50.0%\n"
				  "3840 -> 4095 | 13835058055282163712 | 13835058055282163712 | 50.0% | 50.0%\n"));
	free(t);
}

static void test_hist(void **state)
{
	const struct fl_csn_rank *k;
	struct fl_cmp_snaps p;
	char err[256], *t, *at;
	unsigned int n = 0;

	(void)state;
	/* the model: each rank row keeps the two histograms it tested */
	assert_int_equal(fl_cmp_snaps_build(&p, ha, hb, 0.05, err, sizeof(err)), 0);
	assert_null(p.rank[0].by);
	assert_int_equal(fl_hist_lower(fl_hist_bucket(1000)), 960);
	assert_int_equal(fl_hist_upper(fl_hist_bucket(1000)), 1024);
	assert_int_equal(fl_hist_upper(fl_hist_bucket(4000)), 4096);
	assert_true(p.rank[0].h[0].buckets[fl_hist_bucket(1000)] == 3 &&
		    p.rank[0].h[0].buckets[fl_hist_bucket(4000)] == 1 &&
		    p.rank[0].h[0].count == 4 && p.rank[0].h[1].count == 6);
	assert_true(p.rank[0].h[1].buckets[fl_hist_bucket(2000)] == 2);
	k = rank_of(&p, "cpu", 1);
	assert_true(k && k->h[0].count == 1 && k->h[1].count == 3 &&
		    k->h[1].buckets[fl_hist_bucket(4000)] == 3);
	fl_cmp_snaps_free(&p);

	/* text: a table per rank row, after the rank test */
	t = run_args("text", (const char *[]){ "--hist", ha, hb, NULL });
	norm(t);
	at = strstr(t, "\n[*] HISTOGRAMS (per bucket: each side's events in it and their share "
		       "of the side's)\n\nfault_latency (n: A 4, B 6)\n"
		       "NSECS | A | B | A SHARE | B SHARE\n");
	assert_non_null(at);
	assert_true(strstr(t, "[*] RANK TEST") < at);
	assert_non_null(strstr(at, "\n960 -> 1023 | 3 | 1 | 75.0% | 16.7%\n"
				   "1920 -> 2047 | 0 | 2 | 0.0% | 33.3%\n"
				   "3840 -> 4095 | 1 | 3 | 25.0% | 50.0%\n\n"
				   "fault_latency cpu0 (n: A 3, B 3)\n"));
	assert_non_null(strstr(at, "\n960 -> 1023 | 3 | 1 | 100.0% | 33.3%\n"
				   "1920 -> 2047 | 0 | 2 | 0.0% | 66.7%\n\n"
				   "fault_latency cpu1 (n: A 1, B 3)\n"));
	/* a bucket empty on both sides is no line */
	assert_non_null(strstr(at, "\n3840 -> 4095 | 1 | 3 | 100.0% | 100.0%\n\n[*] BLAME\n"));
	free(t);

	/* markdown: one table */
	t = run_args("markdown", (const char *[]){ "--hist", ha, hb, NULL });
	assert_non_null(strstr(t, "\n\nHistograms, per bucket: each side's events in it and their "
				  "share of the side's:\n\n| histogram | bucket (ns) | A | B | "
				  "A share | B share |\n|---|---|---:|---:|---:|---:|\n"
				  "| fault_latency | 960 -> 1023 | 3 | 1 | 75.0% | 16.7% |\n"
				  "| fault_latency | 1920 -> 2047 | 0 | 2 | 0.0% | 33.3% |\n"
				  "| fault_latency | 3840 -> 4095 | 1 | 3 | 25.0% | 50.0% |\n"
				  "| fault_latency cpu0 | 960 -> 1023 | 3 | 1 | 100.0% | 33.3% |\n"
				  "| fault_latency cpu0 | 1920 -> 2047 | 0 | 2 | 0.0% | 66.7% |\n"
				  "| fault_latency cpu1 | 3840 -> 4095 | 1 | 3 | 100.0% | 100.0% |\n"
				  "\nBlame:\n"));
	free(t);

	/* csv: a hist_bucket row per bucket, [lo, hi) in ns */
	t = run_args("csv", (const char *[]){ "--hist", ha, hb, NULL });
	assert_non_null(strstr(t, "\nhist_bucket,fault_latency,events,3,1,,,,,,,,,\"[960,1024)\",,,,,\n"
				  "hist_bucket,fault_latency,events,0,2,,,,,,,,,\"[1920,2048)\",,,,,\n"
				  "hist_bucket,fault_latency,events,1,3,,,,,,,,,\"[3840,4096)\",,,,,\n"
				  "hist_bucket,fault_latency/cpu0,events,3,1,,,,,,,,,\"[960,1024)\",,,,,\n"
				  "hist_bucket,fault_latency/cpu0,events,0,2,,,,,,,,,\"[1920,2048)\",,,,,\n"
				  "hist_bucket,fault_latency/cpu1,events,1,3,,,,,,,,,\"[3840,4096)\",,,,,\n"
				  "blame,explain,"));
	free(t);

	/* json: always, per compared rank row, [lo_ns, hi_ns) */
	t = run_args("json", (const char *[]){ ha, hb, NULL });
	assert_non_null(strstr(t, ",\"buckets\":[{\"lo_ns\":960,\"hi_ns\":1024,\"a\":3,\"b\":1},"
				  "{\"lo_ns\":1920,\"hi_ns\":2048,\"a\":0,\"b\":2},"
				  "{\"lo_ns\":3840,\"hi_ns\":4096,\"a\":1,\"b\":3}]}"));
	at = strstr(t, "\"by\":\"cpu\",\"group\":1,");
	assert_non_null(at);
	assert_non_null(strstr(at, "\"buckets\":[{\"lo_ns\":3840,\"hi_ns\":4096,\"a\":1,\"b\":3}]}"));
	for (at = t; (at = strstr(at, "\"buckets\"")); at++)
		n++;
	assert_int_equal(n, 3);		/* the rows not compared have none */
	free(t);

	/* without --hist: no bucket lines in the other three */
	t = run_args("text", (const char *[]){ ha, hb, NULL });
	assert_null(strstr(t, "HISTOGRAMS"));
	assert_null(strstr(t, "960 -> 1023"));
	free(t);
	t = run_args("markdown", (const char *[]){ ha, hb, NULL });
	assert_null(strstr(t, "bucket (ns)"));
	assert_null(strstr(t, "960 -> 1023"));
	free(t);
	t = run_args("csv", (const char *[]){ ha, hb, NULL });
	assert_null(strstr(t, "hist_bucket"));
	free(t);

	/* several recordings a side, pooled: 10 + 10 at 1000 ns against 10 + 10 at 2000 */
	t = run_args("text", (const char *[]){ "--hist", "-a", da, "-b", db, NULL });
	norm(t);
	assert_non_null(strstr(t, "their events pooled)\n\nfault_latency (n: A 20, B 20)\n"));
	assert_non_null(strstr(t, "\n960 -> 1023 | 20 | 0 | 100.0% | 0.0%\n"
				  "1920 -> 2047 | 0 | 20 | 0.0% | 100.0%\n"));
	free(t);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(pa, sizeof(pa), "%s/a.snap", tmpdir);
	snprintf(pa2, sizeof(pa2), "%s/a2.snap", tmpdir);
	snprintf(pb, sizeof(pb), "%s/b.snap", tmpdir);
	write_a(pa, "6.1.0-test");
	write_a(pa2, "6.1.0-test");
	write_b(pb);
	snprintf(ga, sizeof(ga), "%s/ga.snap", tmpdir);
	snprintf(gb, sizeof(gb), "%s/gb.snap", tmpdir);
	write_topo(ga, 1000);
	write_topo(gb, 4000);
	snprintf(ha, sizeof(ha), "%s/ha.snap", tmpdir);
	snprintf(hb, sizeof(hb), "%s/hb.snap", tmpdir);
	write_hist(ha, (const unsigned int[2][3]){ { 3, 0, 0 }, { 0, 0, 1 } });
	write_hist(hb, (const unsigned int[2][3]){ { 1, 2, 0 }, { 0, 0, 3 } });
	snprintf(da, sizeof(da), "%s/base", tmpdir);
	snprintf(db, sizeof(db), "%s/spf", tmpdir);
	if (mkdir(da, 0755) || mkdir(db, 0755))
		return -1;
	{
		char f[400];

		snprintf(f, sizeof(f), "%s/run1.snap", da);
		write_rec(f, "#1 SMP base", 100, 1000);
		snprintf(f, sizeof(f), "%s/run2.snap", da);
		write_rec(f, "#1 SMP base", 102, 1000);
		snprintf(f, sizeof(f), "%s/run1.snap", db);
		write_rec(f, "#7 SMP spf", 200, 2000);
		snprintf(f, sizeof(f), "%s/run2.snap", db);
		write_rec(f, "#7 SMP spf", 204, 2000);
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	if (getenv("FL_KEEP"))
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_by_hand),
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json_csv_md),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_multi),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_hist_huge),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
