// SPDX-License-Identifier: GPL-2.0
/*
 * Writers of the export model (export.h): JSON
 * (Documentation/faultline-snapshot.schema.json), CSV (one row per group,
 * metric and bucket) and bcc-style text histograms.  Prometheus is
 * export_prom.c.  Formats: Documentation/formats.rst.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blame_model.h"
#include "export.h"
#include "export_out.h"

static int counter_avail(const struct fl_snapshot *s, unsigned int id, const char **why)
{
	if (id == FL_C_MISSED) {
		*why = NULL;
		return 1;
	}
	return fl_figure_avail(s, fl_counter_figure(id), why) == FL_AVAIL_YES;
}

/* ---- json ---- */

static void json_hist(FILE *f, const struct fl_snapshot *s, unsigned int id, const struct fl_hist *h)
{
	static const struct { const char *k; unsigned int ppm; } q[] = {
		{ "p50", 500000 }, { "p90", 900000 }, { "p99", 990000 }, { "p999", 999000 },
	};
	const char *why;
	enum fl_avail a = fl_figure_avail(s, fl_hist_figure(id), &why);
	int first = 1;

	fprintf(f, "\"%s\":", fl_hist_name(id));
	if (a != FL_AVAIL_YES) {
		fprintf(f, "{\"available\":false,\"status\":\"%s\",\"reason\":",
			a == FL_AVAIL_ABSENT ? "absent" : "unavailable");
		fl_json_str(f, why);
		fputc('}', f);
		return;
	}
	fprintf(f, "{\"available\":true,\"unit\":\"ns\",\"count\":%llu,\"sum\":%llu",
		h->count, h->sum);
	if (h->count) {
		fprintf(f, ",\"min\":%llu,\"max\":%llu,\"mean\":", h->min, h->max);
		fl_json_num(f, (double)h->sum / h->count);
		for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++)
			fprintf(f, ",\"%s\":%llu", q[i].k, fl_hist_quantile_ppm(h, q[i].ppm));
	}
	fputs(",\"buckets\":[", f);
	for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		fprintf(f, "%s[%llu,%llu,%llu]", first ? "" : ",", fl_hist_lower(i),
			fl_hist_upper(i), h->buckets[i]);
		first = 0;
	}
	fputs("]}", f);
}

static void json_stats(FILE *f, const struct fl_snapshot *s, const struct fl_export_group *g,
		       const char *key)
{
	const char *why;
	int llok = fl_figure_avail(s, FL_FIG_LOCKLESS, &why) == FL_AVAIL_YES;

	fputc('{', f);
	if (key) {
		fprintf(f, "\"%s\":", key);
		if (g->id < 0)
			fputs("null", f);
		else
			fprintf(f, "%d", g->id);
		fputc(',', f);
	}
	fputs("\"cpus\":[", f);
	for (unsigned int i = 0; i < g->ncpus; i++)
		fprintf(f, "%s%u", i ? "," : "", g->cpus[i]);
	fputs("],\"counters\":{", f);
	for (unsigned int id = 0, n = 0; id < FL_C_NR; id++) {
		if (!fl_counter_known(id))
			continue;
		fprintf(f, "%s\"%s\":", n++ ? "," : "", fl_counter_name(id));
		if (counter_avail(s, id, &why))
			fprintf(f, "%llu", g->st.cnt[id]);
		else
			fputs("null", f);
	}
	fputs("},\"lockless\":{", f);
	for (unsigned int id = 0; id < FL_LL_NR; id++) {
		fprintf(f, "%s\"%s\":", id ? "," : "", fl_ll_name(id));
		if (llok)
			fprintf(f, "%llu", g->st.ll[id]);
		else
			fputs("null", f);
	}
	fputs("},\"histograms\":{", f);
	for (unsigned int id = 0; id < FL_H_NR; id++) {
		if (id)
			fputc(',', f);
		json_hist(f, s, id, &g->st.hist[id]);
	}
	fputs("}}", f);
}

