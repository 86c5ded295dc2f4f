# On the seed's B (v5.12.9 + the SPF series with
# CONFIG_SPECULATIVE_PAGE_FAULT_STATS): faultline's SPF figures beside the
# kernel's own spf counters over the same window, for every BPF tier and
# the module.  Read from the series as applied (arch/x86/mm/fault.c, patch
# 12 and 27; Documentation/testbox.rst, "The series' own counters"):
#   spf_attempt counts every try, spf_abort every give-up; five aborts come
#   before do_handle_mm_fault (PRE: SPF_ABORT_ODD, _UNMAPPED,
#   _NO_SPECULATE, _VMA_COPY, _ACCESS_ERROR), which faultline's hooks never
#   see as an SPF attempt.  So, over one window:
#     faultline attempted == spf_attempt - PRE
#     faultline aborted   == spf_abort   - PRE
#   The window is wider than the recording (vmstat is read around the
#   whole `faultline record` command), but only a process with a second
#   thread tries SPF at all (patch 25: mm_users > 1, user faults only), and
#   the workload is the only such process in the box: no tolerance.
# Then each provoke mode (tests/helpers/provoke.c, with a second thread
# alive: PROVOKE_SECOND_THREAD) twice, with N and 2N: the differences are
# the mode's own, and each moves the counter the series says:
#   mode        kernel counter (+N)      faultline attempted  aborted  unhandled
#   unmapped    SPF_ABORT_UNMAPPED       0                    0        N
#   protnone    SPF_ABORT_ACCESS_ERROR   0                    0        N
#   vdso-retry  SPF_ABORT_NO_SPECULATE   0                    0        0
#   stack-grow  SPF_ABORT_UNMAPPED       0                    0        0
#   fresh-vma   SPF_ABORT_ANON_VMA       N                    N        0
#               + SPF_ABORT_PMD + _PUD
#   uffd-anon   SPF_ABORT_USERFAULTFD    N                    N        0
# (fresh-vma: do_anonymous_page under SPF finds no anon_vma and returns
# VM_FAULT_RETRY, mm/memory.c; or, where the new VMA is the first in its
# 2 MiB and has no page table yet, it gives up earlier at the PMD: 1 or 2
# of 40 in a run, as the addresses fall; the first in its 1 GiB, at the
# PUD.  uffd-anon: anon_vma and page table in place, do_anonymous_page
# gives up at userfaultfd_missing, and the fault is resolved under
# mmap_lock.  The others give up before the hook.)
# Booted by tests/check-seed on B only (a build-kernel DIR, -k).
. /fl/lib.sh
[ "$(id -u)" = 0 ] || fl_skip "needs root"
grep -q '^spf_attempt ' /proc/vmstat ||
	{ fl_fail "no spf_attempt in /proc/vmstat: not an SPF kernel (B)"; fl_done; }
grep -q '^SPF_ABORT_UNMAPPED ' /proc/vmstat ||
	{ fl_fail "no SPF_ABORT_* in /proc/vmstat: B without CONFIG_SPECULATIVE_PAGE_FAULT_STATS"; fl_done; }
PRE="SPF_ABORT_ODD SPF_ABORT_UNMAPPED SPF_ABORT_NO_SPECULATE SPF_ABORT_VMA_COPY SPF_ABORT_ACCESS_ERROR"

vm() { grep -i '^spf' /proc/vmstat >"$1"; }
# d A B KEY...: the sum of KEYs' deltas from vmstat file A to B
d() {
	local a=$1 b=$2
	shift 2
	awk -v keys="$*" 'BEGIN { n = split(keys, k, " "); for (i = 1; i <= n; i++) w[k[i]] = 1 }
		FNR == NR { v0[$1] = $2; next } ($1 in w) { s += $2 - v0[$1] } END { print s + 0 }' "$a" "$b"
}

