// SPDX-License-Identifier: GPL-2.0
/*
 * The one snapshot reader/writer (layout: include/faultline/abi.h, and the
 * checksums of format 1.1: snapshot.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "snapshot.h"
#include "errbuf.h"

#include "crc32c.h"

#define SNAP_MAX_BYTES	(1ULL << 31)	/* refuse absurd files before reading */
#define SNAP_MAX_CPUS	65536
#define ALIGN8(x)	(((x) + 7) & ~(size_t)7)
#define SNAP_MINOR(v)	((v) & 0xffff)

/*
 * Does this header carry checksums (snapshot.h)?  1.1 and later do; so does
 * any header longer than struct fl_snap_header, which no 1.0 writer wrote.
 */
static int hdr_has_crc(const struct fl_snap_header *h)
{
	return SNAP_MINOR(h->version) >= SNAP_MINOR(FL_SNAP_VERSION_CRC) ||
	       h->header_size != sizeof(*h);
}

/* "cpu stats", ... for the messages; unknown types by number. */
static const char *sec_label(unsigned int type, char *buf, size_t len)
{
	static const char *const n[] = {
		[FL_SEC_CPU] = "cpu stats", [FL_SEC_VMSTAT] = "vmstat", [FL_SEC_TAGS] = "tags",
		[FL_SEC_CPU_ONLINE] = "cpu online", [FL_SEC_PHASES] = "phases",
		[FL_SEC_LOCKS] = "locks", [FL_SEC_LOCK_CALLERS] = "lock callers",
		[FL_SEC_BLAME] = "blame", [FL_SEC_BLAME_TOTAL] = "blame total",
	};

	if (type < sizeof(n) / sizeof(n[0]) && n[type])
		return n[type];
	snprintf(buf, len, "type %u", type);
	return buf;
}

/* CRC32C of one section: its header, then its payload. */
static uint32_t sec_crc(const struct fl_section *sec, const void *data)
{
	return fl_crc32c(fl_crc32c(0, sec, sizeof(*sec)), data, sec->size);
}

void fl_snapshot_free(struct fl_snapshot *s)
{
	unsigned int i;

	free(s->cpus);
	free(s->cpu_online);
	free(s->vmstat);
	free(s->tags);
	for (i = 0; i < s->nr_extra; i++)
		free(s->extra[i].data);
	free(s->extra);
	for (i = 0; i < s->nr_tag_vals; i++)
		free(s->tag_vals[i]);
	free(s->tag_vals);
	memset(s, 0, sizeof(*s));
}

/*
 * Per-CPU stats are ~15.6 KiB a CPU, 4 MB at 256 CPUs: on 2 MiB-aligned
 * memory advised MADV_HUGEPAGE they fault in as two huge pages instead of
 * ~1000 small ones, which made a fresh `report` of 256 CPUs cost 14-22 ms
 * on a VM (THP "madvise" is the common default; "never" behaves as calloc).
 */
static void *alloc_cpu_array(unsigned int n)
{
	const size_t huge = 2u << 20;
	size_t size = (size_t)n * sizeof(struct fl_cpu_stats);
	void *p;

	if (size < huge)
		return calloc(n, sizeof(struct fl_cpu_stats));
	size = (size + huge - 1) & ~(huge - 1);
	p = aligned_alloc(huge, size);
	if (!p)
		return NULL;
	madvise(p, size, MADV_HUGEPAGE);	/* a hint: failure is harmless */
	memset(p, 0, size);
	return p;
}

int fl_snapshot_alloc_cpus(struct fl_snapshot *s, unsigned int nr_cpus)
{
	free(s->cpus);
	free(s->cpu_online);
	s->cpus = alloc_cpu_array(nr_cpus ? nr_cpus : 1);
	s->cpu_online = calloc(nr_cpus ? nr_cpus : 1, 1);
	if (!s->cpus || !s->cpu_online)
		return -1;
	s->hdr.nr_cpus = nr_cpus;
	return 0;
}

int fl_snapshot_add_section(struct fl_snapshot *s, unsigned int type, unsigned int count,
			    const void *data, size_t size)
{
	struct fl_raw_section *n = realloc(s->extra, (s->nr_extra + 1) * sizeof(*n));
	void *copy;

	if (!n)
		return -1;
	s->extra = n;
	copy = malloc(size ? size : 1);
	if (!copy)
		return -1;
	if (size)
		memcpy(copy, data, size);
	memset(&n[s->nr_extra], 0, sizeof(*n));
	n[s->nr_extra].sec.type = type;
	n[s->nr_extra].sec.count = count;
	n[s->nr_extra].sec.size = size;
	n[s->nr_extra].data = copy;
	s->nr_extra++;
	return 0;
}

