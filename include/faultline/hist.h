/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one faultline histogram: log-linear, 8 sub-buckets per power of two.
 *
 * Values (nanoseconds) 0..15 get exact buckets; above that each power of two
 * [2^k, 2^(k+1)) is split into 8 equal buckets, so a bucket's width is at most
 * 1/8 of its lower bound: relative error <= 12.5%.  The last bucket ends at
 * 2^36 ns (~68.7 s); larger values are clamped into it (max keeps the truth).
 *
 * fl_hist_bucket() needs no clz instruction (BPF has none) and is used
 * unchanged by the BPF programs, the module's self-test, the collector and
 * the tests.  count/sum/min/max are exact.
 */
#ifndef FAULTLINE_HIST_H
#define FAULTLINE_HIST_H

#include "types.h"

#define FL_HIST_SUB_BITS	3
#define FL_HIST_SUB		(1u << FL_HIST_SUB_BITS)	/* 8 */
#define FL_HIST_MAX_LOG2	35				/* top msb */
#define FL_HIST_VMAX		((1ULL << (FL_HIST_MAX_LOG2 + 1)) - 1)
#define FL_HIST_NBUCKETS	((FL_HIST_MAX_LOG2 - FL_HIST_SUB_BITS + 2) * FL_HIST_SUB) /* 272 */

struct fl_hist {
	fl_u64 count;
	fl_u64 sum;
	fl_u64 min;	/* valid only when count != 0 */
	fl_u64 max;
	fl_u64 buckets[FL_HIST_NBUCKETS];
};

/*
 * floor(log2(v)) for v >= 1, no clz (BPF has none) and no table in memory
 * (a variable index into .rodata is refused by 5.10's verifier): halving
 * steps (two of them only for v >= 2^16), then the log2 of the last nibble from a packed constant,
 * 2 bits per nibble value (0xffffaa50: 0,0,1,1,2,2,2,2,3,...).  About 20 BPF
 * instructions where the 6-step branch-free cascade it replaces took about
 * 40: BPF has no conditional move, so each "(v > m) << k" was a branch too.
 */
#ifdef __bpf__
/*
 * One branch per step: clang turns a step's two updates into two selects,
 * and BPF (no conditional move) compiles each select into a compare and
 * branch of its own.  An asm statement cannot be speculated: the step
 * stays one branch.
 */
#define FL_ONE_BRANCH(x)	asm volatile("" : "+r"(x))
#else
#define FL_ONE_BRANCH(x)	do { } while (0)
#endif

FL_INLINE fl_u64 fl_ilog2(fl_u64 v)
{
	fl_u64 r = 0;	/* 64-bit: 32-bit arithmetic costs BPF zero-extensions */

	if (v >> 16) {		/* rare for latencies: one test skips two steps */
		if (v >> 32) {
			v >>= 32;
			r = 32;
			FL_ONE_BRANCH(v);
		}
		if (v >> 16) {
			v >>= 16;
			r += 16;
			FL_ONE_BRANCH(v);
		}
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
		FL_ONE_BRANCH(v);
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
		FL_ONE_BRANCH(v);
	}
	return r + ((0xffffaa50ULL >> (v << 1)) & 3);
}

/*
 * Bucket index of v.  For v < 16 the index is v itself; otherwise
 * ((msb - 3) << 3) + (v >> (msb - 3)), where v >> (msb - 3) lies in [8, 16).
 */
FL_INLINE fl_u64 fl_hist_bucket(fl_u64 v)
{
	fl_u64 shift;	/* 64-bit: see fl_ilog2() */

	if (v > FL_HIST_VMAX)
		v = FL_HIST_VMAX;
	shift = fl_ilog2(v | FL_HIST_SUB) - FL_HIST_SUB_BITS;	/* msb >= 3 */
	return (shift << FL_HIST_SUB_BITS) + (v >> shift);
}

/* Inclusive lower bound of bucket i. */
FL_INLINE fl_u64 fl_hist_lower(fl_u32 i)
{
	fl_u32 shift;

	if (i < 2 * FL_HIST_SUB)
		return i;
	shift = (i >> FL_HIST_SUB_BITS) - 1;
	return (fl_u64)(FL_HIST_SUB + (i & (FL_HIST_SUB - 1))) << shift;
}

/* Exclusive upper bound of bucket i (the last bucket ends at FL_HIST_VMAX + 1). */
FL_INLINE fl_u64 fl_hist_upper(fl_u32 i)
{
	if (i < 2 * FL_HIST_SUB)
		return (fl_u64)i + 1;
	return fl_hist_lower(i) + (1ULL << ((i >> FL_HIST_SUB_BITS) - 1));
}

/*
 * Record one value v in bucket i (i < FL_HIST_NBUCKETS, fl_hist_bucket(v)
 * or an equal bucket computed faster: the module's fl_hist_put()).  Not
 * atomic: callers own the histogram (a per-CPU copy with preemption /
 * migration disabled, or a single-threaded user).
 */
FL_INLINE void fl_hist_add_at(struct fl_hist *h, fl_u64 i, fl_u64 v)
{
	h->buckets[i]++;
	if (h->count == 0 || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
}

/* Record one value (see fl_hist_add_at). */
FL_INLINE void fl_hist_add(struct fl_hist *h, fl_u64 v)
{
	/*
	 * 64-bit index: with a 32-bit one clang bounds-checks one copy and
	 * indexes with another, and the BPF verifier rejects the access.
	 */
	fl_u64 i = fl_hist_bucket(v);

#ifdef __bpf__
	/* one register for the check and the access, or the verifier may see an unchecked copy */
	asm volatile("" : "+r"(i));
#endif
	if (i >= FL_HIST_NBUCKETS)	/* unreachable; keeps the BPF verifier happy */
		i = FL_HIST_NBUCKETS - 1;
	fl_hist_add_at(h, i, v);
}

/* dst += src */
FL_INLINE void fl_hist_merge(struct fl_hist *dst, const struct fl_hist *src)
{
	fl_u32 i;

	if (src->count == 0)
		return;
	for (i = 0; i < FL_HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
}

/*
 * Quantile q in [0, 1] (given as parts per million so no floating point is
 * needed in the kernel): the smallest bucket whose cumulative count reaches
 * ceil(q * count), reported as the bucket's midpoint clamped to [min, max].
 * Returns 0 for an empty histogram (callers print "-" for count == 0).
 */
FL_INLINE fl_u64 fl_hist_quantile_ppm(const struct fl_hist *h, fl_u32 ppm)
{
	fl_u64 rank, cum = 0, v;
	fl_u32 i;

	if (h->count == 0)
		return 0;
	if (ppm >= 1000000)
		return h->max;
	rank = (h->count * ppm + 999999) / 1000000;
	if (rank == 0)
		rank = 1;
	for (i = 0; i < FL_HIST_NBUCKETS; i++) {
		cum += h->buckets[i];
		if (cum >= rank)
			break;
	}
	if (i >= FL_HIST_NBUCKETS)
		return h->max;
	v = fl_hist_lower(i) + (fl_hist_upper(i) - fl_hist_lower(i) - 1) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

#endif /* FAULTLINE_HIST_H */
