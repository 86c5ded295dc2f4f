// SPDX-License-Identifier: GPL-2.0
/* Read the fault-path facts of the running kernel from its BTF. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

#include "btf_index.h"
#include "errbuf.h"
#include "kfeatures.h"

/*
 * The name index of the BTF fl_btf_load() gave (btf_index.h), until
 * fl_btf_free(); any other btf (the unit tests' own) is scanned.
 */
static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct btf *indexed;
static struct fl_btf_index *index_of;

struct btf *fl_btf_load(char *err, size_t errlen)
{
	const char *path = getenv("FAULTLINE_BTF");
	struct btf *btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();

	if (!btf) {
		fl_fail(err, errlen, "no kernel BTF (%s): %s",
			path ? path : "/sys/kernel/btf/vmlinux", strerror(errno));
		return NULL;
	}
	pthread_mutex_lock(&index_lock);
	fl_btf_index_free(index_of);
	index_of = fl_btf_index_build(btf);
	indexed = index_of ? btf : NULL;
	pthread_mutex_unlock(&index_lock);
	return btf;
}

void fl_btf_free(struct btf *btf)
{
	if (!btf)
		return;
	pthread_mutex_lock(&index_lock);
	if (btf == indexed) {
		fl_btf_index_free(index_of);
		index_of = NULL;
		indexed = NULL;
	}
	pthread_mutex_unlock(&index_lock);
	btf__free(btf);
}

/* btf__find_by_name_kind() through the index where btf has one: id > 0, or < 0 */
static int find(const struct btf *btf, const char *name, int kind)
{
	int id;

	pthread_mutex_lock(&index_lock);
	id = btf == indexed ? fl_btf_index_find(index_of, name, kind) : 0;
	pthread_mutex_unlock(&index_lock);
	return id ? id : btf__find_by_name_kind(btf, name, kind);
}

bool fl_btf_has_func(const struct btf *btf, const char *name)
{
	return btf && find(btf, name, BTF_KIND_FUNC) > 0;
}

/* MEMBER in struct/union T, or in an anonymous struct/union inside it: its type id, or 0 */
static int find_member(const struct btf *btf, const struct btf_type *t, const char *member,
		       int depth)
{
	const struct btf_member *m = btf_members(t);

	for (unsigned int i = 0; i < btf_vlen(t); i++) {
		const char *n = btf__name_by_offset(btf, m[i].name_off);
		const struct btf_type *mt;
		int id;

		if (n && *n) {
			if (!strcmp(n, member))
				return m[i].type ? (int)m[i].type : -1;
			continue;
		}
		mt = btf__type_by_id(btf, m[i].type);
		while (mt && (btf_is_mod(mt) || btf_is_typedef(mt)))
			mt = btf__type_by_id(btf, mt->type);
		if (mt && btf_is_composite(mt) && depth < 4 &&
		    (id = find_member(btf, mt, member, depth + 1)))
			return id;
	}
	return 0;
}

int fl_btf_member_type(const struct btf *btf, const char *type, const char *member)
{
	int id = btf ? find(btf, type, BTF_KIND_STRUCT) : -1;

	if (id <= 0)
		return 0;
	return find_member(btf, btf__type_by_id(btf, id), member, 0);
}

bool fl_btf_has_member(const struct btf *btf, const char *type, const char *member)
{
	return fl_btf_member_type(btf, type, member) != 0;
}

int fl_btf_tp_nargs(const struct btf *btf, const char *tp)
{
	char name[128];
	const struct btf_type *t;
	int id;

	if (!btf)
		return -1;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = find(btf, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, id);
	while (t && (btf_is_typedef(t) || btf_is_ptr(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return -1;
	return btf_vlen(t);
}

long long fl_btf_enum_value(const struct btf *btf, const char *name)
{
	unsigned int n = btf ? btf__type_cnt(btf) : 0;
	long long v = -1;
	bool by_index;

	pthread_mutex_lock(&index_lock);
	by_index = btf && btf == indexed;
	if (by_index)
		fl_btf_index_enum(index_of, name, &v);	/* v stays -1 when absent */
	pthread_mutex_unlock(&index_lock);
	if (by_index)
		return v;

	for (unsigned int id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);

			for (unsigned int i = 0; i < btf_vlen(t); i++)
				if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name))
					return (unsigned int)e[i].val;
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t);

			for (unsigned int i = 0; i < btf_vlen(t); i++)
				if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name))
					return (long long)btf_enum64_value(&e[i]);
		}
	}
	return -1;
}

