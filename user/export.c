// SPDX-License-Identifier: GPL-2.0
/*
 * The export model behind `faultline export`: snapshots loaded from a FILE or
 * a DIR, their CPUs grouped per CPU, LLC domain or NUMA node (export.h).  The
 * writers are export_fmt.c (json, csv, text) and export_prom.c (Prometheus);
 * cmd_export.c parses the arguments.  Formats: Documentation/formats.rst.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "export.h"
#include "kv.h"

static const char *const fl_export_by_names[] = { "cpu", "llc", "node", "total" };

const char *fl_export_by_name(enum fl_export_by by)
{
	return by <= FL_EXP_BY_TOTAL ? fl_export_by_names[by] : "?";
}

int fl_export_by_parse(const char *s, enum fl_export_by *by)
{
	for (unsigned int i = 0; i <= FL_EXP_BY_TOTAL; i++)
		if (!strcmp(s, fl_export_by_names[i])) {
			*by = i;
			return 0;
		}
	return -1;
}

const enum fl_figure fl_export_figs[FL_FIG_NR] = {
	FL_FIG_FAULTS, FL_FIG_LATENCY, FL_FIG_HMF, FL_FIG_HMF_TIME, FL_FIG_LOCKLESS,
	FL_FIG_LL_WHY, FL_FIG_MMAP, FL_FIG_CONTENTION, FL_FIG_VMSTAT,
};

const char *fl_figure_key(enum fl_figure fig)
{
	static const char *const n[FL_FIG_NR] = {
		[FL_FIG_FAULTS] = "faults", [FL_FIG_LATENCY] = "latency", [FL_FIG_HMF] = "hmf",
		[FL_FIG_HMF_TIME] = "hmf_time",
		[FL_FIG_LOCKLESS] = "lockless", [FL_FIG_LL_WHY] = "lockless_why",
		[FL_FIG_MMAP] = "mmap_lock",
		[FL_FIG_CONTENTION] = "contention", [FL_FIG_VMSTAT] = "vmstat",
	};

	return fig < FL_FIG_NR && n[fig] ? n[fig] : "?";
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
	if (FL_C_IS_LLW(id))
		return FL_FIG_LL_WHY;
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
			return fl_fail(err, errlen, "out of memory");
		}
		if (s->tags) {
			l = fl_kv_get(s->tags, FL_TAG_TOPOLOGY_LLC, llc, len);
			n = fl_kv_get(s->tags, FL_TAG_TOPOLOGY_NODE, node, len);
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
				fl_fail(err, errlen, "%s: no topology_%s tag (recorded without "
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
	return fl_fail(err, errlen, "out of memory");
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

	if (!n)
		return fl_fail(err, errlen, "out of memory");
	e->snaps = n;
	es = &n[e->nsnaps];
	memset(es, 0, sizeof(*es));
	if (fl_snapshot_read_file(path, &es->s, why, sizeof(why)))
		return fl_fail(err, errlen, "%s", why);
	es->path = strdup(path);
	es->run = strdup(run);
	e->nsnaps++;
	if (!es->path || !es->run)
		return fl_fail(err, errlen, "out of memory");
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
		char path[4096], **in, **nn;
		unsigned int nin;

		snprintf(path, sizeof(path), "%s%s", dir, subs[k]);
		if (fl_snapshot_list_dir(path, &in, &nin, err, errlen))
			continue;	/* no such directory: the other may have them */
		for (unsigned int i = 0; i < nin; i++) {
			nn = realloc(names, (n + 1) * sizeof(*nn));
			if (!nn || asprintf(&nn[n], "%s%s", k ? "snap/" : "", in[i]) < 0) {
				names = nn ? nn : names;
				fl_snapshot_names_free(in, nin);
				fl_fail(err, errlen, "out of memory");
				rc = -1;
				goto out;
			}
			names = nn;
			n++;
		}
		fl_snapshot_names_free(in, nin);
	}
	if (!n)
		return fl_fail(err, errlen, "%s: no *.snap files (nor in %s/snap)", dir, dir);
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
	fl_snapshot_names_free(names, n);
	return rc;
}

int fl_export_load(struct fl_export *e, const char *in, const char *run, const char *topo_root,
		   char *err, size_t errlen)
{
	struct stat st;

	if (stat(in, &st))
		return fl_fail(err, errlen, "%s: %s", in, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		if (run) {
			fl_fail(err, errlen, "--run applies to a single FILE");
			return -2;
		}
		return add_dir(e, in, topo_root, err, errlen);
	} else {
		char name[512];
		const char *b = strrchr(in, '/');
		size_t l;

		snprintf(name, sizeof(name), "%s", b ? b + 1 : in);
		l = strlen(name);
		if (l > 5 && !strcmp(name + l - 5, ".snap"))
			name[l - 5] = '\0';
		return add_snap(e, in, run ? run : name, topo_root, err, errlen);
	}
}

void fl_export_free(struct fl_export *e)
{
	for (unsigned int k = 0; k < e->nsnaps; k++)
		free_snap(&e->snaps[k]);
	free(e->snaps);
	e->snaps = NULL;
	e->nsnaps = 0;
}
