// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * faultline CO-RE programs: fault latency, handle_mm_fault duration,
 * lockless-path outcomes, mmap_lock wait/hold/contention.
 *
 * One skeleton, three hook tiers chosen at load time by user/backend_bpf.c
 * with bpf_program__set_autoload():
 *   fentry      fentry/fexit handle_mm_fault (+ lock_vma_under_rcu) + tp_btf
 *   kprobe      kprobe/kretprobe on the same functions              + tp_btf
 *   tracepoint  tp_btf only (fault counts, mmap_lock, contention)
 * Every tier calls the same __always_inline handlers below; the fault state
 * machine itself is include/faultline/classify.h (shared with the module).
 *
 * Storage: per-CPU array (two slots, flipped by user space for interval
 * snapshots) for the statistics, task-local storage for the per-task fault
 * and mmap_lock state.  No map that every CPU writes to.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include <faultline/abi.h>
#include <faultline/classify.h>

/* 4096: room for pft -n 1024 and its parents; keeps the maps <= 8 MiB at 256 CPUs */
#define FL_MAX_TGIDS	4096
#define FL_USER_ADDR_END 0x8000000000000000ULL	/* canonical lower half (x86_64, arm64) */

/* Per-task state: the fault in flight plus mmap_lock / hmf timestamps. */
struct fl_task {
	struct fl_fault_state fs;
	fl_u64 hmf_start_ns;		/* entry of the current handle_mm_fault call */
	fl_u32 hmf_flags;		/* its flags (kprobe tier: kretprobe has no args) */
	fl_u32 hmf_in_fault;		/* regs != NULL: called from the fault handler */
	fl_u64 mwait_start_ns;		/* mmap_lock_start_locking */
	fl_u64 mhold_start_ns;		/* mmap_lock_acquire_returned(success) */
	fl_u32 mwait_write;
	fl_u32 mhold_write;
	fl_u64 contend_start_ns;	/* lock:contention_begin on mmap_lock */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct fl_cpu_stats);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct fl_task);
} tstate SEC(".maps");

/* Traced thread groups; written from user space and at fork only. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FL_MAX_TGIDS);
	__type(key, __u32);
	__type(value, __u8);
} tgids SEC(".maps");

/* Set by user space before load. */
const volatile bool filter_tgid = false;	/* false: system-wide */
const volatile bool follow_fork = true;
const volatile struct fl_kvals kvals = {};
/*
 * false in the tracepoint tier: no handle_mm_fault exit ends a fault there,
 * so a fault's start is only counted, with no per-task state and no clock
 * read (kvm-clock: lfence + rdtsc + pvclock), the bulk of that tier's cost.
 */
const volatile bool fault_state = true;

/* Which per-CPU slot is live; flipped by user space for -i snapshots. */
volatile __u32 slot = 0;

char LICENSE[] SEC("license") = "Dual BSD/GPL";

static __always_inline struct fl_cpu_stats *cpu_stats(void)
{
	__u32 key = slot & 1;

	return bpf_map_lookup_elem(&stats, &key);
}

static __always_inline bool traced(void)
{
	__u32 tgid;

	if (!filter_tgid)
		return true;
	tgid = bpf_get_current_pid_tgid() >> 32;
	return bpf_map_lookup_elem(&tgids, &tgid) != NULL;
}

/*
 * The current task's state, created on first use for traced tasks.  A task
 * has state only if it was traced once (the tgid set never shrinks), so the
 * hash lookup is paid by untraced tasks only.
 */
static __always_inline struct fl_task *task_state(void)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct fl_task *st;
	struct fl_cpu_stats *cs;

	st = bpf_task_storage_get(&tstate, t, 0, 0);
	if (st)
		return st;
	if (!traced())
		return NULL;
	st = bpf_task_storage_get(&tstate, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!st) {
		cs = cpu_stats();
		if (cs)
			cs->cnt[FL_C_MISSED]++;
	}
	return st;
}

static __always_inline void read_kvals(struct fl_kvals *kv)
{
	kv->ll_kind = kvals.ll_kind;
	kv->ll_flag = kvals.ll_flag;
	kv->vm_fault_retry = kvals.vm_fault_retry;
	kv->ll_infer = kvals.ll_infer;
}