static void json_kv_object(FILE *f, const char *text)
{
	int n = 0;

	fputc('{', f);
	for (const char *p = text; p && *p; ) {
		const char *eol = strchr(p, '\n'), *eq;

		if (!eol)
			eol = p + strlen(p);
		eq = memchr(p, '=', eol - p);
		if (eq && eq > p) {
			char *k = strndup(p, eq - p), *v = strndup(eq + 1, eol - eq - 1);

			if (k && v) {
				fputs(n++ ? "," : "", f);
				fl_json_str(f, k);
				fputc(':', f);
				fl_json_str(f, v);
			}
			free(k);
			free(v);
		}
		p = *eol ? eol + 1 : eol;
	}
	fputc('}', f);
}

static void json_blame_hist(FILE *f, const char *key, const struct fl_hist *h)
{
	fprintf(f, "\"%s\":{\"unit\":\"ns\",\"count\":%llu,\"sum\":%llu", key, h->count, h->sum);
	if (h->count)
		fprintf(f, ",\"min\":%llu,\"max\":%llu,\"p50\":%llu,\"p99\":%llu", h->min, h->max,
			fl_hist_quantile_ppm(h, 500000), fl_hist_quantile_ppm(h, 990000));
	fputc('}', f);
}

/* {"available":..,"holding":N,"free":N} or {"available":false,"reason":..} */
static void json_blame_fb(FILE *f, const char *fbu, fl_u64 held, fl_u64 free_)
{
	if (fbu) {
		fputs("{\"available\":false,\"reason\":", f);
		fl_json_str(f, fbu);
		fputc('}', f);
	} else {
		fprintf(f, "{\"available\":true,\"holding\":%llu,\"free\":%llu}", held, free_);
	}
}

/* `,"blame":{...}` for a snapshot that has the sections, else nothing. */
void fl_blame_json(FILE *f, const struct fl_snapshot *s)
{
	const char *fbu = fl_blame_fb_unavail(s);
	const struct fl_blame_total *t = fl_snapshot_blame_total(s);
	const struct fl_blame_row *r;
	unsigned int nr = 0;
	char what[96], comm[BL_COMM_LEN + 1], sym[FL_SYM_LEN + 1];

	r = fl_snapshot_blame(s, &nr);
	if (!t || !r) {
		if (fl_snapshot_tag(s, FL_TAG_BLAME)) {
			fputs(",\"blame\":{\"available\":false,\"reason\":", f);
			fl_json_str(f, fl_snapshot_tag(s, FL_TAG_BLAME));
			fputc('}', f);
		}
		return;
	}
	fputs(",\"blame\":{\"available\":true,", f);
	json_blame_hist(f, "fault_wait", &t->wait_all);
	fprintf(f, ",\"blamed_waits\":%llu,\"fallbacks\":", t->waits_blamed);
	json_blame_fb(f, fbu, t->fallbacks, t->fallbacks_free);
	fputs(",\"events\":{", f);
	for (unsigned int i = 0, n = 0; i < BL_M_NR; i++)
		if (fl_blame_event_name(i))
			fprintf(f, "%s\"%s\":%llu", n++ ? "," : "", fl_blame_event_name(i),
				t->misc[i]);
	fputs("},\"holders\":[", f);
	for (unsigned int i = 0; i < nr; i++) {
		const struct fl_blame_row *x = &r[i];

		fl_blame_what(x, what, sizeof(what));
		fprintf(f, "%s{\"what\":", i ? "," : "");
		fl_json_str(f, what);
		fprintf(f, ",\"kind\":\"%s\",\"sysnr\":", fl_blame_kind_name(x->kind));
		if (x->kind == FL_BLAME_SYSCALL)
			fprintf(f, "%u", x->sysnr);
		else
			fputs("null", f);
		fprintf(f, ",\"tid\":%u,\"comm\":", x->tid);
		fl_blame_comm(x, comm);
		fl_json_str(f, comm);
		fputc(',', f);
		json_blame_hist(f, "fault_wait", &x->wait);
		fprintf(f, ",\"behind_queued\":%llu,\"fallbacks\":", x->behind_wait);
		if (fbu)
			fputs("null", f);
		else
			fprintf(f, "%llu", x->fallbacks);
		fputc(',', f);
		json_blame_hist(f, "hold", &x->hold);
		fprintf(f, ",\"own_wait_ns\":%llu,\"oncpu_ns\":%llu,\"runnable_ns\":%llu,"
			"\"sleep_ns\":%llu,\"reclaim_ns\":%llu,\"frames\":[",
			x->own_wait_ns, x->ns[BL_ST_ONCPU], x->ns[BL_ST_RUNNABLE],
			x->ns[BL_ST_SLEEP], x->reclaim_ns);
		for (unsigned int k = 0; k < x->nframes && k < FL_BLAME_FRAMES; k++) {
			fl_blame_frame(x, k, sym);
			if (k)
				fputc(',', f);
			fl_json_str(f, sym);
		}
		fputs("]}", f);
	}
	fputs("]}", f);
}

