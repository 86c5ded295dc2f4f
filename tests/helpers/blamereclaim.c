// SPDX-License-Identifier: GPL-2.0
/*
 * An mmap_lock writer that reclaims while it holds the lock, for
 * `record --blame` (tests/integration/blame_reclaim.sh).
 *
 * fork() copies the parent's address space in dup_mmap() with the parent's
 * mmap_lock held for write (6.1 and 6.12 kernel/fork.c:
 * mmap_write_lock_killable(oldmm) ... mmap_write_unlock(oldmm)); for every
 * VMA with an anon_vma, copy_page_range() allocates the child's page
 * tables, GFP_PGTABLE_USER = __GFP_ACCOUNT: charged to the forking task's
 * memory cgroup.  When that cgroup sits at memory.max, the charge runs
 * memcg reclaim (try_charge_memcg -> try_to_free_mem_cgroup_pages, the
 * vmscan:mm_vmscan_memcg_reclaim_begin/end tracepoints) inside the hold.
 *
 * So the helper ("bl-reclaim") maps SPAN MiB of private anonymous memory
 * (MADV_NOHUGEPAGE), writes its first page (an anon_vma: the VMA is copied
 * at fork) and reads one byte every 2 MiB (the zero page: one PTE table per
 * 2 MiB, no charged data page): each fork() allocates SPAN/2 PTE tables for
 * the child.  Before each fork() it reads READ MiB of FILE (a file on a
 * real file system: clean page cache, reclaimable) to keep its cgroup at
 * the limit.  The child exits at once.  With -k KIDS (a cgroup directory)
 * the fork is clone3(CLONE_INTO_CGROUP) into KIDS: dup_mmap() still charges
 * the parent's cgroup (the charges are the current task's), but the
 * child's own charges and reclaim (its first copy-on-write faults, which
 * may run before the parent's fork() returns) are KIDS', out of the
 * parent cgroup's counters read around the call.
 *
 * With -t, a second thread ("bl-faulter") read-faults 64 pages of its own
 * mapping (the zero page: nothing charged, no anon_vma, so fork() does not
 * copy it) and zaps them with MADV_DONTNEED, over and over: its faults wait
 * behind the fork()s' write holds (6.1: every fault takes mmap_lock; 6.12:
 * dup_mmap() write-locks every VMA, so the lockless path falls back).
 *
 * Its own evidence, apart from faultline, summed over the fork() calls
 * (read just before and just after each call, in the cgroup CG):
 *
 *   call_ns   CLOCK_MONOTONIC around fork()
 *   max       memory.events "max" (one per reclaim at the limit:
 *             try_charge_memcg raises it before each reclaim)
 *   psi_us    memory.pressure "some total": the cgroup's memory stall time
 *             (try_charge_memcg wraps the reclaim in psi_memstall_enter/leave)
 *   pgscan, pgsteal  memory.stat
 *
 * and prints them on one line, with the totals over the whole run (the
 * page-cache reads reclaim too, outside fork()):
 *
 *   reclaimer_tid=<tid> forks=<N> call_ns=.. max=.. psi_us=.. pgscan=.. pgsteal=..
 *   all_max=.. all_psi_us=.. all_pgsteal=..
 *
 *   faults=<bl-faulter's passes of 64 read faults> (with -t)
 *
 *   blamereclaim -c CGROUP_DIR -f FILE [-n FORKS] [-s SPAN_MIB] [-r READ_MIB] [-t]
 *                [-k KIDS_CGROUP_DIR]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "num.h"

#define MIB (1UL << 20)
#define PMD_SPAN (2UL << 20)

struct counters {
	unsigned long long max, psi_us, pgscan, pgsteal;
};

static int ev_fd, psi_fd, stat_fd;
static atomic_int stop;
static atomic_long passes;

/* read faults on the zero page, zapped and taken again: nothing charged */
static void *faulter(void *arg)
{
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = 64 * psz;
	char *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile char sink = 0;

	(void)arg;
	if (m == MAP_FAILED) {
		perror("blamereclaim: faulter mmap");
		exit(1);
	}
	prctl(PR_SET_NAME, "bl-faulter");
	while (!atomic_load(&stop)) {
		for (size_t off = 0; off < len; off += psz)
			sink += m[off];
		madvise(m, len, MADV_DONTNEED);
		atomic_fetch_add(&passes, 1);
	}
	(void)sink;
	return NULL;
}

static unsigned long long clk(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* the value after KEY (a word at a line start, or "total=" anywhere) */
static unsigned long long field(int fd, const char *key)
{
	static char buf[8192];
	size_t kl = strlen(key);
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *p = buf;

	if (n <= 0) {
		perror("blamereclaim: read counters");
		exit(1);
	}
	buf[n] = '\0';
	while ((p = strstr(p, key))) {
		if ((p == buf || p[-1] == '\n' || p[-1] == ' ') && (p[kl] == ' ' || key[kl - 1] == '='))
			return strtoull(p + kl, NULL, 10);
		p += kl;
	}
	fprintf(stderr, "blamereclaim: no '%s' in a cgroup file\n", key);
	exit(1);
}

static void sample(struct counters *c)
{
	c->max = field(ev_fd, "max");
	/* the first line is "some avg10=.. avg60=.. avg300=.. total=<us>" */
	c->psi_us = field(psi_fd, "total=");
	c->pgscan = field(stat_fd, "pgscan");
	c->pgsteal = field(stat_fd, "pgsteal");
}

static void add_delta(struct counters *sum, const struct counters *a, const struct counters *b)
{
	sum->max += b->max - a->max;
	sum->psi_us += b->psi_us - a->psi_us;
	sum->pgscan += b->pgscan - a->pgscan;
	sum->pgsteal += b->pgsteal - a->pgsteal;
}

static int cg_open(const char *cg, const char *name)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", cg, name);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	return fd;
}

