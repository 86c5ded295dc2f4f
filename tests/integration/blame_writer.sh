# Holder attribution (issue 16): `faultline record --blame` around blamewriter
# (tests/helpers/blamewriter.c): T threads fault on one mapping while one
# thread ("bl-writer") mprotect()s it N times and times its own calls.
# Expected, from the helper's own counts and clocks (guest time both):
#   - >= 90% of the faults' mmap_lock read wait is charged to mprotect()
#     from bl-writer (its tid, its kernel stack through do_mprotect_pkey)
#   - that row's write holds == the writer's mprotect calls (every call takes
#     mmap_lock for write once; none before its name was set)
#   - hold + the writer's own wait for the lock <= the writer's measured
#     syscall time (the hold is inside the call), and >= 85% of it on 6.12,
#     >= 70% on 6.1 (measured 91-96% / 81-85%; the rest is syscall entry/exit, mprotect's
#     work outside the lock, our own tracepoint programs and the writer
#     preempted outside the lock: Documentation/blame.rst, "How it is tested")
#   - the hold split (on-CPU + runnable + sleeping) adds up to the hold
#   - against the kernel's own trace of the same calls (tracefs beside the
#     recording, trace_clock mono: blame.inc): 6.12 (faultline reads the
#     same mmap_lock tracepoints) hold, runnable and sleeping from the
#     trace's figure, less 1% + 5 us a switch + 10 ms (blame_trace_tol), up
#     to the same intervals ended at the holder's next traced event (plus
#     the same); 6.1 (faultline
#     reads the rwsem) its hold, runnable and sleeping contain the trace's,
#     to the same tolerance (measured +51..92 us a hold: 6.1 builds the
#     events' memcg path inside the lock before stamping them)
# Then the same with -m mapunmap (mmap() + munmap() of 16 pages elsewhere):
# the mmap() and munmap() rows of bl-writer have one write hold per call
# (munmap's ends at its mmap_write_downgrade); on 6.1 (no per-VMA locks)
# >= 90% of the faults' wait is behind them; on 6.12 they do not touch the
# faults' VMA, so the faults do not wait behind them (not asserted: printed).
# Never a time against a wall clock: TCG time is emulated.
# kernels: 6.12 6.1
# smp: 2
# timeout: 420
# args: 2 256 300
. /fl/lib.sh
. /fl/blame.inc
T=${1:-2} P=${2:-256} N=${3:-300}
SNAP=/out/blame.snap
[ -x /fl/blamewriter ] || fl_skip "blamewriter not in the box (make -C tests/helpers)"

blame_trace_start bl-writer 10 || { fl_fail "tracefs set-up (mmap_lock, sched_switch, mprotect)"; fl_done; }
faultline record --blame -o "$SNAP" -- blamewriter -t "$T" -p "$P" -n "$N" \
	>/out/record.txt 2>&1
rc=$?
lost=$(blame_trace_stop /out/trace.txt)
cat /out/record.txt
fl_check_eq "record --blame exit status" "$rc" 0
[ -s "$SNAP" ] && fl_pass "snapshot written" || { fl_fail "snapshot not written"; fl_done; }
faultline report --raw "$SNAP" >/out/raw.txt 2>&1
fl_check_eq "report --raw exit status" "$?" 0
faultline report --blame "$SNAP" >/out/report.txt 2>&1
fl_check_eq "report --blame exit status" "$?" 0
cat /out/report.txt
kv() { blame_kv /out/raw.txt "$1"; }
wv() { grep '^writer_tid=' /out/record.txt | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1; }

case $(kv blame) in
tracepoint) fl_pass "blame recorded: tracepoint" ;;
*) fl_fail "blame recorded: got '$(kv blame)'"; fl_done ;;
esac
# write holds: fentry on the rwsem where the mmap_lock tracepoints would
# tax every fault (6.1: memcg_path, no per-VMA locks), else the tracepoints
case $FL_SERIES in 6.1) want='fentry (rwsem write side)' ;; *) want=tracepoint ;; esac
fl_check_eq "write holds seen by ($FL_SERIES)" "$(kv blame.writes)" "$want"
calls=$(wv writer_calls) wns=$(wv writer_ns) wtid=$(wv writer_tid)
fl_check_eq "writer made its calls" "$calls" "$N"

