/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A per-boot cache of the parsed core-kernel symbol table (ksyms.h): reading
 * /proc/kallsyms costs the kernel a formatted line per symbol (~0.5 guest
 * seconds under -icount, most of a plain record's start), and core-kernel
 * addresses do not move while a kernel runs (KASLR is chosen at boot).
 *
 * Two files in the cache directory: ksyms-data (the data symbols alone,
 * fl_ksyms_data's) and ksyms-full (the sorted text table too,
 * fl_ksyms_get's), each keyed by the boot id and the kernel release.  The
 * directory is $FAULTLINE_KSYMS_CACHE, else /run/faultline (made 0700);
 * FAULTLINE_KSYMS_CACHE=off reads /proc/kallsyms every time.  They hold
 * kernel addresses: only a directory and files owned by the effective uid,
 * with no group or other access, are trusted, and files are written 0600
 * by rename.  Anything that does not check out is ignored (the caller reads
 * /proc/kallsyms and stores again); failing to store is silent.
 *
 * File layout (native endianness: a local file, never copied): struct
 * fl_ksyms_cache_hdr, then n x {u64 addr, u64 name offset} sorted by
 * address, n x u64 indices sorted by name, the names_len-byte arena.
 */
#ifndef FAULTLINE_KSYMS_CACHE_H
#define FAULTLINE_KSYMS_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ksyms_table.h"

#define FL_KSYMS_CACHE_MAGIC	"FLKSYMC"	/* and its NUL: 8 bytes */
#define FL_KSYMS_CACHE_VERSION	1
#define FL_KSYMS_CACHE_TEXT	1u		/* flags: the text table follows */
/* bounds a file must be within (a distribution kernel: ~150k, ~4 MB) */
#define FL_KSYMS_CACHE_MAX_N	(1u << 22)
#define FL_KSYMS_CACHE_MAX_NAMES (64u << 20)

struct fl_ksyms_cache_hdr {
	char magic[8];
	uint32_t version;
	uint32_t flags;
	char boot_id[48];	/* NUL-terminated */
	char release[72];	/* uname -r, NUL-terminated */
	uint64_t n, names_len;
	uint64_t stext, etext, page_offset_base, vmemmap_base;
	uint64_t vma_lock_cachep, preempt_count, pcpu_hot, per_cpu_offset;
	uint32_t crc;		/* crc32c of the header before it, then the rest of the file */
	uint32_t zero;
};

/*
 * The running kernel's table from the cache into k (text: with the text
 * symbols): 0, or -1 with k empty (no cache, off, stale, not ours, or
 * /proc/kallsyms shows this process no addresses).
 */
int fl_ksyms_cache_load(struct fl_ksyms *k, bool text);
/* Store k, a table fl_ksyms_read() accepted; text: also its data file. Best effort. */
void fl_ksyms_cache_store(const struct fl_ksyms *k, bool text);

/* The same in DIR for a given boot id and release (the tests'): 0 or -1. */
int fl_ksyms_cache_load_at(struct fl_ksyms *k, bool text, const char *dir,
			   const char *boot_id, const char *release);
int fl_ksyms_cache_store_at(const struct fl_ksyms *k, bool text, const char *dir,
			    const char *boot_id, const char *release);

/* A file's bytes: malloc'ed *buf of *len bytes, 0 or -1. */
int fl_ksyms_cache_encode(const struct fl_ksyms *k, bool text, const char *boot_id,
			  const char *release, void **buf, size_t *len);
/* Check a file's len bytes and build k from them: 0, or -1 with k empty. */
int fl_ksyms_cache_decode(struct fl_ksyms *k, const void *buf, size_t len, bool text,
			  const char *boot_id, const char *release);

#endif
