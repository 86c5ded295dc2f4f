// SPDX-License-Identifier: GPL-2.0
/*
 * user/phases_report.c: the phase / lock-class sections survive a snapshot
 * round trip, malformed sections are refused, and the report tables show
 * the figures (and "unavailable", never 0, for what was not measured).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "phases.h"

#define NCPU 4

static void add_sec(struct fl_snapshot *s, unsigned int type, unsigned int count,
		    const void *data, size_t size)
{
	assert_int_equal(fl_snapshot_add_section(s, type, count, data, size), 0);
}

/* CPU c: 100*(c+1) faults of 1000 ns: alloc 400, rest 300, lockless 100. */
static void make_snapshot(struct fl_snapshot *s, bool with_locks)
{
	static struct fl_phase_stats ps[NCPU];
	static struct fl_lock_stats ls[NCPU];
	struct fl_lock_caller lc[2] = { { "vma_modify", 3, 3000 }, { "0xffffffff81000000", 1, 10 } };
	unsigned int c, i;

	memset(s, 0, sizeof(*s));
	assert_int_equal(fl_snapshot_alloc_cpus(s, NCPU), 0);
	s->hdr.magic = FL_SNAP_MAGIC;
	s->hdr.version = FL_SNAP_VERSION;
	s->hdr.header_size = sizeof(s->hdr);
	memset(ps, 0, sizeof(ps));
	memset(ls, 0, sizeof(ls));
	for (c = 0; c < NCPU; c++) {
		for (i = 0; i < 100 * (c + 1); i++) {
			ps[c].faults++;
			ps[c].lat_sum += 1000;
			ps[c].unattributed_sum += 200;
			fl_hist_add(&ps[c].hist[FL_PH_ALLOC], 400);
			fl_hist_add(&ps[c].hist[FL_PH_REST], 300);
			fl_hist_add(&ps[c].hist[FL_PH_LOCKLESS], 100);
		}
		ls[c].count[FL_LK_MMAP_W] = 10;
		fl_hist_add(&ls[c].wait[FL_LK_MMAP_W], 5000);
		ls[c].count[FL_LK_ZONE] = 1;
		fl_hist_add(&ls[c].wait[FL_LK_ZONE], 700);
	}
	add_sec(s, FL_SEC_PHASES, NCPU, ps, sizeof(ps));
	if (with_locks) {
		add_sec(s, FL_SEC_LOCKS, NCPU, ls, sizeof(ls));
		add_sec(s, FL_SEC_LOCK_CALLERS, 2, lc, sizeof(lc));
	}
	assert_int_equal(fl_snapshot_set_tag(s, "phases", "fentry"), 0);
	assert_int_equal(fl_snapshot_set_tag(s, "phases.unavailable",
		"zero (no traceable hook in this kernel); ptl (no lock:contention tracepoints)"), 0);
	assert_int_equal(fl_snapshot_set_tag(s, "locks", "tracepoint"), 0);
}

static char *report(const struct fl_snapshot *s, bool locks, const struct fl_phases_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (locks)
		assert_int_equal(fl_report_locks(s, f, o), 0);
	else
		assert_int_equal(fl_report_phases(s, f, o), 0);
	fclose(f);
	return buf;
}

