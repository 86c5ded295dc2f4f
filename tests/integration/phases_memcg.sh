# Lock classes under memory-cgroup reclaim (issue 7): pft with 4 threads
# under `faultline record --phases --locks`, once in a memory cgroup without
# a limit (baseline) and once in one whose memory.max is a quarter of what
# pft touches, with zram swap, so every charge past the limit reclaims.
#
# Which class must rise and dominate, from the kernel source (mm/vmscan.c,
# 6.1 and 6.12): every reclaimer of one memcg scans the same lruvec (one per
# memcg and node), taking lruvec->lru_lock to isolate a batch and again to
# put it back (shrink_inactive_list / shrink_active_list, inlined into
# shrink_lruvec), per batch in lru_note_cost and per pass in shrink_node's
# cost snapshot; faults adding pages to the LRU (folio_batch_move_lru) queue
# behind them.  The other locks reclaim takes are per page table (rmap's
# ptl), per swap device / zram pool (other) or per memcg (swap_cgroup,
# events): so LRU must rise far above the baseline and dominate.  The charge
# phase (__mem_cgroup_charge, which runs the reclaim) must get slower.
# Tests assert the class that must dominate, never times (TCG is emulated).
#
# Why the box is set up so:
# - cpu max,-hypervisor: an x86 guest without paravirt spinlocks (TCG has
#   none) takes a contended spinlock in virt_spin_lock(), a test-and-set loop
#   that returns before lock:contention_begin -- no spinlock contention would
#   be seen at all.  Without the hypervisor CPUID bit the native queued
#   spinlock is used.
# - smp 4: the native queued spinlock reports contention only when a waiter
#   queues; the first waiter spins on the pending bit, untraced.  Three or
#   more CPUs on one lock are needed.
# - MGLRU off (/sys/kernel/mm/lru_gen/enabled = n; 6.12's default is on, 6.1's
#   off): both kernels run the same active/inactive reclaim.  With MGLRU, 4
#   threads in a 16-24 MiB memcg were OOM-killed after ~257 pages scanned in
#   2 of 3 tries here (concurrent reclaimers finding nothing old enough to
#   evict); the MGLRU lock takers (evict_folios, inc_max_seq,
#   try_to_inc_max_seq) are named lru all the same.
# - zram swap (kmods: zram): without swap, anonymous memory over memory.max
#   cannot be reclaimed and pft is OOM-killed.
# kernels: 6.12 6.1
# smp: 4
# cpu: max,-hypervisor
# kmods: zram
# timeout: 300
# args: 16384 4 16
. /fl/lib.sh
PAGES=${1:-16384} T=${2:-4} MAXMB=${3:-16}
CG=/sys/fs/cgroup

if grep -qw hypervisor /proc/cpuinfo; then
	fl_skip "CPU has the hypervisor flag: contended spinlocks go through virt_spin_lock(), untraced (run with --cpu max,-hypervisor)"
fi
[ "$(nproc)" -ge 3 ] || fl_skip "$(nproc) CPUs: queued-spinlock contention is traced only with 3+ CPUs on a lock"
[ -e /sys/block/zram0 ] || fl_skip "no /sys/block/zram0 (the scenario needs '# kmods: zram')"
echo 512M >/sys/block/zram0/disksize || fl_skip "zram: disksize refused"
{ mkswap /dev/zram0 >/dev/null && swapon /dev/zram0; } || fl_skip "swapon /dev/zram0 failed"
mount -t cgroup2 none $CG || fl_skip "cannot mount cgroup2"
echo +memory >$CG/cgroup.subtree_control || fl_skip "no memory controller"
if [ -w /sys/kernel/mm/lru_gen/enabled ]; then
	echo n >/sys/kernel/mm/lru_gen/enabled
	echo "lru_gen: $(cat /sys/kernel/mm/lru_gen/enabled)"
fi
mkdir $CG/base $CG/small
echo $((MAXMB * 1024 * 1024)) >$CG/small/memory.max

# run NAME: pft in cgroup NAME under record; report --raw to /out/NAME.raw
run() {
	FAULTLINE_LOCK_CALLERS=all faultline record --phases --locks -o /out/$1.snap -- \
		sh -c "echo \$\$ >$CG/$1/cgroup.procs && exec pft -m ${PAGES}P -t $T --json" \
		>/out/$1.record.txt 2>&1
	rc=$?
	cat /out/$1.record.txt
	fl_check_eq "$1: record exit status" "$rc" 0
	faultline report --raw /out/$1.snap >/out/$1.raw 2>&1
	fl_check_eq "$1: report --raw exit status" "$?" 0
	faultline report --locks --phases /out/$1.snap >/out/$1.report.txt 2>&1
	fl_check_eq "$1: report --locks --phases exit status" "$?" 0
	cat /out/$1.report.txt
	grep -E '^lock|^phase\.memcg' /out/$1.raw
	grep -E '^(pgscan|pgsteal|pgmajfault) ' $CG/$1/memory.stat 2>/dev/null
	sed 's/^/memory.events: /' $CG/$1/memory.events
}
kv() { sed -n "s/^$2=//p" /out/$1.raw | head -1; }
memstat() { awk -v k="$2" '$1 == k { print $2 }' $CG/$1/memory.stat; }
num() { case $1 in ''|*[!0-9]*) echo 0 ;; *) echo "$1" ;; esac; }

