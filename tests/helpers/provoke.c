// SPDX-License-Identifier: GPL-2.0
/*
 * provoke MODE N [ARG]: make the x86 fault path take one known outcome N
 * times, so that the scenarios can assert the lockless figures exactly
 * (tests/integration/lockless_outcomes.sh, tests/integration/bpf_record.sh).
 * Read against Debian's 6.12 (arch/x86/mm/fault.c do_user_addr_fault,
 * mm/memory.c lock_vma_under_rcu, __vmf_anon_prepare, vmf_can_call_fault):
 *
 *   vdso-retry N   N times: madvise(MADV_DONTNEED) the vDSO's first page,
 *                  then read it.  lock_vma_under_rcu returns the [vdso] VMA
 *                  (6.12 locks any VMA type); handle_mm_fault under the VMA
 *                  lock reaches do_read_fault -> vmf_can_call_fault, which
 *                  returns VM_FAULT_RETRY for vm_ops without ->map_pages
 *                  (special_mapping_vmops has none): the fault is redone
 *                  under mmap_lock.  = N lockless attempts, N retried.
 *   unmapped N     N reads of a page-sized hole between two mappings,
 *                  caught by a SIGSEGV handler: lock_vma_under_rcu finds no
 *                  VMA (NULL = aborted), lock_mm_and_find_vma neither, no
 *                  handle_mm_fault call.  = N aborted, N unhandled faults.
 *   protnone N     N reads of a PROT_NONE page (SIGSEGV caught): the VMA is
 *                  found and read-locked, access_error() refuses it
 *                  (the kernel counts VMA_LOCK_SUCCESS), no handle_mm_fault.
 *                  = N attempts that end neither succeeded, aborted nor
 *                  retried; N unhandled faults.
 *   fresh-vma N    N separate one-page anonymous VMAs (PROT_NONE gaps keep
 *                  them from merging), each written once: the first write
 *                  fault in a VMA without anon_vma takes mmap_lock by
 *                  trylock inside __vmf_anon_prepare (it succeeds: nothing
 *                  else holds it) and is handled under the VMA lock.
 *                  = N lockless successes, N mmap_lock read trylocks.
 *   stack-grow N   N write faults, each one page below a MAP_GROWSDOWN
 *                  mapping's start (a PROT_NONE page below the hole: no
 *                  stack guard gap applies): lock_vma_under_rcu finds no
 *                  VMA at the address (NULL = aborted), lock_mm_and_find_vma
 *                  takes mmap_lock for write, expands the VMA and handles
 *                  the fault under mmap_lock.  = N aborted (seen by the
 *                  collector: the first handle_mm_fault call has no
 *                  FAULT_FLAG_VMA_LOCK), N mmap_lock write acquisitions.
 *   uffd-stack N   stack-grow with the MAP_GROWSDOWN VMA registered with
 *                  userfaultfd (missing pages), a thread resolving each
 *                  fault with UFFDIO_COPY: the fault, under mmap_lock after
 *                  the failed lookup, reaches handle_userfault, which drops
 *                  the lock and returns VM_FAULT_RETRY; the retry finds the
 *                  page.  = N aborted, N VM_FAULT_RETRY under mmap_lock
 *                  (mmap_lock_retries), 2N handle_mm_fault calls.
 *   uffd-anon N    N write faults on missing pages of a private anonymous
 *                  range registered with userfaultfd, a thread resolving
 *                  each with UFFDIO_COPY; the range's first page, written
 *                  before the registration, gives its VMA an anon_vma and
 *                  its 2 MiB a page table (all N + 1 pages in one).  On
 *                  6.12 the fault under the VMA lock reaches
 *                  handle_userfault and is retried; on the SPF series it
 *                  reaches do_anonymous_page with anon_vma and page table
 *                  there, and gives up at userfaultfd_missing
 *                  (SPF_ABORT_USERFAULTFD): = N aborted, then resolved
 *                  under mmap_lock.  N <= 511.
 *   race-writer N  N write faults on fresh pages of a private anonymous
 *                  range (anon_vma and page tables in place: one page of
 *                  each 2 MiB written first) while a second thread keeps
 *                  mprotect()-ing a populated 16 MiB elsewhere, taking
 *                  mmap_lock for write over and over; both threads on the
 *                  first CPU, so the writer preempted inside its
 *                  change_protection walk (cond_resched, at the tick)
 *                  leaves the faults to run while it holds the lock.
 *                  Under the SPF series each write lock makes the mm's
 *                  sequence count odd, then moves it: a speculative fault
 *                  that starts meanwhile gives up (SPF_ABORT_ODD,
 *                  _VMA_COPY, _PTE_MAP_LOCK_SEQ1/_SEQ2) and is redone under
 *                  mmap_lock.  How many is the scheduler's choice: a race,
 *                  not a count; the faults are N.
 *   vma-race N     N read faults on fresh pages (page tables in place, as
 *                  race-writer) on the first CPU, while a second thread on
 *                  the second CPU mprotect()s one page of its own back and
 *                  forth (mmap_lock for write, twice) and sleeps 20 us,
 *                  over and over.  Under single-threaded TCG its wakeup
 *                  stops the first vCPU wherever its fault has got to: one
 *                  stopped between reading the sequence count and checking
 *                  it after copying the VMA finds it moved
 *                  (SPF_ABORT_VMA_COPY); further on, _PTE_MAP_LOCK_SEQ1 or
 *                  _SEQ2.  A race, not a count; the faults are N.  Needs
 *                  two CPUs.
 *   ptl-holder N   N write faults on fresh pages of one page table (its
 *                  anon_vma and table in place: its first page written
 *                  first; after each 511 faults the pages are zapped with
 *                  MADV_DONTNEED and written again) on the first CPU, while
 *                  a second thread on the second CPU keeps calling
 *                  mincore() over the table's 2 MiB: each call walks the
 *                  table holding its page table lock (mincore_pte_range),
 *                  under mmap_lock for read, which leaves the sequence
 *                  count alone.  A speculative fault that finds the lock
 *                  taken gives up (SPF_ABORT_PTE_MAP_LOCK_PTL: pte_map_lock
 *                  only trylocks) and is redone under mmap_lock.  How many
 *                  is a race (the vCPUs' interleaving), not a count; the
 *                  faults are N.  Needs two CPUs (exit 2 otherwise).
 *   migrate-race N reads over 511 populated pages of one page table, pass
 *                  after pass, on the first CPU, while a second thread on
 *                  the second CPU moves them between NUMA nodes 0 and 1
 *                  (move_pages(2)) N times.  Unmapping a page for migration
 *                  clears its PTE and flushes the TLB, an IPI that hands
 *                  the first CPU the turn: a read that meets the cleared
 *                  PTE reaches do_anonymous_page and gives up at the PTE
 *                  lock the mover holds (_PTE_MAP_LOCK_PTL); one that meets
 *                  the migration entry set next reaches do_swap_page, which
 *                  the SPF series enters speculatively and leaves at the
 *                  non-swap entry (SPF_ABORT_NON_SWAP_ENTRY), to wait for
 *                  the migration under mmap_lock.  Which reads fault is the
 *                  race's, not a count.  Needs two CPUs and two nodes
 *                  (exit 2 otherwise).
 *   swap-in N      N read faults on pages swapped out a moment before:
 *                  N pages of one page table written on the first CPU,
 *                  then madvise(MADV_PAGEOUT) (its lru_add_drain drains
 *                  that CPU's pagevec, so every page is on the LRU), and
 *                  /proc/self/pagemap must show all N swapped (exit 2
 *                  otherwise: no swap device).  The pages sit in the swap
 *                  cache under writeback: each read fault reaches
 *                  do_swap_page, which the SPF series enters
 *                  speculatively (SPF_ATTEMPT_SWAP) and, the page found
 *                  in the swap cache, maps it; a page whose write ended
 *                  and left the cache first gives up (SPF_ABORT_SWAP_NOPAGE)
 *                  and is read under mmap_lock.  = N SPF attempts through
 *                  do_swap_page.  N <= 511.
 *   swap-nopage N  swap-in, but the pages are read back once (mapped
 *                  read-only from the swap cache) and, once
 *                  /proc/kpageflags shows their writes ended, paged out
 *                  again: a clean swap-cache page is freed at once, no
 *                  write needed (mincore must show none cached: exit 2
 *                  otherwise).  The N reads that follow each find no page
 *                  (SPF_ABORT_SWAP_NOPAGE) and are read under mmap_lock;
 *                  with /proc/sys/vm/page-cluster 0 no read-ahead brings
 *                  the next page in.  = 2N SPF attempts through
 *                  do_swap_page, N aborted.  N <= 511.
 *   mincore N      N mincore() calls on one mapped page: each takes
 *                  mmap_read_lock (mm/mincore.c: one lock per PAGE_SIZE
 *                  pages), which emits mmap_lock_start_locking(read),
 *                  acquire_returned(read, success) and released(read); no
 *                  fault (the vector is touched before the loop).  = N
 *                  mmap_lock read waits, N read holds, no write lock.
 *   touch N FIFO   map N base pages, block until a writer opens FIFO and
 *                  writes a byte, then write one byte per page (record -p
 *                  attaches first, then releases it).  = N faults.
 *
 * PROVOKE_SECOND_THREAD=1 in the environment keeps a second thread alive
 * (blocked in pause()) from the start: the SPF series (5.12 + Lespinasse)
 * tries a speculative fault only while mm_users > 1
 * (tests/seed/seed_spf.sh).
 *
 * Every mode ends with one write to a fresh page, so that the last SIGSEGV
 * fault of the loop is followed by another fault (the collector counts a
 * fault as unhandled when the task's next fault starts).  Prints one line:
 * "provoke MODE: N done, minflt M" (M from getrusage around the loop).
 * Exit 0, or 1 with a message when the kernel refused a step (e.g. the
 * madvise of the vDSO): the scenario then fails, naming it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/kernel-page-flags.h>
#include <linux/mempolicy.h>
#include <linux/userfaultfd.h>

static void die(const char *what);
static int pin_cpu(long cpu);

static sigjmp_buf jb;
static volatile unsigned long segv;

static void on_segv(int sig)
{
	(void)sig;
	segv++;
	siglongjmp(jb, 1);
}

/* the /proc/self/pagemap entry (FD) of the page at P; 0 if unreadable */
static unsigned long long pagemap_entry(int fd, const char *p, unsigned long ps)
{
	unsigned long long e;

	if (pread(fd, &e, sizeof(e), (unsigned long)p / ps * sizeof(e)) != sizeof(e))
		return 0;
	return e;
}

