/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Holder attribution ("who made the fault wait", `record --blame`): shared by
 * ebpf/blame.bpf.c, user/blame*.c and the unit tests.  Design:
 * Documentation/blame.rst.
 *
 * A write hold of mmap_lock is charged to its call site: the syscall the
 * holder is in (pt_regs orig_ax) and its kernel stack (a stack-map id).  A
 * fault's mmap_lock read wait (the time blocked: lock:contention_begin ->
 * end on the mm's mmap_lock, in the fault path) is charged to the site of
 * the writer that held -- or was queued for -- the mm's lock when the wait
 * began.  The hold's time is split by what
 * the holder did meanwhile (sched_switch): on CPU, runnable (preempted),
 * sleeping; direct reclaim is counted apart (it overlaps the three).
 * On per-VMA-lock kernels a user fault that falls back to mmap_lock (its
 * read trylock in lock_mm_and_find_vma fails) while a writer holds is
 * counted against that writer's site too (fallbacks).
 *
 * Plain C on fl_* types: compiles after vmlinux.h and in user space.
 */
#ifndef FAULTLINE_BLAME_H
#define FAULTLINE_BLAME_H

#include "abi.h"
#include "hist.h"

#define BL_STACK_DEPTH	32	/* frames kept per stack-map entry */
#define BL_SYS_NONE	0xffffffffu	/* sysnr of a kernel thread */
#define BL_COMM_LEN	16

/* What the holder's time went to while it held the lock for write. */
enum bl_state {
	BL_ST_ONCPU = 0,
	BL_ST_RUNNABLE,		/* switched out preempted (still TASK_RUNNING) */
	BL_ST_SLEEP,		/* switched out blocked */
	BL_ST_NR,
};

/* Internal counters (per CPU), reported in the blame.events tag. */
enum bl_misc {
	BL_M_SITES_FULL = 0,	/* a call site found no room in the sites map */
	BL_M_HOLDERS_FULL,	/* a write hold found no room in the holders map */
	BL_M_STACK_FAIL,	/* bpf_get_stackid failed (site keeps stack id -1) */
	BL_M_NOSTATE,		/* task storage could not be created */
	BL_M_NESTED,		/* a write hold taken while holding another (dup_mmap) */
	BL_M_NOFAULT,		/* read waits outside a fault (not attributed) */
	BL_M_SELF,		/* a fault wait behind its own task's write hold */
	BL_M_NR = 8,
};

/* Fault-path functions (struct fl_krange) blame.bpf.c knows. */
#define BL_NR_RANGES	4

/*
 * A call site: the syscall, the kernel stack and the holder's comm (threads
 * of one program share it; a thread that names itself gets rows of its own).
 */
struct bl_site_key {
	fl_u32 sysnr;		/* orig_ax of the holder's syscall, BL_SYS_NONE */
	fl_u32 stackid;		/* stack-map id, (u32)-1 when none */
	char comm[BL_COMM_LEN];
};

/*
 * The split of one write hold, kept by the holder's task while it holds:
 * [seg_start, now) is in state `state`.
 */
struct bl_split {
	fl_u64 seg_start;
	fl_u64 ns[BL_ST_NR];
	fl_u64 reclaim_start;	/* outermost direct reclaim entered, 0 = none */
	fl_u64 reclaim_ns;
	fl_u32 state;
	fl_u32 reclaim_depth;
};

FL_INLINE void bl_split_begin(struct bl_split *s, fl_u64 now)
{
	fl_u32 i;

	for (i = 0; i < BL_ST_NR; i++)
		s->ns[i] = 0;
	s->seg_start = now;
	s->state = BL_ST_ONCPU;
	s->reclaim_start = 0;
	s->reclaim_ns = 0;
	s->reclaim_depth = 0;
}

/* The holder changes state (switched out, or in again) at now. */
FL_INLINE void bl_split_to(struct bl_split *s, fl_u32 state, fl_u64 now)
{
	fl_u64 st = s->state;

	if (st < BL_ST_NR && now > s->seg_start)
		s->ns[st] += now - s->seg_start;
	s->seg_start = now;
	s->state = state < BL_ST_NR ? state : BL_ST_SLEEP;
}

