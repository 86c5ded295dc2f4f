// SPDX-License-Identifier: GPL-2.0
/*
 * Merging snapshots (interval files of one recording) and loading FILE|DIR:
 * part of the snapshot module (snapshot.h), apart from snapshot.c because it
 * needs selfcost.c to merge the self-cost tags.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "selfcost.h"
#include "snapshot.h"

static int add_extra(struct fl_snapshot *s, const struct fl_raw_section *src)
{
	return fl_snapshot_add_section(s, src->sec.type, src->sec.count, src->data, src->sec.size);
}

static int copy_snapshot(struct fl_snapshot *dst, const struct fl_snapshot *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->hdr = src->hdr;
	dst->no_checksums = src->no_checksums;
	if (fl_snapshot_alloc_cpus(dst, src->hdr.nr_cpus))
		return -1;
	memcpy(dst->cpus, src->cpus, src->hdr.nr_cpus * sizeof(*src->cpus));
	if (src->cpu_online) {
		memcpy(dst->cpu_online, src->cpu_online, src->hdr.nr_cpus);
	} else {
		free(dst->cpu_online);
		dst->cpu_online = NULL;
	}
	if (src->nr_vmstat) {
		dst->vmstat = malloc(src->nr_vmstat * sizeof(*src->vmstat));
		if (!dst->vmstat)
			return -1;
		memcpy(dst->vmstat, src->vmstat, src->nr_vmstat * sizeof(*src->vmstat));
		dst->nr_vmstat = src->nr_vmstat;
	}
	if (src->tags && !(dst->tags = strdup(src->tags)))
		return -1;
	for (unsigned int i = 0; i < src->nr_extra; i++)
		if (add_extra(dst, &src->extra[i]))
			return -1;
	return 0;
}

static struct fl_raw_section *find_extra(struct fl_snapshot *s, unsigned int type)
{
	for (unsigned int i = 0; i < s->nr_extra; i++)
		if (s->extra[i].sec.type == type)
			return &s->extra[i];
	return NULL;
}

/*
 * Sections beyond the CPU records (phases, lock classes, callers) of one
 * recording's interval snapshots: per-CPU records are added, callers merged
 * by symbol, anything else kept from the first snapshot that has it.
 */
static int merge_extra(struct fl_snapshot *dst, const struct fl_raw_section *src)
{
	struct fl_raw_section *d = find_extra(dst, src->sec.type);

	if (!d)
		return add_extra(dst, src);
	if (d->sec.count != src->sec.count || d->sec.size != src->sec.size) {
		if (src->sec.type != FL_SEC_LOCK_CALLERS)
			return 0;	/* malformed or another layout: keep the first */
	}
	switch (src->sec.type) {
	case FL_SEC_PHASES:
		if (src->sec.size != (fl_u64)src->sec.count * sizeof(struct fl_phase_stats))
			return 0;
		for (unsigned int c = 0; c < src->sec.count; c++)
			fl_phase_stats_add((struct fl_phase_stats *)d->data + c,
					   (const struct fl_phase_stats *)src->data + c);
		return 0;
	case FL_SEC_LOCKS:
		if (src->sec.size != (fl_u64)src->sec.count * sizeof(struct fl_lock_stats))
			return 0;
		for (unsigned int c = 0; c < src->sec.count; c++)
			fl_lock_stats_add((struct fl_lock_stats *)d->data + c,
					  (const struct fl_lock_stats *)src->data + c);
		return 0;
	case FL_SEC_LOCK_CALLERS: {
		const struct fl_lock_caller *in = src->data;

		if (src->sec.size != (fl_u64)src->sec.count * sizeof(*in) ||
		    d->sec.size != (fl_u64)d->sec.count * sizeof(*in))
			return 0;
		for (unsigned int i = 0; i < src->sec.count; i++) {
			struct fl_lock_caller *out = d->data;
			unsigned int j;

			for (j = 0; j < d->sec.count; j++)
				if (!strncmp(out[j].sym, in[i].sym, FL_SYM_LEN))
					break;
			if (j == d->sec.count) {
				out = realloc(d->data, (d->sec.count + 1) * sizeof(*out));
				if (!out)
					return -1;
				d->data = out;
				memset(&out[j], 0, sizeof(out[j]));
				memcpy(out[j].sym, in[i].sym, FL_SYM_LEN);
				d->sec.count++;
				d->sec.size += sizeof(*out);
			}
			out[j].count += in[i].count;
			out[j].wait_ns += in[i].wait_ns;
		}
		return 0;
	}
	default:
		return 0;
	}
}

