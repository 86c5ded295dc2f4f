// SPDX-License-Identifier: GPL-2.0
/*
 * The process filter: `tgid N` traces process N and every process it forks
 * afterwards (like the BPF backend's follow-fork), so `faultline record --
 * CMD` covers CMD's children.  A bitmap indexed by tgid (PID_MAX_LIMIT bits,
 * 512 KiB) makes the per-event test one bit lookup; sched_process_fork adds
 * children of traced processes.  The set only grows until the next `tgid`
 * command (a traced tgid reused after its process exited stays traced).
 *
 * fl_filter_lock serialises the two writers: a `tgid` command
 * (fl_filter_set) and a fork (fl_filter_fork).  Without it a fork that
 * found its parent in the old set could set its child's bit after the set
 * was cleared, putting a child of the old filter into the new one.  It is a
 * raw spinlock because the fork side is a tracepoint probe (preemption off,
 * must not sleep, also on PREEMPT_RT).  The per-event test,
 * fl_filter_match(), reads the bitmap without it: while a set runs, an
 * event sees the old filter or a subset of it, then the new one.
 *
 * fl_enabled, whether anything is counted, lives here too: fl_want()
 * (faultline.h) tests it with the filter for every handler, probes.c's
 * and blame.c's; fl_enable() / fl_disable() (probes.c) set it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/threads.h>
#include <linux/vmalloc.h>

#include "faultline.h"

bool fl_enabled;		/* counting: the hooks are armed */
unsigned int fl_tgid;		/* global (init namespace) tgid, 0 = all */
unsigned long *fl_tgid_map;
static DEFINE_RAW_SPINLOCK(fl_filter_lock);

/*
 * fl_mutex held (or init).  NR: global tgid, 0 = everything.  Clearing the
 * 512 KiB bitmap with the lock held keeps forks waiting for some tens of
 * microseconds, once per recording.
 */
void fl_filter_set(unsigned int nr)
{
	raw_spin_lock(&fl_filter_lock);
	/* Meanwhile events see the old filter or a subset of it, never more. */
	bitmap_zero(fl_tgid_map, PID_MAX_LIMIT);
	if (nr)
		__set_bit(nr, fl_tgid_map);
	WRITE_ONCE(fl_tgid, nr);
	raw_spin_unlock(&fl_filter_lock);
}

void fl_filter_fork(struct task_struct *parent, struct task_struct *child)
{
	unsigned int ptgid = parent->tgid, ctgid = child->tgid;

	/* Unlocked fast path: tracing everything, or a new thread. */
	if (!READ_ONCE(fl_tgid) || ptgid == ctgid || ctgid >= PID_MAX_LIMIT ||
	    ptgid >= PID_MAX_LIMIT)
		return;
	raw_spin_lock(&fl_filter_lock);
	if (fl_tgid && test_bit(ptgid, fl_tgid_map))
		__set_bit(ctgid, fl_tgid_map);
	raw_spin_unlock(&fl_filter_lock);
}

/* Resolve VNR (caller's pid namespace) to a global tgid; 0 clears the filter. */
int fl_set_tgid(unsigned int vnr)
{
	struct task_struct *t;
	unsigned int nr = 0;

	if (vnr) {
		rcu_read_lock();
		t = pid_task(find_vpid(vnr), PIDTYPE_TGID);
		if (t)
			nr = task_tgid_nr(t);
		rcu_read_unlock();
		if (!nr)
			return -ESRCH;
	}
	fl_filter_set(nr);
	return 0;
}

int fl_filter_init(void)
{
	fl_tgid_map = vzalloc(BITS_TO_LONGS(PID_MAX_LIMIT) * sizeof(long));
	return fl_tgid_map ? 0 : -ENOMEM;
}

void fl_filter_exit(void)
{
	vfree(fl_tgid_map);
	fl_tgid_map = NULL;
}
