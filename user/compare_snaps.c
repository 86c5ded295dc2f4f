// SPDX-License-Identifier: GPL-2.0
/*
 * compare A.snap B.snap: the model (compare_snaps.h).  Every figure is read
 * through the accessors report reads it through: fl_figure_avail() for
 * whether (and why not), fl_snapshot_total() and fl_hist_quantile_ppm() for
 * the values, fl_cmp_snapsum_fill() / fl_cmp_sum_metric() (compare.c) for
 * phases and lock classes, fl_bcmp_rec_from() for the holders.  A figure is
 * worked out per recording, then summed up per side by fl_stats_compute()
 * and tested by fl_welch_p() and fl_mmtests_ratio() (stats.c), as the sweep
 * table's are.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_label.h"
#include "compare_snaps.h"
#include "errbuf.h"
#include "report_common.h"
#include "topology.h"

void fl_hist_rank_test(const struct fl_hist *a, const struct fl_hist *b,
		       struct fl_rank_test *r)
{
	double na = 0, nb = 0, below_a = 0, u = 0, ties = 0, n, mu, var, d;

	for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++) {
		na += (double)a->buckets[i];
		nb += (double)b->buckets[i];
	}
	r->n[0] = na;
	r->n[1] = nb;
	if (!(na > 0) || !(nb > 0)) {
		r->u = r->prob = r->z = r->p = NAN;
		return;
	}
	for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++) {
		double ai = (double)a->buckets[i], bi = (double)b->buckets[i], t = ai + bi;

		/* B's events of this bucket are above every A event below it, tied with its own */
		u += bi * (below_a + ai / 2);
		below_a += ai;
		ties += t * t * t - t;
	}
	n = na + nb;
	mu = na * nb / 2;
	var = na * nb / 12 * ((n + 1) - ties / (n * (n - 1)));
	r->u = u;
	r->prob = u / (na * nb);
	if (!(var > 0)) {	/* every event of both in one bucket */
		r->z = 0;
		r->p = 1;
		return;
	}
	d = fabs(u - mu) - 0.5;
	if (d < 0)
		d = 0;
	r->z = (u < mu ? -d : d) / sqrt(var);
	r->p = erfc(fabs(r->z) / M_SQRT2);
	if (r->p > 1)
		r->p = 1;
}

static void note(struct fl_cmp_snaps *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fl_cmp_vnote(&p->notes, &p->nnotes, fmt, ap);
	va_end(ap);
}

/* What the builder reads of one recording, then lets go of the snapshot. */
struct side_in {
	const char *file;
	struct fl_snapshot snap;
	struct fl_cpu_stats t;
	struct fl_cmp_snapsum ss;
};

/* The recordings of both sides. */
struct ins {
	struct side_in *in[2];
	unsigned int n[2];
};

/* A new row (zeroed, pct NAN); NULL out of memory. */
static struct fl_csn_row *row_new(struct fl_cmp_snaps *p, const char *section, const char *name,
				  const char *unit)
{
	struct fl_csn_row *n = realloc(p->row, (p->nrow + 1) * sizeof(*n)), *r;

	if (!n)
		return NULL;
	p->row = n;
	r = &p->row[p->nrow++];
	memset(r, 0, sizeof(*r));
	r->section = section;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->unit = unit;
	/* a faster fault rate, more lockless successes: better */
	r->higher_is_better = !strcmp(unit, "1/s") || strstr(name, "succeeded");
	r->pct = r->p = r->mm_ratio = NAN;
	return r;
}

/* The side's values V[0..n) as its statistics; -1 when one is not a number. */
static int row_side(struct fl_csn_row *r, int s, const double *v, unsigned int n)
{
	if (fl_stats_compute(v, n, &r->st[s])) {
		snprintf(r->why[s], sizeof(r->why[s]), "unavailable (not a finite number)");
		return -1;
	}
	r->have[s] = 1;
	r->v[s] = r->st[s].mean;
	return 0;
}

static void row_done(const struct fl_cmp_snaps *p, struct fl_csn_row *r)
{
	if (!(r->have[0] && r->have[1]))
		return;
	r->pct = fl_pct_change(r->v[0], r->v[1]);
	r->p = fl_welch_p(&r->st[0], &r->st[1], NULL, NULL);
	r->significant = r->p < p->alpha;
	r->mm_ratio = fl_mmtests_ratio(&r->st[0], &r->st[1], r->higher_is_better);
	r->mm_marked = fl_mmtests_marked(r->mm_ratio);
}

