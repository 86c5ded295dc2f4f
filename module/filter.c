// SPDX-License-Identifier: GPL-2.0
/*
 * The process filter: `tgid N` traces process N and every process it forks
 * afterwards (like the BPF backend's follow-fork), so `faultline record --
 * CMD` covers CMD's children.  A bitmap indexed by tgid (PID_MAX_LIMIT bits,
 * 512 KiB) makes the per-event test one bit lookup; sched_process_fork adds
 * children of traced processes.  The set only grows until the next `tgid`
 * command (a traced tgid reused after its process exited stays traced).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/sched.h>
#include <linux/threads.h>
#include <linux/vmalloc.h>

#include "faultline.h"

unsigned long *fl_tgid_map;

/* fl_mutex held (or init).  NR: global tgid, 0 = everything. */
void fl_filter_set(unsigned int nr)
{
	/* Meanwhile events see the old filter or a subset of it, never more. */
	bitmap_zero(fl_tgid_map, PID_MAX_LIMIT);
	if (nr)
		set_bit(nr, fl_tgid_map);
	WRITE_ONCE(fl_tgid, nr);
}

void fl_filter_fork(struct task_struct *parent, struct task_struct *child)
{
	unsigned int ptgid = parent->tgid, ctgid = child->tgid;

	if (!READ_ONCE(fl_tgid) || ptgid == ctgid || ctgid >= PID_MAX_LIMIT)
		return;
	if (ptgid < PID_MAX_LIMIT && test_bit(ptgid, fl_tgid_map))
		set_bit(ctgid, fl_tgid_map);
}

int fl_filter_init(void)
{
	fl_tgid_map = vzalloc(BITS_TO_LONGS(PID_MAX_LIMIT) * sizeof(long));
	return fl_tgid_map ? 0 : -ENOMEM;
}

void fl_filter_exit(void)
{
	vfree(fl_tgid_map);
	fl_tgid_map = NULL;
}
