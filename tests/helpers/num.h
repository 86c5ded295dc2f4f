/* SPDX-License-Identifier: GPL-2.0 */
/* The test helpers' option numbers: a decimal in [min, max], or exit 2. */
#ifndef FL_HELPERS_NUM_H
#define FL_HELPERS_NUM_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static long helper_num(const char *prog, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "%s: bad number '%s' (%ld..%ld)\n", prog, s, min, max);
		exit(2);
	}
	return v;
}

#endif
