// SPDX-License-Identifier: GPL-2.0
/*
 * The one CRC32C (crc32c.h): table-driven, in software, eight bytes a step
 * ("slicing-by-8", ~1 byte a cycle: a 4 MB CPU section of 256 CPUs in a
 * millisecond or two), a byte at a time at the ends.  The eight 256-entry
 * tables (8 KiB) are built once, before main() (a constructor: no lock, no
 * race with threads).
 */
#include <string.h>

#include "crc32c.h"

#define CRC32C_POLY	0x82F63B78u	/* 0x1EDC6F41, bit-reversed */

static uint32_t crc32c_tab[8][256];

__attribute__((constructor)) static void crc32c_init(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		crc32c_tab[0][n] = c;
	}
	for (uint32_t n = 0; n < 256; n++)
		for (int t = 1; t < 8; t++)
			crc32c_tab[t][n] = crc32c_tab[0][crc32c_tab[t - 1][n] & 0xff] ^
					   (crc32c_tab[t - 1][n] >> 8);
}

uint32_t fl_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	crc = ~crc;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; len >= 8; p += 8, len -= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		w ^= crc;
		crc = crc32c_tab[7][w & 0xff] ^ crc32c_tab[6][(w >> 8) & 0xff] ^
		      crc32c_tab[5][(w >> 16) & 0xff] ^ crc32c_tab[4][(w >> 24) & 0xff] ^
		      crc32c_tab[3][(w >> 32) & 0xff] ^ crc32c_tab[2][(w >> 40) & 0xff] ^
		      crc32c_tab[1][(w >> 48) & 0xff] ^ crc32c_tab[0][w >> 56];
	}
#endif
	while (len--)
		crc = crc32c_tab[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
