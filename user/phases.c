// SPDX-License-Identifier: GPL-2.0
/*
 * Load, attach and read the optional phases / lock-class skeleton
 * (ebpf/phases.bpf.c).  API: user/phases.h.  Design: Documentation/phases.rst.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <faultline/phases_abi.h>
#include "phases.skel.h"
#include "phases.h"
#include "errbuf.h"
#include "init_on_alloc.h"
#include "intask_set.h"
#include "backend_bpf.h"
#include "kfeatures.h"
#include "preempt_model.h"
#include "ksyms.h"
#include "tgid_filter.h"

#define PH_TOP_CALLERS	16

struct fl_phases {
	struct phases_bpf *skel;
	struct fl_prog_runs runs[FL_MAX_PROGS];	/* fl_phases_tag_runs: last totals */
	bool want_phases, want_locks;
	bool phases_on, locks_on;	/* loaded and attached */
	bool fentry_loaded;		/* fault context (phase) hooks loaded */
	bool contention_ok;		/* lock:contention_* attached */
	bool reclaim_ok;		/* direct-reclaim context hooks attached */
	unsigned int ranges_dropped;	/* named functions beyond PH_NR_RANGES */
	char notes[256];		/* phases seen only in part */
	struct fl_tgid_filter *tgids;	/* the shared filter, NULL: every task */
	bool all_callers;
	unsigned int nr_cpus;
	char phases_why[160];		/* reason when !phases_on */
	char locks_why[160];
	char phase_unavail[FL_PH_NR][FL_PH_REASON_LEN]; /* per phase: why unavailable, "" = available */
	char naming[160];
	const char *vma_unavail;	/* the vma class cannot be seen here, why */
	char desc[512];
};

/*
 * Functions that name a contended lock when they are the first real caller
 * (see Documentation/phases.rst).  "prefix*" matches by prefix.  Names the
 * running kernel lacks (inlined, renamed) are simply not found.
 */
static const struct {
	const char *name;
	unsigned int cls;
} lock_funcs[] = {
	/* lock implementation and tracing: skipped, never the caller */
	{ "bpf_trace_run*", PH_RANGE_SKIP },
	{ "__bpf_trace_contention_begin", PH_RANGE_SKIP },
	{ "__traceiter_contention_begin", PH_RANGE_SKIP },
	{ "queued_spin_lock_slowpath", PH_RANGE_SKIP },
	{ "native_queued_spin_lock_slowpath", PH_RANGE_SKIP },
	{ "__pv_queued_spin_lock_slowpath", PH_RANGE_SKIP },
	{ "queued_read_lock_slowpath", PH_RANGE_SKIP },
	{ "queued_write_lock_slowpath", PH_RANGE_SKIP },
	{ "_raw_spin_lock*", PH_RANGE_SKIP },
	{ "_raw_read_lock*", PH_RANGE_SKIP },
	{ "_raw_write_lock*", PH_RANGE_SKIP },
	{ "rwsem_down_read_slowpath", PH_RANGE_SKIP },
	{ "rwsem_down_write_slowpath", PH_RANGE_SKIP },
	{ "down_read*", PH_RANGE_SKIP },
	{ "down_write*", PH_RANGE_SKIP },
	{ "__down_read*", PH_RANGE_SKIP },
	{ "__down_write*", PH_RANGE_SKIP },
	{ "__mutex_lock*", PH_RANGE_SKIP },
	{ "mutex_lock*", PH_RANGE_SKIP },
	{ "percpu_down_write", PH_RANGE_SKIP },
	{ "__percpu_down_read", PH_RANGE_SKIP },
	{ "percpu_rwsem_wait", PH_RANGE_SKIP },
	{ "rt_mutex_slowlock*", PH_RANGE_SKIP },
	/* zone->lock */
	{ "rmqueue_bulk", FL_LK_ZONE },
	{ "rmqueue_buddy", FL_LK_ZONE },
	{ "__rmqueue_pcplist", FL_LK_ZONE },
	{ "rmqueue_pcplist", FL_LK_ZONE },
	{ "rmqueue", FL_LK_ZONE },
	{ "free_pcppages_bulk", FL_LK_ZONE },
	{ "free_one_page", FL_LK_ZONE },
	{ "__free_pages_ok", FL_LK_ZONE },
	{ "reserve_highatomic_pageblock", FL_LK_ZONE },
	{ "unreserve_highatomic_pageblock", FL_LK_ZONE },
	/*
	 * lruvec->lru_lock.  DIRECT: these take it themselves (reclaim's big
	 * functions sit above locks that are not theirs).  shrink_lruvec:
	 * inlined shrink_inactive_list (isolate, put back); shrink_node: the
	 * inlined cost snapshot (prepare_scan_control on 6.12); evict_folios,
	 * inc_max_seq, try_to_inc_max_seq: MGLRU eviction and aging (with
	 * aging's mm_list lock); lru_gen_rotate_memcg: the memcg LRU.
	 */
	{ "folio_lruvec_lock", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "folio_lruvec_lock_irq", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "folio_lruvec_lock_irqsave", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "folio_batch_move_lru", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "shrink_active_list", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "shrink_inactive_list", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "shrink_lruvec", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "shrink_node", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "move_folios_to_lru", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "lru_note_cost", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "folio_isolate_lru", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "evict_folios", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "inc_max_seq", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "try_to_inc_max_seq", FL_LK_LRU | PH_RANGE_DIRECT },
	{ "lru_gen_rotate_memcg", FL_LK_LRU | PH_RANGE_DIRECT },
	/* page table locks (split ptlock and mm->page_table_lock) */
	{ "__pte_offset_map_lock", FL_LK_PTL },
	{ "__pte_alloc", FL_LK_PTL },
	{ "__pmd_alloc", FL_LK_PTL },
	{ "do_anonymous_page", FL_LK_PTL },
	{ "do_pte_missing", FL_LK_PTL },
	{ "handle_pte_fault", FL_LK_PTL },
	{ "__handle_mm_fault", FL_LK_PTL },
	{ "do_wp_page", FL_LK_PTL },
	{ "wp_page_copy", FL_LK_PTL },
	{ "finish_fault", FL_LK_PTL },
	{ "do_set_pmd", FL_LK_PTL },
	{ "do_huge_pmd_anonymous_page", FL_LK_PTL },
	{ "__do_huge_pmd_anonymous_page", FL_LK_PTL },
	{ "do_huge_pmd_wp_page", FL_LK_PTL },
	{ "zap_pte_range", FL_LK_PTL },
	{ "zap_pmd_range", FL_LK_PTL },
	{ "unmap_page_range", FL_LK_PTL },
	{ "copy_pte_range", FL_LK_PTL },
	{ "change_pte_range", FL_LK_PTL },
	{ "move_ptes", FL_LK_PTL },
	{ "__split_huge_pmd", FL_LK_PTL },
	{ "filemap_map_pages", FL_LK_PTL },
	{ "do_swap_page", FL_LK_PTL },
	{ "do_numa_page", FL_LK_PTL },
	{ "page_vma_mapped_walk", FL_LK_PTL },
	{ "follow_page_pte", FL_LK_PTL },
	/* memcg */
	{ "try_charge_memcg", FL_LK_MEMCG },
	{ "charge_memcg", FL_LK_MEMCG },
	{ "__mem_cgroup_charge", FL_LK_MEMCG },
	{ "drain_all_stock", FL_LK_MEMCG },
	{ "refill_stock", FL_LK_MEMCG },
	{ "mem_cgroup_handle_over_high", FL_LK_MEMCG },
	{ "lock_page_memcg", FL_LK_MEMCG },
	{ "folio_memcg_lock", FL_LK_MEMCG },
	/*
	 * memcg's OOM (oom_lock), swap accounting (swap_cgroup ctrl->lock) and
	 * statistics flush (cgroup_rstat_lock: for the traced tasks, memcg's
	 * mem_cgroup_flush_stats from reclaim and refault)
	 */
	{ "mem_cgroup_out_of_memory", FL_LK_MEMCG | PH_RANGE_DIRECT },
	{ "swap_cgroup_record", FL_LK_MEMCG | PH_RANGE_DIRECT },
	{ "__cgroup_rstat_lock", FL_LK_MEMCG | PH_RANGE_DIRECT },
	{ "cgroup_rstat_flush*", FL_LK_MEMCG | PH_RANGE_DIRECT },
	/* per-VMA lock writers */
	{ "vma_start_write", FL_LK_VMA },
	{ "__vma_start_write", FL_LK_VMA },
	{ "vms_gather_munmap_vmas", FL_LK_VMA },
};