/* how many of the N pages from P on are swapped out: pagemap bit 62 */
static unsigned long swapped(const char *p, unsigned long n, unsigned long ps)
{
	unsigned long i, k = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return 0;
	for (i = 0; i < n; i++)
		k += pagemap_entry(fd, p + i * ps, ps) >> 62 & 1;
	close(fd);
	return k;
}

/* madvise(MADV_PAGEOUT) N pages from P on; all must then be swapped */
static int swap_out(const char *mode, char *p, unsigned long n, unsigned long ps)
{
	unsigned long k;

	if (madvise(p, n * ps, MADV_PAGEOUT)) {
		fprintf(stderr, "provoke: %s: madvise(MADV_PAGEOUT): %s\n", mode, strerror(errno));
		return -1;
	}
	k = swapped(p, n, ps);
	if (k != n) {
		fprintf(stderr, "provoke: %s: %lu of %lu pages swapped out (no swap?)\n", mode, k, n);
		return -1;
	}
	return 0;
}

/*
 * Wait until none of the N mapped pages from P on is under writeback,
 * 10 s at most: pagemap gives each page's PFN (root), kpageflags its
 * flags.  nr_writeback in /proc/vmstat lags by the per-CPU deltas.
 */
static int writeback_wait(const char *p, unsigned long n, unsigned long ps)
{
	int pm = open("/proc/self/pagemap", O_RDONLY);
	int kf = open("/proc/kpageflags", O_RDONLY);
	unsigned long i, busy = n;
	unsigned long long e, f;
	int tries;

	for (tries = 0; pm >= 0 && kf >= 0 && tries < 1000; tries++) {
		for (i = 0, busy = 0; i < n; i++) {
			unsigned long pfn;

			e = pagemap_entry(pm, p + i * ps, ps);
			if (!(e >> 63 & 1) || !(pfn = e & ((1ULL << 55) - 1)) ||
			    pread(kf, &f, sizeof(f), pfn * sizeof(f)) != sizeof(f))
				break;
			busy += f >> KPF_WRITEBACK & 1;
		}
		if (i < n) {
			/* a page not present or its flags unreadable: no answer */
			busy = n;
			break;
		}
		if (!busy)
			break;
		usleep(10000);
	}
	if (pm >= 0)
		close(pm);
	if (kf >= 0)
		close(kf);
	if (busy)
		fprintf(stderr, "provoke: %lu of %lu pages under writeback, or their flags unreadable\n",
			busy, n);
	return busy ? -1 : 0;
}

