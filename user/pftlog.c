// SPDX-License-Identifier: GPL-2.0
/* pft output lines and pft-sweep result directories (see pftlog.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "kv.h"
#include "pftlog.h"
#include "snapshot.h"
#include "textfile.h"
#include "wislog.h"

static int parse_uint(const char *t, unsigned int *v)
{
	unsigned long x;
	char *end;

	if (*t < '0' || *t > '9')
		return -1;
	errno = 0;
	x = strtoul(t, &end, 10);
	if (errno || *end || x > 1u << 30)
		return -1;
	*v = x;
	return 0;
}

/* a finite non-negative decimal, optionally followed by `suffix` */
static int parse_num(const char *t, double *v, char suffix, int allow_inf)
{
	char *end;
	double x;

	if (allow_inf && (!strcmp(t, "inf") || !strcmp(t, "INF"))) {
		*v = INFINITY;
		return 0;
	}
	if ((*t < '0' || *t > '9') && *t != '.')
		return -1;
	if (strspn(t, "0123456789.eE+-") < strcspn(t, suffix ? (char[]){ suffix, 0 } : ""))
		return -1;	/* decimal only: no hex, no "nan" */
	errno = 0;
	x = strtod(t, &end);
	if (errno || end == t || !isfinite(x) || x < 0)
		return -1;
	if (suffix && *end == suffix)
		end++;
	if (*end)
		return -1;
	*v = x;
	return 0;
}

int fl_pft_parse_line(const char *line, struct fl_pft_sample *s, char *err, size_t errlen)
{
	char buf[512], *tok[9], *save = NULL, *p;
	int n = 0;

	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line || *line == '\n' || *line == '#')
		return 0;
	if (!strncmp(line, "Gb ", 3) || !strncmp(line, "Gb\t", 3))
		return 0;	/* column header */
	if (strlen(line) >= sizeof(buf))
		return fl_fail(err, errlen, "line too long");
	strcpy(buf, line);
	for (p = strtok_r(buf, " \t\r\n", &save); p; p = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 9)
			break;
		tok[n++] = p;
	}
	if (n != 8)
		return fl_fail(err, errlen, "expected 8 columns (Gb Thr CLine User System Wall "
			    "flt/cpu/s fault/wsec), got %s%d", n == 9 ? "more than " : "",
			    n == 9 ? 8 : n);
	memset(s, 0, sizeof(*s));
	if (parse_num(tok[0], &s->gb, 0, 0))
		return fl_fail(err, errlen, "bad Gb column '%s'", tok[0]);
	if (parse_uint(tok[1], &s->threads) || !s->threads)
		return fl_fail(err, errlen, "bad thread count '%s'", tok[1]);
	if (parse_uint(tok[2], &s->clines))
		return fl_fail(err, errlen, "bad CLine column '%s'", tok[2]);
	if (parse_num(tok[3], &s->user_s, 's', 0) || parse_num(tok[4], &s->sys_s, 's', 0) ||
	    parse_num(tok[5], &s->wall_s, 's', 0))
		return fl_fail(err, errlen, "bad time column in '%s %s %s'", tok[3], tok[4], tok[5]);
	if (parse_num(tok[6], &s->flt_cpu, 0, 1) || parse_num(tok[7], &s->flt_wsec, 0, 1))
		return fl_fail(err, errlen, "bad rate column in '%s %s'", tok[6], tok[7]);
	return 1;
}

static int cmp_series(const void *a, const void *b)
{
	const struct fl_pft_series *x = a, *y = b;

	return x->threads < y->threads ? -1 : x->threads > y->threads;
}

