/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The mmap_lock state machine, shared by the BPF programs and the module so
 * that both account mmap_lock wait, hold and contention the same way (and
 * the unit tests can feed it the sequences the kernel produces).
 *
 * Events, per task, on the task's own mm (the caller filters: traced task,
 * not a kernel thread, mm == current->mm, lock == &current->mm->mmap_lock;
 * the module also in_task(), see architecture.rst "Which tasks and
 * contexts count"):
 *   fl_mmap_ev_start     mmap_lock:mmap_lock_start_locking(write)
 *   fl_mmap_ev_acquired  mmap_lock:mmap_lock_acquire_returned(write, success)
 *   fl_mmap_ev_released  mmap_lock:mmap_lock_released(write)
 *   fl_mmap_ev_contend_begin / _end   lock:contention_begin / end
 *
 * What the kernel emits (include/linux/mmap_lock.h, 6.1 and 6.12):
 *   mmap_{read,write}_lock[_killable]  start(w), acquired(w, ok)
 *   mmap_read_trylock                  start(read), acquired(read, ok)
 *   mmap_{read,write}_unlock           released(w)
 *   mmap_write_downgrade               acquired(read, true)  (no start, no
 *                                      release of the write hold)
 *
 * Semantics (Documentation/architecture.rst, "mmap_lock accounting"):
 *   - wait = start -> acquired, success or not: a killable lock that a
 *     fatal signal interrupts did wait, so its wait is a sample; so is a
 *     read trylock's (it emits start too: a short wait).
 *   - every acquired(success=false) counts in FL_C_MMAP_TRYLOCK_FAIL (a
 *     failed trylock, or a killable lock interrupted).
 *   - hold = acquired(success) -> released.  acquired(read) while a write
 *     hold is open is mmap_write_downgrade: the write hold ends there (a
 *     FL_H_MMAP_HOLD_W sample) and a read hold begins.  Any other acquire
 *     while a hold is open (an event missed) restarts the hold; a release
 *     with no hold open is ignored.
 *   - contention_begin counts in FL_C_MMAP_CONTENDED for every traced task,
 *     whether or not its state could be had (ms == NULL); the contention
 *     time needs the state.
 *
 * Callers get the state with creation for the events that open something
 * (start, acquired with success, contention_begin) and without for the ones
 * that only close (acquired without success, released, contention_end); a
 * NULL state is allowed everywhere.  The timestamp is read once per event by
 * the caller (bpf_ktime_get_ns(); the module's fl_now(), ns or raw TSC
 * ticks that its FL_HIST_RECORD scales to ns, module/clock.c); never 0,
 * which means "not started").
 */
#ifndef FAULTLINE_MMAPLOCK_H
#define FAULTLINE_MMAPLOCK_H

#include "abi.h"

/*
 * How a sample is added to a histogram: hist.h's fl_hist_add(), or the
 * module's fl_hist_put() (same buckets, one bsr; module/faultline.h).
 */
#ifndef FL_HIST_RECORD
#define FL_HIST_RECORD	fl_hist_add
#endif

/* Per-task mmap_lock state (BPF task storage, or the module's per-task slot). */
struct fl_mmap_state {
	fl_u64 wait_start_ns;		/* start_locking; 0 = not waiting */
	fl_u64 hold_start_ns;		/* acquired(success); 0 = no hold open */
	fl_u64 contend_start_ns;	/* contention_begin; 0 = not contending */
	fl_u32 hold_write;		/* the hold open is a write hold */
	fl_u32 pad;
};

FL_INLINE int fl_mmap_busy(const struct fl_mmap_state *ms)
{
	return ms->wait_start_ns || ms->hold_start_ns || ms->contend_start_ns;
}

FL_INLINE void fl_mmap_reset(struct fl_mmap_state *ms)
{
	ms->wait_start_ns = 0;
	ms->hold_start_ns = 0;
	ms->contend_start_ns = 0;
	ms->hold_write = 0;
}

/* The wait's kind is the acquire's (the kernel pairs them): not stored. */
FL_INLINE void fl_mmap_ev_start(struct fl_mmap_state *ms, fl_u64 now)
{
	if (ms)
		ms->wait_start_ns = now;
}

