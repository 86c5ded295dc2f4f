// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU statistics and per-task fault state.
 *
 * Statistics: two per-CPU banks of struct fl_cpu_stats.  Writers (probe
 * handlers, always in task context with preemption disabled) load the
 * global bank index once and update this CPU's copy in that bank: no atomic,
 * no lock, no retry.  A reader (snapshot, summary, reset; serialised by
 * fl_mutex) flips the index, waits for an RCU grace period -- every
 * preemption-disabled region that could still be writing the old bank has
 * then finished -- and folds the now quiescent old bank into a private
 * accumulator, zeroing it.  Each write section therefore lands wholly in one
 * fold: reads are consistent per CPU (no torn histogram), writers never
 * block and readers never spin.
 *
 * Per-task fault state: a fault can sleep and migrate between its
 * page_fault_user and its handle_mm_fault return, so it cannot live per CPU.
 * A table of FL_SLOT_NR cache-line sized slots indexed by pid & FL_SLOT_MASK
 * and tagged with the owning task holds it; no allocation or hash insert on
 * the fault path.  A task claims its slot at the first event that starts
 * something (fault, lock wait, hold, contention) and releases it at exit.
 *
 * Invariant: a slot's fields are written only by the task in ->owner (or,
 * under fl_mutex with nothing armed, by fl_slots_clear()), and ownership
 * passes only through NULL, set by the owner itself.  A task's handlers
 * never overlap each other, so the owner cannot be writing when it gives
 * the slot up, and a new owner, whose cmpxchg from NULL orders after the
 * old owner's cmpxchg to NULL, starts from fields nobody else writes any
 * more.  Two live tasks whose pids collide modulo FL_SLOT_NR therefore do
 * not take the slot from each other: the newcomer sets FL_SLOT_WANTED in
 * ->owner and goes without this event; the owner sees its tagged pointer at
 * its next event, gives the slot up there, from its own context, and goes
 * without that one; the newcomer claims it at its following event (an
 * owner that has no event keeps it until it has one, or exits).  Each
 * dropped event, and a state in flight dropped with the slot, counts in
 * FL_C_MISSED.  (Taking the slot over at once, as this did before, zeroed
 * fields that the owner could still be writing on another CPU between its
 * ownership test and its writes.)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include "faultline.h"

struct fl_cpu_stats __percpu *fl_bank[2];
unsigned int fl_bank_idx;
static struct fl_cpu_stats *fl_acc;	/* nr_cpu_ids entries, index = CPU id */
struct fl_slot *fl_slots;

u64 fl_t_start_real;
u64 fl_t_start_mono;

void fl_stats_fold(void)
{
	unsigned int old = READ_ONCE(fl_bank_idx) & 1;
	int cpu;

	lockdep_assert_held(&fl_mutex);
	WRITE_ONCE(fl_bank_idx, old ^ 1);
	/* Writers run with preemption disabled: an RCU read-side section. */
	synchronize_rcu();
	for_each_possible_cpu(cpu) {
		struct fl_cpu_stats *b = per_cpu_ptr(fl_bank[old], cpu);

		fl_cpu_stats_add(&fl_acc[cpu], b);
		memset(b, 0, sizeof(*b));
		cond_resched();
	}
}

void fl_stats_reset(void)
{
	lockdep_assert_held(&fl_mutex);
	fl_stats_fold();
	memset(fl_acc, 0, nr_cpu_ids * sizeof(*fl_acc));
	fl_t_start_real = ktime_get_real_ns();
	fl_t_start_mono = ktime_get_mono_fast_ns();
}

const struct fl_cpu_stats *fl_stats_acc(unsigned int cpu)
{
	return &fl_acc[cpu];
}

static bool fl_slot_busy(const struct fl_slot *s)
{
	return s->fs.start_ns || fl_mmap_busy(&s->ms);
}

static __always_inline struct task_struct *fl_slot_tagged(struct task_struct *t)
{
	return (struct task_struct *)((unsigned long)t | FL_SLOT_WANTED);
}

/* The owner, asked for S, gives it up (between its own events). */
static void fl_slot_yield(struct fl_slot *s, struct fl_cpu_stats *cs)
{
	if (fl_slot_busy(s))
		cs->cnt[FL_C_MISSED]++;		/* a state in flight goes with it */
	/* Only the owner changes a tagged owner: cannot fail, orders our writes first. */
	cmpxchg(&s->owner, fl_slot_tagged(current), NULL);
}
NOKPROBE_SYMBOL(fl_slot_yield);

