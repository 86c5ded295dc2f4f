// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks: kretprobes on handle_mm_fault (do_handle_mm_fault on SPF
 * kernels) and lock_vma_under_rcu, tracepoint probes on exceptions:*,
 * mmap_lock:* and lock:contention_*.  Every handler feeds the shared state
 * machines in include/faultline/classify.h (faults) and mmaplock.h
 * (mmap_lock) and the one histogram in hist.h.
 *
 * Handler rules: tracepoint probes act only in task context (in_task()), so
 * a fault taken in NMI (perf user stack copies) never interleaves with a
 * task's own update of this CPU's statistics; kernel threads, tasks outside
 * the tgid filter and everything while disabled are skipped before any
 * clock read.  Each update runs with preemption disabled (see stats.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#if __has_include(<linux/fprobe.h>)
#include <linux/fprobe.h>	/* 5.18+ */
#endif
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#if __has_include(<trace/events/mmap_lock.h>)
#include <trace/events/mmap_lock.h>	/* 5.11+ */
#define FL_HAVE_MMAP_LOCK_TP	1
#endif

#include "faultline.h"
#include "stats.h"

/*
 * The mmap_lock tracepoints lost their memcg_path argument in 6.14
 * (20241125171617.113892-1-shakeel.butt@linux.dev).  The prototype is read
 * from the headers the module is built against, so a backport is followed
 * too; registering a probe of the wrong prototype would read `write` from
 * the wrong register.
 */
#ifdef FL_HAVE_MMAP_LOCK_TP
#define FL_MMAP_MEMCG_PROTO						\
	__same_type(&register_trace_mmap_lock_start_locking,		\
		    int (*)(void (*)(void *, struct mm_struct *,		\
				     const char *, bool), void *))
#else
#define FL_MMAP_MEMCG_PROTO	0	/* no mmap_lock tracepoints: found absent at load */
#endif

/* Lespinasse's SPF series (v5.12): FAULT_FLAG_SPECULATIVE = 0x400. */
#ifdef FAULT_FLAG_SPECULATIVE
#define FL_FAULT_FLAG_SPECULATIVE	FAULT_FLAG_SPECULATIVE
#else
#define FL_FAULT_FLAG_SPECULATIVE	0x400
#endif

struct fl_kvals fl_kv = { .vm_fault_retry = VM_FAULT_RETRY };
bool fl_mmap_memcg_proto;
bool fl_mmap_lock_on;
bool fl_time_hmf;		/* `hmf on`: time handle_mm_fault calls (off: one clock read less a fault) */
u64 fl_nmissed_base;
static bool fl_armed;
static unsigned int fl_arm_gen;	/* bumped at every arming: drops returns from before */

/*
 * A hook's state says what it does while the module is enabled; whether it
 * is hooked right now is fl_armed (nothing is while disabled).
 */
enum fl_hook_state {
	FL_HS_OFF = 0,		/* masked off by the `hooks` parameter */
	FL_HS_LIVE,		/* hooked while enabled */
	FL_HS_ABSENT,		/* the kernel has no such symbol / tracepoint */
	FL_HS_FAILED,		/* exists, registration failed (err) */
	FL_HS_UNUSED,		/* superseded (handle_mm_fault on SPF kernels) */
	FL_HS_INFERRED,		/* lock_vma_under_rcu: read from handle_mm_fault's flags */
	FL_HS_HELD,		/* mmap_lock, memcg_path cost: armed only after `mmap_lock on` */
	FL_HS_NR
};

static const char *const fl_hs_name[FL_HS_NR] = {
	[FL_HS_OFF] = "off", [FL_HS_LIVE] = "live", [FL_HS_ABSENT] = "absent",
	[FL_HS_FAILED] = "failed", [FL_HS_UNUSED] = "unused",
	[FL_HS_INFERRED] = "inferred", [FL_HS_HELD] = "held",
};

static const char *const fl_hook_label[FL_HOOK_NR] = FL_HOOK_NAMES;

/*
 * What a row of the hook table serves.  The counts' rows (enum fl_hook) are
 * registered at load and armed at every enable; a feature's rows are hooked
 * only while it is armed, and are listed under its name.
 */
enum fl_feat {
	FL_FEAT_CORE = 0,	/* the counts, a bit of the `hooks` mask */
	FL_FEAT_BLAME,		/* `blame on`: the holder's split (blame.c) */
	FL_FEAT_BLAME_RWSEM,	/* `blame on` with the mmap_lock hooks held off */
	FL_FEAT_NR
};

static const char *const fl_feat_label[FL_FEAT_NR] = {
	[FL_FEAT_CORE] = "-", [FL_FEAT_BLAME] = "blame", [FL_FEAT_BLAME_RWSEM] = "blame",
};

/* ---- kretprobes ---------------------------------------------------------- */

struct fl_hmf_data {
	u64 t0;
	struct vm_area_struct *vma;	/* for fl_ll_why */
	unsigned long address;
	u32 flags;
	u32 gen;
};

/*
 * Abort / retry reasons (classify.h, fl_ev_ll_why) from the call's VMA, on
 * that path only.  Fault-safe reads: a retried call's VMA lock is already
 * dropped.  mm_lock_seq is an int up to 6.11 and a seqcount_t (sequence
 * first) since: its first 32 bits either way.
 */
static void fl_ll_why(struct fl_fault_state *st, struct fl_cpu_stats *cs, u32 need,
		      const struct fl_hmf_data *d)
{
#ifdef CONFIG_PER_VMA_LOCK
	struct fl_vma_look v = { .address = d->address, .ok = 1 };
	struct vm_area_struct *vma = d->vma;
	struct anon_vma *anon = NULL;
	struct mm_struct *mm = NULL;
	unsigned long start = 0, flags = 0;

	if (get_kernel_nofault(anon, &vma->anon_vma) ||
	    get_kernel_nofault(v.vm_lock_seq, &vma->vm_lock_seq) ||
	    get_kernel_nofault(start, &vma->vm_start) ||
	    get_kernel_nofault(flags, &vma->vm_flags) ||
	    get_kernel_nofault(mm, &vma->vm_mm) || !mm ||
	    get_kernel_nofault(v.mm_lock_seq, (u32 *)&mm->mm_lock_seq))
		v.ok = 0;
	v.anon = anon != NULL;
	v.vm_start = start;
	v.vm_flags = flags;
	fl_ev_ll_why(st, cs, need, &v);
#endif
}

/*
 * The handlers' registers: a kretprobe's struct pt_regs, or an fprobe's
 * struct ftrace_regs on kernels whose fprobe passes those (FREGS: a
 * constant, so each inlined copy reads its own kind).
 */
static __always_inline unsigned long fl_arg(void *regs, bool fregs, unsigned int n)
{
#if FL_HAVE_FPROBE_FTRACE_REGS
	if (fregs)
		return ftrace_regs_get_argument((struct ftrace_regs *)regs, n);
#endif
	return regs_get_kernel_argument((struct pt_regs *)regs, n);
}

static __always_inline unsigned long fl_retval(void *regs, bool fregs)
{
#if FL_HAVE_FPROBE_FTRACE_REGS
	if (fregs)
		return ftrace_regs_get_return_value((struct ftrace_regs *)regs);
#endif
	return regs_return_value((struct pt_regs *)regs);
}

/* handle_mm_fault entry: 0 = hook its return. */
static __always_inline int fl_hmf_enter(struct fl_hmf_data *d, void *regs, bool fregs)
{
	if (!fl_want())
		return 1;	/* no return handler for this call */
	d->flags = (u32)fl_arg(regs, fregs, 2);
	if (FL_LL_WHY_BUILT && fl_kv.ll_why) {	/* the abort / retry reasons */
		d->vma = (struct vm_area_struct *)fl_arg(regs, fregs, 0);
		d->address = fl_arg(regs, fregs, 1);
	}
	d->gen = READ_ONCE(fl_arm_gen);
	d->t0 = READ_ONCE(fl_time_hmf) ? fl_now() : 0;
	return 0;
}

static __always_inline void fl_hmf_leave(struct fl_hmf_data *d, void *regs, bool fregs)
{
	u32 ret = (u32)fl_retval(regs, fregs);
	struct fl_cpu_stats *cs;
	struct fl_slot *s;
	u64 now = fl_now(), lat;
	u32 need = 0;

	/* Entered before the last disable: its window is gone. */
	if (unlikely(d->gen != READ_ONCE(fl_arm_gen)))
		return;
	preempt_disable_notrace();
	cs = fl_stats_this_cpu();
	s = fl_slot_get();
	if (s) {
		lat = fl_ev_hmf_exit(&s->fs, cs, &fl_kv, d->flags, ret, now, &need);
		if (lat)
			fl_hist_put(&cs->hist[FL_H_FAULT_LAT], lat);
		if (unlikely(need))
			fl_ll_why(&s->fs, cs, need, d);
	} else {
		fl_ev_hmf_call(cs);	/* no slot: a call outside a traced fault (GUP) */
	}
	if (d->t0)	/* `hmf on` (record --handle-mm-fault): the call's own duration */
		fl_hist_put(&cs->hist[FL_H_HMF], now - d->t0);
	preempt_enable_notrace();
}

static int fl_hmf_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return fl_hmf_enter((struct fl_hmf_data *)ri->data, regs, false);
}

