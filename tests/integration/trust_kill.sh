# SIGKILL the collector mid-run on every BPF tier, then check that nothing
# leaked: BPF programs, maps and links are back to the baseline at once (the
# kernel frees them with the last fd); kprobe events the collector made in
# tracefs (kretprobes with maxactive) cannot be removed by a killed process,
# so the next record must remove them: after the restart everything is back
# to the baseline.  No half-written snapshot may be left, and the restarted
# record must count exactly.
# kernels: 6.12
# smp: 2
# timeout: 600
# bin: /usr/sbin/bpftool
. /fl/lib.sh
n_prog() { bpftool prog list 2>/dev/null | grep -c '^[0-9]*:'; }
n_map() { bpftool map list 2>/dev/null | grep -c '^[0-9]*:'; }
n_link() { bpftool link list 2>/dev/null | grep -c '^[0-9]*:'; }
n_kp() { wc -l </sys/kernel/debug/kprobes/list; }
settle() {	# BPF objects are freed after an RCU grace period
	i=0
	while [ $i -lt 20 ] && [ "$(n_prog) $(n_map) $(n_link)" != "$p0 $m0 $l0" ]; do
		sleep 0.5; i=$((i + 1))
	done
}
p0=$(n_prog) m0=$(n_map) l0=$(n_link) k0=$(n_kp)
echo "baseline: $p0 progs, $m0 maps, $l0 links, $k0 kprobes"

# The workload: pft runs again and again until /tmp/stop appears, so the
# kill lands mid-run however fast the box faults (a single pft -m 512m had
# ended before the kill on a faster guest).
for tier in fentry kprobe tracepoint; do
	rm -f /tmp/k.snap* /tmp/stop
	faultline record -q --tier $tier -o /tmp/k.snap -- \
		sh -c 'while [ ! -e /tmp/stop ]; do pft -m 64m -t 2 >/dev/null; done' >/tmp/rec.log 2>&1 &
	rp=$!
	i=0	# wait until it has attached (more programs than the baseline)
	while [ $i -lt 60 ] && [ "$(n_prog)" -le "$p0" ]; do sleep 0.25; i=$((i + 1)); done
	fl_check_ge "$tier: programs attached while recording" "$(n_prog)" $((p0 + 1))
	sleep 1
	busy=no i=0	# pft, not the loop between two runs
	while [ $i -lt 20 ] && [ $busy = no ]; do
		pidof pft >/dev/null && busy=yes || sleep 0.05
		i=$((i + 1))
	done
	fl_check_eq "$tier: pft still faulting when the collector is killed" "$busy" yes
	kill -9 $rp || cat /tmp/rec.log
	wait $rp 2>/dev/null
	touch /tmp/stop
	while pidof pft >/dev/null; do sleep 0.5; done
	settle
	fl_check_eq "$tier: BPF programs back to baseline" "$(n_prog)" "$p0"
	fl_check_eq "$tier: BPF maps back to baseline" "$(n_map)" "$m0"
	fl_check_eq "$tier: BPF links back to baseline" "$(n_link)" "$l0"
	echo "$tier: kprobes registered after the kill: $(n_kp) (baseline $k0)"
	left=$(ls /tmp/k.snap* 2>/dev/null | wc -l)
	fl_check_eq "$tier: no snapshot or temp file left behind" "$left" 0
done

faultline record -q -o /out/after.snap -- pft -m 64m -t 2 >/dev/null
fl_check_eq "record after the kills exits 0" $? 0
user=$(faultline report --raw /out/after.snap | sed -n 's/^faults_user=//p')
fl_check_within "record after the kills: user faults vs 16384 pages" "$user" 16384 1
fl_check_cmd "record after the kills: invariants hold" faultline check /out/after.snap
faultline record -q --tier kprobe -o /tmp/kp.snap -- pft -m 16m >/dev/null
settle
fl_check_eq "after a restart: BPF programs back to baseline" "$(n_prog)" "$p0"
fl_check_eq "after a restart: BPF maps back to baseline" "$(n_map)" "$m0"
fl_check_eq "after a restart: kprobes back to baseline" "$(n_kp)" "$k0"
fl_check_eq "after a restart: no stale kprobe events" "$(grep -c faultline /sys/kernel/tracing/kprobe_events)" 0
fl_done
