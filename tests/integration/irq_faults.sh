# A kernel-mode fault on a user address taken in interrupt context is not a
# fault of the task: the module's probes test in_task(), the BPF programs
# the same mask on preempt_count (ebpf/faultline.bpf.c cur_in_task();
# architecture.rst, "Which tasks and contexts count").  The trigger is
# perf's user call-chain walk: tests/helpers/ucallchain keeps %rbp in an
# untouched page while perf samples it (cycles in NMI, or cpu-clock in hard
# IRQ where there is no PMU, as here under TCG), so every sample takes a
# kernel-mode fault that the handler fixes up (the page stays absent).
# Independent reference: the samples the helper read from its ring.  Each
# backend and BPF tier must count no more kernel faults than the helper's
# own few (under samples / 10); BPF counted one per sample before.
# kernels: 6.12 6.1
# timeout: 600
. /fl/lib.sh
. /fl/kmod.inc
L=400000000	# spin loops: ~1000 samples or more at 1 kHz
[ -f /fl/faultline.ko ] || { fl_fail "faultline.ko was not built for $FL_KREL"; fl_done; }
[ -x /fl/ucallchain ] || fl_skip "tests/helpers/ucallchain not built"
raw() { awk -F= -v k="$2" '$1 == k { print $2; exit }' "$1"; }
fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
for b in kmod fentry kprobe tracepoint; do
	case $b in
	kmod) opt="-b kmod" ;;
	*) opt="-b bpf --tier $b" ;;
	esac
	faultline record $opt -q -o /tmp/$b.snap -- ucallchain $L >/out/$b.txt 2>&1
	rc=$?
	cat /out/$b.txt
	fl_check_eq "$b: record -- ucallchain exit status" "$rc" 0
	s=$(awk '$1 == "samples" { print $2 }' /out/$b.txt)
	fl_check_ge "$b: perf samples of the helper (each a fault in interrupt context)" "$s" 200
	fl_check_eq "$b: the frame-pointer page stayed absent (faults fixed up)" \
		"$(awk '$1 == "resident" { print $2 }' /out/$b.txt)" 0
	faultline report --raw /tmp/$b.snap >/out/raw-$b.txt || { fl_fail "$b: report --raw"; continue; }
	fk=$(raw /out/raw-$b.txt faults_kernel)
	echo "$b: samples $s, faults_kernel $fk, faults_user $(raw /out/raw-$b.txt faults_user)"
	fl_check_le "$b: kernel faults counted (not the samples' interrupt faults)" "$fk" $((s / 10))
done
fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
