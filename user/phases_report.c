// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the phase / lock-class sections of a snapshot, and the
 * `report --phases` / `--locks` tables.  API: user/phases.h.
 */
#include <stdio.h>
#include <string.h>

#include "errbuf.h"
#include "phases.h"


static const char *const lock_names[FL_LK_NR] = {
	[FL_LK_MMAP_R] = "mmap_r",
	[FL_LK_MMAP_W] = "mmap_w",
	[FL_LK_VMA] = "vma",
	[FL_LK_PTL] = "ptl",
	[FL_LK_ZONE] = "zone",
	[FL_LK_LRU] = "lru",
	[FL_LK_MEMCG] = "memcg",
	[FL_LK_OTHER] = "other",
};

const char *fl_lock_class_name(unsigned int cls)
{
	return cls < FL_LK_NR ? lock_names[cls] : "?";
}

static const void *find_section(const struct fl_snapshot *s, unsigned int type, size_t elem,
				unsigned int *nr)
{
	return fl_snapshot_find_section(s, type, elem, nr);
}

const struct fl_phase_stats *fl_snapshot_phases(const struct fl_snapshot *s, unsigned int *nr)
{
	return find_section(s, FL_SEC_PHASES, sizeof(struct fl_phase_stats), nr);
}

const struct fl_lock_stats *fl_snapshot_locks(const struct fl_snapshot *s, unsigned int *nr)
{
	return find_section(s, FL_SEC_LOCKS, sizeof(struct fl_lock_stats), nr);
}

const struct fl_lock_caller *fl_snapshot_lock_callers(const struct fl_snapshot *s,
						      unsigned int *nr)
{
	return find_section(s, FL_SEC_LOCK_CALLERS, sizeof(struct fl_lock_caller), nr);
}

void fl_phase_stats_sum(const struct fl_phase_stats *in, unsigned int nr,
			const int *group, int g, struct fl_phase_stats *out)
{
	unsigned int c;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < nr; c++)
		if (!group || group[c] == g)
			fl_phase_stats_add(out, &in[c]);
}

void fl_lock_stats_sum(const struct fl_lock_stats *in, unsigned int nr,
		       const int *group, int g, struct fl_lock_stats *out)
{
	unsigned int c;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < nr; c++)
		if (!group || group[c] == g)
			fl_lock_stats_add(out, &in[c]);
}

unsigned int fl_lock_dominant(const struct fl_lock_stats *t)
{
	unsigned int k, best = FL_LK_NR;

	for (k = 0; k < FL_LK_NR; k++)
		if (t->wait[k].count && (best == FL_LK_NR || t->wait[k].sum > t->wait[best].sum))
			best = k;
	return best;
}

/*
 * Does tag value U ("NAME (why)[; NAME (why)]...": phases.unavailable,
 * locks.unavailable) list NAME?  Its "unavailable (why)" into WHY if asked.
 */
static bool tag_lists(const char *u, const char *name, char *why, size_t len)
{
	size_t n = strlen(name);
	const char *q, *e;

	for (q = u; q && (q = strstr(q, name)); q += n) {
		if ((q != u && !(q - u >= 2 && q[-2] == ';')) || q[n] != ' ')
			continue;
		if (why) {
			q += n + 1;
			e = strchr(q, ';');
			snprintf(why, len, "unavailable %.*s", (int)(e ? e - q : (long)strlen(q)), q);
		}
		return true;
	}
	return false;
}

/* The phase names the snapshot's tags list as unavailable. */
static void unavailable_phases(const struct fl_snapshot *s, int out[FL_PH_NR])
{
	const char *u = fl_snapshot_tag(s, FL_TAG_PHASES_UNAVAILABLE);

	for (unsigned int p = 0; p < FL_PH_NR; p++)
		out[p] = tag_lists(u, fl_phase_name(p), NULL, 0);
}

