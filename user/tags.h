/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Machine tags: what the seed report's TAGS block shows and more, read from
 * the machine at record/sweep time and stored in a snapshot's FL_SEC_TAGS:
 *
 *   kernel_version kernel_version_major kernel_version_minor
 *   machine_platform_arch (X86_64) machine_platform_genus (skylake, rome, ...)
 *   cpu_vendor cpu_family cpu_model cpu_stepping cpu_model_name
 *   machine_total_logical_cores machine_total_physical_cores machine_sockets
 *   machine_numa_nodes machine_llc_domains machine_llc_cpus machine_total_ram_gib
 *   thp_enabled thp_defrag user
 *   levelN_{icache,dcache,cache}_{size,assoc,linesize} (like getconf -a | grep CACHE,
 *   from cpu0's sysfs caches; level3_cache_size is one LLC domain's size,
 *   level3_cache_size_per_socket the getconf-like per-package total)
 *   topology_llc topology_node (the per-CPU layout, see topology.h; long on
 *   big machines: read them with fl_kv_get(), not fl_snapshot_tag())
 */
#ifndef FAULTLINE_TAGS_H
#define FAULTLINE_TAGS_H

#include "snapshot.h"

/* This machine.  0, or -1 when a tag could not be stored (out of memory). */
int fl_tags_collect(struct fl_snapshot *s);
/* Same, reading /proc and /sys under ROOT (tests: recorded trees). */
int fl_tags_collect_root(struct fl_snapshot *s, const char *root);

/* Genus from CPUID vendor/family/model/stepping; "unknown" when not in the table. */
const char *fl_cpu_genus(const char *vendor, unsigned int family, unsigned int model,
			 unsigned int stepping);

#endif
