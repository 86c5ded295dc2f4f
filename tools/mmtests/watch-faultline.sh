#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# watch-faultline.sh: faultline as an mmtests monitor.  Copy (or link) it to
# an mmtests checkout's monitors/ and name it in the config:
#
#   export MONITORS_TRACER="faultline"      # one snapshot of the whole test
#   . /path/to/faultline-hooks.sh           # and one per thread-count step:
#   export MONITOR_HOOKS="faultline"        #   faultline_monitor-pre/-post
#
# As a tracer monitor (no arguments) it follows shellpacks/monitors.sh's
# start_tracer_monitor: it writes its pid to $MONITOR_PID once the recorder
# traces (mmtests waits 10 s for that file), records system-wide into
# $MONITOR_LOG.snap, and on SIGTERM or SIGINT (shutdown_monitors: SIGTERM,
# SIGINT 60 s later, SIGKILL at 120 s) stops the recorder (SIGTERM), which
# writes the snapshot atomically.
# Started in the background of a script (as mmtests starts it), it begins
# with SIGINT ignored, and bash cannot trap a signal ignored at its start:
# so the monitor execs itself once through `env --default-signal=INT`
# (coreutils 8.31 on) to stop on SIGINT as on SIGTERM.
#
#   watch-faultline.sh pre LOGDIR STEP    start recording step STEP into
#                                         LOGDIR/faultline-[$WORKLOAD-]STEP.snap
#   watch-faultline.sh post LOGDIR STEP   stop it; the snapshot is complete
#                                         when this returns 0
#
# The hooks call these (monitor_pre_hook / monitor_post_hook pass
# $LOGDIR_RESULTS and the step, wis-bench's $NR_THREADS).  Environment:
#   FAULTLINE              the faultline binary (default: PATH)
#   MONITOR_FAULTLINE_ARGS more record options, e.g. "--phases --locks"
# See Documentation/mmtests.rst.
set -u

PROG=watch-faultline
FAULTLINE=${FAULTLINE:-faultline}
read -r -a EXTRA <<<"${MONITOR_FAULTLINE_ARGS:-}"
READY_S=30	# how long the recorder may take to attach
STOP_S=50	# how long it may take to write (within mmtests' 60 s grace)

die() { echo "$PROG: $*" >&2; exit 1; }

# Start `faultline record -a -o SNAP` in a session of its own, its output
# (and its summary at the end) to ERRLOG; returns once it traces ("tracing system-wide" on stderr) with its
# pid in REC, or fails if it ended first or took longer than READY_S.
start_recorder() {	# SNAP ERRLOG
	local i
	: >"$2" || die "cannot write $2"
	setsid "$FAULTLINE" record -a -o "$1" ${EXTRA[@]+"${EXTRA[@]}"} >>"$2" 2>&1 </dev/null &
	REC=$!
	for ((i = 0; i < READY_S * 10; i++)); do
		grep -q 'tracing system-wide' "$2" && return 0
		kill -0 "$REC" 2>/dev/null || break
		sleep 0.1
	done
	kill -TERM "$REC" 2>/dev/null
	wait "$REC" 2>/dev/null
	die "faultline record did not start: $(tail -1 "$2")"
}

# Stop recorder PID (not necessarily our child) and wait for it to finish
# writing; 0 when it is gone within STOP_S, else it is killed and 1.
# SIGTERM, not SIGINT: a process started in the background of a script
# inherits SIGINT ignored, so a SIGINT that comes before record installs its
# handler would be lost and record would run on; a SIGTERM then ends it
# before it has written anything (record writes a file only whole).
stop_recorder() {	# PID
	local i
	kill -TERM "$1" 2>/dev/null || return 0
	for ((i = 0; i < STOP_S * 10; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		# our own child stays a zombie until waited for
		[[ $(ps -o stat= -p "$1" 2>/dev/null) == Z* ]] && return 0
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	return 1
}

# Atomic write: STDIN -> FILE via FILE.tmp + rename (mmtests reads the pid
# file as soon as it exists).
write_file() {
	cat >"$1.tmp" && mv -f "$1.tmp" "$1"
}

step_snap() {	# LOGDIR STEP
	echo "$1/faultline-${WORKLOAD:+$WORKLOAD-}$2.snap"
}

case ${1:-} in
pre)
	[ $# -eq 3 ] || die "usage: $0 pre LOGDIR STEP"
	[ -d "$2" ] || die "$2: not a directory"
	snap=$(step_snap "$2" "$3")
	[ -e "$snap" ] && die "$snap exists: step $3 recorded already"
	[ -e "$2/faultline-step.pid" ] && die "a step is being recorded ($2/faultline-step.pid)"
	start_recorder "$snap" "${snap%.snap}.log"
	echo "$REC" | write_file "$2/faultline-step.pid" || die "cannot write $2/faultline-step.pid"
	exit 0 ;;
post)
	[ $# -eq 3 ] || die "usage: $0 post LOGDIR STEP"
	pid=$(cat "$2/faultline-step.pid" 2>/dev/null) || die "no step is being recorded in $2"
	[[ $pid =~ ^[0-9]+$ ]] || die "$2/faultline-step.pid: not a pid"
	stop_recorder "$pid" || die "faultline record $pid did not stop in ${STOP_S}s"
	rm -f "$2/faultline-step.pid"
	snap=$(step_snap "$2" "$3")
	[ -s "$snap" ] || die "no snapshot for step $3 ($snap): see ${snap%.snap}.log"
	exit 0 ;;
'') ;;
*) die "unknown argument '$1' (none: a tracer monitor; pre|post LOGDIR STEP: a step)" ;;
esac

# The tracer monitor.
[ -n "${MONITOR_LOG:-}" ] && [ -n "${MONITOR_PID:-}" ] ||
	die "MONITOR_LOG and MONITOR_PID unset: run by mmtests' start_monitors (MONITORS_TRACER)"
# SIGINT back to its default, so that the trap below takes it (see the top)
if [ -z "${FL_WATCH_SIGINT:-}" ] && env --default-signal=INT true 2>/dev/null; then
	FL_WATCH_SIGINT=1 exec env --default-signal=INT "$0"
fi
REC=
STOPPING=
on_signal() {
	STOPPING=1
	if [ -n "$REC" ]; then
		stop_recorder "$REC"
		wait "$REC" 2>/dev/null
	fi
	rm -f "$MONITOR_PID.tmp"
	exit 0
}
trap on_signal TERM INT
start_recorder "$MONITOR_LOG.snap" "$MONITOR_LOG.log"
echo $$ | write_file "$MONITOR_PID" || { stop_recorder "$REC"; die "cannot write $MONITOR_PID"; }
# until a signal (the trap exits) or the recorder ends on its own
wait "$REC"
rc=$?
[ -n "$STOPPING" ] && exit 0
echo "$PROG: faultline record ended by itself (exit $rc): $(tail -1 "$MONITOR_LOG.log")" >&2
exit 1
