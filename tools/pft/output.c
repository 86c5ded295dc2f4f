// SPDX-License-Identifier: GPL-2.0
/*
 * pft output: the classic line (same columns, widths and order as the classic
 * pft, so mmtests' ExtractPft and friends parse it), the latency summary and
 * the JSON object.
 */
#include <math.h>
#include <stdio.h>

#include "pft.h"

#define GIB (1ULL << 30)

/*
 * The "Gb" column: whole GiB, computed like the classic tool (which adds one
 * page per worker before dividing, so 1g with -t 2 prints 1, not 0).
 */
unsigned long long pft_gbytes(const struct pft_result *r)
{
	return (r->pages * r->page_size + (unsigned long long)r->page_size * r->workers) / GIB;
}

int pft_format_header(char *buf, size_t len)
{
	return snprintf(buf, len,
			"  Gb  Thr CLine   User     System     Wall    flt/cpu/s fault/wsec\n");
}

/* pages / seconds; +inf when the time is below the clock's resolution. */
static double rate(unsigned long long pages, double s)
{
	return s > 0 ? (double)pages / s : INFINITY;
}

int pft_format_classic(char *buf, size_t len, const struct pft_result *r)
{
	return snprintf(buf, len, " %3llu %4u %3u %8.2fs %8.2fs %8.2fs  %10.3f %10.3f\n",
			pft_gbytes(r), r->workers, r->clines, r->user_s, r->sys_s, r->wall_s,
			rate(r->pages, r->user_s + r->sys_s), rate(r->pages, r->wall_s));
}

static const struct { const char *name; unsigned int ppm; } quantiles[] = {
	{ "p50", 500000 }, { "p90", 900000 }, { "p99", 990000 }, { "p99.9", 999000 },
};

int pft_format_latency(char *buf, size_t len, const struct pft_result *r)
{
	const struct fl_hist *h = &r->hist;
	size_t n = 0;
	int k;

	if (!h->count)
		return snprintf(buf, len, "# latency_ns n=0 (no samples)\n");
	k = snprintf(buf, len, "# latency_ns n=%llu min=%llu", h->count, h->min);
	for (size_t i = 0; k > 0 && i < sizeof(quantiles) / sizeof(quantiles[0]); i++) {
		n += (size_t)k;
		k = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, " %s=%llu",
			     quantiles[i].name, fl_hist_quantile_ppm(h, quantiles[i].ppm));
	}
	if (k < 0)
		return k;
	n += (size_t)k;
	k = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
		     " max=%llu mean=%.0f clock=%s\n", h->max, (double)h->sum / h->count,
		     r->clock);
	return k < 0 ? k : (int)(n + (size_t)k);
}

bool pft_faults_agree(unsigned long long expected, unsigned long long minflt)
{
	unsigned long long d = expected > minflt ? expected - minflt : minflt - expected;

	/* |expected - minflt| <= 1% of expected, in integers */
	return d * 100 <= expected;
}

unsigned long long pft_expected_faults(enum pft_shape s, unsigned long long first_vpn,
				       unsigned long long npages, unsigned int fault_around)
{
	if (!npages)
		return 0;
	if (s != PFT_SHAPE_READ || fault_around <= 1)
		return npages;
	/*
	 * A sequential read faults at the first page of each window it enters
	 * and maps the rest of that window (clamped to the VMA, which only
	 * shortens the first window): the count is the windows intersected.
	 */
	return (first_vpn + npages - 1) / fault_around - first_vpn / fault_around + 1;
}

bool pft_cpu_agree(double rusage_s, double cpu_s)
{
	double d = rusage_s - cpu_s;

	return (d < 0 ? -d : d) <= 0.05 * cpu_s;
}

static void json_rate(FILE *f, const char *key, unsigned long long pages, double s)
{
	if (s > 0)
		fprintf(f, "\"%s\":%.3f,", key, (double)pages / s);
	else
		fprintf(f, "\"%s\":null,", key);	/* below clock resolution */
}

void pft_print_json(FILE *f, const struct pft_opts *o, const struct pft_result *r,
		    bool honest)
{
	const struct fl_hist *h = &r->hist;

	fprintf(f, "{\"tool\":\"pft\",\"gb\":%llu,\"bytes\":%llu,\"pages\":%llu,"
		"\"page_size\":%zu,\"pages_per_worker\":%llu,\"workers\":%u,"
		"\"mode\":\"%s\",\"mapping\":\"%s\",\"touch\":\"%s\",\"clines\":%u,"
		"\"thp\":\"%s\",\"affinity\":%s,\"shape\":\"%s\",\"backing\":\"%s\",",
		pft_gbytes(r), r->pages * r->page_size, r->pages, r->page_size,
		r->pages_per_worker, r->workers, o->processes ? "processes" : "threads",
		o->multimap ? "per-worker" : "shared", o->bzero ? "bzero" : "write",
		r->clines, pft_thp_name(o->thp), o->affinity ? "true" : "false",
		pft_shape_name(o->shape), pft_backing_name(o->backing));
	if (r->fault_around)
		fprintf(f, "\"fault_around_pages\":%u,\"fault_around_source\":\"%s\",",
			r->fault_around, r->fault_around_assumed ? "kernel-default" : "debugfs");
	fprintf(f, "\"user_s\":%.6f,\"sys_s\":%.6f,\"wall_s\":%.6f,\"cpu_s\":%.6f,",
		r->user_s, r->sys_s, r->wall_s, r->cpu_s);
	json_rate(f, "flt_per_cpu_s", r->pages, r->user_s + r->sys_s);
	json_rate(f, "fault_per_wsec", r->pages, r->wall_s);
	fprintf(f, "\"expected_faults\":%llu,\"minflt\":%llu,\"majflt\":%llu,"
		"\"rusage\":\"%s\",\"faults_agree\":%s", r->expected, r->minflt, r->majflt, r->rusage_thread ? "thread" : "self",
		honest ? "true" : "false");
	if (r->latency) {
		fprintf(f, ",\"latency\":{\"unit\":\"ns\",\"clock\":\"%s\",", r->clock);
		if (r->tsc_khz)
			fprintf(f, "\"tsc_khz\":%llu,", r->tsc_khz);
		fprintf(f, "\"count\":%llu", h->count);
		if (h->count) {
			fprintf(f, ",\"min\":%llu,\"max\":%llu,\"mean\":%.1f", h->min, h->max,
				(double)h->sum / h->count);
			for (size_t i = 0; i < sizeof(quantiles) / sizeof(quantiles[0]); i++)
				fprintf(f, ",\"%s\":%llu", quantiles[i].name,
					fl_hist_quantile_ppm(h, quantiles[i].ppm));
			fprintf(f, ",\"buckets\":[");
			for (unsigned int i = 0, first = 1; i < FL_HIST_NBUCKETS; i++) {
				if (!h->buckets[i])
					continue;
				fprintf(f, "%s[%llu,%llu,%llu]", first ? "" : ",",
					fl_hist_lower(i), fl_hist_upper(i), h->buckets[i]);
				first = 0;
			}
			fprintf(f, "]");
		}
		fprintf(f, "}");
	}
	fprintf(f, "}\n");
}