/* Whether FIG is available on recording IN (FL_FIG_NR: always); why when not. */
static int fig_ok(const struct side_in *in, enum fl_figure fig, char *why, size_t len)
{
	const char *w;
	enum fl_avail a;

	if (fig == FL_FIG_NR)
		return 1;
	a = fl_figure_avail(&in->snap, fig, &w);
	if (a == FL_AVAIL_YES)
		return 1;
	fl_fmt_unavail(why, len, a, w);
	return 0;
}

/*
 * A side's reason: the recording's own, named when the side has several
 * and not all of them share it.
 */
static void side_why(char *dst, size_t len, const struct ins *I, int s, unsigned int k,
		     const char *why, int all)
{
	size_t n;

	if (I->n[s] > 1 && !all) {
		snprintf(dst, len, "%s: %s", I->in[s][k].file, why);
		return;
	}
	n = strnlen(why, len - 1);	/* cut to fit, as snprintf would */
	memcpy(dst, why, n);
	dst[n] = '\0';
}

/* The recordings of a side that lack a figure: the first one's reason. */
struct reasons {
	unsigned int bad, same, at;
	char first[FL_CSN_WHY];
};

static void reason_add(struct reasons *rs, unsigned int k, const char *why)
{
	if (!rs->bad++) {
		rs->at = k;
		snprintf(rs->first, sizeof(rs->first), "%s", why);
	}
	rs->same += !strcmp(why, rs->first);
}

/* 1 when a recording of side S lacked it: its reason into dst */
static int reason_put(const struct reasons *rs, const struct ins *I, int s, char *dst, size_t len)
{
	if (rs->bad)
		side_why(dst, len, I, s, rs->at, rs->first, rs->same == I->n[s]);
	return rs->bad > 0;
}

/* Whether every recording of side S has FIG; the side's reason when not. */
static int side_fig(const struct ins *I, int s, enum fl_figure fig, char *dst, size_t len)
{
	struct reasons rs = { 0 };
	char why[FL_CSN_WHY];

	for (unsigned int k = 0; k < I->n[s]; k++)
		if (!fig_ok(&I->in[s][k], fig, why, sizeof(why)))
			reason_add(&rs, k, why);
	return !reason_put(&rs, I, s, dst, len);
}

/*
 * A row of FIG: value(in, arg) of every recording where FIG is available
 * and value() says it is defined (it sets why otherwise); a side has the
 * figure when every one of its recordings has it.  -1 out of memory.
 */
typedef int (*value_fn)(const struct side_in *in, const void *arg, double *v, char *why,
			size_t len);

static int add_row(struct fl_cmp_snaps *p, const struct ins *I, const char *section,
		   const char *name, const char *unit, enum fl_figure fig, value_fn fn,
		   const void *arg)
{
	struct fl_csn_row *r = row_new(p, section, name, unit);
	char why[FL_CSN_WHY];

	if (!r)
		return -1;
	for (int s = 0; s < 2; s++) {
		double *v = calloc(I->n[s], sizeof(*v));
		struct reasons rs = { 0 };

		if (!v)
			return -1;
		for (unsigned int k = 0; k < I->n[s]; k++) {
			why[0] = '\0';
			if (!fig_ok(&I->in[s][k], fig, why, sizeof(why)) ||
			    fn(&I->in[s][k], arg, &v[k], why, sizeof(why)))
				reason_add(&rs, k, why);
		}
		if (!reason_put(&rs, I, s, r->why[s], sizeof(r->why[s])))
			row_side(r, s, v, I->n[s]);
		free(v);
	}
	row_done(p, r);
	return 0;
}

/* ---- the values ---- */

static int v_cnt(const struct side_in *in, const void *arg, double *v, char *why, size_t len)
{
	(void)why, (void)len;
	*v = (double)in->t.cnt[*(const unsigned int *)arg];
	return 0;
}

static int per_s(const struct side_in *in, double x, double *v, char *why, size_t len)
{
	if (!in->snap.hdr.duration_ns)
		return fl_fail(why, len, "unavailable (the snapshot has no duration)");
	*v = x / (in->snap.hdr.duration_ns / 1e9);
	return 0;
}

