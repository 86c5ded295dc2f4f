# A kernel thread on a borrowed mm (kthread_use_mm) is not traced, by either
# backend (module/probes.c fl_want(), ebpf/faultline.bpf.c
# cur_kthread_or_no_mm(); architecture.rst, "Which tasks and contexts
# count").  tests/kmod/fl_usemm.ko starts a kernel thread that, on "go",
# borrows the mm of tests/helpers/usemmguest and writes one byte into each of
# its N untouched pages with copy_to_user: N kernel-mode faults of the
# thread.  For each backend (bpf fentry tier, kmod):
#  - record -p THREAD over the writes counts 0 faults and 0 handle_mm_fault
#    calls, while /proc/vmstat's pgfault rises by >= N and the guest finds
#    its N pages resident and holding the thread's byte;
#  - record -p GUEST over its own M page touches counts exactly M user
#    faults, as its own getrusage minflt says.
# kernels: 6.12 6.1
# boot: shared
# smp: 2
# timeout: 500
. /fl/lib.sh
. /fl/kmod.inc
N=256
M=1024
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
[ -f /fl/fl_usemm.ko ] || { fl_fail "tests/kmod/fl_usemm.ko was not built for $FL_KREL"; fl_done; }
[ -x /fl/usemmguest ] || fl_skip "tests/helpers/usemmguest not built"
rawn() { v=$(fl_raw "$1" "$2"); fl_isnum "$v" && echo "$v" || echo 0; }
P=/sys/module/fl_usemm/parameters
# record_bg B PID NAME: record -p PID in the background until it says it is
# tracing; sets RP
record_bg() {
	faultline record $1 -p $2 -o /tmp/$3.snap >/out/$3-record.txt 2>&1 &
	RP=$!
	i=0
	while ! grep -q 'tracing the process' /out/$3-record.txt && [ $i -lt 600 ] &&
		kill -0 $RP 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	fl_check_cmd "$3: record -p is tracing" grep -q 'tracing the process' /out/$3-record.txt
}
fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
for b in bpf kmod; do
	case $b in
	bpf) opt="-b bpf --tier fentry" ;;
	kmod) opt="-b kmod" ;;
	esac
	rm -f /tmp/go; mkfifo /tmp/go
	usemmguest $N $M /tmp/go >/out/guest-$b.txt 2>&1 &
	g=$!
	i=0
	while ! grep -q '^pid ' /out/guest-$b.txt && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	addr=$(awk '$1 == "pid" { print $4 }' /out/guest-$b.txt)
	fl_check_eq "$b: guest's pages resident before" \
		"$(awk '$1 == "resident" && $2 == "before" { print $3 }' /out/guest-$b.txt)" 0
	fl_check_cmd "$b: insmod fl_usemm.ko" insmod /fl/fl_usemm.ko pid=$g addr=$addr pages=$N
	kt=$(cat $P/kthread_pid)
	echo "$b: guest $g, kernel thread $kt ($(cat /proc/$kt/comm))"
	record_bg "$opt" "$kt" kt-$b
	v0=$(vmstat_get pgfault)
	echo 1 >$P/go
	i=0
	while [ "$(cat $P/done)" = 0 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	v1=$(vmstat_get pgfault)
	fl_check_eq "$b: pages the kernel thread wrote" "$(cat $P/done)" $N
	fl_check_ge "$b: vmstat pgfault delta over the writes (the thread faulted)" $((v1 - v0)) $N
	fl_check_cmd "$b: rmmod fl_usemm (the thread ends, record -p with it)" rmmod fl_usemm
	wait $RP
	fl_check_eq "$b: record -p THREAD exit status" $? 0
	faultline report --raw /tmp/kt-$b.snap >/out/raw-kt-$b.txt || fl_fail "$b: report --raw (thread)"
	r=/out/raw-kt-$b.txt
	echo "$b: thread: faults_user $(fl_raw $r faults_user) faults_kernel $(fl_raw $r faults_kernel)" \
		"handle_mm_fault_calls $(rawn $r handle_mm_fault_calls)"
	fl_check_eq "$b: record -p THREAD: filter is the thread" "$(fl_raw $r filter_tgid)" "$kt"
	fl_check_eq "$b: the thread's faults counted (user + kernel)" \
		$(($(fl_raw $r faults_user) + $(fl_raw $r faults_kernel))) 0
	fl_check_eq "$b: the thread's handle_mm_fault calls counted" "$(rawn $r handle_mm_fault_calls)" 0

	record_bg "$opt" "$g" own-$b
	echo go >/tmp/go
	wait $g
	fl_check_eq "$b: guest exit status" $? 0
	wait $RP
	fl_check_eq "$b: record -p GUEST exit status" $? 0
	cat /out/guest-$b.txt
	fl_check_eq "$b: guest's pages resident after" \
		"$(awk '$1 == "resident" && $2 == "after" { print $3 }' /out/guest-$b.txt)" $N
	fl_check_eq "$b: guest's pages holding the thread's byte" \
		"$(awk '$1 == "written" { print $5 }' /out/guest-$b.txt)" $N
	mf=$(awk '$1 == "own" { print $4 }' /out/guest-$b.txt)
	fl_check_eq "$b: guest's own minflt over its reads and touches" "$mf" $M
	faultline report --raw /tmp/own-$b.snap >/out/raw-own-$b.txt || fl_fail "$b: report --raw (guest)"
	fl_check_eq "$b: guest's user faults counted" "$(fl_raw /out/raw-own-$b.txt faults_user)" $M
done
fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
