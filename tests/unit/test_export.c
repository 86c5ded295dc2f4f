// SPDX-License-Identifier: GPL-2.0
/*
 * faultline export, end to end (cmd_export() in process) on snapshots built
 * here: JSON validated against Documentation/faultline-snapshot.schema.json
 * (python3-jsonschema when installed, else tests/fixtures/check-json-schema.py's
 * own validator, both tried), Prometheus text checked against the exposition
 * format rules below (and by promtool when it is on PATH), CSV read back
 * bucket for bucket, text; --by cpu|llc|node|total; malformed snapshots.
 * Prometheus buckets: the default (coarse) and --prom-buckets full `le`
 * sets worked out here, every cumulative count against the raw samples,
 * the HELP table.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "export.h"
#include "pftlog.h"
#include "snapshot.h"
#include "textfile.h"

#define SCHEMA "../../Documentation/faultline-snapshot.schema.json"
#define CHECKER "../fixtures/check-json-schema.py"

static char tmpdir[] = "/tmp/fl-test-export-XXXXXX";
static char snapa[320], snapb[320], rundir[128];
static struct fl_snapshot A;	/* kept to compare against */

static int run(const char *out, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	argv[argc++] = "export";
	va_start(ap, out);
	for (char *a; (a = va_arg(ap, char *)); )
		argv[argc++] = a;
	va_end(ap);
	if (out) {
		argv[argc++] = "-o";
		argv[argc++] = (char *)out;
	}
	argv[argc] = NULL;
	return cmd_export(argc, argv);
}

static void build_a(struct fl_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(fl_snapshot_alloc_cpus(s, 8), 0);
	s->hdr.backend = FL_BACKEND_BPF;
	s->hdr.tier = FL_TIER_FENTRY;
	s->hdr.lockless_kind = FL_LL_KIND_VMA_LOCK;
	s->hdr.hooks_live = (1ULL << FL_HOOK_PF_USER) | (1ULL << FL_HOOK_HMF) |
			    (1ULL << FL_HOOK_LOCK_VMA) | (1ULL << FL_HOOK_MMAP_START) |
			    (1ULL << FL_HOOK_MMAP_ACQUIRED) | (1ULL << FL_HOOK_MMAP_RELEASED);
	s->hdr.hooks_absent = (1ULL << FL_HOOK_CONTENTION_BEGIN) | (1ULL << FL_HOOK_CONTENTION_END);
	s->hdr.duration_ns = 1500000000ULL;
	s->hdr.t_start_ns = 1700000000000000000ULL;
	s->hdr.t_end_ns = s->hdr.t_start_ns + s->hdr.duration_ns;
	strcpy(s->hdr.kernel_release, "6.12.95+deb12-amd64");
	for (unsigned int c = 0; c < 8; c++) {
		struct fl_cpu_stats *st = &s->cpus[c];

		s->cpu_online[c] = c != 7;	/* CPU 7 offline and idle: not exported */
		if (c == 7)
			continue;
		for (unsigned int k = 0; k < 1000; k++) {
			fl_hist_add(&st->hist[FL_H_FAULT_LAT], 500 + k * (c + 1) + (k % 97) * 31);
			fl_hist_add(&st->hist[FL_H_HMF], 300 + k * (c + 1));
			if (k % 10 == 0)
				fl_hist_add(&st->hist[FL_H_MMAP_WAIT_R], 100 + k * 7);
		}
		fl_hist_add(&st->hist[FL_H_FAULT_LAT], 3000000000ULL);	/* one 3 s outlier */
		st->cnt[FL_C_FAULTS_USER] = 1001;
		st->cnt[FL_C_FAULTS_ENDED] = 1001;
		st->cnt[FL_C_HMF_CALLS] = 1000;
		st->ll[FL_LL_ATTEMPTED] = 1000;
		st->ll[FL_LL_SUCCEEDED] = 990 - c;
		st->ll[FL_LL_ABORTED] = 10 + c;
	}
	s->vmstat = calloc(2, sizeof(*s->vmstat));
	assert_non_null(s->vmstat);
	s->nr_vmstat = 2;
	strcpy(s->vmstat[0].name, "pgfault");
	s->vmstat[0].before = 100;
	s->vmstat[0].after = 7200;
	strcpy(s->vmstat[1].name, "vma_lock_abort");
	s->vmstat[1].after = 70;
	assert_int_equal(fl_snapshot_set_tag(s, "kernel_version", "6.12.95+deb12-amd64"), 0);
	assert_int_equal(fl_snapshot_set_tag(s, "note", "quote \" backslash \\ tab\t"), 0);
	assert_int_equal(fl_snapshot_set_tag(s, "topology_llc", "0-3 4-7"), 0);
	assert_int_equal(fl_snapshot_set_tag(s, "topology_node", "0:0-7"), 0);
}

