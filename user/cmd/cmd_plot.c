// SPDX-License-Identifier: GPL-2.0
/*
 * faultline plot: gnuplot pictures (PNG and/or SVG) of pft-sweep results and
 * snapshots: faults/sec and faults/cpu vs threads for A and B (mean and
 * stddev error bars), fault latency p50/p99 vs threads, lockless abort % vs
 * threads, mmap_lock wait vs threads, a stacked fault-phase breakdown vs
 * threads (record --phases), and a per-CPU fault-latency heatmap.  Writes the data files and
 * the gnuplot script beside the images so they can be re-plotted by hand.
 *
 * Nothing half-written: everything is written into a scratch directory
 * DIR/.plot-XXXXXX, gnuplot runs there, and only when it succeeded and made
 * every image are the files renamed into DIR; on any failure (or a signal
 * while gnuplot runs) the scratch directory goes, and DIR too when this run
 * created it.  gnuplot's stderr (its warnings) is shown only when it fails.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "compare.h"
#include "compare_label.h"
#include "kv.h"
#include "export_out.h"

#define MAX_PLOTS 16

struct plot {
	char name[64];		/* file stem */
};

struct ctx {
	const char *outdir;
	char work[3800];	/* the scratch directory in outdir: every file goes here first */
	int made_outdir;	/* outdir did not exist: removed again on failure */
	int png, svg;
	char label[2][256];
	int nsides;
	unsigned int heat_threads;
	int any_shape;
	const char *test;	/* --test: the will-it-scale test */
	FILE *gp;		/* the script, one section per plot and format */
	struct plot plots[MAX_PLOTS];
	int nplots;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline plot [OPTIONS] A [B]\n"
"  A, B: pft-sweep result directories, wis sweeps or mmtests wis results (B optional),\n"
"  or A alone: a snapshot file or a\n"
"  directory of snapshots (heatmap only)\n"
"  -o, --output DIR     where images, data and plot.gp go (default: plots)\n"
"  -f, --format FMT     png, svg or both (default both)\n"
"      --label-a L      legend name of A (default: its kernel_version tag)\n"
"      --label-b L\n"
"      --threads N      thread count of the per-CPU heatmap (default: the largest\n"
"                       with snapshots)\n"
"      --any-shape      plot A and B of different pft fault shapes (PFT_SHAPE) instead\n"
"                       of refusing; every legend then names its shape\n"
"      --test NAME      the will-it-scale test to plot (<test>_<model>) where A and B\n"
"                       hold several\n"
"Needs gnuplot (Debian: gnuplot-nox); $GNUPLOT overrides the program.\n");
}

/* gnuplot string literal: double quotes, backslash-escaped */
static void gpstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s != '\n')
			fputc(*s, f);
	}
	fputc('"', f);
}

static FILE *data_open(const struct ctx *c, const char *name, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", c->work, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "faultline plot: %s: %s\n", path, strerror(errno));
	return f;
}

static void num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.17g", v);
	else
		fputs(" ?", f);
}

/* One section per format: terminal, output to NAME.EXT, common settings. */
static void begin(struct ctx *c, const char *name, int svg, const char *title,
		  const char *xlabel, const char *ylabel)
{
	FILE *g = c->gp;

	if (svg)
		fprintf(g, "set terminal svg size 1000,650 dynamic font 'sans,12' background '#ffffff'\n");
	else
		fprintf(g, "set terminal pngcairo size 1000,650 font 'sans,10'\n");
	fprintf(g, "set output '%s.%s'\nreset\nset title ", name, svg ? "svg" : "png");
	gpstr(g, title);
	fprintf(g, " noenhanced\nset xlabel ");
	gpstr(g, xlabel);
	fprintf(g, " noenhanced\nset ylabel ");
	gpstr(g, ylabel);
	fprintf(g, " noenhanced\nset grid\nset key outside top center horizontal noenhanced\n"
		"set datafile missing '?'\n");
}

static void add_plot(struct ctx *c, const char *name)
{
	if (c->nplots < MAX_PLOTS)
		snprintf(c->plots[c->nplots++].name, sizeof(c->plots[0].name), "%s", name);
}

static int each_format(struct ctx *c, int i)
{
	return i == 0 ? c->png : c->svg;
}

/*
 * Where the thread labels go on a 1000-pixel-wide picture: about 860 pixels
 * of plot (the y labels take the rest), 8 pixels a digit (pngcairo 10pt and
 * svg 12pt digits are 6-8), at least 6 pixels between two labels.
 */
#define AXIS_PX 860.0
#define DIGIT_PX 8.0
#define LABEL_GAP_PX 6.0

/*
 * The row of each thread label (0, 1 = one line lower, -1 = none) on the
 * log2 axis of T[0..N-1] (ascending, with set offsets' 3% each side): a
 * label that would touch its left neighbour on the first row (110 and 128,
 * 203 and 234 and 256) goes on the second, and when it would touch there
 * too it is left out (its tic stays).  Returns 1 when a second row is used.
 */
static int thread_label_rows(const unsigned int *t, unsigned int n, int *row)
{
	double span = n ? log2(t[n - 1]) - log2(t[0]) : 0, last[2] = { -1e9, -1e9 };
	double lastw[2] = { 0, 0 };
	int two = 0;

	for (unsigned int i = 0; i < n; i++) {
		double x = span > 0 ? (log2(t[i]) - log2(t[0])) / span * AXIS_PX / 1.06 : 0;
		double w = DIGIT_PX * snprintf(NULL, 0, "%u", t[i]);

		row[i] = -1;
		for (int r = 0; r < 2 && row[i] < 0; r++)
			if (x - last[r] >= (w + lastw[r]) / 2 + LABEL_GAP_PX) {
				row[i] = r;
				last[r] = x;
				lastw[r] = w;
				two |= r;
			}
	}
	return two;
}

