// SPDX-License-Identifier: GPL-2.0
/* The kernel fields and symbols faultline reads, with every name they have had. */
#include <string.h>
#include <bpf/btf.h>

#include "kfeatures.h"
#include "kfields.h"
#include "ksyms.h"

/* NAME, the kernels that have it[, .unused = why it is present but not usable] */
#define ALT(kd, n, k, ...) { .kind = kd, .name = n, .kernels = k, __VA_ARGS__ }
#define MEMBER(...) ALT(FL_KF_MEMBER, __VA_ARGS__)
#define ENUMV(...) ALT(FL_KF_ENUM, __VA_ARGS__)
#define KSYM(...) ALT(FL_KF_KSYM, __VA_ARGS__)

/* Newest name first; ebpf/NAME.bpf.c CO-RE flavours read the same. */
const struct fl_kfield fl_kfields[] = {
	{ .what = "VMA lock (--phases vma lock class)", .alt = {
		MEMBER("vm_area_struct.vm_refcnt", "6.15+",
		       .unused = "a reference count, no rwsem: nothing for the vma class to match"),
		MEMBER("vm_area_struct.vm_lock", "6.4-6.14"),
	  }, .none = "no per-VMA locks (before 6.4)" },
	{ .what = "VMA locks' slab cache (--phases vma lock class)", .alt = {
		KSYM("vma_lock_cachep", "6.4-6.14"),
	  }, .none = "no vma_lock slab (before 6.4; 6.15+ locks by vm_refcnt), or no CONFIG_KALLSYMS_ALL" },
	{ .what = "VMA write-lock sequence (lockless abort reasons)", .alt = {
		MEMBER("vm_area_struct.vm_lock_seq", "6.4+"),
	  }, .none = "no per-VMA locks (before 6.4): no abort reasons" },
	{ .what = "mm write-lock sequence (lockless abort reasons)", .alt = {
		MEMBER("mm_struct.mm_lock_seq", "6.4+ (int to 6.11, seqcount_t 6.12+)"),
	  }, .none = "no per-VMA locks (before 6.4): no abort reasons" },
	{ .what = "preempt_count (in-task test, BPF tiers)", .alt = {
		KSYM("__preempt_count", "x86 to 6.1, 6.15+"),
		KSYM("pcpu_hot", "x86 6.2-6.14 (pcpu_hot.preempt_count)"),
	  }, .none = "no preempt_count address (no CONFIG_KALLSYMS_ALL, or kptr_restrict): "
	     "faults in interrupt context are counted as the task's" },
	{ .what = "per-CPU offsets (in-task test, BPF tiers)", .alt = {
		KSYM("__per_cpu_offset", "every SMP kernel"),
	  }, .none = "no __per_cpu_offset (no CONFIG_KALLSYMS_ALL, or kptr_restrict): "
	     "faults in interrupt context are counted as the task's" },
	{ .what = "fault completed under the per-VMA lock (kprobe tier outcome)", .alt = {
		ENUMV("VM_FAULT_COMPLETED", "5.19+"),
	  }, .none = "no VM_FAULT_COMPLETED (before 5.19): not needed there" },
	{ .what = "lockless fault flag", .alt = {
		ENUMV("FAULT_FLAG_VMA_LOCK", "6.4+"),
		ENUMV("FAULT_FLAG_SPECULATIVE", "SPF patchsets (Dufour, Lespinasse)"),
	  }, .none = "no lockless fault path: lockless outcomes unavailable",
	  /* the SPF series define their flag (patch 08 / Dufour's v11): no BTF */
	  .builtin_if = { "do_handle_mm_fault", "__handle_speculative_fault" },
	  .builtin = "FAULT_FLAG_SPECULATIVE is a #define of the SPF series: faultline uses "
	  "the series' value (0x400 Lespinasse, 0x200 Dufour)" },
	{ .what = "mm owner (--blame -p: holders in another task's mm)", .alt = {
		MEMBER("mm_struct.owner", "CONFIG_MEMCG"),
	  }, .none = "no mm->owner (CONFIG_MEMCG off): a kernel thread holding the traced "
	     "process's mmap_lock is not attributed to it" },
};
const unsigned int fl_kfields_n = sizeof(fl_kfields) / sizeof(fl_kfields[0]);

