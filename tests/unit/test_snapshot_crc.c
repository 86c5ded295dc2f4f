// SPDX-License-Identifier: GPL-2.0
/*
 * user/snapshot.c, format 1.1 (snapshot.h): every snapshot written carries
 * CRC32C checksums, every damaged byte of one is refused naming where it is,
 * and format 1.0 files (no checksums) still read, flagged no_checksums.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "crc32c.h"
#include "snapshot.h"

#define NCPU	4
#define TRIES	300	/* damaged copies per section */
#define FLIPS	3	/* bytes changed in each */

static uint64_t rng;

/* xorshift64: the same damage on every run */
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* One of every kind of section the collector writes, and one it does not know. */
static void make_snap(struct fl_snapshot *s)
{
	struct fl_phase_stats *ph;

	memset(s, 0, sizeof(*s));
	assert_int_equal(fl_snapshot_alloc_cpus(s, NCPU), 0);
	s->hdr.backend = FL_BACKEND_BPF;
	s->hdr.tier = FL_TIER_FENTRY;
	s->hdr.duration_ns = 1000000000ull;
	s->hdr.hooks_live = (1ull << FL_HOOK_NR) - 1;
	snprintf(s->hdr.kernel_release, FL_KREL_LEN, "6.12.0-test");
	for (unsigned int c = 0; c < NCPU; c++) {
		s->cpu_online[c] = 1;
		s->cpus[c].cnt[FL_C_FAULTS_USER] = 1000;
		s->cpus[c].cnt[FL_C_FAULTS_ENDED] = 1000;
		s->cpus[c].cnt[FL_C_HMF_CALLS] = 1000;
		for (unsigned int h = 0; h < FL_H_NR; h++)
			for (unsigned int i = 0; i < 1000; i++)
				fl_hist_add(&s->cpus[c].hist[h], 100 + (i * i * 37 + c) % 100000);
	}
	s->vmstat = calloc(2, sizeof(*s->vmstat));
	assert_non_null(s->vmstat);
	s->nr_vmstat = 2;
	snprintf(s->vmstat[0].name, FL_NAME_LEN, "pgfault");
	s->vmstat[0].after = 4000;
	snprintf(s->vmstat[1].name, FL_NAME_LEN, "pgmajfault");
	assert_int_equal(fl_snapshot_set_tag(s, "command", "pft -m 64m"), 0);
	assert_int_equal(fl_snapshot_set_tag(s, "kernel_version", "6.12"), 0);
	ph = calloc(NCPU, sizeof(*ph));
	assert_non_null(ph);
	for (unsigned int c = 0; c < NCPU; c++) {
		ph[c].faults = 10;
		for (unsigned int i = 0; i < 10; i++)
			fl_hist_add(&ph[c].hist[0], 50 + i);
	}
	assert_int_equal(fl_snapshot_add_section(s, FL_SEC_PHASES, NCPU, ph, NCPU * sizeof(*ph)), 0);
	free(ph);
	assert_int_equal(fl_snapshot_add_section(s, 99, 1, "abcde", 5), 0);	/* padded, last */
}

static void assert_same(const struct fl_snapshot *a, const struct fl_snapshot *b)
{
	assert_int_equal(b->hdr.nr_cpus, a->hdr.nr_cpus);
	assert_string_equal(b->hdr.kernel_release, a->hdr.kernel_release);
	assert_int_equal(b->hdr.duration_ns, a->hdr.duration_ns);
	assert_memory_equal(b->cpus, a->cpus, a->hdr.nr_cpus * sizeof(*a->cpus));
	assert_memory_equal(b->cpu_online, a->cpu_online, a->hdr.nr_cpus);
	assert_int_equal(b->nr_vmstat, a->nr_vmstat);
	assert_memory_equal(b->vmstat, a->vmstat, a->nr_vmstat * sizeof(*a->vmstat));
	assert_string_equal(b->tags, a->tags);
	assert_int_equal(b->nr_extra, a->nr_extra);
	for (unsigned int i = 0; i < a->nr_extra; i++) {
		assert_int_equal(b->extra[i].sec.type, a->extra[i].sec.type);
		assert_int_equal(b->extra[i].sec.size, a->extra[i].sec.size);
		assert_memory_equal(b->extra[i].data, a->extra[i].data, a->extra[i].sec.size);
	}
}

