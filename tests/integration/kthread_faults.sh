# Kernel threads, and tasks without an mm, are not traced, by either backend
# (module/probes.c fl_want(), ebpf/faultline.bpf.c cur_kthread_or_no_mm();
# architecture.rst, "Which tasks and contexts count").
#  1. tests/helpers/reqmod makes the kernel exec modprobe_path N times as a
#     usermode helper (request_module("net-pf-40")); each exec copies its
#     arguments into the new mm with GUP (get_arg_page -> handle_mm_fault)
#     from a kernel thread (5.10) or a user-mode thread with no mm yet
#     (6.x).  modprobe_path is a marker script, so the execs are counted
#     here.  A system-wide recording must count none of those calls: its
#     handle_mm_fault calls outside faults (calls - faults timed - the
#     second calls of retried faults) stay under N/4, on the module and on
#     bpf (bpf counted them before: 301 for N = 300 on 6.12).
#  2. io_uring's io-wq worker (tests/helpers/uringread: N pages read from
#     /dev/zero with IOSQE_ASYNC) is a thread of the process (PF_IO_WORKER;
#     Debian's 5.10 has the 5.15 io_uring backport): both backends count
#     its N kernel-mode faults; the kernel's pgfault delta shows them.
# kernels: 6.12 6.1 5.10
# boot: shared
# smp: 2
# timeout: 500
. /fl/lib.sh
. /fl/kmod.inc
N=300		# usermode helper execs
P=8192		# pages: 32 MiB
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
[ -x /fl/reqmod ] || fl_skip "tests/helpers/reqmod not built"
[ -x /fl/uringread ] || fl_skip "tests/helpers/uringread not built"
# rawn FILE KEY: a counter, 0 where absent on this kernel (no lockless path)
rawn() { v=$(fl_raw "$1" "$2"); fl_isnum "$v" && echo "$v" || echo 0; }

printf '#!/bin/sh\necho x >>/tmp/umh.log\n' >/tmp/umh.sh
chmod 755 /tmp/umh.sh
mp0=$(cat /proc/sys/kernel/modprobe)
fl_check_cmd "modprobe_path = the marker script" sh -c 'echo /tmp/umh.sh >/proc/sys/kernel/modprobe'
fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
for b in kmod bpf; do
	rm -f /tmp/umh.log
	/fl/faultline record -b $b -a -q -o /tmp/umh-$b.snap -- /fl/reqmod $N >/out/umh-$b.txt 2>&1
	rc=$?
	cat /out/umh-$b.txt
	fl_check_eq "$b: record -a -- reqmod exit status" "$rc" 0
	fl_check_eq "$b: usermode helper execs (marker lines)" "$(wc -l </tmp/umh.log 2>/dev/null)" $N
	/fl/faultline report --raw /tmp/umh-$b.snap >/out/umh-raw-$b.txt || { fl_fail "$b: report --raw"; continue; }
	r=/out/umh-raw-$b.txt
	fu=$(fl_raw $r faults_user) hmf=$(rawn $r handle_mm_fault_calls)
	outside=$((hmf - $(rawn $r faults_timed) - $(rawn $r lockless_retried) - $(rawn $r mmap_lock_retries)))
	echo "$b: faults_user $fu, handle_mm_fault_calls $hmf, outside faults $outside"
	fl_check_ge "$b: handle_mm_fault calls counted" "$hmf" $N
	fl_check_le "$b: handle_mm_fault calls outside faults (the helpers' GUP not counted)" \
		"$outside" $((N / 4))
	fl_check_ge "$b: the helpers' own user faults counted (after exec)" "$fu" $N
done
echo "$mp0" >/proc/sys/kernel/modprobe

for b in kmod bpf; do
	before=$(vmstat_get pgfault)
	/fl/faultline record -b $b -a -q -o /tmp/uring-$b.snap -- /fl/uringread $P >/out/uring-$b.txt 2>&1
	rc=$?
	after=$(vmstat_get pgfault)
	cat /out/uring-$b.txt
	fl_check_eq "$b: record -a -- uringread exit status" "$rc" 0
	fl_check_cmd "$b: uringread read $P pages" grep -q "^read $((P * 4096)) bytes" /out/uring-$b.txt
	fl_check_ge "$b: the kernel's pgfault delta (the worker faulted)" $((after - before)) $P
	/fl/faultline report --raw /tmp/uring-$b.snap >/out/uring-raw-$b.txt || { fl_fail "$b: report --raw"; continue; }
	fl_check_ge "$b: kernel faults system-wide (the io worker's $P counted)" \
		"$(fl_raw /out/uring-raw-$b.txt faults_kernel)" $P
done
fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
