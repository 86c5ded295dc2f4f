// SPDX-License-Identifier: GPL-2.0
/* Figure availability, number formatting and the summary block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_common.h"
#include "selfcost.h"

#define HOOK(h) (1ULL << (h))

static int live(const struct fl_snapshot *s, unsigned long long hooks)
{
	return (s->hdr.hooks_live & hooks) == hooks;
}

static int absent(const struct fl_snapshot *s, unsigned long long hooks)
{
	return (s->hdr.hooks_absent & hooks) != 0;
}

static const char *no_hmf_why(const struct fl_snapshot *s)
{
	if (absent(s, HOOK(FL_HOOK_HMF)) && absent(s, HOOK(FL_HOOK_DO_HMF)))
		return "the kernel has no handle_mm_fault symbol to hook";
	if (s->hdr.tier == FL_TIER_TRACEPOINT)
		return "tracepoint tier: no handle_mm_fault hook";
	return "the handle_mm_fault hook was not live";
}

enum fl_avail fl_figure_avail(const struct fl_snapshot *s, enum fl_figure fig,
			      const char **why)
{
	int hmf = live(s, HOOK(FL_HOOK_HMF)) || live(s, HOOK(FL_HOOK_DO_HMF));

	*why = NULL;
	switch (fig) {
	case FL_FIG_FAULTS:
		if (live(s, HOOK(FL_HOOK_PF_USER)))
			return FL_AVAIL_YES;
		*why = absent(s, HOOK(FL_HOOK_PF_USER)) ?
			"the kernel has no exceptions:page_fault_user tracepoint" :
			"the page_fault_user hook was not live";
		return FL_AVAIL_UNAVAILABLE;
	case FL_FIG_LATENCY:
		if (hmf && live(s, HOOK(FL_HOOK_PF_USER)))
			return FL_AVAIL_YES;
		*why = hmf ? "no fault entry hook (page_fault_user)" : no_hmf_why(s);
		return FL_AVAIL_UNAVAILABLE;
	case FL_FIG_HMF_TIME:
		if (hmf && (*why = fl_snapshot_tag(s, FL_TAG_HMF_OFF)))
			return FL_AVAIL_UNAVAILABLE;
		/* fall through */
	case FL_FIG_HMF:
		if (hmf)
			return FL_AVAIL_YES;
		*why = no_hmf_why(s);
		return FL_AVAIL_UNAVAILABLE;
	case FL_FIG_LOCKLESS:
		switch (s->hdr.lockless_kind) {
		case FL_LL_KIND_NONE:
			*why = "this kernel has no lockless fault path (no per-VMA locks, no SPF)";
			return FL_AVAIL_ABSENT;
		case FL_LL_KIND_VMA_LOCK:
			if (live(s, HOOK(FL_HOOK_LOCK_VMA)) && live(s, HOOK(FL_HOOK_HMF)) &&
			    live(s, HOOK(FL_HOOK_PF_USER)))
				return FL_AVAIL_YES;
			*why = s->hdr.tier == FL_TIER_TRACEPOINT ?
				"tracepoint tier: needs lock_vma_under_rcu and handle_mm_fault hooks" :
				"the lock_vma_under_rcu / handle_mm_fault hooks were not live";
			return FL_AVAIL_UNAVAILABLE;
		case FL_LL_KIND_SPF:
			if (live(s, HOOK(FL_HOOK_DO_HMF)) && live(s, HOOK(FL_HOOK_PF_USER)))
				return FL_AVAIL_YES;
			*why = s->hdr.tier == FL_TIER_TRACEPOINT ?
				"tracepoint tier: needs the SPF entry point hooked" :
				"the SPF entry point hook was not live";
			return FL_AVAIL_UNAVAILABLE;
		default:
			*why = "the kernel has a lockless fault path faultline cannot hook";
			return FL_AVAIL_UNAVAILABLE;
		}
	case FL_FIG_LL_WHY: {
		enum fl_avail a = fl_figure_avail(s, FL_FIG_LOCKLESS, why);

		if (a != FL_AVAIL_YES)
			return a;
		if (s->hdr.lockless_kind != FL_LL_KIND_VMA_LOCK) {
			*why = "abort reasons are read on per-VMA-lock kernels only";
			return FL_AVAIL_UNAVAILABLE;
		}
		if (s->hdr.flags & FL_SNAP_F_LL_WHY)
			return FL_AVAIL_YES;
		*why = s->hdr.tier == FL_TIER_KPROBE && s->hdr.backend == FL_BACKEND_BPF ?
			"kprobe tier: the kretprobe has no arguments to read the VMA from" :
			"this recording did not read the VMA at aborts (older faultline, or no vm_lock_seq in BTF)";
		return FL_AVAIL_UNAVAILABLE;
	}
	case FL_FIG_MMAP:
		if (live(s, HOOK(FL_HOOK_MMAP_START) | HOOK(FL_HOOK_MMAP_ACQUIRED) |
			 HOOK(FL_HOOK_MMAP_RELEASED)))
			return FL_AVAIL_YES;
		if ((*why = fl_snapshot_tag(s, FL_TAG_MMAP_LOCK_OFF)))
			return FL_AVAIL_UNAVAILABLE;
		*why = absent(s, HOOK(FL_HOOK_MMAP_START)) ?
			"the kernel has no mmap_lock tracepoints (5.11+)" :
			"the mmap_lock tracepoints were not live";
		return FL_AVAIL_UNAVAILABLE;
	case FL_FIG_CONTENTION:
		if (live(s, HOOK(FL_HOOK_CONTENTION_BEGIN) | HOOK(FL_HOOK_CONTENTION_END)))
			return FL_AVAIL_YES;
		*why = absent(s, HOOK(FL_HOOK_CONTENTION_BEGIN)) ?
			"the kernel has no lock:contention_begin/end tracepoints (5.19+)" :
			"the lock:contention tracepoints were not live";
		return FL_AVAIL_UNAVAILABLE;
	case FL_FIG_VMSTAT:
		if (s->nr_vmstat)
			return FL_AVAIL_YES;
		*why = "no /proc/vmstat counters in this snapshot";
		return FL_AVAIL_UNAVAILABLE;
	default:
		*why = "unknown figure";
		return FL_AVAIL_UNAVAILABLE;
	}
}

