// SPDX-License-Identifier: GPL-2.0
/*
 * user/tags.c + user/topology.c on sysfs/procfs trees made here: a 2-socket
 * Skylake-SP (28 cores / 56 threads per socket, one L3 per socket) and a
 * 2-socket Rome (64 cores / 128 threads per socket, one L3 per 4-core CCX).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "kv.h"
#include "pftlog.h"
#include "tags.h"
#include "topology.h"

static void mkdirs(const char *path)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
}

static void wfile(const char *root, const char *path, const char *fmt, ...)
{
	char full[4096];
	va_list ap;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	mkdirs(full);
	f = fopen(full, "w");
	assert_non_null(f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

struct machine {
	const char *vendor, *model_name, *release;
	unsigned int family, model, stepping;
	unsigned int sockets, cores, llc_cores;	/* cores per socket, cores per L3 */
	const char *l2, *l3;
	unsigned int l2_ways, l3_ways;
	unsigned long long mem_kb;
	const char *online;			/* NULL: all */
};

/* Linux numbering: thread 0 of every core first, then the siblings. */
static void make_tree(const char *root, const struct machine *m)
{
	unsigned int ncores = m->sockets * m->cores, ncpu = 2 * ncores;
	char path[256];

	wfile(root, "/proc/sys/kernel/osrelease", "%s", m->release);
	wfile(root, "/proc/sys/kernel/arch", "x86_64");
	wfile(root, "/proc/meminfo", "MemTotal:       %llu kB\nMemFree:        1000 kB", m->mem_kb);
	wfile(root, "/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never");
	wfile(root, "/sys/kernel/mm/transparent_hugepage/defrag",
	      "always defer defer+madvise [madvise] never");
	wfile(root, "/proc/cpuinfo",
	      "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %u\nmodel\t\t: %u\n"
	      "model name\t: %s\nstepping\t: %u\n\nprocessor\t: 1\nvendor_id\t: %s\n",
	      m->vendor, m->family, m->model, m->model_name, m->stepping, m->vendor);
	wfile(root, "/sys/devices/system/cpu/possible", "0-%u", ncpu - 1);
	wfile(root, "/sys/devices/system/cpu/online", "%s", m->online ? m->online : "");
	if (!m->online)
		wfile(root, "/sys/devices/system/cpu/online", "0-%u", ncpu - 1);
	for (unsigned int s = 0; s < m->sockets; s++) {
		unsigned int a = s * m->cores, b = a + m->cores - 1;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", s);
		wfile(root, path, "%u-%u,%u-%u", a, b, a + ncores, b + ncores);
	}
	for (unsigned int cpu = 0; cpu < ncpu; cpu++) {
		unsigned int core = cpu % ncores, sock = core / m->cores, cid = core % m->cores;
		unsigned int l3a = sock * m->cores + cid / m->llc_cores * m->llc_cores;
		unsigned int l3b = l3a + m->llc_cores - 1;
		static const char *const lv[] = { "1", "1", "2", "3" };
		static const char *const ty[] = { "Data", "Instruction", "Unified", "Unified" };

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/physical_package_id", cpu);
		wfile(root, path, "%u", sock);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/core_id", cpu);
		wfile(root, path, "%u", cid);
		for (int i = 0; i < 4; i++) {
			const char *size = i < 2 ? "32K" : i == 2 ? m->l2 : m->l3;
			unsigned int ways = i < 2 ? 8 : i == 2 ? m->l2_ways : m->l3_ways;

#define IDX(f) (snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cache/index%d/" f, cpu, i), path)
			wfile(root, IDX("level"), "%s", lv[i]);
			wfile(root, IDX("type"), "%s", ty[i]);
			wfile(root, IDX("size"), "%s", size);
			wfile(root, IDX("ways_of_associativity"), "%u", ways);
			wfile(root, IDX("coherency_line_size"), "64");
			if (i < 3)
				wfile(root, IDX("shared_cpu_list"), "%u,%u", core, core + ncores);
			else
				wfile(root, IDX("shared_cpu_list"), "%u-%u,%u-%u", l3a, l3b,
				      l3a + ncores, l3b + ncores);
#undef IDX
		}
	}
}

