// SPDX-License-Identifier: GPL-2.0
/*
 * The fields-and-symbols table (user/kfields.c) against BTF built the way
 * each kernel lays the types out (5.10: no per-VMA locks; 6.12: vm_lock a
 * pointer, mm_lock_seq a seqcount_t inside mm_struct's anonymous struct;
 * 7.3: vm_refcnt) and the kallsyms data symbols of each preempt_count era.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <bpf/btf.h>

#include "kfields.h"
#include "ksyms.h"

enum era { K510, K612, K73 };

/* vm_area_struct, mm_struct and the enums as kernel ERA has them */
static struct btf *era_btf(enum era era)
{
	struct btf *b = btf__new_empty();
	int u32, ptr_void, seq, seqt, vl, vlp, anon, refcnt, tsk, tskp, e;

	assert_non_null(b);
	u32 = btf__add_int(b, "unsigned int", 4, 0);
	ptr_void = btf__add_ptr(b, 0);
	tsk = btf__add_struct(b, "task_struct", 8);
	btf__add_field(b, "pid", u32, 0, 0);
	tskp = btf__add_ptr(b, tsk);
	seq = btf__add_struct(b, "seqcount", 4);
	btf__add_field(b, "sequence", u32, 0, 0);
	seqt = btf__add_typedef(b, "seqcount_t", seq);
	refcnt = btf__add_struct(b, "refcount_struct", 4);
	btf__add_field(b, "refs", u32, 0, 0);
	vl = btf__add_struct(b, "vma_lock", 8);
	btf__add_field(b, "lock", u32, 0, 0);
	vlp = btf__add_ptr(b, vl);

	btf__add_struct(b, "vm_area_struct", 32);
	btf__add_field(b, "vm_start", ptr_void, 0, 0);
	if (era == K612) {
		btf__add_field(b, "vm_lock_seq", u32, 64, 0);
		btf__add_field(b, "vm_lock", vlp, 128, 0);
	} else if (era == K73) {
		btf__add_field(b, "vm_lock_seq", u32, 64, 0);
		btf__add_field(b, "vm_refcnt", refcnt, 96, 0);
	}
	/* mm_struct's fields sit in an anonymous struct (__randomize_layout) */
	anon = btf__add_struct(b, NULL, 16);
	btf__add_field(b, "owner", tskp, 0, 0);
	if (era != K510)
		btf__add_field(b, "mm_lock_seq", seqt, 64, 0);
	btf__add_struct(b, "mm_struct", 16);
	btf__add_field(b, "", anon, 0, 0);

	e = btf__add_enum(b, "fault_flag", 4);
	assert_true(e > 0);
	btf__add_enum_value(b, "FAULT_FLAG_WRITE", 1);
	if (era != K510)
		btf__add_enum_value(b, "FAULT_FLAG_VMA_LOCK", 0x1000);
	e = btf__add_enum(b, "vm_fault_reason", 4);
	btf__add_enum_value(b, "VM_FAULT_RETRY", 0x400);
	if (era != K510)
		btf__add_enum_value(b, "VM_FAULT_COMPLETED", 0x4000);
	return b;
}

static const struct fl_kfield *row(const char *what)
{
	for (unsigned int i = 0; i < fl_kfields_n; i++)
		if (strstr(fl_kfields[i].what, what))
			return &fl_kfields[i];
	fail_msg("no row '%s'", what);
	return NULL;
}

/* the name of the alternative used, or "unavailable" */
static const char *used(const char *what, struct btf *b, const struct fl_ksyms *k)
{
	const struct fl_kfield *r = row(what);
	int i = fl_kfield_used(r, b, k);

	return i < 0 ? "unavailable" : r->alt[i].name;
}

static char *printed(struct btf *b, const struct fl_ksyms *k)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	fl_kfields_print(f, b, k);
	fclose(f);
	return buf;
}

