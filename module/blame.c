// SPDX-License-Identifier: GPL-2.0
/*
 * Holder attribution in the module (`blame on`, `record -b kmod --blame`):
 * who held mmap_lock for write while the traced faults waited.  The same
 * attribution as ebpf/blame.bpf.c, on the module's own hooks, with the
 * shared pieces of include/faultline/blame.h (the hold split, the site
 * statistics, the snapshot rows).  Documentation/blame.rst, "The module".
 *
 * Writer side: the mmap_lock tracepoints with write=true on the current
 * task's own mm (probes.c's filter: a traced task, in_task()) claim a holder
 * entry for the task: queued from start_locking, holding from a successful
 * acquire, gone at the release or mmap_write_downgrade.  Its call site is
 * the syscall (pt_regs orig_ax) and the kernel stack, taken at the start
 * (or at the acquire when no start was seen) and interned in `fl_bl_sites`.
 * While it holds, sched_switch splits the hold into on-CPU / runnable /
 * sleeping and the vmscan tracepoints count direct and memcg reclaim.
 *
 * Where those tracepoints would tax every fault (probes.c's fl_mmap_held():
 * the memcg path built per event, and no lockless path, 6.1) the same three
 * events come from the rwsem write side instead, as ebpf/blame.bpf.c does
 * with fentry: kretprobes on down_write, down_write_killable and
 * down_write_trylock, kprobes on up_write and downgrade_write, for the
 * calls on the current task's mm's mmap_lock.  No fault calls them.
 *
 * Fault side: a traced task's contention on its mm's mmap_lock for read
 * (lock:contention_begin) while a fault is in flight (the fault state of
 * its slot) is charged, at contention_end, to the site of the mm's writer
 * found at the begin: holding, else queued.
 *
 * Storage: FL_BL_HOLDERS entries claimed by cmpxchg on the task pointer and
 * written by their owner only (sched_switch writes the split of a task
 * being switched, which is not running its own code then); the sites and
 * the totals under one raw spinlock, taken per write hold and per fault
 * wait, never per uncontended fault.  Full tables are counted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/jhash.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/version.h>
#include <asm/syscall.h>

#include "faultline.h"

#ifndef task_is_running		/* before 5.14 */
#define task_is_running(t)	(READ_ONCE((t)->state) == TASK_RUNNING)
#endif

#define FL_BL_HOLDERS	32
#define FL_BL_SITES	64

struct fl_bl_holder {
	struct task_struct *task;	/* owner; NULL = free; compared, never dereferenced */
	struct mm_struct *mm;
	u64 queue_start;		/* start_locking(write) */
	u64 hold_start;			/* acquire; 0 = queued */
	struct bl_split split;		/* in fl_now() ticks */
	int site;			/* index into fl_bl_sites, -1 = none */
	u32 tid;
};

struct fl_bl_site {
	u32 sysnr;
	u32 nr_ips;
	u32 hash;
	char comm[BL_COMM_LEN];
	unsigned long ips[BL_STACK_DEPTH];
	struct bl_site_stats st;	/* ns (scaled at record) */
};

bool fl_bl_armed;			/* blame's probes are live: the handlers act */
static bool fl_bl_want;			/* `blame on` */
static bool fl_bl_ran;			/* armed since the last reset: the snapshot has rows */
static atomic_t fl_bl_nholding;		/* entries holding: sched_switch / reclaim act */
static struct fl_bl_holder fl_bl_holders[FL_BL_HOLDERS];
static struct fl_bl_site *fl_bl_sites;
static unsigned int fl_bl_nsites;
static struct bl_totals fl_bl_tot;	/* wait_all, waits_blamed, misc */
static DEFINE_RAW_SPINLOCK(fl_bl_lock);
static int fl_bl_by;			/* FL_BL_BY_*: how the write holds are seen */

/* Tracepoints of blame's own (the mmap_lock and contention ones are probes.c's). */
struct fl_bl_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
	bool armed;
	bool ran;		/* armed since the last reset */
};

static inline void fl_bl_count(unsigned int id)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&fl_bl_lock, flags);
	fl_bl_tot.misc[id]++;
	raw_spin_unlock_irqrestore(&fl_bl_lock, flags);
}

