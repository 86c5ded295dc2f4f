// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * faultline CO-RE programs: fault latency, handle_mm_fault duration,
 * lockless-path outcomes, mmap_lock wait/hold/contention.
 *
 * One skeleton, three hook tiers chosen at load time by user/backend_bpf.c
 * with bpf_program__set_autoload():
 *   fentry      fexit handle_mm_fault (fentry too for --hmf)         + tp_btf
 *   kprobe      kretprobe on the same function (kprobe too where the
 *               flags matter, or for --hmf)                          + tp_btf
 *   tracepoint  tp_btf only (fault counts, mmap_lock, contention)
 * Every tier calls the same __always_inline handlers below; the fault state
 * machine itself is include/faultline/classify.h, the mmap_lock one
 * include/faultline/mmaplock.h (both shared with the module).
 *
 * Per fault (6.12, fentry tier): page_fault_user and the handle_mm_fault
 * exit, nothing else.  The per-VMA lock lookup's outcome is read from the
 * exit's flags (classify.h, ll_infer), not from a lock_vma_under_rcu hook.
 *
 * Storage: per-CPU array (two slots, flipped by user space for interval
 * snapshots) for the statistics; a per-CPU slot for the fault in flight
 * (moved to task-local storage when its task is switched out); task-local
 * storage for the mmap_lock state.  No map that every CPU writes to.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include <faultline/abi.h>
#include <faultline/classify.h>
#include <faultline/mmaplock.h>
#include <faultline/tstore.h>
#include <faultline/intask.h>

#include "common.bpf.h"

/*
 * A fault in flight: its state-machine state plus, for the kprobe tier and
 * --hmf, what handle_mm_fault's entry saw.
 */
struct fl_fstate {
	struct fl_fault_state fs;
	fl_u64 hmf_start_ns;		/* --hmf: entry of the current handle_mm_fault call */
	fl_u32 hmf_flags;		/* kprobe tier: the call's flags (kretprobe has no args) */
	fl_u32 hmf_in_fault;		/* kprobe tier: the call came from the fault handler */
	fl_u64 hmf_vma;			/* kp_why: the call's VMA and address, for the reasons */
	fl_u64 hmf_addr;
	fl_u16 mm_acq;			/* kp_lock_infer: mmap_lock read-acquired since the last boundary */
	fl_u16 mm_held;			/* kp_lock_infer: and held now */
	fl_u32 pad;
};

/*
 * Per-CPU: the fault in flight on this CPU and whose it is.  A fault runs
 * on one CPU unless its task is switched out mid-fault; tp_sched_switch then
 * moves the state into the task's storage, where the task finds it wherever
 * it resumes.  So the common fault touches no task storage at all.
 */
struct fl_pcpu {
	fl_u64 task;			/* task_struct address; compared, never dereferenced */
	struct fl_fstate f;
};

/*
 * Per-task state: the mmap_lock state (mmaplock.h), plus a switched-out
 * fault.  m comes first: mmap_state() returns &st->m for a st that may be
 * NULL, and clang computes that address before the NULL test, which the
 * verifier refuses (arithmetic on map_value_or_null) unless it is st itself.
 */
struct fl_task {
	struct fl_mmap_state m;
	struct fl_fstate f;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct fl_cpu_stats);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fl_pcpu);
} pcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct fl_task);
} tstate SEC(".maps");


/* Set by user space before load. */
const volatile struct fl_kvals kvals = {};
const volatile bool time_hmf = false;		/* --hmf: time handle_mm_fault calls */
/*
 * A handle_mm_fault entry program is attached (--hmf, or the kprobe tier's
 * kprobe for the flags): only then can hmf_start_ns / hmf_in_fault be set,
 * so without one the fault programs skip testing them, and the verifier
 * drops that code.  The kretprobe tier gained more than the tests: on the
 * cost meter a kprobe program's JITed size costs each fault too
 * (Documentation/overhead.rst, "Design choices").
 */
const volatile bool hmf_entry = false;
/*
 * kprobe tier on per-VMA-lock kernels without --hmf that do not preempt
 * kernel code: no kprobe at the handle_mm_fault entry; the kretprobe tells
 * a VMA-locked call from an mmap_lock one by the mmap_lock tracepoints
 * (kret_flags()).
 */
const volatile bool kp_lock_infer = false;
/*
 * kprobe tier with the abort / retry reasons (preemptible kernels, where it
 * is the loss-free tier: user/backend_bpf.c): the entry kprobe keeps the
 * call's VMA and address, the kretprobe reads the VMA on the abort path.
 */
const volatile bool kp_why = false;