void fl_fmt_unavail(char *buf, size_t len, enum fl_avail a, const char *why)
{
	snprintf(buf, len, "%s (%s)", a == FL_AVAIL_ABSENT ? "absent" : "unavailable",
		 why ? why : "?");
}

void fl_fmt_ns(char *buf, size_t len, unsigned long long ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.2fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
}

void fl_fmt_pct_of(char *buf, size_t len, unsigned long long part, unsigned long long whole)
{
	if (!whole)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f%%", 100.0 * part / whole);
}

void fl_fmt_hist_range(char *buf, size_t len, unsigned long long lo, unsigned long long hi,
		       int width)
{
	snprintf(buf, len, "%*llu -> %-*llu", width, lo, width, hi);
}

void fl_print_log2_hist(FILE *f, const struct fl_hist *h, const char *title)
{
	unsigned long long rows[64] = { 0 }, maxc = 0;
	int first = -1, last = -1;

	if (!h->count)
		return;
	/* sub-buckets partition powers of two exactly: sum them per power */
	for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++) {
		unsigned long long lo = fl_hist_lower(i);
		int p = lo ? 64 - __builtin_clzll(lo) : 0;	/* row p: [2^(p-1), 2^p) */

		rows[p] += h->buckets[i];
	}
	for (int p = 0; p < 64; p++) {
		if (!rows[p])
			continue;
		if (first < 0)
			first = p;
		last = p;
		if (rows[p] > maxc)
			maxc = rows[p];
	}
	if (first < 0)		/* a count but empty buckets (a damaged file) */
		return;
	fprintf(f, "\n%s\n", title);
	fprintf(f, "%24s : %-10s distribution\n", "nsecs", "count");
	for (int p = first; p <= last; p++) {
		unsigned long long lo = p ? 1ULL << (p - 1) : 0;
		unsigned long long hi = p ? (1ULL << p) - 1 : 0;
		int stars = maxc ? (int)(rows[p] * 40 / maxc) : 0;
		char bar[41], range[48];

		memset(bar, '*', stars);
		bar[stars] = '\0';
		fl_fmt_hist_range(range, sizeof(range), lo, hi, 10);
		fprintf(f, "%s : %-10llu |%-40s|\n", range, rows[p], bar);
	}
}

