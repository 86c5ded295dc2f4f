# Holder attribution with the module's own hooks (issue 16): blame_writer.sh's
# scenario with `record -b kmod --blame` -- faultline.ko counts and times the
# faults and, armed with `blame on` (module/blame.c), follows the writer's
# mmap_lock write holds, the faults' contention behind them, the holder's
# sched_switch split and reclaim; no BPF skeleton takes the holders.
# Expected: all of blame_writer.sh's checks (the writer's row, its holds ==
# its calls, >= 90% of the faults' wait, the hold and its split against the
# kernel's own trace: 6.12 the same tracepoints, 7.3 the same with return
# probes on their wrappers (blame.inc, blame_trace_src), 6.1 kprobes on the
# rwsem write side, whose hold contains the tracepoints'), lockless-path
# fallbacks "unavailable" (the module does not count them), the module's user faults == blamewriter's own count
# (+-1%) and <= the system's pgfault delta; rmmod is clean.
# kernels: 6.12 6.1 7.3
# boot: shared
# smp: 2
# timeout: 420
# args: 2 256 150
. /fl/lib.sh
. /fl/blame.inc
. /fl/blame_writer.inc
[ -x /fl/blamewriter ] || fl_skip "blamewriter not in the box (make -C tests/helpers)"
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
blame_writer_run 1 "${1:-2}" "${2:-256}" "${3:-150}"
fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
