# Collector memory at 256 possible CPUs (2 online): per-CPU BPF maps, the
# per-CPU read and the snapshot are sized for every possible CPU, so this
# measures what a 256-CPU machine costs.  6.1 honours possible_cpus=256;
# 6.12 (x86 topology rework) only lowers the count with it and takes the
# possible CPUs from the MADT: QEMU's maxcpus, at most 255 under TCG (APIC
# ID 255 needs x2APIC with a kernel irqchip).  Sizes only, never times.
# Targets (issue 8): collector peak RSS <= 16 MiB, BPF map memory <= 8 MiB.
# Peak RSS is GNU time's %M (wait4 ru_maxrss): busybox's time -v reports it
# 4x too large (it takes KiB for pages).
# kernels: 6.12 6.1
# smp: 2,maxcpus=255
# append: possible_cpus=256
# mem: 2048
# timeout: 600
# bin: /usr/bin/time
. /fl/lib.sh

RSS_MAX_KB=16384
MAPS_MAX_B=8388608

possible=$(cat /sys/devices/system/cpu/possible)
online=$(cat /sys/devices/system/cpu/online)
echo "mem256: possible CPUs $possible, online $online, kernel $(uname -r)"
npos=$((${possible##*-} + 1))
fl_check_ge "possible CPUs (6.1: 256, 6.12 under TCG: 255)" "$npos" 255
fl_check_eq "online CPUs" "$(nproc)" 2

# map memory of PID: one line per map (id type value_size max_entries
# memlock), deduplicated by map id (a map shared by two skeletons has two fds)
maps_of() {
	for f in /proc/$1/fdinfo/*; do
		awk '/^map_type/ { t = $2 } /^value_size/ { v = $2 } /^max_entries/ { e = $2 }
		     /^memlock/ { m = $2 } /^map_id/ { id = $2 }
		     END { if (t != "") print id, t, v, e, m }' "$f" 2>/dev/null
	done | sort -un -k1,1
}

# run_rec NAME ARGS...: faultline record -a ARGS while pft runs, stopped
# with SIGINT; the collector has no child, so ru_maxrss is its own peak RSS
# (with a command to run, it would include the workload's).  VmHWM before
# the stop is the peak of loading and tracing; the final read, write and
# summary come after it.
run_rec() {
	name=$1; shift
	rm -f /out/$name.err /out/$name.maps
	/usr/bin/time -f %M -o /out/$name.time faultline record -a -o /out/$name.snap "$@" \
		>/out/$name.out 2>/out/$name.err &
	tpid=$!
	i=0
	while ! grep -q "tracing system-wide" /out/$name.err 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 600 ] || ! kill -0 $tpid 2>/dev/null; then
			cat /out/$name.err
			fl_fail "$name: collector did not start"
			return 1
		fi
		sleep 0.5
	done
	rpid=$(pidof faultline)
	pft -m 64m -t 2 >/dev/null
	maps_of "$rpid" >/out/$name.maps
	pre=$(awk '/^VmHWM/ { h = $2 } /^VmRSS/ { r = $2 } END { print h, r }' /proc/$rpid/status)
	kill -INT "$rpid"
	wait $tpid
	fl_check_eq "$name: record exits 0" $? 0
	rss=$(tail -n 1 /out/$name.time)
	maps=$(awk '{ s += $5; n++ } END { print s + 0, n + 0 }' /out/$name.maps)
	cpus=$(faultline report --raw /out/$name.snap | sed -n 's/^nr_cpus=//p')
	size=$(wc -c </out/$name.snap)
	echo "mem256: $name: before the stop: VmHWM ${pre% *} KiB, VmRSS ${pre#* } KiB"
	echo "mem256: $name: peak RSS ${rss} KiB, BPF maps ${maps% *} B in ${maps#* } maps, snapshot $cpus CPUs $size B"
	sed "s/^/mem256: $name: map id type value_size max_entries memlock: /" /out/$name.maps
	fl_check_eq "$name: snapshot CPUs = possible CPUs" "$cpus" "$npos"
	fl_check_ge "$name: peak RSS measured (KiB)" "${rss:-0}" 1
	if [ "${rss:-0}" -le $RSS_MAX_KB ]; then
		fl_pass "$name: peak RSS <= 16 MiB: got $rss KiB"
	else
		fl_fail "$name: peak RSS <= 16 MiB: got $rss KiB"
	fi
}

run_rec bpf -b bpf
if [ "${maps% *}" -le $MAPS_MAX_B ] 2>/dev/null; then
	fl_pass "bpf: BPF map memory <= 8 MiB: got ${maps% *} B"
else
	fl_fail "bpf: BPF map memory <= 8 MiB: got ${maps% *} B"
fi
fl_check_ge "bpf: user faults recorded" \
	"$(faultline report --raw /out/bpf.snap | sed -n 's/^faults_user=//p')" 16384

# --phases --locks: their own maps, reported (documented, not in the 8 MiB)
run_rec phases -b bpf --phases --locks

if [ -f /fl/faultline.ko ] && insmod /fl/faultline.ko; then
	run_rec kmod -b kmod
	fl_check_ge "kmod: user faults recorded" \
		"$(faultline report --raw /out/kmod.snap | sed -n 's/^faults_user=//p')" 16384
	rmmod faultline
else
	fl_fail "faultline.ko did not load"
fi
fl_done
