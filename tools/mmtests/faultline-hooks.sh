# SPDX-License-Identifier: GPL-2.0
# mmtests MONITOR_HOOKS for faultline: one snapshot per step of a benchmark
# (wis-bench: per workload and thread count).  Source this file in the
# mmtests config and add faultline to MONITOR_HOOKS:
#
#   . /path/to/faultline/tools/mmtests/faultline-hooks.sh
#   export MONITOR_HOOKS="faultline"
#
# run-mmtests.sh exports the functions (export_user_hooks); the benchmark's
# monitor_pre_hook / monitor_post_hook call them with $LOGDIR_RESULTS and
# the step.  FAULTLINE_WATCH: watch-faultline.sh (default: mmtests'
# monitors/, where Documentation/mmtests.rst puts it).
# WORKLOAD (wis-bench's loop variable, not exported) names the snapshot:
# faultline-<workload>-<step>.snap, what compare reads beside the benchlogs.
faultline_monitor-pre() {
	WORKLOAD=${WORKLOAD:-} "${FAULTLINE_WATCH:-$SCRIPTDIR/monitors/watch-faultline.sh}" \
		pre "$1" "$2"
}
faultline_monitor-post() {
	WORKLOAD=${WORKLOAD:-} "${FAULTLINE_WATCH:-$SCRIPTDIR/monitors/watch-faultline.sh}" \
		post "$1" "$2"
}
export FAULTLINE_WATCH=${FAULTLINE_WATCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/watch-faultline.sh}