/*
 * The writer before format 1.1, as it was (commit c4d0189's emit()):
 * version 1.0, header_size 152, then the sections, nothing else.
 */
static void old_put(unsigned char **p, const void *d, size_t n)
{
	memcpy(*p, d, n);
	*p += n;
}

static void old_section(unsigned char **p, unsigned int type, unsigned int count,
			const void *data, size_t size)
{
	struct fl_section sec = { .type = type, .count = count, .size = size };

	old_put(p, &sec, sizeof(sec));
	old_put(p, data, size);
	memset(*p, 0, ((size + 7) & ~(size_t)7) - size);
	*p += ((size + 7) & ~(size_t)7) - size;
}

static void *old_serialize(const struct fl_snapshot *s, size_t *len)
{
	struct fl_snap_header hdr = s->hdr;
	unsigned char *buf = calloc(1, 1 << 20), *p = buf;
	unsigned int lines = 0;

	assert_non_null(buf);
	hdr.magic = FL_SNAP_MAGIC;
	hdr.version = 0x00010000;
	hdr.header_size = sizeof(hdr);
	hdr.nr_sections = 1 + !!s->cpu_online + !!s->vmstat + !!s->tags + s->nr_extra;
	old_put(&p, &hdr, sizeof(hdr));
	old_section(&p, FL_SEC_CPU, hdr.nr_cpus, s->cpus, hdr.nr_cpus * sizeof(*s->cpus));
	old_section(&p, FL_SEC_CPU_ONLINE, hdr.nr_cpus, s->cpu_online, hdr.nr_cpus);
	old_section(&p, FL_SEC_VMSTAT, s->nr_vmstat, s->vmstat,
		    s->nr_vmstat * sizeof(*s->vmstat));
	for (const char *c = s->tags; *c; c++)
		lines += *c == '\n';
	old_section(&p, FL_SEC_TAGS, lines, s->tags, strlen(s->tags));
	for (unsigned int i = 0; i < s->nr_extra; i++)
		old_section(&p, s->extra[i].sec.type, s->extra[i].sec.count, s->extra[i].data,
			    s->extra[i].sec.size);
	assert_true((size_t)(p - buf) <= 1 << 20);
	*len = p - buf;
	return buf;
}

static void write_all(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* (2) written, read back: the same, checksummed, verified. */
static void test_round_trip(void **state)
{
	char path[] = "/tmp/fl-crc-XXXXXX", err[256];
	const struct fl_snap_header *h;
	const struct fl_snap_crc *c;
	struct fl_snapshot a, b;
	int fd = mkstemp(path);
	void *buf;
	size_t len;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	make_snap(&a);
	assert_int_equal(fl_snapshot_write_file(path, &a, err, sizeof(err)), 0);
	assert_int_equal(fl_snapshot_read_file(path, &b, err, sizeof(err)), 0);
	unlink(path);
	assert_same(&a, &b);
	assert_int_equal(b.no_checksums, 0);
	assert_int_equal(b.hdr.version, FL_SNAP_VERSION_WRITE);
	fl_snapshot_free(&b);

	/* the layout snapshot.h and formats.rst describe */
	assert_int_equal(fl_snapshot_serialize(&a, &buf, &len), 0);
	h = buf;
	c = (const void *)(h + 1);
	assert_int_equal(h->version, 0x00010001);
	assert_int_equal(h->nr_sections, 6);
	assert_int_equal(h->header_size, 152 + 8 + ((4 * 6 + 7) & ~7));
	assert_int_equal(c->nr_crc, 6);
	{
		unsigned char *copy = malloc(h->header_size);
		const struct fl_section *sec = (const void *)((char *)buf + h->header_size);

		assert_non_null(copy);
		memcpy(copy, buf, h->header_size);
		memset(copy + 152, 0, 4);
		assert_int_equal(fl_crc32c(0, copy, h->header_size), c->header_crc);
		free(copy);
		assert_int_equal(sec->type, FL_SEC_CPU);
		assert_int_equal(fl_crc32c(0, sec, sizeof(*sec) + sec->size), c->section_crc[0]);
	}
	/* sealing what the writer wrote changes nothing */
	{
		void *copy = malloc(len);

		assert_non_null(copy);
		memcpy(copy, buf, len);
		assert_int_equal(fl_snapshot_seal(copy, len), 0);
		assert_memory_equal(copy, buf, len);
		free(copy);
	}
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), 0);
	assert_same(&a, &b);
	fl_snapshot_free(&b);
	free(buf);
	fl_snapshot_free(&a);
}

