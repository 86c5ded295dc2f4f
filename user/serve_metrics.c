// SPDX-License-Identifier: GPL-2.0
/*
 * faultline serve's model: counts of every backend read since serve started
 * (counters only grow; histograms stay cumulative), rendered by
 * fl_export_prom() -- the same writer as `export --format prom`, the same
 * --prom-buckets, HELP from its one table (fl_prom_header) -- into one
 * buffer that grows to what the model needs and is reused, plus the
 * families a live exporter adds: its own reads, the BPF programs' own cost
 * (--self-cost) and, per scrape, the largest fault latency since the
 * previous scrape.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "serve.h"

int fl_serve_model_init(struct fl_serve_model *m, unsigned int nr_cpus)
{
	memset(m, 0, sizeof(*m));
	m->by = FL_EXP_BY_TOTAL;
	m->run = "serve";
	m->topo_root = "/";
	m->nr_cpus = nr_cpus;
	m->base = calloc(nr_cpus ? nr_cpus : 1, sizeof(*m->base));
	m->sess = calloc(nr_cpus ? nr_cpus : 1, sizeof(*m->sess));
	if (!m->base || !m->sess) {
		fl_serve_model_free(m);
		return -1;
	}
	return 0;
}

void fl_serve_model_free(struct fl_serve_model *m)
{
	free(m->base);
	free(m->sess);
	fl_snapshot_free(&m->last);
	fl_snapshot_free(&m->machine);
	free(m->buf);
	memset(m, 0, sizeof(*m));
}

void fl_serve_model_new_session(struct fl_serve_model *m)
{
	for (unsigned int c = 0; c < m->nr_cpus; c++)
		fl_cpu_stats_add(&m->base[c], &m->sess[c]);
	memset(m->sess, 0, m->nr_cpus * sizeof(*m->sess));
	m->sessions++;
}

/* Largest latency in cur that is not in prev (prev a cumulative earlier
 * state of cur): exact when it is a new maximum, else the inclusive upper
 * bound of the highest bucket that grew, clamped to cur's maximum. */
static unsigned long long hist_new_max(const struct fl_hist *cur, const struct fl_hist *prev)
{
	if (cur->count <= prev->count)
		return 0;
	if (prev->count == 0 || cur->max > prev->max)
		return cur->max;
	for (unsigned int i = FL_HIST_NBUCKETS; i-- > 0;)
		if (cur->buckets[i] > prev->buckets[i]) {
			unsigned long long v = fl_hist_upper(i) - 1;

			return v < cur->max ? v : cur->max;
		}
	return 0;
}

static void add_selfcost(struct fl_serve_model *m, const struct fl_snapshot *s)
{
	struct fl_selfcost_entry e[FL_SERVE_MAX_PROGS];
	unsigned int n = fl_selfcost_list(s, e, FL_SERVE_MAX_PROGS);

	if (n > FL_SERVE_MAX_PROGS)
		n = FL_SERVE_MAX_PROGS;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int j;

		for (j = 0; j < m->ncost && strcmp(m->cost[j].name, e[i].name); j++)
			;
		if (j == m->ncost) {
			if (m->ncost == FL_SERVE_MAX_PROGS)
				continue;
			m->cost[m->ncost++] = (struct fl_selfcost_entry){ 0 };
			memcpy(m->cost[j].name, e[i].name, sizeof(e[i].name));
		}
		m->cost[j].runs += e[i].runs;
		m->cost[j].ns += e[i].ns;
	}
}

int fl_serve_model_add(struct fl_serve_model *m, struct fl_snapshot *s, bool window,
		       char *err, size_t errlen)
{
	unsigned int n = s->hdr.nr_cpus < m->nr_cpus ? s->hdr.nr_cpus : m->nr_cpus;
	unsigned long long peak = 0;

	for (unsigned int c = 0; c < n; c++) {
		const struct fl_cpu_stats *in = &s->cpus[c];
		unsigned long long p;

		if (window) {
			const struct fl_hist *h = &in->hist[FL_H_FAULT_LAT];

			p = h->count ? h->max : 0;
			fl_cpu_stats_add(&m->sess[c], in);
		} else {
			p = hist_new_max(&in->hist[FL_H_FAULT_LAT], &m->sess[c].hist[FL_H_FAULT_LAT]);
			m->sess[c] = *in;
		}
		if (p > peak)
			peak = p;
	}
	if (peak > m->peak_ns)
		m->peak_ns = peak;
	add_selfcost(m, s);
	/* keep the header, tags, online CPUs and vmstat; cpus[] becomes the render scratch */
	fl_snapshot_free(&m->last);
	m->last = *s;
	memset(s, 0, sizeof(*s));
	if (m->last.hdr.nr_cpus != m->nr_cpus) {
		struct fl_cpu_stats *c = realloc(m->last.cpus, m->nr_cpus * sizeof(*c));
		unsigned char *on = m->last.cpu_online ?
			realloc(m->last.cpu_online, m->nr_cpus) : NULL;

		if (!c || (m->last.cpu_online && !on)) {
			free(c ? c : m->last.cpus);
			free(on ? on : m->last.cpu_online);
			m->last.cpus = NULL;
			m->last.cpu_online = NULL;
			m->last.hdr.nr_cpus = 0;
			return fl_fail(err, errlen, "out of memory");
		}
		if (on && m->nr_cpus > m->last.hdr.nr_cpus)
			memset(on + m->last.hdr.nr_cpus, 0, m->nr_cpus - m->last.hdr.nr_cpus);
		m->last.cpus = c;
		m->last.cpu_online = on;
		m->last.hdr.nr_cpus = m->nr_cpus;
	}
	m->have_read = true;
	m->reads++;
	return 0;
}

