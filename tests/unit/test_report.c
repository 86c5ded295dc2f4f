// SPDX-License-Identifier: GPL-2.0
/*
 * report's building blocks: which figures a snapshot can show and why not
 * (user/report_common.c), merging interval snapshots and loading FILE|DIR
 * (user/snapshot_merge.c), the bcc-style histogram rows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "report_common.h"
#include "selfcost.h"

#define H(x) (1ULL << (x))
#define ALL_TP (H(FL_HOOK_PF_USER) | H(FL_HOOK_PF_KERNEL) | H(FL_HOOK_MMAP_START) | \
		H(FL_HOOK_MMAP_ACQUIRED) | H(FL_HOOK_MMAP_RELEASED) | \
		H(FL_HOOK_CONTENTION_BEGIN) | H(FL_HOOK_CONTENTION_END))

static void mk(struct fl_snapshot *s, unsigned int tier, unsigned int kind,
	       unsigned long long live, unsigned long long absent)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(fl_snapshot_alloc_cpus(s, 2), 0);
	s->hdr.backend = FL_BACKEND_BPF;
	s->hdr.tier = tier;
	s->hdr.lockless_kind = kind;
	s->hdr.hooks_live = live;
	s->hdr.hooks_absent = absent;
	snprintf(s->hdr.kernel_release, sizeof(s->hdr.kernel_release), "6.12.0-test");
}

static void test_avail_fentry_vma(void **state)
{
	struct fl_snapshot s;
	const char *why;

	(void)state;
	mk(&s, FL_TIER_FENTRY, FL_LL_KIND_VMA_LOCK,
	   ALL_TP | H(FL_HOOK_HMF) | H(FL_HOOK_LOCK_VMA), H(FL_HOOK_DO_HMF));
	for (int f = 0; f < FL_FIG_VMSTAT; f++) {
		assert_int_equal(fl_figure_avail(&s, f, &why), FL_AVAIL_YES);
		assert_null(why);
	}
	/* no vmstat section */
	assert_int_equal(fl_figure_avail(&s, FL_FIG_VMSTAT, &why), FL_AVAIL_UNAVAILABLE);
	assert_non_null(why);
	fl_snapshot_free(&s);
}

static void test_avail_tracepoint(void **state)
{
	struct fl_snapshot s;
	const char *why;
	char buf[256];

	(void)state;
	mk(&s, FL_TIER_TRACEPOINT, FL_LL_KIND_VMA_LOCK, ALL_TP, H(FL_HOOK_DO_HMF));
	assert_int_equal(fl_figure_avail(&s, FL_FIG_FAULTS, &why), FL_AVAIL_YES);
	assert_int_equal(fl_figure_avail(&s, FL_FIG_MMAP, &why), FL_AVAIL_YES);
	assert_int_equal(fl_figure_avail(&s, FL_FIG_CONTENTION, &why), FL_AVAIL_YES);
	assert_int_equal(fl_figure_avail(&s, FL_FIG_LATENCY, &why), FL_AVAIL_UNAVAILABLE);
	assert_non_null(strstr(why, "tracepoint tier"));
	assert_int_equal(fl_figure_avail(&s, FL_FIG_HMF, &why), FL_AVAIL_UNAVAILABLE);
	assert_int_equal(fl_figure_avail(&s, FL_FIG_LOCKLESS, &why), FL_AVAIL_UNAVAILABLE);
	assert_non_null(strstr(why, "tracepoint tier"));
	fl_fmt_unavail(buf, sizeof(buf), FL_AVAIL_UNAVAILABLE, why);
	assert_true(!strncmp(buf, "unavailable (tracepoint tier", 28));
	fl_snapshot_free(&s);
}

