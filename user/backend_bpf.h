/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The eBPF backend: loads ebpf/faultline.bpf.c's skeleton with the best hook
 * tier the running kernel allows (or the one asked for), filters by a tgid
 * set (the workload and its children) or traces system-wide, and reads the
 * per-CPU statistics into a snapshot.
 */
#ifndef FAULTLINE_BACKEND_BPF_H
#define FAULTLINE_BACKEND_BPF_H

#include <stdbool.h>
#include <stddef.h>

#include "kfeatures.h"
#include "snapshot.h"

struct fl_tgid_filter;

struct fl_bpf_opts {
	unsigned int tier;	/* first FL_TIER_* to try; FL_TIER_NONE = best (fentry) */
	bool exact;		/* only that tier, no fallback to lower ones */
	bool system_wide;
	unsigned int tgid;	/* traced thread group when !system_wide (0: none yet) */
	struct fl_tgid_filter *tgids;	/* !system_wide: the filter, shared with the
					 * other skeletons (tgid_filter.h) */
	bool follow_fork;	/* add children of traced tgids */
	bool time_hmf;		/* --handle-mm-fault: time handle_mm_fault calls (an entry hook per call) */
	bool mmap_lock;		/* --mmap-lock: attach the mmap_lock tracepoints where they are off by default */
	const struct btf *btf;	/* the kernel's BTF (fl_btf_load()), read at start; NULL: loaded there */
};

/*
 * Why the mmap_lock tracepoints stay detached with these options on this
 * kernel, or NULL when they are attached.
 */

struct fl_bpf;
struct bpf_map;

/*
 * Without task-local storage (5.10, !kf->task_storage), a skeleton's
 * per-task state is a preallocated hash of this many tids, emptied at exit
 * (include/faultline/tstore.h): a traced task past it is counted as missed.
 * fl_bpf_tstore_hash() makes a task-storage map that hash before load (the
 * caller also clears the skeleton's task_btf): 0 or -1.
 */
#define FL_TSTORE_HASH_MAX	32768
int fl_bpf_tstore_hash(struct bpf_map *m);

/*
 * Load and attach.  Returns NULL with err set when no tier could be used.
 * Tiers tried and why they were refused are in fl_bpf_notes() (and, on
 * failure, in err).
 */
struct fl_bpf *fl_bpf_start(const struct fl_bpf_opts *o, char *err, size_t errlen);

/* Try one tier and tear it down again (for `faultline probe`): 0 or -1 + why. */
int fl_bpf_try_tier(unsigned int tier, const struct fl_kfeatures *kf, char *why, size_t len);

/* "fentry (fentry/fexit + tracepoints)" etc. */
const char *fl_tier_describe(unsigned int tier);

unsigned int fl_bpf_tier(const struct fl_bpf *b);
const struct fl_kfeatures *fl_bpf_features(const struct fl_bpf *b);
/* "fentry tier refused: ...\n" lines for the tiers skipped before this one. */
const char *fl_bpf_notes(const struct fl_bpf *b);

/*
 * Fill s (cpus, cpu_online, header: backend, tier, hooks, lockless kind,
 * nr_cpus, flags, kernel release, filter_tgid).  rotate: start a new window
 * (the returned figures cover only the window since the last rotate).
 */
int fl_bpf_read(struct fl_bpf *b, struct fl_snapshot *s, bool rotate,
		char *err, size_t errlen);

void fl_bpf_stop(struct fl_bpf *b);
/*
 * Start counting: every program is attached from fl_bpf_start() on but
 * counts nothing (its stats slot, ebpf/faultline.bpf.c `slot`, is one with
 * no entry) until this one store.
 */
void fl_bpf_arm(struct fl_bpf *b);
#define FL_BPF_SLOT_DISARMED	2u	/* the stats map has slots 0 and 1 */
/* End the last window before its read: no new fault starts, in-flight ones drain. */
int fl_bpf_end(struct fl_bpf *b);

/*
 * The collector's own cost (record --self-cost).  fl_bpf_stats_enable turns
 * on the kernel's BPF run-time statistics for as long as the returned fd is
 * open (-1 + err if refused).  fl_bpf_tag_runs tags s with each loaded
 * program's runs and run time since the previous call (user/selfcost.h);
 * prev holds one slot per program of obj.
 */
struct bpf_object;
struct fl_prog_runs {
	unsigned long long runs, ns;
};
#define FL_MAX_PROGS 64
int fl_bpf_stats_enable(char *err, size_t errlen);
int fl_bpf_tag_runs(struct bpf_object *obj, struct fl_prog_runs prev[FL_MAX_PROGS],
		    struct fl_snapshot *s);
/* The same for this backend's own programs. */
int fl_bpf_tag_own_runs(struct fl_bpf *b, struct fl_snapshot *s);

/*
 * Runs the kernel skipped (bpf_prog_info.recursion_misses, 5.12+), per
 * skeleton and per figure (Documentation/architecture.rst, "Preemptible
 * kernels").  A figure names the programs whose skipped runs lose its
 * events, as fnmatch(3) patterns separated by spaces.  fl_bpf_tag_lost sets,
 * for OBJ's loaded programs: bpf_recursion_misses.SKEL (their sum),
 * bpf_misses.SKEL.PROG for each program that missed runs, bpf_lost.FIGURE
 * for each figure with a loaded program (0 included: measured, none lost),
 * and bpf_recursion_misses again as the sum over the skeletons tagged so
 * far.  -1 when out of memory.
 */
struct fl_lost_fig {
	const char *figure;
	const char *progs;
};
int fl_bpf_tag_lost(struct bpf_object *obj, const char *skel, const struct fl_lost_fig *figs,
		    unsigned int nfigs, struct fl_snapshot *s);

/* faultline -v: libbpf's own log passed on, on stderr (main.c sets it). */
extern bool fl_verbose;
/* Quiet libbpf unless fl_verbose; keep its last warning for error messages. */
void fl_bpf_setup_libbpf(void);
const char *fl_bpf_last_libbpf_warning(void);

/* Hook bits a tier would make live / the kernel lacks, given its features. */
void fl_bpf_hooks(unsigned int tier, const struct fl_kfeatures *kf, const struct fl_bpf_opts *o,
		  unsigned long long *live, unsigned long long *absent);

/* Mark CPUs listed in /sys/devices/system/cpu/online in online[nr]. */
int fl_read_online_cpus(unsigned char *online, unsigned int nr);

#endif
