// SPDX-License-Identifier: GPL-2.0
/*
 * An mmap_lock writer that sleeps while it holds the lock, for
 * `record --blame` (tests/integration/blame_sleeper.sh).
 *
 * mmap() of a shared file links the new VMA into the file's i_mmap tree
 * (vma_link_file: i_mmap_lock_write, a sleeping rwsem) while it holds
 * mmap_lock for write (6.1 mm/mmap.c mmap_region, 6.12 __mmap_region).
 * A child process ("bl-trunc") keeps a memfd of PAGES pages mapped MAPS
 * times, populated, and truncates it to 0 over and over: shmem_setattr ->
 * unmap_mapping_range zaps every page of every mapping under
 * i_mmap_lock_read (MAPS x PAGES entries; freeing the PAGES pages after it
 * does not hold the lock, so more mappings make the zap most of the
 * truncation).  The writer ("bl-sleeper") waits until a truncation has
 * begun, then mmap()s one page of the same memfd: it blocks on i_mmap_rwsem
 * (TASK_UNINTERRUPTIBLE) holding mmap_lock for write.  It measures its own
 * time off CPU inside each mmap() call, apart from faultline:
 *
 *   off CPU  = wall (CLOCK_MONOTONIC) - on CPU (CLOCK_THREAD_CPUTIME_ID)
 *   runnable = /proc/thread-self/schedstat run_delay (updated when it is
 *              switched in, so exact at the read after the call)
 *   asleep   = off CPU - runnable (switched out until woken)
 *
 * summed over the calls that blocked (a voluntary switch inside them).
 * Before its first call it writes "blamesleeper: calls begin" to tracefs's
 * trace_marker (when it can), for a trace taken beside it.  It prints
 *
 *   sleeper_tid=<tid> calls=<N> call_ns=<sum> sleep_ns=<asleep> off_ns=<off CPU>
 *   runnable_ns=<run_delay> nvcsw=<voluntary switches> collided=<calls that blocked>
 *
 *
 * blame_sleeper.sh runs it under `taskset -c 0`, the child with it: on one
 * CPU the truncator is preempted inside its zap and the writer cannot spin
 * it out, so it sleeps.
 *
 * With -m MIN it goes on past CALLS until MIN calls blocked (at most 4 x
 * CALLS in all): on a busy host whole truncations can pass between two of
 * its calls, and a run where none blocked measures nothing.  Each call
 * starts a quarter of the last truncation's length after the truncation
 * began, inside its zap rather than before it.
 *
 *   blamesleeper [-n CALLS] [-m MIN] [-p PAGES] [-k MAPS]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "num.h"
#include "trmark.h"

/* shared with the child: it raises `zapping` around each truncation */
struct shared {
	atomic_int zapping;
	atomic_int stop;
	atomic_long zaps;
	atomic_ullong zap_ns;	/* how long the last truncation to 0 took */
};

static unsigned long long clk(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* run_delay (ns spent runnable, waiting for a CPU) of this thread */
static unsigned long long run_delay(int fd)
{
	unsigned long long run = 0, delay = 0;
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &run, &delay) != 2)
		return 0;
	return delay;
}

static long nvcsw(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw;
}

