// SPDX-License-Identifier: GPL-2.0
/* CPU topology from sysfs (see topology.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"
#include "errbuf.h"

#define MAX_CPUS	8192

int fl_read_root(const char *root, const char *path, char *buf, size_t len)
{
	char full[4096];
	size_t n;
	FILE *f;

	if (!root || !strcmp(root, "/"))
		root = "";
	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

unsigned long long fl_parse_size(const char *s)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (*s < '0' || *s > '9')	/* strtoull would take space, '+', '-' */
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return 0;
	switch (*end) {
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	}
	if (*end || v > (~0ULL >> shift))
		return 0;
	return v << shift;
}

int fl_cpulist_parse(const char *s, unsigned char *mask, unsigned int n)
{
	const char *p = s;

	while (*p) {
		unsigned long a, b;
		char *end;

		if (*p < '0' || *p > '9')
			return -1;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -1;
			b = strtoul(p, &end, 10);
		}
		if (a > b || b >= n)
			return -1;
		for (unsigned long i = a; i <= b; i++)
			mask[i] = 1;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p && strcmp(p, "\n"))
			return -1;
		else
			break;
	}
	return 0;
}

/* highest id in a cpulist + 1 */
static int cpulist_count(const char *s, unsigned int *n)
{
	unsigned int max = 0;
	const char *p = s;

	while (*p) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p)
			return -1;
		if (v + 1 > max)
			max = v + 1;
		p = end;
		if (*p == ',' || *p == '-')
			p++;
		else
			break;
	}
	*n = max;
	return max ? 0 : -1;
}

static int read_int(const char *root, const char *path, int *v)
{
	char buf[64], *end;
	long x;

	if (fl_read_root(root, path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	x = strtol(buf, &end, 10);
	if (errno || end == buf || *end)
		return -1;
	*v = (int)x;
	return 0;
}

/* The LLC of a CPU: the cache index with the highest level. */
static int cpu_llc(const char *root, unsigned int cpu, unsigned int *level, char *list,
		   size_t len, unsigned long long *size)
{
	int best = -1, bestlvl = 0;
	char path[256], buf[64];

	for (int i = 0; i < 16; i++) {
		int lvl;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cache/index%d/level",
			 cpu, i);
		if (read_int(root, path, &lvl))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cache/index%d/type",
			 cpu, i);
		if (fl_read_root(root, path, buf, sizeof(buf)) || !strcmp(buf, "Instruction"))
			continue;
		if (lvl > bestlvl) {
			bestlvl = lvl;
			best = i;
		}
	}
	if (best < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cache/index%d/shared_cpu_list",
		 cpu, best);
	if (fl_read_root(root, path, list, len))
		return -1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cache/index%d/size", cpu, best);
	*size = fl_read_root(root, path, buf, sizeof(buf)) ? 0 : fl_parse_size(buf);
	*level = bestlvl;
	return 0;
}

/* Package, core and LLC domain of every online CPU; llc_first[k]: domain k's first CPU. */
static int read_cpus(const char *root, struct fl_topology *t, unsigned char *mask, int *llc_first,
		     char *buf, size_t buflen, char *err, size_t errlen)
{
	unsigned int n = t->nr_cpus;
	char path[256];

	for (unsigned int c = 0; c < n; c++) {
		struct fl_cpu_topo *ct = &t->cpu[c];
		unsigned long long size = 0;
		unsigned int lvl = 0, first;

		if (!ct->online)
			continue;
		t->nr_online++;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
		read_int(root, path, &ct->package);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/core_id", c);
		read_int(root, path, &ct->core);
		if (cpu_llc(root, c, &lvl, buf, buflen, &size))
			continue;
		memset(mask, 0, n);
		if (fl_cpulist_parse(buf, mask, n)) {
			fl_fail(err, errlen, "cpu%u: bad shared_cpu_list '%s'", c, buf);
			return -1;
		}
		for (first = 0; first < n && !mask[first]; first++)
			;
		if (first == n)
			continue;
		for (unsigned int k = 0; k < t->nr_llc; k++)
			if (llc_first[k] == (int)first) {
				ct->llc = k;
				break;
			}
		if (ct->llc < 0) {
			llc_first[t->nr_llc] = first;
			ct->llc = t->nr_llc++;
		}
		if (lvl > t->llc_level) {
			t->llc_level = lvl;
			t->llc_size = size;
		}
	}
	return 0;
}

