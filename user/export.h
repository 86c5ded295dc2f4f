/* SPDX-License-Identifier: GPL-2.0 */
/*
 * faultline export: snapshots grouped per CPU, LLC domain or NUMA node, and
 * the writers (json, csv, text in cmd_export.c; Prometheus in export_prom.c).
 * Formats: Documentation/formats.rst.
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
	struct fl_export_snap *snaps;
	unsigned int nsnaps;
};

const char *fl_export_by_name(enum fl_export_by by);

/* Figure a histogram / counter / lockless counter belongs to. */
enum fl_figure fl_hist_figure(unsigned int hist_id);
enum fl_figure fl_counter_figure(unsigned int counter_id);
/* Counter ids with a name (fl_counter_name() != "unknown"). */
int fl_counter_known(unsigned int counter_id);

/* Group the CPUs of es->s (topology from its tags, else from topo_root). */
int fl_export_group(struct fl_export_snap *es, enum fl_export_by by, const char *topo_root,
		    char *err, size_t errlen);

void fl_export_prom(FILE *f, const struct fl_export *e);

#endif
