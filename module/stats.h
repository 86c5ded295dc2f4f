/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.c: the per-CPU statistics banks and the per-task slots, and the
 * handlers' fast paths to them.
 */
#ifndef FAULTLINE_STATS_H
#define FAULTLINE_STATS_H

#include "faultline.h"

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
void fl_slot_release_dead(struct task_struct *p);
extern u64 fl_t_start_real;	/* CLOCK_REALTIME of the last reset */
extern u64 fl_t_start_mono;	/* ktime_get_mono_fast_ns() of the last reset */

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

#endif /* FAULTLINE_STATS_H */