/* NUMA node of every CPU (one node 0 where the kernel has no NUMA). */
static int read_nodes(const char *root, struct fl_topology *t, unsigned char *mask,
		      char *buf, size_t buflen, char *err, size_t errlen)
{
	unsigned int n = t->nr_cpus;
	char path[256];

	for (int node = 0; node < 4096; node++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		if (fl_read_root(root, path, buf, buflen)) {
			if (node > 64 && t->nr_nodes)
				break;
			continue;
		}
		memset(mask, 0, n);
		if (buf[0] && fl_cpulist_parse(buf, mask, n)) {
			fl_fail(err, errlen, "node%d: bad cpulist '%s'", node, buf);
			return -1;
		}
		t->nr_nodes++;
		for (unsigned int c = 0; c < n; c++)
			if (mask[c])
				t->cpu[c].node = node;
	}
	if (!t->nr_nodes) {	/* no NUMA in this kernel: one node */
		t->nr_nodes = 1;
		for (unsigned int c = 0; c < n; c++)
			t->cpu[c].node = 0;
	}
	return 0;
}

/* Physical cores, packages and LLC domains per package, from the per-CPU ids. */
static void count_cores(struct fl_topology *t, const int *llc_first)
{
	unsigned int n = t->nr_cpus;

	/* physical cores = distinct (package, core) among online CPUs; packages */
	for (unsigned int c = 0; c < n; c++) {
		const struct fl_cpu_topo *ct = &t->cpu[c];
		unsigned int d;
		int newpkg = 1;

		if (!ct->online)
			continue;
		for (d = 0; d < c; d++) {
			const struct fl_cpu_topo *o = &t->cpu[d];

			if (!o->online)
				continue;
			if (o->package == ct->package)
				newpkg = 0;
			if (o->package == ct->package && o->core == ct->core && ct->core >= 0)
				break;
		}
		if (d == c)
			t->nr_cores++;
		t->nr_packages += newpkg;
	}
	/* LLC domains in the first package */
	for (unsigned int k = 0; k < t->nr_llc; k++)
		if (t->cpu[llc_first[k]].package == t->cpu[llc_first[0]].package)
			t->llc_per_package++;
}

int fl_topology_read(const char *root, struct fl_topology *t, char *err, size_t errlen)
{
	char buf[65536];
	unsigned char *mask = NULL;
	int *llc_first = NULL;	/* first CPU of each LLC domain */
	unsigned int n;

	memset(t, 0, sizeof(*t));
	if (fl_read_root(root, "/sys/devices/system/cpu/possible", buf, sizeof(buf)) &&
	    fl_read_root(root, "/sys/devices/system/cpu/present", buf, sizeof(buf)))
		return fl_fail(err, errlen, "%s/sys/devices/system/cpu/possible: cannot read",
			    root && strcmp(root, "/") ? root : "");
	if (cpulist_count(buf, &n) || n > MAX_CPUS)
		return fl_fail(err, errlen, "bad cpu list '%s'", buf);
	t->nr_cpus = n;
	t->cpu = calloc(n, sizeof(*t->cpu));
	mask = calloc(n, 1);
	llc_first = calloc(n, sizeof(int));
	if (!t->cpu || !mask || !llc_first)
		goto oom;
	for (unsigned int c = 0; c < n; c++)
		t->cpu[c] = (struct fl_cpu_topo){ 0, -1, -1, -1, -1 };
	if (!fl_read_root(root, "/sys/devices/system/cpu/online", buf, sizeof(buf))) {
		if (fl_cpulist_parse(buf, mask, n)) {
			fl_fail(err, errlen, "bad online cpu list '%s'", buf);
			goto bad;
		}
		for (unsigned int c = 0; c < n; c++)
			t->cpu[c].online = mask[c];
	} else {
		for (unsigned int c = 0; c < n; c++)
			t->cpu[c].online = 1;
	}
	if (read_cpus(root, t, mask, llc_first, buf, sizeof(buf), err, errlen))
		goto bad;
	if (read_nodes(root, t, mask, buf, sizeof(buf), err, errlen))
		goto bad;
	count_cores(t, llc_first);
	free(mask);
	free(llc_first);
	return 0;
oom:
	fl_fail(err, errlen, "out of memory");
bad:
	free(mask);
	free(llc_first);
	fl_topology_free(t);
	return -1;
}

void fl_topology_free(struct fl_topology *t)
{
	free(t->cpu);
	memset(t, 0, sizeof(*t));
}

int fl_topology_group(const struct fl_topology *t, enum fl_by by, unsigned int cpu)
{
	if (by == FL_BY_CPU)
		return (int)cpu;
	if (!t || cpu >= t->nr_cpus)
		return -1;
	return by == FL_BY_LLC ? t->cpu[cpu].llc : t->cpu[cpu].node;
}

const char *fl_by_name(enum fl_by by)
{
	return by == FL_BY_CPU ? "cpu" : by == FL_BY_LLC ? "llc" : "node";
}

int fl_by_parse(const char *s, enum fl_by *by)
{
	if (!strcmp(s, "cpu"))
		*by = FL_BY_CPU;
	else if (!strcmp(s, "llc"))
		*by = FL_BY_LLC;
	else if (!strcmp(s, "node"))
		*by = FL_BY_NODE;
	else
		return -1;
	return 0;
}

