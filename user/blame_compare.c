// SPDX-License-Identifier: GPL-2.0
/*
 * compare's holder rows and EXPLAIN clause (user/blame_compare.h,
 * Documentation/compare.rst: BLAME).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blame_compare.h"
#include "export_out.h"
#include "report_common.h"

int fl_bcmp_rec_from(struct fl_bcmp_rec *r, const struct fl_snapshot *s)
{
	const struct fl_blame_total *t = fl_snapshot_blame_total(s);
	const struct fl_blame_row *rows;
	unsigned int nr = 0;
	const char *tag = fl_snapshot_tag(s, FL_TAG_BLAME);

	memset(r, 0, sizeof(*r));
	r->secs = s->hdr.duration_ns / 1e9;
	rows = fl_snapshot_blame(s, &nr);
	if (!t || !rows) {
		snprintf(r->why, sizeof(r->why), "%s", tag ? tag : "recorded without --blame");
		return 0;
	}
	if (!(r->secs > 0)) {
		snprintf(r->why, sizeof(r->why), "no recording window (duration 0)");
		return 0;
	}
	r->t = *t;
	if (nr) {
		r->rows = malloc((size_t)nr * sizeof(*rows));
		if (!r->rows)
			return -1;
		memcpy(r->rows, rows, (size_t)nr * sizeof(*rows));
	}
	r->nrows = nr;
	r->have = 1;
	tag = fl_blame_fb_unavail(s);
	r->fb = !tag;
	if (tag)
		snprintf(r->fb_why, sizeof(r->fb_why), "%s", tag);
	return 0;
}

void fl_bcmp_rec_free(struct fl_bcmp_rec *r)
{
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

void fl_bcmp_fmt_rate(char *buf, size_t len, double v, int sign)
{
	char n[32];

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	fl_fmt_ns(n, sizeof(n), (unsigned long long)llround(fmin(fabs(v), 1.8e19)));
	snprintf(buf, len, "%s%s/s", sign ? (v < 0 ? "-" : "+") : "", n);
}

/* The site's identity from a row: what it is, whose, its innermost frames. */
static void site_key(struct fl_bcmp_site *k, const struct fl_blame_row *r)
{
	memset(k, 0, sizeof(*k));
	fl_blame_what(r, k->what, sizeof(k->what));
	fl_blame_comm(r, k->comm);
	for (unsigned int i = 0; i < r->nframes && i < FL_BLAME_FRAMES &&
				 k->nframes < FL_BLAME_CMP_FRAMES; i++)
		fl_blame_frame(r, i, k->frames[k->nframes++]);
}

static int same_key(const struct fl_bcmp_site *a, const struct fl_bcmp_site *b)
{
	if (a->unknown != b->unknown || a->nframes != b->nframes || strcmp(a->what, b->what) ||
	    strcmp(a->comm, b->comm))
		return 0;
	for (unsigned int i = 0; i < a->nframes; i++)
		if (strcmp(a->frames[i], b->frames[i]))
			return 0;
	return 1;
}

/* The site matching k, added when new; NULL out of memory. */
static struct fl_bcmp_site *site_of(struct fl_bcmp *c, const struct fl_bcmp_site *k)
{
	struct fl_bcmp_site *n;

	for (unsigned int i = 0; i < c->nsite; i++)
		if (same_key(&c->site[i], k))
			return &c->site[i];
	n = realloc(c->site, (c->nsite + 1) * sizeof(*n));
	if (!n)
		return NULL;
	c->site = n;
	n[c->nsite] = *k;
	return &n[c->nsite++];
}

static void fig_add(struct fl_bcmp_fig *v, const struct fl_blame_row *r)
{
	v->waits += r->wait.count;
	v->wait_ns += r->wait.sum;
	v->holds += r->hold.count;
	v->hold_ns += r->hold.sum;
	v->sleep_ns += r->ns[BL_ST_SLEEP];
	v->reclaim_ns += r->reclaim_ns;
	v->fallbacks += r->fallbacks;
}