unsigned int fl_btf_pc_layout(const struct btf *btf)
{
	if (btf && (find(btf, "local_interrupt_disable_state", BTF_KIND_VAR) > 0 ||
		    fl_btf_has_func(btf, "local_interrupt_disable")))
		return FL_PC_HDIS;
	return FL_PC_LEGACY;
}

void fl_kfeatures_from_btf(struct fl_kfeatures *f, const struct btf *btf)
{
	int start, acq, rel;

	memset(f, 0, sizeof(*f));
	f->mmap_memcg = -1;
	f->flag_vma_lock = f->flag_speculative = f->vm_fault_retry = -1;
	f->vm_fault_completed = -1;
	if (!btf)
		return;
	f->btf = true;
	f->has_hmf = fl_btf_has_func(btf, "handle_mm_fault");
	f->has_do_hmf = fl_btf_has_func(btf, "do_handle_mm_fault");
	f->has_spf_dufour = fl_btf_has_func(btf, "__handle_speculative_fault");
	f->has_lock_vma = fl_btf_has_func(btf, "lock_vma_under_rcu");
	f->tp_pf_user = fl_btf_tp_nargs(btf, "page_fault_user") > 0;
	f->tp_pf_kernel = fl_btf_tp_nargs(btf, "page_fault_kernel") > 0;
	f->tp_contention = fl_btf_tp_nargs(btf, "contention_begin") > 0 &&
			   fl_btf_tp_nargs(btf, "contention_end") > 0;
	f->tp_fork = fl_btf_tp_nargs(btf, "sched_process_fork") > 0;
	start = fl_btf_tp_nargs(btf, "mmap_lock_start_locking");
	acq = fl_btf_tp_nargs(btf, "mmap_lock_acquire_returned");
	rel = fl_btf_tp_nargs(btf, "mmap_lock_released");
	/* __data, mm, [memcg_path,] write[, success] */
	if (start == 4 && acq == 5 && rel == 4)
		f->mmap_memcg = 1;
	else if (start == 3 && acq == 4 && rel == 3)
		f->mmap_memcg = 0;
	f->tp_mmap_lock = f->mmap_memcg >= 0;
	f->flag_vma_lock = fl_btf_enum_value(btf, "FAULT_FLAG_VMA_LOCK");
	f->flag_speculative = fl_btf_enum_value(btf, "FAULT_FLAG_SPECULATIVE");
	f->vm_fault_retry = fl_btf_enum_value(btf, "VM_FAULT_RETRY");
	f->vm_fault_completed = fl_btf_enum_value(btf, "VM_FAULT_COMPLETED");
	f->vma_lock_seq = fl_btf_has_member(btf, "vm_area_struct", "vm_lock_seq") &&
			  fl_btf_has_member(btf, "mm_struct", "mm_lock_seq");
	f->vma_refcnt = fl_btf_has_member(btf, "vm_area_struct", "vm_refcnt");
	f->pc_layout = fl_btf_pc_layout(btf);
	/*
	 * 5.11 and 5.12 declare the map type everywhere but build its code
	 * (kernel/bpf/bpf_task_storage.c) only with CONFIG_BPF_LSM: without
	 * it, creating the map fails with EINVAL.  The map's own alloc
	 * function is in BTF exactly where the code is built.
	 */
	f->task_storage = fl_btf_enum_value(btf, "BPF_MAP_TYPE_TASK_STORAGE") >= 0 &&
			  fl_btf_enum_value(btf, "BPF_FUNC_get_current_task_btf") >= 0 &&
			  fl_btf_has_func(btf, "task_storage_map_alloc");
	f->preempt_kfunc = find(btf, "bpf_preempt_disable", BTF_KIND_FUNC) > 0 &&
			   find(btf, "bpf_preempt_enable", BTF_KIND_FUNC) > 0;
}

int fl_kfeatures_read(struct fl_kfeatures *f, char *err, size_t errlen)
{
	struct btf *btf = fl_btf_load(err, errlen);

	fl_kfeatures_from_btf(f, btf);
	fl_btf_free(btf);
	return btf ? 0 : -1;
}
