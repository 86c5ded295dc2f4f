# faultline.ko counts what the kernel counts: load it, check the hooks the
# kernel should have, run pft, compare the module's fault counts with the
# pages touched and with /proc/vmstat pgfault, unload, dmesg clean (runner).
# kernels: 6.12 6.1 5.10 7.3
# boot: shared
# smp: 2
# timeout: 300
# args: 256m 2
. /fl/lib.sh
. /fl/kmod.inc
SIZE=${1:-256m}
THREADS=${2:-2}

[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
[ -x /fl/pft ] || fl_skip "pft not built"
case $SIZE in
*m) PAGES=$(( ${SIZE%m} * 256 )) ;;
*) fl_skip "size '$SIZE' must be given in MiB (NNNm)" ;;
esac

fl_check_cmd "insmod faultline.ko enable=0" insmod /fl/faultline.ko enable=0
fl_check_cmd "debugfs faultline/ present" test -d "$FL_D"
cat "$FL_D/hooks" | tee /out/hooks.txt

# Hooks every supported kernel has.  lock_vma_under_rcu only with per-VMA
# locks, and there its outcome is inferred from handle_mm_fault's flags (no
# kretprobe).  The mmap_lock tracepoints are held off ("held") where they
# carry memcg_path and there is no lockless path (6.1) until `mmap_lock on`.
# 5.10 has neither the mmap_lock tracepoints (5.11) nor lock:contention_*
# (5.19): absent, found so at load.  The seed's 5.12 builds (tests/check-seed,
# not make check): A like 6.1 without lock:contention_*; B's faults enter
# the SPF series' do_handle_mm_fault (handle_mm_fault is an inline wrapper
# there, its hook unused) and its lockless path is SPF, with mmap_lock live.
want_hmf=live want_dohmf=absent want_spf=no
case $FL_SERIES in
5.10) want_lvma=absent want_mmap=absent want_cont=absent ;;
6.1) want_lvma=absent want_mmap=held want_cont=live ;;
seed-a) want_lvma=absent want_mmap=held want_cont=absent ;;
seed-b) want_lvma=absent want_mmap=live want_cont=absent want_hmf=unused want_dohmf=live want_spf=yes ;;
*) want_lvma=inferred want_mmap=live want_cont=live ;;
esac
for h in page_fault_user page_fault_kernel; do
	fl_check_eq "hook $h" "$(kmod_hook_state $h)" live
done
fl_check_eq "hook handle_mm_fault on $FL_SERIES" "$(kmod_hook_state handle_mm_fault)" "$want_hmf"
for h in contention_begin contention_end; do
	fl_check_eq "hook $h on $FL_SERIES" "$(kmod_hook_state $h)" "$want_cont"
done
for h in mmap_lock_start_locking mmap_lock_acquire_returned mmap_lock_released; do
	fl_check_eq "hook $h on $FL_SERIES" "$(kmod_hook_state $h)" "$want_mmap"
done
fl_check_eq "hook lock_vma_under_rcu on $FL_SERIES" "$(kmod_hook_state lock_vma_under_rcu)" "$want_lvma"
fl_check_eq "hook do_handle_mm_fault on $FL_SERIES" "$(kmod_hook_state do_handle_mm_fault)" "$want_dohmf"
fl_check_cmd "hooks: nothing armed after insmod enable=0" grep -q '^armed: no' "$FL_D/hooks"
if [ "$want_mmap" = held ]; then
	fl_check_cmd "hooks says why mmap_lock is off" \
		grep -q 'off: memcg_path cost, mmap_lock on to arm' "$FL_D/hooks"
	fl_check_cmd "mmap_lock on" kmod_ctl "mmap_lock on"
	fl_check_eq "mmap_lock_released after 'mmap_lock on'" "$(kmod_hook_state mmap_lock_released)" live
	fl_check_cmd "mmap_lock auto" kmod_ctl "mmap_lock auto"
	fl_check_eq "mmap_lock_released after 'mmap_lock auto'" "$(kmod_hook_state mmap_lock_released)" held
fi

# Blame's hooks are rows of the one hook table, listed under "blame": off
# until `blame on`, then live (the rwsem write side only where the
# mmap_lock hooks are held off, 6.1), off again after `blame off`.  5.10
# has no lock:contention_*: `blame on` is refused there.
kmod_blame_state() { awk -v t="$1" '$1 == "blame" && $2 == t { print $3; exit }' "$FL_D/hooks"; }
for t in tracepoint:sched:sched_switch kretprobe:down_write kprobe:up_write; do
	fl_check_eq "blame row $t before 'blame on'" "$(kmod_blame_state $t)" off
done
if [ "$want_cont" = live ]; then
	case $FL_SERIES in 6.1) want_rwsem=live ;; *) want_rwsem=off ;; esac
	fl_check_cmd "blame on" kmod_ctl "blame on"
	fl_check_eq "blame row sched_switch after 'blame on'" \
		"$(kmod_blame_state tracepoint:sched:sched_switch)" live
	for t in kretprobe:down_write kretprobe:down_write_killable kprobe:up_write kprobe:downgrade_write; do
		fl_check_eq "blame row $t after 'blame on' on $FL_SERIES" "$(kmod_blame_state $t)" "$want_rwsem"
	done
	fl_check_cmd "blame off" kmod_ctl "blame off"
	fl_check_eq "blame row sched_switch after 'blame off'" \
		"$(kmod_blame_state tracepoint:sched:sched_switch)" off
