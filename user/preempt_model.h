/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FAULTLINE_PREEMPT_MODEL_H
#define FAULTLINE_PREEMPT_MODEL_H

#include <stdbool.h>

/*
 * Is the running kernel preemptible in kernel mode (PREEMPT_DYNAMIC's full
 * or lazy mode, a PREEMPT / PREEMPT_LAZY / PREEMPT_RT build, any 7.x)?
 * There a BPF program that is not run preemption-disabled (fentry/fexit,
 * and tp_btf where tracepoint callbacks are preemptible) can be preempted
 * inside its body, and its recursion guard then skips the next task's run
 * on that CPU: the bpf backend loads preemption-guarded twins, the kprobe
 * tier stays exact, blame takes write holds by kprobe (architecture.rst,
 * "Preemptible kernels").  Read once: the model does not change while we
 * run.  FAULTLINE_PREEMPT_GUARD=0 / =1 overrides the guess (the tests).
 */
bool fl_kernel_preemptible(void);

struct fl_kfeatures;

/*
 * Run the programs that keep per-CPU state preemption-disabled
 * (bpf_preempt_disable/enable, 6.10+): where the kernel is preemptible and
 * has the kfuncs.  *WHY (may be NULL) gets the snapshot's
 * bpf_preempt_guard text.  Decided once, for every skeleton.
 */
bool fl_preempt_guard(const struct fl_kfeatures *kf, const char **why);

#endif