/* Parse BUF as a buffer and, through FD, as a file: both refuse it, alike. */
static int parse_both(const unsigned char *buf, size_t len, int fd, char *err, size_t errlen)
{
	struct fl_snapshot s;
	char err2[256];
	int r1, r2;

	r1 = fl_snapshot_parse(buf, len, &s, err, errlen);
	if (!r1)
		fl_snapshot_free(&s);
	assert_int_equal(pwrite(fd, buf, len, 0), (ssize_t)len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	r2 = fl_snapshot_read_fd(fd, len, &s, err2, sizeof(err2));
	if (!r2)
		fl_snapshot_free(&s);
	assert_int_equal(r1, r2);
	if (r1)
		assert_string_equal(err, err2);
	return r1;
}

/*
 * (3) FLIPS random bytes inside each section's payload, TRIES times a
 * section: every copy refused, naming that section.  Then the same anywhere
 * in the file (header, checksum table, section headers, padding).
 */
static void test_flips_refused(void **state)
{
	char path[] = "/tmp/fl-crc-XXXXXX", err[256], want[64];
	unsigned int accepted = 0, tried = 0;
	const struct fl_snap_header *h;
	struct fl_snapshot a;
	unsigned char *buf, *bad;
	size_t len, off;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	rng = 0x2545F4914F6CDD1Dull;
	make_snap(&a);
	assert_int_equal(fl_snapshot_serialize(&a, (void **)&buf, &len), 0);
	bad = malloc(len);
	assert_non_null(bad);
	h = (const void *)buf;
	off = h->header_size;
	for (unsigned int i = 0; i < h->nr_sections; i++) {
		struct fl_section sec;
		static const char *const names[] = {
			"cpu stats", "cpu online", "vmstat", "tags", "phases", "type 99",
		};

		memcpy(&sec, buf + off, sizeof(sec));
		off += sizeof(sec);
		snprintf(want, sizeof(want), "section %u (%s): checksum mismatch", i, names[i]);
		for (unsigned int t = 0; t < TRIES; t++, tried++) {
			memcpy(bad, buf, len);
			for (unsigned int f = 0; f < FLIPS; f++)
				bad[off + rnd() % sec.size] ^= 1 + rnd() % 255;
			if (!parse_both(bad, len, fd, err, sizeof(err))) {
				accepted++;
				continue;
			}
			if (!strstr(err, want))
				fail_msg("section %u try %u: \"%s\", wanted \"%s\"", i, t, err, want);
			assert_non_null(strstr(err, "(stored 0x"));
			assert_null(strchr(err, '\n'));
		}
		off += (sec.size + 7) & ~7ull;
	}
	assert_int_equal(off, len);
	print_message("payload flips: %u of %u damaged copies accepted\n", accepted, tried);
	assert_int_equal(accepted, 0);
	assert_int_equal(tried, 6 * TRIES);

	/* anywhere at all: refused too (the header and its table by the header's CRC) */
	for (unsigned int t = 0; t < 2 * TRIES; t++) {
		memcpy(bad, buf, len);
		for (unsigned int f = 0; f < FLIPS; f++)
			bad[rnd() % len] ^= 1 + rnd() % 255;
		if (!parse_both(bad, len, fd, err, sizeof(err)))
			accepted++;
	}
	for (unsigned int t = 0; t < TRIES; t++) {	/* the header alone, one byte */
		memcpy(bad, buf, len);
		bad[rnd() % h->header_size] ^= 1 + rnd() % 255;
		if (!parse_both(bad, len, fd, err, sizeof(err)))
			accepted++;
	}
	assert_int_equal(accepted, 0);
	close(fd);
	free(bad);
	free(buf);
	fl_snapshot_free(&a);
}

/* The 1.0 -> 1.1 edge: no one damaged field passes a 1.1 file off as 1.0. */
static void test_no_downgrade(void **state)
{
	struct fl_snap_header *h;
	struct fl_snapshot a, b;
	unsigned char *buf;
	char err[256];
	size_t len;

	(void)state;
	make_snap(&a);
	assert_int_equal(fl_snapshot_serialize(&a, (void **)&buf, &len), 0);
	h = (void *)buf;
	h->version = 0x00010000;	/* 1.0, the header still longer than 152 */
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "header: checksum mismatch"));
	h->version = 0x00010001;
	h->header_size = 152;		/* 1.1 with no room for its checksums */
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad header size 152"));
	free(buf);
	fl_snapshot_free(&a);
}

