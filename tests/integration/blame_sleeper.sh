# Holder attribution (issue 16): a holder that sleeps while it holds
# mmap_lock for write is reported as sleeping.  tests/helpers/blamesleeper.c:
# "bl-sleeper" mmap()s a memfd while a child truncates it (the child maps
# it K times, so that zapping K x P page table entries is most of a
# truncation); mmap() links the VMA into the file's i_mmap tree under
# mmap_lock held for write, and blocks on i_mmap_rwsem behind the
# truncation's unmap_mapping_range (a sleeping rwsem: TASK_UNINTERRUPTIBLE).  Documentation/blame.rst, "A sleeping holder".
# Expected, against the helper's own counts and the kernel's own trace:
#   - a row for mmap() from bl-sleeper with one write hold per call
#   - its hold split adds up to the hold exactly
#   - the calls did block (voluntary switches inside them >= 1)
#   - the row's sleeping and runnable time equal the kernel's trace of the
#     same holds (tracefs: mmap_lock write holds inside mmap(), the
#     sleeper's sched_switch, trace_clock mono): from the trace's figure
#     to the same intervals ended at the sleeper's next traced event, either
#     side widened by 1% + 5 us a switch + 10 ms (blame_trace_tol); and the
#     row's sleeping time is not 0.
# The helper's own clocks are printed, not checked: its time off CPU is
# CLOCK_MONOTONIC - CLOCK_THREAD_CPUTIME_ID - run_delay, and the last two
# run on sched_clock, which the guest's unstable TSC ("TSCs
# unsynchronized" at boot, two TCG vCPUs) clamps to tick-wide windows of
# the clocksource: on a busy host they drifted to 0.86 of faultline's
# sleep (CI, 6.1; 0.93..1.05 before), while the trace, on the same clock as
# faultline, does not drift (blame.rst).
# Twice: the holders from the BPF skeleton (record --blame), then from the
# module's own hooks (record -b kmod --blame, module/blame.c); the same
# checks, artefacts in /out/bpf and /out/kmod.  On a kernel that preempts
# kernel code (7.3) the BPF pass is --tier kprobe and the trace takes the
# holds by kprobes (blame_writer.sh says why).
# kernels: 6.12 6.1 7.3
# boot: shared
# smp: 2
# timeout: 420
# args: 40 1024 16
. /fl/lib.sh
. /fl/blame.inc
N=${1:-40} P=${2:-1024} K=${3:-16}
# Sleeper and truncator on one vCPU: on two, the writer spins on the
# reader-owned rwsem while the zap runs beside it and often never sleeps
# (6.1, busy CI: 0 of 480 calls blocked); on one, the truncator is
# preempted inside its zap and the writer's spin ends (need_resched), so it
# sleeps: 31..40 of 40 calls blocked on 6.12, 6.1 and 7.3 (blame.rst).
SB_PIN="taskset -c 0"
[ -x /fl/blamesleeper ] || fl_skip "blamesleeper not in the box (make -C tests/helpers)"

[ -d /sys/kernel/tracing/events/mmap_lock ] || fl_skip "no tracefs mmap_lock events"

