/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Core-kernel text symbols from /proc/kallsyms, sorted by address: naming
 * contended locks by their callers (phases.c) and symbolising the holders'
 * stacks (blame_collect.c).
 */
#ifndef FAULTLINE_KSYMS_H
#define FAULTLINE_KSYMS_H

#include <stddef.h>

struct fl_ksym {
	unsigned long long addr;
	char *name;
};

struct fl_ksyms {
	struct fl_ksym *s;
	size_t n, cap;
	unsigned long long stext, etext;
	unsigned long long page_offset_base, vmemmap_base, vma_lock_cachep;	/* addresses */
};

/* 0 on success with addresses visible; -1 with err (kptr_restrict, not root). */
int fl_ksyms_load(struct fl_ksyms *k, char *err, size_t errlen);
void fl_ksyms_free(struct fl_ksyms *k);
/* Index of the symbol containing addr, or -1. */
long fl_ksyms_find(const struct fl_ksyms *k, unsigned long long addr);
/* Length of name without a compiler suffix (".constprop.0", ".isra.0", ".cold"). */
size_t fl_ksym_base_len(const char *name);

#endif
