// SPDX-License-Identifier: GPL-2.0
/*
 * pft: page fault test.  Faults -m bytes of anonymous memory with -t threads
 * or -n processes and prints the classic pft line:
 *
 *   Gb Thr CLine User System Wall flt/cpu/s fault/wsec
 *
 * See Documentation/pft.rst.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pft.h"

static int print_series(const struct pft_opts *o)
{
	unsigned int out[PFT_MAX_SERIES], n, ncpus = o->series_ncpus;

	if (!ncpus) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		ncpus = c > 0 ? (unsigned int)c : 1;
	}
	n = pft_series(o->series_min, o->series_max, ncpus, out, PFT_MAX_SERIES);
	if (n > PFT_MAX_SERIES) {
		fprintf(stderr, "pft: --series: %u values, more than %u\n", n, PFT_MAX_SERIES);
		return PFT_EXIT_USAGE;
	}
	if (!n) {
		fprintf(stderr, "pft: --series: empty (MIN %u > NCPUS %u)\n", o->series_min,
			ncpus);
		return PFT_EXIT_USAGE;
	}
	for (unsigned int i = 0; i < n; i++)
		printf("%u%c", out[i], i + 1 < n ? ' ' : '\n');
	return PFT_EXIT_OK;
}

int main(int argc, char **argv)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	struct pft_result *r;
	struct pft_opts o;
	char err[256], line[512];
	bool agree;
	int ret;

	if (pft_parse_args(argc, argv, &o, ps, pft_line_size(), err, sizeof(err))) {
		fprintf(stderr, "pft: %s (pft -h for help)\n", err);
		return PFT_EXIT_USAGE;
	}
	if (o.help) {
		pft_usage(stdout);
		return PFT_EXIT_OK;
	}
	if (o.series)
		return print_series(&o);
	if (o.check)
		return PFT_EXIT_OK;

	r = calloc(1, sizeof(*r));
	if (!r) {
		perror("pft: calloc");
		return PFT_EXIT_ERROR;
	}
	ret = pft_run(&o, r);
	if (ret != PFT_EXIT_OK)
		goto out;

	agree = pft_faults_agree(r->expected, r->minflt);
	if (!agree)
		fprintf(stderr, "pft: warning: %llu minor faults measured, %llu expected for "
			"%llu pages (%s) (%+.2f%%, more than 1%% off: THP, large page-cache folios "
			"mapped whole, pre-faulted memory, KSM?)\n", r->minflt, r->expected, r->pages,
			pft_shape_name(o.shape),
			100.0 * ((double)r->minflt - (double)r->expected) / (double)r->expected);
	if (r->majflt)
		fprintf(stderr, "pft: warning: %llu major faults during the run\n", r->majflt);
	if (r->user_s + r->sys_s <= 0)
		fprintf(stderr, "pft: warning: user+system time below the rusage resolution; "
			"flt/cpu/s is not measurable (use a larger -m)\n");
	else if (r->rusage_thread && !pft_cpu_agree(r->user_s + r->sys_s, r->cpu_s))
		fprintf(stderr, "pft: warning: user+system %.3fs but the workers ran %.3fs "
			"(CLOCK_THREAD_CPUTIME_ID): rusage is tick-granular, the runs per worker "
			"are too short for flt/cpu/s (use a larger -m)\n",
			r->user_s + r->sys_s, r->cpu_s);
	if (o.verbose)
		fprintf(stderr, "pft: pages=%llu expected=%llu minflt=%llu majflt=%llu cpu=%.6fs\n",
			r->pages, r->expected, r->minflt, r->majflt, r->cpu_s);

	if (o.json) {
		pft_print_json(stdout, &o, r, agree);
	} else {
		/* the header on a terminal, or with -T; scripts read the rows alone */
		if ((o.title || isatty(STDOUT_FILENO)) && pft_format_header(line, sizeof(line)) > 0)
			fputs(line, stdout);
		if (pft_format_classic(line, sizeof(line), r) > 0)
			fputs(line, stdout);
		if (o.latency && pft_format_latency(line, sizeof(line), r) > 0)
			fputs(line, stdout);
	}
	if (fflush(stdout)) {
		perror("pft: stdout");
		ret = PFT_EXIT_ERROR;
	} else if (!agree && o.strict) {
		ret = PFT_EXIT_DISHONEST;
	}
out:
	free(r);
	return ret;
}
