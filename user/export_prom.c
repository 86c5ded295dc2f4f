// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus text exposition (version 0.0.4) of exported snapshots, for
 * node_exporter's textfile collector and faultline serve.  Histograms in
 * seconds: by default (--prom-buckets coarse) one cumulative bucket at every
 * half power of two from 32 ns to 2^34 ns, each of them one of the
 * nanosecond log-linear histogram's own bucket bounds (le = the bound - 1 ns,
 * inclusive), so every count is exact; with --prom-buckets full one per
 * bucket of the histogram (272); then +Inf, _sum, _count.
 * Fault counts are one family, faultline_faults_total{mode="user"|"kernel"}.
 * Every family's samples are contiguous, after its HELP (prom_help[], the one
 * table of them, serve's families included) and TYPE.
 * Figures a snapshot cannot measure are left out, and listed in
 * faultline_unavailable{figure,reason} instead of being exported as 0.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "blame_model.h"
#include "export.h"

/*
 * HELP of every family faultline exposes (export and serve), by name: what it
 * counts, in which unit, measured where.  A family not in it gets
 * fl_prom_help()'s generic text (tests/unit/test_export.c: none does).
 */
static const struct {
	const char *name, *help;
} prom_help[] = {
	/* snapshot metadata */
	{ "faultline_info", "Snapshot metadata: tier, backend and lockless fault path kind "
	  "of the recording, as labels (value always 1)." },
	{ "faultline_window_seconds", "Length in seconds of the window the figures cover "
	  "(record: the snapshot's window; serve: time since serve started)." },
	{ "faultline_unavailable", "A figure this snapshot cannot measure on its tier or "
	  "kernel (value 1; reason and status in labels): its series are left out, not "
	  "exported as 0." },
	{ "faultline_vmstat_delta", "Change of a /proc/vmstat counter (label counter) over "
	  "the window, machine-wide (not only the traced tasks)." },
	/* counters (struct fl_cpu_stats.cnt[], include/faultline/abi.h) */
	{ "faultline_faults_total", "Page faults of the traced tasks: mode=\"user\" raised "
	  "in user mode (exceptions:page_fault_user), mode=\"kernel\" raised by the kernel "
	  "on a user address (page_fault_kernel, e.g. in copy_to_user)." },
	{ "faultline_faults_timed_total", "Faults that reached their final handle_mm_fault "
	  "return and so were timed: the samples of faultline_fault_latency_seconds." },
	{ "faultline_faults_unhandled_total", "Faults that started but never reached "
	  "handle_mm_fault (SIGSEGV, access error), so have no latency." },
	{ "faultline_handle_mm_fault_calls_total", "handle_mm_fault() calls of the traced "
	  "tasks; above the fault count by the faults retried under mmap_lock." },
	{ "faultline_mmap_lock_contended_total", "Times a traced task found its mm's "
	  "mmap_lock contended (lock:contention_begin on mm->mmap_lock)." },
	{ "faultline_mmap_lock_trylock_failed_total", "mmap_lock trylocks of the traced "
	  "tasks that failed (mmap_lock_acquire_returned with success=false)." },
	{ "faultline_events_missed_total", "Events faultline dropped (kretprobe misses, full "
	  "BPF maps, skipped runs): when it grows, the other figures undercount." },
	{ "faultline_lockless_abort_write_locked_total", "Per-VMA-lock faults that fell back "
	  "to mmap_lock because the latest mmap_lock writer had their VMA write-locked." },
	{ "faultline_lockless_abort_no_vma_total", "Per-VMA-lock faults that fell back to "
	  "mmap_lock because no VMA was found at the address (stack growth, SIGSEGV)." },
	{ "faultline_lockless_abort_other_total", "Per-VMA-lock faults that fell back to "
	  "mmap_lock for another reason (an older writer, a changed VMA, a trylock race)." },
	{ "faultline_lockless_unread_total", "Per-VMA-lock aborts and retries whose reason "
	  "could not be read (the lock was dropped first, or the read faulted)." },
	{ "faultline_lockless_retry_anon_vma_total", "Per-VMA-lock faults redone under "
	  "mmap_lock because the VMA had no anon_vma yet (vmf_anon_prepare's trylock)." },
	{ "faultline_lockless_retry_other_total", "Per-VMA-lock faults redone under "
	  "mmap_lock for another reason (folio lock or I/O wait, userfaultfd, a ->fault "
	  "that cannot run under the VMA lock)." },
	/* lockless path outcomes (struct fl_cpu_stats.ll[]) */
	{ "faultline_lockless_attempted_total", "Faults that tried the lockless path "
	  "(per-VMA lock or speculative page fault) before mmap_lock." },
	{ "faultline_lockless_succeeded_total", "Faults handled on the lockless path, "
	  "without taking mmap_lock." },
	{ "faultline_lockless_aborted_total", "Lockless attempts that gave up before "
	  "handling the fault and took mmap_lock instead." },
	{ "faultline_lockless_retried_total", "Lockless faults that asked for a retry and "
	  "were redone under mmap_lock." },
	{ "faultline_lockless_not_attempted_total", "Faults that went straight to mmap_lock "
	  "without trying the lockless path." },
	{ "faultline_mmap_lock_retries_total", "Faults handled under mmap_lock whose "
	  "handle_mm_fault returned VM_FAULT_RETRY and ran again." },
	/* histograms (struct fl_cpu_stats.hist[]), in seconds */
	{ "faultline_fault_latency_seconds", "Page-fault latency in seconds: from the "
	  "fault's entry (exceptions:page_fault_user/kernel) to its final handle_mm_fault "
	  "return, retries included." },
	{ "faultline_handle_mm_fault_seconds", "Duration in seconds of each handle_mm_fault "
	  "call (entry to return; measured with --handle-mm-fault)." },
	{ "faultline_mmap_lock_wait_read_seconds", "Time in seconds traced tasks waited to "
	  "take mmap_lock for read (mmap_lock_start_locking to acquire_returned)." },
	{ "faultline_mmap_lock_wait_write_seconds", "Time in seconds traced tasks waited to "
	  "take mmap_lock for write (mmap_lock_start_locking to acquire_returned)." },
	{ "faultline_mmap_lock_hold_read_seconds", "Time in seconds traced tasks held "
	  "mmap_lock for read (acquire_returned to mmap_lock_released)." },
	{ "faultline_mmap_lock_hold_write_seconds", "Time in seconds traced tasks held "
	  "mmap_lock for write (acquire_returned to mmap_lock_released)." },
	{ "faultline_mmap_lock_contended_seconds", "Time in seconds traced tasks spent "
	  "contended on their mm's mmap_lock (lock:contention_begin to contention_end)." },
	/* record --blame holder rows (Documentation/blame.rst) */
	{ "faultline_blame_fault_wait_seconds_total", "Seconds faults waited for mmap_lock "
	  "behind this write-holder call site (record --blame)." },
	{ "faultline_blame_faults_delayed_total", "Faults that waited for mmap_lock behind "
	  "this write-holder call site (record --blame)." },
	{ "faultline_blame_hold_seconds_total", "Seconds this call site held mmap_lock for "
	  "write, by what the holder did meanwhile (state: oncpu, runnable, sleeping, "
	  "reclaim)." },
	{ "faultline_blame_holds_total", "mmap_lock write holds of this call site "
	  "(record --blame)." },
	{ "faultline_blame_lockless_fallbacks_total", "User faults that left the per-VMA "
	  "lock path for mmap_lock while this call site held it for write (absent where "
	  "unavailable)." },
	/* faultline serve's own (user/serve_metrics.c, Documentation/fleet.rst) */
	{ "faultline_machine_info", "This machine's tags (faultline tags: CPU, platform, "
	  "topology, memory, THP) as labels, read once at start (value always 1)." },
	{ "faultline_self_cost_runs_total", "Runs of faultline's own BPF programs, per "
	  "program (kernel BPF run-time statistics, serve --self-cost)." },
	{ "faultline_self_cost_seconds_total", "Run time in seconds of faultline's own BPF "
	  "programs, per program (kernel BPF run-time statistics, serve --self-cost)." },
	{ "faultline_serve_reads_total", "Backend reads folded into this exporter's counts." },
	{ "faultline_serve_read_errors_total", "Backend reads that failed (their counts are "
	  "in the next read)." },
	{ "faultline_serve_sessions_total", "Backend sessions of this exporter (1 + reopens "
	  "on SIGHUP)." },
	{ "faultline_fault_latency_max_seconds", "Largest fault latency in seconds since "
	  "the previous scrape (exact when it is a new maximum, else its histogram "
	  "bucket's upper bound)." },
};