static int member_type(const struct btf *btf, const char *name)
{
	char type[64];
	const char *dot = strchr(name, '.');

	if (!btf || !dot || (size_t)(dot - name) >= sizeof(type))
		return 0;
	memcpy(type, name, dot - name);
	type[dot - name] = '\0';
	return fl_btf_member_type(btf, type, dot + 1);
}

bool fl_kfield_present(const struct fl_kfield_alt *alt, const struct btf *btf,
		       const struct fl_ksyms *k)
{
	switch (alt->kind) {
	case FL_KF_MEMBER:
		return member_type(btf, alt->name) != 0;
	case FL_KF_ENUM:
		return btf && fl_btf_enum_value(btf, alt->name) >= 0;
	case FL_KF_KSYM:
		return fl_ksyms_data_addr(k, alt->name) != 0;
	}
	return false;
}

int fl_kfield_used(const struct fl_kfield *row, const struct btf *btf, const struct fl_ksyms *k)
{
	for (int i = 0; i < FL_KFIELD_ALTS && row->alt[i].name; i++)
		if (fl_kfield_present(&row->alt[i], btf, k))
			return row->alt[i].unused ? -1 : i;
	return -1;
}

/* a present member's type, as the BTF names it ("seqcount_t", "int", "struct vma_lock *") */
static void type_name(const struct btf *btf, int id, char *buf, size_t len)
{
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const char *ptr = "";

	buf[0] = '\0';
	while (t && btf_is_mod(t))
		t = btf__type_by_id(btf, t->type);
	if (t && btf_is_ptr(t)) {
		ptr = " *";
		t = btf__type_by_id(btf, t->type);
		while (t && btf_is_mod(t))
			t = btf__type_by_id(btf, t->type);
	}
	if (!t || !t->name_off)
		return;
	snprintf(buf, len, "%s%s%s", btf_is_struct(t) ? "struct " : btf_is_union(t) ? "union " : "",
		 btf__name_by_offset(btf, t->name_off), ptr);
}

void fl_kfields_print(FILE *f, const struct btf *btf, const struct fl_ksyms *k)
{
	fprintf(f, "fields and symbols read (each row's names newest first):\n");
	for (unsigned int r = 0; r < fl_kfields_n; r++) {
		const struct fl_kfield *row = &fl_kfields[r];
		int used = fl_kfield_used(row, btf, k);
		bool any = false;

		fprintf(f, "  %s\n", row->what);
		for (int i = 0; i < FL_KFIELD_ALTS && row->alt[i].name; i++) {
			const struct fl_kfield_alt *a = &row->alt[i];
			bool present = fl_kfield_present(a, btf, k);
			char ty[96] = "";

			if (present && a->kind == FL_KF_MEMBER)
				type_name(btf, member_type(btf, a->name), ty, sizeof(ty));
			fprintf(f, "    %-28s %-7s %s%s%s\n", a->name,
				i == used ? "used" : present ? "present" : "absent",
				a->kernels, ty[0] ? "; here " : "", ty);
			if (present && a->unused && !any)
				fprintf(f, "    %-28s unavailable: %s\n", "", a->unused);
			any |= present;
		}
		if (!any && row->builtin &&
		    (fl_btf_has_func(btf, row->builtin_if[0]) ||
		     fl_btf_has_func(btf, row->builtin_if[1])))
			fprintf(f, "    %-28s built in: %s\n", "", row->builtin);
		else if (!any)
			fprintf(f, "    %-28s unavailable: %s\n", "", row->none);
	}
}