static void test_avail_no_lockless_and_missing_hooks(void **state)
{
	struct fl_snapshot s;
	const char *why;
	char buf[256];

	(void)state;
	/* 6.1: no lockless path is "absent", not unavailable and never 0 */
	mk(&s, FL_TIER_FENTRY, FL_LL_KIND_NONE, ALL_TP | H(FL_HOOK_HMF),
	   H(FL_HOOK_DO_HMF) | H(FL_HOOK_LOCK_VMA));
	assert_int_equal(fl_figure_avail(&s, FL_FIG_LOCKLESS, &why), FL_AVAIL_ABSENT);
	fl_fmt_unavail(buf, sizeof(buf), FL_AVAIL_ABSENT, why);
	assert_true(!strncmp(buf, "absent (", 8));
	assert_int_equal(fl_figure_avail(&s, FL_FIG_LATENCY, &why), FL_AVAIL_YES);
	fl_snapshot_free(&s);

	/* a kernel without the mmap_lock / contention tracepoints */
	mk(&s, FL_TIER_FENTRY, FL_LL_KIND_NONE,
	   H(FL_HOOK_PF_USER) | H(FL_HOOK_HMF),
	   H(FL_HOOK_MMAP_START) | H(FL_HOOK_MMAP_ACQUIRED) | H(FL_HOOK_MMAP_RELEASED) |
	   H(FL_HOOK_CONTENTION_BEGIN) | H(FL_HOOK_CONTENTION_END));
	assert_int_equal(fl_figure_avail(&s, FL_FIG_MMAP, &why), FL_AVAIL_UNAVAILABLE);
	assert_non_null(strstr(why, "no mmap_lock tracepoints"));
	assert_int_equal(fl_figure_avail(&s, FL_FIG_CONTENTION, &why), FL_AVAIL_UNAVAILABLE);
	assert_non_null(strstr(why, "contention"));
	fl_snapshot_free(&s);

	/* SPF kernel: needs the SPF entry point live */
	mk(&s, FL_TIER_KPROBE, FL_LL_KIND_SPF, ALL_TP | H(FL_HOOK_DO_HMF), H(FL_HOOK_LOCK_VMA));
	assert_int_equal(fl_figure_avail(&s, FL_FIG_LOCKLESS, &why), FL_AVAIL_YES);
	assert_int_equal(fl_figure_avail(&s, FL_FIG_LATENCY, &why), FL_AVAIL_YES);
	s.hdr.hooks_live &= ~H(FL_HOOK_DO_HMF);
	assert_int_equal(fl_figure_avail(&s, FL_FIG_LOCKLESS, &why), FL_AVAIL_UNAVAILABLE);
	assert_int_equal(fl_figure_avail(&s, FL_FIG_LATENCY, &why), FL_AVAIL_UNAVAILABLE);
	fl_snapshot_free(&s);

	/* the kernel has a lockless path faultline cannot hook */
	mk(&s, FL_TIER_FENTRY, FL_LL_KIND_UNKNOWN, ALL_TP | H(FL_HOOK_HMF), 0);
	assert_int_equal(fl_figure_avail(&s, FL_FIG_LOCKLESS, &why), FL_AVAIL_UNAVAILABLE);
	fl_snapshot_free(&s);
}

static void fill(struct fl_snapshot *s, unsigned long long base)
{
	for (unsigned int c = 0; c < 2; c++) {
		s->cpus[c].cnt[FL_C_FAULTS_USER] = base + c;
		s->cpus[c].ll[FL_LL_ATTEMPTED] = base;
		fl_hist_add(&s->cpus[c].hist[FL_H_FAULT_LAT], base * 100 + c);
	}
	s->hdr.duration_ns = 1000;
	s->hdr.t_start_ns = base;
	s->hdr.t_end_ns = base + 1000;
	s->vmstat = calloc(1, sizeof(*s->vmstat));
	assert_non_null(s->vmstat);
	s->nr_vmstat = 1;
	strcpy(s->vmstat[0].name, "pgfault");
	s->vmstat[0].before = base * 10;
	s->vmstat[0].after = base * 10 + base;
}

static void test_merge(void **state)
{
	struct fl_snapshot a, b, m = { 0 }, bad;
	struct fl_cpu_stats tot;
	char err[256];

	(void)state;
	mk(&a, FL_TIER_FENTRY, FL_LL_KIND_VMA_LOCK, ALL_TP | H(FL_HOOK_HMF), 0);
	mk(&b, FL_TIER_FENTRY, FL_LL_KIND_VMA_LOCK, ALL_TP, 0);
	fill(&a, 10);
	fill(&b, 20);
	assert_int_equal(fl_snapshot_merge(&m, &a, err, sizeof(err)), 0);
	assert_int_equal(fl_snapshot_merge(&m, &b, err, sizeof(err)), 0);
	fl_snapshot_total(&m, &tot);
	assert_int_equal(tot.cnt[FL_C_FAULTS_USER], 10 + 11 + 20 + 21);
	assert_int_equal(tot.ll[FL_LL_ATTEMPTED], 60);
	assert_int_equal(tot.hist[FL_H_FAULT_LAT].count, 4);
	assert_int_equal(tot.hist[FL_H_FAULT_LAT].min, 1000);
	assert_int_equal(tot.hist[FL_H_FAULT_LAT].max, 2001);
	assert_int_equal(m.hdr.duration_ns, 2000);
	assert_int_equal(m.hdr.t_start_ns, 10);
	assert_int_equal(m.hdr.t_end_ns, 1020);
	assert_int_equal(fl_snapshot_vmstat_delta(&m, "pgfault"), 30);
	/* a hook live in only one window is not live for the whole */
	assert_int_equal(m.hdr.hooks_live, ALL_TP);
	/* a snapshot of another recording is refused */
	mk(&bad, FL_TIER_KPROBE, FL_LL_KIND_VMA_LOCK, ALL_TP, 0);
	assert_int_equal(fl_snapshot_merge(&m, &bad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "different recordings"));
	fl_snapshot_free(&bad);
	fl_snapshot_free(&a);
	fl_snapshot_free(&b);
	fl_snapshot_free(&m);
}