/* fl_slot_claim()'s slow path: S is free, asked of us, or another task's. */
struct fl_slot *fl_slot_take(struct fl_slot *s, struct task_struct *old,
			     struct fl_cpu_stats *cs)
{
	if (!old) {
		if (cmpxchg(&s->owner, NULL, current) != NULL) {
			cs->cnt[FL_C_MISSED]++;	/* a colliding task claimed it first */
			return NULL;
		}
		s->fs.start_ns = 0;
		s->fs.flags = 0;
		fl_mmap_reset(&s->ms);
		return s;
	}
	if (old == fl_slot_tagged(current))
		fl_slot_yield(s, cs);
	else if (!((unsigned long)old & FL_SLOT_WANTED))
		cmpxchg(&s->owner, old, fl_slot_tagged(old));	/* ask the owner */
	cs->cnt[FL_C_MISSED]++;			/* this event goes unrecorded */
	return NULL;
}
NOKPROBE_SYMBOL(fl_slot_take);

/* fl_slot_get() found S not plainly ours: give it up if we were asked for it. */
void fl_slot_miss(struct fl_slot *s)
{
	if (READ_ONCE(s->owner) == fl_slot_tagged(current))
		fl_slot_yield(s, fl_stats_this_cpu());
}
NOKPROBE_SYMBOL(fl_slot_miss);

/*
 * Forget every task's state: at arming, when nothing can be writing a slot
 * (a kretprobe return left from before only reaches its slot after the
 * generation test, which it fails).  Tasks that exited while nothing was
 * armed kept their slots; a new task_struct at the same address would
 * otherwise inherit one.
 */
void fl_slots_clear(void)
{
	memset(fl_slots, 0, array_size(FL_SLOT_NR, sizeof(*fl_slots)));
}

/* Task exit: give the slot up so a later task with a colliding pid finds it free. */
void fl_slot_release(void)
{
	struct fl_slot *s = &fl_slots[current->pid & FL_SLOT_MASK];
	struct task_struct *o = READ_ONCE(s->owner);

	if (o == current || o == fl_slot_tagged(current))
		cmpxchg(&s->owner, o, NULL);
}
NOKPROBE_SYMBOL(fl_slot_release);

/*
 * P is being freed (sched_process_free, an RCU callback after its last
 * schedule): it runs no handler any more, so its slot, if it still holds
 * one, is released for it.  On 7.3 (not 6.12) sched_process_exit fires before
 * exit_mm(), whose mmap_lock events claim the slot again after
 * fl_slot_release(); without this a colliding task would wait for the dead
 * owner to yield forever.
 */
void fl_slot_release_dead(struct task_struct *p)
{
	struct fl_slot *s = &fl_slots[p->pid & FL_SLOT_MASK];
	struct task_struct *o = READ_ONCE(s->owner);

	if (o == p || o == fl_slot_tagged(p))
		cmpxchg(&s->owner, o, NULL);
}

/* fl_hist_put() must bucket exactly like hist.h's fl_hist_add(). */
static int fl_hist_selftest(void)
{
	unsigned int k;
	int d;

	for (k = 0; k < 64; k++) {
		for (d = -1; d <= 1; d++) {
			u64 v = (1ULL << k) + d;

			if (fl_hist_bucket_fast(v) != fl_hist_bucket(v)) {
				pr_err("histogram bucket self-test failed at %llu\n", v);
				return -EINVAL;
			}
		}
	}
	if (fl_hist_bucket_fast(0) != fl_hist_bucket(0) ||
	    fl_hist_bucket_fast(U64_MAX) != fl_hist_bucket(U64_MAX))
		return -EINVAL;
	return 0;
}

int fl_stats_init(void)
{
	if (fl_hist_selftest())
		return -EINVAL;
	fl_bank[0] = alloc_percpu(struct fl_cpu_stats);
	fl_bank[1] = alloc_percpu(struct fl_cpu_stats);
	fl_acc = vzalloc(array_size(nr_cpu_ids, sizeof(*fl_acc)));
	fl_slots = vzalloc(array_size(FL_SLOT_NR, sizeof(*fl_slots)));
	if (!fl_bank[0] || !fl_bank[1] || !fl_acc || !fl_slots) {
		pr_err("out of memory for per-CPU statistics (%u CPUs)\n", nr_cpu_ids);
		fl_stats_exit();
		return -ENOMEM;
	}
	fl_t_start_real = ktime_get_real_ns();
	fl_t_start_mono = ktime_get_mono_fast_ns();
	return 0;
}

/* Only after every probe is unregistered and synchronised. */
void fl_stats_exit(void)
{
	vfree(fl_slots);
	vfree(fl_acc);
	free_percpu(fl_bank[1]);
	free_percpu(fl_bank[0]);
	fl_slots = NULL;
	fl_acc = NULL;
	fl_bank[0] = fl_bank[1] = NULL;
}