/* threads on a log2 axis with the sweep's own thread counts as tics, labels
 * that do not overlap (thread_label_rows) */
static void thread_axis(struct ctx *c, const struct fl_cmp *cmp, const char *kind)
{
	unsigned int t[1024], n = 0;
	int row[1024];

	for (unsigned int i = 0; i < cmp->nm && n < 1024; i++)
		if (!strcmp(cmp->m[i].kind, kind))
			t[n++] = cmp->m[i].threads;
	if (thread_label_rows(t, n, row))	/* the axis label below the second row */
		fprintf(c->gp, "set xlabel \"\\nthreads\" noenhanced\n");
	fprintf(c->gp, "set logscale x 2\nset xtics (");
	for (unsigned int i = 0; i < n; i++) {
		char l[16] = "";

		if (row[i] >= 0)
			snprintf(l, sizeof(l), "%s%u", row[i] ? "\\n" : "", t[i]);
		fprintf(c->gp, "%s\"%s\" %u", i ? ", " : "", l, t[i]);
	}
	fprintf(c->gp, ")\nset offsets graph 0.03, graph 0.03, 0, 0\n");
}

/* ---- units: no "1x10^6" on an axis ---- */

struct unit {
	double div;
	const char *sfx;	/* after the number on every tic */
};

/* the unit for values up to MAX: ns, µs, ms, s */
static struct unit ns_unit(double max)
{
	return max < 1e3 ? (struct unit){ 1, " ns" } : max < 1e6 ? (struct unit){ 1e3, " µs" } :
	       max < 1e9 ? (struct unit){ 1e6, " ms" } : (struct unit){ 1e9, " s" };
}

/* the same steps for counts: 500k, 12M */
static struct unit count_unit(double max)
{
	return max < 1e3 ? (struct unit){ 1, "" } : max < 1e6 ? (struct unit){ 1e3, "k" } :
	       max < 1e9 ? (struct unit){ 1e6, "M" } : (struct unit){ 1e9, "G" };
}

static void fmt_ns(char *buf, size_t len, double ns)
{
	struct unit u = ns_unit(ns * 1.0000001);

	snprintf(buf, len, "%g%s", ns / u.div, u.sfx);
}

/*
 * A log y axis of nanoseconds [LO, HI]: tics at 1-2-5 steps (1, 2, 5 per
 * decade over up to 3 decades, else one per decade), each with its unit
 * ("200 ns", "1 µs", "5 ms"), the range from the tic below LO to the one
 * above HI.
 */
static void ns_log_axis(FILE *g, double lo, double hi)
{
	static const double steps[] = { 1, 2, 5 };
	int dlo, dhi, fine, n = 0;
	double tlo, thi;

	if (!(hi > 0))
		hi = 1;
	if (!(lo > 0) || lo > hi)
		lo = hi / 10;
	dlo = (int)floor(log10(lo));
	dhi = (int)ceil(log10(hi));
	if (dhi <= dlo)
		dhi = dlo + 1;
	fine = dhi - dlo <= 3;
	tlo = pow(10, dlo);
	thi = pow(10, dhi);
	if (fine)
		for (int d = dlo; d <= dhi; d++)
			for (int k = 0; k < 3; k++) {
				double v = steps[k] * pow(10, d);

				if (v <= lo * 1.0000001)
					tlo = v;
				if (v >= hi / 1.0000001 && v < thi)
					thi = v;
			}
	fprintf(g, "set yrange [%.17g:%.17g]\nset ytics (", tlo, thi);
	for (int d = dlo; d <= dhi; d++)
		for (int k = 0; k < (fine ? 3 : 1); k++) {
			double v = steps[k] * pow(10, d);
			char l[32];

			if (v < tlo / 1.0000001 || v > thi * 1.0000001)
				continue;
			fmt_ns(l, sizeof(l), v);
			fprintf(g, "%s\"%s\" %.17g", n++ ? ", " : "", l, v);
		}
	fprintf(g, ")\n");
}

static int kind_has_data(const struct fl_cmp *cmp, const char *kind, int nsides)
{
	for (unsigned int i = 0; i < cmp->nm; i++)
		if (!strcmp(cmp->m[i].kind, kind))
			for (int s = 0; s < nsides; s++)
				if (cmp->m[i].have[s])
					return 1;
	return 0;
}

/* first gap reason of a kind (for the "skipped" message) */
static const char *kind_gap(const struct fl_cmp *cmp, const char *kind)
{
	for (unsigned int i = 0; i < cmp->nm; i++)
		if (!strcmp(cmp->m[i].kind, kind) && !cmp->m[i].have[0] && cmp->m[i].gap[0][0])
			return cmp->m[i].gap[0];
	return cmp->have_snapshots ? "no values" : "no snapshots in the sweep";
}

