/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pft: a page fault benchmark compatible with the classic pft (Christoph
 * Lameter / Lee Schermerhorn, carried by mmtests), written from its
 * description.  Shared declarations of the small files it is made of.
 */
#ifndef PFT_H
#define PFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <faultline/hist.h>

#define PFT_MAX_WORKERS		1024
#define PFT_MAX_SERIES		256

/* Exit statuses. */
#define PFT_EXIT_OK		0
#define PFT_EXIT_ERROR		1	/* runtime failure (mmap, fork, ...) */
#define PFT_EXIT_USAGE		2	/* invalid or conflicting options */
#define PFT_EXIT_DISHONEST	3	/* --strict and minflt != pages (> 1%) */

enum pft_thp { PFT_THP_NEVER, PFT_THP_ALWAYS, PFT_THP_DEFAULT };

/* What backs the mapping, and how it is touched (will-it-scale's page_fault1..3 + read). */
enum pft_backing { PFT_BACK_ANON, PFT_BACK_FILE, PFT_BACK_TMPFS };
enum pft_shape {
	PFT_SHAPE_ANON,			/* private anonymous write (the classic) */
	PFT_SHAPE_PRIVATE_WRITE,	/* MAP_PRIVATE file, write: COW of a page-cache page */
	PFT_SHAPE_SHARED_WRITE,		/* MAP_SHARED file, write: page-cache page made writable */
	PFT_SHAPE_READ,			/* MAP_PRIVATE file, read: page-cache page mapped (fault-around) */
};

/* Kernel default fault_around_bytes (mm/memory.c), used when debugfs is unreadable. */
#define PFT_FAULT_AROUND_DEFAULT	65536

struct pft_opts {
	unsigned long long bytes;	/* -m, as given (before rounding) */
	unsigned int workers;		/* -t or -n */
	bool processes;			/* -n */
	unsigned int clines;		/* -c */
	bool bzero;			/* -z */
	bool affinity;			/* -a */
	unsigned int sleep_s;		/* -s */
	bool title;			/* -T */
	bool multimap;			/* -M */
	enum pft_backing backing;	/* --file / --tmpfs (default anonymous) */
	const char *path;		/* --file PATH */
	bool cold;			/* --cold: page cache dropped, not read back */
	enum pft_shape shape;		/* --private-write (file default), --shared-write, --read */
	unsigned int verbose;		/* -v (repeatable) */
	enum pft_thp thp;		/* --thp */
	bool latency;			/* --latency */
	bool json;			/* --json */
	bool strict;			/* --strict */
	bool help;			/* -h / --help */
	bool check;			/* --check: validate only */
	bool series;			/* --series MIN MAX [NCPUS] */
	unsigned int series_min, series_max, series_ncpus; /* ncpus 0: online */
};

/*
 * options.c.  Parses argv into *o.  Returns 0, or -1 with a one-line
 * message (no newline) in err.  page_size and line_size are the system's
 * (passed in so the unit tests control them).  Never exits, never prints.
 */
int pft_parse_args(int argc, char **argv, struct pft_opts *o,
		   size_t page_size, size_t line_size, char *err, size_t errlen);
int pft_parse_size(const char *s, size_t page_size, unsigned long long *out);
int pft_parse_uint(const char *s, unsigned long min, unsigned long max,
		   unsigned long *out);
const char *pft_thp_name(enum pft_thp t);
const char *pft_shape_name(enum pft_shape s);
const char *pft_backing_name(enum pft_backing b);
void pft_usage(FILE *f);

/* series.c: mmtests' large-stride client series.  Returns the count. */
unsigned int pft_series(unsigned int min, unsigned int max,
			unsigned int ncpus, unsigned int *out, unsigned int cap);

/* What one run measured; filled by run.c, printed by output.c. */
struct pft_result {
	unsigned long long pages;	/* pages faulted in total */
	unsigned long long pages_per_worker;
	size_t page_size;
	unsigned int workers;
	unsigned int clines;
	double user_s, sys_s, wall_s;
	double cpu_s;			/* CLOCK_THREAD_CPUTIME_ID, summed: exact */
	unsigned long long minflt, majflt;
	unsigned long long expected;	/* minor faults this shape should take */
	unsigned int fault_around;	/* pages per read fault (--read), else 0 */
	bool fault_around_assumed;	/* debugfs unreadable: the kernel default */
	bool rusage_thread;		/* per-thread rusage used */
	bool latency;
	const char *clock;		/* latency clock: "tsc" or "clock_gettime" */
	unsigned long long tsc_khz;	/* 0 when not tsc */
	struct fl_hist hist;		/* merged worker histograms */
};

/* output.c */
unsigned long long pft_gbytes(const struct pft_result *r);
int pft_format_header(char *buf, size_t len);
int pft_format_classic(char *buf, size_t len, const struct pft_result *r);
int pft_format_latency(char *buf, size_t len, const struct pft_result *r);
void pft_print_json(FILE *f, const struct pft_opts *o, const struct pft_result *r,
		    bool honest);
/* Honesty check: does minflt agree with the expected count within 1%? */
bool pft_faults_agree(unsigned long long expected, unsigned long long minflt);
/*
 * Expected minor faults of one sequential pass over the pages [first_vpn,
 * first_vpn + npages) of one mapping (vpn: virtual address / page size) for
 * a shape: one per page for the write shapes and anonymous memory; for
 * --read one per fault-around window (fault_around pages, aligned by
 * virtual address: do_fault_around() in mm/memory.c).
 */
unsigned long long pft_expected_faults(enum pft_shape s, unsigned long long first_vpn,
				       unsigned long long npages, unsigned int fault_around);
/* Does rusage's user+sys agree with the exact CPU time within 5%? */
bool pft_cpu_agree(double rusage_s, double cpu_s);

/* clock.c: latency timestamps. */
struct pft_clock {
	bool tsc;			/* rdtsc + kernel's mult/shift */
	unsigned int mult, shift;	/* ns = cycles * mult >> shift */
	unsigned long long khz;
};
void pft_clock_init(struct pft_clock *c, unsigned int verbose);

/* TSC cycles to ns the way the kernel's perf mmap page says, without overflow. */
static inline fl_u64 pft_cyc2ns(fl_u64 cyc, fl_u32 mult, fl_u32 shift)
{
	fl_u64 quot = cyc >> shift, rem = cyc & ((1ULL << shift) - 1);

	return quot * mult + ((rem * mult) >> shift);
}

/* run.c */
int pft_run(const struct pft_opts *o, struct pft_result *r);
size_t pft_line_size(void);	/* the data cache line, bytes (sysconf, else 64) */

#endif /* PFT_H */
