# Lock classes under memory-cgroup reclaim (issue 7): pft with 4 threads
# (-z: zero-filled pages) under `faultline record --phases --locks`, three
# times in a memory cgroup without a limit (baseline) and three times in one
# whose memory.max is a third of what pft touches, with zram swap, so every
# charge past the limit reclaims.
#
# Which class must rise and dominate, from the kernel source (mm/vmscan.c,
# 6.1 and 6.12): every reclaimer of one memcg scans the same lruvec (one per
# memcg and node), taking lruvec->lru_lock to isolate a batch and again to
# put it back (shrink_inactive_list / shrink_active_list, inlined into
# shrink_lruvec), per batch in lru_note_cost and per pass in shrink_node's
# cost snapshot; faults adding pages to the LRU (folio_batch_move_lru) queue
# behind them.  Rmap walks take each mapped page's PTE-table lock (ptl,
# shared only by the reclaimers and faults in that 2 MiB); the rest is per
# swap device / zram pool (other: pft -z makes zram store zero pages without
# its allocator's lock) or per memcg (swap_cgroup, events).  Asserted:
# reclaim's lru_lock waits appear, named lru (the baseline has none); lru
# leads every non-mmap class but ptl, and lru + ptl carry >= 80% of them;
# the charge phase (__mem_cgroup_charge runs the reclaim) gets >= 5x slower
# in every run; every fault has phases, none overruns; pft faults exactly
# its pages.  Counts, never times (TCG is emulated), summed over the runs:
# under TCG a lock whose holder's vCPU is descheduled convoys.  What is not
# asserted, and why, is said where the checks are.
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
#   off): both kernels run the same active/inactive reclaim, whose lru_lock
#   traffic the assertions are about.  MGLRU's evict_folios takes lru_lock
#   twice per eviction batch (up to MAX_LRU_BATCH = 4096 folios scanned), so
#   its reclaim hardly contends on it: with this scenario on 6.12 and MGLRU
#   on, 2 constrained runs reclaimed 16.6k pages each with 0 lru waits
#   (ptl 22, list_lru 56; baseline's LRU insertion: 827).  At 16-24 MiB,
#   MGLRU got 4 threads OOM-killed after ~257 pages scanned in 2 of 3 tries.
#   Its lock takers (evict_folios, inc_max_seq, try_to_inc_max_seq) are
#   named lru all the same.
# - zram swap (kmods: zram): without swap, anonymous memory over memory.max
#   cannot be reclaimed and pft is OOM-killed.
# kernels: 6.12 6.1 7.3
# smp: 4
# cpu: max,-hypervisor
# kmods: zram
# timeout: 420
# args: 24576 4 32 3
. /fl/lib.sh
PAGES=${1:-24576} T=${2:-4} MAXMB=${3:-32} R=${4:-3}
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

# run NAME: pft in a fresh cgroup NAME under record; report --raw to /out/NAME.raw
run() {
	mkdir $CG/$1
	case $1 in small*) echo $((MAXMB * 1024 * 1024)) >$CG/$1/memory.max ;; esac
	FAULTLINE_LOCK_CALLERS=all faultline record --phases --locks -o /out/$1.snap -- \
		sh -c "echo \$\$ >$CG/$1/cgroup.procs && exec pft -m ${PAGES}P -t $T -z --json" \
		>/out/$1.record.txt 2>&1
	rc=$?
	cat /out/$1.record.txt
	fl_check_eq "$1: record exit status" "$rc" 0
	faultline report --raw /out/$1.snap >/out/$1.raw 2>&1
	fl_check_eq "$1: report --raw exit status" "$?" 0
	faultline report --locks --phases /out/$1.snap >/out/$1.report.txt 2>&1
	fl_check_eq "$1: report --locks --phases exit status" "$?" 0
	grep -E '^(lock\.[a-z_]*\.(count|wait_ns)|locks\.(dominant|caller\.[0-9]*)|phase\.memcg\.mean_ns)=' /out/$1.raw
	grep -E '^(pgscan|pgsteal|pgmajfault) ' $CG/$1/memory.stat
	sed 's/^/memory.events: /' $CG/$1/memory.events
}
kv() { sed -n "s/^$2=//p" /out/$1.raw | head -1; }
memstat() { awk -v k="$2" '$1 == k { print $2 }' $CG/$1/memory.stat; }
# tracer: CLASS FIELD of run NAME caused by faultline itself.  On 6.1 the
# mmap_lock tracepoints (memcg_path prototype) resolve the cgroup path on
# every event under kernfs_rename_lock, a global spinlock there (an rwlock
# on 6.12): every fault of a task in a non-root memcg takes it.
tracer() {
	sed -n 's/^locks\.caller\.[0-9]*=kernfs_path_from_node \([0-9]*\) \([0-9]*\)$/\1 \2/p' \
		/out/$1.raw | awk -v f="$2" '{ s += (f == "count" ? $1 : $2) } END { print s + 0 }'
}

