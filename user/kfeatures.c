// SPDX-License-Identifier: GPL-2.0
/* From kernel facts to the fault state machine's values (no libbpf here). */
#include <stdio.h>
#include <string.h>

#include "kfeatures.h"

void fl_kvals_from_features(const struct fl_kfeatures *f, struct fl_kvals *kv)
{
	kv->ll_infer = 0;
	kv->ll_why = 0;		/* the backend sets it where it reads the VMA */
	kv->vm_fault_retry = f->vm_fault_retry > 0 ? (fl_u32)f->vm_fault_retry
						   : FL_DEF_VM_FAULT_RETRY;
	kv->vm_fault_end = kv->vm_fault_retry |
			   (f->vm_fault_completed > 0 ? (fl_u32)f->vm_fault_completed : 0);
	if (f->has_do_hmf || f->has_spf_dufour) {
		/* SPF patchsets: the flag is a #define there, rarely in BTF */
		kv->ll_kind = FL_LL_KIND_SPF;
		if (f->flag_speculative > 0)
			kv->ll_flag = (fl_u32)f->flag_speculative;
		else if (f->has_do_hmf)
			kv->ll_flag = FL_DEF_SPF_FLAG_LESPINASSE;
		else
			kv->ll_flag = FL_DEF_SPF_FLAG_DUFOUR;
	} else if (f->has_lock_vma) {
		kv->ll_kind = FL_LL_KIND_VMA_LOCK;
		kv->ll_flag = f->flag_vma_lock > 0 ? (fl_u32)f->flag_vma_lock
						   : FL_DEF_FAULT_FLAG_VMA_LOCK;
		/* the BPF tiers hook no lock_vma_under_rcu: see classify.h */
		kv->ll_infer = 1;
	} else if (f->flag_vma_lock > 0 || f->flag_speculative > 0) {
		/* the flag exists but no function we can hook shows the attempt */
		kv->ll_kind = FL_LL_KIND_UNKNOWN;
		kv->ll_flag = 0;
	} else {
		kv->ll_kind = FL_LL_KIND_NONE;
		kv->ll_flag = 0;
	}
}

bool fl_mmap_lock_off(const struct fl_kfeatures *f, bool asked)
{
	struct fl_kvals kv;

	if (!f->tp_mmap_lock)
		return false;
	fl_kvals_from_features(f, &kv);
	return fl_mmap_lock_keep_off(f->mmap_memcg == 1, kv.ll_kind, asked);
}

const char *fl_lockless_describe(const struct fl_kfeatures *f)
{
	if (f->has_do_hmf)
		return "speculative page faults (do_handle_mm_fault, Lespinasse-style SPF)";
	if (f->has_spf_dufour)
		return "speculative page faults (__handle_speculative_fault, Dufour-style SPF)";
	if (f->has_lock_vma)
		return "per-VMA locks (lock_vma_under_rcu)";
	if (f->flag_vma_lock > 0 || f->flag_speculative > 0)
		return "a lockless path exists (fault flag in BTF) but no hookable function";
	return "none (no lock_vma_under_rcu, no SPF entry point)";
}

bool fl_cpu_flag(const char *cpuinfo_path, const char *flag)
{
	char line[4096], word[64];
	bool has = false;
	FILE *f;

	f = fopen(cpuinfo_path ? cpuinfo_path : "/proc/cpuinfo", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		/* whole word: the flag list is space separated */
		snprintf(word, sizeof(word), " %s ", flag);
		has = strstr(line, word);
		snprintf(word, sizeof(word), " %s\n", flag);
		has = has || strstr(line, word);
		break;
	}
	fclose(f);
	return has;
}

const char *fl_spin_contention_caveat(const char *cpuinfo_path)
{
	if (!fl_cpu_flag(cpuinfo_path, "hypervisor"))
		return NULL;
	return "x86 guest (hypervisor CPUID bit): without paravirt spinlocks a "
	       "contended spinlock spins in virt_spin_lock(), which fires no "
	       "lock:contention_begin; spinlock classes (ptl, zone, lru) may be "
	       "undercounted, rwsem/mutex classes are not affected";
}

const char *fl_pc_layout_describe(unsigned int layout)
{
	return layout == FL_PC_HDIS ?
	       "7.x (interrupt-disable count at 0x00ff0000, BTF local_interrupt_disable_state), "
	       "not-in-task mask 0xff000100" :
	       "<= 6.x (hardirq 0x000f0000, NMI 0x00f00000), not-in-task mask 0x00ff0100";
}