static void build_b(struct fl_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(fl_snapshot_alloc_cpus(s, 2), 0);
	s->hdr.backend = FL_BACKEND_BPF;
	s->hdr.tier = FL_TIER_TRACEPOINT;
	s->hdr.lockless_kind = FL_LL_KIND_NONE;
	s->hdr.hooks_live = (1ULL << FL_HOOK_PF_USER);
	strcpy(s->hdr.kernel_release, "6.1.0-28-amd64 \"odd\"");
	for (unsigned int c = 0; c < 2; c++) {
		s->cpu_online[c] = 1;
		s->cpus[c].cnt[FL_C_FAULTS_USER] = 5000 + c;
	}
}

static char *slurp(const char *path)
{
	char *t = fl_read_text(path, 64 << 20);

	assert_non_null(t);
	return t;
}

static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* ---- JSON ---- */

static void test_json_schema(void **state)
{
	char out[300], bad[300];

	(void)state;
	snprintf(out, sizeof(out), "%s/a.json", tmpdir);
	assert_int_equal(run(out, "-f", "json", rundir, NULL), 0);
	assert_int_equal(sh("python3 %s %s %s", CHECKER, SCHEMA, out), 0);
	assert_int_equal(sh("FL_MINI_SCHEMA=1 python3 %s %s %s", CHECKER, SCHEMA, out), 0);
	/* the validators are not vacuous: a counter as a string, a zero for unavailable */
	snprintf(bad, sizeof(bad), "%s/bad.json", tmpdir);
	assert_int_equal(sh("sed 's/\"faults_user\":1001/\"faults_user\":\"1001\"/' %s > %s",
			    out, bad), 0);
	assert_int_not_equal(sh("python3 %s %s %s >/dev/null", CHECKER, SCHEMA, bad), 0);
	assert_int_not_equal(sh("FL_MINI_SCHEMA=1 python3 %s %s %s >/dev/null", CHECKER, SCHEMA,
				bad), 0);
	assert_int_equal(sh("sed 's/\"available\":false,\"status\":\"unavailable\",\"reason\":[^}]*}/0/' "
			    "%s > %s", out, bad), 0);
	assert_int_not_equal(sh("python3 %s %s %s >/dev/null", CHECKER, SCHEMA, bad), 0);
	/* all three groupings validate */
	for (int i = 0; i < 3; i++) {
		static const char *const by[] = { "llc", "node", "total" };

		snprintf(out, sizeof(out), "%s/a-%s.json", tmpdir, by[i]);
		assert_int_equal(run(out, "--by", by[i], snapa, NULL), 0);
		assert_int_equal(sh("python3 %s %s %s >/dev/null", CHECKER, SCHEMA, out), 0);
	}
}

static void test_json_content(void **state)
{
	char out[300], *t, want[256];
	struct fl_cpu_stats tot;

	(void)state;
	snprintf(out, sizeof(out), "%s/a1.json", tmpdir);
	assert_int_equal(run(out, "--by", "llc", "--run", "runA", snapa, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\"run\":\"runA\""));
	assert_non_null(strstr(t, "{\"llc\":0,\"cpus\":[0,1,2,3],"));
	assert_non_null(strstr(t, "{\"llc\":1,\"cpus\":[4,5,6],"));	/* 7 offline */
	assert_non_null(strstr(t, "\"contention\":{\"available\":false,\"status\":\"unavailable\","
				  "\"reason\":\"the kernel has no lock:contention_begin/end"));
	assert_non_null(strstr(t, "\"mmap_lock_contended\":null"));
	assert_non_null(strstr(t, "\"note\":\"quote \\\" backslash \\\\ tab\\t\""));
	fl_snapshot_total(&A, &tot);
	snprintf(want, sizeof(want), "\"total\":{\"cpus\":[0,1,2,3,4,5,6],\"counters\":{"
		 "\"faults_user\":%llu,", tot.cnt[FL_C_FAULTS_USER]);
	assert_non_null(strstr(t, want));
	snprintf(want, sizeof(want), "\"fault_latency\":{\"available\":true,\"unit\":\"ns\","
		 "\"count\":%llu,\"sum\":%llu,\"min\":%llu,\"max\":%llu,",
		 tot.hist[FL_H_FAULT_LAT].count, tot.hist[FL_H_FAULT_LAT].sum,
		 tot.hist[FL_H_FAULT_LAT].min, tot.hist[FL_H_FAULT_LAT].max);
	assert_non_null(strstr(t, want));
	assert_non_null(strstr(t, "{\"name\":\"pgfault\",\"before\":100,\"after\":7200,\"delta\":7100}"));
	free(t);
	/* tracepoint tier: no latency, lockless path absent; never zeros */
	snprintf(out, sizeof(out), "%s/b.json", tmpdir);
	assert_int_equal(run(out, snapb, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "\"fault_latency\":{\"available\":false,\"status\":\"unavailable\""));
	assert_non_null(strstr(t, "\"lockless_attempted\":null"));
	assert_non_null(strstr(t, "\"lockless\":{\"available\":false,\"status\":\"absent\""));
	assert_non_null(strstr(t, "\"faults_user\":10001"));
	free(t);
}

