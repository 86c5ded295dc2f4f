// SPDX-License-Identifier: GPL-2.0
/* The (A) and (B) labels from what differs between the sides (compare_label.h). */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "compare_label.h"
#include "kv.h"

static int differs(const struct fl_label_cand *c)
{
	return c->v[0] && c->v[1] && c->v[0][0] && c->v[1][0] && strcmp(c->v[0], c->v[1]);
}

/* "dir/name/" -> "name" */
static const char *base(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);
	const char *b;

	while (n > 1 && path[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s", (int)n, path);
	b = strrchr(buf, '/');
	return b && b[1] ? b + 1 : buf;
}

int fl_pick_labels(const struct fl_label_cand *c, unsigned int n, const char *const over[2],
		   const char *const path[2], char out[2][FL_LABEL_LEN])
{
	char b[2][FL_LABEL_LEN * 2];
	const char *name[2];
	int used = -1;

	for (unsigned int i = 0; i < n && used < 0; i++)
		if (differs(&c[i]))
			used = (int)i;
	for (int s = 0; s < 2; s++)
		name[s] = base(path[s], b[s], sizeof(b[s]));
	if (!strcmp(name[0], name[1])) {
		name[0] = path[0];
		name[1] = path[1];
	}
	if (!strcmp(name[0], name[1])) {
		name[0] = "A";
		name[1] = "B";
	}
	for (int s = 0; s < 2; s++) {
		const char *k = n ? c[0].v[s] : NULL;

		if (over && over[s])
			snprintf(out[s], FL_LABEL_LEN, "%s", over[s]);
		else if (used >= 0)
			snprintf(out[s], FL_LABEL_LEN, "%s", c[used].v[s]);
		else if (k && *k)
			snprintf(out[s], FL_LABEL_LEN, "%.60s (%.60s)", k, name[s]);
		else
			snprintf(out[s], FL_LABEL_LEN, "%s", name[s]);
	}
	return used;
}

void fl_cmp_labels(const struct fl_cmp *c, const char *const over[2], char out[2][FL_LABEL_LEN])
{
	static const char *const keys[] = { FL_TAG_KERNEL_VERSION, FL_TAG_KERNEL_BUILD,
					   FL_TAG_KERNEL_FILE };
	char v[3][2][FL_LABEL_LEN];
	struct fl_label_cand cand[3];

	for (int i = 0; i < 3; i++) {
		cand[i].what = keys[i];
		for (int s = 0; s < 2; s++)
			cand[i].v[s] = c->sw[s].tags ? fl_kv_get(c->sw[s].tags, keys[i], v[i][s],
								  sizeof(v[i][s])) : NULL;
	}
	fl_pick_labels(cand, 3, over, (const char *const[2]){ c->sw[0].dir, c->sw[1].dir }, out);
}