/*
 * Where the parser reads from: a buffer (fuzzers, tests) or a file
 * descriptor (files, the module's debugfs file, which reports no size).  Read
 * from a descriptor, the CPU section goes straight into the snapshot: no
 * whole-file buffer beside it (4 MB at 256 CPUs).
 */
struct source {
	const unsigned char *buf;	/* buffer source, or NULL */
	int fd;				/* descriptor source when buf is NULL */
	size_t len;			/* bytes in the source; SIZE_MAX: unknown, read to EOF */
	size_t off;			/* bytes consumed */
};

static size_t src_left(const struct source *r)
{
	return r->len == SIZE_MAX ? SIZE_MAX : r->len - r->off;
}

/* n bytes into dst (NULL: skip them); -1 if the source ends first. */
static int src_get(struct source *r, void *dst, size_t n)
{
	unsigned char scratch[512];
	size_t done = 0;

	if (n > src_left(r))
		return -1;
	if (r->buf) {
		if (dst && n)
			memcpy(dst, r->buf + r->off, n);
		r->off += n;
		return 0;
	}
	while (done < n) {
		size_t want = n - done;
		void *to = (char *)dst + done;
		ssize_t got;

		if (!dst) {
			to = scratch;
			want = want < sizeof(scratch) ? want : sizeof(scratch);
		}
		got = read(r->fd, to, want);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		done += got;
		r->off += got;
	}
	return 0;
}

/* n bytes skipped, added to *crc. */
static int src_skip_crc(struct source *r, size_t n, uint32_t *crc)
{
	unsigned char scratch[512];

	while (n) {
		size_t k = n < sizeof(scratch) ? n : sizeof(scratch);

		if (src_get(r, scratch, k))
			return -1;
		*crc = fl_crc32c(*crc, scratch, k);
		n -= k;
	}
	return 0;
}

/* The CPU section is copied by the caller (straight from the source). */
static int check_cpu_section(const struct fl_snapshot *s, const struct fl_section *sec,
			     char *err, size_t errlen)
{
	if (sec->count != s->hdr.nr_cpus)
		return fl_fail(err, errlen, "CPU section has %u CPUs, header says %u",
			       sec->count, s->hdr.nr_cpus);
	if (sec->size != (fl_u64)sec->count * sizeof(struct fl_cpu_stats))
		return fl_fail(err, errlen, "CPU section size %llu does not match %u x %zu",
			       (unsigned long long)sec->size, sec->count,
			       sizeof(struct fl_cpu_stats));
	return 0;
}

static int parse_section(struct fl_snapshot *s, const struct fl_section *sec,
			 const unsigned char *p, char *err, size_t errlen)
{
	switch (sec->type) {
	case FL_SEC_CPU_ONLINE:
		if (sec->count != s->hdr.nr_cpus || sec->size != sec->count)
			return fl_fail(err, errlen, "CPU online section malformed");
		memcpy(s->cpu_online, p, sec->size);
		return 0;
	case FL_SEC_VMSTAT:
		if (sec->size != (fl_u64)sec->count * sizeof(struct fl_vmstat_entry))
			return fl_fail(err, errlen, "vmstat section size mismatch");
		if (s->vmstat)
			return fl_fail(err, errlen, "duplicate vmstat section");
		s->vmstat = malloc(sec->size ? sec->size : 1);
		if (!s->vmstat)
			return fl_fail(err, errlen, "out of memory");
		memcpy(s->vmstat, p, sec->size);
		s->nr_vmstat = sec->count;
		for (unsigned int i = 0; i < s->nr_vmstat; i++)
			s->vmstat[i].name[FL_NAME_LEN - 1] = '\0';
		return 0;
	case FL_SEC_TAGS:
		if (s->tags)
			return fl_fail(err, errlen, "duplicate tags section");
		s->tags = malloc(sec->size + 1);
		if (!s->tags)
			return fl_fail(err, errlen, "out of memory");
		memcpy(s->tags, p, sec->size);
		s->tags[sec->size] = '\0';
		if (strlen(s->tags) != sec->size)
			return fl_fail(err, errlen, "tags section contains a NUL byte");
		return 0;
	default:	/* newer section: keep it so a rewrite does not drop it */
		if (fl_snapshot_add_section(s, sec->type, sec->count, p, sec->size))
			return fl_fail(err, errlen, "out of memory");
		return 0;
	}
}