i=1
while [ $i -le "$R" ]; do
	run base$i
	run small$i
	i=$((i + 1))
done

i=1
while [ $i -le "$R" ]; do
	for r in base$i small$i; do
		# every fault has phases, none overruns; pft faulted exactly its pages
		fl_check_eq "$r: faults whose phases exceed their latency (overrun)" "$(kv $r phases.overrun)" 0
		fl_check_ge "$r: faults with phase accounting" "$(kv $r phases.faults)" "$PAGES"
		# A fault whose REST frame was never pushed (7.x: a preempted
		# program's skipped run, e.g. lock_vma_under_rcu's fexit) has no
		# REST; each such skip is counted in bpf_lost.phases: without a
		# reported loss the two are equal (fl_check_lost_only; CI
		# 2026-12-05, 7.3 small2:
		# 24697 of 24698 with bpf_lost.phases=1, unpaired:1).
		fl_check_lost_only "$r: faults with a handle_mm_fault phase (rest)" \
			"$(kv $r phase.rest.count)" "$(kv $r phases.faults)" "$(kv $r bpf_lost.phases)"
		json=$(grep '^{"tool":"pft"' /out/$r.record.txt)
		fl_check_eq "$r: pft pages" "$(echo "$json" | sed -n 's/.*"pages":\([0-9]*\).*/\1/p')" "$PAGES"
		fl_check_within "$r: pft minor faults vs pages" \
			"$(echo "$json" | sed -n 's/.*"minflt":\([0-9]*\).*/\1/p')" "$PAGES" 1
		case $(kv $r locks.naming) in
		*+reclaim*) ;;
		*) fl_fail "$r: locks.naming: expected '+reclaim', got '$(kv $r locks.naming)'" ;;
		esac
	done
	# the constrained run reclaimed (to zram) without an OOM kill; the baseline
	# did not reclaim.  A missing memory.stat row fails (it is not read as 0).
	fl_check_eq "small$i: OOM kills" "$(sed -n 's/^oom_kill //p' $CG/small$i/memory.events)" 0
	fl_check_eq "base$i: pages scanned by reclaim" "$(memstat base$i pgscan)" 0
	fl_check_ge "small$i: pages scanned by reclaim" "$(memstat small$i pgscan)" "$PAGES"
	fl_check_ge "small$i: pages reclaimed (pgsteal)" "$(memstat small$i pgsteal)" $((PAGES / 2))
	# the charge phase runs the reclaim: its mean per fault rises (>= 5x)
	bm=$(kv base$i phase.memcg.mean_ns) sm=$(kv small$i phase.memcg.mean_ns)
	if awk -v b="$bm" -v s="$sm" 'BEGIN { exit !(b > 0 && s >= 5 * b) }'; then
		fl_pass "run $i: memcg charge phase mean $bm -> $sm ns per fault (>= 5x; emulated)"
	else fl_fail "run $i: memcg charge phase mean: expected small >= 5 x base, got $bm -> $sm"; fi
	i=$((i + 1))
done
grep '^pswp' /proc/vmstat

