// SPDX-License-Identifier: GPL-2.0
/*
 * snapread NR_CPUS ITER: time writing and reading back a snapshot of NR_CPUS
 * CPUs (every histogram populated) through user/snapshot.c; prints
 * "snapread cpus=N bytes=B write_ms=W read_ms=R read_median_ms=M read_max_ms=X
 * read_first_ms=F" (W and R: means over ITER; F: the first read, whose
 * memory is new to the process, as in a one-shot `faultline report`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "snapshot.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct fl_snapshot s = { 0 }, r;
	char path[] = "/tmp/fl-snapread-XXXXXX", err[256];
	unsigned int n = argc > 1 ? atoi(argv[1]) : 256, it = argc > 2 ? atoi(argv[2]) : 20;
	double tw = 0, tr = 0, t, first, *reads;
	int fd = mkstemp(path);
	size_t bytes = 0;

	if (fd < 0 || n == 0 || it == 0 || fl_snapshot_alloc_cpus(&s, n))
		return 1;
	reads = calloc(it, sizeof(*reads));
	if (!reads)
		return 1;
	close(fd);
	for (unsigned int c = 0; c < n; c++)
		for (unsigned int h = 0; h < FL_H_NR; h++)
			for (unsigned int v = 1; v < 1u << 20; v = v * 5 / 4 + 1)
				fl_hist_add(&s.cpus[c].hist[h], v + c);
	for (unsigned int i = 0; i < it; i++) {
		t = now_ms();
		if (fl_snapshot_write_file(path, &s, err, sizeof(err)))
			return fprintf(stderr, "snapread: %s\n", err), 1;
		tw += now_ms() - t;
		t = now_ms();
		if (fl_snapshot_read_file(path, &r, err, sizeof(err)))
			return fprintf(stderr, "snapread: %s\n", err), 1;
		reads[i] = now_ms() - t;
		tr += reads[i];
		fl_snapshot_free(&r);
	}
	{
		void *buf;

		if (fl_snapshot_serialize(&s, &buf, &bytes) == 0)
			free(buf);
	}
	unlink(path);
	first = reads[0];
	qsort(reads, it, sizeof(*reads), cmp_double);
	printf("snapread cpus=%u bytes=%zu write_ms=%.3f read_ms=%.3f read_median_ms=%.3f read_max_ms=%.3f read_first_ms=%.3f\n",
	       n, bytes, tw / it, tr / it,
	       it % 2 ? reads[it / 2] : (reads[it / 2 - 1] + reads[it / 2]) / 2, reads[it - 1], first);
	free(reads);
	fl_snapshot_free(&s);
	return 0;
}
