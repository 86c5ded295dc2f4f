# Lost events under preemption, every one counted (issue 26), on 7.3 as it
# boots: lazy preemption only (preempt=voluntary is refused), so fentry /
# fexit and tracepoint programs run preemptible; 4 pft threads and
# blamewriter's 4 on 2 vCPUs.  The checks are preempt_lost.sh's (its
# comment; the body is preempt_lost.inc).
# kernels: 7.3
# boot: shared
# smp: 2
# timeout: 900
. /fl/preempt_lost.inc
