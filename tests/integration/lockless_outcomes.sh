# Every lockless (per-VMA lock) outcome driven a known number of times
# (issue 18, section 1).  tests/helpers/provoke makes the x86 fault path take
# one outcome N times (the kernel source reasoning is in provoke.c's header,
# read against Debian 6.12).  Each mode runs twice under `faultline record`,
# with N and 2N: the difference of every figure between the two runs is the
# outcome's own count, the helper's start-up and exit faults (identical in
# both runs) cancel out, so the expectations are exact, not windows.
#
# Expected differences per N (6.12), for each backend / tier:
#   mode        attempted succeeded aborted retried mmap_retry unhandled hmf_calls faults
#   vdso-retry      N         0        0       N        0         0        2N       N
#   fresh-vma       N         N        0       0        0         0        N        N
#   stack-grow      N         0        N       0        0         0        N        N
#   uffd-stack      N         0        N       0        N         0        2N       N
#   unmapped        0 (a)     0        0 (a)   0        0         N        0        N
#   protnone        0 (a)     0        0       0        0         N        0        N
# (mmap_retry = mmap_lock_retries: VM_FAULT_RETRY returned under mmap_lock;
# uffd-stack's fault goes to mmap_lock after the failed lookup and
# handle_userfault drops it and asks for the retry)
# (a) what the collector reports with the lookup's outcome inferred from the
# first handle_mm_fault call's FAULT_FLAG_VMA_LOCK (every BPF tier, and the
# module by default: classify.h ll_infer).  The kernel itself did attempt
# the lookup N times there, and for `unmapped` it failed (VMA_LOCK_ABORT) N
# times, but these faults never reach handle_mm_fault (SIGSEGV), so the
# inference cannot see them; they are counted as faults_unhandled.  The
# module with infer=0 kretprobes lock_vma_under_rcu and does see them:
#   unmapped   attempted N, aborted N;  protnone  attempted N (ends neither
#   succeeded, aborted nor retried: access_error() under the VMA lock)
# Why the lockless path gave up (classify.h fl_ev_ll_why), differences per N:
#   mode        write_locked no_vma other unread retry_anon_vma retry_other
#   vdso-retry       0          0     0     0         0            N
#   stack-grow       0          N     0     0         0            0
#   uffd-stack       0          N     0     0         0            0   (b)
#   unmapped         0          0 (c) 0     0         0            0
#   others           0          0     0     0         0            0
# vdso-retry: the [vdso] VMA has no anon_vma before the retry and none after
# the redo (vmf_can_call_fault, not vmf_anon_prepare); stack-grow: the VMA
# found under mmap_lock grows down and starts at the fault's page.  (b) the
# first mmap_lock call returns RETRY with the lock dropped: read at the
# redo.  (c) N with infer=0 (the hooked lookup failed, the fault never
# reached handle_mm_fault).  bpf --tier kprobe reads no VMA on 6.12 (the
# kretprobe has no arguments): every reason is "unavailable (...)", never a
# number.  On 7.3 (preemptible) its entry kprobe keeps the call's VMA for
# the kretprobe (user/backend_bpf.c kp_lock_infer, faultline.bpf.c kp_why):
# the reasons are read, and must be fentry's.
# Checked for: bpf --tier fentry, bpf --tier kprobe, -b kmod, -b kmod with
# infer=0.  And the rates `report` prints (aborted / attempted, retried /
# attempted) equal count / attempts, on a provoked run with aborts; the
# prom and json exports (counts only, no rate) carry the same counts.
# On 6.1 (no per-VMA locks) every lockless figure is "absent ...", never a
# number, on every backend, and faults_unhandled still counts the SIGSEGVs.
# On 7.3 (preemptible) the kprobe tier's fault start and every tier's
# mmap_lock programs run preemption-disabled (architecture.rst, "Preemptible
# kernels"); before, a preempted one was skipped for the next task on its
# CPU and bpf-kprobe fresh-vma counted 201 successes for 200.  -smp 1: no
# other task faults on the CPU while one is preempted.
# kernels: 6.12 6.1 7.3
# boot: shared
# smp: 1
# timeout: 900
. /fl/lib.sh
export PATH=/fl:$PATH
N=${1:-200}
MODES="vdso-retry fresh-vma stack-grow uffd-stack unmapped protnone"
KEYS="faults_user faults_unhandled handle_mm_fault_calls lockless_attempted lockless_succeeded lockless_aborted lockless_retried mmap_lock_retries"
WHY="lockless_abort_write_locked lockless_abort_no_vma lockless_abort_other lockless_unread lockless_retry_anon_vma lockless_retry_other"

