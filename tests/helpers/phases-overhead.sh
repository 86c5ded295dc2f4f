# Emulated overhead of the phase / lock hooks, for a test-box run:
#   tools/testbox/run -k 6.12 --no-kmod tests/helpers/phases-overhead.sh [PAGES] [REPS]
# Compares pft alone, under `faultline record`, under `record --locks` and
# under `record --phases --locks`.  QEMU TCG timings are emulated, not
# performance: this only shows the order of magnitude and that nothing
# explodes.  Real figures come from `make bench` on hardware.
PAGES=${1:-16384} REPS=${2:-5}
fps() { sed -n 's/.*"fault_per_wsec":\([0-9.]*\).*/\1/p'; }
for mode in none record record+locks record+phases+locks; do
	for i in $(seq "$REPS"); do
		case $mode in
		none) v=$(/fl/pft -m "${PAGES}P" -t 2 --json | fps) ;;
		record) v=$(/fl/faultline record -q -o /tmp/o.snap -- /fl/pft -m "${PAGES}P" -t 2 --json | fps) ;;
		record+locks) v=$(/fl/faultline record -q --locks -o /tmp/o.snap -- /fl/pft -m "${PAGES}P" -t 2 --json | fps) ;;
		*) v=$(/fl/faultline record -q --phases --locks -o /tmp/o.snap -- /fl/pft -m "${PAGES}P" -t 2 --json | fps) ;;
		esac
		echo "overhead: mode=$mode rep=$i faults_per_wall_s=$v"
	done
done | tee /out/overhead.txt
awk '/^overhead:/ { split($2, m, "="); split($4, f, "="); s[m[2]] += f[2]; n[m[2]]++ }
     END { for (k in s) printf "overhead-mean: %s %.0f faults/s (%d runs)\n", k, s[k] / n[k], n[k] }' /out/overhead.txt
