/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Fixed-width types for the faultline ABI. No kernel or libc header is
 * included so the same files compile after vmlinux.h (BPF), in the kernel
 * module and in user space.
 */
#ifndef FAULTLINE_TYPES_H
#define FAULTLINE_TYPES_H

typedef unsigned long long fl_u64;
typedef unsigned int fl_u32;
typedef unsigned short fl_u16;
typedef unsigned char fl_u8;
typedef long long fl_s64;

#ifndef FL_INLINE
#define FL_INLINE static inline __attribute__((always_inline))
#endif

#endif /* FAULTLINE_TYPES_H */
