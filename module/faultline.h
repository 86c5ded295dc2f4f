/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faultline.ko internals shared by main.c, probes.c, stats.c and iface.c.
 * The data model (struct fl_cpu_stats, the snapshot layout), the fault
 * state machine and the mmap_lock one come from include/faultline/ so that
 * the module counts exactly like the BPF backend.
 */
#ifndef FAULTLINE_MODULE_H
#define FAULTLINE_MODULE_H

#include <linux/types.h>
#include <linux/cache.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/bitops.h>
#include <linux/threads.h>
#include <linux/sched.h>
#include <linux/percpu.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#ifdef CONFIG_X86_TSC
#include <asm/msr.h>
#endif

#include <faultline/abi.h>
/* no per-VMA locks (before 6.4): no abort / retry reasons to read */
#define FL_LL_WHY_BUILT	IS_ENABLED(CONFIG_PER_VMA_LOCK)
#include <faultline/classify.h>

/* The mmap_lock state machine records with fl_hist_put() (below). */
static __always_inline void fl_hist_put(struct fl_hist *h, u64 v);
#define FL_HIST_RECORD	fl_hist_put
#include <faultline/mmaplock.h>
#include <faultline/blame.h>

#define FL_HOOK_ALL	((1u << FL_HOOK_NR) - 1)

/*
 * Per-task state, one slot per pid & FL_SLOT_MASK (see stats.c).  Only the
 * owning task writes its slot; on a pid collision the owner is asked to give
 * it up (FL_SLOT_WANTED) and does so at its own next event.
 */
struct fl_slot {
	struct task_struct *owner;	/* | FL_SLOT_WANTED; compared, never dereferenced */
	struct fl_fault_state fs;
	struct fl_mmap_state ms;	/* include/faultline/mmaplock.h */
	u32 bl_wait;			/* blame.c: the fault's mmap_lock wait in flight */
	u32 pad;
} ____cacheline_aligned;

#define FL_SLOT_BITS	14
#define FL_SLOT_NR	(1u << FL_SLOT_BITS)
#define FL_SLOT_MASK	(FL_SLOT_NR - 1)
#define FL_SLOT_WANTED	1UL		/* owner's low bit: another task waits for it */

/* main.c: the state the control file and the parameters change. */
extern bool fl_enabled;
extern unsigned int fl_tgid;		/* global (init namespace) tgid, 0 = all; see filter.c */
extern struct mutex fl_mutex;		/* serialises control, fold, reset */
int fl_parse_uint(const char *s, unsigned int base, unsigned int *v);

/* stats.c */
extern struct fl_cpu_stats __percpu *fl_bank[2];
extern unsigned int fl_bank_idx;
extern struct fl_slot *fl_slots;
int fl_stats_init(void);
void fl_stats_exit(void);
void fl_stats_fold(void);			/* fl_mutex held */
void fl_stats_reset(void);			/* fl_mutex held */
const struct fl_cpu_stats *fl_stats_acc(unsigned int cpu);	/* after fold */
struct fl_slot *fl_slot_take(struct fl_slot *s, struct task_struct *old,
			     struct fl_cpu_stats *cs);
void fl_slot_miss(struct fl_slot *s);
void fl_slots_clear(void);			/* nothing armed */
void fl_slot_release(void);
extern u64 fl_t_start_real;	/* CLOCK_REALTIME of the last reset */
extern u64 fl_t_start_mono;	/* ktime_get_mono_fast_ns() of the last reset */

/* probes.c */
extern struct fl_kvals fl_kv;
extern bool fl_mmap_memcg_proto;
extern bool fl_mmap_lock_on;		/* `mmap_lock on`: arm them where held off */
extern bool fl_time_hmf;		/* `hmf on`: time each handle_mm_fault call */
int fl_probes_register(unsigned int mask, unsigned int maxactive, bool infer);
void fl_probes_unregister(void);
void fl_probes_arm(void);		/* fl_mutex held, fl_enabled false */
void fl_probes_disarm(void);		/* fl_mutex held, fl_enabled false */
bool fl_probes_armed(void);
void fl_probes_mmap_lock(bool on);	/* fl_mutex held */
u64 fl_probes_live(void);
u64 fl_probes_absent(void);
u64 fl_probes_nmissed(void);	/* kretprobe misses, all probes, since load */
void fl_probes_show(struct seq_file *m);
extern u64 fl_nmissed_base;	/* fl_probes_nmissed() at the last reset */

/* This CPU's statistics in the current bank; preemption disabled. */
static __always_inline struct fl_cpu_stats *fl_stats_this_cpu(void)
{
	return this_cpu_ptr(fl_bank[READ_ONCE(fl_bank_idx) & 1]);
}

static __always_inline struct fl_slot *fl_slot_of_current(void)
{
	return &fl_slots[current->pid & FL_SLOT_MASK];
}

/*
 * The calling task's slot, or NULL if it holds none (or was asked for it:
 * then it gives it up here, fl_slot_miss()).  Preemption disabled.
 */
static __always_inline struct fl_slot *fl_slot_get(void)
{
	struct fl_slot *s = fl_slot_of_current();

	if (likely(READ_ONCE(s->owner) == current))
		return s;
	fl_slot_miss(s);
	return NULL;
}