/* Which per-CPU slot is live; flipped by user space for -i snapshots. */
volatile __u32 slot = 0;

/*
 * Fault states lost because the kernel refused the task storage to move
 * them into at a switch (tp_sched_switch): a creation fails while any task
 * on this CPU is inside a task-storage helper, and a BPF program preempted
 * there (the phases and blame ones, on preemptible kernels) keeps the
 * per-CPU bpf_task_storage_busy held until it runs again.  Each is one
 * fault counted in events_missed; user space tags it bpf_lost.task_states.
 */
volatile __u64 states_refused = 0;

char LICENSE[] SEC("license") = "Dual BSD/GPL";

static __always_inline struct fl_cpu_stats *cpu_stats(void)
{
	__u32 key = slot;	/* 0 or 1; anything else would find no entry */

	return bpf_map_lookup_elem(&stats, &key);
}

static __always_inline struct fl_pcpu *pcpu_get(void)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(&pcpu, &key);
}

/* The current task's address (compared, never dereferenced) and tgid. */
static __always_inline fl_u64 cur_ids(__u32 *tgid)
{
	struct task_struct *t;

	if (!task_btf) {
		*tgid = bpf_get_current_pid_tgid() >> 32;
		return bpf_get_current_task();
	}
	t = bpf_get_current_task_btf();
	*tgid = t->tgid;
	return (fl_u64)t;
}

/* The current task's tgid. */
static __always_inline __u64 cur_tgid(void)
{
	if (!task_btf)
		return bpf_get_current_pid_tgid() >> 32;
	return (__u32)bpf_get_current_task_btf()->tgid;
}

/*
 * Kernel threads and tasks without an mm are not traced, as in the module
 * (module/probes.c fl_want(); Documentation/architecture.rst, "Which tasks
 * and contexts count"): a kernel thread on a borrowed mm (kthread_use_mm),
 * a usermode helper copying its arguments into the new mm before its exec
 * completes (GUP from a kernel thread, or on 6.x from a user_mode_thread
 * without an mm).  Tested only where such a task can be -- a kernel-mode
 * fault on a user address, handle_mm_fault outside a fault (GUP), mmap_lock
 * and contention events (after the own-mm test) -- so a user-mode fault,
 * never theirs, pays nothing.  PF_KTHREAD (include/linux/sched.h) is
 * 0x00200000 on every kernel this runs on.
 */
#define FL_PF_KTHREAD	0x00200000

static __always_inline bool cur_kthread_or_no_mm(void)
{
	struct task_struct *t;

	if (task_btf) {
		t = bpf_get_current_task_btf();
		return (t->flags & FL_PF_KTHREAD) || !t->mm;
	}
	t = (struct task_struct *)bpf_get_current_task();
	return (BPF_CORE_READ(t, flags) & FL_PF_KTHREAD) || !BPF_CORE_READ(t, mm);
}

/* Per-task state: task-local storage, or the tid-keyed hash (5.10). */
FL_TSTORE(tstore, tstate, struct fl_task)

/* Is the current task traced? */
static __always_inline bool traced_cur(void)
{
	return fl_tgid_traced(cur_tgid());
}

/*
 * The current task's state, created on first use for traced tasks.  A task
 * has state only if it was traced once (the tgid set never shrinks).
 */
static __always_inline struct fl_task *task_state(void)
{
	struct fl_cpu_stats *cs;
	struct fl_task *st;

	st = tstore_cur(false);
	if (st)
		return st;
	if (!traced_cur())
		return NULL;
	st = tstore_cur(true);
	if (!st) {
		cs = cpu_stats();
		if (cs)
			cs->cnt[FL_C_MISSED]++;
	}
	return st;
}

static __always_inline bool fstate_busy(const struct fl_fstate *f)
{
	return f->fs.start_ns || f->hmf_start_ns || f->hmf_in_fault;
}

/*
 * The current task's fault state: this CPU's slot if it is the task's, else
 * what tp_sched_switch moved into its storage (NULL when there is none).
 */
static __always_inline struct fl_fstate *fault_get(struct fl_pcpu *pc)
{
	struct fl_task *st;

	if (pc->task == fl_cur_task())
		return &pc->f;
	st = tstore_cur(false);
	return st && fstate_busy(&st->f) ? &st->f : NULL;
}

/*
 * The kernel values by a plain pointer that clang cannot trace back to the
 * const volatile .rodata (else it folds every field to its {} initialiser,
 * all 0): loads happen where a field is used, not all at once into a copy
 * kept across the calls.  The verifier still reads the frozen map's values
 * and prunes on them.  With the lazy VMA reads below: -12 per fault on the
 * 6.1 fexit row, -13 on 6.12 (overhead.rst).
 */
