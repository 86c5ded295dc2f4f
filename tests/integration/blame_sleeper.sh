# Holder attribution (issue 16): a holder that sleeps while it holds
# mmap_lock for write is reported as sleeping.  tests/helpers/blamesleeper.c:
# "bl-sleeper" mmap()s a memfd while a child truncates it (the child maps
# it K times, so that zapping K x P page table entries is most of a
# truncation); mmap() links the VMA into the file's i_mmap tree under
# mmap_lock held for write, and blocks on i_mmap_rwsem behind the
# truncation's unmap_mapping_range (a sleeping rwsem: TASK_UNINTERRUPTIBLE).  Documentation/blame.rst, "A sleeping holder".
# Expected, against the helper's own counts and clocks (guest time both):
#   - a row for mmap() from bl-sleeper with one write hold per call
#   - its hold split adds up to the hold exactly
#   - the calls did block (voluntary switches inside them >= 1)
#   - the row's sleeping time against the sleeper's own clocks, over the
#     calls that blocked: at least 90% of its time asleep (off CPU, i.e.
#     CLOCK_MONOTONIC - CLOCK_THREAD_CPUTIME_ID, minus schedstat's
#     run_delay), at most 110% of its time off CPU.  faultline's "sleeping"
#     runs from the switch-out to the switch-in, so it also holds the wait
#     for a CPU after the wakeup: it should lie between the two; measured
#     0.93..1.05 of them, on either side (not explained: the two clocks,
#     read on either vCPU of a TCG guest, are the suspects)
# kernels: 6.12 6.1
# smp: 2
# timeout: 420
# args: 40 1024 16
. /fl/lib.sh
. /fl/blame.inc
N=${1:-40} P=${2:-1024} K=${3:-16}
# 6.1: about 1 call in 10 to 15 meets a zap (blame.rst): three times the
# calls, so that some always do
[ "$FL_SERIES" = 6.1 ] && N=$((N * 3))
SNAP=/out/sleeper.snap
[ -x /fl/blamesleeper ] || fl_skip "blamesleeper not in the box (make -C tests/helpers)"

faultline record --blame -o "$SNAP" -- blamesleeper -n "$N" -p "$P" -k "$K" >/out/record.txt 2>&1
rc=$?
cat /out/record.txt
fl_check_eq "record --blame exit status" "$rc" 0
faultline report --raw "$SNAP" >/out/raw.txt 2>&1
fl_check_eq "report --raw exit status" "$?" 0
faultline report --blame "$SNAP" >/out/report.txt 2>&1
cat /out/report.txt
kv() { blame_kv /out/raw.txt "$1"; }
hv() { grep '^sleeper_tid=' /out/record.txt | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1; }
[ "$(kv blame)" = tracepoint ] && fl_pass "blame recorded: tracepoint" ||
	{ fl_fail "blame recorded: got '$(kv blame)'"; fl_done; }
fl_check_eq "the sleeper made its calls" "$(hv calls)" "$N"
fl_check_ge "mmap() calls that blocked (voluntary switches inside them)" "$(hv collided)" 1

row=$(blame_row /out/raw.txt bl-sleeper "mmap()")
[ -n "$row" ] && fl_pass "a row for mmap() from bl-sleeper (row $row)" ||
	{ fl_fail "no row for mmap() from bl-sleeper"; grep '^blame' /out/raw.txt; fl_done; }
r() { kv "blame.row.$row.$1"; }
fl_check_eq "the row's holder tid is the sleeper's" "$(r tid)" "$(hv sleeper_tid)"
fl_check_eq "write holds of the row == the sleeper's mmap() calls" "$(r holds)" "$N"
fl_invariant "hold split: on-CPU + runnable + sleeping == hold" \
	$(( $(r oncpu_ns) + $(r runnable_ns) + $(r sleep_ns) )) "$(r hold_ns)"
sl=$(r sleep_ns) me=$(hv sleep_ns) off=$(hv off_ns) hold=$(r hold_ns)
echo "sleeper: $(hv collided) of $N calls blocked: ${me} ns asleep, ${off} ns off CPU inside" \
	"them (its clocks); faultline: hold ${hold} ns, sleeping ${sl} ns" \
	"($((hold ? sl * 100 / hold : 0))% of the hold)"
fl_check_ge "the row's sleeping time, per mille of the sleeper's time asleep" \
	$((me ? sl * 1000 / me : 0)) 900
fl_check_le "the row's sleeping time, per mille of the sleeper's time off CPU" \
	$((off ? sl * 1000 / off : 0)) 1100
# how much of the hold is asleep depends on how many calls meet a zap
# (6.12: 75% and 49% in two runs, 6.1: 4-9%): printed, not a check of
# faultline (the two checks above are)
echo "sleeping: $((hold ? sl * 1000 / hold : 0)) per mille of the row's hold"
grep -q "was behind mmap() from tid $(hv sleeper_tid) (bl-sleeper)" /out/report.txt &&
	fl_pass "report --blame names mmap() from bl-sleeper" ||
	fl_fail "report --blame: no line for mmap() from bl-sleeper"
fl_done
