// SPDX-License-Identifier: GPL-2.0
/*
 * The handlers' clock.  ktime_get_mono_fast_ns() (the clock of
 * bpf_ktime_get_ns()) costs about 43 guest instructions a read on the cost
 * meter -- the latch, the clocksource read, the scaling -- and every fault
 * takes two.  Where the kernel itself keeps time with the TSC, the handlers
 * read the TSC raw (fl_now()) and only a duration that is recorded is
 * scaled to ns (fl_ticks_ns(), in fl_hist_put()): 87 instructions a fault
 * less for -b kmod on 6.12.
 *
 * "Keeps time with the TSC": the timekeeping clocksource's counter, read by
 * ktime_get_snapshot() (ktime_get_snapshot_id() on 7.x), lies between two TSC reads around it (tsc,
 * tsc-early; not kvm-clock, hpet, acpi_pm), and the TSC is not marked
 * unstable.  The kernel stops using a TSC that is not synchronised across
 * CPUs or changes rate without constant_tsc, so its deltas are then as good
 * as the kernel's own time.  Chosen at each arming (nothing in flight,
 * fl_mutex held); the summary says which clock runs.  Elsewhere, and on
 * other architectures, the handlers read ktime_get_mono_fast_ns().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>
#ifdef CONFIG_X86_TSC
#include <asm/msr.h>
#include <asm/tsc.h>
#endif

#include "faultline.h"

bool fl_clock_tsc __read_mostly;
u32 fl_tsc_mult __read_mostly;
u32 fl_tsc_shift __read_mostly;
static const char *fl_clock_why = "not chosen yet";

#ifdef CONFIG_X86_TSC
/* Does timekeeping count the TSC?  See the top of this file. */
static bool fl_clock_tsc_ok(void)
{
	struct system_time_snapshot snap;
	u64 before, after;

	if (!tsc_khz) {
		fl_clock_why = "no TSC frequency";
		return false;
	}
	if (check_tsc_unstable()) {
		fl_clock_why = "TSC marked unstable";
		return false;
	}
	before = rdtsc_ordered();
#if FL_HAVE_KTIME_GET_SNAPSHOT_ID
	ktime_get_snapshot_id(CLOCK_REALTIME, &snap);	/* ktime_get_snapshot()'s clock */
#else
	ktime_get_snapshot(&snap);
#endif
	after = rdtsc_ordered();
	if (snap.cycles < before || snap.cycles > after) {
		fl_clock_why = "the clocksource is not the TSC";
		return false;
	}
	return true;
}

/* ns = ticks * mult >> shift, mult as large as fits in 32 bits. */
static void fl_clock_scale(u32 khz)
{
	u64 hz = (u64)khz * 1000, mult;
	u32 shift = 32;

	while ((mult = div64_u64((u64)NSEC_PER_SEC << shift, hz)) > U32_MAX)
		shift--;
	fl_tsc_mult = mult;
	fl_tsc_shift = shift;
}

void fl_clock_select(void)
{
	lockdep_assert_held(&fl_mutex);
	if (fl_clock_tsc_ok()) {
		fl_clock_scale(tsc_khz);
		WRITE_ONCE(fl_clock_tsc, true);
		fl_clock_why = "timekeeping counts the TSC";
	} else {
		WRITE_ONCE(fl_clock_tsc, false);
	}
}
#else
void fl_clock_select(void)
{
	fl_clock_why = "no TSC on this architecture";
}
#endif

void fl_clock_show(struct seq_file *m)
{
	if (READ_ONCE(fl_clock_tsc))
		seq_printf(m, "clock: tsc, %u kHz (%s)\n", tsc_khz, fl_clock_why);
	else
		seq_printf(m, "clock: ktime_get_mono_fast_ns (%s)\n", fl_clock_why);
}
