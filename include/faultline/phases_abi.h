/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Fault-phase accounting shared by ebpf/phases.bpf.c, user/phases.c and the
 * unit tests (tests/unit/test_phases_acct.c), so the arithmetic that must keep
 * "sum of phases <= fault latency" is tested without a kernel.
 *
 * Phases nest (an allocation inside handle_mm_fault, zeroing inside the
 * allocation).  Each phase is pushed on a small per-task stack when it starts
 * and popped when it ends; a phase is charged its EXCLUSIVE time (its
 * duration minus the durations of the phases nested in it), so the charged
 * times of one fault never overlap and their sum cannot exceed the time from
 * the fault's entry to its end.  handle_mm_fault itself is the FL_PH_REST
 * frame: what it spent outside every nested phase.
 *
 * Plain C on fl_* types: compiles after vmlinux.h and in user space.
 */
#ifndef FAULTLINE_PHASES_ABI_H
#define FAULTLINE_PHASES_ABI_H

#include <faultline/abi.h>

#define PH_DEPTH	6	/* phase nesting: REST > ALLOC > ZERO > ... */
#define PH_CT_DEPTH	2	/* contention nesting: rwsem > its wait_lock */
#define PH_NR_RANGES	160	/* kernel function ranges used to name locks */
#define PH_STACK	10	/* frames read at contention_begin */
#define PH_CALLER_SCAN	3	/* real frames (after lock internals) examined */

/* Classes of a function range, beyond enum fl_lock_class. */
#define PH_RANGE_SKIP	255	/* lock implementation / tracing: not a caller */
/*
 * Or-ed into a class: the function takes the lock itself (in its own code or
 * an inlined helper), so it names the class only as the first real frame.
 * Reclaim's big functions (shrink_lruvec, shrink_node, evict_folios) are
 * otherwise two frames above locks that are not theirs (__remove_mapping's
 * xa_lock, the shrinkers' list_lru locks).
 */
#define PH_RANGE_DIRECT	0x40

struct ph_range {		/* one kernel function and what it names */
	struct fl_krange fn;
	fl_u32 cls;		/* enum fl_lock_class [| PH_RANGE_DIRECT], PH_RANGE_SKIP */
	fl_u32 pad;
};

/* Naming a lock from its contending stack, one frame at a time. */
struct ph_scan {
	fl_u64 caller;		/* first real frame (outside lock internals) */
	fl_u32 real;		/* real frames seen */
	fl_u32 pad;
};

/* Key of the "other" callers map: the first frame outside lock internals. */
struct ph_caller_key {
	fl_u64 ip;
};

struct ph_caller_val {
	fl_u64 count;
	fl_u64 wait_ns;
};

/* Internal counters (per CPU), reported as snapshot tags. */
enum ph_misc {
	PH_M_UNPAIRED = 0,	/* an end without its start, or a stale stack */
	PH_M_DEPTH,		/* phase or contention stack full: event dropped */
	PH_M_NOSTATE,		/* task storage could not be created */
	PH_M_CALLERS_FULL,	/* "other" callers map full */
	PH_M_ABANDONED,		/* fault restarted before it ended (SIGSEGV...) */
	PH_M_LOST,		/* a busy slot taken over: its task's switch not seen */
	PH_M_NR = 8,
};

struct ph_frame {
	fl_u64 start;
	fl_u64 child;		/* time of phases nested in this one */
	fl_u32 phase;
	fl_u32 pad;
};

struct ph_acct {
	fl_u64 fault_start;	/* 0 = no fault in flight */
	fl_u64 acc[FL_PH_NR];	/* exclusive time per phase, this fault */
	fl_u64 attributed;	/* their sum */
	fl_u32 seen;		/* 1 << phase: the phase occurred in this fault */
	fl_u32 depth;
	struct ph_frame stk[PH_DEPTH];
};

/*
 * The phase context of the task running on a CPU (ebpf/phases.bpf.c).  A
 * fault runs on one CPU unless its task is switched out mid-fault; the
 * sched_switch program then moves a busy slot into the task's storage and
 * the task takes it back at its next event, wherever it resumes.
 */
struct ph_slot {
	fl_u64 task;		/* task_struct address; compared, never dereferenced */
	struct ph_acct a;
	fl_u64 vma_lock;	/* lock address of the VMA being faulted (--locks) */
	fl_u32 reclaim;		/* in direct reclaim (nesting depth) */
	fl_u32 traced;		/* tgid filter, asked once per claim: 0 not yet, 1 yes, 2 no */
	fl_u32 stored;		/* the task has storage (for a switch to move the slot to) */
	fl_u32 pad;
};

