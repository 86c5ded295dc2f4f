// SPDX-License-Identifier: GPL-2.0
/*
 * faultline plot: gnuplot pictures (PNG and/or SVG) of pft-sweep results and
 * snapshots: faults/sec and faults/cpu vs threads for A and B (mean and
 * stddev error bars), fault latency p50/p99 vs threads, lockless abort % vs
 * threads, mmap_lock wait vs threads, a stacked fault-phase breakdown vs
 * threads (record --phases), and a per-CPU fault-latency heatmap.  Writes the data files and
 * the gnuplot script beside the images so they can be re-plotted by hand.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "compare.h"
#include "kv.h"
#include "export_out.h"

#define MAX_PLOTS 16

struct plot {
	char name[64];		/* file stem */
};

struct ctx {
	const char *outdir;
	int png, svg;
	char label[2][256];
	int nsides;
	unsigned int heat_threads;
	int any_shape;
	FILE *gp;		/* the script, one section per plot and format */
	struct plot plots[MAX_PLOTS];
	int nplots;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline plot [OPTIONS] A [B]\n"
"  A, B: pft-sweep result directories (B optional), or A alone: a snapshot file or a\n"
"  directory of snapshots (heatmap only)\n"
"  -o, --output DIR     where images, data and plot.gp go (default: plots)\n"
"  -f, --format FMT     png, svg or both (default both)\n"
"      --label-a L      legend name of A (default: its kernel_version tag)\n"
"      --label-b L\n"
"      --threads N      thread count of the per-CPU heatmap (default: the largest\n"
"                       with snapshots)\n"
"      --any-shape      plot A and B of different pft fault shapes (PFT_SHAPE) instead\n"
"                       of refusing; every legend then names its shape\n"
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

