// SPDX-License-Identifier: GPL-2.0
/* faultline: page-fault path collector.  One binary, subcommands. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <faultline/abi.h>

#include "commands.h"
#include "snapshot.h"

/* user/Makefile passes git's name for the tree; a build outside git has none */
#ifndef FL_VERSION
#define FL_VERSION "unknown"
#endif

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "record",  cmd_record,  "trace the fault path while a command runs; write snapshots" },
	{ "report",  cmd_report,  "summarise snapshot(s): per-CPU latency, lockless outcomes, mmap_lock" },
	{ "probe",   cmd_probe,   "what this kernel allows and what record would use" },
	{ "export",  cmd_export,  "export histograms as json, csv, prom or text" },
	{ "compare", cmd_compare, "A/B table of two pft-sweep result directories" },
	{ "plot",    cmd_plot,    "gnuplot pictures of sweeps and histograms" },
	{ "tags",    cmd_tags,    "print this machine's tags and topology" },
	{ "check",   cmd_check,   "verify a snapshot's accounting invariants" },
	{ "serve",   cmd_serve,   "long-running collector: Prometheus /metrics, --textfile" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: faultline [-v] COMMAND [ARGS]\n       faultline --version\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "  %-8s %s\n", "help", "this list, or 'help COMMAND': COMMAND's options");
	fprintf(f, "\n'faultline COMMAND -h' for a command's options.\n");
}

/*
 * Every message a command prints starts "faultline CMD: " (commands.h has
 * the convention); code shared between commands (export_out.c) takes the
 * prefix from program_invocation_short_name, set here.
 */
static int run_cmd(int argc, char **argv)
{
	static char name[32];

	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++)
		if (!strcmp(argv[0], cmds[c].name)) {
			snprintf(name, sizeof(name), "faultline %s", cmds[c].name);
			program_invocation_short_name = name;
			return cmds[c].fn(argc, argv);
		}
	fprintf(stderr, "faultline: unknown command '%s' (see faultline -h)\n", argv[0]);
	return 2;
}

/* help [COMMAND]: the list, or COMMAND -h */
static int help(int argc, char **argv)
{
	char h[] = "-h", *av[] = { argv[1], h, NULL };

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (argc > 2) {
		fprintf(stderr, "faultline help: one command at a time\n");
		return 2;
	}
	return run_cmd(2, av);
}

int main(int argc, char **argv)
{
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			fl_verbose = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			/* the format record writes (the module's debugfs file is 1.0) */
			printf("faultline %s (snapshot format %u.%u)\n", FL_VERSION,
			       FL_SNAP_VERSION_WRITE >> 16, FL_SNAP_VERSION_WRITE & 0xffff);
			return 0;
		} else {
			fprintf(stderr, "faultline: unknown option '%s'\n", argv[i]);
			return 2;
		}
		i++;
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[i], "help"))
		return help(argc - i, argv + i);
	return run_cmd(argc - i, argv + i);
}
