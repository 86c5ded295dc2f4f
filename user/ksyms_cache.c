// SPDX-License-Identifier: GPL-2.0
/* The per-boot cache of the parsed kallsyms table (ksyms_cache.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "crc32c.h"
#include "ksyms_cache.h"
#include "topology.h"

#define KC_DEFAULT_DIR	"/run/faultline"
#define KC_FULL		"ksyms-full"
#define KC_DATA		"ksyms-data"

typedef struct fl_ksyms_cache_hdr kc_hdr;

_Static_assert(sizeof(kc_hdr) == 224, "the header has no padding");

/* The data symbols: the same fields in the header and in struct fl_ksyms */
#define KC_FIELDS(X)	X(stext) X(etext) X(page_offset_base) X(vmemmap_base) \
			X(vma_lock_cachep) X(preempt_count) X(pcpu_hot) X(per_cpu_offset)
#define KC_TO_K(f)	k->f = h->f;
#define KC_TO_H(f)	h->f = k->f;

/* One file entry: what struct fl_ksym is on LP64, read in place */
struct kc_rec {
	uint64_t addr, off;
};

/* The text table is read straight into s[] and by_name[]: LP64 only */
static bool kc_lp64(void)
{
	return sizeof(struct fl_ksym) == sizeof(struct kc_rec) &&
	       offsetof(struct fl_ksym, name) == offsetof(struct kc_rec, off) &&
	       sizeof(size_t) == sizeof(uint64_t);
}

static size_t kc_size(uint64_t n, uint64_t names_len)
{
	return sizeof(kc_hdr) + n * (sizeof(struct kc_rec) + sizeof(uint64_t)) + names_len;
}

/* s in a zero-padded field of len bytes, as the writer puts it: 0 or -1 */
static int kc_field(char *field, size_t len, const char *s)
{
	size_t l = strlen(s);

	if (l >= len)
		return -1;
	memcpy(field, s, l);
	memset(field + l, 0, len - l);
	return 0;
}

/* Everything the header says, against what is wanted; size: the file's. */
static int kc_check_hdr(const kc_hdr *h, size_t size, bool text, const char *boot_id,
			const char *release)
{
	char bid[sizeof(h->boot_id)], rel[sizeof(h->release)];

	/* exactly as written (zero padding too): one file per table */
	if (memcmp(h->magic, FL_KSYMS_CACHE_MAGIC, sizeof(h->magic)) ||
	    h->version != FL_KSYMS_CACHE_VERSION || h->zero ||
	    h->flags != (text ? FL_KSYMS_CACHE_TEXT : 0) ||
	    kc_field(bid, sizeof(bid), boot_id) || memcmp(h->boot_id, bid, sizeof(bid)) ||
	    kc_field(rel, sizeof(rel), release) || memcmp(h->release, rel, sizeof(rel)))
		return -1;
	if (text ? !kc_lp64() || !h->n || h->n > FL_KSYMS_CACHE_MAX_N || h->names_len < 2 ||
		   h->names_len > FL_KSYMS_CACHE_MAX_NAMES
		 : h->n || h->names_len)
		return -1;
	/* what parse_finish accepts */
	if (size != kc_size(h->n, h->names_len) || !h->stext || h->etext <= h->stext)
		return -1;
	return 0;
}

/* k from h: the data symbols, room for the text table (read in raw). */
static int kc_alloc(struct fl_ksyms *k, const kc_hdr *h)
{
	memset(k, 0, sizeof(*k));
	KC_FIELDS(KC_TO_K)
	if (!h->n)
		return 0;
	/* separate blocks, as the parser's: fl_ksyms_free() frees them */
	k->s = malloc(h->n * sizeof(*k->s));
	k->by_name = malloc(h->n * sizeof(*k->by_name));
	k->names = malloc(h->names_len);
	if (!k->s || !k->by_name || !k->names) {
		fl_ksyms_free(k);
		return -1;
	}
	k->n = k->cap = h->n;
	k->names_len = k->names_cap = h->names_len;
	return 0;
}

