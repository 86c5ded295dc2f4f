/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU topology from sysfs: package, core, last-level-cache domain (the CPUs
 * listed in cpuN/cache/indexM/shared_cpu_list of the highest cache level;
 * a CCX of 4 cores on Rome, a whole socket on Skylake-SP) and NUMA node.
 * Every path is read under a root prefix so tests can use recorded trees.
 */
#ifndef FAULTLINE_TOPOLOGY_H
#define FAULTLINE_TOPOLOGY_H

#include <stddef.h>

struct fl_cpu_topo {
	int online;
	int package;	/* physical_package_id, -1 unknown */
	int core;	/* core_id, -1 unknown */
	int llc;	/* dense LLC domain index (0..nr_llc-1), -1 unknown */
	int node;	/* NUMA node, -1 unknown */
};

struct fl_topology {
	unsigned int nr_cpus;		/* possible CPUs (ids 0..nr_cpus-1) */
	struct fl_cpu_topo *cpu;
	unsigned int nr_online, nr_cores, nr_packages, nr_llc, nr_nodes;
	unsigned int llc_level;		/* cache level of the LLC, 0 unknown */
	unsigned long long llc_size;	/* bytes per LLC domain, 0 unknown */
	unsigned int llc_per_package;	/* LLC domains in package 0 */
};

/* root: "" or "/" for this machine.  0, or -1 with err. */
int fl_topology_read(const char *root, struct fl_topology *t, char *err, size_t errlen);
void fl_topology_free(struct fl_topology *t);

/* "0-3,8,10-11" -> mask[i] = 1; -1 on syntax error or id >= n. */
int fl_cpulist_parse(const char *s, unsigned char *mask, unsigned int n);

/* mask -> "0-3,8" (empty string for an empty mask). */
void fl_cpulist_format(const unsigned char *mask, unsigned int n, char *buf, size_t len);

/*
 * The topology as two snapshot tags, so a snapshot carries the layout of the
 * machine it was recorded on:
 *   topology_llc=0-3,128-131 4-7,132-135 ...   (LLC domain i = i-th list)
 *   topology_node=0:0-63,128-191 1:64-127,192-255
 * fl_topology_tags() returns malloc'ed values (NULL when unknown);
 * fl_topology_from_tags() rebuilds llc/node per CPU (0, or -1 with err).
 */
int fl_topology_tags(const struct fl_topology *t, char **llc, char **node);
int fl_topology_from_tags(const char *llc, const char *node, unsigned int nr_cpus,
			  struct fl_topology *t, char *err, size_t errlen);

/* Group id of a CPU for --by cpu|llc|node; -1 when unknown. */
enum fl_by { FL_BY_CPU, FL_BY_LLC, FL_BY_NODE };
int fl_topology_group(const struct fl_topology *t, enum fl_by by, unsigned int cpu);
const char *fl_by_name(enum fl_by by);
int fl_by_parse(const char *s, enum fl_by *by);

/* Helpers shared with tags.c: read ROOT/PATH (trimmed) into buf. */
int fl_read_root(const char *root, const char *path, char *buf, size_t len);
/* "32K" / "16384K" / "1M" -> bytes; 0 on error. */
unsigned long long fl_parse_size(const char *s);

#endif
