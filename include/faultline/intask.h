/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * in_task() for the BPF programs (the ebpf/ objects only), one definition
 * for every skeleton (faultline, phases, blame): a kernel-mode fault on a
 * user address in NMI or hard IRQ -- perf's copy_from_user_nmi for user
 * call chains -- is not a fault of the task (Documentation/architecture.rst,
 * "Which tasks and contexts count").
 *
 * The mask is the running kernel's (classify.h: 0x00ff0100 up to 6.x,
 * 0xff000100 on 7.x, whose preempt_count has an interrupt-disable count at
 * 0x00ff0000).  User space picks it from the kernel's BTF before load
 * (fl_btf_pc_layout(), user/kfeatures_btf.c) rather than a CO-RE test here:
 * the marker is a per-CPU variable (local_interrupt_disable_state), which
 * CO-RE relocations cannot ask about (types, fields and enum values only,
 * and no type or enum came with the layout), the decision is then unit-
 * tested against both layouts and `faultline probe` prints it.  0 (not
 * set): every fault counts, on every kernel -- a loader that forgets it
 * fails irq_faults.sh everywhere, not only on 7.x.
 *
 * preempt_count is a per-CPU word: __preempt_count (x86, up to 6.1 and from
 * 6.15; 8 bytes on 7.x, the resched bit at 63, so the low 4 bytes read here
 * hold every count) or pcpu_hot.preempt_count (6.2 to 6.14).  Their
 * addresses, and __per_cpu_offset's, come from /proc/kallsyms as rodata
 * (FL_INTASK_SET, user/intask_set.h), 0 where absent (no CONFIG_KALLSYMS_ALL),
 * and then every fault counts.  Not typeless __ksym externs: libbpf would
 * parse /proc/kallsyms again for each skeleton's load (half a guest second
 * each under TCG), where user space keeps one parse a process (ksyms.h).
 * Not typed ksyms either: one absent from BTF fails the whole load.  Only
 * kernel-mode fault paths pay the two reads.
 */
#ifndef FAULTLINE_INTASK_H
#define FAULTLINE_INTASK_H

#include <faultline/classify.h>

/* Set by user space before load: fl_not_task_mask() of the kernel's layout. */
const volatile __u32 not_task_mask = 0;

/* Set by user space before load (FL_INTASK_SET): kernel addresses, 0 = absent. */
const volatile __u64 ksym_preempt_count = 0;
const volatile __u64 ksym_pcpu_hot = 0;
const volatile __u64 ksym_per_cpu_offset = 0;

struct pcpu_hot___fl {
	int preempt_count;
} __attribute__((preserve_access_index));

static __always_inline bool cur_in_task(void)
{
	unsigned long pc_addr, off;
	__u32 pc;

	if (!not_task_mask)
		return true;
	if (ksym_preempt_count)
		pc_addr = ksym_preempt_count;
	else if (ksym_pcpu_hot && bpf_core_field_exists(struct pcpu_hot___fl, preempt_count))
		pc_addr = ksym_pcpu_hot + bpf_core_field_offset(struct pcpu_hot___fl, preempt_count);
	else
		return true;
	if (!ksym_per_cpu_offset ||
	    bpf_probe_read_kernel(&off, sizeof(off),
				  (unsigned long *)ksym_per_cpu_offset + bpf_get_smp_processor_id()) ||
	    bpf_probe_read_kernel(&pc, sizeof(pc), (void *)(pc_addr + off)))
		return true;
	return fl_in_task(pc, not_task_mask);
}

#endif /* FAULTLINE_INTASK_H */
