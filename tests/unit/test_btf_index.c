// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF name index (user/btf_index.c) against libbpf's own scans, the
 * answers it must repeat: btf__find_by_name_kind() for types, a forward
 * scan of the enumerators for enum values.  On a BTF built here with the
 * cases a hash index can get wrong (one name of several kinds, the same
 * name and kind twice, enum and enum64, names that share a prefix), and on
 * this machine's own kernel BTF where it is readable (a sample of its
 * types and enumerators), through fl_btf_load() as record uses it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/btf.h>

#include "btf_index.h"
#include "kfeatures.h"

/* the reference: the first enumerator NAME in type-id order */
static bool scan_enum(const struct btf *b, const char *name, long long *val)
{
	unsigned int n = btf__type_cnt(b);

	for (unsigned int id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, id);

		for (unsigned int i = 0; (btf_is_enum(t) || btf_is_enum64(t)) && i < btf_vlen(t); i++) {
			const char *en = btf__name_by_offset(b, btf_is_enum(t) ? btf_enum(t)[i].name_off
									 : btf_enum64(t)[i].name_off);

			if (!strcmp(en, name)) {
				*val = btf_is_enum(t) ? (long long)(unsigned int)btf_enum(t)[i].val
						      : (long long)btf_enum64_value(&btf_enum64(t)[i]);
				return true;
			}
		}
	}
	return false;
}

static void check_type(const struct btf *b, const struct fl_btf_index *ix, const char *name, int kind)
{
	int want = btf__find_by_name_kind(b, name, kind);

	assert_int_equal(fl_btf_index_find(ix, name, kind), want > 0 ? want : -1);
}

static void check_enum(const struct btf *b, const struct fl_btf_index *ix, const char *name)
{
	long long want = -2, got = -3;
	bool w = scan_enum(b, name, &want), g = fl_btf_index_enum(ix, name, &got);

	assert_int_equal(g, w);
	if (w)
		assert_int_equal(got, want);
}

static void test_built(void **state)
{
	struct btf *b = btf__new_empty();
	struct fl_btf_index *ix;
	int u32, s;
	static const char *const names[] = {
		"handle_mm_fault", "handle_mm_faul", "handle_mm_fault_x", "vm_area_struct",
		"dup", "VM_FAULT_RETRY", "FAULT_FLAG_VMA_LOCK", "BIG", "absent", "",
	};
	static const int kinds[] = {
		BTF_KIND_FUNC, BTF_KIND_STRUCT, BTF_KIND_TYPEDEF, BTF_KIND_VAR, BTF_KIND_ENUM,
		BTF_KIND_INT, BTF_KIND_FUNC_PROTO,
	};

	assert_non_null(b);
	u32 = btf__add_int(b, "unsigned int", 4, 0);
	s = btf__add_struct(b, "vm_area_struct", 8);
	btf__add_field(b, "vm_start", u32, 0, 0);
	/* one name, several kinds; and the same name and kind twice (first wins) */
	btf__add_typedef(b, "vm_area_struct", s);
	btf__add_struct(b, "dup", 4);
	btf__add_field(b, "a", u32, 0, 0);
	btf__add_struct(b, "dup", 4);
	btf__add_field(b, "b", u32, 0, 0);
	int proto = btf__add_func_proto(b, u32);
	btf__add_func(b, "handle_mm_fault", BTF_FUNC_GLOBAL, proto);
	btf__add_func(b, "handle_mm_faul", BTF_FUNC_GLOBAL, proto);
	btf__add_func(b, "handle_mm_fault_x", BTF_FUNC_GLOBAL, proto);
	btf__add_var(b, "handle_mm_fault", BTF_VAR_GLOBAL_ALLOCATED, u32);
	/* an enumerator in two enums: the first one's value; and a 64-bit one */
	btf__add_enum(b, "vm_fault_reason", 4);
	btf__add_enum_value(b, "VM_FAULT_RETRY", 0x400);
	btf__add_enum_value(b, "FAULT_FLAG_VMA_LOCK", 1 << 12);
	btf__add_enum(b, "later", 4);
	btf__add_enum_value(b, "VM_FAULT_RETRY", 0x800);
	btf__add_enum64(b, "wide", 8, false);
	btf__add_enum64_value(b, "BIG", 1ULL << 40);
	btf__add_enum64_value(b, "VM_FAULT_RETRY", 7);

	ix = fl_btf_index_build(b);
	assert_non_null(ix);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (*names[i])
				check_type(b, ix, names[i], kinds[k]);
		check_enum(b, ix, names[i]);
	}
	/* the expectations above come from libbpf; these from this BTF's layout */
	assert_int_equal(fl_btf_index_find(ix, "dup", BTF_KIND_STRUCT), 4);
	assert_int_equal(fl_btf_index_find(ix, "vm_area_struct", BTF_KIND_TYPEDEF), 3);
	long long v;
	assert_true(fl_btf_index_enum(ix, "VM_FAULT_RETRY", &v));
	assert_int_equal(v, 0x400);
	assert_true(fl_btf_index_enum(ix, "BIG", &v));
	assert_int_equal(v, 1LL << 40);
	fl_btf_index_free(ix);
	btf__free(b);
}

/* this machine's kernel BTF, through fl_btf_load()'s index, as record asks it */
static void test_vmlinux(void **state)
{
	struct btf *b;
	struct fl_btf_index *ix;
	unsigned int n, checked = 0, enums = 0;

	if (access("/sys/kernel/btf/vmlinux", R_OK) && !getenv("FAULTLINE_BTF")) {
		skip();
		return;
	}
	b = fl_btf_load(NULL, 0);
	assert_non_null(b);
	ix = fl_btf_index_build(b);
	assert_non_null(ix);
	n = btf__type_cnt(b);
	/* every 211th type: each lookup is checked against a full scan */
	for (unsigned int id = 1; id < n; id += 211) {
		const struct btf_type *t = btf__type_by_id(b, id);
		const char *name = btf__name_by_offset(b, t->name_off);

		if (!t->name_off)
			continue;
		check_type(b, ix, name, btf_kind(t));
		check_type(b, ix, name, BTF_KIND_FUNC);
		checked++;
	}
	/* every 5th enum type's first and last enumerators */
	for (unsigned int id = 1, e = 0; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, id);
		unsigned int v = btf_vlen(t);

		if (!(btf_is_enum(t) || btf_is_enum64(t)) || !v || e++ % 5)
			continue;
		for (unsigned int i = 0; i < v; i += v - 1) {
			check_enum(b, ix, btf__name_by_offset(b, btf_is_enum(t) ? btf_enum(t)[i].name_off
									  : btf_enum64(t)[i].name_off));
			enums++;
			if (v == 1)
				break;
		}
	}
	assert_true(checked > 100);
	assert_true(enums > 100);
	/* the questions kfeatures asks, through the index fl_btf_load() built */
	assert_int_equal(fl_btf_has_func(b, "handle_mm_fault"),
			 btf__find_by_name_kind(b, "handle_mm_fault", BTF_KIND_FUNC) > 0);
	assert_int_equal(fl_btf_has_func(b, "no_such_function_here"), false);
	long long want = -1;
	scan_enum(b, "VM_FAULT_RETRY", &want);
	assert_int_equal(fl_btf_enum_value(b, "VM_FAULT_RETRY"), want);
	print_message("vmlinux BTF: %u types, %u names and %u enumerators checked\n", n, checked, enums);
	fl_btf_index_free(ix);
	fl_btf_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_built),
		cmocka_unit_test(test_vmlinux),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
