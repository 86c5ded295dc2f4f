/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A name index over one BTF: types by (name, kind), enumerators by name.
 * libbpf 1.1's btf__find_by_name_kind() scans every type on each call; the
 * kernel's BTF has ~130k, and a record asks it a hundred-odd questions
 * (kfeatures, phases, blame): ~110M instructions a record, ~0.4 s of it
 * under TCG.  Built once (a pass over the types), then each lookup is a
 * hash chain.  Answers are the ones a scan gives: the lowest type id of
 * that name and kind; the first enumerator of that name in type-id order.
 */
#ifndef FAULTLINE_BTF_INDEX_H
#define FAULTLINE_BTF_INDEX_H

#include <stdbool.h>

struct btf;
struct fl_btf_index;

/* NULL when out of memory (callers then scan, as without an index). */
struct fl_btf_index *fl_btf_index_build(const struct btf *btf);
void fl_btf_index_free(struct fl_btf_index *ix);
/* The type id of NAME with KIND (BTF_KIND_*), or -1. */
int fl_btf_index_find(const struct fl_btf_index *ix, const char *name, int kind);
/* Enumerator NAME (enum or enum64): true and *val, else false. */
bool fl_btf_index_enum(const struct fl_btf_index *ix, const char *name, long long *val);

#endif