/* The side's fallbacks: compared only when all nfb of its recordings counted them. */
static void fb_side(struct fl_bcmp *c, int s, unsigned int nfb, const char *why)
{
	c->fb_have[s] = c->have[s] && nfb == c->nrec[s];
	if (c->fb_have[s] || !c->have[s])
		return;
	if (nfb)
		snprintf(c->fb_why[s], sizeof(c->fb_why[s]), "%u of %u recordings: %s",
			 c->nrec[s] - nfb, c->nrec[s], why);
	else
		snprintf(c->fb_why[s], sizeof(c->fb_why[s]), "%s", why);
}

/* One side's recordings into the sites and totals; its per-run rates in *rates. */
static int add_side(struct fl_bcmp *c, int s, const struct fl_bcmp_rec *rec, unsigned int n,
		    double *rates)
{
	struct fl_bcmp_site k;
	const char *fb_why = "";
	unsigned int nfb = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct fl_bcmp_rec *r = &rec[i];
		unsigned long long rows_ns = 0, rows_waits = 0;
		struct fl_bcmp_site *st;

		if (!r->have) {
			c->nskip[s]++;
			if (!c->why[s][0])
				snprintf(c->why[s], sizeof(c->why[s]), "%s", r->why);
			continue;
		}
		rates[c->nrec[s]++] = r->t.wait_all.sum / r->secs;
		c->secs[s] += r->secs;
		c->waits[s] += r->t.wait_all.count;
		c->wait_ns[s] += r->t.wait_all.sum;
		if (r->fb) {
			nfb++;
			c->fb[s] += r->t.fallbacks;
			c->fb_free[s] += r->t.fallbacks_free;
		} else if (!fb_why[0]) {
			fb_why = r->fb_why;
		}
		for (unsigned int j = 0; j < r->nrows; j++) {
			site_key(&k, &r->rows[j]);
			st = site_of(c, &k);
			if (!st)
				return -1;
			st->in[s] = 1;
			fig_add(&st->v[s], &r->rows[j]);
			rows_ns += r->rows[j].wait.sum;
			rows_waits += r->rows[j].wait.count;
		}
		/* what no row carries: behind no known writer, or a site past the top rows */
		if (r->t.wait_all.sum > rows_ns) {
			memset(&k, 0, sizeof(k));
			k.unknown = 1;
			snprintf(k.what, sizeof(k.what), "no known writer");
			st = site_of(c, &k);
			if (!st)
				return -1;
			st->in[s] = 1;
			st->v[s].wait_ns += r->t.wait_all.sum - rows_ns;
			st->v[s].waits += r->t.wait_all.count > rows_waits ?
					  r->t.wait_all.count - rows_waits : 0;
		}
	}
	c->have[s] = c->nrec[s] > 0;
	fb_side(c, s, nfb, fb_why);
	return 0;
}

static int by_change(const void *a, const void *b)
{
	const struct fl_bcmp_site *x = a, *y = b;

	if (fabs(x->d_wait) != fabs(y->d_wait))
		return fabs(x->d_wait) < fabs(y->d_wait) ? 1 : -1;
	return x->wait_rate[1] < y->wait_rate[1] ? 1 : x->wait_rate[1] > y->wait_rate[1] ? -1 : 0;
}

/* "madvise() (pft-writer)", "... only in B" */
static void site_name(const struct fl_bcmp_site *x, char *buf, size_t len)
{
	if (x->unknown)
		snprintf(buf, len, "no known writer (or a site past the recorded top %u)",
			 FL_BLAME_TOP_ROWS);
	else
		snprintf(buf, len, "%s (%s%s)", x->what, x->comm[0] ? x->comm : "?",
			 x->in[0] && x->in[1] ? "" : x->in[1] ? ", only in B" : ", only in A");
}

