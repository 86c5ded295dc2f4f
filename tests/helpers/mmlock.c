// SPDX-License-Identifier: GPL-2.0
/*
 * mmap_lock events of a known shape, for comparing the backends on one run
 * (tests/integration/mmap_lock_agree.sh):
 *
 *   -m munmap|fixed: N rounds, one thread, on one address between two PROT_NONE guard
 *      pages: mmap 64 pages there (MAP_FIXED into the hole: write lock),
 *      touch them (faults), mprotect them read-only (write lock), then free
 *      them -- -m munmap: munmap (write lock, then mmap_write_downgrade and
 *      a read unlock, on 6.1 and 6.12: the page tables are freed under the
 *      read lock); -m fixed: a PROT_NONE MAP_FIXED mmap over them (write
 *      lock, the old range unmapped inside mmap: no downgrade).  The two
 *      modes take the same locks apart from munmap's downgrade, so the
 *      difference in read holds between them is N.
 *   -m contend: C rounds of populating 16 MiB (MAP_POPULATE) and unmapping
 *      it -- zapping 4096 pages under the downgraded read lock -- each
 *      followed by a -m munmap round, while a second thread mmaps, touches
 *      and unmaps 4 pages in a loop until the rounds are done: its write
 *      locks wait behind the zap (lock:contention_begin), its faults' read
 *      trylocks fail behind the first thread's write locks (6.1, where
 *      faults take mmap_lock).  How often is up to the scheduler.
 *
 * With -s FIFO it first blocks opening FIFO for reading, so recorders can
 * attach with -p before any of it happens.  Prints what it did.
 *
 *   mmlock [-s FIFO] [-m munmap|fixed|contend] [-n N] [-c C]
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "num.h"

#define SMALL_PAGES	64
#define BIG_PAGES	4096

static long psz;
static atomic_int done;
static atomic_long probes;

static long num(const char *s, long min, long max)
{
	return helper_num("mmlock", s, min, max);
}

static char *map_at(char *at, long pages, int prot, int flags)
{
	char *p = mmap(at, pages * psz, prot, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmlock: mmap");
		exit(1);
	}
	return p;
}

static char *map(long pages, int flags)
{
	return map_at(NULL, pages, PROT_READ | PROT_WRITE, flags);
}

static void touch(char *p, long pages)
{
	long i;

	for (i = 0; i < pages; i++)
		p[i * psz] = 1;
}

static void unmap(char *p, long pages)
{
	if (munmap(p, pages * psz)) {
		perror("mmlock: munmap");
		exit(1);
	}
}

/* -m contend's second thread: small mmap/touch/munmap until the rounds are done. */
static void *prober(void *arg)
{
	(void)arg;
	while (!atomic_load(&done)) {
		char *p = map(4, 0);

		touch(p, 4);
		unmap(p, 4);
		atomic_fetch_add(&probes, 1);
	}
	return NULL;
}

/*
 * One round on the hole (anywhere if NULL: a second thread maps too):
 * mmap, touch, mprotect, free (munmap or MAP_FIXED).
 */
static void round_small(char *hole, int fixed)
{
	char *p = map_at(hole, SMALL_PAGES, PROT_READ | PROT_WRITE, hole ? MAP_FIXED : 0);

	touch(p, SMALL_PAGES);
	if (mprotect(p, SMALL_PAGES * psz, PROT_READ)) {
		perror("mmlock: mprotect");
		exit(1);
	}
	if (fixed)
		map_at(hole, SMALL_PAGES, PROT_NONE, MAP_FIXED);
	else
		unmap(p, SMALL_PAGES);
}

int main(int argc, char **argv)
{
	long n = 200, c = 20, r;
	const char *fifo = NULL, *mode = "munmap";
	int fixed, contend, opt;
	pthread_t tid;
	char *hole;

	while ((opt = getopt(argc, argv, "s:m:n:c:")) != -1) {
		switch (opt) {
		case 's': fifo = optarg; break;
		case 'm': mode = optarg; break;
		case 'n': n = num(optarg, 0, 1000000); break;
		case 'c': c = num(optarg, 1, 10000); break;
		default:
			fprintf(stderr, "usage: mmlock [-s FIFO] [-m munmap|fixed|contend] [-n N] [-c C]\n");
			return 2;
		}
	}
	fixed = !strcmp(mode, "fixed");
	contend = !strcmp(mode, "contend");
	if (!fixed && !contend && strcmp(mode, "munmap")) {
		fprintf(stderr, "mmlock: -m munmap|fixed|contend, not '%s'\n", mode);
		return 2;
	}
	psz = sysconf(_SC_PAGESIZE);
	/* guard, hole of SMALL_PAGES (PROT_NONE in -m fixed), guard */
	hole = map_at(NULL, SMALL_PAGES + 2, PROT_NONE, 0) + psz;
	if (!fixed)
		unmap(hole, SMALL_PAGES);
	if (fifo) {
		char b;
		int fd = open(fifo, O_RDONLY);

		if (fd < 0) {
			fprintf(stderr, "mmlock: %s: %s\n", fifo, strerror(errno));
			return 1;
		}
		if (read(fd, &b, 1) < 0)
			perror("mmlock: read");
		close(fd);
	}

	if (!contend) {
		for (r = 0; r < n; r++)
			round_small(hole, fixed);
		printf("mmlock: mode=%s rounds=%ld\n", mode, n);
		return 0;
	}
	if (pthread_create(&tid, NULL, prober, NULL))
		return perror("mmlock: pthread_create"), 1;
	for (r = 0; r < c; r++) {
		unmap(map(BIG_PAGES, MAP_POPULATE), BIG_PAGES);
		round_small(NULL, 0);
	}
	atomic_store(&done, 1);
	pthread_join(tid, NULL);
	printf("mmlock: mode=contend rounds=%ld probes=%ld\n", c, atomic_load(&probes));
	return 0;
}
