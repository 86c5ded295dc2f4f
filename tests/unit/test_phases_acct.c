// SPDX-License-Identifier: GPL-2.0
/*
 * The fault-phase arithmetic of include/faultline/phases_abi.h (the same code the BPF program
 * runs): nested phases are charged exclusive time, so the phases of a fault
 * never add up to more than its latency, whatever events are lost.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <faultline/phases_abi.h>

static struct fl_phase_stats ps;
static struct ph_acct a;
static fl_u64 misc[PH_M_NR];

static int setup(void **state)
{
	(void)state;
	memset(&ps, 0, sizeof(ps));
	memset(&a, 0, sizeof(a));
	memset(misc, 0, sizeof(misc));
	return 0;
}

/* fault 0..90: REST 10..80 containing ALLOC 20..50 containing ZERO 25..35 */
static void test_nested_exclusive(void **state)
{
	(void)state;
	ph_fault_start(&a, 1000, misc);
	assert_int_equal(ph_push(&a, FL_PH_REST, 1010, misc), 0);
	assert_int_equal(ph_push(&a, FL_PH_ALLOC, 1020, misc), 0);
	assert_int_equal(ph_push(&a, FL_PH_ZERO, 1025, misc), 0);
	assert_int_equal(ph_top(&a), FL_PH_ZERO);
	assert_int_equal(ph_pop(&a, FL_PH_ZERO, FL_PH_ZERO, 1035, misc), 0);
	assert_int_equal(ph_pop(&a, FL_PH_ALLOC, FL_PH_ALLOC, 1050, misc), 0);
	assert_int_equal(ph_pop(&a, FL_PH_REST, FL_PH_REST, 1080, misc), 0);
	assert_int_equal(ph_fault_end(&a, &ps, 1090), 90);

	assert_int_equal(ps.faults, 1);
	assert_int_equal(ps.lat_sum, 90);
	assert_int_equal(ps.hist[FL_PH_ZERO].sum, 10);
	assert_int_equal(ps.hist[FL_PH_ALLOC].sum, 20);	/* 30 minus the nested 10 */
	assert_int_equal(ps.hist[FL_PH_REST].sum, 40);	/* 70 minus the nested 30 */
	assert_int_equal(ps.unattributed_sum, 20);
	assert_int_equal(ps.overrun, 0);
	/* phases that did not occur get no sample (they are not 0-valued faults) */
	assert_int_equal(ps.hist[FL_PH_LRU].count, 0);
	assert_int_equal(ps.hist[FL_PH_REST].count, 1);
	assert_int_equal(misc[PH_M_UNPAIRED], 0);
	assert_false(ph_in_fault(&a));
}

/* a lockless handle_mm_fault attempt that had to be retried is LOCKLESS time */
static void test_retry_charged_lockless(void **state)
{
	(void)state;
	ph_fault_start(&a, 1, misc);	/* 0 means "no fault in flight" */
	ph_push(&a, FL_PH_LOCKLESS, 5, misc);
	ph_pop(&a, FL_PH_LOCKLESS, FL_PH_LOCKLESS, 8, misc);
	ph_push(&a, FL_PH_REST, 10, misc);
	ph_push(&a, FL_PH_ALLOC, 12, misc);
	ph_pop(&a, FL_PH_ALLOC, FL_PH_ALLOC, 15, misc);
	ph_pop(&a, FL_PH_REST, FL_PH_LOCKLESS, 30, misc);	/* VM_FAULT_RETRY */
	ph_push(&a, FL_PH_MMAP_WAIT, 31, misc);
	ph_pop(&a, FL_PH_MMAP_WAIT, FL_PH_MMAP_WAIT, 40, misc);
	ph_push(&a, FL_PH_REST, 41, misc);
	ph_pop(&a, FL_PH_REST, FL_PH_REST, 60, misc);
	ph_fault_end(&a, &ps, 61);
	assert_int_equal(ps.hist[FL_PH_LOCKLESS].sum, 3 + 17);
	assert_int_equal(ps.hist[FL_PH_LOCKLESS].count, 1);	/* one sample per fault */
	assert_int_equal(ps.hist[FL_PH_ALLOC].sum, 3);
	assert_int_equal(ps.hist[FL_PH_MMAP_WAIT].sum, 9);
	assert_int_equal(ps.hist[FL_PH_REST].sum, 19);
	assert_int_equal(ps.unattributed_sum, 60 - 20 - 3 - 9 - 19);
}

/*
 * An exit without its entry is ignored; a frame whose exit was lost is
 * closed uncharged when an outer frame ends, and its span is not charged to
 * the outer frame either (it stays unattributed).
 */
