// SPDX-License-Identifier: GPL-2.0
/*
 * The client series of mmtests' "large stride" (bin/generate-stride-range
 * --stride-large, the threads_large_stride_begin shellpack macro that pft-bench
 * uses), reimplemented from its description:
 *
 *   max > 8*ncpus: MIN,MIN+3..8; 12,21,30; 48,48+31..ncpus;
 *                  2*ncpus, 2*ncpus+s..max with s = (max - 2*ncpus) / 8 (31 if <= 0)
 *   max > 32:      MIN,MIN+3..8; 12,21,30; 48,48+31..max
 *   max > 8:       MIN,MIN+2..8; 12,18..max
 *   otherwise:     MIN,MIN+2..max
 *
 * plus MIN and MAX themselves; sorted, duplicates dropped, only values in
 * [MIN, MAX].  Nothing at all when MIN > ncpus (as mmtests).  For 112 CPUs,
 * 1..112 gives 1 4 7 12 21 30 48 79 110 112.
 */
#include <stdint.h>
#include <stdlib.h>

#include "pft.h"

struct bits {
	uint8_t *map;
	unsigned long long lim;	/* values >= lim are outside [min, max] anyway */
};

static void mark(struct bits *b, unsigned long long v)
{
	if (v < b->lim)
		b->map[v >> 3] |= 1u << (v & 7);
}

/* bash's `seq FIRST STEP LAST` */
static void seq(struct bits *b, unsigned long long first, unsigned long long step,
		unsigned long long last)
{
	for (unsigned long long v = first; v <= last && v < b->lim; v += step)
		mark(b, v);
}

unsigned int pft_series(unsigned int min, unsigned int max,
			unsigned int ncpus, unsigned int *out, unsigned int cap)
{
	unsigned long long n = ncpus, hi = max;
	unsigned int count = 0;
	struct bits b;

	if (max == 0 || min > max || min > ncpus)
		return 0;
	b.lim = hi + 1;
	b.map = calloc(b.lim / 8 + 1, 1);
	if (!b.map)
		return 0;
	mark(&b, min);
	mark(&b, max);
	if (hi > 8 * n) {
		long long s = ((long long)hi - 2 * (long long)n) / 8;

		seq(&b, min, 3, 8);
		seq(&b, 12, 9, 32);
		seq(&b, 48, 31, n);
		seq(&b, 2 * n, s <= 0 ? 31 : (unsigned long long)s, hi);
	} else if (hi > 32) {
		seq(&b, min, 3, 8);
		seq(&b, 12, 9, 32);
		seq(&b, 48, 31, hi);
	} else if (hi > 8) {
		seq(&b, min, 2, 8);
		seq(&b, 12, 6, hi);
	} else {
		seq(&b, min, 2, hi);
	}
	for (unsigned long long v = min; v <= hi; v++) {
		if (!(b.map[v >> 3] & (1u << (v & 7))))
			continue;
		if (count < cap)
			out[count] = (unsigned int)v;
		count++;
	}
	free(b.map);
	return count;
}
