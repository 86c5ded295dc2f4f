// SPDX-License-Identifier: GPL-2.0
/* user/crc32c.c: the CRC32C check value, piecewise use, every alignment. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "crc32c.h"

/* Bit by bit, straight from the definition: the reference. */
static uint32_t crc32c_bitwise(const unsigned char *p, size_t n)
{
	uint32_t c = ~0u;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
	}
	return ~c;
}

static void test_check_value(void **state)
{
	(void)state;
	assert_int_equal(fl_crc32c(0, "123456789", 9), 0xE3069283u);
	assert_int_equal(fl_crc32c(0, "", 0), 0);
	/* RFC 3720 B.4: 32 bytes of zeros, of 0xff */
	{
		unsigned char z[32];

		memset(z, 0, sizeof(z));
		assert_int_equal(fl_crc32c(0, z, sizeof(z)), 0x8A9136AAu);
		memset(z, 0xff, sizeof(z));
		assert_int_equal(fl_crc32c(0, z, sizeof(z)), 0x62A8AB43u);
	}
}

static void test_piecewise_and_aligned(void **state)
{
	unsigned char buf[300];
	uint32_t x = 12345;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = x >> 16;
	}
	for (size_t start = 0; start < 9; start++)
		for (size_t n = 0; start + n <= sizeof(buf); n += 7) {
			uint32_t want = crc32c_bitwise(buf + start, n);

			assert_int_equal(fl_crc32c(0, buf + start, n), want);
			for (size_t cut = 0; cut <= n; cut += 5)
				assert_int_equal(fl_crc32c(fl_crc32c(0, buf + start, cut),
							   buf + start + cut, n - cut), want);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_value),
		cmocka_unit_test(test_piecewise_and_aligned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