/* the generic HELP of a family prom_help[] lacks (fl_prom_help) */
#define PROM_HELP_GENERIC "faultline metric without a description; see " \
	"Documentation/formats.rst, Prometheus"

const char *fl_prom_help(const char *name)
{
	for (size_t i = 0; i < sizeof(prom_help) / sizeof(prom_help[0]); i++)
		if (!strcmp(prom_help[i].name, name))
			return prom_help[i].help;
	return PROM_HELP_GENERIC ".";
}

void fl_prom_header(FILE *f, const char *name, const char *type)
{
	const char *h = fl_prom_help(name);

	/* HELP escapes backslash and newline (text format 0.0.4) */
	fprintf(f, "# HELP %s ", name);
	for (; *h; h++) {
		if (*h == '\\')
			fputs("\\\\", f);
		else if (*h == '\n')
			fputs("\\n", f);
		else
			fputc(*h, f);
	}
	fprintf(f, "\n# TYPE %s %s\n", name, type);
}

/*
 * --prom-buckets coarse: the bounds 2^k and 3 * 2^(k-1) ns, 32 ns .. 2^34 ns
 * (59 of them).  Each is the exclusive upper bound of one of the histogram's
 * buckets (8 * 2^s and 12 * 2^s are two of its 8..16 * 2^s, hist.h), so the
 * cumulative count at le = bound - 1 ns sums whole buckets: exact.  Adjacent
 * bounds are 1.5 or 4/3 apart.
 */