static __always_inline const struct fl_kvals *kvals_ptr(void)
{
	const struct fl_kvals *kv = (const struct fl_kvals *)(unsigned long)&kvals;

	barrier_var(kv);
	return kv;
}

/* ---- fault entry (every tier) ---------------------------------------- */

/*
 * A kernel-mode fault that is not a task's fault on its own user memory:
 * a vmalloc / kernel-address fault, a kernel thread on a borrowed mm, or a
 * fault outside task context (perf's NMI / IRQ user-stack copies).  Both
 * fault programs of every tier ask; user-mode faults never pay for it.
 */
static __always_inline bool kfault_not_ours(unsigned long address)
{
	return address >= FL_USER_ADDR_END || cur_kthread_or_no_mm() || !cur_in_task();
}

/*
 * PG (the *_pg programs, preemptible kernels only): a task claiming this
 * CPU's slot gets its storage now if it has none, so that a switch in the
 * middle of the fault need not create it (fx_hmf_pg below says why that
 * fails there).  A constant: the other programs compile without it.
 */
static __always_inline int on_fault_start(unsigned long address, int kernel_mode, bool pg)
{
	struct fl_cpu_stats *cs;
	struct fl_pcpu *pc;
	struct fl_fstate *f;
	struct fl_task *st;
	__u32 tgid;
	fl_u64 me;

	if (kernel_mode && kfault_not_ours(address))
		return 0;
	me = cur_ids(&tgid);
	if ((filter_tgid && !fl_tgid_set(tgid)) || !(cs = cpu_stats()))
		return 0;
	pc = pcpu_get();
	if (!pc)
		return 0;
	f = &pc->f;
	if (pc->task != me) {
		/* a fault of ours left in storage (switched out, never ended) */
		st = tstore_cur(false);
		if (st && fstate_busy(&st->f)) {
			f = &st->f;
		} else {
			if (pg && !st)		/* may fail (busy): tried again at the switch */
				tstore_cur(true);
			if (fstate_busy(&pc->f))	/* not moved at a switch: lost */
				cs->cnt[FL_C_MISSED]++;
			__builtin_memset(&pc->f, 0, sizeof(pc->f));
			pc->task = me;
		}
	}
	if (hmf_entry && (f->hmf_start_ns || f->hmf_in_fault)) {
		/*
		 * The last handle_mm_fault entry never saw its exit: a missed
		 * kretprobe (maxactive) or a skipped fexit.  Count it, and do
		 * not call that fault "never reached handle_mm_fault".
		 */
		cs->cnt[FL_C_MISSED]++;
		f->hmf_start_ns = 0;
		f->hmf_in_fault = 0;
		f->fs.flags |= FL_FS_HMF_SEEN;
	}
	f->mm_acq = 0;
	f->mm_held = 0;	/* a user-mode fault cannot hold mmap_lock when it starts */
	fl_ev_fault_start(&f->fs, cs, bpf_ktime_get_ns(), kernel_mode);
	return 0;
}

/* bpf_preempt_disable/enable (common.bpf.h): only in the *_pg programs (fx_hmf_pg). */

SEC("tp_btf/page_fault_user")
int BPF_PROG(tp_pf_user, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	return on_fault_start(address, 0, false);
}

SEC("tp_btf/page_fault_kernel")
int BPF_PROG(tp_pf_kernel, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	return on_fault_start(address, 1, false);
}

/*
 * The same where the kernel is preemptible (user/preempt_model.c
 * fl_preempt_guard): on 7.x a tracepoint program runs preemptible too, and a
 * task switched out inside on_fault_start would leave this CPU's slot half
 * written for the next task (fx_hmf_pg below says more).
 */
SEC("tp_btf/page_fault_user")
int BPF_PROG(tp_pf_user_pg, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	bpf_preempt_disable();
	on_fault_start(address, 0, true);
	bpf_preempt_enable();
	return 0;
}

SEC("tp_btf/page_fault_kernel")
int BPF_PROG(tp_pf_kernel_pg, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	bpf_preempt_disable();
	on_fault_start(address, 1, true);
	bpf_preempt_enable();
	return 0;
}

/*
 * The tracepoint tier: no handle_mm_fault exit ends a fault there, so a
 * fault's start is only counted (fl_ev_fault_start's count), with no state
 * and no clock read.  Programs of their own: every register and .rodata test
 * of on_fault_start's state path costs each fault something even where it is
 * never taken (callee-saved registers are pushed for the whole program).
 */
