// SPDX-License-Identifier: GPL-2.0
/*
 * touchpages N: map N anonymous base pages (THP off for the range), write one
 * byte per page, print the minor faults getrusage saw.  A test-harness helper
 * that does not depend on tools/pft, so the foundation scenarios stand alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage a, b;
	unsigned long n, i, ps = sysconf(_SC_PAGESIZE);
	char *end, *p;

	if (argc != 2) {
		fprintf(stderr, "usage: touchpages NR_PAGES\n");
		return 2;
	}
	errno = 0;
	n = strtoul(argv[1], &end, 10);
	if (errno || *end || n == 0 || n > (1UL << 30)) {
		fprintf(stderr, "touchpages: bad page count '%s'\n", argv[1]);
		return 2;
	}
	p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("touchpages: mmap");
		return 1;
	}
	madvise(p, n * ps, MADV_NOHUGEPAGE);
	getrusage(RUSAGE_SELF, &a);
	for (i = 0; i < n; i++)
		p[i * ps] = 1;
	getrusage(RUSAGE_SELF, &b);
	printf("touched %lu pages, minflt %ld\n", n, b.ru_minflt - a.ru_minflt);
	return 0;
}
