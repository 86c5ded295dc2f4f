# The counters that only move under concurrency (issue 18, section 1):
#   - mmap_lock contention: tests/helpers/churn (faulting threads beside
#     threads that mmap/munmap in a loop) under `faultline record --locks`
#     on the bpf backend: mmap_lock_contended >= 1 and = the lock classes'
#     mmap_r + mmap_w counts (the same contention_begin events, kept by two
#     different tables); mmap_lock write acquisitions >= 2 x the writers'
#     own iteration count (each iteration is one mmap and one munmap, each
#     takes the write lock; churn prints the count), write holds >= the
#     count (munmap downgrades to read before releasing); on 6.1, where every fault takes
#     mmap_lock (trylock first), failed trylocks >= 1.  The same churn on
#     -b kmod: the module's mmap_lock_contended >= 1.
#   - events missed: the module loaded with maxactive=1 (one kretprobe /
#     fprobe return instance per probe) under pft -t 16 on 2 CPUs: missed
#     >= 1, and the snapshot's events_missed = the growth, over the
#     recording, of the nmissed the kernel keeps in each probe (summed from
#     the module's hooks file, which prints the kernel's kretprobe / fprobe
#     nmissed fields; the probes stay registered after the recording) plus
#     the module's own drops, which the summary tells apart (a fault whose
#     last return was lost, a slot taken by a colliding pid: CI had one
#     such, 10664 for a growth of 10663).
# Bounds, not exact counts: how often threads collide depends on the
# scheduling (TCG), so only what must happen at least once is asserted.
# kernels: 6.12 6.1
# boot: shared
# smp: 2
# timeout: 600
. /fl/lib.sh
export PATH=/fl:$PATH
[ -x /fl/churn ] || fl_skip "tests/helpers/churn not built"

echo "=== churn under record --locks (bpf)"
faultline record -b bpf --locks -o /tmp/churn.snap -- churn -t 2 -w 2 -p 256 -r 20 >/out/churn.txt 2>&1
fl_check_eq "record --locks -- churn exit status" "$?" 0
cat /out/churn.txt
faultline report --raw /tmp/churn.snap >/out/churn.raw 2>&1
r=/out/churn.raw
grep -E '^(mmap_lock|lock\.mmap|lockless)' $r
cont=$(fl_raw $r mmap_lock_contended)
fl_check_ge "bpf: mmap_lock_contended under churn" "$cont" 1
lr=$(fl_raw $r lock.mmap_r.count) lw=$(fl_raw $r lock.mmap_w.count)
if fl_isnum "$lr" && fl_isnum "$lw"; then
	fl_check_eq "bpf: mmap_lock_contended = lock classes mmap_r + mmap_w ($lr + $lw)" "$cont" $((lr + lw))
else
	fl_fail "bpf: lock.mmap_r.count / lock.mmap_w.count: got '$lr' / '$lw'"
fi
fl_check_ge "bpf: mmap_lock contention histogram count" "$(fl_raw $r mmap_lock_contended.count)" 1
writer_checks() {	# LABEL RAW CHURN-OUTPUT
	iters=$(sed -n 's/.*writer_iters=\([0-9]*\).*/\1/p' $3 | head -1)
	fl_check_ge "$1: writer iterations printed by churn" "$iters" 1
	fl_check_ge "$1: mmap_lock write acquisitions >= 2 x writer iterations ($iters)" \
		"$(fl_raw $2 mmap_lock_wait_write.count)" $((2 * ${iters:-0}))
	# munmap downgrades its write lock to read before it releases it: only
	# the mmap half of an iteration ends a write hold
	fl_check_ge "$1: mmap_lock write holds >= writer iterations ($iters)" \
		"$(fl_raw $2 mmap_lock_hold_write.count)" "${iters:-0}"
}
if [ "$FL_SERIES" = 6.1 ]; then
	# the mmap_lock tracepoints are off by default there (their cost): --mmap-lock
	faultline record -b bpf --mmap-lock -o /tmp/churn-ml.snap -- churn -t 2 -w 2 -p 256 -r 20 \
		>/out/churn-ml.txt 2>&1
	fl_check_eq "record --mmap-lock -- churn exit status" "$?" 0
	faultline report --raw /tmp/churn-ml.snap >/out/churn-ml.raw 2>&1
	writer_checks "bpf (6.1, --mmap-lock)" /out/churn-ml.raw /out/churn-ml.txt
	# every fault takes mmap_lock there, trylock first (lock_mm_and_find_vma)
	fl_check_ge "bpf (6.1, --mmap-lock): failed mmap_lock trylocks under churn" \
		"$(fl_raw /out/churn-ml.raw mmap_lock_trylock_failed)" 1