static int fl_hmf_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	fl_hmf_leave((struct fl_hmf_data *)ri->data, regs, false);
	return 0;
}

/*
 * Where the kernel has fprobe (6.12, 7.3 here; 6.1's Debian config has
 * not), the same handlers are an fprobe while armed: the ftrace entry calls
 * them without the kprobe layer (hash lookup, current_kprobe).  Their
 * registers are struct ftrace_regs from 6.14, struct pt_regs before
 * (conftest.sh); a kernel whose fprobe takes neither uses the kretprobes.
 */
#if IS_ENABLED(CONFIG_FPROBE) && (FL_HAVE_FPROBE_FTRACE_REGS || FL_HAVE_FPROBE_PT_REGS)
#define FL_USE_FPROBE	1
#if FL_HAVE_FPROBE_FTRACE_REGS
#define FL_FP_REGS	struct ftrace_regs
#define FL_FP_FREGS	true
#else
#define FL_FP_REGS	struct pt_regs
#define FL_FP_FREGS	false
#endif

static int fl_fp_hmf_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			   FL_FP_REGS *regs, void *data)
{
	return fl_hmf_enter(data, regs, FL_FP_FREGS);
}

static void fl_fp_hmf_exit(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			   FL_FP_REGS *regs, void *data)
{
	fl_hmf_leave(data, regs, FL_FP_FREGS);
}
#endif

static int fl_lvma_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (!fl_want())
		return 1;
	*(u32 *)ri->data = READ_ONCE(fl_arm_gen);
	return 0;
}

static int fl_lvma_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	int got_vma = regs_return_value(regs) != 0;
	struct fl_cpu_stats *cs;
	struct fl_slot *s;

	if (unlikely(*(u32 *)ri->data != READ_ONCE(fl_arm_gen)))
		return 0;
	preempt_disable_notrace();
	cs = fl_stats_this_cpu();
	s = fl_slot_get();
	if (s)
		fl_ev_lock_vma(&s->fs, cs, got_vma);
	preempt_enable_notrace();
	return 0;
}

/*
 * The kretprobe and fprobe handlers (and stats.c's slot helpers they call)
 * must not be kprobed themselves: a probe there would recurse or be missed.
 */
NOKPROBE_SYMBOL(fl_ll_why);
NOKPROBE_SYMBOL(fl_hmf_entry);
NOKPROBE_SYMBOL(fl_hmf_ret);
NOKPROBE_SYMBOL(fl_lvma_entry);
NOKPROBE_SYMBOL(fl_lvma_ret);
#ifdef FL_USE_FPROBE
NOKPROBE_SYMBOL(fl_fp_hmf_entry);
NOKPROBE_SYMBOL(fl_fp_hmf_exit);
#endif

struct fl_krp {
	int hook;		/* enum fl_hook; -1 for a feature's row */
	enum fl_feat feat;
	const char *sym;
	struct kretprobe rp;
	kprobe_pre_handler_t pre;	/* a kprobe: rp.kp alone, with this handler */
	enum fl_hook_state state;
	int err;
	bool registered;
	bool armed;		/* the kretprobe is enabled */
#ifdef FL_USE_FPROBE
	bool fp_ok;		/* may be armed as an fprobe */
	bool fp_armed;		/* armed as the fprobe instead */
	unsigned long fp_missed;	/* fprobe misses of earlier armings */
	struct fprobe fp;
#endif
};

