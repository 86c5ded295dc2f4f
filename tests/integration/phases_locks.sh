# Lock classes (issue 7): faulting threads beside threads that mmap/munmap
# in a loop (mmap_lock taken for write).  The contended wait must be named
# mmap_lock write and dominate; the phases of every fault still add up.
# Tests assert the class that must dominate, never times (TCG is emulated).
# Needs tests/phases/{phases_probe,churn} in the box (--carry).
# kernels: 6.12 6.1
# smp: 2
# timeout: 300
# args: 2 2 256 20
. /fl/lib.sh
T=${1:-2} W=${2:-2} P=${3:-256} R=${4:-20}
[ -x /fl/phases_probe ] && [ -x /fl/churn ] ||
	fl_skip "phases_probe/churn not in the box (make -C tests/phases; --carry both)"

out=$(phases_probe -p -l -o /out/locks.snap -- churn -t "$T" -w "$W" -p "$P" -r "$R" 2>&1)
rc=$?
echo "$out"
echo "$out" >/out/locks.txt
fl_check_eq "phases_probe exit status" "$rc" 0
kv() { echo "$out" | sed -n "s/^kv $1=//p" | head -1; }

fl_check_eq "locks section recorded" "$(kv locks_section)" 1
fl_check_ge "mmap_lock write contentions" "$(kv lock_mmap_w_count)" 1
fl_check_eq "dominant contended class" "$(kv lock_dominant)" mmap_w
fl_check_eq "faults whose phases exceed their latency (overrun)" "$(kv overrun)" 0
fl_check_ge "faults with phase accounting" "$(kv faults)" $((T * P * R))
fl_done
