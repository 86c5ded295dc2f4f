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
expect 'fl_check_lost_only 9 of 10, 0 lost fails' 1 'fl_check_lost_only x 9 10 0'
expect 'fl_check_lost_only 9 of 10, lost empty fails' 1 'fl_check_lost_only x 9 10 ""'
expect 'fl_check_lost_only 11 of 10 fails' 1 'fl_check_lost_only x 11 10 5'
expect 'fl_check_lost_only "" of 10 fails' 1 'fl_check_lost_only x "" 10 5'
expect 'fl_check_lost_only 8 of 10, 2 lost passes' 0 'fl_check_lost_only x 8 10 2'
expect 'fl_check_lost_only 10 of 10, 0 lost passes' 0 'fl_check_lost_only x 10 10 0'
expect 'fl_check_empty a fails' 1 'fl_check_empty x a'
expect 'fl_invariant "" "" fails' 1 'fl_invariant x "" ""'
expect 'fl_skip alone is a skip' 77 'fl_skip reason'
expect 'fl_skip after a failed check is a failure' 1 'fl_check_eq x 1 2; fl_skip reason'
expect 'fl_skip_check is not a failure' 0 'fl_skip_check name reason'

# The cost meter (tests/integration/cost.inc, cost_row): a fake pft prints
# the classic line for the instructions per fault listed in $W/ipf, one run
# each (the first is cost_row's warm-up); the prefix, run once a row,
# counts itself in $W/prefix.
W=$(mktemp -d) || exit 1
cat >"$W/pft" <<'PFT'
#!/bin/sh
n=$(cat "$W/n" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$W/n"
v=$(sed -n "${n}p" "$W/ipf")
[ -n "$v" ] && awk -v v="$v" 'BEGIN { printf "0 1 1 64 0.1 0.1 %.3f %.3f\n", 1e9 / v, 1e9 / v }'
PFT
cat >"$W/prefix" <<'PRE'
#!/bin/sh
echo x >>"$W/prefixed"; exec "$@"
PRE
chmod +x "$W/pft" "$W/prefix"
# meter RUNS IPF...: "rc COST_N COST_MIN prefix-calls" after cost_row
meter() {
	runs=$1; shift
	printf '%s\n' "$@" >"$W/ipf"; rm -f "$W/n" "$W/prefixed"
	W=$W $SH -c "COST_OUT='$W' COST_PFT_BIN='$W/pft' COST_RUNS=$runs; . '$TOP/tests/integration/cost.inc';
		cost_row x '$W/prefix' >/dev/null; echo \$? \$COST_N \${COST_MIN:-none} \$(grep -c . '$W/prefixed')" 2>&1
}
mexpect() {	# WHAT WANT GOT
	if [ "$3" = "$2" ]; then echo "selftest: PASS $1 ($3)"
	else echo "selftest: FAIL $1: expected '$2', got '$3'"; bad=1; fi
}
mexpect 'cost_row: the cheapest of every run, one prefix call' '0 7 7000 1' \
	"$(meter 7 9999 7100 7000 7000 7026 7000 7000 7001)"
mexpect 'cost_row: the warm-up is not a run' '0 3 7050 1' \
	"$(meter 3 1000 7100 7050 7060)"
mexpect 'cost_row: a run that printed nothing fails the row' '1 2 none 1' \
	"$(meter 3 9999 7100 7050)"
rm -rf "$W"
exit $bad
