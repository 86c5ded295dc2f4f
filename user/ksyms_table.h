/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A parsed kallsyms table: what ksyms.c fills from /proc/kallsyms and
 * ksyms_cache.c from this boot's cache file.  Below both, so that neither
 * reaches into the other for the type or its free.
 */
#ifndef FAULTLINE_KSYMS_TABLE_H
#define FAULTLINE_KSYMS_TABLE_H

#include <stddef.h>

struct fl_ksym {
	unsigned long long addr;
	const char *name;
};

struct fl_ksyms {
	struct fl_ksym *s;	/* text symbols, sorted by address */
	size_t n, cap;
	size_t *by_name;	/* indices into s, sorted by name */
	char *names;		/* every name, NUL-separated */
	size_t names_len, names_cap;
	unsigned long long stext, etext;
	/* data symbols, 0 where absent (no CONFIG_KALLSYMS_ALL) */
	unsigned long long page_offset_base, vmemmap_base, vma_lock_cachep;
	unsigned long long preempt_count, pcpu_hot, per_cpu_offset;
};

/* Free k's blocks and zero it (separate allocations: s, by_name, names). */
void fl_ksyms_free(struct fl_ksyms *k);

#endif