/* Interval snapshots recorded with --phases/--locks: their sections add up. */
static void add_sec(struct fl_snapshot *s, unsigned int type, unsigned int count,
		    size_t elem, const void *data)
{
	assert_int_equal(fl_snapshot_add_section(s, type, count, data, count * elem), 0);
}

static void test_merge_phase_sections(void **state)
{
	static struct fl_phase_stats ph[2];
	static struct fl_lock_stats lk[2];
	struct fl_lock_caller ca[2] = { { "__vm_munmap", 3, 300 }, { "vm_mmap_pgoff", 1, 10 } };
	struct fl_lock_caller cb[1] = { { "vm_mmap_pgoff", 2, 20 } };
	struct fl_snapshot a = { 0 }, b = { 0 }, m = { 0 };
	const struct fl_phase_stats *mp;
	const struct fl_lock_stats *ml;
	const struct fl_lock_caller *mc = NULL;
	char err[128];

	(void)state;
	ph[1].faults = 10;
	ph[1].lat_sum = 1000;
	fl_hist_add(&ph[1].hist[FL_PH_ALLOC], 50);
	lk[0].count[FL_LK_MMAP_W] = 4;
	fl_hist_add(&lk[0].wait[FL_LK_MMAP_W], 700);
	assert_int_equal(fl_snapshot_alloc_cpus(&a, 2), 0);
	assert_int_equal(fl_snapshot_alloc_cpus(&b, 2), 0);
	add_sec(&a, FL_SEC_PHASES, 2, sizeof(ph[0]), ph);
	add_sec(&a, FL_SEC_LOCKS, 2, sizeof(lk[0]), lk);
	add_sec(&a, FL_SEC_LOCK_CALLERS, 2, sizeof(ca[0]), ca);
	add_sec(&b, FL_SEC_PHASES, 2, sizeof(ph[0]), ph);
	add_sec(&b, FL_SEC_LOCKS, 2, sizeof(lk[0]), lk);
	add_sec(&b, FL_SEC_LOCK_CALLERS, 1, sizeof(cb[0]), cb);
	assert_int_equal(fl_snapshot_merge(&m, &a, err, sizeof(err)), 0);
	assert_int_equal(fl_snapshot_merge(&m, &b, err, sizeof(err)), 0);
	assert_int_equal(m.nr_extra, 3);
	mp = m.extra[0].data;
	ml = m.extra[1].data;
	assert_int_equal(mp[1].faults, 20);
	assert_int_equal(mp[1].lat_sum, 2000);
	assert_int_equal(mp[1].hist[FL_PH_ALLOC].count, 2);
	assert_int_equal(ml[0].count[FL_LK_MMAP_W], 8);
	assert_int_equal(ml[0].wait[FL_LK_MMAP_W].sum, 1400);
	assert_int_equal(m.extra[2].sec.count, 2);
	mc = m.extra[2].data;
	assert_int_equal(mc[0].count, 3);
	assert_string_equal(mc[1].sym, "vm_mmap_pgoff");
	assert_int_equal(mc[1].count, 3);
	assert_int_equal(mc[1].wait_ns, 30);
	fl_snapshot_free(&a);
	fl_snapshot_free(&b);
	fl_snapshot_free(&m);
}