static int v_cnt_s(const struct side_in *in, const void *arg, double *v, char *why, size_t len)
{
	return per_s(in, (double)in->t.cnt[*(const unsigned int *)arg], v, why, len);
}

static int v_ll(const struct side_in *in, const void *arg, double *v, char *why, size_t len)
{
	(void)why, (void)len;
	*v = (double)in->t.ll[*(const unsigned int *)arg];
	return 0;
}

static int per_mille(const struct side_in *in, double x, double *v, char *why, size_t len)
{
	double att = (double)in->t.ll[FL_LL_ATTEMPTED];

	if (!(att > 0))
		return fl_fail(why, len, "unavailable (no lockless attempts seen)");
	*v = 1000 * x / att;
	return 0;
}

static int v_ll_pm(const struct side_in *in, const void *arg, double *v, char *why, size_t len)
{
	return per_mille(in, (double)in->t.ll[*(const unsigned int *)arg], v, why, len);
}

static int v_cnt_pm(const struct side_in *in, const void *arg, double *v, char *why, size_t len)
{
	return per_mille(in, (double)in->t.cnt[*(const unsigned int *)arg], v, why, len);
}

/* A histogram figure: arg = { hist id, what }: 0 count, ppm for a quantile, -1 max, -2 mean */
struct hq {
	unsigned int h;
	long what;
};

static int v_hist(const struct side_in *in, const void *arg, double *v, char *why, size_t len)
{
	const struct hq *q = arg;
	const struct fl_hist *h = &in->t.hist[q->h];

	if (!q->what) {
		*v = (double)h->count;
		return 0;
	}
	if (!h->count)
		return fl_fail(why, len, "unavailable (no %s events recorded)", fl_hist_name(q->h));
	if (q->what == -1)
		*v = (double)h->max;
	else if (q->what == -2)
		*v = (double)h->sum / h->count;
	else
		*v = (double)fl_hist_quantile_ppm(h, (fl_u32)q->what);
	return 0;
}

/* A phase or lock-class figure (arg: its fl_cmp_kind) */
static int v_sum(const struct side_in *in, const void *arg, double *v, char *why, size_t len)
{
	return fl_cmp_sum_metric(&in->ss, arg, v, why, len);
}

static enum fl_figure hist_fig(unsigned int h)
{
	switch (h) {
	case FL_H_FAULT_LAT:
		return FL_FIG_LATENCY;
	case FL_H_HMF:
		return FL_FIG_HMF_TIME;
	case FL_H_MMAP_CONTEND:
		return FL_FIG_CONTENTION;
	default:
		return FL_FIG_MMAP;
	}
}

static struct fl_csn_rank *rank_new(struct fl_cmp_snaps *p, unsigned int h)
{
	struct fl_csn_rank *n = realloc(p->rank, (p->nrank + 1) * sizeof(*n)), *k;

	if (!n)
		return NULL;
	p->rank = n;
	k = &p->rank[p->nrank++];
	memset(k, 0, sizeof(*k));
	k->hist = fl_hist_name(h);
	k->t.u = k->t.prob = k->t.z = k->t.p = NAN;
	return k;
}

/* The test of k->h[0] against k->h[1] */
static void rank_run(const struct fl_cmp_snaps *p, struct fl_csn_rank *k)
{
	fl_hist_rank_test(&k->h[0], &k->h[1], &k->t);
	k->significant = k->t.p < p->alpha;
	/* how large the shift is, beside whether there is one */
	for (int s = 0; s < 2; s++) {
		k->p50[s] = (double)fl_hist_quantile_ppm(&k->h[s], 500000);
		k->p99[s] = (double)fl_hist_quantile_ppm(&k->h[s], 990000);
	}
}

