# The cost meter as a test: guest instructions per fault of pft -m 64m -t 1
# untraced and under each budgeted row (tests/cost-budgets), on QEMU
# -icount where instructions repeat whatever the host does.  Fails when a
# row adds more than its budget, so a cost regression fails make check.
# Then the cost inside the figure: each tier's reported fault latency p50
# against pft's own --latency p50 untraced (guest ns = instructions), within
# the latency-* rows' percentages.
# kernels: 6.12 6.1 5.10
# icount: yes
# timeout: 900
# carry: tests/cost-budgets
. /fl/lib.sh
. /fl/cost.inc

budget() {	# ROW -> this kernel's budget ("-": the row does not exist there)
	case $FL_SERIES in 6.12) col=2 ;; 6.1) col=3 ;; 5.10) col=4 ;; *) col=0 ;; esac
	awk -v r="$1" -v c=$col '$1 == r && c { print $c }' /fl/cost-budgets
}
check_row() {	# ROW CMD-PREFIX...
	row=$1; shift
	b=$(budget "$row")
	[ -n "$b" ] || { fl_fail "$row: no budget for $FL_SERIES in tests/cost-budgets"; return; }
	if [ "$b" = - ]; then
		fl_skip_check "$row" "not on $FL_SERIES (tests/cost-budgets says why)"
		return
	fi
	if cost_row "$row" "$@"; then
		added=$((COST_MIN - BASE))
		if [ "$added" -le "$b" ]; then fl_pass "$row adds $added instructions per fault (cheapest of $COST_RUNS runs; median +$((COST_MEDIAN - BASE)); budget $b, base $BASE)"
		else fl_fail "$row adds $added instructions per fault (cheapest of $COST_RUNS runs): over its budget $b (base $BASE)"; fi
	else
		fl_fail "$row: the meter got no figure"
	fi
}

cost_settle
cost_row untraced || fl_done
BASE=$COST_MIN
rec() { faultline record -q -o /tmp/cost.snap "$@" --; }
check_row fentry rec -b bpf --tier fentry
check_row kprobe rec -b bpf --tier kprobe
check_row tracepoint rec -b bpf --tier tracepoint
check_row fentry-phases rec -b bpf --tier fentry --phases
if [ -f /fl/faultline.ko ]; then
	insmod /fl/faultline.ko || fl_fail "insmod faultline.ko"
	check_row kmod-idle
	check_row kmod rec -b kmod
	check_row kmod-idle	# after a recording ended: disarmed again
	rmmod faultline || fl_fail "rmmod faultline"
else
	fl_fail "faultline.ko was not built for $FL_KREL"
fi

# reported p50 vs the untraced user-observed p50 (same histogram, same buckets)
p50() { sed -n 's/.* p50=\([0-9]*\) .*/\1/p' | tail -1; }
/fl/pft -m 64m -t 1 --latency >/dev/null 2>&1	# warm
U=$(/fl/pft -m 64m -t 1 --latency 2>&1 | p50)
echo "latency: untraced pft --latency p50 $U"
check_lat() {	# ROW RECORD-ARGS...
	row=$1; shift
	b=$(budget "$row")
	faultline record -q -o /tmp/lat.snap "$@" -- /fl/pft -m 64m -t 1 >/dev/null 2>&1
	rep=$(faultline report --raw /tmp/lat.snap | sed -n 's/^fault_latency.p50_ns=//p')
	echo "latency: $row reported p50 $rep"
	if [ -z "$b" ] || [ -z "$U" ]; then fl_fail "$row: no budget or no untraced p50"; return; fi
	fl_check_ge "$row: reported p50 $rep within +$b% of the untraced p50 $U" \
		$((U * (100 + b) / 100)) "$rep"
}
check_lat latency-fentry -b bpf --tier fentry
check_lat latency-kprobe -b bpf --tier kprobe
if [ -f /fl/faultline.ko ] && insmod /fl/faultline.ko; then
	check_lat latency-kmod -b kmod
	rmmod faultline
fi
fl_done