/* NAME.dat: threads, then mean stddev per (kind, side) */
static int write_series(struct ctx *c, const struct fl_cmp *cmp, const char *name,
			const char *const *kinds, int nk)
{
	char path[4096];
	FILE *f = data_open(c, name, path, sizeof(path));

	if (!f)
		return -1;
	fprintf(f, "# threads");
	for (int k = 0; k < nk; k++)
		for (int s = 0; s < c->nsides; s++)
			fprintf(f, " %s_%c_mean %s_%c_stddev", kinds[k], 'A' + s, kinds[k], 'A' + s);
	fputc('\n', f);
	for (unsigned int i = 0; i < cmp->nm; i++) {
		if (strcmp(cmp->m[i].kind, kinds[0]))
			continue;
		fprintf(f, "%u", cmp->m[i].threads);
		for (int k = 0; k < nk; k++) {
			const struct fl_cmp_metric *m = NULL;

			for (unsigned int j = 0; j < cmp->nm; j++)
				if (!strcmp(cmp->m[j].kind, kinds[k]) &&
				    cmp->m[j].threads == cmp->m[i].threads)
					m = &cmp->m[j];
			for (int s = 0; s < c->nsides; s++) {
				num(f, m && m->have[s] ? m->st[s].mean : NAN);
				num(f, m && m->have[s] ? m->st[s].stddev : NAN);
			}
		}
		fputc('\n', f);
	}
	return fclose(f) ? -1 : 0;
}

/* the smallest and largest mean (less, plus its stddev) of KINDS */
static void series_range(const struct ctx *c, const struct fl_cmp *cmp,
			 const char *const *kinds, int nk, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (unsigned int i = 0; i < cmp->nm; i++)
		for (int k = 0; k < nk; k++)
			for (int s = 0; s < c->nsides && !strcmp(cmp->m[i].kind, kinds[k]); s++) {
				double m = cmp->m[i].st[s].mean, sd = cmp->m[i].st[s].stddev;

				if (!cmp->m[i].have[s] || !isfinite(m))
					continue;
				if (!isfinite(sd))
					sd = 0;
				*hi = m + sd > *hi ? m + sd : *hi;
				*lo = m - sd > 0 && m - sd < *lo ? m - sd : m > 0 && m < *lo ? m : *lo;
			}
}

enum yunits {
	Y_PLAIN,	/* as they are (percentages) */
	Y_COUNT,	/* k, M, G */
	Y_NS,		/* ns, µs, ms, s */
};

static void line_plot(struct ctx *c, const struct fl_cmp *cmp, const char *name,
		      const char *const *kinds, const char *const *knames, int nk,
		      const char *title, const char *ylabel, int logy, enum yunits units)
{
	struct unit u = { 1, "" };
	double lo, hi;
	char dat[80];

	snprintf(dat, sizeof(dat), "%s.dat", name);
	if (write_series(c, cmp, dat, kinds, nk))
		return;
	series_range(c, cmp, kinds, nk, &lo, &hi);
	if (!logy && units == Y_NS)
		u = ns_unit(hi);
	else if (!logy && units == Y_COUNT)
		u = count_unit(hi);
	for (int fmt = 0; fmt < 2; fmt++) {
		int col = 2, n = 0;

		if (!each_format(c, fmt))
			continue;
		begin(c, name, fmt, title, "threads", ylabel);
		thread_axis(c, cmp, kinds[0]);
		if (logy)
			fprintf(c->gp, "set logscale y 10\n");
		else
			fprintf(c->gp, "set yrange [0:*]\n");
		if (logy && units == Y_NS)
			ns_log_axis(c->gp, lo, hi);
		else if (u.div != 1)
			fprintf(c->gp, "set format y \"%%g%s\"\n", u.sfx);
		fprintf(c->gp, "plot ");
		for (int k = 0; k < nk; k++)
			for (int s = 0; s < c->nsides; s++, col += 2) {
				char t[400];

				snprintf(t, sizeof(t), "%s%s%c: %s", knames ? knames[k] : "",
					 knames ? " " : "", 'A' + s, c->label[s]);
				if (u.div != 1)
					fprintf(c->gp, "%s'%s' using 1:($%d/%g):($%d/%g) with yerrorlines "
						"lw 2 pt 7 ps 0.8 title ", n++ ? ", \\\n     " : "", dat,
						col, u.div, col + 1, u.div);
				else
					fprintf(c->gp, "%s'%s' using 1:%d:%d with yerrorlines lw 2 pt 7 "
						"ps 0.8 title ", n++ ? ", \\\n     " : "", dat, col, col + 1);
				gpstr(c->gp, t);
			}
		fprintf(c->gp, "\nset output\n");
	}
	add_plot(c, name);
}

/* ---- stacked phase breakdown (record --phases) ---- */

static const struct fl_cmp_metric *find_metric(const struct fl_cmp *cmp, const char *kind,
					       unsigned int threads)
{
	for (unsigned int i = 0; i < cmp->nm; i++)
		if (!strcmp(cmp->m[i].kind, kind) && cmp->m[i].threads == threads)
			return &cmp->m[i];
	return NULL;
}

static const char *const phase_colors[FL_PH_NR + 1] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#98df8a", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#17becf", "#bcbd22", "#9edae5", "#f7b6d2",
	[FL_PH_NR] = "#b0b0b0",	/* unattributed */
};

