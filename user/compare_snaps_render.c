// SPDX-License-Identifier: GPL-2.0
/*
 * compare A.snap B.snap as text, JSON, CSV and Markdown (compare_snaps.h):
 * the rows of fl_cmp_snaps in every layout, a figure a side could not
 * measure as "not compared (A: why)", never as a number.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void text_value(char *buf, size_t len, const char *unit, double v)
{
	if (!strcmp(unit, "ns"))
		fl_fmt_ns(buf, len, (unsigned long long)llround(v));
	else if (!strcmp(unit, "1/s"))
		snprintf(buf, len, "%.1f/s", v);
	else if (!strcmp(unit, "per_mille"))
		snprintf(buf, len, "%.2f", v);	/* the name says _per_mille */
	else if (!strcmp(unit, "ns/fault"))
		snprintf(buf, len, "%.1f ns", v);
	else if (!strcmp(unit, "ns/s"))
		fl_bcmp_fmt_rate(buf, len, v, 0);
	else
		snprintf(buf, len, "%.0f", v);
}

static void change(char *buf, size_t len, const struct fl_csn_row *r)
{
	if (r->v[0] == r->v[1])
		snprintf(buf, len, "=");
	else if (isnan(r->pct))
		snprintf(buf, len, "n/a (A is 0)");
	else
		fl_fmt_pct(buf, len, r->pct);
}

/*
 * One section's rows.  A row a side could not measure says "not compared
 * [n]", and [n] under the table "not compared (A: why)": the snapshots'
 * reasons are long, and rows of one histogram or one path share them.
 */
static void text_section(FILE *f, const struct fl_cmp_snaps *p, const char *section,
			 const char *title)
{
	struct fl_table t = { .ncol = 4 };
	static int right[4] = { 0, 1, 1, 0 };
	char head[2][160], (*fn)[2 * FL_CSN_WHY + 40] = NULL;
	char *row[4] = { "FIGURE", head[0], head[1], "B vs A" };
	unsigned int n = 0, nfn = 0;

	t.right = right;
	for (unsigned int i = 0; i < p->nrow; i++)
		n += !strcmp(p->row[i].section, section);
	if (!n || !(fn = calloc(n, sizeof(*fn))))
		return;
	for (int s = 0; s < 2; s++)
		snprintf(head[s], sizeof(head[s]), "(%c) %s", 'A' + s, p->side[s].label);
	fprintf(f, "\n[*] %s\n", title);
	fl_table_add(&t, row);
	for (unsigned int i = 0; i < p->nrow; i++) {
		const struct fl_csn_row *r = &p->row[i];
		char v[2][64], ch[sizeof(*fn)];
		unsigned int k;

		if (strcmp(r->section, section))
			continue;
		for (int s = 0; s < 2; s++) {
			if (r->have[s])
				text_value(v[s], sizeof(v[s]), r->unit, r->v[s]);
			else
				snprintf(v[s], sizeof(v[s]), "-");
		}
		if (r->have[0] && r->have[1]) {
			change(ch, sizeof(ch), r);
		} else {
			not_compared(ch, sizeof(ch), r->have, r->why);
			for (k = 0; k < nfn && strcmp(fn[k], ch); k++)
				;
			if (k == nfn)
				memcpy(fn[nfn++], ch, sizeof(ch));
			snprintf(ch, sizeof(ch), "not compared [%u]", k + 1);
		}
		fl_table_add(&t, (char *[]){ (char *)r->name, v[0], v[1], ch });
	}
	fl_table_print(f, &t);
	fl_table_free(&t);
	for (unsigned int k = 0; k < nfn; k++)
		fprintf(f, "  [%u] %s\n", k + 1, fn[k]);
	free(fn);
}