# T: fentry kprobe tracepoint kmod
rec() {	# rec T OUT CMD...: vmstat around one recording; OUT.{0,1,snap,raw,txt}
	local t=$1 o=$2 b rc
	shift 2
	if [ "$t" = kmod ]; then b="-b kmod"; else b="--tier $t"; fi
	vm "$o.0"
	faultline record $b -o "$o.snap" -- "$@" >"$o.txt" 2>&1
	rc=$?
	vm "$o.1"
	faultline report --raw "$o.snap" >"$o.raw" 2>&1
	return $rc
}
# deltas O: the spf counters that moved over recording O
deltas() { paste $1.0 $1.1 | awk '$4 != $2 { printf "  %s +%d\n", $1, $4 - $2 }'; }

# identities LABEL K F [SUFFIX]: the header's two identities, K COUNTER...
# the kernel's figure and F NAME faultline's, over one recording (kw, fw)
# or per N (kd, fd); o names the recording
identities() {
	fl_check_eq "$1: attempted == spf_attempt - aborts before the hook$4" \
		"$($3 lockless_attempted)" $(( $($2 spf_attempt) - $($2 $PRE) ))
	fl_check_eq "$1: aborted == spf_abort - aborts before the hook$4" \
		"$($3 lockless_aborted)" $(( $($2 spf_abort) - $($2 $PRE) ))
}
kw() { d $o.0 $o.1 "$@"; }
fw() { fl_raw $o.raw "$1"; }

TIERS="fentry kprobe tracepoint"
if [ -f /fl/faultline.ko ]; then
	fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko && TIERS="$TIERS kmod"
else
	fl_fail "faultline.ko was not built for $FL_KREL"
fi

echo "== pft -m 64m -t 2 (16384 pages, one fault each)"
for t in $TIERS; do
	o=/out/pft-$t
	rec $t $o pft -m 64m -t 2
	fl_check_eq "$t: record exit status" "$?" 0
	kind=$(fl_raw $o.raw lockless_kind)
	fl_check_eq "$t: the lockless path is SPF" "$kind" spf
	att=$(d $o.0 $o.1 spf_attempt) ab=$(d $o.0 $o.1 spf_abort) pre=$(d $o.0 $o.1 $PRE)
	echo "$t: kernel spf_attempt $att, spf_abort $ab (before the hook $pre);" \
		"faultline attempted $(fl_raw $o.raw lockless_attempted), succeeded $(fl_raw $o.raw lockless_succeeded)," \
		"aborted $(fl_raw $o.raw lockless_aborted), not attempted $(fl_raw $o.raw lockless_not_attempted)"
	deltas $o
	fl_check_ge "$t: the kernel tried SPF for most of the 16384 faults" "$att" 16000
	if [ $t = tracepoint ]; then
		# no hook on the SPF entry point: unavailable, with the reason
		for f in attempted succeeded aborted; do
			case $(fl_raw $o.raw lockless_$f) in
			"unavailable ("*) fl_pass "$t: lockless $f unavailable, with a reason" ;;
			*) fl_fail "$t: lockless $f: '$(fl_raw $o.raw lockless_$f)', not unavailable" ;;
			esac
		done
		continue
	fi
	identities $t kw fw
	fl_check_eq "$t: succeeded == spf_attempt - spf_abort" \
		"$(fl_raw $o.raw lockless_succeeded)" $((att - ab))
done

echo "== provoked aborts (N and 2N, with a second thread alive)"
export PROVOKE_SECOND_THREAD=1
N=40
# pair MODE T: provoke MODE N, then 2N, each under its own recording (o set)
pair() {
	local r1 r2
	o=/out/$1-$2
	rec $2 $o.1 provoke $1 $N
	r1=$?
	rec $2 $o.2 provoke $1 $((2 * N))
	r2=$?
	fl_check_eq "$1/$2: both recordings exit 0" "$r1 $r2" "0 0"
}
# the per-N difference: kernel counters (2N run) - (N run), each over its
# own window; faultline's raw figures likewise
kd() { echo $(( $(d $o.2.0 $o.2.1 "$@") - $(d $o.1.0 $o.1.1 "$@") )); }
fd() { echo $(( $(fl_raw $o.2.raw "$1") - $(fl_raw $o.1.raw "$1") )); }
for m in unmapped:SPF_ABORT_UNMAPPED:0:N protnone:SPF_ABORT_ACCESS_ERROR:0:N \
	 vdso-retry:SPF_ABORT_NO_SPECULATE:0:0 stack-grow:SPF_ABORT_UNMAPPED:0:0 \
	 fresh-vma:SPF_ABORT_ANON_VMA+SPF_ABORT_PMD+SPF_ABORT_PUD:N:0 \
	 uffd-anon:SPF_ABORT_USERFAULTFD:N:0; do
	IFS=: read -r mode ctr wll wun <<EOF
