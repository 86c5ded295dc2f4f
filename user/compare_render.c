// SPDX-License-Identifier: GPL-2.0
/*
 * The renderers of the A/B comparison (compare.h's model): the seed
 * report's text layout (KERNELS, TAGS, METRICS with (A), (B) and % rows,
 * then legend, EXPLAIN, BLAME, GAPS, NOTES), JSON, CSV and Markdown (two
 * snapshots: compare_snaps_render.c).  faultline compare chooses.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_label.h"
#include "compare_render.h"
#include "compare_table.h"
#include "export_out.h"
#include "kv.h"

/* The seed's TAGS block, in its order; then ours. */
static const char *const seed_tags[] = {
	"kernel_version", "kernel_version_major", "kernel_version_minor",
	"machine_platform_arch", "machine_platform_genus", "machine_total_logical_cores",
	"machine_total_physical_cores", "machine_total_ram_gib", "test_name", "user",
};
static const char *const more_tags[] = {
	"cpu_model_name", "machine_sockets", "machine_numa_nodes", "machine_llc_domains",
	"level3_cache_size", "thp_enabled",
};
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *side_tag(const struct fl_cmp *c, int s, const char *key, char *buf, size_t len)
{
	return c->sw[s].tags ? fl_kv_get(c->sw[s].tags, key, buf, len) : NULL;
}

/* --label-X, else what tells A from B (compare_label.h); with the shape
 * when A and B differ in it (fl_cmp_side_label). */
static const char *side_label(const struct fl_cmp *c, const struct fl_cmp_view *o, int s,
			      char *buf, size_t len)
{
	char lb[2][FL_LABEL_LEN];

	fl_cmp_labels(c, o->label, lb);
	return fl_cmp_side_label(c, s, lb[s], buf, len);
}

/* "A:B" when the sides differ, "-" for a missing side; NULL when neither has it. */
static const char *merged(const char *va, const char *vb, char *out, size_t len)
{
	if (!va && !vb)
		return NULL;
	if (va && vb && !strcmp(va, vb))
		snprintf(out, len, "%s", va);
	else
		snprintf(out, len, "%s:%s", va ? va : "-", vb ? vb : "-");
	return out;
}

static const char *merged_tag(const struct fl_cmp *c, const char *key, char *out, size_t len)
{
	char a[256], b[256];

	return merged(side_tag(c, 0, key, a, sizeof(a)), side_tag(c, 1, key, b, sizeof(b)),
		      out, len);
}

static const char *merged_conf(const struct fl_cmp *c, const char *key, char *out, size_t len)
{
	char a[256], b[256];
	const char *va = c->sw[0].conf ? fl_kv_get(c->sw[0].conf, key, a, sizeof(a)) : NULL;
	const char *vb = c->sw[1].conf ? fl_kv_get(c->sw[1].conf, key, b, sizeof(b)) : NULL;

	return merged(va, vb, out, len);
}

/* PFT_* keys of both sweep.conf files, first-seen order, no duplicates. */
static unsigned int conf_keys(const struct fl_cmp *c, char keys[][64], unsigned int max)
{
	unsigned int n = 0;

	for (int s = 0; s < 2; s++) {
		const char *p = c->sw[s].conf, *next;

		for (; p && *p; p = next) {
			const char *eol, *q, *eq;

			next = fl_kv_line(p, &q, &eol);
			eq = memchr(q, '=', eol - q);
			if (eq && eq - q < 64 && !strncmp(q, "PFT_", 4) && n < max) {
				char k[64];
				unsigned int i;

				memcpy(k, q, eq - q);
				k[eq - q] = '\0';
				for (i = 0; i < n && strcmp(keys[i], k); i++)
					;
				if (i == n)
					strcpy(keys[n++], k);
			}
		}
	}
	return n;
}

/* every digit (the seed's), or --precision significant ones */
static void num(char *buf, size_t len, double v, int prec)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (prec)
		fl_fmt_sig(buf, len, v, prec);
	else
		fl_fmt_double(buf, len, v);
}

static void print_explain(FILE *f, const struct fl_cmp *c)
{
	if (!c->have_phases)
		return;
	fprintf(f, "\n[*] EXPLAIN\n");
	for (unsigned int i = 0; i < c->nexplain; i++)
		fprintf(f, "%s\n", c->explain[i].text);
	if (!c->nexplain && !(c->side_phases[0] && c->side_phases[1]))
		fprintf(f, "cannot compare fault phases: %s was recorded without --phases\n",
			c->side_phases[0] ? "B" : "A");
	else if (!c->nexplain)
		fprintf(f, "no significant change in the fault phases or lock classes between A "
			"and B\n(Welch's t-test, p >= %g at every thread count run on both sides)\n",
			c->alpha);
}