static void serve_families(FILE *f, const struct fl_serve_model *m)
{
	const char *kernel = m->last.hdr.kernel_release;

#define LBL(extra_k, extra_v) do {					\
		fputs("{kernel=\"", f); fl_prom_esc(f, kernel);		\
		fputs("\",run=\"", f); fl_prom_esc(f, m->run); fputc('"', f);	\
		if (extra_k) { fprintf(f, ",%s=\"", (const char *)extra_k);	\
			fl_prom_esc(f, extra_v); fputc('"', f); }	\
		fputc('}', f);						\
	} while (0)
	if (m->machine.tags) {
		static const char *const keys[] = {
			"cpu_vendor", "cpu_family", "cpu_model", "cpu_model_name",
			"machine_platform_genus", "machine_platform_arch",
			"machine_total_logical_cores", "machine_sockets", "machine_numa_nodes",
			"machine_llc_domains", "machine_total_ram_gib", "thp_enabled",
		};

		fl_prom_header(f, "faultline_machine_info", "gauge");
		fputs("faultline_machine_info{kernel=\"", f);
		fl_prom_esc(f, kernel);
		fputs("\",run=\"", f);
		fl_prom_esc(f, m->run);
		fputc('"', f);
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			const char *v = fl_snapshot_tag(&m->machine, keys[i]);

			if (!v)
				continue;
			fprintf(f, ",%s=\"", keys[i]);
			fl_prom_esc(f, v);
			fputc('"', f);
		}
		fputs("} 1\n", f);
	}
	if (m->ncost) {
		fl_prom_header(f, "faultline_self_cost_runs_total", "counter");
		for (unsigned int i = 0; i < m->ncost; i++) {
			fputs("faultline_self_cost_runs_total", f);
			LBL("program", m->cost[i].name);
			fprintf(f, " %llu\n", m->cost[i].runs);
		}
		fl_prom_header(f, "faultline_self_cost_seconds_total", "counter");
		for (unsigned int i = 0; i < m->ncost; i++) {
			fputs("faultline_self_cost_seconds_total", f);
			LBL("program", m->cost[i].name);
			fputc(' ', f);
			fl_prom_seconds(f, m->cost[i].ns);
			fputc('\n', f);
		}
	}
	fl_prom_header(f, "faultline_serve_reads_total", "counter");
	fputs("faultline_serve_reads_total", f);
	LBL(NULL, NULL);
	fprintf(f, " %llu\n", m->reads);
	fl_prom_header(f, "faultline_serve_read_errors_total", "counter");
	fputs("faultline_serve_read_errors_total", f);
	LBL(NULL, NULL);
	fprintf(f, " %llu\n", m->read_errors);
	fl_prom_header(f, "faultline_serve_sessions_total", "counter");
	fputs("faultline_serve_sessions_total", f);
	LBL(NULL, NULL);
	fprintf(f, " %llu\n", m->sessions + 1);
#undef LBL
}

static void free_groups(struct fl_export_snap *es)
{
	for (unsigned int g = 0; g < es->ngroups; g++)
		free(es->groups[g].cpus);
	free(es->groups);
	free(es->total.cpus);
	es->groups = NULL;
	es->ngroups = 0;
	es->total.cpus = NULL;
}

/* m->last with the cumulative counts (base + this session) and the window since start */
static void model_totals(struct fl_serve_model *m)
{
	for (unsigned int c = 0; c < m->nr_cpus; c++) {
		m->last.cpus[c] = m->base[c];
		fl_cpu_stats_add(&m->last.cpus[c], &m->sess[c]);
	}
	m->last.hdr.t_start_ns = m->start_real_ns;
	m->last.hdr.duration_ns = m->now_mono_ns - m->start_mono_ns;
}

