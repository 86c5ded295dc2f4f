// SPDX-License-Identifier: GPL-2.0
/*
 * recur N: make faultline's exceptions:page_fault_kernel program
 * (ebpf/faultline.bpf.c tp_pf_kernel) miss exactly N runs by recursion, so
 * that bpf_recursion_misses can be asserted (tests/integration/
 * bpf_recursion.sh).  Run it under `faultline record -b bpf` (fentry or
 * kprobe tier: there tp_pf_kernel reads the clock for every kernel-mode
 * fault of a traced task).
 *
 * It loads recur.bpf.c (fentry on bpf_ktime_get_ns), then N times: arms
 * that program with its own thread id and calls getcpu() with a pointer
 * into a page it never touched.  The kernel's put_user takes a kernel-mode
 * fault; exceptions:page_fault_kernel runs faultline's tp_pf_kernel, whose
 * first helper call for this thread is bpf_ktime_get_ns; the armed fentry
 * program reads a PROT_NONE page (never mapped in: a hole could be reused
 * by a later mmap) with bpf_probe_read_user_str (one fault); that
 * nested fault fires page_fault_kernel again while tp_pf_kernel runs on
 * this CPU, and the kernel skips it (kernel/trace/bpf_trace.c
 * __bpf_trace_run: prog->active != 1 -> bpf_prog_inc_misses_counter).  The
 * nested fault is not handled (page faults are disabled in the probe read:
 * no handle_mm_fault), the outer one is (the page is mapped).  Nothing else
 * of faultline's can miss: the nested fault reaches no other hook.
 *
 * Prints "recur: N triggers, consumed C, nested R, efault E": C = triggers
 * after which the program was found disarmed (0 with no BPF program calling
 * bpf_ktime_get_ns in that fault, e.g. faultline not recording or on the
 * tracepoint tier), R and E = the program's own counts.  The recording's
 * bpf_recursion_misses must be C, and R = E = C.  Exit 0, or 1 (with a
 * message) when the program does not load or attach.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "num.h"
#include "recur.skel.h"

static int quiet_print(enum libbpf_print_level lvl, const char *fmt, va_list ap)
{
	if (lvl == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	struct recur_bpf *skel;
	unsigned long ps = sysconf(_SC_PAGESIZE), consumed = 0;
	volatile __u32 *arm;
	long n, i;
	char *trig, *hole;
	__u32 tid;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: recur N\n");
		return 2;
	}
	n = helper_num("recur", argv[1], 0, 1 << 20);
	hole = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	trig = mmap(NULL, (n + 1) * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (hole == MAP_FAILED || trig == MAP_FAILED || mprotect(hole + ps, ps, PROT_NONE)) {
		fprintf(stderr, "recur: mmap: %s\n", strerror(errno));
		return 1;
	}
	madvise(trig, (n + 1) * ps, MADV_NOHUGEPAGE);

	libbpf_set_print(quiet_print);
	skel = recur_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "recur: load of recur.bpf.o failed: %s\n", strerror(errno));
		return 1;
	}
	skel->bss->bad_addr = (unsigned long)(hole + ps);
	err = recur_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "recur: attach fentry/bpf_ktime_get_ns: %s\n", strerror(-err));
		recur_bpf__destroy(skel);
		return 1;
	}
	tid = syscall(SYS_gettid);
	arm = &skel->bss->arm_tid;
	for (i = 0; i < n; i++) {
		*arm = tid;
		/* put_user(cpu, trig + i * ps): a kernel-mode write fault */
		syscall(SYS_getcpu, (unsigned *)(trig + i * ps), NULL, NULL);
		if (*arm)
			*arm = 0;
		else
			consumed++;
	}
	printf("recur: %ld triggers, consumed %lu, nested %llu, efault %llu\n", n, consumed,
	       (unsigned long long)skel->bss->nested, (unsigned long long)skel->bss->efault);
	recur_bpf__destroy(skel);
	return 0;
}
