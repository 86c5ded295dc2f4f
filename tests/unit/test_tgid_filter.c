// SPDX-License-Identifier: GPL-2.0
/*
 * user/tgid_filter.c: one fork follower per filter, a zeroed filter owns
 * no fd, and (as root) two skeletons given the filter hold the same map,
 * whose bits user space sets and clears.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <faultline/classify.h>
#include <faultline/phases_abi.h>
#include "tgid_filter.h"
#include "faultline.skel.h"
#include "phases.skel.h"

static void test_follower(void **state)
{
	struct fl_tgid_filter f;

	fl_tgid_filter_init(&f, 42);
	assert_true(fl_tgid_filter_follower(&f, "faultline"));
	assert_false(fl_tgid_filter_follower(&f, "phases"));
	assert_false(fl_tgid_filter_follower(&f, "blame"));
	/* a reload of the same skeleton (a lower tier) keeps it */
	assert_true(fl_tgid_filter_follower(&f, "faultline"));
	fl_tgid_filter_init(&f, 0);
	assert_true(fl_tgid_filter_follower(&f, "phases"));
	assert_false(fl_tgid_filter_follower(&f, "faultline"));
	/* one that loaded nothing gives it back; another's release is no release */
	fl_tgid_filter_unfollow(&f, "faultline");
	assert_false(fl_tgid_filter_follower(&f, "blame"));
	fl_tgid_filter_unfollow(&f, "phases");
	assert_true(fl_tgid_filter_follower(&f, "blame"));
	assert_false(fl_tgid_filter_follower(&f, "phases"));
	/* system-wide: nobody follows */
	assert_false(fl_tgid_filter_follower(NULL, "faultline"));
	fl_tgid_filter_unfollow(NULL, "faultline");
}

static void test_no_map(void **state)
{
	struct fl_tgid_filter f;
	int null = open("/dev/null", O_RDONLY);

	/* a zeroed filter (fd 0) must leave fd 0 alone */
	assert_true(null >= 0);
	assert_int_equal(dup2(null, 0), 0);
	memset(&f, 0, sizeof(f));
	fl_tgid_filter_close(&f);
	assert_int_not_equal(fcntl(0, F_GETFD), -1);
	fl_tgid_filter_init(&f, 7);
	errno = 0;
	assert_int_equal(fl_tgid_filter_add(&f, 7), -1);
	assert_int_equal(errno, ERANGE);
	fl_tgid_filter_clear(&f);
	fl_tgid_filter_close(&f);
	assert_int_equal(f.fd, -1);
	close(null);
}

static __u32 map_id(int fd)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.id;
}

static int bit_of(int fd, unsigned int tgid)
{
	__u32 k = tgid / 64;
	__u64 v = 0;

	if (bpf_map_lookup_elem(fd, &k, &v))
		return -1;
	return (v >> (tgid % 64)) & 1;
}

static void test_shared(void **state)
{
	struct faultline_bpf *a = faultline_bpf__open();
	struct phases_bpf *b = phases_bpf__open();
	struct fl_tgid_filter f;
	char err[256] = "";
	unsigned long pid_max = 0;
	FILE *pm;
	int fa, fb;

	assert_non_null(a);
	assert_non_null(b);
	fl_tgid_filter_init(&f, 1234);
	if (fl_tgid_filter_use(&f, a->maps.fl_tgids, err, sizeof(err))) {
		faultline_bpf__destroy(a);
		phases_bpf__destroy(b);
		if (strstr(err, "Operation not permitted"))
			skip();		/* not root: no BPF map */
		fail_msg("%s", err);
	}
	assert_int_equal(fl_tgid_filter_use(&f, b->maps.fl_tgids, err, sizeof(err)), 0);
	fa = bpf_map__fd(a->maps.fl_tgids);
	fb = bpf_map__fd(b->maps.fl_tgids);
	assert_true(fa >= 0 && fb >= 0);
	assert_int_not_equal(map_id(fa), 0);
	assert_int_equal(map_id(fa), map_id(fb));
	assert_int_equal(map_id(fa), map_id(f.fd));
	/* sized from pid_max: a bit per pid */
	pm = fopen("/proc/sys/kernel/pid_max", "r");
	assert_non_null(pm);
	assert_int_equal(fscanf(pm, "%lu", &pid_max), 1);
	fclose(pm);
	assert_int_equal(bpf_map__max_entries(b->maps.fl_tgids), (pid_max + 63) / 64);
	/* the first tgid is in, set through the mapping, seen through the map */
	assert_int_equal(bit_of(fb, 1234), 1);
	assert_int_equal(bit_of(fb, 1235), 0);
	assert_int_equal(fl_tgid_filter_add(&f, 70), 0);
	assert_int_equal(bit_of(fa, 70), 1);
	assert_int_equal(bit_of(fa, 71), 0);
	assert_int_equal(fl_tgid_filter_add(&f, (unsigned int)pid_max + 64), -1);
	fl_tgid_filter_clear(&f);
	assert_int_equal(bit_of(fb, 1234), 0);
	assert_int_equal(bit_of(fb, 70), 0);
	/* ours closed, the skeletons still hold the map */
	fl_tgid_filter_close(&f);
	assert_int_equal(map_id(fb), map_id(fa));
	faultline_bpf__destroy(a);
	phases_bpf__destroy(b);
}

/* Without a filter a skeleton keeps its own map, one word. */
static void test_none(void **state)
{
	struct faultline_bpf *a = faultline_bpf__open();
	char err[128];

	assert_non_null(a);
	assert_int_equal(fl_tgid_filter_use(NULL, a->maps.fl_tgids, err, sizeof(err)), 0);
	assert_int_equal(bpf_map__max_entries(a->maps.fl_tgids), 1);
	faultline_bpf__destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_follower),
		cmocka_unit_test(test_no_map),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