/* ---- CSV: read back ---- */

static void test_csv_roundtrip(void **state)
{
	char out[300], *t, *save = NULL;
	struct fl_cpu_stats tot;
	unsigned long long got[FL_H_NR][FL_HIST_NBUCKETS] = { { 0 } }, cpu3_users = 0;
	int rows = 0, unavail = 0;

	(void)state;
	snprintf(out, sizeof(out), "%s/a.csv", tmpdir);
	assert_int_equal(run(out, "-f", "csv", snapa, NULL), 0);
	t = slurp(out);
	assert_int_equal(strncmp(t, "run,kernel,by,group,metric,kind,lower,upper,value,note\n", 55), 0);
	for (char *l = strtok_r(t + 55, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char run_[64], krel[80], by[16], grp[16], metric[64], kind[32], lo[32], hi[32], val[32];
		int n = sscanf(l, "%63[^,],%79[^,],%15[^,],%15[^,],%63[^,],%31[^,],%31[^,],%31[^,],%31[^,]",
			       run_, krel, by, grp, metric, kind, lo, hi, val);

		rows++;
		if (strstr(l, ",unavailable (") || strstr(l, ",absent ("))
			unavail++;
		if (n == 9 && !strcmp(by, "total") && !strcmp(kind, "bucket")) {
			for (unsigned int id = 0; id < FL_H_NR; id++)
				if (!strcmp(metric, fl_hist_name(id))) {
					unsigned long long lower = strtoull(lo, NULL, 10);
					unsigned int b = fl_hist_bucket(lower);

					assert_int_equal(fl_hist_lower(b), lower);
					assert_int_equal(fl_hist_upper(b), strtoull(hi, NULL, 10));
					got[id][b] = strtoull(val, NULL, 10);
				}
		}
		if (!strcmp(by, "cpu") && !strcmp(grp, "3") && !strcmp(metric, "faults_user"))
			cpu3_users = strtoull(strchr(l, ',') ? val : "0", NULL, 10);
	}
	/* counters have no lower/upper: sscanf stops early, read value by hand */
	(void)cpu3_users;
	fl_snapshot_total(&A, &tot);
	for (unsigned int id = 0; id < FL_H_NR; id++) {
		if (id == FL_H_MMAP_CONTEND)
			continue;	/* unavailable in A: a row with the reason, no buckets */
		for (unsigned int b = 0; b < FL_HIST_NBUCKETS; b++)
			if (got[id][b] != tot.hist[id].buckets[b])
				fail_msg("%s bucket %u: csv %llu, snapshot %llu", fl_hist_name(id), b,
					 got[id][b], tot.hist[id].buckets[b]);
	}
	assert_true(rows > 100);
	assert_true(unavail >= 2 * 8);	/* contention rows per group and total */
	free(t);
}

/* ---- Prometheus exposition format ---- */

struct series {
	char key[512];		/* name + labels without le */
	double last_le;
	double last_cum;
	double inf;		/* +Inf bucket, NAN until seen */
	double count;		/* NAN until seen */
	int sum;
};

static int valid_name(const char *s, int len, int label)
{
	for (int i = 0; i < len; i++) {
		char c = s[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			 (!label && c == ':') || (i && c >= '0' && c <= '9');

		if (!ok)
			return 0;
	}
	return len > 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The text format's rules: HELP/TYPE before a family's samples, each family
 * once and contiguous, valid metric and label names, escaped label values,
 * float values; histograms: le ascending, cumulative counts non-decreasing,
 * a +Inf bucket equal to _count, a _sum; no duplicate series.
 */
static void check_prom(const char *text)
{
	static struct series ser[4096];
	static char done_fam[512][128];
	char fam[128] = "", type[32] = "", **seen = NULL;
	int nser = 0, nseen = 0, ndone = 0, nlines = 0;
	char *copy = strdup(text), *save = NULL;

	assert_non_null(copy);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[256], key[512], le[256] = "", *p = l, *end;
		size_t nl;
		double v;

		nlines++;
		if (!strncmp(l, "# TYPE ", 7)) {
			char f2[128];

			assert_int_equal(sscanf(l + 7, "%127s %31s", f2, type), 2);
			assert_true(valid_name(f2, strlen(f2), 0));
			assert_true(!strcmp(type, "counter") || !strcmp(type, "gauge") ||
				    !strcmp(type, "histogram"));
			for (int i = 0; i < ndone; i++)
				if (!strcmp(done_fam[i], f2))
					fail_msg("family %s declared twice", f2);
			if (fam[0])
				snprintf(done_fam[ndone++], 128, "%s", fam);
			snprintf(fam, sizeof(fam), "%s", f2);
			continue;
		}
		if (!strncmp(l, "# HELP ", 7) || l[0] == '#')
			continue;
		nl = strcspn(p, "{ ");
		assert_true(nl < sizeof(name));
		memcpy(name, p, nl);
		name[nl] = '\0';
		if (!valid_name(name, nl, 0))
			fail_msg("bad metric name in '%s'", l);
		/* the sample belongs to the current family */
		if (!strcmp(type, "histogram")) {
			size_t fl = strlen(fam);

			if (strncmp(name, fam, fl) || (strcmp(name + fl, "_bucket") &&
			    strcmp(name + fl, "_sum") && strcmp(name + fl, "_count")))
				fail_msg("sample '%s' outside its family %s", name, fam);
		} else if (strcmp(name, fam)) {
			fail_msg("sample '%s' without TYPE (family %s)", name, fam);
		}
		p += nl;
		snprintf(key, sizeof(key), "%s{", fam);
		if (*p == '{') {
			p++;
			while (*p != '}') {
				size_t ln = strcspn(p, "=");
				char lname[64], val[256];
				size_t o = 0;

				assert_true(ln > 0 && ln < sizeof(lname));
				memcpy(lname, p, ln);
				lname[ln] = '\0';
				if (!valid_name(lname, ln, 1) || !strncmp(lname, "__", 2))
					fail_msg("bad label name '%s' in '%s'", lname, l);
				p += ln + 1;
				assert_int_equal(*p, '"');
				for (p++; *p != '"'; p++) {
					assert_true(*p != '\0');
					if (*p == '\\') {
						p++;
						if (*p != '\\' && *p != '"' && *p != 'n')
							fail_msg("bad escape in '%s'", l);
					}
					if (o < sizeof(val) - 1)
						val[o++] = *p;
				}
				val[o] = '\0';
				p++;
				if (!strcmp(lname, "le"))
					snprintf(le, sizeof(le), "%s", val);
				else if (strlen(key) + strlen(lname) + strlen(val) + 4 < sizeof(key))
					strcat(strcat(strcat(strcat(key, lname), "="), val), ",");
				if (*p == ',')
					p++;
				else
					assert_int_equal(*p, '}');
			}
			p++;
		}
		assert_int_equal(*p, ' ');
		p++;
		if (!strcmp(p, "+Inf") || !strcmp(p, "-Inf") || !strcmp(p, "NaN")) {
			v = NAN;
		} else {
			v = strtod(p, &end);
			if (end == p || (*end && *end != ' '))
				fail_msg("bad value in '%s'", l);
		}
		/* duplicates */
		{
			char full[1100];

			/* all kept, sorted and compared at the end */
			snprintf(full, sizeof(full), "%s|%s|%s", name, key, le);
			if (!(nseen & (nseen + 1))) {
				seen = realloc(seen, 2 * (nseen + 1) * sizeof(*seen));
				assert_non_null(seen);
			}
			seen[nseen] = strdup(full);
			assert_non_null(seen[nseen++]);
		}
		if (strcmp(type, "histogram"))
			continue;
		{
			struct series *s = NULL;

			for (int i = 0; i < nser; i++)
				if (!strcmp(ser[i].key, key))
					s = &ser[i];
			if (!s) {
				assert_true(nser < 4096);
				s = &ser[nser++];
				snprintf(s->key, sizeof(s->key), "%s", key);
				s->last_le = -INFINITY;
				s->last_cum = 0;
				s->inf = s->count = NAN;
			}
			if (strstr(name, "_bucket")) {
				double lev = !strcmp(le, "+Inf") ? INFINITY : strtod(le, &end);

				if (!le[0])
					fail_msg("bucket without le: '%s'", l);
				if (!(lev > s->last_le))
					fail_msg("le not ascending in '%s'", l);
				if (v < s->last_cum)
					fail_msg("bucket count decreases in '%s'", l);
				s->last_le = lev;
				s->last_cum = v;
				if (isinf(lev))
					s->inf = v;
			} else if (strstr(name, "_count")) {
				s->count = v;
			} else {
				s->sum = 1;
			}
		}
	}
	for (int i = 0; i < nser; i++) {
		if (isnan(ser[i].inf) || isnan(ser[i].count) || !ser[i].sum)
			fail_msg("histogram %s lacks +Inf, _count or _sum", ser[i].key);
		if (ser[i].inf != ser[i].count)
			fail_msg("histogram %s: +Inf %g != _count %g", ser[i].key, ser[i].inf,
				 ser[i].count);
	}
	qsort(seen, nseen, sizeof(*seen), cmp_str);
	for (int i = 1; i < nseen; i++)
		if (!strcmp(seen[i - 1], seen[i]))
			fail_msg("duplicate series '%s'", seen[i]);
	for (int i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	assert_true(nlines > 10);
	assert_true(nser > 0);
	free(copy);
}

static void test_prom(void **state)
{
	char out[300], *t;

	(void)state;
	snprintf(out, sizeof(out), "%s/a.prom", tmpdir);
	assert_int_equal(run(out, "-f", "prom", rundir, NULL), 0);
	t = slurp(out);
	check_prom(t);
	/* labels, exact cumulative buckets, le in seconds, the 3 s outlier above 2^31 ns */
	assert_non_null(strstr(t, "faultline_fault_latency_seconds_bucket{cpu=\"0\","
				  "kernel=\"6.12.95+deb12-amd64\",run=\"snap-0001\",le=\"0.000000031\"} 0\n"));
	assert_non_null(strstr(t, "faultline_fault_latency_seconds_bucket{cpu=\"0\","
				  "kernel=\"6.12.95+deb12-amd64\",run=\"snap-0001\",le=\"2.147483647\"} 1000\n"));
	assert_non_null(strstr(t, "faultline_fault_latency_seconds_bucket{cpu=\"0\","
				  "kernel=\"6.12.95+deb12-amd64\",run=\"snap-0001\",le=\"+Inf\"} 1001\n"));
	assert_non_null(strstr(t, "kernel=\"6.1.0-28-amd64 \\\"odd\\\"\""));
	assert_non_null(strstr(t, "faultline_unavailable{kernel=\"6.1.0-28-amd64 \\\"odd\\\"\","
				  "run=\"snap-0002\",figure=\"latency\""));
	assert_null(strstr(t, "faultline_mmap_lock_contended_seconds_bucket"));
	assert_non_null(strstr(t, "faultline_vmstat_delta{kernel=\"6.12.95+deb12-amd64\","
				  "run=\"snap-0001\",counter=\"pgfault\"} 7100\n"));
	free(t);
	for (int i = 0; i < 3; i++) {
		static const char *const by[] = { "llc", "node", "total" };

		snprintf(out, sizeof(out), "%s/a-%s.prom", tmpdir, by[i]);
		assert_int_equal(run(out, "-f", "prom", "--by", by[i], snapa, NULL), 0);
		t = slurp(out);
		check_prom(t);
		if (i == 0)
			assert_non_null(strstr(t, "faultline_lockless_aborted_total{llc=\"1\","));
		free(t);
	}
	/* the real parser, where installed (Debian: prometheus, or PROMTOOL=path) */
	if (!sh("command -v ${PROMTOOL:-promtool} >/dev/null 2>&1")) {
		snprintf(out, sizeof(out), "%s/a.prom", tmpdir);
		assert_int_equal(sh("${PROMTOOL:-promtool} check metrics < %s", out), 0);
	} else {
		printf("promtool not found: exposition checked by this test's rules only\n");
	}
}

/* ---- Prometheus buckets: coarse by default, --prom-buckets full ---- */

/* "S.FFFFFFFFF" seconds (at most 9 decimals, as written) to ns, exactly */
static unsigned long long sec_ns(const char *s, const char **end)
{
	unsigned long long ns = 0, scale = 1000000000ULL;

	for (; *s >= '0' && *s <= '9'; s++)
		ns = ns * 10 + (unsigned long long)(*s - '0') * 1000000000ULL;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++) {
			scale /= 10;
			assert_true(scale >= 1);
			ns += (unsigned long long)(*s - '0') * scale;
		}
	*end = s;
	return ns;
}

/*
 * The coarse `le` set as Documentation/formats.rst states it, worked out
 * here: every 2^k and 3 * 2^(k-1) ns from 32 ns to 2^34 ns, less 1 ns
 * (inclusive bounds of whole ns), ascending.  Returns how many (59).
 */
static unsigned int coarse_les(unsigned long long *le)
{
	unsigned int n = 0;

	for (unsigned int k = 5; k <= 34; k++) {
		le[n++] = (1ULL << k) - 1;			/* 2^k */
		if (k < 34)
			le[n++] = 3ULL * (1ULL << (k - 1)) - 1;	/* 1.5 * 2^k */
	}
	return n;
}

/* The full set: the histogram's 272 bounds from hist.h's comment (0..15, then 8 per 2^k) */
static unsigned int full_les(unsigned long long *le)
{
	unsigned int n = 0;

	for (unsigned long long v = 0; v < 16; v++)
		le[n++] = v;
	for (unsigned int k = 4; k <= 35; k++)
		for (unsigned long long j = 1; j <= 8; j++)
			le[n++] = (1ULL << k) + j * (1ULL << (k - 3)) - 1;
	return n;
}

/*
 * The cumulative buckets of one series (PREFIX: name{labels up to le=") in
 * TEXT: le in ns and count, ascending as written; +Inf in *inf.  Returns how
 * many finite ones.
 */
static unsigned int prom_series(const char *text, const char *prefix, unsigned long long *le,
				unsigned long long *cum, unsigned int max, unsigned long long *inf)
{
	unsigned int n = 0;
	size_t pl = strlen(prefix);

	*inf = ~0ULL;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *e;

		if (strncmp(p, prefix, pl))
			continue;
		if (!strncmp(p + pl, "+Inf\"} ", 7)) {
			*inf = strtoull(p + pl + 7, NULL, 10);
			continue;
		}
		assert_true(n < max);
		le[n] = sec_ns(p + pl, &e);
		assert_true(e[0] == '"' && e[1] == '}' && e[2] == ' ');
		cum[n++] = strtoull(e + 3, NULL, 10);
	}
	return n;
}

static unsigned int count_lines(const char *t, const char *prefix)
{
	unsigned int n = 0;
	size_t pl = strlen(prefix);

	for (const char *p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, prefix, pl);
	return n;
}

#define C_LBL "{kernel=\"6.12.95+deb12-amd64\",run=\"c\""

static void test_prom_buckets(void **state)
{
	static unsigned long long vals[8000], le[FL_HIST_NBUCKETS + 8], cum[FL_HIST_NBUCKETS + 8],
		want_le[FL_HIST_NBUCKETS + 8];
	static const unsigned long long big[] = {
		(1ULL << 34) - 1, 1ULL << 34, (1ULL << 34) + 1,		/* the top coarse le */
		(1ULL << 36) - 1, 1ULL << 36, 100000000000ULL,		/* clamped into the last bucket */
	};
	struct fl_snapshot c;
	char path[320], out[320], err[256], *t;
	unsigned long long seed = 7, sum = 0, inf, hmf_sum = 0;
	unsigned int nv = 0, nh = 0, nc, lines[2];
	const char *generic = fl_prom_help("faultline_no_such_metric_total");

	(void)state;
	nc = coarse_les(want_le);
	assert_int_equal(nc, 59);
	/* samples on and around every coarse bound, every small value, the top, spread ones */
	for (unsigned int i = 0; i < nc; i++)
		for (int d = -1; d <= 2; d++)
			vals[nv++] = want_le[i] + d;
	for (unsigned long long v = 0; v <= 40; v++)
		vals[nv++] = v;
	for (unsigned int i = 0; i < sizeof(big) / sizeof(big[0]); i++)
		vals[nv++] = big[i];
	while (nv < 4000) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		vals[nv++] = (seed >> 16) >> (seed % 48);
	}
	memset(&c, 0, sizeof(c));
	assert_int_equal(fl_snapshot_alloc_cpus(&c, 1), 0);
	c.hdr = A.hdr;
	c.hdr.nr_cpus = 1;
	c.cpu_online[0] = 1;
	for (unsigned int i = 0; i < nv; i++) {
		fl_hist_add(&c.cpus[0].hist[FL_H_FAULT_LAT], vals[i]);
		sum += vals[i];
	}
	/* a second histogram with other samples: families stay apart */
	for (unsigned int i = 0; i < 50; i++, nh++) {
		fl_hist_add(&c.cpus[0].hist[FL_H_HMF], 1000 * i);
		hmf_sum += 1000 * i;
	}
	c.cpus[0].cnt[FL_C_FAULTS_USER] = nv;
	snprintf(path, sizeof(path), "%s/c.snap", tmpdir);
	assert_int_equal(fl_snapshot_write_file(path, &c, err, sizeof(err)), 0);
	fl_snapshot_free(&c);

	for (int full = 0; full <= 1; full++) {
		const char *key = "faultline_fault_latency_seconds_bucket" C_LBL ",le=\"";
		unsigned int n, nw = full ? full_les(want_le) : coarse_les(want_le);
		char want[128];

		snprintf(out, sizeof(out), "%s/c-%d.prom", tmpdir, full);
		if (full)
			assert_int_equal(run(out, "-f", "prom", "--by", "total", "--prom-buckets",
					     "full", path, NULL), 0);
		else
			assert_int_equal(run(out, "-f", "prom", "--by", "total", path, NULL), 0);
		t = slurp(out);
		check_prom(t);
		/* the le set, exactly; every cumulative count from the raw samples */
		n = prom_series(t, key, le, cum, FL_HIST_NBUCKETS + 8, &inf);
		assert_int_equal(n, nw);
		for (unsigned int i = 0; i < n; i++) {
			unsigned long long w = 0;

			if (le[i] != want_le[i])
				fail_msg("%s: le #%u is %llu ns, want %llu", full ? "full" : "coarse",
					 i, le[i], want_le[i]);
			for (unsigned int j = 0; j < nv; j++)
				w += (vals[j] > FL_HIST_VMAX ? FL_HIST_VMAX : vals[j]) <= le[i];
			if (cum[i] != w)
				fail_msg("%s: le %llu ns: count %llu, %llu samples <= le",
					 full ? "full" : "coarse", le[i], cum[i], w);
		}
		assert_int_equal(inf, nv);
		/* _sum and _count as they always were: every sample, unclamped */
		{
			const char *p = strstr(t, "faultline_fault_latency_seconds_sum" C_LBL "} "), *e;

			assert_non_null(p);
			p = strchr(p, '}') + 2;
			assert_true(sec_ns(p, &e) == sum);
		}
		snprintf(want, sizeof(want), "faultline_fault_latency_seconds_count" C_LBL "} %u\n", nv);
		assert_non_null(strstr(t, want));
		/* the other histogram: its own counts */
		n = prom_series(t, "faultline_handle_mm_fault_seconds_bucket" C_LBL ",le=\"", le, cum,
				FL_HIST_NBUCKETS + 8, &inf);
		assert_int_equal(n, nw);
		for (unsigned int i = 0; i < n; i++) {
			unsigned long long w = 0;

			for (unsigned int j = 0; j < nh; j++)
				w += 1000ULL * j <= le[i];
			assert_true(cum[i] == w);
		}
		assert_int_equal(inf, nh);
		/* line count: 59 + 1 bucket lines a histogram by default, 272 + 1 in full */
		assert_int_equal(count_lines(t, "faultline_fault_latency_seconds_bucket{"),
				 full ? 273 : 60);
		assert_int_equal(count_lines(t, "faultline_fault_latency_seconds_"),
				 full ? 275 : 62);
		lines[full] = count_lines(t, "");
		printf("c.snap, --by total, %s: %u lines\n", full ? "full" : "default", lines[full]);
		/* HELP in words from the table, not the generic text, for every family */
		assert_non_null(strstr(t, "# HELP faultline_fault_latency_seconds Page-fault latency "
					  "in seconds"));
		assert_non_null(strstr(t, "# HELP faultline_faults_timed_total Faults that reached"));
		assert_null(strstr(t, generic));
		free(t);
	}
	/* the default is a fraction of the full export, in lines and bytes */
	assert_true(lines[0] * 3 < lines[1]);
	{
		struct stat a, b;
		char o0[320], o1[320];

		snprintf(o0, sizeof(o0), "%s/c-0.prom", tmpdir);
		snprintf(o1, sizeof(o1), "%s/c-1.prom", tmpdir);
		assert_int_equal(stat(o0, &a), 0);
		assert_int_equal(stat(o1, &b), 0);
		printf("c.snap, --by total: default %lld bytes, full %lld bytes\n",
		       (long long)a.st_size, (long long)b.st_size);
		assert_true(a.st_size * 3 < b.st_size);
	}
	/* every histogram, counter and outcome the writer can name has words of its own */
	for (unsigned int id = 0; id < FL_H_NR; id++) {
		char name[96];

		snprintf(name, sizeof(name), "faultline_%s_seconds", fl_hist_name(id));
		if (!strcmp(fl_prom_help(name), generic))
			fail_msg("no HELP for %s", name);
	}
	for (unsigned int id = 0; id < FL_C_NR; id++) {
		char name[96];

		if (!fl_counter_known(id) || id == FL_C_FAULTS_USER || id == FL_C_FAULTS_KERNEL)
			continue;
		snprintf(name, sizeof(name), "faultline_%s_total", fl_counter_name(id));
		if (!strcmp(fl_prom_help(name), generic))
			fail_msg("no HELP for %s", name);
	}
	for (unsigned int id = 0; id < FL_LL_NR; id++) {
		char name[96];

		snprintf(name, sizeof(name), "faultline_%s_total", fl_ll_name(id));
		if (!strcmp(fl_prom_help(name), generic))
			fail_msg("no HELP for %s", name);
	}
	/* the generic one is a sentence too */
	assert_true(strlen(generic) > 20);
	/* usage errors: a bad value, the option without --format prom */
	assert_int_equal(run(out, "-f", "prom", "--prom-buckets", "fine", path, NULL), 2);
	assert_int_equal(run(out, "-f", "prom", "--prom-buckets", "", path, NULL), 2);
	assert_int_equal(run(out, "-f", "json", "--prom-buckets", "full", path, NULL), 2);
	assert_int_equal(run(out, "-f", "prom", "--prom-buckets", "coarse", path, NULL), 0);
	{
		struct fl_export_args a;
		char *argv[] = { "export", "-f", "prom", "--prom-buckets", "x", "f", NULL };

		assert_int_equal(parse_export_args(6, argv, &a, err, sizeof(err)), FL_ARGS_BAD);
		assert_string_equal(err, "--prom-buckets wants coarse or full, got 'x'");
	}
}

