/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel has for the fault-path hooks, read from its BTF
 * (kfeatures_btf.c), and the pure mapping from those facts to the values the
 * fault state machine needs (kfeatures.c; unit-tested without a kernel).
 */
#ifndef FAULTLINE_KFEATURES_H
#define FAULTLINE_KFEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <faultline/classify.h>

struct fl_kfeatures {
	bool btf;		/* vmlinux BTF readable */
	/* functions (BTF FUNC records) */
	bool has_hmf;		/* handle_mm_fault */
	bool has_do_hmf;	/* do_handle_mm_fault: SPF (Lespinasse) */
	bool has_spf_dufour;	/* __handle_speculative_fault: SPF (Dufour) */
	bool has_lock_vma;	/* lock_vma_under_rcu: per-VMA locks */
	/* tracepoints (btf_trace_* typedefs) */
	bool tp_pf_user, tp_pf_kernel;
	bool tp_mmap_lock;	/* all three mmap_lock tracepoints */
	bool tp_contention;	/* lock:contention_begin/end */
	bool tp_fork;		/* sched:sched_process_fork */
	bool task_storage;	/* task storage built and bpf_get_current_task_btf (5.11+; 5.11-5.12 only with BPF_LSM) */
	bool preempt_kfunc;	/* bpf_preempt_disable/enable kfuncs (6.10+) */
	bool vma_lock_seq;	/* vm_area_struct.vm_lock_seq, mm_struct.mm_lock_seq */
	bool vma_refcnt;	/* vm_area_struct.vm_refcnt: VMA locks are a refcount (6.15+) */
	int mmap_memcg;		/* 1: (mm, memcg_path, write..), 0: (mm, write..), -1: unknown */
	/* enum values, -1 when the kernel has no such enumerator */
	long long flag_vma_lock;	/* FAULT_FLAG_VMA_LOCK */
	long long flag_speculative;	/* FAULT_FLAG_SPECULATIVE */
	long long vm_fault_retry;	/* VM_FAULT_RETRY */
	long long vm_fault_completed;	/* VM_FAULT_COMPLETED (5.19+) */
	unsigned int pc_layout;		/* enum fl_pc_layout: fl_btf_pc_layout() */
};

/* Defaults when a kernel lacks the enumerator (mainline / patchset values). */
#define FL_DEF_FAULT_FLAG_VMA_LOCK	(1u << 12)
#define FL_DEF_SPF_FLAG_LESPINASSE	0x400u	/* do_handle_mm_fault kernels */
#define FL_DEF_SPF_FLAG_DUFOUR		0x200u	/* __handle_speculative_fault kernels */
#define FL_DEF_VM_FAULT_RETRY		0x400u

/*
 * The kernel's BTF, probed once and passed to whoever asks it (kfeatures,
 * the bpf backend, phases.c): $FAULTLINE_BTF, else /sys/kernel/btf/vmlinux.
 * NULL + err when there is none.  Its questions go through a name index
 * (btf_index.h); fl_btf_free() it (the index with it).
 */
struct btf;
struct btf *fl_btf_load(char *err, size_t errlen);
void fl_btf_free(struct btf *btf);
/* Questions to a loaded BTF; a NULL btf has nothing (false / -1). */
bool fl_btf_has_func(const struct btf *btf, const char *name);
/* MEMBER's type id in struct TYPE (anonymous members searched): 0 if absent, -1 for type void */
int fl_btf_member_type(const struct btf *btf, const char *type, const char *member);
/* struct TYPE has a member MEMBER */
bool fl_btf_has_member(const struct btf *btf, const char *type, const char *member);
/*
 * Parameters of tracepoint TP's probe, the btf_trace_TP typedef: the leading
 * void *__data included, so a TP_PROTO of N arguments gives N + 1; -1 absent.
 */
int fl_btf_tp_nargs(const struct btf *btf, const char *tp);
/* Value of enumerator NAME in any enum or enum64, or -1. */
long long fl_btf_enum_value(const struct btf *btf, const char *name);

/*
 * The running kernel's preempt_count layout (classify.h): FL_PC_HDIS where
 * its BTF has local_interrupt_disable()'s per-CPU state, the variable
 * local_interrupt_disable_state (7.x: DEFINE_PER_CPU beside the
 * HARDIRQ_DISABLE_MASK it counts in; a variable, so there whatever the
 * compiler inlined), or the function local_interrupt_disable itself (an
 * out-of-line copy, seen in 7.3's BTF: the fallback should a later BTF drop
 * per-CPU variables).  FL_PC_LEGACY otherwise, and for a NULL btf.
 */
unsigned int fl_btf_pc_layout(const struct btf *btf);
/* The layout's name and "not in task" mask (faultline probe). */
const char *fl_pc_layout_describe(unsigned int layout);

/* Fill f from btf (NULL: f->btf false, nothing found). */
void fl_kfeatures_from_btf(struct fl_kfeatures *f, const struct btf *btf);
/* fl_btf_load() + fl_kfeatures_from_btf(); 0 or -1 + err. */
int fl_kfeatures_read(struct fl_kfeatures *f, char *err, size_t errlen);

/* Lockless kind, flag and VM_FAULT_RETRY for the state machine. */
void fl_kvals_from_features(const struct fl_kfeatures *f, struct fl_kvals *kv);

/*
 * Keep the mmap_lock tracepoints off (6.1: memcg_path built per event, no
 * lockless fault path) unless ASKED (`record --mmap-lock`)?  abi.h's
 * fl_mmap_lock_keep_off() on the facts F holds; false where the kernel has
 * no mmap_lock tracepoints.  The BPF backend, phases and blame (whose write
 * holds then come from the rwsem write side) ask it.
 */
bool fl_mmap_lock_off(const struct fl_kfeatures *f, bool asked);

/* One line describing the lockless path f implies (for probe / record). */
const char *fl_lockless_describe(const struct fl_kfeatures *f);

/*
 * NULL where lock:contention_begin sees contended spinlocks, else why it may
 * not: an x86 guest (CPUID hypervisor bit in cpuinfo_path's flags) without
 * paravirt spinlocks spins in virt_spin_lock(), which fires no tracepoint.
 */
const char *fl_spin_contention_caveat(const char *cpuinfo_path);
/* FLAG is in the first "flags" line of CPUINFO_PATH (NULL: /proc/cpuinfo) */
bool fl_cpu_flag(const char *cpuinfo_path, const char *flag);

#endif
