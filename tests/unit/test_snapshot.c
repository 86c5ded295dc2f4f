// SPDX-License-Identifier: GPL-2.0
/* user/snapshot.c: write/read round trip and rejection of malformed input. */
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

#include "atomic.h"
#include "snapshot.h"

static void make_snap(struct fl_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(fl_snapshot_alloc_cpus(s, 3), 0);
	s->hdr.backend = FL_BACKEND_BPF;
	s->hdr.tier = FL_TIER_FENTRY;
	s->hdr.lockless_kind = FL_LL_KIND_VMA_LOCK;
	s->hdr.hooks_live = 0x1f;
	snprintf(s->hdr.kernel_release, FL_KREL_LEN, "6.12.117+deb12-amd64");
	for (unsigned int c = 0; c < 3; c++) {
		s->cpu_online[c] = c != 1;
		s->cpus[c].cnt[FL_C_FAULTS_USER] = 1000 * (c + 1);
		s->cpus[c].ll[FL_LL_ATTEMPTED] = 10 + c;
		for (unsigned int i = 0; i < 100; i++)
			fl_hist_add(&s->cpus[c].hist[FL_H_FAULT_LAT], 100 * i + c);
	}
	s->vmstat = calloc(2, sizeof(*s->vmstat));
	s->nr_vmstat = 2;
	snprintf(s->vmstat[0].name, FL_NAME_LEN, "pgfault");
	s->vmstat[0].before = 10;
	s->vmstat[0].after = 6010;
	snprintf(s->vmstat[1].name, FL_NAME_LEN, "vma_lock_abort");
	s->vmstat[1].after = 3;
	assert_int_equal(fl_snapshot_set_tag(s, "kernel_version", "6.12.117"), 0);
	assert_int_equal(fl_snapshot_set_tag(s, "run", "A"), 0);
	assert_int_equal(fl_snapshot_set_tag(s, "bad\nkey", "x"), -1);
	s->extra = calloc(1, sizeof(*s->extra));
	s->nr_extra = 1;
	s->extra[0].sec.type = 99;
	s->extra[0].sec.count = 1;
	s->extra[0].sec.size = 5;
	s->extra[0].data = strdup("abcde");
}

/* B: A written to a file and read back. */
static void write_read(const struct fl_snapshot *a, struct fl_snapshot *b)
{
	char path[] = "/tmp/fl-snap-XXXXXX", err[256];
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(fl_snapshot_write_file(path, a, err, sizeof(err)), 0);
	assert_int_equal(fl_snapshot_read_file(path, b, err, sizeof(err)), 0);
	unlink(path);
}

static void test_round_trip(void **state)
{
	struct fl_snapshot a, b;
	struct fl_cpu_stats tot;

	(void)state;
	make_snap(&a);
	write_read(&a, &b);
	assert_int_equal(b.hdr.nr_cpus, 3);
	assert_string_equal(b.hdr.kernel_release, "6.12.117+deb12-amd64");
	assert_memory_equal(a.cpus, b.cpus, 3 * sizeof(*a.cpus));
	assert_memory_equal(a.cpu_online, b.cpu_online, 3);
	assert_int_equal(fl_snapshot_vmstat_delta(&b, "pgfault"), 6000);
	assert_int_equal(fl_snapshot_vmstat_delta(&b, "spf_abort"), -1);
	assert_string_equal(fl_snapshot_tag(&b, "run"), "A");
	assert_string_equal(fl_snapshot_tag(&b, "kernel_version"), "6.12.117");
	assert_null(fl_snapshot_tag(&b, "kernel"));
	assert_int_equal(b.nr_extra, 1);
	assert_int_equal(b.extra[0].sec.type, 99);
	assert_memory_equal(b.extra[0].data, "abcde", 5);
	fl_snapshot_total(&b, &tot);
	assert_int_equal(tot.cnt[FL_C_FAULTS_USER], 6000);
	assert_int_equal(tot.ll[FL_LL_ATTEMPTED], 33);
	assert_int_equal(tot.hist[FL_H_FAULT_LAT].count, 300);
	assert_int_equal(tot.hist[FL_H_FAULT_LAT].min, 0);
	assert_int_equal(tot.hist[FL_H_FAULT_LAT].max, 9902);
	fl_snapshot_free(&a);
	fl_snapshot_free(&b);
}

static void test_truncated_everywhere(void **state)
{
	struct fl_snapshot a, b;
	void *buf;
	size_t len;
	char err[256];

	(void)state;
	make_snap(&a);
	assert_int_equal(fl_snapshot_serialize(&a, &buf, &len), 0);
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), 0);
	fl_snapshot_free(&b);
	/* every shorter prefix that cuts into a section must be refused */
	for (size_t n = 0; n < len - 8; n += 13) {
		int r = fl_snapshot_parse(buf, n, &b, err, sizeof(err));

		assert_int_equal(r, -1);
		assert_true(strlen(err) > 0);
	}
	free(buf);
	fl_snapshot_free(&a);
}