/* one pft line into the series */
static int pft_line(const char *line, void *arg, char *why, size_t whylen)
{
	struct fl_pft_series *ser = arg;
	struct fl_pft_sample s;
	int r = fl_pft_parse_line(line, &s, why, whylen);

	if (r <= 0)
		return r;
	if (s.threads != ser->threads)
		return fl_fail(why, whylen, "thread column says %u, file name says %u", s.threads,
			       ser->threads);
	if (!isfinite(s.flt_cpu) || !isfinite(s.flt_wsec)) {
		ser->dropped++;
		return 0;
	}
	if (!(ser->n & (ser->n - 1))) {	/* n = 0, 1, 2, 4 ...: room for twice as many */
		size_t cap = ser->n ? 2 * (size_t)ser->n : 1;
		double *a = realloc(ser->flt_cpu, cap * sizeof(double)), *b;

		if (a)
			ser->flt_cpu = a;
		b = realloc(ser->flt_wsec, cap * sizeof(double));
		if (b)
			ser->flt_wsec = b;
		if (!a || !b)
			return fl_fail(why, whylen, "out of memory");
	}
	ser->flt_cpu[ser->n] = s.flt_cpu;
	ser->flt_wsec[ser->n] = s.flt_wsec;
	ser->n++;
	return 0;
}

static int load_log(const char *path, const char *name, struct fl_pft_series *ser,
		    char *err, size_t errlen)
{
	if (fl_log_each_line(path, name, pft_line, ser, err, errlen))
		return -1;
	if (!ser->n)
		return fl_fail(err, errlen, "%s: no pft result lines%s", name,
			    ser->dropped ? " with a finite rate" : "");
	return 0;
}

/* "pft-<N>.log" -> N; "pft-<N>-<I>.snap" -> N, I (no leading zeros) */
static int name_num(const char *s, const char *prefix, const char *suffix,
		    unsigned int *a, unsigned int *b)
{
	size_t pl = strlen(prefix), sl = strlen(suffix), n = strlen(s);
	char mid[64], *dash;

	if (n <= pl + sl || strncmp(s, prefix, pl) || strcmp(s + n - sl, suffix) ||
	    n - pl - sl >= sizeof(mid))
		return -1;
	memcpy(mid, s + pl, n - pl - sl);
	mid[n - pl - sl] = '\0';
	dash = strchr(mid, '-');
	if (b) {
		if (!dash)
			return -1;
		*dash = '\0';
		/* one name per number: "pft-1-01.snap" would repeat iteration 1 */
		if (parse_uint(dash + 1, b) || (dash[1] == '0' && dash[2]))
			return -1;
	} else if (dash) {
		return -1;
	}
	return parse_uint(mid, a) || !*a || mid[0] == '0' ? -1 : 0;
}

struct snap_ent { unsigned int iter; char *path; };

static int cmp_snap(const void *a, const void *b)
{
	const struct snap_ent *x = a, *y = b;

	return x->iter < y->iter ? -1 : x->iter > y->iter;
}

/* DIR/snap/pft-<threads>-<iteration>.snap, per series in iteration order */
static int load_snaps(struct fl_sweep *sw, char *err, size_t errlen)
{
	char path[4096], **names;
	unsigned int nnames;

	snprintf(path, sizeof(path), "%s/snap", sw->dir);
	if (fl_snapshot_list_dir(path, &names, &nnames, err, errlen))
		return errno == ENOENT ? 0 : -1;
	for (unsigned int i = 0; i < sw->nseries; i++) {
		struct fl_pft_series *ser = &sw->series[i];
		struct snap_ent *ents = NULL;
		unsigned int n = 0;

		for (unsigned int j = 0; j < nnames; j++) {
			unsigned int t, it;
			struct snap_ent *ne;

			if (name_num(names[j], "pft-", ".snap", &t, &it) || t != ser->threads)
				continue;
			ne = realloc(ents, (n + 1) * sizeof(*ents));
			if (!ne)
				goto oom;
			ents = ne;
			if (asprintf(&ents[n].path, "%s/snap/%s", sw->dir, names[j]) < 0)
				goto oom;
			ents[n++].iter = it;
			continue;
oom:
			for (unsigned int k = 0; k < n; k++)
				free(ents[k].path);
			free(ents);
			fl_snapshot_names_free(names, nnames);
			return fl_fail(err, errlen, "out of memory");
		}
		if (n)	/* qsort(NULL, 0) is undefined */
			qsort(ents, n, sizeof(*ents), cmp_snap);
		ser->snaps = calloc(n ? n : 1, sizeof(char *));
		if (!ser->snaps) {
			for (unsigned int k = 0; k < n; k++)
				free(ents[k].path);
			free(ents);
			fl_snapshot_names_free(names, nnames);
			return fl_fail(err, errlen, "out of memory");
		}
		for (unsigned int k = 0; k < n; k++)
			ser->snaps[k] = ents[k].path;
		ser->nsnaps = n;
		free(ents);
	}
	fl_snapshot_names_free(names, nnames);
	return 0;
}