static bool name_matches(const char *pat, const char *name)
{
	size_t pl = strlen(pat);

	if (pl && pat[pl - 1] == '*')
		return !strncmp(pat, name, pl - 1);
	return fl_ksym_base_len(name) == pl && !strncmp(pat, name, pl);
}

static int range_cmp(const void *a, const void *b)
{
	const struct ph_range *x = a, *y = b;

	return x->fn.start < y->fn.start ? -1 : x->fn.start > y->fn.start;
}

/* Fill the skeleton's ranges; returns how many classified (non-skip) ranges. */
static int set_ranges(struct fl_phases *p, const struct fl_ksyms *k)
{
	struct ph_range r[PH_NR_RANGES];
	unsigned int n = 0, named = 0, skip = 0;
	const size_t nf = sizeof(lock_funcs) / sizeof(lock_funcs[0]);
	_Static_assert(sizeof(lock_funcs) / sizeof(lock_funcs[0]) < 255, "first[] is a byte");
	unsigned char *first;	/* per symbol: 1 + the first lock_funcs entry it matches */
	size_t i, j;

	p->ranges_dropped = 0;
	first = calloc(k->n, 1);
	if (!first)
		return 0;
	/* each entry's candidates by name (a prefix range), not every symbol by every entry */
	for (j = nf; j-- > 0;) {
		const char *pat = lock_funcs[j].name;
		size_t pl = strlen(pat), at, cnt;
		char pre[128];

		snprintf(pre, sizeof(pre), "%.*s", (int)(pl && pat[pl - 1] == '*' ? pl - 1 : pl), pat);
		cnt = fl_ksyms_prefix(k, pre, &at);
		for (size_t c = at; c < at + cnt; c++)
			if (name_matches(pat, k->s[k->by_name[c]].name))
				first[k->by_name[c]] = (unsigned char)(j + 1);
	}
	for (i = 0; i < k->n; i++) {
		unsigned long long end;

		if (!first[i])
			continue;
		j = first[i] - 1;
		end = fl_ksyms_end(k, i);
		if (!end || (n && r[n - 1].fn.start == k->s[i].addr))
			continue;	/* alias of the previous range */
		if (n == PH_NR_RANGES) {	/* said in locks.naming */
			p->ranges_dropped++;
			continue;
		}
		r[n].fn.start = k->s[i].addr;
		r[n].fn.end = end;
		r[n].cls = lock_funcs[j].cls;
		r[n].pad = 0;
		n++;
		if (lock_funcs[j].cls == PH_RANGE_SKIP)
			skip++;
		else
			named++;
	}
	free(first);
	qsort(r, n, sizeof(r[0]), range_cmp);
	memcpy((void *)p->skel->rodata->ranges, r, n * sizeof(r[0]));
	p->skel->rodata->nr_ranges = n;
	p->skel->rodata->text_start = k->stext;
	p->skel->rodata->text_end = k->etext;
	p->skel->rodata->ksym_page_offset_base = k->page_offset_base;
	p->skel->rodata->ksym_vmemmap_base = k->vmemmap_base;
	p->skel->rodata->ksym_vma_lock_cachep = k->vma_lock_cachep;
	(void)skip;
	return named;
}

/* ---- open / load ------------------------------------------------------- */

/*
 * The skeleton's programs as entry/exit pairs.  A pair is loaded when the
 * kernel has its hook, and attached as a unit: if either half fails, neither
 * stays attached (an entry without its exit would leave open phase frames).
 */
enum { K_FENTRY, K_KPROBE, K_TP };
#define PH_CORE		(-1)	/* handle_mm_fault: the fault context itself */
#define PH_CONTENTION	(-2)	/* lock:contention_begin/end */
#define PH_FAULT_TP	(-3)	/* page_fault_user: nothing works without it */
#define PH_OTHER_TP	(-4)
#define PH_RECLAIM	(-5)	/* direct reclaim: context for naming locks */

struct pair {
	struct bpf_program *a, *b;
	struct bpf_program *ra, *rb;	/* run: a, b or their twins *_pg (choose_programs) */
	struct bpf_link **la, **lb;
	const char *hook;	/* function or tracepoint */
	int kind;
	int phase;		/* enum fl_phase or PH_* above */
};