/* Side S's stack of phases.{png,svg}: the phases it has, the rest named. */
static void phase_plot_side(struct ctx *c, int s, const int *avail, double div)
{
	char st[400], un[200] = "";
	int n = 0;

	snprintf(st, sizeof(st), "%s%s", c->nsides > 1 ? (s ? "B: " : "A: ") : "",
		 c->label[s]);
	fprintf(c->gp, "set title ");
	gpstr(c->gp, st);
	fprintf(c->gp, " noenhanced\nunset label\n");
	for (int p = 0; p <= FL_PH_NR; p++)
		if (!avail[p])
			snprintf(un + strlen(un), sizeof(un) - strlen(un), "%s%s",
				 un[0] ? ", " : "unavailable: ",
				 p < FL_PH_NR ? fl_phase_name(p) : "unattributed");
	if (un[0]) {
		fprintf(c->gp, "set label 1 ");
		gpstr(c->gp, un);
		fprintf(c->gp, " at graph 0.02, graph 0.96 noenhanced\n");
	}
	fprintf(c->gp, "plot ");
	for (int p = 0; p <= FL_PH_NR; p++) {
		if (!avail[p])
			continue;
		fprintf(c->gp, "%s'phases.dat' using ($%d/%g)%s title '%s' lc rgb '%s'",
			n ? ", \\\n     " : "",
			2 + s * (FL_PH_NR + 1) + p, div, n ? "" : ":xtic(1)",
			p < FL_PH_NR ? fl_phase_name(p) : "unattributed", phase_colors[p]);
		n++;
	}
	fputc('\n', c->gp);
}

/*
 * phases.{png,svg}: per side, a bar per thread count stacking the mean ns per
 * fault of every phase and the unattributed rest (they add up to the mean
 * fault latency).  A phase a side's kernel cannot see is left out of its
 * stack and named in a label, never drawn as 0.
 */
static void phase_plot(struct ctx *c, const struct fl_cmp *cmp, const char *vs)
{
	const char *kinds[FL_PH_NR + 1];
	int avail[2][FL_PH_NR + 1] = { { 0 } };
	unsigned int thr[256], nt = 0;
	double ymax = 0;
	struct unit u;
	char path[4096], title[1200];
	FILE *f;

	for (unsigned int k = 0; k < fl_cmp_nkinds; k++)
		if (fl_cmp_kinds[k].section == FL_CMP_PHASE && fl_cmp_kinds[k].idx <= FL_PH_NR)
			kinds[fl_cmp_kinds[k].idx] = fl_cmp_kinds[k].kind;
	for (unsigned int i = 0; i < cmp->nm && nt < 256; i++)
		if (!strcmp(cmp->m[i].kind, "phases_latency_mean"))
			thr[nt++] = cmp->m[i].threads;
	for (unsigned int t = 0; t < nt; t++)
		for (int s = 0; s < c->nsides; s++) {
			double sum = 0;

			for (int p = 0; p <= FL_PH_NR; p++) {
				const struct fl_cmp_metric *m = find_metric(cmp, kinds[p], thr[t]);

				if (m && m->have[s]) {
					avail[s][p] = 1;
					sum += m->st[s].mean;
				}
			}
			ymax = sum > ymax ? sum : ymax;
		}
	if (!(ymax > 0)) {
		printf("skipped phases: %s\n", kind_gap(cmp, "phases_latency_mean"));
		return;
	}
	f = data_open(c, "phases.dat", path, sizeof(path));
	if (!f)
		return;
	fprintf(f, "# threads, then per side (A, B) the mean ns per fault of:");
	for (int p = 0; p <= FL_PH_NR; p++)
		fprintf(f, " %s", kinds[p]);
	fputc('\n', f);
	for (unsigned int t = 0; t < nt; t++) {
		fprintf(f, "%u", thr[t]);
		for (int s = 0; s < c->nsides; s++)
			for (int p = 0; p <= FL_PH_NR; p++) {
				const struct fl_cmp_metric *m = find_metric(cmp, kinds[p], thr[t]);

				num(f, m && m->have[s] ? m->st[s].mean : NAN);
			}
		fputc('\n', f);
	}
	if (fclose(f))
		return;
	snprintf(title, sizeof(title), "where the fault time goes: phases vs threads (%s)", vs);
	u = ns_unit(ymax);
	for (int fmt = 0; fmt < 2; fmt++) {
		if (!each_format(c, fmt))
			continue;
		begin(c, "phases", fmt, title, "threads", "time per fault (mean over runs)");
		fprintf(c->gp, "set style data histograms\nset style histogram rowstacked\n"
			"set style fill solid 0.85 border -1\nset boxwidth 0.7\n"
			"set yrange [0:%.17g]\nset format y \"%%g%s\"\n"
			"set key outside bottom center horizontal noenhanced\n"
			"set multiplot layout 1,%d title ", ymax * 1.1 / u.div, u.sfx, c->nsides);
		gpstr(c->gp, title);
		fprintf(c->gp, " noenhanced\n");
		for (int s = 0; s < c->nsides; s++)
			phase_plot_side(c, s, avail[s], u.div);
		fprintf(c->gp, "unset multiplot\nset output\n");
	}
	add_plot(c, "phases");
}

/* ---- heatmap ---- */

struct heat {
	unsigned int ncpu;
	unsigned long long (*bins)[64];	/* per CPU, count per power of two */
	unsigned long long *total;
	char why[256];
	char title[512];
};

static int heat_add(struct heat *h, const struct fl_snapshot *s)
{
	const char *why;
	enum fl_avail a = fl_figure_avail(s, FL_FIG_LATENCY, &why);

	if (a != FL_AVAIL_YES) {
		fl_fmt_unavail(h->why, sizeof(h->why), a, why);
		return 0;
	}
	if (s->hdr.nr_cpus > h->ncpu) {
		void *nb = realloc(h->bins, s->hdr.nr_cpus * sizeof(*h->bins));
		void *nt = realloc(h->total, s->hdr.nr_cpus * sizeof(*h->total));

		if (!nb || !nt) {
			free(nb ? nb : h->bins);
			free(nt ? nt : h->total);
			h->bins = NULL;
			h->total = NULL;
			return -1;
		}
		h->bins = nb;
		h->total = nt;
		memset(h->bins + h->ncpu, 0, (s->hdr.nr_cpus - h->ncpu) * sizeof(*h->bins));
		memset(h->total + h->ncpu, 0, (s->hdr.nr_cpus - h->ncpu) * sizeof(*h->total));
		h->ncpu = s->hdr.nr_cpus;
	}
	for (unsigned int c = 0; c < s->hdr.nr_cpus; c++) {
		const struct fl_hist *hh = &s->cpus[c].hist[FL_H_FAULT_LAT];

		for (unsigned int b = 0; b < FL_HIST_NBUCKETS; b++)
			if (hh->buckets[b]) {
				unsigned int k = fl_ilog2(fl_hist_lower(b) | 1);

				h->bins[c][k] += hh->buckets[b];
				h->total[c] += hh->buckets[b];
			}
	}
	return 0;
}

