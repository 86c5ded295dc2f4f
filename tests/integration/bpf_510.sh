# The bpf backend on Debian bullseye's 5.10: no task-local storage and no
# bpf_get_current_task_btf there (5.11), so the per-task state is a
# preallocated hash keyed by tid, emptied at exit (ebpf/faultline.bpf.c
# task_btf, user/backend_bpf.c).  Every tier loads; faults are counted
# against the pages pft touches and the vmstat pgfault delta this scenario
# reads itself; the figures 5.10 cannot give (mmap_lock tracepoints 5.11,
# lock:contention 5.19, no lockless path) are unavailable or absent, never
# 0; a forking workload is followed; many threads asleep in
# handle_mm_fault lose no kretprobe; the guest dmesg stays clean (the 5.10
# verifier WARNs on a run-time allocated hash in a tracing program).
# kernels: 5.10
# smp: 2
# timeout: 400
. /fl/lib.sh
PAGES=65536	# pft -m 256m
pgfault() { awk '$1 == "pgfault" { print $2 }' /proc/vmstat; }

fl_check_cmd "faultline probe" sh -c 'faultline probe >/out/probe.txt 2>&1'
cat /out/probe.txt
fl_check_cmd "probe: per-task state is the tid hash" \
	grep -q '^bpf per-task state: a hash of 32768 tids' /out/probe.txt
fl_check_cmd "probe: record would use the fentry tier" \
	grep -q "record would use: bpf backend, fentry" /out/probe.txt

for tier in fentry kprobe tracepoint; do
	echo "=== tier $tier"
	# the collector's own start-up faults (libbpf, BTF, maps): an empty recording's delta
	before=$(pgfault)
	faultline record -q --tier $tier -o /tmp/empty.snap -- true >/dev/null 2>&1
	self=$(( $(pgfault) - before ))
	before=$(pgfault)
	faultline record -q --tier $tier -o /out/$tier.snap -- pft -m 256m -t 2 >/out/rec-$tier.txt 2>&1
	fl_check_eq "$tier: record returns pft's exit status" $? 0
	after=$(( $(pgfault) - self ))
	echo "$tier: pgfault delta $((after + self - before)) around record, $self around an empty one"
	faultline report --raw /out/$tier.snap >/out/raw-$tier.txt || { fl_fail "$tier: report"; continue; }
	r=/out/raw-$tier.txt
	user=$(fl_raw $r faults_user)
	fl_check_within "$tier: user faults vs pages touched" "$user" $PAGES 1
	fl_check_within "$tier: faults vs the vmstat pgfault delta (read here, less the empty recording's)" \
		$((user + $(fl_raw $r faults_kernel))) $((after - before)) 1
	fl_check_eq "$tier: events_missed" "$(fl_raw $r events_missed)" 0
	case $(fl_raw $r mmap_lock_hold_read.count) in
	"unavailable (the kernel has no mmap_lock tracepoints (5.11+))") fl_pass "$tier: mmap_lock hold unavailable, 5.11+" ;;
	*) fl_fail "$tier: mmap_lock hold: $(fl_raw $r mmap_lock_hold_read.count)" ;;
	esac
	case $(fl_raw $r mmap_lock_contended) in
	unavailable*5.19*) fl_pass "$tier: contention unavailable, 5.19+" ;;
	*) fl_fail "$tier: mmap_lock_contended: $(fl_raw $r mmap_lock_contended)" ;;
	esac
	case $(fl_raw $r lockless_attempted) in
	absent*) fl_pass "$tier: lockless figures absent" ;;
	*) fl_fail "$tier: lockless_attempted: $(fl_raw $r lockless_attempted)" ;;
	esac
	[ $tier = tracepoint ] && continue
	fl_check_within "$tier: faults timed vs faults" "$(fl_raw $r faults_timed)" \
		$((user + $(fl_raw $r faults_kernel))) 0.1
	fl_check_eq "$tier: latency samples = faults timed (invariant)" \
		"$(fl_raw $r fault_latency.count)" "$(fl_raw $r faults_timed)"
	fl_check_ge "$tier: fault latency min > 0" "$(fl_raw $r fault_latency.min_ns)" 1
	fl_check_eq "$tier: faults never reaching handle_mm_fault" "$(fl_raw $r faults_unhandled)" 0
done

echo "=== children: pft -n 2 (two processes) followed through fork"
faultline record -q -o /out/fork.snap -- pft -m 128m -n 2 >/dev/null 2>&1
faultline report --raw /out/fork.snap >/out/raw-fork.txt
fl_check_within "fork: user faults of both children vs pages" "$(fl_raw /out/raw-fork.txt faults_user)" 32768 1

echo "=== kprobe tier, more threads than CPUs asleep in handle_mm_fault"
faultline record -q --tier kprobe -o /out/kp32.snap -- pft -m 64m -t 32 >/dev/null 2>&1
faultline report --raw /out/kp32.snap >/out/raw-kp32.txt
fl_check_eq "kprobe -t 32: events_missed" "$(fl_raw /out/raw-kp32.txt events_missed)" 0
fl_check_within "kprobe -t 32: faults timed vs user faults" "$(fl_raw /out/raw-kp32.txt faults_timed)" \
	$(( $(fl_raw /out/raw-kp32.txt faults_user) + $(fl_raw /out/raw-kp32.txt faults_kernel) )) 0.1
fl_done