static __always_inline int count_fault(unsigned long address, int kernel_mode)
{
	struct fl_cpu_stats *cs;

	if (kernel_mode && kfault_not_ours(address))
		return 0;
	if (!traced_cur() || !(cs = cpu_stats()))
		return 0;
	cs->cnt[kernel_mode ? FL_C_FAULTS_KERNEL : FL_C_FAULTS_USER]++;
	return 0;
}

SEC("tp_btf/page_fault_user")
int BPF_PROG(tp_pf_user_cnt, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	return count_fault(address, 0);
}

SEC("tp_btf/page_fault_kernel")
int BPF_PROG(tp_pf_kern_cnt, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	return count_fault(address, 1);
}

/*
 * A task switched out gives up this CPU's slot, and takes a fault in flight
 * along into its storage: a slot belongs only to the task running here.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(tp_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	struct fl_pcpu *pc = pcpu_get();
	struct fl_task *st;

	if (!pc)
		return 0;
	if (pc->task != (fl_u64)prev) {
		/* its last switch, with a lost end moved to its storage earlier */
		if (prev->exit_state && (st = tstore_task(prev, false)) && st->f.fs.start_ns) {
			struct fl_cpu_stats *cs = cpu_stats();

			if (cs)
				fl_ev_fault_gone(&st->f.fs, cs);
			st->f.fs.start_ns = 0;
		}
		return 0;
	}
	pc->task = 0;
	if (!fstate_busy(&pc->f))
		return 0;
	/*
	 * A task's last switch (exit_notify has run: no mm, no more faults)
	 * with a fault in flight: that fault's end was never seen (a skipped
	 * handle_mm_fault return).  Counted here, not lost with the task.
	 */
	if (prev->exit_state) {
		struct fl_cpu_stats *cs = cpu_stats();

		if (cs && pc->f.fs.start_ns)
			fl_ev_fault_gone(&pc->f.fs, cs);
		__builtin_memset(&pc->f, 0, sizeof(pc->f));
		return 0;
	}
	st = tstore_task(prev, true);
	if (st) {
		st->f = pc->f;
	} else {
		struct fl_cpu_stats *cs = cpu_stats();

		if (cs) {
			cs->cnt[FL_C_MISSED]++;
			__sync_fetch_and_add(&states_refused, 1);
		}
	}
	__builtin_memset(&pc->f, 0, sizeof(pc->f));
	return 0;
}

/* ---- handle_mm_fault (fentry and kprobe tiers) ------------------------ */

/* Entry: only for --hmf (a clock read) and the kprobe tier (the flags). */
static __always_inline void on_hmf_enter(fl_u32 flags, bool in_fault, void *vma,
					 unsigned long address)
{
	struct fl_pcpu *pc = pcpu_get();
	struct fl_fstate *f;

	if (!pc)
		return;
	f = fault_get(pc);
	if (!f) {
		/* a call outside a fault (GUP): --hmf times it too, if traced */
		if (!time_hmf || !traced_cur() || cur_kthread_or_no_mm())
			return;
		if (fstate_busy(&pc->f)) {	/* not moved at a switch: lost */
			struct fl_cpu_stats *cs = cpu_stats();

			if (cs)
				cs->cnt[FL_C_MISSED]++;
		}
		__builtin_memset(&pc->f, 0, sizeof(pc->f));
		pc->task = fl_cur_task();
		f = &pc->f;
	}
	if (f->hmf_start_ns || f->hmf_in_fault) {	/* the previous call's exit was missed */
		struct fl_cpu_stats *cs = cpu_stats();

		if (cs)
			cs->cnt[FL_C_MISSED]++;
	}
	f->hmf_start_ns = time_hmf ? bpf_ktime_get_ns() : 0;
	f->hmf_flags = flags;
	f->hmf_in_fault = in_fault;
	if (kp_why) {
		f->hmf_vma = (fl_u64)vma;
		f->hmf_addr = address;
	}
}

/*
 * Abort and retry reasons (classify.h, fl_ev_ll_why): the fields of the
 * call's VMA, read only on that path.  vm_lock_seq and an int mm_lock_seq
 * (6.4..6.11) or a seqcount one (6.12+): flavours, so that one object loads
 * on both; kvals.ll_why is set only where the fields exist (fexit tier).
 */
struct fl_seqcount___llw {
	unsigned int sequence;
};

struct mm_struct___llw_sc {
	struct fl_seqcount___llw mm_lock_seq;
} __attribute__((preserve_access_index));

struct mm_struct___llw_int {
	int mm_lock_seq;
} __attribute__((preserve_access_index));