# the writer's row: mprotect() from bl-writer
row=$(blame_row /out/raw.txt bl-writer "mprotect()")
[ -n "$row" ] && fl_pass "a row for mprotect() from bl-writer (row $row)" ||
	{ fl_fail "no row for mprotect() from bl-writer"; grep '^blame' /out/raw.txt; fl_done; }
r() { kv "blame.row.$row.$1"; }
fl_check_eq "the row's holder tid is the writer's" "$(r tid)" "$wtid"
fl_check_eq "the row's kind" "$(r kind)" syscall
case "<$(r frames)<" in
*'<do_mprotect_pkey<'*) fl_pass "kernel stack through do_mprotect_pkey: $(r frames)" ;;
*) fl_fail "kernel stack: expected do_mprotect_pkey, got '$(r frames)'" ;;
esac

# lockless-path fallbacks (per-VMA locks): the faults' VMA is write-locked
# by every mprotect(), so some faults abort and are charged to it; never
# more than the aborts + retries the main collector counted.  6.1: none.
fb=$(r fallbacks) ab=$(kv lockless_aborted) re=$(kv lockless_retried)
echo "fallbacks charged to the writer: $fb (all: $(kv blame.fallbacks)); lockless aborted $ab retried $re"
case $FL_SERIES in
6.1)	case $fb in unavailable*) fl_pass "6.1: the row's fallbacks read '$fb'" ;;
	*) fl_fail "6.1: the row's fallbacks should be unavailable, got '$fb'" ;; esac ;;
*)	fl_check_ge "lockless-path fallbacks charged to bl-writer's mprotect()" "$fb" 1
	if fl_isnum "$ab" && fl_isnum "$re"; then
		fl_check_le "fallbacks of all holders ($(kv blame.fallbacks)) <= aborted + retried ($ab + $re)" \
			"$(kv blame.fallbacks)" $((ab + re))
	else
		echo "note: lockless aborted/retried not measured by this record ('$ab' / '$re')"
	fi
	grep -q "and $fb lockless-path fallbacks" /out/report.txt &&
		fl_pass "report --blame: 'and $fb lockless-path fallbacks'" ||
		fl_fail "report --blame: no 'and $fb lockless-path fallbacks'" ;;
esac

# every fault wait, and the writer's share of it
total=$(kv blame.wait_ns) mine=$(r wait_ns)
echo "fault waits: $(kv blame.waits), ${total} ns; behind the writer: $(r waits), ${mine} ns"
fl_check_ge "fault mmap_lock waits seen" "$(kv blame.waits)" 10
fl_check_ge "share of the faults' mmap_lock wait behind the writer (per mille)" \
	$((total ? mine * 1000 / total : 0)) 900

# the writer's holds against its own count and clock
hold=$(r hold_ns) own=$(r own_wait_ns)
fl_check_eq "write holds of the row == the writer's mprotect calls" "$(r holds)" "$calls"
fl_invariant "hold split: on-CPU + runnable + sleeping == hold" \
	$(( $(r oncpu_ns) + $(r runnable_ns) + $(r sleep_ns) )) "$hold"
echo "writer: $calls calls, ${wns} ns measured; in-kernel hold ${hold} ns + own lock wait ${own} ns"
fl_check_le "hold + own lock wait <= the writer's measured call time (ns)" $((hold + own)) "$wns"
# 6.12 measured 960, 962, 913 per mille; 6.1 846, 830, 814 (the writer
# preempted outside the lock weighs more beside 6.1's long own waits)
case $FL_SERIES in 6.1) lo=700 ;; *) lo=850 ;; esac
fl_check_ge "hold + own lock wait, per mille of the writer's measured call time" \
	$((wns ? (hold + own) * 1000 / wns : 0)) "$lo"

