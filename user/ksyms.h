/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Core-kernel symbols from /proc/kallsyms, read once per process: naming
 * contended locks by their callers (phases.c), symbolising the holders'
 * stacks (blame_collect.c), the per-CPU addresses the BPF programs read
 * preempt_count through (include/faultline/intask.h).
 */
#ifndef FAULTLINE_KSYMS_H
#define FAULTLINE_KSYMS_H

#include <stdbool.h>
#include <stddef.h>

#include "ksyms_table.h"

/*
 * The running kernel's table, parsed at the first call and kept: core-kernel
 * text does not move while it runs, and each read of /proc/kallsyms costs
 * the kernel a formatted line per symbol (~0.5 s under TCG), so it comes
 * from this boot's cache file when there is one (ksyms_cache.h). NULL with
 * err (kptr_restrict, not root), the same error every call.
 */
const struct fl_ksyms *fl_ksyms_get(char *err, size_t errlen);
/*
 * The data symbols alone (stext, etext, the per-CPU addresses; n == 0),
 * or the whole table where fl_ksyms_get() has already read it: a plain
 * record keeps no text table in memory (its peak RSS).
 */
const struct fl_ksyms *fl_ksyms_data(char *err, size_t errlen);

/* The address of a kept data symbol (struct fl_ksyms) by name; 0: absent or not kept. */
unsigned long long fl_ksyms_data_addr(const struct fl_ksyms *k, const char *name);

/* Parse a kallsyms text of len bytes into k: 0, or -1 with err. */
int fl_ksyms_parse(struct fl_ksyms *k, const char *text, size_t len, char *err, size_t errlen);
/*
 * The same from a file, parsed as it is read (64 KiB at a time); text:
 * keep the text symbols too, else only the data symbols (n == 0).
 */
int fl_ksyms_read(struct fl_ksyms *k, const char *path, bool text, char *err, size_t errlen);
/* Index of the symbol containing addr, or -1. */
long fl_ksyms_find(const struct fl_ksyms *k, unsigned long long addr);
/*
 * End of symbol i's text: the next symbol at a higher address (aliases
 * share one), 0 for the last.  [s[i].addr, end) is the function's range
 * the skeletons get (struct fl_krange).
 */
unsigned long long fl_ksyms_end(const struct fl_ksyms *k, size_t i);
/* Index of the lowest-address text symbol named exactly name, or -1. */
long fl_ksyms_lookup(const struct fl_ksyms *k, const char *name);
/* The text symbols whose names start with prefix: *first into by_name, and how many. */
size_t fl_ksyms_prefix(const struct fl_ksyms *k, const char *prefix, size_t *first);
/* Length of name without a compiler suffix (".constprop.0", ".isra.0", ".cold"). */
size_t fl_ksym_base_len(const char *name);

#endif