/* The rows of fl_krps[]: fl_probes_register() decides between the first three. */
enum fl_krp_row {
	FL_KRP_DO_HMF,
	FL_KRP_HMF,
	FL_KRP_LOCK_VMA,
	FL_KRP_BL_DOWN_WRITE,
	FL_KRP_BL_DOWN_WRITE_KILLABLE,
	FL_KRP_BL_DOWN_WRITE_TRYLOCK,
	FL_KRP_BL_UP_WRITE,
	FL_KRP_BL_DOWNGRADE_WRITE,
	FL_KRP_NR
};

#ifdef FL_USE_FPROBE
#define FL_KRP_FP_OK	.fp_ok = true,
#else
#define FL_KRP_FP_OK
#endif
#define FL_HMF_KRP(h, fn) {						\
	.hook = h, .sym = fn, FL_KRP_FP_OK				\
	.rp = { .entry_handler = fl_hmf_entry, .handler = fl_hmf_ret,	\
		.data_size = sizeof(struct fl_hmf_data) } }
#define FL_BLAME_KRP(fn, ret) {						\
	.hook = -1, .feat = FL_FEAT_BLAME_RWSEM, .sym = fn,		\
	.rp = { .entry_handler = fl_blame_dw_entry, .handler = ret,	\
		.data_size = sizeof(struct mm_struct *), .maxactive = 64 } }
#define FL_BLAME_KP(fn, handler) {						\
	.hook = -1, .feat = FL_FEAT_BLAME_RWSEM, .sym = fn, .pre = handler }

static struct fl_krp fl_krps[FL_KRP_NR] = {
	[FL_KRP_DO_HMF] = FL_HMF_KRP(FL_HOOK_DO_HMF, "do_handle_mm_fault"),
	[FL_KRP_HMF] = FL_HMF_KRP(FL_HOOK_HMF, "handle_mm_fault"),
	[FL_KRP_LOCK_VMA] = { .hook = FL_HOOK_LOCK_VMA, .sym = "lock_vma_under_rcu",
			      .rp = { .entry_handler = fl_lvma_entry, .handler = fl_lvma_ret,
				      .data_size = sizeof(u32) } },
	/* blame's write holds where the mmap_lock hooks are held off (blame.c) */
	[FL_KRP_BL_DOWN_WRITE] = FL_BLAME_KRP("down_write", fl_blame_dw_ret_void),
	[FL_KRP_BL_DOWN_WRITE_KILLABLE] = FL_BLAME_KRP("down_write_killable", fl_blame_dw_ret_killable),
	[FL_KRP_BL_DOWN_WRITE_TRYLOCK] = FL_BLAME_KRP("down_write_trylock", fl_blame_dw_ret_trylock),
	[FL_KRP_BL_UP_WRITE] = FL_BLAME_KP("up_write", fl_blame_up_write),
	[FL_KRP_BL_DOWNGRADE_WRITE] = FL_BLAME_KP("downgrade_write", fl_blame_downgrade),
};

/* ---- tracepoint probes --------------------------------------------------- */

static void fl_fault_start(int kernel_mode)
{
	struct fl_cpu_stats *cs;
	struct fl_slot *s;
	u64 now;

	/* in_task(): the kernel's own preempt_count layout, whatever it is */
	if (!in_task() || !fl_want())
		return;
	now = fl_now();
	preempt_disable_notrace();
	cs = fl_stats_this_cpu();
	s = fl_slot_claim(cs);
	if (s)
		fl_ev_fault_start(&s->fs, cs, now, kernel_mode);
	preempt_enable_notrace();
}

static void fl_tp_pf_user(void *data, unsigned long address,
			  struct pt_regs *regs, unsigned long error_code)
{
	fl_fault_start(0);
}

static void fl_tp_pf_kernel(void *data, unsigned long address,
			    struct pt_regs *regs, unsigned long error_code)
{
	if (address >= TASK_SIZE_MAX)	/* user addresses only */
		return;
	fl_fault_start(1);
}

/* mmap_lock events count only for the task's own mm (not fork's child, GUP on others). */
static __always_inline bool fl_mmap_want(struct mm_struct *mm)
{
	return in_task() && mm == current->mm && fl_want();
}

/*
 * The mmap_lock state machine is include/faultline/mmaplock.h; the slot is
 * claimed for the events that open something, only looked up for the rest.
 */
static void fl_mmap_start(struct mm_struct *mm, bool write)
{
	struct fl_cpu_stats *cs;
	struct fl_slot *s;
	u64 now;

	if (!fl_mmap_want(mm))
		return;
	now = fl_now();
	preempt_disable_notrace();
	cs = fl_stats_this_cpu();
	s = fl_slot_claim(cs);
	if (s)
		fl_mmap_ev_start(&s->ms, now);
	if (READ_ONCE(fl_blame_armed))
		fl_blame_start(mm, write, now);
	preempt_enable_notrace();
}

static void fl_mmap_acquired(struct mm_struct *mm, bool write, bool success)
{
	struct fl_cpu_stats *cs;
	struct fl_slot *s;
	u64 now;

	if (!fl_mmap_want(mm))
		return;
	now = fl_now();
	preempt_disable_notrace();
	cs = fl_stats_this_cpu();
	s = success ? fl_slot_claim(cs) : fl_slot_get();
	fl_mmap_ev_acquired(s ? &s->ms : NULL, cs, write, success, now);
	if (READ_ONCE(fl_blame_armed))
		fl_blame_acquired(mm, write, success, now);
	preempt_enable_notrace();
}

static void fl_mmap_released(struct mm_struct *mm, bool write)
{
	struct fl_cpu_stats *cs;
	struct fl_slot *s;
	u64 now;

	if (!fl_mmap_want(mm))
		return;
	now = fl_now();
	preempt_disable_notrace();
	cs = fl_stats_this_cpu();
	s = fl_slot_get();
	if (s)
		fl_mmap_ev_released(&s->ms, cs, write, now);
	if (READ_ONCE(fl_blame_armed))
		fl_blame_released(mm, write, now);
	preempt_enable_notrace();
}

