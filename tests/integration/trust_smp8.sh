# 8 vCPUs, 2 sockets: pft -t 8 under the collector (bpf fentry, then the
# module): counts exact, invariants hold; with pft -a (worker i pinned to
# CPU i) each CPU's count matches its worker's pages.
# kernels: 6.12
# smp: 8,sockets=2,cores=2,threads=2
# mem: 1024
# timeout: 900
. /fl/lib.sh
fl_check_eq "guest has 8 CPUs" "$(nproc)" 8
faultline record -q --tier fentry -o /out/bpf.snap -- pft -m 128m -t 8
fl_check_eq "bpf record exits 0" $? 0
r=$(faultline report --raw /out/bpf.snap)
fl_check_within "bpf: user faults vs 32768 pages" "$(echo "$r" | sed -n 's/^faults_user=//p')" 32768 1
fl_check_cmd "bpf: invariants hold" faultline check /out/bpf.snap
# per CPU: the total is computed from the same per-CPU array, so their sum
# is bookkeeping (an invariant); the measurement is pft -a pinning worker i
# to CPU i: each CPU then takes its worker's 4096 pages (-1%, + the few
# dozen start-up faults beyond 32768, which land on the main thread's CPU)
sum=0
for c in 0 1 2 3 4 5 6 7; do
	v=$(echo "$r" | sed -n "s/^cpu$c\\.faults_user=//p")
	sum=$((sum + ${v:-0}))
done
fl_invariant "bpf: per-CPU faults add up to the total" "$sum" "$(echo "$r" | sed -n 's/^faults_user=//p')"
faultline record -q --tier fentry -o /out/bpf-a.snap -- pft -m 128m -t 8 -a
fl_check_eq "bpf record (pft -a) exits 0" $? 0
r=$(faultline report --raw /out/bpf-a.snap)
tot=$(echo "$r" | sed -n 's/^faults_user=//p')
fl_check_within "bpf, pft -a: user faults vs 32768 pages" "$tot" 32768 1
# the faults beyond pft's pages (pft's and the collector child's start-up,
# ~50) land on whichever CPU the main thread runs on: a CPU may carry them
extra=$(( ${tot:-0} > 32768 ? tot - 32768 : 0 ))
for c in 0 1 2 3 4 5 6 7; do
	fl_check_range "bpf, pft -a: CPU $c faults vs its pinned worker's 4096 pages (+ up to $extra start-up faults)" \
		"$(echo "$r" | sed -n "s/^cpu$c\\.faults_user=//p")" 4055 $((4096 + extra))
done
if [ -f /fl/faultline.ko ] && insmod /fl/faultline.ko; then
	faultline record -q -b kmod -o /out/kmod.snap -- pft -m 128m -t 8
	fl_check_eq "kmod record exits 0" $? 0
	u=$(faultline report --raw /out/kmod.snap | sed -n 's/^faults_user=//p')
	fl_check_within "kmod: user faults vs 32768 pages" "$u" 32768 1
	fl_check_cmd "kmod: invariants hold" faultline check /out/kmod.snap
	rmmod faultline
else
	fl_fail "faultline.ko did not load"
fi
fl_done
