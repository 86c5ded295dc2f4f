#!/bin/sh
# compare across kernels (issue 27): the same workload recorded in the test
# box on two kernels, compared on the host.  No boot of its own: it runs
# after the pool and reads the recordings bpf_record.sh made there
# (out/check/bpf_record-SERIES/rec-fentry.snap: pft -m 256m -t 2 under the
# fentry tier), 6.1 against 6.12 and 6.12 against 7.3.  For each pair:
#   - compare exits 0, and its FAULTS table's faults_user, faults_kernel and
#     handle_mm_fault_calls are each recording's own (report --raw);
#   - RECORDINGS names each side's lockless path: "none" on 6.1 (no
#     per-VMA locks), "per-vma-lock" on 6.12 and 7.3;
#   - LOCKLESS: lockless_attempted and lockless_succeeded are each
#     recording's own where the kernel has the path, and where one side
#     has none the rows are "not compared" with that reason, never 0.
# Header "# after: pool" (tests/run-all): run after the test boxes.
#   tests/host/compare_kernels.sh [OUTDIR]  (FL_CHECK_DIR: run-all's log dir)
# after: pool
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host/compare_kernels}
CHK=${FL_CHECK_DIR:-$TOP/out/check}
FL=$TOP/user/faultline
mkdir -p "$OUT"
[ -x "$FL" ] || fl_skip "build user/faultline first"

raw() { awk -F= -v k="$2" '$1 == k { print $2; exit }' "$1"; }
# cell SECTION FIGURE COL: a table cell of compare's text output (COL 2: A, 3: B, 4: B vs A)
cell() {
	awk -F'|' -v s="[*] $2" -v f="$3" -v c="$4" '
		$0 == s { on = 1; next } /^\[\*\]/ { on = 0 }
		on { n = $1; gsub(/^ +| +$/, "", n); sub(/ \(.*$/, "", n)
		     if (n == f) { v = $c; gsub(/^ +| +$/, "", v); print v; exit } }' "$1"
}

pair() {	# SERIES_A SERIES_B
	a=$CHK/bpf_record-$1/rec-fentry.snap b=$CHK/bpf_record-$2/rec-fentry.snap
	for f in "$a" "$b"; do
		[ -s "$f" ] || { fl_skip_check "$1 vs $2" "no $f: bpf_record did not run or failed"; return; }
	done
	t=$OUT/$1-vs-$2.txt
	"$FL" compare "$a" "$b" >"$t" 2>&1
	fl_check_eq "$1 vs $2: compare exits 0" $? 0
	for s in A:$1:$a B:$2:$b; do
		side=${s%%:*} rest=${s#*:} ser=${rest%%:*} snap=${rest#*:}
		col=2; [ "$side" = B ] && col=3
		"$FL" report --raw "$snap" >"$OUT/raw-$ser.txt" 2>&1
		for fig in faults_user faults_kernel handle_mm_fault_calls; do
			fl_check_eq "$1 vs $2: ($side) $ser $fig in the table = its recording's" \
				"$(cell "$t" FAULTS $fig $col)" "$(raw "$OUT/raw-$ser.txt" $fig)"
		done
		case $ser in
		6.1)	path=none ;;
		*)	path=per-vma-lock ;;
		esac
		fl_check_cmd "$1 vs $2: ($side) $ser's lockless path is $path" \
			grep -q "^  ($side) .* lockless $path," "$t"
		for fig in lockless_attempted lockless_succeeded; do
			if [ $path = none ]; then
				fl_check_eq "$1 vs $2: ($side) $ser $fig shown as -" "$(cell "$t" LOCKLESS $fig $col)" -
			else
				fl_check_eq "$1 vs $2: ($side) $ser $fig in the table = its recording's" \
					"$(cell "$t" LOCKLESS $fig $col)" "$(raw "$OUT/raw-$ser.txt" $fig)"
			fi
		done
	done
	if [ "$1" = 6.1 ] || [ "$2" = 6.1 ]; then
		fl_check_eq "$1 vs $2: lockless_attempted not compared (one side has no path)" \
			"$(cell "$t" LOCKLESS lockless_attempted 4)" "not compared [1]"
		fl_check_cmd "$1 vs $2: the reason is given" \
			grep -q 'no lockless fault path (no per-VMA locks, no SPF)' "$t"
	else
		v=$(cell "$t" LOCKLESS lockless_attempted 4)
		case $v in
		""|"not compared"*) fl_fail "$1 vs $2: lockless_attempted compared: got '$v'" ;;
		*) fl_pass "$1 vs $2: lockless_attempted compared ($v)" ;;
		esac
	fi
}

pair 6.1 6.12
pair 6.12 7.3
fl_done
