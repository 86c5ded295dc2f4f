// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the A/B comparison model (fl_cmp_build: sweep loading, statistics,
 * Welch's test, snapshot metrics) with a fuzzer-written sweep directory
 * compared with itself.  Input: as fuzz_sweep (names in field 0, contents
 * after, fields separated by 0x01).  A sweep against itself must give, for
 * every metric with values, identical statistics on both sides, a 0 % change
 * of the mean wherever the mean is finite and non-zero, and no significant
 * difference; and for record --blame snapshots, no change of the fault wait
 * and no holder blamed for one.
 *
 * An input that parses as a snapshot (mkseeds compare writes some, format
 * 1.0 ones too, which have no checksums to stop a mutation) is instead
 * compared with itself as two recordings (fl_cmp_snaps_build, compare
 * A.snap B.snap): every figure the same on both sides or missing on both
 * with a reason, rank tests of small histograms (the whole recording's and
 * per CPU / LLC / node, from the snapshot's topology tags) at p = 1 and
 * none significant, p in [0, 1] everywhere, the same pooled buckets on both
 * sides; all four layouts written (with --hist's buckets).  Then
 * as two recordings a side (A A against A A): the same, each side's spread
 * 0, never a Welch p below alpha nor an mmtests mark.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "compare_snaps.h"
#include "fuzzutil.h"

#define MAX_FILES 10

/* The oracle of A against itself, with N recordings of it a side. */
static void same(const char *path, unsigned int n)
{
	const char *l[2] = { path, path };
	struct fl_csn_view v = { .precision = 1 + (int)(n * 7) % 17, .hist = 1 };
	struct fl_cmp_snaps p;
	char err[512];
	FILE *f;

	if (fl_cmp_snaps_build_n(&p, (const char *const *[2]){ l, l },
				 (const unsigned int[2]){ n, n }, 0.05, err, sizeof(err))) {
		FZ_ASSERT(err[0]);
		return;
	}
	FZ_ASSERT(p.multi == (n > 1));
	for (unsigned int r = 0; r < p.nrow; r++) {
		const struct fl_csn_row *w = &p.row[r];

		FZ_ASSERT(w->have[0] == w->have[1]);
		FZ_ASSERT(!w->have[0] || w->v[0] == w->v[1] || (isnan(w->v[0]) && isnan(w->v[1])));
		FZ_ASSERT(w->have[0] || (w->why[0][0] && !strcmp(w->why[0], w->why[1])));
		FZ_ASSERT(!w->significant && !w->mm_marked);
		FZ_ASSERT(!w->have[0] || !strcmp(w->section, "blame") || w->st[0].n == n);
		FZ_ASSERT(!w->have[0] || n < 2 || w->st[0].stddev == 0 || isnan(w->st[0].stddev));
	}
	for (unsigned int r = 0; r < p.nrank; r++) {
		const struct fl_csn_rank *k = &p.rank[r];

		FZ_ASSERT(k->have[0] == k->have[1]);
		FZ_ASSERT(!k->by || (k->have[0] && k->t.n[0] > 0));
		FZ_ASSERT(isnan(k->t.p) || (k->t.p >= 0 && k->t.p <= 1));
		if (k->have[0] && k->t.n[0] > 0 && k->t.n[0] < 1e6)
			FZ_ASSERT(k->t.p == 1 && k->t.prob == 0.5 && !k->significant);
		/* the same pooled histogram on both sides, the one the test counted */
		FZ_ASSERT(!memcmp(k->h[0].buckets, k->h[1].buckets, sizeof(k->h[0].buckets)));
	}
	FZ_ASSERT(!p.c.speaks);
	f = fopen("/dev/null", "w");
	if (!f)
		abort();
	fl_cmp_snaps_write_text(f, &p, &v);
	fl_cmp_snaps_write_json(f, &p);
	fl_cmp_snaps_write_csv(f, &p, &v);
	fl_cmp_snaps_write_md(f, &p, &v);
	fclose(f);
	fl_cmp_snaps_free(&p);
}

/* compare A.snap A.snap, then A A against A A, on a snapshot input; 0 when the input is none */
static int snaps(const unsigned char *data, size_t size)
{
	struct fl_snapshot s;
	char err[512], path[512];

	if (fl_snapshot_parse(data, size, &s, err, sizeof(err)))
		return 0;
	fl_snapshot_free(&s);
	if (fz_write(fz_scratch(), "a.snap", data, size))
		abort();
	snprintf(path, sizeof(path), "%s/a.snap", fz_scratch());
	same(path, 1);
	same(path, 2);
	return 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *field[MAX_FILES + 1], *name[MAX_FILES], dir[4096], err[1024] = "";
	struct fl_cmp c;
	unsigned int nf;

	if (snaps(data, size))
		return 0;
	nf = fz_split(data, size, '\x01', field, MAX_FILES + 1);
	if (!nf)
		return 0;
	snprintf(dir, sizeof(dir), "%s/sweep", fz_scratch());
	fz_tree(dir, field, nf, name);
	memset(&c, 0, sizeof(c));
	if (fl_cmp_build(&c, dir, dir, 0.05, err, sizeof(err))) {
		FZ_ASSERT(err[0]);
		goto out;
	}
	for (unsigned int i = 0; i < c.nm; i++) {
		const struct fl_cmp_metric *m = &c.m[i];

		FZ_ASSERT(m->have[0] == m->have[1]);
		if (!m->have[0])
			continue;
		FZ_ASSERT(!memcmp(&m->st[0], &m->st[1], sizeof(m->st[0])));
		if (isfinite(m->st[0].mean) && m->st[0].mean != 0)
			FZ_ASSERT(m->pct[FL_PCT_MEAN] == 0);
		FZ_ASSERT(!m->significant);
	}
	for (unsigned int i = 0; i < c.nblame; i++) {
		const struct fl_bcmp *b = &c.blame[i];

		FZ_ASSERT(b->have[0] == b->have[1] && !b->speaks && b->named < 0);
		FZ_ASSERT(!b->have[0] || b->d_total == 0 || isnan(b->d_total));
	}
	fl_cmp_free(&c);
out:
	fz_free_fields(field, nf);
	return 0;
}