static int by_name_cmp(const struct fl_ksyms *k, size_t x, size_t y)
{
	int c = strcmp(k->s[x].name, k->s[y].name);

	return c ? c : (x > y) - (x < y);
}

/*
 * The table as read (the text table's raw entries in s[] and by_name[]):
 * check the crc and that it is what parse_finish builds, then point the
 * names into the arena.  0, or -1 with k freed.
 */
static int kc_finish(struct fl_ksyms *k, const kc_hdr *h)
{
	uint32_t crc = fl_crc32c(0, h, offsetof(kc_hdr, crc));

	crc = fl_crc32c(crc, k->s, k->n * sizeof(struct kc_rec));
	crc = fl_crc32c(crc, k->by_name, k->n * sizeof(uint64_t));
	crc = fl_crc32c(crc, k->names, k->names_len);
	if (crc != h->crc || (k->n && k->names[k->names_len - 1]))
		goto bad;
	for (size_t i = 0; i < k->n; i++) {
		uint64_t off;

		memcpy(&off, &k->s[i].name, sizeof(off));
		/* the arena ends with a NUL: a name from any offset ends in it */
		if (off >= k->names_len || !k->names[off] ||
		    (i && k->s[i - 1].addr > k->s[i].addr))
			goto bad;
		k->s[i].name = k->names + off;
	}
	/* strictly increasing by (name, index): a permutation, sorted */
	for (size_t i = 0; i < k->n; i++)
		if (k->by_name[i] >= k->n ||
		    (i && by_name_cmp(k, k->by_name[i - 1], k->by_name[i]) >= 0))
			goto bad;
	return 0;
bad:
	fl_ksyms_free(k);
	return -1;
}

int fl_ksyms_cache_decode(struct fl_ksyms *k, const void *buf, size_t len, bool text,
			  const char *boot_id, const char *release)
{
	const char *p = buf;
	kc_hdr h;

	memset(k, 0, sizeof(*k));
	if (len < sizeof(h))
		return -1;
	memcpy(&h, p, sizeof(h));
	if (kc_check_hdr(&h, len, text, boot_id, release) || kc_alloc(k, &h))
		return -1;
	if (text) {
		p += sizeof(h);
		memcpy(k->s, p, k->n * sizeof(struct kc_rec));
		p += k->n * sizeof(struct kc_rec);
		memcpy(k->by_name, p, k->n * sizeof(uint64_t));
		p += k->n * sizeof(uint64_t);
		memcpy(k->names, p, k->names_len);
	}
	return kc_finish(k, &h);
}

/* Where the bytes of a file go: buf (the whole file), else fd at each offset */
struct kc_sink {
	char *buf;
	int fd;
};

