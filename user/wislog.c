// SPDX-License-Identifier: GPL-2.0
/* will-it-scale results: wis sweeps and mmtests' wis-bench logs (see wislog.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "snapshot.h"
#include "textfile.h"
#include "wislog.h"

/* decimal, no sign, no leading zero unless "0"; END: where it stopped */
static int parse_ull(const char *t, unsigned long long *v, const char **end)
{
	unsigned long long x = 0;
	const char *p = t;

	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (x > (~0ULL - (unsigned)(*p - '0')) / 10)
			return -1;
		x = x * 10 + (unsigned)(*p - '0');
	}
	*v = x;
	*end = p;
	return 0;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int fl_wis_parse_line(const char *line, struct fl_wis_sample *s, char *err, size_t errlen)
{
	const char *p = line, *e;
	unsigned long long v;
	size_t n = strlen(line);

	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	if (!n)
		return FL_WIS_NONE;
	if (n == 6 && !strncmp(line, "warmup", 6))
		return FL_WIS_WARMUP;
	if (n == 11 && !strncmp(line, "measurement", 11))
		return FL_WIS_MEASURE;
	if (starts(line, "testcase:"))
		return FL_WIS_NONE;
	if (starts(line, "average:")) {
		if (parse_ull(line + 8, &v, &e) || (size_t)(e - line) != n)
			return fl_fail(err, errlen, "bad average line");
		return FL_WIS_NONE;
	}
	if (starts(line, "min:")) {
		if (parse_ull(p + 4, &s->min, &e) || !starts(e, " max:"))
			return fl_fail(err, errlen, "expected 'min:N max:N total:N'");
		if (parse_ull(e + 5, &s->max, &e) || !starts(e, " total:"))
			return fl_fail(err, errlen, "expected 'min:N max:N total:N'");
		if (parse_ull(e + 7, &s->total, &e) || (size_t)(e - line) != n)
			return fl_fail(err, errlen, "expected 'min:N max:N total:N'");
		if (s->min > s->max || s->max > s->total)
			return fl_fail(err, errlen, "min %llu, max %llu, total %llu: not min <= max <= total",
				       s->min, s->max, s->total);
		return FL_WIS_SAMPLE;
	}
	/* -v: "%4d -> %llu", one line per task and second */
	while (*p == ' ')
		p++;
	if (!parse_ull(p, &v, &e) && starts(e, " -> ") && !parse_ull(e + 4, &v, &e) &&
	    (size_t)(e - line) == n)
		return FL_WIS_NONE;
	return fl_fail(err, errlen, "not a will-it-scale line");
}

int fl_wis_log_name(const char *name, char *test, size_t len, unsigned int *n)
{
	const char *t = name + strlen("benchlog-"), *dash = strrchr(name, '-'), *e;
	unsigned long long v;

	if (!starts(name, "benchlog-") || !dash || dash <= t || (size_t)(dash - t) >= len)
		return -1;
	if (parse_ull(dash + 1, &v, &e) || *e || !v || v > 1u << 20)
		return -1;
	/* <test>_<model>: mmtests splits the name at '-' (line-parse-results) */
	for (const char *p = t; p < dash; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return -1;
	if (!memchr(t, '_', (size_t)(dash - t)))
		return -1;
	memcpy(test, t, (size_t)(dash - t));
	test[dash - t] = '\0';
	*n = (unsigned int)v;
	return 0;
}

/* DIR has benchlog files (of TEST, unless NULL) */
static int has_benchlogs(const char *dir, const char *test)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char t[64];
	unsigned int n;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d)))
		found = !fl_wis_log_name(de->d_name, t, sizeof(t), &n) && (!test || !strcmp(t, test));
	closedir(d);
	return found;
}

/*
 * DIR itself, else the one folder of benchlog files (of TEST, unless NULL)
 * in an mmtests results tree below it: TEST/logs (LOGDIR_RESULTS),
 * iter-N/TEST/logs (SHELLPACK_LOG), RUN/iter-N/TEST/logs (work/log).
 */
