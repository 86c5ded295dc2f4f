/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tablewriter-like text tables, the seed report's layout: a header row, a
 * rule under it ("-" runs joined by "+": w+3 outer, w+2 inner), columns
 * joined by " | ", right-aligned where asked.  compare's TAGS and METRICS.
 */
#ifndef FAULTLINE_COMPARE_TABLE_H
#define FAULTLINE_COMPARE_TABLE_H

#include <stdio.h>

struct fl_table {
	unsigned int ncol, nrow;	/* ncol <= 16, set before the first row */
	char **cell;		/* nrow x ncol */
	int *right;		/* per column: right-aligned (not the header); NULL: none */
};

/* Append ROW (ncol cells, NULL = ""), copied.  0, or -1: out of memory. */
int fl_table_add(struct fl_table *t, char **row);
/* The table on F, the rule under the first row. */
void fl_table_print(FILE *f, const struct fl_table *t);
void fl_table_free(struct fl_table *t);

#endif
