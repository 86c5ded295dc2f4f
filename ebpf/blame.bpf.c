// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * faultline blame: who made the faults wait for mmap_lock.  A separate,
 * optional skeleton (`record --blame`), loaded by user/blame_collect.c; design in
 * Documentation/blame.rst, shared types in include/faultline/blame.h.
 *
 * Writer side (on an mm of a traced process): the writer's call site
 * (syscall nr from its pt_regs, kernel stack id, comm) is published in
 * `holders`, keyed by mm, from its mmap_lock_start_locking (queued) or its
 * acquire (no start seen) to its release or mmap_write_downgrade -- seen
 * by the mmap_lock tracepoints, or (memcg_path kernels without per-VMA
 * locks, where those tracepoints tax every fault) by fentry/fexit on the
 * rwsem write side.  Its hold is timed by mmaplock.h's state machine
 * and split by sched_switch into on-CPU / runnable / sleeping, with direct
 * reclaim beside it.
 *
 * Fault side: a traced task that blocks on its own mm's mmap_lock for read
 * (lock:contention_begin with LCB_F_READ on &mm->mmap_lock) in the fault
 * path (a frame in lock_mm_and_find_vma / do_user_addr_fault /
 * exc_page_fault) looks up the mm's writer once; the time blocked (to
 * contention_end) is charged to that writer's site.  The contention
 * tracepoints, not start_locking -> acquire_returned: mmap_read_trylock
 * emits start_locking too (6.1, 6.12), so those would be paid by every
 * fault that takes mmap_lock and would count trylocks as waits.
 * Uncontended faults cost one task-storage lookup here (acquire_returned:
 * is it a downgrade?); faults on the per-VMA lock path cost nothing.
 * A user fault's failed read trylock in lock_mm_and_find_vma (per-VMA lock
 * kernels) is a lockless-path fallback, charged to the mm's holder.
 *
 * Storage: task-local storage for the per-task state, a hash of open write
 * holds (one insert and delete per write hold, never per fault), a per-CPU
 * hash of call sites, a stack map.  All bounded; overflows are counted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include <faultline/abi.h>
#include <faultline/hist.h>
#include <faultline/mmaplock.h>
#include <faultline/blame.h>
#include <faultline/intask.h>

#include "common.bpf.h"

#define BL_MAX_HOLDERS	4096
#define BL_FAULT_SCAN	16	/* frames looked at for the fault path */

/* The mm's writer that faults are queued behind. */
struct bl_holder {
	fl_u64 task;		/* task_struct address; compared, never dereferenced */
	struct bl_site_key site;
	fl_u32 tid;
	fl_u32 queued;		/* still waiting for the lock (start_locking seen) */
};

enum { BL_W_NONE, BL_W_FAULT };

struct bl_task {
	struct fl_mmap_state ms;	/* mmaplock.h: hold and contention of this task */
	fl_u64 hold_mm;		/* mm of the write hold followed, 0 = none */
	struct bl_site_key site; /* its call site */
	struct bl_split split;
	fl_u64 queued_mm;	/* mm of its start_locking(write) (site found then) */
	fl_u64 wait_lock;	/* the lock of the wait in flight */
	struct bl_site_key wsite; /* a fault's wait: the site charged */
	fl_u32 wblamed;		/* a holder was found for it: 1 holding, 2 queued */
	fl_u32 wkind;		/* BL_W_*: what the wait in flight is */
	fl_u32 queued;		/* start_locking(write) on queued_mm, not yet acquired */
	fl_u32 kfault;		/* a kernel-mode fault on a user address, lock not yet taken */
	fl_u32 kp_ev;		/* the event a bl_kp_* program took, its tracepoint's to drop */
	fl_u64 kp_mm;		/* ... and its mm */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct bl_task);
} btask SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BL_MAX_HOLDERS);
	__type(key, fl_u64);
	__type(value, struct bl_holder);
} holders SEC(".maps");

