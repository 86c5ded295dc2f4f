/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * faultline snapshot ABI, shared by the BPF programs, the module and the
 * collector.  Plain C; see Documentation/formats.rst.
 *
 * A snapshot (file, or the module's debugfs `snapshot`) is:
 *
 *   struct fl_snap_header
 *   section*            each: struct fl_section + payload (8-byte aligned)
 *
 * Readers skip sections whose type they do not know, so later versions can
 * add sections (phases, lock classes) without breaking old files.  A reader
 * rejects a different major version (FL_SNAP_VERSION >> 16).
 * All integers are little-endian (x86_64 / arm64 hosts).
 */
#ifndef FAULTLINE_ABI_H
#define FAULTLINE_ABI_H

#include "types.h"
#include "hist.h"

#define FL_SNAP_MAGIC		0x4e534c46u	/* "FLSN" */
#define FL_SNAP_VERSION		0x00010000u	/* major 1, minor 0 */
#define FL_SNAP_MAJOR(v)	((v) >> 16)

/* User addresses end here: the canonical lower half (x86_64, arm64). */
#define FL_USER_ADDR_END	0x8000000000000000ULL

/*
 * Facts of the traced kernel that the BPF programs, the module and user
 * space name alike.  lock:contention_begin's flags (LCB_F_* of
 * include/trace/events/lock.h):
 */
#define FL_LCB_F_SPIN	(1u << 0)
#define FL_LCB_F_READ	(1u << 1)
#define FL_LCB_F_WRITE	(1u << 2)

/* [start, end) of one kernel function, from kallsyms, set before load. */
struct fl_krange {
	fl_u64 start, end;
};

enum fl_backend {
	FL_BACKEND_NONE = 0,
	FL_BACKEND_BPF = 1,
	FL_BACKEND_KMOD = 2,
};

enum fl_tier {
	FL_TIER_NONE = 0,
	FL_TIER_FENTRY = 1,	/* fentry/fexit + tracepoints */
	FL_TIER_KPROBE = 2,	/* kprobe/kretprobe + tracepoints (also the module) */
	FL_TIER_TRACEPOINT = 3,	/* tracepoints only: no latency, no hmf duration */
};

/* Which lockless fault path the traced kernel has. */
enum fl_lockless_kind {
	FL_LL_KIND_NONE = 0,	/* neither: lockless figures are unavailable */
	FL_LL_KIND_VMA_LOCK = 1,	/* per-VMA locks (6.4+) */
	FL_LL_KIND_SPF = 2,	/* speculative page fault patchsets */
	FL_LL_KIND_UNKNOWN = 3,	/* the kernel has one but we cannot see it */
};

/*
 * Keep the mmap_lock tracepoints off?  The one rule; the module and user
 * space each give their own facts.  MEMCG_PATH: the tracepoints build the
 * memcg path (a string, cgroup_path() under a lock) for every event while a
 * probe is attached (before ~6.14).  LL_KIND: the lockless fault path; with
 * none every fault takes mmap_lock, so that would be most of a fault's
 * recording cost.  ASKED: wanted anyway (record --mmap-lock, the module's
 * `mmap_lock on`).
 */
FL_INLINE int fl_mmap_lock_keep_off(int memcg_path, fl_u32 ll_kind, int asked)
{
	return memcg_path && ll_kind == FL_LL_KIND_NONE && !asked;
}

/* Hooks, as bits in fl_snap_header.hooks_live / hooks_absent. */
enum fl_hook {
	FL_HOOK_PF_USER = 0,		/* exceptions:page_fault_user */
	FL_HOOK_PF_KERNEL,		/* exceptions:page_fault_kernel */
	FL_HOOK_HMF,			/* handle_mm_fault entry + exit */
	FL_HOOK_DO_HMF,			/* do_handle_mm_fault (SPF kernels) */
	FL_HOOK_LOCK_VMA,		/* lock_vma_under_rcu exit */
	FL_HOOK_MMAP_START,		/* mmap_lock:mmap_lock_start_locking */
	FL_HOOK_MMAP_ACQUIRED,		/* mmap_lock:mmap_lock_acquire_returned */
	FL_HOOK_MMAP_RELEASED,		/* mmap_lock:mmap_lock_released */
	FL_HOOK_CONTENTION_BEGIN,	/* lock:contention_begin */
	FL_HOOK_CONTENTION_END,		/* lock:contention_end */
	FL_HOOK_NR,
};

/* Lockless-path outcome counters (struct fl_cpu_stats.ll[]). */
enum fl_ll_counter {
	FL_LL_ATTEMPTED = 0,	/* lockless path tried (lock_vma_under_rcu / SPECULATIVE hmf) */
	FL_LL_SUCCEEDED,	/* handled without mmap_lock */
	FL_LL_ABORTED,		/* gave up before handling (NULL vma / SPF RETRY) */
	FL_LL_RETRIED,		/* handled, asked for retry, redone under mmap_lock */
	FL_LL_NOT_ATTEMPTED,	/* went straight to mmap_lock */
	FL_LL_MMAP_RETRY,	/* VM_FAULT_RETRY returned under mmap_lock */
	FL_LL_NR,
};

/* Histograms per CPU (struct fl_cpu_stats.hist[]). */
enum fl_hist_id {
	FL_H_FAULT_LAT = 0,	/* fault entry -> final handle_mm_fault return */
	FL_H_HMF,		/* each handle_mm_fault call */
	FL_H_MMAP_WAIT_R,	/* mmap_lock start_locking -> acquire_returned, read */
	FL_H_MMAP_WAIT_W,
	FL_H_MMAP_HOLD_R,	/* acquire_returned(success) -> released, read */
	FL_H_MMAP_HOLD_W,
	FL_H_MMAP_CONTEND,	/* lock:contention_begin -> end on current->mm->mmap_lock */
	FL_H_NR,
};

/* Plain counters per CPU (struct fl_cpu_stats.cnt[]). */
enum fl_counter {
	FL_C_FAULTS_USER = 0,	/* page_fault_user events (traced tasks) */
	FL_C_FAULTS_KERNEL,	/* page_fault_kernel on user addresses */
	FL_C_FAULTS_ENDED,	/* faults that reached a final hmf return (timed) */
	FL_C_FAULTS_UNHANDLED,	/* started, never reached handle_mm_fault (SIGSEGV, access error) */
	FL_C_HMF_CALLS,		/* handle_mm_fault calls */
	FL_C_MMAP_CONTENDED,	/* contention_begin on mmap_lock */
	FL_C_MMAP_TRYLOCK_FAIL,	/* acquire_returned(success=false) */
	FL_C_MISSED,		/* events this producer dropped (kretprobe nmissed, map full...) */
	/*
	 * Why a per-VMA-lock fault left the lockless path (classify.h,
	 * fl_ev_ll_why; counted where FL_SNAP_F_LL_WHY is set).
	 */
	FL_C_LLW_WLOCKED,	/* abort: its VMA write-locked by the latest mmap_lock writer */
	FL_C_LLW_NOVMA,		/* abort: no VMA at the address (stack growth, SIGSEGV) */
	FL_C_LLW_OTHER,		/* abort: none of those (an older writer, VMA changed, race) */
	FL_C_LLW_UNREAD,	/* abort or retry whose VMA could not be read */
	FL_C_LLW_ANON,		/* retry: the VMA had no anon_vma (vmf_anon_prepare's trylock) */
	FL_C_LLW_RETRY_OTHER,	/* retry: folio lock, I/O, userfaultfd, no ->map_pages */
	FL_C_NR = 16,		/* room to grow within major version 1 */
};

/* cnt[ID] is one of the abort / retry reasons (FL_SNAP_F_LL_WHY) */
#define FL_C_IS_LLW(id)	((id) >= FL_C_LLW_WLOCKED && (id) <= FL_C_LLW_RETRY_OTHER)

/* Per CPU, as stored in the FL_SEC_CPU section and in the BPF per-CPU map. */
struct fl_cpu_stats {
	fl_u64 cnt[FL_C_NR];
	fl_u64 ll[FL_LL_NR];
	fl_u64 pad[2];
	struct fl_hist hist[FL_H_NR];
};

/* dst += src: counters added, histograms merged (module, collector, tests). */
FL_INLINE void fl_cpu_stats_add(struct fl_cpu_stats *dst, const struct fl_cpu_stats *src)
{
	unsigned int i;

	for (i = 0; i < FL_C_NR; i++)
		dst->cnt[i] += src->cnt[i];
	for (i = 0; i < FL_LL_NR; i++)
		dst->ll[i] += src->ll[i];
	for (i = 0; i < FL_H_NR; i++)
		fl_hist_merge(&dst->hist[i], &src->hist[i]);
}

/* Names of enum fl_hook, as an initializer for a `const char *[FL_HOOK_NR]`. */
#define FL_HOOK_NAMES {						\
	[FL_HOOK_PF_USER] = "page_fault_user",				\
	[FL_HOOK_PF_KERNEL] = "page_fault_kernel",			\
	[FL_HOOK_HMF] = "handle_mm_fault",				\
	[FL_HOOK_DO_HMF] = "do_handle_mm_fault",			\
	[FL_HOOK_LOCK_VMA] = "lock_vma_under_rcu",			\
	[FL_HOOK_MMAP_START] = "mmap_lock_start_locking",		\
	[FL_HOOK_MMAP_ACQUIRED] = "mmap_lock_acquire_returned",		\
	[FL_HOOK_MMAP_RELEASED] = "mmap_lock_released",			\
	[FL_HOOK_CONTENTION_BEGIN] = "contention_begin",		\
	[FL_HOOK_CONTENTION_END] = "contention_end",			\
}

