/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-task state of the BPF programs (the ebpf/ objects only): task-local
 * storage and bpf_get_current_task_btf(), both 5.11+.  Where the kernel
 * lacks them (Debian's 5.10) user space turns the map into a preallocated
 * hash keyed by tid (fl_bpf_tstore_hash(), user/backend_bpf.c) and clears
 * task_btf; the programs then name the current task by its pid/tgid, and
 * FL_TSTORE_EXIT_PROG deletes a task's entry when it exits.  One mechanism
 * for every skeleton (Documentation/hooks.rst, "Debian bullseye's 5.10").
 */
#ifndef FAULTLINE_TSTORE_H
#define FAULTLINE_TSTORE_H

/* Set by user space before load: false = the tid-keyed hash (5.10). */
const volatile bool task_btf = true;

/*
 * The current task's address: compared, never dereferenced.  The same
 * value as bpf_get_current_task_btf(), on every kernel, without a test of
 * task_btf: a .rodata load the verifier keeps, which cost the phases
 * programs +14 guest instructions per fault on 6.12 (cost meter).
 */
static __always_inline __u64 fl_cur_task(void)
{
	return bpf_get_current_task();
}

/*
 * FL_TSTORE(name, map, type): name##_cur(create) for the current task and
 * name##_task(t, create) for a task pointer from BTF arguments.  A new
 * hash entry's value is in .rodata: a zeroed struct on the stack made every
 * program's frame bigger (170 guest instructions per fault on 6.12's
 * tracepoint tier, on paths that never ran it).  A full hash gives NULL.
 */
#define FL_TSTORE(name, map, type)						\
static const type name##_zero;							\
static __always_inline type *name##_hash(__u32 tid, bool create)		\
{										\
	type *st = bpf_map_lookup_elem(&map, &tid);				\
										\
	if (st || !create)							\
		return st;							\
	bpf_map_update_elem(&map, &tid, &name##_zero, BPF_NOEXIST);		\
	return bpf_map_lookup_elem(&map, &tid);					\
}										\
static __always_inline type *name##_cur(bool create)				\
{										\
	if (task_btf)								\
		return bpf_task_storage_get(&map, bpf_get_current_task_btf(), 0,\
				create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);	\
	return name##_hash((__u32)bpf_get_current_pid_tgid(), create);		\
}										\
static __always_inline type *name##_task(struct task_struct *t, bool create)	\
{										\
	if (task_btf)								\
		return bpf_task_storage_get(&map, t, 0,				\
				create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);	\
	return name##_hash(t->pid, create);					\
}

/* The hash's entry goes with its task (loaded only without task storage). */
#define FL_TSTORE_EXIT_PROG(prog, map)						\
SEC("tp_btf/sched_process_exit")						\
int BPF_PROG(prog, struct task_struct *p)					\
{										\
	__u32 tid = (__u32)bpf_get_current_pid_tgid();				\
										\
	if (!task_btf)								\
		bpf_map_delete_elem(&map, &tid);				\
	return 0;								\
}

#endif