static void explain(struct fl_bcmp *c, double alpha, const double *ra, const double *rb)
{
	char a[40], b[40], d[40], nm[160], pre[80];
	double dir, gross = 0, other = 0;
	size_t o;
	int best = -1, moved = 0;

	snprintf(pre, sizeof(pre), "%s%s", c->where, c->where[0] ? ", " : "");
	if (!c->have[0] || !c->have[1]) {
		o = snprintf(c->explain, sizeof(c->explain), "%scannot compare the holders:", pre);
		for (int s = 0; s < 2 && o < sizeof(c->explain); s++)
			if (!c->have[s])
				o += snprintf(c->explain + o, sizeof(c->explain) - o, "%s %c: %s",
					      s && !c->have[0] ? ";" : "", 'A' + s, c->why[s]);
		return;
	}
	c->d_total = c->wait_rate[1] - c->wait_rate[0];
	fl_bcmp_fmt_rate(a, sizeof(a), c->wait_rate[0], 0);
	fl_bcmp_fmt_rate(b, sizeof(b), c->wait_rate[1], 0);
	fl_bcmp_fmt_rate(d, sizeof(d), c->d_total, 1);
	o = snprintf(c->explain, sizeof(c->explain), "%sfault mmap_lock wait A %s, B %s (%s", pre,
		     a, b, d);
	if (c->nrec[0] >= 2 && c->nrec[1] >= 2) {
		struct fl_stats sa, sb;

		c->tested = 1;
		if (!fl_stats_compute(ra, c->nrec[0], &sa) && !fl_stats_compute(rb, c->nrec[1], &sb))
			c->p = fl_welch_p(&sa, &sb, NULL, NULL);
		o += snprintf(c->explain + o, sizeof(c->explain) - o, ", p=%.2g)", c->p);
		if (isnan(c->p) || c->p >= alpha) {
			snprintf(c->explain + o, sizeof(c->explain) - o,
				 ": no significant change, not attributed");
			return;
		}
	} else {
		o += snprintf(c->explain + o, sizeof(c->explain) - o,
			      "; one recording on a side: not tested)");
		if (c->d_total == 0 ||
		    fabs(c->d_total) < FL_BLAME_CMP_MIN_CHANGE * fmax(c->wait_rate[0], c->wait_rate[1])) {
			snprintf(c->explain + o, sizeof(c->explain) - o,
				 ": changed by less than %.0f%%, not attributed",
				 100 * FL_BLAME_CMP_MIN_CHANGE);
			return;
		}
	}
	if (o >= sizeof(c->explain))
		return;
	dir = c->d_total > 0 ? 1 : -1;
	for (unsigned int i = 0; i < c->nsite; i++) {
		double x = c->site[i].d_wait * dir;

		if (x > 0) {
			gross += x;
			moved++;
			if (best < 0 || x > c->site[best].d_wait * dir)
				best = (int)i;
		} else {
			other -= x;
		}
	}
	if (best < 0)
		return;
	c->speaks = 1;
	c->share = c->site[best].d_wait * dir / gross;
	site_name(&c->site[best], nm, sizeof(nm));
	if (c->share >= FL_BLAME_CMP_SHARE) {
		c->named = best;
		fl_bcmp_fmt_rate(a, sizeof(a), c->site[best].d_wait, 1);
		o += snprintf(c->explain + o, sizeof(c->explain) - o,
			      dir > 0 ? ": the added mmap_lock wait in B is behind %s: %s of %s" :
				      ": the mmap_lock wait B saved was behind %s in A: %s of %s",
			      nm, a, d);
		if (other > 0 && o < sizeof(c->explain)) {
			fl_bcmp_fmt_rate(b, sizeof(b), other, 0);
			snprintf(c->explain + o, sizeof(c->explain) - o,
				 " (other sites moved the other way by %s)", b);
		}
		return;
	}
	o += snprintf(c->explain + o, sizeof(c->explain) - o,
		      ": the %s is spread over %d sites, none with two thirds of it:",
		      dir > 0 ? "added mmap_lock wait in B" : "mmap_lock wait B saved", moved);
	/* sites are sorted by |change|: the first three in this direction */
	for (unsigned int i = 0, k = 0; i < c->nsite && k < 3 && o < sizeof(c->explain); i++) {
		if (c->site[i].d_wait * dir <= 0)
			continue;
		site_name(&c->site[i], nm, sizeof(nm));
		fl_bcmp_fmt_rate(a, sizeof(a), c->site[i].d_wait, 1);
		o += snprintf(c->explain + o, sizeof(c->explain) - o, "%s %s %s", k++ ? "," : "",
			      nm, a);
	}
	if (moved > 3 && o < sizeof(c->explain))
		snprintf(c->explain + o, sizeof(c->explain) - o, ", ...");
}

