# tools/bench's test-box section: each backend/tier vs untraced pft, paired,
# then the peers on the same workload (bpftrace, perf lock contention) beside
# faultline's own view of it.  QEMU TCG timing is EMULATED: this shows every
# tier and peer runs, what each one names, and its relative cost under
# emulation, never real overhead.
#   bench-guest.sh [PAIRS]      (tools/bench carries perf and bpftrace in)
PAIRS=${1:-3}
T=$(nproc)
PFT="pft -m 64m -t $T"
CHURN="churn -t $T -w 2 -p 256 -r 20"
run() { "$@" | awk 'NF == 8 && $7 ~ /^[0-9.]+$/ { print $7, $8 }' | tail -1; }
one() {	# NAME CMD-PREFIX...   (KIND=peer for a peer's row)
	name=$1; shift
	: >/tmp/p
	for i in $(seq "$PAIRS"); do
		# alternate the order (A B, B A, ...) as tools/bench does on the host
		if [ $((i % 2)) = 1 ]; then
			b=$(run $PFT)
			x=$(run "$@" $PFT)
		else
			x=$(run "$@" $PFT)
			b=$(run $PFT)
		fi
		[ -n "$b" ] && [ -n "$x" ] && echo "$b $x" >>/tmp/p
	done
	cp /tmp/p "/out/$name.pairs"
	echo "${KIND:-tier} $name ($PFT, emulated):"
	awk -f /fl/bench-stats.awk /tmp/p
}
indent() { sed 's/^/  /'; }
for tier in fentry kprobe tracepoint; do
	one "bpf-$tier" faultline record -q -b bpf --tier "$tier" -o /tmp/s.snap --
done
if [ -f /fl/faultline.ko ] && insmod /fl/faultline.ko; then
	one kmod faultline record -q -b kmod -o /tmp/s.snap --
	rmmod faultline
fi

echo "== peers in the box, same workload (emulated timing)"
# bpftrace: the one-liner latency histogram of handle_mm_fault, next to
# faultline's own handle_mm_fault histogram of the same workload
bt_hist() {
	bpftrace -q -e 'kprobe:handle_mm_fault /pid == cpid/ { @s[tid] = nsecs; }
		kretprobe:handle_mm_fault /@s[tid]/ { @ns = hist(nsecs - @s[tid]); delete(@s[tid]); }' \
		-c "$*" >/tmp/bt.txt 2>&1
	st=$?
	cat /tmp/bt.txt
	return $st
}
if command -v bpftrace >/dev/null; then
	KIND=peer one bpftrace-hmf-hist bt_hist
	echo "peer bpftrace handle_mm_fault latency, ns (last traced run, emulated):"
	grep -E '^(@|\[)' /tmp/bt.txt | indent
	grep -q '^@ns' /tmp/bt.txt || { echo "  no histogram: bpftrace said:"; tail -3 /tmp/bt.txt | indent; }
	faultline record -q -b bpf --tier fentry -o /out/hmf.snap -- $PFT >/dev/null 2>&1
	echo "peer faultline handle_mm_fault, same workload (fentry tier, emulated):"
	faultline report /out/hmf.snap 2>&1 | grep -E '^ *(faults|fault latency|handle_mm_fault) ' | indent
else
	echo "peer bpftrace: not in the box (tools/bench carries the host's /usr/bin/bpftrace: apt-get install bpftrace)"
fi

# perf lock contention: -b (BPF, needs perf built with BUILD_BPF_SKEL, see
# tools/build-perf); where it refuses, perf's tracepoint mode (record, then
# contention -i) on the same lock:contention_* tracepoints
if command -v perf >/dev/null; then
	# perf exits 0 even when its BPF skeleton fails to load: read stderr
	perf lock contention -b -a -- true >/tmp/perf-probe.txt 2>&1
	if ! grep -qE 'ailed|not available|rror' /tmp/perf-probe.txt; then
		mode=-b tag=b
		pl() { perf lock contention -b -a -E 8 "$@"; }
		plf() { perf lock contention -b -a --output /tmp/perf-pft.txt -- "$@"; }
	else
		mode="tracepoint: record + -i" tag=tracepoint
		echo "peer perf lock contention -b refused here: $( (grep -m1 -E 'ldimm64|not available' /tmp/perf-probe.txt; grep -m1 'ailed' /tmp/perf-probe.txt) | head -1); using perf lock record + contention -i"
		pl() {	# [-l] -- CMD...: record, then report like -b would
			o=; [ "$1" = -l ] && { o=-l; shift; }
			shift
			perf lock record -o /tmp/perf.data -- "$@" >/dev/null 2>&1
			perf lock contention -i /tmp/perf.data -E 8 $o
		}
		plf() { perf lock record -o /tmp/perf.data -- "$@" 2>/dev/null; }
	fi
	KIND=peer one "perf-lock-contention-$tag" plf
	echo "peer perf lock contention ($mode) on $CHURN, by caller:"
	pl -- $CHURN 2>&1 >/dev/null | grep -v '^ *$' | indent
	echo "peer perf lock contention ($mode) on $CHURN, by lock (-l):"
	pl -l -- $CHURN 2>&1 >/dev/null | grep -v '^ *$' | indent
else
	echo "peer perf lock contention: no perf in the box (tools/build-perf builds one with BUILD_BPF_SKEL=1)"
fi
one bpf-fentry-locks faultline record -q -b bpf --tier fentry --locks -o /tmp/s.snap --
faultline record -q -b bpf --tier fentry --locks -o /out/locks.snap -- $CHURN >/dev/null 2>&1
echo "peer faultline record --locks on $CHURN, lock classes:"
faultline report --locks /out/locks.snap 2>&1 | sed -n '/^class /,/^dominant/p' | indent