/* max_entries set by user space from the CPU count (blame_collect.c) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 256);
	__type(key, struct bl_site_key);
	__type(value, struct bl_site_stats);
} sites SEC(".maps");

/*
 * Stacks by hash bucket: a second stack that lands in a taken bucket gets
 * no id (counted in stack_fail; its site keeps id -1 and no frames) --
 * BPF_F_REUSE_STACKID would give the first site the second's frames.
 */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 8192);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, BL_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bl_totals);
} totals SEC(".maps");

/* A zeroed value to create a site from (never written). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bl_site_stats);
} zero_site SEC(".maps");

/*
 * Write holds open now, all mms (a hint, read by every read acquire: with
 * none open a fault's acquire_returned returns at once).  Written once per
 * write hold begin and end, never per fault.
 */
fl_u64 open_writes = 0;

/* Set by user space before load. */
/* fault-path functions (kallsyms); nr_fault_ranges 0: every read wait counts */
const volatile __u32 nr_fault_ranges = 0;
const volatile struct fl_krange fault_ranges[BL_NR_RANGES] = {};
/*
 * Per-VMA-lock kernels: count user faults that fall back to mmap_lock;
 * fault_entry is asm_exc_page_fault, where a user-mode fault's stack ends,
 * fallback_fn lock_mm_and_find_vma, the fallback's mmap_read_trylock.
 */
const volatile bool fallbacks_on = false;
const volatile struct fl_krange fault_entry = {};
const volatile struct fl_krange fallback_fn = {};
/* where the kernel's canonical upper half starts: bit 47, 56 with 5-level paging */
const volatile __u32 kaddr_bits = 47;

char LICENSE[] SEC("license") = "Dual BSD/GPL";

static __always_inline struct bl_totals *tot(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&totals, &k);
}

static __always_inline void count(fl_u32 id)
{
	struct bl_totals *t = tot();

	if (t && id < BL_M_NR)
		t->misc[id]++;
}

struct mm_struct___bl {
	struct task_struct *owner;
} __attribute__((preserve_access_index));

/*
 * A task pointer read out of a guessed mm (sem_mm() of an rwsem that may be
 * no mm's mmap_lock: anon_vma's, i_mmap's) can be any bits.  A probe read
 * of an unmapped kernel address fails quietly, but a non-canonical one
 * takes a general protection fault, which 6.1 reports with a WARNING
 * ("General protection fault in user access. Non-canonical address?"):
 * such a pointer is never dereferenced.
 */
static __always_inline bool kptr_ok(const void *p)
{
	return ((long)p >> kaddr_bits) == -1;
}

/* Is mm one of a traced process?  Its own task's, or (CONFIG_MEMCG) its owner's. */
static __always_inline bool mm_traced(struct mm_struct *mm)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct___bl *m = (void *)mm;
	struct task_struct *owner;

	if (!filter_tgid)
		return true;
	if (t->mm == mm)
		return fl_tgid_traced(t->tgid);
	if (!bpf_core_field_exists(m->owner))
		return false;
	owner = BPF_CORE_READ(m, owner);
	return kptr_ok(owner) && fl_tgid_traced(BPF_CORE_READ(owner, tgid));
}

static __always_inline struct bl_task *task_get(bool create)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct bl_task *st;

	st = bpf_task_storage_get(&btask, t, 0, 0);
	if (st || !create)
		return st;
	st = bpf_task_storage_get(&btask, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!st)
		count(BL_M_NOSTATE);
	return st;
}

/* The current task's call site: its syscall and its kernel stack. */
static __always_inline void site_of(void *ctx, struct bl_site_key *k)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct pt_regs *regs;
	long id;

	k->sysnr = BL_SYS_NONE;
	if (!(t->flags & 0x00200000)) {	/* PF_KTHREAD */
		regs = (struct pt_regs *)bpf_task_pt_regs(t);
		if (regs)
			k->sysnr = (fl_u32)BPF_CORE_READ(regs, orig_ax);
	}
	id = bpf_get_stackid(ctx, &stacks, 0);
	if (id < 0)
		count(BL_M_STACK_FAIL);
	k->stackid = (fl_u32)id;
	bpf_get_current_comm(k->comm, sizeof(k->comm));
}

