#!/bin/sh
# The eBPF backend on the machine itself (not the test box): on the
# development host only the tracepoint tier loads.  Needs root, kernel BTF,
# user/faultline and tools/pft/pft built.  Checks: pft -m 256m -t 2 counted
# as 65536 +-1% user faults, the pgfault delta at least that (system-wide:
# other tasks add to it), latency / hmf / lockless reported unavailable on
# the tracepoint tier, mmap_lock figures present.  record --self-cost: the
# fault program ran at least once per fault counted, took time, and the
# kernel's BPF statistics are off again after the run (no upper
# bound here: the program runs for every task's faults and this host may be
# busy; tests/integration/bpf_record.sh bounds it in a quiet guest).
#   tests/host/bpf_host.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host}
FL=$TOP/user/faultline
PFT=$TOP/tools/pft/pft
mkdir -p "$OUT"
[ "$(id -u)" = 0 ] || fl_skip "needs root"
[ -r /sys/kernel/btf/vmlinux ] || fl_skip "no kernel BTF"
[ -x "$FL" ] && [ -x "$PFT" ] || fl_skip "build user/faultline and tools/pft/pft first"

raw() { sed -n "s/^$2=//p" "$1"; }

"$FL" probe >"$OUT/probe.txt" 2>&1
fl_check_eq "probe finds a usable tier" $? 0
before=$(vmstat_get pgfault)
"$FL" record -o "$OUT/host.snap" -- "$PFT" -m 256m -t 2 >"$OUT/record.txt" 2>&1
fl_check_eq "record returns pft's status" $? 0
pgf=$(( $(vmstat_get pgfault) - before ))
cat "$OUT/record.txt"
"$FL" report --raw "$OUT/host.snap" >"$OUT/raw.txt"
r=$OUT/raw.txt
tier=$(raw $r tier)
echo "tier: $tier"
user=$(raw $r faults_user)
fl_check_within "user faults vs pages touched" "$user" 65536 1
# read here around the record (system-wide), not the collector's copy
fl_check_ge "/proc/vmstat pgfault delta covers the faults" "$pgf" "$user"
fl_check_ge "mmap_lock read holds seen" "$(raw $r mmap_lock_hold_read.count)" 1
fl_check_ge "mmap_lock write waits seen" "$(raw $r mmap_lock_wait_write.count)" 1
if [ "$tier" = tracepoint ]; then
	for k in fault_latency.count handle_mm_fault.count faults_timed lockless_attempted; do
		case $(raw $r $k) in
		unavailable*) fl_pass "$k: $(raw $r $k)" ;;
		*) fl_fail "$k: expected unavailable (...), got '$(raw $r $k)'" ;;
		esac
	done
else
	fl_invariant "latency samples = faults timed" "$(raw $r fault_latency.count)" "$(raw $r faults_timed)"
fi

stats_before=$(sysctl -n kernel.bpf_stats_enabled)
"$FL" record --self-cost -q -o "$OUT/self.snap" -- "$PFT" -m 64m -t 1 >"$OUT/self-record.txt" 2>&1
fl_check_eq "record --self-cost returns pft's status" $? 0
"$FL" report --raw "$OUT/self.snap" >"$OUT/self-raw.txt"
r=$OUT/self-raw.txt
# the user-fault program: the tracepoint tier has its own, count-only one
pfu=tp_pf_user
[ "$tier" = tracepoint ] && pfu=tp_pf_user_cnt
runs=$(sed -n "s/^bpf_run\.$pfu=\([0-9]*\) [0-9]*\$/\1/p" $r)
echo "$pfu runs: $runs; $(grep '^self_cost' $r | tr '\n' ' ')"
fl_check_ge "$pfu runs >= user faults counted" "$runs" "$(raw $r faults_user)"
fl_check_ge "run time >= 1 ns per run" "$(raw $r self_cost.ns)" "$(raw $r self_cost.runs)"
# the statistics were on only while record held them: a later recording's
# programs show no run time (bpftool prints run_time_ns only when non-zero);
# the sysctl shows only its own setting, so it cannot tell
if [ "$stats_before" != 0 ]; then
	fl_skip_check "BPF run-time statistics off after record --self-cost" "kernel.bpf_stats_enabled was already $stats_before before the run"
elif ! command -v bpftool >/dev/null; then
	fl_skip_check "BPF run-time statistics off after record --self-cost" "no bpftool on this machine"
else
	"$FL" record -q -a -d 2 -o "$OUT/after.snap" >/dev/null 2>&1 &
	p=$!
	sleep 1
	st=$(bpftool prog show name $pfu 2>/dev/null)
	wait $p
	echo "after --self-cost: $st"
	case $st in
	*run_time_ns*) fl_fail "BPF run-time statistics still on after record --self-cost" ;;
	*"$pfu"*) fl_pass "BPF run-time statistics off after record --self-cost" ;;
	*) fl_fail "bpftool did not list $pfu during a recording" ;;
	esac
fi
"$FL" report "$OUT/self.snap" | grep -q 'collector self-cost .* ns per fault counted'
fl_check_eq "report shows the self-cost line" $? 0
fl_done
