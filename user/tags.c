// SPDX-License-Identifier: GPL-2.0
/* Machine tags (see tags.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kboot.h"
#include "tags.h"
#include "topology.h"

struct genus {
	const char *vendor;
	unsigned int family, model_lo, model_hi;
	unsigned int step_lo, step_hi;
	const char *name;
};

/* CPUID display family/model; server parts first where they share a model. */
static const struct genus genera[] = {
	{ "GenuineIntel", 6, 0x2d, 0x2d, 0, 255, "sandybridge" },
	{ "GenuineIntel", 6, 0x2a, 0x2a, 0, 255, "sandybridge" },
	{ "GenuineIntel", 6, 0x3a, 0x3a, 0, 255, "ivybridge" },
	{ "GenuineIntel", 6, 0x3e, 0x3e, 0, 255, "ivybridge" },
	{ "GenuineIntel", 6, 0x3c, 0x3c, 0, 255, "haswell" },
	{ "GenuineIntel", 6, 0x3f, 0x3f, 0, 255, "haswell" },
	{ "GenuineIntel", 6, 0x45, 0x46, 0, 255, "haswell" },
	{ "GenuineIntel", 6, 0x3d, 0x3d, 0, 255, "broadwell" },
	{ "GenuineIntel", 6, 0x47, 0x47, 0, 255, "broadwell" },
	{ "GenuineIntel", 6, 0x4f, 0x4f, 0, 255, "broadwell" },
	{ "GenuineIntel", 6, 0x56, 0x56, 0, 255, "broadwell" },
	/* model 0x55: Skylake-SP steppings 0-4, Cascade Lake 5-7, Cooper Lake 10-11 */
	{ "GenuineIntel", 6, 0x55, 0x55, 0, 4, "skylake" },
	{ "GenuineIntel", 6, 0x55, 0x55, 5, 7, "cascadelake" },
	{ "GenuineIntel", 6, 0x55, 0x55, 10, 11, "cooperlake" },
	{ "GenuineIntel", 6, 0x4e, 0x4e, 0, 255, "skylake" },
	{ "GenuineIntel", 6, 0x5e, 0x5e, 0, 255, "skylake" },
	{ "GenuineIntel", 6, 0x8e, 0x8e, 0, 255, "kabylake" },
	{ "GenuineIntel", 6, 0x9e, 0x9e, 0, 255, "kabylake" },
	{ "GenuineIntel", 6, 0xa5, 0xa6, 0, 255, "cometlake" },
	{ "GenuineIntel", 6, 0x6a, 0x6a, 0, 255, "icelake" },
	{ "GenuineIntel", 6, 0x6c, 0x6c, 0, 255, "icelake" },
	{ "GenuineIntel", 6, 0x7d, 0x7e, 0, 255, "icelake" },
	{ "GenuineIntel", 6, 0x8c, 0x8d, 0, 255, "tigerlake" },
	{ "GenuineIntel", 6, 0x97, 0x97, 0, 255, "alderlake" },
	{ "GenuineIntel", 6, 0x9a, 0x9a, 0, 255, "alderlake" },
	{ "GenuineIntel", 6, 0xb7, 0xb7, 0, 255, "raptorlake" },
	{ "GenuineIntel", 6, 0xba, 0xba, 0, 255, "raptorlake" },
	{ "GenuineIntel", 6, 0xbf, 0xbf, 0, 255, "raptorlake" },
	{ "GenuineIntel", 6, 0x8f, 0x8f, 0, 255, "sapphirerapids" },
	{ "GenuineIntel", 6, 0xcf, 0xcf, 0, 255, "emeraldrapids" },
	{ "GenuineIntel", 6, 0xad, 0xae, 0, 255, "graniterapids" },
	{ "GenuineIntel", 6, 0xaf, 0xaf, 0, 255, "sierraforest" },
	{ "AuthenticAMD", 0x17, 0x00, 0x0f, 0, 255, "naples" },
	{ "AuthenticAMD", 0x17, 0x30, 0x3f, 0, 255, "rome" },
	{ "AuthenticAMD", 0x17, 0x70, 0x7f, 0, 255, "matisse" },
	{ "AuthenticAMD", 0x19, 0x00, 0x0f, 0, 255, "milan" },
	{ "AuthenticAMD", 0x19, 0x10, 0x1f, 0, 255, "genoa" },
	{ "AuthenticAMD", 0x19, 0x20, 0x2f, 0, 255, "vermeer" },
	{ "AuthenticAMD", 0x19, 0x60, 0x6f, 0, 255, "raphael" },
	{ "AuthenticAMD", 0x19, 0xa0, 0xaf, 0, 255, "bergamo" },
	{ "AuthenticAMD", 0x1a, 0x00, 0x1f, 0, 255, "turin" },
	{ "HygonGenuine", 0x18, 0x00, 0xff, 0, 255, "dhyana" },
};