[ -x /fl/provoke ] || fl_skip "tests/helpers/provoke not built"
# the same layout in both runs (a stack or mmap base that lands differently
# changes the start-up faults by one or two)
echo 0 >/proc/sys/kernel/randomize_va_space

# rec BACKEND-OPTIONS NAME MODE COUNT: record provoke, save report --raw and report
rec() {
	faultline record -q $1 -o /tmp/$2.snap -- provoke $3 $4 >/out/$2.rec.txt 2>&1
	rc=$?
	faultline report --raw /tmp/$2.snap >/out/$2.raw 2>&1
	faultline report /tmp/$2.snap >/out/$2.txt 2>&1
	if [ $rc != 0 ]; then
		fl_fail "$2: record of provoke $3 $4 exited $rc"
		cat /out/$2.rec.txt
	fi
}

# expect LABEL MODE WANT...: the 2N - N differences of KEYS (in order),
# then of WHY where the recording read the reasons
expect() {
	label=$1 mode=$2; shift 2
	keys=$KEYS
	[ $# -gt 8 ] && keys="$KEYS $WHY"
	for k in $keys; do
		want=$1; shift
		a=$(fl_raw /out/$label-$mode-1.raw $k) b=$(fl_raw /out/$label-$mode-2.raw $k)
		if fl_isnum "$a" && fl_isnum "$b"; then d=$((b - a)); else d="$a/$b"; fi
		case $want in
		N) w=$N ;; 2N) w=$((2 * N)) ;; *) w=$want ;;
		esac
		fl_check_eq "$label $mode: $k (run 2N - run N)" "$d" "$w"
	done
}

# check_rates LABEL RAW TXT: the percentages report prints = count / attempts
check_rates() {
	att=$(fl_raw $2 lockless_attempted) ab=$(fl_raw $2 lockless_aborted) re=$(fl_raw $2 lockless_retried)
	line=$(grep 'lockless path' $3)
	echo "$1: $line"
	got=$(echo "$line" | sed -n 's/.* aborted [0-9]* (\([^)]*\)).*/\1/p')
	want=$(awk -v a="$ab" -v t="$att" 'BEGIN { if (t > 0) printf "%.1f%%", 100 * a / t; else print "-" }')
	fl_check_eq "$1: report's abort rate = aborted / attempted ($ab / $att)" "$got" "$want"
	got=$(echo "$line" | sed -n 's/.* retried under mmap_lock [0-9]* (\([^)]*\)).*/\1/p')
	want=$(awk -v a="$re" -v t="$att" 'BEGIN { if (t > 0) printf "%.1f%%", 100 * a / t; else print "-" }')
	fl_check_eq "$1: report's retry rate = retried / attempted ($re / $att)" "$got" "$want"
	# the exports carry the counts (no rate): the same numbers as --raw
	faultline export --format prom $4 >/out/$(basename $4 .snap).prom 2>&1
	faultline export --format json -b total $4 >/out/$(basename $4 .snap).json 2>&1
	for k in lockless_attempted lockless_aborted lockless_retried; do
		v=$(awk -v m="faultline_${k}_total" '$1 ~ "^" m "[{ ]" || $1 == m { s += $NF; n++ } END { if (n) print s }' \
			/out/$(basename $4 .snap).prom)
		fl_check_eq "$1: export prom $k summed over CPUs = report --raw" "$v" "$(fl_raw $2 $k)"
		v=$(sed -n "s/.*\"$k\":\([0-9]*\).*/\1/p" /out/$(basename $4 .snap).json | head -1)
		fl_check_eq "$1: export json -b total $k = report --raw" "$v" "$(fl_raw $2 $k)"
	done
}

