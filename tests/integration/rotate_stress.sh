# Interval rotation loses no event: two recordings of the same process run
# side by side, one with `-i 0.002` (a slot flip, grace period, read and
# zero every interval: >= 1000 rotations), one without; the interval
# snapshots of the first, merged by `faultline report`, must count exactly
# what the second counted, counter by counter (faults, handle_mm_fault calls,
# lockless outcomes, mmap_lock events, every histogram's sample count).
# Both attach to a shell that waits on a fifo before it starts a pft loop,
# and both stop when it has exited, so they see the same events; no timing
# enters the verdict (latency sums differ: each recording reads its own
# clock). A rotation that read the old slot while a program was still
# writing it would lose those events from the sum, or count them twice.
# tests/host/rotate_host.sh runs the same on this machine's kernel (the
# tracepoint tier on the development host: fewer counters, same rule).
# rcu_expedited: each rotation's grace period is a synchronize_rcu()
# (backend_bpf.c); expedited, the 1000 rotations come in 30 s of the box
# instead of 100, over 645k faults instead of 1.7M (2026-12-05): a flip
# every ~600 faults rather than every ~1700, the same race more often.
# kernels: 6.12
# smp: 2
# append: rcupdate.rcu_expedited=1
# timeout: 600
if [ -n "$FL_HOST_OUT" ]; then		# on the host: tests/host/rotate_host.sh
	TOP=$(cd "$(dirname "$0")/../.." && pwd)
	. "$TOP/tests/integration/lib.sh"
	OUT=$FL_HOST_OUT
	T=$(mktemp -d /tmp/rotate_stress.XXXXXX) || exit 1
	trap 'rm -rf "$T"' EXIT
	mkdir -p "$OUT"
	[ "$(id -u)" = 0 ] || fl_skip "needs root"
	[ -x "$TOP/user/faultline" ] && [ -x "$TOP/tools/pft/pft" ] ||
		fl_skip "build user/faultline and tools/pft/pft first"
	export PATH=$TOP/user:$TOP/tools/pft:$PATH
	THREADS=1			# a shared 2-CPU machine: leave it one
else
	. /fl/lib.sh
	OUT=/out T=/tmp THREADS=2
	[ -x /fl/faultline ] || fl_skip "user/faultline not built"
	[ -x /fl/pft ] || fl_skip "pft not built"
	export PATH=/fl:$PATH
fi

export T THREADS
MIN_ROT=1000
PAGES=4096		# pft -m 16m: base pages per run (pft asks for no THP)

wait_for() {	# FILE TEXT SECONDS
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt $(($3 * 10)) ] && return 1
		sleep 0.1
	done
}


rm -rf $T/rot $T/gate $T/stop $T/iters
mkfifo $T/gate
sh -c 'read x < $T/gate; n=0
	while [ ! -e $T/stop ]; do pft -m 16m -t $THREADS >/dev/null 2>&1 || exit 1; n=$((n + 1)); done
	echo $n > $T/iters' &
wl=$!

faultline record -i 0.002 -o $T/rot -p $wl >$OUT/record-rot.txt 2>&1 &
rot=$!
faultline record -o $T/ref.snap -p $wl >$OUT/record-ref.txt 2>&1 &
ref=$!
if ! wait_for $OUT/record-rot.txt "tracing the process" 120 ||
   ! wait_for $OUT/record-ref.txt "tracing the process" 120; then
	fl_fail "both recordings attached"
	cat $OUT/record-rot.txt $OUT/record-ref.txt
	kill $rot $ref $wl 2>/dev/null
	echo go > $T/gate &
	fl_done
fi
echo go > $T/gate

# the rotations are counted by the snapshots written; 400 s at most
t=0
while [ "$(ls $T/rot 2>/dev/null | wc -l)" -lt $((MIN_ROT + 10)) ] && [ $t -lt 400 ]; do
	sleep 1
	t=$((t + 1))
done
touch $T/stop
wait $wl
fl_check_eq "workload exit status" $? 0
wait $rot
fl_check_eq "rotating record exit status" $? 0
wait $ref
fl_check_eq "reference record exit status" $? 0
tail -n 3 $OUT/record-rot.txt
iters=$(cat $T/iters 2>/dev/null)
echo "pft runs: $iters, after ${t}s"

if ! faultline report --raw $T/rot >$OUT/raw-rot.txt 2>$OUT/report-rot.err ||
   ! faultline report --raw $T/ref.snap >$OUT/raw-ref.txt 2>$OUT/report-ref.err; then
	fl_fail "report --raw of both recordings"
	cat $OUT/report-rot.err $OUT/report-ref.err
	fl_done
fi
nsnap=$(fl_raw $OUT/raw-rot.txt snapshots)
fl_check_ge "interval snapshots (rotations)" "$nsnap" $MIN_ROT
fl_check_ge "faults counted by the reference" "$(fl_raw $OUT/raw-ref.txt faults_user)" \
	$(( ${iters:-0} * PAGES ))
echo "events missed: rotating $(fl_raw $OUT/raw-rot.txt events_missed), reference $(fl_raw $OUT/raw-ref.txt events_missed)"

# every counter and every sample count, compared exactly
n=0
while IFS='=' read -r key want; do
	case $key in
	snapshots|duration_ns|nr_cpus|filter_tgid|events_missed|bpf_recursion_misses|vmstat.*|*_ns) continue ;;
	esac
	case $want in ''|*[!0-9]*) continue ;; esac
	fl_check_eq "sum of $nsnap intervals, $key" "$(fl_raw $OUT/raw-rot.txt "$key")" "$want"
	n=$((n + 1))
done <$OUT/raw-ref.txt
fl_check_ge "counters compared" $n 5
fl_done