int fl_bcmp_build(struct fl_bcmp *c, const struct fl_bcmp_rec *const rec[2],
		  const unsigned int n[2], double alpha, const char *where)
{
	double *rates[2] = { NULL, NULL };
	int rc = -1;

	memset(c, 0, sizeof(*c));
	c->named = -1;
	c->p = NAN;
	snprintf(c->where, sizeof(c->where), "%s", where ? where : "");
	for (int s = 0; s < 2; s++) {
		rates[s] = calloc(n[s] ? n[s] : 1, sizeof(double));
		if (!rates[s] || add_side(c, s, rec[s], n[s], rates[s]))
			goto out;
		if (!c->have[s] && !c->why[s][0])
			snprintf(c->why[s], sizeof(c->why[s]), "no recordings");
		c->wait_rate[s] = c->have[s] ? c->wait_ns[s] / c->secs[s] : NAN;
		c->fb_rate[s] = c->fb_have[s] ? c->fb[s] / c->secs[s] : NAN;
		c->fb_free_rate[s] = c->fb_have[s] ? c->fb_free[s] / c->secs[s] : NAN;
	}
	for (unsigned int i = 0; i < c->nsite; i++) {
		struct fl_bcmp_site *x = &c->site[i];

		for (int s = 0; s < 2; s++) {
			double secs = c->have[s] ? c->secs[s] : NAN;

			x->waits_rate[s] = x->v[s].waits / secs;
			x->wait_rate[s] = x->v[s].wait_ns / secs;
			x->hold_rate[s] = x->v[s].hold_ns / secs;
			x->fb_rate[s] = c->fb_have[s] ? x->v[s].fallbacks / secs : NAN;
		}
		/* a site a side does not have caused none of its wait */
		x->d_wait = c->have[0] && c->have[1] ? x->wait_rate[1] - x->wait_rate[0] : NAN;
	}
	if (c->have[0] && c->have[1] && c->nsite > 1)
		qsort(c->site, c->nsite, sizeof(*c->site), by_change);
	explain(c, alpha, rates[0], rates[1]);
	rc = 0;
out:
	free(rates[0]);
	free(rates[1]);
	return rc;
}

void fl_bcmp_free(struct fl_bcmp *c)
{
	free(c->site);
	memset(c, 0, sizeof(*c));
}

/* ---- output ---- */

#define NCOL 8

static void cells(const struct fl_bcmp *c, const struct fl_bcmp_site *x, unsigned int idx,
		  char cell[NCOL][160])
{
	char nm[140];

	site_name(x, nm, sizeof(nm));
	snprintf(cell[0], 160, "[%u] %s", idx + 1, nm);
	for (int s = 0; s < 2; s++) {
		if (!x->in[s] || !c->have[s]) {
			snprintf(cell[1 + s], 160, "-");
			snprintf(cell[3 + s], 160, "-");
			snprintf(cell[6 + s], 160, "-");
			continue;
		}
		snprintf(cell[1 + s], 160, "%.1f", x->waits_rate[s]);
		fl_bcmp_fmt_rate(cell[3 + s], 160, x->wait_rate[s], 0);
		if (x->unknown)
			snprintf(cell[6 + s], 160, "-");
		else
			fl_bcmp_fmt_rate(cell[6 + s], 160, x->hold_rate[s], 0);
	}
	fl_bcmp_fmt_rate(cell[5], 160, x->d_wait, 1);
}