#define PROM_COARSE_MIN		32ULL
#define PROM_COARSE_MAX		(1ULL << 34)

int fl_prom_coarse_bound(unsigned long long u)
{
	unsigned long long p = u % 3 ? u : u / 3;

	return u >= PROM_COARSE_MIN && u <= PROM_COARSE_MAX && p && !(p & (p - 1));
}

int fl_prom_buckets_parse(const char *s, enum fl_prom_buckets *out)
{
	if (!strcmp(s, "coarse"))
		*out = FL_PROM_BUCKETS_COARSE;
	else if (!strcmp(s, "full"))
		*out = FL_PROM_BUCKETS_FULL;
	else
		return -1;
	return 0;
}

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* labels of one group: {<by>="id",kernel="...",run="..."<extra> */
static void labels(FILE *f, const struct fl_export *e, const struct fl_export_snap *es,
		   const struct fl_export_group *g, const char *extra_k, const char *extra_v,
		   int close)
{
	fputc('{', f);
	if (g && e->by != FL_EXP_BY_TOTAL) {
		fprintf(f, "%s=\"", fl_export_by_name(e->by));
		if (g->id < 0)
			fputs("unknown", f);
		else
			fprintf(f, "%d", g->id);
		fputs("\",", f);
	}
	fputs("kernel=\"", f);
	esc(f, es->s.hdr.kernel_release);
	fputs("\",run=\"", f);
	esc(f, es->run);
	fputc('"', f);
	if (extra_k) {
		fprintf(f, ",%s=\"", extra_k);
		esc(f, extra_v);
		fputc('"', f);
	}
	if (close)
		fputc('}', f);
}

/* the groups a family is written for */
static unsigned int ngroups(const struct fl_export *e, const struct fl_export_snap *es)
{
	return e->by == FL_EXP_BY_TOTAL ? 1 : es->ngroups;
}

static const struct fl_export_group *group(const struct fl_export *e,
					   const struct fl_export_snap *es, unsigned int i)
{
	return e->by == FL_EXP_BY_TOTAL ? &es->total : &es->groups[i];
}

static int avail(const struct fl_export_snap *es, enum fl_figure fig)
{
	const char *why;

	return fl_figure_avail(&es->s, fig, &why) == FL_AVAIL_YES;
}

static void print_le(FILE *f, unsigned long long ns)
{
	/* ns as exact decimal seconds, trailing zeros trimmed */
	char b[48];
	int n = snprintf(b, sizeof(b), "%llu.%09llu", ns / 1000000000ULL, ns % 1000000000ULL);

	while (n > 0 && b[n - 1] == '0')
		b[--n] = '\0';
	if (n > 0 && b[n - 1] == '.')
		b[--n] = '\0';
	fputs(b, f);
}

static void hist_family(FILE *f, const struct fl_export *e, unsigned int id)
{
	int header = 0, full = e->prom_buckets == FL_PROM_BUCKETS_FULL;
	char name[96];

	snprintf(name, sizeof(name), "faultline_%s_seconds", fl_hist_name(id));

	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];

		if (!avail(es, fl_hist_figure(id)))
			continue;
		if (!header++)
			fl_prom_header(f, name, "histogram");
		for (unsigned int gi = 0; gi < ngroups(e, es); gi++) {
			const struct fl_hist *h = &group(e, es, gi)->st.hist[id];
			unsigned long long cum = 0;

			/*
			 * le = a bucket's inclusive upper bound, the histogram's own: every
			 * one (full), or the coarse ones, each after all the buckets below it
			 */
			for (unsigned int b = 0; b < FL_HIST_NBUCKETS; b++) {
				cum += h->buckets[b];
				if (!full && !fl_prom_coarse_bound(fl_hist_upper(b)))
					continue;
				fprintf(f, "%s_bucket", name);
				labels(f, e, es, group(e, es, gi), NULL, NULL, 0);
				fputs(",le=\"", f);
				print_le(f, fl_hist_upper(b) - 1);
				fprintf(f, "\"} %llu\n", cum);
			}
			fprintf(f, "%s_bucket", name);
			labels(f, e, es, group(e, es, gi), "le", "+Inf", 1);
			fprintf(f, " %llu\n", h->count);
			fprintf(f, "%s_sum", name);
			labels(f, e, es, group(e, es, gi), NULL, NULL, 1);
			fputc(' ', f);
			print_le(f, h->sum);
			fputc('\n', f);
			fprintf(f, "%s_count", name);
			labels(f, e, es, group(e, es, gi), NULL, NULL, 1);
			fprintf(f, " %llu\n", h->count);
		}
	}
}

