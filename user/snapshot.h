/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-memory snapshot and its one reader/writer (include/faultline/abi.h is
 * the on-disk layout, with the checksums below; Documentation/formats.rst).
 * Used by every subcommand and by both backends.
 */
#ifndef FAULTLINE_SNAPSHOT_H
#define FAULTLINE_SNAPSHOT_H

#include <stddef.h>
#include <faultline/abi.h>
#include "tag_keys.h"

/*
 * Format 1.1: checksums.  The header grows by struct fl_snap_crc (header_size
 * says by how much, as abi.h lets it: a 1.0 reader skips it):
 *
 *   struct fl_snap_header     version 1.1, header_size = ALIGN8(152 + 8 + 4 * nr_sections)
 *   struct fl_snap_crc        header_crc, nr_crc, section_crc[nr_sections], zeros to 8
 *   section*                  as in 1.0: struct fl_section + payload + zeros to 8
 *
 * All CRC32C (crc32c.h).  header_crc covers the header_size bytes from
 * offset 0 with header_crc itself read as 0 (so the checksum table too);
 * section_crc[i] covers section i's struct fl_section and its payload (the
 * padding after it must be zero).  The reader verifies each before it uses
 * it: a damaged file is refused, naming the header or the section.
 *
 * Format 1.0 (every writer before 1.1, and the module's debugfs file) has
 * header_size == 152 and no checksums: read as before, and counted in
 * struct fl_snapshot.no_checksums.  A header longer than 152 bytes is read as
 * checksummed whatever its minor version, so no single damaged field turns a
 * 1.1 file into an unverified 1.0 one.
 *
 * (FL_SNAP_VERSION in abi.h is still 1.0, which the module writes; the
 * collector writes FL_SNAP_VERSION_WRITE.)
 */
#define FL_SNAP_VERSION_CRC	0x00010001u	/* 1.1: the first with checksums */
#define FL_SNAP_VERSION_WRITE	(FL_SNAP_VERSION > FL_SNAP_VERSION_CRC ? FL_SNAP_VERSION : \
				 FL_SNAP_VERSION_CRC)
#define FL_SNAP_MAX_SECTIONS	4096	/* in a checksummed file */

struct fl_snap_crc {
	fl_u32 header_crc;
	fl_u32 nr_crc;			/* == fl_snap_header.nr_sections */
	fl_u32 section_crc[];
};

/* What `report` prints, once, for a snapshot with no_checksums set. */
#define FL_SNAP_NO_CRC_NOTE							\
	"this snapshot has no checksums (snapshot format 1.0, written by faultline "	\
	"before format 1.1): damage to it goes undetected"

struct fl_raw_section {		/* a section this reader does not know: kept as is */
	struct fl_section sec;
	void *data;
};

struct fl_snapshot {
	struct fl_snap_header hdr;
	struct fl_cpu_stats *cpus;	/* hdr.nr_cpus entries, index = CPU id */
	unsigned char *cpu_online;	/* hdr.nr_cpus bytes or NULL */
	struct fl_vmstat_entry *vmstat;
	unsigned int nr_vmstat;
	char *tags;			/* "key=value\n"..., NUL-terminated, or NULL */
	struct fl_raw_section *extra;
	unsigned int nr_extra;
	char **tag_vals;		/* "key\0value" handed out by fl_snapshot_tag */
	unsigned int nr_tag_vals;
	/*
	 * Inputs read without checksums (format 1.0 files, the module's
	 * debugfs file): 0 when every byte read was verified.  Merging adds
	 * them up; the writer always writes checksums.
	 */
	unsigned int no_checksums;
};

/*
 * All return 0 or -1 with a one-line reason in err (no trailing newline).
 * A checksum that does not match is "corrupt snapshot: section N (NAME):
 * checksum mismatch (stored 0x..., computed 0x...)", or "... header: ...".
 */
int fl_snapshot_parse(const void *buf, size_t len, struct fl_snapshot *s,
		      char *err, size_t errlen);
int fl_snapshot_read_file(const char *path, struct fl_snapshot *s,
			  char *err, size_t errlen);
/*
 * Parse from a descriptor of SIZE bytes (-1: unknown, read to EOF, e.g.
 * debugfs): the CPU section is read straight into s->cpus, no file buffer.
 */
int fl_snapshot_read_fd(int fd, long long size, struct fl_snapshot *s,
			char *err, size_t errlen);
/*
 * Recompute, in place, every checksum of the serialised snapshot BUF (format
 * 1.1): for tests and fuzzers that edit bytes and want the parser to look past
 * the checksums.  A 1.0 buffer is left as it is.  -1 if BUF's layout cannot
 * be walked (what it could reach is sealed).
 */