/* Per-CPU map value: statistics (read by user space) and the slot. */
struct ph_cpu {
	struct fl_phase_stats ps;
	fl_u64 misc[PH_M_NR];
	struct ph_slot s;
};

#ifndef PH_HIST_ADD
#define PH_HIST_ADD fl_hist_add
#endif

/*
 * Hide a value from the compiler so a bounds check on it is kept and is
 * done on the register that is then used as an index (the BPF verifier
 * needs to see the check).  A no-op in user space.
 */
#ifndef PH_BARRIER
#define PH_BARRIER(x) ((void)0)
#endif

#ifndef PH_COUNT
#define PH_COUNT(misc, id) do { fl_u64 *m__ = (misc); if (m__) m__[id]++; } while (0)
#endif

_Static_assert(FL_PH_NR == FL_PH_COPY + 1 && FL_PH_NR_V1 == FL_PH_PCACHE,
	       "ph_reset / ph_fault_end name the file phases one by one");

FL_INLINE void ph_reset(struct ph_acct *a)
{
	fl_u32 i;

	/*
	 * Only a file fault sets the file phases (acc[p] != 0 implies seen
	 * bit p): an anonymous fault does not pay for clearing them.
	 */
	if (a->seen & FL_PH_FILE_MASK) {	/* unrolled: 6.1's verifier refuses the loop */
		a->acc[FL_PH_PCACHE] = 0;
		a->acc[FL_PH_READ] = 0;
		a->acc[FL_PH_AROUND] = 0;
		a->acc[FL_PH_COPY] = 0;
	}
	a->fault_start = 0;
	a->seen = 0;
	a->depth = 0;
	a->attributed = 0;
	for (i = 0; i < FL_PH_NR_V1; i++)
		a->acc[i] = 0;
}

/* A fault begins (exceptions:page_fault_user / _kernel). */
FL_INLINE void ph_fault_start(struct ph_acct *a, fl_u64 now, fl_u64 *misc)
{
	if (a->fault_start)
		PH_COUNT(misc, PH_M_ABANDONED);
	ph_reset(a);
	a->fault_start = now;
}

FL_INLINE int ph_in_fault(const struct ph_acct *a)
{
	return a->fault_start != 0;
}

/* Phase `phase` starts now.  Returns 0, or -1 when the stack is full. */
FL_INLINE int ph_push(struct ph_acct *a, fl_u32 phase, fl_u64 now, fl_u64 *misc)
{
	fl_u64 d = a->depth;

	PH_BARRIER(d);
	if (d >= PH_DEPTH) {
		PH_COUNT(misc, PH_M_DEPTH);
		return -1;
	}
	a->stk[d].start = now;
	a->stk[d].child = 0;
	a->stk[d].phase = phase;
	a->depth = d + 1;
	return 0;
}

FL_INLINE fl_u32 ph_top(const struct ph_acct *a)
{
	fl_u64 d = a->depth;

	PH_BARRIER(d);
	if (d == 0 || d > PH_DEPTH)
		return FL_PH_NR;
	return a->stk[d - 1].phase;
}

/*
 * Phase `phase` ends now.  Its exclusive time is charged to `charge_to`
 * (normally the same phase; FL_PH_LOCKLESS for a lockless handle_mm_fault
 * attempt that had to be retried).  Frames above it whose end was never seen
 * are closed uncharged (counted).  Returns 0, or -1 if no such frame was open.
 */
FL_INLINE int ph_pop(struct ph_acct *a, fl_u32 phase, fl_u32 charge_to, fl_u64 now,
		     fl_u64 *misc)
{
	fl_u64 dur, excl, d = a->depth, found = PH_DEPTH, k = d - 1;

	PH_BARRIER(k);
	if (k < PH_DEPTH && a->stk[k].phase == phase) {
		found = k;	/* the innermost frame: the common case */
	} else {
		for (k = PH_DEPTH; k-- > 0;) {	/* innermost open frame first */
			if (k >= d)
				continue;
			if (a->stk[k].phase == phase) {
				found = k;
				break;
			}
		}
	}
	PH_BARRIER(found);
	if (found >= PH_DEPTH) {
		PH_COUNT(misc, PH_M_UNPAIRED);
		return -1;
	}
	if (found + 1 < d && found + 1 < PH_DEPTH) {
		/*
		 * Frames above it lost their exit: they end now, uncharged (their
		 * time stays unattributed), and their span is excluded from this
		 * frame so time already charged to their children is not charged
		 * twice.
		 */
		PH_COUNT(misc, PH_M_UNPAIRED);
		if (now > a->stk[found + 1].start)
			a->stk[found].child += now - a->stk[found + 1].start;
	}
	dur = now > a->stk[found].start ? now - a->stk[found].start : 0;
	excl = dur > a->stk[found].child ? dur - a->stk[found].child : 0;
	if (charge_to < FL_PH_NR) {
		a->acc[charge_to] += excl;
		a->attributed += excl;
		a->seen |= 1u << charge_to;
	}
	if (found > 0)
		a->stk[found - 1].child += dur;
	a->depth = (fl_u32)found;
	return 0;
}

