# Writer-caused per-VMA lock aborts (issue 18): `churn -v POP` (tests/helpers/
# churn.c) has T reader threads read-fault fresh pages of one VMA while W
# writer threads mprotect that whole VMA back and forth (each call a window
# in which mmap_lock is held for write and the VMA is write-locked).  A read
# fault in a window finds the VMA write-locked: lock_vma_under_rcu fails (an
# abort), the fault sleeps in mmap_read_lock until the writer is done.
# References the collector does not compute:
#   lower bound: the readers' own voluntary context switches during their
#     fault loops (getrusage RUSAGE_THREAD, the kernel's count).  A lockless
#     zero-page read fault takes no sleeping lock, so every such sleep is a
#     fault that went to mmap_lock while a writer held it, i.e. an abort (or
#     a retry): lockless_aborted + lockless_retried >= reader_sleeps, and
#     reader_sleeps >= 1 (the helper did make readers meet a writer: a run
#     with no collision fails here rather than passing on 0 >= 0).
#   upper bound: the writers' own count of windows.  A reader aborts at
#     most once per window (after an abort it holds mmap_lock for read
#     until its fault ends, the next window cannot start before), so the
#     aborts and retries in the VMA are <= windows x T; the rest of the
#     process's (start-up) ones are measured by the same churn with no
#     writer (-w 0: 0 windows), which must itself stay at most that baseline.
# How many collisions there are follows the scheduling (seen 13-15 with
# 2 x 10000 reads, 2 vCPUs), so only bounds are asserted, never a count.
# Why they gave up (classify.h fl_ev_ll_why): every reader sleep is a fault
# behind mprotect(), which write-locked the very VMA it faults in, so
# lockless_abort_write_locked >= reader_sleeps; each abort gets exactly one
# reason.  And `churn -v POP -a`: the readers write-fault fresh one-page
# VMAs of their own while the writer mprotects the shared one; a reader
# sleep there is vmf_anon_prepare's failed trylock (churn.c), so
# reader_sleeps <= lockless_retry_anon_vma <= the fresh VMAs (PAGES x T),
# and no retry of that run is anything else.
# For -b bpf and -b kmod (lookup outcome inferred, the default), on 6.12
# and 7.3 (6.1 has no per-VMA locks: lockless_outcomes.sh checks its
# "absent").  The BPF tier: fentry on 6.12; on 7.3, which preempts kernel
# code (lazy), with 3 threads on 2 vCPUs, the kprobe tier: there an fexit
# preempted mid-run makes the recursion guard skip the next task's, each
# skip counted (bpf_lost.*; 206 aborts + 1 retry for 210 reader sleeps,
# 2026-12-03), while every program of the kprobe tier's fault path runs
# preemption-disabled (architecture.rst, "Preemptible kernels"): the same
# assertions hold there, and it loses nothing (checked below).
# kernels: 6.12 7.3
# smp: 2
# timeout: 900
. /fl/lib.sh
export PATH=/fl:$PATH
[ -x /fl/churn ] || fl_skip "tests/helpers/churn not built"
echo 0 >/proc/sys/kernel/randomize_va_space
T=2 W=1 P=${1:-20000} POP=${2:-4096} AP=${3:-2000}
raw() { sed -n "s/^$2=//p" "$1" | head -1; }
cf() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" "$1" | head -1; }

run() {	# LABEL RECORD-OPTIONS WRITERS
	faultline record -q $2 -o /tmp/$1.snap -- churn -t $T -w $3 -p $P -v $POP >/out/$1.txt 2>&1
	fl_check_eq "$1: record -- churn -t $T -w $3 -p $P -v $POP exit status" "$?" 0
	cat /out/$1.txt
	faultline report --raw /tmp/$1.snap >/out/$1.raw 2>&1
	grep -E '^(faults_user|lockless_(attempted|succeeded|aborted|retried))=' /out/$1.raw
}

check() {	# LABEL RECORD-OPTIONS
	run $1-base "$2" 0
	run $1 "$2" $W
	ab=$(raw /out/$1.raw lockless_aborted) re=$(raw /out/$1.raw lockless_retried)
	bab=$(raw /out/$1-base.raw lockless_aborted) bre=$(raw /out/$1-base.raw lockless_retried)
	sl=$(cf /out/$1.txt reader_sleeps) win=$(cf /out/$1.txt windows)
	if ! fl_isnum "$ab" || ! fl_isnum "$re" || ! fl_isnum "$bab" || ! fl_isnum "$bre"; then
		fl_fail "$1: lockless_aborted / retried: got '$ab' / '$re' (base '$bab' / '$bre')"
		return
	fi
	fl_check_eq "$1 -w 0: no windows (churn's count)" "$(cf /out/$1-base.txt windows)" 0
	fl_check_ge "$1: reader sleeps during the fault loops (collisions provoked)" "$sl" 1
	fl_check_ge "$1: lockless_aborted + retried ($ab + $re) >= reader sleeps" $((ab + re)) "$sl"
	fl_check_le "$1: lockless_aborted + retried ($ab + $re) <= base ($bab + $bre) + windows x readers ($win x $T)" \
		$((ab + re)) $((bab + bre + ${win:-0} * T))
	case "$2" in *--blame*) blame_fb "$1" "$((ab + re))" "$((bab + bre))" ;; esac
	why_abort "$1" "$ab" "$sl"
	why_anon "$1" "$2"
}

