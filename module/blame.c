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
 * (or at the acquire when no start was seen) and interned in `fl_blame_sites`.
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
 * Storage: FL_BLAME_HOLDERS entries claimed by cmpxchg on the task pointer and
 * written by their owner only (sched_switch writes the split of a task
 * being switched, which is not running its own code then); the sites and
 * the totals under one raw spinlock, taken per write hold and per fault
 * wait, never per uncontended fault.  Full tables are counted.
 *
 * Its hooks (sched_switch, the vmscan tracepoints, the rwsem write side)
 * are rows of probes.c's hook table, flagged FL_FEAT_BLAME and
 * FL_FEAT_BLAME_RWSEM: probes.c registers and arms them with the others
 * and lists them in debugfs faultline/hooks.
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
#include <linux/version.h>
#include <asm/syscall.h>

#include "faultline.h"

#ifndef task_is_running		/* before 5.14 */
#define task_is_running(t)	(READ_ONCE((t)->state) == TASK_RUNNING)
#endif

#define FL_BLAME_HOLDERS	32
#define FL_BLAME_SITES	64

struct fl_blame_holder {
	struct task_struct *task;	/* owner; NULL = free; compared, never dereferenced */
	struct mm_struct *mm;
	u64 queue_start;		/* start_locking(write) */
	u64 hold_start;			/* acquire; 0 = queued */
	struct bl_split split;		/* in fl_now() ticks */
	int site;			/* index into fl_blame_sites, -1 = none */
	u32 tid;
};

struct fl_blame_site {
	u32 sysnr;
	u32 nr_ips;
	u32 hash;
	char comm[BL_COMM_LEN];
	unsigned long ips[BL_STACK_DEPTH];
	struct bl_site_stats st;	/* ns (scaled at record) */
};

bool fl_blame_armed;			/* blame's probes are live: the handlers act */
static bool fl_blame_want;			/* `blame on` */
static bool fl_blame_ran;			/* armed since the last reset: the snapshot has rows */
static atomic_t fl_blame_nholding;		/* entries holding: sched_switch / reclaim act */
static struct fl_blame_holder fl_blame_holders[FL_BLAME_HOLDERS];
static struct fl_blame_site *fl_blame_sites;
static unsigned int fl_blame_nsites;
static struct bl_totals fl_blame_tot;	/* wait_all, waits_blamed, misc */
static DEFINE_RAW_SPINLOCK(fl_blame_lock);
static enum fl_blame_by fl_blame_by;	/* how the write holds are seen */

static inline void fl_blame_count(unsigned int id)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&fl_blame_lock, flags);
	fl_blame_tot.misc[id]++;
	raw_spin_unlock_irqrestore(&fl_blame_lock, flags);
}

static struct fl_blame_holder *fl_blame_holder_of(struct task_struct *t)
{
	unsigned int i;

	for (i = 0; i < FL_BLAME_HOLDERS; i++)
		if (READ_ONCE(fl_blame_holders[i].task) == t)
			return &fl_blame_holders[i];
	return NULL;
}

static struct fl_blame_holder *fl_blame_holder_new(void)
{
	unsigned int i;

	for (i = 0; i < FL_BLAME_HOLDERS; i++)
		if (!READ_ONCE(fl_blame_holders[i].task) &&
		    !cmpxchg(&fl_blame_holders[i].task, NULL, current))
			return &fl_blame_holders[i];
	fl_blame_count(BL_M_HOLDERS_FULL);
	return NULL;
}

static void fl_blame_holder_free(struct fl_blame_holder *h)
{
	if (h->hold_start)
		atomic_dec(&fl_blame_nholding);
	h->hold_start = 0;
	WRITE_ONCE(h->mm, NULL);
	smp_store_release(&h->task, NULL);
}

/*
 * The current task's comm without task_lock() (a spinlock_t: not under the
 * raw fl_blame_lock), as bpf_get_current_comm() reads it.
 */
static void fl_blame_comm(char comm[BL_COMM_LEN])
{
	strscpy_pad(comm, current->comm, BL_COMM_LEN);
}