static void fmt_pow2(char *buf, size_t len, unsigned int k)
{
	unsigned long long ns = 1ULL << k;

	if (ns < 1000)
		snprintf(buf, len, "%llu ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3g µs", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3g ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3g s", ns / 1e9);
}

/* CPU tics every STEP CPUs: every CPU up to 24, else at most 24 labels */
static unsigned int cpu_tic_step(unsigned int ncpu)
{
	unsigned int step = 1;

	while ((ncpu + step - 1) / step > 24)
		step *= 2;
	return step;
}

static void heat_plot(struct ctx *c, struct heat *h, const char *name)
{
	unsigned int kmin = 63, kmax = 0, ncpu = 0;
	char path[4096], dat[80], ylabel[64];
	FILE *f;

	for (unsigned int cpu = 0; cpu < h->ncpu; cpu++)
		for (unsigned int k = 0; k < 64; k++)
			if (h->bins[cpu][k]) {
				kmin = k < kmin ? k : kmin;
				kmax = k > kmax ? k : kmax;
				ncpu = cpu + 1;
			}
	if (!ncpu) {
		printf("skipped %s: %s\n", name, h->why[0] ? h->why : "no timed faults");
		return;
	}
	snprintf(dat, sizeof(dat), "%s.dat", name);
	f = data_open(c, dat, path, sizeof(path));
	if (!f)
		return;
	fprintf(f, "# cpu log2(latency_ns) percent_of_cpu_faults\n");
	for (unsigned int cpu = 0; cpu < ncpu; cpu++) {
		for (unsigned int k = kmin; k <= kmax; k++)
			fprintf(f, "%u %u %.6f\n", cpu, k,
				h->total[cpu] ? 100.0 * h->bins[cpu][k] / h->total[cpu] : 0.0);
		fputc('\n', f);
	}
	if (fclose(f))
		return;
	snprintf(ylabel, sizeof(ylabel), "fault latency (power-of-two bins)");
	for (int fmt = 0; fmt < 2; fmt++) {
		int n = 0;

		if (!each_format(c, fmt))
			continue;
		begin(c, name, fmt, h->title, "CPU", ylabel);
		/* whole CPUs only: never a tic at CPU 0.5 */
		fprintf(c->gp, "set cblabel '%% of the CPU''s faults'\nset palette rgb 33,13,10\n"
			"set xrange [-0.5:%u.5]\nset xtics 0,%u,%u format '%%.0f'\nset mxtics 1\n"
			"set yrange [%g:%u.5]\nset ytics (", ncpu - 1, cpu_tic_step(ncpu), ncpu - 1,
			kmin - 0.5, kmax);
		for (unsigned int k = kmin; k <= kmax; k++) {
			char l[32];

			fmt_pow2(l, sizeof(l), k);
			fprintf(c->gp, "%s\"%s\" %u", n++ ? ", " : "", l, k);
		}
		fprintf(c->gp, ")\nset grid noxtics noytics\nplot '%s' using 1:2:3 with image "
			"notitle\nset output\n", dat);
	}
	add_plot(c, name);
}

static int heat_from_file(struct heat *h, const char *path)
{
	struct fl_snapshot s;
	char err[512];
	int rc;

	memset(&s, 0, sizeof(s));
	if (fl_snapshot_read_file(path, &s, err, sizeof(err))) {
		fprintf(stderr, "faultline plot: %s\n", err);
		return -1;
	}
	rc = heat_add(h, &s);
	fl_snapshot_free(&s);
	return rc;
}

/* ---- running gnuplot ---- */

static volatile sig_atomic_t gp_signal;
static volatile pid_t gp_pid;

/* a signal while gnuplot runs: passed on to it, then the scratch files go */
static void on_signal(int sig)
{
	gp_signal = sig;
	if (gp_pid > 0)
		kill(gp_pid, sig);
}

/* what gnuplot said (ERR, rewound) on stderr, under a heading */
static void show_stderr(FILE *err)
{
	char buf[4096];
	size_t n;

	if (!err || fseek(err, 0, SEEK_SET))
		return;
	while ((n = fread(buf, 1, sizeof(buf), err)) > 0)
		fwrite(buf, 1, n, stderr);
}

/*
 * gnuplot plot.gp in the scratch directory, its stdout and stderr captured
 * (warnings such as "Skipping data file with no valid points" are noise when
 * the pictures came out; shown when they did not).  0 when it exited 0 and
 * every image is there and not empty.
 */
static int run_gnuplot(struct ctx *c)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	const char *prog = getenv("GNUPLOT") ? getenv("GNUPLOT") : "gnuplot";
	struct sigaction sa = { .sa_handler = on_signal }, old[3];
	FILE *err = tmpfile();
	int status, ok = 1;
	pid_t pid, w;

	fflush(stdout);
	fflush(stderr);
	gp_signal = 0;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	pid = fork();
	if (!pid) {
		if (err) {
			dup2(fileno(err), 1);
			dup2(fileno(err), 2);
		}
		if (chdir(c->work))
			_exit(127);
		execlp(prog, prog, "plot.gp", (char *)NULL);
		fprintf(stderr, "faultline plot: cannot run %s: %s (Debian: apt-get install "
			"gnuplot-nox)\n", prog, strerror(errno));
		_exit(127);
	}
	gp_pid = pid;
	if (gp_signal && pid > 0)	/* it came before gp_pid was set */
		kill(pid, gp_signal);
	do
		w = pid > 0 ? waitpid(pid, &status, 0) : -1;
	while (w < 0 && errno == EINTR);
	gp_pid = 0;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (pid < 0 || w < 0 || !WIFEXITED(status) || WEXITSTATUS(status) || gp_signal) {
		fprintf(stderr, "faultline plot: gnuplot failed%s; nothing written to %s\n",
			gp_signal ? " (interrupted)" : err ? ", it said:" : "", c->outdir);
		if (!gp_signal)
			show_stderr(err);
		ok = 0;
	}
	if (err)
		fclose(err);
	for (int i = 0; ok && i < c->nplots; i++)
		for (int fmt = 0; ok && fmt < 2; fmt++) {
			char path[4400];
			struct stat st;

			if (!each_format(c, fmt))
				continue;
			snprintf(path, sizeof(path), "%s/%s.%s", c->work, c->plots[i].name,
				 fmt ? "svg" : "png");
			if (stat(path, &st) || st.st_size == 0) {
				fprintf(stderr, "faultline plot: gnuplot made no %s.%s; nothing "
					"written to %s\n", c->plots[i].name, fmt ? "svg" : "png",
					c->outdir);
				ok = 0;
			}
		}
	return ok ? 0 : -1;
}

