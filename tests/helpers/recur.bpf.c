// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test-only program for tests/helpers/recur.c (never part of faultline):
 * an fentry program on the bpf_ktime_get_ns helper.  When user space has
 * armed it with a thread id, the next bpf_ktime_get_ns call made by any
 * BPF program running for that thread disarms it and reads one byte of
 * a PROT_NONE user page with bpf_probe_read_user_str: a kernel-mode page
 * fault taken while that BPF program is still running.  The fault fires
 * exceptions:page_fault_kernel on the same CPU; a raw tracepoint program
 * attached there that is the one running (its per-CPU prog->active is 1)
 * is skipped by __bpf_trace_run, which counts a recursion miss.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u32 arm_tid;		/* written by user space, cleared here when used */
__u64 bad_addr;		/* a PROT_NONE user page: no PTE, the read faults */
__u64 nested;		/* probe reads made (each a nested kernel-mode fault) */
__u64 efault;		/* of those, how many failed (they all must) */

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("fentry/bpf_ktime_get_ns")
int BPF_PROG(recur_ktime)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	char c;

	if (!arm_tid || tid != arm_tid)
		return 0;
	arm_tid = 0;
	nested++;
	/*
	 * One byte with the _str variant: strncpy_from_user's byte loop gives up
	 * at its first fault.  bpf_probe_read_user faults twice on 6.1 (its
	 * copy_user fixup retries the tail byte by byte), once on 6.12.
	 */
	if (bpf_probe_read_user_str(&c, 1, (const void *)bad_addr) < 0)
		efault++;
	return 0;
}