static void hist_line(FILE *f, const char *label, const struct fl_hist *h)
{
	char p50[32], p90[32], p99[32], mx[32], mean[32];

	if (!h->count) {
		fprintf(f, "  %-22s none recorded\n", label);
		return;
	}
	fl_fmt_ns(p50, sizeof(p50), fl_hist_quantile_ppm(h, 500000));
	fl_fmt_ns(p90, sizeof(p90), fl_hist_quantile_ppm(h, 900000));
	fl_fmt_ns(p99, sizeof(p99), fl_hist_quantile_ppm(h, 990000));
	fl_fmt_ns(mx, sizeof(mx), h->max);
	fl_fmt_ns(mean, sizeof(mean), h->sum / h->count);
	fprintf(f, "  %-22s n=%-9llu p50=%-9s p90=%-9s p99=%-9s max=%-9s mean=%s\n",
		label, h->count, p50, p90, p99, mx, mean);
}

static int unavail_line(FILE *f, const struct fl_snapshot *s, enum fl_figure fig,
			const char *label)
{
	const char *why;
	enum fl_avail a = fl_figure_avail(s, fig, &why);
	char buf[256];

	if (a == FL_AVAIL_YES)
		return 0;
	fl_fmt_unavail(buf, sizeof(buf), a, why);
	fprintf(f, "  %-22s %s\n", label, buf);
	return 1;
}

/*
 * record --self-cost: what faultline's BPF programs cost, as the kernel timed
 * them.  The kernel's statistics add their own two clock reads to every run
 * and leave out the hook's dispatch (tracepoint, trampoline, kprobe).
 */
static void selfcost_lines(FILE *f, const struct fl_snapshot *s, const struct fl_cpu_stats *t)
{
	unsigned long long runs, ns, faults;
	unsigned int n;
	struct fl_selfcost_entry *e = fl_selfcost_get(s, &n, &runs, &ns);

	if (!e)
		return;
	faults = t->cnt[FL_C_FAULTS_USER] + t->cnt[FL_C_FAULTS_KERNEL];
	fprintf(f, "  %-22s %.3f ms in %llu BPF program runs", "collector self-cost", ns / 1e6, runs);
	if (runs)
		fprintf(f, ", %.0f ns/run", (double)ns / runs);
	if (faults)
		fprintf(f, "; %.0f ns per fault counted", (double)ns / faults);
	fprintf(f, "\n  %-22s (kernel BPF run-time statistics: with their own clock reads, without the hooks' dispatch)\n", "");
	for (unsigned int i = 0; i < n; i++)
		if (e[i].runs)
			fprintf(f, "  %-22s %-26s %10llu runs %8.0f ns/run\n", "", e[i].name,
				e[i].runs, (double)e[i].ns / e[i].runs);
	free(e);
}

/*
 * Which figures the skipped runs were lost from (fl_bpf_tag_lost's tags):
 * each a count of program runs the kernel skipped, so at most that many
 * events of the figure (a skipped handle_mm_fault return may have been a
 * GUP call's, or a fault's retried call; Documentation/architecture.rst,
 * "Preemptible kernels").
 */
