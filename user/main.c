// SPDX-License-Identifier: GPL-2.0
/* faultline: page-fault path collector.  One binary, subcommands. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

bool fl_verbose;

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
	fprintf(f, "usage: faultline [-v] COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'faultline COMMAND -h' for a command's options.\n");
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
	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++)
		if (!strcmp(argv[i], cmds[c].name))
			return cmds[c].fn(argc - i, argv + i);
	fprintf(stderr, "faultline: unknown command '%s' (see faultline -h)\n", argv[i]);
	return 2;
}