static int crc_mismatch(const struct fl_section *sec, unsigned int i, uint32_t stored,
			uint32_t computed, char *err, size_t errlen)
{
	char nm[24];

	return fl_fail(err, errlen, "corrupt snapshot: section %u (%s): checksum mismatch "
		       "(stored 0x%08x, computed 0x%08x)", i, sec_label(sec->type, nm, sizeof(nm)),
		       stored, computed);
}

/*
 * One section's payload (after its header), padding included.  CRC: the
 * checksum it must have, or NULL (format 1.0); checked before the payload is
 * used, and then its padding must be zero.
 */
static int read_section(struct source *r, struct fl_snapshot *s, const struct fl_section *sec,
			unsigned int i, const uint32_t *crc, char *err, size_t errlen)
{
	size_t pad = ALIGN8(sec->size) - sec->size;
	unsigned char *tmp = NULL, padb[8];
	const unsigned char *p;
	uint32_t got;
	char nm[24];
	int ret;

	if (sec->size > src_left(r) || sec->size > SNAP_MAX_BYTES) {
		if (r->len == SIZE_MAX)
			return fl_fail(err, errlen, "section %u (type %u) claims %llu bytes",
				       i, sec->type, (unsigned long long)sec->size);
		return fl_fail(err, errlen, "truncated snapshot: section %u (type %u) needs %llu bytes, %zu left",
			       i, sec->type, (unsigned long long)sec->size, src_left(r));
	}
	if (sec->type == FL_SEC_CPU) {
		if (check_cpu_section(s, sec, err, errlen))
			return -1;
		ret = src_get(r, s->cpus, sec->size);
		if (!ret && crc && (got = sec_crc(sec, s->cpus)) != *crc)
			return crc_mismatch(sec, i, *crc, got, err, errlen);
	} else {
		if (r->buf) {
			p = r->buf + r->off;
			ret = src_get(r, NULL, sec->size);
		} else {
			p = tmp = malloc(sec->size ? sec->size : 1);
			if (!tmp)
				return fl_fail(err, errlen, "out of memory");
			ret = src_get(r, tmp, sec->size);
		}
		if (!ret && crc && (got = sec_crc(sec, p)) != *crc) {
			free(tmp);
			return crc_mismatch(sec, i, *crc, got, err, errlen);
		}
		if (!ret && parse_section(s, sec, p, err, errlen)) {
			free(tmp);
			return -1;
		}
		free(tmp);
	}
	if (ret)
		return fl_fail(err, errlen, "truncated snapshot: section %u (type %u) ends early",
			       i, sec->type);
	/* the last section's padding may be missing */
	if (pad <= src_left(r) && !src_get(r, padb, pad) && crc)
		for (size_t k = 0; k < pad; k++)
			if (padb[k])
				return fl_fail(err, errlen, "corrupt snapshot: section %u (%s): "
					       "padding after it is not zero", i,
					       sec_label(sec->type, nm, sizeof(nm)));
	return 0;
}

/*
 * The checksums after a 1.1 header (struct fl_snap_crc, then anything a later
 * minor adds, to header_size): the header's is checked here, the sections'
 * are returned in *tab (malloc'ed, nr_sections entries) for read_section.
 */
static int read_crc_header(struct source *r, const struct fl_snap_header *h, uint32_t **tab,
			   char *err, size_t errlen)
{
	size_t ext = h->header_size - sizeof(*h);
	size_t keep = sizeof(struct fl_snap_crc) + 4 * (size_t)FL_SNAP_MAX_SECTIONS;
	uint32_t stored, crc, nr;
	unsigned char *e;

	*tab = NULL;
	if (ext < sizeof(struct fl_snap_crc))
		return fl_fail(err, errlen, "bad header size %u: no room for its checksums",
			       h->header_size);
	keep = ext < keep ? ext : keep;
	e = malloc(keep);
	if (!e)
		return fl_fail(err, errlen, "out of memory");
	crc = fl_crc32c(0, h, sizeof(*h));
	if (src_get(r, e, keep)) {
		free(e);
		return fl_fail(err, errlen, "truncated snapshot: header ends early");
	}
	memcpy(&stored, e + offsetof(struct fl_snap_crc, header_crc), sizeof(stored));
	memset(e + offsetof(struct fl_snap_crc, header_crc), 0, sizeof(stored));
	crc = fl_crc32c(crc, e, keep);
	if (src_skip_crc(r, ext - keep, &crc)) {
		free(e);
		return fl_fail(err, errlen, "truncated snapshot: header ends early");
	}
	if (crc != stored) {
		free(e);
		return fl_fail(err, errlen, "corrupt snapshot: header: checksum mismatch "
			       "(stored 0x%08x, computed 0x%08x)", stored, crc);
	}
	memcpy(&nr, e + offsetof(struct fl_snap_crc, nr_crc), sizeof(nr));
	if (nr != h->nr_sections || nr > FL_SNAP_MAX_SECTIONS ||
	    offsetof(struct fl_snap_crc, section_crc) + 4 * (size_t)nr > keep) {
		free(e);
		return fl_fail(err, errlen, "bad snapshot header: %u section checksums for %u "
			       "sections (at most %u)", nr, h->nr_sections, FL_SNAP_MAX_SECTIONS);
	}
	/* the table, moved to the front: 4-byte aligned for the reader */
	memmove(e, e + offsetof(struct fl_snap_crc, section_crc), 4 * (size_t)nr);
	*tab = (uint32_t *)e;
	return 0;
}

