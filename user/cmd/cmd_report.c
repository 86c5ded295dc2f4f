// SPDX-License-Identifier: GPL-2.0
/*
 * faultline report FILE|DIR [--per-cpu] [--hist] [--raw]: totals, a per-CPU
 * table, bcc-style histograms; every figure the recording could not measure
 * is printed as unavailable / absent with the reason.
 */
#include <getopt.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "errbuf.h"
#include "export.h"
#include "blame_report.h"
#include "phases.h"
#include "report_common.h"
#include "selfcost.h"
#include "topology.h"

/* A pft-sweep result directory: it has pft-<N>.log files. */
static bool is_sweep_dir(const char *path)
{
	char pat[4096];
	glob_t g;
	bool yes;

	snprintf(pat, sizeof(pat), "%s/pft-[0-9]*.log", path);
	yes = glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0;
	globfree(&g);
	return yes;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: faultline report FILE|DIR [--per-cpu] [--hist] [--phases] [--locks] [--blame]\n"
"                        [--by cpu|llc|node] [--raw]\n"
"  FILE|DIR     a snapshot, or a directory of interval snapshots (merged); with\n"
"               --phases/--locks also a pft-sweep directory (a row per thread count)\n"
"  --per-cpu    per-CPU table: faults, latency p50/p90/p99/max, lockless attempts,\n"
"               abort %%, retry %%, mmap_lock wait p99\n"
"  --hist       bcc-style histograms (nsecs, power-of-two rows)\n"
"  --phases     per-CPU fault phases (recorded with record --phases)\n"
"  --locks      per-CPU contended lock classes (recorded with record --locks)\n"
"  --blame      who held mmap_lock for write while faults waited (record --blame)\n"
"  --by G       rows of the --phases/--locks tables per cpu (default), llc or node\n"
"               (from the snapshot's topology tags)\n"
"  --raw        key=value lines for scripts (unmeasured figures say why); with\n"
"               phase, lock-class and blame keys when recorded with --phases/--locks/--blame\n");
}

static void cell_ns(char *buf, size_t len, const struct fl_hist *h, unsigned int ppm, bool ok)
{
	if (!ok)
		snprintf(buf, len, "n/a");
	else if (!h->count)
		snprintf(buf, len, "-");
	else if (ppm >= 1000000)
		fl_fmt_ns(buf, len, h->max);
	else
		fl_fmt_ns(buf, len, fl_hist_quantile_ppm(h, ppm));
}