struct vm_area_struct___llw {
	unsigned long vm_start;
	unsigned long vm_flags;
	unsigned int vm_lock_seq;
	struct mm_struct *vm_mm;
	void *anon_vma;
} __attribute__((preserve_access_index));

/*
 * Only on the abort / retry path: a successful lockless fault reads nothing.
 * Direct loads of the fexit's BTF pointer (the kernel's exception table
 * turns a faulting one into 0), not bpf_probe_read: with helper calls in
 * the program (or this as a __noinline subprog) the fentry row paid ~+200
 * per fault though no fault it measured ran them (overhead.rst).
 */
static __always_inline void ll_why(struct fl_fault_state *st, struct fl_cpu_stats *cs,
				   fl_u32 need, struct vm_area_struct *v, unsigned long address)
{
	struct vm_area_struct___llw *vma = (void *)v;
	struct fl_vma_look look = { .address = address, .ok = 1 };
	struct mm_struct *mm;

	if (!bpf_core_field_exists(vma->vm_lock_seq) || !vma)
		return;
	look.anon = vma->anon_vma != NULL;
	look.vm_lock_seq = vma->vm_lock_seq;
	look.vm_start = vma->vm_start;
	look.vm_flags = vma->vm_flags;
	mm = vma->vm_mm;
	if (!mm)
		look.ok = 0;
	else if (bpf_core_field_exists(((struct mm_struct___llw_sc *)0)->mm_lock_seq))
		look.mm_lock_seq = ((struct mm_struct___llw_sc *)mm)->mm_lock_seq.sequence;
	else
		look.mm_lock_seq = ((struct mm_struct___llw_int *)mm)->mm_lock_seq;
	fl_ev_ll_why(st, cs, need, &look);
}

/* The same read through bpf_probe_read (kprobe tier: VMA is a saved address). */
static __always_inline void ll_why_probe(struct fl_fault_state *st, struct fl_cpu_stats *cs,
					 fl_u32 need, fl_u64 v, unsigned long address)
{
	struct vm_area_struct___llw *vma = (void *)v;
	struct fl_vma_look look = { .address = address, .ok = 1 };
	struct mm_struct *mm;

	if (!bpf_core_field_exists(vma->vm_lock_seq) || !vma)
		return;
	look.anon = BPF_CORE_READ(vma, anon_vma) != NULL;
	look.vm_lock_seq = BPF_CORE_READ(vma, vm_lock_seq);
	look.vm_start = BPF_CORE_READ(vma, vm_start);
	look.vm_flags = BPF_CORE_READ(vma, vm_flags);
	mm = BPF_CORE_READ(vma, vm_mm);
	if (!mm)
		look.ok = 0;
	else if (bpf_core_field_exists(((struct mm_struct___llw_sc *)0)->mm_lock_seq))
		look.mm_lock_seq = BPF_CORE_READ((struct mm_struct___llw_sc *)mm,
						 mm_lock_seq.sequence);
	else
		look.mm_lock_seq = BPF_CORE_READ((struct mm_struct___llw_int *)mm, mm_lock_seq);
	fl_ev_ll_why(st, cs, need, &look);
}

/*
 * A handle_mm_fault return at NOW; F = fault_get(PC), looked up by the
 * caller.  The callers read the clock first thing: the lookups before it
 * would otherwise be inside the latency the fault reports.  ARGS: the
 * fexit's context (vma, address first), NULL elsewhere: its VMA and
 * address are loaded only where the reasons are read (loaded at the
 * program's start, clang kept both on the stack across its calls).
 */
static __always_inline void hmf_exit(struct fl_fstate *f, fl_u32 flags, fl_u32 ret,
				     bool in_fault, fl_u64 now, const unsigned long long *args)
{
	struct fl_cpu_stats *cs;
	const struct fl_kvals *kv;
	fl_u32 need = 0;
	fl_u64 lat;

	if (!(cs = cpu_stats()))
		return;
	if (!f) {
		/* no fault in flight: a call from GUP and friends, if traced */
		if (traced_cur() && !cur_kthread_or_no_mm())
			fl_ev_hmf_call(cs);
		return;
	}
	kv = kvals_ptr();
	if (hmf_entry) {
		if (f->hmf_start_ns) {
			fl_hist_add(&cs->hist[FL_H_HMF], now - f->hmf_start_ns);
			f->hmf_start_ns = 0;
		}
		f->hmf_in_fault = 0;
	}
	/* GUP and friends call handle_mm_fault with regs == NULL: no fault. */
	if (!in_fault) {
		fl_ev_hmf_call(cs);
		return;
	}
	lat = fl_ev_hmf_exit(&f->fs, cs, kv, flags, ret, now, &need);
	if (lat)
		fl_hist_add(&cs->hist[FL_H_FAULT_LAT], lat);
	if (need && args)
		ll_why(&f->fs, cs, need, (struct vm_area_struct *)args[0], args[1]);
	else if (need && kp_why && f->hmf_vma)
		ll_why_probe(&f->fs, cs, need, f->hmf_vma, f->hmf_addr);
}