void fl_export_json(FILE *f, const struct fl_export *e)
{
	fprintf(f, "{\"faultline_export\":1,\"by\":\"%s\",\"snapshots\":[", fl_export_by_name(e->by));
	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];
		const struct fl_snap_header *h = &es->s.hdr;
		char krel[FL_KREL_LEN + 1];
		int n;

		memcpy(krel, h->kernel_release, FL_KREL_LEN);
		krel[FL_KREL_LEN] = '\0';
		fprintf(f, "%s{\"run\":", k ? "," : "");
		fl_json_str(f, es->run);
		fputs(",\"source\":", f);
		fl_json_str(f, es->path);
		fprintf(f, ",\"version\":\"%u.%u\",\"backend\":\"%s\",\"tier\":\"%s\","
			"\"lockless_kind\":\"%s\",\"nr_cpus\":%u,\"t_start_ns\":%llu,"
			"\"t_end_ns\":%llu,\"duration_ns\":%llu,\"filter_tgid\":%u,\"flags\":%u,"
			"\"kernel_release\":", FL_SNAP_MAJOR(h->version), h->version & 0xffff,
			fl_backend_name(h->backend), fl_tier_name(h->tier),
			fl_ll_kind_name(h->lockless_kind), h->nr_cpus, h->t_start_ns, h->t_end_ns,
			h->duration_ns, h->filter_tgid, h->flags);
		fl_json_str(f, krel);
		fputs(",\"hooks\":{\"live\":[", f);
		n = 0;
		for (unsigned int i = 0; i < FL_HOOK_NR; i++)
			if (h->hooks_live & (1ULL << i))
				fprintf(f, "%s\"%s\"", n++ ? "," : "", fl_hook_name(i));
		fputs("],\"absent\":[", f);
		n = 0;
		for (unsigned int i = 0; i < FL_HOOK_NR; i++)
			if (h->hooks_absent & (1ULL << i))
				fprintf(f, "%s\"%s\"", n++ ? "," : "", fl_hook_name(i));
		fputs("]},\"figures\":{", f);
		for (size_t i = 0; i < FL_FIG_NR; i++) {
			const char *why;
			enum fl_avail a = fl_figure_avail(&es->s, fl_export_figs[i], &why);

			fprintf(f, "%s\"%s\":{\"available\":%s", i ? "," : "",
				fl_figure_key(fl_export_figs[i]), a == FL_AVAIL_YES ? "true" : "false");
			if (a != FL_AVAIL_YES) {
				fprintf(f, ",\"status\":\"%s\",\"reason\":",
					a == FL_AVAIL_ABSENT ? "absent" : "unavailable");
				fl_json_str(f, why);
			}
			fputc('}', f);
		}
		fputs("},\"tags\":", f);
		json_kv_object(f, es->s.tags);
		fputs(",\"groups\":[", f);
		if (e->by != FL_EXP_BY_TOTAL)
			for (unsigned int g = 0; g < es->ngroups; g++) {
				if (g)
					fputc(',', f);
				json_stats(f, &es->s, &es->groups[g], fl_export_by_name(e->by));
			}
		fputs("],\"total\":", f);
		json_stats(f, &es->s, &es->total, NULL);
		fl_blame_json(f, &es->s);
		fputs(",\"vmstat\":[", f);
		for (unsigned int v = 0; v < es->s.nr_vmstat; v++) {
			const struct fl_vmstat_entry *ve = &es->s.vmstat[v];
			char name[FL_NAME_LEN + 1];

			memcpy(name, ve->name, FL_NAME_LEN);
			name[FL_NAME_LEN] = '\0';
			fprintf(f, "%s{\"name\":", v ? "," : "");
			fl_json_str(f, name);
			fprintf(f, ",\"before\":%llu,\"after\":%llu,\"delta\":%lld}", ve->before,
				ve->after, (long long)(ve->after - ve->before));
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
}

