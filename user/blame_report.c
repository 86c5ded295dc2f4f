// SPDX-License-Identifier: GPL-2.0
/*
 * Reading `record --blame` back: `report --blame` and its --raw keys
 * (user/blame_report.h, Documentation/blame.rst).  The json export's
 * "blame" object is export_fmt.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blame_model.h"
#include "blame_report.h"
#include "export_out.h"
#include "report_common.h"

/* ns per second of the window, clamped (a hostile snapshot's duration may be 1 ns) */
static unsigned long long per_sec(fl_u64 ns, double secs)
{
	double v = secs > 0 ? ns / secs : 0;

	return v < 1.8e19 ? (unsigned long long)v : 18000000000000000000ULL;
}

static fl_u64 hold_ns(const struct fl_blame_row *r)
{
	return r->hold.sum;
}

static const char *unavail(const struct fl_snapshot *s)
{
	const char *t = fl_snapshot_tag(s, FL_TAG_BLAME);

	return t ? t : "absent (recorded without --blame)";
}


int fl_report_blame(const struct fl_snapshot *s, FILE *out)
{
	const char *fbu;
	const struct fl_blame_total *t = fl_snapshot_blame_total(s);
	const struct fl_blame_row *r;
	unsigned int nr = 0, shown = 0;
	double secs = s->hdr.duration_ns / 1e9;
	char a[32], b[32], c[32], d[32], what[96], fr[FL_BLAME_FRAMES * (FL_SYM_LEN + 3)];
	fl_u64 blamed_ns = 0;

	r = fl_snapshot_blame(s, &nr);
	fprintf(out, "\nholders of mmap_lock behind the faults' waits (record --blame)\n");
	if (!t || !r) {
		fprintf(out, "blame: %s\n", unavail(s));
		return ferror(out) ? -1 : 0;
	}
	for (unsigned int i = 0; i < nr; i++)
		blamed_ns += r[i].wait.sum;
	fl_fmt_ns(a, sizeof(a), t->wait_all.sum);
	fl_fmt_ns(b, sizeof(b), per_sec(t->wait_all.sum, secs));
	fl_fmt_pct_of(c, sizeof(c), blamed_ns, t->wait_all.sum);
	fprintf(out, "fault mmap_lock waits: %llu, %s (%s per second); %s of it behind a known "
		"writer\n", t->wait_all.count, a, b, c);
	fprintf(out, "fault path: %s\n", fl_snapshot_tag(s, FL_TAG_BLAME_FAULT_PATH) ?: "?");
	if (fl_snapshot_tag(s, FL_TAG_BLAME_WRITES))
		fprintf(out, "write holds seen by: %s\n", fl_snapshot_tag(s, FL_TAG_BLAME_WRITES));
	fbu = fl_blame_fb_unavail(s);
	if (fbu)
		fprintf(out, "lockless-path fallbacks: %s\n", fbu);
	else
		fprintf(out, "lockless-path fallbacks of user faults: %llu while a writer held "
			"(charged below), %llu with none holding (counted only while a write "
			"hold was open)\n", t->fallbacks, t->fallbacks_free);
	for (unsigned int i = 0; i < nr && shown < 10; i++, shown++) {
		const struct fl_blame_row *x = &r[i];
		fl_u64 h = hold_ns(x);

		fl_blame_what(x, what, sizeof(what));
		fl_fmt_pct_of(a, sizeof(a), x->wait.sum, t->wait_all.sum);
		fl_fmt_ns(b, sizeof(b), x->wait.sum);
		fl_fmt_ns(c, sizeof(c), t->wait_all.sum);
		fl_fmt_ns(d, sizeof(d), per_sec(x->wait.sum, secs));
		fprintf(out, "\n%s of fault mmap_lock wait (%s of %s, %s per second) was behind %s "
			"from tid %u (%.16s)", a, b, c, d, what, x->tid, x->comm);
		if (x->hold.count) {
			fl_fmt_ns(a, sizeof(a), fl_hist_quantile_ppm(&x->hold, 500000));
			fl_fmt_ns(b, sizeof(b), fl_hist_quantile_ppm(&x->hold, 990000));
			fl_fmt_pct_of(c, sizeof(c), x->reclaim_ns, h);
			fprintf(out, ", holding for write %s p50 / %s p99, %s of it in direct reclaim",
				a, b, c);
		}
		fputc('\n', out);
		fl_fmt_ns(a, sizeof(a), x->wait.count ? fl_hist_quantile_ppm(&x->wait, 500000) : 0);
		fl_fmt_ns(b, sizeof(b), x->wait.count ? fl_hist_quantile_ppm(&x->wait, 990000) : 0);
		fprintf(out, "    faults delayed %llu (wait p50 %s, p99 %s; %llu began while the "
			"writer was still queued)", x->wait.count, a, b, x->behind_wait);
		if (fbu)
			fprintf(out, "; lockless-path fallbacks %s\n", fbu);
		else
			fprintf(out, " and %llu lockless-path fallbacks\n", x->fallbacks);
		fl_fmt_ns(a, sizeof(a), h);
		fprintf(out, "    write holds %llu, %s:", x->hold.count, a);
		fl_fmt_pct_of(a, sizeof(a), x->ns[BL_ST_ONCPU], h);
		fl_fmt_pct_of(b, sizeof(b), x->ns[BL_ST_RUNNABLE], h);
		fl_fmt_pct_of(c, sizeof(c), x->ns[BL_ST_SLEEP], h);
		fl_fmt_ns(d, sizeof(d), x->own_wait_ns);
		fprintf(out, " on-CPU %s, runnable %s, sleeping %s; its own wait for the lock %s\n",
			a, b, c, d);
		fl_blame_frames_str(x, fr, sizeof(fr), " < ");
		fprintf(out, "    kernel stack: %s\n", fr[0] ? fr : "(none)");
		if (i == 0 && x->wait.count)
			fl_print_log2_hist(out, &x->wait, "fault wait behind it");
		if (i == 0 && x->hold.count)
			fl_print_log2_hist(out, &x->hold, "its write holds");
	}
	if (!nr)
		fprintf(out, "no write holds of mmap_lock on the traced processes' mms\n");
	fprintf(out, "events: %s\n", fl_snapshot_tag(s, FL_TAG_BLAME_EVENTS) ?: "?");
	return ferror(out) ? -1 : 0;
}

