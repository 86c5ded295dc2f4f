// SPDX-License-Identifier: GPL-2.0
/*
 * compare A.snap B.snap as text, JSON, CSV and Markdown (compare_snaps.h):
 * the rows of fl_cmp_snaps in every layout, a figure a side could not
 * measure as "not compared (A: why)", never as a number.  One recording a
 * side: a column per side; several: the sweep table's rows per figure
 * (COUNT ... STDDEV per side, the % row, Welch's p), mmtests' *x.xx%* on
 * the mean.  Text and markdown round to --precision significant digits and
 * say the unit once, in the figure's cell.  The histograms each rank test
 * was worked out from: JSON's "buckets" always, the others with --hist.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_render.h"
#include "compare_snaps.h"
#include "compare_table.h"
#include "export_out.h"
#include "report_common.h"
#include "stats.h"

#define RANK_TEST_NAME	"mann-whitney-u-buckets"
#define RANK_TEST_WHAT	"Mann-Whitney U on the histograms' buckets (the events of a " \
			"bucket tied), tie-corrected normal approximation with continuity " \
			"correction, two-sided"

static const struct {
	const char *section, *title;
} sections[] = {
	{ "faults", "FAULTS" },
	{ "latency", "LATENCY" },
	{ "lockless", "LOCKLESS" },
	{ "lockless_reasons", "LOCKLESS GAVE UP" },
	{ "mmap_lock", "MMAP_LOCK" },
	{ "phases", "PHASES (ns per fault)" },
	{ "locks", "LOCKS (contended wait per fault)" },
};

/* "not compared (A: why)", "(B: why)" or "(A: x; B: y)" */
static void not_compared(char *buf, size_t len, const int have[2], const char why[2][FL_CSN_WHY])
{
	if (!have[0] && !have[1] && strcmp(why[0], why[1]))
		snprintf(buf, len, "not compared (A: %s; B: %s)", why[0], why[1]);
	else if (!have[0] && !have[1])
		snprintf(buf, len, "not compared (A, B: %s)", why[0]);
	else
		snprintf(buf, len, "not compared (%c: %s)", have[0] ? 'B' : 'A', why[have[0] ? 1 : 0]);
}

/* The unit as a header says it: "ns", "faults/s", "‰"; "" for a count. */
static const char *unit_label(const struct fl_csn_row *r)
{
	if (!strcmp(r->unit, "1/s"))
		return strstr(r->name, "calls") ? "calls/s" :
		       strstr(r->name, "fallbacks") ? "fallbacks/s" : "faults/s";
	if (!strcmp(r->unit, "per_mille"))
		return "\u2030";
	if (!strcmp(r->unit, "count"))
		return "";
	return r->unit;
}

/* "fault_latency_p50 (ns)" */
static void figure(char *buf, size_t len, const struct fl_csn_row *r)
{
	const char *u = unit_label(r);

	snprintf(buf, len, *u ? "%s (%s)" : "%s", r->name, u);
}

/*
 * A value to PREC significant digits; a count (and a mean of counts) keeps
 * every digit before the point: 16424.6 faults is not "16420".
 */
