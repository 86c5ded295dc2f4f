#!/bin/sh
# blame_trace_split (tests/integration/blame.inc) on a hand-made trace,
# tests/fixtures/blame-trace-lead.txt: the bounds the blame scenarios put
# faultline's hold split between, worked out by hand from the trace's
# stamps (us, from the acquire at 1.000200):
#   hold: acquire 1.000200 .. release 1.002000             = 1800
#   preempted 1.000210 .. 1.001210 (runnable)              = 1000
#   asleep 1.001500 .. 1.001800                            =  300
#   off CPU inside the call: 1000 + 300 + 500 (after the release) = 1800
#   LEAD 1 (tracepoint+return): the hold ends at the release's return
#   1.002520 (up_hold 2320) with the preemption after the release as
#   runnable (up_runnable 1010 + 500: the first switch-in's interval ends at
#   the acquire's return 1.001220); it starts at the switch-in 1.001210 at
#   the earliest (dn_hold 1800 - 1010 = 790, dn_runnable 1000 - 1000 = 0)
#   LEAD 0: each end at the holder's next event: up_hold to the switch-out
#   1.002010 (1810), up_runnable 1010; dn = the trace's own figures.
#   tests/host/blame_trace_split.sh [OUTDIR]
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host/blame_trace_split}
mkdir -p "$OUT"
# blame.inc is busybox sh, as in the box
SH="busybox sh"
command -v busybox >/dev/null || SH="sh"
split() {
	$SH -c ". '$TOP/tests/integration/blame.inc'
		blame_trace_split '$TOP/tests/fixtures/blame-trace-lead.txt' 124 'blamewriter: calls begin' $1"
}
# want KEY VALUE LINE
want() { fl_check_eq "lead $3: $1" "$(echo "$4" | tr ' ' '\n' | sed -n "s/^$1=//p")" "$2"; }
for lead in 1 0; do
	r=$(split $lead)
	echo "lead $lead: $r" | tee -a "$OUT/split.txt"
	want holds 1 $lead "$r"
	want hold_ns 1800000 $lead "$r"
	want switches 2 $lead "$r"
	want runnable_ns 1000000 $lead "$r"
	want sleep_ns 300000 $lead "$r"
	want off_ns 1800000 $lead "$r"
	want calls 1 $lead "$r"
	want sys_ns 2500000 $lead "$r"
	want up_sleep_ns 500000 $lead "$r"
done
r=$(split 1)
want up_hold_ns 2320000 1 "$r"
want up_runnable_ns 1510000 1 "$r"
want dn_hold_ns 790000 1 "$r"
want dn_runnable_ns 0 1 "$r"
want leads 1 1 "$r"
want lags 1 1 "$r"
want returns 2 1 "$r"
r=$(split 0)
want up_hold_ns 1810000 0 "$r"
want up_runnable_ns 1010000 0 "$r"
want dn_hold_ns 1800000 0 "$r"
want dn_runnable_ns 1000000 0 "$r"
want leads 0 0 "$r"
want returns 0 0 "$r"
fl_done
