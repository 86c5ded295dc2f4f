// SPDX-License-Identifier: GPL-2.0
/* A name index over one BTF (btf_index.h): two chained hash tables. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "btf_index.h"

#define NIL UINT32_MAX

/* a chain link: a type id, or an enumerator (type id, its index) */
struct ent {
	uint32_t id;
	uint32_t idx;
	uint32_t next;
};

struct table {
	uint32_t mask;		/* buckets - 1 */
	uint32_t *head;
	struct ent *e;
	uint32_t n;
};

struct fl_btf_index {
	const struct btf *btf;
	struct table types, enums;
};

/*
 * FNV-1a four bytes a step, then murmur3's finaliser (the buckets take the
 * low bits): this runs over every name of the kernel's BTF once.
 */
static uint32_t hash(const char *s)
{
	size_t n = strlen(s);
	uint32_t h = 2166136261u ^ (uint32_t)n, w;

	for (; n >= 4; n -= 4, s += 4) {
		memcpy(&w, s, 4);
		h = (h ^ w) * 16777619u;
	}
	for (; n; n--, s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

static int table_init(struct table *t, uint32_t cap)
{
	uint32_t b = 1024;

	while (b < cap * 2 && b < (1u << 30))
		b <<= 1;
	t->mask = b - 1;
	t->head = malloc(sizeof(*t->head) * b);
	t->e = malloc(sizeof(*t->e) * (cap ? cap : 1));
	if (!t->head || !t->e)
		return -1;
	memset(t->head, 0xff, sizeof(*t->head) * b);	/* NIL */
	t->n = 0;
	return 0;
}

/*
 * Entries are added from the highest type id down and pushed at the head of
 * their chain, so a chain runs in type-id order: the first match is the
 * one a forward scan finds.
 */
static void table_push(struct table *t, const char *name, uint32_t id, uint32_t idx)
{
	uint32_t b = hash(name) & t->mask;

	t->e[t->n] = (struct ent){ .id = id, .idx = idx, .next = t->head[b] };
	t->head[b] = t->n++;
}

static const char *enum_name(const struct btf *btf, const struct btf_type *t, uint32_t i)
{
	uint32_t off = btf_is_enum(t) ? btf_enum(t)[i].name_off : btf_enum64(t)[i].name_off;

	return btf__name_by_offset(btf, off);
}

void fl_btf_index_free(struct fl_btf_index *ix)
{
	if (!ix)
		return;
	free(ix->types.head);
	free(ix->types.e);
	free(ix->enums.head);
	free(ix->enums.e);
	free(ix);
}

struct fl_btf_index *fl_btf_index_build(const struct btf *btf)
{
	struct fl_btf_index *ix = calloc(1, sizeof(*ix));
	uint32_t n = btf__type_cnt(btf), ntypes = 0, nenums = 0;

	if (!ix)
		return NULL;
	ix->btf = btf;
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (t->name_off)
			ntypes++;
		if (btf_is_enum(t) || btf_is_enum64(t))
			nenums += btf_vlen(t);
	}
	if (table_init(&ix->types, ntypes) || table_init(&ix->enums, nenums)) {
		fl_btf_index_free(ix);
		return NULL;
	}
	for (uint32_t id = n - 1; id >= 1; id--) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (t->name_off)
			table_push(&ix->types, btf__name_by_offset(btf, t->name_off), id, 0);
		if (btf_is_enum(t) || btf_is_enum64(t))
			for (uint32_t i = btf_vlen(t); i-- > 0;)
				table_push(&ix->enums, enum_name(btf, t, i), id, i);
	}
	return ix;
}

int fl_btf_index_find(const struct fl_btf_index *ix, const char *name, int kind)
{
	for (uint32_t i = ix->types.head[hash(name) & ix->types.mask]; i != NIL; i = ix->types.e[i].next) {
		const struct btf_type *t = btf__type_by_id(ix->btf, ix->types.e[i].id);

		if (btf_kind(t) == kind && !strcmp(btf__name_by_offset(ix->btf, t->name_off), name))
			return (int)ix->types.e[i].id;
	}
	return -1;
}

bool fl_btf_index_enum(const struct fl_btf_index *ix, const char *name, long long *val)
{
	for (uint32_t i = ix->enums.head[hash(name) & ix->enums.mask]; i != NIL; i = ix->enums.e[i].next) {
		const struct ent *e = &ix->enums.e[i];
		const struct btf_type *t = btf__type_by_id(ix->btf, e->id);

		if (strcmp(enum_name(ix->btf, t, e->idx), name))
			continue;
		*val = btf_is_enum(t) ? (long long)(unsigned int)btf_enum(t)[e->idx].val
				      : (long long)btf_enum64_value(&btf_enum64(t)[e->idx]);
		return true;
	}
	return false;
}