static void value(char *buf, size_t len, const char *unit, double v, int prec)
{
	int count = !strcmp(unit, "count");

	if (count && v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else if (count && fabs(v) >= pow(10, prec) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		fl_fmt_sig(buf, len, v, prec);
}

static int prec_of(const struct fl_csn_view *v)
{
	return v && v->precision > 0 ? v->precision : FL_CSN_PRECISION;
}

/* "+1.31%", "*+1.31%*" where mmtests would mark it, "=" or "n/a (A is 0)" */
static void change(char *buf, size_t len, const struct fl_csn_row *r)
{
	char pc[32];

	if (r->v[0] == r->v[1]) {
		snprintf(buf, len, "=");
	} else if (isnan(r->pct)) {
		snprintf(buf, len, "n/a (A is 0)");
	} else {
		fl_fmt_pct(pc, sizeof(pc), r->pct);
		snprintf(buf, len, r->mm_marked ? "*%s*" : "%s", pc);
	}
}

/* "fault_latency", "fault_latency cpu3" */
static void rank_name(char *buf, size_t len, const struct fl_csn_rank *k, char sep)
{
	if (k->by)
		snprintf(buf, len, "%s%c%s%u", k->hist, sep, k->by, k->group);
	else
		snprintf(buf, len, "%s", k->hist);
}

/*
 * The buckets of rank row K (both sides have it): bucket I as report
 * --hist labels a range ("960 -> 1023", ns, both ends in it), each side's
 * events in it and their share of the side's ("75.0%").  0 when neither
 * side has an event in it.
 */
struct bucket_cells {
	char range[48], n[2][24], share[2][16];
};

static int bucket_used(const struct fl_csn_rank *k, unsigned int i)
{
	return k->h[0].buckets[i] || k->h[1].buckets[i];
}

static int bucket_cells(const struct fl_csn_rank *k, unsigned int i, struct bucket_cells *c)
{
	if (!bucket_used(k, i))
		return 0;
	fl_fmt_hist_range(c->range, sizeof(c->range), fl_hist_lower(i), fl_hist_upper(i) - 1, 0);
	for (int s = 0; s < 2; s++) {
		snprintf(c->n[s], sizeof(c->n[s]), "%llu", k->h[s].buckets[i]);
		/* the total is a double (the buckets' sum may pass 2^64): share in double */
		if (k->t.n[s] > 0)
			snprintf(c->share[s], sizeof(c->share[s]), "%.1f%%",
				 100.0 * (double)k->h[s].buckets[i] / k->t.n[s]);
		else
			snprintf(c->share[s], sizeof(c->share[s]), "-");
	}
	return 1;
}

#define HIST_WHAT	"per bucket: each side's events in it and their share of the side's"

/* The footnotes of a section: "not compared [n]" points at one. */
struct foot {
	char (*fn)[2 * FL_CSN_WHY + 40];
	unsigned int n;
};

static void foot_ref(struct foot *ft, char *ch, size_t len, const struct fl_csn_row *r)
{
	char nc[sizeof(*ft->fn)];
	unsigned int k;

	not_compared(nc, sizeof(nc), r->have, r->why);
	for (k = 0; k < ft->n && strcmp(ft->fn[k], nc); k++)
		;
	if (k == ft->n)
		memcpy(ft->fn[ft->n++], nc, sizeof(nc));
	snprintf(ch, len, "not compared [%u]", k + 1);
}

/* One recording a side: FIGURE, (A), (B), B vs A. */
static void text_rows1(struct fl_table *t, const struct fl_cmp_snaps *p, const char *section,
		       struct foot *ft, int prec)
{
	static int right[4] = { 0, 1, 1, 0 };
	char head[2][160];

	t->ncol = 4;
	t->right = right;
	for (int s = 0; s < 2; s++)
		snprintf(head[s], sizeof(head[s]), "(%c) %s", 'A' + s, p->side[s].label);
	fl_table_add(t, (char *[]){ "FIGURE", head[0], head[1], "B vs A" });
	for (unsigned int i = 0; i < p->nrow; i++) {
		const struct fl_csn_row *r = &p->row[i];
		char v[2][64], ch[2 * FL_CSN_WHY + 40], fig[80];

		if (strcmp(r->section, section))
			continue;
		for (int s = 0; s < 2; s++) {
			if (r->have[s])
				value(v[s], sizeof(v[s]), r->unit, r->v[s], prec);
			else
				snprintf(v[s], sizeof(v[s]), "-");
		}
		if (r->have[0] && r->have[1])
			change(ch, sizeof(ch), r);
		else
			foot_ref(ft, ch, sizeof(ch), r);
		figure(fig, sizeof(fig), r);
		fl_table_add(t, (char *[]){ fig, v[0], v[1], ch });
	}
}

/*
 * Several recordings a side: the sweep table's layout, per figure a name
 * row, a row per side (COUNT MIN MAX MEAN MEDIAN STDDEV over its
 * recordings), the % row (mmtests' *x.xx%* on MEAN) and Welch's p.
 */
static void text_rows_n(struct fl_table *t, const struct fl_cmp_snaps *p, const char *section,
			struct foot *ft, int prec)
{
	static int right[8] = { 0, 1, 1, 1, 1, 1, 1, 1 };

	t->ncol = 8;
	t->right = right;
	fl_table_add(t, (char *[]){ "LABEL", "COUNT", "MIN", "MAX", "MEAN", "MEDIAN", "STDDEV",
				    "P-VALUE" });
	for (unsigned int i = 0; i < p->nrow; i++) {
		const struct fl_csn_row *r = &p->row[i];
		char c[8][2 * FL_CSN_WHY + 40];
		char *row[8] = { c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7] };
		const struct fl_stats *a = &r->st[0], *b = &r->st[1];
		const double pa[5] = { a->min, a->max, a->mean, a->median, a->stddev };
		const double pb[5] = { b->min, b->max, b->mean, b->median, b->stddev };

		if (strcmp(r->section, section))
			continue;
		memset(c, 0, sizeof(c));
		figure(c[0], sizeof(c[0]), r);
		if (!(r->have[0] && r->have[1])) {
			/* one line: json and csv have the side that has it */
			foot_ref(ft, c[4], sizeof(c[4]), r);
			fl_table_add(t, row);
			continue;
		}
		fl_table_add(t, row);
		for (int s = 0; s < 2; s++) {
			const double *v = s ? pb : pa;

			memset(c, 0, sizeof(c));
			snprintf(c[0], sizeof(c[0]), "(%c) %s", 'A' + s, p->side[s].label);
			snprintf(c[1], sizeof(c[1]), "%u", r->st[s].n);
			for (int k = 0; k < 5; k++)
				value(c[2 + k], sizeof(c[2 + k]), k == 4 ? "" : r->unit, v[k], prec);
			fl_table_add(t, row);
		}
		memset(c, 0, sizeof(c));
		for (int k = 0; k < 5; k++) {
			if (pa[k] == pb[k])
				snprintf(c[2 + k], sizeof(c[2 + k]), "=");
			else
				fl_fmt_pct(c[2 + k], sizeof(c[2 + k]), fl_pct_change(pa[k], pb[k]));
		}
		change(c[4], sizeof(c[4]), r);
		if (isnan(r->p))
			snprintf(c[7], sizeof(c[7]), "n/a");
		else
			snprintf(c[7], sizeof(c[7]), "%.3g", r->p);
		fl_table_add(t, row);
	}
}

/*
 * One section's rows.  A row a side could not measure says "not compared
 * [n]", and [n] under the table "not compared (A: why)": the snapshots'
 * reasons are long, and rows of one histogram or one path share them.
 */
static void text_section(FILE *f, const struct fl_cmp_snaps *p, const char *section,
			 const char *title, int prec)
{
	struct fl_table t = { 0 };
	struct foot ft = { 0 };
	unsigned int n = 0;

	for (unsigned int i = 0; i < p->nrow; i++)
		n += !strcmp(p->row[i].section, section);
	if (!n || !(ft.fn = calloc(n, sizeof(*ft.fn))))
		return;
	fprintf(f, "\n[*] %s\n", title);
	if (p->multi)
		text_rows_n(&t, p, section, &ft, prec);
	else
		text_rows1(&t, p, section, &ft, prec);
	fl_table_print(f, &t);
	fl_table_free(&t);
	for (unsigned int k = 0; k < ft.n; k++)
		fprintf(f, "  [%u] %s\n", k + 1, ft.fn[k]);
	free(ft.fn);
}

static void text_rank(FILE *f, const struct fl_cmp_snaps *p, int prec)
{
	struct fl_table t = { .ncol = 10 };
	static int right[10] = { 0, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	char nc[2 * FL_CSN_WHY + 40];

	t.right = right;
	fprintf(f, "\n[*] RANK TEST (%s)\n", RANK_TEST_WHAT);
	fl_table_add(&t, (char *[]){ "HISTOGRAM", "N (A)", "N (B)", "P50 (A) ns", "P50 (B) ns",
				     "P99 (A) ns", "P99 (B) ns", "P(B>A)", "z", "p" });
	for (unsigned int i = 0; i < p->nrank; i++) {
		const struct fl_csn_rank *k = &p->rank[i];
		char c[9][48], name[64];

		if (!(k->have[0] && k->have[1]))
			continue;
		rank_name(name, sizeof(name), k, ' ');
		snprintf(c[0], sizeof(c[0]), "%.0f", k->t.n[0]);
		snprintf(c[1], sizeof(c[1]), "%.0f", k->t.n[1]);
		fl_fmt_sig(c[2], sizeof(c[2]), k->p50[0], prec);
		fl_fmt_sig(c[3], sizeof(c[3]), k->p50[1], prec);
		fl_fmt_sig(c[4], sizeof(c[4]), k->p99[0], prec);
		fl_fmt_sig(c[5], sizeof(c[5]), k->p99[1], prec);
		snprintf(c[6], sizeof(c[6]), "%.3f", k->t.prob);
		snprintf(c[7], sizeof(c[7]), "%.2f", k->t.z);
		snprintf(c[8], sizeof(c[8]), k->significant ? "*%.3g*" : "%.3g", k->t.p);
		fl_table_add(&t, (char *[]){ name, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
					     c[8] });
	}
	if (t.nrow > 1)
		fl_table_print(f, &t);
	fl_table_free(&t);
	for (unsigned int i = 0; i < p->nrank; i++) {
		const struct fl_csn_rank *k = &p->rank[i];

		if (k->have[0] && k->have[1])
			continue;
		not_compared(nc, sizeof(nc), k->have, k->why);
		fprintf(f, "  %s: %s\n", k->hist, nc);
	}
	fprintf(f, "P50, P99: each side's quantiles of the histogram (the whole recording's, or "
		"that CPU's, LLC domain's, node's).  P(B>A): the chance that an event of B lies "
		"in a higher bucket than one of A (ties count half; 0.5 = no shift).  *p*: p < %g.  "
		"Every event is one observation: with many events a small shift is significant; "
		"the quantiles say how large it is.%s\n", p->alpha,
		p->multi ? "  Several recordings a side: their events pooled." : "");
}

/* --hist: every compared rank row's buckets, a table each, as report --hist's. */
static void text_hist(FILE *f, const struct fl_cmp_snaps *p)
{
	static int right[5] = { 0, 1, 1, 1, 1 };
	struct bucket_cells c;
	char name[64];

	fprintf(f, "\n[*] HISTOGRAMS (%s%s)\n", HIST_WHAT,
		p->multi ? "; several recordings a side: their events pooled" : "");
	for (unsigned int r = 0; r < p->nrank; r++) {
		const struct fl_csn_rank *k = &p->rank[r];
		struct fl_table t = { .ncol = 5, .right = right };

		if (!(k->have[0] && k->have[1]))
			continue;
		rank_name(name, sizeof(name), k, ' ');
		fprintf(f, "\n%s (n: A %.0f, B %.0f)\n", name, k->t.n[0], k->t.n[1]);
		fl_table_add(&t, (char *[]){ "NSECS", "A", "B", "A SHARE", "B SHARE" });
		for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++)
			if (bucket_cells(k, i, &c))
				fl_table_add(&t, (char *[]){ c.range, c.n[0], c.n[1], c.share[0],
							     c.share[1] });
		fl_table_print(f, &t);
		fl_table_free(&t);
	}
}

/* "a.snap", "3 recordings: a1.snap, a2.snap, a3.snap", "3 recordings in DIR" */
static void recordings(FILE *f, const struct fl_cmp_snaps *p, int s)
{
	const struct fl_csn_side *sd = &p->side[s];

	if (sd->n == 1) {
		fputs(sd->file, f);
		return;
	}
	if (p->dir[s]) {	/* the file names are the directory's listing */
		fprintf(f, "%u recordings in %s", sd->n, p->dir[s]);
		return;
	}
	fprintf(f, "%u recordings: ", sd->n);
	for (unsigned int k = 0; k < sd->n; k++)
		fprintf(f, "%s%s", k ? ", " : "", sd->files[k]);
}

void fl_cmp_snaps_write_text(FILE *f, const struct fl_cmp_snaps *p, const struct fl_csn_view *v)
{
	fprintf(f, "[*] RECORDINGS\n");
	for (int s = 0; s < 2; s++) {
		const struct fl_csn_side *sd = &p->side[s];

		fprintf(f, "  (%c) %s: ", 'A' + s, sd->label);
		recordings(f, p, s);
		fprintf(f, ", kernel %s, %s/%s, lockless %s, %u CPU%s, %.3f s%s\n", sd->krel,
			sd->backend, sd->tier, sd->ll_kind, sd->nr_cpus, sd->nr_cpus == 1 ? "" : "s",
			sd->secs, sd->n > 1 ? " on average" : "");
	}
	if (p->multi)
		fprintf(f, "Per figure: COUNT, MIN ... STDDEV (population) over each side's "
			"recordings; the %% row (B-A)/A;\n*x.xx%%*: a change mmtests compare-kernels "
			"would mark (the 95%% intervals mean +- 1.96 sd\nof A and B do not overlap); "
			"P-VALUE: Welch's t-test, two-sided.\n");
	for (unsigned int i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		text_section(f, p, sections[i].section, sections[i].title, prec_of(v));
		if (strcmp(sections[i].section, "mmap_lock"))
			continue;
		text_rank(f, p, prec_of(v));
		if (v && v->hist)
			text_hist(f, p);
	}
	fprintf(f, "\n[*] BLAME\n");
	fl_bcmp_text(f, &p->c);
	for (unsigned int i = 0; i < p->nnotes; i++)
		fprintf(f, "%s  %s\n", i ? "" : "\n[*] NOTES\n", p->notes[i]);
}

/* ---- json ---- */

static void json_side(FILE *f, const struct fl_csn_side *sd)
{
	fprintf(f, "{\"file\":");
	fl_json_str(f, sd->file);
	fprintf(f, ",\"label\":");
	fl_json_str(f, sd->label);
	fprintf(f, ",\"kernel\":");
	fl_json_str(f, sd->krel);
	fprintf(f, ",\"backend\":");
	fl_json_str(f, sd->backend);
	fprintf(f, ",\"tier\":");
	fl_json_str(f, sd->tier);
	fprintf(f, ",\"lockless_kind\":");
	fl_json_str(f, sd->ll_kind);
	fprintf(f, ",\"kernel_build\":");
	fl_json_str(f, sd->build);
	fprintf(f, ",\"kernel_file\":");
	fl_json_str(f, sd->kfile);
	fprintf(f, ",\"cpus\":%u,\"seconds\":", sd->nr_cpus);
	fl_json_num(f, sd->secs);
	fprintf(f, ",\"recordings\":[");
	for (unsigned int k = 0; k < sd->n; k++) {
		if (k)
			fputc(',', f);
		fl_json_str(f, sd->files[k]);
	}
	fprintf(f, "]}");
}

static void json_gaps(FILE *f, const int have[2], const char why[2][FL_CSN_WHY])
{
	for (int s = 0; s < 2; s++)
		if (!have[s]) {
			fprintf(f, ",\"gap_%c\":", 'a' + s);
			fl_json_str(f, why[s]);
		}
}

/* Several recordings a side: each side's statistics, Welch, mmtests' mark. */
static void json_stats(FILE *f, const struct fl_csn_row *r)
{
	fprintf(f, ",\"stats\":{");
	for (int s = 0; s < 2; s++) {
		fprintf(f, "%s\"%c\":", s ? "," : "", 'a' + s);
		if (r->have[s])
			fl_cmp_json_stats(f, &r->st[s]);
		else
			fputs("null", f);
	}
	fprintf(f, "},\"welch_p\":");
	fl_json_num(f, r->p);
	fprintf(f, ",\"significant\":%s,\"direction\":\"%s\",\"mmtests_ratio\":",
		r->significant ? "true" : "false",
		r->higher_is_better ? "higher_is_better" : "lower_is_better");
	fl_json_num(f, r->mm_ratio);
	fprintf(f, ",\"mmtests_marked\":%s", r->mm_marked ? "true" : "false");
}

void fl_cmp_snaps_write_json(FILE *f, const struct fl_cmp_snaps *p)
{
	fprintf(f, "{\"faultline_compare\":1,\"inputs\":\"snapshots\",\"recordings\":[%u,%u],"
		"\"alpha\":", p->side[0].n, p->side[1].n);
	fl_json_num(f, p->alpha);
	fprintf(f, ",\"pct\":\"(B-A)/A*100\",\"test\":\"%s\",\"test_method\":", RANK_TEST_NAME);
	fl_json_str(f, RANK_TEST_WHAT);
	for (int s = 0; s < 2; s++) {
		fprintf(f, ",\"%c\":", 'a' + s);
		json_side(f, &p->side[s]);
	}
	fprintf(f, ",\"figures\":[");
	for (unsigned int i = 0; i < p->nrow; i++) {
		const struct fl_csn_row *r = &p->row[i];

		fprintf(f, "%s{\"section\":\"%s\",\"name\":", i ? "," : "", r->section);
		fl_json_str(f, r->name);
		fprintf(f, ",\"unit\":\"%s\",\"compared\":%s", r->unit,
			r->have[0] && r->have[1] ? "true" : "false");
		for (int s = 0; s < 2; s++) {
			fprintf(f, ",\"%c\":", 'a' + s);
			if (r->have[s])
				fl_json_num(f, r->v[s]);
			else
				fputs("null", f);
		}
		fprintf(f, ",\"pct\":");
		fl_json_num(f, r->pct);
		if (p->multi)
			json_stats(f, r);
		json_gaps(f, r->have, r->why);
		fputc('}', f);
	}
	fprintf(f, "],\"rank_tests\":[");
	for (unsigned int i = 0; i < p->nrank; i++) {
		const struct fl_csn_rank *k = &p->rank[i];
		int both = k->have[0] && k->have[1];

		fprintf(f, "%s{\"histogram\":\"%s\"", i ? "," : "", k->hist);
		if (k->by)
			fprintf(f, ",\"by\":\"%s\",\"group\":%u", k->by, k->group);
		fprintf(f, ",\"compared\":%s", both ? "true" : "false");
		if (both) {
			fprintf(f, ",\"n_a\":");
			fl_json_num(f, k->t.n[0]);
			fprintf(f, ",\"n_b\":");
			fl_json_num(f, k->t.n[1]);
			fprintf(f, ",\"u\":");
			fl_json_num(f, k->t.u);
			fprintf(f, ",\"prob_b_above_a\":");
			fl_json_num(f, k->t.prob);
			fprintf(f, ",\"p50_a\":");
			fl_json_num(f, k->p50[0]);
			fprintf(f, ",\"p50_b\":");
			fl_json_num(f, k->p50[1]);
			fprintf(f, ",\"p99_a\":");
			fl_json_num(f, k->p99[0]);
			fprintf(f, ",\"p99_b\":");
			fl_json_num(f, k->p99[1]);
			fprintf(f, ",\"z\":");
			fl_json_num(f, k->t.z);
			fprintf(f, ",\"p\":");
			fl_json_num(f, k->t.p);
			fprintf(f, ",\"significant\":%s,\"buckets\":[",
				k->significant ? "true" : "false");
			/* [lo_ns, hi_ns) as export's buckets */
			for (unsigned int b = 0, n = 0; b < FL_HIST_NBUCKETS; b++)
				if (bucket_used(k, b))
					fprintf(f, "%s{\"lo_ns\":%llu,\"hi_ns\":%llu,\"a\":%llu,"
						"\"b\":%llu}", n++ ? "," : "", fl_hist_lower(b),
						fl_hist_upper(b), k->h[0].buckets[b],
						k->h[1].buckets[b]);
			fputc(']', f);
		}
		json_gaps(f, k->have, k->why);
		fputc('}', f);
	}
	fprintf(f, "],\"blame\":");
	fl_bcmp_json(f, &p->c);
	fprintf(f, ",\"notes\":[");
	for (unsigned int i = 0; i < p->nnotes; i++) {
		if (i)
			fputc(',', f);
		fl_json_str(f, p->notes[i]);
	}
	fprintf(f, "]}\n");
}

/* ---- csv ---- */

static void csv_num(FILE *f, double v)
{
	char b[48];

	if (isfinite(v)) {
		fl_fmt_double(b, sizeof(b), v);
		fputs(b, f);
	}
}

static void csv_gaps(FILE *f, const int have[2], const char why[2][FL_CSN_WHY])
{
	for (int s = 0; s < 2; s++) {
		fputc(',', f);
		if (!have[s])
			fl_csv_str(f, why[s]);
	}
}

static void csv_text_row(FILE *f, const char *section, const char *name, const char *a,
			 const char *b, const char *text)
{
	fprintf(f, "%s,%s,,", section, name);
	fl_csv_str(f, a ? a : "");
	fputc(',', f);
	fl_csv_str(f, b ? b : "");
	fputs(",,,,,,,,,", f);
	fl_csv_str(f, text ? text : "");
	fputs(",,,,,\n", f);
}

/*
 * --hist: a row per non-empty bucket of each compared rank row, after the
 * rank_test rows: hist_bucket,NAME (the rank_test row's),events,A's
 * events in it,B's, and in text the bucket "[lo,hi)" in ns.
 */
static void csv_hist(FILE *f, const struct fl_cmp_snaps *p)
{
	char name[64], range[64];

	for (unsigned int r = 0; r < p->nrank; r++) {
		const struct fl_csn_rank *k = &p->rank[r];

		if (!(k->have[0] && k->have[1]))
			continue;
		rank_name(name, sizeof(name), k, '/');
		for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++) {
			if (!bucket_used(k, i))
				continue;
			snprintf(range, sizeof(range), "[%llu,%llu)", fl_hist_lower(i),
				 fl_hist_upper(i));
			fprintf(f, "hist_bucket,%s,events,%llu,%llu,,,,,,,,,", name,
				k->h[0].buckets[i], k->h[1].buckets[i]);
			fl_csv_str(f, range);
			fputs(",,,,,\n", f);
		}
	}
}