run base
run small

for r in base small; do
	# every fault has phases, none overruns; pft faulted exactly its pages
	fl_check_eq "$r: faults whose phases exceed their latency (overrun)" "$(kv $r phases.overrun)" 0
	fl_check_ge "$r: faults with phase accounting" "$(num "$(kv $r phases.faults)")" "$PAGES"
	fl_check_eq "$r: faults with a handle_mm_fault phase (rest)" \
		"$(kv $r phase.rest.count)" "$(kv $r phases.faults)"
	json=$(grep '^{"tool":"pft"' /out/$r.record.txt)
	pages=$(echo "$json" | sed -n 's/.*"pages":\([0-9]*\).*/\1/p')
	minflt=$(echo "$json" | sed -n 's/.*"minflt":\([0-9]*\).*/\1/p')
	fl_check_eq "$r: pft pages" "$pages" "$PAGES"
	fl_check_within "$r: pft minor faults vs pages" "$minflt" "$PAGES" 1
	case $(kv $r locks.naming) in
	*+reclaim*) fl_pass "$r: locks named with the reclaim context: $(kv $r locks.naming)" ;;
	*) fl_fail "$r: locks.naming: expected '+reclaim', got '$(kv $r locks.naming)'" ;;
	esac
done
fl_check_eq "small: no OOM kill" "$(sed -n 's/^oom_kill //p' $CG/small/memory.events)" 0

# the constrained run reclaimed to swap; the baseline did not reclaim at all
fl_check_eq "base: pages scanned by reclaim" "$(num "$(memstat base pgscan)")" 0
fl_check_ge "small: pages scanned by reclaim" "$(num "$(memstat small pgscan)")" "$PAGES"
fl_check_ge "small: pages reclaimed (pgsteal)" "$(num "$(memstat small pgsteal)")" $((PAGES / 2))
grep '^pswp' /proc/vmstat

# the charge phase runs the reclaim: its mean per fault rises (>= 5x)
bm=$(kv base phase.memcg.mean_ns) sm=$(kv small phase.memcg.mean_ns)
if awk -v b="$bm" -v s="$sm" 'BEGIN { exit !(b > 0 && s >= 5 * b) }'; then
	fl_pass "memcg charge phase mean: $bm -> $sm ns per fault (>= 5x; emulated)"
else fl_fail "memcg charge phase mean: expected small >= 5 x base, got $bm -> $sm"; fi

# LRU contention rises well above the baseline's ...
bc=$(num "$(kv base lock.lru.count)") sc=$(num "$(kv small lock.lru.count)")
bw=$(num "$(kv base lock.lru.wait_ns)") sw=$(num "$(kv small lock.lru.wait_ns)")
fl_check_ge "small: lru contentions" "$sc" 100
fl_check_ge "small: lru contentions vs 5 x base ($bc)" "$sc" $((5 * bc))
fl_check_ge "small: lru contended wait vs 2 x base ($bw ns)" "$sw" $((2 * bw))
# ... and dominates every other non-mmap class, by count and by wait
for c in vma ptl zone memcg other; do
	cc=$(num "$(kv small lock.$c.count)") cw=$(num "$(kv small lock.$c.wait_ns)")
	fl_check_ge "small: lru contentions vs 2 x $c ($cc)" "$sc" $((2 * cc))
	fl_check_ge "small: lru wait vs $c wait ($cw ns)" "$sw" "$cw"
done
fl_check_eq "small: dominant contended class" "$(kv small locks.dominant)" lru
grep -q '^dominant: lru' /out/small.report.txt &&
	fl_pass "small: report --locks names lru dominant" ||
	fl_fail "small: report --locks: no 'dominant: lru' line"
# the lru waits were named by reclaim's own functions (callers of every class
# are kept): the caller tables match this kernel
callers=$(sed -n 's/^locks\.caller\.[0-9]*=\([^ ]*\) .*/\1/p' /out/small.raw)
echo "small: callers: $(echo $callers)"
if echo "$callers" | grep -qE '^(shrink_lruvec|shrink_node|shrink_active_list|shrink_inactive_list|lru_note_cost|move_folios_to_lru)$'
then fl_pass "small: reclaim's lru_lock takers among the callers"
else fl_fail "small: expected shrink_lruvec / lru_note_cost / shrink_node ... among the callers, got '$(echo $callers)'"; fi
fl_done