/*
 * One counter family faultline_<name>_total: a series per id of ids[] (n of
 * them) and group, with label lk = lv[i] when lk is set.  ll: the ids are
 * lockless outcomes, else counters.
 */
static void counter_family(FILE *f, const struct fl_export *e, const char *name,
			   enum fl_figure fig, int ll, const unsigned int *ids,
			   const char *lk, const char *const *lv, unsigned int n)
{
	int header = 0;
	char fam[96];

	snprintf(fam, sizeof(fam), "faultline_%s_total", name);

	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];

		if (!avail(es, fig))
			continue;
		if (!header++)
			fl_prom_header(f, fam, "counter");
		for (unsigned int i = 0; i < n; i++)
			for (unsigned int gi = 0; gi < ngroups(e, es); gi++) {
				const struct fl_cpu_stats *st = &group(e, es, gi)->st;

				fputs(fam, f);
				labels(f, e, es, group(e, es, gi), lk, lk ? lv[i] : NULL, 1);
				fprintf(f, " %llu\n", ll ? st->ll[ids[i]] : st->cnt[ids[i]]);
			}
	}
}

static void prom_labels(FILE *f, const struct fl_export_snap *es, const struct fl_blame_row *x,
			const char *state)
{
	char what[96], comm[BL_COMM_LEN + 1];

	fl_blame_what(x, what, sizeof(what));
	fl_blame_comm(x, comm);
	fputs("{kernel=\"", f);
	esc(f, es->s.hdr.kernel_release);
	fputs("\",run=\"", f);
	esc(f, es->run);
	fputs("\",what=\"", f);
	esc(f, what);
	fputs("\",comm=\"", f);
	esc(f, comm);
	/* the frames make the series unique (rows are merged on them) */
	fputs("\",stack=\"", f);
	for (unsigned int i = 0; i < x->nframes && i < FL_BLAME_FRAMES; i++) {
		char sym[FL_SYM_LEN + 1];

		fl_blame_frame(x, i, sym);
		if (i)
			fputc(';', f);
		esc(f, sym);
	}
	fputc('"', f);
	if (state)
		fprintf(f, ",state=\"%s\"", state);
	fputs("} ", f);
}

/* `record --blame` holder rows (user/blame_model.h, Documentation/blame.rst). */
static void blame_families(FILE *f, const struct fl_export *e)
{
	/* counters all; their HELP is in prom_help[] */
	static const char *const fam[] = {
		"faultline_blame_fault_wait_seconds_total",
		"faultline_blame_faults_delayed_total",
		"faultline_blame_hold_seconds_total",
		"faultline_blame_holds_total",
		"faultline_blame_lockless_fallbacks_total",
	};
	static const char *const st[BL_ST_NR] = { "oncpu", "runnable", "sleeping" };

	for (size_t q = 0; q < sizeof(fam) / sizeof(fam[0]); q++) {
		int header = 0;

		for (unsigned int k = 0; k < e->nsnaps; k++) {
			const struct fl_export_snap *es = &e->snaps[k];
			unsigned int nr = 0;
			const struct fl_blame_row *r = fl_snapshot_blame(&es->s, &nr);

			if (!r || !fl_snapshot_blame_total(&es->s))
				continue;
			if (q == 4 && fl_blame_fb_unavail(&es->s))
				continue;
			for (unsigned int i = 0; i < nr; i++) {
				const struct fl_blame_row *x = &r[i];

				if (!header++)
					fl_prom_header(f, fam[q], "counter");
				if (q == 2) {
					for (unsigned int z = 0; z < BL_ST_NR; z++) {
						fputs(fam[q], f);
						prom_labels(f, es, x, st[z]);
						print_le(f, x->ns[z]);
						fputc('\n', f);
					}
					fputs(fam[q], f);
					prom_labels(f, es, x, "reclaim");
					print_le(f, x->reclaim_ns);
					fputc('\n', f);
					continue;
				}
				fputs(fam[q], f);
				prom_labels(f, es, x, NULL);
				if (q == 0)
					print_le(f, x->wait.sum);
				else
					fprintf(f, "%llu", q == 1 ? x->wait.count :
						      q == 3 ? x->hold.count : x->fallbacks);
				fputc('\n', f);
			}
		}
	}
}