#define PAIR(x, y, hook, kind, phase) \
	{ s->progs.x, s->progs.y, s->progs.x, s->progs.y, &s->links.x, &s->links.y, hook, kind, phase }
#define ONE(x, hook, kind, phase) \
	{ s->progs.x, NULL, s->progs.x, NULL, &s->links.x, NULL, hook, kind, phase }

static size_t get_pairs(struct phases_bpf *s, struct pair *out, size_t max)
{
	const struct pair t[] = {
		ONE(ph_pf_user, "page_fault_user", K_TP, PH_FAULT_TP),
		ONE(ph_pf_kernel, "page_fault_kernel", K_TP, PH_OTHER_TP),
		ONE(ph_fork, "sched_process_fork", K_TP, PH_OTHER_TP),
		ONE(ph_switch, "sched_switch", K_TP, PH_CORE),
		ONE(ph_exit, "sched_process_exit", K_TP, PH_CORE),
		PAIR(ph_cont_begin, ph_cont_end, "contention_begin", K_TP, PH_CONTENTION),
		ONE(ph_fx_hmf, "handle_mm_fault", K_FENTRY, PH_CORE),
		PAIR(ph_fe_lock_vma, ph_fx_lock_vma, "lock_vma_under_rcu", K_FENTRY, FL_PH_LOCKLESS),
		PAIR(ph_mm_start_memcg, ph_mm_acq_memcg, "mmap_lock_start_locking", K_TP, FL_PH_MMAP_WAIT),
		PAIR(ph_mm_start, ph_mm_acq, "mmap_lock_start_locking", K_TP, FL_PH_MMAP_WAIT),
		PAIR(ph_fe_alloc_np, ph_fx_alloc_np, "vma_alloc_folio_noprof", K_FENTRY, FL_PH_ALLOC),
		PAIR(ph_fe_alloc, ph_fx_alloc, "vma_alloc_folio", K_FENTRY, FL_PH_ALLOC),
		PAIR(ph_fe_alloc_pv, ph_fx_alloc_pv, "alloc_pages_vma", K_FENTRY, FL_PH_ALLOC),
		PAIR(ph_kp_zero_pah, ph_krp_zero_pah, "post_alloc_hook", K_KPROBE, FL_PH_ZERO),
		PAIR(ph_kp_zero_erms, ph_krp_zero_erms, "clear_page_erms", K_KPROBE, FL_PH_ZERO),
		PAIR(ph_kp_zero_rep, ph_krp_zero_rep, "clear_page_rep", K_KPROBE, FL_PH_ZERO),
		PAIR(ph_kp_zero_orig, ph_krp_zero_orig, "clear_page_orig", K_KPROBE, FL_PH_ZERO),
		PAIR(ph_fe_zero_fzu, ph_fx_zero_fzu, "folio_zero_user", K_FENTRY, FL_PH_ZERO),
		PAIR(ph_fe_zero_chp, ph_fx_zero_chp, "clear_huge_page", K_FENTRY, FL_PH_ZERO),
		PAIR(ph_fe_zero_kifp, ph_fx_zero_kifp, "kernel_init_free_pages", K_FENTRY,
		     FL_PH_ZERO),
		PAIR(ph_fe_memcg, ph_fx_memcg, "__mem_cgroup_charge", K_FENTRY, FL_PH_MEMCG),
		PAIR(ph_fe_memcg_old, ph_fx_memcg_old, "mem_cgroup_charge", K_FENTRY, FL_PH_MEMCG),
		PAIR(ph_fe_lru_vma, ph_fx_lru_vma, "folio_add_lru_vma", K_FENTRY, FL_PH_LRU),
		PAIR(ph_fe_lru_flush, ph_fx_lru_flush, "folio_batch_move_lru", K_FENTRY, FL_PH_LRU),
		PAIR(ph_fe_lru, ph_fx_lru, "folio_add_lru", K_FENTRY, FL_PH_LRU),
		PAIR(ph_fe_lru_old, ph_fx_lru_old, "lru_cache_add", K_FENTRY, FL_PH_LRU),
		PAIR(ph_fe_do_fault, ph_fx_do_fault, "__do_fault", K_FENTRY, FL_PH_PCACHE),
		PAIR(ph_fe_pc_read_sync, ph_fx_pc_read_sync, "page_cache_sync_ra", K_FENTRY,
		     FL_PH_READ),
		PAIR(ph_fe_pc_read_async, ph_fx_pc_read_async, "page_cache_async_ra", K_FENTRY,
		     FL_PH_READ),
		PAIR(ph_fe_pc_read_order, ph_fx_pc_read_order, "page_cache_ra_order", K_FENTRY,
		     FL_PH_READ),
		PAIR(ph_fe_pc_read_dpcr, ph_fx_pc_read_dpcr, "do_page_cache_ra", K_FENTRY,
		     FL_PH_READ),
		PAIR(ph_fe_pc_read_folio, ph_fx_pc_read_folio, "filemap_read_folio", K_FENTRY,
		     FL_PH_READ),
		PAIR(ph_fe_pc_read_wait, ph_fx_pc_read_wait, "__folio_lock_or_retry", K_FENTRY,
		     FL_PH_READ),
		PAIR(ph_fe_pc_read_wait_lp, ph_fx_pc_read_wait_lp, "__lock_page_or_retry", K_FENTRY,
		     FL_PH_READ),
		PAIR(ph_fe_pc_around, ph_fx_pc_around, "filemap_map_pages", K_FENTRY, FL_PH_AROUND),
		ONE(ph_fe_finish_fault, "finish_fault", K_FENTRY, FL_PH_COPY),
		PAIR(ph_fe_reclaim_memcg, ph_fx_reclaim_memcg, "try_to_free_mem_cgroup_pages",
		     K_FENTRY, PH_RECLAIM),
		PAIR(ph_fe_reclaim, ph_fx_reclaim, "try_to_free_pages", K_FENTRY, PH_RECLAIM),
	};
	size_t n = sizeof(t) / sizeof(t[0]);

	if (n > max)
		n = max;
	memcpy(out, t, n * sizeof(t[0]));
	return n;
}

static bool ksyms_has(const struct fl_ksyms *k, const char *name)
{
	return k && fl_ksyms_lookup(k, name) >= 0;
}

