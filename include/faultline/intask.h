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
 * hold every count) or pcpu_hot.preempt_count (6.2 to 6.14).  Typeless
 * ksyms: libbpf takes their addresses from /proc/kallsyms at load, 0 where
 * absent (no CONFIG_KALLSYMS_ALL), and then every fault counts.  A typed
 * ksym would fail the whole load there (the kernel resolves its address
 * itself).  Only kernel-mode fault paths pay the two reads.
 */
#ifndef FAULTLINE_INTASK_H
#define FAULTLINE_INTASK_H

#include <faultline/classify.h>

/* Set by user space before load: fl_not_task_mask() of the kernel's layout. */
const volatile __u32 not_task_mask = 0;

extern const void __preempt_count __ksym __weak;
extern const void pcpu_hot __ksym __weak;
extern const void __per_cpu_offset __ksym __weak;

struct pcpu_hot___fl {
	int preempt_count;
} __attribute__((preserve_access_index));

static __always_inline bool cur_in_task(void)
{
	unsigned long pc_addr, off;
	__u32 pc;

	if (!not_task_mask)
		return true;
	if (&__preempt_count)
		pc_addr = (unsigned long)&__preempt_count;
	else if (&pcpu_hot && bpf_core_field_exists(struct pcpu_hot___fl, preempt_count))
		pc_addr = (unsigned long)&pcpu_hot +
			  bpf_core_field_offset(struct pcpu_hot___fl, preempt_count);
	else
		return true;
	if (!&__per_cpu_offset ||
	    bpf_probe_read_kernel(&off, sizeof(off),
				  (unsigned long *)&__per_cpu_offset + bpf_get_smp_processor_id()) ||
	    bpf_probe_read_kernel(&pc, sizeof(pc), (void *)(pc_addr + off)))
		return true;
	return fl_in_task(pc, not_task_mask);
}

#endif /* FAULTLINE_INTASK_H */