/* Both prototypes; the one matching the headers is registered. */
static void fl_tp_mmap_start_memcg(void *data, struct mm_struct *mm,
				   const char *memcg_path, bool write)
{
	fl_mmap_start(mm, write);
}

static void fl_tp_mmap_acquired_memcg(void *data, struct mm_struct *mm,
				      const char *memcg_path, bool write, bool success)
{
	fl_mmap_acquired(mm, write, success);
}

static void fl_tp_mmap_released_memcg(void *data, struct mm_struct *mm,
				      const char *memcg_path, bool write)
{
	fl_mmap_released(mm, write);
}

static void fl_tp_mmap_start(void *data, struct mm_struct *mm, bool write)
{
	fl_mmap_start(mm, write);
}

static void fl_tp_mmap_acquired(void *data, struct mm_struct *mm, bool write,
				bool success)
{
	fl_mmap_acquired(mm, write, success);
}

static void fl_tp_mmap_released(void *data, struct mm_struct *mm, bool write)
{
	fl_mmap_released(mm, write);
}

/* lock:contention_* fire for every contended lock: filter on &current->mm->mmap_lock first. */
static __always_inline bool fl_is_mmap_lock(void *lock)
{
	struct mm_struct *mm;

	if (!in_task())
		return false;
	mm = current->mm;
	return mm && lock == (void *)&mm->mmap_lock && fl_want();
}

static void fl_tp_contention_begin(void *data, void *lock, unsigned int flags)
{
	struct fl_cpu_stats *cs;
	struct fl_slot *s;
	u64 now;

	if (!fl_is_mmap_lock(lock))
		return;
	now = fl_now();
	preempt_disable_notrace();
	cs = fl_stats_this_cpu();
	s = fl_slot_claim(cs);
	fl_mmap_ev_contend_begin(s ? &s->ms : NULL, cs, now);
	if (s && READ_ONCE(fl_blame_armed))
		fl_blame_contend_begin(s, current->mm, flags);
	preempt_enable_notrace();
}

static void fl_tp_contention_end(void *data, void *lock, int ret)
{
	struct fl_cpu_stats *cs;
	struct fl_slot *s;
	u64 now;

	if (!fl_is_mmap_lock(lock))
		return;
	now = fl_now();
	preempt_disable_notrace();
	cs = fl_stats_this_cpu();
	s = fl_slot_get();
	if (s && s->bl_wait && s->ms.contend_start_ns)
		fl_blame_contend_end(s, now - s->ms.contend_start_ns);
	if (s)
		fl_mmap_ev_contend_end(&s->ms, cs, now);
	preempt_enable_notrace();
}

#if FL_HAVE_SCHED_EXIT_GROUP_DEAD
static void fl_tp_process_exit(void *data, struct task_struct *p, bool group_dead)
#else
static void fl_tp_process_exit(void *data, struct task_struct *p)
#endif
{
	if (p != current)
		return;
	fl_slot_release();
	if (READ_ONCE(fl_blame_armed))
		fl_blame_task_exit();
}

/* The exit's later mmap_lock events may have claimed the slot again. */
static void fl_tp_process_free(void *data, struct task_struct *p)
{
	fl_slot_release_dead(p);
}

static void fl_tp_process_fork(void *data, struct task_struct *parent,
			       struct task_struct *child)
{
	fl_filter_fork(parent, child);
}

struct fl_tp {
	int hook;		/* enum fl_hook, or -1: internal (always wanted) or a feature's */
	const char *sys;
	const char *name;
	void *probe;
	void *probe_memcg;	/* mmap_lock prototype with memcg_path */
	enum fl_feat feat;
	struct tracepoint *tp;
	enum fl_hook_state state;
	int err;
	bool armed;
	bool ran;		/* a feature's row: armed since the last reset */
};

static struct fl_tp fl_tps[] = {
	{ FL_HOOK_PF_USER, "exceptions", "page_fault_user", fl_tp_pf_user },
	{ FL_HOOK_PF_KERNEL, "exceptions", "page_fault_kernel", fl_tp_pf_kernel },
	{ FL_HOOK_MMAP_START, "mmap_lock", "mmap_lock_start_locking",
	  fl_tp_mmap_start, fl_tp_mmap_start_memcg },
	{ FL_HOOK_MMAP_ACQUIRED, "mmap_lock", "mmap_lock_acquire_returned",
	  fl_tp_mmap_acquired, fl_tp_mmap_acquired_memcg },
	{ FL_HOOK_MMAP_RELEASED, "mmap_lock", "mmap_lock_released",
	  fl_tp_mmap_released, fl_tp_mmap_released_memcg },
	{ FL_HOOK_CONTENTION_BEGIN, "lock", "contention_begin", fl_tp_contention_begin },
	{ FL_HOOK_CONTENTION_END, "lock", "contention_end", fl_tp_contention_end },
	{ -1, "sched", "sched_process_exit", fl_tp_process_exit },
	{ -1, "sched", "sched_process_free", fl_tp_process_free },
	{ -1, "sched", "sched_process_fork", fl_tp_process_fork },
	/* blame's, in the order of FL_BLAME_KMOD_HOOKS' bits (fl_probes_blame_ran) */
	{ -1, "sched", "sched_switch", fl_blame_switch, .feat = FL_FEAT_BLAME },
	{ -1, "vmscan", "mm_vmscan_direct_reclaim_begin", fl_blame_reclaim_begin,
	  .feat = FL_FEAT_BLAME },
	{ -1, "vmscan", "mm_vmscan_direct_reclaim_end", fl_blame_reclaim_end,
	  .feat = FL_FEAT_BLAME },
	{ -1, "vmscan", "mm_vmscan_memcg_reclaim_begin", fl_blame_reclaim_begin,
	  .feat = FL_FEAT_BLAME },
	{ -1, "vmscan", "mm_vmscan_memcg_reclaim_end", fl_blame_reclaim_end,
	  .feat = FL_FEAT_BLAME },
};

static void fl_tp_lookup(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fl_tps); i++)
		if (!strcmp(tp->name, fl_tps[i].name))
			fl_tps[i].tp = tp;
}

