# Lost events under preemption, every one counted (issue 26).  On
# preemptible kernels (6.12 booted preempt=full; 7.3, lazy preemption only)
# fentry/fexit programs run with migration disabled but preemptible (on 7.x
# tracepoint programs too): a program preempted mid-run holds the kernel's
# per-program, per-CPU recursion guard (__bpf_prog_enter_recur), and the
# next task on that CPU skips the program, counted in its
# bpf_prog_info.recursion_misses.  More threads than vCPUs make it happen.
# Documentation/architecture.rst, "Preemptible kernels".  Checked, per
# skeleton, for `record --phases --blame` around pft -t 4 and blamewriter:
#   faultline: every fault counted ends in exactly one of: ended (its last
#     handle_mm_fault return seen), unhandled (no return seen: no
#     handle_mm_fault call, or its only return skipped), events_missed (it
#     reached handle_mm_fault, its last return was skipped: found at the
#     task's next fault or at its exit).  So, exactly:
#       faults_user + faults_kernel = faults_ended + faults_unhandled + events_missed
#     pft never takes an unhandled fault: each of those unhandled and missed
#     is a skipped program run, <= bpf_lost.fault_ends + task_switches (the
#     kernel's count of skipped handle_mm_fault returns and switches);
#     and a skipped fault start is not counted at all: counted +
#     bpf_lost.fault_starts >= pft's own pages.
#   every skeleton: bpf_recursion_misses.{faultline,phases,blame} tagged,
#     bpf_recursion_misses = their sum, bpf_lost.* present.
#   blame: the writer's mprotect() row: write holds <= its calls (the
#     helper's count) <= write holds + bpf_lost.write_holds.
# On a kernel where nothing is preempted every loss is 0 and the sums hold
# the same.  This one: 6.12 booted preempt=full; preempt_lost_lazy.sh: 7.3
# as it boots (lazy preemption), 4 threads on 2 vCPUs.  The body is
# preempt_lost.inc.
# kernels: 6.12
# boot: shared
# append: preempt=full
# smp: 2
# timeout: 900
. /fl/preempt_lost.inc