static int kc_put(struct kc_sink *o, const void *p, size_t len, size_t off)
{
	if (o->buf) {
		memcpy(o->buf + off, p, len);
		return 0;
	}
	while (len) {
		ssize_t w = pwrite(o->fd, p, len, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p = (const char *)p + w;
		len -= (size_t)w;
		off += (size_t)w;
	}
	return 0;
}

static int kc_header(kc_hdr *h, const struct fl_ksyms *k, bool text, const char *boot_id,
		     const char *release)
{
	memset(h, 0, sizeof(*h));
	if (!k->stext || k->etext <= k->stext || (text && (!k->n || !k->names_len)) ||
	    k->n > FL_KSYMS_CACHE_MAX_N || k->names_len > FL_KSYMS_CACHE_MAX_NAMES ||
	    kc_field(h->boot_id, sizeof(h->boot_id), boot_id) ||
	    kc_field(h->release, sizeof(h->release), release))
		return -1;
	memcpy(h->magic, FL_KSYMS_CACHE_MAGIC, sizeof(h->magic));
	h->version = FL_KSYMS_CACHE_VERSION;
	h->flags = text ? FL_KSYMS_CACHE_TEXT : 0;
	h->n = text ? k->n : 0;
	h->names_len = text ? k->names_len : 0;
	KC_FIELDS(KC_TO_H)
	return 0;
}

/* The body a piece at a time (no second copy of the table), the header last. */
static int kc_emit(kc_hdr *h, const struct fl_ksyms *k, struct kc_sink *o)
{
	uint32_t crc = fl_crc32c(0, h, offsetof(kc_hdr, crc));
	size_t off = sizeof(*h);
	struct kc_rec rec[1024];
	uint64_t idx[2048];

	for (size_t i = 0; i < h->n; i += 1024) {
		size_t m = h->n - i < 1024 ? h->n - i : 1024;

		for (size_t j = 0; j < m; j++) {
			rec[j].addr = k->s[i + j].addr;
			rec[j].off = (uint64_t)(k->s[i + j].name - k->names);
		}
		crc = fl_crc32c(crc, rec, m * sizeof(*rec));
		if (kc_put(o, rec, m * sizeof(*rec), off))
			return -1;
		off += m * sizeof(*rec);
	}
	for (size_t i = 0; i < h->n; i += 2048) {
		size_t m = h->n - i < 2048 ? h->n - i : 2048;

		for (size_t j = 0; j < m; j++)
			idx[j] = k->by_name[i + j];
		crc = fl_crc32c(crc, idx, m * sizeof(*idx));
		if (kc_put(o, idx, m * sizeof(*idx), off))
			return -1;
		off += m * sizeof(*idx);
	}
	crc = fl_crc32c(crc, k->names, h->names_len);
	if (h->names_len && kc_put(o, k->names, h->names_len, off))
		return -1;
	h->crc = crc;
	return kc_put(o, h, sizeof(*h), 0);
}

int fl_ksyms_cache_encode(const struct fl_ksyms *k, bool text, const char *boot_id,
			  const char *release, void **buf, size_t *len)
{
	struct kc_sink o = { .fd = -1 };
	kc_hdr h;

	*buf = NULL;
	*len = 0;
	if (kc_header(&h, k, text, boot_id, release))
		return -1;
	o.buf = malloc(kc_size(h.n, h.names_len));
	if (!o.buf)
		return -1;
	kc_emit(&h, k, &o);	/* into memory: cannot fail */
	*buf = o.buf;
	*len = kc_size(h.n, h.names_len);
	return 0;
}

/* dir, ours alone (it holds kernel addresses): an fd, or -1. */
static int kc_opendir(const char *dir, bool create)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0 && errno == ENOENT && create && !mkdir(dir, 0700))
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int kc_pread(int fd, void *buf, size_t len, size_t off)
{
	while (len) {
		ssize_t r = pread(fd, buf, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		buf = (char *)buf + r;
		len -= (size_t)r;
		off += (size_t)r;
	}
	return 0;
}

/* Read straight into the table's own blocks: no copy of the file besides. */
static int kc_load_fd(struct fl_ksyms *k, int fd, bool text, const char *boot_id,
		      const char *release)
{
	size_t off = sizeof(kc_hdr);
	struct stat st;
	kc_hdr h;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) || st.st_size < (off_t)sizeof(h) ||
	    kc_pread(fd, &h, sizeof(h), 0) ||
	    kc_check_hdr(&h, (size_t)st.st_size, text, boot_id, release) || kc_alloc(k, &h))
		return -1;
	if (text && (kc_pread(fd, k->s, k->n * sizeof(struct kc_rec), off) ||
	    kc_pread(fd, k->by_name, k->n * sizeof(uint64_t), off += k->n * sizeof(struct kc_rec)) ||
	    kc_pread(fd, k->names, k->names_len, off + k->n * sizeof(uint64_t)))) {
		fl_ksyms_free(k);
		return -1;
	}
	return kc_finish(k, &h);
}

int fl_ksyms_cache_load_at(struct fl_ksyms *k, bool text, const char *dir,
			   const char *boot_id, const char *release)
{
	int dfd, fd, ret = -1;

	memset(k, 0, sizeof(*k));
	dfd = kc_opendir(dir, false);
	if (dfd < 0)
		return -1;
	/* O_NONBLOCK: nothing but a regular file is read, a FIFO neither */
	fd = openat(dfd, text ? KC_FULL : KC_DATA, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		ret = kc_load_fd(k, fd, text, boot_id, release);
		close(fd);
	}
	close(dfd);
	return ret;
}

