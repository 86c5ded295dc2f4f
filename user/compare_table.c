// SPDX-License-Identifier: GPL-2.0
/* Tablewriter-like text tables (see compare_table.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_table.h"

/* Columns S takes on a terminal: UTF-8 continuation bytes take none ("‰"). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; s && *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

int fl_table_add(struct fl_table *t, char **row)
{
	char **n = realloc(t->cell, (size_t)(t->nrow + 1) * t->ncol * sizeof(char *));

	if (!n)
		return -1;
	t->cell = n;
	for (unsigned int i = 0; i < t->ncol; i++)
		t->cell[(size_t)t->nrow * t->ncol + i] = strdup(row[i] ? row[i] : "");
	t->nrow++;
	return 0;
}

void fl_table_print(FILE *f, const struct fl_table *t)
{
	size_t w[16] = { 0 };

	for (unsigned int r = 0; r < t->nrow; r++)
		for (unsigned int i = 0; i < t->ncol; i++) {
			size_t l = width(t->cell[(size_t)r * t->ncol + i]);

			if (l > w[i])
				w[i] = l;
		}
	for (unsigned int r = 0; r < t->nrow; r++) {
		char *line = NULL;
		size_t len = 0, o;
		FILE *m = open_memstream(&line, &len);

		if (!m)
			return;
		for (unsigned int i = 0; i < t->ncol; i++) {
			const char *s = t->cell[(size_t)r * t->ncol + i];
			int al = t->right && t->right[i] && r > 0;
			int pad = (int)(w[i] - width(s));

			if (al)
				fprintf(m, "%s%*s%s ", i == 0 ? "  " : " ", pad, "", s);
			else
				fprintf(m, "%s%s%*s ", i == 0 ? "  " : " ", s, pad, "");
			if (i + 1 < t->ncol)
				fputc('|', m);
		}
		if (fclose(m) || !line)
			return;
		o = strlen(line);
		while (o && line[o - 1] == ' ')
			line[--o] = '\0';
		fprintf(f, "%s\n", line);
		free(line);
		if (r == 0) {
			for (unsigned int i = 0; i < t->ncol; i++) {
				size_t n = w[i] + 2 + (i == 0 || i + 1 == t->ncol);

				for (size_t k = 0; k < n; k++)
					fputc('-', f);
				if (i + 1 < t->ncol)
					fputc('+', f);
			}
			fputc('\n', f);
		}
	}
}

void fl_table_free(struct fl_table *t)
{
	for (size_t i = 0; i < (size_t)t->nrow * t->ncol; i++)
		free(t->cell[i]);
	free(t->cell);
}