/* [*] BLAME: the holders of mmap_lock, per thread count (record --blame). */
static void print_blame(FILE *f, const struct fl_cmp *c)
{
	if (!c->have_blame)
		return;
	fprintf(f, "\n[*] BLAME\n");
	for (unsigned int i = 0; i < c->nblame; i++) {
		fprintf(f, "%s%s:\n", i ? "\n" : "", c->blame[i].where);
		fl_bcmp_text(f, &c->blame[i]);
	}
	if (!c->nblame)
		fprintf(f, "no thread count was run on both sides\n");
}

/* [*] KERNELS: the two boxes, kernel file or version, results directory. */
static void text_kernels(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o)
{
	static const char *const box[2] = { "BASE KERNEL (A)", "TEST KERNEL (B)" };

	fprintf(f, "[*] KERNELS\n");
	for (int s = 0; s < 2; s++) {
		char kb[256];
		const char *k = o->kernel[s] ? o->kernel[s] :
				side_tag(c, s, FL_TAG_KERNEL_FILE, kb, sizeof(kb));

		fprintf(f, "%s+-----------------+\n| %s |\n+-----------------+\n",
			s ? "\n" : "", box[s]);
		if (k)
			fprintf(f, "Kernel File: %s\n", k);
		else if (side_tag(c, s, FL_TAG_KERNEL_VERSION, kb, sizeof(kb)))
			fprintf(f, "Kernel: %s\n", kb);
		else
			fprintf(f, "Kernel: unknown (no kernel_version tag in %s/tags)\n",
				c->sw[s].dir);
		if (!o->seed)
			fprintf(f, "Results: %s\nShape: %s%s\n", c->sw[s].dir, c->shape[s],
				c->shape_differs ? " (differs from the other side's)" : "");
	}
}

/* [*] TAGS: the seed's tags, then (not --seed) ours and sweep.conf's PFT_* keys. */
static void text_tags(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o)
{
	struct fl_table t = { 0 };
	char buf[600];

	fprintf(f, "\n\n[*] TAGS\n");
	t.ncol = 2;
	fl_table_add(&t, (char *[]){ "LABEL", "VALUE" });
	for (size_t i = 0; i < ARRAY_SIZE(seed_tags); i++) {
		if (merged_tag(c, seed_tags[i], buf, sizeof(buf)))
			fl_table_add(&t, (char *[]){ (char *)seed_tags[i], buf });
		else if (!strcmp(seed_tags[i], "test_name"))
			/* pft results by construction (pft-N.log), else
			 * will-it-scale's (benchlog-<test>_<model>-N) */
			fl_table_add(&t, (char *[]){ "test_name",
				     c->sw[0].wis ? "will-it-scale" : "pft" });
	}
	if (!o->seed) {
		char keys[64][64];
		unsigned int nk = conf_keys(c, keys, 64);

		for (size_t i = 0; i < ARRAY_SIZE(more_tags); i++)
			if (merged_tag(c, more_tags[i], buf, sizeof(buf)))
				fl_table_add(&t, (char *[]){ (char *)more_tags[i], buf });
		for (unsigned int i = 0; i < nk; i++)
			if (merged_conf(c, keys[i], buf, sizeof(buf)))
				fl_table_add(&t, (char *[]){ keys[i], buf });
	}
	fl_table_print(f, &t);
	fl_table_free(&t);
	fprintf(f, "\nNote: values are delimited by colon (:)\n");
}