# the same holds in the kernel's own trace (blame.inc; trace_clock mono)
blame_trace_read "$lost" /out/trace.txt "$wtid" "blamewriter: calls begin" "$calls" "mprotect()"
thold=$TR_HOLD_NS trq=$TR_RQ_NS tsl=$TR_SLEEP_NS tsw=$TR_SW
echo "faultline: hold $hold oncpu $(r oncpu_ns) runnable $(r runnable_ns) sleep $(r sleep_ns)"
fl_check_ge "trace: the holds' length (ns)" "$thold" 1
rq=$(r runnable_ns) sl=$(r sleep_ns)
echo "hold vs trace: $((thold ? hold * 1000 / thold : 0)) per mille," \
	"$(((hold - thold) / (calls ? calls : 1))) ns a hold more; runnable $rq vs $trq, sleeping $sl vs $tsl ($tsw switches)"
case $FL_SERIES in
6.1)	# faultline's hold (rwsem fentry/fexit) contains the tracepoints' hold,
	# whose events are stamped after 6.1 builds their memcg path inside the
	# lock (mm/mmap_lock.c TRACE_MMAP_LOCK_EVENT); the rest of the bound is
	# the call time, checked above
	tol=$(blame_trace_tol "$thold" "$tsw")
	fl_check_ge "6.1: the row's hold contains the trace's (ns, less $tol)" "$hold" $((thold - tol))
	tol=$(blame_trace_tol "$trq" "$tsw")
	fl_check_ge "6.1: the row's runnable time contains the trace's (ns, less $tol)" \
		"$rq" $((trq - tol))
	tol=$(blame_trace_tol "$tsl" "$tsw")
	fl_check_ge "6.1: the row's sleeping time contains the trace's (ns, less $tol)" \
		"$sl" $((tsl - tol)) ;;
*)	# the same tracepoints: from the trace's figure (less blame_trace_tol)
	# to the same intervals ended at the holder's next event (TR_UP_*)
	tol=$(blame_trace_tol "$thold" "$tsw")
	fl_check_range "the row's hold vs the trace's" "$hold" $((thold - tol)) $((TR_UP_HOLD_NS + tol))
	tol=$(blame_trace_tol "$trq" "$tsw")
	fl_check_range "the row's runnable time vs the trace's" "$rq" $((trq - tol)) $((TR_UP_RQ_NS + tol))
	tol=$(blame_trace_tol "$tsl" "$tsw")
	fl_check_range "the row's sleeping time vs the trace's" "$sl" $((tsl - tol)) $((TR_UP_SLEEP_NS + tol)) ;;
esac

for e in sites_full holders_full nostate; do
	fl_check_eq "blame event $e" "$(kv blame.event.$e)" 0
done
# a stack hashed into a taken bucket of the stack map gets no id: chance,
# not a bug (the writer's own row was checked for its frames above)
echo "blame event stack_fail: $(kv blame.event.stack_fail)"
grep -q "of fault mmap_lock wait .* was behind mprotect() from tid $wtid (bl-writer), holding for write" \
	/out/report.txt && fl_pass "report --blame names mprotect() from tid $wtid (bl-writer)" ||
	fl_fail "report --blame: no 'was behind mprotect() from tid $wtid (bl-writer)' line"
faultline export --format json "$SNAP" >/out/export.json 2>&1
fl_check_eq "export json exit status" "$?" 0
grep -q '"blame":{"available":true' /out/export.json && grep -q '"what":"mprotect()"' /out/export.json &&
	fl_pass "export json has the blame holders" || fl_fail "export json: no blame holders"
faultline export --format prom "$SNAP" >/out/export.prom 2>&1
fl_check_eq "export prom exit status" "$?" 0
grep -q '^faultline_blame_holds_total{.*what="mprotect()",comm="bl-writer",.*} '"$calls"'$' /out/export.prom &&
	fl_pass "export prom: $calls holds of mprotect() from bl-writer" ||
	fl_fail "export prom: no faultline_blame_holds_total ... $calls for mprotect() from bl-writer"

# ---- -m mapunmap --------------------------------------------------------
faultline record -q --blame -o /out/mu.snap -- blamewriter -t "$T" -p "$P" -n "$N" -m mapunmap \
	>/out/mu-record.txt 2>&1
