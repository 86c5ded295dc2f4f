/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The export model: snapshots grouped per CPU, LLC domain or NUMA node
 * (export.c), and its writers (json, csv, text in export_fmt.c; Prometheus in
 * export_prom.c).  cmd_export.c only parses arguments.  Formats:
 * Documentation/formats.rst.
 */
#ifndef FAULTLINE_EXPORT_H
#define FAULTLINE_EXPORT_H

#include <stdio.h>

#include "report_common.h"
#include "snapshot.h"
#include "topology.h"

enum fl_export_by { FL_EXP_BY_CPU, FL_EXP_BY_LLC, FL_EXP_BY_NODE, FL_EXP_BY_TOTAL };

/* Prometheus writer pieces (export_prom.c) for other families (serve): a label
 * value escaped; nanoseconds as exact decimal seconds. */
void fl_prom_esc(FILE *f, const char *s);
void fl_prom_seconds(FILE *f, unsigned long long ns);
/*
 * The HELP text of family NAME (faultline_..., as exposed) from the one table
 * of them in export_prom.c, else a generic one (pointing to the docs); and
 * "# HELP NAME ...\n# TYPE NAME TYPE\n" with it.
 */
const char *fl_prom_help(const char *name);
void fl_prom_header(FILE *f, const char *name, const char *type);

/*
 * The histograms' `le` bounds in the exposition (--prom-buckets): COARSE
 * (the default) every half power of two from 32 ns to 2^34 ns, each one of
 * the histogram's own bounds, so counts stay exact; FULL every bound of the
 * histogram (272).  Documentation/formats.rst, Prometheus.
 */
enum fl_prom_buckets { FL_PROM_BUCKETS_COARSE = 0, FL_PROM_BUCKETS_FULL };
/* "coarse" or "full": 0, else -1 (export's and serve's --prom-buckets). */
int fl_prom_buckets_parse(const char *s, enum fl_prom_buckets *out);
/* Is the exclusive upper bound U (ns) of a histogram bucket a coarse `le` (+ 1 ns)? */
int fl_prom_coarse_bound(unsigned long long u);

struct fl_export_group {
	int id;				/* CPU, LLC domain or node; -1 = unknown */
	unsigned int ncpus;
	unsigned int *cpus;
	struct fl_cpu_stats st;
};

struct fl_export_snap {
	char *run;			/* label: file name without .snap */
	char *path;
	struct fl_snapshot s;
	struct fl_export_group *groups;
	unsigned int ngroups;
	struct fl_export_group total;	/* every CPU (id -1) */
};

struct fl_export {
	enum fl_export_by by;
	enum fl_prom_buckets prom_buckets;	/* fl_export_prom()'s le bounds */
	struct fl_export_snap *snaps;
	unsigned int nsnaps;
};

const char *fl_export_by_name(enum fl_export_by by);
/* "cpu", "llc", "node" or "total": 0, else -1. */
int fl_export_by_parse(const char *s, enum fl_export_by *by);

/*
 * Every figure in export order (json "figures", prom faultline_unavailable)
 * and its key there ("latency", "mmap_lock", ...).
 */
extern const enum fl_figure fl_export_figs[FL_FIG_NR];
const char *fl_figure_key(enum fl_figure fig);

/* Figure a histogram / counter / lockless counter belongs to. */
enum fl_figure fl_hist_figure(unsigned int hist_id);
enum fl_figure fl_counter_figure(unsigned int counter_id);
/* Counter ids with a name (fl_counter_name() != "unknown"). */
int fl_counter_known(unsigned int counter_id);

/* Group the CPUs of es->s (topology from its tags, else from topo_root). */
int fl_export_group(struct fl_export_snap *es, enum fl_export_by by, const char *topo_root,
		    char *err, size_t errlen);

/*
 * Load IN into e (e->by set): a snapshot FILE (run label RUN, default its name
 * without .snap), or every DIR/NAME.snap and DIR/snap/NAME.snap, sorted.  0; -1 with
 * err; -2 for a usage error (RUN with a DIR).  fl_export_free() either way.
 */
int fl_export_load(struct fl_export *e, const char *in, const char *run, const char *topo_root,
		   char *err, size_t errlen);
void fl_export_free(struct fl_export *e);

void fl_export_json(FILE *f, const struct fl_export *e);
/* `,"blame":{...}` of one snapshot that has blame's sections, else nothing. */
void fl_blame_json(FILE *f, const struct fl_snapshot *s);
void fl_export_csv(FILE *f, const struct fl_export *e);
void fl_export_text(FILE *f, const struct fl_export *e);
void fl_export_prom(FILE *f, const struct fl_export *e);

#endif