int fl_sweep_dir_has_logs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned int t;
	char test[64];
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d)))
		found = !name_num(de->d_name, "pft-", ".log", &t, NULL) ||
			!fl_wis_log_name(de->d_name, test, sizeof(test), &t);
	closedir(d);
	return found;
}

int fl_sweep_load(const char *dir, struct fl_sweep *sw, char *err, size_t errlen)
{
	return fl_sweep_load_test(dir, NULL, sw, err, errlen);
}

int fl_sweep_load_test(const char *dir, const char *test, struct fl_sweep *sw,
		       char *err, size_t errlen)
{
	char path[4096];
	struct dirent *de;
	struct stat st;
	DIR *d;

	memset(sw, 0, sizeof(*sw));
	if (stat(dir, &st))
		return fl_fail(err, errlen, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return fl_fail(err, errlen, "%s: not a directory (a pft-sweep result directory is)",
			    dir);
	sw->dir = strdup(dir);
	d = opendir(dir);
	if (!sw->dir || !d) {
		fl_fail(err, errlen, "%s: %s", dir, strerror(errno));
		goto bad;
	}
	while ((de = readdir(d))) {
		unsigned int t;

		if (name_num(de->d_name, "pft-", ".log", &t, NULL))
			continue;
		if (fl_sweep_add_series(sw, t)) {
			closedir(d);
			fl_fail(err, errlen, "out of memory");
			goto bad;
		}
	}
	closedir(d);
	if (!sw->nseries) {	/* will-it-scale results, or nothing this reads */
		fl_sweep_free(sw);
		return fl_wis_load(dir, test, sw, err, errlen);
	}
	if (test) {
		fl_fail(err, errlen, "%s: a pft sweep: --test names a will-it-scale test", dir);
		goto bad;
	}
	qsort(sw->series, sw->nseries, sizeof(*sw->series), cmp_series);
	for (unsigned int i = 0; i < sw->nseries; i++) {
		char name[64];

		snprintf(name, sizeof(name), "pft-%u.log", sw->series[i].threads);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (load_log(path, name, &sw->series[i], err, errlen))
			goto bad_prefix;
	}
	snprintf(path, sizeof(path), "%s/tags", dir);
	sw->tags = fl_read_text(path, 1 << 20);
	if (!sw->tags && errno != ENOENT) {
		fl_fail(err, errlen, "%s: %s", path, strerror(errno));
		goto bad;
	}
	snprintf(path, sizeof(path), "%s/sweep.conf", dir);
	sw->conf = fl_read_text(path, 1 << 20);
	if (!sw->conf && errno != ENOENT) {
		fl_fail(err, errlen, "%s: %s", path, strerror(errno));
		goto bad;
	}
	if (load_snaps(sw, err, errlen))
		goto bad;
	return 0;
bad_prefix:
	/* prefix "DIR/" so the user knows which side was bad */
	{
		char tmp[512];

		snprintf(tmp, sizeof(tmp), "%s", err);
		fl_fail(err, errlen, "%s/%s", dir, tmp);
	}
bad:
	fl_sweep_free(sw);
	return -1;
}

int fl_sweep_shape(const struct fl_sweep *sw, char *buf, size_t len)
{
	char shape[64], file[8];

	if (sw->wis) {	/* two will-it-scale tests are two workloads */
		snprintf(buf, len, "%s", sw->test);
		return 0;
	}
	if (!sw->conf) {
		snprintf(buf, len, "unknown (no sweep.conf)");
		return -1;
	}
	if (!fl_kv_get(sw->conf, "PFT_SHAPE", shape, sizeof(shape)) || !shape[0])
		snprintf(shape, sizeof(shape), "anon");
	if (!strcmp(shape, "anon"))
		snprintf(buf, len, "anon");
	else
		snprintf(buf, len, "%s/%s", shape,
			 fl_kv_get(sw->conf, "PFT_FILE", file, sizeof(file)) && file[0] ?
			 "file" : "tmpfs");
	return 0;
}