static __always_inline void on_hmf_exit(fl_u32 flags, fl_u32 ret, bool in_fault,
					const unsigned long long *args)
{
	fl_u64 now = bpf_ktime_get_ns();
	struct fl_pcpu *pc = pcpu_get();

	if (pc)
		hmf_exit(fault_get(pc), flags, ret, in_fault, now, args);
}

/* fentry tier: fexit alone ends and classifies a fault; fentry only for --hmf */
SEC("fentry/handle_mm_fault")
int BPF_PROG(fe_hmf, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, struct pt_regs *regs)
{
	on_hmf_enter(flags, regs != NULL, NULL, 0);
	return 0;
}

/*
 * --hmf on preemptible kernels: the entry writes the slot's call state as
 * the exit does, so its body is kept in one piece the same way (fx_hmf_pg
 * below).  Unguarded, a task switched out inside it wrote hmf_start_ns into
 * a slot already moved to its storage: its call went untimed and the stale
 * slot counted one events_missed with no skipped run (7.3 bpf_record).
 */
SEC("fentry/handle_mm_fault")
int BPF_PROG(fe_hmf_pg, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, struct pt_regs *regs)
{
	bpf_preempt_disable();
	on_hmf_enter(flags, regs != NULL, NULL, 0);
	bpf_preempt_enable();
	return 0;
}

SEC("fexit/handle_mm_fault")
int BPF_PROG(fx_hmf, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, struct pt_regs *regs, unsigned int ret)
{
	on_hmf_exit(flags, ret, regs != NULL, ctx);
	return 0;
}

/*
 * Preemptible kernels (6.12 preempt=full, 7.x lazy): the fexit body runs
 * with migration disabled but preemptible, so a task switched out inside it
 * would have tp_sched_switch move the fault state it is updating into its
 * storage while it goes on writing this CPU's slot -- now another task's --
 * and would share this CPU's counters with the next task's run (a ++ split
 * in two).  bpf_preempt_disable() (6.10+ kfunc) keeps the body in one
 * piece; a preemption due meanwhile happens at bpf_preempt_enable(), when
 * the state is consistent.  It does not close the trampoline's own window
 * (the recursion guard is taken before the body and dropped after it), so
 * the guard still skips runs: those are counted, per figure
 * (Documentation/architecture.rst, "Preemptible kernels").  A program of
 * its own, loaded only there (user/backend_bpf.c): the kfunc does not exist
 * before 6.10, and elsewhere a fault pays nothing for it.
 */
SEC("fexit/handle_mm_fault")
int BPF_PROG(fx_hmf_pg, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, struct pt_regs *regs, unsigned int ret)
{
	bpf_preempt_disable();
	on_hmf_exit(flags, ret, regs != NULL, ctx);
	bpf_preempt_enable();
	return 0;
}

/* SPF (Lespinasse): handle_mm_fault is an inline wrapper of this one. */
SEC("fentry/do_handle_mm_fault")
int BPF_PROG(fe_do_hmf, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, unsigned long seq, struct pt_regs *regs)
{
	on_hmf_enter(flags, regs != NULL, NULL, 0);
	return 0;
}

SEC("fexit/do_handle_mm_fault")
int BPF_PROG(fx_do_hmf, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, unsigned long seq, struct pt_regs *regs,
	     unsigned int ret)
{
	on_hmf_exit(flags, ret, regs != NULL, ctx);
	return 0;
}

/* SPF (Dufour): the speculative attempt is a function of its own. */
SEC("fentry/__handle_speculative_fault")
int BPF_PROG(fe_spf, struct mm_struct *mm, unsigned long address,
	     unsigned int flags)
{
	on_hmf_enter(flags | kvals.ll_flag, true, NULL, 0);
	return 0;
}

SEC("fexit/__handle_speculative_fault")
int BPF_PROG(fx_spf, struct mm_struct *mm, unsigned long address,
	     unsigned int flags, int ret)
{
	on_hmf_exit(flags | kvals.ll_flag, ret, true, NULL);
	return 0;
}

/*
 * kprobe tier: the kretprobe has no arguments.  Where the flags matter (a
 * lockless kind, or --hmf) the kprobe saves them; else a return inside a
 * fault in flight is the fault's, any other a call from GUP.
 */
