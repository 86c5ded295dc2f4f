# Writer-caused per-VMA lock aborts (issue 18): `churn -v POP` (tests/helpers/
# churn.c) has T reader threads read-fault fresh pages of one VMA while W
# writer threads mprotect that whole VMA back and forth (each call a window
# in which mmap_lock is held for write and the VMA is write-locked).  A read
# fault in a window finds the VMA write-locked: lock_vma_under_rcu fails (an
# abort), the fault sleeps in mmap_read_lock until the writer is done.
# References the collector does not compute:
#   lower bound: the readers' own voluntary context switches during their
#     fault loops (getrusage RUSAGE_THREAD, the kernel's count).  A lockless
#     zero-page read fault takes no sleeping lock, so every such sleep is a
#     fault that went to mmap_lock while a writer held it, i.e. an abort (or
#     a retry): lockless_aborted + lockless_retried >= reader_sleeps, and
#     reader_sleeps >= 1 (the helper did make readers meet a writer: a run
#     with no collision fails here rather than passing on 0 >= 0).
#   upper bound: the writers' own count of windows.  A reader aborts at
#     most once per window (after an abort it holds mmap_lock for read
#     until its fault ends, the next window cannot start before), so the
#     aborts and retries in the VMA are <= windows x T; the rest of the
#     process's (start-up) ones are measured by the same churn with no
#     writer (-w 0: 0 windows), which must itself stay at most that baseline.
# How many collisions there are follows the scheduling (seen 13-15 with
# 2 x 10000 reads, 2 vCPUs), so only bounds are asserted, never a count.
# Why they gave up (classify.h fl_ev_ll_why): every reader sleep is a fault
# behind mprotect(), which write-locked the very VMA it faults in, so
# lockless_abort_write_locked >= reader_sleeps; each abort gets exactly one
# reason.  And `churn -v POP -a`: the readers write-fault fresh one-page
# VMAs of their own while the writer mprotects the shared one; a reader
# sleep there is vmf_anon_prepare's failed trylock (churn.c), so
# reader_sleeps <= lockless_retry_anon_vma <= the fresh VMAs (PAGES x T),
# and no retry of that run is anything else.
# For -b bpf and -b kmod (lookup outcome inferred, the default), on 6.12
# and 7.3 (6.1 has no per-VMA locks: lockless_outcomes.sh checks its
# "absent").  The BPF tier: fentry on 6.12; on 7.3, which preempts kernel
# code (lazy), with 3 threads on 2 vCPUs, and on 6.12 booted preempt=full
# (vma_writer_full.sh), the kprobe tier: there an fexit
# preempted mid-run makes the recursion guard skip the next task's, each
# skip counted (bpf_lost.*; 206 aborts + 1 retry for 210 reader sleeps,
# 2026-12-03), while every program of the kprobe tier's fault path runs
# preemption-disabled (architecture.rst, "Preemptible kernels"): the same
# assertions hold there, and it loses nothing (checked: vma_writer.inc).
# kernels: 6.12 7.3
# boot: shared
# smp: 2
# timeout: 900
. /fl/lib.sh
. /fl/vma_writer.inc
