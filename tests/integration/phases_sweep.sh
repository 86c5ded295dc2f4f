# Fault phases through a sweep (issue 7): tools/pft-sweep with
# FAULTLINE_RECORD="faultline record -q --phases --locks -o" records every
# iteration with phases and lock classes; `faultline compare` of two such
# sweeps has phase / lock-class rows per thread count with one value per run
# and an EXPLAIN section; `report --phases --locks SWEEPDIR` has a row per
# thread count; `report --phases --by llc|node` groups the CPUs by the
# topology the snapshot carries.  Checks structure, not times (TCG).
# kernels: 6.12 6.1 7.3
# boot: shared
# smp: 2
# timeout: 600
# args: 3 16m
. /fl/lib.sh
IT=${1:-3} SIZE=${2:-16m}
[ -x /fl/pft-sweep ] || fl_skip "pft-sweep not in the box"
export FAULTLINE_RECORD="faultline record -q --phases --locks -o"
for side in A B; do
	PFT_ITERATIONS=$IT PFT_MAPPING_SIZE=$SIZE PFT_MIN_CLIENTS=1 PFT_MAX_CLIENTS=2 \
		pft-sweep -o /tmp/$side >/out/sweep-$side.txt 2>&1
	rc=$?
	cat /out/sweep-$side.txt
	[ -f /tmp/$side/sweep.err ] && cat /tmp/$side/sweep.err
	fl_check_eq "pft-sweep $side with FAULTLINE_RECORD exit status" "$rc" 0
done
n=$(ls /tmp/A/snap/*.snap 2>/dev/null | wc -l)
fl_check_eq "snapshots in A (2 thread counts x $IT runs)" "$n" $((2 * IT))
grep -q '^SWEEP_RECORD=faultline,record,-q,--phases,--locks,-o$' /tmp/A/sweep.conf &&
	fl_pass "sweep.conf names the collector" || fl_fail "sweep.conf: SWEEP_RECORD is '$(grep SWEEP_RECORD /tmp/A/sweep.conf)'"
bad=0
for f in /tmp/A/snap/*.snap /tmp/B/snap/*.snap; do
	faultline report --raw "$f" >/tmp/raw.txt 2>&1 || { bad=$((bad + 1)); continue; }
	kv() { sed -n "s/^$1=//p" /tmp/raw.txt | head -1; }
	case $(kv phases) in unavailable*|'') bad=$((bad + 1)); echo "$f: phases '$(kv phases)'" ;; esac
	case $(kv locks) in unavailable*|'') bad=$((bad + 1)); echo "$f: locks '$(kv locks)'" ;; esac
	[ "$(kv phases.overrun)" = 0 ] || { bad=$((bad + 1)); echo "$f: overrun '$(kv phases.overrun)'"; }
	# 16m = 4096 pages, plus pft's and the collector child's start-up faults
	# (a few dozen): both sides bounded
	fl_isnum "$(kv phases.faults)" && [ "$(kv phases.faults)" -ge 4096 ] &&
		[ "$(kv phases.faults)" -le $((4096 + 4096 / 50)) ] ||
		{ bad=$((bad + 1)); echo "$f: faults '$(kv phases.faults)' (expected 4096..4177)"; }
done
fl_check_eq "snapshots without phases, locks, with overrun or faults outside 4096..4177" "$bad" 0

faultline compare /tmp/A /tmp/B >/out/compare.txt 2>/out/compare.err
fl_check_eq "compare exit status" "$?" 0
cat /out/compare.txt
for m in phases_latency_mean_1 phases_latency_mean_2 phase_alloc_mean_2 phase_rest_mean_1 \
	 phase_unattrib_mean_2; do
	# the (A) row under the metric: one value per run
	cnt=$(awk -v m="$m" '$1 == m { getline; split($0, c, "|"); gsub(/ /, "", c[2]); print c[2]; exit }' /out/compare.txt)
	fl_check_eq "compare: $m (A) runs" "$cnt" "$IT"
done
grep -q '^\[\*\] EXPLAIN$' /out/compare.txt && fl_pass "compare has an EXPLAIN section" ||
	fl_fail "compare: no EXPLAIN section"
case $FL_SERIES in
6.1) grep -q '^phase_lockless_mean_2 (A): unavailable (no lockless fault path' /out/compare.txt &&
	fl_pass "compare: lockless phase a gap with its reason on $FL_SERIES" ||
	fl_fail "compare: lockless phase gap missing on $FL_SERIES" ;;
*) cnt=$(awk '$1 == "phase_lockless_mean_2" { getline; split($0, c, "|"); gsub(/ /, "", c[2]); print c[2]; exit }' /out/compare.txt)
   fl_check_eq "compare: phase_lockless_mean_2 (A) runs" "$cnt" "$IT" ;;
esac
faultline compare -f json /tmp/A /tmp/B >/out/compare.json
fl_check_eq "compare --format json exit status" "$?" 0
grep -q '"explain":\[' /out/compare.json && fl_pass "json has explain" || fl_fail "json: no explain array"
cp -r /tmp/A /tmp/B /out/ 2>/dev/null

# report of a whole sweep: a row per thread count, every run counted
faultline report --phases --locks /tmp/A >/out/report-sweep.txt 2>&1
fl_check_eq "report --phases --locks SWEEPDIR exit status" "$?" 0
cat /out/report-sweep.txt
for t in 1 2; do
	runs=$(awk -v t=$t '/^phases per thread count/ { on = 1; next } on && $1 == t { print $2; exit }' /out/report-sweep.txt)
	fl_check_eq "report SWEEPDIR: phase row for $t thread(s), runs" "$runs" "$IT"
	runs=$(awk -v t=$t '/^lock classes per thread count/ { on = 1; next } on && $1 == t { print $2; exit }' /out/report-sweep.txt)
	fl_check_eq "report SWEEPDIR: lock row for $t thread(s), runs" "$runs" "$IT"
done

snap=/tmp/A/snap/pft-2-1.snap
for by in node llc; do
	faultline report --phases --locks --by $by "$snap" >/out/by-$by.txt 2>&1
	rc=$?
	cat /out/by-$by.txt
	fl_check_eq "report --phases --by $by exit status" "$rc" 0
	grep -q "^${by}0 " /out/by-$by.txt && fl_pass "report --by $by has a ${by}0 row" ||
		fl_fail "report --by $by: no ${by}0 row"
done
fl_check_fails "report --by socket is refused" faultline report --phases --by socket "$snap"
fl_done