static __always_inline fl_u32 vm_fault_completed(void)
{
	if (bpf_core_enum_value_exists(enum vm_fault_reason, VM_FAULT_COMPLETED))
		return bpf_core_enum_value(enum vm_fault_reason, VM_FAULT_COMPLETED);
	return 0;	/* before 5.19 */
}

/* kp_lock_infer: the flags of this call, told from the mmap_lock events (classify.h) */
static __always_inline fl_u32 kret_flags(struct fl_fstate *f, fl_u32 ret)
{
	int vma_locked = fl_kret_vma_locked(f->mm_acq, f->mm_held, ret,
					    kvals.vm_fault_retry | vm_fault_completed());

	f->mm_acq = 0;
	return vma_locked ? kvals.ll_flag : 0;
}

static __always_inline void on_kret(fl_u32 ret)
{
	fl_u64 now = bpf_ktime_get_ns();
	struct fl_pcpu *pc = pcpu_get();
	struct fl_fstate *f;

	if (!pc)
		return;
	f = fault_get(pc);
	if (!f)
		hmf_exit(f, 0, ret, false, now, NULL);
	else if (hmf_entry && (f->hmf_in_fault || f->hmf_start_ns))
		hmf_exit(f, f->hmf_flags, ret, f->hmf_in_fault, now, NULL);
	else if (kp_lock_infer && f->fs.start_ns)
		hmf_exit(f, kret_flags(f, ret), ret, true, now, NULL);
	else
		hmf_exit(f, 0, ret, f->fs.start_ns != 0, now, NULL);
}

SEC("kprobe/handle_mm_fault")
int BPF_KPROBE(kp_hmf, struct vm_area_struct *vma, unsigned long address,
	       unsigned int flags, struct pt_regs *regs)
{
	on_hmf_enter(flags, regs != NULL, vma, address);
	return 0;
}

SEC("kretprobe/handle_mm_fault")
int BPF_KRETPROBE(krp_hmf, unsigned int ret)
{
	on_kret(ret);
	return 0;
}

SEC("kprobe/do_handle_mm_fault")
int BPF_KPROBE(kp_do_hmf, struct vm_area_struct *vma, unsigned long address,
	       unsigned int flags, unsigned long seq, struct pt_regs *regs)
{
	on_hmf_enter(flags, regs != NULL, NULL, 0);
	return 0;
}

SEC("kretprobe/do_handle_mm_fault")
int BPF_KRETPROBE(krp_do_hmf, unsigned int ret)
{
	on_kret(ret);
	return 0;
}

SEC("kprobe/__handle_speculative_fault")
int BPF_KPROBE(kp_spf, struct mm_struct *mm, unsigned long address,
	       unsigned int flags)
{
	on_hmf_enter(flags | kvals.ll_flag, true, NULL, 0);
	return 0;
}

SEC("kretprobe/__handle_speculative_fault")
int BPF_KRETPROBE(krp_spf, int ret)
{
	on_kret(ret);
	return 0;
}

/* ---- mmap_lock tracepoints (every tier) ------------------------------ */

/* kp_lock_infer: the fault in flight read-acquired (HELD) or released mmap_lock */
static __always_inline void fault_mmap_lock(bool held)
{
	struct fl_pcpu *pc = pcpu_get();
	struct fl_fstate *f;

	if (!pc || !(f = fault_get(pc)) || !f->fs.start_ns)
		return;
	f->mm_held = held;
	if (held)
		f->mm_acq = 1;
}

static __always_inline bool own_mm(struct mm_struct *mm)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return mm && t->mm == mm && !(t->flags & FL_PF_KTHREAD);	/* kthread_use_mm */
}

/* The current task's mmap_lock state: created (CREATE) or only looked up. */
static __always_inline struct fl_mmap_state *mmap_state(bool create)
{
	struct fl_task *st;

	if (create)
		st = task_state();
	else
		st = tstore_cur(false);
	return st ? &st->m : NULL;
}

static __always_inline void on_mmap_start(struct mm_struct *mm, bool write)
{
	struct fl_mmap_state *ms;

	if (!own_mm(mm))
		return;
	ms = mmap_state(true);
	if (ms)
		fl_mmap_ev_start(ms, bpf_ktime_get_ns());
}

static __always_inline void on_mmap_acquired(struct mm_struct *mm, bool write, bool success)
{
	struct fl_cpu_stats *cs;
	struct fl_mmap_state *ms;

	if (!own_mm(mm))
		return;
	if (kp_lock_infer && success && !write)
		fault_mmap_lock(true);
	/* a failure is counted for every traced task, with state or not */
	ms = mmap_state(success);
	if (!ms && (success || !traced_cur()))
		return;
	cs = cpu_stats();
	if (cs)
		fl_mmap_ev_acquired(ms, cs, write, success, bpf_ktime_get_ns());
}

