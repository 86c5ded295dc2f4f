/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CRC32C (Castagnoli: reflected polynomial 0x82F63B78, initial value and
 * final XOR ~0), the checksum of snapshot format 1.1 (snapshot.h).  The same
 * function as iSCSI, ext4, btrfs and SSE4.2's crc32 instruction:
 * fl_crc32c(0, "123456789", 9) == 0xE3069283.
 *
 * CRC is the value returned so far (0 to start), so a checksum can be taken
 * piece by piece: fl_crc32c(fl_crc32c(0, a, n), b, m) is the CRC of a then b.
 */
#ifndef FAULTLINE_CRC32C_H
#define FAULTLINE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t fl_crc32c(uint32_t crc, const void *buf, size_t len);

#endif