/* rows x ncol cells, the first row the header, columns padded to their widest */
static void put_table(FILE *f, char (*cell)[NCOL][160], unsigned int rows, int ncol)
{
	size_t w[NCOL] = { 0 };

	for (unsigned int i = 0; i < rows; i++)
		for (int k = 0; k < ncol; k++)
			w[k] = strlen(cell[i][k]) > w[k] ? strlen(cell[i][k]) : w[k];
	for (unsigned int i = 0; i < rows; i++) {
		for (int k = 0; k < ncol; k++)
			fprintf(f, k ? " | %*s" : "  %-*s", (int)w[k], cell[i][k]);
		fputc('\n', f);
	}
}

static void fb_cells(char cell[NCOL][160], const char *name, const double v[2], const int in[2])
{
	snprintf(cell[0], 160, "%s", name);
	for (int s = 0; s < 2; s++)
		snprintf(cell[1 + s], 160, in[s] ? "%.1f" : "-", v[s]);
	snprintf(cell[3], 160, "%+.1f", v[1] - v[0]);
}

/* "LEAD[ WHERE]: not compared: A: why; B: why" when a side could not count them */
static int fb_not_compared(FILE *f, const struct fl_bcmp *c, const char *lead, const char *where)
{
	if (c->fb_have[0] && c->fb_have[1])
		return 0;
	fprintf(f, "%s%s%s: not compared:", lead, where[0] ? " " : "", where);
	for (int s = 0; s < 2; s++)
		if (!c->fb_have[s])
			fprintf(f, "%s %c: %s", s && !c->fb_have[0] ? ";" : "", 'A' + s, c->fb_why[s]);
	fputc('\n', f);
	return 1;
}

/*
 * Lockless-path fallbacks per second: the totals, then each site that had
 * some on a side; or why they are not compared.
 */
static void fb_text(FILE *f, const struct fl_bcmp *c)
{
	static const int both[2] = { 1, 1 };
	char (*cell)[NCOL][160];
	unsigned int n = 3;

	if (fb_not_compared(f, c, "lockless-path fallbacks", ""))
		return;
	cell = calloc(c->nsite + 3, sizeof(*cell));
	if (!cell)
		return;
	snprintf(cell[0][0], 160, "SITE");
	snprintf(cell[0][1], 160, "FALLBACKS/S A");
	snprintf(cell[0][2], 160, "B");
	snprintf(cell[0][3], 160, "CHANGE");
	fb_cells(cell[1], "all, while a writer held", c->fb_rate, both);
	fb_cells(cell[2], "all, with no writer holding", c->fb_free_rate, both);
	for (unsigned int i = 0; i < c->nsite; i++) {
		const struct fl_bcmp_site *x = &c->site[i];
		double v[2] = { x->in[0] ? x->fb_rate[0] : 0, x->in[1] ? x->fb_rate[1] : 0 };
		char nm[140], label[160];

		if (x->unknown || (!x->v[0].fallbacks && !x->v[1].fallbacks))
			continue;
		site_name(x, nm, sizeof(nm));
		snprintf(label, sizeof(label), "[%u] %s", i + 1, nm);
		fb_cells(cell[n], label, v, x->in);
		n++;
	}
	fprintf(f, "lockless-path fallbacks of user faults to mmap_lock, per second (a site's: "
		"while it held mmap_lock for write)\n");
	put_table(f, cell, n, 4);
	free(cell);
}

/*
 * csv rows of the fallback totals: per side, mean = per second, the reason
 * in `gap` where the side could not count them (never a 0 it did not see).
 */
void fl_bcmp_fb_csv(FILE *f, const struct fl_bcmp *c, void (*num)(FILE *, double))
{
	static const char *const name[2] = { "blame_fallbacks", "blame_fallbacks_free" };

	for (int k = 0; k < 2; k++)
		for (int s = 0; s < 2; s++) {
			fprintf(f, "%s,blame,%u,1/s,%c,,%u,,,", name[k], c->threads, 'A' + s,
				c->nrec[s]);
			if (c->fb_have[s])
				num(f, k ? c->fb_free_rate[s] : c->fb_rate[s]);
			fputs(",,,lower_is_better,,,", f);
			if (!c->fb_have[s])
				fl_csv_str(f, c->fb_why[s]);
			fputs(",\n", f);
		}
}

