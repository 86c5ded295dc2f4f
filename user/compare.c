// SPDX-License-Identifier: GPL-2.0
/* The A/B comparison model (see compare.h). */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "errbuf.h"
#include "topology.h"

const struct fl_cmp_kind fl_cmp_kinds[] = {
	{ "pft_faults_cpu", "faults/s/cpu", 1, 0, 0, 0 },
	{ "pft_faults_sec", "faults/s", 1, 0, 0, 0 },
	/* will-it-scale: mmtests' "ops" (the total of one 1 s sample) */
	{ "wis_ops", "ops/s", 1, 0, 0, 0 },
	{ "fault_latency_p50", "ns", 0, 1, 0, 0 },
	{ "fault_latency_p99", "ns", 0, 1, 0, 0 },
	{ "lockless_abort_pct", "%", 0, 1, 0, 0 },
	{ "mmap_lock_wait_mean", "ns", 0, 1, 0, 0 },
	/* record --phases: ns per fault, means over all faults (they add up) */
	{ "phases_latency_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_CMP_LAT },
	{ "phase_lockless_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_LOCKLESS },
	{ "phase_mmap_wait_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_MMAP_WAIT },
	{ "phase_alloc_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_ALLOC },
	{ "phase_zero_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_ZERO },
	{ "phase_memcg_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_MEMCG },
	{ "phase_ptl_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_PTL },
	{ "phase_lru_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_LRU },
	{ "phase_rest_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_REST },
	{ "phase_pagecache_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_PCACHE },
	{ "phase_read_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_READ },
	{ "phase_around_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_AROUND },
	{ "phase_cow_copy_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_COPY },
	{ "phase_unattrib_mean", "ns/fault", 0, 1, FL_CMP_PHASE, FL_PH_NR },
	/* record --locks: contended wait per fault of the run */
	{ "lock_mmap_r_wait", "ns/fault", 0, 1, FL_CMP_LOCK, FL_LK_MMAP_R },
	{ "lock_mmap_w_wait", "ns/fault", 0, 1, FL_CMP_LOCK, FL_LK_MMAP_W },
	{ "lock_vma_wait", "ns/fault", 0, 1, FL_CMP_LOCK, FL_LK_VMA },
	{ "lock_ptl_wait", "ns/fault", 0, 1, FL_CMP_LOCK, FL_LK_PTL },
	{ "lock_zone_wait", "ns/fault", 0, 1, FL_CMP_LOCK, FL_LK_ZONE },
	{ "lock_lru_wait", "ns/fault", 0, 1, FL_CMP_LOCK, FL_LK_LRU },
	{ "lock_memcg_wait", "ns/fault", 0, 1, FL_CMP_LOCK, FL_LK_MEMCG },
	{ "lock_other_wait", "ns/fault", 0, 1, FL_CMP_LOCK, FL_LK_OTHER },
};
const unsigned int fl_cmp_nkinds = sizeof(fl_cmp_kinds) / sizeof(fl_cmp_kinds[0]);

void fl_cmp_vnote(char ***notes, unsigned int *nnotes, const char *fmt, va_list ap)
{
	char **n, *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return;
	n = realloc(*notes, (*nnotes + 1) * sizeof(*n));
	if (!n) {
		free(s);
		return;
	}
	*notes = n;
	n[(*nnotes)++] = s;
}

static void note(struct fl_cmp *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fl_cmp_vnote(&c->notes, &c->nnotes, fmt, ap);
	va_end(ap);
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
		if (!h->count)
			return fl_fail(why, len, "unavailable (no timed faults)");
		*v = (double)fl_hist_quantile_ppm(h, !strcmp(kind, "fault_latency_p50") ?
						  500000 : 990000);
		return 0;
	}
	if (!strcmp(kind, "lockless_abort_pct")) {
		if (unavailable(s, FL_FIG_LOCKLESS, why, len))
			return -1;
		if (!t.ll[FL_LL_ATTEMPTED])
			return fl_fail(why, len, "unavailable (no lockless attempts seen)");
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
		if (!h.count)
			return fl_fail(why, len, "unavailable (no mmap_lock acquisitions seen)");
		*v = (double)h.sum / h.count;
		return 0;
	}
	return fl_fail(why, len, "unknown metric %s", kind);
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

/* Per node / LLC summaries from the snapshot's topology tags (none without). */
static void snapsum_groups(struct fl_cmp_snapsum *ss, const struct fl_snapshot *s)
{
	unsigned int nph = 0, nlk = 0, n;

	fl_snapshot_phases(s, &nph);
	fl_snapshot_locks(s, &nlk);
	n = s->hdr.nr_cpus;
	n = nph > n ? nph : n;
	n = nlk > n ? nlk : n;
	for (int by = 0; by < 2; by++) {
		const char *v = fl_snapshot_tag(s, by == FL_CMP_BY_NODE ? FL_TAG_TOPOLOGY_NODE :
						   FL_TAG_TOPOLOGY_LLC);
		struct fl_topology t = { 0 };
		unsigned int ng = 0;
		char *dup, err[128];
		int *group;

		if (!v || !(dup = strdup(v)))
			continue;
		group = malloc((n ? n : 1) * sizeof(*group));
		if (!group || fl_topology_from_tags(by == FL_CMP_BY_LLC ? dup : NULL,
						    by == FL_CMP_BY_NODE ? dup : NULL,
						    s->hdr.nr_cpus, &t, err, sizeof(err))) {
			free(group);
			free(dup);
			continue;
		}
		for (unsigned int c = 0; c < n; c++) {
			group[c] = c < s->hdr.nr_cpus ?
				   fl_topology_group(&t, by == FL_CMP_BY_NODE ? FL_BY_NODE : FL_BY_LLC, c) : -1;
			if (group[c] >= 0 && (unsigned int)group[c] + 1 > ng)
				ng = (unsigned int)group[c] + 1;
		}
		fl_topology_free(&t);
		free(dup);
		if (ng > 1 && ng <= 4096) {
			ss->grp[by].sum = calloc(ng, sizeof(*ss->grp[by].sum));
			if (ss->grp[by].sum) {
				ss->grp[by].n = ng;
				for (unsigned int g = 0; g < ng; g++)
					fl_phases_summarize(s, group, (int)g, &ss->grp[by].sum[g]);
			}
		}
		free(group);
	}
}

void fl_cmp_snapsum_fill(struct fl_cmp_snapsum *ss, const struct fl_snapshot *s)
{
	const char *t;

	ss->ok = 1;
	fl_phases_summarize(s, NULL, 0, &ss->sum);
	if (!ss->sum.phases) {
		t = fl_snapshot_tag(s, FL_TAG_PHASES);
		snprintf(ss->ph_why, sizeof(ss->ph_why), "%s",
			 t && !strncmp(t, "unavailable", 11) ? t :
			 "unavailable (not recorded with --phases)");
	}
	if (!ss->sum.locks) {
		t = fl_snapshot_tag(s, FL_TAG_LOCKS);
		snprintf(ss->lk_why, sizeof(ss->lk_why), "%s",
			 t && !strncmp(t, "unavailable", 11) ? t :
			 "unavailable (not recorded with --locks)");
	}
	for (unsigned int p = 0; p < FL_PH_NR; p++)
		if (ss->sum.phases && !ss->sum.phase_avail[p])
			fl_phase_unavail_why(s, p, ss->unav[p], sizeof(ss->unav[p]));
	for (unsigned int k = 0; k < FL_LK_NR; k++)
		if (ss->sum.locks && !ss->sum.lock_avail[k])
			fl_lock_class_avail(s, k, ss->lk_unav[k], sizeof(ss->lk_unav[k]));
	if (ss->sum.phases) {
		ss->faults = (double)ss->sum.faults;
	} else {
		struct fl_cpu_stats tot;

		fl_snapshot_total(s, &tot);
		ss->faults = (double)(tot.cnt[FL_C_FAULTS_USER] + tot.cnt[FL_C_FAULTS_KERNEL]);
	}
}

/* Read every snapshot of every series once; -1 only when out of memory. */
static int read_sums(struct fl_cmp *c)
{
	for (int s = 0; s < 2; s++) {
		c->sums[s] = calloc(c->sw[s].nseries ? c->sw[s].nseries : 1, sizeof(*c->sums[s]));
		if (!c->sums[s])
			return -1;
		for (unsigned int i = 0; i < c->sw[s].nseries; i++) {
			const struct fl_pft_series *ser = &c->sw[s].series[i];
			struct fl_cmp_sums *cs = &c->sums[s][i];

			if (!ser->nsnaps)
				continue;
			cs->v = calloc(ser->nsnaps, sizeof(*cs->v));
			if (!cs->v)
				return -1;
			cs->n = ser->nsnaps;
			for (unsigned int k = 0; k < ser->nsnaps; k++) {
				struct fl_snapshot snap;
				char err[256];

				memset(&snap, 0, sizeof(snap));
				if (fl_snapshot_read_file(ser->snaps[k], &snap, err, sizeof(err)))
					continue;	/* noted by snap_values() */
				fl_cmp_snapsum_fill(&cs->v[k], &snap);
				snapsum_groups(&cs->v[k], &snap);
				if (fl_bcmp_rec_from(&cs->v[k].blame, &snap)) {
					fl_snapshot_free(&snap);
					return -1;
				}
				c->have_blame |= cs->v[k].blame.have ||
						 fl_snapshot_tag(&snap, FL_TAG_BLAME) != NULL;
				c->have_phases |= cs->v[k].sum.phases;
				c->side_phases[s] |= cs->v[k].sum.phases;
				c->have_locks |= cs->v[k].sum.locks;
				fl_snapshot_free(&snap);
			}
		}
	}
	return 0;
}

int fl_cmp_sum_metric(const struct fl_cmp_snapsum *ss, const struct fl_cmp_kind *kd,
		      double *v, char *why, size_t len)
{
	if (!ss->ok)
		return fl_fail(why, len, "no readable snapshots");
	if (kd->section == FL_CMP_PHASE) {
		const struct fl_phases_summary *m = &ss->sum;

		if (!m->phases)
			return fl_fail(why, len, "%s", ss->ph_why);
		if (!m->faults)
			return fl_fail(why, len, "unavailable (no faults with phase accounting)");
		if (kd->idx == FL_CMP_LAT)
			*v = m->lat_mean;
		else if (kd->idx == FL_PH_NR)
			*v = m->unattributed_mean;
		else if (!m->phase_avail[kd->idx])
			return fl_fail(why, len, "%s", ss->unav[kd->idx]);
		else
			*v = m->phase_mean[kd->idx];
		return 0;
	}
	if (kd->section == FL_CMP_LOCK) {
		if (!ss->sum.locks)
			return fl_fail(why, len, "%s", ss->lk_why);
		if (!ss->sum.lock_avail[kd->idx])
			return fl_fail(why, len, "%s", ss->lk_unav[kd->idx]);
		if (!(ss->faults > 0))
			return fl_fail(why, len, "unavailable (no faults counted to divide the wait by)");
		*v = (double)ss->sum.lock_wait_ns[kd->idx] / ss->faults;
		return 0;
	}
	return fl_fail(why, len, "unknown metric %s", kd->kind);
}

/* Values of a phase / lock kind for one side's series; gap set when none. */
static void sum_values(const struct fl_cmp *c, int side, const struct fl_pft_series *ser,
		       const struct fl_cmp_kind *kd, struct vals *vs, char *gap)
{
	const struct fl_cmp_sums *cs = &c->sums[side][ser - c->sw[side].series];
	char why[FL_CMP_GAP_LEN] = "";

	if (!cs->n) {
		snprintf(gap, FL_CMP_GAP_LEN, "no snapshots");
		return;
	}
	for (unsigned int i = 0; i < cs->n; i++) {
		double v;

		if (!fl_cmp_sum_metric(&cs->v[i], kd, &v, why, sizeof(why)))
			push(vs, v);
	}
	if (!vs->n)
		snprintf(gap, FL_CMP_GAP_LEN, "%s", why[0] ? why : "no readable snapshots");
}

/* Lock classes without any contended wait on either side: rows left out, noted. */
static void drop_quiet_locks(struct fl_cmp *c)
{
	char quiet[256] = "";
	unsigned int o = 0;

	for (unsigned int k = 0; k < fl_cmp_nkinds; k++) {
		const struct fl_cmp_kind *kd = &fl_cmp_kinds[k];
		int any = 0, seen = 0;

		if (kd->section != FL_CMP_LOCK)
			continue;
		for (unsigned int i = 0; i < c->nm; i++)
			if (c->m[i].kind == kd->kind)
				for (int s = 0; s < 2; s++)
					if (c->m[i].have[s]) {
						seen = 1;
						any |= c->m[i].st[s].max > 0;
					}
		if (!seen || any)
			continue;
		snprintf(quiet + strlen(quiet), sizeof(quiet) - strlen(quiet), "%s%s",
			 quiet[0] ? ", " : "", fl_lock_class_name(kd->idx));
		for (unsigned int i = 0; i < c->nm; i++)
			if (c->m[i].kind == kd->kind)
				c->m[i].kind = NULL;
	}
	for (unsigned int i = 0; i < c->nm; i++)
		if (c->m[i].kind)
			c->m[o++] = c->m[i];
	c->nm = o;
	if (quiet[0])
		note(c, "lock classes without contended wait in A or B (rows left out): %s", quiet);
}

/* Per-run values of a kind at one series of one side, for the explain test. */
static int side_stats(const struct fl_cmp *c, int side, unsigned int threads,
		      const struct fl_cmp_kind *kd, struct fl_stats *st)
{
	const struct fl_pft_series *ser = fl_sweep_series(&c->sw[side], threads);
	struct vals vs = { 0 };
	char gap[FL_CMP_GAP_LEN] = "";
	int rc;

	if (!ser)
		return -1;
	sum_values(c, side, ser, kd, &vs, gap);
	rc = vs.n && !fl_stats_compute(vs.v, vs.n, st) ? 0 : -1;
	free(vs.v);
	return rc;
}

static const struct fl_cmp_kind *find_kind(int section, int idx)
{
	for (unsigned int k = 0; k < fl_cmp_nkinds; k++)
		if (fl_cmp_kinds[k].section == section && fl_cmp_kinds[k].idx == idx)
			return &fl_cmp_kinds[k];
	return NULL;
}

/*
 * The component (phase or lock class) at one thread count whose mean moved
 * most in the direction of dlat with p < alpha.  Returns its idx or -1;
 * *d and *p get its change and p-value.
 */
struct comp {
	int idx;
	double d, p;
};

/*
 * Every component that moved in the direction of dlat with p < alpha, the
 * largest change first (at most FL_PH_NR + 1).  Returns how many.
 */
static int components(const struct fl_cmp *c, unsigned int threads, int section, double dlat,
		      struct comp *out)
{
	int n = 0, last = section == FL_CMP_PHASE ? FL_PH_NR : FL_LK_NR - 1;

	for (int idx = 0; idx <= last; idx++) {
		const struct fl_cmp_kind *kd = find_kind(section, idx);
		struct fl_stats a, b;
		double dd, pp;
		int k;

		if (!kd || side_stats(c, 0, threads, kd, &a) || side_stats(c, 1, threads, kd, &b))
			continue;
		dd = b.mean - a.mean;
		pp = fl_welch_p(&a, &b, NULL, NULL);
		if (isnan(pp) || pp >= c->alpha || (dlat >= 0 ? dd <= 0 : dd >= 0))
			continue;
		for (k = n; k > 0 && fabs(out[k - 1].d) < fabs(dd); k--)
			out[k] = out[k - 1];
		out[k] = (struct comp){ idx, dd, pp };
		n++;
	}
	return n;
}

static int best_component(const struct fl_cmp *c, unsigned int threads, int section,
			  double dlat, double *d, double *p)
{
	struct comp v[FL_PH_NR + FL_LK_NR];

	if (!components(c, threads, section, dlat, v))
		return -1;
	*d = v[0].d;
	*p = v[0].p;
	return v[0].idx;
}

/* The significant change of largest size, up or down. */
static int best_either(const struct fl_cmp *c, unsigned int threads, int section,
		       double *d, double *p)
{
	double du = 0, pu = NAN, dd = 0, pd = NAN;
	int up = best_component(c, threads, section, +1, &du, &pu);
	int down = best_component(c, threads, section, -1, &dd, &pd);

	if (down >= 0 && (up < 0 || fabs(dd) > fabs(du))) {
		*d = dd;
		*p = pd;
		return down;
	}
	*d = du;
	*p = pu;
	return up;
}

static const char *comp_name(int section, int idx)
{
	if (section == FL_CMP_LOCK)
		return fl_lock_class_name(idx);
	return idx == FL_PH_NR ? "unattributed time" : fl_phase_name(idx);
}

/* Mean of the per-run summaries of a series: for fl_phases_explain(). */
static int mean_summary(const struct fl_cmp *c, int side, unsigned int threads,
			struct fl_phases_summary *out, unsigned int *n)
{
	const struct fl_pft_series *ser = fl_sweep_series(&c->sw[side], threads);
	const struct fl_cmp_sums *cs;

	memset(out, 0, sizeof(*out));
	*n = 0;
	if (!ser)
		return -1;
	cs = &c->sums[side][ser - c->sw[side].series];
	for (unsigned int i = 0; i < cs->n; i++) {
		const struct fl_phases_summary *m = &cs->v[i].sum;

		if (!cs->v[i].ok || !m->phases || !m->faults)
			continue;
		if (!*n) {
			*out = *m;
			out->faults = 0;
			out->lat_mean = out->unattributed_mean = 0;
			memset(out->phase_mean, 0, sizeof(out->phase_mean));
			memset(out->lock_wait_ns, 0, sizeof(out->lock_wait_ns));
			out->lock_wait_total_ns = 0;
		}
		(*n)++;
		out->faults += m->faults;
		out->lat_mean += m->lat_mean;
		out->unattributed_mean += m->unattributed_mean;
		for (unsigned int p = 0; p < FL_PH_NR; p++) {
			out->phase_avail[p] = out->phase_avail[p] && m->phase_avail[p];
			out->phase_mean[p] += m->phase_mean[p];
		}
		out->locks = out->locks && m->locks;
		for (unsigned int k = 0; k < FL_LK_NR; k++)
			out->lock_avail[k] = out->lock_avail[k] && m->lock_avail[k];
		for (unsigned int k = 0; k < FL_LK_NR; k++)
			out->lock_wait_ns[k] += m->lock_wait_ns[k];
		out->lock_wait_total_ns += m->lock_wait_total_ns;
	}
	if (!*n)
		return -1;
	out->lat_mean /= *n;
	out->unattributed_mean /= *n;
	for (unsigned int p = 0; p < FL_PH_NR; p++)
		out->phase_mean[p] /= *n;
	return 0;
}

/* A component's value in one group's summary: ns per fault of that group. */
static int group_value(const struct fl_phases_summary *m, int section, int idx, double *v)
{
	if (!m->faults)
		return -1;
	if (section == FL_CMP_LOCK) {
		if (!m->locks || !m->lock_avail[idx])
			return -1;
		*v = (double)m->lock_wait_ns[idx] / (double)m->faults;
		return 0;
	}
	if (!m->phases)
		return -1;
	if (idx == FL_PH_NR)
		*v = m->unattributed_mean;
	else if (!m->phase_avail[idx])
		return -1;
	else
		*v = m->phase_mean[idx];
	return 0;
}

static int group_stats(const struct fl_cmp *c, int side, unsigned int threads, int by,
		       unsigned int g, int section, int idx, struct fl_stats *st)
{
	const struct fl_pft_series *ser = fl_sweep_series(&c->sw[side], threads);
	const struct fl_cmp_sums *cs;
	struct vals vs = { 0 };
	int rc;

	if (!ser)
		return -1;
	cs = &c->sums[side][ser - c->sw[side].series];
	for (unsigned int i = 0; i < cs->n; i++) {
		double v;

		if (cs->v[i].ok && g < cs->v[i].grp[by].n &&
		    !group_value(&cs->v[i].grp[by].sum[g], section, idx, &v))
			push(&vs, v);
	}
	rc = vs.n && !fl_stats_compute(vs.v, vs.n, st) ? 0 : -1;
	free(vs.v);
	return rc;
}

/*
 * Where in the machine a component changed most: the node (else the LLC
 * domain) whose per-fault mean of it moved most in the direction of d with
 * p < alpha.  Appends " (most on node1: +X ns per fault there, p=..)".
 */
static size_t where_most(const struct fl_cmp *c, unsigned int threads, int section, int idx,
			 double d, char *buf, size_t len)
{
	for (int by = 0; by < 2; by++) {
		int best = -1;
		double bd = 0, bp = NAN;
		unsigned int ng = 0;
		const struct fl_pft_series *ser = fl_sweep_series(&c->sw[1], threads);

		if (!ser)
			return 0;
		{
			const struct fl_cmp_sums *cs = &c->sums[1][ser - c->sw[1].series];

			for (unsigned int i = 0; i < cs->n; i++)
				ng = cs->v[i].grp[by].n > ng ? cs->v[i].grp[by].n : ng;
		}
		if (ng < 2)
			continue;
		for (unsigned int g = 0; g < ng; g++) {
			struct fl_stats a, b;
			double dd, pp;

			if (group_stats(c, 0, threads, by, g, section, idx, &a) ||
			    group_stats(c, 1, threads, by, g, section, idx, &b))
				continue;
			dd = b.mean - a.mean;
			pp = fl_welch_p(&a, &b, NULL, NULL);
			if (isnan(pp) || pp >= c->alpha || (d >= 0 ? dd <= 0 : dd >= 0))
				continue;
			if (best < 0 || fabs(dd) > fabs(bd)) {
				best = (int)g;
				bd = dd;
				bp = pp;
			}
		}
		if (best >= 0 && len)
			return snprintf(buf, len, " (most %s %s%d: %+.0f ns per fault there, p=%.2g)",
					by == FL_CMP_BY_NODE ? "on" : "in",
					by == FL_CMP_BY_NODE ? "node" : "llc", best, bd, bp);
	}
	return 0;
}

static void explain_one(const struct fl_cmp *c, unsigned int threads, struct fl_cmp_explain *e)
{
	const struct fl_cmp_kind *lat = find_kind(FL_CMP_PHASE, FL_CMP_LAT);
	struct fl_stats a, b;
	double plat, dp = 0, pp = NAN, dl = 0, pl = NAN;
	char where[64];
	size_t o;

	memset(e, 0, sizeof(*e));
	e->threads = threads;
	e->phase = e->lock = -1;
	e->phase_share = e->lock_share = NAN;
	snprintf(where, sizeof(where), "at %u thread%s", threads, threads == 1 ? "" : "s");
	if (side_stats(c, 0, threads, lat, &a) || side_stats(c, 1, threads, lat, &b))
		return;
	e->dlat = b.mean - a.mean;
	if (a.n < 2 || b.n < 2) {
		/* one run on a side: no test, say what the means show */
		struct fl_phases_summary sa, sb;
		unsigned int na, nb;

		if (mean_summary(c, 0, threads, &sa, &na) || mean_summary(c, 1, threads, &sb, &nb))
			return;
		o = snprintf(e->text, sizeof(e->text), "%s (one run per side: not tested): ", where);
		if (o < sizeof(e->text))
			e->phase = fl_phases_explain(&sa, &sb, NULL, e->text + o, sizeof(e->text) - o);
		return;
	}
	plat = fl_welch_p(&a, &b, NULL, NULL);
	e->phase = best_component(c, threads, FL_CMP_PHASE, e->dlat, &dp, &pp);
	if (c->have_locks)
		e->lock = best_component(c, threads, FL_CMP_LOCK, e->dlat, &dl, &pl);
	if (!isnan(plat) && plat < c->alpha) {
		e->significant = 1;
		o = snprintf(e->text, sizeof(e->text),
			     "%s, B's faults are %.0f ns %s on average (%+.1f%%, p=%.2g)", where,
			     fabs(e->dlat), e->dlat > 0 ? "slower" : "faster",
			     fl_pct_change(a.mean, b.mean), plat);
		if (e->phase >= 0 && o < sizeof(e->text)) {
			e->phase_share = 100.0 * dp / e->dlat;
			o += snprintf(e->text + o, sizeof(e->text) - o,
				      ": %.0f%% of the %s latency in B is %s (%+.0f ns per fault, p=%.2g)",
				      e->phase_share, e->dlat > 0 ? "added" : "saved",
				      comp_name(FL_CMP_PHASE, e->phase), dp, pp);
			if (o < sizeof(e->text))
				o += where_most(c, threads, FL_CMP_PHASE, e->phase, dp,
						e->text + o, sizeof(e->text) - o);
			/* the next phases that carry a good part of it too */
			{
				struct comp v[FL_PH_NR + 1];
				int n = components(c, threads, FL_CMP_PHASE, e->dlat, v);

				for (int k = 1; k < n && k < 3 && o < sizeof(e->text); k++)
					if (fabs(v[k].d) >= 0.1 * fabs(e->dlat))
						o += snprintf(e->text + o, sizeof(e->text) - o,
							      ", %.0f%% %s (%+.0f ns per fault, p=%.2g)",
							      100.0 * v[k].d / e->dlat,
							      comp_name(FL_CMP_PHASE, v[k].idx),
							      v[k].d, v[k].p);
			}
		} else if (o < sizeof(e->text)) {
			o += snprintf(e->text + o, sizeof(e->text) - o,
				      "; no single phase changed significantly");
		}
		if (e->lock >= 0 && o < sizeof(e->text)) {
			e->lock_share = 100.0 * dl / e->dlat;
			o += snprintf(e->text + o, sizeof(e->text) - o,
				      "; %.0f%% of it is %s lock wait (%+.0f ns per fault, p=%.2g)",
				      e->lock_share, comp_name(FL_CMP_LOCK, e->lock), dl, pl);
			if (o < sizeof(e->text))
				where_most(c, threads, FL_CMP_LOCK, e->lock, dl, e->text + o,
					   sizeof(e->text) - o);
		}
		return;
	}
	if (e->phase < 0 && e->lock < 0)
		return;		/* nothing significant: no line */
	/* latency unchanged within noise, yet a part of it moved (either way) */
	e->phase = best_either(c, threads, FL_CMP_PHASE, &dp, &pp);
	e->lock = c->have_locks ? best_either(c, threads, FL_CMP_LOCK, &dl, &pl) : -1;
	if (e->phase < 0 && e->lock < 0)
		return;		/* nothing significant: no line */
	e->significant = 1;
	o = snprintf(e->text, sizeof(e->text),
		     "%s, fault latency did not change significantly (%+.0f ns per fault, p=%.2g)",
		     where, e->dlat, plat);
	if (e->phase >= 0 && o < sizeof(e->text))
		o += snprintf(e->text + o, sizeof(e->text) - o,
			      ", but %s changed by %+.0f ns per fault (p=%.2g)",
			      comp_name(FL_CMP_PHASE, e->phase), dp, pp);
	if (e->lock >= 0 && o < sizeof(e->text))
		snprintf(e->text + o, sizeof(e->text) - o,
			 "%s %s lock wait changed by %+.0f ns per fault (p=%.2g)",
			 e->phase >= 0 ? "; and" : ", but", comp_name(FL_CMP_LOCK, e->lock), dl, pl);
}

int fl_cmp_build_explain(struct fl_cmp *c)
{
	free(c->explain);
	c->explain = NULL;
	c->nexplain = 0;
	if (!c->have_phases)
		return 0;
	for (unsigned int i = 0; i < c->sw[0].nseries; i++) {
		unsigned int t = c->sw[0].series[i].threads;
		struct fl_cmp_explain e, *n;

		if (!fl_sweep_series(&c->sw[1], t))
			continue;
		explain_one(c, t, &e);
		if (!e.text[0])
			continue;
		n = realloc(c->explain, (c->nexplain + 1) * sizeof(*n));
		if (!n)
			return -1;
		c->explain = n;
		c->explain[c->nexplain++] = e;
	}
	return 0;
}

int fl_cmp_build_blame(struct fl_cmp *c)
{
	for (unsigned int i = 0; c->have_blame && i < c->sw[0].nseries; i++) {
		unsigned int t = c->sw[0].series[i].threads, n[2];
		const struct fl_pft_series *ser[2] = { &c->sw[0].series[i],
						       fl_sweep_series(&c->sw[1], t) };
		struct fl_bcmp_rec *rec[2] = { NULL, NULL };
		struct fl_bcmp *nb;
		char where[64];
		int rc = -1;

		if (!ser[1])
			continue;
		nb = realloc(c->blame, (c->nblame + 1) * sizeof(*nb));
		if (!nb)
			return -1;
		c->blame = nb;
		for (int s = 0; s < 2; s++) {
			const struct fl_cmp_sums *cs = &c->sums[s][ser[s] - c->sw[s].series];

			/* shallow copies: the rows stay the snapshot summaries' */
			n[s] = cs->n;
			rec[s] = calloc(n[s] ? n[s] : 1, sizeof(*rec[s]));
			for (unsigned int k = 0; rec[s] && k < n[s]; k++)
				if (cs->v[k].ok)
					rec[s][k] = cs->v[k].blame;
				else
					snprintf(rec[s][k].why, sizeof(rec[s][k].why), "unreadable snapshot");
		}
		snprintf(where, sizeof(where), "at %u thread%s", t, t == 1 ? "" : "s");
		if (rec[0] && rec[1])
			rc = fl_bcmp_build(&c->blame[c->nblame], (const struct fl_bcmp_rec *const[2]){
						   rec[0], rec[1] }, n, c->alpha, where);
		free(rec[0]);
		free(rec[1]);
		if (rc)
			return -1;
		c->blame[c->nblame++].threads = t;
	}
	return 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* The union of both sweeps' thread counts, sorted; notes for what a side lacks. */
static int thread_counts(struct fl_cmp *c, unsigned int **thrp, unsigned int *nthrp)
{
	unsigned int *thr = NULL, nthr = 0;

	/* union of thread counts */
	for (int s = 0; s < 2; s++)
		for (unsigned int i = 0; i < c->sw[s].nseries; i++) {
			unsigned int t = c->sw[s].series[i].threads, k;

			for (k = 0; k < nthr && thr[k] != t; k++)
				;
			if (k == nthr) {
				unsigned int *n = realloc(thr, (nthr + 1) * sizeof(*n));

				if (!n) {
					free(thr);
					return -1;
				}
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
				note(c, "%c has no %u-thread run (no %s%u%s): its rows are gaps",
				     'A' + s, thr[k], c->sw[s].wis ? "benchlog-" : "pft-", thr[k],
				     c->sw[s].wis ? "" : ".log");

	*thrp = thr;
	*nthrp = nthr;
	return 0;
}

/* Side S's values of metric M (kind KD, the K-th) at its thread count. */
static void metric_side(struct fl_cmp *c, int s, const struct fl_cmp_kind *kd, unsigned int k,
			struct fl_cmp_metric *m)
{
	const struct fl_pft_series *ser = fl_sweep_series(&c->sw[s], m->threads);
	struct vals vs = { 0 };
	const double *v = NULL;
	unsigned int n = 0;

	if (!ser) {
		m->no_run[s] = 1;
		snprintf(m->gap[s], FL_CMP_GAP_LEN, "no %u-thread run", m->threads);
		return;
	}
	if (!kd->from_snapshots) {
		v = k == FL_CMP_K_WIS ? ser->ops : k == FL_CMP_K_CPU ? ser->flt_cpu : ser->flt_wsec;
		n = ser->n;
	} else if (kd->section) {
		sum_values(c, s, ser, kd, &vs, m->gap[s]);
		v = vs.v;
		n = vs.n;
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

/* The % row and Welch's t-test of M, once both sides have values. */
static void metric_compare(struct fl_cmp_metric *m, double alpha)
{
	for (int p = 0; p < FL_PCT_NR; p++)
		m->pct[p] = NAN;
	m->t = m->df = m->p = m->mm_ratio = NAN;
	m->mm_marked = 0;
	if (m->have[0] && m->have[1]) {
		const struct fl_stats *a = &m->st[0], *b = &m->st[1];

		m->pct[FL_PCT_MIN] = fl_pct_change(a->min, b->min);
		m->pct[FL_PCT_MAX] = fl_pct_change(a->max, b->max);
		m->pct[FL_PCT_MEAN] = fl_pct_change(a->mean, b->mean);
		m->pct[FL_PCT_MEDIAN] = fl_pct_change(a->median, b->median);
		m->pct[FL_PCT_STDDEV] = fl_pct_change(a->stddev, b->stddev);
		m->p = fl_welch_p(a, b, &m->t, &m->df);
		m->significant = !isnan(m->p) && m->p < alpha;
		m->mm_ratio = fl_mmtests_ratio(a, b, m->higher_is_better);
		m->mm_marked = fl_mmtests_marked(m->mm_ratio);
	}
}

int fl_cmp_build(struct fl_cmp *c, const char *dir_a, const char *dir_b, double alpha,
		 char *err, size_t errlen)
{
	return fl_cmp_build_test(c, dir_a, dir_b, NULL, alpha, err, errlen);
}

int fl_cmp_build_test(struct fl_cmp *c, const char *dir_a, const char *dir_b, const char *test,
		      double alpha, char *err, size_t errlen)
{
	unsigned int *thr = NULL, nthr = 0;

	memset(c, 0, sizeof(*c));
	c->alpha = alpha;
	if (fl_sweep_load_test(dir_a, test, &c->sw[0], err, errlen))
		return -1;
	if (fl_sweep_load_test(dir_b, test, &c->sw[1], err, errlen)) {
		fl_sweep_free(&c->sw[0]);
		return -1;
	}
	if (c->sw[0].wis != c->sw[1].wis) {
		snprintf(err, errlen, "%s is %s, %s is %s: nothing to compare", c->sw[0].dir,
			 c->sw[0].wis ? "will-it-scale results" : "a pft sweep", c->sw[1].dir,
			 c->sw[1].wis ? "will-it-scale results" : "a pft sweep");
		fl_sweep_free(&c->sw[0]);
		fl_sweep_free(&c->sw[1]);
		return -1;
	}
	for (int s = 0; s < 2; s++)
		c->shape_known[s] = !fl_sweep_shape(&c->sw[s], c->shape[s], sizeof(c->shape[s]));
	if (c->shape_known[0] && c->shape_known[1] && strcmp(c->shape[0], c->shape[1])) {
		c->shape_differs = 1;
		note(c, "A and B are different %s (A %s, B %s): what differs "
		     "is the workload as well as the kernel",
		     c->sw[0].wis ? "will-it-scale tests" : "pft fault shapes", c->shape[0],
		     c->shape[1]);
	}
	for (int s = 0; s < 2; s++)
		if (!c->shape_known[s] && c->shape_known[!s])
			note(c, "%c has no sweep.conf: its pft fault shape is unknown (%c is %s)",
			     'A' + s, 'A' + !s, c->shape[!s]);
	if (thread_counts(c, &thr, &nthr))
		goto oom;
	if (c->have_snapshots && read_sums(c))
		goto oom;
	c->m = calloc((size_t)fl_cmp_nkinds * nthr, sizeof(*c->m));
	if (!c->m)
		goto oom;
	for (unsigned int k = 0; k < fl_cmp_nkinds; k++) {
		const struct fl_cmp_kind *kd = &fl_cmp_kinds[k];

		if (kd->from_snapshots && !c->have_snapshots)
			continue;
		/* pft's two rates, or will-it-scale's ops */
		if (!kd->from_snapshots && (k == FL_CMP_K_WIS) != c->sw[0].wis)
			continue;
		if ((kd->section == FL_CMP_PHASE && !c->have_phases) ||
		    (kd->section == FL_CMP_LOCK && !c->have_locks))
			continue;
		for (unsigned int i = 0; i < nthr; i++) {
			struct fl_cmp_metric *m = &c->m[c->nm++];

			snprintf(m->name, sizeof(m->name), "%s_%u", kd->kind, thr[i]);
			m->kind = kd->kind;
			m->unit = kd->unit;
			m->threads = thr[i];
			m->higher_is_better = kd->higher_is_better;
			for (int s = 0; s < 2; s++)
				metric_side(c, s, kd, k, m);
			metric_compare(m, alpha);
		}
	}
	drop_quiet_locks(c);
	if (fl_cmp_build_explain(c) || fl_cmp_build_blame(c))
		goto oom;
	free(thr);
	return 0;
oom:
	free(thr);
	fl_cmp_free(c);
	return fl_fail(err, errlen, "out of memory");
}

int fl_cmp_shape_check(const struct fl_cmp *c, int allow, char *err, size_t errlen)
{
	if (!c->shape_differs || allow)
		return 0;
	return fl_fail(err, errlen, "A (%s) is %s %s, B (%s) is %s: two workloads, not one "
		       "workload on two kernels; --any-shape compares them anyway",
		       c->sw[0].dir, c->sw[0].wis ? "will-it-scale test" : "pft shape",
		       c->shape[0], c->sw[1].dir, c->shape[1]);
}

const char *fl_cmp_side_label(const struct fl_cmp *c, int side, const char *label,
			      char *buf, size_t len)
{
	if (c->shape_differs)
		snprintf(buf, len, "%s [%s]", label, c->shape[side]);
	else
		snprintf(buf, len, "%s", label);
	return buf;
}

void fl_cmp_free(struct fl_cmp *c)
{
	for (unsigned int i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->m);
	for (int s = 0; s < 2; s++) {
		for (unsigned int i = 0; c->sums[s] && i < c->sw[s].nseries; i++) {
			for (unsigned int k = 0; k < c->sums[s][i].n; k++) {
				for (int by = 0; by < 2; by++)
					free(c->sums[s][i].v[k].grp[by].sum);
				fl_bcmp_rec_free(&c->sums[s][i].v[k].blame);
			}
			free(c->sums[s][i].v);
		}
		free(c->sums[s]);
	}
	free(c->explain);
	for (unsigned int i = 0; i < c->nblame; i++)
		fl_bcmp_free(&c->blame[i]);
	free(c->blame);
	fl_sweep_free(&c->sw[0]);
	fl_sweep_free(&c->sw[1]);
	memset(c, 0, sizeof(*c));
}