struct load_env {
	const struct btf *btf;
	const struct fl_ksyms *k;
	bool fentry;		/* try the fentry/kprobe phase hooks */
	bool contention;	/* lock:contention_* exist */
	int mmap_memcg;		/* mmap_lock tracepoints: 1 (mm, memcg_path, write..),
				 * 0 (mm, write..), -1 absent (fl_kfeatures) */
	const char *mmap_off;	/* why the mmap_lock tracepoints stay detached, or NULL */
	bool lvur_start;	/* user faults start at lock_vma_under_rcu (no page_fault_user) */
	bool task_storage;	/* else the per-task state is a hash of tids (5.10) */
	long long ll_flag, retry;
	unsigned int pc_layout;	/* preempt_count layout (fl_kfeatures) */
	bool preempt_guard;	/* bodies preemption-disabled (fl_preempt_guard) */
};

/*
 * A phase's older hook is loaded only where the kernel has none of the
 * newer ones (one frame per call, not two nested ones).  LRU insertion is
 * the batch flush that takes lru_lock (one call per 15-31 folios), else
 * folio_add_lru, which folio_add_lru_vma calls; 5.10's names last (its
 * flush, __pagevec_lru_add, is inlined into lru_cache_add).
 */
static const struct {
	const char *hook, *newer;
} superseded[] = {
	{ "folio_add_lru", "folio_batch_move_lru" },
	{ "folio_add_lru_vma", "folio_batch_move_lru" },
	{ "folio_add_lru_vma", "folio_add_lru" },
	{ "lru_cache_add", "folio_batch_move_lru" },
	{ "lru_cache_add", "folio_add_lru" },
	{ "alloc_pages_vma", "vma_alloc_folio" },
	{ "alloc_pages_vma", "vma_alloc_folio_noprof" },
	{ "mem_cgroup_charge", "__mem_cgroup_charge" },
	{ "__lock_page_or_retry", "__folio_lock_or_retry" },
	/*
	 * a major fault's mmap read-around: 5.10's ra_submit; 5.18+ calls
	 * page_cache_ra_order, which calls do_page_cache_ra (in 7.3's BTF)
	 */
	{ "do_page_cache_ra", "page_cache_ra_order" },
	/* 5.10 zeroes in kernel_init_free_pages, not in post_alloc_hook */
	{ "post_alloc_hook", "kernel_init_free_pages" },
	{ "clear_page_erms", "kernel_init_free_pages" },
	{ "clear_page_rep", "kernel_init_free_pages" },
	{ "clear_page_orig", "kernel_init_free_pages" },
};

/* The newer hook this kernel has in HOOK's place, or NULL. */
static const char *superseded_by(const struct btf *btf, const char *hook)
{
	for (size_t i = 0; i < sizeof(superseded) / sizeof(superseded[0]); i++)
		if (!strcmp(superseded[i].hook, hook) && fl_btf_has_func(btf, superseded[i].newer))
			return superseded[i].newer;
	return NULL;
}

static bool hook_superseded(const struct btf *btf, const char *hook)
{
	return superseded_by(btf, hook) != NULL;
}

static bool pair_wanted(const struct fl_phases *p, const struct load_env *e,
			const struct pair *q)
{
	struct phases_bpf *s = p->skel;

	switch (q->kind) {
	case K_FENTRY:
		return e->fentry && fl_btf_has_func(e->btf, q->hook) &&
		       !hook_superseded(e->btf, q->hook);
	case K_KPROBE:
		return e->fentry && p->want_phases && ksyms_has(e->k, q->hook) &&
		       !hook_superseded(e->btf, q->hook);
	}
	/* fault entry: only the phase tier uses it (the fault's start time) */
	if (q->a == s->progs.ph_pf_user)
		return e->fentry && !e->lvur_start;
	if (q->a == s->progs.ph_pf_kernel)
		return e->fentry && fl_btf_tp_nargs(e->btf, q->hook) >= 0;
	if (q->a == s->progs.ph_fork)
		return fl_tgid_filter_follower(p->tgids, "phases");
	/* the per-CPU fault slots follow their tasks across switches */
	if (q->a == s->progs.ph_switch)
		return e->fentry;
	/* the tid hash (no task-local storage) is emptied at exit */
	if (q->a == s->progs.ph_exit)
		return !e->task_storage;
	if (q->phase == PH_CONTENTION)
		return e->contention;
	if (q->a == s->progs.ph_mm_start_memcg)
		return e->fentry && p->want_phases && e->mmap_memcg == 1 && !e->mmap_off;
	if (q->a == s->progs.ph_mm_start)
		return e->fentry && p->want_phases && e->mmap_memcg == 0;
	return false;
}

static int attach_pair(struct pair *q, char *why, size_t whylen)
{
	*q->la = bpf_program__attach(q->ra);
	if (!*q->la)
		goto fail;
	if (!q->rb)
		return 0;
	*q->lb = bpf_program__attach(q->rb);
	if (*q->lb)
		return 0;
fail:
	fl_fail(why, whylen, "attach %s: %s", q->hook, strerror(errno));
	bpf_link__destroy(*q->la);
	*q->la = NULL;
	if (q->lb)
		*q->lb = NULL;
	return -1;
}

/* Which phases this load sees, with a reason for each one it does not. */
static void note_phase(struct fl_phases *p, unsigned int ph, const char *why)
{
	if (!p->phase_unavail[ph][0])
		snprintf(p->phase_unavail[ph], sizeof(p->phase_unavail[ph]), "%s", why);
}

/* The object opened and configured, not loaded: 0 or -1 (the reason in WHY). */
static int open_skel(struct fl_phases *p, const struct fl_phases_opts *o,
		     const struct load_env *e, char *why, size_t whylen)
{
	p->skel = phases_bpf__open();
	if (!p->skel)
		return fl_fail(why, whylen, "cannot open the BPF object: %s", strerror(errno));
	p->skel->rodata->filter_tgid = o->tgids != NULL;
	p->skel->rodata->do_phases = e->fentry && o->phases;
	p->skel->rodata->do_locks = e->contention && o->locks;
	p->skel->rodata->all_callers = p->all_callers;
	p->skel->rodata->ll_flag = e->ll_flag > 0 ? (__u32)e->ll_flag : 0;
	p->skel->rodata->vm_fault_retry = e->retry > 0 ? (__u32)e->retry : 0x400;
	FL_INTASK_SET(p->skel->rodata, e->pc_layout);
	if (!e->task_storage) {
		p->skel->rodata->task_btf = false;
		if (fl_bpf_tstore_hash(p->skel->maps.ptask))
			return fl_fail(why, whylen, "cannot make the per-task state a hash");
	}
	if (e->k)
		set_ranges(p, e->k);
	return fl_tgid_filter_use(o->tgids, p->skel->maps.fl_tgids, why, whylen);
}