/* the markdown list item of the fallback totals */
void fl_bcmp_fb_md(FILE *f, const struct fl_bcmp *c)
{
	if (fb_not_compared(f, c, "- lockless-path fallbacks", c->where))
		return;
	fprintf(f, "- lockless-path fallbacks of user faults per second%s%s: while a writer "
		"held A %.1f, B %.1f (%+.1f); with none holding A %.1f, B %.1f (%+.1f)\n",
		c->where[0] ? " " : "", c->where, c->fb_rate[0], c->fb_rate[1],
		c->fb_rate[1] - c->fb_rate[0], c->fb_free_rate[0], c->fb_free_rate[1],
		c->fb_free_rate[1] - c->fb_free_rate[0]);
}

void fl_bcmp_text(FILE *f, const struct fl_bcmp *c)
{
	static const char *const head[NCOL] = {
		"SITE", "FAULTS DELAYED/S A", "B", "WAIT CAUSED A", "B", "CHANGE", "HOLD A", "B",
	};
	char (*cell)[NCOL][160];
	unsigned int n = c->nsite;

	for (int s = 0; s < 2; s++) {
		char r[40];

		if (!c->have[s]) {
			fprintf(f, "%c: no holder data (%s)\n", 'A' + s, c->why[s]);
			continue;
		}
		fl_bcmp_fmt_rate(r, sizeof(r), c->wait_rate[s], 0);
		fprintf(f, "%c: %u recording%s, %.3f s: %llu fault mmap_lock waits, %s", 'A' + s,
			c->nrec[s], c->nrec[s] == 1 ? "" : "s", c->secs[s], c->waits[s], r);
		if (c->nskip[s])
			fprintf(f, " (%u recording%s without holder data left out: %s)",
				c->nskip[s], c->nskip[s] == 1 ? "" : "s", c->why[s]);
		fputc('\n', f);
	}
	if (!c->have[0] || !c->have[1]) {
		fprintf(f, "no rows: a side without holder data would make every site look new\n");
		fprintf(f, "EXPLAIN: %s\n", c->explain);
		return;
	}
	cell = calloc(n + 1, sizeof(*cell));
	if (!cell)
		return;
	for (int k = 0; k < NCOL; k++)
		snprintf(cell[0][k], 160, "%s", head[k]);
	for (unsigned int i = 0; i < n; i++)
		cells(c, &c->site[i], i, cell[i + 1]);
	fprintf(f, "per second of recording; WAIT CAUSED: fault mmap_lock wait behind the site, "
		"HOLD: its write holds\n");
	put_table(f, cell, n + 1, NCOL);
	if (!n)
		fprintf(f, "  (no write holds and no fault mmap_lock wait on either side)\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct fl_bcmp_site *x = &c->site[i];

		if (x->unknown)
			continue;
		fprintf(f, "  [%u] frames:", i + 1);
		for (unsigned int k = 0; k < x->nframes; k++)
			fprintf(f, "%s %s", k ? " <" : "", x->frames[k]);
		fprintf(f, "%s\n", x->nframes ? "" : " (none)");
	}
	fb_text(f, c);
	fprintf(f, "EXPLAIN: %s\n", c->explain);
	free(cell);
}

static void json_rate(FILE *f, double v)
{
	fl_json_num(f, v);
}

/* a side's "fallbacks": counted, or why not (never a 0 it could not see) */
static void fb_json(FILE *f, const struct fl_bcmp *c, int s)
{
	if (!c->fb_have[s]) {
		fputs(",\"fallbacks\":{\"available\":false,\"reason\":", f);
		fl_json_str(f, c->have[s] ? c->fb_why[s] : c->why[s]);
		fputc('}', f);
		return;
	}
	fprintf(f, ",\"fallbacks\":{\"available\":true,\"holding\":%llu,\"free\":%llu,"
		"\"holding_per_s\":", c->fb[s], c->fb_free[s]);
	json_rate(f, c->fb_rate[s]);
	fputs(",\"free_per_s\":", f);
	json_rate(f, c->fb_free_rate[s]);
	fputc('}', f);
}