bool fl_lock_class_avail(const struct fl_snapshot *s, unsigned int cls, char *why, size_t len)
{
	if (why && len)
		why[0] = '\0';
	return !tag_lists(fl_snapshot_tag(s, FL_TAG_LOCKS_UNAVAILABLE), fl_lock_class_name(cls), why, len);
}

static double pct(fl_u64 part, fl_u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void row_label(char *buf, size_t len, const struct fl_phases_report_opts *o, int g)
{
	if (g < 0)
		snprintf(buf, len, "total");
	else if (o && o->group)
		snprintf(buf, len, "%s%d", o->group_label ? o->group_label : "group", g);
	else
		snprintf(buf, len, "cpu%d", g);
}

static void phase_row(FILE *out, const char *label, const struct fl_phase_stats *t,
		      const int unavail[FL_PH_NR])
{
	unsigned int p;

	fprintf(out, "%-8s %9llu %9llu", label, t->faults, t->faults ? t->lat_sum / t->faults : 0);
	for (p = 0; p < FL_PH_NR; p++) {
		if (unavail[p])
			fprintf(out, " %9s", "n/a");
		else
			fprintf(out, " %9llu", t->faults ? t->hist[p].sum / t->faults : 0);
	}
	fprintf(out, " %9llu %7llu\n", t->faults ? t->unattributed_sum / t->faults : 0,
		t->overrun);
}

int fl_report_phases(const struct fl_snapshot *s, FILE *out,
		     const struct fl_phases_report_opts *o)
{
	const struct fl_phase_stats *ps;
	struct fl_phase_stats t;
	const char *tag = fl_snapshot_tag(s, FL_TAG_PHASES);
	char label[32], tier[256];
	int unavail[FL_PH_NR];
	unsigned int nr, p;
	int g, ngroups;

	snprintf(tier, sizeof(tier), "%s", tag ? tag : "");
	ps = fl_snapshot_phases(s, &nr);
	if (!ps) {
		fprintf(out, "phases: %s\n", tag ? tier : "unavailable (not recorded; use record --phases)");
		return ferror(out) ? -1 : 0;
	}
	unavailable_phases(s, unavail);
	fprintf(out, "phases: %s; mean ns per fault (a phase's mean counts every fault)\n",
		tag ? tier : "recorded");
	tag = fl_snapshot_tag(s, FL_TAG_PHASES_UNAVAILABLE);
	if (tag)
		fprintf(out, "unavailable: %s\n", tag);
	tag = fl_snapshot_tag(s, FL_TAG_PHASES_NOTES);
	if (tag)
		fprintf(out, "notes: %s\n", tag);
	fprintf(out, "%-8s %9s %9s", "", "faults", "latency");
	for (p = 0; p < FL_PH_NR; p++)
		fprintf(out, " %9s", fl_phase_name(p));
	fprintf(out, " %9s %7s\n", "unattrib", "overrun");
	ngroups = o && o->group ? (int)o->nr_groups : (int)nr;
	for (g = 0; g < ngroups; g++) {
		if (o && o->group)
			fl_phase_stats_sum(ps, nr < o->group_len ? nr : o->group_len, o->group, g, &t);
		else
			t = ps[g];
		if (!t.faults)
			continue;
		row_label(label, sizeof(label), o, g);
		phase_row(out, label, &t, unavail);
	}
	fl_phase_stats_sum(ps, nr, NULL, 0, &t);
	phase_row(out, "total", &t, unavail);

	fprintf(out, "\n%-10s %9s %8s %9s %9s %9s\n", "phase", "faults", "share", "p50", "p99",
		"max");
	for (p = 0; p < FL_PH_NR; p++) {
		const struct fl_hist *h = &t.hist[p];

		if (unavail[p]) {
			fprintf(out, "%-10s unavailable\n", fl_phase_name(p));
			continue;
		}
		fprintf(out, "%-10s %9llu %7.1f%% %9llu %9llu %9llu\n", fl_phase_name(p), h->count,
			pct(h->sum, t.lat_sum), fl_hist_quantile_ppm(h, 500000),
			fl_hist_quantile_ppm(h, 990000), h->count ? h->max : 0);
	}
	fprintf(out, "%-10s %9llu %7.1f%%\n", "unattrib", t.faults,
		pct(t.unattributed_sum, t.lat_sum));
	fprintf(out, "unattributed share: %.1f%% of %llu ns total fault latency; overrun: %llu faults\n",
		pct(t.unattributed_sum, t.lat_sum), t.lat_sum, t.overrun);
	tag = fl_snapshot_tag(s, FL_TAG_PHASES_EVENTS);
	if (tag)
		fprintf(out, "events: %s\n", tag);
	return ferror(out) ? -1 : 0;
}

static void lock_row(FILE *out, const char *label, const struct fl_lock_stats *t)
{
	unsigned int k;

	char cell[48];

	fprintf(out, "%-8s", label);
	for (k = 0; k < FL_LK_NR; k++) {
		snprintf(cell, sizeof(cell), "%llu/%llu", t->count[k], t->wait[k].sum / 1000);
		fprintf(out, " %17s", cell);
	}
	fputc('\n', out);
}

int fl_report_locks(const struct fl_snapshot *s, FILE *out,
		    const struct fl_phases_report_opts *o)
{
	const struct fl_lock_stats *ls;
	const struct fl_lock_caller *lc;
	struct fl_lock_stats t;
	const char *tag = fl_snapshot_tag(s, FL_TAG_LOCKS);
	char label[32], buf[256];
	unsigned int nr, nc, k, dom;
	fl_u64 total = 0;
	int g, ngroups;

	snprintf(buf, sizeof(buf), "%s", tag ? tag : "");
	ls = fl_snapshot_locks(s, &nr);
	if (!ls) {
		fprintf(out, "locks: %s\n", tag ? buf : "unavailable (not recorded; use record --locks)");
		return ferror(out) ? -1 : 0;
	}
	tag = fl_snapshot_tag(s, FL_TAG_LOCKS_NAMING);
	fprintf(out, "locks: contended waits per class, count/total us%s%s\n",
		tag ? "; named by " : "", tag ? tag : "");
	fprintf(out, "%-8s", "");
	for (k = 0; k < FL_LK_NR; k++)
		fprintf(out, " %17s", lock_names[k]);
	fputc('\n', out);
	ngroups = o && o->group ? (int)o->nr_groups : (int)nr;
	for (g = 0; g < ngroups; g++) {
		fl_u64 any = 0;

		if (o && o->group)
			fl_lock_stats_sum(ls, nr < o->group_len ? nr : o->group_len, o->group, g, &t);
		else
			t = ls[g];
		for (k = 0; k < FL_LK_NR; k++)
			any += t.count[k];
		if (!any)
			continue;
		row_label(label, sizeof(label), o, g);
		lock_row(out, label, &t);
	}
	fl_lock_stats_sum(ls, nr, NULL, 0, &t);
	lock_row(out, "total", &t);
	for (k = 0; k < FL_LK_NR; k++)
		total += t.wait[k].sum;

	fprintf(out, "\n%-8s %9s %12s %8s %9s %9s %9s\n", "class", "count", "wait_ns", "share",
		"mean", "p99", "max");
	for (k = 0; k < FL_LK_NR; k++) {
		const struct fl_hist *h = &t.wait[k];

		if (!fl_lock_class_avail(s, k, buf, sizeof(buf))) {
			fprintf(out, "%-8s %s\n", lock_names[k], buf);
			continue;
		}
		fprintf(out, "%-8s %9llu %12llu %7.1f%% %9llu %9llu %9llu\n", lock_names[k],
			t.count[k], h->sum, pct(h->sum, total), h->count ? h->sum / h->count : 0,
			fl_hist_quantile_ppm(h, 990000), h->count ? h->max : 0);
	}
	dom = fl_lock_dominant(&t);
	if (dom < FL_LK_NR)
		fprintf(out, "dominant: %s (%.1f%% of contended wait)\n", lock_names[dom],
			pct(t.wait[dom].sum, total));
	else
		fprintf(out, "dominant: none (no contention seen)\n");
	tag = fl_snapshot_tag(s, FL_TAG_LOCKS_CAVEAT);
	if (tag)
		fprintf(out, "note: %s\n", tag);
	lc = fl_snapshot_lock_callers(s, &nc);
	if (lc && nc) {
		const char *all = fl_snapshot_tag(s, FL_TAG_LOCKS_CALLERS);

		fprintf(out, "\ntop %s callers\n%-*s %9s %12s\n",
			all && !strcmp(all, "all") ? "contending (every class)" : "\"other\"",
			FL_SYM_LEN, "caller", "count", "wait_ns");
		for (k = 0; k < nc; k++)
			fprintf(out, "%-*.*s %9llu %12llu\n", FL_SYM_LEN, FL_SYM_LEN, lc[k].sym,
				lc[k].count, lc[k].wait_ns);
	}
	return ferror(out) ? -1 : 0;
}

void fl_phases_summarize(const struct fl_snapshot *s, const int *group, int g,
			 struct fl_phases_summary *out)
{
	const struct fl_phase_stats *ps;
	const struct fl_lock_stats *ls;
	struct fl_phase_stats t;
	struct fl_lock_stats lt;
	int unavail[FL_PH_NR];
	unsigned int nr, p, k;

	memset(out, 0, sizeof(*out));
	ps = fl_snapshot_phases(s, &nr);
	if (ps) {
		unavailable_phases(s, unavail);
		fl_phase_stats_sum(ps, nr, group, g, &t);
		out->phases = true;
		out->faults = t.faults;
		out->overrun = t.overrun;
		if (t.faults) {
			out->lat_mean = (double)t.lat_sum / t.faults;
			out->unattributed_mean = (double)t.unattributed_sum / t.faults;
		}
		for (p = 0; p < FL_PH_NR; p++) {
			out->phase_avail[p] = !unavail[p];
			if (t.faults && !unavail[p])
				out->phase_mean[p] = (double)t.hist[p].sum / t.faults;
		}
	}
	ls = fl_snapshot_locks(s, &nr);
	if (ls) {
		fl_lock_stats_sum(ls, nr, group, g, &lt);
		out->locks = true;
		for (k = 0; k < FL_LK_NR; k++) {
			out->lock_avail[k] = fl_lock_class_avail(s, k, NULL, 0);
			out->lock_count[k] = lt.count[k];
			out->lock_wait_ns[k] = lt.wait[k].sum;
			out->lock_wait_total_ns += lt.wait[k].sum;
		}
	}
}

int fl_phases_explain(const struct fl_phases_summary *a, const struct fl_phases_summary *b,
		      const char *where, char *buf, size_t len)
{
	double dlat, d, best_d = 0;
	int best = -1;
	unsigned int p, k, dom = FL_LK_NR;
	size_t off = 0;

	if (!len)
		return -1;
	buf[0] = 0;
	if (!a->phases || !b->phases || !a->faults || !b->faults)
		return fl_fail(buf, len, "phases: not recorded in %s",
			       !a->phases || !a->faults ? "A" : "B");
	dlat = b->lat_mean - a->lat_mean;
	for (p = 0; p <= FL_PH_NR; p++) {
		if (p < FL_PH_NR && !(a->phase_avail[p] && b->phase_avail[p]))
			continue;
		d = p < FL_PH_NR ? b->phase_mean[p] - a->phase_mean[p]
				 : b->unattributed_mean - a->unattributed_mean;
		if (best < 0 || (dlat >= 0 ? d > best_d : d < best_d)) {
			best = (int)p;
			best_d = d;
		}
	}
	if (dlat > 0 && best_d > 0)
		off = snprintf(buf, len, "%.0f%% of the added latency in B (%+.0f ns per fault)%s%s is %s",
			       100.0 * best_d / dlat, dlat, where ? " " : "", where ? where : "",
			       best < FL_PH_NR ? fl_phase_name(best) : "unattributed");
	else
		off = snprintf(buf, len, "B is not slower%s%s (%+.0f ns per fault); the largest change is %s (%+.0f ns)",
			       where ? " " : "", where ? where : "", dlat,
			       best < FL_PH_NR ? fl_phase_name(best) : "unattributed", best_d);
	if (b->locks && b->lock_wait_total_ns && off < len) {
		for (k = 0; k < FL_LK_NR; k++)
			if (dom == FL_LK_NR || b->lock_wait_ns[k] > b->lock_wait_ns[dom])
				dom = k;
		off += snprintf(buf + off, len - off, "; lock wait in B is mostly %s (%.0f%%",
				fl_lock_class_name(dom),
				100.0 * b->lock_wait_ns[dom] / b->lock_wait_total_ns);
		if (off >= len)
			return best;
		if (!a->locks)
			snprintf(buf + off, len - off, ", locks not recorded in A)");
		else if (!a->lock_wait_total_ns)
			snprintf(buf + off, len - off, ", no contention in A)");
		else
			snprintf(buf + off, len - off, ", was %.0f%% in A)",
				 100.0 * a->lock_wait_ns[dom] / a->lock_wait_total_ns);
	}
	return best;
}

void fl_phase_unavail_why(const struct fl_snapshot *s, unsigned int p, char *buf, size_t len)
{
	if (!tag_lists(fl_snapshot_tag(s, FL_TAG_PHASES_UNAVAILABLE), fl_phase_name(p), buf, len))
		snprintf(buf, len, "unavailable");
}

/* report --raw's phase lines. */
static void raw_phases(const struct fl_snapshot *s, FILE *out)
{
	static const struct { const char *k; unsigned int ppm; } q[] = {
		{ "p50", 500000 }, { "p99", 990000 },
	};
	const struct fl_phase_stats *ps;
	struct fl_phase_stats t;
	int unavail[FL_PH_NR];
	const char *tag;
	unsigned int nr, p, k;
	char buf[1024];

	tag = fl_snapshot_tag(s, FL_TAG_PHASES);
	snprintf(buf, sizeof(buf), "%s", tag ? tag : "");
	ps = fl_snapshot_phases(s, &nr);
	if (!ps) {
		fprintf(out, "phases=%s\n", tag ? buf :
			"unavailable (not recorded; use record --phases)");
		return;
	}
	fprintf(out, "phases=%s\n", tag ? buf : "recorded");
	tag = fl_snapshot_tag(s, FL_TAG_PHASES_UNAVAILABLE);
	if (tag)
		fprintf(out, "phases.unavailable=%s\n", tag);
	tag = fl_snapshot_tag(s, FL_TAG_PHASES_NOTES);
	if (tag)
		fprintf(out, "phases.notes=%s\n", tag);
	tag = fl_snapshot_tag(s, FL_TAG_PHASES_EVENTS);
	if (tag)
		fprintf(out, "phases.events=%s\n", tag);
	unavailable_phases(s, unavail);
	fl_phase_stats_sum(ps, nr, NULL, 0, &t);
	fprintf(out, "phases.faults=%llu\nphases.lat_sum_ns=%llu\n"
		"phases.unattributed_sum_ns=%llu\nphases.overrun=%llu\n",
		t.faults, t.lat_sum, t.unattributed_sum, t.overrun);
	if (t.lat_sum)
		fprintf(out, "phases.unattributed_pct=%.1f\n",
			pct(t.unattributed_sum, t.lat_sum));
	else
		fprintf(out, "phases.unattributed_pct=unavailable (no timed faults)\n");
	for (p = 0; p < FL_PH_NR; p++) {
		const struct fl_hist *h = &t.hist[p];
		const char *n = fl_phase_name(p);

		if (unavail[p]) {
			fl_phase_unavail_why(s, p, buf, sizeof(buf));
			fprintf(out, "phase.%s=%s\n", n, buf);
			continue;
		}
		fprintf(out, "phase.%s.count=%llu\nphase.%s.sum_ns=%llu\n", n, h->count,
			n, h->sum);
		if (t.faults)
			fprintf(out, "phase.%s.mean_ns=%.1f\nphase.%s.share_pct=%.1f\n", n,
				(double)h->sum / t.faults, n, pct(h->sum, t.lat_sum));
		if (!h->count)
			continue;
		for (k = 0; k < 2; k++)
			fprintf(out, "phase.%s.%s_ns=%llu\n", n, q[k].k,
				fl_hist_quantile_ppm(h, q[k].ppm));
		fprintf(out, "phase.%s.max_ns=%llu\n", n, h->max);
	}
}

/* report --raw's lock-class lines. */
static void raw_locks(const struct fl_snapshot *s, FILE *out)
{
	const struct fl_lock_stats *ls;
	const struct fl_lock_caller *lc;
	struct fl_lock_stats lt;
	const char *tag;
	unsigned int nr, nc, k, dom;
	fl_u64 total = 0;
	char buf[1024];

	tag = fl_snapshot_tag(s, FL_TAG_LOCKS);
	snprintf(buf, sizeof(buf), "%s", tag ? tag : "");
	ls = fl_snapshot_locks(s, &nr);
	if (!ls) {
		fprintf(out, "locks=%s\n", tag ? buf :
			"unavailable (not recorded; use record --locks)");
		return;
	}
	fprintf(out, "locks=%s\n", tag ? buf : "recorded");
	tag = fl_snapshot_tag(s, FL_TAG_LOCKS_NAMING);
	if (tag)
		fprintf(out, "locks.naming=%s\n", tag);
	tag = fl_snapshot_tag(s, FL_TAG_LOCKS_CAVEAT);
	if (tag)
		fprintf(out, "locks.caveat=%s\n", tag);
	fl_lock_stats_sum(ls, nr, NULL, 0, &lt);
	for (k = 0; k < FL_LK_NR; k++)
		total += lt.wait[k].sum;
	for (k = 0; k < FL_LK_NR; k++) {
		const char *n = lock_names[k];

		if (!fl_lock_class_avail(s, k, buf, sizeof(buf))) {
			fprintf(out, "lock.%s.count=%s\nlock.%s.wait_ns=%s\n", n, buf, n, buf);
			continue;
		}
		fprintf(out, "lock.%s.count=%llu\nlock.%s.wait_ns=%llu\n", n, lt.count[k], n,
			lt.wait[k].sum);
		if (total)
			fprintf(out, "lock.%s.share_pct=%.1f\n", n, pct(lt.wait[k].sum, total));
		if (lt.wait[k].count)
			fprintf(out, "lock.%s.p99_ns=%llu\nlock.%s.max_ns=%llu\n", n,
				fl_hist_quantile_ppm(&lt.wait[k], 990000), n, lt.wait[k].max);
	}
	fprintf(out, "locks.wait_ns=%llu\n", total);
	dom = fl_lock_dominant(&lt);
	if (dom < FL_LK_NR)
		fprintf(out, "locks.dominant=%s\nlocks.dominant_pct=%.1f\n", lock_names[dom],
			pct(lt.wait[dom].sum, total));
	else
		fprintf(out, "locks.dominant=none (no contention seen)\n");
	lc = fl_snapshot_lock_callers(s, &nc);
	tag = fl_snapshot_tag(s, FL_TAG_LOCKS_CALLERS);
	fprintf(out, "locks.callers=%s\nlocks.callers.count=%u\n",
		tag && !strcmp(tag, "all") ? "all" : "other", lc ? nc : 0);
	for (k = 0; lc && k < nc; k++)
		fprintf(out, "locks.caller.%u=%.*s %llu %llu\n", k, FL_SYM_LEN, lc[k].sym,
			lc[k].count, lc[k].wait_ns);
}

int fl_report_phases_raw(const struct fl_snapshot *s, FILE *out)
{
	raw_phases(s, out);
	raw_locks(s, out);
	return ferror(out) ? -1 : 0;
}