/* PROG's preemption-guarded twin (phases.bpf.c PH_TWINS), else PROG. */
static struct bpf_program *twin(struct bpf_object *obj, struct bpf_program *prog)
{
	char name[128];
	struct bpf_program *pg;

	if (!prog)
		return NULL;
	snprintf(name, sizeof(name), "%s_pg", bpf_program__name(prog));
	pg = bpf_object__find_program_by_name(obj, name);
	return pg ? pg : prog;
}

/*
 * Only the wanted pairs' programs are loaded: the *_pg twins where the
 * guard is on (fl_preempt_guard).  The links go to the plain programs'
 * skeleton slots either way (destroyed with the skeleton).
 */
static void choose_programs(struct fl_phases *p, const struct load_env *e,
			    struct pair *pr, size_t n)
{
	struct bpf_program *prog;
	size_t i;

	bpf_object__for_each_program(prog, p->skel->obj)
		bpf_program__set_autoload(prog, false);
	for (i = 0; i < n; i++) {
		bool on = pair_wanted(p, e, &pr[i]);

		if (e->preempt_guard) {
			pr[i].ra = twin(p->skel->obj, pr[i].a);
			pr[i].rb = twin(p->skel->obj, pr[i].b);
		}
		bpf_program__set_autoload(pr[i].ra, on);
		if (pr[i].rb)
			bpf_program__set_autoload(pr[i].rb, on);
	}
}

/* What attach_all found. */
struct attached {
	bool got[FL_PH_NR];
	bool contention_ok;
	bool zero0;		/* base-page zeroing hooked (a kprobe; 5.10: fentry) */
	unsigned int reclaim, reclaim_want;
	char perr[FL_PH_NR][96];	/* why a phase's hook did not attach */
};

/* Attach the loaded pairs: 0, or -1 when one the load cannot go without fails. */
static int attach_all(struct fl_phases *p, const struct load_env *e, struct pair *pr,
		      size_t n, struct attached *at, char *why, size_t whylen)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char aerr[96];

		if (!bpf_program__autoload(pr[i].ra))
			continue;
		if (pr[i].phase == PH_RECLAIM)
			at->reclaim_want++;
		if (attach_pair(&pr[i], aerr, sizeof(aerr)) == 0) {
			if (pr[i].phase == PH_RECLAIM)
				at->reclaim++;
			if (pr[i].phase >= 0)
				at->got[pr[i].phase] = true;
			if (pr[i].phase == PH_CONTENTION)
				at->contention_ok = true;
			if (pr[i].phase == FL_PH_ZERO && pr[i].a != p->skel->progs.ph_fe_zero_fzu &&
			    pr[i].a != p->skel->progs.ph_fe_zero_chp)
				at->zero0 = true;	/* not the huge-page ones */
			continue;
		}
		if (pr[i].phase == PH_CORE || pr[i].phase == PH_FAULT_TP ||
		    (e->lvur_start && pr[i].a == p->skel->progs.ph_fe_lock_vma))
			return fl_fail(why, whylen, "%s", aerr);
		if (pr[i].phase >= 0)
			snprintf(at->perr[pr[i].phase], sizeof(at->perr[0]), "%s", aerr);
		if (pr[i].phase == PH_CONTENTION)
			snprintf(p->locks_why, sizeof(p->locks_why), "%s", aerr);
	}
	return 0;
}

/*
 * No base-page zeroing hook (post_alloc_hook not traceable, clear_page_*
 * gone or inlined).  Where the kernel zeroes user pages in the allocator
 * (6.13+ with init_on_alloc: init_on_alloc.h), folio_zero_user() is never
 * called and every clear is inside alloc: zero would read 0, so it is
 * unavailable.  Elsewhere the huge-page hook still times the 2 MiB clears.
 */
static void note_zero(struct fl_phases *p, const struct attached *at)
{
	char src[160];
	int in_alloc = fl_alloc_zeroes_user_pages(src, sizeof(src));

	if (in_alloc > 0)
		note_phase(p, FL_PH_ZERO, "the allocator zeroes (init_on_alloc), inside alloc: "
			   "post_alloc_hook not traceable here");
	else if (in_alloc < 0 && at->got[FL_PH_ZERO])
		snprintf(p->notes, sizeof(p->notes), "zero: %s; where it is on, this kernel "
			 "zeroes user pages in the allocator, counted in alloc", src);
	else if (at->got[FL_PH_ZERO])
		snprintf(p->notes, sizeof(p->notes), "zero: huge pages only; base-page zeroing "
			 "(post_alloc_hook, not traceable on this kernel) is counted in alloc");
}

/* fentry: a reason for every phase this load does not see. */
static void note_unseen(struct fl_phases *p, const struct load_env *e, struct attached *at)
{
	size_t i;

	at->got[FL_PH_REST] = true;
	at->got[FL_PH_PTL] = at->contention_ok;
	p->notes[0] = 0;
	if (!at->zero0)
		note_zero(p, at);
	/* the copy is timed from __do_fault's return to finish_fault */
	if (at->got[FL_PH_COPY] && !at->got[FL_PH_PCACHE]) {
		at->got[FL_PH_COPY] = false;
		note_phase(p, FL_PH_COPY, at->perr[FL_PH_PCACHE][0] ? at->perr[FL_PH_PCACHE] :
			   "no __do_fault hook (its return starts the copy)");
	}
	if (!fl_btf_has_func(e->btf, "lock_vma_under_rcu"))
		note_phase(p, FL_PH_LOCKLESS, "no lockless fault path (lock_vma_under_rcu) in this kernel");
	if (e->mmap_memcg < 0)
		note_phase(p, FL_PH_MMAP_WAIT, "no mmap_lock tracepoints");
	else if (e->mmap_off)
		note_phase(p, FL_PH_MMAP_WAIT, e->mmap_off);
	if (!e->contention)
		note_phase(p, FL_PH_PTL, "no lock:contention tracepoints (5.19+)");
	for (i = 0; i < FL_PH_NR; i++) {
		if (at->got[i])
			continue;
		note_phase(p, i, at->perr[i][0] ? at->perr[i] : "no traceable hook in this kernel");
	}
}