static struct fl_bl_holder *fl_bl_holder_of(struct task_struct *t)
{
	unsigned int i;

	for (i = 0; i < FL_BL_HOLDERS; i++)
		if (READ_ONCE(fl_bl_holders[i].task) == t)
			return &fl_bl_holders[i];
	return NULL;
}

static struct fl_bl_holder *fl_bl_holder_new(void)
{
	unsigned int i;

	for (i = 0; i < FL_BL_HOLDERS; i++)
		if (!READ_ONCE(fl_bl_holders[i].task) &&
		    !cmpxchg(&fl_bl_holders[i].task, NULL, current))
			return &fl_bl_holders[i];
	fl_bl_count(BL_M_HOLDERS_FULL);
	return NULL;
}

static void fl_bl_holder_free(struct fl_bl_holder *h)
{
	if (h->hold_start)
		atomic_dec(&fl_bl_nholding);
	h->hold_start = 0;
	WRITE_ONCE(h->mm, NULL);
	smp_store_release(&h->task, NULL);
}

/*
 * The current task's comm without task_lock() (a spinlock_t: not under the
 * raw fl_bl_lock), as bpf_get_current_comm() reads it.
 */
static void fl_bl_comm(char comm[BL_COMM_LEN])
{
	strscpy_pad(comm, current->comm, BL_COMM_LEN);
}

/* The site of the current task's write lock (fl_bl_lock held). */
static int fl_bl_site_find(u32 sysnr, const unsigned long *ips, unsigned int n)
{
	struct fl_bl_site *s;
	char comm[BL_COMM_LEN];
	unsigned int i;
	u32 hash = jhash2((const u32 *)ips, n * sizeof(*ips) / sizeof(u32), sysnr);

	fl_bl_comm(comm);
	for (i = 0; i < fl_bl_nsites; i++) {
		s = &fl_bl_sites[i];
		if (s->hash == hash && s->sysnr == sysnr && s->nr_ips == n &&
		    !memcmp(s->ips, ips, n * sizeof(*ips)) &&
		    !strncmp(s->comm, comm, BL_COMM_LEN))
			return i;
	}
	if (fl_bl_nsites == FL_BL_SITES) {
		fl_bl_tot.misc[BL_M_SITES_FULL]++;
		return -1;
	}
	s = &fl_bl_sites[fl_bl_nsites];
	memset(s, 0, sizeof(*s));
	s->hash = hash;
	s->sysnr = sysnr;
	s->nr_ips = n;
	memcpy(s->ips, ips, n * sizeof(*ips));
	memcpy(s->comm, comm, BL_COMM_LEN);
	return fl_bl_nsites++;
}

/* The current task's call site: its syscall and kernel stack. */
static int fl_bl_site_of_current(void)
{
	unsigned long ips[BL_STACK_DEPTH], flags;
	unsigned int n;
	u32 sysnr = BL_SYS_NONE;
	int site;

	if (!(current->flags & PF_KTHREAD))
		sysnr = (u32)syscall_get_nr(current, task_pt_regs(current));
	n = stack_trace_save(ips, BL_STACK_DEPTH, 0);
	if (!n)
		fl_bl_count(BL_M_STACK_FAIL);
	raw_spin_lock_irqsave(&fl_bl_lock, flags);
	site = fl_bl_site_find(sysnr, ips, n);
	raw_spin_unlock_irqrestore(&fl_bl_lock, flags);
	return site;
}

/* ---- the writer: probes.c's mmap_lock handlers call these ------------- */

/* H, the current task's entry (claimed when NULL), with its site taken now. */
static struct fl_bl_holder *fl_bl_holder_site(struct fl_bl_holder *h)
{
	if (!h)
		h = fl_bl_holder_new();
	if (h) {
		h->site = fl_bl_site_of_current();
		h->tid = current->pid;
	}
	return h;
}

void fl_bl_start(struct mm_struct *mm, bool write, u64 now)
{
	struct fl_bl_holder *h;

	if (!write)
		return;
	h = fl_bl_holder_of(current);
	if (h && h->hold_start) {
		fl_bl_count(BL_M_NESTED);
		return;
	}
	h = fl_bl_holder_site(h);
	if (!h)
		return;
	h->queue_start = now;
	h->hold_start = 0;
	WRITE_ONCE(h->mm, mm);		/* published: faults now queue behind it */
}