	snprintf(path, len, "%s/%s", c->outdir, name);
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

/* One section per format: terminal, output to NAME.EXT.tmp, common settings. */
static void begin(struct ctx *c, const char *name, int svg, const char *title,
		  const char *xlabel, const char *ylabel)
{
	FILE *g = c->gp;

	if (svg)
		fprintf(g, "set terminal svg size 1000,650 dynamic font 'sans,12' background '#ffffff'\n");
	else
		fprintf(g, "set terminal pngcairo size 1000,650 font 'sans,10'\n");
	fprintf(g, "set output '%s.%s.tmp'\nreset\nset title ", name, svg ? "svg" : "png");
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

/* threads on a log2 axis with the sweep's own thread counts as tics */
static void thread_axis(struct ctx *c, const struct fl_cmp *cmp, const char *kind)
{
	int n = 0;

	fprintf(c->gp, "set logscale x 2\nset xtics (");
	for (unsigned int i = 0; i < cmp->nm; i++)
		if (!strcmp(cmp->m[i].kind, kind))
			fprintf(c->gp, "%s\"%u\" %u", n++ ? ", " : "", cmp->m[i].threads,
				cmp->m[i].threads);
	fprintf(c->gp, ")\nset offsets graph 0.03, graph 0.03, 0, 0\n");
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

static void line_plot(struct ctx *c, const struct fl_cmp *cmp, const char *name,
		      const char *const *kinds, const char *const *knames, int nk,
		      const char *title, const char *ylabel, int logy)
{
	char dat[80];

	snprintf(dat, sizeof(dat), "%s.dat", name);
	if (write_series(c, cmp, dat, kinds, nk))
		return;
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
		fprintf(c->gp, "plot ");
		for (int k = 0; k < nk; k++)
			for (int s = 0; s < c->nsides; s++, col += 2) {
				char t[400];

				snprintf(t, sizeof(t), "%s%s%c: %s", knames ? knames[k] : "",
					 knames ? " " : "", 'A' + s, c->label[s]);
				fprintf(c->gp, "%s'%s' using 1:%d:%d with yerrorlines lw 2 pt 7 ps 0.8 title ",
					n++ ? ", \\\n     " : "", dat, col, col + 1);
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
static void phase_plot_side(struct ctx *c, int s, const int *avail)
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
		fprintf(c->gp, "%s'phases.dat' using %d%s title '%s' lc rgb '%s'",
			n ? ", \\\n     " : "",
			2 + s * (FL_PH_NR + 1) + p, n ? "" : ":xtic(1)",
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
	for (int fmt = 0; fmt < 2; fmt++) {
		if (!each_format(c, fmt))
			continue;
		begin(c, "phases", fmt, title, "threads", "ns per fault (mean over runs)");
		fprintf(c->gp, "set style data histograms\nset style histogram rowstacked\n"
			"set style fill solid 0.85 border -1\nset boxwidth 0.7\n"
			"set yrange [0:%.17g]\nset key outside bottom center horizontal noenhanced\n"
			"set multiplot layout 1,%d title ", ymax * 1.1, c->nsides);
		gpstr(c->gp, title);
		fprintf(c->gp, " noenhanced\n");
		for (int s = 0; s < c->nsides; s++)
			phase_plot_side(c, s, avail[s]);
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
		snprintf(buf, len, "%lluns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3gus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3gms", ns / 1e6);
	else
		snprintf(buf, len, "%.3gs", ns / 1e9);
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
		fprintf(c->gp, "set cblabel '%% of the CPU''s faults'\nset palette rgb 33,13,10\n"
			"set xrange [-0.5:%u.5]\nset yrange [%u.5:%u.5]\nset ytics (", ncpu - 1,
			kmin - 1, kmax);
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

static int run_gnuplot(struct ctx *c)
{
	const char *prog = getenv("GNUPLOT") ? getenv("GNUPLOT") : "gnuplot";
	int status, ok = 1;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (chdir(c->outdir))
			_exit(127);
		execlp(prog, prog, "plot.gp", (char *)NULL);
		fprintf(stderr, "faultline plot: cannot run %s: %s (Debian: apt-get install "
			"gnuplot-nox)\n", prog, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "faultline plot: gnuplot failed (script: %s/plot.gp)\n", c->outdir);
		ok = 0;
	}
	for (int i = 0; i < c->nplots; i++)
		for (int fmt = 0; fmt < 2; fmt++) {
			char tmp[4200], fin[4096];
			struct stat st;

			if (!each_format(c, fmt))
				continue;
			snprintf(fin, sizeof(fin), "%s/%s.%s", c->outdir, c->plots[i].name,
				 fmt ? "svg" : "png");
			snprintf(tmp, sizeof(tmp), "%s.tmp", fin);
			if (ok && !stat(tmp, &st) && st.st_size > 0 && !rename(tmp, fin)) {
				printf("wrote %s\n", fin);
			} else {
				unlink(tmp);
				ok = 0;
			}
		}
	return ok ? 0 : -1;
}

static int sweep_plots(struct ctx *c, const char *a, const char *b)
{
	static const char *const fc[] = { "pft_faults_cpu" }, *const fs[] = { "pft_faults_sec" };
	static const char *const lat[] = { "fault_latency_p50", "fault_latency_p99" };
	static const char *const latn[] = { "p50", "p99" };
	static const char *const ab[] = { "lockless_abort_pct" };
	static const char *const mw[] = { "mmap_lock_wait_mean" };
	struct fl_cmp cmp;
	char err[512], title[1024], vs[720];

	if (fl_cmp_build(&cmp, a, b ? b : a, FL_SIGNIFICANCE_ALPHA, err, sizeof(err))) {
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
	for (int s = 0; s < c->nsides; s++) {
		char kv[256], lb[256];
		const char *v = c->label[s][0] ? c->label[s] : cmp.sw[s].tags ?
			fl_kv_get(cmp.sw[s].tags, "kernel_version", kv, sizeof(kv)) : NULL;

		/* with the shape in it when A and B differ in it */
		snprintf(lb, sizeof(lb), "%s", v ? v : cmp.sw[s].dir);
		fl_cmp_side_label(&cmp, s, lb, c->label[s], sizeof(c->label[s]));
	}
	/* the shape once in every title when it is A's and B's */
	if (b && cmp.shape_differs)
		snprintf(vs, sizeof(vs), "A %s vs B %s", c->label[0], c->label[1]);
	else if (b)
		snprintf(vs, sizeof(vs), "A %s vs B %s, shape %s", c->label[0], c->label[1],
			 cmp.shape[0]);
	else
		snprintf(vs, sizeof(vs), "%s, shape %s", c->label[0], cmp.shape[0]);

	snprintf(title, sizeof(title), "pft faults per second vs threads (%s)", vs);
	line_plot(c, &cmp, "faults_sec", fs, NULL, 1, title,
		  "faults/s (mean, error bars: stddev over runs)", 0);
	snprintf(title, sizeof(title), "pft faults per second per CPU vs threads (%s)", vs);
	line_plot(c, &cmp, "faults_cpu", fc, NULL, 1, title,
		  "faults/s per CPU (mean, error bars: stddev)", 0);
	if (kind_has_data(&cmp, "fault_latency_p50", c->nsides)) {
		snprintf(title, sizeof(title), "fault latency percentiles vs threads (%s)", vs);
		line_plot(c, &cmp, "latency", lat, latn, 2, title,
			  "fault latency, ns (mean of per-run percentiles, log scale)", 1);
	} else {
		printf("skipped latency: %s\n", kind_gap(&cmp, "fault_latency_p50"));
	}
	if (kind_has_data(&cmp, "lockless_abort_pct", c->nsides)) {
		snprintf(title, sizeof(title), "lockless fault path aborts vs threads (%s)", vs);
		line_plot(c, &cmp, "aborts", ab, NULL, 1, title,
			  "aborted / attempted lockless faults, % (mean, stddev)", 0);
	} else {
		printf("skipped aborts: %s\n", kind_gap(&cmp, "lockless_abort_pct"));
	}
	if (kind_has_data(&cmp, "mmap_lock_wait_mean", c->nsides)) {
		snprintf(title, sizeof(title), "mmap_lock wait vs threads (%s)", vs);
		line_plot(c, &cmp, "mmap_wait", mw, NULL, 1, title,
			  "mean mmap_lock wait per acquisition, ns (mean, stddev over runs)", 0);
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
	if (stat(a.a, &st)) {
		fprintf(stderr, "faultline plot: %s: %s\n", a.a, strerror(errno));
		return 1;
	}
	sweep = S_ISDIR(st.st_mode);
	if (sweep) {
		struct fl_sweep sw;

		/* a sweep directory has pft-N.log files; else a directory of snapshots */
		sweep = !fl_sweep_load(a.a, &sw, err, sizeof(err));
		if (sweep)
			fl_sweep_free(&sw);
		else if (a.b) {
			fprintf(stderr, "faultline plot: %s\n", err);
			return 1;
		}
	}
	if (mkdir(c.outdir, 0755) && errno != EEXIST) {
		fprintf(stderr, "faultline plot: %s: %s\n", c.outdir, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/plot.gp", c.outdir);
	c.gp = fopen(path, "w");
	if (!c.gp) {
		fprintf(stderr, "faultline plot: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(c.gp, "# faultline plot: run 'gnuplot plot.gp' in this directory\n");
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
	return rc ? 1 : 0;
}