/* Drop every `key=` line of the tags (the first one found would win). */
static void drop_tag(struct fl_snapshot *s, const char *key)
{
	size_t klen = strlen(key);
	char *p = s->tags, *w = s->tags;

	while (p && *p) {
		char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);

		if (!(n > klen && !strncmp(p, key, klen) && p[klen] == '=')) {
			memmove(w, p, n);
			w += n;
		}
		p += n;
	}
	if (w)
		*w = '\0';
}

/*
 * FL_SEC_PHASES written before the file-fault phases has FL_PH_NR_V1
 * histograms per CPU: widen it to today's layout, and name the phases it
 * could not have recorded in phases.unavailable (never a 0 for them).
 */
static int widen_phases(struct fl_snapshot *s)
{
	static const char why[] = " (not recorded: snapshot written before the file-fault phases)";
	const char *old;
	char *tag;
	size_t len;

	for (unsigned int i = 0; i < s->nr_extra; i++) {
		struct fl_raw_section *r = &s->extra[i];
		unsigned char *n;

		if (r->sec.type != FL_SEC_PHASES || !r->sec.count ||
		    r->sec.size != (fl_u64)r->sec.count * FL_PHASE_STATS_V1_SIZE)
			continue;
		n = calloc(r->sec.count, sizeof(struct fl_phase_stats));
		if (!n)
			return -1;
		for (unsigned int c = 0; c < r->sec.count; c++)
			memcpy(n + c * sizeof(struct fl_phase_stats),
			       (unsigned char *)r->data + c * FL_PHASE_STATS_V1_SIZE,
			       FL_PHASE_STATS_V1_SIZE);
		free(r->data);
		r->data = n;
		r->sec.size = (fl_u64)r->sec.count * sizeof(struct fl_phase_stats);

		old = fl_snapshot_tag(s, FL_TAG_PHASES_UNAVAILABLE);
		len = (old ? strlen(old) + 2 : 0) + (FL_PH_NR - FL_PH_NR_V1) * (sizeof(why) + 16);
		tag = malloc(len + 1);
		if (!tag)
			return -1;
		tag[0] = '\0';
		if (old && *old)
			snprintf(tag, len + 1, "%s", old);
		for (unsigned int p = FL_PH_NR_V1; p < FL_PH_NR; p++)
			snprintf(tag + strlen(tag), len + 1 - strlen(tag), "%s%s%s",
				 tag[0] ? "; " : "", fl_phase_name(p), why);
		drop_tag(s, FL_TAG_PHASES_UNAVAILABLE);
		if (fl_snapshot_set_tag(s, FL_TAG_PHASES_UNAVAILABLE, tag)) {
			free(tag);
			return -1;
		}
		free(tag);
	}
	return 0;
}