/*
 * The one list of figure names: the module's debugfs summary, report --raw,
 * the JSON/CSV/Prometheus exports and the docs all use these.  Initializers
 * for `const char *[FL_C_NR]`, `[FL_LL_NR]` and `[FL_H_NR]`.
 */
#define FL_COUNTER_NAMES {						\
	[FL_C_FAULTS_USER] = "faults_user",				\
	[FL_C_FAULTS_KERNEL] = "faults_kernel",				\
	[FL_C_FAULTS_ENDED] = "faults_timed",				\
	[FL_C_FAULTS_UNHANDLED] = "faults_unhandled",			\
	[FL_C_HMF_CALLS] = "handle_mm_fault_calls",			\
	[FL_C_MMAP_CONTENDED] = "mmap_lock_contended",			\
	[FL_C_MMAP_TRYLOCK_FAIL] = "mmap_lock_trylock_failed",		\
	[FL_C_MISSED] = "events_missed",				\
	[FL_C_LLW_WLOCKED] = "lockless_abort_write_locked",		\
	[FL_C_LLW_NOVMA] = "lockless_abort_no_vma",			\
	[FL_C_LLW_OTHER] = "lockless_abort_other",			\
	[FL_C_LLW_UNREAD] = "lockless_unread",				\
	[FL_C_LLW_ANON] = "lockless_retry_anon_vma",			\
	[FL_C_LLW_RETRY_OTHER] = "lockless_retry_other",		\
}

