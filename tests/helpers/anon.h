/* SPDX-License-Identifier: GPL-2.0 */
/* The test helpers' anonymous base-page buffer: mapped, THP off, or exit 1. */
#ifndef FL_HELPERS_ANON_H
#define FL_HELPERS_ANON_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static char *helper_anon(const char *prog, size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "%s: mmap of %zu bytes failed\n", prog, len);
		exit(1);
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

#endif
