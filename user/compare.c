// SPDX-License-Identifier: GPL-2.0
/* The A/B comparison model (see compare.h). */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

const struct fl_cmp_kind fl_cmp_kinds[] = {
	{ "pft_faults_cpu", "faults/s/cpu", 1, 0 },
	{ "pft_faults_sec", "faults/s", 1, 0 },
	{ "fault_latency_p50", "ns", 0, 1 },
	{ "fault_latency_p99", "ns", 0, 1 },
	{ "lockless_abort_pct", "%", 0, 1 },
	{ "mmap_lock_wait_mean", "ns", 0, 1 },
};
const unsigned int fl_cmp_nkinds = sizeof(fl_cmp_kinds) / sizeof(fl_cmp_kinds[0]);

static void note(struct fl_cmp *c, const char *fmt, ...)
{
	char **n, *s;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	n = realloc(c->notes, (c->nnotes + 1) * sizeof(*n));
	if (!n) {
		free(s);
		return;
	}
	c->notes = n;
	c->notes[c->nnotes++] = s;
}

static int unavailable(const struct fl_snapshot *s, enum fl_figure fig, char *why, size_t len)
{
	const char *w;
	enum fl_avail a = fl_figure_avail(s, fig, &w);

	if (a == FL_AVAIL_YES)
		return 0;
	fl_fmt_unavail(why, len, a, w);
	return 1;
}

int fl_snap_metric(const struct fl_snapshot *s, const char *kind, double *v,
		   char *why, size_t len)
{
	struct fl_cpu_stats t;

	fl_snapshot_total(s, &t);
	if (!strncmp(kind, "fault_latency_p", 15)) {
		const struct fl_hist *h = &t.hist[FL_H_FAULT_LAT];

		if (unavailable(s, FL_FIG_LATENCY, why, len))
			return -1;
		if (!h->count) {
			snprintf(why, len, "unavailable (no timed faults)");
			return -1;
		}
		*v = (double)fl_hist_quantile_ppm(h, !strcmp(kind, "fault_latency_p50") ?
						  500000 : 990000);
		return 0;
	}
	if (!strcmp(kind, "lockless_abort_pct")) {
		if (unavailable(s, FL_FIG_LOCKLESS, why, len))
			return -1;
		if (!t.ll[FL_LL_ATTEMPTED]) {
			snprintf(why, len, "unavailable (no lockless attempts seen)");
			return -1;
		}
		*v = 100.0 * t.ll[FL_LL_ABORTED] / t.ll[FL_LL_ATTEMPTED];
		return 0;
	}
	if (!strcmp(kind, "mmap_lock_wait_mean")) {
		struct fl_hist h;

		if (unavailable(s, FL_FIG_MMAP, why, len))
			return -1;
		memset(&h, 0, sizeof(h));
		fl_hist_merge(&h, &t.hist[FL_H_MMAP_WAIT_R]);
		fl_hist_merge(&h, &t.hist[FL_H_MMAP_WAIT_W]);
		if (!h.count) {
			snprintf(why, len, "unavailable (no mmap_lock acquisitions seen)");
			return -1;
		}
		*v = (double)h.sum / h.count;
		return 0;
	}
	snprintf(why, len, "unknown metric %s", kind);
	return -1;
}

struct vals {
	double *v;
	unsigned int n;
};

static int push(struct vals *vs, double x)
{
	double *n = realloc(vs->v, (vs->n + 1) * sizeof(double));

	if (!n)
		return -1;
	vs->v = n;
	vs->v[vs->n++] = x;
	return 0;
}

