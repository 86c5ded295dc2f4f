/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The (A) and (B) labels of compare and plot, by default from what tells
 * the two sides apart: the kernel release, else the `uname -v` build
 * string (tag kernel_build: a patchset on its base has the same release),
 * else the kernel_file tag, else the release with the file or directory
 * name ("6.12.0 (sweepA)").  One rule for the sweep table, the recordings
 * compare and the plot legend.
 */
#ifndef FAULTLINE_COMPARE_LABEL_H
#define FAULTLINE_COMPARE_LABEL_H

#include <stddef.h>

#define FL_LABEL_LEN	128

/* One way of telling the sides apart: its two values (NULL: unknown). */
struct fl_label_cand {
	const char *what;		/* "kernel", "kernel_build", ... */
	const char *v[2];
};

/*
 * out[s] = over[s] when set, else the first candidate whose two values are
 * both known, non-empty and different, else "C0 (NAME)": c[0]'s value and
 * the base name of path[s] (the paths themselves when those match, "A" and
 * "B" when even they do; NAME alone without c[0]).  Returns the index of
 * the candidate used, or -1 when none told A from B.
 */
int fl_pick_labels(const struct fl_label_cand *c, unsigned int n, const char *const over[2],
		   const char *const path[2], char out[2][FL_LABEL_LEN]);

struct fl_cmp;
/*
 * The labels of two sweeps (compare, plot): their kernel_version,
 * kernel_build and kernel_file tags, then their directories.
 */
void fl_cmp_labels(const struct fl_cmp *c, const char *const over[2], char out[2][FL_LABEL_LEN]);

#endif
