# bpf_recursion_misses driven to a known value (issue 18): tests/helpers/recur
# N makes faultline's exceptions:page_fault_kernel program (tp_pf_kernel)
# re-entered on its own CPU exactly N times, each while it runs: a test-only
# fentry program on bpf_ktime_get_ns (recur.bpf.c), armed by the helper
# before each of N getcpu() calls into untouched pages, takes a kernel-mode
# fault (bpf_probe_read_user of an unmapped address) inside tp_pf_kernel's
# clock read; the kernel skips the nested run and counts it in that
# program's recursion misses (kernel/trace/bpf_trace.c __bpf_trace_run;
# the reasoning is in recur.c).  Independent references: the helper's own
# count of triggers its program consumed, and the program's count of nested
# probe reads, all of which must fail with -EFAULT.
#   fentry and kprobe tiers: consumed = N, nested = efault = N, and the
#     snapshot's bpf_recursion_misses (bpf_prog_info.recursion_misses summed
#     over faultline's programs) = N exactly; report's text line too.
#   tracepoint tier (control): its page_fault_kernel program (tp_pf_kern_cnt)
#     only counts (no clock read), so the armed program is consumed elsewhere (the mmap_lock
#     program timing the fault's trylock; 6.1: with --mmap-lock) while no faultline
#     program is re-entered: bpf_recursion_misses = 0.
#     And there the nested faults are counted as kernel faults (tp_pf_kern_cnt
#     was not running when they came): faults_kernel on the tracepoint tier
#     minus faults_kernel on the fentry tier (where they were skipped) = N
#     exactly.  ASLR is off: with it, the kernel's own faults on recur's
#     stack and heap moved by one either way between runs (CI once saw
#     1670 - 1367 = 303; without ASLR 1668 - 1368 in five runs of five).
#   recur 0 under the fentry tier (control): 0.
# kernels: 6.12 6.1
# boot: shared
# smp: 1
# timeout: 600
. /fl/lib.sh
export PATH=/fl:$PATH
N=${1:-300}
[ -x /fl/recur ] || fl_skip "tests/helpers/recur not built"
echo 0 >/proc/sys/kernel/randomize_va_space
field() { sed -n "s/^recur: .* $2 \([0-9]*\).*/\1/p" "$1" | head -1; }

rec() {	# LABEL TIER COUNT
	faultline record -q -b bpf --tier $2 -o /tmp/$1.snap -- recur $3 >/out/$1.txt 2>&1
	fl_check_eq "$1: record -b bpf --tier $2 -- recur $3 exit status" "$?" 0
	cat /out/$1.txt
	faultline report --raw /tmp/$1.snap >/out/$1.raw 2>&1
	faultline report /tmp/$1.snap >/out/$1.report 2>&1
	grep -E '^(bpf_recursion_misses|tier|faults_kernel)=' /out/$1.raw
}

for tier in fentry kprobe; do
	rec $tier $tier $N
	fl_check_eq "$tier: triggers the armed program consumed (recur's count)" "$(field /out/$tier.txt consumed)" $N
	fl_check_eq "$tier: nested probe reads (the program's count)" "$(field /out/$tier.txt nested)" $N
	fl_check_eq "$tier: nested probe reads that failed (-EFAULT)" "$(field /out/$tier.txt efault)" $N
	fl_check_eq "$tier: bpf_recursion_misses = nested kernel faults inside tp_pf_kernel" \
		"$(fl_raw /out/$tier.raw bpf_recursion_misses)" $N
	got=$(sed -n 's/^ *bpf recursion misses *\([0-9]*\) .*/\1/p' /out/$tier.report)
	fl_check_eq "$tier: report's 'bpf recursion misses' line" "$got" $N
done

# on 6.1 the mmap_lock programs (the consumer there) are off by default
if [ "$FL_SERIES" = 6.1 ]; then rec tp-control "tracepoint --mmap-lock" $N
else rec tp-control tracepoint $N; fi
fl_check_eq "tracepoint tier: triggers consumed (by a program that is not re-entered)" \
	"$(field /out/tp-control.txt consumed)" $N
fl_check_eq "tracepoint tier: bpf_recursion_misses (no faultline program re-entered)" \
	"$(fl_raw /out/tp-control.raw bpf_recursion_misses)" 0
fk=$(fl_raw /out/tp-control.raw faults_kernel) ff=$(fl_raw /out/fentry.raw faults_kernel)
if fl_isnum "$fk" && fl_isnum "$ff"; then
	fl_check_eq "nested faults counted where not skipped: faults_kernel tracepoint - fentry ($fk - $ff)" \
		$((fk - ff)) $N
else
	fl_fail "faults_kernel: got '$fk' (tracepoint) / '$ff' (fentry)"
fi
rec zero-control fentry 0
fl_check_eq "fentry, recur 0: bpf_recursion_misses" "$(fl_raw /out/zero-control.raw bpf_recursion_misses)" 0
fl_done