static int parse_source(struct source *r, struct fl_snapshot *s, char *err, size_t errlen)
{
	uint32_t *crc = NULL;
	unsigned int i;
	int have_cpu = 0;

	memset(s, 0, sizeof(*s));
	if (src_get(r, &s->hdr, sizeof(s->hdr)))
		return fl_fail(err, errlen, "truncated snapshot: %zu bytes, header needs %zu",
			       r->len == SIZE_MAX ? r->off : r->len, sizeof(s->hdr));
	if (s->hdr.magic != FL_SNAP_MAGIC)
		return fl_fail(err, errlen, "not a faultline snapshot (bad magic 0x%08x)", s->hdr.magic);
	if (FL_SNAP_MAJOR(s->hdr.version) != FL_SNAP_MAJOR(FL_SNAP_VERSION))
		return fl_fail(err, errlen, "unsupported snapshot version %u.%u (this build reads %u.x)",
			       s->hdr.version >> 16, s->hdr.version & 0xffff,
			       FL_SNAP_MAJOR(FL_SNAP_VERSION));
	if (s->hdr.header_size < sizeof(s->hdr) || s->hdr.header_size % 8 ||
	    s->hdr.header_size - sizeof(s->hdr) > src_left(r))
		return fl_fail(err, errlen, "bad header size %u", s->hdr.header_size);
	if (hdr_has_crc(&s->hdr)) {
		if (read_crc_header(r, &s->hdr, &crc, err, errlen))
			return -1;
	} else {
		s->no_checksums = 1;	/* 1.0: header_size is the struct's, nothing to skip */
	}
	if (s->hdr.nr_cpus == 0 || s->hdr.nr_cpus > SNAP_MAX_CPUS) {
		free(crc);
		return fl_fail(err, errlen, "bad CPU count %u", s->hdr.nr_cpus);
	}
	if ((fl_u64)s->hdr.nr_cpus * sizeof(struct fl_cpu_stats) > src_left(r)) {
		free(crc);
		return fl_fail(err, errlen, "truncated snapshot: %u CPUs need %zu bytes, %zu present",
			       s->hdr.nr_cpus, s->hdr.nr_cpus * sizeof(struct fl_cpu_stats),
			       src_left(r));
	}
	s->hdr.kernel_release[FL_KREL_LEN - 1] = '\0';
	if (fl_snapshot_alloc_cpus(s, s->hdr.nr_cpus)) {
		free(crc);
		return fl_fail(err, errlen, "out of memory");
	}

	for (i = 0; i < s->hdr.nr_sections; i++) {
		struct fl_section sec;

		if (src_get(r, &sec, sizeof(sec))) {
			fl_snapshot_free(s);
			free(crc);
			return fl_fail(err, errlen, "truncated snapshot: section %u header missing", i);
		}
		if (sec.type == FL_SEC_CPU && have_cpu++) {
			fl_snapshot_free(s);
			free(crc);
			return fl_fail(err, errlen, "duplicate CPU section");
		}
		if (read_section(r, s, &sec, i, crc ? &crc[i] : NULL, err, errlen)) {
			fl_snapshot_free(s);
			free(crc);
			return -1;
		}
	}
	free(crc);
	if (!have_cpu) {
		fl_snapshot_free(s);
		return fl_fail(err, errlen, "snapshot has no CPU section");
	}
	if (widen_phases(s)) {
		fl_snapshot_free(s);
		return fl_fail(err, errlen, "out of memory");
	}
	return 0;
}

int fl_snapshot_parse(const void *buf, size_t len, struct fl_snapshot *s,
		      char *err, size_t errlen)
{
	struct source r = { .buf = buf, .fd = -1, .len = len };

	return parse_source(&r, s, err, errlen);
}

int fl_snapshot_read_fd(int fd, long long size, struct fl_snapshot *s,
			char *err, size_t errlen)
{
	struct source r = { .fd = fd, .len = size < 0 ? SIZE_MAX : (size_t)size };

	return parse_source(&r, s, err, errlen);
}

int fl_snapshot_read_file(const char *path, struct fl_snapshot *s,
			  char *err, size_t errlen)
{
	struct stat st;
	int fd, ret;

	memset(s, 0, sizeof(*s));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fl_fail(err, errlen, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size > SNAP_MAX_BYTES) {
		close(fd);
		return fl_fail(err, errlen, "%s: not a regular file of sane size", path);
	}
	ret = fl_snapshot_read_fd(fd, st.st_size, s, err, errlen);
	close(fd);
	if (ret && err && errlen) {
		char tmp[256];

		snprintf(tmp, sizeof(tmp), "%s: %s", path, err);
		fl_fail(err, errlen, "%s", tmp);
	}
	return ret;
}

/*
 * The one writer: plan() lists the sections and takes their checksums (the
 * header, which comes first, holds them), then emit() lays the snapshot out
 * either into memory (serialize) or straight into a file descriptor, so
 * writing a file never holds a second copy of the per-CPU data (4 MB at 256
 * CPUs).  Every snapshot written is format 1.1, checksummed.
 */
struct out_sec {
	struct fl_section sec;
	const void *data;
};

struct plan {
	struct fl_snap_header hdr;
	unsigned char *ext;	/* struct fl_snap_crc and its table, to header_size */
	size_t ext_len;
	struct out_sec *sec;
	unsigned int nr;
};

static void plan_free(struct plan *pl)
{
	free(pl->ext);
	free(pl->sec);
}

static void plan_add(struct plan *pl, unsigned int type, unsigned int count, const void *data,
		     size_t size)
{
	struct out_sec *o = &pl->sec[pl->nr++];

	memset(o, 0, sizeof(*o));
	o->sec.type = type;
	o->sec.count = count;
	o->sec.size = size;
	o->data = data;
}