static const struct machine skylake = {
	"GenuineIntel", "Intel(R) Xeon(R) Platinum 8173M CPU @ 2.00GHz", "5.12.0-smp-DEV",
	6, 85, 4, 2, 28, 28, "1024K", "39424K", 16, 11, 192ULL << 20, NULL,
};
static const struct machine rome = {
	"AuthenticAMD", "AMD EPYC 7B12 64-Core Processor", "5.12.0-smp-DEV",
	23, 49, 0, 2, 64, 4, "512K", "16384K", 8, 16, 1024ULL << 20, NULL,
};

static char *mkroot(void)
{
	char *d = strdup("/tmp/fl-test-sysfs-XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void rmroot(char *d)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	assert_int_equal(system(cmd), 0);
	free(d);
}

static void expect_tag(struct fl_snapshot *s, const char *k, const char *v)
{
	const char *got = fl_snapshot_tag(s, k);

	if (!got || strcmp(got, v))
		fail_msg("tag %s: expected '%s', got '%s'", k, v, got ? got : "(none)");
}

static void test_skylake(void **state)
{
	char *root = mkroot(), err[256];
	struct fl_snapshot s;
	struct fl_topology t;

	(void)state;
	make_tree(root, &skylake);
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_tags_collect_root(&s, root), 0);
	expect_tag(&s, "kernel_version", "5.12.0-smp-DEV");
	expect_tag(&s, "kernel_version_major", "5");
	expect_tag(&s, "kernel_version_minor", "12");
	expect_tag(&s, "machine_platform_arch", "X86_64");
	expect_tag(&s, "machine_platform_genus", "skylake");
	expect_tag(&s, "cpu_vendor", "GenuineIntel");
	expect_tag(&s, "cpu_model", "85");
	expect_tag(&s, "machine_total_logical_cores", "112");
	expect_tag(&s, "machine_total_physical_cores", "56");
	expect_tag(&s, "machine_sockets", "2");
	expect_tag(&s, "machine_numa_nodes", "2");
	expect_tag(&s, "machine_llc_domains", "2");
	expect_tag(&s, "machine_llc_cpus", "56");
	expect_tag(&s, "machine_total_ram_gib", "192");
	expect_tag(&s, "thp_enabled", "madvise");
	/* the seed's getconf block: LEVEL1_DCACHE_SIZE 32768 ... LEVEL3_CACHE_SIZE 40370176 */
	expect_tag(&s, "level1_dcache_size", "32768");
	expect_tag(&s, "level1_icache_assoc", "8");
	expect_tag(&s, "level2_cache_size", "1048576");
	expect_tag(&s, "level3_cache_size", "40370176");
	expect_tag(&s, "level3_cache_size_per_socket", "40370176");
	expect_tag(&s, "level3_cache_linesize", "64");
	fl_snapshot_free(&s);

	assert_int_equal(fl_topology_read(root, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nr_cpus, 112);
	assert_int_equal(t.nr_llc, 2);
	assert_int_equal(t.llc_level, 3);
	/* one L3 per socket: 0, 27 and sibling 56 share; 28 does not */
	assert_int_equal(t.cpu[0].llc, t.cpu[27].llc);
	assert_int_equal(t.cpu[0].llc, t.cpu[56].llc);
	assert_int_not_equal(t.cpu[0].llc, t.cpu[28].llc);
	assert_int_equal(t.cpu[84].llc, t.cpu[28].llc);
	assert_int_equal(t.cpu[84].node, 1);
	assert_int_equal(fl_topology_group(&t, FL_BY_NODE, 60), 0);
	assert_int_equal(fl_topology_group(&t, FL_BY_CPU, 60), 60);
	fl_topology_free(&t);
	rmroot(root);
}

static void test_rome(void **state)
{
	char *root = mkroot(), err[256];
	struct fl_snapshot s;
	struct fl_topology t;

	(void)state;
	make_tree(root, &rome);
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_tags_collect_root(&s, root), 0);
	expect_tag(&s, "machine_platform_genus", "rome");
	expect_tag(&s, "machine_total_logical_cores", "256");
	expect_tag(&s, "machine_total_physical_cores", "128");
	expect_tag(&s, "machine_sockets", "2");
	expect_tag(&s, "machine_llc_domains", "32");
	expect_tag(&s, "machine_llc_cpus", "8");
	expect_tag(&s, "machine_total_ram_gib", "1024");
	/* the seed's getconf block for Rome: LEVEL2 524288, LEVEL3 268435456 (per socket) */
	expect_tag(&s, "level2_cache_size", "524288");
	expect_tag(&s, "level3_cache_size", "16777216");
	expect_tag(&s, "level3_cache_size_per_socket", "268435456");
	{
		/* the layout travels in the snapshot's tags and comes back the same */
		static char llc[8192], node[8192];
		struct fl_topology r;

		assert_non_null(fl_kv_get(s.tags, "topology_llc", llc, sizeof(llc)));
		assert_non_null(fl_kv_get(s.tags, "topology_node", node, sizeof(node)));
		assert_int_equal(strncmp(llc, "0-3,128-131 4-7,132-135 ", 24), 0);
		assert_string_equal(node, "0:0-63,128-191 1:64-127,192-255");
		assert_int_equal(fl_topology_from_tags(llc, node, 256, &r, err, sizeof(err)), 0);
		assert_int_equal(r.nr_llc, 32);
		for (unsigned int c = 0; c < 256; c++) {
			assert_int_equal(r.cpu[c].llc, (int)((c % 128) / 4));
			assert_int_equal(r.cpu[c].node, (int)((c % 128) / 64));
		}
		fl_topology_free(&r);
		assert_int_equal(fl_topology_from_tags(llc, node, 128, &r, err, sizeof(err)), -1);
		assert_int_equal(fl_topology_from_tags(NULL, "0-3", 8, &r, err, sizeof(err)), -1);
	}
	fl_snapshot_free(&s);

	assert_int_equal(fl_topology_read(root, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nr_llc, 32);
	assert_int_equal(t.llc_per_package, 16);
	/* CCX of 4 cores: 0-3 and their siblings 128-131 */
	assert_int_equal(t.cpu[0].llc, t.cpu[3].llc);
	assert_int_equal(t.cpu[0].llc, t.cpu[131].llc);
	assert_int_not_equal(t.cpu[0].llc, t.cpu[4].llc);
	assert_int_not_equal(t.cpu[63].llc, t.cpu[64].llc);
	for (unsigned int c = 0; c < 256; c++) {
		unsigned int core = c % 128;

		assert_int_equal(t.cpu[c].llc, (int)(core / 4));
		assert_int_equal(t.cpu[c].node, (int)(core / 64));
	}
	fl_topology_free(&t);
	rmroot(root);
}

static void test_offline_and_bad(void **state)
{
	struct machine m = rome;
	char *root = mkroot(), err[256];
	struct fl_topology t;
	struct fl_snapshot s;

	(void)state;
	m.online = "0-127,129-255";	/* one sibling offline */
	make_tree(root, &m);
	assert_int_equal(fl_topology_read(root, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nr_online, 255);
	assert_int_equal(t.nr_cores, 128);
	fl_topology_free(&t);
	wfile(root, "/sys/devices/system/cpu/cpu5/cache/index3/shared_cpu_list", "4-x");
	assert_int_equal(fl_topology_read(root, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cpu5"));
	/* tags still come out (topology ones missing), never garbage */
	memset(&s, 0, sizeof(s));
	assert_int_equal(fl_tags_collect_root(&s, root), 0);
	assert_null(fl_snapshot_tag(&s, "machine_llc_domains"));
	expect_tag(&s, "machine_platform_genus", "rome");
	fl_snapshot_free(&s);
	rmroot(root);
	/* no tree at all */
	assert_int_equal(fl_topology_read("/nonexistent-fl-root", &t, err, sizeof(err)), -1);
}

static void test_genus_table(void **state)
{
	(void)state;
	assert_string_equal(fl_cpu_genus("GenuineIntel", 6, 85, 4), "skylake");
	assert_string_equal(fl_cpu_genus("GenuineIntel", 6, 85, 7), "cascadelake");
	assert_string_equal(fl_cpu_genus("GenuineIntel", 6, 85, 11), "cooperlake");
	assert_string_equal(fl_cpu_genus("GenuineIntel", 6, 106, 6), "icelake");
	assert_string_equal(fl_cpu_genus("GenuineIntel", 6, 143, 8), "sapphirerapids");
	assert_string_equal(fl_cpu_genus("AuthenticAMD", 23, 49, 0), "rome");
	assert_string_equal(fl_cpu_genus("AuthenticAMD", 25, 1, 1), "milan");
	assert_string_equal(fl_cpu_genus("AuthenticAMD", 25, 17, 1), "genoa");
	assert_string_equal(fl_cpu_genus("AuthenticAMD", 23, 49 + 0x100, 0), "unknown");
	assert_string_equal(fl_cpu_genus("GenuineIntel", 6, 1, 0), "unknown");
	assert_string_equal(fl_cpu_genus("AuthenticAMD", 6, 85, 4), "unknown");
}

static void test_cpulist(void **state)
{
	unsigned char m[16] = { 0 };

	(void)state;
	assert_int_equal(fl_cpulist_parse("0-2,5,7-8", m, 16), 0);
	assert_true(m[0] && m[1] && m[2] && !m[3] && m[5] && m[7] && m[8] && !m[9]);
	assert_int_equal(fl_cpulist_parse("3-1", m, 16), -1);
	assert_int_equal(fl_cpulist_parse("0-16", m, 16), -1);
	assert_int_equal(fl_cpulist_parse("a", m, 16), -1);
	/* the one parser of sysfs cpulists: topology and the online CPUs (backend_bpf.c) */
	memset(m, 0, sizeof(m));
	assert_int_equal(fl_cpulist_parse("0-3,8,10-11\n", m, 16), 0);
	for (int i = 0; i < 16; i++)
		assert_int_equal(m[i], i <= 3 || i == 8 || i == 10 || i == 11);
	memset(m, 0, sizeof(m));
	assert_int_equal(fl_cpulist_parse("", m, 16), 0);	/* no CPUs (an empty node) */
	for (int i = 0; i < 16; i++)
		assert_int_equal(m[i], 0);
	assert_int_equal(fl_cpulist_parse("15", m, 16), 0);
	assert_true(m[15]);
	assert_int_equal(fl_cpulist_parse("\n", m, 16), -1);	/* a lone newline is refused */
	assert_int_equal(fl_cpulist_parse("0-3,", m, 16), -1);
	assert_int_equal(fl_cpulist_parse("1,,2", m, 16), -1);
	assert_int_equal(fl_cpulist_parse(" 1", m, 16), -1);
	assert_int_equal(fl_cpulist_parse("1-", m, 16), -1);
	assert_int_equal(fl_cpulist_parse("-1", m, 16), -1);
	assert_int_equal(fl_cpulist_parse("1 2", m, 16), -1);
	assert_int_equal(fl_cpulist_parse("99999999999999999999999", m, 16), -1);
	assert_int_equal(fl_parse_size("32K"), 32768);
	assert_int_equal(fl_parse_size("16M"), 16 << 20);
	assert_int_equal(fl_parse_size("x"), 0);
	/* random lists: in-range ids only, never a write past the mask */
	srandom(3);
	for (int n = 0; n < 20000; n++) {
		static const char alpha[] = "0123456789,-: x";
		unsigned char big[17] = { 0 };
		char s[40];
		int len = random() % 39;

		for (int i = 0; i < len; i++)
			s[i] = alpha[random() % (sizeof(alpha) - 1)];
		s[len] = '\0';
		fl_cpulist_parse(s, big, 16);
		assert_int_equal(big[16], 0);
	}
}

/* kv.c: the one walk of key=value lines, behind fl_kv_get and compare's sweep.conf keys. */
static void test_kv_lines(void **state)
{
	static const char text[] = "a=1\n  export PFT_X=\"2\"\r\n\n\tb\nlast=3";
	static const char *const want[] = { "a=1", "PFT_X=\"2\"\r", "", "b", "last=3" };
	const char *p = text, *start, *end;
	char buf[8];
	unsigned int n = 0;

	(void)state;
	while (*p) {
		p = fl_kv_line(p, &start, &end);
		assert_true(n < 5);
		assert_int_equal((size_t)(end - start), strlen(want[n]));
		assert_memory_equal(start, want[n], end - start);
		n++;
	}
	assert_int_equal(n, 5);
	assert_string_equal(fl_kv_get(text, "PFT_X", buf, sizeof(buf)), "2");	/* quotes, CR off */
	assert_string_equal(fl_kv_get(text, "last", buf, sizeof(buf)), "3");
	assert_string_equal(fl_kv_get(text, "a", buf, 1), "");			/* truncated to fit */
	assert_null(fl_kv_get(text, "b", buf, sizeof(buf)));			/* no '=' */
	assert_null(fl_kv_get(text, "PFT", buf, sizeof(buf)));
	assert_null(fl_kv_get(NULL, "a", buf, sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skylake),
		cmocka_unit_test(test_rome),
		cmocka_unit_test(test_offline_and_bad),
		cmocka_unit_test(test_genus_table),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_kv_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
