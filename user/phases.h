/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Optional fault-phase and lock-class recording (`record --phases`,
 * `--locks`): a separate BPF skeleton (ebpf/phases.bpf.c) beside the main
 * backend.  See Documentation/phases.rst.
 *
 * Use from `record`:
 *
 *	struct fl_phases_opts po = { .tgids = &be.tgids_or_NULL,
 *				     .phases = true, .locks = true };
 *	struct fl_phases *ph = fl_phases_start(&po, err, sizeof(err));
 *	...workload runs...
 *	fl_phases_read(ph, &snap, err, sizeof(err));	// before writing snap
 *	fl_phases_stop(ph);
 *
 * fl_phases_start() fails (NULL) only for bad arguments or out of memory.  A
 * kernel that cannot run a part (no fentry, no contention tracepoints, not
 * root) still gets a handle: what it could not load is written into the
 * snapshot as "unavailable (reason)" tags, never as zero figures.
 *
 * What fl_phases_read() adds to the snapshot (values are cumulative since
 * start; sections of the same types already in s->extra are replaced):
 *   FL_SEC_PHASES        per possible CPU struct fl_phase_stats (if phases ran)
 *   FL_SEC_LOCKS         per possible CPU struct fl_lock_stats  (if locks ran)
 *   FL_SEC_LOCK_CALLERS  top callers of "other" contention, symbolised
 *   tags: phases=<tier>|unavailable (why)
 *         phases.unavailable=<phase> (why); ...      phases that tier lacks
 *         phases.notes=<phase>: ...                   phases seen only in part
 *         locks=tracepoint|unavailable (why)
 *         locks.naming=<how locks are named on this kernel>
 *         phases.events=unpaired:N depth:N nostate:N callers_full:N abandoned:N lost:N
 */
#ifndef FAULTLINE_PHASES_H
#define FAULTLINE_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "snapshot.h"

struct fl_phases;
struct fl_tgid_filter;
struct btf;

struct fl_phases_opts {
	const struct btf *btf;	/* the kernel's BTF (fl_btf_load(), kfeatures.h),
				 * read, not kept; NULL: none (nothing loads) */
	struct fl_tgid_filter *tgids;	/* the traced thread groups, shared with
					 * the other skeletons (tgid_filter.h);
					 * NULL: every task */
	bool phases;		/* time the phases of every fault */
	bool locks;		/* contended lock classes */
	bool mmap_lock;		/* attach the mmap_lock tracepoints (mmap_wait) where
				 * they are off by default for their cost (record
				 * --mmap-lock) */
	bool all_callers;	/* testing: FL_SEC_LOCK_CALLERS for every class,
				 * not only "other" (tag locks.callers=all); also
				 * set by FAULTLINE_LOCK_CALLERS=all in the
				 * environment (for `record`) */
};

struct fl_phases *fl_phases_start(const struct fl_phases_opts *o, char *err, size_t errlen);
/* One line: what is loaded, e.g. "phases: fentry (zero unavailable), locks: tracepoint". */
const char *fl_phases_describe(const struct fl_phases *p);
/* probe's list: each phase's function hooks, used, absent or superseded. */
void fl_phases_probe(FILE *out, const struct btf *btf);
int fl_phases_read(struct fl_phases *p, struct fl_snapshot *s, char *err, size_t errlen);
void fl_phases_stop(struct fl_phases *p);
/* record --self-cost: tag s with these programs' runs and run time (selfcost.h). */
int fl_phases_tag_runs(struct fl_phases *p, struct fl_snapshot *s);

/* ---- reading the sections back (user/phases_report.c) --------------- */

const char *fl_lock_class_name(unsigned int cls);	/* "mmap_r", "mmap_w", "vma", ... */

/*
 * The FL_SEC_PHASES / FL_SEC_LOCKS / FL_SEC_LOCK_CALLERS payload of s, or
 * NULL when absent or malformed (size != count * element size); *nr gets
 * the element count.
 */
const struct fl_phase_stats *fl_snapshot_phases(const struct fl_snapshot *s, unsigned int *nr);
const struct fl_lock_stats *fl_snapshot_locks(const struct fl_snapshot *s, unsigned int *nr);
const struct fl_lock_caller *fl_snapshot_lock_callers(const struct fl_snapshot *s,
						      unsigned int *nr);

/* "unavailable (why)" of phase p from the snapshot's phases.unavailable tag. */
/*
 * Can this recording show lock class CLS?  Not where locks.unavailable
 * lists it (the vma class on a vm_refcnt kernel); its "unavailable (why)"
 * into WHY then.
 */
