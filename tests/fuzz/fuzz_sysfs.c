// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz what faultline reads from /proc and /sys (fl_topology_read,
 * fl_tags_collect_root) through a scratch tree.  Input: fields separated by
 * byte 0x01, field i the content of paths[i] (absent fields: no file).
 * "possible" naming a CPU >= 8 is skipped (each CPU costs dozens of opens).
 * A topology read must be consistent: counts within nr_cpus, offline CPUs in
 * no LLC, LLC ids below nr_llc, nodes >= 1, and the layout must survive the
 * snapshot tags (fl_topology_tags -> fl_topology_from_tags).  Tag collection
 * must produce only well-formed "key=value" lines, agree with the topology
 * read (logical cores) and survive a snapshot write/read.
 */
#include "fuzzutil.h"
#include "snapshot.h"
#include "tags.h"
#include "topology.h"

#define CPU "sys/devices/system/cpu/"
#define PERCPU(n) \
	CPU "cpu" #n "/topology/physical_package_id", CPU "cpu" #n "/topology/core_id", \
	CPU "cpu" #n "/cache/index0/level", CPU "cpu" #n "/cache/index0/type", \
	CPU "cpu" #n "/cache/index0/shared_cpu_list", CPU "cpu" #n "/cache/index0/size", \
	CPU "cpu" #n "/cache/index2/level", CPU "cpu" #n "/cache/index2/type", \
	CPU "cpu" #n "/cache/index2/shared_cpu_list", CPU "cpu" #n "/cache/index2/size"

static const char *const paths[] = {
	CPU "possible", CPU "online", "proc/cpuinfo", "proc/sys/kernel/osrelease",
	"proc/sys/kernel/arch", "proc/meminfo",
	"sys/kernel/mm/transparent_hugepage/enabled",
	"sys/kernel/mm/transparent_hugepage/defrag",
	"sys/devices/system/node/node0/cpulist", "sys/devices/system/node/node1/cpulist",
	CPU "cpu0/cache/index0/ways_of_associativity",
	CPU "cpu0/cache/index0/coherency_line_size",
	PERCPU(0), PERCPU(1), PERCPU(2), PERCPU(3),
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

static int small_possible(const char *s)
{
	for (; *s; s++) {
		unsigned long v = 0;

		if (*s < '0' || *s > '9')
			continue;
		for (; *s >= '0' && *s <= '9'; s++)
			if ((v = v * 10 + (*s - '0')) >= 8)
				return 0;
		if (!*s)
			break;
	}
	return 1;
}

static void check_topology(const struct fl_topology *t)
{
	struct fl_topology r;
	unsigned int online = 0;
	char *llc, *node, err[256];

	FZ_ASSERT(t->nr_cpus >= 1 && t->nr_cpus <= 8);
	for (unsigned int c = 0; c < t->nr_cpus; c++) {
		const struct fl_cpu_topo *ct = &t->cpu[c];

		online += ct->online == 1;
		FZ_ASSERT(ct->online == 0 || ct->online == 1);
		FZ_ASSERT(ct->llc >= -1 && ct->llc < (int)t->nr_llc);
		FZ_ASSERT(ct->online || ct->llc == -1);
		FZ_ASSERT(ct->node >= -1 && ct->node <= 1);
	}
	FZ_ASSERT(online == t->nr_online);
	FZ_ASSERT(t->nr_cores <= t->nr_online && t->nr_packages <= t->nr_online);
	FZ_ASSERT(!t->nr_online || (t->nr_cores >= 1 && t->nr_packages >= 1));
	FZ_ASSERT(t->nr_llc <= t->nr_online && t->llc_per_package <= t->nr_llc);
	FZ_ASSERT(t->nr_nodes >= 1 && t->nr_nodes <= 2);
	FZ_ASSERT(fl_topology_tags(t, &llc, &node) == 0);
	FZ_ASSERT(fl_topology_from_tags(llc ? llc : "", node, t->nr_cpus, &r, err,
					sizeof(err)) == 0);
	FZ_ASSERT(r.nr_llc == t->nr_llc);
	for (unsigned int c = 0; c < t->nr_cpus; c++)
		FZ_ASSERT(r.cpu[c].llc == t->cpu[c].llc && r.cpu[c].node == t->cpu[c].node);
	fl_topology_free(&r);
	free(llc);
	free(node);
}

static void check_tags(const struct fl_snapshot *s, const struct fl_topology *t)
{
	struct fl_snapshot back;
	char err[256], want[32];
	void *buf;
	size_t len;

	FZ_ASSERT(s->tags);
	for (const char *p = s->tags; *p; ) {
		const char *eol = strchr(p, '\n'), *eq = strchr(p, '=');

		FZ_ASSERT(eol && eq && eq > p && eq < eol);	/* key=value\n */
		p = eol + 1;
	}
	FZ_ASSERT(fl_snapshot_tag(s, "machine_platform_genus"));
	if (t) {
		snprintf(want, sizeof(want), "%u", t->nr_online);
		FZ_ASSERT(!strcmp(fl_snapshot_tag(s, "machine_total_logical_cores"), want));
	}
	FZ_ASSERT(fl_snapshot_serialize(s, &buf, &len) == 0);
	FZ_ASSERT(fl_snapshot_parse(buf, len, &back, err, sizeof(err)) == 0);
	FZ_ASSERT(back.tags && !strcmp(back.tags, s->tags));
	fl_snapshot_free(&back);
	free(buf);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *field[NPATHS], root[4096], err[256];
	struct fl_topology t, t2;
	struct fl_snapshot s;
	unsigned int n = fz_split(data, size, '\x01', field, NPATHS);
	int have_topo, r;

	if (!n || !small_possible(field[0]))
		goto out;
	snprintf(root, sizeof(root), "%s/root", fz_scratch());
	mkdir(root, 0755);
	for (unsigned int i = 0; i < NPATHS; i++) {	/* the directories stay */
		char path[4096];

		if (i < n) {
			if (fz_write(root, paths[i], field[i], strlen(field[i])))
				abort();
		} else {
			snprintf(path, sizeof(path), "%s/%s", root, paths[i]);
			unlink(path);
		}
	}
	have_topo = !fl_topology_read(root, &t, err, sizeof(err));
	if (have_topo) {
		check_topology(&t);
		FZ_ASSERT(fl_topology_read(root, &t2, err, sizeof(err)) == 0);
		FZ_ASSERT(t2.nr_cpus == t.nr_cpus &&
			  !memcmp(t2.cpu, t.cpu, t.nr_cpus * sizeof(*t.cpu)));
		fl_topology_free(&t2);
	} else {
		FZ_ASSERT(err[0]);
	}
	memset(&s, 0, sizeof(s));
	if (fl_snapshot_alloc_cpus(&s, 1))	/* a snapshot needs its CPUs */
		abort();
	r = fl_tags_collect_root(&s, root);
	FZ_ASSERT(r == 0);	/* nothing in a tree is "out of memory" */
	check_tags(&s, have_topo ? &t : NULL);
	fl_snapshot_free(&s);
	if (have_topo)
		fl_topology_free(&t);
out:
	fz_free_fields(field, n);
	return 0;
}