/*
 * The writes' ends queued each page for rotation on the CPU that completed
 * it (lru_rotate pagevec, a reference each until drained), and a page with
 * a reference left is not freed from the swap cache.  madvise(MADV_COLD)
 * drains the calling CPU's pagevecs (lru_add_drain): call it on one page
 * of ours from every CPU in turn, then come back to the first.
 */
static int drain_every_cpu(char *page, unsigned long ps)
{
	long cpu, ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	for (cpu = ncpu - 1; cpu >= 0; cpu--) {
		if (pin_cpu(cpu) || madvise(page, ps, MADV_COLD)) {
			fprintf(stderr, "provoke: drain on CPU %ld: %s\n", cpu, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* how many of the N pages from P on are in the swap cache: mincore */
static unsigned long swap_cached(char *p, unsigned long n, unsigned long ps)
{
	static unsigned char vec[512];
	unsigned long i, k = 0;

	if (n > sizeof(vec) || mincore(p, n * ps, vec))
		return n;
	for (i = 0; i < n; i++)
		k += vec[i] & 1;
	return k;
}

static int uffd;
static unsigned long uffd_served, uffd_want;
static char uffd_src[65536] __attribute__((aligned(4096)));

static void *uffd_thread(void *arg)
{
	unsigned long ps = (unsigned long)arg;

	while (uffd_served < uffd_want) {
		struct pollfd pfd = { .fd = uffd, .events = POLLIN };
		struct uffd_msg msg;
		struct uffdio_copy cp;

		if (poll(&pfd, 1, 10000) <= 0)
			break;
		if (read(uffd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		cp.dst = msg.arg.pagefault.address & ~(ps - 1);
		cp.src = (unsigned long)uffd_src;
		cp.len = ps;
		cp.mode = 0;
		cp.copy = 0;
		if (ioctl(uffd, UFFDIO_COPY, &cp) == 0)
			uffd_served++;
	}
	return NULL;
}

/* register [start, start + len) for missing pages; a thread serves want */
static void uffd_start(char *start, unsigned long len, unsigned long want,
		       unsigned long ps, pthread_t *th)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0)
		die("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	reg.range.start = (unsigned long)start;
	reg.range.len = len;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");
	uffd_want = want;
	errno = pthread_create(th, NULL, uffd_thread, (void *)ps);
	if (errno)
		die("pthread_create");
}

static int uffd_join(pthread_t th)
{
	pthread_join(th, NULL);
	if (uffd_served == uffd_want)
		return 0;
	fprintf(stderr, "provoke: userfaultfd served %lu of %lu faults\n", uffd_served, uffd_want);
	return 1;
}

/* the racing second thread (race-writer, vma-race, ptl-holder,
 * migrate-race): its calls, and the errno that stopped it */
static volatile int race_stop;
static volatile unsigned long racer_calls;
static volatile long racer_err;

#define RACE_LEN (16UL << 20)
#define PMD_SPAN (2UL << 20)

/* race-writer's second thread: mmap_lock write holds until told to stop */
static void *race_thread(void *arg)
{
	char *pg = arg;

	while (!race_stop) {
		mprotect(pg, RACE_LEN, PROT_READ);
		mprotect(pg, RACE_LEN, PROT_READ | PROT_WRITE);
		racer_calls += 2;
	}
	return NULL;
}

/* vma-race's second thread: mprotect() of one page, on CPU 1 */
static void *writer_thread(void *arg)
{
	char *pg = arg;

	while (!race_stop) {
		mprotect(pg, 4096, PROT_READ);
		mprotect(pg, 4096, PROT_READ | PROT_WRITE);
		racer_calls += 2;
		/* its CPU idle until the timer: the wakeup stops the other
		 * vCPU wherever its fault has got to, for the next pair */
		nanosleep(&(struct timespec){ .tv_nsec = 20000 }, NULL);
	}
	return NULL;
}

/* ptl-holder's second thread: mincore() walks of one table, on CPU 1 */
static void *holder_thread(void *arg)
{
	static unsigned char vec[PMD_SPAN / 4096];	/* x86: 4 KiB pages */
	char *table = arg;

	while (!race_stop) {
		mincore(table, PMD_SPAN, vec);
		racer_calls++;
	}
	return NULL;
}

#define MIGRATE_PAGES 511
static void *migrate_page[MIGRATE_PAGES];

/* migrate-race's second thread: the pages to node 1 and back, on CPU 1 */
static void *migrate_thread(void *arg)
{
	static int node[MIGRATE_PAGES], status[MIGRATE_PAGES];
	int to = 1, i;

	(void)arg;
	while (!race_stop) {
		for (i = 0; i < MIGRATE_PAGES; i++)
			node[i] = to;
		/* > 0: pages left where they were (busy): the next call's */
		if (syscall(SYS_move_pages, 0, MIGRATE_PAGES, migrate_page, node, status,
			    MPOL_MF_MOVE) < 0) {
			racer_err = errno;
			return NULL;
		}
		racer_calls++;
		to ^= 1;
	}
	return NULL;
}

/*
 * Start FN(ARG) as the second thread on CPU CPU, this one pinned to CPU 0:
 * 0 once it has made its first call, 2 (said why) when it could not.
 */
static int racer_start(const char *mode, void *(*fn)(void *), void *arg, long cpu,
		       pthread_t *th)
{
	pthread_attr_t attr;
	cpu_set_t one;

	if (pin_cpu(0))
		die("sched_setaffinity(CPU 0)");
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
	errno = pthread_create(th, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	if (errno == EINVAL) {
		fprintf(stderr, "provoke: %s: no CPU %ld for the second thread\n", mode, cpu);
		return 2;
	}
	if (errno)
		die("pthread_create");
	while (!racer_calls && !racer_err)
		sched_yield();
	if (!racer_err)
		return 0;
	pthread_join(*th, NULL);
	fprintf(stderr, "provoke: %s: %s\n", mode, strerror(racer_err));
	return 2;
}

/* stop the second thread; its calls (CALLS: what they were) on stderr */
static void racer_stop(const char *mode, pthread_t th, const char *calls)
{
	race_stop = 1;
	pthread_join(th, NULL);
	fprintf(stderr, "provoke %s: %lu %s beside the faults\n", mode, racer_calls, calls);
}

static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static void die(const char *what)
{
	fprintf(stderr, "provoke: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int pin_cpu(long cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}

/*
 * COUNT page tables' worth of private anonymous memory, aligned to 2 MiB,
 * base pages only (a huge PMD would leave no PTE fault to abort).
 */
static char *tables_map(unsigned long count)
{
	char *raw = mmap(NULL, (count + 1) * PMD_SPAN, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *p;

	if (raw == MAP_FAILED)
		die("mmap");
	p = (char *)(((unsigned long)raw + PMD_SPAN - 1) & ~(PMD_SPAN - 1));
	if (madvise(p, count * PMD_SPAN, MADV_NOHUGEPAGE))
		die("madvise(MADV_NOHUGEPAGE)");
	return p;
}

/*
 * Page tables for N fresh pages, each table's first page written (its
 * anon_vma and page table in place); fresh_page(P, I) is the I-th.
 */
static char *fresh_tables(unsigned long n, unsigned long ps)
{
	const unsigned long per = PMD_SPAN / ps;
	unsigned long tables = (n + per - 2) / (per - 1), k;
	char *p = tables_map(tables);

	for (k = 0; k < tables; k++)
		p[k * PMD_SPAN] = 1;
	return p;
}

static char *fresh_page(char *p, unsigned long i, unsigned long ps)
{
	const unsigned long per = PMD_SPAN / ps;

	return p + i / (per - 1) * PMD_SPAN + (1 + i % (per - 1)) * ps;
}

/* modes that put a first page and N more in one page table */
static int fits_one_table(const char *mode, unsigned long n, unsigned long ps)
{
	if ((n + 1) * ps <= PMD_SPAN)
		return 1;
	fprintf(stderr, "provoke: %s: %lu pages do not fit one page table\n", mode, n);
	return 0;
}

int main(int argc, char **argv)
{
	/* static: kept in memory across siglongjmp */
	static unsigned long n, i, ps;
	static const char *mode;
	static char *p, *last;
	static long m0, m1;
	static volatile char sink;
	char *end;
	struct sigaction sa;

	ps = sysconf(_SC_PAGESIZE);

	if (argc < 3) {
		fprintf(stderr, "usage: provoke vdso-retry|unmapped|protnone|fresh-vma|stack-grow|uffd-stack|uffd-anon|race-writer|vma-race|ptl-holder|migrate-race|swap-in|swap-nopage|mincore N | provoke touch N FIFO\n");
		return 2;
	}
	mode = argv[1];
	errno = 0;
	n = strtoul(argv[2], &end, 10);
	if (errno || *end || n > (1UL << 24)) {
		fprintf(stderr, "provoke: bad count '%s'\n", argv[2]);
		return 2;
	}
	if (getenv("PROVOKE_SECOND_THREAD")) {
		pthread_t th;

		errno = pthread_create(&th, NULL, idle_thread, NULL);
		if (errno)
			die("pthread_create (second thread)");
	}
	last = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (last == MAP_FAILED)
		die("mmap");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);

	if (!strcmp(mode, "vdso-retry")) {
		p = (char *)getauxval(AT_SYSINFO_EHDR);
		if (!p) {
			errno = ENOENT;
			die("no vDSO (AT_SYSINFO_EHDR)");
		}
		/* the call that can fail, once before the loop */
		if (madvise(p, ps, MADV_DONTNEED))
			die("madvise(vDSO, MADV_DONTNEED)");
		sink = p[0];
		m0 = minflt();
		for (i = 0; i < n; i++) {
			madvise(p, ps, MADV_DONTNEED);
			sink = p[0];
		}
		m1 = minflt();
	} else if (!strcmp(mode, "unmapped") || !strcmp(mode, "protnone")) {
		int none = !strcmp(mode, "protnone");

		p = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		if (none ? mprotect(p + ps, ps, PROT_NONE) : munmap(p + ps, ps))
			die(none ? "mprotect" : "munmap");
		p[0] = 1;
		p[2 * ps] = 1;
		/* one SIGSEGV before the loop: the signal frame's stack pages */
		if (!sigsetjmp(jb, 1))
			sink = p[ps];
		segv = 0;
		m0 = minflt();
		for (i = 0; i < n; i++)
			if (!sigsetjmp(jb, 1))
				sink = p[ps];
		m1 = minflt();
		if (segv != n) {
			fprintf(stderr, "provoke: %lu SIGSEGV for %lu touches\n", segv, n);
			return 1;
		}
	} else if (!strcmp(mode, "fresh-vma")) {
		p = mmap(NULL, (2 * n + 1) * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			 -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		for (i = 0; i < n; i++)
			if (mmap(p + (2 * i + 1) * ps, ps, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
				die("mmap(MAP_FIXED)");
		m0 = minflt();
		for (i = 0; i < n; i++)
			p[(2 * i + 1) * ps] = 1;
		m1 = minflt();
	} else if (!strcmp(mode, "stack-grow") || !strcmp(mode, "uffd-stack")) {
		char *top;
		pthread_t th;
		int uf = !strcmp(mode, "uffd-stack");

		p = mmap(NULL, (n + 2) * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			 -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		top = p + (n + 1) * ps;
		if (n && munmap(p + ps, n * ps))
			die("munmap");
		if (mmap(top, ps, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_GROWSDOWN, -1, 0) == MAP_FAILED)
			die("mmap(MAP_GROWSDOWN)");
		top[0] = 1;
		if (uf)
			uffd_start(top, ps, n, ps, &th);
		m0 = minflt();
		for (i = 1; i <= n; i++)
			top[-(long)(i * ps)] = 1;
		m1 = minflt();
		if (uf && uffd_join(th))
			return 1;
	} else if (!strcmp(mode, "uffd-anon")) {
		pthread_t th;

		if (!fits_one_table(mode, n, ps))
			return 2;
		p = tables_map(1);
		p[0] = 1;
		uffd_start(p + ps, n * ps, n, ps, &th);
		m0 = minflt();
		for (i = 1; i <= n; i++)
			p[i * ps] = 1;
		m1 = minflt();
		if (uffd_join(th))
			return 1;
	} else if (!strcmp(mode, "race-writer")) {
		pthread_t th;
		char *pg;

		p = fresh_tables(n, ps);
		pg = mmap(NULL, RACE_LEN + 2 * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (pg == MAP_FAILED)
			die("mmap");
		/* the writer's range between two PROT_NONE pages (never merged),
		 * populated: its walk has PTEs to change, and cond_resched()s */
		if (mprotect(pg + ps, RACE_LEN, PROT_READ | PROT_WRITE) ||
		    madvise(pg + ps, RACE_LEN, MADV_NOHUGEPAGE))
			die("mprotect");
		memset(pg + ps, 1, RACE_LEN);
		/* both threads on CPU 0: the writer preempted in its walk */
		if (racer_start(mode, race_thread, pg + ps, 0, &th))
			return 2;
		m0 = minflt();
		for (i = 0; i < n; i++)
			*fresh_page(p, i, ps) = 1;
		m1 = minflt();
		racer_stop(mode, th, "mprotect() calls");
	} else if (!strcmp(mode, "vma-race")) {
		pthread_t th;
		char *pg;

		p = fresh_tables(n, ps);
		pg = mmap(NULL, 3 * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (pg == MAP_FAILED || mprotect(pg + ps, ps, PROT_READ | PROT_WRITE))
			die("mmap");
		if (racer_start(mode, writer_thread, pg + ps, 1, &th))
			return 2;
		m0 = minflt();
		for (i = 0; i < n; i++)
			sink = *fresh_page(p, i, ps);
		m1 = minflt();
		racer_stop(mode, th, "mprotect() calls");
	} else if (!strcmp(mode, "ptl-holder")) {
		const unsigned long per = PMD_SPAN / ps - 1;
		pthread_t th;

		p = tables_map(1);
		p[0] = 1;
		if (racer_start(mode, holder_thread, p, 1, &th))
			return 2;
		m0 = minflt();
		for (i = 0; i < n; i++) {
			if (i && !(i % per) && madvise(p + ps, per * ps, MADV_DONTNEED))
				die("madvise(MADV_DONTNEED)");
			p[(1 + i % per) * ps] = 1;
		}
		m1 = minflt();
		racer_stop(mode, th, "mincore() walks");
	} else if (!strcmp(mode, "migrate-race")) {
		pthread_t th;
		unsigned long k;

		p = tables_map(1);
		for (k = 0; k <= MIGRATE_PAGES; k++)
			p[k * ps] = 1;
		for (k = 0; k < MIGRATE_PAGES; k++)
			migrate_page[k] = p + (k + 1) * ps;
		if (racer_start(mode, migrate_thread, NULL, 1, &th))
			return 2;
		m0 = minflt();
		for (i = 0; racer_calls < n && !racer_err; i++)
			for (k = 1; k <= MIGRATE_PAGES; k++)
				sink = p[k * ps];
		m1 = minflt();
		racer_stop(mode, th, "move_pages() calls");
		if (racer_err) {
			errno = racer_err;
			die("move_pages");
		}
	} else if (!strcmp(mode, "swap-in") || !strcmp(mode, "swap-nopage")) {
		int nopage = !strcmp(mode, "swap-nopage");

		if (!fits_one_table(mode, n, ps))
			return 2;
		if (pin_cpu(0))
			die("sched_setaffinity(CPU 0)");
		p = tables_map(1);
		for (i = 0; i <= n; i++)
			p[i * ps] = 1;
		if (swap_out(mode, p + ps, n, ps))
			return 2;
		if (nopage) {
			unsigned long k;

			/* read back, mapped read-only from the swap cache; once
			 * their writes ended they are clean, and the next
			 * pageout frees them from the cache at once */
			for (i = 1; i <= n; i++)
				sink = p[i * ps];
			if (writeback_wait(p + ps, n, ps))
				return 2;
			if (drain_every_cpu(p, ps) || swap_out(mode, p + ps, n, ps))
				return 2;
			k = swap_cached(p + ps, n, ps);
			if (k) {
				fprintf(stderr, "provoke: %s: %lu of %lu pages still in the swap cache\n",
					mode, k, n);
				return 2;
			}
		}
		m0 = minflt();
		for (i = 1; i <= n; i++)
			sink = p[i * ps];
		m1 = minflt();
	} else if (!strcmp(mode, "mincore")) {
		static unsigned char vec[1];

		vec[0] = 0;
		/* the call that can fail, once before the loop */
		if (mincore(last, ps, vec))
			die("mincore");
		m0 = minflt();
		for (i = 0; i < n; i++)
			mincore(last, ps, vec);
		m1 = minflt();
	} else if (!strcmp(mode, "touch") && argc == 4) {
		int fd;
		char c;

		p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		madvise(p, n * ps, MADV_NOHUGEPAGE);
		fd = open(argv[3], O_RDONLY);
		if (fd < 0)
			die(argv[3]);
		if (read(fd, &c, 1) != 1) {
			errno = EIO;
			die("read of the go byte");
		}
		close(fd);
		m0 = minflt();
		for (i = 0; i < n; i++)
			p[i * ps] = 1;
		m1 = minflt();
	} else {
		fprintf(stderr, "provoke: unknown mode '%s'\n", mode);
		return 2;
	}
	(void)sink;
	last[0] = 1;
	printf("provoke %s: %lu done, minflt %ld\n", mode, n, m1 - m0);
	return 0;
}