static void test_round_trip(void **state)
{
	struct fl_snapshot s, r;
	const struct fl_phase_stats *ps;
	const struct fl_lock_stats *ls;
	const struct fl_lock_caller *lc;
	struct fl_phase_stats t;
	unsigned int nr;
	void *buf;
	size_t len;
	char err[128];

	(void)state;
	make_snapshot(&s, true);
	assert_int_equal(fl_snapshot_serialize(&s, &buf, &len), 0);
	assert_int_equal(fl_snapshot_parse(buf, len, &r, err, sizeof(err)), 0);
	ps = fl_snapshot_phases(&r, &nr);
	assert_non_null(ps);
	assert_int_equal(nr, NCPU);
	fl_phase_stats_sum(ps, nr, NULL, 0, &t);
	assert_int_equal(t.faults, 1000);
	assert_int_equal(t.hist[FL_PH_ALLOC].sum, 400000);
	ls = fl_snapshot_locks(&r, &nr);
	assert_non_null(ls);
	lc = fl_snapshot_lock_callers(&r, &nr);
	assert_non_null(lc);
	assert_int_equal(nr, 2);
	assert_string_equal(lc[0].sym, "vma_modify");
	assert_string_equal(fl_snapshot_tag(&r, "phases"), "fentry");
	free(buf);
	fl_snapshot_free(&r);
	fl_snapshot_free(&s);
}

static char *raw(const struct fl_snapshot *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fl_report_phases_raw(s, f), 0);
	fclose(f);
	return buf;
}

/*
 * A snapshot written before the file-fault phases (FL_PH_NR_V1 histograms
 * per CPU) still reads: its figures are kept, and the file phases are named
 * unavailable (not recorded), never 0.
 */
static void test_old_layout_widened(void **state)
{
	struct fl_snapshot s, r;
	const struct fl_phase_stats *ps;
	struct fl_phase_stats t;
	unsigned char *old;
	unsigned int nr, c, p;
	void *buf;
	size_t len;
	char err[128], *out;

	(void)state;
	make_snapshot(&s, false);
	assert_int_equal(s.extra[0].sec.type, FL_SEC_PHASES);
	old = calloc(NCPU, FL_PHASE_STATS_V1_SIZE);
	assert_non_null(old);
	for (c = 0; c < NCPU; c++)
		memcpy(old + c * FL_PHASE_STATS_V1_SIZE,
		       (struct fl_phase_stats *)s.extra[0].data + c, FL_PHASE_STATS_V1_SIZE);
	free(s.extra[0].data);
	s.extra[0].data = old;
	s.extra[0].sec.size = NCPU * FL_PHASE_STATS_V1_SIZE;
	assert_int_equal(fl_snapshot_serialize(&s, &buf, &len), 0);
	assert_int_equal(fl_snapshot_parse(buf, len, &r, err, sizeof(err)), 0);
	ps = fl_snapshot_phases(&r, &nr);
	assert_non_null(ps);
	assert_int_equal(nr, NCPU);
	fl_phase_stats_sum(ps, nr, NULL, 0, &t);
	assert_int_equal(t.faults, 1000);
	assert_int_equal(t.hist[FL_PH_ALLOC].sum, 400000);
	assert_int_equal(t.hist[FL_PH_REST].count, 1000);
	for (p = FL_PH_NR_V1; p < FL_PH_NR; p++)
		assert_int_equal(t.hist[p].count, 0);
	assert_string_equal(fl_snapshot_tag(&r, "phases.unavailable"),
		"zero (no traceable hook in this kernel); ptl (no lock:contention tracepoints); "
		"pagecache (not recorded: snapshot written before the file-fault phases); "
		"read (not recorded: snapshot written before the file-fault phases); "
		"around (not recorded: snapshot written before the file-fault phases); "
		"cow_copy (not recorded: snapshot written before the file-fault phases)");
	out = raw(&r);
	assert_non_null(strstr(out, "\nphase.read=unavailable (not recorded: snapshot written "
				    "before the file-fault phases)\n"));
	assert_null(strstr(out, "phase.cow_copy.count"));
	assert_non_null(strstr(out, "\nphase.alloc.count=1000\n"));
	free(out);
	free(buf);
	/* written again, it is today's layout and reads back the same */
	assert_int_equal(fl_snapshot_serialize(&r, &buf, &len), 0);
	fl_snapshot_free(&r);
	assert_int_equal(fl_snapshot_parse(buf, len, &r, err, sizeof(err)), 0);
	assert_int_equal(r.extra[0].sec.size, NCPU * sizeof(struct fl_phase_stats));
	assert_non_null(strstr(fl_snapshot_tag(&r, "phases.unavailable"), "; cow_copy (not recorded"));
	assert_null(strstr(strstr(fl_snapshot_tag(&r, "phases.unavailable"), "; cow_copy"), "; pagecache"));
	free(buf);
	fl_snapshot_free(&r);
	fl_snapshot_free(&s);
}