/*
 * The fault ended now.  Adds it to `ps` and ends the accounting (the next
 * ph_fault_start() clears it).  Returns the latency, or 0 if no fault was
 * in flight.
 */
FL_INLINE fl_u64 ph_fault_end(struct ph_acct *a, struct fl_phase_stats *ps, fl_u64 now)
{
	fl_u64 lat, sum = a->attributed;
	fl_u32 p;

	if (!a->fault_start)
		return 0;
	lat = now > a->fault_start ? now - a->fault_start : 0;
	ps->faults++;
	ps->lat_sum += lat;
	if (sum > lat)
		ps->overrun++;
	else
		ps->unattributed_sum += lat - sum;
	for (p = 0; p < FL_PH_NR_V1; p++)
		if (a->seen & (1u << p))
			PH_HIST_ADD(&ps->hist[p], a->acc[p]);
	/*
	 * File faults only.  Written out: clang left a loop here that 6.1's
	 * verifier refuses ("back-edge").
	 */
	if (a->seen & FL_PH_FILE_MASK) {
		if (a->seen & (1u << FL_PH_PCACHE))
			PH_HIST_ADD(&ps->hist[FL_PH_PCACHE], a->acc[FL_PH_PCACHE]);
		if (a->seen & (1u << FL_PH_READ))
			PH_HIST_ADD(&ps->hist[FL_PH_READ], a->acc[FL_PH_READ]);
		if (a->seen & (1u << FL_PH_AROUND))
			PH_HIST_ADD(&ps->hist[FL_PH_AROUND], a->acc[FL_PH_AROUND]);
		if (a->seen & (1u << FL_PH_COPY))
			PH_HIST_ADD(&ps->hist[FL_PH_COPY], a->acc[FL_PH_COPY]);
	}
	a->fault_start = 0;
	a->depth = 0;
	return lat ? lat : 1;
}

/*
 * Class of a kernel text address: binary search over `nr` sorted,
 * non-overlapping ranges.  Returns FL_LK_NR when no range contains ip.
 */
_Static_assert(PH_NR_RANGES < 256, "ph_range_class searches 8 levels deep");

FL_INLINE fl_u32 ph_range_class(const volatile struct ph_range *r, fl_u32 nr, fl_u64 ip)
{
	fl_u32 lo = 0, hi = nr, i, mid;

	if (hi > PH_NR_RANGES)
		hi = PH_NR_RANGES;
	for (i = 0; i < 8; i++) {	/* 2^8 > PH_NR_RANGES (checked below) */
		if (lo >= hi)
			break;
		mid = (lo + hi) / 2;
		if (mid >= PH_NR_RANGES)
			break;
		if (ip < r[mid].fn.start)
			hi = mid;
		else if (ip >= r[mid].fn.end)
			lo = mid + 1;
		else
			return r[mid].cls;
	}
	return FL_LK_NR;
}

/*
 * One frame of the contending stack, innermost first, with the class of its
 * function (ph_range_class).  Returns the lock class when this frame names
 * it, PH_SCAN_MORE to look at the next frame, PH_SCAN_STOP when the frames
 * worth looking at are used up.  Lock-implementation frames are skipped; the
 * first real frame is the caller; the first of PH_CALLER_SCAN real frames in
 * a classified function names the class (a PH_RANGE_DIRECT function only as
 * the first).
 */
#define PH_SCAN_MORE	FL_LK_NR
#define PH_SCAN_STOP	(FL_LK_NR + 1)

FL_INLINE fl_u32 ph_scan_frame(struct ph_scan *s, fl_u32 cls, fl_u64 ip)
{
	if (cls == PH_RANGE_SKIP)
		return PH_SCAN_MORE;
	if (!s->caller)
		s->caller = ip;
	if (cls != FL_LK_NR && (cls & PH_RANGE_DIRECT))
		cls = s->real ? FL_LK_NR : cls & ~PH_RANGE_DIRECT;
	if (cls < FL_LK_NR)
		return cls;
	if (++s->real >= PH_CALLER_SCAN)
		return PH_SCAN_STOP;
	return PH_SCAN_MORE;
}

#endif /* FAULTLINE_PHASES_ABI_H */