static __always_inline struct bl_site_stats *site_stats(const struct bl_site_key *k)
{
	struct bl_site_stats *v;
	__u32 z = 0;
	void *zero;

	v = bpf_map_lookup_elem(&sites, k);
	if (v)
		return v;
	zero = bpf_map_lookup_elem(&zero_site, &z);
	if (!zero)
		return NULL;
	/* EEXIST: another CPU created it meanwhile; E2BIG: full (counted below) */
	bpf_map_update_elem(&sites, k, zero, BPF_NOEXIST);
	v = bpf_map_lookup_elem(&sites, k);
	if (!v)
		count(BL_M_SITES_FULL);
	return v;
}

/* Is the current task in the fault path?  A bounded scan of its stack. */
static __always_inline bool in_fault_path(void *ctx)
{
	fl_u64 stack[BL_FAULT_SCAN];
	long n;
	fl_u32 i, r;

	if (!nr_fault_ranges)
		return true;
	n = bpf_get_stack(ctx, stack, sizeof(stack), 0);
	if (n <= 0)
		return false;
	n /= sizeof(fl_u64);
	for (i = 0; i < BL_FAULT_SCAN; i++) {
		if (i >= n)
			break;
		for (r = 0; r < BL_NR_RANGES; r++) {
			if (r >= nr_fault_ranges)
				break;
			if (stack[i] >= fault_ranges[r].start && stack[i] < fault_ranges[r].end)
				return true;
		}
	}
	return false;
}

/*
 * A user-mode page fault in lock_mm_and_find_vma?  Its kernel stack ends in
 * the exception entry (a kernel-mode fault's goes on into the code that
 * faulted, and on 6.12 never tries the per-VMA lock: no FAULT_FLAG_USER),
 * and passes lock_mm_and_find_vma (not __vmf_anon_prepare's trylock, which
 * is inside the per-VMA lock path).
 */
static __always_inline bool user_fallback(void *ctx)
{
	fl_u64 stack[BL_FAULT_SCAN];
	bool in_fn = false;
	long n;
	fl_u32 i;

	n = bpf_get_stack(ctx, stack, sizeof(stack), 0);
	if (n <= 0 || n >= (long)sizeof(stack))
		return false;	/* deeper than a fault's own frames */
	n = n / sizeof(fl_u64) - 1;
	if (n < 0 || n >= BL_FAULT_SCAN)
		return false;
	if (stack[n] < fault_entry.start || stack[n] >= fault_entry.end)
		return false;
	for (i = 0; i < BL_FAULT_SCAN && i < n; i++)
		if (stack[i] >= fallback_fn.start && stack[i] < fallback_fn.end)
			in_fn = true;
	return in_fn;
}

/* The current task's write hold ended at now after `hold` ns. */
static __always_inline void hold_end(struct bl_task *st, fl_u64 mm, fl_u64 hold, fl_u64 now)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct bl_holder *h;
	struct bl_site_stats *v;
	fl_u32 i;

	bl_split_end(&st->split, now);
	__sync_fetch_and_add(&open_writes, -1);
	h = bpf_map_lookup_elem(&holders, &mm);
	if (h && h->task == (fl_u64)t)
		bpf_map_delete_elem(&holders, &mm);
	st->hold_mm = 0;
	v = site_stats(&st->site);
	if (!v)
		return;
	fl_hist_add(&v->hold, hold);
	for (i = 0; i < BL_ST_NR; i++)
		v->ns[i] += st->split.ns[i];
	v->reclaim_ns += st->split.reclaim_ns;
	v->last_ns = now;
	v->tid = t->pid;
	bpf_get_current_comm(v->comm, sizeof(v->comm));
}