int fl_snapshot_seal(void *buf, size_t len);
/* Serialise (format 1.1, with checksums); *buf is malloc'ed. */
int fl_snapshot_serialize(const struct fl_snapshot *s, void **buf, size_t *len);
/* Atomic (atomic.h): writes PATH.tmp.XXXXXX, fsyncs, renames over PATH. */
int fl_snapshot_write_file(const char *path, const struct fl_snapshot *s,
			   char *err, size_t errlen);
void fl_snapshot_free(struct fl_snapshot *s);

/* Allocate zeroed cpus[] (and cpu_online[]) for nr_cpus. */
int fl_snapshot_alloc_cpus(struct fl_snapshot *s, unsigned int nr_cpus);
/*
 * The payload of the first section of TYPE in s->extra, or NULL when absent
 * or malformed (size != count * ELEM); *nr gets the element count.
 */
const void *fl_snapshot_find_section(const struct fl_snapshot *s, unsigned int type,
				     size_t elem, unsigned int *nr);
/* Append a section of another type (phases, locks, ...); data is copied. */
int fl_snapshot_add_section(struct fl_snapshot *s, unsigned int type, unsigned int count,
			    const void *data, size_t size);
/*
 * The snapshots in directory DIR (not below it), the one rule for every
 * reader of "a directory of snapshots": NAME.snap with a non-empty NAME not
 * starting with '.' (so no hidden files; the atomic writers' temp files end
 * in .tmp.*), not a directory, sorted by strcmp (snap-NNNN order).  *names (NULL when none)
 * is freed with fl_snapshot_names_free().  0, with *n possibly 0; -1 + err
 * (errno kept, e.g. ENOENT) when DIR cannot be read.
 */
int fl_snapshot_list_dir(const char *dir, char ***names, unsigned int *n,
			 char *err, size_t errlen);
void fl_snapshot_names_free(char **names, unsigned int n);
/* Sum of all CPUs (counters added, histograms merged). */
void fl_snapshot_total(const struct fl_snapshot *s, struct fl_cpu_stats *out);
/* fl_cpu_stats_add (dst += src for one CPU record) is in faultline/abi.h. */
/*
 * Value of tag KEY (any length; tag_keys.h) or NULL (absent, or out of
 * memory); a renamed KEY is found under its old name too.  The
 * string is the snapshot's, valid until fl_snapshot_free(s), whatever is
 * looked up or set meanwhile (no shared buffer: two values can be held at
 * once); asking again for the same value returns the same string.
 */
const char *fl_snapshot_tag(const struct fl_snapshot *s, const char *key);
/* FL_TAG_MMAP_LOCK_OFF's value (tag_keys.h: every key) */
#define FL_MMAP_LOCK_OFF_WHY							\
	"not recorded by default on this kernel: its mmap_lock tracepoints build a "	\
	"memcg path string per event while attached, and with no lockless fault path "	\
	"every fault takes mmap_lock (record --mmap-lock records them)"
/* Append "key=value\n" (value must not contain a newline). */
int fl_snapshot_set_tag(struct fl_snapshot *s, const char *key, const char *value);
/* Drop every KEY= line, then append "KEY=VALUE\n": a tag set again, not added. */
int fl_snapshot_replace_tag(struct fl_snapshot *s, const char *key, const char *value);
/* vmstat delta (after - before) of NAME; -1 if the counter is absent. */
long long fl_snapshot_vmstat_delta(const struct fl_snapshot *s, const char *name);

/* ---- merging the interval snapshots of one recording (snapshot_merge.c) ---- */

/*
 * dst += src.  An empty dst (cpus == NULL) becomes a copy of src.  Refuses
 * snapshots of a different CPU count, backend, tier or lockless kind.
 * vmstat deltas add up; durations add up; live hooks are those live in both.
 */
int fl_snapshot_merge(struct fl_snapshot *dst, const struct fl_snapshot *src,
		      char *err, size_t errlen);

/* A snapshot file, or every *.snap in a directory (sorted) merged. */
int fl_snapshot_load(const char *path, struct fl_snapshot *out, unsigned int *nfiles,
		     char *err, size_t errlen);

const char *fl_backend_name(unsigned int backend);
const char *fl_tier_name(unsigned int tier);
const char *fl_hook_name(unsigned int hook);
const char *fl_ll_kind_name(unsigned int kind);
const char *fl_hist_name(unsigned int id);	/* stable metric names */
const char *fl_phase_name(unsigned int phase);	/* "lockless", ... "cow_copy" (FL_PHASE_NAMES) */
const char *fl_counter_name(unsigned int id);
const char *fl_ll_name(unsigned int id);

#endif