const char *fl_cpu_genus(const char *vendor, unsigned int family, unsigned int model,
			 unsigned int stepping)
{
	for (size_t i = 0; i < sizeof(genera) / sizeof(genera[0]); i++) {
		const struct genus *g = &genera[i];

		if (vendor && !strcmp(vendor, g->vendor) && family == g->family &&
		    model >= g->model_lo && model <= g->model_hi &&
		    stepping >= g->step_lo && stepping <= g->step_hi)
			return g->name;
	}
	return "unknown";
}

static int set(struct fl_snapshot *s, const char *k, const char *v)
{
	/*
	 * A value with a newline (or a key, built from a file's content, with
	 * '=') cannot be a tag line: the tag is unavailable, which is not the
	 * out-of-memory failure fl_snapshot_set_tag()'s -1 would report.
	 */
	if (!*k || strpbrk(k, "=\n") || strchr(v, '\n'))
		return 0;
	return fl_snapshot_set_tag(s, k, v);
}

static int setu(struct fl_snapshot *s, const char *k, unsigned long long v)
{
	char b[32];

	snprintf(b, sizeof(b), "%llu", v);
	return set(s, k, b);
}

/* value of "key<tabs>: value" in the first block of /proc/cpuinfo */
static int cpuinfo_field(const char *text, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p; ) {
		const char *eol = strchr(p, '\n'), *c;

		if (!eol)
			eol = p + strlen(p);
		if (eol == p)		/* blank line: end of the first processor */
			break;
		if (!strncmp(p, key, kl) && (p[kl] == '\t' || p[kl] == ' ' || p[kl] == ':')) {
			c = memchr(p, ':', eol - p);
			if (c) {
				size_t n;

				c++;
				while (*c == ' ')
					c++;
				n = eol - c;
				if (n >= len)
					n = len - 1;
				memcpy(out, c, n);
				out[n] = '\0';
				return 0;
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return -1;
}

static int tag_cpu(struct fl_snapshot *s, const char *root)
{
	char path[4096], *text = NULL, vendor[64] = "", v[256];
	unsigned int fam = 0, model = 0, step = 0;
	int have_fam = 0, have_model = 0, r = 0;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root && strcmp(root, "/") ? root : "");
	f = fopen(path, "r");
	if (f) {
		/* the first processor block is enough */
		cap = 16384;
		text = calloc(1, cap + 1);
		if (text)
			fread(text, 1, cap, f);
		fclose(f);
	}
	if (text && !cpuinfo_field(text, "vendor_id", vendor, sizeof(vendor)))
		r |= set(s, "cpu_vendor", vendor);
	if (text && !cpuinfo_field(text, "cpu family", v, sizeof(v))) {
		fam = strtoul(v, NULL, 10);
		have_fam = 1;
		r |= set(s, "cpu_family", v);
	}
	if (text && !cpuinfo_field(text, "model", v, sizeof(v))) {
		model = strtoul(v, NULL, 10);
		have_model = 1;
		r |= set(s, "cpu_model", v);
	}
	if (text && !cpuinfo_field(text, "stepping", v, sizeof(v))) {
		step = strtoul(v, NULL, 10);
		r |= set(s, "cpu_stepping", v);
	}
	if (text && !cpuinfo_field(text, "model name", v, sizeof(v)))
		r |= set(s, "cpu_model_name", v);
	r |= set(s, "machine_platform_genus", have_fam && have_model && vendor[0] ?
		 fl_cpu_genus(vendor, fam, model, step) : "unknown");
	free(text);
	return r;
}

static int tag_kernel(struct fl_snapshot *s, const char *root)
{
	char rel[256] = "", arch[80] = "", build[256] = "";
	struct utsname u;
	unsigned int maj = 0, min = 0;
	int r = 0;

	if (fl_read_root(root, "/proc/sys/kernel/osrelease", rel, sizeof(rel)) || !rel[0]) {
		if (uname(&u) == 0)
			snprintf(rel, sizeof(rel), "%s", u.release);
	}
	/* `uname -v`: tells a patchset from its base when the release is the same */
	if (fl_read_root(root, "/proc/sys/kernel/version", build, sizeof(build)) || !build[0]) {
		if (uname(&u) == 0)
			snprintf(build, sizeof(build), "%s", u.version);
	}
	if (fl_read_root(root, "/proc/sys/kernel/arch", arch, sizeof(arch)) || !arch[0]) {
		if (uname(&u) == 0)
			snprintf(arch, sizeof(arch), "%s", u.machine);
	}
	if (rel[0]) {
		r |= set(s, FL_TAG_KERNEL_VERSION, rel);
		if (!fl_release_version(rel, &maj, &min)) {
			r |= setu(s, "kernel_version_major", maj);
			r |= setu(s, "kernel_version_minor", min);
		}
	}
	if (build[0])
		r |= set(s, FL_TAG_KERNEL_BUILD, build);
	for (char *p = arch; *p; p++)
		*p = toupper((unsigned char)*p);
	if (arch[0])
		r |= set(s, "machine_platform_arch", arch);
	return r;
}

static int tag_mem(struct fl_snapshot *s, const char *root)
{
	char buf[8192], v[128], *p;
	int r = 0;

	if (!fl_read_root(root, "/proc/meminfo", buf, sizeof(buf)) &&
	    (p = strstr(buf, "MemTotal:"))) {
		unsigned long long kb = strtoull(p + 9, NULL, 10);

		/* MemTotal (usable memory), rounded to the nearest GiB */
		if (kb)
			r |= setu(s, "machine_total_ram_gib", (kb + (1ULL << 19)) >> 20);
	}
	for (int i = 0; i < 2; i++) {
		const char *f = i ? "/sys/kernel/mm/transparent_hugepage/defrag" :
				    "/sys/kernel/mm/transparent_hugepage/enabled";
		char *a, *b;

		if (fl_read_root(root, f, v, sizeof(v)))
			continue;
		a = strchr(v, '[');
		b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = '\0';
			r |= set(s, i ? "thp_defrag" : "thp_enabled", a + 1);
		}
	}
	return r;
}