/* ---- csv ---- */

/* Where rows go: one snapshot, one "by" and "group" column pair. */
struct csv_at {
	FILE *f;
	const struct fl_export_snap *es;
	const char *by, *group;
};

static void csv_put(const struct csv_at *at, const char *metric, const char *kind,
		    const char *lower, const char *upper, const char *value, const char *note)
{
	char krel[FL_KREL_LEN + 1];

	memcpy(krel, at->es->s.hdr.kernel_release, FL_KREL_LEN);
	krel[FL_KREL_LEN] = '\0';
	fl_csv_str(at->f, at->es->run);
	fputc(',', at->f);
	fl_csv_str(at->f, krel);
	fprintf(at->f, ",%s,%s,%s,%s,%s,%s,%s,", at->by, at->group, metric, kind, lower, upper,
		value);
	fl_csv_str(at->f, note);
	fputc('\n', at->f);
}

/* The by / group columns of group g of es. */
static void csv_at_group(struct csv_at *at, char id[16], FILE *f, const struct fl_export *e,
			 const struct fl_export_snap *es, const struct fl_export_group *g)
{
	*at = (struct csv_at){ f, es, g == &es->total ? "total" : fl_export_by_name(e->by), id };
	if (g == &es->total)
		snprintf(id, 16, "all");
	else if (g->id < 0)
		snprintf(id, 16, "unknown");
	else
		snprintf(id, 16, "%d", g->id);
}

/* A histogram: count, sum, min, max (when not empty), every non-empty bucket. */
static void csv_hist(const struct csv_at *at, const char *name, const struct fl_hist *h)
{
	char v[32], lo[32], hi[32];

	snprintf(v, sizeof(v), "%llu", h->count);
	csv_put(at, name, "count", "", "", v, "ns");
	snprintf(v, sizeof(v), "%llu", h->sum);
	csv_put(at, name, "sum", "", "", v, "ns");
	if (h->count) {
		snprintf(v, sizeof(v), "%llu", h->min);
		csv_put(at, name, "min", "", "", v, "ns");
		snprintf(v, sizeof(v), "%llu", h->max);
		csv_put(at, name, "max", "", "", v, "ns");
	}
	for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		snprintf(lo, sizeof(lo), "%llu", fl_hist_lower(i));
		snprintf(hi, sizeof(hi), "%llu", fl_hist_upper(i));
		snprintf(v, sizeof(v), "%llu", h->buckets[i]);
		csv_put(at, name, "bucket", lo, hi, v, "ns");
	}
}

static void csv_u64(const struct csv_at *at, const char *metric, const char *kind,
		    unsigned long long x, const char *note)
{
	char v[32];

	snprintf(v, sizeof(v), "%llu", x);
	csv_put(at, metric, kind, "", "", v, note);
}

/*
 * record --blame (Documentation/formats.rst, CSV): by "blame", group "all"
 * for the totals, the row's rank for each holder call site.
 */