static void test_malformed_refused(void **state)
{
	struct fl_snapshot s;
	unsigned int nr = 99;

	(void)state;
	make_snapshot(&s, false);
	s.extra[0].sec.count = NCPU + 1;	/* size no longer count * element */
	assert_null(fl_snapshot_phases(&s, &nr));
	assert_int_equal(nr, 0);
	assert_null(fl_snapshot_locks(&s, &nr));
	fl_snapshot_free(&s);
}

static void test_phase_table(void **state)
{
	struct fl_snapshot s;
	char *out;

	(void)state;
	make_snapshot(&s, false);
	out = report(&s, false, NULL);
	/* per-CPU rows, means per fault, unavailable phases as n/a, not 0 */
	assert_non_null(strstr(out, "cpu3"));
	assert_non_null(strstr(out, "total         1000      1000       100         0       400       n/a"));
	assert_non_null(strstr(out, "zero       unavailable"));
	assert_non_null(strstr(out, "ptl        unavailable"));
	assert_non_null(strstr(out, "alloc           1000    40.0%"));
	assert_non_null(strstr(out, "unattributed share: 20.0% of 1000000 ns total fault latency; overrun: 0"));
	free(out);
	fl_snapshot_free(&s);
}

static void test_grouped_rows(void **state)
{
	struct fl_snapshot s;
	int group[NCPU] = { 0, 0, 1, 1 };
	struct fl_phases_report_opts o = { .group = group, .group_len = NCPU, .nr_groups = 2,
					    .group_label = "node" };
	char *out;

	(void)state;
	make_snapshot(&s, true);
	out = report(&s, false, &o);
	assert_non_null(strstr(out, "node0          300"));	/* CPUs 0+1: 100+200 faults */
	assert_non_null(strstr(out, "node1          700"));
	assert_null(strstr(out, "cpu0"));
	free(out);
	out = report(&s, true, &o);
	assert_non_null(strstr(out, "node1"));
	free(out);
	fl_snapshot_free(&s);
}

static void test_lock_table(void **state)
{
	struct fl_snapshot s;
	const struct fl_lock_stats *ls;
	struct fl_lock_stats t;
	unsigned int nr;
	char *out;

	(void)state;
	make_snapshot(&s, true);
	ls = fl_snapshot_locks(&s, &nr);
	fl_lock_stats_sum(ls, nr, NULL, 0, &t);
	assert_int_equal(fl_lock_dominant(&t), FL_LK_MMAP_W);
	out = report(&s, true, NULL);
	assert_non_null(strstr(out, "dominant: mmap_w"));
	assert_non_null(strstr(out, "vma_modify"));
	assert_non_null(strstr(out, "mmap_w          40        20000"));
	assert_null(strstr(out, "vma      unavailable"));
	free(out);
	/* a vm_refcnt kernel: the vma class is unavailable, never 0 */
	assert_true(fl_lock_class_avail(&s, FL_LK_VMA, NULL, 0));
	assert_int_equal(fl_snapshot_set_tag(&s, "locks.unavailable",
		"vma (a vm_refcnt kernel (6.15+): no lock to contend)"), 0);
	out = report(&s, true, NULL);
	assert_non_null(strstr(out, "\nvma      unavailable (a vm_refcnt kernel (6.15+): no lock to contend)\n"));
	assert_non_null(strstr(out, "mmap_w          40        20000"));
	free(out);
	out = raw(&s);
	assert_non_null(strstr(out, "\nlock.vma.count=unavailable (a vm_refcnt kernel"));
	assert_non_null(strstr(out, "\nlock.mmap_w.count=40\n"));
	free(out);
	{
		struct fl_phases_summary m;
		char why[160];

		fl_phases_summarize(&s, NULL, 0, &m);
		assert_false(m.lock_avail[FL_LK_VMA]);
		assert_true(m.lock_avail[FL_LK_MMAP_W]);
		assert_false(fl_lock_class_avail(&s, FL_LK_VMA, why, sizeof(why)));
		assert_string_equal(why, "unavailable (a vm_refcnt kernel (6.15+): no lock to contend)");
		/* "vma" inside another class's reason does not list it */
		assert_int_equal(fl_snapshot_replace_tag(&s, "locks.unavailable", "ptl (no vma here)"), 0);
		assert_true(fl_lock_class_avail(&s, FL_LK_VMA, why, sizeof(why)));
		assert_false(fl_lock_class_avail(&s, FL_LK_PTL, NULL, 0));
	}
	fl_snapshot_free(&s);
}