static void test_vma_lock(void **state)
{
	struct btf *b510 = era_btf(K510), *b612 = era_btf(K612), *b73 = era_btf(K73);

	assert_string_equal(used("VMA lock (", b612, NULL), "vm_area_struct.vm_lock");
	/* 7.3 has the newest name, which the vma class cannot use */
	assert_string_equal(used("VMA lock (", b73, NULL), "unavailable");
	assert_true(fl_kfield_present(&row("VMA lock (")->alt[0], b73, NULL));
	assert_non_null(strstr(printed(b73, NULL), "unavailable: a reference count"));
	assert_string_equal(used("VMA lock (", b510, NULL), "unavailable");
	assert_non_null(strstr(printed(b510, NULL), "unavailable: no per-VMA locks (before 6.4)"));

	assert_string_equal(used("VMA write-lock", b612, NULL), "vm_area_struct.vm_lock_seq");
	assert_string_equal(used("VMA write-lock", b73, NULL), "vm_area_struct.vm_lock_seq");
	assert_string_equal(used("VMA write-lock", b510, NULL), "unavailable");
	/* found inside mm_struct's anonymous struct, its type named */
	assert_string_equal(used("mm write-lock", b612, NULL), "mm_struct.mm_lock_seq");
	assert_non_null(strstr(printed(b612, NULL), "here seqcount_t"));
	assert_string_equal(used("mm owner", b510, NULL), "mm_struct.owner");
	assert_non_null(strstr(printed(b510, NULL), "here struct task_struct *"));
	btf__free(b510);
	btf__free(b612);
	btf__free(b73);
}

static void test_enums(void **state)
{
	struct btf *b510 = era_btf(K510), *b612 = era_btf(K612);

	assert_string_equal(used("lockless fault flag", b612, NULL), "FAULT_FLAG_VMA_LOCK");
	assert_string_equal(used("lockless fault flag", b510, NULL), "unavailable");
	assert_non_null(strstr(printed(b510, NULL), "unavailable: no lockless fault path"));
	/* an SPF series kernel (seed-b): its flag is a #define, not in BTF */
	btf__add_func(b510, "do_handle_mm_fault", BTF_FUNC_GLOBAL,
		      btf__add_func_proto(b510, 0));
	assert_string_equal(used("lockless fault flag", b510, NULL), "unavailable");
	assert_null(strstr(printed(b510, NULL), "unavailable: no lockless fault path"));
	assert_non_null(strstr(printed(b510, NULL), "built in: FAULT_FLAG_SPECULATIVE is a #define"));
	btf__free(b510);
	btf__free(b612);
}

static void test_enum_row(void **state)
{
	struct btf *b510 = era_btf(K510), *b612 = era_btf(K612);

	assert_string_equal(used("fault completed", b612, NULL), "VM_FAULT_COMPLETED");
	assert_string_equal(used("fault completed", b510, NULL), "unavailable");
	btf__free(b510);
	btf__free(b612);
}

static void test_ksyms(void **state)
{
	struct fl_ksyms old = { 0 }, mid = { 0 }, none = { 0 };

	old.preempt_count = 0xffffffff82000000ULL;	/* x86 5.10, 6.1, 6.15+ */
	old.per_cpu_offset = 0xffffffff83000000ULL;
	mid.pcpu_hot = 0xffffffff82100000ULL;		/* x86 6.2-6.14 */
	mid.per_cpu_offset = 0xffffffff83000000ULL;
	mid.vma_lock_cachep = 0xffffffff84000000ULL;
	assert_string_equal(used("preempt_count", NULL, &old), "__preempt_count");
	assert_string_equal(used("preempt_count", NULL, &mid), "pcpu_hot");
	assert_string_equal(used("preempt_count", NULL, &none), "unavailable");
	assert_string_equal(used("preempt_count", NULL, NULL), "unavailable");
	assert_string_equal(used("per-CPU offsets", NULL, &old), "__per_cpu_offset");
	assert_string_equal(used("slab cache", NULL, &mid), "vma_lock_cachep");
	assert_string_equal(used("slab cache", NULL, &old), "unavailable");
	assert_non_null(strstr(printed(NULL, &none),
			       "unavailable: no preempt_count address"));
}

/* a row with no alternative, or an alternative with no kernels, is a typo */
static void test_table(void **state)
{
	for (unsigned int i = 0; i < fl_kfields_n; i++) {
		assert_non_null(fl_kfields[i].alt[0].name);
		assert_non_null(fl_kfields[i].none);
		for (int j = 0; j < FL_KFIELD_ALTS && fl_kfields[i].alt[j].name; j++)
			assert_non_null(fl_kfields[i].alt[j].kernels);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vma_lock),
		cmocka_unit_test(test_enums),
		cmocka_unit_test(test_enum_row),
		cmocka_unit_test(test_ksyms),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
