# A kernel-mode fault on a user address taken in interrupt context is not a
# fault of the task: the module's probes test in_task(), the BPF programs
# the running kernel's mask on preempt_count (include/faultline/intask.h
# cur_in_task(); the layout from BTF: 7.x moved hardirq/NMI above an
# interrupt-disable count, issue 26; architecture.rst, "Which tasks and
# contexts count").  The trigger is perf's user call-chain walk:
# tests/helpers/ucallchain keeps %rbp in an
# untouched page while perf samples it (cycles in NMI, or cpu-clock in hard
# IRQ where there is no PMU, as here under TCG), so every sample takes a
# kernel-mode fault that the handler fixes up (the page stays absent).
# Independent reference: the samples the helper read from its ring.  Each
# backend and BPF tier must count no more kernel faults than the helper's
# own few (under samples / 10); BPF counted one per sample before (and on
# 7.x, with the <= 6.x mask, ~2200 again).  No faultline.ko for the booted
# kernel: the kmod backend is skipped, the BPF tiers still checked.
# kernels: 7.3 6.12 6.1
# boot: shared
# smp: 2
# timeout: 600
. /fl/lib.sh
. /fl/kmod.inc
L=400000000	# spin loops: ~1000 samples or more at 1 kHz
[ -x /fl/ucallchain ] || fl_skip "tests/helpers/ucallchain not built"
backends="fentry kprobe tracepoint"
if [ -f /fl/faultline.ko ]; then
	fl_check_cmd "insmod faultline.ko" insmod /fl/faultline.ko
	backends="kmod $backends"
else
	fl_skip_check "kmod backend" "no /fl/faultline.ko for $FL_KREL in this box"
fi
# the layout probe names: by the kernel's version here, by BTF there
case $FL_KREL in 7.*) want=7.x ;; *) want="<=" ;; esac
lay=$(faultline probe | grep '^preempt_count layout:')
echo "$lay"
fl_check_eq "probe: preempt_count layout of $FL_KREL" "$(echo "$lay" | awk '{ print $3 }')" "$want"
for b in $backends; do
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
	fk=$(fl_raw /out/raw-$b.txt faults_kernel)
	echo "$b: samples $s, faults_kernel $fk, faults_user $(fl_raw /out/raw-$b.txt faults_user)"
	fl_check_le "$b: kernel faults counted (not the samples' interrupt faults)" "$fk" $((s / 10))
done
[ -f /fl/faultline.ko ] && fl_check_cmd "rmmod faultline" rmmod faultline
fl_done
