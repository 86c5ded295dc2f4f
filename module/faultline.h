/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faultline.ko internals shared by main.c, probes.c, stats.c and iface.c.
 * The data model (struct fl_cpu_stats, the snapshot layout) and the fault
 * state machine come from include/faultline/ so that the module counts
 * exactly like the BPF backend.
 */
#ifndef FAULTLINE_MODULE_H
#define FAULTLINE_MODULE_H

#include <linux/types.h>
#include <linux/cache.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/bitops.h>
#include <linux/threads.h>

#include <faultline/abi.h>
#include <faultline/classify.h>

#define FL_HOOK_ALL	((1u << FL_HOOK_NR) - 1)

/*
 * Per-task state, one slot per pid & FL_SLOT_MASK (see stats.c).  Only the
 * owning task writes its slot (except on a pid collision, counted as missed).
 */
struct fl_slot {
	struct task_struct *owner;	/* compared only, never dereferenced */
	struct fl_fault_state fs;
	u64 lock_start_ns;		/* mmap_lock_start_locking */
	u64 hold_start_ns;		/* mmap_lock_acquire_returned(success) */
	u64 contend_start_ns;		/* contention_begin on mmap_lock */
	bool lock_write;
	bool hold_write;
} ____cacheline_aligned;

#define FL_SLOT_BITS	14
#define FL_SLOT_NR	(1u << FL_SLOT_BITS)
#define FL_SLOT_MASK	(FL_SLOT_NR - 1)

/* main.c: the state the control file and the parameters change. */
extern bool fl_enabled;
extern unsigned int fl_tgid;		/* global (init namespace) tgid, 0 = all; see filter.c */
extern struct mutex fl_mutex;		/* serialises control, fold, reset */
int fl_parse_uint(const char *s, unsigned int base, unsigned int *v);

/* stats.c */
int fl_stats_init(void);
void fl_stats_exit(void);
struct fl_cpu_stats *fl_stats_this_cpu(void);	/* preemption disabled */
void fl_stats_fold(void);			/* fl_mutex held */
void fl_stats_reset(void);			/* fl_mutex held */
const struct fl_cpu_stats *fl_stats_acc(unsigned int cpu);	/* after fold */
struct fl_slot *fl_slot_claim(struct fl_cpu_stats *cs);
struct fl_slot *fl_slot_get(void);
void fl_slot_release(void);
extern u64 fl_t_start_real;	/* CLOCK_REALTIME of the last reset */
extern u64 fl_t_start_mono;	/* ktime_get_mono_fast_ns() of the last reset */

/* probes.c */
extern struct fl_kvals fl_kv;
extern bool fl_mmap_memcg_proto;
int fl_probes_register(unsigned int mask, unsigned int maxactive);
void fl_probes_unregister(void);
u64 fl_probes_live(void);
u64 fl_probes_absent(void);
u64 fl_probes_nmissed(void);	/* kretprobe misses, all probes, since load */
void fl_probes_show(struct seq_file *m);
extern u64 fl_nmissed_base;	/* fl_probes_nmissed() at the last reset */

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

/* iface.c */
int fl_iface_init(void);
void fl_iface_exit(void);
int fl_set_tgid(unsigned int vnr);	/* tgid in the caller's pid namespace */

#endif /* FAULTLINE_MODULE_H */
