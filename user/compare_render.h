/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The A/B comparison (compare.h) as faultline compare writes it: text in
 * the seed report's layout, JSON, CSV, Markdown.  compare_render.c (two
 * snapshots: compare_snaps.h).
 */
#ifndef FAULTLINE_COMPARE_RENDER_H
#define FAULTLINE_COMPARE_RENDER_H

#include <stdio.h>

#include "compare.h"

/* What the options say about the rendering (not about the model). */
struct fl_cmp_view {
	const char *label[2];	/* the (A), (B) labels; NULL: kernel_version tag, else the directory */
	const char *kernel[2];	/* 'Kernel File' of the KERNELS block; NULL: the kernel_file tag */
	int seed;		/* text: the seed's columns only (no direction, p-value, notes) */
	int precision;		/* text, markdown: significant digits; 0: every digit */
};

void fl_cmp_write_text(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o);
void fl_cmp_write_json(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o);
void fl_cmp_write_csv(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o);
void fl_cmp_write_md(FILE *f, const struct fl_cmp *c, const struct fl_cmp_view *o);
/* {"count", "min", "max", "mean", "median", "stddev", "stddev_sample"}: every A/B table's */
void fl_cmp_json_stats(FILE *f, const struct fl_stats *st);

#endif
