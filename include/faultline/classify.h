/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fault-path state machine, shared by the BPF programs and the module so
 * that both classify a fault the same way (and the tests can feed it recorded
 * event sequences for per-VMA-lock, SPF and no-lockless kernels).
 *
 * Events, per task, in the order the kernel produces them:
 *   fl_ev_fault_start   exceptions:page_fault_user / page_fault_kernel
 *   fl_ev_lock_vma      return of lock_vma_under_rcu (per-VMA-lock kernels;
 *                       optional: see fl_kvals.ll_infer)
 *   fl_ev_hmf_exit      return of handle_mm_fault / do_handle_mm_fault
 *
 * A fault ends at the first handle_mm_fault return without VM_FAULT_RETRY
 * (VM_FAULT_COMPLETED counts as an end).  A fault that starts while the
 * previous one never reached handle_mm_fault is counted as unhandled
 * (SIGSEGV, access error, kernel fixup) and not timed.
 */
#ifndef FAULTLINE_CLASSIFY_H
#define FAULTLINE_CLASSIFY_H

#include "abi.h"

/* Per-task fault state (BPF task storage, or the module's per-task slot). */
struct fl_fault_state {
	fl_u64 start_ns;	/* 0 = no fault in flight */
	fl_u32 flags;		/* FL_FS_* */
	fl_u32 pad;
};

#define FL_FS_KERNEL	(1u << 0)	/* started as a kernel-mode fault */
#define FL_FS_LL_TRIED	(1u << 1)	/* lockless path attempted */
#define FL_FS_HMF_SEEN	(1u << 2)	/* reached handle_mm_fault at least once */
#define FL_FS_LL_ABORT	(1u << 3)	/* lockless lookup failed, reason not yet read */
#define FL_FS_LL_NOANON	(1u << 4)	/* lockless call retried with no anon_vma: see the redo */

/* Kernel-specific values, read from BTF enums where they exist. */
struct fl_kvals {
	fl_u32 ll_kind;		/* enum fl_lockless_kind */
	fl_u32 ll_flag;		/* FAULT_FLAG_VMA_LOCK or FAULT_FLAG_SPECULATIVE */
	fl_u32 vm_fault_retry;	/* VM_FAULT_RETRY (0x400 on every kernel so far) */
	fl_u32 ll_infer;	/* no lock_vma_under_rcu hook: read its outcome from hmf flags */
	fl_u32 ll_why;		/* the backend reads the VMA for fl_ev_ll_why (FL_SNAP_F_LL_WHY) */
	fl_u32 vm_fault_end;	/* VM_FAULT_RETRY | VM_FAULT_COMPLETED: the call dropped the lock */
};

/* What fl_ev_hmf_exit asks the backend to read of the call's VMA. */
enum fl_ll_need {
	FL_NEED_NONE = 0,
	FL_NEED_ABORT,		/* first return holding mmap_lock after a failed lookup */
	FL_NEED_RETRY,		/* a VMA-locked call returned VM_FAULT_RETRY */
	FL_NEED_REDO,		/* first return holding mmap_lock after a retry with no anon_vma */
};

/* What the backend read of the call's VMA for fl_ev_ll_why. */
struct fl_vma_look {
	fl_u64 address;		/* the call's fault address */
	fl_u64 vm_start;
	fl_u64 vm_flags;
	fl_u32 vm_lock_seq;
	fl_u32 mm_lock_seq;	/* an int up to 6.11, a seqcount's sequence since */
	fl_u32 anon;		/* vma->anon_vma != NULL */
	fl_u32 ok;		/* the reads succeeded (as far as the backend can tell) */
};

/*
 * A backend built for one kernel (the module) defines this 0 where that
 * kernel has no per-VMA locks: the reasons' tests then compile away (the
 * BPF object loads on every kernel and leaves it to the verifier).
 */
#ifndef FL_LL_WHY_BUILT
#define FL_LL_WHY_BUILT	1
#endif

#define FL_VM_GROWSDOWN	0x100u		/* VM_GROWSDOWN, the same since 2.6 */
#define FL_VM_SHARED	0x8u		/* VM_SHARED, the same since 2.6 */
#define FL_PAGE_MASK	(~0xfffull)	/* x86 base pages */

