// SPDX-License-Identifier: GPL-2.0
/* faultline check FILE...: verify the accounting invariants of snapshots. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "invariants.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: faultline check [-q] FILE...\n"
		"  verify a snapshot's accounting invariants (histogram buckets add up,\n"
		"  one latency sample per ended fault, lockless outcomes = attempts, ...);\n"
		"  exit 1 if any is violated or a FILE cannot be read\n");
}

int parse_check_args(int argc, char **argv, struct fl_check_args *a, char *err, size_t errlen)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int opt;

	*a = (struct fl_check_args){ 0 };
	err[0] = '\0';
	fl_getopt_start();
	while ((opt = getopt_long(argc, argv, ":qh", lo, NULL)) != -1) {
		switch (opt) {
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			return FL_ARGS_HELP;
		default:
			return fl_args_getopt_bad(opt, argv, lo, err, errlen);
		}
	}
	if (optind >= argc)
		return fl_args_bad(err, errlen, "no snapshot file given");
	a->files = argv + optind;
	return FL_ARGS_RUN;
}

int cmd_check(int argc, char **argv)
{
	struct fl_check_args a;
	char err[512];
	int bad = 0, rc;

	rc = fl_args_exit(parse_check_args(argc, argv, &a, err, sizeof(err)), "check", err, usage);
	if (rc >= 0)
		return rc;
	for (char **f = a.files; *f; f++) {
		struct fl_snapshot s;
		int n;

		/* a runtime failure, as report's: 1, like a violation */
		if (fl_snapshot_read_file(*f, &s, err, sizeof(err))) {
			fprintf(stderr, "faultline check: %s\n", err);
			return 1;
		}
		n = fl_snapshot_check(&s, a.quiet ? NULL : stdout);
		if (n)
			printf("faultline check: %s: %d invariant(s) violated\n", *f, n);
		bad += n;
		fl_snapshot_free(&s);
	}
	return bad ? 1 : 0;
}