/* fork(), or with kids >= 0 clone3() into that cgroup; the child exits */
static pid_t spawn(int kids)
{
	struct clone_args ca = {
		.flags = CLONE_INTO_CGROUP,
		.exit_signal = SIGCHLD,
		.cgroup = (unsigned long long)kids,
	};
	long pid;

	if (kids < 0)
		pid = fork();
	else
		pid = syscall(SYS_clone3, &ca, sizeof(ca));
	if (!pid)
		syscall(SYS_exit_group, 0);
	return pid;
}

/* SPAN bytes, one PTE table per 2 MiB, one charged data page */
static void map_span(size_t span)
{
	char *m = mmap(NULL, span, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	volatile char sink = 0;

	if (m == MAP_FAILED) {
		perror("blamereclaim: mmap span");
		exit(1);
	}
	/* no huge zero page: it would map 2 MiB without a PTE table */
	if (madvise(m, span, MADV_NOHUGEPAGE)) {
		perror("blamereclaim: MADV_NOHUGEPAGE");
		exit(1);
	}
	m[0] = 1;
	for (size_t off = PMD_SPAN; off < span; off += PMD_SPAN)
		sink += m[off];
	(void)sink;
}

/* READ bytes of the file from *pos on, wrapping: page cache at the limit */
static void fill_cache(int fd, size_t len, size_t fsize, size_t *pos)
{
	static char buf[1 << 20];

	for (size_t done = 0; done < len; done += sizeof(buf)) {
		if (*pos + sizeof(buf) > fsize)
			*pos = 0;
		if (pread(fd, buf, sizeof(buf), *pos) != (ssize_t)sizeof(buf)) {
			perror("blamereclaim: read file");
			exit(1);
		}
		*pos += sizeof(buf);
	}
}

int main(int argc, char **argv)
{
	long forks = 20, span_mib = 2048, read_mib = 16, i;
	struct counters in = { 0 }, all = { 0 }, a, b, start, end;
	unsigned long long call_ns = 0, w0, w1;
	const char *cg = NULL, *file = NULL;
	size_t pos = 0, fsize;
	int c, fd, fault = 0, kids = -1;
	pthread_t ft;

	while ((c = getopt(argc, argv, "c:f:n:s:r:tk:")) != -1) {
		switch (c) {
		case 'c': cg = optarg; break;
		case 'f': file = optarg; break;
		case 'n': forks = helper_num("blamereclaim", optarg, 1, 100000); break;
		case 's': span_mib = helper_num("blamereclaim", optarg, 4, 1 << 20); break;
		case 'r': read_mib = helper_num("blamereclaim", optarg, 1, 1 << 16); break;
		case 't': fault = 1; break;
		case 'k':
			kids = open(optarg, O_RDONLY | O_DIRECTORY);
			if (kids < 0) {
				perror(optarg);
				return 1;
			}
			break;
		default:
			fprintf(stderr, "usage: blamereclaim -c CGROUP_DIR -f FILE [-n FORKS] "
				"[-s SPAN_MIB] [-r READ_MIB] [-t] [-k KIDS_CGROUP_DIR]\n");
			return 2;
		}
	}
	if (!cg || !file) {
		fprintf(stderr, "blamereclaim: -c and -f are needed\n");
		return 2;
	}
	ev_fd = cg_open(cg, "memory.events");
	psi_fd = cg_open(cg, "memory.pressure");
	stat_fd = cg_open(cg, "memory.stat");
	fd = open(file, O_RDONLY);
	if (fd < 0 || (fsize = lseek(fd, 0, SEEK_END)) < MIB) {
		perror("blamereclaim: file (1 MiB at least)");
		return 1;
	}
	prctl(PR_SET_NAME, "bl-reclaim");
	map_span((size_t)span_mib * MIB);
	if (fault && pthread_create(&ft, NULL, faulter, NULL)) {
		fprintf(stderr, "blamereclaim: pthread_create failed\n");
		return 1;
	}
	sample(&start);
	for (i = 0; i < forks; i++) {
		pid_t kid;

		fill_cache(fd, (size_t)read_mib * MIB, fsize, &pos);
		sample(&a);
		w0 = clk();
		kid = spawn(kids);
		w1 = clk();
		sample(&b);
		if (kid < 0) {
			perror("blamereclaim: fork / clone3");
			return 1;
		}
		call_ns += w1 - w0;
		add_delta(&in, &a, &b);
		waitpid(kid, NULL, 0);
	}
	sample(&end);
	add_delta(&all, &start, &end);
	if (fault) {
		atomic_store(&stop, 1);
		pthread_join(ft, NULL);
	}
	printf("reclaimer_tid=%ld forks=%ld call_ns=%llu max=%llu psi_us=%llu pgscan=%llu "
	       "pgsteal=%llu all_max=%llu all_psi_us=%llu all_pgsteal=%llu faults=%ld\n",
	       (long)syscall(SYS_gettid), forks, call_ns, in.max, in.psi_us, in.pgscan,
	       in.pgsteal, all.max, all.psi_us, all.pgsteal, atomic_load(&passes));
	return 0;
}
