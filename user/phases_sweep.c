// SPDX-License-Identifier: GPL-2.0
/*
 * `report --phases` / `--locks` of a pft-sweep result directory: one row per
 * thread count, the mean over its runs (snap/pft-N-I.snap) of every phase in
 * ns per fault and of every lock class's contended wait per fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "phases.h"
#include "pftlog.h"

struct agg {
	unsigned int runs, no_phases, no_locks, unreadable;
	double faults, lat, unattrib, ph[FL_PH_NR];
	bool avail[FL_PH_NR];
	unsigned long long overrun;
	unsigned int lruns;
	double lk[FL_LK_NR];
	char why[FL_PH_NR][FL_PH_UNAVAIL_LEN];
	char ph_why[160], lk_why[160];
};

static void add_run(struct agg *a, const struct fl_snapshot *s)
{
	struct fl_phases_summary m;
	const char *t;
	unsigned int p, k;
	double faults;

	fl_phases_summarize(s, NULL, 0, &m);
	if (!m.phases || !m.faults) {
		a->no_phases++;
		t = fl_snapshot_tag(s, FL_TAG_PHASES);
		if (!a->ph_why[0])
			snprintf(a->ph_why, sizeof(a->ph_why), "%s",
				 t && !strncmp(t, "unavailable", 11) ? t :
				 m.phases ? "unavailable (no faults with phase accounting)" :
				 "unavailable (not recorded with --phases)");
	} else {
		if (!a->runs)
			for (p = 0; p < FL_PH_NR; p++)
				a->avail[p] = true;
		a->runs++;
		a->faults += (double)m.faults;
		a->lat += m.lat_mean;
		a->unattrib += m.unattributed_mean;
		a->overrun += m.overrun;
		for (p = 0; p < FL_PH_NR; p++) {
			if (!m.phase_avail[p] && a->avail[p]) {
				a->avail[p] = false;
				fl_phase_unavail_why(s, p, a->why[p], sizeof(a->why[p]));
			}
			a->ph[p] += m.phase_mean[p];
		}
	}
	/* per fault with phase accounting; without --phases, per fault counted */
	if (m.phases) {
		faults = (double)m.faults;
	} else {
		struct fl_cpu_stats tot;

		fl_snapshot_total(s, &tot);
		faults = (double)(tot.cnt[FL_C_FAULTS_USER] + tot.cnt[FL_C_FAULTS_KERNEL]);
	}
	if (!m.locks || !(faults > 0)) {
		a->no_locks++;
		t = fl_snapshot_tag(s, FL_TAG_LOCKS);
		if (!a->lk_why[0])
			snprintf(a->lk_why, sizeof(a->lk_why), "%s",
				 t && !strncmp(t, "unavailable", 11) ? t :
				 m.locks ? "unavailable (no faults to divide the wait by)" :
				 "unavailable (not recorded with --locks)");
		return;
	}
	a->lruns++;
	for (k = 0; k < FL_LK_NR; k++)
		a->lk[k] += (double)m.lock_wait_ns[k] / faults;
}

int fl_report_phases_sweep(const char *dir, FILE *out, bool phases, bool locks,
			   char *err, size_t errlen)
{
	struct fl_sweep sw;
	struct agg *ag;
	unsigned int i, p, k;

	if (fl_sweep_load(dir, &sw, err, errlen))
		return -1;
	ag = calloc(sw.nseries ? sw.nseries : 1, sizeof(*ag));
	if (!ag) {
		fl_sweep_free(&sw);
		return fl_fail(err, errlen, "out of memory");
	}
	for (i = 0; i < sw.nseries; i++)
		for (k = 0; k < sw.series[i].nsnaps; k++) {
			struct fl_snapshot s;
			char e[256];

			memset(&s, 0, sizeof(s));
			if (fl_snapshot_read_file(sw.series[i].snaps[k], &s, e, sizeof(e))) {
				ag[i].unreadable++;
				fprintf(stderr, "faultline report: skipped %s\n", e);
				continue;
			}
			add_run(&ag[i], &s);
			fl_snapshot_free(&s);
		}

	fprintf(out, "sweep %s: %u thread count(s)\n", dir, sw.nseries);
	if (phases) {
		fprintf(out, "\nphases per thread count: mean over the runs of ns per fault\n");
		fprintf(out, "%7s %5s %10s %9s", "threads", "runs", "faults/run", "latency");
		for (p = 0; p < FL_PH_NR; p++)
			fprintf(out, " %9s", fl_phase_name(p));
		fprintf(out, " %9s %7s\n", "unattrib", "overrun");
		for (i = 0; i < sw.nseries; i++) {
			const struct agg *a = &ag[i];
			double n = a->runs;

			fprintf(out, "%7u %5u", sw.series[i].threads, a->runs);
			if (!a->runs) {
				fprintf(out, "  %s\n", sw.series[i].nsnaps ? a->ph_why :
					"unavailable (no snapshots)");
				continue;
			}
			fprintf(out, " %10.0f %9.0f", a->faults / n, a->lat / n);
			for (p = 0; p < FL_PH_NR; p++) {
				if (a->avail[p])
					fprintf(out, " %9.0f", a->ph[p] / n);
				else
					fprintf(out, " %9s", "n/a");
			}
			fprintf(out, " %9.0f %7llu\n", a->unattrib / n, a->overrun);
		}
		for (i = 0; i < sw.nseries; i++) {
			if (ag[i].no_phases && ag[i].runs)
				fprintf(out, "%u threads: %u run(s) without phases left out: %s\n",
					sw.series[i].threads, ag[i].no_phases, ag[i].ph_why);
			for (p = 0; p < FL_PH_NR; p++)
				if (ag[i].runs && !ag[i].avail[p])
					fprintf(out, "%u threads: %s %s\n", sw.series[i].threads,
						fl_phase_name(p), ag[i].why[p]);
		}
	}
	if (locks) {
		fprintf(out, "\nlock classes per thread count: mean over the runs of contended "
			"wait per fault, ns\n%7s %5s", "threads", "runs");
		for (k = 0; k < FL_LK_NR; k++)
			fprintf(out, " %9s", fl_lock_class_name(k));
		fprintf(out, "  dominant\n");
		for (i = 0; i < sw.nseries; i++) {
			const struct agg *a = &ag[i];
			unsigned int dom = FL_LK_NR;
			double tot = 0;

			fprintf(out, "%7u %5u", sw.series[i].threads, a->lruns);
			if (!a->lruns) {
				fprintf(out, "  %s\n", sw.series[i].nsnaps ? a->lk_why :
					"unavailable (no snapshots)");
				continue;
			}
			for (k = 0; k < FL_LK_NR; k++) {
				fprintf(out, " %9.1f", a->lk[k] / a->lruns);
				tot += a->lk[k];
				if (a->lk[k] > 0 && (dom == FL_LK_NR || a->lk[k] > a->lk[dom]))
					dom = k;
			}
			if (dom < FL_LK_NR)
				fprintf(out, "  %s (%.0f%%)\n", fl_lock_class_name(dom),
					100.0 * a->lk[dom] / tot);
			else
				fprintf(out, "  none (no contention seen)\n");
		}
	}
	free(ag);
	fl_sweep_free(&sw);
	return ferror(out) ? -1 : 0;
}
