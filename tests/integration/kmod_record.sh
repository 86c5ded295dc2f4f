# The collector drives the module: `faultline record -b kmod -- pft` counts
# the workload's faults (= pages +-1%, = the kernel's pgfault delta +-1%),
# fills the latency histogram, reports lockless outcomes where the kernel has
# them; the same workload under `-b bpf` agrees within 1% on fault counts
# (median latencies are printed side by side: TCG timings are not performance).
# kernels: 6.12 6.1 5.10 7.3
# boot: shared
# smp: 2
# timeout: 400
# args: 256m 2
. /fl/lib.sh
. /fl/kmod.inc
SIZE=${1:-256m}
THREADS=${2:-2}
case $SIZE in
*m) PAGES=$(( ${SIZE%m} * 256 )) ;;
*) fl_skip "size '$SIZE' must be given in MiB (NNNm)" ;;
esac
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
[ -x /fl/faultline ] || fl_skip "user/faultline not built"
[ -x /fl/pft ] || fl_skip "pft not built"


fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
before=$(vmstat_get pgfault)
/fl/faultline record -b kmod -o /tmp/kmod.snap -- /fl/pft -m "$SIZE" -t "$THREADS" \
	>/out/record_kmod.txt 2>&1
rc=$?
after=$(vmstat_get pgfault)
cat /out/record_kmod.txt
fl_check_eq "faultline record -b kmod exit status" "$rc" 0
fl_check_cmd "kmod backend announced" grep -q 'kmod backend' /out/record_kmod.txt
/fl/faultline report --raw /tmp/kmod.snap >/out/kmod_raw.txt || fl_fail "report --raw (kmod)"
cp /tmp/kmod.snap /out/ 2>/dev/null
cat /out/kmod_raw.txt
fl_check_eq "backend" "$(fl_raw /out/kmod_raw.txt backend)" kmod
fl_check_eq "tier" "$(fl_raw /out/kmod_raw.txt tier)" kprobe
k_faults=$(fl_raw /out/kmod_raw.txt faults_user)
fl_check_within "kmod faults_user vs pages" "$k_faults" "$PAGES" 1
# pgfault is system-wide and counts every handle_mm_fault call: compare the
# module's handle_mm_fault calls of the workload with it (+-1%: the shell and
# the collector fault a little outside the filter).
fl_check_within "kmod handle_mm_fault_calls vs vmstat pgfault delta" \
	"$(fl_raw /out/kmod_raw.txt handle_mm_fault_calls)" $((after - before)) 1
fl_check_within "kmod fault_latency.count vs faults_user" \
	"$(fl_raw /out/kmod_raw.txt fault_latency.count)" "$k_faults" 1
k_p50=$(fl_raw /out/kmod_raw.txt fault_latency.p50_ns)
fl_check_ge "kmod fault_latency p50 (ns)" "$k_p50" 1
fl_check_eq "kmod events_missed" "$(fl_raw /out/kmod_raw.txt events_missed)" 0
case $FL_SERIES in
6.1|5.10)
	fl_check_cmd "lockless figures not reported as numbers on $FL_SERIES" \
		sh -c "grep '^lockless_attempted=' /out/kmod_raw.txt | grep -qE 'absent|unavailable'" ;;
*)
	fl_check_ge "kmod lockless_attempted (per-VMA locks)" \
		"$(fl_raw /out/kmod_raw.txt lockless_attempted)" $((PAGES * 9 / 10)) ;;
esac
# --phases beside the module: phases' skeleton alone holds the tgid filter
# (user/tgid_filter.c), so its fork follower must bring in pft, a child
# process of the shell ("; true" keeps the shell from exec'ing it).  Bound:
# pft's 4096 pages plus the shell's and pft's own start-up faults; without
# the follower only the shell's few hundred would be seen.  On 7.3, where a
# preempted phases program can skip a run, one pft thread on 2 vCPUs leaves
# the start-up faults' margin for that (the scenario's 7.3 runs: in range).
/fl/faultline record -b kmod --phases -o /tmp/kmod-ph.snap -- \
	sh -c "/fl/pft -m 16m -t 1; true" >/out/record_kmod_phases.txt 2>&1 ||
	fl_fail "record -b kmod --phases exited $?"
/fl/faultline report --raw /tmp/kmod-ph.snap >/out/kmod_phases_raw.txt 2>&1
case $FL_SERIES:$(fl_raw /out/kmod_phases_raw.txt phases) in
*:fentry*)
	fl_check_range "kmod --phases: a forked child's faults have phases" \
		"$(fl_raw /out/kmod_phases_raw.txt phases.faults)" 4096 $((4096 + 4096 / 10)) ;;
*)
	fl_skip_check "kmod --phases: a forked child's faults have phases" \
		"phases: $(fl_raw /out/kmod_phases_raw.txt phases)" ;;
esac
fl_check_cmd "rmmod faultline" rmmod faultline

# The same workload under BPF (module unloaded: nothing else hooked).
/fl/faultline record -b bpf -o /tmp/bpf.snap -- /fl/pft -m "$SIZE" -t "$THREADS" \
	>/out/record_bpf.txt 2>&1 || fl_fail "faultline record -b bpf exited $?"
/fl/faultline report --raw /tmp/bpf.snap >/out/bpf_raw.txt || fl_fail "report --raw (bpf)"
b_faults=$(fl_raw /out/bpf_raw.txt faults_user)
b_p50=$(fl_raw /out/bpf_raw.txt fault_latency.p50_ns)
echo "kmod: faults_user $k_faults p50 ${k_p50}ns; bpf ($(fl_raw /out/bpf_raw.txt tier)): faults_user $b_faults p50 ${b_p50}ns" |
	tee /out/kmod_vs_bpf.txt
fl_check_within "kmod vs bpf faults_user" "$k_faults" "$b_faults" 1
# Same order of magnitude (kretprobes cost more than fentry/fexit; TCG).
if [ -n "$b_p50" ] && [ "$b_p50" -gt 0 ] 2>/dev/null &&
   [ $((k_p50 * 10)) -ge "$b_p50" ] && [ $((b_p50 * 10)) -ge "$k_p50" ]; then
	fl_pass "median fault latency kmod ${k_p50}ns vs bpf ${b_p50}ns within 10x"
else
	fl_fail "median fault latency kmod ${k_p50}ns vs bpf ${b_p50}ns not within 10x"
fi
fl_done