static __always_inline void on_mmap_released(struct mm_struct *mm, bool write)
{
	struct fl_cpu_stats *cs;
	struct fl_mmap_state *ms;

	if (!own_mm(mm))
		return;
	if (kp_lock_infer && !write)
		fault_mmap_lock(false);
	ms = mmap_state(false);
	if (!ms || !ms->hold_start_ns)
		return;
	cs = cpu_stats();
	if (cs)
		fl_mmap_ev_released(ms, cs, write, bpf_ktime_get_ns());
}

/* Both prototypes (common.bpf.h). */
FL_MMAP_START_PROGS(tp_mmap_start_memcg, tp_mmap_start, on_mmap_start(mm, write))
FL_MMAP_ACQ_PROGS(tp_mmap_acq_memcg, tp_mmap_acq, on_mmap_acquired(mm, write, success))
FL_MMAP_REL_PROGS(tp_mmap_rel_memcg, tp_mmap_rel, on_mmap_released(mm, write))

/*
 * The same where the kernel is preemptible (preempt_model.c fl_preempt_guard):
 * on 7.x a tracepoint program runs preemptible, and one switched out
 * mid-run keeps its per-CPU recursion guard, so the kernel skips it for
 * every other task on that CPU until it resumes (architecture.rst,
 * "Preemptible kernels").  The body in one piece narrows that window to
 * the guard's own instructions; the kprobe tier infers lockless outcomes
 * from these events, so a skipped one would miscount a fault.
 */
#define PREEMPT_OFF(stmt)	bpf_preempt_disable(); stmt; bpf_preempt_enable()
FL_MMAP_START_PROGS(tp_mmap_start_memcg_pg, tp_mmap_start_pg,
		    PREEMPT_OFF(on_mmap_start(mm, write)))
FL_MMAP_ACQ_PROGS(tp_mmap_acq_memcg_pg, tp_mmap_acq_pg,
		  PREEMPT_OFF(on_mmap_acquired(mm, write, success)))
FL_MMAP_REL_PROGS(tp_mmap_rel_memcg_pg, tp_mmap_rel_pg,
		  PREEMPT_OFF(on_mmap_released(mm, write)))

/* ---- lock:contention_begin/end on the task's own mmap_lock ----------- */

static __always_inline bool is_own_mmap_lock(void *lock)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct *mm = t->mm;

	return mm && lock == (void *)&mm->mmap_lock && !(t->flags & FL_PF_KTHREAD);
}

static __always_inline void on_contention_begin(void *lock)
{
	struct fl_mmap_state *ms;
	struct fl_cpu_stats *cs;

	if (!is_own_mmap_lock(lock))
		return;
	/* counted for every traced task, timed where it has state (mmaplock.h) */
	ms = mmap_state(true);
	if (!ms && !traced_cur())
		return;
	cs = cpu_stats();
	if (cs)
		fl_mmap_ev_contend_begin(ms, cs, bpf_ktime_get_ns());
}

static __always_inline void on_contention_end(void *lock)
{
	struct fl_mmap_state *ms;
	struct fl_cpu_stats *cs;

	if (!is_own_mmap_lock(lock))
		return;
	ms = mmap_state(false);
	if (!ms || !ms->contend_start_ns)
		return;
	cs = cpu_stats();
	if (cs)
		fl_mmap_ev_contend_end(ms, cs, bpf_ktime_get_ns());
}

SEC("tp_btf/contention_begin")
int BPF_PROG(tp_contention_begin, void *lock, unsigned int flags)
{
	on_contention_begin(lock);
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(tp_contention_end, void *lock, int ret)
{
	on_contention_end(lock);
	return 0;
}

/* Preemptible kernels: as the mmap_lock programs above (MMAP_PG). */
SEC("tp_btf/contention_begin")
int BPF_PROG(tp_contention_begin_pg, void *lock, unsigned int flags)
{
	bpf_preempt_disable();
	on_contention_begin(lock);
	bpf_preempt_enable();
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(tp_contention_end_pg, void *lock, int ret)
{
	bpf_preempt_disable();
	on_contention_end(lock);
	bpf_preempt_enable();
	return 0;
}

/* ---- follow the workload's children ---------------------------------- */

FL_FORK_FOLLOWER(tp_fork)

/* 5.10 (no task-local storage): a task's hash entry goes with the task. */
FL_TSTORE_EXIT_PROG(tp_exit, tstate)