int fl_report_blame_raw(const struct fl_snapshot *s, FILE *out)
{
	const char *fbu;
	const struct fl_blame_total *t = fl_snapshot_blame_total(s);
	const struct fl_blame_row *r;
	unsigned int nr = 0;
	char what[96], fr[FL_BLAME_FRAMES * (FL_SYM_LEN + 1)];
	fl_u64 blamed_ns = 0;

	r = fl_snapshot_blame(s, &nr);
	fprintf(out, "blame=%s\n", unavail(s));
	if (!t || !r)
		return ferror(out) ? -1 : 0;
	for (unsigned int i = 0; i < nr; i++)
		blamed_ns += r[i].wait.sum;
	fprintf(out, "blame.waits=%llu\nblame.wait_ns=%llu\nblame.blamed_waits=%llu\n"
		"blame.blamed_wait_ns=%llu\nblame.sites=%llu\nblame.rows=%u\n",
		t->wait_all.count, t->wait_all.sum, t->waits_blamed, blamed_ns, t->sites, nr);
	for (unsigned int i = 0; i < BL_M_NR; i++)
		if (fl_blame_event_name(i))
			fprintf(out, "blame.event.%s=%llu\n", fl_blame_event_name(i), t->misc[i]);
	if (fl_snapshot_tag(s, FL_TAG_BLAME_WRITES))	/* absent before it was tagged */
		fprintf(out, "blame.writes=%s\n", fl_snapshot_tag(s, FL_TAG_BLAME_WRITES));
	fbu = fl_blame_fb_unavail(s);
	if (fbu)
		fprintf(out, "blame.fallbacks=%s\n", fbu);
	else
		fprintf(out, "blame.fallbacks=%llu\nblame.fallbacks_free=%llu\n", t->fallbacks,
			t->fallbacks_free);
	for (unsigned int i = 0; i < nr; i++) {
		const struct fl_blame_row *x = &r[i];

		fl_blame_what(x, what, sizeof(what));
		fl_blame_frames_str(x, fr, sizeof(fr), "<");
		fprintf(out, "blame.row.%u.what=%s\nblame.row.%u.sysnr=%u\nblame.row.%u.kind=%s\n"
			"blame.row.%u.tid=%u\nblame.row.%u.comm=%.16s\n",
			i, what, i, x->sysnr, i, fl_blame_kind_name(x->kind), i, x->tid, i, x->comm);
		fprintf(out, "blame.row.%u.waits=%llu\nblame.row.%u.wait_ns=%llu\n"
			"blame.row.%u.wait_p99_ns=%llu\nblame.row.%u.behind_queued=%llu\n",
			i, x->wait.count, i, x->wait.sum, i, fl_hist_quantile_ppm(&x->wait, 990000),
			i, x->behind_wait);
		fprintf(out, "blame.row.%u.holds=%llu\nblame.row.%u.hold_ns=%llu\n"
			"blame.row.%u.hold_p50_ns=%llu\nblame.row.%u.hold_p99_ns=%llu\n"
			"blame.row.%u.own_wait_ns=%llu\n",
			i, x->hold.count, i, x->hold.sum, i, fl_hist_quantile_ppm(&x->hold, 500000),
			i, fl_hist_quantile_ppm(&x->hold, 990000), i, x->own_wait_ns);
		if (fbu)
			fprintf(out, "blame.row.%u.fallbacks=%s\n", i, fbu);
		else
			fprintf(out, "blame.row.%u.fallbacks=%llu\n", i, x->fallbacks);
		fprintf(out, "blame.row.%u.oncpu_ns=%llu\nblame.row.%u.runnable_ns=%llu\n"
			"blame.row.%u.sleep_ns=%llu\nblame.row.%u.reclaim_ns=%llu\n"
			"blame.row.%u.frames=%s\n",
			i, x->ns[BL_ST_ONCPU], i, x->ns[BL_ST_RUNNABLE], i, x->ns[BL_ST_SLEEP],
			i, x->reclaim_ns, i, fr);
	}
	return ferror(out) ? -1 : 0;
}
