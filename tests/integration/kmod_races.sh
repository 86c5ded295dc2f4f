# faultline.ko's concurrency rules, exercised (issue 15):
#  1. nothing is hooked before a recording: after insmod every kretprobe of
#     the module is registered disabled (the lockless kind is set before any
#     handler can run; commit 4c64ef9), and enable arms them;
#  2. a pid collision on a per-task slot: two pft workers whose thread ids
#     are equal modulo FL_SLOT_NR (16384), placed with ns_last_pid, fault at
#     the same time; the slot passes between them only through its owner,
#     so every fault is counted or counted missed, no latency is torn, and
#     afterwards a third worker on the same slot is counted in full (a slot
#     left tagged by an exited owner would make it miss everything): as
#     many faults as the placing shell and its children made;
#  3. `tgid` sets while the old filter's process forks: the new filter's
#     periods count nothing of the old one's children, the old filter's
#     periods count them (fork following works under the filter lock);
#     each new-filter period starts 50 ms after the set, so that a probe that
#     tested the old filter just before it has finished counting.  The
#     forker sits at the top of the pid space and its children at the
#     bottom, so every fork during a set falls in the race's window.
# Both races were shown to fail this scenario on the module before the fix
# (Documentation/testing.rst, "Races shown to fail before their fix"); it is
# a stress, not a proof.  preempt=full (6.1+, PREEMPT_DYNAMIC; 5.10 passes
# it to init unused) lets a fork run in the middle of the old set's clear on
# the same vCPU: under single-threaded TCG the two vCPUs interleave only at
# coarse slices, so without it the old code failed 1 set in 100.
# kernels: 6.12 6.1 5.10 7.3
# smp: 2
# timeout: 900
# append: preempt=full
. /fl/lib.sh
. /fl/kmod.inc
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
[ -x /fl/pft ] || fl_skip "pft not built"
[ -w /proc/sys/kernel/ns_last_pid ] || fl_skip "no ns_last_pid (CONFIG_CHECKPOINT_RESTORE off)"
PAGES=65536	# pft -m 256m

fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
# 1. registered, disabled
kmod_kprobes >/out/kprobes-idle.txt
cat /out/kprobes-idle.txt
n=$(grep -cE ' (handle_mm_fault|do_handle_mm_fault|lock_vma_under_rcu)\+' /out/kprobes-idle.txt)
fl_check_ge "kretprobes registered at insmod" "$n" 1
fl_check_eq "of them not disabled before enable" \
	"$(grep -E ' (handle_mm_fault|do_handle_mm_fault|lock_vma_under_rcu)\+' /out/kprobes-idle.txt |
	   grep -vc DISABLED)" 0
fl_check_cmd "hooks: nothing armed after insmod" grep -q '^armed: no' "$FL_D/hooks"