static __always_inline void publish(struct mm_struct *mm, const struct bl_site_key *k,
				    bool queued, bool replace)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct bl_holder h = {
		.task = (fl_u64)t, .site = *k, .tid = t->pid, .queued = queued,
	};
	fl_u64 key = (fl_u64)mm;

	if (bpf_map_update_elem(&holders, &key, &h, replace ? BPF_ANY : BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&holders, &key))
		count(BL_M_HOLDERS_FULL);
}

/* ---- the three mmap_lock events -------------------------------------- */

static __always_inline void fault_wait_end(struct bl_task *st, fl_u64 wait)
{
	struct bl_site_stats *v;
	struct bl_totals *t = tot();

	if (t)
		fl_hist_add(&t->wait_all, wait);
	if (!st->wblamed)
		return;
	if (t)
		t->waits_blamed++;
	v = site_stats(&st->wsite);
	if (!v)
		return;
	fl_hist_add(&v->wait, wait);
	if (st->wblamed == 2)
		v->behind_wait++;
}

/*
 * start_locking(write) on an mm of a traced process: the writer is queued
 * from now (readers that come now queue behind it: rwsem fairness; a
 * trylock passes here too and is withdrawn at its acquire if it fails).
 * Its site is found and published now; its own wait for the lock is from
 * here (our stack walk excluded) to its acquire, spinning included.
 * start_locking(read) returns at once: every fault that takes mmap_lock
 * passes here (mmap_read_trylock emits it too), a fault's wait is timed by
 * lock:contention below.
 */
/*
 * A failed read trylock by a user-mode fault in lock_mm_and_find_vma, on a
 * per-VMA-lock kernel: the per-VMA lock path failed (aborted: the VMA
 * write-locked, or not found, ...; or VM_FAULT_RETRY) and the fault falls
 * back to mmap_lock, which is held or queued for write (what makes a read
 * trylock fail).  With a writer holding the mm's lock (the only time a VMA
 * can be write-locked: vma_end_write_all at mmap_write_unlock) it is
 * charged to that writer's site, once per fault (the trylock, not the
 * mmap_read_lock_killable that follows it).  Paid by failed read trylocks
 * only, while some write hold is open.
 */
static __always_inline void fallback(void *ctx, struct mm_struct *mm)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct bl_site_stats *v;
	struct bl_holder *h;
	struct bl_totals *tt;
	fl_u64 key = (fl_u64)mm;

	struct bl_task *st;

	if (t->mm != mm || !fl_tgid_traced(t->tgid))
		return;
	st = task_get(false);
	if ((st && st->kfault) || !user_fallback(ctx))
		return;
	tt = tot();
	h = bpf_map_lookup_elem(&holders, &key);
	if (!h || h->queued || h->task == (fl_u64)t) {
		if (tt)
			tt->fallbacks_free++;
		return;
	}
	if (tt)
		tt->fallbacks++;
	v = site_stats(&h->site);
	if (v)
		v->fallbacks++;
}

static __always_inline void on_start(void *ctx, struct mm_struct *mm, bool write)
{
	struct bl_task *st;

	if (!write || !mm || !mm_traced(mm))
		return;
	st = task_get(true);
	if (!st || (st->ms.hold_start_ns && st->ms.hold_write && st->hold_mm))
		return;		/* nested: counted at its acquire */
	site_of(ctx, &st->site);
	st->queued = 1;
	st->queued_mm = (fl_u64)mm;
	publish(mm, &st->site, true, false);
	fl_mmap_ev_start(&st->ms, bpf_ktime_get_ns());
}

/*
 * acquire_returned: a write hold begins (or a failed write lock ends the
 * queue), or -- on a read -- the hold followed may end (mmap_write_downgrade).
 * Every fault that takes mmap_lock comes here for a read: with no write hold
 * open anywhere that costs one load of open_writes.
 */
