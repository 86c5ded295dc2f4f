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
 * Two live tasks whose pids collide modulo FL_SLOT_NR take the slot from
 * each other; an in-flight state lost that way is counted in FL_C_MISSED.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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

/* fl_slot_claim()'s slow path: take slot S over from OLD (or from nobody). */
struct fl_slot *fl_slot_take(struct fl_slot *s, struct task_struct *old,
			     struct fl_cpu_stats *cs)
{
	if (cmpxchg(&s->owner, old, current) != old) {
		cs->cnt[FL_C_MISSED]++;		/* raced with a colliding task */
		return NULL;
	}
	if (old && fl_slot_busy(s))
		cs->cnt[FL_C_MISSED]++;		/* took over a live task's state */
	s->fs.start_ns = 0;
	s->fs.flags = 0;
	fl_mmap_reset(&s->ms);
	return s;
}

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

	if (READ_ONCE(s->owner) == current)
		cmpxchg(&s->owner, current, NULL);
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