/* [*] METRICS: per metric a name row, a row per side (labels LAB), the % row. */
static void text_metrics(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o,
			 char lab[2][300])
{
	int right[9] = { 0, 1, 1, 1, 1, 1, 1, 0, 1 };
	struct fl_table t = { 0 };

	fprintf(f, "\n\n[*] METRICS\n");
	t.ncol = o->seed ? 8 : 9;
	t.right = right;
	fl_table_add(&t, (char *[]){ "LABEL", "COUNT", "MIN", "MAX", "MEAN", "MEDIAN", "STDDEV",
				  "DIRECTION", "P-VALUE" });
	for (unsigned int i = 0; i < c->nm; i++) {
		const struct fl_cmp_metric *m = &c->m[i];
		char cells[9][640], *row[9];

		for (int k = 0; k < 9; k++)
			row[k] = cells[k];
		for (int k = 0; k < 9; k++)
			cells[k][0] = '\0';
		/* the unit once, in the metric's own row */
		snprintf(cells[0], sizeof(cells[0]), o->seed ? "%s" : "%s (%s)", m->name,
			 m->unit);
		fl_table_add(&t, row);
		for (int s = 0; s < 2; s++) {
			const struct fl_stats *st = &m->st[s];

			for (int k = 0; k < 9; k++)
				cells[k][0] = '\0';
			snprintf(cells[0], sizeof(cells[0]), "%s", lab[s]);
			if (!m->have[s]) {
				/* no run at all, or runs that could not measure it */
				snprintf(cells[1], sizeof(cells[1]), m->no_run[s] ? "missing" : "n/a");
				for (int k = 2; k <= 6; k++)
					snprintf(cells[k], sizeof(cells[k]), "-");
			} else {
				snprintf(cells[1], sizeof(cells[1]), "%u", st->n);
				num(cells[2], sizeof(cells[2]), st->min, o->precision);
				num(cells[3], sizeof(cells[3]), st->max, o->precision);
				num(cells[4], sizeof(cells[4]), st->mean, o->precision);
				num(cells[5], sizeof(cells[5]), st->median, o->precision);
				num(cells[6], sizeof(cells[6]), st->stddev, o->precision);
			}
			fl_table_add(&t, row);
		}
		for (int k = 0; k < 9; k++)
			cells[k][0] = '\0';
		for (int p = 0; p < FL_PCT_NR; p++) {
			char pc[32];

			fl_fmt_pct(pc, sizeof(pc), m->pct[p]);
			if (!o->seed && p == FL_PCT_MEAN && m->mm_marked)
				snprintf(cells[2 + p], sizeof(cells[2 + p]), "*%s*", pc);
			else
				snprintf(cells[2 + p], sizeof(cells[2 + p]), "%s", pc);
		}
		if (o->seed)
			snprintf(cells[7], sizeof(cells[7]), "<not defined>");
		else
			snprintf(cells[7], sizeof(cells[7]), "%s is better",
				 m->higher_is_better ? "higher" : "lower");
		if (isnan(m->p))
			snprintf(cells[8], sizeof(cells[8]), "n/a");
		else
			snprintf(cells[8], sizeof(cells[8]), "%.3g", m->p);
		fl_table_add(&t, row);
	}
	fl_table_print(f, &t);
	fl_table_free(&t);
}

/* Below the tables (not --seed): legend, EXPLAIN, GAPS, NOTES. */
static void text_notes(FILE *f, const struct fl_cmp *c)
{
	int gaps = 0;

	fprintf(f, "\nDIRECTION: whether a + %% is an improvement.  P-VALUE: Welch's t-test "
		"of the runs, two-sided\n(p < %g: significant).  *x.xx%%*: a MEAN change "
		"mmtests compare-kernels would mark (the\n95%% intervals mean +- 1.96 sd of A "
		"and B do not overlap).  %s\nlatency, abort %% and "
		"mmap_lock rows: the collector's snapshots (one value per run).\n", c->alpha,
		c->sw[0].wis ? "wis_ops rows: will-it-scale's 1 s samples\nafter its "
		"warmup (mmtests' ops);" : "Faults rows: pft runs;");
	if (c->have_phases || c->have_locks)
		fprintf(f, "phase_* rows: mean ns per fault spent in that phase (record "
			"--phases; they add up to\nphases_latency_mean); lock_* rows: "
			"contended wait of that lock class per fault (record --locks).\n");
	print_explain(f, c);
	print_blame(f, c);
	for (unsigned int i = 0; i < c->nm; i++)
		for (int s = 0; s < 2; s++)
			if (!c->m[i].have[s] && c->m[i].gap[s][0]) {
				if (!gaps++)
					fprintf(f, "\n[*] GAPS\n");
				fprintf(f, "%s (%c): %s\n", c->m[i].name, 'A' + s,
					c->m[i].gap[s]);
			}
	if (c->nnotes)
		fprintf(f, "\n[*] NOTES\n");
	for (unsigned int i = 0; i < c->nnotes; i++)
		fprintf(f, "%s\n", c->notes[i]);
}