static __always_inline void on_acquired(void *ctx, struct mm_struct *mm, bool write,
					bool success)
{
	struct bl_task *st;
	fl_u64 key = (fl_u64)mm, now, d;

	if (!mm)
		return;
	if (!write) {
		if (!success) {
			if (fallbacks_on && open_writes)
				fallback(ctx, mm);
			return;
		}
		if (!fallbacks_on && !open_writes)
			return;
		st = task_get(false);
		if (fallbacks_on && st && st->kfault)
			st->kfault = 0;	/* the kernel-mode fault got mmap_lock */
		if (!open_writes)
			return;
		/* mmap_write_downgrade of the hold followed: it ends here */
		if (st && st->hold_mm == key && st->ms.hold_start_ns && st->ms.hold_write) {
			now = bpf_ktime_get_ns();
			if (fl_mmap_tr_hold_begin(&st->ms, 0, now, &d))
				hold_end(st, key, d, now);
		}
		return;
	}
	if (!mm_traced(mm))
		return;
	st = task_get(success);
	if (!st)
		return;
	if (!success) {		/* killable lock interrupted, or a failed trylock */
		struct bl_holder *h = bpf_map_lookup_elem(&holders, &key);

		st->ms.wait_start_ns = 0;

		if (h && h->task == (fl_u64)bpf_get_current_task_btf())
			bpf_map_delete_elem(&holders, &key);
		st->queued = 0;
		return;
	}
	if (st->ms.hold_start_ns && st->ms.hold_write && st->hold_mm) {
		count(BL_M_NESTED);	/* dup_mmap: the child's mm inside the parent's */
		return;
	}
	now = bpf_ktime_get_ns();
	/* the site: found at its start_locking, else (no start seen) now */
	if (st->queued && st->queued_mm == key) {
		struct bl_site_stats *v;

		if (fl_mmap_tr_wait_end(&st->ms, now, &d) && (v = site_stats(&st->site)))
			v->own_wait_ns += d;
	} else {
		site_of(ctx, &st->site);
	}
	st->queued = 0;
	fl_mmap_tr_hold_begin(&st->ms, 1, now, &d);
	st->hold_mm = key;
	bl_split_begin(&st->split, now);
	__sync_fetch_and_add(&open_writes, 1);
	publish(mm, &st->site, false, true);
}

static __always_inline void on_released(struct mm_struct *mm, bool write)
{
	struct bl_task *st;
	fl_u64 key = (fl_u64)mm, now, d;

	if (!write)
		return;
	st = task_get(false);
	if (!st || st->hold_mm != key || !st->ms.hold_write)
		return;
	now = bpf_ktime_get_ns();
	if (fl_mmap_tr_released(&st->ms, now, &d))
		hold_end(st, key, d, now);
}

/*
 * A kernel-mode fault on a user address (put_user, copy_to_user) never tries
 * the per-VMA lock: it goes to lock_mm_and_find_vma at once, and its stack
 * can end at the exception entry as a user-mode fault's does (a __put_user_8
 * on the TCB after fork(), blame_reclaim.sh: 11-16 such "fallbacks" against
 * 0 aborts).  Marked here until it has mmap_lock (on_acquired), so its failed
 * trylock is not a lockless-path fallback.  Faults that cannot take the lock
 * (pagefault_disable()d, no mm, kernel addresses, not in task context:
 * intask.h) are not marked.  Paid by kernel-mode faults only, and only with
 * fallbacks on.
 */
SEC("tp_btf/page_fault_kernel")
int BPF_PROG(bl_kfault, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct bl_task *st;

	if (address >= FL_USER_ADDR_END || !t->mm || t->pagefault_disabled ||
	    !fl_tgid_traced(t->tgid) || !cur_in_task())
		return 0;
	st = task_get(true);
	if (st)
		st->kfault = 1;
	return 0;
}

/* The three mmap_lock events, both prototypes (common.bpf.h). */
FL_MMAP_START_PROGS(bl_start_memcg, bl_start, on_start(ctx, mm, write))
FL_MMAP_ACQ_PROGS(bl_acq_memcg, bl_acq, on_acquired(ctx, mm, write, success))
FL_MMAP_REL_PROGS(bl_rel_memcg, bl_rel, on_released(mm, write))