else
	writer_checks bpf $r /out/churn.txt
fi

if [ ! -f /fl/faultline.ko ]; then
	fl_skip_check "kmod: contention and missed events" "no /fl/faultline.ko in this box"
	fl_done
fi

echo "=== churn under -b kmod"
fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
faultline record -b kmod -o /tmp/churn-k.snap -- churn -t 2 -w 2 -p 256 -r 20 >/out/churn-k.txt 2>&1
fl_check_eq "record -b kmod -- churn exit status" "$?" 0
faultline report --raw /tmp/churn-k.snap >/out/churn-k.raw 2>&1
grep -E '^(mmap_lock|events_missed)' /out/churn-k.raw
fl_check_ge "kmod: mmap_lock_contended under churn" "$(fl_raw /out/churn-k.raw mmap_lock_contended)" 1
rmmod faultline

echo "=== maxactive=1 under pft -t 16"
nmissed() {	# sum of the nmissed column of the module's hooks file
	awk '$4 ~ /^[0-9]+$/ { s += $4 } END { print s + 0 }' /sys/kernel/debug/faultline/hooks
}
fl_check_cmd "insmod faultline.ko maxactive=1" insmod /fl/faultline.ko maxactive=1
n0=$(nmissed)
faultline record -b kmod -o /tmp/ma1.snap -- pft -m 64m -t 16 >/out/ma1.txt 2>&1
fl_check_eq "record -b kmod (maxactive=1) exit status" "$?" 0
# the probes stay registered after the recording: their nmissed is still there
cat /sys/kernel/debug/faultline/hooks >/out/hooks-ma1.txt
cat /out/hooks-ma1.txt
n1=$(nmissed)
# events_missed also counts the module's own drops (a fault whose last
# return was lost -- a retried fault's second handle_mm_fault call out of
# kretprobe instances -- or a slot taken by a colliding pid): the summary,
# read now that the recording has disarmed the hooks, splits the two
# ("events_missed N", "(events_missed includes K kretprobe misses)")
cat /sys/kernel/debug/faultline/summary >/out/summary-ma1.txt
sm=$(awk '$1 == "events_missed" { print $2; exit }' /out/summary-ma1.txt)
sk=$(sed -n 's/.*(events_missed includes \([0-9]*\) kretprobe misses).*/\1/p' /out/summary-ma1.txt)
own=$((sm - sk))
faultline report --raw /tmp/ma1.snap >/out/ma1.raw 2>&1
missed=$(fl_raw /out/ma1.raw events_missed)
echo "events_missed $missed; kernel nmissed (hooks file) before $n0, after $n1; the module's own drops $own"
fl_check_ge "kmod maxactive=1: events_missed under pft -t 16" "$missed" 1
fl_check_ge "the module's own drops (summary: events_missed $sm - kretprobe misses $sk)" "$own" 0
fl_check_eq "kmod maxactive=1: events_missed = growth of the kernel's nmissed ($n0 -> $n1) + the module's own drops ($own)" \
	"$missed" $((n1 - n0 + own))
rmmod faultline
fl_done