int fl_snapshot_merge(struct fl_snapshot *dst, const struct fl_snapshot *src,
		      char *err, size_t errlen)
{
	if (!dst->cpus) {
		if (copy_snapshot(dst, src))
			return fl_fail(err, errlen, "out of memory");
		return 0;
	}
	if (dst->hdr.nr_cpus != src->hdr.nr_cpus || dst->hdr.backend != src->hdr.backend ||
	    dst->hdr.tier != src->hdr.tier || dst->hdr.lockless_kind != src->hdr.lockless_kind) {
		return fl_fail(err, errlen, "snapshots from different recordings (CPUs %u/%u, "
			       "backend %s/%s, tier %s/%s)",
			       dst->hdr.nr_cpus, src->hdr.nr_cpus, fl_backend_name(dst->hdr.backend),
			       fl_backend_name(src->hdr.backend), fl_tier_name(dst->hdr.tier),
			       fl_tier_name(src->hdr.tier));
	}
	for (unsigned int c = 0; c < dst->hdr.nr_cpus; c++) {
		fl_cpu_stats_add(&dst->cpus[c], &src->cpus[c]);
		if (dst->cpu_online && src->cpu_online)
			dst->cpu_online[c] |= src->cpu_online[c];
	}
	dst->hdr.hooks_live &= src->hdr.hooks_live;
	dst->hdr.hooks_absent |= src->hdr.hooks_absent;
	if (src->hdr.t_start_ns < dst->hdr.t_start_ns)
		dst->hdr.t_start_ns = src->hdr.t_start_ns;
	if (src->hdr.t_end_ns > dst->hdr.t_end_ns)
		dst->hdr.t_end_ns = src->hdr.t_end_ns;
	dst->hdr.duration_ns += src->hdr.duration_ns;
	dst->no_checksums += src->no_checksums;
	for (unsigned int i = 0; i < dst->nr_vmstat; i++)
		for (unsigned int j = 0; j < src->nr_vmstat; j++)
			if (!strcmp(dst->vmstat[i].name, src->vmstat[j].name))
				dst->vmstat[i].after += src->vmstat[j].after - src->vmstat[j].before;
	for (unsigned int i = 0; i < src->nr_extra; i++)
		if (merge_extra(dst, &src->extra[i]))
			return fl_fail(err, errlen, "out of memory");
	if (fl_selfcost_merge(dst, src))
		return fl_fail(err, errlen, "out of memory");
	return 0;
}

int fl_snapshot_load(const char *path, struct fl_snapshot *out, unsigned int *nfiles,
		     char *err, size_t errlen)
{
	struct stat st;
	char **names = NULL, full[4096];
	unsigned int n = 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	*nfiles = 0;
	if (stat(path, &st))
		return fl_fail(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		if (fl_snapshot_read_file(path, out, err, errlen))
			return -1;
		*nfiles = 1;
		return 0;
	}
	if (fl_snapshot_list_dir(path, &names, &n, err, errlen))
		return -1;
	if (!n) {
		fl_fail(err, errlen, "%s: no *.snap files", path);
		goto out;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct fl_snapshot s;
		char e2[512];

		snprintf(full, sizeof(full), "%s/%s", path, names[i]);
		if (fl_snapshot_read_file(full, &s, err, errlen))
			goto out;
		if (fl_snapshot_merge(out, &s, e2, sizeof(e2))) {
			fl_fail(err, errlen, "%s: %s", full, e2);
			fl_snapshot_free(&s);
			goto out;
		}
		fl_snapshot_free(&s);
	}
	*nfiles = n;
	ret = 0;
out:
	fl_snapshot_names_free(names, n);
	if (ret)
		fl_snapshot_free(out);
	return ret;
}