static void test_absent_sections_unavailable(void **state)
{
	struct fl_snapshot s;
	struct fl_lock_stats none = {0};
	char *out;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_snapshot_set_tag(&s, "phases",
		"unavailable (fentry programs refused by this kernel)"), 0);
	out = report(&s, false, NULL);
	assert_string_equal(out, "phases: unavailable (fentry programs refused by this kernel)\n");
	free(out);
	out = report(&s, true, NULL);
	assert_non_null(strstr(out, "locks: unavailable (not recorded"));
	free(out);
	assert_int_equal(fl_lock_dominant(&none), FL_LK_NR);
	assert_string_equal(fl_phase_name(FL_PH_MMAP_WAIT), "mmap_wait");
	assert_string_equal(fl_lock_class_name(FL_LK_OTHER), "other");
	fl_snapshot_free(&s);
}

/* `report --raw` keys: sums of the CPUs, unavailable phases with their reason */
static void test_raw_keys(void **state)
{
	struct fl_snapshot s;
	char *out;

	(void)state;
	make_snapshot(&s, true);
	out = raw(&s);
	assert_non_null(strstr(out, "phases=fentry\n"));
	assert_non_null(strstr(out, "\nphases.faults=1000\nphases.lat_sum_ns=1000000\n"
				    "phases.unattributed_sum_ns=200000\nphases.overrun=0\n"
				    "phases.unattributed_pct=20.0\n"));
	assert_non_null(strstr(out, "\nphase.alloc.count=1000\nphase.alloc.sum_ns=400000\n"
				    "phase.alloc.mean_ns=400.0\nphase.alloc.share_pct=40.0\n"));
	assert_non_null(strstr(out, "\nphase.zero=unavailable (no traceable hook in this kernel)\n"));
	assert_non_null(strstr(out, "\nphase.ptl=unavailable (no lock:contention tracepoints)\n"));
	assert_null(strstr(out, "phase.zero.count"));
	/* a phase no fault went through is a measured 0, not unavailable */
	assert_non_null(strstr(out, "\nphase.memcg.count=0\nphase.memcg.sum_ns=0\n"
				    "phase.memcg.mean_ns=0.0\n"));
	assert_non_null(strstr(out, "\nlocks=tracepoint\n"));
	assert_non_null(strstr(out, "\nlock.mmap_w.count=40\nlock.mmap_w.wait_ns=20000\n"));
	assert_non_null(strstr(out, "\nlocks.wait_ns=22800\nlocks.dominant=mmap_w\n"
				    "locks.dominant_pct=87.7\n"));
	assert_non_null(strstr(out, "\nlocks.callers=other\nlocks.callers.count=2\n"
				    "locks.caller.0=vma_modify 3 3000\n"));
	free(out);
	fl_snapshot_free(&s);
	/* not recorded: said, with no figures */
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_snapshot_alloc_cpus(&s, NCPU), 0);
	out = raw(&s);
	assert_string_equal(out, "phases=unavailable (not recorded; use record --phases)\n"
				 "locks=unavailable (not recorded; use record --locks)\n");
	free(out);
	assert_int_equal(fl_snapshot_set_tag(&s, "phases", "unavailable (fentry programs refused)"), 0);
	out = raw(&s);
	assert_non_null(strstr(out, "phases=unavailable (fentry programs refused)\n"));
	free(out);
	fl_snapshot_free(&s);
}

