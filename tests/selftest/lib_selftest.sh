#!/bin/sh
# Self-test of tests/integration/lib.sh, run on the host under busybox sh (the
# test box's shell) by tests/run-all: each helper must fail where a wrong,
# empty or non-numeric value would otherwise pass, and fl_skip after a failed
# check must exit as a failure, not as a skip (77).  Prints
# "selftest: PASS|FAIL what" lines; exits non-zero if any failed.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
LIB=$TOP/tests/integration/lib.sh
SH="busybox sh"
command -v busybox >/dev/null || SH=sh
bad=0
# expect WHAT WANT_RC SCRIPT: run SCRIPT after sourcing lib.sh, then fl_done
expect() {
	$SH -c ". '$LIB'; $3; fl_done" >/dev/null 2>&1
	rc=$?
	if [ "$rc" = "$2" ]; then echo "selftest: PASS $1 (exit $rc)"
	else echo "selftest: FAIL $1: expected exit $2, got $rc"; bad=1; fi
}
expect 'fl_check_eq "" "" fails' 1 'fl_check_eq x "" ""'
expect 'fl_check_eq a "" fails' 1 'fl_check_eq x a ""'
expect 'fl_check_eq 5 5 passes' 0 'fl_check_eq x 5 5'
expect 'fl_check_within "" 0 fails' 1 'fl_check_within x "" 0 1'
expect 'fl_check_within "" "" fails' 1 'fl_check_within x "" "" 1'
expect 'fl_check_within abc 0 fails' 1 'fl_check_within x abc 0 1'
expect 'fl_check_within unavailable 100 fails' 1 'fl_check_within x unavailable 100 1'
expect 'fl_check_within 102 100 1% fails' 1 'fl_check_within x 102 100 1'
expect 'fl_check_within 98 100 1% fails' 1 'fl_check_within x 98 100 1'
expect 'fl_check_within 101 100 1% passes' 0 'fl_check_within x 101 100 1'
expect 'fl_check_within 0 0 passes' 0 'fl_check_within x 0 0 1'
expect 'fl_check_ge "" 0 fails' 1 'fl_check_ge x "" 0'
expect 'fl_check_ge 1 2 fails' 1 'fl_check_ge x 1 2'
expect 'fl_check_le 3 2 fails' 1 'fl_check_le x 3 2'
expect 'fl_check_range 11 1 10 fails' 1 'fl_check_range x 11 1 10'
expect 'fl_check_range "" 0 10 fails' 1 'fl_check_range x "" 0 10'
expect 'fl_check_range 5 1 10 passes' 0 'fl_check_range x 5 1 10'
expect 'fl_check_empty a fails' 1 'fl_check_empty x a'
expect 'fl_invariant "" "" fails' 1 'fl_invariant x "" ""'
expect 'fl_skip alone is a skip' 77 'fl_skip reason'
expect 'fl_skip after a failed check is a failure' 1 'fl_check_eq x 1 2; fl_skip reason'
expect 'fl_skip_check is not a failure' 0 'fl_skip_check name reason'
exit $bad