/*
 * The same three events on a preemptible kernel: kprobes on the functions
 * the tracepoints' inline wrappers call (mm/mmap_lock.c; the same arguments
 * since 5.11, memcg path or not).  A kprobe runs preemption-disabled; a
 * tp_btf program can be preempted inside its body where the kernel's
 * tracepoint callbacks are (7.x: SRCU-fast), and the program's recursion
 * guard then skips the next task's run on that CPU -- a write hold lost
 * (architecture.rst, "Preemptible kernels").
 * The compiler inlines those functions into their own file's callers, so
 * the calls from mm/mmap_lock.c (lock_mm_and_find_vma: the fault path's
 * read trylock -- the lockless-path fallbacks -- and its stack-expansion
 * write lock) reach no kprobe: bl_inl_* on the tracepoints take the events
 * the kprobes did not (and keep the tracepoints enabled, without which the
 * wrappers call nothing).  A kprobe marks its event on the task; the
 * tracepoint of the same call, which follows, drops the marked one.  Both
 * look at traced mms only, which is all on_*() act on.  A bool argument is
 * defined in its register's low byte only (setcc), hence the (__u8).
 */
#define BL_EV(what, write, success)	((what) | (write) << 2 | (success) << 3)

static __always_inline bool kp_mark(struct mm_struct *mm, fl_u32 ev)
{
	struct bl_task *st;

	if (!mm || !mm_traced(mm))
		return false;
	st = task_get(true);
	if (!st)
		return false;	/* then its tracepoint takes it */
	st->kp_ev = ev;
	st->kp_mm = (fl_u64)mm;
	return true;
}

static __always_inline bool kp_seen(struct mm_struct *mm, fl_u32 ev)
{
	struct bl_task *st;

	if (!mm || !mm_traced(mm))
		return true;
	st = task_get(false);
	if (!st || st->kp_ev != ev || st->kp_mm != (fl_u64)mm)
		return false;
	st->kp_ev = 0;
	return true;
}

SEC("kprobe/__mmap_lock_do_trace_start_locking")
int BPF_KPROBE(bl_kp_start, struct mm_struct *mm, unsigned long write)
{
	if (kp_mark(mm, BL_EV(1, (__u8)write, 0)))
		on_start(ctx, mm, (__u8)write);
	return 0;
}

SEC("kprobe/__mmap_lock_do_trace_acquire_returned")
int BPF_KPROBE(bl_kp_acq, struct mm_struct *mm, unsigned long write, unsigned long success)
{
	if (kp_mark(mm, BL_EV(2, (__u8)write, (__u8)success)))
		on_acquired(ctx, mm, (__u8)write, (__u8)success);
	return 0;
}

SEC("kprobe/__mmap_lock_do_trace_released")
int BPF_KPROBE(bl_kp_rel, struct mm_struct *mm, unsigned long write)
{
	if (kp_mark(mm, BL_EV(3, (__u8)write, 0)))
		on_released(mm, (__u8)write);
	return 0;
}

FL_MMAP_START_PROGS(bl_inl_start_memcg, bl_inl_start,
		    if (!kp_seen(mm, BL_EV(1, write, 0))) on_start(ctx, mm, write))
FL_MMAP_ACQ_PROGS(bl_inl_acq_memcg, bl_inl_acq,
		  if (!kp_seen(mm, BL_EV(2, write, success))) on_acquired(ctx, mm, write, success))
FL_MMAP_REL_PROGS(bl_inl_rel_memcg, bl_inl_rel,
		  if (!kp_seen(mm, BL_EV(3, write, 0))) on_released(mm, write))