/*
 * Faults count only in task context: the module's probes test the kernel's
 * in_task(), the BPF programs (a kernel-mode fault only: a user-mode fault is
 * always in task context) fl_in_task() on the per-CPU preempt_count they
 * read, with the mask of the running kernel's layout: NMI_MASK |
 * HARDIRQ_MASK | SOFTIRQ_OFFSET of its include/linux/preempt.h.
 *
 * FL_PC_LEGACY (up to 6.x; the same in 5.10, 6.1, 6.12, 6.18): PREEMPT
 *   0xff, SOFTIRQ 0xff00, HARDIRQ 0x000f0000, NMI 0x00f00000.
 * FL_PC_HDIS (7.x): an interrupt-disable count (HARDIRQ_DISABLE_MASK,
 *   local_interrupt_disable()) takes 0x00ff0000; HARDIRQ moves to
 *   0x0f000000, NMI to 0xf0000000 (x86-64, HAS_SEPARATE_PREEMPT_RESCHED_BITS:
 *   __preempt_count is 8 bytes, PREEMPT_NEED_RESCHED bit 63, so the low word
 *   the programs read holds every count).  The legacy mask there would take
 *   the interrupt-disable count for hard IRQ/NMI and miss both.
 *
 * User space picks the layout from the kernel's BTF (fl_btf_pc_layout(),
 * user/kfeatures_btf.c) and hands each skeleton fl_not_task_mask() before
 * load.  PREEMPT_RT serves softirqs in threads and is not covered.
 */
enum fl_pc_layout {
	FL_PC_LEGACY = 0,	/* <= 6.x */
	FL_PC_HDIS = 1,		/* 7.x: HARDIRQ_DISABLE_MASK at 0x00ff0000 */
};

#define FL_NOT_TASK_MASK_LEGACY	0x00ff0100u	/* 0x00f00000 | 0x000f0000 | 0x100 */
#define FL_NOT_TASK_MASK_HDIS	0xff000100u	/* 0xf0000000 | 0x0f000000 | 0x100 */
/* the <= 6.x name, for module/probes.c's BUILD_BUG_ON until it moves */
#define FL_NOT_TASK_MASK	FL_NOT_TASK_MASK_LEGACY

FL_INLINE fl_u32 fl_not_task_mask(fl_u32 layout)
{
	return layout == FL_PC_HDIS ? FL_NOT_TASK_MASK_HDIS : FL_NOT_TASK_MASK_LEGACY;
}

/* NOT_TASK_MASK: fl_not_task_mask() of the running kernel's layout */
FL_INLINE int fl_in_task(fl_u32 preempt_count, fl_u32 not_task_mask)
{
	return !(preempt_count & not_task_mask);
}

FL_INLINE void fl_ev_fault_start(struct fl_fault_state *st, struct fl_cpu_stats *cs,
				 fl_u64 now, int kernel_mode)
{
	if (st->start_ns && !(st->flags & FL_FS_HMF_SEEN)) {
		cs->cnt[FL_C_FAULTS_UNHANDLED]++;
		if (st->flags & FL_FS_LL_ABORT)	/* hooked lookup failed, no VMA at all */
			cs->cnt[FL_C_LLW_NOVMA]++;
	} else if (st->start_ns) {
		/*
		 * It reached handle_mm_fault but its last return was never
		 * seen: a skipped program run (a preempted fexit holding the
		 * recursion guard, a kretprobe out of instances).  The end is
		 * lost, and so is a lockless reason left to read at it.
		 */
		cs->cnt[FL_C_MISSED]++;
		if (st->flags & (FL_FS_LL_ABORT | FL_FS_LL_NOANON))
			cs->cnt[FL_C_LLW_UNREAD]++;
	}
	cs->cnt[kernel_mode ? FL_C_FAULTS_KERNEL : FL_C_FAULTS_USER]++;
	st->start_ns = now;
	st->flags = kernel_mode ? FL_FS_KERNEL : 0;
}

/*
 * The task is gone (its last switch) with fault ST in flight (start_ns set):
 * counted as fl_ev_fault_start counts the fault it finds in flight, so that
 * a fault that never reached handle_mm_fault (or whose only return was
 * skipped) is unhandled here too, and only a lost last return is missed.
 * The caller clears ST.
 */
FL_INLINE void fl_ev_fault_gone(const struct fl_fault_state *st, struct fl_cpu_stats *cs)
{
	if (!(st->flags & FL_FS_HMF_SEEN)) {
		cs->cnt[FL_C_FAULTS_UNHANDLED]++;
		if (st->flags & FL_FS_LL_ABORT)
			cs->cnt[FL_C_LLW_NOVMA]++;
	} else {
		cs->cnt[FL_C_MISSED]++;
		if (st->flags & (FL_FS_LL_ABORT | FL_FS_LL_NOANON))
			cs->cnt[FL_C_LLW_UNREAD]++;
	}
}

/* lock_vma_under_rcu returned; got_vma = non-NULL return. */
FL_INLINE void fl_ev_lock_vma(struct fl_fault_state *st, struct fl_cpu_stats *cs,
			      int got_vma)
{
	if (!st->start_ns)	/* not from a traced fault (e.g. userfaultfd) */
		return;
	st->flags |= FL_FS_LL_TRIED;
	cs->ll[FL_LL_ATTEMPTED]++;
	if (!got_vma) {
		cs->ll[FL_LL_ABORTED]++;
		st->flags |= FL_FS_LL_ABORT;
	}
}

