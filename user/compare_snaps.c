// SPDX-License-Identifier: GPL-2.0
/*
 * compare A.snap B.snap: the model (compare_snaps.h).  Every figure is read
 * through the accessors report reads it through: fl_figure_avail() for
 * whether (and why not), fl_snapshot_total() and fl_hist_quantile_ppm() for
 * the values, fl_cmp_snapsum_fill() / fl_cmp_sum_metric() (compare.c) for
 * phases and lock classes, fl_bcmp_rec_from() for the holders.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_snaps.h"
#include "report_common.h"

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

/* What the builder reads of one side, then lets go of the snapshot. */
struct side_in {
	struct fl_snapshot snap;
	struct fl_cpu_stats t;
	struct fl_cmp_snapsum ss;
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
	r->pct = NAN;
	return r;
}

static void row_done(struct fl_csn_row *r)
{
	if (r->have[0] && r->have[1])
		r->pct = fl_pct_change(r->v[0], r->v[1]);
}

/* Whether FIG is available on side s; its "unavailable (why)" into why when not. */
static int fig_ok(const struct side_in *in, enum fl_figure fig, char *why, size_t len)
{
	const char *w;
	enum fl_avail a = fl_figure_avail(&in->snap, fig, &w);

	if (a == FL_AVAIL_YES)
		return 1;
	fl_fmt_unavail(why, len, a, w);
	return 0;
}

/*
 * A row of FIG per side: value(in, arg) where FIG is available and
 * value() says it is defined (it sets why otherwise).  -1 out of memory.
 */
typedef int (*value_fn)(const struct side_in *in, const void *arg, double *v, char *why,
			size_t len);

static int add_row(struct fl_cmp_snaps *p, const struct side_in in[2], const char *section,
		   const char *name, const char *unit, enum fl_figure fig, value_fn fn,
		   const void *arg)
{
	struct fl_csn_row *r = row_new(p, section, name, unit);

	if (!r)
		return -1;
	for (int s = 0; s < 2; s++)
		if (fig_ok(&in[s], fig, r->why[s], sizeof(r->why[s])))
			r->have[s] = !fn(&in[s], arg, &r->v[s], r->why[s], sizeof(r->why[s]));
	row_done(r);
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
	if (!in->snap.hdr.duration_ns) {
		snprintf(why, len, "unavailable (the snapshot has no duration)");
		return -1;
	}
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

	if (!(att > 0)) {
		snprintf(why, len, "unavailable (no lockless attempts seen)");
		return -1;
	}
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
	if (!h->count) {
		snprintf(why, len, "unavailable (no %s events recorded)", fl_hist_name(q->h));
		return -1;
	}
	if (q->what == -1)
		*v = (double)h->max;
	else if (q->what == -2)
		*v = (double)h->sum / h->count;
	else
		*v = (double)fl_hist_quantile_ppm(h, (fl_u32)q->what);
	return 0;
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

static int hist_rows(struct fl_cmp_snaps *p, const struct side_in in[2], const char *section,
		     unsigned int h)
{
	static const struct {
		const char *sfx, *unit;
		long what;
	} q[] = {
		{ "count", "count", 0 }, { "p50", "ns", 500000 }, { "p90", "ns", 900000 },
		{ "p99", "ns", 990000 }, { "max", "ns", -1 }, { "mean", "ns", -2 },
	};
	struct fl_csn_rank *rk = &p->rank[p->nrank++];
	char name[48];

	for (unsigned int i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		struct hq a = { h, q[i].what };

		snprintf(name, sizeof(name), "%s_%s", fl_hist_name(h), q[i].sfx);
		if (add_row(p, in, section, name, q[i].unit, hist_fig(h), v_hist, &a))
			return -1;
	}
	rk->hist = fl_hist_name(h);
	for (int s = 0; s < 2; s++) {
		if (!fig_ok(&in[s], hist_fig(h), rk->why[s], sizeof(rk->why[s])))
			continue;
		if (!in[s].t.hist[h].count)
			snprintf(rk->why[s], sizeof(rk->why[s]), "unavailable (no %s events recorded)",
				 fl_hist_name(h));
		else
			rk->have[s] = 1;
	}
	if (rk->have[0] && rk->have[1]) {
		fl_hist_rank_test(&in[0].t.hist[h], &in[1].t.hist[h], &rk->t);
		rk->significant = rk->t.p < p->alpha;
	} else {
		rk->t.u = rk->t.prob = rk->t.z = rk->t.p = NAN;
	}
	return 0;
}

/* ---- the sections ---- */

static int faults(struct fl_cmp_snaps *p, const struct side_in in[2])
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
	struct fl_csn_row *r;

	for (unsigned int i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (add_row(p, in, "faults", fl_counter_name(f[i].c), "count", f[i].fig, v_cnt,
			    &f[i].c))
			return -1;
		snprintf(name, sizeof(name), "%s_per_s", fl_counter_name(f[i].c));
		if (f[i].rate && add_row(p, in, "faults", name, "1/s", f[i].fig, v_cnt_s, &f[i].c))
			return -1;
	}
	/* what each producer dropped: always counted */
	r = row_new(p, "faults", fl_counter_name(missed), "count");
	if (!r)
		return -1;
	for (int s = 0; s < 2; s++) {
		r->have[s] = 1;
		r->v[s] = (double)in[s].t.cnt[missed];
	}
	row_done(r);
	return 0;
}