/*
 * The same three events without the mmap_lock tracepoints: fentry/fexit on
 * the rwsem write side that mmap_write_lock*, mmap_write_trylock,
 * mmap_write_unlock and mmap_write_downgrade are inline wrappers of
 * (include/linux/mmap_lock.h), at the places the wrappers emit the events.
 * For kernels whose tracepoints carry memcg_path (before ~6.14) and whose
 * faults take mmap_lock (no per-VMA locks): there, any probe on those
 * tracepoints makes every mmap_lock event -- each fault's read trylock and
 * release -- build a memcg path string (mm/mmap_lock.c).  The read side is
 * not hooked, so a fault pays nothing; every rwsem write in the system pays
 * one trampoline and the checks below.
 */
static __always_inline struct mm_struct *sem_mm(struct rw_semaphore *sem)
{
	return (void *)sem - bpf_core_field_offset(struct mm_struct, mmap_lock);
}

/*
 * The mm whose mmap_lock sem is, or NULL for any other rwsem: the current
 * task's own, else (a kthread such as khugepaged, a remote writer) an mm
 * whose owner task points back at it, or (exec's new mm before exec_mmap)
 * whose owner is the current task (CONFIG_MEMCG): the mms mm_traced knows.
 */
static __always_inline struct mm_struct *sem_owner_mm(struct rw_semaphore *sem)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct___bl *m;
	struct task_struct *owner;
	struct mm_struct *mm = t->mm;

	if (mm && (void *)sem == (void *)&mm->mmap_lock)
		return mm;
	mm = sem_mm(sem);
	m = (void *)mm;
	if (!bpf_core_field_exists(m->owner))
		return NULL;
	owner = BPF_CORE_READ(m, owner);
	if (!kptr_ok(owner) || (owner != t && BPF_CORE_READ(owner, mm) != mm))
		return NULL;
	return mm;
}

static __always_inline void w_start(void *ctx, struct rw_semaphore *sem)
{
	struct mm_struct *mm = sem_owner_mm(sem);

	if (mm)
		on_start(ctx, mm, true);
}

static __always_inline void w_acquired(void *ctx, struct rw_semaphore *sem, bool success)
{
	struct mm_struct *mm = sem_owner_mm(sem);

	if (mm)
		on_acquired(ctx, mm, true, success);
}

SEC("fentry/down_write")
int BPF_PROG(bl_dw, struct rw_semaphore *sem)
{
	w_start(ctx, sem);
	return 0;
}

SEC("fexit/down_write")
int BPF_PROG(bl_dw_x, struct rw_semaphore *sem)
{
	w_acquired(ctx, sem, true);
	return 0;
}

SEC("fentry/down_write_killable")
int BPF_PROG(bl_dwk, struct rw_semaphore *sem)
{
	w_start(ctx, sem);
	return 0;
}

SEC("fexit/down_write_killable")
int BPF_PROG(bl_dwk_x, struct rw_semaphore *sem, int ret)
{
	w_acquired(ctx, sem, ret == 0);
	return 0;
}

SEC("fentry/down_write_trylock")
int BPF_PROG(bl_dwt, struct rw_semaphore *sem)
{
	w_start(ctx, sem);
	return 0;
}

SEC("fexit/down_write_trylock")
int BPF_PROG(bl_dwt_x, struct rw_semaphore *sem, int ret)
{
	w_acquired(ctx, sem, ret != 0);
	return 0;
}

/* CONFIG_DEBUG_LOCK_ALLOC kernels: mmap_write_lock_nested (dup_mmap) */
SEC("fentry/down_write_nested")
int BPF_PROG(bl_dwn, struct rw_semaphore *sem, int subclass)
{
	w_start(ctx, sem);
	return 0;
}

SEC("fexit/down_write_nested")
int BPF_PROG(bl_dwn_x, struct rw_semaphore *sem, int subclass)
{
	w_acquired(ctx, sem, true);
	return 0;
}

/* mmap_write_unlock: released(write) before up_write; only a hold followed can end */
SEC("fentry/up_write")
int BPF_PROG(bl_uw, struct rw_semaphore *sem)
{
	if (open_writes)
		on_released(sem_mm(sem), true);
	return 0;
}