static int hist_rows(struct fl_cmp_snaps *p, const struct ins *I, const char *section,
		     unsigned int h)
{
	static const struct {
		const char *sfx, *unit;
		long what;
	} q[] = {
		{ "count", "count", 0 }, { "p50", "ns", 500000 }, { "p90", "ns", 900000 },
		{ "p99", "ns", 990000 }, { "max", "ns", -1 }, { "mean", "ns", -2 },
	};
	struct fl_csn_rank *rk;
	char name[48];

	for (unsigned int i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		struct hq a = { h, q[i].what };

		snprintf(name, sizeof(name), "%s_%s", fl_hist_name(h), q[i].sfx);
		if (add_row(p, I, section, name, q[i].unit, hist_fig(h), v_hist, &a))
			return -1;
	}
	if (!(rk = rank_new(p, h)))
		return -1;
	/* several recordings a side: their events pooled */
	for (int s = 0; s < 2; s++) {
		if (!side_fig(I, s, hist_fig(h), rk->why[s], sizeof(rk->why[s])))
			continue;
		for (unsigned int k = 0; k < I->n[s]; k++)
			fl_hist_merge(&rk->h[s], &I->in[s][k].t.hist[h]);
		if (!rk->h[s].count)
			snprintf(rk->why[s], sizeof(rk->why[s]), "unavailable (no %s events recorded)",
				 fl_hist_name(h));
		else
			rk->have[s] = 1;
	}
	if (rk->have[0] && rk->have[1])
		rank_run(p, rk);
	return 0;
}

/* ---- fault latency per CPU, LLC domain, node ---- */

/* Per-group fault latency of one side, pooled over its recordings. */
struct groups {
	struct fl_hist *h;
	unsigned int n;
	char why[FL_CSN_WHY];
};

static int group_add(struct groups *g, unsigned int id, const struct fl_hist *h)
{
	if (id >= g->n) {
		struct fl_hist *n = realloc(g->h, (id + 1) * sizeof(*n));

		if (!n)
			return -1;
		memset(n + g->n, 0, (id + 1 - g->n) * sizeof(*n));
		g->h = n;
		g->n = id + 1;
	}
	fl_hist_merge(&g->h[id], h);
	return 0;
}

/* 0, 1 when the side has no such grouping (why set), -1 out of memory */
static int side_groups(const struct ins *I, int s, enum fl_by by, struct groups *g)
{
	for (unsigned int k = 0; k < I->n[s]; k++) {
		const struct fl_snapshot *sn = &I->in[s][k].snap;
		struct fl_topology t = { 0 };
		char err[160];

		if (!fig_ok(&I->in[s][k], FL_FIG_LATENCY, err, sizeof(err)))
			return 1;	/* the whole recording's test says why */
		if (by != FL_BY_CPU &&
		    fl_topology_from_tags(fl_snapshot_tag(sn, FL_TAG_TOPOLOGY_LLC),
					  fl_snapshot_tag(sn, FL_TAG_TOPOLOGY_NODE), sn->hdr.nr_cpus, &t,
					  err, sizeof(err))) {
			side_why(g->why, sizeof(g->why), I, s, k, err, 0);
			return 1;
		}
		for (unsigned int c = 0; c < sn->hdr.nr_cpus; c++) {
			int id = by == FL_BY_CPU ? (int)c : fl_topology_group(&t, by, c);

			if (id >= 0 && sn->cpus[c].hist[FL_H_FAULT_LAT].count &&
			    group_add(g, (unsigned int)id, &sn->cpus[c].hist[FL_H_FAULT_LAT])) {
				fl_topology_free(&t);
				return -1;
			}
		}
		if (by != FL_BY_CPU && !g->n)
			snprintf(g->why, sizeof(g->why), "no %s in the topology tags",
				 fl_by_name(by));
		fl_topology_free(&t);
	}
	return 0;
}

static unsigned int groups_with_events(const struct groups *g)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < g->n; i++)
		n += g->h[i].count > 0;
	return n;
}

/*
 * Rank tests of fault latency per CPU, LLC domain and NUMA node: where a
 * change is in the machine.  A group is tested where both sides have
 * events in it; a grouping of one group is the whole recording's test.
 */