bool fl_lock_class_avail(const struct fl_snapshot *s, unsigned int cls, char *why, size_t len);
/*
 * Phase P's "unavailable (why)" as the snapshot's phases.unavailable gives
 * it.  Record keeps a reason to FL_PH_REASON_LEN - 1 characters, so a
 * FL_PH_UNAVAIL_LEN buffer holds the whole line.
 */
#define FL_PH_REASON_LEN	96
#define FL_PH_UNAVAIL_LEN	(FL_PH_REASON_LEN + sizeof("unavailable ()"))
void fl_phase_unavail_why(const struct fl_snapshot *s, unsigned int p, char *buf, size_t len);

/* Sum of the CPUs in [0, nr) whose group[cpu] == g (group NULL: all CPUs). */
void fl_phase_stats_sum(const struct fl_phase_stats *in, unsigned int nr,
			const int *group, int g, struct fl_phase_stats *out);
void fl_lock_stats_sum(const struct fl_lock_stats *in, unsigned int nr,
		       const int *group, int g, struct fl_lock_stats *out);
/* The lock class with the most wait time (FL_LK_NR if nothing contended). */
unsigned int fl_lock_dominant(const struct fl_lock_stats *t);

/*
 * `report --phases` / `--locks`.  Rows per group: group == NULL gives one
 * row per CPU; otherwise group[cpu] (0..nr_groups-1, -1 = leave out) maps
 * each CPU to a group named "<group_label><g>" (e.g. "llc", "node"); a
 * total row ends the table.  Absent sections print "unavailable (reason)"
 * from the snapshot's tags.  Return 0, or -1 on an output error.
 */
struct fl_phases_report_opts {
	const int *group;
	unsigned int group_len;		/* entries in group[]; CPUs beyond: -1 */
	unsigned int nr_groups;
	const char *group_label;
};
int fl_report_phases(const struct fl_snapshot *s, FILE *out,
		     const struct fl_phases_report_opts *o);
int fl_report_locks(const struct fl_snapshot *s, FILE *out,
		    const struct fl_phases_report_opts *o);
/*
 * `report --raw`: key=value lines for scripts, all CPUs summed:
 *   phases=<tier>|unavailable (why)   phases.faults= .overrun= .unattributed_pct=
 *   phase.<name>.count= .sum_ns= .mean_ns= (ns per fault over all faults)
 *   phase.<name>=unavailable (why)     for a phase the tier cannot see
 *   locks=...  lock.<class>.count= .wait_ns= .share_pct=  locks.dominant=
 *   locks.callers=other|all  locks.caller.<rank>=<symbol> <count> <wait_ns>
 */
int fl_report_phases_raw(const struct fl_snapshot *s, FILE *out);

/*
 * `report --phases/--locks DIR` on a pft-sweep result directory
 * (user/phases_sweep.c): a row per thread count, the mean over its runs of
 * each phase (ns per fault) and each lock class's wait per fault.  0, or -1
 * with err (not a sweep, output error).
 */
int fl_report_phases_sweep(const char *dir, FILE *out, bool phases, bool locks,
			   char *err, size_t errlen);

/*
 * Means for `compare` / `plot` / an explain line.  Per group as above
 * (group NULL: all CPUs).  Phase means are ns per fault over all faults, so
 * sum(phase_mean) + unattributed_mean == lat_mean.  A phase that is absent
 * or unavailable has phase_avail[p] false: print it as unavailable.
 */
struct fl_phases_summary {
	bool phases;			/* FL_SEC_PHASES present */
	bool phase_avail[FL_PH_NR];
	unsigned long long faults, overrun;
	double lat_mean;
	double phase_mean[FL_PH_NR];
	double unattributed_mean;
	bool locks;			/* FL_SEC_LOCKS present */
	bool lock_avail[FL_LK_NR];	/* a class the kernel can show (locks.unavailable) */
	unsigned long long lock_count[FL_LK_NR];
	unsigned long long lock_wait_ns[FL_LK_NR];
	unsigned long long lock_wait_total_ns;
};
void fl_phases_summarize(const struct fl_snapshot *s, const int *group, int g,
			 struct fl_phases_summary *out);

/*
 * One plain sentence on where B's added fault latency went, e.g.
 * "71% of the added latency in B (+840 ns per fault) is alloc; lock wait in
 * B is mostly zone (64%, was 3% in A)".  `where` (may be NULL) is appended
 * as context ("at 110 threads", "on node1").  Significance is the caller's
 * business (repeated runs).  Returns the phase that grew most, FL_PH_NR
 * for "unattributed", or -1 when it cannot say (no phases in A or B).
 */
int fl_phases_explain(const struct fl_phases_summary *a, const struct fl_phases_summary *b,
		      const char *where, char *buf, size_t len);

#endif
