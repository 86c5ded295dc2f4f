// SPDX-License-Identifier: GPL-2.0
/* Accounting invariants of a snapshot (see invariants.h). */
#include <inttypes.h>

#include "invariants.h"

struct ctx {
	FILE *out;
	int bad;
};

static void verdict(struct ctx *c, int ok, const char *what, uint64_t want, uint64_t got)
{
	if (!ok)
		c->bad++;
	if (c->out)
		fprintf(c->out, "invariant: %s %s: expected %" PRIu64 ", got %" PRIu64 "\n",
			ok ? "PASS" : "FAIL", what, want, got);
}

/* Buckets add up to count, count 0 means sum 0, min <= max: a torn read fails this. */
static int hist_consistent(const struct fl_hist *h)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++)
		n += h->buckets[i];
	if (n != h->count)
		return 0;
	if (!h->count)
		return h->sum == 0 && h->max == 0;
	return h->min <= h->max && h->sum >= h->min && h->max >= h->sum / h->count;
}

int fl_snapshot_check(const struct fl_snapshot *s, FILE *out)
{
	struct ctx c = { .out = out };
	struct fl_cpu_stats t;
	unsigned int torn = 0, lat_cpu = 0, hmf_cpu = 0;
	int hmf = (s->hdr.hooks_live >> FL_HOOK_HMF & 1) || (s->hdr.hooks_live >> FL_HOOK_DO_HMF & 1);
	int timed = hmf && s->hdr.tier != FL_TIER_TRACEPOINT;
	int ll = timed && (s->hdr.lockless_kind == FL_LL_KIND_VMA_LOCK ||
			   s->hdr.lockless_kind == FL_LL_KIND_SPF);
	uint64_t started, ended, v;

	for (unsigned int cpu = 0; cpu < s->hdr.nr_cpus; cpu++) {
		const struct fl_cpu_stats *cs = &s->cpus[cpu];

		for (unsigned int h = 0; h < FL_H_NR; h++)
			torn += !hist_consistent(&cs->hist[h]);
		/* both are bumped at the fault's end, on the same CPU */
		lat_cpu += cs->hist[FL_H_FAULT_LAT].count != cs->cnt[FL_C_FAULTS_ENDED];
		hmf_cpu += cs->hist[FL_H_HMF].count != cs->cnt[FL_C_HMF_CALLS];
	}
	verdict(&c, torn == 0, "histograms whose buckets do not add up to their count", 0, torn);
	fl_snapshot_total(s, &t);
	if (timed) {
		verdict(&c, lat_cpu == 0, "CPUs where latency samples != faults ended", 0, lat_cpu);
		/* the calls are always counted; their duration only with record --handle-mm-fault */
		if (!fl_snapshot_tag(s, FL_TAG_HMF_OFF))
			verdict(&c, hmf_cpu == 0, "CPUs where handle_mm_fault samples != calls", 0,
				hmf_cpu);
		started = t.cnt[FL_C_FAULTS_USER] + t.cnt[FL_C_FAULTS_KERNEL];
		ended = t.cnt[FL_C_FAULTS_ENDED] + t.cnt[FL_C_FAULTS_UNHANDLED];
		verdict(&c, ended <= started, "faults ended + unhandled <= faults started", started, ended);
		verdict(&c, t.cnt[FL_C_HMF_CALLS] >= t.cnt[FL_C_FAULTS_ENDED],
			"handle_mm_fault calls >= faults ended", t.cnt[FL_C_FAULTS_ENDED],
			t.cnt[FL_C_HMF_CALLS]);
	}
	if (ll) {
		v = t.ll[FL_LL_SUCCEEDED] + t.ll[FL_LL_ABORTED] + t.ll[FL_LL_RETRIED];
		verdict(&c, v == t.ll[FL_LL_ATTEMPTED],
			"lockless succeeded + aborted + retried = attempted", t.ll[FL_LL_ATTEMPTED], v);
		v += t.ll[FL_LL_NOT_ATTEMPTED];
		verdict(&c, v == t.cnt[FL_C_FAULTS_ENDED],
			"lockless outcomes + not attempted = faults ended", t.cnt[FL_C_FAULTS_ENDED], v);
	}
	return c.bad;
}