static int try_load(struct fl_phases *p, const struct fl_phases_opts *o,
		    const struct load_env *e, char *why, size_t whylen)
{
	struct attached at;
	struct pair pr[48];	/* get_pairs() truncates to it: room to grow */
	size_t n;
	int err;

	memset(&at, 0, sizeof(at));
	memset(p->phase_unavail, 0, sizeof(p->phase_unavail));
	if (open_skel(p, o, e, why, whylen))
		goto out;
	n = get_pairs(p->skel, pr, sizeof(pr) / sizeof(pr[0]));
	choose_programs(p, e, pr, n);
	err = phases_bpf__load(p->skel);
	if (err) {
		fl_fail(why, whylen, "%s programs refused by this kernel (load: %s)",
		     e->fentry ? "fentry" : "tracepoint", strerror(-err));
		goto out;
	}
	if (attach_all(p, e, pr, n, &at, why, whylen))
		goto out;
	p->contention_ok = at.contention_ok;
	/* both or the naming would depend on which reclaim ran */
	p->reclaim_ok = at.reclaim && at.reclaim == at.reclaim_want;
	if (e->fentry)
		note_unseen(p, e, &at);
	return 0;
out:
	phases_bpf__destroy(p->skel);
	p->skel = NULL;
	return -1;
}

static void describe(struct fl_phases *p)
{
	size_t off = 0;
	unsigned int ph;
	bool first = true;

	if (!p->want_phases)
		off += snprintf(p->desc + off, sizeof(p->desc) - off, "phases: not requested");
	else if (!p->phases_on)
		off += snprintf(p->desc + off, sizeof(p->desc) - off, "phases: unavailable (%s)",
				p->phases_why);
	else {
		off += snprintf(p->desc + off, sizeof(p->desc) - off, "phases: fentry");
		for (ph = 0; ph < FL_PH_NR && off < sizeof(p->desc); ph++) {
			if (!p->phase_unavail[ph][0])
				continue;
			off += snprintf(p->desc + off, sizeof(p->desc) - off, "%s%s",
					first ? " (unavailable: " : ", ", fl_phase_name(ph));
			first = false;
		}
		if (!first && off < sizeof(p->desc))
			off += snprintf(p->desc + off, sizeof(p->desc) - off, ")");
	}
	if (off >= sizeof(p->desc))
		return;
	if (!p->want_locks)
		snprintf(p->desc + off, sizeof(p->desc) - off, ", locks: not requested");
	else if (!p->locks_on)
		snprintf(p->desc + off, sizeof(p->desc) - off, ", locks: unavailable (%s)",
			 p->locks_why);
	else
		snprintf(p->desc + off, sizeof(p->desc) - off, ", locks: tracepoint (%s)",
			 p->naming);
}

struct fl_phases *fl_phases_start(const struct fl_phases_opts *o, char *err, size_t errlen)
{
	struct load_env env = {0};
	struct fl_kfeatures kf;
	struct fl_phases *p;
	const struct fl_ksyms *k;
	bool have_k, have_fentry;
	int n;
	char why[160] = "", kerr[160] = "";

	if (!o || (!o->phases && !o->locks)) {
		fl_fail(err, errlen, "phases: nothing requested (--phases and/or --locks)");
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		fl_fail(err, errlen, "out of memory");
		return NULL;
	}
	p->want_phases = o->phases;
	p->want_locks = o->locks;
	/* test knob for `record`, which has no option for it (see phases.h) */
	p->all_callers = o->all_callers ||
			 (getenv("FAULTLINE_LOCK_CALLERS") &&
			  !strcmp(getenv("FAULTLINE_LOCK_CALLERS"), "all"));
	p->tgids = o->tgids;
	n = libbpf_num_possible_cpus();
	p->nr_cpus = n > 0 ? (unsigned int)n : 0;

	if (!o->btf) {
		snprintf(p->phases_why, sizeof(p->phases_why), "no kernel BTF");
		snprintf(p->locks_why, sizeof(p->locks_why), "no kernel BTF");
		describe(p);
		return p;
	}
	fl_kfeatures_from_btf(&kf, o->btf);
	env.btf = o->btf;
	env.contention = kf.tp_contention;
	env.mmap_memcg = kf.mmap_memcg;
	if (fl_mmap_lock_off(&kf, o->mmap_lock))
		env.mmap_off = "off by default: its tracepoints build a memcg path per event here "
			       "(record --mmap-lock)";
	env.ll_flag = kf.flag_vma_lock;
	env.retry = kf.vm_fault_retry;
	have_fentry = kf.has_hmf;
	/* every user fault calls it first (x86 do_user_addr_fault, 6.4+) */
	env.lvur_start = kf.has_lock_vma;
	env.task_storage = kf.task_storage;
	env.pc_layout = kf.pc_layout;
	env.preempt_guard = fl_preempt_guard(&kf, NULL);
	k = fl_ksyms_get(kerr, sizeof(kerr));
	have_k = k != NULL;
	env.k = k;

	/*
	 * The fentry/kprobe fault hooks cost on every fault: only with --phases.
	 * --locks alone is the contention tracepoints (slow path only) and
	 * names locks by address and stack, without the phase context.
	 */
	env.fentry = true;
	if (o->phases && have_fentry && try_load(p, o, &env, why, sizeof(why)) == 0) {
		p->phases_on = true;
		p->fentry_loaded = true;
	} else {
		if (o->phases)
			snprintf(p->phases_why, sizeof(p->phases_why), "%s",
				 have_fentry ? why : "handle_mm_fault not in kernel BTF");
		/* tracepoints only: lock classes without the fault-phase context */
		env.fentry = false;
		if (o->locks && env.contention && try_load(p, o, &env, why, sizeof(why)))
			snprintf(p->locks_why, sizeof(p->locks_why), "%s", why);
	}
	if (!p->skel)
		fl_tgid_filter_unfollow(o->tgids, "phases");
	if (p->skel && o->locks && p->contention_ok) {
		p->locks_on = true;
		/*
		 * 6.15+: a VMA is locked by vm_refcnt, not a lock; a reader that
		 * misses aborts to mmap_lock (the lockless figures count it), a
		 * writer waits on mm->vma_writer_wait, an rcuwait: neither is a
		 * lock:contention_begin event, so the class cannot be seen.
		 */
		if (kf.vma_refcnt)
			p->vma_unavail = "a vm_refcnt kernel (6.15+): VMA locks are a reference "
					 "count, and a writer waits on mm->vma_writer_wait, which "
					 "lock:contention_begin does not report";
		snprintf(p->naming, sizeof(p->naming), "address%s%s%s",
			 have_k && k->vma_lock_cachep && k->page_offset_base && k->vmemmap_base ?
			 "+vma_slab" : "", have_k ? "+stack" : "",
			 !p->fentry_loaded ? "" : p->reclaim_ok ? "+phase+reclaim" :
			 "+phase");
		if (!have_k)
			snprintf(p->naming + strlen(p->naming), sizeof(p->naming) - strlen(p->naming),
				 "; stack naming unavailable: %s", kerr);
		else if (p->ranges_dropped)
			snprintf(p->naming + strlen(p->naming), sizeof(p->naming) - strlen(p->naming),
				 "; stack naming partial: %u functions beyond the %d-range table",
				 p->ranges_dropped, PH_NR_RANGES);
	} else if (o->locks && !p->locks_why[0]) {
		snprintf(p->locks_why, sizeof(p->locks_why), "%s",
			 env.contention ? "contention tracepoints not attached"
					: "no lock:contention tracepoints (5.19+)");
	}
	describe(p);
	return p;
}

