# faultline serve inside the test box, where the fentry tier and the module
# work (the host has the tracepoint tier only): serve -p on a held process
# running pft -m 64m (16384 pages), scraped over the guest's loopback with
# busybox wget (no Prometheus in the guest: TCG is too slow for it).
#   - fentry tier: faults_total{mode="user"} = 16384 +-2% and = a `record -p` of the
#     same process +-1%; the latency histogram is exported (count > 0, +Inf =
#     _count, no faultline_unavailable for latency); report's p50/p99 of the
#     record are within a factor of two of the bucket (previous le, le]
#     where the exposition's cumulative counts reach the same rank (two BPF
#     instances time each other's programs: not exact);
#     faultline_fault_latency_max_seconds present; SIGTERM exits 0.
#   - module (-b kmod): the same counts against the module's own summary
#     (its p50/p99 in the exposition's bucket of the same rank); SIGTERM exits 0.
# kernels: 6.12 6.1
# boot: shared
# smp: 2
# timeout: 900
. /fl/lib.sh
. /fl/kmod.inc
. /fl/serve.inc
export PATH=/fl:$PATH
PAGES=16384
URL=http://127.0.0.1:9477/metrics

ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up

val() { awk -v k="$1" 'index($0, k) == 1 && substr($0, length(k) + 1, 1) ~ /[{ ]/ { print $NF; exit }' "$2"; }
# le (ns) of the first bucket of histogram NAME in FILE whose cumulative
# count reaches rank ceil(Q * count), and the le before it
le_of() {  # NAME Q FILE
	awk -v n="faultline_$1_seconds" -v q="$2" '
	index($0, n "_count") == 1 { cnt = $NF }
	index($0, n "_bucket") == 1 && $0 !~ /le="\+Inf"/ {
		match($0, /le="[^"]*"/); le = substr($0, RSTART + 4, RLENGTH - 5)
		nb++; L[nb] = le * 1e9; C[nb] = $NF }
	END {
		r = int(q * cnt); if (r < q * cnt) r++; if (r < 1) r = 1
		prev = 0
		for (i = 1; i <= nb; i++) { if (C[i] >= r) { printf "%.0f %.0f\n", prev, L[i]; exit }; prev = L[i] }
		print "none none" }' "$3"
}
within_bucket() {  # WHAT VALUE_NS NAME Q FILE
	set -- "$1" "$2" $(le_of "$3" "$4" "$5")
	if [ "$3" != none ] && awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v > lo && v <= hi + 1) }'; then
		fl_pass "$1: $2 ns in the exported bucket ($3, $4] ns"
	else
		fl_fail "$1: $2 ns not in the exported bucket ($3, $4] ns"
	fi
}
wait_up() { for i in $(seq 100); do scrape /tmp/up.prom 2>/dev/null && return 0; sleep 0.3; done; return 1; }

echo "=== fentry tier"
held_pft fentry
faultline serve --tier fentry -p $HOLD --listen 127.0.0.1:9477 >/out/serve-fentry.txt 2>&1 &
S=$!
faultline record -q --tier fentry -p $HOLD -o /out/rec.snap >/out/record.txt 2>&1 &
R=$!
wait_up
fl_check_eq "serve --tier fentry answers" $? 0
sleep 2
echo go >/tmp/go
wait $HOLD
wait $R
fl_check_eq "record -p exits 0" $? 0
settle /out/fentry.prom
cat /out/serve-fentry.txt
got=$(faults_user /out/fentry.prom)
rec=$(faultline report --raw /out/rec.snap | sed -n 's/^faults_user=//p')
echo "serve: faults_total{mode=user} $got; record: $rec"
fl_check_within "serve fentry: faults vs pft's pages" "$got" $PAGES 2
fl_check_within "serve fentry: faults vs record of the same process" "$got" "$rec" 1
cnt=$(val faultline_fault_latency_seconds_count /out/fentry.prom)
inf=$(awk '/^faultline_fault_latency_seconds_bucket.*le="\+Inf"/ { print $NF; exit }' /out/fentry.prom)
fl_check_ge "latency samples exported" "${cnt:-0}" 1
fl_check_eq "latency +Inf = _count" "$inf" "$cnt"
if grep -q '^faultline_unavailable{.*figure="latency"' /out/fentry.prom; then
	fl_fail "latency listed unavailable on the fentry tier"
else
	fl_pass "latency not listed unavailable on the fentry tier"
fi
grep -q '^faultline_fault_latency_max_seconds' /out/fentry.prom
fl_check_eq "latency peak gauge present" $? 0
faultline report --raw /out/rec.snap >/out/rec-raw.txt
# two BPF instances on the same hooks time each other's programs (and TCG
# makes those costly), so record's histogram is shifted by serve's cost and
# back: here within a factor of two either side of the exported bucket (8 of
# the histogram's buckets; 6.1 measured 2 buckets apart at p99); the exact
# agreement is the module's below (serve reads the very counts the summary shows)
for q in 50 99; do
	v=$(sed -n "s/^fault_latency.p${q}_ns=//p" /out/rec-raw.txt)
	set -- $(le_of fault_latency 0.$q /out/fentry.prom)
	if [ "$1" != none ] && awk -v v="$v" -v lo="$1" -v hi="$2" 'BEGIN { exit !(v > (lo + 1) / 2 - 1 && v <= 2 * hi + 1) }'; then
		fl_pass "fentry p$q: report's $v ns within a factor of two of serve's bucket ($1, $2] ns"
	else
		fl_fail "fentry p$q: report's $v ns beyond a factor of two of serve's bucket ($1, $2] ns"
	fi
done
kill -TERM $S
wait $S
fl_check_eq "serve (fentry) exits 0 on SIGTERM" $? 0

echo "=== module"
if [ -f /fl/faultline.ko ] && insmod /fl/faultline.ko; then
	held_pft kmod
	faultline serve -b kmod -p $HOLD --listen 127.0.0.1:9477 >/out/serve-kmod.txt 2>&1 &
	S=$!
	wait_up
	fl_check_eq "serve -b kmod answers" $? 0
	sleep 2
	echo go >/tmp/go
	wait $HOLD
	settle /out/kmod.prom
	kmod_save_summary /out/kmod-summary.txt
	cat /out/serve-kmod.txt
	got=$(faults_user /out/kmod.prom)
	fl_check_within "serve kmod: faults vs pft's pages" "$got" $PAGES 2
	fl_check_eq "serve kmod: faults = the module's summary" "$got" "$(kmod_sum faults_user)"
	for q in 50 99; do
		within_bucket "kmod p$q: module summary vs exposition" \
			"$(kmod_hist fault_latency p$q)" fault_latency 0.$q /out/kmod.prom
	done
	grep -q '^faultline_info{.*backend="kmod"' /out/kmod.prom
	fl_check_eq "info: backend kmod" $? 0
	kill -TERM $S
	wait $S
	fl_check_eq "serve (kmod) exits 0 on SIGTERM" $? 0
	rmmod faultline
else
	echo "skip: module part (no /fl/faultline.ko or insmod failed)"
fi
fl_done
