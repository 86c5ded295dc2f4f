# The seed's mmtests pft configuration (tests/fixtures/seed-ab-report.txt:
# PFT_ITERATIONS=30, PFT_MAPPING_SIZE=MemTotal/5, 1..NUMCPUS threads, base
# pages) shrunk to a test box, recorded under the collector: one side of
# make check-seed's A/B (tests/check-seed).  The sweep comes back in
# /out/sweep for `faultline compare --seed` on the host.  TCG timings are
# emulated: what this checks is that the sweep and its snapshots exist and
# add up, not the seed's speed-ups.
# Booted by tests/check-seed only (a build-kernel DIR, -k), not by make check.
. /fl/lib.sh
[ "$(id -u)" = 0 ] || fl_skip "needs root"
[ -x /fl/pft-sweep ] && [ -x /fl/pft ] || fl_skip "pft-sweep / pft not in the box"
iters=${SEED_PFT_ITERATIONS:-5}
PFT_ITERATIONS=$iters PFT_MAPPING_SIZE=${SEED_PFT_MAPPING_SIZE:-64m} PFT_MIN_CLIENTS=1 \
	PFT_MAX_CLIENTS=$(nproc) PFT_USE_PROCESSES=no PFT_PAGESIZES=base \
	pft-sweep --record -o /out/sweep >/out/sweep.txt 2>&1
fl_check_eq "pft-sweep --record exit status" "$?" 0
n=0
for c in $(sed -n 's/^SWEEP_CLIENTS=//p' /out/sweep/sweep.conf | tr ',' ' '); do
	fl_check_eq "clients $c: $iters classic pft lines" "$(awk 'NF == 8' /out/sweep/pft-$c.log | wc -l)" "$iters"
	fl_check_eq "clients $c: $iters snapshots" "$(ls /out/sweep/snap/pft-$c-*.snap 2>/dev/null | wc -l)" "$iters"
	n=$((n + 1))
done
fl_check_cmd "the sweep names its client counts" test "$n" -gt 0
# the lockless rows: SPF on B, none on A (what the kernel offers; the
# collector names it in every snapshot)
first=$(ls /out/sweep/snap/*.snap | head -1)
faultline report --raw "$first" | grep -E '^lockless_(kind|attempted|succeeded|aborted|retried)=' >/out/lockless.txt
echo "lockless of $first:"; cat /out/lockless.txt
fl_done