void fl_cpulist_format(const unsigned char *mask, unsigned int n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < n && o + 24 < len; i++) {
		unsigned int j = i;

		if (!mask[i])
			continue;
		while (j + 1 < n && mask[j + 1])
			j++;
		o += snprintf(buf + o, len - o, "%s%u", o ? "," : "", i);
		if (j > i)
			o += snprintf(buf + o, len - o, "-%u", j);
		i = j;
	}
}

/* append "sep prefix list" to a growing string */
static int append(char **s, size_t *len, const char *piece)
{
	size_t pl = strlen(piece);
	char *n = realloc(*s, *len + pl + 2);

	if (!n)
		return -1;
	if (*len)
		n[(*len)++] = ' ';
	memcpy(n + *len, piece, pl + 1);
	*len += pl;
	*s = n;
	return 0;
}

int fl_topology_tags(const struct fl_topology *t, char **llc, char **node)
{
	unsigned char *mask = calloc(t->nr_cpus ? t->nr_cpus : 1, 1);
	size_t cap = (size_t)t->nr_cpus * 12 + 32, ll = 0, nl = 0;
	char *buf = malloc(cap), *piece = malloc(cap + 16);
	int maxnode = -1, rc = 0;

	*llc = *node = NULL;
	if (!mask || !buf || !piece) {
		rc = -1;
		goto out;
	}
	for (unsigned int k = 0; k < t->nr_llc && !rc; k++) {
		for (unsigned int c = 0; c < t->nr_cpus; c++)
			mask[c] = t->cpu[c].llc == (int)k;
		fl_cpulist_format(mask, t->nr_cpus, buf, cap);
		rc = append(llc, &ll, buf);
	}
	for (unsigned int c = 0; c < t->nr_cpus; c++)
		if (t->cpu[c].node > maxnode)
			maxnode = t->cpu[c].node;
	for (int nd = 0; nd <= maxnode && !rc; nd++) {
		int any = 0;

		for (unsigned int c = 0; c < t->nr_cpus; c++)
			any |= (mask[c] = t->cpu[c].node == nd);
		if (!any)
			continue;
		fl_cpulist_format(mask, t->nr_cpus, buf, cap);
		snprintf(piece, cap + 16, "%d:%s", nd, buf);
		rc = append(node, &nl, piece);
	}
out:
	free(mask);
	free(buf);
	free(piece);
	if (rc) {
		free(*llc);
		free(*node);
		*llc = *node = NULL;
	}
	return rc;
}

int fl_topology_from_tags(const char *llc, const char *node, unsigned int nr_cpus,
			  struct fl_topology *t, char *err, size_t errlen)
{
	unsigned char *mask;
	char *copy = NULL, *save = NULL, *tok;

	memset(t, 0, sizeof(*t));
	if (!llc && !node)
		return fl_fail(err, errlen, "no topology_llc/topology_node tags");
	t->nr_cpus = nr_cpus;
	t->cpu = calloc(nr_cpus ? nr_cpus : 1, sizeof(*t->cpu));
	mask = calloc(nr_cpus ? nr_cpus : 1, 1);
	if (!t->cpu || !mask)
		goto oom;
	for (unsigned int c = 0; c < nr_cpus; c++)
		t->cpu[c] = (struct fl_cpu_topo){ 1, -1, -1, -1, -1 };
	if (llc) {
		copy = strdup(llc);
		if (!copy)
			goto oom;
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			memset(mask, 0, nr_cpus);
			if (fl_cpulist_parse(tok, mask, nr_cpus)) {
				fl_fail(err, errlen, "topology_llc: bad cpu list '%s' (for %u CPUs)",
				     tok, nr_cpus);
				goto bad;
			}
			for (unsigned int c = 0; c < nr_cpus; c++)
				if (mask[c])
					t->cpu[c].llc = t->nr_llc;
			t->nr_llc++;
		}
		free(copy);
		copy = NULL;
	}
	if (node) {
		copy = strdup(node);
		if (!copy)
			goto oom;
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			char *colon = strchr(tok, ':'), *end;
			long nd;

			nd = colon ? strtol(tok, &end, 10) : -1;
			if (!colon || end != colon || nd < 0 || nd > 65535) {
				fl_fail(err, errlen, "topology_node: bad entry '%s'", tok);
				goto bad;
			}
			memset(mask, 0, nr_cpus);
			if (fl_cpulist_parse(colon + 1, mask, nr_cpus)) {
				fl_fail(err, errlen, "topology_node: bad cpu list '%s'", colon + 1);
				goto bad;
			}
			for (unsigned int c = 0; c < nr_cpus; c++)
				if (mask[c])
					t->cpu[c].node = (int)nd;
			t->nr_nodes++;
		}
	}
	free(copy);
	free(mask);
	return 0;
oom:
	fl_fail(err, errlen, "out of memory");
bad:
	free(copy);
	free(mask);
	fl_topology_free(t);
	return -1;
}
