// SPDX-License-Identifier: GPL-2.0
/* user/init_on_alloc.c: where the kernel zeroes user pages, from release, cmdline, config. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "init_on_alloc.h"

static char dir[64], plain_y[128], plain_n[128], gz_y[128], absent[128];

static void write_plain(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	gzFile g;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/fl-ioa-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(plain_y, sizeof(plain_y), "%s/config-y", dir);
	snprintf(plain_n, sizeof(plain_n), "%s/config-n", dir);
	snprintf(gz_y, sizeof(gz_y), "%s/config.gz", dir);
	snprintf(absent, sizeof(absent), "%s/none", dir);
	write_plain(plain_y, "CONFIG_SLUB=y\nCONFIG_INIT_ON_ALLOC_DEFAULT_ON=y\n"
		    "# CONFIG_INIT_ON_FREE_DEFAULT_ON is not set\n");
	write_plain(plain_n, "CONFIG_SLUB=y\n# CONFIG_INIT_ON_ALLOC_DEFAULT_ON is not set\n");
	g = gzopen(gz_y, "wb");
	if (!g)
		return -1;
	gzputs(g, "CONFIG_X86_64=y\nCONFIG_INIT_ON_ALLOC_DEFAULT_ON=y\n");
	gzclose(g);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(plain_y);
	unlink(plain_n);
	unlink(gz_y);
	rmdir(dir);
	return 0;
}

static int decide(const char *rel, const char *cmdline, const char *c1, const char *c2,
		  char *src, size_t len)
{
	const char *configs[] = { c1, c2, NULL };

	return fl_alloc_zeroes_user_pages_from(rel, cmdline, configs, src, len);
}

/* before 6.13 folio_zero_user() zeroes huge pages whatever init_on_alloc says */
static void test_old_kernels(void **state)
{
	char src[160];

	(void)state;
	assert_int_equal(decide("6.12.118+deb12-amd64", "init_on_alloc=1", plain_y, NULL,
				src, sizeof(src)), 0);
	assert_non_null(strstr(src, "before 6.13"));
	assert_int_equal(decide("6.1.0-57-amd64", NULL, plain_y, NULL, NULL, 0), 0);
	assert_int_equal(decide("5.10.0-46-amd64", NULL, plain_y, NULL, NULL, 0), 0);
	assert_int_equal(decide("6.13.0", NULL, plain_y, NULL, NULL, 0), 1);
	assert_int_equal(decide("7.3.4+deb13-amd64", NULL, plain_y, NULL, NULL, 0), 1);
	assert_int_equal(decide("6.18.44-fc-v1272", NULL, plain_y, NULL, NULL, 0), 1);
}

/* the command line decides over the config; the last valid one wins */
static void test_cmdline(void **state)
{
	char src[160];

	(void)state;
	assert_int_equal(decide("7.3.4", "quiet init_on_alloc=0 panic=-1\n", plain_y, NULL,
				src, sizeof(src)), 0);
	assert_string_equal(src, "init_on_alloc=0 on the command line");
	assert_int_equal(decide("7.3.4", "init_on_alloc=on", plain_n, NULL, NULL, 0), 1);
	assert_int_equal(decide("7.3.4", "init_on_alloc=off", plain_y, NULL, NULL, 0), 0);
	assert_int_equal(decide("7.3.4", "init_on_alloc=Y", plain_n, NULL, NULL, 0), 1);
	assert_int_equal(decide("7.3.4", "init_on_alloc=1 init_on_alloc=n", plain_y, NULL,
				NULL, 0), 0);
	/* kstrtobool rejects it: the setting stays as it was (the config) */
	assert_int_equal(decide("7.3.4", "init_on_alloc=maybe", plain_y, NULL, NULL, 0), 1);
	assert_int_equal(decide("7.3.4", "init_on_alloc=1 init_on_alloc=", plain_n, NULL,
				NULL, 0), 1);
	/* not init_on_alloc=, and what follows -- is init's */
	assert_int_equal(decide("7.3.4", "xinit_on_alloc=0 init_on_free=0", plain_y, NULL,
				NULL, 0), 1);
	assert_int_equal(decide("7.3.4", "quiet -- init_on_alloc=0", plain_y, NULL, NULL, 0), 1);
}

/* the config, plain or gzip, the first readable one */
static void test_config(void **state)
{
	char src[160];

	(void)state;
	assert_int_equal(decide("7.3.4", "quiet", plain_y, NULL, src, sizeof(src)), 1);
	assert_non_null(strstr(src, "CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y in "));
	assert_int_equal(decide("7.3.4", "quiet", plain_n, gz_y, src, sizeof(src)), 0);
	assert_non_null(strstr(src, "=n in "));
	assert_int_equal(decide("7.3.4", NULL, absent, gz_y, src, sizeof(src)), 1);
	assert_non_null(strstr(src, "config.gz"));
}

/* nothing readable: unknown, and said so */
static void test_unknown(void **state)
{
	char src[160];

	(void)state;
	assert_int_equal(decide("7.3.4+deb13-amd64", "quiet", absent, NULL, src, sizeof(src)), -1);
	assert_non_null(strstr(src, "init_on_alloc unknown"));
	assert_non_null(strstr(src, "/boot/config-7.3.4+deb13-amd64"));
	assert_int_equal(decide("7.3.4", NULL, NULL, NULL, NULL, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_kernels),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
