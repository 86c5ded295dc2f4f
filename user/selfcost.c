// SPDX-License-Identifier: GPL-2.0
/* The bpf_run.<program> tags: written by record --self-cost, read by report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selfcost.h"

int fl_selfcost_set(struct fl_snapshot *s, const char *prog, unsigned long long runs,
		    unsigned long long ns)
{
	char key[FL_SELFCOST_NAME_LEN + sizeof(FL_SELFCOST_PREFIX)], val[48];

	if (strlen(prog) >= FL_SELFCOST_NAME_LEN)
		return -1;
	snprintf(key, sizeof(key), FL_SELFCOST_PREFIX "%s", prog);
	snprintf(val, sizeof(val), "%llu %llu", runs, ns);
	return fl_snapshot_set_tag(s, key, val);
}

/* "bpf_run.NAME=RUNS NS" -> e; 0 or -1 */
static int parse_line(const char *p, size_t n, struct fl_selfcost_entry *e)
{
	const size_t plen = strlen(FL_SELFCOST_PREFIX);
	const char *eq = memchr(p, '=', n);
	char num[48], *end;
	size_t klen, vlen;

	if (n < plen || memcmp(p, FL_SELFCOST_PREFIX, plen) || !eq)
		return -1;
	klen = (size_t)(eq - p) - plen;
	vlen = n - (size_t)(eq + 1 - p);
	if (!klen || klen >= sizeof(e->name) || vlen >= sizeof(num))
		return -1;
	memcpy(e->name, p + plen, klen);
	e->name[klen] = '\0';
	memcpy(num, eq + 1, vlen);
	num[vlen] = '\0';
	if (num[0] < '0' || num[0] > '9')
		return -1;
	errno = 0;
	e->runs = strtoull(num, &end, 10);
	if (errno || *end != ' ' || end[1] < '0' || end[1] > '9')
		return -1;
	e->ns = strtoull(end + 1, &end, 10);
	return errno || *end ? -1 : 0;
}

unsigned int fl_selfcost_list(const struct fl_snapshot *s, struct fl_selfcost_entry *out,
			      unsigned int max)
{
	const char *p = s->tags;
	unsigned int n = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		struct fl_selfcost_entry e;

		if (!parse_line(p, len, &e)) {
			if (out && n < max)
				out[n] = e;
			n++;
		}
		p += len + (nl ? 1 : 0);
	}
	return n;
}

struct fl_selfcost_entry *fl_selfcost_get(const struct fl_snapshot *s, unsigned int *n,
					  unsigned long long *runs, unsigned long long *ns)
{
	struct fl_selfcost_entry *e;

	*runs = *ns = 0;
	*n = fl_selfcost_list(s, NULL, 0);
	if (!*n || !(e = calloc(*n, sizeof(*e)))) {
		*n = 0;
		return NULL;
	}
	fl_selfcost_list(s, e, *n);
	for (unsigned int i = 0; i < *n; i++) {
		*runs += e[i].runs;
		*ns += e[i].ns;
	}
	return e;
}

/* s's tags without its bpf_run.* lines (malloc'ed; "" when none are left). */
static char *tags_without_runs(const struct fl_snapshot *s)
{
	const char *p = s->tags ? s->tags : "";
	char *out = malloc(strlen(p) + 1), *o = out;
	struct fl_selfcost_entry e;

	if (!out)
		return NULL;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (parse_line(p, len, &e)) {
			memcpy(o, p, len);
			o += len;
			*o++ = '\n';
		}
		p += len + (nl ? 1 : 0);
	}
	*o = '\0';
	return out;
}

int fl_selfcost_merge(struct fl_snapshot *dst, const struct fl_snapshot *src)
{
	unsigned int nd = fl_selfcost_list(dst, NULL, 0), ns = fl_selfcost_list(src, NULL, 0);
	struct fl_selfcost_entry *d = NULL, *sv = NULL;
	char *rest = NULL;
	unsigned int n, i, j;
	int ret = -1;

	if (!ns)
		return 0;
	d = calloc(nd + ns, sizeof(*d));
	sv = calloc(ns, sizeof(*sv));
	rest = tags_without_runs(dst);
	if (!d || !sv || !rest)
		goto out;
	n = fl_selfcost_list(dst, d, nd);
	fl_selfcost_list(src, sv, ns);
	for (i = 0; i < ns; i++) {
		for (j = 0; j < n && strcmp(d[j].name, sv[i].name); j++)
			;
		if (j == n)
			d[n++] = (struct fl_selfcost_entry){ .runs = 0 };
		memcpy(d[j].name, sv[i].name, sizeof(d[j].name));
		d[j].runs += sv[i].runs;
		d[j].ns += sv[i].ns;
	}
	free(dst->tags);
	dst->tags = rest[0] ? rest : NULL;
	if (dst->tags)
		rest = NULL;
	for (i = 0; i < n; i++)
		if (fl_selfcost_set(dst, d[i].name, d[i].runs, d[i].ns))
			goto out;
	ret = 0;
out:
	free(rest);
	free(sv);
	free(d);
	return ret;
}
