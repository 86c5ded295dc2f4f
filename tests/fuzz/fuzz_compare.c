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
 */
#include <math.h>

#include "compare.h"
#include "fuzzutil.h"

#define MAX_FILES 10

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *field[MAX_FILES + 1], *name[MAX_FILES], dir[4096], err[1024] = "";
	struct fl_cmp c;
	unsigned int nf;

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