$m
EOF
	for t in $TIERS; do
		pair $mode $t
		want() { case $1 in N) echo $N ;; *) echo "$1" ;; esac; }
		fl_check_eq "$mode/$t: $ctr moved by N" "$(kd $(echo "$ctr" | tr + ' '))" $N
		# the tracepoint tier has no handle_mm_fault or SPF entry hook:
		# those figures are unavailable there (above)
		[ $t = tracepoint ] && continue
		fl_check_eq "$mode/$t: unhandled faults, per N" "$(fd faults_unhandled)" "$(want $wun)"
		fl_check_eq "$mode/$t: faultline attempted, per N" "$(fd lockless_attempted)" "$(want $wll)"
		# aborts inside the hook that the mode does not make: a fault of
		# the run's own (its last page, a signal frame) meeting a 2 MiB
		# without a page table in one run and not the other, as ASLR
		# places them (SPF_ABORT_PMD); the kernel's own count, which
		# faultline must see too
		mine=0
		for c in $(echo "$ctr" | tr + ' '); do
			case " $PRE " in *" $c "*) ;; *) mine=$((mine + $(kd $c))) ;; esac
		done
		amb=$(( $(kd spf_abort) - $(kd $PRE) - mine ))
		fl_check_eq "$mode/$t: faultline aborted, per N (+ $amb the mode does not make)" \
			"$(fd lockless_aborted)" $(( $(want $wll) + amb ))
		identities $mode/$t kd fd ", per N"
	done
done

# Races (provoke race-writer, vma-race, ptl-holder, migrate-race): aborts
# that only a concurrent thread causes, how many being the vCPUs'
# interleaving (some recordings none), so the check is that they happen
# over the four recordings, and that faultline's figures keep the
# identities above in their presence, exactly, in each.
#   race-writer: an mmap_lock writer; the aborts before the hook (the
#     sequence count odd at the start, or moved while the VMA was copied)
#     and inside it (moved before the PTE lock): 0 to 6 a recording of 2000
#     faults under TCG.
#   vma-race: an mmap_lock writer on the other CPU, waking every ~20 us;
#     a wakeup that stops the fault between its reading of the sequence
#     count and its check after the VMA copy lets the writer move it
#     (SPF_ABORT_VMA_COPY): 3 to 21 a recording of 20000 read faults.
#   ptl-holder: mincore() walks holding the faults' page table lock, under
#     mmap_lock for read: the PTE lock's trylock fails inside the hook.
#   migrate-race: reads of pages that move_pages() keeps moving between the
#     box's two nodes (check-seed boots it with two): a read that meets a
#     migration entry gives up in do_swap_page (SPF_ABORT_NON_SWAP_ENTRY),
#     one that meets the PTE cleared for the unmap, in do_anonymous_page at
#     the PTE lock the mover holds (_PTE_MAP_LOCK_PTL).
# raced MODE N COUNTER...: four recordings of provoke MODE N
raced() {
	local mode=$1 n=$2 t sum=0
	shift 2
	echo "== $mode racing the faults (provoke $mode $n)"
	for t in $TIERS; do
		o=/out/$mode-$t
		rec $t $o provoke $mode $n
		fl_check_eq "$mode/$t: record exit status" "$?" 0
		deltas $o
		sum=$((sum + $(d $o.0 $o.1 "$@")))
		[ $t = tracepoint ] || identities $mode/$t kw fw
	done
	fl_check_ge "$mode: the racing aborts ($*) over the $(echo $TIERS | wc -w) recordings" "$sum" 1
}
raced race-writer 2000 SPF_ABORT_ODD SPF_ABORT_VMA_COPY SPF_ABORT_PTE_MAP_LOCK_SEQ1 \
	SPF_ABORT_PTE_MAP_LOCK_SEQ2