/* A handle_mm_fault return with no fault in flight (GUP and friends). */
FL_INLINE void fl_ev_hmf_call(struct fl_cpu_stats *cs)
{
	cs->cnt[FL_C_HMF_CALLS]++;
}

/*
 * handle_mm_fault returned `ret` for a call with fault `flags`.  Returns the
 * fault latency in ns when this return ended a timed fault, else 0 (the
 * caller then records nothing in FL_H_FAULT_LAT).  *need (kv->ll_why only):
 * this call is where the backend reads the VMA and calls fl_ev_ll_why.
 */
FL_INLINE fl_u64 fl_ev_hmf_exit(struct fl_fault_state *st, struct fl_cpu_stats *cs,
				const struct fl_kvals *kv, fl_u32 flags, fl_u32 ret,
				fl_u64 now, fl_u32 *need)
{
	int retry = (ret & kv->vm_fault_retry) != 0;
	int lockless = kv->ll_kind != FL_LL_KIND_NONE && kv->ll_flag &&
		       (flags & kv->ll_flag);
	fl_u64 lat;

	fl_ev_hmf_call(cs);
	if (!st->start_ns)
		return 0;
	/*
	 * Without a lock_vma_under_rcu hook (a whole kretprobe or fexit per
	 * fault), the first handle_mm_fault call of a user-mode fault tells
	 * the lookup's outcome: x86 and arm64 (6.4+) try it for every
	 * user-mode fault and pass FAULT_FLAG_VMA_LOCK only when it returned
	 * the VMA.  A fault that never reaches handle_mm_fault (SIGSEGV,
	 * access error) is then not counted as an attempt.
	 */
	if (kv->ll_infer && kv->ll_kind == FL_LL_KIND_VMA_LOCK &&
	    !(st->flags & (FL_FS_HMF_SEEN | FL_FS_LL_TRIED | FL_FS_KERNEL))) {
		st->flags |= FL_FS_LL_TRIED;
		cs->ll[FL_LL_ATTEMPTED]++;
		if (!lockless) {
			cs->ll[FL_LL_ABORTED]++;
			st->flags |= FL_FS_LL_ABORT;
		}
	}
	st->flags |= FL_FS_HMF_SEEN;

	/* the reasons' work stays off the lockless success path (the common one) */
	if (lockless) {
		if (kv->ll_kind == FL_LL_KIND_SPF) {
			/* SPF: the speculative call itself is the attempt. */
			st->flags |= FL_FS_LL_TRIED;
			cs->ll[FL_LL_ATTEMPTED]++;
			if (retry) {
				cs->ll[FL_LL_ABORTED]++;
				return 0;
			}
		} else if (retry) {
			cs->ll[FL_LL_RETRIED]++;
			if (kv->ll_why)
				*need = FL_NEED_RETRY;
			return 0;
		}
		cs->ll[FL_LL_SUCCEEDED]++;
	} else {
		/* ll_why first: a constant to the verifier, the block goes where it is 0 */
		fl_u32 open = FL_LL_WHY_BUILT && kv->ll_why ?
			      st->flags & (FL_FS_LL_ABORT | FL_FS_LL_NOANON) : 0;

		if (open) {
			if (!(ret & kv->vm_fault_end)) {
				/* returned holding mmap_lock: the VMA is stable now */
				*need = (open & FL_FS_LL_ABORT) ? FL_NEED_ABORT : FL_NEED_REDO;
				st->flags &= ~open;
			} else if (!retry) {
				/* ends with the lock dropped (VM_FAULT_COMPLETED) */
				cs->cnt[FL_C_LLW_UNREAD]++;
				st->flags &= ~open;
			}
		}
		if (retry) {
			cs->ll[FL_LL_MMAP_RETRY]++;
			return 0;
		}
		if (!(st->flags & FL_FS_LL_TRIED))
			cs->ll[FL_LL_NOT_ATTEMPTED]++;
	}

	lat = now - st->start_ns;
	cs->cnt[FL_C_FAULTS_ENDED]++;
	st->start_ns = 0;
	st->flags = 0;
	return lat ? lat : 1;
}

