// SPDX-License-Identifier: GPL-2.0
/*
 * Blame's rows as the snapshot keeps them (user/blame_rows.h): sites with the
 * same syscall, comm and frames merged, the top FL_BLAME_TOP_ROWS by the fault
 * wait they caused -- for the BPF skeleton's sites (blame_collect.c) and for the
 * rows faultline.ko's snapshot brings (module/blame.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <faultline/blame.h>
#include "blame_rows.h"
#include "errbuf.h"

void fl_blame_drop_sections(struct fl_snapshot *s)
{
	unsigned int i, j = 0;

	for (i = 0; i < s->nr_extra; i++) {
		unsigned int t = s->extra[i].sec.type;

		if (t == FL_SEC_BLAME || t == FL_SEC_BLAME_TOTAL) {
			free(s->extra[i].data);
			continue;
		}
		s->extra[j++] = s->extra[i];
	}
	s->nr_extra = j;
}

static int row_cmp(const void *a, const void *b)
{
	const struct fl_blame_row *x = a, *y = b;

	if (x->wait.sum != y->wait.sum)
		return x->wait.sum < y->wait.sum ? 1 : -1;
	if (x->hold.sum != y->hold.sum)
		return x->hold.sum < y->hold.sum ? 1 : -1;
	return x->sysnr < y->sysnr ? -1 : x->sysnr > y->sysnr;
}

static bool same_site(const struct fl_blame_row *a, const struct fl_blame_row *b)
{
	if (a->sysnr != b->sysnr || a->nframes != b->nframes ||
	    strncmp(a->comm, b->comm, BL_COMM_LEN))
		return false;
	for (unsigned int i = 0; i < a->nframes; i++)
		if (strncmp(a->frames[i], b->frames[i], FL_SYM_LEN))
			return false;
	return true;
}

int fl_blame_rows_add(struct fl_blame_rows *rs, const struct fl_blame_row *one)
{
	unsigned int j;

	for (j = 0; j < rs->nr; j++)
		if (same_site(&rs->v[j], one)) {
			fl_blame_row_add_row(&rs->v[j], one);
			return 0;
		}
	if (rs->nr == rs->cap) {
		unsigned int cap = rs->cap ? rs->cap * 2 : 16;
		struct fl_blame_row *n2 = realloc(rs->v, cap * sizeof(*n2));

		if (!n2)
			return -1;
		rs->v = n2;
		rs->cap = cap;
	}
	rs->v[rs->nr++] = *one;
	return 0;
}

int fl_blame_rows_put(struct fl_blame_rows *rs, struct fl_snapshot *s, char *err, size_t errlen)
{
	unsigned int nr = rs->nr;
	int ret = 0;

	if (nr > 1)
		qsort(rs->v, nr, sizeof(*rs->v), row_cmp);
	if (nr > FL_BLAME_TOP_ROWS)
		nr = FL_BLAME_TOP_ROWS;
	if (fl_snapshot_add_section(s, FL_SEC_BLAME, nr, rs->v, nr * sizeof(*rs->v)))
		ret = fl_fail(err, errlen, "out of memory");
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
	return ret;
}

int fl_blame_kmod_rows(struct fl_snapshot *s, struct fl_blame_total *t, char *err, size_t errlen)
{
	const struct fl_blame_total *mt = fl_snapshot_blame_total(s);
	const struct fl_blame_row *mr;
	struct fl_blame_row *copy = NULL;
	struct fl_blame_rows rs = { 0 };
	unsigned int nr = 0;
	int ret = 0;

	mr = fl_snapshot_blame(s, &nr);
	if (!mt || !(mt->kmod & FL_BLAME_KMOD)) {
		fl_blame_drop_sections(s);
		return 1;
	}
	*t = *mt;
	if (!mr)
		nr = 0;
	if (nr && !(copy = malloc(nr * sizeof(*copy))))
		return fl_fail(err, errlen, "out of memory");
	if (nr)
		memcpy(copy, mr, nr * sizeof(*copy));
	fl_blame_drop_sections(s);
	for (unsigned int i = 0; i < nr && !ret; i++) {
		struct fl_blame_row *r = &copy[i];

		/* the module's text, NUL-terminated here whatever it wrote */
		r->comm[BL_COMM_LEN - 1] = '\0';
		if (r->nframes > FL_BLAME_FRAMES)
			r->nframes = FL_BLAME_FRAMES;
		for (unsigned int f = 0; f < r->nframes; f++)
			r->frames[f][FL_SYM_LEN - 1] = '\0';
		r->kind = fl_blame_kind(r->sysnr, (const char (*)[FL_SYM_LEN])r->frames,
					r->nframes);
		if (fl_blame_rows_add(&rs, r))
			ret = fl_fail(err, errlen, "out of memory");
	}
	if (!ret)
		ret = fl_blame_rows_put(&rs, s, err, errlen);
	free(rs.v);
	free(copy);
	if (ret)
		return ret;
	t->fb_seen = FL_BLAME_FB_NONE;
	if (fl_snapshot_add_section(s, FL_SEC_BLAME_TOTAL, 1, t, sizeof(*t)))
		return fl_fail(err, errlen, "out of memory");
	return 0;
}
