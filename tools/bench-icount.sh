# tools/bench's icount section, in the test box under QEMU -icount (guest
# time = guest instructions): guest instructions per fault of
# pft -m 64m -t 1 untraced and under every tier and option, median of
# COST_RUNS after a warm-up (tests/integration/cost.inc), then what each tier
# adds to the latency it reports: its fault latency p50 against pft's own
# --latency p50 untraced (both in guest ns = instructions).
#   bench-icount.sh [RUNS]      (/fl/pft-classic: the classic pft, if carried)
. /fl/lib.sh
. /fl/cost.inc
COST_RUNS=${1:-3}
rec() { faultline record -q -o /tmp/c.snap "$@" --; }
cost_settle
cost_row untraced
BASE=$COST_MEDIAN
row() {	# NAME CMD-PREFIX...
	n=$1; shift
	if cost_row "$n" "$@"; then
		echo "icount $FL_SERIES $n $COST_MEDIAN $((COST_MEDIAN - BASE))"
	else
		echo "icount $FL_SERIES $n failed"
	fi
}
echo "icount $FL_SERIES untraced $BASE 0"
if [ -x /fl/pft-classic ]; then
	COST_PFT_BIN=/fl/pft-classic row classic-pft
else
	echo "icount $FL_SERIES classic-pft unavailable (no classic pft carried: see Documentation/overhead.rst)"
fi
row fentry rec -b bpf --tier fentry
row kprobe rec -b bpf --tier kprobe
row tracepoint rec -b bpf --tier tracepoint
row fentry-hmf rec -b bpf --tier fentry --hmf
row fentry-mmap-lock rec -b bpf --tier fentry --mmap-lock
row fentry-phases rec -b bpf --tier fentry --phases
row fentry-locks rec -b bpf --tier fentry --locks
row fentry-phases-locks rec -b bpf --tier fentry --phases --locks
if [ -f /fl/faultline.ko ] && insmod /fl/faultline.ko; then
	row kmod-idle
	row kmod rec -b kmod
	row kmod-idle-after
	rmmod faultline
else
	echo "icount $FL_SERIES kmod unavailable (faultline.ko not built or refused)"
fi

# faultline serve on the meter: per fault (system-wide fentry tier, pft
# under it), then serve's own process in guest instructions per guest second
# (every thread's schedstat run time: guest ns = instructions), idle and
# scraped once a second by busybox wget
serve_ipers() {	# PID SECONDS [URL]: instructions per second of PID's threads
	t0=$(cat /proc/$1/task/*/schedstat | awk '{ s += $1 } END { print s }')
	i=0
	while [ $i -lt "$2" ]; do
		[ -n "${3:-}" ] && wget -q -O /dev/null "$3"
		sleep 1
		i=$((i + 1))
	done
	t1=$(cat /proc/$1/task/*/schedstat | awk '{ s += $1 } END { print s }')
	echo $(((t1 - t0) / $2))
}
faultline serve -q --tier fentry -i 1 --listen 127.0.0.1:9477 >/tmp/serve.txt 2>&1 &
S=$!
sleep 3
if kill -0 $S 2>/dev/null; then
	row serve-fentry
	echo "icount $FL_SERIES serve-idle $(serve_ipers $S 20) instructions/s"
	echo "icount $FL_SERIES serve-scraped-1s $(serve_ipers $S 20 http://127.0.0.1:9477/metrics) instructions/s"
	kill -TERM $S
	wait $S
else
	echo "icount $FL_SERIES serve unavailable ($(head -1 /tmp/serve.txt))"
fi

# the cost inside the figure: reported p50 vs the untraced user-observed p50
lat_p50() { sed -n 's/.* p50=\([0-9]*\) .*/\1/p' | tail -1; }
u=$(/fl/pft -m 64m -t 1 --latency 2>/dev/null | lat_p50)
echo "latency $FL_SERIES pft-untraced $u"
for t in fentry kprobe; do
	faultline record -q -b bpf --tier $t -o /tmp/l.snap -- /fl/pft -m 64m -t 1 --latency >/tmp/l.txt 2>&1
	seen=$(lat_p50 </tmp/l.txt)
	rep=$(faultline report --raw /tmp/l.snap | sed -n 's/^fault_latency.p50_ns=//p')
	echo "latency $FL_SERIES $t reported $rep user-seen $seen"
done
if [ -f /fl/faultline.ko ] && insmod /fl/faultline.ko; then
	faultline record -q -b kmod -o /tmp/l.snap -- /fl/pft -m 64m -t 1 --latency >/tmp/l.txt 2>&1
	echo "latency $FL_SERIES kmod reported $(faultline report --raw /tmp/l.snap | sed -n 's/^fault_latency.p50_ns=//p') user-seen $(lat_p50 </tmp/l.txt)"
	rmmod faultline
fi
