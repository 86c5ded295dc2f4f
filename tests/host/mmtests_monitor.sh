#!/bin/bash
# tools/mmtests/watch-faultline.sh under a small driver that speaks mmtests'
# monitor protocol as shellpacks/monitors.sh and user-hooks.sh do: started
# in the background with MONITOR_LOG / MONITOR_PID set (start_tracer_monitor:
# the pid file within 10 s, read, removed), MONITOR_HOOKS' pre/post functions
# around each step of a wis-bench-like loop (two workloads x thread counts 1
# and 2, a pft run per step), then shutdown_monitors' SIGTERM (gone within
# its 60 s grace).  Checks: the whole-test snapshot and exactly one snapshot
# per step, each complete (faultline check) and counting at least the
# step's own faults; then SIGTERM at awkward moments (at once, at five
# moments while the recorder attaches, after the pid file, twice, mid-step,
# the step recorder itself), and SIGINT (mmtests' second signal, which the
# monitor must take alone too: started in the background of a script it
# begins with SIGINT ignored until it re-execs itself, so not "at once")
# while attaching, after the pid file, twice, mid-step: the monitor is
# gone within the grace, and nothing is half-written (no *.tmp*, every
# .snap complete).  Needs root, kernel BTF, user/faultline and
# tools/pft/pft built.  About a minute and a half.
#   tests/host/mmtests_monitor.sh [OUTDIR]
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"	# run-all runs host scenarios with sh
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/integration/lib.sh"
OUT=${1:-$TOP/out/host/mmtests_monitor}
export FAULTLINE=$TOP/user/faultline
PFT=$TOP/tools/pft/pft
WATCH=$TOP/tools/mmtests/watch-faultline.sh
[ -x "$FAULTLINE" ] || fl_skip "build user/faultline first (make user)"
[ -x "$PFT" ] || fl_skip "build tools/pft/pft first (make tools)"
[ "$(id -u)" = 0 ] || fl_skip "needs root (faultline record -a)"
rm -rf "$OUT"
mkdir -p "$OUT"

# shellpacks/monitors.sh start_tracer_monitor, in short: 0 and MPID set,
# or 1 when no pid file came within 10 s
start_monitor() {	# DIR
	export MONITOR_LOG=$1/faultline-wis-pf MONITOR_PID=$1/faultline-wis-pf.pid
	"$WATCH" &
	LAUNCHED=$!
	for ((i = 0; i < 100; i++)); do
		[ -e "$MONITOR_PID" ] && break
		sleep 0.1
	done
	[ -e "$MONITOR_PID" ] || return 1
	MPID=$(cat "$MONITOR_PID")
	rm "$MONITOR_PID"
}
# shutdown_monitors: SIGTERM (or SIG), then how long until the monitor is gone
stop_monitor() {	# PID [SIG] -> STOP_S
	local t0=$SECONDS
	kill -"${2:-TERM}" "$1" 2>/dev/null
	for ((i = 0; i < 600; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	STOP_S=$((SECONDS - t0))
	# past mmtests' grace it would SIGKILL; so does the test, and fails
	kill -0 "$1" 2>/dev/null && { kill -KILL "$1"; STOP_S=999; }
	wait "$1" 2>/dev/null
}
# nothing half-written in DIR: no temporaries, every snapshot complete
check_whole() {	# WHAT DIR
	fl_check_eq "$1: no temporaries" "$(cd "$2" && ls -A | grep -c '\.tmp')" 0
	for s in "$2"/*.snap; do
		[ -e "$s" ] || continue
		fl_check_cmd "$1: ${s##*/} complete" "$FAULTLINE" check "$s"
	done
}
faults_of() { "$FAULTLINE" report "$1" 2>/dev/null | awk '$1 == "faults" { print $2; exit }'; }

# 1. a run: the monitor, two workloads x two steps through the hooks
. "$TOP/tools/mmtests/faultline-hooks.sh"
export MONITOR_HOOKS=faultline
D=$OUT/run
LOGDIR=$D/wis-pf/logs
mkdir -p "$LOGDIR"
start_monitor "$D"
fl_check_eq "monitor wrote its pid file within 10 s" "$?" 0
fl_check_eq "the pid file names the launched process" "$MPID" "$LAUNCHED"
for WORKLOAD in pf_a pf_b; do
	for NR_THREADS in 1 2; do
		faultline_monitor-pre "$LOGDIR" "$NR_THREADS"
		fl_check_eq "pre hook $WORKLOAD $NR_THREADS" "$?" 0
		"$PFT" -m 16m -t "$NR_THREADS" >"$LOGDIR/pft-$WORKLOAD-$NR_THREADS.out"
		faultline_monitor-post "$LOGDIR" "$NR_THREADS"
		fl_check_eq "post hook $WORKLOAD $NR_THREADS" "$?" 0
	done
done
stop_monitor "$MPID"
fl_check_le "monitor gone after SIGTERM (s), mmtests' grace 60" "$STOP_S" 10
fl_check_cmd "whole-test snapshot" test -s "$D/faultline-wis-pf.snap"
fl_check_eq "one snapshot per step" "$(cd "$LOGDIR" && ls *.snap | tr '\n' ' ')" \
	"faultline-pf_a-1.snap faultline-pf_a-2.snap faultline-pf_b-1.snap faultline-pf_b-2.snap "
for s in "$LOGDIR"/*.snap; do
	# pft -m 16m touches 4096 pages of 4 KiB (THP aside: base pages by default)
	fl_check_ge "${s##*/}: faults >= the step's 4096" "$(faults_of "$s")" 4096