static int lockless(struct fl_cmp_snaps *p, const struct side_in in[2])
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
		if (add_row(p, in, "lockless", fl_ll_name(ll[i]), "count", FL_FIG_LOCKLESS, v_ll,
			    &ll[i]))
			return -1;
	for (unsigned int i = 1; i < 4; i++) {	/* succeeded, aborted, retried */
		snprintf(name, sizeof(name), "%s_per_mille", fl_ll_name(ll[i]));
		if (add_row(p, in, "lockless", name, "per_mille", FL_FIG_LOCKLESS, v_ll_pm, &ll[i]))
			return -1;
	}
	for (unsigned int i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
		if (add_row(p, in, "lockless_reasons", fl_counter_name(why[i]), "count",
			    FL_FIG_LL_WHY, v_cnt, &why[i]))
			return -1;
		snprintf(name, sizeof(name), "%s_per_mille", fl_counter_name(why[i]));
		if (add_row(p, in, "lockless_reasons", name, "per_mille", FL_FIG_LL_WHY, v_cnt_pm,
			    &why[i]))
			return -1;
	}
	return 0;
}

static int mmap_lock(struct fl_cmp_snaps *p, const struct side_in in[2])
{
	static const unsigned int fail = FL_C_MMAP_TRYLOCK_FAIL, cont = FL_C_MMAP_CONTENDED;

	for (unsigned int h = FL_H_MMAP_WAIT_R; h <= FL_H_MMAP_HOLD_W; h++)
		if (hist_rows(p, in, "mmap_lock", h))
			return -1;
	if (add_row(p, in, "mmap_lock", fl_counter_name(fail), "count", FL_FIG_MMAP, v_cnt, &fail) ||
	    add_row(p, in, "mmap_lock", fl_counter_name(cont), "count", FL_FIG_CONTENTION, v_cnt,
		    &cont))
		return -1;
	return hist_rows(p, in, "mmap_lock", FL_H_MMAP_CONTEND);
}

/* Phases and lock classes (record --phases / --locks), where a side recorded them. */
static int phases_locks(struct fl_cmp_snaps *p, const struct side_in in[2])
{
	int ph = in[0].ss.sum.phases || in[1].ss.sum.phases;
	int lk = in[0].ss.sum.locks || in[1].ss.sum.locks;

	if (!ph)
		note(p, "phases: neither recording has them (A: %s; B: %s)", in[0].ss.ph_why,
		     in[1].ss.ph_why);
	if (!lk)
		note(p, "lock classes: neither recording has them (A: %s; B: %s)", in[0].ss.lk_why,
		     in[1].ss.lk_why);
	for (unsigned int k = 0; k < fl_cmp_nkinds; k++) {
		const struct fl_cmp_kind *kd = &fl_cmp_kinds[k];
		struct fl_csn_row *r;

		if ((kd->section == FL_CMP_PHASE && !ph) || (kd->section == FL_CMP_LOCK && !lk) ||
		    !kd->section)
			continue;
		if (kd->section == FL_CMP_LOCK &&
		    in[0].ss.sum.locks && in[1].ss.sum.locks &&
		    !in[0].ss.sum.lock_count[kd->idx] && !in[1].ss.sum.lock_count[kd->idx] &&
		    in[0].ss.sum.lock_avail[kd->idx] && in[1].ss.sum.lock_avail[kd->idx]) {
			note(p, "lock class %s: not contended in either recording",
			     fl_lock_class_name(kd->idx));
			continue;
		}
		r = row_new(p, kd->section == FL_CMP_PHASE ? "phases" : "locks", kd->kind,
			    kd->unit);
		if (!r)
			return -1;
		for (int s = 0; s < 2; s++)
			r->have[s] = !fl_cmp_sum_metric(&in[s].ss, kd, &r->v[s], r->why[s],
							sizeof(r->why[s]));
		row_done(r);
	}
	return 0;
}

