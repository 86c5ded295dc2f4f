// SPDX-License-Identifier: GPL-2.0
/* The one snapshot reader/writer (layout: include/faultline/abi.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snapshot.h"
#include "errbuf.h"

#define SNAP_MAX_BYTES	(1ULL << 31)	/* refuse absurd files before reading */
#define SNAP_MAX_CPUS	65536
#define ALIGN8(x)	(((x) + 7) & ~(size_t)7)

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
	memset(s, 0, sizeof(*s));
}

int fl_snapshot_alloc_cpus(struct fl_snapshot *s, unsigned int nr_cpus)
{
	free(s->cpus);
	free(s->cpu_online);
	s->cpus = calloc(nr_cpus ? nr_cpus : 1, sizeof(*s->cpus));
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

static int parse_section(struct fl_snapshot *s, const struct fl_section *sec,
			 const unsigned char *p, char *err, size_t errlen)
{
	switch (sec->type) {
	case FL_SEC_CPU:
		if (sec->count != s->hdr.nr_cpus)
			return fl_fail(err, errlen, "CPU section has %u CPUs, header says %u",
				    sec->count, s->hdr.nr_cpus);
		if (sec->size != (fl_u64)sec->count * sizeof(struct fl_cpu_stats))
			return fl_fail(err, errlen, "CPU section size %llu does not match %u x %zu",
				    (unsigned long long)sec->size, sec->count,
				    sizeof(struct fl_cpu_stats));
		memcpy(s->cpus, p, sec->size);
		return 0;
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

int fl_snapshot_parse(const void *buf, size_t len, struct fl_snapshot *s,
		      char *err, size_t errlen)
{
	const unsigned char *p = buf;
	size_t off;
	unsigned int i;
	int have_cpu = 0;

	memset(s, 0, sizeof(*s));
	if (len < sizeof(s->hdr))
		return fl_fail(err, errlen, "truncated snapshot: %zu bytes, header needs %zu",
			    len, sizeof(s->hdr));
	memcpy(&s->hdr, p, sizeof(s->hdr));
	if (s->hdr.magic != FL_SNAP_MAGIC)
		return fl_fail(err, errlen, "not a faultline snapshot (bad magic 0x%08x)", s->hdr.magic);
	if (FL_SNAP_MAJOR(s->hdr.version) != FL_SNAP_MAJOR(FL_SNAP_VERSION))
		return fl_fail(err, errlen, "unsupported snapshot version %u.%u (this build reads %u.x)",
			    s->hdr.version >> 16, s->hdr.version & 0xffff,
			    FL_SNAP_MAJOR(FL_SNAP_VERSION));
	if (s->hdr.header_size < sizeof(s->hdr) || s->hdr.header_size > len ||
	    s->hdr.header_size % 8)
		return fl_fail(err, errlen, "bad header size %u", s->hdr.header_size);
	if (s->hdr.nr_cpus == 0 || s->hdr.nr_cpus > SNAP_MAX_CPUS)
		return fl_fail(err, errlen, "bad CPU count %u", s->hdr.nr_cpus);
	if ((fl_u64)s->hdr.nr_cpus * sizeof(struct fl_cpu_stats) > len - s->hdr.header_size)
		return fl_fail(err, errlen, "truncated snapshot: %u CPUs need %zu bytes, %zu present",
			    s->hdr.nr_cpus, s->hdr.nr_cpus * sizeof(struct fl_cpu_stats),
			    len - s->hdr.header_size);
	s->hdr.kernel_release[FL_KREL_LEN - 1] = '\0';
	if (fl_snapshot_alloc_cpus(s, s->hdr.nr_cpus))
		return fl_fail(err, errlen, "out of memory");

	off = s->hdr.header_size;
	for (i = 0; i < s->hdr.nr_sections; i++) {
		struct fl_section sec;

		if (len - off < sizeof(sec)) {
			fl_snapshot_free(s);
			return fl_fail(err, errlen, "truncated snapshot: section %u header missing", i);
		}
		memcpy(&sec, p + off, sizeof(sec));
		off += sizeof(sec);
		if (sec.size > len - off) {
			fl_snapshot_free(s);
			return fl_fail(err, errlen, "truncated snapshot: section %u (type %u) needs %llu bytes, %zu left",
				    i, sec.type, (unsigned long long)sec.size, len - off);
		}
		if (sec.type == FL_SEC_CPU) {
			if (have_cpu++) {
				fl_snapshot_free(s);
				return fl_fail(err, errlen, "duplicate CPU section");
			}
		}
		if (parse_section(s, &sec, p + off, err, errlen)) {
			fl_snapshot_free(s);
			return -1;
		}
		off += ALIGN8(sec.size) <= len - off ? ALIGN8(sec.size) : sec.size;
	}
	if (!have_cpu) {
		fl_snapshot_free(s);
		return fl_fail(err, errlen, "snapshot has no CPU section");
	}
	return 0;
}

int fl_snapshot_read_file(const char *path, struct fl_snapshot *s,
			  char *err, size_t errlen)
{
	struct stat st;
	void *buf = NULL;
	size_t got = 0;
	int fd, ret;

	memset(s, 0, sizeof(*s));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fl_fail(err, errlen, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size > SNAP_MAX_BYTES) {
		close(fd);
		return fl_fail(err, errlen, "%s: not a regular file of sane size", path);
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		close(fd);
		return fl_fail(err, errlen, "%s: out of memory", path);
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, (char *)buf + got, st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	ret = fl_snapshot_parse(buf, got, s, err, errlen);
	if (ret && err && errlen) {
		char tmp[256];

		snprintf(tmp, sizeof(tmp), "%s: %s", path, err);
		snprintf(err, errlen, "%s", tmp);
	}
	free(buf);
	return ret;
}

static size_t put_section(unsigned char *out, size_t off, unsigned int type,
			  unsigned int count, const void *data, size_t size)
{
	struct fl_section sec = { .type = type, .count = count, .size = size };

	if (out) {
		memcpy(out + off, &sec, sizeof(sec));
		if (size)
			memcpy(out + off + sizeof(sec), data, size);
	}
	return off + sizeof(sec) + ALIGN8(size);
}

int fl_snapshot_serialize(const struct fl_snapshot *s, void **bufp, size_t *lenp)
{
	struct fl_snap_header hdr = s->hdr;
	unsigned char *out = NULL;
	size_t len = 0;
	int pass;

	hdr.magic = FL_SNAP_MAGIC;
	hdr.version = FL_SNAP_VERSION;
	hdr.header_size = sizeof(hdr);
	hdr.nr_sections = 1 + !!s->cpu_online + !!s->vmstat + !!s->tags + s->nr_extra;
	/* pass 0 sizes, pass 1 fills */
	for (pass = 0; pass < 2; pass++) {
		size_t off = sizeof(hdr);

		if (out)
			memcpy(out, &hdr, sizeof(hdr));
		off = put_section(out, off, FL_SEC_CPU, hdr.nr_cpus, s->cpus,
				  (size_t)hdr.nr_cpus * sizeof(*s->cpus));
		if (s->cpu_online)
			off = put_section(out, off, FL_SEC_CPU_ONLINE, hdr.nr_cpus,
					  s->cpu_online, hdr.nr_cpus);
		if (s->vmstat)
			off = put_section(out, off, FL_SEC_VMSTAT, s->nr_vmstat, s->vmstat,
					  s->nr_vmstat * sizeof(*s->vmstat));
		if (s->tags) {
			unsigned int lines = 0;

			for (const char *c = s->tags; *c; c++)
				lines += *c == '\n';
			off = put_section(out, off, FL_SEC_TAGS, lines, s->tags, strlen(s->tags));
		}
		for (unsigned int i = 0; i < s->nr_extra; i++)
			off = put_section(out, off, s->extra[i].sec.type, s->extra[i].sec.count,
					  s->extra[i].data, s->extra[i].sec.size);
		if (pass == 0) {
			len = off;
			out = calloc(1, len);
			if (!out)
				return -1;
		}
	}
	*bufp = out;
	*lenp = len;
	return 0;
}

int fl_snapshot_write_file(const char *path, const struct fl_snapshot *s,
			   char *err, size_t errlen)
{
	char tmp[4096];
	void *buf;
	size_t len, done = 0;
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(tmp))
		return fl_fail(err, errlen, "%s: path too long", path);
	if (fl_snapshot_serialize(s, &buf, &len))
		return fl_fail(err, errlen, "%s: out of memory", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(buf);
		return fl_fail(err, errlen, "%s: %s", tmp, strerror(errno));
	}
	while (done < len) {
		ssize_t n = write(fd, (char *)buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
	}
	free(buf);
	if (done != len || fsync(fd) || close(fd) || rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		return fl_fail(err, errlen, "%s: write failed: %s", path, strerror(e ? e : EIO));
	}
	return 0;
}

void fl_snapshot_total(const struct fl_snapshot *s, struct fl_cpu_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int c = 0; c < s->hdr.nr_cpus; c++)
		fl_cpu_stats_add(out, &s->cpus[c]);
}

const char *fl_snapshot_tag(const struct fl_snapshot *s, const char *key)
{
	static char *val;	/* grows: topology tags of big machines are long */
	static size_t cap;
	size_t klen = strlen(key);
	const char *p = s->tags;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);

		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			n -= klen + 1;
			if (n + 1 > cap) {
				char *nv = realloc(val, n + 1);

				if (!nv)
					return NULL;
				val = nv;
				cap = n + 1;
			}
			memcpy(val, p + klen + 1, n);
			val[n] = '\0';
			return val;
		}
		p = eol ? eol + 1 : p + n;
	}
	return NULL;
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

const char *fl_hist_name(unsigned int id)
{
	static const char *const n[] = {
		[FL_H_FAULT_LAT] = "fault_latency",
		[FL_H_HMF] = "handle_mm_fault",
		[FL_H_MMAP_WAIT_R] = "mmap_lock_wait_read",
		[FL_H_MMAP_WAIT_W] = "mmap_lock_wait_write",
		[FL_H_MMAP_HOLD_R] = "mmap_lock_hold_read",
		[FL_H_MMAP_HOLD_W] = "mmap_lock_hold_write",
		[FL_H_MMAP_CONTEND] = "mmap_lock_contended",
	};

	return NAME_OF(n, id);
}

const char *fl_counter_name(unsigned int id)
{
	static const char *const n[] = {
		[FL_C_FAULTS_USER] = "faults_user",
		[FL_C_FAULTS_KERNEL] = "faults_kernel",
		[FL_C_FAULTS_ENDED] = "faults_timed",
		[FL_C_FAULTS_UNHANDLED] = "faults_unhandled",
		[FL_C_HMF_CALLS] = "handle_mm_fault_calls",
		[FL_C_MMAP_CONTENDED] = "mmap_lock_contended",
		[FL_C_MMAP_TRYLOCK_FAIL] = "mmap_lock_trylock_failed",
		[FL_C_MISSED] = "events_missed",
	};

	return NAME_OF(n, id);
}

const char *fl_ll_name(unsigned int id)
{
	static const char *const n[] = {
		[FL_LL_ATTEMPTED] = "lockless_attempted",
		[FL_LL_SUCCEEDED] = "lockless_succeeded",
		[FL_LL_ABORTED] = "lockless_aborted",
		[FL_LL_RETRIED] = "lockless_retried",
		[FL_LL_NOT_ATTEMPTED] = "lockless_not_attempted",
		[FL_LL_MMAP_RETRY] = "mmap_lock_retries",
	};

	return NAME_OF(n, id);
}