static char *find_logdir(const char *dir, const char *test, char *err, size_t errlen)
{
	static const char *const pat[] = { "logs", "*/logs", "iter-*/*/logs", "*/iter-*/*/logs" };
	char *found = NULL, pattern[4200], more[600] = "";
	unsigned int n = 0;

	if (has_benchlogs(dir, NULL))
		return strdup(dir);
	for (size_t i = 0; i < sizeof(pat) / sizeof(pat[0]); i++) {
		glob_t g;

		snprintf(pattern, sizeof(pattern), "%s/%s", dir, pat[i]);
		if (glob(pattern, GLOB_ONLYDIR, NULL, &g))
			continue;
		for (size_t k = 0; k < g.gl_pathc; k++) {
			if (!has_benchlogs(g.gl_pathv[k], test))
				continue;
			if (!n++) {
				found = strdup(g.gl_pathv[k]);
			} else {
				size_t l = strlen(more);

				snprintf(more + l, sizeof(more) - l, "%s%s", l ? ", " : "",
					 g.gl_pathv[k]);
			}
		}
		globfree(&g);
	}
	if (n == 1 && found)
		return found;
	if (n > 1)
		fl_fail(err, errlen, "%s holds %u folders of will-it-scale logs (%s, %s): give one",
			dir, n, found, more);
	else
		fl_fail(err, errlen, "%s: no pft-<threads>.log or benchlog-%s%s-<N> files "
			"(not a pft-sweep, wis sweep or mmtests wis result directory?)", dir,
			test ? test : "<test>_<model>", "");
	free(found);
	return NULL;
}

struct benchlog {
	struct fl_pft_series *ser;
	int warm;		/* between "warmup" and "measurement" */
};

/* one will-it-scale line into the series, unless a warmup sample */
static int benchlog_line(const char *line, void *arg, char *why, size_t whylen)
{
	struct benchlog *b = arg;
	struct fl_pft_series *ser = b->ser;
	struct fl_wis_sample s;
	int r = fl_wis_parse_line(line, &s, why, whylen);

	if (r < 0)
		return r;
	if (r == FL_WIS_WARMUP || r == FL_WIS_MEASURE)
		b->warm = r == FL_WIS_WARMUP;
	if (r != FL_WIS_SAMPLE || b->warm)
		return 0;
	if (!(ser->n & (ser->n - 1))) {	/* n = 0, 1, 2, 4 ...: room for twice as many */
		double *a = realloc(ser->ops, (ser->n ? 2 * (size_t)ser->n : 1) * sizeof(double));

		if (!a)
			return fl_fail(why, whylen, "out of memory");
		ser->ops = a;
	}
	ser->ops[ser->n++] = (double)s.total;
	return 0;
}

static int load_benchlog(const char *path, const char *name, struct fl_pft_series *ser,
			 char *err, size_t errlen)
{
	struct benchlog b = { .ser = ser };

	if (fl_log_each_line(path, name, benchlog_line, &b, err, errlen))
		return -1;
	if (!ser->n)
		return fl_fail(err, errlen, "%s: no will-it-scale samples after its warmup", name);
	return 0;
}

static int cmp_threads(const void *a, const void *b)
{
	const struct fl_pft_series *x = a, *y = b;

	return x->threads < y->threads ? -1 : x->threads > y->threads;
}

/* the snapshot of one series: pft-sweep --wis --record's, else the hooks' */
static int find_snap(struct fl_sweep *sw, struct fl_pft_series *ser)
{
	char path[4200], wl[64], *us;
	struct stat st;

	snprintf(wl, sizeof(wl), "%s", sw->test);
	us = strrchr(wl, '_');
	if (us)
		*us = '\0';
	snprintf(path, sizeof(path), "%s/snap/%s-%u.snap", sw->logdir, sw->test, ser->threads);
	if (stat(path, &st)) {
		snprintf(path, sizeof(path), "%s/faultline-%s-%u.snap", sw->logdir, wl,
			 ser->threads);
		if (stat(path, &st))
			return 0;
	}
	ser->snaps = calloc(1, sizeof(char *));
	if (!ser->snaps || !(ser->snaps[0] = strdup(path)))
		return -1;
	ser->nsnaps = 1;
	return 0;
}