static void test_bad_magic_version(void **state)
{
	struct fl_snapshot a, b;
	struct fl_snap_header *h;
	void *buf;
	size_t len;
	char err[256];

	(void)state;
	make_snap(&a);
	assert_int_equal(fl_snapshot_serialize(&a, &buf, &len), 0);
	h = buf;
	h->magic ^= 1;
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "magic"));
	h->magic ^= 1;
	h->version = 0x00020000;
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "version"));
	h->version = FL_SNAP_VERSION | 7;	/* newer minor: accepted */
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "header: checksum mismatch"));	/* ... once resealed */
	assert_int_equal(fl_snapshot_seal(buf, len), 0);
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), 0);
	fl_snapshot_free(&b);
	/* edits resealed: the checks past the checksum still refuse them */
	h->nr_cpus = 0;
	assert_int_equal(fl_snapshot_seal(buf, len), 0);
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CPU count"));
	h->nr_cpus = 4;	/* CPU section says 3 */
	assert_int_equal(fl_snapshot_seal(buf, len), 0);
	assert_int_equal(fl_snapshot_parse(buf, len, &b, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "4 CPUs"));
	free(buf);
	fl_snapshot_free(&a);
}

static void test_no_partial_file(void **state)
{
	struct fl_snapshot a;
	char err[256];

	(void)state;
	make_snap(&a);
	assert_int_equal(fl_snapshot_write_file("/nonexistent-dir/x.snap", &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent-dir"));
	assert_int_equal(access("/nonexistent-dir/x.snap", F_OK), -1);
	fl_snapshot_free(&a);
}

static void touch(const char *dir, const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

/* The one lister of "a directory of snapshots" (report, export, compare, record -o DIR/). */
static void test_list_dir(void **state)
{
	static const char *const junk[] = {
		".snap", ".hidden.snap", "x.snap.tmp.123", "out.json.tmp.Ab12Cd", "notes.txt",
		"snap", "snap-0001.snapx",
	};
	char dir[] = "/tmp/fl-test-snapdir-XXXXXX", path[512], err[256], **names;
	unsigned int n = 99;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* empty directory: no names, not an error */
	assert_int_equal(fl_snapshot_list_dir(dir, &names, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_null(names);
	fl_snapshot_names_free(names, n);
	/* only NAME.snap, sorted; hidden files, temp files, others and subdirectories not */
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		touch(dir, junk[i]);
	snprintf(path, sizeof(path), "%s/sub.snap", dir);
	assert_int_equal(mkdir(path, 0755), 0);	/* a directory named like one */
	touch(dir, "snap-0010.snap");
	touch(dir, "snap-0002.snap");
	touch(dir, "a.snap");
	assert_int_equal(fl_snapshot_list_dir(dir, &names, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "a.snap");
	assert_string_equal(names[1], "snap-0002.snap");
	assert_string_equal(names[2], "snap-0010.snap");
	fl_snapshot_names_free(names, n);
	/* no such directory: -1, errno kept, the path in err */
	snprintf(path, sizeof(path), "%s/nonexistent", dir);
	assert_int_equal(fl_snapshot_list_dir(path, &names, &n, err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "nonexistent"));
	assert_null(names);
	assert_int_equal(n, 0);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* The one atomic writer (atomic.c): snapshots and every -o go through it. */
static void test_atomic_writer(void **state)
{
	char dir[] = "/tmp/fl-test-atomic-XXXXXX", path[512], err[600], buf[16], **names;
	struct fl_atomic a;
	unsigned int n;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.snap", dir);
	/* an old file stays whole until the new one is complete */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old", f);
	fclose(f);
	assert_int_equal(fl_atomic_open(&a, path, err, sizeof(err)), 0);
	assert_int_equal(write(a.fd, "new", 3), 3);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "old");
	/* the temp file is not a snapshot to the lister */
	assert_int_equal(fl_snapshot_list_dir(dir, &names, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	fl_snapshot_names_free(names, n);
	assert_int_equal(fl_atomic_commit(&a, NULL, 0, err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "new");
	/* a write error the caller saw: PATH untouched, temp removed */
	assert_int_equal(fl_atomic_open(&a, path, err, sizeof(err)), 0);
	f = fdopen(a.fd, "w");
	assert_non_null(f);
	fputs("partial", f);
	assert_int_equal(fl_atomic_commit(&a, f, ENOSPC, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "out.snap"));
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "new");
	/* abort: nothing left behind */
	assert_int_equal(fl_atomic_open(&a, path, err, sizeof(err)), 0);
	fl_atomic_abort(&a, NULL);
	snprintf(path, sizeof(path), "ls -A '%s' | grep -qv '^out.snap$'", dir);
	assert_int_not_equal(system(path), 0);	/* only out.snap */
	/* a directory that does not exist: -1, nothing created */
	snprintf(path, sizeof(path), "%s/no/such.snap", dir);
	assert_int_equal(fl_atomic_open(&a, path, err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "no/such.snap"));
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* fl_snapshot_tag: no shared buffer; values live as long as the snapshot. */
static void test_tag_values_owned(void **state)
{
	struct fl_snapshot s = { 0 };
	const char *a, *b, *a2;
	char *big;

	(void)state;
	assert_int_equal(fl_snapshot_set_tag(&s, "a", "one"), 0);
	assert_int_equal(fl_snapshot_set_tag(&s, "b", "two"), 0);
	assert_int_equal(fl_snapshot_set_tag(&s, "ab", "three"), 0);
	a = fl_snapshot_tag(&s, "a");
	b = fl_snapshot_tag(&s, "b");
	assert_string_equal(a, "one");		/* not clobbered by the second lookup */
	assert_string_equal(b, "two");
	assert_string_equal(fl_snapshot_tag(&s, "ab"), "three");
	assert_null(fl_snapshot_tag(&s, "c"));
	assert_null(fl_snapshot_tag(&s, ""));
	a2 = fl_snapshot_tag(&s, "a");
	assert_ptr_equal(a, a2);		/* asked again: the same string */
	/* a long value (topology of a big machine) and tags set afterwards */
	big = malloc(100001);
	assert_non_null(big);
	memset(big, '7', 100000);
	big[100000] = '\0';
	assert_int_equal(fl_snapshot_set_tag(&s, "topology_llc", big), 0);
	assert_string_equal(fl_snapshot_tag(&s, "topology_llc"), big);
	assert_string_equal(a, "one");		/* still valid after the tags grew */
	assert_string_equal(b, "two");
	free(big);
	fl_snapshot_free(&s);
	assert_null(s.tag_vals);
	assert_int_equal(s.nr_tag_vals, 0);
}

/* fl_snapshot_replace_tag: set again, not added (the first key= would win). */
static void test_tag_replace(void **state)
{
	struct fl_snapshot s = { 0 };
	const char *old;

	(void)state;
	assert_int_equal(fl_snapshot_set_tag(&s, "bpf_recursion_misses", "5"), 0);
	assert_int_equal(fl_snapshot_set_tag(&s, "bpf_recursion_misses.faultline", "5"), 0);
	old = fl_snapshot_tag(&s, "bpf_recursion_misses");
	assert_string_equal(old, "5");
	assert_int_equal(fl_snapshot_replace_tag(&s, "bpf_recursion_misses", "7"), 0);
	assert_string_equal(fl_snapshot_tag(&s, "bpf_recursion_misses"), "7");
	assert_string_equal(old, "5");		/* a value handed out stays valid */
	/* a key that is a prefix of another is not dropped with it */
	assert_string_equal(fl_snapshot_tag(&s, "bpf_recursion_misses.faultline"), "5");
	assert_int_equal(fl_snapshot_replace_tag(&s, "new", "x"), 0);
	assert_string_equal(fl_snapshot_tag(&s, "new"), "x");
	assert_non_null(strstr(s.tags, "bpf_recursion_misses=7\n"));
	assert_null(strstr(s.tags, "bpf_recursion_misses=5\n"));
	fl_snapshot_free(&s);
}

/*
 * A key renamed since (tag_keys.h FL_TAG_RENAMED) is read under its old
 * spelling from a snapshot file that has only that one; the new one wins
 * where both are there.
 */
static void test_tag_renamed(void **state)
{
	struct fl_snapshot a, b;

	(void)state;
	make_snap(&a);
	assert_int_equal(fl_snapshot_set_tag(&a, "hmf_not_timed", "not timed by default"), 0);
	assert_int_equal(fl_snapshot_set_tag(&a, "locks_caveat", "spinlock waits hidden"), 0);
	write_read(&a, &b);
	assert_string_equal(FL_TAG_HMF_OFF, "handle_mm_fault_not_timed");
	assert_string_equal(FL_TAG_LOCKS_CAVEAT, "locks.caveat");
	assert_string_equal(fl_snapshot_tag(&b, FL_TAG_HMF_OFF), "not timed by default");
	assert_string_equal(fl_snapshot_tag(&b, FL_TAG_LOCKS_CAVEAT), "spinlock waits hidden");
	assert_null(fl_snapshot_tag(&b, FL_TAG_MMAP_LOCK_OFF));
	assert_int_equal(fl_snapshot_set_tag(&b, "handle_mm_fault_not_timed", "new"), 0);
	assert_string_equal(fl_snapshot_tag(&b, FL_TAG_HMF_OFF), "new");
	fl_snapshot_free(&a);
	fl_snapshot_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_bad_magic_version),
		cmocka_unit_test(test_no_partial_file),
		cmocka_unit_test(test_list_dir),
		cmocka_unit_test(test_atomic_writer),
		cmocka_unit_test(test_tag_values_owned),
		cmocka_unit_test(test_tag_replace),
		cmocka_unit_test(test_tag_renamed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