static const struct {
	const char *tag, *what;
} lost_figs[] = {
	{ FL_TAG_BPF_LOST_PREFIX "fault_starts", "fault starts" },
	{ FL_TAG_BPF_LOST_PREFIX "fault_ends", "fault ends" },
	{ FL_TAG_BPF_LOST_PREFIX "lockless_outcomes", "lockless outcomes" },
	{ FL_TAG_BPF_LOST_PREFIX "hmf_entries", "hmf entries" },
	{ FL_TAG_BPF_LOST_PREFIX "mmap_lock", "mmap_lock events" },
	{ FL_TAG_BPF_LOST_PREFIX "contention", "contention events" },
	{ FL_TAG_BPF_LOST_PREFIX "task_switches", "task switches" },
	{ FL_TAG_BPF_LOST_PREFIX "forks", "forks / exits" },
	{ FL_TAG_BPF_LOST_PREFIX "phases", "phase events" },
	{ FL_TAG_BPF_LOST_PREFIX "lock_waits", "lock-class waits" },
	{ FL_TAG_BPF_LOST_PREFIX "write_holds", "write holds (blame)" },
	{ FL_TAG_BPF_LOST_PREFIX "mmap_lock_inlined", "fault-path mmap_lock events (blame)" },
	{ FL_TAG_BPF_LOST_PREFIX "blame_waits", "blamed waits" },
	{ FL_TAG_BPF_LOST_PREFIX "blame_reclaim", "blamed reclaim" },
	{ FL_TAG_BPF_LOST_PREFIX "blame_switches", "blame switches" },
};

static void lost_lines(FILE *f, const struct fl_snapshot *s)
{
	for (unsigned int i = 0; i < sizeof(lost_figs) / sizeof(lost_figs[0]); i++) {
		const char *v = fl_snapshot_tag(s, lost_figs[i].tag);

		if (v && strcmp(v, "0"))
			fprintf(f, "    %-20s up to %s lost (skipped runs)\n", lost_figs[i].what, v);
	}
}