/* The calling task's slot, claimed if free; NULL if another task holds it. */
static __always_inline struct fl_slot *fl_slot_claim(struct fl_cpu_stats *cs)
{
	struct fl_slot *s = fl_slot_of_current();
	struct task_struct *old = READ_ONCE(s->owner);

	if (likely(old == current))
		return s;
	return fl_slot_take(s, old, cs);
}

/* clock.c: the handlers' timestamps (TSC ticks or ns) and their scaling */
extern bool fl_clock_tsc;
extern u32 fl_tsc_mult, fl_tsc_shift;
void fl_clock_select(void);		/* fl_mutex held, nothing armed */
void fl_clock_show(struct seq_file *m);

static __always_inline u64 fl_now(void)
{
#ifdef CONFIG_X86_TSC
	if (READ_ONCE(fl_clock_tsc))
		return rdtsc_ordered();
#endif
	return ktime_get_mono_fast_ns();	/* = bpf_ktime_get_ns() */
}

/* A difference of two fl_now() values, in ns. */
static __always_inline u64 fl_ticks_ns(u64 d)
{
#ifdef CONFIG_X86_TSC
	if (READ_ONCE(fl_clock_tsc))
		return mul_u64_u32_shr(d, fl_tsc_mult, fl_tsc_shift);
#endif
	return d;
}

/*
 * hist.h's bucket with the msb from one bsr (fls64) instead of the shift
 * cascade the BPF side needs; the same bucket for every value (checked at
 * load by fl_hist_selftest()).  fl_hist_put() is fl_hist_add() with it.
 */
static __always_inline u32 fl_hist_bucket_fast(u64 v)
{
	u32 shift;

	if (v > FL_HIST_VMAX)
		v = FL_HIST_VMAX;
	shift = fls64(v | FL_HIST_SUB) - 1 - FL_HIST_SUB_BITS;
	return (shift << FL_HIST_SUB_BITS) + (u32)(v >> shift);
}

/* V: a duration in fl_now() ticks (every histogram of the module is one). */
static __always_inline void fl_hist_put(struct fl_hist *h, u64 v)
{
	v = fl_ticks_ns(v);
	fl_hist_add_at(h, fl_hist_bucket_fast(v), v);
}

/* filter.c: the traced processes (fl_tgid and its descendants) */
extern unsigned long *fl_tgid_map;
int fl_filter_init(void);
void fl_filter_exit(void);
void fl_filter_set(unsigned int nr);
void fl_filter_fork(struct task_struct *parent, struct task_struct *child);

static __always_inline bool fl_filter_match(unsigned int tgid)
{
	return !READ_ONCE(fl_tgid) ||
	       (tgid < PID_MAX_LIMIT && test_bit(tgid, fl_tgid_map));
}

/* blame.c: holder attribution (`blame on`), Documentation/blame.rst */
extern bool fl_bl_armed;
void fl_bl_init(void);
void fl_bl_exit(void);
int fl_bl_set(bool on);			/* fl_mutex held; next arming; -ENODEV: hooks absent */
bool fl_bl_wanted(void);
enum { FL_BL_BY_NONE, FL_BL_BY_TP, FL_BL_BY_RWSEM };	/* how write holds are seen */
void fl_bl_arm(int how);		/* fl_mutex held, nothing armed */
bool fl_bl_disarm(void);		/* true: the caller synchronises the tracepoints */
void fl_bl_reset(void);			/* fl_mutex held */
unsigned int fl_bl_nrows(void);
unsigned int fl_bl_fill(struct fl_blame_row *rows, struct fl_blame_total *t);
void fl_bl_start(struct mm_struct *mm, bool write, u64 now);
void fl_bl_acquired(struct mm_struct *mm, bool write, bool success, u64 now);
void fl_bl_released(struct mm_struct *mm, bool write, u64 now);
void fl_bl_task_exit(void);
void fl_bl_contend_begin(struct fl_slot *s, struct mm_struct *mm, unsigned int lcb);
void fl_bl_contend_end(struct fl_slot *s, u64 d);
bool fl_probes_blame_ok(void);		/* probes.c: the hooks blame stands on exist */

/* Count the current task?  Enabled, a user task with an mm, traced. */
static __always_inline bool fl_want(void)
{
	if (!READ_ONCE(fl_enabled))
		return false;
	if ((current->flags & PF_KTHREAD) || !current->mm)
		return false;
	return fl_filter_match(current->tgid);
}

/* iface.c */
int fl_iface_init(void);
void fl_iface_exit(void);
int fl_set_tgid(unsigned int vnr);	/* tgid in the caller's pid namespace */
ssize_t fl_control_write_user(struct file *file, const char __user *ubuf, size_t count);

/* session.c */
extern const struct file_operations fl_session_fops;
bool fl_session_refuses(struct file *file);	/* fl_mutex held */
void fl_session_show(struct seq_file *m);	/* takes fl_mutex */
void fl_enable(void);			/* fl_mutex held: arm, then count */
void fl_disable(void);			/* fl_mutex held: stop counting, disarm */

#endif /* FAULTLINE_MODULE_H */