# Contention counts, summed over the R runs of each kind: under TCG a lock
# whose holder's vCPU is descheduled convoys (every waiter spins a time
# slice), so one run can show hundreds of waits on any one lock -- seen on
# the baseline's LRU insertion and on the constrained runs' ptl.  Sums over
# runs, and counts rather than emulated wait times, keep the test stable.
# a class with no contention has no lock.CLASS row: 0 here
num() { case $1 in ''|*[!0-9]*) echo 0 ;; *) echo "$1" ;; esac; }
sum() {	# sum KIND CLASS FIELD
	s=0 i=1
	while [ $i -le "$R" ]; do
		v=$(num "$(kv $1$i lock.$2.$3)")
		[ "$2" = other ] && v=$((v - $(tracer $1$i $3)))
		s=$((s + v)) i=$((i + 1))
	done
	echo $s
}
# reclaim's own lru_lock takers (direct: they name lru as the first frame)
RECLAIM_LRU='shrink_lruvec|shrink_node|shrink_active_list|shrink_inactive_list|lru_note_cost|move_folios_to_lru|folio_isolate_lru|evict_folios|inc_max_seq|try_to_inc_max_seq'
rsum() {	# rsum KIND: contentions of reclaim's lru_lock takers over the runs
	i=1
	while [ $i -le "$R" ]; do
		grep -E "^locks\.caller\.[0-9]*=($RECLAIM_LRU) " /out/$1$i.raw
		i=$((i + 1))
	done | awk '{ s += $2 } END { print s + 0 }'
}
bc=$(sum base lru count) sc=$(sum small lru count)
echo "lru contentions: base $bc, small $sc; lru wait ns: base $(sum base lru wait_ns), small $(sum small lru wait_ns) (emulated)"
for c in vma ptl zone memcg other; do
	echo "$c contentions: base $(sum base $c count), small $(sum small $c count)"
done
echo "faultline's own kernfs_path_from_node waits (6.1 mmap_lock tracepoints), left out of other:" \
	"$(i=1; while [ $i -le "$R" ]; do printf '%s/%s ' "$(tracer base$i count)" "$(tracer small$i count)"; i=$((i + 1)); done)"
# LRU contention rises: reclaim's lru_lock waits, named lru.  The class
# total is printed, not compared with the baseline's: under TCG the
# baseline's 4 threads adding to one LRU (folio_batch_move_lru) convoy in
# some runs and not in others (0-700 waits a run), and the summed totals
# were seen as close as 411 -> 446.
fl_check_eq "base: contentions of reclaim's lru_lock takers" "$(rsum base)" 0
fl_check_ge "small: contentions of reclaim's lru_lock takers, named lru" "$(rsum small)" $((30 * R))
# ... and dominates every other non-mmap class but ptl
for c in vma zone memcg other; do
	cc=$(sum small $c count)
	fl_check_ge "small: lru contentions vs $c ($cc)" "$sc" $((cc + 1))
done
# ptl rises too: rmap walks (page_vma_mapped_walk) of several reclaimers,
# and of the faults, meet on the PTE tables of the pages being reclaimed.
# Which of lru and ptl leads is not set by the source (hold times, which
# table each reclaimer is in) and varied between runs here, so it is
# printed, not asserted; together they must carry >= 80% of the non-mmap
# contentions (the source names no other lock reclaim takes for every page).
# 80, not 90: the counts follow the emulation's scheduling of vCPUs, which
# follows the host's load (894 per mille with a second guest beside it on
# 6.1; 930-990 on a quiet host); lru leading each other class is asserted
# above whatever the load.
pc=$(sum small ptl count)
all=$((sc + pc + $(sum small vma count) + $(sum small zone count) + $(sum small memcg count) + $(sum small other count)))
echo "small: lru $sc vs ptl $pc contentions; wait ns lru $(sum small lru wait_ns) vs ptl $(sum small ptl wait_ns) (emulated)"
fl_check_ge "small: lru + ptl share of non-mmap contentions (per mille)" $((all ? (sc + pc) * 1000 / all : 0)) 800
# the lru waits were named by reclaim's own functions (callers of every class
# are kept): the caller tables match this kernel
callers=$(cat /out/small*.raw | sed -n 's/^locks\.caller\.[0-9]*=\([^ ]*\) .*/\1/p' | sort -u)
echo "small: callers: $(echo $callers)"
if echo "$callers" | grep -qE '^(shrink_lruvec|shrink_node|shrink_active_list|shrink_inactive_list|lru_note_cost|move_folios_to_lru)$'
then fl_pass "small: reclaim's lru_lock takers among the callers"
else fl_fail "small: expected shrink_lruvec / lru_note_cost / shrink_node ... among the callers, got '$(echo $callers)'"; fi
fl_done