static void csv_blame(FILE *f, const struct fl_export_snap *es)
{
	static const char *const st[BL_ST_NR] = {
		"blame_hold_oncpu", "blame_hold_runnable", "blame_hold_sleeping",
	};
	const struct fl_blame_total *t = fl_snapshot_blame_total(&es->s);
	const struct fl_blame_row *r;
	struct csv_at at = { f, es, "blame", "all" };
	char id[16], buf[FL_BLAME_FRAMES * (FL_SYM_LEN + 1)], comm[BL_COMM_LEN + 1];
	const char *fbu;
	unsigned int nr = 0;

	r = fl_snapshot_blame(&es->s, &nr);
	if (!t || !r) {
		/* recorded without --blame: nothing, as json; unavailable: say why */
		if (fl_snapshot_tag(&es->s, FL_TAG_BLAME))
			csv_put(&at, "blame_fault_wait", "count", "", "", "",
				fl_snapshot_tag(&es->s, FL_TAG_BLAME));
		return;
	}
	csv_hist(&at, "blame_fault_wait", &t->wait_all);
	csv_u64(&at, "blame_blamed_waits", "counter", t->waits_blamed, "");
	csv_u64(&at, "blame_sites", "counter", t->sites, "");
	fbu = fl_blame_fb_unavail(&es->s);
	if (fbu) {
		csv_put(&at, "blame_fallbacks", "counter", "", "", "", fbu);
	} else {
		csv_u64(&at, "blame_fallbacks", "counter", t->fallbacks, "");
		csv_u64(&at, "blame_fallbacks_free", "counter", t->fallbacks_free, "");
	}
	for (unsigned int i = 0; i < BL_M_NR; i++)
		if (fl_blame_event_name(i)) {
			snprintf(buf, sizeof(buf), "blame_event_%s", fl_blame_event_name(i));
			csv_u64(&at, buf, "counter", t->misc[i], "");
		}
	at.group = id;
	for (unsigned int i = 0; i < nr; i++) {
		const struct fl_blame_row *x = &r[i];

		snprintf(id, sizeof(id), "%u", i);
		fl_blame_what(x, buf, sizeof(buf));
		csv_put(&at, "blame_what", "label", "", "", "", buf);
		fl_blame_comm(x, comm);
		csv_put(&at, "blame_comm", "label", "", "", "", comm);
		csv_put(&at, "blame_kind", "label", "", "", "", fl_blame_kind_name(x->kind));
		fl_blame_frames_str(x, buf, sizeof(buf), "<");
		csv_put(&at, "blame_frames", "label", "", "", "", buf);
		if (x->kind == FL_BLAME_SYSCALL)
			csv_u64(&at, "blame_sysnr", "id", x->sysnr, "");
		csv_u64(&at, "blame_tid", "id", x->tid, "");
		csv_hist(&at, "blame_fault_wait", &x->wait);
		csv_u64(&at, "blame_behind_queued", "counter", x->behind_wait, "");
		if (!fbu)
			csv_u64(&at, "blame_fallbacks", "counter", x->fallbacks, "");
		csv_hist(&at, "blame_hold", &x->hold);
		for (unsigned int z = 0; z < BL_ST_NR; z++)
			csv_u64(&at, st[z], "sum", x->ns[z], "ns");
		csv_u64(&at, "blame_hold_reclaim", "sum", x->reclaim_ns, "ns");
		csv_u64(&at, "blame_own_wait", "sum", x->own_wait_ns, "ns");
	}
}

static void csv_group(FILE *f, const struct fl_export *e, const struct fl_export_snap *es,
		      const struct fl_export_group *g)
{
	const struct fl_snapshot *s = &es->s;
	char v[32], note[300], id[16];
	struct csv_at at;
	const char *why;
	enum fl_avail a;

	csv_at_group(&at, id, f, e, es, g);
	for (unsigned int id = 0; id < FL_C_NR; id++) {
		if (!fl_counter_known(id))
			continue;
		if (counter_avail(s, id, &why)) {
			snprintf(v, sizeof(v), "%llu", g->st.cnt[id]);
			csv_put(&at, fl_counter_name(id), "counter", "", "", v, "");
		} else {
			a = fl_figure_avail(s, fl_counter_figure(id), &why);
			fl_fmt_unavail(note, sizeof(note), a, why);
			csv_put(&at, fl_counter_name(id), "counter", "", "", "", note);
		}
	}
	a = fl_figure_avail(s, FL_FIG_LOCKLESS, &why);
	fl_fmt_unavail(note, sizeof(note), a, why);
	for (unsigned int id = 0; id < FL_LL_NR; id++) {
		snprintf(v, sizeof(v), "%llu", g->st.ll[id]);
		csv_put(&at, fl_ll_name(id), "counter", "", "", a == FL_AVAIL_YES ? v : "",
			a == FL_AVAIL_YES ? "" : note);
	}
	for (unsigned int id = 0; id < FL_H_NR; id++) {
		a = fl_figure_avail(s, fl_hist_figure(id), &why);
		if (a != FL_AVAIL_YES) {
			fl_fmt_unavail(note, sizeof(note), a, why);
			csv_put(&at, fl_hist_name(id), "count", "", "", "", note);
			continue;
		}
		csv_hist(&at, fl_hist_name(id), &g->st.hist[id]);
	}
}