static int group_ranks(struct fl_cmp_snaps *p, const struct ins *I)
{
	static const enum fl_by bys[] = { FL_BY_CPU, FL_BY_LLC, FL_BY_NODE };

	for (unsigned int b = 0; b < sizeof(bys) / sizeof(bys[0]); b++) {
		struct groups g[2] = { { 0 } };
		unsigned int one_side = 0;
		int rc[2], err = 0;

		for (int s = 0; s < 2; s++)
			rc[s] = side_groups(I, s, bys[b], &g[s]);
		if (rc[0] < 0 || rc[1] < 0) {
			err = -1;
		} else if (rc[0] || rc[1]) {
			if (g[0].why[0] || g[1].why[0])
				note(p, "fault latency per %s: not compared (%s%s%s%s%s)",
				     fl_by_name(bys[b]), g[0].why[0] ? "A: " : "", g[0].why,
				     g[0].why[0] && g[1].why[0] ? "; " : "",
				     g[1].why[0] ? "B: " : "", g[1].why);
		} else if (groups_with_events(&g[0]) > 1 || groups_with_events(&g[1]) > 1) {
			unsigned int n = g[0].n > g[1].n ? g[0].n : g[1].n;

			for (unsigned int i = 0; i < n && !err; i++) {
				int ha = i < g[0].n && g[0].h[i].count;
				int hb = i < g[1].n && g[1].h[i].count;
				struct fl_csn_rank *k;

				if (ha != hb)
					one_side++;
				if (!ha || !hb)
					continue;
				if (!(k = rank_new(p, FL_H_FAULT_LAT))) {
					err = -1;
					break;
				}
				k->by = fl_by_name(bys[b]);
				k->group = i;
				k->have[0] = k->have[1] = 1;
				k->h[0] = g[0].h[i];
				k->h[1] = g[1].h[i];
				rank_run(p, k);
			}
			if (one_side)
				note(p, "fault latency per %s: %u %s%s with faults on one side only, "
				     "not compared", fl_by_name(bys[b]), one_side, fl_by_name(bys[b]),
				     one_side == 1 ? "" : "s");
		}
		free(g[0].h);
		free(g[1].h);
		if (err)
			return -1;
	}
	return 0;
}

/* ---- the sections ---- */

static int faults(struct fl_cmp_snaps *p, const struct ins *I)
{
	static const struct {
		unsigned int c;
		enum fl_figure fig;
		int rate;
	} f[] = {
		{ FL_C_FAULTS_USER, FL_FIG_FAULTS, 1 },
		{ FL_C_FAULTS_KERNEL, FL_FIG_FAULTS, 1 },
		{ FL_C_FAULTS_ENDED, FL_FIG_LATENCY, 0 },
		{ FL_C_FAULTS_UNHANDLED, FL_FIG_LATENCY, 1 },
		{ FL_C_HMF_CALLS, FL_FIG_HMF, 1 },
	};
	static const unsigned int missed = FL_C_MISSED;
	char name[48];

	for (unsigned int i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (add_row(p, I, "faults", fl_counter_name(f[i].c), "count", f[i].fig, v_cnt,
			    &f[i].c))
			return -1;
		snprintf(name, sizeof(name), "%s_per_s", fl_counter_name(f[i].c));
		if (f[i].rate && add_row(p, I, "faults", name, "1/s", f[i].fig, v_cnt_s, &f[i].c))
			return -1;
	}
	/* what each producer dropped: always counted */
	return add_row(p, I, "faults", fl_counter_name(missed), "count", FL_FIG_NR, v_cnt, &missed);
}

static int lockless(struct fl_cmp_snaps *p, const struct ins *I)
{
	static const unsigned int ll[] = {
		FL_LL_ATTEMPTED, FL_LL_SUCCEEDED, FL_LL_ABORTED, FL_LL_RETRIED,
		FL_LL_NOT_ATTEMPTED, FL_LL_MMAP_RETRY,
	};
	static const unsigned int why[] = {
		FL_C_LLW_WLOCKED, FL_C_LLW_NOVMA, FL_C_LLW_OTHER, FL_C_LLW_ANON,
		FL_C_LLW_RETRY_OTHER, FL_C_LLW_UNREAD,
	};
	char name[48];

	for (unsigned int i = 0; i < sizeof(ll) / sizeof(ll[0]); i++)
		if (add_row(p, I, "lockless", fl_ll_name(ll[i]), "count", FL_FIG_LOCKLESS, v_ll,
			    &ll[i]))
			return -1;
	for (unsigned int i = 1; i < 4; i++) {	/* succeeded, aborted, retried */
		snprintf(name, sizeof(name), "%s_per_mille", fl_ll_name(ll[i]));
		if (add_row(p, I, "lockless", name, "per_mille", FL_FIG_LOCKLESS, v_ll_pm, &ll[i]))
			return -1;
	}
	for (unsigned int i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		if (add_row(p, I, "lockless_reasons", fl_counter_name(why[i]), "count",
			    FL_FIG_LL_WHY, v_cnt, &why[i]))
			return -1;
		snprintf(name, sizeof(name), "%s_per_mille", fl_counter_name(why[i]));
		if (add_row(p, I, "lockless_reasons", name, "per_mille", FL_FIG_LL_WHY, v_cnt_pm,
			    &why[i]))
			return -1;
	}
	return 0;
}