void fl_print_summary(FILE *f, const struct fl_snapshot *s, const struct fl_cpu_stats *t)
{
	const struct fl_snap_header *h = &s->hdr;
	unsigned long long faults = t->cnt[FL_C_FAULTS_USER] + t->cnt[FL_C_FAULTS_KERNEL];
	char dur[32], a[32], b[32];
	unsigned int online = 0;

	for (unsigned int c = 0; s->cpu_online && c < h->nr_cpus; c++)
		online += s->cpu_online[c];
	fl_fmt_ns(dur, sizeof(dur), h->duration_ns);
	fprintf(f, "backend %s, tier %s, kernel %s, %u CPUs", fl_backend_name(h->backend),
		fl_tier_name(h->tier), h->kernel_release, h->nr_cpus);
	if (s->cpu_online)
		fprintf(f, " (%u online)", online);
	fprintf(f, ", window %s, ", dur);
	if (h->filter_tgid)
		fprintf(f, "traced: tgid %u and its children\n", h->filter_tgid);
	else
		fprintf(f, "traced: system-wide\n");
	fprintf(f, "hooks live:");
	for (unsigned int i = 0; i < FL_HOOK_NR; i++)
		if (h->hooks_live & HOOK(i))
			fprintf(f, " %s", fl_hook_name(i));
	fprintf(f, "\n");
	if (h->hooks_absent) {
		fprintf(f, "not in this kernel:");
		for (unsigned int i = 0; i < FL_HOOK_NR; i++)
			if (h->hooks_absent & HOOK(i))
				fprintf(f, " %s", fl_hook_name(i));
		fprintf(f, "\n");
	}

	if (!unavail_line(f, s, FL_FIG_FAULTS, "faults")) {
		const char *why;

		fprintf(f, "  %-22s %llu user + %llu kernel-mode on user addresses", "faults",
			t->cnt[FL_C_FAULTS_USER], t->cnt[FL_C_FAULTS_KERNEL]);
		if (fl_figure_avail(s, FL_FIG_LATENCY, &why) == FL_AVAIL_YES)
			fprintf(f, "; %llu timed, %llu never reached handle_mm_fault",
				t->cnt[FL_C_FAULTS_ENDED], t->cnt[FL_C_FAULTS_UNHANDLED]);
		fprintf(f, "\n");
	}
	if (!unavail_line(f, s, FL_FIG_LATENCY, "fault latency"))
		hist_line(f, "fault latency", &t->hist[FL_H_FAULT_LAT]);
	if (!unavail_line(f, s, FL_FIG_HMF_TIME, "handle_mm_fault"))
		hist_line(f, "handle_mm_fault", &t->hist[FL_H_HMF]);
	if (!unavail_line(f, s, FL_FIG_HMF, "handle_mm_fault calls"))
		fprintf(f, "  %-22s %llu\n", "handle_mm_fault calls", t->cnt[FL_C_HMF_CALLS]);
	if (!unavail_line(f, s, FL_FIG_LOCKLESS, "lockless path")) {
		const fl_u64 *ll = t->ll;

		fl_fmt_pct_of(a, sizeof(a), ll[FL_LL_ABORTED], ll[FL_LL_ATTEMPTED]);
		fl_fmt_pct_of(b, sizeof(b), ll[FL_LL_RETRIED], ll[FL_LL_ATTEMPTED]);
		fprintf(f, "  %-22s %s: attempted %llu of %llu faults, succeeded %llu, aborted %llu (%s), retried under mmap_lock %llu (%s)\n",
			"lockless path", fl_ll_kind_name(h->lockless_kind), ll[FL_LL_ATTEMPTED],
			faults, ll[FL_LL_SUCCEEDED], ll[FL_LL_ABORTED], a, ll[FL_LL_RETRIED], b);
		fprintf(f, "  %-22s not attempted %llu, VM_FAULT_RETRY under mmap_lock %llu\n", "",
			ll[FL_LL_NOT_ATTEMPTED], ll[FL_LL_MMAP_RETRY]);
	}
	if (h->lockless_kind == FL_LL_KIND_VMA_LOCK &&
	    !unavail_line(f, s, FL_FIG_LL_WHY, "lockless gave up")) {
		const fl_u64 *c = t->cnt;

		fprintf(f, "  %-22s aborts: VMA write-locked %llu, no VMA %llu, other %llu; retries: no anon_vma %llu, other %llu; unread %llu\n",
			"lockless gave up", c[FL_C_LLW_WLOCKED], c[FL_C_LLW_NOVMA],
			c[FL_C_LLW_OTHER], c[FL_C_LLW_ANON], c[FL_C_LLW_RETRY_OTHER],
			c[FL_C_LLW_UNREAD]);
	}
	if (!unavail_line(f, s, FL_FIG_MMAP, "mmap_lock")) {
		hist_line(f, "mmap_lock wait read", &t->hist[FL_H_MMAP_WAIT_R]);
		hist_line(f, "mmap_lock wait write", &t->hist[FL_H_MMAP_WAIT_W]);
		hist_line(f, "mmap_lock hold read", &t->hist[FL_H_MMAP_HOLD_R]);
		hist_line(f, "mmap_lock hold write", &t->hist[FL_H_MMAP_HOLD_W]);
		fprintf(f, "  %-22s %llu\n", "mmap_lock failed acq.", t->cnt[FL_C_MMAP_TRYLOCK_FAIL]);
	}
	if (!unavail_line(f, s, FL_FIG_CONTENTION, "mmap_lock contention")) {
		fprintf(f, "  %-22s %llu\n", "mmap_lock contended", t->cnt[FL_C_MMAP_CONTENDED]);
		hist_line(f, "contention wait", &t->hist[FL_H_MMAP_CONTEND]);
	}
	if (t->cnt[FL_C_MISSED])
		fprintf(f, "  %-22s %llu (figures above are short by these)\n", "events missed",
			t->cnt[FL_C_MISSED]);
	if (fl_snapshot_tag(s, FL_TAG_BPF_RECURSION_MISSES) &&
	    strcmp(fl_snapshot_tag(s, FL_TAG_BPF_RECURSION_MISSES), "0")) {
		fprintf(f, "  %-22s %s (BPF programs skipped: another program ran on the CPU)\n",
			"bpf recursion misses", fl_snapshot_tag(s, FL_TAG_BPF_RECURSION_MISSES));
		lost_lines(f, s);
	}
	selfcost_lines(f, s, t);
	if (!unavail_line(f, s, FL_FIG_VMSTAT, "/proc/vmstat")) {
		fprintf(f, "  %-22s", "/proc/vmstat delta");
		for (unsigned int i = 0; i < s->nr_vmstat; i++)
			fprintf(f, " %s=%lld", s->vmstat[i].name,
				(long long)(s->vmstat[i].after - s->vmstat[i].before));
		fprintf(f, "  (system-wide)\n");
	}
}
