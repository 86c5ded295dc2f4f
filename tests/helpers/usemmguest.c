// SPDX-License-Identifier: GPL-2.0
/*
 * usemmguest N M FIFO: the process whose mm tests/kmod/fl_usemm.ko's kernel
 * thread borrows (tests/integration/kthread_usemm.sh).
 *   1. maps N pages, untouched (mincore: none resident), prints
 *      "pid P addr 0xA" and waits for a line on FIFO;
 *   2. the thread has written 0xa5 at the start of each: checks that all N
 *      are resident and hold it (reading them faults nothing);
 *   3. touches M fresh pages of its own and prints its minor faults over
 *      steps 2 and 3 (getrusage): "own M minflt D"; a recording of it
 *      from step 1 on sees only these.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include "anon.h"
#include "num.h"

static long resident(char *p, long n, long ps)
{
	unsigned char vec[4096];
	long i, r = 0;

	if (n > (long)sizeof(vec) || mincore(p, n * ps, vec))
		return -1;
	for (i = 0; i < n; i++)
		r += vec[i] & 1;
	return r;
}

int main(int argc, char **argv)
{
	long n, m, i, ps = sysconf(_SC_PAGESIZE), ok = 0;
	struct rusage a, b;
	char *t, *own, c;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: usemmguest N M FIFO\n");
		return 2;
	}
	n = helper_num("usemmguest", argv[1], 1, 4096);
	m = helper_num("usemmguest", argv[2], 1, 1 << 20);
	t = helper_anon("usemmguest", n * ps);
	own = helper_anon("usemmguest", m * ps);
	getrusage(RUSAGE_SELF, &a);	/* its code mapped before the count */
	printf("resident before %ld\n", resident(t, n, ps));
	printf("pid %d addr %p\n", getpid(), (void *)t);
	fflush(stdout);
	fd = open(argv[3], O_RDONLY);
	if (fd < 0 || read(fd, &c, 1) != 1) {
		perror("usemmguest: fifo");
		return 1;
	}
	getrusage(RUSAGE_SELF, &a);
	for (i = 0; i < n; i++)
		ok += (unsigned char)t[i * ps] == 0xa5;
	for (i = 0; i < m; i++)
		own[i * ps] = 1;
	getrusage(RUSAGE_SELF, &b);
	printf("resident after %ld\nwritten by the thread %ld\n", resident(t, n, ps), ok);
	printf("own %ld minflt %ld\n", m, b.ru_minflt - a.ru_minflt);
	fflush(stdout);
	_exit(0);	/* no exit path code faulted in after the count */
}