/*
 * The transitions alone, for callers that keep their own statistics
 * (ebpf/blame.bpf.c charges a write hold to its call site); the
 * fl_mmap_ev_* functions below are these plus the per-CPU histograms.
 *   fl_mmap_tr_wait_end()    an acquire (success or not) ends the wait open:
 *                            1 with *wait set, 0 if none was open (trylock)
 *   fl_mmap_tr_hold_begin()  a successful acquire opens a hold: 1 with *hold
 *                            set when it ended a write hold (downgrade)
 *   fl_mmap_tr_released()    a release ends the hold open: 1 with *hold set
 */
FL_INLINE int fl_mmap_tr_wait_end(struct fl_mmap_state *ms, fl_u64 now, fl_u64 *wait)
{
	if (!ms->wait_start_ns)
		return 0;
	*wait = now - ms->wait_start_ns;
	ms->wait_start_ns = 0;
	return 1;
}

FL_INLINE int fl_mmap_tr_hold_begin(struct fl_mmap_state *ms, int write, fl_u64 now,
				    fl_u64 *hold)
{
	int ended = 0;

	/* mmap_write_downgrade: the write hold ends, a read hold begins. */
	if (ms->hold_start_ns && ms->hold_write && !write) {
		*hold = now - ms->hold_start_ns;
		ended = 1;
	}
	ms->hold_start_ns = now;
	ms->hold_write = write;
	return ended;
}

FL_INLINE int fl_mmap_tr_released(struct fl_mmap_state *ms, fl_u64 now, fl_u64 *hold)
{
	if (!ms->hold_start_ns)
		return 0;
	*hold = now - ms->hold_start_ns;
	ms->hold_start_ns = 0;
	return 1;
}

FL_INLINE void fl_mmap_ev_acquired(struct fl_mmap_state *ms, struct fl_cpu_stats *cs,
				   int write, int success, fl_u64 now)
{
	fl_u64 d;

	if (!success)
		cs->cnt[FL_C_MMAP_TRYLOCK_FAIL]++;
	if (!ms)
		return;
	if (fl_mmap_tr_wait_end(ms, now, &d))
		FL_HIST_RECORD(&cs->hist[write ? FL_H_MMAP_WAIT_W : FL_H_MMAP_WAIT_R], d);
	if (!success)
		return;
	if (fl_mmap_tr_hold_begin(ms, write, now, &d))
		FL_HIST_RECORD(&cs->hist[FL_H_MMAP_HOLD_W], d);
}

FL_INLINE void fl_mmap_ev_released(struct fl_mmap_state *ms, struct fl_cpu_stats *cs,
				   int write, fl_u64 now)
{
	fl_u64 d;

	if (!ms || !fl_mmap_tr_released(ms, now, &d))
		return;
	FL_HIST_RECORD(&cs->hist[write ? FL_H_MMAP_HOLD_W : FL_H_MMAP_HOLD_R], d);
}

/* lock:contention_begin / _end on the lock: the time actually blocked. */
FL_INLINE void fl_mmap_tr_contend_begin(struct fl_mmap_state *ms, fl_u64 now)
{
	ms->contend_start_ns = now;
}

FL_INLINE int fl_mmap_tr_contend_end(struct fl_mmap_state *ms, fl_u64 now, fl_u64 *wait)
{
	if (!ms->contend_start_ns)
		return 0;
	*wait = now - ms->contend_start_ns;
	ms->contend_start_ns = 0;
	return 1;
}

FL_INLINE void fl_mmap_ev_contend_begin(struct fl_mmap_state *ms, struct fl_cpu_stats *cs,
					fl_u64 now)
{
	cs->cnt[FL_C_MMAP_CONTENDED]++;
	if (ms)
		fl_mmap_tr_contend_begin(ms, now);
}

FL_INLINE void fl_mmap_ev_contend_end(struct fl_mmap_state *ms, struct fl_cpu_stats *cs,
				      fl_u64 now)
{
	fl_u64 d;

	if (!ms || !fl_mmap_tr_contend_end(ms, now, &d))
		return;
	FL_HIST_RECORD(&cs->hist[FL_H_MMAP_CONTEND], d);
}

#endif /* FAULTLINE_MMAPLOCK_H */