void fl_cmp_write_text(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o)
{
	char lab[2][300];

	for (int s = 0; s < 2; s++) {
		char lb[256];

		snprintf(lab[s], sizeof(lab[s]), "(%c) %s", 'A' + s,
			 side_label(c, o, s, lb, sizeof(lb)));
	}
	text_kernels(f, c, o);
	text_tags(f, c, o);
	text_metrics(f, c, o, lab);
	if (!o->seed)
		text_notes(f, c);
}

static void json_stats(FILE *f, const struct fl_cmp_metric *m, int s)
{
	if (!m->have[s])
		fprintf(f, "null");
	else
		fl_cmp_json_stats(f, &m->st[s]);
}

void fl_cmp_json_stats(FILE *f, const struct fl_stats *st)
{
	fprintf(f, "{\"count\":%u,\"min\":", st->n);
	fl_json_num(f, st->min);
	fprintf(f, ",\"max\":");
	fl_json_num(f, st->max);
	fprintf(f, ",\"mean\":");
	fl_json_num(f, st->mean);
	fprintf(f, ",\"median\":");
	fl_json_num(f, st->median);
	fprintf(f, ",\"stddev\":");
	fl_json_num(f, st->stddev);
	fprintf(f, ",\"stddev_sample\":");
	fl_json_num(f, st->sd_sample);
	fprintf(f, "}");
}

/* A side's tags ("k=v" lines) as one JSON object. */
static void json_tags(FILE *f, const char *tags)
{
	char buf[600];
	int nt = 0;

	fprintf(f, "{");
	for (const char *p = tags; p && *p; ) {
		const char *eol = strchr(p, '\n'), *eq;

		if (!eol)
			eol = p + strlen(p);
		eq = memchr(p, '=', eol - p);
		if (eq && eq > p && eol - p < (long)sizeof(buf)) {
			memcpy(buf, p, eq - p);
			buf[eq - p] = '\0';
			fprintf(f, "%s", nt++ ? "," : "");
			fl_json_str(f, buf);
			memcpy(buf, eq + 1, eol - eq - 1);
			buf[eol - eq - 1] = '\0';
			fputc(':', f);
			fl_json_str(f, buf);
		}
		p = *eol ? eol + 1 : eol;
	}
	fprintf(f, "}");
}

static void json_side(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o, int s)
{
	char lb[256];

	fprintf(f, ",\"%c\":{\"dir\":", 'a' + s);
	fl_json_str(f, c->sw[s].dir);
	fprintf(f, ",\"label\":");
	fl_json_str(f, side_label(c, o, s, lb, sizeof(lb)));
	fprintf(f, ",\"shape\":");
	if (c->shape_known[s])
		fl_json_str(f, c->shape[s]);
	else
		fprintf(f, "null");
	fprintf(f, ",\"tags\":");
	json_tags(f, c->sw[s].tags);
	fprintf(f, "}");
}

static void json_metric(FILE *f, const struct fl_cmp_metric *m, bool first)
{
	static const char *const pn[FL_PCT_NR] = { "min", "max", "mean", "median", "stddev" };

	fprintf(f, "%s{\"name\":\"%s\",\"kind\":\"%s\",\"threads\":%u,\"unit\":",
		first ? "" : ",", m->name, m->kind, m->threads);
	fl_json_str(f, m->unit);
	fprintf(f, ",\"direction\":\"%s\",\"a\":",
		m->higher_is_better ? "higher_is_better" : "lower_is_better");
	json_stats(f, m, 0);
	fprintf(f, ",\"b\":");
	json_stats(f, m, 1);
	fprintf(f, ",\"pct\":{");
	for (int p = 0; p < FL_PCT_NR; p++) {
		fprintf(f, "%s\"%s\":", p ? "," : "", pn[p]);
		fl_json_num(f, m->pct[p]);
	}
	fprintf(f, "},\"welch\":{\"t\":");
	fl_json_num(f, m->t);
	fprintf(f, ",\"df\":");
	fl_json_num(f, m->df);
	fprintf(f, ",\"p\":");
	fl_json_num(f, m->p);
	fprintf(f, "},\"significant\":%s,\"mmtests_ratio\":", m->significant ? "true" : "false");
	fl_json_num(f, m->mm_ratio);
	fprintf(f, ",\"mmtests_marked\":%s", m->mm_marked ? "true" : "false");
	for (int s = 0; s < 2; s++)
		if (!m->have[s]) {
			fprintf(f, ",\"gap_%c\":", 'a' + s);
			fl_json_str(f, m->gap[s]);
		}
	fprintf(f, "}");
}