run_backend() {	# LABEL RECORD-OPTIONS
	label=$1 opts=$2
	for m in $MODES; do
		rec "$opts" $label-$m-1 $m $N
		rec "$opts" $label-$m-2 $m $((2 * N))
		grep -h '^provoke' /out/$label-$m-1.rec.txt /out/$label-$m-2.rec.txt
	done
	if [ "$FL_SERIES" = 6.1 ]; then
		for m in $MODES; do
			for k in lockless_attempted lockless_succeeded lockless_aborted lockless_retried mmap_lock_retries $WHY; do
				v=$(fl_raw /out/$label-$m-2.raw $k)
				case $v in
				absent*) fl_pass "$label $m (6.1): $k: $v" ;;
				*) fl_fail "$label $m (6.1): $k: expected 'absent ...', got '$v'" ;;
				esac
			done
		done
		for m in unmapped protnone; do
			a=$(fl_raw /out/$label-$m-1.raw faults_unhandled) b=$(fl_raw /out/$label-$m-2.raw faults_unhandled)
			fl_check_eq "$label $m (6.1): faults_unhandled (run 2N - run N)" "$((b - a))" $N
		done
		a=$(fl_raw /out/$label-vdso-retry-1.raw handle_mm_fault_calls)
		b=$(fl_raw /out/$label-vdso-retry-2.raw handle_mm_fault_calls)
		fl_check_eq "$label vdso-retry (6.1): handle_mm_fault calls (run 2N - run N; no lockless try)" \
			"$((b - a))" $N
		a=$(fl_raw /out/$label-uffd-stack-1.raw handle_mm_fault_calls)
		b=$(fl_raw /out/$label-uffd-stack-2.raw handle_mm_fault_calls)
		fl_check_eq "$label uffd-stack (6.1): handle_mm_fault calls (run 2N - run N; RETRY under mmap_lock)" \
			"$((b - a))" $((2 * N))
		return
	fi
	if [ "$label" = bpf-kprobe ] && [ "$FL_SERIES" != 7.3 ]; then
		for k in $WHY; do
			v=$(fl_raw /out/$label-stack-grow-2.raw $k)
			case $v in
			"unavailable (kprobe tier"*) fl_pass "$label: $k: $v" ;;
			*) fl_fail "$label: $k: expected 'unavailable (kprobe tier...)', got '$v'" ;;
			esac
		done
		W= W0= WV= WS= WU=
	else	# write_locked no_vma other unread retry_anon_vma retry_other
		W0="0 0 0 0 0 0" WV="0 0 0 0 0 N" WS="0 N 0 0 0 0" WU="0 0 0 0 0 0"
		[ "$3" = krp ] && WU="0 N 0 0 0 0"
	fi
	#   KEYS order: faults_user unhandled hmf_calls attempted succeeded aborted retried mmap_retry
	expect $label vdso-retry  N 0 2N N 0 0 N 0 $WV
	expect $label fresh-vma   N 0 N  N N 0 0 0 $W0
	expect $label stack-grow  N 0 N  N 0 N 0 0 $WS
	expect $label uffd-stack  N 0 2N N 0 N 0 N $WS
	if [ "$3" = krp ]; then
		expect $label unmapped N N 0 N 0 N 0 0 $WU
		expect $label protnone N N 0 N 0 0 0 0 $W0
	else
		expect $label unmapped N N 0 0 0 0 0 0 $WU
		expect $label protnone N N 0 0 0 0 0 0 $W0
	fi
	check_rates "$label stack-grow 2N" /out/$label-stack-grow-2.raw /out/$label-stack-grow-2.txt \
		/tmp/$label-stack-grow-2.snap
	check_rates "$label vdso-retry 2N" /out/$label-vdso-retry-2.raw /out/$label-vdso-retry-2.txt \
		/tmp/$label-vdso-retry-2.snap
}

echo "=== bpf --tier fentry"
run_backend bpf-fentry "-b bpf --tier fentry"
echo "=== bpf --tier kprobe"
run_backend bpf-kprobe "-b bpf --tier kprobe"
if [ -f /fl/faultline.ko ]; then
	echo "=== -b kmod (lookup outcome inferred, the default)"
	fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
	run_backend kmod "-b kmod"
	rmmod faultline
	echo "=== -b kmod, infer=0 (kretprobe on lock_vma_under_rcu)"
	fl_check_cmd "insmod faultline.ko infer=0" insmod /fl/faultline.ko infer=0
	cat /sys/kernel/debug/faultline/hooks >/out/hooks-infer0.txt 2>&1
	run_backend kmod-infer0 "-b kmod" krp
	rmmod faultline
else
	fl_skip_check "kmod outcomes" "no /fl/faultline.ko in this box"
fi
fl_done