void fl_bcmp_json(FILE *f, const struct fl_bcmp *c)
{
	fputc('{', f);
	for (int s = 0; s < 2; s++) {
		fprintf(f, "%s\"%c\":{\"available\":%s", s ? "," : "", 'a' + s,
			c->have[s] ? "true" : "false");
		if (!c->have[s] || c->nskip[s]) {
			fputs(",\"reason\":", f);
			fl_json_str(f, c->why[s]);
		}
		fprintf(f, ",\"recordings\":%u,\"left_out\":%u,\"seconds\":", c->nrec[s],
			c->nskip[s]);
		fl_json_num(f, c->secs[s]);
		fprintf(f, ",\"fault_waits\":%llu,\"fault_wait_ns_per_s\":", c->waits[s]);
		json_rate(f, c->wait_rate[s]);
		fb_json(f, c, s);
		fputc('}', f);
	}
	fputs(",\"sites\":[", f);
	for (unsigned int i = 0; c->have[0] && c->have[1] && i < c->nsite; i++) {
		const struct fl_bcmp_site *x = &c->site[i];

		fprintf(f, "%s{\"what\":", i ? "," : "");
		fl_json_str(f, x->unknown ? "no known writer" : x->what);
		fputs(",\"comm\":", f);
		fl_json_str(f, x->comm);
		fputs(",\"frames\":[", f);
		for (unsigned int k = 0; k < x->nframes; k++) {
			if (k)
				fputc(',', f);
			fl_json_str(f, x->frames[k]);
		}
		fputc(']', f);
		for (int s = 0; s < 2; s++) {
			fprintf(f, ",\"%c\":", 'a' + s);
			if (!x->in[s]) {
				fputs("null", f);
				continue;
			}
			fprintf(f, "{\"faults_delayed\":%llu,\"wait_ns\":%llu,\"holds\":%llu,"
				"\"hold_ns\":%llu,\"sleep_ns\":%llu,\"reclaim_ns\":%llu,"
				"\"wait_ns_per_s\":", x->v[s].waits, x->v[s].wait_ns, x->v[s].holds,
				x->v[s].hold_ns, x->v[s].sleep_ns, x->v[s].reclaim_ns);
			json_rate(f, x->wait_rate[s]);
			fputs(",\"hold_ns_per_s\":", f);
			json_rate(f, x->hold_rate[s]);
			fputs(",\"fallbacks\":", f);
			if (c->fb_have[s] && !x->unknown)
				fprintf(f, "%llu", x->v[s].fallbacks);
			else
				fputs("null", f);
			fputc('}', f);
		}
		fputs(",\"wait_change_ns_per_s\":", f);
		json_rate(f, x->d_wait);
		fputs(",\"fallbacks_change_per_s\":", f);
		json_rate(f, c->fb_have[0] && c->fb_have[1] && !x->unknown ?
			  (x->in[1] ? x->fb_rate[1] : 0) - (x->in[0] ? x->fb_rate[0] : 0) : NAN);
		fputc('}', f);
	}
	fputs("],\"explain\":{\"attributes\":", f);
	fputs(c->speaks ? "true" : "false", f);
	fputs(",\"named_site\":", f);
	if (c->named >= 0)
		fprintf(f, "%d", c->named);
	else
		fputs("null", f);
	fputs(",\"share\":", f);
	fl_json_num(f, c->speaks ? c->share : NAN);
	fputs(",\"change_ns_per_s\":", f);
	fl_json_num(f, c->have[0] && c->have[1] ? c->d_total : NAN);
	fputs(",\"p\":", f);
	fl_json_num(f, c->p);
	fputs(",\"text\":", f);
	fl_json_str(f, c->explain);
	fputs("}}", f);
}