/* the picture files in the scratch directory, images last (said "wrote") */
static int is_image(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && (!strcmp(name + n - 4, ".png") || !strcmp(name + n - 4, ".svg"));
}

/* every file of the scratch directory renamed into outdir: data and script
 * first, then the images */
static int publish(struct ctx *c)
{
	struct dirent **ents;
	int n = scandir(c->work, &ents, NULL, alphasort), rc = 0;

	if (n < 0) {
		fprintf(stderr, "faultline plot: %s: %s\n", c->work, strerror(errno));
		return -1;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++) {
			char from[4600], to[4600];

			if (ents[i]->d_name[0] == '.' || is_image(ents[i]->d_name) != pass)
				continue;
			snprintf(from, sizeof(from), "%s/%s", c->work, ents[i]->d_name);
			snprintf(to, sizeof(to), "%s/%s", c->outdir, ents[i]->d_name);
			if (rename(from, to)) {
				fprintf(stderr, "faultline plot: %s: %s\n", to, strerror(errno));
				rc = -1;
			}
		}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	for (int i = 0; !rc && i < c->nplots; i++)
		for (int fmt = 0; fmt < 2; fmt++)
			if (each_format(c, fmt))
				printf("wrote %s/%s.%s\n", c->outdir, c->plots[i].name,
				       fmt ? "svg" : "png");
	return rc;
}

/* the scratch directory and what is left in it; outdir too when this run
 * made it and failed */