static void fl_bl_hold_end(struct fl_bl_holder *h, u64 now)
{
	u64 hold = fl_ticks_ns(now - h->hold_start), rq, sl;
	struct bl_site_stats *v;
	char comm[BL_COMM_LEN];
	unsigned long flags;

	fl_bl_comm(comm);
	bl_split_end(&h->split, now);
	/*
	 * The split's ticks add up to the hold's; scaled one by one they
	 * would lose a ns each to truncation: on-CPU takes the remainder.
	 */
	rq = fl_ticks_ns(h->split.ns[BL_ST_RUNNABLE]);
	sl = fl_ticks_ns(h->split.ns[BL_ST_SLEEP]);
	raw_spin_lock_irqsave(&fl_bl_lock, flags);
	if (h->site >= 0) {
		v = &fl_bl_sites[h->site].st;
		fl_hist_put(&v->hold, now - h->hold_start);
		v->ns[BL_ST_ONCPU] += hold - rq - sl;
		v->ns[BL_ST_RUNNABLE] += rq;
		v->ns[BL_ST_SLEEP] += sl;
		v->reclaim_ns += fl_ticks_ns(h->split.reclaim_ns);
		v->last_ns = now;
		v->tid = h->tid;
		memcpy(v->comm, comm, BL_COMM_LEN);
	}
	raw_spin_unlock_irqrestore(&fl_bl_lock, flags);
	fl_bl_holder_free(h);
}

void fl_bl_acquired(struct mm_struct *mm, bool write, bool success, u64 now)
{
	struct fl_bl_holder *h;
	unsigned long flags;

	/* every fault that takes mmap_lock comes here for a read */
	if (!write && (!success || !atomic_read(&fl_bl_nholding)))
		return;
	h = fl_bl_holder_of(current);
	if (!write) {
		/* mmap_write_downgrade: the write hold ends here */
		if (h && h->hold_start && h->mm == mm)
			fl_bl_hold_end(h, now);
		return;
	}
	if (!success) {		/* killable lock interrupted, or a failed trylock */
		if (h && !h->hold_start)
			fl_bl_holder_free(h);
		return;
	}
	if (h && h->hold_start) {
		fl_bl_count(BL_M_NESTED);
		return;
	}
	if (h && h->mm == mm) {
		raw_spin_lock_irqsave(&fl_bl_lock, flags);
		if (h->site >= 0)
			fl_bl_sites[h->site].st.own_wait_ns += fl_ticks_ns(now - h->queue_start);
		raw_spin_unlock_irqrestore(&fl_bl_lock, flags);
	} else {
		/* no start seen: the site is taken now */
		h = fl_bl_holder_site(h);
		if (!h)
			return;
	}
	bl_split_begin(&h->split, now);
	WRITE_ONCE(h->hold_start, now);
	WRITE_ONCE(h->mm, mm);
	atomic_inc(&fl_bl_nholding);
}

void fl_bl_released(struct mm_struct *mm, bool write, u64 now)
{
	struct fl_bl_holder *h;

	if (!write)
		return;
	h = fl_bl_holder_of(current);
	if (h && h->hold_start && h->mm == mm)
		fl_bl_hold_end(h, now);
}

/* The task exits: an entry it left (an event missed) is freed. */
void fl_bl_task_exit(void)
{
	struct fl_bl_holder *h = fl_bl_holder_of(current);

	if (h)
		fl_bl_holder_free(h);
}

/* ---- the fault side: probes.c's contention handlers ------------------- */

#define FL_BL_W_FAULT	(1u << 31)	/* a fault's read wait is in flight */
#define FL_BL_W_QUEUED	(1u << 30)	/* its writer was still queued */
#define FL_BL_W_SITE	0xffffu		/* site + 1; 0 = no writer found */