# the reasons of the -v run's aborts
why_abort() {	# LABEL ABORTS READER-SLEEPS
	wl=$(raw /out/$1.raw lockless_abort_write_locked) nv=$(raw /out/$1.raw lockless_abort_no_vma)
	ot=$(raw /out/$1.raw lockless_abort_other) ur=$(raw /out/$1.raw lockless_unread)
	grep -E '^lockless_(abort_|unread|retry_)' /out/$1.raw
	if ! fl_isnum "$wl" || ! fl_isnum "$nv" || ! fl_isnum "$ot" || ! fl_isnum "$ur"; then
		fl_fail "$1: abort reasons: got '$wl' '$nv' '$ot' '$ur'"
		return
	fi
	fl_check_ge "$1: aborts behind a write-locked VMA ($wl) >= reader sleeps" "$wl" "$3"
	# unread is shared with retries: aborts read <= aborted <= aborts read + unread
	fl_check_le "$1: abort reasons read (write-locked $wl + no VMA $nv + other $ot) <= aborted" \
		$((wl + nv + ot)) "$2"
	fl_check_ge "$1: abort reasons read + unread ($ur) >= aborted" $((wl + nv + ot + ur)) "$2"
}

# churn -v -a: retries for want of an anon_vma
why_anon() {	# LABEL RECORD-OPTIONS
	faultline record -q $2 -o /tmp/$1-anon.snap -- churn -t $T -w $W -p $AP -v 64 -a \
		>/out/$1-anon.txt 2>&1
	fl_check_eq "$1 -a: record -- churn -t $T -w $W -p $AP -v 64 -a exit status" "$?" 0
	cat /out/$1-anon.txt
	faultline report --raw /tmp/$1-anon.snap >/out/$1-anon.raw 2>&1
	grep -E '^lockless_(aborted|retried|abort_|unread|retry_)' /out/$1-anon.raw
	an=$(raw /out/$1-anon.raw lockless_retry_anon_vma) ro=$(raw /out/$1-anon.raw lockless_retry_other)
	re=$(raw /out/$1-anon.raw lockless_retried) sl=$(cf /out/$1-anon.txt reader_sleeps)
	if ! fl_isnum "$an" || ! fl_isnum "$ro" || ! fl_isnum "$re"; then
		fl_fail "$1 -a: retry reasons: got '$an' '$ro' (retried '$re')"
		return
	fi
	fl_check_ge "$1 -a: reader sleeps (collisions provoked)" "$sl" 1
	fl_check_ge "$1 -a: retries for no anon_vma ($an) >= reader sleeps" "$an" "$sl"
	fl_check_le "$1 -a: retries for no anon_vma ($an) <= fresh VMAs ($AP x $T)" "$an" $((AP * T))
	ur=$(raw /out/$1-anon.raw lockless_unread)
	fl_check_le "$1 -a: retry reasons read ($an + $ro) <= retried" $((an + ro)) "$re"
	fl_check_ge "$1 -a: retry reasons read + unread (${ur:-x}) >= retried" $((an + ro + ${ur:-0})) "$re"
}

# --blame: lockless-path fallbacks charged to churn's mprotect() writer:
# >= 1, <= the aborts + retries the main collector counted (the kernel's
# vma_lock_abort/retry in /proc/vmstat need CONFIG_PER_VMA_LOCK_STATS, off
# in Debian 6.12); the run with no writer thread: 0 charged to anyone.
blame_fb() {	# LABEL ABORTS+RETRIES BASE-ABORTS+RETRIES
	fb=$(raw /out/$1.raw blame.fallbacks) bfb=$(raw /out/$1-base.raw blame.fallbacks)
	mp=0 i=0
	while [ "$i" -lt "$(raw /out/$1.raw blame.rows)" ]; do
		[ "$(raw /out/$1.raw blame.row.$i.what)" = "mprotect()" ] &&
			mp=$((mp + $(raw /out/$1.raw blame.row.$i.fallbacks)))
		i=$((i + 1))
	done
	echo "$1: blame fallbacks $fb (mprotect() rows $mp), base $bfb"
	grep '^blame\.\(fallbacks\|row\.[0-9]*\.\(what\|comm\|fallbacks\)\)=' /out/$1.raw
	fl_check_ge "$1 --blame: fallbacks charged to the writer's mprotect()" "$mp" 1
	fl_check_le "$1 --blame: fallbacks charged ($fb) <= aborted + retried" "${fb:-x}" "$2"
	fl_check_eq "$1 --blame, no writer: fallbacks charged" "${bfb:-x}" 0
}

case $FL_SERIES in 7.3) TIER=kprobe ;; *) TIER=fentry ;; esac
check bpf "-b bpf --tier $TIER --blame"
if [ $TIER = kprobe ]; then
	for l in fault_starts fault_ends lockless_outcomes; do
		fl_check_eq "bpf (kprobe tier, preemptible kernel): bpf_lost.$l" \
			"$(raw /out/bpf.raw bpf_lost.$l)" 0
	done
fi
if [ -f /fl/faultline.ko ]; then
	fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
	check kmod "-b kmod"
	rmmod faultline
else
	fl_skip_check "kmod writer-caused aborts" "no /fl/faultline.ko in this box"
fi
fl_done
