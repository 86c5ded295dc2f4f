// SPDX-License-Identifier: GPL-2.0
/*
 * mmap_lock churn: T faulting threads touch pages of their own mapping
 * (base pages, THP off) for R rounds, while W threads mmap/munmap small
 * regions in a loop (mmap_lock taken for write) until the faulting threads
 * are done.  Prints the faults it made and the writer iterations.
 *
 *   churn [-t T] [-w W] [-p PAGES] [-r ROUNDS]
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "num.h"

static long pages = 256, rounds = 20;
static atomic_int done;
static atomic_long writer_iters;

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

int main(int argc, char **argv)
{
	long t = 2, w = 1, i;
	pthread_t tid[128];
	int opt;

	while ((opt = getopt(argc, argv, "t:w:p:r:")) != -1) {
		switch (opt) {
		case 't': t = num(optarg, 1, 64); break;
		case 'w': w = num(optarg, 0, 64); break;
		case 'p': pages = num(optarg, 1, 1L << 20); break;
		case 'r': rounds = num(optarg, 1, INT_MAX); break;
		default:
			fprintf(stderr, "usage: churn [-t T] [-w W] [-p PAGES] [-r ROUNDS]\n");
			return 2;
		}
	}
	for (i = 0; i < w; i++)
		if (pthread_create(&tid[t + i], NULL, writer, NULL))
			return perror("churn: pthread_create"), 1;
	for (i = 0; i < t; i++)
		if (pthread_create(&tid[i], NULL, faulter, NULL))
			return perror("churn: pthread_create"), 1;
	for (i = 0; i < t; i++)
		pthread_join(tid[i], NULL);
	atomic_store(&done, 1);
	for (i = 0; i < w; i++)
		pthread_join(tid[t + i], NULL);
	printf("churn: faulting_threads=%ld writers=%ld faults=%ld writer_iters=%ld\n",
	       t, w, t * rounds * pages, atomic_load(&writer_iters));
	return 0;
}