int fl_wis_load(const char *dir, const char *test, struct fl_sweep *sw, char *err,
		size_t errlen)
{
	char tests[16][64], names[600] = "", path[4200];
	unsigned int ntests = 0, n;
	struct dirent *de;
	DIR *d;

	memset(sw, 0, sizeof(*sw));
	sw->wis = 1;
	sw->dir = strdup(dir);
	sw->logdir = find_logdir(dir, test, err, errlen);
	if (!sw->dir || !sw->logdir)
		goto bad;
	d = opendir(sw->logdir);
	if (!d) {
		fl_fail(err, errlen, "%s: %s", sw->logdir, strerror(errno));
		goto bad;
	}
	while ((de = readdir(d))) {
		char t[64];
		unsigned int k;

		if (fl_wis_log_name(de->d_name, t, sizeof(t), &n))
			continue;
		for (k = 0; k < ntests && strcmp(tests[k], t); k++)
			;
		if (k == ntests && ntests < 16)
			snprintf(tests[ntests++], sizeof(tests[0]), "%s", t);
		if (test && strcmp(t, test))
			continue;
		if (fl_sweep_add_series(sw, n)) {
			closedir(d);
			fl_fail(err, errlen, "out of memory");
			goto bad;
		}
		snprintf(sw->test, sizeof(sw->test), "%s", t);
	}
	closedir(d);
	for (unsigned int k = 0; k < ntests; k++) {
		size_t l = strlen(names);

		snprintf(names + l, sizeof(names) - l, "%s%s", k ? ", " : "", tests[k]);
	}
	if (test && !sw->nseries) {
		fl_fail(err, errlen, "%s: no will-it-scale test %s (there: %s)", sw->logdir, test,
			names);
		goto bad;
	}
	if (!test && ntests > 1) {
		fl_fail(err, errlen, "%s holds %u will-it-scale tests (%s): choose one with --test",
			sw->logdir, ntests, names);
		goto bad;
	}
	qsort(sw->series, sw->nseries, sizeof(*sw->series), cmp_threads);
	for (unsigned int i = 0; i < sw->nseries; i++) {
		char name[128];

		snprintf(name, sizeof(name), "benchlog-%s-%u", sw->test, sw->series[i].threads);
		snprintf(path, sizeof(path), "%s/%s", sw->logdir, name);
		if (load_benchlog(path, name, &sw->series[i], err, errlen)) {
			char tmp[512];

			snprintf(tmp, sizeof(tmp), "%s", err);
			fl_fail(err, errlen, "%s/%s", sw->logdir, tmp);
			goto bad;
		}
		if (find_snap(sw, &sw->series[i])) {
			fl_fail(err, errlen, "out of memory");
			goto bad;
		}
	}
	/* a wis sweep's settings and tags; an mmtests tree has neither, but
	 * its step snapshots carry the machine's tags (kernel release, build) */
	snprintf(path, sizeof(path), "%s/tags", sw->logdir);
	sw->tags = fl_read_text(path, 1 << 20);
	for (unsigned int i = 0; !sw->tags && i < sw->nseries; i++) {
		struct fl_snapshot s;
		char why[256];

		if (!sw->series[i].nsnaps ||
		    fl_snapshot_read_file(sw->series[i].snaps[0], &s, why, sizeof(why)))
			continue;
		if (s.tags)
			sw->tags = strdup(s.tags);
		fl_snapshot_free(&s);
	}
	snprintf(path, sizeof(path), "%s/sweep.conf", sw->logdir);
	sw->conf = fl_read_text(path, 1 << 20);
	return 0;
bad:
	fl_sweep_free(sw);
	return -1;
}