/* ---- fault entry (every tier) ---------------------------------------- */

static __always_inline int on_fault_start(unsigned long address, int kernel_mode)
{
	struct fl_cpu_stats *cs;
	struct fl_task *st;

	if (kernel_mode && address >= FL_USER_ADDR_END)
		return 0;	/* vmalloc / kernel-address faults: not ours */
	if (!fault_state) {
		struct fl_fault_state none = {};

		if (!traced() || !(cs = cpu_stats()))
			return 0;
		fl_ev_fault_start(&none, cs, 0, kernel_mode);
		return 0;
	}
	st = task_state();
	if (!st)
		return 0;
	cs = cpu_stats();
	if (!cs)
		return 0;
	if (st->hmf_start_ns) {
		/*
		 * The last handle_mm_fault entry never saw its exit: a missed
		 * kretprobe (maxactive) or a skipped fexit.  Count it, and do
		 * not call that fault "never reached handle_mm_fault".
		 */
		cs->cnt[FL_C_MISSED]++;
		st->hmf_start_ns = 0;
		st->fs.flags |= FL_FS_HMF_SEEN;
	}
	fl_ev_fault_start(&st->fs, cs, bpf_ktime_get_ns(), kernel_mode);
	return 0;
}

SEC("tp_btf/page_fault_user")
int BPF_PROG(tp_pf_user, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	return on_fault_start(address, 0);
}

SEC("tp_btf/page_fault_kernel")
int BPF_PROG(tp_pf_kernel, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	return on_fault_start(address, 1);
}

/* ---- handle_mm_fault and friends (fentry and kprobe tiers) ----------- */

static __always_inline void on_hmf_enter(fl_u32 flags, bool in_fault)
{
	struct fl_task *st = task_state();
	struct fl_cpu_stats *cs;

	if (!st)
		return;
	if (st->hmf_start_ns) {		/* the previous call's exit was missed */
		cs = cpu_stats();
		if (cs)
			cs->cnt[FL_C_MISSED]++;
	}
	st->hmf_start_ns = bpf_ktime_get_ns();
	st->hmf_flags = flags;
	st->hmf_in_fault = in_fault;
}

/* extra_flags: OR'ed into the call's flags (Dufour's SPF entry point). */
static __always_inline void on_hmf_exit(fl_u32 flags, fl_u32 ret, bool in_fault)
{
	struct fl_fault_state none = {};
	struct fl_cpu_stats *cs;
	struct fl_kvals kv;
	struct fl_task *st;
	fl_u64 now, lat;

	st = task_state();
	if (!st)
		return;
	cs = cpu_stats();
	if (!cs)
		return;
	now = bpf_ktime_get_ns();
	read_kvals(&kv);
	if (st->hmf_start_ns) {
		fl_hist_add(&cs->hist[FL_H_HMF], now - st->hmf_start_ns);
		st->hmf_start_ns = 0;
	}
	/* GUP and friends call handle_mm_fault with regs == NULL: no fault. */
	if (in_fault)
		lat = fl_ev_hmf_exit(&st->fs, cs, &kv, flags, ret, now);
	else
		lat = fl_ev_hmf_exit(&none, cs, &kv, flags, ret, now);
	if (lat)
		fl_hist_add(&cs->hist[FL_H_FAULT_LAT], lat);
}

static __always_inline void on_lock_vma_exit(bool got_vma)
{
	struct fl_cpu_stats *cs;
	struct fl_task *st;

	st = task_state();
	if (!st)
		return;
	cs = cpu_stats();
	if (!cs)
		return;
	fl_ev_lock_vma(&st->fs, cs, got_vma);
}

/* fentry tier */
SEC("fentry/handle_mm_fault")
int BPF_PROG(fe_hmf, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, struct pt_regs *regs)
{
	on_hmf_enter(flags, regs != NULL);
	return 0;
}

SEC("fexit/handle_mm_fault")
int BPF_PROG(fx_hmf, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, struct pt_regs *regs, unsigned int ret)
{
	on_hmf_exit(flags, ret, regs != NULL);
	return 0;
}