FL_INLINE void bl_reclaim_enter(struct bl_split *s, fl_u64 now)
{
	if (s->reclaim_depth++ == 0)
		s->reclaim_start = now;
}

FL_INLINE void bl_reclaim_exit(struct bl_split *s, fl_u64 now)
{
	if (!s->reclaim_depth)
		return;
	if (--s->reclaim_depth == 0 && s->reclaim_start) {
		if (now > s->reclaim_start)
			s->reclaim_ns += now - s->reclaim_start;
		s->reclaim_start = 0;
	}
}

/*
 * The hold ends at now: the last segment and any reclaim still open are
 * closed.  Hold started at the split's begin, so with every switch seen
 * ns[ONCPU] + ns[RUNNABLE] + ns[SLEEP] == the hold time exactly.
 */
FL_INLINE void bl_split_end(struct bl_split *s, fl_u64 now)
{
	bl_split_to(s, s->state, now);
	if (s->reclaim_depth) {
		s->reclaim_depth = 1;
		bl_reclaim_exit(s, now);
	}
}

/* Per call site, per CPU (the sites map's value). */
struct bl_site_stats {
	fl_u64 behind_wait;	/* fault waits begun while this writer was still queued */
	fl_u64 own_wait_ns;	/* the writers' own wait for the write lock */
	fl_u64 ns[BL_ST_NR];	/* hold time split */
	fl_u64 reclaim_ns;	/* hold time inside direct reclaim */
	fl_u64 last_ns;		/* when a hold of this site last ended here */
	fl_u64 fallbacks;	/* lockless-path fallbacks while it held (per-VMA locks) */
	fl_u32 tid;		/* that holder */
	fl_u32 pad;
	char comm[BL_COMM_LEN];
	struct fl_hist wait;	/* fault mmap_lock waits charged to this site */
	struct fl_hist hold;	/* its write holds */
};

/* Per CPU totals (one-element per-CPU array). */
struct bl_totals {
	fl_u64 waits_blamed;
	fl_u64 misc[BL_M_NR];
	fl_u64 fallbacks;	/* user faults falling back to mmap_lock while a writer held */
	fl_u64 fallbacks_free;	/* ... with no writer holding (another reason) */
	struct fl_hist wait_all;	/* every fault mmap_lock read wait of traced tasks */
};

/* ---- snapshot sections (FL_SEC_BLAME, FL_SEC_BLAME_TOTAL) -------------- */

#define FL_BLAME_FRAMES	8	/* symbolised frames per snapshot row */

enum fl_blame_kind {
	FL_BLAME_SYSCALL = 1,	/* the stack shows a syscall: sysnr is meaningful */
	FL_BLAME_KTHREAD = 2,	/* a kernel thread (khugepaged, ...) */
	FL_BLAME_OTHER = 3,	/* a user task outside a syscall (a fault's stack expansion) */
};

/* fl_blame_total.fb_seen */
enum fl_blame_fb {
	FL_BLAME_FB_UNKNOWN = 0,	/* recorded before fallbacks were counted */
	FL_BLAME_FB_ON = 1,		/* per-VMA locks and the fault entry found: counted */
	FL_BLAME_FB_NONE = 2,		/* unavailable; the blame.fallbacks tag says why */
};

/* One call site, all CPUs summed, symbolised at record time. */
struct fl_blame_row {
	fl_u32 sysnr;
	fl_u32 kind;		/* enum fl_blame_kind */
	fl_u32 tid;		/* the latest holder seen */
	fl_u32 nframes;
	char comm[BL_COMM_LEN];
	fl_u64 behind_wait;
	fl_u64 own_wait_ns;
	fl_u64 ns[BL_ST_NR];
	fl_u64 reclaim_ns;
	fl_u64 fallbacks;	/* lockless-path fallbacks while it held (was pad[0]) */
	fl_u64 pad[3];
	struct fl_hist wait;
	struct fl_hist hold;
	char frames[FL_BLAME_FRAMES][FL_SYM_LEN];	/* innermost first, tracing frames dropped */
};