/*
 * Why the lockless path gave up, for the return fl_ev_hmf_exit named in
 * NEED (per-VMA-lock kernels), from what the backend read of the call's VMA
 * (V; V->ok false when a read faulted).
 *
 * Abort: read at the first return that still holds mmap_lock (no writer
 * now; a call that dropped it, e.g. handle_userfault's RETRY, defers to the
 * redo).  In order:
 * - no VMA: the VMA is VM_GROWSDOWN and starts at the fault's page, i.e.
 *   the address was below it at the lookup and lock_mm_and_find_vma grew
 *   the stack (itself taking mmap_lock for write, so the test comes first).
 *   With a lock_vma_under_rcu hook, a failed lookup whose fault never
 *   reaches handle_mm_fault (SIGSEGV: no VMA at all) counts here too, at the
 *   task's next fault (fl_ev_fault_start).
 * - write-locked: vma_start_write() sets vm_lock_seq to mm_lock_seq and the
 *   writer's unlock (vma_end_write_all, or the seqcount's end) advances
 *   mm_lock_seq by one in both encodings, so vm_lock_seq == mm_lock_seq - 1
 *   says the latest writer locked (changed or created) this VMA: why
 *   vma_start_read() failed, be it the first check or the seqcount check
 *   after the vm_lock trylock.
 * - other: not write-locked by the latest writer: a writer before it, the
 *   VMA not there at the lookup and created since, its range changed, or a
 *   vm_lock trylock that lost a race.
 *
 * Retry (a VMA-locked call returned VM_FAULT_RETRY): anon_vma is read at
 * the retry (the VMA lock is dropped by then: a VMA is freed only an RCU
 * grace period after a writer detached it, and the reads are fault-safe)
 * and, if it was NULL, again at the redo under mmap_lock.  NULL then set:
 * the redo attached it, so the retry was vmf_anon_prepare's failed
 * mmap_read_trylock ("no anon_vma").  Otherwise "other": a folio lock or
 * I/O wait, userfaultfd, a ->fault that cannot run under the VMA lock
 * (vmf_can_call_fault: the vDSO); a shared mapping's retry at once.
 *
 * unread: the fault ended with the lock dropped before a read, or the
 * module's read faulted (the BPF loads cannot tell: a faulting one reads 0).
 */
FL_INLINE void fl_ev_ll_why(struct fl_fault_state *st, struct fl_cpu_stats *cs, fl_u32 need,
			    const struct fl_vma_look *v)
{
	if (!v->ok) {
		cs->cnt[FL_C_LLW_UNREAD]++;
	} else if (need == FL_NEED_RETRY) {
		/*
		 * A shared mapping never takes an anon_vma (vmf_anon_prepare is
		 * for anonymous and private-COW faults): its retry is "other"
		 * at once -- a folio lock or I/O wait (filemap_fault dropping
		 * the lock for readahead: ext4 MAP_SHARED writes to a cold file).
		 * Left to the redo it read "unread": that redo ends with the lock
		 * dropped (fault_dirty_shared_page, VM_FAULT_COMPLETED).
		 */
		if (v->anon || (v->vm_flags & FL_VM_SHARED))
			cs->cnt[FL_C_LLW_RETRY_OTHER]++;
		else
			st->flags |= FL_FS_LL_NOANON;
	} else if (need == FL_NEED_REDO) {
		cs->cnt[v->anon ? FL_C_LLW_ANON : FL_C_LLW_RETRY_OTHER]++;
	} else if ((v->vm_flags & FL_VM_GROWSDOWN) &&
		   v->vm_start == (v->address & FL_PAGE_MASK)) {
		cs->cnt[FL_C_LLW_NOVMA]++;
	} else if (v->vm_lock_seq == v->mm_lock_seq - 1) {
		cs->cnt[FL_C_LLW_WLOCKED]++;
	} else {
		cs->cnt[FL_C_LLW_OTHER]++;
	}
}

/*
 * The kprobe tier's kretprobe alone, on per-VMA-lock kernels (no entry
 * kprobe to read the flags): was this handle_mm_fault call made under the
 * VMA lock?  From the mmap_lock tracepoints: MM_ACQ, the fault read-acquired
 * mmap_lock since its start or its last handle_mm_fault return; MM_HELD, it
 * holds it now; END_MASK, VM_FAULT_RETRY | VM_FAULT_COMPLETED.
 * do_user_addr_fault's mmap_lock path takes the lock before the call and
 * drops it after, unless the call returned RETRY or COMPLETED, having dropped
 * it itself; a VMA-locked call takes it only inside (vmf_anon_prepare's
 * trylock on a VMA's first fault) and drops it before returning.  Misread:
 * a VMA-locked call whose anon_vma trylock succeeded and that then still
 * returned RETRY or COMPLETED.
 */
FL_INLINE int fl_kret_vma_locked(int mm_acq, int mm_held, fl_u32 ret, fl_u32 end_mask)
{
	return !(mm_held || (mm_acq && (ret & end_mask)));
}

#endif /* FAULTLINE_CLASSIFY_H */