SEC("fexit/lock_vma_under_rcu")
int BPF_PROG(fx_lock_vma, struct mm_struct *mm, unsigned long address,
	     struct vm_area_struct *ret)
{
	on_lock_vma_exit(ret != NULL);
	return 0;
}

/* SPF (Lespinasse): handle_mm_fault is an inline wrapper of this one. */
SEC("fentry/do_handle_mm_fault")
int BPF_PROG(fe_do_hmf, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, unsigned long seq, struct pt_regs *regs)
{
	on_hmf_enter(flags, regs != NULL);
	return 0;
}

SEC("fexit/do_handle_mm_fault")
int BPF_PROG(fx_do_hmf, struct vm_area_struct *vma, unsigned long address,
	     unsigned int flags, unsigned long seq, struct pt_regs *regs,
	     unsigned int ret)
{
	on_hmf_exit(flags, ret, regs != NULL);
	return 0;
}

/* SPF (Dufour): the speculative attempt is a function of its own. */
SEC("fentry/__handle_speculative_fault")
int BPF_PROG(fe_spf, struct mm_struct *mm, unsigned long address,
	     unsigned int flags)
{
	on_hmf_enter(flags | kvals.ll_flag, true);
	return 0;
}

SEC("fexit/__handle_speculative_fault")
int BPF_PROG(fx_spf, struct mm_struct *mm, unsigned long address,
	     unsigned int flags, int ret)
{
	on_hmf_exit(flags | kvals.ll_flag, ret, true);
	return 0;
}

/* kprobe tier: same targets; the kretprobe takes flags from task state. */
static __always_inline void on_kret(fl_u32 ret)
{
	struct fl_task *st = task_state();

	if (!st)
		return;
	on_hmf_exit(st->hmf_flags, ret, st->hmf_in_fault);
}

SEC("kprobe/handle_mm_fault")
int BPF_KPROBE(kp_hmf, struct vm_area_struct *vma, unsigned long address,
	       unsigned int flags, struct pt_regs *regs)
{
	on_hmf_enter(flags, regs != NULL);
	return 0;
}

SEC("kretprobe/handle_mm_fault")
int BPF_KRETPROBE(krp_hmf, unsigned int ret)
{
	on_kret(ret);
	return 0;
}

SEC("kretprobe/lock_vma_under_rcu")
int BPF_KRETPROBE(krp_lock_vma, void *ret)
{
	on_lock_vma_exit(ret != NULL);
	return 0;
}

SEC("kprobe/do_handle_mm_fault")
int BPF_KPROBE(kp_do_hmf, struct vm_area_struct *vma, unsigned long address,
	       unsigned int flags, unsigned long seq, struct pt_regs *regs)
{
	on_hmf_enter(flags, regs != NULL);
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
	on_hmf_enter(flags | kvals.ll_flag, true);
	return 0;
}

SEC("kretprobe/__handle_speculative_fault")
int BPF_KRETPROBE(krp_spf, int ret)
{
	on_kret(ret);
	return 0;
}

/* ---- mmap_lock tracepoints (every tier) ------------------------------ */

static __always_inline bool own_mm(struct mm_struct *mm)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return mm && t->mm == mm;
}

static __always_inline void on_mmap_start(struct mm_struct *mm, bool write)
{
	struct fl_task *st;

	if (!own_mm(mm))
		return;
	st = task_state();
	if (!st)
		return;
	st->mwait_start_ns = bpf_ktime_get_ns();
	st->mwait_write = write;
}

static __always_inline void on_mmap_acquired(struct mm_struct *mm, bool write, bool success)
{
	struct fl_cpu_stats *cs;
	struct fl_task *st;
	fl_u64 now;

	if (!own_mm(mm))
		return;
	st = task_state();
	if (!st)
		return;
	cs = cpu_stats();
	if (!cs)
		return;
	now = bpf_ktime_get_ns();
	/* trylocks have no start_locking: no wait sample */
	if (st->mwait_start_ns) {
		fl_hist_add(&cs->hist[write ? FL_H_MMAP_WAIT_W : FL_H_MMAP_WAIT_R],
			    now - st->mwait_start_ns);
		st->mwait_start_ns = 0;
	}
	if (success) {
		st->mhold_start_ns = now;
		st->mhold_write = write;
	} else {
		cs->cnt[FL_C_MMAP_TRYLOCK_FAIL]++;
	}
}