/* -1: out of memory, or more sections than a reader takes (errno says). */
static int plan(const struct fl_snapshot *s, struct plan *pl)
{
	unsigned int nr = 1 + !!s->cpu_online + !!s->vmstat + !!s->tags + s->nr_extra;
	uint32_t crc;

	memset(pl, 0, sizeof(*pl));
	if (s->nr_extra > FL_SNAP_MAX_SECTIONS || nr > FL_SNAP_MAX_SECTIONS) {
		errno = E2BIG;
		return -1;
	}
	pl->ext_len = ALIGN8(sizeof(struct fl_snap_crc) + 4 * (size_t)nr);
	pl->sec = calloc(nr, sizeof(*pl->sec));
	pl->ext = calloc(1, pl->ext_len);
	if (!pl->sec || !pl->ext) {
		plan_free(pl);
		errno = ENOMEM;
		return -1;
	}
	plan_add(pl, FL_SEC_CPU, s->hdr.nr_cpus, s->cpus,
		 (size_t)s->hdr.nr_cpus * sizeof(*s->cpus));
	if (s->cpu_online)
		plan_add(pl, FL_SEC_CPU_ONLINE, s->hdr.nr_cpus, s->cpu_online, s->hdr.nr_cpus);
	if (s->vmstat)
		plan_add(pl, FL_SEC_VMSTAT, s->nr_vmstat, s->vmstat,
			 s->nr_vmstat * sizeof(*s->vmstat));
	if (s->tags) {
		unsigned int lines = 0;

		for (const char *c = s->tags; *c; c++)
			lines += *c == '\n';
		plan_add(pl, FL_SEC_TAGS, lines, s->tags, strlen(s->tags));
	}
	for (unsigned int i = 0; i < s->nr_extra; i++)
		plan_add(pl, s->extra[i].sec.type, s->extra[i].sec.count, s->extra[i].data,
			 s->extra[i].sec.size);

	pl->hdr = s->hdr;
	pl->hdr.magic = FL_SNAP_MAGIC;
	pl->hdr.version = FL_SNAP_VERSION_WRITE;
	pl->hdr.header_size = sizeof(pl->hdr) + pl->ext_len;
	pl->hdr.nr_sections = nr;
	for (unsigned int i = 0; i < nr; i++) {
		crc = sec_crc(&pl->sec[i].sec, pl->sec[i].data);
		memcpy(pl->ext + offsetof(struct fl_snap_crc, section_crc) + 4 * (size_t)i,
		       &crc, sizeof(crc));
	}
	memcpy(pl->ext + offsetof(struct fl_snap_crc, nr_crc), &nr, sizeof(nr));
	crc = fl_crc32c(fl_crc32c(0, &pl->hdr, sizeof(pl->hdr)), pl->ext, pl->ext_len);
	memcpy(pl->ext + offsetof(struct fl_snap_crc, header_crc), &crc, sizeof(crc));
	return 0;
}

struct emitter {
	unsigned char *buf;	/* memory destination, or NULL */
	int fd;			/* file destination, or -1 */
	size_t off;		/* bytes emitted so far */
	int err;		/* first write error (errno) */
};