void fl_cmp_snaps_write_csv(FILE *f, const struct fl_cmp_snaps *p, const struct fl_csn_view *v)
{
	char a[32], b[32];

	fprintf(f, "section,name,unit,a,b,pct,p_value,significant,u,prob_b_above_a,z,"
		"gap_a,gap_b,text,n_a,n_b,stddev_a,stddev_b,mmtests_marked\n");
	csv_text_row(f, "recording", "label", p->side[0].label, p->side[1].label, NULL);
	csv_text_row(f, "recording", "file", p->side[0].file, p->side[1].file, NULL);
	csv_text_row(f, "recording", "kernel", p->side[0].krel, p->side[1].krel, NULL);
	csv_text_row(f, "recording", "tier", p->side[0].tier, p->side[1].tier, NULL);
	fl_fmt_double(a, sizeof(a), p->side[0].secs);
	fl_fmt_double(b, sizeof(b), p->side[1].secs);
	csv_text_row(f, "recording", "seconds", a, b, NULL);
	for (unsigned int i = 0; i < p->nrow; i++) {
		const struct fl_csn_row *r = &p->row[i];

		fprintf(f, "%s,%s,%s,", r->section, r->name, r->unit);
		if (r->have[0])
			csv_num(f, r->v[0]);
		fputc(',', f);
		if (r->have[1])
			csv_num(f, r->v[1]);
		fputc(',', f);
		csv_num(f, r->pct);
		fputc(',', f);
		csv_num(f, r->p);
		fprintf(f, ",%s,,,", isnan(r->p) ? "" : r->significant ? "yes" : "no");
		csv_gaps(f, r->have, r->why);
		fputc(',', f);
		for (int s = 0; s < 2; s++)
			if (r->have[s])
				fprintf(f, ",%u", r->st[s].n);
			else
				fputc(',', f);
		for (int s = 0; s < 2; s++) {
			fputc(',', f);
			if (r->have[s])
				csv_num(f, r->st[s].stddev);
		}
		fprintf(f, ",%s\n", isnan(r->mm_ratio) ? "" : r->mm_marked ? "yes" : "no");
	}
	for (unsigned int i = 0; i < p->nrank; i++) {
		const struct fl_csn_rank *k = &p->rank[i];
		int both = k->have[0] && k->have[1];

		char name[64];

		rank_name(name, sizeof(name), k, '/');
		fprintf(f, "rank_test,%s,events,", name);
		if (both) {
			csv_num(f, k->t.n[0]);
			fputc(',', f);
			csv_num(f, k->t.n[1]);
			fputs(",,", f);
			csv_num(f, k->t.p);
			fprintf(f, ",%s,", k->significant ? "yes" : "no");
			csv_num(f, k->t.u);
			fputc(',', f);
			csv_num(f, k->t.prob);
			fputc(',', f);
			csv_num(f, k->t.z);
		} else {
			fputs(",,,,,,,", f);
		}
		csv_gaps(f, k->have, k->why);
		fputs(",,,,,,\n", f);
	}
	if (v && v->hist)
		csv_hist(f, p);
	csv_text_row(f, "blame", "explain", NULL, NULL, p->c.explain);
	for (unsigned int i = 0; i < p->nnotes; i++)
		csv_text_row(f, "note", "note", NULL, NULL, p->notes[i]);
}