static void discard(struct ctx *c, int failed)
{
	struct dirent **ents;
	int n;

	if (!c->work[0])
		return;
	n = scandir(c->work, &ents, NULL, NULL);
	for (int i = 0; i < n; i++) {
		char path[4600];

		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", c->work, ents[i]->d_name);
			unlink(path);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	rmdir(c->work);
	c->work[0] = '\0';
	if (failed && c->made_outdir)
		rmdir(c->outdir);	/* only when empty */
}

static int sweep_plots(struct ctx *c, const char *a, const char *b)
{
	static const char *const fc[] = { "pft_faults_cpu" }, *const fs[] = { "pft_faults_sec" };
	static const char *const ops[] = { "wis_ops" };
	static const char *const lat[] = { "fault_latency_p50", "fault_latency_p99" };
	static const char *const latn[] = { "p50", "p99" };
	static const char *const ab[] = { "lockless_abort_pct" };
	static const char *const mw[] = { "mmap_lock_wait_mean" };
	struct fl_cmp cmp;
	char err[512], title[1024], vs[720];

	if (fl_cmp_build_test(&cmp, a, b ? b : a, c->test, FL_SIGNIFICANCE_ALPHA, err,
			      sizeof(err))) {
		fprintf(stderr, "faultline plot: %s\n", err);
		return -1;
	}
	if (fl_cmp_shape_check(&cmp, c->any_shape, err, sizeof(err))) {
		fprintf(stderr, "faultline plot: %s\n", err);
		fl_cmp_free(&cmp);
		return -1;
	}
	if (cmp.shape_differs)
		fprintf(stderr, "faultline plot: warning: A is pft shape %s, B is %s (--any-shape): "
			"the legends name each side's\n", cmp.shape[0], cmp.shape[1]);
	c->nsides = b ? 2 : 1;
	{
		char lb[2][FL_LABEL_LEN];

		if (b) {
			/* compare's rule: what tells A from B (compare_label.h) */
			fl_cmp_labels(&cmp, (const char *const[2]){ c->label[0][0] ? c->label[0] : NULL,
					c->label[1][0] ? c->label[1] : NULL }, lb);
		} else {
			char kv[256];
			const char *v = c->label[0][0] ? c->label[0] : cmp.sw[0].tags ?
				fl_kv_get(cmp.sw[0].tags, FL_TAG_KERNEL_VERSION, kv, sizeof(kv)) : NULL;

			snprintf(lb[0], sizeof(lb[0]), "%.*s", FL_LABEL_LEN - 1, v ? v : cmp.sw[0].dir);
		}
		/* with the shape in it when A and B differ in it */
		for (int s = 0; s < c->nsides; s++)
			fl_cmp_side_label(&cmp, s, lb[s], c->label[s], sizeof(c->label[s]));
	}
	/* the shape once in every title when it is A's and B's */
	if (b && cmp.shape_differs)
		snprintf(vs, sizeof(vs), "A %s vs B %s", c->label[0], c->label[1]);
	else if (b)
		snprintf(vs, sizeof(vs), "A %s vs B %s, %s %s", c->label[0], c->label[1],
			 cmp.sw[0].wis ? "test" : "shape", cmp.shape[0]);
	else
		snprintf(vs, sizeof(vs), "%s, %s %s", c->label[0], cmp.sw[0].wis ? "test" : "shape",
			 cmp.shape[0]);

	if (cmp.sw[0].wis) {
		snprintf(title, sizeof(title), "will-it-scale operations per second vs tasks (%s)",
			 vs);
		line_plot(c, &cmp, "ops", ops, NULL, 1, title,
			  "ops/s (mean, error bars: stddev over samples)", 0, Y_COUNT);
	} else {
		snprintf(title, sizeof(title), "pft faults per second vs threads (%s)", vs);
		line_plot(c, &cmp, "faults_sec", fs, NULL, 1, title,
			  "faults/s (mean, error bars: stddev over runs)", 0, Y_COUNT);
		snprintf(title, sizeof(title), "pft faults per second per CPU vs threads (%s)", vs);
		line_plot(c, &cmp, "faults_cpu", fc, NULL, 1, title,
			  "faults/s per CPU (mean, error bars: stddev)", 0, Y_COUNT);
	}
	if (kind_has_data(&cmp, "fault_latency_p50", c->nsides)) {
		snprintf(title, sizeof(title), "fault latency percentiles vs threads (%s)", vs);
		line_plot(c, &cmp, "latency", lat, latn, 2, title,
			  "fault latency (mean of per-run percentiles, log scale)", 1, Y_NS);
	} else {
		printf("skipped latency: %s\n", kind_gap(&cmp, "fault_latency_p50"));
	}
	if (kind_has_data(&cmp, "lockless_abort_pct", c->nsides)) {
		snprintf(title, sizeof(title), "lockless fault path aborts vs threads (%s)", vs);
		line_plot(c, &cmp, "aborts", ab, NULL, 1, title,
			  "aborted / attempted lockless faults, % (mean, stddev)", 0, Y_PLAIN);
	} else {
		printf("skipped aborts: %s\n", kind_gap(&cmp, "lockless_abort_pct"));
	}
	if (kind_has_data(&cmp, "mmap_lock_wait_mean", c->nsides)) {
		snprintf(title, sizeof(title), "mmap_lock wait vs threads (%s)", vs);
		line_plot(c, &cmp, "mmap_wait", mw, NULL, 1, title,
			  "mean mmap_lock wait per acquisition (mean, stddev over runs)", 0, Y_NS);
	} else {
		printf("skipped mmap_wait: %s\n", kind_gap(&cmp, "mmap_lock_wait_mean"));
	}
	if (cmp.have_phases)
		phase_plot(c, &cmp, vs);
	else if (cmp.have_snapshots)
		printf("skipped phases: the snapshots were recorded without --phases\n");
	for (int s = 0; s < c->nsides; s++) {
		unsigned int n = c->heat_threads;
		const struct fl_pft_series *ser = NULL;
		struct heat h;
		char name[32];

		memset(&h, 0, sizeof(h));
		snprintf(name, sizeof(name), "heatmap-%c", 'A' + s);
		for (unsigned int i = 0; i < cmp.sw[s].nseries; i++)
			if (cmp.sw[s].series[i].nsnaps &&
			    (n ? cmp.sw[s].series[i].threads == n : 1))
				ser = &cmp.sw[s].series[i];
		if (!ser) {
			printf("skipped %s: no snapshots%s\n", name, n ? " at that thread count" : "");
			continue;
		}
		for (unsigned int k = 0; k < ser->nsnaps; k++)
			heat_from_file(&h, ser->snaps[k]);
		snprintf(h.title, sizeof(h.title), "per-CPU fault latency, %s%s, %u threads, %u runs",
			 b ? (s ? "B " : "A ") : "", c->label[s], ser->threads, ser->nsnaps);
		heat_plot(c, &h, name);
		free(h.bins);
		free(h.total);
	}
	fl_cmp_free(&cmp);
	return 0;
}

static int snapshot_plots(struct ctx *c, const char *in, int isdir)
{
	struct heat h;
	int n = 0;

	memset(&h, 0, sizeof(h));
	if (isdir) {
		struct dirent **ents;
		int k = scandir(in, &ents, NULL, alphasort);

		for (int i = 0; i < k; i++) {
			size_t l = strlen(ents[i]->d_name);
			char path[4096];

			if (l > 5 && !strcmp(ents[i]->d_name + l - 5, ".snap")) {
				snprintf(path, sizeof(path), "%s/%s", in, ents[i]->d_name);
				if (!heat_from_file(&h, path))
					n++;
			}
			free(ents[i]);
		}
		free(ents);
	} else if (!heat_from_file(&h, in)) {
		n = 1;
	}
	if (!n) {
		fprintf(stderr, "faultline plot: %s: no readable snapshots\n", in);
		free(h.bins);
		free(h.total);
		return -1;
	}
	snprintf(h.title, sizeof(h.title), "per-CPU fault latency, %s%s (%d snapshot%s)",
		 c->label[0][0] ? c->label[0] : "", c->label[0][0] ? ", " : "", n, n > 1 ? "s" : "");
	heat_plot(c, &h, "heatmap");
	free(h.bins);
	free(h.total);
	return 0;
}

int parse_plot_args(int argc, char **argv, struct fl_plot_args *a, char *err, size_t errlen)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "label-a", required_argument, NULL, 1 },
		{ "label-b", required_argument, NULL, 2 },
		{ "threads", required_argument, NULL, 3 },
		{ "any-shape", no_argument, NULL, 4 },
		{ "test", required_argument, NULL, 5 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	unsigned long v;
	char *end;
	int opt;

	*a = (struct fl_plot_args){ .outdir = "plots", .png = 1, .svg = 1 };
	err[0] = '\0';
	fl_getopt_start();
	while ((opt = getopt_long(argc, argv, ":o:f:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'o':
			a->outdir = optarg;
			break;
		case 'f':
			a->png = !strcmp(optarg, "png") || !strcmp(optarg, "both");
			a->svg = !strcmp(optarg, "svg") || !strcmp(optarg, "both");
			if (!a->png && !a->svg)
				return fl_args_bad(err, errlen, "--format wants png, svg or both");
			break;
		case 1: case 2:
			a->label[opt - 1] = optarg;
			break;
		case 3:
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || *end || !v || v > 1u << 20 || optarg[0] == '-')
				return fl_args_bad(err, errlen, "--threads wants a positive number");
			a->heat_threads = v;
			break;
		case 4:
			a->any_shape = 1;
			break;
		case 5:
			a->test = optarg;
			break;
		case 'h':
			return FL_ARGS_HELP;
		default:
			return fl_args_getopt_bad(opt, argv, lo, err, errlen);
		}
	}
	if (optind >= argc)
		return fl_args_bad(err, errlen, "missing A");
	if (argc - optind > 2)
		return fl_args_bad(err, errlen, "unexpected argument '%s'", argv[optind + 2]);
	a->a = argv[optind];
	a->b = argc - optind == 2 ? argv[optind + 1] : NULL;
	return FL_ARGS_RUN;
}