static void emit_bytes(struct emitter *e, const void *p, size_t n)
{
	size_t done = 0;

	if (e->buf && n)
		memcpy(e->buf + e->off, p, n);
	while (e->fd >= 0 && !e->err && done < n) {
		ssize_t w = write(e->fd, (const char *)p + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			e->err = w < 0 ? errno : EIO;
		else
			done += w;
	}
	e->off += n;
}

static void emit(const struct plan *pl, struct emitter *e)
{
	static const unsigned char pad[8];

	emit_bytes(e, &pl->hdr, sizeof(pl->hdr));
	emit_bytes(e, pl->ext, pl->ext_len);
	for (unsigned int i = 0; i < pl->nr; i++) {
		const struct out_sec *o = &pl->sec[i];

		emit_bytes(e, &o->sec, sizeof(o->sec));
		emit_bytes(e, o->data, o->sec.size);
		emit_bytes(e, pad, ALIGN8(o->sec.size) - o->sec.size);
	}
}

int fl_snapshot_serialize(const struct fl_snapshot *s, void **bufp, size_t *lenp)
{
	struct emitter size = { .fd = -1 }, fill = { .fd = -1 };
	struct plan pl;

	if (plan(s, &pl))
		return -1;
	emit(&pl, &size);
	fill.buf = malloc(size.off);
	if (!fill.buf) {
		plan_free(&pl);
		return -1;
	}
	emit(&pl, &fill);
	plan_free(&pl);
	*bufp = fill.buf;
	*lenp = fill.off;
	return 0;
}

int fl_snapshot_write_file(const char *path, const struct fl_snapshot *s,
			   char *err, size_t errlen)
{
	struct emitter e = { .fd = -1 };
	struct fl_atomic a;
	struct plan pl;
	char why[600];

	if (plan(s, &pl))
		return fl_fail(err, errlen, "%s: %s", path, errno == E2BIG ?
			       "too many sections to write" : strerror(errno));
	if (fl_atomic_open(&a, path, err, errlen)) {
		plan_free(&pl);
		return -1;
	}
	e.fd = a.fd;
	emit(&pl, &e);
	plan_free(&pl);
	if (fl_atomic_commit(&a, NULL, e.err, why, sizeof(why)))
		return fl_fail(err, errlen, "write failed: %s", why);
	return 0;
}

int fl_snapshot_seal(void *buf, size_t len)
{
	const size_t tab = sizeof(struct fl_snap_header) + offsetof(struct fl_snap_crc, section_crc);
	unsigned char *b = buf;
	struct fl_snap_header h;
	struct fl_section sec;
	uint32_t crc, nr_crc;
	size_t off, room;
	int ret = 0;

	if (len < sizeof(h))
		return -1;
	memcpy(&h, b, sizeof(h));
	if (!hdr_has_crc(&h))
		return 0;
	if (h.header_size < tab || h.header_size > len)
		return -1;
	memcpy(&nr_crc, b + sizeof(h) + offsetof(struct fl_snap_crc, nr_crc), sizeof(nr_crc));
	room = (h.header_size - tab) / 4;	/* table entries the header has room for */
	off = h.header_size;
	for (unsigned int i = 0; i < h.nr_sections; i++) {
		if (len - off < sizeof(sec)) {
			ret = -1;
			break;
		}
		memcpy(&sec, b + off, sizeof(sec));
		off += sizeof(sec);
		if (sec.size > len - off) {
			ret = -1;
			break;
		}
		crc = sec_crc(&sec, b + off);
		if (i < room && i < nr_crc)
			memcpy(b + tab + 4 * (size_t)i, &crc, sizeof(crc));
		off += sec.size;
		off += ALIGN8(sec.size) - sec.size <= len - off ? ALIGN8(sec.size) - sec.size : 0;
	}
	memset(b + sizeof(h) + offsetof(struct fl_snap_crc, header_crc), 0, sizeof(crc));
	crc = fl_crc32c(0, b, h.header_size);
	memcpy(b + sizeof(h) + offsetof(struct fl_snap_crc, header_crc), &crc, sizeof(crc));
	return ret;
}

void fl_snapshot_names_free(char **names, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int fl_snapshot_list_dir(const char *dir, char ***names, unsigned int *nnames,
			 char *err, size_t errlen)
{
	char **v = NULL;
	unsigned int n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int e;

	*names = NULL;
	*nnames = 0;
	d = opendir(dir);
	if (!d) {
		e = errno;
		fl_fail(err, errlen, "%s: %s", dir, strerror(e));
		errno = e;
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l <= 5 || strcmp(de->d_name + l - 5, ".snap") || de->d_name[0] == '.' ||
		    de->d_type == DT_DIR)
			continue;
		if (n == cap) {
			char **nv = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*nv));

			if (!nv)
				goto oom;
			v = nv;
		}
		if (!(v[n] = strdup(de->d_name)))
			goto oom;
		n++;
	}
	closedir(d);
	if (n)	/* qsort(NULL, 0) is undefined */
		qsort(v, n, sizeof(*v), cmp_name);
	*names = v;
	*nnames = n;
	return 0;
oom:
	closedir(d);
	fl_snapshot_names_free(v, n);
	fl_fail(err, errlen, "out of memory");
	errno = ENOMEM;
	return -1;
}

void fl_snapshot_total(const struct fl_snapshot *s, struct fl_cpu_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int c = 0; c < s->hdr.nr_cpus; c++)
		fl_cpu_stats_add(out, &s->cpus[c]);
}

