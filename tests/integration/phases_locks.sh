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

# -c: keep the callers of every class: checks the stack walk, the lock-
# internals skip list and the symbolisation on this kernel
out=$(phases_probe -c -p -l -o /out/locks.snap -- churn -t "$T" -w "$W" -p "$P" -r "$R" 2>&1)
rc=$?
echo "$out"
echo "$out" >/out/locks.txt
fl_check_eq "phases_probe exit status" "$rc" 0
kv() { echo "$out" | sed -n "s/^kv $1=//p" | head -1; }

fl_check_eq "locks section recorded" "$(kv locks_section)" 1
fl_check_ge "mmap_lock write contentions" "$(kv lock_mmap_w_count)" 1
# mmap_lock (read + write) must carry >= 90% of the contended wait
total=0
for c in mmap_r mmap_w vma ptl zone lru memcg other; do
	total=$((total + $(kv lock_${c}_wait)))
done
mm=$(( $(kv lock_mmap_r_wait) + $(kv lock_mmap_w_wait) ))
fl_check_ge "mmap_lock share of contended wait (per mille)" $((total ? mm * 1000 / total : 0)) 900
case $FL_SERIES in
6.1)	# no per-VMA locks: the faulting threads queue as readers behind the
	# writers, so read and write waits are of the same order; write must
	# still be a large part of it
	fl_check_ge "mmap_lock write share of contended wait (per mille)" \
		$((total ? $(kv lock_mmap_w_wait) * 1000 / total : 0)) 200 ;;
*)	# per-VMA locks: faults do not take mmap_lock; the writers dominate
	fl_check_eq "dominant contended class" "$(kv lock_dominant)" mmap_w ;;
esac
callers=$(echo "$out" | sed -n '/^top contending/,/^kv/p' | awk 'NR > 2 && !/^kv/ { print $1 }')
echo "callers: $(echo $callers)"
if echo "$callers" | grep -qE '^(__vm_munmap|vm_mmap_pgoff|do_vmi_munmap|do_vmi_align_munmap|vm_munmap|lock_mm_and_find_vma|__do_sys_munmap|__x64_sys_munmap|do_mmap|mmap_region|madvise_lock|do_madvise|vms_gather_munmap_vmas|vma_modify|do_user_addr_fault)$'
then fl_pass "contending callers are mm functions"
else fl_fail "contending callers: expected an mm function (__vm_munmap, vm_mmap_pgoff ...), got '$(echo $callers)'"; fi
if echo "$callers" | grep -qE '^(rwsem_down|down_|__down|_raw_spin|queued_|native_queued|__pv_queued|bpf_|__bpf_trace|__traceiter|0x|\(unknown\))'
then fl_fail "lock internals or unresolved frames named as callers: '$(echo $callers)'"
else fl_pass "no lock internals or unresolved frames among the callers"; fi
fl_check_eq "faults whose phases exceed their latency (overrun)" "$(kv overrun)" 0
fl_check_ge "faults with phase accounting" "$(kv faults)" $((T * P * R))
fl_done