/* (4) A file of the writer before checksums: read, flagged, rewritten with them. */
static void test_old_format(void **state)
{
	char dir[] = "/tmp/fl-crc-dir-XXXXXX", p1[600], p2[600], err[600];
	struct fl_snapshot a, b, m;
	unsigned int nfiles;
	unsigned char *old;
	size_t len;

	(void)state;
	make_snap(&a);
	old = old_serialize(&a, &len);
	assert_int_equal(fl_snapshot_parse(old, len, &b, err, sizeof(err)), 0);
	assert_same(&a, &b);
	assert_int_equal(b.no_checksums, 1);
	assert_int_equal(b.hdr.version, 0x00010000);
	fl_snapshot_free(&b);
	/* sealing leaves a 1.0 buffer alone */
	{
		unsigned char *copy = malloc(len);

		assert_non_null(copy);
		memcpy(copy, old, len);
		assert_int_equal(fl_snapshot_seal(copy, len), 0);
		assert_memory_equal(copy, old, len);
		free(copy);
	}

	assert_non_null(mkdtemp(dir));
	snprintf(p1, sizeof(p1), "%s/a.snap", dir);
	snprintf(p2, sizeof(p2), "%s/b.snap", dir);
	write_all(p1, old, len);
	assert_int_equal(fl_snapshot_read_file(p1, &b, err, sizeof(err)), 0);
	assert_int_equal(b.no_checksums, 1);
	/* rewritten: checksummed now */
	assert_int_equal(fl_snapshot_write_file(p2, &b, err, sizeof(err)), 0);
	fl_snapshot_free(&b);
	assert_int_equal(fl_snapshot_read_file(p2, &b, err, sizeof(err)), 0);
	assert_int_equal(b.no_checksums, 0);
	assert_same(&a, &b);
	fl_snapshot_free(&b);
	/* a directory of one old and one new: the merge says one had none */
	assert_int_equal(fl_snapshot_load(dir, &m, &nfiles, err, sizeof(err)), 0);
	assert_int_equal(nfiles, 2);
	assert_int_equal(m.no_checksums, 1);
	fl_snapshot_free(&m);
	assert_int_equal(fl_snapshot_load(p2, &m, &nfiles, err, sizeof(err)), 0);
	assert_int_equal(m.no_checksums, 0);
	fl_snapshot_free(&m);
	unlink(p1);
	unlink(p2);
	rmdir(dir);
	free(old);
	fl_snapshot_free(&a);
}

/* The note report prints for them: one line. */
static void test_note(void **state)
{
	(void)state;
	assert_null(strchr(FL_SNAP_NO_CRC_NOTE, '\n'));
	assert_non_null(strstr(FL_SNAP_NO_CRC_NOTE, "no checksums"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_flips_refused),
		cmocka_unit_test(test_no_downgrade),
		cmocka_unit_test(test_old_format),
		cmocka_unit_test(test_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