static int mmap_lock(struct fl_cmp_snaps *p, const struct ins *I)
{
	static const unsigned int fail = FL_C_MMAP_TRYLOCK_FAIL, cont = FL_C_MMAP_CONTENDED;

	for (unsigned int h = FL_H_MMAP_WAIT_R; h <= FL_H_MMAP_HOLD_W; h++)
		if (hist_rows(p, I, "mmap_lock", h))
			return -1;
	if (add_row(p, I, "mmap_lock", fl_counter_name(fail), "count", FL_FIG_MMAP, v_cnt, &fail) ||
	    add_row(p, I, "mmap_lock", fl_counter_name(cont), "count", FL_FIG_CONTENTION, v_cnt,
		    &cont))
		return -1;
	return hist_rows(p, I, "mmap_lock", FL_H_MMAP_CONTEND);
}

/* Whether any recording of either side has phases (locks: lock classes). */
static int any_sum(const struct ins *I, int locks, const char **why)
{
	for (int s = 0; s < 2; s++)
		for (unsigned int k = 0; k < I->n[s]; k++)
			if (locks ? I->in[s][k].ss.sum.locks : I->in[s][k].ss.sum.phases)
				return 1;
	for (int s = 0; s < 2; s++)
		why[s] = locks ? I->in[s][0].ss.lk_why : I->in[s][0].ss.ph_why;
	return 0;
}

/* Lock class IDX counted nowhere although every recording could count it. */
static int lock_quiet(const struct ins *I, unsigned int idx)
{
	for (int s = 0; s < 2; s++)
		for (unsigned int k = 0; k < I->n[s]; k++) {
			const struct fl_phases_summary *sm = &I->in[s][k].ss.sum;

			if (!sm->locks || sm->lock_count[idx] || !sm->lock_avail[idx])
				return 0;
		}
	return 1;
}

/* Phases and lock classes (record --phases / --locks), where a side recorded them. */
static int phases_locks(struct fl_cmp_snaps *p, const struct ins *I)
{
	const char *why[2];
	int ph, lk;

	if (!(ph = any_sum(I, 0, why)))
		note(p, "phases: neither recording has them (A: %s; B: %s)", why[0], why[1]);
	if (!(lk = any_sum(I, 1, why)))
		note(p, "lock classes: neither recording has them (A: %s; B: %s)", why[0], why[1]);
	for (unsigned int k = 0; k < fl_cmp_nkinds; k++) {
		const struct fl_cmp_kind *kd = &fl_cmp_kinds[k];

		if ((kd->section == FL_CMP_PHASE && !ph) || (kd->section == FL_CMP_LOCK && !lk) ||
		    !kd->section)
			continue;
		if (kd->section == FL_CMP_LOCK && lock_quiet(I, kd->idx)) {
			note(p, "lock class %s: not contended in either recording",
			     fl_lock_class_name(kd->idx));
			continue;
		}
		if (add_row(p, I, kd->section == FL_CMP_PHASE ? "phases" : "locks", kd->kind,
			    kd->unit, FL_FIG_NR, v_sum, kd))
			return -1;
	}
	return 0;
}

/*
 * The holders' rates as rows too (csv, markdown); text and json print
 * fl_bcmp's own, which has its own test over the recordings: one value a
 * side here (st[s].n = 1).
 */
