// SPDX-License-Identifier: GPL-2.0
/*
 * pft's measurement: map the memory, start the workers (threads sharing one
 * mm, or processes with one mm each), release them together, let each fault
 * its share between two (clock, rusage) snapshots, and add up.
 *
 * Nothing inside the timed region but the faulting loop: every worker's
 * control block, stack and histogram is written before the start, results
 * are copied out after the end snapshot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "pft.h"

#ifndef RUSAGE_THREAD
#define RUSAGE_THREAD 1
#endif

struct worker {
	unsigned int idx;
	int cpu;			/* -1: not pinned */
	char *mem;			/* NULL with -M: the worker maps its own */
	size_t len;
	int err;			/* errno of a setup failure */
	const char *what;		/* what failed */
	struct timespec t0, t1;
	struct timespec c0, c1;		/* CLOCK_THREAD_CPUTIME_ID */
	struct rusage r0, r1;
	struct fl_hist hist;
	pthread_t tid;
	pid_t pid;
};

struct ctl {
	_Atomic unsigned int ready;	/* workers set up, waiting */
	_Atomic int go;			/* 1: start, -1: abort */
	const struct pft_opts *o;
	struct pft_clock clock;
	size_t page_size, line_size;
	int fd;				/* --file / --tmpfs, else -1 */
	int rusage_who;
	bool sleep_wait;		/* more workers than CPUs: futex, not spin */
	struct worker w[];
};

static struct ctl *ctl;	/* one run at a time; process workers inherit it */

size_t pft_line_size(void)
{
	long l = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	return l > 0 ? (size_t)l : 64;
}

/* The loops.  noinline so they can be measured on their own. */
static __attribute__((noinline)) void touch1(char *p, char *end, size_t ps)
{
	for (; p < end; p += ps)
		*(volatile char *)p = 'r';
}

static __attribute__((noinline)) void touchn(char *p, char *end, size_t ps,
					     unsigned int n, size_t ls)
{
	for (; p < end; p += ps)
		for (unsigned int c = 0; c < n; c++)
			*(volatile char *)(p + c * ls) = 'r';
}

/* --read: the same loops with loads (file pages mapped, not written). */
static __attribute__((noinline)) void read1(char *p, char *end, size_t ps)
{
	for (; p < end; p += ps)
		(void)*(volatile char *)p;
}

static __attribute__((noinline)) void readn(char *p, char *end, size_t ps,
					    unsigned int n, size_t ls)
{
	for (; p < end; p += ps)
		for (unsigned int c = 0; c < n; c++)
			(void)*(volatile char *)(p + c * ls);
}

static inline void touch_page(char *p, unsigned int n, size_t ls, bool rd)
{
	for (unsigned int c = 0; c < n; c++) {
		if (rd)
			(void)*(volatile char *)(p + c * ls);
		else
			*(volatile char *)(p + c * ls) = 'r';
	}
}

#if defined(__x86_64__) || defined(__i386__)
static __attribute__((noinline)) void touch_lat_tsc(char *p, char *end, size_t ps,
						    unsigned int n, size_t ls, bool rd,
						    struct fl_hist *h,
						    const struct pft_clock *c)
{
	unsigned int aux;

	for (; p < end; p += ps) {
		fl_u64 t0, t1;

		_mm_lfence();
		t0 = __rdtsc();
		touch_page(p, n, ls, rd);
		t1 = __rdtscp(&aux);
		fl_hist_add(h, pft_cyc2ns(t1 - t0, c->mult, c->shift));
	}
}
#endif

static __attribute__((noinline)) void touch_lat_clock(char *p, char *end, size_t ps,
						      unsigned int n, size_t ls, bool rd,
						      struct fl_hist *h)
{
	for (; p < end; p += ps) {
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		touch_page(p, n, ls, rd);
		clock_gettime(CLOCK_MONOTONIC, &b);
		fl_hist_add(h, (fl_u64)((b.tv_sec - a.tv_sec) * 1000000000LL +
					(b.tv_nsec - a.tv_nsec)));
	}
}