static void test_load_dir(void **state)
{
	char dir[64], path[128], err[256];
	struct fl_snapshot a, out;
	struct fl_cpu_stats tot;
	unsigned int n;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/fl-test-report.%d", (int)getpid());
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(fl_snapshot_load(dir, &out, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no *.snap"));
	for (unsigned int i = 0; i < 3; i++) {
		mk(&a, FL_TIER_FENTRY, FL_LL_KIND_VMA_LOCK, ALL_TP, 0);
		fill(&a, 10 * (i + 1));
		snprintf(path, sizeof(path), "%s/snap-%04u.snap", dir, i);
		assert_int_equal(fl_snapshot_write_file(path, &a, err, sizeof(err)), 0);
		fl_snapshot_free(&a);
	}
	assert_int_equal(fl_snapshot_load(dir, &out, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	fl_snapshot_total(&out, &tot);
	assert_int_equal(tot.cnt[FL_C_FAULTS_USER], (10 + 11) + (20 + 21) + (30 + 31));
	assert_int_equal(fl_snapshot_vmstat_delta(&out, "pgfault"), 60);
	fl_snapshot_free(&out);
	/* one file */
	snprintf(path, sizeof(path), "%s/snap-0001.snap", dir);
	assert_int_equal(fl_snapshot_load(path, &out, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	fl_snapshot_total(&out, &tot);
	assert_int_equal(tot.cnt[FL_C_FAULTS_USER], 41);
	fl_snapshot_free(&out);
	/* a corrupt file in the directory fails the load, naming it */
	snprintf(path, sizeof(path), "%s/snap-0003.snap", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("garbage", f);
	fclose(f);
	assert_int_equal(fl_snapshot_load(dir, &out, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "snap-0003.snap"));
	for (unsigned int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/snap-%04u.snap", dir, i);
		unlink(path);
	}
	rmdir(dir);
}

static void test_log2_rows(void **state)
{
	struct fl_hist h;
	char *buf = NULL;
	size_t len = 0;
	unsigned long long sum = 0, lo, hi, cnt;
	FILE *f;
	char *line, *save;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (unsigned long long v = 1; v < 5000000; v = v * 3 + 1)
		fl_hist_add(&h, v);
	fl_hist_add(&h, 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	fl_print_log2_hist(f, &h, "t");
	fclose(f);
	/* each row: low -> high : count; rows are powers of two and sum to count */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " %llu -> %llu : %llu", &lo, &hi, &cnt) != 3)
			continue;
		assert_true(hi >= lo);
		assert_true(lo == 0 || (lo & (lo - 1)) == 0);
		sum += cnt;
	}
	assert_int_equal(sum, h.count);
	free(buf);
}

/*
 * record --self-cost: per-program tags of interval windows add up by name,
 * other tags stay, malformed ones are ignored, and the summary divides the
 * run time by the runs and by the faults counted.
 */
static void test_selfcost(void **state)
{
	struct fl_snapshot a, b, m = { 0 };
	struct fl_selfcost_entry e[4];
	struct fl_cpu_stats tot;
	char err[256], *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	mk(&a, FL_TIER_TRACEPOINT, FL_LL_KIND_NONE, ALL_TP, 0);
	mk(&b, FL_TIER_TRACEPOINT, FL_LL_KIND_NONE, ALL_TP, 0);
	fill(&a, 10);
	fill(&b, 20);
	assert_int_equal(fl_snapshot_set_tag(&a, "command", "pft -m 1g"), 0);
	assert_int_equal(fl_selfcost_set(&a, "tp_pf_user", 21, 2100), 0);
	assert_int_equal(fl_selfcost_set(&a, "tp_mmap_rel", 3, 900), 0);
	assert_int_equal(fl_snapshot_set_tag(&b, "bpf_run.junk", "12"), 0);	/* no ns */
	assert_int_equal(fl_snapshot_set_tag(&b, "bpf_run.neg", "-1 5"), 0);
	assert_int_equal(fl_selfcost_set(&b, "tp_pf_user", 41, 6100), 0);
	assert_int_equal(fl_selfcost_set(&b, "tp_fork", 1, 50), 0);
	assert_int_equal(fl_selfcost_list(&b, NULL, 0), 2);
	assert_int_equal(fl_snapshot_merge(&m, &a, err, sizeof(err)), 0);
	assert_int_equal(fl_snapshot_merge(&m, &b, err, sizeof(err)), 0);
	assert_int_equal(fl_selfcost_list(&m, e, 4), 3);
	assert_string_equal(e[0].name, "tp_pf_user");
	assert_int_equal(e[0].runs, 62);
	assert_int_equal(e[0].ns, 8200);
	assert_string_equal(e[1].name, "tp_mmap_rel");
	assert_int_equal(e[1].runs, 3);
	assert_string_equal(e[2].name, "tp_fork");
	assert_int_equal(e[2].ns, 50);
	assert_string_equal(fl_snapshot_tag(&m, "command"), "pft -m 1g");
	assert_int_equal(fl_selfcost_set(&m, "a_name_far_too_long_for_a_bpf_program_0123456789012345678901234567890", 1, 1), -1);

	/* 66 runs, 9150 ns; faults counted: 10+11+20+21 = 62 */
	fl_snapshot_total(&m, &tot);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	fl_print_summary(f, &m, &tot);
	fclose(f);
	assert_non_null(strstr(out, "collector self-cost    0.009 ms in 66 BPF program runs, 139 ns/run; 148 ns per fault counted"));
	assert_non_null(strstr(out, "tp_pf_user                         62 runs      132 ns/run"));
	free(out);
	fl_snapshot_free(&a);
	fl_snapshot_free(&b);
	fl_snapshot_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_avail_fentry_vma),
		cmocka_unit_test(test_avail_tracepoint),
		cmocka_unit_test(test_avail_no_lockless_and_missing_hooks),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_phase_sections),
		cmocka_unit_test(test_selfcost),
		cmocka_unit_test(test_load_dir),
		cmocka_unit_test(test_log2_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