static void json_explain(FILE *f, const struct fl_cmp_explain *e, bool first)
{
	fprintf(f, "%s{\"threads\":%u,\"significant\":%s,\"latency_change_ns\":",
		first ? "" : ",", e->threads, e->significant ? "true" : "false");
	fl_json_num(f, e->dlat);
	fprintf(f, ",\"phase\":");
	if (e->phase >= 0)
		fl_json_str(f, e->phase == FL_PH_NR ? "unattributed" : fl_phase_name(e->phase));
	else
		fprintf(f, "null");
	fprintf(f, ",\"phase_share_pct\":");
	fl_json_num(f, e->phase_share);
	fprintf(f, ",\"lock_class\":");
	if (e->lock >= 0)
		fl_json_str(f, fl_lock_class_name(e->lock));
	else
		fprintf(f, "null");
	fprintf(f, ",\"lock_share_pct\":");
	fl_json_num(f, e->lock_share);
	fprintf(f, ",\"text\":");
	fl_json_str(f, e->text);
	fprintf(f, "}");
}

void fl_cmp_write_json(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o)
{
	fprintf(f, "{\"faultline_compare\":1,\"alpha\":");
	fl_json_num(f, c->alpha);
	fprintf(f, ",\"stddev\":\"population (divide by n, as the seed)\",\"pct\":\"(B-A)/A*100\",\"test\":\"welch-t-two-sided\"");
	for (int s = 0; s < 2; s++)
		json_side(f, c, o, s);
	fprintf(f, ",\"shape_differs\":%s,\"metrics\":[", c->shape_differs ? "true" : "false");
	for (unsigned int i = 0; i < c->nm; i++)
		json_metric(f, &c->m[i], i == 0);
	fprintf(f, "],\"explain\":[");
	for (unsigned int i = 0; i < c->nexplain; i++)
		json_explain(f, &c->explain[i], i == 0);
	fprintf(f, "],\"blame\":[");
	for (unsigned int i = 0; i < c->nblame; i++) {
		fprintf(f, "%s{\"threads\":%u,\"holders\":", i ? "," : "", c->blame[i].threads);
		fl_bcmp_json(f, &c->blame[i]);
		fputc('}', f);
	}
	fprintf(f, "],\"notes\":[");
	for (unsigned int i = 0; i < c->nnotes; i++) {
		fprintf(f, "%s", i ? "," : "");
		fl_json_str(f, c->notes[i]);
	}
	fprintf(f, "]}\n");
}

static void csv_num(FILE *f, double v)
{
	char b[48];

	if (!isnan(v)) {
		fl_fmt_double(b, sizeof(b), v);
		fputs(b, f);
	}
}

void fl_cmp_write_csv(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o)
{
	fprintf(f, "metric,kind,threads,unit,row,label,count,min,max,mean,median,stddev,"
		"direction,p_value,significant,gap,shape\n");
	for (unsigned int i = 0; i < c->nm; i++) {
		const struct fl_cmp_metric *m = &c->m[i];
		const char *dir = m->higher_is_better ? "higher_is_better" : "lower_is_better";

		for (int s = 0; s < 3; s++) {
			char lb[256];

			fprintf(f, "%s,%s,%u,", m->name, m->kind, m->threads);
			fl_csv_str(f, m->unit);
			fprintf(f, ",%s,", s == 2 ? "pct" : s ? "B" : "A");
			if (s < 2)
				fl_csv_str(f, side_label(c, o, s, lb, sizeof(lb)));
			fputc(',', f);
			if (s < 2 && m->have[s]) {
				const struct fl_stats *st = &m->st[s];

				fprintf(f, "%u,", st->n);
				csv_num(f, st->min);
				fputc(',', f);
				csv_num(f, st->max);
				fputc(',', f);
				csv_num(f, st->mean);
				fputc(',', f);
				csv_num(f, st->median);
				fputc(',', f);
				csv_num(f, st->stddev);
			} else if (s == 2) {
				fputc(',', f);
				for (int p = 0; p < FL_PCT_NR; p++) {
					if (p)
						fputc(',', f);
					csv_num(f, m->pct[p]);
				}
			} else {
				fputs(",,,,,", f);
			}
			fprintf(f, ",%s,", dir);
			if (s == 2)
				csv_num(f, m->p);
			fprintf(f, ",%s,", s == 2 && m->significant ? "yes" : "");
			if (s < 2 && !m->have[s])
				fl_csv_str(f, m->gap[s]);
			fputc(',', f);
			if (s < 2)
				fl_csv_str(f, c->shape[s]);
			fputc('\n', f);
		}
	}
	/* EXPLAIN: one row per thread count; mean = B - A fault latency, last cell the sentence */
	for (unsigned int i = 0; i < c->nexplain; i++) {
		const struct fl_cmp_explain *e = &c->explain[i];

		fprintf(f, "explain,explain,%u,ns/fault,explain,,,,,", e->threads);
		csv_num(f, e->dlat);
		fprintf(f, ",,,,,%s,", e->significant ? "yes" : "");
		fl_csv_str(f, e->text);
		fputs(",\n", f);
	}
	/* BLAME: one row per thread count; mean = B - A of the fault wait in ns/s */
	for (unsigned int i = 0; i < c->nblame; i++) {
		const struct fl_bcmp *b = &c->blame[i];

		fprintf(f, "blame_explain,explain,%u,ns/s,explain,,,,,", b->threads);
		if (b->have[0] && b->have[1])
			csv_num(f, b->d_total);
		fprintf(f, ",,,,,%s,", b->speaks ? "yes" : "");
		fl_csv_str(f, b->explain);
		fputs(",\n", f);
		if (b->have[0] && b->have[1])
			fl_bcmp_fb_csv(f, b, csv_num);
	}
}