# 2. pid collision on a slot.  pid_max raised first: at the default 32768
# A's slot has one other id, and CI (6.1) saw a kworker take it for good
# (B placed nowhere); at PID_MAX_LIMIT it has 255 others.
PMAX=4194304	# PID_MAX_LIMIT on 64-bit: the filter bitmap's size
pmax0=$(cat /proc/sys/kernel/pid_max)
fl_check_cmd "pid_max raised to $PMAX" sh -c "echo $PMAX >/proc/sys/kernel/pid_max"
last=$(cat /proc/sys/kernel/ns_last_pid)
X=$((last + 300))
[ $((X + 16384)) -lt "$(cat /proc/sys/kernel/pid_max)" ] || fl_skip "pid_max too small for a collision"
mkfifo /tmp/gate
cat >/tmp/w.sh <<'EOF'
# place OUT TID...: start pft -t 1 so that its worker thread gets the first
# free TID of the list (TID - 1 free too, for pft itself); a task the kernel
# creates meanwhile (a kworker) can take it: then retry at once (a worker
# with another id gives it away; waiting for pft to finish its 256m made 5
# such tries miss on a busy host).
# A task that took the TID and lives on holds it for good: CI saw all 20
# tries at A's TID miss, and C's at the same TID later, while B's placed.
# A TID (or TID - 1) in use is passed over for the next on the list.
place() {
	out=$1
	shift
	n=0
	while [ $n -lt 20 ]; do
		tid=
		for c in "$@"; do
			# pft takes TID - 1, its worker TID
			[ -e /proc/$c ] || [ -e /proc/$((c - 1)) ] || { tid=$c; break; }
		done
		[ -n "$tid" ] || break
		echo $((tid - 2)) >/proc/sys/kernel/ns_last_pid
		/fl/pft -m 256m -t 1 >/dev/null 2>>/out/place-stderr.txt &
		p=$!
		i=0
		while [ ! -d /proc/$p/task/$tid ] && [ -d /proc/$p ] && [ $i -lt 200000 ]; do
			for t in /proc/$p/task/*; do
				t=${t##*/}
				[ "$t" != "$p" ] && [ "$t" != "*" ] && [ "$t" != "$tid" ] && break 2
			done
			i=$((i + 1))
		done
		if [ -d /proc/$p/task/$tid ]; then echo "$p $tid" >$out; return; fi
		echo "placing $tid: pft $p has threads $(ls /proc/$p/task 2>/dev/null | tr '\n' ' '); its stderr so far: $(tail -2 /out/place-stderr.txt 2>/dev/null | tr '\n' ' ')"
		kill $p 2>/dev/null
		wait $p
		[ -e /proc/$tid ] && echo "placing $tid: held by $(cat /proc/$tid/comm 2>/dev/null)"
		n=$((n + 1))
	done
	echo "none none" >$out
}
# faults: this shell's faults and those of its waited-for children (minflt,
# cminflt, majflt, cmajflt of /proc/PID/stat), builtins only; the filter
# follows this shell's forks, so this is what phase C must count: a pft a
# failed placement started and killed faulted too (CI saw one add 2,700).
faults() {
	read -r st </proc/$$/stat
	set -- $st
	echo $((${10} + ${11} + ${12} + ${13}))
}
# same_slot TID: the other thread ids on TID's slot, up to pid_max
same_slot() {
	m=$(cat /proc/sys/kernel/pid_max)
	k=$(($1 % 16384))
	while [ $k -lt "$m" ]; do
		[ $k -ne "$1" ] && echo $k
		k=$((k + 16384))
	done
}
read x </tmp/gate
t0=$(cut -d' ' -f1 /proc/uptime)
place /tmp/a.txt $(seq $1 $(($1 + 15)))
a=$(cut -d' ' -f2 /tmp/a.txt)
[ "$a" = none ] && a=$1
place /tmp/b.txt $(same_slot $a)
wait
t1=$(cut -d' ' -f1 /proc/uptime)
cat /sys/kernel/debug/faultline/summary >/tmp/sum-collide.txt
echo "$t0 $t1" >/tmp/t-collide.txt
slot=$(same_slot $a)
faults >/tmp/f-alone0.txt
echo reset >/sys/kernel/debug/faultline/control
place /tmp/c.txt $a $slot
wait
faults >/tmp/f-alone1.txt
cat /sys/kernel/debug/faultline/summary >/tmp/sum-alone.txt
EOF
sh /tmp/w.sh $X &
w=$!
fl_check_cmd "tgid (the placing shell)" kmod_ctl "tgid $w"
fl_check_cmd "enable" kmod_ctl enable
kmod_kprobes >/out/kprobes-armed.txt
echo go >/tmp/gate
wait $w
fl_check_cmd "disable" kmod_ctl disable
cat /tmp/a.txt /tmp/b.txt /tmp/c.txt
a=$(cut -d' ' -f2 /tmp/a.txt)
b=$(cut -d' ' -f2 /tmp/b.txt)
c=$(cut -d' ' -f2 /tmp/c.txt)
fl_check_cmd "worker A placed at one of $X..$((X + 15)) (got $a)" \
	test "$a" -ge $X -a "$a" -le $((X + 15))
fl_check_cmd "worker B placed on A's slot, another id (got $b)" \
	test "$b" -ne "$a" -a $((b % 16384)) -eq $((a % 16384))
fl_check_cmd "worker C placed on A's slot (got $c)" \
	test $((c % 16384)) -eq $((a % 16384))
cp /tmp/sum-collide.txt /out/summary-collide.txt
cp /tmp/sum-alone.txt /out/summary-alone.txt
cat /out/summary-collide.txt
KMOD_SUM=/tmp/sum-collide.txt
fu=$(kmod_sum faults_user)
missed=$(kmod_sum events_missed)
fl_check_ge "collision: events missed (the slot changed hands)" "$missed" 1
fl_check_ge "collision: faults counted + missed >= pages of A and B" $((fu + missed)) $((2 * PAGES))
fl_check_ge "collision: faults counted (both workers recorded some)" "$fu" $((PAGES / 2))
ended=$(kmod_sum faults_timed)
fl_check_ge "collision: faults started (user + kernel) >= faults_ended" \
	$((fu + $(kmod_sum faults_kernel))) "$ended"