struct fl_blame_total {
	fl_u64 waits_blamed;
	fl_u64 misc[BL_M_NR];
	fl_u64 sites;		/* call sites in the kernel's map (rows may be fewer) */
	/*
	 * Lockless-path fallbacks (was pad[0..2]; older snapshots read 0 with
	 * fb_seen 0): charged to a holder, with none holding, and whether the
	 * run could see them at all (FL_BLAME_FB_*).
	 */
	fl_u64 fallbacks;
	fl_u64 fallbacks_free;
	fl_u64 fb_seen;
	/*
	 * 0: the BPF skeleton's (was pad[0]).  FL_BLAME_KMOD: faultline.ko's
	 * hooks, with bit i set when its hook i ran (FL_BLAME_KMOD_HOOKS).
	 */
	fl_u64 kmod;
	fl_u64 pad[3];
	struct fl_hist wait_all;
};

#define FL_BLAME_KMOD	(1ull << 63)
/* module/blame.c's tracepoints, bit by bit */
#define FL_BLAME_KMOD_HOOKS { "sched_switch", "mm_vmscan_direct_reclaim_begin", \
			      "mm_vmscan_direct_reclaim_end", "mm_vmscan_memcg_reclaim_begin", \
			      "mm_vmscan_memcg_reclaim_end" }
#define FL_BLAME_KMOD_SWITCH	(1ull << 0)
#define FL_BLAME_KMOD_RECLAIM	(3ull << 1)	/* direct reclaim begin and end */
#define FL_BLAME_KMOD_RWSEM	(1ull << 62)	/* write holds from the rwsem write side */

/* The figures of a site or a row (the same fields) added to row r. */
#define FL_BLAME_ROW_ADD(r, v)						\
	do {								\
		fl_u32 i_;						\
		(r)->behind_wait += (v)->behind_wait;			\
		(r)->own_wait_ns += (v)->own_wait_ns;			\
		for (i_ = 0; i_ < BL_ST_NR; i_++)			\
			(r)->ns[i_] += (v)->ns[i_];			\
		(r)->reclaim_ns += (v)->reclaim_ns;			\
		(r)->fallbacks += (v)->fallbacks;			\
		fl_hist_merge(&(r)->wait, &(v)->wait);			\
		fl_hist_merge(&(r)->hold, &(v)->hold);			\
	} while (0)

FL_INLINE void fl_blame_row_add_site(struct fl_blame_row *r, const struct bl_site_stats *v)
{
	FL_BLAME_ROW_ADD(r, v);
}

/* Two rows of one site (the same syscall, comm and frames) made one. */
FL_INLINE void fl_blame_row_add_row(struct fl_blame_row *r, const struct fl_blame_row *o)
{
	FL_BLAME_ROW_ADD(r, o);
}

#ifndef __bpf__
#ifdef __KERNEL__
#include <linux/string.h>
#else
#include <string.h>
#endif
/*
 * Is this kernel frame of the tracing machinery or the lock's own slow path
 * (dropped from a site's frames)?  A writer's site is taken where it blocks
 * or where it acquires: without these frames both read the same.  Used by
 * user/blame_model.c and module/blame.c (kernel and libc both have strncmp).
 */
FL_INLINE int bl_frame_skipped(const char *sym)
{
	static const char *const pfx[] = {
		"bpf_", "__bpf_", "__traceiter_", "__mmap_lock_do_trace_", "trace_",
		"perf_", "__perf_", "rwsem_down_", "down_write", "down_read", "__down_",
		"rwsem_", "_raw_spin", "queued_", "native_queued", "__pv_queued",
		"schedule", "__schedule", "preempt_schedule", "stack_trace_save",
		"arch_stack_walk",
	};
	unsigned int i;

	for (i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (!strncmp(sym, pfx[i], strlen(pfx[i])))
			return 1;
	return 0;
}
#endif

#endif /* FAULTLINE_BLAME_H */
