// SPDX-License-Identifier: GPL-2.0
/*
 * Prometheus text exposition (version 0.0.4) of exported snapshots, for
 * node_exporter's textfile collector and faultline serve.  Histograms in
 * seconds, one cumulative bucket per bucket of the nanosecond log-linear
 * histogram (le = its inclusive upper bound, fl_hist_upper(i) - 1 ns: the
 * histogram's own bounds, so every count is exact), +Inf, _sum, _count.
 * Fault counts are one family, faultline_faults_total{mode="user"|"kernel"}.
 * Every family's samples are contiguous, after its HELP and TYPE.
 * Figures a snapshot cannot measure are left out, and listed in
 * faultline_unavailable{figure,reason} instead of being exported as 0.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "blame_model.h"
#include "export.h"

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
	int header = 0;

	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];

		if (!avail(es, fl_hist_figure(id)))
			continue;
		if (!header++) {
			fprintf(f, "# HELP faultline_%s_seconds %s (faultline log-linear histogram, "
				"every bucket bound).\n", fl_hist_name(id), fl_hist_name(id));
			fprintf(f, "# TYPE faultline_%s_seconds histogram\n", fl_hist_name(id));
		}
		for (unsigned int gi = 0; gi < ngroups(e, es); gi++) {
			const struct fl_hist *h = &group(e, es, gi)->st.hist[id];
			unsigned long long cum = 0;

			/* every bucket's inclusive upper bound: the histogram's own le */
			for (unsigned int b = 0; b < FL_HIST_NBUCKETS; b++) {
				cum += h->buckets[b];
				fprintf(f, "faultline_%s_seconds_bucket", fl_hist_name(id));
				labels(f, e, es, group(e, es, gi), NULL, NULL, 0);
				fputs(",le=\"", f);
				print_le(f, fl_hist_upper(b) - 1);
				fprintf(f, "\"} %llu\n", cum);
			}
			fprintf(f, "faultline_%s_seconds_bucket", fl_hist_name(id));
			labels(f, e, es, group(e, es, gi), "le", "+Inf", 1);
			fprintf(f, " %llu\n", h->count);
			fprintf(f, "faultline_%s_seconds_sum", fl_hist_name(id));
			labels(f, e, es, group(e, es, gi), NULL, NULL, 1);
			fputc(' ', f);
			print_le(f, h->sum);
			fputc('\n', f);
			fprintf(f, "faultline_%s_seconds_count", fl_hist_name(id));
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
			   const char *help, enum fl_figure fig, int ll, const unsigned int *ids,
			   const char *lk, const char *const *lv, unsigned int n)
{
	int header = 0;

	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];

		if (!avail(es, fig))
			continue;
		if (!header++) {
			fprintf(f, "# HELP faultline_%s_total %s.\n", name, help);
			fprintf(f, "# TYPE faultline_%s_total counter\n", name);
		}
		for (unsigned int i = 0; i < n; i++)
			for (unsigned int gi = 0; gi < ngroups(e, es); gi++) {
				const struct fl_cpu_stats *st = &group(e, es, gi)->st;

				fprintf(f, "faultline_%s_total", name);
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
	for (unsigned int i = 0; i < x->nframes && i < BL_FRAMES; i++) {
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
	static const struct {
		const char *name, *help, *type;
	} fam[] = {
		{ "faultline_blame_fault_wait_seconds_total",
		  "Fault mmap_lock wait behind this holder call site.", "counter" },
		{ "faultline_blame_faults_delayed_total",
		  "Faults that waited for mmap_lock behind this holder call site.", "counter" },
		{ "faultline_blame_hold_seconds_total",
		  "mmap_lock write hold time of this call site, by what the holder did.", "counter" },
		{ "faultline_blame_holds_total", "mmap_lock write holds of this call site.",
		  "counter" },
		{ "faultline_blame_lockless_fallbacks_total",
		  "User faults that left the per-VMA lock path for mmap_lock while this call "
		  "site held it for write (absent where unavailable).", "counter" },
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
					fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fam[q].name,
						fam[q].help, fam[q].name, fam[q].type);
				if (q == 2) {
					for (unsigned int z = 0; z < BL_ST_NR; z++) {
						fputs(fam[q].name, f);
						prom_labels(f, es, x, st[z]);
						print_le(f, x->ns[z]);
						fputc('\n', f);
					}
					fputs(fam[q].name, f);
					prom_labels(f, es, x, "reclaim");
					print_le(f, x->reclaim_ns);
					fputc('\n', f);
					continue;
				}
				fputs(fam[q].name, f);
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

	fprintf(f, "# HELP faultline_info Snapshot metadata (value 1).\n");
	fprintf(f, "# TYPE faultline_info gauge\n");
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
	fprintf(f, "# HELP faultline_window_seconds Length of the recorded window.\n");
	fprintf(f, "# TYPE faultline_window_seconds gauge\n");
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
			if (!header++) {
				fprintf(f, "# HELP faultline_unavailable A figure this snapshot "
					"cannot measure (left out, not exported as 0).\n");
				fprintf(f, "# TYPE faultline_unavailable gauge\n");
			}
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

		counter_family(f, e, "faults", "Page faults of the traced tasks: mode=\"user\" "
			       "from user mode (faults_user), mode=\"kernel\" from the kernel on "
			       "user addresses (faults_kernel)", FL_FIG_FAULTS, 0, faults, "mode",
			       modes, 2);
	}
	for (unsigned int id = 0; id < FL_C_NR; id++) {
		char help[96];

		if (!fl_counter_known(id) || id == FL_C_FAULTS_USER || id == FL_C_FAULTS_KERNEL)
			continue;
		snprintf(help, sizeof(help), "faultline counter %s", fl_counter_name(id));
		counter_family(f, e, fl_counter_name(id), help, fl_counter_figure(id), 0, &id,
			       NULL, NULL, 1);
	}
	for (unsigned int id = 0; id < FL_LL_NR; id++) {
		char help[96];

		snprintf(help, sizeof(help), "Lockless fault path outcome %s", fl_ll_name(id));
		counter_family(f, e, fl_ll_name(id), help, FL_FIG_LOCKLESS, 1, &id, NULL, NULL, 1);
	}
	for (unsigned int id = 0; id < FL_H_NR; id++)
		hist_family(f, e, id);
	header = 0;
	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];

		for (unsigned int v = 0; v < es->s.nr_vmstat; v++) {
			char name[FL_NAME_LEN + 1];

			if (!header++) {
				fprintf(f, "# HELP faultline_vmstat_delta /proc/vmstat counter "
					"change over the window.\n");
				fprintf(f, "# TYPE faultline_vmstat_delta gauge\n");
			}
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
