// SPDX-License-Identifier: GPL-2.0
/*
 * The module's build of include/faultline/mmaplock.h: samples go through
 * module/faultline.h's fl_hist_put(), whose bucket comes from one bsr
 * (fls64) instead of hist.h's shift cascade.  fls64 here is the compiler's
 * count of leading zeros, as the kernel's generic fls64 is.
 */
#include <faultline/hist.h>

static unsigned int kside_fls64(fl_u64 v)
{
	return v ? 64 - (unsigned int)__builtin_clzll(v) : 0;
}

static void kside_hist_put(struct fl_hist *h, fl_u64 v)
{
	fl_u64 b = v > FL_HIST_VMAX ? FL_HIST_VMAX : v;
	fl_u32 shift = kside_fls64(b | FL_HIST_SUB) - 1 - FL_HIST_SUB_BITS;

	fl_hist_add_at(h, (shift << FL_HIST_SUB_BITS) + (fl_u32)(b >> shift), v);
}

#define FL_HIST_RECORD	kside_hist_put
#define ML_DRIVE_NAME	ml_drive_kmod
#include "mmaplock_drive.h"