static int blame_rows(struct fl_cmp_snaps *p)
{
	const struct fl_bcmp *c = &p->c;
	struct fl_csn_row *r;

	if (!(r = row_new(p, "blame", "blame_mmap_lock_wait_per_s", "ns/s")))
		return -1;
	r->higher_is_better = 0;
	for (int s = 0; s < 2; s++) {
		if (c->have[s])
			row_side(r, s, &c->wait_rate[s], 1);
		else
			snprintf(r->why[s], sizeof(r->why[s]), "%s", c->why[s]);
	}
	row_done(p, r);
	for (int k = 0; k < 2; k++) {
		if (!(r = row_new(p, "blame", k ? "blame_fallbacks_free_per_s" : "blame_fallbacks_per_s",
				  "1/s")))
			return -1;
		r->higher_is_better = 0;
		for (int s = 0; s < 2; s++) {
			if (c->have[s] && c->fb_have[s])
				row_side(r, s, k ? &c->fb_free_rate[s] : &c->fb_rate[s], 1);
			else
				snprintf(r->why[s], sizeof(r->why[s]), "%s",
					 c->have[s] ? c->fb_why[s] : c->why[s]);
		}
		row_done(p, r);
	}
	return 0;
}

void fl_cmp_snaps_label(struct fl_cmp_snaps *p, const char *const l[2])
{
	const struct fl_label_cand c[] = {
		{ "kernel", { p->side[0].krel, p->side[1].krel } },
		{ "kernel_build", { p->side[0].build, p->side[1].build } },
		{ "kernel_file", { p->side[0].kfile, p->side[1].kfile } },
	};
	const char *path[2];
	char out[2][FL_LABEL_LEN];

	for (int s = 0; s < 2; s++)
		path[s] = p->dir[s] ? p->dir[s] : p->side[s].file;
	fl_pick_labels(c, sizeof(c) / sizeof(c[0]), l, path, out);
	for (int s = 0; s < 2; s++)
		snprintf(p->side[s].label, sizeof(p->side[s].label), "%s", out[s]);
}

static void side_fill(struct fl_csn_side *sd, const struct fl_snapshot *s)
{
	const char *v;

	memcpy(sd->krel, s->hdr.kernel_release, FL_KREL_LEN);
	sd->krel[FL_KREL_LEN] = '\0';
	v = fl_snapshot_tag(s, FL_TAG_KERNEL_BUILD);
	snprintf(sd->build, sizeof(sd->build), "%s", v ? v : "");
	v = fl_snapshot_tag(s, FL_TAG_KERNEL_FILE);
	snprintf(sd->kfile, sizeof(sd->kfile), "%s", v ? v : "");
	snprintf(sd->backend, sizeof(sd->backend), "%s", fl_backend_name(s->hdr.backend));
	snprintf(sd->tier, sizeof(sd->tier), "%s", fl_tier_name(s->hdr.tier));
	snprintf(sd->ll_kind, sizeof(sd->ll_kind), "%s", fl_ll_kind_name(s->hdr.lockless_kind));
	sd->nr_cpus = s->hdr.nr_cpus;
}

/* Read side S's recordings; notes where they differ among themselves. */
static int read_side(struct fl_cmp_snaps *p, struct ins *I, int s, char *err, size_t errlen)
{
	struct fl_csn_side *sd = &p->side[s];
	double secs = 0;

	for (unsigned int k = 0; k < I->n[s]; k++) {
		struct side_in *in = &I->in[s][k];
		char krel[FL_KREL_LEN + 1], e[400];

		in->file = sd->files[k];
		if (fl_snapshot_read_file(in->file, &in->snap, e, sizeof(e)))
			return fl_fail(err, errlen, "%s", e);
		memcpy(krel, in->snap.hdr.kernel_release, FL_KREL_LEN);
		krel[FL_KREL_LEN] = '\0';
		if (!k)
			side_fill(sd, &in->snap);
		else if (strcmp(krel, sd->krel) || in->snap.hdr.tier != I->in[s][0].snap.hdr.tier)
			note(p, "%c: %s was recorded on %s by %s, %s on %s by %s", 'A' + s, in->file,
			     krel, fl_tier_name(in->snap.hdr.tier), I->in[s][0].file, sd->krel,
			     sd->tier);
		secs += in->snap.hdr.duration_ns / 1e9;
		fl_snapshot_total(&in->snap, &in->t);
		fl_cmp_snapsum_fill(&in->ss, &in->snap);
		if (fl_bcmp_rec_from(&p->rec[s][k], &in->snap))
			return fl_fail(err, errlen, "out of memory");
		if (in->t.cnt[FL_C_MISSED])
			note(p, "%c: %s: %llu events missed: its figures are short by these",
			     'A' + s, in->file, (unsigned long long)in->t.cnt[FL_C_MISSED]);
	}
	sd->secs = secs / I->n[s];
	return 0;
}