/* ---- registration, arming ----------------------------------------------- */

static u64 fl_probes_in_state_mask(enum fl_hook_state state);
static void fl_feat_state(void);

/*
 * Are the mmap_lock tracepoints held off until `mmap_lock on`?  abi.h's
 * rule (fl_mmap_lock_keep_off), on what this module found at load.
 */
static bool fl_mmap_held(void)
{
	return fl_mmap_lock_keep_off(fl_mmap_memcg_proto, fl_kv.ll_kind,
				     READ_ONCE(fl_mmap_lock_on));
}

static bool fl_tp_is_mmap(const struct fl_tp *t)
{
	return t->probe_memcg != NULL;
}

static void *fl_tp_probe(const struct fl_tp *t)
{
	return t->probe_memcg && fl_mmap_memcg_proto ? t->probe_memcg : t->probe;
}

/*
 * Register row K, a kretprobe or (K->pre) a kprobe, afresh: what an earlier
 * registration left in it is cleared.  FLAGS: KPROBE_FLAG_DISABLED for the
 * counts' rows, registered at load and armed by enabling them; a feature's
 * rows are registered at its arming, enabled, and unregistered at the
 * disarming (fl_krps_unregister).  0, or the error K's state now says.
 */
static int fl_krp_register(struct fl_krp *k, u32 flags)
{
	memset(&k->rp.kp, 0, sizeof(k->rp.kp));
	k->rp.kp.symbol_name = k->sym;
	k->rp.kp.flags = flags;
	if (k->pre) {
		k->rp.kp.pre_handler = k->pre;
		k->err = register_kprobe(&k->rp.kp);
	} else {
		k->err = register_kretprobe(&k->rp);
	}
	if (!k->err) {
		k->state = FL_HS_LIVE;
		k->registered = true;
	} else if (k->err == -ENOENT) {
		k->state = FL_HS_ABSENT;
		pr_info("%s: no such symbol in this kernel, hook absent\n", k->sym);
	} else {
		k->state = FL_HS_FAILED;
		pr_warn("%s: register_%s failed (%d), hook not live\n",
			k->sym, k->pre ? "kprobe" : "kretprobe", k->err);
	}
	return k->err;
}

/*
 * Unregister FEAT's registered rows: the kprobes, then the kretprobes.
 * Both wait for running handlers; a return after it skips the handler.
 */
static void fl_krps_unregister(enum fl_feat feat)
{
	struct kretprobe *rps[FL_KRP_NR];
	struct kprobe *kps[FL_KRP_NR];
	unsigned int i, nrp = 0, nkp = 0;

	for (i = 0; i < ARRAY_SIZE(fl_krps); i++) {
		struct fl_krp *k = &fl_krps[i];

		if (k->feat != feat || !k->registered)
			continue;
		if (k->pre)
			kps[nkp++] = &k->rp.kp;
		else
			rps[nrp++] = &k->rp;
		k->registered = false;
	}
	if (nkp)
		unregister_kprobes(kps, nkp);
	if (nrp)
		unregister_kretprobes(rps, nrp);
}

/* Tracepoint probes are registered only while armed: found is enough here. */
static void fl_tp_check(struct fl_tp *t)
{
	if (!t->tp) {
		t->state = FL_HS_ABSENT;
		pr_info("%s:%s: no such tracepoint in this kernel, hook absent\n",
			t->sys, t->name);
		return;
	}
	if (t->feat != FL_FEAT_CORE)
		t->state = FL_HS_OFF;	/* fl_feat_state() */
	else
		t->state = fl_tp_is_mmap(t) && fl_mmap_held() ? FL_HS_HELD : FL_HS_LIVE;
}

static void fl_tp_arm(struct fl_tp *t)
{
	t->err = tracepoint_probe_register(t->tp, fl_tp_probe(t), NULL);
	if (t->err) {
		t->state = FL_HS_FAILED;
		pr_warn("%s:%s: tracepoint_probe_register failed (%d), hook not live\n",
			t->sys, t->name, t->err);
		return;
	}
	t->armed = true;
}

int fl_probes_register(unsigned int mask, unsigned int maxactive, bool infer)
{
	struct fl_krp *do_hmf = &fl_krps[FL_KRP_DO_HMF], *hmf = &fl_krps[FL_KRP_HMF];
	struct fl_krp *lvma = &fl_krps[FL_KRP_LOCK_VMA];
	unsigned int i;

	fl_mmap_memcg_proto = FL_MMAP_MEMCG_PROTO;
	fl_kv.ll_why = 0;
	for_each_kernel_tracepoint(fl_tp_lookup, NULL);
	for (i = 0; i < ARRAY_SIZE(fl_krps); i++)
		if (fl_krps[i].feat == FL_FEAT_CORE)
			fl_krps[i].rp.maxactive = maxactive;

	/* handle_mm_fault's real body is do_handle_mm_fault on SPF kernels. */
	if (mask & BIT(FL_HOOK_DO_HMF))
		fl_krp_register(do_hmf, KPROBE_FLAG_DISABLED);
	if (do_hmf->state == FL_HS_LIVE) {
		hmf->state = FL_HS_UNUSED;
		fl_kv.ll_kind = FL_LL_KIND_SPF;
		fl_kv.ll_flag = FL_FAULT_FLAG_SPECULATIVE;
	} else {
#ifdef CONFIG_PER_VMA_LOCK
		fl_kv.ll_kind = FL_LL_KIND_VMA_LOCK;
		fl_kv.ll_flag = FAULT_FLAG_VMA_LOCK;
		fl_kv.vm_fault_end = VM_FAULT_RETRY | VM_FAULT_COMPLETED;
#else
		fl_kv.ll_kind = FL_LL_KIND_NONE;
		fl_kv.ll_flag = 0;
#endif
		if (mask & BIT(FL_HOOK_HMF))
			fl_krp_register(hmf, KPROBE_FLAG_DISABLED);
		/* its exit reads the VMA for the abort / retry reasons */
		fl_kv.ll_why = fl_kv.ll_kind == FL_LL_KIND_VMA_LOCK && hmf->state == FL_HS_LIVE;
	}
	if (mask & BIT(FL_HOOK_LOCK_VMA)) {
		if (fl_kv.ll_kind != FL_LL_KIND_VMA_LOCK) {
			lvma->state = FL_HS_ABSENT;
			pr_info("%s: kernel has no per-VMA locks, hook absent\n", lvma->sym);
		} else if (infer && hmf->state == FL_HS_LIVE) {
			/*
			 * The lookup's outcome is the first handle_mm_fault
			 * call's FAULT_FLAG_VMA_LOCK (classify.h): no kretprobe
			 * per fault for it.
			 */
			lvma->state = FL_HS_INFERRED;
			fl_kv.ll_infer = 1;
		} else {
			fl_krp_register(lvma, KPROBE_FLAG_DISABLED);
		}
	}

	for (i = 0; i < ARRAY_SIZE(fl_tps); i++) {
		struct fl_tp *t = &fl_tps[i];

		if (t->hook < 0 || (mask & BIT(t->hook)))
			fl_tp_check(t);
	}
	/* Held-off mmap_lock hooks count: `mmap_lock on` makes them live. */
	if (!(fl_probes_live() | fl_probes_in_state_mask(FL_HS_HELD))) {
		pr_err("no hook could be registered (mask 0x%x)\n", mask);
		fl_probes_unregister();
		return -ENODEV;
	}
	fl_feat_state();
	return 0;
}