/* The value of the KEY= line, kept in the snapshot's cache of values handed out. */
static const char *tag_value(const struct fl_snapshot *s, const char *key)
{
	/* the values handed out are the snapshot's: a cache, not its contents */
	struct fl_snapshot *own = (struct fl_snapshot *)s;
	size_t klen = strlen(key);
	const char *p = s->tags;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);

		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			const char *v = p + klen + 1;
			char **nv, *e;

			n -= klen + 1;
			/* the same key=value handed out before: the same string */
			for (unsigned int i = 0; i < s->nr_tag_vals; i++) {
				e = s->tag_vals[i];
				if (!strcmp(e, key) && !strncmp(e + klen + 1, v, n) && !e[klen + 1 + n])
					return e + klen + 1;
			}
			nv = realloc(s->tag_vals, (s->nr_tag_vals + 1) * sizeof(*nv));
			if (!nv)
				return NULL;
			own->tag_vals = nv;
			e = malloc(klen + 1 + n + 1);
			if (!e)
				return NULL;
			memcpy(e, key, klen + 1);
			memcpy(e + klen + 1, v, n);
			e[klen + 1 + n] = '\0';
			own->tag_vals[own->nr_tag_vals++] = e;
			return e + klen + 1;
		}
		p = eol ? eol + 1 : p + n;
	}
	return NULL;
}

const char *fl_snapshot_tag(const struct fl_snapshot *s, const char *key)
{
	static const struct { const char *now, *old; } renamed[] = FL_TAG_RENAMED;
	const char *v = tag_value(s, key);

	/* a snapshot recorded before the key was renamed */
	for (size_t i = 0; !v && i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (!strcmp(key, renamed[i].now))
			v = tag_value(s, renamed[i].old);
	return v;
}

int fl_snapshot_set_tag(struct fl_snapshot *s, const char *key, const char *value)
{
	size_t old = s->tags ? strlen(s->tags) : 0;
	size_t add = strlen(key) + strlen(value) + 2;
	char *n;

	if (!*key || strchr(key, '=') || strchr(key, '\n') || strchr(value, '\n'))
		return -1;
	n = realloc(s->tags, old + add + 1);
	if (!n)
		return -1;
	snprintf(n + old, add + 1, "%s=%s\n", key, value);
	s->tags = n;
	return 0;
}

int fl_snapshot_replace_tag(struct fl_snapshot *s, const char *key, const char *value)
{
	drop_tag(s, key);
	return fl_snapshot_set_tag(s, key, value);
}

long long fl_snapshot_vmstat_delta(const struct fl_snapshot *s, const char *name)
{
	for (unsigned int i = 0; i < s->nr_vmstat; i++)
		if (!strcmp(s->vmstat[i].name, name))
			return (long long)(s->vmstat[i].after - s->vmstat[i].before);
	return -1;
}

#define NAME_OF(tab, i) ((i) < sizeof(tab) / sizeof(tab[0]) && tab[i] ? tab[i] : "unknown")

const char *fl_backend_name(unsigned int b)
{
	static const char *const n[] = { "none", "bpf", "kmod" };

	return NAME_OF(n, b);
}

const char *fl_tier_name(unsigned int t)
{
	static const char *const n[] = { "none", "fentry", "kprobe", "tracepoint" };

	return NAME_OF(n, t);
}

const char *fl_hook_name(unsigned int h)
{
	static const char *const n[FL_HOOK_NR] = FL_HOOK_NAMES;

	return NAME_OF(n, h);
}

const char *fl_ll_kind_name(unsigned int k)
{
	static const char *const n[] = { "none", "per-vma-lock", "spf", "unknown" };

	return NAME_OF(n, k);
}

/* The names are include/faultline/abi.h's, shared with the module. */
const char *fl_phase_name(unsigned int phase)
{
	static const char *const n[FL_PH_NR] = FL_PHASE_NAMES;

	return phase < FL_PH_NR ? n[phase] : "?";
}

const char *fl_hist_name(unsigned int id)
{
	static const char *const n[FL_H_NR] = FL_HIST_NAMES;

	return NAME_OF(n, id);
}

const char *fl_counter_name(unsigned int id)
{
	static const char *const n[FL_C_NR] = FL_COUNTER_NAMES;

	return NAME_OF(n, id);
}

const char *fl_ll_name(unsigned int id)
{
	static const char *const n[FL_LL_NR] = FL_LL_NAMES;

	return NAME_OF(n, id);
}

const void *fl_snapshot_find_section(const struct fl_snapshot *s, unsigned int type,
				     size_t elem, unsigned int *nr)
{
	unsigned int i;

	*nr = 0;
	for (i = 0; i < s->nr_extra; i++) {
		const struct fl_raw_section *r = &s->extra[i];

		if (r->sec.type != type)
			continue;
		if (r->sec.size != (fl_u64)r->sec.count * elem || (r->sec.count && !r->data))
			return NULL;
		*nr = r->sec.count;
		return r->data;
	}
	return NULL;
}