/* getconf-like cache tags from cpu0's sysfs caches */
static int tag_caches(struct fl_snapshot *s, const char *root, const struct fl_topology *t)
{
	int r = 0;

	for (int i = 0; i < 16; i++) {
		char path[256], lvl[16], type[32], size[32], ways[32], line[32], key[64];
		const char *kind;
		unsigned long long bytes;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (fl_read_root(root, path, lvl, sizeof(lvl)))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		if (fl_read_root(root, path, type, sizeof(type)))
			continue;
		kind = !strcmp(type, "Instruction") ? "icache" : !strcmp(type, "Data") ? "dcache" :
		       "cache";
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (!fl_read_root(root, path, size, sizeof(size)) && (bytes = fl_parse_size(size))) {
			snprintf(key, sizeof(key), "level%s_%s_size", lvl, kind);
			r |= setu(s, key, bytes);
			if (t && t->llc_level && (unsigned int)atoi(lvl) == t->llc_level &&
			    t->llc_per_package) {
				snprintf(key, sizeof(key), "level%s_%s_size_per_socket", lvl, kind);
				r |= setu(s, key, bytes * t->llc_per_package);
			}
		}
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/ways_of_associativity", i);
		if (!fl_read_root(root, path, ways, sizeof(ways))) {
			snprintf(key, sizeof(key), "level%s_%s_assoc", lvl, kind);
			r |= set(s, key, ways);
		}
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
		if (!fl_read_root(root, path, line, sizeof(line))) {
			snprintf(key, sizeof(key), "level%s_%s_linesize", lvl, kind);
			r |= set(s, key, line);
		}
	}
	return r;
}

int fl_tags_collect_root(struct fl_snapshot *s, const char *root)
{
	struct fl_topology t;
	char err[256];
	int r = 0, have_topo;

	r |= tag_kernel(s, root);
	r |= tag_cpu(s, root);
	have_topo = !fl_topology_read(root, &t, err, sizeof(err));
	if (have_topo) {
		r |= setu(s, "machine_total_logical_cores", t.nr_online);
		r |= setu(s, "machine_total_physical_cores", t.nr_cores);
		r |= setu(s, "machine_sockets", t.nr_packages);
		r |= setu(s, "machine_numa_nodes", t.nr_nodes);
		if (t.nr_llc) {
			unsigned int per = 0;

			for (unsigned int c = 0; c < t.nr_cpus; c++)
				per += t.cpu[c].online && t.cpu[c].llc == t.cpu[0].llc;
			r |= setu(s, "machine_llc_domains", t.nr_llc);
			r |= setu(s, "machine_llc_cpus", per);
		}
		{
			char *llc, *node;

			if (!fl_topology_tags(&t, &llc, &node)) {
				if (llc)
					r |= set(s, FL_TAG_TOPOLOGY_LLC, llc);
				if (node)
					r |= set(s, FL_TAG_TOPOLOGY_NODE, node);
				free(llc);
				free(node);
			}
		}
	} else {
		fprintf(stderr, "faultline: topology: %s\n", err);
	}
	r |= tag_mem(s, root);
	r |= tag_caches(s, root, have_topo ? &t : NULL);
	if (have_topo)
		fl_topology_free(&t);
	if (!root || !*root || !strcmp(root, "/")) {
		/* from the environment: getpwuid() is not usable in a static binary */
		const char *u = getenv("SUDO_USER");

		if (!u || !*u)
			u = getenv("USER");
		if (!u || !*u)
			u = getenv("LOGNAME");
		if (u && *u && !strpbrk(u, "\n="))
			r |= set(s, "user", u);
	}
	return r ? -1 : 0;
}

int fl_tags_collect(struct fl_snapshot *s)
{
	return fl_tags_collect_root(s, "");
}