/* A traced task contends on its own mm's mmap_lock (lcb: LCB_F_*). */
void fl_bl_contend_begin(struct fl_slot *s, struct mm_struct *mm, unsigned int lcb)
{
	struct fl_bl_holder *h, *found = NULL;
	unsigned int i;
	u32 w;

	s->bl_wait = 0;
	if (!(lcb & BL_LCB_F_READ) || (lcb & BL_LCB_F_WRITE))
		return;
	if (!s->fs.start_ns) {
		fl_bl_count(BL_M_NOFAULT);
		return;
	}
	w = FL_BL_W_FAULT;
	for (i = 0; i < FL_BL_HOLDERS; i++) {
		h = &fl_bl_holders[i];
		if (READ_ONCE(h->mm) != mm || !READ_ONCE(h->task))
			continue;
		if (!found || (READ_ONCE(h->hold_start) && !READ_ONCE(found->hold_start)))
			found = h;
	}
	if (found && READ_ONCE(found->task) == current) {
		fl_bl_count(BL_M_SELF);
	} else if (found) {
		int site = READ_ONCE(found->site);

		if (site >= 0)
			w |= (u32)(site + 1);
		if (!READ_ONCE(found->hold_start))
			w |= FL_BL_W_QUEUED;
	}
	s->bl_wait = w;
}

/* Its contention ended after `d` ticks. */
void fl_bl_contend_end(struct fl_slot *s, u64 d)
{
	u32 w = s->bl_wait;
	struct bl_site_stats *v;
	unsigned long flags;

	s->bl_wait = 0;
	if (!(w & FL_BL_W_FAULT))
		return;
	raw_spin_lock_irqsave(&fl_bl_lock, flags);
	fl_hist_put(&fl_bl_tot.wait_all, d);
	if (w & FL_BL_W_SITE) {
		v = &fl_bl_sites[(w & FL_BL_W_SITE) - 1].st;
		fl_bl_tot.waits_blamed++;
		fl_hist_put(&v->wait, d);
		if (w & FL_BL_W_QUEUED)
			v->behind_wait++;
	}
	raw_spin_unlock_irqrestore(&fl_bl_lock, flags);
}

/* ---- what the holder does while it holds ------------------------------ */

static struct fl_bl_holder *fl_bl_holding(struct task_struct *t)
{
	struct fl_bl_holder *h = fl_bl_holder_of(t);

	return h && h->hold_start ? h : NULL;
}

/* Only the arguments every kernel passes (prev_state came in 5.18). */
static void fl_bl_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next)
{
	struct fl_bl_holder *h;
	u64 now = 0;

	if (!atomic_read(&fl_bl_nholding))
		return;
	h = fl_bl_holding(prev);
	if (h) {
		now = fl_now();
		bl_split_to(&h->split, preempt || task_is_running(prev) ? BL_ST_RUNNABLE :
			    BL_ST_SLEEP, now);
	}
	h = fl_bl_holding(next);
	if (h)
		bl_split_to(&h->split, BL_ST_ONCPU, now ? now : fl_now());
}

static void fl_bl_reclaim(bool enter)
{
	struct fl_bl_holder *h;

	if (!atomic_read(&fl_bl_nholding) || !(h = fl_bl_holding(current)))
		return;
	if (enter)
		bl_reclaim_enter(&h->split, fl_now());
	else
		bl_reclaim_exit(&h->split, fl_now());
}

/* (gfp, order, memcg) on 7.x, (order, gfp) before: conftest.sh */
#if FL_HAVE_VMSCAN_BEGIN_GFP_ORDER_MEMCG
static void fl_bl_reclaim_begin(void *data, gfp_t gfp, int order, struct mem_cgroup *memcg)
#else
static void fl_bl_reclaim_begin(void *data, int order, gfp_t gfp)
#endif
{
	fl_bl_reclaim(true);
}

static void fl_bl_reclaim_end(void *data, unsigned long nr_reclaimed)
{
	fl_bl_reclaim(false);
}

static struct fl_bl_tp fl_bl_tps[] = {
	{ "sched_switch", fl_bl_switch },
	{ "mm_vmscan_direct_reclaim_begin", fl_bl_reclaim_begin },
	{ "mm_vmscan_direct_reclaim_end", fl_bl_reclaim_end },
	{ "mm_vmscan_memcg_reclaim_begin", fl_bl_reclaim_begin },
	{ "mm_vmscan_memcg_reclaim_end", fl_bl_reclaim_end },
};