#ifdef FL_USE_FPROBE
/*
 * Arm K as an fprobe (registered afresh each time: a disabled fprobe still
 * sits in the ftrace call).  False: use the kretprobe.
 */
static bool fl_fp_arm(struct fl_krp *k)
{
	int err;

	if (!k->fp_ok)
		return false;
	memset(&k->fp, 0, sizeof(k->fp));
	k->fp.entry_handler = fl_fp_hmf_entry;
	k->fp.exit_handler = fl_fp_hmf_exit;
	k->fp.entry_data_size = sizeof(struct fl_hmf_data);
#if FL_HAVE_FPROBE_NR_MAXACTIVE
	k->fp.nr_maxactive = k->rp.maxactive;	/* later fprobes need no bound */
#endif
	err = register_fprobe_syms(&k->fp, &k->sym, 1);
	if (err) {
		pr_warn("%s: register_fprobe failed (%d), using the kretprobe\n", k->sym, err);
		k->fp_ok = false;
		return false;
	}
	k->fp_armed = true;
	return true;
}

static void fl_fp_disarm(struct fl_krp *k)
{
	if (!k->fp_armed)
		return;
	/* Waits for handlers in progress; returns still pending skip the handler. */
	unregister_fprobe(&k->fp);
	k->fp_missed += k->fp.nmissed;
	k->fp_armed = false;
}

static unsigned long fl_fp_nmissed(const struct fl_krp *k)
{
	return k->fp_missed + (k->fp_armed ? READ_ONCE(k->fp.nmissed) : 0);
}

static const char *fl_fp_kind(const struct fl_krp *k)
{
	return k->fp_ok ? "fprobe" : "kretprobe";
}
#else
static bool fl_fp_arm(struct fl_krp *k) { return false; }
static void fl_fp_disarm(struct fl_krp *k) { }
static unsigned long fl_fp_nmissed(const struct fl_krp *k) { return 0; }
static const char *fl_fp_kind(const struct fl_krp *k) { return "kretprobe"; }
#endif

/* The hooks blame stands on: lock:contention, the mmap_lock tracepoints. */
static bool fl_tp_blame_need(const struct fl_tp *t)
{
	return fl_tp_is_mmap(t) || t->hook == FL_HOOK_CONTENTION_BEGIN ||
	       t->hook == FL_HOOK_CONTENTION_END;
}

/*
 * Can `blame on` work: each of them registered, live or held off (held
 * off, blame sees the write holds on the rwsem write side instead)?
 */
static bool fl_probes_blame_ok(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fl_tps); i++)
		if (fl_tp_blame_need(&fl_tps[i]) && fl_tps[i].state != FL_HS_LIVE &&
		    fl_tps[i].state != FL_HS_HELD)
			return false;
	return true;
}

/* After arming: how blame can see write holds (FL_BLAME_BY_*). */
static enum fl_blame_by fl_probes_blame_by(void)
{
	bool held = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fl_tps); i++) {
		const struct fl_tp *t = &fl_tps[i];

		if (!fl_tp_blame_need(t) || t->armed)
			continue;
		if (fl_tp_is_mmap(t) && t->state == FL_HS_HELD)
			held = true;
		else
			return FL_BLAME_BY_NONE;
	}
	return held ? FL_BLAME_BY_RWSEM : FL_BLAME_BY_TP;
}

/* Some mmap_lock hook held off: blame sees write holds on the rwsem write side. */
static bool fl_mmap_tps_held(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fl_tps); i++)
		if (fl_tp_is_mmap(&fl_tps[i]) && fl_tps[i].state == FL_HS_HELD)
			return true;
	return false;
}

/*
 * A feature's rows, what they do while enabled: live when the feature is
 * wanted (the rwsem rows: and the mmap_lock hooks are held off), else off;
 * absent where the kernel has no such tracepoint or symbol.
 */
static void fl_feat_state(void)
{
	bool blame = fl_blame_wanted(), rwsem = blame && fl_mmap_tps_held();
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fl_tps); i++) {
		struct fl_tp *t = &fl_tps[i];

		if (t->feat == FL_FEAT_BLAME && t->tp)
			t->state = blame ? FL_HS_LIVE : FL_HS_OFF;
	}
	for (i = 0; i < ARRAY_SIZE(fl_krps); i++) {
		struct fl_krp *k = &fl_krps[i];

		if (k->feat == FL_FEAT_BLAME_RWSEM && !k->registered && k->state != FL_HS_ABSENT)
			k->state = rwsem ? FL_HS_LIVE : FL_HS_OFF;
	}
}

/* All or none: a missing release would leave every hold open. */
static int fl_feat_krps_register(enum fl_feat feat)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(fl_krps); i++) {
		if (fl_krps[i].feat != feat)
			continue;
		err = fl_krp_register(&fl_krps[i], 0);
		if (err) {
			fl_krps_unregister(feat);
			return err;
		}
	}
	return 0;
}