/* Values of a snapshot kind for one side's series; gap set when none. */
static void snap_values(struct fl_cmp *c, int side, const struct fl_pft_series *ser,
			const char *kind, struct vals *vs, char *gap)
{
	char why[FL_CMP_GAP_LEN] = "", err[256];

	if (!ser->nsnaps) {
		snprintf(gap, FL_CMP_GAP_LEN, "no snapshots");
		return;
	}
	for (unsigned int i = 0; i < ser->nsnaps; i++) {
		struct fl_snapshot s;
		double v;

		memset(&s, 0, sizeof(s));
		if (fl_snapshot_read_file(ser->snaps[i], &s, err, sizeof(err))) {
			/* noted once, by the first kind that reads it */
			if (!strcmp(kind, "fault_latency_p50"))
				note(c, "%c: skipped unreadable snapshot: %s", 'A' + side, err);
			continue;
		}
		if (!fl_snap_metric(&s, kind, &v, why, sizeof(why)))
			push(vs, v);
		fl_snapshot_free(&s);
	}
	if (!vs->n)
		snprintf(gap, FL_CMP_GAP_LEN, "%s", why[0] ? why : "no readable snapshots");
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

int fl_cmp_build(struct fl_cmp *c, const char *dir_a, const char *dir_b, double alpha,
		 char *err, size_t errlen)
{
	unsigned int *thr = NULL, nthr = 0;

	memset(c, 0, sizeof(*c));
	c->alpha = alpha;
	if (fl_sweep_load(dir_a, &c->sw[0], err, errlen))
		return -1;
	if (fl_sweep_load(dir_b, &c->sw[1], err, errlen)) {
		fl_sweep_free(&c->sw[0]);
		return -1;
	}
	/* union of thread counts */
	for (int s = 0; s < 2; s++)
		for (unsigned int i = 0; i < c->sw[s].nseries; i++) {
			unsigned int t = c->sw[s].series[i].threads, k;

			for (k = 0; k < nthr && thr[k] != t; k++)
				;
			if (k == nthr) {
				unsigned int *n = realloc(thr, (nthr + 1) * sizeof(*n));

				if (!n)
					goto oom;
				thr = n;
				thr[nthr++] = t;
			}
			if (c->sw[s].series[i].nsnaps)
				c->have_snapshots = 1;
			if (c->sw[s].series[i].dropped)
				note(c, "%c: pft-%u.log: %u sample(s) with an infinite rate "
				     "(run below clock resolution) excluded", 'A' + s, t,
				     c->sw[s].series[i].dropped);
		}
	qsort(thr, nthr, sizeof(*thr), cmp_uint);
	for (unsigned int k = 0; k < nthr; k++)
		for (int s = 0; s < 2; s++)
			if (!fl_sweep_series(&c->sw[s], thr[k]))
				note(c, "%c has no %u-thread run (no pft-%u.log): its rows are gaps",
				     'A' + s, thr[k], thr[k]);

	c->m = calloc((size_t)fl_cmp_nkinds * nthr, sizeof(*c->m));
	if (!c->m)
		goto oom;
	for (unsigned int k = 0; k < fl_cmp_nkinds; k++) {
		const struct fl_cmp_kind *kd = &fl_cmp_kinds[k];

		if (kd->from_snapshots && !c->have_snapshots)
			continue;
		for (unsigned int i = 0; i < nthr; i++) {
			struct fl_cmp_metric *m = &c->m[c->nm++];

			snprintf(m->name, sizeof(m->name), "%s_%u", kd->kind, thr[i]);
			m->kind = kd->kind;
			m->unit = kd->unit;
			m->threads = thr[i];
			m->higher_is_better = kd->higher_is_better;
			for (int s = 0; s < 2; s++) {
				const struct fl_pft_series *ser = fl_sweep_series(&c->sw[s], thr[i]);
				struct vals vs = { 0 };
				const double *v = NULL;
				unsigned int n = 0;

				if (!ser) {
					m->no_run[s] = 1;
					snprintf(m->gap[s], FL_CMP_GAP_LEN, "no %u-thread run",
						 thr[i]);
					continue;
				}
				if (!kd->from_snapshots) {
					v = k == 0 ? ser->flt_cpu : ser->flt_wsec;
					n = ser->n;
				} else {
					snap_values(c, s, ser, kd->kind, &vs, m->gap[s]);
					v = vs.v;
					n = vs.n;
				}
				if (n && !fl_stats_compute(v, n, &m->st[s]))
					m->have[s] = 1;
				else if (!m->gap[s][0])
					snprintf(m->gap[s], FL_CMP_GAP_LEN, "no values");
				free(vs.v);
			}
			for (int p = 0; p < FL_PCT_NR; p++)
				m->pct[p] = NAN;
			m->t = m->df = m->p = NAN;
			if (m->have[0] && m->have[1]) {
				const struct fl_stats *a = &m->st[0], *b = &m->st[1];

				m->pct[FL_PCT_MIN] = fl_pct_change(a->min, b->min);
				m->pct[FL_PCT_MAX] = fl_pct_change(a->max, b->max);
				m->pct[FL_PCT_MEAN] = fl_pct_change(a->mean, b->mean);
				m->pct[FL_PCT_MEDIAN] = fl_pct_change(a->median, b->median);
				m->pct[FL_PCT_STDDEV] = fl_pct_change(a->stddev, b->stddev);
				m->p = fl_welch_p(a, b, &m->t, &m->df);
				m->significant = !isnan(m->p) && m->p < alpha;
			}
		}
	}
	free(thr);
	return 0;
oom:
	free(thr);
	fl_cmp_free(c);
	snprintf(err, errlen, "out of memory");
	return -1;
}

void fl_cmp_free(struct fl_cmp *c)
{
	fl_sweep_free(&c->sw[0]);
	fl_sweep_free(&c->sw[1]);
	for (unsigned int i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->m);
	memset(c, 0, sizeof(*c));
}