static void fl_bl_tp_lookup(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fl_bl_tps); i++)
		if (!strcmp(tp->name, fl_bl_tps[i].name))
			fl_bl_tps[i].tp = tp;
}

/* ---- the rwsem write side (memcg-path kernels without per-VMA locks) --- */

/* The sem is the current traced task's own mm's mmap_lock: that mm, or NULL. */
static struct mm_struct *fl_bl_sem_mm(struct pt_regs *regs)
{
	struct mm_struct *mm = current->mm;

	if (!in_task() || !mm || (void *)regs_get_kernel_argument(regs, 0) != &mm->mmap_lock ||
	    !fl_want())
		return NULL;
	return mm;
}

/* down_write*: start at the entry, acquired at the return. */
static int fl_bl_dw_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct mm_struct *mm = fl_bl_sem_mm(regs);

	if (!mm || !READ_ONCE(fl_bl_armed))
		return 1;	/* not ours: no return probe */
	*(struct mm_struct **)ri->data = mm;
	fl_bl_start(mm, true, fl_now());
	return 0;
}

/* down_write returns nothing, _killable 0 on success, _trylock 1. */
static void fl_bl_dw_ret(struct kretprobe_instance *ri, struct pt_regs *regs, bool success)
{
	u64 now = fl_now();

	if (READ_ONCE(fl_bl_armed))
		fl_bl_acquired(*(struct mm_struct **)ri->data, true, success, now);
}

static int fl_bl_dw_ret_void(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	fl_bl_dw_ret(ri, regs, true);
	return 0;
}

static int fl_bl_dw_ret_killable(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	fl_bl_dw_ret(ri, regs, regs_return_value(regs) == 0);
	return 0;
}

static int fl_bl_dw_ret_trylock(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	fl_bl_dw_ret(ri, regs, regs_return_value(regs) == 1);
	return 0;
}

static int fl_bl_up_write(struct kprobe *p, struct pt_regs *regs)
{
	struct mm_struct *mm = fl_bl_sem_mm(regs);

	if (mm && READ_ONCE(fl_bl_armed))
		fl_bl_released(mm, true, fl_now());
	return 0;
}

/* mmap_write_downgrade: the mmap_lock tracepoints' acquire_returned(read) */
static int fl_bl_downgrade(struct kprobe *p, struct pt_regs *regs)
{
	struct mm_struct *mm = fl_bl_sem_mm(regs);

	if (mm && READ_ONCE(fl_bl_armed))
		fl_bl_acquired(mm, false, true, fl_now());
	return 0;
}

#define FL_BL_KRP(fn, ret) {						\
	.kp.symbol_name = fn, .entry_handler = fl_bl_dw_entry,		\
	.handler = ret, .data_size = sizeof(struct mm_struct *),	\
	.maxactive = 64 }

static struct kretprobe fl_bl_krps[] = {
	FL_BL_KRP("down_write", fl_bl_dw_ret_void),
	FL_BL_KRP("down_write_killable", fl_bl_dw_ret_killable),
	FL_BL_KRP("down_write_trylock", fl_bl_dw_ret_trylock),
};

static struct kprobe fl_bl_kps[] = {
	{ .symbol_name = "up_write", .pre_handler = fl_bl_up_write },
	{ .symbol_name = "downgrade_write", .pre_handler = fl_bl_downgrade },
};

static bool fl_bl_rwsem_on;	/* the probes above are registered */