static void truncator(int fd, size_t len, long maps, struct shared *sh, long psz)
{
	char *m[64];

	prctl(PR_SET_NAME, "bl-trunc");
	for (long k = 0; k < maps; k++) {
		m[k] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m[k] == MAP_FAILED) {
			perror("blamesleeper: truncator mmap");
			_exit(1);
		}
	}
	while (!atomic_load(&sh->stop)) {
		if (ftruncate(fd, len)) {
			perror("blamesleeper: ftruncate");
			_exit(1);
		}
		for (long k = 0; k < maps; k++)
			for (size_t i = 0; i < len; i += psz)
				m[k][i] = 1;
		unsigned long long t0 = clk(CLOCK_MONOTONIC);

		atomic_store(&sh->zapping, 1);
		/* unmap_mapping_range: every page zapped under i_mmap_lock_read */
		if (ftruncate(fd, 0)) {
			perror("blamesleeper: ftruncate 0");
			_exit(1);
		}
		atomic_store(&sh->zapping, 0);
		atomic_store(&sh->zap_ns, clk(CLOCK_MONOTONIC) - t0);
		atomic_fetch_add(&sh->zaps, 1);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	unsigned long long call_ns = 0, sleep_ns = 0, off_ns = 0, rq_ns = 0;
	long calls = 40, pages = 1024, maps = 16, psz, sw = 0, collided = 0, min = 0, i;
	struct shared *sh;
	int c, fd, sfd;
	size_t len;
	pid_t kid;

	while ((c = getopt(argc, argv, "n:m:p:k:")) != -1) {
		switch (c) {
		case 'n':
			calls = helper_num("blamesleeper", optarg, 1, 1000000);
			break;
		case 'm':
			min = helper_num("blamesleeper", optarg, 0, 1000000);
			break;
		case 'p':
			pages = helper_num("blamesleeper", optarg, 1, 1 << 20);
			break;
		case 'k':
			maps = helper_num("blamesleeper", optarg, 1, 64);
			break;
		default:
			fprintf(stderr, "usage: blamesleeper [-n CALLS] [-m MIN] [-p PAGES] [-k MAPS]\n");
			return 2;
		}
	}
	psz = sysconf(_SC_PAGESIZE);
	len = (size_t)pages * psz;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fd = memfd_create("bl-sleep", 0);
	sfd = open("/proc/thread-self/schedstat", O_RDONLY);
	if (sh == MAP_FAILED || fd < 0 || sfd < 0) {
		perror("blamesleeper: setup");
		return 1;
	}
	kid = fork();
	if (kid < 0) {
		perror("blamesleeper: fork");
		return 1;
	}
	if (!kid)
		truncator(fd, len, maps, sh, psz);
	prctl(PR_SET_NAME, "bl-sleeper");
	trace_mark("blamesleeper: calls begin\n");
	for (i = 0; i < calls || (collided < min && i < 4 * calls); i++) {
		unsigned long long w0, w1, c0, c1, d0, d1, off, t;
		long s0;
		void *m;

		/* a truncation is under way: its zap holds i_mmap_rwsem for read */
		while (!atomic_load(&sh->zapping))
			sched_yield();
		t = clk(CLOCK_MONOTONIC) + atomic_load(&sh->zap_ns) / 4;
		while (clk(CLOCK_MONOTONIC) < t && atomic_load(&sh->zapping))
			sched_yield();
		s0 = nvcsw();
		d0 = run_delay(sfd);
		c0 = clk(CLOCK_THREAD_CPUTIME_ID);
		w0 = clk(CLOCK_MONOTONIC);
		m = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, 0);
		w1 = clk(CLOCK_MONOTONIC);
		c1 = clk(CLOCK_THREAD_CPUTIME_ID);
		d1 = run_delay(sfd);
		s0 = nvcsw() - s0;
		if (m == MAP_FAILED) {
			perror("blamesleeper: mmap");
			return 1;
		}
		call_ns += w1 - w0;
		if (s0 > 0) {
			off = w1 - w0 > c1 - c0 ? (w1 - w0) - (c1 - c0) : 0;
			sw += s0;
			collided++;
			off_ns += off;
			rq_ns += d1 - d0;
			if (off > d1 - d0)
				sleep_ns += off - (d1 - d0);
		}
		munmap(m, psz);
		/* one call per truncation: the next waits for the next zap */
		while (atomic_load(&sh->zapping))
			sched_yield();
	}
	atomic_store(&sh->stop, 1);
	waitpid(kid, NULL, 0);
	printf("sleeper_tid=%ld calls=%ld call_ns=%llu sleep_ns=%llu off_ns=%llu runnable_ns=%llu "
	       "nvcsw=%ld collided=%ld zaps=%ld\n", (long)syscall(SYS_gettid), i, call_ns,
	       sleep_ns, off_ns, rq_ns, sw, collided, atomic_load(&sh->zaps));
	return 0;
}
