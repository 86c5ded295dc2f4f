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

int cmd_tags(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "topology", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *root = "";
	struct fl_snapshot s;
	int topo = 0, opt;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (opt) {
		case 'r':
			root = optarg;
			break;
		case 't':
			topo = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	memset(&s, 0, sizeof(s));
	if (fl_tags_collect_root(&s, root)) {
		fprintf(stderr, "faultline tags: out of memory\n");
		fl_snapshot_free(&s);
		return 1;
	}
	fputs(s.tags ? s.tags : "", stdout);
	fl_snapshot_free(&s);
	if (topo) {
		struct fl_topology t;
		char err[256];

		if (fl_topology_read(root, &t, err, sizeof(err))) {
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