static void test_text(void **state)
{
	char out[300], *t;

	(void)state;
	snprintf(out, sizeof(out), "%s/a.txt", tmpdir);
	assert_int_equal(run(out, "-f", "text", "--by", "node", snapa, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "== node 0 (7 CPUs) =="));
	assert_non_null(strstr(t, "nsecs"));
	assert_non_null(strstr(t, "mmap_lock_contended: unavailable (the kernel has no lock:contention"));
	free(t);
	snprintf(out, sizeof(out), "%s/b.txt", tmpdir);
	assert_int_equal(run(out, "-f", "text", snapb, NULL), 0);
	t = slurp(out);
	assert_non_null(strstr(t, "fault_latency: unavailable (tracepoint tier"));
	assert_non_null(strstr(t, "lockless                   absent ("));
	free(t);
}

static void test_malformed(void **state)
{
	char path[300], out[300];
	void *buf;
	size_t len;
	FILE *f;

	(void)state;
	snprintf(out, sizeof(out), "%s/x.json", tmpdir);
	assert_int_equal(fl_snapshot_serialize(&A, &buf, &len), 0);
	/* truncated */
	snprintf(path, sizeof(path), "%s/trunc.snap", tmpdir);
	f = fopen(path, "w");
	fwrite(buf, 1, len / 2, f);
	fclose(f);
	assert_int_equal(run(out, path, NULL), 1);
	/* wrong magic, then a future major version */
	((struct fl_snap_header *)buf)->magic ^= 1;
	snprintf(path, sizeof(path), "%s/magic.snap", tmpdir);
	f = fopen(path, "w");
	fwrite(buf, 1, len, f);
	fclose(f);
	assert_int_equal(run(out, path, NULL), 1);
	((struct fl_snap_header *)buf)->magic ^= 1;
	((struct fl_snap_header *)buf)->version = 0x00020000;
	snprintf(path, sizeof(path), "%s/version.snap", tmpdir);
	f = fopen(path, "w");
	fwrite(buf, 1, len, f);
	fclose(f);
	assert_int_equal(run(out, path, NULL), 1);
	free(buf);
	assert_int_equal(access(out, F_OK), -1);	/* nothing half-written */
	/* no topology in B: --by llc refuses unless told where to look */
	assert_int_equal(run(out, "--by", "llc", snapb, NULL), 1);
	assert_int_equal(run(out, "--by", "llc", "--topology-root", "/nonexistent-fl", snapb, NULL), 1);
	assert_int_equal(run(out, "-f", "yaml", snapa, NULL), 2);
	assert_int_equal(run(out, "--by", "socket", snapa, NULL), 2);
	assert_int_equal(run(out, tmpdir, NULL), 1);	/* a dir with only broken snaps */
	assert_int_equal(run(out, "/nonexistent-fl.snap", NULL), 1);
	snprintf(path, sizeof(path), "%s/empty", tmpdir);
	mkdir(path, 0755);
	assert_int_equal(run(out, path, NULL), 1);
}

static int setup(void **state)
{
	struct fl_snapshot b;
	char err[256];

	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(rundir, sizeof(rundir), "%s/run", tmpdir);
	mkdir(rundir, 0755);
	snprintf(snapa, sizeof(snapa), "%s/snap-0001.snap", rundir);
	snprintf(snapb, sizeof(snapb), "%s/snap-0002.snap", rundir);
	build_a(&A);
	build_b(&b);
	if (fl_snapshot_write_file(snapa, &A, err, sizeof(err)) ||
	    fl_snapshot_write_file(snapb, &b, err, sizeof(err)))
		return -1;
	fl_snapshot_free(&b);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fl_snapshot_free(&A);
	return sh("rm -rf '%s'", tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_schema),
		cmocka_unit_test(test_json_content),
		cmocka_unit_test(test_csv_roundtrip),
		cmocka_unit_test(test_prom),
		cmocka_unit_test(test_prom_buckets),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
