// SPDX-License-Identifier: GPL-2.0
/* user/invariants.c on snapshots built by driving include/faultline/classify.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <faultline/classify.h>
#include "invariants.h"

static const struct fl_kvals vma = { .ll_kind = FL_LL_KIND_VMA_LOCK, .ll_flag = 1u << 12,
				     .vm_fault_retry = 0x400 };

/* One fault on per-VMA-lock kernel: outcome 0 success, 1 NULL vma, 2 retried. */
static void fault(struct fl_snapshot *s, unsigned int cpu, int outcome, uint64_t t)
{
	struct fl_fault_state st = { 0 };
	struct fl_cpu_stats *cs = &s->cpus[cpu];
	fl_u32 need = 0;
	uint64_t lat;

	fl_ev_fault_start(&st, cs, t, 0);
	fl_ev_lock_vma(&st, cs, outcome != 1);
	if (outcome == 0) {
		lat = fl_ev_hmf_exit(&st, cs, &vma, vma.ll_flag, 0, t + 500, &need);
	} else {
		if (outcome == 2) {
			fl_hist_add(&cs->hist[FL_H_HMF], 100);
			assert_int_equal(fl_ev_hmf_exit(&st, cs, &vma, vma.ll_flag, 0x400, t + 100, &need),
					 0);
		}
		lat = fl_ev_hmf_exit(&st, cs, &vma, 0, 0, t + 900, &need);
	}
	fl_hist_add(&cs->hist[FL_H_HMF], 300);
	assert_true(lat > 0);
	fl_hist_add(&cs->hist[FL_H_FAULT_LAT], lat);
}

static void build(struct fl_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(fl_snapshot_alloc_cpus(s, 2), 0);
	s->hdr.tier = FL_TIER_FENTRY;
	s->hdr.lockless_kind = FL_LL_KIND_VMA_LOCK;
	s->hdr.hooks_live = 1u << FL_HOOK_HMF | 1u << FL_HOOK_LOCK_VMA | 1u << FL_HOOK_PF_USER;
	for (int i = 0; i < 300; i++)
		fault(s, i & 1, i % 3, 1000 * (i + 1));
}

static void test_consistent(void **state)
{
	struct fl_snapshot s;

	(void)state;
	build(&s);
	assert_int_equal(fl_snapshot_check(&s, stderr), 0);
	fl_snapshot_free(&s);
}

static void test_torn_histogram(void **state)
{
	struct fl_snapshot s;

	(void)state;
	build(&s);
	s.cpus[1].hist[FL_H_MMAP_WAIT_R].buckets[40]++;	/* bucket without count */
	assert_int_equal(fl_snapshot_check(&s, NULL), 1);
	fl_snapshot_free(&s);
}

static void test_lost_outcome(void **state)
{
	struct fl_snapshot s;

	(void)state;
	build(&s);
	s.cpus[0].ll[FL_LL_ATTEMPTED]++;	/* an attempt with no outcome */
	assert_int_equal(fl_snapshot_check(&s, NULL), 1);
	s.cpus[0].ll[FL_LL_ATTEMPTED]--;
	s.cpus[1].cnt[FL_C_FAULTS_ENDED]++;	/* ended without a sample */
	assert_true(fl_snapshot_check(&s, NULL) >= 2);
	fl_snapshot_free(&s);
}

static void test_tracepoint_tier_skips_timed_checks(void **state)
{
	struct fl_snapshot s;

	(void)state;
	build(&s);
	s.hdr.tier = FL_TIER_TRACEPOINT;
	s.cpus[1].cnt[FL_C_FAULTS_ENDED] += 7;	/* not measured on this tier */
	assert_int_equal(fl_snapshot_check(&s, NULL), 0);
	fl_snapshot_free(&s);
}

/* Without record --hmf the calls are counted and the duration is not: no sample per call. */
static void test_hmf_not_timed(void **state)
{
	struct fl_snapshot s;

	(void)state;
	build(&s);
	s.cpus[0].cnt[FL_C_HMF_CALLS] += 3;		/* calls with no duration sample */
	assert_int_equal(fl_snapshot_check(&s, NULL), 1);
	assert_int_equal(fl_snapshot_set_tag(&s, FL_TAG_HMF_OFF, "not timed"), 0);
	assert_int_equal(fl_snapshot_check(&s, NULL), 0);
	s.cpus[0].cnt[FL_C_FAULTS_ENDED]++;		/* the other checks still run */
	assert_true(fl_snapshot_check(&s, NULL) >= 1);
	fl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_consistent),
		cmocka_unit_test(test_torn_histogram),
		cmocka_unit_test(test_lost_outcome),
		cmocka_unit_test(test_tracepoint_tier_skips_timed_checks),
		cmocka_unit_test(test_hmf_not_timed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