static void test_summary_and_explain(void **state)
{
	struct fl_snapshot sa, sb;
	struct fl_phases_summary a, b;
	struct fl_phase_stats *ps;
	struct fl_lock_stats *ls;
	unsigned int nr, c, k;
	double sum = 0;
	char buf[512];

	(void)state;
	make_snapshot(&sa, true);
	make_snapshot(&sb, true);
	/* B: +600 ns of alloc and +200 ns unattributed per fault on every CPU;
	 * its lock wait is mostly zone */
	ps = (struct fl_phase_stats *)fl_snapshot_phases(&sb, &nr);
	ls = (struct fl_lock_stats *)fl_snapshot_locks(&sb, &nr);
	for (c = 0; c < nr; c++) {
		ps[c].hist[FL_PH_ALLOC].sum += 600 * ps[c].faults;
		ps[c].unattributed_sum += 200 * ps[c].faults;
		ps[c].lat_sum += 800 * ps[c].faults;
		fl_hist_add(&ls[c].wait[FL_LK_ZONE], 100000);
		ls[c].count[FL_LK_ZONE]++;
	}
	fl_phases_summarize(&sa, NULL, 0, &a);
	fl_phases_summarize(&sb, NULL, 0, &b);
	assert_true(a.phases && a.locks);
	assert_int_equal(a.faults, 1000);
	assert_false(a.phase_avail[FL_PH_ZERO]);	/* from the tag: unavailable */
	assert_true(a.phase_avail[FL_PH_ALLOC]);
	for (k = 0; k < FL_PH_NR; k++)
		sum += a.phase_mean[k];
	assert_true(sum + a.unattributed_mean > a.lat_mean - 1e-6 &&
		    sum + a.unattributed_mean < a.lat_mean + 1e-6);

	assert_int_equal(fl_phases_explain(&a, &b, "at 2 threads", buf, sizeof(buf)), FL_PH_ALLOC);
	assert_string_equal(buf, "75% of the added latency in B (+800 ns per fault) at 2 threads "
			    "is alloc; lock wait in B is mostly zone (95%, was 12% in A)");
	/* the other way round: not slower, the largest change is named */
	assert_int_equal(fl_phases_explain(&b, &a, NULL, buf, sizeof(buf)), FL_PH_ALLOC);
	assert_non_null(strstr(buf, "B is not slower (-800 ns per fault); the largest change is alloc (-600 ns)"));
	/* node grouping */
	{
		int group[NCPU] = { 0, 0, 1, 1 };

		fl_phases_summarize(&sa, group, 1, &a);
		assert_int_equal(a.faults, 700);
	}
	fl_snapshot_free(&sb);
	memset(&sb, 0, sizeof(sb));
	fl_phases_summarize(&sb, NULL, 0, &b);
	assert_false(b.phases);
	assert_int_equal(fl_phases_explain(&a, &b, NULL, buf, sizeof(buf)), -1);
	assert_string_equal(buf, "phases: not recorded in B");
	fl_snapshot_free(&sa);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_old_layout_widened),
		cmocka_unit_test(test_malformed_refused),
		cmocka_unit_test(test_phase_table),
		cmocka_unit_test(test_grouped_rows),
		cmocka_unit_test(test_lock_table),
		cmocka_unit_test(test_absent_sections_unavailable),
		cmocka_unit_test(test_raw_keys),
		cmocka_unit_test(test_summary_and_explain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