int fl_serve_model_save(struct fl_serve_model *m, const char *path, char *err, size_t errlen)
{
	if (!m->have_read)
		return fl_fail(err, errlen, "nothing read yet");
	model_totals(m);
	return fl_snapshot_write_file(path, &m->last, err, errlen);
}

int fl_serve_render(struct fl_serve_model *m, char *err, size_t errlen)
{
	struct fl_export_snap es = { 0 };
	struct fl_export e = { .by = m->by, .prom_buckets = m->prom_buckets, .snaps = &es,
			       .nsnaps = 1 };

	if (!m->have_read)
		return fl_fail(err, errlen, "nothing read yet");
	model_totals(m);
	es.s = m->last;
	es.run = (char *)m->run;
	es.path = (char *)"serve";
	if (fl_export_group(&es, m->by, m->topo_root, err, errlen)) {
		free_groups(&es);
		return -1;
	}
	for (;;) {
		FILE *f;
		long pos;

		if (!m->buf) {
			m->cap = 1 << 16;
			m->buf = malloc(m->cap);
			if (!m->buf) {
				free_groups(&es);
				return fl_fail(err, errlen, "out of memory");
			}
		}
		f = fmemopen(m->buf, m->cap, "w");
		if (!f) {
			free_groups(&es);
			return fl_fail(err, errlen, "fmemopen failed");
		}
		fl_export_prom(f, &e);
		serve_families(f, m);
		fflush(f);
		pos = ftell(f);
		fclose(f);
		if (pos >= 0 && (size_t)pos + 1 < m->cap) {
			m->len = (size_t)pos;
			break;
		}
		/* did not fit: a bigger buffer, once per growth of the model */
		free(m->buf);
		m->buf = NULL;
		if (m->cap > (1u << 30)) {
			free_groups(&es);
			return fl_fail(err, errlen, "exposition larger than 1 GiB");
		}
		m->cap *= 2;
		m->buf = malloc(m->cap);
		if (!m->buf) {
			free_groups(&es);
			return fl_fail(err, errlen, "out of memory");
		}
	}
	free_groups(&es);
	return 0;
}

size_t fl_serve_scrape_tail(struct fl_serve_model *m, char *buf, size_t len)
{
	const char *why;
	FILE *f;
	long pos;

	if (!m->have_read || fl_figure_avail(&m->last, FL_FIG_LATENCY, &why) != FL_AVAIL_YES ||
	    !len)
		return 0;
	f = fmemopen(buf, len, "w");
	if (!f)
		return 0;
	fl_prom_header(f, "faultline_fault_latency_max_seconds", "gauge");
	fputs("faultline_fault_latency_max_seconds{kernel=\"", f);
	fl_prom_esc(f, m->last.hdr.kernel_release);
	fputs("\",run=\"", f);
	fl_prom_esc(f, m->run);
	fputs("\"} ", f);
	fl_prom_seconds(f, m->peak_ns);
	fputc('\n', f);
	fflush(f);
	pos = ftell(f);
	fclose(f);
	if (pos < 0 || (size_t)pos + 1 >= len)
		return 0;	/* did not fit: left out rather than cut */
	m->peak_ns = 0;
	return (size_t)pos;
}

size_t fl_serve_openmetrics(const char *in, size_t len, char *out)
{
	size_t o = 0, i = 0;

	while (i < len) {
		const char *nl = memchr(in + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (in + i)) + 1 : len - i;
		const char *l = in + i;

		if (n > 7 && (!strncmp(l, "# HELP ", 7) || !strncmp(l, "# TYPE ", 7))) {
			const char *name = l + 7, *sp = memchr(name, ' ', n - 7);
			size_t nn = sp ? (size_t)(sp - name) : 0;

			if (nn > 6 && !memcmp(name + nn - 6, "_total", 6)) {
				/* "# HELP " + name less _total + the rest */
				memcpy(out + o, l, 7 + nn - 6);
				o += 7 + nn - 6;
				memcpy(out + o, sp, n - 7 - nn);
				o += n - 7 - nn;
				i += n;
				continue;
			}
		}
		memcpy(out + o, l, n);
		o += n;
		i += n;
	}
	memcpy(out + o, "# EOF\n", 6);
	return o + 6;
}

bool fl_serve_wants_openmetrics(const char *accept)
{
	const char *om, *tp;

	if (!accept || !(om = strstr(accept, "application/openmetrics-text")))
		return false;
	/* a q= below text/plain's is not handled: the first one listed wins */
	tp = strstr(accept, "text/plain");
	return !tp || om < tp;
}