/* mmap_write_downgrade: acquire_returned(read, success) before downgrade_write */
SEC("fentry/downgrade_write")
int BPF_PROG(bl_dg, struct rw_semaphore *sem)
{
	on_acquired(ctx, sem_mm(sem), false, true);
	return 0;
}

/* ---- blocked on mmap_lock: lock:contention_begin/end ------------------- */


/*
 * A traced task blocks on its own mm's mmap_lock for read, in the fault
 * path: the wait is charged to the mm's writer -- holding, or queued ahead
 * -- published now.  Only a contended lock gets here, so the stack scan and
 * the lookup are paid by waits, never by faults.
 */
static __always_inline void fault_blocks(void *ctx, void *lock, struct mm_struct *mm)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct bl_holder *h;
	struct bl_task *st;
	fl_u64 key;

	if (!fl_tgid_traced(t->tgid))
		return;
	if (!in_fault_path(ctx)) {
		count(BL_M_NOFAULT);
		return;
	}
	st = task_get(true);
	if (!st)
		return;
	key = (fl_u64)mm;
	h = bpf_map_lookup_elem(&holders, &key);
	st->wblamed = 0;
	if (h && h->task != (fl_u64)t) {
		st->wsite = h->site;
		st->wblamed = 1 + h->queued;
	} else if (h) {
		count(BL_M_SELF);
	}
	st->wait_lock = (fl_u64)lock;
	st->wkind = BL_W_FAULT;
	fl_mmap_tr_contend_begin(&st->ms, bpf_ktime_get_ns());
}

SEC("tp_btf/contention_begin")
int BPF_PROG(bl_cont_begin, void *lock, unsigned int flags)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct *mm = t->mm;

	if (!(flags & FL_LCB_F_WRITE) && (flags & FL_LCB_F_READ) && mm &&
	    lock == (void *)&mm->mmap_lock)
		fault_blocks(ctx, lock, mm);
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(bl_cont_end, void *lock, int ret)
{
	struct bl_task *st = task_get(false);
	fl_u64 d;

	/* the rwsem's own wait_lock contends inside it: another lock, ignored */
	if (!st || !st->wkind || st->wait_lock != (fl_u64)lock)
		return 0;
	if (!fl_mmap_tr_contend_end(&st->ms, bpf_ktime_get_ns(), &d)) {
		st->wkind = 0;
		return 0;
	}
	if (st->wkind == BL_W_FAULT)
		fault_wait_end(st, d);
	st->wkind = 0;
	return 0;
}

/* ---- what the holder does while it holds ------------------------------ */

static __always_inline struct bl_task *holding(struct task_struct *t)
{
	struct bl_task *st = bpf_task_storage_get(&btask, t, 0, 0);

	return st && st->hold_mm && st->ms.hold_start_ns && st->ms.hold_write ? st : NULL;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(bl_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	struct bl_task *st;
	fl_u64 now = 0;

	st = holding(prev);
	if (st) {
		now = bpf_ktime_get_ns();
		bl_split_to(&st->split, preempt || prev_state == 0 ? BL_ST_RUNNABLE : BL_ST_SLEEP,
			    now);
	}
	st = holding(next);
	if (st) {
		if (!now)
			now = bpf_ktime_get_ns();
		bl_split_to(&st->split, BL_ST_ONCPU, now);
	}
	return 0;
}

static __always_inline void reclaim(bool enter)
{
	struct bl_task *st = holding(bpf_get_current_task_btf());

	if (!st)
		return;
	if (enter)
		bl_reclaim_enter(&st->split, bpf_ktime_get_ns());
	else
		bl_reclaim_exit(&st->split, bpf_ktime_get_ns());
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(bl_dr_begin)
{
	reclaim(true);
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(bl_dr_end)
{
	reclaim(false);
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(bl_mr_begin)
{
	reclaim(true);
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(bl_mr_end)
{
	reclaim(false);
	return 0;
}

/* ---- follow the workload's children (where no other skeleton does) ---- */

FL_FORK_FOLLOWER(bl_fork)
