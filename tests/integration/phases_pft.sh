# Fault phases (issue 7): pft -t 2 on base pages with the phases skeleton
# attached.  Every fault has phase accounting, the phases of every fault add
# up to no more than its latency (overrun 0), the phases pft's anonymous
# faults must go through are seen once per page, and the unattributed share
# is reported.  Phases the kernel cannot show are "unavailable", not 0.
# Needs tests/phases/phases_probe in the box (--carry tests/phases/phases_probe).
# kernels: 6.12 6.1
# smp: 2
# timeout: 300
# args: 4096
. /fl/lib.sh
PAGES=${1:-4096}
[ -x /fl/phases_probe ] || fl_skip "phases_probe not in the box (make -C tests/phases; --carry tests/phases/phases_probe)"

out=$(phases_probe -p -l -o /out/phases.snap -- pft -m "${PAGES}P" -t 2 2>&1)
rc=$?
echo "$out"
echo "$out" >/out/phases.txt
fl_check_eq "phases_probe exit status" "$rc" 0
kv() { echo "$out" | sed -n "s/^kv $1=//p" | head -1; }

fl_check_eq "phases section recorded" "$(kv phases_section)" 1
[ "$(kv phases_section)" = 1 ] || fl_done
faults=$(kv faults)
fl_check_ge "faults with phase accounting" "${faults:-0}" "$PAGES"
fl_check_eq "faults with a handle_mm_fault phase (rest)" "$(kv phase_rest_count)" "$faults"
fl_check_eq "faults whose phases exceed their latency (overrun)" "$(kv overrun)" 0
for ph in alloc memcg lru; do
	fl_check_ge "faults with a $ph phase" "$(kv phase_${ph}_count)" "$PAGES"
done
# base-page zeroing: its own phase where the kernel lets us trace it, else
# the report must say it is counted in alloc (never a silent 0)
zero=$(kv phase_zero_count)
if [ "${zero:-0}" -ge "$PAGES" ]; then fl_pass "faults with a zero phase: $zero"
elif echo "$out" | grep -q '^notes: zero: .*counted in alloc\|^zero *unavailable'; then
	fl_pass "zero phase: base-page zeroing reported as part of alloc"
else fl_fail "zero phase: expected >= $PAGES faults or a note, got ${zero:-none}"; fi
# the unattributed share is a figure, reported
if echo "$out" | grep -q '^unattributed share: [0-9.]*% of [0-9]* ns'; then
	fl_pass "unattributed share reported: $(echo "$out" | sed -n 's/^unattributed share: \([0-9.]*%\).*/\1/p')"
else
	fl_fail "unattributed share line missing"
fi
unattr=$(kv unattributed_pct)
if [ -n "$unattr" ] && [ "$unattr" -lt 100 ]; then fl_pass "unattributed below 100%: $unattr%"
else fl_fail "unattributed share: expected < 100%, got '$unattr'"; fi

case $FL_SERIES in
6.1)	# no per-VMA locks: the lockless phase must say so, not show 0
	if echo "$out" | grep -q '^lockless *unavailable'; then fl_pass "lockless phase unavailable on $FL_SERIES"
	else fl_fail "lockless phase: expected 'unavailable' on $FL_SERIES"; fi ;;
*)	fl_check_ge "faults with a lockless phase" "$(kv phase_lockless_count)" "$PAGES" ;;
esac
fl_check_eq "locks section recorded" "$(kv locks_section)" 1
[ -s /out/phases.snap ] && fl_pass "snapshot written" || fl_fail "snapshot not written"
fl_done