raced vma-race 20000 SPF_ABORT_VMA_COPY
raced ptl-holder 2000 SPF_ABORT_PTE_MAP_LOCK_PTL
fl_check_eq "NUMA nodes for migrate-race (check-seed's --numa)" \
	"$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)" 2
raced migrate-race 20 SPF_ABORT_NON_SWAP_ENTRY
# Swapped-out pages read back (provoke swap-in, swap-nopage): swap on a
# loop device over a file in the box's tmpfs (no disk needed).  Every read
# fault on a swap PTE enters do_swap_page speculatively (SPF_ATTEMPT_SWAP).
#   mode         SPF_ATTEMPT_SWAP  SPF_ABORT_SWAP_NOPAGE  attempted  aborted
#   swap-in      N                 (shown)                2N         (kernel's)
#   swap-nopage  2N                N                      3N         >= N
# swap-in: the pages are still in the swap cache (the loop worker's writes
# end after reclaim looked), so SPF maps them; one that left the cache
# first would give up (NOPAGE): the loop's timing, shown, not asserted.
# swap-nopage: read back once, paged out again once the writes ended and
# every CPU's pagevecs are drained (a clean swap-cache page with no extra
# reference is freed at once; provoke.c), read again: every read finds no
# page, with read-ahead off (page-cluster 0).  attempted counts the N
# writes that populated the pages too.
echo "== swapped-out pages read back (provoke swap-in, swap-nopage; N and 2N)"
if dd if=/dev/zero of=/tmp/swap.img bs=1M count=16 2>/dev/null &&
	losetup /dev/loop0 /tmp/swap.img && mkswap /dev/loop0 >/dev/null &&
	swapon /dev/loop0; then
	fl_pass "swap on /dev/loop0 (16 MiB over tmpfs)"
	pc=$(cat /proc/sys/vm/page-cluster)
	echo 0 >/proc/sys/vm/page-cluster
	for m in swap-in:1:-:2 swap-nopage:2:1:3; do
		IFS=: read -r mode sw np at <<EOF
$m
EOF
		for t in $TIERS; do
			pair $mode $t
			echo "$mode/$t: per N: SPF_ATTEMPT_SWAP +$(kd SPF_ATTEMPT_SWAP)," \
				"SPF_ABORT_SWAP_NOPAGE +$(kd SPF_ABORT_SWAP_NOPAGE), spf_abort +$(kd spf_abort);" \
				"faultline attempted +$(fd lockless_attempted), aborted +$(fd lockless_aborted)"
			fl_check_eq "$mode/$t: SPF_ATTEMPT_SWAP moved by ${sw}N" "$(kd SPF_ATTEMPT_SWAP)" $((sw * N))
			[ "$np" = - ] ||
				fl_check_eq "$mode/$t: SPF_ABORT_SWAP_NOPAGE moved by ${np}N" \
					"$(kd SPF_ABORT_SWAP_NOPAGE)" $((np * N))
			[ $t = tracepoint ] && continue
			fl_check_eq "$mode/$t: faultline attempted, per N" "$(fd lockless_attempted)" $((at * N))
			[ "$np" = - ] ||
				fl_check_ge "$mode/$t: faultline aborted, per N" "$(fd lockless_aborted)" $((np * N))
			identities $mode/$t kd fd ", per N"
		done
	done
	echo "$pc" >/proc/sys/vm/page-cluster
	swapoff /dev/loop0
	losetup -d /dev/loop0
else
	fl_fail "swap on a loop device over tmpfs: set-up failed"
fi
[ -d /sys/module/faultline ] && fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