int fl_cmp_snaps_build_n(struct fl_cmp_snaps *p, const char *const *files[2],
			 const unsigned int n[2], double alpha, char *err, size_t errlen)
{
	struct ins I = { { NULL, NULL }, { n[0], n[1] } };
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if (!n[0] || !n[1])
		return fl_fail(err, errlen, "no recording for %s", n[0] ? "B" : "A");
	p->alpha = alpha;
	p->multi = n[0] > 1 || n[1] > 1;
	for (int s = 0; s < 2; s++) {
		/* the list is copied, its strings are the caller's */
		p->side[s].files = malloc(n[s] * sizeof(*p->side[s].files));
		p->side[s].n = n[s];
		I.in[s] = calloc(n[s], sizeof(*I.in[s]));
		p->rec[s] = calloc(n[s], sizeof(*p->rec[s]));
		if (!p->side[s].files || !I.in[s] || !p->rec[s]) {
			fl_fail(err, errlen, "out of memory");
			goto out;
		}
	}
	for (int s = 0; s < 2; s++) {
		memcpy(p->side[s].files, files[s], n[s] * sizeof(*files[s]));
		p->side[s].file = p->file[s] = files[s][0];
	}
	for (int s = 0; s < 2; s++) {
		if (read_side(p, &I, s, err, errlen))
			goto out;
		memcpy(p->krel[s], p->side[s].krel, sizeof(p->krel[s]));
		p->secs[s] = p->side[s].secs;
	}
	fl_cmp_snaps_label(p, NULL);
	if (strcmp(p->side[0].tier, p->side[1].tier) || strcmp(p->side[0].backend, p->side[1].backend))
		note(p, "A was recorded by %s/%s, B by %s/%s: a figure one of them cannot see "
		     "is not compared", p->side[0].backend, p->side[0].tier, p->side[1].backend,
		     p->side[1].tier);
	if (fl_bcmp_build(&p->c, (const struct fl_bcmp_rec *const[2]){ p->rec[0], p->rec[1] },
			  n, alpha, ""))
		goto oom;
	if (faults(p, &I) || hist_rows(p, &I, "latency", FL_H_FAULT_LAT) ||
	    group_ranks(p, &I) || hist_rows(p, &I, "latency", FL_H_HMF) || lockless(p, &I) ||
	    mmap_lock(p, &I) || phases_locks(p, &I) || blame_rows(p))
		goto oom;
	rc = 0;
	goto out;
oom:
	fl_fail(err, errlen, "out of memory");
out:
	for (int s = 0; s < 2; s++) {
		for (unsigned int k = 0; I.in[s] && k < n[s]; k++) {
			for (int by = 0; by < 2; by++)
				free(I.in[s][k].ss.grp[by].sum);
			fl_snapshot_free(&I.in[s][k].snap);
		}
		free(I.in[s]);
	}
	if (rc)
		fl_cmp_snaps_free(p);
	return rc;
}

int fl_cmp_snaps_build(struct fl_cmp_snaps *p, const char *a, const char *b, double alpha,
		       char *err, size_t errlen)
{
	static const unsigned int one[2] = { 1, 1 };

	return fl_cmp_snaps_build_n(p, (const char *const *[2]){ &a, &b }, one, alpha, err,
				    errlen);
}

const struct fl_csn_row *fl_cmp_snaps_row(const struct fl_cmp_snaps *p, const char *name)
{
	for (unsigned int i = 0; i < p->nrow; i++)
		if (!strcmp(p->row[i].name, name))
			return &p->row[i];
	return NULL;
}

void fl_cmp_snaps_free(struct fl_cmp_snaps *p)
{
	fl_bcmp_free(&p->c);
	for (int s = 0; s < 2; s++) {
		for (unsigned int k = 0; p->rec[s] && k < p->side[s].n; k++)
			fl_bcmp_rec_free(&p->rec[s][k]);
		free(p->rec[s]);
		free(p->side[s].files);
	}
	free(p->row);
	free(p->rank);
	for (unsigned int i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	memset(p, 0, sizeof(*p));
}
