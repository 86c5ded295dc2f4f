// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz what reads a parsed snapshot (report, check, merge): a snapshot
 * file that fl_snapshot_parse accepts may still be hostile (counts that
 * overflow, histograms that disagree with counters, phase and lock sections
 * of any size).  Every report section, the invariant checks and the csv
 * export (its blame rows included) must run to completion on it
 * (ASan/UBSan watch them) and be deterministic; merging a snapshot into a
 * copy of itself must double every counter (mod 2^64) and the self-cost
 * runs and run time (bpf_run.* tags), and refuse nothing.
 */
#include "fuzzutil.h"
#include "blame_model.h"
#include "blame_report.h"
#include "export.h"
#include "invariants.h"
#include "phases.h"
#include "report_common.h"
#include "selfcost.h"
#include "snapshot.h"

static FILE *devnull;

static void selfcost_sum(const struct fl_snapshot *s, unsigned long long *runs,
			 unsigned long long *ns)
{
	unsigned int n;

	free(fl_selfcost_get(s, &n, runs, ns));
	FZ_ASSERT(n == fl_selfcost_list(s, NULL, 0));
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct fl_snapshot s, m = { 0 };
	struct fl_cpu_stats tot;
	char err[256], buf[64];
	unsigned long long r1, n1, r2, n2;
	int v1, v2;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	if (fl_snapshot_parse(data, size, &s, err, sizeof(err)))
		return 0;
	fl_snapshot_total(&s, &tot);
	fl_print_summary(devnull, &s, &tot);
	for (unsigned int h = 0; h < FL_H_NR; h++)
		fl_print_log2_hist(devnull, &tot.hist[h], "fuzz");
	for (unsigned int f = 0; f < FL_FIG_NR; f++) {
		const char *why = NULL;
		enum fl_avail a = fl_figure_avail(&s, f, &why);

		FZ_ASSERT(a == FL_AVAIL_YES || a == FL_AVAIL_UNAVAILABLE || a == FL_AVAIL_ABSENT);
		fl_fmt_unavail(buf, sizeof(buf), a, why);
	}
	FZ_ASSERT(fl_report_phases(&s, devnull, NULL) == 0);
	FZ_ASSERT(fl_report_locks(&s, devnull, NULL) == 0);
	FZ_ASSERT(fl_report_phases_raw(&s, devnull) == 0);
	FZ_ASSERT(fl_report_blame(&s, devnull) == 0);
	FZ_ASSERT(fl_report_blame_raw(&s, devnull) == 0);
	fl_blame_json(devnull, &s);
	{
		/* export csv (its blame rows included) of the snapshot as it is */
		struct fl_export_snap es = { .run = "fuzz", .path = "fuzz.snap", .s = s };
		struct fl_export e = { .by = FL_EXP_BY_TOTAL, .snaps = &es, .nsnaps = 1 };

		es.total.st = tot;
		fl_export_csv(devnull, &e);
		s = es.s;	/* its tag lookups' cache, freed with s */
	}
	v1 = fl_snapshot_check(&s, devnull);
	v2 = fl_snapshot_check(&s, NULL);
	FZ_ASSERT(v1 >= 0 && v1 == v2);
	FZ_ASSERT(fl_snapshot_merge(&m, &s, err, sizeof(err)) == 0);
	FZ_ASSERT(fl_snapshot_merge(&m, &s, err, sizeof(err)) == 0);
	for (unsigned int c = 0; c < s.hdr.nr_cpus; c++)
		for (unsigned int i = 0; i < FL_C_NR; i++)
			FZ_ASSERT(m.cpus[c].cnt[i] == 2 * s.cpus[c].cnt[i]);
	selfcost_sum(&s, &r1, &n1);
	selfcost_sum(&m, &r2, &n2);
	FZ_ASSERT(r2 == 2 * r1 && n2 == 2 * n1);
	fl_snapshot_free(&m);
	fl_snapshot_free(&s);
	return 0;
}