/* The site of the current task's write lock (fl_blame_lock held). */
static int fl_blame_site_find(u32 sysnr, const unsigned long *ips, unsigned int n)
{
	struct fl_blame_site *s;
	char comm[BL_COMM_LEN];
	unsigned int i;
	u32 hash = jhash2((const u32 *)ips, n * sizeof(*ips) / sizeof(u32), sysnr);

	fl_blame_comm(comm);
	for (i = 0; i < fl_blame_nsites; i++) {
		s = &fl_blame_sites[i];
		if (s->hash == hash && s->sysnr == sysnr && s->nr_ips == n &&
		    !memcmp(s->ips, ips, n * sizeof(*ips)) &&
		    !strncmp(s->comm, comm, BL_COMM_LEN))
			return i;
	}
	if (fl_blame_nsites == FL_BLAME_SITES) {
		fl_blame_tot.misc[BL_M_SITES_FULL]++;
		return -1;
	}
	s = &fl_blame_sites[fl_blame_nsites];
	memset(s, 0, sizeof(*s));
	s->hash = hash;
	s->sysnr = sysnr;
	s->nr_ips = n;
	memcpy(s->ips, ips, n * sizeof(*ips));
	memcpy(s->comm, comm, BL_COMM_LEN);
	return fl_blame_nsites++;
}

/* The current task's call site: its syscall and kernel stack. */
static int fl_blame_site_of_current(void)
{
	unsigned long ips[BL_STACK_DEPTH], flags;
	unsigned int n;
	u32 sysnr = BL_SYS_NONE;
	int site;

	if (!(current->flags & PF_KTHREAD))
		sysnr = (u32)syscall_get_nr(current, task_pt_regs(current));
	n = stack_trace_save(ips, BL_STACK_DEPTH, 0);
	if (!n)
		fl_blame_count(BL_M_STACK_FAIL);
	raw_spin_lock_irqsave(&fl_blame_lock, flags);
	site = fl_blame_site_find(sysnr, ips, n);
	raw_spin_unlock_irqrestore(&fl_blame_lock, flags);
	return site;
}

/* ---- the writer: probes.c's mmap_lock handlers call these ------------- */

/* H, the current task's entry (claimed when NULL), with its site taken now. */
static struct fl_blame_holder *fl_blame_holder_site(struct fl_blame_holder *h)
{
	if (!h)
		h = fl_blame_holder_new();
	if (h) {
		h->site = fl_blame_site_of_current();
		h->tid = current->pid;
	}
	return h;
}

void fl_blame_start(struct mm_struct *mm, bool write, u64 now)
{
	struct fl_blame_holder *h;

	if (!write)
		return;
	h = fl_blame_holder_of(current);
	if (h && h->hold_start) {
		fl_blame_count(BL_M_NESTED);
		return;
	}
	h = fl_blame_holder_site(h);
	if (!h)
		return;
	h->queue_start = now;
	h->hold_start = 0;
	WRITE_ONCE(h->mm, mm);		/* published: faults now queue behind it */
}

static void fl_blame_hold_end(struct fl_blame_holder *h, u64 now)
{
	u64 hold = fl_ticks_ns(now - h->hold_start), rq, sl;
	struct bl_site_stats *v;
	char comm[BL_COMM_LEN];
	unsigned long flags;

	fl_blame_comm(comm);
	bl_split_end(&h->split, now);
	/*
	 * The split's ticks add up to the hold's; scaled one by one they
	 * would lose a ns each to truncation: on-CPU takes the remainder.
	 */
	rq = fl_ticks_ns(h->split.ns[BL_ST_RUNNABLE]);
	sl = fl_ticks_ns(h->split.ns[BL_ST_SLEEP]);
	raw_spin_lock_irqsave(&fl_blame_lock, flags);
	if (h->site >= 0) {
		v = &fl_blame_sites[h->site].st;
		fl_hist_put(&v->hold, now - h->hold_start);
		v->ns[BL_ST_ONCPU] += hold - rq - sl;
		v->ns[BL_ST_RUNNABLE] += rq;
		v->ns[BL_ST_SLEEP] += sl;
		v->reclaim_ns += fl_ticks_ns(h->split.reclaim_ns);
		v->last_ns = now;
		v->tid = h->tid;
		memcpy(v->comm, comm, BL_COMM_LEN);
	}
	raw_spin_unlock_irqrestore(&fl_blame_lock, flags);
	fl_blame_holder_free(h);
}