fl_check_eq "collision: fault_latency count = faults_ended" "$(kmod_hist fault_latency count)" "$ended"
# no torn start time: no fault took longer than the phase itself
max=$(kmod_hist fault_latency max)
read t0 t1 </tmp/t-collide.txt
span=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", (b - a + 1) * 1e9 }')
echo "collision: fault_latency max $max, phase $span ns"
if [ -n "$max" ] && [ "$max" -le "$span" ] 2>/dev/null; then
	fl_pass "collision: fault_latency max (${max} ns) within the phase"
else
	fl_fail "collision: fault_latency max ('$max' ns) exceeds the phase ($span ns)"
fi
KMOD_SUM=/tmp/sum-alone.txt
cat /out/summary-alone.txt
# the placing shell's own count (the summary's cat adds ~100 of its own)
read f0 </tmp/f-alone0.txt
read f1 </tmp/f-alone1.txt
fl_check_ge "alone on the slot afterwards: the shell's faults >= pages" $((f1 - f0)) $PAGES
fl_check_within "alone on the slot afterwards: faults_user vs the shell's faults" \
	"$(kmod_sum faults_user)" $((f1 - f0)) 1
fl_check_eq "alone on the slot afterwards: missed" "$(kmod_sum events_missed)" 0

# 3. filter sets while the old filter's process forks.  The race put a child
# into the new filter when its fork tested the parent's bit before
# bitmap_zero() cleared it and set the child's bit after.  A forker at a tgid
# near pid_max whose children's pids wrapped to the bottom of the bitmap
# makes that window the whole 512 KiB clear (the child's word is cleared
# first, the parent's last): any fork during a set races.  forkfault keeps
# 200 children alive, each faulting once every 5 ms for 1 s (some dozens of
# forks a second): a child let into the new filter is still faulting when
# its period is counted.  Sized on the pre-fix module (6.12, preempt=full;
# Documentation/testing.rst): with faults once a millisecond 9 of 150 sets
# leaked at ~4 guest seconds a set (the shell starved by the children);
# once every 5 ms, 14 of 260 leaked (5.4 %) at ~1.7 s a set.  45 sets on
# 6.12 and 32 on each other kernel: the race is in the module's own code,
# the same on all four, so a make check makes 141 sets of it and misses it
# with probability 0.946^141 < 4e-4.
echo $((PMAX - 40)) >/proc/sys/kernel/ns_last_pid
/fl/forkfault 200 1000 5000 &
f=$!
fl_check_ge "forker's tgid near pid_max (its children wrap to low pids)" "$f" $((PMAX - 1000))
# The ~40 ids above the forker go first, then its children wrap.  How soon
# depends on how fast the guest forks (CI once saw none wrapped after 1 s
# on a busy host): wait for a wrapped child, up to 60 s, then check it.
low_child() {
	awk -v f="$f" '$4 == f { print $1 }' /proc/[0-9]*/stat 2>/dev/null | sort -n | head -1
}
w=0
while c=$(low_child); [ "${c:-$f}" -ge "$f" ] && [ $w -lt 600 ]; do
	sleep 0.1
	w=$((w + 1))
done
echo "forker $f: lowest child $c after $w x 0.1 s"
fl_check_le "a child of the forker below it" "$c" $((f - 1))
sleep 100000 &
s=$!
fl_check_cmd "enable (filter stress)" kmod_ctl enable
case $FL_SERIES in 6.12) SETS=45 ;; *) SETS=32 ;; esac
old=0 new=0 leaky=0 i=0
while [ $i -lt $SETS ]; do
	kmod_ctl "tgid $f"
	sleep 0.05
	kmod_save_summary
	old=$((old + $(kmod_sum faults_user)))
	kmod_ctl "tgid $s"
	sleep 0.05	# a probe that passed the old filter may still be counting
	kmod_ctl reset
	sleep 0.05
	kmod_save_summary
	n=$(kmod_sum faults_user)
	new=$((new + n))
	[ "${n:-0}" -eq 0 ] || leaky=$((leaky + 1))
	kmod_ctl reset
	i=$((i + 1))
done
kmod_ctl disable
kill $f $s
wait $f $s 2>/dev/null
echo "$pmax0" >/proc/sys/kernel/pid_max
echo "filter stress: $i sets each way; faults under the forking filter $old, under the idle one $new ($leaky sets counted some)"
fl_check_ge "faults of the forking process's children under its filter" "$old" 1024
fl_check_eq "faults under the idle process's filter" "$new" 0
fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