fl_check_eq "record --blame (mapunmap) exit status" "$?" 0
cat /out/mu-record.txt
faultline report --raw /out/mu.snap >/out/mu-raw.txt 2>&1
fl_check_eq "report --raw (mapunmap) exit status" "$?" 0
mkv() { blame_kv /out/mu-raw.txt "$1"; }
mwv() { grep '^writer_tid=' /out/mu-record.txt | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1; }
mrow() { blame_row /out/mu-raw.txt bl-writer "$1"; }
rm_=$(mrow "mmap()") ru=$(mrow "munmap()")
[ -n "$rm_" ] && [ -n "$ru" ] && fl_pass "rows for mmap() and munmap() from bl-writer ($rm_, $ru)" ||
	{ fl_fail "no mmap()/munmap() rows from bl-writer"; grep '^blame' /out/mu-raw.txt; fl_done; }
fl_check_eq "write holds of the mmap() row == the writer's mmap calls" \
	"$(mkv blame.row.$rm_.holds)" "$(mwv writer_calls)"
fl_check_eq "write holds of the munmap() row == the writer's munmap calls (downgrade ends them)" \
	"$(mkv blame.row.$ru.holds)" "$(mwv munmap_calls)"
for x in $rm_ $ru; do
	fl_invariant "hold split of row $x adds up to its hold" \
		$(( $(mkv blame.row.$x.oncpu_ns) + $(mkv blame.row.$x.runnable_ns) + $(mkv blame.row.$x.sleep_ns) )) \
		"$(mkv blame.row.$x.hold_ns)"
done
fl_check_le "mmap() hold + own wait <= the writer's measured mmap time (ns)" \
	$(( $(mkv blame.row.$rm_.hold_ns) + $(mkv blame.row.$rm_.own_wait_ns) )) "$(mwv writer_ns)"
fl_check_le "munmap() hold + own wait <= the writer's measured munmap time (ns)" \
	$(( $(mkv blame.row.$ru.hold_ns) + $(mkv blame.row.$ru.own_wait_ns) )) "$(mwv munmap_ns)"
mt=$(mkv blame.wait_ns) mw=$(( $(mkv blame.row.$rm_.wait_ns) + $(mkv blame.row.$ru.wait_ns) ))
echo "mapunmap: fault waits $(mkv blame.waits) / ${mt} ns; behind bl-writer's mmap()+munmap(): ${mw} ns"
case $FL_SERIES in
6.1)	fl_check_ge "fault waits (mapunmap, no per-VMA locks)" "$(mkv blame.waits)" 10
	fl_check_ge "share of the faults' wait behind bl-writer's mmap()+munmap() (per mille)" \
		$((mt ? mw * 1000 / mt : 0)) 900 ;;
*)	echo "note: per-VMA locks: faults on another VMA do not wait behind mmap()/munmap()" ;;
esac

# ---- compare of the two recordings (compare.rst, BLAME) -------------------
# A: the writer mprotect()s the faults' mapping; B: it mmap()s and munmap()s
# elsewhere.  Sites are matched by syscall, comm and frames: mprotect() is
# only in A, mmap() and munmap() only in B.  On 6.12 B's faults do not wait
# behind them (per-VMA locks, above), so the wait B saved is behind A's
# mprotect(); on 6.1 both writers delay the faults (printed, not asserted).
faultline compare "$SNAP" /out/mu.snap >/out/compare.txt 2>&1
fl_check_eq "compare A.snap B.snap exit status" "$?" 0
cat /out/compare.txt
grep -q '^  \[[0-9]*\] mprotect() (bl-writer, only in A) ' /out/compare.txt &&
	grep -q '^  \[[0-9]*\] munmap() (bl-writer, only in B) ' /out/compare.txt &&
	fl_pass "compare: mprotect() only in A, munmap() only in B" ||
	fl_fail "compare: no 'mprotect() (bl-writer, only in A)' / 'munmap() (bl-writer, only in B)' rows"
case $FL_SERIES in
6.1)	echo "note: 6.1: both writers delay every fault; the clause is printed above" ;;
*)	grep -q '^EXPLAIN: .*: the mmap_lock wait B saved was behind mprotect() (bl-writer, only in A) in A: ' \
		/out/compare.txt && fl_pass "compare: the wait B saved was behind A's mprotect()" ||
		fl_fail "compare: EXPLAIN does not name A's mprotect() for the wait B saved" ;;
esac
fl_done