int cmd_plot(int argc, char **argv)
{
	struct fl_plot_args a;
	struct ctx c = { 0 };
	char path[4096], err[512];
	struct stat st;
	int rc, sweep;

	rc = fl_args_exit(parse_plot_args(argc, argv, &a, err, sizeof(err)), "plot", err, usage);
	if (rc >= 0)
		return rc;
	c.outdir = a.outdir;
	c.png = a.png;
	c.svg = a.svg;
	for (int i = 0; i < 2; i++)
		if (a.label[i])
			snprintf(c.label[i], sizeof(c.label[i]), "%s", a.label[i]);
	c.heat_threads = a.heat_threads;
	c.any_shape = a.any_shape;
	c.test = a.test;
	if (stat(a.a, &st)) {
		fprintf(stderr, "faultline plot: %s: %s\n", a.a, strerror(errno));
		return 1;
	}
	sweep = S_ISDIR(st.st_mode);
	if (sweep) {
		struct fl_sweep sw;

		/* a sweep directory has pft-N.log (or will-it-scale benchlog) files;
		 * else a directory of snapshots */
		sweep = !fl_sweep_load_test(a.a, a.test, &sw, err, sizeof(err));
		if (sweep)
			fl_sweep_free(&sw);
		else if (a.b) {
			fprintf(stderr, "faultline plot: %s\n", err);
			return 1;
		}
	}
	if (!mkdir(c.outdir, 0755)) {
		c.made_outdir = 1;
	} else if (errno != EEXIST) {
		fprintf(stderr, "faultline plot: %s: %s\n", c.outdir, strerror(errno));
		return 1;
	}
	if (snprintf(c.work, sizeof(c.work), "%s/.plot-XXXXXX", c.outdir) >= (int)sizeof(c.work))
		errno = ENAMETOOLONG;
	else if (mkdtemp(c.work))
		errno = 0;
	if (errno) {
		fprintf(stderr, "faultline plot: %s: %s\n", c.outdir, strerror(errno));
		c.work[0] = '\0';
		if (c.made_outdir)
			rmdir(c.outdir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/plot.gp", c.work);
	c.gp = fopen(path, "w");
	if (!c.gp) {
		fprintf(stderr, "faultline plot: %s: %s\n", path, strerror(errno));
		discard(&c, 1);
		return 1;
	}
	fprintf(c.gp, "# faultline plot: run 'gnuplot plot.gp' in this directory\n"
		"set encoding utf8\n");
	if (sweep)
		rc = sweep_plots(&c, a.a, a.b);
	else
		rc = snapshot_plots(&c, a.a, S_ISDIR(st.st_mode));
	if (fclose(c.gp))
		rc = -1;
	if (!rc && !c.nplots) {
		fprintf(stderr, "faultline plot: nothing to plot\n");
		rc = -1;
	}
	if (!rc)
		rc = run_gnuplot(&c);
	if (!rc)
		rc = publish(&c);
	discard(&c, rc != 0);
	if (gp_signal) {	/* as if the signal had ended faultline, files gone */
		signal(gp_signal, SIG_DFL);
		raise(gp_signal);
	}
	return rc ? 1 : 0;
}
