// SPDX-License-Identifier: GPL-2.0
/*
 * mmap_lock churn: T faulting threads touch pages of their own mapping
 * (base pages, THP off) for R rounds, while W threads mmap/munmap small
 * regions in a loop (mmap_lock taken for write) until the faulting threads
 * are done.  Prints the faults it made and the writer iterations.
 *
 *   churn [-t T] [-w W] [-p PAGES] [-r ROUNDS] [-v POP]
 *
 * -v POP (writer-caused per-VMA lock aborts, tests/integration/
 * vma_writer.sh): one shared anonymous VMA instead, POP pages of it written
 * first; each faulting thread reads PAGES fresh pages of it once (read
 * faults: the zero page), while the W writers mprotect the whole VMA
 * PROT_READ and back to PROT_READ|PROT_WRITE in a loop (each call a
 * "window": mmap_lock held for write, the VMA write-locked by
 * vma_start_write, its POP+ PTEs walked by change_protection).  A read
 * fault in a window finds the VMA write-locked (lock_vma_under_rcu ->
 * vma_start_read fails: an abort), falls back to lock_mm_and_find_vma and
 * sleeps in mmap_read_lock until the writer's unlock.  A lockless fault
 * never sleeps here (a zero-page read fault needs no mmap_lock and takes no
 * sleeping lock), so each voluntary context switch a reader thread makes
 * during its fault loop (getrusage RUSAGE_THREAD ru_nvcsw, counted by the
 * kernel) is a fault that was aborted (or retried) under a writer:
 * reader_sleeps is a lower bound of those.  And a reader waits at most
 * once per window (it holds mmap_lock for read until its fault ends, the
 * next window starts after that): windows x T bounds them from above.
 * Prints reader_faults, reader_sleeps and windows.
 *
 * -a (with -v; lockless retries for want of an anon_vma): each reader
 * instead writes the first page of PAGES fresh one-page VMAs of its own
 * (PROT_NONE between them: no merging, no anon_vma yet), while the writers
 * mprotect the shared VMA, which no reader touches.  The first write fault
 * of a VMA locks it (nobody write-locks it), then vmf_anon_prepare needs
 * mmap_lock to attach an anon_vma: its mmap_read_trylock fails while a
 * writer holds or waits, the fault returns VM_FAULT_RETRY and sleeps in
 * mmap_read_lock.  Each reader sleep is such a retry (nothing else in the
 * loop sleeps), and a VMA's first fault is the only one that needs it:
 * reader_sleeps <= retries for no anon_vma <= PAGES x T.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "num.h"

static long pages = 256, rounds = 20;
static atomic_int done;
static atomic_long writer_iters;
static char *shared;		/* -v: the VMA the writers mprotect */
static long pop, nreaders, psize;
static int vma_mode, anon_mode;
static char *fresh;		/* -a: PAGES x T one-page VMAs, every other page */
static long writers;
static atomic_long reader_sleeps, windows, started;
static atomic_int go;		/* -v: every thread created (no more mmap by main) */

static long num(const char *s, long min, long max)
{
	return helper_num("churn", s, min, max);
}

static void *faulter(void *arg)
{
	long psz = sysconf(_SC_PAGESIZE), r, i;

	(void)arg;
	for (r = 0; r < rounds; r++) {
		char *p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("churn: mmap");
			exit(1);
		}
		madvise(p, pages * psz, MADV_NOHUGEPAGE);
		for (i = 0; i < pages; i++)
			p[i * psz] = 1;
		munmap(p, pages * psz);
	}
	return NULL;
}

static void *writer(void *arg)
{
	long psz = sysconf(_SC_PAGESIZE);

	(void)arg;
	while (!atomic_load(&done)) {
		char *p = mmap(NULL, 16 * psz, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("churn: mmap");
			exit(1);
		}
		p[0] = 1;
		munmap(p, 16 * psz);
		atomic_fetch_add(&writer_iters, 1);
	}
	return NULL;
}

