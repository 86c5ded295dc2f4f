# The cost meter as a test: guest instructions per fault of pft -m 64m -t 1
# untraced and under each budgeted row (tests/cost-budgets), on QEMU
# -icount where instructions repeat whatever the host does.  Fails when a
# row adds more than its budget, so a cost regression fails make check.
# kernels: 6.12 6.1
# icount: yes
# timeout: 900
# carry: tests/cost-budgets
. /fl/lib.sh
. /fl/cost.inc

budget() {	# ROW -> this kernel's budget
	col=2; [ "$FL_SERIES" = 6.1 ] && col=3
	awk -v r="$1" -v c=$col '$1 == r { print $c }' /fl/cost-budgets
}
check_row() {	# ROW CMD-PREFIX...
	row=$1; shift
	b=$(budget "$row")
	[ -n "$b" ] || { fl_fail "$row: no budget for $FL_SERIES in tests/cost-budgets"; return; }
	if cost_row "$row" "$@"; then
		added=$((COST_MEDIAN - BASE))
		if [ "$added" -le "$b" ]; then fl_pass "$row adds $added instructions per fault (budget $b, base $BASE)"
		else fl_fail "$row adds $added instructions per fault: over its budget $b (base $BASE)"; fi
	else
		fl_fail "$row: the meter got no figure"
	fi
}

cost_settle
cost_row untraced || fl_done
BASE=$COST_MEDIAN
rec() { faultline record -q -o /tmp/cost.snap "$@" --; }
check_row fentry rec -b bpf --tier fentry
check_row kprobe rec -b bpf --tier kprobe
check_row tracepoint rec -b bpf --tier tracepoint
check_row fentry-phases rec -b bpf --tier fentry --phases
if [ -f /fl/faultline.ko ]; then
	insmod /fl/faultline.ko || fl_fail "insmod faultline.ko"
	check_row kmod-idle
	check_row kmod rec -b kmod
	rmmod faultline || fl_fail "rmmod faultline"
else
	fl_fail "faultline.ko was not built for $FL_KREL"
fi
fl_done