static int thp_advise(char *mem, size_t len, enum pft_thp thp)
{
	if (thp == PFT_THP_DEFAULT)
		return 0;
	return madvise(mem, len, thp == PFT_THP_NEVER ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
}

static void *map_anon(size_t len, bool shared)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* The shapes' file mapping: private (COW or read) or shared, at offset off. */
static void *map_file(const struct pft_opts *o, int fd, size_t len, off_t off)
{
	int prot = o->shape == PFT_SHAPE_READ ? PROT_READ : PROT_READ | PROT_WRITE;
	int flags = o->shape == PFT_SHAPE_SHARED_WRITE ? MAP_SHARED : MAP_PRIVATE;
	void *p = mmap(NULL, len, prot, flags, fd, off);

	return p == MAP_FAILED ? NULL : p;
}

static void *map_mem(const struct pft_opts *o, size_t len, off_t off)
{
	if (o->backing == PFT_BACK_ANON)
		return map_anon(len, false);
	return map_file(o, ctl->fd, len, off);
}

/*
 * Prepare the file so that every measured fault is minor: size it, write
 * every byte (page cache populated and dirty), fsync it (written back: no
 * writeback starts during the run), then read it all back (uptodate pages,
 * nothing left for readahead) -- with --cold, dropped from the page cache
 * instead, so the faults read it.  --file creates or truncates PATH; *created
 * says whether it did not exist before (then it is removed after the run).
 */
static int prepare_file(const struct pft_opts *o, unsigned long long len, bool *created)
{
	static char buf[1 << 16];
	unsigned long long done;
	struct stat st;
	int fd;

	*created = false;
	if (o->backing == PFT_BACK_TMPFS) {
		fd = (int)syscall(SYS_memfd_create, "pft", 0x0001U /* MFD_CLOEXEC */);
		if (fd < 0) {
			fprintf(stderr, "pft: memfd_create: %s\n", strerror(errno));
			return -1;
		}
	} else {
		*created = stat(o->path, &st) != 0;
		fd = open(o->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0) {
			fprintf(stderr, "pft: open %s: %s\n", o->path, strerror(errno));
			*created = false;
			return -1;
		}
	}
	memset(buf, 'f', sizeof(buf));
	for (done = 0; done < len;) {
		size_t n = len - done < sizeof(buf) ? (size_t)(len - done) : sizeof(buf);
		ssize_t k = pwrite(fd, buf, n, (off_t)done);

		if (k <= 0) {
			fprintf(stderr, "pft: writing the file: %s\n",
				k < 0 ? strerror(errno) : "short write");
			goto fail;
		}
		done += (unsigned long long)k;
	}
	if (fsync(fd)) {
		fprintf(stderr, "pft: fsync of the file: %s\n", strerror(errno));
		goto fail;
	}
	if (o->cold) {	/* clean after the fsync: DONTNEED drops the pages */
		int e = posix_fadvise(fd, 0, (off_t)len, POSIX_FADV_DONTNEED);

		if (e) {
			fprintf(stderr, "pft: posix_fadvise(DONTNEED): %s\n", strerror(e));
			goto fail;
		}
		return fd;
	}
	for (done = 0; done < len;) {
		ssize_t k = pread(fd, buf, sizeof(buf), (off_t)done);

		if (k <= 0) {
			fprintf(stderr, "pft: reading the file back: %s\n",
				k < 0 ? strerror(errno) : "short read");
			goto fail;
		}
		done += (unsigned long long)k;
	}
	return fd;
fail:
	close(fd);
	if (*created)
		unlink(o->path);
	*created = false;
	return -1;
}

/* Pages one --read fault maps: debugfs fault_around_bytes, else the kernel default. */
static unsigned int fault_around_pages(size_t ps, bool *assumed)
{
	FILE *f = fopen("/sys/kernel/debug/fault_around_bytes", "r");
	unsigned long long v = 0;

	*assumed = !f || fscanf(f, "%llu", &v) != 1 || v < ps;
	if (f)
		fclose(f);
	if (*assumed)
		v = PFT_FAULT_AROUND_DEFAULT;
	return (unsigned int)(v / ps ? v / ps : 1);
}

static void run_loop(struct worker *w)
{
	const struct pft_opts *o = ctl->o;
	char *p = w->mem, *end = w->mem + w->len;
	size_t ps = ctl->page_size, ls = ctl->line_size;
	bool rd = o->shape == PFT_SHAPE_READ;

	if (o->bzero)
		memset(p, 0, w->len);
	else if (o->latency) {
#if defined(__x86_64__) || defined(__i386__)
		if (ctl->clock.tsc)
			touch_lat_tsc(p, end, ps, o->clines, ls, rd, &w->hist, &ctl->clock);
		else
#endif
			touch_lat_clock(p, end, ps, o->clines, ls, rd, &w->hist);
	} else if (rd && o->clines == 1)
		read1(p, end, ps);
	else if (rd)
		readn(p, end, ps, o->clines, ls);
	else if (o->clines == 1)
		touch1(p, end, ps);
	else
		touchn(p, end, ps, o->clines, ls);
}

/*
 * One worker.  Works on a copy on its own stack (written here, before the
 * start) and copies the results back after the end snapshot: a process
 * worker's first write to the shared control block is a (shmem) fault.
 */
static void *worker_main(void *arg)
{
	struct worker *shared = arg, w = *shared;
	const struct pft_opts *o = ctl->o;
	unsigned int spins = 0;

	memset(&w.hist, 0, sizeof(w.hist));
	if (w.cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w.cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			w.err = errno;
			w.what = "sched_setaffinity";
		}
	}
	if (!w.err && o->multimap) {
		w.mem = map_mem(o, w.len, (off_t)(w.idx * w.len));
		if (!w.mem) {
			w.err = errno;
			w.what = "mmap";
		} else if (thp_advise(w.mem, w.len, o->thp)) {
			w.err = errno;
			w.what = "madvise";
		}
	}
	shared->err = w.err;		/* pre-faults the shared slot, too */
	shared->what = w.what;
	atomic_fetch_add_explicit(&ctl->ready, 1, memory_order_release);

	while (!atomic_load_explicit(&ctl->go, memory_order_acquire)) {
		if (ctl->sleep_wait) {
			/* shared futex (not PRIVATE): process workers wait on it too */
			syscall(SYS_futex, &ctl->go, FUTEX_WAIT, 0, NULL, NULL, 0);
			continue;
		}
#if defined(__x86_64__) || defined(__i386__)
		_mm_pause();
#endif
		if (++spins >= 1024) {	/* a busy machine: let the others in */
			sched_yield();
			spins = 0;
		}
	}
	if (atomic_load_explicit(&ctl->go, memory_order_relaxed) < 0 || w.err)
		return NULL;

	/* The timed region. */
	clock_gettime(CLOCK_MONOTONIC, &w.t0);
	getrusage(ctl->rusage_who, &w.r0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &w.c0);
	run_loop(&w);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &w.c1);
	getrusage(ctl->rusage_who, &w.r1);
	clock_gettime(CLOCK_MONOTONIC, &w.t1);

	if (o->sleep_s)
		sleep(o->sleep_s);
	if (o->multimap)
		munmap(w.mem, w.len);
	w.tid = shared->tid;
	w.pid = shared->pid;
	*shared = w;
	return NULL;
}

