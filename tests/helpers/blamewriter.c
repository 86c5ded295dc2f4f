// SPDX-License-Identifier: GPL-2.0
/*
 * A known mmap_lock writer beside faulting threads, for `record --blame`
 * (tests/integration/blame_writer.sh).
 *
 * T faulting threads ("bl-fault") each write-touch their slice of one shared
 * mapping (base pages, THP off) and zap it with MADV_DONTNEED, over and over,
 * so every touch is a fault.  One writer thread ("bl-writer") calls
 * mprotect() on the whole mapping N times, toggling PROT_EXEC: each call
 * write-locks mmap_lock and the VMA the faults use, so on per-VMA-lock
 * kernels too the faults fall back to mmap_lock and wait behind it.  The
 * writer times each of its own calls (clock_gettime(CLOCK_MONOTONIC) before
 * and after, guest time) and prints:
 *
 *   writer_tid=<tid> writer_calls=<N> writer_ns=<sum of the calls' times>
 *   writer_max_ns=<longest call> faults=<touches after a zap> rounds=<zaps>
 *
 *   blamewriter [-t T] [-p PAGES] [-n CALLS]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "num.h"
#include "trmark.h"

static long nthreads = 2, pages = 256, calls = 500;
static int mapunmap;
static long psz;
static char *region;
static atomic_int done, started;
static atomic_long faults, rounds;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void *faulter(void *arg)
{
	char *p = region + (long)arg * pages * psz;
	long i, n = 0, r = 0;

	prctl(PR_SET_NAME, "bl-fault");
	atomic_fetch_add(&started, 1);
	while (!atomic_load(&done)) {
		for (i = 0; i < pages; i++)
			p[i * psz] = 1;
		n += pages;
		if (madvise(p, pages * psz, MADV_DONTNEED)) {
			perror("blamewriter: madvise");
			exit(1);
		}
		r++;
	}
	atomic_fetch_add(&faults, n);
	atomic_fetch_add(&rounds, r);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long long sum = 0, max = 0, usum = 0, t0, t1, t2;
	size_t len;
	pthread_t *th;
	long i;
	int c;

	while ((c = getopt(argc, argv, "t:p:n:m:")) != -1) {
		switch (c) {
		case 't':
			nthreads = helper_num("blamewriter", optarg, 1, 256);
			break;
		case 'p':
			pages = helper_num("blamewriter", optarg, 1, 1 << 20);
			break;
		case 'n':
			calls = helper_num("blamewriter", optarg, 1, 100000000);
			break;
		case 'm':
			if (!strcmp(optarg, "mapunmap"))
				mapunmap = 1;
			else if (strcmp(optarg, "mprotect")) {
				fprintf(stderr, "blamewriter: unknown mode '%s' (mprotect, mapunmap)\n",
					optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: blamewriter [-t T] [-p PAGES] [-n CALLS] "
				"[-m mprotect|mapunmap]\n");
			return 2;
		}
	}
	psz = sysconf(_SC_PAGESIZE);
	len = (size_t)nthreads * pages * psz;
	/* a guard page each side: the mapping never merges with a neighbour */
	region = mmap(NULL, len + 2 * psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED) {
		perror("blamewriter: mmap");
		return 1;
	}
	region += psz;
	if (mprotect(region, len, PROT_READ | PROT_WRITE) ||
	    madvise(region, len, MADV_NOHUGEPAGE)) {
		perror("blamewriter: setup");
		return 1;
	}
	th = calloc(nthreads, sizeof(*th));
	if (!th)
		return 1;
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, faulter, (void *)i)) {
			fprintf(stderr, "blamewriter: pthread_create failed\n");
			return 1;
		}
	while (atomic_load(&started) < nthreads)
		sched_yield();
	/* the main thread is the writer */
	prctl(PR_SET_NAME, "bl-writer");
	trace_mark("blamewriter: calls begin\n");
	for (i = 0; i < calls; i++) {
		int prot = PROT_READ | PROT_WRITE | ((i & 1) ? 0 : PROT_EXEC);
		void *m = NULL;

		t0 = now_ns();
		if (mapunmap)
			m = mmap(NULL, 16 * psz, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		else if (mprotect(region, len, prot))
			m = MAP_FAILED;
		t1 = now_ns();
		if (m == MAP_FAILED) {
			perror(mapunmap ? "blamewriter: mmap" : "blamewriter: mprotect");
			return 1;
		}
		sum += t1 - t0;
		if (t1 - t0 > max)
			max = t1 - t0;
		if (!mapunmap)
			continue;
		if (munmap(m, 16 * psz)) {
			perror("blamewriter: munmap");
			return 1;
		}
		t2 = now_ns();
		usum += t2 - t1;
	}
	prctl(PR_SET_NAME, "blamewriter");
	atomic_store(&done, 1);
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	printf("writer_tid=%ld writer_calls=%ld writer_ns=%llu writer_max_ns=%llu ",
	       (long)syscall(SYS_gettid), calls, sum, max);
	if (mapunmap)
		printf("munmap_calls=%ld munmap_ns=%llu ", calls, usum);
	printf("faults=%ld rounds=%ld\n", atomic_load(&faults), atomic_load(&rounds));
	return 0;
}