void fl_blame_acquired(struct mm_struct *mm, bool write, bool success, u64 now)
{
	struct fl_blame_holder *h;
	unsigned long flags;

	/* every fault that takes mmap_lock comes here for a read */
	if (!write && (!success || !atomic_read(&fl_blame_nholding)))
		return;
	h = fl_blame_holder_of(current);
	if (!write) {
		/* mmap_write_downgrade: the write hold ends here */
		if (h && h->hold_start && h->mm == mm)
			fl_blame_hold_end(h, now);
		return;
	}
	if (!success) {		/* killable lock interrupted, or a failed trylock */
		if (h && !h->hold_start)
			fl_blame_holder_free(h);
		return;
	}
	if (h && h->hold_start) {
		fl_blame_count(BL_M_NESTED);
		return;
	}
	if (h && h->mm == mm) {
		raw_spin_lock_irqsave(&fl_blame_lock, flags);
		if (h->site >= 0)
			fl_blame_sites[h->site].st.own_wait_ns += fl_ticks_ns(now - h->queue_start);
		raw_spin_unlock_irqrestore(&fl_blame_lock, flags);
	} else {
		/* no start seen: the site is taken now */
		h = fl_blame_holder_site(h);
		if (!h)
			return;
	}
	bl_split_begin(&h->split, now);
	WRITE_ONCE(h->hold_start, now);
	WRITE_ONCE(h->mm, mm);
	atomic_inc(&fl_blame_nholding);
}

void fl_blame_released(struct mm_struct *mm, bool write, u64 now)
{
	struct fl_blame_holder *h;

	if (!write)
		return;
	h = fl_blame_holder_of(current);
	if (h && h->hold_start && h->mm == mm)
		fl_blame_hold_end(h, now);
}

/* The task exits: an entry it left (an event missed) is freed. */
void fl_blame_task_exit(void)
{
	struct fl_blame_holder *h = fl_blame_holder_of(current);

	if (h)
		fl_blame_holder_free(h);
}

/* ---- the fault side: probes.c's contention handlers ------------------- */

#define FL_BLAME_W_FAULT	(1u << 31)	/* a fault's read wait is in flight */
#define FL_BLAME_W_QUEUED	(1u << 30)	/* its writer was still queued */
#define FL_BLAME_W_SITE	0xffffu		/* site + 1; 0 = no writer found */

/* A traced task contends on its own mm's mmap_lock (lcb: LCB_F_*). */
void fl_blame_contend_begin(struct fl_slot *s, struct mm_struct *mm, unsigned int lcb)
{
	struct fl_blame_holder *h, *found = NULL;
	unsigned int i;
	u32 w;

	s->bl_wait = 0;
	if (!(lcb & FL_LCB_F_READ) || (lcb & FL_LCB_F_WRITE))
		return;
	if (!s->fs.start_ns) {
		fl_blame_count(BL_M_NOFAULT);
		return;
	}
	w = FL_BLAME_W_FAULT;
	for (i = 0; i < FL_BLAME_HOLDERS; i++) {
		h = &fl_blame_holders[i];
		if (READ_ONCE(h->mm) != mm || !READ_ONCE(h->task))
			continue;
		if (!found || (READ_ONCE(h->hold_start) && !READ_ONCE(found->hold_start)))
			found = h;
	}
	if (found && READ_ONCE(found->task) == current) {
		fl_blame_count(BL_M_SELF);
	} else if (found) {
		int site = READ_ONCE(found->site);

		if (site >= 0)
			w |= (u32)(site + 1);
		if (!READ_ONCE(found->hold_start))
			w |= FL_BLAME_W_QUEUED;
	}
	s->bl_wait = w;
}

/* Its contention ended after `d` ticks. */
void fl_blame_contend_end(struct fl_slot *s, u64 d)
{
	u32 w = s->bl_wait;
	struct bl_site_stats *v;
	unsigned long flags;

	s->bl_wait = 0;
	if (!(w & FL_BLAME_W_FAULT))
		return;
	raw_spin_lock_irqsave(&fl_blame_lock, flags);
	fl_hist_put(&fl_blame_tot.wait_all, d);
	if (w & FL_BLAME_W_SITE) {
		v = &fl_blame_sites[(w & FL_BLAME_W_SITE) - 1].st;
		fl_blame_tot.waits_blamed++;
		fl_hist_put(&v->wait, d);
		if (w & FL_BLAME_W_QUEUED)
			v->behind_wait++;
	}
	raw_spin_unlock_irqrestore(&fl_blame_lock, flags);
}

