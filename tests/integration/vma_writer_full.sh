# vma_writer.sh on 6.12 booted preempt=full: a kernel that preempts kernel
# code, 3 threads (2 readers, 1 mprotect writer) on 2 vCPUs.  The BPF check
# runs the kprobe tier, whose fault path runs preemption-disabled, and
# checks that it lost nothing (vma_writer.inc; architecture.rst,
# "Preemptible kernels"); the module's check is the same as everywhere.
# kernels: 6.12
# boot: shared
# smp: 2
# timeout: 900
# append: preempt=full
. /fl/lib.sh
. /fl/vma_writer.inc