done
fl_check_cmd "no step left open" test ! -e "$LOGDIR/faultline-step.pid"
check_whole "run" "$D"
check_whole "run steps" "$LOGDIR"
# a step recorded twice, a post without a pre: refused, one line, nothing touched
WORKLOAD=pf_a "$WATCH" pre "$LOGDIR" 1 2>"$OUT/twice.err"
fl_check_eq "a step recorded twice refused" "$?" 1
fl_check_eq "its error is one line" "$(wc -l <"$OUT/twice.err")" 1
"$WATCH" post "$LOGDIR" 7 2>/dev/null
fl_check_eq "post without pre refused" "$?" 1
MONITOR_LOG= "$WATCH" 2>/dev/null
fl_check_eq "no MONITOR_LOG: refused" "$?" 1

# 2. SIGTERM, then SIGINT, at awkward moments
# 0.1 .. 1.2 s: while the recorder sets up (it traces after ~1.4 s here),
# before and after it installs its signal handlers
for case in TERM:{0,0.1,0.3,0.6,0.9,1.2,ready,twice,step} INT:{0.3,0.6,ready,twice,step}; do
	sig=${case%%:*} when=${case#*:}
	D=$OUT/${sig,,}-$when
	mkdir -p "$D/logs"
	export MONITOR_LOG=$D/faultline-wis-pf MONITOR_PID=$D/faultline-wis-pf.pid
	"$WATCH" &
	W=$!
	case $when in
	0) ;;
	0.*|1.*) sleep "$when" ;;	# the recorder attaching
	ready|twice|step)
		for ((i = 0; i < 100; i++)); do [ -e "$MONITOR_PID" ] && break; sleep 0.1; done ;;
	esac
	if [ $when = step ]; then	# mid-step: the step recorder and pft running
		WORKLOAD=pf "$WATCH" pre "$D/logs" 1
		"$PFT" -m 64m -t 2 >/dev/null &
		P=$!
		sleep 0.2
		kill "$(cat "$D/logs/faultline-step.pid")"	# the step recorder too
		wait $P
	fi
	[ $when = twice ] && kill -$sig "$W"
	stop_monitor "$W" $sig
	fl_check_le "SIG$sig $when: monitor gone (s)" "$STOP_S" 10
	check_whole "SIG$sig $when" "$D"
	check_whole "SIG$sig $when steps" "$D/logs"
	if [ $when = ready ] || [ $when = twice ] || [ $when = step ]; then
		fl_check_cmd "SIG$sig $when: the snapshot written" test -s "$D/faultline-wis-pf.snap"
	fi
	[ $when = step ] && fl_check_cmd "SIG$sig step: the step recorder wrote its snapshot" \
		test -s "$D/logs/faultline-pf-1.snap"
	pgrep -f "record -a -o $D/" >/dev/null
	fl_check_eq "SIG$sig $when: no recorder left" "$?" 1
done
fl_done