void fl_export_csv(FILE *f, const struct fl_export *e)
{
	fputs("run,kernel,by,group,metric,kind,lower,upper,value,note\n", f);
	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];
		struct csv_at at;
		char id[16];

		if (e->by != FL_EXP_BY_TOTAL)
			for (unsigned int g = 0; g < es->ngroups; g++)
				csv_group(f, e, es, &es->groups[g]);
		csv_group(f, e, es, &es->total);
		csv_at_group(&at, id, f, e, es, &es->total);
		for (unsigned int v = 0; v < es->s.nr_vmstat; v++) {
			char name[FL_NAME_LEN + 1], val[32];

			memcpy(name, es->s.vmstat[v].name, FL_NAME_LEN);
			name[FL_NAME_LEN] = '\0';
			snprintf(val, sizeof(val), "%lld",
				 (long long)(es->s.vmstat[v].after - es->s.vmstat[v].before));
			csv_put(&at, name, "vmstat_delta", "", "", val, "");
		}
		csv_blame(f, es);
	}
}

/* ---- text ---- */

static void text_group(FILE *f, const struct fl_export *e, const struct fl_export_snap *es,
		       const struct fl_export_group *g)
{
	char title[128], buf[300];
	const char *why;
	enum fl_avail a;

	if (g == &es->total)
		fprintf(f, "\n== all CPUs (%u) ==\n", g->ncpus);
	else if (g->id < 0)
		fprintf(f, "\n== %s unknown (%u CPUs) ==\n", fl_export_by_name(e->by), g->ncpus);
	else
		fprintf(f, "\n== %s %d (%u CPU%s) ==\n", fl_export_by_name(e->by), g->id, g->ncpus,
			g->ncpus == 1 ? "" : "s");
	for (unsigned int id = 0; id < FL_C_NR; id++) {
		if (!fl_counter_known(id))
			continue;
		if (counter_avail(&es->s, id, &why)) {
			fprintf(f, "%-26s %llu\n", fl_counter_name(id), g->st.cnt[id]);
		} else {
			a = fl_figure_avail(&es->s, fl_counter_figure(id), &why);
			fl_fmt_unavail(buf, sizeof(buf), a, why);
			fprintf(f, "%-26s %s\n", fl_counter_name(id), buf);
		}
	}
	a = fl_figure_avail(&es->s, FL_FIG_LOCKLESS, &why);
	fl_fmt_unavail(buf, sizeof(buf), a, why);
	for (unsigned int id = 0; id < FL_LL_NR; id++) {
		if (a == FL_AVAIL_YES)
			fprintf(f, "%-26s %llu\n", fl_ll_name(id), g->st.ll[id]);
		else if (!id)
			fprintf(f, "%-26s %s\n", "lockless", buf);
	}
	for (unsigned int id = 0; id < FL_H_NR; id++) {
		const struct fl_hist *h = &g->st.hist[id];

		a = fl_figure_avail(&es->s, fl_hist_figure(id), &why);
		if (a != FL_AVAIL_YES) {
			fl_fmt_unavail(buf, sizeof(buf), a, why);
			fprintf(f, "\n%s: %s\n", fl_hist_name(id), buf);
			continue;
		}
		if (!h->count) {
			fprintf(f, "\n%s: no events\n", fl_hist_name(id));
			continue;
		}
		snprintf(title, sizeof(title), "%s", fl_hist_name(id));
		fputc('\n', f);
		fl_print_log2_hist(f, h, title);
	}
}

void fl_export_text(FILE *f, const struct fl_export *e)
{
	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];
		char krel[FL_KREL_LEN + 1];

		memcpy(krel, es->s.hdr.kernel_release, FL_KREL_LEN);
		krel[FL_KREL_LEN] = '\0';
		fprintf(f, "%s# %s: kernel %s, backend %s, tier %s, lockless path %s, %.3f s\n",
			k ? "\n" : "", es->run, krel, fl_backend_name(es->s.hdr.backend),
			fl_tier_name(es->s.hdr.tier), fl_ll_kind_name(es->s.hdr.lockless_kind),
			es->s.hdr.duration_ns / 1e9);
		if (e->by != FL_EXP_BY_TOTAL)
			for (unsigned int g = 0; g < es->ngroups; g++)
				text_group(f, e, es, &es->groups[g]);
		text_group(f, e, es, &es->total);
	}
}

