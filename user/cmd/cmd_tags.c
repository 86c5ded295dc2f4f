// SPDX-License-Identifier: GPL-2.0
/*
 * faultline tags: this machine's tags as key=value lines (pft-sweep stores
 * them as RESULTS/tags); --topology adds the per-CPU package/core/LLC/node map.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "tags.h"
#include "topology.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline tags [--root DIR] [--topology]\n"
"  prints key=value lines: kernel, CPU vendor/family/model and genus, cores,\n"
"  sockets, NUMA nodes, LLC domains, RAM, THP mode, cache sizes\n"
"  --root DIR    read /proc and /sys under DIR (a recorded tree)\n"
"  --topology    then one line per CPU: cpu=N package=P core=C llc=L node=N\n");
}

int parse_tags_args(int argc, char **argv, struct fl_tags_args *a, char *err, size_t errlen)
{
	static const struct option lo[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "topology", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int opt;

	*a = (struct fl_tags_args){ .root = "" };
	err[0] = '\0';
	fl_getopt_start();
	while ((opt = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		switch (opt) {
		case 'r':
			a->root = optarg;
			break;
		case 't':
			a->topology = 1;
			break;
		case 'h':
			return FL_ARGS_HELP;
		default:
			return fl_args_getopt_bad(opt, argv, lo, err, errlen);
		}
	}
	if (optind < argc)
		return fl_args_bad(err, errlen, "unexpected argument '%s'", argv[optind]);
	return FL_ARGS_RUN;
}

int cmd_tags(int argc, char **argv)
{
	struct fl_tags_args a;
	struct fl_snapshot s;
	char err[256];
	int rc;

	rc = fl_args_exit(parse_tags_args(argc, argv, &a, err, sizeof(err)), "tags", err, usage);
	if (rc >= 0)
		return rc;
	memset(&s, 0, sizeof(s));
	if (fl_tags_collect_root(&s, a.root)) {
		fprintf(stderr, "faultline tags: out of memory\n");
		fl_snapshot_free(&s);
		return 1;
	}
	fputs(s.tags ? s.tags : "", stdout);
	fl_snapshot_free(&s);
	if (a.topology) {
		struct fl_topology t;

		if (fl_topology_read(a.root, &t, err, sizeof(err))) {
			fprintf(stderr, "faultline tags: topology: %s\n", err);
			return 1;
		}
		for (unsigned int c = 0; c < t.nr_cpus; c++)
			if (t.cpu[c].online)
				printf("cpu=%u package=%d core=%d llc=%d node=%d\n", c,
				       t.cpu[c].package, t.cpu[c].core, t.cpu[c].llc, t.cpu[c].node);
		fl_topology_free(&t);
	}
	return fflush(stdout) ? 1 : 0;
}
