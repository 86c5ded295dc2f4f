// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * faultline phases: where the time inside a fault goes, and which lock
 * classes the traced tasks waited on.  A separate, optional skeleton
 * (`record --phases` / `--locks`), loaded by user/phases.c.
 *
 * Phases (include/faultline/phases_abi.h does the arithmetic): the fault starts at
 * exceptions:page_fault_user/_kernel -- for user faults on kernels with
 * per-VMA locks at the lock_vma_under_rcu entry instead (one program and one
 * clock read fewer) -- and ends at the handle_mm_fault return without
 * VM_FAULT_RETRY.  Inside it:
 *   LOCKLESS   fentry/fexit lock_vma_under_rcu, plus a FAULT_FLAG_VMA_LOCK
 *              handle_mm_fault call that returned VM_FAULT_RETRY (wasted)
 *   MMAP_WAIT  mmap_lock_start_locking -> mmap_lock_acquire_returned
 *   ALLOC      vma_alloc_folio(_noprof), 5.10: alloc_pages_vma
 *   ZERO       kprobe/kretprobe clear_page_{erms,rep,orig} (order-0
 *              zeroing in post_alloc_hook, which fentry cannot trace),
 *              fentry folio_zero_user / clear_huge_page (THP), on 5.10
 *              fentry kernel_init_free_pages (order-0 and THP)
 *   MEMCG      __mem_cgroup_charge, 5.10: mem_cgroup_charge
 *   PTL        lock:contention_begin -> end of a lock named PTL
 *   LRU        folio_batch_move_lru (the batch flush under lru_lock), else
 *              folio_add_lru / folio_add_lru_vma, 5.10: lru_cache_add
 *   REST       from the lock_vma_under_rcu return (else the fault's start)
 *              to the fault's end, minus all of the above
 *   PCACHE, READ, AROUND, COPY: file faults, see "File faults" below
 * Programs whose function the kernel lacks are not loaded (user space decides
 * from BTF), and entry/exit pairs that do not attach are detached; their
 * phase is then reported unavailable.  --locks alone loads only the
 * contention tracepoints.
 *
 * Lock classes: lock:contention_begin/end of traced tasks.  A lock is named
 * by address (current->mm->mmap_lock, mm->page_table_lock, the faulting
 * VMA's lock, any lock in the vm_lock slab), else by the first kernel functions on the contending stack
 * outside the lock implementation (ranges from /proc/kallsyms, set by user
 * space), else by the fault phase it was contended in (not in direct
 * reclaim: fentry/fexit try_to_free_{mem_cgroup_,}pages); the rest is "other",
 * whose callers are kept.
 *
 * Storage: one per-CPU array value for the statistics and the running
 * task's phase context (a slot, moved into task-local storage when its task
 * is switched out mid-fault); task-local storage for contentions in flight
 * (5.10: a hash of tids, include/faultline/tstore.h, looked up only when a
 * CPU's slot changes task).  Nothing every CPU writes to, no hash lookup
 * per fault.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include <faultline/abi.h>
#include <faultline/tstore.h>
#include <faultline/intask.h>

/* hist.h's fl_hist_add() carries the compiler barrier the verifier needs. */
#define PH_HIST_ADD fl_hist_add
#define PH_BARRIER(x) asm volatile("" : "+r"(x))

#include <faultline/phases_abi.h>

#include "common.bpf.h"

#define PH_MAX_CALLERS	1024
#define PH_USER_ADDR_END 0x8000000000000000ULL

struct ph_ct {			/* one contention in flight */
	fl_u64 lock;
	fl_u64 start;
	fl_u32 cls;
	fl_u32 ptl_pushed;	/* PTL phase pushed for it */
	fl_u64 caller;		/* "other": the caller ip, 0 if unknown */
};

/* Per task: a slot moved here at a switch, and the contentions in flight. */
struct ph_task {
	struct ph_slot s;
	fl_u32 saved;		/* s holds the task's phase context */
	fl_u32 cdepth;
	struct ph_ct ct[PH_CT_DEPTH];
};

/* Statistics, internal counters and the running task's slot (phases_abi.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ph_cpu);
} pcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fl_lock_stats);
} lstats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, PH_MAX_CALLERS);
	__type(key, struct ph_caller_key);
	__type(value, struct ph_caller_val);
} callers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ph_task);
} ptask SEC(".maps");

/* Task-local storage, or on 5.10 a hash of tids emptied at exit (tstore.h). */
FL_TSTORE(ptask, ptask, struct ph_task)

/* Set by user space before load. */
const volatile bool do_phases = false;	/* charge phases (else context only) */
const volatile bool do_locks = false;
const volatile __u32 ll_flag = 0;	/* FAULT_FLAG_VMA_LOCK, 0 if none */
const volatile __u32 vm_fault_retry = 0x400;
const volatile __u64 text_start = 0, text_end = 0;
const volatile __u32 nr_ranges = 0;
const volatile bool all_callers = false;	/* testing: callers of every class */
/* Addresses of kernel variables (kallsyms), 0 if absent: naming VMA locks. */
const volatile __u64 ksym_page_offset_base = 0;
const volatile __u64 ksym_vmemmap_base = 0;
const volatile __u64 ksym_vma_lock_cachep = 0;	/* 6.4-6.12: vm_lock slab */
const volatile struct ph_range ranges[PH_NR_RANGES] = {};
/*
 * Where the kernel preempts BPF programs (7.x, preempt=full) and has the
 * kfuncs (user/preempt_model.c fl_preempt_guard), user space loads each
 * program's twin NAME_pg, whose body runs preemption-disabled: a task
 * switched out in the middle of one no longer leaves this CPU's slot half
 * written for the next task (it was seen as phases.events lost, one fault
 * without its rest phase: phases_memcg on 7.3).  Twins, not a flag: a
 * .rodata flag the verifier drops still costs its loads (+25 instructions
 * a fault on 6.12's cost meter).
 */
#define PH_PG(stmt)	bpf_preempt_disable(); stmt; bpf_preempt_enable()

#define PH_TWINS(sec, name, stmt, ...)					\
SEC(sec)								\
int BPF_PROG(name, ##__VA_ARGS__)					\
{									\
	stmt;								\
	return 0;							\
}									\
SEC(sec)								\
int BPF_PROG(name##_pg, ##__VA_ARGS__)					\
{									\
	PH_PG(stmt);							\
	return 0;							\
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";

static __always_inline struct ph_cpu *cpu(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&pcpu, &k);
}

static __always_inline bool slot_busy(const struct ph_slot *s)
{
	return s->a.fault_start || s->a.depth || s->reclaim;
}

/* Is the slot's task traced?  The tgid filter is asked once per claim. */
static __always_inline bool slot_traced(struct ph_slot *s)
{
	if (!filter_tgid)
		return true;
	if (!s->traced)
		s->traced = fl_tgid_set(bpf_get_current_pid_tgid() >> 32) ? 1 : 2;
	return s->traced == 1;
}

/*
 * The current task's slot on this CPU.  The slot is the task's until it is
 * switched out (ph_switch); the next task to run here claims it, taking back
 * what the switch moved into its storage, if anything.  The common event
 * is one per-CPU lookup and a compare: no task storage, no tgid lookup.
 */
static __always_inline struct ph_slot *slot_get(struct ph_cpu *pc)
{
	fl_u64 t = fl_cur_task();
	struct ph_slot *s = &pc->s;
	struct ph_task *st;

	if (s->task == t)
		return s;
	if (slot_busy(s))	/* its task's switch was not seen */
		PH_COUNT(pc->misc, PH_M_LOST);
	st = ptask_cur(false);
	if (st && st->saved) {
		*s = st->s;
		st->saved = 0;
	} else {
		ph_reset(&s->a);
		s->vma_lock = 0;
		s->reclaim = 0;
		s->traced = 0;
	}
	s->stored = st != NULL;
	s->task = t;
	return s;
}

/*
 * A traced task's slot is about to hold state: make sure the task has
 * storage, so a switch (where nothing may be allocated) can move it there.
 * Looked at once per claim.
 */
static __always_inline void ensure_storage(struct ph_cpu *pc)
{
	if (pc->s.stored)
		return;
	if (ptask_cur(true))
		pc->s.stored = 1;
	else
		PH_COUNT(pc->misc, PH_M_NOSTATE);
}

/* The current task's storage for contentions; created for traced tasks. */
static __always_inline struct ph_task *task_get(struct ph_slot *s, bool create)
{
	struct ph_task *st = ptask_cur(false);

	if (st || !create || !slot_traced(s))
		return st;
	return ptask_cur(true);
}

/*
 * A task switched out gives up this CPU's slot and takes a busy one along
 * into its storage (created when the slot became busy: nothing is
 * allocated here, under the runqueue lock).
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(ph_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct ph_cpu *pc = cpu();
	struct ph_task *st;

	if (!pc || pc->s.task != (fl_u64)prev)
		return 0;
	pc->s.task = 0;
	if (!slot_busy(&pc->s))
		return 0;
	st = ptask_task(prev, false);
	if (st) {
		st->s = pc->s;
		st->saved = 1;
	} else {
		PH_COUNT(pc->misc, PH_M_NOSTATE);
	}
	pc->s.a.fault_start = 0;
	pc->s.a.depth = 0;
	pc->s.reclaim = 0;
	return 0;
}

/* ---- fault start / end ----------------------------------------------- */

/*
 * A fault begins: at exceptions:page_fault_user/_kernel, or, for user faults
 * on kernels with per-VMA locks, at the lock_vma_under_rcu entry that every
 * such fault starts with (one program and one clock read fewer per fault).
 * FIRST is the frame that opens with it: LOCKLESS at lock_vma_under_rcu,
 * else REST, the fault's time outside every other phase.
 */
static __always_inline void fault_start(fl_u32 first)
{
	struct ph_cpu *pc = cpu();
	struct ph_slot *s;
	fl_u64 now;

	if (!pc)
		return;
	s = slot_get(pc);
	if (!slot_traced(s))
		return;
	ensure_storage(pc);
	now = bpf_ktime_get_ns();
	ph_fault_start(&s->a, now, pc->misc);
	ph_push(&s->a, first, now, pc->misc);
	s->vma_lock = 0;
}

/* kernel-mode: not a kernel address, not in interrupt context (intask.h) */
static __always_inline int on_fault_tp(unsigned long address, bool kernel_mode)
{
	if (kernel_mode && (address >= PH_USER_ADDR_END || !cur_in_task()))
		return 0;
	fault_start(FL_PH_REST);
	return 0;
}

PH_TWINS("tp_btf/page_fault_user", ph_pf_user, on_fault_tp(address, false),
	 unsigned long address, struct pt_regs *regs, unsigned long error_code)
PH_TWINS("tp_btf/page_fault_kernel", ph_pf_kernel, on_fault_tp(address, true),
	 unsigned long address, struct pt_regs *regs, unsigned long error_code)

/* 6.4-6.12: vma->vm_lock is a pointer; ~6.13-6.14: embedded; 6.15+: none. */
struct vma_lock___ph {
	struct rw_semaphore lock;
} __attribute__((preserve_access_index));

struct vm_area_struct___ph {
	struct vma_lock___ph *vm_lock;
} __attribute__((preserve_access_index));

static __always_inline fl_u64 vma_lock_addr(struct vm_area_struct *vma)
{
	struct vm_area_struct___ph *v = (void *)vma;
	struct vma_lock___ph *l;

	if (!vma || !bpf_core_field_exists(v->vm_lock))
		return 0;
	if (bpf_core_field_size(v->vm_lock) == sizeof(void *)) {
		l = BPF_CORE_READ(v, vm_lock);
		return l ? (fl_u64)&l->lock : 0;
	}
	return (fl_u64)vma + bpf_core_field_offset(v->vm_lock);
}

/* The current task's slot if a traced fault is in flight, else NULL. */
static __always_inline struct ph_slot *in_fault(struct ph_cpu **pcp)
{
	struct ph_cpu *pc = cpu();
	struct ph_slot *s;

	*pcp = pc;
	if (!pc)
		return NULL;
	s = slot_get(pc);
	return ph_in_fault(&s->a) ? s : NULL;
}

/*
 * lock_vma_under_rcu: the lockless lookup, first thing in a user fault.  Its
 * return hands over to REST (one clock read): from there to the fault's end
 * everything outside the nested phases is the rest of the fault
 * (handle_mm_fault, or the mmap_lock path when the lookup failed).
 */
PH_TWINS("fentry/lock_vma_under_rcu", ph_fe_lock_vma, fault_start(FL_PH_LOCKLESS))

static __always_inline void lock_vma_ret(struct vm_area_struct *ret)
{
	struct ph_cpu *pc;
	struct ph_slot *s = in_fault(&pc);
	fl_u64 now;

	if (!s)
		return;
	now = bpf_ktime_get_ns();
	ph_pop(&s->a, FL_PH_LOCKLESS, FL_PH_LOCKLESS, now, pc->misc);
	ph_push(&s->a, FL_PH_REST, now, pc->misc);
	if (do_locks)
		s->vma_lock = vma_lock_addr(ret);
}

PH_TWINS("fexit/lock_vma_under_rcu", ph_fx_lock_vma, lock_vma_ret(ret),
	 struct mm_struct *mm, unsigned long address, struct vm_area_struct *ret)

/*
 * handle_mm_fault's return ends the fault unless it says VM_FAULT_RETRY.  A
 * retried FAULT_FLAG_VMA_LOCK attempt is charged to LOCKLESS (wasted), and
 * REST goes on for the retry under mmap_lock.  Calls from GUP (regs ==
 * NULL) are not faults.
 */
static __always_inline void hmf_ret(unsigned int flags, unsigned int ret)
{
	struct ph_cpu *pc;
	struct ph_slot *s;
	fl_u32 charge = FL_PH_REST;
	fl_u64 now;

	s = in_fault(&pc);
	if (!s)
		return;
	now = bpf_ktime_get_ns();
	if (ll_flag && (flags & ll_flag) && (ret & vm_fault_retry))
		charge = FL_PH_LOCKLESS;	/* the attempt was wasted */
	ph_pop(&s->a, FL_PH_REST, charge, now, pc->misc);
	if (ret & vm_fault_retry) {	/* retried: the fault goes on */
		ph_push(&s->a, FL_PH_REST, now, pc->misc);
		return;
	}
	if (do_phases)
		ph_fault_end(&s->a, &pc->ps, now);
	else
		ph_reset(&s->a);
	s->vma_lock = 0;
}

PH_TWINS("fexit/handle_mm_fault", ph_fx_hmf, if (regs) hmf_ret(flags, ret),
	 struct vm_area_struct *vma, unsigned long address, unsigned int flags,
	 struct pt_regs *regs, unsigned int ret)

/* ---- nested phases --------------------------------------------------- */

/* A phase function was entered: charge it only inside a traced fault. */
static __always_inline void phase_enter(fl_u32 phase)
{
	struct ph_cpu *pc;
	struct ph_slot *s = in_fault(&pc);

	if (s && s->a.depth)
		ph_push(&s->a, phase, bpf_ktime_get_ns(), pc->misc);
}

static __always_inline void phase_exit(fl_u32 phase)
{
	struct ph_cpu *pc;
	struct ph_slot *s = in_fault(&pc);

	if (s && s->a.depth)
		ph_pop(&s->a, phase, phase, bpf_ktime_get_ns(), pc->misc);
}

#define PHASE_PROGS(name, func, phase)				\
	PH_TWINS("fentry/" #func, ph_fe_##name, phase_enter(phase))	\
	PH_TWINS("fexit/" #func, ph_fx_##name, phase_exit(phase))

PHASE_PROGS(alloc_np, vma_alloc_folio_noprof, FL_PH_ALLOC)	/* 6.10+ */
PHASE_PROGS(alloc, vma_alloc_folio, FL_PH_ALLOC)		/* up to 6.9 */
PHASE_PROGS(alloc_pv, alloc_pages_vma, FL_PH_ALLOC)		/* 5.10 */
PHASE_PROGS(zero_fzu, folio_zero_user, FL_PH_ZERO)		/* 6.10+ THP */
PHASE_PROGS(zero_chp, clear_huge_page, FL_PH_ZERO)		/* up to 6.9 THP */
/* 5.10: base-page zeroing (init_on_alloc / __GFP_ZERO) from prep_new_page */
PHASE_PROGS(zero_kifp, kernel_init_free_pages, FL_PH_ZERO)
PHASE_PROGS(memcg, __mem_cgroup_charge, FL_PH_MEMCG)
PHASE_PROGS(memcg_old, mem_cgroup_charge, FL_PH_MEMCG)		/* 5.10 */
/*
 * LRU: the per-CPU batch flush that takes lru_lock (one call per 15-31
 * folios added), not every folio_add_lru; the older hooks only where the
 * kernel has no folio_batch_move_lru.  5.10's flush (__pagevec_lru_add) is
 * inlined into lru_cache_add: there every insertion, flush included.
 */
PHASE_PROGS(lru_flush, folio_batch_move_lru, FL_PH_LRU)
PHASE_PROGS(lru_old, lru_cache_add, FL_PH_LRU)			/* 5.10 */
PHASE_PROGS(lru, folio_add_lru, FL_PH_LRU)
PHASE_PROGS(lru_vma, folio_add_lru_vma, FL_PH_LRU)

/*
 * File faults (do_read_fault / do_cow_fault / do_shared_fault are inlined
 * into do_fault on Debian's 5.10, 6.1 and 6.12, so the phases are bounded by the
 * functions they call).  In a fault they fire on file faults, and
 * __folio_lock_or_retry also on a swap-in waiting for its read; a fault on
 * anonymous memory that is not swapped out calls none of them.
 *   PCACHE  __do_fault: vm_ops->fault (filemap_fault, shmem_fault), the
 *           page-cache lookup and the folio lock, less what nests in it
 *   READ    page_cache_sync_ra / page_cache_async_ra (readahead: folios
 *           allocated, added, read submitted), page_cache_ra_order (5.18+;
 *           5.10: do_page_cache_ra, which later kernels call inside it),
 *           which a major fault's mmap read-around calls directly, not
 *           through page_cache_sync_ra (inside the two others it is a
 *           second READ frame),
 *           filemap_read_folio (one folio read and waited for; 5.10 calls
 *           ->readpage inline), __folio_lock_or_retry / 5.10's
 *           __lock_page_or_retry (waiting for a locked folio: a read in
 *           flight)
 *   AROUND  filemap_map_pages: mapping the cached neighbours (fault-around)
 *   COPY    do_cow_fault's copy of the page-cache page into the private
 *           one: from __do_fault's return (with vmf->cow_page set and a
 *           page) to finish_fault's entry -- copy_mc_user_highpage /
 *           copy_user_highpage are inline, copy_page is not traceable
 */
PHASE_PROGS(pc_read_sync, page_cache_sync_ra, FL_PH_READ)
PHASE_PROGS(pc_read_async, page_cache_async_ra, FL_PH_READ)
PHASE_PROGS(pc_read_order, page_cache_ra_order, FL_PH_READ)	/* 5.18+ */
PHASE_PROGS(pc_read_dpcr, do_page_cache_ra, FL_PH_READ)	/* 5.10 */
PHASE_PROGS(pc_read_folio, filemap_read_folio, FL_PH_READ)
PHASE_PROGS(pc_read_wait, __folio_lock_or_retry, FL_PH_READ)
PHASE_PROGS(pc_read_wait_lp, __lock_page_or_retry, FL_PH_READ)	/* 5.10 */
PHASE_PROGS(pc_around, filemap_map_pages, FL_PH_AROUND)

PH_TWINS("fentry/__do_fault", ph_fe_do_fault, phase_enter(FL_PH_PCACHE))

/* VM_FAULT_ERROR | VM_FAULT_NOPAGE | VM_FAULT_DONE_COW: no copy follows */
#define PH_VMF_NO_COPY	(0x873u | 0x100u | 0x1000u)

static __always_inline void do_fault_ret(struct vm_fault *vmf, unsigned int ret)
{
	struct ph_cpu *pc;
	struct ph_slot *s = in_fault(&pc);
	fl_u64 now;

	if (!s || !s->a.depth)
		return;
	now = bpf_ktime_get_ns();
	ph_pop(&s->a, FL_PH_PCACHE, FL_PH_PCACHE, now, pc->misc);
	if (!(ret & (PH_VMF_NO_COPY | vm_fault_retry)) && BPF_CORE_READ(vmf, cow_page))
		ph_push(&s->a, FL_PH_COPY, now, pc->misc);
}

PH_TWINS("fexit/__do_fault", ph_fx_do_fault, do_fault_ret(vmf, ret),
	 struct vm_fault *vmf, unsigned int ret)

static __always_inline void copy_end(void)
{
	struct ph_cpu *pc;
	struct ph_slot *s = in_fault(&pc);

	if (s && ph_top(&s->a) == FL_PH_COPY)
		ph_pop(&s->a, FL_PH_COPY, FL_PH_COPY, bpf_ktime_get_ns(), pc->misc);
}

PH_TWINS("fentry/finish_fault", ph_fe_finish_fault, copy_end())

/*
 * Direct reclaim (memcg limit: try_to_free_mem_cgroup_pages; allocation:
 * try_to_free_pages): not a phase, a context for naming locks.
 */
static __always_inline void reclaim_enter(void)
{
	struct ph_cpu *pc = cpu();
	struct ph_slot *s;

	if (!pc)
		return;
	s = slot_get(pc);
	if (!slot_traced(s))
		return;
	ensure_storage(pc);	/* reclaim sleeps: the switch must find storage */
	s->reclaim++;
}

static __always_inline void reclaim_exit(void)
{
	struct ph_cpu *pc = cpu();
	struct ph_slot *s;

	if (!pc)
		return;
	s = slot_get(pc);
	if (s->reclaim)
		s->reclaim--;
}

#define RECLAIM_PROGS(name, func)				\
	PH_TWINS("fentry/" #func, ph_fe_##name, reclaim_enter())	\
	PH_TWINS("fexit/" #func, ph_fx_##name, reclaim_exit())

RECLAIM_PROGS(reclaim_memcg, try_to_free_mem_cgroup_pages)
RECLAIM_PROGS(reclaim, try_to_free_pages)

/*
 * Order-0 zeroing (init_on_alloc / __GFP_ZERO) happens in post_alloc_hook,
 * which ftrace cannot trace (no fentry): kprobe/kretprobe on it, else on
 * clear_page_{erms,rep,orig} (assembly) where the kernel lets us.
 */
#define ZERO_KPROBES(name, func)				\
SEC("kprobe/" #func)						\
int BPF_KPROBE(ph_kp_##name)					\
{								\
	phase_enter(FL_PH_ZERO);				\
	return 0;						\
}								\
SEC("kretprobe/" #func)						\
int BPF_KRETPROBE(ph_krp_##name)				\
{								\
	phase_exit(FL_PH_ZERO);					\
	return 0;						\
}

ZERO_KPROBES(zero_pah, post_alloc_hook)
ZERO_KPROBES(zero_erms, clear_page_erms)
ZERO_KPROBES(zero_rep, clear_page_rep)
ZERO_KPROBES(zero_orig, clear_page_orig)

/* ---- mmap_lock wait inside a fault ----------------------------------- */

/* mmap_lock tracepoints are 5.11+: task_btf is true wherever this runs */
static __always_inline bool own_mm(struct mm_struct *mm)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return mm && t->mm == mm;
}

static __always_inline void mmap_wait_start(struct mm_struct *mm)
{
	struct ph_cpu *pc;
	struct ph_slot *s;

	if (!own_mm(mm))
		return;
	s = in_fault(&pc);
	if (s)
		ph_push(&s->a, FL_PH_MMAP_WAIT, bpf_ktime_get_ns(), pc->misc);
}

static __always_inline void mmap_wait_end(struct mm_struct *mm)
{
	struct ph_cpu *pc;
	struct ph_slot *s;

	if (!own_mm(mm))
		return;
	s = in_fault(&pc);
	/* trylocks report acquire_returned without start_locking: no frame */
	if (s && ph_top(&s->a) == FL_PH_MMAP_WAIT)
		ph_pop(&s->a, FL_PH_MMAP_WAIT, FL_PH_MMAP_WAIT, bpf_ktime_get_ns(), pc->misc);
}

/* Both prototypes (common.bpf.h); no release: a wait ends at the acquire. */
FL_MMAP_START_PROGS(ph_mm_start_memcg, ph_mm_start, mmap_wait_start(mm))
FL_MMAP_ACQ_PROGS(ph_mm_acq_memcg, ph_mm_acq, mmap_wait_end(mm))
FL_MMAP_START_PROGS(ph_mm_start_memcg_pg, ph_mm_start_pg, PH_PG(mmap_wait_start(mm)))
FL_MMAP_ACQ_PROGS(ph_mm_acq_memcg_pg, ph_mm_acq_pg, PH_PG(mmap_wait_end(mm)))

/* ---- lock contention --------------------------------------------------- */

/*
 * Class of one kernel text address.  A global (not inlined) function: the
 * verifier checks its binary search once instead of once per stack frame
 * (as a static one, once per frame: E2BIG on 7.3).
 */
__noinline int ph_ip_class(__u64 ip)
{
	return ph_range_class(ranges, nr_ranges, ip);
}

/* Name a contended lock from the stack (ph_scan_frame in phases_abi.h). */
static __always_inline fl_u32 class_from_stack(void *ctx, fl_u64 *caller)
{
	struct ph_scan sc = {};
	fl_u64 stack[PH_STACK];
	fl_u32 i, cls = PH_SCAN_MORE;
	long n;

	*caller = 0;
	n = bpf_get_stack(ctx, stack, sizeof(stack), 0);
	if (n <= 0)
		return FL_LK_NR;
	n /= sizeof(fl_u64);
	for (i = 0; i < PH_STACK; i++) {
		if (i >= n)
			break;
		/* addresses outside kernel text: BPF programs, modules */
		if (stack[i] < text_start || stack[i] >= text_end)
			continue;
		cls = ph_scan_frame(&sc, ph_ip_class(stack[i]), stack[i]);
		if (cls != PH_SCAN_MORE)
			break;
	}
	*caller = sc.caller;
	return cls < FL_LK_NR ? cls : FL_LK_NR;
}

/*
 * Is this rwsem a per-VMA lock?  On 6.4-6.12 vma->vm_lock is an object of
 * its own slab cache (vma_lock_cachep): find the slab of the lock's page
 * (x86_64 direct map: page_offset_base / vmemmap_base) and compare its
 * cache.  This names the writer side (vma_start_write, inlined into the
 * munmap / mprotect / madvise paths) that no caller symbol shows.
 */
struct page___ph {
	unsigned long compound_head;
} __attribute__((preserve_access_index));

struct slab___ph {
	struct kmem_cache *slab_cache;
} __attribute__((preserve_access_index));

static __always_inline bool is_vma_lock(void *lock)
{
	fl_u64 pob, vmb, cache, head, page;
	struct kmem_cache *sc;

	if (!ksym_vma_lock_cachep || !ksym_page_offset_base || !ksym_vmemmap_base)
		return false;
	if (bpf_probe_read_kernel(&pob, sizeof(pob), (void *)ksym_page_offset_base) ||
	    bpf_probe_read_kernel(&vmb, sizeof(vmb), (void *)ksym_vmemmap_base) ||
	    bpf_probe_read_kernel(&cache, sizeof(cache), (void *)ksym_vma_lock_cachep))
		return false;
	if (!cache || (fl_u64)lock < pob)
		return false;
	page = vmb + (((fl_u64)lock - pob) >> 12) * bpf_core_type_size(struct page);
	head = BPF_CORE_READ((struct page___ph *)page, compound_head);
	if (head & 1)
		page = head - 1;
	sc = BPF_CORE_READ((struct slab___ph *)page, slab_cache);
	return (fl_u64)sc == cache;
}

/*
 * What classify needs of the task's slot, read with the slot: the class is
 * found outside the preemption guard, since class_from_stack calls a global
 * function, which the verifier refuses with preemption disabled.
 */
struct ph_slot_view {
	fl_u64 vma_lock;
	fl_u32 top;		/* the open phase, FL_PH_NR if none */
};

static __always_inline fl_u32 classify(void *ctx, const struct ph_slot_view *s, void *lock,
				       fl_u32 flags, fl_u64 *caller)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct *mm = t->mm;
	fl_u32 cls, top;

	*caller = 0;
	if (all_callers)
		class_from_stack(ctx, caller);
	if (mm && lock == (void *)&mm->mmap_lock)
		return (flags & FL_LCB_F_WRITE) ? FL_LK_MMAP_W : FL_LK_MMAP_R;
	if (mm && lock == (void *)&mm->page_table_lock)
		return FL_LK_PTL;
	if (s->vma_lock && (fl_u64)lock == s->vma_lock)
		return FL_LK_VMA;
	if (!(flags & FL_LCB_F_SPIN) && is_vma_lock(lock))
		return FL_LK_VMA;
	cls = class_from_stack(ctx, caller);
	if (cls < FL_LK_NR)
		return cls;
	top = s->top;	/* by the fault phase it was contended in (cont_view) */
	if (top < FL_PH_NR) {
		if (top == FL_PH_ALLOC || top == FL_PH_ZERO)
			return FL_LK_ZONE;
		if (top == FL_PH_MEMCG)
			return FL_LK_MEMCG;
		if (top == FL_PH_LRU)
			return FL_LK_LRU;
		if (top == FL_PH_REST && (flags & FL_LCB_F_SPIN))
			return FL_LK_PTL;
	}
	return FL_LK_OTHER;
}

/* A contention can be recorded: its task's storage, the slot's view in V. */
static __always_inline bool cont_view(struct ph_slot_view *v)
{
	struct ph_task *st;
	struct ph_slot *s;
	struct ph_cpu *pc = cpu();

	if (!pc)
		return false;
	s = slot_get(pc);
	st = task_get(s, true);
	if (!st)
		return false;
	if (st->cdepth >= PH_CT_DEPTH) {
		PH_COUNT(pc->misc, PH_M_DEPTH);
		return false;
	}
	v->vma_lock = s->vma_lock;
	/*
	 * by the fault phase it is contended in -- unless in direct reclaim:
	 * the charge or allocation that triggered it does not own the swap,
	 * zram, list_lru ... locks reclaim takes ("other", callers kept)
	 */
	v->top = ph_in_fault(&s->a) && !s->reclaim ? ph_top(&s->a) : FL_PH_NR;
	return true;
}

static __always_inline void cont_begin(void *lock, fl_u32 cls, fl_u64 caller)
{
	struct fl_lock_stats *ls;
	struct ph_task *st;
	struct ph_slot *s;
	struct ph_cpu *pc;
	struct ph_ct *c;
	fl_u64 now, d, ci;
	__u32 k = 0;

	pc = cpu();
	if (!pc)
		return;
	s = slot_get(pc);
	st = task_get(s, false);
	if (!st)
		return;
	now = bpf_ktime_get_ns();
	/* index checked right where it is used (6.1's verifier loses the bound
	 * of a value spilled across the calls above) */
	d = st->cdepth;
	PH_BARRIER(d);
	if (d >= PH_CT_DEPTH)
		return;
	c = &st->ct[d];
	c->lock = (fl_u64)lock;
	c->start = now;
	c->cls = cls;
	c->caller = cls == FL_LK_OTHER || all_callers ? caller : 0;
	c->ptl_pushed = 0;
	st->cdepth = (fl_u32)(d + 1);
	if (do_phases && cls == FL_LK_PTL && ph_in_fault(&s->a) && s->a.depth)
		c->ptl_pushed = ph_push(&s->a, FL_PH_PTL, now, pc->misc) == 0;
	ls = bpf_map_lookup_elem(&lstats, &k);
	ci = cls;
	PH_BARRIER(ci);		/* keep the mask: the verifier needs the bound */
	if (ls)
		ls->count[ci & 7]++;
}

/* PG: the twin's, preemption-disabled but for the classification */
static __always_inline void on_cont_begin(void *ctx, void *lock, unsigned int flags,
					  const bool pg)
{
	struct ph_slot_view v;
	fl_u64 caller;
	fl_u32 cls;
	bool ok;

	if (pg)
		bpf_preempt_disable();
	ok = cont_view(&v);
	if (pg)
		bpf_preempt_enable();
	if (!ok)
		return;
	cls = classify(ctx, &v, lock, flags, &caller);
	if (cls >= FL_LK_NR)
		cls = FL_LK_OTHER;
	if (pg)
		bpf_preempt_disable();
	cont_begin(lock, cls, caller);
	if (pg)
		bpf_preempt_enable();
}

SEC("tp_btf/contention_begin")
int BPF_PROG(ph_cont_begin, void *lock, unsigned int flags)
{
	on_cont_begin(ctx, lock, flags, false);
	return 0;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(ph_cont_begin_pg, void *lock, unsigned int flags)
{
	on_cont_begin(ctx, lock, flags, true);
	return 0;
}

static __always_inline void other_caller(struct ph_cpu *pc, fl_u64 ip, fl_u64 wait)
{
	struct ph_caller_key key = { .ip = ip };
	struct ph_caller_val *v, init = { 1, wait };

	v = bpf_map_lookup_elem(&callers, &key);
	if (v) {
		v->count++;
		v->wait_ns += wait;
		return;
	}
	if (bpf_map_update_elem(&callers, &key, &init, BPF_NOEXIST))
		PH_COUNT(pc->misc, PH_M_CALLERS_FULL);
}

static __always_inline void cont_end(void *lock)
{
	struct fl_lock_stats *ls;
	struct ph_task *st;
	struct ph_slot *s;
	struct ph_cpu *pc;
	struct ph_ct *c;
	fl_u64 now, wait, d;
	__u32 k = 0;

	pc = cpu();
	if (!pc)
		return;
	s = slot_get(pc);
	st = task_get(s, false);
	if (!st)
		return;
	d = st->cdepth;
	PH_BARRIER(d);
	if (d == 0 || d > PH_CT_DEPTH)
		return;
	/* the innermost contention, or the outer one if the inner end was lost */
	c = &st->ct[d - 1];
	if (c->lock != (fl_u64)lock) {
		if (d < 2 || st->ct[0].lock != (fl_u64)lock) {
			PH_COUNT(pc->misc, PH_M_UNPAIRED);
			return;
		}
		PH_COUNT(pc->misc, PH_M_UNPAIRED);
		d = 1;
		c = &st->ct[0];
	}
	st->cdepth = (fl_u32)(d - 1);
	now = bpf_ktime_get_ns();
	wait = now > c->start ? now - c->start : 0;
	if (c->ptl_pushed && ph_in_fault(&s->a))
		ph_pop(&s->a, FL_PH_PTL, FL_PH_PTL, now, pc->misc);
	ls = bpf_map_lookup_elem(&lstats, &k);
	if (ls) {
		fl_u64 ci = c->cls;

		PH_BARRIER(ci);
		fl_hist_add(&ls->wait[ci & 7], wait);
	}
	if (c->cls == FL_LK_OTHER || all_callers)
		other_caller(pc, c->caller, wait);
}

PH_TWINS("tp_btf/contention_end", ph_cont_end, cont_end(lock), void *lock, int ret)

/* ---- follow the workload's children (where no other skeleton does) ---- */

FL_FORK_FOLLOWER(ph_fork)

/* 5.10 (no task-local storage): a task's hash entry goes with the task. */
FL_TSTORE_EXIT_PROG(ph_exit, ptask)
