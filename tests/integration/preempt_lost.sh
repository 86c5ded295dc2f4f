# Lost events under preemption, every one counted (issue 26).  On
# preemptible kernels (6.12 booted preempt=full; 7.3, lazy preemption only)
# fentry/fexit programs run with migration disabled but preemptible (on 7.x
# tracepoint programs too): a program preempted mid-run holds the kernel's
# per-program, per-CPU recursion guard (__bpf_prog_enter_recur), and the
# next task on that CPU skips the program, counted in its
# bpf_prog_info.recursion_misses.  More threads than vCPUs make it happen.
# Documentation/architecture.rst, "Preemptible kernels".  Checked, per
# skeleton, for `record --phases --blame` around pft -t 4 and blamewriter:
#   faultline: every fault counted ends in exactly one of: ended (its last
#     handle_mm_fault return seen), unhandled (no return seen: no
#     handle_mm_fault call, or its only return skipped), events_missed (it
#     reached handle_mm_fault, its last return was skipped: found at the
#     task's next fault or at its exit).  So, exactly:
#       faults_user + faults_kernel = faults_ended + faults_unhandled + events_missed
#     pft never takes an unhandled fault: each of those unhandled and missed
#     is a skipped program run, <= bpf_lost.fault_ends + task_switches (the
#     kernel's count of skipped handle_mm_fault returns and switches);
#     and a skipped fault start is not counted at all: counted +
#     bpf_lost.fault_starts >= pft's own pages.
#   every skeleton: bpf_recursion_misses.{faultline,phases,blame} tagged,
#     bpf_recursion_misses = their sum, bpf_lost.* present.
#   blame: the writer's mprotect() row: write holds <= its calls (the
#     helper's count) <= write holds + bpf_lost.write_holds.
# On a kernel where nothing is preempted every loss is 0 and the sums hold
# the same (the control: 6.12 without preempt=full runs it too).
# kernels: 6.12 7.3
# append: preempt=full
# smp: 2
# timeout: 900
. /fl/lib.sh
export PATH=/fl:$PATH
[ -x /fl/pft ] || fl_skip "pft not in the box"
[ -x /fl/blamewriter ] || fl_skip "blamewriter not in the box (make -C tests/helpers)"
raw() { sed -n "s/^$2=//p" "$1" | head -1; }
json_num() { sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p" "$1" | head -1; }
grep -o 'preempt=[a-z]*' /proc/cmdline
cat /sys/kernel/debug/sched/preempt 2>/dev/null

# every skeleton's skipped runs tagged, the total their sum
skels() {	# LABEL RAW
	sum=0
	for k in faultline phases blame; do
		v=$(raw "$2" bpf_recursion_misses.$k)
		if fl_isnum "$v"; then sum=$((sum + v))
		else fl_fail "$1: bpf_recursion_misses.$k tagged: got '$v'"; fi
	done
	fl_check_eq "$1: bpf_recursion_misses = faultline + phases + blame" \
		"$(raw "$2" bpf_recursion_misses)" "$sum"
}

# ---- pft: faults counted = ended + lost, exactly --------------------------
faultline record -q -b bpf --tier fentry --phases --blame -o /tmp/pft.snap -- \
	pft -m 64m -t 4 --json >/out/pft.json 2>/out/pft.err
fl_check_eq "record --phases --blame -- pft -t 4 exit status" "$?" 0
cat /out/pft.json /out/pft.err
faultline report --raw /tmp/pft.snap >/out/pft.raw 2>&1
faultline report /tmp/pft.snap >/out/pft.report 2>&1
grep -E '^(faults_|events_missed|bpf_)' /out/pft.raw

grep -A16 'recursion misses' /out/pft.report
fu=$(raw /out/pft.raw faults_user) fk=$(raw /out/pft.raw faults_kernel)
fe=$(raw /out/pft.raw faults_timed) un=$(raw /out/pft.raw faults_unhandled)
mi=$(raw /out/pft.raw events_missed) le=$(raw /out/pft.raw bpf_lost.fault_ends)
ls=$(raw /out/pft.raw bpf_lost.fault_starts) lw=$(raw /out/pft.raw bpf_lost.task_switches)
pages=$(json_num /out/pft.json pages)
for v in "$fu" "$fk" "$fe" "$un" "$mi" "$le" "$ls" "$lw" "$pages"; do
	fl_isnum "$v" || { fl_fail "pft figures: got '$fu' '$fk' '$fe' '$un' '$mi' '$le' '$ls' '$lw' '$pages'"; fl_done; }
done
echo "pft: counted $((fu + fk)) ended $fe unhandled $un missed $mi;" \
	"skipped runs: fault ends $le, fault starts $ls, switches $lw"
fl_check_eq "faults counted ($fu + $fk) = ended + unhandled + missed ($fe + $un + $mi)" \
	$((fu + fk)) $((fe + un + mi))
fl_check_le "losses found (unhandled $un + missed $mi) <= skipped returns + switches ($le + $lw)" \
	$((un + mi)) $((le + lw))
fl_check_ge "faults counted + skipped starts ($fu + $fk + $ls) >= pft's pages" \
	$((fu + fk + ls)) "$pages"
skels pft /out/pft.raw

# ---- blamewriter: write holds seen + lost cover the writer's calls --------
N=300
faultline record -q -b bpf --tier fentry --phases --blame -o /tmp/bw.snap -- \
	blamewriter -t 3 -p 256 -n $N >/out/bw.txt 2>&1
fl_check_eq "record --phases --blame -- blamewriter -t 3 -n $N exit status" "$?" 0
cat /out/bw.txt
faultline report --raw /tmp/bw.snap >/out/bw.raw 2>&1
grep -E '^(faults_|events_missed|bpf_)' /out/bw.raw
calls=$(grep -o 'writer_calls=[0-9]*' /out/bw.txt | cut -d= -f2)
holds=0 i=0
while [ "$i" -lt "$(raw /out/bw.raw blame.rows)" ]; do
	[ "$(raw /out/bw.raw blame.row.$i.what)" = "mprotect()" ] &&
		[ "$(raw /out/bw.raw blame.row.$i.comm)" = bl-writer ] &&
		holds=$((holds + $(raw /out/bw.raw blame.row.$i.holds)))
	i=$((i + 1))
done
lh=$(raw /out/bw.raw bpf_lost.write_holds)
echo "blamewriter: calls $calls, mprotect() write holds $holds, skipped write-hold runs $lh"
fl_check_eq "blamewriter's own count of calls" "$calls" $N
fl_check_le "mprotect() write holds ($holds) <= calls" "$holds" "$calls"
fl_check_ge "write holds + skipped write-hold runs ($holds + ${lh:-x}) >= calls" \
	$((holds + ${lh:-0})) "$calls"
fl_isnum "$lh" || fl_fail "bpf_lost.write_holds tagged: got '$lh'"
fu=$(raw /out/bw.raw faults_user) fk=$(raw /out/bw.raw faults_kernel)
fe=$(raw /out/bw.raw faults_timed) un=$(raw /out/bw.raw faults_unhandled)
mi=$(raw /out/bw.raw events_missed)
fl_check_eq "blamewriter: faults counted ($fu + $fk) = ended + unhandled + missed ($fe + $un + $mi)" \
	$((fu + fk)) $((fe + un + mi))
skels blamewriter /out/bw.raw
fl_done