/* name in dfd, replaced whole: a temporary file renamed over it. */
static int kc_store_one(int dfd, const char *name, const struct fl_ksyms *k, bool text,
			const char *boot_id, const char *release)
{
	struct kc_sink o = { .fd = -1 };
	char tmp[64];
	kc_hdr h;
	int ret;

	if (kc_header(&h, k, text, boot_id, release))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", name, (int)getpid());
	o.fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (o.fd < 0 && errno == EEXIST) {	/* left by a process of the same pid */
		unlinkat(dfd, tmp, 0);
		o.fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	}
	if (o.fd < 0)
		return -1;
	/* 0600 whatever the umask: the loader wants no more and no less */
	ret = fchmod(o.fd, 0600) || kc_emit(&h, k, &o) ? -1 : 0;
	if (close(o.fd))
		ret = -1;
	if (!ret && renameat(dfd, tmp, dfd, name))
		ret = -1;
	if (ret)
		unlinkat(dfd, tmp, 0);
	return ret;
}

int fl_ksyms_cache_store_at(const struct fl_ksyms *k, bool text, const char *dir,
			    const char *boot_id, const char *release)
{
	int dfd = kc_opendir(dir, true), ret;

	if (dfd < 0)
		return -1;
	/* the full table's data symbols are the data file's too */
	ret = kc_store_one(dfd, KC_DATA, k, false, boot_id, release);
	if (text && kc_store_one(dfd, KC_FULL, k, true, boot_id, release))
		ret = -1;
	close(dfd);
	return ret;
}

/* $FAULTLINE_KSYMS_CACHE, else the default; NULL: off. */
static const char *kc_dirname(void)
{
	const char *d = getenv("FAULTLINE_KSYMS_CACHE");

	if (!d || !*d)
		return KC_DEFAULT_DIR;
	return strcmp(d, "off") ? d : NULL;
}

/* The running kernel's key: boot id and release. */
static int kc_ids(char *boot_id, size_t blen, char *release, size_t rlen)
{
	struct utsname u;

	if (fl_read_root(NULL, "/proc/sys/kernel/random/boot_id", boot_id, blen) ||
	    !boot_id[0] || uname(&u))
		return -1;
	return snprintf(release, rlen, "%s", u.release) < (int)rlen ? 0 : -1;
}

/*
 * Whether /proc/kallsyms shows this process addresses (a non-zero one in
 * its first lines): kptr_restrict and CAP_SYSLOG are checked at each open,
 * and the cache must not outlive a change of either.  A few lines: cheap.
 */
static bool kc_addresses_shown(void)
{
	char buf[4096];
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	bool bol = true;
	ssize_t r;

	if (fd < 0)
		return false;
	r = read(fd, buf, sizeof(buf));
	close(fd);
	for (ssize_t i = 0; i < r; i++) {
		if (buf[i] == '\n')
			bol = true;
		else if (buf[i] == ' ')
			bol = false;
		else if (bol && buf[i] != '0')
			return true;
	}
	return false;
}

int fl_ksyms_cache_load(struct fl_ksyms *k, bool text)
{
	const char *dir = kc_dirname();
	char boot_id[48], release[72];

	memset(k, 0, sizeof(*k));
	if (!dir || kc_ids(boot_id, sizeof(boot_id), release, sizeof(release)) ||
	    fl_ksyms_cache_load_at(k, text, dir, boot_id, release))
		return -1;
	if (!kc_addresses_shown()) {
		fl_ksyms_free(k);
		return -1;
	}
	return 0;
}

void fl_ksyms_cache_store(const struct fl_ksyms *k, bool text)
{
	const char *dir = kc_dirname();
	char boot_id[48], release[72];

	if (dir && !kc_ids(boot_id, sizeof(boot_id), release, sizeof(release)))
		fl_ksyms_cache_store_at(k, text, dir, boot_id, release);
}