static void test_unpaired(void **state)
{
	(void)state;
	ph_fault_start(&a, 100, misc);
	assert_int_equal(ph_pop(&a, FL_PH_ALLOC, FL_PH_ALLOC, 110, misc), -1);
	assert_int_equal(misc[PH_M_UNPAIRED], 1);
	ph_push(&a, FL_PH_REST, 110, misc);
	ph_push(&a, FL_PH_LRU, 120, misc);	/* its exit is lost */
	ph_pop(&a, FL_PH_REST, FL_PH_REST, 150, misc);
	assert_int_equal(misc[PH_M_UNPAIRED], 2);
	assert_int_equal(a.depth, 0);
	ph_fault_end(&a, &ps, 160);
	assert_int_equal(ps.hist[FL_PH_REST].sum, 40 - 30);
	assert_int_equal(ps.unattributed_sum, 60 - 10);
	assert_int_equal(ps.hist[FL_PH_LRU].count, 0);
	assert_int_equal(ps.overrun, 0);
}

static void test_depth_and_abandon(void **state)
{
	unsigned int i;

	(void)state;
	ph_fault_start(&a, 1, misc);
	for (i = 0; i < PH_DEPTH; i++)
		assert_int_equal(ph_push(&a, FL_PH_REST, 2 + i, misc), 0);
	assert_int_equal(ph_push(&a, FL_PH_ALLOC, 20, misc), -1);
	assert_int_equal(misc[PH_M_DEPTH], 1);
	ph_fault_start(&a, 30, misc);		/* previous fault never ended */
	assert_int_equal(misc[PH_M_ABANDONED], 1);
	assert_int_equal(a.depth, 0);
	assert_int_equal(ph_fault_end(&a, &ps, 40), 10);
	assert_int_equal(ps.faults, 1);
	/* no fault in flight: nothing is added */
	assert_int_equal(ph_fault_end(&a, &ps, 50), 0);
	assert_int_equal(ps.faults, 1);
}

/*
 * Random event streams with lost and stray events: the invariant
 * sum(phases) <= latency must hold for every fault (overrun stays 0), and
 * lat_sum == sum of every phase + unattributed.
 */
static void test_random_streams_never_overrun(void **state)
{
	unsigned int seed = 12345, f, e;
	fl_u64 now = 1, phase_total;
	unsigned int p;

	(void)state;
	for (f = 0; f < 20000; f++) {
		ph_fault_start(&a, now, misc);
		for (e = 0; e < 12; e++) {
			unsigned int r = rand_r(&seed);
			fl_u32 ph = r % FL_PH_NR;

			now += 1 + (r >> 8) % 50;
			if (r & 0x10000)
				ph_push(&a, ph, now, misc);
			else
				ph_pop(&a, ph, (r & 0x20000) ? FL_PH_LOCKLESS : ph, now, misc);
		}
		now += rand_r(&seed) % 7;
		if (rand_r(&seed) % 10)		/* some faults are abandoned */
			ph_fault_end(&a, &ps, now);
	}
	assert_int_equal(ps.overrun, 0);
	phase_total = 0;
	for (p = 0; p < FL_PH_NR; p++)
		phase_total += ps.hist[p].sum;
	assert_int_equal(ps.lat_sum, phase_total + ps.unattributed_sum);
	assert_true(ps.faults > 15000);
	assert_true(misc[PH_M_UNPAIRED] > 0);
}

static void test_range_class(void **state)
{
	struct ph_range r[4] = {
		{ { 100, 200 }, FL_LK_ZONE, 0 },
		{ { 200, 250 }, PH_RANGE_SKIP, 0 },
		{ { 300, 400 }, FL_LK_LRU, 0 },
		{ { 1000, 1001 }, FL_LK_PTL, 0 },
	};

	(void)state;
	assert_int_equal(ph_range_class(r, 4, 99), FL_LK_NR);
	assert_int_equal(ph_range_class(r, 4, 100), FL_LK_ZONE);
	assert_int_equal(ph_range_class(r, 4, 199), FL_LK_ZONE);
	assert_int_equal(ph_range_class(r, 4, 200), PH_RANGE_SKIP);
	assert_int_equal(ph_range_class(r, 4, 260), FL_LK_NR);
	assert_int_equal(ph_range_class(r, 4, 399), FL_LK_LRU);
	assert_int_equal(ph_range_class(r, 4, 400), FL_LK_NR);
	assert_int_equal(ph_range_class(r, 4, 1000), FL_LK_PTL);
	assert_int_equal(ph_range_class(r, 4, 1001), FL_LK_NR);
	assert_int_equal(ph_range_class(r, 0, 150), FL_LK_NR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_nested_exclusive, setup),
		cmocka_unit_test_setup(test_retry_charged_lockless, setup),
		cmocka_unit_test_setup(test_unpaired, setup),
		cmocka_unit_test_setup(test_depth_and_abandon, setup),
		cmocka_unit_test_setup(test_random_streams_never_overrun, setup),
		cmocka_unit_test_setup(test_range_class, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
