# Helpers for test-box scenarios (busybox sh).  Sourced as /fl/lib.sh.
# A scenario prints "check: PASS|FAIL <what>: expected <x>, got <y>" per
# assertion and exits non-zero if any failed (fl_done).  A check that cannot
# be made here is never dropped silently: fl_skip_check prints
# "skip-check: NAME (reason)", which tests/run-all counts, by name, among the
# skipped.  "invariant:" lines (fl_invariant) are consistency checks of one
# figure against another computed from the same data: they fail the scenario
# when broken but are not measurements against an independent reference.

FL_FAILS=0

# vmstat_get NAME: the /proc/vmstat counter, or empty if the kernel lacks it
vmstat_get() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
# fl_raw FILE KEY: KEY's value in a `faultline report --raw` file
fl_raw() { sed -n "s/^$2=//p" "$1" | head -1; }

fl_pass() { echo "check: PASS $*"; }
fl_fail() { echo "check: FAIL $*"; FL_FAILS=$((FL_FAILS + 1)); }

# fl_preemptible: does this kernel preempt kernel code (7.x, lazy only; or
# booted preempt=full)?  There only the kprobe tier's fault path, and blame's
# kprobed write holds, run preemption-disabled: nothing lost to a BPF
# program's recursion guard (architecture.rst, "Preemptible kernels").
fl_preemptible() {
	case "$FL_SERIES $(cat /proc/cmdline)" in 7.*|*preempt=full*|*preempt=lazy*) return 0 ;; esac
	return 1
}

# fl_isnum X: X is a decimal number (integer or fraction, optional sign)
fl_isnum() {
	awk -v v="$1" 'BEGIN { exit !(v ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) }'
}

# fl_check_ge WHAT GOT MIN   both integers, GOT >= MIN
fl_check_ge() {
	if fl_isnum "$2" && fl_isnum "$3" && [ "$2" -ge "$3" ] 2>/dev/null
	then fl_pass "$1: expected >= $3, got $2"
	else fl_fail "$1: expected >= $3, got '$2'"; fi
}

# fl_check_le WHAT GOT MAX   both integers, GOT <= MAX
fl_check_le() {
	if fl_isnum "$2" && fl_isnum "$3" && [ "$2" -le "$3" ] 2>/dev/null
	then fl_pass "$1: expected <= $3, got $2"
	else fl_fail "$1: expected <= $3, got '$2'"; fi
}

# fl_check_lost_only WHAT GOT ALL LOST: GOT of ALL events reached a row, and
# those that did not are at most LOST, the losses faultline reported for
# them (a preempted BPF program's skipped run: bpf_lost.*): equal where
# nothing was reported lost
fl_check_lost_only() {
	fl_check_le "$1 <= $3" "$2" "$3"
	if fl_isnum "$2" && fl_isnum "$3"; then
		fl_check_le "$1: short of $3 by ($(($3 - $2))) <= reported lost" $(($3 - $2)) "${4:-0}"
	else
		fl_fail "$1: short of '$3' by: not numbers ('$2')"
	fi
}

# fl_check_range WHAT GOT MIN MAX   MIN <= GOT <= MAX, numbers
fl_check_range() {
	if fl_isnum "$2" && fl_isnum "$3" && fl_isnum "$4" &&
	   awk -v g="$2" -v a="$3" -v b="$4" 'BEGIN { exit !(g + 0 >= a + 0 && g + 0 <= b + 0) }'
	then fl_pass "$1: expected $3..$4, got $2"
	else fl_fail "$1: expected $3..$4, got '$2'"; fi
}

# fl_check_eq WHAT GOT WANT   string equality; an empty GOT or WANT fails
# (two missing rows are not a match)
fl_check_eq() {
	if [ -z "$2" ] || [ -z "$3" ]; then fl_fail "$1: expected '$3', got '$2' (empty)"
	elif [ "$2" = "$3" ]; then fl_pass "$1: expected $3, got $2"
	else fl_fail "$1: expected $3, got $2"; fi
}

# fl_check_empty WHAT GOT   GOT must be empty (no file left, no output)
fl_check_empty() {
	if [ -z "$2" ]; then fl_pass "$1: expected nothing, got nothing"
	else fl_fail "$1: expected nothing, got '$2'"; fi
}

# fl_check_within WHAT GOT WANT PCT   |GOT - WANT| <= WANT * PCT / 100; GOT,
# WANT and PCT must all be numbers (an empty or non-numeric value fails, also
# when WANT is 0)
fl_check_within() {
	if fl_isnum "$2" && fl_isnum "$3" && fl_isnum "$4" &&
	   awk -v g="$2" -v w="$3" -v p="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; m = w < 0 ? -w : w; exit !(d <= m * p / 100) }'
	then fl_pass "$1: expected $3 +-$4%, got $2"
	else fl_fail "$1: expected $3 +-$4%, got '$2'"; fi
}

# fl_invariant WHAT GOT WANT   a consistency check between figures derived
# from the same data (torn reads, bookkeeping): prints "invariant: PASS|FAIL",
# fails the scenario when broken, but is not a measurement
fl_invariant() {
	if [ -n "$2" ] && [ "$2" = "$3" ]; then echo "invariant: PASS $1: $2"
	else echo "invariant: FAIL $1: expected '$3', got '$2'"; FL_FAILS=$((FL_FAILS + 1)); fi
}

# fl_skip_check NAME REASON: one check that cannot be made here; counted and
# named among the skipped by tests/run-all, never a pass
fl_skip_check() { n=$1; shift; echo "skip-check: $n ($*)"; }

# fl_check_cmd WHAT CMD...   the command must succeed
fl_check_cmd() {
	what=$1; shift
	if "$@"; then fl_pass "$what"; else fl_fail "$what (exit $?)"; fi
}

# fl_check_fails WHAT CMD...   the command must fail
fl_check_fails() {
	what=$1; shift
	if "$@" 2>/dev/null; then fl_fail "$what: expected failure, command succeeded"
	else fl_pass "$what: rejected"; fi
}

# fl_snap_field FILE FIELD: a number from `faultline report --raw FILE` (key=value)
fl_done() {
	if [ "$FL_FAILS" -ne 0 ]; then
		echo "scenario: $FL_FAILS check(s) failed"
		exit 1
	fi
	echo "scenario: all checks passed"
	exit 0
}

# fl_skip REASON: this scenario cannot run here (counted as skipped, reason
# printed).  After a failed check it is a failure, never a skip.
fl_skip() {
	if [ "$FL_FAILS" -ne 0 ]; then
		echo "scenario: $FL_FAILS check(s) failed before the skip ($*)"
		exit 1
	fi
	echo "skip: $*"
	exit 77
}