/* ---- what the holder does while it holds ------------------------------ */

static struct fl_blame_holder *fl_blame_holding(struct task_struct *t)
{
	struct fl_blame_holder *h = fl_blame_holder_of(t);

	return h && h->hold_start ? h : NULL;
}

/* Only the arguments every kernel passes (prev_state came in 5.18). */
void fl_blame_switch(void *data, bool preempt, struct task_struct *prev,
		     struct task_struct *next)
{
	struct fl_blame_holder *h;
	u64 now = 0;

	if (!atomic_read(&fl_blame_nholding))
		return;
	h = fl_blame_holding(prev);
	if (h) {
		now = fl_now();
		bl_split_to(&h->split, preempt || task_is_running(prev) ? BL_ST_RUNNABLE :
			    BL_ST_SLEEP, now);
	}
	h = fl_blame_holding(next);
	if (h)
		bl_split_to(&h->split, BL_ST_ONCPU, now ? now : fl_now());
}

static void fl_blame_reclaim(bool enter)
{
	struct fl_blame_holder *h;

	if (!atomic_read(&fl_blame_nholding) || !(h = fl_blame_holding(current)))
		return;
	if (enter)
		bl_reclaim_enter(&h->split, fl_now());
	else
		bl_reclaim_exit(&h->split, fl_now());
}

/* (gfp, order, memcg) on 7.x, (order, gfp) before: conftest.sh */
#if FL_HAVE_VMSCAN_BEGIN_GFP_ORDER_MEMCG
void fl_blame_reclaim_begin(void *data, gfp_t gfp, int order, struct mem_cgroup *memcg)
#else
void fl_blame_reclaim_begin(void *data, int order, gfp_t gfp)
#endif
{
	fl_blame_reclaim(true);
}

void fl_blame_reclaim_end(void *data, unsigned long nr_reclaimed)
{
	fl_blame_reclaim(false);
}

/* ---- the rwsem write side (memcg-path kernels without per-VMA locks) --- */

/* The sem is the current traced task's own mm's mmap_lock: that mm, or NULL. */
static struct mm_struct *fl_blame_sem_mm(struct pt_regs *regs)
{
	struct mm_struct *mm = current->mm;

	if (!in_task() || !mm || (void *)regs_get_kernel_argument(regs, 0) != &mm->mmap_lock ||
	    !fl_want())
		return NULL;
	return mm;
}

/* down_write*: start at the entry, acquired at the return. */
int fl_blame_dw_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct mm_struct *mm = fl_blame_sem_mm(regs);

	if (!mm || !READ_ONCE(fl_blame_armed))
		return 1;	/* not ours: no return probe */
	*(struct mm_struct **)ri->data = mm;
	fl_blame_start(mm, true, fl_now());
	return 0;
}

/* down_write returns nothing, _killable 0 on success, _trylock 1. */
static void fl_blame_dw_ret(struct kretprobe_instance *ri, struct pt_regs *regs, bool success)
{
	u64 now = fl_now();

	if (READ_ONCE(fl_blame_armed))
		fl_blame_acquired(*(struct mm_struct **)ri->data, true, success, now);
}

int fl_blame_dw_ret_void(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	fl_blame_dw_ret(ri, regs, true);
	return 0;
}

int fl_blame_dw_ret_killable(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	fl_blame_dw_ret(ri, regs, regs_return_value(regs) == 0);
	return 0;
}

int fl_blame_dw_ret_trylock(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	fl_blame_dw_ret(ri, regs, regs_return_value(regs) == 1);
	return 0;
}

int fl_blame_up_write(struct kprobe *p, struct pt_regs *regs)
{
	struct mm_struct *mm = fl_blame_sem_mm(regs);

	if (mm && READ_ONCE(fl_blame_armed))
		fl_blame_released(mm, true, fl_now());
	return 0;
}

/* mmap_write_downgrade: the mmap_lock tracepoints' acquire_returned(read) */
int fl_blame_downgrade(struct kprobe *p, struct pt_regs *regs)
{
	struct mm_struct *mm = fl_blame_sem_mm(regs);

	if (mm && READ_ONCE(fl_blame_armed))
		fl_blame_acquired(mm, false, true, fl_now());
	return 0;
}