const char *fl_phases_describe(const struct fl_phases *p)
{
	return p->desc;
}

void fl_phases_stop(struct fl_phases *p)
{
	if (!p)
		return;
	if (p->skel)
		phases_bpf__destroy(p->skel);
	free(p);
}

/* ---- read ---------------------------------------------------------------- */

static void drop_sections(struct fl_snapshot *s)
{
	unsigned int i, j = 0;

	for (i = 0; i < s->nr_extra; i++) {
		unsigned int t = s->extra[i].sec.type;

		if (t == FL_SEC_PHASES || t == FL_SEC_LOCKS || t == FL_SEC_LOCK_CALLERS) {
			free(s->extra[i].data);
			continue;
		}
		s->extra[j++] = s->extra[i];
	}
	s->nr_extra = j;
}

/* Append a section; takes ownership of data. */
static int add_section(struct fl_snapshot *s, unsigned int type, unsigned int count,
		       void *data, size_t size)
{
	int ret = fl_snapshot_add_section(s, type, count, data, size);

	free(data);
	return ret;
}

static int read_percpu(int fd, void *out, char *err, size_t errlen)
{
	__u32 key = 0;

	if (bpf_map_lookup_elem(fd, &key, out))
		return fl_fail(err, errlen, "phases: read per-CPU map: %s", strerror(errno));
	return 0;
}

static int caller_cmp(const void *a, const void *b)
{
	const struct fl_lock_caller *x = a, *y = b;

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	return strcmp(x->sym, y->sym);
}

/* "other" callers: summed over CPUs, symbolised, merged per function, top N. */
static int read_callers(struct fl_phases *p, struct fl_snapshot *s, char *err, size_t errlen)
{
	struct ph_caller_val *vals = calloc(p->nr_cpus, sizeof(*vals));
	struct fl_lock_caller *c = NULL, *top;
	struct ph_caller_key key, next, *kp = NULL;
	unsigned int nc = 0, cap = 0, i, j;
	int fd = bpf_map__fd(p->skel->maps.callers);
	const struct fl_ksyms *k;
	bool have_k;
	char kerr[160];

	if (!vals)
		return fl_fail(err, errlen, "out of memory");
	k = fl_ksyms_get(kerr, sizeof(kerr));
	have_k = k != NULL;
	while (bpf_map_get_next_key(fd, kp, &next) == 0) {
		struct fl_lock_caller one = {0};
		long idx;

		key = next;
		kp = &key;
		if (bpf_map_lookup_elem(fd, &key, vals))
			continue;
		for (i = 0; i < p->nr_cpus; i++) {
			one.count += vals[i].count;
			one.wait_ns += vals[i].wait_ns;
		}
		idx = have_k && key.ip ? fl_ksyms_find(k, key.ip) : -1;
		if (idx >= 0)
			snprintf(one.sym, sizeof(one.sym), "%.*s", (int)fl_ksym_base_len(k->s[idx].name),
				 k->s[idx].name);
		else if (key.ip)
			snprintf(one.sym, sizeof(one.sym), "0x%llx", (unsigned long long)key.ip);
		else
			snprintf(one.sym, sizeof(one.sym), "(unknown)");
		for (j = 0; j < nc; j++)
			if (!strcmp(c[j].sym, one.sym))
				break;
		if (j < nc) {
			c[j].count += one.count;
			c[j].wait_ns += one.wait_ns;
			continue;
		}
		if (nc == cap) {
			cap = cap ? cap * 2 : 64;
			top = realloc(c, cap * sizeof(*c));
			if (!top) {
				free(c);
				free(vals);
				return fl_fail(err, errlen, "out of memory");
			}
			c = top;
		}
		c[nc++] = one;
	}
	free(vals);
	if (nc > 1)
		qsort(c, nc, sizeof(*c), caller_cmp);
	if (nc > PH_TOP_CALLERS)
		nc = PH_TOP_CALLERS;
	if (!nc) {
		free(c);
		c = NULL;
	}
	if (add_section(s, FL_SEC_LOCK_CALLERS, nc, c, nc * sizeof(*c)))
		return fl_fail(err, errlen, "out of memory");
	return 0;
}