static void print_per_cpu(const struct fl_snapshot *s)
{
	const char *why;
	bool lat = fl_figure_avail(s, FL_FIG_LATENCY, &why) == FL_AVAIL_YES;
	bool ll = fl_figure_avail(s, FL_FIG_LOCKLESS, &why) == FL_AVAIL_YES;
	bool mm = fl_figure_avail(s, FL_FIG_MMAP, &why) == FL_AVAIL_YES;
	unsigned int idle = 0;

	printf("\n%4s %10s %9s %9s %9s %9s %10s %7s %7s %10s\n", "CPU", "faults", "p50", "p90",
	       "p99", "max", "lockless", "abort%", "retry%", "mmwait99");
	for (unsigned int c = 0; c < s->hdr.nr_cpus; c++) {
		const struct fl_cpu_stats *cs = &s->cpus[c];
		unsigned long long faults = cs->cnt[FL_C_FAULTS_USER] + cs->cnt[FL_C_FAULTS_KERNEL];
		char p50[16], p90[16], p99[16], mx[16], att[16], ab[16], rt[16], mw[16];
		struct fl_hist wait;
		bool active = faults != 0;

		memcpy(&wait, &cs->hist[FL_H_MMAP_WAIT_R], sizeof(wait));
		fl_hist_merge(&wait, &cs->hist[FL_H_MMAP_WAIT_W]);
		if (wait.count || cs->hist[FL_H_MMAP_HOLD_R].count || cs->hist[FL_H_MMAP_HOLD_W].count)
			active = true;
		if (!active) {
			idle++;
			continue;
		}
		cell_ns(p50, sizeof(p50), &cs->hist[FL_H_FAULT_LAT], 500000, lat);
		cell_ns(p90, sizeof(p90), &cs->hist[FL_H_FAULT_LAT], 900000, lat);
		cell_ns(p99, sizeof(p99), &cs->hist[FL_H_FAULT_LAT], 990000, lat);
		cell_ns(mx, sizeof(mx), &cs->hist[FL_H_FAULT_LAT], 1000000, lat);
		cell_ns(mw, sizeof(mw), &wait, 990000, mm);
		if (ll) {
			snprintf(att, sizeof(att), "%llu", cs->ll[FL_LL_ATTEMPTED]);
			fl_fmt_pct_of(ab, sizeof(ab), cs->ll[FL_LL_ABORTED], cs->ll[FL_LL_ATTEMPTED]);
			fl_fmt_pct_of(rt, sizeof(rt), cs->ll[FL_LL_RETRIED], cs->ll[FL_LL_ATTEMPTED]);
		} else {
			snprintf(att, sizeof(att), "n/a");
			snprintf(ab, sizeof(ab), "n/a");
			snprintf(rt, sizeof(rt), "n/a");
		}
		printf("%4u %10llu %9s %9s %9s %9s %10s %7s %7s %10s\n", c, faults, p50, p90, p99,
		       mx, att, ab, rt, mw);
	}
	if (idle)
		printf("(%u CPU(s) without traced events not shown)\n", idle);
	if (!lat || !ll || !mm) {
		char buf[256];
		enum fl_avail a;

		if (!lat) {
			a = fl_figure_avail(s, FL_FIG_LATENCY, &why);
			fl_fmt_unavail(buf, sizeof(buf), a, why);
			printf("n/a latency: %s\n", buf);
		}
		if (!ll) {
			a = fl_figure_avail(s, FL_FIG_LOCKLESS, &why);
			fl_fmt_unavail(buf, sizeof(buf), a, why);
			printf("n/a lockless: %s\n", buf);
		}
		if (!mm) {
			a = fl_figure_avail(s, FL_FIG_MMAP, &why);
			fl_fmt_unavail(buf, sizeof(buf), a, why);
			printf("n/a mmwait99: %s\n", buf);
		}
	}
}


static void print_hists(const struct fl_snapshot *s, const struct fl_cpu_stats *t)
{
	for (unsigned int id = 0; id < FL_H_NR; id++) {
		const char *why;
		enum fl_avail a = fl_figure_avail(s, fl_hist_figure(id), &why);
		char title[128], buf[256];

		if (a != FL_AVAIL_YES) {
			fl_fmt_unavail(buf, sizeof(buf), a, why);
			printf("\n%s: %s\n", fl_hist_name(id), buf);
			continue;
		}
		if (!t->hist[id].count) {
			printf("\n%s: no events\n", fl_hist_name(id));
			continue;
		}
		snprintf(title, sizeof(title), "%s (n=%llu)", fl_hist_name(id), t->hist[id].count);
		fl_print_log2_hist(stdout, &t->hist[id], title);
	}
}

/* record --self-cost: totals and "bpf_run.<program>=<runs> <ns>" as stored */
static void raw_selfcost(const struct fl_snapshot *s)
{
	unsigned long long runs, ns;
	unsigned int n;
	struct fl_selfcost_entry *e = fl_selfcost_get(s, &n, &runs, &ns);

	if (!e)
		return;
	for (unsigned int i = 0; i < n; i++)
		printf(FL_SELFCOST_PREFIX "%s=%llu %llu\n", e[i].name, e[i].runs, e[i].ns);
	printf("self_cost.runs=%llu\nself_cost.ns=%llu\n", runs, ns);
	free(e);
}

static void raw_unavail(const char *key, enum fl_avail a, const char *why)
{
	printf("%s=%s (%s)\n", key, a == FL_AVAIL_ABSENT ? "absent" : "unavailable", why);
}

