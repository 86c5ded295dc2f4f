// SPDX-License-Identifier: GPL-2.0
/*
 * uringread NR_PAGES: map NR_PAGES anonymous base pages (THP off), never
 * touch them, and have io_uring read NR_PAGES pages of /dev/zero into them
 * with IOSQE_ASYNC, so that an io-wq worker, not this task, writes them: the
 * worker takes one kernel-mode fault per page on this process's mm.  On 5.10
 * that worker is a kernel thread borrowing the mm (kthread_use_mm); from
 * 5.12 it is a thread of this process (PF_IO_WORKER).  Prints the bytes
 * read and this task's own minor faults over the read.
 * tests/integration/kthread_faults.sh counts the worker's faults.
 */
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "anon.h"
#include "num.h"

#ifndef IOSQE_ASYNC
#define IOSQE_ASYNC (1U << 4)	/* 5.6 */
#endif

static void *ring_map(int fd, size_t len, off_t off)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, off);

	if (p == MAP_FAILED) {
		perror("uringread: mmap of the ring");
		return NULL;
	}
	return p;
}

int main(int argc, char **argv)
{
	struct io_uring_params par;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	unsigned int *sq_tail, *sq_array, *cq_head, *cq_tail;
	struct rusage a, b;
	long ps = sysconf(_SC_PAGESIZE), n;
	char *sq, *cq, *buf;
	int ring, zero;

	if (argc != 2) {
		fprintf(stderr, "usage: uringread NR_PAGES\n");
		return 2;
	}
	n = helper_num("uringread", argv[1], 1, 1L << 20);
	buf = helper_anon("uringread", n * ps);
	zero = open("/dev/zero", O_RDONLY);
	if (zero < 0) {
		perror("uringread: /dev/zero");
		return 1;
	}
	memset(&par, 0, sizeof(par));
	ring = (int)syscall(__NR_io_uring_setup, 1, &par);
	if (ring < 0) {
		perror("uringread: io_uring_setup");
		return 1;
	}
	sq = ring_map(ring, par.sq_off.array + par.sq_entries * sizeof(unsigned int),
		      IORING_OFF_SQ_RING);
	cq = ring_map(ring, par.cq_off.cqes + par.cq_entries * sizeof(struct io_uring_cqe),
		      IORING_OFF_CQ_RING);
	sqe = ring_map(ring, par.sq_entries * sizeof(struct io_uring_sqe), IORING_OFF_SQES);
	if (!sq || !cq || !sqe)
		return 1;
	sq_tail = (unsigned int *)(sq + par.sq_off.tail);
	sq_array = (unsigned int *)(sq + par.sq_off.array);
	cq_head = (unsigned int *)(cq + par.cq_off.head);
	cq_tail = (unsigned int *)(cq + par.cq_off.tail);

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_READ;	/* 5.6 */
	sqe->flags = IOSQE_ASYNC;	/* straight to an io-wq worker */
	sqe->fd = zero;
	sqe->addr = (unsigned long)buf;
	sqe->len = (unsigned int)(n * ps);
	sqe->off = 0;
	sq_array[0] = 0;
	__atomic_store_n(sq_tail, *sq_tail + 1, __ATOMIC_RELEASE);

	getrusage(RUSAGE_SELF, &a);
	if (syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) {
		perror("uringread: io_uring_enter");
		return 1;
	}
	while (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) == *cq_head)
		;	/* GETEVENTS returned with the completion posted */
	getrusage(RUSAGE_SELF, &b);
	cqe = (struct io_uring_cqe *)(cq + par.cq_off.cqes) +
	      (*cq_head & *(unsigned int *)(cq + par.cq_off.ring_mask));
	if (cqe->res != n * ps) {
		fprintf(stderr, "uringread: read returned %d, wanted %ld (%s)\n", cqe->res,
			n * ps, cqe->res < 0 ? strerror(-cqe->res) : "short");
		return 1;
	}
	printf("read %d bytes into %ld pages, own minflt %ld\n", cqe->res, n,
	       b.ru_minflt - a.ru_minflt);
	return 0;
}
