# Fault phases (issue 7): `faultline record --phases --locks` around pft -t 2
# on base pages, checked through `faultline report --raw` and `--phases`.
# Every fault the collector timed has phase accounting, the phases of every
# fault add up to no more than its latency (overrun 0), the phases pft's
# anonymous faults must go through are seen once per page (the LRU batch
# flush once per batch), and the
# unattributed share is reported.  Phases the kernel cannot show are
# "unavailable (why)", never 0.
# kernels: 6.12 6.1
# smp: 2
# timeout: 300
# args: 4096
. /fl/lib.sh
PAGES=${1:-4096}
SNAP=/out/phases.snap

faultline record --phases --locks -o "$SNAP" -- pft -m "${PAGES}P" -t 2 \
	>/out/record.txt 2>&1
rc=$?
cat /out/record.txt
fl_check_eq "record --phases --locks exit status" "$rc" 0
[ -s "$SNAP" ] && fl_pass "snapshot written" || { fl_fail "snapshot not written"; fl_done; }
faultline report --raw "$SNAP" >/out/raw.txt 2>&1
fl_check_eq "report --raw exit status" "$?" 0
faultline report --phases --locks "$SNAP" >/out/report.txt 2>&1
fl_check_eq "report --phases --locks exit status" "$?" 0
cat /out/report.txt
grep '^phase\|^lock' /out/raw.txt
kv() { sed -n "s/^$1=//p" /out/raw.txt | head -1; }

case $(kv phases) in
''|unavailable*) fl_fail "phases recorded: got '$(kv phases)'"; fl_done ;;
*) fl_pass "phases recorded: $(kv phases)" ;;
esac
faults=$(kv phases.faults)
fl_check_ge "faults with phase accounting" "${faults:-0}" "$PAGES"
# every fault the main backend timed has phases, and no more: the phase
# skeleton and the backend see the same faults of the same task
timed=$(kv fault_latency.count)
case $timed in
''|*[!0-9]*) fl_fail "fault_latency.count: expected a number, got '$timed'" ;;
*) fl_check_within "faults with phases vs faults timed by the backend" "$faults" "$timed" 1 ;;
esac
fl_check_eq "faults with a handle_mm_fault phase (rest)" "$(kv phase.rest.count)" "$faults"
fl_check_eq "faults whose phases exceed their latency (overrun)" "$(kv phases.overrun)" 0
for ph in alloc memcg; do
	fl_check_ge "faults with a $ph phase" "$(kv phase.$ph.count)" "$PAGES"
done
# lru is the LRU batch flush (folio_batch_move_lru, under lru_lock): one per
# 15 (6.1) to 31 (6.12) folios added (6.12: 132 of 4136 faults, 6.1: 273),
# less the batches drained outside a fault: at least one fault in 64
fl_check_ge "faults with an lru phase (batch flushes)" "$(kv phase.lru.count)" $((PAGES / 64))
# base-page zeroing: its own phase where the kernel lets us trace it, else
# the report must say it is counted in alloc (never a silent 0)
zero=$(kv phase.zero.count)
if [ "${zero:-0}" -ge "$PAGES" ] 2>/dev/null; then fl_pass "faults with a zero phase: $zero"
elif kv phases.notes | grep -q 'zero: .*counted in alloc' ||
	kv phase.zero | grep -q '^unavailable'; then
	fl_pass "zero phase: base-page zeroing reported as part of alloc ($(kv phase.zero)$(kv phases.notes))"
else fl_fail "zero phase: expected >= $PAGES faults or a note, got '${zero:-none}'"; fi
# the unattributed share is a figure, reported in the table and in --raw
if grep -q '^unattributed share: [0-9.]*% of [0-9]* ns' /out/report.txt; then
	fl_pass "unattributed share reported: $(sed -n 's/^unattributed share: \([0-9.]*%\).*/\1/p' /out/report.txt)"
else
	fl_fail "unattributed share line missing from report --phases"
fi
unattr=$(kv phases.unattributed_pct)
if awk -v u="$unattr" 'BEGIN { exit !(u ~ /^[0-9]+\.[0-9]$/ && u + 0 < 100) }'; then
	fl_pass "unattributed below 100%: $unattr%"
else fl_fail "unattributed share: expected < 100%, got '$unattr'"; fi
# the means add up: sum of phase means + unattributed = mean latency (+-1%)
sum=$(awk -F= '/^phase\.[a-z_]*\.mean_ns=/ { s += $2 } END { printf "%.0f", s }' /out/raw.txt)
lat=$(awk -F= '/^phases\.lat_sum_ns=/ { l = $2 } /^phases\.unattributed_sum_ns=/ { u = $2 }
	/^phases\.faults=/ { f = $2 } END { if (f) printf "%.0f %.0f", l / f, (l - u) / f }' /out/raw.txt)
fl_check_within "sum of phase means vs attributed mean latency (ns)" "$sum" "${lat#* }" 1

case $FL_SERIES in
6.1)	# no per-VMA locks: the lockless phase must say so, not show 0
	case $(kv phase.lockless) in
	unavailable*) fl_pass "lockless phase on $FL_SERIES: $(kv phase.lockless)" ;;
	*) fl_fail "lockless phase: expected 'unavailable (why)' on $FL_SERIES, got '$(kv phase.lockless)' count '$(kv phase.lockless.count)'" ;;
	esac
	grep -q '^lockless *unavailable' /out/report.txt &&
		fl_pass "report --phases says lockless unavailable" ||
		fl_fail "report --phases: no 'lockless unavailable' row" ;;
*)	fl_check_ge "faults with a lockless phase" "$(kv phase.lockless.count)" "$PAGES" ;;
esac
case $(kv locks) in
''|unavailable*) fl_fail "locks recorded: got '$(kv locks)'" ;;
*) fl_pass "locks recorded: $(kv locks)" ;;
esac
fl_done
