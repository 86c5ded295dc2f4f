// SPDX-License-Identifier: GPL-2.0
/*
 * Naming a contended lock from its stack (include/faultline/phases_abi.h ph_scan_frame, the
 * code the BPF program runs per frame): lock internals are skipped, the
 * first real frame is the caller, the first of PH_CALLER_SCAN real frames in
 * a classified function names the class, and a PH_RANGE_DIRECT function
 * (one that takes the lock itself) names it only as the first real frame.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <faultline/phases_abi.h>

/* Function ranges, sorted, as user/phases.c builds them from kallsyms. */
static const struct ph_range r[] = {
	{ { 100, 200 }, PH_RANGE_SKIP, 0 },			/* _raw_spin_lock_irq */
	{ { 200, 300 }, PH_RANGE_SKIP, 0 },			/* queued_spin_lock_slowpath */
	{ { 300, 400 }, FL_LK_LRU | PH_RANGE_DIRECT, 0 },	/* shrink_lruvec */
	{ { 400, 500 }, FL_LK_PTL, 0 },			/* page_vma_mapped_walk */
	{ { 500, 600 }, FL_LK_MEMCG, 0 },			/* try_charge_memcg */
	{ { 600, 700 }, FL_LK_ZONE, 0 },			/* free_pcppages_bulk */
};
#define NR (sizeof(r) / sizeof(r[0]))

/* Scan a stack (innermost first) as class_from_stack does; 0 = unknown function. */
static fl_u32 scan(const fl_u64 *ips, size_t n, fl_u64 *caller)
{
	struct ph_scan sc;
	fl_u32 cls = PH_SCAN_MORE;
	size_t i;

	memset(&sc, 0, sizeof(sc));
	for (i = 0; i < n; i++) {
		cls = ph_scan_frame(&sc, ph_range_class(r, NR, ips[i]), ips[i]);
		if (cls != PH_SCAN_MORE)
			break;
	}
	*caller = sc.caller;
	return cls < FL_LK_NR ? cls : FL_LK_NR;
}

static void test_direct_first_frame(void **state)
{
	/* lru_lock in shrink_lruvec's inlined shrink_inactive_list */
	const fl_u64 s[] = { 150, 250, 350, 550, 900 };
	fl_u64 caller;

	(void)state;
	assert_int_equal(scan(s, 5, &caller), FL_LK_LRU);
	assert_int_equal(caller, 350);
}

static void test_direct_not_above(void **state)
{
	/*
	 * xa_lock in __remove_mapping (unknown) <- shrink_folio_list (unknown)
	 * <- shrink_lruvec: not lru; the scan stops after PH_CALLER_SCAN frames
	 */
	const fl_u64 s[] = { 150, 250, 800, 810, 350, 550 };
	fl_u64 caller;

	(void)state;
	assert_int_equal(scan(s, 6, &caller), FL_LK_NR);
	assert_int_equal(caller, 800);
}

static void test_indirect_second_frame(void **state)
{
	/* cgroup_file_notify (unknown) <- try_charge_memcg: memcg */
	const fl_u64 s1[] = { 150, 820, 550 };
	/* unknown helper <- page_vma_mapped_walk: ptl; zone the same */
	const fl_u64 s2[] = { 250, 830, 450, 350 };
	const fl_u64 s3[] = { 830, 840, 650 };
	fl_u64 caller;

	(void)state;
	assert_int_equal(scan(s1, 3, &caller), FL_LK_MEMCG);
	assert_int_equal(caller, 820);
	assert_int_equal(scan(s2, 4, &caller), FL_LK_PTL);
	assert_int_equal(caller, 830);
	assert_int_equal(scan(s3, 3, &caller), FL_LK_ZONE);
}

static void test_scan_limit_and_skips(void **state)
{
	/* three unknown real frames: the fourth is not looked at */
	const fl_u64 s1[] = { 800, 810, 820, 550 };
	/* only lock internals: no caller, no class */
	const fl_u64 s2[] = { 150, 250, 160 };
	fl_u64 caller;

	(void)state;
	assert_int_equal(scan(s1, 4, &caller), FL_LK_NR);
	assert_int_equal(caller, 800);
	assert_int_equal(scan(s2, 3, &caller), FL_LK_NR);
	assert_int_equal(caller, 0);
	assert_true(PH_CALLER_SCAN == 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_first_frame),
		cmocka_unit_test(test_direct_not_above),
		cmocka_unit_test(test_indirect_second_frame),
		cmocka_unit_test(test_scan_limit_and_skips),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