void fl_cmp_write_md(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o)
{
	char la[256], lb[256];

	fprintf(f, "**A** `%s` (%s, shape %s) vs **B** `%s` (%s, shape %s)\n\n",
		side_label(c, o, 0, la, sizeof(la)), c->sw[0].dir, c->shape[0],
		side_label(c, o, 1, lb, sizeof(lb)), c->sw[1].dir, c->shape[1]);
	fprintf(f, "| metric | A mean | A stddev | A n | B mean | B stddev | B n | mean %% | "
		"median %% | p (Welch) | direction |\n");
	fprintf(f, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (unsigned int i = 0; i < c->nm; i++) {
		const struct fl_cmp_metric *m = &c->m[i];
		char pm[32], pd[32];

		fprintf(f, "| %s (%s) ", m->name, m->unit);
		for (int s = 0; s < 2; s++) {
			char a[48], b[48];

			if (!m->have[s]) {
				fprintf(f, "| missing: %s | | ", m->gap[s]);
				continue;
			}
			num(a, sizeof(a), m->st[s].mean, o->precision);
			num(b, sizeof(b), m->st[s].stddev, o->precision);
			fprintf(f, "| %s | %s | %u ", a, b, m->st[s].n);
		}
		fl_fmt_pct(pm, sizeof(pm), m->pct[FL_PCT_MEAN]);
		fl_fmt_pct(pd, sizeof(pd), m->pct[FL_PCT_MEDIAN]);
		/* \\* : markdown would read *x%* as emphasis */
		fprintf(f, "| %s%s%s | %s | ", m->mm_marked ? "\\*" : "", pm,
			m->mm_marked ? "\\*" : "", pd);
		if (isnan(m->p))
			fprintf(f, "n/a");
		else
			fprintf(f, "%s%.3g%s", m->significant ? "**" : "", m->p,
				m->significant ? "**" : "");
		fprintf(f, " | %s is better |\n", m->higher_is_better ? "higher" : "lower");
	}
	fprintf(f, "\nBold p: p < %g (Welch's t-test, two-sided). \\*x.xx%%\\*: a mean change "
		"mmtests compare-kernels would mark (the 95%% intervals mean +- 1.96 sd of A and B "
		"do not overlap). %% = (B-A)/A.\n", c->alpha);
	for (unsigned int i = 0; i < c->nexplain; i++)
		fprintf(f, "%s- %s\n", i ? "" : "\nExplain:\n", c->explain[i].text);
	for (unsigned int i = 0; i < c->nblame; i++) {
		fprintf(f, "%s- %s\n", i ? "" : "\nBlame:\n", c->blame[i].explain);
		if (c->blame[i].have[0] && c->blame[i].have[1])
			fl_bcmp_fb_md(f, &c->blame[i]);
	}
	for (unsigned int i = 0; i < c->nnotes; i++)
		fprintf(f, "%s- %s\n", i ? "" : "\nNotes:\n", c->notes[i]);
}