static __always_inline void on_mmap_released(struct mm_struct *mm, bool write)
{
	struct fl_cpu_stats *cs;
	struct fl_task *st;

	if (!own_mm(mm))
		return;
	st = task_state();
	if (!st || !st->mhold_start_ns)
		return;
	cs = cpu_stats();
	if (!cs)
		return;
	fl_hist_add(&cs->hist[write ? FL_H_MMAP_HOLD_W : FL_H_MMAP_HOLD_R],
		    bpf_ktime_get_ns() - st->mhold_start_ns);
	st->mhold_start_ns = 0;
}

/* Prototype up to ~6.13: (mm, memcg_path, write[, success]). */
SEC("tp_btf/mmap_lock_start_locking")
int BPF_PROG(tp_mmap_start_memcg, struct mm_struct *mm, const char *memcg_path, bool write)
{
	on_mmap_start(mm, write);
	return 0;
}

SEC("tp_btf/mmap_lock_acquire_returned")
int BPF_PROG(tp_mmap_acq_memcg, struct mm_struct *mm, const char *memcg_path, bool write,
	     bool success)
{
	on_mmap_acquired(mm, write, success);
	return 0;
}

SEC("tp_btf/mmap_lock_released")
int BPF_PROG(tp_mmap_rel_memcg, struct mm_struct *mm, const char *memcg_path, bool write)
{
	on_mmap_released(mm, write);
	return 0;
}

/* Prototype from ~6.14: (mm, write[, success]). */
SEC("tp_btf/mmap_lock_start_locking")
int BPF_PROG(tp_mmap_start, struct mm_struct *mm, bool write)
{
	on_mmap_start(mm, write);
	return 0;
}

SEC("tp_btf/mmap_lock_acquire_returned")
int BPF_PROG(tp_mmap_acq, struct mm_struct *mm, bool write, bool success)
{
	on_mmap_acquired(mm, write, success);
	return 0;
}

SEC("tp_btf/mmap_lock_released")
int BPF_PROG(tp_mmap_rel, struct mm_struct *mm, bool write)
{
	on_mmap_released(mm, write);
	return 0;
}

/* ---- lock:contention_begin/end on the task's own mmap_lock ----------- */

static __always_inline bool is_own_mmap_lock(void *lock)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct *mm = t->mm;

	return mm && lock == (void *)&mm->mmap_lock;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(tp_contention_begin, void *lock, unsigned int flags)
{
	struct fl_cpu_stats *cs;
	struct fl_task *st;

	if (!is_own_mmap_lock(lock))
		return 0;
	st = task_state();
	if (!st)
		return 0;
	cs = cpu_stats();
	if (!cs)
		return 0;
	cs->cnt[FL_C_MMAP_CONTENDED]++;
	st->contend_start_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(tp_contention_end, void *lock, int ret)
{
	struct fl_cpu_stats *cs;
	struct fl_task *st;

	if (!is_own_mmap_lock(lock))
		return 0;
	st = task_state();
	if (!st || !st->contend_start_ns)
		return 0;
	cs = cpu_stats();
	if (!cs)
		return 0;
	fl_hist_add(&cs->hist[FL_H_MMAP_CONTEND], bpf_ktime_get_ns() - st->contend_start_ns);
	st->contend_start_ns = 0;
	return 0;
}

/* ---- follow the workload's children ---------------------------------- */

SEC("tp_btf/sched_process_fork")
int BPF_PROG(tp_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid, ctgid;
	__u8 one = 1;

	if (!filter_tgid || !follow_fork)
		return 0;
	ptgid = parent->tgid;
	ctgid = child->tgid;
	if (ptgid == ctgid)	/* a thread: already covered by its tgid */
		return 0;
	if (!bpf_map_lookup_elem(&tgids, &ptgid))
		return 0;
	if (bpf_map_update_elem(&tgids, &ctgid, &one, BPF_ANY)) {
		/* set full: this child's faults will not be seen; say so */
		struct fl_cpu_stats *cs = cpu_stats();

		if (cs)
			cs->cnt[FL_C_MISSED]++;
	}
	return 0;
}