/* All or none: a missing release would leave every hold open. */
static int fl_bl_rwsem_register(void)
{
	struct kretprobe *rps[ARRAY_SIZE(fl_bl_krps)];
	struct kprobe *kps[ARRAY_SIZE(fl_bl_kps)];
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(fl_bl_krps); i++) {
		/* a kretprobe is registered afresh each time: clear what the last left */
		const char *sym = fl_bl_krps[i].kp.symbol_name;
		void *h = fl_bl_krps[i].handler;

		memset(&fl_bl_krps[i].kp, 0, sizeof(fl_bl_krps[i].kp));
		fl_bl_krps[i].kp.symbol_name = sym;
		fl_bl_krps[i].handler = h;
		rps[i] = &fl_bl_krps[i];
	}
	for (i = 0; i < ARRAY_SIZE(fl_bl_kps); i++) {
		const char *sym = fl_bl_kps[i].symbol_name;
		kprobe_pre_handler_t h = fl_bl_kps[i].pre_handler;

		memset(&fl_bl_kps[i], 0, sizeof(fl_bl_kps[i]));
		fl_bl_kps[i].symbol_name = sym;
		fl_bl_kps[i].pre_handler = h;
		kps[i] = &fl_bl_kps[i];
	}
	err = register_kretprobes(rps, ARRAY_SIZE(rps));
	if (err) {
		pr_warn("blame: rwsem write side: register_kretprobes failed (%d)\n", err);
		return err;
	}
	err = register_kprobes(kps, ARRAY_SIZE(kps));
	if (err) {
		pr_warn("blame: rwsem write side: register_kprobes failed (%d)\n", err);
		unregister_kretprobes(rps, ARRAY_SIZE(rps));
		return err;
	}
	fl_bl_rwsem_on = true;
	return 0;
}

static void fl_bl_rwsem_unregister(void)
{
	struct kretprobe *rps[ARRAY_SIZE(fl_bl_krps)];
	struct kprobe *kps[ARRAY_SIZE(fl_bl_kps)];
	unsigned int i;

	if (!fl_bl_rwsem_on)
		return;
	for (i = 0; i < ARRAY_SIZE(fl_bl_krps); i++)
		rps[i] = &fl_bl_krps[i];
	for (i = 0; i < ARRAY_SIZE(fl_bl_kps); i++)
		kps[i] = &fl_bl_kps[i];
	/* both wait for running handlers */
	unregister_kprobes(kps, ARRAY_SIZE(kps));
	unregister_kretprobes(rps, ARRAY_SIZE(rps));
	fl_bl_rwsem_on = false;
}

/* ---- control (fl_mutex held) ------------------------------------------ */

/* `blame on|off`: applies at the next arming. */
int fl_bl_set(bool on)
{
	if (on && !fl_probes_blame_ok())
		return -ENODEV;
	if (on && !fl_bl_sites) {
		/* taken once, kept to unload: a snapshot may still read them */
		fl_bl_sites = kvcalloc(FL_BL_SITES, sizeof(*fl_bl_sites), GFP_KERNEL);
		if (!fl_bl_sites)
			return -ENOMEM;
	}
	WRITE_ONCE(fl_bl_want, on);
	return 0;
}

bool fl_bl_wanted(void)
{
	return READ_ONCE(fl_bl_want);
}

/*
 * Nothing armed: hook blame's tracepoints when `blame on` and probes.c's
 * hooks it stands on are live (how: FL_BL_BY_*); the holders of a previous
 * arming are dropped.
 */
void fl_bl_arm(int how)
{
	unsigned int i;
	int err;

	memset(fl_bl_holders, 0, sizeof(fl_bl_holders));
	atomic_set(&fl_bl_nholding, 0);
	fl_bl_by = FL_BL_BY_NONE;
	if (!fl_bl_want || how == FL_BL_BY_NONE)
		return;
	if (how == FL_BL_BY_RWSEM && fl_bl_rwsem_register())
		return;
	fl_bl_by = how;
	for (i = 0; i < ARRAY_SIZE(fl_bl_tps); i++) {
		struct fl_bl_tp *t = &fl_bl_tps[i];

		if (!t->tp)
			continue;
		err = tracepoint_probe_register(t->tp, t->probe, NULL);
		if (err)
			pr_warn("blame: %s: tracepoint_probe_register failed (%d)\n", t->name, err);
		else
			t->armed = t->ran = true;
	}
	fl_bl_ran = true;
	WRITE_ONCE(fl_bl_armed, true);
}