/* -v: read PAGES fresh pages of the shared VMA, count own sleeps */
static void *vma_reader(void *arg)
{
	long idx = (long)arg, i;
	struct rusage a, b;
	volatile char sink;

	/*
	 * Start when every thread exists (main's stack mmap/mprotect for a
	 * later thread is a write cycle that would slip between a writer's
	 * window and a reader's wait) and a writer is in its loop.
	 */
	while (!atomic_load(&go) || (atomic_load(&started) == 0 && writers))
		;
	getrusage(RUSAGE_THREAD, &a);
	for (i = 0; i < pages; i++)
		if (anon_mode)
			fresh[2 * (i * nreaders + idx) * psize] = 1;
		else
			sink = shared[(pop + i * nreaders + idx) * psize];
	getrusage(RUSAGE_THREAD, &b);
	(void)sink;
	atomic_fetch_add(&reader_sleeps, b.ru_nvcsw - a.ru_nvcsw);
	return NULL;
}

static void *vma_writer(void *arg)
{
	size_t len = (pop + pages * nreaders) * psize;

	(void)arg;
	while (!atomic_load(&done)) {
		if (mprotect(shared, len, PROT_READ) ||
		    mprotect(shared, len, PROT_READ | PROT_WRITE)) {
			perror("churn: mprotect");
			exit(1);
		}
		atomic_fetch_add(&windows, 2);
		atomic_fetch_add(&started, 1);
	}
	return NULL;
}

/* -v: the shared VMA between two PROT_NONE guards (no merging) */
static int vma_setup(void)
{
	size_t len = (pop + pages * nreaders) * psize;
	char *p = mmap(NULL, len + 2 * psize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	long i;

	if (p == MAP_FAILED)
		return -1;
	shared = mmap(p + psize, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		      -1, 0);
	if (shared == MAP_FAILED)
		return -1;
	madvise(shared, len, MADV_NOHUGEPAGE);
	for (i = 0; i < pop; i++)
		shared[i * psize] = 1;
	if (!anon_mode)
		return 0;
	/* -a: one-page RW VMAs with PROT_NONE pages between them */
	fresh = mmap(NULL, 2 * pages * nreaders * psize, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (fresh == MAP_FAILED)
		return -1;
	for (i = 0; i < pages * nreaders; i++)
		if (mprotect(fresh + 2 * i * psize, psize, PROT_READ | PROT_WRITE))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	long t = 2, w = 1, i;
	void *(*wfn)(void *) = writer, *(*ffn)(void *) = faulter;
	pthread_t tid[128];
	int opt;

	while ((opt = getopt(argc, argv, "t:w:p:r:v:a")) != -1) {
		switch (opt) {
		case 't': t = num(optarg, 1, 64); break;
		case 'w': w = num(optarg, 0, 64); break;
		case 'p': pages = num(optarg, 1, 1L << 20); break;
		case 'r': rounds = num(optarg, 1, INT_MAX); break;
		case 'v': pop = num(optarg, 0, 1L << 20); vma_mode = 1; break;
		case 'a': anon_mode = 1; break;
		default:
			fprintf(stderr, "usage: churn [-t T] [-w W] [-p PAGES] [-r ROUNDS] [-v POP [-a]]\n");
			return 2;
		}
	}
	if (anon_mode && !vma_mode) {
		fprintf(stderr, "churn: -a needs -v POP\n");
		return 2;
	}
	if (anon_mode && pages * t > 30000) {
		fprintf(stderr, "churn: -a: PAGES x T must be <= 30000 (vm.max_map_count)\n");
		return 2;
	}
	if (vma_mode) {
		nreaders = t;
		writers = w;
		psize = sysconf(_SC_PAGESIZE);
		if (vma_setup())
			return perror("churn: mmap"), 1;
		wfn = vma_writer;
		ffn = vma_reader;
	}
	for (i = 0; i < w; i++)
		if (pthread_create(&tid[t + i], NULL, wfn, NULL))
			return perror("churn: pthread_create"), 1;
	for (i = 0; i < t; i++)
		if (pthread_create(&tid[i], NULL, ffn, (void *)i))
			return perror("churn: pthread_create"), 1;
	atomic_store(&go, 1);
	for (i = 0; i < t; i++)
		pthread_join(tid[i], NULL);
	atomic_store(&done, 1);
	for (i = 0; i < w; i++)
		pthread_join(tid[t + i], NULL);
	if (vma_mode)
		printf("churn -v%s: readers=%ld writers=%ld reader_faults=%ld reader_sleeps=%ld windows=%ld\n",
		       anon_mode ? " -a" : "", t, w, t * pages, atomic_load(&reader_sleeps), atomic_load(&windows));
	else
		printf("churn: faulting_threads=%ld writers=%ld faults=%ld writer_iters=%ld\n",
		       t, w, t * rounds * pages, atomic_load(&writer_iters));
	return 0;
}