static int set_tags(struct fl_phases *p, struct fl_snapshot *s)
{
	char buf[1024];
	size_t off = 0;
	unsigned int ph;
	struct ph_cpu *pc;
	fl_u64 m[PH_M_NR] = {0};
	int rc = 0;

	if (p->want_phases) {
		if (p->phases_on)
			rc |= fl_snapshot_set_tag(s, FL_TAG_PHASES, "fentry");
		else {
			snprintf(buf, sizeof(buf), "unavailable (%s)", p->phases_why);
			rc |= fl_snapshot_set_tag(s, FL_TAG_PHASES, buf);
		}
		buf[0] = 0;
		for (ph = 0; p->phases_on && ph < FL_PH_NR; ph++) {
			if (!p->phase_unavail[ph][0] || off >= sizeof(buf))
				continue;
			off += snprintf(buf + off, sizeof(buf) - off, "%s%s (%s)", off ? "; " : "",
					fl_phase_name(ph), p->phase_unavail[ph]);
		}
		if (off)
			rc |= fl_snapshot_set_tag(s, FL_TAG_PHASES_UNAVAILABLE, buf);
		if (p->phases_on && p->notes[0])
			rc |= fl_snapshot_set_tag(s, FL_TAG_PHASES_NOTES, p->notes);
	}
	if (p->want_locks) {
		if (p->locks_on) {
			rc |= fl_snapshot_set_tag(s, FL_TAG_LOCKS, "tracepoint");
			rc |= fl_snapshot_set_tag(s, FL_TAG_LOCKS_NAMING, p->naming);
			if (p->vma_unavail) {
				snprintf(buf, sizeof(buf), "vma (%s)", p->vma_unavail);
				rc |= fl_snapshot_set_tag(s, FL_TAG_LOCKS_UNAVAILABLE, buf);
			}
			if (p->all_callers)
				rc |= fl_snapshot_set_tag(s, FL_TAG_LOCKS_CALLERS, "all");
		} else {
			snprintf(buf, sizeof(buf), "unavailable (%s)", p->locks_why);
			rc |= fl_snapshot_set_tag(s, FL_TAG_LOCKS, buf);
		}
	}
	if (p->skel) {
		pc = calloc(p->nr_cpus, sizeof(*pc));
		if (pc && !read_percpu(bpf_map__fd(p->skel->maps.pcpu), pc, NULL, 0)) {
			for (unsigned int c = 0; c < p->nr_cpus; c++)
				for (unsigned int i = 0; i < PH_M_NR; i++)
					m[i] += pc[c].misc[i];
			snprintf(buf, sizeof(buf),
				 "unpaired:%llu depth:%llu nostate:%llu callers_full:%llu abandoned:%llu "
				 "lost:%llu",
				 m[PH_M_UNPAIRED], m[PH_M_DEPTH], m[PH_M_NOSTATE],
				 m[PH_M_CALLERS_FULL], m[PH_M_ABANDONED], m[PH_M_LOST]);
			rc |= fl_snapshot_set_tag(s, FL_TAG_PHASES_EVENTS, buf);
		}
		free(pc);
	}
	return rc ? -1 : 0;
}

int fl_phases_tag_runs(struct fl_phases *p, struct fl_snapshot *s)
{
	return fl_bpf_tag_runs(p->skel->obj, p->runs, s);
}

/*
 * What the phases skeleton's skipped runs lose (fl_bpf_tag_lost): a phase's
 * entry or exit, the fault start or end that frames the phases, or a lock
 * wait of the lock-class figures.
 */
static const struct fl_lost_fig ph_lost_figs[] = {
	{ "phases", "ph_fe_* ph_fx_* ph_kp_* ph_krp_* ph_pf_* ph_switch" },
	{ "lock_waits", "ph_cont_* ph_mm_*" },
};

int fl_phases_read(struct fl_phases *p, struct fl_snapshot *s, char *err, size_t errlen)
{
	void *buf;
	size_t sz;

	drop_sections(s);
	if (p->phases_on) {
		struct fl_phase_stats *ps;
		struct ph_cpu *pc;

		sz = (size_t)p->nr_cpus * sizeof(*ps);
		ps = malloc(sz);
		pc = calloc(p->nr_cpus, sizeof(*pc));
		if (!ps || !pc) {
			free(ps);
			free(pc);
			return fl_fail(err, errlen, "out of memory");
		}
		if (read_percpu(bpf_map__fd(p->skel->maps.pcpu), pc, err, errlen)) {
			free(ps);
			free(pc);
			return -1;
		}
		for (unsigned int c = 0; c < p->nr_cpus; c++)
			ps[c] = pc[c].ps;
		free(pc);
		if (add_section(s, FL_SEC_PHASES, p->nr_cpus, ps, sz))
			return fl_fail(err, errlen, "out of memory");
	}
	if (p->locks_on) {
		sz = (size_t)p->nr_cpus * sizeof(struct fl_lock_stats);
		buf = malloc(sz);
		if (!buf)
			return fl_fail(err, errlen, "out of memory");
		if (read_percpu(bpf_map__fd(p->skel->maps.lstats), buf, err, errlen)) {
			free(buf);
			return -1;
		}
		if (add_section(s, FL_SEC_LOCKS, p->nr_cpus, buf, sz))
			return fl_fail(err, errlen, "out of memory");
		if (read_callers(p, s, err, errlen))
			return -1;
	}
	if (set_tags(p, s))
		return fl_fail(err, errlen, "phases: cannot set snapshot tags");
	if (p->skel && fl_bpf_tag_lost(p->skel->obj, "phases", ph_lost_figs,
				       sizeof(ph_lost_figs) / sizeof(ph_lost_figs[0]), s))
		return fl_fail(err, errlen, "phases: cannot set snapshot tags");
	return 0;
}

/*
 * probe: each phase's function hooks as this kernel has them (BTF for
 * fentry, kallsyms for kprobes): used, absent, or superseded by a newer
 * one.  The hooks come from the same table record --phases attaches.
 */
void fl_phases_probe(FILE *out, const struct btf *btf)
{
	struct phases_bpf *s = phases_bpf__open();
	const struct fl_ksyms *k = fl_ksyms_get(NULL, 0);
	struct pair pr[48];
	size_t n;

	if (!s || !btf) {
		fprintf(out, "  unavailable (%s)\n", !btf ? "no kernel BTF" : "cannot open the BPF object");
		phases_bpf__destroy(s);
		return;
	}
	n = get_pairs(s, pr, sizeof(pr) / sizeof(pr[0]));
	for (int ph = 0; ph < FL_PH_NR; ph++) {
		bool any = false;

		for (size_t i = 0; i < n; i++) {
			const struct pair *q = &pr[i];
			const char *newer, *kind = q->kind == K_KPROBE ? "kprobe" : "fentry";
			bool have;

			if (q->phase != ph || (q->kind != K_FENTRY && q->kind != K_KPROBE))
				continue;
			have = q->kind == K_KPROBE ? ksyms_has(k, q->hook) : fl_btf_has_func(btf, q->hook);
			newer = have ? superseded_by(btf, q->hook) : NULL;
			fprintf(out, "  %-10s %-28s %s %s%s\n", any ? "" : fl_phase_name(ph), q->hook,
				kind, !have ? "absent" : newer ? "superseded by " : "used",
				newer ? newer : "");
			any = true;
		}
		if (ph == FL_PH_ZERO) {
			char src[192];
			int z = fl_alloc_zeroes_user_pages(src, sizeof(src));

			fprintf(out, "  %-10s user pages zeroed in the allocator: %s (%s)\n", "",
				z > 0 ? "yes" : z == 0 ? "no" : "unknown", src);
		}
	}
	phases_bpf__destroy(s);
}