/* ---- markdown ---- */

/* --hist: one table of every compared rank row's buckets (no newline after the last row) */
static void md_hist(FILE *f, const struct fl_cmp_snaps *p)
{
	struct bucket_cells c;
	char name[64];

	fprintf(f, "\n\nHistograms, %s%s:\n\n| histogram | bucket (ns) | A | B | A share | "
		"B share |\n|---|---|---:|---:|---:|---:|", HIST_WHAT,
		p->multi ? " (several recordings a side: their events pooled)" : "");
	for (unsigned int r = 0; r < p->nrank; r++) {
		const struct fl_csn_rank *k = &p->rank[r];

		if (!(k->have[0] && k->have[1]))
			continue;
		rank_name(name, sizeof(name), k, ' ');
		for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++)
			if (bucket_cells(k, i, &c))
				fprintf(f, "\n| %s | %s | %s | %s | %s | %s |", name, c.range,
					c.n[0], c.n[1], c.share[0], c.share[1]);
	}
}

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void fl_cmp_snaps_write_md(FILE *f, const struct fl_cmp_snaps *p, const struct fl_csn_view *vw)
{
	char v[2][64], ch[2 * FL_CSN_WHY + 40], fig[80];
	int prec = prec_of(vw);

	fprintf(f, "| recording | A | B |\n|---|---|---|\n");
	fprintf(f, "| label | %s | %s |\n", p->side[0].label, p->side[1].label);
	fprintf(f, "| file | ");
	for (int s = 0; s < 2; s++) {
		recordings(f, p, s);
		fprintf(f, " | ");
	}
	fprintf(f, "\n| kernel | %s | %s |\n", p->side[0].krel, p->side[1].krel);
	fprintf(f, "| backend/tier | %s/%s | %s/%s |\n", p->side[0].backend, p->side[0].tier,
		p->side[1].backend, p->side[1].tier);
	fprintf(f, "| seconds | %.3f | %.3f |\n", p->side[0].secs, p->side[1].secs);
	if (p->multi)
		fprintf(f, "\n| section | figure | A mean | A stddev | A n | B mean | B stddev | "
			"B n | B vs A | p (Welch) |\n|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n");
	else
		fprintf(f, "\n| section | figure | A | B | B vs A |\n|---|---|---:|---:|---|\n");
	for (unsigned int i = 0; i < p->nrow; i++) {
		const struct fl_csn_row *r = &p->row[i];

		figure(fig, sizeof(fig), r);
		if (r->have[0] && r->have[1])
			change(ch, sizeof(ch), r);
		else
			not_compared(ch, sizeof(ch), r->have, r->why);
		fprintf(f, "| %s | %s ", r->section, fig);
		for (int s = 0; s < 2; s++) {
			if (r->have[s])
				value(v[s], sizeof(v[s]), r->unit, r->v[s], prec);
			else
				snprintf(v[s], sizeof(v[s]), "-");
			if (!p->multi) {
				fprintf(f, "| %s ", v[s]);
				continue;
			}
			if (r->have[s]) {
				char sd[64];

				fl_fmt_sig(sd, sizeof(sd), r->st[s].stddev, prec);
				fprintf(f, "| %s | %s | %u ", v[s], sd, r->st[s].n);
			} else {
				fprintf(f, "| - | | ");
			}
		}
		fprintf(f, "| ");
		/* markdown would read *x%* as emphasis */
		for (const char *c = ch; *c; c++) {
			if (*c == '|' || *c == '*')
				fputc('\\', f);
			fputc(*c, f);
		}
		if (p->multi) {
			if (isnan(r->p))
				fprintf(f, " | n/a");
			else
				fprintf(f, " | %s%.3g%s", r->significant ? "**" : "", r->p,
					r->significant ? "**" : "");
		}
		fprintf(f, " |\n");
	}
	fprintf(f, "\n| histogram | A n | B n | A p50 (ns) | B p50 (ns) | A p99 (ns) | B p99 (ns) "
		"| P(B>A) | z | p (rank test) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (unsigned int i = 0; i < p->nrank; i++) {
		const struct fl_csn_rank *k = &p->rank[i];
		char name[64];

		rank_name(name, sizeof(name), k, ' ');
		if (!(k->have[0] && k->have[1])) {
			not_compared(ch, sizeof(ch), k->have, k->why);
			fprintf(f, "| %s | ", name);
			md_cell(f, ch);
			fprintf(f, " | | | | | | | | |\n");
			continue;
		}
		fprintf(f, "| %s | %.0f | %.0f ", name, k->t.n[0], k->t.n[1]);
		for (int q = 0; q < 4; q++) {
			char b[48];

			fl_fmt_sig(b, sizeof(b), q < 2 ? k->p50[q] : k->p99[q - 2], prec);
			fprintf(f, "| %s ", b);
		}
		fprintf(f, "| %.3f | %.2f | %s%.3g%s |\n", k->t.prob, k->t.z,
			k->significant ? "**" : "", k->t.p, k->significant ? "**" : "");
	}
	fprintf(f, "\nRank test: %s. Bold: p < %g. %% = (B-A)/A.", RANK_TEST_WHAT, p->alpha);
	if (p->multi)
		fprintf(f, " \\*x.xx%%\\*: marked by mmtests compare-kernels' rule (the 95%% "
			"intervals mean +- 1.96 sd of A and B do not overlap). p (Welch): Welch's "
			"t-test over the recordings, two-sided.");
	if (vw && vw->hist)
		md_hist(f, p);
	fprintf(f, "\n\nBlame:\n- %s\n", p->c.explain);
	if (p->c.have[0] && p->c.have[1])
		fl_bcmp_fb_md(f, &p->c);
	for (unsigned int i = 0; i < p->nnotes; i++)
		fprintf(f, "%s- %s\n", i ? "" : "\nNotes:\n", p->notes[i]);
}