#define FL_LL_NAMES {							\
	[FL_LL_ATTEMPTED] = "lockless_attempted",			\
	[FL_LL_SUCCEEDED] = "lockless_succeeded",			\
	[FL_LL_ABORTED] = "lockless_aborted",				\
	[FL_LL_RETRIED] = "lockless_retried",				\
	[FL_LL_NOT_ATTEMPTED] = "lockless_not_attempted",		\
	[FL_LL_MMAP_RETRY] = "mmap_lock_retries",			\
}

#define FL_HIST_NAMES {							\
	[FL_H_FAULT_LAT] = "fault_latency",				\
	[FL_H_HMF] = "handle_mm_fault",					\
	[FL_H_MMAP_WAIT_R] = "mmap_lock_wait_read",			\
	[FL_H_MMAP_WAIT_W] = "mmap_lock_wait_write",			\
	[FL_H_MMAP_HOLD_R] = "mmap_lock_hold_read",			\
	[FL_H_MMAP_HOLD_W] = "mmap_lock_hold_write",			\
	[FL_H_MMAP_CONTEND] = "mmap_lock_contended",			\
}

#define FL_KREL_LEN	65
#define FL_NAME_LEN	32

struct fl_snap_header {
	fl_u32 magic;		/* FL_SNAP_MAGIC */
	fl_u32 version;		/* FL_SNAP_VERSION */
	fl_u32 header_size;	/* sizeof(struct fl_snap_header) */
	fl_u32 nr_sections;
	fl_u32 backend;		/* enum fl_backend */
	fl_u32 tier;		/* enum fl_tier */
	fl_u32 lockless_kind;	/* enum fl_lockless_kind */
	fl_u32 nr_cpus;		/* possible CPUs covered by FL_SEC_CPU */
	fl_u64 hooks_live;	/* 1 << enum fl_hook */
	fl_u64 hooks_absent;	/* hooks the kernel does not have */
	fl_u64 t_start_ns;	/* CLOCK_REALTIME at start of the window */
	fl_u64 t_end_ns;	/* CLOCK_REALTIME at end */
	fl_u64 duration_ns;	/* monotonic length of the window */
	fl_u32 filter_tgid;	/* 0 = system-wide */
	fl_u32 flags;		/* FL_SNAP_F_* */
	char kernel_release[FL_KREL_LEN];
	char pad[7];
};

