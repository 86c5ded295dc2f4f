// SPDX-License-Identifier: GPL-2.0
/*
 * faultline export --format json|csv|prom|text [--by cpu|llc|node|total] FILE|DIR
 * Snapshots as JSON (Documentation/faultline-snapshot.schema.json), CSV
 * (one row per group, metric and bucket), Prometheus text exposition
 * (export_prom.c) or bcc-style text histograms.  Formats:
 * Documentation/formats.rst.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "export.h"
#include "export_out.h"
#include "pftlog.h"

const char *fl_export_by_name(enum fl_export_by by)
{
	static const char *const n[] = { "cpu", "llc", "node", "total" };

	return by <= FL_EXP_BY_TOTAL ? n[by] : "?";
}

enum fl_figure fl_hist_figure(unsigned int id)
{
	switch (id) {
	case FL_H_FAULT_LAT:
		return FL_FIG_LATENCY;
	case FL_H_HMF:
		return FL_FIG_HMF_TIME;
	case FL_H_MMAP_CONTEND:
		return FL_FIG_CONTENTION;
	default:
		return FL_FIG_MMAP;
	}
}

enum fl_figure fl_counter_figure(unsigned int id)
{
	switch (id) {
	case FL_C_FAULTS_USER:
	case FL_C_FAULTS_KERNEL:
		return FL_FIG_FAULTS;
	case FL_C_FAULTS_ENDED:
	case FL_C_FAULTS_UNHANDLED:
		return FL_FIG_LATENCY;
	case FL_C_HMF_CALLS:
		return FL_FIG_HMF;
	case FL_C_MMAP_CONTENDED:
		return FL_FIG_CONTENTION;
	case FL_C_MMAP_TRYLOCK_FAIL:
		return FL_FIG_MMAP;
	default:
		return FL_FIG_FAULTS;	/* FL_C_MISSED: always reported */
	}
}

int fl_counter_known(unsigned int id)
{
	return id < FL_C_NR && strcmp(fl_counter_name(id), "unknown");
}

static int counter_avail(const struct fl_snapshot *s, unsigned int id, const char **why)
{
	if (id == FL_C_MISSED) {
		*why = NULL;
		return 1;
	}
	return fl_figure_avail(s, fl_counter_figure(id), why) == FL_AVAIL_YES;
}

static int group_add(struct fl_export_group *g, unsigned int cpu, const struct fl_cpu_stats *st)
{
	unsigned int *n = realloc(g->cpus, (g->ncpus + 1) * sizeof(*n));

	if (!n)
		return -1;
	g->cpus = n;
	g->cpus[g->ncpus++] = cpu;
	fl_cpu_stats_add(&g->st, st);
	return 0;
}

static int cpu_active(const struct fl_snapshot *s, unsigned int c)
{
	const struct fl_cpu_stats *st = &s->cpus[c];

	if (!s->cpu_online || s->cpu_online[c])
		return 1;
	for (int i = 0; i < FL_C_NR; i++)
		if (st->cnt[i])
			return 1;
	for (int i = 0; i < FL_H_NR; i++)
		if (st->hist[i].count)
			return 1;
	return 0;
}

