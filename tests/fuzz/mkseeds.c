// SPDX-License-Identifier: GPL-2.0
/*
 * mkseeds TARGET DIR: write valid inputs for a fuzz target into DIR so the
 * fuzzer starts from well-formed files instead of searching for the magic.
 * Unknown targets get nothing (their fuzzers start from an empty corpus).
 */
#include <stdio.h>
#include <string.h>

#include "snapshot.h"

static int snapshot_seeds(const char *dir)
{
	struct fl_snapshot s = { 0 };
	char path[4096], err[256];
	int ret = 0;

	for (unsigned int nr = 1; nr <= 4; nr *= 2) {
		if (fl_snapshot_alloc_cpus(&s, nr))
			return 1;
		s.hdr.backend = FL_BACKEND_BPF;
		s.hdr.tier = FL_TIER_FENTRY;
		for (unsigned int c = 0; c < nr; c++) {
			s.cpus[c].cnt[FL_C_FAULTS_USER] = 100 + c;
			fl_hist_add(&s.cpus[c].hist[FL_H_FAULT_LAT], 1000 + c);
		}
		if (nr == 4)
			fl_snapshot_set_tag(&s, "kernel_version", "6.12.0");
		snprintf(path, sizeof(path), "%s/seed-%u.snap", dir, nr);
		if (fl_snapshot_write_file(path, &s, err, sizeof(err))) {
			fprintf(stderr, "mkseeds: %s\n", err);
			ret = 1;
		}
	}
	fl_snapshot_free(&s);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: mkseeds TARGET DIR\n");
		return 2;
	}
	if (!strcmp(argv[1], "snapshot"))
		return snapshot_seeds(argv[2]);
	return 0;
}