/* Unhook; the caller synchronises the tracepoints after. */
bool fl_bl_disarm(void)
{
	unsigned int i;
	bool any = false;

	WRITE_ONCE(fl_bl_armed, false);
	fl_bl_rwsem_unregister();
	for (i = 0; i < ARRAY_SIZE(fl_bl_tps); i++) {
		struct fl_bl_tp *t = &fl_bl_tps[i];

		if (!t->armed)
			continue;
		tracepoint_probe_unregister(t->tp, t->probe, NULL);
		t->armed = false;
		any = true;
	}
	return any;
}

/* Bit i: fl_bl_tps[i] ran (fl_blame_total.kmod, FL_BLAME_KMOD_HOOKS). */
static u64 fl_bl_hooks(void)
{
	unsigned int i;
	u64 m = 0;

	for (i = 0; i < ARRAY_SIZE(fl_bl_tps); i++)
		if (fl_bl_tps[i].ran)
			m |= 1ull << i;
	return m;
}

void fl_bl_reset(void)
{
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&fl_bl_lock, flags);
	fl_bl_nsites = 0;
	memset(&fl_bl_tot, 0, sizeof(fl_bl_tot));
	raw_spin_unlock_irqrestore(&fl_bl_lock, flags);
	/* holders keep their entries; their sites are gone */
	fl_bl_ran = READ_ONCE(fl_bl_armed);
	for (i = 0; i < ARRAY_SIZE(fl_bl_tps); i++)
		fl_bl_tps[i].ran = fl_bl_tps[i].armed;
}

/* ---- the snapshot's sections ------------------------------------------ */

/* Rows the snapshot will carry (0: blame did not run since the reset). */
unsigned int fl_bl_nrows(void)
{
	return fl_bl_ran ? FL_BL_SITES : 0;
}

/*
 * Fill `rows` (fl_bl_nrows() of them) and `t`; returns the rows used.
 * Frames are symbolised here, outside core-kernel text dropped (this
 * module's probes) and the tracing frames blame.h names; no address is
 * written out.  Process context, fl_mutex held.
 */
unsigned int fl_bl_fill(struct fl_blame_row *rows, struct fl_blame_total *t)
{
	struct fl_bl_site *copy;
	unsigned long flags;
	unsigned int n, i, j;
	char *sym;

	copy = kvmalloc_array(FL_BL_SITES, sizeof(*copy), GFP_KERNEL);
	sym = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	if (!copy || !sym) {
		kvfree(copy);
		kfree(sym);
		return 0;
	}
	raw_spin_lock_irqsave(&fl_bl_lock, flags);
	n = fl_bl_nsites;
	memcpy(copy, fl_bl_sites, n * sizeof(*copy));
	t->waits_blamed = fl_bl_tot.waits_blamed;
	memcpy(t->misc, fl_bl_tot.misc, sizeof(t->misc));
	t->wait_all = fl_bl_tot.wait_all;
	raw_spin_unlock_irqrestore(&fl_bl_lock, flags);
	t->sites = n;
	t->fb_seen = FL_BLAME_FB_NONE;
	t->kmod = fl_bl_hooks() | FL_BLAME_KMOD;
	if (fl_bl_by == FL_BL_BY_RWSEM)
		t->kmod |= FL_BLAME_KMOD_RWSEM;

	for (i = 0; i < n; i++) {
		struct fl_blame_row *r = &rows[i];
		const struct fl_bl_site *s = &copy[i];

		r->sysnr = s->sysnr;
		r->tid = s->st.tid;
		memcpy(r->comm, s->st.last_ns ? s->st.comm : s->comm, BL_COMM_LEN);
		fl_blame_row_add_site(r, &s->st);
		for (j = 0; j < s->nr_ips && r->nframes < BL_FRAMES; j++) {
			sprint_symbol_no_offset(sym, s->ips[j]);
			if (strchr(sym, '[') || bl_frame_skipped(sym))
				continue;	/* a module's (ours), or tracing */
			strscpy(r->frames[r->nframes++], sym, FL_SYM_LEN);
		}
	}
	kvfree(copy);
	kfree(sym);
	return n;
}

void fl_bl_init(void)
{
	for_each_kernel_tracepoint(fl_bl_tp_lookup, NULL);
}

void fl_bl_exit(void)
{
	kvfree(fl_bl_sites);
	fl_bl_sites = NULL;
}