static void text_rank(FILE *f, const struct fl_cmp_snaps *p)
{
	struct fl_table t = { .ncol = 6 };
	static int right[6] = { 0, 1, 1, 1, 1, 1 };
	char nc[2 * FL_CSN_WHY + 40];

	t.right = right;
	fprintf(f, "\n[*] RANK TEST (%s)\n", RANK_TEST_WHAT);
	fl_table_add(&t, (char *[]){ "HISTOGRAM", "N (A)", "N (B)", "P(B>A)", "z", "p" });
	for (unsigned int i = 0; i < p->nrank; i++) {
		const struct fl_csn_rank *k = &p->rank[i];
		char c[5][48];

		if (!(k->have[0] && k->have[1]))
			continue;
		snprintf(c[0], sizeof(c[0]), "%.0f", k->t.n[0]);
		snprintf(c[1], sizeof(c[1]), "%.0f", k->t.n[1]);
		snprintf(c[2], sizeof(c[2]), "%.3f", k->t.prob);
		snprintf(c[3], sizeof(c[3]), "%.2f", k->t.z);
		snprintf(c[4], sizeof(c[4]), k->significant ? "*%.3g*" : "%.3g", k->t.p);
		fl_table_add(&t, (char *[]){ (char *)k->hist, c[0], c[1], c[2], c[3], c[4] });
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
	fprintf(f, "P(B>A): the chance that an event of B lies in a higher bucket than one of A "
		"(ties count half; 0.5 = no shift).  *p*: p < %g.  Every event is one "
		"observation: with many events a small shift is significant; the quantiles "
		"above say how large it is.\n", p->alpha);
}

void fl_cmp_snaps_write_text(FILE *f, const struct fl_cmp_snaps *p)
{
	fprintf(f, "[*] RECORDINGS\n");
	for (int s = 0; s < 2; s++) {
		const struct fl_csn_side *sd = &p->side[s];

		fprintf(f, "  (%c) %s: %s, kernel %s, %s/%s, lockless %s, %u CPU%s, %.3f s\n",
			'A' + s, sd->label, sd->file, sd->krel, sd->backend, sd->tier, sd->ll_kind,
			sd->nr_cpus, sd->nr_cpus == 1 ? "" : "s", sd->secs);
	}
	for (unsigned int i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		text_section(f, p, sections[i].section, sections[i].title);
		if (!strcmp(sections[i].section, "mmap_lock"))
			text_rank(f, p);
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
	fprintf(f, ",\"cpus\":%u,\"seconds\":", sd->nr_cpus);
	fl_json_num(f, sd->secs);
	fputc('}', f);
}

static void json_gaps(FILE *f, const int have[2], const char why[2][FL_CSN_WHY])
{
	for (int s = 0; s < 2; s++)
		if (!have[s]) {
			fprintf(f, ",\"gap_%c\":", 'a' + s);
			fl_json_str(f, why[s]);
		}
}

void fl_cmp_snaps_write_json(FILE *f, const struct fl_cmp_snaps *p)
{
	fprintf(f, "{\"faultline_compare\":1,\"inputs\":\"snapshots\",\"alpha\":");
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
		json_gaps(f, r->have, r->why);
		fputc('}', f);
	}
	fprintf(f, "],\"rank_tests\":[");
	for (unsigned int i = 0; i < p->nrank; i++) {
		const struct fl_csn_rank *k = &p->rank[i];
		int both = k->have[0] && k->have[1];

		fprintf(f, "%s{\"histogram\":\"%s\",\"compared\":%s", i ? "," : "", k->hist,
			both ? "true" : "false");
		if (both) {
			fprintf(f, ",\"n_a\":");
			fl_json_num(f, k->t.n[0]);
			fprintf(f, ",\"n_b\":");
			fl_json_num(f, k->t.n[1]);
			fprintf(f, ",\"u\":");
			fl_json_num(f, k->t.u);
			fprintf(f, ",\"prob_b_above_a\":");
			fl_json_num(f, k->t.prob);
			fprintf(f, ",\"z\":");
			fl_json_num(f, k->t.z);
			fprintf(f, ",\"p\":");
			fl_json_num(f, k->t.p);
			fprintf(f, ",\"significant\":%s", k->significant ? "true" : "false");
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
	fputc('\n', f);
}

void fl_cmp_snaps_write_csv(FILE *f, const struct fl_cmp_snaps *p)
{
	char a[32], b[32];

	fprintf(f, "section,name,unit,a,b,pct,p_value,significant,u,prob_b_above_a,z,"
		"gap_a,gap_b,text\n");
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
		fputs(",,,,,", f);
		csv_gaps(f, r->have, r->why);
		fputs(",\n", f);
	}
	for (unsigned int i = 0; i < p->nrank; i++) {
		const struct fl_csn_rank *k = &p->rank[i];
		int both = k->have[0] && k->have[1];

		fprintf(f, "rank_test,%s,events,", k->hist);
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
		fputs(",\n", f);
	}
	csv_text_row(f, "blame", "explain", NULL, NULL, p->c.explain);
	for (unsigned int i = 0; i < p->nnotes; i++)
		csv_text_row(f, "note", "note", NULL, NULL, p->notes[i]);
}

/* ---- markdown ---- */

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void fl_cmp_snaps_write_md(FILE *f, const struct fl_cmp_snaps *p)
{
	char v[2][64], ch[2 * FL_CSN_WHY + 40];

	fprintf(f, "| recording | A | B |\n|---|---|---|\n");
	fprintf(f, "| label | %s | %s |\n", p->side[0].label, p->side[1].label);
	fprintf(f, "| file | %s | %s |\n", p->side[0].file, p->side[1].file);
	fprintf(f, "| kernel | %s | %s |\n", p->side[0].krel, p->side[1].krel);
	fprintf(f, "| backend/tier | %s/%s | %s/%s |\n", p->side[0].backend, p->side[0].tier,
		p->side[1].backend, p->side[1].tier);
	fprintf(f, "| seconds | %.3f | %.3f |\n", p->side[0].secs, p->side[1].secs);
	fprintf(f, "\n| section | figure | A | B | B vs A |\n|---|---|---:|---:|---|\n");
	for (unsigned int i = 0; i < p->nrow; i++) {
		const struct fl_csn_row *r = &p->row[i];

		for (int s = 0; s < 2; s++) {
			if (r->have[s])
				text_value(v[s], sizeof(v[s]), r->unit, r->v[s]);
			else
				snprintf(v[s], sizeof(v[s]), "-");
		}
		if (r->have[0] && r->have[1])
			change(ch, sizeof(ch), r);
		else
			not_compared(ch, sizeof(ch), r->have, r->why);
		fprintf(f, "| %s | %s | %s | %s | ", r->section, r->name, v[0], v[1]);
		md_cell(f, ch);
		fprintf(f, " |\n");
	}
	fprintf(f, "\n| histogram | A n | B n | P(B>A) | z | p (rank test) |\n"
		"|---|---:|---:|---:|---:|---:|\n");
	for (unsigned int i = 0; i < p->nrank; i++) {
		const struct fl_csn_rank *k = &p->rank[i];

		if (!(k->have[0] && k->have[1])) {
			not_compared(ch, sizeof(ch), k->have, k->why);
			fprintf(f, "| %s | ", k->hist);
			md_cell(f, ch);
			fprintf(f, " | | | | |\n");
			continue;
		}
		fprintf(f, "| %s | %.0f | %.0f | %.3f | %.2f | %s%.3g%s |\n", k->hist, k->t.n[0],
			k->t.n[1], k->t.prob, k->t.z, k->significant ? "**" : "", k->t.p,
			k->significant ? "**" : "");
	}
	fprintf(f, "\nRank test: %s. Bold: p < %g. %% = (B-A)/A.\n", RANK_TEST_WHAT, p->alpha);
	fprintf(f, "\nBlame:\n- %s\n", p->c.explain);
	if (p->c.have[0] && p->c.have[1])
		fl_bcmp_fb_md(f, &p->c);
	for (unsigned int i = 0; i < p->nnotes; i++)
		fprintf(f, "%s- %s\n", i ? "" : "\nNotes:\n", p->notes[i]);
}