/* Arming, after the counts' hooks: blame's rows, the way its hooks allow. */
static void fl_probes_arm_blame(void)
{
	enum fl_blame_by how = fl_blame_wanted() ? fl_probes_blame_by() : FL_BLAME_BY_NONE;
	unsigned int i;

	fl_feat_state();
	if (how == FL_BLAME_BY_RWSEM && fl_feat_krps_register(FL_FEAT_BLAME_RWSEM))
		how = FL_BLAME_BY_NONE;
	for (i = 0; i < ARRAY_SIZE(fl_tps) && how != FL_BLAME_BY_NONE; i++) {
		struct fl_tp *t = &fl_tps[i];

		if (t->feat != FL_FEAT_BLAME || t->state != FL_HS_LIVE)
			continue;
		fl_tp_arm(t);
		if (t->armed)
			t->ran = true;
	}
	fl_blame_arm(how);
}

/* `blame on|off` (fl_mutex held): applies at the next arming. */
int fl_probes_blame(bool on)
{
	int err;

	lockdep_assert_held(&fl_mutex);
	if (on && !fl_probes_blame_ok())
		return -ENODEV;
	err = fl_blame_set(on);
	if (err)
		return err;
	if (!fl_armed)
		fl_feat_state();
	return 0;
}

/* Bit i: blame's i-th tracepoint row ran since the reset (FL_BLAME_KMOD_HOOKS). */
u64 fl_probes_blame_ran(void)
{
	unsigned int i, bit = 0;
	u64 m = 0;

	for (i = 0; i < ARRAY_SIZE(fl_tps); i++) {
		if (fl_tps[i].feat != FL_FEAT_BLAME)
			continue;
		if (fl_tps[i].ran)
			m |= 1ull << bit;
		bit++;
	}
	return m;
}

/* `reset` (fl_mutex held): what runs now is what ran. */
void fl_probes_blame_reset(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fl_tps); i++)
		if (fl_tps[i].feat == FL_FEAT_BLAME)
			fl_tps[i].ran = fl_tps[i].armed;
}

/*
 * Hook everything live, disabled (fl_enabled false) and with fl_mutex held.
 * Returns in-flight from before are dropped by the generation, and the
 * per-task slots are cleared: tasks that exited while nothing was hooked
 * never released theirs.
 */
void fl_probes_arm(void)
{
	unsigned int i;

	lockdep_assert_held(&fl_mutex);
	if (fl_armed)
		return;
	fl_slots_clear();
	fl_clock_select();	/* nothing in flight: no timestamp of the other clock */
	WRITE_ONCE(fl_arm_gen, fl_arm_gen + 1);
	for (i = 0; i < ARRAY_SIZE(fl_tps); i++) {
		struct fl_tp *t = &fl_tps[i];

		if (t->feat != FL_FEAT_CORE)
			continue;
		if (fl_tp_is_mmap(t) && (t->state == FL_HS_LIVE || t->state == FL_HS_HELD))
			t->state = fl_mmap_held() ? FL_HS_HELD : FL_HS_LIVE;
		if (t->state == FL_HS_LIVE)
			fl_tp_arm(t);
	}
	for (i = 0; i < ARRAY_SIZE(fl_krps); i++) {
		struct fl_krp *k = &fl_krps[i];
		int err;

		if (k->feat != FL_FEAT_CORE || k->state != FL_HS_LIVE)
			continue;
		if (fl_fp_arm(k))
			continue;
		err = enable_kretprobe(&k->rp);
		if (err)
			pr_warn("%s: enable_kretprobe failed (%d), not hooked\n", k->sym, err);
		else
			k->armed = true;
	}
	fl_probes_arm_blame();
	fl_armed = true;
}

/*
 * Unhook what arming registered: blame's handlers stop acting, its rwsem
 * rows are unregistered and every armed tracepoint probe is detached; none
 * still runs on return.
 */
static void fl_tps_unhook(void)
{
	unsigned int i;
	bool tp = false;

	fl_blame_disarm();
	fl_krps_unregister(FL_FEAT_BLAME_RWSEM);
	for (i = 0; i < ARRAY_SIZE(fl_tps); i++) {
		struct fl_tp *t = &fl_tps[i];

		if (!t->armed)
			continue;
		tracepoint_probe_unregister(t->tp, fl_tp_probe(t), NULL);
		t->armed = false;
		tp = true;
	}
	if (tp)
		tracepoint_synchronize_unregister();
}

/* Unhook everything; fl_enabled already false, fl_mutex held. */
void fl_probes_disarm(void)
{
	unsigned int i;

	lockdep_assert_held(&fl_mutex);
	fl_tps_unhook();
	/* The ftrace site is patched back; returns in flight are dropped by generation. */
	for (i = 0; i < ARRAY_SIZE(fl_krps); i++) {
		struct fl_krp *k = &fl_krps[i];

		fl_fp_disarm(k);
		if (k->feat != FL_FEAT_CORE || !k->armed)
			continue;
		disable_kretprobe(&k->rp);
		k->armed = false;
	}
	fl_armed = false;
}

bool fl_probes_armed(void)
{
	return READ_ONCE(fl_armed);
}

/*
 * Nothing is hooked while disabled: `enable` arms the hooks, then counts;
 * `disable` stops counting, then unhooks (fl_mutex held for both).
 */
void fl_enable(void)
{
	lockdep_assert_held(&fl_mutex);
	if (READ_ONCE(fl_enabled))
		return;
	fl_probes_arm();
	WRITE_ONCE(fl_enabled, true);
}

void fl_disable(void)
{
	lockdep_assert_held(&fl_mutex);
	WRITE_ONCE(fl_enabled, false);
	fl_probes_disarm();
}

/* `mmap_lock on|auto` (fl_mutex held): applies at the next arming. */
void fl_probes_mmap_lock(bool on)
{
	unsigned int i;

	lockdep_assert_held(&fl_mutex);
	WRITE_ONCE(fl_mmap_lock_on, on);
	if (fl_armed)
		return;
	for (i = 0; i < ARRAY_SIZE(fl_tps); i++) {
		struct fl_tp *t = &fl_tps[i];

		if (fl_tp_is_mmap(t) && (t->state == FL_HS_LIVE || t->state == FL_HS_HELD))
			t->state = fl_mmap_held() ? FL_HS_HELD : FL_HS_LIVE;
	}
	fl_feat_state();
}