int fl_export_group(struct fl_export_snap *es, enum fl_export_by by, const char *topo_root,
		    char *err, size_t errlen)
{
	const struct fl_snapshot *s = &es->s;
	struct fl_topology t = { 0 };
	int have_topo = 0;

	memset(&es->total, 0, sizeof(es->total));
	es->total.id = -1;
	if (by == FL_EXP_BY_LLC || by == FL_EXP_BY_NODE) {
		size_t len = s->tags ? strlen(s->tags) + 1 : 1;
		char *llc = malloc(len), *node = malloc(len);
		const char *l = NULL, *n = NULL;

		if (!llc || !node) {
			free(llc);
			free(node);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (s->tags) {
			l = fl_kv_get(s->tags, "topology_llc", llc, len);
			n = fl_kv_get(s->tags, "topology_node", node, len);
		}
		if ((by == FL_EXP_BY_LLC ? l : n) &&
		    !fl_topology_from_tags(l, n, s->hdr.nr_cpus, &t, err, errlen)) {
			have_topo = 1;
		} else if (topo_root) {
			if (fl_topology_read(topo_root, &t, err, errlen)) {
				free(llc);
				free(node);
				return -1;
			}
			have_topo = 1;
		} else {
			if (!(by == FL_EXP_BY_LLC ? l : n))
				snprintf(err, errlen, "%s: no topology_%s tag (recorded without "
					 "topology); --topology-root / uses this machine's sysfs",
					 es->path, fl_export_by_name(by));
			free(llc);
			free(node);
			return -1;
		}
		free(llc);
		free(node);
	}
	for (unsigned int c = 0; c < s->hdr.nr_cpus; c++) {
		int id;
		unsigned int g;

		if (!cpu_active(s, c))
			continue;
		if (group_add(&es->total, c, &s->cpus[c]))
			goto oom;
		if (by == FL_EXP_BY_TOTAL)
			continue;
		id = by == FL_EXP_BY_CPU ? (int)c :
		     c < t.nr_cpus ? (by == FL_EXP_BY_LLC ? t.cpu[c].llc : t.cpu[c].node) : -1;
		for (g = 0; g < es->ngroups && es->groups[g].id != id; g++)
			;
		if (g == es->ngroups) {
			struct fl_export_group *ng = realloc(es->groups, (g + 1) * sizeof(*ng));

			if (!ng)
				goto oom;
			es->groups = ng;
			memset(&ng[g], 0, sizeof(ng[g]));
			ng[g].id = id;
			es->ngroups++;
		}
		if (group_add(&es->groups[g], c, &s->cpus[c]))
			goto oom;
	}
	/* ascending id, unknown (-1) last */
	for (unsigned int i = 1; i < es->ngroups; i++)
		for (unsigned int j = i; j > 0; j--) {
			struct fl_export_group *a = &es->groups[j - 1], *b = &es->groups[j], tmp;
			unsigned int ka = (unsigned int)a->id, kb = (unsigned int)b->id;

			if (ka <= kb)
				break;
			tmp = *a;
			*a = *b;
			*b = tmp;
		}
	if (have_topo)
		fl_topology_free(&t);
	return 0;
oom:
	if (have_topo)
		fl_topology_free(&t);
	snprintf(err, errlen, "out of memory");
	return -1;
}

static void free_snap(struct fl_export_snap *es)
{
	for (unsigned int g = 0; g < es->ngroups; g++)
		free(es->groups[g].cpus);
	free(es->groups);
	free(es->total.cpus);
	fl_snapshot_free(&es->s);
	free(es->run);
	free(es->path);
}

/* ---- loading ---- */

static int add_snap(struct fl_export *e, const char *path, const char *run,
		    const char *topo_root, char *err, size_t errlen)
{
	struct fl_export_snap *n = realloc(e->snaps, (e->nsnaps + 1) * sizeof(*n)), *es;
	char why[400];

	if (!n) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	e->snaps = n;
	es = &n[e->nsnaps];
	memset(es, 0, sizeof(*es));
	if (fl_snapshot_read_file(path, &es->s, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	es->path = strdup(path);
	es->run = strdup(run);
	e->nsnaps++;
	if (!es->path || !es->run) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return fl_export_group(es, e->by, topo_root, err, errlen);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIR/NAME.snap and DIR/snap/NAME.snap, sorted; run = NAME */
static int add_dir(struct fl_export *e, const char *dir, const char *topo_root,
		   char *err, size_t errlen)
{
	static const char *const subs[] = { "", "/snap" };
	char **names = NULL;
	unsigned int n = 0;
	int rc = 0;

	for (int k = 0; k < 2; k++) {
		char path[4096];
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "%s%s", dir, subs[k]);
		d = opendir(path);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			size_t l = strlen(de->d_name);
			char **nn;

			if (l <= 5 || strcmp(de->d_name + l - 5, ".snap"))
				continue;
			nn = realloc(names, (n + 1) * sizeof(*nn));
			if (!nn || asprintf(&nn[n], "%s%s%s", k ? "snap/" : "", "", de->d_name) < 0) {
				names = nn ? nn : names;
				closedir(d);
				snprintf(err, errlen, "out of memory");
				rc = -1;
				goto out;
			}
			names = nn;
			n++;
		}
		closedir(d);
	}
	if (!n) {
		snprintf(err, errlen, "%s: no *.snap files (nor in %s/snap)", dir, dir);
		return -1;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (unsigned int i = 0; i < n && !rc; i++) {
		char path[4096], run[512];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		/* run label: the file name without .snap (snap/ of a sweep dropped) */
		const char *base = strncmp(names[i], "snap/", 5) ? names[i] : names[i] + 5;

		snprintf(run, sizeof(run), "%.*s", (int)strlen(base) - 5, base);
		for (unsigned int k = 0; k < e->nsnaps; k++)
			if (!strcmp(e->snaps[k].run, run))	/* DIR/x.snap and DIR/snap/x.snap */
				snprintf(run, sizeof(run), "%.*s", (int)strlen(names[i]) - 5,
					 names[i]);
		rc = add_snap(e, path, run, topo_root, err, errlen);
	}
out:
	for (unsigned int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
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

static void print_json(FILE *f, const struct fl_export *e)
{
	static const enum fl_figure figs[] = {
		FL_FIG_FAULTS, FL_FIG_LATENCY, FL_FIG_HMF, FL_FIG_HMF_TIME, FL_FIG_LOCKLESS,
		FL_FIG_MMAP, FL_FIG_CONTENTION, FL_FIG_VMSTAT,
	};
	static const char *const fign[] = {
		[FL_FIG_FAULTS] = "faults", [FL_FIG_LATENCY] = "latency", [FL_FIG_HMF] = "hmf",
		[FL_FIG_HMF_TIME] = "hmf_time",
		[FL_FIG_LOCKLESS] = "lockless", [FL_FIG_MMAP] = "mmap_lock",
		[FL_FIG_CONTENTION] = "contention", [FL_FIG_VMSTAT] = "vmstat",
	};

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
		for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
			const char *why;
			enum fl_avail a = fl_figure_avail(&es->s, figs[i], &why);

			fprintf(f, "%s\"%s\":{\"available\":%s", i ? "," : "", fign[figs[i]],
				a == FL_AVAIL_YES ? "true" : "false");
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

static void csv_row(FILE *f, const struct fl_export *e, const struct fl_export_snap *es,
		    const struct fl_export_group *g, const char *metric, const char *kind,
		    const char *lower, const char *upper, const char *value, const char *note)
{
	char krel[FL_KREL_LEN + 1];

	memcpy(krel, es->s.hdr.kernel_release, FL_KREL_LEN);
	krel[FL_KREL_LEN] = '\0';
	fl_csv_str(f, es->run);
	fputc(',', f);
	fl_csv_str(f, krel);
	fprintf(f, ",%s,", g == &es->total ? "total" : fl_export_by_name(e->by));
	if (g == &es->total)
		fputs("all", f);
	else if (g->id < 0)
		fputs("unknown", f);
	else
		fprintf(f, "%d", g->id);
	fprintf(f, ",%s,%s,%s,%s,%s,", metric, kind, lower, upper, value);
	fl_csv_str(f, note);
	fputc('\n', f);
}

static void csv_group(FILE *f, const struct fl_export *e, const struct fl_export_snap *es,
		      const struct fl_export_group *g)
{
	const struct fl_snapshot *s = &es->s;
	char v[32], lo[32], hi[32], note[300];
	const char *why;
	enum fl_avail a;

	for (unsigned int id = 0; id < FL_C_NR; id++) {
		if (!fl_counter_known(id))
			continue;
		if (counter_avail(s, id, &why)) {
			snprintf(v, sizeof(v), "%llu", g->st.cnt[id]);
			csv_row(f, e, es, g, fl_counter_name(id), "counter", "", "", v, "");
		} else {
			a = fl_figure_avail(s, fl_counter_figure(id), &why);
			fl_fmt_unavail(note, sizeof(note), a, why);
			csv_row(f, e, es, g, fl_counter_name(id), "counter", "", "", "", note);
		}
	}
	a = fl_figure_avail(s, FL_FIG_LOCKLESS, &why);
	fl_fmt_unavail(note, sizeof(note), a, why);
	for (unsigned int id = 0; id < FL_LL_NR; id++) {
		snprintf(v, sizeof(v), "%llu", g->st.ll[id]);
		csv_row(f, e, es, g, fl_ll_name(id), "counter", "", "", a == FL_AVAIL_YES ? v : "",
			a == FL_AVAIL_YES ? "" : note);
	}
	for (unsigned int id = 0; id < FL_H_NR; id++) {
		const struct fl_hist *h = &g->st.hist[id];

		a = fl_figure_avail(s, fl_hist_figure(id), &why);
		if (a != FL_AVAIL_YES) {
			fl_fmt_unavail(note, sizeof(note), a, why);
			csv_row(f, e, es, g, fl_hist_name(id), "count", "", "", "", note);
			continue;
		}
		snprintf(v, sizeof(v), "%llu", h->count);
		csv_row(f, e, es, g, fl_hist_name(id), "count", "", "", v, "ns");
		snprintf(v, sizeof(v), "%llu", h->sum);
		csv_row(f, e, es, g, fl_hist_name(id), "sum", "", "", v, "ns");
		if (h->count) {
			snprintf(v, sizeof(v), "%llu", h->min);
			csv_row(f, e, es, g, fl_hist_name(id), "min", "", "", v, "ns");
			snprintf(v, sizeof(v), "%llu", h->max);
			csv_row(f, e, es, g, fl_hist_name(id), "max", "", "", v, "ns");
		}
		for (unsigned int i = 0; i < FL_HIST_NBUCKETS; i++) {
			if (!h->buckets[i])
				continue;
			snprintf(lo, sizeof(lo), "%llu", fl_hist_lower(i));
			snprintf(hi, sizeof(hi), "%llu", fl_hist_upper(i));
			snprintf(v, sizeof(v), "%llu", h->buckets[i]);
			csv_row(f, e, es, g, fl_hist_name(id), "bucket", lo, hi, v, "ns");
		}
	}
}

static void print_csv(FILE *f, const struct fl_export *e)
{
	fputs("run,kernel,by,group,metric,kind,lower,upper,value,note\n", f);
	for (unsigned int k = 0; k < e->nsnaps; k++) {
		const struct fl_export_snap *es = &e->snaps[k];

		if (e->by != FL_EXP_BY_TOTAL)
			for (unsigned int g = 0; g < es->ngroups; g++)
				csv_group(f, e, es, &es->groups[g]);
		csv_group(f, e, es, &es->total);
		for (unsigned int v = 0; v < es->s.nr_vmstat; v++) {
			char name[FL_NAME_LEN + 1], val[32];

			memcpy(name, es->s.vmstat[v].name, FL_NAME_LEN);
			name[FL_NAME_LEN] = '\0';
			snprintf(val, sizeof(val), "%lld",
				 (long long)(es->s.vmstat[v].after - es->s.vmstat[v].before));
			csv_row(f, e, es, &es->total, name, "vmstat_delta", "", "", val, "");
		}
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

static void print_text(FILE *f, const struct fl_export *e)
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

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline export --format json|csv|prom|text [OPTIONS] FILE|DIR\n"
"  FILE: a snapshot; DIR: every DIR/*.snap and DIR/snap/*.snap (record -o DIR/,\n"
"  pft-sweep results)\n"
"  -f, --format FMT        json (default), csv, prom, text\n"
"  -b, --by cpu|llc|node|total  group CPUs (default cpu); llc/node use the\n"
"                          snapshot's topology tags\n"
"      --topology-root DIR sysfs root for llc/node when a snapshot has no topology\n"
"                          tags (\"/\" = this machine)\n"
"      --run NAME          run label of a single FILE (default: its name)\n"
"  -o, --output FILE       write atomically to FILE instead of stdout\n");
}

int parse_export_args(int argc, char **argv, struct fl_export_args *a, char *err, size_t errlen)
{
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "by", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "topology-root", required_argument, NULL, 1 },
		{ "run", required_argument, NULL, 2 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int opt;

	*a = (struct fl_export_args){ .fmt = FL_EXP_FMT_JSON, .by = FL_EXP_BY_CPU };
	err[0] = '\0';
	optind = 0;
	while ((opt = getopt_long(argc, argv, "f:b:o:h", lo, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "json"))
				a->fmt = FL_EXP_FMT_JSON;
			else if (!strcmp(optarg, "csv"))
				a->fmt = FL_EXP_FMT_CSV;
			else if (!strcmp(optarg, "prom"))
				a->fmt = FL_EXP_FMT_PROM;
			else if (!strcmp(optarg, "text"))
				a->fmt = FL_EXP_FMT_TEXT;
			else
				return fl_args_bad(err, errlen, "unknown format '%s' "
					"(json, csv, prom, text)", optarg);
			break;
		case 'b':
			if (!strcmp(optarg, "cpu"))
				a->by = FL_EXP_BY_CPU;
			else if (!strcmp(optarg, "llc"))
				a->by = FL_EXP_BY_LLC;
			else if (!strcmp(optarg, "node"))
				a->by = FL_EXP_BY_NODE;
			else if (!strcmp(optarg, "total"))
				a->by = FL_EXP_BY_TOTAL;
			else
				return fl_args_bad(err, errlen, "--by wants cpu, llc, node or "
					"total, got '%s'", optarg);
			break;
		case 'o':
			a->out = optarg;
			break;
		case 1:
			a->topo_root = optarg;
			break;
		case 2:
			a->run = optarg;
			break;
		case 'h':
			return FL_ARGS_HELP;
		default:
			return FL_ARGS_BAD;
		}
	}
	if (argc - optind != 1)
		return FL_ARGS_BAD;
	a->in = argv[optind];
	return FL_ARGS_RUN;
}

int cmd_export(int argc, char **argv)
{
	struct fl_export_args a;
	struct fl_export e = { 0 };
	struct fl_out o;
	struct stat st;
	char err[600];
	int rc;

	rc = fl_args_exit(parse_export_args(argc, argv, &a, err, sizeof(err)), "export", err,
			  usage);
	if (rc >= 0)
		return rc;
	e.by = a.by;
	if (stat(a.in, &st)) {
		fprintf(stderr, "faultline export: %s: %s\n", a.in, strerror(errno));
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		if (a.run) {
			fprintf(stderr, "faultline export: --run applies to a single FILE\n");
			return 2;
		}
		rc = add_dir(&e, a.in, a.topo_root, err, sizeof(err));
	} else {
		char name[512];
		const char *b = strrchr(a.in, '/');
		size_t l;

		snprintf(name, sizeof(name), "%s", b ? b + 1 : a.in);
		l = strlen(name);
		if (l > 5 && !strcmp(name + l - 5, ".snap"))
			name[l - 5] = '\0';
		rc = add_snap(&e, a.in, a.run ? a.run : name, a.topo_root, err, sizeof(err));
	}
	if (!rc && !(rc = fl_out_open(&o, a.out))) {
		switch (a.fmt) {
		case FL_EXP_FMT_JSON:
			print_json(o.f, &e);
			break;
		case FL_EXP_FMT_CSV:
			print_csv(o.f, &e);
			break;
		case FL_EXP_FMT_PROM:
			fl_export_prom(o.f, &e);
			break;
		case FL_EXP_FMT_TEXT:
			print_text(o.f, &e);
			break;
		}
		rc = fl_out_commit(&o);
	} else if (rc) {
		fprintf(stderr, "faultline export: %s\n", err);
	}
	for (unsigned int k = 0; k < e.nsnaps; k++)
		free_snap(&e.snaps[k]);
	free(e.snaps);
	return rc ? 1 : 0;
}
