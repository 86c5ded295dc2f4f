// SPDX-License-Identifier: GPL-2.0
/*
 * user/backend_kmod.c against a fake module directory (FAULTLINE_KMOD_DIR):
 * the command sequence fl_kmod_start/fl_kmod_arm/fl_kmod_stop write through the
 * session file (one open from the first command to fl_kmod_stop), and fl_kmod_read parsing a
 * snapshot written by user/snapshot.c, rejecting garbage and a BPF snapshot.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend_kmod.h"

static char dir[64];

static void put_file(const char *name, const void *data, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static size_t get_file(const char *name, char *buf, size_t cap)
{
	char path[128];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
	return n;
}

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/fl-kmod-test.XXXXXX");
	assert_non_null(mkdtemp(dir));
	setenv("FAULTLINE_KMOD_DIR", dir, 1);
	put_file("session", "", 0);
	return 0;
}

static int teardown(void **state)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/session", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/snapshot", dir);
	unlink(path);
	rmdir(dir);
	return 0;
}

static void write_snapshot(unsigned int backend, unsigned int nr_cpus)
{
	struct fl_snapshot s;
	void *buf;
	size_t len;

	memset(&s, 0, sizeof(s));
	s.hdr.magic = FL_SNAP_MAGIC;
	s.hdr.version = FL_SNAP_VERSION;
	s.hdr.header_size = sizeof(s.hdr);
	s.hdr.backend = backend;
	s.hdr.tier = FL_TIER_KPROBE;
	s.hdr.lockless_kind = FL_LL_KIND_VMA_LOCK;
	s.hdr.hooks_live = 1ull << FL_HOOK_HMF;
	s.hdr.hooks_absent = 1ull << FL_HOOK_DO_HMF;
	s.hdr.filter_tgid = 42;
	strcpy(s.hdr.kernel_release, "6.12.0-test");
	assert_int_equal(fl_snapshot_alloc_cpus(&s, nr_cpus), 0);
	s.cpus[nr_cpus - 1].cnt[FL_C_FAULTS_USER] = 65536;
	fl_hist_add(&s.cpus[nr_cpus - 1].hist[FL_H_FAULT_LAT], 1234);
	s.cpu_online[0] = 1;
	assert_int_equal(fl_snapshot_serialize(&s, &buf, &len), 0);
	put_file("snapshot", buf, len);
	free(buf);
	fl_snapshot_free(&s);
}

static void test_loaded(void **state)
{
	char path[128];

	assert_int_equal(fl_kmod_loaded(), 1);
	snprintf(path, sizeof(path), "%s/nonexistent", dir);
	setenv("FAULTLINE_KMOD_DIR", path, 1);
	assert_int_equal(fl_kmod_loaded(), 0);
	setenv("FAULTLINE_KMOD_DIR", dir, 1);
}

static void test_start_stop_sequence(void **state)
{
	char err[256] = "", buf[256];

	assert_int_equal(fl_kmod_start(4321, err, sizeof(err)), 0);
	get_file("session", buf, sizeof(buf));
	/* nothing counts before fl_kmod_arm: the collector's baselines come first */
	assert_string_equal(buf, "disable\ntgid 4321\n");
	assert_int_equal(fl_kmod_arm(err, sizeof(err)), 0);
	fl_kmod_stop();
	get_file("session", buf, sizeof(buf));
	assert_string_equal(buf, "disable\ntgid 4321\nreset\nenable\ndisable\n");
	fl_kmod_stop();	/* idempotent: no session, nothing written */
	get_file("session", buf, sizeof(buf));
	assert_string_equal(buf, "disable\ntgid 4321\nreset\nenable\ndisable\n");
}