/* The per-skeleton, per-figure and per-program skipped runs (fl_bpf_tag_lost), as tagged. */
static void raw_lost(const struct fl_snapshot *s)
{
	static const char *const pre[] = { FL_TAG_BPF_SKEL_MISSES_PREFIX, FL_TAG_BPF_LOST_PREFIX,
					   FL_TAG_BPF_PROG_MISSES_PREFIX,
					   FL_TAG_BPF_PREEMPT_GUARD "=" };
	const char *p = s->tags;

	for (unsigned int i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		for (p = s->tags; p && *p;) {
			const char *eol = strchr(p, '\n');
			size_t n = eol ? (size_t)(eol - p) : strlen(p);

			if (!strncmp(p, pre[i], strlen(pre[i])))
				printf("%.*s\n", (int)n, p);
			p += n + (eol != NULL);
		}
}

static void print_raw(const struct fl_snapshot *s, const struct fl_cpu_stats *t,
		      unsigned int nfiles)
{
	const struct fl_snap_header *h = &s->hdr;
	const char *why;
	enum fl_avail a;

	printf("backend=%s\ntier=%s\nkernel=%s\nnr_cpus=%u\nsnapshots=%u\nduration_ns=%llu\n",
	       fl_backend_name(h->backend), fl_tier_name(h->tier), h->kernel_release,
	       h->nr_cpus, nfiles, h->duration_ns);
	printf("filter_tgid=%u\nlockless_kind=%s\nhooks_live=", h->filter_tgid,
	       fl_ll_kind_name(h->lockless_kind));
	for (unsigned int i = 0, n = 0; i < FL_HOOK_NR; i++)
		if (h->hooks_live & (1ULL << i))
			printf("%s%s", n++ ? "," : "", fl_hook_name(i));
	printf("\nhooks_absent=");
	for (unsigned int i = 0, n = 0; i < FL_HOOK_NR; i++)
		if (h->hooks_absent & (1ULL << i))
			printf("%s%s", n++ ? "," : "", fl_hook_name(i));
	printf("\n");

	for (unsigned int i = 0; i < FL_C_NR; i++) {
		enum fl_figure fig;

		if (!strcmp(fl_counter_name(i), "unknown"))
			continue;
		fig = fl_counter_figure(i);
		a = fl_figure_avail(s, fig, &why);
		if (a == FL_AVAIL_YES)
			printf("%s=%llu\n", fl_counter_name(i), t->cnt[i]);
		else
			raw_unavail(fl_counter_name(i), a, why);
	}
	a = fl_figure_avail(s, FL_FIG_LOCKLESS, &why);
	for (unsigned int i = 0; i < FL_LL_NR; i++) {
		if (a == FL_AVAIL_YES)
			printf("%s=%llu\n", fl_ll_name(i), t->ll[i]);
		else
			raw_unavail(fl_ll_name(i), a, why);
	}
	for (unsigned int id = 0; id < FL_H_NR; id++) {
		const struct fl_hist *hh = &t->hist[id];
		static const struct { const char *k; unsigned int ppm; } q[] = {
			{ "p50", 500000 }, { "p90", 900000 }, { "p99", 990000 },
		};

		a = fl_figure_avail(s, fl_hist_figure(id), &why);
		if (a != FL_AVAIL_YES) {
			char key[64];

			snprintf(key, sizeof(key), "%s.count", fl_hist_name(id));
			raw_unavail(key, a, why);
			continue;
		}
		printf("%s.count=%llu\n%s.sum_ns=%llu\n", fl_hist_name(id), hh->count,
		       fl_hist_name(id), hh->sum);
		if (!hh->count)
			continue;
		printf("%s.min_ns=%llu\n%s.max_ns=%llu\n", fl_hist_name(id), hh->min,
		       fl_hist_name(id), hh->max);
		for (unsigned int k = 0; k < 3; k++)
			printf("%s.%s_ns=%llu\n", fl_hist_name(id), q[k].k,
			       fl_hist_quantile_ppm(hh, q[k].ppm));
	}
	if (fl_snapshot_tag(s, FL_TAG_BPF_RECURSION_MISSES))
		printf("bpf_recursion_misses=%s\n", fl_snapshot_tag(s, FL_TAG_BPF_RECURSION_MISSES));
	raw_lost(s);
	raw_selfcost(s);
	/* per CPU: what scripts need to check per-CPU sums and kept CPUs */
	for (unsigned int c = 0; c < h->nr_cpus; c++) {
		const struct fl_cpu_stats *cs = &s->cpus[c];

		if (s->cpu_online)
			printf("cpu%u.online=%u\n", c, s->cpu_online[c]);
		printf("cpu%u.faults_user=%llu\ncpu%u.faults_kernel=%llu\n", c,
		       cs->cnt[FL_C_FAULTS_USER], c, cs->cnt[FL_C_FAULTS_KERNEL]);
		if (fl_figure_avail(s, FL_FIG_LATENCY, &why) == FL_AVAIL_YES)
			printf("cpu%u.fault_latency.count=%llu\n", c,
			       cs->hist[FL_H_FAULT_LAT].count);
	}
	if (!s->nr_vmstat)
		printf("vmstat=unavailable (no /proc/vmstat section)\n");
	for (unsigned int i = 0; i < s->nr_vmstat; i++)
		printf("vmstat.%s=%lld\n", s->vmstat[i].name,
		       (long long)(s->vmstat[i].after - s->vmstat[i].before));
	fl_report_phases_raw(s, stdout);
	if (fl_snapshot_tag(s, FL_TAG_BLAME))
		fl_report_blame_raw(s, stdout);
}

/*
 * --by llc|node: group[cpu] from the snapshot's topology_llc / topology_node
 * tags (CPUs outside every domain: -1, left out of the rows, kept in the
 * total).  0, or -1 with err.
 */
static int topo_groups(const struct fl_snapshot *s, enum fl_by by, int **group,
		       unsigned int *ngroups, char *err, size_t errlen)
{
	const char *key = by == FL_BY_LLC ? FL_TAG_TOPOLOGY_LLC : FL_TAG_TOPOLOGY_NODE;
	const char *v = fl_snapshot_tag(s, key);
	struct fl_topology t = { 0 };
	char *llc = NULL, *node = NULL;
	unsigned int n = s->hdr.nr_cpus, max = 0;
	int *g;

	if (!v) {
		return fl_fail(err, errlen, "--by %s: the snapshot has no %s tag (recorded without "
			       "topology)", fl_by_name(by), key);
	}
	if (by == FL_BY_LLC)
		llc = strdup(v);
	else
		node = strdup(v);
	g = calloc(n ? n : 1, sizeof(*g));
	if (!g || (!llc && !node)) {
		free(g);
		free(llc);
		free(node);
		return fl_fail(err, errlen, "out of memory");
	}
	if (fl_topology_from_tags(llc, node, n, &t, err, errlen)) {
		free(g);
		free(llc);
		free(node);
		return -1;
	}
	for (unsigned int c = 0; c < n; c++) {
		g[c] = fl_topology_group(&t, by, c);
		if (g[c] >= 0 && (unsigned int)g[c] + 1 > max)
			max = (unsigned int)g[c] + 1;
	}
	fl_topology_free(&t);
	free(llc);
	free(node);
	*group = g;
	*ngroups = max;
	return 0;
}

int parse_report_args(int argc, char **argv, struct fl_report_args *a, char *err, size_t errlen)
{
	static const struct option opts[] = {
		{ "per-cpu", no_argument, NULL, 'c' },
		{ "hist", no_argument, NULL, 'H' },
		{ "raw", no_argument, NULL, 'r' },
		{ "phases", no_argument, NULL, 'P' },
		{ "locks", no_argument, NULL, 'L' },
		{ "blame", no_argument, NULL, 'W' },
		{ "by", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c;

	*a = (struct fl_report_args){ .by = FL_BY_CPU };
	err[0] = '\0';
	fl_getopt_start();
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			a->per_cpu = true;
			break;
		case 'H':
			a->hist = true;
			break;
		case 'r':
			a->raw = true;
			break;
		case 'P':
			a->phases = true;
			break;
		case 'L':
			a->locks = true;
			break;
		case 'W':
			a->blame = true;
			break;
		case 'B':
			if (fl_by_parse(optarg, &a->by))
				return fl_args_bad(err, errlen, "--by wants cpu, llc or node, "
					"got '%s'", optarg);
			break;
		case 'h':
			return FL_ARGS_HELP;
		default:
			return fl_args_getopt_bad(c, argv, opts, err, errlen);
		}
	}
	if (optind >= argc)
		return fl_args_bad(err, errlen, "missing FILE|DIR");
	if (optind < argc - 1)
		return fl_args_bad(err, errlen, "unexpected argument '%s'", argv[optind + 1]);
	if (a->by != FL_BY_CPU && !a->phases && !a->locks)
		return fl_args_bad(err, errlen, "--by applies to --phases/--locks");
	a->path = argv[optind];
	return FL_ARGS_RUN;
}

int cmd_report(int argc, char **argv)
{
	struct fl_report_args a;
	struct fl_phases_report_opts po = { 0 };
	int *group = NULL;
	int ret = 0;
	struct fl_snapshot s;
	struct fl_cpu_stats *tot;
	unsigned int nfiles;
	char err[512];
	int rc;

	rc = fl_args_exit(parse_report_args(argc, argv, &a, err, sizeof(err)), "report", err,
			  usage);
	if (rc >= 0)
		return rc;
	if ((a.phases || a.locks) && is_sweep_dir(a.path)) {
		if (a.raw || a.per_cpu || a.hist || a.by != FL_BY_CPU)
			return fl_usage_error("report", "a sweep directory takes --phases/--locks "
					      "only");
		if (fl_report_phases_sweep(a.path, stdout, a.phases, a.locks, err, sizeof(err))) {
			fprintf(stderr, "faultline report: %s\n", err);
			return 1;
		}
		return 0;
	}
	if (fl_snapshot_load(a.path, &s, &nfiles, err, sizeof(err))) {
		fprintf(stderr, "faultline report: %s\n", err);
		return 1;
	}
	if (s.no_checksums)
		fprintf(stderr, "faultline report: note: %s: %s\n", a.path, FL_SNAP_NO_CRC_NOTE);
	tot = calloc(1, sizeof(*tot));
	if (!tot) {
		fprintf(stderr, "faultline report: out of memory\n");
		fl_snapshot_free(&s);
		return 1;
	}
	fl_snapshot_total(&s, tot);
	if (a.by != FL_BY_CPU && !a.raw) {
		if (topo_groups(&s, a.by, &group, &po.nr_groups, err, sizeof(err))) {
			fprintf(stderr, "faultline report: %s\n", err);
			free(tot);
			fl_snapshot_free(&s);
			return 1;
		}
		po.group = group;
		po.group_len = s.hdr.nr_cpus;
		po.group_label = fl_by_name(a.by);
	}
	if (a.raw) {
		print_raw(&s, tot, nfiles);
	} else {
		const char *cmd = fl_snapshot_tag(&s, FL_TAG_COMMAND);

		printf("faultline report: %s", a.path);
		if (nfiles > 1)
			printf(" (%u interval snapshots merged)", nfiles);
		printf("\n");
		if (cmd)
			printf("command: %s\n", cmd);
		fl_print_summary(stdout, &s, tot);
		if (a.per_cpu)
			print_per_cpu(&s);
		if (a.hist)
			print_hists(&s, tot);
		if (a.phases) {
			printf("\n");
			if (fl_report_phases(&s, stdout, &po))
				ret = 1;
		}
		if (a.locks) {
			printf("\n");
			if (fl_report_locks(&s, stdout, &po))
				ret = 1;
		}
		if (a.blame && fl_report_blame(&s, stdout))
			ret = 1;
	}
	free(group);
	free(tot);
	fl_snapshot_free(&s);
	return ret;
}
