// SPDX-License-Identifier: GPL-2.0
/* /proc/kallsyms, read once per process (ksyms.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errbuf.h"
#include "ksyms.h"
#include "ksyms_cache.h"

static int ksym_cmp(const void *a, const void *b)
{
	const struct fl_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const struct fl_ksyms *name_cmp_k;	/* qsort has no context argument */

static int name_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(name_cmp_k->s[x].name, name_cmp_k->s[y].name);

	return c ? c : (x > y) - (x < y);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The data symbols kept, and where in struct fl_ksyms */
static const struct {
	const char *name;
	size_t off;
} data_syms[] = {
	{ "_stext", offsetof(struct fl_ksyms, stext) },
	{ "_etext", offsetof(struct fl_ksyms, etext) },
	{ "page_offset_base", offsetof(struct fl_ksyms, page_offset_base) },
	{ "vmemmap_base", offsetof(struct fl_ksyms, vmemmap_base) },
	{ "vma_lock_cachep", offsetof(struct fl_ksyms, vma_lock_cachep) },
	{ "__preempt_count", offsetof(struct fl_ksyms, preempt_count) },
	{ "pcpu_hot", offsetof(struct fl_ksyms, pcpu_hot) },
	{ "__per_cpu_offset", offsetof(struct fl_ksyms, per_cpu_offset) },
};

static void note_data(struct fl_ksyms *k, const char *name, size_t len, unsigned long long addr)
{
	for (size_t i = 0; i < sizeof(data_syms) / sizeof(data_syms[0]); i++)
		if (strlen(data_syms[i].name) == len && !memcmp(data_syms[i].name, name, len)) {
			*(unsigned long long *)((char *)k + data_syms[i].off) = addr;
			return;
		}
}

unsigned long long fl_ksyms_data_addr(const struct fl_ksyms *k, const char *name)
{
	for (size_t i = 0; k && i < sizeof(data_syms) / sizeof(data_syms[0]); i++)
		if (!strcmp(data_syms[i].name, name))
			return *(const unsigned long long *)((const char *)k + data_syms[i].off);
	return 0;
}

/* Append a text symbol; name is len bytes, not terminated. */
static int add_text(struct fl_ksyms *k, const char *name, size_t len, unsigned long long addr)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 65536;
		struct fl_ksym *s = realloc(k->s, cap * sizeof(*s));

		if (!s)
			return -1;
		k->s = s;
		k->cap = cap;
	}
	if (k->names_len + len + 1 > k->names_cap) {
		size_t cap = k->names_cap ? k->names_cap * 2 : 1 << 21;
		char *p;

		while (cap < k->names_len + len + 1)
			cap *= 2;
		p = realloc(k->names, cap);
		if (!p)
			return -1;
		k->names = p;
		k->names_cap = cap;
	}
	memcpy(k->names + k->names_len, name, len);
	k->names[k->names_len + len] = '\0';
	/* an offset until the arena stops moving (fl_ksyms_parse's end) */
	k->s[k->n].name = (const char *)(uintptr_t)k->names_len;
	k->s[k->n].addr = addr;
	k->names_len += len + 1;
	k->n++;
	return 0;
}

/*
 * One "ADDR TYPE NAME[\t[MODULE]]" line of p..eol: module symbols (a '['
 * on the line) are left out, names past 255 bytes cut there; text symbols
 * are kept only when text is set.  -1 when out of memory.
 */
static int parse_line(struct fl_ksyms *k, const char *p, const char *eol, bool text)
{
	const char *q = p, *name;
	unsigned long long addr = 0;
	size_t nlen = 0;
	int digits = 0, h;
	char type;

	while (q < eol && (h = hexval(*q)) >= 0 && digits < 16) {
		addr = addr << 4 | (unsigned int)h;
		q++;
		digits++;
	}
	if (!digits || q + 3 > eol || q[0] != ' ' || q[2] != ' ' ||
	    memchr(q, '[', (size_t)(eol - q)))
		return 0;
	type = q[1];
	name = q + 3;
	while (name + nlen < eol && name[nlen] != ' ' && name[nlen] != '\t' && name[nlen])
		nlen++;
	if (!nlen)
		return 0;
	if (nlen > 255)
		nlen = 255;
	note_data(k, name, nlen, addr);
	if (text && (type == 't' || type == 'T'))
		return add_text(k, name, nlen, addr);
	return 0;
}

/* After the last line: check, then sort the text symbols and index their names. */
static int parse_finish(struct fl_ksyms *k, bool text, char *err, size_t errlen)
{
	if ((text && !k->n) || !k->stext || k->etext <= k->stext) {
		fl_ksyms_free(k);
		return fl_fail(err, errlen, "/proc/kallsyms shows no addresses (kptr_restrict, not root?)");
	}
	if (!text)
		return 0;
	for (size_t i = 0; i < k->n; i++)
		k->s[i].name = k->names + (uintptr_t)k->s[i].name;
	qsort(k->s, k->n, sizeof(*k->s), ksym_cmp);
	k->by_name = malloc(k->n * sizeof(*k->by_name));
	if (!k->by_name) {
		fl_ksyms_free(k);
		return fl_fail(err, errlen, "out of memory reading /proc/kallsyms");
	}
	for (size_t i = 0; i < k->n; i++)
		k->by_name[i] = i;
	name_cmp_k = k;
	qsort(k->by_name, k->n, sizeof(*k->by_name), name_cmp);
	name_cmp_k = NULL;
	return 0;
}