#define FL_SNAP_F_MMAP_MEMCG_PROTO	(1u << 0)	/* mmap_lock TPs with memcg_path */
#define FL_SNAP_F_LL_WHY		(1u << 1)	/* FL_C_LLW_* counted (abort / retry reasons) */

/* Section header; payload of `size` bytes follows, then padding to 8. */
struct fl_section {
	fl_u32 type;		/* enum fl_section_type */
	fl_u32 count;		/* elements in the payload */
	fl_u64 size;		/* payload bytes */
};

enum fl_section_type {
	FL_SEC_CPU = 1,		/* count x struct fl_cpu_stats, index = CPU id */
	FL_SEC_VMSTAT = 2,	/* count x struct fl_vmstat_entry */
	FL_SEC_TAGS = 3,	/* "key=value\n" text, count = number of lines */
	FL_SEC_CPU_ONLINE = 4,	/* count bytes: 1 = CPU was online */
	FL_SEC_PHASES = 16,	/* count x struct fl_phase_stats, index = CPU id */
	FL_SEC_LOCKS = 17,	/* count x struct fl_lock_stats, index = CPU id */
	FL_SEC_LOCK_CALLERS = 18, /* count x struct fl_lock_caller ("other" class) */
	FL_SEC_BLAME = 19,	/* count x struct fl_blame_row (blame.h), top call sites */
	FL_SEC_BLAME_TOTAL = 20, /* 1 x struct fl_blame_total (blame.h) */
};

/*
 * Where the time inside a fault goes (optional, `record --phases`).  Each
 * phase is timed per fault and added to that phase's histogram on the CPU
 * where the fault ended; what no phase covers is the unattributed remainder.
 */
enum fl_phase {
	FL_PH_LOCKLESS = 0,	/* lock_vma_under_rcu / speculative attempt */
	FL_PH_MMAP_WAIT,	/* waiting for mmap_lock in the fault */
	FL_PH_ALLOC,		/* folio / page allocation for the fault */
	FL_PH_ZERO,		/* zeroing the new page, where separable */
	FL_PH_MEMCG,		/* memcg charge */
	FL_PH_PTL,		/* page table lock wait */
	FL_PH_LRU,		/* LRU insertion */
	FL_PH_REST,		/* rest of handle_mm_fault */
	/*
	 * File faults (after REST: a snapshot written before them has the
	 * first FL_PH_NR_V1 histograms only; readers widen it, see
	 * fl_phase_stats_widen()).
	 */
	FL_PH_PCACHE,		/* page-cache lookup: __do_fault less the below */
	FL_PH_READ,		/* filling the page cache: readahead, read_folio, I/O wait */
	FL_PH_AROUND,		/* fault-around: filemap_map_pages */
	FL_PH_COPY,		/* COW copy of a page-cache page (do_cow_fault) */
	FL_PH_NR,
};

