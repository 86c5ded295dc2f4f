# faultline.ko's concurrency rules, exercised (issue 15):
#  1. nothing is hooked before a recording: after insmod every kretprobe of
#     the module is registered disabled (the lockless kind is set before any
#     handler can run; commit 4c64ef9), and enable arms them;
#  2. a pid collision on a per-task slot: two pft workers whose thread ids
#     are equal modulo FL_SLOT_NR (16384), placed with ns_last_pid, fault at
#     the same time; the slot passes between them only through its owner,
#     so every fault is counted or counted missed, no latency is torn, and
#     afterwards a third worker on the same slot is counted in full (a slot
#     left tagged by an exited owner would make it miss everything);
#  3. `tgid` sets while the old filter's process forks: the new filter's
#     periods count nothing of the old one's children, the old filter's
#     periods count them (fork following works under the filter lock);
#     each new-filter period starts 50 ms after the set, so that a probe that
#     tested the old filter just before it has finished counting.
# The races themselves sit in windows of a few instructions: this is a
# stress and a regression check of the rules, not a reproducer.
# kernels: 6.12 6.1 5.10
# smp: 2
# timeout: 500
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

# 2. pid collision on a slot
last=$(cat /proc/sys/kernel/ns_last_pid)
X=$((last + 300))
[ $((X + 16384)) -lt "$(cat /proc/sys/kernel/pid_max)" ] || fl_skip "pid_max too small for a collision"
mkfifo /tmp/gate
cat >/tmp/w.sh <<'EOF'
# place TID OUT: start pft -t 1 so that its worker thread gets TID; a task
# the kernel creates meanwhile (a kworker) can take it: then retry
place() {
	n=0
	while [ $n -lt 5 ]; do
		echo $(($1 - 2)) >/proc/sys/kernel/ns_last_pid
		/fl/pft -m 256m -t 1 >/dev/null 2>&1 &
		p=$!
		i=0
		while [ ! -d /proc/$p/task/$1 ] && [ -d /proc/$p ] && [ $i -lt 200000 ]; do
			i=$((i + 1))
		done
		if [ -d /proc/$p/task/$1 ]; then echo "$p $1" >$2; return; fi
		echo "placing $1: pft $p has threads $(ls /proc/$p/task 2>/dev/null | tr '\n' ' ')"
		kill $p 2>/dev/null
		wait $p
		n=$((n + 1))
	done
	echo "$p none" >$2
}
read x </tmp/gate
t0=$(cut -d' ' -f1 /proc/uptime)
place $1 /tmp/a.txt
place $(($1 + 16384)) /tmp/b.txt
wait
t1=$(cut -d' ' -f1 /proc/uptime)
cat /sys/kernel/debug/faultline/summary >/tmp/sum-collide.txt
echo "$t0 $t1" >/tmp/t-collide.txt
echo reset >/sys/kernel/debug/faultline/control
place $1 /tmp/c.txt
wait
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
fl_check_eq "worker A's thread id" "$(cut -d' ' -f2 /tmp/a.txt)" $X
fl_check_eq "worker B's thread id (A's + 16384)" "$(cut -d' ' -f2 /tmp/b.txt)" $((X + 16384))
fl_check_eq "worker C's thread id (A's again)" "$(cut -d' ' -f2 /tmp/c.txt)" $X
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
fl_check_within "alone on the slot afterwards: faults_user vs pages" "$(kmod_sum faults_user)" $PAGES 1
fl_check_eq "alone on the slot afterwards: missed" "$(kmod_sum events_missed)" 0

# 3. filter sets while the old filter's process forks
sh -c 'while :; do /fl/pft -m 4m -t 1 >/dev/null 2>&1; done' &
f=$!
sleep 100000 &
s=$!
fl_check_cmd "enable (filter stress)" kmod_ctl enable
old=0 new=0 i=0
while [ $i -lt 100 ]; do
	kmod_ctl "tgid $f"
	sleep 0.05
	kmod_save_summary
	old=$((old + $(kmod_sum faults_user)))
	kmod_ctl "tgid $s"
	sleep 0.05	# a probe that passed the old filter may still be counting
	kmod_ctl reset
	sleep 0.05
	kmod_save_summary
	new=$((new + $(kmod_sum faults_user)))
	kmod_ctl reset
	i=$((i + 1))
done
kmod_ctl disable
kill $f $s
wait $f $s 2>/dev/null
echo "filter stress: $i sets each way; faults under the forking filter $old, under the idle one $new"
fl_check_ge "faults of the forking process's children under its filter" "$old" 1024
fl_check_eq "faults under the idle process's filter" "$new" 0
fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