else
	fl_check_cmd "'blame on' refused without lock:contention" sh -c "! echo 'blame on' >$FL_D/control"
fi

# 1. Only the workload: the shell sets the filter to its own pid, then execs
#    pft, so the process counted is pft from its first instruction.
fl_check_cmd "reset" kmod_ctl reset
sh -c "echo 'tgid '\$\$ >$FL_D/control && echo enable >$FL_D/control && exec /fl/pft -m $SIZE -t $THREADS" \
	>/out/pft_filtered.txt 2>&1 || fl_fail "pft (filtered) exited $?"
fl_check_cmd "disable" kmod_ctl disable
cat /out/pft_filtered.txt
kmod_save_summary /out/summary_filtered.txt
cat /out/summary_filtered.txt
fu=$(kmod_sum faults_user)
fl_check_within "faults_user of pft -m $SIZE -t $THREADS (tgid filter) vs pages" "$fu" "$PAGES" 1
fl_check_within "faults_timed vs faults_user" "$(kmod_sum faults_timed)" "$fu" 1
lat=$(kmod_hist fault_latency count)
# both bumped by the same fault end: bookkeeping (torn-read check), not a measurement
fl_invariant "fault_latency histogram count = faults_timed" "$lat" "$(kmod_sum faults_timed)"
fl_check_ge "fault_latency p50 (ns)" "$(kmod_hist fault_latency p50)" 1
if [ "$want_lvma" != absent ] || [ $want_spf = yes ]; then
	fl_check_ge "lockless attempted (per-VMA locks or SPF)" "$(kmod_sum lockless_attempted)" $((PAGES * 9 / 10))
	fl_check_ge "lockless succeeded" "$(kmod_sum lockless_succeeded)" $((PAGES * 9 / 10))
else
	fl_check_eq "lockless attempted on $FL_SERIES" "$(kmod_sum lockless_attempted)" unavailable
	# with no lockless path every ended fault is "not attempted": an invariant;
	# the measurement is against pft's pages
	fl_invariant "not_attempted = faults_timed ($FL_SERIES)" "$(kmod_sum lockless_not_attempted)" "$(kmod_sum faults_timed)"
	fl_check_within "not_attempted vs pages ($FL_SERIES)" "$(kmod_sum lockless_not_attempted)" "$PAGES" 1
fi
cat "$FL_D/snapshot" >/out/snapshot_filtered.bin || fl_fail "read snapshot"
fl_check_ge "snapshot size (bytes)" "$(wc -c </out/snapshot_filtered.bin)" 15000

# 1b. Children follow the filter: a shell filtered on itself runs pft with
#     worker processes (-n): their faults are counted, the shell's few too.
fl_check_cmd "reset" kmod_ctl reset
sh -c "echo 'tgid '\$\$ >$FL_D/control && echo enable >$FL_D/control && /fl/pft -m $SIZE -n $THREADS" \
	>/out/pft_children.txt 2>&1 || fl_fail "pft -n (filtered) exited $?"
kmod_ctl disable
kmod_save_summary /out/summary_children.txt
fl_check_within "faults_user of pft -n $THREADS (forked workers, tgid filter on the parent shell)" \
	"$(kmod_sum faults_user)" "$PAGES" 1

# 2. System-wide, against the kernel's own count: pgfault is counted once per
#    handle_mm_fault call, so it is compared with handle_mm_fault_calls; every task's
#    faults (the shell's included) are in both.
fl_check_cmd "tgid 0" kmod_ctl "tgid 0"
fl_check_cmd "reset" kmod_ctl reset
before=$(vmstat_get pgfault)
kmod_ctl enable
/fl/pft -m "$SIZE" -t "$THREADS" >/out/pft_all.txt 2>&1 || fl_fail "pft exited $?"
kmod_ctl disable
after=$(vmstat_get pgfault)
kmod_save_summary /out/summary_all.txt
cat /out/summary_all.txt
delta=$((after - before))
echo "pgfault delta $delta, pages $PAGES" | tee /out/vmstat.txt
fl_check_within "handle_mm_fault_calls vs vmstat pgfault delta" "$(kmod_sum handle_mm_fault_calls)" "$delta" 1
fl_check_within "faults_user+faults_kernel vs vmstat pgfault delta" \
	$(( $(kmod_sum faults_user) + $(kmod_sum faults_kernel) )) "$delta" 1
fl_check_within "faults_user (system-wide) vs pages" "$(kmod_sum faults_user)" "$PAGES" 2
cat "$FL_D/snapshot" >/out/snapshot_all.bin || fl_fail "read snapshot"
cat "$FL_D/hooks" >/out/hooks_after.txt
fl_check_eq "missed events" "$(kmod_sum events_missed)" 0
fl_check_cmd "hooks: nothing armed after disable" grep -q '^armed: no' /out/hooks_after.txt

fl_check_cmd "rmmod faultline" rmmod faultline
fl_check_fails "debugfs faultline/ gone" test -d "$FL_D"
if dmesg | grep 'faultline' | grep -v 'module verification failed' |
	grep -iE 'error|fail|bug|warn|rejected' >/out/dmesg_faultline.txt; then
	fl_fail "faultline dmesg lines: $(head -3 /out/dmesg_faultline.txt)"
else
	fl_pass "no faultline error in dmesg"
fi
fl_done