/* The holders' rates as rows too (csv, markdown); text and json print fl_bcmp's own. */
static int blame_rows(struct fl_cmp_snaps *p)
{
	const struct fl_bcmp *c = &p->c;
	struct fl_csn_row *r;

	if (!(r = row_new(p, "blame", "blame_mmap_lock_wait_per_s", "ns/s")))
		return -1;
	for (int s = 0; s < 2; s++) {
		r->have[s] = c->have[s];
		r->v[s] = c->wait_rate[s];
		if (!c->have[s])
			snprintf(r->why[s], sizeof(r->why[s]), "%s", c->why[s]);
	}
	row_done(r);
	for (int k = 0; k < 2; k++) {
		if (!(r = row_new(p, "blame", k ? "blame_fallbacks_free_per_s" : "blame_fallbacks_per_s",
				  "1/s")))
			return -1;
		for (int s = 0; s < 2; s++) {
			r->have[s] = c->have[s] && c->fb_have[s];
			r->v[s] = k ? c->fb_free_rate[s] : c->fb_rate[s];
			if (!r->have[s])
				snprintf(r->why[s], sizeof(r->why[s]), "%s",
					 c->have[s] ? c->fb_why[s] : c->why[s]);
		}
		row_done(r);
	}
	return 0;
}

static const char *base(const char *path)
{
	const char *b = strrchr(path, '/');

	return b && b[1] ? b + 1 : path;
}

void fl_cmp_snaps_label(struct fl_cmp_snaps *p, const char *const l[2])
{
	int krel = strcmp(p->side[0].krel, p->side[1].krel) != 0;
	int names = strcmp(base(p->file[0]), base(p->file[1])) != 0;

	for (int s = 0; s < 2; s++) {
		const char *v = l && l[s] ? l[s] : krel ? p->side[s].krel :
				names ? base(p->file[s]) : p->file[s];

		snprintf(p->side[s].label, sizeof(p->side[s].label), "%s", v);
	}
}

static void side_fill(struct fl_csn_side *sd, const char *file, const struct fl_snapshot *s)
{
	sd->file = file;
	memcpy(sd->krel, s->hdr.kernel_release, FL_KREL_LEN);
	sd->krel[FL_KREL_LEN] = '\0';
	snprintf(sd->backend, sizeof(sd->backend), "%s", fl_backend_name(s->hdr.backend));
	snprintf(sd->tier, sizeof(sd->tier), "%s", fl_tier_name(s->hdr.tier));
	snprintf(sd->ll_kind, sizeof(sd->ll_kind), "%s", fl_ll_kind_name(s->hdr.lockless_kind));
	sd->nr_cpus = s->hdr.nr_cpus;
	sd->secs = s->hdr.duration_ns / 1e9;
}

int fl_cmp_snaps_build(struct fl_cmp_snaps *p, const char *a, const char *b, double alpha,
		       char *err, size_t errlen)
{
	struct side_in *in = calloc(2, sizeof(*in));
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if (!in) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->file[0] = a;
	p->file[1] = b;
	p->alpha = alpha;
	for (int s = 0; s < 2; s++) {
		if (fl_snapshot_read_file(p->file[s], &in[s].snap, err, errlen))
			goto out;
		side_fill(&p->side[s], p->file[s], &in[s].snap);
		memcpy(p->krel[s], p->side[s].krel, sizeof(p->krel[s]));
		p->secs[s] = p->side[s].secs;
		fl_snapshot_total(&in[s].snap, &in[s].t);
		fl_cmp_snapsum_fill(&in[s].ss, &in[s].snap);
		if (fl_bcmp_rec_from(&p->rec[s], &in[s].snap))
			goto oom;
	}
	fl_cmp_snaps_label(p, NULL);
	if (strcmp(p->side[0].tier, p->side[1].tier) || strcmp(p->side[0].backend, p->side[1].backend))
		note(p, "A was recorded by %s/%s, B by %s/%s: a figure one of them cannot see "
		     "is not compared", p->side[0].backend, p->side[0].tier, p->side[1].backend,
		     p->side[1].tier);
	for (int s = 0; s < 2; s++)
		if (in[s].t.cnt[FL_C_MISSED])
			note(p, "%c: %llu events missed: its figures are short by these", 'A' + s,
			     (unsigned long long)in[s].t.cnt[FL_C_MISSED]);
	if (fl_bcmp_build(&p->c, (const struct fl_bcmp_rec *const[2]){ &p->rec[0], &p->rec[1] },
			  (const unsigned int[2]){ 1, 1 }, alpha, ""))
		goto oom;
	if (faults(p, in) || hist_rows(p, in, "latency", FL_H_FAULT_LAT) ||
	    hist_rows(p, in, "latency", FL_H_HMF) || lockless(p, in) || mmap_lock(p, in) ||
	    phases_locks(p, in) || blame_rows(p))
		goto oom;
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
	for (int s = 0; s < 2; s++) {
		for (int by = 0; by < 2; by++)
			free(in[s].ss.grp[by].sum);
		fl_snapshot_free(&in[s].snap);
	}
	free(in);
	if (rc)
		fl_cmp_snaps_free(p);
	return rc;
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
	fl_bcmp_rec_free(&p->rec[0]);
	fl_bcmp_rec_free(&p->rec[1]);
	free(p->row);
	for (unsigned int i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	memset(p, 0, sizeof(*p));
}