void fl_probes_unregister(void)
{
	unsigned int i;

	fl_tps_unhook();
	for (i = 0; i < ARRAY_SIZE(fl_krps); i++)
		fl_fp_disarm(&fl_krps[i]);
	fl_krps_unregister(FL_FEAT_CORE);
	for (i = 0; i < ARRAY_SIZE(fl_krps); i++) {
		struct fl_krp *k = &fl_krps[i];

		if (k->feat != FL_FEAT_CORE)
			continue;
		if (k->rp.nmissed || k->rp.kp.nmissed || fl_fp_nmissed(k))
			pr_info("%s: %d returns missed (maxactive %d), %lu entries missed, %lu fprobe misses\n",
				k->sym, k->rp.nmissed, k->rp.maxactive, k->rp.kp.nmissed,
				fl_fp_nmissed(k));
		k->armed = false;
		k->state = FL_HS_OFF;
	}
	for (i = 0; i < ARRAY_SIZE(fl_tps); i++)
		fl_tps[i].state = FL_HS_OFF;
	fl_armed = false;
}

/* Mask of the hooks (kretprobes and tracepoints) in one state. */
static u64 fl_probes_in_state_mask(enum fl_hook_state state)
{
	u64 m = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fl_krps); i++)
		if (fl_krps[i].hook >= 0 && fl_krps[i].state == state)
			m |= BIT_ULL(fl_krps[i].hook);
	for (i = 0; i < ARRAY_SIZE(fl_tps); i++)
		if (fl_tps[i].hook >= 0 && fl_tps[i].state == state)
			m |= BIT_ULL(fl_tps[i].hook);
	return m;
}

/*
 * Hooked while enabled (whether armed now or not): the snapshot's
 * hooks_live.  An inferred lock_vma_under_rcu counts as live: its figures
 * are there (report's lockless rule wants LOCK_VMA, HMF and PF_USER live).
 */
u64 fl_probes_live(void)
{
	return fl_probes_in_state_mask(FL_HS_LIVE) | fl_probes_in_state_mask(FL_HS_INFERRED);
}

u64 fl_probes_absent(void)
{
	return fl_probes_in_state_mask(FL_HS_ABSENT);
}

u64 fl_probes_nmissed(void)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fl_krps); i++)
		if (fl_krps[i].feat == FL_FEAT_CORE && fl_krps[i].registered)
			n += (u64)READ_ONCE(fl_krps[i].rp.nmissed) +
			     READ_ONCE(fl_krps[i].rp.kp.nmissed) + fl_fp_nmissed(&fl_krps[i]);
	return n;
}

/* A row's name in the listing: its enum fl_hook, or its feature's. */
static const char *fl_hook_name(int hook, enum fl_feat feat)
{
	return hook >= 0 ? fl_hook_label[hook] : fl_feat_label[feat];
}

static void fl_show_note(struct seq_file *m, enum fl_hook_state state, int err)
{
	if (state == FL_HS_FAILED)
		seq_printf(m, "- (error %d)\n", err);
	else if (state == FL_HS_INFERRED)
		seq_puts(m, "- (from handle_mm_fault's FAULT_FLAG_VMA_LOCK)\n");
	else if (state == FL_HS_HELD)
		seq_puts(m, "- (off: memcg_path cost, mmap_lock on to arm)\n");
	else
		seq_puts(m, "-\n");
}

void fl_probes_show(struct seq_file *m)
{
	unsigned int i;

	seq_printf(m, "%-28s %-40s %-8s %s\n", "hook", "target", "state", "nmissed");
	for (i = 0; i < ARRAY_SIZE(fl_krps); i++) {
		const struct fl_krp *k = &fl_krps[i];
		char target[64];

		snprintf(target, sizeof(target), "%s:%s", k->pre ? "kprobe" : "kretprobe", k->sym);
		seq_printf(m, "%-28s %-40s %-8s ", fl_hook_name(k->hook, k->feat), target,
			   fl_hs_name[k->state]);
		if (k->state == FL_HS_LIVE && k->pre && k->registered)
			seq_printf(m, "%lu (hooked as kprobe)\n", k->rp.kp.nmissed);
		else if (k->state == FL_HS_LIVE && (k->feat == FL_FEAT_CORE || k->registered))
			seq_printf(m, "%llu (maxactive %d, hooked as %s)\n",
				   (u64)k->rp.nmissed + k->rp.kp.nmissed + fl_fp_nmissed(k),
				   k->rp.maxactive, fl_fp_kind(k));
		else
			fl_show_note(m, k->state, k->err);
	}
	for (i = 0; i < ARRAY_SIZE(fl_tps); i++) {
		const struct fl_tp *t = &fl_tps[i];
		char target[64];

		if (t->hook < 0 && t->feat == FL_FEAT_CORE)
			continue;	/* internal: the filter, the slots */
		snprintf(target, sizeof(target), "tracepoint:%s:%s", t->sys, t->name);
		seq_printf(m, "%-28s %-40s %-8s ", fl_hook_name(t->hook, t->feat), target,
			   fl_hs_name[t->state]);
		fl_show_note(m, t->state, t->err);
	}
	seq_printf(m, "mmap_lock tracepoint prototype: %s\n",
		   fl_mmap_memcg_proto ? "with memcg_path (< 6.14)" : "without memcg_path (6.14+)");
	seq_printf(m, "mmap_lock hooks: %s%s\n", READ_ONCE(fl_mmap_lock_on) ? "on" : "auto",
		   fl_mmap_lock_keep_off(fl_mmap_memcg_proto, fl_kv.ll_kind, false) ?
		   " (auto = off here: memcg_path built per event, every fault takes mmap_lock)" : "");
	seq_printf(m, "handle_mm_fault duration: %s\n", READ_ONCE(fl_time_hmf) ?
		   "timed (hmf on)" : "not timed (hmf off: one clock read less per call)");
	seq_printf(m, "armed: %s\n", fl_armed ? "yes (enabled: hooks live are hooked)" :
		   "no (disabled: nothing hooked until enable)");
}