static void test_mmap_lock(void **state)
{
	char err[256] = "", buf[256];

	put_file("session", "", 0);
	assert_int_equal(fl_kmod_mmap_lock(true, err, sizeof(err)), 0);
	assert_int_equal(fl_kmod_start(7, err, sizeof(err)), 0);
	assert_int_equal(fl_kmod_arm(err, sizeof(err)), 0);
	fl_kmod_stop();
	assert_int_equal(fl_kmod_mmap_lock(false, err, sizeof(err)), 0);
	fl_kmod_stop();
	get_file("session", buf, sizeof(buf));
	assert_string_equal(buf, "mmap_lock on\ndisable\ntgid 7\nreset\nenable\ndisable\n"
				 "mmap_lock auto\ndisable\n");
	setenv("FAULTLINE_KMOD_DIR", "/nonexistent/faultline", 1);
	assert_int_equal(fl_kmod_mmap_lock(true, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/faultline/session"));
	setenv("FAULTLINE_KMOD_DIR", dir, 1);
}

static void test_time_hmf(void **state)
{
	char err[256] = "", buf[256];

	put_file("session", "", 0);
	assert_int_equal(fl_kmod_time_hmf(true, err, sizeof(err)), 0);
	assert_int_equal(fl_kmod_time_hmf(false, err, sizeof(err)), 0);
	get_file("session", buf, sizeof(buf));
	assert_string_equal(buf, "hmf on\nhmf off\n");
	fl_kmod_stop();
	setenv("FAULTLINE_KMOD_DIR", "/nonexistent/faultline", 1);
	assert_int_equal(fl_kmod_time_hmf(true, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/faultline/session"));
	setenv("FAULTLINE_KMOD_DIR", dir, 1);
}

static void test_start_without_module(void **state)
{
	char err[256] = "";

	setenv("FAULTLINE_KMOD_DIR", "/nonexistent/faultline", 1);
	assert_int_equal(fl_kmod_start(0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/faultline/session"));
	assert_non_null(strstr(err, "load the faultline.ko built with this collector"));
	setenv("FAULTLINE_KMOD_DIR", dir, 1);
}

static void test_read_snapshot(void **state)
{
	struct fl_snapshot s;
	char err[256] = "";

	write_snapshot(FL_BACKEND_KMOD, 300);	/* > 64 KiB: exercises the read loop */
	assert_int_equal(fl_kmod_read(&s, err, sizeof(err)), 0);
	assert_int_equal(s.hdr.backend, FL_BACKEND_KMOD);
	assert_int_equal(s.hdr.nr_cpus, 300);
	assert_int_equal(s.hdr.filter_tgid, 42);
	assert_string_equal(s.hdr.kernel_release, "6.12.0-test");
	assert_int_equal(s.cpus[299].cnt[FL_C_FAULTS_USER], 65536);
	assert_int_equal(s.cpus[299].hist[FL_H_FAULT_LAT].count, 1);
	assert_int_equal(s.cpus[299].hist[FL_H_FAULT_LAT].sum, 1234);
	assert_non_null(s.cpu_online);
	assert_int_equal(s.cpu_online[0], 1);
	assert_int_equal(s.cpu_online[1], 0);
	fl_snapshot_free(&s);
}

static void test_read_rejects_bpf_snapshot(void **state)
{
	struct fl_snapshot s;
	char err[256] = "";

	write_snapshot(FL_BACKEND_BPF, 2);
	assert_int_equal(fl_kmod_read(&s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not kmod"));
}

static void test_read_rejects_garbage(void **state)
{
	struct fl_snapshot s;
	char err[256] = "";

	put_file("snapshot", "hello, world\n", 13);
	assert_int_equal(fl_kmod_read(&s, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	put_file("snapshot", "", 0);
	assert_int_equal(fl_kmod_read(&s, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loaded),
		cmocka_unit_test(test_start_stop_sequence),
		cmocka_unit_test(test_mmap_lock),
		cmocka_unit_test(test_time_hmf),
		cmocka_unit_test(test_start_without_module),
		cmocka_unit_test(test_read_snapshot),
		cmocka_unit_test(test_read_rejects_bpf_snapshot),
		cmocka_unit_test(test_read_rejects_garbage),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
