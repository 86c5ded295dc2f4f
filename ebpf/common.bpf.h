/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the three skeletons (faultline, phases, blame) have alike, written
 * once, as libbpf-tools' maps.bpf.h / core_fixes.bpf.h are: the traced
 * thread groups, the fork follower that adds a traced process's children,
 * and the mmap_lock tracepoint programs in both of their prototypes.
 * Include after vmlinux.h and the libbpf headers.
 */
#ifndef FAULTLINE_COMMON_BPF_H
#define FAULTLINE_COMMON_BPF_H

/* The most words the filter can have: pid_max's ceiling (4M), 512 KiB. */
#define FL_TGID_WORDS	((4u << 20) / 64)

/*
 * Traced thread groups, a bit per tgid: set by user space (through the
 * mmapped array, atomically) and at fork, never cleared while recording.
 * A test is an inlined array lookup and one load: no hash, no cache.  User
 * space creates it, sized from pid_max (a tgid past it, after pid_max is
 * raised, is not traced), and gives each skeleton the same map by fd
 * before load (user/tgid_filter.c): one filter for all of them.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, FL_TGID_WORDS);
	__type(key, __u32);
	__type(value, __u64);
} fl_tgids SEC(".maps");

/* Set by user space before load: false traces every task (system-wide). */
const volatile bool filter_tgid = false;

/* The preemption-disabling kfuncs (6.10+). */
extern void bpf_preempt_disable(void) __ksym __weak;
extern void bpf_preempt_enable(void) __ksym __weak;

/* The word of TGID's bit, or NULL past the array. */
static __always_inline volatile __u64 *fl_tgid_word(__u64 tgid)
{
	__u32 w = tgid >> 6;	/* a u64: as a u32, clang 14 masked off the bits it shifts out */

	return bpf_map_lookup_elem(&fl_tgids, &w);
}

static __always_inline bool fl_tgid_set(__u64 tgid)
{
	volatile __u64 *w = fl_tgid_word(tgid);

	return w && ((*w >> (tgid & 63)) & 1);
}

/* Is thread group TGID traced? */
static __always_inline bool fl_tgid_traced(__u64 tgid)
{
	return !filter_tgid || fl_tgid_set(tgid);
}

/*
 * NAME: the fork follower, a traced process's child is traced too.  One
 * skeleton per filter loads it (fl_tgid_filter_follower(): two would race
 * on the child's bit).  An atomic add of a bit not yet set is an OR, and
 * a child's fresh tgid is set by nobody else meanwhile; BPF's atomic OR
 * needs 5.12.
 */
#define FL_FORK_FOLLOWER(name)							\
SEC("tp_btf/sched_process_fork")						\
int BPF_PROG(name, struct task_struct *parent, struct task_struct *child)	\
{										\
	__u32 ptgid = parent->tgid, ctgid = child->tgid;			\
	volatile __u64 *w;							\
										\
	/* a thread is already covered by its tgid */				\
	if (!filter_tgid || ptgid == ctgid || !fl_tgid_set(ptgid))		\
		return 0;							\
	w = fl_tgid_word(ctgid);						\
	if (w && !((*w >> (ctgid & 63)) & 1))					\
		__sync_fetch_and_add(w, 1ULL << (ctgid & 63));			\
	return 0;								\
}

/* One tp_btf program NAME on tracepoint TP with arguments ...: BODY; return 0. */
#define FL_TP_PROG(name, tp, body, ...)						\
SEC("tp_btf/" #tp)								\
int BPF_PROG(name, __VA_ARGS__)							\
{										\
	body;									\
	return 0;								\
}

/*
 * The mmap_lock tracepoints, a program per prototype: NAME_MEMCG for (mm,
 * memcg_path, write[, success]), up to ~6.13, NAME for (mm, write[,
 * success]) from ~6.14.  User space loads the one its kernel has
 * (fl_kfeatures.mmap_memcg).  BODY: a statement on ctx, mm, write and, for
 * acquire_returned, success.
 */
#define FL_MMAP_START_PROGS(name_memcg, name, body)				\
	FL_TP_PROG(name_memcg, mmap_lock_start_locking, body,			\
		   struct mm_struct *mm, const char *memcg_path, bool write)	\
	FL_TP_PROG(name, mmap_lock_start_locking, body,				\
		   struct mm_struct *mm, bool write)

#define FL_MMAP_ACQ_PROGS(name_memcg, name, body)				\
	FL_TP_PROG(name_memcg, mmap_lock_acquire_returned, body,		\
		   struct mm_struct *mm, const char *memcg_path, bool write,	\
		   bool success)						\
	FL_TP_PROG(name, mmap_lock_acquire_returned, body,			\
		   struct mm_struct *mm, bool write, bool success)

#define FL_MMAP_REL_PROGS(name_memcg, name, body)				\
	FL_TP_PROG(name_memcg, mmap_lock_released, body,			\
		   struct mm_struct *mm, const char *memcg_path, bool write)	\
	FL_TP_PROG(name, mmap_lock_released, body,				\
		   struct mm_struct *mm, bool write)

#endif
