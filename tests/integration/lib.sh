# Helpers for test-box scenarios (busybox sh).  Sourced as /fl/lib.sh.
# A scenario prints "check: PASS|FAIL <what>: expected <x>, got <y>" per
# assertion and exits non-zero if any failed (fl_done).

FL_FAILS=0

# vmstat_get NAME: the /proc/vmstat counter, or empty if the kernel lacks it
vmstat_get() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

fl_pass() { echo "check: PASS $*"; }
fl_fail() { echo "check: FAIL $*"; FL_FAILS=$((FL_FAILS + 1)); }

# fl_check_ge WHAT GOT MIN
fl_check_ge() {
	if [ "$2" -ge "$3" ] 2>/dev/null; then fl_pass "$1: expected >= $3, got $2"
	else fl_fail "$1: expected >= $3, got $2"; fi
}

# fl_check_eq WHAT GOT WANT
fl_check_eq() {
	if [ "$2" = "$3" ]; then fl_pass "$1: expected $3, got $2"
	else fl_fail "$1: expected $3, got $2"; fi
}

# fl_check_within WHAT GOT WANT PCT   |GOT - WANT| <= WANT * PCT / 100
fl_check_within() {
	if awk -v g="$2" -v w="$3" -v p="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= w * p / 100) }'
	then fl_pass "$1: expected $3 +-$4%, got $2"
	else fl_fail "$1: expected $3 +-$4%, got $2"; fi
}

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

# fl_skip REASON: this scenario cannot run here (counted as skipped, reason printed)
fl_skip() { echo "skip: $*"; exit 77; }