static double tv_s(struct timeval a, struct timeval b)
{
	return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_usec - a.tv_usec) / 1e6;
}

static double ts_s(struct timespec a, struct timespec b)
{
	return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
}

static int ts_cmp(struct timespec a, struct timespec b)
{
	if (a.tv_sec != b.tv_sec)
		return a.tv_sec < b.tv_sec ? -1 : 1;
	return a.tv_nsec < b.tv_nsec ? -1 : a.tv_nsec > b.tv_nsec;
}

static int allowed_cpus(int **cpus)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	*cpus = calloc(CPU_SETSIZE, sizeof(int));
	if (!*cpus)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			(*cpus)[n++] = c;
	return n;
}

/* Release the workers: 1 start, -1 abort. */
static void release(int how)
{
	atomic_store_explicit(&ctl->go, how, memory_order_release);
	if (ctl->sleep_wait)
		syscall(SYS_futex, &ctl->go, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static void thp_note(const struct pft_opts *o)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	if (o->thp == PFT_THP_ALWAYS && (!f || strstr(buf, "[never]")))
		fprintf(stderr, "pft: warning: --thp=always but THP is %s on this system; "
			"MADV_HUGEPAGE has no effect\n", f ? "disabled" : "unavailable");
	if (o->verbose && f)
		fprintf(stderr, "pft: system THP: %s", buf);
}

/* Wait until every worker is set up, or one of them died. */
static int wait_ready(unsigned int n, bool processes)
{
	const struct timespec nap = { 0, 50000 };

	while (atomic_load_explicit(&ctl->ready, memory_order_acquire) < n) {
		if (processes) {
			int st;
			pid_t pid = waitpid(-1, &st, WNOHANG);

			if (pid > 0) {
				fprintf(stderr, "pft: worker process %d died before the start\n",
					(int)pid);
				return -1;
			}
		}
		nanosleep(&nap, NULL);
	}
	return 0;
}

/* One run's layout, shared by pft_run()'s steps. */
struct run {
	size_t ps;			/* page size */
	unsigned int n;			/* workers */
	unsigned long long pages, ppw;	/* in total, per worker */
	size_t ctl_len;
	char *mem;			/* the one shared mapping (NULL with -M) */
	bool created;			/* --file created PATH: remove it after */
	int *cpus, ncpus;		/* -a: the allowed CPUs */
	struct rusage self0, self1;	/* no per-thread rusage: whole process */
};

/* Map and fill the control block all workers share (ctl). */
static int ctl_setup(const struct pft_opts *o, struct run *rn)
{
	rn->ctl_len = sizeof(*ctl) + rn->n * sizeof(struct worker);
	ctl = map_anon(rn->ctl_len, o->processes);
	if (!ctl) {
		fprintf(stderr, "pft: mmap of %zu control bytes: %s\n", rn->ctl_len,
			strerror(errno));
		return -1;
	}
	memset(ctl, 0, rn->ctl_len);
	ctl->fd = -1;
	ctl->o = o;
	ctl->page_size = rn->ps;
	ctl->line_size = pft_line_size();
	ctl->rusage_who = RUSAGE_SELF;
	if (!o->processes && !getrusage(RUSAGE_THREAD, &rn->self0))
		ctl->rusage_who = RUSAGE_THREAD;
	ctl->sleep_wait = (long)rn->n > sysconf(_SC_NPROCESSORS_ONLN);
	if (o->latency)
		pft_clock_init(&ctl->clock, o->verbose);
	return 0;
}

/* --file / --tmpfs: the prepared file in ctl->fd; --read: the fault-around window. */
static int backing_setup(const struct pft_opts *o, struct run *rn, struct pft_result *r)
{
	unsigned long long len = rn->pages * rn->ps;

	if (o->backing == PFT_BACK_ANON)
		return 0;
	ctl->fd = prepare_file(o, len, &rn->created);
	if (ctl->fd < 0)
		return -1;
	if (o->shape == PFT_SHAPE_READ)
		r->fault_around = fault_around_pages(rn->ps, &r->fault_around_assumed);
	if (o->verbose)
		fprintf(stderr, "pft: %s %s prepared: %llu bytes written, fsynced, read "
			"back; shape %s%s\n", pft_backing_name(o->backing),
			o->path ? o->path : "(memfd)", len, pft_shape_name(o->shape),
			r->fault_around ? ", fault-around pages counted" : "");
	return 0;
}

/* Without -M: the one mapping the workers share, advised for THP. */
static int mem_setup(const struct pft_opts *o, struct run *rn)
{
	unsigned long long len = rn->pages * rn->ps;

	if (o->multimap)
		return 0;
	rn->mem = map_mem(o, len, 0);
	if (!rn->mem) {
		fprintf(stderr, "pft: mmap of %llu bytes: %s\n", len, strerror(errno));
		return -1;
	}
	if (thp_advise(rn->mem, len, o->thp)) {
		fprintf(stderr, "pft: madvise(%s): %s\n",
			o->thp == PFT_THP_NEVER ? "MADV_NOHUGEPAGE" : "MADV_HUGEPAGE",
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Each worker's index, CPU (-a) and share of the memory. */
static int workers_setup(const struct pft_opts *o, struct run *rn)
{
	if (o->affinity) {
		rn->ncpus = allowed_cpus(&rn->cpus);
		if (rn->ncpus <= 0) {
			fprintf(stderr, "pft: sched_getaffinity: %s\n", strerror(errno));
			return -1;
		}
	}
	for (unsigned int i = 0; i < rn->n; i++) {
		struct worker *w = &ctl->w[i];

		w->idx = i;
		w->cpu = o->affinity ? rn->cpus[i % rn->ncpus] : -1;
		w->mem = rn->mem ? rn->mem + i * rn->ppw * rn->ps : NULL;
		w->len = rn->ppw * rn->ps;
	}
	if (o->verbose)
		fprintf(stderr, "pft: %llu pages of %zu bytes, %u %s x %llu pages, %s mapping, "
			"thp=%s, rusage=%s, line %zu bytes\n", rn->pages, rn->ps, rn->n,
			o->processes ? "processes" : "threads", rn->ppw,
			o->multimap ? "per-worker" : "one shared", pft_thp_name(o->thp),
			ctl->rusage_who == RUSAGE_THREAD || o->processes ? "per worker" : "process",
			ctl->line_size);
	return 0;
}

/* Fork or create the workers (they wait for release()).  Returns how many started. */
static unsigned int workers_start(const struct pft_opts *o, unsigned int n)
{
	unsigned int started;

	fflush(NULL);	/* nothing buffered may be flushed twice by a child */
	for (started = 0; started < n; started++) {
		struct worker *w = &ctl->w[started];

		if (o->processes) {
			/* The slot is shared: only the parent may store the pid. */
			pid_t pid = fork();

			if (pid == 0) {
				worker_main(w);
				_exit(ctl->w[started].err ? 1 : 0);
			}
			w->pid = pid;
			if (pid < 0) {
				fprintf(stderr, "pft: fork of worker %u: %s\n", started,
					strerror(errno));
				break;
			}
		} else {
			int e = pthread_create(&w->tid, NULL, worker_main, w);

			if (e) {
				fprintf(stderr, "pft: pthread_create of worker %u: %s\n", started,
					strerror(e));
				break;
			}
		}
	}
	return started;
}

/* All STARTED workers set up without error: start them, else abort them. */
static int workers_release(const struct pft_opts *o, struct run *rn, unsigned int started)
{
	if (started < rn->n || wait_ready(rn->n, o->processes)) {
		release(-1);
		return PFT_EXIT_ERROR;
	}
	for (unsigned int i = 0; i < rn->n; i++) {
		if (ctl->w[i].err) {
			fprintf(stderr, "pft: worker %u: %s: %s\n", i, ctl->w[i].what,
				strerror(ctl->w[i].err));
			release(-1);
			return PFT_EXIT_ERROR;
		}
	}
	if (ctl->rusage_who == RUSAGE_SELF && !o->processes)
		getrusage(RUSAGE_SELF, &rn->self0);	/* no RUSAGE_THREAD: whole process */
	release(1);
	return PFT_EXIT_OK;
}

/* Wait for the STARTED workers; RET becomes an error if a process worker failed. */
static int workers_join(const struct pft_opts *o, unsigned int started, int ret)
{
	for (unsigned int i = 0; i < started; i++) {
		if (o->processes) {
			int st = 0;

			if (waitpid(ctl->w[i].pid, &st, 0) < 0 ||
			    !WIFEXITED(st) || WEXITSTATUS(st)) {
				if (ret == PFT_EXIT_OK)
					fprintf(stderr, "pft: worker process %u failed\n", i);
				ret = PFT_EXIT_ERROR;
			}
		} else {
			pthread_join(ctl->w[i].tid, NULL);
		}
	}
	return ret;
}

/* Add the workers' snapshots up into *r. */
static void collect(const struct pft_opts *o, const struct run *rn, struct pft_result *r)
{
	struct timespec first = ctl->w[0].t0, last = ctl->w[0].t1;

	r->pages = rn->pages;
	r->pages_per_worker = rn->ppw;
	r->page_size = rn->ps;
	r->workers = rn->n;
	r->clines = o->clines;
	r->rusage_thread = ctl->rusage_who == RUSAGE_THREAD || o->processes;
	r->latency = o->latency;
	r->clock = ctl->clock.tsc ? "tsc" : "clock_gettime";
	r->tsc_khz = ctl->clock.tsc ? ctl->clock.khz : 0;
	for (unsigned int i = 0; i < rn->n; i++) {
		struct worker *w = &ctl->w[i];

		if (ts_cmp(w->t0, first) < 0)
			first = w->t0;
		if (ts_cmp(w->t1, last) > 0)
			last = w->t1;
		if (r->rusage_thread) {
			r->user_s += tv_s(w->r0.ru_utime, w->r1.ru_utime);
			r->sys_s += tv_s(w->r0.ru_stime, w->r1.ru_stime);
			r->minflt += w->r1.ru_minflt - w->r0.ru_minflt;
			r->majflt += w->r1.ru_majflt - w->r0.ru_majflt;
		}
		r->cpu_s += ts_s(w->c0, w->c1);
		fl_hist_merge(&r->hist, &w->hist);
		if (o->verbose > 1)
			fprintf(stderr, "pft: worker %u cpu %d: %.6fs user %.6fs sys %.6fs wall "
				"%ld minflt\n", i, w->cpu, tv_s(w->r0.ru_utime, w->r1.ru_utime),
				tv_s(w->r0.ru_stime, w->r1.ru_stime), ts_s(w->t0, w->t1),
				w->r1.ru_minflt - w->r0.ru_minflt);
	}
	if (!r->rusage_thread) {
		r->user_s = tv_s(rn->self0.ru_utime, rn->self1.ru_utime);
		r->sys_s = tv_s(rn->self0.ru_stime, rn->self1.ru_stime);
		r->minflt = rn->self1.ru_minflt - rn->self0.ru_minflt;
		r->majflt = rn->self1.ru_majflt - rn->self0.ru_majflt;
	}
	r->wall_s = ts_s(first, last);
	/* One sequential pass per mapping (threads on one mapping: one pass in pieces). */
	if (!o->multimap && !o->processes)
		r->expected = pft_expected_faults(o->shape, (unsigned long long)
						  ((unsigned long)rn->mem / rn->ps), rn->pages,
						  r->fault_around);
	else
		for (unsigned int i = 0; i < rn->n; i++)
			r->expected += pft_expected_faults(o->shape, (unsigned long long)
				((unsigned long)ctl->w[i].mem / rn->ps), rn->ppw, r->fault_around);
}

/* Undo ctl_setup(), backing_setup(), mem_setup() and workers_setup(). */
static void run_cleanup(const struct pft_opts *o, struct run *rn)
{
	if (rn->mem)
		munmap(rn->mem, rn->pages * rn->ps);
	if (ctl->fd >= 0)
		close(ctl->fd);
	if (rn->created)
		unlink(o->path);
	munmap(ctl, rn->ctl_len);
	ctl = NULL;
	free(rn->cpus);
}

int pft_run(const struct pft_opts *o, struct pft_result *r)
{
	struct run rn = { .ps = (size_t)sysconf(_SC_PAGESIZE), .n = o->workers };
	unsigned int started;
	int ret = PFT_EXIT_ERROR;

	memset(r, 0, sizeof(*r));
	rn.pages = (o->bytes + rn.ps - 1) / rn.ps;
	rn.ppw = (rn.pages + rn.n - 1) / rn.n;		/* like the classic: round up */
	rn.pages = rn.ppw * rn.n;

	if (ctl_setup(o, &rn))
		return PFT_EXIT_ERROR;
	thp_note(o);
	if (backing_setup(o, &rn, r) || mem_setup(o, &rn) || workers_setup(o, &rn))
		goto out;
	started = workers_start(o, rn.n);
	ret = workers_release(o, &rn, started);
	ret = workers_join(o, started, ret);
	if (ret != PFT_EXIT_OK)
		goto out;
	if (ctl->rusage_who == RUSAGE_SELF && !o->processes)
		getrusage(RUSAGE_SELF, &rn.self1);
	collect(o, &rn, r);
out:
	run_cleanup(o, &rn);
	return ret;
}