#define FL_PHASE_NAMES {						\
	[FL_PH_LOCKLESS] = "lockless",					\
	[FL_PH_MMAP_WAIT] = "mmap_wait",				\
	[FL_PH_ALLOC] = "alloc",					\
	[FL_PH_ZERO] = "zero",						\
	[FL_PH_MEMCG] = "memcg",					\
	[FL_PH_PTL] = "ptl",						\
	[FL_PH_LRU] = "lru",						\
	[FL_PH_REST] = "rest",						\
	[FL_PH_PCACHE] = "pagecache",					\
	[FL_PH_READ] = "read",						\
	[FL_PH_AROUND] = "around",					\
	[FL_PH_COPY] = "cow_copy",					\
}

#define FL_PH_NR_V1	(FL_PH_REST + 1)	/* phases of a snapshot before the file ones */
#define FL_PH_FILE_MASK	(((1u << FL_PH_NR) - 1) & ~((1u << FL_PH_NR_V1) - 1))

struct fl_phase_stats {
	fl_u64 faults;		/* faults with phase accounting */
	fl_u64 lat_sum;		/* sum of their latencies */
	fl_u64 unattributed_sum; /* sum of (latency - sum of phases) */
	fl_u64 overrun;		/* faults whose phases added up to more than their latency */
	fl_u64 pad[4];
	struct fl_hist hist[FL_PH_NR];
};

/* Size of one FL_SEC_PHASES element before the file phases. */
#define FL_PHASE_STATS_V1_SIZE \
	(sizeof(struct fl_phase_stats) - (FL_PH_NR - FL_PH_NR_V1) * sizeof(struct fl_hist))

/* Contended lock classes (lock:contention_begin/end + mmap_lock tracepoints). */
enum fl_lock_class {
	FL_LK_MMAP_R = 0,
	FL_LK_MMAP_W,
	FL_LK_VMA,		/* per-VMA lock */
	FL_LK_PTL,		/* page table lock */
	FL_LK_ZONE,		/* zone->lock */
	FL_LK_LRU,		/* lruvec->lru_lock */
	FL_LK_MEMCG,
	FL_LK_OTHER,
	FL_LK_NR,
};

struct fl_lock_stats {
	fl_u64 count[FL_LK_NR];
	fl_u64 pad[8];
	struct fl_hist wait[FL_LK_NR];
};

/* dst += src for one CPU's phase / lock-class record. */
FL_INLINE void fl_phase_stats_add(struct fl_phase_stats *dst, const struct fl_phase_stats *src)
{
	unsigned int p;

	dst->faults += src->faults;
	dst->lat_sum += src->lat_sum;
	dst->unattributed_sum += src->unattributed_sum;
	dst->overrun += src->overrun;
	for (p = 0; p < FL_PH_NR; p++)
		fl_hist_merge(&dst->hist[p], &src->hist[p]);
}

FL_INLINE void fl_lock_stats_add(struct fl_lock_stats *dst, const struct fl_lock_stats *src)
{
	unsigned int k;

	for (k = 0; k < FL_LK_NR; k++) {
		dst->count[k] += src->count[k];
		fl_hist_merge(&dst->wait[k], &src->wait[k]);
	}
}

#define FL_SYM_LEN	48
struct fl_lock_caller {		/* top callers of "other" contention, symbolised */
	char sym[FL_SYM_LEN];
	fl_u64 count;
	fl_u64 wait_ns;
};

/* /proc/vmstat counter before and after the window. */
struct fl_vmstat_entry {
	char name[FL_NAME_LEN];
	fl_u64 before;
	fl_u64 after;
};

#endif /* FAULTLINE_ABI_H */