/* Parse complete lines of buf[0..len); the length of the unfinished tail. */
static ssize_t parse_lines(struct fl_ksyms *k, const char *buf, size_t len, bool last, bool text)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol) {
			if (!last)
				break;
			eol = end;
		}
		if (parse_line(k, p, eol, text))
			return -1;
		p = eol + 1;
	}
	return p < end ? end - p : 0;
}

int fl_ksyms_parse(struct fl_ksyms *k, const char *text, size_t len, char *err, size_t errlen)
{
	memset(k, 0, sizeof(*k));
	if (parse_lines(k, text, len, true, true) < 0) {
		fl_ksyms_free(k);
		return fl_fail(err, errlen, "out of memory reading /proc/kallsyms");
	}
	return parse_finish(k, true, err, errlen);
}

/*
 * Parse path as it is read, 64 KiB at a time: the whole text (~6-9 MB on a
 * distribution kernel) would be the collector's peak RSS (overhead.rst,
 * "Memory and snapshot cost").  text: keep the text symbols too.
 */
int fl_ksyms_read(struct fl_ksyms *k, const char *path, bool text, char *err, size_t errlen)
{
	char buf[1 << 16];
	size_t have = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(k, 0, sizeof(*k));
	if (fd < 0)
		return fl_fail(err, errlen, "%s: %s", path, strerror(errno));
	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - have), tail;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			fl_ksyms_free(k);
			return fl_fail(err, errlen, "%s: %s", path, strerror(e));
		}
		have += (size_t)r;
		tail = parse_lines(k, buf, have, !r, text);
		/* a line longer than the buffer: cut (names past 255 bytes are cut anyway) */
		if (tail == (ssize_t)sizeof(buf))
			tail = parse_lines(k, buf, have, true, text);
		if (tail < 0) {
			close(fd);
			fl_ksyms_free(k);
			return fl_fail(err, errlen, "out of memory reading %s", path);
		}
		memmove(buf, buf + have - (size_t)tail, (size_t)tail);
		have = (size_t)tail;
		if (!r)
			break;
	}
	close(fd);
	return parse_finish(k, text, err, errlen);
}

/* One cached read of /proc/kallsyms: the whole table, or its data symbols. */
struct ksyms_cache {
	struct fl_ksyms k;
	bool tried;
	char err[160];
};

static pthread_mutex_t ksyms_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ksyms_cache full, data;

/*
 * C's table, at the first call (TEXT: with the text symbols): from this
 * boot's cache file, else read and stored there (ksyms_cache.h); only a
 * table the parser accepted is stored.  Under ksyms_lock.
 */
static const struct fl_ksyms *cached(struct ksyms_cache *c, bool text, char *err, size_t errlen)
{
	if (!c->tried) {
		c->tried = true;
		if (fl_ksyms_cache_load(&c->k, text) &&
		    !fl_ksyms_read(&c->k, "/proc/kallsyms", text, c->err, sizeof(c->err)))
			fl_ksyms_cache_store(&c->k, text);
	}
	if (c->k.stext)
		return &c->k;
	fl_fail(err, errlen, "%s", c->err);
	return NULL;
}

const struct fl_ksyms *fl_ksyms_get(char *err, size_t errlen)
{
	const struct fl_ksyms *k;

	pthread_mutex_lock(&ksyms_lock);
	k = cached(&full, true, err, errlen);
	pthread_mutex_unlock(&ksyms_lock);
	return k;
}

const struct fl_ksyms *fl_ksyms_data(char *err, size_t errlen)
{
	const struct fl_ksyms *k;

	pthread_mutex_lock(&ksyms_lock);
	k = full.k.n ? &full.k : cached(&data, false, err, errlen);
	pthread_mutex_unlock(&ksyms_lock);
	return k;
}

size_t fl_ksym_base_len(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

long fl_ksyms_find(const struct fl_ksyms *k, unsigned long long addr)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (long)lo - 1 : -1;
}

unsigned long long fl_ksyms_end(const struct fl_ksyms *k, size_t i)
{
	for (size_t m = i + 1; m < k->n; m++)
		if (k->s[m].addr > k->s[i].addr)
			return k->s[m].addr;
	return 0;
}

/* First by_name position whose name is >= key (prefix: compare only its length). */
static size_t lower_bound(const struct fl_ksyms *k, const char *key, size_t klen)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strncmp(k->s[k->by_name[mid]].name, key, klen) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t fl_ksyms_prefix(const struct fl_ksyms *k, const char *prefix, size_t *first)
{
	size_t plen = strlen(prefix), i = lower_bound(k, prefix, plen), j = i;

	while (j < k->n && !strncmp(k->s[k->by_name[j]].name, prefix, plen))
		j++;
	*first = i;
	return j - i;
}

long fl_ksyms_lookup(const struct fl_ksyms *k, const char *name)
{
	size_t first, n = fl_ksyms_prefix(k, name, &first);

	for (size_t i = first; i < first + n; i++)
		if (!strcmp(k->s[k->by_name[i]].name, name))
			return (long)k->by_name[i];
	return -1;
}