# One pass: SB (bpf or kmod) names the backend that takes the holders.
sleeper_pass() {
	SB=$1
	mkdir -p /out/$SB
	SNAP=/out/$SB/sleeper.snap
	if [ "$SB" = kmod ]; then SB_B="-b kmod" SB_WANT=faultline.ko; else SB_B= SB_WANT=tracepoint; fi
	# a kernel that preempts kernel code: the kprobe tier (fl_preemptible)
	[ "$SB" = bpf ] && fl_preemptible && SB_B="-b bpf --tier kprobe"
	echo "== blame_sleeper: the holders from $SB"
	blame_traced_record $SB bl-sleeper 9 /out/$SB/trace.txt /out/$SB/record.txt \
		"$SB_PIN blamesleeper -n $N -m 1 -p $P -k $K" $SB_B --blame -o "$SNAP"
	case $? in
	1) cat /out/$SB/record.txt; fl_fail "the recording did not start its command"; fl_done ;;
	2) fl_fail "tracefs set-up (mmap_lock, sched_switch, mmap)"; fl_done ;;
	esac
	rc=$BL_RC lost=$BL_LOST
	cat /out/$SB/record.txt
	fl_check_eq "record --blame exit status" "$rc" 0
	faultline report --raw "$SNAP" >/out/$SB/raw.txt 2>&1
	fl_check_eq "report --raw exit status" "$?" 0
	faultline report --blame "$SNAP" >/out/$SB/report.txt 2>&1
	cat /out/$SB/report.txt
	kv() { blame_kv /out/$SB/raw.txt "$1"; }
	hv() { grep '^sleeper_tid=' /out/$SB/record.txt | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1; }
	[ "$(kv blame)" = "$SB_WANT" ] && fl_pass "blame recorded: $SB_WANT" ||
		{ fl_fail "blame recorded: got '$(kv blame)', expected '$SB_WANT'"; fl_done; }
	# -m 1: past N calls until one blocked (the helper's header)
	fl_check_ge "the sleeper made its calls" "$(hv calls)" "$N"
	fl_check_ge "mmap() calls that blocked (voluntary switches inside them)" "$(hv collided)" 1

	row=$(blame_row /out/$SB/raw.txt bl-sleeper "mmap()")
	[ -n "$row" ] && fl_pass "a row for mmap() from bl-sleeper (row $row)" ||
		{ fl_fail "no row for mmap() from bl-sleeper"; grep '^blame' /out/$SB/raw.txt; fl_done; }
	r() { kv "blame.row.$row.$1"; }
	fl_check_eq "the row's holder tid is the sleeper's" "$(r tid)" "$(hv sleeper_tid)"
	fl_check_eq "write holds of the row == the sleeper's mmap() calls" "$(r holds)" "$(hv calls)"
	fl_invariant "hold split: on-CPU + runnable + sleeping == hold" \
		$(( $(r oncpu_ns) + $(r runnable_ns) + $(r sleep_ns) )) "$(r hold_ns)"
	sl=$(r sleep_ns) rq=$(r runnable_ns) me=$(hv sleep_ns) off=$(hv off_ns) hold=$(r hold_ns)
	echo "sleeper: $(hv collided) of $N calls blocked: ${me} ns asleep, ${off} ns off CPU inside" \
		"them (its clocks); faultline: hold ${hold} ns, sleeping ${sl} ns, runnable ${rq} ns" \
		"($((hold ? sl * 100 / hold : 0))% of the hold asleep)"
	blame_trace_read "$lost" /out/$SB/trace.txt "$(hv sleeper_tid)" "blamesleeper: calls begin" "$(hv calls)" "mmap()"
	tsw=$TR_SW tsl=$TR_SLEEP_NS trq=$TR_RQ_NS toff=$TR_OFF_NS
	fl_check_ge "trace: switch-outs inside those holds" "$tsw" 1
	fl_check_ge "trace: sleeping inside those holds (ns)" "$tsl" 1
	fl_check_ge "the row's sleeping time (ns): it shows as sleeping" "$sl" 1
	# from the trace's figure (runnable: less a preemption before
	# faultline's start stamp, TR_DN_RQ_NS) to the intervals ended at the
	# sleeper's next traced event, either side widened by blame_trace_tol
	tol=$(blame_trace_tol "$tsl" "$tsw")
	fl_check_range "the row's sleeping time vs the trace's" "$sl" $((tsl - tol)) $((TR_UP_SLEEP_NS + tol))
	tol=$(blame_trace_tol "$trq" "$tsw")
	fl_check_range "the row's runnable time vs the trace's" "$rq" $((TR_DN_RQ_NS - tol)) $((TR_UP_RQ_NS + tol))
	# the helper's clocks, printed (see the header): per mille of faultline's
	echo "helper's clocks vs faultline's sleeping: asleep $((sl ? me * 1000 / sl : 0))," \
		"off CPU $((sl ? off * 1000 / sl : 0)) per mille; the trace's off CPU in the" \
		"same calls vs the helper's: $((off ? toff * 1000 / off : 0)) per mille"
	# how much of the hold is asleep depends on how many calls meet a zap
	# (6.12: 75% and 49% in two runs, 6.1: 4-9%): printed, not a check of
	# faultline (the two checks above are)
	echo "sleeping: $((hold ? sl * 1000 / hold : 0)) per mille of the row's hold"
	grep -q "was behind mmap() from tid $(hv sleeper_tid) (bl-sleeper)" /out/$SB/report.txt &&
		fl_pass "report --blame names mmap() from bl-sleeper" ||
		fl_fail "report --blame: no line for mmap() from bl-sleeper"
}

sleeper_pass bpf
if [ -f /fl/faultline.ko ]; then
	fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
	sleeper_pass kmod
	fl_check_cmd "rmmod faultline" rmmod faultline
else
	fl_fail "faultline.ko was not built for $FL_KREL"
fi
fl_done
