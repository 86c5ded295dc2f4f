// SPDX-License-Identifier: GPL-2.0
/*
 * The clock behind --latency.  The TSC when the CPU says it is invariant and
 * the kernel exports its own TSC-to-ns conversion (time_mult/time_shift of a
 * perf_event mmap page, cap_user_time: the kernel runs sched_clock on a
 * stable TSC); clock_gettime(CLOCK_MONOTONIC) otherwise (e.g. kvm-clock
 * guests, other architectures).  PFT_CLOCK=clock_gettime forces the fallback.
 */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "pft.h"

static bool invariant_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007)
		return false;
	__get_cpuid(0x80000007, &a, &b, &c, &d);
	return d & (1u << 8);
#else
	return false;
#endif
}

static bool kernel_tsc_conversion(unsigned int *mult, unsigned int *shift)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	long psz = sysconf(_SC_PAGESIZE);
	unsigned int seq, cap;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return false;
	pg = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (pg == MAP_FAILED)
		return false;
	do {
		seq = pg->lock;
		__sync_synchronize();
		cap = pg->cap_user_time;
		*mult = pg->time_mult;
		*shift = pg->time_shift;
		__sync_synchronize();
	} while (pg->lock != seq);
	munmap(pg, psz);
	return cap && *mult && *shift < 64;
}

void pft_clock_init(struct pft_clock *c, unsigned int verbose)
{
	const char *force = getenv("PFT_CLOCK");
	const char *why = NULL;

	memset(c, 0, sizeof(*c));
	if (force && !strcmp(force, "clock_gettime"))
		why = "PFT_CLOCK=clock_gettime";
	else if (!invariant_tsc())
		why = "no invariant TSC";
	else if (!kernel_tsc_conversion(&c->mult, &c->shift))
		why = "kernel exports no TSC conversion (perf cap_user_time)";
	if (!why) {
		c->tsc = true;
		c->khz = (unsigned long long)((1e6 * (double)(1ULL << c->shift)) / c->mult + 0.5);
	}
	if (verbose)
		fprintf(stderr, "pft: latency clock %s%s%s\n", c->tsc ? "tsc" : "clock_gettime",
			why ? ": " : "", why ? why : "");
	if (verbose && c->tsc)
		fprintf(stderr, "pft: tsc %llu kHz (mult %u shift %u)\n", c->khz, c->mult,
			c->shift);
}
