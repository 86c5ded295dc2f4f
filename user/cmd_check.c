// SPDX-License-Identifier: GPL-2.0
/* faultline check FILE...: verify the accounting invariants of snapshots. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "invariants.h"

int cmd_check(int argc, char **argv)
{
	int bad = 0, quiet = 0, i = 1;
	char err[512];

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: faultline check [-q] FILE...\n"
		       "  verify a snapshot's accounting invariants (histogram buckets add up,\n"
		       "  one latency sample per ended fault, lockless outcomes = attempts, ...);\n"
		       "  exit 1 if any is violated\n");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "-q")) {
		quiet = 1;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "faultline check: no snapshot file given\n");
		return 2;
	}
	for (; i < argc; i++) {
		struct fl_snapshot s;
		int n;

		if (fl_snapshot_read_file(argv[i], &s, err, sizeof(err))) {
			fprintf(stderr, "faultline check: %s\n", err);
			return 2;
		}
		n = fl_snapshot_check(&s, quiet ? NULL : stdout);
		if (n)
			printf("faultline check: %s: %d invariant(s) violated\n", argv[i], n);
		bad += n;
		fl_snapshot_free(&s);
	}
	return bad ? 1 : 0;
}
