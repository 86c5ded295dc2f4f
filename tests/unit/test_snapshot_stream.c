// SPDX-License-Identifier: GPL-2.0
/*
 * user/snapshot.c streaming paths: fl_snapshot_write_file writes what
 * fl_snapshot_serialize builds, byte for byte, and fl_snapshot_read_fd (a
 * file of known size, or a pipe read to EOF like the module's debugfs file)
 * accepts and rejects exactly what fl_snapshot_parse does on a buffer.
 */
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

#include "snapshot.h"

#define NCPU 2

static void make_snap(struct fl_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(fl_snapshot_alloc_cpus(s, NCPU), 0);
	s->hdr.backend = FL_BACKEND_KMOD;
	s->hdr.tier = FL_TIER_KPROBE;
	for (unsigned int c = 0; c < NCPU; c++) {
		s->cpu_online[c] = 1;
		s->cpus[c].cnt[FL_C_FAULTS_USER] = 7 + c;
		for (unsigned int i = 0; i < 50; i++)
			fl_hist_add(&s->cpus[c].hist[FL_H_HMF], 37 * i + c);
	}
	s->vmstat = calloc(1, sizeof(*s->vmstat));
	s->nr_vmstat = 1;
	snprintf(s->vmstat[0].name, FL_NAME_LEN, "pgfault");
	s->vmstat[0].after = 42;
	assert_int_equal(fl_snapshot_set_tag(s, "odd", "abc"), 0);	/* 8 bytes: no pad */
	assert_int_equal(fl_snapshot_add_section(s, 77, 1, "xyz", 3), 0);	/* padded last */
}

static void *read_all(const char *path, size_t *len)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	void *buf;

	assert_non_null(f);
	assert_int_equal(fstat(fileno(f), &st), 0);
	buf = malloc(st.st_size);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, st.st_size, f), (size_t)st.st_size);
	fclose(f);
	*len = st.st_size;
	return buf;
}

/* Parse the first n bytes of buf through a pipe (size unknown). */
static int parse_pipe(const void *buf, size_t n, struct fl_snapshot *s, char *err, size_t errlen)
{
	int p[2], ret;

	assert_int_equal(pipe(p), 0);
	assert_true(n <= 65536);	/* fits the pipe: written before it is read */
	assert_int_equal(write(p[1], buf, n), (ssize_t)n);
	close(p[1]);
	ret = fl_snapshot_read_fd(p[0], -1, s, err, errlen);
	close(p[0]);
	return ret;
}

static void test_file_is_serialized_bytes(void **state)
{
	char path[] = "/tmp/fl-stream-XXXXXX", err[256];
	struct fl_snapshot a, b;
	void *ser, *file;
	size_t slen, flen;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	make_snap(&a);
	assert_int_equal(fl_snapshot_serialize(&a, &ser, &slen), 0);
	assert_int_equal(fl_snapshot_write_file(path, &a, err, sizeof(err)), 0);
	file = read_all(path, &flen);
	assert_int_equal(flen, slen);
	assert_memory_equal(file, ser, slen);
	assert_int_equal(fl_snapshot_read_file(path, &b, err, sizeof(err)), 0);
	unlink(path);
	assert_memory_equal(a.cpus, b.cpus, NCPU * sizeof(*a.cpus));
	assert_string_equal(fl_snapshot_tag(&b, "odd"), "abc");
	assert_int_equal(b.nr_extra, 1);
	assert_memory_equal(b.extra[0].data, "xyz", 3);
	free(ser);
	free(file);
	fl_snapshot_free(&a);
	fl_snapshot_free(&b);
}

static void test_pipe_round_trip(void **state)
{
	struct fl_snapshot a, b;
	char err[256];
	void *buf;
	size_t len;

	(void)state;
	make_snap(&a);
	assert_int_equal(fl_snapshot_serialize(&a, &buf, &len), 0);
	assert_int_equal(parse_pipe(buf, len, &b, err, sizeof(err)), 0);
	assert_memory_equal(a.cpus, b.cpus, NCPU * sizeof(*a.cpus));
	assert_memory_equal(a.cpu_online, b.cpu_online, NCPU);
	assert_int_equal(fl_snapshot_vmstat_delta(&b, "pgfault"), 42);
	fl_snapshot_free(&b);
	/* a trailing section without its padding is still accepted */
	assert_int_equal(parse_pipe(buf, len - 5, &b, err, sizeof(err)), 0);
	assert_memory_equal(b.extra[0].data, "xyz", 3);
	fl_snapshot_free(&b);
	free(buf);
	fl_snapshot_free(&a);
}

/* Every prefix: the descriptor reader agrees with the buffer parser. */
static void test_prefixes_agree(void **state)
{
	struct fl_snapshot a, b;
	char err[256];
	unsigned int accepted = 0;
	void *buf;
	size_t len;

	(void)state;
	make_snap(&a);
	assert_int_equal(fl_snapshot_serialize(&a, &buf, &len), 0);
	for (size_t n = 0; n <= len; n++) {
		int want = fl_snapshot_parse(buf, n, &b, err, sizeof(err));

		if (!want)
			fl_snapshot_free(&b);
		assert_int_equal(parse_pipe(buf, n, &b, err, sizeof(err)), want);
		if (!want) {
			assert_memory_equal(a.cpus, b.cpus, NCPU * sizeof(*a.cpus));
			fl_snapshot_free(&b);
			accepted++;
		} else {
			assert_true(err[0] != '\0' && !strchr(err, '\n'));
		}
	}
	assert_int_equal(accepted, 6);	/* full length and the 5 missing pad bytes */
	free(buf);
	fl_snapshot_free(&a);
}

static void test_write_fails_cleanly(void **state)
{
	struct fl_snapshot a;
	char err[256];

	(void)state;
	make_snap(&a);
	assert_int_equal(fl_snapshot_write_file("/nonexistent-dir/x.snap", &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent-dir/x.snap.tmp."));
	fl_snapshot_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_is_serialized_bytes),
		cmocka_unit_test(test_pipe_round_trip),
		cmocka_unit_test(test_prefixes_agree),
		cmocka_unit_test(test_write_fails_cleanly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