void fl_export_prom(FILE *f, const struct fl_export *e)
{
	int header = 0;

	fl_prom_header(f, "faultline_info", "gauge");
	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];
		char extra[256];

		snprintf(extra, sizeof(extra), "%s", fl_tier_name(es->s.hdr.tier));
		fputs("faultline_info", f);
		labels(f, e, es, NULL, "tier", extra, 0);
		fputs(",backend=\"", f);
		esc(f, fl_backend_name(es->s.hdr.backend));
		fputs("\",lockless_kind=\"", f);
		esc(f, fl_ll_kind_name(es->s.hdr.lockless_kind));
		fputs("\"} 1\n", f);
	}
	fl_prom_header(f, "faultline_window_seconds", "gauge");
	for (unsigned int k = 0; k < e->nsnaps; k++) {
		fputs("faultline_window_seconds", f);
		labels(f, e, &e->snaps[k], NULL, NULL, NULL, 1);
		fputc(' ', f);
		print_le(f, e->snaps[k].s.hdr.duration_ns);
		fputc('\n', f);
	}
	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];

		for (size_t i = 0; i < FL_FIG_NR; i++) {
			const char *why;
			enum fl_avail a = fl_figure_avail(&es->s, fl_export_figs[i], &why);

			if (a == FL_AVAIL_YES)
				continue;
			if (!header++)
				fl_prom_header(f, "faultline_unavailable", "gauge");
			fputs("faultline_unavailable", f);
			labels(f, e, es, NULL, "figure", fl_figure_key(fl_export_figs[i]), 0);
			fputs(",reason=\"", f);
			esc(f, why);
			fprintf(f, "\",status=\"%s\"} 1\n",
				a == FL_AVAIL_ABSENT ? "absent" : "unavailable");
		}
	}
	{
		static const unsigned int faults[] = { FL_C_FAULTS_USER, FL_C_FAULTS_KERNEL };
		static const char *const modes[] = { "user", "kernel" };

		counter_family(f, e, "faults", FL_FIG_FAULTS, 0, faults, "mode", modes, 2);
	}
	for (unsigned int id = 0; id < FL_C_NR; id++) {
		if (!fl_counter_known(id) || id == FL_C_FAULTS_USER || id == FL_C_FAULTS_KERNEL)
			continue;
		counter_family(f, e, fl_counter_name(id), fl_counter_figure(id), 0, &id,
			       NULL, NULL, 1);
	}
	for (unsigned int id = 0; id < FL_LL_NR; id++)
		counter_family(f, e, fl_ll_name(id), FL_FIG_LOCKLESS, 1, &id, NULL, NULL, 1);
	for (unsigned int id = 0; id < FL_H_NR; id++)
		hist_family(f, e, id);
	header = 0;
	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];

		for (unsigned int v = 0; v < es->s.nr_vmstat; v++) {
			char name[FL_NAME_LEN + 1];

			if (!header++)
				fl_prom_header(f, "faultline_vmstat_delta", "gauge");
			memcpy(name, es->s.vmstat[v].name, FL_NAME_LEN);
			name[FL_NAME_LEN] = '\0';
			fputs("faultline_vmstat_delta", f);
			labels(f, e, es, NULL, "counter", name, 1);
			fprintf(f, " %lld\n",
				(long long)(es->s.vmstat[v].after - es->s.vmstat[v].before));
		}
	}
	blame_families(f, e);
}

/* The pieces above for the families of other writers (serve_metrics.c). */
void fl_prom_esc(FILE *f, const char *s)
{
	esc(f, s);
}

void fl_prom_seconds(FILE *f, unsigned long long ns)
{
	print_le(f, ns);
}