/* ---- control (fl_mutex held) ------------------------------------------ */

/* `blame on|off` (probes.c checked its hooks): applies at the next arming. */
int fl_blame_set(bool on)
{
	if (on && !fl_blame_sites) {
		/* taken once, kept to unload: a snapshot may still read them */
		fl_blame_sites = kvcalloc(FL_BLAME_SITES, sizeof(*fl_blame_sites), GFP_KERNEL);
		if (!fl_blame_sites)
			return -ENOMEM;
	}
	WRITE_ONCE(fl_blame_want, on);
	return 0;
}

bool fl_blame_wanted(void)
{
	return READ_ONCE(fl_blame_want);
}

/*
 * Arming (nothing armed yet; probes.c hooked blame's rows for HOW, FL_BLAME_BY_*):
 * the holders of a previous arming are dropped; the handlers act from here.
 */
void fl_blame_arm(enum fl_blame_by how)
{
	memset(fl_blame_holders, 0, sizeof(fl_blame_holders));
	atomic_set(&fl_blame_nholding, 0);
	fl_blame_by = how;
	if (how == FL_BLAME_BY_NONE)
		return;
	fl_blame_ran = true;
	WRITE_ONCE(fl_blame_armed, true);
}

/* Before blame's rows are unhooked: the handlers stop acting. */
void fl_blame_disarm(void)
{
	WRITE_ONCE(fl_blame_armed, false);
}

void fl_blame_reset(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&fl_blame_lock, flags);
	fl_blame_nsites = 0;
	memset(&fl_blame_tot, 0, sizeof(fl_blame_tot));
	raw_spin_unlock_irqrestore(&fl_blame_lock, flags);
	/* holders keep their entries; their sites are gone */
	fl_blame_ran = READ_ONCE(fl_blame_armed);
}

/* ---- the snapshot's sections ------------------------------------------ */

/* Rows the snapshot will carry (0: blame did not run since the reset). */
unsigned int fl_blame_nrows(void)
{
	return fl_blame_ran ? FL_BLAME_SITES : 0;
}

/*
 * Fill `rows` (fl_blame_nrows() of them) and `t`; returns the rows used.
 * RAN: blame's tracepoints that ran since the reset (fl_probes_blame_ran()).
 * Frames are symbolised here, outside core-kernel text dropped (this
 * module's probes) and the tracing frames blame.h names; no address is
 * written out.  Process context, fl_mutex held.
 */
unsigned int fl_blame_fill(struct fl_blame_row *rows, struct fl_blame_total *t, u64 ran)
{
	struct fl_blame_site *copy;
	unsigned long flags;
	unsigned int n, i, j;
	char *sym;

	copy = kvmalloc_array(FL_BLAME_SITES, sizeof(*copy), GFP_KERNEL);
	sym = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	if (!copy || !sym) {
		kvfree(copy);
		kfree(sym);
		return 0;
	}
	raw_spin_lock_irqsave(&fl_blame_lock, flags);
	n = fl_blame_nsites;
	memcpy(copy, fl_blame_sites, n * sizeof(*copy));
	t->waits_blamed = fl_blame_tot.waits_blamed;
	memcpy(t->misc, fl_blame_tot.misc, sizeof(t->misc));
	t->wait_all = fl_blame_tot.wait_all;
	raw_spin_unlock_irqrestore(&fl_blame_lock, flags);
	t->sites = n;
	t->fb_seen = FL_BLAME_FB_NONE;
	t->kmod = ran | FL_BLAME_KMOD;
	if (fl_blame_by == FL_BLAME_BY_RWSEM)
		t->kmod |= FL_BLAME_KMOD_RWSEM;

	for (i = 0; i < n; i++) {
		struct fl_blame_row *r = &rows[i];
		const struct fl_blame_site *s = &copy[i];

		r->sysnr = s->sysnr;
		r->tid = s->st.tid;
		memcpy(r->comm, s->st.last_ns ? s->st.comm : s->comm, BL_COMM_LEN);
		fl_blame_row_add_site(r, &s->st);
		for (j = 0; j < s->nr_ips && r->nframes < FL_BLAME_FRAMES; j++) {
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

void fl_blame_exit(void)
{
	kvfree(fl_blame_sites);
	fl_blame_sites = NULL;
}
